//! The dice of one turn: pbem-dice/v1 streams under labels that must be unique within the turn.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use anyhow::{bail, Result};

use crate::dice::{event_key, tuple_hash, Bytes32, Roller};
use crate::engine::event::{Die, Roll};

/// Why a turn without its sealing secret cannot roll (or, in an audit, re-derive) a sealed roll.
const NO_SEAL: &str = "this turn has no sealing secret (secret/<turn>.seal): a copy of the game folder without it cannot re-derive the turn's sealed rolls (the referee keeps it in secret/); a turn whose dice secret was made before pbem sealed rolls gets one from `pbem rekey`";

/// Hands out labelled rolls for one turn. Labels are unique by construction (each ruleset's
/// `labels.rs`); the refusal of a label used twice is an internal assertion that no resolution reaches
/// (`tests/proptest_labels.rs`), kept so that a new label that could repeat fails loudly, never silently
/// reuses a die.
pub struct DiceBox {
    seed: Bytes32,
    /// `Q_t`, the turn's sealing secret, when it has one (`engine::sealed`).
    seal: Option<Bytes32>,
    /// The labels used so far, by their event key `K_L` (each label's own, as SHA-256 makes them
    /// distinct): only asked whether it holds one, never listed, so its order reaches nothing. A turn
    /// of 1,000 powers draws some 140,000 labels: the key is what their dice are drawn from anyway,
    /// and a set of keys copies no label and hashes none again (issue 39).
    used: HashSet<UsedKey, BuildHasherDefault<FirstWord>>,
}

/// An event key in the set of those used: hashed as its first eight bytes, which SHA-256 spreads
/// evenly and nobody can choose without the turn's secret.
#[derive(PartialEq, Eq)]
struct UsedKey(Bytes32);

impl Hash for UsedKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut word = [0; 8];
        word.copy_from_slice(&self.0[..8]);
        state.write_u64(u64::from_le_bytes(word));
    }
}

/// The hasher of [`UsedKey`]: the word it is given is the hash.
#[derive(Default)]
struct FirstWord(u64);

impl Hasher for FirstWord {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is called (`UsedKey::hash`); any other input is folded in all the same.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }
}

impl DiceBox {
    pub fn new(seed: Bytes32) -> Self {
        DiceBox {
            seed,
            seal: None,
            used: HashSet::default(),
        }
    }

    /// The box with the turn's sealing secret `Q_t`, which sealed rolls need.
    pub fn with_seal(mut self, seal: Option<Bytes32>) -> Self {
        self.seal = seal;
        self
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
            sealed: false,
        })
    }

    /// Draws dice under `label`, sealed: from the key `H("pbem-dice/sealed/event", S_t, Q_t, L)`,
    /// which nobody can compute before the referee reveals the turn's sealing secret `Q_t`. The turn
    /// log keeps the roll and `audit` checks it, but no report shows it; the header counts the turn's
    /// sealed rolls and commits to them (`engine::sealed`) until `pbem unseal` publishes them. For a
    /// roll whose faces would tell a power what it must not know (GITM's noisy detection); the event
    /// that carries it must not give its faces in its text either.
    pub fn roll_sealed(&mut self, label: &str, sides: &[u32]) -> Result<Roll> {
        let Some(seal) = self.seal else {
            bail!("{NO_SEAL}");
        };
        self.open(label)?;
        let mut r = Roller::from_key(sealed_key(&self.seed, &seal, label));
        Ok(Roll {
            label: label.to_string(),
            dice: sides
                .iter()
                .map(|&n| Die {
                    sides: n,
                    face: r.die(n),
                })
                .collect(),
            sealed: true,
        })
    }

    /// Shuffles `items` under `label` (pbem-dice/v1 shuffle); returns the roll with the dice it drew.
    pub fn shuffle<T>(&mut self, label: &str, items: &mut [T]) -> Result<Roll> {
        let r = self.open(label)?;
        Ok(shuffled(r, label, items, false))
    }

    /// Shuffles `items` under `label`, sealed (`roll_sealed`): for an order whose dice would tell a
    /// power of units it does not see (GITM's order of play, 7.6 and 8.6); its effect is told, its
    /// dice are published by `pbem unseal`.
    pub fn shuffle_sealed<T>(&mut self, label: &str, items: &mut [T]) -> Result<Roll> {
        let Some(seal) = self.seal else {
            bail!("{NO_SEAL}");
        };
        self.open(label)?;
        let r = Roller::from_key(sealed_key(&self.seed, &seal, label));
        Ok(shuffled(r, label, items, true))
    }

    /// The rolls of `label` (`Roller::new`), which is then used.
    fn open(&mut self, label: &str) -> Result<Roller> {
        let key = event_key(&self.seed, label);
        if !self.used.insert(UsedKey(key)) {
            bail!("internal error: the dice label '{label}' was used twice in one turn");
        }
        Ok(Roller::from_key(key))
    }
}

