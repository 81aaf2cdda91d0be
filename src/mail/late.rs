//! `pbem accept-late`: the referee lets a late submission stand for the current turn (issue 13.2).
//!
//! A late-orders decision changes the game, so it is an act of the turn (`turns/<t>/acts.toml`, kind
//! `accept-late`, with the digests of the message and of the orders filed), which the turn's record
//! chains and `audit` re-checks. The orders are filed as `ingest` files an accepted submission
//! ([`ingest::filed_text`]): the message's record in `mail/received/` becomes `accepted` for the turn
//! with the filed file's digest, so that the turn authenticates the file by it ([`ingest::stands_for`]),
//! and the player gets an answer saying that his orders now stand. What it accepts is written first
//! (`turns/<t>/accept-late.toml`, removed once the orders are filed), and each step is written again
//! the same by a rerun, so a run killed between them is finished by running the command again as it
//! was begun; meanwhile the turn and every other act wait (`referee::underway`).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use super::extract::{self, Extracted};
use super::ingest::{self, AckData, Received, Status};
use super::parse;
use crate::game::acts::{self, Act, ACCEPT_LATE};
use crate::game::config::DiceScheme;
use crate::game::fsio::{write_atomic, GameLock};
use crate::game::record::sha256_hex;
use crate::game::Game;

/// `turns/<t>/accept-late.toml`: what an accept-late of turn `turn` accepts, written before anything
/// changes (its act, the player's answer, the message's record, the orders file) and removed after
/// the orders file, so that one killed midway (its act saying the late orders stand, its orders not
/// filed) is finished by running it again as it was begun, and no turn is resolved nor other act
/// begun meanwhile (`referee::underway`).
pub fn plan_path(game: &Game, turn: u32) -> PathBuf {
    game.turn_dir(turn).join("accept-late.toml")
}

/// An accept-late under way (`plan_path`): the message accepted and for whose orders file, and who
/// lets it stand: the referee for his `reason`, or a moved deadline that `covered` it (what the
/// referee did, [`Standing::Covered`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// The power as it was asked for: `russia`, or `france.eugene` for one player of a power with
    /// several.
    pub power: String,
    /// The message's SHA-256.
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered: Option<String>,
}

impl Plan {
    /// The command that finishes it, for a refusal.
    pub fn command(&self, game: &Game) -> String {
        format!(
            "pbem accept-late {} {} --message {} --reason {:?}",
            game.dir.display(),
            self.power,
            self.message,
            self.reason.as_deref().unwrap_or_default()
        )
    }
}

/// The accept-late of turn `turn` begun and killed midway, if any.
pub fn planned(game: &Game, turn: u32) -> Result<Option<Plan>> {
    let path = plan_path(game, turn);
    if !path.is_file() {
        return Ok(None);
    }
    let src = crate::game::load::read_source(&path, &game.shown(&path))?;
    Ok(Some(crate::game::load::parse_toml(&src)?))
}

/// Finishes the accept-late of turn `turn` killed midway, if one was, as it was begun: a moved
/// deadline's judging again (`pbem extend`, `rollback`, `reopen` run again) finishes the one it
/// began before it judges the others, whose message's record may say accepted already.
pub fn finish_planned(game: &Game, turn: u32) -> Result<Option<AcceptedLate>> {
    let Some(plan) = planned(game, turn)? else {
        return Ok(None);
    };
    let standing = match &plan.covered {
        Some(how) => Standing::Covered(how),
        None => Standing::AcceptedLate(plan.reason.as_deref().unwrap_or_default()),
    };
    accept_late(game, &plan.power, Some(&plan.message), standing).map(Some)
}

/// What `accept_late` did.
#[derive(Debug)]
pub struct AcceptedLate {
    pub turn: u32,
    pub power: String,
    /// The message accepted.
    pub record: Received,
    /// The orders file written.
    pub orders: PathBuf,
    /// The answer to the player, in the outbox.
    pub ack: Option<PathBuf>,
    /// The submission it replaces, if one stood.
    pub replaces: Option<Received>,
    /// Whether the act was already written (a rerun).
    pub again: bool,
}

