//! The table of BENCHMARKS.md, from one command:
//!
//! ```sh
//! cargo bench --bench table              # prints the table
//! cargo bench --bench table -- --write   # and puts it into BENCHMARKS.md
//! ```
//!
//! For each size (1,000, 10,000 and 100,000 units; one combat per ten units) it generates the
//! synthetic game (`pbem::synth`), resolves it once, then measures in this process the median of
//! several runs of each piece of work and of its floor (see `common/mod.rs`), and runs the release
//! `pbem resolve --turn 1 --force` binary (and this program doing the floor) under `/usr/bin/time -v`
//! for their wall time and peak resident memory. `--quick` stops at 10,000 units. Ingest is measured
//! on mailboxes of 10 to 10,000 messages, and the largest are also read by pbem's parser alone and by
//! Python's `mailbox` + `email` (`benches/python_mailbox.py`, run as `python3`), side by side.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use common::*;

/// One line of the table.
struct Row {
    work: String,
    size: String,
    median: f64,
    floor: f64,
    /// The median of the same work at the size ten times smaller.
    smaller: Option<f64>,
    /// Wall time and peak RSS (KiB) of the work and of its floor as processes, when measured.
    process: Option<(f64, u64, f64, u64)>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        child(&args[i + 1..]);
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let write = args.iter().any(|a| a == "--write");
    let sizes: Vec<usize> = SIZES
        .iter()
        .copied()
        .filter(|&n| !quick || n <= 10_000)
        .collect();

