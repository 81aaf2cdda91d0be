//! The geometry of strategic movement on the grid, apart from the turn that applies it: the step
//! between two squares, the entry square on the new tactical map (GITM 7.13), the tactical squares
//! between a unit and the map's edge it leaves by (7.7), the path check of 7.4, and the side of the
//! rivers and ranges a unit stands on (7.8, 7.13), read from the tactical maps' terrain.

use std::collections::BTreeSet;

use crate::game::map::grid::Square;
use crate::game::map::sub_grid::{Spot, SubGrid, SubSquare};
use crate::game::map::{GridMap, Topology};

/// The step from one square to an adjacent one: (east, south), each -1, 0 or 1; `None` when `to` is
/// not one of `from`'s neighbours on the map (GITM 7.4: the move halts there; a diagonal closed by
/// two water squares is no neighbour).
pub fn step(map: &GridMap, from: Square, to: Square) -> Option<(i8, i8)> {
    map.neighbours(from).contains(&to).then(|| {
        (
            (to.col as i32 - from.col as i32) as i8,
            (to.row as i32 - from.row as i32) as i8,
        )
    })
}

/// Where a path halts under GITM 7.4: the squares of `path` followed from `start` as long as each is
/// adjacent to the one before; the first that is not ends the move.
pub fn follow_path(map: &GridMap, start: Square, path: &[Square]) -> Vec<Square> {
    let mut at = start;
    let mut out = Vec::new();
    for &sq in path {
        if step(map, at, sq).is_none() {
            break;
        }
        out.push(sq);
        at = sq;
    }
    out
}

