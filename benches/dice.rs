//! pbem-dice/v1 (`dice::Roller`): d6 per second from one stream, and labelled streams per second
//! (a SHA-256 and a ChaCha20 set-up each), at three sizes, beside their floors (the raw ChaCha20
//! `next_u32`; the label's SHA-256 alone): `cargo bench --bench dice`.

mod common;

use divan::counter::ItemsCount;
use divan::Bencher;

fn main() {
    divan::main();
}

#[divan::bench(args = [10_000, 100_000, 1_000_000])]
fn d6(bencher: Bencher, n: usize) {
    bencher
        .counter(ItemsCount::new(n))
        .bench(|| common::d6(divan::black_box(n)));
}

#[divan::bench(args = [10_000, 100_000, 1_000_000])]
fn d6_floor(bencher: Bencher, n: usize) {
    bencher
        .counter(ItemsCount::new(n))
        .bench(|| common::d6_floor(divan::black_box(n)));
}

#[divan::bench(args = [1_000, 10_000, 100_000])]
fn labels(bencher: Bencher, n: usize) {
    let labels = common::labels(n);
    bencher
        .counter(ItemsCount::new(n))
        .bench(|| common::labelled(&labels));
}

#[divan::bench(args = [1_000, 10_000, 100_000])]
fn labels_floor(bencher: Bencher, n: usize) {
    let labels = common::labels(n);
    bencher
        .counter(ItemsCount::new(n))
        .bench(|| common::labelled_floor(&labels));
}
