//! Communications (GITM 7.2: a unit not in communications moves a square less; the seed sends the
//! rest to its rule 10, which it does not hold). pbem's reading (`rules::PBEM_COMMUNICATIONS`): a
//! unit is in communications when it stands in a square its own state or a state actively allied to
//! it holds (`[control]`), or when a way of at most [`COMMUNICATIONS_REACH`] strategic steps leads
//! from its square to one, through passable squares (1.2, 7.4's closed diagonals, never the Ottoman
//! Empire's, 7.15) where no active combat unit hostile to it stands, that one included (the sample
//! status report's "Communications: FR1CQ" names a headquarters: pbem traces to the state's soil, so
//! that a cut line is what counts). It is read once a turn, in the supply phase, from the position
//! then; the same function serves `check --forecast`.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::game::map::grid::Square;
use crate::game::map::{GridMap, Topology};
use crate::game::state::{Relation, State};

use super::state::{impassable, GitmState, OTTOMAN};

/// pbem's reach of a line of communications, in strategic squares (the seed's 10 is missing).
pub const COMMUNICATIONS_REACH: usize = 5;

/// GITM 7.2 by pbem's reading: whether brigade `i` of `g` is in communications. A unit whose square
/// the map cannot read is in communications (the state check refuses it first).
pub fn in_communications(map: &GridMap, state: &State, g: &GitmState, i: usize) -> bool {
    let Some(b) = g.brigades.get(i) else {
        return true;
    };
    let Ok(start) = map.parse_place(b.square()) else {
        return true;
    };
    let power = b.power();
    let own_soil = |sq: Square| {
        state
            .control
            .get(&map.place_name(sq))
            .is_some_and(|o| state.relation(power, o) == Relation::Allied)
    };
    if own_soil(start) {
        return true;
    }
    // The squares held by an active combat unit hostile to the unit: no line runs through them.
    let cut: BTreeSet<Square> = g
        .brigades
        .iter()
        .filter(|o| {
            !o.inactive
                && !o.shattered
                && !o.kind().is_hq()
                && state.relation(power, o.power()) == Relation::Hostile
        })
        .filter_map(|o| map.parse_place(o.square()).ok())
        .collect();
    let open = |sq: Square| {
        !impassable(map, sq)
            && !cut.contains(&sq)
            && !state
                .control
                .get(&map.place_name(sq))
                .is_some_and(|o| o.eq_ignore_ascii_case(OTTOMAN))
    };
    let mut steps: BTreeMap<Square, usize> = BTreeMap::from([(start, 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(sq) = queue.pop_front() {
        let n = steps[&sq];
        if n == COMMUNICATIONS_REACH {
            continue;
        }
        for next in map.neighbours(sq) {
            if steps.contains_key(&next) || !open(next) {
                continue;
            }
            if own_soil(next) {
                return true;
            }
            steps.insert(next, n + 1);
            queue.push_back(next);
        }
    }
    false
}
