//! Tests of the tactical engine, named after the seed's rules (GITM 2, 8, 9) and pbem's tables.

use std::collections::{BTreeMap, BTreeSet};

use super::lines::{assign_lines, forms_squares, frontage, place, spaces};
use super::*;
use crate::diag::{FileError, Source};
use crate::dice::Roller;

fn p(s: &str) -> Pos {
    Pos::parse(s).unwrap()
}

/// The turn's dice as pbem-dice/v1 gives them, from a fixed seed.
fn dice() -> impl FnMut(&str, u32) -> u32 {
    |label: &str, sides: u32| Roller::new(&[7; 32], label).die(sides)
}

/// Dice that show `face` (capped by the die) on every roll.
fn fixed(face: u32) -> impl FnMut(&str, u32) -> u32 {
    move |_: &str, sides: u32| face.min(sides)
}

fn rel() -> Relations {
    Relations::default().hostile("FR", "AU").allied("FR", "IT")
}

fn unit(id: &str, pos: &str) -> TacBrigade {
    let kind = Kind::of_id(id).unwrap();
    let side = &id[..2];
    let men = match kind.branch() {
        unit::Branch::Cavalry => 1500,
        unit::Branch::Artillery => 300,
        _ => 3000,
    };
    TacBrigade::new(id, side, kind, men, p(pos))
}

fn goto(mut b: TacBrigade, dest: &str) -> TacBrigade {
    b.order.destination = Some(p(dest));
    b.order.support = None;
    b
}

fn still(mut b: TacBrigade) -> TacBrigade {
    b.order.support = None;
    b
}

/// Whether an event's text, its dice rendered as its turn will (`binding::preview`), holds `needle`.
fn has(events: &[TacEvent], needle: &str) -> bool {
    events
        .iter()
        .any(|e| crate::engine::binding::preview(&e.text).contains(needle))
}

fn texts(events: &[TacEvent]) -> String {
    events
        .iter()
        .map(|e| crate::engine::binding::preview(&e.text))
        .collect::<Vec<_>>()
        .join("\n")
}

fn pos_of(f: &Field, id: &str) -> Pos {
    f.brigade(id).unwrap().pos
}

const RIVER_MAP: &str = "# a river down column 7 with a ford at 7-7
square G7-V8
terrain
.......~.......
.......~.......
.......~.......
.......~.......
.......~.......
.......~.......
.......~.......
.......=.......
.......~.......
.......~.......
.......~.......
.......~.......
.......~.......
.......~.......
.......~.......
town 12-12 Venice
";

fn river_map() -> TacMap {
    let mut lines: Vec<String> = RIVER_MAP.lines().map(str::to_string).collect();
    // Row 12 gets the town at column 12.
    lines[3 + 12] = ".......~....T..".to_string();
    parse_map(&Source::new("tactical/G7-V8.txt", lines.join("\n"))).unwrap()
}

// ---- GITM 2: the tactical map and its file ----

#[test]
fn gitm_2_1_square_14_1_is_just_below_the_upper_right_corner() {
    let sq = p("14-1");
    assert_eq!((sq.col, sq.row), (14, 1));
    assert_eq!(
        sq.offset(0, -1),
        Some(Pos::new(14, 0)),
        "north of it, the corner"
    );
    assert_eq!(sq.offset(1, 0), None, "column 14 is the eastmost");
    assert_eq!(sq.to_string(), "14-1");
    assert_eq!(Pos::parse("15-1"), None);
    assert_eq!(Pos::parse("1-15"), None);
    assert_eq!(Pos::parse("a-1"), None);
}

#[test]
fn gitm_2_1_fifteen_columns_by_fifteen_rows_settles_the_slip() {
    // The seed says "15 columns high"; pbem reads 15 rows, and a map of 14 rows is refused.
    let short: String = RIVER_MAP
        .lines()
        .enumerate()
        .filter(|(n, _)| *n != 5)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let source = Source::new("tactical/G7-V8.txt", short);
    let errs = parse_map(&source).unwrap_err();
    let e = FileError::new(&source, &errs[0]);
    assert!(e.rendered.contains("rows, not 15"), "{}", e.rendered);
    assert!(e.rendered.contains("GITM 2.1"), "{}", e.rendered);
    let m = river_map();
    assert_eq!(m.square, "G7-V8");
    assert_eq!(m.terrain(p("7-14")), Terrain::River);
    assert_eq!(m.terrain(p("14-14")), Terrain::Open);
}

#[test]
fn gitm_2_1_map_file_errors_name_line_and_column() {
    let bad = RIVER_MAP.replacen(".......=.......", ".......=...X...", 1);
    let source = Source::new("tactical/G7-V8.txt", bad);
    let errs = parse_map(&source).unwrap_err();
    assert_eq!(errs.len(), 1);
    let e = FileError::new(&source, &errs[0]);
    assert_eq!((e.line, e.column), (11, 12), "{}", e.rendered);
    assert!(
        e.rendered.contains("'X' at 11-7 is not a terrain symbol"),
        "{}",
        e.rendered
    );
    assert!(
        e.rendered.contains("tactical/G7-V8.txt:11:12"),
        "{}",
        e.rendered
    );

    let unknown = Source::new("t.txt", format!("{RIVER_MAP}fortress 1-1\n"));
    let errs = parse_map(&unknown).unwrap_err();
    assert!(errs[0].message.contains("'fortress' is not a line"));
    let no_terrain = Source::new("t.txt", "square G7-V8\n");
    assert!(parse_map(&no_terrain).unwrap_err()[0]
        .message
        .contains("no terrain block"));
}

#[test]
fn gitm_2_2_ten_terrains_and_three_impassable() {
    let impassable: Vec<&str> = Terrain::ALL
        .into_iter()
        .filter(|t| !t.passable())
        .map(|t| t.name())
        .collect();
    assert_eq!(impassable, ["river", "mountain", "water"]);
    assert_eq!(Terrain::ALL.len(), 10);
    for t in Terrain::ALL {
        assert_eq!(Terrain::from_symbol(t.symbol()), Some(t));
    }
}

#[test]
fn gitm_2_3_rivers_join_across_the_edges_of_neighbouring_maps() {
    let mut west = TacMap::plain("G6-V8", Terrain::Open);
    let mut east = TacMap::plain("G7-V8", Terrain::Open);
    west.set(p("14-5"), Terrain::River);
    east.set(p("0-5"), Terrain::River);
    assert!(west.broken_east_edge(&east).is_empty());
    east.set(p("0-5"), Terrain::Open);
    assert_eq!(west.broken_east_edge(&east), vec![5]);
    let mut south = TacMap::plain("G6-V9", Terrain::Open);
    west.set(p("3-14"), Terrain::Mountain);
    assert_eq!(west.broken_south_edge(&south), vec![3]);
    south.set(p("3-0"), Terrain::Pass);
    assert!(west.broken_south_edge(&south).is_empty());
}

#[test]
fn gitm_2_4_defensive_ratings_from_the_file_or_the_terrain() {
    let m = river_map();
    assert_eq!(m.rating(p("0-0")), 0);
    assert_eq!(m.rating(p("12-12")), Terrain::Town.default_rating());
    let mut with = RIVER_MAP.to_string();
    with.push_str("rating\n");
    for r in 0..15 {
        with.push_str(if r == 3 {
            "000040000000000\n"
        } else {
            "000000000000000\n"
        });
    }
    let m = parse_map(&Source::new(
        "t.txt",
        with.replace("town 12-12 Venice\n", ""),
    ))
    .unwrap();
    assert_eq!(m.rating(p("4-3")), 4);
    let bad = Source::new(
        "t.txt",
        RIVER_MAP.to_string() + "rating\n" + &"000000000000005\n".repeat(15),
    );
    let errs = parse_map(&bad).unwrap_err();
    assert!(errs[0].message.contains("not a defensive rating, 0 to 4"));
}

