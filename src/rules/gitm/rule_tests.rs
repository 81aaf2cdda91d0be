//! Tests named after the GITM rules, on the bundled scenario gitm-italy-1809 (its map is a window of
//! the seed's strategic map, named as the seed names it) and on the seed's own examples.

use crate::diag::Source;
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::map::sub_grid::{parse_sub_square, SubSquare};
use crate::game::map::Topology;
use crate::game::state::State;
use crate::game::Game;
use crate::rules::{PowerOrders, Ruleset};

use super::detection;
use super::movement::{entry_square, follow_path};
use super::orders::{self, BattleLine, ReactionKind};
use super::state::{Brigade, GitmState, Kind, Quality, Season};
use super::turn::merge;
use super::{grid_map, Gitm};

const GAME: &str = "gitm-italy-1809";

fn scenario() -> (tempfile::TempDir, Game, State) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(GAME);
    crate::bundled::write_scenario(GAME, &dir).unwrap();
    let game = Game::load(&dir).unwrap();
    let state = game.load_state(1).unwrap();
    (tmp, game, state)
}

fn header(power: &str) -> String {
    match power {
        "france" => {
            "game gitm-italy-1809\npower france\nplayer eugene\npassword eagle-1805\nturn 1\n"
                .into()
        }
        "austria" => "game gitm-italy-1809\npower austria\npassword danube-1805\nturn 1\n".into(),
        _ => "game gitm-italy-1809\npower naples\npassword bear-1805\nturn 1\n".into(),
    }
}

/// Resolves one turn of `state` with these order lines per power.
fn resolve(game: &Game, state: &State, orders: &[(&str, &str)]) -> (State, Vec<Event>) {
    let orders: Vec<PowerOrders> = orders
        .iter()
        .map(|(p, body)| PowerOrders {
            power: p.to_string(),
            source: Source::new(format!("{p}.txt"), format!("{}{body}\n", header(p))),
        })
        .collect();
    let mut dice = DiceBox::new([7; 32]).with_seal(Some([9; 32]));
    let r = game
        .ruleset
        .resolve(game, state, &orders, &mut dice)
        .unwrap();
    (r.next, r.events)
}

fn g(state: &State) -> &GitmState {
    state.table::<GitmState>().unwrap()
}

fn at(state: &State, id: &str) -> String {
    g(state).brigade(id).unwrap().at().to_string()
}

/// Moves a brigade before the turn.
fn put(state: &mut State, id: &str, to: &str) {
    state
        .table_mut::<GitmState>()
        .unwrap()
        .brigade_mut(id)
        .unwrap()
        .at = toml::Spanned::new(0..0, to.to_string());
}

fn cites<'a>(events: &'a [Event], rule: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.rule == rule).collect()
}

fn check(game: &Game, state: &State, power: &str, body: &str) -> crate::rules::OrdersCheck {
    let src = Source::new(format!("{power}.txt"), format!("{}{body}\n", header(power)));
    game.ruleset.check_orders(game, state, &src)
}

fn brigade(id: &str, strength: u32, experience: u32, morale: u32, supplies: u32) -> Brigade {
    Brigade {
        id: toml::Spanned::new(0..0, id.into()),
        power: toml::Spanned::new(0..0, "britain".into()),
        at: toml::Spanned::new(0..0, "G8-V5/0-2".into()),
        strength,
        batteries: 1,
        quality: Quality::Good,
        experience,
        morale,
        fatigue: 2,
        ammunition: 1,
        supplies,
        inactive: false,
        shattered: false,
    }
}

#[test]
fn gitm_1_1_g7_v8_is_venice() {
    let (_t, game, _) = scenario();
    let map = grid_map(&game).unwrap();
    let venice = map.parse_place("G7-V8").unwrap();
    assert_eq!(map.named("Venice"), Some(venice));
    assert_eq!(map.place_name(venice), "G7-V8");
    assert!(
        map.parse_place("L9-Z9").is_err(),
        "outside the scenario's window"
    );
}

