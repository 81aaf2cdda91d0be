//! Runs the pbem binary and measures its peak resident memory (the kernel's `ru_maxrss` of that
//! process alone, by `wait4` in `peak.py`), so that a test can hold a command to a memory bound.

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

/// Runs `pbem <args>` and waits for it; stdout and stderr go to files in `scratch`. The binary runs
/// under `peak.py`, a small fresh process that forks it and reads its peak by `wait4`: spawned from
/// this test process directly, the child's peak would count this process's memory until the exec,
/// and the other tests of the binary, running in parallel, hold hundreds of MiB.
pub fn run_measured(args: &[&std::ffi::OsStr], scratch: &Path) -> Run {
    let bin = assert_cmd::cargo::cargo_bin("pbem");
    let out_path = scratch.join("peak-stdout.txt");
    let err_path = scratch.join("peak-stderr.txt");
    let peak_path = scratch.join("peak-kib.txt");
    let wrapper = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/peak.py");
    let status = Command::new("python3")
        .arg(&wrapper)
        .arg(&peak_path)
        .arg(&bin)
        .args(args)
        .env_remove("PBEM_CRASH_BEFORE")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .status()
        .expect("python3 runs tests/support/peak.py (the memory tests need Python 3)");
    let kib: u64 = std::fs::read_to_string(&peak_path)
        .unwrap_or_else(|e| panic!("peak.py wrote no peak ({e}); exit {status}"))
        .trim()
        .parse()
        .expect("a peak in KiB");
    Run {
        status: status.code().unwrap_or(-1),
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
        // Linux gives KiB.
        peak_bytes: kib * 1024,
    }
}
