//! pbem-dice/v2 through the binary (docs/DICE.md): `pbem close` mails the closing list
//! before anything is resolved, the seed is made of exactly that list, and each player proves from his
//! own mail that the orders and entropy that stood are the last he sent.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};

use predicates::prelude::*;
use support::*;

/// The demo game at turn 1, its orders filed, playing pbem-dice/v2, closed.
pub(crate) fn closed_demo() -> (tempfile::TempDir, PathBuf) {
    let (t, game) = unresolved_demo();
    set_dice(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    pbem()
        .arg("close")
        .arg(&game)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Turn 1 closed: 4 power(s) with orders in",
        ));
    (t, game)
}

fn mail(game: &Path, name: &str) -> PathBuf {
    game.join("mail/outbox").join(name)
}

fn verify_france(game: &Path, orders: &Path) -> assert_cmd::assert::Assert {
    let commitment = fs::read_to_string(game.join("turns/1/commitment")).unwrap();
    pbem()
        .arg("verify")
        .arg(mail(game, "t0001-report-france.eml"))
        .args(["--commitment", commitment.trim()])
        .arg("--close")
        .arg(mail(game, "t0001-closing-france.eml"))
        .arg("--orders")
        .arg(orders)
        .assert()
}

#[test]
fn the_closing_mail_goes_to_every_player_before_the_turn_is_resolved() {
    let (_t, game) = closed_demo();
    assert!(!game.join("turns/1/record.toml").exists());
    for p in ["austria", "britain", "france", "russia"] {
        let text = fs::read_to_string(mail(&game, &format!("t0001-closing-{p}.eml"))).unwrap();
        assert!(
            text.contains("closing list of game ulm-1805 turn 1"),
            "{text}"
        );
        assert!(text.contains("power britain: orders "), "{text}");
    }
}

#[test]
fn a_v2_report_verifies_against_the_closing_mail_and_the_orders_sent() {
    let (t, game) = closed_demo();
    pbem().arg("resolve").arg(&game).assert().success();
    let sent = write(
        t.path(),
        "france.txt",
        fs::read(game.join("orders/1/france.txt")).unwrap(),
    );
    verify_france(&game, &sent)
        .success()
        .stdout(predicate::str::contains(
            "ok: the closing list is the one mailed at the close",
        ))
        .stdout(predicate::str::contains(
            "ok: the orders that stood for france are the ones you give",
        ))
        .stdout(predicate::str::contains("the report checks out"));
    pbem().arg("audit").arg(&game).assert().success();
}

#[test]
fn after_the_close_no_entropy_can_be_added() {
    let (_t, game) = closed_demo();
    edit(
        &game.join("orders/1/britain.txt"),
        "turn 1\n",
        "turn 1\nentropy grind 223\n",
    );
    pbem()
        .arg("resolve")
        .arg(&game)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the orders of turn 1 differ from its closing list",
        ))
        .stderr(predicate::str::contains("(britain)"));
}

/// Grinding around the close: the referee adds entropy for Britain, deletes the closing list and
/// closes again. The players hold the first closing mail: verify sees the list changed.
#[test]
fn a_closing_list_made_again_is_caught_by_the_first_closing_mail() {
    let (t, game) = closed_demo();
    let first = write(
        t.path(),
        "closing.eml",
        fs::read(mail(&game, "t0001-closing-france.eml")).unwrap(),
    );
    edit(
        &game.join("orders/1/britain.txt"),
        "turn 1\n",
        "turn 1\nentropy grind 223\n",
    );
    fs::remove_file(game.join("turns/1/close.toml")).unwrap();
    pbem().arg("close").arg(&game).assert().success();
    pbem().arg("resolve").arg(&game).assert().success();
    pbem()
        .arg("verify")
        .arg(mail(&game, "t0001-report-france.eml"))
        .arg("--close")
        .arg(&first)
        .assert()
        .code(4)
        .stdout(predicate::str::contains(
            "MISMATCH: the closing list of the report is not the one mailed at the close",
        ));
}

