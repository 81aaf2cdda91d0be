//! `pbem rollback`: undoes resolved turns into an archive (nothing deleted) and reopens a turn with
//! a fresh secret, a deadline ahead and a notice to every player; what the undone turns' players did
//! (drops, replacements, submissions) is undone with them. A rollback killed midway is finished by
//! running it again.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use chrono::{DateTime, Utc};

use crate::engine::due::LOCAL;
use crate::game::acts::{self, Act};
use crate::game::Game;
use crate::mail::outbox;

use super::deadline::{announce_with, fresh_secret_once, judge_late_again, move_into, Reopened};

/// `archive/rollback-<k>/rollback.toml`: what a rollback reads before it moves anything, written
/// first and removed once its notices are written, so that a rollback killed midway (its turns
/// half moved, its secret not yet new) is finished by running it again, as it was begun.
const UNDERWAY: &str = super::underway::ROLLBACK;

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
    /// The rules the old commitment of `to_turn` fixed (its `scheme.toml`): the notice names the
    /// parts the new one fixes otherwise, as `pbem rekey`'s does. Absent from a rollback begun
    /// before pbem kept them, or of a turn committed before pbem fixed its rules.
    #[serde(default)]
    old_rules: Option<crate::game::rules_fixed::Rules>,
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
        super::underway::read(game, "rollback", UNDERWAY)
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
        let rel = super::underway::next_archive(game, "rollback");
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
            old_rules: crate::game::scheme::load(game, to_turn)?.and_then(|f| f.rules),
        };
        super::underway::write(game, &rel, UNDERWAY, &plan)?;
        Ok((rel, plan))
    }

    /// The rollback in `rel` is finished.
    fn done(game: &Game, rel: &str) -> Result<()> {
        super::underway::done(game, rel, UNDERWAY)
    }
}

/// The deadline a reopened turn gets: its own if it still gives the least notice from now, else the
/// schedule's first slot after its predecessor's deadline that does (`GameConfig::schedule_slot`).
pub(super) fn reopened_deadline(
    game: &Game,
    turn: u32,
    now: DateTime<Utc>,
) -> Result<Option<String>> {
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
    super::underway::refuse(game, "no turn can be rolled back", "rollback")?;
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
    // The new commitment, and the parts of the rules it fixes otherwise than the old one, in the
    // words of `pbem rekey`'s notice.
    let now_rules = crate::game::scheme::load(&game, to_turn)?.and_then(|f| f.rules);
    let new_commitment =
        match crate::game::rules_fixed::change_told(plan.old_rules.as_ref(), now_rules.as_ref()) {
            Some(told) => format!("a new dice commitment ({told})"),
            None => "a new dice commitment".to_string(),
        };
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
        } else if mine.iter().all(|o| o.check.is_none())
            && !game.ruleset.expects_orders(&state, power)
        {
            // A power not due (PoG: the other side's action) is asked for no orders.
            format!("Turn {to_turn} is not yours to play: standing orders you send before the deadline count in it.")
        } else if mine.iter().all(|o| o.check.is_none()) {
            format!(
                "No orders of yours for turn {to_turn} are on file: send them before the deadline, or {} decide.",
                game.ruleset.without_orders().yours
            )
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
        &format!("turn {to_turn} is played again ({reason}), with {new_commitment}; orders are due {shown}"),
        &said,
        Some(&format!("Turn {to_turn} was rolled back and is played again ({reason}), with {new_commitment}")),
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
    // EiA 19.2.2 in a game of EiA, pbem's own rule in any other (`pbem players/replace`).
    let rule = crate::engine::players::replaced_rule(game).cite();
    let mut msgs = Vec::new();
    for (i, (t, a)) in undone.iter().enumerate() {
        let (Some(power), Some(incoming)) = (a.power.as_deref(), a.incoming.as_ref()) else {
            continue;
        };
        // A new player a later replace of the power put aside heard it from that replace, or
        // never had his welcome (`mail::farewell::supersede`).
        let put_aside = undone[i + 1..]
            .iter()
            .any(|(_, b)| b.kind == "replace" && b.power == a.power);
        if a.kind != "replace" || put_aside {
            continue;
        }
        // His welcome went: a ledger of it among the undone mail lists him delivered (a welcome
        // withdrawn before it went has a ledger too, with nobody in it).
        let welcome = format!("t{t:04}-welcome-{power}-");
        let welcomed = std::fs::read_dir(sent).is_ok_and(|d| {
            d.flatten().any(|e| {
                let file = e.file_name().to_string_lossy().into_owned();
                file.starts_with(&welcome)
                    && crate::game::load::read_source(&e.path(), &file)
                        .ok()
                        .and_then(|src| {
                            crate::game::load::parse_toml::<crate::mail::send::SentRecord>(&src)
                                .ok()
                        })
                        .is_some_and(|l| {
                            l.recipients.iter().any(|r| {
                                r.status == "delivered"
                                    && incoming
                                        .players
                                        .iter()
                                        .any(|p| p.eq_ignore_ascii_case(&r.address))
                            })
                        })
            })
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
        msgs.push(crate::mail::farewell::not_taking_over(
            game,
            to_turn,
            power,
            &format!("{power}-undone-{n}"),
            to,
            &format!(
                "The referee rolled the game back to turn {to_turn} ({reason}), undoing turn {t}, in which you were named {} new player ({rule}).",
                crate::words::Possessive(&name)
            ),
        ));
    }
    outbox::write_all(game, &msgs)?;
    Ok(msgs.iter().map(|m| outbox::path_of(game, m)).collect())
}
