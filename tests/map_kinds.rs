//! The three kinds of map behind `Topology`: named areas (EiA, PoG), hexes with hexside features
//! (WBTS, NGG) and square grids with a sub-grid (GITM): names parsed and printed back, neighbours,
//! hexsides, and located errors for bad compact files.

use crate::support;

use pbem::diag::Source;
use pbem::game::map::grid::Square;
use pbem::game::map::hex::{Hex, Side};
use pbem::game::map::sub_grid::{parse_sub_square, Spot, SubSquare};
use pbem::game::map::{AnyMap, GridMap, HexMap, Topology, Vocabulary};
use pbem::synth::map::{gitm_vocabulary, grid_map};

/// WBTS's words: the terrain its retreat rules read (rough, city), and the hexside features of its
/// ground and naval combat (river, tidal river, estuary, ferry, road, bridge, fortification).
const WBTS: Vocabulary = Vocabulary {
    terrain: &["clear", "forest", "rough", "city", "swamp"],
    hexside: &[
        "river",
        "tidal",
        "estuary",
        "ferry",
        "road",
        "bridge",
        "fortification",
    ],
    sub_terrain: &[],
    max_rating: 0,
    corner_blockers: &[],
    sub_lines: &[],
    sub_line_ends: &[],
};

const HEX_MAP: &str = r#"kind = "hex"
columns = 4
rows = 3
terrain = '''
.r.c
f..s
..r.
'''
hexsides = '''
# hex side features
0202 s river bridge
0202 ne tidal ferry
0101 se fortification   # on the river bank
'''
[legend]
"." = "clear"
"r" = "rough"
"c" = "city"
"f" = "forest"
"s" = "swamp"
"#;

fn hex_map() -> HexMap {
    HexMap::load(&Source::new("wbts/map.toml", HEX_MAP), &WBTS).unwrap()
}

fn load_hex(text: &str) -> pbem::diag::FileError {
    HexMap::load(&Source::new("wbts/map.toml", text), &WBTS).unwrap_err()
}

/// A 4x3 GITM-like map: water at B0-S1 and A1-S2 closes the diagonal between A1-S1 and B0-S2.
fn small_grid() -> GridMap {
    let text = r#"kind = "grid"
columns = 4
rows = 3
column_names = "A0"
row_names = "S0"
terrain = '''
..h.
.~..
~.f.
'''
[legend]
"." = "open"
"~" = "water"
"h" = "hill"
"f" = "forest"
[places]
Somewhere = "A3-S2"
"#;
    GridMap::load(&Source::new("gitm/map.toml", text), &gitm_vocabulary()).unwrap()
}

#[test]
fn hex_ids_are_column_then_row_and_print_back() {
    let map = hex_map();
    let h = map.parse_place("0302").unwrap();
    assert_eq!(h, Hex { col: 2, row: 1 });
    for col in 0..4 {
        for row in 0..3 {
            let h = Hex { col, row };
            assert_eq!(map.parse_place(&map.place_name(h)), Ok(h));
        }
    }
    assert_eq!(map.place_name(Hex { col: 3, row: 2 }), "0403");
    for bad in ["0000", "0501", "0104", "304", "03a4", "", "0304 ", "٣٠٤"] {
        assert!(map.parse_place(bad).is_err(), "{bad}");
    }
    let e = map.parse_place("0501").unwrap_err();
    assert_eq!(e.message, "hex 0501 is off the map");
    assert_eq!(e.hint.as_deref(), Some("the hexes run from 0101 to 0403"));
}

/// Flat-topped hexes in columns, the even columns half a hex lower: 0202 (an even column) touches
/// 0102 and 0103 on the west, 0302 and 0303 on the east.
#[test]
fn hex_adjacency_follows_the_columns() {
    let map = hex_map();
    let id = |h: Hex| map.place_name(h);
    let around = |s: &str| -> Vec<String> {
        map.neighbours(map.parse_place(s).unwrap())
            .into_iter()
            .map(id)
            .collect()
    };
    // Clockwise from the top: n, ne, se, s, sw, nw.
    assert_eq!(
        around("0202"),
        ["0201", "0302", "0303", "0203", "0103", "0102"]
    );
    assert_eq!(
        around("0302"),
        ["0301", "0401", "0402", "0303", "0202", "0201"]
    );
    assert_eq!(around("0101"), ["0201", "0102"]);
    assert_eq!(around("0403"), ["0402", "0303"]);
    // Adjacency is mutual, and the side back is the opposite one.
    for col in 0..4 {
        for row in 0..3 {
            let a = Hex { col, row };
            for b in map.neighbours(a) {
                let side = map.side_between(a, b).unwrap();
                assert_eq!(map.side_between(b, a), Some(side.opposite()));
            }
        }
    }
}

