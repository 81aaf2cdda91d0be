//! Issue 22.4: the conventions of a command-line tool. Every `--help` shows its examples one per
//! line; the exit codes are the referee's guide's table, which the program and `--help` agree with; shell
//! completions and a man page; `--quiet` and `--verbose`; colour and progress only on a terminal,
//! colour never with `NO_COLOR`.

use crate::support;

use std::fs;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Stdio;

use pbem::commands::exit;
use support::*;

/// The names of every subcommand pbem has (but clap's own `help`).
fn subcommands() -> Vec<String> {
    pbem::commands::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "help")
        .collect()
}

fn stdout_of(args: &[&str]) -> String {
    let out = pbem().args(args).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_help_shows_its_examples_one_per_line() {
    let names = subcommands();
    assert!(names.len() >= 20, "{names:?}");
    for name in &names {
        for flag in ["-h", "--help"] {
            let help = stdout_of(&[name, flag]);
            let lines: Vec<&str> = help.lines().collect();
            let at = lines
                .iter()
                .position(|l| *l == "Examples:")
                .unwrap_or_else(|| panic!("pbem {name} {flag} has no Examples:\n{help}"));
            let examples: Vec<&str> = lines[at + 1..]
                .iter()
                .take_while(|l| !l.is_empty())
                .copied()
                .collect();
            assert!(!examples.is_empty(), "pbem {name} {flag}:\n{help}");
            for line in &examples {
                // Each line is one command (an environment variable may come first), never two
                // examples run together.
                let command = line
                    .trim_start()
                    .split_once("pbem ")
                    .map(|(before, after)| (before.trim(), after));
                let ok = line.starts_with("  ")
                    && command.is_some_and(|(env, after)| {
                        (env.is_empty() || (env.contains('=') && !env.contains(' ')))
                            && after.starts_with(&format!("{name} "))
                            || after == name.as_str()
                    })
                    && line.matches("pbem ").count() <= 2;
                assert!(ok, "pbem {name} {flag}: example line {line:?}\n{help}");
            }
            // Nothing else mentions an example: they all stand in the section.
            assert_eq!(help.matches("Example").count(), 1, "pbem {name}:\n{help}");
        }
    }
}

/// The rows of the referee's guide's "Exit codes" table: (code, meaning).
fn guide_exit_codes() -> Vec<(u8, String)> {
    let guide = fs::read_to_string("docs/REFEREE.md").unwrap();
    let section = guide
        .split("\n## Exit codes\n")
        .nth(1)
        .expect("docs/REFEREE.md has a section ## Exit codes");
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            Some((cells.first()?.parse().ok()?, cells.get(1)?.to_string()))
        })
        .collect()
}

#[test]
fn the_exit_codes_are_the_guide_s_table_and_help_and_mail_md_agree() {
    let table: Vec<(u8, String)> = exit::TABLE
        .iter()
        .map(|(c, m)| (*c, m.to_string()))
        .collect();
    assert_eq!(guide_exit_codes(), table);
    let help = stdout_of(&["--help"]);
    for (code, meaning) in exit::TABLE {
        assert!(help.contains(&format!("  {code}  {meaning}")), "{help}");
    }
    // The codes the program returns are the constants of the table.
    for code in [
        exit::OK,
        exit::ERROR,
        exit::USAGE,
        exit::REJECTED,
        exit::MISMATCH,
        exit::UNDELIVERED,
    ] {
        assert!(exit::TABLE.iter().any(|(c, _)| *c == code));
    }
    // What the other documents and every --help say of an exit code is in the table, and `send`'s
    // is 5 wherever it is named.
    let mut texts = vec![
        (
            "MAIL.md".to_string(),
            fs::read_to_string("MAIL.md").unwrap(),
        ),
        (
            "ORDERS.md".to_string(),
            fs::read_to_string("ORDERS.md").unwrap(),
        ),
    ];
    for name in subcommands() {
        texts.push((format!("pbem {name} --help"), stdout_of(&[&name, "--help"])));
    }
    for (what, text) in &texts {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for marker in ["exits with ", "exit code ", "Exit code ", "exit "] {
            for (at, _) in flat.match_indices(marker) {
                let after = &flat[at + marker.len()..];
                let Some(code) = after.split(|c: char| !c.is_ascii_digit()).next() else {
                    continue;
                };
                let Ok(code) = code.parse::<u8>() else {
                    continue;
                };
                assert!(
                    exit::TABLE.iter().any(|(c, _)| *c == code),
                    "{what} names exit code {code}"
                );
                let before = &flat[at.saturating_sub(80)..at];
                if before.contains("send") {
                    assert_eq!(code, exit::UNDELIVERED, "{what}: ...{before}{marker}{code}");
                }
            }
        }
    }
    let send_help = stdout_of(&["send", "--help"]);
    assert!(send_help.contains("Exit code 5"), "{send_help}");
    let mail = fs::read_to_string("MAIL.md").unwrap();
    let mail = mail.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(mail.contains("`pbem send` exits with 5"), "MAIL.md");
}

#[test]
fn completions_and_the_man_page_are_generated_from_the_command_line() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        for name in subcommands() {
            assert!(script.contains(&name), "{shell} completion lacks {name}");
        }
        assert!(script.contains("quiet"), "{shell}");
    }
    let page = stdout_of(&["man"]);
    assert!(page.contains(".TH pbem 1"), "{page}");
    assert!(page.contains("Exit codes"), "{page}");
    let tmp = tempfile::tempdir().unwrap();
    pbem()
        .arg("man")
        .arg("--dir")
        .arg(tmp.path())
        .assert()
        .success();
    for page in [
        "pbem.1",
        "pbem-send.1",
        "pbem-check.1",
        "pbem-completions.1",
    ] {
        let text = fs::read_to_string(tmp.path().join(page)).unwrap();
        assert!(text.contains(".TH"), "{page}");
    }
}

