//! The rules a turn's commitment fixes: a SHA-256 of every input that decides what a die does.
//!
//! The dice of a turn are known to the referee once its seed is (under pbem-dice/v2 once the beacon
//! is out): a referee who could then edit `tables.toml`, the map or game.toml's `[sop]` would choose
//! what each known die does, as surely as choosing the die. So the rules are fixed with the
//! commitment, as the dice scheme is (`game::scheme`): each part below has its SHA-256, the rules one
//! digest of them all, kept in `turns/<t>/scheme.toml`, told in the turn's announcement and in the
//! previous turn's reports, and written in the dice header of every report of the turn (the line
//! `rules: HEX`). `resolve` refuses a turn whose rules changed since its commitment; a change of rules
//! goes through a new commitment (`pbem rekey`), which tells every player what changed.
//!
//! The parts: game.toml's settings that decide what happens in a turn ([`SETTINGS`]: the ruleset,
//! first turn, calendar, economic phases, the missed-turn policy, allies' sight, `[sop]`, options),
//! written as TOML by [`settings_text`];
//! `map.toml` and `tables.toml` as they are on disk; each `tactical/*.txt` (GITM's tactical maps);
//! and the game's opening position, `turns/<first>/state.toml` as it is on disk ([`opening`]): every
//! later turn's state is made by resolving the turn before, which `audit` re-derives byte for byte,
//! but nothing makes the first one, and a referee who knows the dice would otherwise move or
//! strengthen the units they fall on, audit green; and who may give entropy, game.toml's powers and
//! their players by id ([`CONTRIBUTORS`]): a power or player added after the commitment gave the
//! seed an entropy line no player checks (`verify --orders` checks each player's own line alone),
//! and the referee could try one after another until the dice suited him. A commitment made before
//! pbem fixed these two fixed no such part, and its turn is compared without it
//! ([`Rules::as_fixed_by`]). The
//! digest is the SHA-256 of their listing as `sha256sum` prints it: a line `HEX  NAME` per part, in
//! the order of the names (docs/DICE.md says how a player holding the files checks it). The players,
//! their addresses and passwords, the deadlines, late orders and the mail settings are not rules of
//! the dice: the referee's acts and settings change them between turns, and
//! each turn's record keeps what its reports depended on (`record::Shown`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::config::{Calendar, GameConfig};
use super::record::sha256_hex;
use super::Game;

/// The name of game.toml's part: its settings that the rulesets read.
pub const SETTINGS: &str = "game.toml (rules settings)";

/// The rules a commitment was made under: each part's SHA-256 (hex) by name, and the digest of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// SHA-256 (hex) of the parts' listing ([`listing`]).
    pub digest: String,
    pub parts: BTreeMap<String, String>,
}

impl Rules {
    /// `self` (the rules of now) with the parts of the kinds `fixed` names: a commitment made before
    /// pbem fixed the opening position ([`opening`]) and the contributors ([`CONTRIBUTORS`]) is
    /// compared with the rules of now without them, so that a game begun then plays on. Every other
    /// part is compared whether or not `fixed` names it.
    pub fn as_fixed_by(&self, fixed: &Rules) -> Rules {
        let parts: BTreeMap<String, String> = self
            .parts
            .iter()
            .filter(|(name, _)| !read_in_place(name) || fixed.parts.contains_key(*name))
            .map(|(n, h)| (n.clone(), h.clone()))
            .collect();
        Rules {
            digest: sha256_hex(listing(&parts).as_bytes()),
            parts,
        }
    }

    /// The parts of `self` that are not those of `other`, by name: changed, added or removed.
    pub fn differing(&self, other: &Rules) -> Vec<String> {
        let names: std::collections::BTreeSet<&String> =
            self.parts.keys().chain(other.parts.keys()).collect();
        names
            .into_iter()
            .filter(|n| self.parts.get(*n) != other.parts.get(*n))
            .cloned()
            .collect()
    }
}

/// The name of the part that is the game's opening position, whose first turn is `first_turn`: the
/// state that turn starts from, `turns/<first>/state.toml`, as the game folder names it.
pub fn opening(first_turn: u32) -> String {
    format!("turns/{first_turn}/state.toml")
}

/// Whether the part named `name` is read where the game folder holds it, never from the rules kept:
/// the opening position ([`opening`]) and the contributors ([`CONTRIBUTORS`]).
pub fn read_in_place(name: &str) -> bool {
    name.starts_with("turns/") || name == CONTRIBUTORS
}

