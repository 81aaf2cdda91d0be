//! The Napoleon's Greatest Gamble part of `state.toml`: the `[ngg]` table, with the game turn, the
//! first player of the combat phase (10.7), and the units with their markers. A stack is every unit
//! of one power in one hex; a commander is a unit of kind `commander` with a rating (CR, 10.2).
//!
//! ```toml
//! [ngg]
//! game_turn = 1
//! first = "french"            # the first attacker of each turn's combat (10.7)
//! [[ngg.unit]]
//! id = "FR-Ney"; power = "french"; kind = "commander"; cr = 2; hex = "0605"
//! [[ngg.unit]]
//! id = "FR-III"; power = "french"; kind = "infantry"; sp = 6; hex = "0605"
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diag::{did_you_mean, Diagnostic};
use crate::game::config::GameConfig;
use crate::game::map::Map;
use crate::game::state::{RulesetTable, State};
use crate::rules::UnitView;

/// The highest commander rating pbem accepts (the seed prints none; the demo's are 0 to 3).
pub const MAX_CR: u32 = 6;

/// The `[ngg]` table.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NggState {
    /// The NGG game turn.
    pub game_turn: u32,
    /// The player who attacks first in the combat phase (10.7: "the first player").
    pub first: Spanned<String>,
    /// Units eliminated, by id, in the order they fell.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eliminated: Vec<String>,
    #[serde(default, rename = "unit")]
    pub units: Vec<Unit>,
}

/// Infantry, cavalry and commanders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    Infantry,
    Cavalry,
    Commander,
}

impl UnitKind {
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Cavalry => "cavalry",
            UnitKind::Commander => "commander",
        }
    }
}

/// One counter.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub id: Spanned<String>,
    pub power: Spanned<String>,
    pub kind: UnitKind,
    /// Strength points (combat units; a commander has none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sp: u32,
    /// Commander rating (commanders only, 10.2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cr: u32,
    pub hex: Spanned<String>,
    /// A disrupted unit: its stack may not attack (10.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disrupted: bool,
    /// Under a force march marker, removed at 10.9.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub force_march: bool,
    /// Under a forage marker: its stack may not attack nor support an attack (10.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forage: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Unit {
    pub fn id(&self) -> &str {
        self.id.get_ref()
    }

    pub fn power(&self) -> &str {
        self.power.get_ref()
    }

    pub fn hex(&self) -> &str {
        self.hex.get_ref()
    }

    pub fn is_commander(&self) -> bool {
        self.kind == UnitKind::Commander
    }

    /// "infantry, 6 SP, disrupted" or "commander, CR 2".
    pub fn describe(&self) -> String {
        let mut s = if self.is_commander() {
            format!("commander, CR {}", self.cr)
        } else {
            format!("{}, {} SP", self.kind.name(), self.sp)
        };
        for (on, word) in [
            (self.disrupted, "disrupted"),
            (self.force_march, "force march"),
            (self.forage, "foraging"),
        ] {
            if on {
                s.push_str(", ");
                s.push_str(word);
            }
        }
        s
    }
}

impl RulesetTable for NggState {
    const KEY: &'static str = "ngg";
}

impl NggState {
    pub fn first(&self) -> &str {
        self.first.get_ref()
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id().eq_ignore_ascii_case(id))
    }

    /// The units in `hex`, in state order.
    pub fn units_in<'a>(&'a self, hex: &'a str) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units
            .iter()
            .filter(move |u| u.hex().eq_ignore_ascii_case(hex))
    }

    /// The power whose stack stands in `hex`, if any (opposing units never share a hex).
    pub fn holder<'a>(&'a self, hex: &'a str) -> Option<&'a str> {
        self.units_in(hex).next().map(Unit::power)
    }

    /// The stack of `power` in `hex`: its units, in state order.
    pub fn stack<'a>(
        &'a self,
        hex: &'a str,
        power: &'a str,
    ) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units_in(hex).filter(move |u| u.power() == power)
    }

    /// The highest rating of a commander in the stack, 0 without one (10.2, 10.4, 10.6).
    pub fn best_cr(&self, hex: &str, power: &str) -> u32 {
        self.stack(hex, power).map(|u| u.cr).max().unwrap_or(0)
    }

    /// The strength points of the stack.
    pub fn strength(&self, hex: &str, power: &str) -> u32 {
        self.stack(hex, power)
            .fold(0u32, |s, u| s.saturating_add(u.sp))
    }
}

