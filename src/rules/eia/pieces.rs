//! The `[eia]` table of `state.toml` (typed in `state.rs`): its corps, leaders, fleets and
//! insurrection levies, checked against the map and the powers (the shared keys are checked by
//! `game::state::check_shared`), and seen by the engine as units.

use std::collections::{BTreeMap, BTreeSet};

use toml::Spanned;

use crate::diag::{did_you_mean, Diagnostic};
use crate::game::config::GameConfig;
use crate::game::map::Map;
use crate::game::state::State;
use crate::rules::eia::state::{Corps, EiaState};
use crate::rules::UnitView;

/// Checks the EiA pieces of a state: areas and powers exist, ids are unique, corps and leaders are
/// on land, fleets at sea or in a port, morale is not negative, garrisons (`in_city = true`) in a
/// city of their area within its capacity and of one side.
pub fn check_pieces(state: &State, config: &GameConfig, map: &Map) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let eia = EiaState::of(state);
    let powers: Vec<&str> = config.power_ids().collect();
    // Looked up once per unit: a set, not a scan of the game's powers.
    let known: BTreeSet<&str> = powers.iter().copied().collect();
    let area = |a: &Spanned<String>, out: &mut Vec<Diagnostic>| -> Option<usize> {
        let found = map.find(a.get_ref());
        if found.is_none() {
            out.push(
                Diagnostic::error(format!("unknown area '{}'", a.get_ref()), a.span())
                    .label("not in map.toml")
                    .maybe_hint(map.suggest(a.get_ref())),
            );
        }
        found
    };
    let power = |p: &Spanned<String>, out: &mut Vec<Diagnostic>| {
        if !known.contains(p.get_ref().as_str()) {
            out.push(
                Diagnostic::error(format!("unknown power '{}'", p.get_ref()), p.span()).maybe_hint(
                    did_you_mean(p.get_ref(), powers.iter().copied())
                        .map(|s| format!("did you mean '{s}'?")),
                ),
            );
        }
    };
    let mut ids = BTreeMap::new();
    let mut unique = |id: &Spanned<String>, out: &mut Vec<Diagnostic>| {
        let key = id.get_ref().to_lowercase();
        if id.get_ref().is_empty()
            || !id
                .get_ref()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            out.push(
                Diagnostic::error(
                    format!("unit id '{}' is not a plain word", id.get_ref()),
                    id.span(),
                )
                .hint("unit ids are ASCII letters, digits and '-'"),
            );
        }
        if ids.insert(key, ()).is_some() {
            out.push(Diagnostic::error(
                format!("unit id '{}' is used twice", id.get_ref()),
                id.span(),
            ));
        }
    };
    // The garrison of each city so far: area -> corps in it.
    let mut garrisons: BTreeMap<usize, Vec<&Corps>> = BTreeMap::new();
    for c in &eia.corps {
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
        unique(&c.id, &mut out);
        power(&c.power, &mut out);
        if let Some(i) = area(&c.area, &mut out) {
            if !map.area(i).is_land() {
                out.push(
                    Diagnostic::error(
                        format!("corps {} stands at sea", c.id.get_ref()),
                        c.area.span(),
                    )
                    .hint("corps stand in land areas"),
                );
            } else if c.in_city {
                out.extend(check_garrison(
                    c,
                    i,
                    garrisons.entry(i).or_default(),
                    state,
                    map,
                ));
            }
        }
    }
    for l in &eia.insurrection {
        unique(&Spanned::new(0..0, l.id.clone()), &mut out);
        if !known.contains(l.power.as_str()) {
            out.push(Diagnostic::error(
                format!(
                    "insurrection corps {} belongs to unknown power '{}'",
                    l.id, l.power
                ),
                0..0,
            ));
        }
    }
    for l in &eia.leaders {
        unique(&l.id, &mut out);
        power(&l.power, &mut out);
        if let Some(i) = area(&l.area, &mut out) {
            if !map.area(i).is_land() {
                out.push(Diagnostic::error(
                    format!("leader {} stands at sea", l.id.get_ref()),
                    l.area.span(),
                ));
            }
        }
    }
    for f in &eia.fleets {
        unique(&f.id, &mut out);
        power(&f.power, &mut out);
        // EiA 19.1 (Closing to Melee): Nelson's modifier is -1 or -2.
        if let Some(a) = &f.admiral {
            if !matches!(*a.closing.get_ref(), -1 | -2) {
                out.push(
                    Diagnostic::error(
                        format!(
                            "admiral {} closing modifier is {}: EiA 19.1 gives -1 or -2",
                            crate::words::Possessive(&a.name),
                            a.closing.get_ref()
                        ),
                        a.closing.span(),
                    )
                    .hint("write closing = -1 or closing = -2"),
                );
            }
        }
        if let Some(i) = area(&f.area, &mut out) {
            let a = map.area(i);
            if a.is_land() && !a.port {
                out.push(
                    Diagnostic::error(
                        format!(
                            "fleet {} is in '{}', which is neither sea nor port",
                            f.id.get_ref(),
                            a.id
                        ),
                        f.area.span(),
                    )
                    .hint("put fleets in sea areas or in areas with `port = true`"),
                );
            }
        }
    }
    out
}

