//! PoG's other theatres: the spaces off the Western and Eastern fronts whose rules name them. The
//! MEF spaces (11.1.10), nations entering the war (11.1.11), Albania (11.1.12), Persia and Ahwaz
//! (11.1.13), the Arab Northern Army's passing control (11.1.14), the Turk SN Corps' conversions and
//! Libya (11.1.15), the Near East map's armies and the To Caucasus box (11.3.1, 11.3.2, 12.1.9) and
//! the Taranto-Valona line (12.1.10).
//!
//! Which spaces these are is the scenario's `[theatres]` table of tables.toml; every key has a
//! default (the seed's names, or none), so a map without these spaces leaves the rules idle. The
//! state carries what changes: `mef_beachhead`, `caucasus_crossed`, `fall_of_the_tsar`, `ana_held`,
//! `sn_converted` in `[pog]`, and `near_east`, `ana`, `sn` on a unit. This file asks the questions
//! (which spaces are closed to a unit, whether a passage is refused); theatre_actions.rs does what the
//! rules do as an action runs.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::diag::Diagnostic;
use crate::game::map::Map;
use crate::rule::Rule;

use super::rules;
use super::state::{PogState, Unit};

/// The nation code of Russian units (11.3.2, 12.1.9).
pub const RUSSIAN: &str = "ru";
/// The nation code of Italian units (12.1.10).
pub const ITALIAN: &str = "it";
/// The nations (the map's `nation`) whose spaces let units in Taranto attack across to Valona
/// (12.1.10).
const TARANTO_PARTNERS: [&str; 2] = ["albania", "greece"];

/// The `[theatres]` table of tables.toml.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Theatres {
    /// The Allied side's power id (11.1.12's supply, 11.1.13's Ahwaz, 11.1.14's ANA).
    pub allies: String,
    /// 11.1.10: the MEF spaces, entered only where the MEF Beach Head marker stands.
    pub mef: Vec<String>,
    /// 11.1.11: the nations a `war` order brings into the war, each with the power whose order it is.
    pub entry: BTreeMap<String, String>,
    /// 11.1.12: Albanian spaces trace supply to this space even while Italy is neutral; 12.1.10: one
    /// end of the Taranto-Valona line.
    pub taranto: String,
    /// 12.1.10: the other end of the Taranto-Valona line.
    pub valona: String,
    /// 11.1.13: the nation (the map's `nation`) of Persia's spaces.
    pub persia: String,
    /// 11.1.13: Persia opens when this nation enters the war.
    pub persia_opens_with: String,
    /// 11.1.13: the Persian space that becomes Allied controlled when Turkey enters the war.
    pub ahwaz: String,
    /// 11.1.15: the Libya space, which the SN Corps' attrition leaves to normal attrition.
    pub libya: String,
    /// 11.3.1: the spaces of the Near East map, Constantinople and Bursa included.
    pub near_east: Vec<String>,
    /// 11.3.2: the To Caucasus box.
    pub caucasus_box: String,
    /// 11.3.2: the Near East spaces next to the To Caucasus box.
    pub caucasus_gates: Vec<String>,
}

impl Default for Theatres {
    fn default() -> Self {
        Theatres {
            allies: "allies".into(),
            mef: Vec::new(),
            entry: BTreeMap::new(),
            taranto: "Taranto".into(),
            valona: "Valona".into(),
            persia: "persia".into(),
            persia_opens_with: "turkey".into(),
            ahwaz: "Ahwaz".into(),
            libya: "Libya".into(),
            near_east: Vec::new(),
            caucasus_box: "To-Caucasus".into(),
            caucasus_gates: vec!["Grozny".into(), "Poti".into()],
        }
    }
}

fn named(list: &[String], space: &str) -> bool {
    list.iter().any(|s| s.eq_ignore_ascii_case(space))
}

impl Theatres {
    /// The spaces the table names that the map lacks: an error for the lists a scenario writes out
    /// (MEF, Near East, gates), none for the single spaces whose defaults are the seed's names.
    pub fn check(&self, map: &Map, powers: &[&str]) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let lists = [
            ("mef", &self.mef),
            ("near_east", &self.near_east),
            ("caucasus_gates", &self.caucasus_gates),
        ];
        for (key, list) in lists {
            for s in list {
                // The gates are the seed's names by default: checked only on a map with the box.
                let idle = key == "caucasus_gates" && map.find(&self.caucasus_box).is_none();
                if map.find(s).is_none() && !idle {
                    out.push(
                        Diagnostic::error(
                            format!(
                                "tables.toml [theatres] {key} names '{s}', which is not on the map"
                            ),
                            0..0,
                        )
                        .maybe_hint(map.suggest(s)),
                    );
                }
            }
        }
        for (nation, power) in &self.entry {
            if !powers.contains(&power.as_str()) {
                out.push(
                    Diagnostic::error(
                        format!("tables.toml [theatres] entry gives {nation} to unknown power '{power}'"),
                        0..0,
                    )
                    .hint(format!("powers in game.toml: {}", powers.join(", "))),
                );
            }
        }
        out
    }

    pub fn is_near_east(&self, space: &str) -> bool {
        named(&self.near_east, space)
    }

    /// Whether a step from `a` to `b` passes between the To Caucasus box and the Near East (11.3.2).
    pub fn crosses_caucasus(&self, a: &str, b: &str) -> bool {
        let gate = |s: &str| named(&self.caucasus_gates, s);
        (a.eq_ignore_ascii_case(&self.caucasus_box) && gate(b))
            || (b.eq_ignore_ascii_case(&self.caucasus_box) && gate(a))
    }

    /// Whether a step from `a` to `b` crosses the Taranto-Valona line (12.1.10).
    pub fn crosses_taranto(&self, a: &str, b: &str) -> bool {
        let (t, v) = (&self.taranto, &self.valona);
        (a.eq_ignore_ascii_case(t) && b.eq_ignore_ascii_case(v))
            || (a.eq_ignore_ascii_case(v) && b.eq_ignore_ascii_case(t))
    }
}

