//! A game's life where the referee's acts meet (issue 33): deadlines as one schedule of the acts
//! (rollback, extend, a late resolution), a dropped power's departed player, accept-late's last
//! word, a `pbem turn` killed while sending and run again, the messages that tell each of them, and
//! `pbem turn --unattended` as cron runs it. Each scenario through the binary.
//!
//! Times: the bundled ulm-1805 game is in Vienna (CET, UTC+1 in December); turn 1 is due Sunday
//! 2026-12-06 20:00 CET (19:00Z), turn 2's slot is Sunday 2026-12-13 20:00 CET.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support;
use support::*;

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
}

fn stderr(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stderr).into_owned()
}

/// `pbem <command> <game> <rest of args>` at the instant `now`.
fn at(now: &str, args: &[&str], game: &Path) -> assert_cmd::assert::Assert {
    pbem()
        .arg(args[0])
        .arg(game)
        .args(&args[1..])
        .env("PBEM_NOW", now)
        .assert()
}

/// `pbem ingest <game> <mail>` at the instant `now`.
fn ingest_at(now: &str, game: &Path, mail: &Path) -> assert_cmd::assert::Assert {
    pbem()
        .arg("ingest")
        .arg(game)
        .arg(mail)
        .env("PBEM_NOW", now)
        .assert()
}

fn audit_ok(game: &Path) {
    let a = pbem().arg("audit").arg(game).assert();
    assert!(a.get_output().status.success(), "{}", stdout(&a));
}

/// The status line of a power.
fn status_line(out: &str, power: &str) -> String {
    out.lines()
        .find(|l| l.trim_start().starts_with(power))
        .unwrap_or_else(|| panic!("no line for {power}: {out}"))
        .to_string()
}

/// A message of `power`'s player from `from`, received at `received` (RFC 5322), with `body`.
fn mail(tmp: &Path, name: &str, from: &str, received: &str, body: &str) -> std::path::PathBuf {
    write(
        tmp,
        name,
        eml(from, received, &format!("{name}@example.org"), body),
    )
}

