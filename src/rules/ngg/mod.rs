//! Napoleon's Greatest Gamble (NGG), rules 10.1 to 10.9: the combat initiative loop, played by mail
//! with no interrupt. A pbem turn is one NGG turn: each player sends, with his moves, a ranked attack
//! plan and his defence orders; `resolve` runs the alternation of 10.7 over both plans.
//!
//! A turn runs: standing orders; forage markers (pbem's); the first player's moves, then the second's
//! (pbem's movement); the combat phase, 10.1-10.8 (`initiative.rs`), each combat resolved on pbem's
//! table (`combat.rs`); 10.9 and pbem's end of turn. The seed has no combat results, movement, forage,
//! force march, CC allowance or commander ratings: those are pbem's own minimal rules, their numbers in
//! `tables.toml` (`tables.rs`) and the ratings in the state, stated as pbem's in docs/rules/ngg.md.

pub mod combat;
pub mod decisions;
pub mod forecast;
pub mod initiative;
pub mod labels;
pub mod movement;
pub mod orders;
pub mod phase;
pub mod position;
#[cfg(test)]
mod rule_tests;
pub mod rules;
pub mod state;
pub mod tables;

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::diag::{Diagnostic, Source};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::config::GameConfig;
use crate::game::sight::Sight;
use crate::game::state::State;
use crate::game::Game;
use crate::rules::{OrdersCheck, PowerOrders, Resolution, Ruleset, UnitView};

use initiative::Plan;
use orders::{Context, NggOrder};
use phase::Phase;
use tables::Tables;

/// The wording of NGG's events' texts (`Ruleset::texts_wording`): 1, each power named as the scenario
/// gives it ("Grande Armée allocates 2 CC"); a turn resolved before, in wording 0, named it by its id
/// ("french allocates 2 CC"), and `audit` tells it again so.
pub const WORDING: u32 = 1;

/// Each power's name as the texts give it (id, name): the scenario's (game.toml's `name`, as the
/// welcome mail and every answer name it), none in a turn `audit` tells again in wording 0.
pub fn names(game: &Game) -> Vec<(String, String)> {
    crate::rules::power_names(game, WORDING)
}

/// The name of `power` as the texts give it (see [`names`]): its id without one.
pub fn name_of<'a>(game: &'a Game, power: &'a str) -> &'a str {
    crate::rules::power_name(game, power, WORDING)
}

/// The NGG ruleset with its tables and the game's SOP settings.
pub struct Ngg {
    pub tables: Tables,
    pub sop: BTreeMap<String, String>,
}

impl Ngg {
    pub fn load(config: &GameConfig, config_src: &Source, tables_src: &Source) -> Result<Ngg> {
        let tables: Tables = crate::rules::load_tables(tables_src, Tables::validate)?;
        let sop = crate::rules::load_sop(
            config,
            config_src,
            crate::rules::standing::check_sop::<decisions::NggPoint>,
        )?;
        Ok(Ngg { tables, sop })
    }

    /// Parses the order lines of an authenticated file.
    pub fn parse(
        &self,
        game: &Game,
        state: &State,
        lines: &[crate::orders::Line],
        power: &str,
    ) -> (Vec<crate::orders::Located<NggOrder>>, Vec<Diagnostic>) {
        let Some(ngg) = state.table::<state::NggState>() else {
            return (Vec::new(), Vec::new());
        };
        let cx = Context {
            map: &game.map,
            state,
            ngg,
            tables: &self.tables,
        };
        orders::parse_all(lines, power, &cx)
    }

