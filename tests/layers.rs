//! The layers of the crate (ARCHITECTURE.md, "Layers"): a module imports only modules of its own
//! layer or below, and the imports make no circle. This test reads every `crate::`, `super::` and
//! `self::` path of `src/**/*.rs` (test code left out: a test may use a fixture of any layer), and
//! fails on an import of a layer above, or a circle, that is not one of the known exceptions below,
//! each listed with why it still stands.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The layers, lowest first, and the modules of each; the longest prefix of a module's path decides
/// its layer. Keep in step with ARCHITECTURE.md.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "model",
        &[
            // pbem-dice/v1, with v2, the labels' grammar and the beacon in its folder.
            "dice",
            "diag",
            "rule",
            "clock",
            "out",
            "progress",
            "parallel",
            "memory",
            "auth",
            "decide",
            "game",
            "orders",
            // The scenarios built into the binary: data, written with game/fsio.
            "bundled",
            // verify.html, the players' offline check: data, written with game/fsio.
            "verify_page",
            // English words of names (possessives): used by every layer.
            "words",
            // The vocabulary a ruleset speaks, in the engine's folder but of the model's layer
            // (they import only the model): events, the binding of their texts to their dice,
            // labelled rolls, sight.
            "engine/event",
            "engine/binding",
            "engine/dice_box",
            "engine/visibility",
        ],
    ),
    ("rulesets", &["rules"]),
    ("engine", &["engine"]),
    ("outputs", &["report", "mail"]),
    // The acts that write a turn's files (resolve, close, deadline moves) and the audit that
    // re-resolves a turn to compare its bytes.
    ("referee", &["referee", "audit"]),
    ("commands", &["commands", "synth", "main", "lib"]),
];

/// Imports of a layer above that still stand: (importer, imported, why). A pattern is one module
/// (`game` is `src/game/mod.rs`) or, ending in `/**`, a folder's every module. Each is part of a
/// circle through the layers; remove its line when it goes, and the test keeps it gone.
const KNOWN_UPWARD: &[(&str, &str, &str)] = &[
    // None stands: the last ones, `engine` -> `mail`, `report`, went when the turn pipeline moved up
    // into the `referee` layer.
];

/// Circles inside one layer that still stand, each as the set of its modules.
const KNOWN_CIRCLES: &[(&[&str], &str)] = &[
    (
        &["mail/ack", "mail/ingest"],
        "ingest answers each message (ack::acknowledgement); the answer reads ingest's Received records and statuses",
    ),
    (
        &["mail/mbox", "mail/parse"],
        "the mbox reader reads a postmark with the parser, which re-exports the mbox reader",
    ),
    (
        &["mail/outbox", "mail/outbox_store"],
        "the store reads a report's mail kept in parts (outbox::assemble, with the message's encoders); every writer of the outbox notes the order of its messages in the store (outbox_store::note)",
    ),
    (
        &["report/map", "report/view"],
        "the view holds the map's MapView; the map draws the view's unit lines",
    ),
    (
        &["game/map/grid", "game/map/sub_grid"],
        "a grid loads its sub-grid, which steps with the grid's Square and STEPS",
    ),
    (
        &["audit/forms", "audit/verify"],
        "the forms read headers and rolls with verify's parsers; verify checks the forms",
    ),
    (
        &[
            "rules/eia/battle",
            "rules/eia/decisions",
            "rules/eia/movement",
            "rules/eia/naval",
            "rules/eia/orders",
            "rules/eia/phase",
            "rules/eia/siege",
            "rules/eia/standing",
        ],
        "EiA's orders parse standing orders whose grammar reads the orders' Context, and the land phase, its battles, sieges and moves call one another (garrisons, EiA 7.5.2.11)",
    ),
    (
        &["rules/pog/decisions", "rules/pog/orders"],
        "PoG's orders parse standing orders through decisions.rs, which reads orders' Context and ORDER_SYNTAX",
    ),
];

