//! What a power can see in EiA play by mail: the areas where it has a unit, and the areas adjacent to
//! them, exactly. The rules we hold fix no fog of war; this is pbem's default for hidden play. The
//! engine's visibility service (`engine::visibility`) applies it to units and reports; allies share
//! sight when game.toml says `allies_share_sight = true`.

use std::collections::BTreeSet;

use crate::engine::visibility::{self, Sight};
use crate::game::map::Map;

/// EiA's sight: same and adjacent areas, exactly.
pub const SIGHT: Sight = Sight::ADJACENT;

/// The powers that see area `i` when their units stand on `positions` (power, area index): what an
/// event in that area puts in its `visible_to`.
pub fn watchers(map: &Map, positions: &[(String, usize)], area: usize) -> BTreeSet<String> {
    visibility::watchers(map, positions, SIGHT, area)
}
