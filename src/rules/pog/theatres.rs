//! PoG's other theatres: the spaces off the Western and Eastern fronts whose rules name them. The
//! MEF spaces (11.1.10), nations entering the war (11.1.11), Albania (11.1.12), Persia and Ahwaz
//! (11.1.13), the Arab Northern Army's passing control (11.1.14), the Turk SN Corps' conversions and
//! Libya (11.1.15), the Near East map's armies and the To Caucasus box (11.3.1, 11.3.2, 12.1.9) and
//! the Taranto-Valona line (12.1.10).
//!
//! Which spaces these are is the scenario's `[theatres]` table of tables.toml; every key has a
//! default (the seed's names, or none), so a map without these spaces leaves the rules idle. The
//! state carries what changes: `mef_beachhead`, `caucasus_crossed`, `fall_of_the_tsar`, `ana_held`,
//! `sn_converted` in `[pog]`, and `near_east`, `ana`, `sn` on a unit.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::diag::Diagnostic;
use crate::engine::event::Event;
use crate::game::map::Map;
use crate::rule::Rule;

use super::action::Action;
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

impl Action<'_> {
    /// The theatre rules this action's tables hold.
    fn theatres(&self) -> &Theatres {
        &self.tables.theatres
    }

    /// 11.1.11: `nation` enters the war: it leaves the neutral list and every unit may enter it;
    /// 11.1.13: when it is the nation Persia waits for, Ahwaz becomes Allied controlled.
    pub fn enter_war(&mut self, nation: &str) {
        let before = self.pog.neutral.len();
        self.pog.neutral.retain(|n| !n.eq_ignore_ascii_case(nation));
        if self.pog.neutral.len() == before {
            return;
        }
        let power = self.active.clone();
        self.event(
            rules::NEUTRAL,
            "war",
            None,
            format!("{power} brings {nation} into the war: units of both sides may now enter it."),
        );
        let t = self.theatres().clone();
        if nation.eq_ignore_ascii_case(&t.persia_opens_with) {
            self.event(
                rules::PERSIA,
                "war",
                None,
                format!(
                    "{nation} is in the war: units of both sides may now enter {}.",
                    t.persia
                ),
            );
            if let Some(i) = self.map.find(&t.ahwaz) {
                let ahwaz = self.space_id(i);
                self.set_control(&ahwaz, &t.allies);
                self.event(
                    rules::PERSIA,
                    "control",
                    Some(&ahwaz),
                    format!("{ahwaz}, though in {}, is Allied controlled now that {nation} is in the war.", t.persia),
                );
            }
        }
    }

    /// 11.3.2, 12.1.9: a Russian corps passes between the To Caucasus box and the Near East: the
    /// turn's one passage is used.
    pub fn note_caucasus(&mut self, unit: &str, from: &str, to: &str, rule: Rule, how: &str) {
        let Some(u) = self.unit(unit) else {
            return;
        };
        if !u.nation.eq_ignore_ascii_case(RUSSIAN) || !self.theatres().crosses_caucasus(from, to) {
            return;
        }
        self.pog.caucasus_crossed = Some(self.pog.game_turn);
        let text = format!(
            "{unit} {how} between {} and {}: the one Russian corps of game turn {} to do so.",
            from, to, self.pog.game_turn
        );
        self.event(rule, "caucasus", Some(to), text);
    }

    /// Control of `space` taken by `power` with `units` (a move's `+` or end, an advance), with the
    /// theatre rules' bookkeeping: a CP space taken by the ANA alone is held only while it stays
    /// (11.1.14), one taken by the Turk SN Corps alone is marked for its attrition (11.1.15); taken by
    /// any other unit of the side, the space is converted for good.
    pub fn take_control(&mut self, space: &str, power: &str, units: &[String]) -> bool {
        let prior = self.controller(space).map(str::to_string);
        let changed = self.set_control(space, power);
        let all = |f: fn(&Unit) -> bool| {
            !units.is_empty() && units.iter().all(|id| self.unit(id).is_some_and(f))
        };
        let (by_ana, by_sn) = (all(|u| u.ana), all(|u| u.sn));
        let from_enemy = prior
            .as_deref()
            .filter(|p| !self.friendly(p, power))
            .map(str::to_string);
        if by_ana {
            if let Some(p) = from_enemy.clone() {
                self.pog.ana_held.insert(space.to_string(), p);
            }
        } else {
            self.pog.ana_held.remove(space);
        }
        let libya = space.eq_ignore_ascii_case(&self.theatres().libya);
        if by_sn && !libya {
            if let Some(p) = from_enemy {
                self.pog.sn_converted.insert(space.to_string(), p);
            }
        } else {
            self.pog.sn_converted.remove(space);
        }
        changed
    }

    /// 11.1.14: the ANA leaves `space`: a CP space it held reverts to CP control at once.
    pub fn ana_leaves(&mut self, unit: &str, space: &str) {
        if !self.unit(unit).is_some_and(|u| u.ana) {
            return;
        }
        let Some(back) = self.pog.ana_held.remove(space) else {
            return;
        };
        self.set_control(space, &back);
        self.event(
            rules::ANA,
            "control",
            Some(space),
            format!(
                "{unit}, the Arab Northern Army, leaves {space}: it reverts to {back} control."
            ),
        );
    }

    /// 11.1.15, at pbem's attrition (the end of a game turn, as 11.2.7's): each space the SN Corps
    /// converted, other than the one it stands in, that traces no supply reverts to the side that
    /// held it. Libya is never among them (its attrition is the normal one).
    pub fn sn_attrition(&mut self) {
        let marked: Vec<(String, String)> = self
            .pog
            .sn_converted
            .iter()
            .map(|(s, p)| (s.clone(), p.clone()))
            .collect();
        for (space, back) in marked {
            let Some(i) = self.map.find(&space) else {
                continue;
            };
            let Some(holder) = self.controller(&space).map(str::to_string) else {
                continue;
            };
            if self.pog.units_in(&space).any(|u| u.sn) || self.supplied(i, &holder) {
                continue;
            }
            self.pog.sn_converted.remove(&space);
            self.set_control(&space, &back);
            self.log(
                Event::new(
                    rules::SN_CORPS,
                    "attrition",
                    format!("{space}, converted by the Turk SN Corps, traces no supply: attrition returns it to {back}."),
                )
                .at(&space),
            );
        }
    }
}