/// WBTS: halving across a river, no attack across a tidal river but at a ferry, naval transit
/// attack on a fortified hexside: each side carries its features, seen from both its hexes.
#[test]
fn hexside_features_are_seen_from_both_hexes() {
    let map = hex_map();
    let h = |s: &str| map.parse_place(s).unwrap();
    assert_eq!(map.feature_words(h("0202"), Side::S), ["river", "bridge"]);
    assert_eq!(map.feature_words(h("0203"), Side::N), ["river", "bridge"]);
    assert!(map.has_feature(h("0203"), Side::N, "river"));
    assert!(!map.has_feature(h("0203"), Side::N, "ferry"));
    let ne = map.side_between(h("0202"), h("0303")).unwrap();
    assert_eq!(ne, Side::SE, "0303 lies south-east of 0202");
    let across = map.side_between(h("0202"), h("0302")).unwrap();
    assert_eq!(map.feature_words(h("0202"), across), ["tidal", "ferry"]);
    assert_eq!(map.feature_words(h("0302"), Side::SW), ["tidal", "ferry"]);
    assert_eq!(map.feature_words(h("0201"), Side::NW), ["fortification"]);
    assert!(map.features(h("0101"), Side::N).is_empty());
    assert_eq!(map.terrain(h("0401")), "city");
    assert_eq!(map.terrain(h("0201")), "rough");
}

#[test]
fn gitm_1_1_squares_are_named_column_dash_row_and_print_back() {
    let map = GridMap::load(
        &Source::new("gitm/map.toml", grid_map(120, 80, 0)),
        &gitm_vocabulary(),
    )
    .unwrap();
    let venice = map.parse_place("G7-V8").unwrap();
    assert_eq!(venice, Square { col: 67, row: 38 });
    assert_eq!(map.place_name(venice), "G7-V8");
    assert_eq!(map.parse_place("g7-v8"), Ok(venice));
    assert_eq!(map.place_name(Square { col: 0, row: 0 }), "A0-S0");
    assert_eq!(map.place_name(Square { col: 119, row: 79 }), "L9-Z9");
    for col in 0..120 {
        for row in 0..80 {
            let sq = Square { col, row };
            assert_eq!(map.parse_place(&map.place_name(sq)), Ok(sq));
        }
    }
    for bad in [
        "M0-S0", "G7-R8", "G7V8", "G7-", "-V8", "", "G77-V8", "G7-V8-", "É7-V8",
    ] {
        assert!(map.parse_place(bad).is_err(), "{bad}");
    }
    assert_eq!(
        map.parse_place("M0-S0").unwrap_err().hint.as_deref(),
        Some("a square is its column and row with a dash, from A0-S0 to L9-Z9")
    );
}

#[test]
fn gitm_2_1_tactical_squares_are_named_column_dash_row_and_print_back() {
    assert_eq!(
        parse_sub_square("14-1", 15),
        Ok(SubSquare { col: 14, row: 1 })
    );
    for col in 0..15 {
        for row in 0..15 {
            let s = SubSquare { col, row };
            assert_eq!(parse_sub_square(&s.to_string(), 15), Ok(s));
        }
    }
    for bad in [
        "15-0", "0-15", "-1", "1-", "a-b", "1-2-3", "", "1 -2", "9999-1",
    ] {
        assert!(parse_sub_square(bad, 15).is_err(), "{bad}");
    }
    let map = GridMap::load(
        &Source::new("gitm/map.toml", grid_map(12, 8, 15)),
        &gitm_vocabulary(),
    )
    .unwrap();
    let spot = map.parse_spot("G8-V5/0-2");
    assert!(spot.is_err(), "G8 is past a 12-column map");
    let spot = map.parse_spot("B1-S5/14-1").unwrap();
    assert_eq!(
        spot,
        Spot {
            square: Square { col: 11, row: 5 },
            sub: SubSquare { col: 14, row: 1 }
        }
    );
    assert_eq!(map.spot_name(spot), "B1-S5/14-1");
}

