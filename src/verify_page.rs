//! `verify.html`: `pbem verify` for pbem-dice/v1 and v2 as one offline page (assets/verify.html), for
//! the players who have no pbem: it re-derives every roll in the browser (SHA-256 from WebCrypto,
//! ChaCha20 and the die draw of docs/DICE.md in plain JavaScript), fetches nothing from any other
//! origin, and runs the test vectors of docs/DICE.md before it checks anything. `pbem new` puts it in
//! the game folder; the welcome mail attaches it.

use std::path::Path;

use anyhow::Result;

/// The name of the page in a game folder and as an attachment.
pub const FILE_NAME: &str = "verify.html";

/// The page, as it is written into a game folder or attached to a mail.
pub fn verify_page() -> &'static str {
    include_str!("../assets/verify.html")
}

/// Writes the page into the game folder `game` (`verify.html`).
pub fn write_into(game: &Path) -> Result<()> {
    crate::game::fsio::write_atomic(&game.join(FILE_NAME), verify_page().as_bytes())
}