#[test]
fn gitm_2_1_14_1_is_below_the_upper_right_corner() {
    assert_eq!(
        parse_sub_square("14-1", 15).unwrap(),
        SubSquare { col: 14, row: 1 }
    );
    assert!(parse_sub_square("15-1", 15).is_err());
}

#[test]
fn gitm_3_1_a_unit_id_is_nationality_number_and_type() {
    assert_eq!(Kind::of_id("FR3LI"), Some(Kind::LightInfantry));
    assert_eq!(Kind::of_id("FR1CQ"), Some(Kind::CorpsHq));
    assert_eq!(Kind::of_id("FR1XX"), None);
    assert_eq!(Kind::of_id("I"), None);
}

#[test]
fn gitm_3_5_br1in_merged_into_br2in_keeps_br2in_and_weighs_by_strength() {
    let br1 = brigade("BR1IN", 1000, 2, 40, 1);
    let mut br2 = brigade("BR2IN", 3000, 6, 60, 0);
    br2.at = toml::Spanned::new(0..0, "G8-V5/3-3".into());
    let m = merge(&br1, &br2);
    assert_eq!(m.id(), "BR2IN");
    assert_eq!(m.at(), "G8-V5/3-3", "the location of BR2IN");
    assert_eq!(m.strength, 4000);
    assert_eq!(m.batteries, 2);
    assert_eq!(m.experience, 5, "(2*1000 + 6*3000) / 4000");
    assert_eq!(m.morale, 55, "(40*1000 + 60*3000) / 4000");
    assert_eq!(m.supplies, 0, "a supply only if both carried one");
}

#[test]
fn gitm_3_5_a_merge_happens_in_the_supply_phase() {
    let (_t, game, state) = scenario();
    let (next, events) = resolve(&game, &state, &[("france", "merge IT1IN into IT2IN")]);
    assert!(g(&next).brigade("IT1IN").is_none());
    assert_eq!(g(&next).brigade("IT2IN").unwrap().strength, 3300);
    assert_eq!(g(&next).merged, ["IT1IN"]);
    assert_eq!(cites(&events, "GITM 3.5").len(), 1);
    let c = check(&game, &state, "france", "merge FR1IN into FR1LC");
    assert_eq!(c.rejected(), 1, "not of one type");
}

#[test]
fn gitm_3_2_fatigue_is_regained_at_the_end_of_the_turn() {
    let (_t, game, mut state) = scenario();
    for id in ["FR1IN", "FR1LC"] {
        state
            .table_mut::<GitmState>()
            .unwrap()
            .brigade_mut(id)
            .unwrap()
            .fatigue = 10;
    }
    let (next, _) = resolve(&game, &state, &[]);
    assert_eq!(g(&next).brigade("FR1IN").unwrap().fatigue, 7);
    assert_eq!(g(&next).brigade("FR1LC").unwrap().fatigue, 6);
}

#[test]
fn gitm_6_9_no_orders_the_unit_holds_and_the_default_is_cited() {
    let (_t, game, state) = scenario();
    let (next, events) = resolve(&game, &state, &[]);
    assert_eq!(at(&next, "FR1IN"), at(&state, "FR1IN"));
    let d = cites(&events, "GITM 6.9");
    assert!(d.iter().any(|e| e.text.contains("no orders for FR1AQ")));
    assert!(d.iter().all(|e| e.decision.is_some()));
    assert_eq!(
        g(&next).brigade("FR1IN").unwrap().supplies,
        1,
        "draws one unit of supply"
    );
}

#[test]
fn gitm_6_9_a_missing_section_falls_back_to_its_default() {
    let (_t, game, state) = scenario();
    let (_, events) = resolve(&game, &state, &[("france", "move FR1IN G5-V6")]);
    assert!(cites(&events, "GITM 6.9")
        .iter()
        .any(|e| e.text.contains("FR1IN (3, 4, 5, 6)")));
}

