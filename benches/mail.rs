//! The turn's report mail: `Outgoing::render_for` and `envelope::content_digest` for every power's
//! report (its text, HTML, JSON and SVG), as the turn's writer thread does them, on the synthetic
//! game of 1,000 powers of 10 units (issue 18), without the map's PNG: `cargo bench --bench mail`.

mod common;

use std::path::Path;

use divan::Bencher;
use pbem::game::config::GameConfig;
use pbem::game::Game;
use pbem::mail::envelope;
use pbem::mail::outbox::{Attached, Kind, Outgoing};
use pbem::synth::{self, Spec};

fn main() {
    divan::main();
}

/// The game's configuration and each power's report mail, from the reports turn 1 wrote.
fn report_mail() -> (GameConfig, Vec<Outgoing>) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bench-games")
        .join("mail-1000x10");
    let _ = std::fs::remove_dir_all(&dir);
    synth::write_game(&Spec::per_power(1_000, 10), &dir).expect("the synthetic game is written");
    let toml = dir.join("game.toml");
    let config = std::fs::read_to_string(&toml).expect("game.toml") + "\n[mail]\nmap_png = false\n";
    std::fs::write(&toml, config).expect("game.toml is written");
    common::resolve(&dir);
    let game = Game::load(&dir).expect("the game loads");
    let reports = game.reports_dir(1);
    let read = |id: &str, ext: &str| {
        std::fs::read_to_string(reports.join(format!("{id}.{ext}"))).expect("a report")
    };
    let attached = |id: &str, ext: &str, content_type: &str| Attached {
        name: format!("{}-turn1-{id}.{ext}", game.config.game),
        content_type: content_type.to_string(),
        bytes: read(id, ext).into_bytes(),
        inline: None,
    };
    let mail = game
        .config
        .powers
        .iter()
        .map(|p| Outgoing {
            kind: Kind::Report,
            turn: 1,
            power: Some(p.id.clone()),
            player: None,
            key: String::new(),
            to: p.addresses_at(1),
            subject: format!("[{}] turn 1: report for {}", game.config.game, p.name),
            text: read(&p.id, "txt"),
            html: Some(read(&p.id, "html")),
            attachments: vec![
                attached(&p.id, "json", "application/json"),
                attached(&p.id, "svg", "image/svg+xml"),
            ],
            in_reply_to: None,
            date: chrono::DateTime::UNIX_EPOCH,
        })
        .collect();
    (game.config.clone(), mail)
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn render_and_digest_report_mail(bencher: Bencher) {
    let (config, mail) = report_mail();
    bencher.bench_local(|| {
        mail.iter()
            .map(|m| {
                let bytes = m.render_for(&config).expect("the mail renders");
                envelope::content_digest(&bytes).len() + bytes.len()
            })
            .sum::<usize>()
    });
}