#[test]
fn gitm_2_6_2_7_town_and_siege_read_and_written_back_the_fort_from_the_state() {
    let mut m = river_map();
    let town = &m.towns[&p("12-12")];
    assert_eq!(town.name, "Venice");
    assert_eq!(town.fort, None, "a map file holds no fort");
    assert_eq!(town.siege, None, "a map file holds no siege");
    let again = parse_map(&Source::new("t.txt", m.to_text())).unwrap();
    assert_eq!(again, m);
    // A town line on a square that is not a town.
    let bad = Source::new("t.txt", RIVER_MAP.to_string());
    let errs = parse_map(&bad).unwrap_err();
    assert!(errs[0].message.contains("the town at 12-12 stands on open"));
    // GITM 2.6: the fort is the state's, put on the map by the turn (`hook::place_forts`).
    let fort = map::Fort {
        strength: 3,
        capacity: 6000,
    };
    m.set_fort(p("12-12"), fort.clone());
    assert_eq!(m.fort(p("12-12")), Some(&fort));
    assert_eq!(m.fort(p("11-12")), None);
    // A `fort` line in the file is refused where it stands, with where it belongs.
    let with_fort = RIVER_MAP.to_string() + "fort 12-12 3 6000\n";
    let source = Source::new("tactical/G7-V8.txt", with_fort);
    let errs = parse_map(&source).unwrap_err();
    let fort_error = errs
        .iter()
        .find(|e| e.message.contains("holds no fort"))
        .expect("the fort line is refused");
    let located = FileError::new(&source, fort_error);
    assert_eq!((located.line, located.column), (20, 1));
    assert!(fort_error
        .hint
        .as_deref()
        .unwrap()
        .contains("[[gitm.fort]] at = \"G7-V8/12-12\" strength = 3 capacity = 6000"));
}

#[test]
fn gitm_2_7_a_besieged_line_in_a_tactical_map_is_a_located_error() {
    // The state's [[gitm.siege]] is the one truth; a map file's line is refused where it stands.
    let source = Source::new(
        "tactical/G7-V8.txt",
        RIVER_MAP.to_string() + "besieged 12-12\n",
    );
    let errs = parse_map(&source).unwrap_err();
    let e = errs
        .iter()
        .find(|e| e.message.contains("holds no siege"))
        .expect("the besieged line is refused");
    assert!(e.message.contains("GITM 2.7, 8.4"));
    let located = FileError::new(&source, e);
    assert_eq!((located.line, located.column), (20, 1));
    assert!(e
        .hint
        .as_deref()
        .unwrap()
        .contains("[[gitm.siege]] at = \"G7-V8/12-12\" by = \"<power>\""));
}

/// The bundled GITM scenario written to a temporary folder and loaded, with its turn 1 state.
pub(super) fn italy_1809() -> (
    tempfile::TempDir,
    crate::game::Game,
    crate::game::state::State,
) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("gitm-italy-1809");
    crate::bundled::write_scenario("gitm-italy-1809", &dir).unwrap();
    let game = crate::game::Game::load(&dir).unwrap();
    let state = game.load_state(1).unwrap();
    (tmp, game, state)
}

#[test]
fn gitm_2_7_the_states_siege_is_put_on_the_tactical_map_held_by_its_garrison() {
    let (_tmp, game, mut state) = italy_1809();
    let map = crate::rules::gitm::grid_map(&game).unwrap();
    let square = map.parse_spot("G7-V8/0-0").unwrap().square;
    let g = state
        .table_mut::<crate::rules::gitm::state::GitmState>()
        .unwrap();
    // Venice's fort (G7-V8/10-10), its garrison FR11IN, besieged by Austria.
    g.sieges.push(crate::rules::gitm::state::Siege {
        at: toml::Spanned::new(0..0, "G7-V8/10-10".to_string()),
        by: "austria".to_string(),
        since: 1,
        breaches: 0,
    });
    let mut tmap = TacMap::plain("G7-V8", Terrain::Open);
    hook::place_forts(&mut tmap, g, map, square);
    assert_eq!(
        tmap.siege(p("10-10")),
        Some(&map::Siege {
            by: "austria".to_string(),
            holder: "france".to_string()
        })
    );
    // Without a garrison the siege limits no one (the turn lifts it at its end).
    g.brigade_mut("FR11IN").unwrap().at = toml::Spanned::new(0..0, "G7-V8/9-9".to_string());
    let mut tmap = TacMap::plain("G7-V8", Terrain::Open);
    hook::place_forts(&mut tmap, g, map, square);
    assert_eq!(tmap.siege(p("10-10")), None);
    assert!(tmap.fort(p("10-10")).is_some());
}

// ---- GITM 3.1: one brigade type for the strategic and the tactical part ----

#[test]
fn gitm_3_1_one_kind_for_both_maps_with_each_maps_allowance() {
    // The tactical engine's kind is the strategic state's (`kinds.rs`): a unit id read once.
    let k: crate::rules::gitm::state::Kind = Kind::of_id("fr3li").unwrap();
    assert_eq!(k, Kind::LightInfantry);
    for k in Kind::ALL {
        assert_eq!(Kind::of_id(&format!("FR1{}", k.code())), Some(k));
    }
    // GITM 7.1 against 8.1: strategic squares a turn, tactical squares a phase.
    let both = |k: Kind| (k.strategic_allowance(), k.tactical_allowance());
    assert_eq!(both(Kind::Infantry), (3, 4));
    assert_eq!(both(Kind::LightCavalry), (4, 6));
    assert_eq!(
        both(Kind::HeavyCavalry),
        (4, 4),
        "heavy cavalry is not fast (8.1)"
    );
    assert_eq!(both(Kind::ArmyHq), (4, 6));
    assert_eq!(both(Kind::CorpsHq), (3, 4));
    assert_eq!(both(Kind::Militia), (2, 4));
    // GITM 4.1: a sighting shows militia as infantry; 9.4 counts it as infantry too.
    assert_eq!(Kind::Militia.branch(), unit::Branch::Infantry);
    assert_eq!(Kind::Militia.branch().letter(), 'I');
    assert_eq!(Kind::CorpsHq.branch().letter(), 'H');
}

// ---- GITM 8: tactical movement ----

#[test]
fn gitm_8_1_fast_units_move_six_squares_others_four() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1LC", "0-0"), "14-0"),
            goto(unit("FR2IN", "0-2"), "14-2"),
            goto(unit("FR3AQ", "0-4"), "14-4"),
            goto(unit("FR4CQ", "0-6"), "14-6"),
        ],
    );
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR1LC"), p("6-0"));
    assert_eq!(pos_of(&f, "FR2IN"), p("4-2"));
    assert_eq!(pos_of(&f, "FR3AQ"), p("6-4"), "army headquarters move six");
    assert_eq!(
        pos_of(&f, "FR4CQ"),
        p("4-6"),
        "corps headquarters move four"
    );
    // No enemy in the square: no fatigue.
    assert!(f.brigades().iter().all(|b| b.fatigue == 0));
}

#[test]
fn gitm_8_1_fatigue_a_phase_with_an_enemy_and_none_over_8() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut tired = goto(unit("FR2IN", "0-2"), "14-2");
    tired.fatigue = 9;
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1IN", "0-0"), "10-0"),
            tired,
            still(unit("AU1IN", "14-14")),
        ],
    );
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR1IN"), p("4-0"));
    assert_eq!(f.brigade("FR1IN").unwrap().fatigue, 1);
    assert_eq!(pos_of(&f, "FR2IN"), p("0-2"));
    assert!(has(
        &f.events,
        "GITM 8.1: FR2IN does not move: fatigue 9 is over 8"
    ));
}

#[test]
fn gitm_8_2_waypoint_then_destination_from_the_start_phase() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut b = goto(unit("FR1IN", "0-0"), "6-6");
    b.order.waypoint = Some(p("2-0"));
    b.order.start_phase = Some(2);
    let mut f = Field::new(&map, &r, vec![b]);
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR1IN"), p("0-0"), "not before its start phase");
    f.phase(2, &mut dice());
    // Two squares to the waypoint 2-0, then two of the straight line to 6-6.
    assert_eq!(pos_of(&f, "FR1IN"), p("3-2"));
    f.phase(3, &mut dice());
    assert_eq!(pos_of(&f, "FR1IN"), p("6-6"));
    assert!(has(&f.events, "GITM 8.2: FR1IN moves 3-2 to 6-6"));
}

#[test]
fn gitm_8_2_straight_line_is_king_moves_rounded() {
    assert_eq!(
        straight_line(p("0-0"), p("4-2")),
        vec![p("1-1"), p("2-1"), p("3-2"), p("4-2")]
    );
    assert_eq!(straight_line(p("3-3"), p("3-3")), vec![]);
    assert_eq!(
        straight_line(p("5-5"), p("2-5")),
        vec![p("4-5"), p("3-5"), p("2-5")]
    );
}

#[test]
fn gitm_8_3_meeting_an_enemy_halts_both_and_begins_a_combat() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1IN", "0-5"), "8-5"),
            goto(unit("AU1IN", "3-5"), "3-14"),
        ],
    );
    f.phase(1, &mut fixed(3));
    let (fr, au) = (pos_of(&f, "FR1IN"), pos_of(&f, "AU1IN"));
    assert_eq!(fr, au, "{}", texts(&f.events));
    assert!(
        has(&f.events, "GITM 8.3: FR1IN meets AU1IN at 3-5")
            || has(&f.events, "GITM 8.3: AU1IN meets FR1IN")
    );
    assert!(
        has(&f.events, "GITM 9.4: combat at"),
        "{}",
        texts(&f.events)
    );
}

