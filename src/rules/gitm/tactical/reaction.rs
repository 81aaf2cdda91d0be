//! Reactions (GITM 6.5): interception of a brigade moving through an intercept box (8.11), and
//! support of a combat inside a support box after the phase's other moves (8.10). Both are tactical
//! moves: a brigade above 8 fatigue with an enemy present makes neither, and one that does pays 8.1's
//! fatigue for the phase.

use super::event::TacEvent;
use super::field::Field;
use super::map::Pos;
use super::unit::{Posture, Relation};

impl Field<'_> {
    /// Whether brigade `j` may intercept brigade `mover` at `q` in `phase` (GITM 8.11): an active
    /// combat brigade not halted, not in a combat, not in evade posture, that has not intercepted this
    /// phase nor failed a morale check this turn (pbem reads 8.8's "ceases to engage" as covering
    /// interception, which is an engagement), whose intercept box acts in the phase and holds `q`; `mover` its enemy, or a neutral
    /// while `j`'s own state controls the square.
    fn may_intercept(&self, j: usize, mover: usize, q: Pos, phase: u8) -> bool {
        let b = &self.brigades[j];
        let Some(bx) = b.order.intercept else {
            return false;
        };
        let rel = self.relation(j, mover);
        j != mover
            && b.is_combat()
            && !self.progress[j].halted
            && !self.progress[j].intercepted
            && !self.progress[j].engage_off
            && b.order.attack != Posture::Evade
            && bx.acts_in(phase)
            && bx.contains(q)
            && !self.in_combat(j)
            && !self.too_tired(j)
            && (rel == Relation::Hostile
                || (rel == Relation::Neutral && self.relations.at_home.contains(&b.side)))
    }

    /// GITM 8.11: brigade `mover` has just stepped onto `q`. The brigades whose intercept box holds
    /// `q` react, in the phase's move order: the first that can reach `q` within its allowance fixes
    /// the point of interception there and the others that can reach it join it; an enemy so
    /// intercepted fights there (a combat begins), a neutral only halts. One that cannot reach it
    /// moves its allowance toward it and does not intercept. Each brigade tries once a phase, at the
    /// first square of its box the mover steps onto: barred or too far there, it tries no later point
    /// of contact (pbem's reading of 8.11's "first possible point of contact", which the seed leaves
    /// undefined). `true` when `mover` was intercepted.
    pub(super) fn intercept(&mut self, mover: usize, q: Pos, phase: u8, order: &[usize]) -> bool {
        let candidates: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&j| self.may_intercept(j, mover, q, phase))
            .collect();
        let mut caught = false;
        let mover_id = self.brigades[mover].id.clone();
        for j in candidates {
            let id = self.brigades[j].id.clone();
            let allowance = self.brigades[j].kind.tactical_allowance();
            let from = self.brigades[j].pos;
            let path = match self.plan(j, q) {
                Ok(p) => p,
                Err(e) => {
                    self.progress[j].intercepted = true;
                    let side = self.brigades[j].side.clone();
                    self.tell(
                        TacEvent::new(
                            "GITM 8.11",
                            format!("{id} cannot intercept {mover_id} at {q}: {}", e.text),
                        )
                        .unit(&id)
                        .at(q)
                        .side_only(&side),
                    );
                    continue;
                }
            };
            // The way to the point must be clear of brigades that are not its friends.
            let clear = path[..path.len().saturating_sub(1)].iter().all(|&p| {
                self.at(p)
                    .iter()
                    .all(|&k| self.relation(j, k) == Relation::Friendly)
            });
            self.progress[j].intercepted = true;
            if !clear {
                continue;
            }
            // GITM 8.4, 2.5: an enemy is intercepted on its square only when the interceptor may
            // enter it (a neutral is halted with the interceptor a square short).
            if self.relation(j, mover) == Relation::Hostile {
                if let Some(e) = self.entry_barred(j, q, "; it does not intercept (8.11)") {
                    self.tell(e);
                    continue;
                }
            }
            if path.len() as u32 > allowance {
                let limit = path[allowance as usize - 1];
                self.brigades[j].pos = limit;
                let paid = self.pay_move(j);
                self.tell(
                    TacEvent::new(
                        "GITM 8.11",
                        format!(
                            "{id} moves to intercept {mover_id} at {q} but it lies beyond its {allowance} squares: it moves {from} to {limit} and does not intercept{paid}"
                        ),
                    )
                    .unit(&id)
                    .at(limit),
                );
                continue;
            }
            let neutral = self.relation(j, mover) == Relation::Neutral;
            self.progress[mover].halted = true;
            self.progress[j].halted = true;
            if neutral {
                // A neutral is halted at the point; the interceptor stands a square short of it.
                let short = if path.len() >= 2 {
                    path[path.len() - 2]
                } else {
                    from
                };
                self.brigades[j].pos = short;
                let paid = if short == from { "" } else { self.pay_move(j) };
                self.tell(
                    TacEvent::new(
                        "GITM 8.11",
                        format!(
                            "{id} intercepts the neutral {mover_id} at {q}: it halts there, no combat; {id} stands at {short}{paid}"
                        ),
                    )
                    .unit(&id)
                    .unit(&mover_id)
                    .at(q),
                );
            } else {
                let last = if path.len() >= 2 {
                    path[path.len() - 2]
                } else {
                    from
                };
                self.brigades[j].pos = q;
                self.begin_combat(j, q, last);
                let paid = self.pay_move(j);
                self.tell(
                    TacEvent::new(
                        "GITM 8.11",
                        format!(
                            "{id} intercepts {mover_id} at {q} (moving {from} to {q}): {mover_id} halts and a combat begins{paid}"
                        ),
                    )
                    .unit(&id)
                    .unit(&mover_id)
                    .at(q),
                );
            }
            caught = true;
        }
        caught
    }

    /// GITM 8.10: after the other moves of the phase, each brigade with a support box acting in the
    /// phase joins the nearest combat of its friends inside the box (equally near: the one where the
    /// odds against its side are worst, by men; then the first square), when within two squares
    /// (three for LC, MC and LA), and when it may enter the square (8.4's besieged city, 2.5's
    /// limits).
    pub(super) fn support(&mut self, phase: u8, order: &[usize]) {
        for &i in order {
            let b = &self.brigades[i];
            let Some(bx) = b.order.support else {
                continue;
            };
            if b.shattered
                || !b.is_combat()
                || self.progress[i].halted
                || !bx.acts_in(phase)
                || self.in_combat(i)
            {
                continue;
            }
            let from = b.pos;
            let mut best: Option<(u32, u64, u64, Pos)> = None;
            for q in self.combat_squares() {
                if !bx.contains(q) {
                    continue;
                }
                let (mut friends, mut enemies) = (0u64, 0u64);
                for k in self.at(q) {
                    let men = u64::from(self.brigades[k].men);
                    match self.relation(i, k) {
                        Relation::Friendly if self.brigades[k].is_combat() => friends += men,
                        Relation::Hostile => enemies += men,
                        _ => {}
                    }
                }
                if friends == 0 {
                    continue;
                }
                let d = from.distance(q);
                // Worse odds: friends / enemies smaller; compared by cross products.
                let better = match best {
                    None => true,
                    Some((bd, bf, be, _)) => d < bd || (d == bd && friends * be < bf * enemies),
                };
                if better {
                    best = Some((d, friends, enemies, q));
                }
            }
            let Some((d, _, _, q)) = best else {
                continue;
            };
            let id = self.brigades[i].id.clone();
            let reach = self.brigades[i].kind.support_reach();
            if d > reach {
                let side = self.brigades[i].side.clone();
                self.tell(
                    TacEvent::new(
                        "GITM 8.10",
                        format!(
                            "{id} does not support the combat at {q}: {d} squares away, more than its {reach}"
                        ),
                    )
                    .unit(&id)
                    .at(from)
                    .side_only(&side),
                );
                continue;
            }
            // GITM 8.4, 2.5: a besieged city and a full square are not joined.
            if let Some(e) =
                self.entry_barred(i, q, "; it does not support the combat there (8.10)")
            {
                self.tell(e);
                continue;
            }
            // GITM 8.1: a support is a tactical move, and there is an enemy in the square.
            if self.too_tired(i) {
                let side = self.brigades[i].side.clone();
                self.tell(
                    TacEvent::new(
                        "GITM 8.1",
                        format!(
                            "{id} does not support the combat at {q}: fatigue {} is over {} with an enemy in the square",
                            self.brigades[i].fatigue,
                            super::movement::MAX_MOVE_FATIGUE
                        ),
                    )
                    .unit(&id)
                    .at(from)
                    .side_only(&side),
                );
                continue;
            }
            let path = match self.plan(i, q) {
                Ok(p) => p,
                Err(e) => {
                    let side = self.brigades[i].side.clone();
                    self.tell((*e).unit(&id).at(from).side_only(&side));
                    continue;
                }
            };
            let last = if path.len() >= 2 {
                path[path.len() - 2]
            } else {
                from
            };
            self.brigades[i].pos = q;
            self.begin_combat(i, q, last);
            let paid = if q == from { "" } else { self.pay_move(i) };
            self.tell(
                TacEvent::new(
                    "GITM 8.10",
                    format!(
                        "{id} moves {from} to {q} to support the combat there (box {} radius {}){paid}",
                        bx.centre, bx.radius
                    ),
                )
                .unit(&id)
                .at(q),
            );
        }
    }
}
