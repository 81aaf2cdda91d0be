//! Sight, the model's values of fog of war: how far a ruleset's units see ([`Sight`]), how precisely
//! a place or a unit is seen ([`Precision`]), and what one viewer (a power, or one player's command
//! of it) sees of a position when a ruleset words its sight itself ([`Sighting`]). The engine's
//! service that turns positions into places seen is `engine::visibility`; the report of a power is
//! made from what these values hold, never from the state (`report::view`).

use std::collections::BTreeMap;

use serde::Serialize;

/// How precisely a power sees a place or a unit. Ordered from the least to the most it tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// Seen only approximately: no ids, a count or strength in the ruleset's own words.
    Approximate,
    /// Known by its identity alone (GITM 2.5, 4.2: a unit sighted on a tactical map): its id, owner,
    /// kind and place, none of its figures.
    Identity,
    /// Seen as it is.
    Exact,
}

/// The sight rules of a ruleset, in steps of adjacency on the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sight {
    /// A power sees every place within this many steps of one of its units (0: where they stand).
    pub range: u32,
    /// Within this many steps it sees exactly; beyond, up to `range`, only approximately.
    pub exact: u32,
}

impl Sight {
    /// The places where a power's units stand and the places adjacent to them, exactly.
    pub const ADJACENT: Sight = Sight { range: 1, exact: 1 };

    /// Open information: every place, exactly.
    pub const EVERYTHING: Sight = Sight {
        range: u32::MAX,
        exact: u32::MAX,
    };

    /// How a place `steps` away from the nearest unit is seen; `None` beyond the range.
    pub fn precision(self, steps: u32) -> Option<Precision> {
        if steps <= self.exact.min(self.range) {
            Some(Precision::Exact)
        } else if steps <= self.range {
            Some(Precision::Approximate)
        } else {
            None
        }
    }
}

/// Who looks: a power, or one player's command of it (GITM 4.6).
pub struct Viewer<'a> {
    pub power: &'a str,
    /// Whether a unit of `power`, by id, is the viewer's own: every unit of the power, or those of
    /// the player's scope.
    pub own: &'a dyn Fn(&str) -> bool,
}

/// A foreign force seen only approximately, worded as the ruleset words it (GITM 4.1: "a division
/// (IC)"): no id, no figure of any unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Force {
    pub area: String,
    pub owner: String,
    /// The ruleset's word for the map (a [`crate::game::ruleset::UnitView`] kind).
    pub kind: &'static str,
    /// What the report says of it: "a division (IC)".
    pub words: String,
}

/// What one viewer sees of a position at the end of a turn, as a ruleset with a sight of its own
/// gives it (`Ruleset::sighting`); a report shows him nothing of a foreign unit this does not name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sighting {
    /// The places (area indexes) he sees, and how: the map's shading and the control he knows.
    pub places: BTreeMap<usize, Precision>,
    /// Each unit not his own he sees singly, by its position in `Ruleset::units`, and how: exactly,
    /// or by identity alone.
    pub units: Vec<(usize, Precision)>,
    /// The forces he sees only approximately, in the order the report lists them.
    pub forces: Vec<Force>,
    /// Whether the control of every area is public, seen or not (GITM 1.3: every square's nation
    /// and every city's state are shown to all); else he knows it where he sees, as the engine's
    /// sight gives it (`report::view`).
    pub public_control: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_seen_exactly_then_approximately_then_not_at_all() {
        let s = Sight { range: 2, exact: 0 };
        assert_eq!(s.precision(0), Some(Precision::Exact));
        assert_eq!(s.precision(2), Some(Precision::Approximate));
        assert_eq!(s.precision(3), None);
        assert_eq!(
            Sight::EVERYTHING.precision(u32::MAX),
            Some(Precision::Exact)
        );
        assert!(Precision::Approximate < Precision::Identity);
        assert!(Precision::Identity < Precision::Exact);
    }
}
