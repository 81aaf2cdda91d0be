//! The EiA land phase after movement: declared attacks, the random order of combats (7.5.1.3),
//! reinforcement (7.5.2.11), the force commander (10.6.1.1), tactical chits (19.1), rounds on the
//! combat table, pursuit (7.5.2.10.2), retreat (7.5.2.10.3) and control of areas.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Sources};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::{DecisionNote, Event};
use crate::game::map::Map;
use crate::game::state::{CorpsKind, State, Tenths};
use crate::game::Game;
use crate::rule::Rule;
use crate::rules::Resolution;

use super::board::Board;
use super::decisions::{
    always_never, EiaPoint, COMBAT_ORDER, COMMANDER, PURSUIT, REINFORCE, RETREAT,
};
use super::orders::EiaOrder;
use super::visibility::watchers;
use super::{labels, movement, Eia};

/// EiA 7.5: land combat, one round on the combat table (the table is the game's own, see tables.toml).
pub const COMBAT: Rule = Rule::new("EiA", "7.5", "land combat");
/// EiA 7.5: a declared attack needs enemy corps in the area after movement.
pub const ATTACK: Rule = Rule::new(
    "EiA",
    "7.5",
    "attacks are declared on areas holding enemy corps",
);
/// EiA 7: control of an area passes to the only power with corps in it.
pub const CONTROL: Rule = Rule::new(
    "EiA",
    "7",
    "control passes to the only power with corps in an area",
);

/// One side of a combat.
#[derive(Debug, Clone)]
struct Side {
    powers: BTreeSet<String>,
    /// The power whose commander leads the side and whose chit it plays.
    lead: String,
    commander: Option<usize>,
    chit: String,
    morale: i64,
}

/// Everything a combat needs, borrowed for the phase.
struct Phase<'a> {
    eia: &'a Eia,
    map: &'a Map,
    board: Board,
    dice: &'a mut DiceBox,
    events: Vec<Event>,
    /// Explicit chit orders: power -> area -> chit.
    chits: BTreeMap<String, BTreeMap<String, String>>,
    /// Standing orders, as of this turn's orders.
    standing: BTreeMap<String, BTreeMap<String, String>>,
    /// Areas where a combat takes place this turn.
    battlefields: BTreeSet<usize>,
    /// Depot and capital areas of each power, from the control at the start of the turn.
    depots: BTreeMap<String, Vec<usize>>,
}

/// Resolves the land phase of a turn.
pub fn resolve_land_phase(
    eia: &Eia,
    game: &Game,
    state: &State,
    orders: &BTreeMap<String, Vec<EiaOrder>>,
    dice: &mut DiceBox,
) -> Result<Resolution> {
    let map = &game.map;
    let mut standing = state.standing.clone();
    let mut chits: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (power, list) in orders {
        for o in list {
            match o {
                EiaOrder::Standing { key, value } => {
                    standing
                        .entry(power.clone())
                        .or_default()
                        .insert(key.clone(), value.clone());
                }
                EiaOrder::Chit { area, chit } => {
                    chits
                        .entry(power.clone())
                        .or_default()
                        .insert(area.clone(), chit.clone());
                }
                _ => {}
            }
        }
    }
    let mut depots: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, a) in map.areas.iter().enumerate() {
        if let Some(cap) = &a.capital {
            depots.entry(cap.clone()).or_default().push(i);
        }
        if a.depot {
            if let Some(owner) = state.control.get(&a.id) {
                depots.entry(owner.clone()).or_default().push(i);
            }
        }
    }
    let mut phase = Phase {
        eia,
        map,
        board: Board::new(map, state),
        dice,
        events: Vec::new(),
        chits,
        standing: standing.clone(),
        battlefields: BTreeSet::new(),
        depots,
    };
    movement::move_units(map, &mut phase.board, orders, &mut phase.events);
    let combats = phase.declared_combats(orders);
    phase.battlefields = combats.iter().map(|c| c.0).collect();
    for (area, attacker) in phase.combat_order(combats)? {
        phase.fight(area, &attacker)?;
    }
    let mut next = phase.board.to_state(map, state);
    next.standing = standing;
    phase.update_control(&mut next);
    Ok(Resolution {
        events: phase.events,
        next,
    })
}

