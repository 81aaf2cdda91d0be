//! Issue 4.5, 4.7: bad mail never stops an ingest and never panics. Malformed MIME, no body, a 20 MB
//! attachment, binary junk, a subject with CR/LF, non-UTF-8 headers, an empty file: each is stored and
//! listed with its reason; and 10,000 messages ingested twice leave exactly the same files.

use crate::support;

use std::fs;

use pbem::mail::ingest::{ingest, Status};
use proptest::prelude::*;
use support::*;

const ON_TIME: &str = "Sat, 5 Dec 2026 18:00:00 +0100";

#[test]
fn bad_mail_is_stored_and_listed_with_its_reason_and_the_rest_still_counts() {
    let (tmp, dir) = game();
    let d = tmp.path().join("bad");
    let orders = header("france", FRANCE_PW, 1).replace('\n', "\r\n");
    let big_binary = "QUJD".repeat(20 * 1024 * 1024 / 3); // 20 MB of base64
    let big_text = "move FR-I Ulm\r\n".repeat(1_400_000); // 20 MB of text
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "01-malformed-mime.eml",
            format!("From: france@example.org\r\nReceived: by mx; {ON_TIME}\r\nContent-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n--zz\r\nContent-Type: text/plain\r\n\r\nno closing boundary, no orders\r\n--z").into_bytes(),
            "no orders",
        ),
        ("02-no-body.eml", format!("From: austria@example.org\r\nReceived: by mx; {ON_TIME}\r\nSubject: empty\r\n").into_bytes(), "no orders"),
        (
            "03-big-binary-attachment.eml",
            format!("From: russia@example.org\r\nReceived: by mx; {ON_TIME}\r\nMessage-ID: <big1@x>\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n{}\r\n--b\r\nContent-Type: image/jpeg; name=\"map.jpg\"\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=\"map.jpg\"\r\n\r\n{big_binary}\r\n--b--\r\n", header("russia", RUSSIA_PW, 1).replace('\n', "\r\n")).into_bytes(),
            "accepted",
        ),
        (
            "04-big-text-attachment.eml",
            format!("From: britain@example.org\r\nReceived: by mx; {ON_TIME}\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nattached\r\n--b\r\nContent-Type: text/plain; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\n\r\n{}{big_text}\r\n--b--\r\n", header("britain", BRITAIN_PW, 1).replace('\n', "\r\n")).into_bytes(),
            "over the limit of 1000000",
        ),
        ("05-binary-junk.eml", (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect(), ""),
        (
            "06-subject-crlf.eml",
            format!("From: austria@example.org\r\nReceived: by mx; {ON_TIME}\r\nSubject: =?utf-8?q?x=0D=0ABcc:_all@example.org?=\r\n\r\nhello\r\n").into_bytes(),
            "no orders",
        ),
        (
            "07-non-utf8-headers.eml",
            [&b"From: \xff\xfe Napol\xe9on <france@example.org>\r\nSubject: \x80\x81\x82 ordres\r\nReceived: by mx; "[..], ON_TIME.as_bytes(), b"\r\n\r\n", orders.as_bytes()].concat(),
            "accepted",
        ),
        ("08-empty.eml", Vec::new(), ""),
        ("09-nul-bytes.eml", format!("From: britain@example.org\r\n\r\n{orders}\0\0\0").into_bytes(), ""),
    ];
    let mut paths = Vec::new();
    for (name, bytes, _) in &cases {
        paths.push(write(&d, name, bytes));
    }
    let s = ingest(&load(&dir), &paths).unwrap();
    assert_eq!(s.read, cases.len());
    let stored = pbem::mail::ingest_store::RawStore::open(&load(&dir)).unwrap();
    for (name, bytes, expect) in &cases {
        let sha = pbem::game::record::sha256_hex(bytes);
        assert_eq!(
            stored.read(&sha).ok().as_deref(),
            Some(&bytes[..]),
            "{name} is not stored"
        );
        let e = s
            .new
            .all()
            .unwrap()
            .into_iter()
            .find(|e| e.record.sha256 == sha)
            .unwrap_or_else(|| panic!("{name} is not listed"));
        let listed = format!("{} {}", e.record.status.name(), e.record.reasons.join(" "));
        assert!(listed.contains(expect), "{name}: {listed}");
        assert!(
            e.record.status == Status::Accepted || !e.record.reasons.is_empty(),
            "{name} has no reason"
        );
    }
    // The Russian orders beside the 20 MB picture and the French ones under a broken From stand.
    assert!(dir.join("orders/1/russia.txt").is_file());
    assert!(dir.join("orders/1/france.txt").is_file());
    // No answer carries the CR/LF of a subject into its headers.
    for (_, ack) in acks(&dir) {
        assert!(!ack.contains("Bcc:"), "{ack}");
    }
}

