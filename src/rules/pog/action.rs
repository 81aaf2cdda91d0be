//! One PoG action being resolved: the position as it changes, the events, the dice, and the questions
//! every step asks of the board (who stands where, who controls what, which trench counts, whether a
//! space traces supply). The steps themselves live beside it: movement.rs, trenches.rs, combat.rs,
//! losses.rs, retreat.rs.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use anyhow::Result;

use crate::decide::{decide, Decision, Sources};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::map::{Map, Terrain};
use crate::game::state::State;
use crate::rule::Rule;

use super::decisions::PogPoint;
use super::state::{PogState, Unit};
use super::tables::Tables;

/// The position and the record of an action in progress.
pub struct Action<'a> {
    pub map: &'a Map,
    pub tables: &'a Tables,
    pub sop: &'a BTreeMap<String, String>,
    /// The shared part of the state (control, alliances, standing orders); its `pog` is taken out
    /// into [`Action::pog`] while the action runs.
    pub state: State,
    pub pog: PogState,
    /// The active player: the attacker of every combat (12.1.3).
    pub active: String,
    pub powers: Vec<String>,
    pub events: Vec<Event>,
    pub dice: &'a mut DiceBox,
    /// Units (lower-case ids) that retreated during this action (12.1.2).
    pub retreated: BTreeSet<String>,
    /// Combat cards (lower-case ids) used in a combat of this action: none is used twice (12.2.5).
    pub used_cards: BTreeSet<String>,
    /// Each power's name as the texts give it (id, name): the scenario's (wording 1), or none, when
    /// the texts name each power by its id (wording 0: a turn resolved before, told again so).
    pub names: BTreeMap<String, String>,
}

impl<'a> Action<'a> {
    pub fn new(
        map: &'a Map,
        tables: &'a Tables,
        sop: &'a BTreeMap<String, String>,
        state: State,
        powers: Vec<String>,
        dice: &'a mut DiceBox,
    ) -> Result<Self> {
        // The action works on its own copy of the table; `finish` puts it back.
        let pog = super::state::pog_of(&state)?.clone();
        Ok(Action {
            map,
            tables,
            sop,
            active: pog.active().to_string(),
            state,
            pog,
            powers,
            events: Vec::new(),
            dice,
            retreated: BTreeSet::new(),
            used_cards: BTreeSet::new(),
            names: BTreeMap::new(),
        })
    }

    /// The action, its texts naming each power by `names` (id, name).
    pub fn with_names(mut self, names: impl IntoIterator<Item = (String, String)>) -> Self {
        self.names = names.into_iter().collect();
        self
    }

    /// The name of `power` as the texts give it: the scenario's, or its id without one.
    pub fn who(&self, power: &str) -> String {
        self.names
            .get(power)
            .cloned()
            .unwrap_or_else(|| power.to_string())
    }

    /// The verb (or pronoun) whose subject is `power`: `many` after its name, since PoG's two sides
    /// are alliances and the scenario names them in the plural ("Central Powers", "Allied Powers":
    /// "Allied Powers win at Lille", "they"); `one` after its id, as a turn told in wording 0 gave
    /// it ("allies wins at Lille", "it"). The one place where the texts' agreement is decided.
    pub fn agree<'v>(&self, power: &str, one: &'v str, many: &'v str) -> &'v str {
        if self.names.contains_key(power) {
            many
        } else {
            one
        }
    }

    /// `power` named with its verb ([`who`](Self::who), [`agree`](Self::agree)): "Allied Powers
    /// win", or "allies wins" in wording 0.
    pub fn says(&self, power: &str, one: &str, many: &str) -> String {
        format!("{} {}", self.who(power), self.agree(power, one, many))
    }

    /// The state at the end: the shared part with the `[pog]` table put back.
    pub fn finish(mut self) -> (State, Vec<Event>) {
        if let Some(table) = self.state.table_mut::<PogState>() {
            *table = self.pog;
        }
        (self.state, self.events)
    }

    /// Records an event. PoG is a game of open information: both players see every event.
    pub fn log(&mut self, event: Event) {
        let all = self.powers.clone();
        self.events
            .push(event.seen_by(all.iter().map(String::as_str)));
    }

    pub fn event(&mut self, rule: Rule, kind: &str, space: Option<&str>, text: String) {
        let mut e = Event::new(rule, kind, text);
        if let Some(s) = space {
            e = e.at(s);
        }
        self.log(e);
    }

