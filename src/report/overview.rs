//! The phone map as an overview, for a power with more units and battles beyond its phone map's
//! frame than the frame's edge can hold legibly (`svg::PHONE_POINTERS`): the part of the map it
//! knows cut into boxes, at most [`COLUMNS`] x [`MAX_ROWS`], each summing its areas (how many, who
//! holds most of their known land), the power's own units there (strength, leaders, ships) and the
//! battles it saw there. Each of its own units and each battle it saw is counted in one box; the
//! report and the SVG attached show them one by one. Its picture is the same size whatever the power
//! sees: at most [`MAX_ROWS`] rows of boxes and a legend of bounded length (`svg::PHONE_LISTED`).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::engine::visibility::Precision;
use crate::game::Game;

use super::labels::text_width;
use super::svg::{
    bounds, chip_text, esc, fit, ink_on, legend_battles, legend_powers, power_colour, power_name,
    tint, Legend, INK, PHONE_SIZES, PHONE_TITLE, PHONE_WIDTH, UNSEEN,
};
use super::view::{PowerView, TurnSight};

/// Boxes across the phone map.
pub const COLUMNS: usize = 4;
/// The most rows of boxes; fewer when the power's part of the map is wider than high.
pub const MAX_ROWS: usize = 7;
/// A box's size, in the SVG's pixels (the PNG is drawn at twice the size).
const BOX_W: i64 = 95;
const BOX_H: i64 = 72;
/// Room at the sides: the boxes fill the phone's width.
const SIDE: i64 = (PHONE_WIDTH - COLUMNS as i64 * BOX_W) / 2;
/// The size of a box's texts: 12 reads as 10.8 CSS pixels on a phone 360 wide; its name, 13.
const TEXT: i64 = 12;
const NAME: i64 = 13;
/// The battle mark's red.
const BATTLE: &str = "#b71c1c";

/// What one box sums.
#[derive(Default)]
struct Cell<'a> {
    /// The ids of its areas, in map order.
    areas: Vec<&'a str>,
    /// How many of them the power sees.
    seen: usize,
    /// Its land areas of known control, by controller.
    control: BTreeMap<&'a str, usize>,
    /// The power's own units there.
    corps: u32,
    factors: u32,
    leaders: u32,
    fleets: u32,
    ships: u32,
    /// The battles it saw there.
    battles: usize,
    /// The area it is named after, its busiest: most of the power's strength, then battles, then
    /// seen, then first in map order.
    name: Option<((u32, usize, bool), &'a str)>,
}