/// The name of the part that lists who gives entropy to the seed: each power of game.toml by id, or
/// each of its players as `<power>.<player>` when it has several (the names of the header's entropy
/// lines), one a line in game.toml's order.
pub const CONTRIBUTORS: &str = "game.toml (powers and players)";

/// The contributors' part as hashed ([`CONTRIBUTORS`]).
fn contributors_text(config: &GameConfig) -> String {
    let mut text = String::new();
    for power in &config.powers {
        if power.commands.is_empty() {
            text.push_str(&power.id);
            text.push('\n');
        }
        for player in &power.commands {
            text.push_str(&format!("{}.{}\n", power.id, player.id));
        }
    }
    text
}

/// game.toml's settings that decide what happens in a turn, as hashed.
#[derive(Serialize)]
struct Settings<'a> {
    ruleset: &'a str,
    first_turn: u32,
    /// `[replacement] econ_every`: which turns end with an economic phase.
    econ_every: u32,
    /// Sorted: the order game.toml names them in changes nothing.
    options: Vec<&'a str>,
    /// `[replacement] missed_turns` and `missed_turns_to`: which power a turn drops for orders
    /// missed and who runs it from the next turn (EiA 19.2, `engine::players`). Not written when
    /// unset (never, nobody), so that the digest of a game that sets neither is what it was before
    /// pbem fixed them.
    #[serde(skip_serializing_if = "is_zero")]
    missed_turns: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    missed_turns_to: Option<&'a str>,
    /// Whether allies see what each other sees (`engine::visibility::share_events`): what each
    /// power's report tells of the turn. Not written when unset.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    allies_share_sight: bool,
    calendar: &'a Calendar,
    sop: BTreeMap<&'a str, &'a str>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// game.toml's settings that decide what happens in a turn, as TOML: the same text for the same
/// settings, whatever the comments, order or spacing of game.toml.
pub fn settings_text(config: &GameConfig) -> Result<String> {
    let mut options: Vec<&str> = config
        .options
        .iter()
        .map(|o| o.get_ref().as_str())
        .collect();
    options.sort_unstable();
    let settings = Settings {
        ruleset: config.ruleset.get_ref(),
        first_turn: config.first_turn,
        econ_every: config.replacement.econ_every,
        options,
        missed_turns: config.replacement.missed_turns,
        missed_turns_to: config.replacement.missed_turns_to.as_deref(),
        allies_share_sight: config.allies_share_sight,
        calendar: &config.calendar,
        sop: config
            .sop
            .iter()
            .map(|(k, v)| (k.as_str(), v.get_ref().as_str()))
            .collect(),
    };
    toml::to_string(&settings).context("cannot write game.toml's rules settings")
}

/// The settings [`settings_text`] wrote, read back: to play a turn again under the rules its
/// commitment fixed (`rules_kept`), in place of game.toml's of now.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsRead {
    ruleset: toml::Spanned<String>,
    first_turn: u32,
    econ_every: u32,
    #[serde(default)]
    options: Vec<toml::Spanned<String>>,
    #[serde(default)]
    missed_turns: u32,
    #[serde(default)]
    missed_turns_to: Option<String>,
    #[serde(default)]
    allies_share_sight: bool,
    calendar: Calendar,
    #[serde(default)]
    sop: BTreeMap<String, toml::Spanned<String>>,
}

impl SettingsRead {
    /// Reads the text of [`settings_text`].
    pub fn parse(text: &str) -> Result<SettingsRead> {
        toml::from_str(text).context("the rules settings kept do not read")
    }

    /// Puts these settings in `config` in place of its own. The options still named keep
    /// game.toml's order (the reports name them in it), the others follow in the order of names.
    pub fn apply(&self, config: &mut GameConfig) {
        config.ruleset = self.ruleset.clone();
        config.first_turn = self.first_turn;
        config.replacement.econ_every = self.econ_every;
        config.replacement.missed_turns = self.missed_turns;
        config.replacement.missed_turns_to = self.missed_turns_to.clone();
        config.allies_share_sight = self.allies_share_sight;
        config.calendar = self.calendar.clone();
        config.sop = self.sop.clone();
        let named =
            |o: &toml::Spanned<String>| self.options.iter().any(|k| k.get_ref() == o.get_ref());
        let mut options: Vec<_> = config
            .options
            .iter()
            .filter(|o| named(o))
            .cloned()
            .collect();
        for o in &self.options {
            if !options.iter().any(|k| k.get_ref() == o.get_ref()) {
                options.push(o.clone());
            }
        }
        config.options = options;
    }
}

