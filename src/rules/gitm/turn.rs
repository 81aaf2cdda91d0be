//! One GITM turn being resolved: the position as it changes, the events, the dice. A campaign turn
//! runs the sequence of GITM 5.2: the supply phase (merges 3.5, supplies drawn 6.7), the strategic
//! withdrawal (7.5), tactical phases 1 and 2, strategic phase 1, tactical phases 3 and 4, strategic
//! phases 2 to 6, and the final tactical phase 5 without combat; then the end of the turn (fatigue
//! 3.2, experience 3.6, morale 3.7) and the reports of what each side detected (4.1, 4.7). A turn of
//! peace or truce places each unit where its order says (7.16).
//!
//! The tactical phases go through one hook, [`tactical_phase`], which runs pbem's tactical part
//! (`rules/gitm/tactical/`).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use anyhow::Result;

use crate::decide::DecidedBy;
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::map::grid::Square;
use crate::game::map::sub_grid::{Spot, SubSquare};
use crate::game::map::{GridMap, Topology};
use crate::game::state::{Relation, State};
use crate::rule::Rule;

use super::detection;
use super::movement::{
    distance, entry_square, from_edge, side_region, squares_crossed, step, toward_edge,
};
use super::orders::{StrategicOrder, UnitOrders, STRATEGIC_PHASES};
use super::rules;
use super::state::{GitmState, Kind, Season};
use crate::rules::wording::{men, verb};

/// Fatigue above which a unit may not move strategically (GITM 7.1).
pub const MAX_MARCH_FATIGUE: u32 = 18;
/// Campaign turns in a campaign (GITM 5.1).
pub const CAMPAIGN_TURNS: u32 = 15;
pub use super::state::OTTOMAN;
/// The most active brigades in a strategic square during a campaign (GITM 1.4).
pub const MAX_ACTIVE: usize = 200;
/// The most inactive brigades in a strategic square during a campaign, and in a city (GITM 1.4).
pub const MAX_INACTIVE: (usize, usize) = (2, 3);
/// The most brigades in a strategic square in peace or truce, and in a city (GITM 1.4).
pub const MAX_PEACE: (usize, usize) = (2, 3);
/// The most brigades in a tactical square, and allied to one another (GITM 2.5).
pub const MAX_TACTICAL: (usize, usize) = (24, 12);
/// pbem's siege (`rules::PBEM_SIEGE`): a breach on a d6 plus the artillery bonus at least the fort's
/// strength left plus this.
pub const BREACH_OVER_STRENGTH: u32 = 4;

/// The strategic movement of one unit as the turn carries it out.
#[derive(Debug, Clone, Default)]
struct March {
    /// The boxes not yet moved, one a phase (GITM 7.4, 7.5); a blocked move stays at the front and
    /// everything after it comes one phase later (7.7).
    queue: VecDeque<Option<Square>>,
    order: StrategicOrder,
    /// Squares moved this turn (the allowance of 7.1 and the forced march of 7.3), a diagonal
    /// blocked under 7.14 counted too: it is charged a step.
    moves: u32,
    /// Whether it entered a square this turn: GITM 3.6's experience of marching. A diagonal blocked
    /// under 7.14 is charged a step but is no march: the brigade did not move.
    marched: bool,
    /// The strategic phase of its last move (0: none; the withdrawal counts as phase 1, 7.5).
    last_phase: usize,
    /// The enemy it pursues since its first successful pursuit (7.11).
    pursuing: Option<String>,
    /// Whether its march to battle is done (7.12).
    at_battle: bool,
}

/// The position and the record of a turn in progress.
pub struct Turn<'a> {
    pub map: &'a GridMap,
    /// The shared part of the state; its `gitm` is taken out into [`Turn::g`] while the turn runs.
    pub state: State,
    pub g: GitmState,
    /// The position at the start of the turn (7.5 and the late reports of 4.7).
    pub start: GitmState,
    /// Each unit's orders, section by section (6.1).
    pub orders: BTreeMap<String, UnitOrders>,
    pub powers: Vec<String>,
    pub events: Vec<Event>,
    pub dice: &'a mut DiceBox,
    marches: BTreeMap<String, March>,
    /// The tactical maps and what each keeps between the tactical phases (`tactical::hook`).
    pub theatre: super::tactical::hook::Theatre,
    /// Each unit's morale once the merges of the supply phase are done: a unit whose morale differs
    /// at the end of the turn gained or lost it in battle (GITM 3.7).
    morale_before_battles: BTreeMap<String, u32>,
    /// The units out of communications this turn, read in the supply phase (GITM 7.2,
    /// `communications.rs`): each moves a square less.
    out_of_communications: BTreeSet<String>,
}

impl<'a> Turn<'a> {
    pub fn new(
        map: &'a GridMap,
        state: State,
        orders: BTreeMap<String, UnitOrders>,
        powers: Vec<String>,
        dice: &'a mut DiceBox,
    ) -> Result<Self> {
        let g = super::state::gitm_of(&state)?.clone();
        Ok(Turn {
            map,
            start: g.clone(),
            state,
            g,
            orders,
            powers,
            events: Vec::new(),
            dice,
            marches: BTreeMap::new(),
            theatre: Default::default(),
            morale_before_battles: BTreeMap::new(),
            out_of_communications: BTreeSet::new(),
        })
    }

    /// The state of the next turn and the events.
    pub fn finish(mut self) -> (State, Vec<Event>) {
        if let Some(table) = self.state.table_mut::<GitmState>() {
            *table = self.g;
        }
        (self.state, self.events)
    }

    /// Runs the whole turn: the campaign sequence of GITM 5.2, or the placing of 7.16.
    pub fn run(&mut self) -> Result<()> {
        let season = self.g.season;
        self.event(
            rules::SEQUENCE,
            "turn",
            None,
            match season {
                Season::Campaign => format!(
                    "Campaign turn {} of {CAMPAIGN_TURNS}.",
                    self.g.campaign_turn
                ),
                Season::Peace => "A turn of peace: units are placed where their orders say.".into(),
                Season::Truce => "A turn of truce: units are placed where their orders say.".into(),
            },
            Everyone,
        );
        if season.is_campaign() {
            self.defaults();
            self.supply_phase();
            self.morale_before_battles = self
                .g
                .brigades
                .iter()
                .map(|b| (b.id().to_string(), b.morale))
                .collect();
            self.withdrawal()?;
            for p in 1..=2 {
                tactical_phase(self, p, true)?;
            }
            self.strategic_phase(1)?;
            for p in 3..=4 {
                tactical_phase(self, p, true)?;
            }
            for p in 2..=STRATEGIC_PHASES {
                self.strategic_phase(p)?;
            }
            tactical_phase(self, 5, false)?;
        } else {
            self.merges();
            self.peace_moves();
            self.militia_home();
        }
        self.end_of_turn()?;
        Ok(())
    }

    // ----- events -----

    /// The powers an event goes to.
    fn audience(&self, to: Audience) -> Vec<String> {
        match to {
            Everyone => self.powers.clone(),
            Audience::Side(p) => self
                .powers
                .iter()
                .filter(|q| self.state.friendly(&p, q))
                .cloned()
                .collect(),
            Audience::Nobody => Vec::new(),
            Audience::Sides(sides) => self
                .powers
                .iter()
                .filter(|q| sides.iter().any(|p| self.state.friendly(p, q)))
                .cloned()
                .collect(),
            Audience::Seen(p, squares) => self
                .powers
                .iter()
                .filter(|q| {
                    self.state.friendly(&p, q)
                        || self.g.brigades.iter().any(|b| {
                            b.power() == q.as_str()
                                && !b.inactive
                                && squares.iter().any(|s| s == b.square())
                        })
                })
                .cloned()
                .collect(),
        }
    }

    pub fn event(&mut self, rule: Rule, kind: &str, at: Option<&str>, text: String, to: Audience) {
        let mut e = Event::new(rule, kind, text);
        if let Some(a) = at {
            e = e.at(a);
        }
        self.push(e, to);
    }

    pub fn push(&mut self, e: Event, to: Audience) {
        let who = self.audience(to);
        self.events.push(e.seen_by(who.iter().map(String::as_str)));
    }

    /// GITM 4.5: a strategic march told whole to the marcher's side and to the other sides that
    /// see both its departure and its arrival (their brigades in the square sight it there, 4.2);
    /// to a side that sees one of them, only what it saw, "seen leaving" or "seen arriving"; to
    /// the others, nothing. Each event's route is what its audience saw: the map draws an arrow
    /// only from a departure seen.
    fn tell_march(&mut self, m: MarchTold<'_>) {
        let saw_arrive = self
            .index(m.id)
            .map(|i| self.sighted_by_others(i))
            .unwrap_or_default();
        let both: Vec<String> = m.saw_leave.intersection(&saw_arrive).cloned().collect();
        let mut whole = both.clone();
        whole.push(m.power.to_string());
        let e = Event::new(m.rule, "march", m.text)
            .at(m.to)
            .naming([m.id])
            .route([m.from, m.to]);
        self.push(e, Audience::Sides(whole));
        let cite = rules::MOVE_REPORTS.cite();
        let leave: Vec<String> = m.saw_leave.difference(&saw_arrive).cloned().collect();
        if !leave.is_empty() {
            let e = Event::new(
                rules::MOVE_REPORTS,
                "march",
                format!(
                    "{} is seen leaving {} ({cite}: where it went was not seen).",
                    m.id, m.from
                ),
            )
            .at(m.from)
            .naming([m.id])
            .route([m.from, ""]);
            self.push(e, Audience::Sides(leave));
        }
        let arrive: Vec<String> = saw_arrive.difference(&m.saw_leave).cloned().collect();
        if !arrive.is_empty() {
            let e = Event::new(
                rules::MOVE_REPORTS,
                "march",
                format!(
                    "{} is seen arriving in {} at {} ({cite}: where it came from was not seen).",
                    m.id, m.to, m.entry
                ),
            )
            .at(m.to)
            .naming([m.id])
            .route(["", m.to]);
            self.push(e, Audience::Sides(arrive));
        }
    }

