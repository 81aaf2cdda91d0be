//! A file filed from mail stands by its `submission` line (issue 15.10): pbem files the orders of an
//! authenticated message without the password, naming the message instead, and the header check
//! (`orders::check_header_with`, through `rules::check_orders_with`) trusts the message's record in
//! `mail/received/<sha256>.toml`. This module reads that record for the four keys that decide it; the
//! record is written, with the rest of its keys, by the mail ingest (`mail::ingest::Received`), and
//! the test below keeps the two readings in step.

use std::path::PathBuf;

use serde::Deserialize;

use crate::diag::LineMap;
use crate::game::record::sha256_hex;
use crate::game::Game;

/// The keys of a received-message record that say whether a filed orders file stands.
#[derive(Deserialize)]
struct Filed {
    status: String,
    power: String,
    for_turn: u32,
    orders_sha256: String,
    /// The sender's address, normalised.
    #[serde(default)]
    from: String,
}

/// The keys of a received-message record that say what its sender sent, by the name he knows it
/// and the lines of his mail.
#[derive(Deserialize)]
struct Sent {
    #[serde(default)]
    subject: String,
    #[serde(default)]
    origin: String,
    /// `LineMap::runs`; absent in the records of a pbem before it.
    #[serde(default)]
    lines: String,
    #[serde(default)]
    orders_sha256: String,
}

/// How the player of a file filed from mail knows it: its name ([`sent_as`]) and the line of his
/// mail each of its lines is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentAs {
    pub name: String,
    pub lines: LineMap,
}

/// The longest a subject is shown as a name, in characters.
const SUBJECT_SHOWN: usize = 60;

/// The name a player knows orders he mailed by, which his answer and his report name their lines
/// by, never the referee's folder: the attachment's name when they came in one (`origin` is "the
/// attachment 'france.txt'", as the ingest records it), else his mail, by its subject (`your mail
/// "Orders, turn 3"`; `your mail` without one). One line, control characters as spaces.
pub fn sent_as(origin: &str, subject: &str) -> String {
    if let Some(name) = origin
        .strip_prefix("the attachment '")
        .and_then(|r| r.strip_suffix('\''))
    {
        return name.to_string();
    }
    let subject: String = subject
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let subject = subject.split_whitespace().collect::<Vec<_>>().join(" ");
    if subject.is_empty() {
        return "your mail".to_string();
    }
    let mut shown: String = subject.chars().take(SUBJECT_SHOWN).collect();
    if subject.chars().count() > SUBJECT_SHOWN {
        shown.push('…');
    }
    format!("your mail \"{shown}\"")
}

/// How the player of `bytes`, a file filed from mail, knows it ([`SentAs`]), from the record of
/// the message its `submission` line names: the name [`sent_as`] gives, and the lines of his mail
/// the record keeps when `bytes` are the file it filed (its digest), else the file's own. None when
/// that record cannot be read.
pub fn sent(game: &Game, message_sha: &str, bytes: &[u8]) -> Option<SentAs> {
    if message_sha.len() != 64 || !message_sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let path = record_path(game, &message_sha.to_ascii_lowercase());
    let src = crate::game::load::read_source(&path, &game.shown(&path)).ok()?;
    let r = crate::game::load::parse_toml::<Sent>(&src).ok()?;
    let lines = match r.orders_sha256 == sha256_hex(bytes) {
        true => LineMap::from_runs(&r.lines).unwrap_or_default(),
        false => LineMap::default(),
    };
    Some(SentAs {
        name: sent_as(&r.origin, &r.subject),
        lines,
    })
}

/// `mail/received/<sha256>.toml`, the record of the message `sha` (as `mail::ingest::record_path`).
fn record_path(game: &Game, sha: &str) -> PathBuf {
    game.dir
        .join("mail")
        .join("received")
        .join(format!("{sha}.toml"))
}

/// Whether `text`, an orders file of `power` for `turn`, is the file pbem filed from the
/// authenticated submission `message_sha`: its record says accepted or held, for this power and this
/// turn, with this file's digest.
pub fn stands_for(game: &Game, turn: u32, power: &str, message_sha: &str, text: &str) -> bool {
    filed(game, turn, power, message_sha, text).is_some()
}

