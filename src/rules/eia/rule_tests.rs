//! One test per EiA rule the land phase applies, named after the rule. Each builds a small game on a
//! line of areas, resolves a turn with fixed dice, and checks the events the rule must produce.
//!
//! ```text
//! West --- Depot --- Mid --- Field --- East --- Far
//!                     \______Side______/
//! ```

use std::collections::BTreeMap;

use crate::dice::Roller;
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::Game;
use crate::rules::eia::state::EiaState;

use super::orders::EiaOrder;
use super::phase::resolve_land_phase;
use super::Eia;

const MAP: &str = r#"
[[area]]
id = "West"
kind = "land"
xy = [0, 0]
adjacent = ["Depot", "Bay"]
port = true
[[area]]
id = "Depot"
kind = "land"
xy = [1, 0]
adjacent = ["West", "Mid"]
depot = true
[[area]]
id = "Mid"
kind = "land"
xy = [2, 0]
adjacent = ["Depot", "Field", "Side"]
[[area]]
id = "Field"
kind = "land"
xy = [3, 0]
adjacent = ["Mid", "East", "Side"]
[[area]]
id = "Side"
kind = "land"
xy = [3, 1]
adjacent = ["Mid", "Field", "East"]
border = "red"
[[area]]
id = "East"
kind = "land"
xy = [4, 0]
adjacent = ["Field", "Side", "Far"]
depot = true
city = { garrison = 2, fortress = 0 }
[[area]]
id = "Far"
kind = "land"
xy = [5, 0]
adjacent = ["East", "Ocean"]
port = true
[[area]]
id = "Bay"
kind = "sea"
xy = [0, 2]
adjacent = ["West", "Ocean"]
[[area]]
id = "Ocean"
kind = "sea"
xy = [5, 2]
adjacent = ["Bay", "Far"]
"#;

const GAME: &str = r##"
game = "test"
title = "rule tests"
ruleset = "eia"
[calendar]
start = "1805-09"
[deadline]
time_zone = "UTC"
first = "2026-12-06T20:00"
every_days = 7
[sop]
attack-chit = "assault"
defence-chit = "defend"
[[power]]
id = "blue"
name = "Blue"
players = ["b@example.org"]
password_hash = "x"
[[power]]
id = "red"
name = "Red"
players = ["r@example.org"]
password_hash = "x"
[[power]]
id = "pink"
name = "Pink"
players = ["p@example.org"]
password_hash = "x"
[[power]]
id = "spain"
name = "Spain"
players = ["s@example.org"]
password_hash = "x"
[[power]]
id = "grey"
name = "Grey"
players = ["g@example.org"]
password_hash = "x"
"##;

/// A game folder with the test map, the demo's tables and `state` as turn 1.
fn game(state: &str) -> (tempfile::TempDir, Game) {
    game_on(MAP, state)
}

/// A game folder as [`game`]'s whose game.toml names `options` (`decisions::OPTIONS`).
fn game_with_options(state: &str, options: &[&str]) -> (tempfile::TempDir, Game) {
    let (dir, _) = game(state);
    let listed: Vec<String> = options.iter().map(|o| format!("\"{o}\"")).collect();
    let config = GAME.replace(
        "ruleset = \"eia\"\n",
        &format!("ruleset = \"eia\"\noptions = [{}]\n", listed.join(", ")),
    );
    std::fs::write(dir.path().join("game.toml"), config).unwrap();
    let g = Game::load(dir.path()).unwrap();
    (dir, g)
}

/// A game folder with `map`, the demo's tables and `state` as turn 1.
fn game_on(map: &str, state: &str) -> (tempfile::TempDir, Game) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.toml"), GAME).unwrap();
    std::fs::write(dir.path().join("map.toml"), map).unwrap();
    std::fs::write(
        dir.path().join("tables.toml"),
        include_str!("../../../games/ulm-1805/tables.toml"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("turns/1")).unwrap();
    std::fs::write(
        dir.path().join("turns/1/state.toml"),
        format!("game = \"test\"\nturn = 1\n{state}"),
    )
    .unwrap();
    let g = Game::load(dir.path()).unwrap();
    (dir, g)
}

/// The test game with one more port, Cove, on the Bay.
fn game_with_cove(state: &str) -> (tempfile::TempDir, Game) {
    let map = MAP.replace(
        "adjacent = [\"West\", \"Ocean\"]",
        "adjacent = [\"West\", \"Ocean\", \"Cove\"]",
    ) + r#"
[[area]]
id = "Cove"
kind = "land"
xy = [1, 3]
adjacent = ["Bay"]
port = true
"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("game.toml"), GAME).unwrap();
    std::fs::write(dir.path().join("map.toml"), map).unwrap();
    std::fs::write(
        dir.path().join("tables.toml"),
        include_str!("../../../games/ulm-1805/tables.toml"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("turns/1")).unwrap();
    std::fs::write(
        dir.path().join("turns/1/state.toml"),
        format!("game = \"test\"\nturn = 1\n{state}"),
    )
    .unwrap();
    let g = Game::load(dir.path()).unwrap();
    (dir, g)
}

fn corps(id: &str, power: &str, kind: &str, factors: u32, morale: &str, area: &str) -> String {
    format!("[[eia.corps]]\nid = \"{id}\"\npower = \"{power}\"\nkind = \"{kind}\"\nfactors = {factors}\nmorale = {morale}\nmovement = 3\narea = \"{area}\"\n")
}

fn corps_with_artillery(id: &str, power: &str, factors: u32, artillery: u32, area: &str) -> String {
    corps(id, power, "infantry", factors, "3.0", area).replace(
        "movement = 3\n",
        &format!("movement = 3\nartillery = {artillery}\n"),
    )
}

fn leader(id: &str, power: &str, rating: u32, seniority: u32, area: &str) -> String {
    format!("[[eia.leader]]\nid = \"{id}\"\npower = \"{power}\"\nrating = {rating}\nseniority = {seniority}\nmovement = 4\narea = \"{area}\"\n")
}

/// Orders from `(power, order text)` pairs.
fn orders(list: &[(&str, EiaOrder)]) -> BTreeMap<String, Vec<EiaOrder>> {
    let mut m: BTreeMap<String, Vec<EiaOrder>> = BTreeMap::new();
    for (p, o) in list {
        m.entry(p.to_string()).or_default().push(o.clone());
    }
    m
}

fn attack(area: &str) -> EiaOrder {
    EiaOrder::Attack { area: area.into() }
}

const SEED: [u8; 32] = [42; 32];

/// Resolves turn 1 with the fixed seed; returns the events and the next state.
fn run(g: &Game, o: &BTreeMap<String, Vec<EiaOrder>>) -> (Vec<Event>, crate::game::state::State) {
    run_seed(g, o, SEED)
}

fn run_seed(
    g: &Game,
    o: &BTreeMap<String, Vec<EiaOrder>>,
    seed: [u8; 32],
) -> (Vec<Event>, crate::game::state::State) {
    let eia = eia(g);
    let state = g.load_state(1).unwrap();
    let mut dice = DiceBox::new(seed);
    let r = resolve_land_phase(eia, g, &state, o, &mut dice).unwrap();
    (r.events, r.next)
}

fn eia(g: &Game) -> &Eia {
    // The ruleset of a test game is always EiA.
    let any: &dyn std::any::Any = g.ruleset.as_any();
    any.downcast_ref::<Eia>().unwrap()
}

fn with_rule<'a>(events: &'a [Event], rule: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.rule == rule).collect()
}

/// A battle at Field the attacker (blue) must win: overwhelming strength against a brittle defender.
fn sure_win_state(extra: &str) -> String {
    format!(
        "{}{}{}{extra}",
        corps("B1", "blue", "infantry", 30, "4.0", "Field"),
        corps("BC", "blue", "cavalry", 6, "4.0", "Field"),
        corps("R1", "red", "infantry", 20, "0.3", "Field"),
    )
}

#[test]
fn eia_7_5_1_3_combat_order_is_random() {
    let state = [
        corps("B1", "blue", "infantry", 5, "3.0", "West"),
        corps("R1", "red", "infantry", 5, "3.0", "West"),
        corps("B2", "blue", "infantry", 5, "3.0", "Field"),
        corps("R2", "red", "infantry", 5, "3.0", "Field"),
        corps("B3", "blue", "infantry", 5, "3.0", "Far"),
        corps("R3", "red", "infantry", 5, "3.0", "Far"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, _) = run(
        &g,
        &orders(&[
            ("blue", attack("West")),
            ("blue", attack("Field")),
            ("blue", attack("Far")),
        ]),
    );
    // Each combat draws its own key under its own label; they are fought lowest key first.
    let mut expected: Vec<(u32, &str)> = ["Far", "Field", "West"]
        .into_iter()
        .map(|a| {
            let label = format!("combat-order/area={a}");
            (Roller::new(&SEED, &label).die(1_000_000), a)
        })
        .collect();
    expected.sort();
    let keys: Vec<(u32, &str)> = with_rule(&events, "EiA 7.5.1.3")
        .iter()
        .map(|e| {
            assert_eq!(e.rolls[0].dice_names(), "d1000000");
            (e.rolls[0].dice[0].face, e.area.as_deref().unwrap())
        })
        .collect();
    assert_eq!(keys, expected);
    let fought: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "combat")
        .filter_map(|e| e.area.as_deref())
        .collect();
    let expected: Vec<&str> = expected.iter().map(|k| k.1).collect();
    assert_eq!(fought, expected);
}

