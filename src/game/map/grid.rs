//! Square grids with implicit adjacency and an optional sub-grid under every square (`sub_grid.rs`):
//! GITM's strategic map (1.1: 120 columns A0..L9 by 80 rows S0..Z9, `G7-V8` is Venice) with a 15x15
//! tactical map under each square (2.1).
//!
//! ```toml
//! kind = "grid"
//! columns = 120
//! rows = 80
//! column_names = "A0"    # letter and digit from A0 (GITM 1.1); a number ("0", "1") counts instead
//! row_names = "S0"
//! terrain = '''
//! ....~~..
//! '''
//! [legend]
//! "." = "open"
//! [places]
//! Venice = "G7-V8"
//! [sub]                  # the tactical maps, written as one grid of 1800 columns by 1200 rows
//! size = 15
//! terrain = '''...'''
//! rating = '''...'''     # one digit per tactical square
//! [sub.legend]
//! "." = "open"
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::rows::{parse_rows, Block};
use super::sub_grid::{parse_sub_square, read_sub, sub_dimensions, Spot, SubFile, SubGrid};
use super::terrain::{Legend, Vocabulary};
use super::{check_size, located, BadPlace, Topology};
use crate::diag::{Diagnostic, FileError, Source};
use crate::game::load;

/// The most columns or rows of a grid.
const MAX_SIDE: u32 = 1000;

/// A square of the grid, by 0-based column (west to east) and row (north to south).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Square {
    pub col: u16,
    pub row: u16,
}

/// How the columns or the rows of a grid are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// A letter and a digit, from the letter given: `A0`, `A1`, ... `A9`, `B0` (GITM 1.1).
    LetterDigit { first: u8 },
    /// A number from the one given.
    Number { first: u32 },
}

impl Axis {
    /// The naming a file gives by its first name: `"A0"` or `"S0"`, or a number.
    fn from_first(text: &str) -> Option<Axis> {
        let b = text.as_bytes();
        if b.len() == 2 && b[0].is_ascii_uppercase() && b[1] == b'0' {
            Some(Axis::LetterDigit { first: b[0] })
        } else if !text.is_empty() && text.len() <= 6 && b.iter().all(u8::is_ascii_digit) {
            text.parse().ok().map(|first| Axis::Number { first })
        } else {
            None
        }
    }

    /// Whether `len` names fit (letters end at Z).
    fn fits(self, len: usize) -> bool {
        match self {
            Axis::LetterDigit { first } => {
                (first - b'A') as usize + len.saturating_sub(1) / 10 < 26
            }
            Axis::Number { .. } => true,
        }
    }

    fn name(self, i: usize) -> String {
        match self {
            Axis::LetterDigit { first } => {
                format!("{}{}", (first + (i / 10) as u8) as char, i % 10)
            }
            Axis::Number { first } => (first as usize + i).to_string(),
        }
    }

    /// The index a name gives, if it is one of the first `len`.
    fn parse(self, text: &str, len: usize) -> Option<usize> {
        let i = match self {
            Axis::LetterDigit { first } => {
                let b = text.as_bytes();
                if b.len() != 2 || !b[1].is_ascii_digit() {
                    return None;
                }
                let letter = b[0].to_ascii_uppercase();
                if !letter.is_ascii_uppercase() || letter < first {
                    return None;
                }
                (letter - first) as usize * 10 + (b[1] - b'0') as usize
            }
            Axis::Number { first } => {
                if text.is_empty() || text.len() > 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                (text.parse::<u32>().ok()?.checked_sub(first)?) as usize
            }
        };
        (i < len).then_some(i)
    }
}

/// A grid map file (`kind = "grid"`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridFile {
    pub kind: Spanned<String>,
    pub columns: Spanned<u32>,
    pub rows: Spanned<u32>,
    /// The first column's name: `"A0"` (letter and digit) or a number; `"0"` by default.
    #[serde(default)]
    pub column_names: Option<Spanned<String>>,
    /// The first row's name, the same way.
    #[serde(default)]
    pub row_names: Option<Spanned<String>>,
    /// One line per row, one character per square.
    pub terrain: Spanned<String>,
    /// One character per terrain word.
    pub legend: BTreeMap<Spanned<String>, Spanned<String>>,
    /// Named squares: `Venice = "G7-V8"`.
    #[serde(default)]
    pub places: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    pub sub: Option<SubFile>,
}

