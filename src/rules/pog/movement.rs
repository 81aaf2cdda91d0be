//! Movement (PoG 11.1): each ordered unit moves along its path in the order of the orders file, one
//! unit completing its move before the next (11.1.1); control follows 11.1.4; a unit entering an
//! isolated space stops (11.1.5); forts are besieged when the units that end there can (11.1.8).
//! The legality of each path against the starting position was checked with the orders
//! (orders.rs); here the position changes under the moves, so each step is checked again.

use anyhow::Result;

use super::action::Action;
use super::orders::{can_besiege, Step};
use super::rules;
use super::state::FortStatus;
use crate::engine::event::Event;

impl Action<'_> {
    /// Moves `unit` along `path` (PoG 11.1.1 to 11.1.8; a unit out of supply only once a supply path
    /// has opened, the Clarification of 11.1.4).
    pub fn move_unit(&mut self, unit: &str, path: &[Step]) -> Result<()> {
        let Some(u) = self.unit(unit) else {
            return Ok(());
        };
        let (id, power, nation, start) = (
            u.id().to_string(),
            u.power().to_string(),
            u.nation.clone(),
            u.space().to_string(),
        );
        let mut at = self.space_index(&start);
        // The Clarification of 11.1.4: out of supply at activation, the unit moves only if the moves
        // before its own opened a supply path. pbem's supply is traced through control, which no
        // move of the side takes away, so "supplied now" is "supplied at activation or opened since".
        if !self.supplied(at, &power) {
            self.event(
                rules::OUT_OF_SUPPLY_MOVE,
                "stop",
                Some(&start),
                format!("{id} is out of supply and no supply path has opened: it does not move."),
            );
            return Ok(());
        }
        let mut entered = Vec::new();
        let mut stop = None;
        for (k, step) in path.iter().enumerate() {
            let next = self.space_index(&step.space);
            let last = k + 1 == path.len();
            if !self.map.connected_for(at, next, &nation)
                || !self.enemies_in(&step.space, &power).is_empty()
            {
                stop = Some((
                    rules::CONNECTIONS,
                    format!(
                        "{id} stops in {}: {} is closed to it (PoG 11.1.7).",
                        self.space_id(at),
                        step.space
                    ),
                ));
                break;
            }
            // 11.1.10, 11.1.11, 11.1.13, 11.3.1, 11.3.2: checked with the orders against the
            // position before the action; checked again as the position changes.
            let from = self.space_id(at);
            let closed = self.unit(&id).and_then(|u| {
                let t = &self.tables.theatres;
                super::theatres::closed_to(self.map, t, &self.pog, u, &step.space)
                    .map(|c| (c.rule, c.why))
                    .or_else(|| {
                        super::theatres::caucasus_refuses(t, &self.pog, u, &from, &step.space, 0)
                            .map(|why| (rules::CAUCASUS, why))
                    })
            });
            if let Some((rule, why)) = closed {
                stop = Some((
                    rule,
                    format!("{id} stops in {from}: {why} (PoG {}).", rule.number),
                ));
                break;
            }
            if self.unbesieged_enemy_fort(&step.space, &power) && !last {
                stop = Some((
                    rules::CONNECTIONS,
                    format!(
                        "{id} stops in {}: the fort of {} stands (PoG 11.1.8).",
                        self.space_id(at),
                        step.space
                    ),
                ));
                break;
            }
            self.place(&id, &step.space);
            self.note_caucasus(&id, &from, &step.space, rules::CAUCASUS, "moves");
            self.enter_trench(&step.space, &power);
            entered.push(step.space.clone());
            at = next;
            if step.control
                && !self.intact_enemy_fort(&step.space, &power)
                && self.take_control(&step.space, &power, std::slice::from_ref(&id))
            {
                self.event(
                    rules::CONTROL,
                    "control",
                    Some(&step.space),
                    format!(
                        "{id} spends 1 MP to take control of {} on the way.",
                        step.space
                    ),
                );
            }
            if !last && !self.supplied(next, &power) {
                stop = Some((
                    rules::MF_LIMIT,
                    format!(
                        "{id} enters {}, which is isolated, and stops there.",
                        step.space
                    ),
                ));
                break;
            }
        }
        let end = self.space_id(at);
        let route = if entered.is_empty() {
            format!("{id} stays in {start}.")
        } else {
            format!("{id} moves {start} -> {}.", entered.join(" -> "))
        };
        let places: Vec<&str> = std::iter::once(start.as_str())
            .chain(entered.iter().map(String::as_str))
            .collect();
        self.log(
            Event::new(rules::ONE_MP, "move", route)
                .at(&end)
                .naming([id.as_str()])
                .route(places),
        );
        if let Some((rule, why)) = stop {
            self.event(rule, "stop", Some(&end), why);
        }
        if !entered.is_empty()
            && !self.intact_enemy_fort(&end, &power)
            && self.take_control(&end, &power, std::slice::from_ref(&id))
        {
            self.event(
                rules::CONTROL,
                "control",
                Some(&end),
                format!(
                    "{} control of {end}, where {id} ends its move.",
                    self.says(&power, "takes", "take")
                ),
            );
        }
        Ok(())
    }

    /// After movement: each intact enemy fort with units of `power` in its space is besieged by them,
    /// if they can besiege it (11.1.8).
    pub fn besiege_forts(&mut self, power: &str) {
        let spaces: Vec<String> = self
            .map
            .areas
            .iter()
            .filter(|a| a.fort.is_some())
            .map(|a| a.id.clone())
            .collect();
        for s in spaces {
            if !self.unbesieged_enemy_fort(&s, power) {
                continue;
            }
            let ours: Vec<&super::state::Unit> = self
                .pog
                .units_in(&s)
                .filter(|u| u.power() == power)
                .collect();
            if ours.is_empty() {
                continue;
            }
            let fort = self.map.area(self.space_index(&s)).fort.unwrap_or(0);
            if can_besiege(ours.iter().copied(), fort) {
                self.pog.fort.insert(s.clone(), FortStatus::Besieged);
                self.event(
                    rules::FORT_ENTRY,
                    "siege",
                    Some(&s),
                    format!(
                        "{} the fort of {s}.",
                        self.says(power, "besieges", "besiege")
                    ),
                );
            }
        }
    }

    /// At the end of the action: a besieged fort with no enemy left in its space is intact again
    /// (pbem's reading: the siege rules of 15 are not in the seed).
    pub fn lift_sieges(&mut self) {
        let besieged: Vec<String> = self
            .pog
            .fort
            .iter()
            .filter(|(_, s)| **s == FortStatus::Besieged)
            .map(|(k, _)| k.clone())
            .collect();
        for s in besieged {
            let holder = self.controller(&s).unwrap_or_default().to_string();
            if self.enemies_in(&s, &holder).is_empty() {
                self.pog.fort.remove(&s);
                self.event(
                    rules::FORT_ENTRY,
                    "siege",
                    Some(&s),
                    format!("No besieger is left in {s}: its fort is intact again."),
                );
            }
        }
    }
}
