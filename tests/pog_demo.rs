//! The Paths of Glory scenario end to end through the CLI, beyond what every ruleset's scenario shows
//! (`rulesets.rs`): its four sample actions alternate and bring about the combat rules, `status`
//! names the side not due, and the reports of the first action are kept as snapshots.

use crate::support;
use crate::support::read_outbox_string;

use std::fs;

use crate::rulesets::{assert_powers_named, demo, resolved_in_wording_0, POG};
use support::pbem;

fn report(turn: u32, power: &str, ext: &str) -> String {
    POG.report(turn, power, ext)
}

#[test]
fn pog_demo_alternates_the_actions_and_every_report_holds_a_position() {
    for turn in 1..=POG.turns {
        for p in POG.reports {
            let json: serde_json::Value = serde_json::from_str(&report(turn, p, "json")).unwrap();
            assert!(json["position"].as_array().is_some_and(|a| !a.is_empty()));
        }
    }
    // The actions alternate: central, allies, central, allies; central is to act in turn 5.
    let state5 = POG.read("turns/5/state.toml");
    assert!(state5.contains("active = \"central\""), "{state5}");
}

#[test]
fn pog_demo_actions_bring_about_the_combat_rules() {
    let all = POG.logs();
    for rule in [
        "PoG 11.1.4",   // control on the way and at the end
        "PoG 11.2.2.1", // an entrenching roll
        "PoG 12.2.1",   // an empty space attacked first
        "PoG 12.2.2",   // strengths, with a fort
        "PoG 12.2.7",   // fire tables
        "PoG 12.2.9",   // losses
        "PoG 12.2.10",  // the winner, cards discarded
        "PoG 12.2.12",  // an advance
        "PoG 12.3.2",   // a flank attack with its DRM
        "PoG 12.2.5",   // combat cards
    ] {
        assert!(
            all.contains(&format!("rule = \"{rule}\"")),
            "no event cites {rule}"
        );
    }
    assert!(all.contains("kind = \"retreat\""));
}

