//! Properties of the GITM order language, on the bundled gitm-italy-1809 scenario:
//!
//! - an orders file of any words of the language, in any order, is checked without a panic, every
//!   diagnostic renders, and every accepted order prints as text that is accepted again as itself;
//! - such files, for both sides at once, resolve a whole campaign turn without a panic, to a state
//!   that passes the state check; so do random walks of every brigade on the grid.

use proptest::prelude::*;

use crate::support::orders_property::{checks_and_prints_back, resolves, scenario, Side};
use pbem::diag::Source;
use pbem::game::map::Topology;
use pbem::rules::gitm::state::GitmState;
use pbem::rules::PowerOrders;

const GAME: &str = "gitm-italy-1809";

const FRANCE: &str =
    "game gitm-italy-1809\npower france\nplayer eugene\npassword eagle-1805\nturn 1\n";
const AUSTRIA: &str = "game gitm-italy-1809\npower austria\npassword danube-1805\nturn 1\n";

/// Words of the language and of the scenario, and some that are neither.
fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "move",
        "tactical",
        "support",
        "intercept",
        "posture",
        "supply",
        "place",
        "merge",
        "board",
        "sail",
        "embark",
        "FRT1",
        "into",
        "entry",
        "pursue",
        "to-battle",
        "halt-detection",
        "halt-entry",
        "-",
        "to",
        "via",
        "phase",
        "line",
        "front",
        "second",
        "rear",
        "engage",
        "no-fort",
        "radius",
        "phases",
        "attack",
        "defend",
        "assault",
        "skirmish",
        "evade",
        "last-ditch",
        "carry",
        "from",
        "none",
        "0",
        "1",
        "2",
        "5",
        "9",
        "14",
        "99",
        "0-0",
        "14-14",
        "15-3",
        "5-4",
        "10-5",
        "FR1IN",
        "FR2IN",
        "FR1LC",
        "FR1CQ",
        "IT1IN",
        "IT2IN",
        "AU1IN",
        "NA1IN",
        "G4-V6",
        "G5-V6",
        "G6-V6",
        "G7-V8",
        "H1-V9",
        "G3-V7",
        "L9-Z9",
        "A0-S0",
        "",
        "x",
        "Ré",
        "\u{200b}",
    ])
    .prop_map(str::to_string)
}

/// Good orders of the sample turn (which may clash), or words at random.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "move FR1LC G5-V6 G6-V6 halt-detection",
            "move FR1IN G5-V6 - G6-V6 entry 5-4 pursue",
            "move FR4IN G3-V6 G4-V6 G5-V6 G6-V6",
            "move FR1IN to-battle",
            "tactical FR2IN to 9-7 via 7-7 phase 2 line second engage 3 4",
            "support FR2IN 10-5 radius 2 phases 1 4",
            "intercept FR1LC 7-7 radius 3",
            "posture FR2IN attack assault defend last-ditch",
            "supply FR2IN carry 1 from FR1CQ",
            "supply FR4IN none",
            "merge IT1IN into IT2IN",
        ])
        .prop_map(str::to_string),
        prop::collection::vec(word(), 0..9).prop_map(|w| w.join(" ")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn any_gitm_orders_file_checks_prints_back_and_resolves(
        french in prop::collection::vec(line(), 0..12),
        austrian in prop::collection::vec(prop::collection::vec(word(), 0..9).prop_map(|w| w.join(" ")), 0..6),
    ) {
        let (game, state) = scenario(GAME);
        let sides = [
            Side { power: "france", file: "france.eugene", header: FRANCE, lines: &french },
            Side { power: "austria", file: "austria", header: AUSTRIA, lines: &austrian },
        ];
        let files = checks_and_prints_back(game, state, &sides)?;
        resolves(game, state, &files, [9; 32])?;
    }

    #[test]
    fn random_walks_of_every_brigade_resolve(picks in prop::collection::vec(any::<u16>(), 1..64)) {
        let (game, state) = scenario(GAME);
        let map = pbem::rules::gitm::grid_map(game).unwrap();
        let g = state.table::<GitmState>().unwrap();
        let mut at = 0usize;
        let mut pick = |n: usize| {
            let p = picks[at % picks.len()] as usize;
            at += 1;
            p % n.max(1)
        };
        let mut files = Vec::new();
        for (power, header) in [("france", FRANCE), ("austria", AUSTRIA)] {
            let mut text = header.to_string();
            for b in g.brigades.iter().filter(|b| b.power() == power) {
                let mut here = map.parse_place(b.square()).unwrap();
                let mut boxes = Vec::new();
                for _ in 0..pick(7) {
                    if pick(5) == 0 {
                        boxes.push("-".to_string());
                        continue;
                    }
                    let next = map.neighbours(here);
                    here = next[pick(next.len())];
                    boxes.push(map.place_name(here));
                }
                let flags = ["", " pursue", " to-battle", " halt-detection", " halt-entry"][pick(5)];
                if !boxes.is_empty() || !flags.is_empty() {
                    text.push_str(&format!("move {} {}{flags}\n", b.id(), boxes.join(" ")));
                }
                if pick(2) == 0 {
                    text.push_str(&format!("supply {} carry {}\n", b.id(), pick(3)));
                }
            }
            files.push(PowerOrders { power: power.into(), source: Source::new(format!("{power}.txt"), text) });
        }
        resolves(game, state, &files, [9; 32])?;
    }
}
