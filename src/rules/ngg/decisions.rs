//! The decisions of an NGG combat phase that a player settles ahead, by mail, and the grammar of the
//! standing orders that settle them. Each is settled by `decide::decide`: this turn's order (an
//! attack line's `cc` and `support`, a `defend` line, `keep`), the power's standing order (scoped to
//! a hex first), the game's `[sop]` setting or the default here.
//!
//! | key | scope | settings | SOP default | rule |
//! |---|---|---|---|---|
//! | `attack-cc` | attacking hex | a number | `0` | NGG 10.2 |
//! | `attack-support` | attacking hex | `all`, `none` | `all` | NGG 10.3 |
//! | `attack-reserve` | | a number | `0` | NGG 10.2 |
//! | `defence-cc` | defending hex | a number | `1` | NGG 10.6 |
//! | `defence-support` | defending hex | `all`, `none` | `all` | NGG 10.5 |
//! | `defence-reserve` | | a number | `0` | NGG 10.6 |
//!
//! `attack-reserve` is the CCs the attacks leave for defence ("keep 3 for defence"); `defence-reserve`
//! the CCs a defence never spends ("never spend the last 2"). A number is at most 99.

#![allow(clippy::result_large_err)]

use crate::decide::Point;
use crate::diag::Diagnostic;
use crate::orders::{Line, Token};
use crate::rule::Rule;
use crate::rules::standing::{self, Standing};

use super::rules;

/// A decision point of NGG.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NggPoint {
    /// CCs allocated to an attack (10.2).
    AttackCc,
    /// Which supporting stacks an attack that goes ahead calls (10.3).
    AttackSupport,
    /// CCs the attacks leave for defence (10.2: up to those remaining).
    AttackReserve,
    /// CCs allocated to a defence (10.6).
    DefenceCc,
    /// Which supporting stacks a defence calls (10.5).
    DefenceSupport,
    /// CCs a defence never spends (10.6: up to those remaining).
    DefenceReserve,
}

impl NggPoint {
    pub fn numeric(self) -> bool {
        self.settings().is_empty()
    }
}

impl Standing for NggPoint {
    const ALL: &'static [NggPoint] = &[
        NggPoint::AttackCc,
        NggPoint::AttackSupport,
        NggPoint::AttackReserve,
        NggPoint::DefenceCc,
        NggPoint::DefenceSupport,
        NggPoint::DefenceReserve,
    ];
    const GAME: &'static str = "NGG";
    const EXAMPLE: &'static str = "standing defence-cc 2";

    /// A hex before the setting, but for the reserves.
    fn scope_form(self) -> &'static str {
        match self {
            NggPoint::AttackReserve | NggPoint::DefenceReserve => "",
            _ => " [<hex>]",
        }
    }

    /// The word settings; the others take a number.
    fn settings(self) -> &'static [&'static str] {
        match self {
            NggPoint::AttackSupport | NggPoint::DefenceSupport => &["all", "none"],
            _ => &[],
        }
    }

    fn accepts(self, value: &str) -> bool {
        if self.numeric() {
            number(value).is_some()
        } else {
            self.settings().contains(&value)
        }
    }

    /// "a number from 0 to 99" or "all, none".
    fn settings_hint(self) -> String {
        if self.numeric() {
            "a number of CCs from 0 to 99".to_string()
        } else {
            self.settings().join(", ")
        }
    }

    fn sop_hint(self) -> String {
        self.settings_hint()
    }
}

/// A number of CCs, 0 to 99.
pub fn number(text: &str) -> Option<u32> {
    text.parse::<u32>().ok().filter(|n| *n <= 99)
}

impl Point for NggPoint {
    fn rule(&self) -> Rule {
        match self {
            NggPoint::AttackCc | NggPoint::AttackReserve => rules::TEST,
            NggPoint::AttackSupport => rules::CALL_SUPPORT,
            NggPoint::DefenceCc | NggPoint::DefenceReserve => rules::DEFENCE_TEST,
            NggPoint::DefenceSupport => rules::DEFENCE_CALL,
        }
    }

    fn key(&self) -> &'static str {
        match self {
            NggPoint::AttackCc => "attack-cc",
            NggPoint::AttackSupport => "attack-support",
            NggPoint::AttackReserve => "attack-reserve",
            NggPoint::DefenceCc => "defence-cc",
            NggPoint::DefenceSupport => "defence-support",
            NggPoint::DefenceReserve => "defence-reserve",
        }
    }

    fn sop_default(&self) -> Option<&'static str> {
        Some(match self {
            NggPoint::AttackCc | NggPoint::AttackReserve | NggPoint::DefenceReserve => "0",
            NggPoint::DefenceCc => "1",
            NggPoint::AttackSupport | NggPoint::DefenceSupport => "all",
        })
    }
}

/// Parses `standing <key> [<hex>] <setting>` into the key (with `@<hex>` when scoped) and the
/// setting (`rules::standing`); `hex` reads a hex or place name.
pub fn parse_standing(
    line: &Line,
    args: &[Token],
    hex: impl Fn(&Token) -> Result<String, Diagnostic>,
) -> Result<(String, String), Diagnostic> {
    let (point, scope, setting) = standing::split::<NggPoint>(line, args)?;
    let scope = scope.map(&hex).transpose()?;
    let value = setting.text.to_ascii_lowercase();
    if !point.accepts(&value) {
        // One word after the key that names a hex: the setting is what is missing.
        if scope.is_none() && !point.scope_form().is_empty() && hex(setting).is_ok() {
            return Err(standing::no_setting(point, setting, "the hex"));
        }
        return Err(standing::not_a_setting(point, setting, ""));
    }
    let value = if point.numeric() {
        number(&value).unwrap_or(0).to_string()
    } else {
        value
    };
    Ok((standing::filed_key(point, scope), value))
}
