//! `pbem rollback`: undo resolved turns and play a turn again (issue 13.3).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;

/// Undo the resolved turns from N on and reopen turn N, with a fresh dice secret.
///
/// Everything those turns wrote (records, logs, reports, states, their mail) moves to
/// `archive/rollback-<k>/`: nothing is deleted. Orders sent for the undone turns are void with them,
/// and the notice tells their players to send them again. Turn N's secret was revealed in its reports, so it gets
/// a fresh secret and commitment, announced to every player with the reopened deadline. The rollback
/// is an act of turn N (`turns/<N>/acts.toml`), kept in its next record, which `audit` checks.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem rollback games/my-game --to-turn 5 --reason \"orders filed for the wrong turn\""
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// The turn to play again (a resolved turn).
    #[arg(long)]
    pub to_turn: u32,
    /// Why: every player is told.
    #[arg(long)]
    pub reason: String,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let done = crate::referee::rollback::rollback(&game, args.to_turn, &args.reason)?;
    crate::say!(
        "Turn {} is open again; what the undone turns wrote is in {}.",
        done.turn,
        done.archive.as_deref().unwrap_or("-")
    );
    crate::say!(
        "New dice commitment of turn {}: {}; orders are due {}.",
        done.turn,
        done.commitment,
        done.deadline
    );
    for a in &done.judged_again {
        crate::say!(
            "The submission of {} received {}, late before, is covered by the reopened deadline: it stands now (message {}).",
            a.power,
            crate::mail::ack::in_zone(&game, None, a.record.arrival_time()),
            a.record.sha256
        );
    }
    crate::say!(
        "{} notice(s) to the players in the outbox: send them with `pbem send {}`.",
        done.notices.len(),
        args.game.display()
    );
    Ok(ExitCode::SUCCESS)
}
