//! `pbem unseal`: publish the sealed rolls of turns that are over.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;

/// Publish the sealed rolls (rolls no report showed) of the turns whose time has come, for the
/// players to check with `pbem verify --sealed`.
///
/// Writes `unsealed/<t>.txt` for each turn with sealed rolls: the game, the turn, its seed, the
/// count and commitment the turn's reports carry, and each roll's label, dice and faces. A turn's
/// rolls may be unsealed once `[dice] unseal_after` turns after it are resolved; a game without that
/// setting keeps them sealed until it is over (`pbem end` publishes them all and mails them to every
/// player). Mail the files to the players.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem unseal games/my-game",
    "pbem unseal games/my-game --turn 3 --force"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// Unseal only this turn.
    #[arg(long)]
    pub turn: Option<u32>,
    /// Unseal before the set time (`[dice] unseal_after`), or before the end of a game that sets none.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let done = crate::engine::sealed::unseal(&game, args.turn, args.force)?;
    for u in &done {
        match &u.path {
            Some(p) => crate::say!(
                "turn {}: {} sealed roll(s) written to {}",
                u.turn,
                u.count,
                game.printed(p)
            ),
            None => crate::say!("turn {}: no sealed rolls", u.turn),
        }
    }
    if done.iter().any(|u| u.path.is_some()) {
        crate::say!(
            "Send these files to the players: each checks them with `pbem verify <his report> --sealed <file>`."
        );
    }
    Ok(ExitCode::SUCCESS)
}
