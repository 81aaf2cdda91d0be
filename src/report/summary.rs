//! The referee's summary of a turn: every orders file and what became of it, the powers that sent
//! nothing and what their standing orders and the SOP did for them, every decision with who settled
//! it, and every combat. The referee sees everything: this is the one text without fog of war.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use minijinja::value::{Enumerator, Object, Value};
use serde::Serialize;

use crate::engine::event::Event;
use crate::engine::inputs::OrdersFileStatus;
use crate::game::Game;
use crate::mail::outbox;

use super::seen_events::{event_line, EventLine};
use super::summary_lines::{by, combats_text, decisions_text, CombatEvents};
use super::DiceHeader;

/// What the engine hands to the summary of a turn.
pub struct SummaryInput<'a> {
    pub turn: u32,
    /// The orders files of every power, in game order.
    pub orders: &'a [OrdersFileStatus],
    pub events: &'a [Event],
    pub header: &'a DiceHeader,
    /// The state the turn started from (who was due to send orders).
    pub state_before: &'a crate::game::state::State,
}

/// One power's orders as the referee sees them.
#[derive(Debug, Serialize)]
struct PowerOrders {
    power: String,
    name: String,
    path: String,
    /// `received`, `not authenticated`, `missing` or `not due`.
    status: &'static str,
    /// The status in a few words: "20 order(s) accepted, 0 line(s) rejected".
    verdict: String,
    accepted: Vec<String>,
    rejected: usize,
    diagnostics: String,
    entropy: bool,
    /// The decisions settled for this power ([`Decision`] values, shared with the list of all).
    decisions: Vec<Value>,
}

/// A decision and who settled it. The template sees it as an object whose fields are made when
/// read, shared by its power's list and the list of all: at 100,000 units a turn settles over
/// 140,000 decisions, which as template values made whole and twice took hundreds of MB.
#[derive(Debug)]
struct Decision {
    power: String,
    /// "by its order", "by its standing order", "by the SOP", "at random".
    by: &'static str,
    text: String,
    citation: String,
    rolls: Vec<String>,
}

impl Object for Decision {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        Some(match key.as_str()? {
            "power" => Value::from(self.power.as_str()),
            "by" => Value::from(self.by),
            "text" => Value::from(self.text.as_str()),
            "citation" => Value::from(self.citation.as_str()),
            "rolls" => Value::from_serialize(&self.rolls),
            _ => return None,
        })
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Str(&["power", "by", "text", "citation", "rolls"])
    }
}

/// An event of a combat as the template sees it: [`EventLine`]'s fields, each made when read
/// (as [`Decision`]: the combats of a 100,000-unit turn hold some 200,000 events).
#[derive(Debug)]
struct CombatLine(EventLine);

impl Object for CombatLine {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let e = &self.0;
        Some(match key.as_str()? {
            "rule" => Value::from(e.rule.as_str()),
            "topic" => Value::from(e.topic.as_str()),
            "citation" => Value::from(e.citation.as_str()),
            "kind" => Value::from(e.kind.as_str()),
            "area" => Value::from_serialize(&e.area),
            "text" => Value::from(e.text.as_str()),
            "template" => Value::from_serialize(&e.template),
            "rolls" => Value::from_serialize(&e.rolls),
            "decided" => Value::from_serialize(&e.decided),
            "decided_for" => Value::from_serialize(&e.decided_for),
            "decided_by" => Value::from_serialize(e.decided_by),
            _ => return None,
        })
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Str(super::seen_events::EVENT_LINE_FIELDS)
    }
}

/// A combat and every event of it ([`CombatLine`] values).
#[derive(Debug, Serialize)]
struct Combat {
    area: String,
    events: Vec<Value>,
    seen_by: String,
}

