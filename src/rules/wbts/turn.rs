//! One WBTS player turn being resolved: the position as it changes, the events, the dice. The
//! steps run in the order of the seed's turn as pbem plays it: roster changes (before any
//! initiative roll), movement in the order given (with attacks from march, naval movement with its
//! transit attacks, and naval attacks on forts, `naval.rs`), garrisons, naval combats, then the
//! attacks in the order given, each through the procedure of `combat.rs`.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Decision, Sources};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::{Event, Roll};
use crate::game::state::State;
use crate::rule::Rule;

use super::board::{Board, Crossing};
use super::combat::{self, cap_chit, Commander, Force, ShiftPolicy, Side};
use super::decisions::WbtsPoint;
use super::losses::{spread, Casualty, LossPolicy};
use super::orders::{Attack, WbtsOrder};
use super::rules;
use super::state::{Rank, ShipKind, UnitKind, WbtsState};
use super::tables::{Tables, Transit};

/// The position and the record of a player turn in progress.
pub struct Turn<'a> {
    pub board: Board<'a>,
    pub tables: &'a Tables,
    pub sop: &'a BTreeMap<String, String>,
    /// The shared part of the state; its `wbts` is taken out into [`Turn::w`] while the turn runs.
    pub state: State,
    pub w: WbtsState,
    pub active: String,
    pub powers: Vec<String>,
    pub events: Vec<Event>,
    pub dice: &'a mut DiceBox,
    /// The combats fought so far (their number labels their dice).
    pub combats: usize,
    /// Units ordered into or out of their fort this turn (the `fort` SOP leaves them be).
    pub garrisoned: BTreeSet<String>,
    /// The naval attacks on forts made so far (their number labels their dice).
    pub bombards: usize,
}

/// One engagement: an attack of the combat phase or an attack from march.
#[derive(Debug, Clone)]
pub struct Engagement {
    pub target: String,
    pub leader: String,
    pub units: Vec<String>,
    pub chit: u32,
    pub shift: Option<ShiftPolicy>,
    pub march: bool,
    pub advance: bool,
}

impl<'a> Turn<'a> {
    pub fn new(
        board: Board<'a>,
        tables: &'a Tables,
        sop: &'a BTreeMap<String, String>,
        mut state: State,
        powers: Vec<String>,
        dice: &'a mut DiceBox,
    ) -> Result<Self> {
        let w = state.wbts.take().ok_or_else(|| {
            anyhow::anyhow!("the state of a War Between the States game has no [wbts] table")
        })?;
        Ok(Turn {
            board,
            tables,
            sop,
            active: w.active().to_string(),
            state,
            w,
            powers,
            events: Vec::new(),
            dice,
            combats: 0,
            garrisoned: BTreeSet::new(),
            bombards: 0,
        })
    }

    /// The state at the end: the shared part with the `[wbts]` table put back.
    pub fn finish(mut self) -> (State, Vec<Event>) {
        self.state.wbts = Some(self.w);
        (self.state, self.events)
    }

    /// Records an event. Counters are open in pbem's WBTS: both sides see every event; the chits
    /// were chosen before either was shown.
    pub fn log(&mut self, event: Event) {
        let all = self.powers.clone();
        self.events
            .push(event.seen_by(all.iter().map(String::as_str)));
    }

    pub fn event(&mut self, rule: Rule, kind: &str, hex: Option<&str>, text: String) {
        let mut e = Event::new(rule, kind, text);
        if let Some(h) = hex {
            e = e.at(h);
        }
        self.log(e);
    }

    fn event_rolls(&mut self, rule: Rule, kind: &str, hex: &str, text: String, rolls: Vec<Roll>) {
        let mut e = Event::new(rule, kind, text).at(hex);
        for r in rolls {
            e = e.roll(r);
        }
        self.log(e);
    }

    pub fn friendly(&self, a: &str, b: &str) -> bool {
        self.state.friendly(a, b)
    }

    /// The enemy of `power`.
    pub fn other(&self, power: &str) -> String {
        self.powers
            .iter()
            .find(|p| !self.friendly(p, power))
            .cloned()
            .unwrap_or_default()
    }

