//! Detection on the strategic map (GITM 4.1): who sees which squares, and how a sighting of units
//! not actively allied is worded: an approximate and noisy count ("a division") and the branch
//! letters I, C, A, H, themselves only approximately right. The noise comes from sealed rolls
//! (`DiceBox::roll_sealed`): their faces would tell a side how wrong its scouts are.

use std::collections::BTreeSet;

use super::state::{Brigade, Kind};

/// How far an active unit detects units of its own side and active allies, and all others, in
/// squares (GITM 4.1): campaign 3 and 1 (army HQs 5 for friends, light cavalry 2 for others);
/// peace or truce 5 and 3 (army HQs 10 for friends).
pub fn ranges(kind: Kind, campaign: bool) -> (u32, u32) {
    match (campaign, kind) {
        (true, Kind::ArmyHq) => (5, 1),
        (true, Kind::LightCavalry) => (3, 2),
        (true, _) => (3, 1),
        (false, Kind::ArmyHq) => (10, 3),
        (false, _) => (5, 3),
    }
}

/// The count word of a sighting (GITM 4.1): "brigades" 2-3 (pbem: and a lone unit), "division" 3-5
/// (pbem: 4-5), "divisions" 6-8, "corps" 9 and more; beyond 14, about twelve units a corps.
pub fn count_word(n: u32) -> String {
    match n {
        0..=3 => "brigades".to_string(),
        4..=5 => "a division".to_string(),
        6..=8 => "divisions".to_string(),
        9..=17 => "a corps".to_string(),
        _ => format!("{} corps", (n + 6) / 12),
    }
}

/// The count as the scouts report it: the true count moved by a die (1: -2, 2: -1, 3-4: right,
/// 5: +1, 6: +2), never below one (pbem's noise for 4.1's "somewhat higher or lower").
pub fn noisy_count(n: u32, die: u32) -> u32 {
    let shift: i64 = match die {
        1 => -2,
        2 => -1,
        5 => 1,
        6 => 2,
        _ => 0,
    };
    (n as i64 + shift).max(1) as u32
}

/// The branch letters of a sighting, in the order I, C, A, H: those present, with the second die
/// of the sealed roll making them approximate (1: the last letter is missed; 6: artillery is seen
/// where there is none, or nothing more when there is).
pub fn letters(units: &[&Brigade], die: u32) -> String {
    let present: BTreeSet<usize> = units
        .iter()
        .map(|b| "ICAH".find(b.kind().branch().letter()).unwrap_or(0))
        .collect();
    let mut shown: Vec<usize> = present.iter().copied().collect();
    if die == 1 && shown.len() > 1 {
        shown.pop();
    }
    if die == 6 && !shown.contains(&2) {
        shown.push(2);
        shown.sort_unstable();
    }
    shown
        .into_iter()
        .map(|i| "ICAH".as_bytes()[i] as char)
        .collect()
}