/// Fisher-Yates as pbem-dice/v1 fixes it (for i from n-1 down to 1, j = die(i+1) - 1, swap), with
/// the dice it drew.
fn shuffled<T>(mut r: Roller, label: &str, items: &mut [T], sealed: bool) -> Roll {
    let mut dice = Vec::new();
    for i in (1..items.len()).rev() {
        let sides = i as u32 + 1;
        let face = r.die(sides);
        dice.push(Die { sides, face });
        items.swap(i, face as usize - 1);
    }
    Roll {
        label: label.to_string(),
        dice,
        sealed,
    }
}

/// The key of a sealed roll: `H("pbem-dice/sealed/event", S_t, Q_t, L)` (`engine::sealed` keeps
/// `Q_t` and re-derives these keys for `pbem unseal`).
pub fn sealed_key(seed: &Bytes32, seal: &Bytes32, label: &str) -> Bytes32 {
    tuple_hash(&[b"pbem-dice/sealed/event", seed, seal, label.as_bytes()])
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

    /// The box knows its labels by their event keys: 20,000 labels alike but for a number are each
    /// drawn once, from the dice `Roller::new` gives them, and each refused the second time, sealed
    /// or not.
    #[test]
    fn every_label_is_told_apart_by_its_key() {
        let seed = [5; 32];
        let mut d = DiceBox::new(seed).with_seal(Some([6; 32]));
        let label = |i: u32| format!("reinforce/area=A{i}/unit=C{}", i % 7);
        for i in 0..20_000 {
            let got = d.roll(&label(i), &[6, 1000]).unwrap().dice;
            let mut r = Roller::new(&seed, &label(i));
            assert_eq!(
                got,
                [6, 1000].map(|n| Die {
                    sides: n,
                    face: r.die(n)
                })
            );
        }
        for i in (0..20_000).step_by(97) {
            assert!(d.roll(&label(i), &[6]).is_err(), "{}", label(i));
            assert!(d.roll_sealed(&label(i), &[6]).is_err(), "{}", label(i));
        }
    }

    #[test]
    fn a_sealed_roll_needs_the_sealing_secret_and_depends_on_it() {
        assert!(DiceBox::new([9; 32]).roll_sealed("detect/x", &[6]).is_err());
        let faces = |seal: u8| {
            let mut d = DiceBox::new([9; 32]).with_seal(Some([seal; 32]));
            let r = d.roll_sealed("detect/x", &[1000, 1000]).unwrap();
            assert!(r.sealed);
            r.dice
        };
        assert_eq!(faces(1), faces(1));
        assert_ne!(faces(1), faces(2));
        let plain = DiceBox::new([9; 32])
            .roll("detect/x", &[1000, 1000])
            .unwrap();
        assert_ne!(
            plain.dice,
            faces(1),
            "a sealed roll's faces are not the plain roll's"
        );
    }

    #[test]
    fn a_sealed_label_is_used_once_too() {
        let mut d = DiceBox::new([7; 32]).with_seal(Some([1; 32]));
        d.roll_sealed("detect/x", &[6]).unwrap();
        assert!(d.roll("detect/x", &[6]).is_err());
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