/// The eight steps, clockwise from north (x east, y south).
pub(super) const STEPS: [(isize, isize); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// A loaded grid map.
#[derive(Debug, Clone)]
pub struct GridMap {
    columns: u16,
    rows: u16,
    column_names: Axis,
    row_names: Axis,
    words: Vec<String>,
    terrain: Vec<u8>,
    /// Terrain codes that close a diagonal when on both squares beside it, as bits.
    corner_blockers: u32,
    places: BTreeMap<String, Square>,
    sub: Option<SubGrid>,
}

impl GridMap {
    /// Reads and checks a grid map file with the ruleset's words.
    pub fn load(source: &Source, words: &Vocabulary) -> Result<GridMap, FileError> {
        let file: GridFile = load::parse_toml(source)?;
        GridMap::from_file(source, &file, words).map_err(|d| located(source, &d))
    }

    /// Builds the map from its parsed file; `source` locates the errors in its rows.
    pub fn from_file(
        source: &Source,
        file: &GridFile,
        words: &Vocabulary,
    ) -> Result<GridMap, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let columns = check_size(&file.columns, MAX_SIDE, "columns", &mut errors);
        let rows = check_size(&file.rows, MAX_SIDE, "rows", &mut errors);
        let column_names = axis(file.column_names.as_ref(), columns, "columns", &mut errors);
        let row_names = axis(file.row_names.as_ref(), rows, "rows", &mut errors);
        let legend = Legend::new(&file.legend, words.terrain, "terrain");
        if let Some(sub) = &file.sub {
            sub_dimensions(sub, columns, rows, &mut errors);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let terrain = parse_rows(
            &Block::of(&source.text, &file.terrain),
            columns,
            rows,
            &legend?,
            "terrain",
        )?;
        let corner_blockers = words
            .terrain
            .iter()
            .enumerate()
            .filter(|(_, w)| words.corner_blockers.contains(w))
            .fold(0u32, |bits, (i, _)| bits | 1 << (i % 32));
        let mut map = GridMap {
            columns: columns as u16,
            rows: rows as u16,
            column_names,
            row_names,
            words: words.terrain.iter().map(|w| w.to_string()).collect(),
            terrain,
            corner_blockers,
            places: BTreeMap::new(),
            sub: None,
        };
        for (name, at) in &file.places {
            match map.parse_place(at.get_ref()) {
                Ok(sq) => {
                    map.places.insert(name.get_ref().clone(), sq);
                }
                Err(bad) => {
                    errors.push(Diagnostic::error(bad.message, at.span()).maybe_hint(bad.hint))
                }
            }
        }
        if let Some(sub) = &file.sub {
            match read_sub(source, sub, columns, rows, words) {
                Ok(s) => map.sub = Some(s),
                Err(e) => errors.extend(e),
            }
        }
        if errors.is_empty() {
            Ok(map)
        } else {
            Err(errors)
        }
    }

    pub fn columns(&self) -> u16 {
        self.columns
    }

    pub fn rows(&self) -> u16 {
        self.rows
    }

    /// The sub-grid, if the map has one.
    pub fn sub(&self) -> Option<&SubGrid> {
        self.sub.as_ref()
    }

    /// A square the file names (`Venice`), case-insensitively.
    pub fn named(&self, name: &str) -> Option<Square> {
        self.places
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, &sq)| sq)
    }

    /// Whether the file names the square (`[places]`): GITM reads a named square as a city (1.4).
    pub fn is_named(&self, sq: Square) -> bool {
        self.places.values().any(|&s| s == sq)
    }

    fn code(&self, sq: Square) -> u8 {
        self.terrain[sq.row as usize * self.columns as usize + sq.col as usize]
    }

    fn blocks_corner(&self, col: isize, row: isize) -> bool {
        let sq = Square {
            col: col as u16,
            row: row as u16,
        };
        self.corner_blockers & (1 << (self.code(sq) % 32)) != 0
    }

    /// A spot of the sub-grid by its name, `G8-V5/0-2`.
    pub fn parse_spot(&self, text: &str) -> Result<Spot, BadPlace> {
        let Some(sub) = &self.sub else {
            return Err(BadPlace::new(
                "this map has no sub-grid",
                "name a square of the map alone",
            ));
        };
        let Some((sq, s)) = text.split_once('/') else {
            return Err(BadPlace::new(
                format!("'{text}' is not a square and a sub-square"),
                "write the square, '/', and the sub-square: G8-V5/0-2",
            ));
        };
        Ok(Spot {
            square: self.parse_place(sq)?,
            sub: parse_sub_square(s, sub.size())?,
        })
    }

    pub fn spot_name(&self, spot: Spot) -> String {
        format!("{}/{}", self.place_name(spot.square), spot.sub)
    }
}

