//! `tables.toml` of a Paths of Glory game: the two fire tables, the terrain effects on the fire
//! columns, the combat cards, and the limits the movement rules read.
//!
//! The seed we hold does not print the fire tables (12.2.7 names them): the bundled ones are pbem's
//! own, plausible tables, documented as such in the scenario's tables.toml. Every number the rules
//! read is here, so that a referee with the publisher's charts types them in.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::diag::Diagnostic;
use crate::game::map::Terrain;

/// The parsed tables.toml.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    /// Units per space (10.1.1 is not in the seed; 3 in the published game).
    pub stacking: usize,
    /// The first game turn units may entrench (11.2.1: Fall 1914, turn 3).
    pub entrench_from_turn: u32,
    /// Actions per game turn, both sides together.
    pub actions_per_turn: u32,
    pub fire: FireTables,
    /// Column shifts by terrain of the defending space (the attacker's fire; negative is left).
    pub terrain: BTreeMap<String, i32>,
    /// Column shifts by trench level (0, 1, 2) of the defending space.
    pub trench: Vec<TrenchShift>,
    /// 11.1.16: the nations of the spaces the BEF may enter or attack.
    pub bef_nations: Vec<String>,
    /// 11.1.9: the power held back and the spaces it may not end a move in.
    pub race: Race,
    /// 11.2.10, 11.2.11: what a side's Entrench event puts at level 0, by power.
    #[serde(default)]
    pub level_zero: BTreeMap<String, LevelZero>,
    #[serde(default, rename = "card")]
    pub cards: Vec<Card>,
    /// The other theatres' spaces (11.1.10 to 11.1.15, 11.3, 12.1.9, 12.1.10): theatres.rs.
    #[serde(default)]
    pub theatres: super::theatres::Theatres,
}

/// The Army and the Corps/Fort fire tables.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireTables {
    pub army: FireTable,
    pub corps: FireTable,
}

/// One fire table: columns by least combat strength, and the loss number of each die 1..6.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireTable {
    /// The least strength of each column, increasing (`[1, 2, 3, 4, 6, 9, 12, 15, 16]`).
    pub columns: Vec<u32>,
    /// Six rows, die 1 to 6, each a loss number per column.
    pub results: Vec<Vec<u32>>,
}

impl FireTable {
    /// The column of a strength: the last whose least strength it reaches (the first column when it
    /// reaches none).
    pub fn column_of(&self, strength: u32) -> usize {
        self.columns
            .iter()
            .rposition(|&c| strength >= c)
            .unwrap_or(0)
    }

    /// The column after `shift` columns (right is positive), clamped to the table (12.2.7). `shift` is
    /// the sum of every shift of the fire (terrain and trench effects are cumulative): pbem's reading
    /// of "any additional shifts are ignored" holds the sum at the edge, so shifts of both signs
    /// cancel before the edge is met rather than being taken one at a time.
    pub fn shifted(&self, column: usize, shift: i32) -> usize {
        let last = self.columns.len() as i64 - 1;
        (column as i64 + shift as i64).clamp(0, last) as usize
    }

    /// The loss number of a die (already clamped to 1..6) on a column.
    pub fn loss(&self, column: usize, die: u32) -> u32 {
        self.results[(die.clamp(1, 6) - 1) as usize][column]
    }

    /// The mean loss number of a column over the six faces, in sixths (to compare columns).
    pub fn mean6(&self, column: usize) -> u32 {
        (1..=6).map(|d| self.loss(column, d)).sum()
    }

    /// The heading of a column, as the table prints it: "4" or "0".
    pub fn heading(&self, column: usize) -> u32 {
        self.columns[column]
    }
}

/// The column shifts of a trench level.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrenchShift {
    pub level: u32,
    /// On the attacker's fire (negative: left).
    pub attacker: i32,
    /// On the defender's fire (positive: right, in his favour).
    pub defender: i32,
}

/// The Race to the Sea limit (11.1.9).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Race {
    pub power: String,
    pub spaces: Vec<String>,
    /// The war status from which the limit ends.
    pub war_status: u32,
}

/// What counts as entrenched at level 0 after a power's Entrench event (11.2.10, 11.2.11).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelZero {
    /// Spaces with an army of one of these nations.
    #[serde(default)]
    pub armies: Vec<String>,
    /// Spaces of these nations (the map's `nation`).
    #[serde(default)]
    pub nations: Vec<String>,
    /// Mountain spaces with an army of one of these nations.
    #[serde(default)]
    pub mountain_armies: Vec<String>,
}

