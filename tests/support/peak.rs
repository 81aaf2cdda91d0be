//! Runs the pbem binary as a child and measures its peak resident memory (the kernel's `ru_maxrss`
//! of that child alone, by `wait4`), so that a test can hold a command to a memory bound. The
//! test process's own memory counts in the child until it execs: a test keeps its data in files.

use std::path::Path;
use std::process::{Command, Stdio};

/// What a run of the binary gave.
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
    /// Peak resident set size, in bytes.
    pub peak_bytes: u64,
}

/// Runs `pbem <args>` and waits for it; stdout and stderr go to files in `scratch`.
pub fn run_measured(args: &[&std::ffi::OsStr], scratch: &Path) -> Run {
    let bin = assert_cmd::cargo::cargo_bin("pbem");
    let out_path = scratch.join("peak-stdout.txt");
    let err_path = scratch.join("peak-stderr.txt");
    let child = Command::new(bin)
        .args(args)
        .env_remove("PBEM_CRASH_BEFORE")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("pbem runs");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our child, not yet waited for; the pointers are to live locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    std::mem::forget(child); // already reaped
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    Run {
        status: code,
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
        // Linux gives KiB.
        peak_bytes: usage.ru_maxrss as u64 * 1024,
    }
}
