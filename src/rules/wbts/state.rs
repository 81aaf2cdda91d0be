//! The War Between the States part of `state.toml`: the `[wbts]` table, with the side to play, the
//! game turn, the leaders, units and ships, the forts and the roster changes of the turn.
//!
//! ```toml
//! [wbts]
//! active = "union"            # whose player turn this pbem turn is
//! game_turn = 1
//! [wbts.fort]
//! "0907" = { kind = "fort", power = "confederate" }
//! [[wbts.leader]]
//! id = "McClellan"; power = "union"; hex = "0305"; rank = "army"
//! initiative = 1; combat = 1; supply = 6
//! [[wbts.unit]]
//! id = "US-II-1"; power = "union"; kind = "infantry"; strength = 6; hex = "0305"
//! leader = "Sumner"           # the roster (corps HQ) the unit belongs to
//! [[wbts.ship]]
//! id = "Monitor"; power = "union"; kind = "gunboat"; strength = 3; hex = "0109"
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diag::{did_you_mean, Diagnostic};
use crate::game::config::GameConfig;
use crate::game::map::Map;
use crate::game::state::{RulesetTable, State};
use crate::rules::UnitView;

/// The `[wbts]` table.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WbtsState {
    /// The side whose player turn this pbem turn is: the attacker of every combat.
    pub active: Spanned<String>,
    /// The WBTS game turn: two player turns, one of each side.
    pub game_turn: u32,
    /// Player turns played so far in this game turn.
    #[serde(default)]
    pub played: u32,
    /// Forts and fortresses, by hex.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fort: BTreeMap<String, Fort>,
    /// Units that left a roster this game turn, and the leader whose roster they left: they do not
    /// rejoin it until the next strategic segment (the next game turn).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub detached: BTreeMap<String, String>,
    /// Pieces eliminated, by id, in the order they fell.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eliminated: Vec<String>,
    #[serde(default, rename = "leader")]
    pub leaders: Vec<Leader>,
    #[serde(default, rename = "unit")]
    pub units: Vec<Unit>,
    #[serde(default, rename = "ship", skip_serializing_if = "Vec::is_empty")]
    pub ships: Vec<Ship>,
}

/// A fort (2x, 10 strength points) or a fortress (3x, 100).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Fort {
    pub kind: FortKind,
    /// The side that holds it.
    pub power: String,
    /// A fortress reduced to a fort during a siege (the referee sets it: the seed's siege combat is not
    /// in pbem): it doubles only 10 strength points and admits no more than a fort, while the units
    /// already inside stay besieged there (WBTS fort).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reduced: bool,
}

impl Fort {
    /// What it counts as: a fortress reduced counts as a fort.
    pub fn effective(&self) -> FortKind {
        if self.reduced {
            FortKind::Fort
        } else {
            self.kind
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FortKind {
    Fort,
    Fortress,
}

impl FortKind {
    /// The garrison's multiple (WBTS fort: 2x, 3x).
    pub fn multiple(self) -> u32 {
        match self {
            FortKind::Fort => 2,
            FortKind::Fortress => 3,
        }
    }

    /// The combat strength points it holds (WBTS fort: 10 and 100).
    pub fn capacity(self) -> u32 {
        match self {
            FortKind::Fort => 10,
            FortKind::Fortress => 100,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FortKind::Fort => "fort",
            FortKind::Fortress => "fortress",
        }
    }
}

/// An army leader commands corps leaders; a corps leader his corps HQ's roster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Rank {
    Army,
    #[default]
    Corps,
}

/// A leader counter: his ratings, his place in the chain of command and the supply his army HQ
/// carries.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Leader {
    pub id: Spanned<String>,
    pub power: Spanned<String>,
    #[serde(default)]
    pub rank: Rank,
    /// The army leader a corps leader serves under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army: Option<String>,
    /// Combat initiative: the initiative roll and the highest chit (0 to 4).
    pub initiative: u32,
    /// Combat rating: the rows he may shift the die.
    pub combat: u32,
    /// Supply points his army HQ carries (for any combat in or next to his hex).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub supply: u32,
    #[serde(default = "default_movement")]
    pub movement: u32,
    pub hex: Spanned<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn default_movement() -> u32 {
    4
}

/// The kinds of ground units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    Infantry,
    Cavalry,
    Artillery,
    /// A supply train: supply points for combat; losses only after the combat units'.
    Train,
}

impl UnitKind {
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Cavalry => "cavalry",
            UnitKind::Artillery => "artillery",
            UnitKind::Train => "train",
        }
    }
}

