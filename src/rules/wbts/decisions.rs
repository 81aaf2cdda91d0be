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
use crate::diag::Diagnostic;
use crate::orders::{Line, Token, ORDER_SYNTAX};
use crate::rule::Rule;
use crate::rules::standing::{self, Standing};

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
    /// What a standing order of this point may be scoped to.
    pub fn scope(self) -> Scope {
        match self {
            WbtsPoint::Losses => Scope::None,
            WbtsPoint::Chit | WbtsPoint::Shift | WbtsPoint::Risk => Scope::HexOrLeader,
            _ => Scope::Hex,
        }
    }
}

impl Standing for WbtsPoint {
    const ALL: &'static [WbtsPoint] = &[
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
    const GAME: &'static str = "WBTS";
    const EXAMPLE: &'static str = "standing chit 0506 2";

    fn scope_form(self) -> &'static str {
        match self.scope() {
            Scope::None => "",
            Scope::Hex => " [<hex>]",
            Scope::HexOrLeader => " [<hex> or <leader>]",
        }
    }

    /// The fixed settings (a leader for `leader`, a hex for `retreat` besides).
    fn settings(self) -> &'static [&'static str] {
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
    let (point, scope, setting) = standing::split::<WbtsPoint>(line, args)?;
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
        // One word after the key that names a scope: the setting is what is missing.
        if scope.is_none() && point.scope() != Scope::None {
            if names.hex(&setting.text).is_some() {
                return Err(standing::no_setting(point, setting, "the hex"));
            }
            if point.scope() == Scope::HexOrLeader && names.own_leader(&setting.text).is_some() {
                return Err(standing::no_setting(point, setting, "the leader"));
            }
        }
        let more = match point {
            WbtsPoint::Retreat => ", or a hex",
            WbtsPoint::Leader => ", or one of your leaders",
            _ => "",
        };
        return Err(standing::not_a_setting(point, setting, more));
    };
    Ok((standing::filed_key(point, scope), value))
}