/// A rejected order in ulm-1805's turn 2: (tempdir, game, orders file).
fn rejected_order() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let (t, game) = demo();
    let orders = write(
        t.path(),
        "france.txt",
        format!(
            "{}move corps-9 to atlantis\n",
            header("france", FRANCE_PW, 2)
        ),
    );
    (t, game, orders)
}

#[test]
fn quiet_prints_nothing_but_errors_and_verbose_adds_the_routine_lines() {
    let (t, game, orders) = rejected_order();
    let out = pbem()
        .arg("--quiet")
        .arg("check")
        .arg(&game)
        .arg(&orders)
        .assert()
        .code(i32::from(exit::REJECTED));
    assert!(out.get_output().stdout.is_empty());
    let out = pbem()
        .args(["status", "-q"])
        .arg(t.path().join("nowhere"))
        .assert()
        .code(i32::from(exit::ERROR));
    assert!(out.get_output().stdout.is_empty());
    assert!(!out.get_output().stderr.is_empty(), "errors still go");

    let folder = t.path().join("sent");
    pbem()
        .arg("send")
        .arg(&game)
        .arg("--folder")
        .arg(&folder)
        .assert()
        .success();
    let again = |flag: Option<&str>| {
        let mut c = pbem();
        c.args(flag)
            .arg("send")
            .arg(&game)
            .arg("--folder")
            .arg(&folder);
        String::from_utf8(c.output().unwrap().stdout).unwrap()
    };
    let plain = again(None);
    let verbose = again(Some("--verbose"));
    assert!(!plain.contains("(on an earlier run)"), "{plain}");
    assert!(verbose.contains("(on an earlier run)"), "{verbose}");
    assert!(again(Some("-q")).is_empty());
    // A password shown once is shown even to --quiet.
    let out = pbem()
        .args(["-q", "replace"])
        .arg(&game)
        .args(["britain", "--email", "pitt@example.org"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("password, shown this once"), "{stdout}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    pbem()
        .args(["-q", "-v", "status"])
        .arg(&game)
        .assert()
        .code(i32::from(exit::USAGE));
}

/// Runs pbem with stdout and stderr on a pseudo-terminal (80 columns); what the terminal got.
fn on_a_terminal(args: &[&std::ffi::OsStr], env: &[(&str, &str)]) -> String {
    let (mut master, slave) = {
        let (mut m, mut s) = (0, 0);
        let size = libc::winsize {
            ws_row: 24,
            ws_col: 80,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: the pointers are to live locals; openpty(3) fills the two descriptors.
        let r = unsafe {
            libc::openpty(
                &mut m,
                &mut s,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        assert_eq!(r, 0);
        // SAFETY: openpty just opened both descriptors and nothing else owns them.
        unsafe {
            (
                fs::File::from(OwnedFd::from_raw_fd(m)),
                OwnedFd::from_raw_fd(s),
            )
        }
    };
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("pbem"));
    cmd.args(args)
        .env("PBEM_NOW", AFTER_EVERY_DEADLINE)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    drop(cmd);
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    // Read until the child has closed the terminal (EIO on Linux).
    while let Ok(n) = master.read(&mut buf) {
        if n == 0 {
            break;
        }
        seen.extend_from_slice(&buf[..n]);
    }
    child.wait().unwrap();
    String::from_utf8_lossy(&seen).into_owned()
}

#[test]
fn diagnostics_are_coloured_on_a_terminal_unless_no_color_is_set() {
    let (_t, game, orders) = rejected_order();
    let args = ["check".as_ref(), game.as_os_str(), orders.as_os_str()];
    let coloured = on_a_terminal(&args, &[]);
    assert!(coloured.contains("atlantis"), "{coloured}");
    assert!(coloured.contains("\u{1b}["), "{coloured}");
    let plain = on_a_terminal(&args, &[("NO_COLOR", "1")]);
    assert!(plain.contains("atlantis"), "{plain}");
    assert!(!plain.contains('\u{1b}'), "{plain}");
    // Not a terminal: never coloured.
    let piped = stdout_of(&["check", game.to_str().unwrap(), orders.to_str().unwrap()]);
    assert!(
        piped.contains("atlantis") && !piped.contains('\u{1b}'),
        "{piped}"
    );
}

#[test]
fn audit_shows_progress_on_a_terminal_only() {
    let tmp = tempfile::tempdir().unwrap();
    pbem()
        .args(["demo", "--game", "pog-1914", "--turns", "4", "--dir"])
        .arg(tmp.path().join("d"))
        .assert()
        .success();
    let game = tmp.path().join("d").join("pog-1914");
    let shown = on_a_terminal(&["audit".as_ref(), game.as_os_str()], &[]);
    assert!(shown.contains("turns audited"), "{shown}");
    let quiet = on_a_terminal(&["-q".as_ref(), "audit".as_ref(), game.as_os_str()], &[]);
    assert!(quiet.is_empty(), "{quiet}");
    let out = pbem().arg("audit").arg(&game).assert().success();
    let stderr = &out.get_output().stderr;
    assert!(stderr.is_empty(), "{}", String::from_utf8_lossy(stderr));
}
