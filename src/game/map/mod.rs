//! The map of a game, of one of three kinds behind one abstraction (`Topology`: name a place, print
//! it back, its neighbours, its terrain):
//!
//! - `areas.rs`: named areas with explicit adjacency (`map.toml` of EiA and PoG: `[[area]]` tables);
//! - `hex.rs`: hex grids with hexside features (WBTS, NGG), from terrain rows and hexside lines;
//! - `grid.rs`: square grids with implicit adjacency (GITM 1.1, 7.4) and an optional sub-grid under
//!   every square (`sub_grid.rs`: GITM 2.1-2.4), from terrain rows.
//!
//! `terrain.rs` holds the terrain words (the area maps' closed `Terrain`, and the `Vocabulary` a
//! ruleset gives the compact kinds), `rows.rs` reads terrain rows with located errors. `AnyMap` loads a
//! file of any kind: a compact file says `kind = "hex"` or `kind = "grid"` at its top.

pub mod areas;
pub mod grid;
pub mod hex;
pub(crate) mod rows;
pub mod sub_grid;
pub mod terrain;

use serde::Deserialize;
use toml::Spanned;

pub use areas::{Area, AreaFile, AreaKind, City, DottedFile, Map, MapFile};
pub use grid::GridMap;
pub use hex::HexMap;
pub use terrain::{Terrain, Vocabulary};

use crate::diag::{Diagnostic, FileError, Source};
use crate::game::load;

/// What every kind of map answers: its places named and printed back, their neighbours and terrain.
pub trait Topology {
    /// A place of the map: an area's index, a hex, a square.
    type Place: Copy + Ord + std::fmt::Debug;

    /// The place a player's word names (`Ulm`, `0304`, `G7-V8`), or why it names none.
    fn parse_place(&self, text: &str) -> Result<Self::Place, BadPlace>;

    /// The place's name as the map's files and orders write it; `parse_place` reads it back.
    fn place_name(&self, place: Self::Place) -> String;

    /// The places one step away, in a fixed order.
    fn neighbours(&self, place: Self::Place) -> Vec<Self::Place>;

    /// The place's terrain word.
    fn terrain(&self, place: Self::Place) -> &str;

    /// Every place of the map, in a fixed order (an area map's file order; hexes and squares
    /// column by column).
    fn places(&self) -> Vec<Self::Place>;

    /// Where the place stands on the map's picture (x right, y down), in any unit: the reports scale
    /// the picture to fit.
    fn picture_xy(&self, place: Self::Place) -> [i32; 2];
}

/// Why a word names no place of the map; the hint says what would.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPlace {
    pub message: String,
    pub hint: Option<String>,
}

impl BadPlace {
    pub(crate) fn new(message: impl Into<String>, hint: impl Into<String>) -> BadPlace {
        BadPlace {
            message: message.into(),
            hint: Some(hint.into()),
        }
    }
}

impl std::fmt::Display for BadPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if let Some(h) = &self.hint {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

/// A map file of any kind, loaded and checked.
#[derive(Debug, Clone)]
pub enum AnyMap {
    Areas(Map),
    Hex(HexMap),
    Grid(GridMap),
}

/// The kind of a map file, as its `kind` key says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Areas,
    Hex,
    Grid,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Areas => "area",
            Kind::Hex => "hex",
            Kind::Grid => "grid",
        }
    }

    /// The kind of a map file: `kind = "hex"` or `"grid"`; an area map (`[[area]]` tables) has
    /// none. Also returns where the key stands, for messages.
    pub fn of(source: &Source) -> Result<(Kind, std::ops::Range<usize>), FileError> {
        let probe: KindProbe = load::parse_toml(source)?;
        let Some(kind) = probe.kind else {
            return Ok((Kind::Areas, 0..0));
        };
        Kind::named(source, kind.get_ref(), kind.span())
    }

    /// [`Kind::of`] from the file's document, already parsed ([`load::parse_document`]): the map is
    /// then read from the same document, not parsed again.
    pub fn of_document(
        source: &Source,
        document: &load::Document<'_>,
    ) -> Result<(Kind, std::ops::Range<usize>), FileError> {
        match document.get_ref().get("kind") {
            None => Ok((Kind::Areas, 0..0)),
            Some(kind) => match kind.get_ref() {
                toml::de::DeValue::String(name) => Kind::named(source, name, kind.span()),
                // Not a string: the reader's own message for it.
                _ => Kind::of(source),
            },
        }
    }

    fn named(
        source: &Source,
        name: &str,
        at: std::ops::Range<usize>,
    ) -> Result<(Kind, std::ops::Range<usize>), FileError> {
        match name {
            "hex" => Ok((Kind::Hex, at)),
            "grid" => Ok((Kind::Grid, at)),
            other => Err(FileError::new(
                source,
                &Diagnostic::error(format!("unknown kind of map '{other}'"), at).hint(
                    "kind is \"hex\" or \"grid\"; an area map (`[[area]]` tables) has no kind",
                ),
            )),
        }
    }
}

