//! Where the map puts each area's name, unit chips and marks: beside its node, at the first of a
//! few places that covers no node, chip, battle mark or name placed before it and stays inside the
//! map; where every place is taken, the least covered one (for a name, the one least hidden: each
//! covered pixel counted once, however many boxes cover it). The pixels the boxes cover are kept
//! as bits, so that whether a place is free, and how much of a name it hides, is read from them
//! rather than measured box by box. Boxes are placed in map order, so the same map gives the same
//! picture.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

/// A box on the picture: left, top, right, bottom, in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x0: i64,
    pub y0: i64,
    pub x1: i64,
    pub y1: i64,
}

impl Rect {
    /// The box of half-width `w` and half-height `h` around (x, y).
    pub fn around(x: i64, y: i64, w: i64, h: i64) -> Rect {
        Rect {
            x0: x - w,
            y0: y - h,
            x1: x + w,
            y1: y + h,
        }
    }

    /// The area both boxes cover.
    #[inline]
    fn overlap(&self, o: &Rect) -> i64 {
        let w = self.x1.min(o.x1) - self.x0.max(o.x0);
        let h = self.y1.min(o.y1) - self.y0.max(o.y0);
        if w > 0 && h > 0 {
            w * h
        } else {
            0
        }
    }
}

/// Where a label's text goes: its anchor point and `text-anchor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spot {
    pub x: i64,
    pub y: i64,
    pub anchor: &'static str,
}

/// The width of `text` at `size` pixels, a little over what the bundled condensed font takes.
pub fn text_width(text: &str, size: i64) -> i64 {
    (text.chars().count() as i64 * size * 6 + 9) / 10
}

/// Side of the cells of the index of boxes.
const CELL: i64 = 64;

/// The boxes already on the picture, indexed by a grid of cells over the map (a box beyond the
/// map's edge goes into the edge's cells), so that placing a name looks at its neighbourhood only.
pub struct Placer {
    /// The boxes in each cell, row after row, in the order they were placed; each box with the
    /// first column and row of its cells, so that one lying in several is counted once.
    cells: Vec<Vec<Placed>>,
    columns: i64,
    rows: i64,
    /// Which pixels of the map the boxes cover, a bit each ([`Placer::is_free`]): for each cell,
    /// none while no box covers any of its pixels, else 1 + the index of its tile in `tiles`.
    tile_of: Vec<u32>,
    /// A cell's pixels, a row of [`CELL`] bits each (the lowest bit the leftmost pixel).
    tiles: Vec<[u64; CELL as usize]>,
    /// Whether the cells hold the whole map, so that `tiles` tell every covered pixel (a map wider
    /// or higher than 4,096 cells is measured box by box).
    tiled: bool,
    /// The map's own part of the picture, which no name leaves.
    bounds: Rect,
    /// How many searches far afield ([`Placer::place_beside`]) found no free place, in a row.
    far_misses: u32,
}

/// After this many searches far afield in a row found no free place, the map is taken as full
/// ([`Placer::place_beside`]).
const FULL_AFTER: u32 = 64;

/// On a full map, one box in this many still searches far afield, so that the map is found no
/// longer full where it is not.
const FULL_RETRY: u32 = 32;

/// A box in a cell of the [`Placer`], with the first column and row of the cells it lies in:
/// the box itself rather than its number, so that a cell's boxes are read in one sweep.
#[derive(Clone, Copy)]
struct Placed {
    rect: Rect,
    c0: i64,
    r0: i64,
}

/// The cells a box lies in: columns `c0..=c1`, rows `r0..=r1`.
#[derive(Clone, Copy)]
struct Span {
    c0: i64,
    c1: i64,
    r0: i64,
    r1: i64,
}

impl Placer {
    pub fn new(bounds: Rect) -> Placer {
        let columns = ((bounds.x1 - bounds.x0).max(0) / CELL + 1).min(4096);
        let rows = ((bounds.y1 - bounds.y0).max(0) / CELL + 1).min(4096);
        Placer {
            cells: vec![Vec::new(); (columns * rows) as usize],
            columns,
            rows,
            tile_of: vec![0; (columns * rows) as usize],
            tiles: Vec::new(),
            tiled: bounds.x1 - bounds.x0 < columns * CELL && bounds.y1 - bounds.y0 < rows * CELL,
            bounds,
            far_misses: 0,
        }
    }

