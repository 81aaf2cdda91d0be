//! Replacing players (EiA 19.2) and the missed-turn policy, through the binary.

use std::fs;
use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::support;
use crate::support::read_outbox_string;
use support::{demo, pbem};

fn orders(game: &Path, name: &str, text: &str) -> PathBuf {
    let p = game.join(name);
    fs::write(&p, text).unwrap();
    p
}

#[test]
fn eia_19_2_1_a_dropped_power_is_run_by_its_controller() {
    let (_t, game) = demo();
    pbem()
        .args(["drop"])
        .arg(&game)
        .args(["britain", "--to", "russia"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "britain is run by russia from turn 2 until turn 5",
        ));
    // Russia's player sends Britain's orders with his own password.
    let o = orders(
        &game,
        "o.txt",
        "game ulm-1805\npower britain\npassword bear-1805\nturn 2\nstanding chase never\n",
    );
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&o)
        .assert()
        .success()
        .stdout(predicate::str::contains("orders of britain for turn 2"));
    // A third power's password does not.
    let o = orders(
        &game,
        "o2.txt",
        "game ulm-1805\npower britain\npassword eagle-1805\nturn 2\n",
    );
    pbem().arg("check").arg(&game).arg(&o).assert().code(3);
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let log = fs::read_to_string(game.join("turns/2/log.toml")).unwrap();
    assert!(
        log.contains("britain is run by russia this turn, until turn 5"),
        "{log}"
    );
    assert!(log.contains("rule = \"EiA 19.2.1\""));
    // Britain's report goes to Russia's player too.
    let mail = read_outbox_string(game.join("mail/outbox/t0002-report-britain.eml"));
    assert!(mail.contains("russia@example.org"), "{mail}");
    let report = fs::read_to_string(game.join("turns/2/reports/britain.txt")).unwrap();
    assert!(report.contains("britain is run by russia this turn"));
}

/// EiA 19.2.2 in the bundled game, whose economic phases are quarterly (`econ_every = 3`: September,
/// December, March, June): a player replaced in October 1805 (turn 2) takes over at the December
/// economic phase and plays from January 1806 (turn 5); Russia runs Britain until then.
#[test]
fn eia_19_2_2_a_player_replaced_in_october_1805_takes_over_in_january_1806() {
    let (_t, game) = demo();
    pbem()
        .arg("drop")
        .arg(&game)
        .args(["britain", "--to", "russia"])
        .assert()
        .success();
    let out = pbem()
        .arg("replace")
        .arg(&game)
        .args(["britain", "--email", "pitt@example.org"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "passes to pitt@example.org at turn 5",
        ));
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let password = stdout
        .lines()
        .find_map(|l| l.split("this once (pbem keeps only its hash): ").nth(1))
        .unwrap()
        .trim()
        .to_string();
    for _ in 2..=4 {
        pbem()
            .args(["resolve", "--early"])
            .arg(&game)
            .assert()
            .success();
    }
    let log = fs::read_to_string(game.join("turns/4/log.toml")).unwrap();
    // The economic phase ends turn 4 (December 1805): the lock runs three turns after it (19.2.2).
    assert!(log.contains("A new player takes control of britain from turn 5; the alliances it inherits may not be broken before turn 7."), "{log}");
    assert!(log.contains("rule = \"EiA 19.2.2\""));
    let state = fs::read_to_string(game.join("turns/5/state.toml")).unwrap();
    assert!(state.contains("pitt@example.org"));
    assert!(!state.contains(&password), "only the hash is kept");
    // From January 1806 the new player's password authenticates Britain; Russia's no longer does.
    let o = orders(
        &game,
        "o.txt",
        &format!("game ulm-1805\npower britain\npassword {password}\nturn 5\n"),
    );
    pbem().arg("check").arg(&game).arg(&o).assert().success();
    let o = orders(
        &game,
        "o2.txt",
        "game ulm-1805\npower britain\npassword bear-1805\nturn 5\n",
    );
    pbem().arg("check").arg(&game).arg(&o).assert().code(3);
    assert_eq!(
        pbem::game::Game::load(&game).unwrap().config.date_of(5),
        "January 1806"
    );
}

