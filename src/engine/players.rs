//! Players who leave and players who replace them (EiA 19.2), and the missed-turn policy of the game:
//! who may send a power's orders, who receives its report, and the changes of control at the turn
//! boundary. `pbem drop` and `pbem replace` write the referee's decisions as acts of the current turn
//! (`game::acts`), which `Game::load_state` applies;
//! resolving a turn applies them and writes an event for every change, seen by every power.

use std::collections::BTreeSet;

use anyhow::Result;

use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::engine::inputs::{load_record, OrdersFileStatus};
use crate::game::config::GameConfig;
use crate::game::state::{Controlled, Player, State};
use crate::game::Game;
use crate::rule::Rule;

/// EiA 19.2.1: a power whose player leaves becomes uncontrolled, run by another power until the next
/// economic phase.
pub const DROPPED: Rule = Rule::new(
    "EiA",
    "19.2.1",
    "a power whose player leaves is controlled by another until the next economic phase",
);
/// EiA 19.2.2 (defined with the state keys it governs, `alliance_locks` and `inherited_allies`).
pub use crate::game::state::REPLACED;
/// pbem, in a game whose rules have no replacement of players (every ruleset but EiA, whose 19.2.1
/// is `DROPPED`): a power whose player leaves is run for him, by the power the referee names or by
/// its standing orders and the SOP, until a new player takes it over.
pub const DROPPED_PBEM: Rule = Rule::new(
    "pbem",
    "players/drop",
    "a power whose player leaves is run for him until a new player takes it over",
);
/// pbem, in a game whose rules have no replacement of players (EiA's is 19.2.2, `REPLACED`): a new
/// player takes control at the turn game.toml's `[replacement]` sets.
pub const REPLACED_PBEM: Rule = Rule::new(
    "pbem",
    "players/replace",
    "a new player takes control at the turn game.toml's [replacement] sets",
);

/// The rule a power whose player left is run by: EiA 19.2.1 in a game of EiA (whose ruleset names
/// a new player to the others, 19.2.2), pbem's own in any other, which no rule of EiA binds.
pub fn dropped_rule(game: &Game) -> Rule {
    if game.ruleset.new_player_named() {
        DROPPED
    } else {
        DROPPED_PBEM
    }
}

/// The rule a new player takes a power over by: EiA 19.2.2 in a game of EiA, pbem's own in any other.
pub fn replaced_rule(game: &Game) -> Rule {
    if game.ruleset.new_player_named() {
        REPLACED
    } else {
        REPLACED_PBEM
    }
}

/// pbem: the game's missed-turn policy drops a power that sends no orders for several turns.
pub const MISSED: Rule = Rule::new(
    "pbem",
    "missed-turns",
    "a power without orders for several turns is dropped",
);

/// Who plays a power, who receives its mail, whose passwords stand for it: the model's
/// (`game::owners`), computed from game.toml and the state.
pub use crate::game::owners::{password_hashes, players_of, recipients};

fn everyone(config: &GameConfig) -> BTreeSet<String> {
    config.power_ids().map(str::to_string).collect()
}