/// Receipts: France sent two submissions, the referee filed the earlier. France's verify, given the
/// last orders it sent, sees that other orders stood, even with the same entropy line.
#[test]
fn orders_other_than_the_last_sent_are_caught() {
    let (t, game) = closed_demo();
    pbem().arg("resolve").arg(&game).assert().success();
    let filed = fs::read_to_string(game.join("orders/1/france.txt")).unwrap();
    let last = format!("{filed}standing honours grant\n");
    let sent = write(
        t.path(),
        "last.eml",
        eml(
            "france@example.org",
            "Sun, 06 Dec 2026 18:00:00 +0000",
            "last@x",
            &last,
        ),
    );
    verify_france(&game, &sent)
        .code(4)
        .stdout(predicate::str::contains(
            "MISMATCH: the orders that stood for france (SHA-256",
        ));
}

#[test]
fn closing_a_v1_game_is_refused() {
    let (_t, game) = unresolved_demo();
    pbem()
        .arg("close")
        .arg(&game)
        .assert()
        .failure()
        .stderr(predicate::str::contains("plays pbem-dice/v1"));
}

/// Receipts through the mail: France mails two submissions before the deadline; pbem files the last,
/// and France's verify, given that last mail as it sent it, proves its orders stood; given the first,
/// it says other orders stood.
#[test]
fn the_last_orders_mailed_are_the_ones_that_stood() {
    let (t, game) = game();
    set_dice(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    let first = write(
        t.path(),
        "first.eml",
        eml(
            "france@example.org",
            "Sat, 5 Dec 2026 18:00:00 +0100",
            "fr-1@example.org",
            &format!("{}entropy first\n", header("france", FRANCE_PW, 1)),
        ),
    );
    let last = write(
        t.path(),
        "last.eml",
        eml(
            "france@example.org",
            "Sat, 5 Dec 2026 19:00:00 +0100",
            "fr-2@example.org",
            &format!(
                "{}entropy second thoughts\n",
                header("france", FRANCE_PW, 1)
            ),
        ),
    );
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&first)
        .arg(&last)
        .assert()
        .success();
    pbem().arg("resolve").arg(&game).assert().success();
    verify_france(&game, &last)
        .success()
        .stdout(predicate::str::contains(
            "ok: the orders that stood for france are the ones you give",
        ))
        .stdout(predicate::str::contains(
            "ok: the entropy listed for france is the one of your orders",
        ));
    verify_france(&game, &first)
        .code(4)
        .stdout(predicate::str::contains(
            "MISMATCH: the orders that stood for france",
        ));
    // The acknowledgements are receipts: the last one's orders and entropy stood, the first one's not.
    // Each as France received it, saved to a file.
    let acks: Vec<PathBuf> = support::acks(&game)
        .into_iter()
        .filter(|(n, _)| n.contains("-ack-france-"))
        .map(|(n, m)| write(t.path(), &n, m))
        .collect();
    assert_eq!(acks.len(), 2);
    let receipt = |ack: &Path| {
        pbem()
            .arg("verify")
            .arg(mail(&game, "t0001-report-france.eml"))
            .arg("--ack")
            .arg(ack)
            .assert()
    };
    let (last_ack, first_ack): (Vec<&PathBuf>, Vec<&PathBuf>) = acks.iter().partition(|p| {
        fs::read_to_string(p)
            .unwrap()
            .contains("These orders now stand")
    });
    // Their sequence numbers: the first accepted, then the second.
    let seq = |p: &Path| {
        let raw = fs::read(p).unwrap();
        let text: String = pbem::audit::forms::texts(&raw)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        assert!(text.contains("power france seq "), "{text}");
        text.contains("power france seq 2 ")
    };
    assert!(seq(last_ack[0]) && !seq(first_ack[0]));
    receipt(last_ack[0])
        .success()
        .stdout(predicate::str::contains(
            "ok: the commitment is the one the acknowledgement",
        ))
        .stdout(predicate::str::contains(
            "ok: the orders that stood for france are the ones you give",
        ))
        .stdout(predicate::str::contains("the report checks out"));
    receipt(first_ack[0])
        .code(4)
        .stdout(predicate::str::contains(
            "MISMATCH: the orders that stood for france",
        ))
        .stdout(predicate::str::contains(
            "MISMATCH: the entropy listed for france is not the one",
        ));
}

/// Round 657413 of drand quicknet, published at 2023-09-15 11:00:03 UTC (a real round).
pub(crate) const ROUND: &str = "657413";
pub(crate) const SIGNATURE: &str = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b";