#[test]
fn gitm_6_3_to_6_7_the_six_sections_parse_and_print_back() {
    let (_t, game, state) = scenario();
    let body = "move FR2IN G5-V6 - G6-V6 entry 5-4 pursue halt-entry\ntactical FR2IN to 9-7 via 7-7 phase 2 line second engage 3 4 no-fort\nsupport FR2IN 10-5 radius 2 phases 1 4\nintercept FR2IN 7-7 radius 3\nposture FR2IN attack assault defend last-ditch\nsupply FR2IN carry 1 from FR1CQ";
    let c = check(&game, &state, "france", body);
    assert_eq!(c.rejected(), 0, "{:?}", c.diagnostics);
    assert_eq!(c.accepted.len(), 6);
    // What pbem reads back is accepted again as itself.
    let again: String = c.accepted.iter().map(|(_, o)| format!("{o}\n")).collect();
    let c2 = check(&game, &state, "france", &again);
    assert_eq!(
        c2.accepted
            .iter()
            .map(|(_, o)| o.clone())
            .collect::<Vec<_>>(),
        c.accepted
            .iter()
            .map(|(_, o)| o.clone())
            .collect::<Vec<_>>()
    );
    // The tactical part reads the plain structs.
    let map = grid_map(&game).unwrap();
    let lines = crate::orders::split(body);
    let cx = orders::Context {
        map,
        gitm: g(&state),
        power: "france",
    };
    let (ok, _) = orders::parse_all(&lines, &cx);
    let by = orders::by_unit(&ok.into_iter().map(|o| o.value).collect::<Vec<_>>());
    let u = &by["FR2IN"];
    let t = u.tactical.as_ref().unwrap();
    assert_eq!(t.line, BattleLine::Second);
    assert_eq!(t.engage, Some((3, 4)));
    let s = u.support.unwrap();
    assert_eq!(s.kind, ReactionKind::Support);
    // GITM 8.10: the box of 10-5 radius 2 is columns 8-12, rows 3-7.
    assert!(s.holds(SubSquare { col: 8, row: 3 }) && s.holds(SubSquare { col: 12, row: 7 }));
    assert!(!s.holds(SubSquare { col: 13, row: 5 }) && !s.holds(SubSquare { col: 10, row: 2 }));
}

#[test]
fn gitm_6_1_bad_lines_get_located_errors_with_hints_and_the_others_stand() {
    let (_t, game, state) = scenario();
    let c = check(&game, &state, "france", "move FR1IN G5-V6\nmove FR1IN Q9-V6\nmove AU1IN G8-V5\ntactical FR1IN to 15-2\nposture FR1IN attack charge\nmarch FR1IN G5-V6\nmove FR1IN G9-V9");
    assert_eq!(c.accepted.len(), 1);
    assert_eq!(c.rejected(), 6);
    for d in &c.diagnostics {
        assert!(d.hint.is_some(), "{d:?}");
        assert!(d.span.end > d.span.start, "{d:?}");
    }
}

#[test]
fn gitm_6_10_place_orders_are_for_peace_and_campaign_orders_for_campaigns() {
    let (_t, game, mut state) = scenario();
    assert_eq!(
        check(&game, &state, "france", "place FR1IN G5-V6 3-3").rejected(),
        1
    );
    state.table_mut::<GitmState>().unwrap().season = Season::Peace;
    assert_eq!(
        check(&game, &state, "france", "place FR1IN G5-V6 3-3").rejected(),
        0
    );
    assert_eq!(
        check(&game, &state, "france", "move FR1IN G5-V6").rejected(),
        1
    );
}

#[test]
fn gitm_7_16_peace_places_units_where_ordered_but_not_on_a_hostile_states_soil() {
    let (_t, game, mut state) = scenario();
    state.table_mut::<GitmState>().unwrap().season = Season::Peace;
    let (next, events) = resolve(
        &game,
        &state,
        &[("france", "place FR1IN G9-V8 3-3\nplace FR1LC H0-V5")],
    );
    assert_eq!(at(&next, "FR1IN"), "G9-V8/3-3");
    assert_eq!(
        at(&next, "FR1LC"),
        at(&state, "FR1LC"),
        "H0-V5 is Austria's"
    );
    assert_eq!(cites(&events, "GITM 7.16").len(), 2);
}

