//! `pbem ingest`: a referee's mailbox in, the orders that count out, and an answer to every sender
//! (issue 4). The steps, each a guarantee:
//!
//! 1. **Nothing lost** (4.5): every message read is stored first, byte for byte, in the run's raw
//!    archive `mail/inbox/batch-<sha256>.raw` (mode 0600, synced; `ingest_store`), before anything
//!    parses it. A message already stored is not stored again, one already judged (its record is in
//!    `mail/received/`) is skipped, and so is a copy of a judged message with the same Message-ID and
//!    the same body: ingesting a mailbox twice changes nothing. The mailbox itself is opened
//!    read-only.
//! 2. **Order of arrival** (4.1): the referee's own `Received` header, else the Maildir file's
//!    delivery time, else the mbox postmark and mbox order; never the sender's `Date`.
//! 3. **Finding the orders** (4.2): `mail::extract`.
//! 4. **Authentication** (4.3): the orders' header must name this game, a power, its password
//!    (argon2id, `auth.rs`) and the turn; and the sender must be one of the power's `players`, unless
//!    game.toml says `[mail] any_sender = true`. The From header alone proves nothing (a forged From
//!    without the password is rejected), and a sender the strict reading of `mail::parse` cannot tell
//!    is nobody's.
//!
//!    A power's addresses are its players' (a replacement's, else game.toml's) and, while another
//!    power runs it (EiA 19.2, `pbem drop`), the controller's: [`registered`] asks `engine::players`.
//!
//!    A power with several players (`[[power.player]]`, `engine::command`) takes each submission as
//!    one player's: his `player` line, his own password, from his own address only; the last
//!    submission of each player counts (`Received::slot`), filed as `orders/<t>/<power>.<player>.txt`,
//!    and the ruleset's check refuses a line for a unit outside his scope.
//! 5. **Which submission counts** (4.4): the last one received before the deadline
//!    (`GameConfig::deadline_of`) replaces earlier ones, and every one is kept. A late one is rejected,
//!    or with `late_orders = "hold"` kept for the next turn, where it counts like a submission
//!    received then (its `turn` line is read as the next turn's).
//! 6. **An answer to every submission** (4.6), in the outbox, to the power's registered addresses
//!    only, dated with the arrival time: `mail::ack`; the answers of a run are one batch of the
//!    outbox (`mail::outbox_store`), which `pbem send` delivers message by message.
//! 7. **In bounded memory** (issue 34.6): one message is held at a time. What each gave goes to a
//!    temporary spill file as it is judged ([`Spill`]); once all are judged, the answers, the run's
//!    records and the summary's entries ([`Judged`]) are written and read back one by one. Of the
//!    earlier runs' records a rerun keeps only their digests, Message-IDs and the orders that stand
//!    ([`Earlier`]).
//! 8. **Bad mail never stops an ingest** (4.7): each message is judged on its own, inside
//!    `catch_unwind`; whatever goes wrong is its reason in the summary.
//! 9. **A wrong password is never quoted back, logged or stored** (4.9): reasons are diagnostic
//!    messages, which never quote a password, and the ack renders lines with passwords as stars. The
//!    orders are filed without the password ([`filed_text`]: a `submission` line names the message,
//!    and the turn trusts its record, [`stands_for`]). (The raw archive is the message as received,
//!    like the mailbox it came from; each is mode 0600 in a folder of mode 0700.)

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::extract::{self, Extracted, Found};
use super::ingest_store::{ArchiveWriter, RawStore};
use super::mailbox::{self, Basis, RawMessage};
use super::parse::{self, Sender};
use crate::diag::{LineMap, Source};
use crate::game::config::PowerConfig;
use crate::game::fsio::{sync_dir, write_atomic, GameLock};
use crate::game::record::sha256_hex;
use crate::game::state::State;
use crate::game::Game;
use crate::rules::OrdersCheck;

/// The format line of a received-message record.
pub const RECEIVED_FORMAT: &str = "pbem-received/v1";

/// What pbem made of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Orders that stand for `for_turn`, unless a later submission replaces them.
    Accepted,
    /// Late orders kept for `for_turn`, the next turn (`late_orders = "hold"`).
    Held,
    /// Authenticated orders that arrived after the deadline, rejected (`late_orders = "reject"`).
    Late,
    /// A submission that does not stand: see its reasons.
    Rejected,
    /// A copy of a message already judged (same Message-ID, same body).
    Duplicate,
    /// Not a submission: no orders from a player, an automatic message, not mail at all.
    Ignored,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Accepted => "accepted",
            Status::Held => "held",
            Status::Late => "late",
            Status::Rejected => "rejected",
            Status::Duplicate => "duplicate",
            Status::Ignored => "ignored",
        }
    }
}

/// What pbem made of one stored message: an entry of its run's `mail/received/batch-<sha256>.toml`,
/// and for a submission filed as orders also `mail/received/<sha256>.toml` (`ingest_store`). It
/// holds no password and nothing from the orders but their digest; the orders are read again from
/// the stored message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Received {
    pub format: String,
    /// SHA-256 of the raw message: its name in `mail/inbox/` (`ingest_store::RawStore`).
    pub sha256: String,
    pub size: u64,
    /// The Message-ID, without angle brackets; empty when it has none.
    pub message_id: String,
    /// SHA-256 of the body (the bytes after the header block, its line ends made LF and its trailing
    /// line ends left out: [`body_digest`]), to tell copies of a message apart from another message
    /// that reuses its Message-ID.
    pub body_sha256: String,
    /// The sender's address when the message has exactly one (`mail::parse::Sender`), else empty.
    pub from: String,
    pub subject: String,
    /// The arrival time, RFC 3339 in UTC, and how it was known.
    pub arrival: String,
    pub arrival_from: String,
    /// Where the message was first read.
    pub source: String,
    /// Its rank among the messages of the ingest that read it, by arrival: breaks ties of `arrival`.
    pub seq: u64,
    /// The turn the game was at when it was judged.
    pub judged_at_turn: u32,
    pub status: Status,
    /// The power the submission is for (authenticated, or as its `power` line names it); may be empty.
    pub power: String,
    /// The player of that power the submission is from, for a power with several
    /// (`[[power.player]]`); empty otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub player: String,
    /// The turn the orders stand for (accepted and held submissions), else 0.
    pub for_turn: u32,
    #[serde(default)]
    pub reasons: Vec<String>,
    /// Where in the message the orders were found ("the body", "the attachment 'x.txt'").
    pub origin: String,
    /// The line of the message as its sender sees it (the body, or the attachment) that each line
    /// of the orders is (`mail::extract::Found::lines`): his answer, his report and every later
    /// answer name these. Absent when every line is its own, as in the records of a pbem before
    /// it, whose answers and reports named the lines of the orders as filed.
    #[serde(default, skip_serializing_if = "LineMap::is_identity")]
    pub lines: LineMap,
    /// SHA-256 of the orders as they are filed in `orders/<t>/<power>.txt`.
    pub orders_sha256: String,
    /// The acknowledgement's file in the outbox, if one was written.
    pub ack: String,
    /// For a duplicate: the message it copies.
    pub duplicate_of: String,
}

impl Received {
    pub fn arrival_time(&self) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(&self.arrival)
            .map(|d| d.with_timezone(&Utc))
            .unwrap_or(DateTime::UNIX_EPOCH)
    }

    /// Whose orders file the submission is for: `france`, or `france.ney` for a player of a power
    /// with several (`engine::command::file_stem`).
    pub fn slot(&self) -> String {
        let player = Some(self.player.as_str()).filter(|p| !p.is_empty());
        crate::engine::command::file_stem(&self.power, player)
    }

    /// The order in which submissions were received.
    fn rank(&self) -> (DateTime<Utc>, u64, &str) {
        (self.arrival_time(), self.seq, &self.sha256)
    }
}

/// One message of an ingest, as the summary lists it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub record: Received,
    /// The file in the outbox that holds the acknowledgement (its name is the record's `ack`): the
    /// run's batch (`outbox_store`), or a file of its own.
    pub ack: Option<PathBuf>,
}

/// The submission that counts for a power (for one player of a power with several).
#[derive(Debug, Clone)]
pub struct Standing {
    /// `france`, or `france.ney` for a player of a power with several (`Received::slot`).
    pub power: String,
    pub record: Received,
    /// The orders file written (or found already up to date).
    pub path: PathBuf,
    /// Whether this ingest changed the file.
    pub changed: bool,
}

/// What an ingest did.
#[derive(Debug, Default)]
pub struct IngestSummary {
    pub game: String,
    pub turn: u32,
    /// Messages read from the mailboxes.
    pub read: usize,
    /// Messages read that were stored and judged before (same bytes): skipped.
    pub already: usize,
    /// The messages judged now, in order of arrival (on disk: [`Judged`]).
    pub new: Judged,
    /// Mailbox files that could not be read, and why.
    pub problems: Vec<String>,
    /// The submission that counts for each power with one, for the current turn (game.toml order).
    pub standing: Vec<Standing>,
}

impl IngestSummary {
    pub fn count(&self, status: Status) -> usize {
        self.new.count(status)
    }
}

/// Folders of the game's mail.
pub use super::ingest_store::{inbox_dir, received_dir};

/// How the refusal of a message that came after `pbem end` begins (`referee::reopen` finds them).
pub const OVER: &str = "the game is over";

/// `mail/inbox/<sha256>.eml`: a message stored alone (over the size limit, or by an older pbem).
pub fn raw_path(game: &Game, sha: &str) -> PathBuf {
    inbox_dir(game).join(format!("{sha}.eml"))
}

/// `mail/received/<sha256>.toml`: a message's own record, which stands over its run's (the record
/// the turn reads for a filed submission, `stands_for`).
pub fn record_path(game: &Game, sha: &str) -> PathBuf {
    received_dir(game).join(format!("{sha}.toml"))
}

