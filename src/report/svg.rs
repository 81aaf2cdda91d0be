//! The map of one power as an SVG picture: areas as labelled nodes at their `xy` from map.toml,
//! adjacency as lines, seas, cities, fortresses, capitals and depots, control in the controller's
//! colour, the units the power sees in their owner's colour, arrows for the moves and marks for the
//! battles it saw, and a legend. Black on white, readable when printed.
//!
//! The bytes are deterministic: integer coordinates, elements in map and game order, and every text
//! escaped (area ids are plain words, but names and colours come from the referee's files).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::engine::visibility::Precision;
use crate::game::map::Terrain;
use crate::game::Game;

use super::labels::{self, text_width, Placer, Rect, Spot};
use super::map::AreaMark;
use super::view::{PowerView, TurnSight};

/// Width of the map's drawing, in pixels; heights follow the map's proportions.
const MAP_WIDTH: i64 = 1200;
/// Space around the map and above it for the title.
const MARGIN: i64 = 70;
const TOP: i64 = 40;
/// Width of the legend to the right of the map.
const LEGEND_WIDTH: i64 = 330;
/// Colours for powers whose game.toml gives none (or an unreadable one), in game order.
const PALETTE: [&str; 8] = [
    "#1f4e9c", "#b8860b", "#2e7d32", "#c62828", "#6a1b9a", "#00838f", "#5d4037", "#37474f",
];
const INK: &str = "#212121";
/// The size of an area's name.
const LABEL_SIZE: i64 = 12;
const UNSEEN: &str = "#e0e0e0";

/// Escapes text for SVG (XML) content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The colour of the power at `rank` in game.toml: its `colour` when it is `#rrggbb`, else the
/// palette's.
fn colour_of(game: &Game, rank: usize) -> Option<String> {
    let p = game.config.powers.get(rank)?;
    Some(
        p.colour
            .as_deref()
            .filter(|c| rgb(c).is_some())
            .map(str::to_ascii_lowercase)
            .unwrap_or_else(|| PALETTE[rank % PALETTE.len()].to_string()),
    )
}

fn rgb(c: &str) -> Option<[u32; 3]> {
    let hex = c.strip_prefix('#')?;
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let v = u32::from_str_radix(hex, 16).ok()?;
    Some([v >> 16, (v >> 8) & 0xff, v & 0xff])
}

/// The colour mixed with three parts of white: the fill of a controlled area.
fn tint(c: &str) -> String {
    let [r, g, b] = rgb(c).unwrap_or([158, 158, 158]);
    let t = |x: u32| x + (255 - x) * 3 / 4;
    format!("#{:02x}{:02x}{:02x}", t(r), t(g), t(b))
}

/// White or black, whichever reads on the colour.
fn ink_on(c: &str) -> &'static str {
    let [r, g, b] = rgb(c).unwrap_or([0, 0, 0]);
    if (299 * r + 587 * g + 114 * b) / 1000 > 150 {
        "#000000"
    } else {
        "#ffffff"
    }
}

/// How a map is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Every area of the view, the legend at the right: the SVG attachment, which prints.
    Whole,
    /// The areas the power sees, closer, the legend below: the PNG of the mail, on a phone.
    Phone,
}

/// Width of the drawing of the areas a power sees, in the [`Layout::Phone`] map.
const PHONE_MAP_WIDTH: i64 = 560;

/// Where map units land on the picture: `framed` areas fill `width` pixels (or the height as much).
struct Frame {
    min: [i64; 2],
    span: i64,
    width: i64,
}

impl Frame {
    fn new<'a>(framed: impl Iterator<Item = &'a AreaMark> + Clone, width: i64) -> Frame {
        let xs = framed.clone().map(|a| i64::from(a.x));
        let ys = framed.map(|a| i64::from(a.y));
        let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
        Frame {
            min: [x0, y0],
            span: (x1 - x0).max(y1 - y0).max(1),
            width,
        }
    }

    fn at(&self, a: &AreaMark) -> (i64, i64) {
        (
            MARGIN + (i64::from(a.x) - self.min[0]) * self.width / self.span,
            TOP + MARGIN + (i64::from(a.y) - self.min[1]) * self.width / self.span,
        )
    }
}

