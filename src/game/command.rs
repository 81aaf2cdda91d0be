//! Players under a power (`[[power.player]]` in game.toml): the name of each player's orders file
//! and the scope of units he may order, which the header check of every ruleset applies
//! (`rules::check_orders_with`). The merge of their orders by rank and each player's own sight are
//! the engine's (`engine::command`).
//!
//! A unit is "named" by an order when a word of the order as pbem reads it back is the id of one of
//! the power's units; an order naming none (a standing order, a chit) is the power's as a whole and
//! is in every player's scope.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::Diagnostic;
use crate::game::config::{PowerConfig, Scope};
use crate::game::state::State;
use crate::game::Game;
use crate::rule::Rule;

/// pbem: a player orders the units of his own command only.
pub const SCOPE: Rule = Rule::new(
    "pbem",
    "orders/command",
    "a player orders the units of his command only",
);

/// The name of a player's files (`france`, `france.ney`): the folder layout's, `game/mod.rs`.
pub use crate::game::file_stem;

/// The players whose files a power has, in rank order (highest first): `None` alone for a power of
/// one player.
pub fn slots(pc: &PowerConfig) -> Vec<Option<String>> {
    if !pc.has_commands() {
        return vec![None];
    }
    let mut players: Vec<_> = pc.commands.iter().collect();
    players.sort_by_key(|c| pc.rank_order(&c.rank));
    players.into_iter().map(|c| Some(c.id.clone())).collect()
}

/// The ids of the units of `power` named by the words of `order`, as the state writes them.
pub(crate) fn named(order: &str, units: &Units) -> BTreeSet<String> {
    order
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter_map(|w| units.get(&w.to_ascii_lowercase()).cloned())
        .collect()
}

/// The ids of the units of a power, by their lower case.
pub(crate) type Units = BTreeMap<String, String>;

/// The units of `power` in `state`.
pub(crate) fn unit_ids(game: &Game, state: &State, power: &str) -> Units {
    game.ruleset
        .units(state)
        .into_iter()
        .filter(|u| u.owner == power)
        .map(|u| (u.id.to_ascii_lowercase(), u.id))
        .collect()
}

/// What one player may order at the turn of a state: his scope among the power's units.
pub struct Command {
    /// The player's id and scope; none for a power of one player (he orders every unit).
    player: Option<(String, Scope)>,
    units: Units,
}

impl Command {
    /// The command of `player` of `power` at the turn of `state` (his dated changes applied).
    pub fn of(game: &Game, state: &State, power: &str, player: Option<&str>) -> Command {
        let player = player.and_then(|id| {
            let c = game.config.power(power)?.command(id)?;
            Some((c.id.clone(), c.at(state.turn).scope))
        });
        let units = match &player {
            Some(_) => unit_ids(game, state, power),
            None => Units::new(),
        };
        Command { player, units }
    }

    /// A diagnostic when `order` names a unit of the power outside the player's scope: its hint
    /// names the units he commands, in his words (he has no game.toml, which holds the scopes).
    pub fn refuses(&self, order: &str, span: std::ops::Range<usize>) -> Option<Diagnostic> {
        let (id, scope) = self.player.as_ref()?;
        let outside: Vec<String> = named(order, &self.units)
            .into_iter()
            .filter(|u| !scope.holds(u))
            .collect();
        if outside.is_empty() {
            return None;
        }
        let scope = match scope {
            Scope::All => "every unit".to_string(),
            Scope::Units(u) => u.join(", "),
        };
        Some(
            Diagnostic::error(
                format!("{} is not in the command of {id}", outside.join(", ")),
                span,
            )
            .label("not your unit to order")
            .hint(format!(
                "you command {scope}: the power's other units are another of its players' to order"
            ))
            .rule(SCOPE),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::eia::test_fixture::Fixture;

    #[test]
    fn a_player_orders_the_units_of_his_scope_only() {
        let fx = Fixture::new();
        let scope = Scope::Units(vec!["FR-V".into()]);
        let c = Command {
            player: Some(("ney".into(), scope)),
            units: unit_ids(&fx.game, &fx.state, "france"),
        };
        assert!(c.refuses("move FR-V Stuttgart", 0..1).is_none());
        assert!(c.refuses("standing pursue never", 0..1).is_none());
        let d = c.refuses("move fr-i Ulm", 3..9).unwrap();
        assert_eq!(d.message, "FR-I is not in the command of ney");
        assert_eq!((d.span, d.rule), (3..9, Some(SCOPE)));
        assert_eq!(
            d.hint.as_deref(),
            Some("you command FR-V: the power's other units are another of its players' to order")
        );
        // A power of one player orders every unit.
        let all = Command::of(&fx.game, &fx.state, "france", None);
        assert!(all.refuses("move FR-I Ulm", 0..1).is_none());
    }
}
