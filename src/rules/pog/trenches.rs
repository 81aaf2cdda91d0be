//! Trenches (PoG 11.2): entrenching after movement (11.2.2), and attrition of trenches (11.2.7).
//! Entry by the enemy (11.2.5, 11.2.6) is `Action::enter_trench`; the level that shelters a
//! defender, level 0 included (11.2.10 to 11.2.12), is `Action::trench_level`.

use anyhow::Result;

use super::action::Action;
use super::labels;
use super::rules;
use super::state::Trench;

impl Action<'_> {
    /// The unit `unit` tries to entrench in its space (11.2.2.1 before the power's Entrench event,
    /// 11.2.2.2 after it).
    pub fn entrench(&mut self, unit: &str) -> Result<()> {
        let Some(u) = self.unit(unit) else {
            return Ok(());
        };
        let (id, power, space, lf) = (
            u.id().to_string(),
            u.power().to_string(),
            u.space().to_string(),
            u.lf(),
        );
        let level = self
            .pog
            .trench
            .get(&space)
            .filter(|t| t.power == power)
            .map_or(0, |t| t.level);
        let event_played = self.pog.entrench_played.contains(&power);
        let set = |a: &mut Action<'_>, level: u32| {
            a.pog.trench.insert(
                space.clone(),
                Trench {
                    level,
                    power: power.clone(),
                },
            );
        };
        if event_played && level == 0 {
            set(self, 1);
            self.event(
                rules::ENTRENCH_EVENT,
                "entrench",
                Some(&space),
                format!(
                    "{id} entrenches {space} at level 1 at once ({} played Entrench).",
                    self.says(&power, "has", "have")
                ),
            );
            return Ok(());
        }
        let (rule, to) = if event_played {
            (rules::ENTRENCH_EVENT, 2)
        } else {
            (rules::ENTRENCH_ROLL, 1)
        };
        if level >= to {
            return Ok(());
        }
        let roll = self.dice.roll(&labels::entrench(&space), &[6])?;
        let die = roll.dice[0].face;
        let text = if die <= lf {
            set(self, to);
            format!(
                "{id} entrenches {space}: a {}, at most its LF {lf}: level {to} trench.",
                roll.told(0)
            )
        } else {
            format!(
                "{id} fails to entrench {space}: a {}, above its LF {lf}.",
                roll.told(0)
            )
        };
        let mut e = crate::engine::event::Event::new(rule, "entrench", text).at(&space);
        e = e.roll(roll);
        self.log(e);
        Ok(())
    }

    /// What entrenching `unit` would do, before the die (`pbem check --forecast`).
    pub fn entrench_chance(&self, unit: &str) -> String {
        let Some(u) = self.unit(unit) else {
            return String::new();
        };
        let (id, power, space, lf) = (u.id(), u.power(), u.space(), u.lf());
        let level = self
            .pog
            .trench
            .get(space)
            .filter(|t| t.power == power)
            .map_or(0, |t| t.level);
        let event_played = self.pog.entrench_played.iter().any(|p| p == power);
        if event_played && level == 0 {
            return format!("{id} entrenches {space} at level 1 at once (PoG 11.2.2.2).");
        }
        let to = if event_played { 2 } else { 1 };
        let chance = lf.min(6);
        format!(
            "{id} tries to entrench {space} to level {to}: a die of {lf} or less, {chance} in 6 (PoG 11.2.2)."
        )
    }

    /// 11.2.7: attrition in `space` lowers its trench by one level, except in an intact fort. A
    /// besieged fort is intact (not destroyed), as 11.1.4 and 11.1.8 count it.
    pub fn trench_attrition(&mut self, space: &str) {
        let Some(t) = self.pog.trench.get(space).cloned() else {
            return;
        };
        let fort = self.map.area(self.space_index(space)).fort.is_some()
            && self.pog.fort_status(space) != Some(super::state::FortStatus::Destroyed);
        if fort {
            self.event(
                rules::TRENCH_ATTRITION,
                "trench",
                Some(space),
                format!("The trench in {space} stands: an intact fort shelters it from attrition."),
            );
            return;
        }
        if t.level >= 2 {
            self.pog
                .trench
                .insert(space.to_string(), Trench { level: 1, ..t });
            self.event(
                rules::TRENCH_ATTRITION,
                "trench",
                Some(space),
                format!("Attrition in {space}: its level 2 trench falls to level 1."),
            );
        } else {
            self.pog.trench.remove(space);
            self.event(
                rules::TRENCH_ATTRITION,
                "trench",
                Some(space),
                format!("Attrition in {space}: its level 1 trench is removed."),
            );
        }
    }
}
