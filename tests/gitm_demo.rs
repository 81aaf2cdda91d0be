//! The Gathered In Their Masses scenario end to end through the CLI: `pbem demo --game
//! gitm-italy-1809` resolves three campaign turns with the bundled sample orders, writes every report
//! (one per player of France, GITM 4.6), brings about what the issue lists (noisy sightings, the
//! deputy's order overruled, defaults, a forced march, a withdrawal, a pursuit, the armies meeting in
//! G7-V6); `check` locates a bad order by file, line and column. The audit and a forced rerun, as
//! for every ruleset: `rulesets.rs`.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};

use crate::rulesets::{demo, resolved, GITM};
use support::pbem;

const REPORTS: [&str; 4] = ["france.eugene", "france.macdonald", "austria", "naples"];

fn gitm_demo(turns: u32) -> (tempfile::TempDir, PathBuf) {
    demo(&GITM, turns)
}

fn log(game: &Path, turn: u32) -> String {
    fs::read_to_string(game.join(format!("turns/{turn}/log.toml"))).unwrap()
}

fn report(game: &Path, turn: u32, who: &str) -> String {
    fs::read_to_string(game.join(format!("turns/{turn}/reports/{who}.txt"))).unwrap()
}

#[test]
fn gitm_demo_resolves_three_turns_with_a_report_for_each_player() {
    let game = resolved(&GITM);
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../schema/report-v1.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for turn in 1..=3 {
        assert!(game.join(format!("turns/{turn}/record.toml")).is_file());
        for who in REPORTS {
            for ext in ["txt", "html", "json", "svg"] {
                let r = fs::read_to_string(game.join(format!("turns/{turn}/reports/{who}.{ext}")))
                    .unwrap();
                assert!(!r.is_empty(), "turn {turn} {who}.{ext}");
            }
            let json: serde_json::Value = serde_json::from_str(
                &fs::read_to_string(game.join(format!("turns/{turn}/reports/{who}.json"))).unwrap(),
            )
            .unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&json)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "turn {turn} {who}: {errors:?}");
            assert_eq!(json["ruleset"]["id"], "gitm");
        }
        // GITM 6.1: France is reported per player, never as one.
        assert!(!game
            .join(format!("turns/{turn}/reports/france.txt"))
            .exists());
    }
    let state4 = fs::read_to_string(game.join("turns/4/state.toml")).unwrap();
    assert!(state4.contains("campaign_turn = 4"), "{state4}");
}

#[test]
fn gitm_demo_brings_about_what_the_issue_lists() {
    let game = resolved(&GITM);
    let all: String = (1..=3).map(|t| log(game, t)).collect();
    for (rule, what) in [
        ("GITM 4.1", "noisy sightings"),
        ("GITM 4.7", "late reports"),
        ("GITM 6", "the deputy's order overruled by the commander's"),
        ("GITM 6.9", "a default order"),
        ("GITM 7.3", "a forced march"),
        ("GITM 7.5", "a strategic withdrawal"),
        ("GITM 7.6", "a random move order"),
        ("GITM 7.11", "a pursuit"),
        ("GITM 3.5", "a merge"),
    ] {
        assert!(
            all.contains(&format!("rule = \"{rule}\"")),
            "no event cites {rule} ({what})"
        );
    }
    assert!(all.contains("france.macdonald line 9 (move FR5IN G3-V6) is set aside"));
    assert!(all.contains("FR4IN marches from G5-V6 to G6-V6, a forced march"));
    assert!(all.contains("FR1LC pursues AU1LC"));
    // The armies meet in G7-V6 (Treviso) by the end of turn 2 and fight there: a battle of 7.5.
    // At Venice (G7-V8) AU6IN stands by the fort's garrison without a combat: no battle (7.5).
    let state3 = fs::read_to_string(game.join("turns/3/state.toml")).unwrap();
    assert!(state3.contains("battles = [\"G7-V6\"]"), "{state3}");
    // GITM 2.7: AU6IN, halted in G7-V8 by Venice's fort, lays siege to it; the garrison may not
    // march out; each later turn a roll of pbem's siege.
    assert!(all.contains("AU6IN halts in G7-V8: the hostile fort at G7-V8/10-10 is not besieged"));
    assert!(all.contains("austria lays siege to the fort at G7-V8/10-10"));
    assert!(all.contains("FR11IN is in the besieged fort at G7-V8/10-10 and may not move"));
    assert!(all.contains("rule = \"pbem gitm/siege\""));
    assert!(state3.contains("[[gitm.siege]]"), "{state3}");
    // GITM 6.11: Eugène's new password stands from turn 3, and Macdonald orders the Padua division.
    let eugene3 = report(game, 3, "france.eugene");
    assert!(eugene3.contains("move FR1LC pursue"), "{eugene3}");
    assert!(report(game, 3, "france.macdonald").contains("move FR7IN G7-V7"));
    // The sightings are sealed: the log holds them, no report shows their faces.
    assert!(log(game, 1).contains("sealed = true"));
}