/// Reads the mail under `paths` into the game: see the module doc. Takes the game lock.
pub fn ingest(game: &Game, paths: &[PathBuf]) -> Result<IngestSummary> {
    ingest_with_progress(game, paths, &mut |_, _| {})
}

/// As [`ingest`], calling `progress(done, total)` as messages are judged.
pub fn ingest_with_progress(
    game: &Game,
    paths: &[PathBuf],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<IngestSummary> {
    let max = game.config.mail.max_message_bytes;
    ingest_from(
        game,
        &mut |each, problem| mailbox::read_all(paths, max, each, problem),
        progress,
    )
}

/// As [`ingest_with_progress`], for messages already read (`pbem fetch`: from the archive, with the
/// IMAP server's delivery time).
pub fn ingest_messages(
    game: &Game,
    mut messages: Vec<RawMessage>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<IngestSummary> {
    ingest_from(
        game,
        &mut |each, _| messages.drain(..).try_for_each(&mut *each),
        progress,
    )
}

/// Stores raw messages in `mail/inbox/` (mode 0600: one archive for those not stored yet, a file
/// of its own for one over the size limit), all made durable before it returns; their SHA-256, in
/// order. The store of [`ingest`], for `pbem fetch`, which must know a message is safe before it
/// marks it read on the server.
pub fn store_all(game: &Game, messages: &[Vec<u8>]) -> Result<Vec<String>> {
    private_inbox(game)?;
    let mut store = RawStore::open(game)?;
    let mut archive = ArchiveWriter::new(game);
    let mut batch = Batch::default();
    let mut shas = Vec::with_capacity(messages.len());
    for bytes in messages {
        let sha = sha256_hex(bytes);
        if !store.holds(&sha, bytes.len() as u64) && !archive.holds(&sha) {
            if bytes.len() as u64 > game.config.mail.max_message_bytes {
                batch.write(&raw_path(game, &sha), bytes, Some(0o600))?;
            } else {
                archive.add(&sha, bytes)?;
            }
        }
        shas.push(sha);
    }
    batch.sync()?;
    archive.finish(&mut store)?;
    Ok(shas)
}

/// A source of messages: hands each to its first argument, each unreadable one to its second.
type Reader<'a> =
    dyn FnMut(&mut dyn FnMut(RawMessage) -> Result<()>, &mut dyn FnMut(String)) -> Result<()> + 'a;

fn ingest_from(
    game: &Game,
    read: &mut Reader<'_>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<IngestSummary> {
    let _lock = GameLock::acquire(&game.dir)?;
    // A power's password is checked with argon2 once per run, not once per message.
    // And at most `auth::MAX_FAILED_PER_SENDER` wrong ones per sender: a flood is recorded as such.
    let verified = crate::auth::VerifyCache::start();
    let turn = game.current_turn()?;
    let state = game.load_state(turn)?;
    private_inbox(game)?;
    let mut store = RawStore::open(game)?;
    // What earlier runs judged, read record by record: of each, only what this run asks.
    let Earlier {
        judged: judged_before,
        mut ids,
        standing,
    } = Earlier::load(game)?;
    let mut summary = IngestSummary {
        game: game.config.game.clone(),
        turn,
        ..IngestSummary::default()
    };

    // 1. Store every message first.
    let mut pending: Vec<Pending> = Vec::new();
    let mut this_run: BTreeSet<Digest> = BTreeSet::new();
    let mut problems = Vec::new();
    let mut batch = Batch::default();
    let mut archive = ArchiveWriter::new(game);
    read(
        &mut |raw| {
            summary.read += 1;
            let p = store_message(game, raw, &store, &mut archive)?;
            let key = digest(&p.sha);
            if judged_before.contains(&key) || !this_run.insert(key) {
                summary.already += 1;
            } else {
                pending.push(p);
            }
            Ok(())
        },
        &mut |p| problems.push(p),
    )?;
    drop((this_run, judged_before));
    summary.problems = problems;
    // Stored for good before anything parses them.
    archive.finish(&mut store)?;

    // 2. Order of arrival.
    for (i, p) in pending.iter_mut().enumerate() {
        p.read_rank = i as u64;
        // Of a message too large to read, its header block: its Received headers.
        let bytes = if p.oversize.is_some() {
            store.read_head(game, &p.sha).unwrap_or_default()
        } else {
            store.read(&p.sha).unwrap_or_default()
        };
        p.arrival = arrival(
            &parse::stamps(&bytes),
            p.delivered,
            &game.config.mail.received_by,
        );
    }
    pending.sort_by_key(|p| (p.arrival.0, p.read_rank));

    // 3. Judge each message on its own, in order of arrival. What each gave goes to the run's spill
    //    file as it is made (issue 34: memory bounded by the largest message, not their count);
    //    only the submissions that stand, and the lines of the answers that sum others up, stay.
    let stands = |r: &Received| matches!(r.status, Status::Accepted | Status::Held);
    let mut all: Vec<Received> = standing.into_values().collect();
    let mut spill: Spill<(Received, Option<AckData>)> = Spill::new(game)?;
    let mut summed = Summed::default();
    let total = pending.len();
    // The ruleset's checker of this state, made once for every message (an EiA one indexes the
    // units).
    let checker = game.ruleset.checker(game, &state);
    // `pbem end`: every message is answered that the game is over.
    let ended = game.ended()?;
    for (i, p) in pending.iter().enumerate() {
        progress(i, total);
        let seq = i as u64;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let at = JudgedAt {
                turn,
                seq,
                ended: ended.as_ref(),
            };
            judge(game, &store, &state, &*checker, p, &at, &ids, &verified)
        }));
        let (mut record, mut ack) = match outcome {
            Ok(Ok(x)) => x,
            Ok(Err(e)) => (
                bare_record(p, seq, turn, Status::Ignored, vec![format!("pbem could not judge it: {e:#}")]),
                None,
            ),
            Err(_) => (
                bare_record(p, seq, turn, Status::Ignored, vec!["pbem failed on this message (an internal error: please report it with the stored message)".into()]),
                None,
            ),
        };
        ids.add(&record);
        summed.add(&mut record, &mut ack);
        if stands(&record) {
            all.push(record.clone());
        }
        spill.push(&(record, ack))?;
    }
    progress(total, total);
    drop((pending, ids));

    // 4. Which submission counts, now that every record is known.
    // Only the submissions that stand (accepted or held) count for any of the three: a flood of
    // other mail is not copied.
    let winners = winners(&all, turn);
    let later = Later::new(&all);
    let sequences = Sequences::new(&all);
    let winning: BTreeSet<String> = winners.values().map(|w| w.sha256.clone()).collect();

    // 5. Answers first, then the records, then the orders files: a crash anywhere leaves a state
    //    that a rerun completes with the same bytes. The answers of the run go into one batch of
    //    the outbox (`outbox_store`); one whose name the outbox already holds with other bytes (a
    //    rerun after a crash, with more mail) goes into a file of its own, which stands over it.
    //    The batch, the run's records and the summary's entries are written as each message's
    //    answer is made, never held whole.
    let outbox_dir = super::outbox::dir(game);
    let in_outbox = super::outbox_store::messages(&outbox_dir)?;
    let mut answers = super::outbox_store::BatchWriter::new(&outbox_dir);
    let mut answer_names: Vec<String> = Vec::new();
    let mut records = super::ingest_store::RecordsWriter::new(game);
    let mut judged = Judged::default();
    // This run's record of each winner as written (with its answer's name).
    let mut winners_now: BTreeMap<String, Received> = BTreeMap::new();
    // The template compiled once for the run (a template that does not parse is each answer's
    // reason, as before).
    let made_once = super::ack::Answers::new(game);
    for item in spill.read()? {
        let (mut record, ack) = item?;
        let mut written = AckAt::None;
        if let Some(mut data) = ack {
            data.others = summed.take(record.seq);
            let replaced_by = later.of(&record);
            // The receipt's sequence number: this submission's rank among the power's accepted
            // (or held) submissions for the same turn, by arrival.
            let sequence = sequences.of(&record);
            let made = made_once
                .as_ref()
                .map_err(|e| anyhow::anyhow!("{e:#}"))
                .and_then(|answers| {
                    super::ack::acknowledgement(
                        game,
                        answers,
                        turn,
                        &record,
                        &data,
                        replaced_by.as_ref(),
                        sequence,
                    )
                });
            match made {
                Ok(out) => {
                    let name = out.file_name();
                    let bytes = out.render(game);
                    match bytes {
                        Ok(bytes) => {
                            match in_outbox.get(&name) {
                                None if super::outbox_store::is_message_name(&name) => {
                                    answers.add(&name, &bytes)?;
                                    answer_names.push(name.clone());
                                    written = AckAt::Batch;
                                }
                                found => {
                                    if found
                                        .is_none_or(|m| m.read().map_or(true, |old| old != bytes))
                                    {
                                        super::outbox::note_written(
                                            game,
                                            std::slice::from_ref(&name),
                                        )?;
                                        batch.write(&outbox_dir.join(&name), &bytes, None)?;
                                        written = AckAt::File(outbox_dir.join(&name));
                                    } else if let Some(m) = found {
                                        written = AckAt::File(m.at.file.clone());
                                    }
                                }
                            }
                            record.ack = name;
                        }
                        Err(e) => record
                            .reasons
                            .push(format!("no acknowledgement could be written: {e:#}")),
                    }
                }
                Err(e) => record
                    .reasons
                    .push(format!("no acknowledgement could be written: {e:#}")),
            }
        }
        // The run's records in one file; each submission that counts also in a file of its own,
        // the record the turn reads for its filed orders (`stands_for`).
        records.add(&record)?;
        if winning.contains(&record.sha256) {
            winners_now.insert(record.sha256.clone(), record.clone());
        }
        judged.push(&record, written);
    }
    if let Some((tmp, name)) = answers.finish()? {
        super::outbox::note_written(game, &answer_names)?;
        let path = outbox_dir.join(name);
        batch.adopt(tmp, &path)?;
        judged.batch = Some(path);
    }
    drop(answer_names);
    if let Some((tmp, path)) = records.finish()? {
        batch.adopt(tmp, &path)?;
        judged.records = Some(path);
    }
    // Each winner as recorded now (this run's record of it, with its answer's name).
    let winners: BTreeMap<String, Received> = winners
        .into_iter()
        .map(|(slot, w)| {
            let current = winners_now.remove(&w.sha256).unwrap_or(w);
            (slot, current)
        })
        .collect();
    for w in winners.values() {
        let text =
            crate::game::load::to_toml(w).context("cannot write a received-message record")?;
        let path = record_path(game, &w.sha256);
        if std::fs::read(&path).map_or(true, |old| old != text.as_bytes()) {
            batch.write(&path, text.as_bytes(), None)?;
        }
    }
    batch.sync()?;
    summary.standing = file_orders(game, &store, turn, &winners)?;
    summary.new = judged;
    Ok(summary)
}

