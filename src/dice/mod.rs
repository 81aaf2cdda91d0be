//! pbem-dice/v1: auditable dice. Every roll of a turn comes from its own ChaCha20 stream, seeded from
//! the turn seed and the roll's label, so that a player can re-derive the rolls he saw with nothing but
//! the revealed secret, the players' entropy and the labels. See docs/DICE.md.
//!
//! This module is the only source of randomness of a resolution. It must never use `rand`'s samplers
//! (`gen_range` and friends change between versions): only `from_seed` and `next_u32`.
//!
//! Beside v1: `v2` (what pbem-dice/v2 changes: the closing list, the turn seed), `beacon` (the drand
//! beacon a v2 turn may draw), `labels` (the grammar of dice labels, as data).

pub mod beacon;
pub mod labels;
pub mod v2;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// A 32-byte value: a secret, a commitment, a seed.
pub type Bytes32 = [u8; 32];

/// `H(f1, f2, ...) = SHA-256(F(f1) || F(f2) || ...)` with `F(b) = u32be(len b) || b`.
pub fn tuple_hash(fields: &[&[u8]]) -> Bytes32 {
    let mut h = Sha256::new();
    for f in fields {
        let len = u32::try_from(f.len()).expect("a dice field is shorter than 4 GiB");
        h.update(len.to_be_bytes());
        h.update(f);
    }
    h.finalize().into()
}

/// `C_t = H("pbem-dice/v1/commit", game, u64be(t), R_t)`: published before orders for turn t are due.
pub fn commitment(game: &str, turn: u32, secret: &Bytes32) -> Bytes32 {
    tuple_hash(&[
        b"pbem-dice/v1/commit",
        game.as_bytes(),
        &u64::from(turn).to_be_bytes(),
        secret,
    ])
}

/// `E_p = H("pbem-dice/v1/entropy", text)`. `text` is the entropy text as the orders header reads it
/// (docs/DICE.md, "The entropy text": separators at either end already dropped); the trim here changes nothing
/// for such a text.
pub fn entropy(text: &str) -> Bytes32 {
    tuple_hash(&[b"pbem-dice/v1/entropy", text.trim().as_bytes()])
}

/// `S_t = H("pbem-dice/v1/turn", game, u64be(t), R_t, u64be(k), id_1, E_1, ..., id_k, E_k)`, the
/// contributions sorted by the bytes of the power id.
pub fn turn_seed(
    game: &str,
    turn: u32,
    secret: &Bytes32,
    contributions: &[(String, Bytes32)],
) -> Bytes32 {
    let mut sorted: Vec<&(String, Bytes32)> = contributions.iter().collect();
    sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let turn_bytes = u64::from(turn).to_be_bytes();
    let k = (sorted.len() as u64).to_be_bytes();
    let mut fields: Vec<&[u8]> = vec![
        b"pbem-dice/v1/turn",
        game.as_bytes(),
        &turn_bytes,
        secret,
        &k,
    ];
    for (id, e) in &sorted {
        fields.push(id.as_bytes());
        fields.push(e);
    }
    tuple_hash(&fields)
}

/// `K_L = H("pbem-dice/v1/event", S_t, L)`: the seed of the rolls of the event labelled `L`.
pub fn event_key(seed: &Bytes32, label: &str) -> Bytes32 {
    tuple_hash(&[b"pbem-dice/v1/event", seed, label.as_bytes()])
}

/// The rolls of one labelled event: a ChaCha20 stream seeded with `K_L`.
pub struct Roller {
    rng: ChaCha20Rng,
}

impl Roller {
    pub fn new(seed: &Bytes32, label: &str) -> Self {
        Roller::from_key(event_key(seed, label))
    }

    /// The rolls of a key made otherwise (a sealed roll's, `engine::dice_box::sealed_key`).
    pub fn from_key(key: Bytes32) -> Self {
        Roller {
            rng: ChaCha20Rng::from_seed(key),
        }
    }

