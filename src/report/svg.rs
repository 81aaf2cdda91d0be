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
use crate::game::Game;

use super::labels::{self, text_width, Placer, Rect, Spot};
use super::map::{AreaMark, MoveMark};
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
pub(super) const INK: &str = "#212121";
/// The size of an area's name.
const LABEL_SIZE: i64 = 12;
pub(super) const UNSEEN: &str = "#e0e0e0";

/// Escapes text for SVG (XML) content and attribute values.
pub fn esc(s: &str) -> String {
    // Most names need no escape: copied whole, up to the first character that does.
    let plain = s
        .bytes()
        .position(|b| {
            matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'') || (b < 0x20 && b != b'\n' && b != b'\t')
        })
        .unwrap_or(s.len());
    let mut out = String::with_capacity(s.len());
    out.push_str(&s[..plain]);
    for c in s[plain..].chars() {
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

/// Text escaped as [`esc`] escapes it, written straight into what is being formatted: the map
/// writes thousands of names, titles and ids, none of them copied first.
#[derive(Clone, Copy)]
pub struct Esc<'a>(pub &'a str);

impl std::fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        escaped_pieces(self.0, |piece| f.write_str(piece))
    }
}

/// Hands `text` to `put` escaped as [`esc`] escapes it, piece by piece: the runs that need no
/// escape whole, each escape on its own.
fn escaped_pieces(text: &str, mut put: impl FnMut(&str) -> std::fmt::Result) -> std::fmt::Result {
    let mut rest = text;
    while let Some(at) = rest.bytes().position(|b| {
        matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'') || (b < 0x20 && b != b'\n' && b != b'\t')
    }) {
        put(&rest[..at])?;
        put(match rest.as_bytes()[at] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => " ",
        })?;
        rest = &rest[at + 1..];
    }
    put(rest)
}

/// Appends ` name="n"` for each attribute: the map's coordinates by the thousand, written without
/// `core::fmt`.
fn push_numbers(out: &mut String, attributes: &[(&str, i64)]) {
    let mut n = itoa::Buffer::new();
    for &(name, value) in attributes {
        out.push(' ');
        out.push_str(name);
        out.push_str("=\"");
        out.push_str(n.format(value));
        out.push('"');
    }
}

/// Appends `text` escaped as [`esc`] escapes it.
fn push_esc(out: &mut String, text: &str) {
    let _ = escaped_pieces(text, |piece| {
        out.push_str(piece);
        Ok(())
    });
}

/// The colour of the power at `rank` in game.toml: its `colour` when it is `#rrggbb`, else the
/// palette's.
pub fn colour_of(game: &Game, rank: usize) -> Option<String> {
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
pub(super) fn tint(c: &str) -> String {
    let [r, g, b] = rgb(c).unwrap_or([158, 158, 158]);
    let t = |x: u32| x + (255 - x) * 3 / 4;
    format!("#{:02x}{:02x}{:02x}", t(r), t(g), t(b))
}

/// White or black, whichever reads on the colour.
pub(super) fn ink_on(c: &str) -> &'static str {
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
    /// The region of the power, close enough that its names read on a phone, the legend below:
    /// the PNG of the mail.
    Phone,
}

/// The sizes of a layout's texts, in the picture's pixels.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sizes {
    /// An area's name.
    label: i64,
    /// A unit chip's strength; its ids are a pixel smaller on the whole map.
    chip: i64,
    ids: i64,
    /// A legend's lines and headings.
    legend: i64,
    heading: i64,
    legend_width: i64,
    /// Whether short legend lines go two to a row.
    two_columns: bool,
    /// The most powers and battles the legend lists one by one; the rest are counted on one line.
    /// The phone map's picture has a bounded height (`png::MAX_PIXELS`); the SVG attached lists all.
    listed: usize,
}

const WHOLE_SIZES: Sizes = Sizes {
    label: LABEL_SIZE,
    chip: 11,
    ids: 10,
    legend: 12,
    heading: 13,
    legend_width: LEGEND_WIDTH,
    two_columns: false,
    listed: usize::MAX,
};

/// Width of the phone map, in the SVG's pixels: a phone shows it about 360 CSS pixels wide, so a
/// text of `n` pixels reads there as `n * 360 / 400` (an area's name, 13: 11.7; a chip, 12: 10.8).
pub const PHONE_WIDTH: i64 = 400;
/// The size of an area's name on the phone map.
pub const PHONE_LABEL_SIZE: i64 = 13;

pub(super) const PHONE_SIZES: Sizes = Sizes {
    label: PHONE_LABEL_SIZE,
    chip: 12,
    ids: 12,
    legend: 13,
    heading: 14,
    legend_width: PHONE_WIDTH - 20,
    two_columns: true,
    listed: PHONE_LISTED,
};
/// The phone map's legend lists at most this many powers and this many battles (the report lists
/// every battle): with them the picture stays within `png::MAX_PIXELS` whatever the power sees.
pub const PHONE_LISTED: usize = 24;
/// Own units and battles beyond the phone map's frame that are each drawn at its edge, toward them;
/// past this many, the edge could not hold them legibly and the phone map is an overview
/// (`report::overview`: the map in boxes, each summing its areas, its units and battles).
pub const PHONE_POINTERS: usize = 12;
/// Room at the sides of the phone map, for the names of the areas at its edges.
pub(super) const PHONE_PAD: i64 = 34;
/// Height of the phone map's title band.
pub(super) const PHONE_TITLE: i64 = 52;
/// The phone map's drawing is at most this high (it scrolls no further; the legend follows).
pub(super) const PHONE_MAX_HEIGHT: i64 = 640;
/// The typical distance between neighbouring areas on the phone map: closer, their names would
/// crowd; the map is cut to the power's region rather than drawn smaller.
const PHONE_SPACING: f64 = 76.0;

impl Layout {
    fn sizes(self) -> Sizes {
        match self {
            Layout::Whole => WHOLE_SIZES,
            Layout::Phone => PHONE_SIZES,
        }
    }
}

/// Where map units land on the picture, and the part of the picture the map may use.
struct Frame {
    /// The map point drawn at `offset`, in map units.
    origin: [f64; 2],
    /// Pixels per map unit.
    scale: f64,
    offset: [i64; 2],
    /// The part of the picture the map draws in: what lies beyond is cut off (phone), and no
    /// name or chip leaves it.
    clip: Rect,
}

impl Frame {
    /// The whole view, [`MAP_WIDTH`] pixels wide (or high, if higher).
    fn whole(map: &[AreaMark]) -> Frame {
        let (x0, x1, y0, y1) = bounds(map.iter());
        let span = (x1 - x0).max(y1 - y0).max(1.0);
        let mut f = Frame {
            origin: [x0, y0],
            scale: MAP_WIDTH as f64 / span,
            offset: [MARGIN, TOP + MARGIN],
            clip: Rect {
                x0: 0,
                y0: 0,
                x1: 2 * MARGIN + MAP_WIDTH,
                y1: 0,
            },
        };
        let bottom = map.iter().map(|a| f.at(a).1).max().unwrap_or(0).max(TOP);
        f.clip.y1 = bottom + MARGIN;
        f
    }

