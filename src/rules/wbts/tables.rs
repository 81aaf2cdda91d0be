//! `tables.toml` of a War Between the States game. The seed names the tables of its procedures
//! (combat initiative, results, Combat Supply, Combat Attrition, leader loss, naval transit) and
//! prints none: the bundled ones are pbem's own, plausible tables, stated as such in docs/rules/wbts.md and
//! in the scenario's file, so that a referee who owns the game types the publisher's in.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::diag::Diagnostic;

/// The parsed tables.toml.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    pub initiative: Initiative,
    pub leader_loss: LeaderLoss,
    /// The Combat Supply Table, one row per force size (increasing `least`).
    pub combat_supply: Vec<SupplyRow>,
    pub results: Results,
    /// Percentage lost per loss level, by the total intensity (1 to 8).
    pub loss_percent: Vec<u32>,
    pub attrition: Attrition,
    pub naval_transit: NavalTransit,
    /// The Naval Combat Results Table: odds columns and six rows of cells `"<a>/<d>"`, the ships
    /// each side loses.
    pub naval_combat: Results,
    /// The total intensity at which a naval attack on a fort reads the results table's loss levels
    /// (the seed gives the attack no chits: pbem's reading).
    pub naval_attack_intensity: u32,
    /// Movement points to enter a hex, by terrain word; a terrain not listed costs 1.
    #[serde(default)]
    pub move_cost: BTreeMap<String, u32>,
    /// Movement points more to cross a river hexside (a bridge or a road cancels it).
    #[serde(default)]
    pub river_cost: u32,
}

/// The combat initiative roll: a d6 at most `pass_at_most[rating]` passes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Initiative {
    pub pass_at_most: Vec<u32>,
}

/// Leader loss: a leader who shifted the die by n rows is lost on a d6 of `lost_on[n - 1]` or more
/// (beyond the list, its last entry; 7 never).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderLoss {
    pub lost_on: Vec<u32>,
}

/// One row of the Combat Supply Table: forces of at least `least` strength points; four columns
/// (chit 0 or 1, 2, 3, 4) of six costs in supply points (die 1 to 6).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupplyRow {
    pub least: u32,
    pub cost: Vec<Vec<u32>>,
}

/// The combat results: odds columns (attacker to defender, `[a, d]` each, increasing) and six rows
/// (die 1 to 6) of cells `"<a>[r]/<d>[r]"`: the loss levels of attacker and defender, `r` a retreat.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Results {
    pub odds: Vec<[u32; 2]>,
    pub rows: Vec<Vec<String>>,
}

/// One cell of the results table, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cell {
    pub attacker: u32,
    pub attacker_retreats: bool,
    pub defender: u32,
    pub defender_retreats: bool,
}

impl Cell {
    /// Reads `"1/2r"`.
    pub fn parse(text: &str) -> Option<Cell> {
        let (a, d) = text.trim().split_once('/')?;
        let side = |s: &str| -> Option<(u32, bool)> {
            let (n, r) = match s.strip_suffix('r') {
                Some(n) => (n, true),
                None => (s, false),
            };
            Some((n.parse().ok().filter(|&n: &u32| n <= 9)?, r))
        };
        let (attacker, attacker_retreats) = side(a)?;
        let (defender, defender_retreats) = side(d)?;
        Some(Cell {
            attacker,
            attacker_retreats,
            defender,
            defender_retreats,
        })
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = |b: bool| if b { "r" } else { "" };
        write!(
            f,
            "{}{}/{}{}",
            self.attacker,
            r(self.attacker_retreats),
            self.defender,
            r(self.defender_retreats)
        )
    }
}

/// The Combat Attrition Table: percentage columns (increasing) and rows by force size.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attrition {
    pub percents: Vec<u32>,
    pub rows: Vec<AttritionRow>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttritionRow {
    pub least: u32,
    pub losses: Vec<u32>,
}

/// The naval transit table: six results (die 1 to 6) each, past a fort and past a fortress:
/// `pass`, `back` (turned back: the ship stops before the hexside) or `sunk`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavalTransit {
    pub fort: Vec<String>,
    pub fortress: Vec<String>,
}

/// What a naval transit attack does to a ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transit {
    Pass,
    Back,
    Sunk,
}

