//! `pbem extend`: moves one turn's deadline (not before its predecessor's, never a closed one's) and
//! tells every player; an extension killed midway is finished by running it again.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use chrono::{DurationRound, NaiveDateTime, TimeZone, Utc};

use crate::engine::due::LOCAL;
use crate::game::acts::{self, Act};
use crate::game::Game;

use super::deadline::{announce_with, judge_late_again};

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
        .with_context(|| {
            format!("--by '{text}' is not a span such as 2d, 36h or 90m: it moves the deadline later; to move it earlier, give the new one with --to")
        })?;
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

/// The deadline `how` moves turn `turn`'s to, checked (in the future, after the turn before's, not
/// the present one; earlier than the present one only with the game's least notice from now, as
/// `new` and `turn` give a deadline they announce): as written in acts (local time) and as shown
/// to the players.
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
    let show = |d: &chrono::DateTime<chrono_tz::Tz>| d.format("%Y-%m-%d %H:%M %Z").to_string();
    if new.with_timezone(&Utc) <= now {
        bail!(
            "the new deadline {} is in the past (now is {}): nothing was changed",
            new.format("%Y-%m-%d %H:%M %Z"),
            now.with_timezone(&tz).format("%Y-%m-%d %H:%M %Z")
        );
    }
    if let Some(present) = game.config.deadline_of(turn) {
        if new == present {
            bail!(
                "the new deadline {} is the present one: nothing was changed",
                show(&new)
            );
        }
        // Players plan by the deadline they were told: one brought forward gives them the least
        // notice a deadline announced now would (`GameConfig::least_notice`).
        let notice = game.config.least_notice();
        let earliest = now + notice;
        if new < present && new.with_timezone(&Utc) < earliest {
            // Shown to the minute, rounded up: the minute shown is one `--to` takes.
            let whole = earliest
                .duration_trunc(chrono::Duration::minutes(1))
                .unwrap_or(earliest);
            let earliest = if whole < earliest {
                whole + chrono::Duration::minutes(1)
            } else {
                whole
            };
            bail!(
                "the new deadline {} is earlier than the present one ({}) and less than the game's least notice ({} hours, game.toml [deadline] least_notice_hours) away: the earliest it may be brought forward to now is {}. Nothing was changed.",
                show(&new),
                show(&present),
                notice.num_hours(),
                show(&earliest.with_timezone(&tz))
            );
        }
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
        super::underway::extend_path(game, turn)
    }

    fn read(game: &Game, turn: u32) -> Result<Option<MoveUnderway>> {
        super::underway::read_plan(game, &MoveUnderway::path(game, turn))
    }
}

/// Withdraws the reminders of turn `turn` not sent yet but those of the deadline extend act `n`
/// set: they name a deadline the turn no longer has (its players are reminded of the new one,
/// `mail::ack::reminder`).
fn withdraw_old_reminders(game: &Game, turn: u32, n: usize, shown: &str) -> Result<()> {
    let prefix = format!("t{turn:04}-reminder-");
    let own = format!("-deadline-{n}");
    let why = format!("the deadline it names moved to {shown} (pbem extend)");
    let names = crate::mail::outbox_store::messages(&crate::mail::outbox::dir(game))?;
    for name in names.keys().filter(|m| m.starts_with(&prefix)) {
        let stem = name.trim_end_matches(".eml");
        if stem.ends_with(&own) || stem.contains(&format!("{own}-")) {
            continue;
        }
        crate::mail::send::withdraw(game, name, &why)?;
    }
    Ok(())
}

/// Moves the deadline of the current turn (nothing changes on a bad date) and writes a notice to
/// every player into the outbox; a power's notice names each change of its players dated by `at`
/// that the new deadline moves to another turn (GITM 6.11, `GameConfig::moved_changes`).
pub fn extend(game: &Game, how: &Move, reason: &str) -> Result<Extended> {
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    game.refuse_if_ended(&format!("the deadline of turn {turn} cannot move"))?;
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
            // Another act killed midway is finished first.
            super::underway::refuse(
                game,
                &format!("the deadline of turn {turn} cannot move"),
                "",
            )?;
            // pbem-dice/v2 with a beacon: once the round of the deadline is out, a later deadline
            // would draw the dice again from another round, the referee knowing the first.
            crate::dice::beacon::refuse_once_out(game, turn, "a move of its deadline")?;
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
    withdraw_old_reminders(&game, turn, n, shown)?;
    let judged_again = judge_late_again(
        &game,
        turn,
        &format!("extended the deadline of turn {turn} to {shown}"),
    )?;
    super::underway::finished(&game, &MoveUnderway::path(&game, turn))?;
    Ok(Extended {
        turn,
        deadline: shown.clone(),
        notices,
        judged_again,
        moved_changes: moved,
        finished_before,
    })
}
