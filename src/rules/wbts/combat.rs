//! The WBTS ground combat procedure over a plain position: two forces, each with its leader, its
//! chit, its size and strength and the combat supply within its reach; the dice drawn in a fixed
//! order. [`fight`] runs it from the combat supply rolls to the strength points lost; the turn
//! (`turn.rs`) builds the forces from the board and applies what it gives (losses, retreats,
//! advance). Every step is a function of its own, named after the seed's procedure, so that the
//! tests read like the rules.
//!
//! The order: each side's combat supply roll (unless from march); the total intensity (both 0: a
//! contact, and nothing more); the odds column; the combat die; the better leader's shift by the
//! net of the two combat ratings, chosen by his policy after the roll, and his leader loss roll;
//! the result cell; each side's loss percentage turned into strength points on the attrition table,
//! doubled for a side without its supply and for a storming attacker.

use anyhow::Result;

use crate::engine::dice_box::DiceBox;
use crate::engine::event::Roll;

use super::board::{Board, Crossing};
use super::tables::{Cell, Tables};

/// The highest chit of all (WBTS ground/intensity).
pub const MAX_CHIT: u32 = 4;
/// The highest chit in an attack from march (WBTS march).
pub const MARCH_CHIT: u32 = 1;

/// The chit a side plays: what it chose, at most its leader's initiative (no leader: 0) and at most
/// 1 in an attack from march (WBTS ground/intensity, march).
pub fn cap_chit(chosen: u32, leader_initiative: Option<u32>, march: bool) -> u32 {
    let mut c = chosen.min(MAX_CHIT).min(leader_initiative.unwrap_or(0));
    if march {
        c = c.min(MARCH_CHIT);
    }
    c
}

/// Both chits 0 make a contact (WBTS ground/contact).
pub fn is_contact(attacker_chit: u32, defender_chit: u32) -> bool {
    attacker_chit + defender_chit == 0
}

/// The two sides of a combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Attacker,
    Defender,
}

impl Side {
    pub fn word(self) -> &'static str {
        match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// Who may shift the die, and by how many rows: the leader with the greater combat rating, by the
/// net of the two (a side without leader counts 0; equal ratings: nobody) (WBTS ground/shift).
pub fn net_shift(attacker: Option<u32>, defender: Option<u32>) -> Option<(Side, u32)> {
    let (a, d) = (attacker.unwrap_or(0), defender.unwrap_or(0));
    match a.cmp(&d) {
        std::cmp::Ordering::Greater => Some((Side::Attacker, a - d)),
        std::cmp::Ordering::Less => Some((Side::Defender, d - a)),
        std::cmp::Ordering::Equal => None,
    }
}

/// The results a die may be shifted to by `rows` rows either way, on the table's six rows: the
/// seed's example, a rating of 3 turns a roll of 3 into anything from 1 to 6.
pub fn shift_range(die: u32, rows: u32) -> std::ops::RangeInclusive<u32> {
    let die = die.clamp(1, 6);
    die.saturating_sub(rows).max(1)..=(die + rows).min(6)
}

/// How a leader who may shift the die uses it, decided before the roll and applied after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShiftPolicy {
    /// The row best for his side, the smallest shift among equals (`shift best`).
    Best,
    /// The best row at most `n` rows away (`shift <n>`).
    AtMost(u32),
    /// Never risk the leader: no shift (`risk never`, `shift none`).
    Never,
}

impl ShiftPolicy {
    pub fn parse(s: &str) -> Option<ShiftPolicy> {
        match s {
            "best" => Some(ShiftPolicy::Best),
            "none" | "never" => Some(ShiftPolicy::Never),
            n => n.parse::<u32>().ok().filter(|&n| n <= MAX_CHIT).map(|n| {
                if n == 0 {
                    ShiftPolicy::Never
                } else {
                    ShiftPolicy::AtMost(n)
                }
            }),
        }
    }

    fn rows(self, net: u32) -> u32 {
        match self {
            ShiftPolicy::Best => net,
            ShiftPolicy::AtMost(n) => n.min(net),
            ShiftPolicy::Never => 0,
        }
    }
}

impl std::fmt::Display for ShiftPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShiftPolicy::Best => f.write_str("best"),
            ShiftPolicy::AtMost(n) => write!(f, "{n}"),
            ShiftPolicy::Never => f.write_str("none"),
        }
    }
}

