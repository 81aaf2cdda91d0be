//! Creating a game folder from a scenario (`pbem new`): the scenario's configuration, map, tables and
//! first state, with fresh passwords for every power. The first turn is published (its dice
//! commitment, its announcements) by the step the caller gives, run in the staged folder: the
//! engine's and the mail's, which the model does not import.

use std::path::Path;

use anyhow::{bail, Context, Result};

use super::fsio::write_atomic;
use super::Game;

/// A new game: where it is and the passwords to hand to the players (shown once, stored hashed).
pub struct NewGame {
    pub game: Game,
    pub passwords: Vec<(String, String)>,
    pub commitment: String,
}

/// Creates game folder `to` from the scenario folder `from`. The game is made in a temporary folder
/// beside `to` and renamed into place once whole: a scenario pbem cannot use leaves nothing behind,
/// and `pbem new` can be run again (issue 15.9). `publish(game, first_turn)` publishes the first turn
/// in the staged game (a fresh dice secret and its commitment, the announcements) and returns the
/// commitment in hex.
pub fn new_game(from: &Path, to: &Path, title: Option<&str>, publish: &Publish) -> Result<NewGame> {
    let parent = match to.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)
        .with_context(|| format!("cannot create {}", parent.display()))?;
    if to.exists()
        && std::fs::read_dir(to)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        bail!(
            "{} already exists and is not empty: pbem never overwrites a game",
            to.display()
        );
    }
    let stage = tempfile::Builder::new()
        .prefix(".pbem-new-")
        .tempdir_in(&parent)
        .with_context(|| format!("cannot create a folder in {}", parent.display()))?;
    let made = make_game(from, stage.path(), title, publish)?;
    // An empty `to` is replaced by the rename; the staged folder is kept by it.
    let staged = stage.keep();
    if let Err(e) = std::fs::rename(&staged, to) {
        let _ = std::fs::remove_dir_all(&staged);
        return Err(e).with_context(|| format!("cannot create {}", to.display()));
    }
    Ok(NewGame {
        game: Game::load(to)?,
        passwords: made.passwords,
        commitment: made.commitment,
    })
}

/// The step that publishes a new game's first turn: see [`new_game`]. It gets the game, its first
/// turn and the passwords made, `(power or power.player, password)`.
pub type Publish = dyn Fn(&Game, u32, &[(String, String)]) -> Result<String>;

/// What `new` makes itself, or what belongs to the scenario's own play and not to a new game: the
/// configuration (rewritten with fresh passwords), the turns, the dice secrets, the mail, and the
/// files a referee's copy may hold beside them.
const NOT_COPIED: [&str; 6] = [
    "game.toml",
    "turns",
    "secret",
    "mail",
    ".gitignore",
    "passwords.txt",
];

/// Copies the scenario's data into the new game: `map.toml` and `tables.toml`, which every game has,
/// and whatever else its ruleset reads from the folder (`templates/`, GITM's `tactical/` maps, ...),
/// so that a game made by `new` plays as the scenario does.
fn copy_scenario_data(from: &Path, to: &Path) -> Result<()> {
    for file in ["map.toml", "tables.toml"] {
        if !from.join(file).is_file() {
            bail!("{}: the scenario has no {file}", from.display());
        }
    }
    for e in super::fsio::sorted_entries(from)? {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if NOT_COPIED.contains(&name.as_ref()) || name.starts_with('.') {
            continue;
        }
        if e.file_type()?.is_dir() {
            super::fsio::copy_tree(&e.path(), &to.join(&*name))?;
        } else {
            let bytes = std::fs::read(e.path()).with_context(|| format!("cannot read {name}"))?;
            write_atomic(&to.join(&*name), &bytes)?;
        }
    }
    Ok(())
}

/// A scenario's dated password changes (GITM 6.11, `[[power.player.change]]`) name passwords that
/// its players know, public in a bundled demo: a new game keeps none of them, only the dated changes
/// of scope and address. A player of the new game changes his own password when he chooses.
fn drop_dated_passwords(player: &mut toml_edit::Table) {
    let Some(changes) = player
        .get_mut("change")
        .and_then(|c| c.as_array_of_tables_mut())
    else {
        return;
    };
    for change in changes.iter_mut() {
        change.remove("password_hash");
    }
    // A change left with nothing but its date (`turn`, or `at`, its time stamp) changes nothing.
    changes.retain(|c| c.iter().any(|(key, _)| key != "turn" && key != "at"));
    if changes.is_empty() {
        player.remove("change");
    }
}

/// Refuses a scenario with a symbolic link anywhere in its folder (issue 34): `new` copies the
/// scenario's files into the game, and a link would bring whatever it points to (a system file,
/// another game's secrets) into a folder players' mail is written from. The folder `--from` names may
/// itself be a link: the referee chose it.
fn refuse_links(scenario: &Path, dir: &Path) -> Result<()> {
    for e in super::fsio::sorted_entries(dir)? {
        let kind = e.file_type()?;
        if kind.is_symlink() {
            let target = std::fs::read_link(e.path())
                .map(|t| format!(" (to {})", t.display()))
                .unwrap_or_default();
            bail!(
                "{}: a symbolic link{target} in the scenario {}: pbem new copies no link into a game; put the file or folder itself in its place",
                e.path().display(),
                scenario.display()
            );
        }
        if kind.is_dir() {
            refuse_links(scenario, &e.path())?;
        }
    }
    Ok(())
}

