//! Austrian insurrection corps (EiA 10.1.4.1, 10.1.4.1.4), by standing order instead of an interrupt:
//! at the end of the land movement step, for each border province of a power that an enemy corps
//! entered, one of that power's waiting insurrection corps is raised in it (standing order
//! `insurrection always`, the SOP, or `never`). After the turn's combats comes the special
//! insurrection land phase of 10.1.4.1.4 (pbem's simultaneous turn has no enemy guerrilla step: it
//! follows the last combat), under all standard rules: the corps just raised move as their power
//! ordered (a `move` written for a waiting corps, from where it rose; EiA 7 applies), then attack
//! where their power declared it (`attack <area>`, read in this phase for the areas where its corps
//! raised this turn stand), besieging a city its defenders retire into (7.5.1.1, 7.5.4) as any corps
//! does; an area fought over in the turn's land phase may be fought over again. A corps raised where
//! its side attacked in the turn's land phase fought in that attack: that was its land phase, and
//! it has no special one (one land phase a corps, never two). Those combats come
//! in a random order of their own (7.5.1.3), each from its key `insurrection-order/area=<area>`, and
//! their dice labels end in `phase=insurrection`, so that none repeats a label of the turn's phase.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Sources};
use crate::engine::event::Event;
use crate::game::state::State;
use crate::rules::eia::state::{CorpsKind, EiaState};

use super::board::Corps;
use super::decisions::{always_never, EiaPoint, INSURRECTION, INSURRECTION_PHASE};
use super::orders::EiaOrder;
use super::phase::Phase;

