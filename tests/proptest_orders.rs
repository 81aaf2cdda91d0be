//! Properties of the EiA order language, on the demo game (Ulm 1805):
//!
//! - an order that parses prints (`Display`) as its canonical text, which parses back to the same
//!   order, whatever the case and spacing it was written with;
//! - no line, however odd, makes the parser panic;
//! - a whole orders file, however odd, is checked without a panic, every diagnostic points inside the
//!   file and renders, and every accepted order reads back as itself.

use proptest::prelude::*;

use pbem::diag::Source;
use pbem::game::state::State;
use pbem::game::Game;
use pbem::rules::eia::orders::{parse_line, Context, EiaOrder};
use pbem::rules::eia::state::EiaState;
use pbem::rules::eia::Eia;

/// The demo game, loaded once per test thread (a `Game` is not `Sync`), and its state at turn 1.
fn demo() -> &'static (Game, State) {
    thread_local! {
        static DEMO: &'static (Game, State) = {
            // Loading reads the folder; nothing reads it afterwards.
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("ulm-1805");
            pbem::bundled::write_scenario("ulm-1805", &dir).unwrap();
            let game = Game::load(&dir).unwrap();
            let state = game.load_state(1).unwrap();
            Box::leak(Box::new((game, state)))
        };
    }
    DEMO.with(|d| *d)
}

fn context() -> Context<'static> {
    let (game, state) = demo();
    let eia = game
        .ruleset
        .as_any()
        .downcast_ref::<Eia>()
        .expect("the demo is an EiA game");
    Context::new(&game.map, state, &eia.tables)
}

/// Parses one line of text as an order.
fn parse(text: &str) -> Option<EiaOrder> {
    let lines = pbem::orders::split(text);
    let line = lines.first()?;
    parse_line(line, &context()).ok()
}