/// EiA 7.5.1.3: a power is told the order key of the combats it sees, and nothing of the others.
#[test]
fn eia_7_5_1_3_a_power_sees_the_order_keys_of_its_own_battles_only() {
    let state = [
        corps("B1", "blue", "infantry", 5, "3.0", "West"),
        corps("R1", "red", "infantry", 5, "3.0", "West"),
        corps("B3", "blue", "infantry", 5, "3.0", "Far"),
        corps("G3", "grey", "infantry", 5, "3.0", "Far"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, _) = run(
        &g,
        &orders(&[("blue", attack("West")), ("blue", attack("Far"))]),
    );
    let keys = with_rule(&events, "EiA 7.5.1.3");
    assert_eq!(keys.len(), 2);
    for e in keys {
        let at = e.area.as_deref().unwrap();
        assert_eq!(e.rolls[0].label, format!("combat-order/area={at}"));
        assert!(e.visible_to.contains("blue"));
        let (fights, not) = if at == "West" {
            ("red", "grey")
        } else {
            ("grey", "red")
        };
        assert!(e.visible_to.contains(fights), "{at}: {:?}", e.visible_to);
        assert!(!e.visible_to.contains(not), "{at}: {:?}", e.visible_to);
    }
}

#[test]
fn eia_19_1_chit_by_order_standing_order_then_sop() {
    let state = format!(
        "[standing.red]\ndefence-chit = \"probe\"\n{}",
        sure_win_state("")
    );
    let (_d, g) = game(&state);
    let chit = EiaOrder::Chit {
        area: "Field".into(),
        chit: "outflank".into(),
        with: Vec::new(),
    };
    let (events, _) = run(&g, &orders(&[("blue", attack("Field")), ("blue", chit)]));
    let chits: Vec<&str> = with_rule(&events, "EiA 19.1")
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(
        chits[0],
        "Blue plays the attack chit 'outflank' at Field (by its order)."
    );
    assert_eq!(
        chits[1],
        "Red plays the defence chit 'probe' at Field (by its standing order)."
    );
    let (events, _) = run(
        &game(&sure_win_state("")).1,
        &orders(&[("blue", attack("Field"))]),
    );
    let chits: Vec<&str> = with_rule(&events, "EiA 19.1")
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(
        chits[0],
        "Blue plays the attack chit 'assault' at Field (by the SOP)."
    );
    assert_eq!(
        chits[1],
        "Red plays the defence chit 'defend' at Field (by the SOP)."
    );
}

#[test]
fn eia_7_5_2_10_2_victors_always_pursue() {
    let (_d, g) = game(&sure_win_state(""));
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let pursuit = with_rule(&events, "EiA 7.5.2.10.2");
    assert_eq!(pursuit.len(), 1);
    assert!(
        pursuit[0]
            .text
            .starts_with("Blue pursues at Field (by the SOP)"),
        "{}",
        pursuit[0].text
    );
    assert_eq!(pursuit[0].rolls[0].label, "pursuit/area=Field");
    assert_eq!(
        pursuit[0].citation(),
        "EiA 7.5.2.10.2: victors always pursue"
    );
}

/// EiA 7.5.2.10.2 admits no choice: a `pursue = "never"` kept in the state (from a game that had the
/// option, or written by hand) is passed over, and the victor pursues.
#[test]
fn eia_7_5_2_10_2_victors_pursue_whatever_a_standing_order_says() {
    let (_d, g) = game(&format!(
        "[standing.blue]\npursue = \"never\"\n{}",
        sure_win_state("")
    ));
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let pursuit = with_rule(&events, "EiA 7.5.2.10.2");
    assert!(
        pursuit[0]
            .text
            .starts_with("Blue pursues at Field (by the SOP)"),
        "{}",
        pursuit[0].text
    );
}

/// A game that names the option `pursue-by-order` lets a standing order forbid pursuit.
#[test]
fn eia_7_5_2_10_2_the_option_pursue_by_order_lets_a_standing_order_forbid_pursuit() {
    let (_d, g) = game_with_options(
        &format!(
            "[standing.blue]\npursue = \"never\"\n{}",
            sure_win_state("")
        ),
        &["pursue-by-order"],
    );
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let pursuit = with_rule(&events, "EiA 7.5.2.10.2");
    assert_eq!(
        pursuit[0].text,
        "Blue does not pursue at Field (by its standing order)."
    );
    assert!(pursuit[0].rolls.is_empty());
}

#[test]
fn eia_7_5_2_10_3_retreat_toward_the_nearest_depot() {
    // From Field, Mid (one step from Depot) is nearer red's depot than Side or East.
    let (_d, g) = game(&format!(
        "[control]\nDepot = \"red\"\n{}",
        sure_win_state("")
    ));
    let (events, next) = run(&g, &orders(&[("blue", attack("Field"))]));
    let retreat = with_rule(&events, "EiA 7.5.2.10.3");
    assert!(
        retreat[0].text.starts_with(
            "Red retreats from Field to Mid (nearest a depot or capital, 1 area away)"
        ),
        "{}",
        retreat[0].text
    );
    assert!(
        retreat[0].rolls.is_empty(),
        "no roll when one area is nearest"
    );
    assert_eq!(
        EiaState::of(&next)
            .find_corps("R1")
            .map(|c| c.area.get_ref().as_str()),
        Some("Mid")
    );
}

#[test]
fn eia_7_5_2_10_3_a_garrison_that_stayed_in_its_city_does_not_retreat_with_the_beaten_field_army() {
    // Red's R3 holds the city of East, besieged by blue's B2 since before the turn; red's R1 stands
    // in the field. Two red corps against two blue: no retirement (7.5.1.1); R1 is beaten in the
    // field and retreats, R3 stays in its city.
    let state = [
        corps("B1", "blue", "infantry", 30, "4.0", "East"),
        corps("B2", "blue", "infantry", 2, "3.0", "East"),
        corps("R1", "red", "infantry", 20, "0.3", "East"),
        garrison("R3", "red", "infantry", 2, "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, next) = run(&g, &orders(&[("blue", attack("East"))]));
    let retreat = with_rule(&events, "EiA 7.5.2.10.3");
    assert_eq!(retreat.len(), 1, "{retreat:#?}");
    assert!(retreat[0].text.ends_with(": R1."), "{}", retreat[0].text);
    let r3 = EiaState::of(&next)
        .corps
        .iter()
        .find(|c| c.id.get_ref() == "R3")
        .unwrap();
    assert_eq!(r3.area.get_ref(), "East");
    assert!(r3.in_city);
}

#[test]
fn eia_7_5_2_10_3_random_among_equally_near_areas() {
    // Red has no depot at all: Mid, Side and East are equally near, the die chooses among them.
    let (_d, g) = game(&sure_win_state(""));
    let (events, next) = run(&g, &orders(&[("blue", attack("Field"))]));
    let retreat = with_rule(&events, "EiA 7.5.2.10.3");
    let roll = &retreat[0].rolls[0];
    assert_eq!(roll.label, "retreat/area=Field/power=red");
    assert_eq!(roll.dice_names(), "d3");
    let to = ["East", "Mid", "Side"][roll.dice[0].face as usize - 1];
    assert_eq!(
        EiaState::of(&next)
            .find_corps("R1")
            .map(|c| c.area.get_ref().as_str()),
        Some(to)
    );
}

#[test]
fn eia_7_5_2_10_3_no_retreat_means_surrender() {
    let extra = [
        corps("B2", "blue", "infantry", 1, "3.0", "Mid"),
        corps("B3", "blue", "infantry", 1, "3.0", "Side"),
        corps("B4", "blue", "infantry", 1, "3.0", "East"),
        "[standing.blue]\nreinforce = \"never\"\n".to_string(),
    ]
    .concat();
    let (_d, g) = game(&sure_win_state(&extra));
    let (events, next) = run(&g, &orders(&[("blue", attack("Field"))]));
    let retreat = with_rule(&events, "EiA 7.5.2.10.3");
    assert!(
        retreat[0].text.contains("cannot retreat from Field"),
        "{}",
        retreat[0].text
    );
    assert!(EiaState::of(&next).find_corps("R1").is_none());
}

#[test]
fn eia_7_5_2_11_eligible_corps_always_try_to_reinforce() {
    let extra = [
        corps("R2", "red", "infantry", 4, "3.0", "Side"),
        leader("RedLeader", "red", 6, 1, "Side"),
        // Engaged in its own battle at East: not eligible.
        corps("R3", "red", "infantry", 4, "3.0", "East"),
        corps("B9", "blue", "infantry", 4, "3.0", "East"),
    ]
    .concat();
    let (_d, g) = game(&sure_win_state(&extra));
    let (events, next) = run(
        &g,
        &orders(&[("blue", attack("Field")), ("blue", attack("East"))]),
    );
    let tries: Vec<&Event> = with_rule(&events, "EiA 7.5.2.11")
        .into_iter()
        .filter(|e| e.area.as_deref() == Some("Field"))
        .collect();
    assert_eq!(tries.len(), 1, "only R2 may march to Field");
    assert_eq!(tries[0].rolls[0].label, "reinforce/area=Field/unit=R2");
    // Rating 6 makes any d6 succeed.
    assert!(tries[0].text.contains("it arrives"), "{}", tries[0].text);
    assert!(events.iter().any(|e| e.kind == "combat"
        && e.area.as_deref() == Some("Field")
        && e.text.contains("R1, R2")));
    let _ = next;
}

/// EiA 7.5.2.11 admits no choice: a `reinforce = "never"` kept in the state is passed over.
#[test]
fn eia_7_5_2_11_forces_try_to_reinforce_whatever_a_standing_order_says() {
    let extra = [
        corps("R2", "red", "infantry", 4, "3.0", "Side"),
        "[standing.red]\nreinforce = \"never\"\n".to_string(),
    ]
    .concat();
    let (_d, g) = game(&sure_win_state(&extra));
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let tries = with_rule(&events, "EiA 7.5.2.11");
    assert!(!tries[0].rolls.is_empty(), "{}", tries[0].text);
    assert!(!tries[0].text.contains("does not try"), "{}", tries[0].text);
}

/// A game that names the option `reinforce-by-order` lets a standing order forbid reinforcing.
#[test]
fn eia_7_5_2_11_the_option_reinforce_by_order_lets_a_standing_order_forbid_reinforcing() {
    let extra = [
        corps("R2", "red", "infantry", 4, "3.0", "Side"),
        "[standing.red]\nreinforce = \"never\"\n".to_string(),
    ]
    .concat();
    let (_d, g) = game_with_options(&sure_win_state(&extra), &["reinforce-by-order"]);
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let tries = with_rule(&events, "EiA 7.5.2.11");
    assert_eq!(
        tries[0].text,
        "Red does not try to reinforce at Field (by its standing order)."
    );
    assert!(tries[0].rolls.is_empty());
}

#[test]
fn eia_10_6_1_1_commander_by_seniority_then_at_random() {
    // Red and pink are allies with one corps each at Field: both nationalities are eligible.
    let senior = [
        corps("P1", "pink", "infantry", 5, "0.3", "Field"),
        leader("RedGeneral", "red", 2, 2, "Field"),
        leader("PinkGeneral", "pink", 3, 1, "Field"),
    ]
    .concat();
    let allied = |extra: &str| {
        format!(
            "alliances = [[\"red\", \"pink\"]]\n{}",
            sure_win_state(extra)
        )
    };
    let (_d, g) = game(&allied(&senior));
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let cmd = with_rule(&events, "EiA 10.6.1.1");
    assert_eq!(cmd[0].text, "PinkGeneral commands the defender at Field: the most senior of the equally eligible leaders.");
    assert!(cmd[0].rolls.is_empty());

    let tied = senior.replace("seniority = 2", "seniority = 1");
    let (_d, g) = game(&allied(&tied));
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let cmd = with_rule(&events, "EiA 10.6.1.1");
    let roll = &cmd[0].rolls[0];
    assert_eq!(roll.label, "commander/area=Field/side=defender");
    assert_eq!(roll.dice_names(), "d2");
    let chosen = ["PinkGeneral", "RedGeneral"][roll.dice[0].face as usize - 1];
    assert!(
        cmd[0]
            .text
            .starts_with(&format!("{chosen} commands the defender at Field")),
        "{}",
        cmd[0].text
    );
}

#[test]
fn eia_7_a_corps_entering_enemy_corps_stops() {
    let state = [
        corps("B1", "blue", "infantry", 5, "3.0", "Mid"),
        corps("R1", "red", "infantry", 5, "3.0", "Field"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let mv = EiaOrder::Move {
        unit: "B1".into(),
        with: Vec::new(),
        path: vec!["Field".into(), "East".into()],
    };
    let (events, next) = run(&g, &orders(&[("blue", mv)]));
    assert!(events
        .iter()
        .any(|e| e.text == "B1 stops in Field: enemy corps are there."));
    assert_eq!(
        EiaState::of(&next)
            .find_corps("B1")
            .map(|c| c.area.get_ref().as_str()),
        Some("Field")
    );
}

#[test]
fn eia_7_allies_pass_through_each_other_and_keep_their_areas() {
    let state = [
        "alliances = [[\"blue\", \"pink\"]]\n[control]\nField = \"pink\"\n".to_string(),
        corps("B1", "blue", "infantry", 5, "3.0", "Mid"),
        corps("P1", "pink", "infantry", 5, "3.0", "Field"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let mv = EiaOrder::Move {
        unit: "B1".into(),
        with: Vec::new(),
        path: vec!["Field".into(), "East".into()],
    };
    let (events, next) = run(&g, &orders(&[("blue", mv), ("blue", attack("Field"))]));
    assert_eq!(
        EiaState::of(&next)
            .find_corps("B1")
            .map(|c| c.area.get_ref().as_str()),
        Some("East")
    );
    assert_eq!(next.control.get("Field").map(String::as_str), Some("pink"));
    assert_eq!(next.control.get("East").map(String::as_str), Some("blue"));
    assert!(!events.iter().any(|e| e.kind == "combat"));
}

#[test]
fn eia_7_5_an_attack_without_enemy_corps_is_void() {
    let state = corps("B1", "blue", "infantry", 5, "3.0", "Field");
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    assert!(events
        .iter()
        .any(|e| e.text == "Blue declares an attack on Field, but no enemy corps are there."));
    assert!(!events.iter().any(|e| e.kind == "combat"));
}

#[test]
fn eia_visibility_a_distant_power_sees_no_battle_roll() {
    let state = format!(
        "{}{}",
        sure_win_state(""),
        corps("G1", "grey", "infantry", 3, "3.0", "West")
    );
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    for e in events.iter().filter(|e| !e.rolls.is_empty()) {
        assert!(!e.visible_to.contains("grey"), "grey sees {}", e.text);
        assert!(e.visible_to.contains("blue") && e.visible_to.contains("red"));
    }
}

#[test]
fn labels_are_unique_within_a_turn_over_many_seeds() {
    let state = [
        sure_win_state(""),
        corps("R2", "red", "infantry", 4, "3.0", "Side"),
        corps("B2", "blue", "infantry", 5, "3.0", "West"),
        corps("R3", "red", "infantry", 5, "3.0", "West"),
    ]
    .concat();
    let (_d, g) = game(&state);
    for s in 0..50u8 {
        let (events, _) = run_seed(
            &g,
            &orders(&[("blue", attack("Field")), ("blue", attack("West"))]),
            [s; 32],
        );
        let mut labels: Vec<&str> = events
            .iter()
            .flat_map(|e| e.rolls.iter().map(|r| r.label.as_str()))
            .collect();
        let n = labels.len();
        labels.sort();
        labels.dedup();
        assert_eq!(labels.len(), n, "a label repeats with seed {s}");
    }
}

#[test]
fn a_turn_resolves_to_the_same_events_twice() {
    let (_d, g) = game(&sure_win_state(""));
    let o = orders(&[("blue", attack("Field"))]);
    assert_eq!(run(&g, &o).0, run(&g, &o).0);
}

/// Runs seeds 0.. until `found` holds for the events, and returns those events.
fn first_seed_where(
    g: &Game,
    o: &BTreeMap<String, Vec<EiaOrder>>,
    found: impl Fn(&[Event]) -> bool,
) -> Vec<Event> {
    for s in 0..200u8 {
        let (events, _) = run_seed(g, o, [s; 32]);
        if found(&events) {
            return events;
        }
    }
    panic!("no seed of 200 gives the case");
}

/// A small garrison of `power` in the city of East, two blue corps attacking it.
fn siege_state(power: &str, garrison_factors: u32, extra: &str) -> String {
    [
        corps("B1", "blue", "infantry", 8, "3.0", "East"),
        corps("B2", "blue", "infantry", 8, "3.0", "East"),
        corps("G1", power, "infantry", garrison_factors, "3.0", "East"),
        extra.to_string(),
    ]
    .concat()
}

#[test]
fn eia_7_5_1_1_defenders_retire_into_the_city_when_they_fit_and_are_outnumbered() {
    let (_d, g) = game(&siege_state("red", 3, ""));
    let (events, _) = run(&g, &orders(&[("blue", attack("East"))]));
    let retire = with_rule(&events, "EiA 7.5.1.1");
    assert_eq!(retire[0].text, "G1 retires into the city of East (1 corps fits its garrison of 2, against 2 enemy corps) (by the SOP).");
    assert!(!events.iter().any(|e| e.kind == "round"), "no field battle");
    assert!(events
        .iter()
        .any(|e| e.rolls.iter().any(|r| r.label == "siege/area=East")));
}

#[test]
fn eia_7_5_1_1_defenders_do_not_retire_into_a_city_their_enemy_holds() {
    // Red's G1 fits East's garrison and is outnumbered, but blue controls East: red fights in the
    // field (pbem's reading: a garrison holds its own side's city).
    let state = format!("[control]\nEast = \"blue\"\n{}", siege_state("red", 3, ""));
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", attack("East"))]));
    assert!(with_rule(&events, "EiA 7.5.1.1").is_empty());
    assert!(events.iter().any(|e| e.kind == "round"), "a field battle");
    // Held by red itself, or by its ally pink, the city takes it in.
    for (holder, alliances) in [("red", ""), ("pink", "alliances = [[\"red\", \"pink\"]]\n")] {
        let state = format!(
            "{alliances}[control]\nEast = \"{holder}\"\n{}",
            siege_state("red", 3, "")
        );
        let (_d, g) = game(&state);
        let (events, _) = run(&g, &orders(&[("blue", attack("East"))]));
        assert_eq!(
            with_rule(&events, "EiA 7.5.1.1").len(),
            1,
            "held by {holder}"
        );
    }
}

#[test]
fn eia_7_5_1_1_no_retirement_when_not_outnumbered() {
    let state = [
        corps("B1", "blue", "infantry", 8, "3.0", "East"),
        corps("G1", "red", "infantry", 3, "3.0", "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", attack("East"))]));
    assert!(with_rule(&events, "EiA 7.5.1.1").is_empty());
    assert!(events.iter().any(|e| e.kind == "round"));
}

/// EiA 7.5.1.1 with 7.5.2.11 and 10.1.2.2.3: cossacks and freikorps in the field are not corps
/// for the retirement, on either side: the seed names them apart from corps, and they retreat
/// before combat.
#[test]
fn eia_7_5_1_1_cossacks_and_freikorps_do_not_count_toward_retirement() {
    // Red's G1 and a cossack against blue's B1 and B2: G1 alone is outnumbered, fits East's
    // garrison and retires; the cossack retreats before the siege, and is not shut in.
    let (_d, g) = game(&siege_state(
        "red",
        3,
        &corps("RC", "red", "cossack", 1, "2.0", "East"),
    ));
    let (events, next) = run(&g, &orders(&[("blue", attack("East"))]));
    let texts: Vec<&String> = events.iter().map(|e| &e.text).collect();
    let retire = with_rule(&events, "EiA 7.5.1.1");
    assert_eq!(
        retire.first().map(|e| e.text.as_str()),
        Some("G1 retires into the city of East (1 corps fits its garrison of 2, against 2 enemy corps) (by the SOP)."),
        "{texts:#?}"
    );
    let evade = with_rule(&events, "EiA 10.1.2.2.3");
    assert!(
        evade.first().is_some_and(|e| e.text.ends_with(": RC.")),
        "{texts:#?}"
    );
    let rc = EiaState::of(&next).find_corps("RC").unwrap();
    assert!(!rc.in_city && rc.area.get_ref() != "East");
    // Blue's cossack beside its one corps makes no second enemy corps: red's G1 is not outnumbered
    // and fights in the field.
    let state = [
        corps("B1", "blue", "infantry", 8, "3.0", "East"),
        corps("BC", "blue", "cossack", 1, "3.0", "East"),
        corps("G1", "red", "infantry", 3, "3.0", "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", attack("East"))]));
    assert!(with_rule(&events, "EiA 7.5.1.1").is_empty());
    assert!(events.iter().any(|e| e.kind == "round"), "a field battle");
}

#[test]
fn eia_7_5_4_1_2_1_defenders_sortie_unless_a_single_factor() {
    let (_d, g) = game(&siege_state("red", 3, ""));
    let (events, _) = run(&g, &orders(&[("blue", attack("East"))]));
    let sortie = with_rule(&events, "EiA 7.5.4.1.2.1");
    assert!(
        sortie[0]
            .text
            .starts_with("The garrison of East sorties (by the SOP)"),
        "{}",
        sortie[0].text
    );
    assert_eq!(sortie[0].rolls[0].label, "sortie/area=East");
    let (_d, g) = game(&siege_state("red", 1, ""));
    let (events, _) = run(&g, &orders(&[("blue", attack("East"))]));
    let sortie = with_rule(&events, "EiA 7.5.4.1.2.1");
    assert_eq!(
        sortie[0].text,
        "The garrison of East is a single factor: it does not sortie (by the SOP)."
    );
    assert!(sortie[0].rolls.is_empty());
}

#[test]
fn eia_7_5_4_1_2_3_1_defender_asks_for_honours_unless_turkish_or_spanish() {
    let o = orders(&[("blue", attack("East"))]);
    let breached = |e: &[Event]| e.iter().any(|e| e.text.contains("the walls are breached"));
    let (_d, g) = game(&siege_state("red", 1, ""));
    let events = first_seed_where(&g, &o, breached);
    let honours = with_rule(&events, "EiA 7.5.4.1.2.3.1");
    assert_eq!(
        honours[0].text,
        "The garrison of East asks for the honours of war; Blue grants them (by the SOP)."
    );
    let (_d, g) = game(&siege_state("spain", 1, ""));
    let events = first_seed_where(&g, &o, breached);
    let honours = with_rule(&events, "EiA 7.5.4.1.2.3.1");
    assert_eq!(
        honours[0].text,
        "The garrison of East (Spain) does not ask for the honours of war."
    );
}

#[test]
fn eia_19_1_breached_garrison_surrenders_by_standing_order() {
    let extra = "[standing.blue]\nhonours = \"deny\"\n[standing.red]\n\"surrender@East\" = \"when outnumbered 2\"\n";
    let state = format!("{extra}{}", siege_state("red", 1, ""));
    let (_d, g) = game(&state);
    let o = orders(&[("blue", attack("East"))]);
    let events = first_seed_where(&g, &o, |e| {
        e.iter().any(|e| e.text.contains("the walls are breached"))
    });
    let surrender = with_rule(&events, "EiA 19.1")
        .into_iter()
        .find(|e| e.text.contains("garrison"))
        .unwrap();
    assert_eq!(
        surrender.text,
        "The garrison of East (G1) surrenders (by its standing order)."
    );
    let state = format!(
        "[standing.blue]\nhonours = \"deny\"\n{}",
        siege_state("red", 1, "")
    );
    let (_d, g) = game(&state);
    let events = first_seed_where(&g, &o, |e| {
        e.iter().any(|e| e.text.contains("the walls are breached"))
    });
    let stormed = with_rule(&events, "EiA 19.1")
        .into_iter()
        .find(|e| e.text.contains("garrison"))
        .unwrap();
    assert!(
        stormed
            .text
            .contains("fights on (by the SOP): the city is stormed"),
        "{}",
        stormed.text
    );
}

#[test]
fn eia_10_1_2_2_3_cossacks_retreat_before_combat() {
    let (_d, g) = game(&sure_win_state(&corps(
        "RC", "red", "cossack", 2, "2.0", "Field",
    )));
    let (events, next) = run(&g, &orders(&[("blue", attack("Field"))]));
    let evade = with_rule(&events, "EiA 10.1.2.2.3");
    // A retreat the die chose names the power by its id, as its label does (`evade/../power=red`).
    assert!(
        evade[0].text.starts_with("red retreats from Field to "),
        "{}",
        evade[0].text
    );
    assert!(evade[0].text.ends_with(": RC."), "{}", evade[0].text);
    let battle = events.iter().find(|e| e.kind == "combat").unwrap();
    assert!(
        !battle.text.contains("RC"),
        "the cossacks are not in the battle: {}",
        battle.text
    );
    assert_ne!(
        EiaState::of(&next)
            .find_corps("RC")
            .map(|c| c.area.get_ref().as_str()),
        Some("Field")
    );
}

#[test]
fn eia_7_5_2_3_outflanking_force_of_the_russian_example() {
    // A guard, eight infantry and three cavalry corps: two infantry and one cavalry corps outflank.
    let mut state = corps("RG", "red", "guard", 6, "4.0", "Field");
    for i in 1..=8 {
        state.push_str(&corps(
            &format!("RI{i}"),
            "red",
            "infantry",
            5,
            "3.0",
            "Field",
        ));
    }
    for i in 1..=3 {
        state.push_str(&corps(
            &format!("RC{i}"),
            "red",
            "cavalry",
            3,
            "3.0",
            "Field",
        ));
    }
    state.push_str(&corps("B1", "blue", "infantry", 20, "3.0", "Field"));
    let state = format!("[standing.red]\nattack-chit = \"outflank\"\n{state}");
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("red", attack("Field"))]));
    let force = with_rule(&events, "EiA 7.5.2.3")
        .into_iter()
        .find(|e| e.kind == "decision")
        .unwrap();
    let roll = &force.rolls[0];
    assert_eq!(roll.label, "outflank/area=Field/side=attacker");
    assert_eq!(roll.dice_names(), "d8 d7 d3");
    let sent: Vec<&str> = force
        .text
        .split(" sends ")
        .nth(1)
        .unwrap()
        .split(" round the flank")
        .next()
        .unwrap()
        .split(", ")
        .collect();
    assert_eq!(
        sent.iter().filter(|c| c.starts_with("RI")).count(),
        2,
        "{}",
        force.text
    );
    assert_eq!(
        sent.iter().filter(|c| c.starts_with("RC")).count(),
        1,
        "{}",
        force.text
    );
    assert!(events
        .iter()
        .any(|e| e.kind == "outflank" && e.text.contains("before round 2")));
}

