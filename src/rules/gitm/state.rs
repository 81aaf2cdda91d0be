//! The Gathered In Their Masses part of `state.toml`: the `[gitm]` table, symmetric for every side:
//! the season, the campaign turn, the squares where battles were fought, and the brigades.
//!
//! ```toml
//! [gitm]
//! season = "campaign"        # campaign, peace or truce (GITM 5.1, 7.16)
//! campaign_turn = 1          # 1 to 15 (GITM 5.1)
//! battles = ["G7-V8"]        # squares of last turn's battles (GITM 7.5)
//! [[gitm.fort]]              # a fort in a city's tactical square (GITM 2.6)
//! at = "G7-V8/10-10"
//! strength = 4               # 1 to 5
//! capacity = 8000            # as transport capacity: see `fort_room`
//! [[gitm.siege]]             # a fort, or a city's town square without one, besieged (GITM 2.7)
//! at = "G7-V8/10-10"
//! by = "austria"
//! since = 2                  # the turn it began
//! breaches = 1               # pbem's siege: each lowers the fort's strength by one
//! [[gitm.port]]              # a port city's quay (GITM 4.3, 7.17): where units board and land
//! at = "G7-V8/10-10"
//! [[gitm.ship]]              # a transport (GITM 7.17), lying in a port
//! id = "FRT1"
//! power = "france"
//! port = "G7-V8"             # the square of the port it lies in
//! capacity = 6000            # transport capacity: see `fort_room`
//! [[gitm.brigade]]
//! id = "FR1IN"               # nationality, number, type (GITM 3.1)
//! power = "france"
//! at = "G8-V5/0-2"           # strategic square / tactical square (GITM 3.3)
//! strength = 3000
//! batteries = 0
//! quality = "very-good"
//! experience = 8
//! morale = 50
//! fatigue = 0
//! # home = "H0-V4"           # a militia's home city (GITM 7.16)
//! ```

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diag::{did_you_mean, Diagnostic};
use crate::game::config::GameConfig;
use crate::game::map::grid::Square;
use crate::game::map::sub_grid::Spot;
use crate::game::map::{GridMap, Topology};
use crate::game::state::{RulesetTable, State};
use crate::rules::UnitView;

use super::rules;
use crate::rules::wording::men;

pub use super::kinds::{Branch, Kind};

/// The `[gitm]` table.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GitmState {
    pub season: Season,
    /// The turn of the campaign, 1 to 15 (GITM 5.1); kept through peace and truce turns.
    #[serde(default = "one")]
    pub campaign_turn: u32,
    /// The squares where battles were fought last turn: units there may withdraw (GITM 7.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battles: Vec<String>,
    /// Units merged away (GITM 3.5), in the order they went.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<String>,
    /// Forts in city tactical squares (GITM 2.6).
    #[serde(default, rename = "fort", skip_serializing_if = "Vec::is_empty")]
    pub forts: Vec<Fort>,
    /// Forts, and cities without a fort, under siege (GITM 2.7; pbem's progress, `turn.rs` and
    /// `city_siege.rs`).
    #[serde(default, rename = "siege", skip_serializing_if = "Vec::is_empty")]
    pub sieges: Vec<Siege>,
    /// Ports: where units board transports and land (GITM 4.3, 7.17; `ships.rs`).
    #[serde(default, rename = "port", skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port>,
    /// Transports, each lying in a port (GITM 7.17; `ships.rs`).
    #[serde(default, rename = "ship", skip_serializing_if = "Vec::is_empty")]
    pub ships: Vec<Ship>,
    #[serde(default, rename = "brigade")]
    pub brigades: Vec<Brigade>,
}

/// A port (GITM 4.3, 7.17): the tactical square of a city (a square `[places]` names) where units
/// board the transports lying there and where those landing stand.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Port {
    /// `G7-V8/10-10`.
    pub at: Spanned<String>,
}

impl Port {
    /// The port's strategic square, `G7-V8`.
    pub fn square(&self) -> &str {
        self.at.get_ref().split('/').next().unwrap_or("")
    }
}

/// A transport (GITM 7.17) of a power, lying in a port; its capacity is counted as a fort's (2.6:
/// the seed measures both alike, `fort_room`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Ship {
    pub id: Spanned<String>,
    pub power: Spanned<String>,
    /// The square of the port it lies in, `G7-V8`.
    pub port: Spanned<String>,
    pub capacity: u32,
}

