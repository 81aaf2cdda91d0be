//! The table of BENCHMARKS.md, from one command:
//!
//! ```sh
//! cargo bench --bench table              # prints the table
//! cargo bench --bench table -- --write   # and puts it into BENCHMARKS.md
//! cargo bench --bench table -- --quick   # without the two largest turns
//! cargo bench --bench table -- --only 4,167   # the cases whose name holds "4,167", printed
//! ```
//!
//! Each case is a synthetic game (`pbem::synth`, as `cargo run --example synth` writes it, with its
//! defaults) run by the release binary as a referee runs it, under `/usr/bin/time -v`: its wall
//! time, CPU time and peak resident memory. Each run works on a fresh copy of the game folder (kept
//! until the table is made: no run follows the deletion of another's thousands of files); what
//! the run wrote is found by comparing the folder before and after (files new or changed: their
//! number, their bytes, the largest mail of the outbox). The floor is `dd conv=fsync` writing as
//! many bytes to the same disk, timed twice right after the run, the faster of the two. The phone map's row takes the CPU time of
//! `report::phone_map` (the framed map or the overview, as the report mail chooses) and
//! `png::render` for each power of the smallest turn, in this process. The table says the machine (CPU, cores, memory), how busy
//! other work kept its cores during the runs (from `/proc/stat`, less the runs' own CPU time), the
//! commit and the date.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime};

use pbem::synth::{self, Spec};

/// A game run as a process.
struct Case {
    powers: usize,
    units_per_power: usize,
    /// Messages in the mailbox `pbem ingest` reads; 0: the case resolves turn 1.
    messages: usize,
    /// Whether `--quick` leaves it out.
    large: bool,
}

const CASES: [Case; 5] = [
    Case {
        powers: 24,
        units_per_power: 417,
        messages: 0,
        large: false,
    },
    Case {
        powers: 24,
        units_per_power: 4_167,
        messages: 0,
        large: true,
    },
    Case {
        powers: 1_000,
        units_per_power: 10,
        messages: 0,
        large: false,
    },
    Case {
        powers: 1_000,
        units_per_power: 100,
        messages: 0,
        large: true,
    },
    Case {
        powers: 24,
        units_per_power: 40,
        messages: 10_000,
        large: false,
    },
];

/// One run of a case.
#[derive(Clone, Copy, Default)]
struct Run {
    wall: f64,
    cpu: f64,
    rss_kib: u64,
    files: usize,
    bytes: u64,
    largest_mail: u64,
    /// `dd conv=fsync` of `bytes`, in seconds.
    dd: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned();
    // A table of some cases only is printed, never written into BENCHMARKS.md.
    let write = only.is_none() && args.iter().any(|a| a == "--write");
    let runs: usize = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .map_or(3, |n| n.parse().expect("--runs N"));
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-scale");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("the scratch folder");
    let started = chrono::Utc::now();
    // The cores other work kept busy during each run (the load average would count the runs).
    let mut others = Vec::new();
    let mut rows = Vec::new();
    for case in CASES
        .iter()
        .filter(|c| !quick || !c.large)
        .filter(|c| only.as_ref().is_none_or(|o| name(c).contains(o.as_str())))
    {
        let t = Instant::now();
        let (source, mbox) = generate(case, &scratch.join(format!("game-{}", rows.len())));
        // The largest turns run once: each is minutes of a shared machine.
        let n = if case.large { 1 } else { runs };
        let mut done: Vec<Run> = Vec::new();
        for i in 0..n {
            // Each run has a folder of its own, all removed when the table is made: a file system
            // that has just deleted thousands of files creates the next ones slower (ext4 looks
            // for inodes not recently freed), which no referee's turn meets.
            let dir = scratch.join(format!("run-{}-{i}", rows.len()));
            copy_dir(&source, &dir);
            let before = tree(&dir);
            let dir_s = dir.to_str().expect("a UTF-8 path");
            let busy = machine_busy();
            let (wall, cpu, rss_kib) = match &mbox {
                Some(m) => time_v(&["ingest", dir_s, m.to_str().expect("a UTF-8 path")]),
                None => time_v(&["resolve", dir_s]),
            };
            others.push(((machine_busy() - busy - cpu) / wall.max(1e-3)).max(0.0));
            let written = written(&before, &tree(&dir));
            let bytes: u64 = written.iter().map(|(_, b)| b).sum();
            let largest_mail = written
                .iter()
                .filter(|(p, _)| p.components().any(|c| c.as_os_str() == "outbox"))
                .map(|(_, b)| *b)
                .max()
                .unwrap_or(0);
            // The floor is what the disk can do: the faster of two writes, as the first one after
            // a turn's gigabytes often waits for the disk to take in what came before.
            let dd = dd_fsync(&scratch, bytes).min(dd_fsync(&scratch, bytes));
            // The disk takes in those writes after `dd` has its answer: the next run waits a little
            // rather than write behind them.
            std::thread::sleep(std::time::Duration::from_secs(10));
            done.push(Run {
                wall,
                cpu,
                rss_kib,
                files: written.len(),
                bytes,
                largest_mail,
                dd,
            });
        }
        let name = name(case);
        eprintln!("{name}: {:.0} s in all", t.elapsed().as_secs_f64());
        rows.push(row(&name, &done));
    }
    let phone = "phone map of one power (SVG and PNG), 24 powers x 417 units";
    if only.as_ref().is_none_or(|o| phone.contains(o.as_str())) {
        rows.push(phone_row(phone, &scratch));
    }
    let table = render(&rows, started, &others);
    println!("{table}");
    let _ = std::fs::remove_dir_all(&scratch);
    if write {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("BENCHMARKS.md");
        let text = std::fs::read_to_string(&path).expect("BENCHMARKS.md");
        let (begin, end) = ("<!-- table:begin -->", "<!-- table:end -->");
        let (Some(a), Some(b)) = (text.find(begin), text.find(end)) else {
            panic!("BENCHMARKS.md has no {begin} ... {end} block");
        };
        let new = format!("{}{begin}\n{table}{}", &text[..a], &text[b..]);
        std::fs::write(&path, new).expect("BENCHMARKS.md is written");
        eprintln!("wrote {}", path.display());
    }
}

