//! `pbem resolve`: resolve the current turn (or `--turn N --force` again).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::game::Game;
use crate::referee::turn::{resolve, ResolveOptions};

/// Resolve a turn from the accepted orders: movement, combats, state, log, record and reports.
///
/// Before the turn's deadline it refuses while a power due has no orders in (it names them), unless
/// `--early` is given.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem resolve games/my-game",
    "pbem resolve games/my-game --turn 3 --force",
    "pbem resolve games/my-game --beacon 657413:b713718a...cd97b"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// The turn to resolve (default: the current one).
    #[arg(long)]
    pub turn: Option<u32>,
    /// Resolve again a turn that is already resolved; the files come out byte for byte the same.
    /// Only the last resolved turn: an earlier one is played again after `pbem rollback`.
    #[arg(long)]
    pub force: bool,
    /// The public beacon of a game that draws one (`[dice] beacon = "drand-quicknet"`): the first
    /// drand quicknet round after the deadline and its signature, hex. pbem checks the signature
    /// offline against the chain's public key and keeps it in `turns/<t>/beacon.toml`.
    #[arg(long, value_name = "ROUND:SIG")]
    pub beacon: Option<String>,
    /// Resolve before the deadline although a power due has no orders in.
    #[arg(long)]
    pub early: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let turn = match args.turn {
        Some(t) => t,
        None => game.current_turn()?,
    };
    crate::engine::due::check_due(&game, turn, args.early)?;
    if let Some(b) = &args.beacon {
        if game.config.dice.beacon.is_none() {
            anyhow::bail!("{} draws no beacon: --beacon is for games with `[dice] beacon = \"drand-quicknet\"`", game.config.game);
        }
        let (round, sig) = crate::dice::beacon::parse_arg(b)?;
        let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
        crate::dice::beacon::record(&game, turn, round, &sig)?;
    }
    let outcome = resolve(
        &game,
        &ResolveOptions {
            turn: args.turn,
            force: args.force,
            ..ResolveOptions::default()
        },
    )?;
    super::print_outcome(&game, &outcome);
    Ok(ExitCode::SUCCESS)
}