#[test]
fn gitm_8_3_evade_halts_one_square_short_and_a_neutral_stops_the_move() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut evader = goto(unit("FR1IN", "0-5"), "8-5");
    evader.order.attack = Posture::Evade;
    let mut f = Field::new(
        &map,
        &r,
        vec![
            evader,
            still(unit("AU1IN", "3-5")),
            goto(unit("FR2IN", "0-9"), "8-9"),
            still(unit("SW1IN", "2-9")),
        ],
    );
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR1IN"), p("2-5"));
    assert!(has(
        &f.events,
        "GITM 8.3: FR1IN (evade posture) halts one square short of AU1IN"
    ));
    assert_eq!(
        pos_of(&f, "FR2IN"),
        p("0-9"),
        "a path meeting a neutral is not taken"
    );
    assert!(has(
        &f.events,
        "GITM 8.3: FR2IN does not move: its path meets the neutral SW1IN at 2-9"
    ));
}

#[test]
fn gitm_8_5_impassable_terrain_blocks_with_an_enemy_present_only() {
    let mut map = TacMap::plain("G7-V8", Terrain::Open);
    for r in 3..=7 {
        map.set(Pos::new(3, r), Terrain::Water);
    }
    let r = rel();
    let mut f = Field::new(&map, &r, vec![goto(unit("FR1LC", "1-5"), "5-5")]);
    f.phase(1, &mut dice());
    assert_eq!(
        pos_of(&f, "FR1LC"),
        p("5-5"),
        "no enemy: it goes round the lake"
    );
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1LC", "1-5"), "5-5"),
            still(unit("AU1IN", "14-14")),
        ],
    );
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR1LC"), p("1-5"));
    assert!(has(&f.events, "GITM 8.5: FR1LC does not move: with an enemy in the square, its straight path to 5-5 crosses water at 3-5"));
}

#[test]
fn gitm_8_5_a_neutral_counts_in_its_home_nation_or_one_it_is_allied_with() {
    let mut map = TacMap::plain("G7-V8", Terrain::Open);
    for r in 3..=7 {
        map.set(Pos::new(3, r), Terrain::Water);
    }
    // SW is neutral to FR; the square is Austria's (`[control]`).
    let run = |r: &Relations| {
        let mut f = Field::new(
            &map,
            r,
            vec![
                goto(unit("FR1LC", "1-5"), "5-5"),
                still(unit("SW1IN", "14-14")),
            ],
        );
        f.phase(1, &mut dice());
        (pos_of(&f, "FR1LC"), texts(&f.events))
    };
    // Away from home and from its allies: 8.5 does not apply; FR1LC goes round the lake.
    assert_eq!(run(&rel().home("AU")).0, p("5-5"));
    // At home: the straight path is blocked.
    assert_eq!(run(&rel().home("SW")).0, p("1-5"));
    // In a nation it is actively allied with: blocked too.
    let (at, events) = run(&rel().allied("SW", "AU").home("AU"));
    assert_eq!(at, p("1-5"), "{events}");
    assert!(events.contains("GITM 8.5: FR1LC does not move"), "{events}");
    // 8.11 is the interceptor's own state alone: Austria's soil is not Switzerland's.
    assert!(!rel().allied("SW", "AU").home("AU").at_home.contains("SW"));
}

#[test]
fn gitm_8_5_a_cliff_blocks_with_an_enemy_present() {
    let mut map = TacMap::plain("G7-V8", Terrain::Open);
    map.set(p("2-2"), Terrain::HighHills);
    let r = rel();
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1IN", "0-2"), "4-2"),
            still(unit("AU1IN", "14-14")),
        ],
    );
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR1IN"), p("0-2"));
    assert!(has(&f.events, "climbs the cliff at 2-2"));
}

#[test]
fn gitm_8_6_fast_units_move_first_in_an_order_drawn_each_phase() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let ids = [
        "FR1IN", "FR2LC", "FR3IN", "FR4MC", "FR5LA", "FR6IN", "FR7HC",
    ];
    let brigades: Vec<TacBrigade> = ids
        .iter()
        .enumerate()
        .map(|(k, id)| still(unit(id, &format!("{k}-0"))))
        .collect();
    let mut f = Field::new(&map, &r, brigades);
    let mut d = dice();
    let order1 = f.move_order(1, &mut d);
    let order2 = f.move_order(2, &mut d);
    let kinds =
        |o: &[usize]| -> Vec<bool> { o.iter().map(|&i| f.brigades()[i].kind.is_fast()).collect() };
    assert_eq!(
        kinds(&order1),
        [true, true, true, false, false, false, false]
    );
    assert_eq!(kinds(&order2), kinds(&order1));
    assert_ne!(order1, order2, "the order is drawn anew each phase");
    let e = f.events.iter().find(|e| e.rule == "GITM 8.6").unwrap();
    assert!(e
        .text
        .starts_with("GITM 8.6: tactical phase 1 at G7-V8: fast units move first"));
    assert_eq!(
        e.rolls,
        [
            "gitm/tac/G7-V8/phase=1/order/fast",
            "gitm/tac/G7-V8/phase=1/order/slow"
        ]
    );
    // Same dice, same order: deterministic.
    let mut g = Field::new(&map, &r, f.brigades().to_vec());
    assert_eq!(g.move_order(1, &mut dice()), order1);
}

#[test]
fn gitm_8_7_a_river_is_crossed_only_by_a_ford_given_as_waypoint() {
    let map = river_map();
    let r = rel();
    let mut f = Field::new(&map, &r, vec![goto(unit("FR1IN", "5-7"), "9-7")]);
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR1IN"), p("5-7"));
    assert!(has(
        &f.events,
        "GITM 8.7: FR1IN does not move: 5-7 and 9-7 lie across a river"
    ));
    let mut b = goto(unit("FR1IN", "5-7"), "9-7");
    b.order.waypoint = Some(p("7-7"));
    let mut f = Field::new(&map, &r, vec![b]);
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR1IN"), p("9-7"));
}

#[test]
fn gitm_8_8_engage_the_nearest_enemy_fewest_diagonals_first() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut b = still(unit("FR1IN", "5-5"));
    b.order.engage = Some((1, 4));
    // Both three squares away; AU2IN straight east needs no diagonal move, AU1IN three.
    let mut f = Field::new(
        &map,
        &r,
        vec![
            b,
            still(unit("AU1IN", "8-8")),
            still(unit("AU2IN", "8-5")),
            still(unit("AU9CQ", "4-4")),
        ],
    );
    assert_eq!(
        f.brigades()[f.nearest_enemy(0).unwrap()].id,
        "AU2IN",
        "a headquarters only when no combat unit"
    );
    f.phase(1, &mut fixed(3));
    assert_eq!(pos_of(&f, "FR1IN"), p("8-5"), "{}", texts(&f.events));
    assert!(has(&f.events, "engaging AU2IN (8.8)"));
}

#[test]
fn gitm_8_8_engage_begins_the_phase_after_the_destination_is_reached() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut b = goto(unit("FR1IN", "0-0"), "3-0");
    b.order.engage = Some((1, 4));
    let mut f = Field::new(&map, &r, vec![b, still(unit("AU1IN", "3-4"))]);
    f.phase(1, &mut fixed(3));
    assert_eq!(
        pos_of(&f, "FR1IN"),
        p("3-0"),
        "the destination first, engaging not in the same phase"
    );
    f.phase(2, &mut fixed(3));
    assert_eq!(pos_of(&f, "FR1IN"), p("3-4"));
}

#[test]
fn gitm_8_10_support_box_at_10_5_radius_2() {
    let bx = Reaction {
        centre: p("10-5"),
        radius: 2,
        phases: (1, 5),
    };
    let inside: Vec<Pos> = (0..15u8)
        .flat_map(|c| (0..15u8).map(move |r| Pos::new(c, r)))
        .filter(|&q| bx.contains(q))
        .collect();
    assert_eq!(inside.len(), 25);
    assert_eq!(inside.first(), Some(&p("8-3")));
    assert_eq!(inside.last(), Some(&p("12-7")));
    assert!(!bx.contains(p("13-5")) && !bx.contains(p("10-8")));

    // A combat at 11-6 is in the box: the supporter at 9-5 joins it; one at 14-5 is not.
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut sup = still(unit("FR2IN", "9-5"));
    sup.order.support = Some(bx);
    let mut f = Field::new(
        &map,
        &r,
        vec![
            sup,
            goto(unit("FR1IN", "11-9"), "11-6"),
            still(unit("AU1IN", "11-6")),
        ],
    );
    f.phase(1, &mut fixed(3));
    assert_eq!(pos_of(&f, "FR2IN"), p("11-6"), "{}", texts(&f.events));
    assert!(has(
        &f.events,
        "GITM 8.10: FR2IN moves 9-5 to 11-6 to support the combat there (box 10-5 radius 2)"
    ));
}

