//! A small Paths of Glory game held in memory, for the rule tests: a corner of the Western front,
//! two powers, units placed by each test, dice forced by choosing the turn seed.
//!
//! ```text
//!  Aachen ---- Liege* ---- Namur ---- Lille       (* fort)
//!    |           |           |          |
//!  Koblenz --- Sedan(f) --- Reims ---- Amiens
//!    |           |           |          |
//!  Metz* ----- Verdun* ---- Chalons -- Paris*
//!    |           |
//!  Vosges(m) - Nancy ---- Marsh(s) ... Lake (dotted: fr only)
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use crate::diag::Source;
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::config::GameConfig;
use crate::game::map::{Map, MapFile};
use crate::game::state::State;
use crate::game::Game;
use crate::rules::{OrdersCheck, PowerOrders, Ruleset};

use super::state::{Factors, PogState, Unit, UnitKind};
use super::tables::Tables;
use super::Pog;

pub const GAME: &str = "pog-test";
pub const CENTRAL_PASSWORD: &str = "kaiser";
pub const ALLIES_PASSWORD: &str = "entente";

const MAP: &str = r#"
[[area]]
id = "Aachen"
kind = "land"
nation = "germany"
xy = [0, 0]
adjacent = ["Liege", "Koblenz"]
[[area]]
id = "Liege"
kind = "land"
nation = "belgium"
fort = 3
xy = [1, 0]
adjacent = ["Aachen", "Namur", "Sedan"]
[[area]]
id = "Namur"
kind = "land"
nation = "belgium"
xy = [2, 0]
adjacent = ["Liege", "Lille", "Reims"]
[[area]]
id = "Lille"
kind = "land"
nation = "france"
xy = [3, 0]
adjacent = ["Namur", "Amiens"]
[[area]]
id = "Koblenz"
kind = "land"
nation = "germany"
supply = "central"
xy = [0, 1]
adjacent = ["Aachen", "Sedan", "Metz"]
[[area]]
id = "Sedan"
kind = "land"
nation = "france"
terrain = "forest"
xy = [1, 1]
adjacent = ["Liege", "Koblenz", "Reims", "Verdun"]
[[area]]
id = "Reims"
kind = "land"
nation = "france"
xy = [2, 1]
adjacent = ["Namur", "Sedan", "Amiens", "Chalons"]
[[area]]
id = "Amiens"
kind = "land"
nation = "france"
xy = [3, 1]
adjacent = ["Lille", "Reims", "Paris"]
[[area]]
id = "Metz"
kind = "land"
nation = "germany"
fort = 3
supply = "central"
xy = [0, 2]
adjacent = ["Koblenz", "Verdun", "Vosges"]
[[area]]
id = "Verdun"
kind = "land"
nation = "france"
fort = 3
xy = [1, 2]
adjacent = ["Sedan", "Metz", "Chalons", "Nancy"]
[[area]]
id = "Chalons"
kind = "land"
nation = "france"
xy = [2, 2]
adjacent = ["Reims", "Verdun", "Paris"]
[[area]]
id = "Paris"
kind = "land"
nation = "france"
fort = 3
supply = "allies"
xy = [3, 2]
adjacent = ["Amiens", "Chalons"]
[[area]]
id = "Vosges"
kind = "land"
nation = "germany"
terrain = "mountain"
xy = [0, 3]
adjacent = ["Metz", "Nancy"]
[[area]]
id = "Nancy"
kind = "land"
nation = "france"
xy = [1, 3]
adjacent = ["Verdun", "Vosges", "Marsh"]
[[area]]
id = "Marsh"
kind = "land"
nation = "france"
terrain = "swamp"
xy = [2, 3]
adjacent = ["Nancy", "Lake"]
dotted = [{ to = "Lake", nations = ["fr"] }]
[[area]]
id = "Lake"
kind = "land"
nation = "france"
xy = [3, 3]
adjacent = ["Marsh"]
"#;

