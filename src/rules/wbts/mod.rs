//! War Between the States (WBTS), ground and naval combat, played by e-mail as an exchange of
//! player turns: each pbem turn is one player turn of the active side (an orders file of roster
//! changes, moves, attacks from march, ship movements, garrisons and attacks); every choice of the
//! other side during it (which leader defends, his chit, his shift of the die, ignoring a retreat,
//! where to retreat, how losses spread, cavalry evasion, inside or outside a fort, what the ships
//! do) is settled by its standing orders or the SOP: zero interrupts.
//!
//! The map is a hex map with hexside features (`game::map::hex`): rivers halve an attack, tidal
//! rivers and estuaries open only at a ferry, fortified hexsides make passing ships undergo the
//! naval transit attack. The combat procedure over a plain position is `combat.rs`; the turn that
//! applies it to the board is `turn.rs`; the seed's tables, none printed in it, are pbem's own in
//! `tables.toml` (`tables.rs`).

pub mod board;
pub mod combat;
pub mod decisions;
pub mod forecast;
pub mod ground;
pub mod labels;
pub mod losses;
pub mod naval;
pub mod orders;
#[cfg(test)]
mod rule_tests;
pub mod rules;
pub mod state;
pub mod tables;
pub mod turn;

use state::WbtsState;
use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::diag::{Diagnostic, Source};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::config::GameConfig;
use crate::game::map::hex::HexMap;
use crate::game::sight::Sight;
use crate::game::state::State;
use crate::game::Game;
use crate::rules::{OrdersCheck, PowerOrders, Resolution, Ruleset, UnitView};

use board::Board;
use orders::{Context, WbtsOrder};
use tables::Tables;
use turn::Turn;

/// The WBTS ruleset with its tables and the game's SOP settings.
pub struct Wbts {
    pub tables: Tables,
    pub sop: BTreeMap<String, String>,
}

/// The wording of WBTS's events' texts (`Ruleset::texts_wording`): 2, a fortress called a fortress ("inside
/// its fortress"), a move told with where it goes ("moves to 1004", "moves by 1104 to 1003") and a
/// combat result with what its cell and row mean (`Turn::result_words`); 1 called every fort "fort",
/// told a move by its hexes alone ("moves 1004") and a result by its cell and row alone ("Result
/// 2r/0 on row 1"); 0 also named each power by its id ("player turn of union") where 1 and 2 give
/// its name as the scenario does ("player turn of Union"). `audit` tells a turn again in its own.
pub const WORDING: u32 = 2;

/// The name of `power` as the scenario gives it (game.toml's `name`), as every text a player reads
/// names it; its id when the game has no such power, or in a turn `audit` tells again in wording 0.
pub fn name_of<'a>(game: &'a Game, power: &'a str) -> &'a str {
    crate::rules::power_name(game, power, WORDING)
}

/// The hex map of a WBTS game.
pub fn hex_map(game: &Game) -> Option<&HexMap> {
    match &game.geometry {
        Some(crate::game::map::AnyMap::Hex(h)) => Some(h),
        _ => None,
    }
}

impl Wbts {
    pub fn load(config: &GameConfig, config_src: &Source, tables_src: &Source) -> Result<Wbts> {
        let tables: Tables = crate::rules::load_tables(tables_src, Tables::validate)?;
        let sop = crate::rules::load_sop(
            config,
            config_src,
            crate::rules::standing::check_sop::<decisions::WbtsPoint>,
        )?;
        Ok(Wbts { tables, sop })
    }

    /// Parses the order lines of an authenticated file.
    pub fn parse(
        &self,
        game: &Game,
        state: &State,
        lines: &[crate::orders::Line],
        power: &str,
    ) -> (Vec<crate::orders::Located<WbtsOrder>>, Vec<Diagnostic>) {
        let (Some(w), Some(map)) = (state.table::<WbtsState>(), hex_map(game)) else {
            return (Vec::new(), Vec::new());
        };
        let cx = Context {
            board: Board::new(map),
            state,
            wbts: w,
            tables: &self.tables,
            power,
            active_name: name_of(game, w.active()),
        };
        orders::parse_all(lines, &cx)
    }
}

