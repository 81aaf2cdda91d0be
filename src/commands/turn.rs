//! `pbem turn`: the one command per turn. It resolves the current turn from the orders in the game's
//! `orders/<turn>/` folder and writes the reports.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::engine::turn::{resolve, ResolveOptions};
use crate::game::Game;

/// Run the whole turn: take the orders in orders/<turn>/, resolve, write one report per power.
///
/// Example: pbem turn games/my-game
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let outcome = resolve(&game, &ResolveOptions::default())?;
    super::print_outcome(&outcome);
    Ok(ExitCode::SUCCESS)
}