    /// GITM 4.2, 4.5: the powers not of the side of brigade `i` whose active brigades in its
    /// square sight it where it stands now (headquarters sight nothing; a shattered brigade is not
    /// seen).
    fn sighted_by_others(&self, i: usize) -> BTreeSet<String> {
        use super::tactical::map::Pos;
        use super::tactical::sighting::sees;
        let mut out = BTreeSet::new();
        let (b, Some(at)) = (&self.g.brigades[i], self.spot_of(i)) else {
            return out;
        };
        if b.shattered {
            return out;
        }
        let pos = |s: Spot| Pos::new(s.sub.col, s.sub.row);
        let here: Vec<(usize, Spot)> = (0..self.g.brigades.len())
            .filter(|&k| !self.g.brigades[k].inactive && !self.g.brigades[k].shattered)
            .filter_map(|k| Some((k, self.spot_of(k)?)))
            .filter(|(_, s)| s.square == at.square)
            .collect();
        for &(k, s) in &here {
            let eye = &self.g.brigades[k];
            if eye.kind().is_hq() || self.state.friendly(b.power(), eye.power()) {
                continue;
            }
            let others = here
                .iter()
                .filter(|(o, _)| {
                    !self
                        .state
                        .friendly(eye.power(), self.g.brigades[*o].power())
                })
                .map(|&(o, os)| (pos(os), self.g.brigades[o].kind().is_hq()));
            if sees(pos(s), pos(at), b.kind().is_hq(), others) {
                out.insert(eye.power().to_string());
            }
        }
        out
    }

    // ----- the position -----

    /// A unit's place on the map; `None` for a place the state check refused.
    pub fn spot_of(&self, i: usize) -> Option<Spot> {
        self.map.parse_spot(self.g.brigades[i].at()).ok()
    }

    /// A unit's index in `g.brigades`.
    pub fn index(&self, id: &str) -> Option<usize> {
        self.g.brigades.iter().position(|b| b.id() == id)
    }

    /// Whether two powers are at war (GITM 1.4: hostile, not neutral).
    pub fn hostile(&self, a: &str, b: &str) -> bool {
        self.state.relation(a, b) == Relation::Hostile
    }

    /// The active units hostile to `power` at `square`, by index.
    pub fn enemies_in(&self, power: &str, square: Square) -> Vec<usize> {
        (0..self.g.brigades.len())
            .filter(|&i| {
                let b = &self.g.brigades[i];
                !b.inactive
                    && self.hostile(power, b.power())
                    && self.spot_of(i).is_some_and(|s| s.square == square)
            })
            .collect()
    }

    /// The active units that block a unit of `power` at `square` (GITM 7.7, 7.14): hostile units,
    /// and neutral ones in their home nation (a square their own state controls, `[control]`); never
    /// a shattered one (7.14 says so of diagonals; pbem reads 7.7 the same, `rules::PBEM_SHATTERED`).
    pub fn blockers_in(&self, power: &str, square: Square) -> Vec<usize> {
        let name = self.map.place_name(square);
        let owner = self.state.control.get(&name);
        (0..self.g.brigades.len())
            .filter(|&i| {
                let b = &self.g.brigades[i];
                let blocks = match self.state.relation(power, b.power()) {
                    Relation::Hostile => true,
                    Relation::Neutral => owner.is_some_and(|o| o == b.power()),
                    Relation::Allied => false,
                };
                !b.inactive
                    && !b.shattered
                    && blocks
                    && self.spot_of(i).is_some_and(|s| s.square == square)
            })
            .collect()
    }

    /// GITM 1.4: why unit `i` may not enter `target` now, if a stacking limit keeps it out: 200 active
    /// brigades and 2 inactive ones (3 in a city) in a campaign, not counting units in forts nor
    /// militia in their home city (the seed says the latter two are "not yet coded": pbem codes
    /// them); in peace or truce 2 brigades (3 in a city). A city is a square `[places]` names.
    pub fn over_stacking(&self, i: usize, target: Square) -> Option<String> {
        let b = &self.g.brigades[i];
        let name = self.map.place_name(target);
        let city = self.map.is_named(target);
        let pick = |(plain, in_city): (usize, usize)| if city { in_city } else { plain };
        let here: Vec<usize> = (0..self.g.brigades.len())
            .filter(|&j| j != i && self.spot_of(j).is_some_and(|s| s.square == target))
            .collect();
        let (count, most, what) = if !self.g.season.is_campaign() {
            (here.len(), pick(MAX_PEACE), "brigades in peace or truce")
        } else if !b.inactive {
            let n = here
                .iter()
                .filter(|&&j| !self.g.brigades[j].inactive)
                .count();
            (n, MAX_ACTIVE, "active brigades")
        } else {
            let n = here
                .iter()
                .filter(|&&j| {
                    let o = &self.g.brigades[j];
                    let militia_home = o.kind() == Kind::Militia
                        && city
                        && self.state.control.get(&name).map(String::as_str) == Some(o.power());
                    o.inactive && !militia_home && !self.g.in_fort(j)
                })
                .count();
            (n, pick(MAX_INACTIVE), "inactive brigades")
        };
        (count >= most).then(|| {
            format!(
                "{name}{} holds {count} {what}, the most it may (GITM 1.4)",
                if city { ", a city," } else { "" }
            )
        })
    }

    /// GITM 2.5: the tactical squares of `square` where a brigade of `power` may not stand: those
    /// holding 24 brigades, or 12 of its side.
    pub fn crowded(&self, power: &str, square: Square) -> BTreeSet<SubSquare> {
        let mut count: BTreeMap<SubSquare, (usize, usize)> = BTreeMap::new();
        for (j, o) in self.g.brigades.iter().enumerate() {
            if let Some(s) = self.spot_of(j).filter(|s| s.square == square) {
                let c = count.entry(s.sub).or_default();
                c.0 += 1;
                c.1 += usize::from(self.state.friendly(power, o.power()));
            }
        }
        count
            .into_iter()
            .filter(|(_, (all, allied))| *all >= MAX_TACTICAL.0 || *allied >= MAX_TACTICAL.1)
            .map(|(s, _)| s)
            .collect()
    }

    /// GITM 2.7: whether unit `i` is shut in a besieged fort or city (`GitmState::besieged`).
    pub fn besieged(&self, i: usize) -> bool {
        self.g.besieged(i)
    }

    /// pbem's reading of GITM 2.7 (`rules::PBEM_FORT_BLOCK`): the fort in `square` that a unit of
    /// `power` entering it must stop at: one with a garrison hostile to it and no siege.
    fn blocking_fort(&self, power: &str, square: Square) -> Option<String> {
        let name = self.map.place_name(square);
        self.g.forts.iter().find_map(|f| {
            let at = f.at.get_ref();
            let in_square = at.split('/').next() == Some(name.as_str());
            let holder = self
                .g
                .garrison(f)
                .first()
                .map(|&j| self.g.brigades[j].power().to_string())?;
            (in_square && self.g.siege_of(at).is_none() && self.hostile(power, &holder))
                .then(|| at.to_string())
        })
    }

    /// GITM 7.7's second sentence: for a diagonal march (`dir`) from `from`, the two units (named
    /// "A at 8-7 and B at 7-8") on the tactical squares beside the unit that its first diagonal step
    /// passes between, when both squares hold a unit not actively allied to `power`; `None` when
    /// the march is not diagonal or either square is free or off the map. pbem reads "units" as 7.14
    /// does: active and not shattered (`rules::PBEM_SHATTERED`).
    fn diagonal_pinch(&self, power: &str, from: Spot, dir: (i8, i8), size: u8) -> Option<String> {
        if dir.0 == 0 || dir.1 == 0 {
            return None;
        }
        let beside = |dc: i8, dr: i8| -> Option<SubSquare> {
            let col = u8::try_from(from.sub.col as i32 + dc as i32).ok()?;
            let row = u8::try_from(from.sub.row as i32 + dr as i32).ok()?;
            (col < size && row < size).then_some(SubSquare { col, row })
        };
        let unit_on = |sub: SubSquare| -> Option<String> {
            (0..self.g.brigades.len()).find_map(|j| {
                let o = &self.g.brigades[j];
                let here = self
                    .spot_of(j)
                    .is_some_and(|s| s.square == from.square && s.sub == sub);
                (here && !o.inactive && !o.shattered && !self.state.friendly(power, o.power()))
                    .then(|| format!("{} at {sub}", o.id()))
            })
        };
        let a = unit_on(beside(dir.0, 0)?)?;
        let b = unit_on(beside(0, dir.1)?)?;
        Some(format!("{a} and {b}"))
    }