impl Transit {
    pub fn parse(s: &str) -> Option<Transit> {
        match s {
            "pass" => Some(Transit::Pass),
            "back" => Some(Transit::Back),
            "sunk" => Some(Transit::Sunk),
            _ => None,
        }
    }
}

impl Tables {
    /// Every inconsistency of the tables.
    pub fn validate(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let mut bad = |m: String| out.push(Diagnostic::error(m, 0..0));
        if self.initiative.pass_at_most.is_empty() {
            bad("[initiative] pass_at_most needs one entry per rating, from 0".into());
        }
        if self.leader_loss.lost_on.is_empty() {
            bad("[leader_loss] lost_on needs one entry per row shifted, from 1".into());
        }
        if self.combat_supply.is_empty()
            || self
                .combat_supply
                .windows(2)
                .any(|w| w[0].least >= w[1].least)
        {
            bad("[[combat_supply]] rows must be given by increasing `least` size".into());
        }
        for r in &self.combat_supply {
            if r.cost.len() != 4 || r.cost.iter().any(|c| c.len() != 6) {
                bad(format!(
                    "[[combat_supply]] row of least {}: `cost` is four columns (chit 0-1, 2, 3, 4) of six costs (die 1 to 6)",
                    r.least
                ));
            }
        }
        let odds = &self.results.odds;
        if odds.is_empty()
            || odds.iter().any(|o| o[0] == 0 || o[1] == 0)
            || odds.windows(2).any(|w| !increasing(w[0], w[1]))
        {
            bad(
                "[results] odds must be increasing ratios [attacker, defender] of numbers above 0"
                    .into(),
            );
        }
        if self.results.rows.len() != 6 || self.results.rows.iter().any(|r| r.len() != odds.len()) {
            bad("[results] rows must be six rows (die 1 to 6) of one cell per odds column".into());
        }
        for c in self.results.rows.iter().flatten() {
            if Cell::parse(c).is_none() {
                bad(format!(
                    "[results] cell '{c}' is not '<attacker>[r]/<defender>[r]' (as '1/2r')"
                ));
            }
        }
        if self.loss_percent.len() != 8 || self.loss_percent.iter().any(|&p| p > 100) {
            bad("loss_percent must be eight percentages (total intensity 1 to 8)".into());
        }
        let a = &self.attrition;
        if a.percents.is_empty() || a.percents.windows(2).any(|w| w[0] >= w[1]) {
            bad("[attrition] percents must be increasing".into());
        }
        if a.rows.is_empty() || a.rows.windows(2).any(|w| w[0].least >= w[1].least) {
            bad("[[attrition.rows]] must be given by increasing `least` size".into());
        }
        if a.rows.iter().any(|r| r.losses.len() != a.percents.len()) {
            bad("[[attrition.rows]] losses must give one number per percentage column".into());
        }
        let n = &self.naval_combat;
        if n.odds.is_empty()
            || n.odds.iter().any(|o| o[0] == 0 || o[1] == 0)
            || n.odds.windows(2).any(|w| !increasing(w[0], w[1]))
            || n.rows.len() != 6
            || n.rows.iter().any(|r| r.len() != n.odds.len())
            || n.rows.iter().flatten().any(|c| Cell::parse(c).is_none())
        {
            bad("[naval_combat] is increasing odds and six rows (die 1 to 6) of '<a>/<d>' cells, one per column".into());
        }
        if !(1..=8).contains(&self.naval_attack_intensity) {
            bad("naval_attack_intensity is a total intensity from 1 to 8".into());
        }
        for (name, t) in [
            ("fort", &self.naval_transit.fort),
            ("fortress", &self.naval_transit.fortress),
        ] {
            if t.len() != 6 || t.iter().any(|s| Transit::parse(s).is_none()) {
                bad(format!(
                    "[naval_transit] {name} must be six results (die 1 to 6) of pass, back or sunk"
                ));
            }
        }
        out
    }

    /// Whether a leader of initiative `rating` passes his combat initiative roll with `die`.
    pub fn initiative_passes(&self, rating: u32, die: u32) -> bool {
        let t = &self.initiative.pass_at_most;
        let at_most = t.get(rating as usize).or(t.last()).copied().unwrap_or(0);
        die <= at_most
    }

    /// The least d6 that loses a leader who shifted the die by `rows` rows (7: never).
    pub fn leader_lost_on(&self, rows: u32) -> u32 {
        let t = &self.leader_loss.lost_on;
        let i = (rows.max(1) - 1) as usize;
        t.get(i).or(t.last()).copied().unwrap_or(7)
    }

