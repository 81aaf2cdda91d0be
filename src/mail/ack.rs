//! Answers pbem writes to players: the acknowledgement of every submission (issue 4.6) and the
//! reminder to powers whose orders are missing (issue 4.8). Both are rendered from templates
//! (`templates/ack.txt.j2`, `templates/reminder.txt.j2`, which a game may override in its own
//! `templates/`) into [`Outgoing`] messages, dated with a game instant, never the clock.

use anyhow::Result;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use super::ingest::{AckData, Received, Status};
use super::outbox::{Kind, Outgoing};
use crate::game::config::{DiceScheme, PowerConfig};
use crate::game::Game;

/// An accepted order as the ack lists it.
#[derive(Serialize)]
struct Line {
    line: usize,
    text: String,
}

/// The context of `ack.txt`.
#[derive(Serialize)]
struct AckContext {
    game: String,
    title: String,
    turn: u32,
    date: String,
    headline: String,
    status: &'static str,
    power_name: String,
    /// Whose orders these are, as the answer names them: the power, or for one player of a power
    /// with several, "<player> of <power>" (his submissions replace his own alone).
    whose: String,
    /// The player's id when the power has several, else empty; and the rule that settles which of
    /// their orders for one unit stands (GITM 6).
    player: String,
    precedence: String,
    message_id: String,
    arrival: String,
    origin: String,
    current: bool,
    replaced_by: String,
    late_turn: u32,
    held_for: u32,
    reasons: Vec<String>,
    accepted: Vec<Line>,
    problems: usize,
    diagnostics: String,
    entropy: String,
    entropy_hash: String,
    digest: String,
    /// Whose orders (the power, or `power.player` of a power with several) and the game's dice scheme,
    /// for the receipt line `verify --ack` reads.
    power: String,
    scheme: &'static str,
    /// What `pbem verify --ack` checks of this receipt under the game's dice scheme
    /// (`receipt::verify_checks`).
    verify_checks: String,
    /// The rank of this submission among the power's accepted ones for the turn (1, 2, ...).
    sequence: usize,
    deadline: String,
    deadline_local: String,
    /// After `pbem end`: that the game is over, in place of the deadline and the commitment.
    over: String,
    commitment: String,
    /// The digest of the rules fixed with the commitment (`game::rules_fixed`); empty when none were.
    rules: String,
}

/// What the answers of one run share, made once: the template `ack.txt` read and compiled, the
/// commitment of each turn, with the digest of the rules fixed with it, as the answers give them,
/// and whether the game is over (`pbem end`), which they say in place of a deadline.
pub struct Answers {
    template: crate::report::templates::Template,
    commitments: std::cell::RefCell<std::collections::BTreeMap<u32, (String, String)>>,
    over: String,
}

impl Answers {
    pub fn new(game: &Game) -> Result<Answers> {
        Ok(Answers {
            template: crate::report::templates::Template::load(game, "ack.txt")?,
            commitments: Default::default(),
            over: match game.ended()? {
                Some(e) => format!(
                    "The game is over: the referee ended it {} ({}). No turn is played any more.",
                    e.when(),
                    e.reason
                ),
                None => String::new(),
            },
        })
    }

    fn commitment(&self, game: &Game, turn: u32) -> (String, String) {
        self.commitments
            .borrow_mut()
            .entry(turn)
            .or_insert_with(|| (commitment_text(game, turn), rules_text(game, turn)))
            .clone()
    }
}

