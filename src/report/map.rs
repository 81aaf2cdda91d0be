//! What the map of one power shows at the end of a turn: every area, the control it knows, the units it
//! sees, the moves and the battles it saw. Built from the power's view only; `svg.rs` draws it and the
//! JSON report carries it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::event::Event;
use crate::engine::visibility::{Precision, Visibility};
use crate::game::Game;

use super::view::{ReportInput, UnitLine};

/// The map of one power.
#[derive(Debug, Clone, Serialize)]
pub struct MapView {
    /// Every area of the map, in map order.
    pub areas: Vec<AreaMark>,
    /// The units the power sees, by area (map order) and owner (own first, then game order).
    pub units: Vec<UnitMark>,
    /// The moves it saw.
    pub moves: Vec<MoveMark>,
    /// The battles it saw, in the order they were fought.
    pub combats: Vec<CombatMark>,
}

/// One area as the power knows it.
#[derive(Debug, Clone, Serialize)]
pub struct AreaMark {
    pub id: String,
    pub land: bool,
    /// Position on the map picture, in map units.
    pub x: i32,
    pub y: i32,
    pub city: bool,
    /// Fortress level, 0 for an open city or none.
    pub fortress: u32,
    pub depot: bool,
    /// The power whose capital it is.
    pub capital: Option<String>,
    pub port: bool,
    /// How the power sees the area at the end of the turn; none when it is out of sight.
    pub seen: Option<Precision>,
    /// Whether the power knows who controls the area.
    pub control_known: bool,
    /// The controlling power, when known (none: uncontrolled, or not known).
    pub control: Option<String>,
}

/// The units of one owner in one area, as the power sees them.
#[derive(Debug, Clone, Serialize)]
pub struct UnitMark {
    pub area: String,
    pub owner: String,
    pub precision: Precision,
    /// Corps (or approximate land forces) and their factors.
    pub corps: u32,
    pub factors: u32,
    pub leaders: u32,
    /// Fleets and their ships.
    pub fleets: u32,
    pub ships: u32,
    /// The ids of the units, when seen exactly.
    pub ids: Vec<String>,
}

/// A move the power saw: the unit went from one area to another.
#[derive(Debug, Clone, Serialize)]
pub struct MoveMark {
    pub unit: String,
    pub owner: String,
    pub from: String,
    pub to: String,
}

/// A battle the power saw, with its outcome.
#[derive(Debug, Clone, Serialize)]
pub struct CombatMark {
    pub area: String,
    /// The victorious powers, when the power saw the outcome.
    pub winners: Vec<String>,
    /// The outcome as the turn log tells it, or empty.
    pub result: String,
}

impl MapView {
    /// The map of `input.power`: its sight at the end of the turn, its units and those it sees, and
    /// the events it may see.
    pub fn build(
        game: &Game,
        input: &ReportInput<'_>,
        sight: &Visibility,
        units: &[UnitLine],
        seen: &[UnitLine],
        events: &[&Event],
    ) -> MapView {
        let power = input.power;
        let after = input.state_after;
        let control_seen: Vec<&str> = events
            .iter()
            .filter(|e| e.kind == "control")
            .filter_map(|e| e.area.as_deref())
            .collect();
        let areas = game
            .map
            .areas
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let seen = sight.precision(power, i);
                let control = after.control.get(&a.id).cloned();
                let known = a.is_land()
                    && (seen.is_some()
                        || control_seen.contains(&a.id.as_str())
                        || control
                            .as_deref()
                            .is_some_and(|c| sight.shares_with(power, c)));
                AreaMark {
                    id: a.id.clone(),
                    land: a.is_land(),
                    x: a.xy[0],
                    y: a.xy[1],
                    city: a.city.is_some(),
                    fortress: a.city.map_or(a.fort.unwrap_or(0), |c| c.fortress),
                    depot: a.depot,
                    capital: a.capital.clone(),
                    port: a.port,
                    seen,
                    control_known: known,
                    control: if known { control } else { None },
                }
            })
            .collect();
        MapView {
            areas,
            units: unit_marks(game, power, units, seen),
            moves: moves(game, input, events),
            combats: combats(game, events),
        }
    }
}

fn unit_marks(game: &Game, power: &str, units: &[UnitLine], seen: &[UnitLine]) -> Vec<UnitMark> {
    let rank = |owner: &str| -> usize {
        if owner == power {
            0
        } else {
            1 + game
                .config
                .powers
                .iter()
                .position(|p| p.id == owner)
                .unwrap_or(game.config.powers.len())
        }
    };
    let mut marks: BTreeMap<(usize, usize, String), UnitMark> = BTreeMap::new();
    for u in units.iter().chain(seen) {
        let Some(area) = game.map.find(&u.area) else {
            continue;
        };
        let m = marks
            .entry((area, rank(&u.owner), u.owner.clone()))
            .or_insert_with(|| UnitMark {
                area: game.map.area(area).id.clone(),
                owner: u.owner.clone(),
                precision: u.precision,
                corps: 0,
                factors: 0,
                leaders: 0,
                fleets: 0,
                ships: 0,
                ids: Vec::new(),
            });
        m.precision = m.precision.min(u.precision);
        match u.kind {
            "leader" => m.leaders += 1,
            "fleet" => {
                m.fleets += 1;
                m.ships += u.strength;
            }
            _ => {
                m.corps += 1;
                m.factors += u.strength;
            }
        }
        if !u.id.is_empty() {
            m.ids.push(u.id.clone());
        }
    }
    marks.into_values().collect()
}

/// The moves of the move events the power saw: from where the unit stood at the start of the turn to
/// the area the event ends in. The unit is the first word of the event's text.
fn moves(game: &Game, input: &ReportInput<'_>, events: &[&Event]) -> Vec<MoveMark> {
    let before = game.ruleset.units(input.state_before);
    let start = |id: &str| -> Option<(String, String)> {
        before
            .iter()
            .find(|u| u.id == id && u.kind != "fleet")
            .map(|u| (u.owner.clone(), u.area.clone()))
    };
    let mut out: Vec<MoveMark> = Vec::new();
    for e in events.iter().filter(|e| e.kind == "move") {
        let (Some(to), Some(unit)) = (e.area.as_ref(), e.text.split_whitespace().next()) else {
            continue;
        };
        let Some((owner, from)) = start(unit) else {
            continue;
        };
        match out.iter_mut().find(|m| m.unit == unit) {
            Some(m) => m.to = to.clone(),
            None => out.push(MoveMark {
                unit: unit.to_string(),
                owner,
                from,
                to: to.clone(),
            }),
        }
    }
    out.retain(|m| !m.from.eq_ignore_ascii_case(&m.to));
    out
}

/// The battles the power saw: each `combat` event, with the `result` event of the same area after it.
fn combats(game: &Game, events: &[&Event]) -> Vec<CombatMark> {
    let mut out: Vec<CombatMark> = Vec::new();
    for e in events {
        let Some(area) = &e.area else { continue };
        match e.kind.as_str() {
            "combat" => out.push(CombatMark {
                area: area.clone(),
                winners: Vec::new(),
                result: String::new(),
            }),
            "result" => {
                if let Some(c) = out.iter_mut().rev().find(|c| &c.area == area) {
                    // "france and bavaria win at Ulm; ...": the powers named before the verb.
                    let head = e.text.split(" win").next().unwrap_or_default();
                    c.winners = game
                        .config
                        .powers
                        .iter()
                        .filter(|p| head.split(' ').any(|w| w == p.id))
                        .map(|p| p.id.clone())
                        .collect();
                    c.result = e.text.clone();
                }
            }
            _ => {}
        }
    }
    out
}