    /// A die of `n` faces, 1..=n, by rejection sampling: draw `x` until `x < floor(2^32 / n) * n`.
    pub fn die(&mut self, n: u32) -> u32 {
        assert!(n > 0, "a die has at least one face");
        let limit = (1u64 << 32) / u64::from(n) * u64::from(n);
        loop {
            let x = self.rng.next_u32();
            if u64::from(x) < limit {
                return x % n + 1;
            }
        }
    }

    /// Fisher-Yates as pbem-dice/v1 fixes it: for i from n-1 down to 1, `j = die(i+1) - 1`, swap.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.die(i as u32 + 1) as usize - 1;
            items.swap(i, j);
        }
    }
}

/// Hex of 32 bytes, lower case.
pub fn to_hex(b: &Bytes32) -> String {
    hex::encode(b)
}

/// 32 bytes from 64 hex digits.
pub fn from_hex(s: &str) -> Option<Bytes32> {
    let v = hex::decode(s.trim()).ok()?;
    v.try_into().ok()
}

/// A fresh referee secret `R_t` from the operating system's generator.
pub fn fresh_secret() -> std::io::Result<Bytes32> {
    let mut b = [0u8; 32];
    getrandom::getrandom(&mut b).map_err(std::io::Error::other)?;
    Ok(b)
}

#[cfg(test)]
mod tests {
    //! The test vectors of DESIGN.md and docs/DICE.md.
    use super::*;

    fn r3() -> Bytes32 {
        Sha256::digest(b"demo referee secret").into()
    }

    fn s3() -> Bytes32 {
        let contributions = vec![
            ("france".to_string(), entropy("the eagle flies at dawn")),
            ("austria".to_string(), entropy("7 3 1 9")),
        ];
        turn_seed("demo-game", 3, &r3(), &contributions)
    }

    #[test]
    fn vector_commitment() {
        assert_eq!(
            to_hex(&commitment("demo-game", 3, &r3())),
            "32f2ddd04730b351131310ce48e5af147d1935a3b414ca10dfeb0c5e50f1a854"
        );
    }

    #[test]
    fn vector_turn_seed_with_entropy() {
        assert_eq!(
            to_hex(&s3()),
            "7b68aef0f53477dce1b90086fb5037a7be3549b28c40ba126a315d77dfb45380"
        );
    }

    #[test]
    fn vector_turn_seed_without_entropy() {
        assert_eq!(
            to_hex(&turn_seed("demo-game", 3, &r3(), &[])),
            "df0dea2183addd9d380a705683ae6b343c4414d7927781a9476a6af4a6321290"
        );
    }

    #[test]
    fn vector_entropy_is_trimmed_and_order_free() {
        let a = vec![
            ("austria".to_string(), entropy(" 7 3 1 9 ")),
            ("france".to_string(), entropy("the eagle flies at dawn")),
        ];
        assert_eq!(turn_seed("demo-game", 3, &r3(), &a), s3());
    }

    fn roll(label: &str, sides: &[u32]) -> Vec<u32> {
        let mut r = Roller::new(&s3(), label);
        sides.iter().map(|&n| r.die(n)).collect()
    }

    #[test]
    fn vector_combat_four_d6() {
        assert_eq!(roll("combat/area=Ulm/round=1", &[6, 6, 6, 6]), [5, 4, 3, 4]);
    }

    #[test]
    fn vector_naval_two_d6() {
        assert_eq!(roll("naval/sea=Channel/round=2", &[6, 6]), [4, 2]);
    }

    #[test]
    fn vector_weather_d10() {
        assert_eq!(roll("weather", &[10]), [7]);
    }

    #[test]
    fn vector_attrition_d20_d100() {
        assert_eq!(roll("attrition/unit=FR-IV", &[20, 100]), [12, 23]);
    }

    #[test]
    fn vector_combat_order_shuffle() {
        let mut items = ["Ulm", "Munich", "Vienna", "Linz", "Passau"];
        Roller::new(&s3(), "combat-order").shuffle(&mut items);
        assert_eq!(items, ["Vienna", "Ulm", "Munich", "Passau", "Linz"]);
    }

    #[test]
    fn hex_round_trip() {
        let s = r3();
        assert_eq!(from_hex(&to_hex(&s)), Some(s));
        assert_eq!(from_hex("abc"), None);
    }
}
