//! The Empires in Arms part of `state.toml`: the `[eia]` table, with the corps, leaders, fleets and
//! the insurrection corps waiting to be raised.
//!
//! ```toml
//! [[eia.corps]]
//! id = "FR-I"; power = "france"; kind = "infantry"; factors = 6; morale = 4.0; movement = 4; area = "Ulm"
//! [[eia.leader]]
//! id = "Napoleon"; power = "france"; rating = 5; seniority = 1; movement = 4; area = "Ulm"
//! [[eia.fleet]]
//! id = "FR-F1"; power = "france"; ships = 10; area = "Brest"
//! [[eia.fleet]]
//! id = "GB-Channel"; power = "britain"; ships = 14; area = "English-Channel"
//! admiral = { name = "Nelson", closing = -2 }
//! ```

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use toml::Spanned;

use crate::game::state::{RulesetTable, State};

/// The `[eia]` table. A state without one has no pieces on the map.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EiaState {
    /// Insurrection corps not yet on the map, raised when an enemy enters a border province
    /// (EiA 10.1.4.1).
    #[serde(
        default,
        rename = "insurrection",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub insurrection: Vec<Levy>,
    #[serde(default, rename = "corps")]
    pub corps: Vec<Corps>,
    #[serde(default, rename = "leader")]
    pub leaders: Vec<Leader>,
    #[serde(default, rename = "fleet")]
    pub fleets: Vec<Fleet>,
}

impl RulesetTable for EiaState {
    const KEY: &'static str = "eia";

    fn when_absent() -> Option<Self> {
        Some(EiaState::default())
    }
}

impl EiaState {
    /// The `[eia]` table of a state read for Empires in Arms (`Ruleset::parse_state` reads every
    /// state of an EiA game so; a state of another ruleset here is an internal error).
    pub fn of(state: &State) -> &EiaState {
        state
            .table::<EiaState>()
            .expect("internal: an EiA state holds an [eia] table")
    }

    /// The `[eia]` table to change.
    pub fn of_mut(state: &mut State) -> &mut EiaState {
        state
            .table_mut::<EiaState>()
            .expect("internal: an EiA state holds an [eia] table")
    }

    pub fn corps_of<'a>(&'a self, power: &'a str) -> impl Iterator<Item = &'a Corps> + 'a {
        self.corps
            .iter()
            .filter(move |c| c.power.get_ref() == power)
    }

    pub fn find_corps(&self, id: &str) -> Option<&Corps> {
        self.corps
            .iter()
            .find(|c| c.id.get_ref().eq_ignore_ascii_case(id))
    }

    pub fn find_leader(&self, id: &str) -> Option<&Leader> {
        self.leaders
            .iter()
            .find(|c| c.id.get_ref().eq_ignore_ascii_case(id))
    }

    pub fn find_fleet(&self, id: &str) -> Option<&Fleet> {
        self.fleets
            .iter()
            .find(|c| c.id.get_ref().eq_ignore_ascii_case(id))
    }

    /// Every unit id of the state (corps, leaders, fleets), for "did you mean" hints.
    pub fn unit_ids(&self) -> impl Iterator<Item = &str> {
        self.corps
            .iter()
            .map(|c| c.id.get_ref().as_str())
            .chain(self.leaders.iter().map(|l| l.id.get_ref().as_str()))
            .chain(self.fleets.iter().map(|f| f.id.get_ref().as_str()))
    }
}

/// The kinds of corps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CorpsKind {
    Infantry,
    Cavalry,
    Guard,
    Cossack,
    Freikorps,
    /// EiA 7.5.2.11 names guerrillas among the forces in a city that reinforce; pbem models them as a
    /// kind of corps (docs/rules/eia.md, "Garrisons and guerrillas").
    Guerrilla,
}

impl CorpsKind {
    pub fn name(self) -> &'static str {
        match self {
            CorpsKind::Infantry => "infantry",
            CorpsKind::Cavalry => "cavalry",
            CorpsKind::Guard => "guard",
            CorpsKind::Cossack => "cossack",
            CorpsKind::Freikorps => "freikorps",
            CorpsKind::Guerrilla => "guerrilla",
        }
    }

    /// Cossacks and freikorps retreat before combat (EiA 10.1.2.2.3).
    pub fn evades_combat(self) -> bool {
        matches!(self, CorpsKind::Cossack | CorpsKind::Freikorps)
    }

    /// Cavalry and cossack factors count as cavalry in pursuit.
    pub fn is_mounted(self) -> bool {
        matches!(self, CorpsKind::Cavalry | CorpsKind::Cossack)
    }
}

