//! The War Between the States scenario end to end through the CLI, beyond what every ruleset's
//! scenario shows (`rulesets.rs`): its three sample player turns alternate and bring about each
//! procedure the issue lists; the reports call each piece by its own kind; `check --forecast` tells
//! what an attack would do.

use crate::support;

use std::fs;
use std::path::PathBuf;

use crate::rulesets::{
    assert_powers_named, demo, resolved_in_wording, resolved_in_wording_0, WBTS,
};
use support::pbem;

/// The demo before turn 1 is resolved: resolved, then its record removed.
fn unresolved() -> (tempfile::TempDir, PathBuf) {
    let (t, game) = demo(&WBTS, 1);
    fs::remove_file(game.join("turns/1/record.toml")).unwrap();
    (t, game)
}

#[test]
fn wbts_demo_alternates_the_player_turns() {
    // The player turns alternate: union, confederate, union; the confederates play turn 4.
    let state4 = WBTS.read("turns/4/state.toml");
    assert!(state4.contains("active = \"confederate\""), "{state4}");
}

/// The reports call each WBTS piece what a WBTS player calls it (the schema's WBTS words), never an
/// Empires in Arms corps or fleet.
#[test]
fn wbts_reports_call_each_piece_by_its_own_kind() {
    let json: serde_json::Value = serde_json::from_str(&WBTS.report(1, "union", "json")).unwrap();
    let mut kinds: Vec<&str> = json["units"]
        .as_array()
        .unwrap()
        .iter()
        .chain(json["sees"]["units"].as_array().unwrap())
        .map(|u| u["kind"].as_str().unwrap())
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert_eq!(
        kinds,
        [
            "artillery",
            "cavalry",
            "gunboat",
            "infantry",
            "leader",
            "train",
            "transport"
        ]
    );
}

#[test]
fn wbts_demo_brings_about_every_procedure_of_the_issue() {
    let all = WBTS.logs();
    for (rule, what) in [
        ("WBTS ground/intensity", "intensity chits"),
        ("WBTS ground/supply", "combat supply paid"),
        ("WBTS ground/contact", "a contact"),
        ("WBTS ground/shift", "a leader shift"),
        ("WBTS ground/leader-loss", "a leader loss roll"),
        ("WBTS ground/no-supply", "a side out of combat supply"),
        ("WBTS march", "an attack from march"),
        ("WBTS fort/storm", "a storm"),
        ("WBTS naval/transit", "a naval transit attack"),
        ("WBTS ground/initiative", "initiative rolls"),
        ("WBTS fort/siege", "a siege"),
        ("WBTS naval/combat", "a naval combat"),
        ("WBTS naval/fort", "a naval attack on a fort"),
        ("WBTS fort/inside", "a garrison moved inside by the SOP"),
    ] {
        assert!(
            all.contains(&format!("rule = \"{rule}\"")),
            "no event cites {rule} ({what})"
        );
    }
    assert!(
        all.contains("halved") && all.contains("(WBTS ground/river)"),
        "a river halving"
    );
    assert!(all.contains("a storm by Porter"), "the storm of Yorktown");
    assert!(
        all.contains("naval transit attack, die"),
        "the Galena's run"
    );
}

#[test]
fn wbts_check_forecast_tells_what_an_attack_would_do() {
    let (tmp, dir) = unresolved();
    let orders = tmp.path().join("union.txt");
    fs::write(
        &orders,
        "game wbts-peninsula-1862\npower union\npassword lincoln-1862\nturn 1\n\
         attack 0905 by Heintzelman chit 2\nsail USS-Galena 1002 0902\n",
    )
    .unwrap();
    let out = crate::support::forecast(&dir, &orders);
    assert!(
        out.contains("Heintzelman would roll for initiative (passes on 3 or less) and attack 0905 with strength 5 against 9 (odds 1:2), chit 2 (across the river from 1005: 11 halved to 5 (WBTS ground/river))"),
        "{out}"
    );
    assert!(
        out.contains("USS-Galena would cross the fortified hexside from 1002 to 0902"),
        "{out}"
    );
}

#[test]
fn wbts_orders_for_the_side_not_playing_may_only_be_standing_orders() {
    let (tmp, dir) = unresolved();
    let orders = tmp.path().join("confederate.txt");
    fs::write(
        &orders,
        "game wbts-peninsula-1862\npower confederate\npassword davis-1862\nturn 1\n\
         attack 1004 by Longstreet chit 3\nstanding chit 0905 2\n",
    )
    .unwrap();
    let out = pbem()
        .arg("check")
        .arg(&dir)
        .arg(&orders)
        .assert()
        .get_output()
        .clone();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("it is Union's player turn, not yours"),
        "{text}"
    );
    assert!(text.contains("confederate.txt:5:1"), "{text}");
}

