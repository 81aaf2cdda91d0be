//! The referee's workspace: a game folder and everything in it.
//!
//! ```text
//! <game>/game.toml                  ruleset, powers, deadline, SOP settings      (config.rs)
//! <game>/map.toml                   areas and adjacency, or a hex or grid map    (map/)
//! <game>/tables.toml                the ruleset's tables                         (rules/<ruleset>/tables.rs)
//! <game>/turns/<t>/state.toml       the position at the start of turn t          (state.rs)
//! <game>/turns/<t>/commitment       C_t, published before orders for t are due   (dice.rs)
//! <game>/turns/<t>/scheme.toml      the dice scheme and rules C_t fixed           (scheme.rs, rules_fixed.rs)
//! <game>/rules/<sha256>             each rules part a commitment fixed, kept      (rules_kept.rs)
//! <game>/turns/<t>/log.toml         every event of turn t, once resolved         (engine/)
//! <game>/turns/<t>/record.toml      the turn record, written last: its presence says t is resolved
//! <game>/turns/<t>/acts.toml        the referee's acts on turn t: drop, replace, extend, rollback (acts.rs)
//! <game>/turns/<t>/reports/<p>.txt  one report per power
//! <game>/orders/<t>/<power>.txt     the accepted orders of each power for turn t
//! <game>/orders/<t>/<power>.<player>.txt  ... of each player of a power with several
//! <game>/secret/<t>.key             R_t, mode 0600, revealed in record t
//! <game>/mail/inbox/batch-<sha256>.raw  the raw messages of an ingest run (0600) (mail/ingest_store.rs)
//! <game>/mail/received/batch-<sha256>.toml  what pbem made of each; <sha256>.toml: a filed one's
//! <game>/mail/outbox/*.eml          every message pbem sends                    (mail/outbox.rs)
//! <game>/mail/outbox/batch-<sha256>.raw  the answers of an ingest run           (mail/outbox_store.rs)
//! <game>/mail/sent/<file>.toml      who got what                                (mail/send.rs)
//! ```
//! This module owns the layout; other modules ask it for paths.

pub mod acts;
pub mod command;
pub mod config;
pub mod config_edit;
pub mod create;
pub mod fsio;
pub mod load;
pub mod mail_config;
pub mod map;
pub mod owners;
pub mod record;
pub mod relations;
pub mod rules_fixed;
pub mod rules_kept;
pub mod ruleset;
pub mod scheme;
pub mod sight;
pub mod state;
pub mod submission;
pub mod toml_parts;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::diag::Source;
use config::GameConfig;
use map::{AnyMap, Map, MapFile};
use ruleset::{GameOption, Ruleset};
use state::State;

/// The name of a player's files: `france` for a power of one player, `france.ney` for the player
/// `ney` of a power with several.
pub fn file_stem(power: &str, player: Option<&str>) -> String {
    match player {
        Some(p) => format!("{power}.{p}"),
        None => power.to_string(),
    }
}

/// A loaded game folder: configuration, map and ruleset (with its tables). States are loaded per turn.
pub struct Game {
    pub dir: PathBuf,
    /// Where the rule files are read (`map.toml`, `tables.toml`, `tactical/`): the game folder, or,
    /// for `audit` of a turn whose rules a later commitment changed, the ones its own commitment
    /// fixed, as the game kept them (`rules_kept`).
    pub rules_dir: PathBuf,
    pub config: GameConfig,
    /// The places as the engine sees them (fog of war, reports, the map picture): the areas of an
    /// area map, or one area per hex or square of a hex or grid map (`Map::view_of`).
    pub map: Map,
    /// A hex or grid map as its file gives it (terrain words, hexside features, a sub-grid), for the
    /// ruleset that reads it; `None` for a map of areas.
    pub geometry: Option<AnyMap>,
    pub ruleset: Box<dyn Ruleset>,
    /// A state read for a check before a turn ([`Game::with_state`]), kept for the turn's own
    /// [`Game::load_state`] while its files stay the same: a 100,000-unit state is parsed once a
    /// run, not twice (issue 39).
    pub kept_state: KeptState,
}

