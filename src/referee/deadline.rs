//! Deadlines a referee can trust (issue 13.3): a turn is not resolved before its deadline unless every
//! power due has its orders in (or the referee says `--early`); `pbem extend` moves one turn's deadline
//! and tells every player; `pbem rollback` undoes resolved turns into an archive and reopens a turn
//! with a fresh secret; `pbem rekey` gives the current turn a fresh secret. Each is an act of the turn
//! (`game::acts`), kept in the chain of records.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};

use crate::engine::due::LOCAL;
use crate::game::acts::{self, Act};
use crate::game::Game;
use crate::mail::outbox;

/// How `pbem extend` moves a deadline.
pub enum Move {
    /// To this local time of the game's zone, `YYYY-MM-DDTHH:MM`.
    To(String),
    /// By this long: `2d`, `36h`.
    By(String),
}

/// Reads `2d`, `36h`, `90m`.
pub fn parse_span(text: &str) -> Result<chrono::Duration> {
    let t = text.trim();
    let (n, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let n: i64 = n
        .parse()
        .ok()
        .filter(|n| *n > 0 && *n < 10_000)
        .with_context(|| format!("--by '{text}' is not a span such as 2d, 36h or 90m"))?;
    Ok(match unit {
        "d" => chrono::Duration::days(n),
        "h" => chrono::Duration::hours(n),
        "m" => chrono::Duration::minutes(n),
        _ => bail!("--by '{text}' is not a span such as 2d, 36h or 90m"),
    })
}

/// What `extend` did.
pub struct Extended {
    pub turn: u32,
    pub deadline: String,
    pub notices: Vec<PathBuf>,
    /// The late submissions the new deadline covers, judged again: they stand now.
    pub judged_again: Vec<crate::mail::late::AcceptedLate>,
    /// What the notices say of the players' changes dated by a time stamp that the new deadline
    /// moved to another turn (GITM 6.11), by power.
    pub moved_changes: std::collections::BTreeMap<String, Vec<String>>,
    /// An extension killed midway, finished by this run as it was begun (its own `--to` or
    /// `--by` left aside).
    pub finished_before: bool,
}

/// The deadline `how` moves turn `turn`'s to, checked (in the future, after the turn before's):
/// as written in acts (local time) and as shown to the players.
fn new_deadline(game: &Game, turn: u32, how: &Move) -> Result<(String, String)> {
    let tz = game
        .config
        .time_zone()
        .context("game.toml has no valid time zone")?;
    let new = match how {
        Move::To(text) => {
            let local = NaiveDateTime::parse_from_str(text.trim(), LOCAL).with_context(|| {
                format!("--to '{text}' is not a local date and time: write it as 2026-12-08T20:00 (the game's time zone, {tz})")
            })?;
            tz.from_local_datetime(&local)
                .earliest()
                .with_context(|| format!("--to '{text}' does not exist in {tz}"))?
        }
        Move::By(span) => {
            let old = game
                .config
                .deadline_of(turn)
                .context("the turn has no deadline to move")?;
            old + parse_span(span)?
        }
    };
    let now = crate::clock::now()?;
    if new.with_timezone(&Utc) <= now {
        bail!(
            "the new deadline {} is in the past (now is {}): nothing was changed",
            new.format("%Y-%m-%d %H:%M %Z"),
            now.with_timezone(&tz).format("%Y-%m-%d %H:%M %Z")
        );
    }
    // One schedule: a turn's deadline lies after the deadline of the turn before.
    if let Some(before) = turn
        .checked_sub(1)
        .filter(|t| *t >= game.config.first_turn)
        .and_then(|t| game.config.deadline_of(t))
    {
        if new <= before {
            bail!(
                "the new deadline {} is not after the deadline of turn {} ({}): nothing was changed",
                new.format("%Y-%m-%d %H:%M %Z"),
                turn - 1,
                before.format("%Y-%m-%d %H:%M %Z")
            );
        }
    }
    Ok((
        new.naive_local().format(LOCAL).to_string(),
        new.format("%A %Y-%m-%d %H:%M %Z").to_string(),
    ))
}

/// `turns/<t>/extend.toml`: an extension under way, written before its act and removed once its
/// notices are written and the late submissions it covers judged again, so that an `extend` killed
/// midway is finished by running it again (not moved a second time by its `--by`, nor told
/// twice).
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveUnderway {
    /// The new deadline, local time, and as the players read it.
    deadline: String,
    shown: String,
    reason: String,
    /// The act's number among the turn's acts: its notices are `deadline-<n>`.
    n: usize,
    /// The turns the dated changes held from before it (their moves are told in the notice).
    dated_before: std::collections::BTreeMap<String, u32>,
}

impl MoveUnderway {
    fn path(game: &Game, turn: u32) -> PathBuf {
        game.turn_dir(turn).join("extend.toml")
    }

    fn read(game: &Game, turn: u32) -> Result<Option<MoveUnderway>> {
        let path = MoveUnderway::path(game, turn);
        if !path.is_file() {
            return Ok(None);
        }
        let src = crate::game::load::read_source(&path, &game.shown(&path))?;
        Ok(Some(crate::game::load::parse_toml(&src)?))
    }
}

/// Moves the deadline of the current turn (nothing changes on a bad date) and writes a notice to
/// every player into the outbox; a power's notice names each change of its players dated by `at`
/// that the new deadline moves to another turn (GITM 6.11, `GameConfig::moved_changes`).
pub fn extend(game: &Game, how: &Move, reason: &str) -> Result<Extended> {
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    // pbem-dice/v2: after the close nobody, the referee included, changes a contribution; a later
    // deadline would ask for orders the turn no longer takes, and draw another beacon round.
    let closed = crate::engine::close::path(game, turn);
    if closed.is_file() {
        bail!(
            "turn {turn} is closed ({} was mailed to every player): it takes no more orders, so its deadline (and the beacon round it draws) no longer moves. Resolve it; to play it again, `pbem rollback` it. Nothing was changed.",
            game.printed(&closed)
        );
    }
    // An extension killed after its act is finished as begun, whatever this run's `--by` would
    // give now (the deadline it moved is the one `--by` counts from).
    let underway = MoveUnderway::read(game, turn)?;
    let finished_before = underway.is_some();
    let plan = match underway {
        Some(plan) => plan,
        None => {
            let (deadline, shown) = new_deadline(game, turn, how)?;
            let plan = MoveUnderway {
                deadline,
                shown,
                reason: reason.to_string(),
                n: acts::load(&game.dir, turn)?.acts.len() + 1,
                dated_before: game.config.dated_change_turns(),
            };
            crate::game::fsio::write_atomic(
                &MoveUnderway::path(game, turn),
                crate::game::load::to_toml(&plan)?.as_bytes(),
            )?;
            plan
        }
    };
    let (shown, reason, n, dated_before) = (
        &plan.shown,
        plan.reason.as_str(),
        plan.n,
        &plan.dated_before,
    );
    if acts::load(&game.dir, turn)?.acts.len() < n {
        acts::append(
            game,
            turn,
            Act {
                kind: "extend".into(),
                rule: "pbem extend".into(),
                text: format!("the deadline of turn {turn} moved to {shown}: {reason}"),
                deadline: Some(plan.deadline.clone()),
                reason: Some(reason.to_string()),
                ..Act::default()
            },
        )?;
    }
    let game = Game::load(&game.dir)?;
    let moved = game.config.moved_changes(dated_before);
    let notices = announce_with(
        &game,
        turn,
        &format!("deadline-{n}"),
        &format!("the deadline is moved to {shown} ({reason})"),
        &|power| moved.get(power).map(|l| l.join("\n")).unwrap_or_default(),
        None,
        &[],
    )?;
    let judged_again = judge_late_again(
        &game,
        turn,
        &format!("extended the deadline of turn {turn} to {shown}"),
    )?;
    let path = MoveUnderway::path(&game, turn);
    std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", game.shown(&path)))?;
    Ok(Extended {
        turn,
        deadline: shown.clone(),
        notices,
        judged_again,
        moved_changes: moved,
        finished_before,
    })
}

/// A submission judged late is judged again when the deadline moves past its arrival: each
/// power's latest late submission (rejected, or held for the next turn) that the new deadline
/// covers, and that no later submission of the power outranks, stands now, as `pbem accept-late`
/// files it (an act of the turn, an answer to the player); each player of a power with several
/// (GITM 6.1) on his own. The earlier late submissions it covers came in time and were replaced,
/// as on-time orders are by later ones (`late::replaced_in_time`): neither late in `status` and
/// the summary, nor held for the next turn. A pbem-dice/v2 turn already closed is left to the referee. `how`: what
/// the referee did, as the player reads it after "the referee" ([`Standing::Covered`]).
///
/// [`Standing::Covered`]: crate::mail::late::Standing::Covered
fn judge_late_again(
    game: &Game,
    turn: u32,
    how: &str,
) -> Result<Vec<crate::mail::late::AcceptedLate>> {
    use crate::mail::ingest::{self, Status};
    let Some(deadline) = game.config.deadline_of(turn) else {
        return Ok(Vec::new());
    };
    if crate::engine::close::path(game, turn).is_file() {
        return Ok(Vec::new());
    }
    let records: Vec<ingest::Received> = ingest::load_records(game)?.into_values().collect();
    let winners = ingest::winners(&records, turn);
    // EiA 19.2.1: a departed player's late mail is not judged again; it never stands.
    let state = game.load_state(turn)?;
    let left = |r: &ingest::Received| {
        crate::game::owners::departed(&game.config, &state, &r.power)
            .iter()
            .any(|a| ingest::normalise(a) == r.from)
    };
    let mut out = Vec::new();
    let slots = game.config.powers.iter().flat_map(|pc| {
        crate::engine::command::slots(pc)
            .into_iter()
            .map(|player| crate::engine::command::file_stem(&pc.id, player.as_deref()))
    });
    for slot in slots {
        // The rank `accept-late` and the winners use: arrival, then the ingest's order, then the
        // digest (two messages of one second).
        let rank = |r: &ingest::Received| (r.arrival_time(), r.seq, r.sha256.clone());
        let covered: Vec<&ingest::Received> = records
            .iter()
            .filter(|r| {
                r.slot() == slot
                    && r.judged_at_turn == turn
                    && (r.status == Status::Late
                        || (r.status == Status::Held && r.for_turn == turn + 1))
                    && r.arrival_time() <= deadline
                    && !left(r)
            })
            .collect();
        let Some(late) = covered.iter().max_by_key(|r| rank(r)) else {
            continue;
        };
        let stands = match winners.get(&slot) {
            Some(w) if rank(w) > rank(late) => w.sha256.clone(),
            _ => {
                out.push(crate::mail::late::accept_late(
                    game,
                    &slot,
                    Some(&late.sha256),
                    crate::mail::late::Standing::Covered(how),
                )?);
                late.sha256.clone()
            }
        };
        // The earlier ones came in time too, and the one that stands replaces them: late no
        // more, nor held for the next turn.
        for r in covered.iter().filter(|r| r.sha256 != stands) {
            crate::mail::late::replaced_in_time(game, turn, r, &stands, how)?;
        }
    }
    Ok(out)
}

/// Writes a notice about the current turn to every power, with its deadline and commitment of now;
/// after a new commitment (`renewed`: why it is new), a fresh receipt too (`announce_with`).
fn announce(
    game: &Game,
    turn: u32,
    key: &str,
    headline: &str,
    renewed: Option<&str>,
) -> Result<Vec<PathBuf>> {
    announce_with(game, turn, key, headline, &|_| String::new(), renewed, &[])
}

/// [`announce`], with a paragraph for each power after the headline (`said`, by power id; empty:
/// none). After a new commitment (`renewed`: why it is new), every player whose orders still stand
/// gets their receipt under it (`mail::receipt`; issue 31), to the notice's addresses; but not for
/// the orders files of `answered` (by file stem): late orders the act judged again, whose answer,
/// written under the new commitment, is their receipt (the player had none to replace).
fn announce_with(
    game: &Game,
    turn: u32,
    key: &str,
    headline: &str,
    said: &dyn Fn(&str) -> String,
    renewed: Option<&str>,
    answered: &[String],
) -> Result<Vec<PathBuf>> {
    let state = game.load_state(turn)?;
    let commitment = crate::dice::to_hex(&game.commitment(turn)?);
    let mut msgs = outbox::notices(game, turn, &commitment, &state, key, headline)?;
    for m in &mut msgs {
        let text = m.power.as_deref().map(said).unwrap_or_default();
        if !text.is_empty() {
            m.text = m.text.replacen("\n\n", &format!("\n\n{text}\n\n"), 1);
        }
    }
    if let Some(why) = renewed {
        let mut on_file = crate::engine::inputs::read_orders(game, &state, turn)?;
        on_file.retain(|o| !answered.contains(&o.stem()));
        // Whoever runs the power in the reopened turn, as `send` will address it then (a controller
        // who sent a dropped power's orders gets their receipt, not the player who takes over later).
        let to = |power: &str| crate::engine::players::recipients(&game.config, &state, power);
        let renewal = crate::mail::receipt::Renewal {
            key,
            why,
            commitment: &commitment,
            date: outbox::game_instant(game, turn.saturating_sub(1).max(game.config.first_turn)),
        };
        let receipts = crate::mail::receipt::renewed(game, turn, &on_file, &to, &renewal)?;
        msgs.extend(receipts);
    }
    outbox::write_all(game, &msgs)?;
    Ok(msgs.iter().map(|m| outbox::path_of(game, m)).collect())
}

/// What `rollback` or `rekey` did.
pub struct Reopened {
    pub turn: u32,
    pub archive: Option<String>,
    pub commitment: String,
    pub deadline: String,
    pub notices: Vec<PathBuf>,
    /// `rollback`: the late submissions the reopened turn's deadline covers, judged again.
    pub judged_again: Vec<crate::mail::late::AcceptedLate>,
}

/// A fresh secret for the unresolved turn `turn`, with its sealing secret (`engine::sealed`): the old
/// ones (kept in `keep`, the seal beside it) are never used again.
fn fresh_secret(game: &Game, turn: u32, keep: &std::path::Path) -> Result<(String, String)> {
    let old = crate::dice::to_hex(&game.commitment(turn)?);
    let secret = game.secret_path(turn);
    if secret.is_file() {
        move_into(&secret, keep)?;
    }
    let seal = game.seal_path(turn);
    if seal.is_file() {
        move_into(&seal, &keep.with_extension("seal"))?;
    }
    crate::engine::sealed::fresh_secret(game, turn)?;
    let c = crate::referee::turn::ensure_commitment(game, turn)?;
    Ok((old, crate::dice::to_hex(&c)))
}

/// [`fresh_secret`] for a rollback that a rerun may finish (`had_seal`: whether the old secret had
/// a seal beside it): the old secret and seal go into `keep` once, so that a rerun never moves a
/// new one over them, and the new secret is made unless the killed run made it. The new
/// commitment, in hex.
fn fresh_secret_once(
    game: &Game,
    turn: u32,
    keep: &std::path::Path,
    had_seal: bool,
) -> Result<String> {
    let secret = game.secret_path(turn);
    if !keep.exists() && secret.is_file() {
        move_into(&secret, keep)?;
    }
    let seal = game.seal_path(turn);
    let seal_kept = keep.with_extension("seal");
    if had_seal && !seal_kept.exists() && seal.is_file() {
        move_into(&seal, &seal_kept)?;
    }
    if !secret.is_file() {
        crate::engine::sealed::fresh_secret(game, turn)?;
    }
    let c = crate::referee::turn::ensure_commitment(game, turn)?;
    Ok(crate::dice::to_hex(&c))
}

/// `archive/rollback-<k>/rollback.toml`: what a rollback reads before it moves anything, written
/// first and removed once its notices are written, so that a rollback killed midway (its turns
/// half moved, its secret not yet new) is finished by running it again, as it was begun.
const UNDERWAY: &str = "rollback.toml";

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Underway {
    to_turn: u32,
    reason: String,
    /// The turn the game waited for: the undone turns are `to_turn` to `current - 1`.
    current: u32,
    /// The commitment of `to_turn` the players were mailed, and the SHA-256 of its record.
    old_commitment: String,
    record_sha256: String,
    /// Whether its secret had a seal beside it, and whether it was closed (pbem-dice/v2).
    had_seal: bool,
    was_closed: bool,
    /// The turns the dated changes held from (their moves are told in the notice).
    dated_before: std::collections::BTreeMap<String, u32>,
    /// The drops and replaces of the undone turns (EiA 19.2.1, 19.2.2): their players are told.
    undone: Vec<UndoneAct>,
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoneAct {
    turn: u32,
    act: Act,
}

impl Underway {
    /// The rollback under way, with its archive (`archive/rollback-<k>`), if one was killed.
    fn find(game: &Game) -> Result<Option<(String, Underway)>> {
        let mut k = 1;
        while game.dir.join(format!("archive/rollback-{k}")).exists() {
            let rel = format!("archive/rollback-{k}");
            let path = game.dir.join(&rel).join(UNDERWAY);
            if path.is_file() {
                let src = crate::game::load::read_source(&path, &game.shown(&path))?;
                return Ok(Some((rel, crate::game::load::parse_toml(&src)?)));
            }
            k += 1;
        }
        Ok(None)
    }

    /// A new rollback to `to_turn`, checked, read and written down before anything moves.
    fn begin(game: &Game, to_turn: u32, reason: &str) -> Result<(String, Underway)> {
        let first = game.config.first_turn;
        let current = game.current_turn()?;
        if to_turn < first {
            bail!("--to-turn {to_turn} is before the first turn ({first}): nothing was changed");
        }
        if to_turn >= current || !game.is_resolved(to_turn) {
            bail!(
                "turn {to_turn} is not resolved (the game waits for turn {current}): there is nothing to roll back; nothing was changed"
            );
        }
        if reason.trim().is_empty() {
            bail!("give the reason with --reason: every player is told it; nothing was changed");
        }
        // The first archive not taken (one a rollback killed before its first file holds
        // nothing but a temporary file).
        let unused = |dir: &std::path::Path| {
            std::fs::read_dir(dir).is_ok_and(|mut d| {
                d.all(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with(".tmp-")))
            })
        };
        let mut k = 1;
        while game.dir.join(format!("archive/rollback-{k}")).exists()
            && !unused(&game.dir.join(format!("archive/rollback-{k}")))
        {
            k += 1;
        }
        let rel = format!("archive/rollback-{k}");
        let old_record = crate::engine::inputs::load_record(game, to_turn)?;
        let plan = Underway {
            to_turn,
            reason: reason.to_string(),
            current,
            old_commitment: crate::dice::to_hex(&game.commitment(to_turn)?),
            record_sha256: crate::game::record::sha256_hex(
                crate::game::load::to_toml(&old_record)?.as_bytes(),
            ),
            had_seal: game.seal_path(to_turn).is_file(),
            was_closed: crate::engine::close::path(game, to_turn).is_file(),
            dated_before: game.config.dated_change_turns(),
            undone: players_acts_after(game, to_turn)?
                .into_iter()
                .map(|(turn, act)| UndoneAct { turn, act })
                .collect(),
        };
        crate::game::fsio::write_atomic(
            &game.dir.join(&rel).join(UNDERWAY),
            crate::game::load::to_toml(&plan)?.as_bytes(),
        )?;
        Ok((rel, plan))
    }

    /// The rollback in `rel` is finished.
    fn done(game: &Game, rel: &str) -> Result<()> {
        let path = game.dir.join(rel).join(UNDERWAY);
        std::fs::remove_file(&path)
            .with_context(|| format!("cannot remove {}", game.shown(&path)))?;
        crate::game::fsio::sync_dir(&game.dir.join(rel))
    }
}

/// Moves a file or folder to `to`, making its parent.
fn move_into(from: &std::path::Path, to: &std::path::Path) -> Result<()> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::rename(from, to)
        .with_context(|| format!("cannot move {} to {}", from.display(), to.display()))
}

