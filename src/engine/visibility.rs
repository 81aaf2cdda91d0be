//! Fog of war, one service for every ruleset: which powers may see each place, unit and event.
//!
//! A ruleset declares its [`Sight`] (how far a power's units see, and how far they see exactly; the
//! model's value, `game/sight.rs`); this module turns the positions of the units into the places each
//! power sees, and shares sight among allies when the game says so (`allies_share_sight` in
//! game.toml). Rulesets fill each event's `visible_to` with [`watchers`] while they resolve; reports
//! list units through [`Visibility`], unless the ruleset words its sight itself
//! (`Ruleset::sighting`, GITM).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::engine::event::Event;
use crate::game::config::GameConfig;
use crate::game::map::Map;
use crate::game::state::State;
use crate::game::Game;

pub use crate::game::sight::{Precision, Sight};

/// The places one power sees, by area index, with the precision of each.
pub type Seen = BTreeMap<usize, Precision>;

/// What every power sees of one position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Visibility {
    seen: BTreeMap<String, Seen>,
    /// Each power's allies it shares sight with (empty when sight is not shared).
    allies: BTreeMap<String, BTreeSet<String>>,
}

impl Visibility {
    /// What each power sees from its units on `positions` (power, area index) under `sight`; the
    /// members of each group of `shared` also see what the others of the group see.
    pub fn new(
        map: &Map,
        positions: &[(String, usize)],
        sight: Sight,
        shared: &[Vec<String>],
    ) -> Visibility {
        let mut sources: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
        for (p, a) in positions {
            sources.entry(p.as_str()).or_default().insert(*a);
        }
        let own: BTreeMap<String, Seen> = sources
            .into_iter()
            .map(|(p, from)| {
                let seen = steps_from(map, from, sight.range)
                    .into_iter()
                    .filter_map(|(a, d)| sight.precision(d).map(|q| (a, q)))
                    .collect();
                (p.to_string(), seen)
            })
            .collect();
        let allies = allies_of(shared);
        let mut seen = own.clone();
        for (p, friends) in &allies {
            let mine = seen.entry(p.clone()).or_default();
            for f in friends {
                for (a, q) in own.get(f).into_iter().flatten() {
                    let e = mine.entry(*a).or_insert(*q);
                    *e = (*e).max(*q);
                }
            }
        }
        Visibility { seen, allies }
    }

    /// What each power sees in `state`: its units, the ruleset's sight, the game's sharing setting.
    pub fn of(game: &Game, state: &State) -> Visibility {
        Visibility::new(
            &game.map,
            &positions(game, state),
            game.ruleset.sight(),
            shared(&game.config, &state.alliances),
        )
    }

    /// The sight of one power alone, given place by place (a ruleset's own, `Ruleset::sighting`).
    pub fn single(power: &str, seen: Seen) -> Visibility {
        Visibility {
            seen: BTreeMap::from([(power.to_string(), seen)]),
            allies: BTreeMap::new(),
        }
    }

    /// The places `power` sees, with their precision.
    pub fn seen(&self, power: &str) -> Seen {
        self.seen.get(power).cloned().unwrap_or_default()
    }

