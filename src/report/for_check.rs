//! What a player's own check needs (`pbem check --report`), carried in his JSON report as its
//! `check` object: the game as he may know it, in the files `pbem check` reads from a game folder.
//! `game.toml` without a password hash, an address, the mail settings or another power's players; the map and the ruleset's
//! tables as they are (the board and the rules are public); the state at the start of the turn his
//! orders are for, fogged: his units, the units he sees exactly, the control he knows, his own
//! standing orders and the ruleset's secrets of his alone (`Ruleset::fog`).
//!
//! What such a check cannot know: his password (the referee checks it), and whatever an order
//! depends on that he does not see (an enemy unit out of his sight, a control he does not know).

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use crate::engine::visibility::Precision;
use crate::game::state::State;
use crate::game::Game;

use super::json::CheckData;
use super::view::{PowerView, ReportInput};

pub use super::json::CHECK_FORMAT as FORMAT;

/// What stands in the place of every password hash and address of the rebuilt game.toml.
const WITHHELD: &str = "withheld";

/// The largest `map.toml` a report carries (every bundled map is far smaller); a report of a game
/// with a larger map carries no `check` object, so that a game of a thousand powers does not mail
/// its whole map a thousand times.
pub const MAX_MAP_BYTES: usize = 64 * 1024;

/// The map and tables of the game in `dir`, which the `check` object carries as they are, or
/// `None` when one cannot be read or the map is too large.
fn read_files(dir: &Path) -> Option<(String, String)> {
    let map = std::fs::read_to_string(dir.join("map.toml")).ok()?;
    let tables = std::fs::read_to_string(dir.join("tables.toml")).ok()?;
    (map.len() <= MAX_MAP_BYTES).then_some((map, tables))
}

/// The `check` object of `view`'s report, or `None` when the ruleset cannot fog its state or the
/// game's files are not to be carried (see [`read_files`]).
pub fn build(game: &Game, input: &ReportInput<'_>, view: &PowerView) -> Option<CheckData> {
    let files = input
        .shared
        .check_files
        .get_or_init(|| read_files(&game.rules_dir))
        .as_ref()?;
    let power = input.power;
    let mut state = input.state_after.clone();
    // The units he may know as they are: his own (for one player of a power with several, those
    // of his command) and the foreign ones his report shows exactly; none known by identity alone
    // or from afar.
    let keep: BTreeSet<&str> = view
        .units
        .iter()
        .chain(view.seen.iter().filter(|u| u.precision == Precision::Exact))
        .map(|u| u.id.as_str())
        .collect();
    let sees: BTreeSet<&str> = view
        .map
        .areas
        .iter()
        .filter(|a| a.seen.is_some())
        .map(|a| a.id.as_str())
        .collect();
    if !game
        .ruleset
        .fog(&mut state, power, &|id| keep.contains(id), &|area| {
            sees.contains(area)
        })
    {
        return None;
    }
    let known: BTreeSet<&str> = view
        .map
        .areas
        .iter()
        .filter(|a| a.control_known)
        .map(|a| a.id.as_str())
        .collect();
    state
        .control
        .retain(|area, _| known.contains(area.as_str()));
    state.standing.retain(|p, _| p == power);
    for player in state.owners.values_mut().chain(state.incoming.values_mut()) {
        player.players.clear();
        player.password_hash = WITHHELD.to_string();
    }
    for c in state.controlled.values_mut() {
        c.left.clear();
    }
    let state_toml = crate::game::load::to_toml(&state).ok()?;
    Some(CheckData {
        format: FORMAT.to_string(),
        turn: state.turn,
        game_toml: withheld_config(game, power, state.turn)?,
        map_toml: files.0.clone(),
        tables_toml: files.1.clone(),
        state_toml,
    })
}

