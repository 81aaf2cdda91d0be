//! Battle lines, frontage and squares (GITM 9.3-9.5): where each brigade of a side stands when a
//! combat begins, and how many of its men fit in the front line.

use std::collections::BTreeSet;

use super::dice::TacDice;
use super::event::TacEvent;
use super::map::Dir;
use super::unit::{Branch, Formation, Line, TacBrigade};

/// GITM 9.4: the front line of one direction of attack holds 6,000 spaces.
pub const SPACES_PER_DIRECTION: u32 = 6000;
/// GITM 9.4: spaces a man takes: infantry 1, cavalry 3, artillerist 8.
pub const SPACES_INFANTRY: u32 = 1;
pub const SPACES_CAVALRY: u32 = 3;
pub const SPACES_ARTILLERIST: u32 = 8;
/// GITM 9.4: an infantry or cavalry brigade counts 100 of its men as artillerists per battery.
pub const ARTILLERISTS_PER_BATTERY: u32 = 100;

/// GITM 9.4: the artillerists of a brigade of `men`: all of an artillery brigade, 100 a battery of
/// another.
pub fn artillerists(b: &TacBrigade, men: u32) -> u32 {
    match b.kind.branch() {
        Branch::Artillery => men,
        Branch::Headquarters => 0,
        _ => men.min(b.batteries.saturating_mul(ARTILLERISTS_PER_BATTERY)),
    }
}

/// GITM 9.4: the spaces `men` of brigade `b` take in a line: 3,000 infantry take 3,000; with a
/// battery, 3,700 (2,900 infantry and 100 artillerists at 8).
pub fn spaces(b: &TacBrigade, men: u32) -> u32 {
    let art = artillerists(b, men);
    let rest = men - art;
    let per = match b.kind.branch() {
        Branch::Cavalry => SPACES_CAVALRY,
        Branch::Headquarters => 0,
        _ => SPACES_INFANTRY,
    };
    rest.saturating_mul(per)
        .saturating_add(art.saturating_mul(SPACES_ARTILLERIST))
}

/// GITM 9.4: the length of the front line for attackers who came from `dirs`: 6,000 for each
/// direction, less 3,000 for each pair of adjacent directions (an added direction adjacent to one
/// other adds 3,000, adjacent to two adds none): north and east 12,000; north and northeast 9,000;
/// north, northeast and east 12,000. No direction counts as one.
pub fn frontage(dirs: &BTreeSet<Dir>) -> u32 {
    let n = dirs.len().max(1) as u32;
    let adjacent = dirs
        .iter()
        .flat_map(|a| dirs.iter().map(move |b| (a, b)))
        .filter(|(a, b)| a < b && a.apart(**b) == 1)
        .count() as u32;
    (SPACES_PER_DIRECTION * n).saturating_sub(SPACES_PER_DIRECTION / 2 * adjacent)
}

/// Where the men of one brigade stand (GITM 9.3, 9.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub id: String,
    pub line: Line,
    pub front: u32,
    pub second: u32,
    /// Men who fight from the rear line: the rear's own and the overflow of the lines before it.
    pub rear: u32,
}

/// GITM 9.3: the line each brigade of one side takes: the one it asked for, but at least one
/// brigade in the front line and one in the second if any is in the rear; when none asks, one is
/// drawn at random (`label/front`, `label/second`) and moved up.
pub fn assign_lines(
    side: &[&TacBrigade],
    dice: &mut dyn TacDice,
    label: &str,
    events: &mut Vec<TacEvent>,
) -> Vec<Line> {
    let mut lines: Vec<Line> = side.iter().map(|b| b.order.line).collect();
    if lines.is_empty() {
        return lines;
    }
    if !lines.contains(&Line::Front) {
        let l = format!("{label}/front");
        let pick = dice.die(&l, lines.len() as u32) as usize - 1;
        lines[pick] = Line::Front;
        events.push(
            TacEvent::new(
                "GITM 9.3",
                format!(
                    "no brigade of {} asked for the front line; {} drawn for it",
                    side[pick].side, side[pick].id
                ),
            )
            .unit(&side[pick].id)
            .roll(&l),
        );
    }
    let rear: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i] == Line::Rear)
        .collect();
    if !rear.is_empty() && !lines.contains(&Line::Second) {
        let l = format!("{label}/second");
        let pick = rear[dice.die(&l, rear.len() as u32) as usize - 1];
        lines[pick] = Line::Second;
        events.push(
            TacEvent::new(
                "GITM 9.3",
                format!(
                    "no brigade of {} in the second line before its rear; {} drawn for it",
                    side[pick].side, side[pick].id
                ),
            )
            .unit(&side[pick].id)
            .roll(&l),
        );
    }
    lines
}

/// GITM 9.4: the men of each brigade in the front, second and rear lines. When the brigades of a
/// line take more spaces than `frontage`, each puts in the same share of its men and the rest fight
/// from the rear; the second line has the same limit; the rear has none.
pub fn place(side: &[&TacBrigade], lines: &[Line], frontage: u32) -> Vec<Placed> {
    let mut placed: Vec<Placed> = side
        .iter()
        .zip(lines)
        .map(|(b, &line)| Placed {
            id: b.id.clone(),
            line,
            front: 0,
            second: 0,
            rear: if line == Line::Rear { b.men } else { 0 },
        })
        .collect();
    for line in [Line::Front, Line::Second] {
        let wanted: u64 = side
            .iter()
            .zip(lines)
            .filter(|(_, &l)| l == line)
            .map(|(b, _)| u64::from(spaces(b, b.men)))
            .sum();
        for (p, b) in placed.iter_mut().zip(side) {
            if p.line != line {
                continue;
            }
            let fit = if wanted <= u64::from(frontage) {
                b.men
            } else {
                (u64::from(b.men) * u64::from(frontage) / wanted) as u32
            };
            match line {
                Line::Front => p.front = fit,
                _ => p.second = fit,
            }
            p.rear += b.men - fit;
        }
    }
    placed
}

/// GITM 9.5: whether infantry facing `enemy_front` (brigades and their men in the front line) form
/// squares: when the enemy's front is mostly cavalry (more than half its men) and holds no infantry
/// brigade. The seed's sentence stops at "if the attacking enemy contains an infan"; pbem reads it
/// as "contains an infantry brigade in its front line".
pub fn forms_squares(enemy_front: &[(&TacBrigade, u32)]) -> bool {
    let total: u64 = enemy_front.iter().map(|(_, m)| u64::from(*m)).sum();
    let cavalry: u64 = enemy_front
        .iter()
        .filter(|(b, _)| b.kind.branch() == Branch::Cavalry)
        .map(|(_, m)| u64::from(*m))
        .sum();
    let infantry = enemy_front
        .iter()
        .any(|(b, m)| *m > 0 && b.kind.branch() == Branch::Infantry);
    total > 0 && cavalry * 2 > total && !infantry
}

/// GITM 9.5: the formation of an infantry brigade given [`forms_squares`]; others stay in line.
pub fn formation(b: &TacBrigade, squares: bool) -> Formation {
    if squares && b.kind.branch() == Branch::Infantry {
        Formation::Square
    } else {
        Formation::Line
    }
}
