//! Orders that come wrapped: forwarded by the player from another mailbox or by a friend (Gmail,
//! Outlook, Apple Mail, Thunderbird, a message/rfc822 attachment), with a greeting before them and a
//! sign-off after, in a body whose encoding or charset lies; each read as a referee would, and its
//! sender always answered. `support::wrapped` holds each of these wrappings too, for
//! tests/verify_page_orders.rs, which gives them to verify.html and `pbem verify --orders`.

use crate::support;

use std::path::Path;

use support::*;

const ON_TIME: &str = "Sat, 5 Dec 2026 18:00:00 +0100";

/// A message from `from` with `subject` whose one part is `content_type` with `body` (LF lines
/// made CRLF), after `extra` headers.
fn message(from: &str, id: &str, subject: &str, content_type: &str, body: &str) -> String {
    format!(
        "Received: from mail.example.net by mx.referee.example; {ON_TIME}\r\n\
         From: {from}\r\nTo: referee@referee.example\r\nSubject: {subject}\r\n\
         Message-ID: <{id}>\r\nMIME-Version: 1.0\r\nContent-Type: {content_type}\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

fn orders() -> String {
    format!("{}\nattack Ulm\n", header("france", FRANCE_PW, 1))
}

/// The ingest's report and the answers it wrote, after ingesting `mails` (name, text) at once.
fn ingest(game: &Path, dir: &Path, mails: &[(&str, String)]) -> String {
    for (name, text) in mails {
        write(dir, name, text);
    }
    let out = pbem()
        .env("PBEM_NOW", "2026-12-05T18:00:00Z")
        .arg("ingest")
        .arg(game)
        .arg(dir)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout).into_owned()
}

/// The lines of the ingest's report about `name`: its verdict and what followed it.
fn verdict<'a>(report: &'a str, name: &str) -> &'a str {
    let at = report
        .find(&format!("{name} ("))
        .unwrap_or_else(|| panic!("{name}: {report}"));
    let start = report[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = report[at..]
        .find("\n  accepted")
        .or_else(|| report[at..].find("\n  rejected"))
        .or_else(|| report[at..].find("\n  ignored"))
        .or_else(|| report[at..].find("\nOrders"))
        .or_else(|| report[at..].find("\nNo orders"))
        .map_or(report.len(), |e| at + e);
    &report[start..end]
}

#[test]
fn forwarded_orders_are_read_as_the_forwarders_submission_from_every_client() {
    let (t, game) = game();
    let o = orders();
    let plain = "text/plain; charset=utf-8";
    let mails = [
        (
            "1-gmail.eml",
            message(
                "france@example.org",
                "f1@example.org",
                "Fwd: orders",
                plain,
                &format!("\n---------- Forwarded message ---------\nFrom: Jean <jean@home.example>\nDate: Sat, Dec 5, 2026 at 5:00 PM\nSubject: orders\nTo: <france@example.org>\n\n{o}"),
            ),
        ),
        (
            "2-outlook.eml",
            message(
                "france@example.org",
                "f2@example.org",
                "FW: orders",
                plain,
                &format!("\n\n-----Original Message-----\nFrom: Jean <jean@home.example>\nSent: Saturday, December 5, 2026 5:00 PM\nTo: france@example.org\nSubject: orders\n\n{o}"),
            ),
        ),
        (
            "3-apple.eml",
            message(
                "france@example.org",
                "f3@example.org",
                "Fwd: orders",
                plain,
                &format!("\n\nBegin forwarded message:\n\nFrom: Jean <jean@home.example>\nSubject: orders\nDate: 5 December 2026 at 17:00:00 CET\nTo: france@example.org\n\n{o}"),
            ),
        ),
        (
            "4-thunderbird.eml",
            message(
                "france@example.org",
                "f4@example.org",
                "Fwd: orders",
                "text/plain; charset=UTF-8; format=flowed",
                &format!("\n\n\n-------- Forwarded Message --------\nSubject: \torders\nDate: \tSat, 5 Dec 2026 17:00:00 +0100\nFrom: \tJean <jean@home.example>\nTo: \tfrance@example.org\n\n\n{o}"),
            ),
        ),
        (
            "5-attached.eml",
            message(
                "france@example.org",
                "f5@example.org",
                "Fwd: orders",
                "multipart/mixed; boundary=\"b1\"",
                &format!("--b1\nContent-Type: text/plain; charset=utf-8\n\nforwarding my orders\n--b1\nContent-Type: message/rfc822\nContent-Disposition: attachment; filename=\"orders.eml\"\n\nFrom: Jean <jean@home.example>\nTo: france@example.org\nSubject: orders\nMessage-ID: <inner@home.example>\nContent-Type: text/plain; charset=utf-8\n\n{o}\n--b1--\n"),
            ),
        ),
    ];
    let report = ingest(&game, &t.path().join("mail"), &mails);
    for (name, _) in &mails {
        let v = verdict(&report, name);
        assert!(
            v.trim_start().starts_with("accepted  france"),
            "{v}\n{report}"
        );
    }
    let answers = acks(&game);
    assert_eq!(answers.len(), 5, "{report}");
    for (name, eml) in &answers {
        let body = body_of(eml);
        assert!(
            body.contains("pbem read the orders in the message forwarded"),
            "{name}: {body}"
        );
        // The forwarded header block is not orders: no line of it is rejected.
        assert!(!body.contains("with a problem"), "{name}: {body}");
        assert!(body.contains("attack Ulm"), "{name}: {body}");
    }
    let filed = std::fs::read_to_string(game.join("orders/1/france.txt")).unwrap();
    assert!(
        !filed.contains("From:") && filed.contains("attack Ulm"),
        "{filed}"
    );
}

