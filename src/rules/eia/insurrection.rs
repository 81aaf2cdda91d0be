//! Austrian insurrection corps (EiA 10.1.4.1, 10.1.4.1.4), by standing order instead of an interrupt:
//! at the end of the land movement step, for each border province of a power that an enemy corps
//! entered, one of that power's waiting insurrection corps is raised in it (standing order
//! `insurrection always`, the SOP, or `never`). After the turn's combats comes the special
//! insurrection land phase of 10.1.4.1.4 (pbem's simultaneous turn has no enemy guerrilla step: it
//! follows the last combat): the corps just raised move as their power ordered (a `move` written
//! for a waiting corps, from where it rose; EiA 7 applies), and those that then face the enemy in
//! their area attack him there, those combats in a random order of their own (7.5.1.3). pbem's
//! reading: the attacks are declared by the SOP, not by order, sieges are not begun in that phase,
//! and an area already fought over this turn is not fought again (one combat per area and turn).

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Sources};
use crate::engine::event::Event;
use crate::game::state::{CorpsKind, State};

use super::board::Corps;
use super::decisions::{always_never, EiaPoint, INSURRECTION, INSURRECTION_PHASE};
use super::orders::EiaOrder;
use super::phase::Phase;

impl Phase<'_> {
    /// Raises insurrection corps where enemies entered border provinces; returns the corps raised (by
    /// id, for the next state and the special land phase).
    pub(super) fn insurrection(&mut self, state: &State) -> Result<Vec<String>> {
        let mut raised = Vec::new();
        let mut waiting: BTreeMap<&str, Vec<&crate::game::state::Levy>> = BTreeMap::new();
        for l in &state.insurrection {
            waiting.entry(l.power.as_str()).or_default().push(l);
        }
        for (power, levies) in waiting {
            let entered: Vec<usize> = (0..self.map.areas.len())
                .filter(|&a| self.map.area(a).border.as_deref() == Some(power))
                .filter(|&a| {
                    self.board.corps_in(a).iter().any(|&i| {
                        let c = &self.board.corps[i];
                        c.moved && !self.board.friendly(&c.power, power)
                    })
                })
                .collect();
            if entered.is_empty() {
                continue;
            }
            let sources = Sources {
                explicit: None,
                standing: self.standing.get(power),
                sop: &self.eia.sop,
                scope: None,
            };
            let d = decide(&EiaPoint::Insurrection, &sources, always_never, || Ok(true))?;
            let mut pool = levies.into_iter();
            for area in entered {
                let name = self.map.area(area).id.clone();
                let involved: BTreeSet<String> = self
                    .board
                    .powers_in(area)
                    .into_iter()
                    .chain([power.to_string()])
                    .collect();
                if !d.value {
                    let text = format!(
                        "{power} raises no insurrection corps in {name} ({}).",
                        d.by.describe_theirs()
                    );
                    let e =
                        Event::new(INSURRECTION, "decision", text).decided(power.to_string(), d.by);
                    self.push(e, area, &involved);
                    continue;
                }
                let Some(levy) = pool.next() else { break };
                self.board.corps.push(Corps {
                    id: levy.id.clone(),
                    power: levy.power.clone(),
                    kind: CorpsKind::Infantry,
                    factors: levy.factors,
                    morale: levy.morale.0,
                    area,
                    moved: false,
                    in_city: false,
                    artillery: 0,
                    eliminated: false,
                });
                raised.push(levy.id.clone());
                let text = format!(
                    "An enemy entered the border province of {name}: {power} raises the insurrection corps {} there ({}, {} factors).",
                    levy.id,
                    d.by.describe_theirs(),
                    levy.factors
                );
                let e = Event::new(INSURRECTION, "decision", text).decided(power.to_string(), d.by);
                self.push(e, area, &involved);
            }
        }
        Ok(raised)
    }

    /// EiA 10.1.4.1.4: the special insurrection land phase, after the turn's combats (`fought`: the
    /// areas fought over already). The corps of `raised` still on the map attack the enemy in their
    /// area; the combats are fought in the order of the `insurrection-order` shuffle.
    pub(super) fn insurrection_phase(
        &mut self,
        raised: &[String],
        fought: &BTreeSet<usize>,
        orders: &BTreeMap<String, Vec<EiaOrder>>,
    ) -> Result<()> {
        // First the moves its power ordered for them, from where they rose (EiA 7 applies).
        let mut moves: BTreeMap<String, Vec<EiaOrder>> = BTreeMap::new();
        for id in raised {
            let Some(i) = self.board.find_corps(id) else {
                continue;
            };
            let (power, area) = (self.board.corps[i].power.clone(), self.board.corps[i].area);
            if self.board.corps[i].eliminated || self.board.corps[i].in_city {
                continue;
            }
            let Some(path) = orders.get(&power).and_then(|list| {
                list.iter().find_map(|o| match o {
                    EiaOrder::Move { unit, path } if unit == id => Some(path.clone()),
                    _ => None,
                })
            }) else {
                continue;
            };
            let first = path.first().and_then(|s| self.map.find(s));
            if first.is_some_and(|f| self.map.adjacent(area, f)) {
                moves.entry(power).or_default().push(EiaOrder::Move {
                    unit: id.clone(),
                    path,
                });
            } else {
                let name = self.map.area(area).id.clone();
                let text = format!(
                    "{id} does not move in the special insurrection land phase: its path does not start next to {name}, where it rose."
                );
                let involved = BTreeSet::from([power.clone()]);
                self.push(
                    Event::new(INSURRECTION_PHASE, "insurrection", text),
                    area,
                    &involved,
                );
            }
        }
        if !moves.is_empty() {
            super::movement::move_units(self.map, &mut self.board, &moves, &[], &mut self.events);
        }
        let mut by_area: BTreeMap<usize, (String, Vec<String>)> = BTreeMap::new();
        for id in raised {
            let Some(i) = self.board.find_corps(id) else {
                continue;
            };
            let c = &self.board.corps[i];
            if c.eliminated || c.in_city || !self.board.enemies_in(c.area, &c.power) {
                continue;
            }
            let entry = by_area
                .entry(c.area)
                .or_insert_with(|| (c.power.clone(), Vec::new()));
            entry.1.push(c.id.clone());
        }
        let mut combats = Vec::new();
        for (area, (power, ids)) in by_area {
            let name = self.map.area(area).id.clone();
            let involved: BTreeSet<String> = self.board.powers_in(area);
            let text = if fought.contains(&area) {
                format!(
                    "In the special insurrection land phase, {} would attack the enemy in {name}, but {name} was fought over this turn: pbem fights one combat per area and turn.",
                    ids.join(", ")
                )
            } else {
                combats.push((area, power));
                format!(
                    "In the special insurrection land phase, {} {} the enemy in {name}.",
                    ids.join(", "),
                    if ids.len() == 1 { "attacks" } else { "attack" }
                )
            };
            self.push(
                Event::new(INSURRECTION_PHASE, "insurrection", text),
                area,
                &involved,
            );
        }
        combats.sort_by(|a, b| {
            self.map
                .area(a.0)
                .id
                .as_bytes()
                .cmp(self.map.area(b.0).id.as_bytes())
        });
        if combats.len() > 1 {
            let sorted: Vec<String> = combats
                .iter()
                .map(|c| self.map.area(c.0).id.clone())
                .collect();
            let roll = self
                .dice
                .shuffle(&super::labels::insurrection_order(), &mut combats)?;
            let order: Vec<String> = combats
                .iter()
                .map(|c| self.map.area(c.0).id.clone())
                .collect();
            let text = format!(
                "The combats of the special insurrection land phase, [{}], are fought in the order [{}].",
                sorted.join(", "),
                order.join(", ")
            );
            let e = Event::new(INSURRECTION_PHASE, "combat-order", text)
                .roll(roll)
                .decided("all", DecidedBy::Roll);
            // Seen, as the turn's combat order, by the powers that fight or watch one of the battles.
            let positions = self.board.positions();
            let mut everyone = BTreeSet::new();
            for c in &combats {
                everyone.extend(self.board.powers_in(c.0));
                everyone.extend(super::visibility::watchers(self.map, &positions, c.0));
            }
            self.events
                .push(e.seen_by(everyone.iter().map(String::as_str)));
        }
        self.battlefields = combats.iter().map(|c| c.0).collect();
        for (area, attacker) in combats {
            self.fight(area, &attacker)?;
        }
        Ok(())
    }
}