/// The demo at turn 1 playing pbem-dice/v2 with the drand quicknet beacon, its deadline 2023-09-15
/// 11:00 UTC, so that its round is 657413.
pub(crate) fn beacon_demo() -> (tempfile::TempDir, PathBuf) {
    let (t, game) = unresolved_demo();
    set_deadline_key(&game, "time_zone", "\"UTC\"");
    set_deadline_key(&game, "first", "\"2023-09-15T11:00\"");
    set_dice(
        &game,
        "\n[dice]\nscheme = \"pbem-dice/v2\"\nbeacon = \"drand-quicknet\"\n",
    );
    (t, game)
}

#[test]
fn a_beacon_game_names_its_round_and_will_not_resolve_without_it() {
    let (_t, game) = beacon_demo();
    pbem()
        .arg("resolve")
        .arg(&game)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "give drand quicknet round 657413 (the first after the deadline of turn 1)",
        ));
    // The closing mail went out before: the close comes first.
    assert!(mail(&game, "t0001-closing-france.eml").is_file());
}

#[test]
fn a_wrong_round_or_a_forged_signature_is_refused() {
    let (_t, game) = beacon_demo();
    pbem()
        .arg("resolve")
        .arg(&game)
        .arg("--beacon")
        .arg("123:b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92")
        .assert()
        .failure()
        .stderr(predicate::str::contains("turn 1 draws drand quicknet round 657413"));
    let forged = format!("{ROUND}:{}", SIGNATURE.replace("b7137", "b7138"));
    pbem()
        .arg("resolve")
        .arg(&game)
        .arg("--beacon")
        .arg(forged)
        .assert()
        .failure();
}

#[test]
fn the_beacon_joins_the_seed_and_every_player_checks_it_offline() {
    let (_t, game) = beacon_demo();
    // Resolved an hour after turn 1's deadline: turn 2 opens with its slot, a week later.
    pbem()
        .arg("resolve")
        .arg(&game)
        .arg("--beacon")
        .arg(format!("{ROUND}:{SIGNATURE}"))
        .env("PBEM_NOW", "2023-09-15T12:00:00Z")
        .assert()
        .success();
    let report = fs::read_to_string(game.join("turns/1/reports/france.txt")).unwrap();
    assert!(
        report.contains(&format!(
            "beacon: drand-quicknet round {ROUND} signature {SIGNATURE}"
        )),
        "{report}"
    );
    pbem()
        .arg("verify")
        .arg(mail(&game, "t0001-report-france.eml"))
        .arg("--close")
        .arg(mail(&game, "t0001-closing-france.eml"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "ok: the closing list is the one mailed at the close",
        ));
    pbem().arg("audit").arg(&game).assert().success();
    // The announcement of turn 2 names its round before its deadline (a week later).
    let next = fs::read_to_string(mail(&game, "t0002-announcement-france.eml")).unwrap();
    assert!(
        next.contains("drand quicknet beacon: round 859013"),
        "{next}"
    );
}

/// `pbem turn` on a v2 game closes the orders and delivers the closing list before it resolves: the
/// turn of a beacon game stops for want of its round, and the players already hold the closing mail.
#[test]
fn pbem_turn_delivers_the_closing_list_before_it_resolves() {
    let (t, game) = beacon_demo();
    let delivered = t.path().join("delivered");
    fs::create_dir_all(&delivered).unwrap();
    pbem()
        .arg("turn")
        .arg(&game)
        .arg("--folder")
        .arg(&delivered)
        .assert()
        .failure()
        .stderr(predicate::str::contains("give drand quicknet round 657413"));
    assert!(!game.join("turns/1/record.toml").exists());
    let mails: Vec<String> = tree(&delivered)
        .into_iter()
        .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned())
        .collect();
    let closing = mails
        .iter()
        .filter(|m| m.contains("closing list of game ulm-1805 turn 1"))
        .count();
    assert_eq!(closing, 4, "{} mails delivered", mails.len());
}