#[test]
fn eia_7_5_2_3_outflanking_force_named_by_order() {
    let chit = EiaOrder::Chit {
        area: "Field".into(),
        chit: "outflank".into(),
        with: vec!["BC".into()],
    };
    let (_d, g) = game(&sure_win_state(""));
    let (events, _) = run(&g, &orders(&[("blue", attack("Field")), ("blue", chit)]));
    let force = with_rule(&events, "EiA 7.5.2.3")
        .into_iter()
        .find(|e| e.kind == "decision")
        .unwrap();
    assert_eq!(force.text, "Blue sends BC round the flank at Field (by its order); it joins the battle before round 2.");
    assert!(force.rolls.is_empty());
}

#[test]
fn eia_7_5_2_8_artillery_fires_before_each_round() {
    let state = [
        corps_with_artillery("B1", "blue", 10, 3, "Field"),
        corps("R1", "red", "infantry", 10, "3.0", "Field"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let rounds = events.iter().filter(|e| e.kind == "round").count();
    let artillery = with_rule(&events, "EiA 7.5.2.8");
    assert_eq!(
        artillery.len(),
        rounds,
        "one artillery step before each round"
    );
    assert_eq!(artillery[0].rolls[0].label, "artillery/area=Field/round=1");
    assert!(artillery[0].text.contains("the defender has no artillery"));
}

#[test]
fn eia_7_5_2_8_guard_committed_by_standing_order() {
    let state = [
        "[standing.blue]\nguard = \"before round 2\"\n".to_string(),
        corps("BG", "blue", "guard", 6, "5.0", "Field"),
        corps("B1", "blue", "infantry", 10, "4.0", "Field"),
        corps("R1", "red", "infantry", 12, "4.0", "Field"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let guard: Vec<&str> = with_rule(&events, "EiA 7.5.2.8")
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(guard[0], "Blue holds its guard (BG) back at Field: it will commit it before round 2 (by its standing order).");
    if events.iter().filter(|e| e.kind == "round").count() >= 2 {
        assert_eq!(
            guard[1],
            "Blue commits its guard (BG) before round 2 at Field."
        );
    }
}

#[test]
fn eia_7_5_2_8_guard_held_back_by_the_sop_until_losing() {
    let state = [
        corps("BG", "blue", "guard", 6, "5.0", "Field"),
        sure_win_state(""),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let guard = with_rule(&events, "EiA 7.5.2.8");
    assert_eq!(guard[0].text, "Blue holds its guard (BG) back at Field: it will commit it when losing after round 1 (by the SOP).");
}

#[test]
fn eia_19_1_further_days_by_standing_order_or_sop() {
    // Two sturdy, even forces rarely break in a day.
    let even = [
        corps("B1", "blue", "infantry", 40, "9.0", "Field"),
        corps("R1", "red", "infantry", 40, "9.0", "Field"),
    ]
    .concat();
    let (_d, g) = game(&even);
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let days = with_rule(&events, "EiA 19.1")
        .into_iter()
        .filter(|e| e.text.contains("further day"))
        .collect::<Vec<_>>();
    assert_eq!(
        days[0].text,
        "Blue fights no further day at Field after day 1 (by the SOP)."
    );
    let (_d, g) = game(&format!("[standing.blue]\ncontinue = \"always\"\n{even}"));
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    let days = with_rule(&events, "EiA 19.1")
        .into_iter()
        .filter(|e| e.text.contains("further day"))
        .collect::<Vec<_>>();
    assert_eq!(
        days[0].text,
        "Blue fights a further day at Field after day 1 (by its standing order)."
    );
    assert!(events.iter().any(|e| e
        .rolls
        .iter()
        .any(|r| r.label == "combat/area=Field/round=4")));
}

#[test]
fn eia_19_1_the_defender_has_his_say_on_further_days() {
    let even = [
        corps("B1", "blue", "infantry", 40, "9.0", "Field"),
        corps("R1", "red", "infantry", 40, "9.0", "Field"),
    ]
    .concat();
    let further = |events: &[Event]| -> Vec<String> {
        with_rule(events, "EiA 19.1")
            .into_iter()
            .filter(|e| e.text.contains("further day"))
            .map(|e| e.text.clone())
            .collect()
    };
    // The defender's standing order refuses: the battle ends after the first day.
    let (_d, g) = game(&format!(
        "[standing.blue]\ncontinue = \"always\"\n[standing.red]\ncontinue = \"never\"\n{even}"
    ));
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    assert_eq!(
        further(&events)[..2],
        [
            "Blue fights a further day at Field after day 1 (by its standing order).".to_string(),
            "Red fights no further day at Field after day 1 (by its standing order): the battle ends.".to_string()
        ]
    );
    assert!(!events.iter().any(|e| e
        .rolls
        .iter()
        .any(|r| r.label == "combat/area=Field/round=4")));
    // With nothing said, the defender stands (the SOP): the attacker's order decides.
    let (_d, g) = game(&format!("[standing.blue]\ncontinue = \"always\"\n{even}"));
    let (events, _) = run(&g, &orders(&[("blue", attack("Field"))]));
    assert_eq!(
        further(&events)[1],
        "Red stands for a further day at Field after day 1 (by the SOP)."
    );
}

fn fleet(id: &str, power: &str, ships: u32, area: &str) -> String {
    format!(
        "[[eia.fleet]]\nid = \"{id}\"\npower = \"{power}\"\nships = {ships}\narea = \"{area}\"\n"
    )
}

fn sail(fleet: &str, to: &str) -> EiaOrder {
    EiaOrder::Move {
        unit: fleet.into(),
        with: Vec::new(),
        path: vec![to.into()],
    }
}

/// Blue's 5 ships sail from the Ocean into the Bay, where red's 10 ships lie still.
fn sea_state(extra: &str) -> String {
    format!(
        "[control]\nWest = \"red\"\nFar = \"blue\"\n{extra}{}{}",
        fleet("BF", "blue", 5, "Ocean"),
        fleet("RF", "red", 10, "Bay")
    )
}

#[test]
fn eia_6_2_3_non_moving_fleets_intercept_weaker_fleets() {
    let (_d, g) = game(&sea_state(""));
    let (events, _) = run(&g, &orders(&[("blue", sail("BF", "Bay"))]));
    let tries = with_rule(&events, "EiA 6.2.3");
    assert_eq!(
        tries[0].rolls[0].label,
        "intercept/sea=Bay/fleet=BF/power=red"
    );
    assert!(
        tries[0]
            .text
            .starts_with("RF (red, 10 ships) tries to intercept BF (5 ships) at Bay (by the SOP)"),
        "{}",
        tries[0].text
    );
}

#[test]
fn eia_6_2_3_a_standing_order_not_to_intercept_is_honoured() {
    let (_d, g) = game(&format!(
        "[standing.red]\nintercept = \"never\"\n{}",
        sea_state("")
    ));
    let (events, next) = run(&g, &orders(&[("blue", sail("BF", "Bay"))]));
    assert_eq!(
        with_rule(&events, "EiA 6.2.3")[0].text,
        "RF (Red) does not intercept BF at Bay (by its standing order)."
    );
    assert_eq!(
        EiaState::of(&next)
            .find_fleet("BF")
            .map(|f| f.area.get_ref().as_str()),
        Some("Bay")
    );
}

/// EiA 6.2.3 (19.1, fog of war): allies' fleets that try together tell no one how they came to
/// try: "by its standing order" would tell pink, who leads the side, how its ally red decides. The
/// fleets of one power tell it to that power alone.
#[test]
fn eia_6_2_3_allies_intercepting_together_tell_no_one_how_each_decided() {
    let state = format!(
        "alliances = [[\"red\", \"pink\"]]\n[standing.red]\nintercept = \"always\"\n{}",
        sea_state(&fleet("PF", "pink", 4, "Bay"))
    );
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", sail("BF", "Bay"))]));
    let tries = with_rule(&events, "EiA 6.2.3");
    assert!(
        tries[0].text.contains("to intercept BF"),
        "{}",
        tries[0].text
    );
    for viewer in ["pink", "red", "blue"] {
        assert!(
            !tries[0].text_for(viewer).contains("(by "),
            "{viewer}: {}",
            tries[0].text_for(viewer)
        );
        assert!(tries[0].decision_for(viewer).is_none(), "{viewer}");
    }
    // The referee's log keeps it.
    assert!(
        tries[0].text.contains("(by its standing order)"),
        "{}",
        tries[0].text
    );
    // Red's fleet alone: red is told, pink not.
    let (_d, g) = game(&format!(
        "alliances = [[\"red\", \"pink\"]]\n[standing.red]\nintercept = \"always\"\n{}",
        sea_state("")
    ));
    let (events, _) = run(&g, &orders(&[("blue", sail("BF", "Bay"))]));
    let tries = with_rule(&events, "EiA 6.2.3");
    assert!(tries[0].text_for("red").contains("(by its standing order)"));
    assert!(!tries[0].text_for("pink").contains("(by "));
}

#[test]
fn eia_6_2_3_a_stronger_fleet_is_not_intercepted() {
    let state = format!(
        "[control]\nWest = \"red\"\n{}{}",
        fleet("BF", "blue", 12, "Ocean"),
        fleet("RF", "red", 10, "Bay")
    );
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", sail("BF", "Bay"))]));
    assert!(with_rule(&events, "EiA 6.2.3").is_empty());
}

/// EiA 6.2.3: a route that leaves the Bay and enters it again is tried twice by the fleet lying there,
/// under two labels (the second with `entry=2`): it resolves under every one of 200 seeds, and some of
/// them see both interceptions miss.
#[test]
fn eia_6_2_3_a_route_that_re_enters_a_sea_resolves_under_every_seed() {
    let (_d, g) = game(&sea_state(""));
    let route = EiaOrder::Move {
        unit: "BF".into(),
        with: Vec::new(),
        path: vec!["Bay".into(), "Ocean".into(), "Bay".into()],
    };
    let o = orders(&[("blue", route)]);
    let mut both_missed = 0;
    for s in 0..200u8 {
        let (events, _) = run_seed(&g, &o, [s; 32]);
        let labels: Vec<&str> = with_rule(&events, "EiA 6.2.3")
            .iter()
            .flat_map(|e| e.rolls.iter().map(|r| r.label.as_str()))
            .collect();
        if labels.len() == 2 {
            assert_eq!(
                labels,
                [
                    "intercept/sea=Bay/fleet=BF/power=red",
                    "intercept/sea=Bay/fleet=BF/power=red/entry=2"
                ]
            );
            both_missed += 1;
        }
    }
    assert!(both_missed > 0, "no seed of 200 missed both interceptions");
}

/// EiA 19.1, 6.3.5: two fleets intercepted in the same sea fight two battles whose labels name the
/// fleet intercepted, so they never share a die.
#[test]
fn eia_19_1_two_battles_in_one_sea_have_distinct_labels() {
    let state = format!(
        "[control]\nWest = \"red\"\nFar = \"blue\"\n{}{}{}",
        fleet("BF", "blue", 3, "Ocean"),
        fleet("BG", "blue", 3, "Ocean"),
        fleet("RF", "red", 12, "Bay")
    );
    let (_d, g) = game(&state);
    let o = orders(&[("blue", sail("BF", "Bay")), ("blue", sail("BG", "Bay"))]);
    let events = first_seed_where(&g, &o, |e| {
        e.iter().filter(|e| e.kind == "naval-combat").count() == 2
    });
    let firsts: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "naval-round" && e.text.starts_with("Round 1 "))
        .map(|e| e.rolls[0].label.as_str())
        .collect();
    assert_eq!(
        firsts,
        [
            "naval/sea=Bay/fleet=BF/round=1",
            "naval/sea=Bay/fleet=BG/round=1"
        ]
    );
}

#[test]
fn eia_6_3_2_intercepted_fleets_evade_unless_stronger() {
    let (_d, g) = game(&sea_state(""));
    let o = orders(&[("blue", sail("BF", "Bay"))]);
    let events = first_seed_where(&g, &o, |e| {
        e.iter().any(|e| e.text.contains(": intercepted."))
    });
    let evade = with_rule(&events, "EiA 6.3.2");
    assert_eq!(evade[0].rolls[0].label, "naval-evade/sea=Bay/fleet=BF");
    assert!(
        evade[0]
            .text
            .starts_with("BF tries to evade at Bay (5 ships against 10) (by the SOP)"),
        "{}",
        evade[0].text
    );
}

fn engage(sea: &str) -> EiaOrder {
    EiaOrder::Engage { sea: sea.into() }
}

#[test]
fn eia_6_3_a_fleet_attacks_the_enemy_fleets_in_its_sea_and_the_weaker_evade() {
    // Blue's 14 ships sail into the Bay, where red's 4 lie, and attack them: red, weaker, tries to
    // evade (6.3.2); caught, it fights.
    let state = format!(
        "[control]\nWest = \"red\"\nFar = \"blue\"\n{}{}",
        fleet("BF", "blue", 14, "Ocean"),
        fleet("RF", "red", 4, "Bay")
    );
    let (_d, g) = game(&state);
    let o = orders(&[("blue", sail("BF", "Bay")), ("blue", engage("Bay"))]);
    let (events, _) = run(&g, &o);
    let attack = with_rule(&events, "EiA 6.3")
        .into_iter()
        .find(|e| e.kind == "naval-attack")
        .expect("the attack is announced");
    assert_eq!(
        attack.text,
        "Blue attacks the fleets of Red at Bay: BF (14 ships) against RF (4 ships)."
    );
    let evade = with_rule(&events, "EiA 6.3.2");
    assert_eq!(
        evade[0].rolls[0].label,
        "naval-evade/sea=Bay/fleet=RF/attacker=blue"
    );
    assert!(
        evade[0]
            .text
            .starts_with("RF tries to evade at Bay (4 ships against 14) (by the SOP)"),
        "{}",
        evade[0].text
    );
    let caught = first_seed_where(&g, &o, |e| e.iter().any(|e| e.text.ends_with("caught.")));
    let battle = caught.iter().find(|e| e.kind == "naval-combat").unwrap();
    assert!(
        battle
            .text
            .starts_with("Naval battle at Bay: Blue (14 ships"),
        "{}",
        battle.text
    );
    let slipped = first_seed_where(&g, &o, |e| {
        e.iter().any(|e| e.text.contains("evades the attack"))
    });
    assert!(!slipped.iter().any(|e| e.kind == "naval-combat"));
}

#[test]
fn eia_6_3_2_a_stronger_fleet_attacked_does_not_evade() {
    let state = format!(
        "[control]\nWest = \"red\"\nFar = \"blue\"\n{}{}",
        fleet("BF", "blue", 4, "Ocean"),
        fleet("RF", "red", 6, "Bay")
    );
    let (_d, g) = game(&format!("[standing.red]\nintercept = \"never\"\n{state}"));
    let o = orders(&[("blue", sail("BF", "Bay")), ("blue", engage("Bay"))]);
    let (events, _) = run(&g, &o);
    assert!(
        with_rule(&events, "EiA 6.3.2").is_empty(),
        "stronger: no evasion"
    );
    assert!(events.iter().any(|e| e.kind == "naval-combat"));
}

#[test]
fn eia_6_3_2_an_intercepted_fleet_does_not_evade_when_its_side_is_stronger() {
    // Blue's 5 ships sail into the Bay, where red's 10 lie still and intercept them; blue's 6 ships
    // already there make blue's side 11 against 10: no evasion, the battle is fought.
    let (_d, g) = game(&sea_state(&fleet("BG", "blue", 6, "Bay")));
    let o = orders(&[("blue", sail("BF", "Bay"))]);
    let events = first_seed_where(&g, &o, |e| {
        e.iter().any(|e| e.text.contains(": intercepted."))
    });
    assert!(
        with_rule(&events, "EiA 6.3.2").is_empty(),
        "stronger: no evasion"
    );
    let battle = events.iter().find(|e| e.kind == "naval-combat").unwrap();
    assert!(
        battle.text.contains("against Blue (11 ships"),
        "{}",
        battle.text
    );
}

#[test]
fn eia_6_3_5_a_roll_among_equally_near_ports() {
    // Blue, beaten in the Ocean, has two friendly ports two moves away, West and Cove, both on the
    // Bay (a port next to the battle is blockaded by the victor): a die of 2 chooses.
    let state = format!(
        "[control]\nWest = \"blue\"\nCove = \"blue\"\nFar = \"red\"\n{}{}",
        fleet("BF", "blue", 6, "Ocean"),
        fleet("RF", "red", 12, "Far")
    );
    let (_d, g) = game_with_cove(&state);
    let o = orders(&[("red", sail("RF", "Ocean")), ("red", engage("Ocean"))]);
    let events = first_seed_where(&g, &o, |e| {
        e.iter()
            .any(|e| e.kind == "naval-retreat" && e.text.starts_with("Blue retreats"))
    });
    let retreat = events
        .iter()
        .find(|e| e.kind == "naval-retreat" && e.text.starts_with("Blue retreats"))
        .unwrap();
    // The engage battle is named by the attacked side's biggest fleet and the attacking power.
    assert_eq!(
        retreat.rolls[0].label,
        "naval-retreat/sea=Ocean/fleet=BF/attacker=red/power=blue"
    );
    assert_eq!(retreat.rolls[0].dice_names(), "d2");
    assert!(
        retreat
            .text
            .contains("(Cove and West are equally near, the die chooses)"),
        "{}",
        retreat.text
    );
    assert_eq!(
        retreat.decision.as_ref().unwrap().by,
        crate::decide::DecidedBy::Roll
    );
}

#[test]
fn eia_19_1_a_side_with_no_ship_left_loses_the_naval_battle() {
    // Blue's 2 ships, attacked by red's 12 in the Ocean, are all sunk in a round where red loses
    // more ships and as much morale: blue, with nothing left, does not win.
    let state = format!(
        "[control]\nWest = \"blue\"\nFar = \"red\"\n{}{}",
        fleet("BF", "blue", 2, "Ocean"),
        fleet("RF", "red", 12, "Far")
    );
    let (_d, g) = game(&state);
    let o = orders(&[("red", sail("RF", "Ocean")), ("red", engage("Ocean"))]);
    let events = first_seed_where(&g, &o, |e| {
        e.iter()
            .any(|e| e.kind == "naval-round" && e.text.contains("Blue loses 2 ships"))
    });
    let result = events.iter().find(|e| e.kind == "naval-result").unwrap();
    assert_eq!(result.text, "Red wins the battle at Ocean.");
}

#[test]
fn eia_19_1_when_both_sides_are_sunk_no_one_wins_the_naval_battle() {
    // One ship a side, both in melee: every result of the melee cell sinks at least one ship, so
    // both go down in round 1. Neither side wins, and neither retreats.
    let state = format!(
        "[standing.blue]\ntactics = \"melee\"\n[standing.red]\ntactics = \"melee\"\n[control]\nWest = \"blue\"\nFar = \"red\"\n{}{}",
        fleet("BF", "blue", 1, "Ocean"),
        fleet("RF", "red", 1, "Ocean")
    );
    let (_d, g) = game(&state);
    let o = orders(&[("blue", engage("Ocean"))]);
    let events = first_seed_where(&g, &o, |e| e.iter().any(|e| e.kind == "naval-round"));
    let result = events.iter().find(|e| e.kind == "naval-result").unwrap();
    assert_eq!(
        result.text,
        "Both sides are sunk at Ocean: no one wins the battle."
    );
    assert!(!events.iter().any(|e| e.kind == "naval-retreat"));
}

#[test]
fn eia_19_1_naval_combat_on_the_tactical_chart() {
    let (_d, g) = game(&sea_state("[standing.red]\ntactics = \"melee\"\n"));
    let o = orders(&[("blue", sail("BF", "Bay"))]);
    let events = first_seed_where(&g, &o, |e| e.iter().any(|e| e.kind == "naval-combat"));
    let tactics: Vec<&str> = events
        .iter()
        .filter(|e| e.text.contains(" fights in "))
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(
        tactics,
        [
            "Red fights in melee at Bay (by its standing order).",
            "Blue fights in linear-attack at Bay (by the SOP)."
        ]
    );
    let battle = events.iter().find(|e| e.kind == "naval-combat").unwrap();
    // Red, twice blue's ships, +1; blue, half red's, -1.
    assert_eq!(battle.text, "Naval battle at Bay: Red (10 ships, melee, modifier +1) against Blue (5 ships, linear-attack, modifier -1).");
    let round = events.iter().find(|e| e.kind == "naval-round").unwrap();
    assert_eq!(round.rolls[0].label, "naval/sea=Bay/fleet=BF/round=1");
    // Melee against a line: the melee fleet tries to close after round 1.
    if events.iter().filter(|e| e.kind == "naval-round").count() > 1 {
        assert!(events.iter().any(|e| e
            .rolls
            .iter()
            .any(|r| r.label == "closing/sea=Bay/fleet=BF/round=1")));
    }
}

/// Round 2 of red's melee (10 ships, +1) against blue's line (5 ships, -1) at the Bay, found by
/// `closes`: the text of round 2 and the losses the chart's `row` of the cell gives for its dice.
fn closing_round_2(closes: bool) -> (String, String) {
    use super::tables::parse_naval_result;
    use crate::rules::eia::state::Tenths;
    let (_d, g) = game(&sea_state("[standing.red]\ntactics = \"melee\"\n"));
    let o = orders(&[("blue", sail("BF", "Bay"))]);
    let wanted = if closes {
        "it closes to melee"
    } else {
        "the line holds it off"
    };
    let events = first_seed_where(&g, &o, |e| {
        e.iter().any(|e| e.text.ends_with(&format!("{wanted}.")))
            && e.iter().filter(|e| e.kind == "naval-round").count() == 2
    });
    let round = events
        .iter()
        .filter(|e| e.kind == "naval-round")
        .nth(1)
        .unwrap();
    let cell = eia(&g)
        .tables
        .naval
        .cell("melee", "linear-attack")
        .unwrap()
        .clone();
    let row = usize::from(closes);
    let col = |die: u32, m: i32| (((die as i32 + m).clamp(1, 6) - 1) / 2) as usize;
    let on_blue =
        parse_naval_result(&cell.attacker[row][col(round.rolls[0].dice[0].face, 1)]).unwrap();
    let on_red =
        parse_naval_result(&cell.defender[row][col(round.rolls[0].dice[1].face, -1)]).unwrap();
    let ships = |n: u32| {
        if n == 1 {
            "1 ship".to_string()
        } else {
            format!("{n} ships")
        }
    };
    let expected = format!(
        "Red loses {} and {} morale, Blue loses {} and {} morale.",
        ships(on_red.ships),
        Tenths(on_red.morale),
        ships(on_blue.ships),
        Tenths(on_blue.morale)
    );
    (round.text.clone(), expected)
}

#[test]
fn eia_19_1_closing_to_melee_the_2nd_row_follows_a_successful_close() {
    let (text, expected) = closing_round_2(true);
    assert!(
        text.contains("on the chart's 2nd row (closed to melee)"),
        "{text}"
    );
    assert!(text.ends_with(&expected), "{text} / {expected}");
}

#[test]
fn eia_19_1_closing_to_melee_failing_to_close_fights_the_1st_row_again() {
    let (text, expected) = closing_round_2(false);
    assert!(
        text.contains("on the chart's 1st row (not closed)"),
        "{text}"
    );
    assert!(text.ends_with(&expected), "{text} / {expected}");
}

#[test]
fn eia_6_3_5_victors_never_pursue_and_the_defeated_retreat_to_port() {
    let (_d, g) = game(&sea_state(""));
    let o = orders(&[("blue", sail("BF", "Bay"))]);
    // Blue, the weaker, is beaten; were red beaten, its port West, next to the Bay, would take it in:
    // the victors alone do not blockade a port against the stack they beat.
    let events = first_seed_where(&g, &o, |e| {
        e.iter()
            .any(|e| e.kind == "naval-retreat" && e.text.starts_with("Blue "))
    });
    let chase = with_rule(&events, "EiA 6.3.5");
    assert!(
        chase
            .iter()
            .any(|e| e.text.ends_with("does not pursue at Bay (by the SOP).")),
        "{chase:?}"
    );
    let retreat = events.iter().find(|e| e.kind == "naval-retreat").unwrap();
    // Blue's only friendly port is Far, two moves away; red's is West, next to the Bay.
    assert!(
        retreat
            .text
            .contains("to Far (the nearest unblockaded friendly port)")
            || retreat
                .text
                .contains("to West (the nearest unblockaded friendly port)"),
        "{}",
        retreat.text
    );
}

/// EiA 6.3.5: blue, beaten in the Bay by red's stack, goes home to West next to the Bay: the victors
/// alone watch it, and they do not make it blockaded against the stack they beat.
#[test]
fn eia_6_3_5_a_port_the_victors_alone_watch_is_open_to_the_beaten_fleet() {
    let state = format!(
        "[control]\nWest = \"blue\"\nFar = \"red\"\n{}{}",
        fleet("BF", "blue", 5, "Bay"),
        fleet("RF", "red", 12, "Ocean")
    );
    let (_d, g) = game(&state);
    let o = orders(&[("red", sail("RF", "Bay")), ("red", engage("Bay"))]);
    let events = first_seed_where(&g, &o, |e| {
        e.iter()
            .any(|e| e.kind == "naval-retreat" && e.text.starts_with("Blue "))
    });
    let retreat = events.iter().find(|e| e.kind == "naval-retreat").unwrap();
    assert_eq!(
        retreat.text,
        "Blue retreats from Bay to West (the nearest unblockaded friendly port): BF."
    );
    assert_eq!(retreat.rule, "EiA 6.3.5");
}

/// EiA 6.3.5: two friendly ports equally near, both blockaded: the die chooses the one the beaten
/// stack sails one sea area toward, as it chooses among ports it reaches.
#[test]
fn eia_6_3_5_a_roll_among_equally_near_ports_the_fleet_only_sails_toward() {
    let state = format!(
        "[control]\nWest = \"blue\"\nCove = \"blue\"\nFar = \"red\"\n{}{}{}",
        fleet("BF", "blue", 5, "Ocean"),
        fleet("RF", "red", 12, "Ocean"),
        fleet("RW", "red", 2, "Bay")
    );
    let (_d, g) = game_with_cove(&state);
    let o = orders(&[("red", engage("Ocean"))]);
    let events = first_seed_where(&g, &o, |e| {
        e.iter()
            .any(|e| e.kind == "naval-retreat" && e.text.starts_with("Blue "))
    });
    let retreat = events.iter().find(|e| e.kind == "naval-retreat").unwrap();
    assert_eq!(retreat.rolls.len(), 1, "{}", retreat.text);
    assert_eq!(retreat.rolls[0].dice_names(), "d2");
    let toward = ["Cove", "West"][retreat.rolls[0].dice[0].face as usize - 1];
    assert_eq!(
        retreat.text,
        format!("Blue retreats from Ocean to Bay (every friendly port is blockaded: one sea area toward the nearest, {toward} (Cove and West are equally near, the die chooses)): BF.")
    );
    assert_eq!(
        retreat.decision.as_ref().unwrap().by,
        crate::decide::DecidedBy::Roll
    );
}

/// EiA 6.3.5: a port watched by an enemy fleet that did not fight is blockaded; when every friendly
/// port is, the beaten stack still retreats, one sea area toward the nearest (the seed has no case
/// where it stays).
#[test]
fn eia_6_3_5_every_port_blockaded_the_beaten_fleet_retreats_one_sea_toward_one() {
    let state = format!(
        "[control]\nWest = \"blue\"\nFar = \"red\"\n{}{}{}",
        fleet("BF", "blue", 5, "Ocean"),
        fleet("RF", "red", 12, "Ocean"),
        fleet("RW", "red", 2, "Bay")
    );
    let (_d, g) = game(&state);
    let o = orders(&[("red", engage("Ocean"))]);
    let seed = (0..200u8)
        .find(|&s| {
            run_seed(&g, &o, [s; 32])
                .0
                .iter()
                .any(|e| e.kind == "naval-retreat" && e.text.starts_with("Blue "))
        })
        .expect("some seed sees blue beaten");
    let (events, next) = run_seed(&g, &o, [seed; 32]);
    let retreat = events.iter().find(|e| e.kind == "naval-retreat").unwrap();
    assert_eq!(
        retreat.text,
        "Blue retreats from Ocean to Bay (every friendly port is blockaded: one sea area toward the nearest, West): BF."
    );
    assert_eq!(
        EiaState::of(&next)
            .find_fleet("BF")
            .map(|f| f.area.get_ref().as_str()),
        Some("Bay")
    );
}

/// EiA 6.2.3: the non-moving fleets of allies in the sea entered count together against the moving
/// fleet: red's 4 and pink's 4 intercept blue's 6, though neither alone outnumbers it.
#[test]
fn eia_6_2_3_non_moving_fleets_of_allies_intercept_together() {
    let state = format!(
        "alliances = [[\"red\", \"pink\"]]\n[control]\nWest = \"red\"\nFar = \"blue\"\n{}{}{}",
        fleet("BF", "blue", 6, "Ocean"),
        fleet("RF", "red", 4, "Bay"),
        fleet("PF", "pink", 4, "Bay")
    );
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", sail("BF", "Bay"))]));
    let tries = with_rule(&events, "EiA 6.2.3");
    assert_eq!(tries.len(), 1, "{tries:?}");
    assert_eq!(
        tries[0].rolls[0].label,
        "intercept/sea=Bay/fleet=BF/power=pink"
    );
    assert!(
        tries[0].text.starts_with(
            "PF, RF (pink, red, 8 ships) try to intercept BF (6 ships) at Bay (by the SOP)"
        ),
        "{}",
        tries[0].text
    );
}

/// EiA 6.2.3: two fleets moving as one stack (`move BF with BG`) are weighed together: red's 8 do
/// not intercept blue's 10, though each of blue's fleets alone has fewer ships.
#[test]
fn eia_6_2_3_a_stack_of_fleets_is_intercepted_as_one() {
    let state = format!(
        "[control]\nWest = \"red\"\nFar = \"blue\"\n{}{}{}",
        fleet("BF", "blue", 5, "Ocean"),
        fleet("BG", "blue", 5, "Ocean"),
        fleet("RF", "red", 8, "Bay")
    );
    let (_d, g) = game(&state);
    let stack = EiaOrder::Move {
        unit: "BF".into(),
        with: vec!["BG".into()],
        path: vec!["Bay".into()],
    };
    let (events, next) = run(&g, &orders(&[("blue", stack)]));
    assert!(with_rule(&events, "EiA 6.2.3").is_empty(), "{events:?}");
    for id in ["BF", "BG"] {
        assert_eq!(
            EiaState::of(&next)
                .find_fleet(id)
                .map(|f| f.area.get_ref().as_str()),
            Some("Bay")
        );
    }
    // Apart, each is tried.
    let (events, _) = run(
        &g,
        &orders(&[("blue", sail("BF", "Bay")), ("blue", sail("BG", "Bay"))]),
    );
    assert!(!with_rule(&events, "EiA 6.2.3").is_empty());
}

/// EiA 6.3.5: victorious fleets never pursue, a `chase = "always"` kept in the state passed over; a
/// game that names the option `chase-by-order` lets it send them after the beaten on the General
/// Chase chart.
#[test]
fn eia_6_3_5_victorious_fleets_never_pursue_unless_the_game_names_chase_by_order() {
    let state = sea_state("[standing.red]\nchase = \"always\"\n");
    let o = orders(&[("blue", sail("BF", "Bay"))]);
    let red_wins = |e: &[Event]| {
        e.iter()
            .any(|e| e.kind == "naval-result" && e.text.starts_with("Red wins"))
    };
    let (_d, g) = game(&state);
    let events = first_seed_where(&g, &o, red_wins);
    assert!(
        with_rule(&events, "EiA 6.3.5")
            .iter()
            .any(|e| e.text == "Red does not pursue at Bay (by the SOP)."),
        "{events:?}"
    );
    assert!(!events.iter().any(|e| e.kind == "chase"));
    let (_d, g) = game_with_options(&state, &["chase-by-order"]);
    let events = first_seed_where(&g, &o, red_wins);
    assert!(
        events.iter().any(|e| e.kind == "chase"
            && e.text
                .starts_with("Red gives chase at Bay (by its standing order)")),
        "{events:?}"
    );
}

/// EiA 19.1, the Closing to Melee table: Nelson (an admiral on a fleet of the melee side) adds his
/// -2 to its roll to close; on the linear side he does nothing to it.
#[test]
fn eia_19_1_nelson_s_modifier_on_the_closing_to_melee_roll() {
    let nelson = "admiral = { name = \"Nelson\", closing = -2 }\n";
    let closing = |e: &[Event]| e.iter().any(|e| e.kind == "closing");
    let o = orders(&[("blue", sail("BF", "Bay"))]);
    // Red's 10 ships, in melee, with Nelson.
    let state = format!(
        "[standing.red]\ntactics = \"melee\"\n[control]\nWest = \"red\"\nFar = \"blue\"\n{}{}{nelson}",
        fleet("BF", "blue", 5, "Ocean"),
        fleet("RF", "red", 10, "Bay"),
    );
    let (_d, g) = game(&state);
    let mut tried = 0;
    for s in 0..60u8 {
        let (events, _) = run_seed(&g, &o, [s; 32]);
        let Some(e) = events.iter().find(|e| e.kind == "closing") else {
            continue;
        };
        tried += 1;
        let face = e.rolls[0].dice[0].face as i32;
        let closes = face - 2 <= 4;
        assert_eq!(
            e.text,
            format!(
                "The melee fleet at Bay tries to close: rolls {face}, Nelson -2: {}, needs 4 or less: {}.",
                face - 2,
                if closes { "it closes to melee" } else { "the line holds it off" }
            )
        );
    }
    assert!(tried > 0, "no seed of 60 saw red try to close");
    // Nelson with blue's line: red's roll to close is its die alone.
    let state = format!(
        "[standing.red]\ntactics = \"melee\"\n[control]\nWest = \"red\"\nFar = \"blue\"\n{}{nelson}{}",
        fleet("BF", "blue", 5, "Ocean"),
        fleet("RF", "red", 10, "Bay"),
    );
    let (_d, g) = game(&state);
    let events = first_seed_where(&g, &o, closing);
    let e = events.iter().find(|e| e.kind == "closing").unwrap();
    assert!(!e.text.contains("Nelson"), "{}", e.text);
}

#[test]
fn eia_19_1_the_strongest_admiral_of_the_melee_side_counts() {
    use super::naval::closing_modifier;
    let admirals = [("Collingwood".to_string(), -1), ("Nelson".to_string(), -2)];
    assert_eq!(
        closing_modifier(admirals.iter()),
        Some(("Nelson".to_string(), -2))
    );
    assert_eq!(closing_modifier([].iter()), None);
}

/// A closing modifier other than -1 or -2 is refused where the state gives it.
#[test]
fn eia_19_1_an_admiral_s_modifier_is_minus_one_or_minus_two() {
    let state = format!(
        "game = \"test\"\nturn = 1\n{}admiral = {{ name = \"Nelson\", closing = -3 }}\n",
        fleet("RF", "red", 10, "Bay")
    );
    let (_d, g) = game("");
    let parsed = g
        .ruleset
        .parse_state(&crate::diag::Source::new("state.toml", state))
        .unwrap();
    let problems = g.ruleset.check_state(&g, &parsed);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("-1 or -2"), "{problems:?}");
}

#[test]
fn eia_19_1_majority_of_ships_british_means_more_than_half() {
    use super::naval::chart_modifier;
    let side = |v: &[(&str, u32)]| -> Vec<(String, u32)> {
        v.iter().map(|(p, n)| (p.to_string(), *n)).collect()
    };
    // Britain has the most ships of the side, 4 of 9, but not the majority: no +1.
    let most_not_majority = side(&[("britain", 4), ("spain", 3), ("russia", 2)]);
    assert_eq!(chart_modifier(&most_not_majority, "linear-attack", 9), -1);
    // 5 of 9 is a majority: +1.
    let majority = side(&[("britain", 5), ("spain", 2), ("russia", 2)]);
    assert_eq!(chart_modifier(&majority, "linear-attack", 9), 0);
    assert_eq!(chart_modifier(&majority, "melee", 9), 0);
    assert_eq!(chart_modifier(&majority, "linear-defence", 9), -1);
    // Half is no majority; the French one counts in linear defence only.
    let half = side(&[("france", 4), ("spain", 4)]);
    assert_eq!(chart_modifier(&half, "linear-defence", 8), 0);
    let french = side(&[("france", 5), ("spain", 3)]);
    assert_eq!(chart_modifier(&french, "linear-defence", 8), 1);
    assert_eq!(chart_modifier(&french, "linear-attack", 8), 0);
}

#[test]
fn eia_19_1_chart_reading() {
    use super::tables::{parse_naval_result, NavalTable};
    let t = NavalTable::default();
    let cell = t.cell("melee", "linear-attack").unwrap();
    assert_eq!(
        cell.attacker.len(),
        2,
        "melee against a line fights two rounds"
    );
    assert_eq!(parse_naval_result(&cell.defender[0][2]).unwrap().ships, 4);
    assert_eq!(parse_naval_result("-").unwrap().ships, 0);
    assert_eq!(t.chase_for(3), (5, 1));
    assert_eq!(t.chase_for(40), (1, 1));
    assert_eq!(t.closing["linear-attack"], 4);
    assert_eq!(t.closing["linear-defence"], 3);
}

#[test]
fn eia_10_1_4_1_insurrection_corps_rise_when_an_enemy_enters_a_border_province() {
    let state = [
        "[[eia.insurrection]]\nid = \"RI-1\"\npower = \"red\"\nfactors = 4\nmorale = 3.0\nmovement = 2\n".to_string(),
        corps("B1", "blue", "infantry", 3, "3.0", "Mid"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let mv = EiaOrder::Move {
        unit: "B1".into(),
        with: Vec::new(),
        path: vec!["Side".into()],
    };
    let (events, next) = run(&g, &orders(&[("blue", mv), ("red", attack("Side"))]));
    let raised = with_rule(&events, "EiA 10.1.4.1");
    assert_eq!(
        raised[0].text,
        "An enemy entered the border province of Side: Red raises the insurrection corps RI-1 there (by the SOP, 4 factors)."
    );
    // EiA 10.1.4.1.4: the special insurrection land phase: the new corps attack as red ordered.
    assert_eq!(
        with_rule(&events, "EiA 10.1.4.1.4")[0].text,
        "In the special insurrection land phase, RI-1 attacks the enemy in Side (by Red's order)."
    );
    assert!(events.iter().any(|e| e.kind == "combat"
        && e.area.as_deref() == Some("Side")
        && e.text.contains("Red with RI-1")));
    assert!(
        EiaState::of(&next).insurrection.is_empty(),
        "the corps left the waiting list"
    );
    assert!(
        EiaState::of(&next).find_corps("RI-1").is_some()
            || events
                .iter()
                .any(|e| e.text.contains("RI-1") && (e.kind == "retreat" || e.kind == "unit-lost")),
        "{:?}",
        events.iter().map(|e| &e.text).collect::<Vec<_>>()
    );
}

#[test]
fn eia_10_1_4_1_4_the_insurrection_corps_fight_in_a_land_phase_of_their_own_after_the_turn_s_combats(
) {
    let state = [
        "[[eia.insurrection]]\nid = \"RI-1\"\npower = \"red\"\nfactors = 4\nmorale = 3.0\nmovement = 2\n".to_string(),
        corps("B1", "blue", "infantry", 3, "3.0", "Mid"),
        corps("B2", "blue", "infantry", 5, "3.0", "West"),
        corps("R2", "red", "infantry", 5, "3.0", "West"),
        corps("B3", "blue", "infantry", 5, "3.0", "Far"),
        corps("R3", "red", "infantry", 5, "3.0", "Far"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let mv = EiaOrder::Move {
        unit: "B1".into(),
        with: Vec::new(),
        path: vec!["Side".into()],
    };
    let o = orders(&[
        ("blue", mv),
        ("blue", attack("West")),
        ("blue", attack("Far")),
        ("red", attack("Side")),
    ]);
    let (events, _) = run(&g, &o);
    // The turn's combats draw their order keys without Side...
    let keyed: Vec<&str> = with_rule(&events, "EiA 7.5.1.3")
        .iter()
        .filter_map(|e| e.area.as_deref())
        .collect();
    assert!(
        keyed.len() == 2 && keyed.contains(&"Far") && keyed.contains(&"West"),
        "{keyed:?}"
    );
    // ...and Side is fought after them, in the special land phase.
    let combats: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "combat")
        .filter_map(|e| e.area.as_deref())
        .collect();
    assert_eq!(combats.last(), Some(&"Side"), "{combats:?}");
    assert_eq!(combats.len(), 3, "{combats:?}");
    let phase = events
        .iter()
        .position(|e| e.rule == "EiA 10.1.4.1.4" && e.kind == "insurrection")
        .unwrap();
    let last_ordinary = events
        .iter()
        .rposition(|e| e.kind == "combat" && e.area.as_deref() != Some("Side"))
        .unwrap();
    assert!(
        phase > last_ordinary,
        "the special phase follows the turn's combats"
    );
}

#[test]
fn eia_10_1_4_1_4_an_insurrection_corps_moves_in_its_special_land_phase() {
    // RI-1 rises in Side, where blue's B1 entered; red ordered it to East, where B4 stands: it
    // moves there in the special land phase, stops at the enemy and attacks him.
    let state = [
        "[[eia.insurrection]]\nid = \"RI-1\"\npower = \"red\"\nfactors = 4\nmorale = 3.0\nmovement = 2\n".to_string(),
        corps("B1", "blue", "infantry", 3, "3.0", "Mid"),
        corps("B4", "blue", "infantry", 2, "3.0", "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let o = orders(&[
        (
            "blue",
            EiaOrder::Move {
                unit: "B1".into(),
                with: Vec::new(),
                path: vec!["Side".into()],
            },
        ),
        (
            "red",
            EiaOrder::Move {
                unit: "RI-1".into(),
                with: Vec::new(),
                path: vec!["East".into()],
            },
        ),
        ("red", attack("East")),
    ]);
    let (events, _) = run(&g, &o);
    assert!(
        events
            .iter()
            .any(|e| e.text == "RI-1 (Red) moves Side - East."),
        "{:?}",
        events.iter().map(|e| &e.text).collect::<Vec<_>>()
    );
    assert!(events.iter().any(|e| e.kind == "combat"
        && e.area.as_deref() == Some("East")
        && e.text.contains("Red with RI-1")));
    assert!(!events
        .iter()
        .any(|e| e.kind == "combat" && e.area.as_deref() == Some("Side")));
}

#[test]
fn eia_10_1_4_1_a_standing_order_keeps_the_insurrection_home() {
    let state = [
        "[standing.red]\ninsurrection = \"never\"\n".to_string(),
        "[[eia.insurrection]]\nid = \"RI-1\"\npower = \"red\"\nfactors = 4\nmorale = 3.0\nmovement = 2\n".to_string(),
        corps("B1", "blue", "infantry", 3, "3.0", "Mid"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let mv = EiaOrder::Move {
        unit: "B1".into(),
        with: Vec::new(),
        path: vec!["Side".into()],
    };
    let (events, next) = run(&g, &orders(&[("blue", mv)]));
    assert_eq!(
        with_rule(&events, "EiA 10.1.4.1")[0].text,
        "Red raises no insurrection corps in Side (by its standing order)."
    );
    assert_eq!(EiaState::of(&next).insurrection.len(), 1);
}

#[test]
fn eia_6_2_5_the_biggest_fleet_in_the_stack_carries_the_corps() {
    let state = [
        fleet("BF1", "blue", 3, "Bay"),
        fleet("BF2", "blue", 5, "Bay"),
        fleet("BF3", "blue", 2, "Ocean"),
        corps("B1", "blue", "infantry", 4, "3.0", "West"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let mv = EiaOrder::Move {
        unit: "B1".into(),
        with: Vec::new(),
        path: vec!["Bay".into(), "Ocean".into(), "Far".into()],
    };
    let (events, next) = run(&g, &orders(&[("blue", mv)]));
    let carried: Vec<&str> = with_rule(&events, "EiA 6.2.5")
        .iter()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(
        carried,
        [
            "BF2, the biggest fleet of Blue in Bay, carries B1 across.",
            "BF3, the biggest fleet of Blue in Ocean, carries B1 across."
        ]
    );
    assert_eq!(
        EiaState::of(&next)
            .find_corps("B1")
            .map(|c| c.area.get_ref().as_str()),
        Some("Far")
    );
}

#[test]
fn eia_6_2_5_without_a_fleet_the_corps_stays_on_the_coast() {
    // The fleet in the Bay sails away in the naval phase, before the corps moves.
    let state = [
        fleet("BF1", "blue", 3, "Bay"),
        corps("B1", "blue", "infantry", 4, "3.0", "West"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let mv = EiaOrder::Move {
        unit: "B1".into(),
        with: Vec::new(),
        path: vec!["Bay".into(), "Ocean".into(), "Far".into()],
    };
    let (events, next) = run(&g, &orders(&[("blue", sail("BF1", "Ocean")), ("blue", mv)]));
    assert!(with_rule(&events, "EiA 6.2.5")
        .iter()
        .any(|e| e.text == "B1 stays on the coast: no fleet of Blue is left in Bay to carry it."));
    assert_eq!(
        EiaState::of(&next)
            .find_corps("B1")
            .map(|c| c.area.get_ref().as_str()),
        Some("West")
    );
}

#[test]
fn eia_10_1_4_1_4_insurrection_corps_attack_only_where_their_power_orders_it() {
    // RI-1 rises in Side next to blue's B1; red writes no attack: no combat in the special phase.
    let state = [
        "[[eia.insurrection]]\nid = \"RI-1\"\npower = \"red\"\nfactors = 4\nmorale = 3.0\nmovement = 2\n".to_string(),
        corps("B1", "blue", "infantry", 3, "3.0", "Mid"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let mv = EiaOrder::Move {
        unit: "B1".into(),
        with: Vec::new(),
        path: vec!["Side".into()],
    };
    let (events, next) = run(&g, &orders(&[("blue", mv)]));
    assert!(
        !events.iter().any(|e| e.kind == "combat"),
        "no attack without an order"
    );
    assert_eq!(
        with_rule(&events, "EiA 10.1.4.1.4")[0].text,
        "In the special insurrection land phase, RI-1 does not attack the enemy in Side: Red declared no attack there."
    );
    assert!(
        EiaState::of(&next).find_corps("RI-1").is_some(),
        "RI-1 stands in Side"
    );
}

/// The test map with a second border province of red's, Field.
fn two_borders_map() -> String {
    MAP.replace(
        "adjacent = [\"Mid\", \"East\", \"Side\"]\n",
        "adjacent = [\"Mid\", \"East\", \"Side\"]\nborder = \"red\"\n",
    )
}

/// Two waiting insurrection corps of red's; blue's B1 and B2 enter Side and Field, raising both.
fn two_risings(extra: &str) -> (String, Vec<(&'static str, EiaOrder)>) {
    let levy = |id: &str| {
        format!("[[eia.insurrection]]\nid = \"{id}\"\npower = \"red\"\nfactors = 4\nmorale = 3.0\nmovement = 2\n")
    };
    let state = [
        levy("RI-1"),
        levy("RI-2"),
        corps("B1", "blue", "infantry", 3, "3.0", "Mid"),
        corps("B2", "blue", "infantry", 3, "3.0", "Mid"),
        extra.to_string(),
    ]
    .concat();
    let mv = |unit: &str, to: &str| EiaOrder::Move {
        unit: unit.into(),
        with: Vec::new(),
        path: vec![to.into()],
    };
    (
        state,
        vec![("blue", mv("B1", "Side")), ("blue", mv("B2", "Field"))],
    )
}

#[test]
fn eia_10_1_4_1_4_insurrection_corps_besiege_a_city_as_other_corps_do() {
    // RI-1 and RI-2 march on East, where blue's B4 alone stands: outnumbered, it retires into the
    // city (7.5.1.1), and the insurrection corps besiege it (7.5.4), with the phase's own labels.
    let (state, mut o) = two_risings(&corps("B4", "blue", "infantry", 2, "3.0", "East"));
    let (_d, g) = game_on(&two_borders_map(), &state);
    let mv = |unit: &str| EiaOrder::Move {
        unit: unit.into(),
        with: Vec::new(),
        path: vec!["East".into()],
    };
    o.extend([
        ("red", mv("RI-1")),
        ("red", mv("RI-2")),
        ("red", attack("East")),
    ]);
    let (events, _) = run(&g, &orders(&o));
    assert!(
        with_rule(&events, "EiA 7.5.1.1")
            .iter()
            .any(|e| e.text.starts_with("B4 retires into the city of East")),
        "{:?}",
        events.iter().map(|e| &e.text).collect::<Vec<_>>()
    );
    let siege: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "siege")
        .flat_map(|e| e.rolls.iter().map(|r| r.label.as_str()))
        .collect();
    assert!(
        siege.contains(&"sortie/area=East/phase=insurrection"),
        "{siege:?}"
    );
}

#[test]
fn eia_10_1_4_1_4_the_special_phase_combats_draw_their_own_order_keys() {
    // RI-1 and RI-2 stay where they rose and attack B1 in Side and B2 in Field: each combat draws
    // its key, `insurrection-order/area=<area>`, seen by the powers of that battle.
    let (state, mut o) = two_risings("");
    let (_d, g) = game_on(&two_borders_map(), &state);
    o.extend([("red", attack("Side")), ("red", attack("Field"))]);
    let (events, _) = run(&g, &orders(&o));
    let mut keys: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "combat-order")
        .flat_map(|e| e.rolls.iter().map(|r| r.label.as_str()))
        .collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "insurrection-order/area=Field",
            "insurrection-order/area=Side"
        ]
    );
    let order: Vec<&Event> = events.iter().filter(|e| e.kind == "combat-order").collect();
    assert!(order.iter().all(|e| e.rule == "EiA 10.1.4.1.4"));
    let first = order[0].area.clone().unwrap();
    let fought_first = events
        .iter()
        .find(|e| e.kind == "combat")
        .and_then(|e| e.area.clone())
        .unwrap();
    assert_eq!(first, fought_first, "the lowest key is fought first");
}

#[test]
fn eia_10_1_4_1_4_an_area_fought_over_this_turn_is_fought_again_in_the_special_phase() {
    // Red's R1 attacks blue's strong B4 in East in the turn's land phase; then RI-1, risen in Side,
    // marches to East and attacks again in the special phase, on labels of its own.
    let state = [
        "[[eia.insurrection]]\nid = \"RI-1\"\npower = \"red\"\nfactors = 4\nmorale = 3.0\nmovement = 2\n".to_string(),
        corps("B1", "blue", "infantry", 3, "3.0", "Mid"),
        corps("B4", "blue", "infantry", 9, "4.0", "East"),
        corps("R1", "red", "infantry", 1, "2.0", "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let o = orders(&[
        (
            "blue",
            EiaOrder::Move {
                unit: "B1".into(),
                with: Vec::new(),
                path: vec!["Side".into()],
            },
        ),
        (
            "red",
            EiaOrder::Move {
                unit: "RI-1".into(),
                with: Vec::new(),
                path: vec!["East".into()],
            },
        ),
        ("red", attack("East")),
    ]);
    let (events, _) = run(&g, &o);
    let rounds: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "round" && e.area.as_deref() == Some("East"))
        .flat_map(|e| e.rolls.iter().map(|r| r.label.as_str()))
        .filter(|l| l.ends_with("round=1") || l.ends_with("round=1/phase=insurrection"))
        .collect();
    assert!(
        rounds.contains(&"combat/area=East/round=1")
            && rounds.contains(&"combat/area=East/round=1/phase=insurrection"),
        "{rounds:?}"
    );
}

/// EiA 10.1.4.1.4: a corps raised where its power attacks in the turn's land phase fights in that
/// attack; that was its land phase, and it has no special one: one land phase a corps, never two.
#[test]
fn eia_10_1_4_1_4_an_insurrection_corps_that_attacked_in_the_turn_s_phase_has_no_special_phase() {
    // Blue's B1 enters Side, a red border province with a city, and raises RI-1 there; red's R2
    // attacks Side: B1, outnumbered by R2 and RI-1, retires into the city (7.5.1.1), and R2 and RI-1
    // besiege it in the turn's phase, and not again after it.
    let map = MAP.replace(
        "border = \"red\"\n",
        "border = \"red\"\ncity = { garrison = 2, fortress = 0 }\n",
    );
    let state = [
        "[[eia.insurrection]]\nid = \"RI-1\"\npower = \"red\"\nfactors = 4\nmorale = 3.0\nmovement = 2\n".to_string(),
        corps("B1", "blue", "infantry", 3, "3.0", "Mid"),
        corps("R2", "red", "infantry", 5, "3.0", "Side"),
    ]
    .concat();
    let (_d, g) = game_on(&map, &state);
    let o = orders(&[
        (
            "blue",
            EiaOrder::Move {
                unit: "B1".into(),
                with: Vec::new(),
                path: vec!["Side".into()],
            },
        ),
        ("red", attack("Side")),
    ]);
    // A seed where the walls hold in the turn's phase: B1 is still in the city after it.
    let events = first_seed_where(&g, &o, |e| {
        e.iter()
            .any(|e| e.area.as_deref() == Some("Side") && e.text.contains("the walls hold"))
    });
    let texts: Vec<&String> = events.iter().map(|e| &e.text).collect();
    assert!(
        events
            .iter()
            .any(|e| e.text.starts_with("B1 retires into the city of Side")),
        "{texts:#?}"
    );
    let labels: Vec<&str> = events
        .iter()
        .flat_map(|e| e.rolls.iter().map(|r| r.label.as_str()))
        .collect();
    assert!(labels.contains(&"siege/area=Side"), "{labels:?}");
    assert!(
        !labels.iter().any(|l| l.ends_with("phase=insurrection")),
        "RI-1 besieges Side once: {labels:?}"
    );
    let phase = with_rule(&events, "EiA 10.1.4.1.4");
    assert_eq!(
        phase.iter().map(|e| e.text.as_str()).collect::<Vec<_>>(),
        ["RI-1 attacked with Red's corps in the turn's land phase: that was its land phase, and it has no special insurrection land phase (EiA 10.1.4.1.4)."],
        "{texts:#?}"
    );
}

#[test]
fn eia_6_3_a_sea_that_saw_a_battle_may_see_another() {
    // Blue and pink each attack red's 10 ships in the Bay with 4 of their own: red, stronger, does
    // not evade (6.3.2) and fights both, each battle named by its attacker.
    let state = [
        fleet("RF", "red", 10, "Bay"),
        fleet("BF", "blue", 4, "Bay"),
        fleet("PF", "pink", 4, "Bay"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let o = orders(&[("blue", engage("Bay")), ("pink", engage("Bay"))]);
    let events = first_seed_where(&g, &o, |e| {
        e.iter().filter(|e| e.kind == "naval-combat").count() >= 2
    });
    let firsts: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "naval-round")
        .flat_map(|e| e.rolls.iter().map(|r| r.label.as_str()))
        .filter(|l| l.ends_with("round=1"))
        .collect();
    assert!(
        firsts.contains(&"naval/sea=Bay/fleet=RF/attacker=blue/round=1")
            && firsts.contains(&"naval/sea=Bay/fleet=RF/attacker=pink/round=1"),
        "{firsts:?}"
    );
}

/// Red's R3 retires into the city of East before blue's B4 and B5 (EiA 7.5.1.1) and holds; then red's
/// insurrection corps RI-1, raised in Side by B1, marches to East in its special land phase and
/// attacks the besiegers (10.1.4.1.4).
fn garrison_and_insurrection(seed: [u8; 32]) -> (Vec<Event>, crate::game::state::State) {
    let state = [
        "[[eia.insurrection]]\nid = \"RI-1\"\npower = \"red\"\nfactors = 4\nmorale = 3.0\nmovement = 2\n".to_string(),
        corps("B1", "blue", "infantry", 3, "3.0", "Mid"),
        corps("B4", "blue", "infantry", 2, "3.0", "East"),
        corps("B5", "blue", "infantry", 2, "3.0", "East"),
        corps("R3", "red", "infantry", 3, "3.0", "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let o = orders(&[
        (
            "blue",
            EiaOrder::Move {
                unit: "B1".into(),
                with: Vec::new(),
                path: vec!["Side".into()],
            },
        ),
        ("blue", attack("East")),
        (
            "red",
            EiaOrder::Move {
                unit: "RI-1".into(),
                with: Vec::new(),
                path: vec!["East".into()],
            },
        ),
        ("red", attack("East")),
    ]);
    run_seed(&g, &o, seed)
}

#[test]
fn eia_7_5_2_11_a_besieged_corps_in_the_city_does_not_reinforce_the_field_battle() {
    let (events, _) = garrison_and_insurrection(SEED);
    let texts: Vec<&String> = events.iter().map(|e| &e.text).collect();
    assert!(
        events
            .iter()
            .any(|e| e.rule == "EiA 7.5.4" && e.text.contains("the walls hold")),
        "{texts:#?}"
    );
    let city: Vec<&Event> = with_rule(&events, "EiA 7.5.2.11")
        .into_iter()
        .filter(|e| e.text.contains("R3"))
        .collect();
    assert_eq!(city.len(), 1, "{texts:#?}");
    assert_eq!(
        city[0].text,
        "R3 (Red) is besieged in the city of East: it cannot march out to the battle (EiA 7.5.2.11: only unbesieged corps in the city try)."
    );
    assert!(city[0].rolls.is_empty());
    let battle = events
        .iter()
        .find(|e| e.kind == "combat" && e.area.as_deref() == Some("East"))
        .expect("the insurrection battle at East");
    assert!(battle.text.contains("Red with RI-1 "), "{}", battle.text);
}

/// A phase on `state` with red's R3 in the city of East, as after retiring into it (EiA 7.5.1.1) in
/// the land phase, and the special insurrection land phase under way (10.1.4.1.4); `besiegers` are
/// the powers that besieged East this turn (7.5.4).
fn with_red_garrison_at_east(
    g: &Game,
    dice: &mut DiceBox,
    besiegers: &[&str],
) -> (Vec<Event>, Vec<String>) {
    use super::board::Board;
    use super::phase::Phase;
    use std::collections::BTreeSet;
    let state = g.load_state(1).unwrap();
    let mut phase = Phase {
        eia: eia(g),
        map: &g.map,
        board: Board::new(&g.map, &state),
        dice,
        events: Vec::new(),
        chits: BTreeMap::new(),
        outflankers: BTreeMap::new(),
        evaded: BTreeSet::new(),
        fought: BTreeSet::new(),
        attacked: BTreeSet::new(),
        standing: state.standing.clone(),
        battlefields: BTreeSet::new(),
        besiegers: BTreeMap::new(),
        depots: BTreeMap::new(),
        control: &state.control,
        stage: Some("insurrection"),
        words: super::Words::of(g),
    };
    let east = g.map.find("East").unwrap();
    let r3 = phase.board.find_corps("R3").unwrap();
    phase.board.corps[r3].in_city = true;
    if !besiegers.is_empty() {
        phase
            .besiegers
            .insert(east, besiegers.iter().map(|p| p.to_string()).collect());
    }
    phase.battlefields.insert(east);
    phase.fight(east, "red").unwrap();
    let in_field: Vec<String> = phase
        .board
        .corps
        .iter()
        .filter(|c| c.area == east && !c.in_city && !c.eliminated)
        .map(|c| c.id.clone())
        .collect();
    (phase.events, in_field)
}

#[test]
fn eia_7_5_2_11_an_unbesieged_corps_in_the_city_tries_to_march_out_to_the_battle() {
    // Grey's G1 stands at East but never besieged it; red's RI-1 attacks it, red's R3 in the city may
    // join; red's leader in East (rating 6) makes any d6 succeed.
    let state = [
        corps("RI-1", "red", "infantry", 4, "3.0", "East"),
        corps("R3", "red", "infantry", 2, "3.0", "East"),
        corps("G1", "grey", "infantry", 2, "3.0", "East"),
        leader("RedLeader", "red", 6, 1, "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let mut dice = DiceBox::new(SEED);
    let (events, _) = with_red_garrison_at_east(&g, &mut dice, &["blue"]);
    let texts: Vec<&String> = events.iter().map(|e| &e.text).collect();
    let tries: Vec<&Event> = with_rule(&events, "EiA 7.5.2.11");
    assert_eq!(tries.len(), 1, "{texts:#?}");
    assert_eq!(
        tries[0].rolls[0].label,
        "reinforce/area=East/unit=R3/phase=insurrection"
    );
    assert!(
        tries[0]
            .text
            .starts_with("R3 (Red) tries to march out of the city of East to the battle at East (by the SOP): rolls "),
        "{}",
        tries[0].text
    );
    assert!(tries[0].text.ends_with("it arrives."), "{}", tries[0].text);
    let battle = events.iter().find(|e| e.kind == "combat").unwrap();
    assert!(
        battle.text.contains("Red with RI-1, R3 "),
        "{}",
        battle.text
    );

    // Had grey besieged East, R3 would stay in the city, out of the battle, without a roll.
    let mut dice = DiceBox::new(SEED);
    let (events, _) = with_red_garrison_at_east(&g, &mut dice, &["grey"]);
    let tries: Vec<&Event> = with_rule(&events, "EiA 7.5.2.11");
    assert_eq!(tries.len(), 1);
    assert!(tries[0].rolls.is_empty());
    assert!(tries[0].text.contains("is besieged in the city of East"));
    let battle = events.iter().find(|e| e.kind == "combat").unwrap();
    assert!(battle.text.contains("Red with RI-1 "), "{}", battle.text);
}

/// A corps of the state standing in the city of its area (`in_city = true`): a garrison kept from an
/// earlier turn.
fn garrison(id: &str, power: &str, kind: &str, factors: u32, area: &str) -> String {
    corps(id, power, kind, factors, "3.0", area) + "in_city = true\n"
}

fn march(unit: &str, to: &str) -> EiaOrder {
    EiaOrder::Move {
        unit: unit.into(),
        with: Vec::new(),
        path: vec![to.into()],
    }
}

/// Red holds East with R1 in the field and `city` in its city from an earlier turn, a red leader of
/// rating 6 with them (any d6 arrives); blue's B1 marches in from Field and attacks. Red is not
/// outnumbered, so it does not retire (EiA 7.5.1.1): a field battle, with no besieger at the start.
fn blue_attacks_red_holding_east(city: &str) -> (Vec<Event>, crate::game::state::State) {
    let state = [
        corps("B1", "blue", "infantry", 6, "3.0", "Field"),
        corps("R1", "red", "infantry", 4, "3.0", "East"),
        city.to_string(),
        leader("RedLeader", "red", 6, 1, "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    run(
        &g,
        &orders(&[("blue", march("B1", "East")), ("blue", attack("East"))]),
    )
}

#[test]
fn eia_7_5_2_11_a_garrison_from_an_earlier_turn_marches_out_to_reinforce() {
    let (events, next) =
        blue_attacks_red_holding_east(&garrison("R3", "red", "infantry", 2, "East"));
    let texts: Vec<&String> = events.iter().map(|e| &e.text).collect();
    let tries = with_rule(&events, "EiA 7.5.2.11");
    assert_eq!(tries.len(), 1, "{texts:#?}");
    assert_eq!(tries[0].rolls[0].label, "reinforce/area=East/unit=R3");
    assert!(
        tries[0].text.starts_with(
            "R3 (Red) tries to march out of the city of East to the battle at East (by the SOP): rolls "
        ),
        "{}",
        tries[0].text
    );
    assert!(tries[0].text.ends_with("it arrives."), "{}", tries[0].text);
    assert!(with_rule(&events, "EiA 7.5.1.1").is_empty(), "{texts:#?}");
    let battle = events.iter().find(|e| e.kind == "combat").unwrap();
    assert!(battle.text.contains("Red with R1, R3 "), "{}", battle.text);
    // Out in the field, it is no longer the city's garrison.
    if let Some(r3) = EiaState::of(&next).find_corps("R3") {
        assert!(!r3.in_city);
    }
}

#[test]
fn eia_7_5_2_11_guerrillas_in_the_city_attempt_to_reinforce() {
    let (events, _) = blue_attacks_red_holding_east(&garrison("G1", "red", "guerrilla", 2, "East"));
    let tries = with_rule(&events, "EiA 7.5.2.11");
    assert_eq!(tries.len(), 1);
    assert_eq!(tries[0].rolls[0].label, "reinforce/area=East/unit=G1");
    assert!(
        tries[0].text.starts_with(
            "G1 (Red guerrillas) tries to march out of the city of East to the battle at East (by the SOP): rolls "
        ),
        "{}",
        tries[0].text
    );
    let battle = events.iter().find(|e| e.kind == "combat").unwrap();
    assert!(battle.text.contains("Red with R1, G1 "), "{}", battle.text);
}

#[test]
fn eia_7_5_2_11_a_garrison_besieged_since_an_earlier_turn_stays_in_the_city() {
    // Blue's B4 stood at East outside red's garrison R3 when the turn began: R3 is besieged (EiA 7.5.4).
    // Red's R1 marches in and attacks B4; R3 stays in the city, without a roll.
    let state = [
        garrison("R3", "red", "infantry", 2, "East"),
        corps("B4", "blue", "infantry", 2, "3.0", "East"),
        corps("R1", "red", "infantry", 6, "3.0", "Field"),
        leader("RedLeader", "red", 6, 1, "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, next) = run(
        &g,
        &orders(&[("red", march("R1", "East")), ("red", attack("East"))]),
    );
    let texts: Vec<&String> = events.iter().map(|e| &e.text).collect();
    let tries = with_rule(&events, "EiA 7.5.2.11");
    assert_eq!(tries.len(), 1, "{texts:#?}");
    assert_eq!(
        tries[0].text,
        "R3 (Red) is besieged in the city of East: it cannot march out to the battle (EiA 7.5.2.11: only unbesieged corps in the city try)."
    );
    assert!(tries[0].rolls.is_empty());
    let battle = events.iter().find(|e| e.kind == "combat").unwrap();
    assert!(battle.text.contains("Red with R1 "), "{}", battle.text);
    assert!(
        EiaState::of(&next).find_corps("R3").unwrap().in_city,
        "still the garrison"
    );
}

#[test]
fn eia_7_5_4_an_attack_on_a_garrison_from_an_earlier_turn_is_its_siege() {
    // Red's R3 holds the city of East; blue's B1 and B2, there since an earlier turn, attack.
    let state = [
        garrison("R3", "red", "infantry", 3, "East"),
        corps("B1", "blue", "infantry", 8, "3.0", "East"),
        corps("B2", "blue", "infantry", 8, "3.0", "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, next) = run(&g, &orders(&[("blue", attack("East"))]));
    let texts: Vec<&String> = events.iter().map(|e| &e.text).collect();
    assert!(with_rule(&events, "EiA 7.5.1.1").is_empty(), "{texts:#?}");
    let siege: Vec<&Event> = with_rule(&events, "EiA 7.5.4");
    assert_eq!(
        siege[0].text,
        "R3 is in the city of East already: the attack on East is its siege (EiA 7.5.4)."
    );
    assert!(events
        .iter()
        .any(|e| e.rolls.iter().any(|r| r.label == "sortie/area=East")));
    assert!(!events.iter().any(|e| e.kind == "round"), "no field battle");
    // Breached and granted the honours of war, it marches out with its arms: in the field next turn.
    assert!(
        texts.iter().any(|t| t.contains("the walls are breached")),
        "{texts:#?}"
    );
    let r3 = EiaState::of(&next).find_corps("R3").unwrap();
    assert_eq!(r3.area.get_ref(), "Field");
    assert!(!r3.in_city);
}

#[test]
fn eia_7_5_4_a_besieged_garrison_may_not_march_out_an_unbesieged_one_may() {
    use super::orders::{check_legality, Context};
    use crate::orders::Located;
    let besieged = [
        garrison("R3", "red", "infantry", 2, "East"),
        corps("B4", "blue", "infantry", 2, "3.0", "East"),
    ]
    .concat();
    let (_d, g) = game(&besieged);
    let state = g.load_state(1).unwrap();
    let cx = Context::new(&g.map, &state, &eia(&g).tables);
    let (ok, diags) = check_legality("red", vec![Located::new(march("R3", "Far"), 0..12)], &cx);
    assert!(ok.is_empty());
    assert_eq!(
        diags[0].message,
        "R3 is besieged in the city of East by blue: it cannot march out"
    );
    assert_eq!(diags[0].rule, Some(super::decisions::GARRISON));
    assert!(diags[0].hint.is_some());

    // With no enemy in East outside the city, R3 marches out and is in the field of Far next turn.
    let (_d, g) = game(&garrison("R3", "red", "infantry", 2, "East"));
    let state = g.load_state(1).unwrap();
    let cx = Context::new(&g.map, &state, &eia(&g).tables);
    let (ok, diags) = check_legality("red", vec![Located::new(march("R3", "Far"), 0..12)], &cx);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(ok.len(), 1);
    let (_, next) = run(&g, &orders(&[("red", march("R3", "Far"))]));
    let r3 = EiaState::of(&next).find_corps("R3").unwrap();
    assert_eq!(r3.area.get_ref(), "Far");
    assert!(!r3.in_city);
}

#[test]
fn a_state_keeps_its_garrisons_within_the_city_and_of_one_side() {
    let refused = |state: &str| -> String {
        let (_d, g) = game(state);
        format!("{:#}", g.load_state(1).unwrap_err())
    };
    // Field has no city: refused, located at the corps' area (line 10 of the state).
    let e = refused(&garrison("R3", "red", "infantry", 2, "Field"));
    assert!(
        e.contains("corps R3 is in the city of 'Field', which has no city"),
        "{e}"
    );
    assert!(e.contains("turns/1/state.toml:10:8"), "{e}");
    // East holds two corps.
    let e = refused(
        &[
            garrison("R1", "red", "infantry", 2, "East"),
            garrison("R2", "red", "infantry", 2, "East"),
            garrison("R3", "red", "infantry", 2, "East"),
        ]
        .concat(),
    );
    assert!(
        e.contains("corps R3 does not fit in the city of 'East': its garrison is 2 corps"),
        "{e}"
    );
    // One side only.
    let e = refused(
        &[
            garrison("R1", "red", "infantry", 2, "East"),
            garrison("B1", "blue", "infantry", 2, "East"),
        ]
        .concat(),
    );
    assert!(
        e.contains("corps B1 (blue) and R1 (red) are enemies, both in the city of 'East'"),
        "{e}"
    );
}

#[test]
fn eia_7_5_1_1_the_field_corps_retire_to_join_the_garrison_of_the_city() {
    // Red's R3 holds the city of East; R1 stands outside it. Three blue corps attack: both fit the
    // garrison of 2 and are fewer, so R1 retires into the city, where R3 already is.
    let state = [
        garrison("R3", "red", "infantry", 2, "East"),
        corps("R1", "red", "infantry", 2, "3.0", "East"),
        corps("B1", "blue", "infantry", 4, "3.0", "East"),
        corps("B2", "blue", "infantry", 4, "3.0", "East"),
        corps("B3", "blue", "infantry", 4, "3.0", "East"),
    ]
    .concat();
    let (_d, g) = game(&state);
    let (events, _) = run(&g, &orders(&[("blue", attack("East"))]));
    let retire = with_rule(&events, "EiA 7.5.1.1");
    assert_eq!(
        retire[0].text,
        "R1 retires into the city of East (2 corps fit its garrison of 2, against 3 enemy corps) (by the SOP)."
    );
    assert!(events
        .iter()
        .any(|e| e.rolls.iter().any(|r| r.label == "sortie/area=East")));
}

#[test]
fn eia_7_5_2_11_a_corps_that_fought_this_phase_does_not_reinforce_another_combat() {
    use super::board::Board;
    use super::phase::Phase;
    use std::collections::BTreeSet;
    // Red's R1 is beaten at Far and retreats to East, its depot, next to Side, where blue's B2
    // attacks red's R2 next: R1 fought this phase and does not march to Side; red's fresh R3 at
    // Mid does.
    let state = format!(
        "[control]\nEast = \"red\"\n{}",
        [
            corps("B1", "blue", "infantry", 30, "4.0", "Far"),
            corps("R1", "red", "infantry", 20, "0.3", "Far"),
            corps("B2", "blue", "infantry", 5, "3.0", "Side"),
            corps("R2", "red", "infantry", 5, "3.0", "Side"),
            corps("R3", "red", "infantry", 5, "3.0", "Mid"),
        ]
        .concat()
    );
    let (_d, g) = game(&state);
    let state = g.load_state(1).unwrap();
    let mut dice = DiceBox::new(SEED);
    let mut phase = Phase {
        eia: eia(&g),
        map: &g.map,
        board: Board::new(&g.map, &state),
        dice: &mut dice,
        events: Vec::new(),
        chits: BTreeMap::new(),
        outflankers: BTreeMap::new(),
        evaded: BTreeSet::new(),
        fought: BTreeSet::new(),
        attacked: BTreeSet::new(),
        standing: state.standing.clone(),
        battlefields: BTreeSet::new(),
        besiegers: BTreeMap::new(),
        depots: BTreeMap::from([("red".to_string(), vec![g.map.find("East").unwrap()])]),
        control: &state.control,
        stage: None,
        words: super::Words::of(&g),
    };
    let (far, side) = (g.map.find("Far").unwrap(), g.map.find("Side").unwrap());
    phase.battlefields = BTreeSet::from([far, side]);
    phase.fight(far, "blue").unwrap();
    let r1 = phase.board.find_corps("R1").unwrap();
    assert_eq!(g.map.area(phase.board.corps[r1].area).id, "East");
    assert!(!phase.board.corps[r1].eliminated);
    phase.fight(side, "blue").unwrap();
    let tries: Vec<&String> = with_rule(&phase.events, "EiA 7.5.2.11")
        .iter()
        .map(|e| &e.text)
        .collect();
    assert!(!tries.iter().any(|t| t.starts_with("R1 ")), "{tries:#?}");
    assert!(
        tries
            .iter()
            .any(|t| t.starts_with("R3 (Red) tries to march from Mid to the battle at Side")),
        "{tries:#?}"
    );
}

#[test]
fn eia_7_5_2_11_a_garrison_next_to_the_battle_marches_to_it_unless_besieged() {
    let run_with = |extra: &str| {
        let (_d, g) = game(&sure_win_state(extra));
        run(&g, &orders(&[("blue", attack("Field"))])).0
    };
    // Red's R3 holds the city of East, next to Field: it tries, out of its city.
    let events = run_with(&garrison("R3", "red", "infantry", 2, "East"));
    let tries = with_rule(&events, "EiA 7.5.2.11");
    assert_eq!(tries.len(), 1);
    assert!(
        tries[0].text.starts_with(
            "R3 (Red) tries to march out of the city of East to the battle at Field (by the SOP): rolls "
        ),
        "{}",
        tries[0].text
    );
    // Besieged by blue's B4 since before the turn, it is not eligible.
    let events = run_with(
        &[
            garrison("R3", "red", "infantry", 2, "East"),
            corps("B4", "blue", "infantry", 2, "3.0", "East"),
        ]
        .concat(),
    );
    let texts: Vec<&String> = events.iter().map(|e| &e.text).collect();
    assert!(
        !with_rule(&events, "EiA 7.5.2.11")
            .iter()
            .any(|e| e.text.contains("R3")),
        "{texts:#?}"
    );
}
