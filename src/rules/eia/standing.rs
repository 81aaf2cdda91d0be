//! The grammar of EiA standing orders: the settings a power leaves with the referee so that no
//! decision of EiA 19.1 interrupts a turn. A standing order is `standing <key> [<scope>] <setting>`;
//! the setting is one or more words, read here into a canonical text that the decision code parses
//! again with the `parse_*` functions below.
//!
//! | key | scope | settings | SOP default | rule |
//! |---|---|---|---|---|
//! | `attack-chit`, `defence-chit` | | a chit of tables.toml | `[sop]` | EiA 19.1 (interrupt 1) |
//! | `pursue` | | `always`, `never` | `always` | EiA 7.5.2.10.2 |
//! | `reinforce` | | `always`, `never` | `always` | EiA 7.5.2.11 |
//! | `guard` | | `never`, `always`, `before round N`, `when losing`, `when losing after round N` | `when losing after round 1` | EiA 7.5.2.8, 19.1 (interrupt 2) |
//! | `continue` | | `never`, `always`, `when winning` | `never` attacking, `always` defending | EiA 19.1 (interrupt 3) |
//! | `surrender` | an area | `never`, `always`, `when outnumbered N` | `never` | EiA 19.1 (interrupt 4) |
//! | `honours` | | `grant`, `deny` | `grant` | EiA 7.5.4.1.2.3.1 |
//! | `tactics` | | `melee`, `linear-attack`, `linear-defence` | `linear-attack` | EiA 19.1 (chart) |
//! | `intercept` | a fleet | `always`, `never` | `always` | EiA 6.2.3 |
//! | `chase` | | `always`, `never` | `never` | EiA 6.3.5 |
//! | `insurrection` | | `always`, `never` | `always` | EiA 10.1.4.1 |

// A diagnostic is the error of every parse step here, as in orders.rs; it is built once per bad line.
#![allow(clippy::result_large_err)]

use crate::diag::{did_you_mean, Diagnostic};
use crate::orders::Token;

use super::orders::{Context, ORDER_SYNTAX};

/// The keys of standing orders.
pub const KEYS: [&str; 12] = [
    "attack-chit",
    "defence-chit",
    "pursue",
    "reinforce",
    "guard",
    "continue",
    "surrender",
    "honours",
    "tactics",
    "intercept",
    "chase",
    "insurrection",
];

/// When a side commits its guard (EiA 7.5.2.8; the second interrupt of 19.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardPolicy {
    Never,
    /// Before round N, whatever happens.
    BeforeRound(u32),
    /// Before a round after round N when the side has lost more morale than the enemy.
    WhenLosingAfter(u32),
}

/// Whether a side fights a further day when neither side broke (third interrupt of 19.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContinuePolicy {
    Never,
    Always,
    WhenWinning,
}

/// Whether a breached garrison denied the honours of war surrenders (fourth interrupt of 19.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SurrenderPolicy {
    Never,
    Always,
    /// When the besiegers have at least N times the garrison's factors.
    WhenOutnumbered(u32),
}

pub fn parse_guard(s: &str) -> Option<GuardPolicy> {
    let words: Vec<&str> = s.split(' ').collect();
    match words.as_slice() {
        ["never"] => Some(GuardPolicy::Never),
        ["always"] => Some(GuardPolicy::BeforeRound(1)),
        ["before", "round", n] => n
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .map(GuardPolicy::BeforeRound),
        ["when", "losing"] => Some(GuardPolicy::WhenLosingAfter(0)),
        ["when", "losing", "after", "round", n] => n.parse().ok().map(GuardPolicy::WhenLosingAfter),
        _ => None,
    }
}

pub fn parse_continue(s: &str) -> Option<ContinuePolicy> {
    match s {
        "never" => Some(ContinuePolicy::Never),
        "always" => Some(ContinuePolicy::Always),
        "when winning" => Some(ContinuePolicy::WhenWinning),
        _ => None,
    }
}

pub fn parse_surrender(s: &str) -> Option<SurrenderPolicy> {
    let words: Vec<&str> = s.split(' ').collect();
    match words.as_slice() {
        ["never"] => Some(SurrenderPolicy::Never),
        ["always"] => Some(SurrenderPolicy::Always),
        ["when", "outnumbered", n] => n
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .map(SurrenderPolicy::WhenOutnumbered),
        _ => None,
    }
}

/// The settings each key accepts, for hints.
fn settings_of(key: &str, cx: &Context<'_>) -> Vec<String> {
    let list = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
    match key {
        "attack-chit" => cx.tables.chits.attack.clone(),
        "defence-chit" => cx.tables.chits.defence.clone(),
        "pursue" | "reinforce" => list(&["always", "never"]),
        "guard" => list(&[
            "never",
            "always",
            "before round 2",
            "when losing",
            "when losing after round 1",
        ]),
        "continue" => list(&["never", "always", "when winning"]),
        "surrender" => list(&["never", "always", "when outnumbered 3"]),
        "honours" => list(&["grant", "deny"]),
        "tactics" => list(&["melee", "linear-attack", "linear-defence"]),
        "intercept" | "chase" | "insurrection" => list(&["always", "never"]),
        _ => Vec::new(),
    }
}