#[test]
fn pog_status_names_the_side_not_due() {
    let (_t, game) = demo(&POG, 1);
    let out = pbem()
        .arg("status")
        .arg(&game)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    // Turn 2 is the allies' action: central owes nothing.
    let central = out
        .lines()
        .find(|l| l.trim_start().starts_with("central"))
        .unwrap();
    assert!(central.contains("none due this turn"), "{out}");
    let allies = out
        .lines()
        .find(|l| l.trim_start().starts_with("allies"))
        .unwrap();
    assert!(allies.contains("missing"), "{out}");
    // Only the side due is reminded.
    // Before turn 2's deadline: after it, remind writes none.
    pbem()
        .arg("remind")
        .arg(&game)
        .env("PBEM_NOW", "2026-12-07T10:00:00Z")
        .assert()
        .success();
    let reminders: Vec<String> = fs::read_dir(game.join("mail/outbox"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("reminder"))
        .collect();
    assert_eq!(reminders, ["t0002-reminder-allies.eml"]);
    // The announcement of turn 2 tells central the turn is not its to play.
    let central = read_outbox_string(game.join("mail/outbox/t0002-announcement-central.eml"));
    assert!(central.contains("is the other side's to play"), "{central}");
    let allies = read_outbox_string(game.join("mail/outbox/t0002-announcement-allies.eml"));
    assert!(
        allies.contains("orders for Allied Powers are due"),
        "{allies}"
    );
}

#[test]
fn pog_reports_of_the_first_action_are_stable() {
    insta::assert_snapshot!("pog_report_central_turn_1_txt", report(1, "central", "txt"));
    insta::assert_snapshot!("pog_report_allies_turn_1_txt", report(1, "allies", "txt"));
}

#[test]
fn pog_demo_of_one_action_says_how_to_play_them_all() {
    let tmp = tempfile::tempdir().unwrap();
    let out = pbem()
        .args(["demo", "--game", "pog-1914", "--dir"])
        .arg(tmp.path().join("d"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("`pbem demo --game pog-1914 --turns 4` plays them all"),
        "{out}"
    );
    assert!(out.contains("Battles: Lille, Antwerp, Reims"), "{out}");
}

/// PoG 12.2.10: a tied combat (both sides lose, Antwerp in the first action) is told on the map's
/// legend as its result says, to both sides, never as an outcome not seen.
#[test]
fn pog_12_2_10_the_map_legend_tells_a_tied_battle_as_its_result_says() {
    assert!(POG.log(1).contains("Both sides lose at Antwerp"));
    for power in POG.reports {
        let svg = report(1, power, "svg");
        let legend = svg.split("Battles you saw").nth(1).unwrap();
        assert!(
            legend.contains("Antwerp: Both sides lose<"),
            "{power}: {legend}"
        );
        assert!(!legend.contains("outcome not seen"), "{power}: {legend}");
    }
}

/// The second Paths of Glory scenario, of the other theatres: its four sample actions bring about the
/// rules of the Near East, the MEF, the neutrals, the ANA and the SN Corps (one demo run).
#[test]
fn pog_1915_demo_brings_about_the_theatre_rules() {
    const POG_1915: crate::rulesets::Scenario = crate::rulesets::Scenario {
        id: "pog-1915",
        ruleset: "pog",
        turns: 4,
        reports: &["allies", "central"],
    };
    let (_t, game) = demo(&POG_1915, POG_1915.turns);
    let logs: String = (1..=POG_1915.turns)
        .map(|t| fs::read_to_string(game.join(format!("turns/{t}/log.toml"))).unwrap())
        .collect();
    for rule in [
        "PoG 11.1.11", // Bulgaria enters the war by the Central Powers' `war` order
        "PoG 11.1.14", // the ANA gives Medina back as it moves on
        "PoG 11.1.15", // Sollum, converted by the Senussi and cut off, returns to the Allies
        "PoG 11.3.2",  // one Russian corps a game turn down from the To Caucasus box
        "PoG 12.2.6",  // -3 from Sinai
    ] {
        assert!(
            logs.contains(&format!("rule = \"{rule}\"")),
            "no event cites {rule}"
        );
    }
    // One corps in game turn 5, the other in game turn 6: the passage is the game turn's.
    assert_eq!(logs.matches("rule = \"PoG 11.3.2\"").count(), 2);
    let state = fs::read_to_string(game.join("turns/5/state.toml")).unwrap();
    assert!(
        state.contains("neutral = [\"greece\", \"italy\"]"),
        "{state}"
    );
    // Every report of the theatres' rules checks out as its player checks it.
    for turn in 1..=POG_1915.turns {
        for power in POG_1915.reports {
            let text = game.join(format!("turns/{turn}/reports/{power}.txt"));
            pbem()
                .arg("verify")
                .arg(&text)
                .arg(text.with_extension("json"))
                .assert()
                .success();
        }
    }
}

/// pbem pog/action, PoG 12.2.10: every text a player reads names a side as the scenario gives it
/// ("Game turn 3, action 1 of 12: Central Powers act", "Allied Powers play They Shall Not Pass"),
/// never by its id (`central`, `allies`, the words of pbem's game.toml), with its verb in the plural
/// (PoG's sides are alliances): the turn log's texts, each report's events, position lines and map
/// marks, an answer to a line sent out of turn and `check --forecast`.
#[test]
fn pog_texts_name_each_side_as_the_scenario_does() {
    let seen = assert_powers_named(
        &POG,
        &["central", "allies"],
        &["Central Powers", "Allied Powers"],
        POG.reports,
        |l| l.contains("next to act:") || l.starts_with("  Trenches:"),
    );
    assert!(seen > 50, "the texts name the sides {seen} times");
    let log = POG.log(1);
    for text in [
        "Game turn 3, action 1 of 12: Central Powers act.",
        "Allied Powers play They Shall Not Pass (DRM +1).",
        "Central Powers (attacker) fire on the Army table, column 12: a ",
        "Central Powers win at Reims: loss numbers 4 to 2.",
        "Allied Powers lost the combat and discard they-shall-not-pass.",
        "The next action: Allied Powers.",
    ] {
        assert!(log.contains(text), "turn 1 has no '{text}'");
    }
    let allies = report(1, "allies", "txt");
    assert!(
        allies.contains("  Game turn 3, 1 of 12 actions played; next to act: Allied Powers."),
        "{allies}"
    );
    for power in POG.reports {
        let svg = report(1, power, "svg");
        assert!(svg.contains("trench level 1 (Central Powers)"), "{power}");
        assert!(!svg.contains("trench level 1 (central)"), "{power}");
    }
    // A line sent out of turn, and the forecast of a side not to act.
    let (tmp, game) = demo(&POG, 1);
    let orders = tmp.path().join("central.txt");
    fs::write(
        &orders,
        "game pog-1914\npower central\npassword kaiser-1914\nturn 2\nentrench GE-1\n",
    )
    .unwrap();
    let out = support::rejected(&game, &orders);
    assert!(
        out.contains("it is Allied Powers' action, not yours"),
        "{out}"
    );
    fs::write(
        &orders,
        "game pog-1914\npower central\npassword kaiser-1914\nturn 2\n",
    )
    .unwrap();
    let out = support::forecast(&game, &orders);
    assert!(
        out.contains("Turn 2 is the action of Allied Powers: only your standing orders count"),
        "{out}"
    );
}

/// A turn resolved before PoG's texts named the sides (its record names no wording: wording 0,
/// "central acts") is re-resolved by `audit` in its own words, every byte compared, and its line
/// says so.
#[test]
fn audit_tells_a_pog_turn_resolved_before_its_texts_named_the_sides_in_its_own_words() {
    let (_t, _dir, log) = resolved_in_wording_0(
        &POG,
        "Game turn 3, action 3 of 12: central acts.",
        "its texts named each side by its id, where this one gives the side's name as the scenario does",
    );
    assert!(log.contains("central (attacker) fires on the"), "{log}");
}

/// pbem orders/syntax: a PoG line written wrong is answered with the order's form in the player's
/// own words (his unit, the space he wrote), never with a fixed example naming one side's pieces to
/// both (`GE-1`, `GE-5` to the Allies too).
#[test]
fn pog_a_syntax_hint_shows_the_order_in_the_players_own_words() {
    let (_t, game) = demo(&POG, 1);
    let orders = game.join("orders.txt");
    for (power, password, unit, foreign) in [
        ("central", "kaiser-1914", "GE-1", "FR-"),
        ("allies", "entente-1914", "FR-5", "GE-"),
    ] {
        fs::write(
            &orders,
            format!(
                "game pog-1914\npower {power}\npassword {password}\nturn 2\n\
                 move {unit}\nentrench\nattack Reims\n"
            ),
        )
        .unwrap();
        let out = support::rejected(&game, &orders);
        for hint in [
            format!("help: write 'move {unit} <space>[+] [<space>[+] ...]': the unit, then each space it enters ('+': taking control of it on the way)"),
            "help: write 'entrench <unit>'".to_string(),
            "help: write 'attack Reims with <unit> [<unit> ...] [flank <space>] [card <card>] ... [table army] [no-advance] [after]'".to_string(),
        ] {
            assert!(out.contains(&hint), "{hint}\n{out}");
        }
        for help in out.lines().filter(|l| l.contains("help:")) {
            assert!(!help.contains(foreign), "{help}\n{out}");
        }
    }
}

/// pbem report/map: the map's battles name their victor as the legend reads it from the result,
/// whose text names each side as the scenario does ("Central Powers win at Reims"): "Reims: won by
/// Central Powers", in either side's map, as the battles of a result naming powers by their ids
/// always were; a result naming no power it knew gave only its first words.
#[test]
fn pog_maps_name_the_victor_of_each_battle_seen() {
    for power in POG.reports {
        let svg = report(1, power, "svg");
        assert!(
            svg.contains("Reims: won by Central Powers"),
            "{power}: {svg}"
        );
        assert!(
            svg.contains("Lille: won by Central Powers"),
            "{power}: {svg}"
        );
    }
}

/// A PoG turn whose reports were made in report wording 1 (its maps found a battle's victor among
/// the powers' ids alone, and gave a result naming the sides by name as its first words, "Reims:
/// Central Powers win") is re-resolved by `audit` in its own words, every byte of its maps
/// compared, and its line says so.
#[test]
fn audit_tells_a_pog_turn_whose_maps_found_victors_by_ids_in_its_own_words() {
    let (_t, dir) = demo(&POG, 1);
    let mut game = pbem::game::Game::load(&dir).unwrap();
    game.config.wording = Some(pbem::game::record::Wording {
        texts: 1,
        reports: 1,
    });
    support::locked(|| {
        pbem::referee::turn::resolve(
            &game,
            &pbem::referee::turn::ResolveOptions {
                turn: Some(1),
                force: true,
                by_schedule: true,
            },
        )
    });
    let svg = fs::read_to_string(dir.join("turns/1/reports/allies.svg")).unwrap();
    assert!(svg.contains("Reims: Central Powers win"), "{svg}");
    assert!(!svg.contains("won by"), "{svg}");
    let record = fs::read_to_string(dir.join("turns/1/record.toml")).unwrap();
    assert!(
        record.contains("[wording]\ntexts = 1\nreports = 1\n"),
        "{record}"
    );
    let out = pbem().arg("audit").arg(&dir).assert().success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        said.starts_with("turn 1: ok (")
            && said.contains("report wording 1 (this pbem's is 2: their maps found a battle's victor only among the powers' ids, where this one finds it by the name the texts give too, and the announcement of the next commitment named fewer parts of the rules it fixes)"),
        "{said}"
    );
}