/// The scheme is fixed with the commitment: after the close, game.toml set back to pbem-dice/v1, or
/// given a beacon, is refused by `resolve`; the turn resolves under the scheme it was committed under.
#[test]
fn the_scheme_cannot_change_after_the_commitment() {
    let (_t, game) = closed_demo();
    let toml = fs::read_to_string(game.join("game.toml")).unwrap();
    for changed in [
        toml.replace("scheme = \"pbem-dice/v2\"", "scheme = \"pbem-dice/v1\""),
        toml.replace(
            "scheme = \"pbem-dice/v2\"",
            "scheme = \"pbem-dice/v2\"\nbeacon = \"drand-quicknet\"",
        ),
    ] {
        assert_ne!(changed, toml);
        fs::write(game.join("game.toml"), &changed).unwrap();
        pbem()
            .arg("resolve")
            .arg(&game)
            .assert()
            .failure()
            .stderr(predicate::str::contains(
                "was made under pbem-dice/v2 without a beacon",
            ))
            .stderr(predicate::str::contains(
                "the dice scheme was changed after the commitment",
            ));
        assert!(!game.join("turns/1/record.toml").exists());
    }
    fs::write(game.join("game.toml"), &toml).unwrap();
    pbem().arg("resolve").arg(&game).assert().success();
}

/// `audit` names a scheme changed after the commitment of a resolved turn.
#[test]
fn audit_names_a_scheme_changed_after_the_commitment() {
    let (_t, game) = closed_demo();
    pbem().arg("resolve").arg(&game).assert().success();
    pbem().arg("audit").arg(&game).assert().success();
    edit(
        &game.join("game.toml"),
        "scheme = \"pbem-dice/v2\"",
        "scheme = \"pbem-dice/v1\"",
    );
    pbem()
        .arg("audit")
        .arg(&game)
        .assert()
        .failure()
        .stdout(predicate::str::contains(
            "turn 1's commitment",
        ))
        .stdout(predicate::str::contains(
            "was made under pbem-dice/v2 without a beacon (ulm-1805/turns/1/scheme.toml), but game.toml's [dice] now says pbem-dice/v1 without a beacon",
        ));
}

/// `pbem close` before the deadline refuses unless `--early`: closing takes no more orders.
#[test]
fn closing_before_the_deadline_needs_early() {
    let (_t, game) = unresolved_demo();
    set_deadline_key(&game, "time_zone", "\"UTC\"");
    set_deadline_key(&game, "first", "\"2023-09-15T11:00\"");
    set_dice(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    pbem()
        .env("PBEM_NOW", "2023-09-06T11:00:00Z")
        .arg("close")
        .arg(&game)
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "turn 1 is due Friday 2023-09-15 11:00 UTC",
        ))
        .stderr(predicate::str::contains("close now with --early"));
    assert!(!game.join("turns/1/close.toml").exists());
    pbem()
        .env("PBEM_NOW", "2023-09-06T11:00:00Z")
        .args(["close", "--early"])
        .arg(&game)
        .assert()
        .success();
    assert!(game.join("turns/1/close.toml").exists());
}

/// A submission ingested after the close is answered "the turn is closed" and never filed for the
/// turn: the orders that stand are the closing list's.
#[test]
fn a_submission_after_the_close_is_answered_the_turn_is_closed() {
    let (t, game) = game();
    set_dice(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    pbem().arg("close").arg(&game).assert().success();
    let close = fs::read(game.join("turns/1/close.toml")).unwrap();
    let after = write(
        t.path(),
        "after.eml",
        eml(
            "france@example.org",
            "Sat, 5 Dec 2026 18:00:00 +0100",
            "fr-after@example.org",
            &format!("{}entropy too late\n", header("france", FRANCE_PW, 1)),
        ),
    );
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&after)
        .assert()
        .success();
    assert!(!game.join("orders/1/france.txt").exists());
    let acks = support::acks(&game);
    let (_, ack) = acks
        .iter()
        .find(|(n, _)| n.contains("-ack-france-"))
        .expect("France is answered");
    assert!(ack.contains("the turn is closed"), "{ack}");
    assert!(!ack.contains("These orders now stand"), "{ack}");
    assert_eq!(fs::read(game.join("turns/1/close.toml")).unwrap(), close);
}

