//! The 15x15 tactical map under one strategic square (GITM 2.1-2.7) and its file format: one text file
//! per strategic square, `tactical/G7-V8.txt`, that a referee reads and writes by hand.
//!
//! The seed's slip "15 columns wide by 15 columns high" (2.1) is read as 15 columns by 15 rows: the
//! same sentence numbers rows 0 (north) to 14 (south), and its example `14-1` is a row number.
//!
//! ```text
//! # comments start with '#'
//! square G7-V8
//! terrain
//! ...............      15 lines of 15 symbols, row 0 (north) first, column 0 (west) first
//! rating               optional: 15 lines of 15 digits 0-4 (2.4); without it each terrain's default
//! 000000000000000
//! town 7-7 Venice      a town square (2.2) and its name
//! ```
//!
//! A fort (2.6) and a siege (2.7) are not written here: they are the `[gitm]` state's `[[gitm.fort]]`
//! and `[[gitm.siege]]`, the one place pbem reads them (a turn lays and lifts sieges, a breach
//! changes a fort), and the turn puts them on the map ([`TacMap::set_fort`], [`TacMap::set_siege`]);
//! a `fort` or `besieged` line is refused with a hint saying where it belongs.
//!
//! Symbols (2.2): `.` open, `h` hills, `H` high hills, `~` river, `=` ford, `M` mountain, `^` pass,
//! `w` water, `f` forest, `T` town.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use crate::diag::{Diagnostic, Source};
use crate::game::map::grid::Square;
use crate::game::map::sub_grid::{Spot, SubGrid, SubSquare};

/// Squares on a side of a tactical map (GITM 2.1).
pub const SIZE: u8 = 15;

/// A tactical square by column (0 west) and row (0 north), written `14-1` (GITM 2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub col: u8,
    pub row: u8,
}

impl Pos {
    pub const fn new(col: u8, row: u8) -> Pos {
        Pos { col, row }
    }

    /// `14-1`: column, dash, row, each 0 to 14 (GITM 2.1); `None` otherwise.
    pub fn parse(text: &str) -> Option<Pos> {
        let (c, r) = text.trim().split_once('-')?;
        let n = |t: &str| {
            (!t.is_empty() && t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u8>().ok())
                .flatten()
                .filter(|&v| v < SIZE)
        };
        Some(Pos::new(n(c)?, n(r)?))
    }

    /// King's-move distance: the tactical squares a unit needs to go from one to the other (8.1).
    pub fn distance(self, other: Pos) -> u32 {
        let (dx, dy) = self.delta(other);
        dx.unsigned_abs().max(dy.unsigned_abs())
    }

    /// The diagonal moves of a shortest path (8.8's tie-break: the fewest diagonal moves).
    pub fn diagonals(self, other: Pos) -> u32 {
        let (dx, dy) = self.delta(other);
        dx.unsigned_abs().min(dy.unsigned_abs())
    }

    pub fn delta(self, other: Pos) -> (i32, i32) {
        (
            i32::from(other.col) - i32::from(self.col),
            i32::from(other.row) - i32::from(self.row),
        )
    }

    /// The square `(dx, dy)` away, if on the map.
    pub fn offset(self, dx: i32, dy: i32) -> Option<Pos> {
        let c = i32::from(self.col) + dx;
        let r = i32::from(self.row) + dy;
        let on = |v: i32| (0..i32::from(SIZE)).contains(&v);
        (on(c) && on(r)).then(|| Pos::new(c as u8, r as u8))
    }

    /// The eight squares around, clockwise from north, those on the map.
    pub fn neighbours(self) -> impl Iterator<Item = Pos> {
        Dir::ALL
            .into_iter()
            .filter_map(move |d| self.offset(d.dx(), d.dy()))
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.col, self.row)
    }
}