#[test]
fn a_turn_reopened_by_rollback_opens_the_next_turn_after_its_own_deadline() {
    let (tmp, game) = support::game();
    write(&game, "orders/1/france.txt", header("france", FRANCE_PW, 1));
    // Russia's orders came five minutes after the deadline, and again ten minutes after: late.
    let first = mail(
        tmp.path(),
        "first.eml",
        "russia@example.org",
        "Sun, 6 Dec 2026 20:05:00 +0100",
        &header("russia", RUSSIA_PW, 1),
    );
    let late = mail(
        tmp.path(),
        "late.eml",
        "russia@example.org",
        "Sun, 6 Dec 2026 20:10:00 +0100",
        &header("russia", RUSSIA_PW, 1),
    );
    ingest_at("2026-12-06T19:20:00Z", &game, &first).success();
    ingest_at("2026-12-06T19:20:00Z", &game, &late).success();
    at("2026-12-06T19:30:00Z", &["resolve"], &game).success();
    // France ordered turn 2 that evening, on the reports the rollback makes void.
    let before = mail(
        tmp.path(),
        "t2-before.eml",
        "france@example.org",
        "Sun, 6 Dec 2026 21:00:00 +0100",
        &header("france", FRANCE_PW, 2),
    );
    ingest_at("2026-12-06T20:00:00Z", &game, &before).success();
    // Its sealed rolls published (`pbem unseal --force`), of a seed the rollback undoes.
    write(&game, "unsealed/1.txt", "the sealed rolls of turn 1\n");
    // Rolled back the next morning: turn 1 reopens until turn 2's slot.
    let a = at(
        "2026-12-07T10:00:00Z",
        &["rollback", "--to-turn", "1", "--reason", "a wrong table"],
        &game,
    )
    .success();
    let status = stdout(&at("2026-12-07T10:01:00Z", &["status"], &game).success());
    assert!(
        status.contains("Deadline: Sunday 2026-12-13 20:00 CET"),
        "{status}\n{}",
        stdout(&a)
    );
    assert!(!game.join("unsealed/1.txt").exists());
    assert!(game.join("archive/rollback-1/unsealed/1.txt").is_file());
    // The reopened deadline covers Russia's late orders: they stand now.
    assert!(
        stdout(&a).contains("covered by the reopened deadline: it stands now"),
        "{}",
        stdout(&a)
    );
    assert!(
        status_line(&status, "russia").contains("authenticated"),
        "{status}"
    );
    // His first submission came in time for the reopened deadline too, and the second replaces
    // it: neither is late now.
    assert!(!status.contains("also:"), "{status}");
    // Russia's answer says the reopened deadline covered his orders, and is their receipt under
    // the new commitment: no renewed receipt claims to replace an acknowledgement he never had.
    // France, whose orders stood before, gets hers.
    let acks = acks(&game);
    let russia: Vec<&(String, String)> = acks
        .iter()
        .filter(|(n, _)| n.starts_with("t0001-ack-russia-"))
        .collect();
    let accepted = russia
        .iter()
        .find(|(n, _)| n.ends_with("-accepted.eml"))
        .map(|(_, m)| body_of(m))
        .expect("russia's accepted answer");
    assert!(
        accepted.contains("- the referee reopened turn 1 (pbem rollback) with the deadline Sunday 2026-12-13 20:00 CET: your orders arrived before it and stand"),
        "{accepted}"
    );
    assert!(!accepted.contains("late orders are rejected"), "{accepted}");
    assert!(
        !russia.iter().any(|(n, _)| n.contains("-reopened-")),
        "{:?}",
        russia.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    assert!(
        acks.iter()
            .any(|(n, m)| n.starts_with("t0001-ack-france-reopened-")
                && body_of(m).contains("which named the old one")),
        "{:?}",
        acks.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    // The notice tells what was undone, and whether the orders on file still stand.
    let notice = |power: &str| {
        outbox(&game)
            .into_iter()
            .find(|(n, _)| n.starts_with(&format!("t0001-notice-{power}-reopened")))
            .map(|(_, m)| body_of(&m))
            .unwrap_or_else(|| panic!("no notice to {power}"))
    };
    let france = notice("france");
    assert!(
        france.contains("Void: the reports of turn 1 already mailed"),
        "{france}"
    );
    assert!(
        france.contains("dice commitment of turn 1 mailed before"),
        "{france}"
    );
    assert!(
        france.contains("Your orders on file for turn 1 still stand"),
        "{france}"
    );
    assert!(
        france.contains("Void too: your orders for turn 2 received Sunday 2026-12-06 21:00:00 CET (message <t2-before.eml@example.org>)"),
        "{france}"
    );
    assert!(
        notice("russia").contains("Your orders on file for turn 1, late before, stand now"),
        "{}",
        notice("russia")
    );
    assert!(
        notice("austria").contains("No orders of yours for turn 1 are on file"),
        "{}",
        notice("austria")
    );
    // Resolved again half an hour after its new deadline: turn 2 opens a week later, never with the
    // deadline turn 1 just had.
    at("2026-12-13T19:30:00Z", &["resolve"], &game).success();
    let summary = fs::read_to_string(game.join("turns/1/summary.txt")).unwrap();
    assert!(!summary.contains("Late by mail"), "{summary}");
    let status = stdout(&at("2026-12-13T19:31:00Z", &["status"], &game).success());
    assert!(
        status.contains("Deadline: Sunday 2026-12-20 20:00 CET"),
        "{status}"
    );
    let report = fs::read_to_string(game.join("turns/1/reports/france.txt")).unwrap();
    assert!(report.contains("2026-12-20 20:00"), "{report}");
    // France's void orders for turn 2 are not in, and no ingest files them.
    let france = status_line(&status, "france");
    assert!(france.contains("missing"), "{status}");
    assert!(
        status.contains("turn 1 was reopened (pbem rollback, archive/rollback-1) after it arrived"),
        "{status}"
    );
    // An order for turn 2 mailed the next day is on time.
    let m = mail(
        tmp.path(),
        "t2.eml",
        "france@example.org",
        "Mon, 14 Dec 2026 18:00:00 +0100",
        &header("france", FRANCE_PW, 2),
    );
    ingest_at("2026-12-14T18:00:00Z", &game, &m).success();
    let status = stdout(&at("2026-12-14T18:01:00Z", &["status"], &game).success());
    assert!(
        status_line(&status, "france").contains("authenticated"),
        "{status}"
    );
    audit_ok(&game);
}

#[test]
fn a_turn_resolved_late_announces_the_next_with_the_least_notice() {
    let (_tmp, game) = support::game();
    // Resolved on Sunday 13 December at 18:30 CET, half an hour before turn 2's slot: turn 2
    // opens with the slot after it, a day's notice at least.
    at("2026-12-13T17:30:00Z", &["resolve"], &game).success();
    let status = stdout(&at("2026-12-13T17:31:00Z", &["status"], &game).success());
    assert!(
        status.contains("Deadline: Sunday 2026-12-20 20:00 CET"),
        "{status}"
    );
    // The record keeps it, and audit resolves again with it.
    let record = fs::read_to_string(game.join("turns/1/record.toml")).unwrap();
    assert!(
        record.contains("next_deadline = \"2026-12-20T20:00\""),
        "{record}"
    );
    audit_ok(&game);
    // A game.toml asking for less notice keeps the slot.
    let (_tmp2, game2) = support::game();
    add_to_config_deadline(&game2, "least_notice_hours = 1");
    at("2026-12-13T17:30:00Z", &["resolve"], &game2).success();
    let status = stdout(&at("2026-12-13T17:31:00Z", &["status"], &game2).success());
    assert!(
        status.contains("Deadline: Sunday 2026-12-13 20:00 CET"),
        "{status}"
    );
}

/// `pbem turn` resolving a turn so late that the next turn's slot has passed mails its reports, which
/// announce the next turn with the least notice: found by the property (PoG), where `turn` judged the
/// mail by the slot, refused it as too late and told the referee to extend a deadline a week ahead.
#[test]
fn pbem_turn_resolving_late_mails_the_reports_by_the_deadline_they_announce() {
    let tmp = tempfile::tempdir().unwrap();
    let (game, sent) = (tmp.path().join("g"), tmp.path().join("sent"));
    pbem()
        .args(["new", "--from", "ulm-1805"])
        .arg(&game)
        .env("PBEM_NOW", "2026-12-01T10:00:00Z")
        .assert()
        .success();
    let folder = sent.to_str().unwrap();
    at("2026-12-01T10:05:00Z", &["send", "--folder", folder], &game).success();
    // Half an hour past turn 2's slot (Sunday 13 December, 20:00 CET).
    let turn = at("2026-12-13T19:30:00Z", &["turn", "--folder", folder], &game);
    assert!(
        turn.get_output().status.success(),
        "{}{}",
        stdout(&turn),
        stderr(&turn)
    );
    let report = delivered(&sent, "france@example.org");
    assert!(
        report.iter().any(|m| m.contains("t0001-report-france")),
        "{report:?}"
    );
    let status = stdout(&at("2026-12-13T19:31:00Z", &["status"], &game).success());
    assert!(
        status.contains("Deadline: Sunday 2026-12-20 20:00 CET"),
        "{status}"
    );
}

/// Adds a line to game.toml's [deadline] table.
fn add_to_config_deadline(game: &Path, line: &str) {
    edit(
        &game.join("game.toml"),
        "every_days = 7\n",
        &format!("every_days = 7\n{line}\n"),
    );
}

/// A new game whose turn 1 (due on the 6th) was extended on the 5th to the 15th, past turn 2's slot.
fn extended_to_the_15th() -> (tempfile::TempDir, PathBuf) {
    let (tmp, game) = support::game();
    at(
        "2026-12-05T12:00:00Z",
        &["extend", "--to", "2026-12-15T20:00", "--reason", "holidays"],
        &game,
    )
    .success();
    (tmp, game)
}

#[test]
fn an_extension_past_the_next_slot_moves_the_later_turns() {
    let (_tmp, game) = extended_to_the_15th();
    at("2026-12-15T19:30:00Z", &["resolve"], &game).success();
    let status = stdout(&at("2026-12-15T19:31:00Z", &["status"], &game).success());
    assert!(
        status.contains("Deadline: Sunday 2026-12-20 20:00 CET"),
        "{status}"
    );
    audit_ok(&game);
}

/// `pbem extend --by 2d` killed before its act, or among its notices: run again, it finishes the
/// extension begun, the deadline moved once (not by 2d more), each player told once.
#[test]
fn an_extension_killed_midway_is_finished_by_running_it_again() {
    let (_tmp, game) = support::game();
    let extend = |crash: Option<&str>| {
        let mut c = pbem();
        c.arg("extend")
            .arg(&game)
            .args(["--by", "2d", "--reason", "a strike"])
            .env("PBEM_NOW", "2026-12-03T10:00:00Z");
        if let Some(name) = crash {
            c.env("PBEM_CRASH_BEFORE", name);
        }
        c.assert()
    };
    for (n, crash, due) in [
        (1, "acts.toml", "Tuesday 2026-12-08 20:00 CET"),
        (
            2,
            "t0001-notice-austria-deadline-2.eml",
            "Thursday 2026-12-10 20:00 CET",
        ),
    ] {
        extend(Some(crash)).failure();
        let out = stdout(&extend(None).success());
        assert!(out.contains("killed midway was finished"), "{out}");
        assert!(out.contains(&format!("is now {due}")), "{out}");
        let status = stdout(&at("2026-12-03T10:01:00Z", &["status"], &game).success());
        assert!(status.contains(&format!("Deadline: {due}")), "{status}");
        let acts = fs::read_to_string(game.join("turns/1/acts.toml")).unwrap();
        assert_eq!(acts.matches("kind = \"extend\"").count(), n, "{acts}");
        let notices: Vec<String> = outbox(&game)
            .into_iter()
            .map(|(name, _)| name)
            .filter(|name| name.contains(&format!("-deadline-{n}")))
            .collect();
        assert_eq!(notices.len(), 4, "{notices:?}");
        assert!(!game.join("turns/1/extend.toml").exists());
    }
}

#[test]
fn extend_refuses_a_deadline_not_after_the_previous_turn_s() {
    let (_tmp, game) = extended_to_the_15th();
    // Turn 1 resolved early, on the 10th: its deadline, the 15th, is still ahead.
    at("2026-12-10T12:00:00Z", &["resolve", "--early"], &game).success();
    let before = tree(&game);
    let a = at(
        "2026-12-10T12:05:00Z",
        &["extend", "--to", "2026-12-14T20:00"],
        &game,
    )
    .failure();
    assert!(
        stderr(&a).contains("is not after the deadline of turn 1"),
        "{}",
        stderr(&a)
    );
    assert_eq!(tree(&game), before, "nothing changed");
}

/// Russia's orders for turn 1, received Monday 7 December 18:00 CET: a day late.
fn late_russia(tmp: &Path, game: &Path) {
    let m = mail(
        tmp,
        "late.eml",
        "russia@example.org",
        "Mon, 7 Dec 2026 18:00:00 +0100",
        &header("russia", RUSSIA_PW, 1),
    );
    ingest_at("2026-12-07T17:10:00Z", game, &m).success();
    assert!(!game.join("orders/1/russia.txt").exists());
}

#[test]
fn a_late_submission_the_new_deadline_covers_stands_after_extend() {
    let (tmp, game) = support::game();
    late_russia(tmp.path(), &game);
    let status = stdout(&at("2026-12-07T17:20:00Z", &["status"], &game).success());
    assert!(status_line(&status, "russia").contains("LATE"), "{status}");
    // The LATE line counts the late submission; no "also: 1 late" repeats it.
    assert!(!status.contains("also: 1 late"), "{status}");
    let a = at(
        "2026-12-07T17:30:00Z",
        &["extend", "--to", "2026-12-08T20:00", "--reason", "a strike"],
        &game,
    )
    .success();
    assert!(
        stdout(&a).contains("late before, is covered by the new deadline: it stands now"),
        "{}",
        stdout(&a)
    );
    let status = stdout(&at("2026-12-07T17:31:00Z", &["status"], &game).success());
    let russia = status_line(&status, "russia");
    assert!(!russia.contains("LATE"), "{status}");
    assert!(russia.contains("authenticated"), "{status}");
    assert!(game.join("orders/1/russia.txt").is_file());
    // The player's last word on his message: it stands (the "late" answer is withdrawn unsent).
    let sent = tmp.path().join("sent");
    pbem()
        .args(["send", "--folder"])
        .arg(&sent)
        .arg(&game)
        .assert()
        .success();
    let to_russia: Vec<String> = delivered(&sent, "russia@example.org")
        .into_iter()
        .filter(|n| n.contains("-ack-"))
        .collect();
    assert_eq!(to_russia.len(), 1, "{to_russia:?}");
    assert!(to_russia[0].ends_with("-accepted.eml"), "{to_russia:?}");
    // It says that the extension covered them, not accept-late, nor that they were rejected.
    let answer =
        body_of(&fs::read_to_string(sent.join("russia@example.org").join(&to_russia[0])).unwrap());
    assert!(
        answer.contains("- the referee extended the deadline of turn 1 to Tuesday 2026-12-08 20:00 CET: your orders arrived before it and stand"),
        "{answer}"
    );
    assert!(!answer.contains("accept-late"), "{answer}");
    assert!(!answer.contains("late orders are rejected"), "{answer}");
    at("2026-12-08T19:30:00Z", &["resolve"], &game).success();
    let record = fs::read_to_string(game.join("turns/1/record.toml")).unwrap();
    assert!(record.contains("russia = "), "{record}");
    audit_ok(&game);
}

/// Late orders held for the next turn (`late_orders = "hold"`) that a moved deadline covers: the
/// last stands for the turn, and the earlier ones, replaced by it in time, are held for no turn.
#[test]
fn late_orders_held_for_the_next_turn_and_covered_by_extend_stand_for_their_own() {
    let (tmp, game) = support::game();
    set_deadline_key(&game, "late_orders", "\"hold\"");
    let mails: Vec<PathBuf> = [("first", "18:00"), ("second", "18:30")]
        .iter()
        .map(|(name, time)| {
            mail(
                tmp.path(),
                &format!("{name}.eml"),
                "russia@example.org",
                &format!("Mon, 7 Dec 2026 {time}:00 +0100"),
                &header("russia", RUSSIA_PW, 1),
            )
        })
        .collect();
    for m in &mails {
        ingest_at("2026-12-07T17:40:00Z", &game, m).success();
    }
    let status = stdout(&at("2026-12-07T17:41:00Z", &["status"], &game).success());
    assert!(status.contains("2 held for turn 2"), "{status}");
    at(
        "2026-12-07T17:45:00Z",
        &["extend", "--to", "2026-12-08T20:00", "--reason", "a strike"],
        &game,
    )
    .success();
    let status = stdout(&at("2026-12-07T17:46:00Z", &["status"], &game).success());
    assert!(
        status_line(&status, "russia").contains("authenticated"),
        "{status}"
    );
    assert!(!status.contains("held for turn 2"), "{status}");
    at("2026-12-08T19:30:00Z", &["resolve"], &game).success();
    let summary = fs::read_to_string(game.join("turns/1/summary.txt")).unwrap();
    assert!(!summary.contains("Late by mail"), "{summary}");
    // Turn 2 waits for Russia's orders: none of turn 1's is filed for it.
    let status = stdout(&at("2026-12-08T19:31:00Z", &["status"], &game).success());
    assert!(
        status_line(&status, "russia").contains("missing"),
        "{status}"
    );
    audit_ok(&game);
}

#[test]
fn accept_late_withdraws_the_unsent_rejection_of_the_same_message() {
    let (tmp, game) = support::game();
    late_russia(tmp.path(), &game);
    let late_ack = acks(&game)
        .into_iter()
        .find(|(n, _)| n.starts_with("t0001-ack-russia-"))
        .expect("the late answer")
        .0;
    pbem()
        .args(["accept-late"])
        .arg(&game)
        .args(["russia", "--reason", "his server was down"])
        .assert()
        .success();
    let ledger = fs::read_to_string(
        game.join("mail/sent")
            .join(late_ack.replace(".eml", ".toml")),
    )
    .expect("the late answer's ledger");
    assert!(ledger.contains("withdrawn = "), "{ledger}");
    let sent = tmp.path().join("sent");
    pbem()
        .args(["send", "--folder"])
        .arg(&sent)
        .arg(&game)
        .assert()
        .success();
    let to_russia = delivered(&sent, "russia@example.org");
    assert!(!to_russia.contains(&late_ack), "{to_russia:?}");
    assert!(
        to_russia.iter().any(|n| n.ends_with("-accepted.eml")),
        "{to_russia:?}"
    );
    // A second send sends nothing more.
    let a = pbem()
        .args(["send", "--folder"])
        .arg(&sent)
        .arg(&game)
        .assert()
        .success();
    assert!(!stdout(&a).contains("-> russia"), "{}", stdout(&a));
}

#[test]
fn accept_late_after_the_rejection_went_answers_in_the_order_written() {
    let (tmp, game) = support::game();
    late_russia(tmp.path(), &game);
    let sent = tmp.path().join("sent");
    pbem()
        .args(["send", "--folder"])
        .arg(&sent)
        .arg(&game)
        .assert()
        .success();
    assert_eq!(delivered(&sent, "russia@example.org").len(), 1);
    pbem()
        .args(["accept-late"])
        .arg(&game)
        .args(["russia", "--reason", "his server was down"])
        .assert()
        .success();
    let a = pbem()
        .args(["send", "--folder"])
        .arg(&sent)
        .arg(&game)
        .assert()
        .success();
    // Only the new answer goes now: the rejection went first, the acceptance after it.
    let out = stdout(&a);
    assert!(out.contains("-accepted.eml -> russia@example.org"), "{out}");
    assert_eq!(delivered(&sent, "russia@example.org").len(), 2);
}

#[test]
fn a_dropped_power_s_departed_player_no_longer_orders_it() {
    let (tmp, game) = support::game();
    // Britain's orders came in on time, with an entropy line.
    let body = format!(
        "{}entropy departed-player-dice\n",
        header("britain", BRITAIN_PW, 1)
    );
    let on_time = mail(
        tmp.path(),
        "b1.eml",
        "britain@example.org",
        "Sat, 5 Dec 2026 18:00:00 +0100",
        &body,
    );
    ingest_at("2026-12-05T17:10:00Z", &game, &on_time).success();
    assert!(game.join("orders/1/britain.txt").is_file());
    // Then his player left: Russia runs Britain.
    at(
        "2026-12-05T18:00:00Z",
        &["drop", "britain", "--to", "russia"],
        &game,
    )
    .success();
    // He writes again, with his old password from his old address.
    let again = mail(
        tmp.path(),
        "b2.eml",
        "britain@example.org",
        "Sat, 5 Dec 2026 19:30:00 +0100",
        &body,
    );
    ingest_at("2026-12-05T18:40:00Z", &game, &again).success();
    let answer = acks(&game)
        .into_iter()
        .filter(|(n, _)| n.starts_with("t0001-ack-britain-"))
        .map(|(_, m)| m)
        .find(|m| body_of(m).contains("no longer play"))
        .expect("an answer saying he no longer plays Britain");
    assert!(
        body_of(&answer).contains("you no longer play Great Britain"),
        "{}",
        body_of(&answer)
    );
    // The answer goes to him, and to him alone.
    let sent = tmp.path().join("sent");
    pbem()
        .args(["send", "--folder"])
        .arg(&sent)
        .arg(&game)
        .assert()
        .success();
    let to_him = delivered(&sent, "britain@example.org");
    assert!(
        to_him.iter().any(|n| body_of(
            &fs::read_to_string(sent.join("britain@example.org").join(n)).unwrap()
        )
        .contains("you no longer play")),
        "{to_him:?}"
    );
    assert!(!delivered(&sent, "russia@example.org")
        .iter()
        .any(|n| n.starts_with("t0001-ack-britain-")));
    // Status and remind speak of the power as dropped, and to whoever runs it.
    let status = stdout(&at("2026-12-05T18:41:00Z", &["status"], &game).success());
    assert!(
        status.contains("dropped (EiA 19.2.1): run by Russia"),
        "{status}"
    );
    at("2026-12-05T18:42:00Z", &["remind"], &game).success();
    let dry = stdout(
        &pbem()
            .args(["send", "--dry-run"])
            .arg(&game)
            .env("PBEM_NOW", "2026-12-05T18:43:00Z")
            .assert(),
    );
    let line = dry
        .lines()
        .find(|l| l.contains("t0001-reminder-britain.eml ->"))
        .unwrap_or_else(|| panic!("no reminder for britain: {dry}"));
    assert!(line.contains("russia@example.org"), "{line}");
    assert!(!line.contains("britain@example.org"), "{line}");
    let reminder = outbox(&game)
        .into_iter()
        .find(|(n, _)| n == "t0001-reminder-britain.eml")
        .unwrap()
        .1;
    assert!(
        body_of(&reminder).contains("Russia runs it"),
        "{}",
        body_of(&reminder)
    );
    // Neither of his messages stands, and his entropy does not join the seed.
    at("2026-12-06T19:30:00Z", &["resolve"], &game).success();
    let record: toml::Value =
        toml::from_str(&fs::read_to_string(game.join("turns/1/record.toml")).unwrap()).unwrap();
    assert!(record["entropy"].get("britain").is_none(), "{record}");
    let log = fs::read_to_string(game.join("turns/1/log.toml")).unwrap();
    assert!(!log.contains("departed-player-dice"), "entropy in the log");
    audit_ok(&game);
}

#[test]
fn a_power_dropped_to_the_sop_is_reminded_to_nobody() {
    let (_tmp, game) = support::game();
    at("2026-12-05T18:00:00Z", &["drop", "britain"], &game).success();
    let status = stdout(&at("2026-12-05T18:01:00Z", &["status"], &game).success());
    let britain = status_line(&status, "britain");
    assert!(britain.contains("dropped (EiA 19.2.1)"), "{status}");
    assert!(britain.contains("rolled for"), "{status}");
    at("2026-12-05T18:02:00Z", &["remind"], &game).success();
    assert!(
        !outbox(&game)
            .iter()
            .any(|(n, _)| n.starts_with("t0001-reminder-britain")),
        "a reminder for a power nobody runs"
    );
}

#[test]
fn eia_19_2_2_replace_announces_the_alliance_lock_the_engine_enforces() {
    let (_tmp, game) = support::game();
    let a = pbem()
        .args(["replace"])
        .arg(&game)
        .args(["britain", "--email", "pitt@example.org"])
        .assert()
        .success();
    let out = stdout(&a);
    pbem().arg("resolve").arg(&game).assert().success();
    let state: toml::Value =
        toml::from_str(&fs::read_to_string(game.join("turns/2/state.toml")).unwrap()).unwrap();
    let lock = state["alliance_locks"]["britain"].as_integer().unwrap();
    assert!(
        out.contains(&format!("may not be broken before turn {lock}")),
        "engine: {lock}; replace said: {out}"
    );
}

#[test]
fn status_after_the_deadline_waits_to_be_resolved_and_gives_the_reason_of_a_rejection() {
    let (tmp, game) = support::game();
    let wrong = mail(
        tmp.path(),
        "w.eml",
        "austria@example.org",
        "Sat, 5 Dec 2026 18:00:00 +0100",
        &header("austria", "not-the-password", 1),
    );
    ingest_at("2026-12-05T17:10:00Z", &game, &wrong).success();
    let before = stdout(&at("2026-12-05T17:11:00Z", &["status"], &game).success());
    assert!(before.contains("waits for orders"), "{before}");
    let after = stdout(&at("2026-12-06T19:30:00Z", &["status"], &game).success());
    assert!(!after.contains("waits for orders"), "{after}");
    assert!(after.contains("waits to be resolved"), "{after}");
    assert!(
        after.contains("also: 1 rejected (the last: wrong password"),
        "{after}"
    );
}

/// `pbem turn` at `now`, its mail delivered into the folder `sent`, killed before it writes the file
/// `crash` names (`PBEM_CRASH_BEFORE`) if one is given.
fn turn_into(
    sent: &std::path::Path,
    game: &std::path::Path,
    now: &str,
    crash: Option<&str>,
) -> std::process::Output {
    let mut c = pbem();
    c.args(["turn", "--folder"])
        .arg(sent)
        .arg(game)
        .env("PBEM_NOW", now);
    if let Some(file) = crash {
        c.env("PBEM_CRASH_BEFORE", file);
    }
    c.output().unwrap()
}

#[test]
fn a_killed_turn_is_finished_by_running_it_again() {
    let (tmp, game) = support::game();
    let sent = tmp.path().join("sent");
    write(&game, "orders/1/france.txt", header("france", FRANCE_PW, 1));
    // Killed while sending turn 1's mail, before russia's report went.
    let killed = turn_into(
        &sent,
        &game,
        "2026-12-06T19:30:00Z",
        Some("t0001-report-russia.toml"),
    );
    assert!(!killed.status.success());
    assert!(game.join("turns/1/record.toml").is_file());
    // The next turn's announcements, sent after the reports, have not gone.
    let announced = sent.join("france@example.org/t0002-announcement-france.eml");
    assert!(!announced.exists());
    // Run again before turn 2's deadline: it sends what was left, and says turn 2 waits.
    let a = pbem()
        .args(["turn", "--folder"])
        .arg(&sent)
        .arg(&game)
        .env("PBEM_NOW", "2026-12-07T10:00:00Z")
        .assert()
        .success();
    let out = stdout(&a);
    assert!(out.contains("The mail left in the outbox is sent"), "{out}");
    assert!(
        sent.join("russia@example.org/t0001-report-russia.eml")
            .is_file(),
        "{out}"
    );
    assert!(announced.is_file(), "{out}");
    let dry = stdout(&pbem().args(["send", "--dry-run"]).arg(&game).assert());
    assert!(!dry.contains("would send"), "{dry}");
    assert!(!game.join("turns/2/record.toml").exists());
}

#[test]
fn a_turn_kept_from_sending_does_not_advise_early_while_its_mail_waits() {
    let (tmp, game) = support::game();
    add_to_config(
        &game,
        "[mail]\ntransport = \"folder\"\nfolder = \"outgoing\"\n",
    );
    at("2026-12-06T19:30:00Z", &["turn", "--no-send"], &game).success();
    let a = pbem()
        .args(["turn", "--no-send"])
        .arg(&game)
        .env("PBEM_NOW", "2026-12-07T10:00:00Z")
        .assert()
        .failure();
    let err = stderr(&a);
    assert!(!err.contains("--early"), "{err}");
    assert!(err.contains("send them first with `pbem send"), "{err}");
    drop(tmp);
}

/// The demo game mailing into a folder, reminders 48 hours before a deadline, France's orders in:
/// what `turn --unattended` is tried on.
fn unattended_game() -> (tempfile::TempDir, PathBuf) {
    let (tmp, game) = support::game();
    add_to_config_deadline(&game, "remind_hours_before = 48");
    add_to_config(
        &game,
        "[mail]\ntransport = \"folder\"\nfolder = \"outgoing\"\n",
    );
    write(&game, "orders/1/france.txt", header("france", FRANCE_PW, 1));
    (tmp, game)
}

/// What `pbem turn --unattended` printed at `now`; it must succeed.
fn unattended(game: &Path, now: &str) -> String {
    stdout(&at(now, &["turn", "--unattended"], game).success())
}

/// The reminders in the outbox, by file name.
fn reminder_names(game: &Path) -> Vec<String> {
    outbox(game)
        .into_iter()
        .filter(|(n, _)| n.contains("-reminder-"))
        .map(|(n, _)| n)
        .collect()
}

#[test]
fn unattended_waits_in_silence_reminds_once_and_resolves_when_due() {
    let (_tmp, game) = unattended_game();
    let run = |now: &str| unattended(&game, now);
    let reminders = || reminder_names(&game);
    // Five days before the deadline: nothing to do, nothing said.
    assert_eq!(run("2026-12-01T12:00:00Z"), "");
    assert!(reminders().is_empty());
    // Within 48 hours of it: one reminder to each power still due, sent.
    assert_eq!(run("2026-12-05T12:00:00Z"), "");
    let first = reminders();
    assert_eq!(
        first,
        [
            "t0001-reminder-austria.eml",
            "t0001-reminder-britain.eml",
            "t0001-reminder-russia.eml"
        ]
    );
    assert!(game
        .join("outgoing/austria@example.org/t0001-reminder-austria.eml")
        .is_file());
    // Every few minutes after: no second reminder.
    assert_eq!(run("2026-12-05T12:05:00Z"), "");
    assert_eq!(run("2026-12-06T18:55:00Z"), "");
    assert_eq!(reminders(), first);
    assert!(!game.join("turns/1/record.toml").exists());
    // The deadline has passed: the turn is resolved, once, and its mail goes.
    let out = run("2026-12-06T19:05:00Z");
    assert!(out.contains("Turn 1 (September 1805) resolved"), "{out}");
    assert!(game
        .join("outgoing/france@example.org/t0001-report-france.eml")
        .is_file());
    assert_eq!(run("2026-12-06T19:10:00Z"), "");
    assert!(!game.join("turns/2/record.toml").exists());
    audit_ok(&game);
    // Rolled back the next day: the reopened turn, due a week later, is reminded of its own
    // deadline within 48 hours of it, once.
    at(
        "2026-12-07T10:00:00Z",
        &["rollback", "--to-turn", "1", "--reason", "a wrong table"],
        &game,
    )
    .success();
    assert_eq!(run("2026-12-07T10:05:00Z"), "");
    assert!(reminders().is_empty());
    assert_eq!(run("2026-12-12T12:00:00Z"), "");
    assert_eq!(reminders(), first);
    let reminder =
        fs::read_to_string(game.join("outgoing/austria@example.org/t0001-reminder-austria.eml"))
            .unwrap();
    assert!(reminder.contains("2026-12-13 20:00"), "{reminder}");
}

/// After `pbem extend`, `turn --unattended` reminds each power still due of the new deadline, once,
/// its hours before it: the powers reminded of the old deadline counted as reminded, and were told
/// nothing more before the new one.
#[test]
fn unattended_reminds_again_of_the_deadline_extend_moved() {
    let (_tmp, game) = unattended_game();
    let run = |now: &str| unattended(&game, now);
    let reminders = || reminder_names(&game);
    // Reminded within 48 hours of Sunday 20:00.
    assert_eq!(run("2026-12-05T12:00:00Z"), "");
    assert_eq!(reminders().len(), 3);
    // Moved to Wednesday 20:00: nobody is due a reminder before Monday 20:00.
    at(
        "2026-12-05T13:00:00Z",
        &["extend", "--by", "3d", "--reason", "a holiday"],
        &game,
    )
    .success();
    assert_eq!(run("2026-12-05T13:05:00Z"), "");
    assert_eq!(run("2026-12-07T18:00:00Z"), "");
    assert_eq!(reminders().len(), 3);
    // Within 48 hours of the new deadline: reminded of it, once.
    assert_eq!(run("2026-12-08T12:00:00Z"), "");
    let now = reminders();
    assert_eq!(
        now,
        [
            "t0001-reminder-austria-deadline-1.eml",
            "t0001-reminder-austria.eml",
            "t0001-reminder-britain-deadline-1.eml",
            "t0001-reminder-britain.eml",
            "t0001-reminder-russia-deadline-1.eml",
            "t0001-reminder-russia.eml"
        ]
    );
    let reminder = fs::read_to_string(
        game.join("outgoing/austria@example.org/t0001-reminder-austria-deadline-1.eml"),
    )
    .unwrap();
    assert!(reminder.contains("2026-12-09 20:00"), "{reminder}");
    assert_eq!(run("2026-12-09T18:00:00Z"), "");
    assert_eq!(reminders(), now);
}

/// A reminder of the old deadline still in the outbox when `extend` moves it is withdrawn: it went
/// after the extension's notice, telling the deadline the turn no longer had. `pbem remind` then
/// writes the reminder of the new one.
#[test]
fn extend_withdraws_the_unsent_reminders_of_the_old_deadline() {
    let (tmp, game) = support::game();
    write(&game, "orders/1/france.txt", header("france", FRANCE_PW, 1));
    at("2026-12-05T12:00:00Z", &["remind"], &game).success();
    at(
        "2026-12-05T13:00:00Z",
        &["extend", "--by", "1d", "--reason", "a holiday"],
        &game,
    )
    .success();
    at("2026-12-05T13:05:00Z", &["remind"], &game).success();
    let sent = tmp.path().join("sent");
    pbem()
        .args(["send", "--folder"])
        .arg(&sent)
        .arg(&game)
        .env("PBEM_NOW", "2026-12-05T13:10:00Z")
        .assert()
        .success();
    let to_austria = delivered(&sent, "austria@example.org");
    assert!(
        to_austria.contains(&"t0001-reminder-austria-deadline-1.eml".to_string()),
        "{to_austria:?}"
    );
    assert!(
        !to_austria.contains(&"t0001-reminder-austria.eml".to_string()),
        "{to_austria:?}"
    );
    let reminder =
        fs::read_to_string(sent.join("austria@example.org/t0001-reminder-austria-deadline-1.eml"))
            .unwrap();
    assert!(reminder.contains("2026-12-07 20:00"), "{reminder}");
}

/// A reminder written before the deadline and still in the outbox after it is withdrawn when the
/// outbox goes (`pbem turn` sends it before it resolves the turn): it went, telling a deadline
/// already past, just before the player's report.
#[test]
fn a_reminder_not_sent_before_its_deadline_is_withdrawn_not_sent() {
    let (tmp, game) = support::game();
    write(&game, "orders/1/france.txt", header("france", FRANCE_PW, 1));
    at("2026-12-05T12:00:00Z", &["remind"], &game).success();
    let sent = tmp.path().join("sent");
    // Sunday 20:10 CET: ten minutes after the deadline.
    let a = pbem()
        .args(["send", "--folder"])
        .arg(&sent)
        .arg(&game)
        .env("PBEM_NOW", "2026-12-06T19:10:00Z")
        .assert()
        .success();
    let out = stdout(&a);
    assert!(
        out.contains("t0001-reminder-austria.eml: withdrawn: the deadline it reminds of (Sunday 2026-12-06 20:00 CET) passed before it went"),
        "{out}"
    );
    for address in [
        "austria@example.org",
        "britain@example.org",
        "russia@example.org",
    ] {
        let got = delivered(&sent, address);
        assert!(!got.iter().any(|n| n.contains("-reminder-")), "{got:?}");
    }
    // Withdrawn for good: a later run neither sends it nor says so again.
    let a = pbem()
        .args(["send", "--folder"])
        .arg(&sent)
        .arg(&game)
        .env("PBEM_NOW", "2026-12-06T19:20:00Z")
        .assert()
        .success();
    assert!(!stdout(&a).contains("reminder"), "{}", stdout(&a));
}

/// `replace` writes the new player into game.toml; the player who left stays known as the one who
/// left (EiA 19.2.1), so his mail from his old address is answered that he no longer plays the power.
#[test]
fn eia_19_2_1_a_replaced_power_s_departed_player_no_longer_orders_it() {
    let (tmp, game) = support::game();
    let body = header("britain", BRITAIN_PW, 1);
    let on_time = mail(
        tmp.path(),
        "b1.eml",
        "britain@example.org",
        "Sat, 5 Dec 2026 18:00:00 +0100",
        &body,
    );
    ingest_at("2026-12-05T17:10:00Z", &game, &on_time).success();
    at(
        "2026-12-05T18:00:00Z",
        &["replace", "britain", "--email", "pitt@example.org"],
        &game,
    )
    .success();
    let again = mail(
        tmp.path(),
        "b2.eml",
        "britain@example.org",
        "Sat, 5 Dec 2026 19:30:00 +0100",
        &body,
    );
    ingest_at("2026-12-05T18:40:00Z", &game, &again).success();
    assert!(
        acks(&game)
            .iter()
            .any(|(n, m)| n.starts_with("t0001-ack-britain-")
                && body_of(m).contains("you no longer play Great Britain")),
        "{:?}",
        acks(&game).iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    audit_ok(&game);
}

/// The answers `pbem send` reported sent to `address`, in the order sent.
fn sent_to(out: &str, address: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.trim_start().strip_prefix("sent "))
        .filter_map(|l| l.split_once(" -> "))
        .filter(|(_, to)| to.trim() == address)
        .map(|(f, _)| f.trim().to_string())
        .collect()
}

#[test]
fn answers_go_out_in_the_order_written_not_by_name() {
    let (tmp, game) = support::game();
    // Three submissions of France, each ingested on its own: their answers' names sort by the
    // digest of each message, not by when they were written.
    let mut written = Vec::new();
    for (i, minute) in [10, 20, 30].iter().enumerate() {
        let m = mail(
            tmp.path(),
            &format!("f{i}.eml"),
            "france@example.org",
            &format!("Sat, 5 Dec 2026 12:{minute}:00 +0100"),
            &format!("{}entropy f{i}\n", header("france", FRANCE_PW, 1)),
        );
        at(
            "2026-12-05T12:00:00Z",
            &["ingest", m.to_str().unwrap()],
            &game,
        )
        .success();
        let records = pbem::mail::ingest::load_records(&support::load(&game)).unwrap();
        let newest = records
            .values()
            .max_by_key(|r| r.arrival_time())
            .unwrap()
            .ack
            .clone();
        written.push(newest);
    }
    let mut by_name = written.clone();
    by_name.sort();
    assert_ne!(
        by_name, written,
        "the answers' names must not sort as written"
    );
    let order = fs::read_to_string(game.join("mail/outbox/order.txt")).unwrap();
    assert!(order.starts_with("pbem-outbox-order/v1\n"), "{order}");
    let sent = tmp.path().join("sent");
    let a = at(
        "2026-12-05T12:00:00Z",
        &["send", "--folder", sent.to_str().unwrap()],
        &game,
    )
    .success();
    let to_france = sent_to(&stdout(&a), "france@example.org");
    assert_eq!(to_france, written, "name order would be {by_name:?}");
}

#[test]
fn eia_19_2_1_a_drop_tells_the_departed_player_and_withdraws_his_unsent_accepted_answer() {
    let (tmp, game) = support::game();
    let m = mail(
        tmp.path(),
        "b.eml",
        "britain@example.org",
        "Sat, 5 Dec 2026 12:10:00 +0100",
        &header("britain", BRITAIN_PW, 1),
    );
    at(
        "2026-12-05T12:00:00Z",
        &["ingest", m.to_str().unwrap()],
        &game,
    )
    .success();
    let accepted = acks(&game)
        .into_iter()
        .find(|(n, _)| n.starts_with("t0001-ack-britain-"))
        .expect("the answer")
        .0;
    let a = at(
        "2026-12-05T13:00:00Z",
        &["drop", "britain", "--to", "russia"],
        &game,
    )
    .success();
    assert!(stdout(&a).contains("withdrawn"), "{}", stdout(&a));
    let sent = tmp.path().join("sent");
    let a = at(
        "2026-12-05T13:00:00Z",
        &["send", "--folder", sent.to_str().unwrap()],
        &game,
    )
    .success();
    let to_him = sent_to(&stdout(&a), "britain@example.org");
    assert_eq!(to_him, vec!["t0001-farewell-britain.eml".to_string()]);
    let notice =
        fs::read_to_string(sent.join("britain@example.org/t0001-farewell-britain.eml")).unwrap();
    let body = body_of(&notice);
    assert!(body.contains("You no longer play Great Britain"), "{body}");
    assert!(body.contains("was not sent"), "{body}");
    assert!(!sent.join("britain@example.org").join(&accepted).exists());
    // Russia, who runs Britain now, does not get the departed player's notice.
    assert!(!sent_to(&stdout(&a), "russia@example.org")
        .iter()
        .any(|f| f.contains("farewell")));
}

#[test]
fn eia_19_2_1_a_player_dropped_before_his_welcome_went_is_told_he_does_not_play_the_power() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    let now = "2026-12-01T12:00:00Z";
    at(now, &["new", "--from", "ulm-1805"], &game).success();
    // France is dropped before any mail went; Austria after its welcome went.
    at(now, &["drop", "france"], &game).success();
    let sent = tmp.path().join("sent");
    let folder = sent.to_str().unwrap();
    at(now, &["send", "--folder", folder], &game).success();
    at(now, &["drop", "austria"], &game).success();
    at(now, &["send", "--folder", folder], &game).success();
    let farewell = |address: &str, power: &str| {
        fs::read_to_string(
            sent.join(address)
                .join(format!("t0001-farewell-{power}.eml")),
        )
        .unwrap()
    };
    let france = farewell("france@example.org", "france");
    assert_eq!(
        delivered(&sent, "france@example.org"),
        vec!["t0001-farewell-france.eml".to_string()],
        "France's player got no welcome, only this"
    );
    assert!(
        france.contains("turn 1: you do not play France"),
        "{france}"
    );
    let body = body_of(&france);
    assert!(
        body.contains("You were to play France in Ulm 1805")
            && body.contains("before your welcome mail"),
        "{body}"
    );
    assert!(!body.contains("no longer"), "{body}");
    let austria = body_of(&farewell("austria@example.org", "austria"));
    assert!(austria.contains("You no longer play Austria"), "{austria}");
}

#[test]
fn gitm_6_1_a_player_of_a_power_with_several_is_judged_again_after_an_extension() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("gitm-italy-1809");
    pbem::bundled::write_scenario("gitm-italy-1809", &game).unwrap();
    // Turn 1 is due Tuesday 2026-12-08 20:00 Paris (19:00Z); Macdonald's orders come at 21:00.
    let m = mail(
        tmp.path(),
        "mac.eml",
        "macdonald@example.org",
        "Tue, 8 Dec 2026 21:00:00 +0100",
        "game gitm-italy-1809\npower france\nplayer macdonald\npassword trident-1805\nturn 1\nentropy late\n",
    );
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&m)
        .env("PBEM_NOW", "2026-12-08T20:05:00Z")
        .output()
        .unwrap();
    assert!(!game.join("orders/1/france.macdonald.txt").exists());
    let a = at(
        "2026-12-08T20:10:00Z",
        &["extend", "--by", "1d", "--reason", "a storm"],
        &game,
    )
    .success();
    assert!(
        game.join("orders/1/france.macdonald.txt").is_file(),
        "{}",
        stdout(&a)
    );
    let acts = fs::read_to_string(game.join("turns/1/acts.toml")).unwrap();
    assert!(acts.contains("power = \"france.macdonald\""), "{acts}");
    // The one player named: his own late orders stand by accept-late as well.
    let status = stdout(&at("2026-12-08T20:11:00Z", &["status"], &game).success());
    assert!(
        !status_line(&status, "france.macdonald").contains("LATE"),
        "{status}"
    );
}