#[derive(Debug, Serialize)]
struct SummaryView {
    game: String,
    title: String,
    ruleset: String,
    /// The ruleset's options the game names (`Game::options_named`).
    options: Vec<String>,
    turn: u32,
    date: String,
    late_orders: String,
    /// Submissions by mail that came after the deadline: "france: 1 late (held for turn 4)".
    late: Vec<String>,
    powers: Vec<PowerOrders>,
    missing: Vec<String>,
    unauthenticated: Vec<String>,
    decision_count: usize,
    /// Every decision, written by pbem (`summary_lines`): what the bundled template shows (to it
    /// a `templates::written` text, to a game's own a string).
    #[serde(skip_serializing_if = "Option::is_none")]
    decisions_text: Option<Value>,
    /// Every decision as values, made only for a template that names them.
    #[serde(skip_serializing_if = "Option::is_none")]
    decisions: Option<Vec<Value>>,
    combat_count: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    combats_text: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    combats: Option<Vec<Combat>>,
    events: usize,
    rolls: usize,
    header: DiceHeader,
}

fn decision(e: &Event, by_default: &'static str) -> Option<Decision> {
    let d = e.decision.as_ref()?;
    Some(Decision {
        power: d.power.clone(),
        by: by(d.by, by_default),
        text: e.text.clone(),
        citation: e.citation(),
        rolls: e
            .rolls
            .iter()
            .filter(|r| !r.sealed)
            .map(|r| format!("{}: {} -> {}", r.label, r.dice_names(), r.faces()))
            .collect(),
    })
}