/// The ORDERS.md Union example, forecast by `check --forecast`, gives the strengths the resolver
/// gives the same orders in the demo's turn 1: one arithmetic for both (per hex halving across
/// rivers, march halving, storms).
#[test]
fn wbts_forecast_of_the_orders_md_union_example_agrees_with_the_demo() {
    let doc = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/ORDERS.md")).unwrap();
    let part = doc
        .split("### An example: the Union, turn 1 of `wbts-peninsula-1862`")
        .nth(1)
        .unwrap();
    let example = part
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    let (tmp, dir) = unresolved();
    let orders = tmp.path().join("union.txt");
    fs::write(&orders, example).unwrap();
    let out = crate::support::forecast(&dir, &orders);
    let log = WBTS.read("turns/1/log.toml");
    // (the forecast's words, the resolver's) for each attack of the example.
    for (forecast, resolved) in [
        (
            "Stoneman would attack 0906 from march from 1006 with strength 2,",
            "Combat 1 at 0906, an attack from march by Stoneman with US-Cav-1, US-Cav-2 from 1006: strength 2 against 3",
        ),
        (
            "attack 0905 with strength 5 against 9",
            "Combat 2 at 0905, an attack by Heintzelman with US-III-1, US-III-2 from 1005: strength 5 against 9",
        ),
        (
            "attack 0903 with strength 9 against 3",
            "Combat 3 at 0903, an attack by Porter with US-V-1, US-V-2 from 1003: strength 9 against 3",
        ),
    ] {
        assert!(out.contains(forecast), "{forecast}\n{out}");
        assert!(log.contains(resolved), "{resolved}\n{log}");
    }
}

/// Every text a player reads names a power as the scenario gives it ("player turn of Union",
/// "Confederate States (defender) rolls ..."), never by its id (`union`, `confederate`): the turn
/// log's texts and templates, each report's events and position lines, and `check --forecast`.
#[test]
fn wbts_texts_name_each_power_as_the_scenario_does() {
    let ids = ["union", "confederate"];
    let seen = assert_powers_named(&WBTS, &ids, &["Union", "Confederate States"], &ids, |l| {
        l.contains("the player turn of") || l.contains(", held by ")
    });
    assert!(seen > 10, "the texts name the powers {seen} times");
    assert!(WBTS
        .read("turns/1/log.toml")
        .contains("Game turn 1, player turn of Union."));
    // Turn 1 is the Union's: the Confederate player's forecast says whose turn it is.
    let (tmp, dir) = unresolved();
    let orders = tmp.path().join("confederate.txt");
    fs::write(
        &orders,
        "game wbts-peninsula-1862\npower confederate\npassword davis-1862\nturn 1\n",
    )
    .unwrap();
    let out = crate::support::forecast(&dir, &orders);
    assert!(
        out.contains("Turn 1 is the player turn of Union: only your standing orders count in it"),
        "{out}"
    );
}

/// A turn resolved before WBTS's texts named the powers (its record names no wording: wording 0,
/// "player turn of union") is re-resolved by `audit` in its own words, every byte compared, and its
/// line says so; a byte changed in it is still named.
#[test]
fn audit_tells_a_wbts_turn_resolved_before_its_texts_named_the_powers_in_its_own_words() {
    let (_t, dir, log) = resolved_in_wording_0(
        &WBTS,
        "player turn of union.",
        "its texts named each power by its id, where this one gives the power's name as the scenario does; and they called a fortress a fort, told a move by its hexes alone and a combat result by its cell alone, where this one says what they mean",
    );
    fs::write(
        dir.join("turns/3/log.toml"),
        log.replacen("player turn of union.", "player turn of uniom.", 1),
    )
    .unwrap();
    let out = pbem().arg("audit").arg(&dir).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{said}");
    assert!(
        said.contains("turn 3: MISMATCH: wbts-peninsula-1862/turns/3/log.toml differs from the re-resolved turn"),
        "{said}"
    );
}

/// pbem orders/syntax: a line of WBTS written wrong is answered with the order's form in the
/// player's own words (his hex, his leader, his unit, his ship), never with an example naming pieces
/// his game has not (`CS-Yorktown`, `US-2-1`, `Galena`: of no side of the Peninsula).
#[test]
fn wbts_a_syntax_hint_shows_the_order_in_the_players_own_words() {
    let (tmp, dir) = unresolved();
    let orders = tmp.path().join("union.txt");
    fs::write(
        &orders,
        "game wbts-peninsula-1862\npower union\npassword lincoln-1862\nturn 1\n\
         attack 0903 with Porter chit 3\n\
         garrison US-Monroe inside\n\
         roster US-II-1\n\
         move Keyes\n\
         sail USS-Galena\n\
         bombard 0903 USS-Monitor\n\
         engage\n",
    )
    .unwrap();
    let text = support::rejected(&dir, &orders);
    for hint in [
        "help: write 'attack 0903 by Porter chit <0-4> [with <unit> ...] [shift best|none|<n>] [no-advance]'",
        "help: write 'garrison US-Monroe in' (or 'out')",
        "help: write 'roster US-II-1 <leader>'",
        "help: write 'move Keyes <hex> ... [with <unit> ...]'",
        "help: write 'sail USS-Galena <hex> ... [stop]'",
        "help: write 'bombard 0903 with USS-Monitor ...'",
        "help: write 'engage <hex>'",
    ] {
        assert!(text.contains(hint), "{hint}\n{text}");
    }
    for foreign in [
        "CS-Yorktown",
        "US-2-1",
        "US-4-1",
        "Sumner chit 2",
        "Galena 0110",
    ] {
        assert!(!text.contains(foreign), "{foreign}\n{text}");
    }
}