/// A message's digest (its SHA-256 in hex, or any other text hashed) as 32 bytes: what an ingest
/// keeps of each message it has seen.
type Digest = [u8; 32];

fn digest(hex_or_text: &str) -> Digest {
    let mut out = [0u8; 32];
    if hex::decode_to_slice(hex_or_text, &mut out).is_err() {
        use sha2::Digest as _;
        out = sha2::Sha256::digest(hex_or_text.as_bytes()).into();
    }
    out
}

/// What an ingest asks of the messages earlier runs judged, read record by record
/// (`ingest_store::each_record`): which were judged, their Message-IDs, and the submissions that
/// stand (issue 34: every record was held whole, 1 KB each).
struct Earlier {
    judged: BTreeSet<Digest>,
    ids: MessageIds,
    /// The accepted and held submissions, by SHA-256.
    standing: BTreeMap<String, Received>,
}

impl Earlier {
    fn load(game: &Game) -> Result<Earlier> {
        let mut out = Earlier {
            judged: BTreeSet::new(),
            ids: MessageIds::default(),
            standing: BTreeMap::new(),
        };
        // A record handed later stands over an earlier one of the same message.
        super::ingest_store::each_record(game, &mut |r: Received| {
            out.judged.insert(digest(&r.sha256));
            out.ids.add(&r);
            if matches!(r.status, Status::Accepted | Status::Held) {
                out.standing.insert(r.sha256.clone(), r);
            } else {
                out.standing.remove(&r.sha256);
            }
            Ok(())
        })?;
        Ok(out)
    }
}

/// The Message-IDs of the messages judged, each with the digests of the body and of each message
/// judged under it: a copy (same Message-ID, same body) is a duplicate.
#[derive(Default)]
struct MessageIds(BTreeMap<String, Vec<(Digest, Digest)>>);

impl MessageIds {
    fn add(&mut self, r: &Received) {
        if r.message_id.is_empty() {
            return;
        }
        let pair = (digest(&r.body_sha256), digest(&r.sha256));
        let under = self.0.entry(r.message_id.clone()).or_default();
        if !under.contains(&pair) {
            under.push(pair);
        }
    }

    /// The messages judged under `message_id`: none when there is none; the one `body_sha256`
    /// copies, if one does.
    fn copy_of(&self, message_id: &str, body_sha256: &str) -> Option<Option<String>> {
        let under = self.0.get(message_id)?;
        let body = digest(body_sha256);
        Some(
            under
                .iter()
                .find(|(b, _)| *b == body)
                .map(|(_, sha)| hex::encode(sha)),
        )
    }
}

/// The digest of a message's body by which a copy of it is known ([`MessageIds::copy_of`]): the
/// SHA-256 of its bytes with every CRLF made LF and its trailing line ends left out. The same message
/// read from an IMAP server or a saved `.eml` (CRLF) and from an mbox or a Maildir (LF, the mbox's
/// separating blank line after it) is one message: judged once, answered once.
fn body_digest(body: &[u8]) -> String {
    let mut lf = Vec::with_capacity(body.len());
    let mut bytes = body.iter().peekable();
    while let Some(&b) = bytes.next() {
        if !(b == b'\r' && bytes.peek() == Some(&&b'\n')) {
            lf.push(b);
        }
    }
    while lf.last() == Some(&b'\n') {
        lf.pop();
    }
    sha256_hex(&lf)
}

/// At most one answer per address and run for what was rejected (issue 34: a mailbox of 300 forged
/// messages sent France 300 answers, and a responder answering each answer makes a loop): of the
/// run's rejected messages whose answers go to the same addresses, the first (by arrival) is
/// answered, with a line for each of the others (at most [`Summed::MAX_LINES`], then their
/// count), which are recorded as answered by it. Orders that stand, held or late are each answered
/// on their own: their answer is their receipt.
///
/// A message of a flood (its password not checked, [`FLOOD`]) never has an answer of its own, but is
/// one of these lines when an answer to its power's addresses is written: a player whose address a
/// flood forged learns that messages in his name went unread, and to send his orders again if he
/// sent any then (his own, after the flood, were neither read nor answered, and he never knew).
#[derive(Default)]
struct Summed {
    /// The first rejected message answered for each set of addresses: its `seq` and its name.
    leads: BTreeMap<Vec<String>, (u64, String)>,
    /// The lines of the others, and how many more there were, by the `seq` of their lead.
    lines: BTreeMap<u64, Others>,
}

/// The other messages an answer sums up ([`Summed`]).
#[derive(Default)]
struct Others {
    lines: Vec<String>,
    /// How many more there were than lines.
    more: usize,
    /// How many of them were not read, a flood's ([`FLOOD`]).
    unread: usize,
}

/// How the reason of a message of a flood begins: its password was not checked.
const FLOOD: &str = "flood: ";

impl Summed {
    /// The most messages an answer lists one by one.
    const MAX_LINES: usize = 100;

    /// Takes the message judged next, in order of arrival: the first rejected one for its addresses
    /// keeps its answer; a later one loses its own, and is a line of the first's.
    fn add(&mut self, record: &mut Received, ack: &mut Option<AckData>) {
        let Some(data) = ack.as_ref() else { return };
        if record.status != Status::Rejected {
            return;
        }
        let flood = record.reasons.first().is_some_and(|r| r.starts_with(FLOOD));
        let mut to: Vec<String> = data.to.iter().map(|a| normalise(a)).collect();
        to.sort();
        to.dedup();
        let Some((lead, lead_id)) = self.leads.get(&to) else {
            if flood {
                // Never an answer of its own.
                *ack = None;
            } else {
                self.leads.insert(to, (record.seq, named(record)));
            }
            return;
        };
        let others = self.lines.entry(*lead).or_default();
        others.unread += usize::from(flood);
        if others.lines.len() < Self::MAX_LINES {
            let why = record.reasons.first().cloned().unwrap_or_default();
            others.lines.push(format!(
                "{}, from {}: {why}",
                named(record),
                shown_from(&record.from)
            ));
        } else {
            others.more += 1;
        }
        *ack = None;
        record.reasons.push(format!(
            "not answered on its own: the answer to {lead_id} sums up every message of this run rejected for the same addresses"
        ));
    }

    /// The lines of the answer of the message `seq`.
    fn take(&mut self, seq: u64) -> Vec<String> {
        let Some(Others {
            mut lines,
            more,
            unread,
        }) = self.lines.remove(&seq)
        else {
            return Vec::new();
        };
        if more > 0 {
            lines.push(format!(
                "{more} more messages for the same addresses, not listed one by one (the referee's ingest lists each)"
            ));
        }
        if unread > 0 {
            lines.push(format!(
                "{unread} of these messages were not read at all (a flood of wrong passwords, perhaps sent in your name): if you sent orders in this time, they were not read; send them again"
            ));
        }
        lines
    }
}

/// How an answer names a message: its Message-ID, else the start of its digest.
fn named(record: &Received) -> String {
    if record.message_id.is_empty() {
        format!("message {}", &record.sha256[..record.sha256.len().min(12)])
    } else {
        format!("<{}>", record.message_id)
    }
}

/// Values of one ingest run kept on disk, a JSON line each, in an anonymous temporary file of the
/// game's `mail/` folder (gone when the run ends, even killed; mode 0600): a run holds one
/// message's at a time (issue 34).
struct Spill<T> {
    file: std::io::BufWriter<std::fs::File>,
    _of: std::marker::PhantomData<T>,
}

impl<T: Serialize + serde::de::DeserializeOwned> Spill<T> {
    fn new(game: &Game) -> Result<Spill<T>> {
        let dir = game.dir.join("mail");
        let file = tempfile::tempfile_in(&dir)
            .with_context(|| format!("cannot create a temporary file in {}", game.shown(&dir)))?;
        Ok(Spill {
            file: std::io::BufWriter::new(file),
            _of: std::marker::PhantomData,
        })
    }

    fn push(&mut self, value: &T) -> Result<()> {
        serde_json::to_writer(&mut self.file, value)?;
        self.file.write_all(b"\n")?;
        Ok(())
    }

    /// Every value pushed, in order.
    fn read(self) -> Result<impl Iterator<Item = Result<T>>> {
        let file = self.file.into_inner().map_err(|e| e.into_error())?;
        read_lines(file)
    }
}

/// The values of a spill file, from its start.
fn read_lines<T: serde::de::DeserializeOwned>(
    mut file: std::fs::File,
) -> Result<impl Iterator<Item = Result<T>>> {
    use std::io::{BufRead, Seek};
    file.seek(std::io::SeekFrom::Start(0))?;
    Ok(std::io::BufReader::new(file).lines().map(|line| {
        let line = line?;
        serde_json::from_str(&line).context("a spilled value of this run does not read back")
    }))
}

/// Where a message's answer is: nowhere, in the run's batch of the outbox, or in a file.
#[derive(Debug, Clone)]
enum AckAt {
    None,
    Batch,
    File(PathBuf),
}