/// The eight directions of the tactical map (4.2, 9.4), clockwise from north.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dir {
    N,
    Ne,
    E,
    Se,
    S,
    Sw,
    W,
    Nw,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::Ne,
        Dir::E,
        Dir::Se,
        Dir::S,
        Dir::Sw,
        Dir::W,
        Dir::Nw,
    ];

    pub fn dx(self) -> i32 {
        match self {
            Dir::Ne | Dir::E | Dir::Se => 1,
            Dir::Sw | Dir::W | Dir::Nw => -1,
            Dir::N | Dir::S => 0,
        }
    }

    pub fn dy(self) -> i32 {
        match self {
            Dir::N | Dir::Ne | Dir::Nw => -1,
            Dir::Se | Dir::S | Dir::Sw => 1,
            Dir::E | Dir::W => 0,
        }
    }

    /// The direction of a step of `(dx, dy)` (signs only); `None` for no step.
    pub fn of(dx: i32, dy: i32) -> Option<Dir> {
        Dir::ALL
            .into_iter()
            .find(|d| d.dx() == dx.signum() && d.dy() == dy.signum())
    }

    /// Eighths of a turn between two directions, 0 to 4.
    pub fn apart(self, other: Dir) -> u8 {
        let d = (self as i8 - other as i8).rem_euclid(8) as u8;
        d.min(8 - d)
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "north",
            Dir::Ne => "northeast",
            Dir::E => "east",
            Dir::Se => "southeast",
            Dir::S => "south",
            Dir::Sw => "southwest",
            Dir::W => "west",
            Dir::Nw => "northwest",
        }
    }
}

/// The ten terrains of a tactical square (GITM 2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Terrain {
    Open,
    Hills,
    HighHills,
    River,
    Ford,
    Mountain,
    Pass,
    Water,
    Forest,
    Town,
}

impl Terrain {
    pub const ALL: [Terrain; 10] = [
        Terrain::Open,
        Terrain::Hills,
        Terrain::HighHills,
        Terrain::River,
        Terrain::Ford,
        Terrain::Mountain,
        Terrain::Pass,
        Terrain::Water,
        Terrain::Forest,
        Terrain::Town,
    ];

    /// The symbol of the map file.
    pub fn symbol(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::Hills => 'h',
            Terrain::HighHills => 'H',
            Terrain::River => '~',
            Terrain::Ford => '=',
            Terrain::Mountain => 'M',
            Terrain::Pass => '^',
            Terrain::Water => 'w',
            Terrain::Forest => 'f',
            Terrain::Town => 'T',
        }
    }

    /// The terrain of a word of the map file's `[sub]` legend (`synth::map::GITM_TACTICAL`).
    pub fn from_name(word: &str) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.name() == word)
    }

    pub fn from_symbol(c: char) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.symbol() == c)
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Open => "open",
            Terrain::Hills => "hills",
            Terrain::HighHills => "high hills",
            Terrain::River => "river",
            Terrain::Ford => "ford",
            Terrain::Mountain => "mountain",
            Terrain::Pass => "pass",
            Terrain::Water => "water",
            Terrain::Forest => "forest",
            Terrain::Town => "town",
        }
    }

    /// GITM 2.2: river, mountain and water squares are impassable.
    pub fn passable(self) -> bool {
        !matches!(self, Terrain::River | Terrain::Mountain | Terrain::Water)
    }

    /// GITM 2.3, 8.7: a ford or a pass, where a river or a range may be crossed.
    pub fn crossing(self) -> bool {
        matches!(self, Terrain::Ford | Terrain::Pass)
    }

    /// GITM 2.3: the squares of a river or a mountain range (with their fords and passes), which join
    /// across the edges of neighbouring maps.
    pub fn is_barrier(self) -> bool {
        matches!(
            self,
            Terrain::River | Terrain::Ford | Terrain::Mountain | Terrain::Pass
        )
    }

    /// The defensive rating of a square of this terrain when its file gives none (GITM 2.4: 0 poor
    /// to 4 excellent). pbem's, not the seed's: the seed gives the scale, not the values.
    pub fn default_rating(self) -> u8 {
        match self {
            Terrain::Open | Terrain::River | Terrain::Water => 0,
            Terrain::Ford => 1,
            Terrain::Hills | Terrain::Forest => 2,
            Terrain::Town | Terrain::Mountain => 3,
            Terrain::HighHills | Terrain::Pass => 4,
        }
    }
}

