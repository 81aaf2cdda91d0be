//! A season of play by mail (issue 13.6): nine turns of the bundled Empires in Arms game, orders in as
//! client mail, everything out through the real local SMTP server (aiosmtpd, `support/smtp.rs`), with
//! the changes of a game that lives for months: addresses and the title change, the referee's own
//! address changes, a deadline is extended, a power is dropped and replaced, a turn is rolled back and
//! played again. Every message goes to the address current when it is sent, none twice, and the game
//! audits clean; a changed adjudication byte does not.

use crate::support;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use chrono::{DateTime, Duration, TimeZone, Utc};
use support::smtp::Smtp;
use support::*;

const POWERS: [&str; 4] = ["france", "austria", "russia", "britain"];

/// The deadline of turn `t` by the bundled schedule: Sunday 2026-12-06 20:00 Vienna, then weekly.
fn deadline(t: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 6, 19, 0, 0).unwrap() + Duration::days(7 * (i64::from(t) - 1))
}

fn rfc3339(d: DateTime<Utc>) -> String {
    d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn run(game: &Path, args: &[&str], now: DateTime<Utc>) -> String {
    let a = pbem()
        .arg(args[0])
        .arg(game)
        .args(&args[1..])
        .env("PBEM_NOW", rfc3339(now))
        .assert();
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(a.get_output().status.success(), "{args:?}: {out}\n{err}");
    out
}

/// A new game with fresh passwords, addressed to its players and to the server: (game, passwords).
fn new_game(tmp: &Path, port: u16) -> (std::path::PathBuf, Vec<(String, String)>) {
    let game = tmp.join("season");
    let a = pbem()
        .args(["new", "--from", "ulm-1805"])
        .arg(&game)
        .assert()
        .success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    let passwords: Vec<(String, String)> = out
        .lines()
        .skip_while(|l| !l.starts_with("Passwords"))
        .skip(1)
        .take(4)
        .map(|l| {
            let mut w = l.split_whitespace();
            (w.next().unwrap().into(), w.next().unwrap().into())
        })
        .collect();
    assert_eq!(passwords.len(), 4, "{out}");
    // The referee gives the players' real addresses and his server, after `pbem new`.
    for p in POWERS {
        edit(
            &game.join("game.toml"),
            &format!("players = [\"{p}@example.org\"]"),
            &format!("players = [\"{p}@players.example\"]"),
        );
    }
    add_to_config(
        &game,
        &format!(
            "[mail]\nfrom = \"Referee <referee@referee.example>\"\ntransport = \"smtp\"\nretries = 2\nretry_delay_ms = 20\n\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"none\"\ntimeout_seconds = 10\n"
        ),
    );
    (game, passwords)
}

/// Writes the orders of one turn as client mail, received a day before `due`.
fn mailbox(
    tmp: &Path,
    turn: u32,
    due: DateTime<Utc>,
    senders: &[(&str, &str, &str)],
) -> std::path::PathBuf {
    let dir = tmp.join(format!("mail-{turn}"));
    let received = (due - Duration::days(1)).to_rfc2822();
    for (power, from, password) in senders {
        let body = format!(
            "game ulm-1805\npower {power}\npassword {password}\nturn {turn}\nentropy {power} {turn}\nstanding guard when losing\n"
        );
        write(
            &dir,
            &format!("{power}.eml"),
            eml(
                from,
                &received,
                &format!("{power}-{turn}@client.example"),
                &body,
            ),
        );
    }
    dir
}

#[test]
fn a_season_by_mail_keeps_every_message_at_the_address_of_its_day_and_audits_clean() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Smtp::start(&tmp.path().join("server"), 900);
    let (game, passwords) = new_game(tmp.path(), server.port);
    let pw = |p: &str| {
        passwords
            .iter()
            .find(|(id, _)| id == p)
            .map(|(_, w)| w.clone())
            .unwrap()
    };
    // The turn-1 announcements `pbem new` made go to the addresses the referee gave since.
    run(&game, &["send"], deadline(1) - Duration::days(6));

    let mut france = "france@players.example".to_string();
    let mut britain = ("britain@players.example".to_string(), pw("britain"));
    let mut pitt = String::new();
    // How many messages the server had when each change was made.
    let (mut france_moved, mut pitt_plays) = (0, 0);
    for turn in 1..=9u32 {
        let mut due = deadline(turn);
        match turn {
            3 => {
                // A player changes his address, the referee renames the game.
                edit(
                    &game.join("game.toml"),
                    "players = [\"france@players.example\"]",
                    "players = [\"napoleon@new.example\"]",
                );
                edit(&game.join("game.toml"), "title = \"", "title = \"Season: ");
                france = "napoleon@new.example".into();
                france_moved = server.received().len();
            }
            4 => {
                run(
                    &game,
                    &["extend", "--by", "2d", "--reason", "a holiday"],
                    due - Duration::days(3),
                );
                due += Duration::days(2);
            }
            5 => edit(
                &game.join("game.toml"),
                "from = \"Referee <referee@referee.example>\"",
                "from = \"Ulm referee <ulm@referee.example>\"",
            ),
            6 => {
                // Britain's player leaves: Russia's player runs it, then a new player comes.
                run(
                    &game,
                    &["drop", "britain", "--to", "russia"],
                    due - Duration::days(3),
                );
                let out = run(
                    &game,
                    &["replace", "britain", "--email", "pitt@players.example"],
                    due - Duration::days(3),
                );
                let new_pw = out
                    .lines()
                    .find_map(|l| {
                        l.split("shown this once (pbem keeps only its hash): ")
                            .nth(1)
                    })
                    .unwrap()
                    .trim()
                    .to_string();
                // This turn and the next Russia's player sends Britain's orders with his own
                // password; from turn 8, after the March economic phase of turn 7 (ulm-1805's are
                // quarterly), the new player does.
                britain = ("russia@players.example".into(), pw("russia"));
                pitt = new_pw;
            }
            8 => {
                britain = ("pitt@players.example".into(), pitt.clone());
                pitt_plays = server.received().len();
            }
            _ => {}
        }
        let senders = [
            ("france", france.as_str(), pw("france")),
            ("austria", "austria@players.example", pw("austria")),
            ("russia", "russia@players.example", pw("russia")),
            ("britain", britain.0.as_str(), britain.1.clone()),
        ];
        let senders: Vec<(&str, &str, &str)> = senders
            .iter()
            .map(|(p, f, w)| (*p, *f, w.as_str()))
            .collect();
        let inbox = mailbox(tmp.path(), turn, due, &senders);
        let out = run(
            &game,
            &["turn", "--mailbox", inbox.to_str().unwrap()],
            due + Duration::hours(1),
        );
        assert!(out.contains("4 accepted, 0 late"), "turn {turn}: {out}");
        if turn == 7 {
            // Turn 7 is played again: the referee filed an order wrongly. Its orders stay; its
            // reports and what came after go to the archive; a fresh secret is announced.
            let out = run(
                &game,
                &[
                    "rollback",
                    "--to-turn",
                    "7",
                    "--reason",
                    "an order filed wrongly",
                ],
                due + Duration::hours(2),
            );
            assert!(out.contains("archive/rollback-1"), "{out}");
            run(&game, &["send"], due + Duration::hours(2));
            run(&game, &["turn"], due + Duration::hours(3));
        }
    }
    assert!(game.join("turns/9/record.toml").is_file());
    assert!(game
        .join("archive/rollback-1/turns/7/record.toml")
        .is_file());

    let received = server.received();
    let mut seen = BTreeSet::new();
    for (n, (bytes, rcpts)) in received.iter().enumerate() {
        let text = String::from_utf8_lossy(bytes);
        assert_eq!(rcpts.len(), 1, "one recipient per transaction");
        let rcpt = &rcpts[0];
        let id = header_of(&text, "Message-ID").unwrap();
        assert!(
            seen.insert((id.clone(), rcpt.clone())),
            "{id} went twice to {rcpt}"
        );
        // The envelope is the one of its day.
        let to = header_of(&text, "To").unwrap();
        assert!(to.contains(rcpt.as_str()), "{id}: To {to}, sent to {rcpt}");
        assert!(
            !rcpt.ends_with("@example.org"),
            "{id} went to a placeholder {rcpt}"
        );
        assert!(!header_of(&text, "From").unwrap().contains(".invalid"));
        if n >= france_moved {
            assert_ne!(
                rcpt, "france@players.example",
                "{id} went to France's old address"
            );
        } else {
            assert_ne!(rcpt, "napoleon@new.example");
        }
        if n >= pitt_plays {
            assert_ne!(
                rcpt, "britain@players.example",
                "{id} went to Britain's old player"
            );
        }
    }
    // Every report of every turn reached its power, the replayed turn's included.
    for power in POWERS {
        for turn in 1..=9 {
            let subject_part = format!("turn {turn} (");
            assert!(
                received.iter().any(|(b, _)| {
                    let t = String::from_utf8_lossy(b);
                    header_of(&t, "Subject").is_some_and(|s| {
                        s.contains(&subject_part) && s.to_lowercase().contains("report for")
                    }) && t.contains(&format!("X-Pbem-To: power {power} turn {turn}"))
                }),
                "no report of turn {turn} for {power}"
            );
        }
    }
    let a = pbem().arg("audit").arg(&game).assert();
    assert!(
        a.get_output().status.success(),
        "{}",
        String::from_utf8_lossy(&a.get_output().stdout)
    );
    // A changed byte of an adjudication output is a mismatch.
    let log = game.join("turns/5/log.toml");
    let text = fs::read_to_string(&log).unwrap();
    fs::write(&log, text.replacen("turn = 5", "turn = 5 ", 1)).unwrap();
    pbem().arg("audit").arg(&game).assert().code(4);
}

