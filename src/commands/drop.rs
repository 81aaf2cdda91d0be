//! `pbem drop`: a player has left; his power is run by another (or by the SOP alone) until the next
//! economic phase (EiA 19.2.1).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::acts::{self, Act};
use crate::game::fsio::GameLock;
use crate::game::Game;

/// Drop a power whose player left: another power runs it until the next economic phase (EiA 19.2.1).
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem drop games/my-game britain --to russia",
    "pbem drop games/my-game britain   (run by its standing orders and the SOP)"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// The power whose player left.
    pub power: String,
    /// The power that runs it meanwhile: its player sends the orders with his own password.
    #[arg(long)]
    pub to: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let _lock = GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    let mut state = game.load_state(turn)?;
    let until =
        crate::engine::players::drop_power(&game, &mut state, &args.power, args.to.as_deref())?;
    // An act on the turn, not an edit of its state (which the last turn's record lists).
    let controlled = state.controlled.get(&args.power).cloned();
    acts::append(
        &game,
        turn,
        Act {
            kind: "drop".into(),
            rule: crate::engine::players::DROPPED.cite(),
            text: format!("{} dropped from turn {turn} until turn {until}", args.power),
            power: Some(args.power.clone()),
            controlled,
            ..Act::default()
        },
    )?;
    match &args.to {
        Some(by) => crate::say!("{} is run by {by} from turn {turn} until turn {until} (EiA 19.2.1): {by}'s player sends its orders with his own password and receives its report.", args.power),
        None => crate::say!("{} is run by its standing orders and the SOP from turn {turn} until turn {until} (EiA 19.2.1).", args.power),
    }
    crate::say!(
        "Find a new player, then: pbem replace {} {} --email <address>",
        args.game.display(),
        args.power
    );
    Ok(ExitCode::SUCCESS)
}
