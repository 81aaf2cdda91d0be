//! `tables.toml` of an EiA game: the land combat table, the tactical chit matrix, pursuit and
//! reinforcement. The published EiA land combat tables are not in the rules we hold (only the naval
//! charts of 19.1 are), so the bundled file ships a plausible table of our own, marked as such; a referee
//! replaces it with his. This module only reads and checks the file.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::diag::Diagnostic;

/// The whole `tables.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    /// Free text shown in reports: where the tables come from.
    pub source: String,
    pub combat: CombatTable,
    pub chits: ChitTable,
    pub pursuit: PursuitTable,
    pub reinforce: ReinforceTable,
    #[serde(default)]
    pub artillery: ArtilleryTable,
    #[serde(default)]
    pub siege: SiegeTable,
    #[serde(default)]
    pub naval: NavalTable,
    /// EiA 19.2.1, 14.3.1: the modifier of each major power's die roll for the control of a power whose
    /// player left (`[ump-control]`, power id = modifier); a power not listed rolls with 0.
    #[serde(default, rename = "ump-control")]
    pub ump_control: std::collections::BTreeMap<String, i32>,
}

/// The naval phase (EiA 6): movement, interception and evasion on our own tables, and the Tactical
/// Naval Combat Chart, the Closing to Melee table and the General Chase chart of EiA 19.1 as pbem reads
/// them (docs/rules/eia.md, "Naval combat: our reading of the chart").
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavalTable {
    /// Sea areas a fleet may enter in a turn.
    pub movement: u32,
    /// An interception attempt (6.2.3) succeeds on a d6 of at most this.
    pub intercept: u32,
    /// An evasion attempt (6.3.2) succeeds on a d6 of at most this.
    pub evade: u32,
    /// The chart: one entry per (attacker tactic, defender tactic).
    pub chart: Vec<NavalCell>,
    /// Closing to Melee: a melee fleet against a linear-attack or linear-defence fleet closes on a d6 of
    /// at most this, rolled after each round.
    pub closing: BTreeMap<String, u32>,
    /// General Chase: (the victor's morale loss up to, in tenths as "0.5"; the chase cell "X-Y": on a
    /// d6 of at most X the loser loses Y more ships).
    pub chase: Vec<(String, String)>,
}

/// One cell of the Tactical Naval Combat Chart: the results of each side's fire, per round, in three
/// columns for a modified die of 1-2, 3-4 and 5-6. A result "S-M" costs the enemy S ships and M morale;
/// "-" is no result.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavalCell {
    pub attacker_tactic: String,
    pub defender_tactic: String,
    /// Round by round, the attacker's fire: three results each.
    pub attacker: Vec<[String; 3]>,
    /// Round by round, the defender's fire.
    pub defender: Vec<[String; 3]>,
}

