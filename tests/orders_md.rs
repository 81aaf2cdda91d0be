//! ORDERS.md is the players' manual: every verb and every standing-order key the parsers accept must
//! be documented there, in the part for its ruleset. The lists come from the parsers' own tables.

use pbem::decide::Point;
use pbem::rules::standing::Standing;
use pbem::rules::{eia, pog};

const ORDERS_MD: &str = include_str!("../ORDERS.md");

/// The part of ORDERS.md from the heading `from` to the next heading of the same level, or the end.
fn section(from: &str) -> &'static str {
    let start = ORDERS_MD
        .find(from)
        .unwrap_or_else(|| panic!("ORDERS.md has no heading '{from}'"));
    let level = from.split(' ').next().unwrap_or("##");
    let rest = &ORDERS_MD[start + from.len()..];
    let end = rest
        .match_indices(&format!("\n{level} "))
        .map(|(i, _)| i)
        .next()
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The row of the standing-order table of `part` for `key`.
fn key_row<'a>(part: &'a str, key: &str) -> Option<&'a str> {
    part.lines()
        .find(|l| l.starts_with(&format!("| `{key}` |")))
}

#[test]
fn orders_md_documents_every_eia_verb_and_standing_key() {
    let part = section("## The orders of Empires in Arms");
    for verb in eia::orders::VERBS {
        assert!(
            part.contains(&format!("\n### {verb}\n")),
            "ORDERS.md has no '### {verb}' among the orders of Empires in Arms"
        );
    }
    let standing = section("### standing\n\n```text\nstanding <key> [<scope>]");
    for key in eia::standing::KEYS {
        assert!(
            key_row(standing, key).is_some(),
            "ORDERS.md's EiA standing table has no row for '{key}'"
        );
    }
    assert!(
        part.contains("`react`"),
        "ORDERS.md says what becomes of a 'react' line (EiA 12.3.7.4)"
    );
}

#[test]
fn orders_md_documents_every_pog_verb_and_standing_key_with_its_default() {
    let points = pog::decisions::PogPoint::ALL
        .iter()
        .map(|p| {
            let settings = p.settings().iter().map(|s| s.to_string()).collect();
            (
                p.key().to_string(),
                settings,
                p.sop_default().map(|d| d.to_string()),
            )
        })
        .collect();
    assert_documents(
        "Paths of Glory",
        "PoG",
        section("## Paths of Glory"),
        &pog::orders::VERBS,
        points,
    );
}

#[test]
fn orders_md_documents_every_word_of_a_pog_attack() {
    // The canonical text of an attack with every option (what the parser reads back) names each word.
    let every_option = pog::orders::PogOrder::Attack(pog::orders::Attack {
        target: "T".into(),
        units: vec!["U".into()],
        flank: Some("P".into()),
        cards: vec!["C".into()],
        army_table: true,
        advance: false,
        after: true,
    })
    .to_string();
    let part = section("### attack\n\n```text\nattack <space> with");
    for word in every_option
        .split(' ')
        .filter(|w| w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
    {
        assert!(
            part.contains(&format!("`{word}")) || part.contains(&format!("{word} ")),
            "ORDERS.md's PoG attack does not document '{word}' ({every_option})"
        );
    }
}

#[test]
fn orders_md_documents_every_ngg_verb_and_standing_key_with_its_default() {
    use pbem::rules::ngg;
    let points = ngg::decisions::NggPoint::ALL
        .iter()
        .map(|p| {
            let settings = p.settings().iter().map(|s| s.to_string()).collect();
            (
                p.key().to_string(),
                settings,
                p.sop_default().map(|d| d.to_string()),
            )
        })
        .collect();
    assert_documents(
        "Napoleon's Greatest Gamble",
        "NGG",
        section("## Napoleon's Greatest Gamble"),
        &ngg::orders::VERBS,
        points,
    );
}

#[test]
fn orders_md_documents_every_wbts_verb_and_standing_key_with_its_default() {
    use pbem::rules::wbts;
    let points = wbts::decisions::WbtsPoint::ALL
        .iter()
        .map(|p| {
            let settings = p.settings().iter().map(|s| s.to_string()).collect();
            (
                p.key().to_string(),
                settings,
                p.sop_default().map(|d| d.to_string()),
            )
        })
        .collect();
    assert_documents(
        "War Between the States",
        "WBTS",
        section("## War Between the States"),
        &wbts::orders::VERBS,
        points,
    );
}

#[test]
fn orders_md_documents_every_gitm_verb_and_each_default_of_6_9() {
    use pbem::rules::gitm;
    assert_documents(
        "Gathered In Their Masses",
        "GITM",
        section("## Gathered In Their Masses"),
        &gitm::orders::VERBS,
        Vec::new(),
    );
    let part = section("## Gathered In Their Masses");
    for (section, verb) in [
        ("2", "move"),
        ("3", "tactical"),
        ("4", "support"),
        ("5", "posture"),
        ("6", "supply"),
    ] {
        assert!(
            part.contains(&format!("| {section}, `{verb}`")),
            "ORDERS.md's GITM defaults table has no row for section {section}"
        );
    }
}

/// Holds one ruleset's part of ORDERS.md to its parser: a `### <verb>` per verb, and a row per
/// standing key listing each setting and ending with the SOP default.
fn assert_documents(
    game: &str,
    short: &str,
    part: &str,
    verbs: &[&str],
    points: Vec<(String, Vec<String>, Option<String>)>,
) {
    for verb in verbs {
        assert!(
            part.contains(&format!("\n### {verb}\n")),
            "ORDERS.md has no '### {verb}' for {game}"
        );
    }
    for (key, settings, default) in points {
        let row = key_row(part, &key)
            .unwrap_or_else(|| panic!("ORDERS.md's {short} standing table has no row for '{key}'"));
        for setting in settings {
            assert!(
                row.contains(&format!("`{setting}`")),
                "the row of '{key}' does not list its setting '{setting}': {row}"
            );
        }
        if let Some(default) = default {
            assert!(
                row.trim_end().ends_with(&format!("`{default}` |")),
                "the row of '{key}' does not end with its default '{default}': {row}"
            );
        }
    }
}
