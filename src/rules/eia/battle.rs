//! One land combat (EiA 7.5): the sides and their commanders (10.6.1.1), the tactical chits (19.1),
//! and the rounds on the combat table, then pursuit and retreat of the loser.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Sources};
use crate::engine::event::Event;
use crate::rules::eia::state::{CorpsKind, Tenths};
use crate::rules::wording::verb;

use super::board::Board;
use super::decisions::{EiaPoint, ARTILLERY, COMMANDER, FURTHER_DAYS, GUARD, OUTFLANK};
use super::labels;
use super::phase::{Phase, COMBAT};
use super::standing::{parse_continue, parse_guard, ContinuePolicy, GuardPolicy};

/// One side of a combat.
#[derive(Debug, Clone)]
pub(super) struct Side {
    pub(super) powers: BTreeSet<String>,
    /// The power whose commander leads the side and whose chit it plays.
    pub(super) lead: String,
    pub(super) commander: Option<usize>,
    pub(super) chit: String,
    pub(super) morale: i64,
    /// Morale at the start of the battle, to tell who is losing.
    pub(super) start_morale: i64,
    /// Corps of the side that are not fighting yet: the uncommitted guard, outflankers on their way.
    pub(super) held: BTreeSet<usize>,
    /// The outflanking force, which arrives before round 2 (EiA 7.5.2.3).
    pub(super) outflank: Vec<usize>,
    /// Whether the side is the garrison of the area's city (a siege, EiA 7.5.4): its corps are those in
    /// the city; a field battle's sides are the corps outside it (EiA 7.5.2.11).
    pub(super) in_city: bool,
}

impl Side {
    /// Whether the side has lost more morale than `enemy` so far.
    fn losing_to(&self, enemy: &Side) -> bool {
        self.start_morale - self.morale > enemy.start_morale - enemy.morale
    }
}

