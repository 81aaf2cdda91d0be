//! `turns/<t>/state.toml`: the position at the start of a turn. Every collection here iterates in a
//! fixed order (vectors in file order, `BTreeMap`s by key), so that writing a state gives the same bytes.
//!
//! One file format for every ruleset: the shared keys (game, turn, control, alliances, relations,
//! standing orders, who plays each power) are the engine's and are checked here ([`check_shared`]);
//! the pieces of a game system are one table named after its ruleset (`[eia]`, `[pog]`), typed by the
//! ruleset (a [`RulesetTable`]) and checked by it (`Ruleset::check_state`). This module names no
//! ruleset: [`parse`] reads a state with the table type the game's ruleset gives it, and a table of
//! another ruleset is a located error.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::diag::{Diagnostic, FileError, Source};
use crate::rule::Rule;

pub use super::relations::{Relation, Relations};

/// The position at the start of a turn. Written by its `Serialize` (the shared keys, then the
/// ruleset's table), read by [`parse`]. A new shared key goes into [`SHARED_KEYS`] too; the
/// compiler then shows the other places (each takes the state apart field by field).
#[derive(Debug, Clone)]
pub struct State {
    pub game: String,
    pub turn: u32,
    /// Which power controls each land area (areas not listed are uncontrolled), by area id.
    pub control: BTreeMap<String, String>,
    /// Alliances: each a list of powers allied with one another. Allies do not fight each other, may
    /// stand together, and do not take each other's areas.
    pub alliances: Vec<Vec<String>>,
    /// Pairs of powers allied, neutral or hostile (`game::relations`); a pair not listed is allied
    /// when an alliance holds both, hostile otherwise. EiA and PoG need only `alliances`.
    pub relations: Relations,
    /// Standing orders per power: decision name to setting; kept until the power changes them.
    pub standing: BTreeMap<String, BTreeMap<String, String>>,
    /// Powers whose player left (EiA 19.2.1): who controls them, and until which turn.
    pub controlled: BTreeMap<String, Controlled>,
    /// New players waiting to take over a power at the next economic phase (EiA 19.2.2).
    pub incoming: BTreeMap<String, Player>,
    /// Players who took over a power: they replace the players and password of game.toml.
    pub owners: BTreeMap<String, Player>,
    /// Alliances a new player inherited may not be broken before this turn (EiA 19.2.2).
    pub alliance_locks: BTreeMap<String, u32>,
    /// The allies a new player inherited with his power, held to while its alliance lock stands
    /// (EiA 19.2.2).
    pub inherited_allies: BTreeMap<String, Vec<String>>,
    /// The ruleset's own table (`[eia]`, `[pog]`): its pieces and markers, typed by the ruleset.
    pub table: Box<dyn Table>,
}

/// The table of one ruleset in `state.toml`, typed in the ruleset's folder (`rules/<id>/state.rs`).
/// Adding a ruleset adds one of these there and nothing here.
pub trait RulesetTable:
    Serialize + DeserializeOwned + Clone + PartialEq + fmt::Debug + Send + Sync + 'static
{
    /// The table's key: the ruleset's id (`eia`).
    const KEY: &'static str;

    /// The table of a state that has none, or `None` when the ruleset needs one (`missing [pog]`).
    fn when_absent() -> Option<Self> {
        None
    }
}

/// A ruleset's table, its type erased, as [`State`] holds it: the engine writes, clones and
/// compares it; only its ruleset looks inside (`State::table`).
pub trait Table: erased_serde::Serialize + fmt::Debug + Send + Sync + Any {
    /// The table's key in `state.toml`.
    fn key(&self) -> &'static str;
    fn clone_box(&self) -> Box<dyn Table>;
    fn equals(&self, other: &dyn Table) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

erased_serde::serialize_trait_object!(Table);

impl<T: RulesetTable> Table for T {
    fn key(&self) -> &'static str {
        T::KEY
    }
    fn clone_box(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
    fn equals(&self, other: &dyn Table) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl Clone for Box<dyn Table> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        let State {
            game,
            turn,
            control,
            alliances,
            relations,
            standing,
            controlled,
            incoming,
            owners,
            alliance_locks,
            inherited_allies,
            table,
        } = self;
        *game == other.game
            && *turn == other.turn
            && *control == other.control
            && *alliances == other.alliances
            && *relations == other.relations
            && *standing == other.standing
            && *controlled == other.controlled
            && *incoming == other.incoming
            && *owners == other.owners
            && *alliance_locks == other.alliance_locks
            && *inherited_allies == other.inherited_allies
            && table.equals(&*other.table)
    }
}

