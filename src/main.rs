//! The `pbem` binary: parses the command line, runs the command, prints an error chain once.

use std::process::ExitCode;

use pbem::commands::{self, exit};
use pbem::diag::FileError;

/// mimalloc rather than the system's allocator: a turn of many powers makes and drops millions of
/// small strings (each report's lines, its template values, its mail), and glibc's malloc spent a
/// fifth of a 100,000-unit turn of 1,000 powers merging and splitting its free chunks.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc's own setter (linked with the allocator; the `mimalloc` crate does not wrap options).
extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_purge_delay` in mimalloc.h (the same number in its v2 and v3).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// Keeps the memory a turn frees for its next allocation instead of handing it back to the system
/// after 10 ms: a turn of 1,000 powers frees each power's report before making the next one, and the
/// system zeroed every page again (100,000 page faults, a fifth of the 100,000-unit turn's time).
/// The peak stays what it was: freed memory is reused, not added to.
fn keep_freed_memory() {
    // SAFETY: mi_option_set only stores the value; -1 is a documented value of this option.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

fn main() -> ExitCode {
    keep_freed_memory();
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
