//! The choices of a WBTS combat that are not the active player's to make: every choice of the
//! defender, and the attacker's own when his orders leave them out. Each is settled by
//! `decide::decide`: the order, the power's standing order (scoped to a leader first, then to a hex,
//! then power-wide), the game's `[sop]` setting or the default here. Zero interrupts.
//!
//! | key | scope | settings | SOP default | rule |
//! |---|---|---|---|---|
//! | `leader` | a hex | `best`, `none`, a leader | `best` | WBTS ground/defender-leader |
//! | `chit` | a hex or a leader | `max`, `0`-`4` | `max` | WBTS ground/intensity |
//! | `shift` | a hex or a leader | `best`, `none`, `1`-`4` | `best` | WBTS ground/shift |
//! | `risk` | a hex or a leader | `always`, `never` | `always` | WBTS ground/leader-loss |
//! | `ignore-retreat` | a hex | `always`, `never` | `always` | WBTS ground/ignore-retreat |
//! | `retreat` | a hex | `away`, a hex | `away` | WBTS ground/retreat |
//! | `losses` | | `larger-first`, `cavalry-last`, `artillery-last` | `larger-first` | WBTS ground/losses |
//! | `evade` | a hex | `always`, `never` | `always` | WBTS march/evade |
//! | `fort` | a hex | `inside`, `outside` | `inside` | WBTS fort/inside |
//! | `ships` | a hex | `support`, `stay-out` | `support` | WBTS naval/support |

#![allow(clippy::result_large_err)]

use crate::decide::Point;
use crate::diag::{did_you_mean, Diagnostic};
use crate::orders::{Line, Token, ORDER_SYNTAX};
use crate::rule::Rule;

use super::rules;

/// A decision point of WBTS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WbtsPoint {
    Leader,
    Chit,
    Shift,
    Risk,
    IgnoreRetreat,
    Retreat,
    Losses,
    Evade,
    Fort,
    Ships,
}

impl WbtsPoint {
    pub const ALL: [WbtsPoint; 10] = [
        WbtsPoint::Leader,
        WbtsPoint::Chit,
        WbtsPoint::Shift,
        WbtsPoint::Risk,
        WbtsPoint::IgnoreRetreat,
        WbtsPoint::Retreat,
        WbtsPoint::Losses,
        WbtsPoint::Evade,
        WbtsPoint::Fort,
        WbtsPoint::Ships,
    ];

    /// The fixed settings (a leader for `leader`, a hex for `retreat`, a number for `chit` and
    /// `shift` besides).
    pub fn settings(self) -> &'static [&'static str] {
        match self {
            WbtsPoint::Leader => &["best", "none"],
            WbtsPoint::Chit => &["max", "0", "1", "2", "3", "4"],
            WbtsPoint::Shift => &["best", "none", "1", "2", "3", "4"],
            WbtsPoint::Risk => &["always", "never"],
            WbtsPoint::IgnoreRetreat => &["always", "never"],
            WbtsPoint::Retreat => &["away"],
            WbtsPoint::Losses => &super::losses::LossPolicy::SETTINGS,
            WbtsPoint::Evade => &["always", "never"],
            WbtsPoint::Fort => &["inside", "outside"],
            WbtsPoint::Ships => &["support", "stay-out"],
        }
    }

    /// What a standing order may be scoped to.
    pub fn scope(self) -> Scope {
        match self {
            WbtsPoint::Losses => Scope::None,
            WbtsPoint::Chit | WbtsPoint::Shift | WbtsPoint::Risk => Scope::HexOrLeader,
            _ => Scope::Hex,
        }
    }

    pub fn from_key(key: &str) -> Option<WbtsPoint> {
        WbtsPoint::ALL.into_iter().find(|p| p.key() == key)
    }
}

/// What a standing order of a point may name before its setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    None,
    Hex,
    HexOrLeader,
}

impl Point for WbtsPoint {
    fn rule(&self) -> Rule {
        match self {
            WbtsPoint::Leader => rules::DEFENDING_LEADER,
            WbtsPoint::Chit => rules::INTENSITY,
            WbtsPoint::Shift => rules::SHIFT,
            WbtsPoint::Risk => rules::LEADER_LOSS,
            WbtsPoint::IgnoreRetreat => rules::IGNORE_RETREAT,
            WbtsPoint::Retreat => rules::RETREAT,
            WbtsPoint::Losses => rules::EVEN_LOSSES,
            WbtsPoint::Evade => rules::EVADE,
            WbtsPoint::Fort => rules::INSIDE,
            WbtsPoint::Ships => rules::NAVAL_SUPPORT,
        }
    }

