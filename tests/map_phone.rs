//! The maps of the bundled games as their players read them: the phone map of the report mail reads
//! at phone width (names of at least 11 CSS pixels when the picture is 360 wide), its chips, marks,
//! battle marks and names cover one another nowhere, the power's unit ids and the retreats it saw
//! are drawn, and each ruleset's terrain is coloured around its areas, with its legend.
//!
//! Each bundled scenario's first turn is resolved with its sample orders through the library (the
//! phone map is drawn in memory and mailed as PNG only), and every power's two maps are read back.

use std::fs;

use pbem::diag::Source;
use pbem::engine::dice_box::DiceBox;
use pbem::game::Game;
use pbem::report::{self, DiceHeader, ReportInput};
use pbem::rules::PowerOrders;

/// The bundled scenarios with a map picture.
const SCENARIOS: [&str; 5] = [
    "ulm-1805",
    "pog-1914",
    "ngg-smolensk-1812",
    "wbts-peninsula-1862",
    "gitm-italy-1809",
];

/// A power's maps: (power, whole map SVG, phone map SVG).
type Maps = Vec<(String, String, String)>;

/// The maps of every power after the first turn of scenario `name`, resolved with its sample
/// orders.
fn maps(name: &str) -> Maps {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    pbem::bundled::write_scenario(name, &dir).unwrap();
    pbem::bundled::write_sample_orders(name, &dir, 1).unwrap();
    reports(&dir, name)
        .into_iter()
        .map(|(p, r)| {
            let svg = r.attachments.iter().find(|f| f.extension == "svg").unwrap();
            (p, svg.content.clone(), r.phone_map)
        })
        .collect()
}

/// Every power's report of the first turn of the game in `dir` (named `name`), resolved with the
/// orders of `orders/1/`.
fn reports(dir: &std::path::Path, name: &str) -> Vec<(String, report::Rendered)> {
    let game = Game::load(dir).unwrap();
    let before = game.load_state(1).unwrap();
    let mut orders = Vec::new();
    if let Ok(entries) = fs::read_dir(dir.join("orders/1")) {
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files.into_iter().filter(|f| f.is_file()) {
            let text = fs::read_to_string(&f).unwrap();
            let power = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("power "))
                .unwrap_or_default()
                .trim()
                .to_string();
            orders.push(PowerOrders {
                power,
                source: Source::new(format!("orders/1/{}", f.display()), text),
            });
        }
    }
    let mut dice = DiceBox::new([7; 32]).with_seal(Some([9; 32]));
    let resolution = game
        .ruleset
        .resolve(&game, &before, &orders, &mut dice)
        .unwrap();
    let mut after = resolution.next;
    after.turn = 2;
    let header = DiceHeader::new(name, 1, &[1; 32], &[2; 32], &[], &[7; 32]);
    let shared = report::TurnSight::new(&game, &after);
    let events = std::sync::Arc::new(resolution.events);
    game.config
        .power_ids()
        .map(|p| {
            let r = report::render(
                &game,
                &ReportInput {
                    power: p,
                    turn: 1,
                    state_before: &before,
                    state_after: &after,
                    events: &events,
                    orders: None,
                    header: &header,
                    next_commitment: &[3; 32],
                    shared: &shared,
                    command: None,
                },
            )
            .unwrap();
            (p.to_string(), r)
        })
        .collect()
}

/// The value of attribute `name` in `line`.
fn attr(line: &str, name: &str) -> Option<i64> {
    let at = line.find(&format!(" {name}=\""))? + name.len() + 3;
    line[at..].split('"').next()?.parse().ok()
}

/// The width of the SVG's viewBox.
fn view_width(svg: &str) -> i64 {
    let head = svg.lines().next().unwrap();
    let at = head.find("viewBox=\"0 0 ").unwrap() + 13;
    head[at..].split(' ').next().unwrap().parse().unwrap()
}