#[test]
fn gitm_1_1_places_name_their_squares() {
    let map = small_grid();
    assert_eq!(map.named("somewhere"), Some(Square { col: 3, row: 2 }));
    assert_eq!(map.named("Venice"), None);
}

/// GITM 7.4: diagonal steps are allowed, but not between two water squares.
#[test]
fn gitm_7_4_grid_neighbours_are_the_eight_around_but_past_water_corners() {
    let map = small_grid();
    let names = |s: &str| -> Vec<String> {
        map.neighbours(map.parse_place(s).unwrap())
            .into_iter()
            .map(|sq| map.place_name(sq))
            .collect()
    };
    assert_eq!(names("A0-S0"), ["A1-S0", "A1-S1", "A0-S1"]);
    assert_eq!(
        names("A2-S1"),
        ["A2-S0", "A3-S0", "A3-S1", "A3-S2", "A2-S2", "A1-S2", "A1-S1", "A1-S0"]
    );
    // A0-S1 to A1-S2 passes between A1-S1 and A0-S2, both water: closed.
    assert_eq!(names("A0-S1"), ["A0-S0", "A1-S0", "A1-S1", "A0-S2"]);
    assert_eq!(map.terrain(map.parse_place("A2-S0").unwrap()), "hill");
}

/// GITM 2.3: tactical maps join at their edges: the square west of 0-5 is 14-5 of the strategic
/// square to the west, and the synthetic map's rivers never break off at an edge.
#[test]
fn gitm_2_3_tactical_neighbours_cross_the_edges_of_tactical_maps() {
    let map = GridMap::load(
        &Source::new("gitm/map.toml", grid_map(6, 4, 15)),
        &gitm_vocabulary(),
    )
    .unwrap();
    let sub = map.sub().unwrap();
    let spot = map.parse_spot("A1-S1/0-5").unwrap();
    let around: Vec<String> = sub
        .neighbours(spot)
        .into_iter()
        .map(|s| map.spot_name(s))
        .collect();
    assert_eq!(
        around,
        [
            "A1-S1/0-4",
            "A1-S1/1-4",
            "A1-S1/1-5",
            "A1-S1/1-6",
            "A1-S1/0-6",
            "A0-S1/14-6",
            "A0-S1/14-5",
            "A0-S1/14-4"
        ]
    );
    assert_eq!(
        sub.neighbours(map.parse_spot("A0-S0/0-0").unwrap()).len(),
        3
    );
    assert!(sub.broken_edges(&["river", "ford"]).is_empty());
    // The synthetic rivers run along sub-grid row 5: A0-S0/14-5 and A1-S0/0-5 are both river.
    let river = map.parse_spot("A0-S0/14-5").unwrap();
    assert_eq!(sub.terrain(river), "river");
    assert_eq!(sub.terrain(map.parse_spot("A1-S0/0-5").unwrap()), "river");
}

/// GITM 2.3 checked: a river square at a tactical map's edge with none across is a located error.
#[test]
fn gitm_2_3_a_river_breaking_off_at_an_edge_is_found() {
    let text = r#"kind = "grid"
columns = 2
rows = 1
terrain = '''
..
'''
[legend]
"." = "open"
[sub]
size = 2
terrain = '''
.~..
....
'''
rating = '''
0123
4000
'''
[sub.legend]
"." = "open"
"~" = "river"
"#;
    // GITM's words refuse the map, at the river's square (2.3)...
    let e = GridMap::load(&Source::new("gitm/map.toml", text), &gitm_vocabulary()).unwrap_err();
    assert_eq!((e.line, e.column), (12, 2), "{e:?}");
    assert!(
        e.rendered
            .contains("a river stops at the edge of its map, against open across it"),
        "{}",
        e.rendered
    );
    assert!(e.rendered.contains("GITM 2.3"), "{}", e.rendered);
    // ... and a river running into water is whole.
    let sea = text
        .replace("'''\n.~..\n", "'''\n.~~.\n")
        .replace("\"~\" = \"river\"", "\"~\" = \"river\"\n\"w\" = \"water\"")
        .replace(".~~.", ".~w.");
    assert!(GridMap::load(&Source::new("gitm/map.toml", &sea), &gitm_vocabulary()).is_ok());
    // Without the check, the broken edge is still found.
    let words = Vocabulary {
        sub_lines: &[],
        ..gitm_vocabulary()
    };
    let map = GridMap::load(&Source::new("gitm/map.toml", text), &words).unwrap();
    let sub = map.sub().unwrap();
    let broken: Vec<(String, String)> = sub
        .broken_edges(&["river", "ford"])
        .into_iter()
        .map(|(a, b)| (map.spot_name(a), map.spot_name(b)))
        .collect();
    assert_eq!(broken, [("0-0/1-0".to_string(), "1-0/0-0".to_string())]);
    // GITM 2.4: each tactical square's defensive rating.
    let rating = |s: &str| sub.rating(map.parse_spot(s).unwrap());
    assert_eq!(
        [
            rating("0-0/0-0"),
            rating("0-0/1-0"),
            rating("1-0/0-0"),
            rating("1-0/1-0"),
            rating("0-0/0-1")
        ],
        [0, 1, 2, 3, 4]
    );
    assert_eq!(sub.terrain(map.parse_spot("0-0/1-0").unwrap()), "river");
}

