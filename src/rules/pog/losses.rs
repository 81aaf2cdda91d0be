//! Step losses (PoG 12.2.9) and overstacking (10.1.3): the owner chooses which units suffer, by his
//! standing order or the SOP.
//!
//! The loss procedure of 12.4 is not in the seed. pbem's reading: a step loss flips a full-strength
//! unit or eliminates a reduced one and counts the LF of the side it leaves; the owner applies the
//! losses required (12.2.9) as fully as his steps allow without exceeding the loss number, and his
//! policy orders the steps among the ways that absorb that most: no order of preference lets him
//! take less than he could.

use anyhow::Result;

use crate::engine::event::Event;

use super::action::{list, Action};
use super::decisions::PogPoint;
use super::rules;
use super::state::Unit;

/// How a power picks its step losses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossPolicy {
    /// The step that costs the least combat strength, then the one that absorbs most.
    Cheapest,
    ArmiesFirst,
    CorpsFirst,
}

impl LossPolicy {
    pub fn parse(s: &str) -> Option<LossPolicy> {
        match s {
            "cheapest" => Some(LossPolicy::Cheapest),
            "armies-first" => Some(LossPolicy::ArmiesFirst),
            "corps-first" => Some(LossPolicy::CorpsFirst),
            _ => None,
        }
    }

    /// The order of preference among steps: lower first.
    fn key(self, u: &Unit) -> (u32, u32, i64, bool) {
        let lost_cf = if u.is_reduced {
            u.reduced.cf
        } else {
            u.full.cf - u.reduced.cf.min(u.full.cf)
        };
        let kind = match self {
            LossPolicy::Cheapest => 0,
            LossPolicy::ArmiesFirst => u32::from(!u.is_army()),
            LossPolicy::CorpsFirst => u32::from(u.is_army()),
        };
        (kind, lost_cf, -(u.lf() as i64), !u.is_reduced)
    }
}