/// One turn's state as [`Game::with_state`] read it: the text of its file, the digest of its acts
/// file and the state made of them, taken by the next [`Game::load_state`] of that turn when both
/// files still read the same; and what the check read against that state
/// ([`Game::keep_with_state`]: the orders, `engine::due`), which the load that takes the state
/// sets aside for [`Game::take_kept`].
#[derive(Default)]
pub struct KeptState {
    state: std::sync::Mutex<Option<(u32, String, String, State)>>,
    /// What was read against the kept state, by turn (of a type the model does not name).
    read: std::sync::Mutex<Option<(u32, Kept)>>,
    /// What was read against the state a load took, by turn, until taken.
    taken: std::sync::Mutex<Option<(u32, Kept)>>,
}

/// A value kept with a state ([`Game::keep_with_state`]).
type Kept = Box<dyn std::any::Any + Send>;

/// The value behind a lock, whoever held it before.
fn locked<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The folders of a game that hold player data, which pbem reads and writes.
const DATA_FOLDERS: [&str; 5] = ["orders", "turns", "mail", "secret", rules_kept::DIR];

/// Refuses a game folder with a symbolic link where pbem reads or writes player data (issue 15.7):
/// an orders file linked to another file would be read from outside the game, a `reports/`,
/// `mail/outbox/` or `rules/` linked elsewhere written through. The game folder itself may be a link.
fn refuse_links(dir: &Path) -> Result<()> {
    let mut stack: Vec<PathBuf> = DATA_FOLDERS.iter().map(|f| dir.join(f)).collect();
    while let Some(path) = stack.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            let rel = path.strip_prefix(dir).unwrap_or(&path);
            bail!(
                "{} in the game folder {} is a symbolic link: pbem reads and writes player data only in the game folder itself; put the file or folder there in place of the link",
                rel.display(),
                dir.display()
            );
        }
        if meta.is_dir() {
            let entries = std::fs::read_dir(&path)
                .with_context(|| format!("cannot list {}", path.display()))?;
            stack.extend(entries.filter_map(|e| e.ok()).map(|e| e.path()));
        }
    }
    Ok(())
}

/// What makes the ruleset `game.toml` names, with its `tables.toml` (the registry `rules::load`,
/// which `Game::load` hands in: the model names no ruleset).
pub type RulesetLoader = fn(&GameConfig, &Source, &Source) -> Result<Box<dyn Ruleset>>;

impl Game {
    /// Loads and checks `game.toml`, `map.toml` and `tables.toml`, the ruleset made by `ruleset`.
    /// `Game::load` (in `rules/mod.rs`) calls it with the registry of every ruleset.
    pub fn load_with(dir: &Path, ruleset: RulesetLoader) -> Result<Game> {
        Game::load_under(dir, None, ruleset)
    }

    /// As [`Game::load_with`], under `kept` rules when given: game.toml's rules settings, the map,
    /// the tables and GITM's tactical maps as a commitment fixed them (`rules_kept::restore`), the
    /// rest of the game (its players, deadlines, mail, turns) as the folder holds it.
    pub fn load_under(
        dir: &Path,
        kept: Option<&rules_kept::Restored>,
        ruleset: RulesetLoader,
    ) -> Result<Game> {
        if !dir.join("game.toml").is_file() {
            bail!(
                "{} is not a game folder (no game.toml in it)",
                dir.display()
            );
        }
        refuse_links(dir)?;
        let config_src = load::read_source(&dir.join("game.toml"), &shown(dir, "game.toml"))?;
        let mut config: GameConfig = load::parse_toml(&config_src)?;
        config.moved_deadlines = acts::moved_deadlines(dir)?;
        config.announced_deadlines = record::announced_deadlines(dir);
        config.bound_changes = record::bound_changes(dir);
        config.first_open_turn = record::first_open_turn(dir, config.first_turn);
        config.locate_ids(&config_src.text);
        if let Some(kept) = kept {
            kept.settings.apply(&mut config);
        }
        let rules_dir = kept.map_or(dir, |k| k.dir());
        let mut problems = config.validate();
        if problems.is_empty() {
            problems = config.apply_change_times();
        }
        if let Some(e) = load::first_error(&config_src, &problems) {
            return Err(e.into());
        }
        let tables_src =
            load::read_source(&rules_dir.join("tables.toml"), &shown(dir, "tables.toml"))?;
        let ruleset = ruleset(&config, &config_src, &tables_src)?;
        check_options(&config, &config_src, ruleset.options())?;
        let map_src = load::read_source(&rules_dir.join("map.toml"), &shown(dir, "map.toml"))?;
        // One parse of the map: its document says the kind, then is read as that kind of map.
        let document = load::parse_document(&map_src)?;
        let (kind, at) = map::Kind::of_document(&map_src, &document)?;
        let (map, geometry) = if kind == map::Kind::Areas {
            let map_file: MapFile = load::from_document(&map_src, document)?;
            let powers: Vec<&str> = config.power_ids().collect();
            let map = Map::from_file(map_file, &powers)
                .map_err(|d| load::first_error(&map_src, &d).expect("errors"))?;
            (map, None)
        } else {
            let Some(words) = ruleset.map_words() else {
                let d = crate::diag::Diagnostic::error(
                    format!(
                        "this is a {} map; the ruleset {} reads a map of areas",
                        kind.name(),
                        ruleset.id()
                    ),
                    at,
                )
                .hint("EiA and PoG read a map.toml of `[[area]]` tables; hex and grid maps are for the rulesets that read them (ngg, wbts, gitm)");
                return Err(crate::diag::FileError::new(&map_src, &d).into());
            };
            let geometry = AnyMap::load(&map_src, &[], &words)?;
            (geometry.areas_view(), Some(geometry))
        };
        Ok(Game {
            dir: dir.to_path_buf(),
            rules_dir: rules_dir.to_path_buf(),
            config,
            map,
            geometry,
            ruleset,
            kept_state: KeptState::default(),
        })
    }

