//! `pbem check`: check an orders file against the game before mailing it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use crate::game::state::State;
use crate::game::Game;

use super::exit;

/// Check an orders file: print each diagnostic as rustc does; exit 3 if any order is rejected. A
/// player checks his orders from his last JSON report with `--report`, without the game folder.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem check games/my-game orders/france.txt",
    "pbem check --forecast games/my-game orders/france.txt",
    "pbem check --report france-turn-3.json orders.txt"
))]
pub struct Args {
    /// The game folder (the referee's); with --report, leave it out.
    #[arg(value_name = "GAME")]
    pub game: Option<PathBuf>,
    /// The orders file to check.
    #[arg(value_name = "ORDERS")]
    pub orders: Option<PathBuf>,
    /// Check from a player's last JSON report (`<power>.json`, as mailed to him) instead of the game
    /// folder: his units, what he sees, the map and the rules it carries. It cannot check the
    /// password (the referee does) nor what depends on units he does not see.
    #[arg(long, value_name = "REPORT_JSON")]
    pub report: Option<PathBuf>,
    /// Also show what the orders would do if no enemy moved and no die were rolled, from what the
    /// power sees: where each unit ends, which combats it declares, which standing orders would fire.
    #[arg(long)]
    pub forecast: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    match (&args.report, &args.game, &args.orders) {
        (Some(report), Some(orders), None) => from_report(report, orders, args.forecast),
        (None, Some(game), Some(orders)) => {
            let game = Game::load(game)?;
            let turn = game.current_turn()?;
            let state = game.load_state(turn)?;
            check(&game, &state, orders, args.forecast)
        }
        (Some(_), _, _) => bail!(
            "with --report, give only the orders file: pbem check --report <report.json> <orders.txt>"
        ),
        _ => bail!("give the game folder and the orders file: pbem check <game> <orders.txt>"),
    }
}

/// A player's own check: the game and state his JSON report carries (`report::for_check`).
fn from_report(report: &Path, orders: &Path, forecast: bool) -> Result<ExitCode> {
    let bytes =
        std::fs::read(report).with_context(|| format!("cannot read {}", report.display()))?;
    let rebuilt = crate::report::for_check::load(report, &bytes)?;
    crate::say!(
        "checking against {} (the report of {} for turn {}): not checked here are the password (the referee checks it) and what depends on units you do not see",
        report.display(),
        rebuilt.power,
        rebuilt.state.turn
    );
    check(&rebuilt.game, &rebuilt.state, orders, forecast)
}

/// Checks the orders file `orders` against `state` of `game` and prints what the check gives.
fn check(game: &Game, state: &State, orders: &Path, forecast: bool) -> Result<ExitCode> {
    let turn = state.turn;
    let bytes =
        std::fs::read(orders).with_context(|| format!("cannot read {}", orders.display()))?;
    let shown = orders.display().to_string();
    let (source, check) = crate::rules::check_file(game, state, &shown, &bytes);
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
    if forecast {
        match &check.power {
            Some(p) => {
                let lines = game.ruleset.forecast(game, state, &source, p);
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
    if check.power.is_none() {
        // No order of a file whose header is wrong stands, and its order lines are not read until
        // it is right (no answer lists a power's pieces to a file that has not given its password).
        crate::say!(
            "{rejected} problem(s): no order of this file stands until its header is right; its order lines are checked once it is."
        );
        return Ok(ExitCode::from(exit::REJECTED));
    }
    if rejected > 0 {
        crate::say!("{rejected} problem(s): the lines above are rejected; the other orders stand.");
        Ok(ExitCode::from(exit::REJECTED))
    } else {
        crate::say!("all {} order(s) accepted.", check.accepted.len());
        Ok(ExitCode::SUCCESS)
    }
}
