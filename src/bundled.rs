//! The scenarios and sample orders shipped inside the binary (the repository's `games/` and
//! `orders/`), so that `pbem demo` and `pbem new --from <name>` work wherever the binary is.

use std::path::Path;

use anyhow::{bail, Context, Result};
use include_dir::{include_dir, Dir};

static GAMES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/games");
static ORDERS: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/orders");

/// The bundled scenario names, sorted.
pub fn scenarios() -> Vec<String> {
    let mut v: Vec<String> = GAMES
        .dirs()
        .map(|d| d.path().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Writes bundled scenario `name` into `to` (which must be empty or absent).
pub fn write_scenario(name: &str, to: &Path) -> Result<()> {
    let Some(dir) = GAMES.get_dir(name) else {
        bail!(
            "no bundled scenario '{name}'; the bundled ones are: {}",
            scenarios().join(", ")
        );
    };
    write_dir(dir, Path::new(name), to)
}

/// The public dice secret (hex) the bundled scenario `name` ships for `turn`, if it ships one: the
/// demo's secrets, published so that `pbem demo` gives the same bytes everywhere.
pub fn public_secret(name: &str, turn: u32) -> Option<&'static str> {
    GAMES
        .get_file(format!("{name}/secret/{turn}.key"))?
        .contents_utf8()
        .map(str::trim)
}

/// How many turns, from the first, scenario `name` has sample orders for.
pub fn sample_turns(name: &str, first: u32) -> u32 {
    let mut n = 0;
    while ORDERS.get_dir(format!("{name}/{}", first + n)).is_some() {
        n += 1;
    }
    n
}

/// Writes the bundled sample orders of scenario `name` for turn `turn` into the game folder `game_dir`
/// (`orders/<name>/<t>/<power>.txt` becomes `<game_dir>/orders/<t>/<power>.txt`). Returns whether
/// the scenario has sample orders for that turn.
pub fn write_sample_orders(name: &str, game_dir: &Path, turn: u32) -> Result<bool> {
    let Some(dir) = ORDERS.get_dir(format!("{name}/{turn}")) else {
        return Ok(false);
    };
    write_dir(
        dir,
        dir.path(),
        &game_dir.join("orders").join(turn.to_string()),
    )?;
    Ok(true)
}

fn write_dir(dir: &Dir<'_>, base: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    let mut files: Vec<_> = dir.files().collect();
    files.sort_by_key(|f| f.path());
    for f in files {
        let rel = f.path().strip_prefix(base).unwrap_or(f.path());
        let target = to.join(rel);
        crate::game::fsio::write_atomic(&target, f.contents())?;
    }
    let mut dirs: Vec<_> = dir.dirs().collect();
    dirs.sort_by_key(|d| d.path());
    for d in dirs {
        let rel = d.path().strip_prefix(base).unwrap_or(d.path());
        write_dir(d, d.path(), &to.join(rel))?;
    }
    Ok(())
}
