//! `pbem man`: the manual page (roff), generated from the command line itself.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

/// Print the manual page of pbem (roff, for `man`), or write one page per command into a folder.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem man | man -l -",
    "pbem man --dir ~/.local/share/man/man1   (pbem.1, pbem-turn.1, ...)"
))]
pub struct Args {
    /// Write pbem.1 and a page per command (pbem-turn.1, ...) into this folder instead.
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let cmd = super::command();
    match args.dir {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut page)?;
            crate::out::stdout_styled(&String::from_utf8_lossy(&page));
        }
        Some(dir) => {
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            clap_mangen::generate_to(cmd, &dir)
                .with_context(|| format!("cannot write the pages into {}", dir.display()))?;
            crate::say!("manual pages written to {}", dir.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
