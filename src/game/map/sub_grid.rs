//! The sub-grid of a grid map: a `size` x `size` map under every square (GITM 2.1: 15x15 tactical
//! maps, squares named by column and row, `14-1`), each square with a terrain (2.2) and a rating
//! (2.4: defensive, 0 to 4).
//!
//! It is kept as one seamless grid of `columns * size` by `rows * size` bytes (terrain code in the
//! low five bits, rating in the high three), written the same way in the file, so that the maps of
//! neighbouring squares join at their edges (2.3) and GITM's 2.2 million tactical squares take 2.2 MB.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use toml::Spanned;

use super::grid::{Square, STEPS};
use super::rows::{parse_rows, Block};
use super::terrain::{Legend, Vocabulary};
use super::{check_size, BadPlace};
use crate::diag::{Diagnostic, Source};

/// The most squares of a sub-grid's side.
const MAX_SUB: u32 = 64;
/// The most sub-grid squares along the whole map's width or height.
const MAX_SUB_SIDE: usize = 8192;

/// A square of the sub-grid under a square, by 0-based column and row (GITM 2.1: `14-1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct SubSquare {
    pub col: u8,
    pub row: u8,
}

/// A square of the sub-grid with the square it lies under, written `G8-V5/0-2` (the seed writes
/// "G8-V5 strategic, 0-2 tactical").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Spot {
    pub square: Square,
    pub sub: SubSquare,
}

/// The `[sub]` table: the sub-grids of every square, written as one grid.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubFile {
    /// Squares on a side of one sub-grid.
    pub size: Spanned<u32>,
    /// `rows * size` lines of `columns * size` characters.
    pub terrain: Spanned<String>,
    /// The same lines of digits, when the ruleset reads ratings.
    #[serde(default)]
    pub rating: Option<Spanned<String>>,
    pub legend: BTreeMap<Spanned<String>, Spanned<String>>,
}

/// The sub-grids of a grid map, as one grid.
#[derive(Debug, Clone)]
pub struct SubGrid {
    size: u8,
    /// Squares along the whole map's width.
    width: usize,
    words: Vec<String>,
    /// Terrain code (low five bits) and rating (high three) of each square, row by row.
    cells: Vec<u8>,
}

impl SubGrid {
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Where a spot stands in the whole sub-grid.
    fn xy(&self, spot: Spot) -> (usize, usize) {
        let s = self.size as usize;
        (
            spot.square.col as usize * s + spot.sub.col as usize,
            spot.square.row as usize * s + spot.sub.row as usize,
        )
    }

    fn spot(&self, x: usize, y: usize) -> Spot {
        let s = self.size as usize;
        Spot {
            square: Square {
                col: (x / s) as u16,
                row: (y / s) as u16,
            },
            sub: SubSquare {
                col: (x % s) as u8,
                row: (y % s) as u8,
            },
        }
    }

    fn cell(&self, spot: Spot) -> u8 {
        let (x, y) = self.xy(spot);
        self.cells[y * self.width + x]
    }

    /// The spot's terrain word (GITM 2.2).
    pub fn terrain(&self, spot: Spot) -> &str {
        &self.words[(self.cell(spot) & 0x1f) as usize]
    }

    /// The spot's defensive rating (GITM 2.4).
    pub fn rating(&self, spot: Spot) -> u8 {
        self.cell(spot) >> 5
    }

    /// The eight spots around one, across the edges of the square's sub-grid into its neighbours'
    /// (GITM 2.3: tactical maps join at their edges), clockwise from north, those on the map.
    pub fn neighbours(&self, spot: Spot) -> Vec<Spot> {
        let (x, y) = self.xy(spot);
        let height = self.cells.len() / self.width;
        STEPS
            .iter()
            .filter_map(|&(dx, dy)| {
                let nx = x.checked_add_signed(dx).filter(|&v| v < self.width)?;
                let ny = y.checked_add_signed(dy).filter(|&v| v < height)?;
                Some(self.spot(nx, ny))
            })
            .collect()
    }

    /// Pairs of spots side by side across the edge of two sub-grids where one has a terrain of
    /// `joined` and the other not: where a river or a range breaks off at a tactical map's edge
    /// (GITM 2.3 says they join). `joined` holds the words of one feature: `["river", "ford"]`.
    pub fn broken_edges(&self, joined: &[&str]) -> Vec<(Spot, Spot)> {
        let is = |c: u8| joined.contains(&self.words[(c & 0x1f) as usize].as_str());
        let s = self.size as usize;
        let height = self.cells.len() / self.width;
        let mut out = Vec::new();
        for y in 0..height {
            for x in 0..self.width {
                let here = is(self.cells[y * self.width + x]);
                // The east and south neighbours, when they lie in another sub-grid.
                if x % s == s - 1
                    && x + 1 < self.width
                    && here != is(self.cells[y * self.width + x + 1])
                {
                    out.push((self.spot(x, y), self.spot(x + 1, y)));
                }
                if y % s == s - 1
                    && y + 1 < height
                    && here != is(self.cells[(y + 1) * self.width + x])
                {
                    out.push((self.spot(x, y), self.spot(x, y + 1)));
                }
            }
        }
        out
    }
}