#[test]
fn missed_turns_policy_drops_a_silent_power() {
    let (_t, game) = demo();
    let config = fs::read_to_string(game.join("game.toml")).unwrap();
    let config = config.replacen(
        "econ_every = 3\n",
        "econ_every = 3\nmissed_turns = 1\nmissed_turns_to = \"france\"\n",
        1,
    );
    fs::write(game.join("game.toml"), config).unwrap();
    // The missed-turn policy is a rule fixed with turn 2's commitment: it changes with a new one.
    rekey(&game);
    // No orders at all for turn 2: every power has missed one turn.
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let log = fs::read_to_string(game.join("turns/2/log.toml")).unwrap();
    assert!(
        log.contains(
            "austria sent no orders for 1 turns: from turn 3 it is run by france until turn 5."
        ),
        "{log}"
    );
    let state = fs::read_to_string(game.join("turns/3/state.toml")).unwrap();
    assert!(state.contains("[controlled.austria]"), "{state}");
}

#[test]
fn eia_19_2_2_the_worked_example_britain_leaves_in_may_1806() {
    // The example of 19.2.2, with its dates: economic phases in March, June, September, December
    // (turn 1 is March 1806, `econ_every = 3`). Before the May land phase Britain's player leaves;
    // Russia runs Britain through May and June; the new player takes control at the June economic
    // phase and may not break an inherited alliance until September 1806.
    let (_t, game) = demo();
    let config = fs::read_to_string(game.join("game.toml")).unwrap();
    // The bundled game's economic phases are quarterly already (`econ_every = 3`).
    assert!(config.contains("econ_every = 3\n"));
    let config = config.replacen("start = \"1805-09\"", "start = \"1806-03\"", 1);
    fs::write(game.join("game.toml"), config).unwrap();
    // The calendar changed after turn 2's commitment: the rules change with a new one.
    rekey(&game);
    let resolve = || {
        pbem()
            .args(["resolve", "--early"])
            .arg(&game)
            .assert()
            .success()
    };
    // The demo has resolved turn 1 (March 1806).
    resolve(); // April 1806
    pbem()
        .arg("drop")
        .arg(&game)
        .args(["britain", "--to", "russia"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "britain is run by russia from turn 3 until turn 5",
        ));
    pbem()
        .arg("replace")
        .arg(&game)
        .args(["britain", "--email", "pitt@example.org"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "passes to pitt@example.org at turn 5",
        ));
    resolve(); // May 1806
    resolve(); // June 1806: Russia still runs Britain; the new player takes over at its economic phase
    let june = fs::read_to_string(game.join("turns/4/log.toml")).unwrap();
    assert!(
        june.contains("britain is run by russia this turn, until turn 5"),
        "{june}"
    );
    assert!(
        june.contains("A new player takes control of britain from turn 5; the alliances it inherits may not be broken before turn 7."),
        "{june}"
    );
    let report = fs::read_to_string(game.join("turns/4/reports/britain.txt")).unwrap();
    assert!(report.contains("June 1806"), "turn 4 is June 1806");
    assert!(
        report.contains("britain is run by russia this turn"),
        "{report}"
    );
    // The lock is enforced: a state of July 1806 where Britain has left its allies is refused.
    let july = game.join("turns/5/state.toml");
    let state = fs::read_to_string(&july).unwrap();
    let allied = "alliances = [[\"austria\", \"russia\", \"britain\"]]";
    assert!(state.contains(allied), "{state}");
    fs::write(
        &july,
        state.replacen(allied, "alliances = [[\"austria\", \"russia\"]]", 1),
    )
    .unwrap();
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "britain's new player may not break its inherited alliance with austria before turn 7",
        ));
}