/// Draws the map of the power of `view`: the areas its view holds (`report::map`), nothing beyond.
pub fn render(game: &Game, shared: &TurnSight, view: &PowerView) -> String {
    render_as(game, shared, view, Layout::Whole)
}

/// As [`render`], laid out as `layout` says. [`Layout::Phone`] frames the areas the power sees
/// (all of them when it sees none); the areas beyond are cut off at the picture's edges.
pub fn render_as(game: &Game, shared: &TurnSight, view: &PowerView, layout: Layout) -> String {
    let map = &view.map;
    let colour = |p: &str| {
        shared
            .rank(p)
            .and_then(|r| colour_of(game, r))
            .unwrap_or_else(|| INK.to_string())
    };
    let name = |p: &str| {
        match shared.rank(p) {
            Some(r) => game.config.powers.get(r),
            None => game.config.power(p),
        }
        .map_or(p.to_string(), |c| c.name.clone())
    };
    let seen = map.areas.iter().filter(|a| a.seen.is_some());
    let frame = match layout {
        Layout::Phone if seen.clone().next().is_some() => Frame::new(seen, PHONE_MAP_WIDTH),
        Layout::Phone => Frame::new(map.areas.iter(), PHONE_MAP_WIDTH),
        Layout::Whole => Frame::new(map.areas.iter(), MAP_WIDTH),
    };
    let pos: BTreeMap<&str, (i64, i64)> = map
        .areas
        .iter()
        .map(|a| (a.id.as_str(), frame.at(a)))
        .collect();
    let map_w = 2 * MARGIN + frame.width;
    let sees_any = map.areas.iter().any(|a| a.seen.is_some());
    let map_h = map
        .areas
        .iter()
        .filter(|a| layout == Layout::Whole || !sees_any || a.seen.is_some())
        .map(|a| frame.at(a).1)
        .max()
        .unwrap_or(0)
        .max(TOP)
        + MARGIN;
    let mut legend = String::new();
    let (width, height) = match layout {
        Layout::Whole => {
            let legend_h = draw_legend(&mut legend, game, view, map_w, TOP, &colour, &name);
            (map_w + LEGEND_WIDTH, map_h.max(legend_h) + 10)
        }
        Layout::Phone => {
            let width = map_w.max(LEGEND_WIDTH + 20);
            let legend_h = draw_legend(&mut legend, game, view, 10, map_h, &colour, &name);
            let height = legend_h + 10;
            // The areas beyond the frame are cut off: a white band under the legend and the title.
            legend.insert_str(
                0,
                &format!(
                    r##"<rect x="0" y="{map_h}" width="{width}" height="{}" fill="#ffffff"/><rect x="0" y="0" width="{width}" height="{}" fill="#ffffff"/>
<text x="10" y="22" font-size="16" font-weight="bold" fill="{INK}">{}</text><text x="10" y="42" font-size="13" fill="{INK}">{}</text>
"##,
                    height - map_h,
                    TOP + 8,
                    esc(&format!("{} - turn {} ({})", view.power_name, view.turn, view.date)),
                    esc(&view.title)
                ),
            );
            (width, height)
        }
    };

    let mut s = String::new();
    let title = title_of(view);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", esc(&title));
    // One arrowhead per power that moved.
    let _ = writeln!(s, "<defs>");
    let mut movers: Vec<&str> = map.moves.iter().map(|m| m.owner.as_str()).collect();
    movers.sort();
    movers.dedup();
    for p in movers {
        let _ = writeln!(
            s,
            r#"<marker id="arrow-{}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker>"#,
            esc(p),
            colour(p)
        );
    }
    let _ = writeln!(s, "</defs>");
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        s,
        r#"<text x="{MARGIN}" y="30" font-size="18" font-weight="bold" fill="{INK}">{}</text>"#,
        esc(&title)
    );

    // Adjacency: each pair once, land roads solid, dotted connections (PoG 11.1.3) dotted, sea lanes
    // dashed.
    let _ = writeln!(s, r#"<g class="adjacency">"#);
    let drawn: BTreeSet<usize> = map.areas.iter().map(|a| a.index).collect();
    for &i in &drawn {
        let a = game.map.area(i);
        for &j in a.adjacent.iter().filter(|&&j| j > i && drawn.contains(&j)) {
            let b = game.map.area(j);
            let ((x1, y1), (x2, y2)) = (pos[a.id.as_str()], pos[b.id.as_str()]);
            let style = if a.dotted.contains_key(&j) {
                r##"stroke="#9e9e9e" stroke-width="2" stroke-dasharray="2 4""##
            } else if a.is_land() && b.is_land() {
                r##"stroke="#9e9e9e" stroke-width="2""##
            } else {
                r##"stroke="#90caf9" stroke-width="1.5" stroke-dasharray="5 4""##
            };
            let _ = writeln!(
                s,
                r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {style}/>"#
            );
        }
    }
    let _ = writeln!(s, "</g>");

    // Moves: one arrow per owner and leg, naming every unit that took it.
    // (owner, from, to) and the units that took the leg.
    type Leg<'a> = ((&'a str, &'a str, &'a str), Vec<&'a str>);
    let mut legs: Vec<Leg> = Vec::new();
    for m in &map.moves {
        let key = (m.owner.as_str(), m.from.as_str(), m.to.as_str());
        match legs.iter_mut().find(|(k, _)| *k == key) {
            Some((_, units)) => units.push(&m.unit),
            None => legs.push((key, vec![&m.unit])),
        }
    }
    let _ = writeln!(s, r#"<g class="moves">"#);
    for ((owner, from, to), units) in &legs {
        let (Some(&a), Some(&b)) = (find(&pos, from), find(&pos, to)) else {
            continue;
        };
        let ((x1, y1), (x2, y2)) = (shorten(a, b, 14), shorten(b, a, 16));
        let _ = writeln!(
            s,
            r#"<g class="move"><title>{}</title><line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="3" marker-end="url(#arrow-{})"/></g>"#,
            esc(&format!("{}: {from} to {to}", units.join(", "))),
            colour(owner),
            esc(owner)
        );
    }
    let _ = writeln!(s, "</g>");

    // What the names must not cover: the title, every node and its marks, battle marks, unit chips.
    let mut placer = Placer::new(Rect {
        x0: 0,
        y0: 0,
        x1: map_w,
        y1: map_h,
    });
    placer.block(Rect {
        x0: MARGIN,
        y0: 10,
        x1: MARGIN + text_width(&title, 18),
        y1: 36,
    });
    let _ = writeln!(s, r#"<g class="areas">"#);
    for a in &map.areas {
        let (x, y) = pos[a.id.as_str()];
        draw_area(&mut s, a, (x, y), &colour, &name);
        if a.land {
            placer.block(Rect::around(x, y, 13, 13));
            if a.capital.is_some() {
                placer.block(Rect::around(x + 11, y - 11, 7, 7));
            }
            if a.depot {
                placer.block(Rect::around(x - 15, y + 5, 4, 4));
            }
        } else {
            placer.block(Rect::around(x, y, 30, 14));
        }
    }
    let _ = writeln!(s, "</g>");

    let _ = writeln!(s, r#"<g class="combats">"#);
    for c in &map.combats {
        let Some(&(x, y)) = find(&pos, &c.area) else {
            continue;
        };
        let ring = c
            .winners
            .first()
            .map_or("#b71c1c".to_string(), |w| colour(w));
        let about = if c.result.is_empty() {
            format!("Battle of {}", c.area)
        } else {
            c.result.clone()
        };
        placer.block(Rect::around(x - 18, y - 18, 7, 7));
        let _ = writeln!(
            s,
            r##"<g class="combat" id="combat-{}"><title>{}</title><circle cx="{x}" cy="{y}" r="16" fill="none" stroke="{ring}" stroke-width="3"/><path d="M{} {} L{} {} M{} {} L{} {}" stroke="#b71c1c" stroke-width="3" stroke-linecap="round"/></g>"##,
            esc(&c.area),
            esc(&about),
            x - 24,
            y - 24,
            x - 12,
            y - 12,
            x - 12,
            y - 24,
            x - 24,
            y - 12
        );
    }
    let _ = writeln!(s, "</g>");

    // Units: a chip per owner beside the area, own units first.
    let _ = writeln!(s, r#"<g class="units">"#);
    let mut stacked: BTreeMap<&str, i64> = BTreeMap::new();
    for u in &map.units {
        let Some(&(x, y)) = find(&pos, &u.area) else {
            continue;
        };
        let k = stacked.entry(u.area.as_str()).or_default();
        let (cx, cy) = (x + 14, y - 10 + *k * 16);
        *k += 1;
        let label = chip_text(u.precision, u.corps, u.factors, u.leaders, u.ships);
        let w = 7 * label.len() as i64 + 8;
        placer.block(Rect {
            x0: cx,
            y0: cy,
            x1: cx + w,
            y1: cy + 15,
        });
        let c = colour(&u.owner);
        let what = if u.ids.is_empty() {
            format!("{}: {label} (seen from afar)", name(&u.owner))
        } else {
            format!("{}: {}", name(&u.owner), u.ids.join(", "))
        };
        let _ = writeln!(
            s,
            r#"<g class="unit" id="units-{}-{}"><title>{}</title><rect x="{cx}" y="{cy}" width="{w}" height="15" rx="2" fill="{c}" stroke="{INK}" stroke-width="0.5"/><text x="{}" y="{}" font-size="11" font-weight="bold" fill="{}">{}</text></g>"#,
            esc(&u.area),
            esc(&u.owner),
            esc(&what),
            cx + 4,
            cy + 12,
            ink_on(&c),
            esc(&label)
        );
    }
    let _ = writeln!(s, "</g>");

    // Marks beside each node, leftward: its terrain, its fort, the ruleset's own (PoG trenches).
    let _ = writeln!(s, r#"<g class="marks">"#);
    for a in &map.areas {
        let (x, y) = pos[a.id.as_str()];
        let mut right = x - if a.land { 15 } else { 32 };
        for (tag, about, fill, ink) in area_marks(game, view, a) {
            let w = labels::text_width(&tag, 10) + 4;
            let left = right - w;
            placer.block(Rect {
                x0: left,
                y0: y - 7,
                x1: right,
                y1: y + 7,
            });
            let _ = writeln!(
                s,
                r#"<g class="mark"><title>{}</title><rect x="{left}" y="{}" width="{w}" height="13" rx="2" fill="{fill}" stroke="{INK}" stroke-width="0.5"/><text x="{}" y="{}" font-size="10" fill="{ink}">{}</text></g>"#,
                esc(&format!("{}: {about}", a.id)),
                y - 7,
                left + 2,
                y + 3,
                esc(&tag)
            );
            right = left - 2;
        }
    }
    let _ = writeln!(s, "</g>");

    // Names last, over everything, each where it covers nothing (`report::labels`).
    let _ = writeln!(s, r#"<g class="names">"#);
    for a in &map.areas {
        let (x, y) = pos[a.id.as_str()];
        let width = text_width(&a.id, LABEL_SIZE);
        let at = |dx: i64, dy: i64, anchor: &'static str| Spot {
            x: x + dx,
            y: y + dy,
            anchor,
        };
        let spots = if a.land {
            vec![
                at(0, 26, "middle"),
                at(0, -17, "middle"),
                at(16, 5, "start"),
                at(-16, 5, "end"),
                at(0, 40, "middle"),
                at(0, -31, "middle"),
            ]
        } else {
            vec![
                at(0, 5, "middle"),
                at(0, 30, "middle"),
                at(0, -19, "middle"),
            ]
        };
        let spot = placer.place(&spots, width, LABEL_SIZE);
        let style = if a.land {
            format!(r#"fill="{INK}""#)
        } else {
            r##"font-style="italic" fill="#0d47a1""##.to_string()
        };
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="{}" font-size="{LABEL_SIZE}" {style} stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>"##,
            spot.x,
            spot.y,
            spot.anchor,
            esc(&a.id)
        );
    }
    let _ = writeln!(s, "</g>");
    s.push_str(&legend);
    s.push_str("</svg>\n");
    s
}

/// The tag of a terrain other than clear, drawn beside the node.
fn terrain_tag(t: Terrain) -> Option<&'static str> {
    match t {
        Terrain::Clear => None,
        Terrain::Forest => Some("for"),
        Terrain::Hills => Some("hil"),
        Terrain::Mountain => Some("mtn"),
        Terrain::Marsh => Some("mar"),
        Terrain::Swamp => Some("swp"),
        Terrain::Desert => Some("des"),
    }
}

/// The marks of area `a`: tag, meaning, fill and ink. Its terrain (not clear), its fort (PoG), and
/// the ruleset's own marks there (`Ruleset::map_marks`).
fn area_marks(
    game: &Game,
    view: &PowerView,
    a: &AreaMark,
) -> Vec<(String, String, &'static str, &'static str)> {
    let area = game.map.area(a.index);
    let mut out = Vec::new();
    if let Some(tag) = terrain_tag(area.terrain).filter(|_| a.land) {
        out.push((
            tag.to_string(),
            area.terrain.name().to_string(),
            "#f1f8e9",
            INK,
        ));
    }
    if let Some(level) = area.fort {
        out.push((
            format!("F{level}"),
            format!("fort, strength {level}"),
            "#455a64",
            "#ffffff",
        ));
    }
    for m in view.map.marks.iter().filter(|m| m.area == a.id) {
        out.push((m.tag.clone(), m.about.clone(), "#fff3e0", INK));
    }
    out
}

/// Whether `tag` is a terrain's.
fn terrain_tag_of(tag: &str) -> bool {
    ["for", "hil", "mtn", "mar", "swp", "des"].contains(&tag)
}

/// The title over the map.
fn title_of(view: &PowerView) -> String {
    format!(
        "{} - turn {} ({}) - the map of {}",
        view.title, view.turn, view.date, view.power_name
    )
}

fn find<'a>(pos: &'a BTreeMap<&str, (i64, i64)>, id: &str) -> Option<&'a (i64, i64)> {
    pos.get(id).or_else(|| {
        pos.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(id))
            .map(|(_, v)| v)
    })
}

