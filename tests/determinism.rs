//! Determinism across environments: the demo resolved under other time zones, locales, working
//! folders, with `HOME` unset or with no environment at all, gives the same bytes, file for file.
//! Nothing pbem writes may depend on the machine it runs on: its dates are game dates in the game's
//! time zone, its randomness is pbem-dice/v1, its collections iterate in a fixed order.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use assert_cmd::Command;

type Tree = BTreeMap<String, Vec<u8>>;

/// Every file under `dir` (but the lock), by relative path with `/`.
fn tree(dir: &Path) -> Tree {
    let mut out = Tree::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().unwrap() != ".lock" {
                let rel: Vec<String> = p
                    .strip_prefix(dir)
                    .unwrap()
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.insert(rel.join("/"), fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Asserts two game folders hold the same files with the same bytes.
fn assert_same(a: &Tree, b: &Tree, what: &str) {
    let only_a: Vec<&String> = a.keys().filter(|k| !b.contains_key(*k)).collect();
    let only_b: Vec<&String> = b.keys().filter(|k| !a.contains_key(*k)).collect();
    assert!(
        only_a.is_empty() && only_b.is_empty(),
        "{what}: files differ: {only_a:?} against {only_b:?}"
    );
    for (path, bytes) in a {
        if &b[path] != bytes {
            let (x, y) = (
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(&b[path]),
            );
            let line = x
                .lines()
                .zip(y.lines())
                .position(|(l, m)| l != m)
                .map_or(0, |n| n + 1);
            panic!("{what}: {path} differs, first at line {line}");
        }
    }
}

/// The environment of a run.
#[derive(Clone, Copy)]
struct Env {
    name: &'static str,
    vars: &'static [(&'static str, &'static str)],
    /// Remove HOME (and keep the rest).
    no_home: bool,
    /// Start from an empty environment.
    clear: bool,
}

const ENVS: [Env; 5] = [
    Env {
        name: "UTC, C locale",
        vars: &[("TZ", "UTC"), ("LANG", "C"), ("LC_ALL", "C")],
        no_home: false,
        clear: false,
    },
    Env {
        name: "Kolkata, Turkish",
        vars: &[
            ("TZ", "Asia/Kolkata"),
            ("LANG", "tr_TR.UTF-8"),
            ("LC_ALL", "tr_TR.UTF-8"),
        ],
        no_home: false,
        clear: false,
    },
    Env {
        name: "St John's, Japanese, no HOME",
        vars: &[
            ("TZ", "America/St_Johns"),
            ("LANG", "ja_JP.UTF-8"),
            ("LC_TIME", "ja_JP.UTF-8"),
        ],
        no_home: true,
        clear: false,
    },
    Env {
        name: "POSIX TZ string, German",
        vars: &[
            ("TZ", "CET-1CEST,M3.5.0,M10.5.0/3"),
            ("LANG", "de_DE.UTF-8"),
        ],
        no_home: false,
        clear: false,
    },
    Env {
        name: "no environment at all",
        vars: &[],
        no_home: true,
        clear: true,
    },
];

fn pbem(env: Env, cwd: &Path) -> Command {
    let mut c = Command::cargo_bin("pbem").expect("the pbem binary");
    if env.clear {
        c.env_clear();
    }
    c.env_remove("PBEM_CRASH_BEFORE");
    if env.no_home {
        c.env_remove("HOME");
    }
    for (k, v) in env.vars {
        c.env(k, v);
    }
    c.current_dir(cwd);
    c
}

/// Runs `cmd`, failing the test with its error output (after `what`) unless it succeeds.
fn run_ok(cmd: &mut Command, what: &str) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `pbem demo --dir <work>/<sub>/d` from `<work>/<cwd>`, naming the folder relatively; returns
/// the game folder's files and the summary printed, with the folder's path taken out.
fn demo(env: Env, work: &Path, sub: &str, cwd: &str) -> (Tree, String) {
    let cwd = work.join(cwd);
    fs::create_dir_all(&cwd).unwrap();
    fs::create_dir_all(work.join(sub)).unwrap();
    let rel = pathdiff(&work.join(sub).join("d"), &cwd);
    let out = run_ok(pbem(env, &cwd).args(["demo", "--dir"]).arg(&rel), env.name);
    let stdout = String::from_utf8(out.stdout)
        .unwrap()
        .replace(rel.to_str().unwrap(), "<dir>");
    (tree(&work.join(sub).join("d")), stdout)
}

/// `to` relative to `from` (both under one folder): `../../x/d`.
fn pathdiff(to: &Path, from: &Path) -> std::path::PathBuf {
    let to: Vec<_> = to.components().collect();
    let from: Vec<_> = from.components().collect();
    let common = to.iter().zip(&from).take_while(|(a, b)| a == b).count();
    let mut out = std::path::PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for c in &to[common..] {
        out.push(c);
    }
    out
}

#[test]
fn the_demo_gives_the_same_bytes_in_every_time_zone_locale_and_working_folder() {
    let work = tempfile::tempdir().unwrap();
    let (first, first_out) = demo(ENVS[0], work.path(), "run0", ".");
    assert!(first.contains_key("ulm-1805/turns/1/record.toml"));
    let cwds = ["a", "a/b/c", "run2", "."];
    for (k, env) in ENVS.iter().enumerate().skip(1) {
        let (t, out) = demo(*env, work.path(), &format!("run{k}"), cwds[k - 1]);
        assert_same(&first, &t, env.name);
        assert_eq!(first_out, out, "{}: the summary printed differs", env.name);
    }
}

#[test]
fn resolving_again_under_another_environment_and_folder_gives_the_same_bytes() {
    let work = tempfile::tempdir().unwrap();
    let (first, _) = demo(ENVS[0], work.path(), "x", ".");
    let game = work.path().join("x/d/ulm-1805");
    for (k, env) in ENVS.iter().enumerate() {
        // The same folder named from elsewhere: by its absolute path, from its parent, from far away.
        let (cwd, arg) = match k % 3 {
            0 => (work.path().to_path_buf(), game.clone()),
            1 => (work.path().join("x/d"), "ulm-1805".into()),
            _ => {
                let far = work.path().join("elsewhere/deep");
                fs::create_dir_all(&far).unwrap();
                let rel = pathdiff(&game, &far);
                (far, rel)
            }
        };
        run_ok(
            pbem(*env, &cwd)
                .args(["resolve", "--turn", "1", "--force"])
                .arg(&arg),
            env.name,
        );
        assert_same(&first, &tree(&work.path().join("x/d")), env.name);
    }
}

#[test]
fn the_name_the_game_folder_is_given_does_not_change_the_bytes() {
    let work = tempfile::tempdir().unwrap();
    let (first, _) = demo(ENVS[0], work.path(), "x", ".");
    let game = work.path().join("x/d/ulm-1805");
    // From inside the folder, as `.`.
    run_ok(
        pbem(ENVS[0], &game).args(["resolve", "--turn", "1", "--force", "."]),
        "resolved as `.`",
    );
    assert_same(&first, &tree(&work.path().join("x/d")), "resolved as `.`");
    // Renamed.
    let renamed = work.path().join("x/d/my-game");
    fs::rename(&game, &renamed).unwrap();
    run_ok(
        pbem(ENVS[0], work.path())
            .args(["resolve", "--turn", "1", "--force"])
            .arg(&renamed),
        "resolved in a renamed folder",
    );
    let mut again = tree(&work.path().join("x/d"));
    again = again
        .into_iter()
        .map(|(k, v)| (k.replacen("my-game/", "ulm-1805/", 1), v))
        .collect();
    assert_same(&first, &again, "resolved in a renamed folder");
}

/// The reports of a turn are made on several threads (`pbem::parallel`): how many changes nothing,
/// neither the bytes nor the files, for a game of many powers and for the demo.
#[test]
fn the_number_of_threads_making_the_reports_does_not_change_the_bytes() {
    let work = tempfile::tempdir().unwrap();
    let synth = work.path().join("synth");
    // More powers than threads, so that every count splits the reports differently.
    pbem::synth::write_game(&pbem::synth::Spec::per_power(16, 12), &synth).unwrap();
    let (_, _) = demo(ENVS[0], work.path(), "x", ".");
    let demo_game = work.path().join("x/d/ulm-1805");
    for game in [&synth, &demo_game] {
        let mut first: Option<Tree> = None;
        for threads in ["1", "2", "7"] {
            let mut args = vec!["resolve", "--turn", "1"];
            if first.is_some() || game == &demo_game {
                args.push("--force");
            }
            run_ok(
                pbem(ENVS[0], work.path())
                    .env("PBEM_THREADS", threads)
                    .args(&args)
                    .arg(game),
                &format!("{threads} threads"),
            );
            let now = tree(game);
            match &first {
                None => first = Some(now),
                Some(f) => assert_same(f, &now, &format!("{threads} threads")),
            }
        }
    }
}