/// A friend forwards France's orders from his own address: the password authenticates them as any
/// other, the sender is not France's, and France's player is answered (never the friend).
#[test]
fn orders_a_friend_forwards_are_refused_for_his_address_and_the_power_is_answered() {
    let (t, game) = game();
    let mail = message(
        "friend@elsewhere.example",
        "f6@example.org",
        "Fwd: orders",
        "text/plain; charset=utf-8",
        &format!(
            "Jean asked me to send these.\n\n---------- Forwarded message ---------\nFrom: Jean <france@example.org>\nDate: Sat, Dec 5, 2026\nSubject: orders\nTo: <referee@referee.example>\n\n{}",
            orders()
        ),
    );
    let report = ingest(&game, &t.path().join("mail"), &[("friend.eml", mail)]);
    let v = verdict(&report, "friend.eml");
    assert!(v.contains("rejected  france"), "{report}");
    assert!(
        v.contains("friend@elsewhere.example is not registered"),
        "{report}"
    );
    let answers = acks(&game);
    assert_eq!(answers.len(), 1, "{report}");
    assert_eq!(
        header_of(&answers[0].1, "To").as_deref(),
        Some("france@example.org")
    );
}

/// A reply's original is never read as orders: Outlook's below a reply's subject, a quote with '>'.
#[test]
fn a_replys_original_with_orders_in_it_still_never_counts() {
    let (t, game) = game();
    let o = orders();
    let quoted: String = o.lines().map(|l| format!("> {l}\n")).collect();
    let mails = [
        (
            "1-outlook-reply.eml",
            message(
                "france@example.org",
                "r1@example.org",
                "RE: orders",
                "text/plain; charset=utf-8",
                &format!("What does the chit do?\n\n-----Original Message-----\nFrom: Jean\nSent: Saturday\nTo: referee@referee.example\nSubject: orders\n\n{o}"),
            ),
        ),
        (
            "2-quoted-reply.eml",
            message(
                "france@example.org",
                "r2@example.org",
                "Re: orders",
                "text/plain; charset=utf-8",
                &format!("What does the chit do?\n\nOn Sat, 5 Dec 2026, Jean wrote:\n{quoted}"),
            ),
        ),
    ];
    let report = ingest(&game, &t.path().join("mail"), &mails);
    for (name, _) in &mails {
        let v = verdict(&report, name);
        assert!(v.contains("no orders found"), "{v}\n{report}");
    }
    assert!(!game.join("orders/1/france.txt").exists(), "{report}");
}

