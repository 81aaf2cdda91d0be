//! Hex grids with hexside features: NGG 10.1 attacks an "immediately adjacent hex"; WBTS ground
//! combat halves an attack across a river, forbids one across a tidal river or estuary hexside but at
//! a ferry, and its naval transit attack happens on a hexside with a fortification. So a hex has a
//! terrain word and each of its six sides a set of feature words, both from the ruleset's vocabulary.
//!
//! Hexes are flat-topped, in columns; a hex id is its column then its row, 1-based, zero-padded to two
//! digits each (`0304`: column 3, row 4), the way printed hex maps number them (the seeds write no
//! ids). Every other column stands half a hex lower: by default the even ones (`lower = "even"`).
//!
//! ```toml
//! kind = "hex"
//! columns = 12
//! rows = 10
//! terrain = '''
//! ..rr........
//! ...
//! '''
//! hexsides = '''
//! 0304 n river road     # hex, side (n ne se s sw nw), features
//! '''
//! [legend]
//! "." = "clear"
//! "r" = "rough"
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use toml::Spanned;

use super::rows::{parse_rows, Block};
use super::terrain::{Features, Legend, Vocabulary, MAX_HEXSIDE_WORDS};
use super::{check_size, located, BadPlace, Topology};
use crate::diag::{did_you_mean, Diagnostic, FileError, Source};
use crate::game::load;

/// The most columns or rows of a hex map: ids of three digits each.
const MAX_SIDE: u32 = 999;

/// A hex, by 0-based column and row (its id is 1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hex {
    pub col: u16,
    pub row: u16,
}

/// One of the six sides of a flat-topped hex, clockwise from the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Side {
    pub const ALL: [Side; 6] = [Side::N, Side::NE, Side::SE, Side::S, Side::SW, Side::NW];

    pub fn name(self) -> &'static str {
        ["n", "ne", "se", "s", "sw", "nw"][self as usize]
    }

    /// A side by its name, case-insensitively.
    pub fn parse(text: &str) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(text))
    }

    /// The same hexside seen from the hex across it.
    pub fn opposite(self) -> Side {
        Side::ALL[(self as usize + 3) % 6]
    }
}

/// Which columns (1-based, as ids count them) stand half a hex lower than their neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lower {
    #[default]
    Even,
    Odd,
}

/// A hex map file (`kind = "hex"`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexFile {
    pub kind: Spanned<String>,
    pub columns: Spanned<u32>,
    pub rows: Spanned<u32>,
    #[serde(default)]
    pub lower: Lower,
    /// One character per terrain word.
    pub legend: BTreeMap<Spanned<String>, Spanned<String>>,
    /// One line per row, one character per hex.
    pub terrain: Spanned<String>,
    /// One line per hexside: hex id, side, one or more features.
    #[serde(default)]
    pub hexsides: Option<Spanned<String>>,
}

/// A loaded hex map.
#[derive(Debug, Clone)]
pub struct HexMap {
    columns: u16,
    rows: u16,
    /// Digits of a column or of a row in an id.
    digits: usize,
    lower: Lower,
    /// The ruleset's terrain words; a hex's terrain is an index into them.
    words: Vec<String>,
    /// The ruleset's hexside features; a side's features are bits in their order.
    features: Vec<String>,
    terrain: Vec<u8>,
    /// The features of each hex's six sides; a side shared by two hexes is stored on both.
    sides: Vec<[Features; 6]>,
}

impl HexMap {
    /// Reads and checks a hex map file with the ruleset's words.
    pub fn load(source: &Source, words: &Vocabulary) -> Result<HexMap, FileError> {
        let file: HexFile = load::parse_toml(source)?;
        HexMap::from_file(source, &file, words).map_err(|d| located(source, &d))
    }