/// Renders the referee's summary of a turn (`templates/summary.txt.j2`).
pub fn summary(game: &Game, input: &SummaryInput<'_>) -> anyhow::Result<String> {
    let template = super::templates::Template::load(game, "summary.txt")?;
    // The long lists are made in the forms the template names (`summary_lines`).
    let names = template.names();
    // How a decision of the ruleset's defaults is told: "by the SOP", GITM's default orders.
    let by_default = game.ruleset.decided_by_default();
    // Every decision once, and each power's among them, in turn order.
    let decisions: Vec<(&str, Value)> = input
        .events
        .iter()
        .filter_map(|e| {
            let d = decision(e, by_default)?;
            Some((e.decision.as_ref()?.power.as_str(), Value::from_object(d)))
        })
        .collect();
    let mut of_power: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for (power, d) in &decisions {
        of_power.entry(power).or_default().push(d.clone());
    }
    let mut powers = Vec::new();
    let mut missing = Vec::new();
    let mut unauthenticated = Vec::new();
    // A power with several players has a line per player's file (`engine::command`), the decisions
    // taken for the power on the first.
    let slots = game.config.powers.iter().flat_map(|p| {
        crate::engine::command::slots(p)
            .into_iter()
            .enumerate()
            .map(move |(i, s)| (p, s, i == 0))
    });
    // Each power's orders files, grouped once (the first file of a power and player): a search per
    // power was powers x files.
    let mut files: BTreeMap<(&str, Option<&str>), _> = BTreeMap::new();
    for o in input.orders {
        files
            .entry((o.power.as_str(), o.player.as_deref()))
            .or_insert(o);
    }
    for (p, player, first) in slots {
        let stem = crate::engine::command::file_stem(&p.id, player.as_deref());
        let file = files.get(&(p.id.as_str(), player.as_deref())).copied();
        let check = file.and_then(|o| o.check.as_ref());
        let due = game.ruleset.expects_orders(input.state_before, &p.id);
        let status = match check {
            None if !due => "not due",
            None => {
                missing.push(stem.clone());
                "missing"
            }
            Some(c) if c.power.is_none() => {
                unauthenticated.push(stem.clone());
                "not authenticated"
            }
            Some(_) => "received",
        };
        let verdict = match check {
            None if !due => "none due this turn: standing orders only".to_string(),
            None => "NO ORDERS".to_string(),
            Some(c) if c.power.is_none() => {
                "orders file NOT AUTHENTICATED: every order ignored".to_string()
            }
            Some(c) => format!(
                "{} order(s) accepted, {} line(s) rejected{}",
                c.accepted.len(),
                c.rejected(),
                if c.entropy.is_some() {
                    ", with an entropy line"
                } else {
                    ""
                }
            ),
        };
        powers.push(PowerOrders {
            power: stem,
            verdict,
            name: p.name.clone(),
            path: file.map_or(String::new(), |o| o.path.clone()),
            status,
            accepted: check.map_or(Vec::new(), |c| {
                c.accepted
                    .iter()
                    .map(|(line, text)| format!("line {line}: {text}"))
                    .collect()
            }),
            rejected: check.map_or(0, |c| c.rejected()),
            diagnostics: file.map_or(String::new(), |o| o.rendered.clone()),
            entropy: check.is_some_and(|c| c.entropy.is_some()),
            decisions: match of_power.get(p.id.as_str()) {
                Some(d) if first => d.clone(),
                _ => Vec::new(),
            },
        });
    }
    // The events of each area, grouped once (in turn order), for the combats below.
    let mut by_area: BTreeMap<&str, Vec<&Event>> = BTreeMap::new();
    for x in input.events {
        if let Some(area) = &x.area {
            by_area.entry(area.as_str()).or_default().push(x);
        }
    }
    let mut combats: Vec<CombatEvents> = Vec::new();
    let mut done: BTreeSet<&str> = BTreeSet::new();
    for e in input.events.iter().filter(|e| e.kind == "combat") {
        let Some(area) = &e.area else { continue };
        if !done.insert(area.as_str()) {
            continue;
        }
        let events: Vec<&Event> = by_area
            .get(area.as_str())
            .into_iter()
            .flatten()
            .filter(|x| !matches!(x.kind.as_str(), "move" | "control" | "attack"))
            .copied()
            .collect();
        let seen_by: Vec<&str> = e.visible_to.iter().map(String::as_str).collect();
        combats.push(CombatEvents {
            area,
            events,
            seen_by: seen_by.join(", "),
        });
    }
    // The late submissions that came by mail (`pbem ingest` keeps what it made of each message).
    let mut late = Vec::new();
    for st in crate::mail::status::orders_status_in(game, input.turn, Some(input.state_before))? {
        if st.late > 0 || st.held_for_next > 0 {
            late.push(format!(
                "{}: {} late submission(s){}",
                st.stem(),
                st.late + st.held_for_next,
                if st.held_for_next > 0 {
                    format!(", {} held for turn {}", st.held_for_next, input.turn + 1)
                } else {
                    String::new()
                }
            ));
        }
    }
    // The long lists are most of the summary; the rest, a line or two a power.
    let decisions_text_of = names
        .contains("decisions_text")
        .then(|| decisions_text(input.events, by_default));
    let combats_text_of = names
        .contains("combats_text")
        .then(|| combats_text(&combats, by_default));
    let lists = decisions_text_of.as_ref().map_or(0, String::len)
        + combats_text_of.as_ref().map_or(0, String::len);
    let as_value = |text: String| match template.built_in() {
        true => super::templates::written(std::sync::Arc::new(text), false),
        false => Value::from(text),
    };
    let view = SummaryView {
        game: game.config.game.clone(),
        title: game.config.title.clone(),
        ruleset: game.ruleset.name().to_string(),
        options: game.options_named(),
        turn: input.turn,
        date: game.config.date_of(input.turn),
        late_orders: game.config.deadline.late_orders.clone(),
        late,
        powers,
        missing,
        unauthenticated,
        decision_count: decisions.len(),
        decisions_text: decisions_text_of.map(&as_value),
        decisions: names
            .contains("decisions")
            .then(|| decisions.into_iter().map(|(_, d)| d).collect()),
        combat_count: combats.len(),
        combats_text: combats_text_of.map(&as_value),
        combats: names.contains("combats").then(|| {
            combats
                .iter()
                .map(|c| combat_values(c, by_default))
                .collect()
        }),
        events: input.events.len(),
        rolls: input
            .events
            .iter()
            .map(|e| e.rolls.iter().filter(|r| !r.sealed).count())
            .sum(),
        header: input.header.clone(),
    };
    template.render_sized(&view, lists + 1024 * (view.powers.len() + 16))
}

/// A combat as the values of a game's own template that loops over `combats`.
fn combat_values(c: &CombatEvents, by_default: &'static str) -> Combat {
    Combat {
        area: c.area.to_string(),
        events: c
            .events
            .iter()
            .map(|x| {
                let mut line = event_line(x);
                line.decided = x
                    .decision
                    .as_ref()
                    .map(|d| by(d.by, by_default).to_string());
                Value::from_object(CombatLine(line))
            })
            .collect(),
        seen_by: c.seen_by.clone(),
    }
}

