//! What the tactical engine reports: one event per rule applied, its text starting with the rule
//! ("GITM 8.6: fast units move first"), the square and brigades it is about, and the labels of the
//! dice it rolled (the turn attaches the rolls by label).

use std::collections::BTreeSet;

use super::map::Pos;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TacEvent {
    /// The rule applied: `GITM 8.6`, or `pbem GITM-T3` for pbem's own tables (`tables.rs`).
    pub rule: &'static str,
    /// The turn log's kind: `tactical` for movement and reactions, `combat` once a combat (the
    /// frontage event of 9.4), `result` for who won it, `battle` for the other steps of a combat.
    pub kind: &'static str,
    /// The sentence of the event, starting with the rule.
    pub text: String,
    pub at: Option<Pos>,
    pub units: Vec<String>,
    pub rolls: Vec<String>,
    /// The sides told of it, each with its allies (GITM 4.4, 4.6); empty, the referee alone. `None`
    /// until the field decides it when the event is written (`Field::tell`): the sides of the
    /// brigades it names or stand where it happens, and every side that sees one of them (4.2).
    pub told: Option<BTreeSet<String>>,
}

impl TacEvent {
    pub fn new(rule: &'static str, text: impl AsRef<str>) -> TacEvent {
        let kind = if rule.starts_with("pbem") || rule.starts_with("GITM 9") {
            "battle"
        } else {
            "tactical"
        };
        TacEvent {
            rule,
            kind,
            text: format!("{rule}: {}", text.as_ref()),
            at: None,
            units: Vec::new(),
            rolls: Vec::new(),
            told: None,
        }
    }

    /// The event of who won a combat, worded as the reports read it: "france win at 6-5 (rule)".
    pub fn result(rule: &'static str, winners: &str, at: Pos) -> TacEvent {
        TacEvent {
            rule,
            kind: "result",
            text: format!("{winners} win at {at} ({rule})"),
            at: Some(at),
            units: Vec::new(),
            rolls: Vec::new(),
            told: None,
        }
    }

    /// Told to this side (and its allies) alone.
    pub fn side_only(mut self, side: &str) -> Self {
        self.told = Some(BTreeSet::from([side.to_string()]));
        self
    }

    /// Told to these sides (and their allies); none, the referee alone.
    pub fn told_to(mut self, sides: BTreeSet<String>) -> Self {
        self.told = Some(sides);
        self
    }

    pub fn kind(mut self, kind: &'static str) -> Self {
        self.kind = kind;
        self
    }

    pub fn at(mut self, p: Pos) -> Self {
        self.at = Some(p);
        self
    }

    pub fn unit(mut self, id: &str) -> Self {
        self.units.push(id.to_string());
        self
    }

    pub fn units<'a>(mut self, ids: impl IntoIterator<Item = &'a str>) -> Self {
        self.units.extend(ids.into_iter().map(str::to_string));
        self
    }

    pub fn roll(mut self, label: &str) -> Self {
        self.rolls.push(label.to_string());
        self
    }
}

/// A few words of what each rule the engine cites is about (the event's topic), in pbem's words.
pub fn topic(rule: &str) -> &'static str {
    match rule {
        "GITM 2.2" => "river, mountain and water tactical squares are impassable",
        "GITM 2.5" => "a tactical square holds at most 24 brigades, 12 allied to one another",
        "GITM 4.2" => "on the tactical map, the nearest enemy in each of eight directions",
        "GITM 4.4" => "a tactical move is told by what was seen of its start and its end",
        "GITM 5.2" => "the final tactical phase has no combat",
        "GITM 8.1" => "fast units move 6 tactical squares, others 4; fatigue with an enemy present",
        "GITM 8.2" => "destination, waypoint and start phase, in straight lines",
        "GITM 8.3" => "meeting an enemy halts both and begins a combat",
        "GITM 8.4" => "a besieged city's garrison leaves only to attack; only its enemies enter",
        "GITM 8.5" => "with an enemy present, impassable terrain and cliffs block the path",
        "GITM 8.6" => "fast units move first, each group in an order drawn each phase",
        "GITM 8.7" => "rivers and ranges are crossed by a ford or pass waypoint",
        "GITM 8.8" => "engage the nearest enemy combat unit",
        "GITM 8.10" => "support a combat in the support box",
        "GITM 8.11" => "intercept a unit moving through the intercept box",
        "GITM 8.12" => "peace and truce: tactical movement automatic and unlimited",
        "GITM 9.2" => "headquarters do not fight: they fall back or shatter",
        "GITM 9.3" => "battle lines: a front line, a second before the rear",
        "GITM 9.4" => "frontage: 6,000 spaces a direction of attack",
        "GITM 9.5" => "infantry forms squares against cavalry",
        "pbem GITM-T1" => "pbem's fire table",
        "pbem GITM-T4" => "pbem's melee table",
        "pbem GITM-T5" => "pbem's experience, fatigue and morale after a combat",
        "pbem GITM-T6" => "pbem's morale checks and shattering",
        "pbem GITM-T7" => "pbem's forts: a garrison defends with the fort's strength as its rating",
        _ => "tactical movement and combat",
    }
}