#[test]
fn a_rollback_past_a_replace_names_the_player_who_left_in_game_toml_again() {
    let (_tmp, game) = support::game();
    at(
        "2026-12-06T19:30:00Z",
        &["turn", "--early", "--no-send"],
        &game,
    )
    .success();
    at(
        "2026-12-07T10:00:00Z",
        &["replace", "britain", "--email", "new@example.org"],
        &game,
    )
    .success();
    let config = support::load(&game).config;
    assert_eq!(
        config.power("britain").unwrap().addresses_at(2),
        ["new@example.org"]
    );
    at(
        "2026-12-13T19:30:00Z",
        &["turn", "--early", "--no-send"],
        &game,
    )
    .success();
    at(
        "2026-12-14T10:00:00Z",
        &["rollback", "--to-turn", "1", "--reason", "a wrong table"],
        &game,
    )
    .success();
    let config = support::load(&game).config;
    assert_eq!(
        config.power("britain").unwrap().addresses_at(1),
        ["britain@example.org"]
    );
    let text = fs::read_to_string(game.join("game.toml")).unwrap();
    assert!(text.contains("the replace of turn 2 is undone"), "{text}");
    audit_ok(&game);
}

#[test]
fn a_send_into_a_folder_killed_around_its_file_delivers_each_message_once() {
    for (crash, rewritten) in [("t0001-summary.eml", true), ("t0001-summary.toml#2", false)] {
        let (tmp, game) = support::demo();
        let sent = tmp.path().join("sent");
        let killed = pbem()
            .args(["send", "--folder"])
            .arg(&sent)
            .arg(&game)
            .env("PBEM_CRASH_BEFORE", crash)
            .output()
            .unwrap();
        assert!(!killed.status.success(), "{crash}: not killed");
        let file = sent.join("referee@ulm-1805.invalid/t0001-summary.eml");
        let before = fs::metadata(&file).ok().map(|m| {
            use std::os::unix::fs::MetadataExt;
            m.ino()
        });
        assert_eq!(before.is_none(), rewritten, "{crash}");
        let a = pbem()
            .args(["send", "--folder"])
            .arg(&sent)
            .arg(&game)
            .assert()
            .success();
        let out = stdout(&a);
        let sent_now = out
            .lines()
            .any(|l| l.trim_start().starts_with("sent ") && l.contains("t0001-summary.eml"));
        assert_eq!(sent_now, rewritten, "{crash}:\n{out}");
        use std::os::unix::fs::MetadataExt;
        let after = fs::metadata(&file).unwrap().ino();
        if let Some(b) = before {
            assert_eq!(b, after, "{crash}: written twice");
        }
        let ledger = fs::read_to_string(game.join("mail/sent/t0001-summary.toml")).unwrap();
        assert!(ledger.contains("status = \"delivered\""), "{ledger}");
    }
}