#[test]
fn a_message_over_the_size_limit_is_stored_by_streaming_and_not_read() {
    let (tmp, dir) = game();
    add_to_config(&dir, "[mail]\nmax_message_bytes = 1000\n");
    let m = eml(
        "france@example.org",
        ON_TIME,
        "big@x",
        &format!(
            "{}{}",
            header("france", FRANCE_PW, 1),
            "# padding\n".repeat(200)
        ),
    );
    let p = write(tmp.path(), "big.eml", &m);
    let s = ingest(&load(&dir), &[p]).unwrap();
    let r = s.new.all().unwrap()[0].record.clone();
    // Refused, not read (it was "ignored": France's own message, unanswered; see
    // `a_players_message_too_large_to_read_is_answered_and_a_strangers_is_not`).
    assert_eq!(r.status, Status::Rejected);
    assert!(
        r.reasons[0].contains("over the limit of 1000"),
        "{:?}",
        r.reasons
    );
    let sha = pbem::game::record::sha256_hex(m.as_bytes());
    assert_eq!(
        fs::read(dir.join(format!("mail/inbox/{sha}.eml"))).unwrap(),
        m.as_bytes()
    );
}

#[test]
fn ten_thousand_messages_ingested_twice_leave_exactly_the_same_files() {
    let (tmp, dir) = game();
    let mut mbox = String::with_capacity(12_000_000);
    for i in 0..10_000u32 {
        let day = 1 + i % 5;
        let received = format!(
            "{} Dec 2026 {:02}:{:02}:{:02} +0100",
            day,
            i / 3600 % 24,
            i / 60 % 60,
            i % 60
        );
        let (from, body) = match i % 500 {
            // A few real submissions, all four powers, some of them late.
            0 => (
                "france@example.org".to_string(),
                format!("{}attack Ulm\n", header("france", FRANCE_PW, 1)),
            ),
            100 => (
                "austria@example.org".to_string(),
                header("austria", AUSTRIA_PW, 1),
            ),
            200 => (
                "russia@example.org".to_string(),
                header("russia", RUSSIA_PW, 1),
            ),
            300 => (
                "britain@example.org".to_string(),
                header("britain", "wrong", 1),
            ),
            // A player chatting (answered: no orders found).
            400 => (
                "britain@example.org".to_string(),
                "Any news from Vienna?\n".to_string(),
            ),
            // Everyone else: list traffic and spam, not answered.
            _ => (
                format!("someone{}@lists.example", i % 97),
                format!("message {i}\n\nFrom the list.\n> quoted\n"),
            ),
        };
        let m = eml(
            &from,
            &format!("Sat, {received}"),
            &format!("m{i}@bulk.example"),
            &body,
        );
        // mboxrd: a body line starting with "From " is written ">From ".
        let m = m.replace("\r\n", "\n").replace("\nFrom the", "\n>From the");
        mbox.push_str(&format!("From {from} Sat Dec  5 10:00:00 2026\n{m}\n"));
    }
    let path = write(tmp.path(), "huge.mbox", &mbox);
    let mailbox_before = fs::read(&path).unwrap();
    let s = ingest(&load(&dir), std::slice::from_ref(&path)).unwrap();
    assert_eq!((s.read, s.new.len()), (10_000, 10_000));
    assert_eq!(s.count(Status::Accepted), 60);
    assert!(
        s.count(Status::Rejected) >= 20,
        "{}",
        s.count(Status::Rejected)
    );
    assert_eq!(s.standing.len(), 3);
    let once = tree(&dir);
    let s = ingest(&load(&dir), std::slice::from_ref(&path)).unwrap();
    assert_eq!((s.read, s.already, s.new.len()), (10_000, 10_000, 0));
    assert_eq!(tree(&dir), once, "the second ingest changed files");
    assert_eq!(
        fs::read(&path).unwrap(),
        mailbox_before,
        "the mailbox was modified"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// No input makes the parser or the orders finder panic.
    #[test]
    fn no_bytes_make_reading_a_message_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        if let Some(m) = pbem::mail::parse::parse(&bytes) {
            let _ = pbem::mail::extract::extract(&m, 1_000_000);
        }
        let _ = pbem::mail::parse::stamps(&bytes);
        let _ = pbem::mail::parse::outgoing_headers(&bytes);
    }

    /// Mail-shaped inputs (headers, MIME, HTML, flowed text) do not make it panic either.
    #[test]
    fn no_mail_shaped_text_makes_reading_a_message_panic(
        ct in prop::sample::select(vec!["text/plain; format=flowed; delsp=yes", "text/html", "multipart/mixed; boundary=b", "multipart/alternative; boundary=b", "application/octet-stream; name=\"x.txt\""]),
        cte in prop::sample::select(vec!["7bit", "quoted-printable", "base64", "8bit"]),
        body in "(--b\r\n|Content-Type: text/plain\r\n|\r\n|> |-- \r\n|<div>|</blockquote>|&nbsp;|=\r\n|=C3|game x\r\n|power france\r\n|[a-z =<>&;#\\-]{0,20}|\u{e9}|\u{feff})*",
    ) {
        let raw = format!("From: a@b.org\r\nContent-Type: {ct}\r\nContent-Transfer-Encoding: {cte}\r\n\r\n{body}");
        if let Some(m) = pbem::mail::parse::parse(raw.as_bytes()) {
            let _ = pbem::mail::extract::extract(&m, 1_000_000);
        }
        let _ = pbem::mail::html::to_text(&body);
        let _ = pbem::mail::extract::clean(&body, true, true);
    }
}