/// Who lets a late submission stand, as the act records it and its player is told.
#[derive(Debug, Clone, Copy)]
pub enum Standing<'a> {
    /// `pbem accept-late`, for the referee's reason.
    AcceptedLate(&'a str),
    /// The turn's deadline moved past the submission's arrival (`pbem extend`, `pbem rollback`):
    /// what the referee did, as the player reads it after "the referee" ("extended the deadline of
    /// turn 1 to Tuesday 2026-12-08 20:00 CET"). The orders were not late for the new deadline,
    /// so the answer keeps no reason that said they were.
    Covered(&'a str),
}

impl Standing<'_> {
    /// The act's reason, written into the chain of records.
    fn reason(&self) -> String {
        match self {
            Standing::AcceptedLate(reason) => reason.to_string(),
            Standing::Covered(how) => format!("the referee {how}, after its arrival"),
        }
    }

    /// What the answer tells the player of `turn`.
    fn told(&self, turn: u32) -> String {
        match self {
            Standing::AcceptedLate(reason) => format!(
                "accepted late by the referee for turn {turn} (pbem accept-late, turns/{turn}/acts.toml): {reason}"
            ),
            Standing::Covered(how) => {
                format!("the referee {how}: your orders arrived before it and stand")
            }
        }
    }
}

/// A late submission `r` that a moved deadline covers (`pbem extend`, `pbem rollback`; `how`: what
/// the referee did, as [`Standing::Covered`] words it), replaced by the later submission `by` that
/// stands: judged again, it came in time for `turn` and was replaced, as on-time orders are by later
/// ones. Its record says so (accepted for `turn`, its late reason gone); it stands for no file, and
/// is no longer held for the next turn, whose orders it never was. Its player is answered again
/// (the answer that said "late" withdrawn while nobody has it): these orders came in time, and the
/// later message replaces them. Written again the same by a rerun.
pub fn replaced_in_time(
    game: &Game,
    turn: u32,
    r: &Received,
    by: &Received,
    how: &str,
) -> Result<()> {
    let mut record = r.clone();
    record.status = Status::Accepted;
    record.for_turn = turn;
    record.orders_sha256 = String::new();
    record.reasons.retain(|x| !ingest::is_late_reason(x, turn));
    let note = format!(
        "the referee {how}: these orders arrived before it, and the later submission {} replaces them",
        by.sha256
    );
    if !record.reasons.contains(&note) {
        record.reasons.push(note);
    }
    let records: Vec<Received> = ingest::load_records(game)?.into_values().collect();
    let state = game.load_state(turn)?;
    let (found, filed) = reread(game, &record, turn)?;
    record.lines = found.lines.clone();
    let (out, _) = answer(
        game,
        (turn, &state),
        &records,
        &record,
        (&found, &filed),
        Some(&by.arrival),
        ("in-time", "they came in time and are replaced"),
    )?;
    record.ack = out.file_name();
    let toml =
        crate::game::load::to_toml(&record).context("cannot write a received-message record")?;
    write_atomic(&ingest::record_path(game, &record.sha256), toml.as_bytes())
}

/// The orders of the stored message `record`, read again exactly as ingest filed them for `turn`:
/// what was found, and the file's text.
fn reread(game: &Game, record: &Received, turn: u32) -> Result<(extract::Found, String)> {
    let store = super::ingest_store::RawStore::open(game)?;
    let raw = store.read(&record.sha256).with_context(|| {
        format!(
            "the stored message {} is missing",
            store.printed(game, &record.sha256)
        )
    })?;
    let msg = parse::parse(&raw).context("the stored message cannot be read again")?;
    let Extracted::Orders(found) = extract::extract(&msg, game.config.mail.max_text_bytes) else {
        bail!(
            "the orders of message {} cannot be read again",
            record.sha256
        );
    };
    let filed = ingest::filed_text(&found.text, turn, &record.sha256);
    Ok((found, filed))
}

