//! Marching to a battle (EiA 7.5.2.11): eligible corps in adjacent areas and unbesieged corps in the
//! city of the battle's area always try.

use std::collections::BTreeSet;

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Sources};
use crate::engine::event::Event;
use crate::rules::eia::state::CorpsKind;

use super::decisions::{always_never, EiaPoint, REINFORCE};
use super::labels;
use super::phase::Phase;

impl Phase<'_> {
    /// EiA 7.5.2.11: the eligible corps of the side's powers always try to join the battle: those in
    /// adjacent areas not on a battlefield, and those in the city of the battle's area (corps,
    /// cossacks, freikorps and guerrillas alike) that are not besieged. Each rolls a d6 (label
    /// `reinforce/area=../unit=..`, with `/phase=insurrection` in the special insurrection land phase)
    /// of at most the best rating of their power's leaders in the area they march from (or the table's
    /// value without one). A corps is in a city as its garrison from an earlier turn (`in_city` in the
    /// state) or by retiring into it (7.5.1.1) earlier this turn; it is besieged while a power that
    /// besieged it (7.5.4: at the start of the turn or this turn) still stands in the area, and then
    /// does not try; one that arrives leaves the city for the field. A besieged garrison of an
    /// adjacent area is not eligible either, nor a corps that fought a combat of this phase already
    /// (pbem's reading of "eligible": one combat a phase; `Phase::fought`).
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
                        && !self.fought.contains(&i)
                        && (!c.in_city || !self.besieged(c.area, power))
                })
                .collect();
            let garrison: Vec<usize> = self
                .board
                .corps_in(area)
                .into_iter()
                .filter(|&i| {
                    let c = &self.board.corps[i];
                    !c.eliminated && c.in_city && &c.power == power && !self.fought.contains(&i)
                })
                .collect();
            if candidates.is_empty() && garrison.is_empty() {
                continue;
            }
            let sources = Sources {
                explicit: None,
                standing: self
                    .eia
                    .standing_for(&EiaPoint::Reinforce, self.standing.get(power)),
                sop: &self.eia.sop,
                scope: None,
            };
            let d = decide(&EiaPoint::Reinforce, &sources, always_never, || Ok(true))?;
            if !d.value {
                let text = format!(
                    "{} does not try to reinforce at {name}{}.",
                    self.words.who(power),
                    d.by.aside(" (", ")")
                );
                let e = Event::new(REINFORCE, "decision", text).decided(power.clone(), d.by);
                self.push(e, area, involved);
                continue;
            }
            let besieged = self.besieged(area, power);
            for &i in &garrison {
                if besieged {
                    let text = format!(
                        "{} is besieged in the city of {name}: it cannot march out to the battle (EiA 7.5.2.11: only unbesieged corps in the city try).",
                        self.who(i)
                    );
                    self.push(Event::new(REINFORCE, "reinforce", text), area, involved);
                } else {
                    self.try_to_march(i, area, power, d.by, involved)?;
                }
            }
            for i in candidates {
                self.try_to_march(i, area, power, d.by, involved)?;
            }
        }
        Ok(())
    }

    /// Whether a corps of `power` in the city of `area` is besieged: a power that besieged that city
    /// (EiA 7.5.4: when the turn started, or this turn), hostile to `power`, still stands in the area
    /// outside it.
    fn besieged(&self, area: usize, power: &str) -> bool {
        let Some(besiegers) = self.besiegers.get(&area) else {
            return false;
        };
        self.board.corps_in(area).into_iter().any(|i| {
            let c = &self.board.corps[i];
            !c.eliminated
                && !c.in_city
                && besiegers.contains(&c.power)
                && !self.board.friendly(&c.power, power)
        })
    }

    /// EiA 7.5.2.11: corps `i` tries to march to the battle at `area`, from an adjacent area or out of
    /// the area's city: a d6 of at most the best rating of its power's leaders where it stands.
    fn try_to_march(
        &mut self,
        i: usize,
        area: usize,
        power: &str,
        by: DecidedBy,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let name = self.map.area(area).id.clone();
        let from = self.board.corps[i].area;
        let need = self
            .board
            .leaders_in(from)
            .into_iter()
            .map(|l| &self.board.leaders[l])
            .filter(|l| l.power == power)
            .map(|l| l.rating)
            .max()
            .unwrap_or(self.eia.tables.reinforce.no_leader);
        let id = self.board.corps[i].id.clone();
        let roll = self.dice.roll(
            &labels::staged(self.stage, labels::reinforce(&name, &id)),
            &[6],
        )?;
        let face = roll.dice[0].face;
        let told = roll.told(0);
        let ok = face <= need;
        let in_city = self.board.corps[i].in_city;
        if ok {
            self.board.corps[i].area = area;
            self.board.corps[i].in_city = false;
        }
        let whence = if in_city {
            format!("out of the city of {}", self.map.area(from).id)
        } else {
            format!("from {}", self.map.area(from).id)
        };
        let text = format!(
                    "{} tries to march {whence} to the battle at {name}{}: rolls {told}, needs {need} or less: {}.",
                    self.who(i),
                    by.aside(" (", ")"),
                    if ok { "it arrives" } else { "it does not arrive" }
                );
        let e = Event::rolled(REINFORCE, "reinforce", text, roll).decided(power.to_string(), by);
        self.push_seen(e, area, &[area, from], involved);
        Ok(())
    }

    /// A corps as the reinforcement events name it: `R3 (red)`, or `G1 (red guerrillas)` for the
    /// guerrillas EiA 7.5.2.11 names apart.
    fn who(&self, i: usize) -> String {
        let c = &self.board.corps[i];
        match c.kind {
            CorpsKind::Guerrilla => format!("{} ({} guerrillas)", c.id, self.words.who(&c.power)),
            _ => format!("{} ({})", c.id, self.words.who(&c.power)),
        }
    }
}