#[test]
fn gitm_8_10_support_reaches_two_squares_three_for_fast_units() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let bx = Some(Reaction {
        centre: p("5-5"),
        radius: 4,
        phases: (1, 5),
    });
    let mut slow = still(unit("FR2IN", "5-2"));
    slow.order.support = bx;
    let mut fast = still(unit("FR3LC", "5-8"));
    fast.order.support = bx;
    let mut f = Field::new(
        &map,
        &r,
        vec![
            slow,
            fast,
            goto(unit("FR1IN", "1-5"), "5-5"),
            still(unit("AU1IN", "5-5")),
        ],
    );
    f.phase(1, &mut fixed(3));
    assert_eq!(pos_of(&f, "FR2IN"), p("5-2"));
    assert!(has(
        &f.events,
        "GITM 8.10: FR2IN does not support the combat at 5-5: 3 squares away, more than its 2"
    ));
    assert_eq!(pos_of(&f, "FR3LC"), p("5-5"));
}

#[test]
fn gitm_8_1_support_and_interception_are_tactical_moves_that_tire_and_tire_out() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let support = Some(Reaction {
        centre: p("5-5"),
        radius: 2,
        phases: (1, 5),
    });
    let intercept = Some(Reaction {
        centre: p("10-5"),
        radius: 2,
        phases: (1, 4),
    });
    for fatigue in [8, 9] {
        let mut helper = still(unit("FR2IN", "5-3"));
        helper.order.support = support;
        helper.fatigue = fatigue;
        let mut guard = still(unit("AU2LC", "10-9"));
        guard.order.intercept = intercept;
        guard.fatigue = fatigue;
        let mut f = Field::new(
            &map,
            &r,
            vec![
                helper,
                guard,
                goto(unit("FR1IN", "1-5"), "5-5"),
                still(unit("AU1IN", "5-5")),
                goto(unit("FR3IN", "14-5"), "9-5"),
            ],
        );
        f.phase(1, &mut fixed(3));
        let all = texts(&f.events);
        if fatigue == 8 {
            assert_eq!(pos_of(&f, "FR2IN"), p("5-5"), "{all}");
            assert!(has(&f.events, "to support the combat there (box 5-5 radius 2); fatigue +1 with an enemy in the square (8.1)"), "{all}");
            assert!(has(&f.events, "AU2LC intercepts FR3IN at 12-5"), "{all}");
            assert!(
                has(
                    &f.events,
                    "a combat begins; fatigue +1 with an enemy in the square (8.1)"
                ),
                "{all}"
            );
        } else {
            assert_eq!(pos_of(&f, "FR2IN"), p("5-3"), "{all}");
            assert!(
                has(
                    &f.events,
                    "GITM 8.1: FR2IN does not support the combat at 5-5: fatigue 9 is over 8"
                ),
                "{all}"
            );
            assert_eq!(pos_of(&f, "AU2LC"), p("10-9"), "{all}");
            assert!(!all.contains("intercepts"), "{all}");
        }
    }
}

#[test]
fn gitm_6_9_the_default_order_supports_within_2_of_the_start() {
    let o = TacOrder::default_at(p("4-4"));
    assert_eq!(o.destination, None);
    assert_eq!(
        (o.attack, o.defence, o.line),
        (Posture::Skirmish, Posture::Skirmish, Line::Front)
    );
    let s = o.support.unwrap();
    assert_eq!((s.centre, s.radius, s.phases), (p("4-4"), 2, (1, 5)));
}

#[test]
fn gitm_8_11_interception_at_the_edge_of_the_box_begins_a_combat() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut guard = still(unit("AU1LC", "10-9"));
    guard.order.intercept = Some(Reaction {
        centre: p("10-5"),
        radius: 2,
        phases: (1, 4),
    });
    let mut f = Field::new(&map, &r, vec![guard, goto(unit("FR1IN", "14-5"), "4-5")]);
    f.phase(1, &mut fixed(3));
    // FR1IN enters the box at 12-5, its edge; AU1LC, 4 squares off, meets it there.
    assert!(
        has(&f.events, "GITM 8.11: AU1LC intercepts FR1IN at 12-5"),
        "{}",
        texts(&f.events)
    );
    assert!(has(&f.events, "combat at 12-5"), "{}", texts(&f.events));
}

#[test]
fn gitm_8_11_no_interception_of_a_one_square_move_nor_beyond_the_allowance() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let bx = Some(Reaction {
        centre: p("10-5"),
        radius: 2,
        phases: (1, 4),
    });
    let mut guard = still(unit("AU1IN", "10-9"));
    guard.order.intercept = bx;
    let mut f = Field::new(
        &map,
        &r,
        vec![guard.clone(), goto(unit("FR1IN", "13-5"), "12-5")],
    );
    f.phase(1, &mut fixed(3));
    assert_eq!(pos_of(&f, "FR1IN"), p("12-5"));
    assert_eq!(
        pos_of(&f, "AU1IN"),
        p("10-9"),
        "a one-square move is not intercepted"
    );

    let mut far = guard;
    far.pos = p("10-14");
    let mut f = Field::new(&map, &r, vec![far, goto(unit("FR1IN", "14-5"), "4-5")]);
    f.phase(1, &mut fixed(3));
    assert!(
        has(
            &f.events,
            "but it lies beyond its 4 squares: it moves 10-14 to 11-10 and does not intercept"
        ),
        "{}",
        texts(&f.events)
    );
    assert_eq!(pos_of(&f, "FR1IN"), p("10-5"));
}

#[test]
fn gitm_8_11_a_neutral_is_halted_at_home_without_combat() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel().home("AU");
    let mut guard = still(unit("AU1IN", "10-8"));
    guard.order.intercept = Some(Reaction {
        centre: p("10-5"),
        radius: 2,
        phases: (1, 4),
    });
    let mut f = Field::new(&map, &r, vec![guard, goto(unit("SW1IN", "14-5"), "4-5")]);
    f.phase(1, &mut fixed(3));
    assert!(
        has(
            &f.events,
            "GITM 8.11: AU1IN intercepts the neutral SW1IN at 12-5"
        ),
        "{}",
        texts(&f.events)
    );
    assert_eq!(pos_of(&f, "SW1IN"), p("12-5"));
    assert!(f.combat_squares().is_empty());
}

#[test]
fn gitm_8_12_peace_moves_are_automatic_and_unlimited() {
    let map = river_map();
    let r = rel();
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1IN", "0-0"), "14-14"),
            goto(unit("FR2IN", "0-1"), "7-3"),
        ],
    );
    f.peace();
    assert_eq!(pos_of(&f, "FR1IN"), p("14-14"));
    assert_eq!(pos_of(&f, "FR2IN"), p("0-1"));
    assert!(has(
        &f.events,
        "GITM 8.12: peace or truce: FR2IN stays: 7-3 is river"
    ));
}

// ---- GITM 9: combat ----

#[test]
fn gitm_9_1_combat_ends_the_phase_but_not_the_last() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut f = Field::new(
        &map,
        &r,
        vec![still(unit("FR1IN", "5-5")), still(unit("AU1IN", "5-5"))],
    );
    f.phase(LAST_PHASE, &mut fixed(3));
    assert!(has(
        &f.events,
        "GITM 5.2: the final tactical phase has no combat"
    ));
    assert!(f.losses.is_empty());
    f.phase(4, &mut fixed(3));
    assert!(
        has(&f.events, "pbem GITM-T1: firing at 5-5"),
        "{}",
        texts(&f.events)
    );
    assert!(has(&f.events, "pbem GITM-T4: melee at 5-5"));
    assert!(f.losses.values().sum::<u32>() > 0);
}

