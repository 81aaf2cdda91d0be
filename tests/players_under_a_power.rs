//! Players under a power (`[[power.player]]`, `engine::command`), through the binary: France of the
//! bundled Ulm 1805 played by a commander and a deputy of different scope, each with his own password,
//! file and report.

use std::fs;
use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::support;
use crate::support::read_outbox_string;
use support::{game, pbem, tree};

const NAPOLEON_PW: &str = "austerlitz-sun";
const BERTHIER_PW: &str = "chief-of-staff";

/// France's two players: the commander `napoleon` commands FR-I and FR-VII, the deputy `berthier`
/// FR-VII and FR-II; each report is of his own command.
fn two_players(game: &Path) {
    two_players_and(game, "");
}

/// As [`two_players`], with `more` at the end of France's table (the deputy's dated changes).
fn two_players_and(game: &Path, more: &str) {
    let path = game.join("game.toml");
    let text = fs::read_to_string(&path).unwrap();
    let start = text.find("[[power]]\nid = \"france\"").unwrap();
    let end = start + text[start..].find("\n\n").unwrap();
    let france = format!(
        r##"[[power]]
id = "france"
name = "France"
colour = "#1f4e9c"
ranks = ["commander", "deputy"]
reports = "per-player"

[[power.player]]
id = "napoleon"
rank = "commander"
address = "napoleon@example.org"
password_hash = "{}"
scope = ["FR-I", "FR-VII"]

[[power.player]]
id = "berthier"
rank = "deputy"
address = "berthier@example.org"
password_hash = "{}"
scope = ["FR-VII", "FR-II"]
{more}"##,
        pbem::auth::hash_password(NAPOLEON_PW).unwrap(),
        pbem::auth::hash_password(BERTHIER_PW).unwrap(),
    );
    fs::write(&path, format!("{}{france}{}", &text[..start], &text[end..])).unwrap();
}

fn orders(player: &str, password: &str, body: &str) -> String {
    format!("game ulm-1805\npower france\nplayer {player}\npassword {password}\nturn 1\n{body}")
}

fn write(game: &Path, name: &str, text: &str) -> PathBuf {
    let dir = game.join("orders/1");
    fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p
}

/// Where a unit stands in a state file.
fn area_of(state: &str, unit: &str) -> String {
    let at = state.find(&format!("id = \"{unit}\"")).unwrap();
    let rest = &state[at..];
    let line = rest.lines().find(|l| l.starts_with("area = ")).unwrap();
    line.trim_start_matches("area = ")
        .trim_matches('"')
        .to_string()
}

