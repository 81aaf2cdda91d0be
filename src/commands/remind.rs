//! `pbem remind`: a reminder to every power whose orders are not in yet (issue 4.8).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;

/// Write a reminder to every power whose orders are not in yet.
///
/// A power whose orders file is in but does not authenticate (the turn would ignore it) is still due:
/// its reminder, and this command, say why.
///
/// The reminders go to the outbox, with the deadline in the player's own time zone (game.toml
/// `[[power]] time_zone`) when he set one. Send them with `pbem send`. Once the turn's deadline has
/// passed it writes none and says so: move the deadline first (`pbem extend`), or resolve the turn.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem remind games/my-game && pbem send games/my-game"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let reminded = crate::mail::status::remind(&game)?;
    if reminded.is_empty() {
        crate::say!("Every power due has orders in that stand: no reminder written.");
    } else {
        // The table's heading line, as `status`'s and `close`'s tables have one.
        crate::say!(
            "Turn {}: a reminder to each power still due, in the outbox (`pbem send` sends them):",
            game.current_turn()?
        );
    }
    let w = crate::out::width(reminded.iter().map(|r| r.power.as_str()));
    for r in &reminded {
        crate::say!(
            "  {:<w$} {}{}",
            r.power,
            game.printed(&r.path),
            if r.new {
                ""
            } else {
                " (written before, not sent yet)"
            }
        );
        if let Some(why) = &r.why {
            crate::say!("  {:<w$} still due: {why}", "");
        }
    }
    Ok(ExitCode::SUCCESS)
}
