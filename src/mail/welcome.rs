//! The welcome mail: all a player needs to start, or to take over a power (`pbem new`, `pbem
//! replace`). His power and the game, his password (this once), where his power stands (the opening
//! report, `report::opening`, or for a replacement the power's last report) in text and JSON, so that
//! his own `pbem check --report` works from his first orders, the order guide of his game's ruleset
//! (`report::guide`) with pbem's page on that ruleset, the blank orders form with his units, and how to check his rolls
//! (templates/welcome.txt.j2).
//!
//! The password is in the outbox copy only until the message has reached every recipient: the
//! message is made with [`PASSWORD_SLOT`] in its place (its Message-ID is a digest of that text),
//! the password goes into the bytes written (mode 0600), and `pbem send` puts the slot back once the
//! message is delivered ([`mask_delivered`]), so that no password stays at rest in the game folder.

use anyhow::{bail, Context, Result};

use super::outbox::{self, Attached, Kind, Outgoing};
use crate::game::state::State;
use crate::game::Game;

/// What stands for the password in the welcome's text: the line `password <password>` written
/// whole in stars, neither the word nor the password's length shown.
pub const PASSWORD_SLOT: &str = "password ********";

/// The page a player opens in his browser to check his rolls (`verify_page`), with the grammar of
/// his game's dice labels alone, attached to every welcome; the welcome also names `pbem verify` for a player who has pbem.
pub const VERIFY_PAGE: Option<&str> = Some(crate::verify_page::FILE_NAME);

/// How the player joins the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joining {
    /// A player of a new game (`pbem new`).
    NewGame,
    /// A new player who takes the power over at turn `from` (`pbem replace`, EiA 19.2.2).
    Replacing { from: u32 },
}

/// Where the welcomes of one turn stand: its state and what every power's opening report shares.
pub struct Start<'a> {
    pub state: &'a State,
    pub shared: crate::report::TurnSight,
}