#[test]
fn pbem_new_warns_when_the_first_deadline_is_already_past() {
    let tmp = tempfile::tempdir().unwrap();
    let a = pbem()
        .args(["new"])
        .arg(tmp.path().join("g"))
        .args(["--from", "ulm-1805"])
        .env("PBEM_NOW", "2027-01-01T00:00:00Z")
        .assert()
        .success();
    let err = stderr(&a);
    assert!(err.contains("warning: the first deadline"), "{err}");
    assert!(err.contains("is already past"), "{err}");
    assert!(err.contains("[deadline] first"), "{err}");
    let a = pbem()
        .args(["new"])
        .arg(tmp.path().join("h"))
        .args(["--from", "ulm-1805"])
        .env("PBEM_NOW", "2026-11-01T00:00:00Z")
        .assert()
        .success();
    assert!(!stderr(&a).contains("warning"), "{}", stderr(&a));
}

/// Eugène's orders for turn `turn` with `password`, checked against the game: whether they stand.
fn eugene_checks(game: &Path, turn: u32, password: &str) -> bool {
    let orders = write(
        game.parent().unwrap(),
        &format!("eugene-{turn}-{password}.txt"),
        format!(
            "game gitm-italy-1809\npower france\nplayer eugene\npassword {password}\nturn {turn}\n"
        ),
    );
    let out = pbem().arg("check").arg(game).arg(&orders).output().unwrap();
    out.status.success()
}

