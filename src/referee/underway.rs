//! The referee's acts killed midway (`rekey`, `rollback`, `replace`, `extend`): each writes what it
//! began first and is finished by running it again, and until it is, no turn is resolved or closed
//! and no other act that renews the turn's secret begins: a rekey or rollback killed after its new
//! commitment was made and before its act and notices were written would otherwise have the turn
//! resolved under a commitment announced to nobody.

use anyhow::{bail, Result};

use crate::game::Game;

/// `secret/replace-<t>.toml`: a `pbem replace` of turn `turn` under way (`commands::replace`).
pub fn replace_path(game: &Game, turn: u32) -> std::path::PathBuf {
    game.dir.join("secret").join(format!("replace-{turn}.toml"))
}

/// Refuses, naming the act and how to finish it, while an act killed midway waits to be finished;
/// `doing` says what waits ("turn 3 cannot be resolved"), and `own` names the act that asks, which
/// finishes its own (`"rekey"`, `"rollback"`), or `""`.
pub fn refuse(game: &Game, doing: &str, own: &str) -> Result<()> {
    let dir = game.dir.display();
    if own != "rekey" {
        if let Some(rel) = super::rekey::underway(game)? {
            bail!(
                "a `pbem rekey` was killed midway ({rel}/{}): its new commitment was announced to nobody. Finish it first by running `pbem rekey {dir}` again; until then {doing}. Nothing was changed.",
                super::rekey::UNDERWAY
            );
        }
    }
    if own != "rollback" {
        if let Some((rel, to_turn)) = super::rollback::underway(game)? {
            bail!(
                "a `pbem rollback` to turn {to_turn} was killed midway ({rel}/rollback.toml): its new commitment was announced to nobody. Finish it first with `pbem rollback {dir} --to-turn {to_turn} --reason ...`; until then {doing}. Nothing was changed."
            );
        }
    }
    let turn = game.current_turn()?;
    let replace = replace_path(game, turn);
    if replace.is_file() {
        bail!(
            "a `pbem replace` was killed midway ({} holds it): finish it first by running it again as it was begun; until then {doing}. Nothing was changed.",
            game.printed(&replace)
        );
    }
    let extend = super::extend::MoveUnderway::path(game, turn);
    if extend.is_file() {
        bail!(
            "a `pbem extend` was killed midway ({} holds it): finish it first by running `pbem extend {dir}` again as it was begun; until then {doing}. Nothing was changed.",
            game.printed(&extend)
        );
    }
    Ok(())
}