#[test]
fn gitm_7_4_the_path_that_halts_in_g5_v6() {
    let (_t, game, mut state) = scenario();
    let map = grid_map(&game).unwrap();
    let sq = |s: &str| map.parse_place(s).unwrap();
    let path = [sq("G5-V6"), sq("G7-V8")];
    assert_eq!(follow_path(map, sq("G4-V6"), &path), [sq("G5-V6")]);
    let full = [sq("G5-V6"), sq("G6-V7"), sq("G7-V8")];
    assert_eq!(follow_path(map, sq("G4-V6"), &full).len(), 3);
    // Through a turn: a light cavalry brigade in G4-V6.
    put(&mut state, "FR1LC", "G4-V6/5-7");
    let (next, events) = resolve(
        &game,
        &state,
        &[("france", "move FR1LC G5-V6 G7-V8\nsupply FR1LC none")],
    );
    assert!(at(&next, "FR1LC").starts_with("G5-V6/"));
    assert!(cites(&events, "GITM 7.4")
        .iter()
        .any(|e| e.text.contains("halts in G5-V6")));
}

#[test]
fn gitm_7_13_the_entry_squares_of_the_seeds_example() {
    let e = SubSquare { col: 5, row: 4 };
    let any = |_: SubSquare| true;
    let s = |c, r| SubSquare { col: c, row: r };
    assert_eq!(entry_square(e, (0, 1), 15, any), s(5, 3), "moving south");
    assert_eq!(entry_square(e, (1, 0), 15, any), s(3, 4), "moving east");
    assert_eq!(entry_square(e, (-1, 0), 15, any), s(11, 4), "moving west");
    assert_eq!(
        entry_square(e, (1, 1), 15, any),
        s(5, 3),
        "moving southeast"
    );
    assert_eq!(
        entry_square(e, (0, -1), 15, any),
        s(5, 11),
        "moving north: rows 11 to 14"
    );
    // Moving northeast: the west half of the south edge or the south half of the west edge.
    assert_eq!(entry_square(s(12, 12), (1, -1), 15, any), s(7, 12));
    // A square taken (an enemy) is skipped for the nearest free one.
    assert_eq!(entry_square(e, (1, 0), 15, |x| x != s(3, 4)), s(3, 3));
}

#[test]
fn gitm_7_1_7_3_a_forced_march_is_one_square_more_for_three_fatigue() {
    let (_t, game, state) = scenario();
    let (next, events) = resolve(
        &game,
        &state,
        &[(
            "france",
            "move FR4IN G3-V6 G4-V6 G5-V6 G6-V6 G7-V6\nsupply FR4IN carry 0",
        )],
    );
    assert!(
        at(&next, "FR4IN").starts_with("G6-V6/"),
        "three squares and a forced march; no fifth"
    );
    assert_eq!(
        cites(&events, "GITM 7.3").len(),
        2,
        "the forced march, then no move left"
    );
    // 1 + 1 + 1 + 3, less the 3 regained at the end of the turn (GITM 3.2).
    assert_eq!(g(&next).brigade("FR4IN").unwrap().fatigue, 3);
}

#[test]
fn gitm_7_1_militia_stay_in_their_home_nation() {
    let (_t, game, state) = scenario();
    // AU1MI in Udine (H0-V4, Austria's): H1-V4 is Austria's too, G9-V4 France's.
    let (next, events) = resolve(
        &game,
        &state,
        &[("austria", "move AU1MI H1-V4\nmove AU2MI G9-V4")],
    );
    assert!(at(&next, "AU1MI").starts_with("H1-V4/"));
    assert_eq!(at(&next, "AU2MI"), at(&state, "AU2MI"));
    assert!(cites(&events, "GITM 7.1")
        .iter()
        .any(|e| e.text.contains("AU2MI is militia")));
}

#[test]
fn gitm_7_2_a_unit_carrying_supply_moves_a_square_less() {
    let (_t, game, state) = scenario();
    let (next, _) = resolve(
        &game,
        &state,
        &[("france", "move FR4IN G3-V6 G4-V6 G5-V6 G6-V6")],
    );
    assert!(
        at(&next, "FR4IN").starts_with("G5-V6/"),
        "two squares and a forced march"
    );
}