/// A town at 7-7 on open ground with, when `fort` is some, a fort (strength, capacity); AU1IN and
/// AU2IN hold it, FR1IN and FR2IN attack it from the south; one combat phase with dice showing 3:
/// the men each lost, and the events.
fn fort_battle(
    fort: Option<(u8, u32)>,
    relations: &Relations,
    au2_no_fort: bool,
) -> (BTreeMap<String, u32>, Vec<TacEvent>) {
    let mut map = TacMap::plain("G7-V6", Terrain::Open);
    map.set(p("7-7"), Terrain::Town);
    if let Some((strength, capacity)) = fort {
        map.set_fort(p("7-7"), map::Fort { strength, capacity });
    }
    let mut au2 = still(unit("AU2IN", "7-7"));
    au2.order.no_fort = au2_no_fort;
    let mut f = Field::new(
        &map,
        relations,
        vec![
            still(unit("AU1IN", "7-7")),
            au2,
            goto(unit("FR1IN", "7-9"), "7-7"),
            goto(unit("FR2IN", "6-9"), "7-7"),
        ],
    );
    f.phase(1, &mut fixed(3));
    let (_, events, losses) = f.finish();
    (losses, events)
}

fn lost(losses: &BTreeMap<String, u32>, id: &str) -> u32 {
    losses.get(id).copied().unwrap_or(0)
}

#[test]
fn pbem_gitm_t7_a_garrison_defends_with_the_forts_rating() {
    // GITM 2.6, 8.2: Austria holds the square; its brigades in the town enter the fort.
    let home = rel().home("AU");
    let (open, open_events) = fort_battle(None, &home, false);
    let (fort, events) = fort_battle(Some((5, 8000)), &home, false);
    assert!(
        has(&events, "pbem GITM-T7: the fort at 7-7 (strength 5, capacity 8000) holds AU1INF, AU2INF: they defend with rating 5 (the square's 3)"),
        "{}",
        texts(&events)
    );
    assert!(has(
        &events,
        "the garrison at the fort's rating 5 (pbem GITM-T7)"
    ));
    assert!(!has(&open_events, "pbem GITM-T7"));
    // The fort's rating 5 in place of the town's 3: less fire taken, more melee strength.
    for id in ["AU1IN", "AU2IN"] {
        assert!(
            lost(&fort, id) < lost(&open, id),
            "{id}: {} against {}",
            lost(&fort, id),
            lost(&open, id)
        );
    }
    assert!(
        lost(&fort, "FR1IN") + lost(&fort, "FR2IN") > lost(&open, "FR1IN") + lost(&open, "FR2IN"),
        "{}",
        texts(&events)
    );
    // A fort weaker than the square's rating: the square's (the better of the two).
    assert_eq!(tables::fort_rating(3, 2), 3);
    assert_eq!(tables::fort_rating(0, 5), 5);
}

#[test]
fn pbem_gitm_t7_who_enters_the_fort_capacity_no_fort_and_the_holder() {
    let home = rel().home("AU");
    // GITM 2.6: room for 4000 infantrymen: AU1IN (3000) enters, AU2IN (3000) does not.
    let (_, events) = fort_battle(Some((4, 4000)), &home, false);
    assert!(
        has(&events, "holds AU1INF: they defend with rating 4 (the square's 3); no room for AU2IN (3000) (GITM 2.6's capacity)"),
        "{}",
        texts(&events)
    );
    // GITM 8.2: "do not enter fort" keeps AU2IN outside, with room to spare.
    let (_, events) = fort_battle(Some((4, 8000)), &home, true);
    assert!(
        has(&events, "holds AU1INF: they defend"),
        "{}",
        texts(&events)
    );
    // A square Austria does not hold: its fort shelters no Austrian (8.4: the city's side holds it).
    let (_, events) = fort_battle(Some((4, 8000)), &rel(), false);
    assert!(!has(&events, "pbem GITM-T7"), "{}", texts(&events));
    // GITM 2.6's transport measure: 3 a cavalryman, 2 an artillerist, 100 men a battery.
    assert_eq!(tables::fort_space(Kind::HeavyCavalry, 1000, 0), 3000);
    assert_eq!(tables::fort_space(Kind::LightArtillery, 300, 0), 600);
    assert_eq!(tables::fort_space(Kind::Infantry, 3000, 1), 3100);
    assert_eq!(tables::fort_space(Kind::CorpsHq, 100, 0), 100);
}

#[test]
fn gitm_9_2_headquarters_fall_back_or_shatter() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1IN", "5-2"), "5-5"),
            still(unit("AU1CQ", "5-5")),
        ],
    );
    f.phase(1, &mut fixed(50));
    assert!(
        has(
            &f.events,
            "GITM 9.2: an enemy enters 5-5: AU1CQ (d100 50) falls back to"
        ),
        "{}",
        texts(&f.events)
    );
    assert_ne!(pos_of(&f, "AU1CQ"), p("5-5"));
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1IN", "5-2"), "5-5"),
            still(unit("AU1CQ", "5-5")),
        ],
    );
    f.phase(1, &mut fixed(10));
    assert!(f.brigade("AU1CQ").unwrap().shattered);
}

#[test]
fn gitm_9_2_a_corps_hq_falling_back_or_shattered_loses_its_supplies() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    for (face, word) in [(50, "falls back"), (10, "shatters")] {
        let mut cq = still(unit("AU1CQ", "5-5"));
        cq.supplies = 2;
        let mut aq = still(unit("AU1AQ", "5-5"));
        aq.supplies = 1;
        let mut f = Field::new(&map, &r, vec![goto(unit("FR1IN", "5-2"), "5-5"), cq, aq]);
        f.phase(1, &mut fixed(face));
        assert!(
            has(&f.events, "the 2 supply it carried is destroyed") && has(&f.events, word),
            "{}",
            texts(&f.events)
        );
        assert_eq!(f.brigade("AU1CQ").unwrap().supplies, 0);
        // 9.2 names the corps HQ's supplies alone.
        assert_eq!(f.brigade("AU1AQ").unwrap().supplies, 1);
    }
}

#[test]
fn gitm_9_3_one_brigade_at_least_in_front_and_in_second_before_the_rear() {
    let mut a = unit("FR1IN", "0-0");
    a.order.line = Line::Rear;
    let mut b = unit("FR2IN", "0-0");
    b.order.line = Line::Rear;
    let side = [&a, &b];
    let mut events = Vec::new();
    let lines = assign_lines(&side, &mut fixed(2), "t", &mut events);
    assert_eq!(lines, [Line::Second, Line::Front]);
    assert!(events[0]
        .text
        .starts_with("GITM 9.3: no brigade of FR asked for the front line; FR2IN drawn"));
    assert!(events[1].text.contains("FR1IN drawn"), "{events:?}");
}

#[test]
fn gitm_9_4_frontage_of_3700() {
    let mut b = unit("FR1IN", "0-0");
    assert_eq!(spaces(&b, 3000), 3000);
    b.batteries = 1;
    assert_eq!(spaces(&b, 3000), 3700);
    let c = unit("FR2HC", "0-0");
    assert_eq!(spaces(&c, 2000), 6000);
    let a = unit("FR3HA", "0-0");
    assert_eq!(spaces(&a, 750), 6000);
}

#[test]
fn gitm_9_4_attackers_from_two_directions_12000_9000_12000() {
    let set = |d: &[Dir]| d.iter().copied().collect::<BTreeSet<Dir>>();
    assert_eq!(frontage(&set(&[Dir::N])), 6000);
    assert_eq!(frontage(&set(&[])), 6000);
    assert_eq!(frontage(&set(&[Dir::N, Dir::E])), 12000);
    assert_eq!(frontage(&set(&[Dir::N, Dir::Ne])), 9000);
    assert_eq!(frontage(&set(&[Dir::N, Dir::Ne, Dir::E])), 12000);
    assert_eq!(
        frontage(&set(&[Dir::Nw, Dir::N])),
        9000,
        "adjacent across north"
    );
}

#[test]
fn gitm_9_4_an_overfull_front_line_shares_it_by_strength() {
    let a = unit("FR1IN", "0-0"); // 3000 men
    let mut b = unit("FR2IN", "0-0");
    b.men = 6000;
    let mut c = unit("FR3IN", "0-0");
    c.order.line = Line::Rear;
    let placed = place(&[&a, &b, &c], &[Line::Front, Line::Front, Line::Rear], 6000);
    assert_eq!((placed[0].front, placed[0].rear), (2000, 1000));
    assert_eq!((placed[1].front, placed[1].rear), (4000, 2000));
    assert_eq!((placed[2].front, placed[2].rear), (0, 3000));
}

#[test]
fn gitm_9_5_infantry_forms_squares_against_cavalry() {
    let hc = unit("AU1HC", "0-0");
    let lc = unit("AU2LC", "0-0");
    let inf = unit("AU3IN", "0-0");
    assert!(forms_squares(&[(&hc, 1500), (&lc, 1500)]));
    assert!(
        !forms_squares(&[(&hc, 1500), (&inf, 500)]),
        "not against an infantry brigade"
    );
    assert!(!forms_squares(&[]));
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("AU1HC", "5-2"), "5-5"),
            still(unit("FR1IN", "5-5")),
        ],
    );
    f.phase(1, &mut fixed(3));
    assert!(
        has(&f.events, "GITM 9.5: the infantry at 5-5 forms squares"),
        "{}",
        texts(&f.events)
    );
    assert_eq!(f.brigade("FR1IN").unwrap().formation, Formation::Square);
}