/// Applies the changes of control that resolving turn `turn` brings, into the next state, with an
/// event for each, first in the log. `orders` says which powers sent orders this turn.
pub fn advance(
    game: &Game,
    state: &State,
    turn: u32,
    orders: &[OrdersFileStatus],
    next: &mut State,
    events: &mut Vec<Event>,
    dice: &mut DiceBox,
) -> Result<()> {
    let config = &game.config;
    let all = everyone(config);
    let its = game.ruleset.without_orders().its;
    let mut out = Vec::new();
    for (power, c) in &state.controlled {
        // A controller rolled for at this resolution (EiA 14.3.1) runs the power from the next turn:
        // this turn its standing orders and the SOP do, and the roll follows in the log.
        let text = match c.by.as_deref() {
            Some(b) => format!("{power} is run by {b} this turn, until turn {} ({}).", c.until, c.reason),
            None if c.by_roll => format!(
                "{power} is run by {its} this turn (its player left); its controller until turn {} is rolled for below (EiA 14.3.1).",
                c.until
            ),
            None => format!(
                "{power} is run by {its} this turn, until turn {} ({}).",
                c.until, c.reason
            ),
        };
        out.push(
            Event::new(dropped_rule(game), "control-of-power", text)
                .seen_by(all.iter().map(String::as_str)),
        );
    }
    // The missed-turn policy.
    let r = &config.replacement;
    if r.missed_turns > 0 {
        for p in &config.powers {
            let sent = orders
                .iter()
                .any(|o| o.power == p.id && o.check.as_ref().is_some_and(|c| c.power.is_some()));
            let due = game.ruleset.expects_orders(state, &p.id);
            if sent || !due || state.controlled.contains_key(&p.id) {
                continue;
            }
            // Turns in which the power was not due to send orders (PoG: the other side's actions)
            // neither count nor break the run.
            let mut missed = 1;
            let mut t = turn;
            while missed < r.missed_turns && t > config.first_turn {
                t -= 1;
                let due = game
                    .load_state(t)
                    .map_or(true, |s| game.ruleset.expects_orders(&s, &p.id));
                if !due {
                    continue;
                }
                match load_record(game, t) {
                    Ok(rec) if !rec.orders.contains_key(&p.id) => missed += 1,
                    _ => break,
                }
            }
            if missed >= r.missed_turns {
                let until = r.next_boundary(config.first_turn, turn + 1);
                // A power is never given to itself.
                let to = r.missed_turns_to.clone().filter(|b| b != &p.id);
                let reason = format!("no orders for {missed} turns in a row");
                let who = to.clone().unwrap_or_else(|| its.into());
                let text = format!("{} sent no orders for {missed} turns: from turn {} it is run by {who} until turn {until}.", p.id, turn + 1);
                out.push(
                    Event::new(MISSED, "control-of-power", text)
                        .seen_by(all.iter().map(String::as_str)),
                );
                next.controlled.insert(
                    p.id.clone(),
                    Controlled {
                        by: to,
                        by_roll: false,
                        until,
                        reason,
                        left: crate::game::owners::own_players(config, state, &p.id),
                    },
                );
            }
        }
    }
    // The economic phase: control ends, a waiting player takes over.
    let boundary = r.next_boundary(config.first_turn, turn) == turn + 1;
    if boundary {
        for (power, c) in state.controlled.clone() {
            if c.until > turn + 1 {
                continue;
            }
            match next.incoming.remove(&power) {
                Some(player) => {
                    next.controlled.remove(&power);
                    // 19.2.2: the new player takes control at this turn's economic phase; an
                    // inherited alliance stands until three turns after this turn.
                    let lock = alliance_lock(turn + 1);
                    next.owners.insert(
                        power.clone(),
                        Player {
                            from: turn + 1,
                            ..player
                        },
                    );
                    next.alliance_locks.insert(power.clone(), lock);
                    let allies: Vec<String> = all
                        .iter()
                        .filter(|p| **p != power && next.friendly(p, &power))
                        .cloned()
                        .collect();
                    if !allies.is_empty() {
                        next.inherited_allies.insert(power.clone(), allies);
                    }
                    // EiA 19.2.2's inherited alliances are told in a game of EiA alone.
                    let text = if game.ruleset.new_player_named() {
                        format!(
                            "A new player takes control of {power} from turn {}; the alliances it inherits may not be broken before turn {lock}.",
                            turn + 1
                        )
                    } else {
                        format!(
                            "A new player takes control of {power} from turn {}.",
                            turn + 1
                        )
                    };
                    out.push(
                        Event::new(replaced_rule(game), "control-of-power", text)
                            .seen_by(all.iter().map(String::as_str)),
                    );
                }
                None => {
                    let until = r.next_boundary(config.first_turn, turn + 1);
                    next.controlled
                        .insert(power.clone(), Controlled { until, ..c.clone() });
                    let text = format!(
                        "No new player for {power}: it stays run as before until turn {until}."
                    );
                    out.push(
                        Event::new(dropped_rule(game), "control-of-power", text)
                            .seen_by(all.iter().map(String::as_str)),
                    );
                }
            }
        }
    }
    roll_for_control(game, next, dice, &mut out)?;
    events.splice(0..0, out);
    Ok(())
}

/// EiA 19.2.2: the first turn in which a new player who takes over from turn `from` may break
/// the alliances his power inherits: three turns after the turn whose economic phase he took over
/// at (`from - 1`).
pub fn alliance_lock(from: u32) -> u32 {
    from.saturating_sub(1) + 3
}