/// A ground unit.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub id: Spanned<String>,
    pub power: Spanned<String>,
    pub kind: UnitKind,
    /// Combat strength points.
    pub strength: u32,
    /// Supply points a train carries.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub supply: u32,
    /// The leader whose roster it is on. A unit on no roster is under no command: it defends, and
    /// attacks only once a `roster` order puts it on a leader's (WBTS ground/command).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader: Option<String>,
    /// Inside the fort of its hex.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inside: bool,
    #[serde(default = "default_movement")]
    pub movement: u32,
    pub hex: Spanned<String>,
}

/// The kinds of naval units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShipKind {
    Gunboat,
    Transport,
}

impl ShipKind {
    pub fn name(self) -> &'static str {
        match self {
            ShipKind::Gunboat => "gunboat",
            ShipKind::Transport => "transport",
        }
    }
}

/// A naval unit.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Ship {
    pub id: Spanned<String>,
    pub power: Spanned<String>,
    pub kind: ShipKind,
    /// Naval combat strength (transports: 0).
    #[serde(default)]
    pub strength: u32,
    #[serde(default = "default_ship_movement")]
    pub movement: u32,
    pub hex: Spanned<String>,
}

fn default_ship_movement() -> u32 {
    8
}

macro_rules! piece_accessors {
    ($t:ty) => {
        impl $t {
            pub fn id(&self) -> &str {
                self.id.get_ref()
            }
            pub fn power(&self) -> &str {
                self.power.get_ref()
            }
            pub fn hex(&self) -> &str {
                self.hex.get_ref()
            }
        }
    };
}
piece_accessors!(Leader);
piece_accessors!(Unit);
piece_accessors!(Ship);

impl Ship {
    /// A combat capable naval unit: a gunboat with naval strength left (transports have no combat
    /// factor, WBTS naval/transports).
    pub fn is_combat_capable(&self) -> bool {
        self.kind == ShipKind::Gunboat && self.strength > 0
    }
}

impl Unit {
    pub fn is_train(&self) -> bool {
        self.kind == UnitKind::Train
    }

    /// "infantry, 6 SP" or "supply train, 4 supply", and ", inside the fort" (or `fort`'s word:
    /// "fortress") for a unit inside the fort of its hex.
    pub fn describe(&self, fort: &str) -> String {
        let place = if self.inside {
            format!(", inside the {fort}")
        } else {
            String::new()
        };
        match self.kind {
            UnitKind::Train => format!("supply train, {} supply{place}", self.supply),
            k => format!("{}, {} SP{place}", k.name(), self.strength),
        }
    }
}

impl RulesetTable for WbtsState {
    const KEY: &'static str = "wbts";
}

impl WbtsState {
    pub fn active(&self) -> &str {
        self.active.get_ref()
    }

    pub fn leader(&self, id: &str) -> Option<&Leader> {
        self.leaders
            .iter()
            .find(|l| l.id().eq_ignore_ascii_case(id))
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id().eq_ignore_ascii_case(id))
    }

    pub fn ship(&self, id: &str) -> Option<&Ship> {
        self.ships.iter().find(|s| s.id().eq_ignore_ascii_case(id))
    }

    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units
            .iter_mut()
            .find(|u| u.id().eq_ignore_ascii_case(id))
    }

    pub fn leader_mut(&mut self, id: &str) -> Option<&mut Leader> {
        self.leaders
            .iter_mut()
            .find(|l| l.id().eq_ignore_ascii_case(id))
    }

    pub fn ship_mut(&mut self, id: &str) -> Option<&mut Ship> {
        self.ships
            .iter_mut()
            .find(|s| s.id().eq_ignore_ascii_case(id))
    }

    /// The ground units in `hex`, in state order.
    pub fn units_in<'a>(&'a self, hex: &'a str) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units.iter().filter(move |u| u.hex() == hex)
    }

    pub fn leaders_in<'a>(&'a self, hex: &'a str) -> impl Iterator<Item = &'a Leader> + 'a {
        self.leaders.iter().filter(move |l| l.hex() == hex)
    }

    pub fn ships_in<'a>(&'a self, hex: &'a str) -> impl Iterator<Item = &'a Ship> + 'a {
        self.ships.iter().filter(move |s| s.hex() == hex)
    }

    /// Whether `leader` commands `unit` for an attack: the unit is on his roster, or on the roster
    /// of a corps leader serving under him (an army leader) (WBTS ground/command).
    pub fn commands(&self, leader: &Leader, unit: &Unit) -> bool {
        let Some(roster) = &unit.leader else {
            return false;
        };
        if roster.eq_ignore_ascii_case(leader.id()) {
            return true;
        }
        leader.rank == Rank::Army
            && self.leader(roster).is_some_and(|corps| {
                corps
                    .army
                    .as_deref()
                    .is_some_and(|a| a.eq_ignore_ascii_case(leader.id()))
            })
    }

    /// Every piece id, for uniqueness and hints.
    pub fn piece_ids(&self) -> impl Iterator<Item = &str> {
        self.leaders
            .iter()
            .map(Leader::id)
            .chain(self.units.iter().map(Unit::id))
            .chain(self.ships.iter().map(Ship::id))
    }
}