    /// Settles a decision of `power`: its explicit setting, its standing order scoped to the first
    /// of `scopes` that has one (a leader, then a hex), power-wide, the SOP.
    pub fn decide(
        &self,
        point: WbtsPoint,
        power: &str,
        explicit: Option<&str>,
        scopes: &[&str],
    ) -> Decision<String> {
        use crate::decide::Point;
        let standing = self.state.standing.get(power);
        if explicit.is_none() {
            for s in scopes {
                if let Some(v) = standing.and_then(|m| m.get(&format!("{}@{s}", point.key()))) {
                    return Decision {
                        value: v.clone(),
                        by: DecidedBy::Standing,
                        rule: point.rule(),
                    };
                }
            }
        }
        decide(
            &point,
            &Sources {
                explicit,
                standing,
                scope: None,
                sop: self.sop,
            },
            |s| Some(s.to_string()),
            || Ok(String::new()),
        )
        .unwrap_or(Decision {
            value: String::new(),
            by: DecidedBy::Sop,
            rule: point.rule(),
        })
    }

    /// Ground units of enemies of `power` in `hex`: (outside a fort, inside).
    pub fn enemies_in(&self, hex: &str, power: &str) -> (Vec<String>, Vec<String>) {
        let mut out = (Vec::new(), Vec::new());
        for u in self.w.units_in(hex) {
            if self.friendly(u.power(), power) {
                continue;
            }
            if u.inside {
                out.1.push(u.id().to_string());
            } else {
                out.0.push(u.id().to_string());
            }
        }
        out
    }

    fn unit_hex(&self, id: &str) -> Option<String> {
        self.w.unit(id).map(|u| u.hex().to_string())
    }

    fn place_unit(&mut self, id: &str, hex: &str, inside: bool) {
        if let Some(u) = self.w.unit_mut(id) {
            u.hex = toml::Spanned::new(0..0, hex.to_string());
            u.inside = inside;
        }
    }

    fn place_leader(&mut self, id: &str, hex: &str) {
        if let Some(l) = self.w.leader_mut(id) {
            l.hex = toml::Spanned::new(0..0, hex.to_string());
        }
    }

    /// WBTS ground/roster: the unit leaves its roster for the leader's.
    pub fn roster(&mut self, unit: &str, leader: &str) {
        let Some(u) = self.w.unit_mut(unit) else {
            return;
        };
        let from = u.leader.replace(leader.to_string());
        if let Some(f) = &from {
            self.w.detached.insert(unit.to_string(), f.clone());
        }
        let text = format!(
            "{unit} leaves {} for {leader}'s roster before any initiative roll; it rejoins {} no sooner than the next strategic segment.",
            from.as_deref().unwrap_or("no roster"),
            from.as_deref().unwrap_or("it")
        );
        self.event(rules::ROSTER, "roster", None, text);
    }

    /// A leader or a unit moves, with the units stacked with him. It stops before a hex that
    /// enemies entered since the orders were written.
    pub fn move_pieces(&mut self, piece: &str, path: &[String], with: &[String]) {
        let power = self.active.clone();
        let mut at = self
            .w
            .leader(piece)
            .map(|l| l.hex().to_string())
            .or_else(|| self.unit_hex(piece))
            .unwrap_or_default();
        let mut went = Vec::new();
        for h in path {
            let (outside, inside) = self.enemies_in(h, &power);
            if !outside.is_empty() {
                self.event(
                    rules::NO_ENEMY,
                    "move",
                    Some(h),
                    format!("{piece} stops in {at}: {h} holds enemy units."),
                );
                break;
            }
            at = h.clone();
            went.push(h.clone());
            if !inside.is_empty() {
                break;
            }
        }
        if went.is_empty() {
            return;
        }
        let movers: Vec<String> = std::iter::once(piece.to_string())
            .chain(with.iter().cloned())
            .collect();
        for m in &movers {
            if self.w.leader(m).is_some() {
                self.place_leader(m, &at);
            } else {
                self.place_unit(m, &at, false);
            }
        }
        let with_text = if with.is_empty() {
            String::new()
        } else {
            format!(" with {}", with.join(", "))
        };
        self.event(
            rules::MOVEMENT,
            "move",
            Some(&at),
            format!("{piece}{with_text} moves {}.", went.join(" ")),
        );
        self.enter(&at, &power);
    }

