//! Issue 4.3, 4.6, 4.9: authentication of mailed orders. A forged From without the password, the
//! right password from an address not registered for the power, orders for another power's units, a
//! message replayed from an earlier turn and an attachment named like a path are each rejected with
//! their reason; no answer ever goes to an unregistered address; a wrong password is never quoted
//! back, printed or stored outside the raw archive.

use crate::support;

use std::fs;
use std::path::Path;

use pbem::mail::ingest::{ingest, IngestSummary, Status};
use support::*;

const ON_TIME: &str = "Sat, 5 Dec 2026 18:00:00 +0100";
const REGISTERED: [&str; 4] = [
    "france@example.org",
    "austria@example.org",
    "russia@example.org",
    "britain@example.org",
];

fn ingest_one(dir: &Path, name: &str, eml: &str) -> IngestSummary {
    let path = write(dir.parent().unwrap(), name, eml);
    locked(|| ingest(&load(dir), std::slice::from_ref(&path)))
}

/// Every answer in the outbox goes to registered players (or the referee) only.
fn assert_answers_only_registered(dir: &Path) {
    for (name, ack) in acks(dir) {
        let to = header_of(&ack, "To").unwrap_or_default();
        for addr in to.split(',') {
            let a = addr.trim().trim_start_matches('<').trim_end_matches('>');
            let a = a.rsplit('<').next().unwrap().trim_end_matches('>');
            assert!(
                REGISTERED.contains(&a) || a.ends_with(".invalid"),
                "{name} goes to {a}"
            );
        }
    }
}

#[test]
fn a_forged_from_with_a_wrong_password_is_rejected_and_answered_to_the_real_player() {
    let (_tmp, dir) = game();
    let secret = "Wr0ng-Guess-77";
    let body = format!("{}move FR-I Munich\n", header("france", secret, 1));
    let s = ingest_one(
        &dir,
        "forged.eml",
        &eml("france@example.org", ON_TIME, "f1@evil.example", &body),
    );
    let r = s.new.all().unwrap()[0].record.clone();
    assert_eq!(r.status, Status::Rejected);
    assert!(
        r.reasons.iter().any(|x| x == "wrong password for France"),
        "{:?}",
        r.reasons
    );
    assert!(!dir.join("orders/1/france.txt").exists());
    let acks = acks(&dir);
    assert_eq!(acks.len(), 1);
    assert_eq!(
        header_of(&acks[0].1, "To").as_deref(),
        Some("france@example.org")
    );
    let text = body_of(&acks[0].1);
    assert!(text.contains("wrong password for France"), "{text}");
    assert!(!text.contains(secret), "{text}");
    // The order lines of a message that does not authenticate are not read (no unit positions leak).
    assert!(!text.contains("Munich"), "{text}");
}

#[test]
fn a_wrong_password_is_never_printed_nor_stored_outside_the_raw_archive() {
    let (tmp, dir) = game();
    let secret = "Sup3r-S3cret-Guess";
    let mut body = header("austria", secret, 1);
    body.push_str("pasword also-Sup3r-S3cret-Guess\nmove AU-IX Verona\n");
    let path = write(
        tmp.path(),
        "m.eml",
        eml("austria@example.org", ON_TIME, "a1@x", &body),
    );
    let out = pbem().arg("ingest").arg(&dir).arg(&path).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stdout.contains("wrong password for Austria"), "{stdout}");
    assert!(
        !stdout.contains("S3cret") && !stderr.contains("S3cret"),
        "{stdout}{stderr}"
    );
    for (file, bytes) in tree(&dir) {
        if file.starts_with("mail/inbox/") {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains("S3cret"), "{file} holds the password");
        // quoted-printable could split it, base64 hide it: the ack must be readable and clean.
        if file.contains("-ack-") {
            assert!(!body_of(&text).contains("S3cret"), "{file}");
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for e in fs::read_dir(dir.join("mail/inbox")).unwrap() {
            let mode = e.unwrap().metadata().unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "the raw archive is private to the referee");
        }
    }
}

#[test]
fn the_right_password_from_an_unregistered_address_is_rejected_and_not_answered_to_it() {
    let (_tmp, dir) = game();
    let body = format!(
        "{}move FR-I Nuremberg Regensburg Munich\n",
        header("france", FRANCE_PW, 1)
    );
    let s = ingest_one(
        &dir,
        "spy.eml",
        &eml("Spy <spy@evil.example>", ON_TIME, "s1@evil.example", &body),
    );
    let r = s.new.all().unwrap()[0].record.clone();
    assert_eq!(r.status, Status::Rejected);
    assert!(
        r.reasons[0].contains("spy@evil.example is not registered for France"),
        "{:?}",
        r.reasons
    );
    assert!(!dir.join("orders/1/france.txt").exists());
    let acks = acks(&dir);
    assert_eq!(
        header_of(&acks[0].1, "To").as_deref(),
        Some("france@example.org")
    );
    assert_answers_only_registered(&dir);
}

