//! The `pbem` binary: parses the command line, runs the command, prints an error chain once.

use std::process::ExitCode;

use pbem::commands::{self, exit};
use pbem::diag::FileError;

/// mimalloc rather than the system's allocator: a turn of many powers makes and drops millions of
/// small strings (each report's lines, its template values, its mail), and glibc's malloc spent a
/// fifth of a 100,000-unit turn of 1,000 powers merging and splitting its free chunks.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc's own setter and collector (linked with the allocator; the `mimalloc` crate wraps
// neither).
extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    fn mi_collect(force: bool);
}

/// `mi_option_purge_delay` in mimalloc.h (the same number in its v2 and v3).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// How long freed memory is kept for the next allocations before it goes back to the system, in
/// milliseconds (mimalloc's default is 10).
const KEEP_FREED_MS: std::ffi::c_long = 500;

/// Keeps the memory a turn frees for half a second instead of handing it back to the system after
/// 10 ms: a turn of 1,000 powers frees each power's report before making the next one, and the
/// system zeroed every page again (1.2 million page faults at 100,000 units, 130,000 now). Kept for
/// ever (-1), each thread's freed memory stayed its own: a turn of 24 powers that each see 13,000
/// units peaked at 1,240 MiB on two threads, and 875 MiB with half a second (issue 18).
fn keep_freed_memory() {
    // SAFETY: mi_option_set only stores the value, a delay in milliseconds for this option.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, KEEP_FREED_MS) }
}

/// Asks the system for pages of 4 KiB rather than transparent huge pages of 2 MiB, for the whole
/// process (the kernel's THP-disable flag; mimalloc has advised huge pages for its memory before
/// `main`). On a system that compacts memory to find a huge page (`defrag = madvise`, the usual
/// default) once its page cache is full, as after a turn has written its gigabytes, each first touch
/// of 2 MiB waited for that and zeroed it whole: a 1,000-power turn's state was parsed in 0.85-1.1 s
/// instead of 0.3-0.45 s, a third of those seconds in the kernel zeroing pages (issue 39).
#[cfg(target_os = "linux")]
fn small_pages() {
    // A hint: where the kernel refuses it the process runs as before.
    let _ = rustix::thread::disable_transparent_huge_pages(true);
}

#[cfg(not(target_os = "linux"))]
fn small_pages() {}

/// Hands what this thread freed back to the system at once (`pbem::memory`: a turn does, between
/// its adjudication and its reports).
fn release_freed() {
    // SAFETY: mi_collect takes no pointer; it frees the calling thread's empty pages.
    unsafe { mi_collect(true) }
}

fn main() -> ExitCode {
    small_pages();
    keep_freed_memory();
    pbem::memory::set_release(release_freed);
    let cli = commands::parse();
    let result = commands::run(cli);
    // The work is done; what could not be printed is said once (a reader that went away, as
    // `| head` does, wanted no more and is not told).
    let lost = pbem::out::stdout_lost();
    if lost == pbem::out::FAILED {
        pbem::say_err!("error: pbem's output could not be written (is the disk full?); the command's work is done");
    }
    match result {
        Ok(_) if lost != 0 => ExitCode::from(exit::ERROR),
        Ok(code) => code,
        Err(e) => {
            for (i, cause) in e.chain().enumerate() {
                let text = match cause.downcast_ref::<FileError>() {
                    Some(f) => f.to_string(),
                    None if i == 0 => format!("error: {cause}"),
                    None => format!("  caused by: {cause}"),
                };
                pbem::say_err!("{text}");
            }
            ExitCode::from(exit::ERROR)
        }
    }
}
