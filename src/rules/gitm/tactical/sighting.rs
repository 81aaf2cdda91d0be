//! Sighting on the tactical map (GITM 4.2): a side sees its own and its allies' brigades, and, from each
//! of its brigades, the nearest enemy brigade (all of them, when several are equally near) in each of
//! the eight directions. Headquarters sight nothing and hide nothing (4.2, 9.2).
//!
//! pbem's reading of "direction": the enemy at `(dx, dy)` lies in the direction of the nearest of the
//! eight compass angles (on a boundary, the first clockwise from north); "nearest" is in tactical
//! squares (king's moves).

use std::collections::{BTreeMap, BTreeSet};

use super::event::TacEvent;
use super::field::Field;
use super::map::{Dir, Pos};
use super::unit::Relation;

/// The direction `(dx, dy)` lies in (dy grows southwards): the nearest of the eight angles. In
/// whole numbers: a bearing is along an axis when its smaller leg is under 0.414 (tan 22.5 degrees,
/// irrational, so no square of a map lies on a boundary) of its larger; else diagonal.
pub fn direction(dx: i32, dy: i32) -> Option<Dir> {
    let (ax, ay) = (dx.abs(), dy.abs());
    let (lo, hi) = (ax.min(ay), ax.max(ay));
    if hi == 0 {
        None
    } else if lo * 1000 < hi * 414 {
        if ax > ay {
            Dir::of(dx, 0)
        } else {
            Dir::of(0, dy)
        }
    } else {
        Dir::of(dx, dy)
    }
}

impl Field<'_> {
    /// GITM 4.2: the enemy brigades each side sees on this map, with where each is, by side.
    pub fn sightings(&self) -> BTreeMap<String, BTreeSet<(String, Pos)>> {
        let mut out: BTreeMap<String, BTreeSet<(String, Pos)>> = BTreeMap::new();
        for i in self.active() {
            let eye = &self.brigades[i];
            if eye.kind.is_hq() {
                continue;
            }
            let seen = out.entry(eye.side.clone()).or_default();
            // Nearest distance in each direction: of combat brigades, or of headquarters where
            // there is none (a headquarters hides nothing behind it); then every other at it.
            let others: Vec<usize> = self
                .active()
                .filter(|&j| self.relation(i, j) != Relation::Friendly)
                .collect();
            let dir_of = |j: usize| {
                let (dx, dy) = eye.pos.delta(self.brigades[j].pos);
                direction(dx, dy)
            };
            let mut nearest: BTreeMap<(Dir, bool), u32> = BTreeMap::new();
            for &j in &others {
                if let Some(dir) = dir_of(j) {
                    let d = eye.pos.distance(self.brigades[j].pos);
                    let n = nearest
                        .entry((dir, self.brigades[j].kind.is_hq()))
                        .or_insert(d);
                    *n = (*n).min(d);
                }
            }
            for &j in &others {
                let e = &self.brigades[j];
                let d = eye.pos.distance(e.pos);
                let visible = match dir_of(j) {
                    // In the brigade's own square.
                    None => true,
                    Some(dir) => match (nearest.get(&(dir, false)), e.kind.is_hq()) {
                        (Some(&n), _) => d <= n,
                        (None, true) => nearest.get(&(dir, true)).is_some_and(|&n| d <= n),
                        (None, false) => false,
                    },
                };
                if visible {
                    seen.insert((e.id.clone(), e.pos));
                }
            }
        }
        out
    }

    /// GITM 4.2: one event per side with brigades here, told to that side alone: the enemy and
    /// neutral brigades its brigades see.
    pub(super) fn sighting_events(&mut self) {
        for (side, seen) in self.sightings() {
            if seen.is_empty() {
                continue;
            }
            let list: Vec<String> = seen.iter().map(|(id, p)| format!("{id} at {p}")).collect();
            self.events.push(
                TacEvent::new(
                    "GITM 4.2",
                    format!(
                        "on the tactical map of {}, the brigades of {side} see the nearest others in each of eight directions: {}",
                        self.map.square,
                        list.join(", ")
                    ),
                )
                .side_only(&side),
            );
        }
    }
}