/// The messages an ingest judged, in order of arrival: read back from the run's records file
/// (`mail/received/batch-<sha256>.toml`) rather than held in memory (issue 34), with where each
/// one's answer is. Read them with [`Judged::each`], or [`Judged::all`] for a few.
#[derive(Default)]
pub struct Judged {
    /// The run's records file.
    records: Option<PathBuf>,
    len: usize,
    counts: BTreeMap<Status, usize>,
    /// The messages answered in the run's batch of the outbox, by rank.
    in_batch: BTreeSet<usize>,
    /// The messages answered in a file of their own, by rank.
    in_file: BTreeMap<usize, PathBuf>,
    /// The run's batch of answers in the outbox.
    batch: Option<PathBuf>,
}

impl std::fmt::Debug for Judged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Judged")
            .field("len", &self.len)
            .field("counts", &self.counts)
            .finish()
    }
}

impl Judged {
    fn push(&mut self, record: &Received, ack: AckAt) {
        *self.counts.entry(record.status).or_default() += 1;
        match ack {
            AckAt::None => {}
            AckAt::Batch => {
                self.in_batch.insert(self.len);
            }
            AckAt::File(path) => {
                self.in_file.insert(self.len, path);
            }
        }
        self.len += 1;
    }

    /// How many messages were judged.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many were judged `status`.
    pub fn count(&self, status: Status) -> usize {
        self.counts.get(&status).copied().unwrap_or(0)
    }

    /// Hands each message judged to `each`, in order of arrival.
    pub fn each(&self, each: &mut dyn FnMut(Entry) -> Result<()>) -> Result<()> {
        let Some(path) = &self.records else {
            return Ok(());
        };
        let mut rank = 0;
        super::ingest_store::each_record_of(
            path,
            &path.display().to_string(),
            &mut |record: Received| {
                let ack = if self.in_batch.contains(&rank) {
                    self.batch.clone()
                } else {
                    self.in_file.get(&rank).cloned()
                };
                rank += 1;
                each(Entry { record, ack })
            },
        )
    }

    /// Every message judged, in memory: for a few.
    pub fn all(&self) -> Result<Vec<Entry>> {
        let mut out = Vec::with_capacity(self.len);
        self.each(&mut |e| {
            out.push(e);
            Ok(())
        })?;
        Ok(out)
    }
}

/// Writes `orders/<turn>/<power>.txt` for every power whose submission counts, from the stored
/// messages, all synced together; no lock taken (the caller holds it), and the winners' records
/// already in place.
fn file_orders(
    game: &Game,
    store: &RawStore,
    turn: u32,
    winners: &BTreeMap<String, Received>,
) -> Result<Vec<Standing>> {
    let mut out = Vec::new();
    let mut batch = Batch::default();
    for (p, player) in game.config.powers.iter().flat_map(|p| {
        crate::engine::command::slots(p)
            .into_iter()
            .map(move |s| (p, s))
    }) {
        let stem = crate::engine::command::file_stem(&p.id, player.as_deref());
        let Some(w) = winners.get(&stem) else {
            continue;
        };
        let raw = store.read(&w.sha256).with_context(|| {
            format!(
                "the stored message {} is missing: the orders of {} cannot be filed",
                store.shown(game, &w.sha256),
                p.id
            )
        })?;
        let found = parse::parse(&raw)
            .map(|m| extract::extract(&m, game.config.mail.max_text_bytes))
            .and_then(|e| match e {
                Extracted::Orders(f) => Some(f),
                _ => None,
            })
            .with_context(|| {
                format!(
                    "the orders of {} cannot be read again from {}",
                    p.id, w.sha256
                )
            })?;
        let text = filed_text(&found.text, turn, &w.sha256);
        let path = game.player_orders_path(turn, &p.id, player.as_deref());
        let changed = std::fs::read(&path).map_or(true, |old| old != text.as_bytes());
        if changed {
            batch.write(&path, text.as_bytes(), None)?;
        }
        out.push(Standing {
            power: stem,
            record: w.clone(),
            path,
            changed,
        });
    }
    batch.sync()?;
    Ok(out)
}

/// Files the held orders of the current turn (a turn just opened): `ingest` with no mailbox.
pub fn apply_held(game: &Game) -> Result<IngestSummary> {
    ingest(game, &[])
}

/// The submission that counts for each power for `turn` (each player's, for a power with several,
/// keyed by `Received::slot`): the last received, accepted or held.
pub fn winners(records: &[Received], turn: u32) -> BTreeMap<String, Received> {
    let mut out: BTreeMap<String, Received> = BTreeMap::new();
    for r in records {
        if !matches!(r.status, Status::Accepted | Status::Held)
            || r.for_turn != turn
            || r.power.is_empty()
        {
            continue;
        }
        let slot = r.slot();
        match out.get(&slot) {
            Some(w) if w.rank() >= r.rank() => {}
            _ => {
                out.insert(slot, r.clone());
            }
        }
    }
    out
}

/// The arrival of the latest submission that replaces a record, for every record: the submissions
/// that count (accepted or held) of each power and turn, by rank, with the latest arrival from each
/// one on, so that an ingest of n messages asks n binary searches, not n scans of every record.
struct Later<'a> {
    /// (ranks in order, the greatest arrival from each rank on) by slot (`Received::slot`) and turn.
    groups: BTreeMap<(String, u32), RankedGroup<'a>>,
}

type RankedGroup<'a> = (Vec<Rank<'a>>, Vec<&'a str>);

type Rank<'a> = (DateTime<Utc>, u64, &'a str);

impl<'a> Later<'a> {
    fn new(all: &'a [Received]) -> Later<'a> {
        let mut ranked: BTreeMap<(String, u32), Vec<(Rank<'a>, &'a str)>> = BTreeMap::new();
        for r in all {
            if matches!(r.status, Status::Accepted | Status::Held) {
                ranked
                    .entry((r.slot(), r.for_turn))
                    .or_default()
                    .push((r.rank(), r.arrival.as_str()));
            }
        }
        let groups = ranked
            .into_iter()
            .map(|(key, mut list)| {
                list.sort();
                let mut latest: Vec<&str> = Vec::with_capacity(list.len());
                for (_, arrival) in list.iter().rev() {
                    let max = latest.last().map_or(*arrival, |m| (*m).max(*arrival));
                    latest.push(max);
                }
                latest.reverse();
                (
                    key,
                    (list.into_iter().map(|(rank, _)| rank).collect(), latest),
                )
            })
            .collect();
        Later { groups }
    }

    /// The arrival of the latest submission of `record`'s power for its turn received after it, if
    /// `record` is an accepted or held one and there is one (of two late submissions held for the
    /// next turn, the answer to the first says that the second replaces it).
    fn of(&self, record: &Received) -> Option<String> {
        if !matches!(record.status, Status::Accepted | Status::Held) {
            return None;
        }
        let (ranks, latest) = self.groups.get(&(record.slot(), record.for_turn))?;
        let rank = record.rank();
        let first_later = ranks.partition_point(|r| *r <= rank);
        latest.get(first_later).map(|a| (*a).to_string())
    }
}

/// The receipt's sequence number of every record: its rank among the accepted (or held)
/// submissions of its power and player for the same turn, by arrival, answered by binary search
/// (a count over every record for each message made an ingest quadratic).
struct Sequences<'a> {
    /// The ranks of the accepted and held submissions, in order, by power, player and turn.
    groups: BTreeMap<(&'a str, &'a str, u32), Vec<Rank<'a>>>,
}

impl<'a> Sequences<'a> {
    fn new(all: &'a [Received]) -> Sequences<'a> {
        let mut groups: BTreeMap<(&str, &str, u32), Vec<Rank<'a>>> = BTreeMap::new();
        for r in all {
            if matches!(r.status, Status::Accepted | Status::Held) {
                groups
                    .entry((&r.power, &r.player, r.for_turn))
                    .or_default()
                    .push(r.rank());
            }
        }
        groups.values_mut().for_each(|ranks| ranks.sort());
        Sequences { groups }
    }

    /// How many accepted or held submissions of `record`'s power, player and turn were received
    /// no later than it (itself included, when it is one).
    fn of(&self, record: &Received) -> usize {
        let key = (
            record.power.as_str(),
            record.player.as_str(),
            record.for_turn,
        );
        let rank = record.rank();
        self.groups
            .get(&key)
            .map_or(0, |ranks| ranks.partition_point(|r| *r <= rank))
    }
}

/// Every record of `mail/received/`, by SHA-256 (`ingest_store::load_records`).
pub fn load_records(game: &Game) -> Result<BTreeMap<String, Received>> {
    super::ingest_store::load_records(game, |r: &Received| r.sha256.clone())
}

/// Makes `mail/inbox/` (the raw archive: passwords, right or wrong, as they came) a folder only the
/// referee may enter, mode 0700.
pub fn private_inbox(game: &Game) -> Result<()> {
    let dir = inbox_dir(game);
    crate::game::fsio::create_dirs(&dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
            .with_context(|| format!("cannot make {} private", game.shown(&dir)))?;
    }
    Ok(())
}

/// What `purge_passwords` did.
#[derive(Debug, Default)]
pub struct Purged {
    /// Messages in the raw archive, each now mode 0600.
    pub archived: usize,
    /// The current turn's orders files filed from mail, rewritten without the password.
    pub rewritten: Vec<PathBuf>,
    /// Orders files with a password line that no submission by mail stands for.
    pub by_hand: Vec<PathBuf>,
    /// Orders files of resolved turns with a password line, left as their turn records list them.
    pub resolved: Vec<PathBuf>,
}

/// `turns/<t>/purge-passwords.toml`: the orders files of turn `turn` a `pbem purge-passwords` is
/// rewriting, written before the first message's record and removed after the last file, so that
/// one killed between a record and its file (the record naming the file rewritten, the file keeping
/// its password) is finished by running it again, and no turn is resolved meanwhile, which would
/// keep the password in the file as an input of its record for good (`referee::underway`).
pub fn purge_plan_path(game: &Game, turn: u32) -> PathBuf {
    game.turn_dir(turn).join("purge-passwords.toml")
}

/// What a `pbem purge-passwords` rewrites (`purge_plan_path`), by path in the game folder.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PurgePlan {
    files: Vec<String>,
}