#[test]
fn gitm_6_11_a_change_dated_by_its_time_stamp_keeps_the_turn_its_first_record_bound() {
    // The demo's Eugène changes his password on 12 December 09:30 (Paris); the schedule's deadlines
    // are the 8th, 11th and 14th at 20:00, so the change holds from turn 3.
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("gitm-italy-1809");
    pbem::bundled::write_scenario("gitm-italy-1809", &game).unwrap();
    // Turn 1 is extended by two days and resolved late, by a run killed before its state and run
    // again: turn 2 is announced for the 14th, after the time stamp, so the change holds from turn
    // 2, and turn 1's record binds it there.
    at(
        "2026-12-07T18:00:00Z",
        &["extend", "--by", "2d", "--reason", "a storm"],
        &game,
    )
    .success();
    let killed = pbem()
        .args(["turn", "--no-send"])
        .arg(&game)
        .env("PBEM_NOW", "2026-12-11T10:00:00Z")
        .env("PBEM_CRASH_BEFORE", "state.toml")
        .output()
        .unwrap();
    assert!(!killed.status.success(), "not killed");
    at("2026-12-11T10:00:00Z", &["turn", "--no-send"], &game).success();
    let record = fs::read_to_string(game.join("turns/1/record.toml")).unwrap();
    assert!(
        record.contains("[dated_changes]\n\"france.eugene 2026-12-12T09:30\" = 2"),
        "{record}"
    );
    audit_ok(&game);
    assert!(eugene_checks(&game, 2, "grande-armee-1812"));
    assert!(!eugene_checks(&game, 2, "eagle-1805"));
}

