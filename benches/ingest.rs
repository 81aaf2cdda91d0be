//! `pbem ingest` of a mailbox of 10, 100 and 1,000 messages (the orders of 24 powers, resent), each
//! run into a fresh copy of the game, beside its floor (read and parse the mailbox, store every
//! message): `cargo bench --bench ingest`.

mod common;

use divan::counter::ItemsCount;
use divan::Bencher;

fn main() {
    divan::main();
}

#[divan::bench(args = common::MESSAGES, sample_count = 5, sample_size = 1)]
fn ingest(bencher: Bencher, messages: usize) {
    let (files, mbox) = common::mail_game(messages);
    bencher
        .counter(ItemsCount::new(messages))
        .with_inputs(|| common::fresh_copy(&files, "ingest-divan"))
        .bench_values(|dir| common::ingest(&dir, &mbox));
}

#[divan::bench(args = common::MESSAGES, sample_count = 5, sample_size = 1)]
fn ingest_floor(bencher: Bencher, messages: usize) {
    let (files, mbox) = common::mail_game(messages);
    bencher
        .counter(ItemsCount::new(messages))
        .with_inputs(|| common::fresh_copy(&files, "ingest-divan-floor"))
        .bench_values(|dir| common::ingest_floor(&dir, &mbox));
}
