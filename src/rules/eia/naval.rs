//! The EiA naval phase, before the land phase: fleets move (EiA 6.2), non-moving fleets intercept
//! weaker enemy fleets (6.2.3 SOP), the intercepted evade unless their side has more ships (6.3.2
//! SOP); after movement, fleets ordered to `engage` attack the enemy fleets in their sea area (6.3),
//! and the attacked evade unless their side has more ships (6.3.2 SOP); fleets fight on the Tactical Naval Combat Chart (tactics by standing order or SOP), the
//! defeated retreat to the nearest unblockaded friendly port (6.3.5 SOP), and victors never pursue
//! (6.3.5 SOP; a standing order `chase always` uses the General Chase chart instead).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Sources};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::map::Map;
use crate::game::state::State;
use crate::rules::eia::state::{EiaState, Tenths};

use super::decisions::{
    always_never, EiaPoint, CHASE, EVADE_AT_SEA, INTERCEPT, NAVAL_COMBAT, NAVAL_RETREAT,
};
use super::orders::{EiaOrder, NAVAL_ATTACK, NAVAL_MOVEMENT};
use super::tables::parse_naval_result;
use super::visibility::watchers;
use super::{labels, Eia};

/// A fleet during the naval phase.
#[derive(Debug, Clone)]
pub struct Fleet {
    pub id: String,
    pub power: String,
    pub ships: u32,
    pub area: usize,
    /// Ordered to move this turn: such fleets do not intercept.
    pub moving: bool,
    /// The admiral on the fleet and his Closing to Melee modifier (EiA 19.1), if any.
    pub admiral: Option<(String, i32)>,
}

/// The naval phase's working state.
pub struct Naval<'a> {
    eia: &'a Eia,
    map: &'a Map,
    state: &'a State,
    standing: &'a BTreeMap<String, BTreeMap<String, String>>,
    dice: &'a mut DiceBox,
    pub fleets: Vec<Fleet>,
    pub events: Vec<Event>,
    /// Where land units stand, for who sees what happens at sea.
    land: Vec<(String, usize)>,
    /// How the texts name the powers and count (`super::WORDING`).
    words: &'a super::Words,
}

