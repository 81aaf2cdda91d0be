//! The [`Ruleset`] trait: the boundary between the engine and a game system, and the values it
//! names (an orders file as checked, the orders of a power, a turn's resolution, a unit as the
//! engine sees it). It is the model's, so that [`Game`] holds its ruleset without importing the
//! rulesets; each ruleset implements it in its folder under `rules/`, and the registry that picks
//! one by its id is `rules::load` (re-exported there as `rules::Ruleset` and friends).

use std::collections::BTreeSet;

use anyhow::Result;

use crate::diag::{Diagnostic, Source};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::sight::{Sight, Sighting, Viewer};
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
    /// Whether its header has a `password` line (a file placed by hand; a file filed from mail
    /// names its message instead).
    pub password_line: bool,
    /// The orders that stand: line number and the order as pbem reads it back.
    pub accepted: Vec<(usize, String)>,
    pub diagnostics: Vec<Diagnostic>,
}

impl OrdersCheck {
    pub fn rejected(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
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

/// An option of a ruleset that a game may name in game.toml's `options`: a reading beyond the rules
/// as written (an extension the rules give no player), off unless the game names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameOption {
    /// Its name in `options`.
    pub name: &'static str,
    /// The rule it sets aside: `EiA 7.5.2.10.2`.
    pub rule: &'static str,
    /// What it allows, in a few words for the reports' header.
    pub what: &'static str,
}

/// A game system. `Send + Sync`: a turn's reports are made on several threads (`parallel`).
pub trait Ruleset: Send + Sync {
    /// The ruleset's id in `game.toml`: `eia`.
    fn id(&self) -> &'static str;

    /// The game system's name for reports: "Empires in Arms".
    fn name(&self) -> &'static str;

    /// The words that start its orders (`move`, `attack`, ...): a line around the orders whose
    /// first word is none of them, nor near one, is a greeting or a sign-off (`orders::prose`).
    /// None by default.
    fn verbs(&self) -> &'static [&'static str] {
        &[]
    }

    /// Parses and checks one orders file against the state of the turn it is for.
    fn check_orders(&self, game: &Game, state: &State, source: &Source) -> OrdersCheck;

