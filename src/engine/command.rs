//! Players under a power: a power may list several players (`[[power.player]]` in game.toml), each
//! with his own password, address, rank and scope of units (his command). This module is the engine's
//! knowledge of them, for any ruleset, over the model's (`game/command.rs`):
//!
//! - an orders file is one player's (`orders/<t>/<power>.<player>.txt`, [`file_stem`]), and a line
//!   naming a unit of the power outside his scope is refused ([`Command::refuses`], the model's, which
//!   the header check applies);
//! - where several players order one unit, the order of the highest rank stands (GITM 6: the
//!   commander's last order wins over the deputy's), and within one player his last submission
//!   stands as for any power ([`merge`]);
//! - each player may get a report of what his own command sees ([`reports_per_player`],
//!   [`command_sight`]).
//!
//! A unit is "named" by an order when a word of the order as pbem reads it back is the id of one of
//! the power's units; an order naming none (a standing order, a chit) is the power's as a whole and
//! is treated as one more unit in every player's scope.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::Source;
use crate::engine::visibility::Visibility;
use crate::game::command::{named, unit_ids};
use crate::game::config::{PowerConfig, ReportsBy, Scope};
use crate::game::ruleset::OrdersCheck;
use crate::game::state::State;
use crate::game::Game;
use crate::rule::Rule;

/// A player's files and the scope of his lines: the model's (`game/command.rs`), which the header
/// check of every ruleset applies.
pub use crate::game::command::{file_stem, slots, Command, SCOPE};

/// GITM 6: where the commander and his deputy both order a unit, the commander's order stands.
pub const PRECEDENCE: Rule = Rule::new(
    "GITM",
    "6",
    "the commander's last order wins over the deputy's",
);

/// Whether each player of `pc` gets a report of his own command: game.toml's `reports` key, else the
/// ruleset's word (`Ruleset::reports_per_player`); never for a power of one player.
pub fn reports_per_player(game: &Game, pc: &PowerConfig) -> bool {
    pc.has_commands()
        && match pc.reports {
            Some(r) => r == ReportsBy::Player,
            None => game.ruleset.reports_per_player(),
        }
}

/// The orders file of one player, as the turn read it.
pub struct PlayerOrders<'a> {
    pub player: &'a str,
    pub check: &'a OrdersCheck,
    pub text: &'a str,
    /// The line each line of `text` is as the player knows it (of his mail, for orders he mailed:
    /// `engine::inputs::OrdersFileStatus::lines`), which a note names.
    pub lines: &'a crate::diag::LineMap,
}

/// The orders of a power with several players, as one text for the ruleset: for every unit, the
/// lines of the highest-ranked player who ordered it (GITM 6); `files` come highest rank first.
/// A line stands when its player is the highest to order every unit it names (the power as a whole
/// for a line naming none). Returns the text and a note for every line set aside, naming it by the
/// line its player knows it on.
pub fn merge(
    game: &Game,
    state: &State,
    power: &str,
    files: &[PlayerOrders],
) -> (String, Vec<String>) {
    let units = unit_ids(game, state, power);
    // The highest-ranked player to name each unit ("" for the power as a whole).
    let mut owner: BTreeMap<String, usize> = BTreeMap::new();
    let names = |order: &str| -> BTreeSet<String> {
        let n = named(order, &units);
        if n.is_empty() {
            BTreeSet::from([String::new()])
        } else {
            n
        }
    };
    for (i, f) in files.iter().enumerate() {
        for (_, order) in &f.check.accepted {
            for u in names(order) {
                owner.entry(u).or_insert(i);
            }
        }
    }
    let mut text = String::new();
    let mut notes = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let source = Source::new("", f.text);
        let lines: Vec<&str> = source.text.lines().collect();
        for (line, order) in &f.check.accepted {
            let over: Vec<&str> = names(order)
                .iter()
                .filter_map(|u| owner.get(u).filter(|&&o| o != i))
                .map(|&o| files[o].player)
                .collect();
            if let Some(by) = over.first() {
                notes.push(format!(
                    "{} line {} ({order}) is set aside: {by} outranks {} for it ({}).",
                    file_stem(power, Some(f.player)),
                    f.lines.number(*line),
                    f.player,
                    PRECEDENCE.cite()
                ));
                continue;
            }
            if let Some(l) = line.checked_sub(1).and_then(|n| lines.get(n)) {
                text.push_str(l);
                text.push('\n');
            }
        }
    }
    (text, notes)
}