#[test]
fn eia_19_2_1_without_the_referee_s_choice_control_goes_by_the_roll_of_14_3_1() {
    // Britain's player leaves; the referee names no controller: the turn's dice decide when the
    // turn is resolved, one d6 per other major power, and the winner runs Britain from turn 3.
    let (_t, game) = demo();
    pbem()
        .arg("drop")
        .arg(&game)
        .arg("britain")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "its controller until turn 5 is rolled for when turn 2 is resolved (EiA 19.2.1, 14.3.1)",
        ));
    let acts = fs::read_to_string(game.join("turns/2/acts.toml")).unwrap();
    assert!(acts.contains("by_roll = true"), "{acts}");
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let log = fs::read_to_string(game.join("turns/2/log.toml")).unwrap();
    for p in ["austria", "france", "russia"] {
        assert!(
            log.contains(&format!("label = \"ump-control/ump=britain/power={p}\"")),
            "{log}"
        );
    }
    assert!(log.contains("Control of britain, whose player left, per EiA 14.3.1 (EiA 19.2.1)"));
    // Its rolls are labels of the grammar every ruleset shares (`dice::labels::ENGINE`): verify passes.
    let reports = game.join("turns/2/reports");
    pbem()
        .arg("verify")
        .arg(reports.join("france.txt"))
        .arg(reports.join("france.json"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "ump-control/ump=britain/power=france",
        ));
    let state = fs::read_to_string(game.join("turns/3/state.toml")).unwrap();
    let by = state
        .lines()
        .skip_while(|l| *l != "[controlled.britain]")
        .find_map(|l| l.strip_prefix("by = \""))
        .map(|l| l.trim_end_matches('"').to_string())
        .expect("britain has a controller");
    assert!(
        log.contains(&format!("{by} rolls highest")),
        "the state names the roll's winner: {by}\n{log}"
    );
    assert!(!state.contains("by_roll"), "{state}");
    // The same folder resolves to the same bytes: the roll is the turn's dice, not a clock's.
    pbem().arg("audit").arg(&game).assert().success();
}

#[test]
fn eia_14_3_1_the_control_roll_adds_the_modifiers_of_tables_toml() {
    let (_t, game) = demo();
    let tables = game.join("tables.toml");
    let mut text = fs::read_to_string(&tables).unwrap();
    text.push_str("\n[ump-control]\nfrance = 6\n");
    fs::write(&tables, text).unwrap();
    // A table changed after turn 2's commitment: the rules change with a new one (docs/DICE.md).
    rekey(&game);
    pbem()
        .arg("drop")
        .arg(&game)
        .arg("britain")
        .assert()
        .success();
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let log = fs::read_to_string(game.join("turns/2/log.toml")).unwrap();
    assert!(log.contains("france rolls highest"), "{log}");
    assert!(log.contains(" + 6"), "{log}");
    let state = fs::read_to_string(game.join("turns/3/state.toml")).unwrap();
    assert!(
        state.contains("[controlled.britain]\nby = \"france\""),
        "{state}"
    );
}

/// A new commitment for the current turn, fixing the rules as game.toml and tables.toml now say.
fn rekey(game: &std::path::Path) {
    pbem()
        .arg("rekey")
        .arg(game)
        .args(["--reason", "the test changed the rules"])
        .assert()
        .success();
}

/// EiA 19.2.1: a player who leaves before the game's first mail went (dropped before `pbem send`)
/// takes his authority with him; his welcome, still in the outbox, could go to nobody (the power's
/// mail goes to whoever runs it), so that every `pbem send`, and `pbem turn`, which sends first,
/// exited 5 over it, its password kept at rest. The drop withdraws it, its password masked; the
/// rest of the mail goes, and `send` exits 0.
#[test]
fn eia_19_2_1_a_player_dropped_before_his_welcome_went_has_it_withdrawn() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("ulm");
    let now = "2026-11-30T00:00:00Z";
    pbem()
        .env("PBEM_NOW", now)
        .arg("new")
        .arg(&game)
        .args(["--from", "ulm-1805"])
        .assert()
        .success();
    support::add_to_config(
        &game,
        "[mail]\nfrom = \"referee@example.org\"\ntransport = \"folder\"\nfolder = \"delivered\"\n",
    );
    let dropped = pbem()
        .env("PBEM_NOW", now)
        .arg("drop")
        .arg(&game)
        .arg("britain")
        .assert()
        .success();
    pbem()
        .env("PBEM_NOW", now)
        .arg("send")
        .arg(&game)
        .assert()
        .code(0);
    dropped.stdout(predicate::str::contains(
        "Withdrawn before it went, its password masked, since the player it welcomes left: t0001-welcome-britain.eml.",
    ));
    let welcome = read_outbox_string(game.join("mail/outbox/t0001-welcome-britain.eml"));
    assert!(welcome.contains("password ********"), "{welcome}");
    let ledger = fs::read_to_string(game.join("mail/sent/t0001-welcome-britain.toml")).unwrap();
    assert!(ledger.contains("EiA 19.2.1"), "{ledger}");
    assert!(!game
        .join("delivered/britain@example.org/t0001-welcome-britain.eml")
        .exists());
}