    /// Whether an active unit that blocks `power` stands on any of `subs` in `square`.
    fn enemy_on(&self, power: &str, square: Square, subs: &[SubSquare]) -> bool {
        self.blockers_in(power, square)
            .into_iter()
            .any(|i| self.spot_of(i).is_some_and(|s| subs.contains(&s.sub)))
    }

    // ----- GITM 6.9: the defaults -----

    /// Tells each side which of its units follow a default of GITM 6.9, in whole or in part: one
    /// event for the units of a square with no orders, one for those whose orders leave sections out.
    fn defaults(&mut self) {
        // (power, square) -> (units with no orders, units with sections left out)
        type Left = (Vec<String>, Vec<String>);
        let mut by_square: BTreeMap<(String, String), Left> = BTreeMap::new();
        for b in &self.g.brigades {
            let o = self.orders.get(b.id()).cloned().unwrap_or_default();
            let entry = by_square
                .entry((b.power().to_string(), b.square().to_string()))
                .or_default();
            if !o.any() {
                entry.0.push(b.id().to_string());
            } else {
                let missing = o.missing_sections();
                if !missing.is_empty() {
                    entry.1.push(format!("{} ({})", b.id(), missing.join(", ")));
                }
            }
        }
        for ((power, square), (none, partial)) in by_square {
            let cite = rules::DEFAULTS.cite();
            let mut texts = Vec::new();
            if !none.is_empty() {
                texts.push(format!("{cite}: no orders for {} in {square}: each holds, skirmishes in attack and defence, seeks the front line, supports a battle within 2 tactical squares of where it starts and draws one unit of supply.", none.join(", ")));
            }
            if !partial.is_empty() {
                texts.push(format!("{cite}: the sections these orders leave out take their defaults (2: no strategic move; 3: no tactical move, the front line; 4: support within 2 of the start; 5: skirmish; 6: draw one unit of supply): {}.", partial.join(", ")));
            }
            for text in texts {
                let e = Event::new(rules::DEFAULTS, "default", text)
                    .at(&square)
                    .decided(power.clone(), DecidedBy::Sop);
                self.push(e, Audience::Side(power.clone()));
            }
        }
    }

    // ----- GITM 5.2: the supply phase -----

    /// GITM 5.2, 6.7: merges first (3.5), then each unit carries the supply its orders ask for.
    fn supply_phase(&mut self) {
        self.merges();
        let mut cut_off: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
        for i in 0..self.g.brigades.len() {
            let id = self.g.brigades[i].id().to_string();
            // GITM 2.7: no supply goes into a besieged fort; its garrison keeps what it carries.
            if self.besieged(i) {
                let b = &self.g.brigades[i];
                cut_off
                    .entry(b.at().to_string())
                    .or_insert_with(|| (b.power().to_string(), Vec::new()))
                    .1
                    .push(id);
                continue;
            }
            let order = self
                .orders
                .get(&id)
                .and_then(|o| o.supply.clone())
                .unwrap_or_default();
            // The source (`from`) changes nothing yet: pbem's sources never run dry.
            self.g.brigades[i].supplies = order.carry.unwrap_or(0);
        }
        for (at, (power, ids)) in cut_off {
            let square = at.split('/').next().unwrap_or("").to_string();
            let place = upper_first(&self.g.besieged_place(&at));
            self.event(
                rules::SIEGE,
                "siege",
                Some(&square),
                format!("{place} is besieged: its garrison ({}) draws no supply and keeps what it carries (GITM 2.7).", ids.join(", ")),
                Audience::Side(power),
            );
        }
        self.event(
            rules::PBEM_SUPPLY,
            "supply",
            None,
            "Supply phase: each unit carries the supply its orders ask for (GITM 6.7; pbem: the sources are unlimited).".into(),
            Everyone,
        );
        self.communications();
    }

    /// GITM 7.2 by pbem's reading (`communications.rs`): the units out of communications, read once
    /// in the supply phase, told to their side, square by square; each moves a square less.
    fn communications(&mut self) {
        let mut cut: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for i in 0..self.g.brigades.len() {
            if super::communications::in_communications(self.map, &self.state, &self.g, i) {
                continue;
            }
            let b = &self.g.brigades[i];
            self.out_of_communications.insert(b.id().to_string());
            cut.entry((b.power().to_string(), b.square().to_string()))
                .or_default()
                .push(b.id().to_string());
        }
        let reach = super::communications::COMMUNICATIONS_REACH;
        for ((power, square), ids) in cut {
            let text = format!("{} in {square} {} out of communications: no way of at most {reach} squares free of hostile combat units leads to a square of {} side; each moves a square less this turn (GITM 7.2; pbem gitm/communications).", ids.join(", "), if ids.len() == 1 { "is" } else { "are" }, crate::words::Possessive(&power));
            let e = Event::new(rules::COMMUNICATIONS, "communications", text)
                .at(&square)
                .naming(ids.iter().map(String::as_str));
            self.push(e, Audience::Side(power));
        }
    }

    /// GITM 3.5: merges, in the order of the units merged away.
    fn merges(&mut self) {
        let wanted: Vec<(String, String)> = self
            .orders
            .iter()
            .filter_map(|(id, o)| o.merge_into.clone().map(|into| (id.clone(), into)))
            .collect();
        for (from, into) in wanted {
            let (Some(a), Some(b)) = (self.index(&from), self.index(&into)) else {
                continue;
            };
            let (ua, ub) = (self.g.brigades[a].clone(), self.g.brigades[b].clone());
            if ua.square() != ub.square() || ua.kind() != ub.kind() {
                continue;
            }
            let enemy_here = self
                .spot_of(a)
                .is_some_and(|s| !self.enemies_in(ua.power(), s.square).is_empty());
            if enemy_here && ua.at() != ub.at() {
                self.event(rules::MERGE, "merge", Some(ub.square()), format!("{from} cannot merge into {into}: with an enemy in the square they must share a tactical square (GITM 3.5)."), Audience::Side(ua.power().to_string()));
                continue;
            }
            let merged = merge(&ua, &ub);
            let excess = ub
                .kind()
                .max_strength()
                .map_or(0, |m| merged.strength.saturating_sub(m));
            let foreign =
                self.state.control.get(ub.square()).map(String::as_str) != Some(ub.power());
            let (back, lost) = merge_excess(excess, foreign);
            let guns = merged.batteries.saturating_sub(ub.kind().max_batteries());
            let quality = merged.quality;
            self.g.brigades[b] = merged;
            self.g.brigades[b].strength -= excess;
            self.g.brigades[b].batteries -= guns;
            self.g.brigades.remove(a);
            self.g.merged.push(from.clone());
            let more = match (excess, lost) {
                (0, _) => String::new(),
                (_, 0) => format!(" {} above the type's limit {} it and {} to the manpower pool at the end of the following season.", men(excess), verb(excess as usize, "leaves", "leave"), verb(excess as usize, "returns", "return")),
                _ => format!(" {} above the type's limit {} it: on foreign soil 40% of them, {lost}, are lost (casualty VPs: pbem keeps none), and {back} return to the manpower pool at the end of the following season.", men(excess), verb(excess as usize, "leaves", "leave")),
            } + &match guns {
                0 => String::new(),
                n => format!(" {n} {} above the type's limit of {} {} it for the pool.", verb(n as usize, "battery", "batteries"), ub.kind().max_batteries(), verb(n as usize, "leaves", "leave")),
            };
            self.event(
                rules::MERGE,
                "merge",
                Some(ub.square()),
                format!("{from} merges into {into}: quality, experience, morale, fatigue and ammunition averaged by strength (now {}) (GITM 3.5).{more}", quality.name()),
                Audience::Side(ua.power().to_string()),
            );
        }
    }

    // ----- GITM 7: strategic movement -----

    /// The march of every unit that has a strategic order.
    fn plan(&mut self) {
        if !self.marches.is_empty() {
            return;
        }
        for b in &self.g.brigades {
            let Some(order) = self.orders.get(b.id()).and_then(|o| o.strategic.clone()) else {
                continue;
            };
            let queue = order
                .boxes
                .iter()
                .map(|b| b.as_ref().and_then(|s| self.map.parse_place(s).ok()))
                .collect();
            self.marches.insert(
                b.id().to_string(),
                March {
                    queue,
                    order,
                    ..March::default()
                },
            );
        }
    }