#[test]
fn any_sender_accepts_the_right_password_from_elsewhere_but_answers_the_registered_address() {
    let (_tmp, dir) = game();
    add_to_config(&dir, "[mail]\nany_sender = true\n");
    let body = header("france", FRANCE_PW, 1);
    let s = ingest_one(
        &dir,
        "away.eml",
        &eml("nap@hotel.example", ON_TIME, "h1@hotel", &body),
    );
    assert_eq!(s.new.all().unwrap()[0].record.status, Status::Accepted);
    assert!(dir.join("orders/1/france.txt").is_file());
    assert_eq!(
        header_of(&acks(&dir)[0].1, "To").as_deref(),
        Some("france@example.org")
    );
}

#[test]
fn two_from_headers_make_a_sender_nobody_even_with_the_right_password() {
    let (_tmp, dir) = game();
    let body = header("france", FRANCE_PW, 1);
    let m = eml("france@example.org", ON_TIME, "d1@x", &body).replacen(
        "From: ",
        "From: spy@evil.example\r\nFrom: ",
        1,
    );
    let s = ingest_one(&dir, "two.eml", &m);
    let r = s.new.all().unwrap()[0].record.clone();
    assert_eq!(r.status, Status::Rejected);
    assert!(r.reasons[0].contains("2 From headers"), "{:?}", r.reasons);
    assert_answers_only_registered(&dir);
}

#[test]
fn orders_for_another_powers_units_are_rejected_line_by_line() {
    let (_tmp, dir) = game();
    let body = format!(
        "{}move FR-I Nuremberg Regensburg Munich\nmove AU-IX Verona\n",
        header("france", FRANCE_PW, 1)
    );
    let s = ingest_one(
        &dir,
        "mix.eml",
        &eml("france@example.org", ON_TIME, "m1@x", &body),
    );
    assert_eq!(s.new.all().unwrap()[0].record.status, Status::Accepted);
    let ack = body_of(&acks(&dir)[0].1);
    assert!(
        ack.contains("line 5: move FR-I Nuremberg Regensburg Munich"),
        "{ack}"
    );
    assert!(ack.contains("1 line(s) with a problem"), "{ack}");
    assert!(ack.contains("move AU-IX Verona"), "{ack}");
    assert!(ack.contains("orders/own-units"), "{ack}");
    assert!(!ack.contains(FRANCE_PW), "{ack}");
}

#[test]
fn a_message_replayed_from_an_earlier_turn_is_rejected() {
    let (tmp, dir) = game();
    let body = format!(
        "{}move FR-I Nuremberg Regensburg Munich\n",
        header("france", FRANCE_PW, 1)
    );
    let original = eml("france@example.org", ON_TIME, "turn1@example.org", &body);
    let path = write(tmp.path(), "t1.eml", &original);
    locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    locked(|| pbem::referee::turn::resolve(&load(&dir), &Default::default()));
    let acks_before = acks(&dir).len();

    // The same bytes again: already stored and judged; nothing changes.
    let before = tree(&dir);
    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    assert_eq!((s.already, s.new.len()), (1, 0));
    assert_eq!(tree(&dir), before);

    // A copy relayed again (a new Received header, the same Message-ID and body): a duplicate.
    let relayed =
        format!("Received: by mx.referee.example; Sat, 12 Dec 2026 10:00:00 +0100\r\n{original}");
    let s = ingest_one(&dir, "relayed.eml", &relayed);
    assert_eq!(s.new.all().unwrap()[0].record.status, Status::Duplicate);

    // The turn-1 orders in a new message during turn 2: rejected, turn 1 is resolved.
    let resent = eml(
        "france@example.org",
        "Sat, 12 Dec 2026 10:00:00 +0100",
        "again@x",
        &body,
    );
    let s = ingest_one(&dir, "resent.eml", &resent);
    let r = s.new.all().unwrap()[0].record.clone();
    assert_eq!(r.status, Status::Rejected);
    assert!(
        r.reasons[0].contains("turn 1 is already resolved"),
        "{:?}",
        r.reasons
    );
    assert!(!dir.join("orders/2/france.txt").exists());
    assert_eq!(
        acks(&dir).len(),
        acks_before + 1,
        "the duplicate is not answered"
    );
    assert_answers_only_registered(&dir);
}