/// The shared keys of `state.toml`, in the order they are written.
const SHARED_KEYS: [&str; 11] = [
    "game",
    "turn",
    "control",
    "alliances",
    "relations",
    "standing",
    "controlled",
    "incoming",
    "owners",
    "alliance_locks",
    "inherited_allies",
];

impl Serialize for State {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let State {
            game,
            turn,
            control,
            alliances,
            relations,
            standing,
            controlled,
            incoming,
            owners,
            alliance_locks,
            inherited_allies,
            table,
        } = self;
        let mut st = s.serialize_struct("State", SHARED_KEYS.len() + 1)?;
        st.serialize_field("game", game)?;
        st.serialize_field("turn", turn)?;
        st.serialize_field("control", control)?;
        st.serialize_field("alliances", alliances)?;
        if !relations.is_empty() {
            st.serialize_field("relations", relations)?;
        }
        st.serialize_field("standing", standing)?;
        if !controlled.is_empty() {
            st.serialize_field("controlled", controlled)?;
        }
        if !incoming.is_empty() {
            st.serialize_field("incoming", incoming)?;
        }
        if !owners.is_empty() {
            st.serialize_field("owners", owners)?;
        }
        if !alliance_locks.is_empty() {
            st.serialize_field("alliance_locks", alliance_locks)?;
        }
        if !inherited_allies.is_empty() {
            st.serialize_field("inherited_allies", inherited_allies)?;
        }
        st.serialize_field(table.key(), &**table)?;
        st.end()
    }
}

/// Reads `state.toml` for a ruleset whose table is `T`: the shared keys and `[<T::KEY>]`; any other
/// key (another ruleset's table, a piece outside its table) is an error located at the key.
pub fn parse<T: RulesetTable>(source: &Source) -> Result<State, FileError> {
    let located = |e: toml::de::Error| {
        let span = e.span().unwrap_or(0..0);
        let message = e.message().to_string();
        let hint = if message.starts_with("unknown field") {
            Some(format!(
                "a state has the shared keys ({}) and the ruleset's table [{}]; remove the key or fix its spelling",
                SHARED_KEYS.join(", "),
                T::KEY
            ))
        } else if message.starts_with("missing field") {
            Some("add the key to this table".to_string())
        } else if message.starts_with("missing table") {
            Some(format!("add the table [{}] with the game's pieces", T::KEY))
        } else if message.starts_with("unknown variant") {
            Some("use one of the values listed above".to_string())
        } else {
            None
        };
        FileError::new(source, &Diagnostic::error(message, span).maybe_hint(hint))
    };
    // A large state is read on two cores when it can be (`toml_parts`), else whole.
    let (mut head, mut tail) = (String::new(), String::new());
    let in_parts = super::toml_parts::parse(
        &source.text,
        super::toml_parts::IN_PARTS_FROM,
        &mut head,
        &mut tail,
    );
    let table = match in_parts {
        Some(table) => table,
        None => toml::de::DeTable::parse(&source.text).map_err(located)?,
    };
    StateSeed::<T>(std::marker::PhantomData)
        .deserialize(toml::Deserializer::from(table))
        .map_err(located)
}

/// Reads a state whose ruleset table is `T` ([`parse`]).
struct StateSeed<T>(std::marker::PhantomData<T>);

/// One key of `state.toml`: a shared key (its index in [`SHARED_KEYS`]) or the ruleset's table.
enum Key {
    Shared(usize),
    Table,
}

/// Reads a key of `state.toml`, refusing one that is neither shared nor the ruleset's table (the
/// error is raised on the key, so the TOML reader locates it there).
struct KeySeed(&'static str);

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key of state.toml")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
        if v == self.0 {
            return Ok(Key::Table);
        }
        match SHARED_KEYS.iter().position(|k| *k == v) {
            Some(i) => Ok(Key::Shared(i)),
            None => Err(E::custom(format!(
                "unknown field `{v}`: this game's pieces are in [{}]",
                self.0
            ))),
        }
    }
}