    /// Settles a decision of `power` (12.x): explicit setting, standing order (scoped first), SOP.
    pub fn decide<T>(
        &self,
        point: PogPoint,
        power: &str,
        explicit: Option<&str>,
        scope: Option<&str>,
        parse: impl Fn(&str) -> Option<T>,
        roll: impl FnOnce() -> Result<T>,
    ) -> Result<Decision<T>> {
        decide(
            &point,
            &Sources {
                explicit,
                standing: self.state.standing.get(power),
                scope,
                sop: self.sop,
            },
            parse,
            roll,
        )
    }

    pub fn friendly(&self, a: &str, b: &str) -> bool {
        self.state.friendly(a, b)
    }

    /// The enemy of the active player (the defender of its combats).
    pub fn other(&self, power: &str) -> String {
        self.powers
            .iter()
            .find(|p| !self.friendly(p, power))
            .cloned()
            .unwrap_or_default()
    }

    pub fn space_index(&self, space: &str) -> usize {
        self.map
            .find(space)
            .expect("spaces of a checked state exist")
    }

    pub fn space_id(&self, i: usize) -> String {
        self.map.area(i).id.clone()
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.pog.unit(id)
    }

    /// Ids of the units in `space`, in state order.
    pub fn units_in(&self, space: &str) -> Vec<String> {
        self.pog
            .units_in(space)
            .map(|u| u.id().to_string())
            .collect()
    }

    /// Ids of the units in `space` hostile to `power`.
    pub fn enemies_in(&self, space: &str, power: &str) -> Vec<String> {
        self.pog
            .units_in(space)
            .filter(|u| !self.friendly(u.power(), power))
            .map(|u| u.id().to_string())
            .collect()
    }

    pub fn controller(&self, space: &str) -> Option<&str> {
        self.state.control.get(space).map(String::as_str)
    }

    pub fn set_control(&mut self, space: &str, power: &str) -> bool {
        let changed = self.controller(space) != Some(power);
        self.state
            .control
            .insert(space.to_string(), power.to_string());
        changed
    }

    /// Whether `space` holds an intact (not destroyed) fort of an enemy of `power`, besieged or not.
    pub fn intact_enemy_fort(&self, space: &str, power: &str) -> bool {
        super::orders::intact_enemy_fort(self.map, &self.state, &self.pog, space, power)
    }

    /// Whether `space` holds an intact enemy fort that is not besieged: units enter it only to
    /// besiege it, and never pass it (11.1.8).
    pub fn unbesieged_enemy_fort(&self, space: &str, power: &str) -> bool {
        self.intact_enemy_fort(space, power)
            && self.pog.fort_status(space) != Some(super::state::FortStatus::Besieged)
    }

    /// The fort factor that defends `space` against `attacker`: a fort not destroyed, held by his enemy.
    pub fn defending_fort(&self, space: &str, attacker: &str) -> u32 {
        let i = self.space_index(space);
        match self.map.area(i).fort {
            Some(cf)
                if self.pog.fort_status(space) != Some(super::state::FortStatus::Destroyed)
                    && self
                        .controller(space)
                        .is_some_and(|c| !self.friendly(c, attacker)) =>
            {
                cf
            }
            _ => 0,
        }
    }

    pub fn terrain(&self, space: &str) -> Terrain {
        self.map.area(self.space_index(space)).terrain
    }

    /// The trench level that shelters `power`'s units in `space`: its own marker, else level 0 after
    /// its Entrench event where 11.2.10/11.2.11 say so; `None` when the space is not entrenched.
    pub fn trench_level(&self, space: &str, power: &str) -> Option<u32> {
        if let Some(t) = self.pog.trench.get(space) {
            if self.friendly(&t.power, power) {
                return Some(t.level);
            }
        }
        if !self.pog.entrench_played.iter().any(|p| p == power) {
            return None;
        }
        let zero = self.tables.level_zero.get(power)?;
        let area = self.map.area(self.space_index(space));
        let army_of = |nations: &[String]| {
            self.pog.units_in(space).any(|u| {
                u.power() == power
                    && u.is_army()
                    && nations.iter().any(|n| n.eq_ignore_ascii_case(&u.nation))
            })
        };
        let in_nation = area
            .nation
            .as_deref()
            .is_some_and(|n| zero.nations.iter().any(|z| z.eq_ignore_ascii_case(n)));
        let qualifies = army_of(&zero.armies)
            || in_nation
            || (area.terrain == Terrain::Mountain && army_of(&zero.mountain_armies));
        qualifies.then_some(0)
    }

