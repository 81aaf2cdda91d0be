//! Synthetic grid maps, for the map benchmark and tests: GITM's shape (1.1: 120x80 strategic squares,
//! columns A0..L9, rows S0..Z9; 2.1: a 15x15 tactical map under each), with terrain drawn from the
//! squares' coordinates alone, so the same sizes give the same bytes everywhere.

use std::fmt::Write as _;

/// The GITM words a synthetic map is written in: the ruleset owns them (`rules::gitm`).
pub use crate::rules::gitm::{
    vocabulary as gitm_vocabulary, TACTICAL_TERRAIN as GITM_TACTICAL, TERRAIN as GITM_TERRAIN,
};

/// A grid map file of `columns` x `rows` squares named from A0 and S0, with a `size` x `size`
/// sub-grid under every square (`size` 0: none). Rivers run along whole rows of the sub-grid (none
/// on a tactical map's top or bottom row), so they join across the edges of the tactical maps (GITM
/// 2.3), with a ford every 40 squares.
pub fn grid_map(columns: usize, rows: usize, size: usize) -> String {
    let (w, h) = (columns * size, rows * size);
    let mut out = String::with_capacity(2 * (w + 1) * h + (columns + 1) * rows + 512);
    let _ = write!(
        out,
        "kind = \"grid\"\ncolumns = {columns}\nrows = {rows}\ncolumn_names = \"A0\"\nrow_names = \"S0\"\nterrain = '''\n"
    );
    for r in 0..rows {
        for c in 0..columns {
            out.push(b".~hfmHs"[(c * 7 + r * 13) % 23 % 7] as char);
        }
        out.push('\n');
    }
    out.push_str("'''\n[legend]\n\".\" = \"open\"\n\"~\" = \"water\"\n\"h\" = \"hill\"\n\"f\" = \"forest\"\n\"m\" = \"mountain\"\n\"H\" = \"high mountain\"\n\"s\" = \"swamp\"\n");
    if size == 0 {
        return out;
    }
    let _ = write!(out, "[sub]\nsize = {size}\nterrain = '''\n");
    for y in 0..h {
        // Never along a tactical map's edge: a river there would need one across it too (2.3).
        let river = y % 37 == 5 && y % size != 0 && y % size != size - 1;
        for x in 0..w {
            let ch = if river {
                if x % 40 == 7 {
                    '='
                } else {
                    '~'
                }
            } else {
                b"..hHmpwfft.."[(x * 31 + y * 17) % 29 % 12] as char
            };
            out.push(ch);
        }
        out.push('\n');
    }
    out.push_str("'''\nrating = '''\n");
    for y in 0..h {
        for x in 0..w {
            out.push((b'0' + ((x * 7 + y * 3) % 5) as u8) as char);
        }
        out.push('\n');
    }
    out.push_str("'''\n[sub.legend]\n\".\" = \"open\"\n\"h\" = \"hills\"\n\"H\" = \"high hills\"\n\"~\" = \"river\"\n\"=\" = \"ford\"\n\"m\" = \"mountain\"\n\"p\" = \"pass\"\n\"w\" = \"water\"\n\"f\" = \"forest\"\n\"t\" = \"town\"\n");
    out
}