/// The top of a map file, read first to choose its kind.
#[derive(Deserialize)]
struct KindProbe {
    kind: Option<Spanned<String>>,
}

impl AnyMap {
    /// The map as the engine sees it: areas. A map of areas is itself; a hex or grid map gives one
    /// area per hex or square (`Map::view_of`).
    pub fn areas_view(&self) -> Map {
        match self {
            AnyMap::Areas(m) => m.clone(),
            AnyMap::Hex(m) => Map::view_of(m),
            AnyMap::Grid(m) => Map::view_of(m),
        }
    }

    /// The terrain word of the area at `index` of [`AnyMap::areas_view`] (the places in their
    /// order, column by column), as the map file names it: "rough", "town", "hill" (the closed
    /// `Terrain` of the areas view drops the words it lacks). For a map of areas, the area's terrain.
    pub fn terrain_word(&self, index: usize) -> Option<&str> {
        fn at(columns: u16, rows: u16, index: usize) -> Option<(u16, u16)> {
            let rows = usize::from(rows);
            (rows > 0 && index < usize::from(columns) * rows)
                .then(|| ((index / rows) as u16, (index % rows) as u16))
        }
        match self {
            AnyMap::Areas(m) => m.areas.get(index).map(|a| a.terrain.name()),
            AnyMap::Hex(m) => {
                at(m.columns(), m.rows(), index).map(|(col, row)| m.terrain(hex::Hex { col, row }))
            }
            AnyMap::Grid(m) => at(m.columns(), m.rows(), index)
                .map(|(col, row)| m.terrain(grid::Square { col, row })),
        }
    }

    /// Loads a map file: `kind = "hex"` or `kind = "grid"` for the compact kinds, read with the
    /// ruleset's `words`; without `kind`, the `[[area]]` tables of an area map, whose areas may name
    /// the `powers`.
    pub fn load(source: &Source, powers: &[&str], words: &Vocabulary) -> Result<AnyMap, FileError> {
        match Kind::of(source)?.0 {
            Kind::Areas => {
                let file: MapFile = load::parse_toml(source)?;
                Map::from_file(file, powers)
                    .map(AnyMap::Areas)
                    .map_err(|d| located(source, &d))
            }
            Kind::Hex => HexMap::load(source, words).map(AnyMap::Hex),
            Kind::Grid => GridMap::load(source, words).map(AnyMap::Grid),
        }
    }
}

/// The first error of `diagnostics`, located in `source`, with all of them rendered.
pub(crate) fn located(source: &Source, diagnostics: &[Diagnostic]) -> FileError {
    load::first_error(source, diagnostics)
        .unwrap_or_else(|| FileError::new(source, &Diagnostic::error("the map is not valid", 0..0)))
}

/// Checks that a declared size is within `1..=max`.
pub(crate) fn check_size(
    value: &Spanned<u32>,
    max: u32,
    what: &str,
    errors: &mut Vec<Diagnostic>,
) -> usize {
    let v = *value.get_ref();
    if v == 0 || v > max {
        errors.push(
            Diagnostic::error(format!("{what} is {v}"), value.span())
                .hint(format!("{what} is from 1 to {max}")),
        );
        0
    } else {
        v as usize
    }
}
