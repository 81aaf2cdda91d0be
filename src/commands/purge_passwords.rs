//! `pbem purge-passwords`: no password in clear at rest in a game made before pbem filed orders
//! without them (issue 15.10).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;

/// Remove the passwords pbem kept in clear in a game made before it filed orders without them.
///
/// Makes the raw archive (`mail/inbox/`) private (the folder 0700, each file in it 0600) and rewrites
/// the current turn's orders filed from mail with a `submission` line in place of the password.
/// Orders files of resolved turns are inputs of their turn records (`pbem audit` re-reads them):
/// they are listed, not changed. Files put in place by hand keep their password line, which the
/// turn needs.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem purge-passwords ~/games/ulm"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    // Another act killed midway is finished first; one of its own is finished by this run.
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    if !crate::mail::ingest::purge_plan_path(&game, turn).is_file() {
        crate::referee::underway::refuse(&game, "no password is purged", "")?;
    }
    let purged = crate::mail::ingest::purge_passwords(&game)?;
    crate::say!(
        "The raw archive {} is private ({} message(s), each file mode 0600).",
        game.printed(&crate::mail::ingest::inbox_dir(&game)),
        purged.archived
    );
    for p in &purged.rewritten {
        crate::say!("  rewritten without its password: {}", game.printed(p));
    }
    for p in &purged.by_hand {
        crate::say!(
            "  kept (put there by hand; the turn needs its password line): {}",
            game.printed(p)
        );
    }
    for p in &purged.resolved {
        crate::say!(
            "  kept (an input of a resolved turn's record): {}",
            game.printed(p)
        );
    }
    Ok(ExitCode::SUCCESS)
}
