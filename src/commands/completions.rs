//! `pbem completions`: the shell completion script, generated from the command line itself.

use std::process::ExitCode;

use anyhow::Result;

/// Print the completion script for a shell to stdout.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem completions bash > ~/.local/share/bash-completion/completions/pbem",
    "pbem completions zsh > ~/.zfunc/_pbem",
    "pbem completions fish > ~/.config/fish/completions/pbem.fish"
))]
pub struct Args {
    /// The shell.
    pub shell: clap_complete::Shell,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut super::command(), "pbem", &mut script);
    crate::out::stdout_styled(&String::from_utf8_lossy(&script));
    Ok(ExitCode::SUCCESS)
}
