//! Gathered In Their Masses (GITM), the land module of Napoleonic Wars OnLine: brigades on a
//! strategic grid of squares with a 15x15 tactical map under each (GITM 1-2), commanders and
//! deputies of one side ordering the same units (6.1), detection with approximate and noisy counts
//! (4), and orders in six sections (6) sent asynchronously: no interrupt, every default of 6.9 is
//! the SOP, and each decision is cited.
//!
//! The strategic part is here: the `[gitm]` state (`state.rs`), the orders (`orders.rs`), detection
//! (`detection.rs`), the geometry of strategic movement (`movement.rs`) and the turn sequence
//! (`turn.rs`); the tactical phases go through `turn::tactical_phase`, which pbem's tactical part
//! replaces. The seed has no fire, melee, casualty, morale-check, communications or supply tables:
//! where pbem needs one it is pbem's own, said so in `rules.rs` and docs/rules/gitm.md.

pub mod capture;
pub mod city_siege;
pub mod communications;
pub mod detection;
pub mod forecast;
pub mod kinds;
pub mod labels;
pub mod movement;
pub mod orders;
#[cfg(test)]
mod rule_tests;
pub mod rules;
pub mod ships;
pub mod sight;
pub mod state;
pub mod tactical;
pub mod turn;

use std::collections::BTreeSet;

use anyhow::Result;

use crate::diag::{Diagnostic, Source};
use crate::engine::dice_box::DiceBox;
use crate::game::config::GameConfig;
use crate::game::map::GridMap;
use crate::game::sight::Sight;
use crate::game::state::State;
use crate::game::Game;
use crate::rules::{OrdersCheck, PowerOrders, Resolution, Ruleset, UnitView};

use orders::{Context, GitmOrder};
use state::GitmState;
use turn::Turn;

/// GITM 1.2: the seven strategic terrains.
pub const TERRAIN: &[&str] = &[
    "open",
    "water",
    "hill",
    "forest",
    "mountain",
    "high mountain",
    "swamp",
];

/// GITM 2.2: the ten tactical terrains.
pub const TACTICAL_TERRAIN: &[&str] = &[
    "open",
    "hills",
    "high hills",
    "river",
    "ford",
    "mountain",
    "pass",
    "water",
    "forest",
    "town",
];

/// The words a GITM map is read with: 1.2 and 2.2 terrains, 2.4 ratings 0-4, 7.4 diagonals closed
/// between two water squares, 2.3 rivers (and their fords) joining across the tactical maps' edges,
/// or running into water.
pub fn vocabulary() -> crate::game::map::Vocabulary<'static> {
    crate::game::map::Vocabulary {
        terrain: TERRAIN,
        hexside: &[],
        sub_terrain: TACTICAL_TERRAIN,
        max_rating: 4,
        corner_blockers: &["water"],
        sub_lines: &["river", "ford"],
        sub_line_ends: &["water"],
    }
}

/// The GITM ruleset. It has no tables of its own yet: the seed's numbers are in the code, cited.
pub struct Gitm;

/// The grid map of a GITM game.
pub fn grid_map(game: &Game) -> Option<&GridMap> {
    match &game.geometry {
        Some(crate::game::map::AnyMap::Grid(g)) => Some(g),
        _ => None,
    }
}

impl Gitm {
    pub fn load(config: &GameConfig, config_src: &Source, _tables_src: &Source) -> Result<Gitm> {
        crate::rules::load_sop(config, config_src, |key, _| {
            Err(format!(
                "GITM has no SOP setting '{key}': its defaults are those of GITM 6.9"
            ))
        })?;
        Ok(Gitm)
    }

    /// Parses the order lines of an authenticated file.
    pub fn parse(
        &self,
        game: &Game,
        state: &State,
        lines: &[crate::orders::Line],
        power: &str,
    ) -> (Vec<crate::orders::Located<GitmOrder>>, Vec<Diagnostic>) {
        let (Some(g), Some(map)) = (state.table::<GitmState>(), grid_map(game)) else {
            return (Vec::new(), Vec::new());
        };
        orders::parse_all(
            lines,
            &Context {
                map,
                gitm: g,
                power,
            },
        )
    }
}