/// Reads `standing <key> [<scope>] <setting...>` into (key, setting), the key carrying its scope as
/// `surrender@Vienna`. `intercept` is scoped by a fleet of `power`'s own, when the power is known:
/// another power's fleet is read as no fleet, so that the answer never tells which of its ids exist
/// (pbem's sight, docs/rules/eia.md "What a player sees").
pub fn parse(
    key: &Token,
    rest: &[Token],
    cx: &Context<'_>,
    power: Option<&str>,
) -> Result<(String, String), Diagnostic> {
    let lower = key.text.to_ascii_lowercase();
    let Some(key_name) = KEYS.iter().find(|k| **k == lower) else {
        let hint = did_you_mean(&key.text, KEYS)
            .map(|k| format!("did you mean '{k}'?"))
            .unwrap_or_else(|| format!("write one of: {}", KEYS.join(", ")));
        return Err(Diagnostic::error(
            format!("unknown standing order '{}'", key.text),
            key.span.clone(),
        )
        .hint(hint)
        .rule(ORDER_SYNTAX));
    };
    let mut rest = rest;
    let mut scoped = key_name.to_string();
    // `surrender` may name the area whose garrison it is for, `intercept` the fleet.
    if *key_name == "surrender" && rest.len() > 1 {
        if let Some(i) = cx.map.find(&rest[0].text) {
            scoped = format!("surrender@{}", cx.map.area(i).id);
            rest = &rest[1..];
        }
    }
    if *key_name == "intercept" && rest.len() > 1 {
        let fleet = cx
            .find_fleet(&rest[0].text)
            .filter(|f| power.is_none_or(|p| f.power.get_ref() == p));
        if let Some(f) = fleet {
            scoped = format!("intercept@{}", f.id.get_ref());
            rest = &rest[1..];
        }
    }
    let span = match (rest.first(), rest.last()) {
        (Some(a), Some(b)) => a.span.start..b.span.end,
        _ => key.span.clone(),
    };
    let words: Vec<String> = rest.iter().map(|t| t.text.to_ascii_lowercase()).collect();
    // "commit" is allowed before a guard setting: "commit when losing after round 1".
    let words: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .skip_while(|w| *key_name == "guard" && *w == "commit")
        .collect();
    let setting = words.join(" ");
    let allowed = settings_of(key_name, cx);
    let valid = match *key_name {
        "guard" => parse_guard(&setting).is_some(),
        "continue" => parse_continue(&setting).is_some(),
        "surrender" => parse_surrender(&setting).is_some(),
        _ => allowed.iter().any(|a| a.eq_ignore_ascii_case(&setting)),
    };
    // One word after the key that names its scope (an area, an own fleet): the setting is what is
    // missing, not a wrong one.
    if let ([only], false) = (rest, valid) {
        let scope = match *key_name {
            "surrender" => cx.map.find(&only.text).map(|_| "the area"),
            "intercept" => cx
                .find_fleet(&only.text)
                .filter(|f| power.is_none_or(|p| f.power.get_ref() == p))
                .map(|_| "the fleet"),
            _ => None,
        };
        if let Some(what) = scope {
            return Err(Diagnostic::error(
                format!(
                    "'standing {key_name} {}' names {what} {} and no setting: a setting is expected after it",
                    only.text, only.text
                ),
                only.span.clone(),
            )
            .hint(format!(
                "write the setting after it, as in 'standing {key_name} {} {}': one of {}",
                only.text,
                allowed.first().map_or("<setting>", String::as_str),
                allowed.join(", ")
            ))
            .rule(ORDER_SYNTAX));
        }
    }
    if setting.is_empty() || !valid {
        // The setting quoted as he wrote it ('Sometimes', 'Commit Sometimes'), as every other
        // ruleset's standing orders quote it (`rules::standing::not_a_setting`).
        let written: Vec<&str> = rest.iter().map(|t| t.text.as_str()).collect();
        let what = if setting.is_empty() {
            format!("'standing {key_name}' needs a setting")
        } else {
            format!(
                "'{}' is not a setting of 'standing {key_name}'",
                written.join(" ")
            )
        };
        let hint = did_you_mean(&setting, allowed.iter().map(String::as_str))
            .map(|s| format!("did you mean '{s}'?"))
            .unwrap_or_else(|| format!("write one of: {}", allowed.join(", ")));
        return Err(Diagnostic::error(what, span).hint(hint).rule(ORDER_SYNTAX));
    }
    // Chit names keep the spelling of tables.toml.
    let setting = allowed
        .iter()
        .find(|a| a.eq_ignore_ascii_case(&setting))
        .cloned()
        .unwrap_or(setting);
    Ok((scoped, setting))
}

/// The text of a standing order: `standing surrender Vienna when outnumbered 3`.
pub fn display(key: &str, value: &str) -> String {
    match key.split_once('@') {
        Some((k, scope)) => format!("standing {k} {scope} {value}"),
        None => format!("standing {key} {value}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_settings_parse() {
        assert_eq!(
            parse_guard("when losing after round 1"),
            Some(GuardPolicy::WhenLosingAfter(1))
        );
        assert_eq!(
            parse_guard("before round 2"),
            Some(GuardPolicy::BeforeRound(2))
        );
        assert_eq!(parse_guard("always"), Some(GuardPolicy::BeforeRound(1)));
        assert_eq!(parse_guard("before round 0"), None);
        assert_eq!(parse_guard("sometimes"), None);
    }

    #[test]
    fn surrender_settings_parse() {
        assert_eq!(
            parse_surrender("when outnumbered 3"),
            Some(SurrenderPolicy::WhenOutnumbered(3))
        );
        assert_eq!(parse_surrender("never"), Some(SurrenderPolicy::Never));
        assert_eq!(parse_surrender("when outnumbered x"), None);
    }

    #[test]
    fn scoped_keys_display_with_their_scope() {
        assert_eq!(
            display("surrender@Vienna", "when outnumbered 3"),
            "standing surrender Vienna when outnumbered 3"
        );
        assert_eq!(display("pursue", "never"), "standing pursue never");
    }
}
