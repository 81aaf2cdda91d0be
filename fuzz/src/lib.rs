//! What the fuzz targets share: the demo game in memory, with passwords that cost microseconds to
//! check (argon2's least parameters), so that a fuzzer spends its time in pbem's parsers and not in
//! argon2; and the splitting of one input into the files of a game folder.

use argon2::password_hash::{PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use pbem::diag::Source;
use pbem::game::config::GameConfig;
use pbem::game::map::{Map, MapFile};
use pbem::game::state::State;
use pbem::game::Game;

/// The tables every fuzzed game uses: the demo's.
pub const TABLES: &str = include_str!("../../games/ulm-1805/tables.toml");
/// The demo's files.
pub const DEMO_GAME: &str = include_str!("../../games/ulm-1805/game.toml");
pub const DEMO_MAP: &str = include_str!("../../games/ulm-1805/map.toml");
pub const DEMO_STATE: &str = include_str!("../../games/ulm-1805/turns/1/state.toml");

/// The demo's powers and the passwords of its sample orders (public, see game.toml).
pub const PASSWORDS: [(&str, &str); 4] = [
    ("france", "eagle-1805"),
    ("austria", "danube-1805"),
    ("russia", "bear-1805"),
    ("britain", "trident-1805"),
];

/// The line that separates the files of a game folder in one fuzz input (no TOML line starts so).
pub const SEPARATOR: &str = "\n%%%%\n";

/// An argon2id hash of `password` with the least parameters and a fixed salt.
pub fn light_hash(password: &str) -> String {
    let argon = Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(Params::MIN_M_COST, 1, 1, None).expect("argon2's least parameters"),
    );
    let salt = SaltString::encode_b64(b"pbem fuzz salt..").expect("a salt");
    argon
        .hash_password(password.as_bytes(), &salt)
        .expect("a hash")
        .to_string()
}

/// Gives every power of `config` a light hash: of its demo password, or of `fuzz`.
pub fn lighten(config: &mut GameConfig) {
    for p in &mut config.powers {
        let password = PASSWORDS
            .iter()
            .find(|(id, _)| *id == p.id)
            .map_or("fuzz", |(_, pw)| pw);
        p.password_hash = toml::Spanned::new(0..0, light_hash(password));
    }
}

/// Loads a game from the texts of its files, in memory, as `Game::load` and `Game::load_state` do
/// from a folder; `None` where a file is rejected (which is fine: rejecting is not crashing).
pub fn load(game: &str, map: &str, state: &str) -> Option<(Game, State)> {
    let config_src = Source::new("game.toml", game);
    let mut config: GameConfig = pbem::game::load::parse_toml(&config_src).ok()?;
    if config.validate().iter().any(|d| d.is_error()) {
        return None;
    }
    lighten(&mut config);
    let map_src = Source::new("map.toml", map);
    let map_file: MapFile = pbem::game::load::parse_toml(&map_src).ok()?;
    let powers: Vec<&str> = config.power_ids().collect();
    let map = Map::from_file(map_file, &powers).ok()?;
    let ruleset =
        pbem::rules::load(&config, &config_src, &Source::new("tables.toml", TABLES)).ok()?;
    let game = Game {
        dir: std::path::PathBuf::from("/nonexistent/pbem-fuzz"),
        config,
        map,
        ruleset,
    };
    let state = game.parse_state(&Source::new("state.toml", state)).ok()?;
    Some((game, state))
}

/// The demo game, loaded once per thread, with light passwords.
pub fn demo() -> &'static (Game, State) {
    thread_local! {
        static DEMO: &'static (Game, State) = Box::leak(Box::new(
            load(DEMO_GAME, DEMO_MAP, DEMO_STATE).expect("the demo loads"),
        ));
    }
    DEMO.with(|d| *d)
}