impl<'a> Start<'a> {
    pub fn new(game: &Game, state: &'a State) -> Start<'a> {
        Start {
            state,
            shared: crate::report::TurnSight::new(game, state),
        }
    }
}

/// The welcome of the player of `power` (of `player` of a power with several) at the start of
/// `start`'s turn, addressed to `to`. Its file is unique by `key` among the welcomes of the power
/// and turn. Write it with [`write`], which puts the password in.
pub fn welcome(
    game: &Game,
    start: &Start,
    power: &str,
    player: Option<&str>,
    joining: Joining,
    key: &str,
    to: Vec<String>,
) -> Result<Outgoing> {
    let turn = start.state.turn;
    let tag = &game.config.game;
    let commitment = game.commitment(turn)?;
    let opening = crate::report::opening::opening(
        game,
        start.state,
        &start.shared,
        power,
        player,
        &commitment,
    )?;
    let stem = crate::game::command::file_stem(power, player);
    let replacing = matches!(joining, Joining::Replacing { .. });
    let from_turn = match joining {
        Joining::Replacing { from } => from,
        Joining::NewGame => turn,
    };
    let ruleset = game.ruleset.id();
    let guide = crate::report::guide::guide(ruleset)
        .with_context(|| format!("ORDERS.md has no part for the ruleset '{ruleset}'"))?;
    let guide_name = crate::report::guide::file_name(ruleset);
    let mut attachments = vec![Attached {
        name: guide_name.clone(),
        content_type: "text/markdown; charset=utf-8".into(),
        bytes: guide.into_bytes(),
        inline: None,
    }];
    // pbem's page on the ruleset, which the guide cites (what is implemented, pbem's own rules).
    let rules_name = crate::report::guide::rules_page(ruleset).map(|page| {
        let name = crate::report::guide::rules_file_name(ruleset);
        attachments.push(Attached {
            name: name.clone(),
            content_type: "text/markdown; charset=utf-8".into(),
            bytes: page.into_bytes(),
            inline: None,
        });
        name
    });
    // A replacement gets the power's last report, as its player got it, when a turn was resolved.
    let last = replacing
        .then(|| turn.checked_sub(1))
        .flatten()
        .filter(|t| *t >= game.config.first_turn && game.is_resolved(*t))
        .and_then(|t| {
            let dir = game.reports_dir(t);
            let text = std::fs::read(dir.join(format!("{stem}.txt"))).ok()?;
            let json = std::fs::read(dir.join(format!("{stem}.json"))).ok()?;
            Some((t, text, json))
        });
    let (json_name, json, last_text) = match last {
        Some((t, text, json)) => {
            let text_name = format!("{tag}-turn{t}-{stem}.txt");
            attachments.push(Attached {
                name: text_name.clone(),
                content_type: "text/plain; charset=utf-8".into(),
                bytes: text,
                inline: None,
            });
            (format!("{tag}-turn{t}-{stem}.json"), json, Some(text_name))
        }
        None => (
            format!("{tag}-turn{turn}-{stem}-opening.json"),
            opening.json.into_bytes(),
            None,
        ),
    };
    attachments.push(Attached {
        name: json_name.clone(),
        content_type: "application/json".into(),
        bytes: json,
        inline: None,
    });
    let map_name = format!("{tag}-turn{turn}-{stem}.svg");
    attachments.push(Attached {
        name: map_name.clone(),
        content_type: "image/svg+xml".into(),
        bytes: opening.svg.into_bytes(),
        inline: None,
    });
    if let Some(page) = VERIFY_PAGE {
        attachments.push(Attached {
            name: page.to_string(),
            content_type: "text/html".into(),
            bytes: crate::verify_page::verify_page_for(ruleset)
                .as_bytes()
                .to_vec(),
            inline: None,
        });
    }
    use minijinja::Value;
    let values = crate::report::values::ReportValues::new(opening.view.clone())
        .with("password_line", Value::from(PASSWORD_SLOT))
        .with("replacing", Value::from(replacing))
        .with("from_turn", Value::from(from_turn))
        // EiA 19.2.2's words (the economic phase, the talks) for a ruleset that has them alone:
        // a new player of another game is told the turn he takes over at, no rule of EiA.
        .with(
            "economic_phase",
            Value::from(game.ruleset.new_player_named()),
        )
        .with("guide", Value::from(guide_name))
        .with("rules", Value::from(rules_name))
        .with("json", Value::from(json_name))
        .with("map", Value::from(map_name))
        .with("last_text", Value::from(last_text))
        .with("verify_page", Value::from(VERIFY_PAGE))
        .with("texts", Value::from(crate::report::header::TEXTS));
    let text = crate::report::templates::render(game, "welcome.txt", &values.context())?;
    let whom = match player {
        Some(p) => format!("{} ({p})", opening.view.power_name),
        None => opening.view.power_name.clone(),
    };
    Ok(Outgoing {
        kind: Kind::Welcome,
        turn,
        power: Some(power.to_string()),
        player: player.map(str::to_string),
        key: key.to_string(),
        to,
        subject: format!("[{tag}] Welcome: you play {whom} in {}", game.config.title),
        text,
        html: None,
        attachments,
        in_reply_to: None,
        date: outbox::game_instant(game, turn.saturating_sub(1).max(game.config.first_turn)),
    })
}

/// Where [`PASSWORD_SLOT`] stands as a line of its own in a rendered welcome: the text's password
/// line, never a mention of it inside a line (the order guide attached says that the line is shown
/// so, and its quoted-printable lines fall wherever the guide's length puts them).
fn slot_lines(bytes: &[u8]) -> Vec<usize> {
    let slot = PASSWORD_SLOT.as_bytes();
    memchr::memmem::find_iter(bytes, slot)
        .filter(|&at| {
            let after = &bytes[at + slot.len()..];
            let line_start = bytes[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |n| n + 1);
            bytes[line_start..at]
                .iter()
                .all(|&b| b == b' ' || b == b'\t')
                && (after.starts_with(b"\r\n") || after.starts_with(b"\n"))
        })
        .collect()
}

/// Writes the welcome `m` into the outbox with `password` in the place of [`PASSWORD_SLOT`], only
/// the owner may read it (0600) until `pbem send` masks it again. A welcome over `[mail]
/// max_outgoing_bytes` goes without what does not fit (`fit::fit_attachments`), its text and
/// password always; how it was cut is returned, for the referee.
pub fn write(game: &Game, m: &Outgoing, password: &str) -> Result<Option<super::fit::Trimmed>> {
    if password.is_empty() || !password.bytes().all(is_password_byte) {
        bail!("a password pbem made has characters it never makes");
    }
    // The password takes more room than its slot.
    let longer = format!("password {password}")
        .len()
        .saturating_sub(PASSWORD_SLOT.len());
    let cap = usize::try_from(game.config.mail.max_outgoing_bytes)
        .unwrap_or(usize::MAX)
        .saturating_sub(longer);
    let (bytes, trimmed) =
        super::fit::fit_attachments(m, cap, "Ask the referee for what you miss.", &mut |m| {
            m.render(game)
        })?;
    let slot = PASSWORD_SLOT.as_bytes();
    let at = slot_lines(&bytes);
    if at.len() != 1 {
        bail!(
            "the welcome of {} holds the password line {} times: a game's own templates/welcome.txt.j2 must show {{{{ password_line }}}} once",
            m.power.as_deref().unwrap_or("?"),
            at.len()
        );
    }
    let mut out = Vec::with_capacity(bytes.len() + password.len());
    out.extend_from_slice(&bytes[..at[0]]);
    out.extend_from_slice(format!("password {password}").as_bytes());
    out.extend_from_slice(&bytes[at[0] + slot.len()..]);
    outbox::note_written(game, &[m.file_name()])?;
    crate::game::fsio::write_atomic_mode(&outbox::path_of(game, m), &out, Some(0o600))?;
    let trimmed = trimmed.map(|mut t| {
        t.full += longer;
        t.sent += longer;
        t.cap += longer;
        t
    });
    if let Some(t) = &trimmed {
        crate::say_err!(
            "warning: {} cut to size: {} (pbem mail/size)",
            m.file_name(),
            t.describe()
        );
    }
    Ok(trimmed)
}

/// The bytes a password pbem makes is written with (`auth::fresh_password`), which mail carries as
/// they are in any transfer encoding.
fn is_password_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-'
}

