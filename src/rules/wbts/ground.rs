//! Ground combat on the board (WBTS ground, march, fort): an attack's initiative roll, then one
//! engagement from the defender's choices to the advance, through the procedure of `combat.rs`; the
//! combat supply within reach, the losses spread, retreats and advances. Attacks of the combat phase,
//! attacks from march, storms of forts and sorties of besieged garrisons all come through
//! [`Turn::battle`].

use std::collections::BTreeSet;

use anyhow::Result;

use crate::decide::{DecidedBy, Decision};
use crate::engine::event::Event;
use crate::rules::wording::verb;

use super::board::Crossing;
use super::combat::{self, cap_chit, Commander, Force, ShiftPolicy, Side};
use super::decisions::WbtsPoint;
use super::losses::{spread, Casualty, LossPolicy};
use super::orders::Attack;
use super::rules;
use super::state::{Rank, ShipKind, UnitKind};
use super::turn::{Engagement, Turn};

impl Turn<'_> {
    /// An attack of the combat phase: the leader's initiative roll first (WBTS ground/initiative).
    pub fn attack(&mut self, a: &Attack) -> Result<()> {
        let Some(l) = self.w.leader(&a.leader).cloned() else {
            self.event(
                rules::INITIATIVE,
                "combat-off",
                Some(&a.target),
                format!(
                    "The attack on {} is called off: {} is no longer on the map.",
                    a.target, a.leader
                ),
            );
            return Ok(());
        };
        let roll = self
            .dice
            .roll(&format!("initiative/leader={}", l.id()), &[6])?;
        let die = roll.dice[0].face;
        let passes = self.tables.initiative_passes(l.initiative, die);
        let text = format!(
            "{} (initiative {}) rolls {} for combat initiative against {}: {}.",
            l.id(),
            l.initiative,
            roll.told(0),
            a.target,
            if passes {
                "he attacks"
            } else {
                "he fails, and no attack is made"
            }
        );
        self.event_rolls(rules::INITIATIVE, "initiative", &a.target, text, vec![roll]);
        if !passes {
            return Ok(());
        }
        let units = if a.units.is_empty() {
            let lhex = l.hex().to_string();
            self.w
                .units
                .iter()
                .filter(|u| u.hex() == lhex && !u.is_train() && self.w.commands(&l, u))
                .map(|u| u.id().to_string())
                .collect()
        } else {
            a.units.clone()
        };
        self.battle(Engagement {
            target: a.target.clone(),
            leader: a.leader.clone(),
            units,
            chit: a.chit,
            shift: a.shift,
            march: false,
            advance: a.advance,
        })
    }

    /// Supply points within reach of `hexes` for `power`: its trains in or next to them, and its army
    /// HQs in or next to them (WBTS ground/supply); the sources in the order they are drawn on:
    /// trains first, then army HQs, each in the state's order (`rules::SUPPLY_ORDER`, pbem's). Loose
    /// supply points on the map and depots are not modelled (docs/rules/wbts.md).
    pub(super) fn supply_sources(&self, hexes: &[String], power: &str) -> Vec<(String, u32)> {
        let near = |h: &str| hexes.iter().any(|x| x == h || self.board.adjacent(x, h));
        let trains = self
            .w
            .units
            .iter()
            .filter(|u| u.power() == power && u.is_train() && u.supply > 0 && near(u.hex()))
            .map(|u| (u.id().to_string(), u.supply));
        let hqs = self
            .w
            .leaders
            .iter()
            .filter(|l| l.power() == power && l.rank == Rank::Army && l.supply > 0 && near(l.hex()))
            .map(|l| (l.id().to_string(), l.supply));
        trains.chain(hqs).collect()
    }

    /// Spends `cost` supply points from the sources, in order (`rules::SUPPLY_ORDER`): what each
    /// paid, "T1 2, McClellan 1".
    pub(super) fn spend(&mut self, sources: &[(String, u32)], cost: u32) -> String {
        let mut owed = cost;
        let mut paid = Vec::new();
        for (id, _) in sources {
            if owed == 0 {
                break;
            }
            let take = if let Some(u) = self.w.unit_mut(id) {
                let take = u.supply.min(owed);
                u.supply -= take;
                take
            } else if let Some(l) = self.w.leader_mut(id) {
                let take = l.supply.min(owed);
                l.supply -= take;
                take
            } else {
                0
            };
            owed -= take;
            if take > 0 {
                paid.push(format!("{id} {take}"));
            }
        }
        paid.join(", ")
    }

    /// One combat, from the defender's choices to the advance.
    pub fn battle(&mut self, e: Engagement) -> Result<()> {
        let attacker = self.active.clone();
        let target = e.target.clone();
        let Some(leader) = self.w.leader(&e.leader).cloned() else {
            return Ok(());
        };
        // The attackers still able to attack: next to the target, or in its hex to storm its fort.
        let crossing_ok = |t: &Turn<'_>, h: &str| {
            h == target
                || (t.board.adjacent(h, &target)
                    && t.board.crossing(h, &target) != Crossing::Closed)
        };
        let units: Vec<String> = e
            .units
            .iter()
            .filter(|id| {
                self.w.unit(id).is_some_and(|u| {
                    u.power() == attacker
                        && u.strength > 0
                        && !u.is_train()
                        && crossing_ok(self, u.hex())
                })
            })
            .cloned()
            .collect();
        let (outside, inside) = self.enemies_in(&target, &attacker);
        let in_hex = !units.is_empty()
            && units
                .iter()
                .all(|u| self.unit_hex(u).as_deref() == Some(target.as_str()));
        // WBTS fort/siege: a besieged garrison may attack its besiegers (a sortie); units in a fort's
        // hex but outside it storm the garrison (WBTS fort/storm).
        let sortie = in_hex
            && units
                .iter()
                .all(|u| self.w.unit(u).is_some_and(|u| u.inside));
        let storm = in_hex && !sortie;
        if units.is_empty() || (storm && inside.is_empty()) || (!storm && outside.is_empty()) {
            self.event(
                rules::TWO_HEXES,
                "combat-off",
                Some(&target),
                format!("The attack by {} on {target} is called off: no attacker can still reach an enemy there.", e.leader),
            );
            return Ok(());
        }
        if e.march && storm {
            return Ok(());
        }
        let mut defenders = if storm { inside } else { outside };
        let defender = self
            .w
            .unit(&defenders[0])
            .map(|u| u.power().to_string())
            .unwrap_or_else(|| self.other(&attacker));
        let cavalry_only_defence = |t: &Turn<'_>, ids: &[String]| {
            ids.iter()
                .all(|d| t.w.unit(d).is_some_and(|u| u.kind == UnitKind::Cavalry))
        };
        // WBTS march/evade: cavalry may retreat before an infantry-only attack from march.
        let infantry_only = units
            .iter()
            .all(|u| self.w.unit(u).is_some_and(|u| u.kind == UnitKind::Infantry));
        if e.march && infantry_only {
            let cav: Vec<String> = defenders
                .iter()
                .filter(|d| self.w.unit(d).is_some_and(|u| u.kind == UnitKind::Cavalry))
                .cloned()
                .collect();
            if !cav.is_empty() {
                let d = self.decide(WbtsPoint::Evade, &defender, None, &[&target]);
                if d.value == "always" {
                    let attack_hexes: Vec<String> =
                        units.iter().filter_map(|u| self.unit_hex(u)).collect();
                    if let Some(to) = self.retreat_hex(&target, &defender, &attack_hexes) {
                        for c in &cav {
                            self.place_unit(c, &to, false);
                        }
                        let text = format!(
                            "{} {} the infantry attack from march and {} from {target} to {to}{}.",
                            cav.join(", "),
                            verb(cav.len(), "evades", "evade"),
                            verb(cav.len(), "retreats", "retreat"),
                            d.by.aside(", ", "")
                        );
                        self.log(
                            Event::new(d.rule, "evade", text)
                                .at(&target)
                                .decided(defender.clone(), d.by),
                        );
                        defenders.retain(|x| !cav.contains(x));
                        if cavalry_only_defence(self, &cav) && defenders.is_empty() {
                            self.move_leaders_with(&target, &defender, &to);
                        }
                    }
                }
            }
        }
        if defenders.is_empty() {
            return self.advance_after(&e, &units, &target, true);
        }
        // The combat is numbered once it is fought: an attack whose defenders all evaded takes no
        // number (the dice labels' `n` counts combats fought).
        self.combats += 1;
        let n = self.combats;
        // The defender's leader, chit and shift (WBTS ground/defender-leader, intensity, shift).
        let in_hex: Vec<super::state::Leader> = self
            .w
            .leaders_in(&target)
            .filter(|l| l.power() == defender)
            .cloned()
            .collect();
        let dl = self.decide(WbtsPoint::Leader, &defender, None, &[&target]);
        let best = in_hex
            .iter()
            .max_by_key(|l| {
                (
                    l.combat,
                    l.initiative,
                    std::cmp::Reverse(l.id().to_lowercase()),
                )
            })
            .cloned();
        // WBTS ground/intensity, ground/defender-leader: the defender may pick any leader who could
        // command the units attacked (his roster, or his corps leaders' for an army leader),
        // wherever he stands, or one in the hex (pbem's reading); a leader named who is neither: the
        // best in the hex. A leader commands combat units: the defender's supply trains (special
        // units of ground/losses, on no roster, defending without command: ground/command) are not
        // among the units he must command.
        let mut refused = None;
        let d_leader = match dl.value.as_str() {
            "none" => None,
            "best" => best.clone(),
            id => {
                let named = self.w.leader(id).filter(|l| l.power() == defender).cloned();
                let commanded: Vec<&super::state::Unit> = defenders
                    .iter()
                    .filter_map(|u| self.w.unit(u))
                    .filter(|u| !u.is_train())
                    .collect();
                let eligible = named.filter(|l| {
                    in_hex.iter().any(|h| h.id() == l.id())
                        || (!commanded.is_empty()
                            && commanded.iter().all(|u| self.w.commands(l, u)))
                });
                if eligible.is_none() {
                    refused = Some(id.to_string());
                }
                eligible.or(best.clone())
            }
        };
        let d_scopes: Vec<&str> = d_leader
            .as_ref()
            .map(|l| l.id())
            .into_iter()
            .chain([target.as_str()])
            .collect();
        let dc = self.decide(WbtsPoint::Chit, &defender, None, &d_scopes);
        let d_wanted = match dc.value.as_str() {
            "max" => combat::MAX_CHIT,
            n => n.parse().unwrap_or(0),
        };
        let d_chit = cap_chit(d_wanted, d_leader.as_ref().map(|l| l.initiative), e.march);
        let d_shift = self.shift_policy(&defender, None, &d_scopes);
        let a_chit = cap_chit(e.chit, Some(leader.initiative), e.march);
        let a_shift = self.shift_policy(&attacker, e.shift, &[leader.id(), &target]);
        let leader_text = match &d_leader {
            Some(l) => format!(
                "{} defends (initiative {}, combat {})",
                l.id(),
                l.initiative,
                l.combat
            ),
            None => "no leader defends".to_string(),
        };
        let mut d_by = dl.by;
        // WBTS ground/defender-leader: what the standing order named, and that the SOP set it aside,
        // is the defender's alone (`decide::aside`): the attacker reads who defends.
        let mut refusal = String::new();
        if let Some(id) = &refused {
            refusal = format!("the standing order names {id}, who is not in {target} and could not command every combat unit attacked there; ");
            d_by = crate::decide::DecidedBy::Sop;
        }
        self.log(
            Event::new(
                rules::DEFENDING_LEADER,
                "defence",
                format!(
                    "Combat {n} at {target}: {}{leader_text}{}{}.",
                    crate::decide::aside(&refusal),
                    d_by.aside(", ", ""),
                    crate::decide::aside(if refused.is_some() {
                        " (the best in the hex)"
                    } else {
                        ""
                    })
                ),
            )
            .at(&target)
            .decided(defender.clone(), d_by),
        );
        // Strengths.
        let attack_hexes: Vec<String> = {
            let mut v: Vec<String> = units.iter().filter_map(|u| self.unit_hex(u)).collect();
            v.dedup();
            let mut seen = BTreeSet::new();
            v.retain(|h| seen.insert(h.clone()));
            v
        };
        let by_hex: Vec<(String, Vec<(bool, u32)>)> = attack_hexes
            .iter()
            .map(|h| {
                let here = units
                    .iter()
                    .filter_map(|u| self.w.unit(u))
                    .filter(|u| u.hex() == h)
                    .map(|u| (u.kind == UnitKind::Cavalry, u.strength))
                    .collect();
                (h.clone(), here)
            })
            .collect();
        let (a_strength, mut notes) =
            combat::attack_strength(&self.board, &by_hex, &target, e.march, storm);
        let a_size: u32 = units
            .iter()
            .filter_map(|u| self.w.unit(u))
            .map(|u| u.strength)
            .sum();
        let d_size: u32 = defenders
            .iter()
            .filter_map(|u| self.w.unit(u))
            .filter(|u| !u.is_train())
            .map(|u| u.strength)
            .sum();
        let mut d_strength = d_size;
        if storm {
            if let Some(f) = self.w.fort.get(&target) {
                d_strength = combat::storm_defence(
                    d_size,
                    f.effective().capacity(),
                    f.effective().multiple(),
                );
                notes.push(format!(
                    "the garrison is {} in its {} ({} to {d_strength}); terrain ignored; the attacker's losses doubled (WBTS fort/storm)",
                    if f.effective().multiple() == 2 { "doubled" } else { "tripled" },
                    f.effective().name(),
                    d_size
                ));
            }
        }
        // WBTS naval/support: the defender's gunboats in the hex may join the defence.
        let mut supporting = Vec::new();
        let gunboats: Vec<(String, u32)> = self
            .w
            .ships_in(&target)
            .filter(|s| s.power() == defender && s.kind == ShipKind::Gunboat && s.strength > 0)
            .map(|s| (s.id().to_string(), s.strength))
            .collect();
        if !gunboats.is_empty() {
            let d = self.decide(WbtsPoint::Ships, &defender, None, &[&target]);
            if d.value == "support" {
                let add: u32 = gunboats.iter().map(|g| g.1).sum();
                d_strength += add;
                supporting = gunboats.iter().map(|g| g.0.clone()).collect();
                let text = format!(
                    "{} support the defence of {target} with {add} strength{}.",
                    supporting.join(", "),
                    d.by.aside(", ", "")
                );
                self.log(
                    Event::new(d.rule, "naval-support", text)
                        .at(&target)
                        .decided(defender.clone(), d.by),
                );
            }
        }
        let a_sources = self.supply_sources(&attack_hexes, &attacker);
        let d_sources = self.supply_sources(std::slice::from_ref(&target), &defender);
        let force = |power: &str,
                     l: Option<&super::state::Leader>,
                     chit,
                     size,
                     strength,
                     sources: &[(String, u32)],
                     shift,
                     doubled| Force {
            power: power.to_string(),
            leader: l.map(|l| Commander {
                id: l.id().to_string(),
                initiative: l.initiative,
                combat: l.combat,
            }),
            chit,
            size,
            strength,
            supply: sources.iter().map(|s| s.1).sum(),
            rolls_supply: !e.march,
            shift,
            losses_doubled: doubled,
        };
        let a_force = force(
            &attacker,
            Some(&leader),
            a_chit,
            a_size,
            a_strength,
            &a_sources,
            a_shift.value,
            storm,
        );
        let d_force = force(
            &defender,
            d_leader.as_ref(),
            d_chit,
            d_size,
            d_strength,
            &d_sources,
            d_shift.value,
            false,
        );
        let label = format!("combat/n={n}/hex={target}");
        let out = combat::fight(self.tables, &a_force, &d_force, self.dice, &label)?;
        let kind = if e.march {
            "an attack from march"
        } else if sortie {
            "a sortie of the garrison"
        } else if storm {
            "a storm"
        } else {
            "an attack"
        };
        let text = format!(
            "Combat {n} at {target}, {kind} by {} with {} from {}: strength {a_strength} against {d_strength}{}. Chits: {a_named} {a_chit}, {d_named} {d_chit}{}; total intensity {}.",
            leader.id(),
            units.join(", "),
            attack_hexes.join(" and "),
            if notes.is_empty() { String::new() } else { format!("; {}", notes.join("; ")) },
            dc.by.aside(" (", ")"),
            out.intensity,
            a_named = self.name(&attacker),
            d_named = self.name(&defender),
        );
        self.log(
            Event::new(
                if e.march {
                    rules::MARCH
                } else if sortie {
                    rules::SIEGE
                } else if storm {
                    rules::STORM
                } else {
                    rules::INTENSITY
                },
                "combat",
                text,
            )
            .at(&target)
            .decided(defender.clone(), dc.by),
        );
        // Combat supply.
        for (side, power, sources) in [
            (Side::Attacker, &attacker, &a_sources),
            (Side::Defender, &defender, &d_sources),
        ] {
            let Some(s) = &out.supply[side.index()] else {
                continue;
            };
            let chit = [a_chit, d_chit][side.index()];
            let have: u32 = sources.iter().map(|x| x.1).sum();
            let from = if s.paid && s.cost > 0 {
                format!(
                    ", from {} (trains first, then army HQs: pbem wbts/supply-order)",
                    self.spend(sources, s.cost)
                )
            } else {
                String::new()
            };
            let text = if s.paid {
                format!(
                    "{} ({}) rolls {} on the Combat Supply Table at chit {chit}: {} owed, {have} within reach: paid{from}.",
                    self.name(power), side.word(), s.roll.told(0), supply_points(s.cost)
                )
            } else {
                format!(
                    "{} ({}) rolls {} on the Combat Supply Table at chit {chit}: {} owed, {have} within reach: out of combat supply, it fights at half strength, its losses doubled, and cannot advance.",
                    self.name(power), side.word(), s.roll.told(0), supply_points(s.cost)
                )
            };
            let rule = if s.paid {
                rules::SUPPLY
            } else {
                rules::NO_SUPPLY
            };
            self.event_rolls(rule, "supply", &target, text, vec![s.roll.clone()]);
        }
        if out.contact {
            self.event(
                rules::CONTACT,
                "contact",
                Some(&target),
                format!("Both chits are 0 at {target}: a contact, and nothing more."),
            );
            return Ok(());
        }
        let mut die_event = Event::new(
            rules::RESULTS,
            "die",
            format!(
                "Odds {} ({} against {}): the die is {}.",
                self.tables.odds_name(out.column),
                out.strength[0],
                out.strength[1],
                out.die
                    .as_ref()
                    .map_or_else(|| "0".to_string(), |r| r.told(0).to_string())
            ),
        )
        .at(&target);
        if let Some(r) = &out.die {
            die_event = die_event.roll(r.clone());
        }
        self.log(die_event);
        if let Some(s) = &out.shift {
            let (power, d) = match s.side {
                Side::Attacker => (&attacker, &a_shift),
                Side::Defender => (&defender, &d_shift),
            };
            // The die he shifts is the combat's, listed under the `die` event above (issue 31).
            let from = out
                .die
                .as_ref()
                .map_or_else(|| s.from.to_string(), |r| r.repeated(0).to_string());
            let text = if s.from == s.to {
                format!(
                    "{} is the better leader by {} and leaves the die at {from} ({}policy {}).",
                    s.leader,
                    rows(s.net),
                    d.by.aside("", ", "),
                    d.value
                )
            } else {
                format!(
                    "{} is the better leader by {} and shifts the die from {from} to {} ({}policy {}).",
                    s.leader, rows(s.net), s.to, d.by.aside("", ", "), d.value
                )
            };
            self.log(
                Event::new(rules::SHIFT, "shift", text)
                    .at(&target)
                    .decided(power.clone(), d.by),
            );
            if let Some((roll, _, lost)) = &s.loss {
                let text = format!(
                    "{} risked himself: leader loss roll {} (lost on {}+): {}.",
                    s.leader,
                    roll.told(0),
                    self.tables.leader_lost_on(s.from.abs_diff(s.to)),
                    if *lost { "he falls" } else { "he survives" }
                );
                self.event_rolls(
                    rules::LEADER_LOSS,
                    "leader-loss",
                    &target,
                    text,
                    vec![roll.clone()],
                );
                if *lost {
                    self.lose_leader(&s.leader);
                }
            }
        }
        self.event(
            rules::RESULTS,
            "result",
            Some(&target),
            format!(
                "Result {} on row {}{}: {a_named} loses {}% ({} SP{}), {d_named} loses {}% ({} SP{}).",
                out.cell,
                out.row,
                self.result_words(&out),
                out.percent[0],
                out.lost[0],
                doubled_text(out.doubled[0]),
                out.percent[1],
                out.lost[1],
                doubled_text(out.doubled[1]),
                a_named = self.name(&attacker),
                d_named = self.name(&defender),
            ),
        );
        // Losses (WBTS ground/attrition, ground/losses, naval/support).
        self.take_losses(&attacker, &units, out.lost[0], &target, &[])?;
        let d_units = self.defender_loss_list(&target, &defender, &defenders, storm);
        let naval_hit = !supporting.is_empty() && (out.cell.defender > 0 || out.lost[1] > 0);
        self.take_losses(
            &defender,
            &d_units,
            out.lost[1],
            &target,
            if naval_hit { &supporting } else { &[] },
        )?;
        // Retreats.
        let a_supplied = out.supplied(Side::Attacker);
        if out.cell.defender_retreats {
            self.defender_retreat(&target, &defender, &defenders, &attack_hexes, storm, sortie);
        }
        if out.cell.attacker_retreats && sortie {
            self.event(
                rules::SIEGE,
                "retreat",
                Some(&target),
                format!(
                    "{} {} inside the {} of {target}.",
                    units.join(", "),
                    verb(units.len(), "falls back", "fall back"),
                    self.fort_word(&target)
                ),
            );
            return Ok(());
        }
        if out.cell.attacker_retreats {
            for h in &attack_hexes {
                let here: Vec<String> = units
                    .iter()
                    .filter(|u| self.unit_hex(u).as_deref() == Some(h.as_str()))
                    .cloned()
                    .collect();
                if here.is_empty() {
                    continue;
                }
                let enemy_hexes = vec![target.clone()];
                match self.retreat_hex(h, &attacker, &enemy_hexes) {
                    Some(to) => {
                        for u in &here {
                            self.place_unit(u, &to, false);
                        }
                        self.move_leaders_with(h, &attacker, &to);
                        self.event(
                            rules::ATTACKER_RETREAT,
                            "retreat",
                            Some(h),
                            format!("{} {} from {h} to {to}, away from {target} (pbem wbts/attacker-retreat).", here.join(", "), verb(here.len(), "retreats", "retreat")),
                        );
                    }
                    None => self.event(
                        rules::NO_RETREAT_HEX,
                        "retreat",
                        Some(h),
                        format!("{} cannot retreat from {h} and stay.", here.join(", ")),
                    ),
                }
            }
            return Ok(());
        }
        if sortie {
            return Ok(());
        }
        let (outside_now, inside_now) = self.enemies_in(&target, &attacker);
        let cleared = if storm {
            inside_now.is_empty()
        } else {
            outside_now.is_empty()
        };
        if cleared {
            if !a_supplied {
                self.event(
                    rules::NO_SUPPLY,
                    "advance",
                    Some(&target),
                    format!(
                        "{} is out of combat supply and cannot advance into {target}.",
                        self.name(&attacker)
                    ),
                );
                return Ok(());
            }
            return self.advance_after(&e, &units, &target, storm || e.march);
        }
        Ok(())
    }

    /// How `power` shifts the die when its leader is the better: the order's policy, else `risk never`
    /// by standing order or SOP, else its `shift` setting.
    pub(super) fn shift_policy(
        &self,
        power: &str,
        explicit: Option<ShiftPolicy>,
        scopes: &[&str],
    ) -> Decision<ShiftPolicy> {
        if let Some(p) = explicit {
            return Decision {
                value: p,
                by: DecidedBy::Order,
                rule: rules::SHIFT,
            };
        }
        let risk = self.decide(WbtsPoint::Risk, power, None, scopes);
        if risk.value == "never" {
            return Decision {
                value: ShiftPolicy::Never,
                by: risk.by,
                rule: risk.rule,
            };
        }
        let d = self.decide(WbtsPoint::Shift, power, None, scopes);
        Decision {
            value: ShiftPolicy::parse(&d.value).unwrap_or(ShiftPolicy::Best),
            by: d.by,
            rule: d.rule,
        }
    }

    /// WBTS ground/leader-loss: the leader is gone; his roster and his corps leaders lose him.
    pub(super) fn lose_leader(&mut self, id: &str) {
        self.w.leaders.retain(|l| !l.id().eq_ignore_ascii_case(id));
        self.w.eliminated.push(id.to_string());
        for u in &mut self.w.units {
            if u.leader
                .as_deref()
                .is_some_and(|l| l.eq_ignore_ascii_case(id))
            {
                u.leader = None;
            }
        }
        for l in &mut self.w.leaders {
            if l.army
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case(id))
            {
                l.army = None;
            }
        }
        self.w.detached.retain(|_, l| !l.eq_ignore_ascii_case(id));
    }

    /// `power` loses `points` among `units`, spread evenly by its `losses` policy; supporting
    /// `ships` are eliminated and take one of the hits.
    /// WBTS ground/losses: the units the defender's losses are spread over: the defenders attacked
    /// and his supply trains on their side of the walls (outside the fort, or inside it when it is
    /// stormed), which take losses last. Each is listed once: a train is among `defenders` already
    /// when they are every enemy piece on that side (`enemies_in`).
    pub(super) fn defender_loss_list(
        &self,
        target: &str,
        defender: &str,
        defenders: &[String],
        storm: bool,
    ) -> Vec<String> {
        let mut list = defenders.to_vec();
        for t in self
            .w
            .units_in(target)
            .filter(|u| u.power() == defender && u.is_train() && u.inside == storm)
        {
            if !list.iter().any(|d| d.eq_ignore_ascii_case(t.id())) {
                list.push(t.id().to_string());
            }
        }
        list
    }

    pub(super) fn take_losses(
        &mut self,
        power: &str,
        units: &[String],
        points: u32,
        hex: &str,
        ships: &[String],
    ) -> Result<()> {
        let mut owed = points;
        if !ships.is_empty() {
            for s in ships {
                self.w.ships.retain(|x| !x.id().eq_ignore_ascii_case(s));
                self.w.eliminated.push(s.clone());
            }
            owed = owed.saturating_sub(1);
            self.event(
                rules::NAVAL_SUPPORT,
                "losses",
                Some(hex),
                format!("{} supported the defence and are eliminated by the loss result; they take one of the hits.", ships.join(", ")),
            );
        }
        if owed == 0 {
            return Ok(());
        }
        let d = self.decide(WbtsPoint::Losses, power, None, &[]);
        let policy = LossPolicy::parse(&d.value).unwrap_or(LossPolicy::LargerFirst);
        let casualties: Vec<Casualty> = units
            .iter()
            .filter_map(|u| self.w.unit(u))
            .map(|u| Casualty {
                id: u.id().to_string(),
                kind: u.kind.name(),
                strength: u.strength,
            })
            .collect();
        let taken = spread(&casualties, owed, policy);
        let mut parts = Vec::new();
        for (id, n) in taken.iter().filter(|(_, n)| *n > 0) {
            let mut gone = false;
            if let Some(u) = self.w.unit_mut(id) {
                u.strength -= (*n).min(u.strength);
                gone = u.strength == 0;
            }
            if gone {
                self.w.units.retain(|u| !u.id().eq_ignore_ascii_case(id));
                self.w.eliminated.push(id.clone());
                parts.push(format!("{id} -{n} (eliminated)"));
            } else {
                parts.push(format!("{id} -{n}"));
            }
        }
        if !parts.is_empty() {
            let text = format!(
                "{} spreads its {owed} SP of losses evenly ({}{}): {}.",
                self.name(power),
                d.value,
                d.by.aside(", ", ""),
                parts.join(", ")
            );
            self.log(
                Event::new(rules::EVEN_LOSSES, "losses", text)
                    .at(hex)
                    .decided(power.to_string(), d.by),
            );
        }
        Ok(())
    }

    /// The hex a force of `power` retreats to from `from`: a neighbour it could move into (on land,
    /// no enemy units, not across a closed hexside), not next to `enemy_hexes` if it can, else any.
    pub(super) fn retreat_hex(
        &self,
        from: &str,
        power: &str,
        enemy_hexes: &[String],
    ) -> Option<String> {
        let ok = |h: &String| {
            self.board.terrain(h) != "water"
                && self.board.crossing(from, h) != Crossing::Closed
                && self.enemies_in(h, power).0.is_empty()
                && self.enemies_in(h, power).1.is_empty()
                && !enemy_hexes.contains(h)
        };
        let candidates: Vec<String> = self.board.neighbours(from).into_iter().filter(ok).collect();
        candidates
            .iter()
            .find(|h| !enemy_hexes.iter().any(|e| self.board.adjacent(e, h)))
            .or(candidates.first())
            .cloned()
    }

    pub(super) fn move_leaders_with(&mut self, from: &str, power: &str, to: &str) {
        let ids: Vec<String> = self
            .w
            .leaders_in(from)
            .filter(|l| l.power() == power)
            .map(|l| l.id().to_string())
            .collect();
        let still = self.w.units_in(from).any(|u| u.power() == power);
        if still {
            return;
        }
        for id in ids {
            self.place_leader(&id, to);
        }
    }

    /// The defender's retreat: a garrison inside stays (pbem), rough or city may ignore it, else one
    /// hex by his `retreat` setting; in his own fort's hex he may retreat inside it. Against a
    /// `sortie` out of a fort the terrain of the hex counts for nothing (WBTS fort/siege), so the
    /// besiegers may not ignore the retreat for rough or city.
    pub(super) fn defender_retreat(
        &mut self,
        target: &str,
        defender: &str,
        defenders: &[String],
        attack_hexes: &[String],
        storm: bool,
        sortie: bool,
    ) {
        let left: Vec<String> = defenders
            .iter()
            .filter(|d| self.w.unit(d).is_some())
            .cloned()
            .collect();
        if left.is_empty() {
            return;
        }
        if storm {
            self.event(
                rules::GARRISON_STAYS,
                "retreat",
                Some(target),
                format!(
                    "The garrison of {target} ignores the retreat inside its {}.",
                    self.fort_word(target)
                ),
            );
            return;
        }
        let terrain = self.board.terrain(target).to_string();
        if (terrain == "rough" || terrain == "city") && sortie {
            self.event(
                rules::SIEGE,
                "retreat",
                Some(target),
                format!("{} in {terrain} {target} may not ignore the retreat: the garrison attacked out of its {}, and the hex's terrain counts for nothing.", left.join(", "), self.fort_word(target)),
            );
        } else if terrain == "rough" || terrain == "city" {
            let d = self.decide(WbtsPoint::IgnoreRetreat, defender, None, &[target]);
            if d.value == "always" {
                let text = format!(
                    "{} in {terrain} {target} {} the retreat{}.",
                    left.join(", "),
                    verb(left.len(), "ignores", "ignore"),
                    d.by.aside(", ", "")
                );
                self.log(
                    Event::new(d.rule, "retreat", text)
                        .at(target)
                        .decided(defender.to_string(), d.by),
                );
                return;
            }
        }
        if self
            .w
            .fort
            .get(target)
            .is_some_and(|f| self.friendly(&f.power, defender))
        {
            let d = self.decide(WbtsPoint::Fort, defender, None, &[target]);
            if d.value == "inside" && left.iter().all(|u| self.room_inside(target, u)) {
                let mut inside_sp = 0;
                let cap = self
                    .w
                    .fort
                    .get(target)
                    .map_or(0, |f| f.effective().capacity());
                let now: u32 = self
                    .w
                    .units_in(target)
                    .filter(|u| u.inside)
                    .map(|u| u.strength)
                    .sum();
                let fits = left.iter().all(|u| {
                    inside_sp += self.w.unit(u).map_or(0, |u| u.strength);
                    now + inside_sp <= cap
                });
                if fits {
                    for u in &left {
                        self.place_unit(u, target, true);
                    }
                    let text = format!(
                        "{} {} inside the {} in {target}{}.",
                        left.join(", "),
                        verb(left.len(), "retreats", "retreat"),
                        self.fort_word(target),
                        d.by.aside(", ", "")
                    );
                    self.log(
                        Event::new(d.rule, "retreat", text)
                            .at(target)
                            .decided(defender.to_string(), d.by),
                    );
                    return;
                }
            }
        }
        let d = self.decide(WbtsPoint::Retreat, defender, None, &[target]);
        let chosen = (d.value != "away").then(|| d.value.clone()).filter(|h| {
            self.board.adjacent(target, h) && self.retreat_ok(target, h, defender, attack_hexes)
        });
        let to = chosen.or_else(|| self.retreat_hex(target, defender, attack_hexes));
        match to {
            Some(to) => {
                for u in &left {
                    self.place_unit(u, &to, false);
                }
                let trains: Vec<String> = self
                    .w
                    .units_in(target)
                    .filter(|u| u.power() == defender && u.is_train() && !u.inside)
                    .map(|u| u.id().to_string())
                    .collect();
                for t in &trains {
                    self.place_unit(t, &to, false);
                }
                self.move_leaders_with(target, defender, &to);
                let text = format!(
                    "{} {} from {target} to {to}{}.",
                    left.join(", "),
                    verb(left.len(), "retreats", "retreat"),
                    d.by.aside(", ", "")
                );
                self.log(
                    Event::new(d.rule, "retreat", text)
                        .at(target)
                        .decided(defender.to_string(), d.by),
                );
            }
            None => self.event(
                rules::NO_RETREAT_HEX,
                "retreat",
                Some(target),
                format!(
                    "{} {} no hex to retreat to from {target} and {}.",
                    left.join(", "),
                    verb(left.len(), "has", "have"),
                    verb(left.len(), "stays", "stay")
                ),
            ),
        }
    }

    pub(super) fn retreat_ok(
        &self,
        from: &str,
        to: &str,
        power: &str,
        enemy_hexes: &[String],
    ) -> bool {
        self.board.terrain(to) != "water"
            && self.board.crossing(from, to) != Crossing::Closed
            && self.enemies_in(to, power).0.is_empty()
            && self.enemies_in(to, power).1.is_empty()
            && !enemy_hexes.iter().any(|h| h == to)
    }

    /// The attacker enters a hex he cleared: from march or a storm, every attacker; else those of the
    /// first attacking hex, unless the order says `no-advance`.
    pub(super) fn advance_after(
        &mut self,
        e: &Engagement,
        units: &[String],
        target: &str,
        all: bool,
    ) -> Result<()> {
        let attacker = self.active.clone();
        if !e.advance {
            return Ok(());
        }
        let first = units.iter().find_map(|u| self.unit_hex(u));
        let movers: Vec<String> = units
            .iter()
            .filter(|u| self.w.unit(u).is_some() && (all || self.unit_hex(u) == first))
            .cloned()
            .collect();
        if movers.is_empty() {
            return Ok(());
        }
        let from = self.unit_hex(&movers[0]).unwrap_or_default();
        for u in &movers {
            self.place_unit(u, target, false);
        }
        if self.w.leader(&e.leader).is_some_and(|l| l.hex() == from) {
            self.place_leader(&e.leader, target);
        }
        let rule = if e.march {
            rules::MARCH
        } else {
            rules::ADVANCE
        };
        self.event(
            rule,
            "advance",
            Some(target),
            format!(
                "{} {} {target}{}.",
                movers.join(", "),
                verb(movers.len(), "enters", "enter"),
                if e.march { " and move no further" } else { "" }
            ),
        );
        self.enter(target, &attacker);
        Ok(())
    }
}

