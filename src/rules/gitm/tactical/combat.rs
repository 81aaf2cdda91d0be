//! Combat at the end of a tactical phase (GITM 9.1-9.5) with pbem's own fire, melee, casualties,
//! morale checks and shattering (`tables.rs`, pbem's, not the seed's).

use std::collections::BTreeSet;

use super::dice::TacDice;
use super::event::TacEvent;
use super::field::{Attack, Field};
use super::lines::{artillerists, assign_lines, formation, forms_squares, frontage, place};
use super::map::Pos;
use super::tables as t;
use super::unit::{Branch, Formation, Kind, Line, Relation, TacBrigade};
use crate::engine::binding::told_face;
use crate::rules::wording::men;

/// One side of a combat: its brigades and the men of each in the front line.
struct Side {
    members: Vec<usize>,
    lines: Vec<Line>,
    front: Vec<u32>,
    attacking: bool,
    /// pbem GITM-T7: the defensive rating of each member inside a fort (`None` outside one).
    fort: Vec<Option<u64>>,
}

/// The words of a combat event for a side's brigades inside a fort (pbem GITM-T7).
fn fort_words(s: &Side) -> String {
    match s.fort.iter().flatten().next() {
        Some(r) => format!(", the garrison at the fort's rating {r} (pbem GITM-T7)"),
        None => String::new(),
    }
}