#[test]
fn gitm_7_5_a_blank_box_skips_a_phase() {
    let (_t, game, state) = scenario();
    let (next, events) = resolve(&game, &state, &[("france", "move FR1LC - G5-V6")]);
    assert!(at(&next, "FR1LC").starts_with("G5-V6/"));
    let moved = events
        .iter()
        .position(|e| e.text.starts_with("FR1LC marches"))
        .unwrap();
    let phase2 = events
        .iter()
        .position(|e| e.text.starts_with("Tactical phase 3"))
        .unwrap();
    assert!(
        moved > phase2,
        "moved in strategic phase 2, after tactical phase 4"
    );
}

#[test]
fn gitm_7_5_withdrawal_from_a_battle_square_costs_two_fatigue_and_stragglers() {
    let (_t, game, mut state) = scenario();
    put(&mut state, "AU1IN", "G5-V6/10-10");
    put(&mut state, "FR1IN", "G5-V6/2-2");
    state.table_mut::<GitmState>().unwrap().battles = vec!["G5-V6".into()];
    let (next, events) = resolve(&game, &state, &[("austria", "move AU1IN G6-V6")]);
    assert!(at(&next, "AU1IN").starts_with("G6-V6/"));
    let w = cites(&events, "GITM 7.5");
    assert_eq!(w.len(), 1);
    assert!(w[0].text.contains("for 2 fatigue") && w[0].text.contains("stragglers"));
    assert_eq!(w[0].rolls.len(), 1);
    assert!(g(&next).brigade("AU1IN").unwrap().strength <= 3500);
}

#[test]
fn gitm_7_6_units_move_in_a_random_order_new_each_phase() {
    let (_t, game, state) = scenario();
    let (_, events) = resolve(
        &game,
        &state,
        &[("france", "move FR1IN G5-V6 G6-V6\nmove FR2IN G5-V6 G6-V6")],
    );
    let orders = cites(&events, "GITM 7.6");
    assert_eq!(orders.len(), 2, "phases 1 and 2");
    assert!(orders
        .iter()
        .all(|e| e.rolls.len() == 1 && e.visible_to.is_empty()));
    assert_ne!(orders[0].rolls[0].label, orders[1].rolls[0].label);
}

#[test]
fn gitm_7_7_an_enemy_between_the_unit_and_the_maps_edge_blocks_it() {
    let (_t, game, mut state) = scenario();
    put(&mut state, "AU1IN", "G4-V6/9-7");
    let (next, events) = resolve(&game, &state, &[("france", "move FR1LC G5-V6")]);
    assert_eq!(at(&next, "FR1LC"), "G4-V6/5-7");
    assert!(!cites(&events, "GITM 7.7").is_empty());
    // North is free.
    let (next, _) = resolve(&game, &state, &[("france", "move FR1LC G4-V5")]);
    assert!(at(&next, "FR1LC").starts_with("G4-V5/"));
}

#[test]
fn gitm_7_7_neutrals_block_only_in_their_home_nation() {
    let (_t, game, mut state) = scenario();
    put(&mut state, "NA1IN", "G4-V6/9-7");
    let (next, _) = resolve(&game, &state, &[("france", "move FR1LC G5-V6")]);
    assert!(
        at(&next, "FR1LC").starts_with("G5-V6/"),
        "G4-V6 is not Naples'"
    );
    state.control.insert("G4-V6".into(), "naples".into());
    let (next, events) = resolve(&game, &state, &[("france", "move FR1LC G5-V6")]);
    assert_eq!(at(&next, "FR1LC"), "G4-V6/5-7");
    assert!(!cites(&events, "GITM 7.7").is_empty());
}