/// After a rekey or a rollback, a player whose orders still stand gets their receipt under the new
/// commitment (issue 31): his acknowledgement names the old commitment, so `verify --ack` on it says
/// the secret changed after it was announced; the renewed receipt anchors the report resolved under
/// the new one, with the orders and entropy that stood.
#[test]
fn a_rekey_or_a_rollback_renews_the_receipt_of_the_orders_that_stand() {
    for act in ["rekey", "rollback"] {
        let (t, game) = game();
        set_dice(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
        let sent = write(
            t.path(),
            "sent.eml",
            eml(
                "france@example.org",
                "Sat, 5 Dec 2026 18:00:00 +0100",
                "fr-1@example.org",
                &format!("{}entropy my own\n", header("france", FRANCE_PW, 1)),
            ),
        );
        pbem()
            .arg("ingest")
            .arg(&game)
            .arg(&sent)
            .assert()
            .success();
        let first_acks = support::acks(&game);
        if act == "rekey" {
            pbem()
                .args(["rekey", "--reason", "the secret leaked"])
                .arg(&game)
                .assert()
                .success();
        } else {
            pbem().arg("resolve").arg(&game).assert().success();
            pbem()
                .args(["rollback", "--to-turn", "1", "--reason", "a wrong table"])
                .arg(&game)
                .assert()
                .success();
        }
        pbem()
            .arg("resolve")
            .arg(&game)
            .arg("--early")
            .assert()
            .success();
        let acks = support::acks(&game);
        let renewed: Vec<&(String, String)> = acks
            .iter()
            .filter(|a| !first_acks.contains(a) && a.0.contains("-ack-france-"))
            .collect();
        assert_eq!(
            renewed.len(),
            1,
            "{act}: {:?}",
            acks.iter().map(|a| &a.0).collect::<Vec<_>>()
        );
        assert!(
            renewed[0]
                .1
                .contains("still stand under a new dice commitment"),
            "{}",
            renewed[0].1
        );
        let old = first_acks
            .iter()
            .find(|(n, _)| n.contains("-ack-france-"))
            .unwrap();
        let verify_with = |name: &str, ack: &str| {
            pbem()
                .arg("verify")
                .arg(mail(&game, "t0001-report-france.eml"))
                .arg("--ack")
                .arg(write(t.path(), name, ack))
                .assert()
        };
        verify_with("old.eml", &old.1)
            .code(4)
            .stdout(predicate::str::contains(
                "the dice secret was changed after it was announced",
            ));
        verify_with("renewed.eml", &renewed[0].1)
            .success()
            .stdout(predicate::str::contains(
                "ok: the commitment is the one the acknowledgement",
            ))
            .stdout(predicate::str::contains(
                "ok: the orders that stood for france are the ones you give",
            ))
            .stdout(predicate::str::contains(
                "ok: the entropy listed for france is the one of your orders",
            ));
    }
}

/// The announcement names the dice scheme fixed with the commitment (issue 31).
#[test]
fn the_announcement_names_the_scheme_fixed_with_the_commitment() {
    let (_t, game) = closed_demo();
    pbem().arg("resolve").arg(&game).assert().success();
    let text = fs::read_to_string(mail(&game, "t0002-announcement-france.eml")).unwrap();
    assert!(
        text.contains("are drawn under pbem-dice/v2 without a beacon, fixed with this commitment"),
        "{text}"
    );
}

/// After the close nobody changes a contribution (docs/DICE.md), so its deadline no longer moves,
/// nor does a player leave it (a drop or replace would take his orders off the closing list, and
/// the turn would never resolve), nor its secret change (drawn knowing the list, it could steer the
/// dice); a rollback reopens the turn to orders, and with them its closing
/// list: the old one goes into the archive, the orders sent for the reopened turn are filed, and
/// the turn is closed anew, its closing mail delivered again.
#[test]
fn a_closed_turn_keeps_its_deadline_and_players_and_a_rollback_closes_it_anew() {
    let (t, game) = game();
    set_dice(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    write(&game, "orders/1/france.txt", header("france", FRANCE_PW, 1));
    pbem().arg("close").arg(&game).assert().success();
    pbem()
        .args(["extend", "--to", "2101-01-01T20:00", "--reason", "a strike"])
        .arg(&game)
        .assert()
        .failure()
        .stderr(predicate::str::contains("turn 1 is closed"));
    for act in [
        &["drop", "france"][..],
        &["replace", "france", "--email", "n@example.org"],
        &["rekey", "--reason", "a leak"],
    ] {
        pbem()
            .arg(act[0])
            .arg(&game)
            .args(&act[1..])
            .assert()
            .failure()
            .stderr(predicate::str::contains("turn 1 is closed"));
    }
    // Russia's orders came after the close: answered "the turn is closed", not filed.
    let russia = write(
        t.path(),
        "russia.eml",
        eml(
            "russia@example.org",
            "Sat, 5 Dec 2026 18:00:00 +0100",
            "ru-1@example.org",
            &header("russia", RUSSIA_PW, 1),
        ),
    );
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&russia)
        .assert()
        .success();
    assert!(!game.join("orders/1/russia.txt").exists());
    pbem().arg("resolve").arg(&game).assert().success();
    let sent = t.path().join("sent");
    let send = || {
        pbem()
            .args(["send", "--folder"])
            .arg(&sent)
            .arg(&game)
            .assert()
            .success()
    };
    send();
    pbem()
        .args(["rollback", "--to-turn", "1", "--reason", "a wrong table"])
        .arg(&game)
        .assert()
        .success();
    assert!(!game.join("turns/1/close.toml").exists());
    assert!(game.join("archive/rollback-1/turns/1/close.toml").is_file());
    // The reopened turn's deadline covers them: they stand, and their answer says so alone.
    assert!(game.join("orders/1/russia.txt").is_file());
    let (_, answer) = support::acks(&game)
        .into_iter()
        .find(|(n, _)| n.starts_with("t0001-ack-russia-") && n.ends_with("-accepted.eml"))
        .expect("russia's answer");
    assert!(!answer.contains("the turn is closed"), "{answer}");
    pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .assert()
        .success();
    let close = fs::read_to_string(game.join("turns/1/close.toml")).unwrap();
    assert!(close.contains("russia"), "{close}");
    let out = String::from_utf8(send().get_output().stdout.clone()).unwrap();
    assert!(out.contains("sent       t0001-closing-russia.eml"), "{out}");
}

/// With a beacon, the referee could not choose among the contributions before the close, since the
/// round is out only after the deadline (DICE.md, "What each party can do"): but a drop, a
/// replace, accepted late orders, a moved deadline or a fresh secret were taken after the deadline
/// and before the close, the round's signature already public, so that the referee, who holds the
/// secret, knew the dice of the turn with the act and without it and chose. Once the round is out
/// each is refused, nothing changed; before it they are taken as ever; the turn resolves with its
/// round.
#[test]
fn once_the_beacon_round_is_out_no_act_changes_what_the_dice_are_drawn_from() {
    let (_t, game) = beacon_demo();
    let before = tree(&game);
    let acts: [&[&str]; 5] = [
        &["drop", "britain"],
        &["replace", "britain", "--email", "pitt@example.org"],
        &[
            "accept-late",
            "france",
            "--reason",
            "his mail server was down",
        ],
        &["extend", "--by", "2d", "--reason", "a strike"],
        &["rekey", "--reason", "the secret leaked"],
    ];
    for act in acts {
        pbem()
            .arg(act[0])
            .arg(&game)
            .args(&act[1..])
            .assert()
            .failure()
            .stderr(predicate::str::contains(
                "its beacon round 657413 (drand quicknet) is out",
            ));
        assert!(tree(&game) == before, "{act:?} changed the game");
    }
    // A second before the round is published, the act is taken.
    pbem()
        .env("PBEM_NOW", "2023-09-15T11:00:00Z")
        .arg("drop")
        .arg(&game)
        .arg("britain")
        .assert()
        .success();
    pbem()
        .arg("resolve")
        .arg(&game)
        .arg("--beacon")
        .arg(format!("{ROUND}:{SIGNATURE}"))
        .assert()
        .success();
}

/// A rekey killed midway waits to be finished, and a pbem-dice/v2 turn is not closed meanwhile:
/// `pbem turn` closed it before the resolve refused, and the rerun of the rekey was then refused in
/// its turn (a closed turn is not re-keyed), so that neither could go on. Closing is refused, naming
/// the rekey; once it is finished the turn closes.
#[test]
fn no_turn_is_closed_while_a_rekey_killed_midway_waits() {
    let (_t, game) = unresolved_demo();
    set_dice(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    let rekey = || {
        let mut c = pbem();
        c.arg("rekey")
            .arg(&game)
            .args(["--reason", "the secret leaked"]);
        c
    };
    rekey()
        .env("PBEM_CRASH_BEFORE", "acts.toml")
        .assert()
        .failure();
    for cmd in ["turn", "close"] {
        pbem()
            .arg(cmd)
            .arg(&game)
            .assert()
            .failure()
            .stderr(predicate::str::contains("a `pbem rekey` was killed midway"))
            .stderr(predicate::str::contains("turn 1 cannot be"));
        assert!(
            !game.join("turns/1/close.toml").exists(),
            "{cmd} closed the turn"
        );
    }
    rekey().assert().success();
    pbem().arg("close").arg(&game).assert().success();
}
