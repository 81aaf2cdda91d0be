//! `pbem turn`: the one command per turn. It ingests the referee's mailbox (issue 4), resolves the
//! current turn from the orders in `orders/<turn>/`, files the late orders held for the next turn, and
//! sends the outbox (issue 5): acknowledgements, reports and the next commitment. One summary.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::game::config::DiceScheme;
use crate::game::fsio::GameLock;
use crate::game::Game;
use crate::mail::ingest::{self, Status};
use crate::mail::send::{self, Outcome, SendOptions};
use crate::referee::turn::{resolve, ResolveOptions};

/// Run the whole turn: read the mail, resolve, write one report per power, send the outbox. In a
/// pbem-dice/v2 game the orders are closed first and the closing list is sent before the turn is
/// resolved.
///
/// Before the turn's deadline it reads the mail and then refuses to resolve while a power due has no
/// orders in (it names them), unless `--early` is given.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem turn games/my-game --mailbox ~/Maildir",
    "pbem turn games/my-game --mailbox inbox.mbox --no-send",
    "pbem turn games/my-game --imap   (the mailbox of [mail.imap])",
    "pbem turn games/my-game   (orders already in `orders/<turn>/`)"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// A mailbox to ingest first (.eml, mbox or Maildir); repeat for several.
    #[arg(long = "mailbox")]
    pub mailboxes: Vec<PathBuf>,
    /// Fetch the new mail of the IMAP mailbox in `[mail.imap]` first (as `pbem fetch`).
    #[arg(long)]
    pub imap: bool,
    /// Do not send the outbox (send it later with `pbem send`).
    #[arg(long)]
    pub no_send: bool,
    /// Deliver the outbox into this folder instead of the configured transport.
    #[arg(long)]
    pub folder: Option<PathBuf>,
    /// Resolve before the deadline although a power due has no orders in.
    #[arg(long)]
    pub early: bool,
    /// Run from cron or a systemd timer: a turn not due yet (orders missing before the deadline)
    /// is no error and prints nothing; the answers go out, and each power still due gets one
    /// reminder `[deadline] remind_hours_before` the deadline. Another pbem at work on the game:
    /// nothing done, exit 0.
    #[arg(long, conflicts_with = "early")]
    pub unattended: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let game = Game::load(&args.game)?;
    // One lock for the whole command: no other pbem between the ingest, the turn and the sending.
    let _lock = match crate::game::fsio::GameLock::acquire(&game.dir) {
        Err(_) if args.unattended => return Ok(ExitCode::SUCCESS),
        lock => lock?,
    };
    // Never with a demo's public secret.
    crate::engine::due::check_secret(&game, game.current_turn()?)?;
    let configured = game.config.mail.transport.is_some() || args.folder.is_some();
    // First what an earlier run began and did not finish: the mail already in the outbox (a run
    // killed while sending the turn it resolved). The next turn waits for it.
    let earlier = if configured { waiting(&game)? } else { 0 };
    let finish = earlier > 0 && !args.no_send;
    if finish {
        let sent = send_outbox(&game, &args)?;
        if !args.unattended || !sent.complete() {
            super::send::print_summary(&sent, false);
        }
        if !sent.complete() {
            let uncertain = sent
                .deliveries
                .iter()
                .any(|d| matches!(d.outcome, Outcome::Uncertain(_)));
            match uncertain {
                // Only the referee can tell whether it arrived (MAIL.md "Sending").
                true => crate::say!(
                    "The mail already in the outbox did not all go, so no turn is looked at: a message is possibly delivered (above); check it, then run `pbem send {} --confirm-uncertain` (it arrived) or `--resend-uncertain`.",
                    args.game.display()
                ),
                false => crate::say!(
                    "The mail already in the outbox did not all go, so no turn is looked at: run `pbem send {}` (or this command) again.",
                    args.game.display()
                ),
            }
            return Ok(ExitCode::from(super::exit::UNDELIVERED));
        }
    }
    // Mail kept back by --no-send: the referee sends it himself, before the next turn.
    let unsent_before = if configured && args.no_send {
        earlier
    } else {
        0
    };
    let mut fetched_new = false;
    if args.imap {
        let fetched = crate::mail::imap::fetch(&game, &mut super::ingest::progress_bar())?;
        if !args.unattended || !fetched.complete() {
            super::fetch::print_summary(&game, &fetched)?;
        }
        if !fetched.complete() {
            anyhow::bail!(
                "the IMAP mailbox could not be read to the end, so the turn is not resolved: run `pbem turn {} --imap` again",
                args.game.display()
            );
        }
        fetched_new = fetched.ingest.as_ref().is_some_and(|i| !i.new.is_empty());
    }
    let mail =
        ingest::ingest_with_progress(&game, &args.mailboxes, &mut super::ingest::progress_bar())?;
    // `pbem end`: the mail is filed and answered (the game is over), and no turn is played.
    if let Some(ended) = game.ended()? {
        return over(&game, &args, &mail, fetched_new, configured, &ended);
    }
    // Before the deadline, only with every power's orders in (or --early).
    let turn = game.current_turn()?;
    if let Some(why) = crate::engine::due::not_due(&game, turn, args.early)? {
        if unsent_before > 0 {
            anyhow::bail!(
                "{unsent_before} message(s) of the turns before are still in the outbox, unsent: send them first with `pbem send {}`. Turn {turn} is not due yet ({why}). Nothing was resolved.",
                args.game.display()
            );
        }
        if args.unattended {
            return wait_unattended(&game, &args, configured);
        }
        if !mail.new.is_empty() || fetched_new {
            // This run filed new mail: it says so (`fetch` printed its own), and sends the answers.
            if !mail.new.is_empty() {
                print_mail(&game, &mail)?;
            }
            let mut code = ExitCode::SUCCESS;
            let answered = configured && !args.no_send;
            if answered {
                let sent = send_outbox(&game, &args)?;
                super::send::print_summary(&sent, false);
                if !sent.complete() {
                    code = ExitCode::from(super::exit::UNDELIVERED);
                }
            }
            crate::say!(
                "The new mail is filed{}. {}",
                match answered {
                    true => " and answered",
                    false => ", its answers in the outbox (`pbem send`)",
                },
                crate::engine::due::not_due_advice(&game, &why)
            );
            return Ok(code);
        }
        if finish {
            // This run finished the mail an earlier one left: that was its work.
            crate::say!(
                "The mail left in the outbox is sent. {}",
                crate::engine::due::not_due_advice(&game, &why)
            );
            return Ok(ExitCode::SUCCESS);
        }
        anyhow::bail!(
            "{} Nothing was changed.",
            crate::engine::due::not_due_advice(&game, &why)
        );
    }
    // pbem-dice/v2: close the orders and mail the closing list before anything is resolved.
    if game.config.dice.scheme == DiceScheme::V2 {
        let turn = game.current_turn()?;
        if !game.is_resolved(turn) {
            let _lock = GameLock::acquire(&game.dir)?;
            crate::referee::close::close(&game, turn)?;
        }
        if configured && !args.no_send {
            let sent = send::send(
                &game,
                &SendOptions {
                    folder: args.folder.clone(),
                    ..SendOptions::default()
                },
                &mut super::send::progress_bar(),
            )?;
            super::send::print_summary(&sent, false);
            // Every closing mail must have reached every player; other mail may wait.
            let closing_sent = sent.stopped.is_none()
                && !sent.problems.iter().any(|p| p.contains("-closing-"))
                && sent.deliveries.iter().all(|d| {
                    !d.file.contains("-closing-")
                        || matches!(d.outcome, Outcome::Delivered(_) | Outcome::AlreadyDelivered)
                });
            if !closing_sent {
                crate::say!(
                    "The closing list did not reach every player, so the turn is not resolved: run `pbem turn {}` again.",
                    args.game.display()
                );
                return Ok(ExitCode::from(super::exit::UNDELIVERED));
            }
        }
    }
    let outcome = resolve(&game, &ResolveOptions::default())?;
    // The game as the turn left it: a turn resolved late announces the next with a later deadline
    // than the schedule's slot (its record keeps it), which the mail must be judged by.
    let game = Game::load(&args.game)?;
    let held = ingest::apply_held(&game)?;
    super::print_outcome(&game, &outcome);

    if !args.mailboxes.is_empty() {
        print_mail(&game, &mail)?;
    }
    for w in &held.standing {
        crate::say!(
            "  held orders of {} filed for turn {}: {}",
            w.power,
            held.turn,
            game.printed(&w.path)
        );
    }

    if args.no_send || !configured {
        let waiting = send::send(
            &game,
            &SendOptions {
                dry_run: true,
                ..SendOptions::default()
            },
            &mut |_, _, _| {},
        )?
        .count(|o| matches!(o, Outcome::WouldSend));
        crate::say!(
            "Outbox: {waiting} message(s) waiting{}; send them with `pbem send {}`.",
            if configured {
                ""
            } else {
                " (no [mail] transport in game.toml)"
            },
            args.game.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let sent = send::send(
        &game,
        &SendOptions {
            folder: args.folder.clone(),
            ..SendOptions::default()
        },
        &mut super::send::progress_bar(),
    )?;
    super::send::print_summary(&sent, false);
    if !sent.complete() {
        crate::say!(
            "The turn is resolved, but not every message went: run `pbem send {}` again.",
            args.game.display()
        );
        return Ok(ExitCode::from(super::exit::UNDELIVERED));
    }
    Ok(ExitCode::SUCCESS)
}

/// What the mail ingested by this run came to: the counts, then each message that does not stand.
fn print_mail(game: &Game, mail: &ingest::IngestSummary) -> anyhow::Result<()> {
    crate::say!(
        "Mail: {} message(s) read, {} new: {} accepted, {} late, {} held, {} rejected, {} ignored.",
        mail.read,
        mail.new.len(),
        mail.count(Status::Accepted),
        mail.count(Status::Late),
        mail.count(Status::Held),
        mail.count(Status::Rejected),
        mail.count(Status::Ignored) + mail.count(Status::Duplicate),
    );
    for p in &mail.problems {
        crate::say!("  problem: {p}");
    }
    // Its columns as wide as the game's longest power (a player's `france.ney`) or status.
    let (w, _) = super::power_columns(game);
    let w = w.max(1);
    let sw = crate::out::width(
        [Status::Late, Status::Rejected, Status::Held]
            .iter()
            .map(|s| s.name()),
    );
    mail.new.each(&mut |e| {
        let r = &e.record;
        if matches!(r.status, Status::Late | Status::Rejected | Status::Held) {
            let slot = r.slot();
            let power = if r.power.is_empty() { "-" } else { &slot };
            crate::say!(
                "  {:<sw$} {:<w$} {}: {}",
                r.status.name(),
                power,
                r.source,
                r.reasons.join("; ")
            );
        }
        Ok(())
    })?;
    Ok(())
}

/// The messages of the outbox not yet sent to everyone they are for, or possibly delivered (a run
/// killed while one went: the folder transport looks whether it arrived; SMTP asks the referee).
fn waiting(game: &Game) -> anyhow::Result<usize> {
    Ok(send::send(
        game,
        &SendOptions {
            dry_run: true,
            ..SendOptions::default()
        },
        &mut |_, _, _| {},
    )?
    .count(|o| matches!(o, Outcome::WouldSend | Outcome::Uncertain(_))))
}

/// Sends the outbox through the game's transport or `--folder`.
fn send_outbox(game: &Game, args: &Args) -> anyhow::Result<send::SendSummary> {
    let opts = SendOptions {
        folder: args.folder.clone(),
        ..SendOptions::default()
    };
    if args.unattended {
        send::send(game, &opts, &mut |_, _, _| {})
    } else {
        send::send(game, &opts, &mut super::send::progress_bar())
    }
}

/// After `pbem end`: the new mail filed (answered that the game is over) and sent; no turn. Silent
/// `--unattended` when there was nothing new.
fn over(
    game: &Game,
    args: &Args,
    mail: &ingest::IngestSummary,
    fetched_new: bool,
    configured: bool,
    ended: &crate::game::acts::Ended,
) -> anyhow::Result<ExitCode> {
    let mut code = ExitCode::SUCCESS;
    if !mail.new.is_empty() {
        print_mail(game, mail)?;
    }
    let new = !mail.new.is_empty() || fetched_new;
    if configured && !args.no_send && (new || !args.unattended) {
        let sent = send_outbox(game, args)?;
        if !args.unattended || !sent.complete() {
            super::send::print_summary(&sent, false);
        }
        if !sent.complete() {
            code = ExitCode::from(super::exit::UNDELIVERED);
        }
    }
    if !args.unattended || new {
        crate::say!(
            "The game is over: the referee ended it {} ({}). No turn is played; mail that comes is filed and answered so.",
            ended.when(),
            ended.reason
        );
    }
    Ok(code)
}

/// `--unattended` while the turn is not due: the reminders the hour calls for (one per power and
/// turn), then the answers and reminders go out; nothing is printed unless something failed.
fn wait_unattended(game: &Game, args: &Args, configured: bool) -> anyhow::Result<ExitCode> {
    let turn = game.current_turn()?;
    if let (Some(hours), Some(deadline)) = (
        game.config.deadline.remind_hours_before,
        game.config.deadline_of(turn),
    ) {
        let from = deadline.with_timezone(&chrono::Utc) - chrono::Duration::hours(i64::from(hours));
        if crate::clock::now()? >= from {
            crate::mail::status::remind_once(game)?;
        }
    }
    if !configured || args.no_send {
        return Ok(ExitCode::SUCCESS);
    }
    let sent = send_outbox(game, args)?;
    if !sent.complete() {
        super::send::print_summary(&sent, false);
        return Ok(ExitCode::from(super::exit::UNDELIVERED));
    }
    Ok(ExitCode::SUCCESS)
}
