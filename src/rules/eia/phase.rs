//! The EiA land phase after movement: declared attacks, the random order of combats (7.5.1.3), each
//! combat in turn, and control of areas. The combat itself is in `battle.rs`, marches to a battle in
//! `reinforce.rs`, pursuit and retreat in `retreat.rs`.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::decide::DecidedBy;
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::map::Map;
use crate::game::state::State;
use crate::game::Game;
use crate::rule::Rule;
use crate::rules::eia::state::EiaState;
use crate::rules::Resolution;

use super::board::Board;
use super::decisions::COMBAT_ORDER;
use super::naval::{self, Naval};
use super::orders::EiaOrder;
use super::visibility::watchers;
use super::{labels, movement, Eia};

/// EiA 7.5: land combat, one round on the combat table (the table is the game's own, see tables.toml);
/// `battle.rs` fights it.
pub const COMBAT: Rule = Rule::new("EiA", "7.5", "land combat");
/// EiA 7.5: a declared attack needs enemy corps in the area after movement.
pub const ATTACK: Rule = Rule::new(
    "EiA",
    "7.5",
    "attacks are declared on areas holding enemy corps",
);
/// EiA 7: control of an area passes to the only power with corps in it.
pub const CONTROL: Rule = Rule::new(
    "EiA",
    "7",
    "control passes to the only power with corps in an area",
);

/// About how many events a combat tells, to make room for them before the combats (a guess: more
/// are added as a list grows, fewer leave room unused).
const EVENTS_PER_COMBAT: usize = 24;

/// Everything a combat needs, borrowed for the phase.
pub(super) struct Phase<'a> {
    pub(super) eia: &'a Eia,
    pub(super) map: &'a Map,
    pub(super) board: Board,
    pub(super) dice: &'a mut DiceBox,
    pub(super) events: Vec<Event>,
    /// Explicit chit orders: power -> area -> chit.
    pub(super) chits: BTreeMap<String, BTreeMap<String, String>>,
    /// Corps that slipped away before a combat this turn (EiA 10.1.2.2.3): they do not march back to it.
    pub(super) evaded: BTreeSet<usize>,
    /// Corps that took part in a combat of this land phase (EiA 7.5.2.11, pbem's reading): a corps
    /// fights one combat a phase, so one beaten and retreated, or victorious, marches to no other.
    pub(super) fought: BTreeSet<usize>,
    /// Corps that fought on the attacking side of a combat of the turn's land phase: an insurrection
    /// corps raised this turn among them had its land phase there, and has no special one (EiA
    /// 10.1.4.1.4).
    pub(super) attacked: BTreeSet<usize>,
    /// Outflanking forces named by order: (power, area) -> corps ids (EiA 7.5.2.3).
    pub(super) outflankers: BTreeMap<(String, String), Vec<String>>,
    /// Standing orders, as of this turn's orders.
    pub(super) standing: BTreeMap<String, BTreeMap<String, String>>,
    /// Areas where a combat takes place this turn.
    pub(super) battlefields: BTreeSet<usize>,
    /// The powers besieging the city of an area (EiA 7.5.4), by area: those whose corps stood in the
    /// area outside its garrison when the turn began, and those that besieged it this turn. While one
    /// of them stands in the area, the garrison is besieged (EiA 7.5.2.11).
    pub(super) besiegers: BTreeMap<usize, BTreeSet<String>>,
    /// Depot and capital areas of each power, from the control at the start of the turn.
    pub(super) depots: BTreeMap<String, Vec<usize>>,
    /// Who controls each land area at the start of the turn (the state's `[control]`): a city held
    /// by a power hostile to the defenders is closed to them (EiA 7.5.1.1, pbem's reading).
    pub(super) control: &'a BTreeMap<String, String>,
    /// The land phase being fought, as its dice labels name it: `None` for the turn's, `insurrection`
    /// for the special insurrection land phase (EiA 10.1.4.1.4; `labels::staged`).
    pub(super) stage: Option<&'static str>,
    /// How the texts name the powers and count (`super::WORDING`).
    pub(super) words: super::Words,
}

