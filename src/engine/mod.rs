//! The engine shared by every ruleset, below the reports and the mail: what a turn reads (every
//! power's orders checked, the record, the closing list), the dice box and events a ruleset speaks,
//! who sees what, sealed rolls, dropped players and players under a power, and when a turn is due.
//! The pipeline that resolves a turn and writes its files is `referee::turn`, a layer up.
//!
//! Architecture invariant: the ruleset's `resolve` does no I/O and reads no clock; everything it
//! needs is loaded first and everything it returns is written afterwards, by `referee::turn`.

pub mod binding;
pub mod close;
pub mod command;
pub mod dice_box;
pub mod due;
pub mod event;
pub mod inputs;
pub mod players;
pub mod sealed;
pub mod visibility;
