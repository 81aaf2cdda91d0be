//! Properties of the PoG order language, on the bundled pog-1914 scenario:
//!
//! - an orders file of any words of the language, in any order, is checked without a panic, every
//!   diagnostic renders, and every accepted order prints as text that is accepted again as itself;
//! - such a file resolves (the action runs to its end) without a panic.

use proptest::prelude::*;

use crate::support::orders_property::{checks_and_prints_back, resolves, scenario, Side};

const HEADER: &str = "game pog-1914\npower central\npassword kaiser-1914\nturn 1\n";

/// Words of the language and of the scenario, and some that are neither.
fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "move",
        "entrench",
        "attack",
        "with",
        "flank",
        "card",
        "table",
        "army",
        "no-advance",
        "after",
        "standing",
        "losses",
        "cheapest",
        "retreat",
        "cancel-retreat",
        "always",
        "GE-1",
        "GE-3",
        "GE-4",
        "GE-XII",
        "GE-VII",
        "GE-XX",
        "GE-8",
        "AH-1",
        "FR-5",
        "Reims",
        "Reims+",
        "Sedan",
        "Mezieres",
        "Lille",
        "Antwerp",
        "Lodz+",
        "Czestochowa",
        "Chalons",
        "Verdun",
        "flamethrowers",
        "+",
        "",
        "x",
        "Ré",
        "\u{200b}",
    ])
    .prop_map(str::to_string)
}

/// Good orders of the sample action (which may clash with one another), or words at random.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "move GE-XX Lodz+ Czestochowa",
            "move GE-XX Lodz",
            "entrench GE-8",
            "attack Antwerp with GE-III-R GE-IX-R",
            "attack Reims with GE-3 GE-VII GE-4 GE-XII flank Sedan",
            "attack Reims with GE-3 after",
            "attack Lille with GE-1 no-advance",
            "standing losses corps-first",
        ])
        .prop_map(str::to_string),
        prop::collection::vec(word(), 0..9).prop_map(|w| w.join(" ")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_orders_file_checks_prints_back_and_resolves(lines in prop::collection::vec(line(), 0..12)) {
        let (game, state) = scenario("pog-1914");
        let side = Side { power: "central", file: "central", header: HEADER, lines: &lines };
        let files = checks_and_prints_back(game, state, &[side])?;
        resolves(game, state, &files, [9; 32])?;
    }
}