#[test]
fn audit_of_a_game_played_by_mail_fails_when_a_report_byte_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Smtp::start(&tmp.path().join("server"), 300);
    let (game, passwords) = new_game(tmp.path(), server.port);
    // The first mail goes before the first deadline (`pbem send` refuses it after).
    run(&game, &["send"], deadline(1) - Duration::days(6));
    for turn in 1..=2 {
        let senders: Vec<(&str, String, &str)> = passwords
            .iter()
            .map(|(p, w)| (p.as_str(), format!("{p}@players.example"), w.as_str()))
            .collect();
        let senders: Vec<(&str, &str, &str)> = senders
            .iter()
            .map(|(p, f, w)| (*p, f.as_str(), *w))
            .collect();
        let inbox = mailbox(tmp.path(), turn, deadline(turn), &senders);
        run(
            &game,
            &["turn", "--mailbox", inbox.to_str().unwrap()],
            deadline(turn) + Duration::hours(1),
        );
    }
    pbem().arg("audit").arg(&game).assert().success();
    let report = game.join("turns/1/reports/austria.txt");
    let mut bytes = fs::read(&report).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    fs::write(&report, bytes).unwrap();
    pbem()
        .arg("audit")
        .arg(&game)
        .assert()
        .code(4)
        .stdout(predicates::str::contains("austria.txt"));
}