/// Every module of `src/` by its path (`game/state`), with its text, test code cut off.
fn modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, out: &mut BTreeMap<String, String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix("src").unwrap().with_extension("");
                let mut name = rel.to_string_lossy().replace('\\', "/");
                if let Some(dir) = name.strip_suffix("/mod") {
                    name = dir.to_string();
                }
                let stem = name.rsplit('/').next().unwrap();
                if stem == "rule_tests" || stem == "test_fixture" {
                    continue; // test-only modules (#[cfg(test)])
                }
                out.insert(name, code_of(&fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(Path::new("src"), &mut out);
    out
}

/// The code of a file: comments gone, and the test module at its end cut off.
fn code_of(text: &str) -> String {
    let text = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |i| &text[..i]);
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths a `use` tree or a path expression at the start of `s` names, each as its segments, with
/// brace groups expanded (`a::{b, c::{d}}` is `a::b` and `a::c::d`).
fn paths_at(s: &str) -> Vec<Vec<String>> {
    fn tree(s: &[char], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let mut path = prefix;
        loop {
            while *i < s.len() && s[*i].is_whitespace() {
                *i += 1;
            }
            if *i < s.len() && s[*i] == '{' {
                *i += 1;
                loop {
                    tree(s, i, path.clone(), out);
                    while *i < s.len() && s[*i].is_whitespace() {
                        *i += 1;
                    }
                    match s.get(*i) {
                        Some(',') => *i += 1,
                        Some('}') => {
                            *i += 1;
                            return;
                        }
                        _ => return,
                    }
                    while *i < s.len() && s[*i].is_whitespace() {
                        *i += 1;
                    }
                    if s.get(*i) == Some(&'}') {
                        *i += 1;
                        return;
                    }
                }
            }
            let start = *i;
            while *i < s.len() && is_ident(s[*i]) {
                *i += 1;
            }
            if *i > start {
                path.push(s[start..*i].iter().collect());
            }
            if s.get(*i) == Some(&':') && s.get(*i + 1) == Some(&':') {
                *i += 2;
                continue;
            }
            out.push(path);
            return;
        }
    }
    let chars: Vec<char> = s.chars().take(4000).collect();
    let mut out = Vec::new();
    tree(&chars, &mut 0, Vec::new(), &mut out);
    out
}

/// The modules `name` imports: every `crate::`, `super::` and `self::` path, resolved to the
/// longest module it names.
fn imports(name: &str, code: &str, all: &BTreeMap<String, String>) -> BTreeSet<String> {
    let here: Vec<&str> = name.split('/').collect();
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("::") {
        let before = &code[..at];
        let word_start = before.rfind(|c: char| !is_ident(c)).map_or(0, |i| i + 1);
        let word = &before[word_start..];
        let prev = before[..word_start].chars().last();
        if !matches!(word, "crate" | "super" | "self")
            || prev.is_some_and(|c| c == ':' || c == '$' || is_ident(c))
        {
            continue;
        }
        for path in paths_at(&code[word_start..]) {
            let mut segs = path.into_iter().peekable();
            let mut base: Vec<String> = match segs.next().as_deref() {
                Some("crate") => Vec::new(),
                Some("self") => here.iter().map(|s| s.to_string()).collect(),
                Some("super") => here[..here.len().saturating_sub(1)]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                _ => continue,
            };
            while segs.peek().is_some_and(|s| s == "super") {
                segs.next();
                base.pop();
            }
            base.extend(segs);
            while !base.is_empty() && !all.contains_key(&base.join("/")) {
                base.pop();
            }
            let target = base.join("/");
            if !target.is_empty() && target != name {
                out.insert(target);
            }
        }
    }
    out
}

/// The layer of a module: the longest prefix of its path in [`LAYERS`].
fn layer(module: &str) -> usize {
    LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, prefixes))| prefixes.iter().map(move |p| (i, *p)))
        .filter(|(_, p)| under(module, p))
        .max_by_key(|(_, p)| p.len())
        .map(|(i, _)| i)
        .unwrap_or_else(|| {
            panic!("src/{module}.rs is in no layer: add it to LAYERS and ARCHITECTURE.md")
        })
}

/// Whether `module` is `prefix` or under it.
fn under(module: &str, prefix: &str) -> bool {
    module == prefix || module.starts_with(&format!("{prefix}/"))
}

/// Whether `module` matches a pattern of [`KNOWN_UPWARD`]: the module itself, or one under a folder
/// pattern (`rules/**`).
fn matches(module: &str, pattern: &str) -> bool {
    match pattern.strip_suffix("/**") {
        Some(folder) => under(module, folder),
        None => module == pattern,
    }
}

