//! What the map of one power shows at the end of a turn: every area (on a large map, the areas it sees
//! and their neighbours), the control it knows, the units it sees, the moves and the battles it saw. Built from the power's view only; `svg.rs` draws it and the
//! JSON report carries it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::event::Event;
use crate::engine::visibility::Precision;
use crate::game::Game;

use super::view::{Known, ReportInput, SeenPlaces, TurnSight, UnitLine};

/// A map of at most this many areas is drawn whole for every power, as a board is (a full map of
/// Europe for EiA has about 250); a larger one is cut to what each power sees, so that a report's size
/// follows what its power sees and not the size of the world.
pub const WHOLE_MAP_AREAS: usize = 500;

/// The map of one power.
#[derive(Debug, Clone, Serialize)]
pub struct MapView {
    /// Every area of the map, in map order; on a map of more than [`WHOLE_MAP_AREAS`], the areas the
    /// power sees, their neighbours, and those it knows or its units, moves and battles name.
    pub areas: Vec<AreaMark>,
    /// The units the power sees, by area (map order) and owner (own first, then game order).
    pub units: Vec<UnitMark>,
    /// The moves it saw.
    pub moves: Vec<MoveMark>,
    /// The retreats it saw (drawn, not in the JSON report, which tells them among its events).
    #[serde(skip)]
    pub retreats: Vec<MoveMark>,
    /// The units it saw arrive without seeing where from (GITM 4.5), each drawn as an arrival
    /// where it came (not in the JSON report, which tells them among its events).
    #[serde(skip)]
    pub arrivals: Vec<Arrival>,
    /// The battles it saw, in the order they were fought.
    pub combats: Vec<CombatMark>,
    /// The ruleset's marks (`Ruleset::map_marks`: PoG trenches, forts) in the areas it sees.
    pub marks: Vec<RulesetMark>,
}

/// A ruleset's mark in an area the power sees (`Ruleset::map_marks`).
#[derive(Debug, Clone, Serialize)]
pub struct RulesetMark {
    pub area: String,
    pub tag: String,
    pub about: String,
    #[serde(skip)]
    pub legend: &'static str,
}

/// One area as the power knows it.
#[derive(Debug, Clone, Serialize)]
pub struct AreaMark {
    /// The area's index in the map (not in the reports).
    #[serde(skip)]
    pub index: usize,
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
    /// The area's index in the map (not in the reports): the map finds its node by it.
    #[serde(skip)]
    pub place: usize,
    pub owner: String,
    /// The owner's place in game.toml, if it is one of the game's powers (not in the reports):
    /// the map finds its colour and name by it.
    #[serde(skip)]
    pub rank: Option<usize>,
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
    /// The areas between, for a retreat along a path (PoG 12.2.11); not in the JSON report.
    #[serde(skip)]
    pub via: Vec<String>,
}

/// A unit the power saw arrive in an area, where it came from not seen (GITM 4.5: the arrival
/// alone is told).
#[derive(Debug, Clone, Serialize)]
pub struct Arrival {
    pub unit: String,
    pub owner: String,
    pub area: String,
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
    /// The map of `input.power`: the areas it sees and their neighbours, the areas whose control it
    /// knows, its units and those it sees, and the events it may see. The rest of the world is left
    /// out, so that the map of a power costs what the power sees, whatever the size of the game.
    pub fn build(
        game: &Game,
        input: &ReportInput<'_>,
        places: &SeenPlaces,
        known: &Known<'_>,
        units: &[UnitLine],
        seen: &[UnitLine],
        events: &[&Event],
    ) -> MapView {
        let power = input.power;
        let shared = input.shared;
        let (moves, arrivals) = moves(game, input, events);
        let combats = combats(game, input.power, events);
        // The areas drawn: on a map of a board's size, all of them (the board is no secret); on a
        // larger one, those seen and their neighbours, those whose control the view knows (the
        // power's, its allies', those it saw change hands, every controlled one where control is
        // public), and those its units, moves and battles name.
        // Gathered in a list, then put in order, each once.
        let mut shown: Vec<usize> = Vec::new();
        if game.map.areas.len() <= WHOLE_MAP_AREAS {
            shown.extend(0..game.map.areas.len());
        }
        for (a, _) in places.iter() {
            shown.push(a);
            shown.extend(game.map.area(a).adjacent.iter().copied());
        }
        shown.extend(known.listed());
        // Each unit's area as the view found it, for the areas drawn and its chip.
        let unit_areas: Vec<Option<usize>> = units.iter().chain(seen).map(|u| u.place).collect();
        shown.extend(unit_areas.iter().flatten().copied());
        let named = moves
            .iter()
            .flat_map(|m| [m.from.as_str(), m.to.as_str()])
            .chain(arrivals.iter().map(|a| a.area.as_str()))
            .chain(combats.iter().map(|c| c.area.as_str()));
        shown.extend(named.filter_map(|a| game.map.find(a)));
        shown.sort_unstable();
        shown.dedup();
        let areas = shown
            .into_iter()
            .map(|i| {
                let a = game.map.area(i);
                let seen = places.precision(i);
                let control = known.control(game, i);
                AreaMark {
                    index: i,
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
                    control_known: control.is_some(),
                    control: control.flatten().map(str::to_string),
                }
            })
            .collect();
        let marks = known.marks.clone();
        MapView {
            areas,
            units: unit_marks(game, shared, power, units, seen, &unit_areas),
            moves,
            retreats: retreats(game, input, events),
            arrivals,
            combats,
            marks,
        }
    }
}