impl Ruleset for Wbts {
    fn verbs(&self) -> &'static [&'static str] {
        &orders::VERBS
    }

    fn id(&self) -> &'static str {
        "wbts"
    }

    fn name(&self) -> &'static str {
        "War Between the States"
    }

    fn texts_wording(&self) -> u32 {
        WORDING
    }

    fn wording_change(&self, from: u32) -> &'static str {
        match from {
            0 => "its texts named each power by its id, where this one gives the power's name as the scenario does; and they called a fortress a fort, told a move by its hexes alone and a combat result by its cell alone, where this one says what they mean",
            _ => "its texts called a fortress a fort, told a move by its hexes alone and a combat result by its cell alone, where this one says what they mean",
        }
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
        let map = hex_map(game)
            .ok_or_else(|| anyhow::anyhow!("a War Between the States game needs a hex map"))?;
        let powers: Vec<String> = game.config.power_ids().map(str::to_string).collect();
        let mut parsed = crate::rules::standing_orders_by_power(orders, |_, lines, power| {
            self.parse(game, state, lines, power)
        });
        let mut t = Turn::new(
            Board::new(map),
            &self.tables,
            &self.sop,
            state.clone(),
            powers,
            dice,
        )?;
        t = t.with_wording(game.config.texts_wording(WORDING));
        if game.config.texts_wording(WORDING) >= 1 {
            t = t.with_names(
                game.config
                    .powers
                    .iter()
                    .map(|p| (p.id.clone(), p.name.clone())),
            );
        }
        let active = t.active.clone();
        t.event(
            rules::ONE_TURN,
            "turn",
            None,
            format!(
                "Game turn {}, player turn of {}.",
                t.w.game_turn,
                t.name(&active)
            ),
        );
        // Standing orders, kept until changed; each power's are its own to see.
        for (power, list) in &parsed {
            for o in list {
                if let WbtsOrder::Standing { key, value } = o {
                    t.state
                        .standing
                        .entry(power.clone())
                        .or_default()
                        .insert(key.clone(), value.clone());
                    let text = format!("{} sets a standing order: {o}.", t.name(power));
                    t.events.push(
                        Event::new(rules::STANDING, "standing", text).seen_by([power.as_str()]),
                    );
                }
            }
        }
        let mine = parsed.remove(&active).unwrap_or_default();
        if !mine
            .iter()
            .any(|o| !matches!(o, WbtsOrder::Standing { .. }))
        {
            t.event(
                rules::ONE_TURN,
                "turn",
                None,
                format!("{} orders nothing this player turn.", t.name(&active)),
            );
        }
        t.run(&mine)?;
        t.end_of_turn();
        let (next, events) = t.finish();
        Ok(Resolution { events, next })
    }

    fn parse_state(&self, source: &Source) -> Result<State, crate::diag::FileError> {
        crate::game::state::parse::<state::WbtsState>(source)
    }

    fn check_state(&self, game: &Game, state: &State) -> Vec<Diagnostic> {
        state::check(state, &game.config, &game.map)
    }

    fn units(&self, state: &State) -> Vec<UnitView> {
        state::units(state)
    }

    fn units_told(&self, game: &Game, state: &State) -> Vec<UnitView> {
        state::units_told(state, game.config.texts_wording(WORDING))
    }

    fn forecast(&self, game: &Game, state: &State, source: &Source, power: &str) -> Vec<String> {
        forecast::forecast(self, game, state, source, power)
    }

    fn position(
        &self,
        game: &Game,
        state: &State,
        _power: &str,
        _sees: &dyn Fn(&str) -> bool,
    ) -> Vec<String> {
        let Some(w) = state.table::<WbtsState>() else {
            return Vec::new();
        };
        let mut out = vec![format!(
            "Game turn {}; the player turn of {}.",
            w.game_turn,
            name_of(game, w.active())
        )];
        for (hex, f) in &w.fort {
            let garrison: Vec<&str> = w
                .units_in(hex)
                .filter(|u| u.inside)
                .map(|u| u.id())
                .collect();
            out.push(format!(
                "{} in {hex}, held by {}; inside: {}.",
                f.effective().name(),
                name_of(game, &f.power),
                if garrison.is_empty() {
                    "nobody".to_string()
                } else {
                    garrison.join(", ")
                }
            ));
        }
        out
    }

    fn expects_orders(&self, state: &State, power: &str) -> bool {
        state
            .table::<WbtsState>()
            .is_none_or(|w| w.active() == power)
    }

    fn visible_areas(&self, game: &Game, _state: &State, _power: &str) -> BTreeSet<usize> {
        (0..game.map.areas.len()).collect()
    }

    /// Counters are open in pbem's WBTS: each side sees the whole board.
    fn sight(&self) -> Sight {
        Sight::EVERYTHING
    }

    /// The words of a WBTS hex map: its terrain and hexside features (`board.rs`).
    fn map_words(&self) -> Option<crate::game::map::Vocabulary<'static>> {
        Some(board::VOCABULARY)
    }

    fn fog(
        &self,
        state: &mut State,
        _power: &str,
        keep: &dyn Fn(&str) -> bool,
        _sees: &dyn Fn(&str) -> bool,
    ) -> bool {
        if let Some(t) = state.table_mut::<state::WbtsState>() {
            t.leaders.retain(|l| keep(l.id()));
            t.units.retain(|u| keep(u.id()));
            t.ships.retain(|s| keep(s.id()));
            t.detached.retain(|unit, _| keep(unit));
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
