//! The Paths of Glory part of `state.toml`: the `[pog]` table, with the units, the trench and fort
//! markers, the side to act and the game-state flags the rules read.
//!
//! ```toml
//! [pog]
//! active = "central"          # whose action this turn is (pbem turn = one PoG action)
//! game_turn = 3               # Fall 1914 is turn 3 (11.2.1)
//! entrench_played = ["central"]
//! [pog.trench]
//! Verdun = { level = 1, power = "allies" }
//! [pog.fort]
//! Liege = "besieged"
//! [[pog.unit]]
//! id = "GE-1"; power = "central"; nation = "ge"; kind = "army"; space = "Metz"
//! full = { cf = 5, lf = 3, mf = 3 }; reduced = { cf = 3, lf = 3, mf = 3 }
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diag::{did_you_mean, Diagnostic};
use crate::game::config::GameConfig;
use crate::game::map::Map;
use crate::game::state::{RulesetTable, State};
use crate::rules::UnitView;

/// The `[pog]` table, which a PoG state must have.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PogState {
    /// The power whose action this turn is: the attacker of every combat (12.1.3).
    pub active: Spanned<String>,
    /// The PoG game turn (Fall 1914 is turn 3).
    pub game_turn: u32,
    /// Actions played so far in this game turn, both sides together.
    #[serde(default)]
    pub actions_played: u32,
    /// The Race to the Sea event has been played (11.1.9).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub race_to_the_sea: bool,
    /// The Central Powers' war status (11.1.9 lifts the Channel-port limit from 4).
    #[serde(default)]
    pub cp_war_status: u32,
    /// The powers that have played the Entrench event (11.2.2.2, 11.2.10, 11.2.11).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entrench_played: Vec<String>,
    /// Trench markers by space (11.2.3: one per space).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub trench: BTreeMap<String, Trench>,
    /// Forts that are not intact, by space; a fort not listed is intact.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fort: BTreeMap<String, FortStatus>,
    /// The combat cards each power holds, by id of tables.toml.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cards: BTreeMap<String, Vec<String>>,
    /// The nations not yet in the war, by the map's `nation` of their spaces: no unit enters their
    /// spaces (11.1.11); the referee takes a nation off the list when it enters the war. Albania is
    /// always open (11.1.12).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutral: Vec<String>,
    /// Cards kept face up only until the end of the game turn after the one they were played in
    /// (12.2.10: They Shall Not Pass, `until_next_turn` in tables.toml), by card id: that turn.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub played_in_turn: BTreeMap<String, u32>,
    /// 11.1.10: the MEF space holding the MEF Beach Head marker (placed by the referee: the MEF
    /// event is not in the seed); the other MEF spaces of tables.toml stay closed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mef_beachhead: Option<String>,
    /// 11.3.2, 12.1.9: the game turn in which a Russian corps last passed between the To Caucasus
    /// box and the Near East (one a turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caucasus_crossed: Option<u32>,
    /// 11.3.2: the Fall of the Tsar event has been played: no Russian unit passes between the To
    /// Caucasus box and the Near East.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fall_of_the_tsar: bool,
    /// 11.1.14: CP spaces the Arab Northern Army holds, each with the power it reverts to when the
    /// ANA leaves.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ana_held: BTreeMap<String, String>,
    /// 11.1.15: spaces the Turk SN Corps converted, each with the power attrition returns it to.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sn_converted: BTreeMap<String, String>,
    /// Units eliminated, by id, in the order they fell (there is no replacement phase in pbem yet).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eliminated: Vec<String>,
    #[serde(default, rename = "unit")]
    pub units: Vec<Unit>,
}

/// A trench marker: its level and the power whose units it shelters.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Trench {
    pub level: u32,
    pub power: String,
}

/// The state of a fort that is not intact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FortStatus {
    Besieged,
    Destroyed,
}

/// Armies and corps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    Army,
    Corps,
}

impl UnitKind {
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Army => "army",
            UnitKind::Corps => "corps",
        }
    }
}

/// Combat, loss and movement factors of one side of a counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Factors {
    pub cf: u32,
    pub lf: u32,
    pub mf: u32,
}

