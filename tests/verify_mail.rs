//! `pbem verify` on what a player holds (docs/DICE.md): the report mail as any client
//! saves it, each form of the report, the anchors of the commitment, and his own orders. Every
//! tampering case is caught by the player's own `verify` from his own mail.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};

use base64::Engine;
use predicates::prelude::*;
use support::*;

/// The demo's turn 1 commitment, published before its orders were due.
fn commitment(game: &Path) -> String {
    fs::read_to_string(game.join("turns/1/commitment"))
        .unwrap()
        .trim()
        .to_string()
}

fn verify(report: &Path, game: &Path) -> assert_cmd::assert::Assert {
    pbem()
        .arg("verify")
        .arg(report)
        .args(["--commitment", &commitment(game)])
        .assert()
}

/// `verify` of a text or HTML report with France's JSON report, which lists the powers' entropy that
/// their header gives by its digest (`listed:`).
fn verify_with_json(report: &Path, game: &Path) -> assert_cmd::assert::Assert {
    pbem()
        .arg("verify")
        .arg(report)
        .arg(game.join("turns/1/reports/france.json"))
        .args(["--commitment", &commitment(game)])
        .assert()
}

/// A mail of France's turn 1 report: text, HTML and JSON parts, each in `encoding`, lines ending
/// with `eol`.
fn report_mail(game: &Path, encoding: &str, eol: &str) -> String {
    let reports = game.join("turns/1/reports");
    let part = |ct: &str, path: PathBuf| {
        let text = fs::read_to_string(path).unwrap();
        let body = match encoding {
            "base64" => {
                let b = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
                b.as_bytes()
                    .chunks(76)
                    .map(|c| std::str::from_utf8(c).unwrap())
                    .collect::<Vec<_>>()
                    .join("\n")
            }
            _ => text,
        };
        format!(
            "--b\nContent-Type: {ct}; charset=utf-8\nContent-Transfer-Encoding: {encoding}\n\n{body}\n"
        )
    };
    let mail = format!(
        "From: referee@example.org\nTo: france@example.org\nSubject: report\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b\"\n\n{}{}{}--b--\n",
        part("text/plain", reports.join("france.txt")),
        part("text/html", reports.join("france.html")),
        part("application/json", reports.join("france.json")),
    );
    mail.replace('\n', eol)
}

#[test]
fn the_untouched_report_mail_verifies_in_every_transfer_encoding() {
    let (t, game) = demo();
    // As pbem sent it (quoted-printable, CRLF), and as clients save it: LF line ends, an mbox From
    // line.
    let sent = read_outbox_string(game.join("mail/outbox/t0001-report-france.eml"));
    let mut mails = vec![
        ("sent.eml", sent.clone()),
        ("lf.eml", sent.replace("\r\n", "\n")),
        (
            "mbox.eml",
            format!(
                "From referee@example.org Sun Dec  6 19:00:00 2026\n{}",
                sent.replace("\r\n", "\n")
            ),
        ),
    ];
    for (name, enc, eol) in [
        ("base64.eml", "base64", "\n"),
        ("8bit.eml", "8bit", "\n"),
        ("8bit-crlf.eml", "8bit", "\r\n"),
    ] {
        mails.push((name, report_mail(&game, enc, eol)));
    }
    for (name, mail) in mails {
        let path = write(t.path(), name, mail);
        verify(&path, &game)
            .success()
            .stdout(predicate::str::contains(
                "ok: the text, HTML, JSON forms list the same header and the same",
            ))
            .stdout(predicate::str::contains("the report checks out"));
    }
}