/// The lines of group `group` of an SVG (`<g class="names">` opens it on a line of its own).
fn group<'a>(svg: &'a str, group: &str) -> Vec<&'a str> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in svg.lines() {
        if line.starts_with("<g class=") && line.ends_with("\">") && !line.contains(" id=") {
            inside = line == format!("<g class=\"{group}\">");
            continue;
        }
        if inside && line != "</g>" {
            out.push(line);
        }
    }
    out
}

/// What the map placed, each as what and its box (x0, y0, x1, y1): the names (the width the map
/// allows a name, `report::labels::text_width`), unit chips, marks and battle marks.
fn placed(svg: &str) -> Vec<(String, [i64; 4])> {
    let mut out = Vec::new();
    for line in group(svg, "names") {
        let text = line.split('>').nth(1).unwrap().trim_end_matches("</text");
        let (x, y, size) = (
            attr(line, "x").unwrap(),
            attr(line, "y").unwrap(),
            attr(line, "font-size").unwrap(),
        );
        let w = pbem::report::labels::text_width(text, size);
        let x0 = if line.contains("\"start\"") {
            x
        } else if line.contains("\"end\"") {
            x - w
        } else {
            x - w / 2
        };
        out.push((format!("name {text}"), [x0, y - size, x0 + w, y + size / 4]));
    }
    for (g, what) in [("units", "chip"), ("marks", "mark")] {
        for line in group(svg, g) {
            let rect = &line[line.find("<rect").unwrap()..];
            let (x, y) = (attr(rect, "x").unwrap(), attr(rect, "y").unwrap());
            let (w, h) = (attr(rect, "width").unwrap(), attr(rect, "height").unwrap());
            let id = line
                .split("id=\"")
                .nth(1)
                .map_or("", |s| s.split('"').next().unwrap());
            out.push((format!("{what} {id}"), [x, y, x + w, y + h]));
        }
    }
    for line in group(svg, "combats") {
        let circle = &line[line.find("<circle").unwrap()..];
        let (x, y) = (attr(circle, "cx").unwrap(), attr(circle, "cy").unwrap());
        out.push((
            format!("battle at {x},{y}"),
            [x - 24, y - 24, x - 12, y - 12],
        ));
    }
    out
}

