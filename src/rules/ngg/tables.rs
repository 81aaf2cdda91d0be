//! `tables.toml` of a Napoleon's Greatest Gamble game: pbem's own minimal rules for what the seed
//! (NGG 10.1-10.9) does not print: the command chits of each side per turn, movement and force march
//! allowances, and a combat results table. A referee who owns the game types the published numbers in.
//!
//! ```toml
//! movement = 2          # hexes per turn
//! force_march = 1       # more hexes under a force march marker
//! [chits]               # command chits per turn
//! french = 6
//! russian = 4
//! [places]              # names players may write for hexes
//! Smolensk = "0905"
//! [combat]
//! columns = ["1:2", "1:1", "3:2", "2:1", "3:1"]
//! results = [["ad", "ad", "nr", "nr", "dd"], ...]   # six rows, die 1 to 6
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::diag::Diagnostic;

/// The parsed tables.toml.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    /// Hexes a unit moves in a turn.
    pub movement: u32,
    /// Hexes more under a force march marker.
    pub force_march: u32,
    /// Command chits (CCs) of each power per turn.
    pub chits: BTreeMap<String, u32>,
    /// Names of hexes players may write instead of their ids (`Smolensk` for `0905`).
    #[serde(default)]
    pub places: BTreeMap<String, String>,
    pub combat: CombatTable,
}

/// pbem's combat results table: columns of odds, and a result per die 1..6 and column.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatTable {
    /// Odds columns, increasing: `"1:2"`, `"3:2"`.
    pub columns: Vec<String>,
    /// Six rows, die 1 to 6, each one result per column.
    pub results: Vec<Vec<Outcome>>,
}

/// One result of the combat table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The attacking units and the attacker's supporting stacks are disrupted.
    Ad,
    /// No result.
    Nr,
    /// Exchange: each side's largest unit of the attacking and of the defending stack loses 1 SP.
    Ex,
    /// The defending stack is disrupted.
    Dd,
    /// The defending stack loses 1 SP, is disrupted and retreats one hex.
    Dr,
}

impl Outcome {
    pub fn describe(self) -> &'static str {
        match self {
            Outcome::Ad => "AD, the attackers are disrupted",
            Outcome::Nr => "NR, no result",
            Outcome::Ex => "EX, each side loses 1 SP",
            Outcome::Dd => "DD, the defenders are disrupted",
            Outcome::Dr => "DR, the defenders lose 1 SP, are disrupted and retreat",
        }
    }
}

/// Reads `"3:2"` as (3, 2).
fn ratio(text: &str) -> Option<(u32, u32)> {
    let (a, b) = text.split_once(':')?;
    let (a, b): (u32, u32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    (a > 0 && b > 0 && a <= 100 && b <= 100).then_some((a, b))
}

impl CombatTable {
    /// The column of `attack` against `defence`: the last whose odds the strengths reach (the first
    /// when they reach none; the last against a defence of 0).
    pub fn column(&self, attack: u32, defence: u32) -> usize {
        self.columns
            .iter()
            .rposition(|c| {
                ratio(c).is_some_and(|(a, d)| {
                    u64::from(attack) * u64::from(d) >= u64::from(a) * u64::from(defence)
                })
            })
            .unwrap_or(0)
    }

    /// The result of a die on a column.
    pub fn result(&self, column: usize, die: u32) -> Outcome {
        self.results[(die.clamp(1, 6) - 1) as usize][column]
    }
}

impl Tables {
    /// Every inconsistency of the tables.
    pub fn validate(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let mut bad = |m: String| out.push(Diagnostic::error(m, 0..0));
        let odds: Vec<Option<(u32, u32)>> = self.combat.columns.iter().map(|c| ratio(c)).collect();
        if odds.is_empty() || odds.iter().any(Option::is_none) {
            bad("[combat] columns must be odds like \"3:2\" (1 to 100 each side)".into());
        } else if odds.windows(2).any(|w| {
            let ((a, b), (c, d)) = (w[0].unwrap_or((1, 1)), w[1].unwrap_or((1, 1)));
            u64::from(a) * u64::from(d) >= u64::from(c) * u64::from(b)
        }) {
            bad("[combat] columns must be increasing odds".into());
        }
        if self.combat.results.len() != 6
            || self
                .combat
                .results
                .iter()
                .any(|r| r.len() != self.combat.columns.len())
        {
            bad("[combat] results must be six rows (die 1 to 6) of one result per column".into());
        }
        if self.movement > 20 || self.force_march > 20 {
            bad("movement and force_march are at most 20 hexes".into());
        }
        if self.chits.values().any(|&c| c > 99) {
            bad("[chits] are at most 99 per turn".into());
        }
        for (name, hex) in &self.places {
            if name.is_empty() || name.chars().all(|c| c.is_ascii_digit()) || hex.is_empty() {
                bad(format!(
                    "[places] '{name}': a place is a name with a letter, for a hex id"
                ));
            }
        }
        out
    }

    /// The command chits of `power` per turn (none when tables.toml does not list it).
    pub fn chits_of(&self, power: &str) -> u32 {
        self.chits.get(power).copied().unwrap_or(0)
    }

    /// The hex a place name stands for.
    pub fn place(&self, name: &str) -> Option<&str> {
        self.places
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, h)| h.as_str())
    }

    /// The name of a hex, when it has one.
    pub fn name_of(&self, hex: &str) -> Option<&str> {
        self.places
            .iter()
            .find(|(_, h)| h.eq_ignore_ascii_case(hex))
            .map(|(n, _)| n.as_str())
    }
}