/// The most of a summary its mail carries: larger messages are refused by most mail servers (10 to
/// 25 MB), and a turn of 100,000 units has a summary of about 70 MB.
pub const SUMMARY_MAIL_MAX: usize = 2_000_000;

/// The summary `text` as a message to the referee (the game's From address), kept in the outbox:
/// the whole of it, or above [`summary_budget`] bytes its first lines and where the whole is.
pub fn summary_mail(game: &Game, turn: u32, text: &str) -> outbox::Outgoing {
    let text = mailed_part(
        text,
        turn,
        summary_budget(game.config.mail.max_outgoing_bytes),
    );
    outbox::Outgoing {
        kind: outbox::Kind::Summary,
        player: None,
        turn,
        power: None,
        key: String::new(),
        to: vec![game.config.mail_from()],
        subject: format!(
            "[{}] turn {turn} ({}): referee's summary",
            game.config.game,
            game.config.date_of(turn)
        ),
        text,
        html: None,
        attachments: Vec::new(),
        in_reply_to: None,
        date: outbox::game_instant(game, turn),
    }
}

/// The most of a summary its mail carries under `[mail] max_outgoing_bytes = cap` (issue 34): at
/// most [`SUMMARY_MAIL_MAX`], and so little that the message fits in `cap` however its text is
/// encoded (quoted-printable at worst triples it), with its headers and the line that says where the
/// whole is.
pub fn summary_budget(cap: u64) -> usize {
    /// Room for the headers and the closing line of a cut summary.
    const HEADERS: u64 = 2048;
    let encoded = cap.saturating_sub(HEADERS) / 3;
    usize::try_from(encoded).map_or(SUMMARY_MAIL_MAX, |b| b.min(SUMMARY_MAIL_MAX))
}