    /// Checks many orders files against the same state (a turn's, one per power): as
    /// [`Ruleset::check_orders`], but a ruleset that indexes the state to read orders makes the index
    /// once for every file rather than once per file.
    fn checker<'a>(
        &'a self,
        game: &'a Game,
        state: &'a State,
    ) -> Box<dyn Fn(&Source) -> OrdersCheck + Sync + 'a> {
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

    /// Owners `[control]` may name besides the game's powers: states of the rules that never play,
    /// have no player, get no turn and no report (GITM 7.15: the Ottoman Empire, whose squares are
    /// closed). None by default.
    fn stateless_owners(&self) -> &'static [&'static str] {
        &[]
    }

    /// Every unit on the map, in the state's order, for fog of war and reports.
    fn units(&self, state: &State) -> Vec<UnitView>;

    /// [`Ruleset::units`] as the reports tell them, in the wording of the game's turn
    /// (`GameConfig::wording`, else [`Ruleset::wording`]): a turn `audit` tells again as an older
    /// pbem told it describes its units in that pbem's words too. `units` by default; WBTS calls a
    /// fortress's garrison "inside the fortress" from its wording 2.
    fn units_told(&self, game: &Game, state: &State) -> Vec<UnitView> {
        let _ = game;
        self.units(state)
    }

    /// Whether `power` is due to send orders for the turn of `state`: every power in EiA; only the
    /// active player in a game of one action per turn (PoG). Missing orders and the missed-turn policy
    /// count only the turns a power was due.
    fn expects_orders(&self, _state: &State, _power: &str) -> bool {
        true
    }

    /// What a report tells `power` of the position besides the units (markers, turn track, its own
    /// cards), one line each; nothing by default. `sees(area)` says whether the viewer sees an
    /// area: a line about a place must not reach a viewer who does not (GITM 7.5's battles).
    fn position(
        &self,
        _game: &Game,
        _state: &State,
        _power: &str,
        _sees: &dyn Fn(&str) -> bool,
    ) -> Vec<String> {
        Vec::new()
    }

    /// Takes out of `state` what `power` may not know, for the state its JSON report carries to the
    /// player's own check (`pbem check --report`): the units for which `keep(id)` is false (those he
    /// does not see exactly) and the ruleset's secrets of other powers (PoG: their cards). The shared
    /// keys are fogged by the report (`report::for_check`); `sees(area)` says whether he sees an
    /// area, for what the ruleset keeps of places (GITM's battles of last turn). Returns false, by
    /// default, for a ruleset that cannot fog its state: its reports then carry nothing for a
    /// player's check.
    fn fog(
        &self,
        _state: &mut State,
        _power: &str,
        _keep: &dyn Fn(&str) -> bool,
        _sees: &dyn Fn(&str) -> bool,
    ) -> bool {
        false
    }

    /// The ruleset's own marks on the map picture, by area id: a short tag drawn beside the area's
    /// node and what it means (PoG: "T2", "trench level 2 (Central Powers)"; "F-", "fort
    /// destroyed"), naming a power as the game does. The map draws them only where the power sees.
    /// None by default.
    fn map_marks(&self, _game: &Game, _state: &State) -> Vec<MapMark> {
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
    fn sight(&self) -> Sight {
        Sight::ADJACENT
    }

    /// What `viewer` sees of the position `state` at the end of a turn whose events are `events`,
    /// when the ruleset words its sight itself (GITM 4.1, 4.2, 4.6: ranges by unit type and side,
    /// counts in its own words, identities sighted on a tactical map). `None`, by default: the
    /// engine's sight by places (`Ruleset::sight`, `engine::visibility`) applies, a unit seen as
    /// precisely as the place it stands in.
    fn sighting(
        &self,
        _game: &Game,
        _state: &State,
        _events: &[Event],
        _viewer: &Viewer<'_>,
    ) -> Option<Sighting> {
        None
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

    /// Whether the other players are told who the new player of a power is (`pbem replace`): EiA
    /// 19.2.2 lets him take part in the talks at once, so the others must know him. By default
    /// they are told only that the power has a new player.
    fn new_player_named(&self) -> bool {
        false
    }

    /// The wording of its events' texts, raised when a pbem changes words that the turn log and the
    /// reports hold (an audit compares them byte for byte): a turn's record keeps the wording it was
    /// told in, and `audit` re-resolves an older turn in its own words. 0 by default; Empires in
    /// Arms, Napoleon's Greatest Gamble and Paths of Glory 1 (their texts name each power as the
    /// scenario does, where they gave its id; EiA's numbers agree with their nouns too); War
    /// Between the States 2 (1 as NGG's; 2 calls a fortress a fortress, tells a move with where it
    /// goes and a combat result with what its cell means).
    fn texts_wording(&self) -> u32 {
        0
    }

    /// The words a turn of this ruleset is told in now, which its record keeps: its texts'
    /// ([`Self::texts_wording`]) and the reports' own lines', every ruleset's
    /// (`record::REPORTS_WORDING`). Not for a ruleset to change.
    fn wording(&self) -> crate::game::record::Wording {
        crate::game::record::Wording {
            texts: self.texts_wording(),
            reports: crate::game::record::REPORTS_WORDING,
        }
    }

    /// What changed in its texts from the wording `from` to this pbem's, in words, for `audit`'s
    /// line on a turn told in it.
    fn wording_change(&self, _from: u32) -> &'static str {
        "its texts are worded otherwise"
    }

    /// The options a game of this ruleset may name in game.toml's `options` (none by default).
    fn options(&self) -> &'static [GameOption] {
        &[]
    }

    /// Whether each player of a power with several (`[[power.player]]`) gets a report of what his
    /// own command sees (`engine::command`), rather than the power's one report; a power's
    /// `reports` key in game.toml overrides it. Per power by default (EiA and PoG): GITM 6 will
    /// say per player.
    fn reports_per_player(&self) -> bool {
        false
    }

    /// What decides for a power that sends no orders, in words: said to its player ("your ..."),
    /// and of the power ("its ..."). The power's standing orders and the SOP by default (EiA 19.1,
    /// and each ruleset's `[sop]`); GITM has neither and names its default orders (GITM 6.9).
    fn without_orders(&self) -> WithoutOrders {
        WithoutOrders {
            yours: "your standing orders and the SOP",
            its: "its standing orders and the SOP",
            standing: true,
        }
    }

    /// How a decision the ruleset's defaults took (`DecidedBy::Sop`) is told in the reports and
    /// the referee's summary: "by the SOP" (EiA 19.1, and each ruleset's `[sop]`); GITM, which has
    /// no SOP, names the default orders of GITM 6.9. The log keeps the tag (`by = "sop"`).
    fn decided_by_default(&self) -> &'static str {
        crate::decide::DecidedBy::Sop.describe()
    }
}

/// What decides for a power without orders ([`Ruleset::without_orders`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WithoutOrders {
    /// Said to the power's player: "your standing orders and the SOP".
    pub yours: &'static str,
    /// Said of the power: "its standing orders and the SOP".
    pub its: &'static str,
    /// Whether the ruleset has standing orders at all (`standing` lines): GITM has none.
    pub standing: bool,
}