    /// The options the game names, as the reports' header lists them: `name (rule: what)`.
    pub fn options_named(&self) -> Vec<String> {
        let known = self.ruleset.options();
        self.config
            .options
            .iter()
            .filter_map(|o| known.iter().find(|k| k.name == o.get_ref()))
            .map(|k| format!("{} ({}: {})", k.name, k.rule, k.what))
            .collect()
    }

    pub fn turn_dir(&self, turn: u32) -> PathBuf {
        self.dir.join("turns").join(turn.to_string())
    }

    pub fn state_path(&self, turn: u32) -> PathBuf {
        self.turn_dir(turn).join("state.toml")
    }

    pub fn record_path(&self, turn: u32) -> PathBuf {
        self.turn_dir(turn).join("record.toml")
    }

    pub fn log_path(&self, turn: u32) -> PathBuf {
        self.turn_dir(turn).join("log.toml")
    }

    pub fn commitment_path(&self, turn: u32) -> PathBuf {
        self.turn_dir(turn).join("commitment")
    }

    pub fn reports_dir(&self, turn: u32) -> PathBuf {
        self.turn_dir(turn).join("reports")
    }

    pub fn orders_dir(&self, turn: u32) -> PathBuf {
        self.dir.join("orders").join(turn.to_string())
    }

    pub fn orders_path(&self, turn: u32, power: &str) -> PathBuf {
        self.orders_dir(turn).join(format!("{power}.txt"))
    }

    /// The orders file of one player of a power: `orders/<t>/<power>.txt` for a power of one
    /// player, `orders/<t>/<power>.<player>.txt` for a player of a power with several.
    pub fn player_orders_path(&self, turn: u32, power: &str, player: Option<&str>) -> PathBuf {
        let stem = file_stem(power, player);
        self.orders_dir(turn).join(format!("{stem}.txt"))
    }

    pub fn secret_path(&self, turn: u32) -> PathBuf {
        self.dir.join("secret").join(format!("{turn}.key"))
    }

    /// `secret/<t>.seal`: the sealing secret `Q_t` of the turn's sealed rolls (`engine::sealed`),
    /// whose hash is `R_t`.
    pub fn seal_path(&self, turn: u32) -> PathBuf {
        self.dir.join("secret").join(format!("{turn}.seal"))
    }

    /// A path inside the game folder as it is shown in messages and reports: `<game id>/<relative
    /// path>`, with `/`, so that the bytes pbem writes do not depend on what the folder is called.
    pub fn shown(&self, path: &Path) -> String {
        let rel = path.strip_prefix(&self.dir).unwrap_or(path);
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        format!("{}/{rel}", self.config.game)
    }

    /// A path inside the game folder as the referee gave the folder (`ulm/orders/1/france.txt` for a
    /// game loaded from `ulm`, whatever its id): what a command prints for him to open. What pbem
    /// writes into files names paths by [`Game::shown`], the same in any folder.
    pub fn printed(&self, path: &Path) -> String {
        let rel = path.strip_prefix(&self.dir).unwrap_or(path);
        self.dir.join(rel).display().to_string()
    }