/// The tactical squares a unit moving by `dir` may enter on, in preference order of zone: a unit
/// moving south enters on rows 0 to 3, east on columns 0 to 3, and so on; a diagonal mover on the
/// half of either edge nearer the corner it comes from (GITM 7.13). The middle column or row belongs
/// to both halves (pbem's reading of "half" on a map of odd side).
pub fn entry_zones(dir: (i8, i8), size: u8) -> Vec<SubSquare> {
    let last = size.saturating_sub(1);
    let band = 4.min(size);
    let half = size / 2;
    // The rows (for a vertical mover) or columns (horizontal) of the edge entered by.
    let edge = |d: i8| -> std::ops::RangeInclusive<u8> {
        if d > 0 {
            0..=band - 1
        } else {
            last + 1 - band..=last
        }
    };
    // The half of the other axis nearer the edge come from.
    let near_half = |d: i8| -> std::ops::RangeInclusive<u8> {
        if d > 0 {
            0..=half
        } else {
            half..=last
        }
    };
    let mut out = Vec::new();
    let (dx, dy) = dir;
    if dy != 0 {
        let cols = if dx == 0 { 0..=last } else { near_half(dx) };
        for row in edge(dy) {
            for col in cols.clone() {
                out.push(SubSquare { col, row });
            }
        }
    }
    if dx != 0 {
        let rows = if dy == 0 { 0..=last } else { near_half(dy) };
        for col in edge(dx) {
            for row in rows.clone() {
                let s = SubSquare { col, row };
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// The tactical squares between `s` and the edge a unit moving by `dir` entered from, `s` included:
/// an enemy on them keeps the unit from entering at `s` (GITM 7.13).
pub fn from_edge(s: SubSquare, dir: (i8, i8), size: u8) -> Vec<SubSquare> {
    toward_edge(s, (-dir.0, -dir.1), size)
}

/// The tactical squares from `s` (included) to the map's edge in direction `dir`: the path a unit
/// leaving by `dir` needs free of enemies (GITM 7.7).
pub fn toward_edge(s: SubSquare, dir: (i8, i8), size: u8) -> Vec<SubSquare> {
    let mut out = vec![s];
    let (mut c, mut r) = (s.col as i32, s.row as i32);
    loop {
        c += dir.0 as i32;
        r += dir.1 as i32;
        if c < 0 || r < 0 || c >= size as i32 || r >= size as i32 || dir == (0, 0) {
            return out;
        }
        out.push(SubSquare {
            col: c as u8,
            row: r as u8,
        });
    }
}

/// The entry square of a unit moving by `dir` that asked for `wanted` (GITM 7.13): the square of the
/// entry zones nearest it (by straight-line distance; at a tie, the vertical edge's first) that
/// `allowed` accepts; the nearest of all when none is allowed.
pub fn entry_square(
    wanted: SubSquare,
    dir: (i8, i8),
    size: u8,
    allowed: impl Fn(SubSquare) -> bool,
) -> SubSquare {
    let zones = entry_zones(dir, size);
    let dist = |s: &SubSquare| {
        let dc = s.col as i32 - wanted.col as i32;
        let dr = s.row as i32 - wanted.row as i32;
        dc * dc + dr * dr
    };
    let nearest = |it: &mut dyn Iterator<Item = SubSquare>| {
        it.enumerate()
            .min_by_key(|(i, s)| (dist(s), *i))
            .map(|(_, s)| s)
    };
    nearest(&mut zones.iter().copied().filter(|s| allowed(*s)))
        .or_else(|| nearest(&mut zones.iter().copied()))
        .unwrap_or(wanted)
}

/// The Chebyshev distance between two squares: the strategic phases between them.
pub fn distance(a: Square, b: Square) -> u32 {
    (a.col as i32 - b.col as i32)
        .unsigned_abs()
        .max((a.row as i32 - b.row as i32).unsigned_abs())
}

/// How a tactical terrain stands to the rivers and ranges of GITM 7.8 and 7.13: impassable (river,
/// mountain, water: the lines themselves), a crossing (ford, pass: on both sides, 8.7), or land.
fn side_class(terrain: &str) -> Option<bool> {
    match terrain {
        "river" | "mountain" | "water" => None,
        "ford" | "pass" => Some(true),
        _ => Some(false),
    }
}

/// GITM 7.8, 7.13: the tactical squares on the same side of every river and range as `start`, over
/// the tactical maps of `squares` (joined at their edges, 2.3). pbem's reading, as the tactical part
/// reads 8.7: rivers, mountains and water divide a map into sides; fords and passes belong to the
/// sides they touch, so from a ford or pass the region runs along the crossing and onto the land on
/// either hand, while from land it never enters a ford or pass (crossing is a tactical move, 7.8).
pub fn side_region(sub: &SubGrid, start: Spot, squares: &[Square]) -> BTreeSet<Spot> {
    let mut seen = BTreeSet::new();
    if !squares.contains(&start.square) || side_class(sub.terrain(start)).is_none() {
        return seen;
    }
    let mut todo = vec![start];
    seen.insert(start);
    while let Some(at) = todo.pop() {
        let from_crossing = side_class(sub.terrain(at)) == Some(true);
        for n in sub.neighbours(at) {
            if !squares.contains(&n.square) || seen.contains(&n) {
                continue;
            }
            let ok = match side_class(sub.terrain(n)) {
                None => false,
                Some(crossing) => from_crossing || !crossing,
            };
            if ok {
                seen.insert(n);
                todo.push(n);
            }
        }
    }
    seen
}

/// The squares whose tactical maps a strategic move by `dir` from `from` goes over (GITM 7.8): the
/// square left and the square entered, and for a diagonal the two squares it passes between (7.14)
/// that are on the map.
pub fn squares_crossed(map: &GridMap, from: Square, dir: (i8, i8)) -> Vec<Square> {
    let at = |dc: i8, dr: i8| -> Option<Square> {
        let col = u16::try_from(from.col as i32 + dc as i32).ok()?;
        let row = u16::try_from(from.row as i32 + dr as i32).ok()?;
        (col < map.columns() && row < map.rows()).then_some(Square { col, row })
    };
    let mut out = vec![from];
    out.extend(at(dir.0, dir.1));
    if dir.0 != 0 && dir.1 != 0 {
        out.extend(at(dir.0, 0));
        out.extend(at(0, dir.1));
    }
    out
}
