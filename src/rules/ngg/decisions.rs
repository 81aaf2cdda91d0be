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
use crate::diag::{did_you_mean, Diagnostic};
use crate::orders::{Line, Token, ORDER_SYNTAX};
use crate::rule::Rule;

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
    pub const ALL: [NggPoint; 6] = [
        NggPoint::AttackCc,
        NggPoint::AttackSupport,
        NggPoint::AttackReserve,
        NggPoint::DefenceCc,
        NggPoint::DefenceSupport,
        NggPoint::DefenceReserve,
    ];

    /// The word settings; the others take a number.
    pub fn settings(self) -> &'static [&'static str] {
        match self {
            NggPoint::AttackSupport | NggPoint::DefenceSupport => &["all", "none"],
            _ => &[],
        }
    }

    pub fn numeric(self) -> bool {
        self.settings().is_empty()
    }

    /// Whether a standing order may name a hex before its setting.
    pub fn scoped(self) -> bool {
        !matches!(self, NggPoint::AttackReserve | NggPoint::DefenceReserve)
    }

    pub fn from_key(key: &str) -> Option<NggPoint> {
        NggPoint::ALL.into_iter().find(|p| p.key() == key)
    }

    /// Whether `value` is a setting of this point.
    pub fn accepts(self, value: &str) -> bool {
        if self.numeric() {
            number(value).is_some()
        } else {
            self.settings().contains(&value)
        }
    }

    /// "a number from 0 to 99" or "all, none".
    pub fn settings_hint(self) -> String {
        if self.numeric() {
            "a number of CCs from 0 to 99".to_string()
        } else {
            self.settings().join(", ")
        }
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

/// Checks a `[sop]` setting of game.toml; the hint on failure.
pub fn check_sop(key: &str, value: &str) -> Result<(), String> {
    let Some(p) = NggPoint::from_key(key) else {
        let keys: Vec<&str> = NggPoint::ALL.iter().map(|p| p.key()).collect();
        return Err(did_you_mean(key, keys.iter().copied()).map_or_else(
            || format!("the SOP keys of NGG are: {}", keys.join(", ")),
            |k| format!("did you mean '{k}'?"),
        ));
    };
    if p.accepts(value) {
        Ok(())
    } else {
        Err(format!("{key} is {}", p.settings_hint()))
    }
}

/// Parses `standing <key> [<hex>] <setting>` into the key (with `@<hex>` when scoped) and the
/// setting; `hex` reads a hex or place name.
pub fn parse_standing(
    line: &Line,
    args: &[Token],
    hex: impl Fn(&Token) -> Result<String, Diagnostic>,
) -> Result<(String, String), Diagnostic> {
    let keys: Vec<&str> = NggPoint::ALL.iter().map(|p| p.key()).collect();
    let Some((key, rest)) = args.split_first() else {
        return Err(
            Diagnostic::error("'standing' needs a key and a setting", line.span.clone())
                .hint(format!(
                    "write it as 'standing defence-cc 2'; the keys: {}",
                    keys.join(", ")
                ))
                .rule(ORDER_SYNTAX),
        );
    };
    let Some(point) = NggPoint::from_key(&key.text.to_ascii_lowercase()) else {
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
            let form = if point.scoped() { " [<hex>]" } else { "" };
            return Err(Diagnostic::error(
                format!("'standing {}' takes{form} <setting>", point.key()),
                line.span.clone(),
            )
            .hint(format!("settings: {}", point.settings_hint()))
            .rule(ORDER_SYNTAX));
        }
    };
    let scope = scope.map(hex).transpose()?;
    let value = setting.text.to_ascii_lowercase();
    if !point.accepts(&value) {
        return Err(Diagnostic::error(
            format!("'{}' is not a setting of {}", setting.text, point.key()),
            setting.span.clone(),
        )
        .hint(format!("settings: {}", point.settings_hint()))
        .rule(point.rule()));
    }
    let value = if point.numeric() {
        number(&value).unwrap_or(0).to_string()
    } else {
        value
    };
    let key = match scope {
        Some(s) => format!("{}@{s}", point.key()),
        None => point.key().to_string(),
    };
    Ok((key, value))
}
