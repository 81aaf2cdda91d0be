//! The decisions of a PoG action that are not the active player's to make at once, and the
//! grammar of the standing orders that settle them. Each is settled by `decide::decide`: the order of
//! the action, the power's standing order, the game's `[sop]` setting or the default here, a roll.
//!
//! | key | scope | settings | SOP default | rule |
//! |---|---|---|---|---|
//! | `losses` | | `cheapest`, `armies-first`, `corps-first` | `cheapest` | PoG 12.2.9 |
//! | `cancel-retreat` | a space | `never`, `always` | `never` | PoG 12.2.11, 11.2.12 |
//! | `retreat` | a space | a space to retreat to, `toward-supply` | `toward-supply` | PoG 12.2.1 (two spaces) |
//! | `overstack` | | `weakest`, `reduced-first` | `weakest` | PoG 10.1.3 |
//! | `fire-table` | | `best`, `corps` | `best` | PoG 12.2.7 |
//! | `defence-cards` | | `all`, `none` | `all` | PoG 12.2.5 |
//! | `advance` | | `always`, `never` | `always` | PoG 12.2.12 |

#![allow(clippy::result_large_err)]

use crate::decide::Point;
use crate::diag::{did_you_mean, Diagnostic};
use crate::orders::{Line, Token};
use crate::rule::Rule;

use super::orders::{Context, ORDER_SYNTAX};
use super::rules;

/// A decision point of PoG.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PogPoint {
    /// Which units take the step losses (12.2.9).
    Losses,
    /// Whether an entrenched defender cancels his retreat with one more step loss (12.2.11).
    CancelRetreat,
    /// Where a defeated stack retreats (12.2.1, 12.2.11).
    Retreat,
    /// Which units an overstacked space loses (10.1.3).
    Overstack,
    /// Whether to fire on the Army table from LF 4 (12.2.7).
    FireTable,
    /// Which combat cards the defender plays (12.2.5).
    DefenceCards,
    /// Whether the attacker advances (12.2.12).
    Advance,
}

impl PogPoint {
    pub const ALL: [PogPoint; 7] = [
        PogPoint::Losses,
        PogPoint::CancelRetreat,
        PogPoint::Retreat,
        PogPoint::Overstack,
        PogPoint::FireTable,
        PogPoint::DefenceCards,
        PogPoint::Advance,
    ];

    /// The settings a standing order may give (a space for `retreat`).
    pub fn settings(self) -> &'static [&'static str] {
        match self {
            PogPoint::Losses => &["cheapest", "armies-first", "corps-first"],
            PogPoint::CancelRetreat => &["never", "always"],
            PogPoint::Retreat => &["toward-supply"],
            PogPoint::Overstack => &["weakest", "reduced-first"],
            PogPoint::FireTable => &["best", "corps"],
            PogPoint::DefenceCards => &["all", "none"],
            PogPoint::Advance => &["always", "never"],
        }
    }

    /// Whether a standing order may name a space before its setting.
    pub fn scoped(self) -> bool {
        matches!(self, PogPoint::CancelRetreat | PogPoint::Retreat)
    }

    pub fn from_key(key: &str) -> Option<PogPoint> {
        PogPoint::ALL.into_iter().find(|p| p.key() == key)
    }
}

impl Point for PogPoint {
    fn rule(&self) -> Rule {
        match self {
            PogPoint::Losses => rules::LOSSES,
            PogPoint::CancelRetreat => rules::CANCEL_RETREAT,
            PogPoint::Retreat => rules::RETREAT_PATH,
            PogPoint::Overstack => rules::OVERSTACK,
            PogPoint::FireTable => rules::ARMY_TABLE_OPTION,
            PogPoint::DefenceCards => rules::CARDS,
            PogPoint::Advance => rules::ADVANCE,
        }
    }

    fn key(&self) -> &'static str {
        match self {
            PogPoint::Losses => "losses",
            PogPoint::CancelRetreat => "cancel-retreat",
            PogPoint::Retreat => "retreat",
            PogPoint::Overstack => "overstack",
            PogPoint::FireTable => "fire-table",
            PogPoint::DefenceCards => "defence-cards",
            PogPoint::Advance => "advance",
        }
    }

    fn sop_default(&self) -> Option<&'static str> {
        Some(self.settings()[0])
    }
}

/// Checks a `[sop]` setting of game.toml; the hint on failure.
pub fn check_sop(key: &str, value: &str) -> Result<(), String> {
    let Some(p) = PogPoint::from_key(key) else {
        let keys: Vec<&str> = PogPoint::ALL.iter().map(|p| p.key()).collect();
        return Err(did_you_mean(key, keys.iter().copied()).map_or_else(
            || format!("the SOP keys of PoG are: {}", keys.join(", ")),
            |k| format!("did you mean '{k}'?"),
        ));
    };
    if p.settings().contains(&value) {
        Ok(())
    } else {
        Err(format!("{key} is one of: {}", p.settings().join(", ")))
    }
}

/// Parses `standing <key> [<space>] <setting>` into the key (with `@<space>` when scoped) and the
/// setting.
pub fn parse_standing(
    line: &Line,
    args: &[Token],
    cx: &Context<'_>,
) -> Result<(String, String), Diagnostic> {
    let keys: Vec<&str> = PogPoint::ALL.iter().map(|p| p.key()).collect();
    let Some((key, rest)) = args.split_first() else {
        return Err(
            Diagnostic::error("'standing' needs a key and a setting", line.span.clone())
                .hint(format!(
                    "write it as 'standing losses cheapest'; the keys: {}",
                    keys.join(", ")
                ))
                .rule(ORDER_SYNTAX),
        );
    };
    let Some(point) = PogPoint::from_key(&key.text.to_ascii_lowercase()) else {
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
    let (scope, setting) = match rest {
        [s] => (None, s),
        [sc, s] if point.scoped() => (Some(sc), s),
        _ => {
            let form = if point.scoped() { " [<space>]" } else { "" };
            return Err(Diagnostic::error(
                format!("'standing {}' takes{form} <setting>", point.key()),
                line.span.clone(),
            )
            .hint(format!("settings: {}", point.settings().join(", ")))
            .rule(ORDER_SYNTAX));
        }
    };
    let scope = scope.map(|t| space_name(t, cx)).transpose()?;
    let value = setting.text.to_ascii_lowercase();
    let value = if point.settings().contains(&value.as_str()) {
        value
    } else if point == PogPoint::Retreat {
        space_name(setting, cx)?
    } else {
        return Err(Diagnostic::error(
            format!("'{}' is not a setting of {}", setting.text, point.key()),
            setting.span.clone(),
        )
        .hint(format!("settings: {}", point.settings().join(", ")))
        .rule(point.rule()));
    };
    let key = match scope {
        Some(s) => format!("{}@{s}", point.key()),
        None => point.key().to_string(),
    };
    Ok((key, value))
}

fn space_name(t: &Token, cx: &Context<'_>) -> Result<String, Diagnostic> {
    match cx.map.find(&t.text) {
        Some(i) => Ok(cx.map.area(i).id.clone()),
        None => Err(
            Diagnostic::error(format!("unknown space '{}'", t.text), t.span.clone())
                .maybe_hint(cx.map.suggest(&t.text))
                .rule(ORDER_SYNTAX),
        ),
    }
}