/// `pbem purge-passwords`: makes the raw archive private and rewrites the current turn's orders
/// filed from mail with a password (as pbem filed them before issue 15.10) into [`filed_text`],
/// updating their records' digests. Takes the game lock.
pub fn purge_passwords(game: &Game) -> Result<Purged> {
    let _lock = GameLock::acquire(&game.dir)?;
    let mut out = Purged::default();
    private_inbox(game)?;
    for e in std::fs::read_dir(inbox_dir(game))? {
        let path = e?.path();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    out.archived = RawStore::open(game)?.len();
    let turn = game.current_turn()?;
    let records = load_records(game)?;
    let all: Vec<Received> = records.values().cloned().collect();
    let winners = winners(&all, turn);
    let plan_path = purge_plan_path(game, turn);
    let begun = plan_path.is_file();
    let mut rewrites = Vec::new();
    for t in game.config.first_turn..=turn {
        for (p, player) in game.config.powers.iter().flat_map(|p| {
            crate::engine::command::slots(p)
                .into_iter()
                .map(move |s| (p, s))
        }) {
            let path = game.player_orders_path(t, &p.id, player.as_deref());
            let stem = crate::engine::command::file_stem(&p.id, player.as_deref());
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            let (h, _, _) = crate::orders::Header::take(&text, crate::orders::split(&text));
            if h.password.is_none() {
                continue;
            }
            if t < turn || game.is_resolved(t) {
                out.resolved.push(path);
                continue;
            }
            // Its record names it, or, after a run killed between them, already the file as
            // this rewrites it.
            let rewritten = |w: &Received| {
                sha256_hex(filed_text(&text, t, &w.sha256).as_bytes()) == w.orders_sha256
            };
            match winners.get(&stem) {
                Some(w) if w.orders_sha256 == sha256_hex(&bytes) || (begun && rewritten(w)) => {
                    let filed = filed_text(&text, t, &w.sha256);
                    let mut record = w.clone();
                    record.orders_sha256 = sha256_hex(filed.as_bytes());
                    rewrites.push((path, record, filed));
                }
                _ => out.by_hand.push(path),
            }
        }
    }
    if !rewrites.is_empty() && !begun {
        let plan = PurgePlan {
            files: rewrites.iter().map(|(p, _, _)| game.shown(p)).collect(),
        };
        write_atomic(&plan_path, crate::game::load::to_toml(&plan)?.as_bytes())?;
    }
    for (path, record, filed) in rewrites {
        let toml = crate::game::load::to_toml(&record)
            .context("cannot write a received-message record")?;
        // The record first: a run killed between leaves a file that no longer stands on it, which
        // the plan has a rerun rewrite (and the turn wait for).
        write_atomic(&record_path(game, &record.sha256), toml.as_bytes())?;
        write_atomic(&path, filed.as_bytes())?;
        out.rewritten.push(path);
    }
    if plan_path.is_file() {
        std::fs::remove_file(&plan_path)
            .with_context(|| format!("cannot remove {}", game.shown(&plan_path)))?;
    }
    Ok(out)
}

/// A message stored, waiting to be judged.
struct Pending {
    sha: String,
    size: u64,
    source: String,
    delivered: Option<(DateTime<Utc>, Basis)>,
    oversize: Option<u64>,
    read_rank: u64,
    arrival: (DateTime<Utc>, Basis),
}

/// Adds a message to the run's archive unless it is stored already; one over the size limit goes
/// to a file of its own, `mail/inbox/<sha256>.eml`, by streaming.
fn store_message(
    game: &Game,
    raw: RawMessage,
    store: &RawStore,
    archive: &mut ArchiveWriter,
) -> Result<Pending> {
    let (sha, size) = match &raw.oversize {
        Some((path, size)) => (store_streaming(game, path)?, *size),
        None => {
            let sha = sha256_hex(&raw.bytes);
            if !store.holds(&sha, raw.bytes.len() as u64) && !archive.holds(&sha) {
                archive.add(&sha, &raw.bytes)?;
            }
            (sha, raw.bytes.len() as u64)
        }
    };
    Ok(Pending {
        sha,
        size,
        source: raw.source,
        delivered: raw.delivered,
        oversize: raw.oversize.map(|o| o.1),
        read_rank: 0,
        arrival: (DateTime::UNIX_EPOCH, Basis::MailboxOrder),
    })
}

/// Copies a file too large to hold in memory into the archive, hashing it on the way.
fn store_streaming(game: &Game, path: &Path) -> Result<String> {
    use sha2::{Digest, Sha256};
    let dir = inbox_dir(game);
    crate::game::fsio::create_dirs(&dir)?;
    let mut tmp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(&dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o600))?;
    }
    let mut input =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = std::io::Read::read(&mut input, &mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        tmp.write_all(&buf[..n])?;
    }
    tmp.as_file().sync_all()?;
    let sha = hex::encode(hasher.finalize());
    let target = raw_path(game, &sha);
    if !target.is_file() {
        tmp.persist(&target)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {}", target.display(), e.error))?;
        sync_dir(&dir)?;
    }
    Ok(sha)
}

/// Files written each in one piece and made durable together: each goes to a temporary file
/// beside its place; [`Batch::sync`] flushes them all at once (in parallel, so that the file system
/// commits them together, where a sync per file costs one journal commit each; a `syncfs` would also
/// flush whatever else the file system holds, slower on a shared disk), then renames each into
/// place and flushes the folders. A file is in place only once its bytes are on disk, and nothing
/// that depends on them is written before `sync` returns.
#[derive(Default)]
struct Batch {
    /// Temporary files (deleted if dropped before `sync`) and their places.
    files: Vec<(tempfile::TempPath, PathBuf)>,
    /// Where each place is in `files`: a place written twice keeps the last bytes, as a rewrite would.
    places: BTreeMap<PathBuf, usize>,
    dirs: BTreeSet<PathBuf>,
}

impl Batch {
    fn write(&mut self, path: &Path, bytes: &[u8], mode: Option<u32>) -> Result<()> {
        let dir = path
            .parent()
            .with_context(|| format!("{} has no folder", path.display()))?;
        if !self.dirs.contains(dir) {
            crate::game::fsio::create_dirs(dir)?;
            self.dirs.insert(dir.to_path_buf());
        }
        let mut tmp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempfile_in(dir)
            .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
        #[cfg(unix)]
        if let Some(mode) = mode {
            use std::os::unix::fs::PermissionsExt;
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        #[cfg(not(unix))]
        let _ = mode;
        tmp.write_all(bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
        self.place(tmp.into_temp_path(), path);
        Ok(())
    }

    /// Keeps `tmp` to go to `path`, in the place of a file written for `path` before (whose
    /// temporary file is deleted as it is dropped).
    fn place(&mut self, tmp: tempfile::TempPath, path: &Path) {
        let entry = (tmp, path.to_path_buf());
        match self.places.get(path) {
            Some(&i) => self.files[i] = entry,
            None => {
                self.places.insert(path.to_path_buf(), self.files.len());
                self.files.push(entry);
            }
        }
    }

    /// Takes a temporary file already written beside its place (`path`), as [`Batch::write`] makes
    /// one.
    fn adopt(&mut self, tmp: tempfile::TempPath, path: &Path) -> Result<()> {
        let dir = path
            .parent()
            .with_context(|| format!("{} has no folder", path.display()))?;
        self.dirs.insert(dir.to_path_buf());
        self.place(tmp, path);
        Ok(())
    }

    /// Flushes every file written, puts each in its place, then flushes their folders.
    fn sync(&mut self) -> Result<()> {
        let files = std::mem::take(&mut self.files);
        self.places.clear();
        let tmps: Vec<&Path> = files.iter().map(|(t, _)| t.as_ref()).collect();
        // An ingest of thousands of messages syncs thousands of answers: 64 waiting together share
        // the journal's commits 4 times better than the 16 of a turn's files.
        crate::game::fsio::sync_files_on(&tmps, 64)?;
        for (tmp, path) in files {
            crate::game::fsio::crash_point(&path);
            tmp.persist(&path)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {}", path.display(), e.error))?;
        }
        for d in std::mem::take(&mut self.dirs) {
            sync_dir(&d)?;
        }
        Ok(())
    }
}

/// The arrival time of a message (issue 4.1): the referee's own `Received` header (the topmost one
/// by a host of `received_by`, or the topmost one when the list is empty), else what its container
/// says; never the sender's `Date`.
pub fn arrival(
    stamps: &[parse::Stamp],
    delivered: Option<(DateTime<Utc>, Basis)>,
    received_by: &[String],
) -> (DateTime<Utc>, Basis) {
    let ours = |s: &&parse::Stamp| {
        received_by.is_empty()
            || s.by.as_deref().is_some_and(|by| {
                received_by.iter().any(|h| {
                    let (by, h) = (by.to_ascii_lowercase(), h.to_ascii_lowercase());
                    by == h || by.ends_with(&format!(".{h}"))
                })
            })
    };
    if let Some(date) = stamps.iter().find(ours).and_then(|s| s.date) {
        return (date, Basis::Received);
    }
    delivered.unwrap_or((DateTime::UNIX_EPOCH, Basis::MailboxOrder))
}

fn shown_from(from: &str) -> &str {
    if from.is_empty() {
        "no one who can be told"
    } else {
        from
    }
}

/// What an acknowledgement says, besides the record: plain data, kept in the run's spill file
/// until every message is judged ([`Spill`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AckData {
    pub to: Vec<String>,
    pub message_id: String,
    #[serde(with = "rfc3339")]
    pub arrival: DateTime<Utc>,
    /// What checking the orders gave (none when no orders were read).
    pub checked: Option<Checked>,
    /// The turn whose deadline a held submission missed.
    pub late_turn: Option<u32>,
    /// The receipt digest of the orders as filed ([`crate::mail::ingest::receipt_digest`]), for accepted
    /// and held submissions.
    pub receipt: String,
    /// The other messages of the run rejected for the same addresses, one line each, that this
    /// answer sums up ([`Summed`]).
    pub others: Vec<String>,
}

/// What checking a submission's orders gave, as its answer shows it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Checked {
    /// How many lines were rejected.
    pub rejected: usize,
    /// The entropy text, if the orders have an entropy line.
    pub entropy: Option<String>,
    /// The orders that stand: the line its sender sees it on (`Received::lines`) and the order as
    /// pbem reads it back.
    pub accepted: Vec<(usize, String)>,
    /// Every diagnostic with its line (`Source::render`: passwords as stars); empty when none.
    pub diagnostics: String,
}