/// "1 row", "2 rows".
fn rows(n: u32) -> String {
    if n == 1 {
        "1 row".to_string()
    } else {
        format!("{n} rows")
    }
}

/// "1 supply point", "3 supply points".
fn supply_points(n: u32) -> String {
    if n == 1 {
        "1 supply point".to_string()
    } else {
        format!("{n} supply points")
    }
}

impl Turn<'_> {
    /// WBTS ground/results, ground/attrition: what a result's cell ("2r/0") and row say, in words a
    /// player reads without the table beside him: the table's column, each side's loss level and
    /// who retreats ('r'), and what a level costs at the combat's total intensity, before the
    /// attrition table turns the percentages into strength points. Nothing in wording 1 and before,
    /// which told the cell and row alone.
    fn result_words(&self, out: &combat::Outcome) -> String {
        if self.wording < 2 {
            return String::new();
        }
        let c = &out.cell;
        let retreat = match (c.attacker_retreats, c.defender_retreats) {
            (false, false) => "neither retreats",
            (true, false) => "the attacker retreats ('r')",
            (false, true) => "the defender retreats ('r')",
            (true, true) => "both retreat ('r')",
        };
        format!(
            " of the combat results table, in the odds column {} (the die after any shift gives the row): the attacker's loss level {}, the defender's {}, and {retreat}; a level is {}% of a force at total intensity {} (WBTS ground/results), in strength points by the attrition table (WBTS ground/attrition)",
            self.tables.odds_name(out.column),
            c.attacker,
            c.defender,
            self.tables.percent(1, out.intensity),
            out.intensity,
        )
    }
}

fn doubled_text(times: u32) -> &'static str {
    match times {
        2 => ", doubled",
        4 => ", doubled twice",
        _ => "",
    }
}
