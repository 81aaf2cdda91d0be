//! Where the orders of a turn stand, power by power (issue 4.8): for `pbem status`, and for
//! `pbem remind`, which writes a reminder to every power with no orders in yet.

use std::path::PathBuf;

use anyhow::Result;

use super::ingest::{self, Received, Status};
use super::outbox::{self, Kind};
use crate::game::fsio::write_atomic;
use crate::game::Game;

/// How a power's orders for a turn are in.
#[derive(Debug, Clone)]
pub enum OrdersIn {
    /// From mail: the submission that counts.
    Mail(Box<Received>),
    /// An orders file placed by hand (no submission from mail).
    File(PathBuf),
    Missing,
    /// None in, and none due: the power does not play this turn (PoG: the other side's action).
    NotDue,
}

/// One power's line of `pbem status` (one player's, for a power with several).
#[derive(Debug, Clone)]
pub struct PowerStatus {
    pub power: String,
    /// The player, for a power with several (`engine::command`).
    pub player: Option<String>,
    pub name: String,
    pub orders: OrdersIn,
    /// Submissions for this turn that do not stand (rejected or late).
    pub rejected: usize,
    pub late: usize,
    /// Late submissions kept for the next turn.
    pub held_for_next: usize,
    /// Why the power's (player's) latest rejected submission for this turn does not stand.
    pub rejected_why: Option<String>,
    /// The power's control while its player has left (EiA 19.2.1, `pbem drop`).
    pub dropped: Option<crate::game::state::Controlled>,
}

/// What a dropped power's control means, in words: who runs it, and who sends its orders.
pub fn dropped_text(game: &Game, c: &crate::game::state::Controlled) -> String {
    let name = |p: &str| {
        game.config
            .power(p)
            .map_or(p.to_string(), |c| c.name.clone())
    };
    // EiA 19.2.1 in a game of EiA, pbem's own rule in any other (`players::dropped_rule`).
    let rule = crate::engine::players::dropped_rule(game).cite();
    let its = game.ruleset.without_orders().its;
    match &c.by {
        Some(by) => format!(
            "dropped ({rule}): run by {} until turn {}; {} player sends its orders with his own password",
            name(by),
            c.until,
            crate::words::Possessive(&name(by))
        ),
        None if c.by_roll => format!(
            "dropped ({rule}): {its} run it this turn; who runs it until turn {} is rolled for when the turn is resolved (EiA 14.3.1)",
            c.until
        ),
        None => format!(
            "dropped ({rule}): {its} run it until turn {}; nobody sends its orders",
            c.until
        ),
    }
}

impl PowerStatus {
    /// `france`, or `france.ney` for a player of a power with several.
    pub fn stem(&self) -> String {
        crate::engine::command::file_stem(&self.power, self.player.as_deref())
    }
}

/// The orders of every power for `turn`, in game.toml order (a power with several players: each
/// player's, highest rank first).
pub fn orders_status(game: &Game, turn: u32) -> Result<Vec<PowerStatus>> {
    orders_status_in(game, turn, None)
}

/// [`orders_status`], given the state of `turn` when the caller holds it (a turn being resolved:
/// at 100,000 units, reading it again took hundreds of MB); else it is read, only if a power has
/// no orders in.
pub fn orders_status_in(
    game: &Game,
    turn: u32,
    state: Option<&crate::game::state::State>,
) -> Result<Vec<PowerStatus>> {
    let records: Vec<Received> = ingest::load_records(game)?.into_values().collect();
    let winners = ingest::winners(&records, turn);
    let read = std::cell::OnceCell::new();
    let the_state = || state.or_else(|| read.get_or_init(|| game.load_state(turn).ok()).as_ref());
    let due = |power: &str| {
        the_state().is_none_or(|s| {
            game.ruleset.expects_orders(s, power)
                && s.controlled.get(power).is_none_or(|c| c.by.is_some())
        })
    };
    let mut out = Vec::new();
    let slots = game.config.powers.iter().flat_map(|p| {
        crate::engine::command::slots(p)
            .into_iter()
            .map(move |s| (p, s))
    });
    for (p, player) in slots {
        let stem = crate::engine::command::file_stem(&p.id, player.as_deref());
        let file = game.player_orders_path(turn, &p.id, player.as_deref());
        let orders = match winners.get(&stem) {
            Some(w) => OrdersIn::Mail(Box::new(w.clone())),
            None if file.is_file() => OrdersIn::File(file),
            None if !due(&p.id) => OrdersIn::NotDue,
            None => OrdersIn::Missing,
        };
        let mine = |s: Status| {
            records
                .iter()
                .filter(|r| r.slot() == stem && r.judged_at_turn == turn && r.status == s)
                .count()
        };
        out.push(PowerStatus {
            power: p.id.clone(),
            player: player.clone(),
            name: p.name.clone(),
            orders,
            rejected: mine(Status::Rejected),
            late: mine(Status::Late),
            held_for_next: records
                .iter()
                .filter(|r| r.slot() == stem && r.status == Status::Held && r.for_turn == turn + 1)
                .count(),
            rejected_why: records
                .iter()
                .filter(|r| {
                    r.slot() == stem && r.judged_at_turn == turn && r.status == Status::Rejected
                })
                .max_by_key(|r| (r.arrival_time(), r.seq))
                .map(|r| r.reasons.join("; ")),
            dropped: the_state().and_then(|s| s.controlled.get(&p.id).cloned()),
        });
    }
    Ok(out)
}

