//! The edits of `game.toml` pbem makes itself, through toml_edit, so that the referee's comments,
//! order and layout stay as he wrote them: after `pbem replace`, the power's `players` name the new
//! player, so that game.toml names who plays each power now (EiA 19.2.2).

use anyhow::{Context, Result};

use super::Game;

/// Sets the `players` of power `power` in the game's `game.toml` to `players`, with `note` (lines
/// of text) as a comment above them, replacing any note an earlier edit put there.
pub fn set_players(game: &Game, power: &str, players: &[String], note: &str) -> Result<()> {
    let path = game.dir.join("game.toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", game.shown(&path)))?;
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .with_context(|| format!("{} is not TOML", game.shown(&path)))?;
    let table = doc
        .get_mut("power")
        .and_then(|p| p.as_array_of_tables_mut())
        .and_then(|powers| {
            powers
                .iter_mut()
                .find(|p| p.get("id").and_then(|v| v.as_str()) == Some(power))
        })
        .with_context(|| format!("no [[power]] '{power}' in {}", game.shown(&path)))?;
    let mut list = toml_edit::Array::new();
    for p in players {
        list.push(p.as_str());
    }
    table["players"] = toml_edit::value(list);
    if let Some(mut key) = table.key_mut("players") {
        let comment: String = note.lines().map(|l| format!("# {l}\n")).collect();
        key.leaf_decor_mut().set_prefix(comment);
    }
    super::fsio::write_atomic(&path, doc.to_string().as_bytes())
}