fn known_upward(from: &str, to: &str) -> bool {
    KNOWN_UPWARD
        .iter()
        .any(|(f, t, _)| matches(from, f) && matches(to, t))
}

/// The import graph of the crate.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let all = modules();
    all.iter()
        .map(|(name, code)| (name.clone(), imports(name, code, &all)))
        .collect()
}

#[test]
fn no_module_imports_a_layer_above_its_own() {
    let graph = graph();
    let mut wrong = Vec::new();
    for (from, tos) in &graph {
        for to in tos {
            if layer(to) > layer(from) && !known_upward(from, to) {
                wrong.push(format!(
                    "{from} ({}) imports {to} ({})",
                    LAYERS[layer(from)].0,
                    LAYERS[layer(to)].0
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports of a layer above (ARCHITECTURE.md, Layers):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_known_upward_import_still_stands() {
    let graph = graph();
    for (f, t, why) in KNOWN_UPWARD {
        assert!(
            graph
                .iter()
                .any(|(from, tos)| matches(from, f) && tos.iter().any(|to| matches(to, t))),
            "{f} no longer imports {t} ({why}): remove it from KNOWN_UPWARD and ARCHITECTURE.md"
        );
    }
}

/// The circles of the graph with the known upward imports taken out: each a set of modules that
/// import one another (Tarjan's strongly connected components of two or more modules).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct Tarjan<'a> {
        graph: BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph[v].clone() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = BTreeSet::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    comp.insert(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph: graph
            .iter()
            .map(|(f, tos)| {
                let kept = tos
                    .iter()
                    .filter(|to| !known_upward(f, to))
                    .map(String::as_str)
                    .collect();
                (f.as_str(), kept)
            })
            .collect(),
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

#[test]
fn no_new_circle_of_imports() {
    let found = circles(&graph());
    let known: Vec<BTreeSet<String>> = KNOWN_CIRCLES
        .iter()
        .map(|(m, _)| m.iter().map(|s| s.to_string()).collect())
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|c| !known.contains(c))
        .map(|c| c.iter().cloned().collect::<Vec<_>>().join(" <-> "))
        .collect();
    assert!(new.is_empty(), "circles of imports:\n{}", new.join("\n"));
    for (k, (m, why)) in known.iter().zip(KNOWN_CIRCLES) {
        assert!(
            found.contains(k),
            "the circle {m:?} ({why}) is gone: remove it from KNOWN_CIRCLES and ARCHITECTURE.md"
        );
    }
}

/// The reader itself: brace groups, `super`, `self`, and what is not an import.
#[test]
fn the_reader_resolves_use_trees_and_relative_paths() {
    let all: BTreeMap<String, String> =
        ["game", "game/state", "game/map", "orders/lexer", "orders"]
            .iter()
            .map(|m| (m.to_string(), String::new()))
            .collect();
    let code = "use crate::game::{state::State, map::{Map, MapFile}};\nuse super::lexer::Line;\nlet x = $crate::nothing::here;\nfn f() { crate::game::Game::load() }";
    let got = imports("orders/header", code, &all);
    let want: BTreeSet<String> = ["game", "game/map", "game/state", "orders/lexer"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(got, want);
    assert_eq!(layer("engine/event"), 0);
    assert_eq!(layer("engine/dice_box"), 0);
    assert_eq!(layer("engine/turn"), 2);
    assert_eq!(layer("rules/eia/state"), 1);
}

/// A new import of a layer above is caught (the check can fail).
#[test]
fn an_import_of_a_layer_above_is_caught() {
    let all: BTreeMap<String, String> = ["game/state", "report", "engine/turn"]
        .iter()
        .map(|m| (m.to_string(), String::new()))
        .collect();
    let got = imports("game/state", "use crate::report::view;", &all);
    assert!(got.contains("report"));
    assert!(layer("report") > layer("game/state") && !known_upward("game/state", "report"));
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.insert("a".into(), ["b".to_string()].into());
    g.insert("b".into(), ["a".to_string()].into());
    assert_eq!(circles(&g).len(), 1);
}
