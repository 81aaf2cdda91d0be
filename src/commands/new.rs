//! `pbem new`: create a game folder from a scenario, with fresh passwords and dice secret.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

/// Create a new game from a scenario: fresh passwords for every power, a fresh dice secret for turn 1.
///
/// The game gets a nonce of its own (its Message-IDs and subject tags never meet another game's) and a
/// `.gitignore` that keeps `secret/` out of a repository.
///
/// Example: pbem new ~/games/ulm-2026 --from games/ulm-1805
///          pbem new ~/games/ulm-2026 --from ulm-1805      (the scenario built into pbem)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The folder to create (must not exist, or be empty).
    pub dir: PathBuf,
    /// The scenario: a game folder, or the name of a scenario built into pbem.
    #[arg(long)]
    pub from: PathBuf,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let from = if args.from.join("game.toml").is_file() {
        args.from.clone()
    } else {
        // A bundled scenario: unpack it to a temporary folder first.
        let name = args
            .from
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = tempfile::Builder::new()
            .prefix("pbem-scenario-")
            .tempdir()?
            .keep();
        let dir = tmp.join(&name);
        crate::bundled::write_scenario(&name, &dir)?;
        dir
    };
    let created = crate::game::create::new_game(&from, &args.dir)?;
    let g = &created.game;
    println!(
        "Created game '{}' ({}) in {}.",
        g.config.game,
        g.config.title,
        args.dir.display()
    );
    println!(
        "Turn {} dice commitment (publish it now): {}",
        g.config.first_turn, created.commitment
    );
    println!(
        "Passwords, shown this once (pbem stores only their hashes); send each to its player:"
    );
    for (power, password) in &created.passwords {
        println!("  {power:<10} {password}");
    }
    println!(
        "Its mail is tagged [{}]: Message-IDs and subjects of no other game share it.",
        g.config.tag()
    );
    println!("secret/ holds the dice secrets: .gitignore keeps it out of a git repository.");
    println!("Edit the players' addresses in game.toml, then mail each player his password and the commitment.");
    Ok(ExitCode::SUCCESS)
}
