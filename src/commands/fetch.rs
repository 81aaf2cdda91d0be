//! `pbem fetch`: read the new messages of the referee's IMAP mailbox into the game, as `pbem ingest`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;
use crate::mail::imap::{self, FetchSummary};

/// Fetch new mail from the IMAP mailbox of `[mail.imap]` (over TLS), then ingest it.
///
/// Each new message is stored in the game's archive before it is flagged seen or moved
/// (`after` in `[mail.imap]`); `mail/imap-state.toml` keeps how far the mailbox was read, so a rerun
/// (after a dropped connection too) fetches nothing twice and loses nothing. The messages are then
/// judged as `pbem ingest` does. The password comes from `password_env` or `password_file`. Exits
/// with 1 when the server could not be read to the end, or left out a message it listed (what was
/// stored is judged all the same; the rest is asked for again on the next run).
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "PBEM_IMAP_PASSWORD=... pbem fetch games/my-game",
    "pbem fetch ~/games/ulm   (password_file in [mail.imap])"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let summary = imap::fetch(&game, &mut super::ingest::progress_bar())?;
    print_summary(&game, &summary)?;
    Ok(if summary.complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::exit::ERROR)
    })
}

/// Prints what a fetch did, then the ingest's summary.
pub fn print_summary(game: &Game, s: &FetchSummary) -> Result<()> {
    crate::say!(
        "Fetched {} new message(s) from {} ({} marked as `after` says).",
        s.fetched,
        game.config
            .mail
            .imap
            .as_ref()
            .map(|i| format!("{}@{}/{}", i.user, i.host, i.mailbox))
            .unwrap_or_default(),
        s.marked
    );
    if let Some(i) = &s.ingest {
        super::ingest::print_summary(game, i)?;
    }
    if !s.missing.is_empty() {
        crate::say_err!(
            "error: the server listed {} message(s) it then did not send (UID {}): none of them is marked seen or moved",
            s.missing.len(),
            crate::mail::imap::uid_set(&s.missing)
        );
        crate::say_err!(
            "  hint: `pbem fetch` asks for them again on every run until the server sends them (or no longer lists them)"
        );
    }
    if let Some(e) = &s.error {
        crate::say_err!("error: {e:#}");
        crate::say_err!(
            "  hint: what was stored is kept and judged; run `pbem fetch` again for the rest"
        );
    }
    Ok(())
}