/// The text of the notice `key` (`deadline-1`, `reopened-1`) of turn `turn` to `power`.
fn notice_of(game: &Path, turn: u32, power: &str, key: &str) -> String {
    let name = format!("t{turn:04}-notice-{power}-{key}");
    outbox(game)
        .into_iter()
        .find(|(n, _)| n.starts_with(&name))
        .map(|(_, m)| body_of(&m))
        .unwrap_or_else(|| panic!("no notice {name}"))
}

#[test]
fn gitm_6_11_an_extension_past_a_change_s_time_stamp_moves_it_and_leaves_earlier_turns_true() {
    // The demo resolved on time: turn 1's record names Eugène's password change of 12 December
    // 09:30 (Paris) at turn 3, whose deadline (the 14th, 20:00) is the first after it.
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("gitm-italy-1809");
    pbem::bundled::write_scenario("gitm-italy-1809", &game).unwrap();
    at("2026-12-08T19:30:00Z", &["turn", "--no-send"], &game).success();
    // At turn 2, the referee enters a change of Macdonald's command made on the 12th at 10:00,
    // after turn 2's deadline (the 11th): it holds from turn 3, and turn 1's reports (Macdonald's
    // command at turn 2) stay true.
    support::edit(
        &game.join("game.toml"),
        "# GITM 6.11: from turn 3 Eugène gives Macdonald",
        "[[power.player.change]]\nat = \"2026-12-12T10:00\"\nscope = [\"FR5IN\", \"FR6IN\"]\n\n\
         # GITM 6.11: from turn 3 Eugène gives Macdonald",
    );
    audit_ok(&game);
    // Turn 2 extended to the 13th: both time stamps now come before turn 2's deadline, so both
    // changes hold from turn 2, and France's notice says so (Austria's says nothing of them), as
    // `extend` tells the referee.
    let a = at(
        "2026-12-10T10:00:00Z",
        &["extend", "--by", "2d", "--reason", "a storm"],
        &game,
    )
    .success();
    assert!(
        stdout(&a).contains("france: GITM 6.11: the change of macdonald's command made"),
        "{}",
        stdout(&a)
    );
    let france = notice_of(&game, 2, "france", "deadline-1");
    for said in [
        "GITM 6.11: the change of macdonald's command made 2026-12-12 10:00 now holds from turn 2 (it held from turn 3)",
        "GITM 6.11: the change of eugene's password made 2026-12-12 09:30 now holds from turn 2 (it held from turn 3)",
    ] {
        assert!(france.contains(said), "{france}");
    }
    assert!(
        !notice_of(&game, 2, "austria", "deadline-1").contains("GITM 6.11"),
        "Austria told of France's players"
    );
    assert!(eugene_checks(&game, 2, "grande-armee-1812"));
    assert!(!eugene_checks(&game, 2, "eagle-1805"));
    // Turn 1 is audited with the changes as its record knew them: green.
    audit_ok(&game);
    // Turn 2 resolved with them: its record names both at turn 2, and audit stays green.
    at("2026-12-13T19:30:00Z", &["turn", "--no-send"], &game).success();
    let record = fs::read_to_string(game.join("turns/2/record.toml")).unwrap();
    for key in [
        "\"france.eugene 2026-12-12T09:30\" = 2",
        "\"france.macdonald 2026-12-12T10:00\" = 2",
    ] {
        assert!(record.contains(key), "{record}");
    }
    audit_ok(&game);
}

