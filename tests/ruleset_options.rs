//! A ruleset's options (`options` in game.toml, `Ruleset::options`): readings beyond the rules, off
//! unless a game names them, checked with located errors and named in the header of every report.
//! EiA's are the SOP's absolutes opened to standing orders (EiA 7.5.2.10.2, 7.5.2.11, 6.3.5).

use crate::support;

use std::fs;

use support::{edit, game, pbem};

/// The stderr of `pbem resolve` on a game it refuses.
fn refused(dir: &std::path::Path) -> String {
    let out = pbem().arg("resolve").arg(dir).assert().code(1);
    String::from_utf8_lossy(&out.get_output().stderr).into_owned()
}

#[test]
fn an_unknown_option_is_a_located_error_naming_the_ruleset_s_options() {
    let (_t, dir) = game();
    edit(
        &dir.join("game.toml"),
        "ruleset = \"eia\"\n",
        "ruleset = \"eia\"\noptions = [\"pursue-by-ordr\"]\n",
    );
    let line = 1 + fs::read_to_string(dir.join("game.toml"))
        .unwrap()
        .lines()
        .position(|l| l.starts_with("options = "))
        .unwrap();
    let stderr = refused(&dir);
    assert!(
        stderr.contains("unknown option 'pursue-by-ordr'"),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("game.toml:{line}:")), "{stderr}");
    assert!(
        stderr.contains("pursue-by-order, reinforce-by-order, chase-by-order"),
        "{stderr}"
    );
}

#[test]
fn eia_7_5_2_10_2_a_game_s_sop_cannot_switch_pursuit_off_without_the_option() {
    let (_t, dir) = game();
    edit(
        &dir.join("game.toml"),
        "pursue = \"always\"",
        "pursue = \"never\"",
    );
    let stderr = refused(&dir);
    assert!(
        stderr.contains("bad SOP setting pursue = \"never\""),
        "{stderr}"
    );
    assert!(stderr.contains("EiA 7.5.2.10.2"), "{stderr}");
    assert!(stderr.contains("\"pursue-by-order\""), "{stderr}");
    // Named, the option lets the game's [sop] say it.
    edit(
        &dir.join("game.toml"),
        "ruleset = \"eia\"\n",
        "ruleset = \"eia\"\noptions = [\"pursue-by-order\"]\n",
    );
    pbem().arg("resolve").arg(&dir).assert().success();
}

#[test]
fn the_options_a_game_names_head_every_report() {
    let (_t, dir) = game();
    edit(
        &dir.join("game.toml"),
        "ruleset = \"eia\"\n",
        "ruleset = \"eia\"\noptions = [\"chase-by-order\", \"pursue-by-order\"]\n",
    );
    pbem().arg("resolve").arg(&dir).assert().success();
    let line = "Options beyond the rules: chase-by-order (EiA 6.3.5: 'standing chase always' sends victorious fleets after the beaten); pursue-by-order (EiA 7.5.2.10.2: 'standing pursue never' keeps victors from pursuing)";
    for power in ["france", "austria", "russia", "britain"] {
        let txt = fs::read_to_string(dir.join(format!("turns/1/reports/{power}.txt"))).unwrap();
        assert_eq!(txt.lines().nth(2), Some(line), "{txt}");
        let html = fs::read_to_string(dir.join(format!("turns/1/reports/{power}.html"))).unwrap();
        assert!(html.contains("Options beyond the rules: chase-by-order (EiA 6.3.5: &#x27;standing chase always&#x27;"), "{html}");
        let json: serde_json::Value = serde_json::from_str(
            &fs::read_to_string(dir.join(format!("turns/1/reports/{power}.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(json["ruleset"]["options"].as_array().unwrap().len(), 2);
    }
    let summary = fs::read_to_string(dir.join("turns/1/summary.txt")).unwrap();
    assert!(summary.contains(line), "{summary}");

    // A game that names none says nothing of options.
    let (_t, plain) = game();
    pbem().arg("resolve").arg(&plain).assert().success();
    let txt = fs::read_to_string(plain.join("turns/1/reports/france.txt")).unwrap();
    assert!(!txt.contains("Options beyond the rules"), "{txt}");
}
