//! Properties of the WBTS order language, on the bundled wbts-peninsula-1862 scenario:
//!
//! - an orders file of any words of the language, in any order, is checked without a panic, every
//!   diagnostic renders, and every accepted order prints as text that is accepted again as itself;
//! - such a file resolves (the player turn runs to its end) without a panic.

use pbem::rules::wbts::state::WbtsState;
use proptest::prelude::*;

use crate::support::orders_property::{checks_and_prints_back, resolves, scenario, Side};
use pbem::diag::Source;
use pbem::rules::PowerOrders;

const GAME: &str = "wbts-peninsula-1862";
const HEADER: &str = "game wbts-peninsula-1862\npower union\npassword lincoln-1862\nturn 1\n";

/// Words of the language and of the scenario, and some that are neither.
fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "roster",
        "move",
        "march",
        "garrison",
        "attack",
        "sail",
        "standing",
        "with",
        "by",
        "chit",
        "shift",
        "best",
        "none",
        "no-advance",
        "stop",
        "in",
        "out",
        "0",
        "1",
        "2",
        "3",
        "4",
        "9",
        "leader",
        "risk",
        "never",
        "retreat",
        "away",
        "losses",
        "fort",
        "inside",
        "McClellan",
        "Porter",
        "Heintzelman",
        "Stoneman",
        "Keyes",
        "US-V-1",
        "US-V-2",
        "US-III-1",
        "US-Cav-1",
        "US-Monroe",
        "USS-Galena",
        "CS-M-1",
        "Magruder",
        "0903",
        "0905",
        "0906",
        "1003",
        "1004",
        "1005",
        "1002",
        "0902",
        "9999",
        "0000",
        "",
        "x",
        "Ré",
        "\u{200b}",
    ])
    .prop_map(str::to_string)
}

/// Good orders of the sample turn (which may clash with one another), or words at random.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "sail USS-Galena 1002 0902",
            "sail USS-Monitor 1102 1002 stop",
            "march Stoneman 0906 with US-Cav-1 US-Cav-2 chit 0",
            "march Stoneman 0906 with US-Cav-1 chit 1 shift best",
            "move Keyes 1004 with US-IV-1 US-IV-2",
            "move Porter 0903 with US-V-1 US-V-2",
            "move McClellan 1104 1003",
            "roster US-II-1 Heintzelman",
            "garrison US-Monroe out",
            "attack 0905 by Heintzelman chit 2",
            "attack 0903 by Porter chit 3 shift best",
            "attack 0903 by Porter chit 3 with US-V-1 no-advance",
            "attack 0905 by McClellan chit 1 with US-III-1 US-II-1",
            "standing chit 0905 max",
            "standing risk Porter never",
            "standing retreat 1004 1104",
        ])
        .prop_map(str::to_string),
        prop::collection::vec(word(), 0..9).prop_map(|w| w.join(" ")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_wbts_orders_file_checks_prints_back_and_resolves(lines in prop::collection::vec(line(), 0..12)) {
        let (game, state) = scenario(GAME);
        let side = Side { power: "union", file: "union", header: HEADER, lines: &lines };
        let files = checks_and_prints_back(game, state, &[side])?;
        resolves(game, state, &files, [9; 32])?;
    }
}

/// Random orders for the side to play: each leader walks at random (often to and fro) with the units
/// of his hex, then marches or attacks a neighbour; each ship sails at random (over the Yorktown
/// batteries and back), then bombards or engages; all on legal-looking hexes of the map.
fn random_orders(picks: &[u16]) -> String {
    let (game, state) = scenario(GAME);
    let map = pbem::rules::wbts::hex_map(game).unwrap();
    let board = pbem::rules::wbts::board::Board::new(map);
    let w = state.table::<WbtsState>().unwrap();
    let mut at = 0usize;
    let mut pick = |n: usize| {
        let p = picks[at % picks.len()] as usize;
        at += 1;
        p % n.max(1)
    };
    let mut text = String::new();
    for l in w.leaders.iter().filter(|l| l.power() == "union") {
        let with: Vec<&str> = w
            .units_in(l.hex())
            .filter(|u| u.power() == "union" && !u.inside)
            .map(|u| u.id())
            .collect();
        let mut here = l.hex().to_string();
        let mut path = Vec::new();
        for _ in 0..pick(3) {
            let next = board.neighbours(&here);
            here = next[pick(next.len())].clone();
            path.push(here.clone());
        }
        let with_text = if with.is_empty() {
            String::new()
        } else {
            format!(" with {}", with.join(" "))
        };
        if !path.is_empty() {
            text.push_str(&format!("move {} {}{with_text}\n", l.id(), path.join(" ")));
        }
        let next = board.neighbours(&here);
        let target = next[pick(next.len())].clone();
        match pick(3) {
            0 if !with.is_empty() => text.push_str(&format!(
                "march {} {target}{with_text} chit {}\n",
                l.id(),
                pick(2)
            )),
            _ => text.push_str(&format!("attack {target} by {} chit {}\n", l.id(), pick(5))),
        }
    }
    for s in w.ships.iter().filter(|s| s.power() == "union") {
        let mut here = s.hex().to_string();
        let mut path = Vec::new();
        for _ in 0..pick(6) {
            let next: Vec<String> = board
                .neighbours(&here)
                .into_iter()
                .filter(|h| matches!(board.terrain(h), "water" | "city"))
                .collect();
            if next.is_empty() {
                break;
            }
            here = next[pick(next.len())].clone();
            path.push(here.clone());
        }
        if !path.is_empty() {
            let stop = if pick(2) == 0 { " stop" } else { "" };
            text.push_str(&format!("sail {} {}{stop}\n", s.id(), path.join(" ")));
        }
        match pick(3) {
            0 => text.push_str(&format!("bombard 0903 with {}\n", s.id())),
            1 => text.push_str(&format!("engage {here}\n")),
            _ => {}
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Dice labels are unique by construction: a random turn resolves, and no label repeats.
    #[test]
    fn no_wbts_dice_label_repeats_over_random_orders(
        picks in prop::collection::vec(any::<u16>(), 64..256),
        seed in any::<u8>(),
    ) {
        let (game, state) = scenario(GAME);
        let text = format!("{HEADER}{}", random_orders(&picks));
        let orders = vec![PowerOrders { power: "union".into(), source: Source::new("union.txt", text) }];
        let resolution = resolves(game, state, &orders, [seed; 32])?;
        let mut seen = std::collections::BTreeSet::new();
        for e in &resolution.events {
            for r in &e.rolls {
                prop_assert!(seen.insert(r.label.clone()), "label {} listed twice", r.label);
            }
        }
    }
}