#[test]
fn send_refuses_the_game_s_first_mail_once_its_deadline_is_past_until_extend_moves_it() {
    // A game made and left unsent past its first deadline (Sunday 2026-12-06 20:00 Vienna).
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    let now = "2026-12-07T10:00:00Z";
    pbem()
        .args(["new"])
        .arg(&game)
        .args(["--from", "ulm-1805"])
        .env("PBEM_NOW", now)
        .assert()
        .success();
    let sent = tmp.path().join("sent");
    let folder = sent.to_str().unwrap();
    let a = at(now, &["send", "--folder", folder], &game).code(1);
    let err = stderr(&a);
    assert!(err.contains("turn 1's deadline"), "{err}");
    assert!(err.contains("is already past"), "{err}");
    assert!(err.contains("first mail has not gone"), "{err}");
    assert!(err.contains("pbem extend"), "{err}");
    assert!(err.contains("Nothing was sent"), "{err}");
    assert!(!sent.exists(), "something was sent");
    // A dry run says so too, and lists what would go.
    let a = at(now, &["send", "--dry-run"], &game).code(5);
    assert!(
        stdout(&a).contains("problem: the game's first mail"),
        "{}",
        stdout(&a)
    );
    // Once the deadline is moved ahead, the first mail goes, and says the new deadline.
    at(
        now,
        &[
            "extend",
            "--to",
            "2026-12-09T20:00",
            "--reason",
            "late start",
        ],
        &game,
    )
    .success();
    at(now, &["send", "--folder", folder], &game).success();
    let welcome =
        fs::read_to_string(sent.join("france@example.org/t0001-welcome-france.eml")).unwrap();
    assert!(welcome.contains("2026-12-09 20:00"), "{welcome}");
}

/// The `game_toml` a JSON report carries for its player's own check.
fn report_game_toml(game: &Path, turn: u32, file: &str) -> String {
    let json = fs::read(game.join(format!("turns/{turn}/reports/{file}.json"))).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    v["check"]["game_toml"].as_str().unwrap().to_string()
}

#[test]
fn gitm_6_1_player_changes_added_after_a_turn_leave_its_reports_true_and_audit_green() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("gitm-italy-1809");
    pbem::bundled::write_scenario("gitm-italy-1809", &game).unwrap();
    at("2026-12-08T19:30:00Z", &["turn", "--no-send"], &game).success();
    // Turn 1's reports carry each player as he stands at turn 2: the demo's change of Macdonald's
    // command at turn 3 is not in them, nor Eugène's password change, nor any address.
    let shown = report_game_toml(&game, 1, "france.macdonald");
    assert!(!shown.contains("change"), "{shown}");
    assert!(!shown.contains("FR7IN"), "{shown}");
    assert!(!shown.contains("example.org"), "{shown}");
    // Now at turn 2, the referee adds changes as docs/REFEREE.md says he may: an address for the
    // current turn, a command from turn 4, a password and address from turn 5, a password by a
    // time stamp days ahead.
    let hash = support::load(&game).config.powers[0].commands[1]
        .password_hash
        .get_ref()
        .clone();
    let added = format!(
        "[[power.player.change]]\nturn = 2\naddress = \"macdonald@milan.example\"\n\n\
         [[power.player.change]]\nturn = 4\nscope = [\"FR5IN\", \"FR6IN\"]\n\n\
         [[power.player.change]]\nturn = 5\npassword_hash = \"{hash}\"\naddress = \"m@naples.example\"\n\n\
         [[power.player.change]]\nat = \"2026-12-20T09:30\"\npassword_hash = \"{hash}\"\n\n\
         [[power]]\nid = \"austria\""
    );
    support::edit(
        &game.join("game.toml"),
        "[[power]]\nid = \"austria\"",
        &added,
    );
    audit_ok(&game);
    // Turn 2 resolved with them binds the dated one; turn 2's reports carry Macdonald's command at
    // turn 3 (the demo's), and still no change.
    at("2026-12-11T19:30:00Z", &["turn", "--no-send"], &game).success();
    let record = fs::read_to_string(game.join("turns/2/record.toml")).unwrap();
    assert!(
        record.contains("\"france.macdonald 2026-12-20T09:30\""),
        "{record}"
    );
    let shown = report_game_toml(&game, 2, "france.macdonald");
    assert!(
        shown.contains("FR7IN") && !shown.contains("change"),
        "{shown}"
    );
    audit_ok(&game);
    // A change of command for the current turn (3) would change what turn 2's reports told: audit
    // names it.
    support::edit(
        &game.join("game.toml"),
        "[[power.player.change]]\nturn = 4",
        "[[power.player.change]]\nturn = 3\nscope = [\"FR5IN\"]\n\n[[power.player.change]]\nturn = 4",
    );
    let a = pbem().arg("audit").arg(&game).assert().failure();
    let out = stdout(&a);
    assert!(out.contains("turn 2: MISMATCH"), "{out}");
    assert!(!out.contains("turn 1: MISMATCH"), "{out}");
}

#[test]
fn send_refuses_a_later_turn_s_announcement_once_its_deadline_is_past_until_extend_moves_it() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    pbem()
        .args(["new"])
        .arg(&game)
        .args(["--from", "ulm-1805"])
        .env("PBEM_NOW", "2026-12-05T10:00:00Z")
        .assert()
        .success();
    let sent = tmp.path().join("sent");
    let folder = sent.to_str().unwrap();
    at("2026-12-05T10:00:00Z", &["send", "--folder", folder], &game).success();
    // Turn 1 resolved at its deadline, its reports kept from going; turn 2 is due Sunday the 13th,
    // 20:00 Vienna, and the reports would go the next morning.
    at("2026-12-06T19:30:00Z", &["turn", "--no-send"], &game).success();
    let now = "2026-12-14T08:00:00Z";
    let a = at(now, &["send", "--folder", folder], &game).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("turn 2's announcement (with the reports of turn 1) has not gone yet"),
        "{err}"
    );
    assert!(err.contains("is already past"), "{err}");
    assert!(err.contains("pbem extend"), "{err}");
    assert!(err.contains("Nothing was sent"), "{err}");
    assert!(delivered(&sent, "france@example.org")
        .iter()
        .all(|f| !f.starts_with("t0001-report")));
    // `turn` sends first, and refuses the same; a dry run shows it as a problem.
    let a = at(now, &["turn", "--folder", folder], &game).code(1);
    assert!(
        stderr(&a).contains("turn 2's announcement"),
        "{}",
        stderr(&a)
    );
    let a = at(now, &["send", "--dry-run"], &game).code(5);
    assert!(
        stdout(&a).contains("problem: turn 2's announcement"),
        "{}",
        stdout(&a)
    );
    // Moved ahead, the reports go, and the notice with the new deadline.
    at(
        now,
        &[
            "extend",
            "--to",
            "2026-12-16T20:00",
            "--reason",
            "mail held",
        ],
        &game,
    )
    .success();
    at(now, &["send", "--folder", folder], &game).success();
    let got = delivered(&sent, "france@example.org");
    assert!(got.iter().any(|f| f.starts_with("t0001-report")), "{got:?}");
    let notice = got.iter().find(|f| f.starts_with("t0002-notice")).unwrap();
    let notice = fs::read_to_string(sent.join("france@example.org").join(notice)).unwrap();
    assert!(notice.contains("2026-12-16 20:00"), "{notice}");
    audit_ok(&game);
}

#[test]
fn a_password_changed_after_a_turn_leaves_the_orders_file_placed_by_hand_authenticated_for_audit() {
    // France's orders for turn 1 placed by hand, with her password line, and the turn resolved.
    let (_tmp, game) = support::game();
    write(&game, "orders/1/france.txt", header("france", FRANCE_PW, 1));
    at("2026-12-06T19:30:00Z", &["turn", "--no-send"], &game).success();
    let old_hash = support::load(&game).config.powers[0]
        .password_hash
        .get_ref()
        .clone();
    let record = fs::read_to_string(game.join("turns/1/record.toml")).unwrap();
    assert!(
        record.contains(&format!("[password_hashes]\nfrance = \"{old_hash}\"")),
        "{record}"
    );
    // The referee gives France a new password (grande-armee-1812): turn 1 is audited with the hash
    // that checked its file.
    let new_hash = "$argon2id$v=19$m=8,t=1,p=1$g8HIpR80plF7i2HdkBpGxA$ysjBFa2m+hrlbAuOthBC7USVpJ4d6yGrI0Ucba/9ZpI";
    support::edit(&game.join("game.toml"), &old_hash, new_hash);
    audit_ok(&game);
    // Turn 2 reads the new one.
    let orders = write(
        game.parent().unwrap(),
        "france-2.txt",
        header("france", FRANCE_PW, 2),
    );
    let a = pbem()
        .arg("check")
        .arg(&game)
        .arg(&orders)
        .assert()
        .failure();
    assert!(stdout(&a).contains("wrong password") || stderr(&a).contains("wrong password"));
}

