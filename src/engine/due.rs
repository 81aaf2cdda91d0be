//! When a turn is due (issue 13.3): a turn is not resolved before its deadline unless every power due
//! has its orders in (or the referee says `--early`), and a demo's public secret is never played past
//! its sample turns. Moving a deadline is the referee's act (`referee::extend`).

use anyhow::{bail, Result};
use chrono::Utc;

use crate::game::Game;

/// The format of a deadline on the command line and in `acts.toml`: local time in the game's zone.
pub const LOCAL: &str = "%Y-%m-%dT%H:%M";

/// The powers due to send orders for `turn` whose orders are not in (or do not authenticate): the
/// ruleset's `expects_orders`, less the powers run by the SOP alone; a power run by another is due.
pub fn missing(game: &Game, turn: u32) -> Result<Vec<String>> {
    // The state is kept for the turn that follows the check (`Game::with_state`), and the orders
    // read against it (`Game::keep_with_state`).
    let (out, orders) = game.with_state(turn, |state| {
        let orders = crate::engine::inputs::read_orders(game, state, turn)?;
        let mut out = Vec::new();
        for p in &game.config.powers {
            let left_to_sop = state.controlled.get(&p.id).is_some_and(|c| c.by.is_none());
            if left_to_sop || !game.ruleset.expects_orders(state, &p.id) {
                continue;
            }
            let has = orders
                .iter()
                .any(|o| o.power == p.id && o.check.as_ref().is_some_and(|c| c.power.is_some()));
            if !has {
                out.push(p.id.clone());
            }
        }
        anyhow::Ok((out, orders))
    })??;
    game.keep_with_state(turn, orders);
    Ok(out)
}

/// Why `turn` is not due yet: before its deadline, the powers due whose orders are not in (none
/// when it is due: resolved already, `early`, no deadline, the deadline passed, or every power in).
pub fn not_due(game: &Game, turn: u32, early: bool) -> Result<Option<String>> {
    if early || game.is_resolved(turn) {
        return Ok(None);
    }
    let Some(deadline) = game.config.deadline_of(turn) else {
        return Ok(None);
    };
    if crate::clock::now()? >= deadline.with_timezone(&Utc) {
        return Ok(None);
    }
    let missing = missing(game, turn)?;
    if missing.is_empty() {
        return Ok(None);
    }
    Ok(Some(format!(
        "turn {turn} is due {}: orders are still missing from {}",
        deadline.format("%A %Y-%m-%d %H:%M %Z"),
        missing.join(", ")
    )))
}

/// What the referee is told when a turn is not due: [`not_due`]'s reason and his choices.
pub fn not_due_advice(game: &Game, why: &str) -> String {
    format!(
        "{why}. Wait for the deadline, or resolve now with --early (for each of those powers {} then decide).",
        game.ruleset.without_orders().its
    )
}

/// Refuses to resolve `turn` before its deadline while a power due has no orders in, unless `early`.
pub fn check_due(game: &Game, turn: u32, early: bool) -> Result<()> {
    match not_due(game, turn, early)? {
        None => Ok(()),
        Some(why) => bail!("{} Nothing was changed.", not_due_advice(game, &why)),
    }
}

/// Whether the dice secret of `turn` is one a bundled scenario publishes (the demo's): every player
/// can then compute the dice.
pub fn secret_is_public(game: &Game, turn: u32) -> bool {
    let Some(public) = crate::bundled::public_secret(&game.config.game, turn) else {
        return false;
    };
    std::fs::read_to_string(game.secret_path(turn)).is_ok_and(|s| s.trim() == public)
}

/// Refuses to play turn `turn` of a demo game past its sample turns with the demo's public secret.
pub fn check_secret(game: &Game, turn: u32) -> Result<()> {
    let samples = crate::bundled::sample_turns(&game.config.game, game.config.first_turn);
    if turn >= game.config.first_turn + samples && secret_is_public(game, turn) {
        bail!(
            "the dice secret of turn {turn} is the bundled demo's, which is public: every player can compute the dice. Run `pbem rekey {}` first (a fresh secret and commitment, announced to every player). Nothing was changed.",
            game.dir.display()
        );
    }
    Ok(())
}