/// Resolves the land phase of a turn.
pub fn resolve_land_phase(
    eia: &Eia,
    game: &Game,
    state: &State,
    orders: &BTreeMap<String, Vec<EiaOrder>>,
    dice: &mut DiceBox,
) -> Result<Resolution> {
    let map = &game.map;
    let mut standing = state.standing.clone();
    let mut chits: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut outflankers = BTreeMap::new();
    for (power, list) in orders {
        for o in list {
            match o {
                EiaOrder::Standing { key, value } => {
                    standing
                        .entry(power.clone())
                        .or_default()
                        .insert(key.clone(), value.clone());
                }
                EiaOrder::Chit { area, chit, with } => {
                    chits
                        .entry(power.clone())
                        .or_default()
                        .insert(area.clone(), chit.clone());
                    if !with.is_empty() {
                        outflankers.insert((power.clone(), area.clone()), with.clone());
                    }
                }
                _ => {}
            }
        }
    }
    let mut depots: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, a) in map.areas.iter().enumerate() {
        if let Some(cap) = &a.capital {
            depots.entry(cap.clone()).or_default().push(i);
        }
        if a.depot {
            if let Some(owner) = state.control.get(&a.id) {
                depots.entry(owner.clone()).or_default().push(i);
            }
        }
    }
    // The naval phase comes first (EiA 6).
    let words = super::Words::of(game);
    let mut naval = Naval::new(eia, map, state, &standing, dice, orders, &words);
    naval.run(orders)?;
    naval.engage(orders)?;
    let (fleets, naval_events) = (naval.fleets.clone(), std::mem::take(&mut naval.events));
    drop(naval);
    let mut phase = Phase {
        eia,
        map,
        board: Board::new(map, state),
        dice,
        events: naval_events,
        chits,
        outflankers,
        evaded: BTreeSet::new(),
        fought: BTreeSet::new(),
        attacked: BTreeSet::new(),
        standing: standing.clone(),
        battlefields: BTreeSet::new(),
        besiegers: BTreeMap::new(),
        depots,
        control: &state.control,
        stage: None,
        words,
    };
    phase.sieges_from_earlier_turns(state);
    movement::move_units(
        &phase.words,
        map,
        &mut phase.board,
        orders,
        &fleets,
        &mut phase.events,
    );
    let raised = phase.insurrection(state)?;
    // The corps raised this turn attack in their own phase (EiA 10.1.4.1.4), not in this one.
    let combats = phase.declared_combats(orders, &|c| !raised.contains(&c.id));
    phase.battlefields = combats.iter().map(|c| c.0).collect();
    let standing_before: Vec<bool> = phase.board.corps.iter().map(|c| !c.eliminated).collect();
    // The combats tell most of a turn's events: room for them at once, not grown (and copied)
    // again and again. A combat tells about 20 (its sides' chits, its rounds, the corps that try to
    // march to it, pursuit and retreat: 206,000 for 10,000 combats at 1,000 powers, issue 39).
    phase.events.reserve(combats.len() * EVENTS_PER_COMBAT);
    for (area, attacker) in phase.combat_order(combats, labels::combat_order, COMBAT_ORDER)? {
        phase.fight(area, &attacker)?;
    }
    phase.insurrection_phase(&raised, orders)?;
    phase.announce_losses(&standing_before);
    let mut next = phase.board.to_state(map, state);
    raise_into(&phase.board, map, state, &raised, &mut next);
    naval::write_back(map, &fleets, &mut next);
    next.standing = standing;
    phase.update_control(&mut next);
    Ok(Resolution {
        events: phase.events,
        next,
    })
}

/// Moves the insurrection corps raised this turn from the waiting list into the next state's corps.
fn raise_into(board: &Board, map: &Map, state: &State, raised: &[String], next: &mut State) {
    EiaState::of_mut(next)
        .insurrection
        .retain(|l| !raised.contains(&l.id));
    for levy in EiaState::of(state)
        .insurrection
        .iter()
        .filter(|l| raised.contains(&l.id))
    {
        let Some(i) = board.find_corps(&levy.id) else {
            continue;
        };
        let b = &board.corps[i];
        if b.eliminated {
            continue;
        }
        EiaState::of_mut(next)
            .corps
            .push(crate::rules::eia::state::Corps {
                id: toml::Spanned::new(0..0, levy.id.clone()),
                power: toml::Spanned::new(0..0, levy.power.clone()),
                kind: crate::rules::eia::state::CorpsKind::Infantry,
                factors: b.factors,
                morale: levy.morale,
                movement: levy.movement,
                artillery: 0,
                area: toml::Spanned::new(0..0, map.area(b.area).id.clone()),
                in_city: b.in_city,
            });
    }
}

