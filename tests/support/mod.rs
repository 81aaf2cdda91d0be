//! Helpers shared by the tests through the binary: the demo game resolved or not, a fresh game at turn
//! 1, messages shaped as mail, file edits and file trees to compare.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The demo game's public passwords (games/ulm-1805/game.toml).
pub const FRANCE_PW: &str = "eagle-1805";
pub const AUSTRIA_PW: &str = "danube-1805";
pub const RUSSIA_PW: &str = "bear-1805";
pub const BRITAIN_PW: &str = "trident-1805";

pub fn pbem() -> Command {
    let mut c = Command::cargo_bin("pbem").expect("binary built");
    c.env_remove("PBEM_CRASH_BEFORE");
    // The clock of every test: after every deadline of the bundled games (a test of what happens
    // before a deadline sets its own).
    c.env("PBEM_NOW", AFTER_EVERY_DEADLINE);
    c
}

/// A moment after every deadline of the bundled games.
pub const AFTER_EVERY_DEADLINE: &str = "2100-01-01T00:00:00Z";

/// The demo game resolved (turn 1) in a new temporary folder: (tempdir, game folder).
pub fn demo() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    pbem()
        .args(["demo", "--dir"])
        .arg(tmp.path().join("d"))
        .assert()
        .success();
    let game = tmp.path().join("d").join("ulm-1805");
    (tmp, game)
}

/// The demo game before turn 1 is resolved: resolved, then its record removed, so it resolves again.
pub fn unresolved_demo() -> (tempfile::TempDir, PathBuf) {
    let (t, game) = demo();
    fs::remove_file(game.join("turns/1/record.toml")).unwrap();
    (t, game)
}

/// Replaces the first `from` in a file by `to`; the file must hold `from`.
pub fn edit(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no '{from}'", path.display());
    fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// The bundled ulm-1805 scenario in a new temporary folder, at turn 1 (deadline Sunday 2026-12-06
/// 20:00 Vienna time), with no orders: (tempdir, game folder).
pub fn game() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ulm-1805");
    pbem::bundled::write_scenario("ulm-1805", &dir).unwrap();
    (tmp, dir)
}

/// The bundled Paths of Glory scenario pog-1914 in a new temporary folder, at its first action.
pub fn pog_game() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pog-1914");
    pbem::bundled::write_scenario("pog-1914", &dir).unwrap();
    (tmp, dir)
}

/// What `pbem check --forecast <game> <orders>` prints; the check must pass.
pub fn forecast(game: &Path, orders: &Path) -> String {
    checked(game, orders, &["--forecast"])
}

/// What `pbem check` prints of an orders file whose every line it accepts (exit 0), warnings among
/// it.
pub fn accepted(game: &Path, orders: &Path) -> String {
    checked(game, orders, &[])
}

