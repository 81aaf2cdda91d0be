//! A real game by mail (issue 13): the envelope taken at send time, audit that holds after the
//! referee's routine acts, deadlines (`--early`, `extend`), `rollback`, `rekey`, one identity per game.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use crate::support;
use support::*;

/// Before turn 1's deadline (Sunday 2026-12-06 20:00 Vienna).
const BEFORE_TURN_1: &str = "2026-12-01T12:00:00Z";
/// Before turn 2's deadline (2026-12-13 20:00 Vienna), after turn 1's.
const BEFORE_TURN_2: &str = "2026-12-10T12:00:00Z";

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
}

fn audit_ok(game: &Path) {
    let a = pbem().arg("audit").arg(game).assert();
    let out = stdout(&a);
    assert!(a.get_output().status.success(), "{out}");
}

/// Sets france's address in game.toml.
fn set_france(game: &Path, address: &str) {
    edit(
        &game.join("game.toml"),
        "players = [\"france@example.org\"]",
        &format!("players = [\"{address}\"]"),
    );
}

#[test]
fn send_takes_from_to_and_date_from_game_toml_as_it_is_when_it_sends() {
    let (tmp, game) = support::game();
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    // After the turn: the player gives a new address, the referee sets his own.
    set_france(&game, "napoleon@new.example");
    add_to_config(&game, "[mail]\nfrom = \"Ulm referee <ref@new.example>\"\n");
    let dry = pbem()
        .args(["send", "--dry-run"])
        .arg(&game)
        .assert()
        .success();
    let out = stdout(&dry);
    assert!(
        out.contains("would send t0001-report-france.eml -> napoleon@new.example"),
        "{out}"
    );
    assert!(
        out.contains("From: Ulm referee <ref@new.example>; To: napoleon@new.example"),
        "{out}"
    );
    assert!(!out.contains("france@example.org"), "{out}");
    let folder = tmp.path().join("sent");
    pbem()
        .args(["send", "--folder"])
        .arg(&folder)
        .arg(&game)
        .assert()
        .success();
    let sent = fs::read_to_string(folder.join("napoleon@new.example/t0001-report-france.eml"))
        .expect("the report went to the address of now");
    assert_eq!(
        header_of(&sent, "From").as_deref(),
        Some("\"Ulm referee\" <ref@new.example>")
    );
    assert_eq!(
        header_of(&sent, "To").as_deref(),
        Some("napoleon@new.example")
    );
    // The Date is the moment of sending (the tests' clock), not the deadline.
    assert_eq!(
        header_of(&sent, "Date").as_deref(),
        Some("Fri, 01 Jan 2100 00:00:00 +0000")
    );
    assert!(!folder.join("france@example.org").exists());
    // The referee's summary goes to the referee's address of now.
    assert!(folder.join("ref@new.example/t0001-summary.eml").is_file());
    // What the report says is what the outbox holds, and audit still passes.
    let made = read_outbox(game.join("mail/outbox/t0001-report-france.eml"));
    assert_eq!(
        pbem::mail::envelope::content(sent.as_bytes()),
        pbem::mail::envelope::content(&made)
    );
    audit_ok(&game);
}

#[test]
fn a_recipient_that_no_longer_exists_is_reported_and_not_sent() {
    let (tmp, game) = support::game();
    let inbox = write(
        tmp.path(),
        "in.eml",
        eml(
            "france@example.org",
            "Sat, 5 Dec 2026 18:00:00 +0100",
            "o1@example.org",
            &header("france", FRANCE_PW, 1),
        ),
    );
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&inbox)
        .assert()
        .success();
    assert_eq!(acks(&game).len(), 1);
    set_france(&game, "napoleon@new.example");
    let folder = tmp.path().join("sent");
    let a = pbem()
        .args(["send", "--folder"])
        .arg(&folder)
        .arg(&game)
        .assert()
        .code(5);
    let out = stdout(&a);
    assert!(
        out.contains("france@example.org is no longer an address of france"),
        "{out}"
    );
    assert!(!folder.exists() || fs::read_dir(&folder).unwrap().next().is_none());
}