/// The phone maps' row: each power's phone map of the first case's turn, resolved without PNGs
/// (`turn::compute`, which `RenderInput` makes the turn again with, reads every output as text),
/// in CPU seconds of this thread.
fn phone_row(name: &str, scratch: &Path) -> String {
    let dir = scratch.join("phone");
    let mut spec = Spec::per_power(CASES[0].powers, CASES[0].units_per_power);
    spec.map_png = false;
    synth::write_game(&spec, &dir).expect("the synthetic game is written");
    time_v(&["resolve", dir.to_str().expect("a UTF-8 path")]);
    let maps = common::RenderInput::new(&dir).phone_maps();
    let secs: Vec<f64> = maps.iter().map(|m| m.0).collect();
    let worst = secs.iter().copied().fold(0.0, f64::max);
    let (_, (w, h), b) = maps.iter().max_by_key(|m| m.2).copied().unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    format!(
        "| {name} | {} powers | | {} CPU a power (slowest {}) | | largest PNG {w} x {h} px, {} | | | |",
        maps.len(),
        secs_text(common::median(secs)),
        secs_text(worst),
        size_text(b as u64)
    )
}

/// A case's name in the table.
fn name(case: &Case) -> String {
    match case.messages {
        0 => format!(
            "resolve: {} powers x {} units",
            thousands(case.powers),
            thousands(case.units_per_power)
        ),
        m => format!(
            "ingest: {} messages, {} powers",
            thousands(m),
            thousands(case.powers)
        ),
    }
}

/// Writes the case's game into `dir` (and its mailbox beside it): the folder, and the mailbox's path.
fn generate(case: &Case, dir: &Path) -> (PathBuf, Option<PathBuf>) {
    let dir = dir.to_path_buf();
    let mut spec = Spec::per_power(case.powers, case.units_per_power);
    spec.messages = case.messages;
    let files = synth::write_game(&spec, &dir).expect("the synthetic game is written");
    let mbox = (case.messages > 0).then(|| {
        let path = dir.with_extension("mbox");
        std::fs::write(&path, synth::mbox(&spec, &files)).expect("the mailbox is written");
        path
    });
    (dir, mbox)
}

/// A table row: medians of the runs (the largest mail and the peak, their largest).
fn row(name: &str, runs: &[Run]) -> String {
    let med = |f: fn(&Run) -> f64| common::median(runs.iter().map(f).collect());
    let wall = med(|r| r.wall);
    let dd = med(|r| r.dd);
    let bytes = med(|r| r.bytes as f64) as u64;
    let files = med(|r| r.files as f64) as usize;
    let mail = runs.iter().map(|r| r.largest_mail).max().unwrap_or(0);
    let rss = runs.iter().map(|r| r.rss_kib).max().unwrap_or(0);
    format!(
        "| {name} | {} | {} | {} | {:.0} MiB | {} files, {} | {} | {} | {:.1} |",
        runs.len(),
        secs_text(wall),
        secs_text(med(|r| r.cpu)),
        rss as f64 / 1024.0,
        thousands(files),
        size_text(bytes),
        if mail > 0 {
            size_text(mail)
        } else {
            String::new()
        },
        secs_text(dd),
        wall / dd.max(1e-6)
    )
}