impl Checked {
    pub fn new(source: &Source, check: &OrdersCheck) -> Checked {
        Checked {
            rejected: check.rejected(),
            entropy: check.entropy.clone(),
            accepted: check
                .accepted
                .iter()
                .map(|(line, order)| (source.shown_line(*line), order.clone()))
                .collect(),
            diagnostics: if check.diagnostics.is_empty() {
                String::new()
            } else {
                source.render(&check.diagnostics)
            },
        }
    }
}

/// An instant as RFC 3339 text, every digit kept.
mod rfc3339 {
    use chrono::{DateTime, SecondsFormat, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&t.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let text = String::deserialize(d)?;
        DateTime::parse_from_rfc3339(&text)
            .map(|t| t.with_timezone(&Utc))
            .map_err(serde::de::Error::custom)
    }
}

fn bare_record(p: &Pending, seq: u64, turn: u32, status: Status, reasons: Vec<String>) -> Received {
    Received {
        format: RECEIVED_FORMAT.into(),
        sha256: p.sha.clone(),
        size: p.size,
        message_id: String::new(),
        body_sha256: String::new(),
        from: String::new(),
        subject: String::new(),
        arrival: p.arrival.0.to_rfc3339(),
        arrival_from: p.arrival.1.name().into(),
        source: p.source.clone(),
        seq,
        judged_at_turn: turn,
        status,
        power: String::new(),
        player: String::new(),
        for_turn: 0,
        reasons,
        origin: String::new(),
        lines: LineMap::default(),
        orders_sha256: String::new(),
        ack: String::new(),
        duplicate_of: String::new(),
    }
}

/// Where the game stands for the message judged: its turn, the message's rank in the run, and
/// whether the game is over (`pbem end`).
struct JudgedAt<'a> {
    turn: u32,
    seq: u64,
    ended: Option<&'a crate::game::acts::Ended>,
}