impl<'a> Naval<'a> {
    pub fn new(
        eia: &'a Eia,
        map: &'a Map,
        state: &'a State,
        standing: &'a BTreeMap<String, BTreeMap<String, String>>,
        dice: &'a mut DiceBox,
        orders: &BTreeMap<String, Vec<EiaOrder>>,
        words: &'a super::Words,
    ) -> Naval<'a> {
        let ordered: BTreeSet<&str> = orders
            .values()
            .flatten()
            .flat_map(|o| match o {
                EiaOrder::Move { unit, with, .. } => std::iter::once(unit)
                    .chain(with)
                    .map(String::as_str)
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        let fleets = EiaState::of(state)
            .fleets
            .iter()
            .map(|f| Fleet {
                id: f.id.get_ref().clone(),
                power: f.power.get_ref().clone(),
                ships: f.ships,
                area: map
                    .find(f.area.get_ref())
                    .expect("state references are checked at load"),
                moving: ordered.contains(f.id.get_ref().as_str()),
                admiral: f
                    .admiral
                    .as_ref()
                    .map(|a| (a.name.clone(), *a.closing.get_ref())),
            })
            .collect();
        let land = EiaState::of(state)
            .corps
            .iter()
            .map(|c| (c.power.get_ref().clone(), c.area.get_ref()))
            .chain(
                EiaState::of(state)
                    .leaders
                    .iter()
                    .map(|l| (l.power.get_ref().clone(), l.area.get_ref())),
            )
            .filter_map(|(p, a)| map.find(a).map(|i| (p, i)))
            .collect();
        Naval {
            eia,
            map,
            state,
            standing,
            dice,
            fleets,
            events: Vec::new(),
            land,
            words,
        }
    }

    fn positions(&self) -> Vec<(String, usize)> {
        let mut v = self.land.clone();
        v.extend(
            self.fleets
                .iter()
                .filter(|f| f.ships > 0)
                .map(|f| (f.power.clone(), f.area)),
        );
        v
    }

    fn push(&mut self, event: Event, area: usize, also: &BTreeSet<String>) {
        let mut seen = watchers(self.map, &self.positions(), area);
        seen.extend(also.iter().cloned());
        let id = self.map.area(area).id.clone();
        self.events
            .push(event.at(&id).seen_by(seen.iter().map(String::as_str)));
    }

    fn sources(&self, power: &str, scope: Option<&'a str>) -> Sources<'_> {
        Sources {
            explicit: None,
            standing: self.standing.get(power),
            sop: &self.eia.sop,
            scope,
        }
    }

    /// Moves every fleet with a move order, powers in id order, orders in file order; the fleets
    /// named `with` a fleet sail with it as one stack (EiA 6.2.3).
    pub fn run(&mut self, orders: &BTreeMap<String, Vec<EiaOrder>>) -> Result<()> {
        for (power, list) in orders {
            for order in list {
                let EiaOrder::Move { unit, with, path } = order else {
                    continue;
                };
                let Some(lead) = self.fleets.iter().position(|f| &f.id == unit) else {
                    continue;
                };
                let stack: Vec<usize> = std::iter::once(lead)
                    .chain(
                        with.iter()
                            .filter_map(|id| self.fleets.iter().position(|f| &f.id == id)),
                    )
                    .collect();
                self.sail(&stack, power, path)?;
            }
        }
        Ok(())
    }

    /// EiA 6.3: after naval movement, each `engage <sea>` order (powers in id order, orders in file
    /// order) sets the power's fleets in that sea against the enemy fleets there, each hostile group
    /// (a power with its allies, by the id of its first fleet's power) in turn. 6.3.2 (SOP): the
    /// attacked evade unless their side has more ships than the attackers; pbem's reading: fleets that
    /// evade an attack where they lie avoid the battle and stay in their area. A sea where a battle
    /// was fought already this turn (an interception, another power's attack) may see another; pbem's
    /// reading: a power's fleets attack in a sea once a turn, a second `engage` of it is not fought.
    pub fn engage(&mut self, orders: &BTreeMap<String, Vec<EiaOrder>>) -> Result<()> {
        let mut fought: BTreeSet<(String, usize)> = BTreeSet::new();
        for (power, list) in orders {
            for order in list {
                let EiaOrder::Engage { sea } = order else {
                    continue;
                };
                let Some(sea) = self.map.find(sea) else {
                    continue;
                };
                self.attack_at_sea(power, sea, &mut fought)?;
            }
        }
        Ok(())
    }

    fn attack_at_sea(
        &mut self,
        power: &str,
        sea: usize,
        fought: &mut BTreeSet<(String, usize)>,
    ) -> Result<()> {
        let words = self.words;
        let sea_id = self.map.area(sea).id.clone();
        let here = |me: &Self, i: usize| me.fleets[i].area == sea && me.fleets[i].ships > 0;
        let attackers: Vec<usize> = (0..self.fleets.len())
            .filter(|&i| here(self, i) && self.fleets[i].power == power)
            .collect();
        let enemies: Vec<usize> = (0..self.fleets.len())
            .filter(|&i| here(self, i) && !self.state.friendly(&self.fleets[i].power, power))
            .collect();
        let also = BTreeSet::from([power.to_string()]);
        let nothing = |why: String| Event::new(NAVAL_ATTACK, "naval-attack", why);
        if attackers.is_empty() || enemies.is_empty() {
            let why = if attackers.is_empty() {
                format!("{} has no fleet at {sea_id} after naval movement: its attack there comes to nothing.", words.who(power))
            } else {
                format!(
                    "No enemy fleet is at {sea_id}: {} attack there comes to nothing.",
                    words.whose(power)
                )
            };
            self.push(nothing(why), sea, &also);
            return Ok(());
        }
        if !fought.insert((power.to_string(), sea)) {
            let why = format!("{} attacked at {sea_id} already this turn: its second attack there is not fought (pbem: a power attacks in a sea once a turn).", words.who(power));
            self.push(nothing(why), sea, &also);
            return Ok(());
        }
        // The first hostile group: the power of the first enemy fleet, with its allies.
        let lead = self.fleets[enemies[0]].power.clone();
        let group: Vec<usize> = enemies
            .iter()
            .copied()
            .filter(|&i| self.state.friendly(&self.fleets[i].power, &lead))
            .collect();
        let list = |me: &Self, v: &[usize]| -> String {
            v.iter()
                .map(|&i| {
                    let ships = words.count(me.fleets[i].ships, "ship", "ships");
                    format!("{} ({ships})", me.fleets[i].id)
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let powers: BTreeSet<String> = group
            .iter()
            .map(|&i| self.fleets[i].power.clone())
            .collect();
        let mut involved = powers.clone();
        involved.insert(power.to_string());
        let text = format!(
            "{} attacks the fleets of {} at {sea_id}: {} against {}.",
            words.who(power),
            powers
                .iter()
                .map(|p| words.who(p))
                .collect::<Vec<_>>()
                .join(", "),
            list(self, &attackers),
            list(self, &group)
        );
        self.push(
            Event::new(NAVAL_ATTACK, "naval-attack", text)
                .decided(power.to_string(), DecidedBy::Order),
            sea,
            &involved,
        );
        // 6.3.2 (SOP): the attacked evade unless their side has more ships.
        let ships = |me: &Self, v: &[usize]| -> u32 { v.iter().map(|&i| me.fleets[i].ships).sum() };
        let (theirs, ours) = (ships(self, &group), ships(self, &attackers));
        if theirs <= ours {
            let big = *group
                .iter()
                .max_by_key(|&&i| (self.fleets[i].ships, std::cmp::Reverse(i)))
                .expect("a group is never empty");
            let id = labels::engaged(&self.fleets[big].id, power);
            let roll = self
                .dice
                .roll(&labels::naval_evade(&sea_id, &id, 1), &[6])?;
            let face = roll.dice[0].face;
            let told = roll.told(0);
            let need = self.eia.tables.naval.evade;
            let evaded = face <= need;
            let who = group
                .iter()
                .map(|&i| self.fleets[i].id.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            let text = format!(
                "{who} tries to evade at {sea_id} ({} against {ours}) (by the SOP): rolls {told}, needs {need} or less: {}.",
                words.count(theirs, "ship", "ships"),
                if evaded { "it evades the attack" } else { "caught" }
            );
            let e = Event::new(EVADE_AT_SEA, "evade", text)
                .roll(roll)
                .decided(lead.clone(), DecidedBy::Sop);
            self.push(e, sea, &involved);
            if evaded {
                return Ok(());
            }
        }
        // The battle is named by the attacked side's biggest fleet and the attacking power.
        let named = group
            .iter()
            .max_by_key(|&&i| (self.fleets[i].ships, std::cmp::Reverse(i)))
            .map(|&i| labels::engaged(&self.fleets[i].id, power))
            .expect("a group is never empty");
        self.battle(sea, &named, &attackers, &group)
    }

    /// One move of a fleet or a stack of fleets (`stack`, the ordered fleet first), step by step,
    /// until it ends or is intercepted. The move's event comes before what happened on the way.
    fn sail(&mut self, stack: &[usize], power: &str, path: &[String]) -> Result<()> {
        let start = self.fleets[stack[0]].area;
        let first_event = self.events.len();
        let mut walked = vec![self.map.area(start).id.clone()];
        // How many times the path has entered each area: a key of the dice labels (EiA 6.2.3).
        let mut entries: BTreeMap<usize, u32> = BTreeMap::new();
        // EiA 6.2: a fleet ends its move in a port of its own or an ally's. The check refuses an
        // enemy port the power sees; one it could not see stops the fleet in the sea before it.
        let mut refused = None;
        for step in path {
            let next = self.map.find(step).expect("checked order");
            let here = self.fleets[stack[0]].area;
            let port = self.map.area(next);
            if port.is_land()
                && self
                    .state
                    .control
                    .get(&port.id)
                    .is_some_and(|o| !self.state.friendly(o, power))
            {
                refused = Some(next);
                break;
            }
            for &f in stack {
                self.fleets[f].area = next;
            }
            walked.push(self.map.area(next).id.clone());
            let entry = entries.entry(next).or_default();
            *entry += 1;
            let entry = *entry;
            if !self.map.area(next).is_land() && self.intercepted(stack, here, next, entry)? {
                break;
            }
        }
        let text = if stack.len() == 1 {
            format!(
                "{} ({}) sails {}.",
                self.fleets[stack[0]].id,
                self.words.who(power),
                walked.join(" - ")
            )
        } else {
            format!(
                "{} ({}, one stack of {}) sail {}.",
                self.names(stack),
                self.words.who(power),
                self.words.count(self.ships(stack), "ship", "ships"),
                walked.join(" - ")
            )
        };
        let also = BTreeSet::from([power.to_string()]);
        let end = self.fleets[stack[0]].area;
        self.push(Event::new(NAVAL_MOVEMENT, "move", text), end, &also);
        let e = self.events.pop().expect("just pushed");
        self.events.insert(first_event, e);
        if let Some(port) = refused {
            let here = self.map.area(end).id.clone();
            let text = format!(
                "{} cannot enter {}, an enemy port: {} in {here}.",
                self.names(stack),
                self.map.area(port).id,
                if stack.len() == 1 {
                    "it stays"
                } else {
                    "they stay"
                }
            );
            self.events.push(
                Event::new(NAVAL_MOVEMENT, "move", text)
                    .at(&here)
                    .seen_by([power]),
            );
        }
        Ok(())
    }

    /// The ids of `fleets`, joined: `FR-A, FR-B`.
    fn names(&self, fleets: &[usize]) -> String {
        fleets
            .iter()
            .map(|&i| self.fleets[i].id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The ships of `fleets`, together.
    fn ships(&self, fleets: &[usize]) -> u32 {
        fleets.iter().map(|&i| self.fleets[i].ships).sum()
    }

    /// EiA 6.2.3 (SOP): non-moving enemy fleets in the sea area entered, or in ports next to it, try
    /// to intercept when the moving stack (`stack`: one fleet, or the fleets of one `move ... with`)
    /// has fewer ships than they have together, unless a standing order says `intercept never`. The
    /// seed weighs "non-moving fleets" against "the enemy fleets": pbem's reading adds together the
    /// non-moving fleets of a power and its allies (one side, named by its first power in id order),
    /// and counts the whole moving stack, not one fleet of it. `entry` counts the times the path has
    /// entered `sea` (labels stay unique when a route re-enters a sea). Returns whether the stack's
    /// move ends here.
    fn intercepted(
        &mut self,
        stack: &[usize],
        from: usize,
        sea: usize,
        entry: u32,
    ) -> Result<bool> {
        let lead = self.fleets[stack[0]].clone();
        let moving: Vec<usize> = stack
            .iter()
            .copied()
            .filter(|&i| self.fleets[i].ships > 0)
            .collect();
        if moving.is_empty() {
            return Ok(false);
        }
        let mover_ships = self.ships(&moving);
        let mover_names = self.names(&moving);
        let sea_id = self.map.area(sea).id.clone();
        let mut by_power: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, g) in self.fleets.iter().enumerate() {
            let near =
                g.area == sea || (self.map.area(g.area).port && self.map.adjacent(g.area, sea));
            if near && !g.moving && g.ships > 0 && !self.state.friendly(&g.power, &lead.power) {
                by_power.entry(g.power.clone()).or_default().push(i);
            }
        }
        // One side per power and its allies, led by its first power in id order.
        let mut sides: Vec<(String, Vec<String>)> = Vec::new();
        for p in by_power.keys() {
            match sides.iter_mut().find(|(l, _)| self.state.friendly(l, p)) {
                Some((_, members)) => members.push(p.clone()),
                None => sides.push((p.clone(), vec![p.clone()])),
            }
        }
        for (side, members) in sides {
            // Each fleet's standing order (`intercept <fleet> never`) comes before its power's.
            let mut fleets = Vec::new();
            let mut by = DecidedBy::Sop;
            for power in &members {
                for &i in &by_power[power] {
                    let id = self.fleets[i].id.clone();
                    let d = decide(
                        &EiaPoint::Intercept,
                        &self.sources(power, Some(&id)),
                        always_never,
                        || Ok(true),
                    )?;
                    if d.value {
                        fleets.push(i);
                        by = by.min(d.by);
                    } else {
                        let text = format!(
                            "{id} ({}) does not intercept {mover_names} at {sea_id}{}.",
                            self.words.who(power),
                            d.by.aside(" (", ")")
                        );
                        let e =
                            Event::new(INTERCEPT, "decision", text).decided(power.clone(), d.by);
                        let involved = BTreeSet::from([power.clone(), lead.power.clone()]);
                        self.push(e, sea, &involved);
                    }
                }
            }
            let ships = self.ships(&fleets);
            if fleets.is_empty() || ships <= mover_ships {
                continue;
            }
            let mut involved: BTreeSet<String> = members.iter().cloned().collect();
            involved.insert(lead.power.clone());
            let d = crate::decide::Decision {
                value: true,
                by,
                rule: INTERCEPT,
            };
            let roll = self
                .dice
                .roll(&labels::intercept(&sea_id, &lead.id, &side, entry), &[6])?;
            let face = roll.dice[0].face;
            let told = roll.told(0);
            let need = self.eia.tables.naval.intercept;
            let ok = face <= need;
            let text = format!(
                "{} ({}, {}) {} to intercept {mover_names} ({}) at {sea_id}{}: rolls {told}, needs {need} or less: {}.",
                self.names(&fleets),
                // The side by its powers' ids, as the die's label names its first
                // (`intercept/../power=..`, bound to this text: verify.html checks it so).
                members.join(", "),
                self.words.count(ships, "ship", "ships"),
                if fleets.len() == 1 { "tries" } else { "try" },
                self.words.count(mover_ships, "ship", "ships"),
                d.by.aside(" (", ")"),
                if ok { "intercepted" } else { "missed" }
            );
            // EiA 6.2.3: how the fleets came to try is told to the power they are of
            // (`DecidedBy::aside`); the fleets of allies, each settled by its own power's orders,
            // tell it to none: the words of one would tell another how its ally decides. The log
            // keeps it.
            let deciders: BTreeSet<String> = fleets
                .iter()
                .map(|&i| self.fleets[i].power.clone())
                .collect();
            let mut e = Event::new(INTERCEPT, "intercept", text).roll(roll);
            if let (1, Some(power)) = (deciders.len(), deciders.first()) {
                e = e.decided(power.clone(), d.by);
            }
            self.push(e, sea, &involved);
            if !ok {
                continue;
            }
            for &i in &fleets {
                self.fleets[i].area = sea;
            }
            // EiA 6.3.2 (SOP): evade unless the friendly fleets have more ships than the enemy's.
            let friends: Vec<usize> = (0..self.fleets.len())
                .filter(|&i| {
                    self.fleets[i].area == sea
                        && self.fleets[i].ships > 0
                        && self.state.friendly(&self.fleets[i].power, &lead.power)
                })
                .collect();
            let friendly_ships = self.ships(&friends);
            if friendly_ships <= ships {
                let roll = self
                    .dice
                    .roll(&labels::naval_evade(&sea_id, &lead.id, entry), &[6])?;
                let face = roll.dice[0].face;
                let told = roll.told(0);
                let need = self.eia.tables.naval.evade;
                let evaded = face <= need;
                let (tries, slips) = if moving.len() == 1 {
                    ("tries", "it slips")
                } else {
                    ("try", "they slip")
                };
                let text = format!(
                    "{mover_names} {tries} to evade at {sea_id} ({} against {ships}) (by the SOP): rolls {told}, needs {need} or less: {}.",
                    self.words.count(friendly_ships, "ship", "ships"),
                    if evaded { format!("{slips} back to {}", self.map.area(from).id) } else { "caught".to_string() }
                );
                let e = Event::new(EVADE_AT_SEA, "evade", text)
                    .roll(roll)
                    .decided(lead.power.clone(), DecidedBy::Sop);
                self.push(e, sea, &involved);
                if evaded {
                    for &f in stack {
                        self.fleets[f].area = from;
                    }
                    return Ok(true);
                }
            }
            self.battle(sea, &lead.id, &fleets, &friends)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// A naval battle at `sea` on the Tactical Naval Combat Chart, begun by the interception of the
    /// moving fleet `mover` (which names the battle in its dice labels).
    pub fn battle(
        &mut self,
        sea: usize,
        mover: &str,
        attackers: &[usize],
        defenders: &[usize],
    ) -> Result<()> {
        let sea_id = self.map.area(sea).id.clone();
        let side_power = |me: &Self, s: &[usize]| -> String {
            // The power with most ships on the side leads it.
            let mut by: BTreeMap<&str, u32> = BTreeMap::new();
            for &i in s {
                *by.entry(me.fleets[i].power.as_str()).or_default() += me.fleets[i].ships;
            }
            by.iter()
                .max_by_key(|(p, n)| (**n, std::cmp::Reverse(**p)))
                .map(|(p, _)| p.to_string())
                .unwrap_or_default()
        };
        let (a_lead, d_lead) = (side_power(self, attackers), side_power(self, defenders));
        let words = self.words;
        let (a_who, d_who) = (words.who(&a_lead), words.who(&d_lead));
        let mut involved: BTreeSet<String> = attackers
            .iter()
            .chain(defenders)
            .map(|&i| self.fleets[i].power.clone())
            .collect();
        involved.insert(a_lead.clone());
        let a_tactic = self.tactic(&a_lead, sea, &involved)?;
        let d_tactic = self.tactic(&d_lead, sea, &involved)?;
        let ships = |me: &Self, s: &[usize]| -> u32 { s.iter().map(|&i| me.fleets[i].ships).sum() };
        let fleets_of = |me: &Self, s: &[usize]| -> Vec<(String, u32)> {
            s.iter()
                .map(|&i| (me.fleets[i].power.clone(), me.fleets[i].ships))
                .collect()
        };
        let (a_ships, d_ships) = (ships(self, attackers), ships(self, defenders));
        let a_drm = chart_modifier(&fleets_of(self, attackers), &a_tactic, d_ships);
        let d_drm = chart_modifier(&fleets_of(self, defenders), &d_tactic, a_ships);
        let text = format!(
            "Naval battle at {sea_id}: {a_who} ({}, {a_tactic}, modifier {a_drm:+}) against {d_who} ({}, {d_tactic}, modifier {d_drm:+}).",
            words.count(a_ships, "ship", "ships"),
            words.count(d_ships, "ship", "ships")
        );
        self.push(
            Event::new(NAVAL_COMBAT, "naval-combat", text),
            sea,
            &involved,
        );
        let table = self.eia.tables.naval.clone();
        let cell = table
            .cell(&a_tactic, &d_tactic)
            .expect("validated chart")
            .clone();
        // Closing to Melee (EiA 19.1 chart), pbem's reading of the chart's structure: a melee fleet
        // facing a line fights its way in on the cell's "1st" row; after each round it rolls to
        // close; the "2nd" row is the round after a successful close (the melee fleet's heavy
        // results, the line's light ones). A fleet that fails to close fights the "1st" row again.
        // The cell's rows count the rounds (two); once closed, it stays closed.
        let mixed = (a_tactic == "melee") != (d_tactic == "melee");
        let mut closed = false;
        let (mut a_morale, mut d_morale) = (0i64, 0i64);
        let (mut a_sunk, mut d_sunk) = (0u32, 0u32);
        let rounds = cell.attacker.len();
        for r in 0..rounds.max(1) {
            let round = r as u32 + 1;
            let row = if mixed {
                usize::from(closed).min(rounds - 1)
            } else {
                r
            };
            let (a_row, d_row) = (&cell.attacker[row], &cell.defender[row]);
            let on_row = match (mixed && rounds > 1, r, closed) {
                (false, _, _) => String::new(),
                (true, 0, _) => " on the chart's 1st row".to_string(),
                (true, _, true) => " on the chart's 2nd row (closed to melee)".to_string(),
                (true, _, false) => " on the chart's 1st row (not closed)".to_string(),
            };
            let roll = self
                .dice
                .roll(&labels::naval_round(&sea_id, mover, round), &[6, 6])?;
            let col = |die: u32, m: i32| (((die as i32 + m).clamp(1, 6) - 1) / 2) as usize;
            let on_d =
                parse_naval_result(&a_row[col(roll.dice[0].face, a_drm)]).unwrap_or_default();
            let on_a =
                parse_naval_result(&d_row[col(roll.dice[1].face, d_drm)]).unwrap_or_default();
            let lost_d = self.sink(defenders, on_d.ships);
            let lost_a = self.sink(attackers, on_a.ships);
            d_morale += on_d.morale;
            a_morale += on_a.morale;
            d_sunk += lost_d;
            a_sunk += lost_a;
            let text = format!(
                "Round {round} at {sea_id}{on_row}: {a_who} rolls {}, {d_who} rolls {}: {a_who} loses {} and {} morale, {d_who} loses {} and {} morale.",
                roll.told(0),
                roll.told(1),
                words.count(lost_a, "ship", "ships"),
                Tenths(on_a.morale),
                words.count(lost_d, "ship", "ships"),
                Tenths(on_d.morale)
            );
            self.push(
                Event::new(NAVAL_COMBAT, "naval-round", text).roll(roll),
                sea,
                &involved,
            );
            if ships(self, attackers) == 0 || ships(self, defenders) == 0 {
                break;
            }
            // Closing to Melee: a melee fleet against a linear one rolls after each round.
            if !closed && r + 1 < rounds && mixed {
                let linear = if a_tactic == "melee" {
                    &d_tactic
                } else {
                    &a_tactic
                };
                let need = table.closing.get(linear.as_str()).copied().unwrap_or(0);
                let melee_side = if a_tactic == "melee" {
                    attackers
                } else {
                    defenders
                };
                let admiral = closing_modifier(
                    melee_side
                        .iter()
                        .filter(|&&i| self.fleets[i].ships > 0)
                        .filter_map(|&i| self.fleets[i].admiral.as_ref()),
                );
                let roll = self
                    .dice
                    .roll(&labels::closing(&sea_id, mover, round), &[6])?;
                let face = roll.dice[0].face as i32;
                let told = roll.told(0);
                let modified = face + admiral.as_ref().map_or(0, |(_, m)| *m);
                closed = modified <= need as i32;
                let rolled = match &admiral {
                    Some((name, m)) => {
                        format!("rolls {told}, {name} {m:+}: {}", told.plus((*m).into()))
                    }
                    None => format!("rolls {told}"),
                };
                let text = format!(
                    "The melee fleet at {sea_id} tries to close: {rolled}, needs {need} or less: {}.",
                    if closed { "it closes to melee" } else { "the line holds it off" }
                );
                self.push(
                    Event::new(NAVAL_COMBAT, "closing", text).roll(roll),
                    sea,
                    &involved,
                );
            }
        }
        // The side that lost less morale wins; at equal morale, the one that lost fewer ships. A side
        // with no ship left never wins (pbem's reading: there is no one left to hold the sea), so
        // when both are sunk no one does.
        let (a_left, d_left) = (ships(self, attackers) > 0, ships(self, defenders) > 0);
        if !a_left && !d_left {
            let text = format!("Both sides are sunk at {sea_id}: no one wins the battle.");
            self.push(
                Event::new(NAVAL_COMBAT, "naval-result", text),
                sea,
                &involved,
            );
            return Ok(());
        }
        let outcome = match (a_left, d_left) {
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            _ => (a_morale, a_sunk).cmp(&(d_morale, d_sunk)),
        };
        let (winner, loser, w_lead, w_morale) = match outcome {
            std::cmp::Ordering::Less => (attackers, defenders, a_lead.clone(), a_morale),
            std::cmp::Ordering::Greater => (defenders, attackers, d_lead.clone(), d_morale),
            std::cmp::Ordering::Equal => {
                let text = format!(
                    "The battle at {sea_id} is drawn: both sides lost {} morale and {}.",
                    Tenths(a_morale),
                    words.count(a_sunk, "ship", "ships")
                );
                self.push(
                    Event::new(NAVAL_COMBAT, "naval-result", text),
                    sea,
                    &involved,
                );
                return Ok(());
            }
        };
        let l_lead = if w_lead == a_lead {
            d_lead.clone()
        } else {
            a_lead.clone()
        };
        let text = format!("{} wins the battle at {sea_id}.", words.who(&w_lead));
        self.push(
            Event::new(NAVAL_COMBAT, "naval-result", text),
            sea,
            &involved,
        );
        self.chase(sea, mover, loser, &w_lead, w_morale, &involved)?;
        let losers: BTreeSet<String> = loser
            .iter()
            .filter(|&&i| self.fleets[i].ships > 0)
            .map(|&i| self.fleets[i].power.clone())
            .collect();
        for p in losers {
            let group: Vec<usize> = loser
                .iter()
                .copied()
                .filter(|&i| self.fleets[i].power == p && self.fleets[i].ships > 0)
                .collect();
            self.retreat(sea, mover, &p, &group, winner, &involved)?;
        }
        let _ = l_lead;
        Ok(())
    }

    /// The tactic a power's fleets use, by standing order or SOP.
    fn tactic(&mut self, power: &str, sea: usize, involved: &BTreeSet<String>) -> Result<String> {
        let d = decide(
            &EiaPoint::Tactics,
            &self.sources(power, None),
            |s| matches!(s, "melee" | "linear-attack" | "linear-defence").then(|| s.to_string()),
            || Ok("linear-attack".to_string()),
        )?;
        let by = if d.by == DecidedBy::Roll {
            DecidedBy::Sop
        } else {
            d.by
        };
        let text = format!(
            "{} fights in {} at {}{}.",
            self.words.who(power),
            d.value,
            self.map.area(sea).id,
            by.aside(" (", ")")
        );
        let e = Event::new(d.rule, "decision", text).decided(power.to_string(), by);
        self.push(e, sea, involved);
        Ok(d.value)
    }

    /// Sinks `n` ships of a side, from its biggest fleet first; returns the ships sunk.
    fn sink(&mut self, side: &[usize], n: u32) -> u32 {
        let mut sunk = 0;
        for _ in 0..n {
            let Some(&i) = side
                .iter()
                .filter(|&&i| self.fleets[i].ships > 0)
                .max_by_key(|&&i| (self.fleets[i].ships, std::cmp::Reverse(i)))
            else {
                break;
            };
            self.fleets[i].ships -= 1;
            sunk += 1;
        }
        sunk
    }

    /// EiA 6.3.5 (SOP): victorious stacks never pursue; in a game that names the option
    /// `chase-by-order`, a standing order `chase always` rolls on the General Chase chart: on a d6 of at most X the loser loses Y more ships, by the victor's morale loss.
    fn chase(
        &mut self,
        sea: usize,
        mover: &str,
        loser: &[usize],
        w_lead: &str,
        w_morale: i64,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let sea_id = self.map.area(sea).id.clone();
        let sources = Sources {
            standing: self
                .eia
                .standing_for(&EiaPoint::Chase, self.standing.get(w_lead)),
            ..self.sources(w_lead, None)
        };
        let d = decide(&EiaPoint::Chase, &sources, always_never, || Ok(false))?;
        if !d.value {
            let text = format!(
                "{} does not pursue at {sea_id}{}.",
                self.words.who(w_lead),
                d.by.aside(" (", ")")
            );
            let e = Event::new(CHASE, "decision", text).decided(w_lead.to_string(), d.by);
            self.push(e, sea, involved);
            return Ok(());
        }
        let (x, y) = self.eia.tables.naval.chase_for(w_morale);
        let roll = self.dice.roll(&labels::chase(&sea_id, mover), &[6])?;
        let face = roll.dice[0].face;
        let told = roll.told(0);
        let lost = if face <= x { self.sink(loser, y) } else { 0 };
        let text = format!("{} gives chase at {sea_id}{}: rolls {told}, needs {x} or less: the enemy loses {} more.", self.words.who(w_lead), d.by.aside(" (", ")"), self.words.count(lost, "ship", "ships"));
        let e = Event::new(CHASE, "chase", text)
            .roll(roll)
            .decided(w_lead.to_string(), d.by);
        self.push(e, sea, involved);
        Ok(())
    }

    /// EiA 6.3.5 (SOP): the defeated fleets retreat to the nearest unblockaded friendly port (random
    /// among equals); with no such port in reach, one sea area toward the nearest one. pbem's reading
    /// of "unblockaded": a port is blockaded while an enemy fleet lies in a sea next to it, the
    /// victors of this battle (`victors`) excepted, for it is from them that the beaten stack flees;
    /// a port the victors alone watch is open to it. With no unblockaded friendly port anywhere by
    /// sea, the stack still retreats one sea area, toward the nearest friendly port (6.3.5 has no
    /// case where a beaten stack stays); only a power with no friendly port by sea at all stays.
    /// Among ports equally near, a die chooses (6.3.5), also the one a stack out of reach sails one
    /// sea area toward; among the seas that bring it equally nearer to that port, the first in map
    /// order (the rule is silent).
    fn retreat(
        &mut self,
        sea: usize,
        mover: &str,
        power: &str,
        group: &[usize],
        victors: &[usize],
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let sea_id = self.map.area(sea).id.clone();
        let blockaded = |me: &Self, port: usize| -> bool {
            me.map.area(port).adjacent.iter().any(|&s| {
                me.fleets.iter().enumerate().any(|(i, f)| {
                    f.area == s
                        && f.ships > 0
                        && !victors.contains(&i)
                        && !me.state.friendly(&f.power, power)
                })
            })
        };
        let friendly_ports: Vec<usize> = (0..self.map.areas.len())
            .filter(|&i| {
                let a = self.map.area(i);
                a.port
                    && self
                        .state
                        .control
                        .get(&a.id)
                        .is_some_and(|o| self.state.friendly(o, power))
            })
            .collect();
        let open: Vec<usize> = friendly_ports
            .iter()
            .copied()
            .filter(|&i| !blockaded(self, i))
            .collect();
        let dist = sea_distances(self.map, sea);
        let reachable = |v: &[usize]| v.iter().any(|&p| dist[p].is_some());
        // Every friendly port is blockaded: toward the nearest of them all.
        let all_blockaded = !reachable(&open) && reachable(&friendly_ports);
        let ports = if all_blockaded { friendly_ports } else { open };
        let dist = sea_distances(self.map, sea);
        let best = ports.iter().filter_map(|&p| dist[p]).min();
        let mut tied: Vec<usize> = ports
            .iter()
            .copied()
            .filter(|&p| dist[p].is_some() && dist[p] == best)
            .collect();
        tied.sort_by(|a, b| {
            self.map
                .area(*a)
                .id
                .as_bytes()
                .cmp(self.map.area(*b).id.as_bytes())
        });
        let reach = self.eia.tables.naval.movement;
        // Two or more ports equally near: the die chooses (6.3.5), whether the stack reaches the
        // chosen one or only sails one sea area toward it.
        let (target, roll, tie) = match tied.len() {
            0 => (None, None, String::new()),
            1 => (Some(tied[0]), None, String::new()),
            n => {
                let roll = self
                    .dice
                    .roll(&labels::naval_retreat(&sea_id, mover, power), &[n as u32])?;
                let names: Vec<&str> = tied.iter().map(|&p| self.map.area(p).id.as_str()).collect();
                let pick = tied[roll.dice[0].face as usize - 1];
                let tie = format!("{} are equally near, the die chooses", names.join(" and "));
                (Some(pick), Some(roll), tie)
            }
        };
        let (to, why) = match (best, target) {
            (Some(d), Some(target)) if d <= reach && !all_blockaded => {
                let why = if tie.is_empty() {
                    "the nearest unblockaded friendly port".to_string()
                } else {
                    tie
                };
                (target, why)
            }
            (Some(_), Some(target)) => {
                // Out of reach (or all blockaded): one sea area toward the nearest port, into a
                // sea nearer to it than this one.
                let back = sea_distances(self.map, target);
                let step = self
                    .map
                    .area(sea)
                    .adjacent
                    .iter()
                    .copied()
                    .filter(|&n| {
                        !self.map.area(n).is_land()
                            && back[n].zip(back[sea]).is_some_and(|(b, s)| b < s)
                    })
                    .min_by_key(|&n| (back[n].unwrap_or(u32::MAX), n));
                let toward = if all_blockaded {
                    "every friendly port is blockaded: one sea area toward the nearest, "
                } else {
                    "one sea area toward "
                };
                let tie = if tie.is_empty() {
                    tie
                } else {
                    format!(" ({tie})")
                };
                let target_id = &self.map.area(target).id;
                match step {
                    Some(step) => (step, format!("{toward}{target_id}{tie}")),
                    // Next to the port already: no sea lies nearer to it.
                    None => (
                        sea,
                        format!("every friendly port is blockaded and no sea area lies nearer to {target_id}{tie}: it stays"),
                    ),
                }
            }
            _ => (sea, "it has no friendly port by sea: it stays".to_string()),
        };
        for &i in group {
            self.fleets[i].area = to;
        }
        let ids: Vec<&str> = group.iter().map(|&i| self.fleets[i].id.as_str()).collect();
        let text = format!(
            "{} retreats from {sea_id} to {} ({why}): {}.",
            self.words.who(power),
            self.map.area(to).id,
            ids.join(", ")
        );
        let e = Event::new(NAVAL_RETREAT, "naval-retreat", text)
            .decided(
                power.to_string(),
                if roll.is_some() {
                    DecidedBy::Roll
                } else {
                    DecidedBy::Sop
                },
            )
            .maybe_roll(roll);
        self.push(e, sea, involved);
        Ok(())
    }
}

/// The die-roll modifier of one side on the Tactical Naval Combat Chart (EiA 19.1, "Die-roll
/// Modifiers to Combat Resolution"): `fleets` are the side's fleets as (power, ships). "Majority of
/// ships are British/French" is a true majority: more than half the side's ships, not merely the
/// most of any power.
pub fn chart_modifier(fleets: &[(String, u32)], tactic: &str, enemy: u32) -> i32 {
    let own: u32 = fleets.iter().map(|(_, n)| n).sum();
    let majority = |power: &str| {
        let theirs: u32 = fleets
            .iter()
            .filter(|(p, _)| p == power)
            .map(|(_, n)| n)
            .sum();
        2 * theirs > own
    };
    let mut d = 0;
    if majority("britain") && (tactic == "linear-attack" || tactic == "melee") {
        d += 1;
    }
    if majority("france") && tactic == "linear-defence" {
        d += 1;
    }
    if own >= 2 * enemy {
        d += 1;
    }
    if 2 * own <= enemy {
        d -= 1;
    }
    d - (fleets.len() as i32 - 2).max(0)
}

/// EiA 19.1, the Closing to Melee table: Nelson's -1/-2 on the roll to close. The melee side's
/// admirals (`admirals`: name and modifier, from the fleets of the side still afloat) give it the
/// strongest of their modifiers, applied always (pbem's reading of "may": the side chose melee to
/// close). An admiral on the linear side does nothing to the roll; none, `None`.
pub fn closing_modifier<'f>(
    admirals: impl Iterator<Item = &'f (String, i32)>,
) -> Option<(String, i32)> {
    admirals
        .min_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)))
        .cloned()
}

/// Writes the fleets back into the next state: ships, areas; sunk fleets are gone.
pub fn write_back(map: &Map, fleets: &[Fleet], next: &mut State) {
    let by_id: BTreeMap<&str, &Fleet> = fleets.iter().map(|f| (f.id.as_str(), f)).collect();
    EiaState::of_mut(next).fleets.retain(|f| {
        by_id
            .get(f.id.get_ref().as_str())
            .is_some_and(|w| w.ships > 0)
    });
    for f in &mut EiaState::of_mut(next).fleets {
        let w = by_id[f.id.get_ref().as_str()];
        f.ships = w.ships;
        f.area = toml::Spanned::new(0..0, map.area(w.area).id.clone());
    }
}

/// Distances for fleets from `from`: through sea areas, ending in ports.
fn sea_distances(map: &Map, from: usize) -> Vec<Option<u32>> {
    let mut dist = vec![None; map.areas.len()];
    dist[from] = Some(0);
    let mut queue = VecDeque::from([from]);
    while let Some(a) = queue.pop_front() {
        let d = dist[a].unwrap_or(0);
        if map.area(a).is_land() && a != from {
            continue;
        }
        for &n in &map.area(a).adjacent {
            let ok = !map.area(n).is_land() || map.area(n).port;
            if ok && dist[n].is_none() {
                dist[n] = Some(d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}