#[test]
fn gitm_7_9_halt_on_detection_stops_in_the_enemys_square() {
    let (_t, game, mut state) = scenario();
    put(&mut state, "AU1IN", "G5-V6/14-0");
    let (next, events) = resolve(
        &game,
        &state,
        &[("france", "move FR1LC G5-V6 G6-V6 halt-detection")],
    );
    assert!(at(&next, "FR1LC").starts_with("G5-V6/"));
    assert_eq!(cites(&events, "GITM 7.9").len(), 1);
    let (next, _) = resolve(&game, &state, &[("france", "move FR1LC G5-V6 G6-V6")]);
    assert!(
        at(&next, "FR1LC").starts_with("G6-V6/"),
        "without the option it goes on"
    );
}

#[test]
fn gitm_7_10_halt_on_enemy_entry_stops_a_unit_whose_square_an_enemy_enters() {
    let (_t, game, mut state) = scenario();
    put(&mut state, "AU1IN", "G5-V6/14-14");
    // FR1LC waits a phase in G4-V6 with a path beyond; AU1IN enters G4-V6 in phase 1.
    let orders = [
        ("france", "move FR1LC - G4-V5 halt-entry"),
        ("austria", "move AU1IN G4-V6\nsupply AU1IN none"),
    ];
    let (next, events) = resolve(&game, &state, &orders);
    assert_eq!(at(&next, "FR1LC"), "G4-V6/5-7");
    assert_eq!(cites(&events, "GITM 7.10").len(), 1);
    let (next, _) = resolve(
        &game,
        &state,
        &[orders[1], ("france", "move FR1LC - G4-V5")],
    );
    assert!(
        at(&next, "FR1LC").starts_with("G4-V5/"),
        "without the option it goes on"
    );
}

#[test]
fn gitm_2_6_a_fort_has_a_strength_of_1_to_5() {
    let (_t, game, mut state) = scenario();
    assert!(Gitm.check_state(&game, &state).is_empty());
    state.table_mut::<GitmState>().unwrap().forts[0].strength = 6;
    assert_eq!(Gitm.check_state(&game, &state).len(), 1);
}

#[test]
fn gitm_7_11_a_pursuer_follows_an_enemy_that_leaves_its_square() {
    let (_t, game, mut state) = scenario();
    put(&mut state, "AU1LC", "G6-V6/12-2");
    put(&mut state, "FR1LC", "G6-V6/2-12");
    let (next, events) = resolve(
        &game,
        &state,
        &[
            ("austria", "move AU1LC G7-V6"),
            ("france", "move FR1LC - G5-V6 pursue"),
        ],
    );
    assert!(at(&next, "AU1LC").starts_with("G7-V6/"));
    assert!(
        at(&next, "FR1LC").starts_with("G7-V6/"),
        "{:?}",
        cites(&events, "GITM 7.11")
    );
    assert_eq!(cites(&events, "GITM 7.11").len(), 1);
}

#[test]
fn gitm_7_12_march_to_battle_goes_to_the_largest_battle_next_door() {
    let (_t, game, mut state) = scenario();
    put(&mut state, "AU1IN", "G5-V6/14-14");
    put(&mut state, "FR2IN", "G5-V6/0-0");
    let (next, events) = resolve(&game, &state, &[("france", "move FR1IN to-battle")]);
    assert!(at(&next, "FR1IN").starts_with("G5-V6/"));
    assert_eq!(cites(&events, "GITM 7.12").len(), 1);
}

#[test]
fn gitm_7_14_an_enemy_beside_a_diagonal_blocks_it_for_a_step() {
    let (_t, game, mut state) = scenario();
    put(&mut state, "AU1IN", "G5-V6/7-7");
    let (next, events) = resolve(
        &game,
        &state,
        &[("france", "move FR1LC G5-V5\nsupply FR1LC none")],
    );
    assert_eq!(
        at(&next, "FR1LC"),
        "G4-V6/5-7",
        "blocked each phase until its moves are spent"
    );
    let blocked = cites(&events, "GITM 7.14");
    assert!(blocked.len() >= 2, "it tries again in the next phase");
    assert!(
        g(&next).brigade("FR1LC").unwrap().fatigue > 0,
        "each try is charged"
    );
    // Straight north past the same enemy is no diagonal.
    let (next, _) = resolve(&game, &state, &[("france", "move FR1LC G4-V5")]);
    assert!(at(&next, "FR1LC").starts_with("G4-V5/"));
}

