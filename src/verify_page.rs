//! `verify.html`: `pbem verify` for pbem-dice/v1 and v2 as one offline page (assets/verify.html), for
//! the players who have no pbem: it re-derives every roll in the browser (SHA-256 from WebCrypto,
//! ChaCha20 and the die draw of docs/DICE.md in plain JavaScript), checks every label against its
//! ruleset's grammar, fetches nothing from any other origin, and runs the test vectors of
//! docs/DICE.md before it checks anything. `pbem new` puts it in the game folder; the welcome mail
//! attaches it.
//!
//! The grammar of dice labels is the one `schema/dice-labels.json` publishes (held equal to the
//! rulesets' `labels.rs` by a test): the page is written with it in its `dice-labels` block, so that
//! the page and `pbem verify` read one grammar and the page still works from one file, offline. It
//! checks a drand beacon's BLS signature with noble-curves (assets/vendor/, MIT licence), and reads
//! the MIME structure of every mail a player gives it (the report, his orders for `--orders`, the
//! others) with postal-mime (assets/vendor/, MIT-0 licence), both written in the same way.

use std::path::Path;
use std::sync::OnceLock;

use anyhow::Result;

/// The name of the page in a game folder and as an attachment.
pub const FILE_NAME: &str = "verify.html";

/// Where assets/verify.html takes the grammar: the content of its `dice-labels` JSON block.
const GRAMMAR_SLOT: &str = "\"pbem:dice-labels\"";

/// Where it takes the BLS12-381 check of drand's signatures (assets/vendor/noble-bls.js, noble-curves
/// bundled, MIT licence): the content of a script block.
const BLS_SLOT: &str = "/* pbem:noble-bls */";

/// Where it takes its MIME reader (assets/vendor/postal-mime.js, postal-mime bundled, MIT-0 licence):
/// the content of a script block.
const MIME_SLOT: &str = "/* pbem:postal-mime */";

/// The page, as it is written into a game folder or attached to a mail: assets/verify.html with
/// `schema/dice-labels.json` in its grammar block, noble-curves' BLS check and postal-mime in its
/// scripts.
pub fn verify_page() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        let asset = include_str!("../assets/verify.html");
        // `<\/` is JSON for `</`, which would end the script block in HTML.
        let grammar = include_str!("../schema/dice-labels.json").replace("</", "<\\/");
        let bls = include_str!("../assets/vendor/noble-bls.js");
        let mime = include_str!("../assets/vendor/postal-mime.js");
        asset
            .replacen(GRAMMAR_SLOT, grammar.trim_end(), 1)
            .replacen(BLS_SLOT, bls.trim_end(), 1)
            .replacen(MIME_SLOT, mime.trim_end(), 1)
    })
}

/// Writes the page into the game folder `game` (`verify.html`).
pub fn write_into(game: &Path) -> Result<()> {
    crate::game::fsio::write_atomic(&game.join(FILE_NAME), verify_page().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_carries_the_published_grammar_of_dice_labels() {
        let page = verify_page();
        assert!(
            !page.contains(GRAMMAR_SLOT),
            "the grammar block was not filled"
        );
        assert!(page.contains("\"format\": \"pbem-dice-labels/1\""));
        assert!(page.contains("\"pattern\": \"combat-order/area={place@area}\""));
    }

    #[test]
    fn the_page_carries_its_vendored_scripts() {
        let page = verify_page();
        for slot in [BLS_SLOT, MIME_SLOT] {
            assert!(!page.contains(slot), "{slot} was not filled");
        }
        assert!(page.contains("var PBEM_MIME="));
        assert!(page.contains("MIT No Attribution"));
    }
}
