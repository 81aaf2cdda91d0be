//! The public beacon of pbem-dice/v2 (`[dice] beacon = "drand-quicknet"`): the randomness of the
//! first drand quicknet round after the turn's deadline joins the seed as `B_t = u64be(round) ||
//! SHA-256(signature)`. Nobody knows it before that round is published, so neither the referee alone nor
//! the referee with the last player can choose a die. The round's BLS signature is checked offline
//! against the chain's public key (`drand-verify`); the referee gives it (`pbem resolve --beacon
//! ROUND:SIG`), and it is kept in `turns/<t>/beacon.toml` so that `audit` resolves the turn again.

use anyhow::{bail, Context, Result};
use drand_verify::{derive_randomness, G2PubkeyRfc, Pubkey};
use serde::{Deserialize, Serialize};

use crate::game::fsio::write_atomic;
use crate::game::Game;

/// The one beacon pbem knows.
pub const QUICKNET: &str = "drand-quicknet";

/// drand quicknet (scheme bls-unchained-g1-rfc9380), chain hash
/// 52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971: its public key, genesis time and
/// period, as its `/info` publishes them.
const QUICKNET_PUBLIC_KEY: &str = "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a";
const QUICKNET_GENESIS: i64 = 1_692_803_367;
const QUICKNET_PERIOD: i64 = 3;

/// The first quicknet round whose time is after `unix` (seconds): round r is published at
/// `genesis + (r - 1) * period`.
pub fn round_after(unix: i64) -> u64 {
    if unix < QUICKNET_GENESIS {
        return 1;
    }
    ((unix - QUICKNET_GENESIS) / QUICKNET_PERIOD + 2) as u64
}

/// The time quicknet round `round` is published, in Unix seconds.
fn time_of(round: u64) -> i64 {
    QUICKNET_GENESIS + (round.max(1) as i64 - 1) * QUICKNET_PERIOD
}

/// Refuses `act` ("a drop of britain"), an act that would change turn `turn`'s closing list or the
/// round it draws, once that round is out (a beacon game whose deadline has passed, closed or not):
/// its randomness and the turn's secret give every die of the turn, so that the referee, who holds
/// the secret, would choose the dice by doing the act or not. Nothing is refused in a game without a
/// beacon, whose referee knows the list before he closes it (DICE.md, "What each party can do").
pub fn refuse_once_out(game: &Game, turn: u32, act: &str) -> Result<()> {
    if game.config.dice.beacon.is_none() {
        return Ok(());
    }
    let Some(round) = round_of(game, turn) else {
        return Ok(());
    };
    if crate::clock::now()?.timestamp() < time_of(round) {
        return Ok(());
    }
    bail!(
        "the deadline of turn {turn} has passed and its beacon round {round} (drand quicknet) is out: with the turn's secret it gives every die of the turn, and {act} now would change the seed they make, so that the referee could choose the dice by doing it or not. Resolve the turn with its round (`pbem resolve {} --beacon {round}:SIGNATURE`); the act may hold from the next turn. Nothing was changed.",
        game.dir.display()
    );
}

/// The round a turn draws: the first after its deadline. None when the game has no valid deadline.
pub fn round_of(game: &Game, turn: u32) -> Option<u64> {
    game.config
        .deadline_of(turn)
        .map(|d| round_after(d.timestamp()))
}

/// Checks a quicknet round's signature offline; gives its randomness (SHA-256 of the signature).
pub fn verify(round: u64, signature: &[u8]) -> Result<[u8; 32]> {
    let key: [u8; 96] = hex::decode(QUICKNET_PUBLIC_KEY)
        .expect("the quicknet key is hex")
        .try_into()
        .expect("the quicknet key has 96 bytes");
    let key = G2PubkeyRfc::from_fixed(key).expect("the quicknet key is a G2 point");
    match key.verify(round, b"", signature) {
        Ok(true) => Ok(derive_randomness(signature)),
        Ok(false) => bail!("the signature is not drand quicknet's for round {round}"),
        Err(e) => bail!("the signature of round {round} is not a BLS signature: {e}"),
    }
}

/// `B_t = u64be(round) || randomness`.
pub fn field(round: u64, randomness: &[u8; 32]) -> Vec<u8> {
    let mut b = round.to_be_bytes().to_vec();
    b.extend_from_slice(randomness);
    b
}

/// `turns/<t>/beacon.toml`: the round a turn drew and its signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeaconFile {
    pub beacon: String,
    pub round: u64,
    /// The signature, hex.
    pub signature: String,
}

