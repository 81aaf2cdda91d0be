//! The dice scheme a turn's commitment was made under (`turns/<t>/scheme.toml`): the `[dice]`
//! scheme and beacon of game.toml when the commitment `C_t` was published, named with it. A turn is
//! resolved only under the scheme it was committed under: a referee who changes `[dice]` after the
//! commitment (v2 to v1, a beacon added after the close) is refused by `resolve`, and `audit` names
//! the change. A turn committed before pbem fixed schemes has no file and is not checked.
//!
//! The rules are fixed with it ([`super::rules_fixed`]): the same file keeps their parts' digests,
//! and a turn whose rules changed after its commitment is refused and named as the scheme is. A turn
//! committed before pbem fixed rules has none in its file and is not checked.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::config::{Beacon, DiceScheme};
use super::rules_fixed::{self, Rules};
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
    /// The rules the commitment was made under (none in a file written before pbem fixed them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
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

/// Fixes game.toml's scheme and beacon, and the game's rules, for `turn`, committed as `commitment`
/// (hex): kept when it is already fixed with that commitment (a rerun writes the same bytes again, as
/// it does the commitment), written anew with a new commitment (a rekey).
pub fn fix(game: &Game, turn: u32, commitment: &str) -> Result<()> {
    let fixed = match load(game, turn)? {
        Some(f) if f.commitment == commitment => f,
        _ => {
            // The rules' parts are kept before the commitment names them (`rules_kept`).
            let parts = rules_fixed::parts(game)?;
            super::rules_kept::keep(game, &parts)?;
            Fixed {
                commitment: commitment.to_string(),
                scheme: game.config.dice.scheme,
                beacon: game.config.dice.beacon,
                rules: Some(rules_fixed::of_parts(&parts)),
            }
        }
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

/// The digest of the rules `turn` was committed under as `commitment` (hex), if they were fixed with
/// that commitment: its `scheme.toml`'s, or, once a rekey or rollback fixed the turn anew, the one
/// the record of the turn before kept as its reports announced it.
pub fn rules_digest(game: &Game, turn: u32, commitment: &str) -> Option<String> {
    if let Some(fixed) = load(game, turn).ok().flatten() {
        if fixed.commitment == commitment {
            return fixed.rules.map(|r| r.digest);
        }
    }
    announced(game, turn, commitment)
}

/// The digest of the rules the reports of the turn before `turn` announced beside its commitment
/// `commitment` (hex), as their record keeps it; none when they announced another commitment (a
/// rekey or rollback fixed the turn anew since) or no rules.
fn announced(game: &Game, turn: u32, commitment: &str) -> Option<String> {
    let text = std::fs::read_to_string(game.record_path(turn.checked_sub(1)?)).ok()?;
    let before: super::record::TurnRecord = toml::from_str(&text).ok()?;
    (before.next_commitment == commitment && !before.next_rules.is_empty())
        .then_some(before.next_rules)
}

/// Whether `turn`'s `scheme.toml` still fixes the rules the reports of the turn before announced
/// with its commitment: a referee who removed the file, or its rules, or wrote other rules into it,
/// would otherwise play the turn unchecked under rules of his choosing (with the file gone, its
/// reports' header would even give the digest announced).
fn rewritten(game: &Game, turn: u32, fixed: Option<&Fixed>) -> Option<String> {
    let commitment = crate::dice::to_hex(&game.commitment(turn).ok()?);
    let announced = announced(game, turn, &commitment)?;
    let file = game.shown(&path(game, turn));
    let now = match fixed {
        None => format!("{file} is missing"),
        Some(f) if f.commitment != commitment => {
            format!("{file} names another commitment, {}", f.commitment)
        }
        Some(Fixed { rules: None, .. }) => format!("{file} fixes no rules"),
        Some(Fixed { rules: Some(r), .. }) if r.digest != announced => {
            format!("{file} fixes the rules digest {}", r.digest)
        }
        Some(_) => return None,
    };
    Some(format!(
        "turn {}'s reports announced turn {turn}'s commitment {commitment} with the rules digest {announced}, but {now}: the rules fixed with the commitment were rewritten after it. Put {file} back as it was, and the rules it fixed; to play turn {turn} under new rules, make a new commitment with `pbem rekey {} --reason ...`, which tells every player what changed",
        turn - 1,
        game.dir.display(),
    ))
}

/// The later turn whose commitment fixed the rules the folder holds now (`now`), when they are not
/// those `turn` was committed under (`rules`): a change of rules made through a new commitment (`pbem
/// rekey`), told to every player, rather than behind one. Only a commitment of its turn as it stands
/// (its `commitment` file) counts.
fn refixed_by(game: &Game, turn: u32, rules: &Rules, now: &Rules) -> Option<u32> {
    if rules.digest == now.as_fixed_by(rules).digest {
        return None;
    }
    (turn + 1..)
        .map_while(|t| load(game, t).ok().flatten().map(|f| (t, f)))
        .find(|(t, f)| {
            f.rules
                .as_ref()
                .is_some_and(|r| r.digest == now.as_fixed_by(r).digest)
                && game
                    .commitment(*t)
                    .is_ok_and(|c| crate::dice::to_hex(&c) == f.commitment)
        })
        .map(|(t, _)| t)
}

/// Why a resolved `turn` cannot be audited as it was resolved, when its rules changed since through
/// a later turn's commitment: `audit` re-resolves under the rules the folder holds now, so the turn's
/// files differ where the change touches them. `audit` gives it before the differences it finds.
pub fn refixed_since(game: &Game, turn: u32) -> Result<Option<String>> {
    let Some(Fixed {
        rules: Some(rules), ..
    }) = load(game, turn)?
    else {
        return Ok(None);
    };
    let now = rules_fixed::of(game)?;
    let Some(later) = refixed_by(game, turn, &rules, &now) else {
        return Ok(None);
    };
    let differing = rules.differing(&now.as_fixed_by(&rules));
    let one = differing.len() == 1;
    Ok(Some(format!(
        "turn {turn} was resolved under the rules its commitment fixed (their digest {}, {}); {} {} changed since, and the commitment of turn {later} fixed the new rules (their digest {}, a change told to every player by the notice of `pbem rekey` or `pbem rollback`). audit re-resolves every turn under the rules the game folder holds now, so turn {turn}'s files differ from it where the change touches them: the differences below come of the change, not of a forgery. To audit turn {turn}, put {} back as {} for it (that file gives the digest of each part), run `pbem audit {} --turn {turn}`, then put the new rules back",
        rules.digest,
        game.shown(&path(game, turn)),
        rules_fixed::named(&differing),
        if one { "has" } else { "have" },
        now.digest,
        if one { "it" } else { "them" },
        if one { "it was" } else { "they were" },
        game.dir.display(),
    )))
}

/// What changed since `turn`'s commitment, if anything did: game.toml's `[dice]` (the scheme), or the
/// rules, each in words with what to do. Rules fixed anew by a later turn's commitment do not excuse
/// the turn's own: `resolve` and `close` play a turn under the rules of its commitment alone, or a
/// referee who wrote a later `scheme.toml` (or rekeyed the next turn, then resolved this one again
/// with `--force`) would play it under rules its reports do not name.
pub fn changed(game: &Game, turn: u32) -> Result<Option<String>> {
    changed_with(game, turn, false)
}

/// [`changed`] as `audit` asks it of a resolved turn: rules changed since through a later turn's
/// commitment (`pbem rekey`, told to every player) are not a change behind the turn's commitment
/// ([`refixed_since`] says what they do to the audit).
pub fn changed_since_resolved(game: &Game, turn: u32) -> Result<Option<String>> {
    changed_with(game, turn, true)
}

fn changed_with(game: &Game, turn: u32, later_commitments: bool) -> Result<Option<String>> {
    let fixed = load(game, turn)?;
    if let Some(why) = rewritten(game, turn, fixed.as_ref()) {
        return Ok(Some(why));
    }
    let Some(fixed) = fixed else {
        return Ok(None);
    };
    let now = (game.config.dice.scheme, game.config.dice.beacon);
    if (fixed.scheme, fixed.beacon) != now {
        return Ok(Some(format!(
            "turn {turn}'s commitment {} was made under {} ({}), but game.toml's [dice] now says {}: the dice scheme was changed after the commitment. Put [dice] back as it was for this turn; a new scheme starts with a new commitment (`pbem rekey`)",
            fixed.commitment,
            fixed.describe(),
            game.shown(&path(game, turn)),
            describe(now.0, now.1)
        )));
    }
    let Some(rules) = &fixed.rules else {
        return Ok(None);
    };
    let now = rules_fixed::of(game)?;
    if later_commitments && refixed_by(game, turn, rules, &now).is_some() {
        return Ok(None);
    }
    let differing = rules.differing(&now.as_fixed_by(rules));
    if differing.is_empty() {
        return Ok(None);
    }
    let one = differing.len() == 1;
    Ok(Some(format!(
        "turn {turn}'s commitment {} fixed the game's rules (their digest {}, {}), and {} {} changed since. A referee who knows the dice must not change what they do: put {} back as {} for this turn. To play it under new rules, make a new commitment with `pbem rekey {} --reason ...`, which tells every player what changed (a pbem-dice/v2 turn already closed cannot have one: the new rules then start with the next turn)",
        fixed.commitment,
        rules.digest,
        game.shown(&path(game, turn)),
        rules_fixed::named(&differing),
        if one { "has" } else { "have" },
        if one { "it" } else { "them" },
        if one { "it was" } else { "they were" },
        game.dir.display(),
    )))
}

/// Refuses to resolve `turn` under another scheme, or other rules, than it was committed under.
pub fn check(game: &Game, turn: u32) -> Result<()> {
    if let Some(why) = changed(game, turn)? {
        bail!("{why}. Nothing was changed.");
    }
    Ok(())
}