    #[inline]
    fn span(&self, r: &Rect) -> Span {
        let column = |x: i64| {
            (x - self.bounds.x0)
                .div_euclid(CELL)
                .clamp(0, self.columns - 1)
        };
        let row = |y: i64| {
            (y - self.bounds.y0)
                .div_euclid(CELL)
                .clamp(0, self.rows - 1)
        };
        Span {
            c0: column(r.x0),
            c1: column(r.x1),
            r0: row(r.y0),
            r1: row(r.y1),
        }
    }

    /// Marks `r` as taken.
    pub fn block(&mut self, r: Rect) {
        let span = self.span(&r);
        let placed = Placed {
            rect: r,
            c0: span.c0,
            r0: span.r0,
        };
        for row in span.r0..=span.r1 {
            for column in span.c0..=span.c1 {
                self.cells[(row * self.columns + column) as usize].push(placed);
            }
        }
        if self.tiled {
            self.cover(&r);
        }
    }

    /// Sets the bits of the pixels `r` covers inside the map.
    fn cover(&mut self, r: &Rect) {
        let b = self.bounds;
        let (x0, x1) = (r.x0.max(b.x0), r.x1.min(b.x1));
        let (y0, y1) = (r.y0.max(b.y0), r.y1.min(b.y1));
        if x1 <= x0 || y1 <= y0 {
            return;
        }
        for row in (y0 - b.y0) / CELL..=(y1 - 1 - b.y0) / CELL {
            let top = b.y0 + row * CELL;
            for column in (x0 - b.x0) / CELL..=(x1 - 1 - b.x0) / CELL {
                let left = b.x0 + column * CELL;
                let mask = bits(x0.max(left) - left, x1.min(left + CELL) - left);
                let cell = (row * self.columns + column) as usize;
                if self.tile_of[cell] == 0 {
                    self.tiles.push([0; CELL as usize]);
                    self.tile_of[cell] = self.tiles.len() as u32;
                }
                let tile = &mut self.tiles[self.tile_of[cell] as usize - 1];
                for y in y0.max(top)..y1.min(top + CELL) {
                    tile[(y - top) as usize] |= mask;
                }
            }
        }
    }

    /// Whether `r` covers nothing taken and lies inside the map: [`Placer::cost`] is 0, read from
    /// the bits of its pixels rather than measured against each box around it.
    pub fn is_free(&self, r: &Rect) -> bool {
        let b = &self.bounds;
        if !self.tiled || r.x1 <= r.x0 || r.y1 <= r.y0 {
            return self.cost_below(r, 1).is_some();
        }
        if r.x0 < b.x0 || r.x1 > b.x1 || r.y0 < b.y0 || r.y1 > b.y1 {
            return false;
        }
        for row in (r.y0 - b.y0) / CELL..=(r.y1 - 1 - b.y0) / CELL {
            let top = b.y0 + row * CELL;
            for column in (r.x0 - b.x0) / CELL..=(r.x1 - 1 - b.x0) / CELL {
                let at = self.tile_of[(row * self.columns + column) as usize];
                if at == 0 {
                    continue;
                }
                let left = b.x0 + column * CELL;
                let mask = bits(r.x0.max(left) - left, r.x1.min(left + CELL) - left);
                let tile = &self.tiles[at as usize - 1];
                let rows = (r.y0.max(top) - top) as usize..(r.y1.min(top + CELL) - top) as usize;
                if tile[rows].iter().any(|line| line & mask != 0) {
                    return false;
                }
            }
        }
        true
    }

    /// How much `r` covers of what is taken, and of what lies outside the map (counted heavier).
    pub fn cost(&self, r: &Rect) -> i64 {
        self.cost_below(r, i64::MAX).unwrap_or(i64::MAX)
    }

    /// [`Placer::cost`] when it is below `bound`; none as soon as it reaches it.
    fn cost_below(&self, r: &Rect, bound: i64) -> Option<i64> {
        let inside = r.overlap(&self.bounds);
        let all = (r.x1 - r.x0) * (r.y1 - r.y0);
        let mut cost = 4 * (all - inside);
        if cost >= bound {
            return None;
        }
        let span = self.span(r);
        for row in span.r0..=span.r1 {
            for column in span.c0..=span.c1 {
                // The latest first: on a crowded map the boxes placed last are the nearest, and
                // the first overlap found ends a search for a free place.
                for b in self.cells[(row * self.columns + column) as usize]
                    .iter()
                    .rev()
                {
                    let overlap = r.overlap(&b.rect);
                    // A box lying in several of these cells is counted in the first they share.
                    if overlap > 0 && column == b.c0.max(span.c0) && row == b.r0.max(span.r0) {
                        cost += overlap;
                        if cost >= bound {
                            return None;
                        }
                    }
                }
            }
        }
        Some(cost)
    }

