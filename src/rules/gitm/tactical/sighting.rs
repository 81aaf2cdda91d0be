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

/// GITM 4.2 over plain positions: whether a brigade at `eye` (not a headquarters) sights a brigade
/// not its friend at `target`: in its own square, or no farther than the nearest brigade not its
/// friend in the target's direction, `others` being every such brigade on the map (where each is,
/// and whether a headquarters, which hides nothing where a combat brigade stands in that direction).
/// The tactical map's sight (`Field::sights`) and the strategic map's arrivals and departures (4.5,
/// `turn.rs`) both ask it.
pub fn sees(
    eye: Pos,
    target: Pos,
    target_hq: bool,
    others: impl IntoIterator<Item = (Pos, bool)>,
) -> bool {
    let dir_of = |p: Pos| {
        let (dx, dy) = eye.delta(p);
        direction(dx, dy)
    };
    let Some(dir) = dir_of(target) else {
        return true;
    };
    let (mut combat, mut hq) = (None::<u32>, None::<u32>);
    for (pos, is_hq) in others {
        if dir_of(pos) != Some(dir) {
            continue;
        }
        let d = eye.distance(pos);
        let n = if is_hq { &mut hq } else { &mut combat };
        *n = Some(n.map_or(d, |n| n.min(d)));
    }
    let d = eye.distance(target);
    match (combat, target_hq) {
        (Some(n), _) => d <= n,
        (None, true) => hq.is_some_and(|n| d <= n),
        (None, false) => false,
    }
}

impl Field<'_> {
    /// GITM 4.2: whether brigade `i` sights brigade `j`, not its friend: `j` stands in its square,
    /// or no farther than the nearest brigade not its friend in `j`'s direction (headquarters count
    /// for that only in a direction holding no combat brigade: they hide nothing). Headquarters and
    /// shattered brigades sight nothing; a shattered one is not seen.
    pub fn sights(&self, i: usize, j: usize) -> bool {
        let (eye, target) = (&self.brigades[i], &self.brigades[j]);
        if eye.kind.is_hq()
            || eye.shattered
            || target.shattered
            || self.relation(i, j) == Relation::Friendly
        {
            return false;
        }
        let others = self
            .active()
            .filter(|&k| self.relation(i, k) != Relation::Friendly)
            .map(|k| (self.brigades[k].pos, self.brigades[k].kind.is_hq()));
        sees(eye.pos, target.pos, target.kind.is_hq(), others)
    }

    /// GITM 4.2, 4.6: the sides whose brigades on this map sight brigade `j` now (each side's
    /// allies see what it sees: the turn tells them).
    pub fn seen_by(&self, j: usize) -> BTreeSet<String> {
        self.active()
            .filter(|&i| self.sights(i, j))
            .map(|i| self.brigades[i].side.clone())
            .collect()
    }

    /// GITM 4.2: the enemy brigades each side sees on this map, with where each is, by side.
    pub fn sightings(&self) -> BTreeMap<String, BTreeSet<(String, Pos)>> {
        let mut out: BTreeMap<String, BTreeSet<(String, Pos)>> = BTreeMap::new();
        for i in self.active() {
            let eye = &self.brigades[i];
            if eye.kind.is_hq() {
                continue;
            }
            let seen = out.entry(eye.side.clone()).or_default();
            for j in self.active() {
                if self.sights(i, j) {
                    let e = &self.brigades[j];
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
            let ids: Vec<&str> = seen.iter().map(|(id, _)| id.as_str()).collect();
            self.tell(
                TacEvent::new(
                    "GITM 4.2",
                    format!(
                        "on the tactical map of {}, the brigades of {side} see the nearest others in each of eight directions: {}",
                        self.map.square,
                        list.join(", ")
                    ),
                )
                .units(ids)
                .side_only(&side),
            );
        }
    }
}
