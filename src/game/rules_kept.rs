//! The rules each commitment fixed, kept (`<game>/rules/<sha256>`): every part of the rules
//! (`rules_fixed`: game.toml's rules settings, `map.toml`, `tables.toml`, GITM's `tactical/*.txt`,
//! the opening position, the powers and players who give entropy)
//! as it was when a commitment fixed it, in a file named by its SHA-256, written once. A change of
//! rules between turns (a house rule agreed, `pbem rekey`) leaves the earlier parts there, so that
//! `audit` re-resolves each turn under the rules its own commitment fixed, and an auditor holding
//! the folder checks any part with `sha256sum`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::record::sha256_hex;
use super::rules_fixed::{self, Rules, SettingsRead, SETTINGS};
use super::Game;

/// The folder of the kept parts, in the game folder.
pub const DIR: &str = "rules";

/// The file of the part whose SHA-256 is `hex`.
fn path(game_dir: &Path, hex: &str) -> PathBuf {
    game_dir.join(DIR).join(hex)
}

/// Keeps `parts` (`rules_fixed::parts`), each part not kept yet in its own file.
pub fn keep(game: &Game, parts: &[(String, Vec<u8>)]) -> Result<()> {
    for (_, bytes) in parts {
        let file = path(&game.dir, &sha256_hex(bytes));
        if !file.is_file() {
            super::fsio::write_atomic(&file, bytes)?;
        }
    }
    Ok(())
}

/// The parts of `rules` the game kept whose file's SHA-256 is not its name, each named: the folder
/// was tampered with. `audit` names them for every turn whose commitment fixed them, whether it
/// re-resolves that turn under them or under the folder's rules of now (the same rules): a part
/// changed in `rules/` is the witness a later audit would read once a rekey changes the rules. A
/// part not kept (rules fixed before pbem kept them) is not named here.
pub fn tampered(game: &Game, rules: &Rules) -> Vec<String> {
    rules
        .parts
        .iter()
        .filter_map(|(name, hex)| {
            let file = path(&game.dir, hex);
            let bytes = std::fs::read(&file).ok()?;
            (sha256_hex(&bytes) != *hex).then(|| {
                format!(
                    "{} is not the part it is named after (its SHA-256 differs): the rules kept were changed (it is the {name} the turn's commitment fixed)",
                    game.shown(&file)
                )
            })
        })
        .collect()
}

/// Rules a commitment fixed, restored from the kept parts: the rule files in a folder of their own,
/// as a game folder holds them (`Game::load_under` reads them there), and the settings.
pub struct Restored {
    dir: tempfile::TempDir,
    pub settings: SettingsRead,
}

impl Restored {
    /// The folder holding `map.toml`, `tables.toml` and `tactical/` as the commitment fixed them.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

/// `rules` restored from the parts the game kept, or `None` when one is not kept (rules fixed
/// before pbem kept them, or a part removed from `rules/`). A kept file whose SHA-256 is not its
/// name is an error: the folder was tampered with.
pub fn restore(game: &Game, rules: &Rules) -> Result<Option<Restored>> {
    let mut read = Vec::new();
    for (name, hex) in &rules.parts {
        let file = path(&game.dir, hex);
        let Ok(bytes) = std::fs::read(&file) else {
            return Ok(None);
        };
        if sha256_hex(&bytes) != *hex {
            bail!(
                "{} is not the part it is named after (its SHA-256 differs): the rules kept were changed",
                game.shown(&file)
            );
        }
        read.push((name.clone(), bytes));
    }
    let dir = tempfile::tempdir().context("cannot make a folder for the rules kept")?;
    let mut settings = None;
    for (name, bytes) in read {
        if name == SETTINGS {
            let text = String::from_utf8(bytes).context("the rules settings kept are not UTF-8")?;
            settings = Some(SettingsRead::parse(&text)?);
            continue;
        }
        // The opening position and the contributors are read where the game folder holds them,
        // which `check_restored` holds to the digest: kept and checked here, never restored.
        if rules_fixed::read_in_place(&name) {
            continue;
        }
        // The names are the parts `rules_fixed::parts` lists: `map.toml`, `tables.toml`,
        // `tactical/<file>.txt`; no other name is written outside the folder.
        let safe = Path::new(&name)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !safe {
            bail!("the rules name a part '{name}' that is no file of a game folder");
        }
        let to = dir.path().join(&name);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&to, bytes)?;
    }
    let Some(settings) = settings else {
        return Ok(None);
    };
    Ok(Some(Restored { dir, settings }))
}

/// The digest check of a game loaded under restored rules: they are the ones fixed.
pub fn check_restored(game: &Game, rules: &Rules) -> Result<()> {
    let now = rules_fixed::of(game)?.as_fixed_by(rules);
    if now.digest != rules.digest {
        bail!(
            "the rules kept do not give back the digest their commitment fixed ({}, not {}): {} differ",
            now.digest,
            rules.digest,
            rules_fixed::named(&now.differing(rules))
        );
    }
    Ok(())
}
