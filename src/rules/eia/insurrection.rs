//! Austrian insurrection corps (EiA 10.1.4.1, 10.1.4.1.4), by standing order instead of an interrupt:
//! at the end of the land movement step, for each border province of a power that an enemy corps
//! entered, one of that power's waiting insurrection corps is raised in it (standing order
//! `insurrection always`, the SOP, or `never`); in the special insurrection land phase that follows,
//! the corps just raised attack the enemy there.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::decide::{decide, Sources};
use crate::engine::event::Event;
use crate::game::state::{CorpsKind, State};

use super::board::Corps;
use super::decisions::{always_never, EiaPoint, INSURRECTION, INSURRECTION_PHASE};
use super::orders::EiaOrder;
use super::phase::Phase;

impl Phase<'_> {
    /// Raises insurrection corps where enemies entered border provinces; returns the corps raised (by
    /// id, for the next state) and adds their attacks to `orders`.
    pub(super) fn insurrection(
        &mut self,
        state: &State,
        orders: &mut BTreeMap<String, Vec<EiaOrder>>,
    ) -> Result<Vec<String>> {
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
                let text = format!(
                    "In the special insurrection land phase, {} attacks the enemy in {name}.",
                    levy.id
                );
                self.push(
                    Event::new(INSURRECTION_PHASE, "insurrection", text),
                    area,
                    &involved,
                );
                let attacks = orders.entry(power.to_string()).or_default();
                if !attacks
                    .iter()
                    .any(|o| matches!(o, EiaOrder::Attack { area: a } if *a == name))
                {
                    attacks.push(EiaOrder::Attack { area: name });
                }
            }
        }
        Ok(raised)
    }
}
