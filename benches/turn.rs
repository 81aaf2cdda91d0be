//! The turn, at 1,000, 10,000 and 100,000 units (one combat per ten units), each beside its floor
//! (see `common/mod.rs`): `cargo bench --bench turn`; `PBEM_BENCH_UNITS=1000,10000` for fewer sizes.
//! The table of BENCHMARKS.md comes from `cargo bench --bench table`.

mod common;

use divan::Bencher;

fn main() {
    divan::main();
}

#[divan::bench(args = common::sizes(), sample_count = 5, sample_size = 1)]
fn resolve(bencher: Bencher, units: usize) {
    let dir = common::game(units);
    bencher.bench(|| common::resolve(&dir));
}

#[divan::bench(args = common::sizes(), sample_count = 5, sample_size = 1)]
fn resolve_floor(bencher: Bencher, units: usize) {
    let dir = common::game(units);
    let outputs = common::outputs(&dir);
    bencher.bench(|| common::resolve_floor(&dir, &outputs));
}

#[divan::bench(args = common::sizes(), sample_count = 5, sample_size = 1)]
fn adjudicate(bencher: Bencher, units: usize) {
    let dir = common::game(units);
    bencher.bench(|| common::adjudicate(&dir));
}

#[divan::bench(args = common::sizes(), sample_count = 5, sample_size = 1)]
fn adjudicate_floor(bencher: Bencher, units: usize) {
    let dir = common::game(units);
    bencher.bench(|| common::load_inputs(&dir).2.len());
}

#[divan::bench(args = common::sizes(), sample_count = 5, sample_size = 1)]
fn audit(bencher: Bencher, units: usize) {
    let dir = common::game(units);
    bencher.bench(|| common::audit(&dir));
}

#[divan::bench(args = common::sizes(), sample_count = 5, sample_size = 1)]
fn audit_floor(bencher: Bencher, units: usize) {
    let dir = common::game(units);
    bencher.bench(|| common::audit_floor(&dir));
}

#[divan::bench(args = common::sizes(), sample_count = 5, sample_size = 1)]
fn render_all_reports(bencher: Bencher, units: usize) {
    let input = common::RenderInput::new(&common::game(units));
    bencher.bench_local(|| input.render_all());
}

#[divan::bench(args = common::sizes(), sample_count = 5, sample_size = 1)]
fn render_all_reports_floor(bencher: Bencher, units: usize) {
    let input = common::RenderInput::new(&common::game(units));
    bencher.bench_local(|| input.render_floor());
}