/// [`stands_for`], in the state of the turn: a submission sent by a player who has left the power
/// since (EiA 19.2.1, `pbem drop`) no longer stands, even if it was filed before he left.
pub fn stands_in(
    game: &Game,
    state: &crate::game::state::State,
    power: &str,
    message_sha: &str,
    text: &str,
) -> bool {
    filed(game, state.turn, power, message_sha, text).is_some_and(|from| {
        !crate::game::owners::departed(&game.config, state, power)
            .iter()
            .any(|a| a.trim().eq_ignore_ascii_case(&from))
    })
}

/// The sender of the filed submission `message_sha` when it stands (see [`stands_for`]).
fn filed(game: &Game, turn: u32, power: &str, message_sha: &str, text: &str) -> Option<String> {
    if message_sha.len() != 64 || !message_sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let path = record_path(game, &message_sha.to_ascii_lowercase());
    let src = crate::game::load::read_source(&path, &game.shown(&path)).ok()?;
    let r = crate::game::load::parse_toml::<Filed>(&src).ok()?;
    (matches!(r.status.as_str(), "accepted" | "held")
        && r.power == power
        && r.for_turn == turn
        && r.orders_sha256 == sha256_hex(text.as_bytes()))
    .then_some(r.from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailed_orders_are_named_by_the_attachment_or_the_subject_never_a_path() {
        assert_eq!(sent_as("the attachment 'france.txt'", "x"), "france.txt");
        assert_eq!(
            sent_as("the body", "Orders\tfor  turn 3"),
            "your mail \"Orders for turn 3\""
        );
        assert_eq!(sent_as("the body", " "), "your mail");
        let long = "x".repeat(80);
        assert_eq!(
            sent_as("the body", &long),
            format!("your mail \"{}…\"", "x".repeat(60))
        );
    }
    use crate::mail::ingest::{record_path as ingest_record_path, Received, Status};
    use crate::rules::eia::test_fixture::Fixture;

    fn received(status: Status, power: &str, for_turn: u32, orders: &str) -> Received {
        Received {
            format: crate::mail::ingest::RECEIVED_FORMAT.into(),
            sha256: "ab".repeat(32),
            size: 1,
            message_id: String::new(),
            body_sha256: String::new(),
            from: String::new(),
            subject: String::new(),
            arrival: "2026-12-05T18:00:00Z".into(),
            arrival_from: "received".into(),
            source: String::new(),
            seq: 0,
            judged_at_turn: for_turn,
            status,
            power: power.into(),
            player: String::new(),
            for_turn,
            reasons: Vec::new(),
            origin: "the body".into(),
            lines: Default::default(),
            orders_sha256: sha256_hex(orders.as_bytes()),
            ack: String::new(),
            duplicate_of: String::new(),
        }
    }

    /// Issue 15.10: a filed file stands by the record the ingest writes (its keys read here as the
    /// ingest writes them), only when accepted or held, for its power, turn and digest.
    #[test]
    fn a_filed_file_stands_by_the_record_the_ingest_writes() {
        let mut fx = Fixture::new();
        let tmp = tempfile::tempdir().unwrap();
        fx.game.dir = tmp.path().to_path_buf();
        let sha = "ab".repeat(32);
        let path = record_path(&fx.game, &sha);
        assert_eq!(path, ingest_record_path(&fx.game, &sha));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let orders = "game x\nturn 3\npower france\n";
        let cases = [
            (Status::Accepted, "france", 3, true),
            (Status::Held, "france", 3, true),
            (Status::Late, "france", 3, false),
            (Status::Rejected, "france", 3, false),
            (Status::Accepted, "austria", 3, false),
            (Status::Accepted, "france", 4, false),
        ];
        for (status, power, turn, stands) in cases {
            let r = received(status, power, turn, orders);
            std::fs::write(&path, toml::to_string(&r).unwrap()).unwrap();
            assert_eq!(
                stands_for(&fx.game, 3, "france", &sha, orders),
                stands,
                "{status:?} {power} {turn}"
            );
        }
        // Another file, or a name that is not a digest, never stands.
        assert!(!stands_for(&fx.game, 3, "france", &sha, "game x\n"));
        assert!(!stands_for(&fx.game, 3, "france", "../x", orders));
    }
}