/// A fort of a town square (GITM 2.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fort {
    /// 1 to 5, 5 the strongest.
    pub strength: u8,
    /// Capacity in the transport measure of 2.6 (1 a man of infantry, 3 of cavalry, 2 of artillery).
    pub capacity: u32,
}

/// The siege of a city (GITM 2.7, 8.4), from the state's `[[gitm.siege]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Siege {
    /// The side that besieges it.
    pub by: String,
    /// The side controlling the city: its garrison's.
    pub holder: String,
}

/// A town square (GITM 2.2) with its fort (2.6) and its siege (2.7).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Town {
    pub name: String,
    pub fort: Option<Fort>,
    pub siege: Option<Siege>,
}

/// The tactical map of one strategic square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TacMap {
    /// The strategic square it lies under, `G7-V8`.
    pub square: String,
    terrain: Vec<Terrain>,
    rating: Vec<u8>,
    pub towns: BTreeMap<Pos, Town>,
}

fn idx(p: Pos) -> usize {
    usize::from(p.row) * usize::from(SIZE) + usize::from(p.col)
}

impl TacMap {
    /// A map of one terrain, default ratings: for tests and for squares without a file.
    pub fn plain(square: &str, terrain: Terrain) -> TacMap {
        let n = usize::from(SIZE) * usize::from(SIZE);
        TacMap {
            square: square.to_string(),
            terrain: vec![terrain; n],
            rating: vec![terrain.default_rating(); n],
            towns: BTreeMap::new(),
        }
    }

    /// The tactical map of strategic square `square` (named `name`) as the game's map file draws it
    /// in its `[sub]` grid: terrain and ratings, no towns' names.
    pub fn from_sub_grid(sub: &SubGrid, square: Square, name: &str) -> TacMap {
        let mut m = TacMap::plain(name, Terrain::Open);
        for r in 0..SIZE.min(sub.size()) {
            for c in 0..SIZE.min(sub.size()) {
                let spot = Spot {
                    square,
                    sub: SubSquare { col: c, row: r },
                };
                let p = Pos::new(c, r);
                m.terrain[idx(p)] = Terrain::from_name(sub.terrain(spot)).unwrap_or(Terrain::Open);
                m.rating[idx(p)] = sub.rating(spot).min(4);
            }
        }
        m
    }

    /// GITM 2.6: puts a fort of the `[gitm]` state on its square (a town square: the state check
    /// refuses a fort elsewhere, `hook::check_forts`).
    pub fn set_fort(&mut self, p: Pos, fort: Fort) {
        self.towns.entry(p).or_default().fort = Some(fort);
    }

    /// GITM 2.7, 8.4: puts a siege of the `[gitm]` state on the city at `p`.
    pub fn set_siege(&mut self, p: Pos, siege: Siege) {
        self.towns.entry(p).or_default().siege = Some(siege);
    }

    /// GITM 2.7: the siege of the city at `p`, if it is besieged.
    pub fn siege(&self, p: Pos) -> Option<&Siege> {
        self.towns.get(&p).and_then(|t| t.siege.as_ref())
    }

    /// GITM 2.6: the fort at `p`, if any.
    pub fn fort(&self, p: Pos) -> Option<&Fort> {
        self.towns.get(&p).and_then(|t| t.fort.as_ref())
    }

    /// The squares where this map's terrain differs from `other`'s, in reading order.
    pub fn differences(&self, other: &TacMap) -> Vec<Pos> {
        (0..SIZE)
            .flat_map(|r| (0..SIZE).map(move |c| Pos::new(c, r)))
            .filter(|&p| self.terrain(p) != other.terrain(p))
            .collect()
    }

    /// Sets one square's terrain and its default rating.
    pub fn set(&mut self, p: Pos, terrain: Terrain) {
        self.terrain[idx(p)] = terrain;
        self.rating[idx(p)] = terrain.default_rating();
    }

    pub fn terrain(&self, p: Pos) -> Terrain {
        self.terrain[idx(p)]
    }

    /// GITM 2.4: the square's defensive rating, 0 to 4.
    pub fn rating(&self, p: Pos) -> u8 {
        self.rating[idx(p)]
    }

