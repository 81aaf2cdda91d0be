//! The referee's acts killed midway (`rekey`, `rollback`, `replace`, `extend`, `drop`, `end`, `reopen`,
//! `close`, `purge-passwords`, `accept-late`): each writes what it began first and is finished by
//! running it again, and until it is, no turn is resolved or closed and no other act that renews the
//! turn's secret begins: a rekey or rollback killed after its new commitment was made and before its
//! act and notices were written would otherwise have the turn resolved under a commitment announced
//! to nobody; an accept-late killed after its act, the turn resolved without the orders the act says
//! stand.

use anyhow::{bail, Context, Result};

use crate::game::Game;

/// `archive/rekey-<k>/rekey.toml`: a `pbem rekey` under way (`referee::rekey`).
pub const REKEY: &str = "rekey.toml";

/// `archive/rollback-<k>/rollback.toml`: a `pbem rollback` under way (`referee::rollback`).
pub const ROLLBACK: &str = "rollback.toml";

/// `secret/replace-<t>.toml`: a `pbem replace` of turn `turn` under way (`commands::replace`).
pub fn replace_path(game: &Game, turn: u32) -> std::path::PathBuf {
    game.dir.join("secret").join(format!("replace-{turn}.toml"))
}

/// `turns/<t>/extend.toml`: a `pbem extend` of turn `turn` under way (`referee::extend`).
pub fn extend_path(game: &Game, turn: u32) -> std::path::PathBuf {
    game.turn_dir(turn).join("extend.toml")
}

/// `turns/<t>/drop.toml`: a `pbem drop` of turn `turn` under way (`commands::drop`).
pub fn drop_path(game: &Game, turn: u32) -> std::path::PathBuf {
    game.turn_dir(turn).join("drop.toml")
}

/// `turns/<t>/end.toml`: a `pbem end` of the game at turn `turn` under way (`referee::end`).
pub fn end_path(game: &Game, turn: u32) -> std::path::PathBuf {
    game.turn_dir(turn).join("end.toml")
}

/// `turns/<t>/reopen.toml`: a `pbem reopen` of the game ended at turn `turn` under way
/// (`referee::reopen`).
pub fn reopen_path(game: &Game, turn: u32) -> std::path::PathBuf {
    game.turn_dir(turn).join("reopen.toml")
}

/// The first `archive/<act>-<k>` (k from 1) that holds `file`, the act under way, if any.
pub fn found(game: &Game, act: &str, file: &str) -> Option<String> {
    let mut k = 1;
    while game.dir.join(format!("archive/{act}-{k}")).exists() {
        let rel = format!("archive/{act}-{k}");
        if game.dir.join(&rel).join(file).is_file() {
            return Some(rel);
        }
        k += 1;
    }
    None
}

/// The act under way in the first `archive/<act>-<k>` that holds `file`, read, with that folder.
pub fn read<T: serde::de::DeserializeOwned>(
    game: &Game,
    act: &str,
    file: &str,
) -> Result<Option<(String, T)>> {
    let Some(rel) = found(game, act, file) else {
        return Ok(None);
    };
    let path = game.dir.join(&rel).join(file);
    let src = crate::game::load::read_source(&path, &game.shown(&path))?;
    Ok(Some((rel, crate::game::load::parse_toml(&src)?)))
}

/// The first `archive/<act>-<k>` not taken, for an act beginning: one an act killed before its
/// first file holds nothing but a temporary file.
pub fn next_archive(game: &Game, act: &str) -> String {
    let unused = |dir: &std::path::Path| {
        std::fs::read_dir(dir).is_ok_and(|mut d| {
            d.all(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with(".tmp-")))
        })
    };
    let mut k = 1;
    while game.dir.join(format!("archive/{act}-{k}")).exists()
        && !unused(&game.dir.join(format!("archive/{act}-{k}")))
    {
        k += 1;
    }
    format!("archive/{act}-{k}")
}

/// Writes down `plan`, the act begun in `rel` (`archive/<act>-<k>`), as `file`, before anything moves.
pub fn write<T: serde::Serialize>(game: &Game, rel: &str, file: &str, plan: &T) -> Result<()> {
    crate::game::fsio::write_atomic(
        &game.dir.join(rel).join(file),
        crate::game::load::to_toml(plan)?.as_bytes(),
    )
}

/// The act in `rel` is finished: its `file` goes.
pub fn done(game: &Game, rel: &str, file: &str) -> Result<()> {
    let path = game.dir.join(rel).join(file);
    std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", game.shown(&path)))?;
    crate::game::fsio::sync_dir(&game.dir.join(rel))
}

