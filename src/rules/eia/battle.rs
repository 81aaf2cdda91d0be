//! One land combat (EiA 7.5): the sides and their commanders (10.6.1.1), the tactical chits (19.1),
//! and the rounds on the combat table, then pursuit and retreat of the loser.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Sources};
use crate::engine::event::{DecisionNote, Event};
use crate::game::state::{CorpsKind, Tenths};
use crate::rule::Rule;

use super::board::Board;
use super::decisions::{EiaPoint, COMMANDER};
use super::labels;
use super::phase::Phase;

/// EiA 7.5: land combat, one round on the combat table (the table is the game's own, see tables.toml).
pub const COMBAT: Rule = Rule::new("EiA", "7.5", "land combat");
/// One side of a combat.
#[derive(Debug, Clone)]
pub(super) struct Side {
    pub(super) powers: BTreeSet<String>,
    /// The power whose commander leads the side and whose chit it plays.
    pub(super) lead: String,
    pub(super) commander: Option<usize>,
    pub(super) chit: String,
    pub(super) morale: i64,
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
        self.reinforce(area, &attackers, &involved)?;
        self.reinforce(area, &defenders, &involved)?;
        let mut att = self.side("attacker", area, attackers, &involved)?;
        let mut def = self.side("defender", area, defenders, &involved)?;
        att.chit = self.chit(EiaPoint::AttackChit, &att.lead, &name, &involved, area)?;
        def.chit = self.chit(EiaPoint::DefenceChit, &def.lead, &name, &involved, area)?;
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

        let mut broke: Option<&'static str> = None;
        for round in 1..=self.eia.tables.combat.rounds {
            let label = labels::combat_round(&name, round);
            let roll = self.dice.roll(&label, &[6, 6])?;
            let (a_die, d_die) = (roll.dice[0].face as i32, roll.dice[1].face as i32);
            let a_mod = a_die + att_chit_drm + leader_drm;
            let d_mod = d_die + def_chit_drm - leader_drm;
            let a_factors = self.factors(&att, area);
            let d_factors = self.factors(&def, area);
            let on_def = self
                .eia
                .tables
                .result(a_mod, self.eia.tables.column(a_factors));
            let on_att = self
                .eia
                .tables
                .result(d_mod, self.eia.tables.column(d_factors));
            let lost_def = self.take_losses(&def, area, on_def.factors);
            let lost_att = self.take_losses(&att, area, on_att.factors);
            def.morale -= on_def.morale;
            att.morale -= on_att.morale;
            let text = format!(
                "Round {round} at {name}: attacker rolls {a_die} (modified {a_mod}), defender rolls {d_die} (modified {d_mod}). \
                 Attacker loses {} and {} morale (now {}); defender loses {} and {} morale (now {}).",
                factors(lost_att),
                Tenths(on_att.morale),
                Tenths(att.morale),
                factors(lost_def),
                Tenths(on_def.morale),
                Tenths(def.morale)
            );
            self.push(
                Event::new(COMBAT, "round", text).roll(roll),
                area,
                &involved,
            );
            let a_gone = self.factors(&att, area) == 0;
            let d_gone = self.factors(&def, area) == 0;
            broke = match (att.morale <= 0 || a_gone, def.morale <= 0 || d_gone) {
                (true, true) if def.morale < att.morale && !d_gone => Some("defender"),
                (true, _) => Some("attacker"),
                (false, true) => Some("defender"),
                (false, false) => None,
            };
            if broke.is_some() {
                break;
            }
        }
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
        let how = if broke.is_some() {
            "breaks"
        } else {
            "gives way at the end of the day"
        };
        let text = format!(
            "{} wins at {name}; {} {how}.",
            join(&winner.powers),
            join(&loser.powers)
        );
        self.push(Event::new(COMBAT, "result", text), area, &involved);
        let (winner, loser) = (winner.clone(), loser.clone());
        self.pursue(area, &winner, &loser, &involved)?;
        self.retreat(area, &loser, &involved)?;
        Ok(())
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
        format!(
            "{} with {} ({} factors, morale {}, {leader})",
            join(&side.powers),
            corps.join(", "),
            self.factors(side, area),
            Tenths(side.morale)
        )
    }

    pub(super) fn side_corps(&self, side: &Side, area: usize) -> Vec<usize> {
        self.board
            .corps_in(area)
            .into_iter()
            .filter(|&i| side.powers.contains(&self.board.corps[i].power))
            .collect()
    }

    pub(super) fn factors(&self, side: &Side, area: usize) -> u32 {
        self.side_corps(side, area)
            .iter()
            .map(|&i| self.board.corps[i].factors)
            .sum()
    }

    /// Removes `n` factors from a side, one at a time from its strongest corps (guard last); a corps at
    /// zero factors is eliminated. Returns the factors actually lost.
    pub(super) fn take_losses(&mut self, side: &Side, area: usize, n: u32) -> u32 {
        let mut lost = 0;
        for _ in 0..n {
            let corps = self.side_corps(side, area);
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
        involved: &BTreeSet<String>,
    ) -> Result<Side> {
        let mut side = Side {
            powers,
            lead: String::new(),
            commander: None,
            chit: String::new(),
            morale: 0,
        };
        let corps = self.side_corps(&side, area);
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
        let mut leaders: Vec<usize> = (0..self.board.leaders.len())
            .filter(|&l| {
                self.board.leaders[l].area == area
                    && eligible.contains(&self.board.leaders[l].power)
            })
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
                let label = labels::commander(&self.map.area(area).id, name);
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
                let mut e = Event::new(COMMANDER, "decision", text).roll(roll);
                e.decision = Some(DecisionNote {
                    power: self.board.leaders[pick].power.clone(),
                    by: DecidedBy::Roll,
                });
                self.push(e, area, involved);
                pick
            } else {
                if eligible.len() > 1 {
                    let text = format!(
                        "{} commands the {name} at {}: the most senior of the equally eligible leaders.",
                        self.board.leaders[first].id,
                        self.map.area(area).id
                    );
                    let mut e = Event::new(COMMANDER, "decision", text);
                    e.decision = Some(DecisionNote {
                        power: self.board.leaders[first].power.clone(),
                        by: DecidedBy::Sop,
                    });
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
            "{power} plays the {side} chit '{}' at {area_name} ({}).",
            d.value,
            by.describe()
        );
        let mut e = Event::new(d.rule, "decision", text);
        e.decision = Some(DecisionNote {
            power: power.to_string(),
            by,
        });
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
