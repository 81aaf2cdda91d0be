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
use crate::diag::Diagnostic;
use crate::orders::{Line, Token};
use crate::rule::Rule;

use super::orders::{Context, ORDER_SYNTAX};
use super::rules;
use crate::rules::standing::{self, Standing};

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

impl Standing for PogPoint {
    const ALL: &'static [PogPoint] = &[
        PogPoint::Losses,
        PogPoint::CancelRetreat,
        PogPoint::Retreat,
        PogPoint::Overstack,
        PogPoint::FireTable,
        PogPoint::DefenceCards,
        PogPoint::Advance,
    ];
    const GAME: &'static str = "PoG";
    const EXAMPLE: &'static str = "standing losses cheapest";

    /// A space before the setting for `cancel-retreat` and `retreat`.
    fn scope_form(self) -> &'static str {
        match self {
            PogPoint::CancelRetreat | PogPoint::Retreat => " [<space>]",
            _ => "",
        }
    }

    /// The settings a standing order may give (a space for `retreat` besides).
    fn settings(self) -> &'static [&'static str] {
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

/// Parses `standing <key> [<space>] <setting>` into the key (with `@<space>` when scoped) and the
/// setting (`rules::standing`).
pub fn parse_standing(
    line: &Line,
    args: &[Token],
    cx: &Context<'_>,
) -> Result<(String, String), Diagnostic> {
    let (point, scope, setting) = standing::split::<PogPoint>(line, args)?;
    let scope = scope.map(|t| space_name(t, cx)).transpose()?;
    let value = setting.text.to_ascii_lowercase();
    let value = if point.accepts(&value) {
        value
    } else if point == PogPoint::Retreat {
        space_name(setting, cx)?
    } else if scope.is_none() && !point.scope_form().is_empty() && space_name(setting, cx).is_ok() {
        // One word after the key that names a space: the setting is what is missing.
        return Err(standing::no_setting(point, setting, "the space"));
    } else {
        return Err(standing::not_a_setting(point, setting, ""));
    };
    Ok((standing::filed_key(point, scope), value))
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