/// The words orders are made of: verbs, the game's names, settings, and some that are none of these.
fn words() -> Vec<String> {
    let (game, state) = demo();
    let cx = context();
    let mut w: Vec<String> = [
        "move", "attack", "chit", "engage", "standing", "with", "react", "retreat",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    w.extend(game.map.ids().map(str::to_string));
    w.extend(EiaState::of(state).unit_ids().map(str::to_string));
    w.extend(cx.tables.chits.attack.iter().cloned());
    w.extend(cx.tables.chits.defence.iter().cloned());
    w.extend(
        pbem::rules::eia::standing::KEYS
            .iter()
            .map(|s| s.to_string()),
    );
    for s in [
        "always",
        "never",
        "when",
        "losing",
        "after",
        "round",
        "before",
        "winning",
        "outnumbered",
        "grant",
        "deny",
        "1",
        "2",
        "3",
        "0",
        "-1",
        "99999999999",
        "Ulm-",
        "é",
        "ß",
        "İ",
    ] {
        w.push(s.to_string());
    }
    w
}

/// A word in random case.
fn cased(word: String, upper: Vec<bool>) -> String {
    word.chars()
        .zip(upper.into_iter().cycle())
        .map(|(c, u)| {
            if u {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// The settings of the standing orders, as ORDERS.md lists them (and some that are not).
const SETTINGS: &[&str] = &[
    "always",
    "never",
    "before round 2",
    "before round 0",
    "when losing",
    "when losing after round 1",
    "when winning",
    "when outnumbered 3",
    "grant",
    "deny",
    "melee",
    "linear-attack",
    "linear-defence",
    "assault",
    "defend",
    "sometimes",
];

/// Picks one of `pool` in random case.
fn one_of(pool: Vec<String>) -> impl Strategy<Value = String> + Clone {
    let n = pool.len();
    (0..n, prop::collection::vec(any::<bool>(), 1..4))
        .prop_map(move |(i, up)| cased(pool[i].clone(), up))
}

/// The words of an order, by the grammar of each verb, with some noise.
fn order_words() -> impl Strategy<Value = Vec<String>> {
    let (game, state) = demo();
    let cx = context();
    let areas: Vec<String> = game.map.ids().map(str::to_string).collect();
    let units: Vec<String> = EiaState::of(state).unit_ids().map(str::to_string).collect();
    let mut chits = cx.tables.chits.attack.clone();
    chits.extend(cx.tables.chits.defence.iter().cloned());
    let keys: Vec<String> = pbem::rules::eia::standing::KEYS
        .iter()
        .map(|s| s.to_string())
        .collect();
    let area = one_of(areas.clone());
    let unit = one_of(units.clone());
    let setting = prop::sample::select(SETTINGS)
        .prop_map(|s| s.split(' ').map(str::to_string).collect::<Vec<_>>());
    prop_oneof![
        (unit.clone(), prop::collection::vec(area.clone(), 1..5)).prop_map(|(u, path)| {
            let mut w = vec!["move".to_string(), u];
            w.extend(path);
            w
        }),
        area.clone().prop_map(|a| vec!["attack".to_string(), a]),
        (
            area.clone(),
            one_of(chits),
            prop::collection::vec(unit, 0..3)
        )
            .prop_map(|(a, c, with)| {
                let mut w = vec!["chit".to_string(), a, c];
                if !with.is_empty() {
                    w.push("with".into());
                    w.extend(with);
                }
                w
            }),
        (one_of(keys), prop::option::of(area), setting).prop_map(|(k, scope, s)| {
            let mut w = vec!["standing".to_string(), k];
            w.extend(scope);
            w.extend(s);
            w
        }),
        prop::collection::vec(one_of(words()), 1..7),
    ]
}

/// An order line: the words of an order in random case, with random spacing and maybe a comment.
fn order_line() -> impl Strategy<Value = String> {
    let gap = prop::sample::select(vec![" ", "  ", "\t", " \t ", "\u{00a0}", "\u{200b}"]);
    (
        order_words(),
        prop::collection::vec(any::<bool>(), 1..3),
        prop::collection::vec(gap, 8),
        prop::option::of("[ a-z#]{0,8}"),
    )
        .prop_map(|(words, up, gaps, comment)| {
            let mut line = String::new();
            for (k, w) in words.into_iter().enumerate() {
                if k == 0 {
                    line.push_str(&cased(w, up.clone()));
                } else {
                    line.push_str(gaps[k % gaps.len()]);
                    line.push_str(&w);
                }
            }
            if let Some(c) = comment {
                line.push_str(" #");
                line.push_str(&c);
            }
            line
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn an_order_that_parses_prints_as_canonical_text_that_parses_back_to_it(line in order_line()) {
        if let Some(order) = parse(&line) {
            let text = order.to_string();
            let again = parse(&text);
            prop_assert_eq!(again.as_ref(), Some(&order), "{:?} printed as {:?}", line, text);
            prop_assert_eq!(again.unwrap().to_string(), text);
        }
    }

    #[test]
    fn no_line_makes_the_parser_panic(line in "\\PC{0,80}") {
        if let Some(order) = parse(&line) {
            prop_assert_eq!(parse(&order.to_string()), Some(order));
        }
    }
}

/// A whole file: a valid header for France and some order lines, some of them odd.
fn orders_file() -> impl Strategy<Value = String> {
    let odd = "\\PC{0,40}";
    prop::collection::vec(prop_oneof![3 => order_line(), 1 => odd], 0..12).prop_map(|lines| {
        let mut text = String::from("game ulm-1805\npower france\npassword eagle-1805\nturn 1\n");
        for l in lines {
            text.push_str(&l);
            text.push('\n');
        }
        text
    })
}

proptest! {
    // Each file is authenticated with argon2: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_file_is_checked_without_panic_and_every_accepted_order_reads_back(text in orders_file()) {
        let (game, state) = demo();
        let source = Source::new("france.txt", text.clone());
        let checked = game.ruleset.check_orders(game, state, &source);
        prop_assert_eq!(checked.power.as_deref(), Some("france"));
        for d in &checked.diagnostics {
            prop_assert!(d.span.start <= d.span.end && d.span.end <= text.len(), "{:?}", d.span);
        }
        let rendered = source.render(&checked.diagnostics);
        prop_assert!(checked.diagnostics.is_empty() || !rendered.is_empty());
        for (_, order) in &checked.accepted {
            let again = parse(order).map(|o| o.to_string());
            prop_assert_eq!(again.as_deref(), Some(order.as_str()));
        }
    }
}

#[test]
fn the_generated_lines_are_orders_often_enough_for_the_round_trip_to_mean_something() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = order_line();
    let mut verbs = std::collections::BTreeMap::new();
    for _ in 0..3000 {
        let line = strategy.new_tree(&mut runner).unwrap().current();
        if let Some(o) = parse(&line) {
            let verb = o.to_string().split(' ').next().unwrap().to_string();
            *verbs.entry(verb).or_insert(0) += 1;
        }
    }
    let parsed: usize = verbs.values().sum();
    assert!(
        parsed >= 750,
        "only {parsed} of 3000 lines parse (a quarter should): {verbs:?}"
    );
    assert!(verbs.len() >= 3, "orders of too few kinds parse: {verbs:?}");
}

/// The inputs the fuzzers found that crashed pbem (`fuzz/regressions/orders/`), replayed as the
/// `orders` fuzz target runs them: decoded, checked for France, their diagnostics rendered.
#[test]
fn the_orders_that_crashed_the_fuzzer_are_read_and_rendered() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/orders");
    let (game, state) = demo();
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        match pbem::orders::decode(&bytes) {
            Err(d) => {
                let shown = Source::new("orders.txt", pbem::orders::printable(&bytes));
                assert!(!shown.render(&[d]).is_empty());
            }
            Ok(text) => {
                let source = Source::new("orders.txt", text);
                let checked = game.ruleset.check_orders(game, state, &source);
                let _ = source.render(&checked.diagnostics);
            }
        }
        n += 1;
    }
    assert!(n > 0, "no regression inputs in {}", dir.display());
}