impl Default for NavalTable {
    /// The chart of EiA 19.1 as pbem reads it (the same as the bundled tables.toml).
    fn default() -> Self {
        let r = |v: [&str; 3]| v.map(str::to_string);
        let cell = |a: &str, d: &str, att: Vec<[String; 3]>, def: Vec<[String; 3]>| NavalCell {
            attacker_tactic: a.into(),
            defender_tactic: d.into(),
            attacker: att,
            defender: def,
        };
        let (m, la, ld) = ("melee", "linear-attack", "linear-defence");
        NavalTable {
            movement: 4,
            intercept: 3,
            evade: 3,
            chart: vec![
                cell(
                    m,
                    m,
                    vec![r(["1-1", "4-2", "5-2"])],
                    vec![r(["1-1", "4-2", "5-2"])],
                ),
                cell(
                    la,
                    m,
                    vec![r(["2-1", "3-2", "4-3"]), r(["-", "2-1", "2-1"])],
                    vec![r(["1-1", "1-1", "1-1"]), r(["-", "3-3", "4-4"])],
                ),
                cell(
                    ld,
                    m,
                    vec![r(["3-2", "4-2", "5-3"]), r(["-", "1-1", "1-1"])],
                    vec![r(["1-1", "1-1", "1-1"]), r(["-", "4-4", "4-4"])],
                ),
                cell(
                    m,
                    la,
                    vec![r(["1-1", "1-1", "1-1"]), r(["-", "3-3", "4-4"])],
                    vec![r(["2-1", "3-2", "4-3"]), r(["-", "2-1", "2-1"])],
                ),
                cell(
                    la,
                    la,
                    vec![r(["2-2", "3-2", "4-2"])],
                    vec![r(["2-2", "3-2", "4-2"])],
                ),
                cell(
                    ld,
                    la,
                    vec![r(["2-2", "3-2", "4-2"])],
                    vec![r(["1-2", "2-2", "3-3"])],
                ),
                cell(
                    m,
                    ld,
                    vec![r(["1-1", "1-1", "1-1"]), r(["-", "4-4", "4-4"])],
                    vec![r(["3-2", "4-2", "5-3"]), r(["-", "1-1", "1-1"])],
                ),
                cell(
                    la,
                    ld,
                    vec![r(["1-2", "2-2", "3-3"])],
                    vec![r(["2-2", "3-2", "4-2"])],
                ),
                cell(
                    ld,
                    ld,
                    vec![r(["1-1", "2-1", "3-1"])],
                    vec![r(["1-1", "2-1", "3-1"])],
                ),
            ],
            closing: BTreeMap::from([(la.to_string(), 4), (ld.to_string(), 3)]),
            chase: vec![
                ("0.5".into(), "5-1".into()),
                ("1.5".into(), "4-1".into()),
                ("2.5".into(), "3-1".into()),
                ("3.5".into(), "2-1".into()),
                ("999.9".into(), "1-1".into()),
            ],
        }
    }
}

/// A naval result: ships and morale (in tenths) the enemy loses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NavalResult {
    pub ships: u32,
    pub morale: i64,
}

/// Reads "S-M" (or "-").
pub fn parse_naval_result(cell: &str) -> Option<NavalResult> {
    let cell = cell.trim();
    if cell == "-" || cell == "–" {
        return Some(NavalResult::default());
    }
    let (s, m) = cell.split_once('-')?;
    Some(NavalResult {
        ships: s.trim().parse().ok()?,
        morale: m.trim().parse::<i64>().ok()? * 10,
    })
}

impl NavalTable {
    /// The chart cell for a pair of tactics.
    pub fn cell(&self, attacker: &str, defender: &str) -> Option<&NavalCell> {
        self.chart
            .iter()
            .find(|c| c.attacker_tactic == attacker && c.defender_tactic == defender)
    }

    /// The chase cell for the victor's morale loss (tenths): (at most this die, ships lost).
    pub fn chase_for(&self, morale_lost: i64) -> (u32, u32) {
        for (limit, cell) in &self.chase {
            let limit = limit
                .parse::<crate::rules::eia::state::Tenths>()
                .map_or(i64::MAX, |t| t.0);
            if morale_lost <= limit {
                if let Some((x, y)) = cell.split_once('-') {
                    return (x.trim().parse().unwrap_or(0), y.trim().parse().unwrap_or(0));
                }
            }
        }
        (0, 0)
    }

    fn validate(&self, out: &mut Vec<Diagnostic>) {
        const TACTICS: [&str; 3] = ["melee", "linear-attack", "linear-defence"];
        for a in TACTICS {
            for d in TACTICS {
                if self.cell(a, d).is_none() {
                    out.push(Diagnostic::error(
                        format!("[naval] chart has no cell for {a} against {d}"),
                        0..0,
                    ));
                }
            }
        }
        for c in &self.chart {
            for row in c.attacker.iter().chain(&c.defender) {
                for cell in row {
                    if parse_naval_result(cell).is_none() {
                        out.push(
                            Diagnostic::error(format!("'{cell}' is not a naval result"), 0..0)
                                .hint("write ships-morale, such as \"3-2\", or \"-\""),
                        );
                    }
                }
            }
            if c.attacker.is_empty() || c.attacker.len() != c.defender.len() {
                out.push(Diagnostic::error(
                    format!(
                        "the cell {} against {} needs as many rounds for each side",
                        c.attacker_tactic, c.defender_tactic
                    ),
                    0..0,
                ));
            }
        }
    }
}