/// The most points of strength, supply or movement a piece may have: far beyond any counter, and far
/// from where sums of them would overflow.
pub const MAX_POINTS: u32 = 9999;

/// The `[wbts]` table of a state, which a WBTS game must have.
pub fn wbts_of(state: &State) -> anyhow::Result<&WbtsState> {
    state.table::<WbtsState>().ok_or_else(|| {
        anyhow::anyhow!("the state of a War Between the States game has no [wbts] table")
    })
}

/// Checks the `[wbts]` table against the map and the powers (another ruleset's table is refused
/// when the state is read, `game::state::parse`).
pub fn check(state: &State, config: &GameConfig, map: &Map) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(w) = state.table::<WbtsState>() else {
        out.push(
            Diagnostic::error("the state has no [wbts] table", 0..0)
                .hint("a War Between the States state needs [wbts] with `active` and `game_turn`"),
        );
        return out;
    };
    let powers: Vec<&str> = config.power_ids().collect();
    let power = |p: &str, span: std::ops::Range<usize>, out: &mut Vec<Diagnostic>| {
        if !powers.contains(&p) {
            out.push(
                Diagnostic::error(format!("unknown power '{p}'"), span).hint(
                    did_you_mean(p, powers.iter().copied()).map_or_else(
                        || format!("powers in game.toml: {}", powers.join(", ")),
                        |s| format!("did you mean '{s}'?"),
                    ),
                ),
            );
        }
    };
    let hex = |id: &str, span: std::ops::Range<usize>, out: &mut Vec<Diagnostic>| {
        if map.find(id).is_none_or(|i| map.area(i).id != id) {
            out.push(
                Diagnostic::error(format!("unknown hex '{id}'"), span)
                    .label("not on the map")
                    .maybe_hint(map.suggest(id)),
            );
        }
    };
    power(w.active(), w.active.span(), &mut out);
    let mut ids = BTreeSet::new();
    let mut piece = |id: &Spanned<String>, out: &mut Vec<Diagnostic>| {
        let s = id.get_ref();
        if s.is_empty() || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            out.push(
                Diagnostic::error(format!("piece id '{s}' is not a plain word"), id.span())
                    .hint("ids are ASCII letters, digits and '-'"),
            );
        }
        if !ids.insert(s.to_lowercase()) {
            out.push(Diagnostic::error(
                format!("piece id '{s}' is used twice"),
                id.span(),
            ));
        }
    };
    for l in &w.leaders {
        piece(&l.id, &mut out);
        power(l.power(), l.power.span(), &mut out);
        hex(l.hex(), l.hex.span(), &mut out);
        if l.supply > MAX_POINTS || l.movement > MAX_POINTS {
            out.push(
                Diagnostic::error(
                    format!(
                        "leader {} has more than {MAX_POINTS} supply or movement points",
                        l.id()
                    ),
                    l.id.span(),
                )
                .hint("an army HQ carries its supply points in tens at most"),
            );
        }
        if l.initiative > 4 || l.combat > 4 {
            out.push(
                Diagnostic::error(
                    format!("leader {} has a rating above 4", l.id()),
                    l.id.span(),
                )
                .hint("initiative and combat ratings run from 0 to 4"),
            );
        }
    }
    for u in &w.units {
        piece(&u.id, &mut out);
        if u.strength > MAX_POINTS || u.supply > MAX_POINTS || u.movement > MAX_POINTS {
            out.push(
                Diagnostic::error(
                    format!(
                        "unit {} has more than {MAX_POINTS} points of strength, supply or movement",
                        u.id()
                    ),
                    u.id.span(),
                )
                .hint("a WBTS unit counts its points in tens at most"),
            );
        }
        power(u.power(), u.power.span(), &mut out);
        hex(u.hex(), u.hex.span(), &mut out);
        if let Some(l) = &u.leader {
            if w.leader(l).is_none_or(|l| l.power() != u.power()) {
                out.push(
                    Diagnostic::error(
                        format!(
                            "unit {} is on the roster of '{l}', no leader of its side",
                            u.id()
                        ),
                        u.id.span(),
                    )
                    .hint("`leader` names a [[wbts.leader]] of the same power"),
                );
            }
        }
        if u.inside && !w.fort.contains_key(u.hex()) {
            out.push(
                Diagnostic::error(
                    format!("unit {} is inside a fort its hex has not", u.id()),
                    u.id.span(),
                )
                .hint("list the fort in [wbts.fort], or remove `inside`"),
            );
        }
    }
    for l in &w.leaders {
        if let Some(a) = &l.army {
            if !w
                .leader(a)
                .is_some_and(|a| a.rank == Rank::Army && a.power() == l.power())
            {
                out.push(
                    Diagnostic::error(
                        format!(
                            "leader {} serves under '{a}', no army leader of his side",
                            l.id()
                        ),
                        l.id.span(),
                    )
                    .hint("`army` names a leader of rank \"army\" of the same power"),
                );
            }
        }
    }
    for s in &w.ships {
        piece(&s.id, &mut out);
        if s.strength > MAX_POINTS || s.movement > MAX_POINTS {
            out.push(
                Diagnostic::error(
                    format!(
                        "ship {} has more than {MAX_POINTS} points of strength or movement",
                        s.id()
                    ),
                    s.id.span(),
                )
                .hint("a WBTS ship counts its points in tens at most"),
            );
        }
        power(s.power(), s.power.span(), &mut out);
        hex(s.hex(), s.hex.span(), &mut out);
    }
    for (h, f) in &w.fort {
        hex(h, 0..0, &mut out);
        power(&f.power, 0..0, &mut out);
    }
    // WBTS fort/entry: enemies share a hex only as besiegers and a garrison inside its fort.
    let mut outside: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for u in w.units.iter().filter(|u| !u.inside) {
        outside.entry(u.hex()).or_default().insert(u.power());
    }
    for (h, ps) in &outside {
        let ps: Vec<&&str> = ps.iter().collect();
        if ps.windows(2).any(|p| !state.friendly(p[0], p[1])) {
            out.push(
                Diagnostic::error(format!("enemy units stand together in {h}"), 0..0)
                    .hint("only a garrison inside its fort shares a hex with its besiegers"),
            );
        }
    }
    out
}

