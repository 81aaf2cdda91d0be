//! Issue 4.2: orders as real mail clients send them (tests/corpus/, written by make_corpus.py) are
//! each ingested to the orders the player typed: Thunderbird (format=flowed, bottom-posted reply),
//! Gmail (multipart/alternative QP, .txt attachment), Outlook (HTML only in Windows-1252, ISO-8859-1
//! with the original below), Apple Mail (iPhone reply, attachment), mutt (8-bit Latin-1 with a
//! signature, inline attachment), an Android client (base64, CRLF), a webmail (HTML only, base64), a
//! Notepad file in Windows-1252 and a phone's mail app (multipart/alternative whose text part is
//! blank, the orders in its ISO-8859-1 HTML part).

use crate::support;

use std::fs;
use std::path::PathBuf;

use pbem::mail::ingest::{ingest, Status};
use support::*;

/// (case, power, sender)
const CASES: &[(&str, &str, &str)] = &[
    ("thunderbird-flowed", "france", "france@example.org"),
    (
        "thunderbird-reply-below-quote",
        "austria",
        "austria@example.org",
    ),
    ("gmail-alternative-qp", "britain", "britain@example.org"),
    ("gmail-txt-attachment", "russia", "russia@example.org"),
    ("outlook-html-only-1252", "britain", "britain@example.org"),
    (
        "outlook-alternative-latin1",
        "austria",
        "austria@example.org",
    ),
    ("apple-mail-iphone-reply", "russia", "russia@example.org"),
    ("apple-mail-attachment", "britain", "britain@example.org"),
    ("mutt-latin1-8bit", "austria", "austria@example.org"),
    ("mutt-inline-attachment", "france", "france@example.org"),
    ("android-base64-crlf", "russia", "russia@example.org"),
    ("webmail-html-only-base64", "france", "france@example.org"),
    ("notepad-ansi-attachment", "britain", "britain@example.org"),
    (
        "phone-alternative-blank-text",
        "austria",
        "austria@example.org",
    ),
];

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name)
}

#[test]
fn every_client_shape_in_the_corpus_is_ingested_to_the_orders_the_player_typed() {
    let mut failures = Vec::new();
    for (case, power, sender) in CASES {
        let (_tmp, dir) = game();
        let game = load(&dir);
        let summary = ingest(&game, &[corpus(&format!("{case}.eml"))]).unwrap();
        let expected = fs::read_to_string(corpus(&format!("{case}.expected"))).unwrap();
        let entry = summary.new.all().unwrap()[0].record.clone();
        if entry.status != Status::Accepted || entry.power != *power {
            failures.push(format!(
                "{case}: {} for '{}' ({:?})",
                entry.status.name(),
                entry.power,
                entry.reasons
            ));
            continue;
        }
        let filed = fs::read_to_string(dir.join(format!("orders/1/{power}.txt"))).unwrap();
        // Filed without the password: its line names the authenticated message instead (issue 15.10).
        let expected: String = expected
            .split_inclusive('\n')
            .map(|l| {
                if l.to_ascii_lowercase().starts_with("password ") {
                    format!("submission {}\n", entry.sha256)
                } else {
                    l.to_string()
                }
            })
            .collect();
        if filed != expected {
            failures.push(format!(
                "{case}: filed orders differ\n--- filed\n{filed}--- expected\n{expected}---"
            ));
            continue;
        }
        // The ruleset accepts every order line: nothing of the mail's furniture reached the orders.
        let acks = acks(&dir);
        assert_eq!(acks.len(), 1, "{case}");
        let (name, ack) = &acks[0];
        assert_eq!(header_of(ack, "To").as_deref(), Some(*sender), "{case}");
        let body = body_of(ack);
        if body.contains("line(s) with a problem") {
            failures.push(format!("{case}: a line was rejected:\n{body}"));
        }
        assert!(name.starts_with(&format!("t0001-ack-{power}-")), "{name}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_corpus_ingested_as_one_maildir_gives_each_power_its_last_message() {
    // All the messages in one mailbox: each power's orders are those of its last message received.
    let (tmp, dir) = game();
    let maildir = tmp.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    for (i, (case, _, _)) in CASES.iter().enumerate() {
        fs::copy(
            corpus(&format!("{case}.eml")),
            maildir
                .join(if i % 2 == 0 { "new" } else { "cur" })
                .join(format!("17334{i:05}.M{i}P1.mx:2,S")),
        )
        .unwrap();
    }
    let summary = ingest(&load(&dir), &[maildir]).unwrap();
    assert_eq!(summary.count(Status::Accepted), CASES.len());
    // By the Received headers: France's last is the webmail one (Sun 14:30), Austria's the Outlook one
    // (Sat 23:02), Britain's the Notepad one (Sun 15:10), Russia's the Android one (Sun 12:00).
    let last: Vec<(String, String)> = summary
        .standing
        .iter()
        .map(|s| (s.power.clone(), s.record.source.clone()))
        .collect();
    let expect = |power: &str, case: &str| {
        let i = CASES.iter().position(|c| c.0 == case).unwrap();
        let (_, src) = last.iter().find(|(p, _)| p == power).unwrap();
        assert!(src.contains(&format!("17334{i:05}")), "{power}: {src}");
    };
    expect("france", "webmail-html-only-base64");
    expect("austria", "outlook-alternative-latin1");
    expect("britain", "notepad-ansi-attachment");
    expect("russia", "android-base64-crlf");
}
