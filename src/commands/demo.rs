//! `pbem demo`: unpack the bundled demo game and its sample orders, resolve turn 1, show the reports.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use crate::game::Game;
use crate::referee::turn::{resolve, ResolveOptions};

/// Resolve the first turn(s) of a bundled scenario with its sample orders and print where the reports
/// are: `ulm-1805` (Empires in Arms, the default), `pog-1914` and `pog-1915` (Paths of Glory: the two
/// fronts of 1914, and the other theatres of 1915), `ngg-smolensk-1812`
/// (Napoleon's Greatest Gamble), `wbts-peninsula-1862` (War Between the States) or `gitm-italy-1809`
/// (Gathered In Their Masses).
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem demo",
    "pbem demo --dir /tmp/ulm --turns 2",
    "pbem demo --game pog-1914 --turns 4",
    "pbem demo --game pog-1915 --turns 4",
    "pbem demo --game ngg-smolensk-1812 --turns 3",
    "pbem demo --game wbts-peninsula-1862 --turns 3",
    "pbem demo --game gitm-italy-1809 --turns 3"
))]
pub struct Args {
    /// Where to put the demo game (default: a new temporary folder).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// The bundled scenario to play.
    #[arg(long, default_value = "ulm-1805")]
    pub game: String,
    /// How many turns to resolve with the scenario's sample orders (ulm-1805 has orders for 2,
    /// pog-1914 and pog-1915 for 4 actions each, ngg-smolensk-1812 for 3, wbts-peninsula-1862 for 3 player turns,
    /// gitm-italy-1809 for 3).
    #[arg(long, default_value_t = 1)]
    pub turns: u32,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let dir = match args.dir {
        Some(d) => {
            if d.exists() && std::fs::read_dir(&d)?.next().is_some() {
                bail!("{} is not empty: give --dir a new folder", d.display());
            }
            d
        }
        None => tempfile::Builder::new()
            .prefix("pbem-demo-")
            .tempdir()?
            .keep(),
    };
    let game_dir = dir.join(&args.game);
    crate::bundled::write_scenario(&args.game, &game_dir)?;
    let game = Game::load(&game_dir)?;
    crate::say!(
        "Demo: {} ({}), game folder {}",
        game.config.title,
        game.ruleset.name(),
        game_dir.display()
    );
    let first = game.config.first_turn;
    for turn in first..first + args.turns.max(1) {
        if !crate::bundled::write_sample_orders(&args.game, &game_dir, turn)? && turn > first {
            crate::say!("The scenario has no sample orders for turn {turn}: the demo stops here.");
            break;
        }
        let outcome = resolve(
            &game,
            &ResolveOptions {
                by_schedule: true,
                ..ResolveOptions::default()
            },
        )?;
        super::print_outcome(&game, &outcome);
        let battles: Vec<&str> = outcome
            .events
            .iter()
            .filter(|e| e.kind == "combat")
            .filter_map(|e| e.area.as_deref())
            .collect();
        crate::say!("Battles: {}", battles.join(", "));
        crate::say!("Turn log: {}", game.log_path(outcome.turn).display());
    }
    let available = crate::bundled::sample_turns(&args.game, first);
    if args.turns.max(1) < available {
        crate::say!(
            "The scenario has sample orders for {available} turns: `pbem demo --game {} --turns {available}` plays them all.",
            args.game
        );
    }
    crate::say!(
        "The demo's dice secrets are public (secret/README.md): anyone can compute its dice. To play on in this folder, `pbem rekey {}` first; for a real game, `pbem new`.",
        game_dir.display()
    );
    crate::say!(
        "Next: read a report, then try `pbem status {}`.",
        game_dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
