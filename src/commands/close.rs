//! `pbem close`: close the current turn's orders (pbem-dice/v2).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use crate::game::config::DiceScheme;
use crate::game::fsio::GameLock;
use crate::game::Game;

/// Close the current turn's orders at the deadline (pbem-dice/v2): write the closing list (each power
/// with orders in, the SHA-256 of its orders as filed and its entropy) to `turns/<t>/close.toml` and a
/// closing mail for every player to the outbox, before anything is resolved. The turn's seed is made of
/// exactly that list; `pbem resolve` and `pbem turn` close the turn themselves when it is not closed.
/// Send the closing mail with `pbem send` before you resolve. Before the deadline it refuses unless
/// `--early` is given: a closed turn takes no more orders, so closing early takes from every player
/// the time the deadline promised him.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem close games/my-game && pbem send games/my-game",
    "pbem close games/my-game --early"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// Close before the deadline: no orders are taken after the close, whatever the deadline said.
    #[arg(long)]
    pub early: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    if game.config.dice.scheme != DiceScheme::V2 {
        bail!(
            "{} plays pbem-dice/v1, which has no closing list: set `[dice] scheme = \"pbem-dice/v2\"` in game.toml for the next game",
            game.config.game
        );
    }
    let _lock = GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    crate::game::scheme::check(&game, turn)?;
    if game.is_resolved(turn) {
        bail!("turn {turn} is already resolved");
    }
    // A close killed midway is finished as it was begun, early or not.
    if !args.early
        && crate::engine::close::load(&game, turn)?.is_none()
        && !crate::engine::close::begun_path(&game, turn).is_file()
    {
        before_deadline(&game, turn)?;
    }
    let file = crate::referee::close::close(&game, turn)?;
    crate::say!(
        "Turn {turn} closed: {} power(s) with orders in; closing digest {}.",
        file.powers.len(),
        file.close
    );
    let w = crate::out::width(file.powers.iter().map(|p| p.id.as_str()));
    for p in &file.powers {
        crate::say!("  {:<w$} orders {}  entropy {}", p.id, p.orders, p.entropy);
    }
    crate::say!(
        "The closing mail of every player is in the outbox: send it (`pbem send`) before you resolve."
    );
    Ok(ExitCode::SUCCESS)
}

/// Refuses to close `turn` before its deadline (the referee says `--early` to close anyway).
fn before_deadline(game: &Game, turn: u32) -> Result<()> {
    let Some(deadline) = game.config.deadline_of(turn) else {
        return Ok(());
    };
    if crate::clock::now()? >= deadline.with_timezone(&chrono::Utc) {
        return Ok(());
    }
    bail!(
        "turn {turn} is due {}: closing now takes no more orders from any player before the deadline. Wait for the deadline, or close now with --early. Nothing was changed.",
        deadline.format("%A %Y-%m-%d %H:%M %Z")
    )
}
