//! `pbem send`: every message of the outbox delivered once (issue 5.2, 5.3).
//!
//! Each outbox message (a file, or a message of an ingest run's batch: `outbox_store`) goes to each
//! of its recipients (To and Cc) in an SMTP transaction of its own, so that a recipient the server
//! refuses is reported alone and the others still get the message. After each delivery the sent
//! ledger `mail/sent/<file>.toml` is rewritten atomically (`fsio`): a rerun
//! after a crash, a refused connection or a dropped one sends exactly what is not in the ledger yet.
//! Transient failures (4xx replies, time-outs, a connection dropped mid-transaction) are retried with
//! a doubling pause, a bounded number of times, and then left for the next run; permanent ones (5xx)
//! are recorded per recipient and not tried again unless asked (`--retry-refused`); a refused
//! connection (no server listens), a refused login or a failed TLS handshake stops the run at once,
//! every message left for the next run (issue 22.4: a server that is down costs no retries). After
//! three messages in a row fail transiently the server is taken to be down and the run stops.
//!
//! The one window SMTP leaves open (issue 15.9): the server takes a message when it answers the end
//! of its DATA, and nothing tells pbem afterwards whether it did. So pbem writes the recipient as
//! `sending` in the ledger (fsync'd) right before it sends the line that ends the DATA, after the whole
//! message has gone, and as `delivered` right after the server's answer, before anything else. A run
//! killed before the mark leaves a transaction the server discards: the rerun sends it, once. A run
//! killed between the mark and `delivered` (or a connection lost while waiting for the answer) leaves
//! the pair `sending`: it may have gone, so the rerun reports it "possibly delivered" and does not send
//! it again unless told (`resend_uncertain`, which may give the player a second copy with the same
//! Message-ID, or `confirm_uncertain`, which records it delivered). Nothing is ever lost silently.
//! A folder leaves no doubt: the mark goes before the file's atomic write, and the rerun settles a
//! `sending` pair by looking for the file (there: delivered; absent: sent now), so that a run
//! killed between the two neither writes it twice nor loses it.
//!
//! A turn's messages (its reports and summary, the next turn's announcements) go only once the turn's
//! record lists them with their bytes: a crash before the record leaves them in the outbox of a turn
//! that is not resolved, whose rerun may write others under the same names.
//!
//! Transports (game.toml `[mail] transport`): `smtp` (STARTTLS, implicit TLS, or plain to a loopback
//! server, with a login whose password comes from an environment variable or a file, never from
//! game.toml, and never printed), `sendmail` (a local program), `folder` (each message written to
//! `<folder>/<recipient>/<file>`, for dry runs and tests; lettre's own file transport names its files at
//! random, so pbem writes them itself).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use lettre::address::Envelope;
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
use lettre::transport::smtp::Error as SmtpError;
use lettre::{Address, SendmailTransport, Transport as _};
use serde::{Deserialize, Serialize};

use super::{envelope, parse};
use crate::game::fsio::{write_atomic, GameLock};
use crate::game::record::sha256_hex;
use crate::game::Game;

/// The format line of a sent-ledger file.
pub const SENT_FORMAT: &str = "pbem-sent/v1";

/// What the referee asked of `pbem send`.
#[derive(Debug, Clone, Default)]
pub struct SendOptions {
    /// List what would go; send and write nothing.
    pub dry_run: bool,
    /// Try again the recipients a server refused for good on an earlier run.
    pub retry_refused: bool,
    /// Deliver into this folder instead of the configured transport.
    pub folder: Option<PathBuf>,
    /// Send again the pairs a killed run may have delivered (ledger status `sending`).
    pub resend_uncertain: bool,
    /// Record the pairs a killed run may have delivered as delivered, without sending them.
    pub confirm_uncertain: bool,
}

/// `mail/sent/<file>.toml`: the deliveries of one outbox file. No clock: the order of events is the
/// order of the list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SentRecord {
    pub format: String,
    /// The outbox file.
    pub file: String,
    pub message_id: String,
    /// SHA-256 of the file as it was first delivered.
    pub sha256: String,
    /// Whether it reached every recipient it had when it was sent: it is not sent again, not even to
    /// an address a player gave since.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub complete: bool,
    /// Why the message was withdrawn before it went to anyone (`complete`, no recipient): an
    /// answer a later one of the same message stands over ([`withdraw`]).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub withdrawn: String,
    #[serde(default, rename = "recipient")]
    pub recipients: Vec<RecipientState>,
}

/// One recipient of a sent-ledger file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecipientState {
    pub address: String,
    /// `delivered`, `refused`, or `sending`: the end of its DATA was about to go when the ledger was
    /// last written, so it may have been delivered.
    pub status: String,
    /// The server's reply (or the transport's error).
    pub reply: String,
    /// The transport: `smtp smtp.example.org:587`, `sendmail`, `folder <path>`.
    pub via: String,
}

/// What happened to one (message, recipient) pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Delivered(String),
    AlreadyDelivered,
    /// Refused for good now (a 5xx reply).
    Refused(String),
    /// Refused for good on an earlier run; not tried again.
    RefusedEarlier(String),
    /// Not delivered now; the next run tries again.
    Deferred(String),
    /// Possibly delivered: a run was killed (or the connection lost) after the end of its DATA went
    /// and before the server's answer was recorded. Not sent again unless asked.
    Uncertain(String),
    /// `--dry-run`: would be sent.
    WouldSend,
}