/// Writes into the outbox the answer to `record` as it now stands for `turn` (`replaced_by`: the
/// arrival of the later submission that replaces it), its orders `(found, filed)` checked again,
/// under the name of the answer before it with `suffix`; that answer, if nobody has it yet, is
/// withdrawn (`why`: what the new one says of the orders). The answer and its path.
fn answer(
    game: &Game,
    (turn, state): (u32, &crate::game::state::State),
    records: &[Received],
    record: &Received,
    (found, filed): (&extract::Found, &str),
    replaced_by: Option<&String>,
    (suffix, why): (&str, &str),
) -> Result<(super::outbox::Outgoing, PathBuf)> {
    let to = match crate::engine::players::recipients(&game.config, state, &record.power) {
        all if all.iter().any(|a| ingest::normalise(a) == record.from) => vec![record.from.clone()],
        all => all,
    };
    let verified = crate::auth::VerifyCache::start();
    verified.set_sender(&record.from);
    let text = ingest::set_turn(&found.text, turn);
    let (source, mut check) =
        crate::rules::check_file(game, state, &found.file_name, text.as_bytes());
    let source = source.with_lines(found.lines.clone());
    let (h, _, _) = crate::orders::Header::take(filed, crate::orders::split(filed));
    check.entropy = h.entropy.map(|e| e.value);
    let data = AckData {
        to,
        message_id: record.message_id.clone(),
        arrival: record.arrival_time(),
        checked: Some(ingest::Checked::new(&source, &check)),
        late_turn: None,
        receipt: hex::encode(ingest::receipt_digest(filed.as_bytes())),
        others: Vec::new(),
    };
    let rank = |r: &Received| (r.arrival_time(), r.seq, r.sha256.clone());
    let sequence = records
        .iter()
        .filter(|r| {
            matches!(r.status, Status::Accepted | Status::Held)
                && r.slot() == record.slot()
                && r.for_turn == turn
                && r.sha256 != record.sha256
                && rank(r) <= rank(record)
        })
        .count()
        + 1;
    let mut out = super::ack::acknowledgement(
        game,
        &super::ack::Answers::new(game)?,
        turn,
        record,
        &data,
        replaced_by,
        sequence,
    )?;
    // Not the name of the answer that said "late": that one may be sent already.
    out.key = format!("{}-{suffix}", out.key);
    let ack_path = super::outbox::path_of(game, &out);
    super::outbox::note_written(game, &[out.file_name()])?;
    write_atomic(&ack_path, &out.render(game)?)?;
    // The answer that said "late" is withdrawn while nobody has it yet: the player's last word
    // on the message is this one.
    if !record.ack.is_empty() && record.ack != out.file_name() {
        super::send::withdraw(
            game,
            &record.ack,
            &format!("{} answers the same message: {why}", out.file_name()),
        )?;
    }
    Ok((out, ack_path))
}

/// Whether `r` is a late submission of `power` for `turn`: late and rejected, or held for the next
/// turn, judged while `turn` was open; or one an earlier run accepted late (`accepted`).
fn is_late_for(r: &Received, power: &str, turn: u32, accepted: &[String]) -> bool {
    r.power == power
        && r.judged_at_turn == turn
        && match r.status {
            Status::Late => true,
            Status::Held => r.for_turn == turn + 1,
            Status::Accepted => r.for_turn == turn && accepted.contains(&r.sha256),
            _ => false,
        }
}

/// Whether `r` is the message `wanted` names: its SHA-256 (or a prefix of 8 digits or more), or its
/// Message-ID with or without angle brackets.
fn names(r: &Received, wanted: &str) -> bool {
    let w = wanted.trim();
    let id = w.trim_start_matches('<').trim_end_matches('>');
    (w.len() >= 8
        && w.bytes().all(|b| b.is_ascii_hexdigit())
        && r.sha256.starts_with(&w.to_ascii_lowercase()))
        || (!id.is_empty() && r.message_id == id)
}

