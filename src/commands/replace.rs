//! `pbem replace`: a new player takes over a power at the next economic phase (EiA 19.2.2).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::acts::{self, Act};
use crate::game::fsio::GameLock;
use crate::game::Game;

/// Hand a power to a new player at the next economic phase (EiA 19.2.2), with a fresh password.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem replace games/my-game britain --email pitt@example.org"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// The power that gets a new player.
    pub power: String,
    /// The new player's address (repeat for several).
    #[arg(long, required = true)]
    pub email: Vec<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    for e in &args.email {
        if e.parse::<lettre::Address>().is_err() {
            anyhow::bail!("--email '{e}' is not an e-mail address: write it as name@example.org (nothing was changed)");
        }
    }
    let game = Game::load(&args.game)?;
    let _lock = GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    let mut state = game.load_state(turn)?;
    let (password, from) =
        crate::engine::players::replace_player(&game, &mut state, &args.power, &args.email)?;
    // The password first, on stdout or else in passwords.txt (`out::show_passwords`): when it can be
    // neither, nothing is changed.
    crate::say!(
        "{} passes to {} at turn {from}, after the next economic phase (EiA 19.2.2).",
        args.power,
        args.email.join(", ")
    );
    let text = format!(
        "{} from turn {from}: the new player's password, shown this once (pbem keeps only its hash): {password}\n",
        args.power
    );
    let shown = crate::out::show_passwords(&game.dir, &text).map_err(|e| {
        anyhow::anyhow!("the new password could neither be printed nor kept ({e}): nothing was changed, run `pbem replace` again")
    })?;
    // An act on the turn, not an edit of its state (which the last turn's record lists).
    acts::append(
        &game,
        turn,
        Act {
            kind: "replace".into(),
            rule: crate::engine::players::REPLACED.cite(),
            text: format!(
                "{} passes to {} at turn {from}",
                args.power,
                args.email.join(", ")
            ),
            power: Some(args.power.clone()),
            controlled: state.controlled.get(&args.power).cloned(),
            incoming: state.incoming.get(&args.power).cloned(),
            ..Act::default()
        },
    )?;
    crate::say!(
        "Alliances the power has then may not be broken before turn {}.",
        from + 3
    );
    Ok(match shown {
        crate::out::PasswordsShown::Printed => ExitCode::SUCCESS,
        crate::out::PasswordsShown::Kept(_) => ExitCode::from(super::exit::ERROR),
    })
}
