//! The decision points of an EiA turn and their Standing Operating Procedures (EiA 19.1). Each is
//! settled by `decide::decide`: explicit order, standing order, SOP setting, roll. Adding a decision is
//! one variant here and its policy (rule, key, default) in the `Point` impl.

use crate::decide::Point;
use crate::rule::Rule;

use super::tables::Tables;

/// EiA 7.5.1.3: the order of land combats is determined randomly.
pub const COMBAT_ORDER: Rule = Rule::new("EiA", "7.5.1.3", "the order of combats is random");
/// EiA 19.1: the tactical chit of each side, the first of the four interrupts, made a standing order.
pub const CHIT: Rule = Rule::new(
    "EiA",
    "19.1",
    "tactical chit by order, standing order or SOP",
);
/// EiA 7.5.2.10.2: victorious forces always pursue.
pub const PURSUIT: Rule = Rule::new("EiA", "7.5.2.10.2", "victors always pursue");
/// EiA 7.5.2.10.3: retreat toward the nearest depot or capital, random among equals.
pub const RETREAT: Rule = Rule::new(
    "EiA",
    "7.5.2.10.3",
    "retreat toward the nearest depot or capital, random among equals",
);
/// EiA 7.5.2.11: forces eligible to reinforce a combat always try.
pub const REINFORCE: Rule = Rule::new(
    "EiA",
    "7.5.2.11",
    "eligible forces always attempt to reinforce",
);
/// EiA 10.6.1.1: among equally eligible leaders of different nationality, seniority, then at random.
pub const COMMANDER: Rule = Rule::new(
    "EiA",
    "10.6.1.1",
    "force commander by seniority, then at random",
);

/// A decision of an EiA turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EiaPoint {
    /// The attacker's tactical chit.
    AttackChit,
    /// The defender's tactical chit.
    DefenceChit,
    /// Whether the victor pursues.
    Pursue,
    /// Whether an eligible corps tries to reinforce.
    Reinforce,
}

impl Point for EiaPoint {
    fn rule(&self) -> Rule {
        match self {
            EiaPoint::AttackChit | EiaPoint::DefenceChit => CHIT,
            EiaPoint::Pursue => PURSUIT,
            EiaPoint::Reinforce => REINFORCE,
        }
    }

    fn key(&self) -> &'static str {
        match self {
            EiaPoint::AttackChit => "attack-chit",
            EiaPoint::DefenceChit => "defence-chit",
            EiaPoint::Pursue => "pursue",
            EiaPoint::Reinforce => "reinforce",
        }
    }

    /// The SOP of EiA 19.1.2 where it fixes one; the chits default to the first of their lists.
    fn sop_default(&self) -> Option<&'static str> {
        match self {
            EiaPoint::AttackChit | EiaPoint::DefenceChit => None,
            EiaPoint::Pursue | EiaPoint::Reinforce => Some("always"),
        }
    }
}

/// `always` / `never` as a yes or no.
pub fn always_never(s: &str) -> Option<bool> {
    match s {
        "always" => Some(true),
        "never" => Some(false),
        _ => None,
    }
}

/// Checks a `[sop]` setting of game.toml; the error is a hint listing what is allowed.
pub fn check_sop(key: &str, value: &str, tables: &Tables) -> Result<(), String> {
    use super::standing::{parse_continue, parse_guard, parse_surrender};
    let list = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (ok, allowed) = match key {
        "attack-chit" => (
            tables.chits.attack.iter().any(|c| c == value),
            tables.chits.attack.clone(),
        ),
        "defence-chit" => (
            tables.chits.defence.iter().any(|c| c == value),
            tables.chits.defence.clone(),
        ),
        "pursue" | "reinforce" => (
            matches!(value, "always" | "never"),
            list(&["always", "never"]),
        ),
        "guard" => (
            parse_guard(value).is_some(),
            list(&[
                "never",
                "always",
                "before round N",
                "when losing after round N",
            ]),
        ),
        "continue" => (
            parse_continue(value).is_some(),
            list(&["never", "always", "when winning"]),
        ),
        "surrender" => (
            parse_surrender(value).is_some(),
            list(&["never", "always", "when outnumbered N"]),
        ),
        "honours" => (matches!(value, "grant" | "deny"), list(&["grant", "deny"])),
        "tactics" => (
            matches!(value, "melee" | "linear-attack" | "linear-defence"),
            list(&["melee", "linear-attack", "linear-defence"]),
        ),
        _ => {
            return Err(format!(
                "the SOP settings of EiA are: {}",
                super::standing::KEYS.join(", ")
            ))
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!("write one of: {}", allowed.join(", ")))
    }
}
