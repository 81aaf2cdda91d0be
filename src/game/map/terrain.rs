//! Terrain words. The area maps of EiA and PoG read the closed `Terrain` enum of `map.toml`; the
//! compact maps (hex and grid) hold terrain as codes into the words a ruleset reads (`Vocabulary`),
//! named by a per-file legend of one character per word.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::diag::{did_you_mean, Diagnostic};

/// The terrain of an area of `map.toml`: the words EiA and PoG read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    #[default]
    Clear,
    Forest,
    Hills,
    Mountain,
    Marsh,
    Swamp,
    Desert,
}

impl Terrain {
    /// The terrain a word names, if it is one of these.
    pub fn from_name(word: &str) -> Option<Terrain> {
        [
            Terrain::Clear,
            Terrain::Forest,
            Terrain::Hills,
            Terrain::Mountain,
            Terrain::Marsh,
            Terrain::Swamp,
            Terrain::Desert,
        ]
        .into_iter()
        .find(|t| t.name() == word)
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Clear => "clear",
            Terrain::Forest => "forest",
            Terrain::Hills => "hills",
            Terrain::Mountain => "mountain",
            Terrain::Marsh => "marsh",
            Terrain::Swamp => "swamp",
            Terrain::Desert => "desert",
        }
    }
}

/// What a ruleset reads from a compact map: its terrain words, its hexside features, its sub-grid's
/// words and ratings, and which terrain closes a diagonal between two squares. A map file may use only
/// these words; the ruleset owns them (and cites its rules for them).
#[derive(Debug, Clone, Copy, Default)]
pub struct Vocabulary<'a> {
    /// Terrain of a hex or of a square of the main grid (at most 32 words).
    pub terrain: &'a [&'a str],
    /// Hexside features (at most 8 words): river, ferry, road...
    pub hexside: &'a [&'a str],
    /// Terrain of a square of the sub-grid (at most 32 words).
    pub sub_terrain: &'a [&'a str],
    /// The highest rating a sub-grid square may have (at most 7); 0 when the map has no ratings.
    pub max_rating: u8,
    /// Terrain that, on both squares beside a diagonal step of a grid, closes that diagonal.
    pub corner_blockers: &'a [&'a str],
    /// Sub-grid terrain that draws lines joining across the edges of neighbouring sub-grids (GITM
    /// 2.3: rivers and their fords): one on an edge must meet one of these, or of `sub_line_ends`,
    /// across it.
    pub sub_lines: &'a [&'a str],
    /// Sub-grid terrain a line may run into at an edge (a river into the sea).
    pub sub_line_ends: &'a [&'a str],
}

/// The most words a terrain code may hold: five bits, so that a sub-grid square is one byte with its
/// rating.
pub const MAX_TERRAIN_WORDS: usize = 32;
/// The most hexside features: one bit each in a byte.
pub const MAX_HEXSIDE_WORDS: usize = 8;
/// A character no legend names.
pub(crate) const UNKNOWN: u8 = u8::MAX;

/// A legend of a compact file: one character per word, as a lookup table of bytes to codes.
#[derive(Debug, Clone)]
pub(crate) struct Legend {
    pub lut: [u8; 256],
    /// The legend as a hint shows it: `'.' open, 'h' hills`.
    pub shown: String,
}

impl Legend {
    /// Builds the legend of a `[legend]` table (`"." = "open"`): each key one printable ASCII
    /// character, each word one of `words` (the ruleset's). `what` names the table in messages.
    pub fn new(
        table: &BTreeMap<Spanned<String>, Spanned<String>>,
        words: &[&str],
        what: &str,
    ) -> Result<Legend, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let mut lut = [UNKNOWN; 256];
        let mut shown = Vec::new();
        if words.len() > MAX_TERRAIN_WORDS {
            errors.push(Diagnostic::error(
                format!(
                    "the ruleset reads {} words for {what}; a compact map holds at most {MAX_TERRAIN_WORDS}",
                    words.len()
                ),
                0..0,
            ));
        }
        if table.is_empty() {
            errors.push(
                Diagnostic::error(format!("{what} has no legend"), 0..0).hint(format!(
                    "add a [legend] table: one character per word, e.g. \".\" = \"{}\"",
                    words.first().unwrap_or(&"open")
                )),
            );
        }
        for (key, word) in table {
            let k = key.get_ref().as_bytes();
            if k.len() != 1 || !k[0].is_ascii_graphic() || k[0] == b'#' {
                errors.push(
                    Diagnostic::error(
                        format!("legend key '{}' is not one character", key.get_ref()),
                        key.span(),
                    )
                    .hint("each legend key is one printable ASCII character other than '#', e.g. \".\" or \"h\""),
                );
                continue;
            }
            match words.iter().position(|w| *w == word.get_ref().as_str()) {
                Some(code) => {
                    lut[k[0] as usize] = code as u8;
                    shown.push(format!("'{}' {}", k[0] as char, word.get_ref()));
                }
                None => errors.push(
                    Diagnostic::error(
                        format!("'{}' is not a terrain word of this ruleset", word.get_ref()),
                        word.span(),
                    )
                    .hint(
                        match did_you_mean(word.get_ref(), words.iter().copied()) {
                            Some(w) => format!("did you mean '{w}'?"),
                            None => format!("the words for {what}: {}", words.join(", ")),
                        },
                    ),
                ),
            }
        }
        if errors.is_empty() {
            Ok(Legend {
                lut,
                shown: shown.join(", "),
            })
        } else {
            Err(errors)
        }
    }

    /// The legend of a digit row: '0' to `max`, each its own value.
    pub fn digits(max: u8) -> Legend {
        let mut lut = [UNKNOWN; 256];
        for d in 0..=max.min(9) {
            lut[(b'0' + d) as usize] = d;
        }
        Legend {
            lut,
            shown: format!("the digits 0 to {max}"),
        }
    }
}

/// Hexside features as bits of a byte, in the order of the ruleset's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Features(pub u8);

impl Features {
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the feature with this code (its index among the ruleset's hexside words) is there.
    pub fn has(self, code: usize) -> bool {
        code < 8 && self.0 & (1 << code) != 0
    }
}
