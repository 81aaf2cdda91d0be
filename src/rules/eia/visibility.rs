//! What a power can see in EiA play by mail: the areas where it has a unit, and the areas adjacent to
//! them, exactly. The rules we hold fix no fog of war; this is pbem's default for hidden play. The
//! engine's visibility service (`engine::visibility`) applies it to units and reports; allies share
//! sight when game.toml says `allies_share_sight = true`.

use std::collections::BTreeSet;

use crate::engine::visibility::{self, Sight};
use crate::game::map::Map;

use super::board::Sightings;

/// EiA's sight: same and adjacent areas, exactly.
pub const SIGHT: Sight = Sight::ADJACENT;

/// The powers that see area `i` when their units stand on `positions` (power, area index): what an
/// event in that area puts in its `visible_to`.
///
/// `positions` is a list of (power, area index), or the [`Sightings`] of a board
/// (`board.positions()`), which answer from the board's index of areas instead of going through every
/// unit: what keeps a turn of many combats linear. Both give the same powers.
pub fn watchers<P: Positions + ?Sized>(map: &Map, positions: &P, area: usize) -> BTreeSet<String> {
    positions.watchers(map, area)
}

/// Where units stand, as [`watchers`] reads it.
pub trait Positions {
    /// The powers with a unit within [`SIGHT`] of `area`.
    fn watchers(&self, map: &Map, area: usize) -> BTreeSet<String>;
}

impl Positions for [(String, usize)] {
    fn watchers(&self, map: &Map, area: usize) -> BTreeSet<String> {
        visibility::watchers(map, self, SIGHT, area)
    }
}

impl Positions for Vec<(String, usize)> {
    fn watchers(&self, map: &Map, area: usize) -> BTreeSet<String> {
        visibility::watchers(map, self, SIGHT, area)
    }
}

impl Positions for Sightings {
    fn watchers(&self, map: &Map, area: usize) -> BTreeSet<String> {
        Sightings::watchers(self, map, SIGHT.range, area)
    }
}