impl<'de, T: RulesetTable> DeserializeSeed<'de> for StateSeed<T> {
    type Value = State;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<State, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, T: RulesetTable> Visitor<'de> for StateSeed<T> {
    type Value = State;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a state table")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<State, A::Error> {
        let (mut game, mut turn, mut table) = (None, None, None);
        let mut control = BTreeMap::new();
        let mut alliances = Vec::new();
        let mut relations = Relations::default();
        let mut standing = BTreeMap::new();
        let mut controlled = BTreeMap::new();
        let mut incoming = BTreeMap::new();
        let mut owners = BTreeMap::new();
        let mut alliance_locks = BTreeMap::new();
        let mut inherited_allies = BTreeMap::new();
        while let Some(key) = map.next_key_seed(KeySeed(T::KEY))? {
            match key {
                Key::Table => table = Some(map.next_value::<T>()?),
                Key::Shared(i) => match SHARED_KEYS[i] {
                    "game" => game = Some(map.next_value()?),
                    "turn" => turn = Some(map.next_value()?),
                    "control" => control = map.next_value()?,
                    "alliances" => alliances = map.next_value()?,
                    "relations" => relations = map.next_value()?,
                    "standing" => standing = map.next_value()?,
                    "controlled" => controlled = map.next_value()?,
                    "incoming" => incoming = map.next_value()?,
                    "owners" => owners = map.next_value()?,
                    "alliance_locks" => alliance_locks = map.next_value()?,
                    _ => inherited_allies = map.next_value()?,
                },
            }
        }
        let game = game.ok_or_else(|| de::Error::missing_field("game"))?;
        let turn = turn.ok_or_else(|| de::Error::missing_field("turn"))?;
        let Some(table) = table.or_else(T::when_absent) else {
            return Err(de::Error::custom(format!(
                "missing table [{}]: this game's pieces are in it",
                T::KEY
            )));
        };
        Ok(State {
            game,
            turn,
            control,
            alliances,
            relations,
            standing,
            controlled,
            incoming,
            owners,
            alliance_locks,
            inherited_allies,
            table: Box::new(table),
        })
    }
}

/// Who runs a power whose player left (EiA 19.2.1).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Controlled {
    /// The controlling power; none when the power is left to its standing orders and the SOP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// EiA 19.2.1, 14.3.1: the controller is to be rolled for when the turn is resolved (`pbem drop`
    /// without `--to`); until then the power is run by its standing orders and the SOP.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_roll: bool,
    /// The turn at whose start the control ends: the next economic phase.
    pub until: u32,
    /// Why, for the reports.
    pub reason: String,
    /// The players who left the power (EiA 19.2.1), as game.toml or the state named them when it
    /// was dropped: fixed then, in the act and the states after it, so that a turn resolved again
    /// judges their mail as it was judged, whatever a later `pbem replace` wrote into game.toml.
    /// Empty in a game dropped before pbem kept them (then game.toml's players of now stand in).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left: Vec<String>,
}

/// A player of a power, as recorded when one replaces another (EiA 19.2.2).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub players: Vec<String>,
    /// argon2id PHC string.
    pub password_hash: String,
    /// The turn from which the player plays.
    pub from: u32,
}

impl State {
    /// A state of `game` at `turn` with the ruleset's `table` and every shared key empty.
    pub fn new(game: String, turn: u32, table: impl RulesetTable) -> State {
        State {
            game,
            turn,
            control: BTreeMap::new(),
            alliances: Vec::new(),
            relations: Relations::default(),
            standing: BTreeMap::new(),
            controlled: BTreeMap::new(),
            incoming: BTreeMap::new(),
            owners: BTreeMap::new(),
            alliance_locks: BTreeMap::new(),
            inherited_allies: BTreeMap::new(),
            table: Box::new(table),
        }
    }

    /// The ruleset's table, when it is a `T` (it is for the ruleset that read the state).
    pub fn table<T: RulesetTable>(&self) -> Option<&T> {
        self.table.as_any().downcast_ref()
    }

    /// The ruleset's table to change, when it is a `T`.
    pub fn table_mut<T: RulesetTable>(&mut self) -> Option<&mut T> {
        self.table.as_any_mut().downcast_mut()
    }