impl Ship {
    pub fn id(&self) -> &str {
        self.id.get_ref()
    }

    pub fn power(&self) -> &str {
        self.power.get_ref()
    }

    pub fn port(&self) -> &str {
        self.port.get_ref()
    }
}

/// A fort in a city's tactical square (GITM 2.6): its strength, 1 to 5, and its capacity, counted as
/// transport capacity (1 a man of infantry or HQ, 3 of cavalry, 2 of artillery).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Fort {
    /// `G7-V8/10-10`.
    pub at: Spanned<String>,
    pub strength: u32,
    pub capacity: u32,
}

/// A fort under siege (GITM 2.7): its garrison may not march out (7.7) nor draw supply, and the
/// besiegers' breaches lower its strength by one each (pbem's table, `turn.rs`). A city without a
/// fort is besieged the same way at its town square (`city_siege.rs`), with no breaches to make.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Siege {
    /// The fort's place, `G7-V8/10-10`, or the town square of a city without a fort.
    pub at: Spanned<String>,
    /// The power whose brigades began the siege.
    pub by: String,
    /// The turn it began.
    pub since: u32,
    /// Breaches made so far: the fort's strength less these is what it has left.
    #[serde(default)]
    pub breaches: u32,
}

/// The room a brigade takes in a fort (GITM 2.6, counted as transport capacity): 1 a man of infantry,
/// militia or HQ, 3 of cavalry, 2 of artillery; a brigade's attached batteries count 100 men each as
/// artillerists.
pub fn fort_room(b: &Brigade) -> u64 {
    let kind = b.kind();
    let per_man: u64 = if kind.is_cavalry() {
        3
    } else if kind.is_artillery() {
        2
    } else {
        1
    };
    let gunners = (u64::from(b.batteries) * 100).min(u64::from(b.strength));
    (u64::from(b.strength) - gunners) * per_man + gunners * 2
}

fn one() -> u32 {
    1
}

/// A campaign turn, or a turn of peace or truce (GITM 5.1, 7.16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Season {
    Campaign,
    Peace,
    Truce,
}

impl Season {
    pub fn is_campaign(self) -> bool {
        self == Season::Campaign
    }
}

/// Quality (GITM 3.2), as the sample status report writes it ("Very Good").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Quality {
    Poor,
    Average,
    Good,
    VeryGood,
    Elite,
}

impl Quality {
    /// The five grades in order, poor first: a grade's place is its rank (GITM 3.5's average).
    pub const ALL: [Quality; 5] = [
        Quality::Poor,
        Quality::Average,
        Quality::Good,
        Quality::VeryGood,
        Quality::Elite,
    ];

    /// 0 (poor) to 4 (elite).
    pub fn rank(self) -> u32 {
        Quality::ALL.iter().position(|&q| q == self).unwrap_or(0) as u32
    }

    /// The grade of a rank, elite beyond 4.
    pub fn of_rank(rank: u32) -> Quality {
        Quality::ALL[(rank as usize).min(4)]
    }

    pub fn name(self) -> &'static str {
        match self {
            Quality::Poor => "poor",
            Quality::Average => "average",
            Quality::Good => "good",
            Quality::VeryGood => "very good",
            Quality::Elite => "elite",
        }
    }
}

/// One brigade or headquarters (GITM 3.1-3.4).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Brigade {
    /// Nationality, number, type: `FR3LI` (GITM 3.1).
    pub id: Spanned<String>,
    pub power: Spanned<String>,
    /// `G8-V5/0-2`: the strategic square and the tactical square (GITM 3.3).
    pub at: Spanned<String>,
    /// Men.
    pub strength: u32,
    /// Attached batteries.
    #[serde(default)]
    pub batteries: u32,
    pub quality: Quality,
    #[serde(default)]
    pub experience: u32,
    /// 0 to 100, 50 at the start (GITM 3.7; pbem's reading of the sample's "Morale: 6", docs/rules/gitm.md).
    #[serde(default = "fifty")]
    pub morale: u32,
    #[serde(default)]
    pub fatigue: u32,
    #[serde(default)]
    pub ammunition: u32,
    /// Units of supply carried (GITM 6.7; 7.2: a unit carrying any moves one square less).
    #[serde(default)]
    pub supplies: u32,
    /// Inactive units detect nothing (GITM 4.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inactive: bool,
    /// Shattered in a tactical combat (pbem GITM-T6, 9.2): it takes no part in tactical movement or
    /// combat (`tactical/`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shattered: bool,
    /// A militia brigade's home city, a square map.toml's `[places]` names (`H0-V4`): in peace and
    /// truce it goes nowhere else, and is sent back there (GITM 7.16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<Spanned<String>>,
}