    /// GITM 7.5: units in a square of last turn's battles make their first move now, into no
    /// square that held active hostile combat units at the start of the turn; they pay 2 fatigue
    /// and lose stragglers.
    fn withdrawal(&mut self) -> Result<()> {
        self.plan();
        let battles: BTreeSet<String> = self.g.battles.iter().cloned().collect();
        let mut ids: Vec<String> = self
            .marches
            .iter()
            .filter(|(id, m)| {
                matches!(m.queue.front(), Some(Some(_)))
                    && self
                        .g
                        .brigade(id)
                        .is_some_and(|b| battles.contains(b.square()))
            })
            .map(|(id, _)| id.clone())
            .collect();
        if ids.is_empty() {
            return Ok(());
        }
        let turn = self.state.turn;
        let roll = self
            .dice
            .shuffle_sealed(&format!("gitm/t{turn}/withdrawal/order"), &mut ids)?;
        let e = Event::new(
            rules::RANDOM_ORDER,
            "order",
            format!(
                "Strategic withdrawal: units withdraw in the order {} (GITM 7.6).",
                ids.join(", ")
            ),
        )
        .roll(roll);
        self.push(e, Audience::Nobody);
        for id in ids {
            let Some(i) = self.index(&id) else { continue };
            let Some(Some(target)) = self.marches[&id].queue.front().copied() else {
                continue;
            };
            let b = self.g.brigades[i].clone();
            let held = self.start.brigades.iter().any(|o| {
                !o.inactive
                    && !o.kind().is_hq()
                    && self.hostile(b.power(), o.power())
                    && self.map.parse_place(o.square()).ok() == Some(target)
            });
            let name = self.map.place_name(target);
            if held {
                self.event(rules::WITHDRAWAL, "withdrawal", Some(b.square()), format!("{id} cannot withdraw to {name}: hostile combat units held it at the start of the turn (GITM 7.5)."), Audience::Side(b.power().to_string()));
                continue;
            }
            let Some(spot) = self.spot_of(i) else {
                continue;
            };
            let near = self
                .enemies_in(b.power(), spot.square)
                .into_iter()
                .any(|j| {
                    self.spot_of(j).is_some_and(|s| {
                        (s.sub.col as i32 - spot.sub.col as i32).abs() <= 1
                            && (s.sub.row as i32 - spot.sub.row as i32).abs() <= 1
                    })
                });
            let label = format!("gitm/t{turn}/withdrawal/{id}");
            // The percentage is worked out from the die alone: bound to it (issue 31).
            let (roll, pct, offset) = if near {
                let r = self.dice.roll(&label, &[11])?;
                let pct = 9 + r.dice[0].face;
                (r, pct, 9)
            } else {
                let r = self.dice.roll(&label, &[6])?;
                let pct = r.dice[0].face - 1;
                (r, pct, -1)
            };
            let lost = b.strength * pct / 100;
            let more = format!(
                "it loses {lost} stragglers ({}%{})",
                roll.told(0).plus(offset),
                if near {
                    ", an enemy in an adjacent tactical square"
                } else {
                    ""
                }
            );
            let at = self.events.len();
            if self.step_to(i, &id, target, 1, Mode::Withdrawal(more))? {
                self.g.brigades[i].strength -= lost;
                if let Some(e) = self.events.get_mut(at) {
                    e.push_roll(roll);
                }
            }
        }
        Ok(())
    }

    /// One strategic phase: every unit with a move in it, in a random order new each phase (7.6),
    /// then the pursuits of the units whose enemies left their square (7.11).
    fn strategic_phase(&mut self, phase: usize) -> Result<()> {
        self.plan();
        if phase == 1 {
            // GITM 7.17 (`ships.rs`): the voyages, a boarder's section 2 of the turn.
            self.voyages()?;
        }
        let mut ids: Vec<String> = self
            .marches
            .iter()
            .filter(|(_, m)| {
                m.pursuing.is_none() && (!m.queue.is_empty() || (m.order.to_battle && !m.at_battle))
            })
            .map(|(id, _)| id.clone())
            .collect();
        let turn = self.state.turn;
        if ids.len() > 1 {
            let roll = self
                .dice
                .shuffle_sealed(&format!("gitm/t{turn}/strategic-{phase}/order"), &mut ids)?;
            let e = Event::new(
                rules::RANDOM_ORDER,
                "order",
                format!(
                    "Strategic phase {phase}: units move in the order {} (GITM 7.6).",
                    ids.join(", ")
                ),
            )
            .roll(roll);
            self.push(e, Audience::Nobody);
        }
        for id in ids {
            // GITM 7.11: a departure sets off the pursuits of the enemies it leaves behind, at once.
            if let Some(d) = self.try_move(&id, phase)? {
                self.pursuits(phase, &[d])?;
            }
        }
        Ok(())
    }

    /// The move of one unit in a strategic phase, if it makes one: (id, from, to).
    fn try_move(&mut self, id: &str, phase: usize) -> Result<Option<(String, Square, Square)>> {
        let Some(i) = self.index(id) else {
            return Ok(None);
        };
        let m = self.marches[id].clone();
        if m.last_phase >= phase || (phase == 1 && m.last_phase == 1) {
            return Ok(None);
        }
        let Some(from) = self.spot_of(i) else {
            return Ok(None);
        };
        let b = self.g.brigades[i].clone();
        let side = Audience::Side(b.power().to_string());
        let (target, on_path, battle) = match m.queue.front() {
            Some(None) => {
                self.marches.get_mut(id).map(|m| m.queue.pop_front());
                return Ok(None);
            }
            Some(Some(sq)) => (*sq, true, 0),
            None => {
                // GITM 7.12: march to battle once the path is done.
                match self.largest_battle(b.power(), from.square) {
                    Some((sq, size)) if sq != from.square => (sq, false, size),
                    _ => {
                        if let Some(m) = self.marches.get_mut(id) {
                            m.at_battle = true;
                        }
                        return Ok(None);
                    }
                }
            }
        };
        let name = self.map.place_name(target);
        if b.fatigue > MAX_MARCH_FATIGUE {
            self.event(rules::ALLOWANCE, "halt", Some(b.square()), format!("{id} is too tired to march (fatigue {} above {MAX_MARCH_FATIGUE}) and stays in {} (GITM 7.1).", b.fatigue, b.square()), side);
            self.stop(id);
            return Ok(None);
        }
        if step(self.map, from.square, target).is_none() {
            self.event(
                rules::PATH,
                "halt",
                Some(b.square()),
                format!(
                    "{id} halts in {}: {name} is not adjacent to it (GITM 7.4).",
                    b.square()
                ),
                side,
            );
            self.stop(id);
            return Ok(None);
        }
        let mode = if on_path {
            Mode::Path
        } else {
            Mode::ToBattle(battle)
        };
        if !self.step_to(i, id, target, phase, mode)? {
            return Ok(None);
        }
        if !on_path {
            if let Some(m) = self.marches.get_mut(id) {
                m.at_battle = true;
            }
        }
        Ok(Some((id.to_string(), from.square, target)))
    }

    /// Halts a unit's strategic movement for the rest of the turn.
    pub(super) fn stop(&mut self, id: &str) {
        if let Some(m) = self.marches.get_mut(id) {
            m.queue.clear();
            m.order.to_battle = false;
            m.at_battle = true;
        }
    }