#[test]
fn pbem_gitm_t4_odds_columns() {
    assert_eq!(tables::odds_column(1, 3), 0);
    assert_eq!(tables::odds_column(1, 2), 1);
    assert_eq!(tables::odds_column(1, 1), 2);
    assert_eq!(tables::odds_column(3, 2), 3);
    assert_eq!(tables::odds_column(2, 1), 4);
    assert_eq!(tables::odds_column(5, 0), 4);
}

#[test]
fn pbem_gitm_t6_a_failed_morale_check_falls_back_or_shatters() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    // Two brigades of 4,000 against 3,000 militia: odds of 2:1 or more; every die shows its highest
    // face, and the militia's d100 of 100 fails its check by more than 40.
    let mut big = goto(unit("FR1IN", "5-2"), "5-5");
    big.men = 4000;
    let mut big2 = goto(unit("FR2IN", "5-8"), "5-5");
    big2.men = 4000;
    let mut f = Field::new(&map, &r, vec![big, big2, still(unit("AU1MI", "5-5"))]);
    f.phase(1, &mut fixed(100));
    let au = f.brigade("AU1MI").unwrap();
    assert!(
        has(&f.events, "pbem GITM-T6: AU1MI fails its morale check"),
        "{}",
        texts(&f.events)
    );
    assert!(au.shattered);
    assert!(has(&f.events, "the attackers win"));
}

#[test]
fn tactical_phase_is_deterministic_for_the_same_dice() {
    let map = river_map();
    let r = rel();
    let mk = || {
        let mut e = still(unit("AU1IN", "10-7"));
        e.order.engage = Some((1, 4));
        let mut g = still(unit("AU2LC", "12-3"));
        g.order.intercept = Some(Reaction {
            centre: p("8-7"),
            radius: 2,
            phases: (1, 4),
        });
        let mut w = goto(unit("FR1IN", "2-7"), "10-7");
        w.order.waypoint = Some(p("7-7"));
        vec![
            e,
            g,
            w,
            goto(unit("FR2LC", "3-3"), "6-6"),
            still(unit("FR3CQ", "1-1")),
        ]
    };
    let run = || {
        let mut f = Field::new(&map, &r, mk());
        let mut d = dice();
        for ph in 1..=LAST_PHASE {
            f.phase(ph, &mut d);
        }
        f.finish()
    };
    let (a, ea, la) = run();
    let (b, eb, lb) = run();
    assert_eq!((a, ea, la), (b, eb, lb));
}

// ---- GITM 4.2: sighting on the tactical map ----

#[test]
fn gitm_4_2_eight_directions_by_the_nearest_compass_angle() {
    use super::sighting::direction;
    assert_eq!(direction(0, 0), None);
    assert_eq!(direction(0, -3), Some(Dir::N));
    assert_eq!(direction(3, -1), Some(Dir::E), "18 degrees off east");
    assert_eq!(direction(2, -1), Some(Dir::Ne), "27 degrees off east");
    assert_eq!(direction(-5, 5), Some(Dir::Sw));
    assert_eq!(direction(-1, 4), Some(Dir::S));
}

#[test]
fn gitm_4_2_the_nearest_enemy_in_each_of_eight_directions() {
    let map = TacMap::plain("G7-V6", Terrain::Open);
    let r = rel();
    let eye = still(unit("FR1IN", "7-7"));
    let others = [
        ("AU1IN", "7-4"),   // north, 3
        ("AU8IN", "8-4"),   // north too (18 degrees), equally near: seen as well
        ("AU2IN", "7-2"),   // north, 5: hidden
        ("AU1CQ", "7-6"),   // north, 1: a headquarters, seen, hides nothing
        ("AU3IN", "10-7"),  // east, 3
        ("AU5IN", "11-7"),  // east, 4: hidden
        ("AU2CQ", "2-2"),   // northwest: the only one there, a headquarters
        ("AU6IN", "10-10"), // southeast, 3
    ];
    let mut brigades = vec![eye, still(unit("FR2CQ", "0-14"))];
    brigades.extend(others.iter().map(|(id, at)| still(unit(id, at))));
    let f = Field::new(&map, &r, brigades);
    let seen = f.sightings();
    let france: Vec<&str> = seen["FR"].iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(
        france,
        ["AU1CQ", "AU1IN", "AU2CQ", "AU3IN", "AU6IN", "AU8IN"]
    );
    // The Austrians see FR1IN; a headquarters sights nothing, but is seen.
    let austria: Vec<&str> = seen["AU"].iter().map(|(id, _)| id.as_str()).collect();
    assert!(austria.contains(&"FR1IN"));
    assert!(!seen.contains_key("XX"));
}

#[test]
fn gitm_4_2_each_side_is_told_its_own_sighting_in_the_last_phase() {
    let map = TacMap::plain("G7-V6", Terrain::Open);
    let r = rel();
    let mut f = Field::new(
        &map,
        &r,
        vec![still(unit("FR1IN", "3-3")), still(unit("AU1IN", "9-9"))],
    );
    f.phase(LAST_PHASE, &mut fixed(1));
    let told: Vec<(&str, &str)> = f
        .events
        .iter()
        .filter(|e| e.rule == "GITM 4.2")
        .map(|e| {
            let sides = e.told.as_ref().unwrap();
            assert_eq!(sides.len(), 1);
            (sides.first().unwrap().as_str(), e.text.as_str())
        })
        .collect();
    assert_eq!(told.len(), 2);
    assert!(
        told[0].0 == "AU"
            && told[0]
                .1
                .ends_with("see the nearest others in each of eight directions: FR1IN at 3-3")
    );
    assert!(told[1].0 == "FR" && told[1].1.contains("AU1IN at 9-9"));
}

/// The sides each event whose text holds `needle` is told to.
fn told(events: &[TacEvent], needle: &str) -> Vec<Vec<String>> {
    events
        .iter()
        .filter(|e| e.text.contains(needle))
        .map(|e| e.told.clone().unwrap().into_iter().collect())
        .collect()
}

/// One event told to one side.
fn one(side: &str) -> Vec<Vec<String>> {
    vec![vec![side.to_string()]]
}

#[test]
fn gitm_4_4_a_tactical_move_is_told_by_what_was_seen_of_its_start_and_end() {
    // France's FR1IN at 7-12 looks north; Austria's screen AU4IN at 7-3 hides what lies beyond it.
    let map = TacMap::plain("G7-V6", Terrain::Open);
    let r = rel();
    let mut f = Field::new(
        &map,
        &r,
        vec![
            // Seen at both ends (north of FR1IN, no farther than the nearest Austrian there).
            goto(unit("AU1IN", "7-5"), "7-7"),
            // Behind the screen at the start, in the open at the end: France sees it arrive.
            goto(unit("AU2IN", "7-1"), "3-9"),
            // In the open at the start, behind the screen at the end: France sees it leave.
            goto(unit("AU3LC", "1-9"), "7-0"),
            still(unit("AU4IN", "7-3")),
            still(unit("FR1IN", "7-12")),
        ],
    );
    f.phase(1, &mut fixed(1));
    // The mover's side is told the whole move, and it alone.
    assert_eq!(
        told(&f.events, "GITM 8.2: AU1IN moves 7-5 to 7-7"),
        one("AU")
    );
    assert_eq!(
        told(&f.events, "GITM 8.2: AU2IN moves 7-1 to 5-5"),
        one("AU")
    );
    assert_eq!(
        told(&f.events, "GITM 8.2: AU3LC moves 1-9 to 5-3"),
        one("AU")
    );
    // France: AU1IN seen at both ends, AU2IN at the end alone, AU3LC at the start alone.
    assert_eq!(
        told(&f.events, "GITM 4.4: AU1IN is seen moving 7-5 to 7-7"),
        one("FR")
    );
    assert_eq!(
        told(
            &f.events,
            "GITM 4.4: AU2IN is seen arriving at 5-5; where it came from was not seen"
        ),
        one("FR"),
        "{}",
        texts(&f.events)
    );
    assert_eq!(
        told(
            &f.events,
            "GITM 4.4: AU3LC is seen leaving 1-9; where it went was not seen"
        ),
        one("FR")
    );
    assert!(!has(&f.events, "AU2IN is seen moving") && !has(&f.events, "AU3LC is seen moving"));
    // The drawn order of 8.6 names brigades a side may not see: the referee's alone.
    assert_eq!(told(&f.events, "GITM 8.6"), [Vec::<String>::new()]);
}