/// The deadline a reopened turn gets: its own if it still gives the least notice from now, else the
/// schedule's first slot after its predecessor's deadline that does (`GameConfig::schedule_slot`).
fn reopened_deadline(game: &Game, turn: u32, now: DateTime<Utc>) -> Result<Option<String>> {
    let Some(d) = game.config.deadline_of(turn) else {
        return Ok(None);
    };
    let earliest = now + game.config.least_notice();
    if d.with_timezone(&Utc) >= earliest {
        return Ok(None);
    }
    let before = turn
        .checked_sub(1)
        .filter(|t| *t >= game.config.first_turn)
        .and_then(|t| game.config.deadline_of(t));
    let next = game
        .config
        .schedule_slot(turn, before, Some(earliest))
        .context("the schedule gives no deadline after now")?;
    Ok(Some(next.naive_local().format(LOCAL).to_string()))
}

/// `pbem rollback --to-turn N`: turns N and later, resolved, are undone into
/// `archive/rollback-<k>/` (nothing deleted); turn N waits for orders again with a fresh secret and
/// commitment (its old secret was revealed in its reports), a deadline ahead, and a notice to every
/// player. The act is written into turn N's `acts.toml`, which its next record chains.
pub fn rollback(game: &Game, to_turn: u32, reason: &str) -> Result<Reopened> {
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let (rel, plan) = match Underway::find(game)? {
        // A rollback killed midway: finished as it was begun.
        Some((rel, plan)) => {
            if plan.to_turn != to_turn {
                bail!(
                    "a rollback to turn {} was interrupted ({rel}/{UNDERWAY}): finish it first with `pbem rollback --to-turn {}`; nothing was changed",
                    plan.to_turn,
                    plan.to_turn
                );
            }
            (rel, plan)
        }
        None => Underway::begin(game, to_turn, reason)?,
    };
    let archive = game.dir.join(&rel);
    let (current, reason, dated_before, undone_acts, was_closed) = (
        plan.current,
        plan.reason.as_str(),
        &plan.dated_before,
        &plan.undone,
        plan.was_closed,
    );
    let undone_acts: Vec<(u32, Act)> = undone_acts
        .iter()
        .map(|u| (u.turn, u.act.clone()))
        .collect();
    // A replace of an undone turn is undone in game.toml too: the acts are the record.
    crate::game::config_edit::undo_replacements(game, to_turn + 1)?;
    // The resolved turn N: what resolving it wrote, and its closing list and beacon
    // (pbem-dice/v2), which the reopened turn, taking orders again, makes anew.
    let turn_dir = game.turn_dir(to_turn);
    for name in [
        "record.toml",
        "log.toml",
        "summary.txt",
        "reports",
        "close.toml",
        "beacon.toml",
    ] {
        let p = turn_dir.join(name);
        if p.exists() {
            move_into(&p, &archive.join(format!("turns/{to_turn}/{name}")))?;
        }
    }
    // The sealed rolls published of the undone turns (`pbem unseal`): their seeds are undone.
    for t in to_turn..=current {
        let p = crate::engine::sealed::path_of(game, t);
        if p.exists() {
            move_into(&p, &archive.join(format!("unsealed/{t}.txt")))?;
        }
    }
    // Every later turn: its state, commitment, acts, outputs, orders and secret (each turn on its
    // own: a rerun finds some of them moved already).
    for t in to_turn + 1..=current {
        if game.turn_dir(t).exists() {
            move_into(&game.turn_dir(t), &archive.join(format!("turns/{t}")))?;
        }
        if game.orders_dir(t).exists() {
            move_into(&game.orders_dir(t), &archive.join(format!("orders/{t}")))?;
        }
        if game.secret_path(t).exists() {
            move_into(
                &game.secret_path(t),
                &archive.join(format!("secret/{t}.key")),
            )?;
        }
        if game.seal_path(t).exists() {
            move_into(
                &game.seal_path(t),
                &archive.join(format!("secret/{t}.seal")),
            )?;
        }
    }
    // Their mail, which the re-resolved turns write again under the same names. A batch of
    // answers (`outbox_store`) holding one of them goes whole into the archive, its other messages
    // first written back as files of their own.
    let outbox_dir = outbox::dir(game);
    let messages = crate::mail::send::outbox_messages(game)?;
    let made_by_undone = |name: &str| {
        let Some(n) = name
            .strip_prefix('t')
            .and_then(|r| r.split_once('-'))
            .and_then(|(n, _)| n.parse::<u32>().ok())
        else {
            return false;
        };
        // Of turn N: its reports and summary, its closing mail and its reminders, which named
        // the deadline it no longer has (the reopened turn is reminded of its own).
        n > to_turn
            || (n == to_turn
                && ["-report-", "-summary", "-closing-", "-reminder-"]
                    .iter()
                    .any(|k| name.contains(k)))
    };
    let mut batches = std::collections::BTreeSet::new();
    for m in messages.iter().filter(|m| made_by_undone(&m.name)) {
        let name = &m.name;
        if m.alone() {
            move_into(&m.at.file, &archive.join("mail/outbox").join(name))?;
        } else {
            batches.insert(m.at.file.clone());
        }
        let ledger = crate::mail::send::sent_dir(game)
            .join(format!("{}.toml", name.trim_end_matches(".eml")));
        if ledger.is_file() {
            move_into(
                &ledger,
                &archive
                    .join("mail/sent")
                    .join(ledger.file_name().unwrap_or_default()),
            )?;
        }
    }
    for batch in batches {
        for m in messages
            .iter()
            .filter(|m| m.at.file == batch && !made_by_undone(&m.name))
        {
            crate::game::fsio::write_atomic(&outbox_dir.join(&m.name), &m.read()?)?;
        }
        let name = batch.file_name().unwrap_or_default();
        move_into(&batch, &archive.join("mail/outbox").join(name))?;
    }
    // The act, once: a rerun after it finds it written.
    let written = acts::load(&game.dir, to_turn)?
        .acts
        .into_iter()
        .find(|a| a.kind == "rollback" && a.archive.as_deref() == Some(rel.as_str()));
    let (old, new) = match written {
        Some(a) => (
            a.old_commitment.unwrap_or_default(),
            a.new_commitment.unwrap_or_default(),
        ),
        None => {
            let new = fresh_secret_once(
                game,
                to_turn,
                &archive.join(format!("secret/{to_turn}.key")),
                plan.had_seal,
            )?;
            let now = crate::clock::now()?;
            let deadline = reopened_deadline(game, to_turn, now)?;
            acts::append(
                game,
                to_turn,
                Act {
                    kind: "rollback".into(),
                    rule: "pbem rollback".into(),
                    text: format!(
                        "turn {to_turn} reopened: the turns from {to_turn} on went to {rel} (record of turn {to_turn}: SHA-256 {}); its secret was revealed, so it has a fresh one",
                        plan.record_sha256
                    ),
                    deadline: deadline.clone(),
                    reason: Some(reason.to_string()),
                    old_commitment: Some(plan.old_commitment.clone()),
                    new_commitment: Some(new.clone()),
                    archive: Some(rel.clone()),
                    ..Act::default()
                },
            )?;
            (plan.old_commitment.clone(), new)
        }
    };
    let game = Game::load(&game.dir)?;
    let shown = game.config.deadline_shown(to_turn);
    // The act's number names its notices: the same on a rerun, whatever acts came after it.
    let position = |acts: &[Act]| {
        acts.iter()
            .position(|a| a.kind == "rollback" && a.archive.as_deref() == Some(rel.as_str()))
            .unwrap_or(acts.len().saturating_sub(1))
    };
    let n = position(&acts::load(&game.dir, to_turn)?.acts) + 1;
    let undone = if current > to_turn + 1 {
        format!("turns {to_turn} to {}", current - 1)
    } else {
        format!("turn {to_turn}")
    };
    let name_of = |power: &str| {
        game.config
            .power(power)
            .map_or(power.to_string(), |p| p.name.clone())
    };
    let replaced: Vec<String> = undone_acts
        .iter()
        .filter(|(_, a)| a.kind == "replace")
        .filter_map(|(_, a)| a.power.as_deref().map(name_of))
        .collect();
    let void = format!(
        "Void: the reports of {undone} already mailed, and the dice commitment of turn {to_turn} mailed before ({old}){}{}; the new commitment is below.",
        match was_closed {
            true => format!(" with its closing list (pbem-dice/v2: turn {to_turn} takes orders again, and is closed anew at its deadline)"),
            false => String::new(),
        },
        match replaced.is_empty() {
            true => String::new(),
            false => format!(", and the notice of a new player for {}", replaced.join(", ")),
        }
    );
    // Late submissions the reopened turn's deadline covers stand now, before the notice says what
    // is on file.
    let judged_again = judge_late_again(
        &game,
        to_turn,
        &format!("reopened turn {to_turn} (pbem rollback) with the deadline {shown}"),
    )?;
    // The orders files they filed, whose answers are their receipts under the new commitment (a
    // rerun finds those the killed run filed among the acts after the rollback).
    let answered: Vec<String> = {
        let acts = acts::load(&game.dir, to_turn)?.acts;
        acts[position(&acts)..]
            .iter()
            .filter(|a| a.kind == acts::ACCEPT_LATE)
            .filter_map(|a| a.power.clone())
            .collect()
    };
    let voided = void_undone_submissions(&game, to_turn, &rel)?;
    let moved = game.config.moved_changes(dated_before);
    let state = game.load_state(to_turn)?;
    let on_file = crate::engine::inputs::read_orders(&game, &state, to_turn)?;
    let said = |power: &str| {
        let mine: Vec<_> = on_file.iter().filter(|o| o.power == power).collect();
        let stands = mine
            .iter()
            .any(|o| o.check.as_ref().is_some_and(|c| c.power.is_some()));
        // Late orders the reopened deadline covers stand only now (their answer says so).
        let now_covered = answered
            .iter()
            .any(|slot| slot.split('.').next() == Some(power));
        let orders = if stands && now_covered {
            format!("Your orders on file for turn {to_turn}, late before, stand now: the reopened deadline covers them. Send new ones before it to replace them.")
        } else if stands {
            format!("Your orders on file for turn {to_turn} still stand: send new ones before the deadline to replace them.")
        } else if mine.iter().all(|o| o.check.is_none()) {
            format!("No orders of yours for turn {to_turn} are on file: send them before the deadline, or your standing orders and the SOP decide.")
        } else {
            format!("The orders on file for turn {to_turn} do not stand (they do not authenticate now): send them again before the deadline.")
        };
        // A drop or replace undone gives the power back to its player (EiA 19.2.1, 19.2.2).
        let back = undone_acts
            .iter()
            .filter(|(_, a)| a.power.as_deref() == Some(power))
            .map(|(t, a)| format!("the {} of turn {t}", a.kind))
            .collect::<Vec<_>>();
        let are = if back.len() > 1 { "are" } else { "is" };
        let orders = match back.is_empty() {
            true => orders,
            false => format!(
                "You play {} again: {} {are} undone with the turns rolled back.\n{orders}",
                name_of(power),
                back.join(" and ")
            ),
        };
        let orders = match voided.get(power) {
            Some(lines) => format!("{orders}\n{}", lines.join("\n")),
            None => orders,
        };
        match moved.get(power) {
            Some(lines) => format!("{void}\n{orders}\n{}", lines.join("\n")),
            None => format!("{void}\n{orders}"),
        }
    };
    let notices = announce_with(
        &game,
        to_turn,
        &format!("reopened-{n}"),
        &format!("turn {to_turn} is played again ({reason}), with a new dice commitment; orders are due {shown}"),
        &said,
        Some(&format!("Turn {to_turn} was rolled back and is played again ({reason}), with a new dice commitment")),
        &answered,
    )?;
    let mut notices = notices;
    notices.extend(replacements_undone(
        &game,
        to_turn,
        (n, reason),
        &archive.join("mail/sent"),
        &undone_acts,
    )?);
    Underway::done(&game, &rel)?;
    Ok(Reopened {
        turn: to_turn,
        archive: Some(rel),
        commitment: new,
        deadline: shown,
        notices,
        judged_again,
    })
}

