//! `pbem resolve`: resolve the current turn (or `--turn N --force` again).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::engine::turn::{resolve, ResolveOptions};
use crate::game::Game;

/// Resolve a turn from the accepted orders: movement, combats, state, log, record and reports.
///
/// Example: pbem resolve games/my-game
///          pbem resolve games/my-game --turn 3 --force
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// The turn to resolve (default: the current one).
    #[arg(long)]
    pub turn: Option<u32>,
    /// Resolve again a turn that is already resolved; the files come out byte for byte the same.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let outcome = resolve(
        &game,
        &ResolveOptions {
            turn: args.turn,
            force: args.force,
        },
    )?;
    super::print_outcome(&outcome);
    Ok(ExitCode::SUCCESS)
}
