//! The long lists of the referee's summary, written by pbem rather than by a template loop: every
//! decision of the turn, and every combat with its events (a turn of 100,000 units settles some
//! 140,000 decisions in 10,000 combats, a summary of 70 MB, which the template engine wrote several
//! times slower). The bundled `summary.txt.j2` shows them as `{{ decisions_text }}` and
//! `{{ combats_text }}`; a game's own template may still loop over `decisions` and `combats`,
//! which [`super::summary`] then makes too. The lines are those the bundled template's loops wrote
//! before, byte for byte (`tests::the_lists_are_those_of_the_template_loops`).

use std::fmt::Write;

use crate::engine::event::{Event, Roll};

/// A combat as the summary lists it: its area, the events there that belong to it (in turn
/// order), and the powers that saw it.
pub struct CombatEvents<'e> {
    pub area: &'e str,
    pub events: Vec<&'e Event>,
    pub seen_by: String,
}

/// How a decision was settled, as the referee reads it; one of the ruleset's defaults in its words
/// (`by_default`, `Ruleset::decided_by_default`).
pub fn by(d: crate::decide::DecidedBy, by_default: &'static str) -> &'static str {
    use crate::decide::DecidedBy;
    match d {
        DecidedBy::Order => "by its order",
        DecidedBy::Standing => "by its standing order",
        DecidedBy::Sop => by_default,
        DecidedBy::Roll => "at random",
    }
}

/// Every decision among `events` (the others are passed over): for whom, how it was settled, its
/// text, its citation and its rolls, a line each; no newline after the last.
pub fn decisions_text(events: &[Event], by_default: &'static str) -> String {
    let size = events
        .iter()
        .filter(|e| e.decision.is_some())
        .map(|e| e.text.len() + 160)
        .sum();
    let mut out = String::with_capacity(size);
    for e in events {
        let Some(d) = &e.decision else { continue };
        out.push_str("- for ");
        out.push_str(&d.power);
        out.push_str(", ");
        out.push_str(by(d.by, by_default));
        out.push_str(": ");
        out.push_str(&e.text);
        out.push_str("\n    [");
        push_citation(&mut out, e);
        out.push_str("]\n");
        push_rolls(&mut out, e, "    ");
    }
    out.pop();
    out
}

/// Every combat: its area and who saw it, then each of its events (and for whom and how it was
/// decided) with its rolls; no newline after the last.
pub fn combats_text(combats: &[CombatEvents], by_default: &'static str) -> String {
    let size = combats
        .iter()
        .flat_map(|c| &c.events)
        .map(|e| e.text.len() + 80 * (1 + e.rolls.len()))
        .sum();
    let mut out = String::with_capacity(size);
    for c in combats {
        out.push_str(c.area);
        out.push_str(" (seen by ");
        out.push_str(&c.seen_by);
        out.push_str("):\n");
        for e in &c.events {
            out.push_str("  - ");
            out.push_str(&e.text);
            if let Some(d) = e.decision.as_ref().filter(|d| !d.power.is_empty()) {
                out.push_str(" [for ");
                out.push_str(&d.power);
                out.push_str(", ");
                out.push_str(by(d.by, by_default));
                out.push(']');
            }
            out.push('\n');
            push_rolls(&mut out, e, "      ");
        }
    }
    out.pop();
    out
}

/// `EiA 7.5.2.10.2: victors always pursue`, as `Event::citation` makes it.
fn push_citation(out: &mut String, e: &Event) {
    out.push_str(&e.rule);
    out.push_str(": ");
    out.push_str(&e.topic);
}

/// The event's rolls a line each, `roll label: d6 d6 -> 3 5` after `indent`; a sealed roll is left
/// out (`engine::sealed`).
fn push_rolls(out: &mut String, e: &Event, indent: &str) {
    for r in e.rolls.iter().filter(|r| !r.sealed) {
        out.push_str(indent);
        out.push_str("roll ");
        push_roll(out, r);
        out.push('\n');
    }
}

/// `label: d6 d6 -> 3 5`, as `Roll::dice_names` and `Roll::faces` make its parts.
fn push_roll(out: &mut String, r: &Roll) {
    out.push_str(&r.label);
    out.push_str(": ");
    for (i, d) in r.dice.iter().enumerate() {
        let gap = if i == 0 { "" } else { " " };
        // Writing to a String cannot fail.
        let _ = write!(out, "{gap}d{}", d.sides);
    }
    out.push_str(" -> ");
    for (i, d) in r.dice.iter().enumerate() {
        let gap = if i == 0 { "" } else { " " };
        let _ = write!(out, "{gap}{}", d.face);
    }
}
