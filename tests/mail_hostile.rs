//! Issue 15: hostile mail. Nothing a stranger mails can take the referee down: a flood of forged
//! passwords stays within a memory bound and never stops the good mail; no password is echoed.

mod support;

#[path = "support/peak.rs"]
mod peak;

use std::ffi::OsStr;
use std::fs;

use support::*;

const ON_TIME: &str = "Sat, 5 Dec 2026 18:00:00 +0100";

/// An mbox of `messages` (each a message as `eml` makes it).
fn mbox(messages: &[String]) -> String {
    let mut out = String::new();
    for m in messages {
        out.push_str("From MAILER-DAEMON Sat Dec  5 17:00:00 2026\n");
        out.push_str(&m.replace("\r\n", "\n").replace("\nFrom ", "\n>From "));
        out.push_str("\n\n");
    }
    out
}

#[test]
fn two_hundred_forged_passwords_stay_under_200_mb_and_the_good_mail_is_filed() {
    let (tmp, dir) = game();
    let mut messages: Vec<String> = (0..200)
        .map(|i| {
            let body = format!(
                "{}move FR-I Munich\n",
                header("france", &format!("guess-{i}"), 1)
            );
            eml(
                &format!("forger{i}@evil.example"),
                ON_TIME,
                &format!("f{i}@evil.example"),
                &body,
            )
        })
        .collect();
    messages.insert(
        100,
        eml(
            "austria@example.org",
            ON_TIME,
            "a1@example.org",
            &header("austria", AUSTRIA_PW, 1),
        ),
    );
    let path = write(tmp.path(), "flood.mbox", mbox(&messages));
    let run = peak::run_measured(
        &[OsStr::new("ingest"), dir.as_os_str(), path.as_os_str()],
        tmp.path(),
    );
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.peak_bytes < 200 << 20,
        "peak {} MiB",
        run.peak_bytes >> 20
    );
    assert!(dir.join("orders/1/austria.txt").exists(), "{}", run.stdout);
    assert!(!dir.join("orders/1/france.txt").exists());
}

#[test]
fn a_flood_from_one_sender_is_recorded_as_such_and_never_stops_the_good_mail() {
    let (tmp, dir) = game();
    let mut messages: Vec<String> = (0..30)
        .map(|i| {
            let body = header("france", &format!("guess-{i}"), 1);
            eml(
                "france@example.org",
                ON_TIME,
                &format!("f{i}@evil.example"),
                &body,
            )
        })
        .collect();
    messages.push(eml(
        "austria@example.org",
        ON_TIME,
        "a1@example.org",
        &header("austria", AUSTRIA_PW, 1),
    ));
    let path = write(tmp.path(), "flood.mbox", mbox(&messages));
    let out = pbem().arg("ingest").arg(&dir).arg(&path).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(dir.join("orders/1/austria.txt").exists(), "{stdout}");
    let records: Vec<String> = fs::read_dir(dir.join("mail/received"))
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let floods = records
        .iter()
        .filter(|r| r.contains("flood: france@example.org"))
        .count();
    assert_eq!(floods, 30 - 8, "{stdout}");
    // Only the checked ones are answered: eight answers to France and one to Austria.
    assert_eq!(acks(&dir).len(), 9);
    assert!(stdout.contains("flood"), "{stdout}");
}
