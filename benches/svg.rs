//! Each power's SVG map alone (`svg::render`, and the phone map a report mail draws as PNG,
//! `report::phone_map`), its view built beforehand: `cargo bench --bench svg`. The game is 1,000
//! powers x 100 units (`synth::Spec::per_power`), generated and resolved once under cargo's scratch
//! folder for benchmarks; `PBEM_BENCH_GAME=<folder>` measures a game folder whose turn 1 is resolved
//! instead. Prints the CPU time of this thread for all the maps, the median a power, and the SHA-256
//! of every map written one after the other, so that a change that must leave the pictures' bytes as
//! they were is seen to.

mod common;

use std::path::PathBuf;

use pbem::report::{self, svg};
use pbem::synth::{self, Spec};
use sha2::{Digest, Sha256};

fn main() {
    let dir = match std::env::var_os("PBEM_BENCH_GAME") {
        Some(dir) => PathBuf::from(dir),
        None => {
            let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-games/svg-1000x100");
            if !dir.join("turns/1/record.toml").exists() {
                let _ = std::fs::remove_dir_all(&dir);
                synth::write_game(&Spec::per_power(1_000, 100), &dir)
                    .expect("the synthetic game is written");
                common::resolve(&dir);
            }
            dir
        }
    };
    let input = common::RenderInput::new(&dir);
    let shared = report::TurnSight::new(&input.game, &input.after);
    let powers: Vec<String> = input.game.config.power_ids().map(str::to_string).collect();
    let views: Vec<_> = powers
        .iter()
        .map(|p| report::view::PowerView::build(&input.game, &input.input(p, &shared)))
        .collect();
    let rounds: usize = std::env::var("PBEM_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let mut digest = Sha256::new();
    for round in 0..rounds {
        for (name, phone) in [("whole", false), ("phone", true)] {
            let mut secs = Vec::with_capacity(views.len());
            let mut bytes = 0;
            for view in &views {
                let t = common::thread_cpu_seconds();
                let map = if phone {
                    report::phone_map(&input.game, &shared, view)
                } else {
                    svg::render(&input.game, &shared, view)
                };
                secs.push(common::thread_cpu_seconds() - t);
                bytes += map.len();
                if round == 0 {
                    digest.update(map.as_bytes());
                }
            }
            let all: f64 = secs.iter().sum();
            println!(
                "{name:5} maps of {} powers: {all:.3} s CPU, {:.2} ms a power (median), {bytes} bytes",
                views.len(),
                common::median(secs) * 1e3,
            );
        }
    }
    println!("sha256 of every map: {}", hex::encode(digest.finalize()));
}
