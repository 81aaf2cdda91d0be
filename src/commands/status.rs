//! `pbem status`: where a game stands: current turn, deadline, commitment, orders in per power.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;

/// Show the current turn, its deadline and dice commitment, and which powers have orders in.
///
/// Example: pbem status games/my-game
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let turn = game.current_turn()?;
    let c = &game.config;
    println!("{} ({}), ruleset {}", c.title, c.game, game.ruleset.name());
    println!("Turn {turn} ({}) waits for orders.", c.date_of(turn));
    match c.deadline_of(turn) {
        Some(d) => println!("Deadline: {}", d.format("%A %Y-%m-%d %H:%M %Z")),
        None => println!("Deadline: not set"),
    }
    match game.commitment(turn) {
        Ok(x) => println!(
            "Dice commitment for turn {turn}: {}",
            crate::dice::to_hex(&x)
        ),
        Err(e) => println!("Dice commitment for turn {turn}: MISSING ({e})"),
    }
    if turn > c.first_turn {
        println!(
            "Last resolved: turn {} (record {})",
            turn - 1,
            game.shown(&game.record_path(turn - 1))
        );
    }
    println!("Orders:");
    for p in &c.powers {
        let path = game.orders_path(turn, &p.id);
        let state = if path.is_file() {
            format!("in ({})", game.shown(&path))
        } else {
            "missing".to_string()
        };
        println!("  {:<10} {:<10} {state}", p.id, p.name);
    }
    Ok(ExitCode::SUCCESS)
}
