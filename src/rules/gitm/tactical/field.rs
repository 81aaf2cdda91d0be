//! One tactical map through the tactical phases of a turn: its brigades, what each has done of its
//! order, the combats in progress and the events. `phase` runs one tactical phase (GITM 5.2, 8.6,
//! 9.1); `peace` the single move of a peace or truce turn (8.12).

use std::collections::{BTreeMap, BTreeSet};

use super::dice::TacDice;
use super::event::TacEvent;
use super::map::{Dir, Pos, TacMap, SIZE};
use super::unit::{Relation, Relations, TacBrigade};

/// The last tactical phase of a turn, which has no combat (GITM 5.2).
pub const LAST_PHASE: u8 = 5;

/// What a brigade has done of its order so far this turn, and this phase.
#[derive(Debug, Clone, Default)]
pub(super) struct Progress {
    /// GITM 8.2: it has gone through its waypoint.
    pub waypoint_done: bool,
    /// GITM 8.8: the phase it reached its destination in.
    pub arrived_in: Option<u8>,
    /// GITM 8.8: it failed a morale check and engages no more.
    pub engage_off: bool,
    /// This phase: halted by a combat (8.3) or an interception (8.11).
    pub halted: bool,
    /// This phase: it has intercepted (8.11), once a phase.
    pub intercepted: bool,
    /// This phase: it has paid 8.1's fatigue for moving with an enemy present (once a phase, be
    /// the move its own, a support or an interception).
    pub paid: bool,
}

/// What a turn keeps of a map between its tactical phases, when the map's brigades are made anew
/// each phase (the turn's hook): each brigade's progress by unit ID, and the combats begun.
#[derive(Debug, Clone, Default)]
pub struct Memory {
    pub(super) progress: BTreeMap<String, Progress>,
    pub battles: BTreeMap<Pos, Attack>,
}

/// Who attacked into a square and from which directions (GITM 8.3, 9.4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attack {
    /// The side of the brigade that began the combat: its friends attack, its enemies defend.
    pub side: String,
    /// The directions the attackers came from (9.4's frontage).
    pub from: BTreeSet<Dir>,
}

/// A tactical map and its brigades through one turn.
pub struct Field<'a> {
    pub map: &'a TacMap,
    pub relations: &'a Relations,
    pub(super) brigades: Vec<TacBrigade>,
    pub(super) progress: Vec<Progress>,
    /// GITM 8.7: the side of rivers and ranges of each square (`TacMap::sides`).
    pub(super) sides: Vec<Option<u16>>,
    /// Combats begun, by square: who attacked and from where.
    pub battles: BTreeMap<Pos, Attack>,
    /// Men lost by each brigade this turn.
    pub losses: BTreeMap<String, u32>,
    pub events: Vec<TacEvent>,
}

impl<'a> Field<'a> {
    pub fn new(map: &'a TacMap, relations: &'a Relations, brigades: Vec<TacBrigade>) -> Self {
        let progress = vec![Progress::default(); brigades.len()];
        Field {
            map,
            relations,
            brigades,
            progress,
            sides: map.sides(),
            battles: BTreeMap::new(),
            losses: BTreeMap::new(),
            events: Vec::new(),
        }
    }

    /// Takes up what an earlier phase of the turn left (`memory`): progress by unit ID, combats.
    pub fn restore(&mut self, memory: &Memory) {
        for (b, p) in self.brigades.iter().zip(self.progress.iter_mut()) {
            if let Some(m) = memory.progress.get(&b.id) {
                *p = m.clone();
            }
        }
        self.battles = memory.battles.clone();
    }

    /// What the next phase of the turn needs of this one ([`restore`](Self::restore)).
    pub fn memory(&self) -> Memory {
        Memory {
            progress: self
                .brigades
                .iter()
                .zip(&self.progress)
                .map(|(b, p)| (b.id.clone(), p.clone()))
                .collect(),
            battles: self.battles.clone(),
        }
    }

    pub fn brigades(&self) -> &[TacBrigade] {
        &self.brigades
    }

    pub fn brigade(&self, id: &str) -> Option<&TacBrigade> {
        self.brigades.iter().find(|b| b.id == id)
    }

    /// A brigade that arrives on the map between phases (GITM 5.2's strategic phase, 7.13).
    pub fn add(&mut self, b: TacBrigade) {
        self.brigades.push(b);
        self.progress.push(Progress::default());
    }

    /// The brigades and the events, when the turn is done with the map.
    pub fn finish(self) -> (Vec<TacBrigade>, Vec<TacEvent>, BTreeMap<String, u32>) {
        (self.brigades, self.events, self.losses)
    }

    /// The label prefix of the dice of this map and phase.
    pub(super) fn label(&self, phase: u8) -> String {
        format!("gitm/tac/{}/phase={phase}", self.map.square)
    }

    pub(super) fn relation(&self, i: usize, j: usize) -> Relation {
        self.relations
            .between(&self.brigades[i].side, &self.brigades[j].side)
    }

