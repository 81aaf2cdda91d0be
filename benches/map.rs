//! Loading a GITM-sized grid map (1.1: 120x80 strategic squares; 2.1: a 15x15 tactical map under
//! each, 2,160,000 tactical squares with terrain and rating) from its compact file, beside its floor
//! (the same file parsed as TOML into its typed tables, no rows read): `cargo bench --bench map`.
//! The file is `synth::map::grid_map`, made once before the timing.

use divan::Bencher;
use pbem::diag::Source;
use pbem::game::map::grid::GridFile;
use pbem::game::map::{AnyMap, GridMap};
use pbem::synth::map::{gitm_vocabulary, grid_map};

fn main() {
    divan::main();
}

fn gitm_source() -> Source {
    Source::new("gitm/map.toml", grid_map(120, 80, 15))
}

/// `GridMap::load`: TOML, the legend, terrain and rating rows into one byte per tactical square.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn grid_120x80_sub_15(bencher: Bencher) {
    let source = gitm_source();
    let words = gitm_vocabulary();
    bencher.bench(|| GridMap::load(&source, &words).map(|m| m.columns()));
}

/// `AnyMap::load`, as a game folder's map would be read: the kind probed first, then the grid.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn any_map_120x80_sub_15(bencher: Bencher) {
    let source = gitm_source();
    let words = gitm_vocabulary();
    bencher.bench(|| AnyMap::load(&source, &[], &words).is_ok());
}

/// The floor: the TOML parsed into the file's tables, the rows left as strings.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn grid_120x80_sub_15_floor(bencher: Bencher) {
    let source = gitm_source();
    bencher.bench(|| pbem::game::load::parse_toml::<GridFile>(&source).is_ok());
}
