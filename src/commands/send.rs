//! `pbem send`: deliver the outbox, every message once (issue 5).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;
use crate::mail::send::{send, Outcome, SendOptions, SendSummary};

use super::exit;

/// Deliver the outbox, each message once to each recipient.
///
/// Sends every message of the outbox (reports, acknowledgements, announcements, reminders) that has
/// not reached all its recipients yet, through the transport of game.toml `[mail]` (SMTP, sendmail or a
/// folder). A rerun after a failure sends exactly what is left. A message a killed run may have
/// delivered (killed while the server was taking it) is listed as "possibly delivered" and not sent
/// again unless `--resend-uncertain`. Exit code 5 when something is left.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem send games/my-game --dry-run",
    "PBEM_SMTP_PASSWORD=... pbem send games/my-game"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// List what would be sent, with the envelope it goes with (From and To of game.toml as it is
    /// now); send nothing, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Try again the recipients a server refused for good (5xx) on an earlier run.
    #[arg(long)]
    pub retry_refused: bool,
    /// Deliver into this folder (one subfolder per recipient) instead of the configured transport.
    #[arg(long)]
    pub folder: Option<PathBuf>,
    /// Send again the messages an interrupted run may have delivered ("possibly delivered"): a
    /// player may then get one twice (with the same Message-ID).
    #[arg(long, conflicts_with = "confirm_uncertain")]
    pub resend_uncertain: bool,
    /// Record the messages an interrupted run may have delivered as delivered, without sending
    /// them: after you checked that they arrived.
    #[arg(long)]
    pub confirm_uncertain: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let opts = SendOptions {
        dry_run: args.dry_run,
        retry_refused: args.retry_refused,
        folder: args.folder,
        resend_uncertain: args.resend_uncertain,
        confirm_uncertain: args.confirm_uncertain,
    };
    let summary = send(&game, &opts, &mut progress_bar())?;
    print_summary(&summary, args.dry_run);
    Ok(if summary.complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(exit::UNDELIVERED)
    })
}

/// A progress bar on stderr (`crate::progress`) once there are many deliveries.
pub fn progress_bar() -> impl FnMut(usize, usize, &str) {
    crate::progress::reporter("deliveries", 20)
}

/// Prints one line per delivery that is not routine, then the counts.
pub fn print_summary(s: &SendSummary, dry_run: bool) {
    crate::say!("Outbox via {}:", s.via);
    for d in &s.deliveries {
        let line = match &d.outcome {
            Outcome::Delivered(_) => format!("sent       {} -> {}", d.file, d.recipient),
            Outcome::WouldSend => format!(
                "would send {} -> {}  \"{}\"  ({})",
                d.file, d.recipient, d.subject, d.envelope
            ),
            Outcome::Refused(why) => format!("REFUSED    {} -> {}: {why}", d.file, d.recipient),
            Outcome::RefusedEarlier(why) => format!(
                "refused    {} -> {} (on an earlier run: {why}; --retry-refused tries again)",
                d.file, d.recipient
            ),
            Outcome::Deferred(why) => format!(
                "left       {} -> {}: {why} (the next run tries again)",
                d.file, d.recipient
            ),
            Outcome::AlreadyDelivered if crate::out::verbose() => {
                format!(
                    "delivered  {} -> {} (on an earlier run)",
                    d.file, d.recipient
                )
            }
            Outcome::Uncertain(why) => format!("UNCERTAIN  {} -> {}: {why}", d.file, d.recipient),
            Outcome::AlreadyDelivered => continue,
        };
        crate::say!("  {line}");
    }
    for w in &s.withdrawn {
        crate::say!("  {w}");
    }
    for p in &s.problems {
        crate::say!("  problem: {p}");
    }
    if let Some(why) = &s.stopped {
        crate::say!("  stopped: {why}");
    }
    let already = s.count(|o| matches!(o, Outcome::AlreadyDelivered));
    if dry_run {
        crate::say!(
            "{} message(s) would be sent; {already} already delivered.",
            s.count(|o| matches!(o, Outcome::WouldSend))
        );
    } else {
        crate::say!(
            "{} message(s) sent, {already} already delivered, {} refused, {} left for the next run, {} possibly delivered.",
            s.sent(),
            s.count(|o| matches!(o, Outcome::Refused(_) | Outcome::RefusedEarlier(_))),
            s.count(|o| matches!(o, Outcome::Deferred(_))),
            s.count(|o| matches!(o, Outcome::Uncertain(_)))
        );
    }
}
