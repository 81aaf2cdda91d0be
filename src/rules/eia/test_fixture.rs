//! A small Empires in Arms game held in memory, for unit tests of the order language: a corner of the
//! demo map around Ulm, a handful of units, the demo's chits, two powers with argon2 password hashes.
//! Tests build it with [`Fixture::new`] and check orders through the ruleset's own `check_orders`.
//!
//! ```text
//! Strasbourg --- Black-Forest --- Lake-Constance (sea)
//!      \          |        \        |
//!       `----- Stuttgart --- Ulm ---'
//!                  \        /   \
//!                 Donauworth --- Augsburg --- Munich --- Vienna
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use crate::diag::Source;
use crate::game::config::GameConfig;
use crate::game::map::{Map, MapFile};
use crate::game::state::State;
use crate::game::Game;
use crate::rules::OrdersCheck;

use super::orders::Context;
use super::tables::Tables;
use super::Eia;

/// The game id of the fixture.
pub const GAME: &str = "ulm-1805";
/// The turn the fixture's state is at.
pub const TURN: u32 = 1;
/// France's password (the demo's, which is public).
pub const FRANCE_PASSWORD: &str = "eagle-1805";
/// Austria's password.
pub const AUSTRIA_PASSWORD: &str = "danube-1805";

const MAP: &str = r#"
[[area]]
id = "Strasbourg"
kind = "land"
xy = [100, 100]
adjacent = ["Black-Forest", "Stuttgart"]
city = { garrison = 2, fortress = 1 }
depot = true

[[area]]
id = "Black-Forest"
kind = "land"
terrain = "forest"
xy = [200, 100]
adjacent = ["Strasbourg", "Stuttgart", "Ulm", "Lake-Constance"]

[[area]]
id = "Stuttgart"
kind = "land"
xy = [200, 200]
adjacent = ["Strasbourg", "Black-Forest", "Ulm", "Donauworth"]

[[area]]
id = "Ulm"
kind = "land"
xy = [300, 200]
adjacent = ["Black-Forest", "Stuttgart", "Donauworth", "Augsburg", "Lake-Constance"]
city = { garrison = 1, fortress = 1 }

[[area]]
id = "Donauworth"
kind = "land"
xy = [300, 300]
adjacent = ["Stuttgart", "Ulm", "Augsburg"]

[[area]]
id = "Augsburg"
kind = "land"
xy = [400, 300]
adjacent = ["Ulm", "Donauworth", "Munich"]

[[area]]
id = "Munich"
kind = "land"
xy = [500, 300]
adjacent = ["Augsburg", "Vienna"]
city = { garrison = 1 }

[[area]]
id = "Vienna"
kind = "land"
xy = [600, 300]
adjacent = ["Munich"]
city = { garrison = 3, fortress = 2 }
capital = "austria"

[[area]]
id = "Lake-Constance"
kind = "sea"
xy = [250, 50]
adjacent = ["Black-Forest", "Ulm"]
"#;

const STATE: &str = r#"
game = "ulm-1805"
turn = 1

[control]
Strasbourg = "france"
Stuttgart = "france"
Vienna = "austria"

[standing.austria]
defence-chit = "defend"

[[eia.insurrection]]
id = "AU-Ins"
power = "austria"
factors = 3
morale = 2.0
movement = 2

[[eia.corps]]
id = "FR-I"
power = "france"
kind = "infantry"
factors = 7
morale = 4.0
movement = 3
area = "Stuttgart"

[[eia.corps]]
id = "FR-V"
power = "france"
kind = "infantry"
factors = 7
morale = 4.0
movement = 2
area = "Strasbourg"

[[eia.corps]]
id = "FR-Cav"
power = "france"
kind = "cavalry"
factors = 5
morale = 4.0
movement = 4
area = "Black-Forest"

[[eia.corps]]
id = "AU-I"
power = "austria"
kind = "infantry"
factors = 8
morale = 3.0
movement = 3
area = "Ulm"

[[eia.leader]]
id = "Napoleon"
power = "france"
rating = 5
seniority = 1
movement = 4
area = "Strasbourg"

[[eia.leader]]
id = "Mack"
power = "austria"
rating = 1
seniority = 1
movement = 4
area = "Ulm"

[[eia.fleet]]
id = "AU-Lake"
power = "austria"
ships = 2
area = "Lake-Constance"
"#;

const TABLES: &str = r#"
source = "test tables"