fn overlap(a: &[i64; 4], b: &[i64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// The smallest font size of the lines of `group` (their first `font-size`), in CSS pixels when
/// the picture is shown 360 pixels wide.
fn smallest_px_at_360(svg: &str, group_name: &str) -> f64 {
    let w = view_width(svg) as f64;
    group(svg, group_name)
        .iter()
        .flat_map(|l| l.split(" font-size=\"").skip(1))
        .map(|s| s.split('"').next().unwrap().parse::<f64>().unwrap())
        .fold(f64::INFINITY, f64::min)
        * 360.0
        / w
}

#[test]
fn the_phone_map_names_read_at_11_css_px_at_360_px_wide_in_every_bundled_game() {
    for name in SCENARIOS {
        for (power, _, phone) in maps(name) {
            let names = group(&phone, "names").len();
            assert!(names >= 3, "{name} {power}: {names} names on the phone map");
            let px = smallest_px_at_360(&phone, "names");
            assert!(px >= 11.0, "{name} {power}: names of {px:.1} px at 360 px");
            if !group(&phone, "units").is_empty() {
                let chips = smallest_px_at_360(&phone, "units");
                assert!(chips >= 10.5, "{name} {power}: chips of {chips:.1} px");
            }
        }
    }
}

/// The France map of the Ulm demo: the whole map draws every area, the phone map France's region
/// around its armies and its battles, and names them larger.
#[test]
fn the_phone_map_is_cut_to_the_region_of_the_powers_armies() {
    let maps = maps("ulm-1805");
    let (_, whole, phone) = maps.iter().find(|(p, _, _)| p == "france").unwrap();
    let areas = |svg: &str| group(svg, "areas").len();
    assert!(
        areas(phone) < areas(whole),
        "the phone map shows {} areas of {}",
        areas(phone),
        areas(whole)
    );
    for area in ["area-Ulm", "area-Munich", "area-Ingolstadt"] {
        assert!(phone.contains(area), "the phone map has no {area}");
    }
    assert!(!phone.contains("area-Dover"), "the phone map reaches Dover");
    // Names read at 13.5 px on a phone; on the whole map (1,670 px wide) they would be 2.6.
    let px = smallest_px_at_360(phone, "names");
    assert!(px > 2.0 * smallest_px_at_360(whole, "names"), "{px}");
}

#[test]
fn no_name_chip_mark_or_battle_mark_covers_another_on_the_bundled_games_maps() {
    let mut checked = 0;
    let mut faults = Vec::new();
    for name in SCENARIOS {
        for (power, whole, phone) in maps(name) {
            for (layout, svg) in [("whole", &whole), ("phone", &phone)] {
                let boxes = placed(svg);
                checked += boxes.len();
                for (i, (a, b)) in boxes.iter().enumerate() {
                    if b[0] < 0 || b[1] < 0 {
                        faults.push(format!("{name} {power} {layout}: {a} is cut off at {b:?}"));
                    }
                    for (other, c) in boxes[i + 1..].iter().filter(|(_, c)| overlap(b, c)) {
                        faults.push(format!(
                            "{name} {power} {layout}: {a} {b:?} covers {other} {c:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        faults.is_empty(),
        "{} of {checked}:\n{}",
        faults.len(),
        faults.join("\n")
    );
    assert!(checked > 1000, "only {checked} boxes checked");
}

/// The power's own units are named on its chips, and those it saw up close; the retreats it saw
/// are dashed arrows, apart from the moves, in the legend (EiA 7.5.2.10.3 at Ulm).
#[test]
fn the_map_names_the_units_it_sees_up_close_and_draws_the_retreats_it_saw() {
    let ulm = maps("ulm-1805");
    let (_, whole, phone) = ulm.iter().find(|(p, _, _)| p == "france").unwrap();
    for svg in [whole, phone] {
        let chips = group(svg, "units").join("\n");
        assert!(chips.contains(">FR-VII</text>"), "no FR-VII on a chip");
        let retreats = group(svg, "retreats");
        assert!(
            retreats
                .iter()
                .any(|l| l.contains("retreats from Ulm to Augsburg")
                    && l.contains("stroke-dasharray")
                    && l.contains("url(#retreat-austria)")),
            "no Austrian retreat from Ulm: {retreats:?}"
        );
        assert!(svg.contains(">a retreat you saw</text>"));
        assert!(svg.contains(">a move you saw</text>"));
    }
    // Britain saw neither the battle of Ulm nor its retreat.
    let (_, britain, _) = ulm.iter().find(|(p, _, _)| p == "britain").unwrap();
    assert!(!britain.contains("retreats from Ulm"));
    // PoG 12.2.11: a retreat is drawn from the space it left along the spaces it went by ("(by
    // Chateau-Thierry, Chalons)", the last where it ended), for both sides, which saw it.
    for (power, whole, _) in maps("pog-1914") {
        let retreats = group(&whole, "retreats");
        assert!(
            retreats.iter().any(|l| (l.contains(" retreats from ")
                || l.contains(" retreat from "))
                && l.contains("url(#retreat-")),
            "{power} sees no PoG retreat: {retreats:?}"
        );
        for l in &retreats {
            let title = l
                .split("<title>")
                .nth(1)
                .unwrap()
                .split("</title>")
                .next()
                .unwrap();
            let by = title
                .split_once("(by ")
                .map_or(1, |(_, r)| r.split(')').next().unwrap().split(", ").count());
            let points = l
                .split("points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            assert_eq!(points.split(' ').count(), 1 + by, "{power}: {l}");
        }
    }
}

/// Each ruleset's terrain is a ring of its colour around the area, in the legend, and no longer a
/// text tag beside the node.
#[test]
fn each_rulesets_terrain_is_drawn_around_its_areas_with_its_legend() {
    for (name, word) in [
        ("ulm-1805", "mountain"),
        ("pog-1914", "mountain"),
        ("ngg-smolensk-1812", "forest"),
        ("wbts-peninsula-1862", "forest"),
        ("gitm-italy-1809", "hill"),
    ] {
        let maps = maps(name);
        let (power, whole, phone) = &maps[0];
        for svg in [whole, phone] {
            let legend = group(svg, "legend").join("\n");
            assert!(
                legend.contains(">terrain: the ring around an area</text>")
                    && legend.contains(&format!(">{word}</text>")),
                "{name} {power}: no {word} in the legend"
            );
        }
        let areas = group(whole, "areas").join("\n");
        assert!(
            areas.contains(&format!(", {word}, ")) && areas.contains(r##" r="16" fill="#"##),
            "{name} {power}: no {word} ring"
        );
        for tag in [">mtn</text>", ">for</text>", ">hil</text>"] {
            assert!(!whole.contains(tag), "{name}: a terrain tag {tag}");
        }
    }
}

/// Every unit chip of every bundled game's maps (the SVG and the phone map the PNG is drawn from)
/// stands on its own area or is joined to it: no other area's node is as near to the chip as its
/// own, or a line ties the chip to its area (EiA: the chips of Munich, Innsbruck and Verona).
#[test]
fn every_chip_is_on_or_joined_to_its_own_area() {
    let mut checked = 0;
    let mut faults = Vec::new();
    for name in SCENARIOS {
        for (power, whole, phone) in maps(name) {
            for (layout, svg) in [("whole", &whole), ("phone", &phone)] {
                let nodes: Vec<(String, (i64, i64))> = group(svg, "areas")
                    .iter()
                    .filter_map(|l| {
                        let id = l.split("id=\"area-").nth(1)?.split('"').next()?;
                        let circle = &l[l.find("<circle")?..];
                        Some((id.to_string(), (attr(circle, "cx")?, attr(circle, "cy")?)))
                    })
                    .collect();
                for line in group(svg, "units") {
                    let id = line.split("id=\"units-").nth(1).unwrap();
                    let id = id.split('"').next().unwrap();
                    let area = &id[..id.rfind('-').unwrap()];
                    let rect = &line[line.find("<rect").unwrap()..];
                    let (x, y) = (attr(rect, "x").unwrap(), attr(rect, "y").unwrap());
                    let (w, h) = (attr(rect, "width").unwrap(), attr(rect, "height").unwrap());
                    let gap = |(px, py): (i64, i64)| {
                        let (qx, qy) = (px.clamp(x, x + w), py.clamp(y, y + h));
                        (qx - px).pow(2) + (qy - py).pow(2)
                    };
                    let Some(own) = nodes.iter().find(|(a, _)| a == area) else {
                        continue;
                    };
                    checked += 1;
                    let tied = line.contains("<line ");
                    let nearer = nodes
                        .iter()
                        .filter(|(a, _)| a != area)
                        .find(|(_, p)| gap(*p) <= gap(own.1));
                    if let (Some((other, _)), false) = (nearer, tied) {
                        faults.push(format!(
                            "{name} {power} {layout}: the chip of {id} is nearer {other} than {area}, with no line"
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 100, "{checked} chips");
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The phone map (the mail's PNG, the one map Gmail and Outlook show) draws every chip of the
/// power's own units and every battle it saw that its whole map draws: those beyond its frame at
/// the frame's edge, toward them, named ("< Lille"). PoG's Allies fight in France and in Poland.
#[test]
fn the_phone_map_draws_every_unit_and_battle_of_its_power() {
    let ids = |svg: &str, prefix: &str| -> Vec<String> {
        svg.split(&format!("id=\"{prefix}"))
            .skip(1)
            .map(|s| s.split('"').next().unwrap().to_string())
            .collect()
    };
    let mut beyond = 0;
    for name in SCENARIOS {
        for (power, whole, phone) in maps(name) {
            let own: Vec<String> = ids(&whole, "units-")
                .into_iter()
                .filter(|id| id.ends_with(&format!("-{power}")))
                .collect();
            assert!(!own.is_empty(), "{name} {power}");
            let marks = own.iter().map(|id| format!("id=\"units-{id}\"")).chain(
                ids(&whole, "combat-")
                    .into_iter()
                    .map(|id| format!("id=\"combat-{id}\"")),
            );
            for mark in marks {
                assert!(phone.contains(&mark), "{name} {power}: {mark}");
            }
            beyond += phone.matches("&lt; ").count() + phone.matches("&gt; ").count();
        }
    }
    assert!(
        beyond > 0,
        "no unit beyond a phone map's frame: the test checks nothing"
    );
}

/// Issue 39: a power with its units and battles all over a large map (4 powers of 1,000 units, in
/// hundreds of battles) gets the phone map as an overview (`report::overview`): boxes that sum
/// their areas, each box's own units and battles, and every own unit and every battle it saw is
/// counted in one box (the sums are its report's), in a picture of bounded size.
#[test]
fn the_phone_map_of_units_all_over_a_large_map_is_an_overview_that_sums_every_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("synth");
    pbem::synth::write_game(&pbem::synth::Spec::per_power(4, 1000), &dir).unwrap();
    let attr = |cell: &str, name: &str| -> u64 {
        let at = cell.find(&format!(" data-{name}=\"")).unwrap() + name.len() + 8;
        cell[at..].split('"').next().unwrap().parse().unwrap()
    };
    for (power, r) in reports(&dir, "synth") {
        let phone = &r.phone_map;
        assert!(phone.contains(r#"<g class="overview">"#), "{power}");
        let json = r
            .attachments
            .iter()
            .find(|f| f.extension == "json")
            .unwrap();
        let json: serde_json::Value = serde_json::from_str(&json.content).unwrap();
        let units = json["units"].as_array().unwrap();
        // The power's own units: its leaders, or the others.
        let own = |leaders: bool| {
            units
                .iter()
                .filter(|u| u["owner"] == power.as_str())
                .filter(move |u| (u["kind"] == "leader") == leaders)
        };
        let corps: Vec<_> = own(false).collect();
        let factors: u64 = corps.iter().map(|u| u["strength"].as_u64().unwrap()).sum();
        let battles = json["sees"]["combats"].as_array().unwrap().len() as u64;
        assert!(
            battles > 100 && corps.len() > 100,
            "{power}: the test checks little"
        );
        let cells: Vec<&str> = phone.split(r#"<g class="cell""#).skip(1).collect();
        let sum = |name: &str| cells.iter().map(|c| attr(c, name)).sum::<u64>();
        assert_eq!(sum("corps"), corps.len() as u64, "{power}");
        assert_eq!(sum("factors"), factors, "{power}");
        assert_eq!(sum("leaders"), own(true).count() as u64, "{power}");
        assert_eq!(sum("battles"), battles, "{power}");
        let areas = json["sees"]["areas"].as_array().unwrap().len() as u64;
        assert!(
            sum("areas") >= areas,
            "{power}: every area it sees is in a box"
        );
        // The whole picture: at most 4 rows of 7 boxes and a legend of at most 24 battles.
        let (w, h) = pbem::report::png::size_of_svg(phone).unwrap();
        assert!(
            u64::from(w) * u64::from(h) <= 4_000_000,
            "{power}: {w} x {h}"
        );
        assert!(attr_height(phone) <= 2_500, "{power}");
    }
}

/// The height of an SVG pbem wrote (its first line).
fn attr_height(svg: &str) -> i64 {
    attr(svg.lines().next().unwrap(), "height").unwrap()
}
