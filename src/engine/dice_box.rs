//! The dice of one turn: pbem-dice/v1 streams under labels that must be unique within the turn.

use std::collections::BTreeSet;

use anyhow::{bail, Result};

use crate::dice::{Bytes32, Roller};
use crate::engine::event::{Die, Roll};

/// Hands out labelled rolls for one turn. Labels are unique by construction (each ruleset's
/// `labels.rs`); the refusal of a label used twice is an internal assertion that no resolution reaches
/// (`tests/proptest_labels.rs`), kept so that a new label that could repeat fails loudly, never silently
/// reuses a die.
pub struct DiceBox {
    seed: Bytes32,
    used: BTreeSet<String>,
}

impl DiceBox {
    pub fn new(seed: Bytes32) -> Self {
        DiceBox {
            seed,
            used: BTreeSet::new(),
        }
    }

    /// Draws dice of the given sizes under `label`.
    pub fn roll(&mut self, label: &str, sides: &[u32]) -> Result<Roll> {
        let mut r = self.open(label)?;
        let dice = sides
            .iter()
            .map(|&n| Die {
                sides: n,
                face: r.die(n),
            })
            .collect();
        Ok(Roll {
            label: label.to_string(),
            dice,
        })
    }

    /// Shuffles `items` under `label` (pbem-dice/v1 shuffle); returns the roll with the dice it drew.
    pub fn shuffle<T>(&mut self, label: &str, items: &mut [T]) -> Result<Roll> {
        let mut r = self.open(label)?;
        let mut dice = Vec::new();
        for i in (1..items.len()).rev() {
            let sides = i as u32 + 1;
            let face = r.die(sides);
            dice.push(Die { sides, face });
            items.swap(i, face as usize - 1);
        }
        Ok(Roll {
            label: label.to_string(),
            dice,
        })
    }

    fn open(&mut self, label: &str) -> Result<Roller> {
        if !self.used.insert(label.to_string()) {
            bail!("internal error: the dice label '{label}' was used twice in one turn");
        }
        Ok(Roller::new(&self.seed, label))
    }

    /// Every label used so far, sorted.
    pub fn labels(&self) -> &BTreeSet<String> {
        &self.used
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_is_used_once() {
        let mut d = DiceBox::new([7; 32]);
        d.roll("combat/area=Ulm/round=1", &[6]).unwrap();
        assert!(d.roll("combat/area=Ulm/round=1", &[6]).is_err());
    }

    #[test]
    fn shuffle_matches_the_plain_roller() {
        let seed = [3; 32];
        let mut a = [1, 2, 3, 4, 5, 6];
        let mut b = a;
        DiceBox::new(seed).shuffle("x", &mut a).unwrap();
        Roller::new(&seed, "x").shuffle(&mut b);
        assert_eq!(a, b);
    }
}