impl Action<'_> {
    /// `power` takes `loss` in step losses among `units` (12.2.9); returns the LF absorbed. Steps are
    /// taken while one fits in what is still owed.
    pub fn take_losses(
        &mut self,
        power: &str,
        units: &[String],
        loss: u32,
        space: &str,
    ) -> Result<u32> {
        if loss == 0 {
            return Ok(0);
        }
        let policy = self.decide(
            PogPoint::Losses,
            power,
            None,
            None,
            LossPolicy::parse,
            || Ok(LossPolicy::Cheapest),
        )?;
        let mut owed = loss;
        let mut steps = Vec::new();
        loop {
            let stack: Vec<&Unit> = units.iter().filter_map(|id| self.unit(id)).collect();
            // 12.2.9: the most the steps left can absorb of what is owed; a step is taken only if
            // the rest can still absorb all of that.
            let most = most_absorbed(
                &stack.iter().map(|u| step_costs(u)).collect::<Vec<_>>(),
                owed,
            );
            if most == 0 {
                break;
            }
            let mut candidates: Vec<usize> = (0..stack.len())
                .filter(|&i| stack[i].lf() > 0 && stack[i].lf() <= owed)
                .collect();
            candidates.sort_by_key(|&i| (policy.value.key(stack[i]), stack[i].id().to_string()));
            let keeps_most = |i: usize| {
                let lf = stack[i].lf();
                let rest: Vec<Vec<u32>> = (0..stack.len())
                    .map(|j| {
                        let costs = step_costs(stack[j]);
                        if j == i {
                            // The step taken: what is left of this unit is its next step, if any.
                            costs.iter().skip(1).map(|c| c - lf).collect()
                        } else {
                            costs
                        }
                    })
                    .collect();
                lf + most_absorbed(&rest, owed - lf) == most
            };
            let Some(i) = candidates.into_iter().find(|&i| keeps_most(i)) else {
                break;
            };
            let id = stack[i].id().to_string();
            owed -= stack[i].lf();
            steps.push(self.step_loss(&id));
        }
        let absorbed = loss - owed;
        let text = if steps.is_empty() {
            format!(
                "{} a loss of {loss} in {space}: no step fits.",
                self.says(power, "takes", "take")
            )
        } else if owed > 0 {
            format!(
                "{} a loss of {loss} in {space}: {} ({owed} not taken: no step fits).",
                self.says(power, "takes", "take"),
                steps.join(", ")
            )
        } else {
            format!(
                "{} a loss of {loss} in {space}: {}.",
                self.says(power, "takes", "take"),
                steps.join(", ")
            )
        };
        self.log(
            Event::new(rules::LOSSES, "losses", text)
                .at(space)
                .decided(power, policy.by),
        );
        Ok(absorbed)
    }

    /// One step loss: full to reduced, reduced to eliminated. Returns what happened, for the log.
    pub fn step_loss(&mut self, id: &str) -> String {
        let Some(u) = self.pog.unit_mut(id) else {
            return String::new();
        };
        if u.is_reduced {
            let id = u.id().to_string();
            self.eliminate(&id);
            format!("{id} eliminated")
        } else {
            u.is_reduced = true;
            format!("{} reduced", u.id())
        }
    }

    /// 10.1.3: in every space over the stacking limit, the owner eliminates units until it fits.
    pub fn check_stacking(&mut self) -> Result<()> {
        let limit = self.tables.stacking;
        let spaces: Vec<String> = self.map.ids().map(str::to_string).collect();
        for s in spaces {
            let ids = self.units_in(&s);
            if ids.len() <= limit {
                continue;
            }
            let power = self
                .unit(&ids[0])
                .map(|u| u.power().to_string())
                .unwrap_or_default();
            let d = self.decide(
                PogPoint::Overstack,
                &power,
                None,
                None,
                |v| matches!(v, "weakest" | "reduced-first").then(|| v.to_string()),
                || Ok("weakest".to_string()),
            )?;
            let mut units: Vec<&Unit> = ids.iter().filter_map(|i| self.unit(i)).collect();
            units.sort_by_key(|u| {
                let first = if d.value == "reduced-first" {
                    u32::from(!u.is_reduced)
                } else {
                    0
                };
                (first, u.cf(), u.lf(), u.id().to_string())
            });
            let gone: Vec<String> = units[..ids.len() - limit]
                .iter()
                .map(|u| u.id().to_string())
                .collect();
            for g in &gone {
                self.eliminate(g);
            }
            let text = format!(
                "{s} holds {} units, {} more than {limit}: {} {}.",
                ids.len(),
                ids.len() - limit,
                self.says(&power, "eliminates", "eliminate"),
                list(&gone)
            );
            self.log(
                Event::new(rules::OVERSTACK, "overstack", text)
                    .at(&s)
                    .decided(&power, d.by),
            );
        }
        Ok(())
    }
}

/// The loss factors a unit can still absorb, step by step: the totals of its first step and of its
/// first two (a full-strength unit flips, then is eliminated); a step of LF 0 absorbs nothing and
/// ends the list.
fn step_costs(u: &Unit) -> Vec<u32> {
    let sides = if u.is_reduced {
        vec![u.reduced.lf]
    } else {
        vec![u.full.lf, u.reduced.lf]
    };
    let mut out = Vec::new();
    let mut total = 0u32;
    for lf in sides {
        if lf == 0 {
            break;
        }
        total = total.saturating_add(lf);
        out.push(total);
    }
    out
}

/// The most that units with these step totals ([`step_costs`]) can absorb without exceeding
/// `owed`: each unit takes none, its first, or its first two steps.
fn most_absorbed(units: &[Vec<u32>], owed: u32) -> u32 {
    let mut reachable = std::collections::BTreeSet::from([0u32]);
    for costs in units {
        let next: Vec<u32> = reachable
            .iter()
            .flat_map(|&r| costs.iter().map(move |&c| r.saturating_add(c)))
            .filter(|&t| t <= owed)
            .collect();
        reachable.extend(next);
    }
    reachable.last().copied().unwrap_or(0)
}
