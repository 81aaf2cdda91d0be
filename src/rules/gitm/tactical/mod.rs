//! The tactical part of GITM (seed rules 2, 8 and 9): the 15x15 tactical map under a strategic
//! square, tactical movement with its reactions, battle lines and combat. A pure engine over its own
//! plain types (`unit.rs`): the turn (`rules/gitm/turn.rs`) maps its brigades and parsed orders in,
//! hands in the engine's dice (`dice.rs`) and takes back positions, losses and events.
//!
//! - `map.rs`: the tactical map and its file format (2.1-2.7);
//! - `unit.rs`: brigades, orders, relations (3.1-3.3, 6.4-6.6);
//! - `field.rs`: one map through the phases of a turn (5.2, 8.6);
//! - `movement.rs`: destination, waypoint, engage, fords and passes, peace (8.1-8.9, 8.12);
//! - `reaction.rs`: support and intercept boxes (8.10, 8.11);
//! - `sighting.rs`: the nearest enemy in each of eight directions (4.2);
//! - `lines.rs`: battle lines, frontage, squares (9.3-9.5);
//! - `combat.rs` and `tables.rs`: combat (9.1, 9.2) with pbem's own fire, melee, casualties, morale
//!   checks and shattering, which the seed lacks.

mod combat;
pub mod dice;
pub mod event;
pub mod field;
pub mod hook;
pub mod lines;
pub mod map;
mod movement;
mod reaction;
pub mod sighting;
pub mod tables;
pub mod unit;

#[cfg(test)]
mod rule_tests;

pub use dice::TacDice;
pub use event::TacEvent;
pub use field::{Field, LAST_PHASE};
pub use map::{parse as parse_map, Dir, Pos, TacMap, Terrain, SIZE};
pub use movement::straight_line;
pub use unit::{
    Formation, Kind, Line, Posture, Reaction, Relation, Relations, TacBrigade, TacOrder,
};
