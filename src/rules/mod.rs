//! Rulesets: the code of one game system over the shared engine. The [`Ruleset`] trait is the
//! boundary: the engine (`engine/`) knows turns, orders files, dice, events and reports; a ruleset knows
//! its order verbs, its tables, its decision points and how a turn is adjudicated.

pub mod eia;
pub mod ngg;
pub mod pog;
pub mod wbts;

use std::collections::BTreeSet;

use anyhow::{bail, Result};

use crate::diag::{Diagnostic, Source};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::config::GameConfig;
use crate::game::state::State;
use crate::game::Game;

/// An orders file as the ruleset sees it: its text and what checking it gave.
#[derive(Debug, Clone)]
pub struct OrdersCheck {
    /// The power it authenticated as.
    pub power: Option<String>,
    /// The player of that power it authenticated as, for a power with several
    /// (`[[power.player]]`); none for a power of one player.
    pub player: Option<String>,
    /// The entropy text, trimmed, if the file has an entropy line.
    pub entropy: Option<String>,
    /// The orders that stand: line number and the order as pbem reads it back.
    pub accepted: Vec<(usize, String)>,
    pub diagnostics: Vec<Diagnostic>,
}

impl OrdersCheck {
    pub fn rejected(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// Reads and checks the bytes of an orders file: the one path from bytes to orders that `check`, the
/// mail ingest (on the bytes it files) and the turn all take, so that what an answer says stands,
/// stands. Bytes that do not decode (`orders::decode`) give its one diagnostic, shown against
/// `orders::printable`.
pub fn check_file(game: &Game, state: &State, shown: &str, bytes: &[u8]) -> (Source, OrdersCheck) {
    check_file_with(&*game.ruleset.checker(game, state), shown, bytes)
}

/// As [`check_file`], with a checker of the state ([`Ruleset::checker`]) made once for many files.
pub fn check_file_with(
    checker: &dyn Fn(&Source) -> OrdersCheck,
    shown: &str,
    bytes: &[u8],
) -> (Source, OrdersCheck) {
    match crate::orders::decode(bytes) {
        Ok(text) => {
            let source = Source::new(shown, text);
            let check = checker(&source);
            (source, check)
        }
        Err(d) => (
            Source::new(shown, crate::orders::printable(bytes)),
            OrdersCheck {
                power: None,
                player: None,
                entropy: None,
                accepted: Vec::new(),
                diagnostics: vec![d],
            },
        ),
    }
}

/// Checks an orders file as every ruleset does: the header first; the order lines only once it
/// authenticates a power (their diagnostics would tell an impostor where the power's units stand),
/// read by `parse` for that power. `parse` returns the orders that stand and the diagnostics.
pub fn check_orders_with<O: std::fmt::Display>(
    game: &Game,
    state: &State,
    source: &Source,
    parse: impl FnOnce(
        &str,
        &[crate::orders::Line],
    ) -> (Vec<crate::orders::Located<O>>, Vec<Diagnostic>),
) -> OrdersCheck {
    let lines = crate::orders::split(&source.text);
    let (header, lines, mut diagnostics) = crate::orders::Header::take(&source.text, lines);
    let (power, mut more) = crate::orders::check_header_with(
        &header,
        &game.config,
        state.turn,
        source.text.len(),
        &|p| crate::engine::players::password_hashes(&game.config, state, p),
        &|p, sha| crate::mail::ingest::stands_for(game, state.turn, p, sha, &source.text),
    );
    diagnostics.append(&mut more);
    let player = power.as_deref().and_then(|p| {
        let pc = game.config.power(p)?;
        let id = &header.player.as_ref()?.value;
        Some(pc.command(id)?.id.clone())
    });
    let mut accepted = Vec::new();
    if let Some(p) = &power {
        let (ok, mut more) = parse(p, &lines);
        diagnostics.append(&mut more);
        let command = crate::engine::command::Command::of(game, state, p, player.as_deref());
        for o in &ok {
            let text = o.value.to_string();
            match command.refuses(&text, o.span.clone()) {
                Some(d) => diagnostics.push(d),
                None => accepted.push((source.line_col(o.span.start).0, text)),
            }
        }
    }
    diagnostics.sort_by_key(|d| d.span.start);
    OrdersCheck {
        power,
        player,
        entropy: header.entropy.map(|e| e.value),
        accepted,
        diagnostics,
    }
}

/// A ruleset's `tables.toml`, parsed and checked by `validate`; the first problem is an error located
/// in the file.
pub fn load_tables<T: serde::de::DeserializeOwned>(
    src: &Source,
    validate: impl Fn(&T) -> Vec<Diagnostic>,
) -> Result<T> {
    let tables: T = crate::game::load::parse_toml(src)?;
    if let Some(e) = crate::game::load::first_error(src, &validate(&tables)) {
        return Err(e.into());
    }
    Ok(tables)
}

/// The game's `[sop]` settings, each checked by the ruleset's `check` (which gives a hint when it
/// refuses one); the first bad setting is an error located in game.toml.
pub fn load_sop(
    config: &GameConfig,
    config_src: &Source,
    check: impl Fn(&str, &str) -> Result<(), String>,
) -> Result<std::collections::BTreeMap<String, String>> {
    let mut sop = std::collections::BTreeMap::new();
    let mut diags = Vec::new();
    for (key, value) in &config.sop {
        match check(key, value.get_ref()) {
            Ok(()) => {
                sop.insert(key.clone(), value.get_ref().clone());
            }
            Err(hint) => diags.push(
                Diagnostic::error(
                    format!("bad SOP setting {key} = \"{}\"", value.get_ref()),
                    value.span(),
                )
                .hint(hint),
            ),
        }
    }
    if let Some(e) = crate::game::load::first_error(config_src, &diags) {
        return Err(e.into());
    }
    Ok(sop)
}

/// The order lines of an orders file, its header taken off (for `Ruleset::resolve`, which reads
/// files that were checked already).
pub fn order_lines(source: &Source) -> Vec<crate::orders::Line> {
    let lines = crate::orders::split(&source.text);
    crate::orders::Header::take(&source.text, lines).1
}

/// The authenticated orders of one power for the turn being resolved.
#[derive(Debug, Clone)]
pub struct PowerOrders {
    pub power: String,
    pub source: Source,
}

/// What resolving a turn gives: every event, in order, and the state at the start of the next turn.
pub struct Resolution {
    pub events: Vec<Event>,
    pub next: State,
}

/// A unit as the shared engine sees it, whatever the ruleset: where it stands, whose it is, and how
/// a report describes it. Fog of war (`engine::visibility`) and the reports list units through this.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitView {
    pub id: String,
    pub owner: String,
    /// The area (space) it stands in.
    pub area: String,
    /// A word for the map and for approximate sightings: `corps`, `leader`, `fleet`, `army`; WBTS
    /// names the piece itself: `infantry`, `cavalry`, `artillery`, `train`, `gunboat`, `transport`.
    /// The naval words are in [`NAVAL_KINDS`].
    pub kind: &'static str,
    /// "infantry corps, 6 factors, morale 4.0".
    pub detail: String,
    /// What approximate sightings sum: factors, ships, a leader's rating.
    pub strength: u32,
    /// Whether the unit gives its power sight (EiA: a corps with no factors left does not).
    pub sees: bool,
}

/// A mark of a ruleset on the map picture (`Ruleset::map_marks`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapMark {
    pub area: String,
    /// A tag of a few letters: `T2`.
    pub tag: String,
    /// What it means, for the mark's tooltip: "trench level 2 (central)".
    pub about: String,
    /// The legend's line for the marks of this kind: "T1, T2: trench and its level".
    pub legend: &'static str,
}

