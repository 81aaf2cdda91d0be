//! What one player of GITM sees at the end of a turn (`Ruleset::sighting`), every form of his report
//! made from it:
//!
//! - GITM 4.6: on the strategic map, what the active units of his own command see (a power of one
//!   player: all its units);
//! - GITM 1.4, 4.1: units of his side (his power's other commands, the powers actively allied to
//!   his) as they are, up to 3 squares from one of his units (an army headquarters 5; in peace or
//!   truce 5 and 10);
//! - GITM 4.1: every other unit up to 1 square away (light cavalry 2; in peace or truce 3), only
//!   approximately: a count in 4.1's words ("a division") and the letters I, C, A, H, noisy as the
//!   scouts' own 4.1 event says them (the same sealed roll);
//! - GITM 2.5, 4.2: in a square of his own units, the brigades his side sighted on its tactical map
//!   (the turn's 4.2 events told to him), by their identity alone.
//!
//! No figure of a unit not of his side (men, quality, experience, morale, fatigue, supply) is in it.

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::event::Event;
use crate::game::map::grid::Square;
use crate::game::map::{GridMap, Topology};
use crate::game::sight::{Force, Precision, Sighting, Viewer};
use crate::game::state::State;
use crate::game::Game;

use super::detection;
use super::movement::distance;
use super::state::{Brigade, GitmState};

/// The word of an approximate GITM force on the map and in the JSON report.
pub const FORCE: &str = "force";

/// GITM 4.1, 4.2, 4.6, 1.4: what `viewer` sees of `state` at the end of a turn whose events are
/// `events` (see the module's doc).
pub fn sighting(game: &Game, state: &State, events: &[Event], viewer: &Viewer<'_>) -> Sighting {
    let (Some(g), Some(map)) = (state.table::<GitmState>(), super::grid_map(game)) else {
        return Sighting::default();
    };
    let campaign = g.season.is_campaign();
    let square = |b: &Brigade| map.parse_spot(b.at()).ok().map(|s| s.square);
    let mine = |b: &Brigade| b.power() == viewer.power && (viewer.own)(b.id());
    // His eyes: the active units of his command, with their ranges for friends and for others.
    let eyes: Vec<(Square, (u32, u32))> = g
        .brigades
        .iter()
        .filter(|b| mine(b) && !b.inactive)
        .filter_map(|b| Some((square(b)?, detection::ranges(b.kind(), campaign))))
        .collect();
    let within = |s: Square, range: fn((u32, u32)) -> u32| {
        eyes.iter()
            .filter(|(e, r)| distance(*e, s) <= range(*r))
            .map(|(e, _)| distance(*e, s))
            .min()
    };
    let sighted = sighted_on_tactical_maps(events, viewer.power);
    let noises = noises(events, viewer.power);
    let at: BTreeSet<Square> = eyes.iter().map(|(e, _)| *e).collect();
    // GITM 1.3: whose each square and city is, every player knows.
    let mut out = Sighting {
        public_control: true,
        ..Sighting::default()
    };
    for (e, r) in &eyes {
        for s in around(map, *e, r.1) {
            let q = if at.contains(&s) {
                Precision::Exact
            } else {
                Precision::Approximate
            };
            if let Some(i) = game.map.find(&map.place_name(s)) {
                let p = out.places.entry(i).or_insert(q);
                *p = (*p).max(q);
            }
        }
    }
    // Others seen from afar, by square and owner, in the order first met.
    let mut afar: BTreeMap<(Square, String), Vec<&Brigade>> = BTreeMap::new();
    let mut order = Vec::new();
    for (i, b) in g.brigades.iter().enumerate() {
        if mine(b) {
            continue;
        }
        let Some(s) = square(b) else { continue };
        if state.friendly(viewer.power, b.power()) {
            // GITM 1.4, 4.1: his side, counted exactly, within the range for friends.
            if within(s, |r| r.0).is_some() {
                out.units.push((i, Precision::Exact));
            }
            continue;
        }
        if within(s, |r| r.1).is_none() {
            continue;
        }
        // GITM 2.5, 4.2: in a square of his own units, the brigades his side sighted there.
        let name = map.place_name(s);
        if at.contains(&s) && sighted.contains(&(name.as_str(), b.id())) {
            out.units.push((i, Precision::Identity));
        }
        let key = (s, b.power().to_string());
        if !afar.contains_key(&key) {
            order.push(key.clone());
        }
        afar.entry(key).or_default().push(b);
    }
    for key in order {
        let units = &afar[&key];
        let name = map.place_name(key.0);
        // No noise when the turn rolled none for the square.
        let (count, letters) = noises.get(name.as_str()).copied().unwrap_or((3, 3));
        let n = detection::noisy_count(units.len() as u32, count);
        out.forces.push(Force {
            area: name,
            owner: key.1.clone(),
            kind: FORCE,
            words: format!(
                "{} ({}), an approximate count (GITM 4.1)",
                detection::count_word(n),
                detection::letters(units, letters)
            ),
        });
    }
    out
}

/// The squares at most `range` squares from `at` on the map.
fn around(map: &GridMap, at: Square, range: u32) -> Vec<Square> {
    let r = range.min(u32::from(u16::MAX)) as i64;
    let mut out = Vec::new();
    for dr in -r..=r {
        for dc in -r..=r {
            let (col, row) = (i64::from(at.col) + dc, i64::from(at.row) + dr);
            if let (Ok(col), Ok(row)) = (u16::try_from(col), u16::try_from(row)) {
                if col < map.columns() && row < map.rows() {
                    out.push(Square { col, row });
                }
            }
        }
    }
    out
}

/// The faces of the sealed rolls that put noise into `power`'s 4.1 sightings
/// (`gitm/t<turn>/sight/<power>/<square>`, `turn::detection`), by square: the report words a force
/// as the scouts' event does.
fn noises<'e>(events: &'e [Event], power: &str) -> BTreeMap<&'e str, (u32, u32)> {
    let mark = format!("/sight/{power}/");
    events
        .iter()
        .flat_map(|e| &e.rolls)
        .filter_map(|r| {
            let (_, square) = r.label.split_once(&mark)?;
            Some((square, (r.dice.first()?.face, r.dice.get(1)?.face)))
        })
        .collect()
}

/// GITM 4.2: the brigades (square, id) that the 4.2 events told to `power` sighted on the tactical
/// map of that square, as each event names them (`Event::units`).
fn sighted_on_tactical_maps<'e>(events: &'e [Event], power: &str) -> BTreeSet<(&'e str, &'e str)> {
    events
        .iter()
        .filter(|e| e.rule == "GITM 4.2" && e.visible_to.contains(power))
        .filter_map(|e| {
            let area = e.area.as_deref()?;
            Some(e.units.iter().map(move |id| (area, id.as_str())))
        })
        .flatten()
        .collect()
}