/// Artillery fire before each round (EiA 7.5.2.8): each side with artillery rolls a d6 and hits on at
/// most its artillery factors (capped); a hit costs the enemy factors and morale. Our own table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryTable {
    /// The most a die can need, however many artillery factors fire.
    pub max_hit: u32,
    /// Factors the enemy loses on a hit.
    pub factors: u32,
    /// Morale the enemy loses on a hit, in tenths (`"0.2"`).
    pub morale: String,
}

impl Default for ArtilleryTable {
    fn default() -> Self {
        ArtilleryTable {
            max_hit: 4,
            factors: 1,
            morale: "0.2".into(),
        }
    }
}

/// Sieges (EiA 7.5.4): the besieger breaches the walls on a d6, plus one if he has twice the
/// garrison's factors, of at least `breach` plus the fortress level. Our own table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiegeTable {
    pub breach: u32,
    /// Powers that never ask for the honours of war (EiA 7.5.4.1.2.3.1 names the Turks and Spanish).
    pub no_honours: Vec<String>,
}

impl Default for SiegeTable {
    fn default() -> Self {
        SiegeTable {
            breach: 4,
            no_honours: vec!["turkey".into(), "spain".into()],
        }
    }
}

/// One round of land combat: each side rolls a die, modified, and reads a column chosen by its own
/// strength. The result is what it inflicts on the enemy: factors lost and morale lost.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatTable {
    /// Rounds in a day of combat; a side whose morale reaches zero breaks before that.
    pub rounds: u32,
    /// The highest factor count of each column but the last, ascending; the last column takes the rest.
    pub columns: Vec<u32>,
    /// Rows for modified die 1, 2, ...; each row has one cell per column, written `"factors/morale"`,
    /// for example `"2/0.4"`. The modified die is clamped to the rows there are.
    pub results: Vec<Spanned<Vec<Spanned<String>>>>,
    /// Die modifier per point of difference between the commanders' ratings, clamped to this much.
    pub max_leader_drm: i32,
    /// The most days a battle can last when the attacker fights on (EiA 19.1, third interrupt).
    #[serde(default = "three")]
    pub days: u32,
}

fn three() -> u32 {
    3
}

/// The tactical chits: which the attacker and the defender may choose, and what each pair does.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChitTable {
    pub attack: Vec<String>,
    pub defence: Vec<String>,
    /// For each attack chit, one cell per defence chit, in the order of `defence`: `"+1/-1"` is the
    /// attacker's die modifier, then the defender's.
    pub matrix: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
}

/// Pursuit after combat (EiA 7.5.2.10.2): the victor rolls a die, modified by his cavalry advantage.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PursuitTable {
    /// Extra factors the loser loses, for modified die 1, 2, ... (clamped to the list).
    pub losses: Vec<u32>,
    /// Victor's mounted factors minus the loser's, divided by this, is the die modifier...
    pub cavalry_per_drm: u32,
    /// ...clamped to plus or minus this.
    pub max_drm: i32,
}

/// Reinforcement attempts (EiA 7.5.2.11): a corps in an adjacent area marches to the battle on a die
/// roll of at most the best rating of the leaders with it, or `no_leader` without one.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReinforceTable {
    pub no_leader: u32,
}

/// A combat result cell: factors lost by the enemy and morale lost by the enemy, in tenths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CombatResult {
    pub factors: u32,
    pub morale: i64,
}