    /// What entering a hex does: enemy leaders alone there fall back, a siege of an enemy garrison,
    /// a fort taken.
    fn enter(&mut self, hex: &str, power: &str) {
        self.displace_leaders(hex, power);
        let (_, inside) = self.enemies_in(hex, power);
        if !inside.is_empty() {
            self.event(
                rules::SIEGE,
                "siege",
                Some(hex),
                format!(
                    "{power} enters {hex}, whose garrison ({}) is inside its fort: the fort is besieged.",
                    inside.join(", ")
                ),
            );
            return;
        }
        let Some(f) = self.w.fort.get(hex).cloned() else {
            return;
        };
        if !self.friendly(&f.power, power) {
            self.w.fort.insert(
                hex.to_string(),
                super::state::Fort {
                    kind: f.kind,
                    power: power.to_string(),
                    reduced: f.reduced,
                },
            );
            self.event(
                rules::SIEGE,
                "fort",
                Some(hex),
                format!("{power} takes the empty {} in {hex}.", f.effective().name()),
            );
        }
    }

    /// Enemy leaders in `hex` whose side has no ground unit there fall back one hex, or are captured
    /// (pbem wbts/lone-leader).
    fn displace_leaders(&mut self, hex: &str, power: &str) {
        let lone: Vec<(String, String)> = self
            .w
            .leaders_in(hex)
            .filter(|l| !self.friendly(l.power(), power))
            .filter(|l| {
                !self
                    .w
                    .units_in(hex)
                    .any(|u| self.friendly(u.power(), l.power()))
            })
            .map(|l| (l.id().to_string(), l.power().to_string()))
            .collect();
        for (id, owner) in lone {
            match self.retreat_hex(hex, &owner, &[]) {
                Some(to) => {
                    self.place_leader(&id, &to);
                    self.event(
                        rules::LONE_LEADER,
                        "retreat",
                        Some(hex),
                        format!("{id}, alone in {hex} as {power} enters it, falls back to {to}."),
                    );
                }
                None => {
                    self.lose_leader(&id);
                    self.event(
                        rules::LONE_LEADER,
                        "captured",
                        Some(hex),
                        format!("{id}, alone in {hex} as {power} enters it, has nowhere to go and is captured."),
                    );
                }
            }
        }
    }

    /// WBTS march: the leader and his units move to the hex before the last, then attack it from
    /// march; they enter it if they clear it, and move no further.
    pub fn march(
        &mut self,
        leader: &str,
        path: &[String],
        with: &[String],
        chit: u32,
        shift: Option<ShiftPolicy>,
    ) -> Result<()> {
        let Some((target, before)) = path.split_last() else {
            return Ok(());
        };
        if !before.is_empty() {
            self.move_pieces(leader, before, with);
        }
        let here = self.w.leader(leader).map(|l| l.hex().to_string());
        let next = before
            .last()
            .cloned()
            .or_else(|| self.w.leader(leader).map(|l| l.hex().to_string()));
        if here != next {
            self.event(
                rules::MARCH,
                "combat-off",
                Some(target),
                format!("{leader} did not reach the hex next to {target}: no attack from march."),
            );
            return Ok(());
        }
        self.battle(Engagement {
            target: target.clone(),
            leader: leader.to_string(),
            units: with.to_vec(),
            chit,
            shift,
            march: true,
            advance: true,
        })
    }

    /// WBTS fort/inside: into or out of the fort of its hex.
    pub fn garrison(&mut self, unit: &str, inside: bool) {
        let Some(hex) = self.unit_hex(unit) else {
            return;
        };
        self.garrisoned.insert(unit.to_lowercase());
        if inside && !self.room_inside(&hex, unit) {
            self.event(
                rules::FORT,
                "garrison",
                Some(&hex),
                format!("{unit} stays outside the fort in {hex}: it is full."),
            );
            return;
        }
        self.place_unit(unit, &hex, inside);
        let text = format!(
            "{unit} moves {} the fort in {hex}.",
            if inside { "inside" } else { "out of" }
        );
        self.event(rules::INSIDE, "garrison", Some(&hex), text);
    }

    /// Whether the fort of `hex` has room for `unit` (WBTS fort: 10 or 100 strength points).
    fn room_inside(&self, hex: &str, unit: &str) -> bool {
        let Some(f) = self.w.fort.get(hex) else {
            return false;
        };
        let now: u32 = self
            .w
            .units_in(hex)
            .filter(|u| u.inside && !u.id().eq_ignore_ascii_case(unit))
            .map(|u| u.strength)
            .sum();
        let s = self.w.unit(unit).map_or(0, |u| u.strength);
        now + s <= f.effective().capacity()
    }