    /// GITM 8.5: a cliff is the border of a high-hills square and a square that is not hills.
    pub fn is_cliff(&self, a: Pos, b: Pos) -> bool {
        let hill = |t: Terrain| matches!(t, Terrain::Hills | Terrain::HighHills);
        let (ta, tb) = (self.terrain(a), self.terrain(b));
        (ta == Terrain::HighHills && !hill(tb)) || (tb == Terrain::HighHills && !hill(ta))
    }

    /// The side of rivers and ranges each square lies on (GITM 8.7): squares joined by passable
    /// squares that are not fords or passes share a side; fords, passes and impassable squares have
    /// none. Numbered in reading order.
    pub fn sides(&self) -> Vec<Option<u16>> {
        let n = usize::from(SIZE) * usize::from(SIZE);
        let mut side = vec![None; n];
        let mut next = 0u16;
        for start in 0..n {
            let t = self.terrain[start];
            if side[start].is_some() || !t.passable() || t.crossing() {
                continue;
            }
            let mut stack = vec![start];
            side[start] = Some(next);
            while let Some(i) = stack.pop() {
                let p = Pos::new((i % usize::from(SIZE)) as u8, (i / usize::from(SIZE)) as u8);
                for q in p.neighbours() {
                    let j = idx(q);
                    let tq = self.terrain[j];
                    if side[j].is_none() && tq.passable() && !tq.crossing() {
                        side[j] = Some(next);
                        stack.push(j);
                    }
                }
            }
            next += 1;
        }
        side
    }

    /// GITM 2.3: where a river or range breaks off at the edge this map shares with `east` (the map of
    /// the strategic square east of this one): the rows whose square 14-r here and 0-r there disagree.
    pub fn broken_east_edge(&self, east: &TacMap) -> Vec<u8> {
        (0..SIZE)
            .filter(|&r| {
                self.terrain(Pos::new(SIZE - 1, r)).is_barrier()
                    != east.terrain(Pos::new(0, r)).is_barrier()
            })
            .collect()
    }

    /// GITM 2.3: as [`broken_east_edge`](Self::broken_east_edge) for the map south of this one:
    /// the columns whose square c-14 here and c-0 there disagree.
    pub fn broken_south_edge(&self, south: &TacMap) -> Vec<u8> {
        (0..SIZE)
            .filter(|&c| {
                self.terrain(Pos::new(c, SIZE - 1)).is_barrier()
                    != south.terrain(Pos::new(c, 0)).is_barrier()
            })
            .collect()
    }

    /// The map in its file format (what [`parse`] reads back).
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "# GITM 2.1: tactical map, {SIZE} columns (0 west) by {SIZE} rows (0 north)\nsquare {}\nterrain\n",
            self.square
        );
        for r in 0..SIZE {
            for c in 0..SIZE {
                out.push(self.terrain(Pos::new(c, r)).symbol());
            }
            out.push('\n');
        }
        out.push_str("rating\n");
        for r in 0..SIZE {
            for c in 0..SIZE {
                out.push(char::from(b'0' + self.rating(Pos::new(c, r))));
            }
            out.push('\n');
        }
        for (p, t) in &self.towns {
            if !t.name.is_empty() {
                out.push_str(&format!("town {p} {}\n", t.name));
            }
        }
        out
    }
}

/// The lines of a file with the byte span of each, comments and blank lines left out.
fn lines(text: &str) -> Vec<(Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let content = line.split('#').next().unwrap_or("").trim_end();
        if !content.trim().is_empty() {
            out.push((at..at + content.len(), content));
        }
        at += raw.len();
    }
    out
}

