//! pbem: a turn adjudicator for play-by-email wargames. See ARCHITECTURE.md for the map of the code.

pub mod audit;
pub mod auth;
pub mod bundled;
pub mod clock;
pub mod commands;
pub mod decide;
pub mod diag;
pub mod dice;
pub mod engine;
pub mod game;
pub mod mail;
pub mod memory;
pub mod orders;
pub mod out;
pub mod parallel;
pub mod progress;
pub mod referee;
pub mod report;
pub mod rule;
pub mod rules;
pub mod synth;
pub mod verify_page;
pub mod words;