    /// Moves unit `i` one square to `target` if the rules let it: its allowance and forced march
    /// (7.1-7.3), a path free of enemies to the map's edge (7.7), a diagonal not blocked (7.14); then
    /// places it on the entry square (7.13) and applies the halts of 7.9 and 7.10. Returns whether it
    /// moved. `on_path`: the move is the front box of its path (popped when made).
    fn step_to(
        &mut self,
        i: usize,
        id: &str,
        target: Square,
        phase: usize,
        mode: Mode,
    ) -> Result<bool> {
        let on_path = matches!(mode, Mode::Path | Mode::Withdrawal(..));
        let b = self.g.brigades[i].clone();
        let Some(from) = self.spot_of(i) else {
            return Ok(false);
        };
        let Some(dir) = step(self.map, from.square, target) else {
            return Ok(false);
        };
        let side = Audience::Side(b.power().to_string());
        let name = self.map.place_name(target);
        if b.shattered {
            self.event(rules::PBEM_SHATTERED, "halt", Some(b.square()), format!("{id} is shattered and makes no strategic move; its march is set aside (pbem: a shattered brigade does not march, GITM 7.14 counts it as no unit)."), side);
            self.stop(id);
            return Ok(false);
        }
        if self.besieged(i) {
            let place = self.g.besieged_place(b.at());
            let place = place.strip_prefix("the ").unwrap_or(&place);
            self.event(rules::SIEGE, "halt", Some(b.square()), format!("{id} is in the besieged {place} and may not move strategically (GITM 2.7, 7.7)."), side);
            self.stop(id);
            return Ok(false);
        }
        let m = self.marches.entry(id.to_string()).or_default().clone();
        let kind = b.kind();
        // GITM 7.2: a square less carrying supply, and a square less out of communications.
        let allowance = kind
            .strategic_allowance()
            .saturating_sub(u32::from(b.supplies > 0))
            .saturating_sub(u32::from(self.out_of_communications.contains(id)));
        let most = allowance + u32::from(kind != Kind::Militia);
        if m.moves >= most {
            self.event(rules::FORCED_MARCH, "halt", Some(b.square()), format!("{id} has no move left this turn ({allowance} squares{}) and stays in {} (GITM 7.1-7.3).", if kind == Kind::Militia { ", militia never force march" } else { " and one forced march" }, b.square()), side);
            self.stop(id);
            return Ok(false);
        }
        // GITM 7.1: militia stay in their home nation (pbem: the squares their state holds in
        // `[control]`).
        if kind == Kind::Militia
            && self.state.control.get(&name).map(String::as_str) != Some(b.power())
        {
            self.event(rules::ALLOWANCE, "halt", Some(b.square()), format!("{id} is militia and may not leave its home nation for {name}; it stays in {} (GITM 7.1).", b.square()), side);
            self.stop(id);
            return Ok(false);
        }
        // GITM 7.15: the Ottoman Empire's squares (those `[control]` gives to "ottoman") are closed.
        if self
            .state
            .control
            .get(&name)
            .is_some_and(|o| o.eq_ignore_ascii_case(OTTOMAN))
        {
            self.event(rules::OTTOMAN, "halt", Some(b.square()), format!("{id} may not enter {name}, a square of the Ottoman Empire; it stays in {} (GITM 7.15).", b.square()), side);
            self.stop(id);
            return Ok(false);
        }
        let size = self.map.sub().map_or(15, |s| s.size());
        if self.enemy_on(b.power(), from.square, &toward_edge(from.sub, dir, size)) {
            self.event(rules::BLOCKED, "blocked", Some(b.square()), format!("{id} cannot leave {} for {name}: enemy units stand between it and the edge of its tactical map; it tries again next phase (GITM 7.7).", b.square()), side);
            if let Some(m) = self.marches.get_mut(id) {
                m.last_phase = phase;
            }
            return Ok(false);
        }
        // GITM 7.7's second sentence: no diagonal march out between two units not actively allied
        // standing on the two tactical squares beside the unit that the diagonal passes between.
        if let Some(pair) = self.diagonal_pinch(b.power(), from, dir, size) {
            self.event(rules::BLOCKED, "blocked", Some(b.square()), format!("{id} cannot leave {} for {name}: its march would pass diagonally between {pair}, not actively allied to it, on the tactical squares beside it; it tries again next phase (GITM 7.7).", b.square()), side);
            if let Some(m) = self.marches.get_mut(id) {
                m.last_phase = phase;
            }
            return Ok(false);
        }
        // GITM 7.8: with enemy combat units in the square, no move across a river or range.
        let crossed = squares_crossed(self.map, from.square, dir);
        let fighters_here = self
            .blockers_in(b.power(), from.square)
            .into_iter()
            .any(|j| !self.g.brigades[j].kind().is_hq());
        if let Some(sub) = self.map.sub().filter(|_| fighters_here) {
            let side_of = side_region(sub, from, &crossed);
            if !side_of.iter().any(|s| s.square == target) {
                self.event(rules::RIVER_CROSSING, "blocked", Some(b.square()), format!("{id} cannot march from {} to {name}: enemy combat units are in {} and the move crosses a river or range; it must cross it by tactical movement first, and tries again next phase (GITM 7.8).", b.square(), b.square()), side);
                if let Some(m) = self.marches.get_mut(id) {
                    m.last_phase = phase;
                }
                return Ok(false);
            }
        }
        // GITM 1.4: a square full for this unit holds it back; what then is pbem's default, the
        // SOP's decision: it tries again next phase, as a move blocked under 7.7.
        if let Some(why) = self.over_stacking(i, target) {
            let pbem = rules::PBEM_STACKING.cite();
            let e = Event::new(
                rules::STACKING,
                "blocked",
                format!(
                    "{id} is held back in {}: {why}; it tries again next phase ({pbem}).",
                    b.square()
                ),
            )
            .at(b.square())
            .decided(b.power().to_string(), DecidedBy::Sop);
            self.push(e, side);
            if let Some(m) = self.marches.get_mut(id) {
                m.last_phase = phase;
            }
            return Ok(false);
        }
        let forced = m.moves >= allowance;
        let cost = if forced {
            kind.forced_march_fatigue()
        } else if self.map.terrain(target) == "mountain" {
            2
        } else {
            1
        } + u32::from(matches!(mode, Mode::Withdrawal(..)));
        if dir.0 != 0 && dir.1 != 0 {
            let beside = [
                Square {
                    col: (from.square.col as i32 + dir.0 as i32) as u16,
                    row: from.square.row,
                },
                Square {
                    col: from.square.col,
                    row: (from.square.row as i32 + dir.1 as i32) as u16,
                },
            ];
            if beside
                .iter()
                .any(|&s| !self.blockers_in(b.power(), s).is_empty())
            {
                self.g.brigades[i].fatigue += cost;
                if let Some(m) = self.marches.get_mut(id) {
                    m.moves += 1;
                    m.last_phase = phase;
                }
                self.event(rules::DIAGONAL, "blocked", Some(b.square()), format!("{id_s} diagonal move to {name} is blocked by an enemy beside it: it pays the step and {cost} fatigue, has not moved (no march for its experience, GITM 3.6) and tries again next phase (GITM 7.14).", id_s = crate::words::Possessive(id)), side);
                return Ok(false);
            }
        }
        // GITM 7.13: the entry square.
        let wanted = m.order.entry.unwrap_or_else(|| {
            self.start
                .brigade(id)
                .and_then(|s| self.map.parse_spot(s.at()).ok())
                .map_or(from.sub, |s| s.sub)
        });
        let power = b.power().to_string();
        let sub = self.map.sub();
        // GITM 7.13: with enemies (or neutrals at home) in the square left, the unit enters on the
        // side of the rivers and ranges it stood on (none to keep when the side does not reach on).
        let bank: Option<BTreeSet<Spot>> = sub
            .filter(|_| !self.blockers_in(&power, from.square).is_empty())
            .map(|g| side_region(g, from, &crossed))
            .filter(|r| r.iter().any(|s| s.square == target));
        let crowded = self.crowded(&power, target);
        let entry = entry_square(wanted, dir, size, |s| {
            let spot = Spot {
                square: target,
                sub: s,
            };
            let passable =
                sub.is_none_or(|g| !matches!(g.terrain(spot), "river" | "mountain" | "water"));
            passable
                && bank.as_ref().is_none_or(|r| r.contains(&spot))
                && !crowded.contains(&s)
                && !self.enemy_on(&power, target, &from_edge(s, dir, size))
        });
        let kept_bank = bank.is_some();
        let from_name = b.square().to_string();
        // GITM 4.5: the other sides that see it leave, before it goes.
        let saw_leave = self.sighted_by_others(i);
        let bm = &mut self.g.brigades[i];
        bm.at = toml::Spanned::new(0..0, format!("{name}/{entry}"));
        bm.fatigue += cost;
        if let Some(m) = self.marches.get_mut(id) {
            m.moves += 1;
            m.marched = true;
            m.last_phase = phase;
            if on_path {
                m.queue.pop_front();
            }
        }
        let how = if forced {
            format!(", a forced march for {cost} fatigue (GITM 7.3)")
        } else {
            format!(" for {cost} fatigue")
        };
        let entry_at = entry.to_string();
        let entry = if kept_bank {
            format!("{entry}, on the side of the river or range it stood on")
        } else {
            entry.to_string()
        };
        let (rule, text) = match &mode {
            Mode::Path => (
                if forced { rules::FORCED_MARCH } else { rules::ALLOWANCE },
                format!("{id} marches from {from_name} to {name}{how}, entering at {entry} (GITM 7.1, 7.13)."),
            ),
            Mode::Withdrawal(more) => (
                rules::WITHDRAWAL,
                format!("{id} withdraws from the battle in {from_name} to {name}{how}, entering at {entry}; {more} (GITM 7.5, 7.13)."),
            ),
            Mode::Pursuit(enemy) => (
                rules::PURSUIT,
                format!("{id} pursues {enemy} from {from_name} into {name}{how}, entering at {entry}; its path is cancelled and it pursues for the rest of the turn (GITM 7.11, 7.13)."),
            ),
            Mode::ToBattle(size) => (
                rules::MARCH_TO_BATTLE,
                format!("{id} marches to the battle in {name}{how}, entering at {entry}: the largest in or next to its square, {size} units of its side and hostile to it, neutrals not counted (GITM 7.12, 7.13)."),
            ),
        };
        self.tell_march(MarchTold {
            id,
            power: &power,
            rule,
            text,
            from: &from_name,
            to: &name,
            entry: &entry_at,
            saw_leave,
        });
        // GITM 7.9: halt on detection.
        let enemies = self.enemies_in(&power, target);
        if !enemies.is_empty() && m.order.halt_on_detection {
            self.stop(id);
            self.event(
                rules::HALT_DETECTION,
                "halt",
                Some(&name),
                format!("{id} detects the enemy in {name} and halts there (GITM 7.9)."),
                Audience::Side(power.clone()),
            );
        }
        // pbem's reading of GITM 2.7: an unbesieged hostile fort ends the march of a unit entering
        // its square: the unit must besiege it (or pass it once it is besieged).
        if let Some(fort) = self.blocking_fort(&power, target) {
            let more = self.marches.get(id).is_some_and(|m| {
                m.queue.iter().any(Option::is_some) || m.order.pursue || m.order.to_battle
            });
            if more {
                self.stop(id);
                self.event(
                    rules::PBEM_FORT_BLOCK,
                    "halt",
                    Some(&name),
                    format!("{id} halts in {name}: the hostile fort at {fort} is not besieged and bars the way on (GITM 2.7; pbem gitm/fort)."),
                    Audience::Side(power.clone()),
                );
            }
        }
        // GITM 7.10: units there that halt on an enemy's entry.
        for j in enemies {
            let other = self.g.brigades[j].id().to_string();
            let halts = self.marches.get(&other).is_some_and(|m| {
                m.order.halt_on_entry && (!m.queue.is_empty() || m.order.to_battle)
            });
            if halts {
                self.stop(&other);
                let p = self.g.brigades[j].power().to_string();
                self.event(
                    rules::HALT_ENTRY,
                    "halt",
                    Some(&name),
                    format!("{other} detects an enemy entering {name} and halts (GITM 7.10)."),
                    Audience::Side(p),
                );
            }
        }
        Ok(true)
    }