    /// WBTS fort/inside by standing order or SOP: the active side's units in its own forts' hexes
    /// that no order moved in or out go where its `fort` setting says, at the end of its movement.
    pub fn fort_sop(&mut self) {
        let power = self.active.clone();
        let forts: Vec<String> = self
            .w
            .fort
            .iter()
            .filter(|(_, f)| self.friendly(&f.power, &power))
            .map(|(h, _)| h.clone())
            .collect();
        for hex in forts {
            let ids: Vec<String> = self
                .w
                .units_in(&hex)
                .filter(|u| u.power() == power && !self.garrisoned.contains(&u.id().to_lowercase()))
                .map(|u| u.id().to_string())
                .collect();
            if ids.is_empty() {
                continue;
            }
            let d = self.decide(WbtsPoint::Fort, &power, None, &[&hex]);
            let inside = d.value == "inside";
            let mut moved = Vec::new();
            for id in ids {
                let is_in = self.w.unit(&id).is_some_and(|u| u.inside);
                if is_in == inside || (inside && !self.room_inside(&hex, &id)) {
                    continue;
                }
                self.place_unit(&id, &hex, inside);
                moved.push(id);
            }
            if !moved.is_empty() {
                let text = format!(
                    "{} {} the fort in {hex}, {} (WBTS fort/inside).",
                    moved.join(", "),
                    match (inside, moved.len()) {
                        (true, 1) => "moves inside",
                        (true, _) => "move inside",
                        (false, 1) => "moves out of",
                        (false, _) => "move out of",
                    },
                    d.by.describe_theirs()
                );
                self.log(
                    Event::new(d.rule, "garrison", text)
                        .at(&hex)
                        .decided(power.clone(), d.by),
                );
            }
        }
    }

    /// WBTS naval/transit: a ship sails hex by hex; at a hexside with an enemy fortification it
    /// stops if its order says `stop`, else it undergoes the naval transit attack.
    pub fn sail(&mut self, ship: &str, path: &[String], stop: bool) -> Result<()> {
        let Some(s) = self.w.ship(ship) else {
            return Ok(());
        };
        let power = s.power().to_string();
        let mut at = s.hex().to_string();
        let mut went = Vec::new();
        for (step, h) in path.iter().enumerate() {
            if let Some((fort_hex, fortress)) = self.fortified(&at, h, &power) {
                if stop {
                    self.event(
                        rules::TRANSIT,
                        "transit",
                        Some(&at),
                        format!("{ship} stops in {at} at the hexside to {h}, covered by the enemy fort in {fort_hex}: no naval transit attack."),
                    );
                    break;
                }
                let roll = self
                    .dice
                    .roll(&format!("transit/ship={ship}/step={}", step + 1), &[6])?;
                let die = roll.dice[0].face;
                let result = self.tables.transit(fortress, die);
                let what = if fortress { "fortress" } else { "fort" };
                let text = match result {
                    Transit::Pass => format!("{ship} runs past the {what} in {fort_hex} from {at} to {h}: naval transit attack, die {die}: it passes."),
                    Transit::Back => format!("{ship} runs at the {what} in {fort_hex} from {at} to {h}: naval transit attack, die {die}: it is turned back and stops in {at}."),
                    Transit::Sunk => format!("{ship} runs past the {what} in {fort_hex} from {at} to {h}: naval transit attack, die {die}: it is sunk."),
                };
                self.event_rolls(rules::TRANSIT, "transit", h, text, vec![roll]);
                match result {
                    Transit::Pass => {}
                    Transit::Back => break,
                    Transit::Sunk => {
                        self.w.ships.retain(|x| !x.id().eq_ignore_ascii_case(ship));
                        self.w.eliminated.push(ship.to_string());
                        return Ok(());
                    }
                }
            }
            let enemy_warships = self
                .w
                .ships_in(h)
                .any(|x| !self.friendly(x.power(), &power) && x.kind == ShipKind::Gunboat);
            at = h.clone();
            went.push(h.clone());
            if enemy_warships {
                break;
            }
        }
        if let Some(s) = self.w.ship_mut(ship) {
            s.hex = toml::Spanned::new(0..0, at.clone());
        }
        if !went.is_empty() {
            self.event(
                rules::MOVEMENT,
                "sail",
                Some(&at),
                format!("{ship} sails {}.", went.join(" ")),
            );
        }
        Ok(())
    }

