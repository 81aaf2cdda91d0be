//! The dice labels of a WBTS player turn (pbem-dice/v1), as data (`dice::labels`). The labels are
//! written where they are rolled (`ground.rs`, `combat.rs`, `naval.rs`, `turn.rs`); this table is
//! what they may be, and `tests/proptest_labels.rs` holds every label a resolution rolls to it.
//! `n` is the combat's (or naval attack's) number in the player turn, so that a hex attacked twice
//! rolls under labels of its own.

use crate::dice::labels::{Grammar, Kind};

pub const GRAMMAR: Grammar = Grammar {
    ruleset: "wbts",
    name: "War Between the States",
    kinds: &[
        Kind {
            pattern: "initiative/leader={id@text}",
            events: &["initiative"],
            dice: "d6",
            rule: "WBTS ground/initiative",
        },
        Kind {
            pattern: "combat/n={n}/hex={place@area}/supply={attacker|defender}",
            events: &["supply"],
            dice: "d6",
            rule: "WBTS ground/supply",
        },
        Kind {
            pattern: "combat/n={n}/hex={place@area}/die",
            events: &["die"],
            dice: "d6",
            rule: "WBTS ground/results",
        },
        Kind {
            pattern: "combat/n={n}/hex={place@area}/leader-loss",
            events: &["leader-loss"],
            dice: "d6",
            rule: "WBTS ground/leader-loss",
        },
        Kind {
            pattern: "naval/hex={place@area}",
            events: &["naval-combat"],
            dice: "d6",
            rule: "WBTS naval/combat",
        },
        Kind {
            pattern: "bombard/n={n}/hex={place@area}",
            events: &["bombard"],
            dice: "d6",
            rule: "WBTS naval/fort",
        },
        Kind {
            pattern: "bombard/n={n}/hex={place}/retreat={n}",
            events: &["transit"],
            dice: "d6",
            rule: "WBTS naval/transit",
        },
        Kind {
            pattern: "transit/ship={id@text}/step={n}",
            events: &["transit"],
            dice: "d6",
            rule: "WBTS naval/transit",
        },
    ],
    says: &["rolls", "roll", "die", "the die is"],
    works: &["die from", "die at"],
    rolled: &["initiative", "supply", "leader-loss", "bombard"],
};
