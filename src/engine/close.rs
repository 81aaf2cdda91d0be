//! The closing list of a turn's orders (pbem-dice/v2): at the deadline, the list of powers with orders in, the
//! SHA-256 of each power's orders as filed (`D_p`) and its entropy (`E_p`), and their hash `X_t`, kept in
//! `turns/<t>/close.toml` and mailed to every player before the turn is resolved. The turn's seed is made
//! of exactly that list: resolving refuses orders that differ from it. Closing a turn (writing the
//! list and its mail) is the referee's act, `referee::close`.

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::dice::v2::{self, Closed};
use crate::dice::{self, Bytes32};
use crate::game::Game;

/// `turns/<t>/close.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseFile {
    pub scheme: String,
    pub game: String,
    pub turn: u32,
    /// `X_t`, hex.
    pub close: String,
    #[serde(default, rename = "power")]
    pub powers: Vec<ClosedEntry>,
}

/// One power on the closing list, as `close.toml` and the closing mail write it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClosedEntry {
    pub id: String,
    /// `D_p`, hex.
    pub orders: String,
    /// `E_p`, hex, or `none`.
    pub entropy: String,
}

impl CloseFile {
    pub(crate) fn of(game: &Game, turn: u32, list: &[Closed]) -> CloseFile {
        let mut powers: Vec<ClosedEntry> = list
            .iter()
            .map(|c| ClosedEntry {
                id: c.power.clone(),
                orders: dice::to_hex(&c.orders),
                entropy: c.entropy.as_ref().map_or("none".into(), dice::to_hex),
            })
            .collect();
        powers.sort_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
        CloseFile {
            scheme: v2::SCHEME.into(),
            game: game.config.game.clone(),
            turn,
            close: dice::to_hex(&v2::close_digest(&game.config.game, turn, list)),
            powers,
        }
    }
}

/// The path of a turn's closing list.
pub fn path(game: &Game, turn: u32) -> std::path::PathBuf {
    game.turn_dir(turn).join("close.toml")
}

/// `turns/<t>/close-begun.toml`: the closing list of a close under way, written before its mail and
/// removed once `close.toml` is in place, so that a close killed midway (its mail half written) is
/// finished by running it again with the list it began with, and nothing goes on meanwhile
/// (`referee::underway`).
pub fn begun_path(game: &Game, turn: u32) -> std::path::PathBuf {
    game.turn_dir(turn).join("close-begun.toml")
}

/// The closing list of `turn` from the orders filed now: every power whose orders file authenticates,
/// with the digest of the file and the v2 entropy of its entropy line.
pub fn list_now(game: &Game, turn: u32) -> Result<Vec<Closed>> {
    let state = game.load_state(turn)?;
    let mut list = Vec::new();
    for o in crate::engine::inputs::read_orders(game, &state, turn)? {
        let Some(check) = &o.check else { continue };
        let Some(power) = &check.power else { continue };
        let bytes = std::fs::read(game.player_orders_path(turn, power, o.player.as_deref()))
            .with_context(|| format!("cannot read {}", o.path))?;
        list.push(Closed {
            power: crate::engine::command::file_stem(power, o.player.as_deref()),
            orders: crate::orders::filed::receipt_digest(&bytes),
            entropy: check.entropy.as_deref().map(v2::entropy),
        });
    }
    Ok(list)
}

/// The closing list of `turn` as closed, if it is.
pub fn load(game: &Game, turn: u32) -> Result<Option<CloseFile>> {
    let p = path(game, turn);
    if !p.is_file() {
        return Ok(None);
    }
    let text =
        std::fs::read_to_string(&p).with_context(|| format!("cannot read {}", game.shown(&p)))?;
    let file: CloseFile = toml::from_str(&text)
        .with_context(|| format!("{} is not a closing list", game.shown(&p)))?;
    Ok(Some(file))
}

/// `X_t` of the closed turn, after checking that the orders filed now are those of the closing list:
/// after the close, no contribution can be added, dropped or changed.
pub fn closed_digest(game: &Game, turn: u32) -> Result<(CloseFile, Bytes32)> {
    let Some(file) = load(game, turn)? else {
        bail!("turn {turn} is not closed: run `pbem close` first (pbem-dice/v2)");
    };
    let now = CloseFile::of(game, turn, &list_now(game, turn)?);
    if now != file {
        let changed: std::collections::BTreeSet<&str> = now
            .powers
            .iter()
            .filter(|p| !file.powers.contains(p))
            .chain(file.powers.iter().filter(|p| !now.powers.contains(p)))
            .map(|p| p.id.as_str())
            .collect();
        bail!(
            "the orders of turn {turn} differ from its closing list {} ({}): after the close no orders or entropy can change",
            game.shown(&path(game, turn)),
            changed.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    let x = dice::from_hex(&file.close).context("the closing digest is not 64 hex digits")?;
    Ok((file, x))
}

/// The text of the closing list, as mailed and as `verify --close` reads it back.
pub fn text(file: &CloseFile) -> String {
    let mut t = format!(
        "{}\nclosing list of game {} turn {}\n",
        file.scheme, file.game, file.turn
    );
    for p in &file.powers {
        t.push_str(&format!(
            "power {}: orders {} entropy {}\n",
            p.id, p.orders, p.entropy
        ));
    }
    t.push_str(&format!("close: {}\n", file.close));
    t
}

/// Reads a closing list back from the text of a closing mail.
pub fn parse_text(text: &str) -> Option<(String, u32, String, Vec<ClosedEntry>)> {
    let mut lines = text.lines().map(str::trim);
    lines.find(|l| *l == v2::SCHEME)?;
    let head = lines.next()?.strip_prefix("closing list of game ")?;
    let (game, turn) = head.rsplit_once(" turn ")?;
    let turn: u32 = turn.parse().ok()?;
    let mut powers = Vec::new();
    for l in lines {
        if let Some(x) = l.strip_prefix("close: ") {
            return Some((game.to_string(), turn, x.to_string(), powers));
        }
        let (id, rest) = l.strip_prefix("power ")?.split_once(": orders ")?;
        let (orders, entropy) = rest.split_once(" entropy ")?;
        powers.push(ClosedEntry {
            id: id.into(),
            orders: orders.into(),
            entropy: entropy.into(),
        });
    }
    None
}