#[test]
fn an_attachment_named_like_a_path_is_rejected_and_nothing_is_written_there() {
    let (tmp, dir) = game();
    let config_before = fs::read(dir.join("game.toml")).unwrap();
    let orders = header("france", FRANCE_PW, 1);
    let m = |from: &str, id: &str| {
        format!(
            "Received: by mx.referee.example; {ON_TIME}\r\nFrom: {from}\r\nTo: referee@referee.example\r\n\
             Subject: orders\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\n\
             Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n\
             see attached\r\n--b\r\nContent-Type: text/plain; name=\"../../game.toml\"\r\n\
             Content-Disposition: attachment; filename=\"../../game.toml\"\r\n\r\n{}\r\n--b--\r\n",
            orders.replace('\n', "\r\n")
        )
    };
    let p1 = write(tmp.path(), "a.eml", m("france@example.org", "p1@x"));
    let p2 = write(tmp.path(), "b.eml", m("stranger@evil.example", "p2@x"));
    let s = locked(|| ingest(&load(&dir), &[p1.clone(), p2.clone()]));
    for e in &s.new.all().unwrap() {
        assert_eq!(e.record.status, Status::Rejected);
        assert!(
            e.record.reasons[0].contains("'../../game.toml', which is a path"),
            "{:?}",
            e.record.reasons
        );
    }
    assert_eq!(fs::read(dir.join("game.toml")).unwrap(), config_before);
    assert!(!tmp.path().join("game.toml").exists());
    assert!(!dir.join("orders/1/france.txt").exists());
    let tos: Vec<String> = acks(&dir)
        .iter()
        .map(|(_, a)| header_of(a, "To").unwrap())
        .collect();
    assert!(tos.iter().any(|t| t == "france@example.org"), "{tos:?}");
    assert!(tos.iter().all(|t| !t.contains("evil")), "{tos:?}");
    assert_answers_only_registered(&dir);
}

#[test]
fn orders_for_another_game_or_an_unknown_power_are_rejected_with_their_reason() {
    let (_tmp, dir) = game();
    let other = "game austerlitz-1805\npower france\npassword eagle-1805\nturn 1\n";
    let s = ingest_one(
        &dir,
        "g.eml",
        &eml("france@example.org", ON_TIME, "g1@x", other),
    );
    assert!(s.new.all().unwrap()[0].record.reasons[0]
        .contains("for game 'austerlitz-1805', not 'ulm-1805'"));
    let unknown = header("prussia", "x", 1);
    let s = ingest_one(
        &dir,
        "p.eml",
        &eml("britain@example.org", ON_TIME, "p1@x", &unknown),
    );
    let r = s.new.all().unwrap()[0].record.clone();
    assert_eq!(r.status, Status::Rejected);
    assert!(
        r.reasons.iter().any(|x| x.contains("no power 'prussia'")),
        "{:?}",
        r.reasons
    );
    // A registered sender naming no power of the game is answered himself.
    assert!(acks(&dir)
        .iter()
        .any(|(_, a)| header_of(a, "To").as_deref() == Some("britain@example.org")));
    assert_answers_only_registered(&dir);
}

#[test]
fn a_dropped_powers_controller_sends_its_orders_with_his_own_password_and_address() {
    // EiA 19.2.1: Austria runs France meanwhile; Austria's player writes France's orders.
    let (_tmp, dir) = game();
    pbem()
        .args(["drop"])
        .arg(&dir)
        .args(["france", "--to", "austria"])
        .assert()
        .success();
    let body = header("france", AUSTRIA_PW, 1);
    let s = ingest_one(
        &dir,
        "ctl.eml",
        &eml("austria@example.org", ON_TIME, "ctl@x", &body),
    );
    let r = s.new.all().unwrap()[0].record.clone();
    assert_eq!((r.status, r.power.as_str()), (Status::Accepted, "france"));
    let ack = acks(&dir).pop().unwrap().1;
    assert_eq!(
        header_of(&ack, "To").as_deref(),
        Some("austria@example.org")
    );
    // Russia's player, even with Austria's password, is nobody for France.
    let s = ingest_one(
        &dir,
        "ru.eml",
        &eml("russia@example.org", ON_TIME, "ru@x", &body),
    );
    assert_eq!(s.new.all().unwrap()[0].record.status, Status::Rejected);
    assert!(s.new.all().unwrap()[0].record.reasons[0].contains("not registered for France"));
    assert_answers_only_registered(&dir);
}
