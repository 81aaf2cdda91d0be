//! `pbem resolve`: resolve the current turn (or `--turn N --force` again).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::engine::turn::{resolve, ResolveOptions};
use crate::game::Game;

/// Resolve a turn from the accepted orders: movement, combats, state, log, record and reports.
///
/// Before the turn's deadline it refuses while a power due has no orders in (it names them), unless
/// `--early` is given.
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
    /// Resolve before the deadline although a power due has no orders in.
    #[arg(long)]
    pub early: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let turn = match args.turn {
        Some(t) => t,
        None => game.current_turn()?,
    };
    crate::engine::deadline::check_due(&game, turn, args.early)?;
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
