//! Gathered In Their Masses (`gitm`, seed `002_6ef57ff66f0d58a4.txt`).

pub mod tactical;