impl Phase<'_> {
    pub(super) fn fight(&mut self, area: usize, attacker: &str) -> Result<()> {
        let name = self.map.area(area).id.clone();
        let present = self.board.powers_in(area);
        let (attackers, defenders): (BTreeSet<String>, BTreeSet<String>) = present
            .iter()
            .cloned()
            .partition(|p| self.board.friendly(p, attacker));
        let mut involved = attackers.clone();
        involved.extend(defenders.iter().cloned());
        // The corps in the field fight this combat, and no other of the phase (EiA 7.5.2.11); a
        // garrison too when the combat is its siege.
        self.mark_fought(area, false);
        if self.defenders_hold_the_city(area, &defenders, &involved)
            || self.retire_into_city(area, &attackers, &defenders, &involved)?
        {
            // EiA 10.1.2.2.3: their cossacks and freikorps left in the field retreat before it.
            self.evade(area, &defenders, &involved)?;
            self.mark_fought(area, true);
            return self.siege(area, attackers, defenders, &involved);
        }
        self.evade(area, &defenders, &involved)?;
        if !self.board.corps_in(area).iter().any(|&i| {
            let c = &self.board.corps[i];
            !c.in_city && defenders.contains(&c.power)
        }) {
            let text = format!("No battle at {name}: the defenders left the field before combat.");
            self.push(Event::new(COMBAT, "result", text), area, &involved);
            return Ok(());
        }
        self.reinforce(area, &attackers, &involved)?;
        self.reinforce(area, &defenders, &involved)?;
        self.mark_fought(area, false);
        let mut att = self.side("attacker", area, attackers, false, &involved)?;
        let mut def = self.side("defender", area, defenders, false, &involved)?;
        att.chit = self.chit(EiaPoint::AttackChit, &att.lead, &name, &involved, area)?;
        def.chit = self.chit(EiaPoint::DefenceChit, &def.lead, &name, &involved, area)?;
        self.outflank(&mut att, "attacker", area, &involved)?;
        self.outflank(&mut def, "defender", area, &involved)?;
        let att_guard = self.hold_guard(&mut att, area, &involved)?;
        let def_guard = self.hold_guard(&mut def, area, &involved)?;
        let (att_chit_drm, def_chit_drm) = self.eia.tables.chit_drm(&att.chit, &def.chit);
        let max = self.eia.tables.combat.max_leader_drm;
        let rating = |s: &Side, b: &Board| s.commander.map_or(0, |l| b.leaders[l].rating as i32);
        let leader_drm = (rating(&att, &self.board) - rating(&def, &self.board)).clamp(-max, max);
        let text = format!(
            "Battle of {name}: {} ({}) attacks {} ({}). {}",
            self.describe(&att, area),
            att.chit,
            self.describe(&def, area),
            def.chit,
            format_drms(att_chit_drm, def_chit_drm, leader_drm)
        );
        self.push(Event::new(COMBAT, "combat", text), area, &involved);

        let rounds_per_day = self.eia.tables.combat.rounds;
        let mut round = 0;
        let mut day = 1;
        let broke: Option<&'static str> = 'days: loop {
            for _ in 0..rounds_per_day {
                round += 1;
                if round == 2 {
                    self.outflankers_arrive(&mut att, area, &involved);
                    self.outflankers_arrive(&mut def, area, &involved);
                }
                if let Some(policy) = att_guard {
                    self.commit_guard(&mut att, &def, policy, round, area, &involved);
                }
                if let Some(policy) = def_guard {
                    self.commit_guard(&mut def, &att, policy, round, area, &involved);
                }
                self.artillery(&mut att, &mut def, round, area, &involved)?;
                self.round(
                    &mut att,
                    &mut def,
                    round,
                    (att_chit_drm, def_chit_drm, leader_drm),
                    area,
                    &involved,
                )?;
                let a_gone = self.factors(&att, area) == 0;
                let d_gone = self.factors(&def, area) == 0;
                let broke = match (att.morale <= 0 || a_gone, def.morale <= 0 || d_gone) {
                    (true, true) if def.morale < att.morale && !d_gone => Some("defender"),
                    (true, _) => Some("attacker"),
                    (false, true) => Some("defender"),
                    (false, false) => None,
                };
                if broke.is_some() {
                    break 'days broke;
                }
            }
            if day >= self.eia.tables.combat.days
                || !self.further_day(&att, &def, day, area, &involved)?
            {
                break None;
            }
            day += 1;
        };
        // Everyone left on the field shares the outcome.
        att.held.clear();
        def.held.clear();
        let loser = broke.unwrap_or(if def.morale < att.morale {
            "defender"
        } else {
            "attacker"
        });
        let (winner, loser) = if loser == "attacker" {
            (&att, &def).swap()
        } else {
            (&att, &def)
        };
        let (how, how_many) = if broke.is_some() {
            ("breaks", "break")
        } else {
            (
                "gives way at the end of the day",
                "give way at the end of the day",
            )
        };
        let text = format!(
            "{} {} at {name}; {} {}.",
            self.words.all(&winner.powers),
            self.words.agree(winner.powers.len(), "wins", "win"),
            self.words.all(&loser.powers),
            self.words.agree(loser.powers.len(), how, how_many)
        );
        self.push(Event::new(COMBAT, "result", text), area, &involved);
        let (winner, loser) = (winner.clone(), loser.clone());
        self.pursue(area, &winner, &loser, &involved)?;
        self.retreat(area, &loser, &involved)?;
        Ok(())
    }

    /// One round on the combat table: both sides roll (label `combat/area=../round=..`), each reads the
    /// column of its own strength, and inflicts losses of factors and morale on the other.
    #[allow(clippy::too_many_arguments)]
    fn round(
        &mut self,
        att: &mut Side,
        def: &mut Side,
        round: u32,
        (att_chit_drm, def_chit_drm, leader_drm): (i32, i32, i32),
        area: usize,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let name = self.map.area(area).id.clone();
        let roll = self.dice.roll(
            &labels::staged(self.stage, labels::combat_round(&name, round)),
            &[6, 6],
        )?;
        let (a_die, d_die) = (roll.dice[0].face as i32, roll.dice[1].face as i32);
        let a_mod = a_die + att_chit_drm + leader_drm;
        let d_mod = d_die + def_chit_drm - leader_drm;
        let t = &self.eia.tables;
        let on_def = t.result(a_mod, t.column(self.factors(att, area)));
        let on_att = t.result(d_mod, t.column(self.factors(def, area)));
        let lost_def = self.take_losses(def, area, on_def.factors);
        let lost_att = self.take_losses(att, area, on_att.factors);
        def.morale -= on_def.morale;
        att.morale -= on_att.morale;
        let text = format!(
            "Round {round} at {name}: attacker rolls {} (modified {}), defender rolls {} (modified {}). \
             Attacker loses {} and {} morale (now {}); defender loses {} and {} morale (now {}).",
            roll.told(0),
            roll.told(0).plus((a_mod - a_die).into()),
            roll.told(1),
            roll.told(1).plus((d_mod - d_die).into()),
            factors(lost_att),
            Tenths(on_att.morale),
            Tenths(att.morale),
            factors(lost_def),
            Tenths(on_def.morale),
            Tenths(def.morale)
        );
        self.push(Event::rolled(COMBAT, "round", text, roll), area, involved);
        Ok(())
    }

    /// EiA 7.5.2.8: artillery is always used before each round. Each side whose fighting corps have
    /// artillery rolls a d6 (label `artillery/area=../round=..`: attacker, then defender) and hits on
    /// at most its artillery factors (capped by the table); a hit costs the enemy factors and morale.
    fn artillery(
        &mut self,
        att: &mut Side,
        def: &mut Side,
        round: u32,
        area: usize,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let guns = |s: &Side, me: &Self| -> u32 {
            me.fighting(s, area)
                .iter()
                .map(|&i| me.board.corps[i].artillery)
                .sum()
        };
        let (a_guns, d_guns) = (guns(att, self), guns(def, self));
        if a_guns == 0 && d_guns == 0 {
            return Ok(());
        }
        let name = self.map.area(area).id.clone();
        let roll = self.dice.roll(
            &labels::staged(self.stage, labels::artillery(&name, round)),
            &[6, 6],
        )?;
        let t = &self.eia.tables.artillery;
        let (max_hit, hit_factors, hit_morale) =
            (t.max_hit, t.factors, self.eia.tables.artillery_morale());
        let mut said = Vec::new();
        for (i, (guns, side)) in [(a_guns, "attacker"), (d_guns, "defender")]
            .into_iter()
            .enumerate()
        {
            let face = roll.dice[i].face;
            let told = roll.told(i);
            if guns == 0 {
                said.push(format!("the {side} has no artillery"));
                continue;
            }
            let need = guns.min(max_hit);
            if face <= need {
                let target = if i == 0 { &mut *def } else { &mut *att };
                let lost = self.take_losses(target, area, hit_factors);
                target.morale -= hit_morale;
                said.push(format!("the {side}'s {guns} artillery rolls {told} (needs {need} or less): a hit, {} and {} morale lost", factors(lost), Tenths(hit_morale)));
            } else {
                said.push(format!(
                    "the {side}'s {guns} artillery rolls {told} (needs {need} or less): no hit"
                ));
            }
        }
        let text = format!(
            "Artillery before round {round} at {name}: {}.",
            said.join("; ")
        );
        self.push(
            Event::rolled(ARTILLERY, "artillery", text, roll),
            area,
            involved,
        );
        Ok(())
    }

    /// EiA 19.1, third interrupt: after a day in which no side broke, a further day is fought when
    /// both sides are willing. pbem's reading: the attacker's `continue` (SOP `never`) decides whether
    /// he presses on; the defender's `continue` (SOP `always`: he stands whenever the attacker
    /// presses on) whether he accepts; either refusing ends the battle.
    fn further_day(
        &mut self,
        att: &Side,
        def: &Side,
        day: u32,
        area: usize,
        involved: &BTreeSet<String>,
    ) -> Result<bool> {
        let name = self.map.area(area).id.clone();
        let winning = |me: &Side, enemy: &Side| {
            !me.losing_to(enemy)
                && (me.start_morale - me.morale) < (enemy.start_morale - enemy.morale)
        };
        for (side, enemy, point) in [
            (att, def, EiaPoint::Continue),
            (def, att, EiaPoint::ContinueDefending),
        ] {
            let sources = Sources {
                explicit: None,
                standing: self.standing.get(&side.lead),
                sop: &self.eia.sop,
                scope: None,
            };
            let d = decide(&point, &sources, parse_continue, || {
                Ok(ContinuePolicy::Never)
            })?;
            let go = match d.value {
                ContinuePolicy::Never => false,
                ContinuePolicy::Always => true,
                ContinuePolicy::WhenWinning => winning(side, enemy),
            };
            let by = d.by.aside(" (", ")");
            let text = match (point == EiaPoint::Continue, go) {
                (true, true) => format!(
                    "{} fights a further day at {name} after day {day}{by}.",
                    self.words.who(&side.lead)
                ),
                (true, false) => format!(
                    "{} fights no further day at {name} after day {day}{by}.",
                    self.words.who(&side.lead)
                ),
                (false, true) => format!(
                    "{} stands for a further day at {name} after day {day}{by}.",
                    self.words.who(&side.lead)
                ),
                (false, false) => format!(
                    "{} fights no further day at {name} after day {day}{by}: the battle ends.",
                    self.words.who(&side.lead)
                ),
            };
            let e = Event::new(FURTHER_DAYS, "decision", text).decided(side.lead.clone(), d.by);
            self.push(e, area, involved);
            if !go {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The guard corps of a side stay out of the fight until committed (EiA 7.5.2.8); returns the
    /// side's policy, settled by standing order or SOP (the second interrupt of 19.1).
    fn hold_guard(
        &mut self,
        side: &mut Side,
        area: usize,
        involved: &BTreeSet<String>,
    ) -> Result<Option<GuardPolicy>> {
        let guard: Vec<usize> = self
            .side_corps(side, area)
            .into_iter()
            .filter(|&i| self.board.corps[i].kind == CorpsKind::Guard)
            .collect();
        if guard.is_empty() {
            return Ok(None);
        }
        let sources = Sources {
            explicit: None,
            standing: self.standing.get(&side.lead),
            sop: &self.eia.sop,
            scope: None,
        };
        let d = decide(&EiaPoint::Guard, &sources, parse_guard, || {
            Ok(GuardPolicy::Never)
        })?;
        side.held.extend(guard.iter().copied());
        let ids: Vec<&str> = guard
            .iter()
            .map(|&i| self.board.corps[i].id.as_str())
            .collect();
        let when = match d.value {
            GuardPolicy::Never => "never".to_string(),
            GuardPolicy::BeforeRound(n) => format!("before round {n}"),
            GuardPolicy::WhenLosingAfter(0) => "when losing".to_string(),
            GuardPolicy::WhenLosingAfter(n) => format!("when losing after round {n}"),
        };
        let text = format!(
            "{} holds its guard ({}) back at {}: it will commit it {when}{}.",
            self.words.who(&side.lead),
            ids.join(", "),
            self.map.area(area).id,
            d.by.aside(" (", ")")
        );
        let e = Event::new(GUARD, "decision", text).decided(side.lead.clone(), d.by);
        self.push(e, area, involved);
        Ok(Some(d.value))
    }

    /// Commits the guard before `round` if the policy says so.
    fn commit_guard(
        &mut self,
        side: &mut Side,
        enemy: &Side,
        policy: GuardPolicy,
        round: u32,
        area: usize,
        involved: &BTreeSet<String>,
    ) {
        let waiting: Vec<usize> = side
            .held
            .iter()
            .copied()
            .filter(|&i| {
                self.board.corps[i].kind == CorpsKind::Guard && !self.board.corps[i].eliminated
            })
            .collect();
        if waiting.is_empty() {
            return;
        }
        let commit = match policy {
            GuardPolicy::Never => false,
            GuardPolicy::BeforeRound(n) => round >= n,
            GuardPolicy::WhenLosingAfter(n) => round > n && side.losing_to(enemy),
        };
        if !commit {
            return;
        }
        for i in &waiting {
            side.held.remove(i);
        }
        let ids: Vec<&str> = waiting
            .iter()
            .map(|&i| self.board.corps[i].id.as_str())
            .collect();
        let text = format!(
            "{} commits its guard ({}) before round {round} at {}.",
            self.words.who(&side.lead),
            ids.join(", "),
            self.map.area(area).id
        );
        self.push(Event::new(GUARD, "guard", text), area, involved);
    }

    /// Notes the corps in the field of `area` (and in its city, with `city`) as having fought a
    /// combat of this phase (`Phase::fought`).
    fn mark_fought(&mut self, area: usize, city: bool) {
        let here: Vec<usize> = self
            .board
            .corps_in(area)
            .into_iter()
            .filter(|&i| city || !self.board.corps[i].in_city)
            .collect();
        self.fought.extend(here);
    }

    /// EiA 7.5.2.3: the outflanking force of a side that plays `outflank`: the corps named by order,
    /// else at most a third (at least one) of its regular infantry corps and one cavalry corps if it
    /// has more than one, chosen at random (label `outflank/area=../side=..`). It arrives before round 2.
    fn outflank(
        &mut self,
        side: &mut Side,
        side_name: &str,
        area: usize,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        if side.chit != "outflank" {
            return Ok(());
        }
        let name = self.map.area(area).id.clone();
        let corps = self.side_corps(side, area);
        let named: Vec<usize> = self
            .outflankers
            .get(&(side.lead.clone(), name.clone()))
            .map(|ids| {
                corps
                    .iter()
                    .copied()
                    .filter(|&i| ids.contains(&self.board.corps[i].id))
                    .collect()
            })
            .unwrap_or_default();
        let (chosen, by, roll) = if !named.is_empty() {
            (named, DecidedBy::Order, None)
        } else {
            let of = |k: CorpsKind, me: &Self| -> Vec<usize> {
                corps
                    .iter()
                    .copied()
                    .filter(|&i| me.board.corps[i].kind == k)
                    .collect()
            };
            let (chosen, roll) = self.outflank_force(
                &of(CorpsKind::Infantry, self),
                &of(CorpsKind::Cavalry, self),
                &labels::staged(self.stage, labels::outflank(&name, side_name)),
            )?;
            (chosen, DecidedBy::Roll, roll)
        };
        if chosen.is_empty() {
            return Ok(());
        }
        side.held.extend(chosen.iter().copied());
        side.outflank = chosen.clone();
        let ids: Vec<&str> = chosen
            .iter()
            .map(|&i| self.board.corps[i].id.as_str())
            .collect();
        let text = format!(
            "{} sends {} round the flank at {name}{}; {} the battle before round 2.",
            self.words.who(&side.lead),
            ids.join(", "),
            by.aside(" (", ")"),
            verb(ids.len(), "it joins", "they join")
        );
        let e = Event::new(OUTFLANK, "decision", text)
            .decided(side.lead.clone(), by)
            .maybe_roll(roll);
        self.push(e, area, involved);
        Ok(())
    }

    /// The random outflanking force of EiA 7.5.2.3 from a side's regular infantry and cavalry corps:
    /// max(1, n/3) infantry drawn one by one (a die of n, then n-1, ...), then one cavalry corps (a
    /// die of m) if there are more than one.
    pub(super) fn outflank_force(
        &mut self,
        infantry: &[usize],
        cavalry: &[usize],
        label: &str,
    ) -> Result<(Vec<usize>, Option<crate::engine::event::Roll>)> {
        let k = if infantry.is_empty() {
            0
        } else {
            (infantry.len() / 3).max(1)
        };
        let mut sides: Vec<u32> = (0..k).map(|j| (infantry.len() - j) as u32).collect();
        if cavalry.len() > 1 {
            sides.push(cavalry.len() as u32);
        }
        if sides.is_empty() {
            return Ok((Vec::new(), None));
        }
        let roll = self.dice.roll(label, &sides)?;
        let mut pool = infantry.to_vec();
        let mut chosen = Vec::new();
        for d in roll.dice.iter().take(k) {
            chosen.push(pool.remove(d.face as usize - 1));
        }
        if cavalry.len() > 1 {
            chosen.push(cavalry[roll.dice[k].face as usize - 1]);
        }
        Ok((chosen, Some(roll)))
    }

    fn outflankers_arrive(&mut self, side: &mut Side, area: usize, involved: &BTreeSet<String>) {
        let arriving: Vec<usize> = side
            .outflank
            .iter()
            .copied()
            .filter(|i| side.held.contains(i) && !self.board.corps[*i].eliminated)
            .collect();
        if arriving.is_empty() {
            return;
        }
        for i in &arriving {
            side.held.remove(i);
        }
        let ids: Vec<&str> = arriving
            .iter()
            .map(|&i| self.board.corps[i].id.as_str())
            .collect();
        let text = format!(
            "The outflanking force of {} ({}) falls on the flank at {} before round 2.",
            self.words.who(&side.lead),
            ids.join(", "),
            self.map.area(area).id
        );
        self.push(Event::new(OUTFLANK, "outflank", text), area, involved);
    }

    pub(super) fn describe(&self, side: &Side, area: usize) -> String {
        let corps: Vec<String> = self
            .side_corps(side, area)
            .iter()
            .map(|&i| self.board.corps[i].id.clone())
            .collect();
        let leader = side.commander.map_or("no leader".to_string(), |l| {
            format!("led by {}", self.board.leaders[l].id)
        });
        let all: u32 = self
            .side_corps(side, area)
            .iter()
            .map(|&i| self.board.corps[i].factors)
            .sum();
        let in_line = self.factors(side, area);
        let held = if all > in_line {
            format!(", {} of them held back", all - in_line)
        } else {
            String::new()
        };
        format!(
            "{} with {} ({}{held}, morale {}, {leader})",
            self.words.all(&side.powers),
            corps.join(", "),
            self.words.count(all, "factor", "factors"),
            Tenths(side.morale)
        )
    }

    /// The corps of a side: of its powers, in the city if the side is its garrison, else in the field.
    pub(super) fn side_corps(&self, side: &Side, area: usize) -> Vec<usize> {
        self.board
            .corps_in(area)
            .into_iter()
            .filter(|&i| {
                let c = &self.board.corps[i];
                side.powers.contains(&c.power) && c.in_city == side.in_city
            })
            .collect()
    }

    /// The corps of a side that are in the fight: all but the held-back ones.
    pub(super) fn fighting(&self, side: &Side, area: usize) -> Vec<usize> {
        self.side_corps(side, area)
            .into_iter()
            .filter(|i| !side.held.contains(i))
            .collect()
    }

    /// The factors of the corps of a side that are in the fight.
    pub(super) fn factors(&self, side: &Side, area: usize) -> u32 {
        self.fighting(side, area)
            .iter()
            .map(|&i| self.board.corps[i].factors)
            .sum()
    }

    /// Removes `n` factors from a side, one at a time from its strongest corps (guard last); a corps at
    /// zero factors is eliminated. Returns the factors actually lost.
    pub(super) fn take_losses(&mut self, side: &Side, area: usize, n: u32) -> u32 {
        let mut lost = 0;
        for _ in 0..n {
            let corps = self.fighting(side, area);
            let Some(&i) = corps.iter().min_by_key(|&&i| {
                let c = &self.board.corps[i];
                (c.kind == CorpsKind::Guard, std::cmp::Reverse(c.factors), i)
            }) else {
                break;
            };
            let c = &mut self.board.corps[i];
            c.factors -= 1;
            lost += 1;
            if c.factors == 0 {
                c.eliminated = true;
            }
        }
        lost
    }

    /// Builds a side: its lead power, its commander (EiA 10.6.1.1) and its morale.
    pub(super) fn side(
        &mut self,
        name: &'static str,
        area: usize,
        powers: BTreeSet<String>,
        in_city: bool,
        involved: &BTreeSet<String>,
    ) -> Result<Side> {
        let mut side = Side {
            powers,
            lead: String::new(),
            commander: None,
            chit: String::new(),
            morale: 0,
            start_morale: 0,
            held: BTreeSet::new(),
            outflank: Vec::new(),
            in_city,
        };
        let corps = self.side_corps(&side, area);
        // EiA 10.1.4.1.4: who attacked in the turn's land phase (an insurrection corps among them
        // has had its land phase).
        if name == "attacker" && self.stage.is_none() {
            self.attacked.extend(corps.iter().copied());
        }
        // The nationalities with the most corps are eligible to command.
        let mut count: BTreeMap<String, usize> = BTreeMap::new();
        for &i in &corps {
            *count.entry(self.board.corps[i].power.clone()).or_default() += 1;
        }
        let most = count.values().copied().max().unwrap_or(0);
        let eligible: BTreeSet<String> = count
            .iter()
            .filter(|(_, &n)| n == most)
            .map(|(p, _)| p.clone())
            .collect();
        side.lead = eligible.iter().next().cloned().unwrap_or_default();
        let mut leaders: Vec<usize> = self
            .board
            .leaders_in(area)
            .into_iter()
            .filter(|&l| eligible.contains(&self.board.leaders[l].power))
            .collect();
        // Within one nationality its most senior leader commands; across nationalities, seniority.
        leaders.sort_by_key(|&l| {
            (
                self.board.leaders[l].seniority,
                self.board.leaders[l].id.clone(),
            )
        });
        if let Some(&first) = leaders.first() {
            let best = self.board.leaders[first].seniority;
            let tied: Vec<usize> = leaders
                .iter()
                .copied()
                .filter(|&l| self.board.leaders[l].seniority == best)
                .collect();
            let tied_powers: BTreeSet<&String> =
                tied.iter().map(|&l| &self.board.leaders[l].power).collect();
            let chosen = if tied_powers.len() > 1 {
                let mut ids: Vec<usize> = tied.clone();
                ids.sort_by(|a, b| {
                    self.board.leaders[*a]
                        .id
                        .as_bytes()
                        .cmp(self.board.leaders[*b].id.as_bytes())
                });
                let label =
                    labels::staged(self.stage, labels::commander(&self.map.area(area).id, name));
                let roll = self.dice.roll(&label, &[ids.len() as u32])?;
                let pick = ids[roll.dice[0].face as usize - 1];
                let names: Vec<&str> = ids
                    .iter()
                    .map(|&l| self.board.leaders[l].id.as_str())
                    .collect();
                let text = format!(
                    "{} commands the {name} at {}: {} are equally eligible and equally senior, so the die decides.",
                    self.board.leaders[pick].id,
                    self.map.area(area).id,
                    names.join(" and ")
                );
                let e = Event::new(COMMANDER, "decision", text)
                    .roll(roll)
                    .decided(self.board.leaders[pick].power.clone(), DecidedBy::Roll);
                self.push(e, area, involved);
                pick
            } else {
                if eligible.len() > 1 {
                    let text = format!(
                        "{} commands the {name} at {}: the most senior of the equally eligible leaders.",
                        self.board.leaders[first].id,
                        self.map.area(area).id
                    );
                    let e = Event::new(COMMANDER, "decision", text)
                        .decided(self.board.leaders[first].power.clone(), DecidedBy::Sop);
                    self.push(e, area, involved);
                }
                first
            };
            side.commander = Some(chosen);
            side.lead = self.board.leaders[chosen].power.clone();
        }
        // Morale: the factor-weighted mean of the side's corps, in tenths, rounded down.
        let (mut weighted, mut total) = (0i64, 0i64);
        for &i in &corps {
            let c = &self.board.corps[i];
            weighted += c.morale * i64::from(c.factors);
            total += i64::from(c.factors);
        }
        side.morale = if total > 0 { weighted / total } else { 0 };
        side.start_morale = side.morale;
        Ok(side)
    }

    /// EiA 19.1: the side's chit, by explicit order, standing order, SOP, or the first chit listed.
    pub(super) fn chit(
        &mut self,
        point: EiaPoint,
        power: &str,
        area_name: &str,
        involved: &BTreeSet<String>,
        area: usize,
    ) -> Result<String> {
        let allowed = match point {
            EiaPoint::AttackChit => self.eia.tables.chits.attack.clone(),
            _ => self.eia.tables.chits.defence.clone(),
        };
        let explicit = self
            .chits
            .get(power)
            .and_then(|m| m.get(area_name))
            .map(String::as_str);
        let sources = Sources {
            explicit,
            standing: self.standing.get(power),
            sop: &self.eia.sop,
            scope: None,
        };
        let first = allowed[0].clone();
        let d = decide(
            &point,
            &sources,
            |s| allowed.iter().find(|a| *a == s).cloned(),
            || Ok(first),
        )?;
        let side = if point == EiaPoint::AttackChit {
            "attack"
        } else {
            "defence"
        };
        let by = if d.by == DecidedBy::Roll {
            DecidedBy::Sop
        } else {
            d.by
        };
        let text = format!(
            "{} plays the {side} chit '{}' at {area_name}{}.",
            self.words.who(power),
            d.value,
            by.aside(" (", ")")
        );
        let e = Event::new(d.rule, "decision", text).decided(power.to_string(), by);
        self.push(e, area, involved);
        Ok(d.value)
    }
}

pub(super) trait Swap {
    fn swap(self) -> Self;
}

impl<'a> Swap for (&'a Side, &'a Side) {
    fn swap(self) -> Self {
        (self.1, self.0)
    }
}

/// "1 factor", "3 factors".
pub(super) fn factors(n: u32) -> String {
    if n == 1 {
        "1 factor".to_string()
    } else {
        format!("{n} factors")
    }
}

pub(super) fn join(powers: &BTreeSet<String>) -> String {
    powers.iter().cloned().collect::<Vec<_>>().join(" and ")
}

pub(super) fn format_drms(att_chit: i32, def_chit: i32, leader: i32) -> String {
    format!("Chit modifiers {att_chit:+} (attacker) and {def_chit:+} (defender); leader modifier {leader:+} to the attacker, {:+} to the defender.", -leader)
}