/// A corps counter.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Corps {
    pub id: Spanned<String>,
    pub power: Spanned<String>,
    pub kind: CorpsKind,
    /// Strength points.
    pub factors: u32,
    pub morale: Tenths,
    /// Movement allowance in areas per turn.
    pub movement: u32,
    /// Artillery factors attached to the corps (EiA 7.5.2.8 fires them before each round).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub artillery: u32,
    pub area: Spanned<String>,
    /// In the city of its area, as its garrison (EiA 7.5.1.1, 7.5.4), kept from turn to turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_city: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// An insurrection corps waiting to be raised (EiA 10.1.4.1): an infantry corps once on the map.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Levy {
    pub id: String,
    pub power: String,
    pub factors: u32,
    pub morale: Tenths,
    pub movement: u32,
}

/// A leader counter.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Leader {
    pub id: Spanned<String>,
    pub power: Spanned<String>,
    /// Tactical rating, 1 (poor) to 5 (Napoleon).
    pub rating: u32,
    /// Seniority: 1 is the most senior (EiA 10.6.1.1 breaks ties with it).
    pub seniority: u32,
    /// Movement allowance in areas per turn.
    pub movement: u32,
    pub area: Spanned<String>,
}

/// A fleet counter, at sea or in a port.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Fleet {
    pub id: Spanned<String>,
    pub power: Spanned<String>,
    pub ships: u32,
    pub area: Spanned<String>,
    /// The admiral with this fleet, who goes where it goes and is lost with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admiral: Option<Admiral>,
}

/// An admiral on a fleet: `admiral = { name = "Nelson", closing = -2 }`. EiA 19.1's Closing to Melee
/// table allows Nelson's -1/-2 on the roll; the seed does not say when each applies, so the state
/// gives the admiral's own modifier (-1 or -2), and a melee side with him on one of its fleets adds
/// it to its roll to close (`naval::closing_modifier`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Admiral {
    pub name: String,
    /// The modifier to his side's Closing to Melee roll: -1 or -2.
    pub closing: Spanned<i32>,
}

/// A number with one decimal, kept as an integer count of tenths (morale 3.5 is 35), so that no float
/// reaches a computation or a file's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Tenths(pub i64);

impl fmt::Display for Tenths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        write!(f, "{sign}{}.{}", self.0.abs() / 10, self.0.abs() % 10)
    }
}

impl std::str::FromStr for Tenths {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let (neg, digits) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s.strip_prefix('+').unwrap_or(s)),
        };
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, "0"));
        let bad = || format!("'{s}' is not a number with at most one decimal");
        if whole.is_empty()
            || frac.len() != 1
            || !whole
                .bytes()
                .chain(frac.bytes())
                .all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let v: i64 = whole
            .parse::<i64>()
            .map_err(|_| bad())?
            .checked_mul(10)
            .ok_or_else(bad)?
            + frac.parse::<i64>().map_err(|_| bad())?;
        Ok(Tenths(if neg { -v } else { v }))
    }
}

impl Serialize for Tenths {
    /// Written as a TOML float (`3.5`); Rust prints floats the same way on every platform.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.0 as f64 / 10.0)
    }
}

impl<'de> Deserialize<'de> for Tenths {
    /// Read from a float (`3.5`), an integer (`3`) or a string (`"3.5"`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Tenths;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number with at most one decimal, such as 3.5")
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Tenths, E> {
                let t = (v * 10.0).round();
                if !v.is_finite() || (t - v * 10.0).abs() > 1e-6 || t.abs() > 1e12 {
                    return Err(E::custom(format!(
                        "{v} is not a number with at most one decimal"
                    )));
                }
                Ok(Tenths(t as i64))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Tenths, E> {
                v.checked_mul(10)
                    .map(Tenths)
                    .ok_or_else(|| E::custom("number too large"))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Tenths, E> {
                i64::try_from(v)
                    .map_err(|_| E::custom("number too large"))
                    .and_then(|v| self.visit_i64(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Tenths, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenths_round_trip() {
        for s in ["3.0", "0.5", "-1.2", "12.9"] {
            assert_eq!(s.parse::<Tenths>().unwrap().to_string(), s);
        }
        assert_eq!("4".parse::<Tenths>().unwrap(), Tenths(40));
        assert!("3.25".parse::<Tenths>().is_err());
        assert!("x".parse::<Tenths>().is_err());
        assert!("99999999999999999999".parse::<Tenths>().is_err());
    }
}
