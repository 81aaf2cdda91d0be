//! The Napoleon's Greatest Gamble scenario end to end through the CLI, beyond what every ruleset's
//! scenario shows (`rulesets.rs`): its three sample turns on a hex map bring about every rule of NGG
//! 10.1-10.9 and show both sides everything; `check --forecast` reads an attack plan.

use crate::support;

use std::fs;

use crate::rulesets::{assert_powers_named, demo, resolved_in_wording_0, NGG};

#[test]
fn ngg_demo_shows_both_sides_the_whole_combat_phase_and_reaches_turn_4() {
    for turn in 1..=NGG.turns {
        // Both sides see the whole combat phase (open information).
        for p in NGG.reports {
            let text = NGG.report(turn, p, "txt");
            assert!(text.contains("[NGG 10.9"), "{text}");
        }
    }
    let state4 = NGG.read("turns/4/state.toml");
    assert!(state4.contains("game_turn = 4"), "{state4}");
}

#[test]
fn ngg_demo_brings_about_every_rule_of_the_initiative_loop() {
    let all = NGG.logs();
    for rule in [
        "NGG 10.1", "NGG 10.2", "NGG 10.3", "NGG 10.4", "NGG 10.5", "NGG 10.6", "NGG 10.7",
        "NGG 10.8", "NGG 10.9",
    ] {
        assert!(
            all.contains(&format!("rule = \"{rule}\"")),
            "no event cites {rule}"
        );
    }
    // A 1 that fails (turn 1), a 7 reached with CCs, a supporting stack failing its test, a player
    // who fails while the other goes on, and a stack attacking twice (turn 2).
    assert!(NGG
        .log(1)
        .contains("rolls 1: a 1 fails whatever the CCs and the rating: the attack fails"));
    let t2 = NGG.log(2);
    for what in [
        "3 + 2 CC + CR 2 = 7 >= 7: the attack goes ahead",
        "the supporting stack in 0706 rolls 5: 5 + 1 CC + CR 0 = 6 < 7: it fails its test and stays out",
        "Russian Armies of the West failed to carry out an attack: no further opportunity this turn.",
        "Russian Armies of the West is done for the turn; Grande Armée may go on",
        "The stack attacks again this turn (10.8).",
    ] {
        assert!(t2.contains(what), "turn 2 has no '{what}'");
    }
    // Each decision says what settled it.
    for by in ["order", "standing", "sop", "roll"] {
        assert!(
            all.contains(&format!("by = \"{by}\"")),
            "no decision by {by}"
        );
    }
}

#[test]
fn ngg_check_forecast_gives_the_chances_of_an_attack_plan() {
    let (_t, game) = demo(&NGG, 1);
    let orders = game.join("french-2.txt");
    let text = include_str!("../orders/ngg-smolensk-1812/2/french.txt");
    fs::write(&orders, text).unwrap();
    let out = crate::support::forecast(&game, &orders);
    for line in [
        "Your attack plan: 3 entries; you have 6 CCs this turn.",
        "Entry 1: 0705 on 0805: 1 CC (1 by your order), CR 3: the test passes on 4 in 6 (a 3 or more); support 0706 passes on 1 in 6 (a 6 or more)",
        "Entry 3: 0704 on 0803: 1 CC (1 by your order), CR 2: the test passes on 3 in 6 (a 4 or more)",
    ] {
        assert!(out.contains(line), "{out}");
    }
}

#[test]
fn ngg_check_names_the_line_of_a_bad_attack() {
    let (_t, game) = demo(&NGG, 1);
    let orders = game.join("bad.txt");
    fs::write(
        &orders,
        "game ngg-smolensk-1812\npower french\npassword grande-armee-1812\nturn 2\nattack 0704 0904 cc 2\nattack 0704 0804 cc 2\n",
    )
    .unwrap();
    let out = support::rejected(&game, &orders);
    assert!(
        out.contains("0904 (Smolensk)") || out.contains("0904 is not next to 0704"),
        "{out}"
    );
    assert!(out.contains(":5:"), "{out}");
}

#[test]
fn ngg_scenario_is_a_hex_map_with_two_sides_and_twelve_stacks_with_rated_commanders() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ngg-smolensk-1812");
    pbem::bundled::write_scenario("ngg-smolensk-1812", &dir).unwrap();
    let game = pbem::game::Game::load(&dir).unwrap();
    assert!(matches!(
        game.geometry,
        Some(pbem::game::map::AnyMap::Hex(_))
    ));
    assert!(game.map.areas.len() >= 60, "{}", game.map.areas.len());
    assert_eq!(game.config.power_ids().count(), 2);
    let state = game.load_state(1).unwrap();
    let ngg = state.table::<pbem::rules::ngg::state::NggState>().unwrap();
    let stacks: std::collections::BTreeSet<(&str, &str)> =
        ngg.units.iter().map(|u| (u.power(), u.hex())).collect();
    assert!(stacks.len() >= 12, "{stacks:?}");
    assert!(
        ngg.units
            .iter()
            .filter(|u| u.is_commander() && u.cr > 0)
            .count()
            >= 8
    );
}