const TABLES: &str = r#"
stacking = 3
entrench_from_turn = 3
actions_per_turn = 12
bef_nations = ["britain", "france", "belgium", "holland", "germany"]
terrain = { clear = 0, forest = -1, mountain = -1, swamp = -1, desert = 0 }
trench = [
  { level = 0, attacker = -1, defender = 0 },
  { level = 1, attacker = -1, defender = 1 },
  { level = 2, attacker = -2, defender = 1 },
]
[race]
power = "central"
spaces = ["Amiens", "Lille"]
war_status = 4
[level_zero.central]
armies = ["ge"]
nations = ["austria-hungary"]
mountain_armies = ["ah"]
[level_zero.allies]
armies = ["fr", "br"]
nations = ["italy"]
mountain_armies = ["it"]
[fire.army]
columns = [1, 2, 3, 4, 6, 9, 12, 15, 16]
results = [
  [0, 1, 1, 2, 2, 3, 3, 4, 4],
  [1, 1, 2, 2, 3, 3, 4, 4, 5],
  [1, 2, 2, 3, 3, 4, 4, 5, 5],
  [1, 2, 3, 3, 4, 4, 5, 5, 7],
  [2, 2, 3, 4, 4, 5, 5, 7, 7],
  [2, 3, 3, 4, 5, 5, 7, 7, 7],
]
[fire.corps]
columns = [0, 1, 2, 3, 4, 5, 6, 8]
results = [
  [0, 0, 0, 0, 1, 1, 1, 1],
  [0, 0, 1, 1, 1, 1, 1, 2],
  [0, 1, 1, 1, 1, 2, 2, 2],
  [0, 1, 1, 1, 2, 2, 2, 3],
  [1, 1, 1, 2, 2, 2, 3, 3],
  [1, 1, 2, 2, 2, 3, 3, 4],
]
[[card]]
id = "barrage"
name = "Barrage"
power = "allies"
side = "attacker"
drm = 1
nations = ["fr"]
[[card]]
id = "hurricane"
name = "Hurricane Barrage"
power = "allies"
side = "attacker"
drm = 1
nations = ["br"]
[[card]]
id = "tanks"
name = "Tanks"
power = "allies"
side = "attacker"
negates_trenches = true
[[card]]
id = "von-francois"
name = "Von Francois"
power = "central"
side = "attacker"
shift = 1
nations = ["ge"]
[[card]]
id = "machine-guns"
name = "Machine Guns"
power = "central"
side = "defender"
drm = 1
nations = ["ge"]
[[card]]
id = "they-shall-not-pass"
name = "They Shall Not Pass"
power = "allies"
side = "defender"
drm = 1
nations = ["fr"]
kept_on_tie = true
until_next_turn = true
"#;

fn hashes() -> &'static (String, String) {
    static HASHES: OnceLock<(String, String)> = OnceLock::new();
    HASHES.get_or_init(|| {
        let hash = |p: &str| crate::auth::hash_password(p).expect("argon2 hashes a password");
        (hash(CENTRAL_PASSWORD), hash(ALLIES_PASSWORD))
    })
}

pub fn config() -> GameConfig {
    let (central, allies) = hashes();
    let text = format!(
        r#"
game = "{GAME}"
title = "PoG test fixture"
ruleset = "pog"
[calendar]
start = "1914-09"
[deadline]
time_zone = "Europe/Paris"
first = "2026-12-06T20:00"
every_days = 2
[[power]]
id = "central"
name = "Central Powers"
players = ["central@example.org"]
password_hash = "{central}"
[[power]]
id = "allies"
name = "Allied Powers"
players = ["allies@example.org"]
password_hash = "{allies}"
"#
    );
    toml::from_str(&text).expect("the fixture's game.toml")
}

pub fn tables() -> Tables {
    let t: Tables = toml::from_str(TABLES).expect("the fixture's tables.toml");
    assert!(t.validate().is_empty(), "the fixture's tables check");
    t
}