/// What a player's command sees in `states` (the start or the end of a turn): the sight of the
/// units of `power` in his `scope` alone (`Ruleset::sight`), keyed by the power's id.
pub fn command_sight(game: &Game, states: &[&State], power: &str, scope: &Scope) -> Visibility {
    let positions: Vec<(String, usize)> = states
        .iter()
        .flat_map(|state| game.ruleset.units(state))
        .filter(|u| u.sees && u.owner == power && scope.holds(&u.id))
        .filter_map(|u| game.map.find(&u.area).map(|i| (u.owner, i)))
        .collect();
    Visibility::new(&game.map, &positions, game.ruleset.sight(), &[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::eia::test_fixture::Fixture;

    fn check(lines: &[(usize, &str)]) -> OrdersCheck {
        OrdersCheck {
            power: Some("france".into()),
            player: None,
            entropy: None,
            password_line: false,
            accepted: lines.iter().map(|(l, o)| (*l, o.to_string())).collect(),
            diagnostics: Vec::new(),
        }
    }

    #[test]
    fn gitm_6_the_higher_rank_wins_each_unit_and_the_power_wide_lines() {
        let fx = Fixture::new();
        let high = check(&[(1, "move FR-I Ulm"), (2, "standing pursue never")]);
        let low = check(&[
            (1, "move FR-I Munich"),
            (2, "move FR-V Stuttgart"),
            (3, "move FR-V with FR-I Ulm"),
            (4, "standing pursue always"),
        ]);
        let high_text = "move FR-I Ulm\nstanding pursue never\n";
        let low_text =
            "move FR-I Munich\nmove FR-V Stuttgart\nmove FR-V with FR-I Ulm\nstanding pursue always\n";
        let files = [
            PlayerOrders {
                player: "napoleon",
                check: &high,
                text: high_text,
                lines: &Default::default(),
            },
            PlayerOrders {
                player: "ney",
                check: &low,
                text: low_text,
                lines: &Default::default(),
            },
        ];
        let (text, notes) = merge(&fx.game, &fx.state, "france", &files);
        // FR-I and the power-wide line are the commander's; FR-V, only the deputy's, is his; a line
        // naming a unit the commander ordered is set aside whole.
        assert_eq!(
            text,
            "move FR-I Ulm\nstanding pursue never\nmove FR-V Stuttgart\n"
        );
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].starts_with(
            "france.ney line 1 (move FR-I Munich) is set aside: napoleon outranks ney"
        ));
        assert!(notes.iter().all(|n| n.ends_with("(GITM 6).")), "{notes:?}");
    }

    /// GITM 6: a line set aside is named by the line of the mail its player sent it on, as his
    /// answer named it, not by the line of the orders pbem filed from the mail.
    #[test]
    fn gitm_6_a_line_set_aside_is_named_by_the_line_of_the_players_mail() {
        let fx = Fixture::new();
        let high = check(&[(1, "move FR-I Ulm")]);
        let low = check(&[(1, "move FR-I Munich")]);
        let mailed = crate::diag::LineMap::new(vec![9]);
        let files = [
            PlayerOrders {
                player: "napoleon",
                check: &high,
                text: "move FR-I Ulm\n",
                lines: &Default::default(),
            },
            PlayerOrders {
                player: "ney",
                check: &low,
                text: "move FR-I Munich\n",
                lines: &mailed,
            },
        ];
        let (_, notes) = merge(&fx.game, &fx.state, "france", &files);
        assert!(
            notes[0].starts_with("france.ney line 9 (move FR-I Munich) is set aside"),
            "{notes:?}"
        );
    }
}