    /// The supply points a force of `size` owes at chit `chit` on `die` (0 and 1 share a column).
    pub fn supply_cost(&self, size: u32, chit: u32, die: u32) -> u32 {
        let Some(row) = self
            .combat_supply
            .iter()
            .rev()
            .find(|r| size >= r.least)
            .or(self.combat_supply.first())
        else {
            return 0;
        };
        let col = chit.saturating_sub(1).min(3) as usize;
        row.cost[col][(die.clamp(1, 6) - 1) as usize]
    }

    /// The odds column of `attack` against `defence`: the last whose ratio the attack reaches (the
    /// first when it reaches none; the last against no defence).
    pub fn odds_column(&self, attack: u32, defence: u32) -> usize {
        column(&self.results.odds, attack, defence)
    }

    /// "3:2".
    pub fn odds_name(&self, column: usize) -> String {
        let o = self.results.odds[column];
        format!("{}:{}", o[0], o[1])
    }

    /// The cell of a column on a die (clamped to 1..6).
    pub fn cell(&self, column: usize, die: u32) -> Cell {
        self.results.rows[(die.clamp(1, 6) - 1) as usize]
            .get(column)
            .and_then(|c| Cell::parse(c))
            .unwrap_or_default()
    }

    /// The percentage a loss level costs at a total intensity (1 to 8; 0 costs nothing).
    pub fn percent(&self, level: u32, intensity: u32) -> u32 {
        if intensity == 0 {
            return 0;
        }
        let per = self
            .loss_percent
            .get((intensity.min(8) - 1) as usize)
            .copied()
            .unwrap_or(0);
        (level * per).min(100)
    }

    /// The strength points a force of `size` loses for `percent` on the Combat Attrition Table (the
    /// last column reached; none below the first), at most its size.
    pub fn attrition(&self, size: u32, percent: u32) -> u32 {
        let a = &self.attrition;
        let Some(col) = a.percents.iter().rposition(|&p| percent >= p) else {
            return 0;
        };
        let Some(row) = a.rows.iter().rev().find(|r| size >= r.least) else {
            return 0;
        };
        row.losses[col].min(size)
    }

    /// The naval transit result past a fort (or a fortress) on `die`.
    pub fn transit(&self, fortress: bool, die: u32) -> Transit {
        let t = if fortress {
            &self.naval_transit.fortress
        } else {
            &self.naval_transit.fort
        };
        t.get((die.clamp(1, 6) - 1) as usize)
            .and_then(|s| Transit::parse(s))
            .unwrap_or(Transit::Pass)
    }

    /// The column of the Naval Combat Results Table of `attack` against `defence`.
    pub fn naval_column(&self, attack: u32, defence: u32) -> usize {
        column(&self.naval_combat.odds, attack, defence)
    }

    pub fn naval_odds_name(&self, column: usize) -> String {
        let o = self.naval_combat.odds[column];
        format!("{}:{}", o[0], o[1])
    }

    /// The naval cell of a column on a die: the ships each side loses.
    pub fn naval_cell(&self, column: usize, die: u32) -> Cell {
        self.naval_combat.rows[(die.clamp(1, 6) - 1) as usize]
            .get(column)
            .and_then(|c| Cell::parse(c))
            .unwrap_or_default()
    }

    /// Movement points to enter a hex of `terrain`.
    pub fn move_cost(&self, terrain: &str) -> u32 {
        self.move_cost.get(terrain).copied().unwrap_or(1)
    }
}

/// The last odds column `attack` reaches against `defence` (the first when it reaches none; the last
/// against no defence).
fn column(odds: &[[u32; 2]], attack: u32, defence: u32) -> usize {
    if defence == 0 {
        return odds.len().saturating_sub(1);
    }
    odds.iter()
        .rposition(|o| u64::from(attack) * u64::from(o[1]) >= u64::from(defence) * u64::from(o[0]))
        .unwrap_or(0)
}

/// Whether the odds `b` are higher than `a` (products in 64 bits: no table can overflow them).
fn increasing(a: [u32; 2], b: [u32; 2]) -> bool {
    u64::from(a[0]) * u64::from(b[1]) < u64::from(b[0]) * u64::from(a[1])
}