/// The listing the digest is the SHA-256 of: `HEX  NAME` and a line break per part, as `sha256sum`
/// prints it.
pub fn listing(parts: &BTreeMap<String, String>) -> String {
    parts
        .iter()
        .map(|(name, hex)| format!("{hex}  {name}\n"))
        .collect()
}

/// The rules of `game` as its folder holds them now (its rule files: `Game::rules_dir`).
pub fn of(game: &Game) -> Result<Rules> {
    Ok(of_parts(&parts(game)?))
}

/// The rules whose parts are `parts`.
pub fn of_parts(parts: &[(String, Vec<u8>)]) -> Rules {
    let parts: BTreeMap<String, String> = parts
        .iter()
        .map(|(name, bytes)| (name.clone(), sha256_hex(bytes)))
        .collect();
    Rules {
        digest: sha256_hex(listing(&parts).as_bytes()),
        parts,
    }
}

/// Each part of `game`'s rules by name, with its bytes: the settings as [`settings_text`] writes
/// them, then the rule files as `Game::rules_dir` holds them, then the opening position as the game
/// folder holds it.
pub fn parts(game: &Game) -> Result<Vec<(String, Vec<u8>)>> {
    let mut parts = vec![
        (
            SETTINGS.to_string(),
            settings_text(&game.config)?.into_bytes(),
        ),
        (
            CONTRIBUTORS.to_string(),
            contributors_text(&game.config).into_bytes(),
        ),
    ];
    let read = |path: &Path| {
        std::fs::read(path).with_context(|| format!("cannot read {}", game.shown(path)))
    };
    for name in ["map.toml", "tables.toml"] {
        parts.push((name.to_string(), read(&game.rules_dir.join(name))?));
    }
    for (name, path) in tactical_files(&game.rules_dir) {
        let bytes = read(&path)?;
        parts.push((name, bytes));
    }
    let first = game.config.first_turn;
    parts.push((opening(first), read(&game.state_path(first))?));
    Ok(parts)
}

/// The tactical maps of a game folder (GITM 5: `tactical/<square>.txt`), in name order, each as
/// `tactical/<file>` and its path: the files GITM's theatre reads (`rules::gitm::tactical::hook`), and
/// so the files the rules digest binds.
pub fn tactical_files(dir: &Path) -> Vec<(String, std::path::PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir.join("tactical")) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = format!(
                "tactical/{}",
                p.file_name().unwrap_or_default().to_string_lossy()
            );
            (name, p)
        })
        .collect()
}

/// What the notice of a new commitment (`pbem rekey`, `pbem rollback`) tells of the rules it fixes
/// when some parts are not those the old commitment fixed: "the rules it fixes changed:
/// tables.toml". None when none changed, or when either commitment fixed no rules (a turn
/// committed before pbem fixed them).
pub fn change_told(before: Option<&Rules>, now: Option<&Rules>) -> Option<String> {
    let changed = before?.differing(now?);
    (!changed.is_empty()).then(|| format!("the rules it fixes changed: {}", named(&changed)))
}

/// The parts named in words: "tables.toml", "tables.toml and map.toml", "a, b and c".
pub fn named(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(parts: &[(&str, &str)]) -> Rules {
        let parts: BTreeMap<String, String> = parts
            .iter()
            .map(|(n, h)| (n.to_string(), h.to_string()))
            .collect();
        Rules {
            digest: sha256_hex(listing(&parts).as_bytes()),
            parts,
        }
    }

    #[test]
    fn the_listing_is_as_sha256sum_prints_it() {
        let r = rules(&[("tables.toml", "bb"), ("map.toml", "aa")]);
        assert_eq!(listing(&r.parts), "aa  map.toml\nbb  tables.toml\n");
    }

    #[test]
    fn the_parts_that_differ_are_named_changed_added_or_removed() {
        let before = rules(&[
            ("map.toml", "aa"),
            ("tables.toml", "bb"),
            ("tactical/x.txt", "cc"),
        ]);
        let after = rules(&[
            ("map.toml", "aa"),
            ("tables.toml", "b2"),
            ("tactical/y.txt", "dd"),
        ]);
        assert_eq!(
            before.differing(&after),
            ["tables.toml", "tactical/x.txt", "tactical/y.txt"]
        );
        assert!(before.differing(&before).is_empty());
        assert_eq!(
            named(&before.differing(&after)),
            "tables.toml, tactical/x.txt and tactical/y.txt"
        );
    }
}