#[test]
fn gitm_4_4_a_move_through_a_waypoint_is_two_moves() {
    let map = TacMap::plain("G7-V6", Terrain::Open);
    let r = rel();
    // AU1LC goes 0-3 to its waypoint 0-0, then to 3-3, in one phase of six squares. FR1IN at 0-6
    // sees north only as far as AU2IN at 0-4: not 0-3 nor 0-0; 3-3, northeast, it sees.
    let mut mover = goto(unit("AU1LC", "0-3"), "3-3");
    mover.order.waypoint = Some(p("0-0"));
    let mut f = Field::new(
        &map,
        &r,
        vec![
            mover,
            still(unit("AU2IN", "0-4")),
            still(unit("FR1IN", "0-6")),
        ],
    );
    f.phase(1, &mut fixed(1));
    assert_eq!(
        told(&f.events, "GITM 8.2: AU1LC moves 0-3 to 3-3"),
        [vec!["AU".to_string()]]
    );
    // The second leg, 0-0 to 3-3, seen at its end; the first, 0-3 to 0-0, at neither: not told.
    assert_eq!(
        told(
            &f.events,
            "GITM 4.4: AU1LC is seen arriving at 3-3; where it came from was not seen"
        ),
        [vec!["FR".to_string()]],
        "{}",
        texts(&f.events)
    );
    assert!(!has(&f.events, "AU1LC is seen leaving"));
    assert!(!has(&f.events, "is seen arriving at 0-0"));
}

#[test]
fn gitm_4_6_a_combat_is_told_to_its_sides_and_to_those_who_see_it() {
    let map = TacMap::plain("G7-V6", Terrain::Open);
    let r = rel();
    let mut f = Field::new(
        &map,
        &r,
        vec![
            still(unit("AU1IN", "5-5")),
            goto(unit("FR1IN", "5-7"), "5-5"),
            // Naples, neutral, looks west at the combat square from 10-5.
            still(unit("NA1IN", "10-5")),
            // Spain, neutral, looks north from 5-14 only as far as AU9IN at 5-12.
            still(unit("AU9IN", "5-12")),
            still(unit("SP1IN", "5-14")),
        ],
    );
    f.phase(1, &mut fixed(3));
    let sides = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // The melee told whole (both sides' strengths and losses) to the referee alone; to each side
    // in the words of its own figures; to Naples, which sees it, the die and who won.
    assert_eq!(
        told(&f.events, "pbem GITM-T4: melee at 5-5"),
        [sides(&[]), sides(&["FR"]), sides(&["AU"]), sides(&["NA"])],
        "{}",
        texts(&f.events)
    );
    assert_eq!(
        told(&f.events, "GITM 4.4: FR1IN is seen moving 5-7 to 5-5"),
        [sides(&["AU", "NA"])]
    );
    assert!(f
        .events
        .iter()
        .all(|e| !e.told.as_ref().unwrap().contains("SP") || e.rule == "GITM 4.2"));
}

#[test]
fn gitm_8_3_a_combat_over_is_forgotten_and_a_new_one_has_its_own_attacker() {
    let map = TacMap::plain("G7-V6", Terrain::Open);
    let r = rel();
    // FR1IN attacks AU1MI at 5-5; the militia, beaten, shatters (every die at its highest).
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1IN", "5-2"), "5-5"),
            still(unit("AU1MI", "5-5")),
        ],
    );
    f.phase(1, &mut fixed(100));
    assert!(
        f.brigade("AU1MI").unwrap().shattered,
        "{}",
        texts(&f.events)
    );
    assert!(f.battles.is_empty(), "{:?}", f.battles);
    // Then AU2IN attacks FR1IN there: the attackers are Austrian.
    f.add(goto(unit("AU2IN", "5-9"), "5-5"));
    f.phase(2, &mut fixed(1));
    assert!(
        has(
            &f.events,
            "combat at 5-5: the attackers (AU) came from south"
        ),
        "{}",
        texts(&f.events)
    );
}

// ---- GITM 2.7, 8.4: a besieged city on the tactical map ----

/// A plain map with a city at 7-7 held by FR and besieged by AU.
fn besieged_map() -> TacMap {
    let mut m = TacMap::plain("G7-V8", Terrain::Open);
    m.set_siege(
        p("7-7"),
        map::Siege {
            by: "AU".to_string(),
            holder: "FR".to_string(),
        },
    );
    m
}

#[test]
fn gitm_8_4_a_besieged_garrison_leaves_its_city_only_to_attack_a_besieger_next_to_it() {
    let map = besieged_map();
    let r = rel();
    let mut engage = still(unit("FR2IN", "7-7"));
    engage.order.engage = Some((1, 5));
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1IN", "7-7"), "7-3"),
            engage,
            still(unit("AU1IN", "7-10")),
        ],
    );
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR1IN"), p("7-7"), "{}", texts(&f.events));
    assert_eq!(
        pos_of(&f, "FR2IN"),
        p("7-7"),
        "a besieger three squares off"
    );
    let refused: Vec<&TacEvent> = f.events.iter().filter(|e| e.rule == "GITM 8.4").collect();
    assert_eq!(refused.len(), 2, "{}", texts(&f.events));
    assert!(refused[0].text.contains(
        "does not move: it is inside the city at 7-7 besieged by AU, and leaves its square only by one square onto a besieger"
    ));
    // One square onto a besieger: the sortie is made and a combat begins there.
    let mut f = Field::new(
        &map,
        &r,
        vec![
            goto(unit("FR1IN", "7-7"), "8-8"),
            still(unit("AU1IN", "8-8")),
        ],
    );
    f.phase(1, &mut dice());
    assert!(
        has(
            &f.events,
            "FR1IN meets AU1IN at 8-8: both halt and a combat begins"
        ),
        "{}",
        texts(&f.events)
    );
    assert!(!f.events.iter().any(|e| e.rule == "GITM 8.4"));
}

#[test]
fn gitm_8_4_only_brigades_hostile_to_the_holder_enter_a_besieged_city() {
    let map = besieged_map();
    let r = rel().hostile("IT", "AU");
    let mut f = Field::new(
        &map,
        &r,
        vec![
            still(unit("FR1IN", "7-7")),
            // Italy, allied to the holder: a relief column stops short of the city.
            goto(unit("IT1IN", "7-3"), "7-11"),
            // Austria, hostile to the holder, enters and fights.
            goto(unit("AU1IN", "3-7"), "7-7"),
        ],
    );
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "IT1IN"), p("7-6"), "{}", texts(&f.events));
    let stop = f
        .events
        .iter()
        .find(|e| e.rule == "GITM 8.4")
        .expect("the relief is stopped");
    assert_eq!(
        stop.text,
        "GITM 8.4: IT1IN halts before 7-7: the city there is besieged by AU, and only brigades hostile to FR enter it"
    );
    assert!(
        has(
            &f.events,
            "AU1IN meets FR1IN at 7-7: both halt and a combat begins"
        ),
        "{}",
        texts(&f.events)
    );
    // Without the siege the same column walks through the city.
    let open = TacMap::plain("G7-V8", Terrain::Open);
    let mut f = Field::new(
        &open,
        &r,
        vec![
            still(unit("FR1IN", "7-7")),
            goto(unit("IT1IN", "7-3"), "7-11"),
        ],
    );
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "IT1IN"), p("7-7"));
}

// ---- GITM 2.5: 24 brigades, 12 allied, on a tactical square ----

/// `fr` French and `au` Austrian brigades at 7-7, and `mover` heading there from 7-3.
fn crowd(fr: u32, au: u32, mover: &str) -> Vec<TacBrigade> {
    let mut v: Vec<TacBrigade> = (1..=fr)
        .map(|k| still(unit(&format!("FR{k}IN"), "7-7")))
        .chain((1..=au).map(|k| still(unit(&format!("AU{k}IN"), "7-7"))))
        .collect();
    v.push(goto(unit(mover, "7-3"), "7-7"));
    v
}

