//! pbem's combat results for NGG (the seed's rule 11 is not in it): the attacking units and the
//! supporting stacks that passed their tests against the defending stack and the defender's
//! supporting stacks that passed theirs; the odds of the strengths give a column of tables.toml's
//! combat table, a d6 its result. Losses come off the strongest unit; a unit at 0 SP is eliminated.

use anyhow::Result;

use crate::decide::DecidedBy;
use crate::engine::event::Event;
use crate::rules::wording::verb;

use super::labels;
use super::orders::AttackOrder;
use super::phase::Phase;
use super::rules;
use super::tables::Outcome;

impl Phase<'_> {
    /// Resolves the combat of attack `n` and applies its result.
    pub fn resolve_combat(
        &mut self,
        n: u32,
        power: &str,
        a: &AttackOrder,
        units: &[String],
        supporters: &[String],
        defenders: &[String],
    ) -> Result<()> {
        let enemy = self.other(power);
        let mut attackers: Vec<String> = units.to_vec();
        for h in supporters {
            attackers.extend(self.stack_ids(h, power));
        }
        let mut defending = self.stack_ids(&a.target, &enemy);
        for h in defenders {
            defending.extend(self.stack_ids(h, &enemy));
        }
        let strength = |ids: &[String]| -> u32 {
            ids.iter()
                .filter_map(|id| self.ngg.unit(id))
                .fold(0u32, |s, u| s.saturating_add(u.sp))
        };
        let (att, def) = (strength(&attackers), strength(&defending));
        let table = &self.tables.combat;
        let column = table.column(att, def);
        let roll = self.dice.roll(&labels::combat(n, &a.target), &[6])?;
        let die = roll.dice[0].face;
        let outcome = table.result(column, die);
        let text = format!(
            "Combat of attack {n} at {}: {att} SP against {def} SP, column {}; the die {}: {}.",
            self.name(&a.target),
            table.columns[column],
            roll.told(0),
            outcome.describe()
        );
        self.log(
            Event::new(rules::RESULTS, "combat", text)
                .at(&a.target)
                .roll(roll),
        );
        let target_stack = self.stack_ids(&a.target, &enemy);
        match outcome {
            Outcome::Nr => {}
            Outcome::Ad => self.disrupt(&attackers, &a.target),
            Outcome::Dd => self.disrupt(&target_stack, &a.target),
            Outcome::Ex => {
                // pbem ngg/combat: each side loses 1 SP; a side with no SP to lose in the combat
                // (a lone commander) loses its commander instead: he is taken.
                for (ids, side) in [(units, power.to_string()), (&target_stack, enemy.clone())] {
                    if !self.lose_one(ids, &a.target) {
                        self.take_commanders(ids, &side, &a.target, "the exchange");
                    }
                }
            }
            Outcome::Dr => {
                // pbem ngg/combat: as in an EX, a defender with no SP to lose (a lone commander)
                // loses its commander instead: he is taken, and no one is left to retreat.
                if !self.lose_one(&target_stack, &a.target) {
                    self.take_commanders(&target_stack, &enemy, &a.target, "the retreat");
                }
                let left = self.stack_ids(&a.target, &enemy);
                self.disrupt(&left, &a.target);
                self.retreat(&enemy, &a.target);
            }
        }
        Ok(())
    }

    fn disrupt(&mut self, ids: &[String], at: &str) {
        let mut hit = Vec::new();
        for id in ids {
            if let Some(u) = self.unit_mut(id) {
                if !u.is_commander() {
                    u.disrupted = true;
                    hit.push(id.clone());
                }
            }
        }
        if !hit.is_empty() {
            let text = format!("{} disrupted.", hit.join(", "));
            self.event(
                rules::RESULTS,
                "disrupt",
                Some(at),
                format!(
                    "{text} {} may not attack again this turn (NGG 10.1).",
                    verb(hit.len(), "It", "They")
                ),
            );
        }
    }

    /// pbem ngg/combat: the commanders of `ids`, a side with no SP to lose in an EX or a DR
    /// (`result` names which: "the exchange", "the retreat"), are taken (eliminated), so that the
    /// side loses as the result says.
    fn take_commanders(&mut self, ids: &[String], side: &str, at: &str, result: &str) {
        let taken: Vec<String> = ids
            .iter()
            .filter(|id| self.ngg.unit(id).is_some_and(|u| u.is_commander()))
            .cloned()
            .collect();
        if taken.is_empty() {
            return;
        }
        self.ngg
            .units
            .retain(|u| !taken.iter().any(|t| t == u.id()));
        self.ngg.eliminated.extend(taken.iter().cloned());
        self.event(
            rules::RESULTS,
            "loss",
            Some(at),
            format!(
                "{side} has no SP to lose in {result}: {}, alone, {} taken and eliminated (pbem ngg/combat).",
                taken.join(", "),
                if taken.len() == 1 { "is" } else { "are" },
                side = self.who(side)
            ),
        );
    }

    /// The strongest unit of `ids` (the first in state order on a tie) loses 1 SP; at 0 it is
    /// eliminated. Whether one lost it (none has an SP to lose: false).
    fn lose_one(&mut self, ids: &[String], at: &str) -> bool {
        let Some(id) = ids
            .iter()
            .filter_map(|id| self.ngg.unit(id))
            .filter(|u| u.sp > 0)
            .fold(None::<(String, u32)>, |best, u| match best {
                Some((_, sp)) if sp >= u.sp => best,
                _ => Some((u.id().to_string(), u.sp)),
            })
            .map(|(id, _)| id)
        else {
            return false;
        };
        let Some(u) = self.unit_mut(&id) else {
            return false;
        };
        u.sp -= 1;
        if u.sp == 0 {
            self.ngg.units.retain(|u| u.id() != id);
            self.ngg.eliminated.push(id.clone());
            self.event(
                rules::RESULTS,
                "loss",
                Some(at),
                format!("{id} loses its last SP and is eliminated."),
            );
        } else {
            let sp = u.sp;
            self.event(
                rules::RESULTS,
                "loss",
                Some(at),
                format!("{id} loses 1 SP ({sp} left)."),
            );
        }
        true
    }

    /// pbem's retreat: `power`'s stack in `from` goes to the adjacent hex free of enemy units that
    /// touches the fewest enemy stacks (the first in map order on a tie); with none, it loses 1 SP
    /// more and stays.
    fn retreat(&mut self, power: &str, from: &str) {
        let ids = self.stack_ids(from, power);
        if ids.is_empty() {
            return;
        }
        let enemy = self.other(power);
        let threat = |h: &str| {
            self.neighbours(h)
                .iter()
                .filter(|n| self.ngg.holder(n) == Some(enemy.as_str()))
                .count()
        };
        let best = self
            .neighbours(from)
            .into_iter()
            .filter(|h| self.ngg.holder(h).is_none_or(|p| p == power))
            .map(|h| (threat(&h), h))
            .min_by(|a, b| a.0.cmp(&b.0));
        match best {
            Some((_, to)) => {
                for id in &ids {
                    if let Some(u) = self.unit_mut(id) {
                        u.hex = toml::Spanned::new(0..0, to.clone());
                    }
                }
                let text = format!(
                    "{} stack ({}) retreats from {} to {}, the free hex next to the fewest enemy stacks.",
                    crate::words::Possessive(&self.who(power)),
                    ids.join(", "),
                    self.name(from),
                    self.name(&to)
                );
                self.log(
                    Event::new(rules::RETREAT, "retreat", text)
                        .at(from)
                        .decided(power, DecidedBy::Sop),
                );
            }
            None => {
                let text = format!(
                    "{} stack in {} has no hex to retreat to: it loses 1 SP more and stays.",
                    crate::words::Possessive(&self.who(power)),
                    self.name(from)
                );
                self.log(
                    Event::new(rules::RETREAT, "retreat", text)
                        .at(from)
                        .decided(power, DecidedBy::Sop),
                );
                self.lose_one(&ids, from);
            }
        }
    }
}