/// pbem orders/prose: a greeting before the orders' header and a sign-off after the last order are
/// passed over, told once as a warning quoting them (their numbers are the mail's only where the
/// warning points); a typo of an order after the last, and
/// a line of prose between two orders, are still errors.
#[test]
fn pbem_orders_prose_a_greeting_and_a_sign_off_are_passed_over_and_told_once() {
    let (t, game) = game();
    let body = format!(
        "Hi ref, here are my orders:\n\n{}\nmove Lannes Stuttgart Ulm\nwell, why not\nattack Ulm\natack Munich\n\nThanks, and good luck to all.\nJean\n",
        header("france", FRANCE_PW, 1)
    );
    let mail = message(
        "france@example.org",
        "p1@example.org",
        "my orders",
        "text/plain; charset=utf-8",
        &body,
    );
    let report = ingest(&game, &t.path().join("mail"), &[("prose.eml", mail)]);
    assert!(
        verdict(&report, "prose.eml").contains("accepted  france"),
        "{report}"
    );
    let answers = acks(&game);
    let answer = body_of(&answers[0].1);
    assert!(
        answer.contains("warning: 3 lines around the orders read as a greeting or a sign-off, not as orders, passed over: 'Hi ref, here are my orders:', 'Thanks, and good luck to all.', 'Jean'"),
        "{answer}"
    );
    assert!(answer.contains("rule pbem orders/prose"), "{answer}");
    assert_eq!(answer.matches("unknown order").count(), 2, "{answer}");
    assert!(answer.contains("unknown order 'well,'"), "{answer}");
    assert!(answer.contains("unknown order 'atack'"), "{answer}");
    assert!(answer.contains("Orders accepted (2):"), "{answer}");
    assert!(answer.contains("2 line(s) with a problem"), "{answer}");
    // The file filed is the player's text: its digest and line numbers are his.
    let filed = std::fs::read_to_string(game.join("orders/1/france.txt")).unwrap();
    assert!(
        filed.starts_with("Hi ref, here are my orders:\n"),
        "{filed}"
    );
    // A greeting alone is a note, not a problem: no count of none.
    let body = format!(
        "Hi ref,\n\n{}\nattack Ulm\n",
        header("france", FRANCE_PW, 1)
    );
    let mail = message(
        "france@example.org",
        "p2@example.org",
        "my orders",
        "text/plain; charset=utf-8",
        &body,
    );
    ingest(&game, &t.path().join("mail"), &[("greeting.eml", mail)]);
    let answers = acks(&game);
    let answer = answers
        .iter()
        .map(|(_, a)| body_of(a))
        .find(|a| a.contains("'Hi ref,'"))
        .unwrap();
    assert!(
        answer.contains("No line was rejected; a note on your message"),
        "{answer}"
    );
    assert!(!answer.contains("0 line(s)"), "{answer}");
}

/// `late_orders = "hold"` keeps orders that arrive after a turn's deadline for the next turn: those
/// that name the next turn are held as those that name the closing one, not refused; orders for the
/// next turn sent before the deadline are still refused, as for a turn to come.
#[test]
fn under_hold_orders_naming_the_next_turn_after_the_deadline_are_held_for_it() {
    let (t, game) = game();
    set_deadline_key(&game, "late_orders", "\"hold\"");
    let mail = |id: &str, received: &str, turn: u32| {
        eml(
            "france@example.org",
            received,
            id,
            &format!("{}attack Munich\n", header("france", FRANCE_PW, turn)),
        )
    };
    let mails = [
        ("1-early.eml", mail("e1@x", ON_TIME, 2)),
        (
            "2-after.eml",
            mail("e2@x", "Sun, 6 Dec 2026 21:00:00 +0100", 2),
        ),
    ];
    let report = ingest(&game, &t.path().join("mail"), &mails);
    let early = verdict(&report, "1-early.eml");
    assert!(
        early.contains("rejected  france")
            && early.contains("these orders are for turn 2, the game is at turn 1"),
        "{report}"
    );
    let after = verdict(&report, "2-after.eml");
    assert!(
        after.contains("held      france") && after.contains("held for turn 2"),
        "{report}"
    );
    let answer = acks(&game)
        .into_iter()
        .find(|(_, e)| e.contains("e2@x"))
        .map(|(_, e)| body_of(&e))
        .unwrap();
    assert!(answer.contains("kept for turn 2"), "{answer}");
}

/// A body whose headers lie about its bytes is refused naming the lie and what to do, not "no
/// orders": base64 that is plain text, a charset of UTF-16 over one byte a character.
#[test]
fn a_body_labelled_base64_or_utf16_that_is_not_is_refused_naming_what_was_wrong() {
    let (t, game) = game();
    let o = orders();
    let mail = |id: &str, headers: &str| {
        format!(
            "Received: from mail.example.net by mx.referee.example; {ON_TIME}\r\n\
             From: france@example.org\r\nTo: referee@referee.example\r\nSubject: orders\r\n\
             Message-ID: <{id}>\r\nMIME-Version: 1.0\r\n{headers}\r\n\r\n{}",
            o.replace('\n', "\r\n")
        )
    };
    let mails = [
        (
            "1-base64.eml",
            mail(
                "l1@x",
                "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64",
            ),
        ),
        (
            "2-utf16.eml",
            mail("l2@x", "Content-Type: text/plain; charset=utf-16"),
        ),
    ];
    let report = ingest(&game, &t.path().join("mail"), &mails);
    let v = verdict(&report, "1-base64.eml");
    assert!(
        v.contains("the body is labelled 'Content-Transfer-Encoding: base64', but its bytes are not base64"),
        "{report}"
    );
    assert!(
        v.contains("send your orders again as plain text in UTF-8"),
        "{report}"
    );
    let v = verdict(&report, "2-utf16.eml");
    assert!(
        v.contains("the body is labelled 'charset=utf-16', but its bytes are not UTF-16"),
        "{report}"
    );
    assert!(!report.contains(FRANCE_PW), "{report}");
}
