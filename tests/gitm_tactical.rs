//! GITM's tactical phases end to end, through the binary: the bundled Italy 1809 demo's turn 2 brings
//! an interception (GITM 8.11) and a battle line (9.3, 9.4) at Treviso; the tactical map files of
//! `tactical/` are read and refused with their line and column.

use crate::support;

use std::fs;
use std::path::PathBuf;

use support::{edit, pbem};

/// The Italy 1809 demo resolved for `turns` turns: (tempdir, game folder).
fn italy(turns: u32) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    pbem()
        .args(["demo", "--game", "gitm-italy-1809", "--turns"])
        .arg(turns.to_string())
        .arg("--dir")
        .arg(tmp.path().join("d"))
        .assert()
        .success();
    let game = tmp.path().join("d").join("gitm-italy-1809");
    (tmp, game)
}

#[test]
fn gitm_demo_turn_2_shows_an_interception_and_a_battle_line() {
    let (_t, game) = italy(2);
    let log = fs::read_to_string(game.join("turns/2/log.toml")).unwrap();
    for needle in [
        "GITM 8.6: tactical phase 3 at G7-V6: fast units move first",
        "GITM 8.11: AU1LC intercepts FR1LC at 6-5",
        "GITM 8.3: FR1IN meets AU1LC at 6-5",
        "GITM 9.3: the defenders at 6-5 (france) form their battle lines: front line: FR1LC",
        "second line: FR3IN; rear: FR1LI",
        "GITM 9.4: combat at 6-5: the attackers (austria) came from east: a front line of 6000 spaces",
        "france win at 6-5 (pbem GITM-T4)",
        "pbem GITM-T6: AU1LC",
    ] {
        assert!(log.contains(needle), "the turn 2 log has no '{needle}'");
    }
    // The rolls of the tactical engine are the turn's labelled dice.
    assert!(log.contains("gitm/tac/G7-V6/phase=3/order/fast"));
    assert!(log.contains("gitm/tac/G7-V6/phase=3/combat=6-5/melee"));
    // The French see the combat in their reports.
    let report = fs::read_to_string(game.join("turns/2/reports/france.eugene.txt")).unwrap();
    assert!(report.contains("AU1LC intercepts FR1LC"), "{report}");
    // GITM 4.2: each side is told what its brigades see on the tactical map, and only its own.
    assert!(log.contains("GITM 4.2: on the tactical map of G7-V6, the brigades of austria see"));
    assert!(!report.contains("the brigades of austria see"), "{report}");
    assert!(report.contains("the brigades of france see"), "{report}");
    // What the combat cost is in the next state.
    let state = fs::read_to_string(game.join("turns/2/state.toml")).unwrap();
    assert!(state.contains("id = \"AU1LC\""));
}

#[test]
fn gitm_tactical_phases_are_deterministic_on_a_rerun() {
    let (_a, one) = italy(2);
    let (_b, two) = italy(2);
    for f in ["turns/2/log.toml", "turns/2/state.toml"] {
        assert_eq!(
            fs::read(one.join(f)).unwrap(),
            fs::read(two.join(f)).unwrap(),
            "{f} differs between two runs"
        );
    }
}

#[test]
fn gitm_2_1_a_bad_tactical_map_file_is_refused_with_its_line_and_column() {
    let (_t, game) = italy(1);
    let path = game.join("tactical/G7-V6.txt");
    edit(&path, "\n..f..h..h.T....\n", "\n..f..h..h.T..X.\n");
    fs::remove_file(game.join("turns/1/record.toml")).unwrap();
    let out = pbem().arg("resolve").arg(&game).assert().failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("tactical/G7-V6.txt:20:14"), "{err}");
    assert!(
        err.contains("'X' at 13-10 is not a terrain symbol"),
        "{err}"
    );
}

#[test]
fn gitm_2_3_a_tactical_map_file_must_agree_with_the_map_grid() {
    let (_t, game) = italy(1);
    let path = game.join("tactical/G7-V6.txt");
    edit(&path, "\n..f..h..h.T....\n", "\n..f..h..h.T...f\n");
    fs::remove_file(game.join("turns/1/record.toml")).unwrap();
    let out = pbem().arg("resolve").arg(&game).assert().failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains(
            "tactical/G7-V6.txt: square 14-10 is forest here but open in map.toml's [sub] grid"
        ),
        "{err}"
    );
}

