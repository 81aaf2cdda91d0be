//! `pbem extend`: move the current turn's deadline, and tell every player (issue 13.3).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;
use crate::referee::extend::{extend, Move};

/// Move the current turn's deadline and announce it to every player.
///
/// The new deadline is an act of the turn (`turns/<t>/acts.toml`), kept in its record; a notice to
/// every player goes into the outbox (send it with `pbem send`). A deadline in the past is refused.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem extend games/my-game --by 2d --reason \"the Christmas break\"",
    "pbem extend games/my-game --to 2026-12-08T20:00"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// The new deadline, local time of the game's time zone: 2026-12-08T20:00.
    #[arg(long, conflicts_with = "by", required_unless_present = "by")]
    pub to: Option<String>,
    /// Move it by this long: 2d, 36h, 90m.
    #[arg(long)]
    pub by: Option<String>,
    /// Why, for the players' notice.
    #[arg(long, default_value = "the referee's decision")]
    pub reason: String,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let how = match (args.to, args.by) {
        (Some(t), _) => Move::To(t),
        (None, Some(b)) => Move::By(b),
        (None, None) => anyhow::bail!("give --to <date> or --by <span>"),
    };
    let done = extend(&game, &how, &args.reason)?;
    if done.finished_before {
        crate::say!(
            "An extension killed midway was finished as it was begun: this run's own --to or --by was not applied."
        );
    }
    crate::say!(
        "The deadline of turn {} is now {}.",
        done.turn,
        done.deadline
    );
    for a in &done.judged_again {
        crate::say!(
            "The submission of {} received {}, late before, is covered by the new deadline: it stands now (message {}).",
            a.power,
            crate::mail::ack::in_zone(&game, None, a.record.arrival_time()),
            a.record.sha256
        );
    }
    for (power, lines) in &done.moved_changes {
        for line in lines {
            crate::say!("{power}: {line}");
        }
    }
    crate::say!(
        "{} notice(s) to the players in the outbox: send them with `pbem send {}`.",
        done.notices.len(),
        args.game.display()
    );
    Ok(ExitCode::SUCCESS)
}
