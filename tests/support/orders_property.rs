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

/// The header lines (game, power, player, password, turn, entropy) of each sample orders file of
/// turn 1 of the bundled scenario `id`, by the file's stem (`france.eugene`): what an orders file
/// of that power (or player) starts with.
pub fn sample_headers(id: &str) -> Vec<(String, String)> {
    sample_order_files(id)
        .into_iter()
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&p).unwrap();
            let header: String = text
                .lines()
                .filter(|l| {
                    let word = l.split_whitespace().next().unwrap_or("");
                    ["game", "power", "player", "password", "turn", "entropy"].contains(&word)
                })
                .map(|l| format!("{l}\n"))
                .collect();
            (stem, header)
        })
        .collect()
}

/// Random orders for every power of any ruleset (issue 32): under each sample file's header, a
/// `move` of some of the power's units (canaries too) along a walk of random neighbours on the
/// map, the order every ruleset writes alike (`move <unit> <place> <place> ...`). `picks` choose
/// which units move and where: walks into enemies bring battles about; a line a ruleset refuses
/// is only a rejected order.
pub fn random_walks(
    game: &Game,
    state: &State,
    headers: &[(String, String)],
    picks: &[u16],
) -> Vec<PowerOrders> {
    let mut at = 0usize;
    let mut pick = |n: usize| {
        let p = picks.get(at % picks.len().max(1)).copied().unwrap_or(0) as usize;
        at += 1;
        p % n.max(1)
    };
    let units = game.ruleset.units(state);
    let mut files = Vec::new();
    for (stem, header) in headers {
        let power = stem.split('.').next().unwrap_or(stem);
        let mut text = header.clone();
        for u in units.iter().filter(|u| u.owner == power) {
            if pick(3) == 0 {
                continue;
            }
            let Some(mut here) = game.map.find(&u.area) else {
                continue;
            };
            let mut walk = Vec::new();
            for _ in 0..1 + pick(3) {
                let next = &game.map.area(here).adjacent;
                if next.is_empty() {
                    break;
                }
                here = next[pick(next.len())];
                walk.push(game.map.area(here).id.clone());
            }
            text.push_str(&format!("move {} {}\n", u.id, walk.join(" ")));
        }
        files.push(PowerOrders {
            power: power.to_string(),
            source: Source::new(format!("orders/1/{stem}.txt"), text),
        });
    }
    files
}

/// The files of the bundled sample orders of turn 1 of scenario `id` (`orders/<id>/1/*.txt`), in
/// name order.
pub fn sample_order_files(id: &str) -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("orders")
        .join(id)
        .join("1");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default();
    files.sort();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files
}