/// A corps the state puts in the city of area `i` (EiA 7.5.1.1, 7.5.4), after the corps of `held` that
/// the state put there before it: the area has a city, the city has room for it (its garrison
/// capacity in map.toml), and the garrison is of one side (a power and its allies).
fn check_garrison<'s>(
    c: &'s Corps,
    i: usize,
    held: &mut Vec<&'s Corps>,
    state: &State,
    map: &Map,
) -> Option<Diagnostic> {
    let a = map.area(i);
    let Some(city) = a.city else {
        return Some(
            Diagnostic::error(
                format!(
                    "corps {} is in the city of '{}', which has no city",
                    c.id.get_ref(),
                    a.id
                ),
                c.area.span(),
            )
            .label("no city in this area")
            .hint(
                "remove `in_city = true`, or move the corps to an area with a `city` in map.toml",
            ),
        );
    };
    if held.len() as u32 >= city.garrison {
        return Some(
            Diagnostic::error(
                format!(
                    "corps {} does not fit in the city of '{}': its garrison is {} corps",
                    c.id.get_ref(),
                    a.id,
                    city.garrison
                ),
                c.area.span(),
            )
            .label("one corps too many in this city")
            .hint(format!(
                "at most {} corps in '{}' may have `in_city = true`",
                city.garrison, a.id
            )),
        );
    }
    if let Some(other) = held
        .iter()
        .find(|o| !state.friendly(o.power.get_ref(), c.power.get_ref()))
    {
        return Some(
            Diagnostic::error(
                format!(
                    "corps {} ({}) and {} ({}) are enemies, both in the city of '{}'",
                    c.id.get_ref(),
                    c.power.get_ref(),
                    other.id.get_ref(),
                    other.power.get_ref(),
                    a.id
                ),
                c.area.span(),
            )
            .label("an enemy in this city")
            .hint("a city holds the garrison of one side, a power and its allies: keep `in_city = true` for one side"),
        );
    }
    held.push(c);
    None
}

/// Every EiA unit as the engine sees it: corps, leaders, fleets, described in this pbem's words
/// (`super::WORDING`).
pub fn units(state: &State) -> Vec<UnitView> {
    units_told(state, &super::Words::default().agreeing())
}

/// [`units`] as the reports of a turn told in `words` describe them: "1 factor", "1 ship" from
/// wording 1; "1 factors", "1 ships" before (`super::WORDING`).
pub fn units_told(state: &State, words: &super::Words) -> Vec<UnitView> {
    let state = EiaState::of(state);
    let mut all = Vec::new();
    for c in &state.corps {
        all.push(UnitView {
            id: c.id.get_ref().clone(),
            owner: c.power.get_ref().clone(),
            area: c.area.get_ref().clone(),
            kind: "corps",
            detail: format!(
                "{} corps, {}, morale {}{}",
                c.kind.name(),
                words.count(c.factors, "factor", "factors"),
                c.morale,
                if c.in_city { ", in the city" } else { "" }
            ),
            strength: c.factors,
            sees: c.factors > 0,
        });
    }
    for l in &state.leaders {
        all.push(UnitView {
            id: l.id.get_ref().clone(),
            owner: l.power.get_ref().clone(),
            area: l.area.get_ref().clone(),
            kind: "leader",
            detail: format!("leader, rating {}, seniority {}", l.rating, l.seniority),
            strength: l.rating,
            sees: true,
        });
    }
    for f in &state.fleets {
        all.push(UnitView {
            id: f.id.get_ref().clone(),
            owner: f.power.get_ref().clone(),
            area: f.area.get_ref().clone(),
            kind: "fleet",
            detail: match &f.admiral {
                Some(a) => format!(
                    "fleet, {}, admiral {}",
                    words.count(f.ships, "ship", "ships"),
                    a.name
                ),
                None => format!("fleet, {}", words.count(f.ships, "ship", "ships")),
            },
            strength: f.ships,
            sees: true,
        });
    }
    all
}
