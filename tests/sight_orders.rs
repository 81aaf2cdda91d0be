//! Fog of war in the answer to a player's orders (the acknowledgement, `pbem check`), over the
//! rulesets with fog: EiA (a power sees the areas of its units and their neighbours) and GITM (other
//! sides only near its brigades). PoG, NGG and WBTS are games of open information (tests/sight_fog.rs):
//! nothing there is out of sight, so their answers may name any unit.
//!
//! For each sample orders file of turn 1, every line that names a unit of the power is tried again
//! naming each unit of another power out of its sight, with lines that name that unit's place (an
//! attack, an engagement, a move along the way to it, a stack, an outflanking force, a standing order
//! scoped to it or to its place), and each of its fleets on its way to each port out of its sight.
//! The answer (every accepted order, every diagnostic as rendered) must be the same with those units
//! in the state and with them all taken out, and (EiA, where whose a place is is known only in
//! sight) with the control of every place out of its sight taken out too: an answer that differs
//! tells the player of a unit he cannot see, its id or its presence, or whose a place is.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use pbem::diag::Source;
use pbem::game::Game;

use crate::support::orders_property::sample_order_files;

/// A ruleset with fog: its bundled scenario, the tables of its units in state.toml, how many steps
/// of the map (areas or squares) a power's sight reaches at most from its units (EiA: the
/// neighbours; GITM: 5, an army headquarters' reach over its own side, beyond any other side's),
/// and whether whose each place is is known to all (GITM 1.3) or only in sight (EiA).
struct Fogged {
    game: &'static str,
    tables: &'static [&'static str],
    sight: usize,
    control_public: bool,
}

const FOGGED: [Fogged; 2] = [
    Fogged {
        game: "ulm-1805",
        tables: &["eia.corps", "eia.leader", "eia.fleet"],
        sight: 1,
        control_public: false,
    },
    Fogged {
        game: "gitm-italy-1809",
        tables: &["gitm.brigade", "gitm.ship"],
        sight: 5,
        control_public: true,
    },
];

/// `text` (a state.toml) without the lines of its `[control]` table that name an area of `areas`.
fn without_control(text: &str, areas: &BTreeSet<String>) -> String {
    let mut out = String::new();
    let mut in_control = false;
    for line in text.lines() {
        if line.starts_with('[') {
            in_control = line.trim() == "[control]";
        }
        let area = line
            .split(" = ")
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"');
        if !(in_control && areas.contains(area)) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// `text` (a state.toml) without the `[[<table>]]` block of the unit `id`, if one of `tables` has it.
fn without(text: &str, tables: &[&str], id: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with('['))
        .chain([lines.len()])
        .collect();
    for pair in starts.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        let header = lines[from].trim();
        if !tables.iter().any(|t| header == format!("[[{t}]]")) {
            continue;
        }
        let names = lines[from..to].iter().any(|l| {
            l.trim_start()
                .strip_prefix("id = \"")
                .and_then(|rest| rest.split('"').next())
                == Some(id)
        });
        if names {
            let kept: Vec<&str> = lines[..from].iter().chain(&lines[to..]).copied().collect();
            return Some(kept.join("\n") + "\n");
        }
    }
    None
}

/// The steps from the nearest of `from` to every area of the map (breadth first over its
/// adjacency), passing only through the areas `through` allows.
fn distances_through(
    game: &Game,
    from: &BTreeSet<usize>,
    through: &dyn Fn(usize) -> bool,
) -> Vec<usize> {
    let mut d = vec![usize::MAX; game.map.areas.len()];
    let mut queue: VecDeque<usize> = from.iter().copied().collect();
    for &a in from {
        d[a] = 0;
    }
    while let Some(a) = queue.pop_front() {
        if d[a] > 0 && !through(a) {
            continue;
        }
        for &b in &game.map.area(a).adjacent {
            if d[b] == usize::MAX {
                d[b] = d[a] + 1;
                queue.push_back(b);
            }
        }
    }
    d
}