/// A sub-square by its name, `14-1`: column then row, each from 0 to `size - 1` (GITM 2.1).
pub fn parse_sub_square(text: &str, size: u8) -> Result<SubSquare, BadPlace> {
    let bad = || {
        BadPlace::new(
            format!("'{text}' is not a square of a {size}x{size} map"),
            format!(
                "write its column and row, each 0 to {}, with a dash: {}-0",
                size.saturating_sub(1),
                size.saturating_sub(1)
            ),
        )
    };
    let (c, r) = text.split_once('-').ok_or_else(bad)?;
    let n = |t: &str| {
        (!t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u8>().ok())
            .flatten()
            .filter(|&v| v < size)
    };
    match (n(c), n(r)) {
        (Some(col), Some(row)) => Ok(SubSquare { col, row }),
        _ => Err(bad()),
    }
}

impl fmt::Display for SubSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.col, self.row)
    }
}

/// The side of one sub-grid, and the whole sub-grid's width and height, checked.
pub(super) fn sub_dimensions(
    sub: &SubFile,
    columns: usize,
    rows: usize,
    errors: &mut Vec<Diagnostic>,
) -> (usize, usize, usize) {
    let size = check_size(&sub.size, MAX_SUB, "size", errors);
    let (width, height) = (columns * size, rows * size);
    if width > MAX_SUB_SIDE || height > MAX_SUB_SIDE {
        errors.push(
            Diagnostic::error(
                format!("the sub-grid would be {width} by {height} squares"),
                sub.size.span(),
            )
            .hint(format!(
                "a sub-grid is at most {MAX_SUB_SIDE} squares along the map"
            )),
        );
    }
    (size, width, height)
}

/// Reads the `[sub]` table: terrain rows and ratings for the whole map, packed one byte a square.
pub(super) fn read_sub(
    source: &Source,
    sub: &SubFile,
    columns: usize,
    rows: usize,
    words: &Vocabulary,
) -> Result<SubGrid, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let (size, width, height) = sub_dimensions(sub, columns, rows, &mut errors);
    let legend = Legend::new(&sub.legend, words.sub_terrain, "the sub-grid's terrain");
    if words.max_rating > 7 {
        errors.push(Diagnostic::error("the ruleset's ratings run past 7", 0..0));
    }
    match (&sub.rating, words.max_rating) {
        (Some(r), 0) => errors.push(
            Diagnostic::error("this ruleset reads no ratings", r.span())
                .hint("remove the rating rows"),
        ),
        (None, max) if max > 0 => errors.push(
            Diagnostic::error("the sub-grid has no rating rows", sub.size.span()).hint(format!(
                "add `rating`: one digit, 0 to {max}, per square of the sub-grid"
            )),
        ),
        _ => {}
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut cells = parse_rows(
        &Block::of(&source.text, &sub.terrain),
        width,
        height,
        &legend?,
        "the sub-grid's terrain",
    )?;
    if let Some(r) = &sub.rating {
        let ratings = parse_rows(
            &Block::of(&source.text, r),
            width,
            height,
            &Legend::digits(words.max_rating),
            "the sub-grid's ratings",
        )?;
        for (c, r) in cells.iter_mut().zip(ratings) {
            *c |= r << 5;
        }
    }
    let grid = SubGrid {
        size: size as u8,
        width,
        words: words.sub_terrain.iter().map(|w| w.to_string()).collect(),
        cells,
    };
    let broken = broken_lines(&grid, &Block::of(&source.text, &sub.terrain), words);
    if broken.is_empty() {
        Ok(grid)
    } else {
        Err(broken)
    }
}

/// The most broken lines reported for one map.
const MAX_BROKEN: usize = 12;

/// GITM 2.3: the squares of a line (`sub_lines`: a river, its ford) on the edge of a sub-grid whose
/// neighbour across that edge is neither a line nor a line's end (`sub_line_ends`: water), each
/// located at the line's square in the terrain rows.
fn broken_lines(grid: &SubGrid, block: &Block, words: &Vocabulary) -> Vec<Diagnostic> {
    if words.sub_lines.is_empty() {
        return Vec::new();
    }
    let word = |spot: Spot| grid.terrain(spot).to_string();
    let mut starts = Vec::new();
    let mut offset = 0;
    for line in block.text.split('\n') {
        starts.push(offset);
        offset += line.len() + 1;
    }
    let mut out = Vec::new();
    for (a, b) in grid.broken_edges(words.sub_lines) {
        let (line, across) = if words.sub_lines.contains(&word(a).as_str()) {
            (a, b)
        } else {
            (b, a)
        };
        if words.sub_line_ends.contains(&word(across).as_str()) {
            continue;
        }
        if out.len() == MAX_BROKEN {
            break;
        }
        let (x, y) = grid.xy(line);
        let at = starts.get(y).map_or(0, |s| s + x);
        out.push(
            Diagnostic::error(
                format!(
                    "the sub-grid's terrain: a {} stops at the edge of its map, against {} across it",
                    word(line),
                    word(across)
                ),
                block.locate(at..at + 1),
            )
            .hint(format!(
                "lines of {} join across the edges of neighbouring maps (GITM 2.3): carry it on, or end it in {}",
                words.sub_lines.join(" or "),
                if words.sub_line_ends.is_empty() {
                    "the map's outer edge".to_string()
                } else {
                    words.sub_line_ends.join(" or ")
                }
            )),
        );
    }
    out
}