/// A reminder written (or found waiting) for a power.
#[derive(Debug, Clone)]
pub struct Reminded {
    pub power: String,
    pub path: PathBuf,
    /// False when an unsent reminder of this turn was already in the outbox.
    pub new: bool,
    /// Why a power with a file in is still due: its file does not authenticate.
    pub why: Option<String>,
}

/// Why the orders file of each power whose file is in does not stand (it does not authenticate: a
/// wrong password, a file changed by hand since it was filed), by file stem (`france`,
/// `france.ney`): such a power (player) is still due.
pub fn rejected_files(
    game: &Game,
    state: &crate::game::state::State,
    turn: u32,
) -> Result<std::collections::BTreeMap<String, String>> {
    let mut out = std::collections::BTreeMap::new();
    for o in crate::engine::inputs::read_orders(game, state, turn)? {
        let Some(check) = &o.check else { continue };
        if check.power.is_some() {
            continue;
        }
        let why = check
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map_or("it does not authenticate", |d| d.message.as_str());
        out.insert(o.stem(), format!("{} is in but rejected: {why}", o.path));
    }
    Ok(out)
}

/// Writes a reminder to the outbox for every power with no orders in for the current turn (none, or
/// a file in that does not authenticate, which the turn ignores: the reminder says why), with the
/// deadline in the player's own time zone when game.toml gives one. A reminder still unsent is not
/// doubled; once it has gone, the next run writes the next one (`-2`, `-3`, ...).
///
/// Once the deadline of the current turn has passed it writes nothing and refuses: a reminder would
/// ask for orders nobody can send in time (`send` withdraws one written before, `reminder_too_late`).
pub fn remind(game: &Game) -> Result<Vec<Reminded>> {
    let turn = game.current_turn()?;
    let now = crate::clock::now()?;
    if let Some(deadline) = game.config.deadline_of(turn) {
        if deadline.with_timezone(&chrono::Utc) <= now {
            anyhow::bail!(
                "turn {turn}'s deadline ({}) has passed (now is {}): a reminder would ask for orders no one can send in time, so none was written. Move the deadline ahead first, `pbem extend {} --to <YYYY-MM-DDTHH:MM>` (every player is told the new one), then remind again; or resolve the turn with the orders in: `pbem turn {}`.",
                game.config.deadline_shown(turn),
                now.with_timezone(&deadline.timezone()).format("%Y-%m-%d %H:%M %Z"),
                game.dir.display(),
                game.dir.display()
            );
        }
    }
    remind_with(game, true)
}

/// [`remind`], but one reminder per power and turn at most: a power reminded once of this turn
/// (sent or not) is not reminded again. What `pbem turn --unattended` writes, run every few
/// minutes.
pub fn remind_once(game: &Game) -> Result<Vec<Reminded>> {
    remind_with(game, false)
}

fn remind_with(game: &Game, again: bool) -> Result<Vec<Reminded>> {
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    game.refuse_if_ended(&format!("no reminder of turn {turn} is written"))?;
    let state = game.load_state(turn)?;
    let rejected = rejected_files(game, &state, turn)?;
    let mut out = Vec::new();
    for s in orders_status(game, turn)? {
        let why = rejected.get(&s.stem()).cloned();
        let due = match s.orders {
            OrdersIn::Missing => true,
            OrdersIn::Mail(_) | OrdersIn::File(_) => why.is_some(),
            OrdersIn::NotDue => false,
        };
        // A dropped power nobody runs has nobody to remind (EiA 19.2.1).
        let due = due && s.dropped.as_ref().is_none_or(|c| c.by.is_some());
        if !due {
            continue;
        }
        let Some(p) = game.config.power(&s.power) else {
            continue;
        };
        // A player of a power with several is reminded alone, at his own address.
        let to = match s.player.as_deref().and_then(|id| p.command(id)) {
            Some(c) => vec![c.at(turn).address],
            None => crate::engine::players::recipients(&game.config, &state, &p.id),
        };
        let player = s.player.as_deref();
        let mut n = 1;
        let mut waiting = None;
        loop {
            let m = super::ack::reminder(
                game,
                turn,
                p,
                player,
                &to,
                n,
                why.as_deref(),
                s.dropped.as_ref(),
            )?;
            let path = outbox::path_of(game, &m);
            if !path.is_file() {
                break;
            }
            if !again {
                waiting = Some(path);
                break;
            }
            let delivered = super::send::load_ledger(game, &m.file_name())?.is_some_and(|l| {
                m.to.iter().all(|to| {
                    l.recipients
                        .iter()
                        .any(|r| r.address.eq_ignore_ascii_case(to) && !r.status.is_empty())
                })
            });
            if !delivered {
                waiting = Some(path);
                break;
            }
            n += 1;
        }
        if let Some(path) = waiting {
            out.push(Reminded {
                power: s.stem(),
                path,
                new: false,
                why,
            });
            continue;
        }
        let m = super::ack::reminder(
            game,
            turn,
            p,
            player,
            &to,
            n,
            why.as_deref(),
            s.dropped.as_ref(),
        )?;
        debug_assert_eq!(m.kind, Kind::Reminder);
        let path = outbox::path_of(game, &m);
        outbox::note_written(game, &[m.file_name()])?;
        write_atomic(&path, &m.render(game)?)?;
        out.push(Reminded {
            power: s.stem(),
            path,
            new: true,
            why,
        });
    }
    Ok(out)
}
