//! The turn's events as one power's view lists them: the turn's events, held once for all its
//! reports and never copied, and the positions of those the power sees, each with how a decision
//! in it is named to him. Every form writes an event's text, citation and rolls straight from the
//! turn's event (`report::lines`, `report::json`): the reports of a 1,000-power turn list 1.2
//! million events, and copying each into a line of its own was a sixth of their cost (issue 39).

use std::sync::Arc;

use serde::Serialize;

use crate::decide::DecidedBy;
use crate::engine::event::{DecisionNote, Die, Event, Roll};

/// The events of a turn, shared by its reports (and by the templates' values of each, which must
/// own what they read).
pub type TurnEvents = Arc<Vec<Event>>;

/// The events a power sees, in the turn's order. Serialized as the [`EventLine`]s it lists.
#[derive(Debug, Clone)]
pub struct SeenEvents {
    turn: TurnEvents,
    seen: Vec<Seen>,
    /// How a decision of the ruleset's defaults is told (`Ruleset::decided_by_default`).
    by_default: &'static str,
}

impl Default for SeenEvents {
    fn default() -> SeenEvents {
        SeenEvents {
            turn: TurnEvents::default(),
            seen: Vec::new(),
            by_default: DecidedBy::Sop.describe(),
        }
    }
}

/// An event seen: its position in the turn's events, and whether the decision it settled was
/// taken for another power than the viewer (then told as its outcome alone: `Event::text_for`).
#[derive(Debug, Clone, Copy)]
struct Seen {
    index: usize,
    theirs: bool,
}

impl SeenEvents {
    /// The events of `turn` at `positions`, as `power` is told them; a decision of the ruleset's
    /// defaults told `by_default` (`Ruleset::decided_by_default`).
    pub fn new(
        turn: &TurnEvents,
        positions: &[usize],
        power: &str,
        by_default: &'static str,
    ) -> SeenEvents {
        let seen = positions
            .iter()
            .filter_map(|&index| {
                let e = turn.get(index)?;
                // A decision taken for every power ("all": the order of combats) is told as it is.
                let theirs = !e.tells_how_to(power);
                Some(Seen { index, theirs })
            })
            .collect();
        SeenEvents {
            turn: turn.clone(),
            seen,
            by_default,
        }
    }

    /// Those of these events that `keep` keeps, in the same words.
    pub fn only(&self, keep: impl Fn(&Event) -> bool) -> SeenEvents {
        SeenEvents {
            turn: self.turn.clone(),
            seen: self
                .seen
                .iter()
                .copied()
                .filter(|s| keep(&self.turn[s.index]))
                .collect(),
            by_default: self.by_default,
        }
    }

    pub fn len(&self) -> usize {
        self.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// Event `i` of the list.
    pub fn get(&self, i: usize) -> Option<SeenEvent<'_>> {
        self.seen.get(i).map(|s| self.at(*s))
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = SeenEvent<'_>> + '_ {
        self.seen.iter().map(|s| self.at(*s))
    }

    fn at(&self, s: Seen) -> SeenEvent<'_> {
        SeenEvent {
            event: &self.turn[s.index],
            theirs: s.theirs,
            by_default: self.by_default,
        }
    }

    /// The events as owned lines (a game's own template that loops over them, a test).
    pub fn lines(&self) -> Vec<EventLine> {
        self.iter().map(|e| e.line()).collect()
    }
}

impl Serialize for SeenEvents {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(|e| e.line()))
    }
}

/// One event as a power's report lists it.
#[derive(Debug, Clone, Copy)]
pub struct SeenEvent<'a> {
    pub event: &'a Event,
    theirs: bool,
    by_default: &'static str,
}

impl<'a> SeenEvent<'a> {
    /// How the decision it settled was taken, as the viewer is told it: "by your standing order",
    /// "by the SOP", ... when it was taken for him (or for every power); none when it settled none,
    /// or was taken for another power, whose report alone tells how (`decide::Aside`).
    pub fn decided(&self) -> Option<&'static str> {
        self.decision().map(|d| d.by.describe_with(self.by_default))
    }

    /// The decision it settled, as the viewer is told it: none when taken for another power.
    pub fn decision(&self) -> Option<&'a DecisionNote> {
        match self.theirs {
            true => None,
            false => self.event.decision.as_ref(),
        }
    }

    /// The text as the viewer reads it: how another power's decision was taken left out
    /// (`Event::text_for`).
    pub fn text(&self) -> &'a str {
        match self.theirs {
            true => self.event.outcome_text(),
            false => &self.event.text,
        }
    }

    /// The template as the viewer reads it, as [`SeenEvent::text`].
    pub fn template(&self) -> Option<&'a str> {
        match self.theirs {
            true => self.event.outcome_template(),
            false => self.event.template.as_deref(),
        }
    }

    /// The rolls a report lists: a sealed roll is in none (`engine::sealed`), neither its label
    /// nor its faces.
    pub fn rolls(&self) -> impl Iterator<Item = &'a Roll> + 'a {
        self.event.rolls.iter().filter(|r| !r.sealed)
    }

    /// The event as an owned line, in the viewer's words.
    pub fn line(&self) -> EventLine {
        let mut line = event_line(self.event);
        line.text = self.text().to_string();
        line.template = self.template().map(str::to_string);
        line.decided = self.decided().map(str::to_string);
        line.decided_for = self.decision().map(|d| d.power.clone());
        line.decided_by = self.decision().map(|d| d.by);
        line
    }
}