    /// The first of `candidates` that covers nothing, else the least covered one (the first of
    /// those), and what it covers; none when there is no candidate.
    pub fn best(&self, candidates: &[Rect]) -> Option<(i64, usize)> {
        self.best_below(candidates, i64::MAX)
    }

    /// [`Placer::best`] among the candidates that cover less than `bound`.
    fn best_below(&self, candidates: &[Rect], bound: i64) -> Option<(i64, usize)> {
        let mut best: Option<(i64, usize)> = None;
        for (i, r) in candidates.iter().enumerate() {
            let bound = best.map_or(bound, |(b, _)| b);
            if let Some(c) = self.cost_below(r, bound) {
                best = Some((c, i));
                if c == 0 {
                    break;
                }
            }
        }
        best
    }

    /// The first of `candidates` that covers nothing, if one does: what [`Placer::best`] chooses
    /// when its cost is 0, found without measuring the others' cover.
    pub fn first_free(&self, candidates: &[Rect]) -> Option<usize> {
        candidates.iter().position(|r| self.is_free(r))
    }

    /// How much of `r` is hidden: its pixels that a placed box covers, each once however many
    /// cover it, and four times its pixels outside the map; none as soon as that reaches `bound`.
    /// Read from the bits of its pixels, so that it costs the same in a crowd as in the open. (On
    /// a map of more than 4,096 cells a side, which no picture has, [`Placer::cost`].)
    pub fn hidden_below(&self, r: &Rect, bound: i64) -> Option<i64> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the instruction `hidden_with_popcnt` is compiled to use.
            return unsafe { self.hidden_with_popcnt(r, bound) };
        }
        self.hidden(r, bound)
    }

    /// [`Placer::hidden_below`] compiled for a processor that counts a word's bits in one
    /// instruction (the counting is most of its work; the answers are the same).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn hidden_with_popcnt(&self, r: &Rect, bound: i64) -> Option<i64> {
        self.hidden(r, bound)
    }

    /// [`Placer::hidden_below`], for any processor.
    #[inline(always)]
    fn hidden(&self, r: &Rect, bound: i64) -> Option<i64> {
        if !self.tiled || r.x1 <= r.x0 || r.y1 <= r.y0 {
            return self.cost_below(r, bound);
        }
        let b = &self.bounds;
        let inside = r.overlap(b);
        let mut hidden = 4 * ((r.x1 - r.x0) * (r.y1 - r.y0) - inside);
        if hidden >= bound {
            return None;
        }
        let (x0, x1) = (r.x0.max(b.x0), r.x1.min(b.x1));
        let (y0, y1) = (r.y0.max(b.y0), r.y1.min(b.y1));
        if inside == 0 {
            return Some(hidden);
        }
        for row in (y0 - b.y0) / CELL..=(y1 - 1 - b.y0) / CELL {
            let top = b.y0 + row * CELL;
            let rows = (y0.max(top) - top) as usize..(y1.min(top + CELL) - top) as usize;
            for column in (x0 - b.x0) / CELL..=(x1 - 1 - b.x0) / CELL {
                let at = self.tile_of[(row * self.columns + column) as usize];
                if at == 0 {
                    continue;
                }
                let left = b.x0 + column * CELL;
                let mask = bits(x0.max(left) - left, x1.min(left + CELL) - left);
                let tile = &self.tiles[at as usize - 1];
                hidden += tile[rows.clone()]
                    .iter()
                    .map(|line| i64::from((line & mask).count_ones()))
                    .sum::<i64>();
                if hidden >= bound {
                    return None;
                }
            }
        }
        Some(hidden)
    }

    /// The first box of `lists`, taken one list after the other, that covers nothing: the list
    /// and the box in it.
    pub fn first_free_of(&self, lists: &[&[Rect]]) -> Option<(usize, usize)> {
        lists
            .iter()
            .enumerate()
            .find_map(|(l, list)| Some((l, self.first_free(list)?)))
    }

    /// The place of a label among all the boxes of `lists` taken one list after the other: the
    /// first that covers nothing, else the least hidden ([`Placer::hidden_below`]; the first of
    /// those), as the list and the box in it, and how much of it is hidden. Each box is measured
    /// only until it is hidden as much as the best so far.
    pub fn best_of(&self, lists: &[&[Rect]]) -> Option<(i64, usize, usize)> {
        let mut best: Option<(i64, usize, usize)> = None;
        for (l, list) in lists.iter().enumerate() {
            for (i, r) in list.iter().enumerate() {
                let bound = best.map_or(i64::MAX, |(cost, _, _)| cost);
                if let Some(cost) = self.hidden_below(r, bound) {
                    best = Some((cost, l, i));
                    if cost == 0 {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// Places a box (a unit chip, a row of marks) at the best of `candidates` ([`Placer::best`]),
    /// marks it taken and returns it.
    pub fn place_box(&mut self, candidates: &[Rect]) -> Rect {
        let at = self.best(candidates).map_or(0, |(_, i)| i);
        let r = candidates
            .get(at)
            .copied()
            .unwrap_or(Rect::around(0, 0, 0, 0));
        self.block(r);
        r
    }

    /// [`Placer::best`] of [`boxes_near`]`(x, y, w, h, radius, step)`, and that box: the same
    /// choice, made at once for the whole grid of boxes. What the placed boxes cover of each box of
    /// the grid is summed box by box (an overlap is its overlap across times its overlap down, and
    /// each is non-zero for a few columns or rows of the grid only), where `best` measured each of
    /// the grid's thousand boxes against the boxes around it: a crowded map asks this of most of
    /// its chips. The grid's boxes are then read nearest first from their offsets, none of them
    /// made but the one chosen.
    pub fn best_near(
        &self,
        x: i64,
        y: i64,
        w: i64,
        h: i64,
        radius: i64,
        step: i64,
    ) -> Option<(i64, Rect)> {
        let step = step.max(1);
        let offsets = offsets_near(radius, step);
        if offsets.is_empty() {
            return None;
        }
        let n = radius / step;
        let side = (2 * n + 1) as usize;
        // The box at offset (dy, dx) is box (i, j) of the grid, i = dx / step + n, j = dy / step + n,
        // which lies at column x0 + i * step and row y0 + j * step (as `boxes_near` makes it).
        let (x0, y0) = (x - w / 2 - n * step, y - h / 2 - n * step);
        let all = Rect {
            x0,
            y0,
            x1: x0 + 2 * n * step + w,
            y1: y0 + 2 * n * step + h,
        };
        let mut covered = vec![0i64; side * side];
        // The first of the grid's columns (or rows) whose span of `length` from `from + i * step`
        // meets `b0..b1`.
        let first_along = |from: i64, length: i64, b0: i64| -> i64 {
            ((b0 - length - from).div_euclid(step) + 1).clamp(0, side as i64)
        };
        // A box's overlaps with the columns it meets: `across[..len]`.
        let mut across: Vec<i64> = vec![0; side];
        let span = self.span(&all);
        for row in span.r0..=span.r1 {
            for column in span.c0..=span.c1 {
                for b in &self.cells[(row * self.columns + column) as usize] {
                    // Each box once: in the first cell it shares with the grid (as `cost_below`).
                    if column != b.c0.max(span.c0) || row != b.r0.max(span.r0) {
                        continue;
                    }
                    let r = &b.rect;
                    // Its overlaps with the grid's columns, from the first it meets.
                    let i0 = first_along(x0, w, r.x0);
                    let mut len = 0;
                    let mut start = x0 + i0 * step;
                    for o in &mut across[i0 as usize..] {
                        *o = (start + w).min(r.x1) - start.max(r.x0);
                        if *o <= 0 {
                            break;
                        }
                        len += 1;
                        start += step;
                    }
                    if len == 0 {
                        continue;
                    }
                    let across = &across[i0 as usize..i0 as usize + len];
                    // Its overlaps with the grid's rows, each added across the row.
                    let j0 = first_along(y0, h, r.y0);
                    let mut top = y0 + j0 * step;
                    for j in j0 as usize..side {
                        let dy = (top + h).min(r.y1) - top.max(r.y0);
                        if dy <= 0 {
                            break;
                        }
                        let line = &mut covered[j * side + i0 as usize..];
                        for (c, dx) in line.iter_mut().zip(across) {
                            *c += dx * dy;
                        }
                        top += step;
                    }
                }
            }
        }
        // What lies outside the map, four times, where the grid reaches past its edge.
        let b = &self.bounds;
        let sized = w > 0 && h > 0;
        if !(sized && all.x0 >= b.x0 && all.x1 <= b.x1 && all.y0 >= b.y0 && all.y1 <= b.y1) {
            for (j, line) in covered.chunks_exact_mut(side).enumerate() {
                let by = y0 + j as i64 * step;
                for (i, c) in line.iter_mut().enumerate() {
                    let bx = x0 + i as i64 * step;
                    let r = Rect {
                        x0: bx,
                        y0: by,
                        x1: bx + w,
                        y1: by + h,
                    };
                    *c += 4 * (w * h - r.overlap(b));
                }
            }
        }
        let mut best: Option<(i64, usize)> = None;
        for (k, o) in offsets.iter().enumerate() {
            let cost = covered[o.at];
            if best.is_none_or(|(b, _)| cost < b) {
                best = Some((cost, k));
                if cost == 0 {
                    break;
                }
            }
        }
        best.map(|(cost, k)| {
            let o = offsets[k];
            let (bx, by) = (x + o.dx - w / 2, y + o.dy - h / 2);
            (
                cost,
                Rect {
                    x0: bx,
                    y0: by,
                    x1: bx + w,
                    y1: by + h,
                },
            )
        })
    }

    /// Places a box beside its mark at (x, y): at the first free box of `candidates`, else at
    /// [`Placer::best_near`] (the nearest free box within `radius`, else the least covered there),
    /// and marks it taken. On a map so full that the last [`FULL_AFTER`] searches far afield found
    /// no free box, a box goes to the least covered of its nearest [`RING`] candidates instead (but one in
    /// [`FULL_RETRY`], which still searches): each search measures every box placed within
    /// `radius`, so that a full map of thousands of chips cost seconds to find no better place
    /// (issue 39: a third of a 24 x 4,167 turn's time).
    #[allow(clippy::too_many_arguments)]
    pub fn place_beside(
        &mut self,
        candidates: &[Rect],
        x: i64,
        y: i64,
        w: i64,
        h: i64,
        radius: i64,
        step: i64,
    ) -> Rect {
        if let Some(i) = self.first_free(candidates) {
            return self.place_box(&candidates[i..=i]);
        }
        let full = self.far_misses >= FULL_AFTER;
        if full && !self.far_misses.is_multiple_of(FULL_RETRY) {
            self.far_misses += 1;
            return self.place_box(&candidates[..candidates.len().min(RING)]);
        }
        match self.best_near(x, y, w, h, radius, step) {
            Some((cost, r)) => {
                self.far_misses = if cost == 0 { 0 } else { self.far_misses + 1 };
                self.block(r);
                r
            }
            None => self.place_box(candidates),
        }
    }

    /// Places a box at [`Placer::best_near`], marks it taken and returns it.
    pub fn place_near(&mut self, x: i64, y: i64, w: i64, h: i64, radius: i64, step: i64) -> Rect {
        let r = self
            .best_near(x, y, w, h, radius, step)
            .map_or(Rect::around(0, 0, 0, 0), |(_, r)| r);
        self.block(r);
        r
    }

    /// Places a label of `width` and `size` at the first free spot of `spots` (else the least
    /// covered), marks it taken and returns it.
    pub fn place(&mut self, spots: &[Spot], width: i64, size: i64) -> Spot {
        let (_, spot) = self.best_spot(spots, width, size);
        self.block(label_box(&spot, width, size));
        spot
    }

    /// Where [`Placer::place`] would put a label, and what it would cover there.
    pub fn best_spot(&self, spots: &[Spot], width: i64, size: i64) -> (i64, Spot) {
        self.best_spot_below(spots, width, size, i64::MAX)
            .unwrap_or((
                0,
                Spot {
                    x: 0,
                    y: 0,
                    anchor: "middle",
                },
            ))
    }

    /// [`Placer::best_spot`] among the spots where the label would cover less than `bound`
    /// (none when there is no such spot): a label tried in several places and forms measures
    /// each against the best so far.
    pub fn best_spot_below(
        &self,
        spots: &[Spot],
        width: i64,
        size: i64,
        bound: i64,
    ) -> Option<(i64, Spot)> {
        let boxes: Vec<Rect> = spots.iter().map(|s| label_box(s, width, size)).collect();
        self.best_below(&boxes, bound)
            .map(|(cost, i)| (cost, spots[i]))
    }
}

/// The bits `from..to` of a row of a tile (`0 <= from < to <= CELL`).
#[inline]
fn bits(from: i64, to: i64) -> u64 {
    let n = to - from;
    let ones = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    ones << from
}

/// The box of a label of `width` and `size` written at `s`: from the top of its capitals to a
/// little under its baseline.
pub fn label_box(s: &Spot, width: i64, size: i64) -> Rect {
    let x0 = match s.anchor {
        "start" => s.x,
        "end" => s.x - width,
        _ => s.x - width / 2,
    };
    Rect {
        x0,
        y0: s.y - size,
        x1: x0 + width,
        y1: s.y + size / 4,
    }
}

/// Boxes of `w` x `h` whose centres lie on a grid of `step` pixels within `radius` of (x, y),
/// nearest first (then top to bottom, left to right): where [`boxes_around`] finds no free box.
pub fn boxes_near(x: i64, y: i64, w: i64, h: i64, radius: i64, step: i64) -> Vec<Rect> {
    offsets_near(radius, step)
        .iter()
        .map(|o| Rect::around(x + o.dx, y + o.dy, w / 2, h / 2))
        .map(|r| Rect {
            x1: r.x0 + w,
            y1: r.y0 + h,
            ..r
        })
        .collect()
}

/// The offsets (dy, dx) of the points of a grid of `step` pixels within `radius` of a point,
/// nearest first (then top to bottom, left to right), each with its place on the grid: sorted once a process for each radius and step (a crowded map asks
/// for them thousands of times, always the same).
fn offsets_near(radius: i64, step: i64) -> Arc<Vec<Offset>> {
    type Offsets = BTreeMap<(i64, i64), Arc<Vec<Offset>>>;
    static MADE: Mutex<Offsets> = Mutex::new(BTreeMap::new());
    let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
    made.entry((radius, step))
        .or_insert_with(|| {
            let n = radius / step.max(1);
            let side = 2 * n + 1;
            let mut out: Vec<(i64, i64, i64, i64, i64)> = Vec::new();
            for i in -n..=n {
                for j in -n..=n {
                    let (dx, dy) = (i * step, j * step);
                    if dx * dx + dy * dy <= radius * radius {
                        out.push((dx * dx + dy * dy, dy, dx, j, i));
                    }
                }
            }
            out.sort_unstable();
            Arc::new(
                out.into_iter()
                    .map(|(_, dy, dx, j, i)| Offset {
                        dy,
                        dx,
                        at: ((j + n) * side + i + n) as usize,
                    })
                    .collect(),
            )
        })
        .clone()
}

/// A point of the grid of [`offsets_near`]: its offset in pixels, and its place in a row-major
/// array over the grid's square of `2n + 1` points a side (n = radius / step).
#[derive(Clone, Copy)]
struct Offset {
    dy: i64,
    dx: i64,
    at: usize,
}

/// How many boxes each ring of [`boxes_around`] holds.
pub const RING: usize = 12;

/// Candidate boxes of `w` x `h` around a mark of half-size `rx` x `ry` at (x, y), nearest first:
/// beside it (right first, or left first when `left`), above and below it, then the same a step
/// farther out, five times, so that a crowded place still finds a free box near its area. (An
/// array: a map asks this of each of its chips, and most take the first.)
pub fn boxes_around(
    x: i64,
    y: i64,
    rx: i64,
    ry: i64,
    w: i64,
    h: i64,
    left: bool,
) -> [Rect; 6 * RING] {
    let mut out = [Rect::around(0, 0, 0, 0); 6 * RING];
    let mut k = 0;
    let mut put = |x0: i64, y0: i64| {
        out[k] = Rect {
            x0,
            y0,
            x1: x0 + w,
            y1: y0 + h,
        };
        k += 1;
    };
    for ring in 0..6 {
        let (dx, dy) = (rx + 2 + ring * (h + 4), ry + 2 + ring * (h + 4));
        let right = x + dx;
        let leftx = x - dx - w;
        let sides = if left { [leftx, right] } else { [right, leftx] };
        for x0 in sides {
            for y0 in [y - h / 2, y - h / 2 - h - 2, y + h / 2 + 2] {
                put(x0, y0);
            }
        }
        for y0 in [y + dy, y - dy - h] {
            for x0 in [x - w / 2, x + dx - w / 2, x - dx - w / 2] {
                put(x0, y0);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A box whose own places are all taken searches far afield until the map is full: after
    /// `FULL_AFTER` searches in a row found no free place, it takes the least covered of its own
    /// places, but one in `FULL_RETRY`, which searches again and finds the map no longer full where
    /// a free place is near.
    #[test]
    fn on_a_full_map_a_box_takes_the_least_covered_of_its_own_places_but_now_and_then_searches() {
        let mut p = Placer::new(Rect {
            x0: 0,
            y0: 0,
            x1: 2000,
            y1: 2000,
        });
        // The left half is full: a search from (500, 500) finds nothing free within 160 pixels.
        p.block(Rect {
            x0: 0,
            y0: 0,
            x1: 1000,
            y1: 2000,
        });
        let full = |x| boxes_around(x, 500, 15, 15, 20, 10, false);
        let (inside, near_edge) = (full(500), full(900));
        assert_eq!(inside.len(), 6 * RING, "six rings of RING boxes");
        let miss = |p: &mut Placer| {
            for _ in 0..FULL_AFTER {
                p.place_beside(&inside, 500, 500, 20, 10, 160, 8);
            }
        };
        miss(&mut p);
        assert_eq!(p.far_misses, FULL_AFTER);
        // The next one searches (one in FULL_RETRY), finds the free half and the map not full.
        let r = p.place_beside(&near_edge, 900, 500, 20, 10, 160, 8);
        assert!(r.x0 >= 1000 && !near_edge.contains(&r), "{r:?}");
        assert_eq!(p.far_misses, 0);
        // Full again: one search misses, the next box takes one of its own nearest places.
        miss(&mut p);
        p.place_beside(&inside, 500, 500, 20, 10, 160, 8);
        let r = p.place_beside(&near_edge, 900, 500, 20, 10, 160, 8);
        assert!(near_edge[..RING].contains(&r), "{r:?}");
        assert_eq!(p.far_misses, FULL_AFTER + 2);
    }

    fn spots(x: i64, y: i64) -> Vec<Spot> {
        vec![
            Spot {
                x,
                y: y + 25,
                anchor: "middle",
            },
            Spot {
                x,
                y: y - 17,
                anchor: "middle",
            },
        ]
    }

    #[test]
    fn a_label_moves_off_a_box_that_covers_its_first_place() {
        let mut p = Placer::new(Rect::around(500, 500, 500, 500));
        p.block(Rect::around(100, 122, 40, 8));
        let s = p.place(&spots(100, 100), 60, 11);
        assert_eq!((s.x, s.y), (100, 83));
    }

    #[test]
    fn a_label_stays_inside_the_map() {
        let mut p = Placer::new(Rect::around(500, 500, 500, 500));
        let s = p.place(&spots(100, 990), 60, 11);
        assert_eq!(s.y, 973, "below the bottom edge it would be cut off");
    }

    #[test]
    fn a_chip_goes_beside_its_node_then_farther_out_where_the_crowd_is() {
        let mut p = Placer::new(Rect::around(500, 500, 500, 500));
        p.block(Rect::around(100, 100, 15, 15));
        let first = p.place_box(&boxes_around(100, 100, 15, 15, 40, 15, false));
        assert_eq!((first.x0, first.y0), (117, 93), "right of the node");
        // Everything around is taken: the next chip finds the nearest free box of the grid.
        p.block(Rect::around(100, 100, 150, 150));
        let around = boxes_around(100, 100, 15, 15, 40, 15, false);
        assert!(p.best(&around).is_some_and(|(cost, _)| cost > 0));
        let near = boxes_near(100, 100, 40, 15, 160, 8);
        let (cost, at) = p.best(&near).unwrap();
        assert_eq!(cost, 0);
        assert!(
            near[..at].iter().all(|r| p.cost(r) > 0),
            "a nearer box is free"
        );
        let far = p.place_box(&near);
        assert_eq!(far, near[at]);
        assert!(far.y0 >= 250 || far.y1 <= -50 || far.x0 >= 250 || far.x1 <= -50);
    }

    proptest::proptest! {
        /// The grid of boxes near a point, measured at once, gives the box and cost that measuring
        /// each box of it gives, among boxes of any size and place, inside the map and beyond it;
        /// and the first free box is the one `best` finds when one is free.
        #[test]
        fn best_near_chooses_as_best_of_the_boxes_near(
            placed in proptest::collection::vec((-100i64..700, -100i64..700, 1i64..90, 1i64..40), 0..120),
            x in -50i64..650, y in -50i64..650, w in 1i64..80, h in 1i64..30,
            radius in 0i64..200, step in 1i64..12,
        ) {
            let mut p = Placer::new(Rect::around(300, 300, 300, 300));
            for (bx, by, bw, bh) in placed {
                p.block(Rect { x0: bx, y0: by, x1: bx + bw, y1: by + bh });
            }
            let boxes = boxes_near(x, y, w, h, radius, step);
            let expected = p.best(&boxes).map(|(cost, i)| (cost, boxes[i]));
            proptest::prop_assert_eq!(p.best_near(x, y, w, h, radius, step), expected);
            let free = p.best(&boxes).filter(|(cost, _)| *cost == 0).map(|(_, i)| i);
            proptest::prop_assert_eq!(p.first_free(&boxes), free);
        }
    }

    proptest::proptest! {
        /// The bits of the covered pixels tell what measuring each box tells: a box is free when
        /// it covers nothing and stays inside the map; and how much of a box is hidden counts each
        /// pixel covered once, outside the map four times; on maps of any origin, boxes of any size;
        /// counted with the processor's bit count or without.
        #[test]
        fn the_covered_pixels_tell_what_measuring_each_box_tells(
            placed in proptest::collection::vec((-100i64..400, -100i64..400, -5i64..90, -5i64..40), 0..60),
            x in -50i64..350, y in -50i64..350, w in -2i64..80, h in -2i64..30,
            ox in -70i64..70, oy in -70i64..70,
        ) {
            let bounds = Rect { x0: ox, y0: oy, x1: ox + 300, y1: oy + 250 };
            let mut p = Placer::new(bounds);
            let mut boxes = Vec::new();
            for (bx, by, bw, bh) in placed {
                let r = Rect { x0: bx, y0: by, x1: bx + bw, y1: by + bh };
                p.block(r);
                boxes.push(r);
            }
            let probe = Rect { x0: x, y0: y, x1: x + w, y1: y + h };
            // (A box of no size, or of a negative one, covers nothing: free as `cost` is not above 0.)
            proptest::prop_assert_eq!(p.is_free(&probe), p.cost(&probe) <= 0);
            if probe.x1 > probe.x0 && probe.y1 > probe.y0 {
                let mut hidden = 0;
                for px in probe.x0..probe.x1 {
                    for py in probe.y0..probe.y1 {
                        let inside = (bounds.x0..bounds.x1).contains(&px) && (bounds.y0..bounds.y1).contains(&py);
                        let covered = boxes.iter().any(|b| (b.x0..b.x1).contains(&px) && (b.y0..b.y1).contains(&py));
                        hidden += if !inside { 4 } else { i64::from(covered) };
                    }
                }
                proptest::prop_assert_eq!(p.hidden_below(&probe, i64::MAX), Some(hidden));
                proptest::prop_assert_eq!(p.hidden_below(&probe, hidden), None);
                // The count for any processor, whichever `hidden_below` took here.
                proptest::prop_assert_eq!(p.hidden(&probe, i64::MAX), Some(hidden));
                proptest::prop_assert_eq!(p.hidden(&probe, hidden), None);
                if hidden > 0 {
                    proptest::prop_assert_eq!(p.hidden(&probe, hidden + 1), Some(hidden));
                    proptest::prop_assert_eq!(p.hidden_below(&probe, hidden + 1), Some(hidden));
                }
            }
        }
    }

    /// A name goes where least of it is hidden, each covered pixel counted once: beside a place
    /// under three stacked boxes that hide 30 of its pixels (90 counted box by box), rather than
    /// one under a single box hiding 50.
    #[test]
    fn a_name_goes_where_least_of_it_is_hidden_however_many_boxes_cover_a_pixel() {
        let mut p = Placer::new(Rect::around(500, 500, 500, 500));
        // The first place: 50 of its 100 pixels under one box.
        p.block(Rect {
            x0: 100,
            y0: 100,
            x1: 105,
            y1: 110,
        });
        // The second: 30 pixels under three boxes stacked.
        for _ in 0..3 {
            p.block(Rect {
                x0: 200,
                y0: 100,
                x1: 203,
                y1: 110,
            });
        }
        let first = [Rect {
            x0: 100,
            y0: 100,
            x1: 110,
            y1: 110,
        }];
        let second = [Rect {
            x0: 200,
            y0: 100,
            x1: 210,
            y1: 110,
        }];
        assert_eq!(p.cost(&first[0]), 50);
        assert_eq!(p.cost(&second[0]), 90);
        assert_eq!(p.best_of(&[&first, &second]), Some((30, 1, 0)));
        // A free place wins, the first of them.
        let free = [Rect {
            x0: 300,
            y0: 100,
            x1: 310,
            y1: 110,
        }];
        assert_eq!(p.best_of(&[&first, &free, &free]), Some((0, 1, 0)));
    }

    #[test]
    fn two_labels_never_share_a_place_when_another_is_free() {
        let mut p = Placer::new(Rect::around(500, 500, 500, 500));
        let a = p.place(&spots(100, 100), 60, 11);
        let b = p.place(&spots(100, 100), 60, 11);
        assert_ne!(a, b);
    }
}
