//! A greeting before the orders and a sign-off after them ("Hi ref, here are my orders:",
//! "Thanks, Jean"), as players write a mail: passed over with one warning, not rejected line by
//! line. A line is prose when its first word is no order of the game nor a header word, nor near
//! one (a typo of an order is still an error, with its did-you-mean), and it stands before the
//! first line that is a header or an order line, or after the last; prose between two orders stays
//! an error. The text is not changed: the file filed, its digest and its line numbers are the
//! player's.

use std::ops::Range;

use crate::diag::Diagnostic;
use crate::rule::Rule;

use super::{Line, HEADER_WORDS, ORDER_SYNTAX};

/// pbem: the lines around the orders that are not orders are passed over.
pub const PROSE: Rule = Rule::new(
    "pbem",
    "orders/prose",
    "a greeting before the orders and a sign-off after them are passed over",
);

/// Takes out of `diagnostics` the unknown-order errors of the prose lines of `lines` (every line
/// of the file with words, header lines included) and puts one warning in their place, at the
/// first of them, naming them all. `verbs` are the ruleset's order words.
pub fn pass_over(lines: &[Line], verbs: &[&str], diagnostics: &mut Vec<Diagnostic>) {
    let unknown_order = |span: &Range<usize>| {
        diagnostics
            .iter()
            .any(|d| d.is_error() && d.rule == Some(ORDER_SYNTAX) && d.span == *span)
    };
    let prose_like: Vec<bool> = lines
        .iter()
        .map(|l| {
            l.skipped.is_none()
                && l.tokens
                    .first()
                    .is_some_and(|w| unknown_order(&w.span) && far_from(&w.text, verbs))
        })
        .collect();
    let Some(first) = prose_like.iter().position(|p| !p) else {
        return;
    };
    let last = prose_like.iter().rposition(|p| !p).unwrap_or(first);
    let prose: Vec<&Line> = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| prose_like[i] && (i < first || i > last))
        .map(|(_, l)| l)
        .collect();
    let Some(at) = prose.first() else {
        return;
    };
    diagnostics.retain(|d| {
        !prose
            .iter()
            .any(|l| d.is_error() && l.tokens.first().is_some_and(|w| w.span == d.span))
    });
    // Each named by its words, not its number: a mailed file's lines are numbered as the player's
    // mail shows them only where a diagnostic points (`diag::LineMap`), never inside its message.
    let quoted: Vec<String> = prose.iter().take(5).map(|l| l.quoted()).collect();
    let mut which = quoted.join(", ");
    if prose.len() > quoted.len() {
        which += &format!(" and {} more", prose.len() - quoted.len());
    }
    let what = match prose.len() {
        1 => "a line".to_string(),
        n => format!("{n} lines"),
    };
    diagnostics.push(
        Diagnostic::warning(
            format!("{what} around the orders read as a greeting or a sign-off, not as orders, passed over: {which}"),
            at.span.clone(),
        )
        .label("not an order: passed over")
        .hint("if one of them was meant as an order, write it as the order guide shows, one order a line")
        .rule(PROSE),
    );
}

/// Whether `word` is far from every order word and header word: not one of them, nor one edit
/// from one (two for a word of seven letters or more), its punctuation aside.
fn far_from(word: &str, verbs: &[&str]) -> bool {
    let w = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    !verbs.iter().chain(HEADER_WORDS.iter()).any(|v| {
        let most = if v.chars().count() >= 7 { 2 } else { 1 };
        strsim::damerau_levenshtein(&w, v) <= most
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERBS: [&str; 5] = ["move", "attack", "chit", "engage", "standing"];

    #[test]
    fn greetings_are_far_from_orders_and_typos_are_near() {
        for w in ["Hi", "Thanks,", "Jean", "Cheers", "Dear", "Here", "Best"] {
            assert!(far_from(w, &VERBS), "{w}");
        }
        for w in [
            "mvoe", "atack", "Attack,", "standng", "chit", "pasword", "tunr",
        ] {
            assert!(!far_from(w, &VERBS), "{w}");
        }
    }
}
