//! What a turn reads before it is resolved, and what the reports, the mail and the audit read of it
//! afterwards: every power's orders file checked against the turn's state, and the turn's record.
//! The pipeline that resolves a turn and writes its files is `referee::turn`.

use anyhow::{Context, Result};

use crate::game::record::TurnRecord;
use crate::game::Game;
use crate::rules::OrdersCheck;

/// The orders file of one power, as read for a turn.
#[derive(Debug, Clone)]
pub struct OrdersFileStatus {
    pub power: String,
    /// The player whose file it is, for a power with several (`engine::command`).
    pub player: Option<String>,
    /// Path shown to the referee.
    pub path: String,
    /// None when the power sent no orders.
    pub check: Option<OrdersCheck>,
    /// The diagnostics rendered against the file's text (passwords masked).
    pub rendered: String,
    /// The password hash the file's `password` line was checked against (none without that line),
    /// which the turn's record keeps (`TurnRecord::password_hashes`).
    pub checked_hash: Option<String>,
}

impl OrdersFileStatus {
    /// The name of its file without `.txt`: `france`, or `france.ney` for a player of a power with
    /// several.
    pub fn stem(&self) -> String {
        crate::engine::command::file_stem(&self.power, self.player.as_deref())
    }
}

/// Reads and checks the orders of every power for turn `t` (powers in game.toml order; the players of
/// a power with several, highest rank first, each with his own file).
pub fn read_orders(
    game: &Game,
    state: &crate::game::state::State,
    turn: u32,
) -> Result<Vec<OrdersFileStatus>> {
    let mut out = Vec::new();
    let checker = game.ruleset.checker(game, state);
    for p in &game.config.powers {
        for player in crate::engine::command::slots(p) {
            out.push(read_one(game, state, &*checker, turn, &p.id, player)?);
        }
    }
    Ok(out)
}

/// Reads and checks the orders file of one player of a power.
fn read_one(
    game: &Game,
    state: &crate::game::state::State,
    checker: &dyn Fn(&crate::diag::Source) -> OrdersCheck,
    turn: u32,
    power: &str,
    player: Option<String>,
) -> Result<OrdersFileStatus> {
    let path = game.player_orders_path(turn, power, player.as_deref());
    let shown = game.shown(&path);
    if !path.is_file() {
        return Ok(OrdersFileStatus {
            power: power.to_string(),
            player,
            path: shown,
            check: None,
            rendered: String::new(),
            checked_hash: None,
        });
    }
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {shown}"))?;
    let (source, mut check) = crate::rules::check_file_with(checker, &shown, &bytes);
    if let Some(q) = &check.power {
        let whose = crate::engine::command::file_stem(q, check.player.as_deref());
        let stem = crate::engine::command::file_stem(power, player.as_deref());
        if whose != stem {
            check.diagnostics.push(crate::diag::Diagnostic::error(
                format!("{shown} holds orders for {whose}, not for {stem}"),
                0..0,
            ));
            check.power = None;
            check.accepted.clear();
        }
    }
    let rendered = source.render(&check.diagnostics);
    let checked_hash = checked_hash(game, state, &check, turn, power, player.as_deref());
    Ok(OrdersFileStatus {
        power: power.to_string(),
        player,
        path: shown,
        check: Some(check),
        rendered,
        checked_hash,
    })
}

/// The password hash a file's `password` line is checked against (`orders::check_header_with`):
/// the one a re-resolution fixes (`GameConfig::checked_hashes`), else the player's as he stands at
/// the turn, else the power's (`game::owners::password_hashes`); none without a password line.
fn checked_hash(
    game: &Game,
    state: &crate::game::state::State,
    check: &OrdersCheck,
    turn: u32,
    power: &str,
    player: Option<&str>,
) -> Option<String> {
    if !check.password_line {
        return None;
    }
    let stem = crate::engine::command::file_stem(power, player);
    if let Some(h) = game.config.checked_hashes.get(&stem) {
        return Some(h.clone());
    }
    match player {
        Some(id) => Some(
            game.config
                .power(power)?
                .command(id)?
                .at(turn)
                .password_hash,
        ),
        None => crate::game::owners::password_hashes(&game.config, state, power)
            .into_iter()
            .next(),
    }
}

/// Loads `turns/<t>/record.toml`.
pub fn load_record(game: &Game, turn: u32) -> Result<TurnRecord> {
    let path = game.record_path(turn);
    let src = crate::game::load::read_source(&path, &game.shown(&path))?;
    Ok(crate::game::load::parse_toml(&src)?)
}

/// A path inside the game folder with `/` separators.
pub fn relative(game: &Game, path: &std::path::Path) -> String {
    relative_to(&game.dir, path)
}

/// A path inside `dir` with `/` separators.
pub fn relative_to(dir: &std::path::Path, path: &std::path::Path) -> String {
    let rel = path.strip_prefix(dir).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}