    /// Whether `a` and `b` are the same power or allies.
    pub fn friendly(&self, a: &str, b: &str) -> bool {
        self.relation(a, b) == Relation::Allied
    }

    /// How `a` and `b` stand to each other: allied, neutral or hostile (`game::relations`).
    pub fn relation(&self, a: &str, b: &str) -> Relation {
        super::relations::relation(&self.relations, &self.alliances, a, b)
    }
}

/// EiA 19.2.2: a new player takes control at the next economic phase; inherited alliances stand three turns.
pub const REPLACED: Rule = Rule::new(
    "EiA",
    "19.2.2",
    "a new player takes control at the next economic phase",
);

pub use super::config::MAX_TURN;

/// Checks the shared keys of a state: the game, the powers named by control, alliances and standing
/// orders, and the areas of `[control]`. The ruleset checks its own pieces (`Ruleset::check_state`).
pub fn check_shared(
    state: &State,
    config: &super::config::GameConfig,
    map: &super::map::Map,
) -> Vec<crate::diag::Diagnostic> {
    check_shared_with(state, config, map, &[])
}

/// [`check_shared`], where `[control]` may also name the ruleset's states that never play
/// (`Ruleset::stateless_owners`: GITM 7.15's `ottoman`).
pub fn check_shared_with(
    state: &State,
    config: &super::config::GameConfig,
    map: &super::map::Map,
    stateless: &[&str],
) -> Vec<crate::diag::Diagnostic> {
    use crate::diag::Diagnostic;
    let mut out = Vec::new();
    let powers: Vec<&str> = config.power_ids().collect();
    // Looked up once per controlled area: a set, not a scan of the game's powers.
    let known: std::collections::BTreeSet<&str> = powers.iter().copied().collect();
    // Issue 15.9: turn numbers must not wrap when pbem counts on.
    if state.turn >= MAX_TURN {
        out.push(
            Diagnostic::error(
                format!("turn {} is beyond the turns pbem counts", state.turn),
                0..0,
            )
            .hint(format!("a game has turns 0 to {}", MAX_TURN - 1)),
        );
    }
    for (a, p) in &state.control {
        if map.find(a).is_none() {
            out.push(
                Diagnostic::error(format!("[control] names unknown area '{a}'"), 0..0)
                    .maybe_hint(map.suggest(a)),
            );
        }
        if !known.contains(p.as_str()) && !stateless.contains(&p.as_str()) {
            let mut d = Diagnostic::error(
                format!("[control] gives '{a}' to unknown power '{p}'"),
                0..0,
            );
            if !stateless.is_empty() {
                d = d.hint(format!(
                    "an owner is a power of game.toml or a state that never plays: {}",
                    stateless.join(", ")
                ));
            }
            out.push(d);
        }
    }
    for p in state.alliances.iter().flatten() {
        if !known.contains(p.as_str()) {
            out.push(Diagnostic::error(
                format!("an alliance names unknown power '{p}'"),
                0..0,
            ));
        }
    }
    out.extend(super::relations::check(
        &state.relations,
        &state.alliances,
        &powers,
    ));
    // EiA 19.2.2: an alliance a new player inherited stands until his lock's turn.
    for (power, until) in &state.alliance_locks {
        if state.turn >= *until {
            continue;
        }
        for ally in state.inherited_allies.get(power).into_iter().flatten() {
            if !state.friendly(power, ally) {
                out.push(
                    Diagnostic::error(
                        format!("{} new player may not break its inherited alliance with {ally} before turn {until}", crate::words::Possessive(power)),
                        0..0,
                    )
                    .hint(format!("keep {power} and {ally} in one list of 'alliances' until turn {until}"))
                    .rule(REPLACED),
                );
            }
        }
    }
    for p in state.standing.keys() {
        if !known.contains(p.as_str()) {
            out.push(Diagnostic::error(
                format!("[standing] names unknown power '{p}'"),
                0..0,
            ));
        }
    }
    if state.game != config.game {
        out.push(Diagnostic::error(
            format!(
                "this state belongs to game '{}', not '{}'",
                state.game, config.game
            ),
            0..0,
        ));
    }
    out
}