    /// The places `power` sees, with their precision, in map order, without copying them.
    pub fn seen_by(&self, power: &str) -> impl Iterator<Item = (usize, Precision)> + '_ {
        self.seen
            .get(power)
            .into_iter()
            .flatten()
            .map(|(a, q)| (*a, *q))
    }

    /// The allies `power` shares sight with (none when sight is not shared).
    pub fn allies(&self, power: &str) -> impl Iterator<Item = &str> + '_ {
        self.allies
            .get(power)
            .into_iter()
            .flatten()
            .map(String::as_str)
    }

    /// The places `power` sees.
    pub fn places(&self, power: &str) -> BTreeSet<usize> {
        self.seen
            .get(power)
            .map(|s| s.keys().copied().collect())
            .unwrap_or_default()
    }

    /// How precisely `power` sees `place`; `None` when it does not see it.
    pub fn precision(&self, power: &str, place: usize) -> Option<Precision> {
        self.seen.get(power)?.get(&place).copied()
    }

    /// The powers that see `place`.
    pub fn watchers(&self, place: usize) -> BTreeSet<String> {
        self.seen
            .iter()
            .filter(|(_, s)| s.contains_key(&place))
            .map(|(p, _)| p.clone())
            .collect()
    }

    /// Whether `power` knows the units of `owner` as its own: they are the same power, or allies
    /// that share sight.
    pub fn shares_with(&self, power: &str, owner: &str) -> bool {
        power == owner || self.allies.get(power).is_some_and(|a| a.contains(owner))
    }

    /// The powers that may see a unit of `owner` standing at `place`: its owner, the allies it shares
    /// sight with, and every power that sees the place.
    pub fn unit_watchers(&self, owner: &str, place: usize) -> BTreeSet<String> {
        let mut w = self.watchers(place);
        w.insert(owner.to_string());
        w.extend(self.allies.get(owner).into_iter().flatten().cloned());
        w
    }
}

/// (power, area index) of every unit of `state` that gives its power sight (`UnitView::sees`).
pub fn positions(game: &Game, state: &State) -> Vec<(String, usize)> {
    game.ruleset
        .units(state)
        .into_iter()
        .filter(|u| u.sees)
        .filter_map(|u| game.map.find(&u.area).map(|i| (u.owner, i)))
        .collect()
}

/// The powers whose units on `positions` see `place` under `sight`: what a ruleset puts in the
/// `visible_to` of an event that happens there.
pub fn watchers(
    map: &Map,
    positions: &[(String, usize)],
    sight: Sight,
    place: usize,
) -> BTreeSet<String> {
    // Adjacency is mutual, so the units within `range` steps of the place are the ones that see it.
    let near = steps_from(map, [place], sight.range);
    positions
        .iter()
        .filter(|(_, a)| near.contains_key(a))
        .map(|(p, _)| p.clone())
        .collect()
}

/// The alliances whose members share sight: all of them when the game says so, none otherwise.
pub fn shared<'a>(config: &GameConfig, alliances: &'a [Vec<String>]) -> &'a [Vec<String>] {
    if config.allies_share_sight {
        alliances
    } else {
        &[]
    }
}

/// When allies share sight, adds to each event's `visible_to` the allies of the powers that see it.
pub fn share_events(config: &GameConfig, alliances: &[Vec<String>], events: &mut [Event]) {
    let allies = allies_of(shared(config, alliances));
    if allies.is_empty() {
        return;
    }
    for e in events {
        let more: BTreeSet<String> = e
            .visible_to
            .iter()
            .filter_map(|p| allies.get(p))
            .flatten()
            .cloned()
            .collect();
        e.visible_to.extend(more);
    }
}

/// Each power's allies in `groups`, itself excluded.
fn allies_of(groups: &[Vec<String>]) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for g in groups {
        for p in g {
            let mine = out.entry(p.clone()).or_default();
            mine.extend(g.iter().filter(|q| *q != p).cloned());
        }
    }
    out.retain(|_, a| !a.is_empty());
    out
}