/// The point `by` pixels from `a` toward `b`, rounded to whole pixels.
fn shorten(a: (i64, i64), b: (i64, i64), by: i64) -> (i64, i64) {
    let (dx, dy) = ((b.0 - a.0) as f64, (b.1 - a.1) as f64);
    let len = (dx * dx + dy * dy).sqrt();
    if len <= 2.0 * by as f64 {
        return a;
    }
    let f = by as f64 / len;
    (a.0 + (dx * f).round() as i64, a.1 + (dy * f).round() as i64)
}

/// "17 L2 S6": corps factors, leaders, ships; "~15" when seen from afar.
fn chip_text(precision: Precision, corps: u32, factors: u32, leaders: u32, ships: u32) -> String {
    let approx = if precision == Precision::Approximate {
        "~"
    } else {
        ""
    };
    let mut parts = Vec::new();
    if corps > 0 {
        parts.push(format!("{approx}{factors}"));
    }
    if leaders > 0 {
        parts.push(format!("L{leaders}"));
    }
    if ships > 0 {
        parts.push(format!("S{approx}{ships}"));
    }
    parts.join(" ")
}

fn draw_area(
    s: &mut String,
    a: &AreaMark,
    (x, y): (i64, i64),
    colour: &impl Fn(&str) -> String,
    name: &impl Fn(&str) -> String,
) {
    let id = esc(&a.id);
    let mut about = vec![if a.land { "land" } else { "sea" }.to_string()];
    if a.city {
        about.push(if a.fortress > 0 {
            format!("city, fortress {}", a.fortress)
        } else {
            "open city".to_string()
        });
    }
    if let Some(c) = &a.capital {
        about.push(format!("capital of {}", name(c)));
    }
    if a.depot {
        about.push("depot".into());
    }
    if a.port {
        about.push("port".into());
    }
    about.push(match (a.land, a.control_known, &a.control) {
        (false, _, _) => String::new(),
        (true, true, Some(c)) => format!("controlled by {}", name(c)),
        (true, true, None) => "uncontrolled".into(),
        (true, false, _) => "control not known".into(),
    });
    about.push(
        match a.seen {
            Some(Precision::Exact) => "in sight",
            Some(Precision::Approximate) => "seen from afar",
            None => "out of sight",
        }
        .to_string(),
    );
    about.retain(|t| !t.is_empty());
    let class = match (a.land, a.control_known, &a.control) {
        (false, _, _) => "sea".to_string(),
        (true, true, Some(c)) => format!("ctl-{}", esc(c)),
        (true, true, None) => "uncontrolled".to_string(),
        (true, false, _) => "unknown".to_string(),
    };
    let _ = write!(
        s,
        r#"<g class="area {class}" id="area-{id}"><title>{}</title>"#,
        esc(&format!("{}: {}", a.id, about.join(", ")))
    );
    if !a.land {
        let _ = write!(
            s,
            r##"<ellipse cx="{x}" cy="{y}" rx="30" ry="14" fill="#e3f2fd" stroke="#64b5f6" stroke-width="1.5"/></g>"##
        );
        let _ = writeln!(s);
        return;
    }
    let (fill, stroke, dash) = match (&a.control, a.control_known) {
        (Some(c), true) => (tint(&colour(c)), colour(c), ""),
        (None, true) => ("#ffffff".to_string(), "#616161".to_string(), ""),
        (_, false) => (
            UNSEEN.to_string(),
            "#9e9e9e".to_string(),
            r#" stroke-dasharray="3 2""#,
        ),
    };
    let _ = write!(
        s,
        r#"<circle cx="{x}" cy="{y}" r="11" fill="{fill}" stroke="{stroke}" stroke-width="2.5"{dash}/>"#
    );
    if a.city {
        let fill = if a.fortress > 0 { INK } else { "#ffffff" };
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="8" height="8" fill="{fill}" stroke="{INK}" stroke-width="1.5"/>"#,
            x - 4,
            y - 4
        );
    }
    if a.capital.is_some() {
        let _ = write!(
            s,
            r##"<polygon points="{}" fill="#fbc02d" stroke="{INK}" stroke-width="1"/>"##,
            star(x + 11, y - 11)
        );
    }
    if a.depot {
        let _ = write!(
            s,
            r#"<polygon points="{},{} {},{} {},{}" fill="{INK}"/>"#,
            x - 19,
            y + 8,
            x - 11,
            y + 8,
            x - 15,
            y + 1
        );
    }
    let _ = writeln!(s, "</g>");
}