/// Judges one stored message: see the module doc. An `Err` is a problem of the game folder, reported
/// as the message's reason by the caller.
#[allow(clippy::too_many_arguments)]
fn judge(
    game: &Game,
    store: &RawStore,
    state: &State,
    checker: &dyn Fn(&Source) -> OrdersCheck,
    p: &Pending,
    at: &JudgedAt,
    ids: &MessageIds,
    verified: &crate::auth::VerifyCache,
) -> Result<(Received, Option<AckData>)> {
    let (turn, seq) = (at.turn, at.seq);
    let config = &game.config;
    let ignored = |why: String| bare_record(p, seq, turn, Status::Ignored, vec![why]);
    // A message too large to read is judged by its header block alone: refused, and its sender
    // told if he is a player (he was not, and never learnt that his orders went unread).
    let too_large = p.oversize.map(|size| {
        format!(
            "the message is {size} bytes, over the limit of {} (game.toml [mail] max_message_bytes): stored, not read; send your orders in a smaller message, without large attachments",
            config.mail.max_message_bytes
        )
    });
    let raw = match &too_large {
        Some(_) => store.read_head(game, &p.sha),
        None => store.read(&p.sha),
    }
    .with_context(|| format!("cannot read the stored message {}", p.sha))?;
    let Some(msg) = parse::parse(&raw) else {
        return Ok((
            ignored("not a mail message: no header could be read".into()),
            None,
        ));
    };
    let mut record = bare_record(p, seq, turn, Status::Ignored, Vec::new());
    record.message_id = msg.message_id.clone().unwrap_or_default();
    let body = raw.get(msg.body_offset..).unwrap_or_default();
    record.body_sha256 = body_digest(body);
    record.from = msg.sender.address().unwrap_or_default().to_string();
    // A password written in the subject is not kept either.
    record.subject = crate::diag::mask_passwords(&msg.subject);

    // A copy of a message already judged: same Message-ID and same body (or the same digest of the
    // body's bytes as they are, which the records of a pbem before `body_digest` hold).
    let copy = match ids.copy_of(&record.message_id, &record.body_sha256) {
        Some(None) => ids.copy_of(&record.message_id, &sha256_hex(body)),
        found => found,
    };
    if let Some(copy_of) = copy {
        if let Some(original) = copy_of {
            record.status = Status::Duplicate;
            record.duplicate_of = original.clone();
            record
                .reasons
                .push(format!("a copy of message {original}, already judged"));
            return Ok((record, None));
        }
        record.reasons.push(format!(
            "note: another message with Message-ID {} and a different body was received; this one is judged on its own",
            record.message_id
        ));
    }
    let referee = normalise(&config.mail_from());
    let looped = msg
        .loops
        .iter()
        .find(|l| l.contains(&referee))
        .map(|l| format!("X-Loop: {l}"));
    if let Some(why) = msg.automatic.as_ref().or(looped.as_ref()) {
        record.reasons.push(format!(
            "an automatic message ({why}): pbem never answers those"
        ));
        return Ok((record, None));
    }
    if msg.sender.address().is_some_and(|a| a == referee) {
        record
            .reasons
            .push("sent from the referee's own address: not a submission".into());
        return Ok((record, None));
    }
    let registered_any = msg.sender.address().and_then(|a| {
        config
            .powers
            .iter()
            .find(|pc| registered(config, state, pc, a))
    });

    let mut ack = AckData {
        to: Vec::new(),
        message_id: record.message_id.clone(),
        arrival: p.arrival.0,
        checked: None,
        late_turn: None,
        receipt: String::new(),
        others: Vec::new(),
    };
    let extracted = match too_large {
        Some(why) if registered_any.is_some() => Extracted::Refused(why),
        Some(why) => return Ok((ignored(why), None)),
        None => extract::extract(&msg, config.mail.max_text_bytes),
    };
    let found: Found = match extracted {
        Extracted::Orders(f) => f,
        Extracted::NoOrders => {
            return Ok(match registered_any {
                Some(pc) => {
                    record.status = Status::Rejected;
                    record.power = pc.id.clone();
                    record.reasons.push(
                        "no orders found: no part of the message has a 'game', 'power' or 'password' line (quoted '>' lines and the signature are not read)".into(),
                    );
                    ack.to = recipients(config, state, pc, &msg.sender);
                    (record, Some(ack))
                }
                None => {
                    record.reasons.push(format!(
                        "no orders in it, and {} is not a player's address: not answered",
                        sender_shown(&msg.sender)
                    ));
                    (record, None)
                }
            });
        }
        Extracted::Refused(reason) => {
            record.status = Status::Rejected;
            record.reasons.push(reason);
            ack.to = match registered_any {
                Some(pc) => {
                    record.power = pc.id.clone();
                    recipients(config, state, pc, &msg.sender)
                }
                None => vec![config.mail_from()],
            };
            return Ok((record, Some(ack)));
        }
    };
    record.origin = found.origin.clone();
    record.lines = found.lines.clone();

    // Which turn the orders are for.
    let (header, _, _) =
        crate::orders::Header::take(&found.text, crate::orders::split(&found.text));
    let claimed: Option<&PowerConfig> = header.power.as_ref().and_then(|h| config.power(&h.value));
    if header.submission.is_some() {
        record.status = Status::Rejected;
        record.power = claimed.map(|pc| pc.id.clone()).unwrap_or_default();
        record.reasons.push(
            "a 'submission' line is the line pbem files in place of a password, never one to mail: write the 'password' line".into(),
        );
        ack.to = match claimed.or(registered_any) {
            Some(pc) => recipients(config, state, pc, &msg.sender),
            None => vec![config.mail_from()],
        };
        return Ok((record, Some(ack)));
    }
    // EiA 19.2.1: a player who left a dropped power orders it no more; he is told so, alone.
    if let (Some(pc), Some(a)) = (claimed, msg.sender.address()) {
        if crate::game::owners::departed(config, state, &pc.id)
            .iter()
            .any(|d| normalise(d) == a)
        {
            record.status = Status::Rejected;
            record.power = pc.id.clone();
            record.reasons.push(format!(
                "you no longer play {}: the referee dropped the power ({}), so your orders for it do not stand",
                pc.name,
                crate::engine::players::dropped_rule(game).cite()
            ));
            ack.to = vec![a.to_string()];
            return Ok((record, Some(ack)));
        }
    }
    // `pbem end`: no turn is played any more; the message is kept, and its sender told so.
    if let Some(e) = at.ended {
        record.status = Status::Rejected;
        record.power = claimed.map(|pc| pc.id.clone()).unwrap_or_default();
        record.reasons.push(format!(
            "{OVER}: the referee ended it {} ({}), so no orders are played any more",
            e.when(),
            e.reason
        ));
        ack.to = match claimed.or(registered_any) {
            Some(pc) => recipients(config, state, pc, &msg.sender),
            None => vec![config.mail_from()],
        };
        return Ok((record, Some(ack)));
    }
    let named_turn = header.turn.as_ref().map(|t| t.value);
    let arrival = p.arrival.0;
    let deadline = |t: u32| config.deadline_of(t).map(|d| d.with_timezone(&Utc));
    let hold = config.deadline.late_orders == "hold";
    let held_from_previous = hold
        && turn > config.first_turn
        && named_turn == Some(turn - 1)
        && deadline(turn - 1).is_some_and(|d| arrival > d)
        && deadline(turn).is_none_or(|d| arrival <= d);
    // Orders that name the next turn, arrived after this turn's deadline: under "hold" they are
    // the next turn's as the late ones are, checked as this turn's and held for the next (its turn
    // line kept); before the deadline they are refused, as orders for a turn to come.
    let named_next = hold
        && named_turn == Some(turn + 1)
        && deadline(turn).is_some_and(|d| arrival > d)
        && deadline(turn + 1).is_none_or(|d| arrival <= d);
    let text = if held_from_previous || named_next {
        set_turn(&found.text, turn)
    } else {
        found.text.clone()
    };
    // A sender who is not the claimed power's is refused whatever his password, which is checked
    // only to warn the power's players: besides his own budget of wrong passwords, all such
    // senders of a power share one per run (issue 34: 300 forged From addresses cost 300 checks,
    // now 8).
    let forged_for = claimed.filter(|pc| {
        !config.mail.any_sender
            && msg
                .sender
                .address()
                .is_none_or(|a| !registered(config, state, pc, a))
    });
    let sender_key = msg.sender.address().unwrap_or_default();
    verified.set_sender(sender_key);
    let shared = forged_for.map(|pc| format!("\0not a sender of {}", pc.id));
    if let Some(budget) = &shared {
        verified.share_budget(budget);
    }
    // Checked as the turn will read the file (the same bytes, the same decoding).
    let (source, check) = crate::rules::check_file_with(checker, &found.file_name, text.as_bytes());
    let source = source.with_lines(found.lines.clone());
    if check
        .diagnostics
        .iter()
        .any(|d| d.message == crate::orders::header::PASSWORD_NOT_CHECKED)
    {
        // A flood: recorded, never answered on its own (its answers would flood the power's
        // players), but a line of the answer its power's addresses get for the rejected messages
        // of the run, if one is written ([`Summed`]).
        record.status = Status::Rejected;
        record.power = claimed.map(|pc| pc.id.clone()).unwrap_or_default();
        let own_spent = verified.failures(sender_key) >= crate::auth::MAX_FAILED_PER_SENDER;
        record.reasons.push(match forged_for.filter(|_| !own_spent) {
            Some(pc) => format!(
                "{FLOOD}{} wrong passwords for {} from addresses not registered for it were already checked in this run; this one, from {}, was not checked nor answered",
                crate::auth::MAX_FAILED_PER_SENDER,
                pc.name,
                sender_shown(&msg.sender)
            ),
            None => format!(
                "{FLOOD}{} already sent {} wrong passwords in this run; this one was not checked nor answered",
                sender_shown(&msg.sender),
                crate::auth::MAX_FAILED_PER_SENDER
            ),
        });
        let Some(pc) = claimed else {
            return Ok((record, None));
        };
        ack.to = recipients(config, state, pc, &msg.sender);
        return Ok((record, Some(ack)));
    }

    // Who is answered: the power's own addresses, never an unregistered sender.
    let power_for_answer = check
        .power
        .as_deref()
        .and_then(|id| config.power(id))
        .or(claimed);
    ack.to = match power_for_answer.or(registered_any) {
        Some(pc) => recipients(config, state, pc, &msg.sender),
        None => vec![config.mail_from()],
    };
    if let Some(pc) = power_for_answer {
        record.power = pc.id.clone();
    }
    record.status = Status::Rejected;
    match check.power.as_deref().and_then(|id| config.power(id)) {
        None => {
            // The header's diagnostics never quote a password (orders::header), nor does decoding;
            // a turn that is not the game's is one of them, with its one reason (no turn before
            // the first, a turn already resolved, a turn to come).
            for d in check.diagnostics.iter().filter(|d| d.is_error()) {
                if d.rule == Some(crate::orders::header::HEADER_RULE)
                    || d.rule == Some(crate::orders::PLAIN_TEXT)
                {
                    record.reasons.push(d.message.clone());
                }
            }
            if record.reasons.is_empty() {
                record
                    .reasons
                    .push("the orders' header is not right: see the lines below".into());
            }
        }
        Some(pc) => {
            // A player of a power with several sends from his own address (`[[power.player]]`).
            let own = check
                .player
                .as_deref()
                .and_then(|id| pc.command(id))
                .map(|c| c.at(turn).address);
            if let Some(id) = &check.player {
                record.player = id.clone();
            }
            let sender_ok = config.mail.any_sender
                || msg.sender.address().is_some_and(|a| match &own {
                    Some(own) => normalise(own) == a,
                    None => registered(config, state, pc, a),
                });
            if !sender_ok {
                record.reasons.push(match (&msg.sender, &check.player) {
                    (Sender::One(a), Some(id)) => format!(
                        "the sender {a} is not the address of {id} of {} (game.toml [[power.player]] address); the right password is not enough",
                        pc.name
                    ),
                    (Sender::One(a), None) => format!(
                        "the sender {a} is not registered for {} (game.toml [[power]] players); the right password is not enough",
                        pc.name
                    ),
                    (Sender::Missing, _) => "the message has no From header: nobody can be answered".into(),
                    (Sender::Ambiguous(why), _) => format!("the sender cannot be told ({why})"),
                });
            } else if held_from_previous {
                record.status = Status::Held;
                record.for_turn = turn;
                ack.late_turn = Some(turn - 1);
                record.reasons.push(format!(
                    "arrived after the deadline of turn {}: held for turn {turn}, read as orders for turn {turn}",
                    turn - 1
                ));
            } else if crate::engine::close::path(game, turn).is_file()
                || crate::engine::close::begun_path(game, turn).is_file()
            {
                // pbem-dice/v2: the closing list is mailed and the seed made of it (or a close
                // killed midway began it); nothing is filed for the turn after it, whatever the
                // deadline says.
                if hold {
                    record.status = Status::Held;
                    record.for_turn = turn + 1;
                    ack.late_turn = Some(turn);
                    record.reasons.push(format!(
                        "{} (its closing list mailed) before this arrived; held for turn {}",
                        closed_reason(turn),
                        turn + 1
                    ));
                } else {
                    record.status = Status::Late;
                    record.reasons.push(format!(
                        "{} (its closing list mailed) before this arrived; it is not filed",
                        closed_reason(turn)
                    ));
                }
            } else if deadline(turn).is_some_and(|d| arrival > d) {
                let due = config
                    .deadline_of(turn)
                    .map(|d| d.format("%Y-%m-%d %H:%M %Z").to_string())
                    .unwrap_or_default();
                let next_ok = deadline(turn + 1).is_none_or(|d| arrival <= d);
                if hold && next_ok {
                    record.status = Status::Held;
                    record.for_turn = turn + 1;
                    ack.late_turn = Some(turn);
                    record.reasons.push(format!(
                        "{} ({due}): held for turn {}",
                        late_reason(turn),
                        turn + 1
                    ));
                } else {
                    record.status = Status::Late;
                    record.reasons.push(format!(
                        "{} ({due}): late orders are rejected (game.toml late_orders = \"{}\")",
                        late_reason(turn),
                        config.deadline.late_orders
                    ));
                }
            } else {
                record.status = Status::Accepted;
                record.for_turn = turn;
            }
        }
    }
    let mut check = check;
    if matches!(record.status, Status::Accepted | Status::Held) {
        let filed = filed_text(&found.text, record.for_turn, &record.sha256);
        record.orders_sha256 = sha256_hex(filed.as_bytes());
        ack.receipt = hex::encode(crate::mail::ingest::receipt_digest(filed.as_bytes()));
        // The answer gives the entropy the turn will read: the filed one (a password copied into
        // the entropy line is starred out there).
        let (h, _, _) = crate::orders::Header::take(&filed, crate::orders::split(&filed));
        check.entropy = h.entropy.map(|e| e.value);
    }
    ack.checked = Some(Checked::new(&source, &check));
    Ok((record, Some(ack)))
}

/// The addresses a power's answer goes to: the sender alone when he is one of the power's players,
/// else all of them (a forged sender gets no copy of a power's orders).
fn recipients(
    config: &crate::game::config::GameConfig,
    state: &State,
    pc: &PowerConfig,
    sender: &Sender,
) -> Vec<String> {
    match sender.address() {
        Some(a) if registered(config, state, pc, a) => vec![a.to_string()],
        _ => crate::engine::players::recipients(config, state, &pc.id),
    }
}

/// Whether `address` may send the power's orders and receive its mail: one of its players (a
/// replacement's, else game.toml's) or, while another power runs it, one of the controller's (EiA
/// 19.2, `engine::players`).
pub fn registered(
    config: &crate::game::config::GameConfig,
    state: &State,
    pc: &PowerConfig,
    address: &str,
) -> bool {
    crate::engine::players::recipients(config, state, &pc.id)
        .iter()
        .any(|p| normalise(p) == address)
}

/// How the reason a submission was judged late for `turn` begins (rejected or held for the next).
fn late_reason(turn: u32) -> String {
    format!("arrived after the deadline of turn {turn}")
}

/// The reason of a submission that came after the close of `turn` (pbem-dice/v2), up to what
/// became of it.
fn closed_reason(turn: u32) -> String {
    format!("the turn is closed: turn {turn}'s orders were closed")
}

/// Whether `reason` is the one that judged a submission late for `turn` (after its deadline, or
/// after its close): untrue once a moved deadline covers it (`mail::late::Standing::Covered`; a
/// rollback reopens a closed turn).
pub fn is_late_reason(reason: &str, turn: u32) -> bool {
    reason
        .strip_prefix(&late_reason(turn))
        .is_some_and(|rest| rest.starts_with(" ("))
        || reason.starts_with(&closed_reason(turn))
}