    /// The phone map: the areas the power sees (all when it sees none), fitted to the width; when
    /// their names would crowd at that scale, closer, cut to the region of its own units and its
    /// battles.
    fn phone(game: &Game, view: &PowerView) -> Frame {
        let map = &view.map;
        let seen: Vec<&AreaMark> = map.areas.iter().filter(|a| a.seen.is_some()).collect();
        let focus: Vec<&AreaMark> = if seen.is_empty() {
            map.areas.iter().collect()
        } else {
            seen
        };
        let (x0, x1, y0, y1) = bounds(focus.iter().copied());
        let (sx, sy) = ((x1 - x0).max(1.0), (y1 - y0).max(1.0));
        let width = (PHONE_WIDTH - 2 * PHONE_PAD) as f64;
        let fit = (width / sx).min(PHONE_MAX_HEIGHT as f64 / sy);
        // The typical distance from an area to its nearest neighbour: the median over the focus.
        let xy: BTreeMap<usize, (f64, f64)> = map
            .areas
            .iter()
            .map(|a| (a.index, (f64::from(a.x), f64::from(a.y))))
            .collect();
        let mut nearest: Vec<f64> = focus
            .iter()
            .filter_map(|a| {
                let (x, y) = xy[&a.index];
                game.map
                    .area(a.index)
                    .adjacent
                    .iter()
                    .filter_map(|j| xy.get(j))
                    .map(|(u, v)| ((u - x).powi(2) + (v - y).powi(2)).sqrt())
                    .filter(|d| *d > 0.0)
                    .min_by(f64::total_cmp)
            })
            .collect();
        nearest.sort_by(f64::total_cmp);
        let scale = match nearest.get(nearest.len() / 2) {
            Some(d) => fit.max(PHONE_SPACING / d).min(3.0 * PHONE_SPACING / d),
            None => fit,
        };
        let view_w = width / scale;
        let height = ((sy * scale) as i64).clamp(160, PHONE_MAX_HEIGHT);
        let view_h = height as f64 / scale;
        // The region of interest: its own units and its battles (their median, so that a fleet
        // far away does not pull the frame off its armies), else all it sees.
        let by_id: BTreeMap<&str, &AreaMark> =
            map.areas.iter().map(|a| (a.id.as_str(), a)).collect();
        let (mut xs, mut ys): (Vec<f64>, Vec<f64>) = busy_areas(view)
            .into_iter()
            .filter_map(|id| by_id.get(id))
            .map(|a| (f64::from(a.x), f64::from(a.y)))
            .unzip();
        let median = |v: &mut Vec<f64>, lo: f64, hi: f64| {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied().unwrap_or((lo + hi) / 2.0)
        };
        let (mx, my) = (median(&mut xs, x0, x1), median(&mut ys, y0, y1));
        let centre = |lo: f64, hi: f64, m: f64, span: f64| {
            if span >= hi - lo {
                (lo + hi) / 2.0
            } else {
                m.clamp(lo + span / 2.0, hi - span / 2.0)
            }
        };
        let cx = centre(x0, x1, mx, view_w);
        let cy = centre(y0, y1, my, view_h);
        let top = PHONE_TITLE + PHONE_PAD * 2 / 3;
        Frame {
            origin: [cx - view_w / 2.0, cy - view_h / 2.0],
            scale,
            offset: [PHONE_PAD, top],
            clip: Rect {
                x0: 0,
                y0: PHONE_TITLE,
                x1: PHONE_WIDTH,
                y1: top + height + PHONE_PAD * 2 / 3,
            },
        }
    }

    fn at(&self, a: &AreaMark) -> (i64, i64) {
        let px = |v: i32, i: usize| {
            self.offset[i] + ((f64::from(v) - self.origin[i]) * self.scale).round() as i64
        };
        (px(a.x, 0), px(a.y, 1))
    }

    /// Whether a node at `p` shows whole inside the frame.
    fn shows(&self, (x, y): (i64, i64)) -> bool {
        let c = &self.clip;
        (c.x0 + 8..=c.x1 - 8).contains(&x) && (c.y0 + 8..=c.y1 - 8).contains(&y)
    }
}

/// The point of `clip`'s inner edge nearest `p`, a place beyond the frame.
fn edge(clip: &Rect, (x, y): (i64, i64)) -> (i64, i64) {
    (
        x.clamp(clip.x0 + 20, clip.x1 - 20),
        y.clamp(clip.y0 + 20, clip.y1 - 20),
    )
}

/// "< Lille": the way to `area`, at `p` beyond the frame `clip`, and its name.
fn beyond(clip: &Rect, (x, y): (i64, i64), area: &str) -> String {
    let way = if x < clip.x0 + 8 {
        "<"
    } else if x > clip.x1 - 8 {
        ">"
    } else if y < clip.y0 + 8 {
        "^"
    } else {
        "v"
    };
    format!("{way} {area}")
}

/// The areas of the power's own units and of the battles it saw.
pub(super) fn busy_areas(view: &PowerView) -> BTreeSet<&str> {
    let map = &view.map;
    map.units
        .iter()
        .filter(|u| u.owner == view.power)
        .map(|u| u.area.as_str())
        .chain(map.combats.iter().map(|c| c.area.as_str()))
        .collect()
}

/// The extent of `areas` in map units: left, right, top, bottom.
pub(super) fn bounds<'a>(areas: impl Iterator<Item = &'a AreaMark>) -> (f64, f64, f64, f64) {
    let mut b: Option<(i32, i32, i32, i32)> = None;
    for a in areas {
        b = Some(match b {
            None => (a.x, a.x, a.y, a.y),
            Some((x0, x1, y0, y1)) => (x0.min(a.x), x1.max(a.x), y0.min(a.y), y1.max(a.y)),
        });
    }
    let (x0, x1, y0, y1) = b.unwrap_or_default();
    (f64::from(x0), f64::from(x1), f64::from(y0), f64::from(y1))
}

/// Draws the map of the power of `view`: the areas its view holds (`report::map`), nothing beyond.
pub fn render(game: &Game, shared: &TurnSight, view: &PowerView) -> String {
    render_as(game, shared, view, Layout::Whole)
}

/// Whether the power has more units and battles beyond the phone map's frame than its edge can hold
/// legibly ([`PHONE_POINTERS`]): its phone map is then the overview (`report::overview`), every
/// one of them summed in its part of the map.
pub fn phone_overflows(game: &Game, view: &PowerView) -> bool {
    let frame = Frame::phone(game, view);
    let pos: BTreeMap<&str, (i64, i64)> = view
        .map
        .areas
        .iter()
        .map(|a| (a.id.as_str(), frame.at(a)))
        .collect();
    let beyond = busy_areas(view)
        .into_iter()
        .filter(|id| find(&pos, id).is_some_and(|p| !frame.shows(*p)))
        .count();
    beyond > PHONE_POINTERS
}

/// A power's colour on the maps: by its rank in the turn's sight, ink for one the game no longer has.
pub(super) fn power_colour(game: &Game, shared: &TurnSight, power: &str) -> String {
    shared
        .rank(power)
        .and_then(|r| colour_of(game, r))
        .unwrap_or_else(|| INK.to_string())
}

/// A power's name on the maps: game.toml's name of its rank, else of its id, else the id itself.
pub(super) fn power_name(game: &Game, shared: &TurnSight, power: &str) -> String {
    match shared.rank(power) {
        Some(r) => game.config.powers.get(r),
        None => game.config.power(power),
    }
    .map_or(power.to_string(), |c| c.name.clone())
}

