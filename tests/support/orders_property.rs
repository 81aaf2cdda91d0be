//! One harness for the order parsers' property tests (issue 40.2): a bundled scenario loaded once per
//! thread, and the property every ruleset's order language holds. A ruleset's own file
//! (`tests/proptest_<id>_orders.rs`) gives only its words, its good lines and its sides.

use std::collections::BTreeMap;

use proptest::prelude::*;

use pbem::diag::Source;
use pbem::engine::dice_box::DiceBox;
use pbem::game::state::State;
use pbem::game::Game;
use pbem::rules::{PowerOrders, Resolution};

/// The bundled scenario `id` at turn 1, loaded once per thread and kept for the run.
pub fn scenario(id: &'static str) -> &'static (Game, State) {
    thread_local! {
        static LOADED: std::cell::RefCell<BTreeMap<&'static str, &'static (Game, State)>> =
            const { std::cell::RefCell::new(BTreeMap::new()) };
    }
    LOADED.with(|loaded| {
        *loaded.borrow_mut().entry(id).or_insert_with(|| {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join(id);
            pbem::bundled::write_scenario(id, &dir).unwrap();
            let game = Game::load(&dir).unwrap();
            let state = game.load_state(1).unwrap();
            Box::leak(Box::new((game, state)))
        })
    })
}

/// One side's orders file in a property: its power, its header (game, power, password, turn) and
/// the lines drawn for it.
pub struct Side<'a> {
    pub power: &'a str,
    /// The file's name in its diagnostics, `orders/1/<name>.txt`.
    pub file: &'a str,
    pub header: &'a str,
    pub lines: &'a [String],
}

/// The property of every order language: each side's file is checked without a panic, every
/// diagnostic renders, and every accepted order prints as text that is accepted again as itself.
/// Returns the files, ready to resolve.
pub fn checks_and_prints_back(
    game: &Game,
    state: &State,
    sides: &[Side],
) -> Result<Vec<PowerOrders>, TestCaseError> {
    let mut files = Vec::new();
    for side in sides {
        let text = format!("{}{}\n", side.header, side.lines.join("\n"));
        let src = Source::new(
            format!("{}/orders/1/{}.txt", game.config.game, side.file),
            text,
        );
        let checked = game.ruleset.check_orders(game, state, &src);
        let _ = src.render(&checked.diagnostics);
        let printed: Vec<String> = checked.accepted.iter().map(|(_, o)| o.clone()).collect();
        let again = Source::new(
            "again.txt",
            format!("{}{}\n", side.header, printed.join("\n")),
        );
        let rechecked = game.ruleset.check_orders(game, state, &again);
        let reprinted: Vec<String> = rechecked.accepted.iter().map(|(_, o)| o.clone()).collect();
        prop_assert_eq!(&printed, &reprinted, "{:?}", rechecked.diagnostics);
        files.push(PowerOrders {
            power: side.power.into(),
            source: src,
        });
    }
    Ok(files)
}

/// Resolves the files with the dice of `seed` (and a sealing secret): no panic, no error, and a next
/// state the game's own checks accept.
pub fn resolves(
    game: &Game,
    state: &State,
    files: &[PowerOrders],
    seed: [u8; 32],
) -> Result<Resolution, TestCaseError> {
    let mut dice = DiceBox::new(seed).with_seal(Some([3; 32]));
    let resolved = game.ruleset.resolve(game, state, files, &mut dice);
    prop_assert!(resolved.is_ok(), "{:?}", resolved.err());
    let resolved = resolved.unwrap();
    let problems = game.check_state(&resolved.next);
    prop_assert!(problems.is_empty(), "{problems:?}");
    // Every roll holds to its ruleset's grammar of labels and is shown to a power or sealed (issue 31).
    let held = super::labels_hold(game, state, &resolved.events);
    prop_assert!(held.is_ok(), "{}", held.unwrap_err());
    let shown = super::rolls_shown_or_sealed(&resolved.events);
    prop_assert!(shown.is_ok(), "{}", shown.unwrap_err());
    Ok(resolved)
}
