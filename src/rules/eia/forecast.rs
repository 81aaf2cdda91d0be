//! `pbem check --forecast` for EiA: what a power's own orders would do if no enemy moved and no die
//! were rolled, from the power's own view of the position: where each of its units ends (EiA 7: a corps
//! stops where it meets enemy corps it can see), which combats it declares (EiA 7.5), and which of its
//! orders, standing orders and SOP settings would settle its decisions in them (EiA 19.1).
//!
//! Only what the power sees at the start of the turn goes in (the engine's visibility service): enemy
//! units out of its sight are not in the forecast, which says so.

use std::collections::{BTreeMap, BTreeSet};

use crate::decide::{decide, DecidedBy, Sources};
use crate::diag::Source;
use crate::engine::visibility::Visibility;
use crate::game::state::State;
use crate::game::Game;
use crate::rules::eia::state::EiaState;

use super::decisions::{always_never, EiaPoint};
use super::orders::{self, EiaOrder};
use super::Eia;

/// A corps or leader of the power, where it stands before and after its move.
struct Mover {
    id: String,
    corps: bool,
    factors: u32,
    rating: u32,
    seniority: u32,
    from: usize,
    to: usize,
    path: Vec<usize>,
    /// The seen enemy corps that stop it.
    stopped_by: Vec<String>,
}