#[test]
fn ngg_reports_of_the_second_turn_are_stable() {
    insta::assert_snapshot!(
        "ngg_report_french_turn_2_txt",
        NGG.report(2, "french", "txt")
    );
    insta::assert_snapshot!(
        "ngg_report_russian_turn_2_txt",
        NGG.report(2, "russian", "txt")
    );
}

/// pbem ngg/chits, NGG 10.7: every text a player reads names a power as the scenario gives it
/// ("Combat phase: Grande Armée attacks first", "Russian Armies of the West allocates 1 CC"), never
/// by its id (`french`, `russian`, the words of pbem's game.toml): the turn log's texts, each
/// report's events and position lines, and `check --forecast`.
#[test]
fn ngg_texts_name_each_power_as_the_scenario_does() {
    let seen = assert_powers_named(
        &NGG,
        &["french", "russian"],
        &["Grande Armée", "Russian Armies of the West"],
        NGG.reports,
        |l| l.contains("attacks first") || l.starts_with("  Command chits"),
    );
    assert!(seen > 10, "the texts name the powers {seen} times");
    assert!(NGG.read("turns/1/log.toml").contains(
        "Combat phase: Grande Armée attacks first (10.7); command chits this turn: Grande Armée 6, Russian Armies of the West 5."
    ));
}

/// A turn resolved before NGG's texts named the powers (its record names no wording: wording 0,
/// "french attacks first") is re-resolved by `audit` in its own words, every byte compared, and its
/// line says so.
#[test]
fn audit_tells_an_ngg_turn_resolved_before_its_texts_named_the_powers_in_its_own_words() {
    resolved_in_wording_0(
        &NGG,
        "Combat phase: french attacks first",
        "its texts named each power by its id, where this one gives the power's name as the scenario does",
    );
}

/// pbem orders/syntax, NGG 10.1: a newcomer names a stack by a unit of it (`attack FR-Ney 0804`,
/// `forage FR-Murat`) where its hex goes; the answer says where that unit stands and what to write.
#[test]
fn ngg_a_unit_written_where_a_hex_goes_is_answered_with_its_hex() {
    let (_t, game) = demo(&NGG, 1);
    let orders = game.join("units.txt");
    fs::write(
        &orders,
        "game ngg-smolensk-1812\npower french\npassword grande-armee-1812\nturn 2\nattack FR-Ney 0804 cc 2\nforage FR-Murat\n",
    )
    .unwrap();
    let out = support::rejected(&game, &orders);
    for hint in [
        "help: FR-Ney is a unit, in 0704: orders name a stack by its hex; write '0704'",
        "help: FR-Murat is a unit, in 0703: orders name a stack by its hex; write '0703'",
    ] {
        assert!(out.contains(hint), "{hint}\n{out}");
    }
}

/// NGG 10.2 and 10.6 (CCs up to those remaining) over pbem ngg/chits (6 a turn for the Grande
/// Armée): a line allocating more CCs than the side has in a whole turn (`cc 9`) stands, and its
/// player learns at once, in the answer to his mail and from `pbem check`, that it is more than he
/// has and what the rule makes of it.
#[test]
fn ngg_10_2_cc_beyond_the_sides_chits_is_answered_at_once_with_a_warning() {
    let (t, game) = demo(&NGG, 1);
    let body = "game ngg-smolensk-1812\npower french\npassword grande-armee-1812\nturn 2\n\
                attack 0704 0804 cc 9\ndefend 0704 cc 8\nkeep 2\n";
    let orders = game.join("french.txt");
    fs::write(&orders, body).unwrap();
    let said = support::accepted(&game, &orders);
    for line in [
        "warning: 9 CCs are more than you have: 6 command chits a turn (pbem ngg/chits)",
        "help: the line stands: the attack gets the CCs you have left when it comes, 6 at most; write 6 or fewer to say what you mean",
        "note: rule NGG 10.2",
        "warning: 8 CCs are more than you have",
        "note: rule NGG 10.6",
        "all 3 order(s) accepted.",
    ] {
        assert!(said.contains(line), "{line}\n{said}");
    }
    assert_eq!(said.matches("warning:").count(), 2, "{said}");
    let mail = support::write(
        t.path(),
        "french.eml",
        support::eml(
            "french@example.org",
            "Sat, 5 Dec 2026 18:00:00 +0100",
            "fr-cc@example.org",
            body,
        ),
    );
    support::pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&mail)
        .assert()
        .success();
    let acks = support::acks(&game);
    let (_, ack) = acks
        .iter()
        .find(|(n, _)| n.contains("-ack-french-"))
        .expect("the French player is answered");
    let ack = support::body_of(ack);
    for line in [
        "These orders now stand for turn 2.",
        "line 5: attack 0704 0804 cc 9",
        "No line was rejected; a note on your message",
        "warning: 9 CCs are more than you have: 6 command chits a turn (pbem ngg/chits)",
        "the attack gets the CCs you have left when it comes, 6 at most",
        "rule NGG 10.2",
    ] {
        assert!(ack.contains(line), "{line}\n{ack}");
    }
}

