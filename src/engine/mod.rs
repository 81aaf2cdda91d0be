//! The turn pipeline shared by every ruleset: read the orders of the turn, derive the dice, let the
//! ruleset adjudicate, decide who sees what, write state, log, reports and the turn record atomically.
//!
//! Architecture invariant: the ruleset's `resolve` does no I/O and reads no clock; everything it
//! needs is loaded here first and everything it returns is written here afterwards.

pub mod close;
pub mod command;
pub mod deadline;
pub mod dice_box;
pub mod event;
pub mod players;
pub mod sealed;
pub mod turn;
pub mod visibility;
