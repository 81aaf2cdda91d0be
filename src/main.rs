//! The `pbem` binary: parses the command line, runs the command, prints an error chain once.

use std::process::ExitCode;

use clap::Parser;
use pbem::commands::{self, exit, Cli};
use pbem::diag::FileError;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(e) => {
            for (i, cause) in e.chain().enumerate() {
                let text = match cause.downcast_ref::<FileError>() {
                    Some(f) => f.to_string(),
                    None if i == 0 => format!("error: {cause}"),
                    None => format!("  caused by: {cause}"),
                };
                eprintln!("{text}");
            }
            ExitCode::from(exit::ERROR)
        }
    }
}