    fn key(&self) -> &'static str {
        match self {
            WbtsPoint::Leader => "leader",
            WbtsPoint::Chit => "chit",
            WbtsPoint::Shift => "shift",
            WbtsPoint::Risk => "risk",
            WbtsPoint::IgnoreRetreat => "ignore-retreat",
            WbtsPoint::Retreat => "retreat",
            WbtsPoint::Losses => "losses",
            WbtsPoint::Evade => "evade",
            WbtsPoint::Fort => "fort",
            WbtsPoint::Ships => "ships",
        }
    }

    fn sop_default(&self) -> Option<&'static str> {
        Some(self.settings()[0])
    }
}

/// Checks a `[sop]` setting of game.toml; the hint on failure.
pub fn check_sop(key: &str, value: &str) -> Result<(), String> {
    let Some(p) = WbtsPoint::from_key(key) else {
        let keys: Vec<&str> = WbtsPoint::ALL.iter().map(|p| p.key()).collect();
        return Err(did_you_mean(key, keys.iter().copied()).map_or_else(
            || format!("the SOP keys of WBTS are: {}", keys.join(", ")),
            |k| format!("did you mean '{k}'?"),
        ));
    };
    if p.settings().contains(&value) {
        Ok(())
    } else {
        Err(format!("{key} is one of: {}", p.settings().join(", ")))
    }
}

/// What parsing a standing order needs: the names of hexes and of the power's leaders.
pub trait Names {
    /// The canonical hex id a word names.
    fn hex(&self, text: &str) -> Option<String>;
    /// The canonical id of the power's own leader a word names.
    fn own_leader(&self, text: &str) -> Option<String>;
}

/// Parses `standing <key> [<hex>|<leader>] <setting>` into the key (`chit@0506`, `shift@Lee`) and
/// the setting.
pub fn parse_standing(
    line: &Line,
    args: &[Token],
    names: &dyn Names,
) -> Result<(String, String), Diagnostic> {
    let keys: Vec<&str> = WbtsPoint::ALL.iter().map(|p| p.key()).collect();
    let Some((key, rest)) = args.split_first() else {
        return Err(
            Diagnostic::error("'standing' needs a key and a setting", line.span.clone())
                .hint(format!(
                    "write it as 'standing chit 0506 2'; the keys: {}",
                    keys.join(", ")
                ))
                .rule(ORDER_SYNTAX),
        );
    };
    let Some(point) = WbtsPoint::from_key(&key.text.to_ascii_lowercase()) else {
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
        [sc, s] if point.scope() != Scope::None => (Some(sc), s),
        _ => {
            let form = match point.scope() {
                Scope::None => "",
                Scope::Hex => " [<hex>]",
                Scope::HexOrLeader => " [<hex> or <leader>]",
            };
            return Err(Diagnostic::error(
                format!("'standing {}' takes{form} <setting>", point.key()),
                line.span.clone(),
            )
            .hint(format!("settings: {}", point.settings().join(", ")))
            .rule(ORDER_SYNTAX));
        }
    };
    let scope = match scope {
        None => None,
        Some(t) => Some(match names.hex(&t.text) {
            Some(h) => h,
            None => match names.own_leader(&t.text).filter(|_| point.scope() == Scope::HexOrLeader) {
                Some(l) => l,
                None => {
                    return Err(Diagnostic::error(
                        format!("'{}' is no hex{}", t.text, if point.scope() == Scope::HexOrLeader { " and none of your leaders" } else { "" }),
                        t.span.clone(),
                    )
                    .hint("scope a standing order with a hex id as your report writes it (0506), or one of your leaders")
                    .rule(ORDER_SYNTAX))
                }
            },
        }),
    };
    let value = setting.text.to_ascii_lowercase();
    let value = if point.settings().contains(&value.as_str()) {
        value
    } else if point == WbtsPoint::Retreat && names.hex(&setting.text).is_some() {
        names.hex(&setting.text).unwrap_or(value)
    } else if point == WbtsPoint::Leader && names.own_leader(&setting.text).is_some() {
        names.own_leader(&setting.text).unwrap_or(value)
    } else {
        return Err(Diagnostic::error(
            format!("'{}' is not a setting of {}", setting.text, point.key()),
            setting.span.clone(),
        )
        .hint(format!(
            "settings: {}{}",
            point.settings().join(", "),
            match point {
                WbtsPoint::Retreat => ", or a hex",
                WbtsPoint::Leader => ", or one of your leaders",
                _ => "",
            }
        ))
        .rule(point.rule()));
    };
    let key = match scope {
        Some(s) => format!("{}@{s}", point.key()),
        None => point.key().to_string(),
    };
    Ok((key, value))
}
