//! Fog of war, as a property: for random small EiA games and random orders, no report of a power (text,
//! HTML, JSON or SVG) names a unit, places a unit, or lists a roll label that the power's visibility
//! sets do not allow.
//!
//! A power may know a unit when it owns it (or an ally that shares sight with it does), when the unit
//! ends the turn where the engine's visibility service says the power sees, or when an event the power
//! may see (`visible_to`) names it. It may place a foreign unit on its map or in its lists only where it
//! sees at the end of the turn. It may see a roll only in an event it may see.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use pbem::diag::Source;
use pbem::engine::dice_box::DiceBox;
use pbem::engine::event::Event;
use pbem::engine::visibility::Visibility;
use pbem::game::config::GameConfig;
use pbem::game::map::{Map, MapFile};
use pbem::game::state::State;
use pbem::game::Game;
use pbem::report::{self, DiceHeader, ReportInput};
use pbem::rules::eia::state::EiaState;
use pbem::rules::PowerOrders;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

const POWERS: [&str; 4] = ["blue", "red", "pink", "grey"];
const LAND: [&str; 8] = [
    "West", "Depot", "Mid", "Field", "Side", "East", "Far", "Hill",
];

/// A small map: a line of land areas with a loop, a hill and a lake.
///
/// ```text
/// West --- Depot --- Mid --- Field --- East --- Far
///                     \______Side______/   \        \
///                                          Hill --- Lake (sea)
/// ```
const MAP: &str = r#"
[[area]]
id = "West"
kind = "land"
xy = [0, 100]
adjacent = ["Depot"]
[[area]]
id = "Depot"
kind = "land"
xy = [100, 100]
adjacent = ["West", "Mid"]
depot = true
city = { garrison = 2, fortress = 1 }
[[area]]
id = "Mid"
kind = "land"
xy = [200, 100]
adjacent = ["Depot", "Field", "Side"]
[[area]]
id = "Field"
kind = "land"
xy = [300, 100]
adjacent = ["Mid", "East", "Side"]
[[area]]
id = "Side"
kind = "land"
xy = [300, 200]
adjacent = ["Mid", "Field", "East"]
[[area]]
id = "East"
kind = "land"
xy = [400, 100]
adjacent = ["Field", "Side", "Far", "Hill"]
depot = true
[[area]]
id = "Far"
kind = "land"
xy = [500, 100]
adjacent = ["East", "Lake"]
port = true
[[area]]
id = "Hill"
kind = "land"
terrain = "hills"
xy = [400, 200]
adjacent = ["East", "Lake"]
[[area]]
id = "Lake"
kind = "sea"
xy = [500, 200]
adjacent = ["Far", "Hill"]
"#;

/// One unit of a generated game.
#[derive(Debug, Clone)]
enum Unit {
    Corps {
        power: usize,
        kind: usize,
        factors: u32,
        morale: u32,
        area: usize,
    },
    Leader {
        power: usize,
        rating: u32,
        seniority: u32,
        area: usize,
    },
    Fleet {
        power: usize,
        ships: u32,
    },
}

/// One order line of a generated game, before it is written: most are legal, some are not.
#[derive(Debug, Clone)]
enum Order {
    Move { unit: usize, path: Vec<usize> },
    Attack(usize),
    Chit(usize, usize),
    Standing(usize, usize),
}

#[derive(Debug, Clone)]
struct Case {
    units: Vec<Unit>,
    alliance: usize,
    share: bool,
    control: Vec<Option<usize>>,
    orders: Vec<(usize, Order)>,
    seed: [u8; 32],
}

fn unit() -> impl Strategy<Value = Unit> {
    prop_oneof![
        6 => (0..4usize, 0..4usize, 1..14u32, 5..45u32, 0..8usize).prop_map(
            |(power, kind, factors, morale, area)| Unit::Corps { power, kind, factors, morale, area }
        ),
        2 => (0..4usize, 1..6u32, 1..4u32, 0..8usize).prop_map(|(power, rating, seniority, area)| {
            Unit::Leader { power, rating, seniority, area }
        }),
        1 => (0..4usize, 1..10u32).prop_map(|(power, ships)| Unit::Fleet { power, ships }),
    ]
}