#[test]
fn audit_passes_after_routine_acts_and_fails_when_an_adjudication_byte_changes() {
    let (_tmp, game) = support::game();
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    // Routine acts between turns: addresses, title, mail settings, the schedule, a power dropped
    // and replaced, a deadline extended.
    set_france(&game, "napoleon@new.example");
    edit(&game.join("game.toml"), "title = \"", "title = \"Renamed: ");
    add_to_config(&game, "[mail]\nfrom = \"Ref <ref@new.example>\"\n");
    set_deadline_key(&game, "every_days", "10");
    pbem()
        .args(["drop"])
        .arg(&game)
        .args(["britain", "--to", "russia"])
        .assert()
        .success();
    pbem()
        .args(["replace"])
        .arg(&game)
        .args(["britain", "--email", "pitt@example.org"])
        .assert()
        .success();
    pbem()
        .args(["extend"])
        .arg(&game)
        .args(["--by", "2d", "--reason", "a holiday"])
        .env("PBEM_NOW", BEFORE_TURN_2)
        .assert()
        .success();
    audit_ok(&game);
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let record = fs::read_to_string(game.join("turns/2/record.toml")).unwrap();
    assert!(record.contains("acts = \""), "{record}");
    audit_ok(&game);
    // An adjudication byte changed: audit fails.
    let log = game.join("turns/1/log.toml");
    let text = fs::read_to_string(&log).unwrap();
    fs::write(&log, text.replacen("turn = 1", "turn = 1 ", 1)).unwrap();
    pbem()
        .arg("audit")
        .arg(&game)
        .assert()
        .code(4)
        .stdout(predicate::str::contains("log.toml"));
}

#[test]
fn a_turn_is_not_resolved_before_its_deadline_while_orders_are_missing() {
    let (_tmp, game) = support::game();
    write(&game, "orders/1/france.txt", header("france", FRANCE_PW, 1));
    let before = tree(&game);
    pbem()
        .arg("resolve")
        .arg(&game)
        .env("PBEM_NOW", BEFORE_TURN_1)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "orders are still missing from austria, russia, britain",
        ))
        .stderr(predicate::str::contains("--early"));
    pbem()
        .arg("turn")
        .arg(&game)
        .env("PBEM_NOW", BEFORE_TURN_1)
        .assert()
        .failure();
    assert_eq!(tree(&game), before, "nothing changed");
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .env("PBEM_NOW", BEFORE_TURN_1)
        .assert()
        .success();
}

#[test]
fn extend_moves_the_deadline_tells_every_player_and_refuses_the_past() {
    let (_tmp, game) = support::game();
    let before = tree(&game);
    pbem()
        .args(["extend", "--to", "2026-11-01T20:00"])
        .arg(&game)
        .env("PBEM_NOW", BEFORE_TURN_1)
        .assert()
        .failure()
        .stderr(predicate::str::contains("in the past"));
    pbem()
        .args(["extend", "--to", "next tuesday"])
        .arg(&game)
        .env("PBEM_NOW", BEFORE_TURN_1)
        .assert()
        .failure()
        .stderr(predicate::str::contains("2026-12-08T20:00"));
    assert_eq!(tree(&game), before, "nothing changed");
    pbem()
        .args([
            "extend",
            "--to",
            "2026-12-08T20:00",
            "--reason",
            "a holiday",
        ])
        .arg(&game)
        .env("PBEM_NOW", BEFORE_TURN_1)
        .assert()
        .success()
        .stdout(predicate::str::contains("Tuesday 2026-12-08 20:00 CET"));
    let notices: Vec<_> = outbox(&game)
        .into_iter()
        .filter(|(n, _)| n.contains("-notice-"))
        .collect();
    assert_eq!(notices.len(), 4, "one per power");
    assert!(notices
        .iter()
        .all(|(_, m)| body_of(m).contains("Tuesday 2026-12-08 20:00 CET")));
    pbem()
        .arg("status")
        .arg(&game)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Deadline: Tuesday 2026-12-08 20:00 CET",
        ));
}