impl Tables {
    /// Checks what serde cannot: cell syntax, row widths, chit names.
    pub fn validate(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let width = self.combat.columns.len() + 1;
        if self.combat.columns.windows(2).any(|w| w[0] >= w[1]) {
            out.push(Diagnostic::error("combat columns must ascend", 0..0));
        }
        if self.combat.results.is_empty() {
            out.push(Diagnostic::error("the combat table has no rows", 0..0));
        }
        for row in &self.combat.results {
            if row.get_ref().len() != width {
                out.push(
                    Diagnostic::error(
                        format!(
                            "this row has {} cells, the table has {width} columns",
                            row.get_ref().len()
                        ),
                        row.span(),
                    )
                    .hint("one cell per column: one more than the list of column limits"),
                );
            }
            for cell in row.get_ref() {
                if parse_result(cell.get_ref()).is_none() {
                    out.push(
                        Diagnostic::error(
                            format!("'{}' is not a combat result", cell.get_ref()),
                            cell.span(),
                        )
                        .hint("write factors lost and morale lost as \"2/0.4\""),
                    );
                }
            }
        }
        for chit in self.chits.attack.iter().chain(&self.chits.defence) {
            if chit.is_empty() || !chit.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                out.push(
                    Diagnostic::error(format!("chit name '{chit}' is not a plain word"), 0..0)
                        .hint("chit names are written in orders: ASCII letters, digits and '-'"),
                );
            }
        }
        for (chit, row) in &self.chits.matrix {
            if !self.chits.attack.contains(chit) {
                out.push(Diagnostic::error(
                    format!("'{chit}' is not an attack chit"),
                    row.span(),
                ));
            }
            if row.get_ref().len() != self.chits.defence.len() {
                out.push(Diagnostic::error("one cell per defence chit", row.span()));
            }
            for cell in row.get_ref() {
                if parse_drm_pair(cell.get_ref()).is_none() {
                    out.push(
                        Diagnostic::error(
                            format!("'{}' is not a pair of modifiers", cell.get_ref()),
                            cell.span(),
                        )
                        .hint("write the attacker's then the defender's modifier: \"+1/-1\""),
                    );
                }
            }
        }
        for chit in &self.chits.attack {
            if !self.chits.matrix.contains_key(chit) {
                out.push(Diagnostic::error(
                    format!("attack chit '{chit}' has no row in [chits.matrix]"),
                    0..0,
                ));
            }
        }
        if self
            .artillery
            .morale
            .parse::<crate::rules::eia::state::Tenths>()
            .is_err()
        {
            out.push(Diagnostic::error(
                "[artillery] morale is not a number with one decimal",
                0..0,
            ));
        }
        if self.combat.days == 0 || self.combat.rounds == 0 {
            out.push(Diagnostic::error(
                "a battle needs at least one day of at least one round",
                0..0,
            ));
        }
        self.naval.validate(&mut out);
        if self.pursuit.losses.is_empty() || self.pursuit.cavalry_per_drm == 0 {
            out.push(Diagnostic::error(
                "pursuit needs losses and a non-zero cavalry_per_drm",
                0..0,
            ));
        }
        out
    }

    /// Morale lost to an artillery hit, in tenths.
    pub fn artillery_morale(&self) -> i64 {
        self.artillery
            .morale
            .parse::<crate::rules::eia::state::Tenths>()
            .map_or(0, |t| t.0)
    }

    /// The column of a side with `factors` strength points.
    pub fn column(&self, factors: u32) -> usize {
        self.combat
            .columns
            .iter()
            .position(|&max| factors <= max)
            .unwrap_or(self.combat.columns.len())
    }

    /// The result for a modified die (clamped to the table) and a column.
    pub fn result(&self, modified_die: i32, column: usize) -> CombatResult {
        let rows = &self.combat.results;
        let row = (modified_die.clamp(1, rows.len() as i32) - 1) as usize;
        parse_result(rows[row].get_ref()[column].get_ref()).expect("validated at load")
    }

    /// The modifiers (attacker, defender) of a pair of chits.
    pub fn chit_drm(&self, attack: &str, defence: &str) -> (i32, i32) {
        let col = self
            .chits
            .defence
            .iter()
            .position(|c| c == defence)
            .expect("validated chit");
        parse_drm_pair(self.chits.matrix[attack].get_ref()[col].get_ref())
            .expect("validated at load")
    }
}

fn parse_result(cell: &str) -> Option<CombatResult> {
    let (f, m) = cell.split_once('/')?;
    let morale: crate::rules::eia::state::Tenths = m.parse().ok()?;
    Some(CombatResult {
        factors: f.trim().parse().ok()?,
        morale: morale.0,
    })
}

fn parse_drm_pair(cell: &str) -> Option<(i32, i32)> {
    let (a, d) = cell.split_once('/')?;
    Some((a.trim().parse().ok()?, d.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse() {
        assert_eq!(
            parse_result("2/0.4"),
            Some(CombatResult {
                factors: 2,
                morale: 4
            })
        );
        assert_eq!(parse_result("x"), None);
        assert_eq!(parse_drm_pair("+1/-1"), Some((1, -1)));
    }
}