#[test]
fn a_report_forwarded_as_an_attachment_or_inline_as_format_flowed_verifies_a_changed_one_fails() {
    let (t, game) = demo();
    let sent = read_outbox_string(game.join("mail/outbox/t0001-report-france.eml"));
    let forward = |report: &str| {
        format!(
            "From: france@example.org\r\nTo: auditor@example.org\r\nSubject: Fwd: my report\r\n\
             MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"fwd\"\r\n\r\n\
             --fwd\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy report, as sent.\r\n\
             --fwd\r\nContent-Type: message/rfc822\r\n\r\n{report}\r\n--fwd--\r\n"
        )
    };
    let path = write(t.path(), "forwarded.eml", forward(&sent));
    verify(&path, &game)
        .success()
        .stdout(predicate::str::contains(
            "ok: the text, HTML, JSON forms list the same header and the same",
        ))
        .stdout(predicate::str::contains("the report checks out"));
    let roll = sent
        .lines()
        .find(|l| l.trim_start().starts_with("roll combat/area=Ulm/round=1:"))
        .unwrap();
    let (head, faces) = roll.rsplit_once("-> ").unwrap();
    let other: Vec<String> = faces
        .split(' ')
        .map(|f| (f.parse::<u32>().unwrap() % 6 + 1).to_string())
        .collect();
    let changed = sent.replacen(roll, &format!("{head}-> {}", other.join(" ")), 1);
    let path = write(t.path(), "forwarded-changed.eml", forward(&changed));
    verify(&path, &game).code(4);
    // Forwarded inline by a client that writes format=flowed: its long lines broken, then joined
    // again as the player's reader shows them.
    let text = fs::read_to_string(game.join("turns/1/reports/france.txt")).unwrap();
    let path = write(t.path(), "flowed.eml", flowed_forward(&text));
    verify(&path, &game)
        .success()
        .stdout(predicate::str::contains("the report checks out"));
    let changed = text.replacen(roll, &format!("{head}-> {}", other.join(" ")), 1);
    let path = write(t.path(), "flowed-changed.eml", flowed_forward(&changed));
    verify(&path, &game).code(4);
}

#[test]
fn each_form_of_the_report_verifies_with_the_json_report_which_lists_the_entropy() {
    let (_t, game) = demo();
    verify(&game.join("turns/1/reports/france.json"), &game)
        .success()
        .stdout(predicate::str::contains("the report checks out"));
    for ext in ["txt", "html"] {
        verify_with_json(&game.join(format!("turns/1/reports/france.{ext}")), &game)
            .success()
            .stdout(predicate::str::contains("the report checks out"));
    }
}

#[test]
fn a_json_report_saved_with_a_byte_order_mark_is_read_by_verify_and_check() {
    let (t, game) = demo();
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    bytes.extend(fs::read(game.join("turns/1/reports/france.json")).unwrap());
    let report = write(t.path(), "france.json", bytes);
    verify(&report, &game)
        .success()
        .stdout(predicate::str::contains("the report checks out"));
    let orders = Path::new(env!("CARGO_MANIFEST_DIR")).join("orders/ulm-1805/2/france.txt");
    pbem()
        .arg("check")
        .arg("--report")
        .arg(&report)
        .arg(orders)
        .assert()
        .success();
}

#[test]
fn a_report_without_an_anchor_says_so() {
    let (_t, game) = demo();
    pbem()
        .arg("verify")
        .arg(game.join("mail/outbox/t0001-report-france.eml"))
        .assert()
        .success()
        .stdout(predicate::str::contains("NO ANCHOR"))
        .stdout(predicate::str::contains("the report checks out").not());
}

#[test]
fn the_announcement_mail_and_the_previous_report_anchor_the_commitment() {
    let (_t, game) = demo();
    pbem().arg("resolve").arg(&game).assert().success();
    let outbox = game.join("mail/outbox");
    pbem()
        .arg("verify")
        .arg(outbox.join("t0002-report-france.eml"))
        .arg("--announcement")
        .arg(outbox.join("t0002-announcement-france.eml"))
        .arg("--previous")
        .arg(outbox.join("t0001-report-france.eml"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "ok: the commitment is the one the announcement",
        ))
        .stdout(predicate::str::contains(
            "ok: the commitment is the one the previous report",
        ))
        .stdout(predicate::str::contains("the report checks out"));
}

#[test]
fn a_commitment_other_than_the_one_announced_is_caught() {
    let (_t, game) = demo();
    pbem()
        .arg("verify")
        .arg(game.join("mail/outbox/t0001-report-france.eml"))
        .args(["--commitment", &"0".repeat(64)])
        .assert()
        .code(4)
        .stdout(predicate::str::contains(
            "MISMATCH: the commitment is not the one --commitment gives",
        ));
}

/// The first roll line of France's text report that follows an event giving its die in its text.
fn reinforce_roll(text: &str) -> String {
    text.lines()
        .find(|l| {
            l.trim_start()
                .starts_with("roll reinforce/area=Ulm/unit=FR-Gd:")
        })
        .unwrap()
        .to_string()
}