#[test]
fn gitm_6_each_player_authenticates_and_the_commanders_order_wins_over_the_deputys() {
    let (_t, game) = game();
    two_players(&game);
    let napoleon = write(
        &game,
        "france.napoleon.txt",
        &orders("napoleon", NAPOLEON_PW, "move FR-VII Mainz\n"),
    );
    // Each player authenticates with his own password.
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&napoleon)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "orders of france, player napoleon, for turn 1",
        ));
    // The deputy writes after the commander: FR-VII in both scopes, FR-II in his alone, FR-I not his.
    let berthier = write(
        &game,
        "france.berthier.txt",
        &orders(
            "berthier",
            BERTHIER_PW,
            "entropy the chief of staff\nmove FR-VII Wurzburg\nmove FR-II Regensburg\nmove FR-I Frankfurt\n",
        ),
    );
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&berthier)
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "is not in the command of berthier",
        ));
    // One player's password is not the other's.
    let wrong = write(
        &game,
        "wrong.txt",
        &orders("berthier", NAPOLEON_PW, "move FR-II Regensburg\n"),
    );
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&wrong)
        .assert()
        .code(3)
        .stdout(predicate::str::contains("wrong password for France"));
    fs::remove_file(&wrong).unwrap();
    // A file without the player line names none.
    let none = write(
        &game,
        "none.txt",
        &orders("x", BERTHIER_PW, "").replace("player x\n", ""),
    );
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&none)
        .assert()
        .code(3)
        .stdout(predicate::str::contains("the orders have no 'player' line"))
        .stdout(predicate::str::contains("wrong password").not());
    fs::remove_file(&none).unwrap();

    // The referee's summary gives each player's file its own line.
    pbem()
        .arg("resolve")
        .arg(&game)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "  france.napoleon 1 order(s) accepted, 0 rejected",
        ))
        .stdout(predicate::str::contains("  france.berthier "));
    let next = fs::read_to_string(game.join("turns/2/state.toml")).unwrap();
    assert_eq!(
        area_of(&next, "FR-VII"),
        "Mainz",
        "the commander's order stands"
    );
    assert_eq!(
        area_of(&next, "FR-II"),
        "Regensburg",
        "the deputy's own unit moved"
    );
    assert_eq!(
        area_of(&next, "FR-I"),
        "Wurzburg",
        "outside the deputy's scope"
    );
    let log = fs::read_to_string(game.join("turns/1/log.toml")).unwrap();
    assert!(log.contains("rule = \"GITM 6\""), "{log}");
    assert!(
        log.contains("napoleon outranks berthier"),
        "the set-aside order is logged: {log}"
    );

    // Each player gets his own report, of what his own command sees.
    let reports = game.join("turns/1/reports");
    assert!(!reports.join("france.txt").exists());
    let n = fs::read_to_string(reports.join("france.napoleon.txt")).unwrap();
    let b = fs::read_to_string(reports.join("france.berthier.txt")).unwrap();
    assert!(n.contains("player napoleon (commander)"), "{n}");
    assert!(b.contains("player berthier (deputy)"), "{b}");
    assert!(b.contains("AU-IV"), "Regensburg sees Ingolstadt: {b}");
    assert!(!n.contains("AU-IV"), "Mainz and Wurzburg do not: {n}");
    assert!(n.contains("player napoleon\n"), "his orders template: {n}");
    let html = fs::read_to_string(reports.join("france.berthier.html")).unwrap();
    assert!(html.contains("player berthier (deputy)"), "{html}");
    let json = fs::read_to_string(reports.join("france.berthier.json")).unwrap();
    assert!(json.contains("\"player\":\"berthier\""), "{json}");
    // It follows the report's schema, his entropy listed under france.berthier.
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../schema/report-v1.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let header = value["dice"]["text"].as_str().unwrap();
    assert!(header.contains("\nentropy france.berthier: "), "{header}");
    // Mailed to his own address, and to nobody else.
    let mail = read_outbox_string(game.join("mail/outbox/t0001-report-france-berthier.eml"));
    assert!(
        mail.contains("X-Pbem-To: power france turn 1 only"),
        "{mail}"
    );
    assert!(mail.contains("berthier@example.org"), "{mail}");
    assert!(!mail.contains("napoleon@example.org"), "{mail}");

    // The deputy finds his own entropy in his report's dice (under france.berthier).
    pbem()
        .arg("verify")
        .arg(reports.join("france.berthier.txt"))
        .arg(reports.join("france.berthier.json"))
        .arg("--orders")
        .arg(&berthier)
        .assert()
        .success();
    // The audit passes, and resolving again gives the same bytes.
    pbem().arg("audit").arg(&game).assert().success();
    let before = tree(&game);
    pbem()
        .args(["resolve", "--turn", "1", "--force"])
        .arg(&game)
        .assert()
        .success();
    assert_eq!(before, tree(&game));
}

#[test]
fn by_mail_each_player_sends_from_his_own_address_and_status_and_remind_go_per_player() {
    let (tmp, game) = game();
    two_players(&game);
    let mail = |from: &str, at: &str, id: &str, body: String| {
        support::write(
            tmp.path(),
            &format!("{id}.eml"),
            support::eml(from, at, id, &body),
        )
    };
    // The deputy's orders, from his address; then his orders again from the commander's address,
    // which is not his: refused, whatever the password.
    let ok = mail(
        "berthier@example.org",
        "Sat, 5 Dec 2026 18:00:00 +0100",
        "b-1@example.org",
        orders("berthier", BERTHIER_PW, "move FR-II Regensburg\n"),
    );
    let stolen = mail(
        "napoleon@example.org",
        "Sat, 5 Dec 2026 18:30:00 +0100",
        "b-2@example.org",
        orders("berthier", BERTHIER_PW, "move FR-VII Wurzburg\n"),
    );
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&ok)
        .arg(&stolen)
        .assert()
        .success();
    let filed = fs::read_to_string(game.join("orders/1/france.berthier.txt")).unwrap();
    assert!(filed.contains("move FR-II Regensburg"), "{filed}");
    assert!(
        !filed.contains(BERTHIER_PW),
        "no password is filed: {filed}"
    );
    assert!(!game.join("orders/1/france.txt").exists());
    let records: String = fs::read_dir(game.join("mail/received"))
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        records.contains("is not the address of berthier of France"),
        "{records}"
    );
    // The answer to his accepted submission goes to him alone.
    let acks = support::acks(&game);
    assert!(
        acks.iter()
            .any(|(_, m)| m.contains("To: berthier@example.org")),
        "{acks:?}"
    );

    // Status: a line per player.
    let out = pbem().arg("status").arg(&game).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let line = |p: &str| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(p))
            .unwrap_or_else(|| panic!("no line {p}: {stdout}"))
            .to_string()
    };
    assert!(line("france.berthier").contains("in: received"), "{stdout}");
    assert!(line("france.napoleon").contains("missing"), "{stdout}");

    // The commander, who sent nothing, is reminded alone.
    // Before the deadline: after it, remind writes none.
    pbem()
        .arg("remind")
        .arg(&game)
        .env("PBEM_NOW", "2026-12-05T18:00:00Z")
        .assert()
        .success();
    let reminder = read_outbox_string(game.join("mail/outbox/t0001-reminder-france-napoleon.eml"));
    assert!(reminder.contains("napoleon@example.org"), "{reminder}");
    assert!(!reminder.contains("berthier@example.org"), "{reminder}");
    // The lines his orders open with name him, as his orders must.
    assert!(
        reminder
            .contains("    power france\r\n    player napoleon\r\n    password <your password>"),
        "{reminder}"
    );
    assert!(!game
        .join("mail/outbox/t0001-reminder-france-berthier.eml")
        .exists());

    // The turn reads the filed file, and the audit passes.
    pbem().arg("resolve").arg(&game).assert().success();
    let next = fs::read_to_string(game.join("turns/2/state.toml")).unwrap();
    assert_eq!(area_of(&next, "FR-II"), "Regensburg");
    pbem().arg("audit").arg(&game).assert().success();
}