/// The `[ngg]` table of a state, which an NGG game must have.
pub fn ngg_of(state: &State) -> anyhow::Result<&NggState> {
    state.table::<NggState>().ok_or_else(|| {
        anyhow::anyhow!("the state of a Napoleon's Greatest Gamble game has no [ngg] table")
    })
}

/// Checks the `[ngg]` table against the map and the powers, and that no other game's pieces are
/// present.
pub fn check(state: &State, config: &GameConfig, map: &Map) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let powers: Vec<&str> = config.power_ids().collect();
    if powers.len() != 2 {
        out.push(
            Diagnostic::error(
                format!("an NGG game has two sides, this one {}", powers.len()),
                0..0,
            )
            .hint("NGG 10.7 alternates two players: declare two [[power]] tables in game.toml"),
        );
    }
    let Some(ngg) = state.table::<NggState>() else {
        out.push(
            Diagnostic::error("the state has no [ngg] table", 0..0).hint(
                "a Napoleon's Greatest Gamble state needs [ngg] with `game_turn` and `first`",
            ),
        );
        return out;
    };
    let power_ok = |p: &str| powers.contains(&p);
    let unknown_power = |p: &Spanned<String>| {
        Diagnostic::error(format!("unknown power '{}'", p.get_ref()), p.span()).maybe_hint(
            did_you_mean(p.get_ref(), powers.iter().copied())
                .map(|s| format!("did you mean '{s}'?")),
        )
    };
    if !power_ok(ngg.first()) {
        out.push(unknown_power(&ngg.first));
    }
    let mut ids = BTreeSet::new();
    let mut by_hex: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for u in &ngg.units {
        let id = u.id();
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            out.push(
                Diagnostic::error(format!("unit id '{id}' is not a plain word"), u.id.span())
                    .hint("unit ids are ASCII letters, digits and '-'"),
            );
        }
        if id.chars().all(|c| c.is_ascii_digit()) {
            out.push(
                Diagnostic::error(format!("unit id '{id}' is all digits"), u.id.span()).hint(
                    "orders name a stack by its hex (digits): give units a letter, as 'FR-III'",
                ),
            );
        }
        if !ids.insert(id.to_lowercase()) {
            out.push(Diagnostic::error(
                format!("unit id '{id}' is used twice"),
                u.id.span(),
            ));
        }
        if !power_ok(u.power()) {
            out.push(unknown_power(&u.power));
        }
        if map.find(u.hex()).is_none() {
            out.push(
                Diagnostic::error(format!("unknown hex '{}'", u.hex()), u.hex.span())
                    .label("not in map.toml")
                    .maybe_hint(map.suggest(u.hex())),
            );
        }
        if u.is_commander() && (u.sp != 0 || u.cr > MAX_CR) {
            out.push(
                Diagnostic::error(
                    format!("commander '{id}' has sp {} and cr {}", u.sp, u.cr),
                    u.id.span(),
                )
                .hint(format!("a commander has no sp and a cr of 0 to {MAX_CR}")),
            );
        }
        if !u.is_commander() && (u.cr != 0 || u.sp == 0) {
            out.push(
                Diagnostic::error(format!("unit '{id}' has sp {} and cr {}", u.sp, u.cr), u.id.span())
                    .hint("infantry and cavalry have sp of 1 or more and no cr (only commanders have one)"),
            );
        }
        by_hex
            .entry(u.hex().to_lowercase())
            .or_default()
            .insert(u.power());
    }
    for (h, ps) in &by_hex {
        if ps.len() > 1 {
            out.push(
                Diagnostic::error(format!("units of two sides stand in hex '{h}'"), 0..0).hint(
                    "opposing stacks stand in different hexes (NGG 10.1 attacks an adjacent one)",
                ),
            );
        }
    }
    out
}

/// Every NGG unit as the engine sees it. NGG is played here with open information.
pub fn units(state: &State) -> Vec<UnitView> {
    let Some(ngg) = state.table::<NggState>() else {
        return Vec::new();
    };
    ngg.units
        .iter()
        .map(|u| UnitView {
            id: u.id().to_string(),
            owner: u.power().to_string(),
            area: u.hex().to_string(),
            kind: if u.is_commander() { "leader" } else { "corps" },
            detail: u.describe(),
            strength: if u.is_commander() { u.cr } else { u.sp },
            sees: true,
        })
        .collect()
}