fn order(units: usize) -> impl Strategy<Value = Order> {
    let n = units.max(1);
    prop_oneof![
        5 => (0..n, proptest::collection::vec(0..4usize, 1..4))
            .prop_map(|(unit, path)| Order::Move { unit, path }),
        3 => (0..8usize).prop_map(Order::Attack),
        1 => (0..8usize, 0..4usize).prop_map(|(a, c)| Order::Chit(a, c)),
        1 => (0..4usize, 0..2usize).prop_map(|(k, v)| Order::Standing(k, v)),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    proptest::collection::vec(unit(), 2..12).prop_flat_map(|units| {
        let n = units.len();
        (
            Just(units),
            0..3usize,
            any::<bool>(),
            proptest::collection::vec(proptest::option::of(0..4usize), 8),
            proptest::collection::vec((0..4usize, order(n)), 0..14),
            any::<[u8; 32]>(),
        )
            .prop_map(|(units, alliance, share, control, orders, seed)| Case {
                units,
                alliance,
                share,
                control,
                orders,
                seed,
            })
    })
}

/// The id of unit `i`: its power's initial, its kind and its index ("B3", "RL5", "GF7").
fn unit_id(units: &[Unit], i: usize) -> String {
    let (p, k) = match &units[i] {
        Unit::Corps { power, .. } => (*power, ""),
        Unit::Leader { power, .. } => (*power, "L"),
        Unit::Fleet { power, .. } => (*power, "F"),
    };
    format!("{}{k}{i}", POWERS[p][..1].to_ascii_uppercase())
}

fn owner(u: &Unit) -> usize {
    match u {
        Unit::Corps { power, .. } | Unit::Leader { power, .. } | Unit::Fleet { power, .. } => {
            *power
        }
    }
}

const ALLIANCES: [&str; 3] = [
    "",
    "alliances = [[\"blue\", \"pink\"]]\n",
    "alliances = [[\"red\", \"pink\", \"grey\"]]\n",
];

/// The game of a case, in memory, with the demo's tables.
fn game(c: &Case) -> Game {
    let mut config = format!(
        "game = \"prop\"\ntitle = \"visibility property\"\nruleset = \"eia\"\nallies_share_sight = {}\n\
         [calendar]\nstart = \"1805-09\"\n[deadline]\ntime_zone = \"UTC\"\nfirst = \"2026-12-06T20:00\"\nevery_days = 7\n\
         [sop]\nattack-chit = \"assault\"\ndefence-chit = \"defend\"\n",
        c.share
    );
    for p in POWERS {
        config.push_str(&format!(
            "[[power]]\nid = \"{p}\"\nname = \"{}\"\nplayers = []\npassword_hash = \"x\"\n",
            p.to_uppercase()
        ));
    }
    let parsed: GameConfig = toml::from_str(&config).unwrap();
    let file: MapFile = toml::from_str(MAP).unwrap();
    let map = Map::from_file(file, &POWERS).unwrap();
    let ruleset = pbem::rules::load(
        &parsed,
        &Source::new("game.toml", config.clone()),
        &Source::new(
            "tables.toml",
            include_str!("../games/ulm-1805/tables.toml").to_string(),
        ),
    )
    .unwrap();
    Game {
        dir: PathBuf::from("no-such-folder-pbem-prop"),
        rules_dir: PathBuf::from("no-such-folder-pbem-prop"),
        config: parsed,
        map,
        geometry: None,
        ruleset,
        kept_state: Default::default(),
    }
}

fn state(c: &Case) -> State {
    let mut s = format!("game = \"prop\"\nturn = 1\n{}", ALLIANCES[c.alliance]);
    s.push_str("[control]\n");
    for (a, p) in LAND.iter().zip(&c.control) {
        if let Some(p) = p {
            s.push_str(&format!("{a} = \"{}\"\n", POWERS[*p]));
        }
    }
    let kinds = ["infantry", "cavalry", "guard", "cossack"];
    for (i, u) in c.units.iter().enumerate() {
        let id = unit_id(&c.units, i);
        match u {
            Unit::Corps {
                power,
                kind,
                factors,
                morale,
                area,
            } => s.push_str(&format!(
                "[[eia.corps]]\nid = \"{id}\"\npower = \"{}\"\nkind = \"{}\"\nfactors = {factors}\nmorale = {}.{}\nmovement = 3\narea = \"{}\"\n",
                POWERS[*power], kinds[*kind], morale / 10, morale % 10, LAND[*area]
            )),
            Unit::Leader {
                power,
                rating,
                seniority,
                area,
            } => s.push_str(&format!(
                "[[eia.leader]]\nid = \"{id}\"\npower = \"{}\"\nrating = {rating}\nseniority = {seniority}\nmovement = 4\narea = \"{}\"\n",
                POWERS[*power], LAND[*area]
            )),
            Unit::Fleet { power, ships } => s.push_str(&format!(
                "[[eia.fleet]]\nid = \"{id}\"\npower = \"{}\"\nships = {ships}\narea = \"Lake\"\n",
                POWERS[*power]
            )),
        }
    }
    pbem::game::state::parse::<EiaState>(&pbem::diag::Source::new("state.toml", s)).unwrap()
}

/// The orders file of each power: moves along random neighbours (so most are legal), attacks, chits,
/// standing orders; a power orders only its own units, but may name any.
fn orders(c: &Case, g: &Game, st: &State) -> Vec<PowerOrders> {
    let mut text: BTreeMap<usize, String> = BTreeMap::new();
    let chits = ["assault", "outflank", "echelon", "probe"];
    let standing = [
        ("pursue", ["always", "never"]),
        ("reinforce", ["always", "never"]),
        ("attack-chit", ["assault", "probe"]),
        ("defence-chit", ["defend", "counterattack"]),
    ];
    for (p, o) in &c.orders {
        let line = match o {
            Order::Move { unit, path } => {
                let i = unit % c.units.len();
                let id = unit_id(&c.units, i);
                let start = EiaState::of(st)
                    .corps
                    .iter()
                    .find(|x| x.id.get_ref() == &id)
                    .map(|x| x.area.get_ref().clone())
                    .or_else(|| {
                        EiaState::of(st)
                            .leaders
                            .iter()
                            .find(|x| x.id.get_ref() == &id)
                            .map(|x| x.area.get_ref().clone())
                    })
                    .unwrap_or_else(|| "Lake".into());
                let mut here = g.map.find(&start).unwrap();
                let mut steps = Vec::new();
                for k in path {
                    let next = &g.map.area(here).adjacent;
                    here = next[k % next.len()];
                    steps.push(g.map.area(here).id.clone());
                }
                // Order the unit for its owner most of the time, for another power now and then.
                let by = if p % 4 == 0 { *p } else { owner(&c.units[i]) };
                text.entry(by)
                    .or_default()
                    .push_str(&format!("move {id} {}\n", steps.join(" ")));
                continue;
            }
            Order::Attack(a) => format!("attack {}\n", LAND[*a]),
            Order::Chit(a, k) => format!("chit {} {}\n", LAND[*a], chits[*k]),
            Order::Standing(k, v) => {
                format!("standing {} {}\n", standing[*k].0, standing[*k].1[*v])
            }
        };
        text.entry(*p).or_default().push_str(&line);
    }
    text.into_iter()
        .map(|(p, body)| PowerOrders {
            power: POWERS[p].to_string(),
            source: Source::new(
                format!("orders/1/{}.txt", POWERS[p]),
                format!("game prop\npower {}\npassword x\nturn 1\n{body}", POWERS[p]),
            ),
        })
        .collect()
}

/// Whether `word` stands in `text` as a whole word (ids and areas are letters, digits and '-').
fn has_word(text: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '-';
    text.match_indices(word).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(is_word)
            && !text[i + word.len()..].chars().next().is_some_and(is_word)
    })
}