    /// Whether turn `t` has been resolved (its record, written last, exists).
    pub fn is_resolved(&self, turn: u32) -> bool {
        self.record_path(turn).is_file()
    }

    /// The turn waiting for orders: the first turn without a record.
    pub fn current_turn(&self) -> Result<u32> {
        let mut t = self.config.first_turn;
        while self.is_resolved(t) {
            t += 1;
        }
        if !self.state_path(t).is_file() {
            bail!(
                "turn {t} has no state ({} is missing): the game folder is damaged",
                self.shown(&self.state_path(t))
            );
        }
        Ok(t)
    }

    /// Whether the referee ended the game (`pbem end`): the `end` act of its first unresolved turn.
    pub fn ended(&self) -> Result<Option<acts::Ended>> {
        acts::ended(
            &self.dir,
            self.current_turn_or_last()?,
            self.config.first_turn,
        )
    }

    /// Refuses `doing` ("turn 4 cannot be resolved") once the game is over (`pbem end`).
    pub fn refuse_if_ended(&self, doing: &str) -> Result<()> {
        match self.ended()? {
            Some(e) => bail!("{}", e.refusal(doing, &self.dir)),
            None => Ok(()),
        }
    }

    /// The first turn without a record, whether or not its state exists (for audits of damaged games).
    pub fn current_turn_or_last(&self) -> Result<u32> {
        let mut t = self.config.first_turn;
        while self.is_resolved(t) {
            t += 1;
        }
        // A record further on means a record in the middle was removed: audit up to the last one.
        let resolved = std::fs::read_dir(self.dir.join("turns"))
            .with_context(|| format!("cannot list {}", self.shown(&self.dir.join("turns"))))?
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&n| self.is_resolved(n))
            .max();
        Ok(resolved.map_or(t, |n| t.max(n + 1)))
    }

    /// Loads and checks the state at the start of turn `t`, with the referee's acts on the turn
    /// (`acts.toml`: drops, replacements) applied.
    pub fn load_state(&self, turn: u32) -> Result<State> {
        Ok(self.read_state(turn)?.0)
    }

    /// Runs `look` on the state of turn `t` (as [`Game::load_state`] gives it), then keeps the
    /// state for the next `load_state` of that turn, which takes it instead of parsing the same
    /// files again (a check before a turn: `engine::due`).
    pub fn with_state<R>(&self, turn: u32, look: impl FnOnce(&State) -> R) -> Result<R> {
        let (state, text, acts) = self.read_state(turn)?;
        let seen = look(&state);
        *locked(&self.kept_state.state) = Some((turn, text, acts, state));
        *locked(&self.kept_state.read) = None;
        Ok(seen)
    }

    /// Keeps `read`, read against the state [`Game::with_state`] kept of `turn` (the orders a due
    /// check read and checked, `engine::due`), for the load that takes that state
    /// ([`Game::take_kept`]).
    pub fn keep_with_state<T: std::any::Any + Send>(&self, turn: u32, read: T) {
        let same_turn = locked(&self.kept_state.state)
            .as_ref()
            .is_some_and(|k| k.0 == turn);
        if same_turn {
            *locked(&self.kept_state.read) = Some((turn, Box::new(read)));
        }
    }

    /// What [`Game::keep_with_state`] kept with the state that the last [`Game::load_state`] of
    /// `turn` took: read against that very state. Whoever takes it still compares what it was read
    /// from (`engine::inputs::read_orders_once`).
    pub fn take_kept<T: std::any::Any>(&self, turn: u32) -> Option<T> {
        match locked(&self.kept_state.taken).take() {
            Some((t, read)) if t == turn => read.downcast().ok().map(|b| *b),
            _ => None,
        }
    }

    /// The state of turn `t` with its acts applied, the text of its file and the digest of its acts
    /// file: the kept state when both files read as they did for it.
    fn read_state(&self, turn: u32) -> Result<(State, String, String)> {
        let path = self.state_path(turn);
        let src = load::read_source(&path, &self.shown(&path))?;
        let acts_digest = acts::digest(&self.dir, turn);
        let kept = locked(&self.kept_state.state).take();
        let read = locked(&self.kept_state.read).take();
        let state = match kept {
            Some((t, text, acts, state))
                if t == turn && text == src.text && acts == acts_digest =>
            {
                *locked(&self.kept_state.taken) = read;
                state
            }
            _ => {
                *locked(&self.kept_state.taken) = None;
                let mut state = self.parse_state(&src)?;
                acts::apply(&mut state, &acts::load(&self.dir, turn)?);
                state
            }
        };
        Ok((state, src.text, acts_digest))
    }

    /// Parses and checks a state against the map and the powers.
    pub fn parse_state(&self, src: &Source) -> Result<State> {
        let state = self.ruleset.parse_state(src)?;
        if let Some(e) = load::first_error(src, &self.check_state(&state)) {
            return Err(e.into());
        }
        Ok(state)
    }

    /// Every problem of a state: its shared keys, then the ruleset's pieces.
    pub fn check_state(&self, state: &State) -> Vec<crate::diag::Diagnostic> {
        let mut d = state::check_shared_with(
            state,
            &self.config,
            &self.map,
            self.ruleset.stateless_owners(),
        );
        d.extend(self.ruleset.check_state(self, state));
        d
    }

    /// Reads the commitment `C_t` published for turn `t`.
    pub fn commitment(&self, turn: u32) -> Result<crate::dice::Bytes32> {
        let path = self.commitment_path(turn);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read the commitment {}", self.shown(&path)))?;
        crate::dice::from_hex(&text)
            .with_context(|| format!("{} does not hold 64 hex digits", self.shown(&path)))
    }
}