/// A five-pointed star of radius 7 around (x, y), in whole pixels.
fn star(x: i64, y: i64) -> String {
    const POINTS: [(i64, i64); 10] = [
        (0, -7),
        (2, -2),
        (7, -2),
        (3, 1),
        (4, 6),
        (0, 3),
        (-4, 6),
        (-3, 1),
        (-7, -2),
        (-2, -2),
    ];
    POINTS
        .iter()
        .map(|(dx, dy)| format!("{},{}", x + dx, y + dy))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A legend lists every power of a game of at most this many; in a larger game, the powers its map
/// shows.
const WHOLE_LEGEND_POWERS: usize = 24;

/// The powers the legend lists, in game order: every power of a small game; in a larger one the
/// powers this map shows (the power itself, the controllers of its areas, the owners of its units
/// and moves, the victors of its battles).
fn on_map<'g>(game: &'g Game, view: &PowerView) -> Vec<&'g crate::game::config::PowerConfig> {
    if game.config.powers.len() <= WHOLE_LEGEND_POWERS {
        return game.config.powers.iter().collect();
    }
    let m = &view.map;
    let named: BTreeSet<&str> = std::iter::once(view.power.as_str())
        .chain(m.areas.iter().filter_map(|a| a.control.as_deref()))
        .chain(m.units.iter().map(|u| u.owner.as_str()))
        .chain(m.moves.iter().map(|u| u.owner.as_str()))
        .chain(
            m.combats
                .iter()
                .flat_map(|c| c.winners.iter().map(String::as_str)),
        )
        .collect();
    game.config
        .powers
        .iter()
        .filter(|p| named.contains(p.id.as_str()))
        .collect()
}

