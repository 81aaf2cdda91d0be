//! `pbem reopen`: the referee undoes `pbem end` (`referee::end`). The turn that was not played waits
//! for orders again, as it was: its orders on file stand, its deadline is kept while it still
//! gives the players the least notice from now (else the schedule's first slot that does), its
//! dice commitment is the one published before.
//!
//! An end no player heard of (none of its notices went, no mail came and was answered that the
//! game is over, the deadline stands) is undone without a word: its notices are withdrawn, the
//! messages it withdrew go after all, and the sealed lists it published are sealed again (moved into
//! `archive/reopen-<turn>-<k>/`). Otherwise every power gets a notice: the game goes on, the
//! deadline, what of his is on file; the sealed lists that went with the end stay published. A
//! moved deadline judges the late submissions it covers again, as `pbem extend` does.

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::game::acts::{self, Act};
use crate::game::Game;
use crate::mail::ingest::{self, Status};
use crate::mail::outbox_store;
use crate::mail::send;

/// What `pbem reopen` did.
pub struct Reopening {
    /// The turn waiting for orders again.
    pub turn: u32,
    /// Its deadline as the players read it, and whether the reopening moved it.
    pub deadline: String,
    pub moved: bool,
    /// Whether the end went unheard, undone without a notice.
    pub silent: bool,
    /// The messages the end withdrew that go after all, and its notices withdrawn before they went.
    pub restored: Vec<String>,
    pub withdrawn: Vec<String>,
    /// The turns whose sealed lists, published by the end, are sealed again.
    pub resealed: Vec<u32>,
    /// The notices in the outbox, one a power (none when silent).
    pub notices: Vec<PathBuf>,
}

/// Why the end's notices are withdrawn (their ledgers say it).
const WITHDRAWN: &str = "the referee reopened the game before it went";

/// `turns/<t>/reopen.toml`: a `pbem reopen` under way, written before anything changes, so that a
/// run killed midway is finished by running it again as it was begun (`referee::underway`).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Plan {
    /// The reopen's number among the turn's: its notices are `reopen-<n>`.
    n: usize,
    reason: String,
    /// Whether a player heard of the end (one of its notices went), whether the reopen goes
    /// without a word, and the deadline it sets, local time, when it moves it.
    heard: bool,
    silent: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    deadline: Option<String>,
    /// Whether the turn's orders are fixed already: closed (pbem-dice/v2), or its deadline passed
    /// with its beacon round out (`dice::beacon::refuse_once_out`), so that it is resolved next.
    fixed: bool,
    /// The turns the dated changes of players held before (`GameConfig::moved_changes`).
    dated_before: std::collections::BTreeMap<String, u32>,
}

/// Reopens a game the referee ended, for `reason`.
pub fn reopen(game: &Game, reason: &str) -> Result<Reopening> {
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    let plan_path = super::underway::reopen_path(game, turn);
    // A reopen killed midway is finished as it was begun.
    let plan = super::underway::plan_once(game, &plan_path, || {
        super::underway::refuse(game, "the game cannot be reopened", "")?;
        plan(game, turn, reason)
    })?;
    let end_act = acts::load(&game.dir, turn)?
        .acts
        .into_iter()
        .rfind(|a| a.kind == acts::END)
        .unwrap_or_default();

    // The end's notices: withdrawn while no one has them.
    let ends = acts::count(&game.dir, turn, acts::END)?;
    let notice_suffix = format!("-{}.eml", super::end::key(ends));
    let notice_prefix = format!("t{turn:04}-notice-");
    let mut withdrawn = Vec::new();
    for name in outbox_names(game)? {
        if name.starts_with(&notice_prefix)
            && name.ends_with(&notice_suffix)
            && !went(game, &name)?
            && send::withdraw(game, &name, WITHDRAWN)?
        {
            withdrawn.push(name);
        }
    }
    // What the end withdrew goes after all when no one heard of it; the welcomes of a game ended
    // before its first turn in any case (they hold the passwords).
    let mut restored = Vec::new();
    for name in &end_act.withdrawn {
        let welcome = name.starts_with(&format!("t{turn:04}-welcome-"));
        if (plan.silent || welcome) && unwithdraw(game, name, super::end::WITHDRAWN)? {
            restored.push(name.clone());
        }
    }
    // The sealed lists the end published are sealed again while no player has them.
    let mut resealed = Vec::new();
    if !plan.heard {
        let archive = game.dir.join(format!("archive/reopen-{turn}-{}", plan.n));
        for &t in &end_act.unsealed {
            let p = crate::engine::sealed::path_of(game, t);
            if p.is_file() {
                super::deadline::move_into(&p, &archive.join(format!("unsealed/{t}.txt")))?;
                resealed.push(t);
            }
        }
    }
    // The act, once (a rerun finds the game open): from it on the game goes on, with its deadline.
    if let Some(ended) = game.ended()? {
        let then = match plan.fixed {
            true => format!("turn {turn}, its orders fixed, is resolved next"),
            false => format!("turn {turn} waits for orders again"),
        };
        acts::append(
            game,
            turn,
            Act {
                kind: acts::REOPEN.into(),
                rule: "pbem reopen".into(),
                text: format!(
                    "the referee reopened the game, ended {} ({}): {then}",
                    ended.when(),
                    ended.reason
                ),
                deadline: plan.deadline.clone(),
                reason: Some(plan.reason.clone()),
                ..Act::default()
            },
        )?;
    }
    let game = Game::load(&game.dir)?;
    let shown = game.config.deadline_shown(turn);
    let notices = match plan.silent {
        true => Vec::new(),
        false => notify(&game, turn, &plan)?,
    };
    // Late orders the moved deadline covers stand now, as after `pbem extend`.
    if plan.deadline.is_some() {
        super::deadline::judge_late_again(
            &game,
            turn,
            &format!("reopened the game with the deadline {shown}"),
        )?;
    }
    super::underway::finished(&game, &plan_path)?;
    Ok(Reopening {
        turn,
        deadline: shown,
        moved: plan.deadline.is_some(),
        silent: plan.silent,
        restored,
        withdrawn,
        resealed,
        notices,
    })
}