impl Field<'_> {
    /// GITM 9.1: every square where enemies stand together at the end of the phase has a combat.
    pub(super) fn combat(&mut self, phase: u8, dice: &mut dyn TacDice) {
        for q in self.combat_squares() {
            self.battle(q, phase, dice);
        }
    }

    /// The combat at `q` (GITM 9.1-9.5, pbem GITM-T1 to T6).
    fn battle(&mut self, q: Pos, phase: u8, dice: &mut dyn TacDice) {
        let label = format!("{}/combat={q}", self.label(phase));
        let here = self.at(q);
        // Without a recorded attack (brigades placed together), the side of the first unit ID attacks.
        let attack = self.battles.get(&q).cloned().unwrap_or_else(|| {
            let first = here
                .iter()
                .min_by(|&&a, &&b| self.brigades[a].id.cmp(&self.brigades[b].id))
                .copied()
                .unwrap_or(0);
            Attack {
                side: self.brigades[first].side.clone(),
                from: Default::default(),
            }
        });
        let side_of = |f: &Field, rel: Relation| -> Vec<usize> {
            f.at(q)
                .into_iter()
                .filter(|&i| f.relations.between(&attack.side, &f.brigades[i].side) == rel)
                .collect()
        };
        // GITM 9.2: headquarters do not fight; they may shatter, else fall back.
        for i in side_of(self, Relation::Friendly)
            .into_iter()
            .chain(side_of(self, Relation::Hostile))
        {
            if self.brigades[i].kind.is_hq() {
                self.headquarters_attacked(i, q, dice, &label);
            }
        }
        let combatants = |f: &Field, rel| -> Vec<usize> {
            side_of(f, rel)
                .into_iter()
                .filter(|&i| f.brigades[i].is_combat())
                .collect()
        };
        let (att, def) = (
            combatants(self, Relation::Friendly),
            combatants(self, Relation::Hostile),
        );
        if att.is_empty() || def.is_empty() {
            return;
        }
        let width = frontage(&attack.from);
        let dirs: Vec<&str> = attack.from.iter().map(|d| d.name()).collect();
        let garrison = self.garrison(q, &def);
        let mut a = self.deploy(att, true, width, dice, &format!("{label}/lines/attacker"));
        let mut d = self.deploy(def, false, width, dice, &format!("{label}/lines/defender"));
        if let Some(f) = self.map.fort(q) {
            let rating = u64::from(t::fort_rating(self.map.rating(q), f.strength));
            d.fort = d
                .members
                .iter()
                .map(|i| garrison.contains(i).then_some(rating))
                .collect();
        }
        self.tell(
            TacEvent::new(
                "GITM 9.4",
                format!(
                    "combat at {q}: the attackers ({}) came from {}: a front line of {width} spaces a side",
                    attack.side,
                    if dirs.is_empty() {
                        "one direction".to_string()
                    } else {
                        dirs.join(", ")
                    }
                ),
            )
            .at(q)
            .kind("combat"),
        );
        // GITM 9.5: infantry attacked by a force mostly of cavalry forms squares.
        let squares = forms_squares(&self.front_of(&a));
        for &i in &d.members {
            self.brigades[i].formation = formation(&self.brigades[i], squares);
        }
        for &i in &a.members {
            self.brigades[i].formation = Formation::Line;
        }
        if squares {
            self.tell(
                TacEvent::new(
                    "GITM 9.5",
                    format!("the infantry at {q} forms squares against a mostly cavalry attack"),
                )
                .at(q),
            );
        }
        let before: Vec<(usize, u32)> = a
            .members
            .iter()
            .chain(&d.members)
            .map(|&i| (i, self.brigades[i].men))
            .collect();
        self.fire(q, &a, &d, dice, &label);
        // GITM 9.4: the rear refills the front line after the firing segment.
        self.refill(&mut a, width);
        self.refill(&mut d, width);
        let (column, attackers_won) = self.melee(q, &a, &d, dice, &label);
        let winner = if attackers_won { &a } else { &d };
        let mut sides: Vec<String> = winner
            .members
            .iter()
            .map(|&i| self.brigades[i].side.clone())
            .collect();
        sides.dedup();
        self.tell(TacEvent::result("pbem GITM-T4", &sides.join(" and "), q));
        self.after_combat(q, &a, &d, column, attackers_won, &before, dice, &label);
    }

    /// GITM 9.3, 9.4: the lines and front-line men of one side.
    fn deploy(
        &mut self,
        members: Vec<usize>,
        attacking: bool,
        width: u32,
        dice: &mut dyn TacDice,
        label: &str,
    ) -> Side {
        let refs: Vec<&TacBrigade> = members.iter().map(|&i| &self.brigades[i]).collect();
        let mut events = Vec::new();
        let lines = assign_lines(&refs, dice, label, &mut events);
        let placed = place(&refs, &lines, width);
        let front: Vec<u32> = placed.iter().map(|p| p.front).collect();
        let ids: Vec<String> = refs.iter().map(|b| b.id.clone()).collect();
        let own: BTreeSet<String> = refs.iter().map(|b| b.side.clone()).collect();
        let first = refs.first().map(|b| (b.side.clone(), b.pos));
        for e in events {
            self.tell(e);
        }
        if let Some((side, q)) = first {
            // The lines as the side's own see them (with the men of a brigade that does not fit
            // in its line), and as the others see them (GITM 2.5, 4.2: the brigades, no figure).
            let lines = |figures: bool| {
                let mut text = Vec::new();
                for line in [Line::Front, Line::Second, Line::Rear] {
                    let here: Vec<String> = placed
                        .iter()
                        .filter(|p| p.line == line)
                        .map(|p| {
                            if !figures || p.line == Line::Rear || p.rear == 0 {
                                p.id.clone()
                            } else {
                                format!(
                                    "{} ({}, {} more fighting from the rear)",
                                    p.id,
                                    men(p.front.max(p.second)),
                                    p.rear
                                )
                            }
                        })
                        .collect();
                    if !here.is_empty() {
                        text.push(format!("{}: {}", line.name(), here.join(", ")));
                    }
                }
                text.join("; ")
            };
            let who = if attacking { "attackers" } else { "defenders" };
            let event = |text: String| {
                TacEvent::new(
                    "GITM 9.3",
                    format!("the {who} at {q} ({side}) form their battle lines: {text}"),
                )
                .at(q)
                .units(ids.iter().map(String::as_str))
            };
            let whole = event(lines(true));
            let seen = event(format!(
                "{} (GITM 4.2: their brigades are seen, not their men)",
                lines(false)
            ));
            if lines(true) == lines(false) {
                self.tell(whole);
            } else {
                self.tell_parts(whole, &own, vec![(None, seen)]);
            }
        }
        Side {
            front,
            fort: vec![None; members.len()],
            members,
            lines,
            attacking,
        }
    }

    fn refill(&self, s: &mut Side, width: u32) {
        let refs: Vec<&TacBrigade> = s.members.iter().map(|&i| &self.brigades[i]).collect();
        s.front = place(&refs, &s.lines, width)
            .iter()
            .map(|p| p.front)
            .collect();
    }

    fn front_of(&self, s: &Side) -> Vec<(&TacBrigade, u32)> {
        s.members
            .iter()
            .zip(&s.front)
            .map(|(&i, &m)| (&self.brigades[i], m))
            .collect()
    }

    /// pbem GITM-T3: a brigade's percent of strength dealt and of losses taken, by its posture.
    fn posture(&self, i: usize, attacking: bool) -> (u32, u32) {
        let o = &self.brigades[i].order;
        t::posture_percent(if attacking { o.attack } else { o.defence })
    }

    fn quality(&self, i: usize) -> u64 {
        let q = usize::from(self.brigades[i].quality.clamp(1, 5)) - 1;
        u64::from(t::QUALITY_PERCENT[q])
    }

    /// pbem GITM-T1, T2 (GITM 9.1's firing segment): each front line fires at the other; both fire
    /// before losses are taken.
    fn fire(&mut self, q: Pos, a: &Side, d: &Side, dice: &mut dyn TacDice, label: &str) {
        let rating = u64::from(self.map.rating(q));
        let mut hits = [0u64; 2];
        let mut faces = [0u32; 2];
        for (k, s) in [a, d].into_iter().enumerate() {
            let mut fire = 0u64; // men hit, in thousandths of a percent scale below
            for (&i, &men) in s.members.iter().zip(&s.front) {
                let b = &self.brigades[i];
                let art = artillerists(b, men);
                let art_rate = if b.kind.branch() == Branch::Artillery {
                    t::fire_per_1000(b.kind)
                } else {
                    t::BATTERY_FIRE_PER_1000
                };
                let mut f = u64::from(men - art) * u64::from(t::fire_per_1000(b.kind))
                    + u64::from(art) * u64::from(art_rate);
                f = f * self.quality(i) / 100 * u64::from(self.posture(i, s.attacking).0) / 100;
                if b.formation == Formation::Square {
                    f = f * u64::from(t::SQUARE_FIRE_PERCENT) / 100;
                }
                fire += f;
            }
            let l = format!(
                "{label}/fire/{}",
                if s.attacking { "attacker" } else { "defender" }
            );
            let face = dice.die(&l, 6);
            faces[k] = face;
            let mut h = fire * u64::from(t::FIRE_DIE_PERCENT[face as usize - 1]) / 100 / 1000;
            if s.attacking {
                h = h * (100 - u64::from(t::RATING_COVER_PERCENT) * rating.min(4)) / 100;
            }
            hits[k] = h;
        }
        let took_d = self.spread(d, hits[0], rating);
        let took_a = self.spread(a, hits[1], rating);
        let (l_a, l_d) = (
            format!("{label}/fire/attacker"),
            format!("{label}/fire/defender"),
        );
        let cover = format!(
            "the square's rating {rating} covers the defenders{}",
            fort_words(d)
        );
        let event = |text: String| {
            TacEvent::new("pbem GITM-T1", format!("firing at {q} (GITM 9.1): {text}")).at(q)
        };
        // Whole, both sides' losses: the referee's. Each side is told its own die and its own
        // losses (GITM 2.5, 4.1, 4.2: never the other side's figures); others, that they fired.
        let (told_a, told_d) = (told_face(&l_a, faces[0]), told_face(&l_d, faces[1]));
        let whole = event(format!(
            "the attackers' fire (d6 {told_a}) hits {took_d} of the defenders, the defenders' (d6 {told_d}) {took_a} of the attackers ({cover})"
        ))
        .roll(&l_a)
        .roll(&l_d);
        let attackers = event(format!(
            "the attackers fire (d6 {told_a}); the defenders' fire hits {took_a} of the attackers ({cover}; what the defenders lost is not seen)"
        ))
        .roll(&l_a);
        let defenders = event(format!(
            "the defenders fire (d6 {told_d}); the attackers' fire hits {took_d} of the defenders ({cover}; what the attackers lost is not seen)"
        ))
        .roll(&l_d);
        let others = event(
            "attackers and defenders fire (what each lost is not seen: GITM 4.1, 4.2)".to_string(),
        );
        let parts = vec![
            (Some(self.powers_of(a)), attackers),
            (Some(self.powers_of(d)), defenders),
            (None, others),
        ];
        self.tell_parts(whole, &BTreeSet::new(), parts);
    }

    /// The sides of the brigades of `s`.
    fn powers_of(&self, s: &Side) -> BTreeSet<String> {
        s.members
            .iter()
            .map(|&i| self.brigades[i].side.clone())
            .collect()
    }

    /// Spreads `hits` over a side's front line in proportion to its men, each brigade taking them by
    /// its posture (pbem GITM-T3) and, inside a fort, the cover of the fort's rating in place of the
    /// square's `rating` (pbem GITM-T7); the men lost.
    fn spread(&mut self, s: &Side, hits: u64, rating: u64) -> u32 {
        let total: u64 = s.front.iter().map(|&m| u64::from(m)).sum();
        if total == 0 {
            return 0;
        }
        let mut lost = 0;
        let cover = |r: u64| 100 - u64::from(t::RATING_COVER_PERCENT) * r.min(5);
        for ((&i, &men), fort) in s.members.iter().zip(&s.front).zip(&s.fort) {
            let mut share = hits * u64::from(men) / total;
            if let Some(r) = fort {
                // The hits came through the square's cover: the fort's replaces it.
                share = share * cover(*r) / cover(rating.min(4));
            }
            let taken = share * u64::from(self.posture(i, s.attacking).1) / 100;
            lost += self.lose(i, taken.min(u64::from(u32::MAX)) as u32);
        }
        lost
    }

    /// pbem GITM-T3, T4 (GITM 9.1's melee segment): the odds column and whether the attackers won.
    fn melee(
        &mut self,
        q: Pos,
        a: &Side,
        d: &Side,
        dice: &mut dyn TacDice,
        label: &str,
    ) -> (usize, bool) {
        let rating = u64::from(self.map.rating(q));
        let cavalry = |f: &Field, s: &Side| {
            s.members
                .iter()
                .zip(&s.front)
                .filter(|(&i, _)| f.brigades[i].kind.branch() == Branch::Cavalry)
                .map(|(_, &m)| u64::from(m))
                .sum::<u64>()
        };
        let bonus = |r: u64| 100 + u64::from(t::RATING_MELEE_PERCENT) * r.min(5);
        let strength = |f: &Field, s: &Side, enemy_cavalry: bool| -> u64 {
            let mut total = 0u64;
            for ((&i, &men), fort) in s.members.iter().zip(&s.front).zip(&s.fort) {
                let b = &f.brigades[i];
                let mut m = u64::from(men) * u64::from(t::melee_tenths(b.kind)) / 10;
                m = m * f.quality(i) / 100 * u64::from(f.posture(i, s.attacking).0) / 100;
                if b.formation == Formation::Square && enemy_cavalry {
                    m = m * u64::from(t::SQUARE_MELEE_PERCENT) / 100;
                }
                if let Some(r) = fort {
                    // pbem GITM-T7: the fort's rating in place of the square's, applied below.
                    m = m * bonus(*r) / bonus(rating.min(4));
                }
                total += m;
            }
            total
        };
        let att = strength(self, a, cavalry(self, d) > 0);
        let def = strength(self, d, cavalry(self, a) > 0) * bonus(rating.min(4)) / 100;
        let column = t::odds_column(att, def);
        let l = format!("{label}/melee");
        let face = dice.die(&l, 6);
        let (pa, pd) = t::MELEE_LOSSES[column][face as usize - 1];
        let loss = |f: &mut Field, s: &Side, pct: u32| -> (u32, u64) {
            let mut lost = 0;
            let mut front = 0u64;
            for (&i, &men) in s.members.iter().zip(&s.front) {
                front += u64::from(men);
                let take = u64::from(men) * u64::from(pct) / 100
                    * u64::from(f.posture(i, s.attacking).1)
                    / 100;
                lost += f.lose(i, take as u32);
            }
            (lost, front)
        };
        let (lost_a, front_a) = loss(self, a, pa);
        let (lost_d, front_d) = loss(self, d, pd);
        // The side that lost the larger share of its front line lost; a tie, the defenders hold.
        let attackers_won = u64::from(lost_d) * front_a.max(1) > u64::from(lost_a) * front_d.max(1);
        let won = if attackers_won {
            "attackers"
        } else {
            "defenders"
        };
        let told = told_face(&l, face);
        let event = |text: String| {
            TacEvent::new("pbem GITM-T4", format!("melee at {q} (GITM 9.1): {text}"))
                .at(q)
                .roll(&l)
        };
        // Whole, both sides' strengths and losses and the odds they make: the referee's. Each
        // side is told its own strength and losses, and the die both fought by (the odds, whose
        // column would give the other's strength, are not told: GITM 4.1, 4.2); others, the die
        // and who won.
        let whole = event(format!(
            "strength {att} against {def}{}, odds {}; the d6 {told}: attackers lose {}, defenders {lost_d}; the {won} win",
            fort_words(d),
            t::ODDS_NAMES[column],
            men(lost_a),
        ));
        let attackers = event(format!(
            "the attackers' strength {att}; the d6 {told}: the attackers lose {}; the {won} win (the defenders' strength and losses are not seen)",
            men(lost_a)
        ));
        let defenders = event(format!(
            "the defenders' strength {def}{}; the d6 {told}: the defenders lose {}; the {won} win (the attackers' strength and losses are not seen)",
            fort_words(d),
            men(lost_d)
        ));
        let others = event(format!(
            "the d6 {told}: the {won} win (their strengths and losses are not seen)"
        ));
        let parts = vec![
            (Some(self.powers_of(a)), attackers),
            (Some(self.powers_of(d)), defenders),
            (None, others),
        ];
        self.tell_parts(whole, &BTreeSet::new(), parts);
        (column, attackers_won)
    }

    /// pbem GITM-T4 to T6 (GITM 3.6, 3.7, 8.8): experience, fatigue and morale after the combat; the
    /// losers' morale checks; falling back and shattering.
    #[allow(clippy::too_many_arguments)]
    fn after_combat(
        &mut self,
        q: Pos,
        a: &Side,
        d: &Side,
        column: usize,
        attackers_won: bool,
        before: &[(usize, u32)],
        dice: &mut dyn TacDice,
        label: &str,
    ) {
        let (winners, losers) = if attackers_won { (a, d) } else { (d, a) };
        for &i in a.members.iter().chain(&d.members) {
            let b = &mut self.brigades[i];
            b.experience += t::EXPERIENCE_BY_COLUMN[column];
            b.fatigue += t::COMBAT_FATIGUE;
        }
        for &i in &winners.members {
            let b = &mut self.brigades[i];
            b.morale = (b.morale + t::MORALE_WIN).min(100);
        }
        for &i in &losers.members {
            let b = &mut self.brigades[i];
            b.morale = b.morale.saturating_sub(t::MORALE_LOSS);
        }
        self.tell(
            TacEvent::new(
                "pbem GITM-T5",
                format!(
                    "after the combat at {q} (GITM 3.6, 3.7): each brigade gains {} experience and {} fatigue; the winners' morale +{}, the losers' -{}",
                    t::EXPERIENCE_BY_COLUMN[column],
                    t::COMBAT_FATIGUE,
                    t::MORALE_WIN,
                    t::MORALE_LOSS
                ),
            )
            .at(q),
        );
        for &i in &losers.members {
            let id = self.brigades[i].id.clone();
            // Its own side is told its figures (men, the morale check's target and roll); the
            // others what they see: it stands, falls back or is shattered (GITM 4.2).
            let own = BTreeSet::from([self.brigades[i].side.clone()]);
            let seen = |text: String| {
                TacEvent::new("pbem GITM-T6", format!("{text} (its figures are not seen)"))
                    .unit(&id)
                    .at(q)
            };
            if self.brigades[i].men == 0 {
                self.brigades[i].shattered = true;
                let whole = TacEvent::new(
                    "pbem GITM-T6",
                    format!("{id} has no men left: it is shattered"),
                )
                .unit(&id)
                .at(q);
                let part = seen(format!("{id} is shattered"));
                self.tell_parts(whole, &own, vec![(None, part)]);
                continue;
            }
            let start = before
                .iter()
                .find(|(k, _)| *k == i)
                .map(|(_, m)| *m)
                .unwrap_or(1)
                .max(1);
            let b = &self.brigades[i];
            let lost_pct = i64::from((start - b.men.min(start)) * 100 / start);
            let target = i64::from(b.morale) + t::QUALITY_MORALE * (i64::from(b.quality) - 3)
                - lost_pct
                - i64::from(b.fatigue);
            let l = format!("{label}/morale={id}");
            let roll = i64::from(dice.die(&l, 100));
            let told = told_face(&l, roll as u32);
            if roll <= target {
                let whole = TacEvent::new(
                    "pbem GITM-T6",
                    format!("{id} passes its morale check: d100 {told} against {target}"),
                )
                .unit(&id)
                .at(q)
                .roll(&l);
                let part = seen(format!("{id} passes its morale check"));
                self.tell_parts(whole, &own, vec![(None, part)]);
                continue;
            }
            self.progress[i].engage_off = true;
            let (text, part) = if roll - target > t::SHATTER_MARGIN {
                self.brigades[i].shattered = true;
                (
                    format!("{id} fails its morale check by more than {}: d100 {told} against {target}; it is shattered", t::SHATTER_MARGIN),
                    format!("{id} fails its morale check; it is shattered"),
                )
            } else if let Some(to) = self.fall_back(i) {
                (
                    format!("{id} fails its morale check: d100 {told} against {target}; it falls back to {to} and engages no more (8.8)"),
                    format!("{id} fails its morale check; it falls back to {to} and engages no more (8.8)"),
                )
            } else {
                self.brigades[i].shattered = true;
                (
                    format!("{id} fails its morale check: d100 {told} against {target}; it cannot fall back and is shattered"),
                    format!("{id} fails its morale check; it cannot fall back and is shattered"),
                )
            };
            let whole = TacEvent::new("pbem GITM-T6", text).unit(&id).at(q).roll(&l);
            self.tell_parts(whole, &own, vec![(None, seen(part))]);
        }
    }

    /// pbem GITM-T7 (GITM 2.6, 8.2, 8.4): the defenders at `q` inside its fort: combat brigades of
    /// the side that holds the strategic square (`Relations::at_home`) or its allies, not ordered
    /// "do not enter fort", taken by unit ID while the fort has room (2.6's capacity); the event
    /// names them with 2.6's F appended, and those left outside.
    fn garrison(&mut self, q: Pos, def: &[usize]) -> BTreeSet<usize> {
        let mut inside = BTreeSet::new();
        let Some(fort) = self.map.fort(q).cloned() else {
            return inside;
        };
        let holder = |f: &Field, i: usize| {
            f.relations
                .at_home
                .iter()
                .any(|h| f.relations.between(h, &f.brigades[i].side) == Relation::Friendly)
        };
        let mut candidates: Vec<usize> = def
            .iter()
            .copied()
            .filter(|&i| holder(self, i) && !self.brigades[i].order.no_fort)
            .collect();
        if candidates.is_empty() {
            return inside;
        }
        candidates.sort_by(|&x, &y| self.brigades[x].id.cmp(&self.brigades[y].id));
        let mut room = u64::from(fort.capacity);
        let mut outside = Vec::new();
        for i in candidates {
            let b = &self.brigades[i];
            let space = t::fort_space(b.kind, b.men, b.batteries);
            if space <= room {
                room -= space;
                inside.insert(i);
            } else {
                outside.push((b.id.clone(), space));
            }
        }
        let rating = t::fort_rating(self.map.rating(q), fort.strength);
        let names: Vec<String> = inside
            .iter()
            .map(|&i| format!("{}F", self.brigades[i].id))
            .collect();
        let text = format!(
            "the fort at {q} (strength {}, capacity {}) holds {}: they defend with rating {rating} (the square's {})",
            fort.strength,
            fort.capacity,
            if names.is_empty() { "no one".to_string() } else { names.join(", ") },
            self.map.rating(q)
        );
        let ids: Vec<String> = inside
            .iter()
            .map(|&i| self.brigades[i].id.clone())
            .collect();
        let event = |text: String| {
            TacEvent::new("pbem GITM-T7", text)
                .at(q)
                .units(ids.iter().map(String::as_str))
        };
        if outside.is_empty() {
            self.tell(event(text));
        } else {
            // The room each brigade left outside would take is a figure of its side (its men):
            // the others see who is left outside (GITM 2.6: a fort's strength and capacity are
            // shown to all; 4.2).
            let whole = event(format!(
                "{text}; no room for {} (GITM 2.6's capacity)",
                outside
                    .iter()
                    .map(|(id, space)| format!("{id} ({space})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            let part = event(format!(
                "{text}; no room for {} (GITM 2.6's capacity; their men are not seen)",
                outside
                    .iter()
                    .map(|(id, _)| id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            let own: BTreeSet<String> =
                def.iter().map(|&i| self.brigades[i].side.clone()).collect();
            self.tell_parts(whole, &own, vec![(None, part)]);
        }
        inside
    }

    /// GITM 9.2: an enemy has entered the square of headquarters `i`: a small chance (pbem GITM-T6)
    /// that it shatters; else it falls back and takes no part; when it cannot, it shatters. A corps
    /// HQ loses the supplies it carries either way (9.2).
    fn headquarters_attacked(&mut self, i: usize, q: Pos, dice: &mut dyn TacDice, label: &str) {
        let id = self.brigades[i].id.clone();
        let l = format!("{label}/hq={id}");
        let roll = dice.die(&l, 100);
        let told = told_face(&l, roll);
        let text = if roll <= t::HQ_SHATTER_PERCENT {
            self.brigades[i].shattered = true;
            format!(
                "an enemy enters {q}: {id} shatters (d100 {told}, {} or less)",
                t::HQ_SHATTER_PERCENT
            )
        } else if let Some(to) = self.fall_back(i) {
            format!("an enemy enters {q}: {id} (d100 {told}) falls back to {to} and takes no part in the combat")
        } else {
            self.brigades[i].shattered = true;
            format!("an enemy enters {q}: {id} (d100 {told}) cannot fall back and shatters")
        };
        let b = &mut self.brigades[i];
        let text = if b.kind == Kind::CorpsHq && b.supplies > 0 {
            let lost = std::mem::take(&mut b.supplies);
            format!("{text}; the {lost} supply it carried is destroyed")
        } else {
            text
        };
        self.tell(TacEvent::new("GITM 9.2", text).unit(&id).at(q).roll(&l));
    }
}
