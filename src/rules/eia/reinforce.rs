//! Marching to a battle (EiA 7.5.2.11): eligible corps in adjacent areas always try.

use std::collections::BTreeSet;

use anyhow::Result;

use crate::decide::{decide, Sources};
use crate::engine::event::Event;

use super::decisions::{always_never, EiaPoint, REINFORCE};
use super::labels;
use super::phase::Phase;
use super::visibility::watchers;

impl Phase<'_> {
    /// EiA 7.5.2.11: corps of the side's powers in adjacent areas, not on a battlefield, try to march to
    /// the battle: a d6 of at most the best rating of their power's leaders with them (or the table's
    /// value without one) succeeds. Not covered: the SOP's "unbesieged corps, cossacks, freikorps and
    /// guerrillas in a city in the same area". pbem's position has no garrisons at the start of a turn
    /// (a corps is in a city only by retiring into it, 7.5.1.1, and is then besieged) and no guerrilla
    /// units, so no such force can exist yet.
    pub(super) fn reinforce(
        &mut self,
        area: usize,
        powers: &BTreeSet<String>,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let name = self.map.area(area).id.clone();
        for power in powers {
            let candidates: Vec<usize> = self
                .board
                .corps_adjacent_to(self.map, area)
                .into_iter()
                .filter(|&i| {
                    let c = &self.board.corps[i];
                    !c.eliminated
                        && &c.power == power
                        && self.map.adjacent(c.area, area)
                        && !self.battlefields.contains(&c.area)
                        && !self.evaded.contains(&i)
                })
                .collect();
            if candidates.is_empty() {
                continue;
            }
            let sources = Sources {
                explicit: None,
                standing: self.standing.get(power),
                sop: &self.eia.sop,
                scope: None,
            };
            let d = decide(&EiaPoint::Reinforce, &sources, always_never, || Ok(true))?;
            if !d.value {
                let text = format!(
                    "{power} does not try to reinforce at {name} ({}).",
                    d.by.describe_theirs()
                );
                let e = Event::new(REINFORCE, "decision", text).decided(power.clone(), d.by);
                self.push(e, area, involved);
                continue;
            }
            for i in candidates {
                let from = self.board.corps[i].area;
                let need = self
                    .board
                    .leaders
                    .iter()
                    .filter(|l| l.area == from && &l.power == power)
                    .map(|l| l.rating)
                    .max()
                    .unwrap_or(self.eia.tables.reinforce.no_leader);
                let id = self.board.corps[i].id.clone();
                let roll = self.dice.roll(
                    &labels::staged(self.stage, labels::reinforce(&name, &id)),
                    &[6],
                )?;
                let face = roll.dice[0].face;
                let ok = face <= need;
                if ok {
                    self.board.corps[i].area = area;
                }
                let text = format!(
                    "{id} ({power}) tries to march from {} to the battle at {name} ({}): rolls {face}, needs {need} or less: {}.",
                    self.map.area(from).id,
                    d.by.describe_theirs(),
                    if ok { "it arrives" } else { "it does not arrive" }
                );
                let e = Event::new(REINFORCE, "reinforce", text)
                    .roll(roll)
                    .decided(power.clone(), d.by);
                let mut also = involved.clone();
                also.extend(watchers(self.map, &self.board.positions(), from));
                self.push(e, area, &also);
            }
        }
        Ok(())
    }
}