    /// GITM 7.11: units with the pursuit option that have not moved this phase follow a hostile
    /// unit that just left their square, force marching if they can; a successful pursuit cancels
    /// their path, and from then on they pursue that unit alone.
    fn pursuits(&mut self, phase: usize, departures: &[(String, Square, Square)]) -> Result<()> {
        for (mover, from, to) in departures {
            let Some(mi) = self.index(mover) else {
                continue;
            };
            let mover_power = self.g.brigades[mi].power().to_string();
            let pursuers: Vec<String> = self
                .marches
                .iter()
                .filter(|(id, m)| {
                    m.order.pursue
                        && m.last_phase < phase
                        && m.pursuing.as_deref().is_none_or(|p| p == mover)
                        && self.index(id).is_some_and(|i| {
                            let b = &self.g.brigades[i];
                            !b.inactive
                                && !b.shattered
                                && !self.besieged(i)
                                && self.hostile(b.power(), &mover_power)
                                && self.spot_of(i).is_some_and(|s| s.square == *from)
                        })
                })
                .map(|(id, _)| id.clone())
                .collect();
            for p in pursuers {
                let Some(i) = self.index(&p) else { continue };
                if self.g.brigades[i].fatigue > MAX_MARCH_FATIGUE {
                    continue;
                }
                if self.step_to(i, &p, *to, phase, Mode::Pursuit(mover.clone()))? {
                    if let Some(m) = self.marches.get_mut(&p) {
                        m.queue.clear();
                        m.pursuing = Some(mover.clone());
                    }
                }
            }
        }
        Ok(())
    }

    /// GITM 7.12: the square in or next to `at` with the largest battle (units of `power`'s side and
    /// hostile units both present), and its size: the active units of the battle, of `power`'s side
    /// and hostile to it; a neutral unit in the square is in no battle of `power`'s and is not
    /// counted. At a tie, `at` itself, then the first in the map's order.
    fn largest_battle(&self, power: &str, at: Square) -> Option<(Square, usize)> {
        let mut best: Option<(usize, Square)> = None;
        let mut squares = vec![at];
        squares.extend(self.map.neighbours(at));
        for sq in squares {
            let here: Vec<&str> = self
                .g
                .brigades
                .iter()
                .filter(|b| !b.inactive && self.map.parse_place(b.square()).ok() == Some(sq))
                .map(|b| b.power())
                .collect();
            let friends = here
                .iter()
                .filter(|p| self.state.friendly(power, p))
                .count();
            let foes = here.iter().filter(|p| self.hostile(power, p)).count();
            let size = friends + foes;
            if friends > 0 && foes > 0 && best.is_none_or(|(n, _)| size > n) {
                best = Some((size, sq));
            }
        }
        best.map(|(n, s)| (s, n))
    }

    // ----- GITM 7.16: peace and truce -----

    fn peace_moves(&mut self) {
        let wanted: Vec<(String, Option<String>, Option<SubSquare>)> = self
            .orders
            .iter()
            .filter_map(|(id, o)| o.place.clone().map(|(s, t)| (id.clone(), s, t)))
            .collect();
        for (id, square, sub) in wanted {
            let Some(i) = self.index(&id) else { continue };
            let Some(spot) = self.spot_of(i) else {
                continue;
            };
            let b = self.g.brigades[i].clone();
            let target = square
                .as_deref()
                .and_then(|s| self.map.parse_place(s).ok())
                .unwrap_or(spot.square);
            let name = self.map.place_name(target);
            if b.kind() == Kind::Militia && target != spot.square {
                let home = b.home.as_ref().map(|h| h.get_ref().as_str());
                if !home.is_some_and(|h| h.eq_ignore_ascii_case(&name)) {
                    self.event(rules::PEACE_MOVE, "place", Some(b.square()), format!("{id} is militia and goes only to its home city ({}), not to {name} (GITM 7.16).", home.unwrap_or("none given in the state")), Audience::Side(b.power().to_string()));
                    continue;
                }
            }
            let owner = self.state.control.get(&name).cloned();
            if let Some(o) = owner.filter(|o| !self.state.friendly(b.power(), o)) {
                self.event(rules::PEACE_MOVE, "place", Some(b.square()), format!("{id} may not go to {name}: it belongs to {o}, not to its state nor an ally (GITM 7.16)."), Audience::Side(b.power().to_string()));
                continue;
            }
            let passable = |sub: SubSquare| self.stands_on(target, sub);
            if let Some(why) = self
                .over_stacking(i, target)
                .filter(|_| target != spot.square)
            {
                self.event(
                    rules::STACKING,
                    "place",
                    Some(b.square()),
                    format!("{id} may not go to {name}: {why}; it stays."),
                    Audience::Side(b.power().to_string()),
                );
                continue;
            }
            let new_sub = sub.unwrap_or(spot.sub);
            if !passable(new_sub) {
                self.event(
                    rules::PEACE_MOVE,
                    "place",
                    Some(b.square()),
                    format!("{id} cannot stand on {name}/{new_sub}, impassable (GITM 7.16)."),
                    Audience::Side(b.power().to_string()),
                );
                continue;
            }
            self.g.brigades[i].at = toml::Spanned::new(0..0, format!("{name}/{new_sub}"));
            self.event(
                rules::PEACE_MOVE,
                "place",
                Some(&name),
                format!("{id} is placed in {name}/{new_sub} (GITM 7.16)."),
                Audience::Side(b.power().to_string()),
            );
        }
    }

    /// GITM 7.16: whether a brigade placed in peace may stand on tactical square `sub` of `target`
    /// (not river, mountain or water; any square where the map has no tactical squares).
    fn stands_on(&self, target: Square, sub: SubSquare) -> bool {
        self.map.sub().is_none_or(|g| {
            !matches!(
                g.terrain(Spot {
                    square: target,
                    sub
                }),
                "river" | "mountain" | "water"
            )
        })
    }

    /// GITM 7.16: in peace and truce, militia not in their home city are moved there, on the
    /// tactical square they stood on when it is passable there, else on the first passable one in
    /// row order. A militia brigade with no `home` in the state stays where it is.
    fn militia_home(&mut self) {
        for i in 0..self.g.brigades.len() {
            let b = self.g.brigades[i].clone();
            let Some(home) = b.home.as_ref().map(|h| h.get_ref().clone()) else {
                continue;
            };
            if b.kind() != Kind::Militia || b.square().eq_ignore_ascii_case(&home) {
                continue;
            }
            let (Ok(target), Some(spot)) = (self.map.parse_place(&home), self.spot_of(i)) else {
                continue;
            };
            let passable = |sub: SubSquare| self.stands_on(target, sub);
            let size = self.map.sub().map_or(1, |g| g.size());
            let sub = std::iter::once(spot.sub)
                .chain((0..size).flat_map(|r| (0..size).map(move |c| SubSquare { col: c, row: r })))
                .find(|&s| passable(s));
            let Some(sub) = sub else { continue };
            let name = self.map.place_name(target);
            self.g.brigades[i].at = toml::Spanned::new(0..0, format!("{name}/{sub}"));
            self.event(
                rules::PEACE_MOVE,
                "place",
                Some(&name),
                format!("{} is militia away from its home city: it goes back to {name}/{sub} (GITM 7.16).", b.id()),
                Audience::Side(b.power().to_string()),
            );
        }
    }

    // ----- the end of the turn -----

    fn end_of_turn(&mut self) -> Result<()> {
        // GITM 3.7: units whose morale a battle moved this turn, then those a city capture moved:
        // their morale does not return towards 50 this turn.
        let mut stirred: BTreeSet<String> = self
            .g
            .brigades
            .iter()
            .filter(|b| {
                self.morale_before_battles
                    .get(b.id())
                    .is_some_and(|&m| m != b.morale)
            })
            .map(|b| b.id().to_string())
            .collect();
        if self.g.season.is_campaign() {
            self.sieges()?;
            self.city_sieges();
            self.rally_shattered();
            stirred.extend(self.captures());
        }
        // GITM 3.6: a unit that entered a square this turn marched; one whose every try was a
        // diagonal blocked under 7.14 paid the steps but did not move, and gains nothing.
        let marched: BTreeSet<String> = self
            .marches
            .iter()
            .filter(|(_, m)| m.marched)
            .map(|(id, _)| id.clone())
            .collect();
        for b in &mut self.g.brigades {
            b.fatigue = b.fatigue.saturating_sub(b.kind().recovery());
            if marched.contains(b.id()) && b.experience < 8 {
                b.experience += 1;
            }
            if stirred.contains(b.id()) {
                continue;
            }
            b.morale = if b.morale > 50 {
                (b.morale - 5).max(50)
            } else {
                (b.morale + 5).min(50)
            };
        }
        self.event(rules::FATIGUE_RECOVERY, "recovery", None, "End of the turn: cavalry, light artillery and HQs regain 4 fatigue, other units 3 (GITM 3.2); units that marched gain 1 experience up to 8 (GITM 3.6); morale returns 5 points towards 50 (GITM 3.7, pbem's rate), but not that of units whose morale a battle or a city capture moved this turn.".into(), Everyone);
        // GITM 7.5: the squares where a battle was fought this turn (a tactical combat, 9.1), for
        // next turn's withdrawals; hostile units merely standing together fought none.
        let battles: BTreeSet<String> = if self.g.season.is_campaign() {
            self.theatre.fought.clone()
        } else {
            BTreeSet::new()
        };
        self.g.battles = battles.into_iter().collect();
        self.detection()?;
        if self.g.season.is_campaign() {
            self.port_reports()?;
            self.late_reports()?;
            self.g.campaign_turn += 1;
            if self.g.campaign_turn > CAMPAIGN_TURNS {
                self.g.season = Season::Peace;
                self.event(
                    rules::SEQUENCE,
                    "season",
                    None,
                    format!("The campaign's {CAMPAIGN_TURNS} turns are over: peace (GITM 5.1)."),
                    Everyone,
                );
                self.turnover();
            }
        }
        Ok(())
    }

