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
pub mod reinforce;
pub mod retreat;
#[cfg(test)]
mod rule_tests;
pub mod siege;
pub mod standing;
pub mod tables;
#[cfg(test)]
pub mod test_fixture;
pub mod visibility;

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::diag::Source;
use crate::engine::dice_box::DiceBox;
use crate::game::config::GameConfig;
use crate::game::load;
use crate::game::state::State;
use crate::game::Game;
use crate::rules::{OrdersCheck, PowerOrders, Resolution, Ruleset};

use tables::Tables;

/// The EiA ruleset with its tables and the game's SOP settings.
pub struct Eia {
    pub tables: Tables,
    pub sop: BTreeMap<String, String>,
}

impl Eia {
    pub fn load(config: &GameConfig, config_src: &Source, tables_src: &Source) -> Result<Eia> {
        let tables: Tables = load::parse_toml(tables_src)?;
        if let Some(e) = load::first_error(tables_src, &tables.validate()) {
            return Err(e.into());
        }
        let mut sop = BTreeMap::new();
        let mut diags = Vec::new();
        for (key, value) in &config.sop {
            match decisions::check_sop(key, value.get_ref(), &tables) {
                Ok(()) => {
                    sop.insert(key.clone(), value.get_ref().clone());
                }
                Err(hint) => diags.push(
                    crate::diag::Diagnostic::error(
                        format!("bad SOP setting {key} = \"{}\"", value.get_ref()),
                        value.span(),
                    )
                    .hint(hint),
                ),
            }
        }
        if let Some(e) = load::first_error(config_src, &diags) {
            return Err(e.into());
        }
        Ok(Eia { tables, sop })
    }

    fn context<'a>(&'a self, game: &'a Game, state: &'a State) -> orders::Context<'a> {
        orders::Context::new(&game.map, state, &self.tables)
    }
}

impl Ruleset for Eia {
    fn id(&self) -> &'static str {
        "eia"
    }

    fn name(&self) -> &'static str {
        "Empires in Arms"
    }

    fn check_orders(&self, game: &Game, state: &State, source: &Source) -> OrdersCheck {
        let lines = crate::orders::split(&source.text);
        let (header, lines, mut diagnostics) = crate::orders::Header::take(&source.text, lines);
        let (power, mut more) = crate::orders::check_header_with(
            &header,
            &game.config,
            state.turn,
            source.text.len(),
            &|p| crate::engine::players::password_hashes(&game.config, state, p),
        );
        diagnostics.append(&mut more);
        // Order lines are read only for an authenticated power: their diagnostics would tell an impostor
        // where the power's units stand.
        let mut accepted = Vec::new();
        if let Some(p) = &power {
            let (ok, mut more) = orders::parse_all(source, &lines, p, &self.context(game, state));
            diagnostics.append(&mut more);
            accepted = ok
                .iter()
                .map(|o| (source.line_col(o.span.start).0, o.value.to_string()))
                .collect();
        }
        diagnostics.sort_by_key(|d| d.span.start);
        OrdersCheck {
            power,
            entropy: header.entropy.map(|e| e.value),
            accepted,
            diagnostics,
        }
    }

    fn resolve(
        &self,
        game: &Game,
        state: &State,
        orders: &[PowerOrders],
        dice: &mut DiceBox,
    ) -> Result<Resolution> {
        let cx = self.context(game, state);
        let mut parsed = BTreeMap::new();
        for po in orders {
            let lines = crate::orders::split(&po.source.text);
            let (_, lines, _) = crate::orders::Header::take(&po.source.text, lines);
            let (ok, _) = orders::parse_all(&po.source, &lines, &po.power, &cx);
            parsed.insert(
                po.power.clone(),
                ok.into_iter().map(|o| o.value).collect::<Vec<_>>(),
            );
        }
        let mut resolution = phase::resolve_land_phase(self, game, state, &parsed, dice)?;
        // Allies see what each other sees, when the game says so.
        crate::engine::visibility::share_events(
            &game.config,
            &state.alliances,
            &mut resolution.events,
        );
        Ok(resolution)
    }

    fn visible_areas(&self, game: &Game, state: &State, power: &str) -> BTreeSet<usize> {
        crate::engine::visibility::Visibility::of(game, state).places(power)
    }

    fn sight(&self) -> crate::engine::visibility::Sight {
        visibility::SIGHT
    }

    fn forecast(&self, game: &Game, state: &State, source: &Source, power: &str) -> Vec<String> {
        forecast::forecast(self, game, state, source, power)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