    /// 11.2.5, 11.2.6: a unit of `power` enters `space`: an enemy trench there falls or turns.
    pub fn enter_trench(&mut self, space: &str, power: &str) {
        let Some(t) = self.pog.trench.get(space).cloned() else {
            return;
        };
        if self.friendly(&t.power, power) {
            return;
        }
        let text = if t.level >= 2 {
            self.pog.trench.insert(
                space.to_string(),
                super::state::Trench {
                    level: 1,
                    power: power.to_string(),
                },
            );
            format!(
                "{} {space}: the level 2 trench of {} becomes a level 1 trench of {} (PoG 11.2.6).",
                self.says(power, "enters", "enter"),
                self.who(&t.power),
                self.who(power)
            )
        } else {
            self.pog.trench.remove(space);
            format!(
                "{} {space}: the level 1 trench of {} is removed (PoG 11.2.5).",
                self.says(power, "enters", "enter"),
                self.who(&t.power)
            )
        };
        self.event(super::rules::TRENCH_ENTERED, "trench", Some(space), text);
    }

    /// Whether `space` traces supply for `power` (pbem's reading; the supply rules of 13 are not in
    /// the seed): a path from it through spaces the power's side controls, free of enemy units and
    /// intact enemy forts, to one of the side's supply sources. 11.1.12: from a space of Albania the
    /// Allies also trace to Taranto, even while Italy is neutral.
    pub fn supplied(&self, space: usize, power: &str) -> bool {
        let theatres = &self.tables.theatres;
        let albanian = self
            .map
            .area(space)
            .nation
            .as_deref()
            .is_some_and(|n| n.eq_ignore_ascii_case("albania"));
        let taranto = |i: usize| {
            albanian
                && self.friendly(&theatres.allies, power)
                && self.map.area(i).id.eq_ignore_ascii_case(&theatres.taranto)
                && self.enemies_in(&self.map.area(i).id, power).is_empty()
        };
        let ok = |i: usize| {
            let id = &self.map.area(i).id;
            self.controller(id).is_some_and(|c| self.friendly(c, power))
                && self.enemies_in(id, power).is_empty()
                && !self.intact_enemy_fort(id, power)
        };
        let source = |i: usize| {
            self.map
                .area(i)
                .supply
                .as_deref()
                .is_some_and(|s| self.friendly(s, power))
                && ok(i)
        };
        if source(space) {
            return true;
        }
        let mut seen = BTreeSet::from([space]);
        let mut queue = VecDeque::from([space]);
        while let Some(a) = queue.pop_front() {
            for &n in &self.map.area(a).adjacent {
                if taranto(n) {
                    return true;
                }
                if ok(n) && seen.insert(n) {
                    if source(n) {
                        return true;
                    }
                    queue.push_back(n);
                }
            }
        }
        false
    }

    /// Steps from every space to the nearest supply source of `power`'s side, through spaces without
    /// enemy units; `None` where none is reachable.
    pub fn supply_distances(&self, power: &str) -> Vec<Option<u32>> {
        let n = self.map.areas.len();
        let mut dist = vec![None; n];
        let mut queue = VecDeque::new();
        for (i, d) in dist.iter_mut().enumerate() {
            if self
                .map
                .area(i)
                .supply
                .as_deref()
                .is_some_and(|s| self.friendly(s, power))
            {
                *d = Some(0);
                queue.push_back(i);
            }
        }
        while let Some(a) = queue.pop_front() {
            let d = dist[a].unwrap_or(0);
            for &m in &self.map.area(a).adjacent {
                let id = &self.map.area(m).id;
                if dist[m].is_none() && self.enemies_in(id, power).is_empty() {
                    dist[m] = Some(d + 1);
                    queue.push_back(m);
                }
            }
        }
        dist
    }

    /// Takes a unit off the map.
    pub fn eliminate(&mut self, id: &str) {
        if let Some(space) = self.unit(id).map(|u| u.space().to_string()) {
            self.ana_leaves(id, &space);
        }
        if let Some(i) = self
            .pog
            .units
            .iter()
            .position(|u| u.id().eq_ignore_ascii_case(id))
        {
            let u = self.pog.units.remove(i);
            self.pog.eliminated.push(u.id().to_string());
        }
    }

    /// Puts a unit in `space`; the ANA leaving a space it held gives it back (11.1.14).
    pub fn place(&mut self, id: &str, space: &str) {
        let Some(u) = self.pog.unit_mut(id) else {
            return;
        };
        let left = u.space().to_string();
        u.space = toml::Spanned::new(0..0, space.to_string());
        if !left.eq_ignore_ascii_case(space) {
            self.ana_leaves(id, &left);
        }
    }
}

/// "GE-1, GE-2" from ids.
pub fn list(ids: &[String]) -> String {
    if ids.is_empty() {
        "no unit".to_string()
    } else {
        ids.join(", ")
    }
}