    let mut rows: Vec<Row> = Vec::new();
    let mut notes = Vec::new();
    let mut last: [Option<f64>; 4] = [None; 4];
    for &units in &sizes {
        let runs = runs(units);
        let spec = spec(units);
        let started = Instant::now();
        let dir = fresh_game(units);
        eprintln!(
            "{units} units: generated and resolved once in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        let outs = outputs(&dir);
        let size = format!(
            "{} units, {} combats",
            thousands(units),
            thousands(spec.combats)
        );
        let total: usize = outs.iter().map(|(_, b)| b.len()).sum();
        notes.push(format!(
            "{size}: the turn writes {} files, {:.1} MB ({})",
            outs.len(),
            total as f64 / 1e6,
            output_sizes(&outs)
                .iter()
                .map(|(k, (n, b))| format!("{n} {k} {:.1} MB", *b as f64 / 1e6))
                .collect::<Vec<_>>()
                .join(", ")
        ));

        let adjudicate_t = time(runs, || {
            adjudicate(&dir);
        });
        let inputs_t = time(runs, || {
            load_inputs(&dir);
        });
        rows.push(Row {
            work: "adjudicate: the rules alone, in memory".into(),
            size: size.clone(),
            median: adjudicate_t,
            floor: inputs_t,
            smaller: last[3],
            process: None,
        });
        last[3] = Some(adjudicate_t);

        let resolve_t = time(runs, || {
            resolve(&dir);
        });
        let resolve_f = time(runs, || {
            resolve_floor(&dir, &outs);
        });
        let process = process_row(&dir, if units >= 100_000 { 1 } else { 3 });
        rows.push(Row {
            work: "resolve a turn, reports included".into(),
            size: size.clone(),
            median: resolve_t,
            floor: resolve_f,
            smaller: last[0],
            process: Some(process),
        });
        last[0] = Some(resolve_t);

        let audit_t = time(runs, || {
            audit(&dir);
        });
        let audit_f = time(runs, || {
            audit_floor(&dir);
        });
        rows.push(Row {
            work: format!("audit a turn ({:.2}x resolve)", audit_t / resolve_t),
            size: size.clone(),
            median: audit_t,
            floor: audit_f,
            smaller: last[1],
            process: None,
        });
        last[1] = Some(audit_t);

        let input = RenderInput::new(&dir);
        let render_t = time(runs, || {
            input.render_all();
        });
        let render_f = time(runs, || {
            input.render_floor();
        });
        rows.push(Row {
            work: format!("render all {} reports", spec.powers),
            size,
            median: render_t,
            floor: render_f,
            smaller: last[2],
            process: None,
        });
        last[2] = Some(render_t);
    }

    let mut smaller = None;
    let mut python_rows = Vec::new();
    for messages in [10, 100, 1_000, 10_000] {
        let (files, mbox) = mail_game(messages);
        let runs = if messages >= 1_000 { 3 } else { 7 };
        // Each run ingests into a fresh copy of the game (written outside the time measured).
        let timed = |f: &dyn Fn(&Path, &Path) -> usize| -> f64 {
            let mut secs = Vec::new();
            for _ in 0..=runs {
                let dir = fresh_copy(&files, "ingest");
                let t = Instant::now();
                f(&dir, &mbox);
                secs.push(t.elapsed().as_secs_f64());
            }
            secs.remove(0);
            median(secs)
        };
        let t = timed(&ingest);
        let f = timed(&ingest_floor);
        rows.push(Row {
            work: format!(
                "ingest a mailbox ({:.0} messages per second)",
                messages as f64 / t
            ),
            size: format!("{} messages, 24 powers", thousands(messages)),
            median: t,
            floor: f,
            smaller,
            process: None,
        });
        smaller = Some(t);
        if messages >= 1_000 {
            // Side by side with Python's standard library reading the same mailbox.
            let parse_t = time(5, || {
                std::hint::black_box(parse_mailbox(&mbox));
            });
            let split_t = time(5, || {
                std::hint::black_box(split_mailbox(&mbox));
            });
            python_rows.push(Row {
                work: format!(
                    "parse a mailbox: sender, subject, text ({:.0} messages per second)",
                    messages as f64 / parse_t
                ),
                size: format!("{} messages", thousands(messages)),
                median: parse_t,
                floor: split_t,
                smaller: None,
                process: None,
            });
            if let Some((py, version)) =
                python_mailbox(&mbox, if messages >= 10_000 { 3 } else { 5 })
            {
                python_rows.push(Row {
                    work: format!(
                        "the same, Python {version} mailbox + email ({:.0} messages per second; pbem ingest {:.2}x, its parse {:.1}x as fast; floor: pbem's parse)",
                        messages as f64 / py,
                        py / t,
                        py / parse_t
                    ),
                    size: format!("{} messages", thousands(messages)),
                    median: py,
                    floor: parse_t,
                    smaller: None,
                    process: None,
                });
            } else {
                eprintln!("python3 benches/python_mailbox.py did not run: no Python row");
            }
        }
    }
    rows.extend(python_rows);

    let mut dice_rows = Vec::new();
    let mut smaller = [None, None];
    for n in [10_000, 100_000, 1_000_000] {
        let d = time(9, || {
            std::hint::black_box(d6(n));
        });
        let f = time(9, || {
            std::hint::black_box(d6_floor(n));
        });
        dice_rows.push(Row {
            work: format!("d6 ({:.1} M per second)", n as f64 / d / 1e6),
            size: format!("{} dice", thousands(n)),
            median: d,
            floor: f,
            smaller: smaller[0],
            process: None,
        });
        smaller[0] = Some(d);
        let list = labels(n / 10);
        let l = time(9, || {
            std::hint::black_box(labelled(&list));
        });
        let f = time(9, || {
            std::hint::black_box(labelled_floor(&list));
        });
        dice_rows.push(Row {
            work: format!(
                "labelled streams, one d6 each ({:.2} M labels per second)",
                list.len() as f64 / l / 1e6
            ),
            size: format!("{} labels", thousands(list.len())),
            median: l,
            floor: f,
            smaller: smaller[1],
            process: None,
        });
        smaller[1] = Some(l);
    }
    rows.extend(dice_rows);

    let table = render_table(&rows, &notes);
    println!("{table}");
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

/// How many runs each measurement takes at a size.
fn runs(units: usize) -> usize {
    match units {
        n if n <= 1_000 => 15,
        n if n <= 10_000 => 9,
        _ => 3,
    }
}

/// The median wall time of `runs` runs of `f`, in seconds, after one run to warm up (when there are
/// more than three: the largest size is warm from the runs before it).
fn time(runs: usize, mut f: impl FnMut()) -> f64 {
    if runs > 3 {
        f();
    }
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

/// Wall time and peak RSS of `pbem resolve` and of the floor as processes: the median of `runs` runs.
fn process_row(dir: &Path, runs: usize) -> (f64, u64, f64, u64) {
    let pbem = env!("CARGO_BIN_EXE_pbem");
    let me = std::env::current_exe().expect("this program");
    let dir = dir.to_str().expect("a UTF-8 path");
    let run = |cmd: &[&str]| -> (f64, u64) {
        let mut walls = Vec::new();
        let mut peak = 0;
        for _ in 0..runs {
            let (w, p) = time_v(cmd);
            walls.push(w);
            peak = peak.max(p);
        }
        (median(walls), peak)
    };
    let (w, p) = run(&[pbem, "resolve", dir, "--turn", "1", "--force"]);
    let (fw, fp) = run(&[me.to_str().expect("a UTF-8 path"), "--child", "floor", dir]);
    (w, p, fw, fp)
}

/// Runs a command under `/usr/bin/time -v`: its wall time in seconds and its peak RSS in KiB.
fn time_v(cmd: &[&str]) -> (f64, u64) {
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .args(cmd)
        .output()
        .expect("/usr/bin/time runs (apt-get install time)");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8_lossy(&out.stderr);
    let field = |name: &str| -> &str {
        report
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .unwrap_or_else(|| panic!("no '{name}' in {report}"))
            .trim()
    };
    let rss = field("Maximum resident set size (kbytes):")
        .parse()
        .expect("a number of KiB");
    // "h:mm:ss" or "m:ss.ss".
    let wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss):")
        .split(':')
        .fold(0.0, |acc, part| {
            acc * 60.0 + part.parse::<f64>().unwrap_or(0.0)
        });
    (wall, rss)
}

/// The work this program does when it is measured as a process: `--child floor <dir>`; and
/// `--child adjudicate <dir>`, which times the adjudication alone; `--child generate <units> <dir>
/// [<messages>]`, which writes the synthetic game of that size (and `<dir>.mbox`, its mailbox).
fn child(args: &[String]) {
    match args {
        [what, dir] if what == "floor" => {
            let dir = Path::new(dir);
            let outs = outputs(dir);
            resolve_floor(dir, &outs);
        }
        [what, dir] if what == "adjudicate" => {
            let t = Instant::now();
            let n = adjudicate(Path::new(dir));
            eprintln!("{n} events in {:.3} s", t.elapsed().as_secs_f64());
        }
        [what, units, dir, rest @ ..] if what == "generate" => {
            let units: usize = units.parse().expect("a number of units");
            let mut spec = spec(units);
            spec.messages = rest
                .first()
                .map_or(0, |m| m.parse().expect("a number of messages"));
            let files = pbem::synth::write_game(&spec, Path::new(dir)).expect("written");
            if spec.messages > 0 {
                std::fs::write(format!("{dir}.mbox"), pbem::synth::mbox(&spec, &files))
                    .expect("the mailbox is written");
            }
            eprintln!("{:?}", files.summary);
        }
        _ => panic!(
            "usage: table --child floor <game folder> | --child adjudicate <game folder> \
             | --child generate <units> <folder> [<messages>]"
        ),
    }
}

fn render_table(rows: &[Row], notes: &[String]) -> String {
    let mut out = String::from(
        "| work | size | median | floor | ratio to floor | growth for 10x | process wall (floor) | peak RSS (floor) |\n\
         |---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let growth = r
            .smaller
            .map_or("".to_string(), |s| format!("{:.1}x", r.median / s));
        let (wall, rss) = match r.process {
            Some((w, p, fw, fp)) => (
                format!("{} ({})", secs(w), secs(fw)),
                format!("{} ({})", mib(p), mib(fp)),
            ),
            None => (String::new(), String::new()),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {:.2} | {growth} | {wall} | {rss} |\n",
            r.work,
            r.size,
            secs(r.median),
            secs(r.floor),
            r.median / r.floor,
        ));
    }
    out.push('\n');
    for n in notes {
        out.push_str(&format!("- {n}\n"));
    }
    out.push_str(&format!(
        "- measured on {} with {} cores\n",
        std::env::consts::ARCH,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    ));
    out
}

fn secs(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}

fn mib(kib: u64) -> String {
    format!("{:.0} MiB", kib as f64 / 1024.0)
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
