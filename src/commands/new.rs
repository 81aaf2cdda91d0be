//! `pbem new`: create a game folder from a scenario, with fresh passwords and dice secret.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

/// Create a new game from a scenario: fresh passwords for every power (for each player of a power with
/// several), a fresh dice secret for turn 1.
///
/// The game gets a nonce of its own (its Message-IDs and subject tags never meet another game's) and a
/// `.gitignore` that keeps `secret/` out of a repository.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem new ~/games/ulm-2026 --from games/ulm-1805",
    "pbem new ~/games/ulm-2026 --from ulm-1805   (the scenario built into pbem)",
    "pbem new ~/games/ulm --from ulm-1805 --title \"Ulm 1805, the club's autumn game\""
))]
pub struct Args {
    /// The folder to create (must not exist, or be empty).
    pub dir: PathBuf,
    /// The scenario: a game folder, or the name of a scenario built into pbem.
    #[arg(long)]
    pub from: PathBuf,
    /// The game's title, which every mail and report shows (default: the scenario's, without its
    /// demo mark).
    #[arg(long)]
    pub title: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    // A bundled scenario is unpacked to a temporary folder, removed when `new` is done.
    let mut _unpacked = None;
    let from = if args.from.join("game.toml").is_file() {
        args.from.clone()
    } else {
        let name = args
            .from
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = tempfile::Builder::new()
            .prefix("pbem-scenario-")
            .tempdir()?;
        let dir = tmp.path().join(&name);
        crate::bundled::write_scenario(&name, &dir)?;
        _unpacked = Some(tmp);
        dir
    };
    let existed = args.dir.exists();
    let created = crate::game::create::new_game(
        &from,
        &args.dir,
        args.title.as_deref(),
        &publish_first_turn,
    )?;
    let g = &created.game;
    if let Some(warning) = first_deadline_passed(g)? {
        crate::say_err!("warning: {warning}");
    }
    let mut text = format!(
        "Created game '{}' ({}) in {}.\n",
        g.config.game,
        g.config.title,
        args.dir.display()
    );
    text += &format!(
        "Turn {} dice commitment (publish it now): {}\n",
        g.config.first_turn, created.commitment
    );
    text +=
        "Passwords, shown this once (pbem stores only their hashes); send each to its player:\n";
    let w = crate::out::width(created.passwords.iter().map(|(p, _)| p.as_str()));
    for (power, password) in &created.passwords {
        text += &format!("  {power:<w$} {password}\n");
    }
    text += &format!(
        "Its mail is tagged [{}]: Message-IDs and subjects of no other game share it.\n",
        g.config.tag()
    );
    text += "secret/ holds the dice secrets: .gitignore keeps it out of a git repository.\n";
    text += "Each player's welcome (his password, the opening report, the order guide, his orders form) and\n\
             the commitment wait in mail/outbox/: edit the players' addresses (and [mail]) in game.toml,\n\
             then `pbem send` delivers them, and the welcomes keep no password once delivered.\n";
    show_or_keep(&args.dir, existed, &text)
}

/// Why the new game's first deadline cannot stand as it is, if it cannot: it lies at or before now
/// (a scenario's date, long gone), or gives less than the game's least notice. Not an error: the
/// referee sets `[deadline] first` in game.toml before `pbem send`, which makes the first mail again
/// from game.toml as it then is.
fn first_deadline_passed(game: &crate::game::Game) -> Result<Option<String>> {
    let first = game.config.first_turn;
    let Some(deadline) = game.config.deadline_of(first) else {
        return Ok(None);
    };
    let now = crate::clock::now()?;
    let due = deadline.with_timezone(&chrono::Utc);
    if due >= now + game.config.least_notice() {
        return Ok(None);
    }
    let shown = game.config.deadline_shown(first);
    let tz = deadline.timezone();
    let now_shown = now.with_timezone(&tz).format("%Y-%m-%d %H:%M %Z");
    Ok(Some(if due <= now {
        format!(
            "the first deadline, turn {first}'s ({shown}), is already past (now is {now_shown}): set [deadline] first in game.toml to a date ahead before `pbem send`, or every order will be late"
        )
    } else {
        format!(
            "the first deadline, turn {first}'s ({shown}), is less than the game's least notice ({} hours) away (now is {now_shown}): set [deadline] first in game.toml later before `pbem send`",
            game.config.least_notice().num_hours()
        )
    }))
}

/// Prints what `new` made, passwords included; when stdout cannot take it (closed, full,
/// `/dev/null`), the passwords are not lost: they go to `passwords.txt` (mode 0600) in the game folder
/// (`out::show_passwords`), or, if even that fails, the game is removed again, so that `pbem new` can
/// be run once more.
fn show_or_keep(dir: &std::path::Path, existed: bool, text: &str) -> Result<ExitCode> {
    match crate::out::show_passwords(dir, text) {
        Ok(crate::out::PasswordsShown::Printed) => Ok(ExitCode::SUCCESS),
        Ok(crate::out::PasswordsShown::Kept(_)) => Ok(ExitCode::from(super::exit::ERROR)),
        Err(e) => {
            let removed = if existed {
                std::fs::read_dir(dir).and_then(|entries| {
                    entries.flatten().try_for_each(|e| {
                        if e.file_type()?.is_dir() {
                            std::fs::remove_dir_all(e.path())
                        } else {
                            std::fs::remove_file(e.path())
                        }
                    })
                })
            } else {
                std::fs::remove_dir_all(dir)
            };
            anyhow::bail!(
                "the passwords could neither be printed nor kept ({e}); {}",
                match removed {
                    Ok(()) => format!(
                        "the game in {} is removed again: run `pbem new` once more",
                        dir.display()
                    ),
                    Err(r) => format!(
                        "remove {} ({r}) and run `pbem new` once more",
                        dir.display()
                    ),
                }
            )
        }
    }
}

/// Publishes the first turn of a new game, in its staged folder: a fresh dice secret and its
/// commitment (`referee::turn::ensure_commitment`), the turn's announcements and each player's
/// welcome with his password (`mail::welcome`) in the outbox. Returns the commitment in hex.
fn publish_first_turn(
    game: &crate::game::Game,
    first: u32,
    passwords: &[(String, String)],
) -> Result<String> {
    use crate::mail::welcome;
    let commitment = crate::referee::turn::ensure_commitment(game, first)?;
    let hex = crate::dice::to_hex(&commitment);
    let state = game.load_state(first)?;
    crate::mail::outbox::write_all(
        game,
        &crate::mail::outbox::announcements(game, first, &hex, &state)?,
    )?;
    let start = welcome::Start::new(game, &state);
    for (stem, password) in passwords {
        let (power, player) = match stem.split_once('.') {
            Some((p, pl)) => (p, Some(pl)),
            None => (stem.as_str(), None),
        };
        let config = game.config.power(power);
        let to = match (config, player) {
            (Some(c), Some(pl)) => c
                .command(pl)
                .map(|x| vec![x.at(first).address])
                .unwrap_or_default(),
            (Some(c), None) => c.addresses_at(first),
            (None, _) => Vec::new(),
        };
        let m = welcome::welcome(
            game,
            &start,
            power,
            player,
            welcome::Joining::NewGame,
            player.unwrap_or_default(),
            to,
        )?;
        welcome::write(game, &m, password)?;
    }
    Ok(hex)
}