#[test]
fn a_power_renamed_and_recoloured_after_a_turn_is_so_from_the_next_turn_and_audit_stays_green() {
    let (_tmp, game) = support::game();
    at("2026-12-06T19:30:00Z", &["turn", "--no-send"], &game).success();
    support::edit(
        &game.join("game.toml"),
        "name = \"France\"\ncolour = \"#1f4e9c\"",
        "name = \"French Empire\"\ncolour = \"#123456\"",
    );
    // And the referee's settings no turn's reports may depend on: late orders now held for the
    // next turn, reminders, the least notice, when sealed rolls are unsealed.
    support::edit(
        &game.join("game.toml"),
        "late_orders = \"reject\"",
        "late_orders = \"hold\"\nleast_notice_hours = 12\nremind_hours_before = 6",
    );
    support::add_to_config(&game, "[dice]\nunseal_after = 2\n");
    audit_ok(&game);
    at("2026-12-13T19:30:00Z", &["turn", "--no-send"], &game).success();
    let report = |turn: u32, ext: &str| {
        fs::read_to_string(game.join(format!("turns/{turn}/reports/france.{ext}"))).unwrap()
    };
    assert!(report(2, "txt").contains("French Empire"));
    assert!(!report(1, "txt").contains("French Empire"));
    assert!(report(2, "svg").contains("#123456"));
    assert!(!report(1, "svg").contains("#123456"));
    audit_ok(&game);
}

/// EiA 19.2.1, 19.2.2: a drop and a replace undone by a rollback. The player who left hears that he
/// plays the power again, the new player whose welcome went hears that he does not take it over, the
/// others that the new player's notice is void; what `drop` prints names the folder the referee gave,
/// and the report of the turn the power was dropped in says the roll for its controller follows.
#[test]
fn eia_19_2_1_a_rollback_past_a_drop_and_a_replace_tells_each_player_who_plays_the_power() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("referee-folder");
    pbem::bundled::write_scenario("ulm-1805", &game).unwrap();
    let sent = tmp.path().join("sent");
    let send = |now: &str| {
        pbem()
            .args(["send", "--folder"])
            .arg(&sent)
            .arg(&game)
            .env("PBEM_NOW", now)
            .assert()
            .success();
    };
    at(
        "2026-12-06T19:30:00Z",
        &["turn", "--early", "--no-send"],
        &game,
    )
    .success();
    let drop = stdout(&at("2026-12-07T10:00:00Z", &["drop", "britain"], &game).success());
    assert!(
        drop.contains("referee-folder/mail/outbox/t0002-farewell-britain.eml"),
        "{drop}"
    );
    at(
        "2026-12-07T10:01:00Z",
        &["replace", "britain", "--email", "pitt@example.org"],
        &game,
    )
    .success();
    let status = stdout(&at("2026-12-07T10:02:00Z", &["status"], &game).success());
    assert!(
        status_line(&status, "britain").contains("dropped"),
        "{status}"
    );
    assert!(
        status.contains("this turn, then until turn 5 by the power the roll"),
        "{status}"
    );
    send("2026-12-07T10:03:00Z");
    at(
        "2026-12-13T19:30:00Z",
        &["turn", "--early", "--no-send"],
        &game,
    )
    .success();
    let report = fs::read_to_string(game.join("turns/2/reports/france.txt")).unwrap();
    assert!(
        report.contains("its controller until turn 5 is rolled for below (EiA 14.3.1)"),
        "{report}"
    );
    assert!(
        !report.contains("the SOP this turn, until turn 5"),
        "{report}"
    );
    at(
        "2026-12-14T10:00:00Z",
        &["rollback", "--to-turn", "1", "--reason", "a wrong table"],
        &game,
    )
    .success();
    send("2026-12-14T10:01:00Z");
    let last = |address: &str, name: &str| {
        let n = delivered(&sent, address)
            .into_iter()
            .find(|n| n.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} to {address}"));
        body_of(&fs::read_to_string(sent.join(address).join(n)).unwrap())
    };
    let his = last("britain@example.org", "t0001-notice-britain-reopened");
    assert!(
        his.contains(
            "You play Great Britain again: the drop of turn 2 and the replace of turn 2 are undone"
        ),
        "{his}"
    );
    let france = last("france@example.org", "t0001-notice-france-reopened");
    assert!(
        france.contains("and the notice of a new player for Great Britain"),
        "{france}"
    );
    assert!(!france.contains("You play"), "{france}");
    let pitt = last("pitt@example.org", "t0001-farewell-britain-undone");
    assert!(
        pitt.contains("You do not take Great Britain over: the welcome you had is void"),
        "{pitt}"
    );
}

/// A `pbem turn` killed after it marked the last message of the turn as going, before it recorded it
/// delivered: the rerun finishes it (the folder transport looks whether it arrived) before it looks
/// at the next turn, rather than calling turn 2 "not due" with that mail possibly undelivered.
#[test]
fn a_turn_killed_while_its_last_message_went_is_finished_by_running_it_again() {
    let (tmp, game) = support::game();
    let sent = tmp.path().join("sent");
    let turn = |now: &str, crash: Option<&str>| turn_into(&sent, &game, now, crash);
    let killed = turn(
        "2026-12-06T19:30:00Z",
        Some("t0002-announcement-britain.toml#2"),
    );
    assert!(!killed.status.success());
    let ledger = game.join("mail/sent/t0002-announcement-britain.toml");
    assert!(fs::read_to_string(&ledger).unwrap().contains("\"sending\""));
    let again = turn("2026-12-07T10:00:00Z", None);
    let out = String::from_utf8_lossy(&again.stdout);
    assert!(
        again.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(out.contains("The mail left in the outbox is sent"), "{out}");
    assert!(fs::read_to_string(&ledger)
        .unwrap()
        .contains("\"delivered\""));
    assert_eq!(
        delivered(&sent, "britain@example.org")
            .iter()
            .filter(|n| n.starts_with("t0002-announcement"))
            .count(),
        1
    );
}

/// `pbem turn --mailbox` before the deadline with orders still missing: the mail it read is filed,
/// printed and answered, and it says the turn waits, rather than "Nothing was changed" (exit 1) with
/// the answers left in the outbox.
#[test]
fn a_turn_run_before_the_deadline_files_and_answers_the_mail_it_read() {
    let (tmp, game) = support::game();
    add_to_config(
        &game,
        "[mail]\ntransport = \"folder\"\nfolder = \"outgoing\"\n",
    );
    let orders = mail(
        tmp.path(),
        "f1.eml",
        "france@example.org",
        "Sat, 5 Dec 2026 18:00:00 +0100",
        &header("france", FRANCE_PW, 1),
    );
    let a = pbem()
        .arg("turn")
        .arg(&game)
        .arg("--mailbox")
        .arg(&orders)
        .env("PBEM_NOW", "2026-12-05T17:10:00Z")
        .assert()
        .success();
    let out = stdout(&a);
    assert!(out.contains("1 new: 1 accepted"), "{out}");
    assert!(out.contains("The new mail is filed and answered."), "{out}");
    assert!(
        out.contains("orders are still missing from austria"),
        "{out}"
    );
    assert!(
        delivered(&game.join("outgoing"), "france@example.org")
            .iter()
            .any(|n| n.starts_with("t0001-ack-france-")),
        "{out}"
    );
    assert!(!game.join("turns/1/record.toml").exists());
}

/// EiA 19.2.1: a late submission of the player who then left cannot be made to stand, neither by
/// `accept-late` (refused, nothing changed) nor by an extension that covers its arrival.
#[test]
fn eia_19_2_1_a_departed_player_s_late_orders_stand_neither_by_accept_late_nor_by_extend() {
    let (tmp, game) = support::game();
    let late = mail(
        tmp.path(),
        "late.eml",
        "britain@example.org",
        "Sun, 6 Dec 2026 20:10:00 +0100",
        &header("britain", BRITAIN_PW, 1),
    );
    ingest_at("2026-12-06T19:12:00Z", &game, &late).success();
    at(
        "2026-12-06T19:13:00Z",
        &["drop", "britain", "--to", "russia"],
        &game,
    )
    .success();
    let a = at(
        "2026-12-06T19:14:00Z",
        &["accept-late", "britain", "--reason", "a train strike"],
        &game,
    )
    .failure();
    assert!(
        stderr(&a).contains("came from the player who left it"),
        "{}",
        stderr(&a)
    );
    let a = at(
        "2026-12-06T19:14:00Z",
        &[
            "accept-late",
            "britain",
            "--reason",
            "a train strike",
            "--message",
            "late.eml@example.org",
        ],
        &game,
    )
    .failure();
    assert!(stderr(&a).contains("who left britain"), "{}", stderr(&a));
    at("2026-12-06T19:15:00Z", &["extend", "--by", "1d"], &game).success();
    assert!(!game.join("orders/1/britain.txt").exists());
    assert!(!outbox(&game)
        .iter()
        .any(|(n, _)| n.starts_with("t0001-ack-britain-") && n.ends_with("-accepted.eml")));
}