/// HTML with the escapes pbem's templates write turned back into characters.
fn unescape(html: &str) -> String {
    html.replace("&#x2f;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Checks every report of one resolved case; returns how many (power, hidden unit or label) pairs it
/// checked, so that the test can tell it is not vacuous.
fn check(c: &Case) -> Result<usize, TestCaseError> {
    let g = game(c);
    let before = state(c);
    let refs = g.check_state(&before);
    prop_assert!(
        refs.is_empty(),
        "a generated state does not check: {:?}",
        refs
    );
    let po = orders(c, &g, &before);
    let mut dice = DiceBox::new(c.seed);
    let resolution = g.ruleset.resolve(&g, &before, &po, &mut dice).unwrap();
    let events = &std::sync::Arc::new(resolution.events);
    let mut after = resolution.next;
    after.turn = 2;
    let header = DiceHeader::new("prop", 1, &[1; 32], &[2; 32], &[], &c.seed);
    let sight = Visibility::of(&g, &after);
    let shared = report::TurnSight::new(&g, &after);
    let mut checked = 0;
    for p in POWERS {
        let r = report::render(
            &g,
            &ReportInput {
                power: p,
                turn: 1,
                state_before: &before,
                state_after: &after,
                events,
                orders: None,
                header: &header,
                next_commitment: &[3; 32],
                shared: &shared,
                command: None,
            },
        )
        .unwrap();
        let json = r
            .attachments
            .iter()
            .find(|f| f.extension == "json")
            .unwrap();
        let svg = r.attachments.iter().find(|f| f.extension == "svg").unwrap();
        let all = format!(
            "{}\n{}\n{}\n{}",
            r.text,
            unescape(r.html.as_deref().unwrap()),
            json.content,
            unescape(&svg.content)
        );
        let seen_events: Vec<&Event> = events.iter().filter(|e| e.visible_to.contains(p)).collect();
        // Roll labels: only those of events the power may see.
        for e in events.iter().filter(|e| !e.visible_to.contains(p)) {
            for roll in &e.rolls {
                checked += 1;
                prop_assert!(
                    !all.contains(&roll.label),
                    "{p} sees the roll {} of an event it may not see: {}",
                    roll.label,
                    e.text
                );
            }
        }
        // Unit ids: own, shared, in sight at the end, or named by an event the power may see.
        for (i, u) in c.units.iter().enumerate() {
            let id = unit_id(&c.units, i);
            let o = POWERS[owner(u)];
            let end = EiaState::of(&after)
                .corps
                .iter()
                .map(|x| (&x.id, &x.area))
                .chain(
                    EiaState::of(&after)
                        .leaders
                        .iter()
                        .map(|x| (&x.id, &x.area)),
                )
                .chain(EiaState::of(&after).fleets.iter().map(|x| (&x.id, &x.area)))
                .find(|(x, _)| x.get_ref() == &id)
                .and_then(|(_, a)| g.map.find(a.get_ref()));
            let allowed = sight.shares_with(p, o)
                || end.is_some_and(|a| sight.precision(p, a).is_some())
                || seen_events.iter().any(|e| has_word(&e.text, &id));
            if !allowed {
                checked += 1;
                prop_assert!(
                    !has_word(&all, &id),
                    "{p}'s report names {id}, which it may not know"
                );
            }
        }
        // Places: every foreign unit listed or drawn stands where the power sees at the end.
        let v: serde_json::Value = serde_json::from_str(&json.content).unwrap();
        for u in v["sees"]["units"].as_array().unwrap() {
            let area = g.map.find(u["area"].as_str().unwrap()).unwrap();
            prop_assert!(
                sight.precision(p, area).is_some(),
                "{p} places a unit it cannot see: {u}"
            );
        }
        for m in v["sees"]["moves"].as_array().unwrap() {
            let unit = m["unit"].as_str().unwrap();
            prop_assert!(
                seen_events
                    .iter()
                    .any(|e| e.kind == "move" && has_word(&e.text, unit)),
                "{p} draws a move it did not see: {m}"
            );
        }
        for (i, a) in g.map.areas.iter().enumerate() {
            let visible = sight.precision(p, i).is_some();
            let chips: Vec<&str> = POWERS
                .iter()
                .copied()
                .filter(|o| svg.content.contains(&format!("id=\"units-{}-{o}\"", a.id)))
                .collect();
            for o in chips {
                prop_assert!(
                    o == p || visible,
                    "{p}'s map shows {o}'s units in {} out of its sight",
                    a.id
                );
            }
            let control_seen = seen_events
                .iter()
                .any(|e| e.kind == "control" && e.area.as_deref() == Some(&a.id));
            for o in POWERS {
                if svg
                    .content
                    .contains(&format!("class=\"area ctl-{o}\" id=\"area-{}\"", a.id))
                {
                    prop_assert!(
                        visible || control_seen || sight.shares_with(p, o),
                        "{p}'s map shows {o}'s control of {} out of its sight",
                        a.id
                    );
                }
            }
        }
        // Events: every event text of the report is one the power may see, in the words it is
        // told (how another power's decision was taken left out: `Event::text_for`).
        let may: BTreeSet<&str> = seen_events.iter().map(|e| e.text_for(p)).collect();
        for e in v["events"].as_array().unwrap() {
            prop_assert!(may.contains(e["text"].as_str().unwrap()), "{p} is told {e}");
        }
    }
    Ok(checked)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_report_names_places_or_rolls_what_its_power_may_not_see(c in case()) {
        check(&c)?;
    }
}

#[test]
fn the_visibility_property_checks_something() {
    // The generator makes games where powers do not see everything: over a few fixed cases, some unit
    // or roll is hidden from some power.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut checked = 0;
    for _ in 0..50 {
        let c = case().new_tree(&mut runner).unwrap().current();
        checked += check(&c).unwrap_or(0);
    }
    assert!(
        checked > 100,
        "only {checked} hidden units and rolls in 50 games"
    );
}