/// The naming of an axis from the file, checked to fit its length.
fn axis(
    first: Option<&Spanned<String>>,
    len: usize,
    what: &str,
    errors: &mut Vec<Diagnostic>,
) -> Axis {
    let default = Axis::Number { first: 0 };
    let Some(first) = first else {
        return default;
    };
    match Axis::from_first(first.get_ref()) {
        Some(a) if a.fits(len) => a,
        Some(a) => {
            errors.push(
                Diagnostic::error(
                    format!("{len} {what} named from {} run past Z9", a.name(0)),
                    first.span(),
                )
                .hint("start from an earlier letter, or name them by number"),
            );
            default
        }
        None => {
            errors.push(
                Diagnostic::error(format!("'{}' is not a first name of {what}", first.get_ref()), first.span())
                    .hint("a capital letter and 0 (\"A0\": A0, A1, ... A9, B0) or a number (\"0\", \"1\")"),
            );
            default
        }
    }
}

impl Topology for GridMap {
    type Place = Square;

    /// `G7-V8`: column, dash, row, each named as the file says (GITM 1.1).
    fn parse_place(&self, text: &str) -> Result<Square, BadPlace> {
        let (first, last) = (
            Square { col: 0, row: 0 },
            Square {
                col: self.columns - 1,
                row: self.rows - 1,
            },
        );
        let bad = || {
            BadPlace::new(
                format!("'{text}' is not a square of the map"),
                format!(
                    "a square is its column and row with a dash, from {} to {}",
                    self.place_name(first),
                    self.place_name(last)
                ),
            )
        };
        let (c, r) = text.split_once('-').ok_or_else(bad)?;
        match (
            self.column_names.parse(c, self.columns as usize),
            self.row_names.parse(r, self.rows as usize),
        ) {
            (Some(col), Some(row)) => Ok(Square {
                col: col as u16,
                row: row as u16,
            }),
            _ => Err(bad()),
        }
    }

    fn place_name(&self, sq: Square) -> String {
        format!(
            "{}-{}",
            self.column_names.name(sq.col as usize),
            self.row_names.name(sq.row as usize)
        )
    }

    /// The eight squares around one, clockwise from north, those on the map; a diagonal is closed
    /// when both squares beside it are of the ruleset's corner blockers (GITM 7.4: two water squares).
    fn neighbours(&self, sq: Square) -> Vec<Square> {
        let (c, r) = (sq.col as isize, sq.row as isize);
        let (w, h) = (self.columns as isize, self.rows as isize);
        STEPS
            .iter()
            .filter_map(|&(dx, dy)| {
                let (nc, nr) = (c + dx, r + dy);
                if nc < 0 || nr < 0 || nc >= w || nr >= h {
                    return None;
                }
                if dx != 0
                    && dy != 0
                    && self.blocks_corner(c + dx, r)
                    && self.blocks_corner(c, r + dy)
                {
                    return None;
                }
                Some(Square {
                    col: nc as u16,
                    row: nr as u16,
                })
            })
            .collect()
    }

    fn terrain(&self, sq: Square) -> &str {
        &self.words[self.code(sq) as usize]
    }

    fn places(&self) -> Vec<Square> {
        (0..self.columns)
            .flat_map(|col| (0..self.rows).map(move |row| Square { col, row }))
            .collect()
    }

    /// Squares 20 apart each way.
    fn picture_xy(&self, sq: Square) -> [i32; 2] {
        [20 * sq.col as i32, 20 * sq.row as i32]
    }
}
