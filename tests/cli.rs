//! End-to-end tests through the `pbem` binary, in temporary game folders.

use std::fs;

use predicates::prelude::*;

use crate::support;
use crate::support::read_outbox_string;
use support::{demo, edit, pbem, tree, unresolved_demo};

#[test]
fn demo_resolves_turn_one_with_three_combats_and_a_report_per_power() {
    let tmp = tempfile::tempdir().unwrap();
    let out = pbem()
        .args(["demo", "--dir"])
        .arg(tmp.path().join("d"))
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("Turn 1 (September 1805) resolved."),
        "{stdout}"
    );
    let game = tmp.path().join("d").join("ulm-1805");
    for p in ["france", "austria", "russia", "britain"] {
        let report = game.join("turns/1/reports").join(format!("{p}.txt"));
        assert!(report.is_file(), "no report for {p}");
        assert!(
            stdout.contains(&report.display().to_string()),
            "summary names the report of {p}"
        );
    }
    let log = fs::read_to_string(game.join("turns/1/log.toml")).unwrap();
    let combats = log.matches("kind = \"combat\"").count();
    assert!(combats >= 3, "only {combats} combats in the demo");
    assert!(
        log.contains("label = \"combat/area="),
        "combat rolls carry labels"
    );
    assert!(
        log.contains("rule = \"EiA 7.5.1.3\""),
        "combat order cites its rule"
    );
    assert!(
        log.contains("rule = \"EiA 7.5.2.10.2\""),
        "pursuit cites its rule"
    );
    assert!(game.join("turns/1/record.toml").is_file());
    assert!(game.join("turns/2/state.toml").is_file());
    assert!(game.join("turns/2/commitment").is_file());
}

#[test]
fn resolve_force_is_byte_identical_in_two_folders_and_time_zones() {
    let (_a, game_a) = demo();
    let (_b, game_b) = demo();
    let first = tree(&game_a.join("turns"));
    pbem()
        .env("TZ", "UTC")
        .args(["resolve", "--turn", "1", "--force"])
        .arg(&game_a)
        .assert()
        .success();
    pbem()
        .env("TZ", "Asia/Tokyo")
        .env("LANG", "ja_JP.UTF-8")
        .args(["resolve", "--turn", "1", "--force"])
        .arg(&game_b)
        .assert()
        .success();
    let a = tree(&game_a.join("turns"));
    let b = tree(&game_b.join("turns"));
    assert_eq!(a.len(), b.len());
    for ((pa, ba), (pb, bb)) in a.iter().zip(&b) {
        assert_eq!(pa, pb);
        assert!(ba == bb, "{pa} differs between the two folders");
    }
    assert_eq!(first, a, "--force rewrote turn 1 with other bytes");
}

#[test]
fn resolving_a_resolved_turn_needs_force() {
    let (_t, game) = demo();
    pbem()
        .args(["resolve", "--turn", "1"])
        .arg(&game)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "turn 1 is already resolved; add --force",
        ));
}

#[test]
fn a_second_run_is_refused_while_the_game_is_locked() {
    let (_t, game) = demo();
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(game.join(".lock"))
        .unwrap();
    lock.try_lock().unwrap();
    pbem()
        .args(["resolve", "--turn", "1", "--force"])
        .arg(&game)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "another pbem is working on this game",
        ));
}