impl Ruleset for Gitm {
    fn verbs(&self) -> &'static [&'static str] {
        &orders::VERBS
    }

    fn id(&self) -> &'static str {
        "gitm"
    }

    fn name(&self) -> &'static str {
        "Gathered In Their Masses"
    }

    fn check_orders(&self, game: &Game, state: &State, source: &Source) -> OrdersCheck {
        crate::rules::check_orders_with(game, state, source, |p, lines| {
            self.parse(game, state, lines, p)
        })
    }

    fn resolve(
        &self,
        game: &Game,
        state: &State,
        orders: &[PowerOrders],
        dice: &mut DiceBox,
    ) -> Result<Resolution> {
        let map = grid_map(game)
            .ok_or_else(|| anyhow::anyhow!("a Gathered In Their Masses game needs a grid map"))?;
        let powers: Vec<String> = game.config.power_ids().map(str::to_string).collect();
        // In game.toml order: the powers' orders as the turn gives them.
        let all: Vec<_> = orders
            .iter()
            .flat_map(|po| {
                crate::rules::standing_orders(&po.source, &po.power, |_, lines, power| {
                    self.parse(game, state, lines, power)
                })
            })
            .collect();
        let mut t = Turn::new(map, state.clone(), orders::by_unit(&all), powers, dice)?;
        t.theatre = tactical::hook::Theatre::load(&game.rules_dir, map)?;
        t.run()?;
        let (next, events) = t.finish();
        Ok(Resolution { events, next })
    }

    fn parse_state(&self, source: &Source) -> Result<State, crate::diag::FileError> {
        crate::game::state::parse::<GitmState>(source)
    }

    fn check_state(&self, game: &Game, state: &State) -> Vec<Diagnostic> {
        let mut out = state::check(state, &game.config, grid_map(game));
        if let (Some(g), Some(map)) = (state.table::<GitmState>(), grid_map(game)) {
            out.extend(tactical::hook::check_forts(g, map));
            let powers: Vec<&str> = game.config.power_ids().collect();
            out.extend(ships::check(g, map, &powers));
        }
        out
    }

    /// GITM 7.15: `[control]` gives the Ottoman Empire's squares to `ottoman`, a state that never
    /// plays (no power in game.toml, no turn, no report); its squares are closed to all movement.
    fn stateless_owners(&self) -> &'static [&'static str] {
        &[turn::OTTOMAN]
    }

    fn units(&self, state: &State) -> Vec<UnitView> {
        state::units(state)
    }

    fn position(
        &self,
        _game: &Game,
        state: &State,
        power: &str,
        sees: &dyn Fn(&str) -> bool,
    ) -> Vec<String> {
        let Some(g) = state.table::<GitmState>() else {
            return Vec::new();
        };
        let mut out = vec![match g.season {
            state::Season::Campaign => format!(
                "Campaign turn {} of {}.",
                g.campaign_turn,
                turn::CAMPAIGN_TURNS
            ),
            state::Season::Peace => "Peace.".to_string(),
            state::Season::Truce => "Truce.".to_string(),
        }];
        // GITM 2.7: the sieges this power's side lays or stands in.
        for s in &g.sieges {
            let garrison = g
                .brigades
                .iter()
                .find(|b| !b.shattered && b.at().eq_ignore_ascii_case(s.at.get_ref()))
                .map(|b| b.power());
            let theirs = garrison.is_some_and(|p| state.friendly(power, p));
            if state.friendly(power, &s.by) || theirs {
                out.push(match g.fort_at(s.at.get_ref()) {
                    Some(f) => format!(
                        "The fort at {} is besieged by {} since turn {}: strength {} left (GITM 2.7).",
                        s.at.get_ref(),
                        s.by,
                        s.since,
                        g.fort_strength(f)
                    ),
                    None => format!(
                        "The city at {} (no fort) is besieged by {} since turn {} (GITM 2.7).",
                        s.at.get_ref(),
                        s.by,
                        s.since
                    ),
                });
            }
        }
        // GITM 7.17: the transports of this power's side and the ports they lie in.
        for s in g.ships.iter().filter(|s| state.friendly(power, s.power())) {
            out.push(format!(
                "{}, a transport of {} (capacity {}), lies in the port of {} (GITM 7.17).",
                s.id(),
                s.power(),
                s.capacity,
                s.port()
            ));
        }
        // GITM 7.5, 4.6: the battles of the turn, told to those who see their squares.
        let battles: Vec<&str> = g
            .battles
            .iter()
            .map(String::as_str)
            .filter(|b| sees(b))
            .collect();
        if !battles.is_empty() {
            out.push(format!(
                "Battles were fought last turn in {} (GITM 7.5: units there may withdraw).",
                battles.join(", ")
            ));
        }
        out
    }

    fn forecast(&self, game: &Game, state: &State, source: &Source, power: &str) -> Vec<String> {
        forecast::forecast(self, game, state, source, power)
    }

    fn visible_areas(&self, game: &Game, state: &State, power: &str) -> BTreeSet<usize> {
        let positions = crate::engine::visibility::positions(game, state);
        let v =
            crate::engine::visibility::Visibility::new(&game.map, &positions, self.sight(), &[]);
        v.seen(power).keys().copied().collect()
    }

    /// GITM 4.1: a side's units see others one square away, and only approximately (the sightings
    /// of light cavalry, two squares away, and the noisy counts are events of `turn.rs`): who is
    /// told of an event. What a report shows is [`Ruleset::sighting`].
    fn sight(&self) -> Sight {
        Sight { range: 1, exact: 0 }
    }

    /// GITM 1.4, 2.5, 4.1, 4.2, 4.6: what one player's command sees (`sight.rs`).
    fn sighting(
        &self,
        game: &Game,
        state: &State,
        events: &[crate::engine::event::Event],
        viewer: &crate::game::sight::Viewer<'_>,
    ) -> Option<crate::game::sight::Sighting> {
        Some(sight::sighting(game, state, events, viewer))
    }

    /// The words of a GITM grid map (1.2, 2.2, 2.4, 7.4).
    fn map_words(&self) -> Option<crate::game::map::Vocabulary<'static>> {
        Some(vocabulary())
    }

    /// A player's own check (`pbem check --report`) carries the brigades his side sees exactly and
    /// no other: the approximate sightings of GITM 4.1 name no brigade, and the merges of 3.5 only
    /// those he knew; the sieges (2.7) his side lays, or of a fort whose brigades it sees; the
    /// battles of last turn (7.5) in the squares he sees; his side's ships, and the others lying in
    /// ports of squares he sees (4.3).
    fn fog(
        &self,
        state: &mut State,
        power: &str,
        keep: &dyn Fn(&str) -> bool,
        sees: &dyn Fn(&str) -> bool,
    ) -> bool {
        let ours: Vec<bool> = state
            .table::<state::GitmState>()
            .map(|t| {
                t.sieges
                    .iter()
                    .map(|s| state.friendly(power, &s.by))
                    .collect()
            })
            .unwrap_or_default();
        let friendly_ships: Vec<bool> = state
            .table::<state::GitmState>()
            .map(|t| {
                t.ships
                    .iter()
                    .map(|s| state.friendly(power, s.power()))
                    .collect()
            })
            .unwrap_or_default();
        let Some(t) = state.table_mut::<state::GitmState>() else {
            return false;
        };
        let mut friendly_ships = friendly_ships.into_iter();
        t.ships
            .retain(|s| friendly_ships.next().unwrap_or(false) || sees(s.port()));
        t.battles.retain(|b| sees(b));
        t.brigades.retain(|b| keep(b.id.get_ref()));
        t.merged.retain(|id| keep(id));
        let seen: Vec<String> = t
            .brigades
            .iter()
            .map(|b| b.at().to_ascii_lowercase())
            .collect();
        let mut ours = ours.into_iter();
        t.sieges.retain(|s| {
            ours.next().unwrap_or(false) || seen.contains(&s.at.get_ref().to_ascii_lowercase())
        });
        true
    }

    fn strength_words(&self) -> &'static str {
        "men"
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    /// GITM 4.6: each player sees what his own command sees.
    fn reports_per_player(&self) -> bool {
        true
    }

    /// GITM 6.9: a unit without orders carries out the default orders (no standing orders, no SOP).
    fn without_orders(&self) -> crate::game::ruleset::WithoutOrders {
        crate::game::ruleset::WithoutOrders {
            yours: "the default orders of GITM 6.9 (hold, skirmish, front line, support within 2, draw one supply)",
            its: "the default orders of GITM 6.9",
            standing: false,
        }
    }

    /// GITM 6.9: a unit's default orders decide what its orders leave out; GITM has no SOP.
    fn decided_by_default(&self) -> &'static str {
        "by the default orders of GITM 6.9"
    }
}
