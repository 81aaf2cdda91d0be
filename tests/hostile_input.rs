//! Issue 15.9: the smaller findings of the hostile-input campaign, each through the binary.

use crate::support;

use std::fs;

use support::*;

const ON_TIME: &str = "Sat, 5 Dec 2026 18:00:00 +0100";

#[test]
fn new_with_a_scenario_it_cannot_use_leaves_nothing_and_can_be_retried() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = tmp.path().join("scenario");
    pbem::bundled::write_scenario("ulm-1805", &scenario).unwrap();
    edit(
        &scenario.join("game.toml"),
        "game = \"ulm-1805\"",
        "game = \"ulm-1806\"",
    );
    let target = tmp.path().join("games/new");
    pbem()
        .arg("new")
        .arg(&target)
        .arg("--from")
        .arg(&scenario)
        .assert()
        .code(1);
    assert!(!target.exists());
    let leftovers: Vec<_> = fs::read_dir(tmp.path().join("games")).unwrap().collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    edit(
        &scenario.join("game.toml"),
        "game = \"ulm-1806\"",
        "game = \"ulm-1805\"",
    );
    pbem()
        .arg("new")
        .arg(&target)
        .arg("--from")
        .arg(&scenario)
        .assert()
        .success();
    assert!(target.join("game.toml").is_file());
}

#[test]
fn deadline_and_calendar_counts_out_of_range_are_refused() {
    for (key, value, what) in [
        ("every_days", "4294967295", "every_days = 4294967295"),
        ("every_days", "0", "every_days = 0"),
    ] {
        let (_t, dir) = game();
        set_deadline_key(&dir, key, value);
        let out = pbem().arg("status").arg(&dir).assert().code(1);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains(what), "{stderr}");
    }
    let (_t, dir) = game();
    edit(
        &dir.join("game.toml"),
        "months_per_turn = 1",
        "months_per_turn = 0",
    );
    let out = pbem().arg("status").arg(&dir).assert().code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("months_per_turn = 0"), "{stderr}");
}

#[test]
fn orders_for_turn_zero_are_told_there_is_no_such_turn() {
    let (tmp, dir) = game();
    let path = write(
        tmp.path(),
        "zero.eml",
        eml(
            "france@example.org",
            ON_TIME,
            "z@example.org",
            &header("france", FRANCE_PW, 0),
        ),
    );
    let out = pbem().arg("ingest").arg(&dir).arg(&path).assert().success();
    let printed = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        printed.contains("there is no turn 0 in this game"),
        "{printed}"
    );
    assert!(!printed.contains("already resolved"), "{printed}");
}

#[test]
fn control_and_right_to_left_characters_never_reach_the_terminal() {
    let (tmp, dir) = game();
    let body = "game ulm-1805\npower fr\u{202e}ance\u{1b}[2J\npassword x\nturn 1\n";
    let path = write(
        tmp.path(),
        "evil\u{1b}[31m\u{202e}.eml",
        eml("france@example.org", ON_TIME, "c@example.org", body),
    );
    let out = pbem().arg("ingest").arg(&dir).arg(&path).assert().success();
    let printed = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(printed.contains("fr?ance?[2J"), "{printed}");
    assert!(
        !printed.contains('\u{202e}') && !printed.contains('\u{1b}'),
        "{printed:?}"
    );
}

#[test]
fn a_negative_morale_and_a_turn_near_the_wrap_are_refused() {
    let (_t, dir) = game();
    edit(
        &dir.join("turns/1/state.toml"),
        "morale = 4.0",
        "morale = -4.0",
    );
    let out = pbem().arg("resolve").arg(&dir).assert().code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("has a negative morale (-4.0)"), "{stderr}");

    let (_t, dir) = game();
    let last = u32::MAX.to_string();
    fs::rename(dir.join("turns/1"), dir.join("turns").join(&last)).unwrap();
    fs::rename(
        dir.join("secret/1.key"),
        dir.join(format!("secret/{last}.key")),
    )
    .unwrap();
    edit(
        &dir.join("turns").join(&last).join("state.toml"),
        "turn = 1",
        &format!("turn = {last}"),
    );
    edit(
        &dir.join("game.toml"),
        "first_turn = 1",
        &format!("first_turn = {last}"),
    );
    let out = pbem().arg("resolve").arg(&dir).assert().code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("beyond the turns pbem counts"), "{stderr}");
}