/// An army or corps counter.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub id: Spanned<String>,
    pub power: Spanned<String>,
    /// Its nationality, lower case (`ge`, `fr`, `br`, `ru`, `ah`): dotted lines (11.1.3, 12.1.9),
    /// multi-national attacks (12.1.11), level 0 trenches (11.2.10).
    pub nation: String,
    pub kind: UnitKind,
    pub full: Factors,
    pub reduced: Factors,
    /// Whether the counter shows its reduced side.
    #[serde(
        default,
        rename = "is_reduced",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub is_reduced: bool,
    /// A unit of the British Expeditionary Force (11.1.16).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bef: bool,
    /// An army allowed on the Near East map (11.3.1: RU CAU, BR MEF and NE, FR OR, TU YLD, AoI).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub near_east: bool,
    /// The Arab Northern Army, whose control of CP spaces lasts only while it stays (11.1.14).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ana: bool,
    /// The Turk SN Corps, whose converted spaces suffer attrition without supply (11.1.15).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sn: bool,
    pub space: Spanned<String>,
}

impl Unit {
    pub fn id(&self) -> &str {
        self.id.get_ref()
    }

    pub fn power(&self) -> &str {
        self.power.get_ref()
    }

    pub fn space(&self) -> &str {
        self.space.get_ref()
    }

    /// The factors of the side it shows.
    pub fn factors(&self) -> Factors {
        if self.is_reduced {
            self.reduced
        } else {
            self.full
        }
    }

    pub fn cf(&self) -> u32 {
        self.factors().cf
    }

    pub fn lf(&self) -> u32 {
        self.factors().lf
    }

    pub fn mf(&self) -> u32 {
        self.factors().mf
    }

    pub fn is_army(&self) -> bool {
        self.kind == UnitKind::Army
    }

    /// "GE army, 5-3-3" or "FR corps, reduced 1-1-3"; with what the theatre rules read of it
    /// ("BR army, 3-2-3, Near East": 11.3.1; "ANA": 11.1.14; "SN Corps": 11.1.15).
    pub fn describe(&self) -> String {
        let f = self.factors();
        let side = if self.is_reduced { "reduced " } else { "" };
        let marks: String = [
            (self.near_east, ", Near East"),
            (self.ana, ", ANA"),
            (self.sn, ", SN Corps"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, m)| *m)
        .collect();
        format!(
            "{} {}, {side}{}-{}-{}{marks}",
            self.nation.to_uppercase(),
            self.kind.name(),
            f.cf,
            f.lf,
            f.mf
        )
    }
}

impl PogState {
    /// Whether `nation` (a space's `nation` in map.toml) is neutral, so that no unit may enter its
    /// spaces (PoG 11.1.11); Albania never is (11.1.12: units may always enter it).
    pub fn is_neutral(&self, nation: Option<&str>) -> bool {
        nation.is_some_and(|n| {
            !n.eq_ignore_ascii_case("albania")
                && self.neutral.iter().any(|x| x.eq_ignore_ascii_case(n))
        })
    }

    pub fn active(&self) -> &str {
        self.active.get_ref()
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id().eq_ignore_ascii_case(id))
    }

    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units
            .iter_mut()
            .find(|u| u.id().eq_ignore_ascii_case(id))
    }

    /// The units in `space`, in state order.
    pub fn units_in<'a>(&'a self, space: &'a str) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units
            .iter()
            .filter(move |u| u.space().eq_ignore_ascii_case(space))
    }

    pub fn fort_status(&self, space: &str) -> Option<FortStatus> {
        self.fort.get(space).copied()
    }

    pub fn cards_of(&self, power: &str) -> &[String] {
        self.cards.get(power).map_or(&[], Vec::as_slice)
    }
}

impl RulesetTable for PogState {
    const KEY: &'static str = "pog";
}

/// The `[pog]` table of a state, which a PoG game must have.
pub fn pog_of(state: &State) -> anyhow::Result<&PogState> {
    state
        .table::<PogState>()
        .ok_or_else(|| anyhow::anyhow!("the state of a Paths of Glory game has no [pog] table"))
}

