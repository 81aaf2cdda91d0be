//! Issue 34: mail as real clients and responders write it. Orders saved by Notepad as "Unicode"
//! (UTF-16 with a byte-order mark, CRLF, no charset) are read; text that cannot be read is answered
//! "save it as UTF-8"; a vacation responder or a list, whatever mark it carries, is never answered.
//! `support::wrapped` holds the UTF-16 shapes too, for tests/verify_page_orders.rs.

use crate::support;

use std::fs;
use std::path::Path;

use support::*;

const ON_TIME: &str = "Sat, 5 Dec 2026 18:00:00 +0100";

/// France's orders as Notepad's "Unicode" saves them: a byte-order mark, UTF-16 little endian, CRLF.
fn notepad_unicode(text: &str) -> Vec<u8> {
    let mut bytes = vec![0xFF, 0xFE];
    for unit in text.replace('\n', "\r\n").encode_utf16() {
        bytes.extend(unit.to_le_bytes());
    }
    bytes
}

fn base64_lines(bytes: &[u8]) -> String {
    use base64::Engine;
    let text = base64::engine::general_purpose::STANDARD.encode(bytes);
    text.as_bytes()
        .chunks(76)
        .map(|c| format!("{}\r\n", std::str::from_utf8(c).unwrap()))
        .collect()
}

/// A message from France whose text is `body_type` with `body`, and an attachment `orders.txt`
/// (text/plain, no charset, base64) holding `attachment`.
fn with_attachment(id: &str, body: &str, attachment: &[u8]) -> String {
    format!(
        "Received: from mail.example.net by mx.referee.example; {ON_TIME}\r\n\
         From: france@example.org\r\nTo: referee@referee.example\r\nSubject: orders\r\n\
         Message-ID: <{id}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n\
         --b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n\
         --b1\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{}--b1--\r\n",
        base64_lines(attachment)
    )
}

/// A message from France whose only part is `bytes`, text/plain with no charset, in base64.
fn with_body(id: &str, bytes: &[u8]) -> String {
    format!(
        "Received: from mail.example.net by mx.referee.example; {ON_TIME}\r\n\
         From: france@example.org\r\nTo: referee@referee.example\r\nSubject: orders\r\n\
         Message-ID: <{id}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{}",
        base64_lines(bytes)
    )
}

fn ingest(game: &Path, mailbox: &Path) -> String {
    let out = pbem()
        .arg("ingest")
        .arg(game)
        .arg(mailbox)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout).into_owned()
}

fn france_orders() -> String {
    format!("{}attack Ulm\n", header("france", FRANCE_PW, 1))
}

#[test]
fn a_notepad_unicode_attachment_is_read_as_its_byte_order_mark_says() {
    let (t, game) = game();
    let m = with_attachment(
        "u1@example.org",
        "my orders attached",
        &notepad_unicode(&france_orders()),
    );
    let mailbox = write(t.path(), "m.eml", m);
    let text = ingest(&game, &mailbox);
    assert!(text.contains("accepted  france"), "{text}");
    let filed = fs::read_to_string(game.join("orders/1/france.txt")).unwrap();
    assert!(filed.contains("attack Ulm"), "{filed}");
    assert!(
        !filed.contains('\r') && !filed.contains('\u{feff}'),
        "{filed:?}"
    );
}

#[test]
fn a_body_in_utf16_big_endian_with_its_mark_is_read() {
    let (t, game) = game();
    let mut bytes = vec![0xFE, 0xFF];
    for unit in france_orders().replace('\n', "\r\n").encode_utf16() {
        bytes.extend(unit.to_be_bytes());
    }
    let mailbox = write(t.path(), "m.eml", with_body("u2@example.org", &bytes));
    let text = ingest(&game, &mailbox);
    assert!(text.contains("accepted  france"), "{text}");
    let filed = fs::read_to_string(game.join("orders/1/france.txt")).unwrap();
    assert!(filed.contains("attack Ulm"), "{filed}");
}

#[test]
fn text_that_cannot_be_read_is_answered_save_it_as_utf8() {
    let (t, game) = game();
    // UTF-16 without its mark: NULs between the letters, nothing says how to read them.
    let bytes: Vec<u8> = france_orders()
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let dir = t.path().join("mail");
    write(
        &dir,
        "1.eml",
        with_attachment("u3@example.org", "attached", &bytes),
    );
    write(&dir, "2.eml", with_body("u4@example.org", &bytes));
    let text = ingest(&game, &dir);
    assert!(!game.join("orders/1/france.txt").exists(), "{text}");
    // One answer for both (one per address and run), each named with its reason.
    let answers = acks(&game);
    assert_eq!(answers.len(), 1, "{text}");
    let body = body_of(&answers[0].1);
    assert_eq!(body.matches("save it as UTF-8").count(), 2, "{body}");
    assert!(body.contains("the attachment 'orders.txt'"), "{body}");
    assert!(body.contains("the body is not text"), "{body}");
}

/// A message from France, as a responder or a list would send it, with `extra` headers and `subject`.
fn automatic(n: usize, extra: &str, subject: &str) -> String {
    format!(
        "Received: from mail.example.net by mx.referee.example; {ON_TIME}\r\n\
         From: france@example.org\r\nTo: referee@referee.example\r\nSubject: {subject}\r\n\
         Message-ID: <auto-{n}@example.org>\r\n{extra}MIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\nI am away until Monday.\r\n"
    )
}