/// The steps from the nearest of `from` to every area of the map.
fn distances(game: &Game, from: &BTreeSet<usize>) -> Vec<usize> {
    distances_through(game, from, &|_| true)
}

/// A shortest way from `start` to `end` over the map, both ends' names included, its steps between
/// them all areas `through` allows (a fleet's: the seas); none when there is no such way.
fn way(game: &Game, start: usize, end: usize, through: &dyn Fn(usize) -> bool) -> Vec<String> {
    let back = distances_through(game, &BTreeSet::from([end]), through);
    if back[start] == usize::MAX {
        return Vec::new();
    }
    let mut at = start;
    let mut out = vec![game.map.area(at).id.clone()];
    while at != end {
        at = *game
            .map
            .area(at)
            .adjacent
            .iter()
            .find(|&&b| back[b].checked_add(1) == Some(back[at]) && (b == end || through(b)))
            .unwrap();
        out.push(game.map.area(at).id.clone());
    }
    out
}

/// What a check of `text` answers: the accepted orders with their lines, and every diagnostic as
/// rendered.
fn answer(game: &Game, state: &pbem::game::state::State, name: &str, text: &str) -> String {
    let src = Source::new(name.to_string(), text.to_string());
    let checked = game.ruleset.check_orders(game, state, &src);
    let accepted: Vec<String> = checked
        .accepted
        .iter()
        .map(|(line, o)| format!("{line}: {o}"))
        .collect();
    format!(
        "{}\n{}",
        accepted.join("\n"),
        src.render(&checked.diagnostics)
    )
}