fn fifty() -> u32 {
    50
}

impl Brigade {
    pub fn id(&self) -> &str {
        self.id.get_ref()
    }

    pub fn power(&self) -> &str {
        self.power.get_ref()
    }

    pub fn at(&self) -> &str {
        self.at.get_ref()
    }

    /// The strategic square's name, `G8-V5`.
    pub fn square(&self) -> &str {
        self.at().split('/').next().unwrap_or("")
    }

    /// The type its id ends with; infantry for an id that ends with none (refused by [`check`]).
    pub fn kind(&self) -> Kind {
        Kind::of_id(self.id()).unwrap_or(Kind::Infantry)
    }

    /// "infantry, 3000 men, 1 battery, very good, experience 8, morale 50, fatigue 0" (no batteries
    /// said when it has none).
    pub fn describe(&self) -> String {
        format!(
            "{}, {}{}, {}, experience {}, morale {}, fatigue {}{}",
            self.kind().name(),
            men(self.strength),
            match self.batteries {
                0 => String::new(),
                1 => ", 1 battery".to_string(),
                n => format!(", {n} batteries"),
            },
            self.quality.name(),
            self.experience,
            self.morale,
            self.fatigue,
            if self.supplies > 0 {
                format!(", carrying {} supply", self.supplies)
            } else {
                String::new()
            }
        )
    }
}

impl RulesetTable for GitmState {
    const KEY: &'static str = "gitm";
}

impl GitmState {
    pub fn brigade(&self, id: &str) -> Option<&Brigade> {
        self.brigades
            .iter()
            .find(|b| b.id().eq_ignore_ascii_case(id))
    }

    pub fn brigade_mut(&mut self, id: &str) -> Option<&mut Brigade> {
        self.brigades
            .iter_mut()
            .find(|b| b.id().eq_ignore_ascii_case(id))
    }

    /// A transport by its id (GITM 7.17).
    pub fn ship(&self, id: &str) -> Option<&Ship> {
        self.ships.iter().find(|s| s.id().eq_ignore_ascii_case(id))
    }

    /// The port of a strategic square, `G7-V8` (GITM 4.3, 7.17).
    pub fn port_of(&self, square: &str) -> Option<&Port> {
        self.ports
            .iter()
            .find(|p| p.square().eq_ignore_ascii_case(square))
    }

    /// The fort standing at a place, `G7-V8/10-10` (GITM 2.6).
    pub fn fort_at(&self, at: &str) -> Option<&Fort> {
        self.forts
            .iter()
            .find(|f| f.at.get_ref().eq_ignore_ascii_case(at))
    }

    /// The siege of the fort at a place, if it is besieged (GITM 2.7).
    pub fn siege_of(&self, at: &str) -> Option<&Siege> {
        self.sieges
            .iter()
            .find(|s| s.at.get_ref().eq_ignore_ascii_case(at))
    }

    /// A fort's strength less the breaches of its siege (GITM 2.6, 2.7; pbem's siege): 0 when breached.
    pub fn fort_strength(&self, fort: &Fort) -> u32 {
        let breaches = self.siege_of(fort.at.get_ref()).map_or(0, |s| s.breaches);
        fort.strength.saturating_sub(breaches)
    }

    /// The garrison of a fort, by index in `brigades` (GITM 2.6): the brigades standing on its
    /// tactical square, not shattered, in the state's order, each while its room (`fort_room`) still
    /// fits the capacity; one that does not fit stands outside the fort, on the same square. A
    /// breached fort (strength 0 left) holds none.
    pub fn garrison(&self, fort: &Fort) -> Vec<usize> {
        let mut out = Vec::new();
        if self.fort_strength(fort) == 0 {
            return out;
        }
        let mut room = u64::from(fort.capacity);
        for (i, b) in self.brigades.iter().enumerate() {
            if b.shattered || !b.at().eq_ignore_ascii_case(fort.at.get_ref()) {
                continue;
            }
            let need = fort_room(b);
            if need <= room {
                room -= need;
                out.push(i);
            }
        }
        out
    }