#[test]
fn responders_and_lists_are_never_answered_whatever_mark_they_carry() {
    let (t, game) = game();
    let marks: [(&str, &str); 14] = [
        ("Auto-Submitted: auto-replied\r\n", "Re: turn 1"),
        ("X-Autoreply: yes\r\n", "Re: turn 1"),
        ("X-Autorespond: yes\r\n", "Re: turn 1"),
        ("X-Loop: referee@ulm-1805.invalid\r\n", "Re: turn 1"),
        ("List-Id: <players.example.org>\r\n", "Re: turn 1"),
        ("List-Post: <mailto:players@example.org>\r\n", "Re: turn 1"),
        ("Feedback-ID: 1:campaign:example\r\n", "Re: turn 1"),
        ("X-Auto-Response-Suppress: All\r\n", "Re: turn 1"),
        ("X-Precedence: auto_reply\r\n", "Re: turn 1"),
        ("Precedence: bulk\r\n", "Re: turn 1"),
        ("", "Automatic reply: turn 1"),
        ("", "Auto: turn 1"),
        ("", "Out of Office: turn 1"),
        ("", "Out of office until Monday"),
    ];
    let dir = t.path().join("mail");
    for (n, (extra, subject)) in marks.iter().enumerate() {
        write(&dir, &format!("{n:02}.eml"), automatic(n, extra, subject));
    }
    let text = ingest(&game, &dir);
    assert!(acks(&game).is_empty(), "{text}");
    let records = pbem::mail::ingest::load_records(&load(&game)).unwrap();
    assert_eq!(records.len(), marks.len());
    for r in records.values() {
        assert!(
            r.reasons.iter().any(|w| w.contains("an automatic message")),
            "{:?}",
            r.reasons
        );
    }
    // The same message with no mark is the player's: it is answered ("no orders found").
    write(&dir, "plain.eml", automatic(99, "", "Re: turn 1"));
    ingest(&game, &dir);
    assert_eq!(acks(&game).len(), 1);
    // An X-Loop naming someone else is a player's forwarding, not pbem's mail coming back.
    write(
        &dir,
        "loop.eml",
        automatic(100, "X-Loop: france@example.org\r\n", "Re: turn 1"),
    );
    ingest(&game, &dir);
    assert_eq!(acks(&game).len(), 2);
}

#[test]
fn forged_senders_share_one_budget_of_password_checks_and_france_gets_one_answer() {
    let (t, game) = game();
    let dir = t.path().join("mail");
    for i in 0..40 {
        let body = format!(
            "{}move FR-I Munich\n",
            header("france", &format!("guess-{i}"), 1)
        );
        write(
            &dir,
            &format!("{i:02}.eml"),
            eml(
                &format!("forger{i}@evil.example"),
                ON_TIME,
                &format!("f{i}@evil.example"),
                &body,
            ),
        );
    }
    let text = ingest(&game, &dir);
    let records = pbem::mail::ingest::load_records(&load(&game)).unwrap();
    let unchecked = records
        .values()
        .filter(|r| {
            r.reasons
                .iter()
                .any(|w| w.contains("wrong passwords for France from addresses not registered"))
        })
        .count();
    // Eight checked, whatever the From says; the rest recorded as a flood, unchecked.
    assert_eq!(unchecked, 40 - 8, "{text}");
    let answers = acks(&game);
    assert_eq!(answers.len(), 1, "{text}");
    // The seven other checked ones, and the 32 not read, with a line that says so (France was
    // not told of those).
    let body = body_of(&answers[0].1);
    assert_eq!(
        body.matches("also rejected in this run").count(),
        7 + 32 + 1,
        "{body}"
    );
    assert!(
        body.contains("32 of these messages were not read at all"),
        "{body}"
    );
    // To France's own address, never to a forger.
    assert!(answers[0].1.contains("france@example.org"));
    assert!(!answers[0].1.contains("To: forger"));
}

/// A multipart/alternative whose text/plain part is blank, as some phone apps and webmail send
/// it: the orders are in the HTML part the player saw, read as text (its `<br>` and `<p>` lines,
/// its entities and ISO-8859-1 letters, without its signature or the quoted report); they were
/// answered "no orders" (tests/corpus/phone-alternative-blank-text.eml).
#[test]
fn an_alternative_with_a_blank_text_part_is_read_from_its_html() {
    let (_t, game) = game();
    let mailbox = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/phone-alternative-blank-text.eml");
    let text = ingest(&game, &mailbox);
    assert!(text.contains("accepted  austria"), "{text}");
    let filed = fs::read_to_string(game.join("orders/1/austria.txt")).unwrap();
    assert!(
        filed.contains(
            "entropy Mack wartet bei Ulm, sp\u{e4}ter kommt Kutusow\n\nchit Ulm counterattack\n"
        ),
        "{filed}"
    );
    assert!(
        filed.ends_with("standing surrender Munich when outnumbered 3\n"),
        "{filed}"
    );
    assert!(
        !filed.contains("Franz") && !filed.contains("commitment"),
        "{filed}"
    );
    let answers = acks(&game);
    assert_eq!(answers.len(), 1, "{text}");
    assert!(!body_of(&answers[0].1).contains("line(s) with a problem"));
}
