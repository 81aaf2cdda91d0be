//! One WBTS player turn being resolved: the position as it changes, the events, the dice. The
//! steps run in the order of the seed's turn as pbem plays it: roster changes (before any
//! initiative roll), movement in the order given (with attacks from march, naval movement with its
//! transit attacks, and naval attacks on forts, `naval.rs`), garrisons, naval combats, then the
//! attacks in the order given, each fought on the board by `ground.rs` through the procedure of
//! `combat.rs`.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Decision, Sources};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::{Event, Roll};
use crate::game::state::State;
use crate::rule::Rule;

use super::board::Board;
use super::combat::ShiftPolicy;
use super::decisions::WbtsPoint;
use super::orders::WbtsOrder;
use super::rules;
use super::state::{Ship, WbtsState};
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
    /// Each power's name as the scenario gives it (game.toml's `name`), by id: the events' texts
    /// name a power by it (`Turn::name`), never by its id; a power without one is named by its id.
    pub names: BTreeMap<String, String>,
    /// The wording its events' texts are told in (`Ruleset::wording`, `super::WORDING`): an older
    /// one for a turn `audit` tells again as an older pbem told it.
    pub wording: u32,
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
        state: State,
        powers: Vec<String>,
        dice: &'a mut DiceBox,
    ) -> Result<Self> {
        let w = state.table::<WbtsState>().cloned().ok_or_else(|| {
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
            names: BTreeMap::new(),
            wording: super::WORDING,
        })
    }

    /// The turn, its events naming each power by `names` (id, name).
    pub fn with_names(mut self, names: impl IntoIterator<Item = (String, String)>) -> Self {
        self.names = names.into_iter().collect();
        self
    }

    /// The turn, its events told in `wording` (a turn resolved by an older pbem, in its words).
    pub fn with_wording(mut self, wording: u32) -> Self {
        self.wording = wording;
        self
    }

    /// What the events call the fort of `hex`: a fortress (3x) by its name (WBTS fort), a fort
    /// otherwise; in wording 1 and before, every one "fort".
    pub fn fort_word(&self, hex: &str) -> &'static str {
        match self.w.fort.get(hex) {
            Some(f) if self.wording >= 2 => f.effective().name(),
            _ => "fort",
        }
    }

    /// Where a move went, as its event tells it: "to 1004", "by 1104 to 1003" (pbem wbts/movement);
    /// in wording 1 and before, the hexes alone ("1104 1003").
    pub fn went_to(&self, went: &[String]) -> String {
        match went.split_last() {
            Some((end, by)) if self.wording >= 2 => {
                if by.is_empty() {
                    format!("to {end}")
                } else {
                    format!("by {} to {end}", by.join(", "))
                }
            }
            _ => went.join(" "),
        }
    }

    /// The name of `power` as the events' texts give it: the scenario's, or its id without one.
    pub fn name(&self, power: &str) -> String {
        self.names
            .get(power)
            .cloned()
            .unwrap_or_else(|| power.to_string())
    }

    /// The state at the end: the shared part with the `[wbts]` table put back.
    pub fn finish(mut self) -> (State, Vec<Event>) {
        if let Some(table) = self.state.table_mut::<WbtsState>() {
            *table = self.w;
        }
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

    pub(super) fn event_rolls(
        &mut self,
        rule: Rule,
        kind: &str,
        hex: &str,
        text: String,
        rolls: Vec<Roll>,
    ) {
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

    pub(super) fn unit_hex(&self, id: &str) -> Option<String> {
        self.w.unit(id).map(|u| u.hex().to_string())
    }

    pub(super) fn place_unit(&mut self, id: &str, hex: &str, inside: bool) {
        if let Some(u) = self.w.unit_mut(id) {
            u.hex = toml::Spanned::new(0..0, hex.to_string());
            u.inside = inside;
        }
    }

    pub(super) fn place_leader(&mut self, id: &str, hex: &str) {
        if let Some(l) = self.w.leader_mut(id) {
            l.hex = toml::Spanned::new(0..0, hex.to_string());
        }
    }

    /// WBTS ground/roster: the unit leaves its roster for the leader's; never back to a roster it
    /// left this game turn (the orders check refuses such a line; a state that says otherwise is
    /// told, not followed).
    pub fn roster(&mut self, unit: &str, leader: &str) {
        if self
            .w
            .detached
            .get(unit)
            .is_some_and(|l| l.eq_ignore_ascii_case(leader))
        {
            let text = format!("{unit} left {} roster this game turn and may not rejoin it before the next strategic segment: it stays where it is.", crate::words::Possessive(leader));
            self.event(rules::ROSTER, "roster", None, text);
            return;
        }
        let Some(u) = self.w.unit_mut(unit) else {
            return;
        };
        let from = u.leader.replace(leader.to_string());
        if let Some(f) = &from {
            self.w.detached.insert(unit.to_string(), f.clone());
        }
        let text = format!(
            "{unit} leaves {} for {} roster before any initiative roll; it rejoins {} no sooner than the next strategic segment.",
            from.as_deref().unwrap_or("no roster"),
            crate::words::Possessive(leader),
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
        let from = at.clone();
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
        self.log(
            Event::new(
                rules::MOVEMENT,
                "move",
                format!("{piece}{with_text} moves {}.", self.went_to(&went)),
            )
            .at(&at)
            .naming(movers.iter().map(String::as_str))
            .route(std::iter::once(from.as_str()).chain(went.iter().map(String::as_str))),
        );
        self.enter(&at, &power);
    }

    /// What entering a hex does: enemy leaders alone there fall back, a siege of an enemy garrison,
    /// a fort taken.
    pub(super) fn enter(&mut self, hex: &str, power: &str) {
        self.displace_leaders(hex, power);
        let (_, inside) = self.enemies_in(hex, power);
        let named = self.name(power);
        if !inside.is_empty() {
            self.event(
                rules::SIEGE,
                "siege",
                Some(hex),
                format!(
                    "{named} enters {hex}, whose garrison ({}) is inside its {fort}: the {fort} is besieged.",
                    inside.join(", "),
                    fort = self.fort_word(hex),
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
                format!("{named} takes the empty {} in {hex}.", f.effective().name()),
            );
        }
    }

    /// Enemy leaders in `hex` whose side has no ground unit there fall back one hex, or are captured
    /// (pbem wbts/lone-leader).
    pub(super) fn displace_leaders(&mut self, hex: &str, power: &str) {
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
        let named = self.name(power);
        for (id, owner) in lone {
            match self.retreat_hex(hex, &owner, &[]) {
                Some(to) => {
                    self.place_leader(&id, &to);
                    self.event(
                        rules::LONE_LEADER,
                        "retreat",
                        Some(hex),
                        format!("{id}, alone in {hex} as {named} enters it, falls back to {to}."),
                    );
                }
                None => {
                    self.lose_leader(&id);
                    self.event(
                        rules::LONE_LEADER,
                        "captured",
                        Some(hex),
                        format!("{id}, alone in {hex} as {named} enters it, has nowhere to go and is captured."),
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
                format!(
                    "{unit} stays outside the {} in {hex}: it is full.",
                    self.fort_word(&hex)
                ),
            );
            return;
        }
        self.place_unit(unit, &hex, inside);
        let text = format!(
            "{unit} moves {} the {} in {hex}.",
            if inside { "inside" } else { "out of" },
            self.fort_word(&hex)
        );
        self.event(rules::INSIDE, "garrison", Some(&hex), text);
    }

    /// Whether the fort of `hex` has room for `unit` (WBTS fort: 10 or 100 strength points).
    pub(super) fn room_inside(&self, hex: &str, unit: &str) -> bool {
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
                    "{} {} the {} in {hex}{} (WBTS fort/inside).",
                    moved.join(", "),
                    match (inside, moved.len()) {
                        (true, 1) => "moves inside",
                        (true, _) => "move inside",
                        (false, 1) => "moves out of",
                        (false, _) => "move out of",
                    },
                    self.fort_word(&hex),
                    d.by.aside(", ", "")
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
    /// stops if its order says `stop`, else it undergoes the naval transit attack. WBTS naval/combat:
    /// it stops in a hex with enemy combat capable ships (any ship does: pbem's reading, the seed
    /// names only combat ships) and sails through one with enemy transports alone.
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
                let told = roll.told(0);
                let result = self.tables.transit(fortress, die);
                let what = if fortress { "fortress" } else { "fort" };
                let text = match result {
                    Transit::Pass => format!("{ship} runs past the {what} in {fort_hex} from {at} to {h}: naval transit attack, die {told}: it passes."),
                    Transit::Back => format!("{ship} runs at the {what} in {fort_hex} from {at} to {h}: naval transit attack, die {told}: it is turned back and stops in {at}."),
                    Transit::Sunk => format!("{ship} runs past the {what} in {fort_hex} from {at} to {h}: naval transit attack, die {told}: it is sunk."),
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
            // WBTS naval/combat: enemy combat capable ships stop the ship in their hex; enemy
            // transports alone there are sailed through and ignored.
            let (warships, transports): (Vec<&Ship>, Vec<&Ship>) = self
                .w
                .ships_in(h)
                .filter(|x| !self.friendly(x.power(), &power))
                .partition(|x| x.is_combat_capable());
            let ids = |v: &[&Ship]| v.iter().map(|x| x.id()).collect::<Vec<_>>().join(", ");
            let (warships, transports) = (ids(&warships), ids(&transports));
            at = h.clone();
            went.push(h.clone());
            let further = step + 1 < path.len();
            if !warships.is_empty() {
                if further {
                    self.event(
                        rules::NAVAL_COMBAT,
                        "sail",
                        Some(h),
                        format!("{ship} stops in {h}, where the enemy's combat ships are ({warships}): its move ends there."),
                    );
                }
                break;
            }
            if !transports.is_empty() && further {
                self.event(
                    rules::NAVAL_COMBAT,
                    "sail",
                    Some(h),
                    format!("{ship} sails through {h}, where the enemy has transports alone ({transports}): it ignores them."),
                );
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
                format!("{ship} sails {}.", self.went_to(&went)),
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
            format!("The next player turn: {}.", self.name(&next)),
        );
    }
}
