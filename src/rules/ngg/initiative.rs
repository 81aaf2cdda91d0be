//! The combat initiative loop of NGG 10.1-10.9, by mail: each player's ranked attack plan and defence
//! orders stand in for the conversation across the table. At each of his opportunities (10.7) a player
//! orders the first entry of his plan whose conditions hold and which is legal at that moment (10.1);
//! the others before it are skipped or void, each with an event saying why. His CCs, his supporting
//! stacks and the defender's are settled by the orders, the standing orders or the SOP, and every
//! test is a labelled d6 (10.2, 10.4, 10.6). A player whose plan runs out declines; one who fails a
//! test is done; the other goes on alone until he too declines or fails (10.7); then 10.9.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::decide::DecidedBy;
use crate::engine::event::{Event, Roll};
use crate::rules::wording::verb;

use super::decisions::{number, NggPoint};
use super::labels;
use super::orders::{AttackOrder, NggOrder, Support};
use super::phase::Phase;
use super::rules;

/// One side's orders for the combat phase.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// The attack plan, in rank order.
    pub attacks: Vec<AttackOrder>,
    /// Decline once this many attacks have been ordered.
    pub stop_after: Option<u32>,
    /// CCs the attacks leave for defence (this turn's `keep`).
    pub keep: Option<u32>,
    /// This turn's `defend` lines, by hex: CCs and supporting stacks.
    pub defend: BTreeMap<String, (Option<u32>, Option<Support>)>,
}

impl Plan {
    /// The plan in a power's orders (the other orders are not the combat phase's).
    pub fn of(orders: &[NggOrder]) -> Plan {
        let mut p = Plan::default();
        for o in orders {
            match o {
                NggOrder::Attack(a) => p.attacks.push(a.clone()),
                NggOrder::Stop { after } => p.stop_after = Some(*after),
                NggOrder::Keep { cc } => p.keep = Some(*cc),
                NggOrder::Defend { hex, cc, support } => {
                    p.defend.insert(hex.clone(), (*cc, support.clone()));
                }
                _ => {}
            }
        }
        p
    }
}

/// Where one side stands in the alternation.
#[derive(Debug, Default)]
struct Side {
    /// The next entry of its plan to consider.
    next: usize,
    /// It declined or failed (10.7): no further opportunity this turn.
    done: bool,
    /// Attacks it ordered so far.
    ordered: u32,
    /// Whether its plan's previous entry was ordered and went ahead (`if ahead`).
    previous_ahead: bool,
}

/// An attack at its moment: the entry, with the attacking units settled.
struct Ordered<'p> {
    entry: &'p AttackOrder,
    units: Vec<String>,
}

/// Whether a supporting stack passed its test.
pub(crate) fn passes(die: u32, cc: u32, cr: u32) -> bool {
    die != 1 && die + cc + cr >= 7
}

/// "a 1 fails whatever the CCs" or "4 + 2 CCs + CR 1 = 7 >= 7".
fn sum_text(roll: &Roll, cc: u32, cr: u32) -> String {
    let die = roll.dice[0].face;
    if die == 1 {
        format!("a {} fails whatever the CCs and the rating", roll.told(0))
    } else {
        let total = die + cc + cr;
        let cmp = if total >= 7 { ">=" } else { "<" };
        format!(
            "{} + {cc} CC + CR {cr} = {} {cmp} 7",
            roll.told(0),
            roll.told(0).plus((cc + cr).into())
        )
    }
}

