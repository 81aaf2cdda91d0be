//! Paths of Glory (PoG), rules 10.1 to 12.3, played by e-mail as an exchange of actions: each pbem
//! turn is one action of the active player (an orders file of moves, entrenchments and attacks); the
//! other player's decisions during it (losses, retreats, cancelling a retreat, overstacking, cards
//! in defence) are settled by his standing orders or the SOP.
//!
//! An action runs: standing orders; movement (11.1) in the order given; sieges (11.1.8); entrenching
//! (11.2.2); combats, empty spaces first (12.2.1), each in the twelve steps of 12.2 with flank attacks
//! (12.3); overstacking (10.1.3); then the other player becomes active, and after `actions_per_turn`
//! actions the game turn advances. What PoG shares with EiA (orders files, decisions, dice, events,
//! visibility, reports, mail) is the engine's; what differs is here, behind the `Ruleset` trait. The
//! theatres beyond the two fronts (the Near East, the MEF, neutral nations) are theatres.rs.

pub mod action;
pub mod combat;
pub mod decisions;
pub mod forecast;
pub mod labels;
pub mod losses;
pub mod movement;
pub mod orders;
pub mod position;
pub mod retreat;
#[cfg(test)]
mod rule_tests;
pub mod rules;
pub mod state;
pub mod tables;
#[cfg(test)]
pub mod test_fixture;
pub mod theatre_actions;
#[cfg(test)]
mod theatre_tests;
pub mod theatres;
pub mod trenches;

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
use state::PogState;

use action::Action;
use combat::Attack;
use orders::{Context, PogOrder};
use tables::Tables;

/// The wording of PoG's events' texts (`Ruleset::texts_wording`): 1, each side named as the scenario gives
/// it ("Central Powers play Hurricane Barrage", "next to act: Allied Powers"); a turn resolved
/// before, in wording 0, named it by its id ("central plays Hurricane Barrage"), and `audit` tells
/// it again so.
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

/// The PoG ruleset with its tables and the game's SOP settings.
pub struct Pog {
    pub tables: Tables,
    pub sop: BTreeMap<String, String>,
}

impl Pog {
    pub fn load(config: &GameConfig, config_src: &Source, tables_src: &Source) -> Result<Pog> {
        let tables: Tables = crate::rules::load_tables(tables_src, Tables::validate)?;
        let sop = crate::rules::load_sop(
            config,
            config_src,
            crate::rules::standing::check_sop::<decisions::PogPoint>,
        )?;
        Ok(Pog { tables, sop })
    }

    /// Parses the order lines of an authenticated file.
    fn parse(
        &self,
        game: &Game,
        state: &State,
        lines: &[crate::orders::Line],
        power: &str,
    ) -> (Vec<crate::orders::Located<PogOrder>>, Vec<Diagnostic>) {
        let Some(pog) = state.table::<PogState>() else {
            return (Vec::new(), Vec::new());
        };
        let name = |p: &str| name_of(game, p).to_string();
        let cx = Context {
            map: &game.map,
            state,
            pog,
            tables: &self.tables,
            name: &name,
        };
        orders::parse_all(lines, power, &cx)
    }
}