/// A unit: `army("GE-1", "Metz")`-style helpers build the common ones.
pub fn unit(
    id: &str,
    power: &str,
    nation: &str,
    kind: UnitKind,
    full: [u32; 3],
    reduced: [u32; 3],
    space: &str,
) -> Unit {
    let f = |a: [u32; 3]| Factors {
        cf: a[0],
        lf: a[1],
        mf: a[2],
    };
    Unit {
        id: toml::Spanned::new(0..0, id.to_string()),
        power: toml::Spanned::new(0..0, power.to_string()),
        nation: nation.to_string(),
        kind,
        full: f(full),
        reduced: f(reduced),
        is_reduced: false,
        bef: false,
        near_east: false,
        ana: false,
        sn: false,
        space: toml::Spanned::new(0..0, space.to_string()),
    }
}

/// A German army, 5-3-3 / 3-3-3.
pub fn ge_army(id: &str, space: &str) -> Unit {
    unit(
        id,
        "central",
        "ge",
        UnitKind::Army,
        [5, 3, 3],
        [3, 3, 3],
        space,
    )
}

/// A German corps, 2-1-4 / 1-1-4.
pub fn ge_corps(id: &str, space: &str) -> Unit {
    unit(
        id,
        "central",
        "ge",
        UnitKind::Corps,
        [2, 1, 4],
        [1, 1, 4],
        space,
    )
}

/// A French army, 3-3-3 / 2-3-3.
pub fn fr_army(id: &str, space: &str) -> Unit {
    unit(
        id,
        "allies",
        "fr",
        UnitKind::Army,
        [3, 3, 3],
        [2, 3, 3],
        space,
    )
}

/// A French corps, 1-1-3 / 1-1-3.
pub fn fr_corps(id: &str, space: &str) -> Unit {
    unit(
        id,
        "allies",
        "fr",
        UnitKind::Corps,
        [1, 1, 3],
        [1, 1, 3],
        space,
    )
}

/// The game, a state at game turn 3 with central active, and no unit.
pub struct Fixture {
    pub game: Game,
    pub state: State,
}

impl Default for Fixture {
    fn default() -> Self {
        Fixture::new()
    }
}

impl Fixture {
    pub fn new() -> Fixture {
        Fixture::renamed(&[])
    }

    /// The fixture with spaces of its map renamed, `(from, to)`: a space the rules name (Sinai,
    /// London) in its place.
    pub fn renamed(names: &[(&str, &str)]) -> Fixture {
        let config = config();
        let mut text = MAP.to_string();
        for (from, to) in names {
            text = text.replace(&format!("\"{from}\""), &format!("\"{to}\""));
        }
        let file: MapFile = toml::from_str(&text).expect("the fixture's map.toml");
        let map = Map::from_file(file, &["central", "allies"]).expect("the fixture's map checks");
        let mut control = BTreeMap::new();
        for a in &map.areas {
            let p = if a.nation.as_deref() == Some("germany") {
                "central"
            } else {
                "allies"
            };
            control.insert(a.id.clone(), p.to_string());
        }
        let mut state = State::new(
            GAME.into(),
            1,
            PogState {
                active: toml::Spanned::new(0..0, "central".into()),
                game_turn: 3,
                actions_played: 0,
                race_to_the_sea: false,
                cp_war_status: 0,
                entrench_played: Vec::new(),
                trench: BTreeMap::new(),
                fort: BTreeMap::new(),
                cards: BTreeMap::new(),
                neutral: Vec::new(),
                played_in_turn: BTreeMap::new(),
                mef_beachhead: None,
                caucasus_crossed: None,
                fall_of_the_tsar: false,
                ana_held: BTreeMap::new(),
                sn_converted: BTreeMap::new(),
                eliminated: Vec::new(),
                units: Vec::new(),
            },
        );
        state.control = control;
        let ruleset = Box::new(Pog {
            tables: tables(),
            sop: BTreeMap::new(),
        });
        Fixture {
            game: Game {
                dir: PathBuf::from(GAME),
                rules_dir: PathBuf::from(GAME),
                config,
                map,
                geometry: None,
                ruleset,
                kept_state: Default::default(),
            },
            state,
        }
    }

