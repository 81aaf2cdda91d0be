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

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

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

/// The page with every ruleset's grammar: assets/verify.html with `schema/dice-labels.json` in its
/// grammar block, noble-curves' BLS check and postal-mime in its scripts. A game's players get
/// [`verify_page_for`] its ruleset.
pub fn verify_page() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| page_with(include_str!("../schema/dice-labels.json")))
}

/// The page of a game of `ruleset`, as it is written into the game folder and attached to its
/// welcome mails: [`verify_page`] with the grammar of that ruleset alone in its grammar block (the
/// format, the placeholders and the kinds of every ruleset kept), so that a player is handed the
/// rules of his game's labels and no other game's. Made once a process for each ruleset.
pub fn verify_page_for(ruleset: &str) -> Arc<str> {
    static PAGES: Mutex<BTreeMap<String, Arc<str>>> = Mutex::new(BTreeMap::new());
    let mut pages = PAGES.lock().unwrap_or_else(PoisonError::into_inner);
    pages
        .entry(ruleset.to_string())
        .or_insert_with(|| Arc::from(page_with(&grammar_of(ruleset))))
        .clone()
}

/// `schema/dice-labels.json` with the grammar of `ruleset` alone in its `rulesets`, written as the
/// file is (serde_json's pretty form, its keys in order).
fn grammar_of(ruleset: &str) -> String {
    let all = include_str!("../schema/dice-labels.json");
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(all) else {
        return all.to_string();
    };
    if let Some(list) = doc.get_mut("rulesets").and_then(|r| r.as_array_mut()) {
        list.retain(|g| g.get("ruleset").and_then(|r| r.as_str()) == Some(ruleset));
    }
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| all.to_string());
    s.push('\n');
    s
}

/// assets/verify.html with `grammar` in its grammar block and its vendored scripts.
fn page_with(grammar: &str) -> String {
    let asset = include_str!("../assets/verify.html");
    // `<\/` is JSON for `</`, which would end the script block in HTML.
    let grammar = grammar.replace("</", "<\\/");
    let bls = include_str!("../assets/vendor/noble-bls.js");
    let mime = include_str!("../assets/vendor/postal-mime.js");
    asset
        .replacen(GRAMMAR_SLOT, grammar.trim_end(), 1)
        .replacen(BLS_SLOT, bls.trim_end(), 1)
        .replacen(MIME_SLOT, mime.trim_end(), 1)
}

/// Writes the page of a game of `ruleset` into the game folder `game` (`verify.html`).
pub fn write_into(game: &Path, ruleset: &str) -> Result<()> {
    crate::game::fsio::write_atomic(&game.join(FILE_NAME), verify_page_for(ruleset).as_bytes())
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
    fn a_games_page_carries_the_grammar_of_its_ruleset_alone() {
        let all = verify_page();
        let page = verify_page_for("pog");
        assert!(page.contains("\"ruleset\": \"pog\""));
        for other in ["eia", "ngg", "wbts", "gitm"] {
            assert!(all.contains(&format!("\"ruleset\": \"{other}\"")));
            assert!(
                !page.contains(&format!("\"ruleset\": \"{other}\"")),
                "{other}"
            );
        }
        // Every ruleset's kinds and the placeholders stay; the rest of the page is the same.
        assert!(page.contains("\"pattern\": \"ump-control/ump={power@text}/power={power@text}\""));
        assert!(page.contains("\"format\": \"pbem-dice-labels/1\""));
        assert_eq!(grammar_of("none").matches("\"ruleset\": ").count(), 0);
        let full =
            serde_json::from_str::<serde_json::Value>(include_str!("../schema/dice-labels.json"))
                .unwrap();
        let mut s = serde_json::to_string_pretty(&full).unwrap();
        s.push('\n');
        assert_eq!(
            s,
            include_str!("../schema/dice-labels.json"),
            "the file is serde_json's pretty form"
        );
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