/// The acknowledgement of one judged submission (issue 4.6): the orders as accepted, each rejected line
/// with its diagnostic (passwords as stars, `Source::render`), the entropy with `E_p`, the digest of
/// the orders as filed, the deadline and the turn's commitment, and a receipt line with the submission's
/// sequence number (`sequence`: its rank among the power's accepted submissions for the turn). `key` is a short digest of the message,
/// `in_reply_to` its Message-ID and `date` its arrival.
pub fn acknowledgement(
    game: &Game,
    answers: &Answers,
    turn: u32,
    record: &Received,
    data: &AckData,
    replaced_by: Option<&String>,
    sequence: usize,
) -> Result<Outgoing> {
    let config = &game.config;
    let power = config.power(&record.power);
    let power_name = power.map(|p| p.name.clone()).unwrap_or_default();
    let shown_turn = if record.for_turn > 0 {
        record.for_turn
    } else {
        turn
    };
    let checked = data.checked.as_ref();
    let problems = checked.map_or(0, |c| c.rejected);
    let headline = match record.status {
        Status::Accepted if problems > 0 => {
            format!("orders of {power_name} accepted, {problems} line(s) rejected")
        }
        Status::Accepted => format!("orders of {power_name} accepted"),
        Status::Held => format!("orders of {power_name} held for turn {}", record.for_turn),
        Status::Late => format!("orders of {power_name} arrived late and are rejected"),
        _ if power_name.is_empty() => "your message was not accepted as orders".to_string(),
        _ => format!("orders of {power_name} rejected"),
    };
    let stands = matches!(record.status, Status::Accepted | Status::Held);
    let (entropy, entropy_hash) = match checked.and_then(|c| c.entropy.clone()) {
        Some(e) if stands => {
            let h = match config.dice.scheme {
                DiceScheme::V1 => crate::dice::entropy(&e),
                DiceScheme::V2 => crate::dice::v2::entropy(&e),
            };
            (e, crate::dice::to_hex(&h))
        }
        _ => (String::new(), String::new()),
    };
    let diagnostics = checked.map(|c| c.diagnostics.clone()).unwrap_or_default();
    let commitment = answers.commitment(game, shown_turn);
    let context = AckContext {
        game: config.game.clone(),
        title: config.title.clone(),
        turn: shown_turn,
        date: config.date_of(shown_turn),
        headline: headline.clone(),
        status: record.status.name(),
        whose: match record.player.as_str() {
            "" => power_name.clone(),
            player => format!("{player} of {power_name}"),
        },
        player: record.player.clone(),
        precedence: crate::engine::command::PRECEDENCE.cite(),
        power_name,
        message_id: if data.message_id.is_empty() {
            "(without a Message-ID)".into()
        } else {
            format!("<{}>", data.message_id)
        },
        arrival: in_zone(game, None, data.arrival),
        origin: record.origin.clone(),
        current: replaced_by.is_none(),
        replaced_by: replaced_by
            .map(|t| match DateTime::parse_from_rfc3339(t) {
                Ok(t) => in_zone(game, None, t.with_timezone(&Utc)),
                Err(_) => t.clone(),
            })
            .unwrap_or_default(),
        late_turn: data.late_turn.unwrap_or(0),
        held_for: record.for_turn,
        reasons: record
            .reasons
            .iter()
            .cloned()
            .chain(
                data.others
                    .iter()
                    .map(|o| format!("also rejected in this run: {o}")),
            )
            .collect(),
        accepted: match checked {
            Some(c) if stands => c
                .accepted
                .iter()
                .map(|(line, text)| Line {
                    line: *line,
                    text: text.clone(),
                })
                .collect(),
            _ => Vec::new(),
        },
        problems,
        diagnostics,
        // The receipt names whose orders they are as the report's header does: `france.eugene`
        // for a player of a power with several (GITM 6.1), so that `verify --ack` finds them.
        power: power
            .map(
                |p| match record.power == p.id && !record.player.is_empty() {
                    true => record.slot(),
                    false => p.id.clone(),
                },
            )
            .unwrap_or_default(),
        sequence,
        scheme: match config.dice.scheme {
            DiceScheme::V1 => "pbem-dice/v1",
            DiceScheme::V2 => crate::dice::v2::SCHEME,
        },
        verify_checks: super::receipt::verify_checks(
            config.dice.scheme,
            "`pbem verify <report> --ack <this mail>`",
        ),
        entropy,
        entropy_hash,
        digest: if stands {
            data.receipt.clone()
        } else {
            String::new()
        },
        deadline: deadline_text(game, shown_turn, None),
        deadline_local: power
            .filter(|p| p.time_zone.is_some())
            .map(|p| deadline_text(game, shown_turn, Some(p)))
            .unwrap_or_default(),
        commitment: commitment.0,
        rules: commitment.1,
        over: answers.over.clone(),
    };
    let text = answers.template.render(&context)?;
    Ok(Outgoing {
        kind: Kind::Acknowledgement,
        player: None,
        turn,
        power: power.map(|p| p.id.clone()),
        key: record.sha256.chars().take(12).collect(),
        to: data.to.clone(),
        subject: format!("[{}] turn {shown_turn}: {headline}", config.game),
        text,
        html: None,
        attachments: Vec::new(),
        in_reply_to: (!data.message_id.is_empty()).then(|| data.message_id.clone()),
        date: data.arrival,
    })
}

