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
    /// The diagnostics rendered against the file's text (passwords masked), named by its path in
    /// the game folder: the referee's.
    pub rendered: String,
    /// The same, as its player is shown them (his report): named by what he sent, his mail by its
    /// subject or his attachment's name, and by the lines of his mail (`game::submission::sent`),
    /// a file placed by hand by its own name and lines; never by the referee's folder.
    pub told: String,
    /// The line each line of the file is as its player knows it (`game::submission::sent`): what
    /// his report names the orders that stand by.
    pub lines: crate::diag::LineMap,
    /// The password hash the file's `password` line was checked against (none without that line),
    /// which the turn's record keeps (`TurnRecord::password_hashes`).
    pub checked_hash: Option<String>,
    /// The file's bytes as read and checked (none when the power sent no orders): what the turn
    /// reads and its record digests.
    pub bytes: Option<Vec<u8>>,
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
    let checker = game.ruleset.checker(game, state);
    let files: Vec<(&str, Option<String>)> = game
        .config
        .powers
        .iter()
        .flat_map(|p| {
            let slots = crate::engine::command::slots(p);
            slots.into_iter().map(|player| (p.id.as_str(), player))
        })
        .collect();
    // Each file is read and checked alone, side by side (a turn of 1,000 powers checks 1,000 files
    // before it begins, on one core otherwise: issue 39), and listed in this order.
    let mut out = Vec::with_capacity(files.len());
    crate::parallel::map_in_order(
        &files,
        crate::parallel::threads(),
        |(power, player)| read_one(game, state, &*checker, turn, power, player.clone()),
        |status| {
            out.push(status);
            Ok(())
        },
    )?;
    Ok(out)
}

/// [`read_orders`] for the turn itself: the orders a check before it read (`engine::due`, kept by
/// `Game::keep_with_state`) when the turn's state is the one they were checked against
/// (`Game::take_kept`) and every file reads as it did then, byte for byte (a file come or
/// gone since is read anew with the rest). A turn of 1,000 powers reads and checks 1,000 files
/// once a run, not twice (issue 39).
pub fn read_orders_once(
    game: &Game,
    state: &crate::game::state::State,
    turn: u32,
) -> Result<Vec<OrdersFileStatus>> {
    if let Some(kept) = game.take_kept::<Vec<OrdersFileStatus>>(turn) {
        let reads_the_same = |o: &OrdersFileStatus| {
            let path = game.player_orders_path(turn, &o.power, o.player.as_deref());
            match &o.bytes {
                None => !path.is_file(),
                Some(bytes) => path.is_file() && std::fs::read(&path).is_ok_and(|b| b == *bytes),
            }
        };
        if kept.iter().all(reads_the_same) {
            return Ok(kept);
        }
    }
    read_orders(game, state, turn)
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
            told: String::new(),
            lines: Default::default(),
            checked_hash: None,
            bytes: None,
        });
    }
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {shown}"))?;
    let (source, mut check) = crate::rules::check_file_with(checker, &shown, &bytes);
    if let Some(q) = &check.power {
        let whose = crate::engine::command::file_stem(q, check.player.as_deref());
        let stem = crate::engine::command::file_stem(power, player.as_deref());
        if whose != stem {
            check.diagnostics.push(crate::diag::Diagnostic::error(
                format!("this file holds orders for {whose}, not for {stem}"),
                0..0,
            ));
            check.power = None;
            check.accepted.clear();
        }
    }
    let rendered = source.render(&check.diagnostics);
    let (header, _, _) =
        crate::orders::Header::take(&source.text, crate::orders::split(&source.text));
    let sent = header
        .submission
        .and_then(|s| crate::game::submission::sent(game, &s.value, &bytes))
        .unwrap_or_else(|| crate::game::submission::SentAs {
            name: path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            lines: Default::default(),
        });
    let told = if check.diagnostics.is_empty() {
        String::new()
    } else {
        crate::diag::Source::new(sent.name, source.text.clone())
            .with_lines(sent.lines.clone())
            .render(&check.diagnostics)
    };
    let checked_hash = checked_hash(game, state, &check, turn, power, player.as_deref());
    Ok(OrdersFileStatus {
        power: power.to_string(),
        player,
        path: shown,
        check: Some(check),
        rendered,
        told,
        lines: sent.lines,
        checked_hash,
        bytes: Some(bytes),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 39: the orders a check read against the state it kept are the turn's while the turn
    /// takes that state and every orders file reads the same; read anew otherwise (a kept reading
    /// marked in its rendered text shows which one the turn got), and taken once.
    #[test]
    fn the_orders_a_check_read_are_the_turns_while_their_files_read_the_same() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("ulm-1805");
        crate::bundled::write_scenario("ulm-1805", &dir).unwrap();
        let game = Game::load(&dir).unwrap();
        let (first, second) = (&game.config.powers[0].id, &game.config.powers[1].id);
        let file = |power: &str| game.player_orders_path(1, power, None);
        std::fs::create_dir_all(file(first).parent().unwrap()).unwrap();
        std::fs::write(file(first), "game ulm-1805\nturn 1\n").unwrap();
        let keep = || {
            let orders = game
                .with_state(1, |s| read_orders(&game, s, 1))
                .unwrap()
                .unwrap();
            let marked = orders
                .into_iter()
                .map(|o| OrdersFileStatus {
                    rendered: "kept".into(),
                    ..o
                })
                .collect();
            game.keep_with_state::<Vec<OrdersFileStatus>>(1, marked);
        };
        let read = || {
            let state = game.load_state(1).unwrap();
            let orders = read_orders_once(&game, &state, 1).unwrap();
            (orders.iter().all(|o| o.rendered == "kept"), orders)
        };

        keep();
        let (kept, orders) = read();
        assert!(kept, "the check's orders");
        let first_file = orders.iter().find(|o| &o.power == first).unwrap();
        assert_eq!(
            first_file.bytes.as_deref(),
            Some(&b"game ulm-1805\nturn 1\n"[..])
        );
        assert!(!read().0, "taken once");

        keep();
        std::fs::write(file(first), "game ulm-1805\nturn 1\n# edited\n").unwrap();
        assert!(!read().0, "an orders file changed");

        keep();
        std::fs::write(file(second), "game ulm-1805\nturn 1\n").unwrap();
        assert!(!read().0, "an orders file came");

        keep();
        std::fs::remove_file(file(second)).unwrap();
        assert!(!read().0, "an orders file went");

        keep();
        let state = game.state_path(1);
        let text = std::fs::read_to_string(&state).unwrap();
        std::fs::write(&state, format!("{text}\n# edited\n")).unwrap();
        assert!(
            !read().0,
            "the state changed: the orders are checked against the new one"
        );

        keep();
        assert!(read().0, "kept again once all reads the same");
    }
}
