//! Relations between powers (`[relations]` in state.toml): allied, neutral, hostile, with located
//! errors for bad entries, through the game folder and the binary.

use crate::support;

use std::fs;

use pbem::game::state::Relation;
use support::{game, pbem};

fn append_to_state(dir: &std::path::Path, text: &str) {
    let path = dir.join("turns/1/state.toml");
    let mut state = fs::read_to_string(&path).unwrap();
    state.push_str(text);
    fs::write(path, state).unwrap();
}

#[test]
fn relations_in_a_state_give_the_three_relations_and_keep_the_alliances() {
    let (_t, dir) = game();
    append_to_state(
        &dir,
        "\n[relations]\nneutral = [[\"france\", \"britain\"]]\nallied = [[\"france\", \"austria\"]]\n",
    );
    let state = support::load(&dir).load_state(1).unwrap();
    assert_eq!(state.relation("britain", "france"), Relation::Neutral);
    assert_eq!(state.relation("france", "austria"), Relation::Allied);
    assert!(state.friendly("austria", "france"));
    // The bundled alliance of Austria, Russia and Britain stands; France and Russia are enemies.
    assert_eq!(state.relation("russia", "britain"), Relation::Allied);
    assert_eq!(state.relation("france", "russia"), Relation::Hostile);
    assert!(!state.friendly("france", "britain"));
}

#[test]
fn a_bad_relation_is_a_located_error() {
    let (_t, dir) = game();
    let lines = fs::read_to_string(dir.join("turns/1/state.toml"))
        .unwrap()
        .lines()
        .count();
    append_to_state(&dir, "[relations]\nhostile = [[\"france\", \"prussia\"]]\n");
    let out = pbem().arg("resolve").arg(&dir).assert().code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("[relations] hostile names unknown power 'prussia'"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("state.toml:{}:23", lines + 2)),
        "{stderr}"
    );
}