/// The submissions by mail for the turns a rollback to `to_turn` undid, sent while one of them was
/// open: void, as their orders files are (moved into the archive), since the position they were
/// written for is undone. Their records say so (rejected, with the reason), so that neither
/// `status` nor the next `ingest` files them for the turn when it opens again; the late submissions
/// of `to_turn` itself, held for the turn after it, are the reopened turn's to judge again. The
/// lines that tell each power, by power id.
fn void_undone_submissions(
    game: &Game,
    to_turn: u32,
    rel: &str,
) -> Result<std::collections::BTreeMap<String, Vec<String>>> {
    use crate::mail::ingest::{self, Status};
    let mut told: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for mut r in ingest::load_records(game)?.into_values() {
        if r.for_turn <= to_turn || r.judged_at_turn <= to_turn {
            continue;
        }
        let why = format!(
            "turn {to_turn} was reopened (pbem rollback, {rel}) after it arrived: orders for turn {} sent before are void",
            r.for_turn
        );
        // Voided by this rollback before a rerun finished it: told again, not written again.
        let again = r.status == Status::Rejected && r.reasons.contains(&why);
        if !again && !matches!(r.status, Status::Accepted | Status::Held) {
            continue;
        }
        told.entry(r.power.clone()).or_default().push(format!(
            "Void too: your orders for turn {} received {} (message {}), sent before the rollback: send them again once turn {} opens.",
            r.for_turn,
            crate::mail::ack::in_zone(game, None, r.arrival_time()),
            match r.message_id.is_empty() {
                true => r.sha256.clone(),
                false => format!("<{}>", r.message_id),
            },
            r.for_turn
        ));
        if again {
            continue;
        }
        r.status = Status::Rejected;
        r.reasons.push(why);
        let toml =
            crate::game::load::to_toml(&r).context("cannot write a received-message record")?;
        crate::game::fsio::write_atomic(&ingest::record_path(game, &r.sha256), toml.as_bytes())?;
    }
    Ok(told)
}