#[test]
fn gitm_2_5_a_move_into_a_square_of_24_brigades_stops_short() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    // Russia is hostile to both: 12 allied brigades of its own are not what stops it.
    let r = Relations::default()
        .hostile("FR", "AU")
        .hostile("RU", "AU")
        .hostile("RU", "FR");
    let mut f = Field::new(&map, &r, crowd(12, 12, "RU1IN"));
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "RU1IN"), p("7-6"), "{}", texts(&f.events));
    let full = f
        .events
        .iter()
        .find(|e| e.rule == "GITM 2.5")
        .expect("the move stops short");
    assert_eq!(
        full.text,
        "GITM 2.5: RU1IN halts before 7-7: it holds 24 brigades already (SOP: the move stops short)"
    );
    // 23 there: it enters, and the combat takes it in.
    let mut f = Field::new(&map, &r, crowd(12, 11, "RU1IN"));
    f.phase(1, &mut dice());
    assert!(has(&f.events, "RU1IN meets"), "{}", texts(&f.events));
    assert!(!f.events.iter().any(|e| e.rule == "GITM 2.5"));
    // 12 French in a combat of 23: a thirteenth French brigade stops short of it.
    let mut f = Field::new(&map, &r, crowd(12, 11, "FR13IN"));
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR13IN"), p("7-6"));
    assert!(has(
        &f.events,
        "FR13IN halts before 7-7: it holds 12 allied brigades already (SOP: the move stops short)"
    ));
}

#[test]
fn gitm_2_5_a_support_move_does_not_join_a_full_square() {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut brigades = crowd(12, 11, "AU12IN");
    // The last AU brigade stands still; FR13IN supports the combat at 7-7 from 7-9.
    brigades.last_mut().unwrap().order.destination = None;
    let mut helper = unit("FR13IN", "7-9");
    helper.order.support = Some(Reaction {
        centre: p("7-7"),
        radius: 2,
        phases: (1, 5),
    });
    brigades.push(helper);
    let mut f = Field::new(&map, &r, brigades);
    f.phase(1, &mut dice());
    assert_eq!(pos_of(&f, "FR13IN"), p("7-9"), "{}", texts(&f.events));
    assert!(has(
        &f.events,
        "FR13IN halts before 7-7: it holds 12 allied brigades already (SOP: the move stops short); it does not support the combat there (8.10)"
    ));
}

/// The combat event of a turn's phase 1 at 5-5, where AU brigades come from `starts` onto FR1IN.
fn front_from(starts: &[&str]) -> String {
    let map = TacMap::plain("G7-V8", Terrain::Open);
    let r = rel();
    let mut brigades = vec![still(unit("FR1IN", "5-5"))];
    for (k, s) in starts.iter().enumerate() {
        brigades.push(goto(unit(&format!("AU{}IN", k + 1), s), "5-5"));
    }
    let mut f = Field::new(&map, &r, brigades);
    f.phase(1, &mut fixed(3));
    texts(&f.events)
}

#[test]
fn gitm_9_4_the_seeds_examples_in_a_combat_12000_9000_12000() {
    // One direction: 6000 spaces a side.
    let t = front_from(&["5-2"]);
    assert!(
        t.contains("came from north: a front line of 6000 spaces a side"),
        "{t}"
    );
    // North and east: 12,000; north and north-east: 9,000; north, north-east and east: 12,000.
    let t = front_from(&["5-2", "8-5"]);
    assert!(t.contains("a front line of 12000 spaces a side"), "{t}");
    let t = front_from(&["5-2", "8-2"]);
    assert!(t.contains("a front line of 9000 spaces a side"), "{t}");
    let t = front_from(&["5-2", "8-2", "8-5"]);
    assert!(t.contains("a front line of 12000 spaces a side"), "{t}");
}

#[test]
fn gitm_9_4_a_brigade_of_3000_with_a_battery_takes_3700_spaces_of_the_front() {
    // FR1IN, 3000 men and a battery (3700 spaces), and FR2IN beside it in the front of 6000: with
    // 2300 men they fill it exactly; with 2400 (6100 spaces) the front is overfull and shared.
    let deploy = |men: u32| {
        let map = TacMap::plain("G7-V8", Terrain::Open);
        let r = rel();
        let mut a = still(unit("FR1IN", "5-5"));
        a.batteries = 1;
        let mut b = still(unit("FR2IN", "5-5"));
        b.men = men;
        let mut f = Field::new(&map, &r, vec![a, b, goto(unit("AU1IN", "5-2"), "5-5")]);
        f.phase(1, &mut fixed(3));
        texts(&f.events)
    };
    let t = deploy(2300);
    assert!(
        t.contains("the defenders at 5-5 (FR) form their battle lines: front line: FR1IN, FR2IN"),
        "{t}"
    );
    let t = deploy(2400);
    assert!(t.contains("more fighting from the rear"), "{t}");
}

/// The numbers of `text` that stand as words of their own (not inside a square's `5-5`).
fn numbers(text: &str) -> BTreeSet<u32> {
    text.split(|c: char| !c.is_ascii_digit() && c != '-')
        .filter(|w| !w.contains('-'))
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn gitm_4_2_a_side_in_battle_is_told_the_enemys_brigades_never_their_figures() {
    // France (5000 and 4000 men, more than a front line of 6000 holds) attacks Austria (4500 and
    // 3500) at 5-5: every die at 4.
    let map = TacMap::plain("G7-V6", Terrain::Open);
    let r = rel();
    let men = |mut b: TacBrigade, m: u32| {
        b.men = m;
        b
    };
    let mut f = Field::new(
        &map,
        &r,
        vec![
            men(goto(unit("FR1IN", "5-7"), "5-5"), 5000),
            men(goto(unit("FR2IN", "5-7"), "5-5"), 4000),
            men(still(unit("AU1IN", "5-5")), 4500),
            men(still(unit("AU2IN", "5-5")), 3500),
        ],
    );
    f.phase(1, &mut fixed(4));
    let all = texts(&f.events);
    // The whole firing and melee (both sides' figures) are the referee's alone.
    let whole = |needle: &str| {
        let e = f
            .events
            .iter()
            .find(|e| e.text.contains(needle))
            .unwrap_or_else(|| panic!("no {needle}: {all}"));
        assert_eq!(e.told, Some(BTreeSet::new()), "{}", e.text);
        numbers(&e.text)
    };
    let fire = whole("hits");
    let melee = whole("strength");
    let after = |id: &str| f.brigade(id).unwrap().men;
    // Each side's figures: its men before and after, and the figures of the whole events the
    // other side's words leave out (found by what the side's own words tell it).
    let figures = |side: &str, before: [u32; 2], ids: [&str; 2]| {
        let mut out: BTreeSet<u32> = before.into_iter().collect();
        out.extend(ids.iter().map(|id| after(id)));
        out.extend(ids.iter().map(|id| {
            let b = before[ids.iter().position(|x| x == id).unwrap()];
            b - after(id)
        }));
        let own: BTreeSet<u32> = f
            .events
            .iter()
            .filter(|e| e.told.as_ref().unwrap().len() == 1)
            .filter(|e| e.told.as_ref().unwrap().contains(side))
            .flat_map(|e| numbers(&e.text))
            .collect();
        out.extend(fire.union(&melee).filter(|n| own.contains(n) && **n > 6));
        out
    };
    let french = figures("FR", [5000, 4000], ["FR1IN", "FR2IN"]);
    let austrian = figures("AU", [4500, 3500], ["AU1IN", "AU2IN"]);
    for (side, theirs, enemy) in [("FR", &french, "AU"), ("AU", &austrian, "FR")] {
        let foreign: BTreeSet<u32> = if side == "FR" { &austrian } else { &french }
            .difference(theirs)
            .copied()
            .collect();
        let told: Vec<&TacEvent> = f
            .events
            .iter()
            .filter(|e| e.told.as_ref().unwrap().contains(side))
            .collect();
        for e in &told {
            let leak: Vec<u32> = numbers(&e.text).intersection(&foreign).copied().collect();
            assert!(
                leak.is_empty(),
                "{side} is told {leak:?} of {enemy}: {}",
                e.text
            );
        }
        // Told its own losses and strength, the other's lines by identity, and its own die.
        let told_text = told
            .iter()
            .map(|e| e.text.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(told_text.contains(&format!("{enemy}1IN")), "{told_text}");
        assert!(
            told_text.contains("their brigades are seen, not their men"),
            "{told_text}"
        );
        let fire_part = told.iter().find(|e| e.rule == "pbem GITM-T1").unwrap();
        assert_eq!(fire_part.rolls.len(), 1, "{}", fire_part.text);
        let melee_part = told.iter().find(|e| e.rule == "pbem GITM-T4").unwrap();
        assert_eq!(melee_part.rolls.len(), 1, "{}", melee_part.text);
        assert!(
            !numbers(&melee_part.text).is_disjoint(theirs),
            "{}",
            melee_part.text
        );
    }
    // Its own lines with the men of each brigade, whole.
    assert_eq!(
        told(
            &f.events,
            "the attackers at 5-5 (FR) form their battle lines: front line: FR1IN ("
        ),
        one("FR"),
        "{all}"
    );
}