#[test]
fn check_accepts_the_sample_orders() {
    let (_t, game) = unresolved_demo();
    pbem()
        .arg("check")
        .arg(&game)
        .arg(game.join("orders/1/france.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains("orders of france for turn 1"))
        .stdout(predicate::str::contains("all"));
}

#[test]
fn check_exits_3_and_explains_a_rejected_order() {
    let (_t, game) = unresolved_demo();
    let orders = game.join("bad.txt");
    let good = fs::read_to_string(game.join("orders/1/france.txt")).unwrap();
    fs::write(
        &orders,
        format!("{good}\nmove FR-I Ulmm\nmarch FR-II Ulm\n"),
    )
    .unwrap();
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&orders)
        .assert()
        .code(3)
        .stdout(predicate::str::contains("unknown area 'Ulmm'"))
        .stdout(predicate::str::contains("did you mean 'Ulm'?"))
        .stdout(predicate::str::contains("bad.txt:"));
}

/// pbem orders/syntax: an Empires in Arms line written wrong is answered with the order's form in
/// the player's own words (his corps, leader or fleet, the area he wrote), never with a fixed
/// example naming France's pieces to every power (`FR-I`, `FR-A with FR-B`, `FR-V FR-Cav`).
#[test]
fn eia_a_syntax_hint_shows_the_order_in_the_players_own_words() {
    let (_t, game) = unresolved_demo();
    let orders = game.join("bad.txt");
    for (power, password, unit, foreign) in [
        ("france", "eagle-1805", "FR-V", "AU-"),
        ("austria", "danube-1805", "AU-I", "FR-"),
    ] {
        fs::write(
            &orders,
            format!(
                "{}move {unit}\nmove Ulm\nchit Ulm outflank with\n",
                support::header(power, password, 1)
            ),
        )
        .unwrap();
        let out = support::rejected(&game, &orders);
        for hint in [
            format!("help: write 'move {unit} <area> [<area> ...]': the unit, then each area it enters"),
            "help: write 'move <unit> Ulm [<area> ...]': the unit, then each area it enters".to_string(),
            "help: list the corps of the outflanking force: write 'chit Ulm outflank with <corps> [<corps> ...]'".to_string(),
        ] {
            assert!(out.contains(&hint), "{hint}\n{out}");
        }
        for help in out.lines().filter(|l| l.contains("help:")) {
            assert!(!help.contains(foreign), "{help}\n{out}");
        }
    }
}

#[test]
fn usage_errors_exit_2_and_help_has_examples() {
    pbem().arg("resolve").assert().code(2);
    pbem().arg("frobnicate").assert().code(2);
    for cmd in ["demo", "new", "check", "resolve", "turn", "status"] {
        pbem()
            .args([cmd, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Examples:\n  pbem "));
    }
}

#[test]
fn a_missing_game_folder_is_an_error_exit_1() {
    pbem()
        .args(["status", "/nonexistent/pbem-game"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is not a game folder"));
}

#[test]
fn new_makes_fresh_passwords_and_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let out = pbem()
        .args(["new"])
        .arg(&dir)
        .args(["--from", "ulm-1805"])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let config = fs::read_to_string(dir.join("game.toml")).unwrap();
    assert!(config.contains("$argon2id$"));
    assert!(
        !stdout.contains("eagle-1805"),
        "the demo password is not reused"
    );
    let secret = dir.join("secret/1.key");
    assert!(secret.is_file());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            fs::metadata(&secret).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let commitment = fs::read_to_string(dir.join("turns/1/commitment")).unwrap();
    pbem()
        .arg("status")
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicate::str::contains(commitment.trim()));
    // The printed password of France authenticates France's orders.
    let france_pw = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("france"))
        .unwrap()
        .trim()
        .to_string();
    let orders = tmp.path().join("o.txt");
    fs::write(
        &orders,
        format!(
            "game ulm-1805\npower france\npassword {france_pw}\nturn 1\nstanding pursue always\n"
        ),
    )
    .unwrap();
    pbem()
        .arg("check")
        .arg(&dir)
        .arg(&orders)
        .assert()
        .success();
    pbem()
        .args(["new"])
        .arg(&dir)
        .args(["--from", "ulm-1805"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not empty"));
}

/// Every file of a scenario but its play (turns, secrets, mail), the configuration `new` rewrites and
/// the page `new` adds (`verify.html`, tests/verify_page.rs).
fn scenario_data(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    fn walk(base: &std::path::Path, dir: &std::path::Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            let rel = path
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let top = rel.split('/').next().unwrap().to_string();
            if [
                "game.toml",
                "turns",
                "secret",
                "mail",
                // The rules parts the first commitment fixed, kept (`game::rules_kept`).
                "rules",
                ".gitignore",
                "verify.html",
            ]
            .contains(&top.as_str())
            {
                continue;
            }
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                out.push((rel, fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// The same files with the same bytes; a failure names the files rather than dumping their bytes.
fn same_data(made: &[(String, Vec<u8>)], scenario: &[(String, Vec<u8>)], what: &str) {
    let names = |d: &[(String, Vec<u8>)]| d.iter().map(|(f, _)| f.clone()).collect::<Vec<_>>();
    assert_eq!(names(made), names(scenario), "{what}: the files");
    for ((file, a), (_, b)) in made.iter().zip(scenario) {
        assert!(a == b, "{what}: {file} differs from the scenario's");
    }
}

/// A game made by `new` plays as its scenario does: every file the ruleset reads from the folder
/// comes along (map, tables, templates, GITM's `tactical/` maps), from a scenario built into pbem and
/// from a scenario folder alike.
#[test]
fn new_copies_every_data_file_of_the_scenario() {
    let tmp = tempfile::tempdir().unwrap();
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut names: Vec<String> = fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.contains(&"gitm-italy-1809".to_string()));
    for name in &names {
        let scenario = scenario_data(&games.join(name));
        assert!(scenario.iter().any(|(f, _)| f == "map.toml"), "{name}");
        let bundled = tmp.path().join(format!("{name}-bundled"));
        pbem()
            .args(["new", "--quiet"])
            .arg(&bundled)
            .args(["--from", name])
            .assert()
            .success();
        same_data(
            &scenario_data(&bundled),
            &scenario,
            &format!("{name}, built into pbem"),
        );
        let folder = tmp.path().join(format!("{name}-folder"));
        pbem()
            .args(["new", "--quiet"])
            .arg(&folder)
            .arg("--from")
            .arg(games.join(name))
            .assert()
            .success();
        same_data(
            &scenario_data(&folder),
            &scenario,
            &format!("{name}, from its folder"),
        );
    }
    let tactical = tmp.path().join("gitm-italy-1809-bundled/tactical");
    assert!(fs::read_dir(tactical).unwrap().count() > 0);
}

/// GITM 6.11 in a game made by `new`: the scenario's dated password change (Eugène's, from turn 3,
/// to a password printed in the demo's sample orders) is not carried over, so a player's password
/// stays the fresh one `new` printed until he changes it; the dated change of scope stays.
#[test]
fn new_keeps_no_dated_password_of_the_scenario() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/gitm-italy-1809");
    let dated = |dir: &std::path::Path| {
        let game = pbem::game::Game::load(dir).unwrap();
        let france = game
            .config
            .powers
            .iter()
            .find(|p| p.id == "france")
            .unwrap();
        let eugene = france.commands.iter().find(|p| p.id == "eugene").unwrap();
        let macdonald = france
            .commands
            .iter()
            .find(|p| p.id == "macdonald")
            .unwrap();
        (eugene.at(1), eugene.at(3), macdonald.at(1), macdonald.at(3))
    };
    let (e1, e3, m1, m3) = dated(&scenario);
    assert_ne!(
        e1.password_hash, e3.password_hash,
        "the scenario's dated change"
    );
    assert_ne!(m1.scope, m3.scope);
    let dir = tmp.path().join("g");
    pbem()
        .args(["new", "--quiet", "--from", "gitm-italy-1809"])
        .arg(&dir)
        .assert()
        .success();
    let (e1, e3, m1, m3) = dated(&dir);
    assert_eq!(e1.password_hash, e3.password_hash);
    assert_ne!(m1.scope, m3.scope, "the dated change of scope stays");
    // Eugène's change, dated by its time stamp, is gone whole: nothing is left for it to change.
    let text = fs::read_to_string(dir.join("game.toml")).unwrap();
    assert!(!text.contains("at = \"2026-12-12T09:30\""), "{text}");
}

#[test]
fn a_lost_secret_refuses_to_resolve() {
    let (_t, game) = unresolved_demo();
    fs::remove_file(game.join("secret/1.key")).unwrap();
    pbem()
        .arg("resolve")
        .arg(&game)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("the secret of turn 1 is lost"));
}

#[test]
fn an_edited_secret_refuses_to_resolve() {
    let (_t, game) = unresolved_demo();
    fs::write(game.join("secret/1.key"), format!("{}\n", "ab".repeat(32))).unwrap();
    pbem()
        .arg("resolve")
        .arg(&game)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "does not match its published commitment",
        ));
}

#[test]
fn an_unknown_key_in_game_toml_names_file_line_and_column() {
    let (_t, game) = demo();
    let path = game.join("game.toml");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replacen("ruleset = ", "rulset = ", 1)).unwrap();
    pbem()
        .arg("status")
        .arg(&game)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("ulm-1805/game.toml:"))
        .stderr(predicate::str::contains("unknown field `rulset`"));
}

#[test]
fn a_road_to_nowhere_in_map_toml_is_located() {
    let (_t, game) = demo();
    let path = game.join("map.toml");
    let text = fs::read_to_string(&path).unwrap();
    let pos = text.find("\"Ulm\"").expect("Ulm is adjacent to something");
    let text = format!("{}\"Ulmm\"{}", &text[..pos], &text[pos + 5..]);
    fs::write(&path, text).unwrap();
    pbem()
        .arg("status")
        .arg(&game)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("road to nowhere: no area 'Ulmm'"))
        .stderr(predicate::str::contains("ulm-1805/map.toml:"))
        .stderr(predicate::str::contains("did you mean 'Ulm'?"));
}