/// Where a welcome's bytes hold a password line: the byte range of each password (after
/// `password `, before the line's CRLF), which pbem's passwords are written in whatever the transfer
/// encoding.
fn password_spans(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let word = b"password ";
    let mut out = Vec::new();
    for i in memchr::memmem::find_iter(bytes, word) {
        let start = i + word.len();
        let n = bytes[start..]
            .iter()
            .take_while(|b| is_password_byte(**b))
            .count();
        let line_start = i == 0 || bytes[i - 1] == b'\n' || bytes[i - 1] == b' ';
        if line_start && n > 0 && bytes[start + n..].starts_with(b"\r\n") {
            out.push(start..start + n);
        }
    }
    out
}

/// A welcome's bytes with its password line put back to [`PASSWORD_SLOT`], or `None` when it holds
/// none.
pub fn masked(bytes: &[u8]) -> Option<Vec<u8>> {
    let spans = password_spans(bytes);
    if spans.is_empty() {
        return None;
    }
    let stars = &PASSWORD_SLOT.as_bytes()["password ".len()..];
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    for s in spans {
        out.extend_from_slice(&bytes[at..s.start]);
        out.extend_from_slice(stars);
        at = s.end;
    }
    out.extend_from_slice(&bytes[at..]);
    Some(out)
}

/// The password a welcome not yet delivered holds.
fn password_in(bytes: &[u8]) -> Option<String> {
    let spans = password_spans(bytes);
    let first = spans.first()?;
    String::from_utf8(bytes[first.clone()].to_vec()).ok()
}