/// pbem orders/syntax: an NGG line written wrong is answered with the order's form in the player's
/// own words (his unit, the hex of his stack), never with a fixed example naming one side's pieces
/// to both (`FR-III` to the Russian player too).
#[test]
fn ngg_a_syntax_hint_shows_the_order_in_the_players_own_words() {
    let (_t, game) = demo(&NGG, 1);
    let orders = game.join("french.txt");
    fs::write(
        &orders,
        "game ngg-smolensk-1812\npower french\npassword grande-armee-1812\nturn 2\n\
         move FR-Ney\nattack 0704\nforage\ndefend\n",
    )
    .unwrap();
    let french = support::rejected(&game, &orders);
    for hint in [
        "help: write 'move FR-Ney <hex> ... [force]': a unit of yours or the hex of your stack, then each hex entered",
        "help: write 'attack 0704 <hex> [with <unit> ...] [cc <n>] [support all|none|<hex> ...] [if ahead] [if holds]'",
        "help: write 'forage <hex>': the hex of a stack of yours",
        "help: write 'defend <hex> [cc <n>] [support all|none|<hex> ...]'",
    ] {
        assert!(french.contains(hint), "{hint}\n{french}");
    }
    let orders = game.join("russian.txt");
    fs::write(
        &orders,
        "game ngg-smolensk-1812\npower russian\npassword barclay-1812\nturn 2\n\
         move RU-VI\nmove 0704\nattack\n",
    )
    .unwrap();
    let russian = support::rejected(&game, &orders);
    assert!(
        russian.contains("help: write 'move RU-VI <hex> ... [force]'"),
        "{russian}"
    );
    // 0704 holds a French stack: it is no stack of his to move, only a hex.
    assert!(
        russian.contains("help: write 'move <unit|hex> 0704 ... [force]'"),
        "{russian}"
    );
    for help in russian.lines().filter(|l| l.contains("help:")) {
        assert!(!help.contains("FR-"), "{help}\n{russian}");
    }
}

/// NGG 10.2 and 10.6 over pbem ngg/chits (6 a turn for the Grande Armée): a `keep` and each CC
/// standing order beyond the side's chits stand, and `pbem check` says at once what the rule makes
/// of each in words that read: a reserve of every chit leaves none to spend. A standing order
/// within the chits is not warned.
#[test]
fn ngg_10_2_10_6_keep_and_standing_ccs_beyond_the_sides_chits_are_warned_with_what_comes_of_them() {
    let (_t, game) = demo(&NGG, 1);
    let body = "game ngg-smolensk-1812\npower french\npassword grande-armee-1812\nturn 2\n\
                keep 7\nstanding attack-cc 9\nstanding defence-cc Smolensk 7\n\
                standing attack-reserve 8\nstanding defence-reserve 10\nstanding defence-cc 6\n";
    let orders = game.join("french.txt");
    fs::write(&orders, body).unwrap();
    let said = support::accepted(&game, &orders);
    let stands = |what: &str| format!("help: the line stands: {what}; write 6 or fewer");
    for (n, line) in [(7, 5), (9, 6), (7, 7), (8, 8), (10, 9)] {
        let warned = format!("warning: {n} CCs are more than you have: 6 command chits a turn");
        assert!(said.contains(&warned), "line {line}: {warned}\n{said}");
        assert!(
            said.contains(&format!("french.txt:{line}:")),
            "line {line}\n{said}"
        );
    }
    for what in [
        "your attacks get no CC: every one is kept for defence",
        "an attack gets the CCs you have left when it comes, 6 at most",
        "a defence gets the CCs you have left when it comes, 6 at most",
        "your defences spend no CC: every one is kept back",
    ] {
        assert!(said.contains(&stands(what)), "{what}\n{said}");
    }
    assert_eq!(
        said.matches("your attacks get no CC: every one is kept for defence")
            .count(),
        2,
        "keep and attack-reserve\n{said}"
    );
    assert_eq!(
        said.matches("warning:").count(),
        5,
        "6 is not warned\n{said}"
    );
    assert!(said.contains("all 6 order(s) accepted."), "{said}");
}
