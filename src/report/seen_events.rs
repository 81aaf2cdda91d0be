//! The turn's events as one power's view lists them: the turn's events, held once for all its
//! reports and never copied, and the positions of those the power sees, each with how a decision
//! in it is named to him. Every form writes an event's text, citation and rolls straight from the
//! turn's event (`report::lines`, `report::json`): the reports of a 1,000-power turn list 1.2
//! million events, and copying each into a line of its own was a sixth of their cost (issue 39).

use std::borrow::Cow;
use std::sync::Arc;

use serde::Serialize;

use crate::engine::event::{Event, Roll};

use super::view::{event_line, EventLine};

/// The events of a turn, shared by its reports (and by the templates' values of each, which must
/// own what they read).
pub type TurnEvents = Arc<Vec<Event>>;

/// The events a power sees, in the turn's order. Serialized as the [`EventLine`]s it lists.
#[derive(Debug, Clone, Default)]
pub struct SeenEvents {
    turn: TurnEvents,
    seen: Vec<Seen>,
}

/// An event seen: its position in the turn's events, and whether the decision it settled was
/// taken for another power than the viewer (then named as such, not as "yours").
#[derive(Debug, Clone, Copy)]
struct Seen {
    index: usize,
    theirs: bool,
}

impl SeenEvents {
    /// The events of `turn` at `positions`, as `power` is told them.
    pub fn new(turn: &TurnEvents, positions: &[usize], power: &str) -> SeenEvents {
        let seen = positions
            .iter()
            .filter_map(|&index| {
                let e = turn.get(index)?;
                // A decision taken for every power ("all": the order of combats) is told as it is.
                let theirs = e
                    .decision
                    .as_ref()
                    .is_some_and(|d| d.power != power && d.power != "all");
                Some(Seen { index, theirs })
            })
            .collect();
        SeenEvents {
            turn: turn.clone(),
            seen,
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
}

impl<'a> SeenEvent<'a> {
    /// How the decision it settled was taken, as the viewer is told it: "by the SOP", or "for p2
    /// by its order" when it was taken for another power; none when it settled none.
    pub fn decided(&self) -> Option<Decided<'a>> {
        let d = self.event.decision.as_ref()?;
        Some(match self.theirs {
            true => Decided {
                for_power: Some(&d.power),
                how: d.by.describe_theirs(),
            },
            false => Decided {
                for_power: None,
                how: d.by.describe(),
            },
        })
    }

    /// The rolls a report lists: a sealed roll is in none (`engine::sealed`), neither its label
    /// nor its faces.
    pub fn rolls(&self) -> impl Iterator<Item = &'a Roll> + 'a {
        self.event.rolls.iter().filter(|r| !r.sealed)
    }

    /// The event as an owned line, in the viewer's words.
    pub fn line(&self) -> EventLine {
        let mut line = event_line(self.event);
        line.decided = self.decided().map(|d| d.phrase().into_owned());
        line
    }
}

/// How a decision was taken, as one power is told it.
#[derive(Debug, Clone, Copy)]
pub struct Decided<'a> {
    /// The power it was taken for, when another than the viewer.
    pub for_power: Option<&'a str>,
    /// "by the SOP", "at random", "by its order", ...
    pub how: &'static str,
}

impl<'a> Decided<'a> {
    /// "by the SOP", or "for p2 by its order".
    pub fn phrase(&self) -> Cow<'a, str> {
        match self.for_power {
            Some(p) => Cow::Owned(format!("for {p} {}", self.how)),
            None => Cow::Borrowed(self.how),
        }
    }

    /// [`Decided::phrase`] written at the end of `out`, each part passed through `write` (an HTML
    /// form escapes it).
    pub fn write_with(&self, out: &mut String, write: impl Fn(&mut String, &str)) {
        if let Some(p) = self.for_power {
            out.push_str("for ");
            write(out, p);
            out.push(' ');
        }
        write(out, self.how);
    }
}