/// What a reopen of the game ended at `turn` will do, decided before it does anything.
fn plan(game: &Game, turn: u32, reason: &str) -> Result<Plan> {
    if game.ended()?.is_none() {
        bail!(
            "the game is not over: turn {turn} waits for orders (`pbem end` ends a game). Nothing was changed."
        );
    }
    if reason.trim().is_empty() {
        bail!("give the players a reason with --reason (\"the campaign goes on\"). Nothing was changed.");
    }
    let ends = acts::count(&game.dir, turn, acts::END)?;
    let suffix = format!("-{}.eml", super::end::key(ends));
    let prefix = format!("t{turn:04}-notice-");
    let mut heard = false;
    for name in outbox_names(game)? {
        heard |= name.starts_with(&prefix) && name.ends_with(&suffix) && went(game, &name)?;
    }
    let fixed = crate::engine::close::path(game, turn).is_file()
        || crate::dice::beacon::refuse_once_out(game, turn, "").is_err();
    let deadline = match fixed {
        true => None,
        false => super::rollback::reopened_deadline(game, turn, crate::clock::now()?)?,
    };
    Ok(Plan {
        n: acts::count(&game.dir, turn, acts::REOPEN)? + 1,
        reason: reason.trim().to_string(),
        silent: !heard && over(game, turn)?.is_empty() && deadline.is_none(),
        heard,
        deadline,
        fixed,
        dated_before: game.config.dated_change_turns(),
    })
}

/// The names of the messages in the outbox.
fn outbox_names(game: &Game) -> Result<Vec<String>> {
    let dir = crate::mail::outbox::dir(game);
    Ok(match dir.is_dir() {
        true => outbox_store::messages(&dir)?.into_keys().collect(),
        false => Vec::new(),
    })
}

/// The mail that came while the game was over, answered so: its senders heard of the end.
fn over(game: &Game, turn: u32) -> Result<Vec<ingest::Received>> {
    Ok(ingest::load_records(game)?
        .into_values()
        .filter(|r| {
            r.judged_at_turn == turn
                && r.status == Status::Rejected
                && r.reasons.iter().any(|w| w.starts_with(ingest::OVER))
        })
        .collect())
}

/// Whether an outbox message reached anyone, or may have.
fn went(game: &Game, name: &str) -> Result<bool> {
    Ok(send::load_ledger(game, name)?.is_some_and(|l| {
        l.recipients
            .iter()
            .any(|r| r.status == "delivered" || r.status == send::SENDING)
    }))
}

/// Takes back a withdrawal made for `why`: the message goes with the next `pbem send`. Whether it
/// was so withdrawn.
fn unwithdraw(game: &Game, name: &str, why: &str) -> Result<bool> {
    let Some(mut ledger) = send::load_ledger(game, name)? else {
        return Ok(false);
    };
    if ledger.withdrawn != why {
        return Ok(false);
    }
    ledger.withdrawn.clear();
    ledger.complete = false;
    send::write_ledger(game, &ledger)?;
    Ok(true)
}

/// The notice to every power that the game goes on, with what of his is on file.
fn notify(game: &Game, turn: u32, plan: &Plan) -> Result<Vec<PathBuf>> {
    let shown = game.config.deadline_shown(turn);
    let state = game.load_state(turn)?;
    let on_file = crate::engine::inputs::read_orders(game, &state, turn)?;
    let over = over(game, turn)?;
    let moved = game.config.moved_changes(&plan.dated_before);
    let said = |power: &str| {
        let mine: Vec<_> = on_file.iter().filter(|o| o.power == power).collect();
        let stands = mine
            .iter()
            .any(|o| o.check.as_ref().is_some_and(|c| c.power.is_some()));
        let mut lines = Vec::new();
        if plan.fixed {
            lines.push(format!(
                "Turn {turn}'s orders were fixed at its deadline: the orders on file then are the ones played."
            ));
        } else if stands {
            lines.push(format!(
                "Your orders on file for turn {turn} still stand: send new ones before the deadline to replace them."
            ));
        } else if game.ruleset.expects_orders(&state, power) {
            lines.push(format!(
                "No orders of yours for turn {turn} are on file: send them before the deadline, or {} decide.",
                game.ruleset.without_orders().yours
            ));
        } else {
            lines.push(format!(
                "Turn {turn} is not yours to play: standing orders you send before the deadline count in it."
            ));
        }
        let mut sent: Vec<&ingest::Received> = over.iter().filter(|r| r.power == power).collect();
        sent.sort_by_key(|r| (r.arrival_time(), r.seq));
        if !sent.is_empty() && !plan.fixed {
            let when: Vec<String> = sent.iter().map(|r| r.arrival.clone()).collect();
            lines.push(format!(
                "What you sent while the game was over ({}) was kept but not read for orders: send your orders again.",
                when.join(", ")
            ));
        }
        lines.extend(moved.get(power).into_iter().flatten().cloned());
        lines.join("\n")
    };
    let reason = &plan.reason;
    let headline = match plan.fixed {
        true => format!("the game goes on ({reason}): turn {turn} is resolved next"),
        false => format!("the game goes on ({reason}): orders for turn {turn} are due {shown}"),
    };
    super::deadline::announce_with(
        game,
        turn,
        &format!("reopen-{}", plan.n),
        &headline,
        &said,
        None,
        &[],
    )
}