/// The address of `Name <addr>` or `addr`, lower case.
pub fn normalise(entry: &str) -> String {
    let e = entry.trim();
    let inner = match (e.rfind('<'), e.rfind('>')) {
        (Some(a), Some(b)) if a < b => &e[a + 1..b],
        _ => e,
    };
    inner.trim().to_ascii_lowercase()
}

fn sender_shown(s: &Sender) -> String {
    match s {
        Sender::One(a) => a.clone(),
        Sender::Missing => "a message without a From header".into(),
        Sender::Ambiguous(why) => format!("a sender that cannot be told ({why})"),
    }
}

/// Whether a file filed from mail stands by its submission line: the model's, which reads this
/// module's records (`game::submission`).
pub use crate::game::submission::stands_for;

/// The filed text of mailed orders and the digest a receipt gives are the model's (`orders::filed`).
pub use crate::orders::filed::{filed_text, receipt_digest, set_turn};

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 34.5: of the rejected messages of a run answered to the same addresses, the first keeps
    /// its answer and lists the others, at most `Summed::MAX_LINES` one by one, then their count;
    /// each other one loses its own answer and says which answer sums it up. Other addresses, and
    /// orders that stand, keep their own.
    #[test]
    fn one_answer_per_address_sums_up_the_rest_and_counts_what_it_does_not_list() {
        let record = |seq: u64, status: Status| Received {
            format: RECEIVED_FORMAT.into(),
            sha256: format!("{seq:064x}"),
            size: 0,
            message_id: format!("m{seq}@x"),
            body_sha256: String::new(),
            from: "france@example.org".into(),
            subject: String::new(),
            arrival: String::new(),
            arrival_from: String::new(),
            source: String::new(),
            seq,
            judged_at_turn: 1,
            status,
            power: "france".into(),
            player: String::new(),
            for_turn: 0,
            reasons: vec![format!("reason {seq}")],
            origin: String::new(),
            lines: Default::default(),
            orders_sha256: String::new(),
            ack: String::new(),
            duplicate_of: String::new(),
        };
        let ack = |to: &str| AckData {
            to: vec![to.into()],
            message_id: String::new(),
            arrival: DateTime::UNIX_EPOCH,
            checked: None,
            late_turn: None,
            receipt: String::new(),
            others: Vec::new(),
        };
        let mut summed = Summed::default();
        let mut kept = Vec::new();
        let extra = 5;
        for seq in 0..(Summed::MAX_LINES + 1 + extra) as u64 {
            let mut r = record(seq, Status::Rejected);
            let mut a = Some(ack("France@Example.org"));
            summed.add(&mut r, &mut a);
            if a.is_some() {
                kept.push(seq);
            } else {
                assert!(
                    r.reasons[1].contains("the answer to <m0@x> sums up"),
                    "{:?}",
                    r.reasons
                );
            }
        }
        for (seq, status, to) in [
            (900, Status::Rejected, "austria@example.org"),
            (901, Status::Accepted, "france@example.org"),
        ] {
            let mut r = record(seq, status);
            let mut a = Some(ack(to));
            summed.add(&mut r, &mut a);
            assert!(a.is_some());
        }
        assert_eq!(kept, [0]);
        let lines = summed.take(0);
        assert_eq!(lines.len(), Summed::MAX_LINES + 1);
        assert_eq!(lines[0], "<m1@x>, from france@example.org: reason 1");
        assert!(lines[Summed::MAX_LINES].starts_with(&format!("{extra} more messages")));
        assert!(summed.take(900).is_empty());
    }

    fn stamp(by: &str, date: &str) -> parse::Stamp {
        parse::Stamp {
            by: Some(by.into()),
            date: Some(
                DateTime::parse_from_rfc3339(date)
                    .unwrap()
                    .with_timezone(&Utc),
            ),
        }
    }

    #[test]
    fn arrival_is_the_referees_received_header_never_the_date() {
        let stamps = [
            stamp("mx.ref.org", "2026-12-05T18:00:00Z"),
            stamp("forged.example", "2026-12-01T00:00:00Z"),
        ];
        let (t, b) = arrival(&stamps, None, &[]);
        assert_eq!(
            (t.to_rfc3339().as_str(), b),
            ("2026-12-05T18:00:00+00:00", Basis::Received)
        );
        let (t, _) = arrival(&stamps[1..], None, &["ref.org".into()]);
        assert_eq!(
            t,
            DateTime::UNIX_EPOCH,
            "a Received by another host is not the referee's"
        );
        let (t, _) = arrival(&stamps, None, &["mx.ref.org".into()]);
        assert_eq!(t.to_rfc3339(), "2026-12-05T18:00:00+00:00");
        let delivered = Some((
            DateTime::UNIX_EPOCH + chrono::Duration::days(1),
            Basis::Delivery,
        ));
        assert_eq!(arrival(&[], delivered, &[]).1, Basis::Delivery);
    }

    /// `Later` answers what a scan of every record answers.
    #[test]
    fn later_submissions_are_those_a_scan_finds() {
        fn scan(all: &[Received], record: &Received) -> Option<String> {
            if !matches!(record.status, Status::Accepted | Status::Held) {
                return None;
            }
            all.iter()
                .filter(|r| {
                    matches!(r.status, Status::Accepted | Status::Held)
                        && r.power == record.power
                        && r.for_turn == record.for_turn
                        && r.rank() > record.rank()
                })
                .map(|r| r.arrival.clone())
                .max()
        }
        let statuses = [
            Status::Accepted,
            Status::Held,
            Status::Late,
            Status::Rejected,
        ];
        let mut all = Vec::new();
        for i in 0..300u64 {
            let p = Pending {
                sha: format!("{:064x}", i * 7919 % 301),
                size: 0,
                source: String::new(),
                delivered: None,
                oversize: None,
                read_rank: 0,
                arrival: (DateTime::UNIX_EPOCH, Basis::MailboxOrder),
            };
            let mut r = bare_record(
                &p,
                i % 13,
                1 + (i % 2) as u32,
                statuses[(i % 4) as usize],
                Vec::new(),
            );
            r.power = ["france", "austria", ""][(i % 3) as usize].into();
            // Equal times, and the same time written with another offset.
            r.arrival = match i % 5 {
                0 => "2026-12-06T00:00:00+00:00".into(),
                1 => "2026-12-06T01:00:00+01:00".into(),
                2 => format!("2026-12-06T00:{:02}:00+00:00", i % 60),
                3 => format!("2026-12-05T23:{:02}:00-01:00", i % 60),
                _ => "not a date".into(),
            };
            all.push(r);
        }
        let later = Later::new(&all);
        for r in &all {
            assert_eq!(later.of(r), scan(&all, r), "{r:?}");
        }
    }

    /// `Sequences` answers what a count over every record answers.
    #[test]
    fn receipt_sequences_are_those_a_count_finds() {
        fn count(all: &[Received], record: &Received) -> usize {
            all.iter()
                .filter(|r| {
                    matches!(r.status, Status::Accepted | Status::Held)
                        && r.power == record.power
                        && r.player == record.player
                        && r.for_turn == record.for_turn
                        && r.rank() <= record.rank()
                })
                .count()
        }
        let statuses = [
            Status::Accepted,
            Status::Held,
            Status::Late,
            Status::Ignored,
        ];
        let mut all = Vec::new();
        for i in 0..300u64 {
            let p = Pending {
                sha: format!("{:064x}", i * 7919 % 301),
                size: 0,
                source: String::new(),
                delivered: None,
                oversize: None,
                read_rank: 0,
                arrival: (DateTime::UNIX_EPOCH, Basis::MailboxOrder),
            };
            let mut r = bare_record(&p, i % 11, 1, statuses[(i % 4) as usize], Vec::new());
            r.for_turn = 1 + (i % 2) as u32;
            r.power = ["france", "austria"][(i % 3 % 2) as usize].into();
            r.player = ["", "ney"][(i % 7 % 2) as usize].into();
            r.arrival = match i % 4 {
                0 => "2026-12-06T00:00:00+00:00".into(),
                1 => "2026-12-06T01:00:00+01:00".into(),
                2 => format!("2026-12-06T00:{:02}:00+00:00", i % 60),
                _ => "not a date".into(),
            };
            all.push(r);
        }
        let sequences = Sequences::new(&all);
        let mut seen = BTreeSet::new();
        for r in &all {
            let n = sequences.of(r);
            assert_eq!(n, count(&all, r), "{r:?}");
            seen.insert(n);
        }
        assert!(seen.len() > 10, "the ranks vary: {seen:?}");
    }

    /// A batch puts each file in place only at `sync`, with the last bytes written for it, and leaves
    /// no temporary file behind.
    #[test]
    fn a_batch_puts_the_last_bytes_in_place_at_sync() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("x/a.toml"), dir.path().join("x/b.toml"));
        let mut batch = Batch::default();
        batch.write(&a, b"first", None).unwrap();
        batch.write(&b, b"other", Some(0o600)).unwrap();
        batch.write(&a, b"second", None).unwrap();
        assert!(!a.exists() && !b.exists());
        batch.sync().unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), b"second");
        assert_eq!(std::fs::read(&b).unwrap(), b"other");
        let names: Vec<String> = std::fs::read_dir(dir.path().join("x"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        batch.sync().unwrap();
    }

    #[test]
    fn set_turn_rewrites_only_the_turn_value() {
        assert_eq!(
            set_turn("game g\nTURN  1 # x\nmove a b\n", 2),
            "game g\nTURN  2 # x\nmove a b\n"
        );
        assert_eq!(set_turn("game g\n", 2), "game g\n");
    }

    #[test]
    fn registered_addresses_compare_without_case_or_name() {
        assert_eq!(
            normalise("France <France@Example.org>"),
            "france@example.org"
        );
        assert_eq!(normalise(" a@b.org "), "a@b.org");
    }
}