    /// Builds the map from its parsed file; `source` locates the errors in its rows.
    pub fn from_file(
        source: &Source,
        file: &HexFile,
        words: &Vocabulary,
    ) -> Result<HexMap, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let columns = check_size(&file.columns, MAX_SIDE, "columns", &mut errors);
        let rows = check_size(&file.rows, MAX_SIDE, "rows", &mut errors);
        if words.hexside.len() > MAX_HEXSIDE_WORDS {
            errors.push(Diagnostic::error(
                format!(
                    "the ruleset reads {} hexside features; a map holds at most {MAX_HEXSIDE_WORDS}",
                    words.hexside.len()
                ),
                0..0,
            ));
        }
        let legend = Legend::new(&file.legend, words.terrain, "terrain");
        if !errors.is_empty() {
            return Err(errors);
        }
        let legend = legend?;
        let terrain = parse_rows(
            &Block::of(&source.text, &file.terrain),
            columns,
            rows,
            &legend,
            "terrain",
        )?;
        let digits = 2.max(columns.to_string().len()).max(rows.to_string().len());
        let mut map = HexMap {
            columns: columns as u16,
            rows: rows as u16,
            digits,
            lower: file.lower,
            words: words.terrain.iter().map(|w| w.to_string()).collect(),
            features: words.hexside.iter().map(|w| w.to_string()).collect(),
            terrain,
            sides: vec![[Features::default(); 6]; columns * rows],
        };
        if let Some(lines) = &file.hexsides {
            map.read_hexsides(&Block::of(&source.text, lines))?;
        }
        Ok(map)
    }

    /// Reads the hexside lines (`0304 n river road`), marking each side on both its hexes.
    fn read_hexsides(&mut self, block: &Block) -> Result<(), Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let mut offset = 0;
        for line in block.text.split('\n') {
            let start = offset;
            offset += line.len() + 1;
            let content = line.split('#').next().unwrap_or("");
            let tokens: Vec<(usize, &str)> = content
                .split([' ', '\t', '\r'])
                .scan(start, |at, t| {
                    let here = *at;
                    *at += t.len() + 1;
                    Some((here, t))
                })
                .filter(|(_, t)| !t.is_empty())
                .collect();
            let Some(&(hex_at, hex_id)) = tokens.first() else {
                continue;
            };
            let span = |at: usize, t: &str| block.locate(at..at + t.len());
            let hex = match self.parse_place(hex_id) {
                Ok(h) => h,
                Err(bad) => {
                    errors.push(
                        Diagnostic::error(bad.message, span(hex_at, hex_id)).maybe_hint(bad.hint),
                    );
                    continue;
                }
            };
            let Some(&(side_at, side_name)) = tokens.get(1) else {
                errors.push(
                    Diagnostic::error(format!("hexside of {hex_id} names no side"), span(hex_at, hex_id))
                        .hint("write the hex, its side (n, ne, se, s, sw, nw) and the features: `0304 n river`"),
                );
                continue;
            };
            let Some(side) = Side::parse(side_name) else {
                errors.push(
                    Diagnostic::error(
                        format!("'{side_name}' is not a side of a hex"),
                        span(side_at, side_name),
                    )
                    .hint("the sides of a hex are n, ne, se, s, sw, nw"),
                );
                continue;
            };
            if tokens.len() < 3 {
                errors.push(
                    Diagnostic::error(
                        format!("hexside {hex_id} {side_name} has no feature"),
                        span(side_at, side_name),
                    )
                    .hint(format!("the features: {}", self.features.join(", "))),
                );
            }
            let mut bits = 0u8;
            for &(at, word) in &tokens[2..] {
                match self.features.iter().position(|f| f == word) {
                    Some(code) => bits |= 1 << code,
                    None => errors.push(
                        Diagnostic::error(
                            format!("unknown hexside feature '{word}'"),
                            span(at, word),
                        )
                        .hint(
                            match did_you_mean(word, self.features.iter().map(|f| f.as_str())) {
                                Some(f) => format!("did you mean '{f}'?"),
                                None => format!(
                                    "the features of this ruleset: {}",
                                    self.features.join(", ")
                                ),
                            },
                        ),
                    ),
                }
            }
            self.mark(hex, side, bits);
            if errors.len() >= 12 {
                break;
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Adds features to a side, seen from both hexes.
    fn mark(&mut self, hex: Hex, side: Side, bits: u8) {
        let i = self.index(hex);
        self.sides[i][side as usize].0 |= bits;
        if let Some(n) = self.neighbour(hex, side) {
            let j = self.index(n);
            self.sides[j][side.opposite() as usize].0 |= bits;
        }
    }

    fn index(&self, hex: Hex) -> usize {
        hex.row as usize * self.columns as usize + hex.col as usize
    }

    pub fn columns(&self) -> u16 {
        self.columns
    }

    pub fn rows(&self) -> u16 {
        self.rows
    }

    /// Whether this column stands half a hex lower than its neighbours.
    fn is_lower(&self, col: u16) -> bool {
        let one_based_even = col % 2 == 1;
        match self.lower {
            Lower::Even => one_based_even,
            Lower::Odd => !one_based_even,
        }
    }

    /// The hex across a side, if it is on the map.
    pub fn neighbour(&self, hex: Hex, side: Side) -> Option<Hex> {
        let (c, r) = (hex.col as i32, hex.row as i32);
        let low = self.is_lower(hex.col) as i32;
        let (dc, dr) = match side {
            Side::N => (0, -1),
            Side::S => (0, 1),
            Side::NE => (1, low - 1),
            Side::SE => (1, low),
            Side::NW => (-1, low - 1),
            Side::SW => (-1, low),
        };
        let (c, r) = (c + dc, r + dr);
        (c >= 0 && r >= 0 && c < self.columns as i32 && r < self.rows as i32).then_some(Hex {
            col: c as u16,
            row: r as u16,
        })
    }

    /// The side of `a` that `b` lies across, if they are neighbours.
    pub fn side_between(&self, a: Hex, b: Hex) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|&s| self.neighbour(a, s) == Some(b))
    }

    /// The features of a hex's side.
    pub fn features(&self, hex: Hex, side: Side) -> Features {
        self.sides[self.index(hex)][side as usize]
    }

    /// The feature words of a hex's side, in the ruleset's order.
    pub fn feature_words(&self, hex: Hex, side: Side) -> Vec<&str> {
        let f = self.features(hex, side);
        (0..self.features.len())
            .filter(|&c| f.has(c))
            .map(|c| self.features[c].as_str())
            .collect()
    }

    /// Whether the side of `hex` has the feature `word` (WBTS: "river", "ferry"...).
    pub fn has_feature(&self, hex: Hex, side: Side, word: &str) -> bool {
        self.features
            .iter()
            .position(|f| f == word)
            .is_some_and(|c| self.features(hex, side).has(c))
    }
}