/// The full GITM size (120x80 squares, 15x15 under each: 2,160,000 tactical squares) loads; its
/// speed is measured in benches/map.rs.
#[test]
fn gitm_full_size_grid_with_sub_grid_loads() {
    let map = GridMap::load(
        &Source::new("gitm/map.toml", grid_map(120, 80, 15)),
        &gitm_vocabulary(),
    )
    .unwrap();
    let sub = map.sub().unwrap();
    let last = map.parse_spot("L9-Z9/14-14").unwrap();
    assert_eq!(sub.neighbours(last).len(), 3);
    assert!(sub.rating(last) <= 4);
}

/// Both bundled area maps load through `AnyMap` as areas, and `Topology` gives their adjacency.
#[test]
fn area_maps_load_as_the_areas_kind() {
    for (game, powers) in [
        ("ulm-1805", &["france", "austria", "russia", "britain"][..]),
        ("pog-1914", &["central", "allies"][..]),
    ] {
        let path = format!("{}/games/{game}/map.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let any = AnyMap::load(&Source::new(path, text), powers, &Vocabulary::default());
        let Ok(AnyMap::Areas(map)) = any else {
            panic!("{game}: {any:?}");
        };
        let first = map.parse_place(&map.areas[0].id).unwrap();
        assert_eq!(map.place_name(first), map.areas[0].id);
        assert_eq!(map.neighbours(first), map.areas[0].adjacent);
        assert_eq!(map.terrain(first), map.areas[0].terrain.name());
    }
}

/// The kind is chosen by `kind`; an unknown one is a located error.
#[test]
fn any_map_loads_each_kind_and_refuses_an_unknown_one() {
    let words = Vocabulary {
        sub_terrain: &[],
        max_rating: 0,
        ..WBTS
    };
    let any = AnyMap::load(&Source::new("m.toml", HEX_MAP), &[], &words).unwrap();
    assert!(matches!(any, AnyMap::Hex(_)));
    let grid = grid_map(4, 3, 0);
    let any = AnyMap::load(&Source::new("m.toml", grid), &[], &gitm_vocabulary()).unwrap();
    assert!(matches!(any, AnyMap::Grid(_)));
    let e = AnyMap::load(&Source::new("m.toml", "kind = \"hexes\"\n"), &[], &words).unwrap_err();
    assert_eq!((e.line, e.column), (1, 8));
    assert!(e.rendered.contains("unknown kind of map 'hexes'"), "{e}");
}

#[test]
fn a_bad_terrain_character_is_located_with_the_legend() {
    let e = load_hex(&HEX_MAP.replace("f..s", "f.xs"));
    assert_eq!((e.path.as_str(), e.line, e.column), ("wbts/map.toml", 6, 3));
    assert!(
        e.rendered.contains("terrain: 'x' is not in the legend"),
        "{e}"
    );
    assert!(e.rendered.contains("'.' clear"), "{e}");
}

#[test]
fn a_row_of_the_wrong_length_is_located() {
    let e = load_hex(&HEX_MAP.replace("..r.\n", "..r\n"));
    assert_eq!((e.line, e.column), (7, 1));
    assert!(
        e.rendered.contains("row 3 is 3 characters long, not 4"),
        "{e}"
    );
    let e = load_hex(&HEX_MAP.replace("..r.\n", ""));
    assert!(e.rendered.contains("terrain has 2 rows, not 3"), "{e}");
}

#[test]
fn an_unknown_hexside_feature_is_located_with_a_suggestion() {
    let e = load_hex(&HEX_MAP.replace("s river bridge", "s rivr bridge"));
    assert_eq!((e.line, e.column), (11, 8));
    assert!(e.rendered.contains("unknown hexside feature 'rivr'"), "{e}");
    assert!(e.rendered.contains("did you mean 'river'?"), "{e}");
    let e = load_hex(&HEX_MAP.replace("0202 ne", "0202 e"));
    assert!(e.rendered.contains("'e' is not a side of a hex"), "{e}");
    assert!(e.rendered.contains("n, ne, se, s, sw, nw"), "{e}");
    let e = load_hex(&HEX_MAP.replace("0202 s", "0209 s"));
    assert_eq!((e.line, e.column), (11, 1));
    assert!(e.rendered.contains("hex 0209 is off the map"), "{e}");
    let e = load_hex(&HEX_MAP.replace("0202 s river bridge", "0202 s"));
    assert!(e.rendered.contains("has no feature"), "{e}");
}

#[test]
fn a_legend_word_the_ruleset_does_not_read_is_refused() {
    let e = load_hex(&HEX_MAP.replace("\"c\" = \"city\"", "\"c\" = \"cty\""));
    assert!(
        e.rendered
            .contains("'cty' is not a terrain word of this ruleset"),
        "{e}"
    );
    assert!(e.rendered.contains("did you mean 'city'?"), "{e}");
    let e = load_hex(&HEX_MAP.replace("\"c\" = \"city\"", "\"cc\" = \"city\""));
    assert!(
        e.rendered.contains("legend key 'cc' is not one character"),
        "{e}"
    );
}

#[test]
fn grid_sizes_names_and_ratings_are_checked() {
    let words = gitm_vocabulary();
    let load = |t: &str| GridMap::load(&Source::new("gitm/map.toml", t.to_string()), &words);
    let good = grid_map(3, 2, 2);
    assert!(load(&good).is_ok());
    let e = load(&good.replace("columns = 3", "columns = 0")).unwrap_err();
    assert!(e.rendered.contains("columns is 0"), "{e}");
    let e = load(
        &good
            .replace("row_names = \"S0\"", "row_names = \"Z0\"")
            .replace("rows = 2", "rows = 11"),
    )
    .unwrap_err();
    assert!(
        e.rendered.contains("11 rows named from Z0 run past Z9"),
        "{e}"
    );
    let e = load(&good.replace("column_names = \"A0\"", "column_names = \"A1\"")).unwrap_err();
    assert!(
        e.rendered.contains("'A1' is not a first name of columns"),
        "{e}"
    );
    let e = load(&good.replace("rating = '''\n0", "rating = '''\n5")).unwrap_err();
    assert!(
        e.rendered
            .contains("the sub-grid's ratings: '5' is not in the legend"),
        "{e}"
    );
    assert!(e.rendered.contains("the digits 0 to 4"), "{e}");
    let e = load(&good.replace("size = 2", "size = 3")).unwrap_err();
    assert!(e.rendered.contains("is 6 characters long, not 9"), "{e}");
    let big = "kind = \"grid\"\ncolumns = 1000\nrows = 1000\nterrain = ''\n[legend]\n\".\" = \"open\"\n[sub]\nsize = 64\nterrain = ''\nrating = ''\n[sub.legend]\n\".\" = \"open\"\n";
    let e = load(big).unwrap_err();
    assert!(
        e.rendered
            .contains("the sub-grid would be 64000 by 64000 squares"),
        "{e}"
    );
}

/// No input can panic the loader: every prefix of a good file, and the file with each byte
/// replaced by a few troublesome ones, is loaded or refused.
#[test]
fn no_mangled_map_file_panics_the_loader() {
    let words = gitm_vocabulary();
    let grid = grid_map(3, 2, 2);
    for text in [HEX_MAP, grid.as_str()] {
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let _ = AnyMap::load(&Source::new("m.toml", &text[..end]), &[], &WBTS);
            let _ = AnyMap::load(&Source::new("m.toml", &text[..end]), &[], &words);
        }
        for i in 0..text.len() {
            for b in ["'", "\n", "\r", "é", "0", "-", "\u{0}"] {
                let mut mangled = text.to_string();
                mangled.replace_range(i..i + 1, b);
                let _ = AnyMap::load(&Source::new("m.toml", mangled.as_str()), &[], &WBTS);
                let _ = AnyMap::load(&Source::new("m.toml", mangled), &[], &words);
            }
        }
    }
}

