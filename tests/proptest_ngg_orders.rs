//! Properties of the NGG order language, on the bundled ngg-smolensk-1812 scenario:
//!
//! - an orders file of any words of the language, in any order, is checked without a panic, every
//!   diagnostic renders, and every accepted order prints as text that is accepted again as itself;
//! - such files, one per side, resolve (the combat phase runs to NGG 10.9) without a panic, and
//!   `check --forecast` of them gives its lines without a panic.

use proptest::prelude::*;

use crate::support::orders_property::{checks_and_prints_back, resolves, scenario, Side};

const FRENCH: &str = "game ngg-smolensk-1812\npower french\npassword grande-armee-1812\nturn 1\n";
const RUSSIAN: &str = "game ngg-smolensk-1812\npower russian\npassword barclay-1812\nturn 1\n";

/// Words of the language and of the scenario, and some that are neither.
fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "move",
        "forage",
        "attack",
        "stop",
        "after",
        "attacks",
        "keep",
        "defend",
        "standing",
        "with",
        "cc",
        "support",
        "all",
        "none",
        "if",
        "ahead",
        "holds",
        "force",
        "attack-cc",
        "defence-cc",
        "defence-reserve",
        "attack-support",
        "0",
        "1",
        "2",
        "7",
        "99",
        "100",
        "0704",
        "0804",
        "0705",
        "0805",
        "0706",
        "0803",
        "0703",
        "0904",
        "0905",
        "0605",
        "1212",
        "0000",
        "Smolensk",
        "Krasnoi",
        "FR-III",
        "FR-Ney",
        "FR-VIII",
        "RU-VII",
        "RU-27",
        "x",
        "",
        "-1",
        "Ré",
        "\u{200b}",
    ])
    .prop_map(str::to_string)
}

/// Good orders of both sides (which may clash with one another), or words at random.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "move FR-VIII 0606 0706 force",
            "move 0504 0604",
            "forage 0605",
            "attack 0704 0804 cc 2 support 0705",
            "attack 0704 0804 cc 1 if holds",
            "attack 0705 0805 cc 1 support 0706 if ahead",
            "attack 0805 0705 cc 0",
            "attack 0804 0704 cc 3 support all",
            "stop after 2 attacks",
            "keep 1",
            "defend 0804 cc 2 support 0904 0905",
            "defend 0704 cc 1",
            "standing defence-reserve 1",
            "standing defence-cc Smolensk 2",
        ])
        .prop_map(str::to_string),
        prop::collection::vec(word(), 0..9).prop_map(|w| w.join(" ")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn any_ngg_orders_file_checks_prints_back_and_resolves(
        french in prop::collection::vec(line(), 0..10),
        russian in prop::collection::vec(line(), 0..10),
        seed in any::<[u8; 32]>(),
    ) {
        let (game, state) = scenario("ngg-smolensk-1812");
        let sides = [
            Side { power: "french", file: "french", header: FRENCH, lines: &french },
            Side { power: "russian", file: "russian", header: RUSSIAN, lines: &russian },
        ];
        let files = checks_and_prints_back(game, state, &sides)?;
        for f in &files {
            let _ = game.ruleset.forecast(game, state, &f.source, &f.power);
        }
        let r = resolves(game, state, &files, seed)?;
        prop_assert!(r.events.iter().any(|e| e.rule == "NGG 10.9"));
    }
}