/// EiA 19.2.1, 14.3.1 (pbem's reading of the outline): the control of each power dropped without the
/// referee's choice goes to the highest of one d6 per other major power with a player of its own
/// (label `ump-control/ump=<dropped>/power=<id>`, plus its `[ump-control]` modifier of tables.toml),
/// a die of n among those tied (`ump-control-tie/ump=<dropped>`, n tied powers by id). The dice are
/// the turn's, so the roll is made when the turn is resolved; the controller runs the power from the
/// next turn.
fn roll_for_control(
    game: &Game,
    next: &mut State,
    dice: &mut DiceBox,
    out: &mut Vec<Event>,
) -> Result<()> {
    let all = everyone(&game.config);
    let modifiers = game.ruleset.control_roll_modifiers().unwrap_or_default();
    let pending: Vec<String> = next
        .controlled
        .iter()
        .filter(|(_, c)| c.by_roll)
        .map(|(p, _)| p.clone())
        .collect();
    for ump in pending {
        let rollers: Vec<&String> = all
            .iter()
            .filter(|p| **p != ump && !next.controlled.contains_key(*p))
            .collect();
        let mut rolls = Vec::new();
        let mut scores = Vec::new();
        for p in &rollers {
            let roll = dice.roll(&format!("ump-control/ump={ump}/power={p}"), &[6])?;
            let m = modifiers.get(*p).copied().unwrap_or(0);
            let total = roll.dice[0].face as i32 + m;
            scores.push(format!("{p} {}{}", roll.told(0), signed(m)));
            rolls.push((p.to_string(), total, roll));
        }
        let Some(best) = rolls.iter().map(|r| r.1).max() else {
            let text = format!("No other power with a player can take control of {ump} (EiA 19.2.1, 14.3.1): it is run by its standing orders and the SOP.");
            out.push(
                Event::new(DROPPED, "control-of-power", text)
                    .seen_by(all.iter().map(String::as_str)),
            );
            if let Some(c) = next.controlled.get_mut(&ump) {
                c.by_roll = false;
            }
            continue;
        };
        let tied: Vec<String> = rolls
            .iter()
            .filter(|r| r.1 == best)
            .map(|r| r.0.clone())
            .collect();
        let mut event_rolls: Vec<crate::engine::event::Roll> =
            rolls.into_iter().map(|r| r.2).collect();
        let winner = if tied.len() == 1 {
            tied[0].clone()
        } else {
            let roll = dice.roll(&format!("ump-control-tie/ump={ump}"), &[tied.len() as u32])?;
            let w = tied[roll.dice[0].face as usize - 1].clone();
            event_rolls.push(roll);
            w
        };
        let tie = if tied.len() > 1 {
            format!(" ({} tie at {best}, the die chooses)", tied.join(", "))
        } else {
            String::new()
        };
        let text = format!(
            "Control of {ump}, whose player left, per EiA 14.3.1 (EiA 19.2.1): {}; {winner} rolls highest{tie} and runs {ump} from turn {}.",
            scores.join(", "),
            next.turn
        );
        let mut e = Event::new(DROPPED, "control-of-power", text)
            .decided(ump.clone(), crate::decide::DecidedBy::Roll)
            .seen_by(all.iter().map(String::as_str));
        for r in event_rolls {
            e = e.roll(r);
        }
        out.push(e);
        if let Some(c) = next.controlled.get_mut(&ump) {
            c.by = Some(winner.clone());
            c.by_roll = false;
            c.reason =
                format!("its player left; {winner} won the roll for its control (EiA 14.3.1)");
        }
    }
    Ok(())
}

/// ` + 1`, ` - 2`, or nothing for 0.
fn signed(m: i32) -> String {
    match m {
        0 => String::new(),
        m if m > 0 => format!(" + {m}"),
        m => format!(" - {}", -m),
    }
}

/// A player who leaves takes his authority with him at once (EiA 19.2.1), and his orders no longer
/// stand; but after the close of a pbem-dice/v2 turn the orders of its closing list stand as they are,
/// and the turn would never resolve without them; nor, once a beacon game's round is out, may the act
/// change the list the dice are drawn from (`dice::beacon::refuse_once_out`). The act waits for the next
/// turn.
fn refuse_when_closed(game: &Game, turn: u32, act: &str, power: &str) -> Result<()> {
    let closed = crate::engine::close::path(game, turn);
    anyhow::ensure!(
        !closed.is_file(),
        "turn {turn} is closed ({} was mailed to every player): the orders on its closing list stand as they are, and a {act} would take {power_s} player's away. Resolve the turn, then {act} {power}: it holds from turn {}. Nothing was changed.",
        game.printed(&closed),
        turn + 1,
        power_s = crate::words::Possessive(power)
    );
    crate::dice::beacon::refuse_once_out(game, turn, &format!("a {act} of {power}"))
}