    /// Resolves a turn from each power's parsed orders (also the rule tests' way in).
    pub fn run(
        &self,
        game: &Game,
        state: &State,
        parsed: &BTreeMap<String, Vec<NggOrder>>,
        dice: &mut DiceBox,
    ) -> Result<Resolution> {
        let powers: Vec<String> = game.config.power_ids().map(str::to_string).collect();
        let mut p = Phase::new(
            &game.map,
            &self.tables,
            &self.sop,
            state.clone(),
            &powers,
            dice,
        )?
        .with_names(names(game));
        let turn = p.ngg.game_turn;
        p.event(rules::TURN, "turn", None, format!("NGG game turn {turn}."));
        // Standing orders, kept until changed; each power's are its own to see.
        for (power, list) in parsed {
            for o in list {
                if let NggOrder::Standing { key, value } = o {
                    p.state
                        .standing
                        .entry(power.clone())
                        .or_default()
                        .insert(key.clone(), value.clone());
                    let text = format!("{} sets a standing order: {o}.", p.who(power));
                    p.events.push(
                        Event::new(rules::STANDING, "standing", text).seen_by([power.as_str()]),
                    );
                }
            }
        }
        let order = p.powers.clone();
        let none = Vec::new();
        for power in &order {
            for o in parsed.get(power).unwrap_or(&none) {
                if let NggOrder::Forage { hex } = o {
                    p.forage(power, hex);
                }
            }
        }
        for power in &order {
            for o in parsed.get(power).unwrap_or(&none) {
                if matches!(o, NggOrder::Move { .. }) {
                    p.move_order(power, o);
                }
            }
        }
        let plans: BTreeMap<String, Plan> = order
            .iter()
            .map(|pw| (pw.clone(), Plan::of(parsed.get(pw).unwrap_or(&none))))
            .collect();
        p.combat_phase(&plans)?;
        p.ngg.game_turn = p.ngg.game_turn.saturating_add(1);
        let (next, events) = p.finish();
        Ok(Resolution { events, next })
    }
}

impl Ruleset for Ngg {
    fn verbs(&self) -> &'static [&'static str] {
        &orders::VERBS
    }

    fn id(&self) -> &'static str {
        "ngg"
    }

    fn name(&self) -> &'static str {
        "Napoleon's Greatest Gamble"
    }

    fn texts_wording(&self) -> u32 {
        WORDING
    }

    fn wording_change(&self, _from: u32) -> &'static str {
        "its texts named each power by its id, where this one gives the power's name as the scenario does"
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
        let parsed = crate::rules::standing_orders_by_power(orders, |_, lines, power| {
            self.parse(game, state, lines, power)
        });
        self.run(game, state, &parsed, dice)
    }

    fn parse_state(&self, source: &Source) -> Result<State, crate::diag::FileError> {
        crate::game::state::parse::<state::NggState>(source)
    }

    fn check_state(&self, game: &Game, state: &State) -> Vec<Diagnostic> {
        let mut out = state::check(state, &game.config, &game.map);
        for (name, hex) in &self.tables.places {
            if game.map.find(hex).is_none() {
                out.push(
                    Diagnostic::error(
                        format!("tables.toml places '{name}' in unknown hex '{hex}'"),
                        0..0,
                    )
                    .hint("a place of [places] names a hex of map.toml"),
                );
            }
        }
        out
    }

    fn units(&self, state: &State) -> Vec<UnitView> {
        state::units(state)
    }

    fn forecast(&self, game: &Game, state: &State, source: &Source, power: &str) -> Vec<String> {
        forecast::forecast(self, game, state, source, power)
    }

    fn position(
        &self,
        game: &Game,
        state: &State,
        power: &str,
        _sees: &dyn Fn(&str) -> bool,
    ) -> Vec<String> {
        position::lines(&self.tables, state, power, &|p| {
            name_of(game, p).to_string()
        })
    }

    fn visible_areas(&self, game: &Game, _state: &State, _power: &str) -> BTreeSet<usize> {
        (0..game.map.areas.len()).collect()
    }

    /// pbem plays NGG with open information: each side sees the whole map.
    fn sight(&self) -> Sight {
        Sight::EVERYTHING
    }

    /// NGG is played on a hex map (`kind = "hex"`); pbem's minimal rules read no terrain or hexside
    /// yet: the words are for the map picture and for a referee's published tables.
    fn map_words(&self) -> Option<crate::game::map::Vocabulary<'static>> {
        Some(crate::game::map::Vocabulary {
            terrain: &["clear", "forest", "marsh", "hills", "town"],
            hexside: &["river", "road"],
            sub_terrain: &[],
            max_rating: 0,
            corner_blockers: &[],
            sub_lines: &[],
            sub_line_ends: &[],
        })
    }

    fn fog(
        &self,
        state: &mut State,
        _power: &str,
        keep: &dyn Fn(&str) -> bool,
        _sees: &dyn Fn(&str) -> bool,
    ) -> bool {
        if let Some(t) = state.table_mut::<state::NggState>() {
            t.units.retain(|u| keep(u.id()));
            return true;
        }
        false
    }

    fn strength_words(&self) -> &'static str {
        "strength points"
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
