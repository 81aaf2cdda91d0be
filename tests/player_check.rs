//! A player's own check (`pbem check --report <his report.json> <orders>`), end to end through the
//! CLI for each bundled ruleset: from the JSON report of a resolved demo turn, a good and a bad orders
//! file get the same verdicts and the same diagnostics (file, line, column) as the referee's `pbem
//! check` on his game folder; the report carries no password hash and no unit the power does not see.

use crate::support;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use support::pbem;

/// Resolves turn 1 of the bundled `scenario`; returns the game folder.
fn demo(scenario: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    pbem()
        .args(["demo", "--game", scenario, "--dir"])
        .arg(tmp.path().join("d"))
        .assert()
        .success();
    let game = tmp.path().join("d").join(scenario);
    (tmp, game)
}

/// The output and exit code of `pbem check` with `args`.
fn check(args: &[&std::ffi::OsStr]) -> (String, Option<i32>) {
    let out = pbem().arg("check").args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

/// The bad orders: the good ones with a line no ruleset reads, and the first order given to a unit
/// the power does not have (its second word, the unit or the space, replaced).
fn bad_orders(good: &str) -> String {
    let mut out = String::new();
    let mut spoiled = false;
    for line in good.lines() {
        out.push_str(line);
        out.push('\n');
        let words: Vec<&str> = line.split_whitespace().collect();
        let is_order = !spoiled
            && words.len() >= 2
            && !line.starts_with('#')
            && !["game", "power", "password", "turn", "entropy", "player"].contains(&words[0]);
        if is_order {
            let mut w = words.clone();
            w[1] = "NOPE-1";
            out.push_str(&w.join(" "));
            out.push('\n');
            out.push_str("frobnicate the whole army\n");
            spoiled = true;
        }
    }
    assert!(spoiled, "no order line in {good}");
    out
}

/// The ids of every piece in a state's ruleset table (any array of tables with an `id`).
fn piece_ids(state_toml: &str, ruleset: &str) -> BTreeSet<String> {
    let state: toml::Table = toml::from_str(state_toml).unwrap();
    let mut ids = BTreeSet::new();
    let table = state[ruleset].as_table().unwrap();
    for value in table.values() {
        for item in value.as_array().into_iter().flatten() {
            if let Some(id) = item.get("id").and_then(|v| v.as_str()) {
                ids.insert(id.to_string());
            }
        }
    }
    ids
}

/// The player's check and the referee's give the same output for the good and the bad orders of
/// `power` for turn 2 of `scenario`; the report's `check` holds only what the power may know.
/// `hidden`: whether the demo hides some unit from `power` after turn 1 (the EiA demo does; the
/// others' fronts are in sight of each other).
fn same_verdicts(scenario: &str, ruleset: &str, power: &str, hidden: bool) {
    let (_t, game) = demo(scenario);
    let report = game.join(format!("turns/1/reports/{power}.json"));
    let good = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("orders/{scenario}/2/{power}.txt")),
    )
    .unwrap();
    let dir = game.parent().unwrap();
    let good_path = support::write(dir, "good.txt", &good);
    let bad_path = support::write(dir, "bad.txt", bad_orders(&good));
    for (orders, code) in [(&good_path, 0), (&bad_path, 3)] {
        let referee = check(&[game.as_os_str(), orders.as_os_str()]);
        let player = check(&["--report".as_ref(), report.as_os_str(), orders.as_os_str()]);
        assert_eq!(referee.1, Some(code), "{}", referee.0);
        assert_eq!(player.1, referee.1, "{}", player.0);
        let (first, rest) = player.0.split_once('\n').unwrap();
        assert!(
            first.starts_with("checking against") && first.contains("password"),
            "{first}"
        );
        assert_eq!(rest, referee.0, "{scenario} {}", orders.display());
        if code == 3 {
            assert!(
                rest.contains("NOPE-1") && rest.contains("frobnicate"),
                "{rest}"
            );
            assert!(rest.contains("bad.txt:"), "{rest}");
        }
    }

    let text = fs::read_to_string(&report).unwrap();
    assert!(!text.contains("$argon2"), "a password hash in {power}.json");
    assert!(!text.contains("@example.org"), "an address in {power}.json");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let known: BTreeSet<String> = json["units"]
        .as_array()
        .unwrap()
        .iter()
        .chain(json["sees"]["units"].as_array().unwrap())
        .filter_map(|u| u["id"].as_str().map(str::to_string))
        .collect();
    let carried = piece_ids(json["check"]["state_toml"].as_str().unwrap(), ruleset);
    assert!(!carried.is_empty());
    let unseen: Vec<_> = carried.difference(&known).collect();
    assert!(unseen.is_empty(), "units {power} does not see: {unseen:?}");
    let referee_state = fs::read_to_string(game.join("turns/2/state.toml")).unwrap();
    let all = piece_ids(&referee_state, ruleset);
    assert_eq!(
        all.len() > carried.len(),
        hidden,
        "{power} sees {} of {} units",
        carried.len(),
        all.len()
    );
    // Another power's secrets (PoG: the cards in its hand) stay the referee's.
    let cards = |text: &str| -> BTreeSet<String> {
        let state: toml::Table = toml::from_str(text).unwrap();
        state[ruleset]
            .get("cards")
            .and_then(|c| c.as_table())
            .map(|c| c.keys().cloned().collect())
            .unwrap_or_default()
    };
    let carried_cards = cards(json["check"]["state_toml"].as_str().unwrap());
    assert!(
        carried_cards.iter().all(|p| p == power),
        "{carried_cards:?}"
    );
    if ruleset == "pog" {
        assert!(cards(&referee_state).len() > carried_cards.len());
    }
}