/// The chips of `units` and `seen`, whose areas are `areas` (each unit's, in the same order).
fn unit_marks(
    game: &Game,
    shared: &TurnSight,
    power: &str,
    units: &[UnitLine],
    seen: &[UnitLine],
    areas: &[Option<usize>],
) -> Vec<UnitMark> {
    let mut marks: BTreeMap<(usize, usize, &str), UnitMark> = BTreeMap::new();
    for (u, area) in units.iter().chain(seen).zip(areas) {
        let Some(area) = *area else {
            continue;
        };
        // Own units first, then by the owner's place in game.toml.
        let rank = shared.rank(&u.owner);
        let order = if u.owner == power {
            0
        } else {
            1 + rank.unwrap_or(game.config.powers.len())
        };
        let m = marks
            .entry((area, order, u.owner.as_str()))
            .or_insert_with(|| UnitMark {
                area: game.map.area(area).id.clone(),
                place: area,
                owner: u.owner.clone(),
                rank,
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
            k if crate::rules::is_naval(k) => {
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

/// The moves the power saw: each `move` or `march` event's route ([`Event::route`]), from the first
/// place its audience saw to the last; a unit told in several is drawn from the first place it was
/// seen to the last. An arrow starts only where its start was seen: a route whose start was not seen
/// (an arrival seen alone, GITM 4.5: `["", to]`) is an [`Arrival`] instead, unless an arrow of the
/// same unit was drawn; one whose end was not seen (a departure seen alone) draws nothing. The unit
/// is the first the event names (else the first word of its text), its owner the one it had at the
/// start of the turn, else the power the move was decided for.
fn moves(game: &Game, input: &ReportInput<'_>, events: &[&Event]) -> (Vec<MoveMark>, Vec<Arrival>) {
    let mut out: Vec<MoveMark> = Vec::new();
    let mut arrivals: Vec<Arrival> = Vec::new();
    for e in events
        .iter()
        .filter(|e| matches!(e.kind.as_str(), "move" | "march"))
    {
        let (Some(first), Some(last)) = (e.route.first(), e.route.last()) else {
            continue;
        };
        let Some(unit) = e
            .units
            .first()
            .map(String::as_str)
            .or_else(|| e.text_for(input.power).split_whitespace().next())
        else {
            continue;
        };
        let owner = input
            .shared
            .start_of(game, input.state_before, unit)
            .map(|(owner, _)| owner.clone())
            .or_else(|| e.decision.as_ref().map(|d| d.power.clone()));
        let Some(owner) = owner else { continue };
        if last.is_empty() {
            continue;
        }
        match out.iter_mut().find(|m| m.unit == unit) {
            Some(m) => m.to = last.clone(),
            None if first.is_empty() => {
                arrivals.retain(|a| a.unit != unit);
                arrivals.push(Arrival {
                    unit: unit.to_string(),
                    owner,
                    area: last.clone(),
                });
            }
            None if e.route.len() > 1 => out.push(MoveMark {
                unit: unit.to_string(),
                owner,
                from: first.clone(),
                to: last.clone(),
                via: Vec::new(),
            }),
            None => {}
        }
    }
    out.retain(|m| !m.from.eq_ignore_ascii_case(&m.to));
    arrivals.retain(|a| !out.iter().any(|m| m.unit == a.unit));
    (out, arrivals)
}

/// The retreats of the `retreat` events the power saw, each from the area after "from" in its text
/// (else the event's area) to the area after "to" (EiA 7.5.2.10.3 "austria retreats from Ulm to
/// Vorarlberg", PoG 12.2.11 "... retreat from Reims to Chalons (by Chateau-Thierry, Chalons)",
/// NGG's and WBTS's own retreats), by the areas its text names after "by". The owner is the power the
/// retreat was decided for, else the first word's power or the first unit's owner. An event that
/// names no area it went to (a stack that could not retreat) draws nothing.
fn retreats(game: &Game, input: &ReportInput<'_>, events: &[&Event]) -> Vec<MoveMark> {
    let area_of = |w: &str| {
        let w = w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '-'));
        game.map.find(w).map(|i| game.map.area(i).id.clone())
    };
    let mut out: Vec<MoveMark> = Vec::new();
    for e in events.iter().filter(|e| e.kind == "retreat") {
        // As the power reads it: how another power's retreat was decided is not his to know.
        let text = e.text_for(input.power);
        let words: Vec<&str> = text.split_whitespace().collect();
        let after = |key: &str| {
            words
                .windows(2)
                .find(|w| w[0] == key && area_of(w[1]).is_some())
                .and_then(|w| area_of(w[1]))
        };
        let Some(to) = after("to") else { continue };
        let Some(from) = after("from").or_else(|| e.area.as_deref().and_then(area_of)) else {
            continue;
        };
        if from == to {
            continue;
        }
        let first = words.first().map_or("", |w| crate::words::owner_of(w));
        let owner = e
            .decision
            .as_ref()
            .map(|d| d.power.clone())
            .or_else(|| input.shared.rank(first).map(|_| first.to_string()))
            .or_else(|| {
                let unit = first.trim_end_matches(',');
                input
                    .shared
                    .start_of(game, input.state_before, unit)
                    .map(|(owner, _)| owner.clone())
            });
        let Some(owner) = owner else { continue };
        // "(by Chateau-Thierry, Chalons)": the spaces it went by, the last of them where it ended.
        let mut via: Vec<String> = text
            .split_once("(by ")
            .and_then(|(_, rest)| rest.split_once(')'))
            .map_or(Vec::new(), |(list, _)| {
                list.split(", ").filter_map(&area_of).collect()
            });
        if via.last() == Some(&to) {
            via.pop();
        }
        via.retain(|a| *a != from);
        out.push(MoveMark {
            // The whole sentence, which the arrow's tooltip shows.
            unit: text.to_string(),
            owner,
            from,
            to,
            via,
        });
    }
    out
}

/// The powers `text` names, by their ids, in game order, each once: by the name the game gives a
/// power ("Great Britain", as texts name it) or by its id ("britain", as a turn told in wording 0
/// named it), each a phrase of its own words; the longest first, so that a name inside a longer one
/// ("Prussia" in "East Prussia") is not counted again. By the ids alone in a turn whose reports are
/// told in wording 1 or before (`record::REPORTS_WORDING`), as their maps found them.
fn powers_named(game: &Game, text: &str) -> Vec<String> {
    let by_name = game.config.reports_wording() >= 2;
    let mut words: Vec<(&str, usize)> = Vec::new();
    for (rank, p) in game.config.powers.iter().enumerate() {
        words.push((p.id.as_str(), rank));
        if by_name && !p.name.is_empty() {
            words.push((p.name.as_str(), rank));
        }
    }
    words.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.1.cmp(&b.1)));
    let word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let mut taken = vec![false; text.len()];
    let mut found: Vec<usize> = Vec::new();
    for (w, rank) in words {
        let at = text.match_indices(w).find(|&(i, _)| {
            let end = i + w.len();
            !text[..i].chars().next_back().is_some_and(word)
                && !text[end..].chars().next().is_some_and(word)
                && !taken[i..end].iter().any(|&t| t)
        });
        if let Some((i, _)) = at {
            taken[i..i + w.len()].iter_mut().for_each(|t| *t = true);
            found.push(rank);
        }
    }
    found.sort_unstable();
    found.dedup();
    found
        .into_iter()
        .map(|r| game.config.powers[r].id.clone())
        .collect()
}

/// The battles the power saw: each `combat` event, with the `result` event of the same area after it.
fn combats(game: &Game, power: &str, events: &[&Event]) -> Vec<CombatMark> {
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
                    // "France and Bavaria win at Ulm; ...": the powers named before the verb.
                    let text = e.text_for(power);
                    let head = text.split(" win").next().unwrap_or_default();
                    c.winners = powers_named(game, head);
                    c.result = text.to_string();
                }
            }
            _ => {}
        }
    }
    out
}