/// `extend` may bring a deadline forward only as `new` and `turn` announce one: with the game's
/// least notice from now (24 hours here); a zero span and the present deadline move nothing. It
/// moved turn 1's deadline from Sunday 20:00 to the same morning, 2 hours away.
#[test]
fn extend_brings_a_deadline_forward_only_with_the_least_notice() {
    let (_tmp, game) = support::game();
    let before = tree(&game);
    // Saturday 12:00 UTC: the deadline is Sunday 20:00 CET (19:00 UTC).
    let now = "2026-12-05T12:00:00Z";
    pbem()
        .args(["extend", "--to", "2026-12-06T10:00"])
        .arg(&game)
        .env("PBEM_NOW", now)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "is earlier than the present one (2026-12-06 20:00 CET)",
        ))
        .stderr(predicate::str::contains("least notice (24 hours"))
        .stderr(predicate::str::contains(
            "the earliest it may be brought forward to now is 2026-12-06 13:00 CET",
        ));
    pbem()
        .args(["extend", "--to", "2026-12-06T20:00"])
        .arg(&game)
        .env("PBEM_NOW", now)
        .assert()
        .failure()
        .stderr(predicate::str::contains("is the present one"));
    pbem()
        .args(["extend", "--by", "0h"])
        .arg(&game)
        .env("PBEM_NOW", now)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "to move it earlier, give the new one with --to",
        ));
    assert_eq!(tree(&game), before, "nothing changed");
    pbem()
        .args(["extend", "--to", "2026-12-06T13:00", "--reason", "all in"])
        .arg(&game)
        .env("PBEM_NOW", now)
        .assert()
        .success()
        .stdout(predicate::str::contains("Sunday 2026-12-06 13:00 CET"));
}

#[test]
fn rollback_archives_the_undone_turns_and_reopens_one_with_a_fresh_commitment() {
    let (_tmp, game) = support::game();
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let old_commitment = fs::read_to_string(game.join("turns/2/commitment")).unwrap();
    let before = tree(&game);
    for (to, why) in [("0", "before the first turn"), ("3", "is not resolved")] {
        pbem()
            .args(["rollback", "--to-turn", to, "--reason", "x"])
            .arg(&game)
            .assert()
            .failure()
            .stderr(predicate::str::contains(why));
    }
    assert_eq!(tree(&game), before, "nothing changed");
    pbem()
        .args([
            "rollback",
            "--to-turn",
            "2",
            "--reason",
            "orders filed for the wrong turn",
        ])
        .arg(&game)
        .assert()
        .success()
        .stdout(predicate::str::contains("archive/rollback-1"));
    assert!(!game.join("turns/2/record.toml").exists());
    assert!(!game.join("turns/3").exists());
    for kept in [
        "archive/rollback-1/turns/2/record.toml",
        "archive/rollback-1/turns/3/state.toml",
        "archive/rollback-1/mail/outbox/t0002-report-france.eml",
        "archive/rollback-1/secret/2.key",
    ] {
        assert!(game.join(kept).is_file(), "{kept}");
    }
    let new_commitment = fs::read_to_string(game.join("turns/2/commitment")).unwrap();
    assert_ne!(new_commitment, old_commitment);
    let notice = outbox(&game)
        .into_iter()
        .find(|(n, _)| n.starts_with("t0002-notice-france-reopened"))
        .expect("a notice to france");
    assert!(body_of(&notice.1).contains(new_commitment.trim()));
    assert!(body_of(&notice.1).contains("orders filed for the wrong turn"));
    // The reopened turn's deadline is ahead of now (the tests' clock): it resolves early or after.
    pbem()
        .arg("status")
        .arg(&game)
        .assert()
        .stdout(predicate::str::contains(
            "Deadline: Sunday 2100-01-03 20:00 CET",
        ));
    audit_ok(&game);
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    audit_ok(&game);
}

#[test]
fn each_new_game_has_its_own_identity_and_keeps_its_secrets_out_of_git() {
    let tmp = tempfile::tempdir().unwrap();
    let mut ids = Vec::new();
    for name in ["a", "b"] {
        let dir = tmp.path().join(name);
        pbem()
            .args(["new", "--from", "ulm-1805"])
            .arg(&dir)
            .assert()
            .success();
        assert_eq!(
            fs::read_to_string(dir.join(".gitignore")).unwrap(),
            "secret/\n"
        );
        let (_, m) = outbox(&dir).into_iter().next().expect("an announcement");
        let id = header_of(&m, "Message-ID").unwrap();
        let subject = header_of(&m, "Subject").unwrap();
        assert!(subject.starts_with("[ulm-1805#"), "{subject}");
        ids.push((id, subject));
    }
    assert_ne!(ids[0].0, ids[1].0, "two games never share a Message-ID");
    assert_ne!(ids[0].1, ids[1].1);
}