impl Phase<'_> {
    /// Runs the combat phase over both sides' plans (10.1-10.8), then 10.9.
    pub fn combat_phase(&mut self, plans: &BTreeMap<String, Plan>) -> Result<()> {
        let empty = Plan::default();
        let first = self.powers[0].clone();
        let second = self.powers[1].clone();
        let text = format!(
            "Combat phase: {first} attacks first (10.7); command chits this turn: {first} {}, {second} {}.",
            self.chits[&first],
            self.chits[&second],
            first = self.who(&first),
            second = self.who(&second)
        );
        self.event(rules::CHITS, "chits", None, text);
        // `if holds`: the units in each hex as the phase begins.
        let at_start: BTreeMap<String, BTreeSet<String>> =
            self.ngg.units.iter().fold(BTreeMap::new(), |mut m, u| {
                m.entry(u.hex().to_string())
                    .or_default()
                    .insert(u.id().to_string());
                m
            });
        let mut sides: BTreeMap<String, Side> = self
            .powers
            .iter()
            .map(|p| (p.clone(), Side::default()))
            .collect();
        let mut attacked_from: BTreeSet<(String, String)> = BTreeSet::new();
        let mut active = first.clone();
        let mut number = 0u32;
        let mut alone_noted = false;
        while sides.values().any(|s| !s.done) {
            if sides[&active].done {
                active = self.other(&active);
                continue;
            }
            let plan = plans.get(&active).unwrap_or(&empty);
            let side = sides.get_mut(&active).expect("both sides");
            let chosen = self.next_attack(&active, plan, side, &at_start);
            let side = sides.get_mut(&active).expect("both sides");
            match chosen {
                None => {
                    side.done = true;
                    let (by, why) = if plan.attacks.is_empty() && plan.stop_after.is_none() {
                        (DecidedBy::Sop, "it sent no attack plan".to_string())
                    } else if plan.stop_after.is_some_and(|n| side.ordered >= n) {
                        (
                            DecidedBy::Order,
                            format!("its plan stops after {} attacks", side.ordered),
                        )
                    } else {
                        (
                            DecidedBy::Order,
                            "its attack plan has no entry left".to_string(),
                        )
                    };
                    let text = format!(
                        "{active} declines to order any further attack ({why}): no further opportunity this turn.",
                        active = self.who(&active)
                    );
                    self.log(
                        Event::new(rules::ALTERNATE, "decline", text).decided(active.as_str(), by),
                    );
                }
                Some(o) => {
                    number += 1;
                    let again = !attacked_from.insert((active.clone(), o.entry.from.clone()));
                    let defend = plans
                        .get(&self.other(&active))
                        .and_then(|p| p.defend.get(&o.entry.target))
                        .cloned()
                        .unwrap_or_default();
                    let ahead = self.attack(number, &active, &o, plan, defend, again)?;
                    let side = sides.get_mut(&active).expect("both sides");
                    side.ordered += 1;
                    side.previous_ahead = ahead;
                    if !ahead {
                        side.done = true;
                        let text = format!(
                            "{active} failed to carry out an attack: no further opportunity this turn.",
                            active = self.who(&active)
                        );
                        self.log(
                            Event::new(rules::ALTERNATE, "fail", text)
                                .at(&o.entry.target)
                                .decided(active.as_str(), DecidedBy::Roll),
                        );
                    }
                }
            }
            let other = self.other(&active);
            if !sides[&other].done {
                active = other;
            } else if !sides[&active].done && !alone_noted {
                alone_noted = true;
                let text = format!(
                    "{other} is done for the turn; {active} may go on ordering attacks until it declines or fails.",
                    active = self.who(&active),
                    other = self.who(&other)
                );
                self.event(rules::ALTERNATE, "alternate", None, text);
            }
        }
        self.end_of_combat();
        Ok(())
    }

    /// The first entry of `power`'s plan, from `side.next`, that its conditions allow and that is
    /// legal now (10.1); each one passed over gets an event.
    fn next_attack<'p>(
        &mut self,
        power: &str,
        plan: &'p Plan,
        side: &mut Side,
        at_start: &BTreeMap<String, BTreeSet<String>>,
    ) -> Option<Ordered<'p>> {
        if plan.stop_after.is_some_and(|n| side.ordered >= n) {
            return None;
        }
        while let Some(entry) = plan.attacks.get(side.next) {
            side.next += 1;
            let rank = side.next;
            let skip = if entry.if_ahead && !side.previous_ahead {
                Some(
                    "'if ahead': the plan's previous entry was not ordered or did not go ahead"
                        .to_string(),
                )
            } else if entry.if_holds
                && !at_start.get(&entry.target).is_some_and(|ids| {
                    self.ngg
                        .units_in(&entry.target)
                        .any(|u| ids.contains(u.id()) && u.power() != power)
                })
            {
                Some(format!(
                    "'if holds': no unit that held {} when the combat phase began holds it now",
                    self.name(&entry.target)
                ))
            } else {
                None
            };
            if let Some(why) = skip {
                side.previous_ahead = false;
                let text = format!(
                    "{power}: plan entry {rank} ({} on {}) is skipped: {why}.",
                    self.name(&entry.from),
                    self.name(&entry.target),
                    power = self.who(power)
                );
                self.log(
                    Event::new(rules::ALTERNATE, "skip", text)
                        .at(&entry.target)
                        .decided(power, DecidedBy::Order),
                );
                continue;
            }
            match self.legal(power, entry) {
                Ok(units) => return Some(Ordered { entry, units }),
                Err(why) => {
                    side.previous_ahead = false;
                    let text = format!(
                        "{power}: plan entry {rank} ({} on {}) is void: {why}.",
                        self.name(&entry.from),
                        self.name(&entry.target),
                        power = self.who(power)
                    );
                    self.log(
                        Event::new(rules::ATTACK, "void", text)
                            .at(&entry.target)
                            .decided(power, DecidedBy::Order),
                    );
                }
            }
        }
        None
    }

    /// NGG 10.1 at the entry's moment: the attacking units, or why the entry is void.
    pub(crate) fn legal(&self, power: &str, a: &AttackOrder) -> Result<Vec<String>, String> {
        let stack: Vec<_> = self.ngg.stack(&a.from, power).collect();
        if stack.is_empty() {
            return Err(format!(
                "{power} has no stack in {}",
                self.name(&a.from),
                power = self.who(power)
            ));
        }
        if let Some(u) = stack.iter().find(|u| u.disrupted) {
            return Err(format!(
                "{} in the stack is disrupted, and every unit of an attacking stack must be undisrupted",
                u.id()
            ));
        }
        if stack.iter().any(|u| u.forage) {
            return Err("the stack is under a forage marker".into());
        }
        let enemy = self.other(power);
        if self.ngg.holder(&a.target) != Some(enemy.as_str()) {
            return Err(format!("no enemy stack holds {}", self.name(&a.target)));
        }
        let units: Vec<String> = if a.units.is_empty() {
            stack
                .iter()
                .filter(|u| u.sp > 0)
                .map(|u| u.id().to_string())
                .collect()
        } else {
            let mut v = Vec::new();
            for id in &a.units {
                match stack.iter().find(|u| u.id().eq_ignore_ascii_case(id)) {
                    Some(u) if u.sp > 0 => v.push(u.id().to_string()),
                    Some(u) => return Err(format!("{} has no strength to attack with", u.id())),
                    None => return Err(format!("{id} is not in the stack")),
                }
            }
            v
        };
        if units.is_empty() {
            return Err("the stack has no unit with strength".into());
        }
        Ok(units)
    }

    /// One attack (10.1-10.6, then pbem's combat): whether it went ahead.
    fn attack(
        &mut self,
        n: u32,
        power: &str,
        o: &Ordered<'_>,
        plan: &Plan,
        defend: (Option<u32>, Option<Support>),
        again: bool,
    ) -> Result<bool> {
        let a = o.entry;
        let enemy = self.other(power);
        let rule = if again { rules::AGAIN } else { rules::ATTACK };
        let mut text = format!(
            "Attack {n}: {power} orders {} in {} to attack the {enemy} stack in {}.",
            self.describe(&o.units),
            self.name(&a.from),
            self.name(&a.target),
            power = self.who(power),
            enemy = self.who(&enemy)
        );
        if again {
            text.push_str(" The stack attacks again this turn (10.8).");
        }
        self.log(
            Event::new(rule, "attack", text)
                .at(&a.target)
                .decided(power, DecidedBy::Order),
        );
        // 10.2: the CCs, up to those left (less what the plan keeps for defence).
        let explicit = a.cc.map(|c| c.to_string());
        let want = self.decide(
            NggPoint::AttackCc,
            power,
            explicit.as_deref(),
            Some(&a.from),
            number,
            0,
        );
        let keep_explicit = plan.keep.map(|c| c.to_string());
        let keep = self.decide(
            NggPoint::AttackReserve,
            power,
            keep_explicit.as_deref(),
            None,
            number,
            0,
        );
        let left = self.chits[power];
        let cc = want.value.min(left.saturating_sub(keep.value));
        *self.chits.get_mut(power).expect("both sides") = left - cc;
        let mut text = format!(
            "{power} allocates {cc} CC to attack {n} ({}{}",
            want.value,
            want.by.aside(" ", ""),
            power = self.who(power)
        );
        if cc < want.value {
            text.push_str(&format!(
                "; {left} left, {} kept for defence{}",
                keep.value,
                keep.by.aside(" ", "")
            ));
        }
        text.push_str(&format!("); {} left.", left - cc));
        self.log(
            Event::new(rules::TEST, "chits", text)
                .at(&a.target)
                .decided(power, want.by),
        );
        let cr = self.ngg.best_cr(&a.from, power);
        let roll = self.dice.roll(&labels::initiative(n, &a.from), &[6])?;
        let die = roll.dice[0].face;
        let ahead = passes(die, cc, cr);
        let text = format!(
            "Attack {n}: {} rolls {}: {}: the attack {}.",
            self.name(&a.from),
            roll.told(0),
            sum_text(&roll, cc, cr),
            if ahead { "goes ahead" } else { "fails" }
        );
        self.log(
            Event::new(rules::TEST, "initiative", text)
                .at(&a.target)
                .roll(roll)
                .decided(power, DecidedBy::Roll),
        );
        if !ahead {
            return Ok(false);
        }
        let supporters = self.call_attack_support(n, power, a, cc)?;
        let defenders = self.call_defence(n, &enemy, &a.target, defend)?;
        self.resolve_combat(n, power, a, &o.units, &supporters, &defenders)?;
        Ok(true)
    }

    /// 10.3-10.4: the supporting stacks called and tested; the hexes of those that join.
    fn call_attack_support(
        &mut self,
        n: u32,
        power: &str,
        a: &AttackOrder,
        cc: u32,
    ) -> Result<Vec<String>> {
        let (support, by) = match &a.support {
            Some(s) => (s.clone(), DecidedBy::Order),
            None => {
                let d = self.decide(
                    NggPoint::AttackSupport,
                    power,
                    None,
                    Some(&a.from),
                    support_word,
                    Support::All,
                );
                (d.value, d.by)
            }
        };
        let candidates = self.support_candidates(power, &a.target, &a.from, &support, true);
        let mut joined = Vec::new();
        if candidates.is_empty() {
            let text = format!(
                "{power} calls no supporting stack to attack {n} (support {support}{}: none eligible next to {}).",
                by.aside(" ", ""),
                self.name(&a.target),
                power = self.who(power)
            );
            self.log(
                Event::new(rules::CALL_SUPPORT, "support", text)
                    .at(&a.target)
                    .decided(power, by),
            );
            return Ok(joined);
        }
        let text = format!(
            "{power} calls {} to support attack {n}{}.",
            self.stacks_in(&candidates),
            by.aside(" (", ")"),
            power = self.who(power)
        );
        self.log(
            Event::new(rules::CALL_SUPPORT, "support", text)
                .at(&a.target)
                .decided(power, by),
        );
        for h in candidates {
            let cr = self.ngg.best_cr(&h, power);
            let roll = self.dice.roll(&labels::support(n, &h), &[6])?;
            let die = roll.dice[0].face;
            let ok = passes(die, cc, cr);
            let text = format!(
                "Attack {n}: the supporting stack in {} rolls {}: {}: it {}.",
                self.name(&h),
                roll.told(0),
                sum_text(&roll, cc, cr),
                if ok {
                    "joins the attack"
                } else {
                    "fails its test and stays out"
                }
            );
            self.log(
                Event::new(rules::SUPPORT_TEST, "support", text)
                    .at(&a.target)
                    .roll(roll)
                    .decided(power, DecidedBy::Roll),
            );
            if ok {
                joined.push(h);
            }
        }
        Ok(joined)
    }

    /// The hexes of `power`'s stacks next to `target` (other than `exclude`) that `support` calls;
    /// for an attack (10.1) only stacks undisrupted and not foraging, with strength.
    pub(crate) fn support_candidates(
        &self,
        power: &str,
        target: &str,
        exclude: &str,
        support: &Support,
        attacking: bool,
    ) -> Vec<String> {
        let eligible = |h: &String| {
            let stack: Vec<_> = self.ngg.stack(h, power).collect();
            h != exclude
                && self.adjacent(h, target)
                && stack.iter().any(|u| u.sp > 0)
                && (!attacking || stack.iter().all(|u| !u.disrupted && !u.forage))
        };
        match support {
            Support::None => Vec::new(),
            Support::All => self
                .neighbours(target)
                .into_iter()
                .filter(eligible)
                .collect(),
            Support::Hexes(hs) => hs.iter().filter(|h| eligible(h)).cloned().collect(),
        }
    }

    /// 10.5-10.6: the defender's supporting stacks, his CCs and a test for each; the hexes that join.
    fn call_defence(
        &mut self,
        n: u32,
        power: &str,
        target: &str,
        explicit: (Option<u32>, Option<Support>),
    ) -> Result<Vec<String>> {
        let (support, by) = match explicit.1 {
            Some(s) => (s, DecidedBy::Order),
            None => {
                let d = self.decide(
                    NggPoint::DefenceSupport,
                    power,
                    None,
                    Some(target),
                    support_word,
                    Support::All,
                );
                (d.value, d.by)
            }
        };
        let candidates = self.support_candidates(power, target, target, &support, false);
        let mut joined = Vec::new();
        if candidates.is_empty() {
            let text = format!(
                "{power} calls no supporting stack for {} (support {support}{}: none next to it); it spends no CC, and the defending stack fights alone.",
                self.name(target),
                by.aside(" ", ""),
                power = self.who(power)
            );
            self.log(
                Event::new(rules::DEFENCE_CALL, "defence", text)
                    .at(target)
                    .decided(power, by),
            );
            return Ok(joined);
        }
        let cc_text = explicit.0.map(|c| c.to_string());
        let want = self.decide(
            NggPoint::DefenceCc,
            power,
            cc_text.as_deref(),
            Some(target),
            number,
            0,
        );
        let reserve = self.decide(NggPoint::DefenceReserve, power, None, None, number, 0);
        let left = self.chits[power];
        let cc = want.value.min(left.saturating_sub(reserve.value));
        *self.chits.get_mut(power).expect("both sides") = left - cc;
        // pbem's reading of NGG 10.1: it forbids a stack under a forage marker (and, for the
        // attacking stack, a disrupted one) to attack or support an attack, and says nothing of the
        // defence: such a stack may support a defence, and the event says so.
        let marked: Vec<String> = candidates
            .iter()
            .filter(|h| self.ngg.stack(h, power).any(|u| u.forage || u.disrupted))
            .map(|h| self.name(h))
            .collect();
        // How it was decided is the deciding power's alone (`DecidedBy::aside`): the note stands
        // for every power, in the brackets alone when it is all they are told.
        let call = if marked.is_empty() {
            format!(
                "{power} calls {} to support {}{}.",
                self.stacks_in(&candidates),
                self.name(target),
                by.aside(" (", ")"),
                power = self.who(power)
            )
        } else {
            format!(
                "{power} calls {} to support {} ({}{} foraging or disrupted, may support a defence (NGG 10.1 forbids it only in an attack: pbem's reading)).",
                self.stacks_in(&candidates),
                self.name(target),
                by.aside("", "; "),
                marked.join(", "),
                power = self.who(power)
            )
        };
        self.log(
            Event::new(rules::DEFENCE_CALL, "defence", call)
                .at(target)
                .decided(power, by),
        );
        let mut text = format!(
            "{power} allocates {cc} CC to the defence of {} ({}{}",
            self.name(target),
            want.value,
            want.by.aside(" ", ""),
            power = self.who(power)
        );
        if cc < want.value {
            text.push_str(&format!(
                "; {left} left, the last {} never spent{}",
                reserve.value,
                reserve.by.aside(" ", "")
            ));
        }
        text.push_str(&format!("); {} left.", left - cc));
        self.log(
            Event::new(rules::DEFENCE_TEST, "defence", text)
                .at(target)
                .decided(power, want.by),
        );
        for h in candidates {
            let cr = self.ngg.best_cr(&h, power);
            let roll = self.dice.roll(&labels::defence(n, &h), &[6])?;
            let die = roll.dice[0].face;
            let ok = passes(die, cc, cr);
            let text = format!(
                "Attack {n}: the defender's supporting stack in {} rolls {}: {}: it {}.",
                self.name(&h),
                roll.told(0),
                sum_text(&roll, cc, cr),
                if ok {
                    "joins the defence"
                } else {
                    "fails its test and stays out"
                }
            );
            self.log(
                Event::new(rules::DEFENCE_TEST, "defence", text)
                    .at(target)
                    .roll(roll)
                    .decided(power, DecidedBy::Roll),
            );
            if ok {
                joined.push(h);
            }
        }
        Ok(joined)
    }

    /// NGG 10.9, then pbem's end of turn: force march markers, then disruption and forage markers.
    pub fn end_of_combat(&mut self) {
        let marked: Vec<String> = self
            .ngg
            .units
            .iter()
            .filter(|u| u.force_march)
            .map(|u| u.id().to_string())
            .collect();
        for u in &mut self.ngg.units {
            u.force_march = false;
        }
        let text = if marked.is_empty() {
            "Both players are done attacking: there is no force march marker to remove.".to_string()
        } else {
            format!(
                "Both players are done attacking: the force march {} of {} {} removed.",
                verb(marked.len(), "marker", "markers"),
                marked.join(", "),
                verb(marked.len(), "is", "are")
            )
        };
        self.event(rules::END, "end", None, text);
        let ids =
            |f: fn(&super::state::Unit) -> bool, units: &[super::state::Unit]| -> Vec<String> {
                units
                    .iter()
                    .filter(|u| f(u))
                    .map(|u| u.id().to_string())
                    .collect()
            };
        let disrupted = ids(|u| u.disrupted, &self.ngg.units);
        let foraging = ids(|u| u.forage, &self.ngg.units);
        for u in &mut self.ngg.units {
            u.disrupted = false;
            u.forage = false;
        }
        if !disrupted.is_empty() {
            let text = format!(
                "End of turn: {} {} from disruption.",
                disrupted.join(", "),
                verb(disrupted.len(), "recovers", "recover")
            );
            self.event(rules::RECOVER, "recover", None, text);
        }
        if !foraging.is_empty() {
            let text = format!(
                "End of turn: the forage {} of {} {} removed.",
                verb(foraging.len(), "marker", "markers"),
                foraging.join(", "),
                verb(foraging.len(), "is", "are")
            );
            self.event(rules::RECOVER, "recover", None, text);
        }
    }
}

/// `all` or `none`, as a standing order or the SOP writes it.
pub(crate) fn support_word(s: &str) -> Option<Support> {
    match s {
        "all" => Some(Support::All),
        "none" => Some(Support::None),
        _ => None,
    }
}
