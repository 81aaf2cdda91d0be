//! The reports of the demo in every form: text, HTML, JSON (against its schema) and the SVG map (drawn
//! to a PNG), the referee's summary, the orders template; snapshots of each for France.

use std::fs;
use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::support;
use crate::support::{read_outbox, read_outbox_string};
use support::{demo, pbem, unresolved_demo};

const POWERS: [&str; 4] = ["france", "austria", "russia", "britain"];

fn report(game: &Path, power: &str, ext: &str) -> String {
    fs::read_to_string(game.join(format!("turns/1/reports/{power}.{ext}"))).unwrap()
}

/// The areas of the combats of turn 1 (the log's `combat` events), all or those `power` may see.
fn combats(game: &Path, power: Option<&str>) -> Vec<String> {
    let log: toml::Value =
        toml::from_str(&fs::read_to_string(game.join("turns/1/log.toml")).unwrap()).unwrap();
    log["event"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"].as_str() == Some("combat"))
        .filter(|e| {
            power.is_none_or(|p| {
                e["visible_to"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|v| v.as_str() == Some(p))
            })
        })
        .map(|e| e["area"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn demo_writes_text_html_json_and_svg_for_every_power_and_mails_them() {
    let (_t, game) = demo();
    for p in POWERS {
        for ext in ["txt", "html", "json", "svg"] {
            let text = report(&game, p, ext);
            assert!(text.len() > 500, "{p}.{ext} is nearly empty");
        }
        let mail = read_outbox_string(game.join(format!("mail/outbox/t0001-report-{p}.eml")));
        for part in [
            "text/plain",
            "text/html",
            "application/json",
            "image/svg+xml",
        ] {
            assert!(
                mail.contains(part),
                "the report mail of {p} has no {part} part"
            );
        }
    }
}

#[test]
fn the_html_report_of_france_is_stable() {
    let (_t, game) = demo();
    insta::assert_snapshot!("report_france_turn_1_html", report(&game, "france", "html"));
}

#[test]
fn the_json_report_of_france_is_stable() {
    let (_t, game) = demo();
    insta::assert_snapshot!("report_france_turn_1_json", report(&game, "france", "json"));
}

#[test]
fn the_svg_map_of_france_is_stable() {
    let (_t, game) = demo();
    insta::assert_snapshot!("report_france_turn_1_svg", report(&game, "france", "svg"));
}

#[test]
fn the_referee_summary_of_the_demo_is_stable() {
    let (_t, game) = demo();
    let summary = fs::read_to_string(game.join("turns/1/summary.txt")).unwrap();
    insta::assert_snapshot!("summary_turn_1", summary);
}

#[test]
fn every_json_report_of_the_demo_follows_the_schema() {
    let (_t, game) = demo();
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../schema/report-v1.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema");
    for p in POWERS {
        let json: serde_json::Value = serde_json::from_str(&report(&game, p, "json")).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{p}.json: {errors:#?}");
        assert_eq!(json["format"], "pbem-report/1");
        assert_eq!(json["power"]["id"], p);
    }
}

/// Fonts for resvg: DejaVu or Liberation when the system has them; none, and shapes only, otherwise.
fn fonts(opt: &mut resvg::usvg::Options) -> usize {
    let dirs = [
        "/usr/share/fonts",
        "/usr/local/share/fonts",
        "/System/Library/Fonts",
    ];
    let mut n = 0;
    let mut stack: Vec<PathBuf> = dirs.iter().map(PathBuf::from).collect();
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                stack.push(p);
            } else if name.ends_with(".ttf")
                && (name.starts_with("DejaVuSans") || name.starts_with("Liberation"))
            {
                opt.fontdb_mut().load_font_data(fs::read(&p).unwrap());
                n += 1;
            }
        }
    }
    n
}

/// Draws an SVG to PNG bytes; returns them and the share of pixels that are not white.
fn draw(svg: &str) -> (Vec<u8>, f64) {
    let mut opt = resvg::usvg::Options::default();
    fonts(&mut opt);
    let tree = resvg::usvg::Tree::from_str(svg, &opt).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let inked = pixmap
        .pixels()
        .iter()
        .filter(|p| p.alpha() > 0 && (p.red() < 240 || p.green() < 240 || p.blue() < 240))
        .count();
    let share = inked as f64 / pixmap.pixels().len() as f64;
    (pixmap.encode_png().unwrap(), share)
}

#[test]
fn the_svg_map_renders_to_a_non_empty_png() {
    let (_t, game) = demo();
    let svg = report(&game, "france", "svg");
    let (png, inked) = draw(&svg);
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    assert!(
        png.len() > 10_000,
        "the PNG is too small: {} bytes",
        png.len()
    );
    assert!(inked > 0.02, "the map is nearly blank: {inked}");
    // Every area of the bundled map has coordinates and a node of its own.
    let map = fs::read_to_string(game.join("map.toml")).unwrap();
    let areas = map.lines().filter(|l| l.trim() == "[[area]]").count();
    assert_eq!(svg.matches(r#"<g class="area "#).count(), areas);
}

#[test]
fn the_map_shows_what_france_saw_and_nothing_of_the_unseen() {
    let (_t, game) = demo();
    let svg = report(&game, "france", "svg");
    // Every battle France saw, with its outcome, and its marches.
    let battles = combats(&game, Some("france"));
    assert!(!battles.is_empty());
    for area in &battles {
        assert!(
            svg.contains(&format!(r#"id="combat-{area}""#)),
            "no mark for the battle of {area}"
        );
    }
    assert!(svg.contains("Ulm: won by France"));
    assert!(svg.contains("marker-end=\"url(#arrow-france)\""));
    // France's own units, in its colour; Russia's army in Galicia is out of its sight.
    assert!(svg.contains(r#"id="units-Ulm-france""#));
    assert!(!svg.contains("RU-IV") && !svg.contains("units-Olmutz-russia"));
    // Dover is British and far from any French unit: France does not know who holds it.
    assert!(svg.contains(r#"<g class="area unknown" id="area-Dover">"#));
    assert!(svg.contains(r#"<g class="area ctl-france" id="area-Boulogne">"#));
}

/// Every element of an XML tree, depth first.
fn elements<'a, 'i>(
    node: resvg::usvg::roxmltree::Node<'a, 'i>,
) -> Vec<resvg::usvg::roxmltree::Node<'a, 'i>> {
    node.descendants().filter(|n| n.is_element()).collect()
}

/// Checks that an HTML text (well-formed XML, as pbem writes it) runs no script and loads nothing.
fn assert_self_contained(html: &str) {
    let doc = resvg::usvg::roxmltree::Document::parse_with_options(
        html,
        resvg::usvg::roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .expect("the HTML report is well-formed");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "html");
    for e in elements(root) {
        let tag = e.tag_name().name().to_ascii_lowercase();
        assert!(
            !matches!(
                tag.as_str(),
                "script"
                    | "iframe"
                    | "object"
                    | "embed"
                    | "link"
                    | "img"
                    | "style"
                    | "form"
                    | "base"
            ),
            "the HTML holds a <{tag}>"
        );
        for a in e.attributes() {
            let (name, value) = (
                a.name().to_ascii_lowercase(),
                a.value().to_ascii_lowercase(),
            );
            assert!(!name.starts_with("on"), "an event handler: {name}");
            assert!(
                !matches!(
                    name.as_str(),
                    "src" | "href" | "xlink:href" | "srcset" | "action"
                ),
                "a reference: {name}={value}"
            );
            assert!(
                !value.contains("http:")
                    && !value.contains("https:")
                    && !value.contains("javascript:")
                    && !value.contains("data:"),
                "a URL in {name}={value}"
            );
            if let Some(i) = value.find("url(") {
                assert!(value[i + 4..].starts_with('#'), "a remote url(): {value}");
            }
        }
    }
    assert!(!html.contains("<script"), "a script");
}

#[test]
fn every_html_report_parses_and_holds_no_script_and_no_remote_url() {
    let (_t, game) = demo();
    for p in POWERS {
        let html = report(&game, p, "html");
        assert_self_contained(&html);
        assert!(html.contains("<svg "), "{p}.html has no map inline");
    }
    // The text and the HTML tell the same story: every roll of the text is in the HTML.
    let text = report(&game, "france", "txt");
    let html = report(&game, "france", "html");
    for line in text.lines().filter(|l| l.trim_start().starts_with("roll ")) {
        let label = line.trim_start()["roll ".len()..]
            .split(": ")
            .next()
            .unwrap();
        assert!(
            html.contains(&format!("roll {}:", label.replace('/', "&#x2f;"))),
            "{label}"
        );
    }
}

#[test]
fn what_a_player_or_the_referee_wrote_is_escaped_in_html_and_svg() {
    let (_t, game) = unresolved_demo();
    let path = game.join("orders/1/france.txt");
    let orders = fs::read_to_string(&path).unwrap().replace(
        "entropy Boulogne is empty and the eagles are on the Danube",
        "entropy <script>alert(\"x\")</script> & <b>bold</b>",
    ) + "move <img src=http://evil.example/x.png onerror=alert(1)> Ulm\n";
    fs::write(&path, orders).unwrap();
    let config = game.join("game.toml");
    let text = fs::read_to_string(&config)
        .unwrap()
        .replace("name = \"France\"", "name = \"France <&> \\\"Empire\\\"\"");
    fs::write(&config, text).unwrap();
    pbem().arg("resolve").arg(&game).assert().success();
    let html = report(&game, "france", "html");
    assert_self_contained(&html);
    assert!(!html.contains("<b>bold"), "the entropy line is not escaped");
    assert!(html.contains("&lt;script&gt;alert("));
    assert!(!html.contains("<img"), "a rejected line is not escaped");
    assert!(html.contains("France &lt;&amp;&gt;"));
    let svg = report(&game, "austria", "svg");
    assert!(svg.contains("France &lt;&amp;&gt; &quot;Empire&quot;"));
    let (png, _) = draw(&svg);
    assert!(!png.is_empty());
    let json: serde_json::Value = serde_json::from_str(&report(&game, "france", "json")).unwrap();
    assert_eq!(
        json["orders"]["entropy"],
        "<script>alert(\"x\")</script> & <b>bold</b>"
    );
}

#[test]
fn no_report_holds_a_password_and_each_ends_with_an_orders_template() {
    let (_t, game) = demo();
    let passwords = ["eagle-1805", "danube-1805", "bear-1805", "trident-1805"];
    for p in POWERS {
        for ext in ["txt", "html", "json", "svg"] {
            let r = report(&game, p, ext);
            for pw in passwords {
                assert!(!r.contains(pw), "{p}.{ext} holds a password");
            }
        }
        let text = report(&game, p, "txt");
        let block = &text[text.rfind("ORDERS FOR TURN 2").expect("an orders block")..];
        assert!(block.contains(&format!(
            "game ulm-1805\npower {p}\npassword <your password>\nturn 2\n"
        )));
        assert!(
            text.trim_end().ends_with(
                "(the order guide of your welcome mail, pbem-orders-eia.md, lists them)."
            ),
            "{p}: the report does not end with the template"
        );
    }
    let text = report(&game, "france", "txt");
    assert!(
        text.contains("#   FR-V               Ulm"),
        "France's units are listed in the template"
    );
    assert!(text.contains("#   standing defence-chit counterattack"));
}

#[test]
fn the_orders_template_with_the_password_written_is_accepted() {
    let (_t, game) = demo();
    let text = report(&game, "france", "txt");
    let rule = "-".repeat(72);
    let block = &text[text.rfind(&rule).unwrap() + rule.len() + 1..];
    let orders = block.replace("<your password>", "eagle-1805") + "attack Ulm\n";
    let path = game.join("next.txt");
    fs::write(&path, orders).unwrap();
    pbem()
        .arg("check")
        .arg(&game)
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("orders of france for turn 2"))
        .stdout(predicate::str::contains("all 1 order(s) accepted"));
}

#[test]
fn the_referee_summary_names_missing_powers_and_what_the_defaults_did() {
    let (_t, game) = unresolved_demo();
    fs::remove_file(game.join("orders/1/austria.txt")).unwrap();
    pbem().arg("resolve").arg(&game).assert().success();
    let summary = fs::read_to_string(game.join("turns/1/summary.txt")).unwrap();
    assert!(summary.contains("Austria (austria): NO ORDERS"));
    assert!(summary.contains("No orders from: austria."));
    assert!(summary.contains("What the defaults did for Austria:"));
    assert!(summary.contains(
        "for austria, by its standing order: Austria plays the defence chit 'defend' at Ulm"
    ));
    assert!(summary.contains(&format!("EVERY COMBAT ({})", combats(&game, None).len())));
    assert!(summary.contains("roll combat/area=Ulm/round=1"));
    let mail = read_outbox_string(game.join("mail/outbox/t0001-summary.eml"));
    assert!(
        mail.contains("To: \"pbem referee\" <referee@ulm-1805.invalid>"),
        "{mail}"
    );
    assert!(mail.contains("referee's summary"));
}

#[test]
fn audit_checks_the_html_json_svg_and_summary_of_a_turn() {
    let (_t, game) = demo();
    pbem().arg("audit").arg(&game).assert().success();
    let svg = game.join("turns/1/reports/france.svg");
    let text = fs::read_to_string(&svg).unwrap();
    fs::write(&svg, text.replacen("Ulm", "Umm", 1)).unwrap();
    pbem()
        .arg("audit")
        .arg(&game)
        .assert()
        .code(4)
        .stdout(predicate::str::contains("reports/france.svg"));
}

/// The boxes of an SVG's elements that match `open` (a `<rect` or `<text` of a group): x0, y0, x1, y1.
fn boxes_after(svg: &str, group: &str) -> Vec<(String, [i64; 4])> {
    let attr = |line: &str, name: &str| -> Option<i64> {
        let at = line.find(&format!(" {name}=\""))? + name.len() + 3;
        line[at..].split('"').next()?.parse().ok()
    };
    let mut out = Vec::new();
    let mut inside = false;
    for line in svg.lines() {
        // A group of the map opens on a line of its own: `<g class="units">`.
        if line.starts_with("<g class=") && line.ends_with("\">") && !line.contains(" id=") {
            inside = line == format!("<g class=\"{group}\">");
        }
        if !inside {
            continue;
        }
        if group == "names" && line.starts_with("<text") {
            let text = line.split('>').nth(1).unwrap().trim_end_matches("</text");
            let (x, y) = (attr(line, "x").unwrap(), attr(line, "y").unwrap());
            // The width the map allows a name (report::labels::text_width), at 12 px.
            let w = (text.chars().count() as i64 * 12 * 6 + 9) / 10;
            let x0 = if line.contains("\"start\"") {
                x
            } else if line.contains("\"end\"") {
                x - w
            } else {
                x - w / 2
            };
            out.push((text.to_string(), [x0, y - 12, x0 + w, y + 3]));
        } else if group == "units" && line.contains("<rect") {
            let rect = &line[line.find("<rect").unwrap()..];
            let (x, y, w) = (
                attr(rect, "x").unwrap(),
                attr(rect, "y").unwrap(),
                attr(rect, "width").unwrap(),
            );
            out.push(("chip".to_string(), [x, y, x + w, y + 15]));
        }
    }
    out
}

fn overlap(a: &[i64; 4], b: &[i64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

#[test]
fn map_names_cover_no_unit_chip_nor_each_other_and_stay_on_the_map() {
    let (_t, game) = demo();
    for p in POWERS {
        let svg = report(&game, p, "svg");
        let names = boxes_after(&svg, "names");
        let chips = boxes_after(&svg, "units");
        assert!(names.len() > 40 && !chips.is_empty(), "{p}");
        for (i, (name, b)) in names.iter().enumerate() {
            assert!(b[0] >= 0 && b[1] >= 0, "{p}: {name} is cut off at {b:?}");
            for (other, c) in names[i + 1..].iter().chain(&chips) {
                assert!(!overlap(b, c), "{p}: {name} {b:?} covers {other} {c:?}");
            }
        }
    }
}

/// The PNG of the report mail, as the outbox carries it: resvg with the bundled font gives the
/// same bytes on every machine.
#[test]
fn the_png_map_of_france_is_stable() {
    use sha2::Digest;
    let (_t, game) = demo();
    let png = fs::read(game.join("turns/1/reports/france.png")).unwrap();
    let size = pbem::report::png::size(&png).unwrap();
    assert!(size.0 <= pbem::report::png::MAX_WIDTH, "{size:?}");
    let digest = hex::encode(sha2::Sha256::digest(&png));
    insta::assert_snapshot!(
        "report_france_turn_1_png",
        format!(
            "{} x {} px, {} bytes, sha256 {digest}",
            size.0,
            size.1,
            png.len()
        )
    );
}

/// Each ruleset draws its own marks and legend: the PoG map shows trenches (11.2), forts and
/// terrain (a ring of its colour around the area), and counts combat factors; the EiA map has no trench and counts corps factors.
#[test]
fn the_pog_map_draws_its_trenches_forts_and_terrain_with_its_own_legend() {
    let tmp = tempfile::tempdir().unwrap();
    support::pbem()
        .args(["demo", "--game", "pog-1914", "--dir"])
        .arg(tmp.path())
        .assert()
        .success();
    let svg = fs::read_to_string(tmp.path().join("pog-1914/turns/1/reports/allies.svg")).unwrap();
    for (mark, legend) in [
        (">T1</text>", "T1, T2: trench and its level (PoG 11.2)"),
        (">F2</text>", "F1, F2, F3: fort and its strength"),
        (
            r##" r="16" fill="#6d4c41"/>"##,
            "terrain: the ring around an area",
        ),
        (r##" r="10" fill="#6d4c41"/>"##, ">mountain</text>"),
    ] {
        assert!(svg.contains(mark), "no {mark} on the PoG map");
        assert!(svg.contains(legend), "no '{legend}' in the PoG legend");
    }
    assert!(svg.contains("combat factors of a power in an area"));
    assert!(!svg.contains("fleets of 6 ships") && !svg.contains(">sea area<"));
    let (_t, game) = demo();
    let eia = report(&game, "france", "svg");
    assert!(eia.contains("corps factors of a power in an area"));
    assert!(!eia.contains("trench"));
}

/// The summary hands its template each decision and each combat event as an object whose fields are
/// made when read (shared by a power's list and the list of all, for memory): a game's own
/// `templates/summary.txt.j2` still reads every field of them, as the built-in one's counts say,
/// and prints one whole.
#[test]
fn a_games_own_summary_template_reads_every_field_of_decisions_and_combat_events() {
    let (_t, game) = unresolved_demo();
    fs::remove_file(game.join("orders/1/austria.txt")).unwrap();
    let (_t2, built_in) = unresolved_demo();
    fs::remove_file(built_in.join("orders/1/austria.txt")).unwrap();
    support::write(
        &game,
        "templates/summary.txt.j2",
        "{% for d in decisions %}D|{{ d.power }}|{{ d.by }}|{{ d.text }}|{{ d.citation }}|{{ d.rolls|length }}\n\
         {% endfor %}{% for p in powers %}{% for d in p.decisions %}P|{{ p.power }}|{{ d.power }}\n\
         {% endfor %}{% endfor %}{% for c in combats %}{% for e in c.events %}E|{{ e.rule }}|{{ e.topic }}|{{ e.kind }}|{{ e.area }}|{{ e.citation }}|{{ e.text }}|{{ e.decided_by }}|{{ e.decided_for }}|{{ e.decided }}|{% for r in e.rolls %}{{ r.label }} {{ r.dice }} {{ r.faces }} {{ r.each|length }};{% endfor %}|\n\
         {% endfor %}{% endfor %}J|{{ decisions[0] }}\n",
    );
    for g in [&game, &built_in] {
        pbem().arg("resolve").arg(g).assert().success();
    }
    let own = fs::read_to_string(game.join("turns/1/summary.txt")).unwrap();
    let built = fs::read_to_string(built_in.join("turns/1/summary.txt")).unwrap();
    let count = |what: &str| {
        let at = built.find(what).unwrap() + what.len();
        built[at..]
            .split(')')
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap()
    };
    let lines = |tag: &str| -> Vec<&str> { own.lines().filter(|l| l.starts_with(tag)).collect() };
    let decisions = lines("D|");
    assert_eq!(decisions.len(), count("EVERY DECISION ("), "{own}");
    assert!(decisions
        .iter()
        .all(|l| l.split('|').all(|f| !f.is_empty())));
    // Austria sent nothing: its decisions are among all, under its name.
    let austria = lines("P|austria|");
    assert!(!austria.is_empty(), "{own}");
    assert!(austria.iter().all(|l| *l == "P|austria|austria"));
    assert_eq!(
        decisions
            .iter()
            .filter(|l| l.starts_with("D|austria|"))
            .count(),
        austria.len()
    );
    let events = lines("E|");
    assert!(!events.is_empty(), "{own}");
    assert!(events.iter().any(|l| l.contains(" -> ") || l.contains(';')));
    assert!(events.iter().any(|l| l.contains("|by the SOP|")
        || l.contains("|at random|")
        || l.contains("|by its standing order|")
        || l.contains("|by its order|")));
    let json = lines("J|")[0];
    for field in [
        "\"power\"",
        "\"by\"",
        "\"text\"",
        "\"citation\"",
        "\"rolls\"",
    ] {
        assert!(json.contains(field), "{json}");
    }
}

/// The summary's long lists are written by pbem (`{{ decisions_text }}`, `{{ combats_text }}`): a
/// game's own template that loops over `decisions` and `combats`, as the bundled one did before
/// (`tests/templates/summary-loops.txt.j2`), writes the same summary, byte for byte.
#[test]
fn a_summary_template_looping_over_decisions_and_combats_writes_the_bundled_summary() {
    let (_t, game) = unresolved_demo();
    let (_t2, built_in) = unresolved_demo();
    for g in [&game, &built_in] {
        // A power without orders: the defaults' decisions are listed under its name too.
        fs::remove_file(g.join("orders/1/austria.txt")).unwrap();
    }
    support::write(
        &game,
        "templates/summary.txt.j2",
        include_str!("templates/summary-loops.txt.j2"),
    );
    for g in [&game, &built_in] {
        pbem().arg("resolve").arg(g).assert().success();
    }
    let own = fs::read_to_string(game.join("turns/1/summary.txt")).unwrap();
    let built = fs::read_to_string(built_in.join("turns/1/summary.txt")).unwrap();
    assert!(
        built.contains("What the defaults did for Austria:"),
        "{built}"
    );
    assert!(
        built.contains("    roll ") && built.contains("      roll "),
        "{built}"
    );
    assert_eq!(own, built);
}

/// The HTML of a report's mail, decoded.
fn mail_html(game: &Path, power: &str) -> String {
    let eml = read_outbox(game.join(format!("mail/outbox/t0001-report-{power}.eml")));
    let m = pbem::mail::parse::parse(&eml).expect("a message");
    m.parts
        .iter()
        .find_map(|p| match &p.content {
            pbem::mail::parse::Content::Html(h) => Some(h.replace("\r\n", "\n")),
            _ => None,
        })
        .expect("an HTML part")
}

/// The HTML report is rendered once for its file (the map inline) and its mail (the map as PNG),
/// around the template's `{% block map %}`: a game's own template without that block, or naming
/// the map outside it, is rendered whole for each, and every one gives the pages it gave before.
#[test]
fn the_html_report_is_the_same_with_its_template_cut_at_the_map_block_or_whole() {
    let built_in_source = include_str!("../templates/report.html.j2");
    assert!(built_in_source.contains("{% block map %}"));
    let (_t, built_in) = demo();
    // Without the block: rendered whole, twice.
    let (_t1, whole) = unresolved_demo();
    support::write(
        &whole,
        "templates/report.html.j2",
        built_in_source
            .replace("{% block map %}\n", "")
            .replace("{% endblock %}\n", ""),
    );
    // The map named before the block too: the page is not the same for the file and the mail.
    let (_t2, named) = unresolved_demo();
    support::write(
        &named,
        "templates/report.html.j2",
        built_in_source.replace(
            "<body ",
            "{% if map_svg %}\n<p>inline map below</p>\n{% endif %}\n<body ",
        ),
    );
    // Resolved on time, as the demo is: the same next deadline.
    for g in [&whole, &named] {
        pbem()
            .arg("resolve")
            .arg(g)
            .env("PBEM_NOW", "2026-12-06T19:30:00Z")
            .assert()
            .success();
    }
    for p in POWERS {
        assert_eq!(
            report(&whole, p, "html"),
            report(&built_in, p, "html"),
            "{p}"
        );
        assert_eq!(mail_html(&whole, p), mail_html(&built_in, p), "{p}");
        let file = report(&named, p, "html");
        let mail = mail_html(&named, p);
        assert!(file.contains("<p>inline map below</p>"), "{p}");
        assert!(!mail.contains("inline map below"), "{p}");
        assert_eq!(
            file.replacen("<p>inline map below</p>\n", "", 1),
            report(&built_in, p, "html"),
            "{p}"
        );
        assert_eq!(mail, mail_html(&built_in, p), "{p}");
        assert!(
            mail.contains("cid:map@pbem") && !mail.contains("<svg"),
            "{p}"
        );
    }
}

/// A game's own report template that loops over the units a power sees, as the bundled one did
/// before pbem wrote those lines (`{{ seen_text }}`), names each unit's owner as the bundled report
/// does, by the game's name of the power (`u.owner_name`: "Austria: infantry corps"), beside its
/// id (`u.owner`, "austria"), and writes the same report, byte for byte.
#[test]
fn a_report_template_looping_over_the_units_seen_names_their_owners_as_the_bundled_one() {
    let (_t, game) = unresolved_demo();
    let (_t2, built_in) = unresolved_demo();
    let bundled = include_str!("../templates/report.txt.j2");
    assert!(bundled.contains("{{ seen_text }}\n"));
    let own = bundled.replace(
        "{{ seen_text }}\n",
        "{% for u in seen %}\n  {{ (u.id or \"(from afar)\")|pad(18) }} {{ u.area|pad(14) }} {{ u.owner_name }}: {{ u.detail }}\n{% endfor %}\n",
    );
    support::write(&game, "templates/report.txt.j2", &own);
    for g in [&game, &built_in] {
        pbem().arg("resolve").arg(g).assert().success();
    }
    for power in ["austria", "britain", "france", "russia"] {
        let path = format!("turns/1/reports/{power}.txt");
        let built = fs::read_to_string(built_in.join(&path)).unwrap();
        assert_eq!(fs::read_to_string(game.join(&path)).unwrap(), built);
    }
    let austria = fs::read_to_string(built_in.join("turns/1/reports/austria.txt")).unwrap();
    assert!(austria.contains("France: "), "{austria}");
    // The owner's id stays a field of its own.
    let ids = bundled.replace(
        "{{ seen_text }}\n",
        "{% for u in seen %}\n  owned by {{ u.owner }}, {{ u.owner_name }}\n{% endfor %}\n",
    );
    support::write(&game, "templates/report.txt.j2", &ids);
    pbem()
        .args(["resolve", "--turn", "1", "--force"])
        .arg(&game)
        .assert()
        .success();
    let austria = fs::read_to_string(game.join("turns/1/reports/austria.txt")).unwrap();
    assert!(austria.contains("  owned by france, France\n"), "{austria}");
}