/// How good a cell is for `side`: the enemy's loss levels less its own, a retreat worth one level.
pub fn cell_value(cell: Cell, side: Side) -> i64 {
    let a = i64::from(cell.attacker) + i64::from(cell.attacker_retreats);
    let d = i64::from(cell.defender) + i64::from(cell.defender_retreats);
    match side {
        Side::Attacker => d - a,
        Side::Defender => a - d,
    }
}

/// The die the shifting leader makes of `die` on `column` under `policy`: the best row for his
/// side within reach, the nearest to the roll among equals (WBTS ground/shift).
pub fn choose_row(
    tables: &Tables,
    column: usize,
    die: u32,
    side: Side,
    net: u32,
    policy: ShiftPolicy,
) -> u32 {
    let rows = policy.rows(net);
    let die = die.clamp(1, 6);
    shift_range(die, rows)
        .map(|r| {
            (
                cell_value(tables.cell(column, r), side),
                -(r.abs_diff(die) as i64),
                r,
            )
        })
        .max()
        .map_or(die, |(_, _, r)| r)
}

/// Halving (river, march, no supply), rounding down; `round_up` for the ferry (WBTS ground/ferry).
pub fn halve(strength: u32, round_up: bool) -> u32 {
    if round_up {
        strength.div_ceil(2)
    } else {
        strength / 2
    }
}

/// The attack strength against `target` of units attacking from each of their hexes (`hexes`: a
/// hex, and each of its attackers as (cavalry, strength points)), with a note for each halving: the
/// one arithmetic of the resolver and of `check --forecast`. From march the non-cavalry of a hex
/// are halved, rounded down (WBTS march); then, unless it is a storm from the fort's own hex, a
/// hex's strength across a river is halved rounded down (WBTS ground/river), across a tidal river
/// at a ferry rounded up (ground/ferry): halving is per hex, not per unit.
pub fn attack_strength(
    board: &Board,
    hexes: &[(String, Vec<(bool, u32)>)],
    target: &str,
    march: bool,
    storm: bool,
) -> (u32, Vec<String>) {
    let mut total = 0;
    let mut notes = Vec::new();
    for (h, units) in hexes {
        let mut s: u32 = if march {
            let cav: u32 = units.iter().filter(|u| u.0).map(|u| u.1).sum();
            let rest: u32 = units.iter().filter(|u| !u.0).map(|u| u.1).sum();
            if rest > 0 {
                notes.push(format!(
                    "non-cavalry from march halved ({rest} to {}) (WBTS march)",
                    halve(rest, false)
                ));
            }
            cav + halve(rest, false)
        } else {
            units.iter().map(|u| u.1).sum()
        };
        if !storm {
            match board.crossing(h, target) {
                Crossing::River => {
                    notes.push(format!(
                        "across the river from {h}: {s} halved to {} (WBTS ground/river)",
                        halve(s, false)
                    ));
                    s = halve(s, false);
                }
                Crossing::Ferry => {
                    notes.push(format!("across the tidal river at the ferry from {h}: {s} halved to {} (WBTS ground/ferry)", halve(s, true)));
                    s = halve(s, true);
                }
                _ => {}
            }
        }
        total += s;
    }
    (total, notes)
}

/// WBTS fort/storm: a garrison of `size` strength points in a fort that doubles (or triples) up to
/// `capacity` of them: its defence strength.
pub fn storm_defence(size: u32, capacity: u32, multiple: u32) -> u32 {
    let inside = size.min(capacity);
    inside * multiple + (size - inside)
}

/// A commanding leader's ratings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commander {
    pub id: String,
    pub initiative: u32,
    pub combat: u32,
}

/// One side of a combat as the procedure sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Force {
    pub power: String,
    pub leader: Option<Commander>,
    /// The chit played, already capped ([`cap_chit`]).
    pub chit: u32,
    /// Strength points of the force: the size of the supply and attrition tables.
    pub size: u32,
    /// Combat strength after terrain, march and fort, before any halving for supply.
    pub strength: u32,
    /// Supply points within reach (in or next to the force's hexes).
    pub supply: u32,
    /// Whether it rolls for combat supply (not in an attack from march).
    pub rolls_supply: bool,
    pub shift: ShiftPolicy,
    /// Its losses are doubled whatever its supply (a storming attacker).
    pub losses_doubled: bool,
}

/// One side's combat supply roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupplyCheck {
    pub die: u32,
    pub cost: u32,
    /// Whether it had the points: it spends them and fights at full strength.
    pub paid: bool,
    pub roll: Roll,
}

