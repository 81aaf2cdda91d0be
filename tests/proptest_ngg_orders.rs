//! Properties of the NGG order language, on the bundled ngg-smolensk-1812 scenario:
//!
//! - an orders file of any words of the language, in any order, is checked without a panic, every
//!   diagnostic renders, and every accepted order prints as text that is accepted again as itself;
//! - such files, one per side, resolve (the combat phase runs to NGG 10.9) without a panic, and
//!   `check --forecast` of them gives its lines without a panic.

use proptest::prelude::*;

use pbem::diag::Source;
use pbem::engine::dice_box::DiceBox;
use pbem::game::state::State;
use pbem::game::Game;
use pbem::rules::PowerOrders;

fn scenario() -> &'static (Game, State) {
    thread_local! {
        static NGG: &'static (Game, State) = {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("ngg-smolensk-1812");
            pbem::bundled::write_scenario("ngg-smolensk-1812", &dir).unwrap();
            let game = Game::load(&dir).unwrap();
            let state = game.load_state(1).unwrap();
            Box::leak(Box::new((game, state)))
        };
    }
    NGG.with(|d| *d)
}

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
        let (game, state) = scenario();
        let mut orders = Vec::new();
        for (power, header, lines) in [("french", FRENCH, &french), ("russian", RUSSIAN, &russian)] {
            let text = format!("{header}{}\n", lines.join("\n"));
            let src = Source::new(format!("ngg-smolensk-1812/orders/1/{power}.txt"), text);
            let c = game.ruleset.check_orders(game, state, &src);
            let _ = src.render(&c.diagnostics);
            let printed: Vec<String> = c.accepted.iter().map(|(_, o)| o.clone()).collect();
            let again = Source::new("again.txt", format!("{header}{}\n", printed.join("\n")));
            let c2 = game.ruleset.check_orders(game, state, &again);
            let reprinted: Vec<String> = c2.accepted.iter().map(|(_, o)| o.clone()).collect();
            prop_assert_eq!(&printed, &reprinted, "{:?}", c2.diagnostics);
            let _ = game.ruleset.forecast(game, state, &src, power);
            orders.push(PowerOrders { power: power.into(), source: src });
        }
        let mut dice = DiceBox::new(seed);
        let r = game.ruleset.resolve(game, state, &orders, &mut dice);
        prop_assert!(r.is_ok(), "{:?}", r.err());
        let r = r.unwrap();
        prop_assert!(r.events.iter().any(|e| e.rule == "NGG 10.9"));
        let held = crate::support::labels_hold(game, state, &r.events);
        prop_assert!(held.is_ok(), "{}", held.unwrap_err());
        let shown = crate::support::rolls_shown_or_sealed(&r.events);
        prop_assert!(shown.is_ok(), "{}", shown.unwrap_err());
    }
}