/// `text` whole when it has at most `max` bytes; else its lines within `max` bytes, and a line that
/// says where the whole is.
fn mailed_part(text: &str, turn: u32, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    // A line break is always a character boundary.
    let cut = text.as_bytes()[..=max]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let head = &text[..cut];
    format!(
        "{head}\n[cut here: the summary is {} bytes, {} lines; this mail holds its first {} lines. The \
         whole summary is turns/{turn}/summary.txt in the game folder.]\n",
        text.len(),
        text.lines().count(),
        head.lines().count()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decide::DecidedBy;

    /// How every ruleset but GITM tells a decision of its defaults.
    const SOP: &str = "by the SOP";

    /// The loops the bundled summary template held before its lists were written by pbem.
    const DECISIONS_LOOP: &str = "{% for d in decisions %}
- for {{ d.power }}, {{ d.by }}: {{ d.text }}
    [{{ d.citation }}]
{% for r in d.rolls %}
    roll {{ r }}
{% endfor %}
{% endfor %}";
    const COMBATS_LOOP: &str = "{% for c in combats %}
{{ c.area }} (seen by {{ c.seen_by }}):
{% for e in c.events %}
  - {{ e.text }}{% if e.decided_for %} [for {{ e.decided_for }}, {{ e.decided }}]{% endif %}

{% for r in e.rolls %}
      roll {{ r.label }}: {{ r.dice }} -> {{ r.faces }}
{% endfor %}
{% endfor %}
{% endfor %}";

    fn looped(source: &str, key: &str, value: Value) -> String {
        let mut env = minijinja::Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.add_template("loop", source).unwrap();
        let out = env
            .get_template("loop")
            .unwrap()
            .render(BTreeMap::from([(key, value)]))
            .unwrap();
        out.strip_suffix('\n').unwrap_or(&out).to_string()
    }

    /// Events of every shape: decided by each of the four, for nobody, with no roll, several dice,
    /// a sealed roll, text beyond ASCII and characters HTML would escape.
    fn events() -> Vec<Event> {
        use crate::engine::event::{Die, Roll};
        let rule = crate::rule::Rule {
            system: "EiA",
            number: "7.5.2.10.2",
            topic: "victors always pursue",
        };
        let roll = |label: &str, faces: &[(u32, u32)], sealed| Roll {
            label: label.to_string(),
            dice: faces
                .iter()
                .map(|&(sides, face)| Die { sides, face })
                .collect(),
            sealed,
        };
        vec![
            Event::new(rule, "combat", "Battle of Ulm <b> & 'Würzburg'")
                .at("ulm")
                .seen_by(["austria", "france"])
                .roll(roll("combat/area=ulm/round=1", &[(6, 5), (6, 2)], false)),
            Event::new(rule, "pursuit", "France pursues.")
                .at("ulm")
                .decided("france", DecidedBy::Sop)
                .roll(roll("pursuit/area=ulm", &[(6, 1)], false))
                .roll(roll("sealed/area=ulm", &[(6, 3)], true)),
            Event::new(rule, "move", "A move is no part of the combat.")
                .at("ulm")
                .decided("austria", DecidedBy::Order),
            Event::new(rule, "decision", "Decided for nobody.")
                .at("ulm")
                .decided("", DecidedBy::Standing),
            Event::new(rule, "combat", "Battle of Vienna.")
                .at("vienna")
                .seen_by(["austria"])
                .decided("austria", DecidedBy::Roll),
            Event::new(rule, "round", "Round 1 at Vienna.")
                .at("vienna")
                .roll(roll(
                    "combat/area=vienna/round=1",
                    &[(10, 10), (6, 6), (6, 1)],
                    false,
                )),
            Event::new(rule, "control", "Elsewhere, with no area and no decision."),
        ]
    }

    #[test]
    fn the_lists_are_those_of_the_template_loops() {
        let events = events();
        let values: Vec<Value> = events
            .iter()
            .filter_map(|e| decision(e, SOP))
            .map(Value::from_object)
            .collect();
        assert_eq!(
            decisions_text(&events, SOP),
            looped(DECISIONS_LOOP, "decisions", Value::from(values))
        );
        let area_events = |area: &str| -> Vec<&Event> {
            events
                .iter()
                .filter(|e| e.area.as_deref() == Some(area) && e.kind != "move")
                .collect()
        };
        let combats = [
            CombatEvents {
                area: "ulm",
                events: area_events("ulm"),
                seen_by: "austria, france".to_string(),
            },
            CombatEvents {
                area: "vienna",
                events: area_events("vienna"),
                seen_by: "austria".to_string(),
            },
        ];
        let text = combats_text(&combats, SOP);
        let values: Vec<Combat> = combats.iter().map(|c| combat_values(c, SOP)).collect();
        assert_eq!(
            text,
            looped(COMBATS_LOOP, "combats", Value::from_serialize(&values))
        );
        assert!(!text.contains("sealed/"), "{text}");
        assert!(text.contains("d10 d6 d6 -> 10 6 1"), "{text}");
        assert_eq!(decisions_text(&[], SOP), "");
        assert_eq!(combats_text(&[], SOP), "");
    }

    #[test]
    fn a_summary_too_large_to_mail_is_cut_at_a_line_and_says_where_the_whole_is() {
        let text = "première ligne\ndeuxième ligne\ntroisième ligne\n";
        assert_eq!(mailed_part(text, 3, text.len()), text);
        // The limit falls inside the second line's "è" (two bytes): the mail keeps the first line.
        assert!(!text.is_char_boundary(22));
        let cut = mailed_part(text, 3, 22);
        assert!(cut.starts_with("première ligne\n\n[cut here:"), "{cut}");
        assert!(cut.contains(&format!("the summary is {} bytes, 3 lines", text.len())));
        assert!(cut.contains("holds its first 1 lines."), "{cut}");
        assert!(cut.contains("turns/3/summary.txt"));
        assert!(!cut.contains("deuxième"));
    }

    /// Issue 34: the summary's mail is at most 2 MB, and under a smaller `max_outgoing_bytes` a third
    /// of it less the headers' room, so that even quoted-printable at its worst fits.
    #[test]
    fn the_summary_mailed_fits_under_the_outgoing_cap_however_encoded() {
        assert_eq!(summary_budget(10_000_000), SUMMARY_MAIL_MAX);
        for cap in [10_000u64, 20_000, 1_000_000] {
            let budget = summary_budget(cap);
            assert!(
                budget > 0 && budget as u64 * 3 + 2048 <= cap,
                "{cap}: {budget}"
            );
        }
    }
}
