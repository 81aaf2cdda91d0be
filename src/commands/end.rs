//! `pbem end`: the game is over after its last resolved turn.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;

/// End the game after its last resolved turn: the turn waiting for orders is not played.
///
/// Every player gets a notice (in the outbox: send it with `pbem send`) with the reason and the
/// sealed rolls of every turn, published now (`unsealed/<t>.txt`); the announcement of the turn not
/// played is withdrawn if it has not gone. From then on no turn is resolved, closed, extended or
/// re-keyed, no power dropped or replaced, and orders that come are kept and answered that the
/// game is over. `pbem reopen` undoes the end; `pbem rollback --to-turn <t>` reopens it from a turn
/// played, played again with fresh dice.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem end games/my-game --reason \"the campaign ends with the peace of Pressburg\""
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// Why, for the players' notice.
    #[arg(long)]
    pub reason: String,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let done = crate::referee::end::end(&game, &args.reason)?;
    crate::say!("The game is over, ended {}.", done.ended.when());
    for (turn, path) in &done.unsealed {
        crate::say!(
            "The sealed rolls of turn {turn} are published: {}.",
            game.printed(path)
        );
    }
    for w in &done.withdrawn {
        crate::say!("Withdrawn before it went: {w}.");
    }
    crate::say!(
        "{} notice(s) to the players in the outbox: send them with `pbem send {}`.",
        done.notices.len(),
        args.game.display()
    );
    Ok(ExitCode::SUCCESS)
}
