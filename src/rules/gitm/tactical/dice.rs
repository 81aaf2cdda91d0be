//! The dice the tactical engine asks for: one die under a label unique within the turn, and a
//! shuffle. The engine never makes randomness of its own; the turn hands in the engine's dice
//! (`turn.rs` wraps the turn's `DiceBox`), a test a closure.

/// A source of labelled dice. Any `FnMut(&str, u32) -> u32` (label, sides -> face 1..=sides) is one.
pub trait TacDice {
    /// One die of `sides` faces, 1 to `sides`, under `label`.
    fn die(&mut self, label: &str, sides: u32) -> u32;

    /// A random order of `n` items: the positions of the items in their new order. By default
    /// Fisher-Yates as pbem-dice/v1 fixes it (for i from n-1 down to 1, j = die(i+1) - 1, swap), one
    /// die per swap under `label/i=<i>`; the turn's dice override it with one shuffle under `label`.
    fn shuffle(&mut self, label: &str, n: usize) -> Vec<usize> {
        let mut items: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let face = self.die(&format!("{label}/i={i}"), i as u32 + 1);
            let j = (face.clamp(1, i as u32 + 1) - 1) as usize;
            items.swap(i, j);
        }
        items
    }
}

impl<F: FnMut(&str, u32) -> u32> TacDice for F {
    fn die(&mut self, label: &str, sides: u32) -> u32 {
        self(label, sides).clamp(1, sides.max(1))
    }
}