#[test]
fn gitm_4_1_detection_ranges_by_side_type_and_season() {
    assert_eq!(detection::ranges(Kind::Infantry, true), (3, 1));
    assert_eq!(detection::ranges(Kind::LightCavalry, true), (3, 2));
    assert_eq!(detection::ranges(Kind::ArmyHq, true), (5, 1));
    assert_eq!(detection::ranges(Kind::ArmyHq, false), (10, 3));
    assert_eq!(detection::ranges(Kind::Infantry, false), (5, 3));
    assert_eq!(detection::count_word(2), "brigades");
    assert_eq!(detection::count_word(4), "a division");
    assert_eq!(detection::count_word(7), "divisions");
    assert_eq!(detection::count_word(10), "a corps");
    assert_eq!(detection::count_word(36), "3 corps");
    assert_eq!(detection::noisy_count(5, 1), 3);
    assert_eq!(detection::noisy_count(1, 1), 1);
    assert_eq!(detection::noisy_count(5, 6), 7);
}

#[test]
fn gitm_4_1_sightings_are_noisy_sealed_and_seen_by_the_observer_alone() {
    let (_t, game, mut state) = scenario();
    // The French light cavalry two squares from the Austrians at G8-V5... here G6-V5 to G8-V5.
    put(&mut state, "FR1LC", "G6-V5/5-7");
    put(&mut state, "AU1IN", "G8-V5/6-3");
    let (_, events) = resolve(&game, &state, &[]);
    let seen: Vec<&Event> = cites(&events, "GITM 4.1")
        .into_iter()
        .filter(|e| e.visible_to.contains("france") && e.text.contains("in G8-V5"))
        .collect();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].visible_to.len(), 1);
    assert_eq!(
        seen[0].area.as_deref(),
        Some("G6-V5"),
        "where the unit that saw stands (GITM 4.6)"
    );
    assert!(seen[0].rolls.iter().all(|r| r.sealed));
    assert!(!seen[0].text.contains("AU1IN"), "no unit ids in a sighting");
}

#[test]
fn gitm_4_7_late_reports_of_enemies_on_the_nations_soil_are_sealed() {
    let (_t, game, state) = scenario();
    let (_, events) = resolve(&game, &state, &[]);
    let late = cites(&events, "GITM 4.7");
    assert!(late.iter().any(|e| e.text.contains("hostile troops near")));
    // Each side hears of the other's headquarters now and then: a sealed roll for each, whether it
    // gave a report or not.
    assert!(late
        .iter()
        .any(|e| e.rolls.iter().any(|r| r.label.contains("/hq/france/AU1AQ"))));
    assert!(late
        .iter()
        .all(|e| e.rolls.iter().all(|r| r.sealed) && e.visible_to.len() <= 1));
}

#[test]
fn gitm_5_2_the_turn_runs_five_tactical_phases_around_the_strategic_ones() {
    let (_t, game, state) = scenario();
    let (_, events) = resolve(&game, &state, &[]);
    let tactical: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "tactical")
        .map(|e| e.rule.as_str())
        .collect();
    assert_eq!(
        tactical,
        ["GITM 8.1", "GITM 8.1", "GITM 8.1", "GITM 8.1", "GITM 9.1"]
    );
}

#[test]
fn gitm_state_check_refuses_bad_ids_places_and_numbers() {
    let (_t, game, mut state) = scenario();
    {
        let t = state.table_mut::<GitmState>().unwrap();
        t.brigades[0].id = toml::Spanned::new(0..0, "FR1XX".into());
        t.brigades[1].at = toml::Spanned::new(0..0, "G8-V5".into());
        t.brigades[2].at = toml::Spanned::new(0..0, "H1-V9/1-1".into());
        t.brigades[3].morale = 101;
    }
    let d = Gitm.check_state(&game, &state);
    assert_eq!(d.len(), 4, "{d:?}");
}
