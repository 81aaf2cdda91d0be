//! The hex map as the WBTS rules read it: hexes by id (`0304`), their neighbours and terrain, and
//! the features of the hexside between two neighbours (river, tidal, estuary, ferry, road, bridge,
//! fortification).

use crate::game::map::hex::HexMap;
use crate::game::map::{Topology, Vocabulary};

/// The terrain words of a WBTS map: those its rules read (rough and city for retreats, water for
/// ships), and the ground's other kinds for movement costs.
pub const TERRAIN: &[&str] = &["clear", "forest", "rough", "city", "swamp", "water"];
/// The hexside features of a WBTS map.
pub const HEXSIDE: &[&str] = &[
    "river",
    "tidal",
    "estuary",
    "ferry",
    "road",
    "bridge",
    "fortification",
];

/// The words a WBTS map file may use.
pub const VOCABULARY: Vocabulary<'static> = Vocabulary {
    terrain: TERRAIN,
    hexside: HEXSIDE,
    sub_terrain: &[],
    max_rating: 0,
    corner_blockers: &[],
    sub_lines: &[],
    sub_line_ends: &[],
};

/// A hex map read by hex ids.
#[derive(Clone, Copy)]
pub struct Board<'a> {
    pub map: &'a HexMap,
}

impl<'a> Board<'a> {
    pub fn new(map: &'a HexMap) -> Self {
        Board { map }
    }

    /// The canonical id of the hex a word names, if it names one.
    pub fn hex(&self, text: &str) -> Option<String> {
        self.map
            .parse_place(text)
            .ok()
            .map(|h| self.map.place_name(h))
    }

    /// The neighbours of a hex, clockwise from the top.
    pub fn neighbours(&self, hex: &str) -> Vec<String> {
        match self.map.parse_place(hex) {
            Ok(h) => self
                .map
                .neighbours(h)
                .into_iter()
                .map(|n| self.map.place_name(n))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    pub fn adjacent(&self, a: &str, b: &str) -> bool {
        self.side(a, b).is_some()
    }

    fn side(
        &self,
        a: &str,
        b: &str,
    ) -> Option<(crate::game::map::hex::Hex, crate::game::map::hex::Side)> {
        let (ha, hb) = (self.map.parse_place(a).ok()?, self.map.parse_place(b).ok()?);
        self.map.side_between(ha, hb).map(|s| (ha, s))
    }

    pub fn terrain(&self, hex: &str) -> &str {
        self.map
            .parse_place(hex)
            .map_or("clear", |h| self.map.terrain(h))
    }

    /// Whether the hexside between neighbours `a` and `b` has the feature `word`.
    pub fn has(&self, a: &str, b: &str, word: &str) -> bool {
        self.side(a, b)
            .is_some_and(|(h, s)| self.map.has_feature(h, s, word))
    }

    /// What crossing from `a` into `b` does to an attack: none, a river (halved), a tidal river or
    /// an estuary at a ferry (halved rounding up), or one without ferry (no attack).
    pub fn crossing(&self, a: &str, b: &str) -> Crossing {
        if self.has(a, b, "tidal") || self.has(a, b, "estuary") {
            if self.has(a, b, "ferry") {
                Crossing::Ferry
            } else {
                Crossing::Closed
            }
        } else if self.has(a, b, "river") {
            Crossing::River
        } else {
            Crossing::Open
        }
    }
}

/// What a hexside does to an attack across it (WBTS ground/river, ground/ferry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Crossing {
    Open,
    River,
    Ferry,
    Closed,
}
