//! Issue 15.8: pbem never panics on output. A closed stdout (`pbem status | head`) or a full one
//! (`> /dev/full`) ends the command with its work done and exit 1, never a panic (exit 101); `pbem
//! new` keeps the passwords it could not print in a 0600 file.

use crate::support;

use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Stdio;

use support::*;

/// A stdout whose reader is already gone: every write fails with EPIPE.
fn closed_stdout() -> Stdio {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a live array of two ints, as pipe(2) wants.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: pipe(2) just opened both descriptors and nothing else owns them.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    Stdio::from(write)
}

fn full_stdout() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap(),
    )
}

#[test]
fn a_closed_or_full_stdout_never_panics() {
    let (_t, game) = demo();
    for (name, stdout) in [("closed", closed_stdout()), ("full", full_stdout())] {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("pbem"))
            .arg("status")
            .arg(&game)
            .stdout(stdout)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        if name == "full" {
            assert!(stderr.contains("could not be written"), "{stderr}");
        }
    }
}

#[test]
fn new_keeps_the_passwords_it_cannot_print_in_a_0600_file() {
    use std::os::unix::fs::PermissionsExt;
    for stdout in [closed_stdout(), full_stdout()] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("g");
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("pbem"))
            .arg("new")
            .arg(&dir)
            .args(["--from", "ulm-1805"])
            .stdout(stdout)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        let file = dir.join("passwords.txt");
        assert!(stderr.contains("passwords.txt"), "{stderr}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
        // Each password in it opens its power's orders.
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("france"))
            .unwrap();
        let password = line.split_whitespace().nth(1).unwrap();
        let orders = write(tmp.path(), "france.txt", header("france", password, 1));
        pbem()
            .arg("check")
            .arg(&dir)
            .arg(&orders)
            .assert()
            .success();
    }
}

/// The ways a stdout can fail to reach the referee (issue 34): closed by the shell (`>&-`, which
/// the program sees as /dev/null), sent to /dev/null, full, a reader gone.
fn lost_stdouts() -> Vec<(&'static str, std::process::Command)> {
    use std::os::unix::process::CommandExt;
    let bin = assert_cmd::cargo::cargo_bin("pbem");
    let mut closed = std::process::Command::new(&bin);
    // SAFETY: close(2) is async-signal-safe; fd 1 is the child's own.
    unsafe {
        closed.pre_exec(|| {
            libc::close(1);
            Ok(())
        });
    }
    let mut null = std::process::Command::new(&bin);
    null.stdout(Stdio::null());
    let mut full = std::process::Command::new(&bin);
    full.stdout(full_stdout());
    let mut gone = std::process::Command::new(&bin);
    gone.stdout(closed_stdout());
    vec![
        ("closed", closed),
        ("null", null),
        ("full", full),
        ("gone", gone),
    ]
}

#[test]
fn new_keeps_the_passwords_when_stdout_is_closed_or_dev_null() {
    use std::os::unix::fs::PermissionsExt;
    for (name, mut cmd) in lost_stdouts() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("g");
        let out = cmd
            .arg("new")
            .arg(&dir)
            .args(["--from", "ulm-1805"])
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains("passwords.txt"), "{name}: {stderr}");
        let file = dir.join("passwords.txt");
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600,
            "{name}"
        );
        assert!(text.contains("france"), "{name}: {text}");
    }
}

#[test]
fn replace_keeps_the_new_password_when_stdout_cannot_take_it_and_each_run_adds_its_own() {
    use std::os::unix::fs::PermissionsExt;
    let (_t, game) = demo();
    let file = game.join("passwords.txt");
    let mut kept = 0;
    // Each run a replace of its own (a new player each time): the same replace run again after it
    // finished is refused, its password kept once.
    for (name, mut cmd) in lost_stdouts() {
        let out = cmd
            .arg("replace")
            .arg(&game)
            .args(["britain", "--email", &format!("pitt-{kept}@example.org")])
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains("passwords.txt"), "{name}: {stderr}");
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600,
            "{name}"
        );
        let text = std::fs::read_to_string(&file).unwrap();
        kept += 1;
        // Every password kept before is still there: the file is added to, never rewritten.
        assert_eq!(
            text.matches("the new player's password").count(),
            kept,
            "{name}: {text}"
        );
    }
    // The last password kept is the one that stands: it opens Britain's orders of turn 5, January
    // 1806, the first after the December economic phase (EiA 19.2.2; ulm-1805's are quarterly).
    let text = std::fs::read_to_string(&file).unwrap();
    let password = text
        .lines()
        .last()
        .and_then(|l| l.split("(pbem keeps only its hash): ").nth(1))
        .unwrap()
        .trim()
        .to_string();
    for _ in 2..=4 {
        pbem()
            .args(["resolve", "--early"])
            .arg(&game)
            .assert()
            .success();
    }
    let orders = write(
        &game,
        "o.txt",
        format!("game ulm-1805\npower britain\npassword {password}\nturn 5\n"),
    );
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&orders)
        .assert()
        .success();
}

#[test]
fn help_that_cannot_be_written_is_an_error() {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("pbem"))
        .arg("--help")
        .stdout(full_stdout())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("could not be written"), "{stderr}");
    // Written, it is a success.
    pbem().arg("--help").assert().success();
}