/// One line of the summary.
#[derive(Debug, Clone)]
pub struct Delivery {
    pub file: String,
    pub subject: String,
    /// The envelope it goes (or went) with: `From: ...; To: ...`.
    pub envelope: String,
    pub recipient: String,
    pub outcome: Outcome,
}

/// What a run of `pbem send` did.
#[derive(Debug, Clone, Default)]
pub struct SendSummary {
    /// The transport used (or that would be).
    pub via: String,
    pub deliveries: Vec<Delivery>,
    /// Outbox files that could not be sent at all (no recipient, unreadable).
    pub problems: Vec<String>,
    /// Why the run stopped early, if it did.
    pub stopped: Option<String>,
    /// Messages withdrawn by this run instead of sent, with why: a reminder whose deadline passed
    /// before it went ([`reminder_too_late`]).
    pub withdrawn: Vec<String>,
}

impl SendSummary {
    pub fn count(&self, f: impl Fn(&Outcome) -> bool) -> usize {
        self.deliveries.iter().filter(|d| f(&d.outcome)).count()
    }

    /// Messages sent now.
    pub fn sent(&self) -> usize {
        self.count(|o| matches!(o, Outcome::Delivered(_)))
    }

    /// Whether every message has reached every recipient (now or before).
    pub fn complete(&self) -> bool {
        self.problems.is_empty()
            && self.stopped.is_none()
            && self.deliveries.iter().all(|d| {
                matches!(
                    d.outcome,
                    Outcome::Delivered(_) | Outcome::AlreadyDelivered | Outcome::WouldSend
                )
            })
    }
}

/// The sent ledger folder.
pub fn sent_dir(game: &Game) -> PathBuf {
    game.dir.join("mail").join("sent")
}

fn ledger_path(game: &Game, file: &str) -> PathBuf {
    sent_dir(game).join(format!("{}.toml", file.trim_end_matches(".eml")))
}

/// Withdraws the outbox message `file` while nobody has it yet: its ledger says withdrawn (with
/// `why`) and complete, so that no run sends it; the message stays in the outbox, as written. False
/// (nothing changed) once any recipient has it or may have it.
pub fn withdraw(game: &Game, file: &str, why: &str) -> Result<bool> {
    let ledger = load_ledger(game, file)?;
    if ledger.as_ref().is_some_and(|l| {
        !l.withdrawn.is_empty()
            || l.recipients
                .iter()
                .any(|r| r.status == "delivered" || r.status == SENDING)
    }) {
        return Ok(false);
    }
    let mut l = ledger.unwrap_or_else(|| SentRecord {
        format: SENT_FORMAT.into(),
        file: file.to_string(),
        ..SentRecord::default()
    });
    l.complete = true;
    l.withdrawn = why.to_string();
    write_ledger(game, &l)?;
    Ok(true)
}

/// Reads the ledger of an outbox file, if it has one.
pub fn load_ledger(game: &Game, file: &str) -> Result<Option<SentRecord>> {
    let path = ledger_path(game, file);
    if !path.is_file() {
        return Ok(None);
    }
    let src = crate::game::load::read_source(&path, &game.shown(&path))?;
    Ok(Some(crate::game::load::parse_toml(&src)?))
}

/// The messages of the outbox in the order they were written (`outbox_store::in_order`), which is
/// the order they go in: each `.eml` file and each message of an ingest run's batch.
pub fn outbox_messages(game: &Game) -> Result<Vec<super::outbox_store::Message>> {
    let dir = super::outbox::dir(game);
    super::outbox_store::in_order(&dir).with_context(|| format!("cannot list {}", game.shown(&dir)))
}

