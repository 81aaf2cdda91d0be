//! The grammar every ruleset's `standing` order and `[sop]` setting shares: a key naming one of the
//! ruleset's decision points ([`crate::decide::Point`]), an optional scope (a place, a leader), a
//! setting. A ruleset gives its points' words ([`Standing`]) and reads the scope and any setting that is
//! not a fixed word itself (a place to retreat to, a leader); the keys, the form and the errors are here.

#![allow(clippy::result_large_err)]

use crate::decide::Point;
use crate::diag::{did_you_mean, Diagnostic};
use crate::orders::{Line, Token, ORDER_SYNTAX};

/// A decision point as a standing order or a `[sop]` setting names it.
pub trait Standing: Point + Copy + PartialEq + 'static {
    /// Every point of the ruleset, in the order its keys are listed in hints.
    const ALL: &'static [Self];
    /// The ruleset's name in hints ("the SOP keys of PoG are ...").
    const GAME: &'static str;
    /// An example of a whole standing order, shown when the key is missing.
    const EXAMPLE: &'static str;

    /// What a standing order may name before its setting, as the form shows it (" [<hex>]"), or ""
    /// when it takes none.
    fn scope_form(self) -> &'static str;
    /// The fixed settings.
    fn settings(self) -> &'static [&'static str];
    /// Whether `value` (lower-cased) is a fixed setting of this point.
    fn accepts(self, value: &str) -> bool {
        self.settings().contains(&value)
    }
    /// The settings as a hint shows them.
    fn settings_hint(self) -> String {
        self.settings().join(", ")
    }
    /// What a `[sop]` setting of this point must be ("one of: ...").
    fn sop_hint(self) -> String {
        format!("one of: {}", self.settings_hint())
    }
}

fn keys<P: Standing>() -> Vec<&'static str> {
    P::ALL.iter().map(|p| p.key()).collect()
}

fn named<P: Standing>(key: &str) -> Option<P> {
    P::ALL.iter().copied().find(|p| p.key() == key)
}

/// Checks a `[sop]` setting of game.toml (`crate::rules::load_sop`); the hint on failure.
pub fn check_sop<P: Standing>(key: &str, value: &str) -> Result<(), String> {
    let Some(p) = named::<P>(key) else {
        let keys = keys::<P>();
        return Err(did_you_mean(key, keys.iter().copied()).map_or_else(
            || format!("the SOP keys of {} are: {}", P::GAME, keys.join(", ")),
            |k| format!("did you mean '{k}'?"),
        ));
    };
    if p.accepts(value) {
        Ok(())
    } else {
        Err(format!("{key} is {}", p.sop_hint()))
    }
}

/// A `standing <key> [<scope>] <setting>` order split into its point, its scope's word (if it names
/// one) and its setting's word, or the located error saying what the form is.
pub fn split<'t, P: Standing>(
    line: &Line,
    args: &'t [Token],
) -> Result<(P, Option<&'t Token>, &'t Token), Diagnostic> {
    let keys = keys::<P>();
    let Some((key, rest)) = args.split_first() else {
        return Err(
            Diagnostic::error("'standing' needs a key and a setting", line.span.clone())
                .hint(format!(
                    "write it as '{}'; the keys: {}",
                    P::EXAMPLE,
                    keys.join(", ")
                ))
                .rule(ORDER_SYNTAX),
        );
    };
    let Some(point) = named::<P>(&key.text.to_ascii_lowercase()) else {
        return Err(Diagnostic::error(
            format!("unknown standing order '{}'", key.text),
            key.span.clone(),
        )
        .hint(did_you_mean(&key.text, keys.iter().copied()).map_or_else(
            || format!("the keys are: {}", keys.join(", ")),
            |k| format!("did you mean '{k}'?"),
        ))
        .rule(ORDER_SYNTAX));
    };
    match rest {
        [s] => Ok((point, None, s)),
        [sc, s] if !point.scope_form().is_empty() => Ok((point, Some(sc), s)),
        _ => Err(Diagnostic::error(
            format!(
                "'standing {}' takes{} <setting>",
                point.key(),
                point.scope_form()
            ),
            line.span.clone(),
        )
        .hint(format!("settings: {}", point.settings_hint()))
        .rule(ORDER_SYNTAX)),
    }
}

/// "'<word>' is not a setting of 'standing <key>'", located at the setting, with the form of the
/// order and its settings; `more` ends the list of settings (", or a hex").
pub fn not_a_setting<P: Standing>(point: P, setting: &Token, more: &str) -> Diagnostic {
    Diagnostic::error(
        format!(
            "'{}' is not a setting of 'standing {}'",
            setting.text,
            point.key()
        ),
        setting.span.clone(),
    )
    .hint(format!(
        "write 'standing {}{} <setting>', the setting one of: {}{more}",
        point.key(),
        point.scope_form(),
        point.settings_hint()
    ))
    .rule(point.rule())
}

/// A standing order whose one word after its key names its scope and no setting (`standing chit
/// 0906`): "'standing chit 0906' names the hex 0906 and no setting", located at the scope, with a
/// hint that writes the order whole. `what` is the scope's kind ("the hex", "the leader").
pub fn no_setting<P: Standing>(point: P, scope: &Token, what: &str) -> Diagnostic {
    let example = point.settings().first().copied().unwrap_or("<setting>");
    Diagnostic::error(
        format!(
            "'standing {} {}' names {what} {} and no setting: a setting is expected after it",
            point.key(),
            scope.text,
            scope.text
        ),
        scope.span.clone(),
    )
    .hint(format!(
        "write the setting after it, as in 'standing {} {} {example}': one of {}",
        point.key(),
        scope.text,
        point.settings_hint()
    ))
    .rule(ORDER_SYNTAX)
}

/// The key a standing order is filed under: `<key>@<scope>` when it names a scope
/// (`crate::decide::Sources::scope`).
pub fn filed_key<P: Standing>(point: P, scope: Option<String>) -> String {
    match scope {
        Some(s) => format!("{}@{s}", point.key()),
        None => point.key().to_string(),
    }
}
