//! Writes a synthetic game folder (`pbem::synth`) that `pbem resolve` runs on: a grid map, N powers
//! of U units each, one combat per ten units, and every power's orders for turn 1.
//!
//! ```sh
//! cargo run --release --example synth -- /tmp/big --powers 1000 --units-per-power 10
//! pbem resolve /tmp/big
//! cargo run --release --example synth -- /tmp/mail --units-per-power 40 --messages 10000
//! pbem ingest /tmp/mail /tmp/mail/mail.mbox
//! ```
//!
//! The same arguments give the same bytes on every machine (`--seed` picks another game). The
//! passwords are light argon2 hashes, so that a measure of the turn does not measure them; each
//! power's password is in its orders file.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Parser;

use pbem::synth::{self, PasswordCost, Spec};

/// Writes a synthetic game folder with the orders of turn 1.
#[derive(Parser)]
#[command(name = "synth")]
struct Args {
    /// The game folder to write (created if needed; it must not hold a game yet).
    dir: PathBuf,
    /// Number of powers.
    #[arg(long, default_value_t = 24)]
    powers: usize,
    /// Units (corps and leaders) of each power.
    #[arg(long, default_value_t = 100)]
    units_per_power: usize,
    /// Combats the orders declare; one per ten units when not given.
    #[arg(long)]
    combats: Option<usize>,
    /// Leaders per power; one per ten units of a power when not given, 1 to 8 (as in EiA).
    #[arg(long)]
    leaders_per_power: Option<usize>,
    /// The seed of every choice the generator makes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Hash the passwords as `pbem new` does (slow to check) instead of lightly.
    #[arg(long)]
    real_passwords: bool,
    /// Mail each report's map as a PNG as well as an SVG (`[mail] map_png`); by default yes up to 100
    /// powers, no above (the PNG costs about 45 ms a power).
    #[arg(long)]
    map_png: Option<bool>,
    /// Also write `DIR/mail.mbox`: this many messages of the powers' orders, for `pbem ingest`.
    #[arg(long, default_value_t = 0)]
    messages: usize,
}

fn main() -> Result<()> {
    let a = Args::parse();
    if a.dir.join("game.toml").exists() {
        bail!(
            "{} already holds a game (game.toml): give an empty folder",
            a.dir.display()
        );
    }
    let mut spec = Spec::per_power(a.powers, a.units_per_power);
    spec.seed = a.seed;
    if let Some(c) = a.combats {
        spec.combats = c;
    }
    if let Some(l) = a.leaders_per_power {
        spec.leaders_per_power = l;
    }
    if a.real_passwords {
        spec.passwords = PasswordCost::Default;
    }
    spec.messages = a.messages;
    if let Some(png) = a.map_png {
        spec.map_png = png;
    }
    let files = synth::write_game(&spec, &a.dir)?;
    if a.messages > 0 {
        let mbox = a.dir.join("mail.mbox");
        std::fs::write(&mbox, synth::mbox(&spec, &files))?;
        println!(
            "ingest its mailbox with: pbem ingest {} {}",
            a.dir.display(),
            mbox.display()
        );
    }
    let s = files.summary;
    println!(
        "{}: {} powers, {} areas, {} corps, {} leaders, {} combats ({} by a move), {} order lines",
        a.dir.display(),
        spec.powers,
        s.areas,
        s.corps,
        s.leaders,
        s.combats,
        s.moves,
        s.order_lines
    );
    println!("resolve it with: pbem resolve {}", a.dir.display());
    Ok(())
}
