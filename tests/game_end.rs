//! The end of a game (`pbem end`): the turn waiting for orders is never played, every act that
//! would play or change it is refused, mail that comes is kept and answered that the game is over,
//! the sealed rolls go to every player; `pbem reopen` (or a rollback) reopens the game.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::{self, delivered, pbem};

/// Before turn 2's deadline (Sunday 2026-12-13 20:00 Vienna), after turn 1's.
const BEFORE_TURN_2: &str = "2026-12-10T12:00:00Z";

fn run(game: &Path, args: &[&str], now: &str) -> (i32, String, String) {
    let out = pbem()
        .env("PBEM_NOW", now)
        .args(&args[..1])
        .arg(game)
        .args(&args[1..])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh game of `scenario` (fresh secrets, with seals) with turn 1 resolved, then ended.
fn ended(scenario: &str) -> (tempfile::TempDir, PathBuf) {
    let (tmp, game) = resolved(scenario);
    let (code, out, err) = run(
        &game,
        &["end", "--reason", "the armistice"],
        "2026-12-01T12:00:00Z",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("The game is over, ended after turn 1."),
        "{out}"
    );
    (tmp, game)
}

/// A fresh game of `scenario` (fresh secrets, with seals) with turn 1 resolved.
fn resolved(scenario: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    let now = "2026-12-01T12:00:00Z";
    let new = pbem()
        .env("PBEM_NOW", now)
        .args(["new", "--from", scenario])
        .arg(&game)
        .output()
        .unwrap();
    assert!(new.status.success(), "{new:?}");
    let (code, _, err) = run(&game, &["resolve", "--early"], now);
    assert_eq!(code, 0, "{err}");
    (tmp, game)
}

/// The password `pbem new` gave `power`, read back from the welcome in the outbox.
fn password(game: &Path, power: &str) -> String {
    let welcome = support::outbox(game)
        .into_iter()
        .find(|(n, _)| n == &format!("t0001-welcome-{power}.eml"))
        .map(|(_, m)| support::body_of(&m))
        .unwrap();
    let line = welcome
        .lines()
        .find(|l| l.trim_start().starts_with("password "))
        .unwrap();
    line.trim().trim_start_matches("password ").to_string()
}

#[test]
fn pbem_end_refuses_every_act_that_would_play_or_change_the_turn_not_played() {
    let (_tmp, game) = ended("ulm-1805");
    let before = support::tree(&game.join("turns"));
    for act in [
        vec!["resolve", "--early"],
        vec!["extend", "--by", "2d"],
        vec!["drop", "britain"],
        vec!["replace", "britain", "--email", "new@example.org"],
        vec!["accept-late", "france", "--reason", "x"],
        vec!["rekey", "--reason", "x"],
        vec!["remind"],
        vec!["end", "--reason", "again"],
    ] {
        let (code, out, err) = run(&game, &act, BEFORE_TURN_2);
        assert_eq!(code, 1, "{act:?} ran after the end:\n{out}\n{err}");
        assert!(
            err.contains("the game is over") || err.contains("the game is already over"),
            "{act:?}: {err}"
        );
        assert!(err.contains("ended after turn 1"), "{act:?}: {err}");
        assert!(err.contains("Nothing was changed."), "{act:?}: {err}");
    }
    assert_eq!(support::tree(&game.join("turns")), before);
    let (code, out, _) = run(&game, &["status"], BEFORE_TURN_2);
    assert_eq!(code, 0);
    assert!(
        out.contains("The game is over: the referee ended it after turn 1 (the armistice)"),
        "{out}"
    );
    assert!(out.contains("pbem reopen"), "{out}");
}

#[test]
fn orders_mailed_after_the_end_are_kept_and_answered_that_the_game_is_over() {
    let (tmp, game) = ended("ulm-1805");
    let pw = password(&game, "france");
    let body = format!("game ulm-1805\npower france\npassword {pw}\nturn 2\nentropy late\n");
    let mail = support::write(
        tmp.path(),
        "m.eml",
        support::eml(
            "france@example.org",
            "Thu, 10 Dec 2026 12:00:00 +0000",
            "m1@example.org",
            &body,
        ),
    );
    let sent = tmp.path().join("sent");
    let folder = sent.to_str().unwrap();
    let mbox = mail.to_str().unwrap();
    let (code, out, err) = run(
        &game,
        &["turn", "--folder", folder, "--mailbox", mbox],
        BEFORE_TURN_2,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("The game is over"), "{out}");
    // Nothing resolved, the message kept.
    assert!(!game.join("turns/2/record.toml").exists());
    assert_eq!(fs::read_dir(game.join("mail/inbox")).unwrap().count(), 1);
    assert!(!game.join("orders/2/france.txt").exists());
    let (_, ack) = support::acks(&game).pop().unwrap();
    let text = support::body_of(&ack);
    assert!(text.contains("These orders do not stand."), "{text}");
    assert!(
        text.contains("the game is over: the referee ended it after turn 1 (the armistice)"),
        "{text}"
    );
    // No deadline nor commitment of a turn that will not be played.
    assert!(!text.contains("Deadline of turn 2"), "{text}");
    // The answer went.
    assert!(sent.join("france@example.org").read_dir().unwrap().count() > 0);
    // Unattended from cron: silent, no reminder.
    let (code, out, err) = run(
        &game,
        &["turn", "--unattended", "--folder", folder],
        "2026-12-13T12:00:00Z",
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert!(!support::outbox(&game)
        .iter()
        .any(|(n, _)| n.contains("-reminder-")));
}

#[test]
fn pbem_end_mails_every_player_the_sealed_rolls_and_verify_checks_them() {
    let (tmp, game) = ended("gitm-italy-1809");
    let unsealed = fs::read_to_string(game.join("unsealed/1.txt")).unwrap();
    assert!(unsealed.starts_with("pbem-sealed/v1"), "{unsealed}");
    let sent = tmp.path().join("sent");
    // Long after turn 2's deadline: its announcement was withdrawn, so nothing holds the mail.
    let (code, out, err) = run(
        &game,
        &["send", "--folder", sent.to_str().unwrap()],
        "2027-01-30T12:00:00Z",
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("t0002-announcement-"), "{out}");
    for address in [
        "eugene@example.org",
        "johann@example.org",
        "naples@example.org",
    ] {
        let files: Vec<PathBuf> = fs::read_dir(sent.join(address))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        let notice = files
            .iter()
            .find(|p| p.to_string_lossy().contains("notice") && p.to_string_lossy().contains("end"))
            .unwrap_or_else(|| panic!("no end notice to {address}: {files:?}"));
        let eml = fs::read(notice).unwrap();
        let m = pbem::mail::parse::parse(&eml).unwrap();
        let attached: Vec<String> = m
            .parts
            .iter()
            .filter_map(|p| match &p.content {
                pbem::mail::parse::Content::Text(t) if t.starts_with("pbem-sealed/v1") => {
                    Some(t.clone())
                }
                _ => None,
            })
            .collect();
        assert_eq!(attached, vec![unsealed.clone()], "{address}");
    }
    // Austria's player checks the sealed list against his report of turn 1.
    let report = fs::read_dir(sent.join("johann@example.org"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("t0001-report"))
        .unwrap();
    let list = support::write(tmp.path(), "unsealed.txt", &unsealed);
    let v = pbem()
        .arg("verify")
        .arg(&report)
        .arg("--sealed")
        .arg(&list)
        .output()
        .unwrap();
    assert!(v.status.success(), "{v:?}");
    let (code, out, _) = run(&game, &["audit"], "2027-01-30T12:00:00Z");
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_rollback_after_pbem_end_reopens_the_game() {
    let (_tmp, game) = ended("ulm-1805");
    let (code, out, err) = run(
        &game,
        &[
            "rollback",
            "--to-turn",
            "1",
            "--reason",
            "the peace fell through",
        ],
        BEFORE_TURN_2,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, _) = run(&game, &["status"], BEFORE_TURN_2);
    assert_eq!(code, 0);
    assert!(!out.contains("over"), "{out}");
    let (code, _, err) = run(&game, &["resolve", "--early"], BEFORE_TURN_2);
    assert_eq!(code, 0, "{err}");
    // The end notices, unsent, went with the turns undone.
    assert!(!support::outbox(&game)
        .iter()
        .any(|(n, _)| n.ends_with("-end.eml")));
    let (code, out, _) = run(&game, &["audit"], BEFORE_TURN_2);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_game_ended_before_its_first_turn_withdraws_the_welcomes_until_it_is_reopened() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    let now = "2026-12-01T12:00:00Z";
    let new = pbem()
        .env("PBEM_NOW", now)
        .args(["new", "--from", "pog-1914"])
        .arg(&game)
        .output()
        .unwrap();
    assert!(new.status.success());
    let (code, out, err) = run(&game, &["end", "--reason", "too few players"], now);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("before its first turn was played"), "{out}");
    let sent = tmp.path().join("sent");
    let folder = sent.to_str().unwrap();
    let (code, out, err) = run(&game, &["send", "--folder", folder], now);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("welcome"), "the passwords went:\n{out}");
    assert!(out.contains("t0001-notice-central-end.eml"), "{out}");
    let (code, _, err) = run(&game, &["resolve", "--early"], now);
    assert_eq!(code, 1);
    assert!(err.contains("`pbem reopen"), "{err}");
    // Reopened: the welcomes go after all, with a notice that the game goes on after the one
    // that said it was over.
    let (code, out, err) = run(&game, &["reopen", "--reason", "a player came"], now);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = run(&game, &["send", "--folder", folder], now);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("t0001-welcome-central.eml"), "{out}");
    assert!(out.contains("t0001-notice-central-reopen-1.eml"), "{out}");
    let (code, _, err) = run(&game, &["resolve", "--early"], now);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn pbem_reopen_undoes_an_end_no_player_heard_of_without_a_word() {
    // GITM: the end publishes turn 1's sealed rolls; reopened before anything went, they are
    // sealed again and the players never learn of the end.
    let (tmp, game) = ended("gitm-italy-1809");
    assert!(game.join("unsealed/1.txt").is_file());
    let (code, out, err) = run(
        &game,
        &["reopen", "--reason", "ended by mistake"],
        BEFORE_TURN_2,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("No player heard of the end"), "{out}");
    assert!(
        !game.join("unsealed/1.txt").exists(),
        "the sealed list stays published"
    );
    let sent = tmp.path().join("sent");
    let (code, out, err) = run(
        &game,
        &["send", "--folder", sent.to_str().unwrap()],
        BEFORE_TURN_2,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let got = delivered(&sent, "johann@example.org");
    assert!(
        got.contains(&"t0002-announcement-austria.eml".to_string()),
        "{got:?}"
    );
    assert!(!got.iter().any(|n| n.contains("-notice-")), "{got:?}");
    // The game goes on as before the end: its turn resolves under the commitment announced.
    let (code, out, _) = run(&game, &["status"], BEFORE_TURN_2);
    assert_eq!(code, 0);
    assert!(!out.contains("over"), "{out}");
    let (code, _, err) = run(&game, &["resolve", "--early"], BEFORE_TURN_2);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = run(&game, &["audit"], BEFORE_TURN_2);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn pbem_reopen_after_the_end_went_tells_every_player_the_game_goes_on() {
    let (tmp, game) = ended("ulm-1805");
    let sent = tmp.path().join("sent");
    let folder = sent.to_str().unwrap();
    // The end went; France mailed orders after it (answered that the game is over).
    let pw = password(&game, "france");
    let body = format!("game ulm-1805\npower france\npassword {pw}\nturn 2\nentropy late\n");
    let mail = support::write(
        tmp.path(),
        "m.eml",
        support::eml(
            "france@example.org",
            "Thu, 10 Dec 2026 12:00:00 +0000",
            "m1@example.org",
            &body,
        ),
    );
    let (code, out, err) = run(
        &game,
        &[
            "turn",
            "--folder",
            folder,
            "--mailbox",
            mail.to_str().unwrap(),
        ],
        BEFORE_TURN_2,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(delivered(&sent, "france@example.org")
        .iter()
        .any(|n| n.ends_with("-end.eml")));
    // Reopened after turn 2's deadline had passed: a deadline with the least notice.
    let late = "2026-12-20T12:00:00Z";
    let (code, out, err) = run(
        &game,
        &["reopen", "--reason", "the peace did not hold"],
        late,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("(moved: "), "{out}");
    let (code, out, _) = run(&game, &["status"], late);
    assert_eq!(code, 0);
    assert!(!out.contains("The game is over"), "{out}");
    let deadline = support::load(&game).config.deadline_of(2).unwrap();
    assert!(
        deadline.to_utc() > late.parse::<chrono::DateTime<chrono::Utc>>().unwrap(),
        "{deadline}"
    );
    let (code, out, err) = run(&game, &["send", "--folder", folder], late);
    assert_eq!(code, 0, "{out}\n{err}");
    let notice = |power: &str| {
        support::outbox(&game)
            .into_iter()
            .find(|(n, _)| n == &format!("t0002-notice-{power}-reopen-1.eml"))
            .map(|(_, m)| support::body_of(&m))
            .unwrap_or_else(|| panic!("no notice for {power}"))
    };
    let france = notice("france");
    assert!(
        france.contains("the game goes on (the peace did not hold)"),
        "{france}"
    );
    assert!(
        france.contains("What you sent while the game was over (2026-12-10"),
        "{france}"
    );
    assert!(france.contains("send your orders again"), "{france}");
    let austria = notice("austria");
    assert!(!austria.contains("while the game was over"), "{austria}");
    assert!(
        austria.contains("No orders of yours for turn 2 are on file"),
        "{austria}"
    );
    // Orders sent now stand, and the turn resolves.
    let mail = support::write(
        tmp.path(),
        "m2.eml",
        support::eml(
            "france@example.org",
            "Sun, 20 Dec 2026 13:00:00 +0000",
            "m2@example.org",
            &body,
        ),
    );
    let (code, out, err) = run(&game, &["ingest", mail.to_str().unwrap()], late);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(game.join("orders/2/france.txt").is_file());
    let (code, _, err) = run(&game, &["resolve", "--early"], late);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = run(&game, &["audit"], late);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn pbem_reopen_refuses_a_game_not_over_and_a_second_end_has_notices_of_its_own() {
    let (tmp, game) = ended("ulm-1805");
    let sent = tmp.path().join("sent");
    let folder = sent.to_str().unwrap();
    let (code, _, err) = run(&game, &["send", "--folder", folder], BEFORE_TURN_2);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&game, &["reopen", "--reason", "x"], BEFORE_TURN_2);
    assert_eq!(code, 0, "{err}");
    let before = support::tree(&game.join("turns"));
    let (code, out, err) = run(&game, &["reopen", "--reason", "again"], BEFORE_TURN_2);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.contains("the game is not over"), "{err}");
    assert_eq!(support::tree(&game.join("turns")), before);
    // Ended again: a notice of its own, which goes although the first one went.
    let (code, _, err) = run(&game, &["end", "--reason", "the peace"], BEFORE_TURN_2);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&game, &["send", "--folder", folder], BEFORE_TURN_2);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(delivered(&sent, "france@example.org")
        .contains(&"t0002-notice-france-end-2.eml".to_string()));
}

#[test]
fn a_reopen_killed_midway_is_finished_by_running_it_again() {
    // Killed before its act, and before its last notice: each time the game stays over, every
    // other act refuses until the reopen is finished, and the rerun writes what one run writes.
    for at in ["acts.toml", "t0002-notice-russia-reopen-1.eml"] {
        let (tmp, game) = ended("ulm-1805");
        let sent = tmp.path().join("sent");
        let (code, _, err) = run(
            &game,
            &["send", "--folder", sent.to_str().unwrap()],
            BEFORE_TURN_2,
        );
        assert_eq!(code, 0, "{err}");
        let late = "2026-12-20T12:00:00Z";
        let killed = pbem()
            .env("PBEM_NOW", late)
            .env("PBEM_CRASH_BEFORE", at)
            .args(["reopen"])
            .arg(&game)
            .args(["--reason", "the war resumes"])
            .output()
            .unwrap();
        assert!(!killed.status.success(), "{at}: not killed");
        let (code, _, err) = run(&game, &["resolve", "--early"], late);
        assert_eq!(code, 1, "{at}");
        assert!(
            err.contains("`pbem reopen` was killed midway"),
            "{at}: {err}"
        );
        let (code, out, err) = run(&game, &["reopen", "--reason", "the war resumes"], late);
        assert_eq!(code, 0, "{at}: {out}\n{err}");
        assert!(!game.join("turns/2/reopen.toml").exists());
        let notices: Vec<String> = support::outbox(&game)
            .into_iter()
            .filter(|(n, _)| n.contains("-reopen-1"))
            .map(|(n, _)| n)
            .collect();
        assert_eq!(notices.len(), 4, "{at}: {notices:?}");
        let acts = fs::read_to_string(game.join("turns/2/acts.toml")).unwrap();
        assert_eq!(acts.matches("kind = \"reopen\"").count(), 1, "{at}: {acts}");
        let (code, _, err) = run(&game, &["resolve", "--early"], late);
        assert_eq!(code, 0, "{at}: {err}");
    }
}

#[test]
fn an_end_killed_midway_is_finished_by_running_it_again_and_a_reopen_seals_again_what_it_published()
{
    // GITM: killed after it published turn 1's sealed list and before its act, the end is
    // finished by a rerun as it was begun: its act names the list it published, so that a reopen
    // before any player heard of the end seals it again.
    let (_tmp, game) = resolved("gitm-italy-1809");
    let now = "2026-12-01T12:00:00Z";
    let killed = pbem()
        .env("PBEM_NOW", now)
        .env("PBEM_CRASH_BEFORE", "acts.toml")
        .args(["end"])
        .arg(&game)
        .args(["--reason", "the armistice"])
        .output()
        .unwrap();
    assert!(!killed.status.success(), "not killed");
    assert!(game.join("unsealed/1.txt").is_file());
    let (code, _, err) = run(&game, &["resolve", "--early"], now);
    assert_eq!(code, 1);
    assert!(err.contains("`pbem end` was killed midway"), "{err}");
    let (code, out, err) = run(&game, &["end", "--reason", "another reason"], now);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!game.join("turns/2/end.toml").exists());
    let acts = fs::read_to_string(game.join("turns/2/acts.toml")).unwrap();
    assert_eq!(acts.matches("kind = \"end\"").count(), 1, "{acts}");
    assert!(
        acts.contains("the armistice"),
        "the reason it was begun with: {acts}"
    );
    let notices: Vec<String> = support::outbox(&game)
        .into_iter()
        .filter(|(n, _)| n.contains("-notice-") && n.ends_with("-end.eml"))
        .map(|(n, _)| n)
        .collect();
    assert_eq!(notices.len(), 3, "one a power: {notices:?}");
    let (code, out, err) = run(&game, &["reopen", "--reason", "ended by mistake"], now);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        !game.join("unsealed/1.txt").exists(),
        "the list the killed end published stays published"
    );
}