#[test]
fn gitm_each_player_sees_what_his_own_command_sees() {
    let game = resolved(&GITM);
    let eugene = report(game, 1, "france.eugene");
    let macdonald = report(game, 1, "france.macdonald");
    let austria = report(game, 1, "austria");
    // GITM 4.1: the French light cavalry in G6-V6 sees the Austrians two squares away; Macdonald's
    // command, in the rear, does not.
    assert!(eugene.contains("of austria in G8-V5"), "{eugene}");
    assert!(!macdonald.contains("of austria in G8-V5"), "{macdonald}");
    // A side never sees the other's sightings nor its unit ids in them.
    assert!(!austria.contains("of austria in"), "{austria}");
    assert!(macdonald.contains("player macdonald"));
}

#[test]
fn gitm_check_locates_a_bad_order_by_file_line_and_column() {
    let (tmp, game) = gitm_demo(1);
    fs::remove_file(game.join("turns/1/record.toml")).unwrap();
    let orders = tmp.path().join("austria.txt");
    fs::write(
        &orders,
        "game gitm-italy-1809\npower austria\npassword danube-1805\nturn 1\n\
         move AU1IN G8-V5\nmove AU2IN G8-Q5\n",
    )
    .unwrap();
    let out = pbem()
        .arg("check")
        .arg(&game)
        .arg(&orders)
        .assert()
        .get_output()
        .clone();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("austria.txt:6:12"), "{text}");
    assert!(
        text.contains("'G8-Q5' is not a square of the map"),
        "{text}"
    );
}

#[test]
fn gitm_check_forecast_tells_where_a_path_would_go() {
    let (tmp, game) = gitm_demo(1);
    fs::remove_file(game.join("turns/1/record.toml")).unwrap();
    let orders = tmp.path().join("france.txt");
    fs::write(
        &orders,
        "game gitm-italy-1809\npower france\nplayer eugene\npassword eagle-1805\nturn 1\n\
         move FR4IN G3-V6 - G4-V6 G5-V6 G6-V6\nsupply FR4IN carry 0\nmove FR1IN G5-V6 G7-V8\n",
    )
    .unwrap();
    let out = crate::support::forecast(&game, &orders);
    assert!(
        out.contains("FR4IN (infantry, 3 squares a turn) would march: phase 1: G3-V6 for 1 fatigue; phase 2: waits; phase 3: G4-V6 for 1 fatigue; phase 4: G5-V6 for 1 fatigue; phase 5: G6-V6 for 3 fatigue, a forced march (GITM 7.3)."),
        "{out}"
    );
    assert!(
        out.contains("FR1IN (infantry, 2 squares a turn carrying supply) would march: phase 1: G5-V6 for 1 fatigue; it halts in G5-V6: G7-V8 is not adjacent (GITM 7.4)."),
        "{out}"
    );
}

#[test]
fn gitm_a_bad_place_in_the_state_is_located_in_it() {
    let (_tmp, game) = gitm_demo(1);
    fs::remove_file(game.join("turns/1/record.toml")).unwrap();
    let state = game.join("turns/1/state.toml");
    let text = fs::read_to_string(&state).unwrap();
    fs::write(
        &state,
        text.replacen("at = \"G4-V6/5-7\"", "at = \"G4-V6/5-77\"", 1),
    )
    .unwrap();
    let orders = game.join("orders/1/austria.txt");
    let out = pbem()
        .arg("check")
        .arg(&game)
        .arg(&orders)
        .assert()
        .failure()
        .get_output()
        .clone();
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("'G4-V6/5-77' is not a square and tactical square"),
        "{text}"
    );
    assert!(text.contains("turns/1/state.toml:"), "{text}");
    assert!(text.contains("GITM 2.1"), "{text}");
}

