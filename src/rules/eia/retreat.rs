//! After a combat: the victor's pursuit (EiA 7.5.2.10.2) and the loser's retreat (7.5.2.10.3).

use std::collections::BTreeSet;

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Sources};
use crate::engine::event::Event;
use crate::rules::wording::verb;

use super::battle::{factors, Side};
use super::decisions::{always_never, EiaPoint, PURSUIT, RETREAT};
use super::labels;
use super::phase::Phase;
use super::visibility::watchers;

impl Phase<'_> {
    /// EiA 7.5.2.10.2: the victor pursues (SOP: always): a d6 modified by the cavalry advantage gives
    /// the loser's extra losses.
    pub(super) fn pursue(
        &mut self,
        area: usize,
        winner: &Side,
        loser: &Side,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let name = self.map.area(area).id.clone();
        if self.factors(loser, area) == 0 {
            return Ok(());
        }
        let sources = Sources {
            explicit: None,
            standing: self
                .eia
                .standing_for(&EiaPoint::Pursue, self.standing.get(&winner.lead)),
            sop: &self.eia.sop,
            scope: None,
        };
        let d = decide(&EiaPoint::Pursue, &sources, always_never, || Ok(true))?;
        if !d.value {
            let text = format!(
                "{} does not pursue at {name}{}.",
                self.words.who(&winner.lead),
                d.by.aside(" (", ")")
            );
            let e = Event::new(PURSUIT, "pursuit", text).decided(winner.lead.clone(), d.by);
            self.push(e, area, involved);
            return Ok(());
        }
        let mounted = |s: &Side, me: &Self| -> i32 {
            me.side_corps(s, area)
                .iter()
                .map(|&i| &me.board.corps[i])
                .filter(|c| c.kind.is_mounted())
                .map(|c| c.factors as i32)
                .sum()
        };
        let t = &self.eia.tables.pursuit;
        let drm = ((mounted(winner, self) - mounted(loser, self)) / t.cavalry_per_drm as i32)
            .clamp(-t.max_drm, t.max_drm);
        let roll = self
            .dice
            .roll(&labels::staged(self.stage, labels::pursuit(&name)), &[6])?;
        let face = roll.dice[0].face as i32;
        let told = roll.told(0);
        let row = (face + drm).clamp(1, t.losses.len() as i32) as usize - 1;
        let extra = t.losses[row];
        let lost = self.take_losses(loser, area, extra);
        let text = format!(
            "{} pursues at {name}{}: rolls {told}, cavalry modifier {drm:+}: {} {} {} more.",
            self.words.who(&winner.lead),
            d.by.aside(" (", ")"),
            self.words.all(&loser.powers),
            self.words.agree(loser.powers.len(), "loses", "lose"),
            factors(lost)
        );
        let e = Event::rolled(PURSUIT, "pursuit", text, roll).decided(winner.lead.clone(), d.by);
        self.push(e, area, involved);
        Ok(())
    }

    /// EiA 7.5.2.10.3: each losing power's corps and leaders in the area retreat to an adjacent land
    /// area free of enemy corps, the one nearest a depot or capital of their own; a roll among
    /// equally near ones. With nowhere to go, the corps surrender. The corps are the losing side's:
    /// those in the field after a field battle (its held-back guard and outflankers among them),
    /// never a garrison of its power in the city that stayed out of it, which holds its city still
    /// (7.5.4); the garrison itself after a siege.
    pub(super) fn retreat(
        &mut self,
        area: usize,
        loser: &Side,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let sides = self.side_corps(loser, area);
        for power in &loser.powers {
            let corps: Vec<usize> = sides
                .iter()
                .copied()
                .filter(|&i| &self.board.corps[i].power == power)
                .collect();
            let leaders: Vec<usize> = self
                .board
                .leaders_in(area)
                .into_iter()
                .filter(|&l| &self.board.leaders[l].power == power)
                .collect();
            if corps.is_empty() && leaders.is_empty() {
                continue;
            }
            let label = labels::staged(self.stage, labels::retreat(&self.map.area(area).id, power));
            self.retreat_group(area, power, &corps, &leaders, involved, &label, RETREAT)?;
        }
        Ok(())
    }

    /// Moves `corps` and `leaders` of `power` out of `area` by the retreat rule of EiA 7.5.2.10.3,
    /// rolling under `label` among equally near areas; `rule` is cited in the event.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn retreat_group(
        &mut self,
        area: usize,
        power: &str,
        corps: &[usize],
        leaders: &[usize],
        involved: &BTreeSet<String>,
        label: &str,
        rule: crate::rule::Rule,
    ) -> Result<Option<usize>> {
        let name = self.map.area(area).id.clone();
        let candidates: Vec<usize> = self
            .map
            .area(area)
            .adjacent
            .iter()
            .copied()
            .filter(|&n| self.map.area(n).is_land())
            .filter(|&n| !self.board.enemies_in(n, power))
            .collect();
        let depots = self.depots.get(power).map_or(&[][..], Vec::as_slice);
        let dist = self.board.nearest(self.map, depots, &candidates);
        let best = dist.iter().copied().min();
        let mut tied: Vec<usize> = candidates
            .iter()
            .zip(&dist)
            .filter(|&(_, &d)| Some(d) == best)
            .map(|(&n, _)| n)
            .collect();
        tied.sort_by(|a, b| {
            self.map
                .area(*a)
                .id
                .as_bytes()
                .cmp(self.map.area(*b).id.as_bytes())
        });
        if tied.is_empty() {
            for &i in corps {
                self.board.corps[i].eliminated = true;
            }
            let ids: Vec<&str> = corps
                .iter()
                .map(|&i| self.board.corps[i].id.as_str())
                .collect();
            let text = format!(
                "{} cannot retreat from {name}: every adjacent area holds enemy corps; {} {}.",
                self.words.who(power),
                ids.join(", "),
                verb(ids.len(), "surrenders", "surrender")
            );
            let e = Event::new(rule, "retreat", text).decided(power.to_string(), DecidedBy::Sop);
            self.push(e, area, involved);
            return Ok(None);
        }
        let (to, roll) = if tied.len() == 1 {
            (tied[0], None)
        } else {
            let roll = self.dice.roll(label, &[tied.len() as u32])?;
            (tied[roll.dice[0].face as usize - 1], Some(roll))
        };
        for &i in corps {
            self.board.corps[i].area = to;
            self.board.corps[i].in_city = false;
        }
        for &l in leaders {
            self.board.leaders[l].area = to;
        }
        let units: Vec<&str> = corps
            .iter()
            .map(|&i| self.board.corps[i].id.as_str())
            .chain(leaders.iter().map(|&l| self.board.leaders[l].id.as_str()))
            .collect();
        let why = match (&roll, best) {
            (Some(_), _) => {
                let names: Vec<&str> = tied.iter().map(|&n| self.map.area(n).id.as_str()).collect();
                format!(
                    "{} are equally near a depot or capital, the die chooses",
                    names.join(" and ")
                )
            }
            (None, Some(u32::MAX)) | (None, None) => "the only area open to it".to_string(),
            (None, Some(d)) => format!(
                "nearest a depot or capital, {} away",
                self.words.count(d, "area", "areas")
            ),
        };
        let text = format!(
            "{} retreats from {name} to {} ({why}): {}.",
            // A retreat the die chose names the power by its id, as the die's label does
            // (`retreat/../power=..`, `evade/../power=..`, bound to this text: verify.html checks
            // it so); else as the texts name it.
            if roll.is_some() {
                power
            } else {
                self.words.who(power)
            },
            self.map.area(to).id,
            units.join(", ")
        );
        let e = Event::new(rule, "retreat", text)
            .decided(
                power.to_string(),
                if roll.is_some() {
                    DecidedBy::Roll
                } else {
                    DecidedBy::Sop
                },
            )
            .maybe_roll(roll);
        let mut also = involved.clone();
        also.extend(watchers(self.map, &self.board.positions(), to));
        self.push(e, area, &also);
        Ok(Some(to))
    }
}
