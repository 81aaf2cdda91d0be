//! The integration tests: one test binary (as `just` has it, STYLE.md), a module per feature, each
//! running the real `pbem` binary or the library's public API. One binary links once instead of once per
//! file, and its tests run in one pool of threads. `cargo test --test integration <module>::` runs
//! one feature's tests; `every_test_file_is_a_module` keeps a new file from going unrun.

mod support;

mod audit;
mod cli;
mod closed_output;
mod conventions;
mod crash;
mod determinism;
mod dice_labels_schema;
mod dice_statistics;
mod dice_v2;
mod documents;
mod eia_demo;
mod eia_seas;
mod entropy_text;
mod game_end;
mod game_life;
mod gitm_demo;
mod gitm_tactical;
mod hostile_corpus;
mod hostile_input;
mod layers;
mod mail_clients;
mod mail_corpus;
mod mail_hostile;
mod mail_imap;
mod mail_ingest;
mod mail_lines;
mod mail_robustness;
mod mail_security;
mod mail_size;
mod mail_smtp;
mod mail_smtp_tls;
mod mail_store;
mod mail_wrapped;
mod map_in_browser;
mod map_kinds;
mod map_phone;
mod ngg_demo;
mod orders_md;
mod player_check;
mod players;
mod players_under_a_power;
mod pog_demo;
mod proptest_dice;
mod proptest_game_folder;
mod proptest_game_life;
mod proptest_gitm_orders;
mod proptest_gitm_tactical;
mod proptest_labels;
mod proptest_ngg_orders;
mod proptest_orders;
mod proptest_pog_orders;
mod proptest_wbts_orders;
mod referee_acts;
mod relations;
mod report_forecast;
mod report_formats;
mod report_scale;
mod report_visibility;
mod rules_fixed;
mod ruleset_options;
mod rulesets;
mod sealed_rolls;
mod season;
mod sight_decisions;
mod sight_fog;
mod sight_orders;
mod state_tables;
mod three_turns;
mod verify_mail;
mod verify_page;
mod verify_page_orders;
mod verify_tamper;
mod wbts_demo;
mod welcome;
mod words;

/// A file in `tests/` that is not a module of this binary would never run (`autotests = false`).
#[test]
fn every_test_file_is_a_module() {
    let lib = include_str!("lib.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_some_and(|e| e == "rs") && stem != "lib" {
            assert!(
                lib.contains(&format!("\nmod {stem};\n")),
                "tests/{stem}.rs is not a module of tests/lib.rs: add `mod {stem};` or it never runs"
            );
        }
    }
}