fn path(game: &Game, turn: u32) -> std::path::PathBuf {
    game.turn_dir(turn).join("beacon.toml")
}

/// Reads `ROUND:SIG` as the referee gives it.
pub fn parse_arg(text: &str) -> Result<(u64, Vec<u8>)> {
    let (round, sig) = text
        .split_once(':')
        .context("--beacon takes ROUND:SIGNATURE (the round number and its signature in hex)")?;
    let round: u64 = round
        .trim()
        .parse()
        .with_context(|| format!("'{round}' is not a round number"))?;
    let sig = hex::decode(sig.trim()).context("the signature is not hex")?;
    Ok((round, sig))
}

/// Checks and keeps the beacon of `turn`: the round must be the first after the deadline and the
/// signature drand's.
pub fn record(game: &Game, turn: u32, round: u64, signature: &[u8]) -> Result<()> {
    let Some(expected) = round_of(game, turn) else {
        bail!("turn {turn} has no deadline, so no beacon round");
    };
    if round != expected {
        bail!("turn {turn} draws drand quicknet round {expected} (the first after its deadline), not {round}");
    }
    verify(round, signature)?;
    let file = BeaconFile {
        beacon: QUICKNET.into(),
        round,
        signature: hex::encode(signature),
    };
    write_atomic(
        &path(game, turn),
        crate::game::load::to_toml(&file)?.as_bytes(),
    )
}

/// `B_t` of a turn and the header's beacon line, for a game with a beacon; an error naming the
/// round to fetch when the beacon is not in yet.
pub fn of_turn(game: &Game, turn: u32) -> Result<(Vec<u8>, String)> {
    let p = path(game, turn);
    let expected = round_of(game, turn).context("a game with a beacon needs a deadline")?;
    if !p.is_file() {
        bail!(
            "this game draws a public beacon: give drand quicknet round {expected} (the first after the deadline of turn {turn}) with `pbem resolve --beacon {expected}:<signature>`"
        );
    }
    let text =
        std::fs::read_to_string(&p).with_context(|| format!("cannot read {}", game.shown(&p)))?;
    let file: BeaconFile =
        toml::from_str(&text).with_context(|| format!("{} is not a beacon", game.shown(&p)))?;
    if file.round != expected {
        bail!(
            "{} holds round {}, not {expected}",
            game.shown(&p),
            file.round
        );
    }
    let sig = hex::decode(&file.signature).context("the beacon's signature is not hex")?;
    let randomness = verify(file.round, &sig)?;
    Ok((
        field(file.round, &randomness),
        format!(
            "{QUICKNET} round {} signature {}",
            file.round, file.signature
        ),
    ))
}

/// `B_t` from a header's beacon line (`drand-quicknet round R signature SIG`), its signature checked.
pub fn from_header(line: &str) -> Result<Vec<u8>> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let [QUICKNET, "round", round, "signature", sig] = w.as_slice() else {
        bail!("the beacon line '{line}' is not one pbem knows");
    };
    let round: u64 = round.parse().context("the beacon round is not a number")?;
    let sig = hex::decode(sig).context("the beacon signature is not hex")?;
    Ok(field(round, &verify(round, &sig)?))
}

#[cfg(test)]
mod tests {
    //! Real published quicknet rounds.
    use super::*;

    const ROUND_123: &str = "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92";
    const ROUND_657413: &str = "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b";

    #[test]
    fn real_quicknet_rounds_verify_and_give_their_randomness() {
        verify(123, &hex::decode(ROUND_123).unwrap()).unwrap();
        let r = verify(657413, &hex::decode(ROUND_657413).unwrap()).unwrap();
        assert_eq!(
            hex::encode(r),
            "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587"
        );
    }

    #[test]
    fn a_signature_of_another_round_or_altered_is_refused() {
        assert!(verify(124, &hex::decode(ROUND_123).unwrap()).is_err());
        let mut sig = hex::decode(ROUND_123).unwrap();
        sig[10] ^= 1;
        assert!(verify(123, &sig).is_err());
        assert!(verify(123, b"short").is_err());
    }

    #[test]
    fn the_round_is_the_first_after_the_deadline() {
        // Round 657413 was published at 2023-09-15 11:00:03 UTC, three seconds after round 657412.
        assert_eq!(round_after(1_694_775_600), 657_413);
        assert_eq!(round_after(1_694_775_602), 657_413);
        assert_eq!(round_after(1_694_775_603), 657_414);
        assert_eq!(round_after(QUICKNET_GENESIS), 2);
        assert_eq!(round_after(0), 1);
    }
}
