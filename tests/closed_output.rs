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