#[test]
fn reassignments_and_password_changes_take_effect_from_their_turn() {
    let (_t, game) = game();
    // From turn 2, FR-I passes to the deputy, who gets a new password.
    let new_pw = "new-chief-1805";
    two_players_and(
        &game,
        &format!(
            "\n[[power.player.change]]\nturn = 2\nscope = [\"FR-VII\", \"FR-II\", \"FR-I\"]\npassword_hash = \"{}\"\naddress = \"berthier@elba.example\"",
            pbem::auth::hash_password(new_pw).unwrap()
        ),
    );
    // Turn 1: the old password and the old scope.
    let t1 = write(
        &game,
        "france.berthier.txt",
        &orders("berthier", BERTHIER_PW, "move FR-I Frankfurt\n"),
    );
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&t1)
        .assert()
        .code(3)
        .stdout(predicate::str::contains(
            "FR-I is not in the command of berthier",
        ));
    fs::remove_file(&t1).unwrap();
    pbem().arg("resolve").arg(&game).assert().success();
    // His turn-1 report went to his address of turn 1; turn 2's announcement to his new one.
    let report = read_outbox_string(game.join("mail/outbox/t0001-report-france-berthier.eml"));
    assert!(report.contains("berthier@example.org"), "{report}");
    let announced = read_outbox_string(game.join("mail/outbox/t0002-announcement-france.eml"));
    assert!(announced.contains("berthier@elba.example"), "{announced}");
    assert!(!announced.contains("berthier@example.org"), "{announced}");
    // Turn 2: the old password is refused, the new one stands, and FR-I is his.
    let old = write(
        &game,
        "old.txt",
        &orders("berthier", BERTHIER_PW, "move FR-I Frankfurt\n").replace("turn 1", "turn 2"),
    );
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&old)
        .assert()
        .code(3)
        .stdout(predicate::str::contains("wrong password for France"));
    let new = write(
        &game,
        "new.txt",
        &orders("berthier", new_pw, "move FR-I Frankfurt\n").replace("turn 1", "turn 2"),
    );
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&new)
        .assert()
        .success()
        .stdout(predicate::str::contains("move FR-I Frankfurt"));
    // Turn 1 still audits with what held then.
    pbem().arg("audit").arg(&game).assert().success();
}

#[test]
fn without_reports_per_player_the_power_gets_one_report_as_the_ruleset_says() {
    let (_t, game) = game();
    two_players(&game);
    support::edit(&game.join("game.toml"), "reports = \"per-player\"\n", "");
    write(
        &game,
        "france.berthier.txt",
        &orders("berthier", BERTHIER_PW, "move FR-II Regensburg\n"),
    );
    pbem().arg("resolve").arg(&game).assert().success();
    let reports = game.join("turns/1/reports");
    assert!(!reports.join("france.berthier.txt").exists());
    // EiA reports per power (`Ruleset::reports_per_player`): one report, to every player of it.
    let report = fs::read_to_string(reports.join("france.txt")).unwrap();
    assert!(report.contains("FR-II              Regensburg"), "{report}");
    assert!(report.contains("line 6: move FR-II Regensburg"), "{report}");
    assert!(
        report.contains("power france\nplayer <your player id>\n"),
        "{report}"
    );
    let mail = read_outbox_string(game.join("mail/outbox/t0001-report-france.eml"));
    assert!(
        mail.contains("X-Pbem-To: power france turn 1\r\n"),
        "{mail}"
    );
}