/// Rows written as a basic string (with escapes) cannot be located character by character: the
/// error points at the string.
#[test]
fn rows_in_a_basic_string_are_located_at_the_string() {
    let text = HEX_MAP.replace(
        "terrain = '''\n.r.c\nf..s\n..r.\n'''",
        "terrain = \".r.c\\nf.xs\\n..r.\"",
    );
    let e = load_hex(&text);
    assert_eq!((e.line, e.column), (4, 11));
    assert!(
        e.rendered.contains("terrain: 'x' is not in the legend"),
        "{e}"
    );
}

/// A game of a ruleset that reads a map of areas (EiA) refuses a hex map in its `map.toml` at its
/// `kind`, through the binary, with the file, line and column.
#[test]
fn a_ruleset_of_areas_refuses_a_hex_map_toml() {
    let (_t, game) = support::game();
    std::fs::write(game.join("map.toml"), HEX_MAP).unwrap();
    support::pbem()
        .arg("status")
        .arg(&game)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("ulm-1805/map.toml:1:8"))
        .stderr(predicates::str::contains(
            "this is a hex map; the ruleset eia reads a map of areas",
        ));
}

/// A map of more than 99 columns numbers its hexes with three digits each; `lower = "odd"` puts the
/// odd columns half a hex lower instead.
#[test]
fn hex_ids_widen_past_99_and_odd_columns_may_stand_lower() {
    let rows: String = (0..3).map(|_| ".".repeat(120) + "\n").collect();
    let text = format!(
        "kind = \"hex\"\ncolumns = 120\nrows = 3\nlower = \"odd\"\nterrain = '''\n{rows}'''\n[legend]\n\".\" = \"clear\"\n"
    );
    let map = HexMap::load(&Source::new("m.toml", text), &WBTS).unwrap();
    let h = map.parse_place("120003").unwrap();
    assert_eq!(h, Hex { col: 119, row: 2 });
    assert_eq!(map.place_name(Hex { col: 2, row: 3 }), "003004");
    assert!(map.parse_place("0304").is_err());
    let around = |s: &str| -> Vec<String> {
        map.neighbours(map.parse_place(s).unwrap())
            .into_iter()
            .map(|h| map.place_name(h))
            .collect()
    };
    // Column 3 (odd) stands lower: its east neighbours are rows 2 and 3 of column 4.
    assert_eq!(
        around("003002"),
        ["003001", "004002", "004003", "003003", "002003", "002002"]
    );
    assert_eq!(
        around("004002"),
        ["004001", "005001", "005002", "004003", "003002", "003001"]
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Any text as the terrain rows and the hexside lines: loaded or refused with a located error,
    /// never a panic; what loads names every hex so that it parses back.
    #[test]
    fn any_rows_and_hexside_lines_load_or_are_refused(
        rows in "[.rcfsx\\n\\r é'0-9]{0,40}",
        sides in "[0-9 nesw\\n#a-z]{0,60}",
    ) {
        let text = HEX_MAP
            .replace(".r.c\nf..s\n..r.\n", &rows)
            .replace("# hex side features\n", &sides);
        match HexMap::load(&Source::new("m.toml", text.as_str()), &WBTS) {
            Ok(map) => {
                for col in 0..map.columns() {
                    for row in 0..map.rows() {
                        let h = Hex { col, row };
                        proptest::prop_assert_eq!(map.parse_place(&map.place_name(h)), Ok(h));
                    }
                }
            }
            Err(e) => proptest::prop_assert!(e.line >= 1 && !e.rendered.is_empty()),
        }
    }
}

/// The engine sees a hex map as areas (`Map::view_of`): one area per hex, named by its id, adjacent
/// to the hexes across its six sides, its terrain the closed word when it is one (`forest`), `clear`
/// otherwise (`rough` is the ruleset's own, read from the hex map).
#[test]
fn a_hex_map_is_seen_by_the_engine_as_one_area_per_hex() {
    let hexes = hex_map();
    let view = AnyMap::Hex(hexes.clone()).areas_view();
    assert_eq!(view.areas.len(), 12);
    let at = |id: &str| view.find(id).unwrap_or_else(|| panic!("no area {id}"));
    let centre = at("0202");
    let mut around: Vec<&str> = view.areas[centre]
        .adjacent
        .iter()
        .map(|&i| view.areas[i].id.as_str())
        .collect();
    around.sort_unstable();
    let mut expected: Vec<String> = hexes
        .neighbours(hexes.parse_place("0202").unwrap())
        .into_iter()
        .map(|h| hexes.place_name(h))
        .collect();
    expected.sort_unstable();
    assert_eq!(around, expected);
    assert_eq!(around.len(), 6);
    assert_eq!(view.areas[at("0102")].terrain.name(), "forest");
    assert_eq!(view.areas[at("0201")].terrain.name(), "clear");
    assert!(view.areas.iter().all(|a| a.is_land()));
    // A lower column stands half a hex down on the picture.
    assert_eq!(view.areas[at("0101")].xy, [0, 0]);
    assert_eq!(view.areas[at("0201")].xy, [26, 15]);
}

/// The map picture colours each area by the terrain word of its place (`AnyMap::terrain_word`):
/// the areas view lists the places column by column, and the word is the place's own, "rough" and
/// "water" included, which the closed `Terrain` of the view lacks.
#[test]
fn the_terrain_word_of_each_area_of_the_view_is_its_places_own() {
    let hex = hex_map();
    let grid = small_grid();
    let places: Vec<String> = hex
        .places()
        .iter()
        .map(|&p| hex.terrain(p).to_string())
        .collect();
    let squares: Vec<String> = grid
        .places()
        .iter()
        .map(|&p| grid.terrain(p).to_string())
        .collect();
    let (hex, grid) = (AnyMap::Hex(hex), AnyMap::Grid(grid));
    for (map, words) in [(&hex, &places), (&grid, &squares)] {
        let view = map.areas_view();
        assert_eq!(view.areas.len(), words.len());
        for (i, word) in words.iter().enumerate() {
            assert_eq!(map.terrain_word(i), Some(word.as_str()), "area {i}");
        }
        assert_eq!(map.terrain_word(words.len()), None);
    }
    assert_eq!(hex.areas_view().areas[3].id, "0201");
    assert_eq!(hex.terrain_word(3), Some("rough"));
    assert!(squares.iter().any(|w| w == "water"));
}

/// `Game::load` parses an area map once: `Kind::of_document` and `load::from_document` read the
/// parsed document as `Kind::of` and `load::parse_toml` read the text, the same kind, the same map,
/// the same located errors (a bad kind, a kind that is not a string, a syntax error, an unknown key).
#[test]
fn a_map_read_from_its_parsed_document_reads_as_from_its_text() {
    use pbem::game::load;
    use pbem::game::map::{Kind, MapFile};
    let ulm = std::fs::read_to_string(format!(
        "{}/games/ulm-1805/map.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let texts = [
        ulm.clone(),
        HEX_MAP.to_string(),
        grid_map(4, 3, 0),
        "kind = \"hexes\"\n".to_string(),
        "kind = 3\n".to_string(),
        "kind = [\n".to_string(),
        format!("{ulm}\n[[area]]\nid = \"X\"\nbogus = 1\n"),
        ulm.replacen("adjacent", "adjacnt", 1),
    ];
    let error = |e: &pbem::diag::FileError| (e.line, e.column, e.rendered.clone());
    for text in texts {
        let source = Source::new("m.toml", text);
        let by_text = Kind::of(&source);
        let by_document = load::parse_document(&source)
            .and_then(|d| Kind::of_document(&source, &d).map(|k| (k, d)));
        match (&by_text, &by_document) {
            (Ok(k), Ok((kd, _))) => assert_eq!(k, kd, "{}", source.text),
            (Err(e), Err(ed)) => assert_eq!(error(e), error(ed)),
            _ => panic!("{}: {by_text:?} and {:?}", source.text, by_document.is_ok()),
        }
        let Ok(((Kind::Areas, _), document)) = by_document else {
            continue;
        };
        let from_text = load::parse_toml::<MapFile>(&source);
        let from_document = load::from_document::<MapFile>(&source, document);
        match (from_text, from_document) {
            (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
            (Err(e), Err(ed)) => assert_eq!(error(&e), error(&ed)),
            (a, b) => panic!("{}: {:?} and {:?}", source.text, a.is_ok(), b.is_ok()),
        }
    }
}
