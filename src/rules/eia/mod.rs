//! Empires in Arms (EiA), played by e-mail with the Standing Operating Procedures of rule 19.1.
//! This turn covers the land phase: movement, combats in random order, pursuit, retreat, control.

pub mod battle;
pub mod board;
pub mod decisions;
pub mod forecast;
pub mod insurrection;
pub mod labels;
pub mod movement;
pub mod naval;
pub mod orders;
pub mod phase;
pub mod pieces;
pub mod reinforce;
pub mod retreat;
#[cfg(test)]
mod rule_tests;
pub mod siege;
pub mod standing;
pub mod state;
pub mod tables;
#[cfg(test)]
pub mod test_fixture;
pub mod visibility;

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::diag::Source;
use crate::engine::dice_box::DiceBox;
use crate::game::config::GameConfig;
use crate::game::state::State;
use crate::game::Game;
use crate::rules::{OrdersCheck, PowerOrders, Resolution, Ruleset};

use tables::Tables;

/// The wording of EiA's events' texts (`Ruleset::texts_wording`): 1, each power named as the scenario
/// gives it ("AU-IX (Austria) moves Venice - Verona", "Great Britain wins the battle"), and a number
/// agreeing with its noun ("1 factor", "1 ship", "1 area away"); a turn resolved before, in wording
/// 0, named a power by its id ("AU-IX (austria) moves", "britain wins") and said "1 factors" where
/// its texts counted so, and `audit` tells it again so.
pub const WORDING: u32 = 1;

/// How the texts of a turn name the powers and count (see [`WORDING`]): the scenario's names and
/// numbers agreeing with their nouns, or, in a turn `audit` tells again in wording 0, the powers'
/// ids and the plural noun whatever the number where those texts had it. The default is wording 0's.
#[derive(Debug, Clone, Default)]
pub struct Words {
    names: BTreeMap<String, String>,
    agree: bool,
}

impl Words {
    /// The words of a turn of `game`, in the wording its record names, else this pbem's.
    pub fn of(game: &Game) -> Words {
        Words {
            names: crate::rules::power_names(game, WORDING)
                .into_iter()
                .collect(),
            agree: game.config.texts_wording(WORDING) >= 1,
        }
    }

    /// These words with numbers agreeing with their nouns, as this pbem counts.
    pub fn agreeing(mut self) -> Words {
        self.agree = true;
        self
    }

    /// The name of `power` as the texts give it: the scenario's, or its id in wording 0.
    pub fn who<'a>(&'a self, power: &'a str) -> &'a str {
        self.names.get(power).map_or(power, String::as_str)
    }

    /// `power`'s possessive as the texts give it: "Austria's", "austria's" in wording 0.
    pub fn whose(&self, power: &str) -> String {
        crate::words::possessive(self.who(power))
    }

    /// Several powers named one after the other, "Austria and Russia".
    pub fn all<'p>(&self, powers: impl IntoIterator<Item = &'p String>) -> String {
        powers
            .into_iter()
            .map(|p| self.who(p))
            .collect::<Vec<_>>()
            .join(" and ")
    }

    /// `n` with its noun, agreeing: "1 factor", "2 factors" (`one`, `many`); in wording 0 "1
    /// factors", as the texts that call it said.
    pub fn count(&self, n: impl Into<u64>, one: &str, many: &str) -> String {
        let n = n.into();
        if n == 1 && self.agree {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    }

    /// The verb of a subject of `n` powers: `one` for one, `many` for several ("Austria and Russia
    /// win"); `one` always in wording 0, as its texts had it.
    pub fn agree<'v>(&self, n: usize, one: &'v str, many: &'v str) -> &'v str {
        if n > 1 && self.agree {
            many
        } else {
            one
        }
    }
}

/// The EiA ruleset with its tables, the game's SOP settings and the options it names
/// (`decisions::OPTIONS`).
pub struct Eia {
    pub tables: Tables,
    pub sop: BTreeMap<String, String>,
    pub options: BTreeSet<String>,
}

impl Eia {
    pub fn load(config: &GameConfig, config_src: &Source, tables_src: &Source) -> Result<Eia> {
        let tables: Tables = crate::rules::load_tables(tables_src, Tables::validate)?;
        let options: BTreeSet<String> =
            config.options.iter().map(|o| o.get_ref().clone()).collect();
        let sop = crate::rules::load_sop(config, config_src, |key, value| {
            decisions::check_sop(key, value, &tables, &options)
        })?;
        Ok(Eia {
            tables,
            sop,
            options,
        })
    }