/// Reads a tactical map file (the format in this module's doc). Every problem is a diagnostic with
/// its place in the file and a hint; none panics.
pub fn parse(source: &Source) -> Result<TacMap, Vec<Diagnostic>> {
    let text = source.text.as_str();
    let lines = lines(text);
    let mut errors = Vec::new();
    let mut square: Option<String> = None;
    let mut terrain: Option<Vec<Terrain>> = None;
    let mut terrain_seen = false;
    let mut rating: Option<Vec<u8>> = None;
    let mut towns: BTreeMap<Pos, Town> = BTreeMap::new();
    let mut i = 0;
    let end = text.len()..text.len();
    while i < lines.len() {
        let (span, line) = (lines[i].0.clone(), lines[i].1);
        let mut words = line.split_whitespace();
        let keyword = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        i += 1;
        match keyword {
            "square" => match rest.as_slice() {
                [s] => square = Some(s.to_string()),
                _ => errors.push(
                    Diagnostic::error("'square' takes the strategic square's name", span)
                        .hint("write it as `square G7-V8` (GITM 1.1)"),
                ),
            },
            "terrain" | "rating" => {
                let block = read_block(&lines, &mut i, keyword, span, &end, &mut errors);
                if keyword == "terrain" {
                    terrain_seen = true;
                    terrain = block.map(|cells| {
                        cells
                            .into_iter()
                            .map(|c| Terrain::from_symbol(c).unwrap_or(Terrain::Open))
                            .collect()
                    });
                } else {
                    rating = block.map(|cells| {
                        cells
                            .into_iter()
                            .map(|c| c.to_digit(10).unwrap_or(0) as u8)
                            .collect()
                    });
                }
            }
            "fort" => {
                let at = match (&square, rest.first()) {
                    (Some(sq), Some(p)) => format!("{sq}/{p}"),
                    (None, Some(p)) => format!("<square>/{p}"),
                    _ => "G7-V8/10-10".to_string(),
                };
                let (strength, capacity) = match rest.as_slice() {
                    [_, s, c] => (s.to_string(), c.to_string()),
                    _ => ("3".to_string(), "6000".to_string()),
                };
                errors.push(
                    Diagnostic::error(
                        "a tactical map holds no fort: forts are the state's [[gitm.fort]] (GITM 2.6), read in one place",
                        span,
                    )
                    .hint(format!(
                        "move it to state.toml: [[gitm.fort]] at = \"{at}\" strength = {strength} capacity = {capacity}"
                    )),
                );
            }
            "besieged" => {
                let at = match (&square, rest.first()) {
                    (Some(sq), Some(p)) => format!("{sq}/{p}"),
                    (None, Some(p)) => format!("<square>/{p}"),
                    _ => "G7-V8/10-10".to_string(),
                };
                errors.push(
                    Diagnostic::error(
                        "a tactical map holds no siege: sieges are the state's [[gitm.siege]] (GITM 2.7, 8.4), read in one place",
                        span,
                    )
                    .hint(format!(
                        "remove the line: a turn lays a siege where hostile combat units stand by a garrisoned fort; a referee may write it in state.toml: [[gitm.siege]] at = \"{at}\" by = \"<power>\" since = <turn>"
                    )),
                );
            }
            "town" => read_town_line(&rest, line, span, &mut towns, &mut errors),
            _ => errors.push(
                Diagnostic::error(format!("'{keyword}' is not a line of a tactical map"), span)
                    .hint("a tactical map has the lines square, terrain, rating and town"),
            ),
        }
    }
    if square.is_none() {
        errors.push(
            Diagnostic::error("the map names no strategic square", end.clone())
                .hint("add a line `square G7-V8` (GITM 1.1)"),
        );
    }
    let Some(terrain) = terrain else {
        if terrain_seen {
            return Err(errors);
        }
        errors.push(
            Diagnostic::error("the map has no terrain block", end)
                .hint("add `terrain` and 15 lines of 15 symbols (GITM 2.1, 2.2)"),
        );
        return Err(errors);
    };
    for (p, _) in towns.iter() {
        if terrain[idx(*p)] != Terrain::Town {
            errors.push(
                Diagnostic::error(
                    format!("the town at {p} stands on {}", terrain[idx(*p)].name()),
                    town_span(&lines, *p),
                )
                .hint("a town and a siege need a town square `T` (GITM 2.2, 2.7)"),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let rating = rating.unwrap_or_else(|| terrain.iter().map(|t| t.default_rating()).collect());
    Ok(TacMap {
        square: square.unwrap_or_default(),
        terrain,
        rating,
        towns,
    })
}

/// The span of the first town, fort or besieged line of `p`.
fn town_span(lines: &[(Range<usize>, &str)], p: Pos) -> Range<usize> {
    let name = p.to_string();
    lines
        .iter()
        .find(|(_, l)| l.split_whitespace().nth(1) == Some(name.as_str()))
        .map(|(s, _)| s.clone())
        .unwrap_or(0..0)
}

/// Reads the 15 lines after `terrain` or `rating`; every cell checked, an error at its column.
fn read_block(
    lines: &[(Range<usize>, &str)],
    i: &mut usize,
    keyword: &str,
    head: Range<usize>,
    end: &Range<usize>,
    errors: &mut Vec<Diagnostic>,
) -> Option<Vec<char>> {
    let what = if keyword == "terrain" {
        "a terrain symbol: . h H ~ = M ^ w f T (GITM 2.2)"
    } else {
        "a defensive rating, 0 to 4 (GITM 2.4)"
    };
    let mut cells = Vec::new();
    let before = errors.len();
    for r in 0..usize::from(SIZE) {
        let Some((span, line)) = lines.get(*i) else {
            errors.push(
                Diagnostic::error(
                    format!("the {keyword} block has {r} rows, not {SIZE}"),
                    end.clone(),
                )
                .hint(format!(
                    "GITM 2.1: a tactical map has {SIZE} rows, 0 (north) to 14 (south)"
                )),
            );
            return None;
        };
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        if chars.len() != usize::from(SIZE) || line.contains(' ') && !line.trim().is_empty() {
            let known = line.split_whitespace().next().unwrap_or("");
            if ["square", "terrain", "rating", "town", "fort", "besieged"].contains(&known) {
                errors.push(
                    Diagnostic::error(
                        format!("the {keyword} block has {r} rows, not {SIZE}"),
                        head.clone(),
                    )
                    .hint(format!(
                        "GITM 2.1: a tactical map has {SIZE} rows, 0 (north) to 14 (south)"
                    )),
                );
                return None;
            }
            errors.push(
                Diagnostic::error(
                    format!(
                        "row {r} of the {keyword} block has {} squares, not {SIZE}",
                        chars.len()
                    ),
                    span.clone(),
                )
                .hint(format!(
                    "GITM 2.1: a row has {SIZE} squares, column 0 (west) to 14 (east), no spaces"
                )),
            );
            *i += 1;
            continue;
        }
        for (at, c) in chars {
            let ok = if keyword == "terrain" {
                Terrain::from_symbol(c).is_some()
            } else {
                c.to_digit(10).is_some_and(|d| d <= 4)
            };
            if !ok {
                let s = span.start + at;
                errors.push(
                    Diagnostic::error(
                        format!("'{c}' at {}-{r} is not {what}", (at as u8).min(SIZE - 1)),
                        s..s + c.len_utf8(),
                    )
                    .hint(format!("write {what}")),
                );
            }
            cells.push(c);
        }
        *i += 1;
    }
    (errors.len() == before).then_some(cells)
}

/// Reads a `town` line (GITM 2.2).
fn read_town_line(
    rest: &[&str],
    line: &str,
    span: Range<usize>,
    towns: &mut BTreeMap<Pos, Town>,
    errors: &mut Vec<Diagnostic>,
) {
    let word_span = |w: &str| -> Range<usize> {
        let at = line.find(w).unwrap_or(0);
        span.start + at..span.start + at + w.len()
    };
    let Some(first) = rest.first() else {
        errors.push(
            Diagnostic::error("'town' needs a tactical square", span)
                .hint("write the square as column-row, each 0 to 14: `town 7-7 Venice` (GITM 2.1)"),
        );
        return;
    };
    let Some(p) = Pos::parse(first) else {
        errors.push(
            Diagnostic::error(
                format!("'{first}' is not a tactical square"),
                word_span(first),
            )
            .hint("write column-row, each 0 to 14: 14-1 (GITM 2.1)"),
        );
        return;
    };
    let name = rest[1..].join(" ");
    if name.is_empty() {
        errors.push(
            Diagnostic::error("the town has no name", span)
                .hint("write `town 7-7 Venice` (GITM 1.3: every city has a name)"),
        );
        return;
    }
    let t = towns.entry(p).or_insert(Town {
        name: String::new(),
        fort: None,
        siege: None,
    });
    t.name = name;
}