/// Why the mail that announces the current turn may not go, if it may not (issue 33): none of it
/// has reached anyone yet and the turn's deadline is already past at `now`, so that it would ask
/// for orders no one can send in time. A turn is announced by its announcements
/// (`t<turn>-announcement-*`: the game's first mail, with the welcomes; for a later turn, with the
/// reports of the turn before); not in the bundled demo, whose turns no player is told of (the
/// turn's dice secret is its public one, `due::secret_is_public`). The referee moves the deadline first (`pbem extend`,
/// whose notice gives the new deadline; for the first turn `[deadline] first` too, which the
/// first mail is made again from).
pub fn announcement_too_late(
    game: &Game,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Option<String>> {
    let first = game.config.first_turn;
    let turn = game.current_turn()?;
    if game.is_resolved(turn) {
        return Ok(None);
    }
    let Some(deadline) = game.config.deadline_of(turn) else {
        return Ok(None);
    };
    if deadline.with_timezone(&chrono::Utc) > now {
        return Ok(None);
    }
    if crate::engine::due::secret_is_public(game, turn) {
        return Ok(None);
    }
    // The game is over (`pbem end`): the turn asks for no orders, its announcement withdrawn.
    if game.ended()?.is_some() {
        return Ok(None);
    }
    let prefix = format!("t{turn:04}-announcement-");
    let mut announcements = 0;
    for m in outbox_messages(game)?
        .iter()
        .filter(|m| m.name.starts_with(&prefix))
    {
        announcements += 1;
        let ledger = load_ledger(game, &m.name)?;
        if ledger.is_some_and(|l| l.recipients.iter().any(|r| r.status != "refused")) {
            return Ok(None);
        }
    }
    if announcements == 0 {
        return Ok(None);
    }
    let shown = game.config.deadline_shown(turn);
    let now_shown = now
        .with_timezone(&deadline.timezone())
        .format("%Y-%m-%d %H:%M %Z");
    let (what, remedy) = match turn > first {
        true => (
            format!("turn {turn}'s announcement (with the reports of turn {}) has", turn - 1),
            "; its notice gives the players the new deadline".to_string(),
        ),
        false => (
            "the game's first mail has".to_string(),
            ", or set [deadline] first in game.toml (the first mail is made again from it when it goes)".to_string(),
        ),
    };
    Ok(Some(format!(
        "{what} not gone yet and turn {turn}'s deadline ({shown}) is already past (now is {now_shown}): it would ask for orders no one can send in time. Move the deadline ahead first: `pbem extend {} --to <YYYY-MM-DDTHH:MM>`{remedy}.",
        game.dir.display()
    )))
}

/// Why reminder `file` is not to go at `now`, if it is not: nobody has it yet and the deadline of
/// its turn (the one it asks orders for) has passed, so that it would ask for orders no one can
/// send in time.
fn reminder_too_late(
    game: &Game,
    file: &str,
    ledger: Option<&SentRecord>,
    now: chrono::DateTime<chrono::Utc>,
) -> Option<String> {
    let turn: u32 = file.strip_prefix('t')?.split('-').next()?.parse().ok()?;
    if !file.starts_with(&format!("t{turn:04}-reminder-")) {
        return None;
    }
    if ledger.is_some_and(|l| !l.recipients.is_empty()) {
        return None;
    }
    let deadline = game.config.deadline_of(turn)?;
    (deadline.with_timezone(&chrono::Utc) <= now).then(|| {
        format!(
            "the deadline it reminds of ({}) passed before it went",
            game.config.deadline_shown(turn)
        )
    })
}

/// Delivers the outbox: see the module doc. `progress(done, total)` is called as pairs are handled.
pub fn send(
    game: &Game,
    opts: &SendOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<SendSummary> {
    let _lock = if opts.dry_run {
        None
    } else {
        Some(GameLock::acquire(&game.dir)?)
    };
    // A new game's first mail says what game.toml says when it first goes, not at `pbem new`.
    if !opts.dry_run {
        let never_sent = |file: &str| matches!(load_ledger(game, file), Ok(None));
        super::welcome::refresh_first_turn(game, &never_sent)?;
    }
    // No turn is announced with its deadline already past (issue 33). A dry run says so and lists
    // what would go once it is moved.
    let too_late = announcement_too_late(game, crate::clock::now()?)?;
    if let (Some(why), false) = (&too_late, opts.dry_run) {
        bail!("{why} Nothing was sent.");
    }
    let from: Mailbox = game.config.mail_from().parse().with_context(|| {
        format!(
            "the referee address '{}' (game.toml [mail] from) is not an address",
            game.config.mail_from()
        )
    })?;
    let transport = if opts.dry_run {
        None
    } else {
        Some(Transport::from_config(game, opts.folder.as_deref())?)
    };
    if let Some(Transport::Folder { dir }) = &transport {
        remove_killed_deliveries(dir);
    }
    // Players answer the From of what they get: a placeholder address would take their orders nowhere.
    if matches!(
        transport,
        Some(Transport::Smtp { .. } | Transport::Sendmail { .. })
    ) && from.email.domain().ends_with(".invalid")
    {
        bail!(
            "the referee address '{}' is a placeholder: set [mail] from in game.toml to the address players answer (nothing was sent)",
            game.config.mail_from()
        );
    }
    let mut summary = SendSummary {
        via: match &transport {
            Some(t) => t.describe(),
            None => describe_config(game, opts.folder.as_deref()),
        },
        ..SendSummary::default()
    };
    summary.problems.extend(too_late);
    let retries = game.config.mail.retries;
    // The moment of sending: the `Date` of every message of this run.
    let now = crate::clock::now()?;
    let first_delay = Duration::from_millis(game.config.mail.retry_delay_ms);

    // What is to be done, file by file.
    struct Work {
        file: String,
        bytes: Vec<u8>,
        subject: String,
        envelope: String,
        recipients: Vec<String>,
        ledger: SentRecord,
    }
    let mut work = Vec::new();
    let mut records = BTreeMap::new();
    let mut states = envelope::States::new();
    for message in outbox_messages(game)? {
        let file = message.name.clone();
        // The digest the record lists is of the file as kept (`outbox::kept_digest`).
        let read = message.read_kept().and_then(|kept| {
            let digest = super::outbox::kept_digest(&kept);
            Ok((digest, message.whole(kept)?))
        });
        let (digest, bytes) = match read {
            Ok(read) => read,
            Err(e) => {
                summary
                    .problems
                    .push(format!("{file}: cannot be read ({e:#})"));
                continue;
            }
        };
        let headers = parse::outgoing_headers(&bytes);
        let ledger = load_ledger(game, &file)?;
        if ledger.as_ref().is_some_and(|l| l.complete) {
            // A welcome delivered by a run that stopped before it masked its password.
            if !opts.dry_run && super::welcome::is_welcome(&file) {
                super::welcome::mask_delivered(game, &file)?;
            }
            // Delivered to everyone it was for: whoever its audience is now, it is not sent again.
            for r in ledger.iter().flat_map(|l| &l.recipients) {
                summary.deliveries.push(Delivery {
                    file: file.clone(),
                    subject: headers.subject.clone(),
                    envelope: String::new(),
                    recipient: r.address.clone(),
                    outcome: Outcome::AlreadyDelivered,
                });
            }
            continue;
        }
        // A reminder that did not go before its deadline asks for orders nobody can send in time
        // (`pbem turn` sends the outbox before it resolves): withdrawn, not sent.
        if let Some(why) = reminder_too_late(game, &file, ledger.as_ref(), now) {
            if !opts.dry_run {
                withdraw(game, &file, &why)?;
            }
            let done = if opts.dry_run {
                "would be withdrawn"
            } else {
                "withdrawn"
            };
            summary.withdrawn.push(format!("{file}: {done}: {why}"));
            continue;
        }
        // The envelope of now: the audience the message names, as game.toml says today.
        let addressed = envelope::address_with(game, &bytes, &headers.recipients, &mut states);
        for why in &addressed.gone {
            summary.problems.push(format!("{file}: {why}"));
        }
        let mut recipients: Vec<String> = Vec::new();
        for r in addressed.to {
            if !recipients.iter().any(|x| x.eq_ignore_ascii_case(&r)) {
                recipients.push(r);
            }
        }
        if recipients.is_empty() {
            if addressed.gone.is_empty() {
                summary
                    .problems
                    .push(format!("{file}: nobody to send it to (no recipient)"));
            }
            continue;
        }
        let sha = sha256_hex(&bytes);
        // A record written before issue 39.3 lists the digest of what the message says, whole.
        let before = || envelope::content_digest(&bytes);
        if let Some(why) = held_back(game, &file, &digest, before, &mut records) {
            summary.problems.push(format!("{file}: not sent: {why}"));
            continue;
        }
        let ledger = match ledger {
            Some(l) => {
                if l.sha256 != sha && !l.recipients.is_empty() {
                    summary.problems.push(format!(
                        "{file}: changed since it was first delivered; the recipients it reached are not sent it again"
                    ));
                }
                l
            }
            None => SentRecord {
                format: SENT_FORMAT.into(),
                file: file.clone(),
                message_id: headers.message_id.clone().unwrap_or_default(),
                sha256: sha,
                complete: false,
                withdrawn: String::new(),
                recipients: Vec::new(),
            },
        };
        let bytes = match envelope::with_envelope(&bytes, &from, &recipients, now) {
            Ok(b) => b,
            Err(e) => {
                summary.problems.push(format!("{file}: {e:#}"));
                continue;
            }
        };
        work.push(Work {
            file,
            bytes,
            subject: headers.subject,
            envelope: format!("From: {from}; To: {}", recipients.join(", ")),
            recipients,
            ledger,
        });
    }
    let total: usize = work.iter().map(|w| w.recipients.len()).sum();
    let mut done = 0;
    let mut failing_in_a_row = 0;
    for mut w in work {
        let mut failed_here = false;
        let via = transport.as_ref().map(|t| t.describe()).unwrap_or_default();
        for rcpt in w.recipients.clone() {
            progress(done, total, &w.file);
            done += 1;
            // A folder tells what a killed run did: the message is there (written atomically)
            // or not, so a `sending` pair of a folder is settled, never sent twice nor lost.
            if let Some(Transport::Folder { dir }) = &transport {
                let marked = w
                    .ledger
                    .recipients
                    .iter()
                    .find(|r| r.address.eq_ignore_ascii_case(&rcpt) && r.status == SENDING);
                if let Some(r) = marked.cloned() {
                    if dir.join(folder_name(&rcpt)).join(&w.file).is_file() {
                        let reply = "written to the folder by a run killed before it recorded so";
                        record(&mut w.ledger, &rcpt, "delivered", reply, &r.via);
                        write_ledger(game, &w.ledger)?;
                    }
                }
            }
            let earlier = w
                .ledger
                .recipients
                .iter()
                .find(|r| r.address.eq_ignore_ascii_case(&rcpt))
                .cloned()
                .filter(|r| {
                    r.status != SENDING || !matches!(transport, Some(Transport::Folder { .. }))
                });
            let outcome = match (&earlier, &transport) {
                (Some(r), _) if r.status == "delivered" => Outcome::AlreadyDelivered,
                (Some(r), Some(_)) if r.status == SENDING && opts.confirm_uncertain => {
                    record(
                        &mut w.ledger,
                        &rcpt,
                        "delivered",
                        "confirmed delivered by the referee (pbem send --confirm-uncertain)",
                        &r.via,
                    );
                    write_ledger(game, &w.ledger)?;
                    Outcome::AlreadyDelivered
                }
                (Some(r), _) if r.status == SENDING && !opts.resend_uncertain => {
                    Outcome::Uncertain(UNCERTAIN.into())
                }
                (Some(r), _) if r.status == "refused" && !opts.retry_refused => {
                    Outcome::RefusedEarlier(r.reply.clone())
                }
                (_, None) => Outcome::WouldSend,
                (_, Some(_)) if summary.stopped.is_some() => {
                    Outcome::Deferred("not tried: the run stopped".into())
                }
                (_, Some(t)) => {
                    // Written, fsync'd, right before the end of the DATA goes (`Transport::deliver`).
                    let ledger = &mut w.ledger;
                    let mut mark = || {
                        record(ledger, &rcpt, SENDING, "", &via);
                        write_ledger(game, ledger)
                    };
                    let result = deliver_with_retries(
                        t,
                        &from,
                        &rcpt,
                        &w.file,
                        &w.bytes,
                        retries,
                        first_delay,
                        &mut mark,
                    );
                    let l = &mut w.ledger;
                    match result {
                        Ok(reply) => {
                            record(l, &rcpt, "delivered", &reply, &via);
                            write_ledger(game, l)?;
                            Outcome::Delivered(reply)
                        }
                        Err(Failure::Uncertain(e)) => {
                            failed_here = true;
                            Outcome::Uncertain(format!("{UNCERTAIN} ({e})"))
                        }
                        Err(Failure::Permanent(e)) => {
                            record(l, &rcpt, "refused", &e, &via);
                            write_ledger(game, l)?;
                            Outcome::Refused(e)
                        }
                        Err(Failure::Transient(e)) => {
                            unmark(game, l, &rcpt, earlier.as_ref())?;
                            failed_here = true;
                            Outcome::Deferred(e)
                        }
                        Err(Failure::Fatal(e)) => {
                            unmark(game, l, &rcpt, earlier.as_ref())?;
                            summary.stopped = Some(e.clone());
                            Outcome::Deferred(e)
                        }
                    }
                }
            };
            summary.deliveries.push(Delivery {
                file: w.file.clone(),
                subject: w.subject.clone(),
                envelope: w.envelope.clone(),
                recipient: rcpt,
                outcome,
            });
        }
        let reached = |r: &String| {
            w.ledger
                .recipients
                .iter()
                .any(|x| x.address.eq_ignore_ascii_case(r) && x.status == "delivered")
        };
        if transport.is_some() && !w.ledger.complete && w.recipients.iter().all(reached) {
            w.ledger.complete = true;
            write_ledger(game, &w.ledger)?;
        }
        // A welcome's password stays in the game folder no longer than it takes to deliver it.
        if w.ledger.complete && super::welcome::is_welcome(&w.file) {
            super::welcome::mask_delivered(game, &w.file)?;
        }
        if failed_here {
            failing_in_a_row += 1;
            if failing_in_a_row >= 3 && summary.stopped.is_none() {
                summary.stopped = Some(
                    "three messages in a row could not be delivered: the server seems down; run pbem send again later".into(),
                );
            }
        } else {
            failing_in_a_row = 0;
        }
    }
    progress(total, total, "");
    Ok(summary)
}

/// Why an outbox file a turn wrote must wait, if it must: the reports and summary of turn t (and
/// the announcement of turn t+1) go only once turn t is resolved, that is once its record exists and
/// lists the file with its digest (`sha`: `outbox::kept_digest` of the file as kept; or, for a
/// record written before issue 39.3, `before()`: the digest of what the message says, made whole).
/// A crash before the record leaves them in the outbox; the rerun may write other bytes under the
/// same names (a late order came in), which must be the ones sent.
fn held_back(
    game: &Game,
    file: &str,
    sha: &str,
    before: impl Fn() -> String,
    records: &mut BTreeMap<u32, Option<crate::game::record::TurnRecord>>,
) -> Option<String> {
    let (number, kind) = file.strip_prefix('t')?.split_once('-')?;
    let n: u32 = number.parse().ok()?;
    let turn = if kind.starts_with("report") || kind.starts_with("summary") {
        n
    } else if kind.starts_with("announcement") && n > game.config.first_turn {
        n - 1
    } else {
        return None;
    };
    let record = records.entry(turn).or_insert_with(|| {
        game.is_resolved(turn)
            .then(|| crate::engine::inputs::load_record(game, turn).ok())
            .flatten()
    });
    let Some(record) = record else {
        return Some(format!(
            "turn {turn} is not resolved ({} is missing or unreadable): it goes once the turn is resolved",
            game.shown(&game.record_path(turn))
        ));
    };
    match record.outputs.get(&format!("mail/outbox/{file}")) {
        Some(d) if d == sha || *d == before() => None,
        Some(_) => Some(format!(
            "its bytes are not those the record of turn {turn} lists: resolve the turn again (pbem resolve --force)"
        )),
        None => Some(format!("the record of turn {turn} does not list it")),
    }
}

/// The ledger status of a recipient whose DATA was about to end: possibly delivered.
pub const SENDING: &str = "sending";

const UNCERTAIN: &str = "possibly delivered: a run was interrupted while the server was taking it; check (the recipient, or the server's log), then `pbem send --confirm-uncertain` if it arrived, or `--resend-uncertain`";

/// Takes back a `sending` mark the server's answer proved wrong (it refused the end of the DATA or
/// never got that far): the recipient is as it was before this run.
fn unmark(
    game: &Game,
    ledger: &mut SentRecord,
    rcpt: &str,
    earlier: Option<&RecipientState>,
) -> Result<()> {
    let marked = ledger
        .recipients
        .iter()
        .any(|r| r.address.eq_ignore_ascii_case(rcpt) && r.status == SENDING);
    if !marked || earlier.is_some_and(|e| e.status == SENDING) {
        return Ok(());
    }
    ledger
        .recipients
        .retain(|r| !r.address.eq_ignore_ascii_case(rcpt));
    if let Some(e) = earlier {
        ledger.recipients.push(e.clone());
    }
    write_ledger(game, ledger)
}

fn record(ledger: &mut SentRecord, rcpt: &str, status: &str, reply: &str, via: &str) {
    ledger
        .recipients
        .retain(|r| !r.address.eq_ignore_ascii_case(rcpt));
    ledger.recipients.push(RecipientState {
        address: rcpt.to_string(),
        status: status.into(),
        reply: parse::one_line(reply, 300),
        via: via.into(),
    });
}

pub fn write_ledger(game: &Game, ledger: &SentRecord) -> Result<()> {
    let text = crate::game::load::to_toml(ledger).context("cannot write the sent ledger")?;
    write_atomic(&ledger_path(game, &ledger.file), text.as_bytes())
}

/// Why a delivery failed.
#[derive(Debug)]
enum Failure {
    /// Worth trying again later: 4xx, a time-out, a connection dropped mid-transaction.
    Transient(String),
    /// This recipient (or this message) is refused for good: 5xx.
    Permanent(String),
    /// Nothing will go until the configuration is fixed: a refused login, a TLS failure.
    Fatal(String),
    /// The end of the DATA went and no answer came: the server may have taken the message.
    Uncertain(String),
}

/// What a transport calls right before the message can no longer be taken back: the ledger's
/// `sending` mark, fsync'd.
type Mark<'a> = dyn FnMut() -> Result<()> + 'a;

#[allow(clippy::too_many_arguments)]
fn deliver_with_retries(
    t: &Transport,
    from: &Mailbox,
    rcpt: &str,
    file: &str,
    bytes: &[u8],
    retries: u32,
    first_delay: Duration,
    mark: &mut Mark<'_>,
) -> std::result::Result<String, Failure> {
    let mut delay = first_delay;
    let mut attempt = 0;
    loop {
        match t.deliver(from, rcpt, file, bytes, mark) {
            Err(Failure::Transient(_)) if attempt < retries => {
                attempt += 1;
                std::thread::sleep(delay);
                delay = (delay * 2).min(Duration::from_secs(60));
            }
            other => return other,
        }
    }
}

/// A configured way to deliver mail.
enum Transport {
    Smtp { t: Box<Smtp>, desc: String },
    Sendmail { t: SendmailTransport, desc: String },
    Folder { dir: PathBuf },
}

/// How the configuration says mail goes, for `--dry-run`.
fn describe_config(game: &Game, folder: Option<&Path>) -> String {
    if let Some(f) = folder {
        return format!("folder {}", f.display());
    }
    let mail = &game.config.mail;
    match mail.transport.as_ref().map(|t| t.get_ref().as_str()) {
        Some("smtp") => mail
            .smtp
            .as_ref()
            .map_or("smtp (not configured)".into(), |s| {
                format!("smtp {}:{} ({})", s.host, s.port(), s.security.get_ref())
            }),
        Some("sendmail") => "sendmail".into(),
        Some("folder") => format!("folder {}", mail.folder.clone().unwrap_or_default()),
        _ => "no transport configured (game.toml [mail] transport)".into(),
    }
}

impl Transport {
    fn from_config(game: &Game, folder: Option<&Path>) -> Result<Transport> {
        // A folder given on the command line is where the referee says (relative to his working
        // folder); game.toml's is relative to the game folder.
        if let Some(f) = folder {
            return Ok(Transport::Folder {
                dir: f.to_path_buf(),
            });
        }
        let mail = &game.config.mail;
        match mail.transport.as_ref().map(|t| t.get_ref().as_str()) {
            Some("smtp") => {
                let Some(s) = &mail.smtp else {
                    bail!("game.toml says transport = \"smtp\" but has no [mail.smtp] table (see MAIL.md)");
                };
                let security = s.security.get_ref().as_str();
                let tls = match (security, &s.ca_file) {
                    ("none", _) => None,
                    (_, Some(file)) => Some(tls_with_ca(game, &s.host, file)?),
                    (_, None) => Some(
                        TlsParameters::new(s.host.clone())
                            .with_context(|| format!("cannot set up TLS for {}", s.host))?,
                    ),
                };
                let credentials = match &s.user {
                    Some(user) => Some(Credentials::new(user.clone(), smtp_password(game, s)?)),
                    None => None,
                };
                Ok(Transport::Smtp {
                    t: Box::new(Smtp {
                        host: s.host.clone(),
                        port: s.port(),
                        implicit_tls: security == "tls",
                        tls,
                        hello: s
                            .hello_name
                            .clone()
                            .map_or_else(ClientId::default, ClientId::Domain),
                        credentials,
                        timeout: Duration::from_secs(s.timeout_seconds.max(1)),
                        conn: std::cell::RefCell::new(None),
                    }),
                    desc: format!("smtp {}:{} ({security})", s.host, s.port()),
                })
            }
            Some("sendmail") => {
                let cmd = mail.sendmail.as_ref().and_then(|s| s.command.clone());
                Ok(Transport::Sendmail {
                    desc: format!("sendmail {}", cmd.as_deref().unwrap_or("sendmail")),
                    t: match cmd {
                        Some(c) => SendmailTransport::new_with_command(c),
                        None => SendmailTransport::new(),
                    },
                })
            }
            Some("folder") => Ok(Transport::Folder {
                dir: game.dir.join(mail.folder.clone().unwrap_or_else(|| "sent-mail".into())),
            }),
            _ => bail!(
                "game.toml has no mail transport: add [mail] transport = \"smtp\" with a [mail.smtp] table (see MAIL.md), or give --folder <dir> for a dry run into a folder"
            ),
        }
    }

    fn describe(&self) -> String {
        match self {
            Transport::Smtp { desc, .. } | Transport::Sendmail { desc, .. } => desc.clone(),
            Transport::Folder { dir } => format!("folder {}", dir.display()),
        }
    }

    /// Delivers `bytes` to `rcpt`, calling `mark` right before the message can no longer be taken
    /// back (SMTP: the end of the DATA; sendmail: the program's run; a folder: the file's write).
    fn deliver(
        &self,
        from: &Mailbox,
        rcpt: &str,
        file: &str,
        bytes: &[u8],
        mark: &mut Mark<'_>,
    ) -> std::result::Result<String, Failure> {
        let to: Address = rcpt
            .parse()
            .map_err(|e| Failure::Permanent(format!("'{rcpt}' is not an address: {e}")))?;
        let envelope = Envelope::new(Some(from.email.clone()), vec![to])
            .map_err(|e| Failure::Permanent(format!("no envelope for {rcpt}: {e}")))?;
        match self {
            Transport::Smtp { t, .. } => {
                // lettre ends DATA with CRLF.CRLF after the bytes: without the file's own last CRLF the
                // server stores exactly the file.
                let payload = bytes.strip_suffix(b"\r\n").unwrap_or(bytes);
                t.send(&envelope, payload, mark)
            }
            Transport::Sendmail { t, .. } => {
                mark().map_err(|e| Failure::Fatal(format!("{e:#}")))?;
                t.send_raw(&envelope, bytes)
                    .map(|_| "accepted by sendmail".to_string())
                    .map_err(|e| Failure::Transient(format!("sendmail failed: {e}")))
            }
            Transport::Folder { dir } => {
                // Marked first: a run killed between the two leaves the pair `sending`, which the
                // rerun settles by looking in the folder (`send`).
                mark().map_err(|e| Failure::Fatal(format!("{e:#}")))?;
                let path = dir.join(folder_name(rcpt)).join(file);
                write_atomic(&path, bytes)
                    .map(|_| format!("written to {}", path.display()))
                    .map_err(|e| Failure::Fatal(format!("{e:#}")))
            }
        }
    }
}

/// Removes the temporary files (`.tmp-*`) a killed delivery into a folder left in its recipients'
/// folders (`<folder>/<recipient>/`, issue 34): a delivery is an atomic write, so such a file is never
/// a message, and under the game lock no delivery of this game is under way. Best effort, and only
/// those two levels: the folder may be anywhere the referee says.
fn remove_killed_deliveries(dir: &Path) {
    let temporary = |e: &std::fs::DirEntry| {
        e.file_type().is_ok_and(|k| k.is_file())
            && e.file_name().to_string_lossy().starts_with(".tmp-")
    };
    let Ok(recipients) = std::fs::read_dir(dir) else {
        return;
    };
    for r in recipients.flatten() {
        if r.file_type().is_ok_and(|k| k.is_dir()) {
            for e in std::fs::read_dir(r.path()).into_iter().flatten().flatten() {
                if temporary(&e) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        } else if temporary(&r) {
            let _ = std::fs::remove_file(r.path());
        }
    }
}

/// An SMTP server, and the connection to it that the run's messages share.
struct Smtp {
    host: String,
    port: u16,
    /// TLS from the first byte (`security = "tls"`); else STARTTLS when `tls` is set.
    implicit_tls: bool,
    tls: Option<TlsParameters>,
    hello: ClientId,
    credentials: Option<Credentials>,
    timeout: Duration,
    conn: std::cell::RefCell<Option<SmtpConnection>>,
}

impl Smtp {
    /// A new connection, encrypted and logged in as lettre's `SmtpTransport` makes it.
    fn connect(&self) -> std::result::Result<SmtpConnection, SmtpError> {
        let wrapper = if self.implicit_tls {
            self.tls.as_ref()
        } else {
            None
        };
        let mut conn = SmtpConnection::connect(
            (self.host.as_str(), self.port),
            Some(self.timeout),
            &self.hello,
            wrapper,
            None,
        )?;
        if let (false, Some(tls)) = (self.implicit_tls, &self.tls) {
            conn.starttls(tls, &self.hello)?;
        }
        if let Some(c) = &self.credentials {
            conn.auth(DEFAULT_MECHANISMS, c)?;
        }
        Ok(conn)
    }

    /// One transaction on the shared connection (made again when it broke). pbem runs it itself,
    /// not through `SmtpTransport::send_raw`, so as to write the `sending` mark between the last byte
    /// of the message and the line that ends the DATA.
    fn send(
        &self,
        envelope: &Envelope,
        payload: &[u8],
        mark: &mut Mark<'_>,
    ) -> std::result::Result<String, Failure> {
        let mut slot = self.conn.borrow_mut();
        if let Some(mut c) = slot.take() {
            if !c.has_broken() && c.test_connected() {
                *slot = Some(c);
            } else {
                c.abort();
            }
        }
        let mut conn = match slot.take() {
            Some(c) => c,
            None => self.connect().map_err(|e| classify(&e))?,
        };
        let result = transaction(&mut conn, envelope, payload, mark);
        if result.is_ok() {
            *slot = Some(conn);
        } else {
            conn.abort();
        }
        result
    }
}

impl Drop for Smtp {
    /// Says QUIT on the connection the run leaves open.
    fn drop(&mut self) {
        if let Some(mut c) = self.conn.get_mut().take() {
            let _ = c.quit();
        }
    }
}

/// MAIL, RCPT, DATA and the message, as lettre's `SmtpConnection::send` does, with `mark` called
/// after the message's last byte and before the `.` line that asks the server to take it.
fn transaction(
    conn: &mut SmtpConnection,
    envelope: &Envelope,
    payload: &[u8],
    mark: &mut Mark<'_>,
) -> std::result::Result<String, Failure> {
    let mut options = Vec::new();
    if !payload.is_ascii() {
        if !conn.server_info().supports_feature(Extension::EightBitMime) {
            return Err(Failure::Permanent(
                "the message is 8-bit and the server does not announce 8BITMIME".into(),
            ));
        }
        options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    let step = |r: std::result::Result<_, SmtpError>| r.map_err(|e| classify(&e));
    step(conn.command(Mail::new(envelope.from().cloned(), options)))?;
    for to in envelope.to() {
        step(conn.command(Rcpt::new(to.clone(), Vec::new())))?;
    }
    step(conn.command(Data))?;
    let mut marked: Option<Result<()>> = None;
    let parts = std::iter::once(payload).chain(std::iter::from_fn(|| {
        marked = Some(mark());
        None
    }));
    let answer = conn.message_iter(parts);
    match (answer, marked) {
        // Taken (if the mark could not be written, writing `delivered` is tried all the same).
        (Ok(r), _) => Ok(format!(
            "{} {}",
            r.code(),
            r.message().collect::<Vec<_>>().join(" ")
        )),
        // The server answered: it did not take the message.
        (Err(e), _) if e.status().is_some() => Err(classify(&e)),
        (Err(e), Some(Ok(()))) => Err(Failure::Uncertain(parse::one_line(&e.to_string(), 300))),
        (Err(e), _) => Err(classify(&e)),
    }
}

/// An address as a folder name: letters, digits and `@._+-` kept, anything else `_`.
fn folder_name(rcpt: &str) -> String {
    let name: String = rcpt
        .to_ascii_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "@._+-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.starts_with('.') {
        format!("_{name}")
    } else {
        name
    }
}

/// Sorts an SMTP error into transient, permanent or fatal. The texts hold the server's reply, never
/// the login's password.
fn classify(e: &lettre::transport::smtp::Error) -> Failure {
    let text = parse::one_line(&e.to_string(), 300);
    if e.is_permanent() {
        let code = e.status().map(|c| c.to_string()).unwrap_or_default();
        if matches!(code.as_str(), "530" | "534" | "535" | "538") {
            return Failure::Fatal(format!("the server refused the login: {text}"));
        }
        return Failure::Permanent(text);
    }
    if e.is_tls() {
        return Failure::Fatal(format!("TLS failed: {text}"));
    }
    if connection_refused(e) {
        return Failure::Fatal(format!(
            "the SMTP server refused the connection (is it running? game.toml [mail.smtp] host and port): {text}"
        ));
    }
    if e.is_client() {
        if text.contains("authentication") {
            return Failure::Fatal(format!("the login cannot be made: {text}"));
        }
        return Failure::Permanent(text);
    }
    Failure::Transient(text)
}

/// TLS that also trusts the certificate authorities of `[mail.smtp] ca_file` (never less checking).
fn tls_with_ca(game: &Game, host: &str, file: &str) -> Result<TlsParameters> {
    use lettre::transport::smtp::client::Certificate;
    let path = game.dir.join(file);
    let pem = std::fs::read(&path).map_err(|e| {
        anyhow::anyhow!(
            "cannot read {} (game.toml [mail.smtp] ca_file): {}",
            path.display(),
            e.kind()
        )
    })?;
    let cert = Certificate::from_pem(&pem).map_err(|e| {
        anyhow::anyhow!(
            "{} (game.toml [mail.smtp] ca_file) is not a PEM certificate: {e}",
            path.display()
        )
    })?;
    let params = TlsParameters::builder(host.to_string())
        .add_root_certificate(cert)
        .build_rustls()
        .with_context(|| format!("cannot set up TLS for {host}"))?;
    Ok(params)
}

/// Whether nothing listens where the server should be: a refused connection (or an unreachable
/// host), which no retry within the run can mend.
fn connection_refused(e: &lettre::transport::smtp::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        if let Some(io) = c.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind::*;
            return matches!(
                io.kind(),
                ConnectionRefused | HostUnreachable | NetworkUnreachable | AddrNotAvailable
            );
        }
        cause = c.source();
    }
    false
}

/// The SMTP password, from the environment variable or the file game.toml names (never from game.toml).
fn smtp_password(game: &Game, s: &crate::game::mail_config::SmtpConfig) -> Result<String> {
    if let Some(var) = &s.password_env {
        return std::env::var(var).map_err(|_| {
            anyhow::anyhow!(
                "the SMTP password: the environment variable {var} (game.toml [mail.smtp] password_env) is not set"
            )
        });
    }
    if let Some(file) = &s.password_file {
        let path = game.dir.join(file);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            anyhow::anyhow!(
                "the SMTP password: cannot read {} (game.toml [mail.smtp] password_file): {}",
                path.display(),
                e.kind()
            )
        })?;
        return Ok(text.lines().next().unwrap_or_default().to_string());
    }
    bail!(
        "[mail.smtp] has a user but no password: set password_env = \"PBEM_SMTP_PASSWORD\" (and export it) or password_file"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipient_folders_are_plain_names() {
        assert_eq!(folder_name("France@Example.org"), "france@example.org");
        assert_eq!(folder_name("../../x@y"), "_.._.._x@y");
        assert_eq!(folder_name("a b/c@d"), "a_b_c@d");
    }
}