fn holds(fogged: &Fogged) -> usize {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(fogged.game);
    pbem::bundled::write_scenario(fogged.game, &dir).unwrap();
    let game = Game::load(&dir).unwrap();
    let text = std::fs::read_to_string(dir.join("turns/1/state.toml")).unwrap();
    let state = game.load_state(1).unwrap();
    let units = game.ruleset.units(&state);
    let mut tried = 0;
    for file in sample_order_files(fogged.game) {
        let orders = std::fs::read_to_string(&file).unwrap();
        let power = orders
            .lines()
            .find_map(|l| l.strip_prefix("power "))
            .unwrap()
            .trim()
            .to_string();
        let own: Vec<&pbem::rules::UnitView> = units.iter().filter(|u| u.owner == power).collect();
        let own_areas: BTreeSet<usize> =
            own.iter().filter_map(|u| game.map.find(&u.area)).collect();
        let far = distances(&game, &own_areas);
        // The units of other powers out of its sight, and the state without them all (a unit whose
        // removal the state does not take, one a garrison or siege names, stays and is not tried).
        let mut hidden = Vec::new();
        let mut fogless = text.clone();
        for u in units.iter().filter(|u| u.owner != power) {
            let Some(at) = game.map.find(&u.area) else {
                continue;
            };
            if far[at] <= fogged.sight {
                continue;
            }
            let Some(next) = without(&fogless, fogged.tables, &u.id) else {
                continue;
            };
            let Ok(s) = game.parse_state(&Source::new("state.toml", next.clone())) else {
                continue;
            };
            if game.check_state(&s).iter().any(|d| d.is_error()) {
                continue;
            }
            fogless = next;
            hidden.push((u, at));
        }
        // Where the power does not see, whose each area is it does not know either (EiA).
        let unseen: BTreeSet<String> = (0..game.map.areas.len())
            .filter(|&a| far[a] > fogged.sight)
            .map(|a| game.map.area(a).id.clone())
            .collect();
        if !fogged.control_public {
            fogless = without_control(&fogless, &unseen);
        }
        let fogless = game
            .parse_state(&Source::new("state.toml", fogless))
            .unwrap();
        // The lines: the sample's, and each naming a hidden unit instead of one of the power's.
        let (header, body): (Vec<&str>, Vec<&str>) = orders.lines().partition(|l| {
            let word = l.split_whitespace().next().unwrap_or("");
            ["game", "power", "player", "password", "turn", "entropy"].contains(&word)
        });
        let body: Vec<&str> = body
            .into_iter()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .collect();
        let first_own = own.first().map(|u| u.id.clone()).unwrap_or_default();
        let own_at = own_areas.first().copied();
        let mut lines: Vec<String> = body.iter().map(|l| l.to_string()).collect();
        for (u, at) in &hidden {
            let area = &game.map.area(*at).id;
            for l in &body {
                let words: Vec<&str> = l.split_whitespace().collect();
                if let Some(k) = words
                    .iter()
                    .position(|w| own.iter().any(|o| o.id.eq_ignore_ascii_case(w)))
                {
                    let mut named = words.clone();
                    named[k] = &u.id;
                    lines.push(named.join(" "));
                }
            }
            lines.extend([
                format!("attack {area}"),
                format!("engage {area}"),
                format!("chit {area} outflank with {first_own}"),
                format!("chit {area} outflank with {}", u.id),
                format!("move {first_own} with {} {area}", u.id),
                format!("standing intercept {} never", u.id),
                format!("standing surrender {area} never"),
                format!("support {}", u.id),
                format!("board {first_own} {}", u.id),
                format!("sail {} to {area}", u.id),
            ]);
            if let Some(from) = own_at {
                let path = way(&game, from, *at, &|_| true);
                for k in 2..=path.len().min(6) {
                    lines.push(format!("move {first_own} {}", path[1..k].join(" ")));
                }
            }
            tried += 1;
        }
        // Each of its fleets on its way to each port out of its sight, one port a file (a unit
        // moves once a file): whose the port is, the answer must not tell.
        let mut voyages: Vec<Vec<String>> = Vec::new();
        for u in own.iter().filter(|u| u.kind == "fleet") {
            let Some(from) = game.map.find(&u.area) else {
                continue;
            };
            let seas = |a: usize| !game.map.area(a).is_land();
            let ports = (0..game.map.areas.len())
                .filter(|&a| far[a] > fogged.sight && game.map.area(a).port);
            for (k, to) in ports.enumerate() {
                let path = way(&game, from, to, &seas);
                if path.len() > 1 {
                    voyages.resize(voyages.len().max(k + 1), Vec::new());
                    voyages[k].push(format!("move {} {}", u.id, path[1..].join(" ")));
                }
            }
        }
        let name = format!("orders/1/{}", file.file_name().unwrap().to_string_lossy());
        for lines in std::iter::once(&lines).chain(&voyages) {
            let text = format!("{}\n{}\n", header.join("\n"), lines.join("\n"));
            same_answer(fogged, &game, (&state, &fogless), &name, &text);
        }
    }
    tried
}

/// Panics when the answer to `text` differs in the two states (with the units and places out of
/// the power's sight, and without them).
fn same_answer(
    fogged: &Fogged,
    game: &Game,
    (state, fogless): (&pbem::game::state::State, &pbem::game::state::State),
    name: &str,
    text: &str,
) {
    let seen = answer(game, state, name, text);
    let unseen = answer(game, fogless, name, text);
    if seen != unseen {
        let diff: BTreeMap<usize, (&str, &str)> = seen
            .lines()
            .zip(unseen.lines())
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .take(6)
            .collect();
        panic!(
            "{}: the answer to {name} differs with the units and places out of its sight taken out of the state: {diff:#?}",
            fogged.game
        );
    }
}

#[test]
fn sight_eia_an_answer_to_orders_tells_nothing_of_a_unit_out_of_sight() {
    assert!(holds(&FOGGED[0]) > 20);
}

#[test]
fn sight_gitm_an_answer_to_orders_tells_nothing_of_a_unit_out_of_sight() {
    assert!(holds(&FOGGED[1]) > 20);
}