    /// GITM 2.7: whether brigade `i` is shut in a besieged place: in the garrison of a besieged fort,
    /// or, in a besieged city without a fort, on its town square, not shattered and not of the
    /// besieging power.
    pub fn besieged(&self, i: usize) -> bool {
        self.brigades.get(i).is_some_and(|b| {
            self.siege_of(b.at())
                .is_some_and(|s| match self.fort_at(b.at()) {
                    Some(_) => self.in_fort(i),
                    None => !b.shattered && b.power() != s.by,
                })
        })
    }

    /// What a siege at `at` besieges, in a report's words: "the fort at G7-V8/10-10", or "the city
    /// at G9-V5/7-7 (no fort)" (GITM 2.7).
    pub fn besieged_place(&self, at: &str) -> String {
        if self.fort_at(at).is_some() {
            format!("the fort at {at}")
        } else {
            format!("the city at {at} (no fort)")
        }
    }

    /// Whether brigade `i` is in a fort's garrison (GITM 2.6: "F" after its id in the seed's reports).
    pub fn in_fort(&self, i: usize) -> bool {
        self.brigades.get(i).is_some_and(|b| {
            self.fort_at(b.at())
                .is_some_and(|f| self.garrison(f).contains(&i))
        })
    }
}

/// The owner `[control]` gives the Ottoman Empire's squares, closed to all movement (GITM 7.15).
pub const OTTOMAN: &str = "ottoman";

/// The most men, batteries or points a brigade may have: far beyond any unit, far from overflow.
pub const MAX_POINTS: u32 = 100_000;

/// The `[gitm]` table of a state, which a GITM game must have.
pub fn gitm_of(state: &State) -> anyhow::Result<&GitmState> {
    state
        .table::<GitmState>()
        .ok_or_else(|| anyhow::anyhow!("the state of a GITM game has no [gitm] table"))
}

/// Checks the `[gitm]` table against the grid map and the powers.
pub fn check(state: &State, config: &GameConfig, map: Option<&GridMap>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(g) = state.table::<GitmState>() else {
        out.push(
            Diagnostic::error("the state has no [gitm] table", 0..0)
                .hint("a GITM state needs [gitm] with `season` and its [[gitm.brigade]]"),
        );
        return out;
    };
    let Some(map) = map else {
        out.push(
            Diagnostic::error("a GITM game needs a grid map", 0..0)
                .hint("map.toml says kind = \"grid\", with a [sub] grid of tactical maps"),
        );
        return out;
    };
    let powers: Vec<&str> = config.power_ids().collect();
    let mut ids = BTreeSet::new();
    for b in &g.brigades {
        let id = b.id();
        if Kind::of_id(id).is_none() || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            out.push(
                Diagnostic::error(format!("unit id '{id}' names no unit type"), b.id.span())
                    .hint("an id is nationality, number and type, FR3LI; types: IN LI HC MC LC HA MA LA SA MI AQ CQ")
                    .rule(rules::UNIT_TYPES),
            );
        }
        if !ids.insert(id.to_ascii_lowercase()) {
            out.push(Diagnostic::error(
                format!("unit id '{id}' is used twice"),
                b.id.span(),
            ));
        }
        if !powers.contains(&b.power()) {
            out.push(
                Diagnostic::error(format!("unknown power '{}'", b.power()), b.power.span()).hint(
                    did_you_mean(b.power(), powers.iter().copied()).map_or_else(
                        || format!("powers in game.toml: {}", powers.join(", ")),
                        |s| format!("did you mean '{s}'?"),
                    ),
                ),
            );
        }
        match spot(map, b.at()) {
            Ok(s) => {
                if impassable(map, s.square) {
                    out.push(
                        Diagnostic::error(
                            format!("{id} stands on {}, an impassable square", b.at()),
                            b.at.span(),
                        )
                        .rule(rules::IMPASSABLE),
                    );
                }
            }
            Err(hint) => out.push(
                Diagnostic::error(
                    format!("'{}' is not a square and tactical square", b.at()),
                    b.at.span(),
                )
                .hint(hint)
                .rule(rules::TACTICAL_GRID),
            ),
        }
        if let Some(home) = &b.home {
            let city = map
                .parse_place(home.get_ref())
                .ok()
                .filter(|&sq| map.is_named(sq));
            if b.kind() != Kind::Militia {
                out.push(
                    Diagnostic::error(
                        format!("{id} is not militia: only militia have a home city"),
                        home.span(),
                    )
                    .hint("remove its `home`, or give the brigade the militia type MI")
                    .rule(rules::PEACE_MOVE),
                );
            } else if city.is_none() {
                out.push(
                    Diagnostic::error(
                        format!(
                            "{} home '{}' is not a city of the map",
                            crate::words::Possessive(id),
                            home.get_ref()
                        ),
                        home.span(),
                    )
                    .hint("a home city is a square map.toml's [places] names, as H0-V4 (Udine)")
                    .rule(rules::PEACE_MOVE),
                );
            }
        }
        if b.strength > MAX_POINTS
            || b.batteries > MAX_POINTS
            || b.experience > MAX_POINTS
            || b.morale > 100
            || b.fatigue > MAX_POINTS
            || b.ammunition > MAX_POINTS
            || b.supplies > MAX_POINTS
        {
            out.push(
                Diagnostic::error(format!("{id} has a number out of range"), b.id.span()).hint(
                    format!("morale runs 0 to 100; men, batteries and points at most {MAX_POINTS}"),
                ),
            );
        }
    }
    for f in &g.forts {
        if spot(map, f.at.get_ref()).is_err()
            || !(1..=5).contains(&f.strength)
            || f.capacity > MAX_POINTS
        {
            out.push(
                Diagnostic::error(format!("fort at '{}' is not a fort of GITM 2.6", f.at.get_ref()), f.at.span())
                    .hint(format!("a fort stands at a square and tactical square (G7-V8/10-10), with strength 1 to 5 and a capacity of at most {MAX_POINTS}"))
                    .rule(rules::FORTS),
            );
        }
    }
    for s in &g.sieges {
        let fort = g.fort_at(s.at.get_ref());
        if fort.is_none() && !city_square(map, s.at.get_ref()) {
            out.push(
                Diagnostic::error(
                    format!("siege at '{}' names no fort nor a city's town square", s.at.get_ref()),
                    s.at.span(),
                )
                .hint("a [[gitm.siege]] stands at the place of a [[gitm.fort]], or on a town square of a city ([places]) without one")
                .rule(rules::SIEGE),
            );
            continue;
        }
        if !powers.contains(&s.by.as_str()) || s.breaches > fort.map_or(0, |f| f.strength) {
            out.push(
                Diagnostic::error(
                    format!("siege at '{}' is not a siege of GITM 2.7", s.at.get_ref()),
                    s.at.span(),
                )
                .hint(format!(
                    "`by` is a power of game.toml ({}); `breaches` at most the fort's strength",
                    powers.join(", ")
                ))
                .rule(rules::SIEGE),
            );
        }
    }
    for sq in &g.battles {
        if map.parse_place(sq).is_err() {
            out.push(
                Diagnostic::error(format!("battle square '{sq}' is not on the map"), 0..0)
                    .rule(rules::GRID),
            );
        }
    }
    out
}

