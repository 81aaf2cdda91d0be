//! The dice scheme a turn's commitment was made under (`turns/<t>/scheme.toml`): the `[dice]`
//! scheme and beacon of game.toml when the commitment `C_t` was published, named with it. A turn is
//! resolved only under the scheme it was committed under: a referee who changes `[dice]` after the
//! commitment (v2 to v1, a beacon added after the close) is refused by `resolve`, and `audit` names
//! the change. A turn committed before pbem fixed schemes has no file and is not checked.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::config::{Beacon, DiceScheme};
use super::Game;

/// What `scheme.toml` holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixed {
    /// The commitment `C_t` (hex) the scheme was fixed with.
    pub commitment: String,
    pub scheme: DiceScheme,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon: Option<Beacon>,
}

impl Fixed {
    /// "pbem-dice/v2 with the beacon drand-quicknet", "pbem-dice/v1 without a beacon".
    pub fn describe(&self) -> String {
        describe(self.scheme, self.beacon)
    }
}

/// The scheme in words, as `audit` and the announcement name it.
pub fn describe(scheme: DiceScheme, beacon: Option<Beacon>) -> String {
    let scheme = match scheme {
        DiceScheme::V1 => "pbem-dice/v1",
        DiceScheme::V2 => "pbem-dice/v2",
    };
    match beacon {
        Some(Beacon::DrandQuicknet) => format!("{scheme} with the beacon drand-quicknet"),
        None => format!("{scheme} without a beacon"),
    }
}

pub fn path(game: &Game, turn: u32) -> PathBuf {
    game.turn_dir(turn).join("scheme.toml")
}

/// The scheme fixed for `turn`, if one was.
pub fn load(game: &Game, turn: u32) -> Result<Option<Fixed>> {
    let p = path(game, turn);
    let Ok(text) = std::fs::read_to_string(&p) else {
        return Ok(None);
    };
    let fixed =
        toml::from_str(&text).with_context(|| format!("{} does not read", game.shown(&p)))?;
    Ok(Some(fixed))
}

/// Fixes game.toml's scheme and beacon for `turn`, committed as `commitment` (hex): kept when it is
/// already fixed with that commitment (a rerun writes the same bytes again, as it does the
/// commitment), written anew with a new commitment (a rekey).
pub fn fix(game: &Game, turn: u32, commitment: &str) -> Result<()> {
    let fixed = match load(game, turn)? {
        Some(f) if f.commitment == commitment => f,
        _ => Fixed {
            commitment: commitment.to_string(),
            scheme: game.config.dice.scheme,
            beacon: game.config.dice.beacon,
        },
    };
    super::fsio::write_atomic(&path(game, turn), toml::to_string(&fixed)?.as_bytes())
}

/// The scheme `turn` was committed under as `commitment` (hex), in words: the one `scheme.toml`
/// fixed with that commitment, else game.toml's `[dice]` (a turn committed before pbem fixed
/// schemes).
pub fn of_commitment(game: &Game, turn: u32, commitment: &str) -> Result<String> {
    Ok(match load(game, turn)? {
        Some(f) if f.commitment == commitment => f.describe(),
        _ => describe(game.config.dice.scheme, game.config.dice.beacon),
    })
}

/// Why game.toml's `[dice]` is not the scheme `turn` was committed under, if it is not.
pub fn changed(game: &Game, turn: u32) -> Result<Option<String>> {
    let Some(fixed) = load(game, turn)? else {
        return Ok(None);
    };
    let now = (game.config.dice.scheme, game.config.dice.beacon);
    if (fixed.scheme, fixed.beacon) == now {
        return Ok(None);
    }
    Ok(Some(format!(
        "turn {turn}'s commitment {} was made under {} ({}), but game.toml's [dice] now says {}: the dice scheme was changed after the commitment",
        fixed.commitment,
        fixed.describe(),
        game.shown(&path(game, turn)),
        describe(now.0, now.1)
    )))
}

/// Refuses to resolve `turn` under another scheme than the one it was committed under.
pub fn check(game: &Game, turn: u32) -> Result<()> {
    if let Some(why) = changed(game, turn)? {
        bail!("{why}. Put [dice] back as it was for this turn; a new scheme starts with a new commitment (`pbem rekey`). Nothing was changed.");
    }
    Ok(())
}