fn shown(dir: &Path, file: &str) -> String {
    match dir.file_name() {
        Some(n) => format!("{}/{file}", n.to_string_lossy()),
        None => file.to_string(),
    }
}

/// Every name in game.toml's `options` must be one of the ruleset's options (`Ruleset::options`),
/// named once; the first that is not is an error located at it.
fn check_options(
    config: &GameConfig,
    src: &crate::diag::Source,
    known: &[GameOption],
) -> Result<()> {
    let list = || {
        if known.is_empty() {
            "this ruleset has no options: leave `options` out".to_string()
        } else {
            let names: Vec<&str> = known.iter().map(|k| k.name).collect();
            format!("the options of this ruleset are: {}", names.join(", "))
        }
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut problems = Vec::new();
    for o in &config.options {
        let name = o.get_ref();
        if !known.iter().any(|k| k.name == name) {
            problems.push(
                crate::diag::Diagnostic::error(format!("unknown option '{name}'"), o.span())
                    .hint(list()),
            );
        } else if !seen.insert(name.as_str()) {
            problems.push(
                crate::diag::Diagnostic::error(format!("option '{name}' is named twice"), o.span())
                    .hint("name each option once"),
            );
        }
    }
    match load::first_error(src, &problems) {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 39: the state a check read is the one the turn then loads, unless its file or its acts
    /// file changed in between (a kept state marked as turn 99 shows which one a load gave).
    #[test]
    fn a_kept_state_is_taken_only_while_its_files_read_the_same() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("ulm-1805");
        crate::bundled::write_scenario("ulm-1805", &dir).unwrap();
        let game = Game::load(&dir).unwrap();
        let mark = |game: &Game| {
            game.with_state(1, |s| s.turn).unwrap();
            let mut kept = game.kept_state.state.lock().unwrap();
            kept.as_mut().unwrap().3.turn = 99;
        };
        mark(&game);
        assert_eq!(game.load_state(1).unwrap().turn, 99, "the kept state");
        assert_eq!(game.load_state(1).unwrap().turn, 1, "taken once");

        mark(&game);
        let path = game.state_path(1);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{text}\n# edited\n")).unwrap();
        assert_eq!(
            game.load_state(1).unwrap().turn,
            1,
            "the state file changed"
        );

        mark(&game);
        let acts = acts::path(&dir, 1);
        std::fs::write(&acts, "act = []\n").unwrap();
        assert_eq!(game.load_state(1).unwrap().turn, 1, "the acts file changed");

        mark(&game);
        assert_eq!(
            game.load_state(2).ok().map(|s| s.turn),
            None,
            "another turn"
        );
        assert_eq!(
            game.load_state(1).unwrap().turn,
            99,
            "kept for its own turn"
        );
    }
}
