//! The dice labels of a PoG action (pbem-dice/v1). Labels are fixed by the rules, unique within a
//! turn (one action), and name only what both players see (PoG is a game of open information).
//! docs/DICE.md lists them.
//!
//! | kind     | keys in order        | dice                                     | rule          |
//! |----------|----------------------|------------------------------------------|---------------|
//! | entrench | space                | one d6                                   | 11.2.2        |
//! | flank    | combat, space        | one d6                                   | 12.3.3        |
//! | fire     | combat, space, side  | one d6 (side: attacker or defender)      | 12.2.8        |
//! | retreat  | combat, space        | one die of n (n tied end spaces, by id)  | 12.2.1        |
//!
//! `combat` is the combat's number in the order of resolution (empty spaces first, 12.2.1), so that
//! two attacks on one space in an action (12.1.2) have labels of their own.

pub fn entrench(space: &str) -> String {
    format!("entrench/space={space}")
}

pub fn flank(combat: usize, space: &str) -> String {
    format!("flank/combat={combat}/space={space}")
}

pub fn fire(combat: usize, space: &str, side: &str) -> String {
    format!("fire/combat={combat}/space={space}/side={side}")
}

pub fn retreat(combat: usize, space: &str) -> String {
    format!("retreat/combat={combat}/space={space}")
}

/// The table above as data (`dice::labels`): `pbem verify` rejects a label no pattern gives.
pub const GRAMMAR: crate::dice::labels::Grammar = crate::dice::labels::Grammar {
    ruleset: "pog",
    name: "Paths of Glory",
    kinds: &[
        crate::dice::labels::Kind {
            pattern: "entrench/space={place@area}",
            events: &["entrench"],
            dice: "d6",
            rule: "PoG 11.2.2",
        },
        crate::dice::labels::Kind {
            pattern: "flank/combat={n}/space={place@area}",
            events: &["flank"],
            dice: "d6",
            rule: "PoG 12.3.3",
        },
        crate::dice::labels::Kind {
            pattern: "fire/combat={n}/space={place@area}/side={attacker|defender}",
            events: &["fire"],
            dice: "d6",
            rule: "PoG 12.2.8",
        },
        crate::dice::labels::Kind {
            pattern: "retreat/combat={n}/space={place}",
            events: &["retreat"],
            dice: "one die of n, n tied end spaces",
            rule: "PoG 12.2.1",
        },
    ],
    says: &["a"],
    works: &["="],
    rolled: &["fire"],
};