#[test]
fn the_demo_s_secrets_are_public_and_turn_refuses_past_its_sample_turns_until_rekey() {
    let tmp = tempfile::tempdir().unwrap();
    pbem()
        .args(["demo", "--turns", "2", "--dir"])
        .arg(tmp.path().join("d"))
        .assert()
        .success()
        .stdout(predicate::str::contains("dice secrets are public"));
    let game = tmp.path().join("d/ulm-1805");
    pbem()
        .arg("status")
        .arg(&game)
        .assert()
        .success()
        .stdout(predicate::str::contains("PUBLIC"));
    let before = tree(&game);
    pbem()
        .arg("turn")
        .arg(&game)
        .assert()
        .failure()
        .stderr(predicate::str::contains("pbem rekey"));
    assert_eq!(tree(&game), before);
    pbem().arg("rekey").arg(&game).assert().success();
    pbem()
        .arg("status")
        .arg(&game)
        .assert()
        .success()
        .stdout(predicate::str::contains("PUBLIC").not());
    pbem().arg("turn").arg(&game).assert().success();
    audit_ok(&game);
}

#[test]
fn status_tells_authenticated_rejected_late_and_missing_apart() {
    let (tmp, game) = support::game();
    write(&game, "orders/1/france.txt", header("france", FRANCE_PW, 1));
    write(&game, "orders/1/austria.txt", header("austria", "wrong", 1));
    let late = write(
        tmp.path(),
        "late.eml",
        eml(
            "russia@example.org",
            "Mon, 7 Dec 2026 18:00:00 +0100",
            "r1@example.org",
            &header("russia", RUSSIA_PW, 1),
        ),
    );
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&late)
        .assert()
        .success();
    let out = stdout(&pbem().arg("status").arg(&game).assert().success());
    let line = |p: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(p))
            .unwrap_or_else(|| panic!("no line for {p}: {out}"))
            .to_string()
    };
    assert!(line("france").contains("in, authenticated"), "{out}");
    assert!(
        line("austria").contains("in but REJECTED (wrong password"),
        "{out}"
    );
    assert!(line("russia").contains("LATE"), "{out}");
    assert!(
        line("britain").contains("missing (the deadline has passed)"),
        "{out}"
    );
}

#[test]
fn eia_reports_announce_each_corps_destroyed_with_its_rule() {
    let (_tmp, game) = demo();
    let report = fs::read_to_string(game.join("turns/1/reports/france.txt")).unwrap();
    assert!(
        report.contains(
            "- FR-II (France) is destroyed in combat in Passau.\n    [EiA 7.5: land combat]"
        ),
        "{report}"
    );
    let log = fs::read_to_string(game.join("turns/1/log.toml")).unwrap();
    assert!(log.contains("kind = \"unit-lost\""), "{log}");
}

#[test]
fn send_refuses_a_placeholder_referee_address_that_players_could_not_answer() {
    let (_tmp, game) = support::game();
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    add_to_config(
        &game,
        "[mail]\ntransport = \"sendmail\"\n\n[mail.sendmail]\ncommand = \"/bin/false\"\n",
    );
    pbem()
        .arg("send")
        .arg(&game)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "is a placeholder: set [mail] from",
        ));
    assert!(!game.join("mail/sent").exists(), "nothing was sent");
}

