//! `pbem check`: check an orders file against the game before mailing it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::game::Game;

use super::exit;

/// Check an orders file: print each diagnostic as rustc does; exit 3 if any order is rejected.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem check games/my-game orders/france.txt",
    "pbem check --forecast games/my-game orders/france.txt"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// The orders file to check.
    pub orders: PathBuf,
    /// Also show what the orders would do if no enemy moved and no die were rolled, from what the
    /// power sees: where each unit ends, which combats it declares, which standing orders would fire.
    #[arg(long)]
    pub forecast: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let turn = game.current_turn()?;
    let state = game.load_state(turn)?;
    let bytes = std::fs::read(&args.orders)
        .with_context(|| format!("cannot read {}", args.orders.display()))?;
    let shown = args.orders.display().to_string();
    let (source, check) = crate::rules::check_file(&game, &state, &shown, &bytes);
    match &check.power {
        Some(p) => crate::say!(
            "{shown}: orders of {p}{} for turn {turn} of {}",
            check
                .player
                .as_ref()
                .map_or(String::new(), |id| format!(", player {id},")),
            game.config.game
        ),
        None => crate::say!(
            "{shown}: not authenticated for game {} turn {turn}",
            game.config.game
        ),
    }
    if !check.accepted.is_empty() {
        crate::say!("accepted:");
        for (line, text) in &check.accepted {
            crate::say!("  line {line}: {text}");
        }
    }
    if let Some(e) = &check.entropy {
        crate::say!(
            "entropy: \"{e}\"  E_p = {}",
            crate::dice::to_hex(&crate::dice::entropy(e))
        );
    }
    if !check.diagnostics.is_empty() {
        let colour = crate::out::colour_on_stdout();
        let text = source.render_for_terminal(&check.diagnostics, colour);
        if colour {
            crate::out::stdout_styled(&text);
        } else {
            crate::say_inline!("{text}");
        }
    }
    if args.forecast {
        match &check.power {
            Some(p) => {
                let lines = game.ruleset.forecast(&game, &state, &source, p);
                crate::say!();
                if lines.is_empty() {
                    crate::say!("{} has no forecast yet.", game.ruleset.name());
                }
                for line in lines {
                    crate::say!("{line}");
                }
                crate::say!();
            }
            None => crate::say!("no forecast: the orders are not authenticated"),
        }
    }
    let rejected = check.rejected();
    if rejected > 0 {
        crate::say!("{rejected} problem(s): the lines above are rejected; the other orders stand.");
        Ok(ExitCode::from(exit::REJECTED))
    } else {
        crate::say!("all {} order(s) accepted.", check.accepted.len());
        Ok(ExitCode::SUCCESS)
    }
}
