//! Properties of the game folder loader (`game.toml`, `map.toml`, `state.toml`), in memory:
//!
//! - a file damaged anywhere (a character inserted, a line cut, white space or control characters in
//!   front) is accepted or refused with a located error that renders, never a panic;
//! - a rendered diagnostic holds no control character but the line break, whatever the file held,
//!   so that a file cannot drive the referee's terminal;
//! - the inputs the `game_folder` fuzzer found crashing (`fuzz/regressions/game_folder/`) load or are
//!   refused without a panic.

use proptest::prelude::*;

use pbem::diag::Source;
use pbem::game::config::GameConfig;
use pbem::game::load::parse_toml;
use pbem::game::map::{Map, MapFile};
use pbem::rules::eia::state::EiaState;

const GAME: &str = include_str!("../games/ulm-1805/game.toml");
const MAP: &str = include_str!("../games/ulm-1805/map.toml");
const STATE: &str = include_str!("../games/ulm-1805/turns/1/state.toml");

/// Loads the three files as `Game::load` and `Game::load_state` do, but in memory; the rendered
/// errors (none when everything loads).
fn load(game: &str, map: &str, state: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let config_src = Source::new("game.toml", game);
    let config = match parse_toml::<GameConfig>(&config_src) {
        Ok(c) => c,
        Err(e) => return vec![e.to_string()],
    };
    errors.push(config_src.render(&config.validate()));
    let map_src = Source::new("map.toml", map);
    let map = match parse_toml::<MapFile>(&map_src) {
        Ok(m) => {
            let powers: Vec<&str> = config.power_ids().collect();
            match Map::from_file(m, &powers) {
                Ok(m) => Some(m),
                Err(d) => {
                    errors.push(map_src.render(&d));
                    None
                }
            }
        }
        Err(e) => {
            errors.push(e.to_string());
            None
        }
    };
    let state_src = Source::new("state.toml", state);
    match pbem::game::state::parse::<EiaState>(&state_src) {
        Ok(s) => {
            if let Some(map) = &map {
                let mut d = pbem::game::state::check_shared(&s, &config, map);
                d.extend(pbem::rules::eia::pieces::check_pieces(&s, &config, map));
                errors.push(state_src.render(&d));
            }
        }
        Err(e) => errors.push(e.to_string()),
    }
    errors.retain(|e| !e.is_empty());
    errors
}

/// A file with `insert` put in at a char boundary near `at` (a fraction of its length).
fn damaged(text: &str, at: f64, insert: &str) -> String {
    let mut i = ((text.len() as f64) * at) as usize;
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    format!("{}{insert}{}", &text[..i], &text[i..])
}

/// What gets inserted: printable text, white space of every kind, control characters.
fn insert() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,12}",
        "[\t\u{b}\u{c}\r \u{85}\u{a0}\u{2003}\u{2028}\u{3000}]{1,40}[a-z=\\[\"]{0,4}",
        "[\u{0}-\u{1f}\u{7f}]{1,8}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn a_damaged_file_is_refused_with_a_located_error_never_a_panic(
        which in 0..3usize,
        at in 0.0..1.0f64,
        insert in insert(),
    ) {
        let mut files = [GAME.to_string(), MAP.to_string(), STATE.to_string()];
        files[which] = damaged(&files[which], at, &insert);
        for e in load(&files[0], &files[1], &files[2]) {
            prop_assert!(!e.is_empty());
        }
    }
}

#[test]
fn the_inputs_that_crashed_the_game_folder_fuzzer_load_or_are_refused() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/game_folder");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let mut parts = text.splitn(4, "\n%%%%\n");
        let (g, m, s) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
        );
        let _ = load(g, m, s);
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn a_rendered_diagnostic_holds_no_control_character() {
    let game = GAME.replacen("title = ", "title = \u{1b}[2J\u{7}", 1);
    let errors = load(&format!("x\u{1b}[31m = 1\n{game}"), MAP, STATE);
    assert!(!errors.is_empty());
    for e in errors {
        assert!(
            !e.chars().any(|c| c.is_control() && c != '\n'),
            "a control character in {e:?}"
        );
    }
}
