//! Tactical movement (GITM 8.1-8.9, 8.12): where a brigade goes this phase (its waypoint, its
//! destination, or the nearest enemy it engages), the path it takes, and what stops it: among
//! these a besieged city (2.7, 8.4) and a full square (2.5).

use std::collections::{BTreeSet, VecDeque};

use super::event::TacEvent;
use super::field::Field;
use super::map::{Dir, Pos, SIZE};
use super::unit::{Posture, Relation};

/// GITM 8.1: brigades with more fatigue than this do not move tactically with an enemy present.
pub const MAX_MOVE_FATIGUE: u32 = 8;
/// GITM 2.5: a tactical square holds at most 12 brigades allied to one another.
pub const MAX_ALLIED_IN_SQUARE: usize = 12;
/// GITM 2.5: a tactical square holds at most 24 brigades.
pub const MAX_IN_SQUARE: usize = 24;

/// Where a brigade heads this phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Goal {
    Waypoint(Pos),
    Destination(Pos),
    /// GITM 8.8: the enemy brigade it engages.
    Engage(usize),
}

/// GITM 8.2: the straight line from `from` to `to`, one king's move a step, `from` left out: the
/// step `k` of `n` lands on `from + round(k * delta / n)` (halves away from zero).
pub fn straight_line(from: Pos, to: Pos) -> Vec<Pos> {
    let (dx, dy) = from.delta(to);
    let n = dx.abs().max(dy.abs());
    let round = |a: i32| (2 * a + n * a.signum()) / (2 * n);
    (1..=n)
        .filter_map(|k| from.offset(round(k * dx), round(k * dy)))
        .collect()
}

/// Why a brigade does not move: the event to write.
type Blocked = Box<TacEvent>;