impl Ruleset for Pog {
    fn verbs(&self) -> &'static [&'static str] {
        &orders::VERBS
    }

    fn id(&self) -> &'static str {
        "pog"
    }

    fn name(&self) -> &'static str {
        "Paths of Glory"
    }

    fn texts_wording(&self) -> u32 {
        WORDING
    }

    fn wording_change(&self, _from: u32) -> &'static str {
        "its texts named each side by its id, where this one gives the side's name as the scenario does"
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
        let powers: Vec<String> = game.config.power_ids().map(str::to_string).collect();
        let mut parsed = crate::rules::standing_orders_by_power(orders, |_, lines, power| {
            self.parse(game, state, lines, power)
        });
        let mut a = Action::new(
            &game.map,
            &self.tables,
            &self.sop,
            state.clone(),
            powers,
            dice,
        )?
        .with_names(names(game));
        let active = a.active.clone();
        a.event(
            rules::ONE_ACTION,
            "action",
            None,
            format!(
                "Game turn {}, action {} of {}: {}.",
                a.pog.game_turn,
                a.pog.actions_played.saturating_add(1),
                self.tables.actions_per_turn,
                a.says(&active, "acts", "act")
            ),
        );
        // Standing orders, kept until changed; each power's are its own to see.
        for (power, list) in &parsed {
            for o in list {
                if let PogOrder::Standing { key, value } = o {
                    a.state
                        .standing
                        .entry(power.clone())
                        .or_default()
                        .insert(key.clone(), value.clone());
                    let text = format!("{} a standing order: {o}.", a.says(power, "sets", "set"));
                    a.events.push(
                        Event::new(rules::STANDING, "standing", text).seen_by([power.as_str()]),
                    );
                }
            }
        }
        let mine = parsed.remove(&active).unwrap_or_default();
        if !mine.iter().any(|o| !matches!(o, PogOrder::Standing { .. })) {
            a.event(
                rules::ONE_ACTION,
                "action",
                None,
                format!(
                    "{} nothing this action.",
                    a.says(&active, "orders", "order")
                ),
            );
        }
        // 11.1.11: a nation's entry into the war, an action of its own.
        for o in &mine {
            if let PogOrder::War { nation } = o {
                a.enter_war(nation);
            }
        }
        for o in &mine {
            if let PogOrder::Move { unit, path } = o {
                a.move_unit(unit, path)?;
            }
        }
        a.besiege_forts(&active);
        for o in &mine {
            if let PogOrder::Entrench { unit } = o {
                a.entrench(unit)?;
            }
        }
        let attacks: Vec<Attack> = mine
            .iter()
            .filter_map(|o| match o {
                PogOrder::Attack(a) => Some(a.clone()),
                _ => None,
            })
            .collect();
        a.resolve_attacks(attacks)?;
        a.check_stacking()?;
        a.lift_sieges();
        a.end_of_action();
        let (next, events) = a.finish();
        Ok(Resolution { events, next })
    }

    fn parse_state(&self, source: &Source) -> Result<State, crate::diag::FileError> {
        crate::game::state::parse::<state::PogState>(source)
    }

    fn check_state(&self, game: &Game, state: &State) -> Vec<Diagnostic> {
        let mut out = state::check(state, &game.config, &game.map, &self.tables.card_ids());
        let powers: Vec<&str> = game.config.power_ids().collect();
        out.extend(self.tables.theatres.check(&game.map, &powers));
        // 11.1.10: the beach-head marker stands in one of the scenario's MEF spaces.
        let beachhead = state
            .table::<PogState>()
            .and_then(|p| p.mef_beachhead.as_deref());
        if let Some(b) = beachhead {
            let mef = &self.tables.theatres.mef;
            if !mef.iter().any(|m| m.eq_ignore_ascii_case(b)) {
                out.push(
                    Diagnostic::error(format!("mef_beachhead '{b}' is not an MEF space"), 0..0)
                        .hint(if mef.is_empty() {
                            "tables.toml's [theatres] lists no `mef` space".to_string()
                        } else {
                            format!("the MEF spaces of tables.toml: {}", mef.join(", "))
                        })
                        .rule(rules::MEF),
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

    fn expects_orders(&self, state: &State, power: &str) -> bool {
        state
            .table::<PogState>()
            .is_none_or(|p| p.active() == power)
    }

    fn visible_areas(&self, game: &Game, _state: &State, _power: &str) -> BTreeSet<usize> {
        (0..game.map.areas.len()).collect()
    }

    /// PoG is a game of open information: each side sees the whole board.
    fn sight(&self) -> Sight {
        Sight::EVERYTHING
    }

    fn fog(
        &self,
        state: &mut State,
        power: &str,
        keep: &dyn Fn(&str) -> bool,
        _sees: &dyn Fn(&str) -> bool,
    ) -> bool {
        if let Some(t) = state.table_mut::<state::PogState>() {
            t.units.retain(|u| keep(u.id()));
            // The cards in another power's hand are its secret.
            t.cards.retain(|p, _| p == power);
            return true;
        }
        false
    }

    /// PoG 11.2.3: a trench marker, its level and whose it is; a fort besieged or destroyed.
    fn map_marks(&self, game: &Game, state: &State) -> Vec<crate::rules::MapMark> {
        let Some(t) = state.table::<PogState>() else {
            return Vec::new();
        };
        let trenches = t.trench.iter().map(|(space, tr)| crate::rules::MapMark {
            area: space.clone(),
            tag: format!("T{}", tr.level),
            about: format!("trench level {} ({})", tr.level, name_of(game, &tr.power)),
            legend: "T1, T2: trench and its level (PoG 11.2)",
        });
        let forts = t.fort.iter().map(|(space, status)| {
            let (tag, word) = match status {
                state::FortStatus::Besieged => ("F?", "besieged"),
                state::FortStatus::Destroyed => ("F-", "destroyed"),
            };
            crate::rules::MapMark {
                area: space.clone(),
                tag: tag.to_string(),
                about: format!("fort {word}"),
                legend: "F?: fort besieged; F-: fort destroyed",
            }
        });
        trenches.chain(forts).collect()
    }

    fn strength_words(&self) -> &'static str {
        "combat factors"
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
impl Pog {
    /// `expects_orders`, callable on the concrete type in tests.
    pub fn expects_orders_of(&self, state: &State, power: &str) -> bool {
        Ruleset::expects_orders(self, state, power)
    }
}

impl Action<'_> {
    /// PoG 12.2.10 (exception): at the end of game turn `ending`, the cards kept face up that were
    /// played in the turn before it (or earlier) are discarded.
    fn discard_kept_cards(&mut self, ending: u32) {
        let due: Vec<String> = self
            .pog
            .played_in_turn
            .iter()
            .filter(|(_, &played)| played < ending)
            .map(|(id, _)| id.clone())
            .collect();
        for id in due {
            self.pog.played_in_turn.remove(&id);
            let holders: Vec<String> = self
                .pog
                .cards
                .iter()
                .filter(|(_, hand)| hand.iter().any(|k| k.eq_ignore_ascii_case(&id)))
                .map(|(p, _)| p.clone())
                .collect();
            for power in holders {
                if let Some(hand) = self.pog.cards.get_mut(&power) {
                    hand.retain(|k| !k.eq_ignore_ascii_case(&id));
                }
                let name = self.tables.card(&id).map_or(id.clone(), |k| k.name.clone());
                let text = format!(
                    "{} {name} at the end of game turn {ending}, the turn after the one it was played in.",
                    self.says(&power, "discards", "discard")
                );
                self.event(rules::KEPT_CARD_ENDS, "card", None, text);
            }
        }
    }

    /// The other player becomes active; after the last action of a game turn, the turn advances and
    /// isolated trenches suffer attrition (11.2.7).
    fn end_of_action(&mut self) {
        let next = self.other(&self.active);
        self.pog.active = toml::Spanned::new(0..0, next.clone());
        self.pog.actions_played = self.pog.actions_played.saturating_add(1);
        if self.pog.actions_played >= self.tables.actions_per_turn {
            self.pog.actions_played = 0;
            self.discard_kept_cards(self.pog.game_turn);
            self.pog.game_turn = self.pog.game_turn.saturating_add(1);
            let trenches: Vec<(String, String)> = self
                .pog
                .trench
                .iter()
                .map(|(s, t)| (s.clone(), t.power.clone()))
                .collect();
            for (s, owner) in trenches {
                let i = self.space_index(&s);
                let holds = self.pog.units_in(&s).any(|u| u.power() == owner);
                if holds && !self.supplied(i, &owner) {
                    self.trench_attrition(&s);
                }
            }
            self.sn_attrition();
            let turn = self.pog.game_turn;
            self.event(
                rules::ONE_ACTION,
                "action",
                None,
                format!("Game turn {turn} begins."),
            );
        }
        self.event(
            rules::ONE_ACTION,
            "action",
            None,
            format!("The next action: {}.", self.who(&next)),
        );
    }
}