#[test]
fn pbem_new_gives_each_player_of_a_power_his_own_password() {
    let (tmp, scenario) = game();
    two_players(&scenario);
    let dir = tmp.path().join("new");
    let out = pbem()
        .arg("new")
        .arg(&dir)
        .arg("--from")
        .arg(&scenario)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let password = |who: &str| -> String {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{who} ")))
            .unwrap_or_else(|| panic!("no password for {who}: {stdout}"));
        line.split_whitespace().nth(1).unwrap().to_string()
    };
    let (n, b) = (password("france.napoleon"), password("france.berthier"));
    assert_ne!(n, b);
    assert!(
        !stdout
            .lines()
            .any(|l| l.trim_start().starts_with("france ")),
        "{stdout}"
    );
    // The new passwords authenticate, each his own player; the scenario's no longer.
    let o = support::write(tmp.path(), "o.txt", orders("berthier", BERTHIER_PW, ""));
    pbem().arg("check").arg(&dir).arg(&o).assert().code(3);
    let o = support::write(tmp.path(), "o.txt", orders("berthier", &b, ""));
    pbem().arg("check").arg(&dir).arg(&o).assert().success();
    let o = support::write(tmp.path(), "o.txt", orders("berthier", &n, ""));
    pbem().arg("check").arg(&dir).arg(&o).assert().code(3);
}

#[test]
fn a_players_file_holding_another_players_orders_does_not_stand() {
    let (_t, game) = game();
    two_players(&game);
    write(
        &game,
        "france.berthier.txt",
        &orders("napoleon", NAPOLEON_PW, "move FR-VII Mainz\n"),
    );
    let out = pbem().arg("status").arg(&game).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("france.berthier"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.contains("REJECTED"), "{stdout}");
    assert!(
        line.contains("holds orders for france.napoleon, not for france.berthier"),
        "{stdout}"
    );
    pbem().arg("resolve").arg(&game).assert().success();
    let next = fs::read_to_string(game.join("turns/2/state.toml")).unwrap();
    assert_eq!(area_of(&next, "FR-VII"), "Frankfurt", "no order stood");
}

#[test]
fn gitm_6_11_a_change_dated_by_a_bad_time_stamp_is_a_located_error() {
    let (_t, game) = game();
    two_players_and(
        &game,
        "\n[[power.player.change]]\nat = \"next Tuesday\"\nscope = [\"FR-I\"]",
    );
    let out = pbem().arg("status").arg(&game).assert().failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("game.toml:") && err.contains("'next Tuesday' is not a local date and time"),
        "{err}"
    );
    assert!(
        err.contains("its deadline") || err.contains("deadline comes first"),
        "{err}"
    );
}

/// GITM 6: a player's answer says whose orders his replace (his own alone: the other players' stand
/// beside them) and that a higher rank's order for the same unit stands over his. It said "They
/// replace any orders of France received before them", and numbered "submission 1 of France", as if
/// his commander's orders were gone.
#[test]
fn gitm_6_a_players_answer_says_his_orders_replace_his_own_and_a_higher_rank_stands_over_them() {
    let (tmp, game) = game();
    two_players(&game);
    let path = support::write(
        tmp.path(),
        "b.eml",
        support::eml(
            "berthier@example.org",
            "Sat, 5 Dec 2026 18:00:00 +0100",
            "b-1@example.org",
            &orders("berthier", BERTHIER_PW, "move FR-II Regensburg\n"),
        ),
    );
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&path)
        .assert()
        .success();
    let acks = support::acks(&game);
    assert_eq!(acks.len(), 1);
    let text = support::body_of(&acks[0].1).replace("\r\n", "\n");
    assert!(
        text.contains("They replace any orders of berthier of France received\nbefore them"),
        "{text}"
    );
    assert!(
        text.contains("The orders of the other players of France stand beside them")
            && text.contains("his order stands and yours is set aside (GITM 6)"),
        "{text}"
    );
    assert!(
        text.contains("This is submission 1 of berthier of France accepted"),
        "{text}"
    );
}

/// pbem orders/command: a deputy who orders a unit outside his command is told which units he
/// commands, in words of his game, never where the referee keeps it (`game.toml [[power.player]]`).
#[test]
fn a_line_for_a_unit_outside_a_players_command_names_his_units_not_the_referees_file() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    let out = pbem()
        .arg("new")
        .arg(&game)
        .args(["--from", "gitm-italy-1809"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let password = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("france.macdonald"))
        .expect("macdonald's password")
        .trim();
    let file = tmp.path().join("macdonald.txt");
    fs::write(
        &file,
        format!(
            "game gitm-italy-1809\npower france\nplayer macdonald\npassword {password}\nturn 1\nmove FR1IN G3-V6\n"
        ),
    )
    .unwrap();
    let text = support::rejected(&game, &file);
    assert!(
        text.contains("error: FR1IN is not in the command of macdonald"),
        "{text}"
    );
    assert!(
        text.contains("help: you command FR5IN, FR6IN, FR2LI, FR2CQ, FR1MA: the power's other units are another of its players' to order"),
        "{text}"
    );
    assert!(!text.contains("game.toml"), "{text}");
}