/// The kinds of [`UnitView`] that are naval: the map counts them as ships, not factors, and moves
/// are drawn for the others only.
pub const NAVAL_KINDS: [&str; 3] = ["fleet", "gunboat", "transport"];

/// Whether a unit kind is naval (one of [`NAVAL_KINDS`]).
pub fn is_naval(kind: &str) -> bool {
    NAVAL_KINDS.contains(&kind)
}

/// A game system.
pub trait Ruleset {
    /// The ruleset's id in `game.toml`: `eia`.
    fn id(&self) -> &'static str;

    /// The game system's name for reports: "Empires in Arms".
    fn name(&self) -> &'static str;

    /// Parses and checks one orders file against the state of the turn it is for.
    fn check_orders(&self, game: &Game, state: &State, source: &Source) -> OrdersCheck;

    /// Checks many orders files against the same state (a turn's, one per power): as
    /// [`Ruleset::check_orders`], but a ruleset that indexes the state to read orders makes the index
    /// once for every file rather than once per file.
    fn checker<'a>(
        &'a self,
        game: &'a Game,
        state: &'a State,
    ) -> Box<dyn Fn(&Source) -> OrdersCheck + 'a> {
        Box::new(move |source| self.check_orders(game, state, source))
    }

    /// Adjudicates a turn. Pure: no I/O, no clock; all randomness from `dice`.
    fn resolve(
        &self,
        game: &Game,
        state: &State,
        orders: &[PowerOrders],
        dice: &mut DiceBox,
    ) -> Result<Resolution>;

    /// Reads `state.toml` with the ruleset's own table (`game::state::parse::<ItsTable>`): the shared
    /// keys and `[<id>]`; any other key is a located error.
    fn parse_state(&self, source: &Source) -> Result<State, crate::diag::FileError>;

    /// Checks the ruleset's own part of a state (its units and markers) against the map and the
    /// powers; the shared keys are checked by `game::state::check_shared`.
    fn check_state(&self, game: &Game, state: &State) -> Vec<Diagnostic>;

    /// Every unit on the map, in the state's order, for fog of war and reports.
    fn units(&self, state: &State) -> Vec<UnitView>;

    /// Whether `power` is due to send orders for the turn of `state`: every power in EiA; only the
    /// active player in a game of one action per turn (PoG). Missing orders and the missed-turn policy
    /// count only the turns a power was due.
    fn expects_orders(&self, _state: &State, _power: &str) -> bool {
        true
    }

    /// What a report tells `power` of the position besides the units (markers, turn track, its own
    /// cards), one line each; nothing by default.
    fn position(&self, _game: &Game, _state: &State, _power: &str) -> Vec<String> {
        Vec::new()
    }

    /// Takes out of `state` what `power` may not know, for the state its JSON report carries to the
    /// player's own check (`pbem check --report`): the units for which `keep(id)` is false (those he
    /// does not see exactly) and the ruleset's secrets of other powers (PoG: their cards). The shared
    /// keys are fogged by the report (`report::for_check`). Returns false, by default, for a ruleset
    /// that cannot fog its state: its reports then carry nothing for a player's check.
    fn fog(&self, _state: &mut State, _power: &str, _keep: &dyn Fn(&str) -> bool) -> bool {
        false
    }

    /// The ruleset's own marks on the map picture, by area id: a short tag drawn beside the area's
    /// node and what it means (PoG: "T2", "trench level 2 of the Central Powers"; "F-", "fort
    /// destroyed"). The map draws them only where the power sees. None by default.
    fn map_marks(&self, _state: &State) -> Vec<MapMark> {
        Vec::new()
    }

    /// What the number on a unit chip of the map counts, for its legend: "corps factors" in EiA.
    fn strength_words(&self) -> &'static str {
        "strength"
    }

    /// The areas `power` can see in `state` (for reports and visibility).
    fn visible_areas(&self, game: &Game, state: &State, power: &str) -> BTreeSet<usize>;

    /// How far a power's units see: the rule [`crate::engine::visibility`] applies to every unit and
    /// event of the ruleset. By default, the areas where they stand and the adjacent ones, exactly.
    fn sight(&self) -> crate::engine::visibility::Sight {
        crate::engine::visibility::Sight::ADJACENT
    }

    /// What `power`'s orders in `source` would do if no enemy interfered and no die were rolled, from
    /// the power's own view of `state` (`pbem check --forecast`), as lines of text. None by default.
    fn forecast(&self, _game: &Game, _state: &State, _src: &Source, _power: &str) -> Vec<String> {
        Vec::new()
    }

    /// The words a hex or grid `map.toml` of this ruleset may use (its terrain, hexside features,
    /// sub-grid), or `None` when the ruleset reads only maps of areas (EiA, PoG).
    fn map_words(&self) -> Option<crate::game::map::Vocabulary<'static>> {
        None
    }

    /// The ruleset as `Any`, for tests that reach into a ruleset's own types.
    fn as_any(&self) -> &dyn std::any::Any;

    /// EiA 19.2.1, 14.3.1: the modifiers of the die rolls that decide who controls a power whose player
    /// left (a power not listed: 0), or `None` when the ruleset has no such roll (a power dropped without
    /// `--to` is then run by its standing orders and the SOP).
    fn control_roll_modifiers(&self) -> Option<std::collections::BTreeMap<String, i32>> {
        None
    }

    /// Whether each player of a power with several (`[[power.player]]`) gets a report of what his
    /// own command sees (`engine::command`), rather than the power's one report; a power's
    /// `reports` key in game.toml overrides it. Per power by default (EiA and PoG): GITM 6 will
    /// say per player.
    fn reports_per_player(&self) -> bool {
        false
    }
}

impl Game {
    /// Loads and checks a game folder (`Game::load_with`) with the ruleset its `game.toml` names,
    /// from the registry [`load`]: the rulesets' layer chooses the ruleset, not the model.
    pub fn load(dir: &std::path::Path) -> Result<Game> {
        Game::load_with(dir, load)
    }
}

/// The ruleset named in `game.toml`, with its tables loaded and checked: the registry, one line per
/// ruleset.
pub fn load(config: &GameConfig, config_src: &Source, tables: &Source) -> Result<Box<dyn Ruleset>> {
    match config.ruleset.get_ref().as_str() {
        "eia" => Ok(Box::new(eia::Eia::load(config, config_src, tables)?)),
        "pog" => Ok(Box::new(pog::Pog::load(config, config_src, tables)?)),
        "ngg" => Ok(Box::new(ngg::Ngg::load(config, config_src, tables)?)),
        "wbts" => Ok(Box::new(wbts::Wbts::load(config, config_src, tables)?)),
        other => {
            let d = Diagnostic::error(format!("unknown ruleset '{other}'"), config.ruleset.span())
                .hint("pbem knows these rulesets: eia, pog, ngg, wbts");
            bail!(crate::diag::FileError::new(config_src, &d))
        }
    }
}