/// The table, with the machine, the work beside the runs, the commit and the date.
fn render(rows: &[String], started: chrono::DateTime<chrono::Utc>, others: &[f64]) -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|l| l.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|l| l.trim().trim_end_matches(" kB").parse::<f64>().ok())
        })
        .map_or(String::new(), |kib| {
            format!(", {:.0} GiB of memory", kib / 1024.0 / 1024.0)
        });
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    let commit = git(&["rev-parse", "--short", "HEAD"]);
    let dirty = if git(&["status", "--porcelain", "--untracked-files=no"]).is_empty() {
        ""
    } else {
        " (with uncommitted changes)"
    };
    // The kernel's writing of the runs' files is counted as other work: a little of it is theirs.
    let others = others.iter().copied().fold(0.0, f64::max);
    let loaded = if others > 0.25 {
        format!(
            " **Other work ran beside the cases** (it kept up to {others:.1} of the {cores} cores busy \
             during a run): the times are longer than on a quiet machine; the ratios to the floor, taken \
             in the same minutes, say more."
        )
    } else {
        format!(
            " Other work kept at most {others:.2} of a core busy during a run (the kernel's writing \
             of the runs' files included)."
        )
    };
    let mut out = format!(
        "Measured {} at commit `{commit}`{dirty} on {cpu}, {cores} cores{memory}, with \
         `cargo bench --bench table -- --write`.{loaded}\n\n",
        started.format("%Y-%m-%d %H:%M UTC"),
    );
    out.push_str(
        "| case | runs | wall (median) | CPU, user + system | peak RSS | written | largest mail | `dd conv=fsync` of as many bytes | wall / dd |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out.push_str(r);
        out.push('\n');
    }
    out
}

/// Runs the release `pbem` with `args` under `/usr/bin/time -v`: wall seconds, CPU seconds (user
/// and system), peak RSS in KiB.
fn time_v(args: &[&str]) -> (f64, f64, u64) {
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(env!("CARGO_BIN_EXE_pbem"))
        .arg("--quiet")
        .args(args)
        .output()
        .expect("/usr/bin/time runs (apt-get install time)");
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pbem {args:?} failed: {report}");
    let field = |name: &str| -> &str {
        report
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .unwrap_or_else(|| panic!("no '{name}' in {report}"))
            .trim()
    };
    let number = |name: &str| field(name).parse::<f64>().unwrap_or(0.0);
    // "h:mm:ss" or "m:ss.ss".
    let wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss):")
        .split(':')
        .fold(0.0, |acc, part| {
            acc * 60.0 + part.parse::<f64>().unwrap_or(0.0)
        });
    let cpu = number("User time (seconds):") + number("System time (seconds):");
    let rss = field("Maximum resident set size (kbytes):")
        .parse()
        .expect("a number of KiB");
    (wall, cpu, rss)
}

/// The floor: `dd` writing `bytes` zeros in blocks of a MiB to a file in `scratch`, synced
/// (`conv=fsync`); its wall time.
fn dd_fsync(scratch: &Path, bytes: u64) -> f64 {
    let path = scratch.join("dd.floor");
    let mib = bytes.div_ceil(1 << 20).max(1);
    let t = Instant::now();
    let status = Command::new("dd")
        .arg("if=/dev/zero")
        .arg(format!("of={}", path.display()))
        .args([
            "bs=1M",
            &format!("count={mib}"),
            "conv=fsync",
            "status=none",
        ])
        .status()
        .expect("dd runs");
    let secs = t.elapsed().as_secs_f64();
    assert!(status.success(), "dd failed");
    let _ = std::fs::remove_file(&path);
    secs
}

/// Every file under `dir`: its size and time of change.
fn tree(dir: &Path) -> BTreeMap<PathBuf, (u64, SystemTime)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("a folder").flatten() {
            let meta = e.metadata().expect("its metadata");
            if meta.is_dir() {
                stack.push(e.path());
            } else {
                let changed = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                out.insert(e.path(), (meta.len(), changed));
            }
        }
    }
    out
}

/// The files of `after` new or changed since `before`, with their sizes.
fn written(
    before: &BTreeMap<PathBuf, (u64, SystemTime)>,
    after: &BTreeMap<PathBuf, (u64, SystemTime)>,
) -> Vec<(PathBuf, u64)> {
    after
        .iter()
        .filter(|(p, m)| before.get(*p) != Some(m))
        .map(|(p, (len, _))| (p.clone(), *len))
        .collect()
}

/// Copies the folder `from` to `to`, as `cp -a`.
fn copy_dir(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .expect("cp runs");
    assert!(status.success(), "cp -a failed");
}

/// The CPU time the machine's cores have spent busy since it started, in seconds (`/proc/stat`:
/// every state but idle and waiting for the disk, in the kernel's ticks of 1/100 s).
fn machine_busy() -> f64 {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let ticks: Vec<f64> = stat
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(1)
        .map(|t| t.parse().unwrap_or(0.0))
        .collect();
    // user, nice, system, (idle, iowait,) irq, softirq, steal.
    [0, 1, 2, 5, 6, 7]
        .iter()
        .filter_map(|&i| ticks.get(i))
        .sum::<f64>()
        / 100.0
}

fn secs_text(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else {
        format!("{:.1} ms", s * 1e3)
    }
}

fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.2} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b => format!("{:.0} KiB", b as f64 / 1024.0),
    }
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