    fn context<'a>(&'a self, game: &'a Game, state: &'a State) -> orders::Context<'a> {
        orders::Context::new(&game.map, state, &self.tables).with_options(&self.options)
    }

    /// The standing orders of a power (`standing`) as decision `point` may read them: none for one
    /// of the SOP's absolutes (EiA 7.5.2.10.2, 7.5.2.11, 6.3.5) in a game that does not name its
    /// option, so that a standing order kept from an earlier turn or game cannot set the rule aside.
    pub fn standing_for<'s>(
        &self,
        point: &decisions::EiaPoint,
        standing: Option<&'s BTreeMap<String, String>>,
    ) -> Option<&'s BTreeMap<String, String>> {
        match decisions::option_of(point) {
            Some(option) if !self.options.contains(option) => None,
            _ => standing,
        }
    }
}

impl Ruleset for Eia {
    fn verbs(&self) -> &'static [&'static str] {
        &orders::VERBS
    }

    fn id(&self) -> &'static str {
        "eia"
    }

    fn name(&self) -> &'static str {
        "Empires in Arms"
    }

    fn texts_wording(&self) -> u32 {
        WORDING
    }

    fn wording_change(&self, _from: u32) -> &'static str {
        "its texts named each power by its id and said '1 factors', where this one gives the power's name as the scenario does and a number agreeing with its noun"
    }

    fn check_orders(&self, game: &Game, state: &State, source: &Source) -> OrdersCheck {
        crate::rules::check_orders_with(game, state, source, |p, lines| {
            orders::parse_all(source, lines, p, &self.context(game, state))
        })
    }

    /// One index of the state's units for every file (`orders::Context`).
    fn checker<'a>(
        &'a self,
        game: &'a Game,
        state: &'a State,
    ) -> Box<dyn Fn(&Source) -> OrdersCheck + Sync + 'a> {
        let cx = self.context(game, state);
        Box::new(move |source| {
            crate::rules::check_orders_with(game, state, source, |p, lines| {
                orders::parse_all(source, lines, p, &cx)
            })
        })
    }

    fn resolve(
        &self,
        game: &Game,
        state: &State,
        orders: &[PowerOrders],
        dice: &mut DiceBox,
    ) -> Result<Resolution> {
        let cx = self.context(game, state);
        let parsed = crate::rules::standing_orders_by_power(orders, |source, lines, power| {
            orders::parse_all(source, lines, power, &cx)
        });
        let mut resolution = phase::resolve_land_phase(self, game, state, &parsed, dice)?;
        // Allies see what each other sees, when the game says so.
        crate::engine::visibility::share_events(
            &game.config,
            &state.alliances,
            &mut resolution.events,
        );
        Ok(resolution)
    }

    fn parse_state(&self, source: &crate::diag::Source) -> Result<State, crate::diag::FileError> {
        crate::game::state::parse::<state::EiaState>(source)
    }

    fn check_state(&self, game: &Game, state: &State) -> Vec<crate::diag::Diagnostic> {
        pieces::check_pieces(state, &game.config, &game.map)
    }

    fn units(&self, state: &State) -> Vec<crate::rules::UnitView> {
        pieces::units(state)
    }

    fn units_told(&self, game: &Game, state: &State) -> Vec<crate::rules::UnitView> {
        pieces::units_told(state, &Words::of(game))
    }

    fn visible_areas(&self, game: &Game, state: &State, power: &str) -> BTreeSet<usize> {
        crate::engine::visibility::Visibility::of(game, state).places(power)
    }

    fn sight(&self) -> crate::game::sight::Sight {
        visibility::SIGHT
    }

    fn forecast(&self, game: &Game, state: &State, source: &Source, power: &str) -> Vec<String> {
        forecast::forecast(self, game, state, source, power)
    }

    fn fog(
        &self,
        state: &mut State,
        power: &str,
        keep: &dyn Fn(&str) -> bool,
        _sees: &dyn Fn(&str) -> bool,
    ) -> bool {
        if let Some(t) = state.table_mut::<state::EiaState>() {
            t.corps.retain(|c| keep(c.id.get_ref()));
            t.leaders.retain(|l| keep(l.id.get_ref()));
            t.fleets.retain(|f| keep(f.id.get_ref()));
            // Insurrection corps wait off the map: only their own power's are its to know.
            t.insurrection.retain(|l| l.power == power);
            return true;
        }
        false
    }

    fn strength_words(&self) -> &'static str {
        "corps factors"
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn control_roll_modifiers(&self) -> Option<std::collections::BTreeMap<String, i32>> {
        Some(self.tables.ump_control.clone())
    }

    /// EiA 19.2.2: the new player may negotiate before he takes control; the others know him.
    fn new_player_named(&self) -> bool {
        true
    }

    /// The SOP's absolutes a game may open to standing orders (`decisions::OPTIONS`).
    fn options(&self) -> &'static [crate::rules::GameOption] {
        &decisions::OPTIONS
    }
}