/// The number of steps from the nearest of `from` to every place at most `range` steps away.
fn steps_from(
    map: &Map,
    from: impl IntoIterator<Item = usize>,
    range: u32,
) -> BTreeMap<usize, u32> {
    let mut dist = BTreeMap::new();
    let mut queue = VecDeque::new();
    for a in from {
        if a < map.areas.len() && dist.insert(a, 0).is_none() {
            queue.push_back(a);
        }
    }
    while let Some(a) = queue.pop_front() {
        let d = dist[&a];
        if d >= range {
            continue;
        }
        for &n in &map.area(a).adjacent {
            if let std::collections::btree_map::Entry::Vacant(e) = dist.entry(n) {
                e.insert(d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::map::MapFile;

    /// A line of five areas: A - B - C - D - E.
    fn line() -> Map {
        let ids = ["A", "B", "C", "D", "E"];
        let mut text = String::new();
        for (i, id) in ids.iter().enumerate() {
            let mut adj = Vec::new();
            if i > 0 {
                adj.push(format!("\"{}\"", ids[i - 1]));
            }
            if i + 1 < ids.len() {
                adj.push(format!("\"{}\"", ids[i + 1]));
            }
            text.push_str(&format!(
                "[[area]]\nid = \"{id}\"\nkind = \"land\"\nxy = [{i}, 0]\nadjacent = [{}]\n",
                adj.join(", ")
            ));
        }
        let file: MapFile = toml::from_str(&text).unwrap();
        Map::from_file(file, &[]).unwrap()
    }

    fn at(power: &str, area: usize) -> (String, usize) {
        (power.to_string(), area)
    }

    #[test]
    fn adjacent_sight_sees_the_own_and_the_neighbouring_areas_exactly() {
        let map = line();
        let v = Visibility::new(&map, &[at("blue", 2)], Sight::ADJACENT, &[]);
        assert_eq!(v.places("blue"), BTreeSet::from([1, 2, 3]));
        assert_eq!(v.precision("blue", 3), Some(Precision::Exact));
        assert_eq!(v.precision("blue", 4), None);
        assert!(v.places("red").is_empty());
    }

    #[test]
    fn beyond_the_exact_range_a_place_is_seen_approximately() {
        let map = line();
        let sight = Sight { range: 2, exact: 0 };
        let v = Visibility::new(&map, &[at("blue", 0)], sight, &[]);
        assert_eq!(v.precision("blue", 0), Some(Precision::Exact));
        assert_eq!(v.precision("blue", 1), Some(Precision::Approximate));
        assert_eq!(v.precision("blue", 2), Some(Precision::Approximate));
        assert_eq!(v.precision("blue", 3), None);
    }

    #[test]
    fn watchers_are_the_powers_within_range_of_a_place() {
        let map = line();
        let pos = [at("blue", 0), at("red", 2), at("grey", 4)];
        let w = watchers(&map, &pos, Sight::ADJACENT, 1);
        assert_eq!(w, BTreeSet::from(["blue".to_string(), "red".to_string()]));
        let v = Visibility::new(&map, &pos, Sight::ADJACENT, &[]);
        assert_eq!(v.watchers(1), w);
    }

    #[test]
    fn allies_that_share_sight_see_what_each_other_sees() {
        let map = line();
        let pos = [at("blue", 0), at("red", 4)];
        let group = vec![vec!["blue".to_string(), "red".to_string()]];
        let apart = Visibility::new(&map, &pos, Sight::ADJACENT, &[]);
        assert!(!apart.places("blue").contains(&4));
        let shared = Visibility::new(&map, &pos, Sight::ADJACENT, &group);
        assert_eq!(shared.places("blue"), BTreeSet::from([0, 1, 3, 4]));
        assert!(shared.shares_with("blue", "red"));
        assert!(shared.unit_watchers("red", 4).contains("blue"));
    }

    #[test]
    fn shared_sight_extends_the_events_allies_may_see() {
        let mut config: GameConfig = toml::from_str(
            r#"
game = "g"
title = "t"
ruleset = "eia"
allies_share_sight = true
[calendar]
start = "1805-09"
[deadline]
time_zone = "UTC"
first = "2026-12-06T20:00"
every_days = 7
[[power]]
id = "blue"
name = "Blue"
players = []
password_hash = "x"
"#,
        )
        .unwrap();
        let alliances = vec![vec!["blue".to_string(), "red".to_string()]];
        let event =
            Event::new(crate::rule::Rule::new("t", "1", "t"), "move", "x").seen_by(["blue"]);
        let mut events = vec![event.clone()];
        share_events(&config, &alliances, &mut events);
        assert!(events[0].visible_to.contains("red"));
        config.allies_share_sight = false;
        let mut events = vec![event];
        share_events(&config, &alliances, &mut events);
        assert!(!events[0].visible_to.contains("red"));
    }
}