/// The title of a game made from a scenario whose title is `scenario`: the referee's, else the
/// scenario's without its demo mark (`Ulm 1805: the Danube campaign (Empires in Arms demo)` gives
/// `Ulm 1805: the Danube campaign`).
fn title_of(scenario: &str, given: Option<&str>) -> String {
    if let Some(t) = given {
        return t.trim().to_string();
    }
    match scenario.rsplit_once(" (") {
        Some((head, mark)) if mark.ends_with(" demo)") => head.to_string(),
        _ => scenario.to_string(),
    }
}

/// The comment at the head of a scenario's game.toml, for the game made from it: its paragraphs
/// that speak of the bundled demo (its public passwords, "the bundled ... demo of pbem") left out,
/// a line naming the game and its scenario first.
fn head_comment(prefix: &str, title: &str, scenario: &str) -> String {
    let mut kept = vec![format!(
        "# {title}: a game made by `pbem new` from the scenario {scenario}.\n\
         # Its passwords are fresh, hashed here: each player gets his own in his welcome mail.\n"
    )];
    let mut paragraph = String::new();
    let mut flush = |p: &mut String| {
        if !p.is_empty() && !p.to_ascii_lowercase().contains("demo") {
            kept.push(std::mem::take(p));
        }
        p.clear();
    };
    for line in prefix.lines() {
        let body = line.trim();
        if body == "#" || body.is_empty() {
            flush(&mut paragraph);
        } else if body.starts_with('#') {
            paragraph.push_str(body);
            paragraph.push('\n');
        }
    }
    flush(&mut paragraph);
    kept.join("#\n") + "\n"
}

/// Makes the game of scenario `from` in the empty folder `to`.
fn make_game(from: &Path, to: &Path, title: Option<&str>, publish: &Publish) -> Result<NewGame> {
    if to.exists()
        && std::fs::read_dir(to)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        bail!(
            "{} already exists and is not empty: pbem never overwrites a game",
            to.display()
        );
    }
    refuse_links(from, from)?;
    let scenario =
        Game::load(from).with_context(|| format!("{} is not a usable scenario", from.display()))?;
    let first = scenario.config.first_turn;
    let config_text = std::fs::read_to_string(from.join("game.toml"))?;
    let mut doc: toml_edit::DocumentMut = config_text.parse().context("game.toml")?;
    let mut passwords = Vec::new();
    if let Some(powers) = doc
        .get_mut("power")
        .and_then(|p| p.as_array_of_tables_mut())
    {
        for p in powers.iter_mut() {
            let id = p
                .get("id")
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string();
            // A power with several players (`[[power.player]]`): a password for each of them.
            if let Some(players) = p.get_mut("player").and_then(|x| x.as_array_of_tables_mut()) {
                for pl in players.iter_mut() {
                    let player = pl.get("id").and_then(|v| v.as_str()).unwrap_or_default();
                    let stem = crate::game::command::file_stem(&id, Some(player));
                    let password = crate::auth::fresh_password()?;
                    pl["password_hash"] = toml_edit::value(crate::auth::hash_password(&password)?);
                    drop_dated_passwords(pl);
                    passwords.push((stem, password));
                }
                continue;
            }
            let password = crate::auth::fresh_password()?;
            p["password_hash"] = toml_edit::value(crate::auth::hash_password(&password)?);
            passwords.push((id, password));
        }
    }
    // The game is the referee's: its title, and no word of the demo it may be made from.
    let title = title_of(&scenario.config.title, title);
    doc["title"] = toml_edit::value(title.clone());
    if let Some(mut first_key) = doc.as_table_mut().iter_mut().next().map(|(k, _)| k) {
        let prefix = first_key
            .leaf_decor()
            .prefix()
            .and_then(|p| p.as_str())
            .unwrap_or_default()
            .to_string();
        let head = head_comment(&prefix, &title, &scenario.config.game);
        first_key.leaf_decor_mut().set_prefix(head);
    }
    // One game, one identity: a nonce of its own in every Message-ID and subject tag.
    let nonce = crate::dice::fresh_secret().context("the operating system gave no random bytes")?;
    doc["nonce"] = toml_edit::value(hex::encode(&nonce[..4]));
    write_atomic(&to.join("game.toml"), doc.to_string().as_bytes())?;
    // The dice secrets stay out of any repository the referee keeps the game in.
    write_atomic(&to.join(".gitignore"), b"secret/\n")?;
    copy_scenario_data(from, to)?;
    let state =
        std::fs::read(scenario.state_path(first)).context("the scenario has no first state")?;
    let game = Game::load(to)?;
    // The players' offline check of their dice (docs/DICE.md, "Checking your dice in a browser"),
    // with the grammar of the game's dice labels.
    crate::verify_page::write_into(to, game.ruleset.id())?;
    write_atomic(&game.state_path(first), &state)?;
    let commitment = publish(&game, first, &passwords)?;
    Ok(NewGame {
        game,
        passwords,
        commitment,
    })
}