/// `pbem accept-late <game> <power> [--message ...] --reason ...`, or a late submission covered by a
/// moved deadline (`why`): see the module doc. Refused, with nothing changed, when the turn is closed
/// (pbem-dice/v2: the closing list was mailed) or its beacon round is out (`dice::beacon::refuse_once_out`), when no late submission of the power is on record,
/// or when a later one already stands.
pub fn accept_late(
    game: &Game,
    power: &str,
    message: Option<&str>,
    why: Standing<'_>,
) -> Result<AcceptedLate> {
    let _lock = GameLock::acquire(&game.dir)?;
    let reason = why.reason();
    if reason.trim().is_empty() {
        bail!("give the reason with --reason: it is written into the chain of records and told to the player; nothing was changed");
    }
    let turn = game.current_turn()?;
    game.refuse_if_ended(&format!("no late orders stand for turn {turn}"))?;
    // An accept-late killed midway is finished as it was begun, and only so.
    let asked = Plan {
        power: power.to_string(),
        message: String::new(),
        reason: match why {
            Standing::AcceptedLate(r) => Some(r.to_string()),
            Standing::Covered(_) => None,
        },
        covered: match why {
            Standing::Covered(how) => Some(how.to_string()),
            Standing::AcceptedLate(_) => None,
        },
    };
    let begun = planned(game, turn)?;
    if let Some(plan) = &begun {
        let named = message.is_none_or(|m| {
            ingest::load_records(game)
                .ok()
                .and_then(|all| all.into_values().find(|r| r.sha256 == plan.message))
                .is_some_and(|r| names(&r, m))
        });
        if !named
            || plan.power != asked.power
            || plan.reason != asked.reason
            || plan.covered != asked.covered
        {
            bail!(
                "an accept-late of the message {} of {} was killed midway ({} holds it): finish it first by running `{}` again. Nothing was changed.",
                plan.message,
                plan.power,
                game.printed(&plan_path(game, turn)),
                plan.command(game)
            );
        }
    }
    let message = begun.as_ref().map(|p| p.message.as_str()).or(message);
    // `france.eugene`: one player of a power with several (GITM 6.1).
    let (power, player) = match power.split_once('.') {
        Some((p, pl)) => (p, Some(pl)),
        None => (power, None),
    };
    let Some(pc) = game.config.power(power) else {
        bail!("there is no power '{power}' in game.toml; nothing was changed");
    };
    if let Some(pl) = player {
        if pc.command(pl).is_none() {
            bail!("{power} has no player '{pl}' in game.toml; nothing was changed");
        }
    }
    let of_player = |r: &Received| player.is_none_or(|pl| r.player == pl);
    if game.config.dice.scheme == DiceScheme::V2 && crate::engine::close::path(game, turn).is_file()
    {
        bail!(
            "turn {turn} is closed ({} was mailed to every player): orders accepted now would change the closing list the players hold. Nothing was changed.",
            game.printed(&crate::engine::close::path(game, turn))
        );
    }
    // Begun before the round was out, it is finished as begun.
    if let (Standing::AcceptedLate(_), None) = (why, &begun) {
        crate::dice::beacon::refuse_once_out(
            game,
            turn,
            &format!("late orders of {power} accepted"),
        )?;
    }
    let records: Vec<Received> = ingest::load_records(game)?.into_values().collect();
    let done_before: Vec<String> = acts::load(&game.dir, turn)?
        .acts
        .into_iter()
        .filter(|a| a.kind == ACCEPT_LATE)
        .filter_map(|a| a.message)
        .collect();
    let rank = |r: &Received| (r.arrival_time(), r.seq, r.sha256.clone());
    // EiA 19.2.1: a player who left a dropped power orders it no more, late or not.
    let state = game.load_state(turn)?;
    let departed = crate::game::owners::departed(&game.config, &state, &pc.id);
    let left = |r: &Received| departed.iter().any(|a| ingest::normalise(a) == r.from);
    // EiA 19.2.1 in a game of EiA, pbem's own rule in any other.
    let dropped = crate::engine::players::dropped_rule(game).cite();
    let chosen = match message {
        Some(m) => {
            let found: Vec<&Received> = records.iter().filter(|r| names(r, m)).collect();
            let r = match found.as_slice() {
                [] => bail!("no message {m} is on record in mail/received (run pbem ingest with the mailbox first); nothing was changed"),
                [r] => *r,
                _ => bail!("{m} names {} messages: give more digits of the SHA-256; nothing was changed", found.len()),
            };
            if !is_late_for(r, &pc.id, turn, &done_before) || !of_player(r) {
                bail!(
                    "message {} is not a late submission of {} for turn {turn} (it is {}{}{}): only orders of {} that arrived after the deadline of turn {turn} can be accepted late; nothing was changed",
                    r.sha256,
                    pc.id,
                    r.status.name(),
                    if r.power.is_empty() { String::new() } else { format!(", of {}", r.power) },
                    if r.for_turn > 0 { format!(", for turn {}", r.for_turn) } else { String::new() },
                    pc.id
                );
            }
            if left(r) {
                bail!(
                    "message {} came from {}, who left {} (pbem drop, {dropped}): a departed player's orders never stand; nothing was changed",
                    r.sha256,
                    r.from,
                    pc.id
                );
            }
            r.clone()
        }
        None => records
            .iter()
            .filter(|r| is_late_for(r, &pc.id, turn, &done_before) && of_player(r) && !left(r))
            .max_by_key(|r| rank(r))
            .cloned()
            .with_context(|| {
                let theirs = records
                    .iter()
                    .any(|r| is_late_for(r, &pc.id, turn, &done_before) && of_player(r));
                match theirs {
                    true => format!(
                        "the late submissions of {} for turn {turn} came from the player who left it (pbem drop, {dropped}): a departed player's orders never stand; nothing was changed",
                        pc.id
                    ),
                    false => format!(
                        "no late submission of {} for turn {turn} is on record in mail/received: run pbem ingest with the mailbox first; nothing was changed",
                        pc.id
                    ),
                }
            })?,
    };
    // A later submission that stands would still win over this one.
    // Each player of a power with several has his own orders file (his slot, `france.eugene`).
    let slot = chosen.slot();
    let standing = ingest::winners(&records, turn).remove(&slot);
    if let Some(w) = &standing {
        if w.sha256 != chosen.sha256 && rank(w) > rank(&chosen) {
            bail!(
                "a later submission of {} already stands for turn {turn} (message {}): accepting an earlier one would not change the orders; nothing was changed",
                pc.id,
                w.sha256
            );
        }
    }
    let replaces = standing.filter(|w| w.sha256 != chosen.sha256);

    let (found, filed) = reread(game, &chosen, turn)?;
    let digest = sha256_hex(filed.as_bytes());

    // 0. What it accepts, before anything changes (judged again by a moved deadline, within the
    // plan of the act that moved it, which finishes it first when run again).
    if begun.is_none() {
        let plan = Plan {
            message: chosen.sha256.clone(),
            ..asked
        };
        write_atomic(
            &plan_path(game, turn),
            crate::game::load::to_toml(&plan)?.as_bytes(),
        )?;
    }

    // 1. The act, once.
    let again = done_before.contains(&chosen.sha256);
    if !again {
        acts::append(
            game,
            turn,
            Act {
                kind: ACCEPT_LATE.into(),
                rule: "pbem accept-late".into(),
                text: format!(
                    "the late submission {} of {} (received {}) stands for turn {turn}: {reason}",
                    chosen.sha256, pc.id, chosen.arrival
                ),
                // Whose orders file: `france.eugene` for a player of a power with several, as
                // the turn's record keys it (`audit` checks it there).
                power: Some(slot.clone()),
                reason: Some(reason.clone()),
                message: Some(chosen.sha256.clone()),
                orders: Some(digest.clone()),
                ..Act::default()
            },
        )?;
    }

    // 2. The answer, then the record that names it, then the orders file the record stands for.
    let mut record = chosen.clone();
    record.status = Status::Accepted;
    record.for_turn = turn;
    record.orders_sha256 = digest;
    record.lines = found.lines.clone();
    if let Standing::Covered(_) = why {
        record.reasons.retain(|r| !ingest::is_late_reason(r, turn));
    }
    let note = why.told(turn);
    if !record.reasons.contains(&note) {
        record.reasons.push(note);
    }
    let answered = answer(
        game,
        (turn, &state),
        &records,
        &record,
        (&found, &filed),
        None,
        ("accepted", "its orders stand"),
    )?;
    let (out, ack_path) = answered;
    record.ack = out.file_name();
    let toml =
        crate::game::load::to_toml(&record).context("cannot write a received-message record")?;
    write_atomic(&ingest::record_path(game, &record.sha256), toml.as_bytes())?;
    let orders = game.player_orders_path(
        turn,
        &pc.id,
        Some(record.player.as_str()).filter(|p| !p.is_empty()),
    );
    write_atomic(&orders, filed.as_bytes())?;
    // 3. It is finished.
    let plan = plan_path(game, turn);
    std::fs::remove_file(&plan).with_context(|| format!("cannot remove {}", game.shown(&plan)))?;
    Ok(AcceptedLate {
        turn,
        power: pc.id.clone(),
        record,
        orders,
        ack: Some(ack_path),
        replaces,
        again,
    })
}