#[test]
fn a_unit_in_an_unknown_area_is_located() {
    let (_t, game) = unresolved_demo();
    let path = game.join("turns/1/state.toml");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(
        &path,
        text.replacen("area = \"Ulm\"", "area = \"Atlantis\"", 1),
    )
    .unwrap();
    pbem()
        .arg("resolve")
        .arg(&game)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("unknown area 'Atlantis'"))
        .stderr(predicate::str::contains("turns/1/state.toml:"));
}

/// EiA 7.5.1.1, 7.5.4: a corps of the state may stand in the city of its area (`in_city = true`); one
/// in an area without a city is refused, located at its area.
#[test]
fn a_corps_in_the_city_of_an_area_without_one_is_located() {
    let (_t, game) = unresolved_demo();
    let path = game.join("turns/1/state.toml");
    edit(
        &path,
        "area = \"Black-Forest\"",
        "area = \"Black-Forest\"\nin_city = true",
    );
    pbem()
        .arg("resolve")
        .arg(&game)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "corps FR-Cav is in the city of 'Black-Forest', which has no city",
        ))
        .stderr(predicate::str::contains("turns/1/state.toml:184:8"))
        .stderr(predicate::str::contains("remove `in_city = true`"));
}

/// A garrison is kept from turn to turn: Vienna's, unattacked, is still in its city after turn 1.
#[test]
fn a_garrison_stays_in_its_city_through_a_resolved_turn() {
    let (_t, game) = unresolved_demo();
    edit(
        &game.join("turns/1/state.toml"),
        "area = \"Vienna\"",
        "area = \"Vienna\"\nin_city = true",
    );
    pbem().arg("resolve").arg(&game).assert().success();
    let next = fs::read_to_string(game.join("turns/2/state.toml")).unwrap();
    let au_x = next
        .split("[[eia.corps]]")
        .find(|c| c.contains("id = \"AU-X\""))
        .expect("AU-X in the next state");
    assert!(
        au_x.contains("area = \"Vienna\"\nin_city = true\n"),
        "{au_x}"
    );
}