/// The legend being written: its text and the baseline of its next line.
struct Legend {
    s: String,
    x: i64,
    y: i64,
}

impl Legend {
    /// A line: a symbol (drawn around `self.y`) and its meaning.
    fn line(&mut self, symbol: String, text: &str) {
        let _ = writeln!(
            self.s,
            r#"{symbol}<text x="{}" y="{}" font-size="12" fill="{INK}">{}</text>"#,
            self.x + 34,
            self.y + 4,
            esc(text)
        );
        self.y += 22;
    }

    fn heading(&mut self, text: &str) {
        self.y += 6;
        let _ = writeln!(
            self.s,
            r#"<text x="{}" y="{}" font-size="13" font-weight="bold" fill="{INK}">{}</text>"#,
            self.x,
            self.y,
            esc(text)
        );
        self.y += 20;
    }
}

/// Draws the legend with its top left corner at (`left`, `top`); returns where it ends below.
fn draw_legend(
    out: &mut String,
    game: &Game,
    view: &PowerView,
    left: i64,
    top: i64,
    colour: &impl Fn(&str) -> String,
    name: &impl Fn(&str) -> String,
) -> i64 {
    let x = left + 10;
    let mut l = Legend {
        s: String::new(),
        x,
        y: top + 30,
    };
    l.heading("Powers");
    for p in on_map(game, view) {
        let c = colour(&p.id);
        let mine = if p.id == view.power { " (you)" } else { "" };
        l.line(
            format!(
                r#"<rect x="{x}" y="{}" width="22" height="14" fill="{c}" stroke="{INK}" stroke-width="0.5"/>"#,
                l.y - 7
            ),
            &format!("{}{mine}", p.name),
        );
    }
    l.heading("Areas");
    let circle = |y: i64, fill: &str, stroke: &str, dash: &str| {
        format!(
            r#"<circle cx="{}" cy="{y}" r="8" fill="{fill}" stroke="{stroke}" stroke-width="2.5"{dash}/>"#,
            x + 11
        )
    };
    let own = colour(&view.power);
    l.line(
        circle(l.y, &tint(&own), &own, ""),
        "land, in the colour of its controller",
    );
    l.line(circle(l.y, "#ffffff", "#616161", ""), "land, uncontrolled");
    l.line(
        circle(l.y, UNSEEN, "#9e9e9e", r#" stroke-dasharray="3 2""#),
        "out of sight: control not known",
    );
    if view.map.areas.iter().any(|a| !a.land) {
        l.line(
            format!(
                r##"<ellipse cx="{}" cy="{}" rx="14" ry="8" fill="#e3f2fd" stroke="#64b5f6" stroke-width="1.5"/>"##,
                x + 11,
                l.y
            ),
            "sea area",
        );
    }
    if view.map.areas.iter().any(|a| a.city && a.fortress == 0) {
        l.line(
            format!(
                r##"<rect x="{}" y="{}" width="8" height="8" fill="#ffffff" stroke="{INK}" stroke-width="1.5"/>"##,
                x + 7,
                l.y - 4
            ),
            "open city",
        );
    }
    if view.map.areas.iter().any(|a| a.city && a.fortress > 0) {
        l.line(
            format!(
                r#"<rect x="{}" y="{}" width="8" height="8" fill="{INK}" stroke="{INK}" stroke-width="1.5"/>"#,
                x + 7,
                l.y - 4
            ),
            "fortified city",
        );
    }
    if view.map.areas.iter().any(|a| a.capital.is_some()) {
        l.line(
            format!(
                r##"<polygon points="{}" fill="#fbc02d" stroke="{INK}" stroke-width="1"/>"##,
                star(x + 11, l.y)
            ),
            "capital",
        );
    }
    if view.map.areas.iter().any(|a| a.depot) {
        l.line(
            format!(
                r#"<polygon points="{},{} {},{} {},{}" fill="{INK}"/>"#,
                x + 7,
                l.y + 4,
                x + 15,
                l.y + 4,
                x + 11,
                l.y - 3
            ),
            "depot",
        );
    }
    l.line(
        format!(
            r##"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="#9e9e9e" stroke-width="2"/>"##,
            x + 24,
            y = l.y
        ),
        "road between areas",
    );
    // Line styles as this map draws them, from its own areas.
    if view
        .map
        .areas
        .iter()
        .any(|a| !game.map.area(a.index).dotted.is_empty())
    {
        l.line(
            format!(
                r##"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="#9e9e9e" stroke-width="2" stroke-dasharray="2 4"/>"##,
                x + 24,
                y = l.y
            ),
            "dotted line: some nations only",
        );
    }
    if view.map.areas.iter().any(|a| !a.land) {
        l.line(
            format!(
                r##"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="#90caf9" stroke-width="1.5" stroke-dasharray="5 4"/>"##,
                x + 24,
                y = l.y
            ),
            "sea lane",
        );
    }
    // The marks this map draws, each kind once.
    let mut kinds: Vec<(&str, String)> = Vec::new();
    for a in &view.map.areas {
        let area = game.map.area(a.index);
        if let Some(tag) = terrain_tag(area.terrain).filter(|_| a.land) {
            kinds.push((tag, format!("{}: {tag}", area.terrain.name())));
        }
        if area.fort.is_some() {
            kinds.push(("F1", "F1, F2, F3: fort and its strength".to_string()));
        }
    }
    for m in &view.map.marks {
        kinds.push((m.tag.as_str(), m.legend.to_string()));
    }
    let mut said = BTreeSet::new();
    let mut terrain_words = Vec::new();
    let mut other = Vec::new();
    for (tag, text) in kinds {
        if !said.insert(text.clone()) {
            continue;
        }
        if terrain_tag_of(tag) {
            terrain_words.push(text);
        } else {
            other.push(text);
        }
    }
    if !terrain_words.is_empty() {
        l.line(
            String::new(),
            &format!("terrain: {}", terrain_words.join(", ")),
        );
    }
    for text in other {
        l.line(String::new(), &text);
    }
    l.heading("Units and events");
    l.line(
        format!(
            r#"<rect x="{x}" y="{}" width="28" height="15" rx="2" fill="{own}"/><text x="{}" y="{}" font-size="11" font-weight="bold" fill="{}">12</text>"#,
            l.y - 8,
            x + 4,
            l.y + 4,
            ink_on(&own)
        ),
        &format!("{} of a power in an area", game.ruleset.strength_words()),
    );
    if view.map.units.iter().any(|u| u.leaders > 0 || u.ships > 0) {
        l.line(String::new(), "L2: two leaders; S6: fleets of 6 ships");
    }
    l.line(String::new(), "~: strength seen from afar, rounded");
    l.line(
        format!(
            r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{own}" stroke-width="3"/><path d="M{} {} L{} {y} L{} {} z" fill="{own}"/>"#,
            x + 18,
            x + 18,
            l.y - 5,
            x + 26,
            x + 18,
            l.y + 5,
            y = l.y
        ),
        "a move you saw",
    );
    l.line(
        format!(
            r##"<circle cx="{}" cy="{y}" r="9" fill="none" stroke="{own}" stroke-width="3"/><path d="M{} {} L{} {} M{} {} L{} {}" stroke="#b71c1c" stroke-width="3" stroke-linecap="round"/>"##,
            x + 11,
            x + 5,
            l.y - 6,
            x + 17,
            l.y + 6,
            x + 17,
            l.y - 6,
            x + 5,
            l.y + 6,
            y = l.y
        ),
        "a battle you saw; ring: the victor",
    );
    l.heading("Battles you saw");
    if view.map.combats.is_empty() {
        l.line(String::new(), "none");
    }
    for c in &view.map.combats {
        let outcome = if c.winners.is_empty() {
            "outcome not seen".to_string()
        } else {
            let names: Vec<String> = c.winners.iter().map(|w| name(w)).collect();
            format!("won by {}", names.join(" and "))
        };
        l.line(String::new(), &format!("{}: {outcome}", c.area));
    }
    let _ = writeln!(out, r#"<g class="legend">"#);
    let _ = writeln!(
        out,
        r##"<rect x="{left}" y="{}" width="{}" height="{}" fill="#fafafa" stroke="#bdbdbd"/>"##,
        top + 10,
        LEGEND_WIDTH - 10,
        l.y - top
    );
    out.push_str(&l.s);
    let _ = writeln!(out, "</g>");
    l.y + 10
}
