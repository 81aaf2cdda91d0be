//! `turns/<t>/acts.toml`: the referee's acts on a turn that is not resolved yet (issue 13.2).
//!
//! Dropping a power, announcing its replacement, moving the deadline, reopening the turn after a
//! rollback, giving it a fresh secret or accepting a late submission are decisions that change the game but not the state a
//! resolved turn wrote: they are appended here, never written into `state.toml` (which the previous
//! turn's record lists byte for byte). `Game::load_state` applies them to the turn's state; the record
//! of the turn keeps the file's SHA-256, so that the acts are part of the chain of records and `audit`
//! re-resolves the turn with them.

use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::game::fsio::write_atomic;
use crate::game::record::sha256_hex;
use crate::game::state::{Controlled, Player, State};
use crate::game::Game;

/// The file of a turn's acts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Acts {
    #[serde(default, rename = "act")]
    pub acts: Vec<Act>,
}

/// One act of the referee, in the order made.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Act {
    /// `drop`, `replace`, `extend`, `rollback`, `rekey`, `accept-late`, `end` or `reopen`.
    pub kind: String,
    /// The rule it applies (`EiA 19.2.1`, `pbem extend`).
    pub rule: String,
    /// What it did, in words.
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    /// `drop`, `replace`: the power's control from now on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controlled: Option<Controlled>,
    /// `replace`: the new player, waiting for the economic phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incoming: Option<Player>,
    /// `replace`: the player who leaves, as game.toml named him before `replace` wrote the new one
    /// there, so that he stays known as the one who left (EiA 19.2.1: his orders stand no more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub departing: Option<Player>,
    /// `extend`, `rollback`, `reopen`: the turn's deadline from now on, local `YYYY-MM-DDTHH:MM`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    /// `rollback`, `rekey`: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `rollback`, `rekey`: the commitment the turn had, and the fresh one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_commitment: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_commitment: Option<String>,
    /// `rollback`: the folder the undone turns went to, inside the game folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<String>,
    /// `accept-late`: the SHA-256 of the late message accepted (its name in `mail/inbox/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `accept-late`: the SHA-256 of the orders filed from it (`orders/<t>/<power>.txt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orders: Option<String>,
    /// `end`: the turns whose sealed lists it published (`unsealed/<t>.txt`), which none had
    /// published before; a `reopen` before any player heard of the end seals them again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsealed: Vec<u32>,
    /// `end`: the messages about the turn not played it withdrew before they went (outbox names),
    /// which a `reopen` sends after all (the welcomes always, the others while no one heard of the
    /// end).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawn: Vec<String>,
}

/// The path of a turn's acts.
pub fn path(game_dir: &Path, turn: u32) -> std::path::PathBuf {
    game_dir
        .join("turns")
        .join(turn.to_string())
        .join("acts.toml")
}

/// Reads the acts of a turn (none when there is no file).
pub fn load(game_dir: &Path, turn: u32) -> Result<Acts> {
    let p = path(game_dir, turn);
    if !p.is_file() {
        return Ok(Acts::default());
    }
    let shown = format!("turns/{turn}/acts.toml");
    let src = crate::game::load::read_source(&p, &shown)?;
    Ok(crate::game::load::parse_toml(&src)?)
}

/// Appends an act to a turn's file (atomically).
pub fn append(game: &Game, turn: u32, act: Act) -> Result<()> {
    let mut acts = load(&game.dir, turn)?;
    acts.acts.push(act);
    let text = crate::game::load::to_toml(&acts)?;
    write_atomic(&path(&game.dir, turn), text.as_bytes())
}

/// SHA-256 of a turn's acts file, empty when it has none: what the turn record keeps.
pub fn digest(game_dir: &Path, turn: u32) -> String {
    std::fs::read(path(game_dir, turn))
        .map(|b| sha256_hex(&b))
        .unwrap_or_default()
}