impl Phase<'_> {
    /// One event per corps the combats took off the board, with its rule, seen by whoever watched its
    /// area and by its own power: destroyed in combat (EiA 7.5: no factors left), lost with its city
    /// (EiA 7.5.4: stormed or surrendered), or surrendered for want of a retreat (EiA 7.5.2.10.3).
    fn announce_losses(&mut self, standing_before: &[bool]) {
        for (i, was) in standing_before.iter().enumerate() {
            let c = &self.board.corps[i];
            if !*was || !c.eliminated {
                continue;
            }
            let (rule, how) = if c.factors == 0 {
                (COMBAT, "is destroyed in combat")
            } else if c.in_city {
                (
                    super::decisions::SIEGE,
                    "is lost with the city (stormed or surrendered)",
                )
            } else {
                (
                    super::decisions::RETREAT,
                    "surrenders: it had nowhere to retreat",
                )
            };
            let text = format!(
                "{} ({}) {how} in {}.",
                c.id,
                self.words.who(&c.power),
                self.map.area(c.area).id
            );
            let (area, own) = (c.area, BTreeSet::from([c.power.clone()]));
            self.push(Event::new(rule, "unit-lost", text), area, &own);
        }
    }

    pub(super) fn push(&mut self, event: Event, area: usize, also: &BTreeSet<String>) {
        self.push_seen(event, area, &[area], also);
    }

    /// Adds an event at `area`, seen by the powers that watch any of `watched` (as
    /// `visibility::watchers` each) and by `also`. Each name is copied once, into the event's
    /// audience (a turn of 1,000 powers makes some 200,000 events: issue 39).
    pub(super) fn push_seen(
        &mut self,
        event: Event,
        area: usize,
        watched: &[usize],
        also: &BTreeSet<String>,
    ) {
        let positions = self.board.positions();
        let mut numbers = Vec::new();
        for &a in watched {
            positions.watcher_numbers(self.map, super::visibility::SIGHT.range, a, &mut numbers);
        }
        numbers.sort_unstable();
        numbers.dedup();
        let mut names: Vec<&str> = numbers.into_iter().map(|p| positions.power(p)).collect();
        names.extend(also.iter().map(String::as_str));
        names.sort_unstable();
        names.dedup();
        let mut event = event.at(&self.map.area(area).id);
        event.visible_to.add_sorted(&names);
        self.events.push(event);
    }

    /// The attacks that lead to combat: declared by a power with corps in the area (those of them for
    /// which `attacks` holds: the phase's own), against another power's corps there. Where several
    /// powers declare on one area, the one with most factors attacks.
    pub(super) fn declared_combats(
        &mut self,
        orders: &BTreeMap<String, Vec<EiaOrder>>,
        attacks: &dyn Fn(&super::board::Corps) -> bool,
    ) -> Vec<(usize, String)> {
        let mut by_area: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for (power, list) in orders {
            for o in list {
                if let EiaOrder::Attack { area } = o {
                    let a = self.map.find(area).expect("checked order");
                    by_area.entry(a).or_default().push(power.clone());
                }
            }
        }
        let mut combats = Vec::new();
        for (area, declarers) in by_area {
            let present: BTreeSet<String> = self
                .board
                .corps_in(area)
                .into_iter()
                .map(|i| &self.board.corps[i])
                .filter(|c| !c.eliminated && !c.in_city && attacks(c))
                .map(|c| c.power.clone())
                .collect();
            let mut able: Vec<&String> =
                declarers.iter().filter(|p| present.contains(*p)).collect();
            able.dedup();
            let factors = |p: &str| -> u32 {
                self.board
                    .corps_in(area)
                    .iter()
                    .filter(|&&i| self.board.corps[i].power == p)
                    .map(|&i| self.board.corps[i].factors)
                    .sum()
            };
            able.sort_by(|a, b| factors(b).cmp(&factors(a)).then(a.cmp(b)));
            let name = self.map.area(area).id.clone();
            for p in &declarers {
                let why = if !present.contains(p) {
                    Some(format!(
                        "{} declares an attack on {name} but has no corps there after movement.",
                        self.words.who(p)
                    ))
                } else if !self.board.enemies_in(area, p) {
                    Some(format!(
                        "{} declares an attack on {name}, but no enemy corps are there.",
                        self.words.who(p)
                    ))
                } else {
                    None
                };
                if let Some(text) = why {
                    let also = BTreeSet::from([p.clone()]);
                    self.push(Event::new(ATTACK, "attack", text), area, &also);
                }
            }
            if let Some(attacker) = able.into_iter().find(|p| self.board.enemies_in(area, p)) {
                combats.push((area, attacker.clone()));
            }
        }
        combats
    }

    /// EiA 7.5.1.3: the combats in random order. Each combat draws its own key, a die of
    /// `labels::ORDER_KEY_FACES` under `label(area)` (`combat-order/area=<area>` for the turn's
    /// combats, `insurrection-order/area=<area>` for the special insurrection phase's, cited as `rule`),
    /// and the combats are fought lowest key first (equal keys by area id bytes). A power is told the
    /// key of each combat it fights or watches, and nothing of the others: it checks the order of the
    /// battles it sees from their keys alone. The key events come first, in the order the combats are
    /// fought.
    pub(super) fn combat_order(
        &mut self,
        combats: Vec<(usize, String)>,
        label: fn(&str) -> String,
        rule: Rule,
    ) -> Result<Vec<(usize, String)>> {
        if combats.len() < 2 {
            return Ok(combats);
        }
        let mut keyed = Vec::new();
        for c in combats {
            let id = self.map.area(c.0).id.clone();
            let roll = self.dice.roll(&label(&id), &[labels::ORDER_KEY_FACES])?;
            keyed.push((roll.dice[0].face, id, c, roll));
        }
        keyed.sort_by(|a, b| (a.0, a.1.as_bytes()).cmp(&(b.0, b.1.as_bytes())));
        let positions = self.board.positions();
        let mut order = Vec::new();
        for (_, id, c, roll) in keyed {
            let text = format!(
                "The combat at {id} draws the order key {}: the combats are fought lowest key first.",
                roll.told(0)
            );
            let e = Event::rolled(rule, "combat-order", text, roll)
                .at(&id)
                .decided("all", DecidedBy::Roll);
            let mut seen = self.board.powers_in(c.0);
            seen.extend(watchers(self.map, &positions, c.0));
            self.events.push(e.seen_by(seen.iter().map(String::as_str)));
            order.push(c);
        }
        Ok(order)
    }

    /// The factors of `power`'s corps in `area`.
    pub(super) fn strength(&self, area: usize, power: &str) -> u32 {
        self.board
            .corps_in(area)
            .iter()
            .map(|&i| &self.board.corps[i])
            .filter(|c| c.power == power)
            .map(|c| c.factors)
            .sum()
    }

    /// EiA 7: after the land phase each land area with corps of a single power is controlled by it.
    pub(super) fn update_control(&mut self, next: &mut State) {
        for (i, a) in self.map.areas.iter().enumerate() {
            if !a.is_land() {
                continue;
            }
            let powers = self.board.powers_in(i);
            let Some(first) = powers.iter().next() else {
                continue;
            };
            // Contested areas change hands in no one's favour; allies never take each other's areas.
            if powers.iter().any(|p| !self.board.friendly(p, first)) {
                continue;
            }
            let old = next.control.get(&a.id).cloned();
            if old.as_ref().is_some_and(|o| self.board.friendly(o, first)) {
                continue;
            }
            let p = powers
                .iter()
                .max_by_key(|p| (self.strength(i, p), std::cmp::Reverse((*p).clone())))
                .expect("a power")
                .clone();
            next.control.insert(a.id.clone(), p.clone());
            if old.as_ref() != Some(&p) {
                let was = old.clone().map_or("uncontrolled".to_string(), |o| {
                    format!("held by {}", self.words.who(&o))
                });
                let text = format!(
                    "{} takes control of {} (was {was}).",
                    self.words.who(&p),
                    a.id
                );
                let mut also = BTreeSet::from([p.clone()]);
                also.extend(old);
                self.push(Event::new(CONTROL, "control", text), i, &also);
            }
        }
    }
}
