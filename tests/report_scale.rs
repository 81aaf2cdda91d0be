//! Reports of a game larger than a board (issue 18): each power's report and mail hold what it sees,
//! not the world, and the mail carries each form of the report once.

use crate::support;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use support::*;

/// A synthetic game of 60 powers of 50 units on a 27 x 27 grid (729 areas, more than
/// `report::map::WHOLE_MAP_AREAS`), turn 1 resolved by the binary: (tempdir, game folder).
fn large_game() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("synth");
    let spec = pbem::synth::Spec::per_power(60, 50);
    pbem::synth::write_game(&spec, &dir).unwrap();
    pbem().arg("resolve").arg(&dir).assert().success();
    (tmp, dir)
}

fn report(game: &Path, power: &str, ext: &str) -> String {
    fs::read_to_string(game.join(format!("turns/1/reports/{power}.{ext}"))).unwrap()
}

/// The ids of the areas an SVG map draws.
fn drawn(svg: &str) -> BTreeSet<String> {
    svg.split(r#"id="area-"#)
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

/// Each power's map draws the areas it sees, their neighbours, and the areas its report names (its
/// units' areas, those whose control it knows, the ends of the moves and the battles it saw): every
/// area it sees is there, and nothing else of the world.
#[test]
fn the_map_of_a_large_game_holds_what_its_power_sees_and_the_neighbours_only() {
    let (_t, dir) = large_game();
    let game = load(&dir);
    let areas = game.map.areas.len();
    assert!(areas > pbem::report::map::WHOLE_MAP_AREAS, "{areas} areas");
    for power in ["p00", "p17", "p42", "p59"] {
        let json: Value = serde_json::from_str(&report(&dir, power, "json")).unwrap();
        let seen: BTreeSet<&str> = json["sees"]["areas"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["id"].as_str().unwrap())
            .collect();
        assert!(!seen.is_empty(), "{power} sees nothing");
        let mut allowed: BTreeSet<String> = BTreeSet::new();
        for id in &seen {
            let i = game.map.find(id).unwrap();
            allowed.insert(id.to_string());
            for &j in &game.map.area(i).adjacent {
                allowed.insert(game.map.area(j).id.clone());
            }
        }
        for c in json["control"].as_array().unwrap() {
            allowed.insert(c["area"].as_str().unwrap().to_string());
        }
        for list in [&json["units"], &json["sees"]["units"]] {
            for u in list.as_array().unwrap() {
                allowed.insert(u["area"].as_str().unwrap().to_string());
            }
        }
        for m in json["sees"]["moves"].as_array().unwrap() {
            allowed.insert(m["from"].as_str().unwrap().to_string());
            allowed.insert(m["to"].as_str().unwrap().to_string());
        }
        for c in json["sees"]["combats"].as_array().unwrap() {
            allowed.insert(c["area"].as_str().unwrap().to_string());
        }
        let svg = report(&dir, power, "svg");
        let on_map = drawn(&svg);
        for id in &seen {
            assert!(on_map.contains(*id), "{power} sees {id}, its map lacks it");
        }
        let beyond: Vec<&String> = on_map.difference(&allowed).collect();
        assert!(beyond.is_empty(), "{power}'s map draws {beyond:?}");
        assert!(
            on_map.len() * 4 < areas,
            "{power}'s map draws {} of {areas} areas",
            on_map.len()
        );
        // The legend names the powers of this map, not the 60 of the game.
        let legend = svg.split(r#"<g class="legend">"#).nth(1).unwrap();
        let names = legend.matches(">Power ").count();
        assert!(
            (1..60).contains(&names),
            "{names} powers in {power}'s legend"
        );
    }
}

/// The mail of a report carries each form once: the text, the HTML showing the map as the PNG
/// beside it (`cid:`), the JSON and the map as its SVG attachment (the HTML file beside the reports
/// has the map inline, once).
/// Issue 22.2 and 18: `[mail] map_png = false` (a game of hundreds of powers) draws no PNG: the mail's
/// HTML points to the SVG it carries, and no report names a `cid:` image it does not carry.
#[test]
fn a_game_with_map_png_off_mails_the_svg_alone() {
    use mail_parser::{MessageParser, MimeHeaders};
    let (_t, game) = unresolved_demo();
    let toml = game.join("game.toml");
    let text = fs::read_to_string(&toml).unwrap();
    let text = if text.contains("\n[mail]\n") {
        text.replacen("\n[mail]\n", "\n[mail]\nmap_png = false\n", 1)
    } else {
        format!("{text}\n[mail]\nmap_png = false\n")
    };
    fs::write(&toml, text).unwrap();
    // The reports and mail of the first resolution go, so that what is left is this one's.
    fs::remove_dir_all(game.join("turns/1/reports")).unwrap();
    fs::remove_dir_all(game.join("mail/outbox")).unwrap();
    pbem().arg("resolve").arg(&game).assert().success();
    assert!(!game.join("turns/1/reports/france.png").exists());
    let eml = read_outbox(game.join("mail/outbox/t0001-report-france.eml"));
    let msg = MessageParser::default().parse(&eml).unwrap();
    let html = msg.body_html(0).unwrap();
    assert!(!html.contains("cid:"), "{html}");
    assert!(html.contains("The map of this turn is the SVG file attached to this mail"));
    assert!(msg.parts.iter().all(|p| p.content_id().is_none()));
    let svgs = msg
        .attachments()
        .filter(|a| {
            a.content_type()
                .is_some_and(|c| c.subtype() == Some("svg+xml"))
        })
        .count();
    assert_eq!(svgs, 1);
}
#[test]
fn the_report_mail_carries_the_svg_once_and_shows_the_png_inline() {
    use mail_parser::{MessageParser, MimeHeaders};
    let (_t, game) = demo();
    for power in ["france", "austria"] {
        let eml = read_outbox(game.join(format!("mail/outbox/t0001-report-{power}.eml")));
        let msg = MessageParser::default().parse(&eml).unwrap();
        let html = msg.body_html(0).unwrap();
        assert!(
            !html.contains("<svg"),
            "the mail's HTML of {power} has the map"
        );
        assert!(html.contains(r#"src="cid:map@pbem""#));
        assert!(html.contains("The SVG file attached to this mail is the same map"));
        let pngs: Vec<_> = msg
            .parts
            .iter()
            .filter(|p| p.content_id() == Some("map@pbem"))
            .collect();
        assert_eq!(pngs.len(), 1, "{power}");
        assert_eq!(
            pngs[0].contents(),
            fs::read(game.join(format!("turns/1/reports/{power}.png"))).unwrap()
        );
        let svg = report(&game, power, "svg");
        let maps: Vec<_> = msg
            .attachments()
            .filter(|a| {
                a.content_type()
                    .is_some_and(|c| c.subtype() == Some("svg+xml"))
            })
            .collect();
        assert_eq!(maps.len(), 1, "{power}");
        assert_eq!(maps[0].contents(), svg.as_bytes());
        assert_eq!(report(&game, power, "html").matches("<svg").count(), 1);
    }
}

/// The RGB pixels of a PNG, row after row: (width, height, 3 bytes a pixel).
fn pixels(png: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut decoder = png::Decoder::new(png);
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width as usize, info.height as usize, buf)
}

/// Issue 39: a power of a thousand units in a hundred battles (4 powers of 1,000 units) once had a
/// phone map 800 x 12,000 pixels high, its legend listing every battle. Its PNG now holds at most
/// `png::MAX_PIXELS`, 800 wide, and on its map (above the legend) the power's own units (chips of
/// its colour) and its battles (their red mark) are drawn: it is the overview, every unit and
/// battle summed in its part of the map (`map_phone`'s test checks the sums).
#[test]
fn the_phone_maps_png_of_a_large_game_stays_within_four_million_pixels_and_shows_its_units_and_battles(
) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("synth");
    pbem::synth::write_game(&pbem::synth::Spec::per_power(4, 1000), &dir).unwrap();
    pbem().arg("resolve").arg(&dir).assert().success();
    for power in ["p00", "p01", "p02", "p03"] {
        let json: Value = serde_json::from_str(&report(&dir, power, "json")).unwrap();
        let battles = json["sees"]["combats"].as_array().unwrap().len();
        // Listed one by one, its battles alone would be over 4 million pixels: the test can fail.
        assert!(battles > 100, "{power}: {battles} battles");
        let png = fs::read(dir.join(format!("turns/1/reports/{power}.png"))).unwrap();
        let (w, h) = pbem::report::png::size(&png).unwrap();
        assert_eq!(w, pbem::report::png::MAX_WIDTH, "{power}");
        assert!(
            u64::from(w) * u64::from(h) <= pbem::report::png::MAX_PIXELS,
            "{power}: {w} x {h}"
        );
        let (w, _, rgb) = pixels(&png);
        let game = load(&dir);
        let rank = game
            .config
            .powers
            .iter()
            .position(|p| p.id == power)
            .unwrap();
        let colour = pbem::report::svg::colour_of(&game, rank).unwrap();
        let own = hex::decode(&colour[1..]).unwrap();
        // The map band: below the title (52 pixels of the SVG, drawn at twice the size), above the
        // legend, whose box (#fafafa) begins at the left with the heading "Powers" and its colours.
        let at = |x: usize, y: usize| &rgb[(y * w + x) * 3..(y * w + x) * 3 + 3];
        let legend = (104..rgb.len() / 3 / w)
            .find(|&y| at(30, y) == [0xfa, 0xfa, 0xfa])
            .unwrap();
        let band = &rgb[104 * w * 3..legend * w * 3];
        let count = |c: &[u8]| band.chunks(3).filter(|p| *p == c).count();
        assert!(
            count(&own) > 100,
            "{power}: no chip of its colour on the map"
        );
        assert!(
            count(&[0xb7, 0x1c, 0x1c]) > 100,
            "{power}: no battle mark on the map"
        );
    }
}
