//! What the tactical engine reports: one event per rule applied, its text starting with the rule
//! ("GITM 8.6: fast units move first"), the square and brigades it is about, and the labels of the
//! dice it rolled (the turn attaches the rolls by label).

use super::map::Pos;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TacEvent {
    /// The rule applied: `GITM 8.6`, or `pbem GITM-T3` for pbem's own tables (`tables.rs`).
    pub rule: &'static str,
    /// The sentence of the event, starting with the rule.
    pub text: String,
    pub at: Option<Pos>,
    pub units: Vec<String>,
    pub rolls: Vec<String>,
}

impl TacEvent {
    pub fn new(rule: &'static str, text: impl AsRef<str>) -> TacEvent {
        TacEvent {
            rule,
            text: format!("{rule}: {}", text.as_ref()),
            at: None,
            units: Vec::new(),
            rolls: Vec::new(),
        }
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
