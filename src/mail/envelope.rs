//! The envelope of an outgoing message, taken at send time (issue 13.1).
//!
//! What a message says (its subject, Message-ID, threading and body) is fixed when it is made, and that
//! is what the turn record lists and `audit` checks: [`content`] is a message without its envelope
//! (a report's mail kept in parts is listed by its outbox file, its layout's envelope left out
//! likewise: `outbox::kept_digest`).
//! Who it goes to, who it is from and its `Date:` are taken from the current `game.toml` (and the
//! state of the message's turn) when `pbem send` delivers it: [`address`] decides them from the
//! message's `X-Pbem-To` header, which names an audience rather than addresses:
//!
//! | `X-Pbem-To` | goes to |
//! |---|---|
//! | `power <id> turn <t>` | the power's players (and its controller's) as they are now |
//! | `power <id> turn <t> only` | the addresses of its `To` that are still the power's (an answer to its sender) |
//! | `referee` | the referee: `[mail] from` |
//! | none | its `To` as written (a message to a stranger) |
//!
//! A recipient that no longer exists (a power gone from game.toml, an address no longer a player's) is
//! reported and not sent.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::Mailbox;
use lettre::Message;

use crate::game::Game;

/// The header that names a message's audience.
pub const AUDIENCE: &str = "X-Pbem-To";

/// The header fields of the envelope, filled at send time.
const ENVELOPE_FIELDS: [&str; 4] = ["from", "to", "cc", "date"];

/// Who a message is for, as its `X-Pbem-To` header says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    /// Every current recipient of a power's mail, as of the state of a turn.
    Power {
        power: String,
        turn: u32,
    },
    /// The addresses written in `To` that are still recipients of the power.
    PowerOnly {
        power: String,
        turn: u32,
    },
    /// The player of a power (of one player of a power with several) alone, never its controller:
    /// the one who takes it over when a new player is waiting (EiA 19.2.2), else its players.
    Player {
        power: String,
        player: Option<String>,
        turn: u32,
    },
    Referee,
    /// `To` as written.
    AsWritten,
}

impl Audience {
    /// The header value.
    pub fn header(&self) -> Option<String> {
        match self {
            Audience::Power { power, turn } => Some(format!("power {power} turn {turn}")),
            Audience::PowerOnly { power, turn } => Some(format!("power {power} turn {turn} only")),
            Audience::Player {
                power,
                player,
                turn,
            } => Some(format!(
                "player {} turn {turn}",
                crate::game::command::file_stem(power, player.as_deref())
            )),
            Audience::Referee => Some("referee".into()),
            Audience::AsWritten => None,
        }
    }

    /// Reads a header value back; anything else is `AsWritten`.
    pub fn parse(value: Option<&str>) -> Audience {
        let Some(v) = value else {
            return Audience::AsWritten;
        };
        let words: Vec<&str> = v.split_whitespace().collect();
        match words.as_slice() {
            ["referee"] => Audience::Referee,
            ["player", stem, "turn", t] => match t.parse() {
                Ok(turn) => {
                    let (power, player) = match stem.split_once('.') {
                        Some((p, pl)) => (p.to_string(), Some(pl.to_string())),
                        None => (stem.to_string(), None),
                    };
                    Audience::Player {
                        power,
                        player,
                        turn,
                    }
                }
                Err(_) => Audience::AsWritten,
            },
            ["power", p, "turn", t] | ["power", p, "turn", t, "only"] => match t.parse() {
                Ok(turn) if words.len() == 4 => Audience::Power {
                    power: p.to_string(),
                    turn,
                },
                Ok(turn) => Audience::PowerOnly {
                    power: p.to_string(),
                    turn,
                },
                Err(_) => Audience::AsWritten,
            },
            _ => Audience::AsWritten,
        }
    }

    /// The `X-Pbem-To` header for lettre.
    pub fn lettre_header(&self) -> Option<HeaderValue> {
        self.header()
            .map(|v| HeaderValue::new(HeaderName::new_from_ascii_str(AUDIENCE), v))
    }
}

/// The header fields of a message, each with its folded continuation lines, and the body after them.
fn fields(bytes: &[u8]) -> (Vec<&[u8]>, &[u8]) {
    let mut out: Vec<&[u8]> = Vec::new();
    let mut at = 0;
    let mut start = 0;
    while at < bytes.len() {
        let end = bytes[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| at + i + 1);
        let line = &bytes[at..end];
        if line == b"\r\n" || line == b"\n" {
            if at > start {
                out.push(&bytes[start..at]);
            }
            return (out, &bytes[at..]);
        }
        let folded = line.first().is_some_and(|b| *b == b' ' || *b == b'\t');
        if !folded && at > start {
            out.push(&bytes[start..at]);
            start = at;
        }
        at = end;
    }
    if at > start {
        out.push(&bytes[start..at]);
    }
    (out, &[])
}

