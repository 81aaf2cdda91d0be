//! `turns/<t>/state.toml`: the position at the start of a turn. Every collection here iterates in a
//! fixed order (vectors in file order, `BTreeMap`s by key), so that writing a state gives the same bytes.
//!
//! One file format for every ruleset: the shared keys (game, turn, control, alliances, relations,
//! standing orders, who plays each power) are the engine's and are checked here ([`check_shared`]); the pieces of a game
//! system belong to its ruleset, which checks them (`Ruleset::check_state`) and refuses those of
//! another. Empires in Arms, the first ruleset, keeps its `[[corps]]`, `[[leader]]`, `[[fleet]]` and
//! `[[insurrection]]` at the top level; later rulesets keep theirs in one table named after the ruleset
//! (`[pog]`, typed in `rules/pog/`).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use toml::Spanned;

pub use super::relations::{Relation, Relations};

/// The position at the start of a turn.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub game: String,
    pub turn: u32,
    /// Which power controls each land area (areas not listed are uncontrolled), by area id.
    #[serde(default)]
    pub control: BTreeMap<String, String>,
    /// Alliances: each a list of powers allied with one another. Allies do not fight each other, may
    /// stand together, and do not take each other's areas.
    #[serde(default)]
    pub alliances: Vec<Vec<String>>,
    /// Pairs of powers allied, neutral or hostile (`game::relations`); a pair not listed is allied
    /// when an alliance holds both, hostile otherwise. EiA and PoG need only `alliances`.
    #[serde(default, skip_serializing_if = "Relations::is_empty")]
    pub relations: Relations,
    /// Standing orders per power: decision name to setting; kept until the power changes them.
    #[serde(default)]
    pub standing: BTreeMap<String, BTreeMap<String, String>>,
    /// Powers whose player left (EiA 19.2.1): who controls them, and until which turn.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub controlled: BTreeMap<String, Controlled>,
    /// New players waiting to take over a power at the next economic phase (EiA 19.2.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub incoming: BTreeMap<String, Player>,
    /// Players who took over a power: they replace the players and password of game.toml.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub owners: BTreeMap<String, Player>,
    /// Alliances a new player inherited may not be broken before this turn (EiA 19.2.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub alliance_locks: BTreeMap<String, u32>,
    /// The allies a new player inherited with his power, held to while its alliance lock stands
    /// (EiA 19.2.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inherited_allies: BTreeMap<String, Vec<String>>,
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
    /// The pieces and markers of a Paths of Glory game (`rules/pog/state.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pog: Option<crate::rules::pog::state::PogState>,
}

/// Who runs a power whose player left (EiA 19.2.1).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Controlled {
    /// The controlling power; none when the power is left to its standing orders and the SOP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// EiA 19.2.1, 14.3.1: the controller is to be rolled for when the turn is resolved (`pbem drop`
    /// without `--to`); until then the power is run by its standing orders and the SOP.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_roll: bool,
    /// The turn at whose start the control ends: the next economic phase.
    pub until: u32,
    /// Why, for the reports.
    pub reason: String,
}

/// A player of a power, as recorded when one replaces another (EiA 19.2.2).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub players: Vec<String>,
    /// argon2id PHC string.
    pub password_hash: String,
    /// The turn from which the player plays.
    pub from: u32,
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
    /// kind of corps (README, "Garrisons and guerrillas").
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

impl State {
    /// Whether `a` and `b` are the same power or allies.
    pub fn friendly(&self, a: &str, b: &str) -> bool {
        self.relation(a, b) == Relation::Allied
    }

    /// How `a` and `b` stand to each other: allied, neutral or hostile (`game::relations`).
    pub fn relation(&self, a: &str, b: &str) -> Relation {
        super::relations::relation(&self.relations, &self.alliances, a, b)
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

/// Checks the shared keys of a state: the game, the powers named by control, alliances and standing
/// orders, and the areas of `[control]`. The ruleset checks its own pieces (`Ruleset::check_state`).
/// The turns pbem counts: far beyond any game, and far from where `u32` turn numbers would wrap.
pub const MAX_TURN: u32 = 1_000_000;

pub fn check_shared(
    state: &State,
    config: &super::config::GameConfig,
    map: &super::map::Map,
) -> Vec<crate::diag::Diagnostic> {
    use crate::diag::Diagnostic;
    let mut out = Vec::new();
    let powers: Vec<&str> = config.power_ids().collect();
    // Issue 15.9: turn numbers must not wrap when pbem counts on.
    if state.turn >= MAX_TURN {
        out.push(
            Diagnostic::error(
                format!("turn {} is beyond the turns pbem counts", state.turn),
                0..0,
            )
            .hint(format!("a game has turns 0 to {}", MAX_TURN - 1)),
        );
    }
    for c in &state.corps {
        if c.morale.0 < 0 {
            out.push(
                Diagnostic::error(
                    format!(
                        "corps {} has a negative morale ({})",
                        c.id.get_ref(),
                        c.morale
                    ),
                    c.id.span(),
                )
                .hint("morale is 0 or more, as in 'morale = 3.5'"),
            );
        }
    }
    for (a, p) in &state.control {
        if map.find(a).is_none() {
            out.push(
                Diagnostic::error(format!("[control] names unknown area '{a}'"), 0..0)
                    .maybe_hint(map.suggest(a)),
            );
        }
        if !powers.contains(&p.as_str()) {
            out.push(Diagnostic::error(
                format!("[control] gives '{a}' to unknown power '{p}'"),
                0..0,
            ));
        }
    }
    for p in state.alliances.iter().flatten() {
        if !powers.contains(&p.as_str()) {
            out.push(Diagnostic::error(
                format!("an alliance names unknown power '{p}'"),
                0..0,
            ));
        }
    }
    out.extend(super::relations::check(
        &state.relations,
        &state.alliances,
        &powers,
    ));
    // EiA 19.2.2: an alliance a new player inherited stands until his lock's turn.
    for (power, until) in &state.alliance_locks {
        if state.turn >= *until {
            continue;
        }
        for ally in state.inherited_allies.get(power).into_iter().flatten() {
            if !state.friendly(power, ally) {
                out.push(
                    Diagnostic::error(
                        format!("{power}'s new player may not break its inherited alliance with {ally} before turn {until}"),
                        0..0,
                    )
                    .hint(format!("keep {power} and {ally} in one list of 'alliances' until turn {until}"))
                    .rule(crate::engine::players::REPLACED),
                );
            }
        }
    }
    for p in state.standing.keys() {
        if !powers.contains(&p.as_str()) {
            out.push(Diagnostic::error(
                format!("[standing] names unknown power '{p}'"),
                0..0,
            ));
        }
    }
    if state.game != config.game {
        out.push(Diagnostic::error(
            format!(
                "this state belongs to game '{}', not '{}'",
                state.game, config.game
            ),
            0..0,
        ));
    }
    out
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
