//! `pbem accept-late`: let a late submission stand for the current turn (issue 13.2).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;

/// Let a power's late submission stand for the current turn: a decision written into the chain.
///
/// The submission (the power's latest that arrived after the deadline, or the one `--message` names)
/// is filed as `pbem ingest` files an accepted one; the decision is an act of the turn
/// (`turns/<t>/acts.toml`), which its record chains and `pbem audit` checks; the player gets an answer
/// in the outbox (send it with `pbem send`). Refused, nothing changed, once a pbem-dice/v2 turn is
/// closed.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem accept-late games/my-game france --reason \"his mail server was down\"",
    "pbem accept-late games/my-game france --message 3f2a9c1e --reason \"...\"",
    "pbem accept-late games/my-game france.eugene --reason \"...\"   (one player of a power with several)"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// The power whose late orders stand; `<power>.<player>` (france.eugene) for one player of a
    /// power with several ([[power.player]]): each player's orders are his own file.
    pub power: String,
    /// Which late message: its SHA-256 (8 digits or more, as `pbem status` and mail/received name it)
    /// or its Message-ID. Default: the power's latest late submission.
    #[arg(long)]
    pub message: Option<String>,
    /// Why: written into the chain of records and told to the player.
    #[arg(long)]
    pub reason: String,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    // An accept-late killed midway is finished by running it again (`mail::late` refuses any other);
    // any other act killed midway waits to be finished first.
    let turn = game.current_turn()?;
    if crate::mail::late::planned(&game, turn)?.is_none_or(|p| p.covered.is_some()) {
        crate::referee::underway::refuse(
            &game,
            &format!("no late orders of {} are accepted", args.power),
            "",
        )?;
    }
    let done = crate::mail::late::accept_late(
        &game,
        &args.power,
        args.message.as_deref(),
        crate::mail::late::Standing::AcceptedLate(&args.reason),
    )?;
    crate::say!(
        "The late orders of {} (message {}, received {}) stand for turn {}{}.",
        done.power,
        done.record.sha256,
        crate::mail::ack::in_zone(&game, None, done.record.arrival_time()),
        done.turn,
        if done.again {
            " (accepted before: files checked)"
        } else {
            ""
        }
    );
    if let Some(r) = &done.replaces {
        crate::say!("They replace the orders of message {}.", r.sha256);
    }
    crate::say!(
        "Filed: {}; the decision is an act of turn {} ({}).",
        game.printed(&done.orders),
        done.turn,
        game.printed(&crate::game::acts::path(&game.dir, done.turn))
    );
    if let Some(a) = &done.ack {
        crate::say!(
            "The answer to the player is in the outbox ({}): send it with `pbem send {}`.",
            game.printed(a),
            args.game.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
