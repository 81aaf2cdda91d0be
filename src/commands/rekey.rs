//! `pbem rekey`: a fresh dice secret for the current turn (issue 13.5).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;

/// Give the current turn a fresh dice secret and commitment, announced to every player.
///
/// For a secret that is public (the demo's) or that may have leaked. The old secret is kept in
/// `archive/rekey-<k>/`; the new commitment is an act of the turn, kept in its record.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem rekey games/my-game --reason \"the demo's secrets are public\""
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// Why, for the players' notice.
    #[arg(long, default_value = "the old secret may be known")]
    pub reason: String,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let done = crate::referee::rekey::rekey(&game, &args.reason)?;
    crate::say!(
        "New dice commitment of turn {} (publish it): {}.",
        done.turn,
        done.commitment
    );
    crate::say!(
        "{} notice(s) to the players in the outbox: send them with `pbem send {}`.",
        done.notices.len(),
        args.game.display()
    );
    Ok(ExitCode::SUCCESS)
}
