//! City capture (GITM 3.7): at the end of a campaign turn a city (a square map.toml's `[places]`
//! names, as 1.4 reads a city) whose holder (`[control]`) has no active combat unit there, nor have
//! the holder's allies, passes to a state at war with the holder whose active combat units stand in
//! it. The seed says units that capture a city, or are near it, gain morale, and units near a city
//! captured lose it, and gives no figures nor what a capture is: both are pbem's
//! (`rules::PBEM_CAPTURE`): the capturers +5, their side's units in the squares next to it +2, the
//! units of the holder's side in it or next to it -5 (0 to 100).

use std::collections::BTreeMap;

use crate::game::map::grid::Square;
use crate::game::map::Topology;

use super::movement::distance;
use super::rules;
use super::turn::{Audience, Turn};

/// pbem's morale for a capture (GITM 3.7): the capturers, their side near it, the losers near it.
pub const CAPTURE_MORALE: (u32, u32, u32) = (5, 2, 5);

impl Turn<'_> {
    /// GITM 3.7 with pbem's figures: the cities captured this turn change hands (`[control]`), and
    /// the morale of the units in and next to them moves; returns the units whose morale it moved.
    pub fn captures(&mut self) -> Vec<String> {
        let mut moved = Vec::new();
        // The cities where active combat units stand, with the powers standing there.
        let mut cities: BTreeMap<Square, Vec<usize>> = BTreeMap::new();
        for (i, b) in self.g.brigades.iter().enumerate() {
            if b.inactive || b.shattered || b.kind().is_hq() {
                continue;
            }
            if let Some(s) = self.spot_of(i).filter(|s| self.map.is_named(s.square)) {
                cities.entry(s.square).or_default().push(i);
            }
        }
        for (sq, here) in cities {
            let name = self.map.place_name(sq);
            let holder = self.state.control.get(&name).cloned();
            if let Some(h) = &holder {
                if here
                    .iter()
                    .any(|&i| self.state.friendly(h, self.g.brigades[i].power()))
                {
                    continue;
                }
            }
            // The capturer: the power with the most combat units there at war with the holder (an
            // uncontrolled city: any), the first in name order at a tie.
            let mut count: BTreeMap<String, usize> = BTreeMap::new();
            for &i in &here {
                let p = self.g.brigades[i].power();
                if holder.as_deref().is_none_or(|h| self.hostile(h, p)) {
                    *count.entry(p.to_string()).or_default() += 1;
                }
            }
            let Some(taker) = count
                .iter()
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
                .map(|(p, _)| p.clone())
            else {
                continue;
            };
            self.state.control.insert(name.clone(), taker.clone());
            let (gain, near_gain, loss) = CAPTURE_MORALE;
            let mut gained = Vec::new();
            let mut lost = Vec::new();
            for i in 0..self.g.brigades.len() {
                let Some(s) = self.spot_of(i) else { continue };
                let d = distance(s.square, sq);
                if d > 1 {
                    continue;
                }
                let p = self.g.brigades[i].power().to_string();
                let delta: i64 = if self.state.friendly(&taker, &p) {
                    if d == 0 {
                        gain as i64
                    } else {
                        near_gain as i64
                    }
                } else if holder
                    .as_deref()
                    .is_some_and(|h| self.state.friendly(h, &p))
                {
                    -(loss as i64)
                } else {
                    0
                };
                if delta == 0 {
                    continue;
                }
                let b = &mut self.g.brigades[i];
                b.morale = (b.morale as i64 + delta).clamp(0, 100) as u32;
                moved.push(b.id().to_string());
                if delta > 0 {
                    gained.push(format!("{} +{delta}", b.id()));
                } else {
                    lost.push(format!("{} {delta}", b.id()));
                }
            }
            let from = holder
                .as_deref()
                .map_or(String::new(), |h| format!(" from {h}"));
            let head = format!(
                "{taker} captures {name}{from}: no unit of its holder's side stands there (GITM 3.7; pbem gitm/capture)."
            );
            let lost_words = format!("near the city lost, {}", lost.join(", "));
            // Whole, every brigade's morale: the referee's. Each side is told the morale of its
            // own brigades, never the other's (GITM 4.1, 4.2: no figure of another side).
            let mut whole = format!("{head} Morale: {}", gained.join(", "));
            if !lost.is_empty() {
                whole.push_str(&format!("; {lost_words}"));
            }
            whole.push('.');
            let unseen = "(the other side's is not seen)";
            let takers = format!("{head} Morale: {} {unseen}.", gained.join(", "));
            let holders = if lost.is_empty() {
                format!("{head} {unseen}")
            } else {
                format!("{head} Morale: {lost_words} {unseen}.")
            };
            self.event(
                rules::PBEM_CAPTURE,
                "capture",
                Some(&name),
                whole,
                Audience::Nobody,
            );
            self.event(
                rules::PBEM_CAPTURE,
                "capture",
                Some(&name),
                takers,
                Audience::Side(taker.clone()),
            );
            if let Some(h) = holder {
                self.event(
                    rules::PBEM_CAPTURE,
                    "capture",
                    Some(&name),
                    holders,
                    Audience::Side(h),
                );
            }
        }
        moved
    }
}