fn field_name(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == b':').unwrap_or(0);
    String::from_utf8_lossy(&field[..end])
        .trim()
        .to_ascii_lowercase()
}

/// A message without its envelope (`From`, `To`, `Cc`, `Date`): what it says.
pub fn content(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for piece in content_pieces(bytes) {
        out.extend_from_slice(piece);
    }
    out
}

/// What [`content`] joins: the header fields but the envelope's, then the body (hashed piece by
/// piece by [`content_digest`] and `outbox::kept_digest`, rather than over a copy: a report's mail
/// is megabytes).
pub fn content_pieces(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let (fields, body) = fields(bytes);
    fields
        .into_iter()
        .filter(|f| !ENVELOPE_FIELDS.contains(&field_name(f).as_str()))
        .chain(std::iter::once(body))
}

/// SHA-256 of what a message says, [`content`]: the digest the turn record lists for an outbox
/// file that holds a message whole (`outbox::kept_digest`).
pub fn content_digest(bytes: &[u8]) -> String {
    use sha2::Digest;
    let mut hash = sha2::Sha256::new();
    for piece in content_pieces(bytes) {
        hash.update(piece);
    }
    hex::encode(hash.finalize())
}

/// The value of one header field (unfolded), if the message has it.
pub fn header(bytes: &[u8], name: &str) -> Option<String> {
    let (fields, _) = fields(bytes);
    fields.into_iter().find_map(|f| {
        if field_name(f) != name.to_ascii_lowercase() {
            return None;
        }
        let text = String::from_utf8_lossy(f);
        let value = text.split_once(':')?.1;
        Some(value.split_whitespace().collect::<Vec<_>>().join(" "))
    })
}

/// Who a message goes to now, and who it no longer can.
#[derive(Debug, Clone, Default)]
pub struct Addressed {
    pub to: Vec<String>,
    /// Recipients the message had that no longer exist, with why.
    pub gone: Vec<String>,
}

/// The states read to address messages, by turn, so that a run reads each once.
pub type States = std::collections::BTreeMap<u32, Option<crate::game::state::State>>;

/// The recipients of an outbox message as of now (see the module doc). `written` is its `To`.
pub fn address(game: &Game, bytes: &[u8], written: &[String]) -> Addressed {
    address_with(game, bytes, written, &mut States::new())
}

/// As [`address`], with the states already read.
pub fn address_with(
    game: &Game,
    bytes: &[u8],
    written: &[String],
    states: &mut States,
) -> Addressed {
    let audience = Audience::parse(header(bytes, AUDIENCE).as_deref());
    let mut out = Addressed::default();
    match audience {
        Audience::AsWritten => out.to = written.to_vec(),
        Audience::Referee => out.to = vec![referee_address(game)],
        Audience::Power { power, .. }
        | Audience::PowerOnly { power, .. }
        | Audience::Player { power, .. }
            if game.config.power(&power).is_none() =>
        {
            out.gone.push(format!(
                "the power '{power}' is no longer in game.toml: nobody to send it to"
            ));
        }
        Audience::Power { power, turn } => out.to = power_recipients(game, &power, turn, states),
        Audience::Player {
            power,
            player,
            turn,
        } => {
            out.to = player_recipients(game, &power, player.as_deref(), turn, states);
            if out.to.is_empty() {
                out.gone.push(format!(
                    "{} has no such player in game.toml: nobody to send it to",
                    crate::game::command::file_stem(&power, player.as_deref())
                ));
            }
        }
        Audience::PowerOnly { power, turn } => {
            let mut now = power_recipients(game, &power, turn, states);
            // A player who left a dropped power (EiA 19.2.1) still gets the answers written to
            // him alone: the one that tells him he no longer plays it.
            if let Some(Some(s)) = states.get(&turn) {
                now.extend(crate::game::owners::departed(&game.config, s, &power));
            }
            for a in written {
                if now.iter().any(|n| n.eq_ignore_ascii_case(a)) {
                    out.to.push(a.clone());
                } else {
                    out.gone.push(format!(
                        "{a} is no longer an address of {power} (game.toml): not sent there"
                    ));
                }
            }
        }
    }
    out
}