#[test]
fn a_deleted_roll_line_is_caught() {
    let (t, game) = demo();
    // In the text report alone: its event still gives the die.
    let report = game.join("turns/1/reports/france.txt");
    let text = fs::read_to_string(&report).unwrap();
    let line = reinforce_roll(&text);
    let cut = write(
        t.path(),
        "cut.txt",
        text.replacen(&format!("{line}\n"), "", 1),
    );
    verify_with_json(&cut, &game)
        .code(4)
        .stdout(predicate::str::contains(
            "event lists no roll, though its text gives a die or an event of its kind always rolls (a roll line was removed): FR-Gd (France) tries to march",
        ));
    // In the mail: the text part no longer lists what the HTML and JSON parts list.
    let mail = report_mail(&game, "8bit", "\n").replacen(&format!("{line}\n"), "", 1);
    verify(&write(t.path(), "cut.eml", mail), &game)
        .code(4)
        .stdout(predicate::str::contains(
            "the HTML report lists other rolls than the text report",
        ));
}

#[test]
fn a_duplicated_label_is_caught() {
    let (t, game) = demo();
    let text = fs::read_to_string(game.join("turns/1/reports/france.txt")).unwrap();
    let line = reinforce_roll(&text);
    let twice = write(
        t.path(),
        "twice.txt",
        text.replacen(&line, &format!("{line}\n{line}"), 1),
    );
    verify_with_json(&twice, &game)
        .code(4)
        .stdout(predicate::str::contains(
            "lists the label reinforce/area=Ulm/unit=FR-Gd twice",
        ));
}

#[test]
fn event_text_that_contradicts_its_roll_is_caught() {
    let (t, game) = demo();
    let text = fs::read_to_string(game.join("turns/1/reports/france.txt")).unwrap();
    let from = "to the battle at Ulm (by the SOP): rolls 2, needs 2 or less: it arrives.";
    assert!(text.contains(from));
    let forged = text.replacen(
        from,
        "to the battle at Ulm (by the SOP): rolls 1, needs 2 or less: it arrives.",
        1,
    );
    verify_with_json(&write(t.path(), "forged.txt", forged), &game)
        .code(4)
        .stdout(predicate::str::contains(
            "event says its dice gave [1], but the roll(s) listed under it (reinforce/area=Ulm/unit=FR-Gd) show [2]",
        ));
}

/// Grinding: the referee adds an entropy line to the orders of a power that sent none (Britain) and
/// resolves the turn again. Britain's verify, given the orders it sent, sees entropy it never sent.
#[test]
fn grinding_with_a_forged_entropy_line_is_caught_by_the_power_that_sent_none() {
    let (t, game) = demo();
    let orders = game.join("orders/1/britain.txt");
    let sent = write(t.path(), "britain-sent.txt", fs::read(&orders).unwrap());
    pbem()
        .arg("verify")
        .arg(game.join("mail/outbox/t0001-report-britain.eml"))
        .arg("--orders")
        .arg(&sent)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "ok: the header lists no entropy for britain, and your orders have no entropy line",
        ));
    edit(&orders, "turn 1\n", "turn 1\nentropy grind 223\n");
    pbem()
        .args(["resolve", "--turn", "1", "--force"])
        .arg(&game)
        .assert()
        .success();
    pbem()
        .arg("verify")
        .arg(game.join("mail/outbox/t0001-report-britain.eml"))
        .args(["--commitment", &commitment(&game)])
        .arg("--orders")
        .arg(&sent)
        .assert()
        .code(4)
        .stdout(predicate::str::contains(
            "MISMATCH: the header lists entropy for britain, but your orders have no entropy line: someone added it",
        ));
}

/// France sent two submissions; the referee filed the first. France's verify, given the last one it
/// sent, sees that its entropy did not stand.
#[test]
fn a_second_submission_silently_passed_over_is_caught() {
    let (t, game) = demo();
    let filed = fs::read_to_string(game.join("orders/1/france.txt")).unwrap();
    let last = filed.replacen(
        "entropy Boulogne is empty and the eagles are on the Danube",
        "entropy changed my mind at the last minute",
        1,
    );
    assert_ne!(last, filed);
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
    pbem()
        .arg("verify")
        .arg(game.join("mail/outbox/t0001-report-france.eml"))
        .arg("--orders")
        .arg(&sent)
        .assert()
        .code(4)
        .stdout(predicate::str::contains(
            "the entropy listed for france is not the one of your orders' entropy line",
        ));
}