/// Draws the overview of the map of the power of `view`, with its legend below, as the phone map.
pub fn render(game: &Game, shared: &TurnSight, view: &PowerView) -> String {
    let map = &view.map;
    let colour = |p: &str| power_colour(game, shared, p);
    let name = |p: &str| power_name(game, shared, p);

    // The grid: the extent of the areas of the view, in boxes about as wide as high on the picture.
    let (x0, x1, y0, y1) = bounds(map.areas.iter());
    let (sx, sy) = ((x1 - x0).max(1.0), (y1 - y0).max(1.0));
    let rows = ((COLUMNS as f64 * sy / sx * BOX_W as f64 / BOX_H as f64).round() as usize)
        .clamp(1, MAX_ROWS);
    let slot = |v: f64, lo: f64, span: f64, n: usize| {
        (((v - lo) / span * n as f64).floor().max(0.0) as usize).min(n - 1)
    };
    let mut cells: Vec<Cell> = (0..COLUMNS * rows).map(|_| Cell::default()).collect();
    let mut cell_of: BTreeMap<&str, usize> = BTreeMap::new();
    for a in &map.areas {
        let c =
            slot(f64::from(a.y), y0, sy, rows) * COLUMNS + slot(f64::from(a.x), x0, sx, COLUMNS);
        cell_of.insert(a.id.as_str(), c);
        let cell = &mut cells[c];
        cell.areas.push(&a.id);
        cell.seen += usize::from(a.seen.is_some());
        if let Some(p) = a.control.as_deref().filter(|_| a.land && a.control_known) {
            *cell.control.entry(p).or_default() += 1;
        }
    }
    // An area named by a unit or battle as the turn log spells it, matched as the SVG map does.
    let find = |id: &str| {
        cell_of.get(id).copied().or_else(|| {
            cell_of
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(id))
                .map(|(_, &c)| c)
        })
    };
    let mut busy: BTreeMap<&str, (u32, usize)> = BTreeMap::new();
    for u in map.units.iter().filter(|u| u.owner == view.power) {
        let Some(c) = find(&u.area) else { continue };
        let cell = &mut cells[c];
        cell.corps += u.corps;
        cell.factors += u.factors;
        cell.leaders += u.leaders;
        cell.fleets += u.fleets;
        cell.ships += u.ships;
        busy.entry(&u.area).or_default().0 += u.factors + u.ships + u.leaders;
    }
    for b in &map.combats {
        let Some(c) = find(&b.area) else { continue };
        cells[c].battles += 1;
        busy.entry(&b.area).or_default().1 += 1;
    }
    for a in &map.areas {
        let (strength, battles) = busy.get(a.id.as_str()).copied().unwrap_or_default();
        let key = (strength, battles, a.seen.is_some());
        let cell = &mut cells[cell_of[a.id.as_str()]];
        if cell.name.is_none_or(|(k, _)| key > k) {
            cell.name = Some((key, &a.id));
        }
    }

    let top = PHONE_TITLE;
    let band = rows as i64 * BOX_H + 8;
    let mut legend = String::new();
    let height = draw_legend(&mut legend, game, shared, view, top + band, &colour, &name) + 10;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{PHONE_WIDTH}" height="{height}" viewBox="0 0 {PHONE_WIDTH} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = writeln!(
        s,
        "<title>{}</title>",
        esc(&format!(
            "{} - turn {} ({}) - the map of {}, in overview",
            view.title, view.turn, view.date, view.power_name
        ))
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{PHONE_WIDTH}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        s,
        r#"<text x="10" y="22" font-size="16" font-weight="bold" fill="{INK}">{}</text><text x="10" y="43" font-size="13" fill="{INK}">{}</text>"#,
        esc(&fit(
            &format!("{} - turn {} ({})", view.power_name, view.turn, view.date),
            17,
        )),
        esc(&fit(&format!("{} - overview", view.title), 13))
    );
    let own = colour(&view.power);
    let _ = writeln!(s, r#"<g class="overview">"#);
    for (i, cell) in cells.iter().enumerate() {
        let Some((_, area)) = cell.name else { continue };
        let (bx, by) = (
            SIDE + (i % COLUMNS) as i64 * BOX_W,
            top + 4 + (i / COLUMNS) as i64 * BOX_H,
        );
        draw_cell(
            &mut s,
            cell,
            area,
            (bx, by),
            (i % COLUMNS, i / COLUMNS),
            &own,
            &colour,
        );
    }
    let _ = writeln!(s, "</g>");
    s.push_str(&legend);
    s.push_str("</svg>\n");
    s
}