/// A power's recipients now: its players as game.toml says now, by the state of `turn` (or the latest
/// state there is) for who replaced or controls whom.
fn power_recipients(game: &Game, power: &str, turn: u32, states: &mut States) -> Vec<String> {
    let state = states.entry(turn).or_insert_with(|| {
        game.load_state(turn)
            .or_else(|_| game.current_turn().and_then(|t| game.load_state(t)))
            .ok()
    });
    match state {
        Some(s) => crate::engine::players::recipients(&game.config, s, power),
        None => game
            .config
            .power(power)
            .map(|p| p.addresses_at(turn))
            .unwrap_or_default(),
    }
}

/// The player of a power now, never its controller: one player of a power with several at his own
/// address; else the new player waiting to take it over (EiA 19.2.2), else its players.
fn player_recipients(
    game: &Game,
    power: &str,
    player: Option<&str>,
    turn: u32,
    states: &mut States,
) -> Vec<String> {
    let Some(config) = game.config.power(power) else {
        return Vec::new();
    };
    if let Some(id) = player {
        return config
            .command(id)
            .map(|c| vec![c.at(turn).address])
            .unwrap_or_default();
    }
    let state = states.entry(turn).or_insert_with(|| {
        game.load_state(turn)
            .or_else(|_| game.current_turn().and_then(|t| game.load_state(t)))
            .ok()
    });
    match state {
        Some(s) => match s.incoming.get(power) {
            Some(incoming) => incoming.players.clone(),
            None => crate::engine::players::players_of(&game.config, s, power),
        },
        None => config.addresses_at(turn),
    }
}

/// The referee's own address (`[mail] from`, without its display name).
fn referee_address(game: &Game) -> String {
    let from = game.config.mail_from();
    from.parse::<Mailbox>()
        .map(|m| m.email.to_string())
        .unwrap_or(from)
}

/// The message as it goes out: the envelope of now (`From` of `[mail] from`, `To` the recipients, `Date`
/// the moment of sending) before what it says.
pub fn with_envelope(
    bytes: &[u8],
    from: &Mailbox,
    to: &[String],
    date: DateTime<Utc>,
) -> Result<Vec<u8>> {
    let mut b = Message::builder().from(from.clone()).date(date.into());
    for t in to {
        b = b.to(t
            .parse()
            .with_context(|| format!("'{t}' is not an e-mail address"))?);
    }
    let head = b.body(String::new())?.formatted();
    let (head_fields, _) = fields(&head);
    let mut out = Vec::with_capacity(bytes.len() + 200);
    for f in head_fields {
        if ENVELOPE_FIELDS.contains(&field_name(f).as_str()) {
            out.extend_from_slice(f);
        }
    }
    out.extend_from_slice(&content(bytes));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSG: &[u8] = b"From: a <a@x.org>\r\nSubject: hi\r\nTo: b@x.org,\r\n c@x.org\r\nDate: Mon, 1 Jan 2001 00:00:00 +0000\r\nX-Pbem-To: power france turn 3 only\r\n\r\nbody\r\nFrom: not a header\r\n";

    #[test]
    fn content_leaves_out_the_envelope_and_nothing_else() {
        assert_eq!(
            content(MSG),
            b"Subject: hi\r\nX-Pbem-To: power france turn 3 only\r\n\r\nbody\r\nFrom: not a header\r\n"
        );
        assert_eq!(header(MSG, "to").as_deref(), Some("b@x.org, c@x.org"));
    }

    /// The digest, hashed piece by piece, is the SHA-256 of the content: with a folded envelope
    /// field, with no body, with no header.
    #[test]
    fn content_digest_is_the_sha256_of_the_content() {
        for msg in [
            MSG,
            b"To: a@x.org,\r\n b@x.org\r\nSubject: s\r\n",
            b"\r\nbody",
            b"",
        ] {
            assert_eq!(
                content_digest(msg),
                crate::game::record::sha256_hex(&content(msg)),
                "{msg:?}"
            );
        }
    }

    #[test]
    fn audiences_read_back_what_they_write() {
        for a in [
            Audience::Power {
                power: "france".into(),
                turn: 3,
            },
            Audience::PowerOnly {
                power: "great-britain".into(),
                turn: 12,
            },
            Audience::Referee,
        ] {
            assert_eq!(Audience::parse(a.header().as_deref()), a);
        }
        assert_eq!(Audience::parse(Some("power x turn y")), Audience::AsWritten);
    }

    #[test]
    fn the_envelope_of_now_comes_first() {
        let from: Mailbox = "Ref <ref@x.org>".parse().unwrap();
        let out = with_envelope(MSG, &from, &["new@x.org".into()], DateTime::UNIX_EPOCH).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("From: Ref <ref@x.org>\r\nDate: Thu, 01 Jan 1970 00:00:00 +0000\r\nTo: new@x.org\r\nSubject: hi\r\n"), "{text}");
    }
}