/// The forecast of `power`'s orders in `source` against `state`, as lines of text.
pub fn forecast(
    eia: &Eia,
    game: &Game,
    state: &State,
    source: &Source,
    power: &str,
) -> Vec<String> {
    let map = &game.map;
    let cx = orders::Context::new(map, state, &eia.tables).with_options(&eia.options);
    let lines = crate::orders::split(&source.text);
    let (_, lines, _) = crate::orders::Header::take(&source.text, lines);
    let (accepted, _) = orders::parse_all(source, &lines, power, &cx);
    let accepted: Vec<EiaOrder> = accepted.into_iter().map(|o| o.value).collect();

    let sight = Visibility::of(game, state);
    let friendly = |p: &str| {
        p == power
            || state
                .alliances
                .iter()
                .any(|g| g.iter().any(|x| x == p) && g.iter().any(|x| x == power))
    };
    // The enemy corps the power sees, by area: all that the forecast may know of the enemy.
    let mut enemies: BTreeMap<usize, Vec<(String, u32)>> = BTreeMap::new();
    for c in &EiaState::of(state).corps {
        let Some(a) = map.find(c.area.get_ref()) else {
            continue;
        };
        if c.factors > 0 && !friendly(c.power.get_ref()) && sight.precision(power, a).is_some() {
            enemies
                .entry(a)
                .or_default()
                .push((c.id.get_ref().clone(), c.factors));
        }
    }

    // Movement (EiA 7), in file order; a corps stops in the first area with enemy corps it sees.
    let mut units: Vec<Mover> = Vec::new();
    for c in EiaState::of(state)
        .corps
        .iter()
        .filter(|c| c.power.get_ref() == power)
    {
        let Some(a) = map.find(c.area.get_ref()) else {
            continue;
        };
        units.push(Mover {
            id: c.id.get_ref().clone(),
            corps: c.factors > 0,
            factors: c.factors,
            rating: 0,
            seniority: 0,
            from: a,
            to: a,
            path: Vec::new(),
            stopped_by: Vec::new(),
        });
    }
    for l in EiaState::of(state)
        .leaders
        .iter()
        .filter(|l| l.power.get_ref() == power)
    {
        let Some(a) = map.find(l.area.get_ref()) else {
            continue;
        };
        units.push(Mover {
            id: l.id.get_ref().clone(),
            corps: false,
            factors: 0,
            rating: l.rating,
            seniority: l.seniority,
            from: a,
            to: a,
            path: Vec::new(),
            stopped_by: Vec::new(),
        });
    }
    for o in &accepted {
        let EiaOrder::Move { unit, path, .. } = o else {
            continue;
        };
        let Some(u) = units.iter_mut().find(|u| u.id.eq_ignore_ascii_case(unit)) else {
            continue;
        };
        for step in path {
            let Some(next) = map.find(step) else { break };
            u.path.push(next);
            u.to = next;
            if u.corps {
                if let Some(e) = enemies.get(&next) {
                    u.stopped_by = e.iter().map(|(id, _)| id.clone()).collect();
                    break;
                }
            }
        }
    }

    let words = super::Words::of(game);
    let mut out = vec![
        format!(
            "FORECAST of the orders of {} for turn {}: as if no enemy moved and no die were rolled.",
            words.who(power),
            state.turn
        ),
        "It knows only what you see now: enemies out of your sight, and enemies that move, change it."
            .to_string(),
        String::new(),
        "Where your units end (EiA 7):".to_string(),
    ];
    let name = |i: usize| map.area(i).id.clone();
    let mut idle = Vec::new();
    for u in &units {
        if u.path.is_empty() {
            idle.push(format!("{} ({})", u.id, name(u.from)));
            continue;
        }
        let walked: Vec<String> = std::iter::once(u.from)
            .chain(u.path.iter().copied())
            .map(name)
            .collect();
        let end = if u.stopped_by.is_empty() {
            format!("ends in {}", name(u.to))
        } else {
            format!(
                "stops in {}: enemy corps you see there ({})",
                name(u.to),
                u.stopped_by.join(", ")
            )
        };
        out.push(format!("  {:<18} {}: {end}", u.id, walked.join(" - ")));
    }
    if !idle.is_empty() {
        out.push(format!("  Not ordered to move: {}.", idle.join(", ")));
    }

    // Standing orders as they will stand: the state's, changed by this file's.
    let mut standing = state.standing.get(power).cloned().unwrap_or_default();
    let mut changed = Vec::new();
    let mut chits: BTreeMap<String, String> = BTreeMap::new();
    let mut attacks: Vec<String> = Vec::new();
    for o in &accepted {
        match o {
            EiaOrder::Standing { key, value } => {
                let was = standing.insert(key.clone(), value.clone());
                changed.push(format!(
                    "  {}{}",
                    crate::rules::eia::standing::display(key, value),
                    was.map_or(" (new)".to_string(), |w| format!(" (was: {w})"))
                ));
            }
            EiaOrder::Chit { area, chit, .. } => {
                chits.insert(area.to_ascii_lowercase(), chit.clone());
            }
            EiaOrder::Attack { area } if !attacks.iter().any(|a| a.eq_ignore_ascii_case(area)) => {
                attacks.push(area.clone());
            }
            _ => {}
        }
    }
    let sources = |explicit| sources(explicit, &standing, &eia.sop);
    let by = |d: DecidedBy| match d {
        DecidedBy::Order => "by your order",
        DecidedBy::Standing => "by your standing order",
        DecidedBy::Sop => "by the SOP",
        DecidedBy::Roll => "at random",
    };
    let chit_of = |point: EiaPoint, area: &str| -> String {
        let allowed = if point == EiaPoint::AttackChit {
            &eia.tables.chits.attack
        } else {
            &eia.tables.chits.defence
        };
        let explicit = chits.get(&area.to_ascii_lowercase()).map(String::as_str);
        let first = allowed.first().cloned().unwrap_or_default();
        match decide(
            &point,
            &sources(explicit),
            |s| allowed.iter().find(|a| *a == s).cloned(),
            || Ok(first),
        ) {
            Ok(d) if d.by == DecidedBy::Roll => {
                format!("'{}' (the first chit, by the SOP)", d.value)
            }
            Ok(d) => format!("'{}' ({})", d.value, by(d.by)),
            Err(_) => "not settled".to_string(),
        }
    };
    let yes_no = |point: EiaPoint| -> (bool, &'static str) {
        // The SOP's absolutes read no standing order unless the game names their option.
        let mut s = sources(None);
        s.standing = eia.standing_for(&point, s.standing);
        decide(&point, &s, always_never, || Ok(true))
            .map(|d| (d.value, by(d.by)))
            .unwrap_or((true, "by the SOP"))
    };

    out.push(String::new());
    out.push("Combats you declare (EiA 7.5):".to_string());
    if attacks.is_empty() {
        out.push("  None.".to_string());
    }
    let battlefields: BTreeSet<usize> = attacks.iter().filter_map(|a| map.find(a)).collect();
    for area in &attacks {
        let Some(a) = map.find(area) else { continue };
        let here: Vec<&Mover> = units.iter().filter(|u| u.to == a).collect();
        let corps: Vec<&&Mover> = here.iter().filter(|u| u.corps).collect();
        let factors: u32 = corps.iter().map(|u| u.factors).sum();
        let leader = here
            .iter()
            .filter(|u| !u.corps && u.rating > 0)
            .min_by_key(|u| (u.seniority, u.id.clone()));
        let foes = enemies.get(&a).cloned().unwrap_or_default();
        if corps.is_empty() {
            out.push(format!(
                "  {area}: void: none of your corps will be there after movement."
            ));
            continue;
        }
        let ids: Vec<&str> = corps.iter().map(|u| u.id.as_str()).collect();
        let led = leader.map_or("no leader".to_string(), |l| format!("led by {}", l.id));
        if foes.is_empty() {
            out.push(format!(
                "  {area}: your {} ({}, {led}) find no enemy corps you can see: void unless enemies are there or come.",
                ids.join(", "),
                words.count(factors, "factor", "factors")
            ));
            continue;
        }
        let foe_ids: Vec<&str> = foes.iter().map(|(id, _)| id.as_str()).collect();
        let foe_factors: u32 = foes.iter().map(|(_, f)| f).sum();
        out.push(format!(
            "  {area}: your {} ({}, {led}) against {} ({}) that you see there.",
            ids.join(", "),
            words.count(factors, "factor", "factors"),
            foe_ids.join(", "),
            words.count(foe_factors, "factor", "factors")
        ));
        out.push(format!(
            "    attack chit {} [EiA 19.1]",
            chit_of(EiaPoint::AttackChit, area)
        ));
        let (reinforce, reinforce_by) = yes_no(EiaPoint::Reinforce);
        let near: Vec<&Mover> = units
            .iter()
            .filter(|u| u.corps && map.adjacent(u.to, a) && !battlefields.contains(&u.to))
            .collect();
        for u in near {
            if !reinforce {
                out.push(format!(
                    "    {} stays at {}: no march to the battle ({reinforce_by}) [EiA 7.5.2.11]",
                    u.id,
                    name(u.to)
                ));
                continue;
            }
            let need = units
                .iter()
                .filter(|l| !l.corps && l.rating > 0 && l.to == u.to)
                .map(|l| l.rating)
                .max()
                .unwrap_or(eia.tables.reinforce.no_leader);
            out.push(format!(
                "    {} at {} would try to march to it ({reinforce_by}): a d6 of {need} or less [EiA 7.5.2.11]",
                u.id,
                name(u.to)
            ));
        }
        let (pursue, pursue_by) = yes_no(EiaPoint::Pursue);
        out.push(format!(
            "    if you win, you {} ({pursue_by}) [EiA 7.5.2.10.2]",
            if pursue { "pursue" } else { "do not pursue" }
        ));
    }

    // Where the power may be attacked: its corps in or next to enemy corps it sees.
    out.push(String::new());
    out.push("If you are attacked (EiA 19.1):".to_string());
    let mut threatened: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for u in units.iter().filter(|u| u.corps) {
        let near = enemies.keys().any(|&e| e == u.to || map.adjacent(e, u.to));
        if near && !battlefields.contains(&u.to) {
            threatened.entry(u.to).or_default().push(&u.id);
        }
    }
    if threatened.is_empty() {
        out.push("  No corps of yours ends next to enemy corps you can see.".to_string());
    }
    for (a, ids) in &threatened {
        let area = name(*a);
        out.push(format!(
            "  {area} ({}): you would play the defence chit {}.",
            ids.join(", "),
            chit_of(EiaPoint::DefenceChit, &area)
        ));
    }

    out.push(String::new());
    out.push("Standing orders you change:".to_string());
    if changed.is_empty() {
        out.push("  None.".to_string());
    }
    out.extend(changed);
    out
}