/// Why a space is closed to a unit, with the rule that closes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closed {
    pub rule: Rule,
    pub why: String,
    pub hint: String,
}

/// Whether `unit` may not enter `space`, and why: a neutral nation (11.1.11; Albania never is,
/// 11.1.12; Persia only until `persia_opens_with` enters the war, 11.1.13), an MEF space without the
/// beach-head marker (11.1.10), a Near East space for an army not allowed there (11.3.1).
pub fn closed_to(
    map: &Map,
    t: &Theatres,
    pog: &PogState,
    unit: &Unit,
    space: &str,
) -> Option<Closed> {
    let nation = map.find(space).and_then(|i| map.area(i).nation.clone());
    if let Some(n) = &nation {
        if n.eq_ignore_ascii_case(&t.persia) {
            if pog.is_neutral(Some(&t.persia_opens_with)) {
                return Some(Closed {
                    rule: rules::PERSIA,
                    why: format!(
                        "{space} is in {n}, closed until {} enters the war",
                        t.persia_opens_with
                    ),
                    hint: format!(
                        "units of both sides enter {n} once {} is in the war",
                        t.persia_opens_with
                    ),
                });
            }
        } else if pog.is_neutral(Some(n)) {
            return Some(Closed {
                rule: rules::NEUTRAL,
                why: format!("{space} is in {n}, which is neutral"),
                hint: format!("no unit enters {n} until it enters the war"),
            });
        }
    }
    if named(&t.mef, space)
        && !pog
            .mef_beachhead
            .as_deref()
            .is_some_and(|b| b.eq_ignore_ascii_case(space))
    {
        return Some(Closed {
            rule: rules::MEF,
            why: format!("{space} is an MEF space without the MEF Beach Head marker"),
            hint: "units enter only the MEF space that holds the beach-head marker".into(),
        });
    }
    if unit.is_army() && !unit.near_east && t.is_near_east(space) {
        return Some(Closed {
            rule: rules::NEAR_EAST_ARMIES,
            why: format!("{} may not enter {space}, on the Near East map", unit.id()),
            hint: "of the armies only RU CAU, BR MEF and NE, FR OR, TU YLD and AoI (`near_east = true`) go there".into(),
        });
    }
    None
}

/// Whether a Russian unit may not pass between the To Caucasus box and the Near East from `from` to
/// `to` (11.3.2 for a move, 12.1.9 for an attack or a retreat): never an army, never after the Fall
/// of the Tsar, and one corps a game turn. `others` counts the Russian corps already crossing in the
/// same action before this one.
pub fn caucasus_refuses(
    t: &Theatres,
    pog: &PogState,
    unit: &Unit,
    from: &str,
    to: &str,
    others: usize,
) -> Option<String> {
    if !unit.nation.eq_ignore_ascii_case(RUSSIAN) || !t.crosses_caucasus(from, to) {
        return None;
    }
    if unit.is_army() {
        Some(format!(
            "{} is a Russian army: no army passes between {} and the Near East",
            unit.id(),
            t.caucasus_box
        ))
    } else if pog.fall_of_the_tsar {
        Some(format!(
            "after the Fall of the Tsar no Russian unit passes between {} and the Near East",
            t.caucasus_box
        ))
    } else if pog.caucasus_crossed == Some(pog.game_turn) || others > 0 {
        Some(format!(
            "one Russian corps a turn passes between {} and the Near East, and one has this turn",
            t.caucasus_box
        ))
    } else {
        None
    }
}

/// 12.1.10: why an attack with `units` on `target` may not be fought, when some cross from Taranto
/// to Valona (or back) and are not Italian, and no unit of the combat stands in a space of Albania or
/// Greece (pbem's reading of the Taranto half: Italian units need no such partner; others do).
pub fn taranto_refuses(
    map: &Map,
    t: &Theatres,
    pog: &PogState,
    units: &[String],
    target: &str,
) -> Option<String> {
    let attackers: Vec<&Unit> = units.iter().filter_map(|id| pog.unit(id)).collect();
    let crossing_others = attackers
        .iter()
        .any(|u| t.crosses_taranto(u.space(), target) && !u.nation.eq_ignore_ascii_case(ITALIAN));
    if !crossing_others {
        return None;
    }
    let partner = attackers.iter().any(|u| {
        map.find(u.space())
            .and_then(|i| map.area(i).nation.as_deref())
            .is_some_and(|n| TARANTO_PARTNERS.iter().any(|p| p.eq_ignore_ascii_case(n)))
    });
    (!partner).then(|| {
        format!(
            "units other than Italian ones attack across the {}-{} line only together with friendly units in Albania or Greece (PoG 12.1.10)",
            t.taranto, t.valona
        )
    })
}