/// Checks the `[pog]` table against the map and the powers.
pub fn check(state: &State, config: &GameConfig, map: &Map, cards: &[&str]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(pog) = state.table::<PogState>() else {
        out.push(
            Diagnostic::error("the state has no [pog] table", 0..0)
                .hint("a Paths of Glory state needs [pog] with `active` and `game_turn`"),
        );
        return out;
    };
    let powers: Vec<&str> = config.power_ids().collect();
    let power_ok = |p: &str| powers.contains(&p);
    if !power_ok(pog.active()) {
        out.push(
            Diagnostic::error(
                format!("unknown power '{}'", pog.active()),
                pog.active.span(),
            )
            .hint(format!("powers in game.toml: {}", powers.join(", "))),
        );
    }
    let space = |id: &str, span: std::ops::Range<usize>, out: &mut Vec<Diagnostic>| {
        if map.find(id).is_none() {
            out.push(
                Diagnostic::error(format!("unknown space '{id}'"), span)
                    .label("not in map.toml")
                    .maybe_hint(map.suggest(id)),
            );
        }
    };
    let mut ids = BTreeSet::new();
    for u in &pog.units {
        let id = u.id();
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            out.push(
                Diagnostic::error(format!("unit id '{id}' is not a plain word"), u.id.span())
                    .hint("unit ids are ASCII letters, digits and '-'"),
            );
        }
        if !ids.insert(id.to_lowercase()) {
            out.push(Diagnostic::error(
                format!("unit id '{id}' is used twice"),
                u.id.span(),
            ));
        }
        if !power_ok(u.power()) {
            out.push(
                Diagnostic::error(format!("unknown power '{}'", u.power()), u.power.span())
                    .maybe_hint(
                        did_you_mean(u.power(), powers.iter().copied())
                            .map(|s| format!("did you mean '{s}'?")),
                    ),
            );
        }
        space(u.space(), u.space.span(), &mut out);
    }
    // 10.1.5: opposing units never stand together.
    let mut by_space: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for u in &pog.units {
        by_space
            .entry(u.space().to_lowercase())
            .or_default()
            .insert(u.power());
    }
    for (s, ps) in &by_space {
        let ps: Vec<&&str> = ps.iter().collect();
        if ps.windows(2).any(|w| !state.friendly(w[0], w[1])) {
            out.push(
                Diagnostic::error(format!("enemy units stand together in '{s}'"), 0..0)
                    .hint("PoG 10.1.5: units of opposing sides never stack together"),
            );
        }
    }
    for (s, t) in &pog.trench {
        space(s, 0..0, &mut out);
        if t.level == 0 || t.level > 2 {
            out.push(
                Diagnostic::error(format!("trench level {} in '{s}'", t.level), 0..0)
                    .hint("PoG 11.2.3: a trench marker is level 1 or 2 (level 0 is never a marker, 11.2.12)"),
            );
        }
        if !power_ok(&t.power) {
            out.push(Diagnostic::error(
                format!("the trench in '{s}' belongs to unknown power '{}'", t.power),
                0..0,
            ));
        }
    }
    for s in pog.fort.keys() {
        space(s, 0..0, &mut out);
        if map.find(s).is_some_and(|i| map.area(i).fort.is_none()) {
            out.push(
                Diagnostic::error(format!("[pog.fort] names '{s}', which has no fort"), 0..0)
                    .hint("give the space `fort = <factor>` in map.toml"),
            );
        }
    }
    let held = pog.ana_held.iter().chain(&pog.sn_converted);
    for (s, p) in held {
        space(s, 0..0, &mut out);
        if !power_ok(p) {
            out.push(Diagnostic::error(
                format!("[pog] names unknown power '{p}' for '{s}'"),
                0..0,
            ));
        }
    }
    if let Some(s) = &pog.mef_beachhead {
        space(s, 0..0, &mut out);
    }
    for p in pog.entrench_played.iter().chain(pog.cards.keys()) {
        if !power_ok(p) {
            out.push(Diagnostic::error(
                format!("[pog] names unknown power '{p}'"),
                0..0,
            ));
        }
    }
    for c in pog.cards.values().flatten() {
        if !cards.iter().any(|k| k.eq_ignore_ascii_case(c)) {
            out.push(
                Diagnostic::error(format!("unknown combat card '{c}'"), 0..0)
                    .hint(format!("the cards of tables.toml: {}", cards.join(", "))),
            );
        }
    }
    out
}

/// Every PoG unit as the engine sees it. PoG is a game of open information: every unit is shown.
pub fn units(state: &State) -> Vec<UnitView> {
    let Some(pog) = state.table::<PogState>() else {
        return Vec::new();
    };
    pog.units
        .iter()
        .map(|u| UnitView {
            id: u.id().to_string(),
            owner: u.power().to_string(),
            area: u.space().to_string(),
            kind: u.kind.name(),
            detail: u.describe(),
            strength: u.cf(),
            sees: true,
        })
        .collect()
}
