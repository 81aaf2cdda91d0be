//! The dice labels of an NGG turn (pbem-dice/v1). Labels are fixed by the rules, unique within a
//! turn, and name only what both players see (pbem plays NGG with open information).
//! docs/DICE.md lists them.
//!
//! | kind       | keys in order  | dice   | rule          |
//! |------------|----------------|--------|---------------|
//! | initiative | attack, stack  | one d6 | NGG 10.2      |
//! | support    | attack, stack  | one d6 | NGG 10.4      |
//! | defence    | attack, stack  | one d6 | NGG 10.6      |
//! | combat     | attack, hex    | one d6 | pbem's table  |
//!
//! `attack` is the attack's number in the turn's order of attacks (10.7), so that a stack attacking
//! twice (10.8) rolls under labels of its own; `stack` is the hex of the stack tested.

pub fn initiative(attack: u32, stack: &str) -> String {
    format!("initiative/attack={attack}/stack={stack}")
}

pub fn support(attack: u32, stack: &str) -> String {
    format!("support/attack={attack}/stack={stack}")
}

pub fn defence(attack: u32, stack: &str) -> String {
    format!("defence/attack={attack}/stack={stack}")
}

pub fn combat(attack: u32, hex: &str) -> String {
    format!("combat/attack={attack}/hex={hex}")
}

/// The table above as data (`dice::labels`): `pbem verify` rejects a label no pattern gives.
pub const GRAMMAR: crate::dice::labels::Grammar = crate::dice::labels::Grammar {
    ruleset: "ngg",
    name: "Napoleon's Greatest Gamble",
    kinds: &[
        crate::dice::labels::Kind {
            pattern: "initiative/attack={n}/stack={place@text}",
            events: &["initiative"],
            dice: "d6",
            rule: "NGG 10.2",
        },
        crate::dice::labels::Kind {
            pattern: "support/attack={n}/stack={place@text}",
            events: &["support"],
            dice: "d6",
            rule: "NGG 10.4",
        },
        crate::dice::labels::Kind {
            pattern: "defence/attack={n}/stack={place@text}",
            events: &["defence"],
            dice: "d6",
            rule: "NGG 10.6",
        },
        crate::dice::labels::Kind {
            pattern: "combat/attack={n}/hex={place@area}",
            events: &["combat"],
            dice: "d6",
            rule: "pbem's NGG combat table",
        },
    ],
    says: &["rolls", "the die"],
    works: &["="],
    rolled: &["initiative", "combat"],
};