impl Field<'_> {
    /// GITM 8.2, 8.8: where brigade `i` heads in `phase`: its waypoint, then its destination, from
    /// its start phase; then, in its engage phases, the nearest enemy (from the phase after it
    /// reached its destination, when it has one).
    pub(super) fn goal(&self, i: usize, phase: u8) -> Option<Goal> {
        let b = &self.brigades[i];
        let o = &b.order;
        let p = &self.progress[i];
        let dest = o.destination.or(o.waypoint);
        if let Some(dest) = dest {
            if phase >= o.start_phase.unwrap_or(1) && p.arrived_in.is_none() {
                return match o.waypoint {
                    Some(w) if !p.waypoint_done && o.destination.is_some() => {
                        Some(Goal::Waypoint(w))
                    }
                    _ => Some(Goal::Destination(dest)),
                };
            }
        }
        let (first, last) = o.engage?;
        let ready = dest.is_none() || p.arrived_in.is_some_and(|a| a < phase);
        if !(first..=last).contains(&phase) || !ready || p.engage_off {
            return None;
        }
        self.nearest_enemy(i).map(Goal::Engage)
    }

    /// GITM 8.8: the nearest active enemy combat brigade (a headquarters only when there is none),
    /// the fewest diagonal moves breaking ties, then the unit ID.
    pub(super) fn nearest_enemy(&self, i: usize) -> Option<usize> {
        let from = self.brigades[i].pos;
        let enemies: Vec<usize> = self
            .active()
            .filter(|&j| self.relation(i, j) == Relation::Hostile)
            .collect();
        let combat: Vec<usize> = enemies
            .iter()
            .copied()
            .filter(|&j| self.brigades[j].is_combat())
            .collect();
        let pool = if combat.is_empty() { enemies } else { combat };
        pool.into_iter().min_by(|&a, &b| {
            let key = |j: usize| {
                let p = self.brigades[j].pos;
                (from.distance(p), from.diagonals(p))
            };
            key(a)
                .cmp(&key(b))
                .then_with(|| self.brigades[a].id.cmp(&self.brigades[b].id))
        })
    }

    /// The path of brigade `i` to `to` (GITM 8.2, 8.5, 8.7), or why it does not move: a brigade
    /// inside a besieged city leaves it only as 8.4 allows (`leaves_besieged`).
    pub(super) fn plan(&self, i: usize, to: Pos) -> Result<Vec<Pos>, Blocked> {
        let path = self.path_to(i, to)?;
        match self.leaves_besieged(i, &path) {
            Some(e) => Err(Box::new(e)),
            None => Ok(path),
        }
    }

    /// GITM 8.4: why brigade `i`, inside a besieged city (on its square, not hostile to the side
    /// holding it), may not take `path`: it leaves the city's square only by a move of one square
    /// onto a besieging brigade (one hostile to the holder), to attack it.
    fn leaves_besieged(&self, i: usize, path: &[Pos]) -> Option<TacEvent> {
        let b = &self.brigades[i];
        let siege = self.map.siege(b.pos)?;
        let first = *path.first()?;
        if self.relations.between(&b.side, &siege.holder) == Relation::Hostile {
            return None;
        }
        let onto_besieger = path.len() == 1
            && self.at(first).iter().any(|&j| {
                self.relations
                    .between(&self.brigades[j].side, &siege.holder)
                    == Relation::Hostile
            });
        if onto_besieger {
            return None;
        }
        Some(TacEvent::new(
            "GITM 8.4",
            format!(
                "{} does not move: it is inside the city at {} besieged by {}, and leaves its square only by one square onto a besieger, to attack it",
                b.id, b.pos, siege.by
            ),
        ))
    }

    /// GITM 8.4: whether brigade `i` may not enter the besieged city at `q`: only brigades hostile
    /// to the side holding it enter it (and a combat follows, 8.3); the others, relief among them,
    /// stop short. The text says why.
    pub(super) fn barred_from_city(&self, i: usize, q: Pos) -> Option<String> {
        let b = &self.brigades[i];
        let siege = self.map.siege(q)?;
        if b.pos == q || self.relations.between(&b.side, &siege.holder) == Relation::Hostile {
            return None;
        }
        Some(format!(
            "{} halts before {q}: the city there is besieged by {}, and only brigades hostile to {} enter it",
            b.id, siege.by, siege.holder
        ))
    }

    /// GITM 2.5: whether tactical square `q` is full for brigade `i`: it holds 24 brigades, or 12
    /// allied to `i`. The SOP's decision (the seed says only that a square cannot hold more): the move
    /// stops short, on the square before. The text says why.
    pub(super) fn square_full(&self, i: usize, q: Pos) -> Option<String> {
        let here = self.at(q);
        let id = &self.brigades[i].id;
        if here.len() >= MAX_IN_SQUARE {
            return Some(format!(
                "{id} halts before {q}: it holds {MAX_IN_SQUARE} brigades already (SOP: the move stops short)"
            ));
        }
        let allied = here
            .iter()
            .filter(|&&j| self.relation(i, j) == Relation::Friendly)
            .count();
        (allied >= MAX_ALLIED_IN_SQUARE).then(|| {
            format!(
                "{id} halts before {q}: it holds {MAX_ALLIED_IN_SQUARE} allied brigades already (SOP: the move stops short)"
            )
        })
    }

    /// GITM 8.4, 2.5: the event, told to the brigade's side, when brigade `i` may not enter `q`: a
    /// besieged city ([`barred_from_city`](Self::barred_from_city)) or a full square
    /// ([`square_full`](Self::square_full)); `then` is added to its text.
    pub(super) fn entry_barred(&self, i: usize, q: Pos, then: &str) -> Option<TacEvent> {
        let (rule, why) = self
            .barred_from_city(i, q)
            .map(|t| ("GITM 8.4", t))
            .or_else(|| self.square_full(i, q).map(|t| ("GITM 2.5", t)))?;
        let b = &self.brigades[i];
        Some(
            TacEvent::new(rule, format!("{why}{then}"))
                .unit(&b.id)
                .at(b.pos)
                .side_only(&b.side),
        )
    }

    /// The path of brigade `i` to `to` by terrain alone (GITM 8.2, 8.5, 8.7).
    fn path_to(&self, i: usize, to: Pos) -> Result<Vec<Pos>, Blocked> {
        let b = &self.brigades[i];
        let from = b.pos;
        if from == to {
            return Ok(Vec::new());
        }
        let terrain = self.map.terrain(to);
        if !terrain.passable() {
            return Err(Box::new(TacEvent::new(
                "GITM 2.2",
                format!(
                    "{} does not move: {to} is {}, impassable",
                    b.id,
                    terrain.name()
                ),
            )));
        }
        if !self.same_side(from, to) {
            return Err(Box::new(TacEvent::new(
                "GITM 8.7",
                format!(
                    "{} does not move: {from} and {to} lie across a river or range, and a move crosses one only by a ford or pass given as its waypoint",
                    b.id
                ),
            )));
        }
        let line = straight_line(from, to);
        let wall = line.iter().find(|&&p| !self.map.terrain(p).passable());
        let cliff = std::iter::once(from)
            .chain(line.iter().copied())
            .collect::<Vec<_>>()
            .windows(2)
            .find(|w| self.map.is_cliff(w[0], w[1]))
            .map(|w| w[1]);
        if self.enemy_present(i) {
            if let Some(w) = wall {
                return Err(Box::new(TacEvent::new(
                    "GITM 8.5",
                    format!(
                        "{} does not move: with an enemy in the square, its straight path to {to} crosses {} at {w}",
                        b.id,
                        self.map.terrain(*w).name()
                    ),
                )));
            }
            if let Some(c) = cliff {
                return Err(Box::new(TacEvent::new(
                    "GITM 8.5",
                    format!(
                        "{} does not move: with an enemy in the square, its straight path to {to} climbs the cliff at {c}",
                        b.id
                    ),
                )));
            }
            return Ok(line);
        }
        if wall.is_none() {
            return Ok(line);
        }
        self.around(from, to).ok_or_else(|| {
            Box::new(TacEvent::new(
                "GITM 8.5",
                format!("{} does not move: no passable way to {to}", b.id),
            ))
        })
    }

    /// GITM 8.5 (pbem's reading): with no enemy in the square the limits of 8.5 do not apply, and a
    /// brigade whose straight line meets impassable terrain goes round it by the shortest way on its
    /// side of rivers and ranges (squares tried clockwise from north).
    fn around(&self, from: Pos, to: Pos) -> Option<Vec<Pos>> {
        let allowed: BTreeSet<u16> = self
            .sides_of(from)
            .union(&self.sides_of(to))
            .copied()
            .collect();
        let n = usize::from(SIZE);
        let ix = |p: Pos| usize::from(p.row) * n + usize::from(p.col);
        let mut prev: Vec<Option<Pos>> = vec![None; n * n];
        let mut queue = VecDeque::from([from]);
        prev[ix(from)] = Some(from);
        while let Some(p) = queue.pop_front() {
            if p == to {
                let mut path = vec![to];
                let mut at = to;
                while let Some(q) = prev[ix(at)].filter(|&q| q != from) {
                    path.push(q);
                    at = q;
                }
                path.reverse();
                return Some(path);
            }
            for q in p.neighbours() {
                let ok = q == to
                    || (self.map.terrain(q).passable()
                        && !self.map.terrain(q).crossing()
                        && !self.sides_of(q).is_disjoint(&allowed));
                if ok && prev[ix(q)].is_none() {
                    prev[ix(q)] = Some(p);
                    queue.push_back(q);
                }
            }
        }
        None
    }

    /// GITM 8.1: brigade `i` is above 8 fatigue with an enemy present, and may not move tactically:
    /// neither its own move nor a support (8.10) or an interception (8.11).
    pub(super) fn too_tired(&self, i: usize) -> bool {
        self.brigades[i].fatigue > MAX_MOVE_FATIGUE && self.enemy_present(i)
    }

    /// GITM 8.1: brigade `i` has moved tactically; with an enemy present it pays 1 fatigue for the
    /// phase, once whatever its moves in it (its own, a support, an interception). Returns the words
    /// its move's event adds when it paid.
    pub(super) fn pay_move(&mut self, i: usize) -> &'static str {
        if self.progress[i].paid || !self.enemy_present(i) {
            return "";
        }
        self.progress[i].paid = true;
        self.brigades[i].fatigue += 1;
        "; fatigue +1 with an enemy in the square (8.1)"
    }

    /// Moves brigade `i` in `phase` (GITM 8.1-8.9, 8.11), `order` being the phase's move order.
    pub(super) fn move_brigade(&mut self, i: usize, phase: u8, order: &[usize]) {
        if self.brigades[i].shattered || self.progress[i].halted || self.in_combat(i) {
            return;
        }
        let Some(mut goal) = self.goal(i, phase) else {
            return;
        };
        let id = self.brigades[i].id.clone();
        let side = self.brigades[i].side.clone();
        if self.too_tired(i) {
            self.tell(TacEvent::new(
                "GITM 8.1",
                format!(
                    "{id} does not move: fatigue {} is over {MAX_MOVE_FATIGUE} with an enemy in the square",
                    self.brigades[i].fatigue
                ),
            ).unit(&id).side_only(&side));
            return;
        }
        let start = self.brigades[i].pos;
        // GITM 4.4: where others saw it at the start, at a waypoint passed, and at the end.
        let mut marks = vec![(start, self.seen_by(i))];
        let mut budget = self.brigades[i].kind.tactical_allowance();
        loop {
            let to = match goal {
                Goal::Waypoint(p) | Goal::Destination(p) => p,
                Goal::Engage(j) => self.brigades[j].pos,
            };
            let path = match self.plan(i, to) {
                Ok(p) => p,
                Err(e) => {
                    let at = self.brigades[i].pos;
                    self.tell((*e).unit(&id).at(at).side_only(&side));
                    break;
                }
            };
            let stopped = self.walk(i, &path, &mut budget, phase, order);
            if stopped || self.brigades[i].pos != to {
                break;
            }
            match goal {
                Goal::Waypoint(w) => {
                    self.progress[i].waypoint_done = true;
                    if w != start {
                        marks.push((w, self.seen_by(i)));
                    }
                    match self.goal(i, phase) {
                        Some(g) if budget > 0 => goal = g,
                        _ => break,
                    }
                }
                Goal::Destination(_) => {
                    self.progress[i].arrived_in = Some(phase);
                    break;
                }
                Goal::Engage(_) => break,
            }
        }
        let end = self.brigades[i].pos;
        if end != start {
            let mut text = match goal {
                Goal::Engage(j) => format!(
                    "{id} moves {start} to {end}, engaging {} (8.8)",
                    self.brigades[j].id
                ),
                _ => format!("{id} moves {start} to {end}"),
            };
            text.push_str(self.pay_move(i));
            self.tell(
                TacEvent::new("GITM 8.2", text)
                    .unit(&id)
                    .at(end)
                    .side_only(&side),
            );
            if marks.last().map(|m| m.0) != Some(end) {
                marks.push((end, self.seen_by(i)));
            }
            self.tell_seen_move(&id, &marks);
        }
    }

    /// GITM 4.4: a tactical move told to the sides not friendly to the mover by what their brigades
    /// saw (4.2) of each leg (a move through a waypoint is two): both ends, the whole leg; the end
    /// alone, the arrival; the start alone, the departure; neither, nothing.
    fn tell_seen_move(&mut self, id: &str, marks: &[(Pos, BTreeSet<String>)]) {
        for leg in marks.windows(2) {
            let ((a, seen_a), (b, seen_b)) = (&leg[0], &leg[1]);
            let both: BTreeSet<String> = seen_a.intersection(seen_b).cloned().collect();
            let end: BTreeSet<String> = seen_b.difference(seen_a).cloned().collect();
            let start: BTreeSet<String> = seen_a.difference(seen_b).cloned().collect();
            for (sides, text) in [
                (both, format!("{id} is seen moving {a} to {b}")),
                (
                    end,
                    format!("{id} is seen arriving at {b}; where it came from was not seen"),
                ),
                (
                    start,
                    format!("{id} is seen leaving {a}; where it went was not seen"),
                ),
            ] {
                if !sides.is_empty() {
                    self.tell(
                        TacEvent::new("GITM 4.4", text)
                            .unit(id)
                            .at(*b)
                            .told_to(sides),
                    );
                }
            }
        }
    }

    /// Walks brigade `i` along `path` while it has squares left this phase; `true` when something
    /// stopped it (GITM 8.3, 8.4, 8.11, 2.5).
    fn walk(
        &mut self,
        i: usize,
        path: &[Pos],
        budget: &mut u32,
        phase: u8,
        order: &[usize],
    ) -> bool {
        let id = self.brigades[i].id.clone();
        let reach = path.len().min(*budget as usize);
        // GITM 8.3: a move that would meet a neutral brigade is not made at all.
        if let Some(&q) = path[..reach].iter().find(|&&q| {
            self.at(q)
                .iter()
                .any(|&j| self.relation(i, j) == Relation::Neutral)
        }) {
            let n = self.ids_at(q).join(", ");
            let side = self.brigades[i].side.clone();
            self.tell(
                TacEvent::new(
                    "GITM 8.3",
                    format!("{id} does not move: its path meets the neutral {n} at {q}"),
                )
                .unit(&id)
                .at(q)
                .side_only(&side),
            );
            return true;
        }
        for &q in &path[..reach] {
            // GITM 8.4, 2.5: a besieged city and a full square are not entered: the move stops short.
            if let Some(e) = self.entry_barred(i, q, "") {
                self.tell(e);
                return true;
            }
            let here = self.at(q);
            let hostile: Vec<usize> = here
                .iter()
                .copied()
                .filter(|&j| self.relation(i, j) == Relation::Hostile)
                .collect();
            if !hostile.is_empty() {
                let names: Vec<String> = hostile
                    .iter()
                    .map(|&j| self.brigades[j].id.clone())
                    .collect();
                let b = &self.brigades[i];
                if b.order.attack == Posture::Evade || !b.is_combat() {
                    let why = if b.order.attack == Posture::Evade {
                        "evade posture"
                    } else {
                        "cannot fight"
                    };
                    let (at, side) = (self.brigades[i].pos, self.brigades[i].side.clone());
                    self.tell(
                        TacEvent::new(
                            "GITM 8.3",
                            format!(
                                "{id} ({why}) halts one square short of {} at {q}",
                                names.join(", ")
                            ),
                        )
                        .unit(&id)
                        .at(at)
                        .side_only(&side),
                    );
                    self.progress[i].halted = true;
                    return true;
                }
                let from = self.brigades[i].pos;
                self.brigades[i].pos = q;
                self.begin_combat(i, q, from);
                for &j in &hostile {
                    self.progress[j].halted = true;
                }
                self.tell(
                    TacEvent::new(
                        "GITM 8.3",
                        format!(
                            "{id} meets {} at {q}: both halt and a combat begins",
                            names.join(", ")
                        ),
                    )
                    .unit(&id)
                    .units(names.iter().map(String::as_str))
                    .at(q),
                );
                *budget -= 1;
                return true;
            }
            *budget -= 1;
            // GITM 8.11: a move of one square cannot be intercepted.
            if self.step(i, q, reach > 1, phase, order) {
                return true;
            }
        }
        false
    }

    /// Puts brigade `i` on `q`; when `interceptable`, lets the intercept boxes it enters act (8.11).
    /// `true` when it was intercepted there.
    fn step(&mut self, i: usize, q: Pos, interceptable: bool, phase: u8, order: &[usize]) -> bool {
        self.brigades[i].pos = q;
        interceptable && self.intercept(i, q, phase, order)
    }

    /// GITM 8.3, 9.4: brigade `i`, come from `from`, begins or joins a combat at `q`.
    pub(super) fn begin_combat(&mut self, i: usize, q: Pos, from: Pos) {
        self.progress[i].halted = true;
        let side = self.brigades[i].side.clone();
        let came_from = {
            let (dx, dy) = q.delta(from);
            Dir::of(dx, dy)
        };
        let attack = self
            .battles
            .entry(q)
            .or_insert_with(|| super::field::Attack {
                side: side.clone(),
                from: BTreeSet::new(),
            });
        if self.relations.between(&attack.side, &side) == Relation::Friendly {
            attack.from.extend(came_from);
        }
    }

    /// GITM 8.12: in a peace or truce turn tactical movement is automatic and unlimited: each
    /// brigade with a destination is placed there when it is passable.
    pub fn peace(&mut self) {
        for i in 0..self.brigades.len() {
            let b = &self.brigades[i];
            let Some(to) = b.order.destination.or(b.order.waypoint) else {
                continue;
            };
            if to == b.pos {
                continue;
            }
            let id = b.id.clone();
            let e = if self.map.terrain(to).passable() {
                let from = b.pos;
                self.brigades[i].pos = to;
                TacEvent::new(
                    "GITM 8.12",
                    format!("peace or truce: {id} moves {from} to {to}, unlimited"),
                )
            } else {
                TacEvent::new(
                    "GITM 8.12",
                    format!(
                        "peace or truce: {id} stays: {to} is {}, impassable (2.2)",
                        self.map.terrain(to).name()
                    ),
                )
            };
            // GITM 4.4 is for campaigns: a peace or truce move is told to its side.
            let side = self.brigades[i].side.clone();
            self.tell(e.unit(&id).at(to).side_only(&side));
        }
    }
}