/// `game.toml` with no password hash, no address and no mail settings, and a fixed deadline: what
/// the referee may change between turns without changing the game (addresses, `[mail]`,
/// deadlines, time zones, what comes of late orders, the least notice, reminders, when sealed
/// rolls may be unsealed) is left out, so that `pbem audit` finds the report it re-resolves the
/// same. A check reads no deadline. Each player of a power with several stands as he is at `turn`,
/// the turn the check is for: his dated changes in force by then folded in, none listed, so that a
/// change the referee adds later for a turn after it (docs/REFEREE.md) leaves the report as it was.
/// Another power stands as a power of one player: how its players share its units (their ranks and
/// scopes, which name its units one by one) is its own, and a check of `power`'s orders reads none of
/// it (GITM 4.1, 4.6: another side's brigades are known only as its sighting tells them).
fn withheld_config(game: &Game, power: &str, turn: u32) -> Option<String> {
    let mut config = game.config.clone();
    config.nonce = None;
    config.mail = Default::default();
    config.deadline.time_zone = toml::Spanned::new(0..0, "UTC".to_string());
    config.deadline.first = toml::Spanned::new(0..0, "2000-01-01T00:00".to_string());
    config.deadline.every_days = 7;
    config.deadline.late_orders = "reject".to_string();
    config.deadline.least_notice_hours = None;
    config.deadline.remind_hours_before = None;
    config.dice.unseal_after = None;
    for p in &mut config.powers {
        p.players.clear();
        p.time_zone = None;
        if p.id != power && p.has_commands() {
            p.commands.clear();
            p.ranks.clear();
            p.reports = None;
            p.password_hash = toml::Spanned::new(0..0, WITHHELD.to_string());
        }
        if !p.password_hash.get_ref().is_empty() {
            p.password_hash = toml::Spanned::new(0..0, WITHHELD.to_string());
        }
        for c in &mut p.commands {
            c.scope = c.at(turn).scope;
            c.changes.clear();
            c.address = WITHHELD.to_string();
            c.password_hash = toml::Spanned::new(0..0, WITHHELD.to_string());
        }
    }
    crate::game::load::to_toml(&config).ok()
}

/// The game and state a player's check reads, rebuilt from his JSON report in a folder of its own
/// (which lives as long as the game is used).
pub struct FromReport {
    pub game: Game,
    pub state: State,
    pub power: String,
    pub folder: tempfile::TempDir,
}

/// Rebuilds the game of the JSON report at `path` (`bytes`), as a player's own check reads it.
pub fn load(path: &Path, bytes: &[u8]) -> Result<FromReport> {
    #[derive(Deserialize)]
    struct Head {
        format: String,
        power: PowerId,
        check: Option<CheckData>,
    }
    #[derive(Deserialize)]
    struct PowerId {
        id: String,
    }
    let shown = path.display();
    // An editor that saved the file may have put a byte-order mark before it.
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    let head: Head = serde_json::from_slice(bytes)
        .with_context(|| format!("{shown} is not a JSON report of pbem"))?;
    if head.format != super::json::FORMAT {
        bail!(
            "{shown} is a '{}' report; this pbem reads '{}'",
            head.format,
            super::json::FORMAT
        );
    }
    let Some(check) = head.check else {
        bail!("{shown} carries nothing for a player's own check (its game's map is over {} KiB, its ruleset cannot hide what the power does not see, or an older pbem wrote it): check your orders with the referee", MAX_MAP_BYTES / 1024);
    };
    if check.format != FORMAT {
        bail!(
            "{shown} carries a '{}' check; this pbem reads '{FORMAT}'",
            check.format
        );
    }
    let folder = tempfile::tempdir().context("cannot make a folder to rebuild the game in")?;
    for (name, text) in [
        ("game.toml", &check.game_toml),
        ("map.toml", &check.map_toml),
        ("tables.toml", &check.tables_toml),
    ] {
        std::fs::write(folder.path().join(name), text)
            .with_context(|| format!("cannot write {name} into {}", folder.path().display()))?;
    }
    let mut game = Game::load(folder.path())
        .with_context(|| format!("the game carried by {shown} does not load"))?;
    game.config.passwords_withheld = true;
    let source = crate::diag::Source::new(format!("{shown} (its state)"), check.state_toml);
    let state = game
        .parse_state(&source)
        .with_context(|| format!("the state carried by {shown} does not load"))?;
    Ok(FromReport {
        game,
        state,
        power: head.power.id,
        folder,
    })
}