/// The plan of an act begun and killed midway, read from `path` (`end_path`, `reopen_path`, ...), if
/// there is one.
pub fn read_plan<T: serde::de::DeserializeOwned>(
    game: &Game,
    path: &std::path::Path,
) -> Result<Option<T>> {
    if !path.is_file() {
        return Ok(None);
    }
    let src = crate::game::load::read_source(path, &game.shown(path))?;
    Ok(Some(crate::game::load::parse_toml(&src)?))
}

/// The plan of an act at `path`: the one a killed run wrote, to finish as it was begun, else the one
/// `make` decides, written down before anything changes.
pub fn plan_once<T: serde::Serialize + serde::de::DeserializeOwned>(
    game: &Game,
    path: &std::path::Path,
    make: impl FnOnce() -> Result<T>,
) -> Result<T> {
    if let Some(plan) = read_plan(game, path)? {
        return Ok(plan);
    }
    let plan = make()?;
    crate::game::fsio::write_atomic(path, crate::game::load::to_toml(&plan)?.as_bytes())?;
    Ok(plan)
}

/// The act planned at `path` is finished: its plan goes.
pub fn finished(game: &Game, path: &std::path::Path) -> Result<()> {
    std::fs::remove_file(path).with_context(|| format!("cannot remove {}", game.shown(path)))
}

/// Refuses, naming the act and how to finish it, while an act killed midway waits to be finished;
/// `doing` says what waits ("turn 3 cannot be resolved"), and `own` names the act that asks, which
/// finishes its own (`"rekey"`, `"rollback"`), or `""`.
pub fn refuse(game: &Game, doing: &str, own: &str) -> Result<()> {
    let dir = game.dir.display();
    if own != "rekey" {
        if let Some(rel) = found(game, "rekey", REKEY) {
            bail!(
                "a `pbem rekey` was killed midway ({rel}/{REKEY}): its new commitment was announced to nobody. Finish it first by running `pbem rekey {dir}` again; until then {doing}. Nothing was changed."
            );
        }
    }
    if own != "rollback" {
        if let Some(rel) = found(game, "rollback", ROLLBACK) {
            bail!(
                "a `pbem rollback` was killed midway ({rel}/{ROLLBACK}): its new commitment was announced to nobody. Finish it first by running it again with the same `--to-turn` (`pbem rollback {dir} --to-turn N --reason ...`; its {ROLLBACK} names the turn); until then {doing}. Nothing was changed."
            );
        }
    }
    let turn = game.current_turn()?;
    // The acts of the turn, each with the file of its plan and how the referee finishes it.
    let begun = [
        (
            "replace",
            replace_path(game, turn),
            "running it again as it was begun".to_string(),
        ),
        (
            "extend",
            extend_path(game, turn),
            format!("running `pbem extend {dir}` again as it was begun"),
        ),
        (
            "drop",
            drop_path(game, turn),
            "running it again as it was begun".to_string(),
        ),
        (
            "end",
            end_path(game, turn),
            format!("running `pbem end {dir} --reason ...` again"),
        ),
        (
            "reopen",
            reopen_path(game, turn),
            format!("running `pbem reopen {dir} --reason ...` again"),
        ),
        (
            "close",
            crate::engine::close::begun_path(game, turn),
            format!("running `pbem close {dir}` again (it closes with the list it began with)"),
        ),
        (
            "purge-passwords",
            crate::mail::ingest::purge_plan_path(game, turn),
            format!("running `pbem purge-passwords {dir}` again (a turn resolved first would keep the passwords of the files it names for good)"),
        ),
    ];
    for (act, plan, how) in begun {
        if plan.is_file() {
            bail!(
                "a `pbem {act}` was killed midway ({} holds it): finish it first by {how}; until then {doing}. Nothing was changed.",
                game.printed(&plan)
            );
        }
    }
    // An accept-late's: one a moved deadline began is the extend's, rollback's or reopen's, named
    // above (a rollback finishes its own).
    if let Some(plan) = crate::mail::late::planned(game, turn)? {
        if plan.covered.is_none() {
            bail!(
                "a `pbem accept-late` was killed midway ({} holds it): the late orders of {} it accepts are not filed yet. Finish it first by running `{}` again; until then {doing}. Nothing was changed.",
                game.printed(&crate::mail::late::plan_path(game, turn)),
                plan.power,
                plan.command(game)
            );
        }
    }
    Ok(())
}