/// The reminder of turn `turn` to a power with no orders in (issue 4.8), numbered `n` (1 for the first),
/// to the addresses that receive the power's mail (`engine::players::recipients`); `rejected` says
/// why a file that is in does not stand.
#[allow(clippy::too_many_arguments)]
pub fn reminder(
    game: &Game,
    turn: u32,
    power: &PowerConfig,
    player: Option<&str>,
    to: &[String],
    n: u32,
    rejected: Option<&str>,
    dropped: Option<&crate::game::state::Controlled>,
) -> Result<Outgoing> {
    let config = &game.config;
    // A dropped power run by another (EiA 19.2.1): its controller's players are reminded.
    let controller = dropped
        .and_then(|c| c.by.as_deref())
        .map(|b| config.power(b).map_or(b.to_string(), |p| p.name.clone()))
        .unwrap_or_default();
    let context = minijinja::context! {
        controller => controller, until => dropped.map_or(0, |c| c.until),
        // EiA 19.2.1 in a game of EiA, pbem's own rule in any other.
        rule => crate::engine::players::dropped_rule(game).cite(),
        game => config.game, title => config.title, turn => turn, date => config.date_of(turn),
        power => power.id, power_name => power.name,
        // A player of a power with several names himself in his orders (`player <id>`, GITM 6.2).
        player => player.unwrap_or_default(),
        deadline => deadline_text(game, turn, None),
        deadline_local => if power.time_zone.is_some() { deadline_text(game, turn, Some(power)) } else { String::new() },
        commitment => commitment_text(game, turn),
        without_orders => game.ruleset.without_orders().yours,
        rejected => rejected.unwrap_or_default(),
        guide => crate::report::guide::file_name(game.ruleset.id()),
    };
    let text = crate::report::templates::render(game, "reminder.txt", &context)?;
    Ok(Outgoing {
        kind: Kind::Reminder,
        player: player.map(str::to_string),
        turn,
        power: Some(power.id.clone()),
        // A player of a power with several has reminders of his own (`engine::command`); a
        // deadline moved by `extend` has its own (those of the old one do not remind of it).
        key: {
            let mut parts: Vec<String> = player.map(str::to_string).into_iter().collect();
            parts.extend(extended_deadline(game, turn)?);
            if n > 1 {
                parts.push(n.to_string());
            }
            parts.join("-")
        },
        to: to.to_vec(),
        subject: format!(
            "[{}] turn {turn}: no orders from {}{} yet, due {}",
            config.game,
            power.name,
            player.map_or(String::new(), |p| format!(" ({p})")),
            deadline_text(game, turn, Some(power))
        ),
        text,
        html: None,
        attachments: Vec::new(),
        in_reply_to: None,
        // The moment the turn opened (as for its announcement): a game instant, not the clock.
        date: super::outbox::game_instant(game, turn.saturating_sub(1).max(config.first_turn)),
    })
}

/// `deadline-<n>` when the turn's deadline is the one `pbem extend` set by its act `n` (the key of
/// that act's notices), none while it is the deadline the turn was announced or reopened with: a
/// reminder names the deadline it is of, so that players reminded of the old deadline are reminded
/// of the new one (a rollback moves the reopened turn's reminders into its archive instead).
fn extended_deadline(game: &Game, turn: u32) -> Result<Option<String>> {
    let acts = crate::game::acts::load(&game.dir, turn)?;
    Ok(acts
        .acts
        .iter()
        .enumerate()
        .rev()
        .find(|(_, a)| a.deadline.is_some())
        .filter(|(_, a)| a.kind == "extend")
        .map(|(i, _)| format!("deadline-{}", i + 1)))
}

/// The deadline of `turn` in the game's time zone, or in the power's own when `power` has one.
pub fn deadline_text(game: &Game, turn: u32, power: Option<&PowerConfig>) -> String {
    let Some(d) = game.config.deadline_of(turn) else {
        return "not set".into();
    };
    match power.and_then(|p| p.time_zone.as_ref()?.get_ref().parse::<Tz>().ok()) {
        Some(tz) => d
            .with_timezone(&tz)
            .format("%A %Y-%m-%d %H:%M %Z")
            .to_string(),
        None => d.format("%A %Y-%m-%d %H:%M %Z").to_string(),
    }
}

/// An instant in the game's time zone (or the power's), for messages.
pub fn in_zone(game: &Game, power: Option<&PowerConfig>, t: DateTime<Utc>) -> String {
    let tz = power
        .and_then(|p| p.time_zone.as_ref()?.get_ref().parse::<Tz>().ok())
        .or_else(|| game.config.time_zone());
    match tz {
        Some(tz) => t
            .with_timezone(&tz)
            .format("%A %Y-%m-%d %H:%M:%S %Z")
            .to_string(),
        None => t.format("%A %Y-%m-%d %H:%M:%S UTC").to_string(),
    }
}

/// The digest of the rules fixed with `turn`'s commitment, or nothing (`game::rules_fixed`).
fn rules_text(game: &Game, turn: u32) -> String {
    game.commitment(turn)
        .ok()
        .and_then(|c| crate::game::scheme::rules_digest(game, turn, &crate::dice::to_hex(&c)))
        .unwrap_or_default()
}

fn commitment_text(game: &Game, turn: u32) -> String {
    game.commitment(turn)
        .map(|c| crate::dice::to_hex(&c))
        .unwrap_or_else(|_| "not published yet".into())
}