    /// GITM 3.6 at the end of a campaign: units lose a fraction of their experience (turnover of
    /// men, inactivity); the seed gives no fraction, pbem's is a quarter, rounded down
    /// (`rules::PBEM_TURNOVER`).
    fn turnover(&mut self) {
        for b in &mut self.g.brigades {
            b.experience -= b.experience / 4;
        }
        self.event(
            rules::PBEM_TURNOVER,
            "experience",
            None,
            "The campaign is over: every brigade loses a quarter of its experience, rounded down (GITM 3.6; pbem gitm/turnover: the seed gives no fraction).".into(),
            Everyone,
        );
    }

    /// GITM 2.7 by pbem's rules (`rules::PBEM_SIEGE`), at the end of a campaign turn, fort by fort:
    /// a fort with brigades on its square is besieged while active combat units hostile to them
    /// stand in its strategic square; the siege begins the turn they are first there, and each later
    /// turn a d6, plus 2 a siege-artillery brigade and 1 another artillery brigade of the besiegers,
    /// at least the fort's strength left plus 4 makes a breach (strength one less); at 0 the fort is
    /// breached and shelters no garrison. It is lifted, its breaches repaired, when no besieger or
    /// no garrison is left.
    fn sieges(&mut self) -> Result<()> {
        let turn = self.state.turn;
        for f in self.g.forts.clone() {
            let at = f.at.get_ref().clone();
            let square = at.split('/').next().unwrap_or("").to_string();
            let holder = self
                .g
                .brigades
                .iter()
                .find(|b| !b.shattered && b.at().eq_ignore_ascii_case(&at))
                .map(|b| b.power().to_string());
            let besiegers: Vec<usize> = holder.as_ref().map_or_else(Vec::new, |h| {
                (0..self.g.brigades.len())
                    .filter(|&j| {
                        let o = &self.g.brigades[j];
                        !o.inactive
                            && !o.shattered
                            && !o.kind().is_hq()
                            && o.square() == square
                            && self.hostile(h, o.power())
                    })
                    .collect()
            });
            let siege = self
                .g
                .sieges
                .iter()
                .position(|s| s.at.get_ref().eq_ignore_ascii_case(&at));
            let cite = rules::SIEGE.cite();
            match (siege, holder, besiegers.first()) {
                (Some(k), holder, None) | (Some(k), holder @ None, _) => {
                    let by = self.g.sieges.remove(k).by;
                    let why = if holder.is_none() {
                        "no garrison is left in it"
                    } else {
                        "no besieger is left in the square"
                    };
                    self.event(rules::PBEM_SIEGE, "siege", Some(&square), format!("The siege of the fort at {at} is lifted: {why}; its breaches are repaired ({cite}; pbem gitm/siege)."), Audience::Seen(by, vec![square.clone()]));
                }
                (None, Some(_), Some(&first)) => {
                    let by = self.g.brigades[first].power().to_string();
                    self.g.sieges.push(super::state::Siege {
                        at: toml::Spanned::new(0..0, at.clone()),
                        by: by.clone(),
                        since: turn,
                        breaches: 0,
                    });
                    self.event(rules::SIEGE, "siege", Some(&square), format!("{by} lays siege to the fort at {at} (strength {}): its garrison may not march out nor draw supply ({cite}).", f.strength), Audience::Seen(by, vec![square.clone()]));
                }
                (Some(k), Some(_), Some(_)) => {
                    let left = f.strength.saturating_sub(self.g.sieges[k].breaches);
                    if left == 0 {
                        continue;
                    }
                    let bonus: u32 = besiegers
                        .iter()
                        .map(|&j| match self.g.brigades[j].kind() {
                            Kind::SiegeArtillery => 2,
                            k if k.is_artillery() => 1,
                            _ => 0,
                        })
                        .sum();
                    let roll = self.dice.roll(&format!("gitm/t{turn}/siege/{at}"), &[6])?;
                    let total = roll.dice[0].face + bonus;
                    let need = left + BREACH_OVER_STRENGTH;
                    let by = self.g.sieges[k].by.clone();
                    let text = if total >= need {
                        self.g.sieges[k].breaches += 1;
                        if left == 1 {
                            format!("The besiegers breach the fort at {at}: d6 {} + {bonus} for artillery = {}, at least {need}; the fort is breached and shelters its garrison no more ({cite}; pbem gitm/siege).", roll.told(0), roll.told(0).plus(bonus.into()))
                        } else {
                            format!("The besiegers make a breach in the fort at {at}: d6 {} + {bonus} for artillery = {}, at least {need}; its strength falls to {} ({cite}; pbem gitm/siege).", roll.told(0), roll.told(0).plus(bonus.into()), left - 1)
                        }
                    } else {
                        format!("The fort at {at} holds: d6 {} + {bonus} for artillery = {}, short of {need} (strength {left} + {BREACH_OVER_STRENGTH}) ({cite}; pbem gitm/siege).", roll.told(0), roll.told(0).plus(bonus.into()))
                    };
                    let e = Event::new(rules::PBEM_SIEGE, "siege", text)
                        .at(&square)
                        .roll(roll);
                    self.push(e, Audience::Seen(by, vec![square.clone()]));
                }
                (None, _, _) => {}
            }
        }
        Ok(())
    }

    /// pbem's rules for shattered brigades (`rules::PBEM_SHATTERED`; the seed marks them, 1.4, and
    /// stops before saying more): at the end of a campaign turn one with no men left is removed, and
    /// one in a square without active hostile combat units rallies.
    fn rally_shattered(&mut self) {
        let mut i = 0;
        while i < self.g.brigades.len() {
            let b = self.g.brigades[i].clone();
            if !b.shattered {
                i += 1;
                continue;
            }
            let side = Audience::Side(b.power().to_string());
            if b.strength == 0 {
                self.g.brigades.remove(i);
                self.event(
                    rules::PBEM_SHATTERED,
                    "removed",
                    Some(b.square()),
                    format!(
                        "{} is shattered with no men left and is removed (pbem gitm/shattered).",
                        b.id()
                    ),
                    side,
                );
                continue;
            }
            let threatened = self.spot_of(i).is_some_and(|s| {
                self.enemies_in(b.power(), s.square).into_iter().any(|j| {
                    let o = &self.g.brigades[j];
                    !o.shattered && !o.kind().is_hq()
                })
            });
            if !threatened {
                self.g.brigades[i].shattered = false;
                self.event(rules::PBEM_SHATTERED, "rally", Some(b.square()), format!("{} rallies in {}: no hostile combat unit is in the square (pbem gitm/shattered).", b.id(), b.square()), side);
            }
            i += 1;
        }
    }

    /// GITM 4.1: each side's sightings of units not actively allied, at the end of the turn, worded
    /// approximately with a sealed roll of noise each.
    fn detection(&mut self) -> Result<()> {
        let campaign = self.g.season.is_campaign();
        let turn = self.state.turn;
        let spots: Vec<Option<Spot>> = (0..self.g.brigades.len())
            .map(|i| self.spot_of(i))
            .collect();
        let mut out = Vec::new();
        for p in self.powers.clone() {
            let eyes: Vec<(Square, u32)> = self
                .g
                .brigades
                .iter()
                .zip(&spots)
                .filter(|(b, _)| b.power() == p && !b.inactive)
                .filter_map(|(b, s)| s.map(|s| (s.square, detection::ranges(b.kind(), campaign).1)))
                .collect();
            // Each square seen, with the square of the nearest unit that sees it.
            let mut seen: BTreeMap<Square, (Square, Vec<usize>)> = BTreeMap::new();
            for (i, b) in self.g.brigades.iter().enumerate() {
                if self.state.friendly(&p, b.power()) {
                    continue;
                }
                let Some(s) = spots[i] else { continue };
                let nearest = eyes
                    .iter()
                    .filter(|&&(e, r)| distance(e, s.square) <= r)
                    .min_by_key(|&&(e, _)| (distance(e, s.square), e));
                if let Some(&(e, _)) = nearest {
                    seen.entry(s.square).or_insert((e, Vec::new())).1.push(i);
                }
            }
            for (sq, (eye, units)) in seen {
                let name = self.map.place_name(sq);
                let roll = self
                    .dice
                    .roll_sealed(&format!("gitm/t{turn}/sight/{p}/{name}"), &[6, 6])?;
                let us: Vec<&super::state::Brigade> =
                    units.iter().map(|&i| &self.g.brigades[i]).collect();
                let n = detection::noisy_count(us.len() as u32, roll.dice[0].face);
                let letters = detection::letters(&us, roll.dice[1].face);
                let states: BTreeSet<&str> = us.iter().map(|b| b.power()).collect();
                let states: Vec<&str> = states.into_iter().collect();
                let text = format!(
                    "Scouts report {} ({letters}) of {} in {name} (GITM 4.1: an approximate count).",
                    detection::count_word(n),
                    states.join(" and ")
                );
                // GITM 4.6: the event stands where the unit that saw stands, so that the player
                // whose command holds it sees it.
                out.push((p.clone(), self.map.place_name(eye), text, roll));
            }
        }
        for (p, name, text, roll) in out {
            let e = Event::new(rules::DETECTION, "sighting", text)
                .at(&name)
                .roll(roll);
            self.events.push(e.seen_by([p.as_str()]));
        }
        Ok(())
    }