[combat]
rounds = 3
columns = [4, 8]
results = [
  ["0/0.3", "1/0.4", "1/0.5"],
  ["1/0.4", "1/0.5", "2/0.6"],
]
max_leader_drm = 2

[chits]
attack = ["assault", "echelon", "outflank", "probe"]
defence = ["defend", "counterattack", "outflank", "probe"]

[chits.matrix]
assault  = ["+0/+1", "+1/+1", "+1/+0", "+2/-1"]
echelon  = ["+1/+0", "+0/+0", "+0/+1", "+1/-1"]
outflank = ["+2/-1", "-1/+2", "-1/-1", "+1/+0"]
probe    = ["-1/+0", "+0/-1", "+0/+0", "+0/+0"]

[pursuit]
losses = [0, 1, 2]
cavalry_per_drm = 3
max_drm = 2

[reinforce]
no_leader = 2
"#;

/// The argon2 hashes of the two passwords, made once per test run (hashing is slow on purpose).
fn hashes() -> &'static (String, String) {
    static HASHES: OnceLock<(String, String)> = OnceLock::new();
    HASHES.get_or_init(|| {
        let hash = |p: &str| crate::auth::hash_password(p).expect("argon2 hashes a password");
        (hash(FRANCE_PASSWORD), hash(AUSTRIA_PASSWORD))
    })
}

/// The fixture's `game.toml`.
pub fn config() -> GameConfig {
    let (france, austria) = hashes();
    let text = format!(
        r#"
game = "{GAME}"
title = "Ulm 1805 (test fixture)"
ruleset = "eia"

[calendar]
start = "1805-09"

[deadline]
time_zone = "Europe/Vienna"
first = "2026-12-06T20:00"
every_days = 7

[[power]]
id = "france"
name = "France"
players = ["france@example.org"]
password_hash = "{france}"

[[power]]
id = "austria"
name = "Austria"
players = ["austria@example.org"]
password_hash = "{austria}"
"#
    );
    toml::from_str(&text).expect("the fixture's game.toml")
}

/// The fixture's map.
pub fn map() -> Map {
    let file: MapFile = toml::from_str(MAP).expect("the fixture's map.toml");
    Map::from_file(file, &["france", "austria"]).expect("the fixture's map checks")
}

/// The fixture's state at the start of turn 1.
pub fn state() -> State {
    crate::game::state::parse::<crate::rules::eia::state::EiaState>(&crate::diag::Source::new(
        "state.toml",
        STATE,
    ))
    .expect("the fixture's state.toml")
}

/// The fixture's tables.
pub fn tables() -> Tables {
    let tables: Tables = toml::from_str(TABLES).expect("the fixture's tables.toml");
    assert!(tables.validate().is_empty(), "the fixture's tables check");
    tables
}

/// The four header lines of a power's orders, each ending with a line break.
pub fn header(power: &str, password: &str) -> String {
    format!("game {GAME}\npower {power}\npassword {password}\nturn {TURN}\n")
}

/// France's header with the right password.
pub fn france() -> String {
    header("france", FRANCE_PASSWORD)
}

/// The whole game, ready to check orders.
pub struct Fixture {
    pub game: Game,
    pub state: State,
    pub tables: Tables,
}

impl Default for Fixture {
    fn default() -> Self {
        Fixture::new()
    }
}

impl Fixture {
    pub fn new() -> Fixture {
        let config = config();
        let state = state();
        let map = map();
        let mut references = crate::game::state::check_shared(&state, &config, &map);
        references.extend(super::pieces::check_pieces(&state, &config, &map));
        assert!(
            references.is_empty(),
            "the fixture's state checks: {references:?}"
        );
        let ruleset = Box::new(Eia {
            tables: tables(),
            sop: BTreeMap::new(),
            options: Default::default(),
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
            tables: tables(),
        }
    }

    /// What parsing needs of the game.
    pub fn context(&self) -> Context<'_> {
        Context::new(&self.game.map, &self.state, &self.tables)
    }

    /// Checks an orders file the way `pbem check` does.
    pub fn check(&self, text: &str) -> OrdersCheck {
        self.game
            .ruleset
            .check_orders(&self.game, &self.state, &source(text))
    }
}

/// An orders file named as the referee sees it.
pub fn source(text: &str) -> Source {
    Source::new("orders/ulm-1805/1/france.txt", text)
}