/// Where a decision of the power is settled from: its explicit order, its standing orders, the SOP.
fn sources<'a>(
    explicit: Option<&'a str>,
    standing: &'a BTreeMap<String, String>,
    sop: &'a BTreeMap<String, String>,
) -> Sources<'a> {
    Sources {
        explicit,
        standing: Some(standing),
        scope: None,
        sop,
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::eia::test_fixture::{self, Fixture};

    fn forecast(power: &str, body: &str) -> String {
        let fx = Fixture::new();
        let text = format!("{}{body}", test_fixture::header(power, "x"));
        fx.game
            .ruleset
            .forecast(&fx.game, &fx.state, &test_fixture::source(&text), power)
            .join("\n")
    }

    #[test]
    fn a_corps_stops_at_enemy_corps_it_sees_and_its_chit_comes_from_its_order() {
        let f = forecast(
            "france",
            "move FR-I Ulm Augsburg\nmove Napoleon Stuttgart Ulm\nattack Ulm\nchit Ulm probe\n",
        );
        assert!(
            f.contains("FR-I               Stuttgart - Ulm: stops in Ulm: enemy corps you see there (AU-I)"),
            "{f}"
        );
        assert!(
            f.contains("Ulm: your FR-I (7 factors, led by Napoleon) against AU-I (8 factors)"),
            "{f}"
        );
        assert!(f.contains("attack chit 'probe' (by your order)"), "{f}");
        // FR-Cav in the Black Forest is next to Ulm: the SOP sends it to the battle.
        assert!(
            f.contains(
                "FR-Cav at Black-Forest would try to march to it (by the SOP): a d6 of 2 or less"
            ),
            "{f}"
        );
        assert!(f.contains("if you win, you pursue (by the SOP)"), "{f}");
    }

    #[test]
    fn standing_orders_of_the_file_settle_the_decisions_they_name() {
        let f = forecast(
            "france",
            "move FR-I Ulm\nattack Ulm\nstanding attack-chit echelon\nstanding honours deny\n",
        );
        assert!(
            f.contains("attack chit 'echelon' (by your standing order)"),
            "{f}"
        );
        assert!(f.contains("if you win, you pursue (by the SOP)"), "{f}");
        assert!(f.contains("standing honours deny (new)"), "{f}");
    }

    #[test]
    fn an_attack_without_corps_or_without_seen_enemies_is_void() {
        let f = forecast(
            "france",
            "attack Ulm\nmove FR-V Stuttgart Donauworth\nattack Donauworth\n",
        );
        assert!(
            f.contains("Ulm: void: none of your corps will be there"),
            "{f}"
        );
        assert!(
            f.contains(
                "Donauworth: your FR-V (7 factors, no leader) find no enemy corps you can see"
            ),
            "{f}"
        );
    }

    #[test]
    fn the_forecast_knows_nothing_of_enemies_out_of_sight() {
        // Austria at Ulm sees the Black Forest and Stuttgart, not Strasbourg beyond them.
        let f = forecast("austria", "move AU-I Black-Forest\nattack Black-Forest\n");
        assert!(
            f.contains("stops in Black-Forest: enemy corps you see there (FR-Cav)"),
            "{f}"
        );
        assert!(f.contains("against FR-Cav (5 factors)"), "{f}");
        for hidden in ["FR-V", "Napoleon", "Strasbourg"] {
            assert!(
                !f.contains(hidden),
                "austria's forecast names {hidden}:\n{f}"
            );
        }
    }
}