#[test]
fn gitm_2_7_a_siege_of_no_fort_in_the_state_is_located_in_it() {
    let (_tmp, game) = gitm_demo(1);
    fs::remove_file(game.join("turns/1/record.toml")).unwrap();
    let state = game.join("turns/1/state.toml");
    let text = fs::read_to_string(&state).unwrap();
    let siege = "\n[[gitm.siege]]\nat = \"G7-V8/1-1\"\nby = \"austria\"\nsince = 1\n";
    let at = text.find("\n[[gitm.brigade]]").unwrap();
    fs::write(&state, format!("{}{siege}{}", &text[..at], &text[at..])).unwrap();
    let out = pbem()
        .arg("check")
        .arg(&game)
        .arg(game.join("orders/1/austria.txt"))
        .assert()
        .failure()
        .get_output()
        .clone();
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("siege at 'G7-V8/1-1' names no fort"),
        "{text}"
    );
    assert!(text.contains("turns/1/state.toml:"), "{text}");
    assert!(text.contains("GITM 2.7"), "{text}");
}

/// The JSON report of `who` at `turn`.
fn json_report(game: &Path, turn: u32, who: &str) -> serde_json::Value {
    let text = fs::read_to_string(game.join(format!("turns/{turn}/reports/{who}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Every form of `who`'s report at `turn`: text, HTML, JSON and SVG.
fn every_form(game: &Path, turn: u32, who: &str) -> String {
    ["txt", "html", "json", "svg"]
        .iter()
        .map(|ext| {
            fs::read_to_string(game.join(format!("turns/{turn}/reports/{who}.{ext}"))).unwrap()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// GITM 2.5, 4.2: a brigade of another side in a player's own square is told by its identity alone
/// (no men, quality, experience, morale, fatigue or supply), and only when his side sighted it on
/// the tactical map: the French garrison of Venice to Austria in turn 1; in turn 2 the five French
/// brigades the Austrians sight in G7-V6, not FR2IN behind them, as the log's 4.2 event says.
#[test]
fn gitm_4_2_enemies_in_a_players_square_are_told_by_identity_alone_and_only_if_sighted() {
    let game = resolved(&GITM);
    let seen = |turn: u32, who: &str| -> Vec<serde_json::Value> {
        json_report(game, turn, who)["sees"]["units"]
            .as_array()
            .unwrap()
            .clone()
    };
    let one = seen(1, "austria");
    let garrison = one.iter().find(|u| u["id"] == "FR11IN").expect("FR11IN");
    assert_eq!(garrison["precision"], "identity");
    assert_eq!(garrison["strength"], 0);
    assert_eq!(garrison["detail"], "identity only");
    let forms = every_form(game, 1, "austria");
    assert!(
        !forms.contains("2500 men, average, experience 2"),
        "FR11IN's figures"
    );
    let log2 = log(game, 2);
    let sighting = log2
        .lines()
        .find(|l| l.contains("GITM 4.2: on the tactical map of G7-V6, the brigades of austria"))
        .expect("Austria's 4.2 event in G7-V6");
    let two = seen(2, "austria");
    let identities: Vec<&str> = two
        .iter()
        .filter(|u| u["area"] == "G7-V6" && u["precision"] == "identity")
        .map(|u| u["id"].as_str().unwrap())
        .collect();
    assert_eq!(identities.len(), 5, "{identities:?}");
    for id in &identities {
        assert!(
            sighting.contains(&format!("{id} at ")),
            "{id} is not in {sighting}"
        );
    }
    assert!(!sighting.contains("FR2IN") && !identities.contains(&"FR2IN"));
    assert!(!two.iter().any(|u| u["id"] == "FR2IN"));
    let text = report(game, 2, "austria");
    let sees = text.split("WHAT YOUR UNITS SEE").nth(1).unwrap();
    assert!(!sees.split("THE POSITION").next().unwrap().contains("FR2IN"));
    // No figure of another side's brigade in any report of any player.
    for turn in 1..=2 {
        for who in REPORTS {
            let me = who.split('.').next().unwrap();
            for u in seen(turn, who).iter().filter(|u| u["owner"] != me) {
                assert!(
                    u["precision"] != "exact" || me == "france" && u["owner"] == "france",
                    "turn {turn} {who}: {u}"
                );
                if u["owner"] != me {
                    assert!(!u["detail"].as_str().unwrap().contains("men"), "{u}");
                }
            }
        }
    }
}

/// GITM 4.1: a neighbouring stack of another side is counted in 4.1's words, with the letters I, C,
/// A, H, as the scouts' own 4.1 event words it (the same noisy count), never in factors or men.
#[test]
fn gitm_4_1_neighbouring_stacks_are_counted_in_its_words_as_the_scouts_report_them() {
    let game = resolved(&GITM);
    let text = report(game, 1, "austria");
    assert!(!text.contains("factors"), "{text}");
    let scouts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("- Scouts report "))
        .collect();
    assert!(!scouts.is_empty());
    for line in scouts {
        // "- Scouts report brigades (I) of france in G6-V7 (GITM 4.1: ...)".
        let words = line["- Scouts report ".len()..]
            .split(" of ")
            .next()
            .unwrap();
        let square = line
            .split(" in ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let listed = format!(
            "(from afar)        {square:<14} Army of Italy: {words}, an approximate count (GITM 4.1)"
        );
        assert!(text.contains(&listed), "no `{listed}` in\n{text}");
    }
    let json = json_report(game, 1, "austria");
    for u in json["sees"]["units"].as_array().unwrap() {
        if u["precision"] == "approximate" {
            assert_eq!(u["strength"], 0, "{u}");
            assert!(u["id"].is_null() && u["kind"] == "force", "{u}");
        }
    }
}

/// GITM 7.5, 4.6: "battles were fought last turn" is told only to players whose command sees the
/// square, in every form and in the state his own check reads; neutral Naples hears of none.
#[test]
fn gitm_7_5_the_battles_of_last_turn_are_told_only_to_those_who_see_them() {
    let game = resolved(&GITM);
    let state_of = |who: &str| {
        json_report(game, 2, who)["check"]["state_toml"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(report(game, 2, "austria").contains("Battles were fought last turn in G7-V6"));
    assert!(state_of("austria").contains("G7-V6"));
    for who in ["naples", "france.macdonald"] {
        let forms = every_form(game, 2, who);
        assert!(!forms.contains("Battles were fought"), "{who}");
        let state = state_of(who);
        let battles = state
            .lines()
            .find(|l| l.starts_with("battles"))
            .unwrap_or("battles = []");
        assert_eq!(battles, "battles = []", "{who}");
    }
}

/// GITM 1.4, 4.1, 4.6: a deputy sees the units of his side exactly up to 3 squares from his own
/// (an army headquarters of his, 5), and no farther; his own check carries those and no other.
#[test]
fn gitm_4_1_a_deputy_sees_his_side_exactly_within_three_squares() {
    let game = resolved(&GITM);
    // "G7-V8": the column and the row, each a letter and a digit.
    let xy = |s: &str| -> (i32, i32) {
        let b = s.as_bytes();
        let n = |i: usize| i32::from(b[i] - b'A') * 10 + i32::from(b[i + 1] - b'0');
        (n(0), n(3))
    };
    let mut near = 0;
    for turn in 1..=3 {
        let json = json_report(game, turn, "france.macdonald");
        let mine: Vec<(i32, i32)> = json["units"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| xy(u["area"].as_str().unwrap()))
            .collect();
        let shown: Vec<&serde_json::Value> = json["sees"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["owner"] == "france")
            .collect();
        let state: String =
            fs::read_to_string(game.join(format!("turns/{}/state.toml", turn + 1))).unwrap();
        let all: Vec<(String, String)> = state
            .split("[[gitm.brigade]]")
            .skip(1)
            .filter(|b| b.contains("power = \"france\""))
            .map(|b| {
                let get = |k: &str| {
                    b.lines()
                        .find(|l| l.starts_with(&format!("{k} = ")))
                        .unwrap()
                        .split('"')
                        .nth(1)
                        .unwrap()
                        .to_string()
                };
                (get("id"), get("at").split('/').next().unwrap().to_string())
            })
            .collect();
        let own: Vec<&str> = json["units"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["id"].as_str().unwrap())
            .collect();
        for (id, square) in all.iter().filter(|(id, _)| !own.contains(&id.as_str())) {
            let (x, y) = xy(square);
            let d = mine
                .iter()
                .map(|(a, b)| (a - x).abs().max((b - y).abs()))
                .min()
                .unwrap();
            let listed = shown.iter().find(|u| u["id"] == id.as_str());
            if d <= 3 {
                near += usize::from(d >= 2);
                let u = listed.unwrap_or_else(|| panic!("turn {turn}: {id} at {square}, {d} off"));
                assert_eq!(u["precision"], "exact", "{u}");
            } else {
                assert!(listed.is_none(), "turn {turn}: {id} at {square}, {d} off");
            }
        }
    }
    assert!(
        near > 0,
        "no unit of his side 2-3 squares off: the test checks nothing"
    );
}

/// GITM 1.3: whose each square and city is, every player knows, seen or not: every report's JSON
/// gives the control of every land square of the map as the state holds it (the SVG draws the
/// same), neutral Naples' far from its units too.
#[test]
fn gitm_1_3_every_player_knows_whose_each_square_is() {
    let game = resolved(&GITM);
    for turn in 1..=2 {
        let state: toml::Value = toml::from_str(
            &fs::read_to_string(game.join(format!("turns/{}/state.toml", turn + 1))).unwrap(),
        )
        .unwrap();
        let held = state["control"].as_table().unwrap();
        assert!(!held.is_empty());
        for who in REPORTS {
            let json = json_report(game, turn, who);
            let known: std::collections::BTreeMap<&str, Option<&str>> = json["control"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| (c["area"].as_str().unwrap(), c["power"].as_str()))
                .collect();
            for (square, power) in held {
                assert_eq!(
                    known.get(square.as_str()),
                    Some(&power.as_str()),
                    "turn {turn} {who}: {square}"
                );
            }
            let seen = json["sees"]["areas"].as_array().unwrap().len();
            assert!(
                known.len() > seen,
                "turn {turn} {who}: control known only where seen"
            );
        }
    }
}

/// GITM 4.5: a march seen arriving, not whence, is marked on the map where it arrived (a dashed
/// arrow from a "?", in the legend), never drawn from where it began: FR2IN's arrival in G7-V6 on
/// Austria's turn 2; France, whose march it is, sees its arrow.
#[test]
fn gitm_4_5_an_arrival_seen_alone_is_marked_on_the_map_where_it_arrived() {
    let game = resolved(&GITM);
    let log2 = log(game, 2);
    assert!(
        log2.contains("FR2IN is seen arriving in G7-V6"),
        "the demo's turn 2 has no arrival seen alone"
    );
    let svg =
        |who: &str| fs::read_to_string(game.join(format!("turns/2/reports/{who}.svg"))).unwrap();
    let austria = svg("austria");
    let mark = austria
        .split(r#"<g class="arrival" id="arrival-G7-V6-france"><title>"#)
        .nth(1)
        .and_then(|m| m.split("</title>").next())
        .unwrap_or_else(|| panic!("no arrival mark in G7-V6: {austria}"));
    assert!(
        mark.contains("FR2IN") && mark.ends_with(": arrived in G7-V6, from where not seen"),
        "{mark}"
    );
    assert!(austria.contains("an arrival you saw, from where not seen"));
    assert!(!austria.contains("G6-V6 to G7-V6"), "{austria}");
    // France, whose march it is, sees it whole: an arrow, no mark of an arrival of its own.
    let france = svg("france.eugene");
    assert!(france.contains("FR2IN, FR1LC: G6-V6 to G7-V6"), "{france}");
    assert!(!france.contains("arrival-G7-V6-france"));
}