/// A roll as a report lists it.
#[derive(Debug, Clone, Serialize)]
pub struct RollLine {
    pub label: String,
    /// "d6 d6".
    pub dice: String,
    /// "5 4".
    pub faces: String,
    /// Each die with its faces and the face it showed.
    pub each: Vec<Die>,
}

/// An event as a report lists it.
#[derive(Debug, Clone, Serialize)]
pub struct EventLine {
    pub rule: String,
    pub topic: String,
    pub citation: String,
    pub kind: String,
    pub area: Option<String>,
    pub text: String,
    /// The text with each die it tells as `{LABEL die N}` (`engine::binding`), when it tells one.
    pub template: Option<String>,
    pub rolls: Vec<RollLine>,
    /// "by the SOP", "at random", ... when the event is a decision.
    pub decided: Option<String>,
    /// The power the decision was taken for, and by what.
    pub decided_for: Option<String>,
    pub decided_by: Option<DecidedBy>,
}

/// The fields of [`EventLine`] in its order: the names its template objects list
/// (`report::values`, `report::summary`).
pub const EVENT_LINE_FIELDS: &[&str] = &[
    "rule",
    "topic",
    "citation",
    "kind",
    "area",
    "text",
    "template",
    "rolls",
    "decided",
    "decided_for",
    "decided_by",
];

pub(crate) fn event_line(e: &Event) -> EventLine {
    EventLine {
        rule: e.rule.clone(),
        topic: e.topic.clone(),
        citation: e.citation(),
        kind: e.kind.clone(),
        area: e.area.clone(),
        text: e.text.clone(),
        template: e.template.clone(),
        // A sealed roll is in no report (`engine::sealed`): neither its label nor its faces.
        rolls: e
            .rolls
            .iter()
            .filter(|r| !r.sealed)
            .map(|r| RollLine {
                label: r.label.clone(),
                dice: r.dice_names(),
                faces: r.faces(),
                each: r.dice.clone(),
            })
            .collect(),
        decided: e.decision.as_ref().map(|d| d.by.describe().to_string()),
        decided_for: e.decision.as_ref().map(|d| d.power.clone()),
        decided_by: e.decision.as_ref().map(|d| d.by),
    }
}

/// Events of every shape, as `france` sees them, for the tests of the forms that list them: with
/// and without rolls, a sealed roll, a decision taken for it, one taken for another power (one
/// whose text tells how, which france reads without it) and one for all, and strings that HTML or JSON escape (`<`, `&`, quotes, `/`, a backslash, control
/// bytes) in a text, a citation, a label and a power's name, beside letters beyond ASCII.
#[cfg(test)]
pub(crate) fn odd_events() -> SeenEvents {
    let mut turn = (*sample_events()).clone();
    let rule = crate::rule::Rule {
        system: "EiA",
        number: "7.5",
        topic: r#"land <combat> & 'pursuit' "x""#,
    };
    let roll = |label: &str, sealed: bool| Roll {
        label: label.to_string(),
        dice: vec![
            Die { sides: 6, face: 3 },
            Die {
                sides: 1000000,
                face: 999,
            },
        ],
        sealed,
    };
    turn.extend([
        Event::new(
            rule,
            "combat",
            "<b>\"Ney\" & 'Soult'</b> a/b of Württemberg, a tab\t, a backslash \\ and \u{1}.",
        )
        .at("Ulm")
        .roll(roll("pursuit/area=<Ulm>&x", false))
        .roll(roll("sealed/x", true))
        .roll(roll("x\\y\"z\n", false))
        .decided("<austria>&'x'", DecidedBy::Order),
        Event::new(rule, "k", "").decided("all", DecidedBy::Roll),
        Event::new(
            rule,
            "combat",
            format!("Theirs{}.", DecidedBy::Standing.aside(" (", ")")),
        )
        .decided("prussia", DecidedBy::Standing),
    ]);
    SeenEvents::new(
        &Arc::new(turn),
        &[0, 1, 2, 3, 4],
        "france",
        DecidedBy::Sop.describe(),
    )
}

/// The events of `values::sample_view`: a combat with its roll, and a decision taken for the viewer.
#[cfg(test)]
pub(crate) fn sample_events() -> TurnEvents {
    let rule = crate::rule::Rule {
        system: "EiA",
        number: "7.5",
        topic: "land combat",
    };
    let event = |text: &str, decided: bool| {
        let e = Event::new(rule, "combat", text)
            .roll(Roll {
                label: "combat/area=Ulm".to_string(),
                dice: vec![Die { sides: 6, face: 5 }, Die { sides: 6, face: 4 }],
                sealed: false,
            })
            .seen_by(["france"]);
        match decided {
            true => e.at("Ulm").decided("france", DecidedBy::Standing),
            false => e,
        }
    };
    Arc::new(vec![event("Battle of Ulm", false), event("A choice", true)])
}