/// The shift of the die by the better leader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shift {
    pub side: Side,
    pub leader: String,
    pub net: u32,
    pub from: u32,
    pub to: u32,
    /// The leader loss roll, when he shifted: its d6 and whether he is lost.
    pub loss: Option<(Roll, u32, bool)>,
}

/// What a combat came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub intensity: u32,
    pub contact: bool,
    /// Each side's supply roll (attacker, defender), when it rolled one.
    pub supply: [Option<SupplyCheck>; 2],
    /// Each side's combat strength after the supply halving.
    pub strength: [u32; 2],
    pub column: usize,
    pub die: Option<Roll>,
    pub shift: Option<Shift>,
    /// The row read, after any shift.
    pub row: u32,
    pub cell: Cell,
    /// Each side's loss percentage and the strength points it comes to.
    pub percent: [u32; 2],
    pub lost: [u32; 2],
    /// Whether each side's losses were doubled, and why.
    pub doubled: [u32; 2],
}

impl Outcome {
    pub fn supplied(&self, side: Side) -> bool {
        self.supply[side.index()].as_ref().is_none_or(|s| s.paid)
    }
}

/// Runs the combat procedure. Dice labels are `<label>/supply=attacker`, `…/supply=defender`,
/// `…/die` and `…/leader-loss`, each drawn only when the procedure needs it.
pub fn fight(
    tables: &Tables,
    attacker: &Force,
    defender: &Force,
    dice: &mut DiceBox,
    label: &str,
) -> Result<Outcome> {
    let forces = [attacker, defender];
    // WBTS ground/supply: each side rolls on the Combat Supply Table with its own chit.
    let mut supply: [Option<SupplyCheck>; 2] = [None, None];
    for (i, f) in forces.iter().enumerate() {
        if !f.rolls_supply {
            continue;
        }
        let side = [Side::Attacker, Side::Defender][i];
        let roll = dice.roll(&format!("{label}/supply={}", side.word()), &[6])?;
        let die = roll.dice[0].face;
        let cost = tables.supply_cost(f.size, f.chit, die);
        supply[i] = Some(SupplyCheck {
            die,
            cost,
            paid: f.supply >= cost,
            roll,
        });
    }
    let paid_by = [0, 1].map(|i| supply[i].as_ref().is_none_or(|s| s.paid));
    let paid = |i: usize| paid_by[i];
    // WBTS ground/no-supply: half strength.
    let strength = [0, 1].map(|i| {
        if paid(i) {
            forces[i].strength
        } else {
            halve(forces[i].strength, false)
        }
    });
    let intensity = attacker.chit + defender.chit;
    let column = tables.odds_column(strength[0], strength[1]);
    let mut out = Outcome {
        intensity,
        contact: is_contact(attacker.chit, defender.chit),
        supply,
        strength,
        column,
        die: None,
        shift: None,
        row: 0,
        cell: Cell::default(),
        percent: [0, 0],
        lost: [0, 0],
        doubled: [1, 1],
    };
    if out.contact {
        return Ok(out);
    }
    let roll = dice.roll(&format!("{label}/die"), &[6])?;
    let die = roll.dice[0].face;
    out.die = Some(roll);
    out.row = die;
    if let Some((side, net)) = net_shift(
        attacker.leader.as_ref().map(|l| l.combat),
        defender.leader.as_ref().map(|l| l.combat),
    ) {
        let f = forces[side.index()];
        if let Some(leader) = &f.leader {
            let to = choose_row(tables, column, die, side, net, f.shift);
            let loss = if to != die {
                // WBTS ground/leader-loss: the leader who shifted rolls for his life.
                let r = dice.roll(&format!("{label}/leader-loss"), &[6])?;
                let d = r.dice[0].face;
                Some((r, d, d >= tables.leader_lost_on(to.abs_diff(die))))
            } else {
                None
            };
            out.row = to;
            out.shift = Some(Shift {
                side,
                leader: leader.id.clone(),
                net,
                from: die,
                to,
                loss,
            });
        }
    }
    out.cell = tables.cell(column, out.row);
    let levels = [out.cell.attacker, out.cell.defender];
    for i in 0..2 {
        let f = forces[i];
        out.percent[i] = tables.percent(levels[i], intensity);
        let mut sp = tables.attrition(f.size, out.percent[i]);
        let mut times = 1;
        if !paid(i) {
            times *= 2;
        }
        if f.losses_doubled {
            times *= 2;
        }
        sp = sp.saturating_mul(times).min(f.size);
        out.doubled[i] = times;
        out.lost[i] = sp;
    }
    Ok(out)
}
