//! The `pbem` binary: parses the command line, runs the command, prints an error chain once.

use std::process::ExitCode;

use pbem::commands::{self, exit};
use pbem::diag::FileError;

/// mimalloc rather than the system's allocator: a turn of many powers makes and drops millions of
/// small strings (each report's lines, its template values, its mail), and glibc's malloc spent a
/// fifth of a 100,000-unit turn of 1,000 powers merging and splitting its free chunks.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
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