/// `pbem drop`: the power's player left; `by` (the referee's choice) runs it until the next economic
/// phase. Without `by`, EiA 19.2.1 gives control per 14.3.1: the roll is made when the turn is
/// resolved (`roll_for_control`); meanwhile, and in a ruleset without that roll, its standing orders
/// and the SOP run it.
pub fn drop_power(game: &Game, state: &mut State, power: &str, by: Option<&str>) -> Result<u32> {
    let config = &game.config;
    anyhow::ensure!(
        config.power(power).is_some(),
        "no power '{power}' in this game"
    );
    refuse_when_closed(game, state.turn, "drop", power)?;
    if let Some(b) = by {
        anyhow::ensure!(config.power(b).is_some(), "no power '{b}' in this game");
        anyhow::ensure!(b != power, "a power cannot control itself");
    }
    let until = config
        .replacement
        .next_boundary(config.first_turn, state.turn);
    let by_roll = by.is_none() && game.ruleset.control_roll_modifiers().is_some();
    let reason = match by {
        Some(b) => format!("its player left; the referee gave it to {b}"),
        None if by_roll => {
            "its player left; its controller is rolled for when the turn is resolved (EiA 14.3.1)"
                .to_string()
        }
        None => "its player left".to_string(),
    };
    // Who left, fixed now: game.toml's players may change later (`replace`) (EiA 19.2.1).
    let left = match state.controlled.get(power) {
        Some(c) if !c.left.is_empty() => c.left.clone(),
        _ => crate::game::owners::own_players(config, state, power),
    };
    state.controlled.insert(
        power.to_string(),
        Controlled {
            by: by.map(str::to_string),
            by_roll,
            until,
            reason,
            left,
        },
    );
    Ok(until)
}

/// `pbem replace`: a new player with a fresh password takes over `power` at the next economic phase.
pub fn replace_player(
    game: &Game,
    state: &mut State,
    power: &str,
    emails: &[String],
) -> Result<(String, u32)> {
    let config = &game.config;
    anyhow::ensure!(
        config.power(power).is_some(),
        "no power '{power}' in this game"
    );
    refuse_when_closed(game, state.turn, "replace", power)?;
    anyhow::ensure!(
        !emails.is_empty(),
        "give the new player's address with --email"
    );
    // A power with several players changes one of them by a dated entry of game.toml instead.
    anyhow::ensure!(
        !config.power(power).is_some_and(|p| p.has_commands()),
        "{power} has several players ([[power.player]] in game.toml): give one a new address or password from a turn on with a [[power.player.change]] entry (docs/REFEREE.md, \"Players under a power\")"
    );
    let password = crate::auth::fresh_password()?;
    let from = config
        .replacement
        .next_boundary(config.first_turn, state.turn);
    state.incoming.insert(
        power.to_string(),
        Player {
            players: emails.to_vec(),
            password_hash: crate::auth::hash_password(&password)?,
            from,
        },
    );
    if !state.controlled.contains_key(power) {
        state.controlled.insert(
            power.to_string(),
            Controlled {
                by: None,
                by_roll: false,
                until: from,
                reason: "its player is being replaced".into(),
                left: crate::game::owners::own_players(config, state, power),
            },
        );
    }
    Ok((password, from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eia_14_3_1_a_tie_for_control_is_broken_by_a_die_among_the_tied() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("ulm-1805");
        crate::bundled::write_scenario("ulm-1805", &dir).unwrap();
        let game = Game::load(&dir).unwrap();
        let mut state = game.load_state(1).unwrap();
        drop_power(&game, &mut state, "britain", None).unwrap();
        assert!(state.controlled["britain"].by_roll);
        // Seeds until two powers tie for the highest roll.
        for s in 0..=255u8 {
            let mut next = state.clone();
            let mut dice = DiceBox::new([s; 32]);
            let mut out = Vec::new();
            roll_for_control(&game, &mut next, &mut dice, &mut out).unwrap();
            let e = &out[0];
            if !e.text.contains(", the die chooses)") {
                continue;
            }
            let tie = e.rolls.last().unwrap();
            assert_eq!(tie.label, "ump-control-tie/ump=britain");
            let by = next.controlled["britain"].by.clone().unwrap();
            assert!(
                e.text.contains(&format!("{by} rolls highest (")),
                "{}",
                e.text
            );
            assert!(!next.controlled["britain"].by_roll);
            return;
        }
        panic!("no seed of 256 gives a tie");
    }
}