#[test]
fn replace_refuses_an_address_that_is_not_one_and_changes_nothing() {
    let (_tmp, game) = support::game();
    let before = tree(&game);
    pbem()
        .args(["replace"])
        .arg(&game)
        .args(["britain", "--email", "pitt at home"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("is not an e-mail address"));
    assert_eq!(tree(&game), before);
}

/// A late russian submission, ingested after turn 1's deadline (rejected as late).
fn late_russia(tmp: &Path, game: &Path) {
    let late = write(
        tmp,
        "late.eml",
        eml(
            "russia@example.org",
            "Mon, 7 Dec 2026 18:00:00 +0100",
            "r1@example.org",
            &header("russia", RUSSIA_PW, 1),
        ),
    );
    pbem().arg("ingest").arg(game).arg(&late).assert().success();
    assert!(!game.join("orders/1/russia.txt").exists());
}

#[test]
fn accept_late_files_the_late_orders_as_an_act_that_audit_checks() {
    let (tmp, game) = support::game();
    late_russia(tmp.path(), &game);
    let a = pbem()
        .args(["accept-late"])
        .arg(&game)
        .args(["russia", "--reason", "his mail server was down"])
        .assert()
        .success();
    let out = stdout(&a);
    assert!(out.contains("The late orders of russia"), "{out}");
    assert!(out.contains("stand for turn 1"), "{out}");
    // Filed as ingest files an accepted submission: no password, the message named.
    let filed = fs::read_to_string(game.join("orders/1/russia.txt")).unwrap();
    assert!(filed.contains("submission "), "{filed}");
    assert!(!filed.contains(RUSSIA_PW), "{filed}");
    // The decision is an act of the turn.
    let acts = fs::read_to_string(game.join("turns/1/acts.toml")).unwrap();
    assert!(acts.contains("kind = \"accept-late\""), "{acts}");
    assert!(acts.contains("his mail server was down"), "{acts}");
    // The player is told his orders now stand.
    let ack = outbox(&game)
        .into_iter()
        .find(|(name, _)| name.starts_with("t0001-ack-russia-") && name.ends_with("-accepted.eml"))
        .expect("an answer to russia");
    assert!(
        ack.1.contains("These orders now stand for turn 1"),
        "{}",
        ack.1
    );
    assert!(ack.1.contains("accepted late by the referee"), "{}", ack.1);
    let status = stdout(&pbem().arg("status").arg(&game).assert().success());
    let russia = status
        .lines()
        .find(|l| l.trim_start().starts_with("russia"))
        .unwrap();
    assert!(russia.contains("authenticated"), "{status}");
    // A rerun changes nothing.
    let before = tree(&game);
    pbem()
        .args(["accept-late"])
        .arg(&game)
        .args(["russia", "--reason", "his mail server was down"])
        .assert()
        .success();
    assert!(tree(&game) == before, "a rerun changed the game");
    // The turn resolves with them, and audit passes.
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let record = fs::read_to_string(game.join("turns/1/record.toml")).unwrap();
    assert!(record.contains("russia = "), "{record}");
    audit_ok(&game);
    // Changing the orders accepted late is caught.
    edit(
        &game.join("orders/1/russia.txt"),
        "turn 1\n",
        "turn 1\n# edited\n",
    );
    let a = pbem().arg("audit").arg(&game).assert().code(4);
    assert!(stdout(&a).contains("orders/1/russia.txt"), "{}", stdout(&a));
}

#[test]
fn audit_fails_when_the_orders_differ_from_those_accepted_late() {
    let (tmp, game) = support::game();
    late_russia(tmp.path(), &game);
    pbem()
        .args(["accept-late"])
        .arg(&game)
        .args(["russia", "--reason", "late by a minute"])
        .assert()
        .success();
    // Another file put in its place before the turn (by hand, with the password): the act says
    // which orders were accepted, so audit catches it although the record lists the file.
    write(&game, "orders/1/russia.txt", header("russia", RUSSIA_PW, 1));
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let a = pbem().arg("audit").arg(&game).assert().code(4);
    assert!(
        stdout(&a).contains("not those the referee accepted late"),
        "{}",
        stdout(&a)
    );
}

#[test]
fn accept_late_without_a_late_submission_is_refused_and_changes_nothing() {
    let (tmp, game) = support::game();
    late_russia(tmp.path(), &game);
    let before = tree(&game);
    pbem()
        .args(["accept-late"])
        .arg(&game)
        .args(["france", "--reason", "x"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no late submission of france"));
    pbem()
        .args(["accept-late"])
        .arg(&game)
        .args(["russia", "--message", "nobody@example.org", "--reason", "x"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no message nobody@example.org"));
    pbem()
        .args(["accept-late"])
        .arg(&game)
        .args(["russia", "--reason", " "])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--reason"));
    assert!(
        tree(&game) == before,
        "a refused accept-late changed the game"
    );
    // Named by its Message-ID, it is accepted.
    pbem()
        .args(["accept-late"])
        .arg(&game)
        .args(["russia", "--message", "<r1@example.org>", "--reason", "x"])
        .assert()
        .success();
}

#[test]
fn remind_counts_a_file_in_but_rejected_as_due_and_says_why() {
    let (_tmp, game) = support::game();
    write(&game, "orders/1/france.txt", header("france", FRANCE_PW, 1));
    write(&game, "orders/1/austria.txt", header("austria", "wrong", 1));
    // Before the deadline: after it, remind writes none.
    let out = stdout(
        &pbem()
            .arg("remind")
            .arg(&game)
            .env("PBEM_NOW", "2026-12-05T18:00:00Z")
            .assert()
            .success(),
    );
    assert!(
        !out.lines().any(|l| l.trim_start().starts_with("france")),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l.trim_start().starts_with("austria")),
        "{out}"
    );
    assert!(
        out.contains("still due: ulm-1805/orders/1/austria.txt is in but rejected: wrong password"),
        "{out}"
    );
    let reminder = outbox(&game)
        .into_iter()
        .find(|(name, _)| name == "t0001-reminder-austria.eml")
        .expect("a reminder to austria");
    assert!(reminder.1.contains("is in but rejected"), "{}", reminder.1);
}

#[test]
fn resolve_force_refuses_a_turn_with_later_resolved_turns_and_points_to_rollback() {
    let tmp = tempfile::tempdir().unwrap();
    pbem()
        .args(["demo", "--turns", "2", "--dir"])
        .arg(tmp.path().join("d"))
        .assert()
        .success();
    let game = tmp.path().join("d/ulm-1805");
    let before = tree(&game);
    pbem()
        .args(["resolve", "--turn", "1", "--force"])
        .arg(&game)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("would break the chain of records"))
        .stderr(predicate::str::contains("pbem rollback"));
    assert!(
        tree(&game) == before,
        "the refused resolve changed the game"
    );
    // The last resolved turn may be resolved again, to the same bytes.
    pbem()
        .args(["resolve", "--turn", "2", "--force"])
        .arg(&game)
        .assert()
        .success();
    assert!(
        tree(&game) == before,
        "turn 2 resolved again to other bytes"
    );
    audit_ok(&game);
}

#[test]
fn accept_late_takes_a_submission_held_for_the_next_turn_into_the_current_one() {
    let (tmp, game) = support::game();
    set_deadline_key(&game, "late_orders", "\"hold\"");
    late_russia(tmp.path(), &game);
    pbem()
        .args(["accept-late"])
        .arg(&game)
        .args(["russia", "--reason", "the referee's decision"])
        .assert()
        .success();
    let filed = fs::read_to_string(game.join("orders/1/russia.txt")).unwrap();
    assert!(filed.contains("turn 1\n"), "{filed}");
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let record = fs::read_to_string(game.join("turns/1/record.toml")).unwrap();
    assert!(record.contains("russia = "), "{record}");
    // It stood for turn 1, so it is no longer held for turn 2.
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(tmp.path().join("late.eml"))
        .assert()
        .success();
    assert!(!game.join("orders/2/russia.txt").exists());
    audit_ok(&game);
}

/// An ingest run's answers are one batch of the outbox (`outbox_store`), of the turn it ran in:
/// rolled back past a turn, the batch of that turn's answers goes into the archive whole (and their
/// ledgers), the batch of the turn that stays remains, and `pbem send` finds only its answers.
#[test]
fn rollback_archives_the_batch_of_answers_of_an_undone_turn_and_keeps_the_others() {
    let (tmp, game) = support::game();
    let orders = |turn: u32, id: &str| {
        eml(
            "france@example.org",
            "Sat, 5 Dec 2026 18:00:00 +0100",
            id,
            &header("france", FRANCE_PW, turn),
        )
    };
    let batches = || -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(game.join("mail/outbox"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("batch-"))
            .collect();
        v.sort();
        v
    };
    let first = write(tmp.path(), "1.eml", orders(1, "t1@x"));
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&first)
        .assert()
        .success();
    let turn_1 = batches();
    assert_eq!(turn_1.len(), 1);
    let answers_1 = acks(&game);
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let second = write(tmp.path(), "2.eml", orders(2, "t2@x"));
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&second)
        .assert()
        .success();
    let turn_2: Vec<String> = batches()
        .into_iter()
        .filter(|b| !turn_1.contains(b))
        .collect();
    assert_eq!(turn_2.len(), 1);
    assert!(acks(&game).iter().any(|(n, _)| n.starts_with("t0002-ack-")));
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    pbem()
        .args(["rollback", "--to-turn", "1", "--reason", "a test"])
        .arg(&game)
        .assert()
        .success();
    assert!(game
        .join("archive/rollback-1/mail/outbox")
        .join(&turn_2[0])
        .is_file());
    assert_eq!(batches(), turn_1);
    // Turn 1's answers stay; the rollback adds the receipt of the orders that still stand under the
    // new commitment (issue 31).
    let (renewed, kept): (Vec<_>, Vec<_>) = acks(&game)
        .into_iter()
        .partition(|(n, _)| n.contains("-reopened-"));
    assert_eq!(kept, answers_1);
    assert_eq!(renewed.len(), 1, "{renewed:?}");
}

/// A power replaced twice in one turn: the second replace withdraws the first new player's welcome
/// while it is unsent (its password no longer stands, and `pbem send` would have mailed it to the
/// power's new player) with his notices to the other powers, and says so; a new player put aside
/// whose welcome went is told, alone, that he does not take the power over.
#[test]
fn a_second_replace_withdraws_the_first_new_players_unsent_welcome_and_says_so() {
    let (tmp, dir) = pog_game();
    let sent = tmp.path().join("sent");
    let replace = |email: &str| {
        stdout(
            &pbem()
                .env("PBEM_NOW", BEFORE_TURN_1)
                .arg("replace")
                .arg(&dir)
                .args(["allies", "--email", email])
                .assert()
                .success(),
        )
    };
    let send = || {
        pbem()
            .env("PBEM_NOW", BEFORE_TURN_1)
            .args(["send", "--folder"])
            .arg(&sent)
            .arg(&dir)
            .assert()
            .success();
    };
    let key_of = |out: &str| {
        out.split("(t0001-welcome-allies-")
            .nth(1)
            .and_then(|r| r.split(".eml").next())
            .unwrap_or_else(|| panic!("no welcome in {out}"))
            .to_string()
    };
    let first = replace("foch@example.org");
    let foch = key_of(&first);
    let second = replace("joffre@example.org");
    assert!(
        second.contains(&format!(
            "Withdrawn before they went, since the password they carry or the player they name no longer stands: t0001-welcome-allies-{foch}.eml, t0001-notice-central-player-{foch}.eml."
        )),
        "{second}"
    );
    let welcome = outbox(&dir)
        .into_iter()
        .find(|(n, _)| n == &format!("t0001-welcome-allies-{foch}.eml"))
        .map(|(_, m)| m)
        .unwrap();
    assert!(welcome.contains("password ********"), "its password masked");
    send();
    let to = |address: &str| support::delivered(&sent, address);
    assert_eq!(to("foch@example.org"), Vec::<String>::new());
    let joffre = key_of(&second);
    assert!(
        to("joffre@example.org")
            .iter()
            .any(|n| n.starts_with(&format!("t0001-welcome-allies-{joffre}"))),
        "{:?}",
        to("joffre@example.org")
    );
    let central = to("central@example.org");
    assert!(
        !central.iter().any(|n| n.contains(&foch)),
        "the notice of a player who never comes is not sent: {central:?}"
    );
    // Joffre had his welcome: a third replace tells him, alone, that it is void.
    let third = replace("gallieni@example.org");
    assert!(
        third.contains("A new player named before for allies had his welcome already: a notice tells him he does not take it over"),
        "{third}"
    );
    send();
    let notice = to("joffre@example.org")
        .into_iter()
        .find(|n| n.contains("-farewell-allies-superseded-"))
        .expect("the notice to joffre");
    let notice =
        body_of(&fs::read_to_string(sent.join("joffre@example.org").join(notice)).unwrap());
    assert!(
        notice.contains("You do not take Allied Powers over: the welcome you had is void"),
        "{notice}"
    );
    assert!(!notice.contains("EiA"), "{notice}");
}