    /// The enemy fort that covers the hexside from `a` to `b` for a ship of `power`: a hexside with
    /// a fortification, and an enemy fort in either hex or in a hex next to both (pbem's reading of
    /// where a fortification's guns reach); whether it is a fortress.
    pub fn fortified(&self, a: &str, b: &str, power: &str) -> Option<(String, bool)> {
        if !self.board.has(a, b, "fortification") {
            return None;
        }
        let na = self.board.neighbours(a);
        let nb = self.board.neighbours(b);
        let near: Vec<String> = [a.to_string(), b.to_string()]
            .into_iter()
            .chain(na.iter().filter(|h| nb.contains(h)).cloned())
            .collect();
        near.into_iter().find_map(|h| {
            self.w
                .fort
                .get(&h)
                .filter(|f| !self.friendly(&f.power, power))
                .map(|f| (h.clone(), f.effective() == super::state::FortKind::Fortress))
        })
    }

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
            "{} (initiative {}) rolls {die} for combat initiative against {}: {}.",
            l.id(),
            l.initiative,
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
    /// HQs in or next to them (WBTS ground/supply); the sources in the order they are drawn on.
    fn supply_sources(&self, hexes: &[String], power: &str) -> Vec<(String, u32)> {
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

    /// Spends `cost` supply points from the sources, in order.
    fn spend(&mut self, sources: &[(String, u32)], cost: u32) {
        let mut owed = cost;
        for (id, _) in sources {
            if owed == 0 {
                break;
            }
            if let Some(u) = self.w.unit_mut(id) {
                let take = u.supply.min(owed);
                u.supply -= take;
                owed -= take;
            } else if let Some(l) = self.w.leader_mut(id) {
                let take = l.supply.min(owed);
                l.supply -= take;
                owed -= take;
            }
        }
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
        self.combats += 1;
        let n = self.combats;
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
                            "{} evade the infantry attack from march and retreat from {target} to {to}, {}.",
                            cav.join(", "),
                            d.by.describe_theirs()
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
        let d_leader = match dl.value.as_str() {
            "none" => None,
            "best" => best,
            id => in_hex
                .iter()
                .find(|l| l.id().eq_ignore_ascii_case(id))
                .cloned()
                .or(best),
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
        self.log(
            Event::new(
                rules::DEFENDING_LEADER,
                "defence",
                format!(
                    "Combat {n} at {target}: {leader_text}, {}.",
                    dl.by.describe_theirs()
                ),
            )
            .at(&target)
            .decided(defender.clone(), dl.by),
        );
        // Strengths.
        let attack_hexes: Vec<String> = {
            let mut v: Vec<String> = units.iter().filter_map(|u| self.unit_hex(u)).collect();
            v.dedup();
            let mut seen = BTreeSet::new();
            v.retain(|h| seen.insert(h.clone()));
            v
        };
        let mut a_strength = 0;
        let mut notes = Vec::new();
        for h in &attack_hexes {
            let here: Vec<&super::state::Unit> = units
                .iter()
                .filter_map(|u| self.w.unit(u))
                .filter(|u| u.hex() == h)
                .collect();
            let mut s: u32 = if e.march {
                // WBTS march: non-cavalry halved.
                let cav: u32 = here
                    .iter()
                    .filter(|u| u.kind == UnitKind::Cavalry)
                    .map(|u| u.strength)
                    .sum();
                let rest: u32 = here
                    .iter()
                    .filter(|u| u.kind != UnitKind::Cavalry)
                    .map(|u| u.strength)
                    .sum();
                if rest > 0 {
                    notes.push(format!(
                        "non-cavalry from march halved ({rest} to {}) (WBTS march)",
                        combat::halve(rest, false)
                    ));
                }
                cav + combat::halve(rest, false)
            } else {
                here.iter().map(|u| u.strength).sum()
            };
            if !storm {
                match self.board.crossing(h, &target) {
                    Crossing::River => {
                        notes.push(format!(
                            "across the river from {h}: {s} halved to {} (WBTS ground/river)",
                            combat::halve(s, false)
                        ));
                        s = combat::halve(s, false);
                    }
                    Crossing::Ferry => {
                        notes.push(format!("across the tidal river at the ferry from {h}: {s} halved to {} (WBTS ground/ferry)", combat::halve(s, true)));
                        s = combat::halve(s, true);
                    }
                    _ => {}
                }
            }
            a_strength += s;
        }
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
                let cap = f.effective().capacity();
                let inside_sp = d_size.min(cap);
                d_strength = inside_sp * f.effective().multiple() + (d_size - inside_sp);
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
                    "{} support the defence of {target} with {add} strength, {}.",
                    supporting.join(", "),
                    d.by.describe_theirs()
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
            "Combat {n} at {target}, {kind} by {} with {} from {}: strength {a_strength} against {d_strength}{}. Chits: {attacker} {a_chit}, {defender} {d_chit} ({}); total intensity {}.",
            leader.id(),
            units.join(", "),
            attack_hexes.join(" and "),
            if notes.is_empty() { String::new() } else { format!("; {}", notes.join("; ")) },
            dc.by.describe_theirs(),
            out.intensity
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
            let text = if s.paid {
                format!(
                    "{power} ({}) rolls {} on the Combat Supply Table at chit {chit}: {} owed, {have} within reach: paid.",
                    side.word(), s.die, supply_points(s.cost)
                )
            } else {
                format!(
                    "{power} ({}) rolls {} on the Combat Supply Table at chit {chit}: {} owed, {have} within reach: out of combat supply, it fights at half strength, its losses doubled, and cannot advance.",
                    side.word(), s.die, supply_points(s.cost)
                )
            };
            let rule = if s.paid {
                rules::SUPPLY
            } else {
                rules::NO_SUPPLY
            };
            self.event_rolls(rule, "supply", &target, text, vec![s.roll.clone()]);
            if s.paid && s.cost > 0 {
                self.spend(sources, s.cost);
            }
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
                out.die.as_ref().map_or(0, |r| r.dice[0].face)
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
            let text = if s.from == s.to {
                format!(
                    "{} is the better leader by {} and leaves the die at {} ({}, policy {}).",
                    s.leader,
                    rows(s.net),
                    s.from,
                    d.by.describe_theirs(),
                    d.value
                )
            } else {
                format!(
                    "{} is the better leader by {} and shifts the die from {} to {} ({}, policy {}).",
                    s.leader, rows(s.net), s.from, s.to, d.by.describe_theirs(), d.value
                )
            };
            self.log(
                Event::new(rules::SHIFT, "shift", text)
                    .at(&target)
                    .decided(power.clone(), d.by),
            );
            if let Some((roll, die, lost)) = &s.loss {
                let text = format!(
                    "{} risked himself: leader loss roll {die} (lost on {}+): {}.",
                    s.leader,
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
                "Result {} on row {}: {attacker} loses {}% ({} SP{}), {defender} loses {}% ({} SP{}).",
                out.cell,
                out.row,
                out.percent[0],
                out.lost[0],
                doubled_text(out.doubled[0]),
                out.percent[1],
                out.lost[1],
                doubled_text(out.doubled[1])
            ),
        );
        // Losses (WBTS ground/attrition, ground/losses, naval/support).
        self.take_losses(&attacker, &units, out.lost[0], &target, &[])?;
        let mut d_units = defenders.clone();
        d_units.extend(
            self.w
                .units_in(&target)
                .filter(|u| u.power() == defender && u.is_train() && u.inside == storm)
                .map(|u| u.id().to_string()),
        );
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
            self.defender_retreat(&target, &defender, &defenders, &attack_hexes, storm);
        }
        if out.cell.attacker_retreats && sortie {
            self.event(
                rules::SIEGE,
                "retreat",
                Some(&target),
                format!(
                    "{} fall back inside the fort of {target}.",
                    units.join(", ")
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
                            rules::RETREAT,
                            "retreat",
                            Some(h),
                            format!("{} retreat from {h} to {to}.", here.join(", ")),
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
                    format!("{attacker} is out of combat supply and cannot advance into {target}."),
                );
                return Ok(());
            }
            return self.advance_after(&e, &units, &target, storm || e.march);
        }
        Ok(())
    }

    /// How `power` shifts the die when its leader is the better: the order's policy, else `risk never`
    /// by standing order or SOP, else its `shift` setting.
    fn shift_policy(
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
    fn lose_leader(&mut self, id: &str) {
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
    fn take_losses(
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
                "{power} spreads its {owed} SP of losses evenly ({}, {}): {}.",
                d.value,
                d.by.describe_theirs(),
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
    fn retreat_hex(&self, from: &str, power: &str, enemy_hexes: &[String]) -> Option<String> {
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

    fn move_leaders_with(&mut self, from: &str, power: &str, to: &str) {
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
    /// hex by his `retreat` setting; in his own fort's hex he may retreat inside it.
    fn defender_retreat(
        &mut self,
        target: &str,
        defender: &str,
        defenders: &[String],
        attack_hexes: &[String],
        storm: bool,
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
                format!("The garrison of {target} ignores the retreat inside its fort."),
            );
            return;
        }
        let terrain = self.board.terrain(target).to_string();
        if terrain == "rough" || terrain == "city" {
            let d = self.decide(WbtsPoint::IgnoreRetreat, defender, None, &[target]);
            if d.value == "always" {
                let text = format!(
                    "{} in {terrain} {target} ignore the retreat, {}.",
                    left.join(", "),
                    d.by.describe_theirs()
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
                        "{} retreat inside the fort in {target}, {}.",
                        left.join(", "),
                        d.by.describe_theirs()
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
                    "{} retreat from {target} to {to}, {}.",
                    left.join(", "),
                    d.by.describe_theirs()
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
                    "{} have no hex to retreat to from {target} and stay.",
                    left.join(", ")
                ),
            ),
        }
    }

    fn retreat_ok(&self, from: &str, to: &str, power: &str, enemy_hexes: &[String]) -> bool {
        self.board.terrain(to) != "water"
            && self.board.crossing(from, to) != Crossing::Closed
            && self.enemies_in(to, power).0.is_empty()
            && self.enemies_in(to, power).1.is_empty()
            && !enemy_hexes.iter().any(|h| h == to)
    }

    /// The attacker enters a hex he cleared: from march or a storm, every attacker; else those of the
    /// first attacking hex, unless the order says `no-advance`.
    fn advance_after(
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
                "{} enter {target}{}.",
                movers.join(", "),
                if e.march { " and move no further" } else { "" }
            ),
        );
        self.enter(target, &attacker);
        Ok(())
    }

    /// Runs the active side's orders in the order of the turn.
    pub fn run(&mut self, orders: &[WbtsOrder]) -> Result<()> {
        for o in orders {
            if let WbtsOrder::Roster { unit, leader } = o {
                self.roster(unit, leader);
            }
        }
        for o in orders {
            match o {
                WbtsOrder::Move { piece, path, with } => self.move_pieces(piece, path, with),
                WbtsOrder::March {
                    leader,
                    path,
                    with,
                    chit,
                    shift,
                } => self.march(leader, path, with, *chit, *shift)?,
                WbtsOrder::Sail { ship, path, stop } => self.sail(ship, path, *stop)?,
                WbtsOrder::Bombard { target, ships } => self.bombard(target, ships)?,
                _ => {}
            }
        }
        for o in orders {
            if let WbtsOrder::Garrison { unit, inside } = o {
                self.garrison(unit, *inside);
            }
        }
        self.fort_sop();
        for o in orders {
            if let WbtsOrder::Engage { hex } = o {
                self.engage(hex)?;
            }
        }
        for o in orders {
            if let WbtsOrder::Attack(a) = o {
                self.attack(a)?;
            }
        }
        Ok(())
    }

    /// The other side plays next; after both, the game turn advances and a new strategic segment
    /// lets units rejoin the rosters they left.
    pub fn end_of_turn(&mut self) {
        let next = self.other(&self.active);
        self.w.active = toml::Spanned::new(0..0, next.clone());
        self.w.played = self.w.played.saturating_add(1);
        if self.w.played >= 2 {
            self.w.played = 0;
            self.w.game_turn = self.w.game_turn.saturating_add(1);
            self.w.detached.clear();
            let t = self.w.game_turn;
            self.event(
                rules::ONE_TURN,
                "turn",
                None,
                format!("Game turn {t} begins."),
            );
        }
        self.event(
            rules::ONE_TURN,
            "turn",
            None,
            format!("The next player turn: {next}."),
        );
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

fn doubled_text(times: u32) -> &'static str {
    match times {
        2 => ", doubled",
        4 => ", doubled twice",
        _ => "",
    }
}