/// A player's message over `max_message_bytes` (his orders with a large picture, say) is not read,
/// but he is answered: refused, and why, with its arrival from the referee's Received header. It was
/// only "ignored", and he never learnt that his orders went unread. A stranger's is still not
/// answered.
#[test]
fn a_players_message_too_large_to_read_is_answered_and_a_strangers_is_not() {
    let (tmp, dir) = game();
    add_to_config(&dir, "[mail]\nmax_message_bytes = 1000\n");
    let body = format!(
        "{}{}",
        header("france", FRANCE_PW, 1),
        "# padding\n".repeat(200)
    );
    let mine = write(
        tmp.path(),
        "big.eml",
        eml("france@example.org", ON_TIME, "big@x", &body),
    );
    let theirs = write(
        tmp.path(),
        "stranger.eml",
        eml("someone@else.example", ON_TIME, "other@x", &body),
    );
    let out = pbem()
        .arg("ingest")
        .arg(&dir)
        .arg(&mine)
        .arg(&theirs)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("2026-12-05T17:00:00+00:00 received"),
        "{stdout}"
    );
    let answers = acks(&dir);
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!(
        header_of(&answers[0].1, "To").as_deref(),
        Some("france@example.org")
    );
    let text = body_of(&answers[0].1);
    assert!(
        text.contains("over the limit of 1000")
            && text.contains("send your orders in a smaller message"),
        "{text}"
    );
    assert!(!dir.join("orders/1/france.txt").exists());
}
