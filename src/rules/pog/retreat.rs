//! Steps 11 and 12 of a combat: the defender's retreat, or its cancellation with one more step loss
//! (PoG 12.2.11, with 11.2.12), and the attacker's advance (12.2.12).
//!
//! The retreat rules of 12.5 are not in the seed. pbem's reading, from 12.2.1's "retreat of two
//! spaces": the defending stack retreats together up to two spaces, each free of enemy units and of
//! intact enemy forts and open to every nation of the stack; if no space is open, the stack is
//! eliminated. Where it goes is the defender's standing order (`standing retreat <space> <to>`) or
//! the SOP: an end space with room for the stack (10.1.3 would cost units), then the one nearest to a
//! supply source of its side, then one it controls, then at random.

use anyhow::Result;

use crate::engine::event::Event;
use crate::rules::wording::verb;

use super::action::{list, Action};
use super::combat::{Attack, Combat};
use super::decisions::PogPoint;
use super::labels;
use super::orders::can_besiege;
use super::rules;

/// Where a stack retreats: the spaces it passes, the last one the end.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Path(Vec<usize>);

impl Action<'_> {
    /// Step 11 for the defenders `left` of combat `c`, whom the attacker beat.
    pub fn defender_retreat(&mut self, c: &Combat, left: &[String]) -> Result<()> {
        let target = c.attack.target.clone();
        let power = c.defender.clone();
        // 12.2.11 with 11.2.12: an entrenched defender may cancel the retreat with one more step.
        if !c.trenches_negated && self.trench_level(&target, &power).is_some() {
            let d = self.decide(
                PogPoint::CancelRetreat,
                &power,
                None,
                Some(&target),
                |v| matches!(v, "always" | "never").then(|| v == "always"),
                || Ok(false),
            )?;
            if d.value {
                let mut units: Vec<&super::state::Unit> =
                    left.iter().filter_map(|id| self.unit(id)).collect();
                units.sort_by_key(|u| (u.is_army(), !u.is_reduced, u.cf(), u.id().to_string()));
                if let Some(u) = units.first() {
                    let id = u.id().to_string();
                    let what = self.step_loss(&id);
                    let text = format!(
                        "{} {target} and {} the retreat with one more step loss: {what}.",
                        self.says(&power, "holds", "hold"),
                        self.agree(&power, "cancels", "cancel")
                    );
                    self.log(
                        Event::new(rules::CANCEL_RETREAT, "retreat", text)
                            .at(&target)
                            .decided(&power, d.by),
                    );
                    return Ok(());
                }
            } else {
                let text = format!(
                    "{} not cancel the retreat from {target}.",
                    self.says(&power, "does", "do")
                );
                self.log(
                    Event::new(rules::CANCEL_RETREAT, "decision", text)
                        .at(&target)
                        .decided(&power, d.by),
                );
            }
        }
        let paths = self.retreat_paths(&target, &power, left);
        if paths.is_empty() {
            for id in left {
                self.eliminate(id);
            }
            self.event(
                rules::RETREAT_PATH,
                "retreat",
                Some(&target),
                format!(
                    "{} cannot retreat from {target}: no open space; eliminated.",
                    list(left)
                ),
            );
            return Ok(());
        }
        let ends: Vec<String> = paths
            .iter()
            .map(|p| self.space_id(*p.0.last().expect("a path")))
            .collect();
        let d = self.decide(
            PogPoint::Retreat,
            &power,
            None,
            Some(&target),
            |v| {
                if v == "toward-supply" {
                    Some(None)
                } else {
                    ends.iter()
                        .position(|e| e.eq_ignore_ascii_case(v))
                        .map(Some)
                }
            },
            || Ok(None),
        )?;
        let (chosen, by, roll) = match d.value {
            Some(i) => (i, d.by, None),
            None => {
                let best = self.best_retreats(&paths, &power, left.len());
                if best.len() == 1 {
                    (best[0], d.by, None)
                } else {
                    let roll = self
                        .dice
                        .roll(&labels::retreat(c.n, &target), &[best.len() as u32])?;
                    (
                        best[roll.dice[0].face as usize - 1],
                        crate::decide::DecidedBy::Roll,
                        Some(roll),
                    )
                }
            }
        };
        let path = paths[chosen].clone();
        let names: Vec<String> = path.0.iter().map(|&i| self.space_id(i)).collect();
        let end = names.last().cloned().unwrap_or_default();
        let mut at = target.clone();
        for s in &names {
            for id in left {
                self.note_caucasus(id, &at, s, rules::CAUCASUS_COMBAT, "retreats");
            }
            at = s.clone();
        }
        for id in left {
            self.place(id, &end);
            self.retreated.insert(id.to_lowercase());
        }
        for s in &names {
            self.enter_trench(s, &power);
        }
        let text = format!(
            "{} {} from {target} to {end} (by {}).",
            list(left),
            verb(left.len(), "retreats", "retreat"),
            names.join(", ")
        );
        let rule = if d.value.is_some() {
            rules::RETREAT_PATH
        } else {
            rules::RETREAT
        };
        self.log(
            Event::new(rule, "retreat", text)
                .at(&end)
                .decided(&power, by)
                .maybe_roll(roll),
        );
        Ok(())
    }

    /// Every retreat of up to two spaces from `from` open to all of `units`; two-space paths, and a
    /// one-space path where no second space is open.
    fn retreat_paths(&self, from: &str, power: &str, units: &[String]) -> Vec<Path> {
        let nations: Vec<String> = units
            .iter()
            .filter_map(|id| self.unit(id))
            .map(|u| u.nation.clone())
            .collect();
        let start = self.space_index(from);
        let stack: Vec<&super::state::Unit> = units.iter().filter_map(|id| self.unit(id)).collect();
        let t = &self.tables.theatres;
        // 11.1.10, 11.1.11, 11.1.13, 11.3.1: closed to every unit of the stack that may not enter;
        // 12.1.9: between the To Caucasus box and the Near East only a lone Russian corps, once a
        // turn.
        let russians = stack
            .iter()
            .filter(|u| u.nation.eq_ignore_ascii_case(super::theatres::RUSSIAN))
            .count();
        let open = |a: usize, b: usize| {
            let id = self.space_id(b);
            let from = self.space_id(a);
            nations.iter().all(|n| self.map.connected_for(a, b, n))
                && self.enemies_in(&id, power).is_empty()
                && !self.intact_enemy_fort(&id, power)
                && stack.iter().all(|u| {
                    super::theatres::closed_to(self.map, t, &self.pog, u, &id).is_none()
                        && super::theatres::caucasus_refuses(
                            t,
                            &self.pog,
                            u,
                            &from,
                            &id,
                            russians.saturating_sub(1),
                        )
                        .is_none()
                })
        };
        let mut out = Vec::new();
        for &a in &self.map.area(start).adjacent {
            if !open(start, a) {
                continue;
            }
            let seconds: Vec<usize> = self
                .map
                .area(a)
                .adjacent
                .iter()
                .copied()
                .filter(|&b| b != start && open(a, b))
                .collect();
            if seconds.is_empty() {
                out.push(Path(vec![a]));
            }
            for b in seconds {
                out.push(Path(vec![a, b]));
            }
        }
        out
    }

    /// The SOP's choice among retreat paths: ends with room for the `stack`, then those nearest a
    /// supply source of the side, then those the side controls; indices of the tied best, sorted by
    /// path.
    fn best_retreats(&self, paths: &[Path], power: &str, stack: usize) -> Vec<usize> {
        let dist = self.supply_distances(power);
        let score = |p: &Path| {
            let end = *p.0.last().expect("a path");
            let id = self.space_id(end);
            let overstacks = self.units_in(&id).len() + stack > self.tables.stacking;
            let controlled = self
                .controller(&id)
                .is_some_and(|c| self.friendly(c, power));
            (overstacks, dist[end].unwrap_or(u32::MAX), !controlled)
        };
        let best = paths.iter().map(score).min();
        let mut idx: Vec<usize> = (0..paths.len())
            .filter(|&i| Some(score(&paths[i])) == best)
            .collect();
        idx.sort_by_key(|&i| {
            (
                paths[i]
                    .0
                    .iter()
                    .map(|&s| self.space_id(s))
                    .collect::<Vec<_>>(),
                i,
            )
        });
        idx
    }

    /// Step 12 (12.2.12): the attacker advances into the vacated space with his full-strength units,
    /// and with reduced ones if the space was empty of enemy units at the start. The advance is the
    /// attacker's order (`no-advance`), else his standing order or the SOP.
    pub fn advance(&mut self, _n: usize, attack: &Attack, was_empty: bool) -> Result<()> {
        let power = self.active.clone();
        let target = attack.target.clone();
        let explicit = (!attack.advance).then_some("never");
        let d = self.decide(
            PogPoint::Advance,
            &power,
            explicit,
            None,
            |v| matches!(v, "always" | "never").then(|| v == "always"),
            || Ok(true),
        )?;
        if !d.value {
            let text = format!(
                "{} not advance into {target}.",
                self.says(&power, "does", "do")
            );
            self.log(
                Event::new(rules::ADVANCE, "decision", text)
                    .at(&target)
                    .decided(&power, d.by),
            );
            return Ok(());
        }
        let t = self.space_index(&target);
        let mut movers: Vec<String> = attack
            .units
            .iter()
            .filter(|id| {
                self.unit(id).is_some_and(|u| {
                    (!u.is_reduced || was_empty)
                        && self
                            .map
                            .connected_for(self.space_index(u.space()), t, &u.nation)
                        && (!u.bef || super::orders::bef_allowed(self.map, self.tables, &target))
                        && super::theatres::closed_to(
                            self.map,
                            &self.tables.theatres,
                            &self.pog,
                            u,
                            &target,
                        )
                        .is_none()
                })
            })
            .cloned()
            .collect();
        let room = self
            .tables
            .stacking
            .saturating_sub(self.units_in(&target).len());
        if movers.len() > room {
            let left = movers.split_off(room);
            self.event(
                rules::STACKING,
                "advance",
                Some(&target),
                format!(
                    "{} {} behind: {target} has room for {room} more.",
                    list(&left),
                    verb(left.len(), "stays", "stay")
                ),
            );
        }
        if movers.is_empty() {
            return Ok(());
        }
        // 11.1.8: into an intact enemy fort only to besiege it (or if it is besieged already).
        if self.unbesieged_enemy_fort(&target, &power) {
            let fort = self.map.area(t).fort.unwrap_or(0);
            if !can_besiege(movers.iter().filter_map(|id| self.unit(id)), fort) {
                self.event(
                    rules::FORT_ENTRY,
                    "advance",
                    Some(&target),
                    format!(
                        "{} cannot besiege the fort of {target}: no advance.",
                        list(&movers)
                    ),
                );
                return Ok(());
            }
        }
        for id in &movers {
            self.place(id, &target);
        }
        self.enter_trench(&target, &power);
        let text = format!(
            "{} {} into {target}.",
            list(&movers),
            verb(movers.len(), "advances", "advance")
        );
        self.log(
            Event::new(rules::ADVANCE, "advance", text)
                .at(&target)
                .decided(&power, d.by),
        );
        if self.intact_enemy_fort(&target, &power) {
            if self.pog.fort_status(&target) == Some(super::state::FortStatus::Besieged) {
                return Ok(());
            }
            self.pog
                .fort
                .insert(target.clone(), super::state::FortStatus::Besieged);
            self.event(
                rules::FORT_ENTRY,
                "siege",
                Some(&target),
                format!(
                    "{} the fort of {target}.",
                    self.says(&power, "besieges", "besiege")
                ),
            );
        } else if self.take_control(&target, &power, &movers) {
            self.event(
                rules::CONTROL,
                "control",
                Some(&target),
                format!(
                    "{} control of {target}, where its advance ends.",
                    self.says(&power, "takes", "take")
                ),
            );
        }
        Ok(())
    }
}