/// What `pbem check <options> <game> <orders>` prints; the check must pass.
fn checked(game: &Path, orders: &Path, options: &[&str]) -> String {
    let out = pbem()
        .arg("check")
        .args(options)
        .arg(game)
        .arg(orders)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// What `pbem check` prints (its output and its errors) of an orders file it rejects a line of
/// (exit 3).
pub fn rejected(game: &Path, orders: &Path) -> String {
    let out = pbem()
        .arg("check")
        .arg(game)
        .arg(orders)
        .assert()
        .code(3)
        .get_output()
        .clone();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Appends TOML to the game's game.toml (a `[mail]` table, for instance).
pub fn add_to_config(game: &Path, toml: &str) {
    let path = game.join("game.toml");
    let mut text = fs::read_to_string(&path).unwrap();
    text.push('\n');
    text.push_str(toml);
    fs::write(path, text).unwrap();
}

/// Appends a `[dice]` table to game.toml as if the game had been made with it: the scheme fixed
/// with each unresolved turn's commitment (`turns/<t>/scheme.toml`) is fixed anew under it.
pub fn set_dice(game: &Path, toml: &str) {
    add_to_config(game, toml);
    let loaded = load(game);
    for entry in fs::read_dir(game.join("turns")).unwrap() {
        let dir = entry.unwrap().path();
        let Some(turn) = dir
            .file_name()
            .and_then(|n| n.to_str()?.parse::<u32>().ok())
        else {
            continue;
        };
        if dir.join("commitment").is_file() && !dir.join("record.toml").is_file() {
            let c = fs::read_to_string(dir.join("commitment")).unwrap();
            let _ = fs::remove_file(dir.join("scheme.toml"));
            pbem::game::scheme::fix(&loaded, turn, c.trim()).unwrap();
        }
    }
}

/// Sets a key of the [deadline] table (late_orders = "hold", for instance).
pub fn set_deadline_key(game: &Path, key: &str, value: &str) {
    let path = game.join("game.toml");
    let text = fs::read_to_string(&path).unwrap();
    let mut out = String::new();
    let mut done = false;
    for line in text.lines() {
        if line.starts_with(&format!("{key} ")) || line.starts_with(&format!("{key}=")) {
            out.push_str(&format!("{key} = {value}\n"));
            done = true;
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(done, "no {key} in game.toml");
    fs::write(path, out).unwrap();
}

pub fn load(game: &Path) -> pbem::game::Game {
    pbem::game::Game::load(game).unwrap()
}

/// The orders header of a power for turn `turn` of ulm-1805.
pub fn header(power: &str, password: &str, turn: u32) -> String {
    format!("game ulm-1805\npower {power}\npassword {password}\nturn {turn}\n")
}

/// A plain-text message with the referee's own Received header dated `received` (RFC 5322 date).
pub fn eml(from: &str, received: &str, id: &str, body: &str) -> String {
    format!(
        "Received: from mail.example.net by mx.referee.example (Postfix) with ESMTPS id X1;\r\n\t{received}\r\n\
         From: {from}\r\nTo: referee@referee.example\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n\
         Date: Mon, 1 Jan 2001 00:00:00 +0000\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, text).unwrap();
    path
}

/// Every file under `dir`, relative path to bytes, sorted (the lock file left out).
pub fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().unwrap() != ".lock" {
                out.push((
                    p.strip_prefix(dir).unwrap().to_string_lossy().into_owned(),
                    fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// The messages of the outbox, by name: its files and the messages of its batches (an ingest run's
/// answers, `outbox_store`).
pub fn outbox(game: &Path) -> Vec<(String, String)> {
    pbem::mail::outbox_store::read_all(&game.join("mail/outbox"))
        .unwrap()
        .into_iter()
        .map(|(n, b)| (n, String::from_utf8(b).unwrap()))
        .collect()
}

/// The acknowledgements in the outbox.
pub fn acks(game: &Path) -> Vec<(String, String)> {
    outbox(game)
        .into_iter()
        .filter(|(n, _)| n.contains("-ack-"))
        .collect()
}

/// The value of a header of a rendered message (first occurrence, unfolded).
pub fn header_of(eml: &str, name: &str) -> Option<String> {
    let head = eml.split("\r\n\r\n").next().unwrap_or(eml);
    let mut value: Option<String> = None;
    for line in head.split("\r\n") {
        if let Some(v) = &mut value {
            if line.starts_with(' ') || line.starts_with('\t') {
                v.push_str(line.trim_start());
                continue;
            }
            break;
        }
        if let Some((n, v)) = line.split_once(':') {
            if n.eq_ignore_ascii_case(name) {
                value = Some(v.trim().to_string());
            }
        }
    }
    value
}

/// The text of a rendered message's body, decoded (through pbem's own mail-parser adapter).
pub fn body_of(eml: &str) -> String {
    let m = pbem::mail::parse::parse(eml.as_bytes()).expect("a message");
    m.parts
        .iter()
        .find_map(|p| match &p.content {
            pbem::mail::parse::Content::Text(t) => Some(t.replace("\r\n", "\n")),
            _ => None,
        })
        .unwrap_or_default()
}

/// Runs a library call that takes the game lock, trying again for a moment while the lock is busy.
///
/// Only a test needs this: while one test thread holds a game's lock, another may spawn a `pbem`
/// process, and the child holds a copy of the lock's file descriptor until it execs, so that taking the
/// lock again at once can fail spuriously. A single-threaded `pbem` never sees this.
pub fn locked<T>(f: impl Fn() -> anyhow::Result<T>) -> T {
    for _ in 0..100 {
        match f() {
            Ok(v) => return v,
            Err(e)
                if e.to_string()
                    .contains("another pbem is working on this game") =>
            {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) => panic!("{e:#}"),
        }
    }
    panic!("the game lock stayed busy")
}
pub mod certs;
pub mod orders_property;
pub mod peak;
pub mod smtp;
pub mod wrapped;

/// Every roll of a resolution's `events` holds to its ruleset's grammar of labels, every event of a
/// kind that always rolls lists a roll, and every number its text gives as a die is one of its faces
/// (`pbem::dice::labels::check_events`, what `pbem verify` checks of a report).
pub fn labels_hold(
    game: &pbem::game::Game,
    state: &pbem::game::state::State,
    events: &[pbem::engine::event::Event],
) -> Result<(), String> {
    let grammar =
        pbem::rules::label_grammar(game.ruleset.id()).expect("every ruleset has a grammar");
    let shown = pbem::dice::labels::Shown {
        places: Some(game.map.areas.iter().map(|a| a.id.clone()).collect()),
        powers: Some(game.config.power_ids().map(str::to_string).collect()),
        turn: state.turn,
    };
    let problems = pbem::dice::labels::check_events(grammar, events, &shown);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// Every roll of a resolution's `events` reaches a player: an event that carries it is shown to some
/// power, or the roll is sealed (counted and committed in the header, published by `pbem unseal`).
/// A roll may stand under an event the referee alone reads (GITM's battle told whole, with both
/// sides' figures) when the words a side is told carry it too.
pub fn rolls_shown_or_sealed(events: &[pbem::engine::event::Event]) -> Result<(), String> {
    let shown: std::collections::BTreeSet<&str> = events
        .iter()
        .filter(|e| !e.visible_to.is_empty())
        .flat_map(|e| e.rolls.iter().map(|r| r.label.as_str()))
        .collect();
    let hidden: Vec<String> = events
        .iter()
        .filter(|e| e.visible_to.is_empty())
        .flat_map(|e| e.rolls.iter().filter(|r| !r.sealed))
        .filter(|r| !shown.contains(r.label.as_str()))
        .map(|r| r.label.clone())
        .collect();
    if hidden.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "rolls in no report and not sealed: {}",
            hidden.join(", ")
        ))
    }
}

/// The message of an outbox file, whole: a report's mail is kept in the outbox without the bodies
/// its report files hold, and made whole from them (`pbem::mail::outbox::PARTS_FORMAT`).
pub fn read_outbox(path: impl AsRef<Path>) -> Vec<u8> {
    pbem::mail::outbox_store::read_file(path.as_ref()).unwrap()
}

/// [`read_outbox`] as text.
pub fn read_outbox_string(path: impl AsRef<Path>) -> String {
    String::from_utf8(read_outbox(path)).unwrap()
}

/// `text` sent on by a mail client in a mail of its own as `format=flowed` (RFC 3676), as a client
/// forwards a report inline: lines over 72 characters broken at a space (the space kept, a soft
/// break), a line that opens with a space, `>` or `From ` space-stuffed.
pub fn flowed_forward(text: &str) -> Vec<u8> {
    let mut body = String::new();
    for line in text.lines() {
        let mut line = if line.starts_with([' ', '>']) || line.starts_with("From ") {
            format!(" {line}")
        } else {
            line.to_string()
        };
        while line.len() > 72 {
            let Some(cut) = line[..72].rfind(' ').filter(|&c| c > 0) else {
                break;
            };
            body.push_str(&line[..=cut]);
            body.push_str("\r\n");
            line = line[cut + 1..].to_string();
        }
        body.push_str(&line);
        body.push_str("\r\n");
    }
    format!(
        "From: france@example.org\r\nTo: auditor@example.org\r\nSubject: Fwd: my report\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8; format=flowed\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n{body}"
    )
    .into_bytes()
}

/// The messages `pbem send --folder` delivered to `address` in the folder `sent`, by file name.
pub fn delivered(sent: &Path, address: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(sent.join(address))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}