#[test]
fn gitm_4_4_each_player_is_told_the_tactical_moves_his_command_saw() {
    let (_t, game) = italy(2);
    let report =
        |who: &str| fs::read_to_string(game.join(format!("turns/2/reports/{who}.txt"))).unwrap();
    let (eugene, austria, naples) = (report("france.eugene"), report("austria"), report("naples"));
    // France is told its own moves whole; Austria, what its brigades at Treviso saw of them: a
    // brigade that came from beyond its sight (4.2) is seen arriving; FR4IN is seen at both ends.
    // (Which brigade arrives unseen follows the drawn order of play, a sealed roll.)
    let arriving = "is seen arriving at 6-5; where it came from was not seen";
    let unseen = austria
        .lines()
        .find_map(|l| l.strip_prefix("- GITM 4.4: ")?.strip_suffix(arriving))
        .unwrap_or_else(|| panic!("no brigade arrives unseen: {austria}"))
        .trim()
        .to_string();
    assert!(
        eugene.contains(&format!("GITM 8.2: {unseen} moves 3-7 to 6-5")),
        "{eugene}"
    );
    assert!(
        !austria.contains(&format!("GITM 8.2: {unseen} moves")),
        "{austria}"
    );
    assert!(
        austria.contains("GITM 4.4: FR4IN is seen moving 3-7 to 5-7"),
        "{austria}"
    );
    assert!(!eugene.contains("GITM 4.4: FR"), "{eugene}");
    // Both sides of the combat are told of it; Naples, with no brigade in G7-V6, of none of it.
    for r in [&eugene, &austria] {
        assert!(r.contains("france win at 6-5 (pbem GITM-T4)"), "{r}");
    }
    assert!(!naples.contains("6-5"), "{naples}");
    // The drawn move order names brigades a side may not see: the log's, no report's.
    let log = fs::read_to_string(game.join("turns/2/log.toml")).unwrap();
    assert!(log.contains("GITM 8.6: tactical phase 3 at G7-V6"));
    for r in [&eugene, &austria, &naples] {
        assert!(!r.contains("GITM 8.6"), "{r}");
    }
}

/// GITM 7.6, 8.6: the rolls that draw the order of play (strategic phases, the withdrawal, each
/// tactical phase's fast and slow units) name brigades a side may not see: they are sealed, so
/// the header counts and commits to them and `pbem unseal` publishes them; no roll of the log is
/// in no report and unsealed.
#[test]
fn gitm_7_6_the_order_of_play_is_drawn_by_sealed_rolls() {
    let (_t, game) = italy(2);
    let log: toml::Value =
        toml::from_str(&fs::read_to_string(game.join("turns/2/log.toml")).unwrap()).unwrap();
    let events = log["event"].as_array().unwrap();
    let rolls = |e: &toml::Value| -> Vec<toml::Value> {
        e.get("rolls")
            .and_then(|r| r.as_array())
            .cloned()
            .unwrap_or_default()
    };
    let told = |e: &toml::Value| {
        e.get("visible_to")
            .and_then(|v| v.as_array())
            .is_some_and(|v| !v.is_empty())
    };
    // A roll is shown when an event told to some power carries it (a battle told whole to the
    // referee alone carries its dice, and so do the words each side is told).
    let shown: std::collections::BTreeSet<String> = events
        .iter()
        .filter(|e| told(e))
        .flat_map(rolls)
        .map(|r| r["label"].as_str().unwrap().to_string())
        .collect();
    let mut orders = 0;
    for e in events {
        for r in rolls(e) {
            let label = r["label"].as_str().unwrap();
            let sealed = r.get("sealed").and_then(|s| s.as_bool()) == Some(true);
            if label.ends_with("/order") || label.contains("/order/") {
                orders += 1;
                assert!(sealed, "{label} is not sealed");
            }
            assert!(
                shown.contains(label) || sealed,
                "{label} is in no report and not sealed"
            );
        }
    }
    assert!(orders > 0, "no order of play was drawn");
}
