//! Symmetric state (issue 16): `state.toml` holds the engine's shared keys and one table named after
//! the game's ruleset (`[eia]`, `[pog]`); pieces outside it, or another ruleset's table, are errors
//! located at their key, through the game folder and the binary.

use crate::support;

use std::fs;
use std::path::Path;

use support::{game, pbem, pog_game};

/// The stderr of `pbem resolve` on a game whose turn-1 state is refused.
fn refused(dir: &Path) -> String {
    let out = pbem().arg("resolve").arg(dir).assert().code(1);
    String::from_utf8_lossy(&out.get_output().stderr).into_owned()
}

/// The 1-based line of the first line of `text` that starts with `start`.
fn line_of(text: &str, start: &str) -> usize {
    text.lines().position(|l| l.starts_with(start)).unwrap() + 1
}

#[test]
fn the_bundled_games_keep_their_pieces_in_their_ruleset_s_table() {
    for (scenario, table) in [("ulm-1805", "eia"), ("pog-1914", "pog")] {
        let text = fs::read_to_string(format!("games/{scenario}/turns/1/state.toml")).unwrap();
        let headers: Vec<&str> = text.lines().filter(|l| l.starts_with('[')).collect();
        let shared = [
            "[control]",
            "[standing",
            "[relations",
            "[controlled",
            "[owners",
        ];
        for h in &headers {
            let name = h.trim_start_matches('[');
            assert!(
                name.starts_with(&format!("{table}."))
                    || name.starts_with(&format!("{table}]"))
                    || shared.iter().any(|s| h.starts_with(s)),
                "{scenario}: {h} is neither a shared key nor in [{table}]"
            );
        }
        assert!(headers.iter().any(|h| h.contains(&format!("{table}."))));
    }
}

#[test]
fn a_resolved_eia_turn_writes_its_pieces_under_eia() {
    let (_t, dir) = support::demo();
    let next = fs::read_to_string(dir.join("turns/2/state.toml")).unwrap();
    assert!(next.contains("\n[[eia.corps]]\n"), "{next}");
    assert!(next.contains("\n[[eia.leader]]\n"), "{next}");
    assert!(next.contains("\n[[eia.fleet]]\n"), "{next}");
    assert!(!next.contains("\n[[corps]]"), "{next}");
    // The state written reads back as the same state.
    let game = support::load(&dir);
    let state = game.load_state(2).unwrap();
    assert_eq!(
        pbem::game::load::to_toml(&state).unwrap(),
        next,
        "a written state reads back to the same bytes"
    );
}

#[test]
fn eia_pieces_outside_the_eia_table_are_a_located_error() {
    let (_t, dir) = game();
    let path = dir.join("turns/1/state.toml");
    let text = fs::read_to_string(&path).unwrap();
    let moved = text.replacen("[[eia.corps]]", "[[corps]]", 1);
    fs::write(&path, &moved).unwrap();
    let stderr = refused(&dir);
    assert!(stderr.contains("unknown field `corps`"), "{stderr}");
    assert!(
        stderr.contains("this game's pieces are in [eia]"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("state.toml:{}:3", line_of(&moved, "[[corps]]"))),
        "{stderr}"
    );
    assert!(
        stderr.contains("help:") || stderr.contains("hint"),
        "{stderr}"
    );
}

#[test]
fn another_ruleset_s_table_in_an_eia_state_is_a_located_error() {
    let (_t, dir) = game();
    let path = dir.join("turns/1/state.toml");
    let mut text = fs::read_to_string(&path).unwrap();
    text.push_str("\n[pog]\nactive = \"france\"\ngame_turn = 1\n");
    fs::write(&path, &text).unwrap();
    let stderr = refused(&dir);
    assert!(stderr.contains("unknown field `pog`"), "{stderr}");
    assert!(
        stderr.contains(&format!("state.toml:{}:2", line_of(&text, "[pog]"))),
        "{stderr}"
    );
}

#[test]
fn a_bad_piece_in_the_eia_table_is_located_in_it() {
    let (_t, dir) = game();
    let path = dir.join("turns/1/state.toml");
    let text = fs::read_to_string(&path).unwrap();
    let bad = text.replacen("kind = \"infantry\"", "kind = \"dragoons\"", 1);
    fs::write(&path, &bad).unwrap();
    let stderr = refused(&dir);
    assert!(stderr.contains("unknown variant `dragoons`"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "state.toml:{}:",
            line_of(&bad, "kind = \"dragoons\"")
        )),
        "{stderr}"
    );
}

#[test]
fn a_pog_state_without_its_table_is_refused_and_eia_pieces_in_it_are_located() {
    let (_t, dir) = pog_game();
    let path = dir.join("turns/1/state.toml");
    let text = fs::read_to_string(&path).unwrap();
    let cut = text.find("[pog]").unwrap();
    fs::write(&path, &text[..cut]).unwrap();
    let stderr = refused(&dir);
    assert!(stderr.contains("missing table [pog]"), "{stderr}");

    let with_corps = format!(
        "{}[[eia.corps]]\nid = \"X\"\npower = \"central\"\n{}",
        &text[..cut],
        &text[cut..]
    );
    fs::write(&path, &with_corps).unwrap();
    let stderr = refused(&dir);
    assert!(stderr.contains("unknown field `eia`"), "{stderr}");
    assert!(
        stderr.contains("this game's pieces are in [pog]"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "state.toml:{}:",
            line_of(&with_corps, "[[eia.corps]]")
        )),
        "{stderr}"
    );
}