/// A turn resolved in WBTS's wording 1 (a fortress called a fort, "McClellan moves 1104 1003",
/// "Result 1/2r on row 6: ...") is re-resolved by `audit` in its own words, every byte compared,
/// its reports' units too ("inside the fort" for the garrison of Fortress Monroe), and its line
/// says so.
#[test]
fn audit_tells_a_wbts_turn_of_wording_1_in_its_own_words() {
    let (_t, dir, log) = resolved_in_wording(
        &WBTS,
        1,
        "Result 1/2r on row 6: Union loses",
        "its texts called a fortress a fort, told a move by its hexes alone and a combat result by its cell alone, where this one says what they mean",
    );
    assert!(log.contains("McClellan moves 1104 1003."), "{log}");
    assert!(log.contains("(6, 2x: 12); odds 1:3"), "{log}");
    let report = fs::read_to_string(dir.join("turns/3/reports/union.txt")).unwrap();
    assert!(report.contains("4 SP, inside the fort\n"), "{report}");
}

/// WBTS fort: a fortress (3x) is a fortress in every line of a report, as THE POSITION calls it
/// ("fortress in 1206"): its garrison is "inside the fortress", never "inside the fort"; a fort (2x)
/// stays a fort.
#[test]
fn wbts_fort_a_fortress_is_called_a_fortress_in_the_report() {
    for turn in 1..=WBTS.turns {
        let report = WBTS.report(turn, "union", "txt");
        assert!(
            report.contains("fortress in 1206, held by Union; inside: US-Monroe."),
            "{report}"
        );
        let monroe: Vec<&str> = report
            .lines()
            .filter(|l| l.contains("US-Monroe ") && l.contains("SP"))
            .collect();
        assert!(!monroe.is_empty(), "{report}");
        for line in monroe {
            assert!(line.ends_with("4 SP, inside the fortress"), "{line}");
        }
        for line in report
            .lines()
            .filter(|l| l.contains("CS-H-1 ") && l.contains("inside"))
        {
            assert!(line.ends_with("SP, inside the fort"), "{line}");
        }
    }
}

/// pbem wbts/movement: a move is told with where it goes ("moves to 1004", "moves by 1104 to
/// 1003", "sails by 0702, 0802 to 0902"), not as a bare list of hexes ("moves 1004").
#[test]
fn pbem_wbts_movement_a_move_is_told_with_where_it_goes() {
    let all = WBTS.logs();
    for text in [
        "Keyes with US-IV-1, US-IV-2 moves to 1004.",
        "McClellan moves by 1104 to 1003.",
        "CSS-Teaser sails by 0702, 0802 to 0902.",
        "USS-Galena sails by 1002 to 0902.",
    ] {
        assert!(all.contains(text), "{text}\n{all}");
    }
    assert!(!all.contains("moves 1004."), "{all}");
}

/// WBTS ground/results, ground/attrition: a combat result is told with what its cell and row mean,
/// in words a player reads without the table beside him: the table's odds column, each side's loss
/// level, who retreats ('r'), and what a level costs at the combat's total intensity, before the
/// percentages each side loses.
#[test]
fn wbts_ground_results_a_result_is_told_with_what_its_cell_and_row_mean() {
    let all = WBTS.logs();
    for text in [
        "Result 2/1 on row 3 of the combat results table, in the odds column 1:2 (the die after any shift gives the row): the attacker's loss level 2, the defender's 1, and neither retreats; a level is 10% of a force at total intensity 4 (WBTS ground/results), in strength points by the attrition table (WBTS ground/attrition): Union loses 20% (3 SP), Confederate States loses 10% (1 SP).",
        "Result 1/2r on row 6 of the combat results table, in the odds column 1:2 (the die after any shift gives the row): the attacker's loss level 1, the defender's 2, and the defender retreats ('r'); a level is 15% of a force at total intensity 5",
    ] {
        assert!(all.contains(text), "{text}\n{all}");
    }
    for line in all.lines().filter(|l| l.contains("Result ")) {
        assert!(
            line.contains(" of the combat results table, in the odds column "),
            "{line}"
        );
    }
}

/// WBTS naval/fort: a naval attack on a fort tells the garrison's strength and the result's cell in
/// words ("6 SP, doubled in the fort: 12"; "the ships' loss level 1, the garrison's 1"), not as
/// "(6, 2x: 12)" and "result 1/1" alone.
#[test]
fn wbts_naval_fort_a_naval_attack_tells_the_garrison_and_its_result_in_words() {
    let all = WBTS.report(3, "union", "txt");
    let text = "USS-Monitor (4) attacks the garrison of the fort in 0903 (6 SP, doubled in the fort: 12); odds 1:3, die 6: result 1/1; the ships' loss level 1, the garrison's 1, a level 10% at intensity 4 (on the combat results table, WBTS ground/results); the garrison loses 10% (1 SP)";
    assert!(all.contains(text), "{text}\n{all}");
}
