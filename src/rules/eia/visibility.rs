//! What a power can see in EiA play by mail: the areas where it has a unit, and the areas adjacent to
//! them. The rules we hold fix no fog of war; this is pbem's default for hidden play.

use std::collections::BTreeSet;

use crate::game::map::Map;
use crate::game::state::State;

/// The areas `power` sees in `state`.
pub fn visible_areas(map: &Map, state: &State, power: &str) -> BTreeSet<usize> {
    let own = state
        .corps
        .iter()
        .filter(|c| c.power.get_ref() == power)
        .map(|c| c.area.get_ref())
        .chain(
            state
                .leaders
                .iter()
                .filter(|l| l.power.get_ref() == power)
                .map(|l| l.area.get_ref()),
        )
        .chain(
            state
                .fleets
                .iter()
                .filter(|f| f.power.get_ref() == power)
                .map(|f| f.area.get_ref()),
        );
    let mut seen = BTreeSet::new();
    for a in own {
        if let Some(i) = map.find(a) {
            seen.insert(i);
            seen.extend(map.area(i).adjacent.iter().copied());
        }
    }
    seen
}

/// The powers that see area `i` when their units stand on `positions` (power, area index).
pub fn watchers(map: &Map, positions: &[(String, usize)], area: usize) -> BTreeSet<String> {
    positions
        .iter()
        .filter(|(_, a)| *a == area || map.adjacent(*a, area))
        .map(|(p, _)| p.clone())
        .collect()
}