impl Phase<'_> {
    fn all_powers(&self) -> BTreeSet<String> {
        self.board
            .corps
            .iter()
            .map(|c| c.power.clone())
            .chain(self.board.leaders.iter().map(|l| l.power.clone()))
            .collect()
    }

    fn watchers_of(&self, area: usize, also: &BTreeSet<String>) -> BTreeSet<String> {
        let mut w = watchers(self.map, &self.board.positions(), area);
        w.extend(also.iter().cloned());
        w
    }

    fn push(&mut self, event: Event, area: usize, also: &BTreeSet<String>) {
        let seen = self.watchers_of(area, also);
        let area_id = self.map.area(area).id.clone();
        self.events
            .push(event.at(&area_id).seen_by(seen.iter().map(String::as_str)));
    }

    /// The attacks that lead to combat: declared by a power with corps in the area, against another
    /// power's corps there. Where several powers declare on one area, the one with most factors attacks.
    fn declared_combats(
        &mut self,
        orders: &BTreeMap<String, Vec<EiaOrder>>,
    ) -> Vec<(usize, String)> {
        let mut by_area: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for (power, list) in orders {
            for o in list {
                if let EiaOrder::Attack { area } = o {
                    let a = self.map.find(area).expect("checked order");
                    by_area.entry(a).or_default().push(power.clone());
                }
            }
        }
        let mut combats = Vec::new();
        for (area, declarers) in by_area {
            let present = self.board.powers_in(area);
            let mut able: Vec<&String> =
                declarers.iter().filter(|p| present.contains(*p)).collect();
            able.dedup();
            let factors = |p: &str| -> u32 {
                self.board
                    .corps_in(area)
                    .iter()
                    .filter(|&&i| self.board.corps[i].power == p)
                    .map(|&i| self.board.corps[i].factors)
                    .sum()
            };
            able.sort_by(|a, b| factors(b).cmp(&factors(a)).then(a.cmp(b)));
            let name = self.map.area(area).id.clone();
            for p in &declarers {
                let why = if !present.contains(p) {
                    Some(format!(
                        "{p} declares an attack on {name} but has no corps there after movement."
                    ))
                } else if !self.board.enemies_in(area, p) {
                    Some(format!(
                        "{p} declares an attack on {name}, but no enemy corps are there."
                    ))
                } else {
                    None
                };
                if let Some(text) = why {
                    let also = BTreeSet::from([p.clone()]);
                    self.push(Event::new(ATTACK, "attack", text), area, &also);
                }
            }
            if let Some(attacker) = able.into_iter().find(|p| self.board.enemies_in(area, p)) {
                combats.push((area, attacker.clone()));
            }
        }
        combats
    }

    /// EiA 7.5.1.3: the combats in random order: a shuffle of the areas sorted by id.
    fn combat_order(&mut self, mut combats: Vec<(usize, String)>) -> Result<Vec<(usize, String)>> {
        combats.sort_by(|a, b| {
            self.map
                .area(a.0)
                .id
                .as_bytes()
                .cmp(self.map.area(b.0).id.as_bytes())
        });
        if combats.len() < 2 {
            return Ok(combats);
        }
        let sorted: Vec<String> = combats
            .iter()
            .map(|c| self.map.area(c.0).id.clone())
            .collect();
        let roll = self.dice.shuffle(&labels::combat_order(), &mut combats)?;
        let order: Vec<String> = combats
            .iter()
            .map(|c| self.map.area(c.0).id.clone())
            .collect();
        let text = format!(
            "The combats of [{}] are fought in the order [{}].",
            sorted.join(", "),
            order.join(", ")
        );
        let mut e = Event::new(COMBAT_ORDER, "combat-order", text).roll(roll);
        e.decision = Some(DecisionNote {
            power: "all".into(),
            by: DecidedBy::Roll,
        });
        let everyone = self.all_powers();
        self.events
            .push(e.seen_by(everyone.iter().map(String::as_str)));
        Ok(combats)
    }

    fn fight(&mut self, area: usize, attacker: &str) -> Result<()> {
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

    fn describe(&self, side: &Side, area: usize) -> String {
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

    fn side_corps(&self, side: &Side, area: usize) -> Vec<usize> {
        self.board
            .corps_in(area)
            .into_iter()
            .filter(|&i| side.powers.contains(&self.board.corps[i].power))
            .collect()
    }

    fn factors(&self, side: &Side, area: usize) -> u32 {
        self.side_corps(side, area)
            .iter()
            .map(|&i| self.board.corps[i].factors)
            .sum()
    }

    /// Removes `n` factors from a side, one at a time from its strongest corps (guard last); a corps at
    /// zero factors is eliminated. Returns the factors actually lost.
    fn take_losses(&mut self, side: &Side, area: usize, n: u32) -> u32 {
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
    fn side(
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
    fn chit(
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

    /// EiA 7.5.2.11: corps of the side's powers in adjacent areas, not on a battlefield, try to march to
    /// the battle: a d6 of at most the best rating of their power's leaders with them (or the table's
    /// value without one) succeeds.
    fn reinforce(
        &mut self,
        area: usize,
        powers: &BTreeSet<String>,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let name = self.map.area(area).id.clone();
        for power in powers {
            let candidates: Vec<usize> = (0..self.board.corps.len())
                .filter(|&i| {
                    let c = &self.board.corps[i];
                    !c.eliminated
                        && &c.power == power
                        && self.map.adjacent(c.area, area)
                        && !self.battlefields.contains(&c.area)
                })
                .collect();
            if candidates.is_empty() {
                continue;
            }
            let sources = Sources {
                explicit: None,
                standing: self.standing.get(power),
                sop: &self.eia.sop,
                scope: None,
            };
            let d = decide(&EiaPoint::Reinforce, &sources, always_never, || Ok(true))?;
            if !d.value {
                let text = format!(
                    "{power} does not try to reinforce at {name} ({}).",
                    d.by.describe()
                );
                let mut e = Event::new(REINFORCE, "decision", text);
                e.decision = Some(DecisionNote {
                    power: power.clone(),
                    by: d.by,
                });
                self.push(e, area, involved);
                continue;
            }
            for i in candidates {
                let from = self.board.corps[i].area;
                let need = self
                    .board
                    .leaders
                    .iter()
                    .filter(|l| l.area == from && &l.power == power)
                    .map(|l| l.rating)
                    .max()
                    .unwrap_or(self.eia.tables.reinforce.no_leader);
                let id = self.board.corps[i].id.clone();
                let roll = self.dice.roll(&labels::reinforce(&name, &id), &[6])?;
                let face = roll.dice[0].face;
                let ok = face <= need;
                if ok {
                    self.board.corps[i].area = area;
                }
                let text = format!(
                    "{id} ({power}) tries to march from {} to the battle at {name} ({}): rolls {face}, needs {need} or less: {}.",
                    self.map.area(from).id,
                    d.by.describe(),
                    if ok { "it arrives" } else { "it does not arrive" }
                );
                let mut e = Event::new(REINFORCE, "reinforce", text).roll(roll);
                e.decision = Some(DecisionNote {
                    power: power.clone(),
                    by: d.by,
                });
                let mut also = involved.clone();
                also.extend(watchers(self.map, &self.board.positions(), from));
                self.push(e, area, &also);
            }
        }
        Ok(())
    }

    /// EiA 7.5.2.10.2: the victor pursues (SOP: always): a d6 modified by the cavalry advantage gives
    /// the loser's extra losses.
    fn pursue(
        &mut self,
        area: usize,
        winner: &Side,
        loser: &Side,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let name = self.map.area(area).id.clone();
        if self.factors(loser, area) == 0 {
            return Ok(());
        }
        let sources = Sources {
            explicit: None,
            standing: self.standing.get(&winner.lead),
            sop: &self.eia.sop,
            scope: None,
        };
        let d = decide(&EiaPoint::Pursue, &sources, always_never, || Ok(true))?;
        if !d.value {
            let text = format!(
                "{} does not pursue at {name} ({}).",
                winner.lead,
                d.by.describe()
            );
            let mut e = Event::new(PURSUIT, "pursuit", text);
            e.decision = Some(DecisionNote {
                power: winner.lead.clone(),
                by: d.by,
            });
            self.push(e, area, involved);
            return Ok(());
        }
        let mounted = |s: &Side, me: &Self| -> i32 {
            me.side_corps(s, area)
                .iter()
                .map(|&i| &me.board.corps[i])
                .filter(|c| c.kind.is_mounted())
                .map(|c| c.factors as i32)
                .sum()
        };
        let t = &self.eia.tables.pursuit;
        let drm = ((mounted(winner, self) - mounted(loser, self)) / t.cavalry_per_drm as i32)
            .clamp(-t.max_drm, t.max_drm);
        let roll = self.dice.roll(&labels::pursuit(&name), &[6])?;
        let face = roll.dice[0].face as i32;
        let row = (face + drm).clamp(1, t.losses.len() as i32) as usize - 1;
        let extra = t.losses[row];
        let lost = self.take_losses(loser, area, extra);
        let text = format!(
            "{} pursues at {name} ({}): rolls {face}, cavalry modifier {drm:+}: {} loses {} more.",
            winner.lead,
            d.by.describe(),
            join(&loser.powers),
            factors(lost)
        );
        let mut e = Event::new(PURSUIT, "pursuit", text).roll(roll);
        e.decision = Some(DecisionNote {
            power: winner.lead.clone(),
            by: d.by,
        });
        self.push(e, area, involved);
        Ok(())
    }

    /// EiA 7.5.2.10.3: each losing power's corps and leaders in the area retreat to an adjacent land
    /// area free of the victor's corps, the one nearest a depot or capital of their own; a roll among
    /// equally near ones. With nowhere to go, the corps surrender.
    fn retreat(&mut self, area: usize, loser: &Side, involved: &BTreeSet<String>) -> Result<()> {
        let name = self.map.area(area).id.clone();
        for power in &loser.powers {
            let corps: Vec<usize> = self
                .board
                .corps_in(area)
                .into_iter()
                .filter(|&i| &self.board.corps[i].power == power)
                .collect();
            let leaders: Vec<usize> = (0..self.board.leaders.len())
                .filter(|&l| {
                    self.board.leaders[l].area == area && &self.board.leaders[l].power == power
                })
                .collect();
            if corps.is_empty() && leaders.is_empty() {
                continue;
            }
            let candidates: Vec<usize> = self
                .map
                .area(area)
                .adjacent
                .iter()
                .copied()
                .filter(|&n| self.map.area(n).is_land())
                .filter(|&n| !self.board.enemies_in(n, power))
                .collect();
            let depots = self.depots.get(power).cloned().unwrap_or_default();
            let dist = self.map.land_distances(&depots);
            let best = candidates
                .iter()
                .map(|&n| dist[n].unwrap_or(u32::MAX))
                .min();
            let mut tied: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&n| Some(dist[n].unwrap_or(u32::MAX)) == best)
                .collect();
            tied.sort_by(|a, b| {
                self.map
                    .area(*a)
                    .id
                    .as_bytes()
                    .cmp(self.map.area(*b).id.as_bytes())
            });
            let mut e = match tied.len() {
                0 => {
                    for &i in &corps {
                        self.board.corps[i].eliminated = true;
                    }
                    let ids: Vec<&str> = corps
                        .iter()
                        .map(|&i| self.board.corps[i].id.as_str())
                        .collect();
                    let text = format!("{power} cannot retreat from {name}: every adjacent area holds the victor's corps; {} surrender.", ids.join(", "));
                    let mut e = Event::new(RETREAT, "retreat", text);
                    e.decision = Some(DecisionNote {
                        power: power.clone(),
                        by: DecidedBy::Sop,
                    });
                    e
                }
                _ => {
                    let (to, roll) = if tied.len() == 1 {
                        (tied[0], None)
                    } else {
                        let roll = self
                            .dice
                            .roll(&labels::retreat(&name, power), &[tied.len() as u32])?;
                        (tied[roll.dice[0].face as usize - 1], Some(roll))
                    };
                    for &i in &corps {
                        self.board.corps[i].area = to;
                    }
                    for &l in &leaders {
                        self.board.leaders[l].area = to;
                    }
                    let units: Vec<&str> = corps
                        .iter()
                        .map(|&i| self.board.corps[i].id.as_str())
                        .chain(leaders.iter().map(|&l| self.board.leaders[l].id.as_str()))
                        .collect();
                    let why = match (&roll, best) {
                        (Some(_), _) => {
                            let names: Vec<&str> =
                                tied.iter().map(|&n| self.map.area(n).id.as_str()).collect();
                            format!(
                                "{} are equally near a depot or capital, the die chooses",
                                names.join(" and ")
                            )
                        }
                        (None, Some(u32::MAX)) | (None, None) => {
                            "the only area open to it".to_string()
                        }
                        (None, Some(d)) => format!("nearest a depot or capital, {d} areas away"),
                    };
                    let text = format!(
                        "{power} retreats from {name} to {} ({why}): {}.",
                        self.map.area(to).id,
                        units.join(", ")
                    );
                    let mut e = Event::new(RETREAT, "retreat", text);
                    e.decision = Some(DecisionNote {
                        power: power.clone(),
                        by: if roll.is_some() {
                            DecidedBy::Roll
                        } else {
                            DecidedBy::Sop
                        },
                    });
                    if let Some(r) = roll {
                        e = e.roll(r);
                    }
                    let mut also = involved.clone();
                    also.extend(watchers(self.map, &self.board.positions(), to));
                    self.push(e, area, &also);
                    continue;
                }
            };
            e.visible_to.extend(involved.iter().cloned());
            self.push(e, area, involved);
        }
        Ok(())
    }

    /// The factors of `power`'s corps in `area`.
    fn strength(&self, area: usize, power: &str) -> u32 {
        self.board
            .corps_in(area)
            .iter()
            .map(|&i| &self.board.corps[i])
            .filter(|c| c.power == power)
            .map(|c| c.factors)
            .sum()
    }

    /// EiA 7: after the land phase each land area with corps of a single power is controlled by it.
    fn update_control(&mut self, next: &mut State) {
        for (i, a) in self.map.areas.iter().enumerate() {
            if !a.is_land() {
                continue;
            }
            let powers = self.board.powers_in(i);
            let Some(first) = powers.iter().next() else {
                continue;
            };
            // Contested areas change hands in no one's favour; allies never take each other's areas.
            if powers.iter().any(|p| !self.board.friendly(p, first)) {
                continue;
            }
            let old = next.control.get(&a.id).cloned();
            if old.as_ref().is_some_and(|o| self.board.friendly(o, first)) {
                continue;
            }
            let p = powers
                .iter()
                .max_by_key(|p| (self.strength(i, p), std::cmp::Reverse((*p).clone())))
                .expect("a power")
                .clone();
            next.control.insert(a.id.clone(), p.clone());
            if old.as_ref() != Some(&p) {
                let was = old
                    .clone()
                    .map_or("uncontrolled".to_string(), |o| format!("held by {o}"));
                let text = format!("{p} takes control of {} (was {was}).", a.id);
                let mut also = BTreeSet::from([p.clone()]);
                also.extend(old);
                self.push(Event::new(CONTROL, "control", text), i, &also);
            }
        }
    }
}

trait Swap {
    fn swap(self) -> Self;
}

impl<'a> Swap for (&'a Side, &'a Side) {
    fn swap(self) -> Self {
        (self.1, self.0)
    }
}

/// "1 factor", "3 factors".
fn factors(n: u32) -> String {
    if n == 1 {
        "1 factor".to_string()
    } else {
        format!("{n} factors")
    }
}

fn join(powers: &BTreeSet<String>) -> String {
    powers.iter().cloned().collect::<Vec<_>>().join(" and ")
}

fn format_drms(att_chit: i32, def_chit: i32, leader: i32) -> String {
    format!("Chit modifiers {att_chit:+} (attacker) and {def_chit:+} (defender); leader modifier {leader:+} to the attacker, {:+} to the defender.", -leader)
}