/// As [`render`], laid out as `layout` says. [`Layout::Phone`] frames the power's region (the areas
/// it sees, or the part of them around its units and battles when they are many); the areas beyond
/// are left out and the roads to them cut at the frame's edges.
pub fn render_as(game: &Game, shared: &TurnSight, view: &PowerView, layout: Layout) -> String {
    let map = &view.map;
    let sizes = layout.sizes();
    let colour = |p: &str| power_colour(game, shared, p);
    let name = |p: &str| power_name(game, shared, p);
    let frame = match layout {
        Layout::Whole => Frame::whole(&map.areas),
        Layout::Phone => Frame::phone(game, view),
    };
    // Each area's place on the picture, in the view's order, and by id for what names an area.
    let xy: Vec<(i64, i64)> = map.areas.iter().map(|a| frame.at(a)).collect();
    let pos: BTreeMap<&str, (i64, i64)> = map
        .areas
        .iter()
        .zip(&xy)
        .map(|(a, &p)| (a.id.as_str(), p))
        .collect();
    // The areas drawn (by their place in the view): all of them on the whole map; those inside
    // the frame on the phone's.
    let shows: Vec<bool> = xy
        .iter()
        .map(|&p| layout == Layout::Whole || frame.shows(p))
        .collect();
    let drawn_areas = || {
        map.areas
            .iter()
            .zip(&xy)
            .zip(&shows)
            .filter(|(_, &shown)| shown)
            .map(|((a, &p), _)| (a, p))
    };
    let map_w = frame.clip.x1;
    let map_h = frame.clip.y1;
    let mut legend = String::with_capacity(16 * 1024);
    // The legend beside the map on the whole picture, below it on a phone's.
    let origin = match layout {
        Layout::Whole => (map_w, TOP),
        Layout::Phone => (10, map_h),
    };
    let legend_h = draw_legend(
        &mut legend,
        game,
        shared,
        view,
        sizes,
        origin,
        &colour,
        &name,
    );
    let (width, height) = match layout {
        Layout::Whole => (map_w + LEGEND_WIDTH, map_h.max(legend_h) + 10),
        Layout::Phone => (PHONE_WIDTH, legend_h + 10),
    };

    // About what the picture takes, so that it is written without being copied as it grows.
    let events = map.combats.len() + map.moves.len() + map.retreats.len() + map.arrivals.len();
    let mut s = String::with_capacity(
        4096 + 500 * map.areas.len() + 450 * map.units.len() + 350 * events + legend.len(),
    );
    let title = title_of(view);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", Esc(&title));
    // One arrowhead per power that moved, an open one per power that retreated.
    let _ = writeln!(s, "<defs>");
    let mut movers: Vec<&str> = map
        .moves
        .iter()
        .map(|m| m.owner.as_str())
        .chain(map.arrivals.iter().map(|a| a.owner.as_str()))
        .collect();
    movers.sort();
    movers.dedup();
    for p in movers {
        let _ = writeln!(
            s,
            r#"<marker id="arrow-{}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker>"#,
            Esc(p),
            colour(p)
        );
    }
    let mut retreaters: Vec<&str> = map.retreats.iter().map(|m| m.owner.as_str()).collect();
    retreaters.sort();
    retreaters.dedup();
    for p in retreaters {
        let _ = writeln!(
            s,
            r##"<marker id="retreat-{}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M1,1 L9,5 L1,9" fill="none" stroke="{}" stroke-width="2"/></marker>"##,
            Esc(p),
            colour(p)
        );
    }
    if layout == Layout::Phone {
        let c = &frame.clip;
        let _ = writeln!(
            s,
            r#"<clipPath id="frame"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>"#,
            c.x0,
            c.y0,
            c.x1 - c.x0,
            c.y1 - c.y0
        );
    }
    let _ = writeln!(s, "</defs>");
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    // What the names must not cover: the title, every node and its marks, battle marks, unit chips.
    let mut placer = Placer::new(frame.clip);
    match layout {
        Layout::Whole => {
            let _ = writeln!(
                s,
                r#"<text x="{MARGIN}" y="30" font-size="18" font-weight="bold" fill="{INK}">{}</text>"#,
                Esc(&title)
            );
            placer.block(Rect {
                x0: MARGIN,
                y0: 10,
                x1: MARGIN + text_width(&title, 18),
                y1: 36,
            });
        }
        Layout::Phone => {
            let _ = writeln!(
                s,
                r#"<text x="10" y="22" font-size="16" font-weight="bold" fill="{INK}">{}</text><text x="10" y="43" font-size="13" fill="{INK}">{}</text>"#,
                Esc(&fit(
                    &format!("{} - turn {} ({})", view.power_name, view.turn, view.date),
                    17,
                )),
                Esc(&fit(&view.title, 13))
            );
            let _ = writeln!(
                s,
                r##"<rect x="0.5" y="{}" width="{}" height="{}" fill="none" stroke="#bdbdbd"/>"##,
                frame.clip.y0,
                frame.clip.x1 - 1,
                frame.clip.y1 - frame.clip.y0
            );
            let _ = writeln!(s, r#"<g clip-path="url(#frame)">"#);
        }
    }

    // Adjacency: each pair once, land roads solid, dotted connections (PoG 11.1.3) dotted, sea lanes
    // dashed; on the phone map, those with an end inside the frame.
    let _ = writeln!(s, r#"<g class="adjacency">"#);
    // The view's areas are in map order: an area's place in the view is found by its index.
    debug_assert!(map.areas.windows(2).all(|w| w[0].index < w[1].index));
    // (Sought among the indexes alone, a list that stays in the processor's cache.)
    let indexes: Vec<usize> = map.areas.iter().map(|a| a.index).collect();
    let in_view = |j: usize| indexes.binary_search(&j).ok();
    for (ka, area) in map.areas.iter().enumerate() {
        let i = area.index;
        let a = game.map.area(i);
        for &j in a.adjacent.iter().filter(|&&j| j > i) {
            let Some(kb) = in_view(j) else { continue };
            if !shows[ka] && !shows[kb] {
                continue;
            }
            let b = game.map.area(j);
            let style = if a.dotted.contains_key(&j) {
                r##"stroke="#9e9e9e" stroke-width="2" stroke-dasharray="2 4""##
            } else if a.is_land() && b.is_land() {
                r##"stroke="#9e9e9e" stroke-width="2""##
            } else {
                r##"stroke="#90caf9" stroke-width="1.5" stroke-dasharray="5 4""##
            };
            // The map's most numerous element.
            let ((x1, y1), (x2, y2)) = (xy[ka], xy[kb]);
            s.push_str("<line");
            push_numbers(&mut s, &[("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)]);
            s.push(' ');
            s.push_str(style);
            s.push_str("/>\n");
        }
    }
    let _ = writeln!(s, "</g>");

    // Moves: one arrow per owner and leg, naming every unit that took it.
    let inside = |p: &(i64, i64)| layout == Layout::Whole || frame.shows(*p);
    let _ = writeln!(s, r#"<g class="moves">"#);
    for ((owner, from, to), units) in legs_of(&map.moves) {
        let (Some(&a), Some(&b)) = (find(&pos, from), find(&pos, to)) else {
            continue;
        };
        if !inside(&a) && !inside(&b) {
            continue;
        }
        let ((x1, y1), (x2, y2)) = (shorten(a, b, 14), shorten(b, a, 16));
        let _ = writeln!(
            s,
            r#"<g class="move"><title>{}</title><line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="3" marker-end="url(#arrow-{})"/></g>"#,
            Esc(&format!("{}: {from} to {to}", units.join(", "))),
            colour(owner),
            Esc(owner)
        );
    }
    // Arrivals seen alone (GITM 4.5): a short dashed arrow into the area from a "?", where the
    // units came from not seen; one an owner and area, naming every unit.
    let mut arrivals: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for a in &map.arrivals {
        arrivals
            .entry((a.area.as_str(), a.owner.as_str()))
            .or_default()
            .push(a.unit.as_str());
    }
    for ((area, owner), units) in arrivals {
        let Some(&(x, y)) = find(&pos, area) else {
            continue;
        };
        if !inside(&(x, y)) {
            continue;
        }
        let (x1, y1) = (x - 30, y - 30);
        let (x2, y2) = shorten((x, y), (x1, y1), 16);
        let _ = writeln!(
            s,
            r#"<g class="arrival" id="arrival-{}-{}"><title>{}</title><line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="3" stroke-dasharray="4 3" marker-end="url(#arrow-{})"/><text x="{}" y="{}" font-size="13" font-weight="bold" fill="{}">?</text></g>"#,
            Esc(area),
            Esc(owner),
            Esc(&format!(
                "{}: arrived in {area}, from where not seen",
                units.join(", ")
            )),
            colour(owner),
            Esc(owner),
            x1 - 9,
            y1 - 2,
            colour(owner)
        );
    }
    let _ = writeln!(s, "</g>");
    // Retreats: dashed, with an open head, beside the moves' arrows.
    let _ = writeln!(s, r#"<g class="retreats">"#);
    // Each retreat on its own, along the spaces it went by (PoG 12.2.11), else straight.
    for r in &map.retreats {
        let path: Option<Vec<(i64, i64)>> = std::iter::once(&r.from)
            .chain(&r.via)
            .chain(std::iter::once(&r.to))
            .map(|id| find(&pos, id).copied())
            .collect();
        let Some(mut path) = path else { continue };
        if !path.iter().any(&inside) {
            continue;
        }
        let n = path.len();
        path[0] = shorten(path[0], path[1], 14);
        path[n - 1] = shorten(path[n - 1], path[n - 2], 16);
        let points: Vec<String> = path.iter().map(|(x, y)| format!("{x},{y}")).collect();
        let _ = writeln!(
            s,
            r#"<g class="retreat"><title>{}</title><polyline points="{}" fill="none" stroke="{}" stroke-width="3" stroke-dasharray="7 4" marker-end="url(#retreat-{})"/></g>"#,
            Esc(&r.unit),
            points.join(" "),
            colour(&r.owner),
            Esc(&r.owner)
        );
    }
    let _ = writeln!(s, "</g>");

    let _ = writeln!(s, r#"<g class="areas">"#);
    for (a, (x, y)) in drawn_areas() {
        let ground = terrain_of(game, a);
        draw_area(&mut s, a, (x, y), ground, &colour, &name);
        if a.land {
            placer.block(Rect::around(x, y, 15, 15));
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
        // A battle beyond the phone map's frame is drawn at its edge, toward it, with its area's
        // name: the mail's picture shows every battle the power saw.
        let (x, y, pointer) = if inside(&(x, y)) {
            (x, y, String::new())
        } else {
            let pointer = beyond(&frame.clip, (x, y), &c.area);
            let text_w = text_width(&pointer, sizes.ids);
            let (ex, ey) = edge(&frame.clip, (x, y));
            let r = placer.place_near(ex, ey, 48 + text_w, 40, 160, 8);
            (r.x0 + 28, r.y0 + 22, pointer)
        };
        let label = if pointer.is_empty() {
            String::new()
        } else {
            format!(
                r##"<text x="{}" y="{}" font-size="{}" fill="#b71c1c">{}</text>"##,
                x + 20,
                y + sizes.ids / 3,
                sizes.ids,
                Esc(&pointer)
            )
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
            r##"<g class="combat" id="combat-{}"><title>{}</title><circle cx="{x}" cy="{y}" r="16" fill="none" stroke="{ring}" stroke-width="3"/><path d="M{} {} L{} {} M{} {} L{} {}" stroke="#b71c1c" stroke-width="3" stroke-linecap="round"/>{label}</g>"##,
            Esc(&c.area),
            Esc(&about),
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

    // Marks beside each node, as a row, left of it where there is room: its fort, the ruleset's own
    // (PoG trenches).
    let _ = writeln!(s, r#"<g class="marks">"#);
    for (a, (x, y)) in drawn_areas() {
        let marks = area_marks(game, view, a);
        if marks.is_empty() {
            continue;
        }
        let widths: Vec<i64> = marks
            .iter()
            .map(|m| labels::text_width(&m.0, 10) + 4)
            .collect();
        let row = widths.iter().sum::<i64>() + 2 * (widths.len() as i64 - 1);
        let (rx, ry) = if a.land { (15, 15) } else { (30, 14) };
        let candidates = labels::boxes_around(x, y, rx, ry, row, 13, true);
        // Beside the node when a place there is free, else the nearest free place around.
        let at = placer.place_beside(&candidates, x, y, row, 13, 160, 8);
        let mut left = at.x0;
        for ((tag, about, fill, ink), w) in marks.iter().zip(&widths) {
            let _ = writeln!(
                s,
                r#"<g class="mark"><title>{}</title><rect x="{left}" y="{}" width="{w}" height="13" rx="2" fill="{fill}" stroke="{INK}" stroke-width="0.5"/><text x="{}" y="{}" font-size="10" fill="{ink}">{}</text></g>"#,
                Esc(&format!("{}: {about}", a.id)),
                at.y0,
                left + 2,
                at.y0 + 10,
                Esc(tag)
            );
            left += w + 2;
        }
    }
    let _ = writeln!(s, "</g>");

    // Units: a chip per owner beside the area, own units first; the ids of the units seen exactly
    // under their strength.
    let _ = writeln!(s, r#"<g class="units">"#);
    // Each owner's colour and name, made for its first chip (a map draws hundreds of chips of a
    // few dozen owners); by the owner's place in game.toml.
    let mut looks: Vec<Option<(String, String)>> = vec![None; game.config.powers.len()];
    // The areas' places across, in order, each with its place in the view: what a chip looks for
    // nearer than its own node lies within a strip of them.
    let mut by_x: Vec<(i64, usize)> = xy.iter().enumerate().map(|(k, p)| (p.0, k)).collect();
    by_x.sort_unstable();
    for u in &map.units {
        // Its area found in the view by its index (the view's areas are in map order).
        let Some(k) = in_view(u.place) else {
            continue;
        };
        let (x, y) = xy[k];
        // The power's own units beyond the phone map's frame: a chip at its edge, toward them,
        // named by their area (the mail's picture shows all of them).
        let pointer = if inside(&(x, y)) {
            None
        } else if u.owner == view.power {
            Some(beyond(&frame.clip, (x, y), &u.area))
        } else {
            continue;
        };
        let label = chip_text(u.precision, u.corps, u.factors, u.leaders, u.ships);
        let ids = pointer.clone().unwrap_or_else(|| ids_text(&u.ids));
        let bold = |t: &str| (t.chars().count() as i64 * sizes.chip * 65 + 99) / 100;
        let w = bold(&label).max(text_width(&ids, sizes.ids)) + 8;
        let h = if ids.is_empty() {
            sizes.chip + 4
        } else {
            sizes.chip + sizes.ids + 7
        };
        let sea = !map.areas[k].land;
        let (rx, ry) = if sea { (30, 14) } else { (15, 15) };
        let at = if pointer.is_some() {
            let (ex, ey) = edge(&frame.clip, (x, y));
            placer.place_near(ex, ey, w, h, 160, 8)
        } else {
            let candidates = labels::boxes_around(x, y, rx, ry, w, h, false);
            placer.place_beside(&candidates, x, y, w, h, 160, 8)
        };
        let (cx, cy) = (at.x0, at.y0);
        let fresh;
        let (c, owner_name) = match u.rank.and_then(|r| looks.get_mut(r)) {
            Some(look) => {
                let (c, n) = look.get_or_insert_with(|| (colour(&u.owner), name(&u.owner)));
                (c.as_str(), n.as_str())
            }
            None => {
                fresh = (colour(&u.owner), name(&u.owner));
                (fresh.0.as_str(), fresh.1.as_str())
            }
        };
        let ink = ink_on(c);
        // A chip pushed away from its area by the crowd, or standing nearer another area's node
        // than its own, is tied to its own by a thin line: every chip is on or joined to its area.
        let (nx, ny) = (x.clamp(at.x0, at.x1), y.clamp(at.y0, at.y1));
        let gap = |(px, py): (i64, i64)| {
            let (qx, qy) = (px.clamp(at.x0, at.x1), py.clamp(at.y0, at.y1));
            (qx - px).pow(2) + (qy - py).pow(2)
        };
        let own_gap = gap((x, y));
        // Only the areas across no farther from the chip than its own: a node farther across is
        // farther. The distance first: most areas are farther, and their ids need no comparing.
        let reach = own_gap.isqrt() + 1;
        let from = by_x.partition_point(|&(px, _)| px < at.x0 - reach);
        let nearer_other = by_x[from..]
            .iter()
            .take_while(|&&(px, _)| px <= at.x1 + reach)
            .any(|&(px, k)| {
                let p = (px, xy[k].1);
                gap(p) <= own_gap && inside(&p) && map.areas[k].index != u.place
            });
        let tie = pointer.is_none()
            && (nearer_other || (nx - x).abs().max((ny - y).abs()) > rx.max(ry) + 6);
        // Written piece by piece: a map writes a chip for each owner in each area it shows.
        s.push_str(r#"<g class="unit" id="units-"#);
        push_esc(&mut s, &u.area);
        s.push('-');
        push_esc(&mut s, &u.owner);
        // Its title: "France: FR-I, FR-II", or "France: ~15 (seen from afar)".
        s.push_str(r#""><title>"#);
        push_esc(&mut s, owner_name);
        s.push_str(": ");
        if u.ids.is_empty() {
            push_esc(&mut s, &label);
            s.push_str(" (seen from afar)");
        } else {
            for (k, id) in u.ids.iter().enumerate() {
                if k > 0 {
                    s.push_str(", ");
                }
                push_esc(&mut s, id);
            }
        }
        s.push_str("</title>");
        if tie {
            s.push_str("<line");
            push_numbers(&mut s, &[("x1", x), ("y1", y), ("x2", nx), ("y2", ny)]);
            s.push_str(r#" stroke=""#);
            s.push_str(c);
            s.push_str(r#"" stroke-width="1.5"/>"#);
        }
        s.push_str("<rect");
        push_numbers(&mut s, &[("x", cx), ("y", cy), ("width", w), ("height", h)]);
        s.push_str(r#" rx="2" fill=""#);
        s.push_str(c);
        s.push_str(r#"" stroke=""#);
        s.push_str(INK);
        s.push_str(r#"" stroke-width="0.5"/><text"#);
        push_numbers(
            &mut s,
            &[
                ("x", cx + 4),
                ("y", cy + sizes.chip + 1),
                ("font-size", sizes.chip),
            ],
        );
        s.push_str(r#" font-weight="bold" fill=""#);
        s.push_str(ink);
        s.push_str(r#"">"#);
        push_esc(&mut s, &label);
        s.push_str("</text>");
        if !ids.is_empty() {
            s.push_str("<text");
            push_numbers(
                &mut s,
                &[
                    ("x", cx + 4),
                    ("y", cy + sizes.chip + sizes.ids + 3),
                    ("font-size", sizes.ids),
                ],
            );
            s.push_str(r#" fill=""#);
            s.push_str(ink);
            s.push_str(r#"">"#);
            push_esc(&mut s, &ids);
            s.push_str("</text>");
        }
        s.push_str("</g>\n");
    }
    let _ = writeln!(s, "</g>");

    // Names last, over everything, each where it covers nothing (`report::labels`); where its whole
    // name finds no free place, its abbreviation may. On the phone map, the names of the areas of
    // its own units and battles first, then those it sees; a name that finds no free place there is
    // left out (the SVG attached names every area).
    let _ = writeln!(s, r#"<g class="names">"#);
    let size = sizes.label;
    let mut named: Vec<(&AreaMark, (i64, i64))> = drawn_areas().collect();
    if layout == Layout::Phone {
        let busy = busy_areas(view);
        named.sort_by_key(|(a, _)| (!busy.contains(a.id.as_str()), a.seen.is_none()));
    }
    for (a, (x, y)) in named {
        let at = |dx: i64, dy: i64, anchor: &'static str| Spot {
            x: x + dx,
            y: y + dy,
            anchor,
        };
        // Below the node (its box starts under the node's), above it, beside it, then farther.
        let (below, above) = (16 + size, -16 - size / 4);
        // (Arrays, not lists: a map places a name for each of its areas.)
        let land_spots;
        let sea_spots;
        let spots: &[Spot] = if a.land {
            land_spots = [
                at(0, below, "middle"),
                at(0, above, "middle"),
                at(18, 5, "start"),
                at(-18, 5, "end"),
                at(0, below + 14, "middle"),
                at(0, above - 14, "middle"),
                at(18, -10, "start"),
                at(-18, -10, "end"),
                at(18, 20, "start"),
                at(-18, 20, "end"),
                at(0, below + 28, "middle"),
                at(0, above - 28, "middle"),
                at(32, 5, "start"),
                at(-32, 5, "end"),
            ];
            &land_spots
        } else {
            sea_spots = [
                at(0, 5, "middle"),
                at(0, 16 + size, "middle"),
                at(0, -16 - size / 4, "middle"),
            ];
            &sea_spots
        };
        // Where all of these are taken, farther out, tied to the node by a line.
        let far: [[Spot; 8]; 3] = [44, 60, 76].map(|d| {
            [
                at(0, d + size / 2, "middle"),
                at(0, -d, "middle"),
                at(d / 2, 5, "start"),
                at(-d / 2, 5, "end"),
                at(d / 2, d, "start"),
                at(-d / 2, d, "end"),
                at(d / 2, -d, "start"),
                at(-d / 2, -d, "end"),
            ]
        });
        let far = far.as_flattened();
        let full = a.id.as_str();
        let short = abbreviation(full);
        // Whole, then abbreviated, beside the node; then the same farther out.
        let mut forms: [(bool, &str, &[Spot]); 4] = [(false, full, &[]); 4];
        let mut n = 0;
        for (tied, candidates) in [(false, spots), (true, far)] {
            for text in std::iter::once(full).chain(short.as_deref()) {
                forms[n] = (tied, text, candidates);
                n += 1;
            }
        }
        let forms = &forms[..n];
        // The boxes of each form, one list after the other in one array.
        let mut boxes = [Rect::around(0, 0, 0, 0); 2 * (14 + 24)];
        let mut lists: [&[Rect]; 4] = [&[]; 4];
        let mut filled = 0;
        for (_, text, candidates) in forms {
            let width = text_width(text, size);
            for (b, s) in boxes[filled..].iter_mut().zip(*candidates) {
                *b = labels::label_box(s, width, size);
            }
            filled += candidates.len();
        }
        let mut from = 0;
        for (list, (_, _, candidates)) in lists.iter_mut().zip(forms) {
            *list = &boxes[from..from + candidates.len()];
            from += candidates.len();
        }
        let lists = &lists[..n];
        let chosen = match layout {
            // On the phone map a name goes only where it covers nothing.
            Layout::Phone => placer.first_free_of(lists),
            Layout::Whole => placer.best_of(lists).map(|(_, l, i)| (l, i)),
        };
        let Some((form, i)) = chosen else {
            continue;
        };
        let (tied, text, candidates) = forms[form];
        let spot = candidates[i];
        let b = lists[form][i];
        placer.block(b);
        // A map writes a name for each of its areas.
        s.push_str("<text");
        push_numbers(&mut s, &[("x", spot.x), ("y", spot.y)]);
        s.push_str(r#" text-anchor=""#);
        s.push_str(spot.anchor);
        s.push('"');
        push_numbers(&mut s, &[("font-size", size)]);
        if a.land {
            s.push_str(r#" fill=""#);
            s.push_str(INK);
            s.push('"');
        } else {
            s.push_str(r##" font-style="italic" fill="#0d47a1""##);
        }
        s.push_str(r##" stroke="#ffffff" stroke-width="3" paint-order="stroke">"##);
        push_esc(&mut s, text);
        s.push_str("</text>");
        if tied {
            let (nx, ny) = (x.clamp(b.x0, b.x1), y.clamp(b.y0, b.y1));
            s.push_str("<line");
            push_numbers(&mut s, &[("x1", x), ("y1", y), ("x2", nx), ("y2", ny)]);
            s.push_str(r##" stroke="#757575" stroke-width="1"/>"##);
        }
        s.push('\n');
    }
    let _ = writeln!(s, "</g>");
    if layout == Layout::Phone {
        let _ = writeln!(s, "</g>");
    }
    s.push_str(&legend);
    s.push_str("</svg>\n");
    s
}

/// An arrow's owner, from and to, and the units that took it.
type Leg<'a> = ((&'a str, &'a str, &'a str), Vec<&'a str>);

/// The arrows of `marks`: one per owner and leg.
fn legs_of(marks: &[MoveMark]) -> Vec<Leg<'_>> {
    let mut legs: Vec<Leg> = Vec::new();
    for m in marks {
        let key = (m.owner.as_str(), m.from.as_str(), m.to.as_str());
        match legs.iter_mut().find(|(k, _)| *k == key) {
            Some((_, units)) => units.push(&m.unit),
            None => legs.push((key, vec![&m.unit])),
        }
    }
    legs
}

/// `text` cut to the phone map's width at `size` pixels (a bold text counts a size larger), with
/// an ellipsis where it was cut.
pub(super) fn fit(text: &str, size: i64) -> String {
    // The bundled condensed font's letters average about 0.55 of the size.
    let room = ((PHONE_WIDTH - 20) * 100 / (size * 55)) as usize;
    if text.chars().count() <= room {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(room.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A crowded name's short form: its first five letters and a dot ("Donau."), or none when the
/// name is short already.
fn abbreviation(name: &str) -> Option<String> {
    (name.chars().count() > 6).then(|| format!("{}.", name.chars().take(5).collect::<String>()))
}

/// The ids of a chip's units, as many as fit in about 12 letters, then how many more: "FR-I
/// FR-IV +2".
fn ids_text(ids: &[String]) -> String {
    let mut out = String::new();
    for (i, id) in ids.iter().enumerate() {
        let more = ids.len() - i;
        if !out.is_empty() && out.len() + 1 + id.len() > 12 {
            out.push_str(&format!(" +{more}"));
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(id);
    }
    out
}

/// How a terrain is drawn: a ring of its colour around the node, and its word in the legend.
/// Clear and open ground have none. The word is the map's own (`AnyMap::terrain_word`), so that
/// each ruleset's terrain shows: EiA's and PoG's forest, hills, mountain, marsh, swamp, desert;
/// WBTS's rough and city; NGG's town; GITM's hill and water.
fn terrain_colour(word: &str) -> Option<&'static str> {
    Some(match word {
        "forest" | "woods" => "#2e7d32",
        "hills" | "hill" | "rough" => "#c8a165",
        "mountain" | "mountains" => "#6d4c41",
        "marsh" => "#4db6ac",
        "swamp" => "#00796b",
        "desert" => "#fbc02d",
        "city" | "town" => "#757575",
        "water" | "lake" => "#42a5f5",
        _ => return None,
    })
}

/// The terrain word of a land area and its colour, when it has one ([`terrain_colour`]).
fn terrain_of<'g>(game: &'g Game, a: &AreaMark) -> Option<(&'g str, &'static str)> {
    if !a.land {
        return None;
    }
    let word = match &game.geometry {
        Some(g) => g.terrain_word(a.index)?,
        None => game.map.area(a.index).terrain.name(),
    };
    terrain_colour(word).map(|c| (word, c))
}

/// The marks of area `a`: tag, meaning, fill and ink. Its fort (PoG), and the ruleset's own marks
/// there (`Ruleset::map_marks`); its terrain is the ring around its node ([`terrain_of`]).
fn area_marks(
    game: &Game,
    view: &PowerView,
    a: &AreaMark,
) -> Vec<(String, String, &'static str, &'static str)> {
    let area = game.map.area(a.index);
    let mut out = Vec::new();
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
pub(super) fn chip_text(
    precision: Precision,
    corps: u32,
    factors: u32,
    leaders: u32,
    ships: u32,
) -> String {
    let approx = if precision == Precision::Approximate {
        "~"
    } else {
        ""
    };
    let mut parts = Vec::new();
    if corps > 0 {
        // A force counted in words (GITM 4.1) or known by identity alone has no figure to show.
        if precision != Precision::Exact && factors == 0 {
            parts.push("?".to_string());
        } else {
            parts.push(format!("{approx}{factors}"));
        }
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
    ground: Option<(&str, &str)>,
    colour: &impl Fn(&str) -> String,
    name: &impl Fn(&str) -> String,
) {
    let id = Esc(&a.id);
    s.push_str(r#"<g class="area "#);
    match (a.land, a.control_known, &a.control) {
        (false, _, _) => s.push_str("sea"),
        (true, true, Some(c)) => {
            s.push_str("ctl-");
            push_esc(s, c);
        }
        (true, true, None) => s.push_str("uncontrolled"),
        (true, false, _) => s.push_str("unknown"),
    }
    let _ = write!(s, r#"" id="area-{id}"><title>{id}: "#);
    // What the area is, in words joined by commas: "land, open city, capital of France, ...".
    s.push_str(if a.land { "land" } else { "sea" });
    let mut about = |words: &[&str]| {
        s.push_str(", ");
        for w in words {
            push_esc(s, w);
        }
    };
    if a.city {
        if a.fortress > 0 {
            about(&["city, fortress ", itoa::Buffer::new().format(a.fortress)]);
        } else {
            about(&["open city"]);
        }
    }
    if let Some(c) = &a.capital {
        about(&["capital of ", &name(c)]);
    }
    if a.depot {
        about(&["depot"]);
    }
    if a.port {
        about(&["port"]);
    }
    if let Some((word, _)) = ground {
        about(&[word]);
    }
    match (a.land, a.control_known, &a.control) {
        (false, _, _) => {}
        (true, true, Some(c)) => about(&["controlled by ", &name(c)]),
        (true, true, None) => about(&["uncontrolled"]),
        (true, false, _) => about(&["control not known"]),
    }
    about(&[match a.seen {
        Some(Precision::Exact) => "in sight",
        Some(Precision::Approximate) => "seen from afar",
        Some(Precision::Identity) => "its units known by identity",
        None => "out of sight",
    }]);
    s.push_str("</title>");
    if !a.land {
        let _ = write!(
            s,
            r##"<ellipse cx="{x}" cy="{y}" rx="30" ry="14" fill="#e3f2fd" stroke="#64b5f6" stroke-width="1.5"/></g>"##
        );
        let _ = writeln!(s);
        return;
    }
    let (fill, stroke, dash) = match (&a.control, a.control_known) {
        (Some(c), true) => {
            let c = colour(c);
            (tint(&c), c, "")
        }
        (None, true) => ("#ffffff".to_string(), "#616161".to_string(), ""),
        (_, false) => (
            UNSEEN.to_string(),
            "#9e9e9e".to_string(),
            r#" stroke-dasharray="3 2""#,
        ),
    };
    if let Some((_, c)) = ground {
        let _ = write!(s, r#"<circle cx="{x}" cy="{y}" r="16" fill="{c}"/>"#);
    }
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
    let mut out = String::with_capacity(POINTS.len() * 10);
    for (i, (dx, dy)) in POINTS.iter().enumerate() {
        let space = if i == 0 { "" } else { " " };
        let _ = write!(out, "{space}{},{}", x + dx, y + dy);
    }
    out
}

/// A legend lists every power of a game of at most this many; in a larger game, the powers its map
/// shows.
const WHOLE_LEGEND_POWERS: usize = 24;

/// The powers the legend lists, in game order: every power of a small game; in a larger one the
/// powers this map shows (the power itself, the controllers of its areas, the owners of its units
/// and moves, the victors of its battles).
fn on_map<'g>(
    game: &'g Game,
    shared: &TurnSight,
    view: &PowerView,
) -> Vec<&'g crate::game::config::PowerConfig> {
    if game.config.powers.len() <= WHOLE_LEGEND_POWERS {
        return game.config.powers.iter().collect();
    }
    let m = &view.map;
    // Gathered in a list, then each once (most areas and chips name a few powers over and over);
    // a chip knows its owner's rank (none: not one of the game's powers, which the legend leaves
    // out).
    let mut named: Vec<&str> = std::iter::once(view.power.as_str())
        .chain(m.areas.iter().filter_map(|a| a.control.as_deref()))
        .chain(m.moves.iter().map(|u| u.owner.as_str()))
        .chain(
            m.combats
                .iter()
                .flat_map(|c| c.winners.iter().map(String::as_str)),
        )
        .collect();
    // (Neighbouring areas have the same controller more often than not.)
    named.dedup();
    named.sort_unstable();
    named.dedup();
    // Each found by its rank, not each of the game's powers looked for among them.
    let mut ranks: Vec<usize> = named
        .into_iter()
        .filter_map(|p| shared.rank(p))
        .chain(m.units.iter().filter_map(|u| u.rank))
        .collect();
    ranks.sort_unstable();
    ranks.dedup();
    ranks
        .into_iter()
        .filter_map(|r| game.config.powers.get(r))
        .collect()
}

/// The legend being written: its text and the baseline of its next line.
pub(super) struct Legend {
    pub(super) s: String,
    pub(super) x: i64,
    pub(super) y: i64,
    pub(super) sizes: Sizes,
    /// Whether the row at `y` holds a cell in its first column ([`Legend::cell`]).
    pub(super) half_full: bool,
}

impl Legend {
    /// A legend with its box's top at `top`, its lines starting at `x`.
    pub(super) fn new(x: i64, top: i64, sizes: Sizes) -> Legend {
        Legend {
            s: String::with_capacity(8 * 1024),
            x,
            y: top + 30,
            sizes,
            half_full: false,
        }
    }

    /// Writes the legend, in its box from (`left`, `top`), into `out`; returns where it ends below.
    pub(super) fn close(self, out: &mut String, left: i64, top: i64) -> i64 {
        let _ = writeln!(out, r#"<g class="legend">"#);
        let _ = writeln!(
            out,
            r##"<rect x="{left}" y="{}" width="{}" height="{}" fill="#fafafa" stroke="#bdbdbd"/>"##,
            top + 10,
            self.sizes.legend_width - 10,
            self.y - top
        );
        out.push_str(&self.s);
        let _ = writeln!(out, "</g>");
        self.y + 10
    }

    /// A line: a symbol (drawn around `self.y`) and its meaning.
    pub(super) fn line(&mut self, symbol: String, text: &str) {
        let _ = writeln!(
            self.s,
            r#"{symbol}<text x="{}" y="{}" font-size="{}" fill="{INK}">{}</text>"#,
            self.x + 34,
            self.y + 4,
            self.sizes.legend,
            Esc(text)
        );
        self.y += self.sizes.legend + 10;
    }

    /// A short line: a symbol drawn by `symbol` around (x, y) and its meaning, beside the previous
    /// cell when the legend has two columns and the text fits in half its width. A run of cells
    /// ends with [`Legend::flush`] (a heading flushes).
    pub(super) fn cell(&mut self, symbol: impl Fn(i64, i64) -> String, text: &str) {
        let half = (self.sizes.legend_width - 20) / 2;
        let fits = self.sizes.two_columns && text_width(text, self.sizes.legend) + 34 <= half - 4;
        if !fits {
            self.flush();
            let line = symbol(self.x, self.y);
            self.line(line, text);
            return;
        }
        let x = if self.half_full {
            self.x + half
        } else {
            self.x
        };
        let _ = writeln!(
            self.s,
            r#"{}<text x="{}" y="{}" font-size="{}" fill="{INK}">{}</text>"#,
            symbol(x, self.y),
            x + 34,
            self.y + 4,
            self.sizes.legend,
            Esc(text)
        );
        if self.half_full {
            self.half_full = false;
            self.y += self.sizes.legend + 10;
        } else {
            self.half_full = true;
        }
    }

    /// Ends a run of cells: the next line starts a row of its own.
    pub(super) fn flush(&mut self) {
        if self.half_full {
            self.half_full = false;
            self.y += self.sizes.legend + 10;
        }
    }

    pub(super) fn heading(&mut self, text: &str) {
        self.flush();
        self.y += 6;
        let _ = writeln!(
            self.s,
            r#"<text x="{}" y="{}" font-size="{}" font-weight="bold" fill="{INK}">{}</text>"#,
            self.x,
            self.y,
            self.sizes.heading,
            Esc(text)
        );
        self.y += self.sizes.heading + 7;
    }
}

/// Draws the legend with its top left corner at (`left`, `top`), its texts at `sizes`; returns
/// where it ends below.
#[allow(clippy::too_many_arguments)]
fn draw_legend(
    out: &mut String,
    game: &Game,
    shared: &TurnSight,
    view: &PowerView,
    sizes: Sizes,
    (left, top): (i64, i64),
    colour: &impl Fn(&str) -> String,
    name: &impl Fn(&str) -> String,
) -> i64 {
    let x = left + 10;
    let mut l = Legend::new(x, top, sizes);
    legend_powers(&mut l, game, shared, view, colour);
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
        l.cell(
            |x, y| {
                format!(
                    r##"<ellipse cx="{}" cy="{y}" rx="14" ry="8" fill="#e3f2fd" stroke="#64b5f6" stroke-width="1.5"/>"##,
                    x + 11
                )
            },
            "sea area",
        );
    }
    if view.map.areas.iter().any(|a| a.city && a.fortress == 0) {
        l.cell(
            |x, y| {
                format!(
                    r##"<rect x="{}" y="{}" width="8" height="8" fill="#ffffff" stroke="{INK}" stroke-width="1.5"/>"##,
                    x + 7,
                    y - 4
                )
            },
            "open city",
        );
    }
    if view.map.areas.iter().any(|a| a.city && a.fortress > 0) {
        l.cell(
            |x, y| {
                format!(
                    r#"<rect x="{}" y="{}" width="8" height="8" fill="{INK}" stroke="{INK}" stroke-width="1.5"/>"#,
                    x + 7,
                    y - 4
                )
            },
            "fortified city",
        );
    }
    if view.map.areas.iter().any(|a| a.capital.is_some()) {
        l.cell(
            |x, y| {
                format!(
                    r##"<polygon points="{}" fill="#fbc02d" stroke="{INK}" stroke-width="1"/>"##,
                    star(x + 11, y)
                )
            },
            "capital",
        );
    }
    if view.map.areas.iter().any(|a| a.depot) {
        l.cell(
            |x, y| {
                format!(
                    r#"<polygon points="{},{} {},{} {},{}" fill="{INK}"/>"#,
                    x + 7,
                    y + 4,
                    x + 15,
                    y + 4,
                    x + 11,
                    y - 3
                )
            },
            "depot",
        );
    }
    l.flush();
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
    // The terrain this map draws, each kind once, in the order of `terrain_colour`.
    let mut grounds: Vec<(&str, &str)> = view
        .map
        .areas
        .iter()
        .filter_map(|a| terrain_of(game, a))
        .collect();
    grounds.sort_by_key(|(_, c)| *c);
    grounds.dedup_by_key(|(_, c)| *c);
    if !grounds.is_empty() {
        l.line(String::new(), "terrain: the ring around an area");
    }
    for (word, c) in grounds {
        l.cell(
            |x, y| {
                format!(
                    r##"<circle cx="{}" cy="{y}" r="10" fill="{c}"/><circle cx="{}" cy="{y}" r="6" fill="#ffffff" stroke="#616161" stroke-width="2"/>"##,
                    x + 11,
                    x + 11
                )
            },
            word,
        );
    }
    l.flush();
    // The marks this map draws, each kind once.
    let mut said = BTreeSet::new();
    for a in &view.map.areas {
        if game.map.area(a.index).fort.is_some() && said.insert("F1") {
            l.line(String::new(), "F1, F2, F3: fort and its strength");
        }
    }
    for m in &view.map.marks {
        if said.insert(m.legend) {
            l.line(String::new(), m.legend);
        }
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
    if view.map.units.iter().any(|u| !u.ids.is_empty()) {
        l.line(
            String::new(),
            "under it: the ids of the units seen up close",
        );
    }
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
            r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{own}" stroke-width="3" stroke-dasharray="7 4"/><path d="M{} {} L{} {y} L{} {}" fill="none" stroke="{own}" stroke-width="2"/>"#,
            x + 22,
            x + 19,
            l.y - 5,
            x + 26,
            x + 19,
            l.y + 5,
            y = l.y
        ),
        "a retreat you saw",
    );
    if !view.map.arrivals.is_empty() {
        l.line(
            format!(
                r#"<text x="{x}" y="{}" font-size="13" font-weight="bold" fill="{own}">?</text><line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="{own}" stroke-width="3" stroke-dasharray="4 3"/><path d="M{} {} L{} {y} L{} {} z" fill="{own}"/>"#,
                l.y + 5,
                x + 9,
                x + 18,
                x + 18,
                l.y - 5,
                x + 26,
                x + 18,
                l.y + 5,
                y = l.y
            ),
            "an arrival you saw, from where not seen",
        );
    }
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
    legend_battles(&mut l, view, name);
    l.close(out, left, top)
}

/// The legend's "Powers": a box of each one's colour and its name, the power's own first, at most
/// `sizes.listed` of them (then how many more).
pub(super) fn legend_powers(
    l: &mut Legend,
    game: &Game,
    shared: &TurnSight,
    view: &PowerView,
    colour: &impl Fn(&str) -> String,
) {
    l.heading("Powers");
    let mut powers = on_map(game, shared, view);
    // The power itself first when they are too many to list.
    if powers.len() > l.sizes.listed {
        powers.sort_by_key(|p| p.id != view.power);
    }
    for p in powers.iter().take(l.sizes.listed) {
        let c = colour(&p.id);
        let mine = if p.id == view.power { " (you)" } else { "" };
        l.cell(
            |x, y| {
                format!(
                    r#"<rect x="{x}" y="{}" width="22" height="14" fill="{c}" stroke="{INK}" stroke-width="0.5"/>"#,
                    y - 7
                )
            },
            &format!("{}{mine}", p.name),
        );
    }
    if powers.len() > l.sizes.listed {
        l.flush();
        l.line(
            String::new(),
            &format!(
                "and {} more (the SVG attached lists them)",
                powers.len() - l.sizes.listed
            ),
        );
    }
}

/// The legend's "Battles you saw": each battle and its outcome, at most `sizes.listed` of them
/// (then how many more: the report lists them all).
pub(super) fn legend_battles(l: &mut Legend, view: &PowerView, name: &impl Fn(&str) -> String) {
    l.heading("Battles you saw");
    if view.map.combats.is_empty() {
        l.line(String::new(), "none");
    }
    for c in view.map.combats.iter().take(l.sizes.listed) {
        let outcome = if !c.winners.is_empty() {
            let names: Vec<String> = c.winners.iter().map(|w| name(w)).collect();
            format!("won by {}", names.join(" and "))
        } else if !c.result.is_empty() {
            // A result that names no victor (PoG 12.2.10's tie, "Both sides lose at Liege: loss
            // numbers 2 to 2"; WBTS's losses): its first words, as the turn log words them.
            let head = c.result.split(':').next().unwrap_or_default();
            head.trim_end_matches(&format!(" at {}", c.area))
                .trim_end_matches('.')
                .to_string()
        } else {
            "outcome not seen".to_string()
        };
        l.line(String::new(), &format!("{}: {outcome}", c.area));
    }
    if view.map.combats.len() > l.sizes.listed {
        l.line(
            String::new(),
            &format!(
                "and {} more (the report lists them all)",
                view.map.combats.len() - l.sizes.listed
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `esc` escapes as it did one character at a time, whatever comes first.
    #[test]
    fn esc_escapes_every_special_character_wherever_it_stands() {
        let slow = |s: &str| -> String {
            s.chars()
                .map(|c| match c {
                    '&' => "&amp;".to_string(),
                    '<' => "&lt;".to_string(),
                    '>' => "&gt;".to_string(),
                    '"' => "&quot;".to_string(),
                    '\'' => "&#39;".to_string(),
                    c if (c as u32) < 0x20 && c != '\n' && c != '\t' => " ".to_string(),
                    c => c.to_string(),
                })
                .collect()
        };
        for s in [
            "",
            "Ulm",
            "Württemberg & Baden",
            "<b>'x'</b>",
            "a\u{1}b\tc\nd\"",
            "ßé&",
        ] {
            assert_eq!(esc(s), slow(s), "{s:?}");
            assert_eq!(Esc(s).to_string(), slow(s), "{s:?}");
        }
    }

    #[test]
    fn a_star_lists_its_ten_points() {
        assert_eq!(
            star(10, 20),
            "10,13 12,18 17,18 13,21 14,26 10,23 6,26 7,21 3,18 8,18"
        );
    }
}