    /// The fixture with its tables' `[theatres]` changed by `f`.
    pub fn theatres(mut self, f: impl FnOnce(&mut super::theatres::Theatres)) -> Self {
        let mut tables = self.ruleset().tables.clone();
        f(&mut tables.theatres);
        self.game.ruleset = Box::new(Pog {
            tables,
            sop: BTreeMap::new(),
        });
        self
    }

    pub fn pog(&self) -> &PogState {
        self.state.table::<PogState>().expect("a pog state")
    }

    pub fn pog_mut(&mut self) -> &mut PogState {
        self.state.table_mut::<PogState>().expect("a pog state")
    }

    pub fn with(mut self, units: Vec<Unit>) -> Self {
        self.pog_mut().units.extend(units);
        self
    }

    /// Makes `allies` the active power.
    pub fn allies_act(mut self) -> Self {
        self.pog_mut().active = toml::Spanned::new(0..0, "allies".into());
        self
    }

    pub fn standing(mut self, power: &str, key: &str, value: &str) -> Self {
        self.state
            .standing
            .entry(power.into())
            .or_default()
            .insert(key.into(), value.into());
        self
    }

    pub fn ruleset(&self) -> &Pog {
        self.game
            .ruleset
            .as_any()
            .downcast_ref()
            .expect("a PoG game")
    }

    /// The orders file of `power` with `body` after its header.
    pub fn orders(power: &str, body: &str) -> Source {
        let pw = if power == "central" {
            CENTRAL_PASSWORD
        } else {
            ALLIES_PASSWORD
        };
        Source::new(
            format!("{GAME}/orders/1/{power}.txt"),
            format!("game {GAME}\npower {power}\npassword {pw}\nturn 1\n{body}\n"),
        )
    }

    /// Checks `power`'s orders as `pbem check` does.
    pub fn check(&self, power: &str, body: &str) -> OrdersCheck {
        self.ruleset()
            .check_orders(&self.game, &self.state, &Self::orders(power, body))
    }

    /// The rendered diagnostics of `power`'s orders.
    pub fn errors(&self, power: &str, body: &str) -> String {
        let src = Self::orders(power, body);
        let c = self.ruleset().check_orders(&self.game, &self.state, &src);
        src.render(&c.diagnostics)
    }

    /// Resolves the action with `body` as the active power's orders, under the first seed whose dice
    /// satisfy `want` (label, face of its first die); the state after, and the events.
    pub fn resolve(&self, body: &str, want: &[(&str, u32)]) -> (State, Vec<Event>) {
        let active = self.pog().active().to_string();
        let orders = vec![PowerOrders {
            power: active.clone(),
            source: Self::orders(&active, body),
        }];
        let seed = seed_for(want);
        let mut dice = DiceBox::new(seed);
        let r = self
            .ruleset()
            .resolve(&self.game, &self.state, &orders, &mut dice)
            .expect("the action resolves");
        (r.next, r.events)
    }
}

/// The first seed (by a counter) under which each label's first d6 shows the wanted face.
pub fn seed_for(want: &[(&str, u32)]) -> crate::dice::Bytes32 {
    for n in 0u64..1_000_000 {
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&n.to_be_bytes());
        if want
            .iter()
            .all(|(label, face)| crate::dice::Roller::new(&seed, label).die(6) == *face)
        {
            return seed;
        }
    }
    panic!("no seed gives {want:?}");
}

/// The texts of the events, one per line, for assertions.
pub fn log(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| format!("[{}] {}", e.rule, e.text))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The unit `id` in `state`.
pub fn find<'a>(state: &'a State, id: &str) -> Option<&'a Unit> {
    state.table::<PogState>().and_then(|p| p.unit(id))
}