/// A combat card as data (12.2.3, 12.2.5): what it gives and when it may be played.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// The id players write: `hurricane-barrage`.
    pub id: String,
    /// The card's name for reports.
    pub name: String,
    /// Whose card it is.
    pub power: String,
    /// Played by the attacker, the defender, or either.
    #[serde(default)]
    pub side: CardSide,
    #[serde(default)]
    pub drm: i32,
    /// Column shift on its player's fire (positive: right).
    #[serde(default)]
    pub shift: i32,
    /// It cancels every trench effect of the defending space (12.2.3).
    #[serde(default)]
    pub negates_trenches: bool,
    /// Its condition: units of one of these nations take part (empty: any).
    #[serde(default)]
    pub nations: Vec<String>,
    /// The exception of 12.2.10 (They Shall Not Pass): discarded only when its player loses the
    /// combat; on a tie it stays face up in front of him.
    #[serde(default)]
    pub kept_on_tie: bool,
    /// The rest of 12.2.10's exception: kept face up, it is discarded at the end of the game turn
    /// after the one in which it was played.
    #[serde(default)]
    pub until_next_turn: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CardSide {
    #[default]
    Either,
    Attacker,
    Defender,
}

impl Tables {
    /// Every inconsistency of the tables.
    pub fn validate(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let mut bad = |m: String| out.push(Diagnostic::error(m, 0..0));
        for (name, t) in [("army", &self.fire.army), ("corps", &self.fire.corps)] {
            if t.columns.is_empty() || t.columns.windows(2).any(|w| w[0] >= w[1]) {
                bad(format!(
                    "[fire.{name}] columns must be a list of increasing strengths"
                ));
            }
            if t.results.len() != 6 || t.results.iter().any(|r| r.len() != t.columns.len()) {
                bad(format!(
                    "[fire.{name}] results must be six rows (die 1 to 6) of one loss number per column"
                ));
            }
        }
        if self.stacking == 0 {
            bad("stacking must be at least 1".into());
        }
        if self.actions_per_turn == 0 {
            bad("actions_per_turn must be at least 1".into());
        }
        let shifts = self
            .terrain
            .values()
            .chain(self.trench.iter().flat_map(|t| [&t.attacker, &t.defender]));
        if shifts.into_iter().any(|s| s.abs() > 20) {
            bad("a column shift of [terrain] or [[trench]] is beyond 20 columns".into());
        }
        for level in 0..=2 {
            if !self.trench.iter().any(|t| t.level == level) {
                bad(format!("[[trench]] has no row for level {level}"));
            }
        }
        // PoG 11.2.12 gives level 0 its numbers itself (the Terrain Effects Chart gives the others).
        if self
            .trench
            .iter()
            .any(|t| t.level == 0 && (t.attacker != -1 || t.defender != 0))
        {
            bad("[[trench]] level 0 is attacker = -1, defender = 0: PoG 11.2.12 sets one column left on the attacker's fire and no shift for the defender".into());
        }
        let mut ids = std::collections::BTreeSet::new();
        for c in &self.cards {
            if c.id.is_empty()
                || !c
                    .id
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '-')
            {
                bad(format!("card id '{}' is not a plain word", c.id));
            }
            if !ids.insert(c.id.to_lowercase()) {
                bad(format!("card id '{}' is used twice", c.id));
            }
            if c.drm.abs() > 6 || c.shift.abs() > 20 {
                bad(format!(
                    "card '{}': a DRM is at most 6 and a shift at most 20 columns either way",
                    c.id
                ));
            }
        }
        out
    }

    /// The attacker's column shift of a terrain (none when tables.toml does not list it).
    pub fn terrain_shift(&self, terrain: Terrain) -> i32 {
        self.terrain.get(terrain.name()).copied().unwrap_or(0)
    }

    pub fn trench_shift(&self, level: u32) -> TrenchShift {
        self.trench
            .iter()
            .find(|t| t.level == level)
            .copied()
            .unwrap_or(TrenchShift {
                level,
                attacker: 0,
                defender: 0,
            })
    }

    pub fn card(&self, id: &str) -> Option<&Card> {
        self.cards.iter().find(|c| c.id.eq_ignore_ascii_case(id))
    }

    pub fn card_ids(&self) -> Vec<&str> {
        self.cards.iter().map(|c| c.id.as_str()).collect()
    }
}
