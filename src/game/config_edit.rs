//! The edits of `game.toml` pbem makes itself, through toml_edit, so that the referee's comments,
//! order and layout stay as he wrote them: after `pbem replace`, the power's `players` name the new
//! player, so that game.toml names who plays each power now (EiA 19.2.2); after `pbem rollback`
//! past a replace, they name again whom its act names as the player who left (the acts are the
//! record: game.toml follows them).

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

/// Before `pbem rollback` undoes the turns from `from` on: each `replace` act of those turns is
/// undone in game.toml too, the latest first, its power's `players` set back to the player who
/// left as the act keeps him (`departing`), or, when he was himself a replacement, to the new
/// player of the replace before it. Returns the powers set back, with their players.
pub fn undo_replacements(game: &Game, from: u32) -> Result<Vec<(String, Vec<String>)>> {
    use super::acts::Act;
    let mut replaces: Vec<(u32, Act)> = Vec::new();
    let mut turn = game.config.first_turn;
    while game.turn_dir(turn).exists() {
        for a in super::acts::load(&game.dir, turn)?.acts {
            if a.kind == "replace" && a.power.is_some() {
                replaces.push((turn, a));
            }
        }
        turn += 1;
    }
    let mut out = Vec::new();
    for i in (0..replaces.len()).rev() {
        let (turn, act) = &replaces[i];
        if *turn < from {
            break;
        }
        let power = act.power.clone().unwrap_or_default();
        let before = act
            .departing
            .as_ref()
            .map(|d| d.players.clone())
            .or_else(|| {
                replaces[..i]
                    .iter()
                    .rev()
                    .find(|(_, a)| a.power.as_deref() == Some(power.as_str()))
                    .and_then(|(_, a)| a.incoming.as_ref().map(|p| p.players.clone()))
            });
        let Some(players) = before else { continue };
        set_players(
            game,
            &power,
            &players,
            &format!(
                "pbem rollback: the replace of turn {turn} is undone; {} plays {power} again.",
                players.join(", ")
            ),
        )?;
        out.push((power, players));
    }
    Ok(out)
}