#[test]
fn a_bad_power_id_is_shown_on_its_own_line() {
    let (_t, dir) = game();
    edit(
        &dir.join("game.toml"),
        "id = \"austria\"",
        "id = \"aus/tria\"",
    );
    let line = fs::read_to_string(dir.join("game.toml"))
        .unwrap()
        .lines()
        .position(|l| l.contains("aus/tria"))
        .unwrap()
        + 1;
    let out = pbem().arg("status").arg(&dir).assert().code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("power id 'aus/tria' is not a plain word"),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("game.toml:{line}:")), "{stderr}");
}

#[test]
fn new_refuses_a_scenario_with_a_symbolic_link_and_names_it() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let secret = write(tmp.path(), "system-file", "root:x:0:0\n");
    for place in ["notes.txt", "templates/report.txt.j2", "map.toml"] {
        let scenario = tmp
            .path()
            .join(format!("scenario-{}", place.replace('/', "-")));
        pbem::bundled::write_scenario("ulm-1805", &scenario).unwrap();
        let link = scenario.join(place);
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        let _ = fs::remove_file(&link);
        symlink(&secret, &link).unwrap();
        let dir = tmp.path().join(format!("game-{}", place.replace('/', "-")));
        let out = pbem()
            .arg("new")
            .arg(&dir)
            .arg("--from")
            .arg(&scenario)
            .assert()
            .failure()
            .code(1);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(err.contains(&link.display().to_string()), "{place}: {err}");
        assert!(err.contains("a symbolic link"), "{place}: {err}");
        // Nothing made, nothing copied.
        assert!(!dir.exists(), "{place}");
    }
    // The folder --from names may itself be a link: the referee chose it.
    let scenario = tmp.path().join("real");
    pbem::bundled::write_scenario("ulm-1805", &scenario).unwrap();
    symlink(&scenario, tmp.path().join("alias")).unwrap();
    pbem()
        .arg("new")
        .arg(tmp.path().join("g"))
        .arg("--from")
        .arg(tmp.path().join("alias"))
        .assert()
        .success();
}

#[test]
fn a_player_id_too_long_to_name_a_file_is_refused_at_the_check() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("gitm-italy-1809");
    pbem::bundled::write_scenario("gitm-italy-1809", &game).unwrap();
    let long = "e".repeat(300);
    edit(
        &game.join("game.toml"),
        "id = \"eugene\"",
        &format!("id = \"{long}\""),
    );
    let orders = write(tmp.path(), "orders.txt", "game gitm-italy-1809\n");
    let out = pbem()
        .arg("check")
        .arg(&game)
        .arg(&orders)
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("is 300 characters long"), "{err}");
    assert!(err.contains("game.toml"), "{err}");
    // Where: the line of its power in game.toml.
    assert!(err.contains("-->"), "{err}");
}

#[test]
fn a_delivery_into_a_folder_killed_midway_leaves_no_temporary_file_after_the_next_run() {
    let (_t, game) = demo();
    let folder = game.parent().unwrap().join("delivered");
    // Killed right before the first message is put in place: its temporary file stays.
    let first = fs::read_dir(game.join("mail/outbox"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".eml"))
        .min()
        .unwrap();
    pbem()
        .arg("send")
        .arg(&game)
        .arg("--folder")
        .arg(&folder)
        .env("PBEM_CRASH_BEFORE", &first)
        .assert()
        .failure();
    let temporaries = || {
        let mut n = 0;
        for r in fs::read_dir(&folder).unwrap() {
            let r = r.unwrap().path();
            if r.is_dir() {
                n += fs::read_dir(&r)
                    .unwrap()
                    .filter(|e| {
                        e.as_ref()
                            .unwrap()
                            .file_name()
                            .to_string_lossy()
                            .starts_with(".tmp-")
                    })
                    .count();
            }
        }
        n
    };
    assert!(temporaries() > 0, "the kill left no temporary file");
    pbem()
        .arg("send")
        .arg(&game)
        .arg("--folder")
        .arg(&folder)
        .assert()
        .success();
    assert_eq!(temporaries(), 0);
}