    /// GITM 4.7: each side hears, a turn late and with errors, of hostile units that stood at the
    /// start of the turn in the squares it controls (`[control]`) out of its units' sight, and now and
    /// then of hostile headquarters out of its sight; the errors are sealed rolls.
    fn late_reports(&mut self) -> Result<()> {
        let turn = self.state.turn;
        let mut out = Vec::new();
        // Rolls that gave no report: the referee's log keeps them (every roll drawn is in an event).
        let mut hq_rolls = Vec::new();
        for p in self.powers.clone() {
            let eyes: Vec<Square> = self
                .start
                .brigades
                .iter()
                .filter(|b| b.power() == p && !b.inactive)
                .filter_map(|b| self.map.parse_place(b.square()).ok())
                .collect();
            let mut found: BTreeMap<Square, u32> = BTreeMap::new();
            for b in &self.start.brigades {
                if !self.hostile(&p, b.power()) {
                    continue;
                }
                let Ok(sq) = self.map.parse_place(b.square()) else {
                    continue;
                };
                let name = self.map.place_name(sq);
                if self.state.control.get(&name) != Some(&p) {
                    continue;
                }
                if eyes.iter().any(|&e| distance(e, sq) <= 1) {
                    continue;
                }
                *found.entry(sq).or_default() += 1;
            }
            // The occasional reports of hostile headquarters: a sealed d6 of 1 or 2 gives one, its
            // square a square off or right by two sealed d3 (pbem's chance and error).
            let hqs: Vec<(String, Square)> = self
                .start
                .brigades
                .iter()
                .filter(|b| b.kind().is_hq() && self.hostile(&p, b.power()))
                .filter_map(|b| Some((b.id().to_string(), self.map.parse_place(b.square()).ok()?)))
                .filter(|(_, sq)| !eyes.iter().any(|&e| distance(e, *sq) <= 1))
                .collect();
            for (id, sq) in hqs {
                let roll = self
                    .dice
                    .roll_sealed(&format!("gitm/t{turn}/hq/{p}/{id}"), &[6, 3, 3])?;
                if roll.dice[0].face > 2 {
                    hq_rolls.push((p.clone(), roll));
                    continue;
                }
                let col = (sq.col as i32 + roll.dice[1].face as i32 - 2)
                    .clamp(0, self.map.columns() as i32 - 1);
                let row = (sq.row as i32 + roll.dice[2].face as i32 - 2)
                    .clamp(0, self.map.rows() as i32 - 1);
                let said = self.map.place_name(Square {
                    col: col as u16,
                    row: row as u16,
                });
                let text = format!("Agents place a hostile headquarters near {said} a turn ago (GITM 4.7: such reports may be wrong).");
                out.push((p.clone(), said, text, roll));
            }
            for (sq, n) in found {
                let name = self.map.place_name(sq);
                let roll = self
                    .dice
                    .roll_sealed(&format!("gitm/t{turn}/late/{p}/{name}"), &[5, 5, 6])?;
                let col = (sq.col as i32 + roll.dice[0].face as i32 - 3)
                    .clamp(0, self.map.columns() as i32 - 1);
                let row = (sq.row as i32 + roll.dice[1].face as i32 - 3)
                    .clamp(0, self.map.rows() as i32 - 1);
                let said = self.map.place_name(Square {
                    col: col as u16,
                    row: row as u16,
                });
                let count = detection::noisy_count(n, roll.dice[2].face);
                let text = format!("The war ministry hears, a turn late, of {} of hostile troops near {said} (GITM 4.7: such reports may be wrong).", detection::count_word(count));
                out.push((p.clone(), said, text, roll));
            }
        }
        for (p, _said, text, roll) in out {
            // At no place: the report reaches the side's ministry, every player of the power.
            let e = Event::new(rules::LATE_REPORTS, "report", text).roll(roll);
            self.events.push(e.seen_by([p.as_str()]));
        }
        if !hq_rolls.is_empty() {
            let mut e = Event::new(rules::LATE_REPORTS, "report", "The agents' reports of hostile headquarters that came to nothing this turn (GITM 4.7).");
            for (_, roll) in hq_rolls {
                e = e.roll(roll);
            }
            self.events.push(e);
        }
        Ok(())
    }
}

/// Why a unit makes a strategic move: the event it writes and the fatigue it pays.
enum Mode {
    /// The next box of its path (GITM 7.4).
    Path,
    /// A strategic withdrawal (7.5): one fatigue more; the stragglers it loses.
    Withdrawal(String),
    /// A pursuit of the unit named (7.11).
    Pursuit(String),
    /// A march to battle (7.12), to a battle of this many units (of its side and hostile to it).
    ToBattle(usize),
}

/// Who an event goes to.
/// A strategic march as [`Turn::tell_march`] tells it (GITM 4.5).
struct MarchTold<'a> {
    id: &'a str,
    power: &'a str,
    rule: Rule,
    /// The whole march, as its own side is told it.
    text: String,
    from: &'a str,
    to: &'a str,
    /// The tactical square it entered at, with what kept it on its bank.
    entry: &'a str,
    /// The other sides that saw it leave.
    saw_leave: BTreeSet<String>,
}

pub enum Audience {
    /// Every power.
    Everyone,
    /// A power and its active allies.
    Side(String),
    /// A power, its allies, and the powers with active units in the squares named (GITM 4.4, 4.5).
    Seen(String, Vec<String>),
    /// These powers and their allies; none, the referee alone (the tactical part's 4.4, 4.6).
    Sides(Vec<String>),
    /// The referee alone (the log and the summary).
    Nobody,
}
use Audience::Everyone;

/// The unit `b` merged into `into` (GITM 3.5): `into`'s id, commander and place; strengths and
/// batteries summed; quality (on its five grades, poor 0 to elite 4), experience, morale, fatigue and
/// ammunition the average of the two weighted by their strengths, rounded to the nearest (a half up);
/// carrying a supply only if both were. The men above the type's limit are not taken off here
/// ([`merge_excess`]).
pub fn merge(b: &super::state::Brigade, into: &super::state::Brigade) -> super::state::Brigade {
    let (sa, sb) = (b.strength as u64, into.strength as u64);
    let total = (sa + sb).max(1);
    let avg = |x: u32, y: u32| ((x as u64 * sa + y as u64 * sb + total / 2) / total) as u32;
    super::state::Brigade {
        strength: b.strength + into.strength,
        batteries: b.batteries + into.batteries,
        quality: super::state::Quality::of_rank(avg(b.quality.rank(), into.quality.rank())),
        experience: avg(b.experience, into.experience),
        morale: avg(b.morale, into.morale),
        fatigue: avg(b.fatigue, into.fatigue),
        ammunition: avg(b.ammunition, into.ammunition),
        supplies: if b.supplies > 0 && into.supplies > 0 {
            into.supplies
        } else {
            0
        },
        ..into.clone()
    }
}

/// GITM 3.5: the men of a merged unit above its type's limit, as (returning to the manpower pool at
/// the end of the following season, lost): on foreign soil 40% of them are lost (rounded down),
/// the rest return; at home all return. Foreign soil is pbem's reading: a square `[control]` does
/// not give to the unit's own state (its home nation, as 7.1 reads it for militia).
pub fn merge_excess(excess: u32, foreign: bool) -> (u32, u32) {
    let lost = if foreign { excess * 40 / 100 } else { 0 };
    (excess - lost, lost)
}

/// One tactical phase of a campaign turn (GITM 5.2; 8.1-8.12 movement, 9.1-9.5 combat; `combat` is
/// false in the final phase, 9.1): the tactical engine (`rules/gitm/tactical/`) on every square with
/// something to do.
pub fn tactical_phase(turn: &mut Turn<'_>, phase: u8, combat: bool) -> Result<()> {
    let text = if combat {
        format!(
            "Tactical phase {phase}: tactical movement, reactions, then combat (GITM 5.2, 8, 9)."
        )
    } else {
        format!("Tactical phase {phase}, the last: arriving units deploy; no combat (GITM 9.1).")
    };
    let rule = if combat {
        rules::TACTICAL_PHASE
    } else {
        rules::NO_COMBAT
    };
    turn.event(rule, "tactical", None, text, Everyone);
    use super::tactical::hook::{run_phase, TurnParts};
    let parts = TurnParts {
        map: turn.map,
        state: &turn.state,
        start: &turn.start,
        g: &mut turn.g,
        orders: &turn.orders,
        dice: &mut *turn.dice,
        theatre: &mut turn.theatre,
    };
    for (e, sides) in run_phase(parts, phase)? {
        turn.push(e, Audience::Sides(sides));
    }
    Ok(())
}

/// A sentence's words with their first letter upper case: "the fort at ..." as "The fort at ...".
pub fn upper_first(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