    /// Brigades that count on the map: not shattered.
    pub(super) fn active(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.brigades.len()).filter(|&i| !self.brigades[i].shattered)
    }

    /// The active brigades at `p`.
    pub(super) fn at(&self, p: Pos) -> Vec<usize> {
        self.active()
            .filter(|&i| self.brigades[i].pos == p)
            .collect()
    }

    /// GITM 8.1, 8.5: an active enemy of brigade `i` is on this map (a neutral counts for 8.5 only
    /// in its home nation or one it is actively allied with, `Relations::neutral_at_home`).
    pub(super) fn enemy_present(&self, i: usize) -> bool {
        self.active().any(|j| match self.relation(i, j) {
            Relation::Hostile => true,
            Relation::Neutral => self.relations.neutral_at_home(&self.brigades[j].side),
            Relation::Friendly => false,
        })
    }

    /// GITM 9.1: the squares where active brigades hostile to one another stand, in order.
    pub fn combat_squares(&self) -> Vec<Pos> {
        let squares: BTreeSet<Pos> = self.active().map(|i| self.brigades[i].pos).collect();
        squares
            .into_iter()
            .filter(|&p| {
                let here = self.at(p);
                here.iter().any(|&i| {
                    here.iter()
                        .any(|&j| self.relation(i, j) == Relation::Hostile)
                })
            })
            .collect()
    }

    /// Whether brigade `i` stands in a square with an active enemy (9.1).
    pub(super) fn in_combat(&self, i: usize) -> bool {
        let p = self.brigades[i].pos;
        self.at(p)
            .into_iter()
            .any(|j| self.relation(i, j) == Relation::Hostile)
    }

    /// GITM 8.7: the sides of rivers and ranges a square touches: its own; a ford's or pass's, those
    /// of the squares around it; none for an impassable square.
    pub(super) fn sides_of(&self, p: Pos) -> BTreeSet<u16> {
        let side = |q: Pos| self.sides[usize::from(q.row) * usize::from(SIZE) + usize::from(q.col)];
        match side(p) {
            Some(s) => BTreeSet::from([s]),
            None if self.map.terrain(p).crossing() => p.neighbours().filter_map(side).collect(),
            None => BTreeSet::new(),
        }
    }

    /// GITM 8.7: two squares on one side of every river and range (a ford or pass on both).
    pub(super) fn same_side(&self, a: Pos, b: Pos) -> bool {
        !self.sides_of(a).is_disjoint(&self.sides_of(b))
    }

    /// GITM 8.6: the order brigades move in this phase: the fast units (LC, MC, LA) first, then the
    /// others, each group in an order drawn anew each phase.
    pub(super) fn move_order(&mut self, phase: u8, dice: &mut dyn TacDice) -> Vec<usize> {
        let label = self.label(phase);
        let mut order = Vec::new();
        let mut text = Vec::new();
        let mut rolls = Vec::new();
        for (fast, name) in [(true, "fast"), (false, "slow")] {
            let group: Vec<usize> = self
                .active()
                .filter(|&i| self.brigades[i].kind.is_fast() == fast)
                .collect();
            if group.is_empty() {
                continue;
            }
            let l = format!("{label}/order/{name}");
            let drawn: Vec<usize> = if group.len() > 1 {
                rolls.push(l.clone());
                let perm = dice.shuffle(&l, group.len());
                perm.into_iter().map(|k| group[k]).collect()
            } else {
                group
            };
            text.push(format!(
                "{} {}",
                if fast {
                    "fast units"
                } else {
                    "then the others"
                },
                drawn
                    .iter()
                    .map(|&i| self.brigades[i].id.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
            order.extend(drawn);
        }
        if order.is_empty() {
            return order;
        }
        let mut e = TacEvent::new(
            "GITM 8.6",
            format!(
                "tactical phase {phase} at {}: fast units move first, each group in a drawn order: {}",
                self.map.square,
                text.join("; ")
            ),
        );
        for l in rolls {
            e = e.roll(&l);
        }
        // GITM 4.4, 4.6: the drawn order names brigades a side may not see: the referee's alone.
        self.tell(e.told_to(BTreeSet::new()));
        order
    }

    /// One tactical phase (GITM 5.2): movement in the drawn order (8.1-8.9, 8.11), then support
    /// (8.10), then combat (9.1); in the last phase no combat, but each side's sighting (4.2).
    pub fn phase(&mut self, phase: u8, dice: &mut dyn TacDice) {
        for p in &mut self.progress {
            p.halted = false;
            p.intercepted = false;
            p.paid = false;
        }
        let order = self.move_order(phase, dice);
        for &i in &order {
            self.move_brigade(i, phase, &order);
        }
        self.support(phase, &order);
        if phase < LAST_PHASE {
            self.combat(phase, dice);
            // A combat that is over is forgotten: a new one there has its own attacker.
            let live: BTreeSet<Pos> = self.combat_squares().into_iter().collect();
            self.battles.retain(|p, _| live.contains(p));
        } else {
            self.sighting_events();
            for p in self.combat_squares() {
                let ids = self.ids_at(p);
                self.tell(
                    TacEvent::new(
                        "GITM 5.2",
                        format!(
                            "the final tactical phase has no combat: {} stand together at {p}",
                            ids.join(", ")
                        ),
                    )
                    .at(p)
                    .units(ids.iter().map(String::as_str)),
                );
            }
        }
    }

    /// Writes an event, deciding who is told of it when it does not say (GITM 4.4, 4.6): the sides
    /// of the brigades it names and of those standing where it happens, and every side whose
    /// brigades sight one of them now (4.2). An event that names no brigade and no square is the
    /// referee's alone.
    pub(super) fn tell(&mut self, mut e: TacEvent) {
        if e.told.is_none() {
            e.told = Some(self.audience(&e));
        }
        self.events.push(e);
    }

    /// The sides an event is told to when it does not say ([`Field::tell`]).
    fn audience(&self, e: &TacEvent) -> BTreeSet<String> {
        let mut look: Vec<usize> = e
            .units
            .iter()
            .filter_map(|id| self.brigades.iter().position(|b| &b.id == id))
            .collect();
        if let Some(q) = e.at {
            look.extend(self.at(q));
        }
        let mut sides = BTreeSet::new();
        for j in look {
            sides.insert(self.brigades[j].side.clone());
            sides.extend(self.seen_by(j));
        }
        sides
    }

    /// GITM 2.5, 4.1, 4.2, 4.6: an event that gives the figures of brigades (their men, losses,
    /// strengths, morale) told whole only to the sides `whole_to` (and the sides friendly to them:
    /// the brigades' own side sees its figures, 1.4), and to every other side it would be told to
    /// ([`Field::tell`]) in the words of the first of `parts` meant for it (a part's sides and
    /// those friendly to them; `None`, every side left): a side sees the other sides' brigades on
    /// the tactical map, their identity, never their figures. Each side is told one of them, never
    /// two, and never a text cut from another; a part that is the whole's own text is not needed,
    /// and whole is then told to all. `whole_to` empty: the whole is the referee's alone.
    pub(super) fn tell_parts(
        &mut self,
        mut whole: TacEvent,
        whole_to: &BTreeSet<String>,
        parts: Vec<(Option<BTreeSet<String>>, TacEvent)>,
    ) {
        let mut left = self.audience(&whole);
        if parts.iter().all(|(_, p)| p.text == whole.text) {
            whole.told = Some(left);
            self.events.push(whole);
            return;
        }
        let take = |left: &mut BTreeSet<String>, sides: Option<&BTreeSet<String>>| {
            let taken: BTreeSet<String> = left
                .iter()
                .filter(|a| {
                    sides.is_none_or(|s| {
                        s.iter()
                            .any(|b| self.relations.between(a, b) == Relation::Friendly)
                    })
                })
                .cloned()
                .collect();
            left.retain(|a| !taken.contains(a));
            taken
        };
        whole.told = Some(take(&mut left, Some(whole_to)));
        let mut told = vec![whole];
        for (sides, mut part) in parts {
            let to = take(&mut left, sides.as_ref());
            if !to.is_empty() {
                part.told = Some(to);
                told.push(part);
            }
        }
        self.events.extend(told);
    }

    pub(super) fn ids_at(&self, p: Pos) -> Vec<String> {
        self.at(p)
            .into_iter()
            .map(|i| self.brigades[i].id.clone())
            .collect()
    }

    /// GITM 8.8, 9.2 (pbem's way): brigade `i` falls back one square: to the square around it,
    /// passable, on its side of rivers (8.7), free of brigades not its friends, farthest from its
    /// nearest enemy, then nearest its nearest friend elsewhere; `None` when there is none.
    pub(super) fn fall_back(&mut self, i: usize) -> Option<Pos> {
        let from = self.brigades[i].pos;
        let enemies: Vec<Pos> = self
            .active()
            .filter(|&j| self.relation(i, j) == Relation::Hostile)
            .map(|j| self.brigades[j].pos)
            .collect();
        let friends: Vec<Pos> = self
            .active()
            .filter(|&j| j != i && self.relation(i, j) == Relation::Friendly)
            .map(|j| self.brigades[j].pos)
            .filter(|&p| p != from)
            .collect();
        let best = from
            .neighbours()
            .filter(|&q| self.map.terrain(q).passable() && self.same_side(from, q))
            .filter(|&q| {
                self.at(q)
                    .iter()
                    .all(|&j| self.relation(i, j) == Relation::Friendly)
            })
            .map(|q| {
                let d = enemies.iter().map(|&e| e.distance(q)).min().unwrap_or(99);
                let f = friends.iter().map(|&e| e.distance(q)).min().unwrap_or(99);
                (std::cmp::Reverse(d), f, q)
            })
            .min()
            .map(|(_, _, q)| q)?;
        self.brigades[i].pos = best;
        Some(best)
    }

    /// Men lost by brigade `i`, counted for the turn.
    pub(super) fn lose(&mut self, i: usize, men: u32) -> u32 {
        let b = &mut self.brigades[i];
        let lost = men.min(b.men);
        b.men -= lost;
        *self.losses.entry(b.id.clone()).or_insert(0) += lost;
        lost
    }
}