#[test]
fn status_shows_the_turn_deadline_commitment_and_orders_in() {
    let (_t, game) = demo();
    pbem()
        .arg("status")
        .arg(&game)
        .env("PBEM_NOW", "2026-12-10T12:00:00Z")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Turn 2 (October 1805) waits for orders.",
        ))
        .stdout(predicate::str::contains("Dice commitment for turn 2:"))
        .stdout(predicate::str::contains("CET").or(predicate::str::contains("CEST")));
}

#[test]
fn the_report_of_france_is_stable() {
    let (_t, game) = demo();
    let report = fs::read_to_string(game.join("turns/1/reports/france.txt")).unwrap();
    insta::assert_snapshot!("report_france_turn_1", report);
}

#[test]
fn reports_show_only_what_the_power_sees() {
    let (_t, game) = demo();
    let log = fs::read_to_string(game.join("turns/1/log.toml")).unwrap();
    let britain = fs::read_to_string(game.join("turns/1/reports/britain.txt")).unwrap();
    // Britain has no corps on the continent: the land battles' rolls are not its to see.
    assert!(log.contains("combat/area=Ulm/round=1"));
    assert!(
        !britain.contains("combat/area=Ulm"),
        "britain sees a roll it may not see"
    );
}

/// A forced rerun removes what the earlier resolution wrote and this one does not: with
/// `map_png = false` set after turn 1 was resolved, the PNG maps go, and the report mail left in
/// the outbox is the new one, without its PNG. `audit` replays the setting each turn record keeps
/// (issue 34), whatever game.toml says now.
#[test]
fn resolve_force_removes_the_files_an_earlier_resolution_wrote_and_this_one_does_not() {
    let (_t, game) = demo();
    let png = game.join("turns/1/reports/france.png");
    assert!(png.is_file(), "the demo mails its map as a PNG");
    let text = fs::read_to_string(game.join("game.toml")).unwrap();
    fs::write(
        game.join("game.toml"),
        format!("{text}\n[mail]\nmap_png = false\n"),
    )
    .unwrap();
    // Made with the PNG: audited with it.
    pbem().arg("audit").arg(&game).assert().success();
    pbem()
        .args(["resolve", "--turn", "1", "--force"])
        .arg(&game)
        .assert()
        .success();
    assert!(!png.exists(), "the PNG of the earlier resolution is left");
    let reports: Vec<_> = fs::read_dir(game.join("turns/1/reports"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(reports.iter().all(|n| !n.ends_with(".png")), "{reports:?}");
    let record = fs::read_to_string(game.join("turns/1/record.toml")).unwrap();
    assert!(!record.contains(".png"), "the record lists no PNG");
    let mail = read_outbox_string(game.join("mail/outbox/t0001-report-france.eml"));
    assert!(
        !mail.contains("image/png"),
        "the mail in the outbox is the new one"
    );
    assert!(record.contains("map_png = false"), "{record}");
    pbem().arg("audit").arg(&game).assert().success();
    // Made without the PNG: audited without it, though game.toml mails it again.
    fs::write(game.join("game.toml"), &text).unwrap();
    pbem().arg("audit").arg(&game).assert().success();
}