/// The first turn's mail of a new game, made again from game.toml as it is now when none of it has
/// been sent: the announcements and the welcomes of its players (with the passwords they hold).
/// So the referee's edits after `pbem new` (the title, the deadline, `[mail]`) reach the players.
/// Nothing is made again once any turn is resolved, nor a message already delivered to anyone.
/// `never_sent(file)` says whether an outbox file was never delivered to anyone (`send`'s ledger).
/// Returns how many messages were made again.
pub fn refresh_first_turn(game: &Game, never_sent: &dyn Fn(&str) -> bool) -> Result<usize> {
    let first = game.config.first_turn;
    if game.current_turn()? != first {
        return Ok(0);
    }
    let unsent = |m: &Outgoing| -> Result<bool> {
        Ok(never_sent(&m.file_name()) && outbox::path_of(game, m).is_file())
    };
    let state = game.load_state(first)?;
    let commitment = crate::dice::to_hex(&game.commitment(first)?);
    let start = Start::new(game, &state);
    let mut made = 0;
    for m in outbox::announcements(game, first, &commitment, &state)? {
        if unsent(&m)? {
            let path = outbox::path_of(game, &m);
            let bytes = m.render(game)?;
            if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
                crate::game::fsio::write_atomic(&path, &bytes)?;
                made += 1;
            }
        }
    }
    for p in &game.config.powers {
        let players: Vec<Option<&str>> = if p.has_commands() {
            p.commands.iter().map(|c| Some(c.id.as_str())).collect()
        } else {
            vec![None]
        };
        for player in players {
            let to = match player {
                Some(id) => p
                    .command(id)
                    .map(|c| vec![c.at(first).address])
                    .unwrap_or_default(),
                None => p.addresses_at(first),
            };
            let m = welcome(
                game,
                &start,
                &p.id,
                player,
                Joining::NewGame,
                player.unwrap_or_default(),
                to,
            )?;
            if !unsent(&m)? {
                continue;
            }
            let path = outbox::path_of(game, &m);
            let old = std::fs::read(&path)
                .with_context(|| format!("cannot read {}", game.shown(&path)))?;
            let Some(password) = password_in(&old) else {
                continue;
            };
            write(game, &m, &password)?;
            if std::fs::read(&path).ok().as_deref() != Some(&old[..]) {
                made += 1;
            }
        }
    }
    Ok(made)
}

/// Whether outbox file `file` is a welcome (`t0001-welcome-france.eml`).
pub fn is_welcome(file: &str) -> bool {
    file.split_once('-')
        .is_some_and(|(_, rest)| rest.starts_with("welcome-"))
}

/// Puts the slot back in the place of the password of welcome `file`, delivered to every
/// recipient: the game folder keeps no password once it has reached its player.
pub fn mask_delivered(game: &Game, file: &str) -> Result<()> {
    let path = outbox::dir(game).join(file);
    let bytes =
        std::fs::read(&path).with_context(|| format!("cannot read {}", game.shown(&path)))?;
    if let Some(out) = masked(&bytes) {
        crate::game::fsio::write_atomic_mode(&path, &out, Some(0o600))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_slot_is_the_line_of_its_own_never_the_guides_mention_of_it() {
        let mail = b"Subject: x\r\n\r\nYOUR PASSWORD\r\n    password ********\r\n--b\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nthe line is shown as `password ********`,=0A=\r\npassword ******** =\r\n";
        let at = slot_lines(mail);
        assert_eq!(at, [33], "{:?}", String::from_utf8_lossy(&mail[at[0]..]));
    }

    #[test]
    fn the_password_line_is_masked_whole_and_nothing_else() {
        let mail = b"Subject: x\r\n\r\nYOUR PASSWORD\r\n    password abcd-23ef-gh45-jkmn\r\n\r\npassword <your password>\r\nthe password is yours\r\n";
        let out = masked(mail).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("    password ********\r\n"), "{text}");
        assert!(!text.contains("abcd"), "{text}");
        assert!(text.contains("password <your password>\r\n"));
        assert!(text.contains("the password is yours"));
        assert_eq!(
            masked(text.as_bytes()),
            None,
            "masked once, then nothing to do"
        );
    }

    #[test]
    fn a_welcome_is_known_by_its_file_name() {
        assert!(is_welcome("t0001-welcome-france.eml"));
        assert!(is_welcome("t0004-welcome-britain-3f2a9c1e.eml"));
        assert!(!is_welcome("t0001-announcement-france.eml"));
        assert!(!is_welcome("t0001-notice-welcome-x.eml"));
    }
}