impl Phase<'_> {
    /// Raises insurrection corps where enemies entered border provinces; returns the corps raised (by
    /// id, for the next state and the special land phase).
    pub(super) fn insurrection(&mut self, state: &State) -> Result<Vec<String>> {
        let mut raised = Vec::new();
        let mut waiting: BTreeMap<&str, Vec<&crate::rules::eia::state::Levy>> = BTreeMap::new();
        for l in &EiaState::of(state).insurrection {
            waiting.entry(l.power.as_str()).or_default().push(l);
        }
        for (power, levies) in waiting {
            let entered: Vec<usize> = (0..self.map.areas.len())
                .filter(|&a| self.map.area(a).border.as_deref() == Some(power))
                .filter(|&a| {
                    self.board.corps_in(a).iter().any(|&i| {
                        let c = &self.board.corps[i];
                        c.moved && !self.board.friendly(&c.power, power)
                    })
                })
                .collect();
            if entered.is_empty() {
                continue;
            }
            let sources = Sources {
                explicit: None,
                standing: self.standing.get(power),
                sop: &self.eia.sop,
                scope: None,
            };
            let d = decide(&EiaPoint::Insurrection, &sources, always_never, || Ok(true))?;
            let mut pool = levies.into_iter();
            for area in entered {
                let name = self.map.area(area).id.clone();
                let involved: BTreeSet<String> = self
                    .board
                    .powers_in(area)
                    .into_iter()
                    .chain([power.to_string()])
                    .collect();
                if !d.value {
                    let text = format!(
                        "{} raises no insurrection corps in {name}{}.",
                        self.words.who(power),
                        d.by.aside(" (", ")")
                    );
                    let e =
                        Event::new(INSURRECTION, "decision", text).decided(power.to_string(), d.by);
                    self.push(e, area, &involved);
                    continue;
                }
                let Some(levy) = pool.next() else { break };
                self.board.corps.push(Corps {
                    id: levy.id.clone(),
                    power: levy.power.clone(),
                    kind: CorpsKind::Infantry,
                    factors: levy.factors,
                    morale: levy.morale.0,
                    area,
                    moved: false,
                    in_city: false,
                    artillery: 0,
                    eliminated: false,
                });
                raised.push(levy.id.clone());
                let text = format!(
                    "An enemy entered the border province of {name}: {} raises the insurrection corps {} there ({}{}).",
                    self.words.who(power),
                    levy.id,
                    d.by.aside("", ", "),
                    self.words.count(levy.factors, "factor", "factors")
                );
                let e = Event::new(INSURRECTION, "decision", text).decided(power.to_string(), d.by);
                self.push(e, area, &involved);
            }
        }
        Ok(raised)
    }

    /// EiA 10.1.4.1.4: the special insurrection land phase, after the turn's combats, under the
    /// standard rules. A corps raised where its power (or an ally) attacked in the turn's land phase
    /// fought on the attacking side of that combat: that was its power's land phase for it (the
    /// seed's Austrian player-turn not yet played when it rose), so it has none of its own here: one
    /// land phase a corps, never two. The other corps of `raised` still on the map move as their
    /// power ordered, then each
    /// `attack <area>` of a power whose raised corps stand in `area` with the enemy is a combat of
    /// this phase (a siege when the defenders retire into the city, 7.5.1.1, 7.5.4), also in an area
    /// fought over already this turn. The combats are fought in the order of their own keys
    /// (`insurrection-order/area=<area>`, 7.5.1.3), their dice labels end in `phase=insurrection`.
    pub(super) fn insurrection_phase(
        &mut self,
        raised: &[String],
        orders: &BTreeMap<String, Vec<EiaOrder>>,
    ) -> Result<()> {
        // The corps that attacked in the turn's land phase had their land phase there.
        let (spent, fresh): (Vec<String>, Vec<String>) = raised.iter().cloned().partition(|id| {
            self.board
                .find_corps(id)
                .is_some_and(|i| self.attacked.contains(&i))
        });
        let mut by_place: BTreeMap<(String, usize), Vec<String>> = BTreeMap::new();
        for id in &spent {
            if let Some(c) = self.board.find_corps(id).map(|i| &self.board.corps[i]) {
                if c.eliminated {
                    continue;
                }
                by_place
                    .entry((c.power.clone(), c.area))
                    .or_default()
                    .push(id.clone());
            }
        }
        for ((power, area), ids) in by_place {
            let one = ids.len() == 1;
            let text = format!(
                "{} attacked with {power_s} corps in the turn's land phase: that was {} land phase, and {} no special insurrection land phase (EiA 10.1.4.1.4).",
                ids.join(", "),
                if one { "its" } else { "their" },
                if one { "it has" } else { "they have" },
                power_s = self.words.whose(&power),
            );
            let involved = BTreeSet::from([power]);
            self.push(
                Event::new(INSURRECTION_PHASE, "insurrection", text),
                area,
                &involved,
            );
        }
        let raised = &fresh[..];
        // First the moves its power ordered for them, from where they rose (EiA 7 applies).
        let mut moves: BTreeMap<String, Vec<EiaOrder>> = BTreeMap::new();
        for id in raised {
            let Some(i) = self.board.find_corps(id) else {
                continue;
            };
            let (power, area) = (self.board.corps[i].power.clone(), self.board.corps[i].area);
            if self.board.corps[i].eliminated || self.board.corps[i].in_city {
                continue;
            }
            let Some(path) = orders.get(&power).and_then(|list| {
                list.iter().find_map(|o| match o {
                    EiaOrder::Move { unit, path, .. } if unit == id => Some(path.clone()),
                    _ => None,
                })
            }) else {
                continue;
            };
            let first = path.first().and_then(|s| self.map.find(s));
            if first.is_some_and(|f| self.map.adjacent(area, f)) {
                moves.entry(power).or_default().push(EiaOrder::Move {
                    unit: id.clone(),
                    with: Vec::new(),
                    path,
                });
            } else {
                let name = self.map.area(area).id.clone();
                let text = format!(
                    "{id} does not move in the special insurrection land phase: its path does not start next to {name}, where it rose."
                );
                let involved = BTreeSet::from([power.clone()]);
                self.push(
                    Event::new(INSURRECTION_PHASE, "insurrection", text),
                    area,
                    &involved,
                );
            }
        }
        if !moves.is_empty() {
            super::movement::move_units(
                &self.words,
                self.map,
                &mut self.board,
                &moves,
                &[],
                &mut self.events,
            );
        }
        // Then the attacks their power declared (`attack <area>`) where its corps raised this turn
        // stand: the phase's own declarations, fought under the standing rules (a defender may
        // retire into a city and be besieged, EiA 7.5.1.1, 7.5.4).
        let alive = |b: &super::board::Board, id: &String| {
            b.find_corps(id)
                .map(|i| &b.corps[i])
                .filter(|c| !c.eliminated && !c.in_city)
                .map(|c| (c.power.clone(), c.area))
        };
        let stands: BTreeSet<(String, usize)> = raised
            .iter()
            .filter_map(|id| alive(&self.board, id))
            .collect();
        let mut declared: BTreeMap<String, Vec<EiaOrder>> = BTreeMap::new();
        for (power, list) in orders {
            for o in list {
                let EiaOrder::Attack { area } = o else {
                    continue;
                };
                if let Some(a) = self.map.find(area) {
                    // No enemy left there: said below, with the corps' names.
                    if stands.contains(&(power.clone(), a)) && self.board.enemies_in(a, power) {
                        declared.entry(power.clone()).or_default().push(o.clone());
                    }
                }
            }
        }
        self.stage = Some("insurrection");
        // A land phase of its own: a corps that fought in the turn's may fight in it (EiA 7.5.2.11).
        self.fought.clear();
        let combats = self.declared_combats(&declared, &|c| raised.contains(&c.id));
        for (area, power) in &combats {
            let name = self.map.area(*area).id.clone();
            let ids: Vec<String> = self
                .board
                .corps_in(*area)
                .into_iter()
                .map(|i| &self.board.corps[i])
                .filter(|c| &c.power == power && raised.contains(&c.id))
                .map(|c| c.id.clone())
                .collect();
            let text = format!(
                "In the special insurrection land phase, {} {} the enemy in {name} (by {power_s} order).",
                ids.join(", "),
                if ids.len() == 1 { "attacks" } else { "attack" },
                power_s = self.words.whose(power),
            );
            let involved = self.board.powers_in(*area);
            let e = Event::new(INSURRECTION_PHASE, "insurrection", text)
                .decided(power.clone(), DecidedBy::Order);
            self.push(e, *area, &involved);
        }
        // The raised corps that fight no combat of the phase: told why.
        for (power, area) in &stands {
            if combats.iter().any(|c| c.0 == *area) {
                continue;
            }
            let name = self.map.area(*area).id.clone();
            let ids: Vec<String> = raised
                .iter()
                .filter(|id| alive(&self.board, id) == Some((power.clone(), *area)))
                .cloned()
                .collect();
            let text = if self.board.enemies_in(*area, power) {
                format!(
                    "In the special insurrection land phase, {} {} not attack the enemy in {name}: {} declared no attack there.",
                    ids.join(", "),
                    if ids.len() == 1 { "does" } else { "do" },
                    self.words.who(power)
                )
            } else {
                format!(
                    "In the special insurrection land phase, {} {} no enemy to attack in {name}.",
                    ids.join(", "),
                    if ids.len() == 1 { "finds" } else { "find" }
                )
            };
            let involved = BTreeSet::from([power.clone()]);
            self.push(
                Event::new(INSURRECTION_PHASE, "insurrection", text),
                *area,
                &involved,
            );
        }
        let combats = self.combat_order(
            combats,
            super::labels::insurrection_order,
            INSURRECTION_PHASE,
        )?;
        self.battlefields = combats.iter().map(|c| c.0).collect();
        for (area, attacker) in combats {
            self.fight(area, &attacker)?;
        }
        self.stage = None;
        Ok(())
    }
}