impl Topology for HexMap {
    type Place = Hex;

    fn parse_place(&self, text: &str) -> Result<Hex, BadPlace> {
        let d = self.digits;
        let example = self.place_name(Hex { col: 0, row: 0 });
        if text.len() != 2 * d || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(BadPlace::new(
                format!("'{text}' is not a hex id"),
                format!("a hex id is its column then its row, {d} digits each: {example}"),
            ));
        }
        let col: u32 = text[..d].parse().unwrap_or(0);
        let row: u32 = text[d..].parse().unwrap_or(0);
        if col == 0 || row == 0 || col > self.columns as u32 || row > self.rows as u32 {
            let last = self.place_name(Hex {
                col: self.columns - 1,
                row: self.rows - 1,
            });
            return Err(BadPlace::new(
                format!("hex {text} is off the map"),
                format!("the hexes run from {example} to {last}"),
            ));
        }
        Ok(Hex {
            col: (col - 1) as u16,
            row: (row - 1) as u16,
        })
    }

    fn place_name(&self, hex: Hex) -> String {
        format!(
            "{:0d$}{:0d$}",
            hex.col as u32 + 1,
            hex.row as u32 + 1,
            d = self.digits
        )
    }

    /// The hexes across the six sides, clockwise from the top, those on the map.
    fn neighbours(&self, hex: Hex) -> Vec<Hex> {
        Side::ALL
            .into_iter()
            .filter_map(|s| self.neighbour(hex, s))
            .collect()
    }

    fn terrain(&self, hex: Hex) -> &str {
        &self.words[self.terrain[self.index(hex)] as usize]
    }

    fn places(&self) -> Vec<Hex> {
        (0..self.columns)
            .flat_map(|col| (0..self.rows).map(move |row| Hex { col, row }))
            .collect()
    }

    /// Flat-topped hexes: columns 26 apart, rows 30 apart, a lower column half a row down.
    fn picture_xy(&self, hex: Hex) -> [i32; 2] {
        let low = if self.is_lower(hex.col) { 15 } else { 0 };
        [26 * hex.col as i32, 30 * hex.row as i32 + low]
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
