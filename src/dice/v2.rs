//! pbem-dice/v2: a closed entropy set (docs/DICE.md). v2 keeps v1's tuple hash,
//! commitment, event keys, rolls and shuffles (`dice.rs`), and changes how the turn seed is made: at
//! the deadline the referee mails every player the closing list (each power with orders in, the digest
//! of its orders as filed and its entropy), and the seed is made of that list's hash `X_t`, so that
//! after the close no contribution can be added, dropped or changed without the players holding proof.

use crate::dice::{tuple_hash, Bytes32};

/// The name of the scheme, first line of a v2 header.
pub const SCHEME: &str = "pbem-dice/v2";

/// One power on the closing list: the SHA-256 of its orders file as filed (`D_p`) and its entropy
/// (`E_p`), if its orders have an entropy line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closed {
    pub power: String,
    pub orders: Bytes32,
    pub entropy: Option<Bytes32>,
}

/// `E_p = H("pbem-dice/v2/entropy", text)`, text as docs/DICE.md, "The entropy text" defines it.
pub fn entropy(text: &str) -> Bytes32 {
    tuple_hash(&[b"pbem-dice/v2/entropy", text.as_bytes()])
}

/// `X_t = H("pbem-dice/v2/close", game, u64be(t), u64be(k), id_1, D_1, E_1, ..., id_k, D_k, E_k)`, the
/// k powers sorted by the bytes of their id; a missing `E_p` is the empty string.
pub fn close_digest(game: &str, turn: u32, list: &[Closed]) -> Bytes32 {
    let mut sorted: Vec<&Closed> = list.iter().collect();
    sorted.sort_by(|a, b| a.power.as_bytes().cmp(b.power.as_bytes()));
    let t = u64::from(turn).to_be_bytes();
    let k = (sorted.len() as u64).to_be_bytes();
    let mut fields: Vec<&[u8]> = vec![b"pbem-dice/v2/close", game.as_bytes(), &t, &k];
    for c in &sorted {
        fields.push(c.power.as_bytes());
        fields.push(&c.orders);
        fields.push(c.entropy.as_ref().map_or(&[][..], |e| &e[..]));
    }
    tuple_hash(&fields)
}

/// `S_t = H("pbem-dice/v2/turn", game, u64be(t), R_t, X_t, B_t)`; `beacon` is `B_t` (empty with no
/// beacon).
pub fn turn_seed(
    game: &str,
    turn: u32,
    secret: &Bytes32,
    close: &Bytes32,
    beacon: &[u8],
) -> Bytes32 {
    tuple_hash(&[
        b"pbem-dice/v2/turn",
        game.as_bytes(),
        &u64::from(turn).to_be_bytes(),
        secret,
        close,
        beacon,
    ])
}

#[cfg(test)]
mod tests {
    //! The v2 vectors of docs/DICE.md.
    use super::*;
    use crate::dice::{to_hex, Roller};
    use sha2::{Digest, Sha256};

    fn r3() -> Bytes32 {
        Sha256::digest(b"demo referee secret").into()
    }

    fn list() -> Vec<Closed> {
        vec![
            Closed {
                power: "france".into(),
                orders: Sha256::digest(b"france orders").into(),
                entropy: Some(entropy("the eagle flies at dawn")),
            },
            Closed {
                power: "austria".into(),
                orders: Sha256::digest(b"austria orders").into(),
                entropy: None,
            },
        ]
    }

    #[test]
    fn vector_v2_entropy() {
        assert_eq!(
            to_hex(&entropy("the eagle flies at dawn")),
            "6e9d570f4e93934cdb1213468868db4b50235a25e38c55e93dc66d8e47e67af2"
        );
    }

    #[test]
    fn vector_v2_close_and_seed() {
        let x = close_digest("demo-game", 3, &list());
        assert_eq!(
            to_hex(&x),
            "c17c5ff3d773d33382dbe90250cb0d4a0d641dbdbfd3ed23704a634c05dabd7f"
        );
        let s = turn_seed("demo-game", 3, &r3(), &x, b"");
        assert_eq!(
            to_hex(&s),
            "4ba1476a53d2c6481dc42558ef737a2d7a7d2c35c7f417c3764399167e0ecc52"
        );
        let mut r = Roller::new(&s, "combat/area=Ulm/round=1");
        let faces: Vec<u32> = (0..4).map(|_| r.die(6)).collect();
        assert_eq!(faces, [5, 2, 4, 5]);
    }

    #[test]
    fn the_closing_list_is_order_free_and_binds_every_field() {
        let mut l = list();
        let x = close_digest("demo-game", 3, &l);
        l.reverse();
        assert_eq!(close_digest("demo-game", 3, &l), x);
        l.iter_mut()
            .filter(|c| c.power == "france")
            .for_each(|c| c.entropy = None);
        assert_ne!(close_digest("demo-game", 3, &l), x);
        let mut l = list();
        l[1].orders[0] ^= 1;
        assert_ne!(close_digest("demo-game", 3, &l), x);
        assert_ne!(close_digest("demo-game", 3, &list()[..1]), x);
    }
}
