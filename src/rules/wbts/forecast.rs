//! `pbem check --forecast` for WBTS: what a player turn would do from the position as it stands,
//! before any die: each move, each attack with its chits capped, its strengths after rivers,
//! ferries, march halving and forts, and the odds column, and each fortified hexside a ship would
//! run past. It reads only what the player may know: the other side's standing orders are left out
//! (the SOP stands in for them), and no die is shown.

use super::state::WbtsState;
use crate::diag::Source;
use crate::game::state::State;
use crate::game::Game;

use super::board::Board;
use super::combat::{attack_strength, cap_chit, storm_defence};
use super::orders::WbtsOrder;
use super::state::{Unit, UnitKind};
use super::Wbts;

/// The forecast of `power`'s orders in `source`, a line each.
pub fn forecast(
    wbts: &Wbts,
    game: &Game,
    state: &State,
    source: &Source,
    power: &str,
) -> Vec<String> {
    let (Some(w), Some(map)) = (state.table::<WbtsState>(), super::hex_map(game)) else {
        return Vec::new();
    };
    if w.active() != power {
        return vec![format!(
            "Turn {} is the player turn of {}: only your standing orders count in it, and they stand until you change them.",
            state.turn,
            super::name_of(game, w.active())
        )];
    }
    let board = Board::new(map);
    let lines = crate::rules::order_lines(source);
    let (orders, _) = wbts.parse(game, state, &lines, power);
    let mut out = Vec::new();
    let mut at: std::collections::BTreeMap<String, String> = w
        .units
        .iter()
        .map(|u| (u.id().to_lowercase(), u.hex().to_string()))
        .chain(
            w.leaders
                .iter()
                .map(|l| (l.id().to_lowercase(), l.hex().to_string())),
        )
        .collect();
    for o in orders.iter().map(|o| &o.value) {
        match o {
            WbtsOrder::Move { piece, path, with } => {
                let end = path.last().cloned().unwrap_or_default();
                for p in std::iter::once(piece).chain(with) {
                    at.insert(p.to_lowercase(), end.clone());
                }
                out.push(format!("{piece} would move to {end}."));
            }
            WbtsOrder::March {
                leader,
                path,
                with,
                chit,
                ..
            } => {
                let Some((target, before)) = path.split_last() else {
                    continue;
                };
                let from = before
                    .last()
                    .cloned()
                    .or_else(|| at.get(&leader.to_lowercase()).cloned())
                    .unwrap_or_default();
                for p in std::iter::once(leader).chain(with) {
                    at.insert(p.to_lowercase(), from.clone());
                }
                let units: Vec<&super::state::Unit> =
                    with.iter().filter_map(|u| w.unit(u)).collect();
                let (s, notes) = strength(&board, &at, &units, target, true, false);
                let c = cap_chit(*chit, w.leader(leader).map(|l| l.initiative), true);
                out.push(format!(
                    "{leader} would attack {target} from march from {from} with strength {s}, chit {c}, no initiative roll and no combat supply{}.",
                    if notes.is_empty() { String::new() } else { format!(" ({})", notes.join("; ")) }
                ));
            }
            WbtsOrder::Attack(a) => {
                let Some(l) = w.leader(&a.leader) else {
                    continue;
                };
                let units: Vec<&super::state::Unit> = if a.units.is_empty() {
                    let lh = at.get(&l.id().to_lowercase()).cloned().unwrap_or_default();
                    w.units
                        .iter()
                        .filter(|u| {
                            at.get(&u.id().to_lowercase()) == Some(&lh)
                                && !u.is_train()
                                && w.commands(l, u)
                        })
                        .collect()
                } else {
                    a.units.iter().filter_map(|u| w.unit(u)).collect()
                };
                let storm = units
                    .iter()
                    .all(|u| at.get(&u.id().to_lowercase()) == Some(&a.target));
                let (strength, mut notes) = strength(&board, &at, &units, &a.target, false, storm);
                let defenders: u32 = w
                    .units_in(&a.target)
                    .filter(|u| {
                        !state.friendly(u.power(), power) && !u.is_train() && u.inside == storm
                    })
                    .map(|u| u.strength)
                    .sum();
                let defence = match (storm, w.fort.get(&a.target)) {
                    (true, Some(f)) => {
                        notes.push(format!(
                            "a storm: the garrison {}x, your losses doubled",
                            f.effective().multiple()
                        ));
                        storm_defence(defenders, f.effective().capacity(), f.effective().multiple())
                    }
                    _ => defenders,
                };
                let col = wbts.tables.odds_column(strength, defence);
                out.push(format!(
                    "{} would roll for initiative (passes on {} or less) and attack {} with strength {strength} against {defence} (odds {}), chit {}{}; both sides roll for combat supply.",
                    l.id(),
                    wbts.tables.initiative.pass_at_most.get(l.initiative as usize).copied().unwrap_or(0),
                    a.target,
                    wbts.tables.odds_name(col),
                    cap_chit(a.chit, Some(l.initiative), false),
                    if notes.is_empty() { String::new() } else { format!(" ({})", notes.join("; ")) }
                ));
            }
            WbtsOrder::Sail { ship, path, stop } => {
                let mut from = w
                    .ship(ship)
                    .map(|s| s.hex().to_string())
                    .unwrap_or_default();
                for h in path {
                    if board.has(&from, h, "fortification") {
                        out.push(if *stop {
                            format!("{ship} would stop in {from} before the fortified hexside to {h}.")
                        } else {
                            format!("{ship} would cross the fortified hexside from {from} to {h}: a naval transit attack if an enemy fort covers it.")
                        });
                        if *stop {
                            break;
                        }
                    }
                    from = h.clone();
                }
            }
            WbtsOrder::Roster { unit, leader } => {
                out.push(format!("{unit} would join {} roster.", crate::words::Possessive(leader)))
            }
            WbtsOrder::Garrison { unit, inside } => out.push(format!(
                "{unit} would move {} its fort.",
                if *inside { "inside" } else { "out of" }
            )),
            WbtsOrder::Bombard { target, ships } => out.push(format!(
                "{} would attack the garrison of {target}, doubled or tripled in its fort; any loss sinks one of them.",
                ships.join(", ")
            )),
            WbtsOrder::Engage { hex } => out.push(format!(
                "Your gunboats in {hex} would attack every enemy ship there."
            )),
            WbtsOrder::Standing { .. } => {}
        }
    }
    out
}

/// The attack strength of `units` against `target` by the resolver's own arithmetic
/// ([`attack_strength`]): the units grouped by the hex each stands in (`at`, after the lines before),
/// in the order they are named.
fn strength(
    board: &Board,
    at: &std::collections::BTreeMap<String, String>,
    units: &[&Unit],
    target: &str,
    march: bool,
    storm: bool,
) -> (u32, Vec<String>) {
    let mut by_hex: Vec<(String, Vec<(bool, u32)>)> = Vec::new();
    for u in units {
        let h = at.get(&u.id().to_lowercase()).cloned().unwrap_or_default();
        let unit = (u.kind == UnitKind::Cavalry, u.strength);
        match by_hex.iter_mut().find(|(x, _)| *x == h) {
            Some((_, v)) => v.push(unit),
            None => by_hex.push((h, vec![unit])),
        }
    }
    attack_strength(board, &by_hex, target, march, storm)
}