/// GITM 2.7: whether a place (`G9-V5/7-7`) is a city's tactical square: a town square (2.2) of the
/// tactical map under a square map.toml's `[places]` names (a city, as 1.4 reads it). A city
/// without a fort is besieged there (`city_siege.rs`).
pub fn city_square(map: &GridMap, at: &str) -> bool {
    match (map.parse_spot(at), map.sub()) {
        (Ok(spot), Some(sub)) => map.is_named(spot.square) && sub.terrain(spot) == "town",
        _ => false,
    }
}

/// A brigade's place, `G8-V5/0-2`, read on the map; the error is a hint.
pub fn spot(map: &GridMap, text: &str) -> Result<Spot, String> {
    map.parse_spot(text).map_err(|b| b.to_string())
}

/// Whether a strategic square is impassable (GITM 1.2: water, high mountain, swamp).
pub fn impassable(map: &GridMap, sq: Square) -> bool {
    matches!(map.terrain(sq), "water" | "high mountain" | "swamp")
}

/// Every brigade as the engine sees it.
pub fn units(state: &State) -> Vec<UnitView> {
    let Some(g) = state.table::<GitmState>() else {
        return Vec::new();
    };
    g.brigades
        .iter()
        .enumerate()
        .map(|(i, b)| UnitView {
            id: b.id().to_string(),
            owner: b.power().to_string(),
            area: b.square().to_string(),
            kind: b.kind().view(),
            // GITM 2.6: the seed appends an F to the ids of units in forts; pbem says it in words.
            detail: format!(
                "{}, at {}{}{}",
                b.describe(),
                b.at(),
                if g.in_fort(i) { ", in the fort" } else { "" },
                if b.shattered { ", shattered" } else { "" }
            ),
            strength: b.strength,
            sees: !b.inactive,
        })
        .collect()
}
