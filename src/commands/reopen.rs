//! `pbem reopen`: the game goes on after `pbem end`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;

/// Reopen a game ended with `pbem end`: the turn not played waits for orders again.
///
/// Its orders on file stand and its dice commitment is the one published before. Its deadline
/// stays while it still gives the players the least notice from now, else it moves to the
/// schedule's first slot that does. An end no player heard of yet (no notice of it sent, no mail
/// answered that the game is over, the deadline kept) is undone without a word: the end's notices
/// are withdrawn, the announcement and reminders it withdrew go after all, the sealed lists it
/// published are sealed again. Otherwise every power gets a notice (in the outbox: send it with
/// `pbem send`).
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem reopen games/my-game --reason \"the peace did not hold\""
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// Why, for the players' notice.
    #[arg(long)]
    pub reason: String,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let done = crate::referee::reopen::reopen(&game, &args.reason)?;
    let moved = match done.moved {
        true => " (moved: the old one gave too little notice)",
        false => "",
    };
    crate::say!(
        "The game goes on: turn {} waits for orders, due {}{moved}.",
        done.turn,
        done.deadline
    );
    for w in &done.withdrawn {
        crate::say!("Withdrawn before it went: {w}.");
    }
    for r in &done.restored {
        crate::say!("Goes after all: {r}.");
    }
    for t in &done.resealed {
        crate::say!("The sealed rolls of turn {t} are sealed again (no player had them).");
    }
    match done.silent {
        true => crate::say!("No player heard of the end: nothing tells them of it."),
        false => crate::say!(
            "{} notice(s) to the players in the outbox: send them with `pbem send {}`.",
            done.notices.len(),
            args.game.display()
        ),
    }
    Ok(ExitCode::SUCCESS)
}