/// Every WBTS piece as the engine sees it. WBTS is played here with open counters: all are shown.
pub fn units(state: &State) -> Vec<UnitView> {
    units_told(state, 1)
}

/// [`units`] as the reports of a turn told in `wording` describe them (`super::WORDING`): from 2, a
/// unit inside a fortress is "inside the fortress"; before, inside any fort, "inside the fort".
pub fn units_told(state: &State, wording: u32) -> Vec<UnitView> {
    let Some(w) = state.table::<WbtsState>() else {
        return Vec::new();
    };
    let leaders = w.leaders.iter().map(|l| UnitView {
        id: l.id().to_string(),
        owner: l.power().to_string(),
        area: l.hex().to_string(),
        kind: "leader",
        detail: format!(
            "{} leader, initiative {}, combat {}{}",
            match l.rank {
                Rank::Army => "army",
                Rank::Corps => "corps",
            },
            l.initiative,
            l.combat,
            if l.supply > 0 {
                format!(", HQ supply {}", l.supply)
            } else {
                String::new()
            }
        ),
        strength: l.combat,
        sees: true,
    });
    let units = w.units.iter().map(|u| UnitView {
        id: u.id().to_string(),
        owner: u.power().to_string(),
        area: u.hex().to_string(),
        // What a WBTS player calls the counter: infantry, cavalry, artillery, train.
        kind: u.kind.name(),
        detail: u.describe(match w.fort.get(u.hex()) {
            Some(f) if wording >= 2 => f.effective().name(),
            _ => "fort",
        }),
        strength: u.strength,
        sees: true,
    });
    let ships = w.ships.iter().map(|s| UnitView {
        id: s.id().to_string(),
        owner: s.power().to_string(),
        area: s.hex().to_string(),
        kind: s.kind.name(),
        detail: match s.kind {
            ShipKind::Gunboat => format!("gunboat, {} naval strength", s.strength),
            ShipKind::Transport => "transport".to_string(),
        },
        strength: s.strength,
        sees: true,
    });
    leaders.chain(units).chain(ships).collect()
}