/// The `drop` and `replace` acts of the turns after `to_turn`, with their turns, in order: what a
/// rollback to `to_turn` undoes of the game's players (EiA 19.2.1, 19.2.2).
fn players_acts_after(game: &Game, to_turn: u32) -> Result<Vec<(u32, acts::Act)>> {
    let mut out = Vec::new();
    let mut t = to_turn + 1;
    while game.turn_dir(t).exists() {
        for a in acts::load(&game.dir, t)?.acts {
            if matches!(a.kind.as_str(), "drop" | "replace") && a.power.is_some() {
                out.push((t, a));
            }
        }
        t += 1;
    }
    Ok(out)
}

/// A notice to each new player whose `replace` a rollback undid (EiA 19.2.2): he does not take the
/// power over, and the password of his welcome is void. Only a welcome delivered (its ledger among
/// the undone mail in `sent`) is answered so; a player the rollback gives the power back to is not
/// one of them (he hears it in the turn's notice). `act`: the rollback's number and reason.
fn replacements_undone(
    game: &Game,
    to_turn: u32,
    (n, reason): (usize, &str),
    sent: &std::path::Path,
    undone: &[(u32, acts::Act)],
) -> Result<Vec<PathBuf>> {
    let state = game.load_state(to_turn)?;
    let mut msgs = Vec::new();
    for (t, a) in undone.iter().filter(|(_, a)| a.kind == "replace") {
        let (Some(power), Some(incoming)) = (a.power.as_deref(), a.incoming.as_ref()) else {
            continue;
        };
        let welcome = format!("t{t:04}-welcome-{power}-");
        let welcomed = std::fs::read_dir(sent).is_ok_and(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with(&welcome))
        });
        if !welcomed {
            continue;
        }
        let now = crate::engine::players::recipients(&game.config, &state, power);
        let to: Vec<String> = incoming
            .players
            .iter()
            .filter(|p| !now.iter().any(|q| q.eq_ignore_ascii_case(p)))
            .cloned()
            .collect();
        if to.is_empty() {
            continue;
        }
        let name = game
            .config
            .power(power)
            .map_or(power.to_string(), |p| p.name.clone());
        msgs.push(outbox::Outgoing {
            // To him as written: game.toml no longer names him for the power.
            kind: outbox::Kind::Farewell,
            turn: to_turn,
            power: None,
            player: None,
            key: format!("{power}-undone-{n}"),
            to,
            subject: format!(
                "[{}] turn {to_turn}: you do not take over {name}",
                game.config.game
            ),
            text: format!(
                "The referee rolled the game back to turn {to_turn} ({reason}), undoing turn {t}, in which you were named {name}'s new player (EiA 19.2.2).\n\n\
                 You do not take {name} over: the welcome you had is void, and so is its password. The referee will write to you if he hands you a power again.\n"
            ),
            html: None,
            attachments: Vec::new(),
            in_reply_to: None,
            date: outbox::game_instant(game, to_turn),
        });
    }
    outbox::write_all(game, &msgs)?;
    Ok(msgs.iter().map(|m| outbox::path_of(game, m)).collect())
}