/// One box at (`bx`, `by`): its frame filled as its land is held, its name and how many areas it
/// sums, the power's units there as a chip of its colour, the battles it saw there as a mark and
/// their number.
fn draw_cell(
    s: &mut String,
    cell: &Cell,
    area: &str,
    (bx, by): (i64, i64),
    (column, row): (usize, usize),
    own: &str,
    colour: &impl Fn(&str) -> String,
) {
    // Filled as the power that holds most of its known land (the first in name order of equals).
    let holder = cell
        .control
        .iter()
        .max_by_key(|(p, n)| (**n, std::cmp::Reverse(**p)))
        .map(|(p, _)| *p);
    let fill = match holder {
        Some(p) => tint(&colour(p)),
        None if cell.seen == 0 => UNSEEN.to_string(),
        None => "#ffffff".to_string(),
    };
    let mine = cell.corps + cell.leaders + cell.fleets > 0;
    let stroke = if mine {
        format!(r#"stroke="{own}" stroke-width="2.5""#)
    } else {
        r##"stroke="#9e9e9e" stroke-width="1""##.to_string()
    };
    let n = cell.areas.len();
    let mut about = format!(
        "{}{} ({n} area{})",
        cell.areas
            .iter()
            .take(8)
            .copied()
            .collect::<Vec<_>>()
            .join(", "),
        if n > 8 { ", ..." } else { "" },
        if n == 1 { "" } else { "s" }
    );
    if mine {
        let _ = write!(
            about,
            "; your units: {} corps of {} factors, {} leaders, {} fleets of {} ships",
            cell.corps, cell.factors, cell.leaders, cell.fleets, cell.ships
        );
    }
    if cell.battles > 0 {
        let _ = write!(about, "; battles you saw: {}", cell.battles);
    }
    let _ = write!(
        s,
        r#"<g class="cell" id="cell-{column}-{row}" data-areas="{n}" data-ids="{}" data-corps="{}" data-factors="{}" data-leaders="{}" data-fleets="{}" data-ships="{}" data-battles="{}"><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" rx="3" fill="{fill}" {stroke}/>"#,
        esc(&cell.areas.join(" ")),
        cell.corps,
        cell.factors,
        cell.leaders,
        cell.fleets,
        cell.ships,
        cell.battles,
        esc(&about),
        bx + 2,
        by + 2,
        BOX_W - 4,
        BOX_H - 4
    );
    // Its name, cut to the box: the condensed font's letters are about 0.6 of their size.
    let room = ((BOX_W - 10) * 10 / (NAME * 6)) as usize;
    let label = if area.chars().count() > room {
        let mut cut: String = area.chars().take(room - 1).collect();
        cut.push('…');
        cut
    } else {
        area.to_string()
    };
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" font-size="{NAME}" font-weight="bold" fill="{INK}">{}</text>"#,
        bx + 6,
        by + 17,
        esc(&label)
    );
    if mine {
        let chip = chip_text(
            Precision::Exact,
            cell.corps,
            cell.factors,
            cell.leaders,
            cell.ships,
        );
        let w = (text_width(&chip, TEXT) + 8).min(BOX_W - 12);
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="{w}" height="16" rx="2" fill="{own}" stroke="{INK}" stroke-width="0.5"/><text x="{}" y="{}" font-size="{TEXT}" font-weight="bold" fill="{}">{}</text>"#,
            bx + 6,
            by + 22,
            bx + 10,
            by + 35,
            ink_on(own),
            esc(&chip)
        );
    }
    if cell.battles > 0 {
        let (mx, my) = (bx + 8, by + 42);
        let _ = write!(
            s,
            r#"<path d="M{mx} {my} L{} {} M{} {my} L{mx} {}" stroke="{BATTLE}" stroke-width="3" stroke-linecap="round"/><text x="{}" y="{}" font-size="{TEXT}" font-weight="bold" fill="{BATTLE}">{}</text>"#,
            mx + 11,
            my + 11,
            mx + 11,
            my + 11,
            mx + 16,
            my + 10,
            cell.battles
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" text-anchor="end" font-size="{TEXT}" fill="#424242">{n} area{}</text></g>"##,
        bx + BOX_W - 7,
        by + BOX_H - 8,
        if n == 1 { "" } else { "s" }
    );
}

/// The overview's legend from `top` down: the powers, what a box sums, the battles the power saw.
/// Returns where it ends.
fn draw_legend(
    out: &mut String,
    game: &Game,
    shared: &TurnSight,
    view: &PowerView,
    top: i64,
    colour: &impl Fn(&str) -> String,
    name: &impl Fn(&str) -> String,
) -> i64 {
    let x = 20;
    let mut l = Legend::new(x, top, PHONE_SIZES);
    legend_powers(&mut l, game, shared, view, colour);
    l.heading("Overview: too much to draw one by one");
    let own = colour(&view.power);
    let y = l.y;
    l.line(
        format!(
            r##"<rect x="{x}" y="{}" width="24" height="16" rx="3" fill="{}" stroke="#9e9e9e"/>"##,
            y - 8,
            tint(&own)
        ),
        "a box: part of the map, its areas summed",
    );
    l.line(String::new(), "named after its busiest area");
    l.line(String::new(), "filled: who holds most of its known land");
    let y = l.y;
    l.line(
        format!(
            r#"<rect x="{x}" y="{}" width="28" height="15" rx="2" fill="{own}"/><text x="{}" y="{}" font-size="11" font-weight="bold" fill="{}">12</text>"#,
            y - 8,
            x + 4,
            y + 4,
            ink_on(&own)
        ),
        &format!("your {} there", game.ruleset.strength_words()),
    );
    l.line(String::new(), "L2: two leaders; S6: fleets of 6 ships");
    let y = l.y;
    l.line(
        format!(
            r#"<path d="M{} {} L{} {} M{} {} L{} {}" stroke="{BATTLE}" stroke-width="3" stroke-linecap="round"/>"#,
            x + 5,
            y - 6,
            x + 17,
            y + 6,
            x + 17,
            y - 6,
            x + 5,
            y + 6
        ),
        "battles you saw there",
    );
    l.line(String::new(), "each unit and move: the report, the SVG");
    legend_battles(&mut l, view, name);
    l.close(out, 10, top)
}