/// The turn's state with the acts applied: who controls a power, who waits to take it over.
pub fn apply(state: &mut State, acts: &Acts) {
    for a in &acts.acts {
        let Some(power) = &a.power else { continue };
        if let Some(c) = &a.controlled {
            state.controlled.insert(power.clone(), c.clone());
        }
        if let Some(p) = &a.incoming {
            state.incoming.insert(power.clone(), p.clone());
        }
        if let Some(p) = &a.departing {
            state
                .owners
                .entry(power.clone())
                .or_insert_with(|| p.clone());
        }
    }
}

/// The deadlines the acts of every turn moved, by turn (the last act of a turn wins).
pub fn moved_deadlines(game_dir: &Path) -> Result<std::collections::BTreeMap<u32, String>> {
    let mut out = std::collections::BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(game_dir.join("turns")) else {
        return Ok(out);
    };
    for e in entries.filter_map(|e| e.ok()) {
        let Some(turn) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        for a in load(game_dir, turn)?.acts {
            if let Some(d) = a.deadline {
                out.insert(turn, d);
            }
        }
    }
    Ok(out)
}

/// The orders digest the last `accept-late` act of each power on a turn filed, and the message it
/// accepted, by power (or `power.player`, a player of a power with several): what its orders file
/// must still hold unless a later submission stands over it (`audit` checks it against the record,
/// keyed so).
pub fn accepted_late(acts: &Acts) -> std::collections::BTreeMap<String, (String, String)> {
    let mut out = std::collections::BTreeMap::new();
    for a in &acts.acts {
        if let (Some(p), Some(d)) = (&a.power, &a.orders) {
            if a.kind == ACCEPT_LATE {
                let message = a.message.clone().unwrap_or_default();
                out.insert(p.clone(), (d.clone(), message));
            }
        }
    }
    out
}

/// The kind of the act `pbem end` writes, on the turn that will not be played.
pub const END: &str = "end";

/// The kind of the act `pbem reopen` writes: the end before it is undone.
pub const REOPEN: &str = "reopen";

/// A game the referee ended (`pbem end`): no turn is played after `after`, the last resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    /// The last turn played (the one before the first, when none was).
    pub after: u32,
    /// Whether any turn was played.
    pub played: bool,
    /// Why, in the referee's words.
    pub reason: String,
}

impl Ended {
    /// What every refusal after the end says, `doing` first ("turn 4 cannot be resolved").
    pub fn refusal(&self, doing: &str, game_dir: &Path) -> String {
        format!(
            "{doing}: the game is over, ended {} (pbem end: {}). {} Nothing was changed.",
            self.when(),
            self.reason,
            self.reopen(game_dir)
        )
    }

    /// How the referee reopens it.
    pub fn reopen(&self, game_dir: &Path) -> String {
        format!(
            "`pbem reopen {} --reason <why>` reopens it, the turn not played waiting for orders again.",
            game_dir.display()
        )
    }

    /// "after turn 4", or "before its first turn was played".
    pub fn when(&self) -> String {
        match self.played {
            true => format!("after turn {}", self.after),
            false => "before its first turn was played".to_string(),
        }
    }
}

/// Whether the referee ended the game at `turn`, the first unresolved: its last `end` act, unless
/// a `reopen` came after it; `first` is the game's first turn.
pub fn ended(game_dir: &Path, turn: u32, first: u32) -> Result<Option<Ended>> {
    Ok(load(game_dir, turn)?
        .acts
        .into_iter()
        .rev()
        .find(|a| a.kind == END || a.kind == REOPEN)
        .filter(|a| a.kind == END)
        .map(|a| Ended {
            after: turn.saturating_sub(1),
            played: turn > first,
            reason: a.reason.unwrap_or_default(),
        }))
}

/// The acts of `kind` on `turn` so far: the number of the next one names its notices.
pub fn count(game_dir: &Path, turn: u32, kind: &str) -> Result<usize> {
    Ok(load(game_dir, turn)?
        .acts
        .iter()
        .filter(|a| a.kind == kind)
        .count())
}

/// The kind of the act `pbem accept-late` writes.
pub const ACCEPT_LATE: &str = "accept-late";
