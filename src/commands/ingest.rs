//! `pbem ingest`: read the referee's mailbox into the game's orders, and answer every sender.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;
use crate::mail::ingest::{ingest_with_progress, IngestSummary, Status};

/// Read orders from mail: store, authenticate, file and acknowledge every submission.
///
/// Reads .eml files, mbox files and Maildir folders; stores every new message (in one archive per
/// run, `mail/inbox/batch-<sha256>.raw`), authenticates each submission, files the last one received before the deadline, and writes an acknowledgement for
/// every one to the outbox. The mailbox is never modified; ingesting it twice changes nothing.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem ingest games/my-game ~/Maildir",
    "pbem ingest games/my-game inbox.mbox late-orders.eml"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// Mailboxes: .eml files, mbox files, Maildir folders or folders of .eml files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let summary = ingest_with_progress(&game, &args.paths, &mut progress_bar())?;
    print_summary(&game, &summary)?;
    Ok(ExitCode::SUCCESS)
}

/// A progress bar on stderr (`crate::progress`) once there are many messages.
pub fn progress_bar() -> impl FnMut(usize, usize) {
    let mut bar = crate::progress::reporter("messages judged", 50);
    move |done, total| bar(done, total, "")
}

/// Prints what an ingest did: counts, then one line per message judged, then the orders that count.
pub fn print_summary(game: &Game, s: &IngestSummary) -> Result<()> {
    crate::say!(
        "Ingest for {} turn {}: {} message(s) read, {} new, {} already stored.",
        s.game,
        s.turn,
        s.read,
        s.new.len(),
        s.already
    );
    for p in &s.problems {
        crate::say!("  problem: {p}");
    }
    if !s.new.is_empty() {
        crate::say!(
            "  {} accepted, {} held, {} late, {} rejected, {} duplicate, {} ignored",
            s.count(Status::Accepted),
            s.count(Status::Held),
            s.count(Status::Late),
            s.count(Status::Rejected),
            s.count(Status::Duplicate),
            s.count(Status::Ignored)
        );
    }
    if crate::out::quiet() {
        return Ok(());
    }
    // Read back one at a time (issue 34: an ingest's summary is kept on disk): its columns as wide
    // as the game's longest power (a player's `france.ney`) or status.
    let (w, _) = super::power_columns(game);
    let w = w.max(1);
    let sw = crate::out::width(
        [
            Status::Accepted,
            Status::Held,
            Status::Late,
            Status::Rejected,
            Status::Duplicate,
            Status::Ignored,
        ]
        .iter()
        .map(|s| s.name()),
    );
    let pad = " ".repeat(sw + 3);
    s.new.each(&mut |e| {
        let r = &e.record;
        let slot = r.slot();
        let power = if r.power.is_empty() { "-" } else { &slot };
        crate::say!(
            "  {:<sw$} {:<w$} {} ({}, {} {})",
            r.status.name(),
            power,
            r.source,
            &r.sha256[..12],
            r.arrival,
            r.arrival_from
        );
        for why in &r.reasons {
            crate::say!("{pad}{why}");
        }
        if let Some(a) = &e.ack {
            crate::say!("{pad}answered: {} ({})", r.ack, game.printed(a));
        }
        Ok(())
    })?;
    if s.standing.is_empty() {
        crate::say!("No orders filed from mail for turn {}.", s.turn);
    } else {
        crate::say!("Orders that count for turn {}:", s.turn);
        for o in &s.standing {
            crate::say!(
                "  {:<w$} {} (message {}, received {}){}",
                o.power,
                game.printed(&o.path),
                &o.record.sha256[..12],
                o.record.arrival,
                if o.changed { ", updated" } else { "" }
            );
        }
    }
    Ok(())
}
