//! `pbem rekey`: the current turn gets a fresh secret and commitment, announced to every player.

use anyhow::{bail, Result};

use crate::game::acts::{self, Act};
use crate::game::Game;

use super::deadline::{announce, move_into, Reopened};

/// A fresh secret for the unresolved turn `turn`, with its sealing secret (`engine::sealed`): the old
/// ones (kept in `keep`, the seal beside it) are never used again.
fn fresh_secret(game: &Game, turn: u32, keep: &std::path::Path) -> Result<(String, String)> {
    let old = crate::dice::to_hex(&game.commitment(turn)?);
    let secret = game.secret_path(turn);
    if secret.is_file() {
        move_into(&secret, keep)?;
    }
    let seal = game.seal_path(turn);
    if seal.is_file() {
        move_into(&seal, &keep.with_extension("seal"))?;
    }
    crate::engine::sealed::fresh_secret(game, turn)?;
    let c = crate::referee::turn::ensure_commitment(game, turn)?;
    Ok((old, crate::dice::to_hex(&c)))
}

/// `pbem rekey`: the current turn gets a fresh secret and commitment, announced to every player (a
/// demo's secrets are public; a secret that leaked is never used).
pub fn rekey(game: &Game, reason: &str) -> Result<Reopened> {
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    // pbem-dice/v2: after the close the orders, the entropy and the beacon's round are fixed and
    // known to the referee; a secret drawn now could be drawn to choose the dice.
    let closed = crate::engine::close::path(game, turn);
    if closed.is_file() {
        bail!(
            "turn {turn} is closed ({} was mailed to every player): its orders and entropy are fixed, and a secret drawn now, knowing them (and the beacon), could be chosen to steer the dice. Resolve it with the secret it was committed to; to play it again with a fresh one, `pbem rollback` it after. Nothing was changed.",
            game.printed(&closed)
        );
    }
    let mut k = 1;
    while game.dir.join(format!("archive/rekey-{k}")).exists() {
        k += 1;
    }
    let rel = format!("archive/rekey-{k}");
    // The rules fixed with the old commitment: the notice names what the new one fixes otherwise.
    let old_rules = crate::game::scheme::load(game, turn)?.and_then(|f| f.rules);
    let (old, new) = fresh_secret(
        game,
        turn,
        &game.dir.join(format!("{rel}/secret/{turn}.key")),
    )?;
    let now_rules = crate::game::scheme::load(game, turn)?.and_then(|f| f.rules);
    let reason = match crate::game::rules_fixed::change_told(old_rules.as_ref(), now_rules.as_ref())
    {
        Some(told) => format!("{reason}; {told}"),
        None => reason.to_string(),
    };
    let reason = reason.as_str();
    acts::append(
        game,
        turn,
        Act {
            kind: "rekey".into(),
            rule: "pbem rekey".into(),
            text: format!("turn {turn} has a fresh dice secret: {reason}"),
            reason: Some(reason.to_string()),
            old_commitment: Some(old),
            new_commitment: Some(new.clone()),
            archive: Some(rel.clone()),
            ..Act::default()
        },
    )?;
    let game = Game::load(&game.dir)?;
    let shown = game.config.deadline_shown(turn);
    let n = acts::load(&game.dir, turn)?.acts.len();
    let notices = announce(
        &game,
        turn,
        &format!("rekey-{n}"),
        &format!("a new dice commitment for turn {turn} ({reason})"),
        Some(&format!(
            "Turn {turn} has a new dice secret and commitment ({reason})"
        )),
    )?;
    Ok(Reopened {
        turn,
        archive: Some(rel),
        commitment: new,
        deadline: shown,
        notices,
        judged_again: Vec::new(),
    })
}