#[test]
fn player_check_from_report_matches_the_referee_eia() {
    same_verdicts("ulm-1805", "eia", "france", true);
}

#[test]
fn player_check_from_report_matches_the_referee_pog() {
    same_verdicts("pog-1914", "pog", "allies", false);
}

#[test]
fn player_check_from_report_matches_the_referee_ngg() {
    same_verdicts("ngg-smolensk-1812", "ngg", "french", false);
}

#[test]
fn player_check_from_report_matches_the_referee_wbts() {
    same_verdicts("wbts-peninsula-1862", "wbts", "union", false);
}

#[test]
fn player_check_from_report_matches_the_referee_gitm() {
    same_verdicts("gitm-italy-1809", "gitm", "austria", true);
}

#[test]
fn player_check_takes_only_the_orders_file_with_report() {
    let (_t, game) = demo("ulm-1805");
    let report = game.join("turns/1/reports/france.json");
    let out = pbem()
        .arg("check")
        .arg("--report")
        .arg(&report)
        .arg(&game)
        .arg(game.join("x.txt"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("with --report, give only the orders file"),
        "{err}"
    );
}

/// pbem orders/header: a file whose header is wrong (a wrong password) has no order that stands,
/// and its order lines are not read until the header is right: `pbem check` says so, never that
/// "the other orders stand" (a newcomer would mail it as it is).
#[test]
fn a_check_whose_header_is_wrong_says_no_order_stands_until_it_is_right() {
    let (tmp, game) = demo("ngg-smolensk-1812");
    let orders = tmp.path().join("french.txt");
    fs::write(
        &orders,
        "game ngg-smolensk-1812\npower french\npassword not-mine\nturn 2\nmove FR-Ney 0804\n",
    )
    .unwrap();
    let (out, code) = check(&[game.as_os_str(), orders.as_os_str()]);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("wrong password for Grande Armée"), "{out}");
    assert!(
        out.contains("1 problem(s): no order of this file stands until its header is right; its order lines are checked once it is."),
        "{out}"
    );
    assert!(!out.contains("the other orders stand"), "{out}");
}