/// `pbem rekey`: the current turn gets a fresh secret and commitment, announced to every player (a
/// demo's secrets are public; a secret that leaked is never used).
pub fn rekey(game: &Game, reason: &str) -> Result<Reopened> {
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    // pbem-dice/v2: after the close the orders, the entropy and the beacon's round are fixed and
    // known to the referee; a secret drawn now could be drawn to choose the dice.
    let closed = crate::engine::close::path(game, turn);
    if closed.is_file() {
        bail!(
            "turn {turn} is closed ({} was mailed to every player): its orders and entropy are fixed, and a secret drawn now, knowing them (and the beacon), could be chosen to steer the dice. Resolve it with the secret it was committed to; to play it again with a fresh one, `pbem rollback` it after. Nothing was changed.",
            game.printed(&closed)
        );
    }
    let mut k = 1;
    while game.dir.join(format!("archive/rekey-{k}")).exists() {
        k += 1;
    }
    let rel = format!("archive/rekey-{k}");
    let (old, new) = fresh_secret(
        game,
        turn,
        &game.dir.join(format!("{rel}/secret/{turn}.key")),
    )?;
    acts::append(
        game,
        turn,
        Act {
            kind: "rekey".into(),
            rule: "pbem rekey".into(),
            text: format!("turn {turn} has a fresh dice secret: {reason}"),
            reason: Some(reason.to_string()),
            old_commitment: Some(old),
            new_commitment: Some(new.clone()),
            archive: Some(rel.clone()),
            ..Act::default()
        },
    )?;
    let game = Game::load(&game.dir)?;
    let shown = game.config.deadline_shown(turn);
    let n = acts::load(&game.dir, turn)?.acts.len();
    let notices = announce(
        &game,
        turn,
        &format!("rekey-{n}"),
        &format!("a new dice commitment for turn {turn} ({reason})"),
        Some(&format!(
            "Turn {turn} has a new dice secret and commitment ({reason})"
        )),
    )?;
    Ok(Reopened {
        turn,
        archive: Some(rel),
        commitment: new,
        deadline: shown,
        notices,
        judged_again: Vec::new(),
    })
}
