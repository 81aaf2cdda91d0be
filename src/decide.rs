//! Decision points: one mechanism settles every choice a power must make during a turn that is not his
//! own to play (DESIGN "decision point"). The order of precedence is fixed:
//! the power's explicit order for this turn, then its standing order, then the game's SOP setting,
//! then a roll where the rule says to choose at random.
//!
//! A ruleset declares its decision points as an enum implementing [`Point`]; adding a decision is one
//! variant and one policy (the SOP default in [`Point::sop_default`]).

use serde::Serialize;

use crate::rule::Rule;

/// Which of the four settled a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DecidedBy {
    /// The power's explicit order for this turn.
    Order,
    /// The power's standing order.
    Standing,
    /// The game's Standing Operating Procedure.
    Sop,
    /// A roll, where the rule says to choose at random.
    Roll,
}

impl DecidedBy {
    pub fn describe(self) -> &'static str {
        match self {
            DecidedBy::Order => "by your order",
            DecidedBy::Standing => "by your standing order",
            DecidedBy::Sop => "by the SOP",
            DecidedBy::Roll => "at random",
        }
    }

    /// The same, told to another power than the one decided for.
    pub fn describe_theirs(self) -> &'static str {
        match self {
            DecidedBy::Order => "by its order",
            DecidedBy::Standing => "by its standing order",
            DecidedBy::Sop => "by the SOP",
            DecidedBy::Roll => "at random",
        }
    }
}

/// A decision point of a ruleset.
pub trait Point {
    /// The rule that makes it a decision, and its SOP.
    fn rule(&self) -> Rule;
    /// The key of standing orders and SOP settings for it ("attack-chit", "pursue").
    fn key(&self) -> &'static str;
    /// The SOP default when the game's `[sop]` table does not set one.
    fn sop_default(&self) -> Option<&'static str>;
}

/// A settled decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision<T> {
    pub value: T,
    pub by: DecidedBy,
    pub rule: Rule,
}

/// Where the settings of one power come from, for one decision.
pub struct Sources<'a> {
    /// This turn's explicit order, if the power gave one.
    pub explicit: Option<&'a str>,
    /// The power's standing orders.
    pub standing: Option<&'a std::collections::BTreeMap<String, String>>,
    /// The unit or area the decision is about: a standing order scoped to it (`surrender@Vienna`)
    /// comes before the power-wide one.
    pub scope: Option<&'a str>,
    /// The game's `[sop]` settings.
    pub sop: &'a std::collections::BTreeMap<String, String>,
}

/// Settles `point` from the sources in precedence order; `parse` turns a setting into a value (a
/// setting it rejects is skipped); `roll` is called only when no source decides.
pub fn decide<T>(
    point: &dyn Point,
    sources: &Sources<'_>,
    parse: impl Fn(&str) -> Option<T>,
    roll: impl FnOnce() -> anyhow::Result<T>,
) -> anyhow::Result<Decision<T>> {
    let rule = point.rule();
    let key = point.key();
    let candidates = [
        (DecidedBy::Order, sources.explicit.map(str::to_string)),
        (
            DecidedBy::Standing,
            sources.standing.and_then(|s| {
                let scoped = sources.scope.and_then(|sc| s.get(&format!("{key}@{sc}")));
                scoped.or_else(|| s.get(key)).cloned()
            }),
        ),
        (
            DecidedBy::Sop,
            sources
                .sop
                .get(key)
                .cloned()
                .or(point.sop_default().map(str::to_string)),
        ),
    ];
    for (by, setting) in candidates {
        if let Some(value) = setting.as_deref().and_then(&parse) {
            return Ok(Decision { value, by, rule });
        }
    }
    Ok(Decision {
        value: roll()?,
        by: DecidedBy::Roll,
        rule,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    struct Pursue;
    impl Point for Pursue {
        fn rule(&self) -> Rule {
            Rule::new("EiA", "7.5.2.10.2", "victors always pursue")
        }
        fn key(&self) -> &'static str {
            "pursue"
        }
        fn sop_default(&self) -> Option<&'static str> {
            Some("always")
        }
    }

    struct Random;
    impl Point for Random {
        fn rule(&self) -> Rule {
            Rule::new("EiA", "7.5.1.3", "combat order is random")
        }
        fn key(&self) -> &'static str {
            "combat-order"
        }
        fn sop_default(&self) -> Option<&'static str> {
            None
        }
    }

    fn parse(s: &str) -> Option<bool> {
        match s {
            "always" => Some(true),
            "never" => Some(false),
            _ => None,
        }
    }

    #[test]
    fn precedence_is_order_standing_sop_roll() {
        let standing = BTreeMap::from([("pursue".to_string(), "never".to_string())]);
        let sop = BTreeMap::new();
        let s = Sources {
            explicit: Some("always"),
            standing: Some(&standing),
            sop: &sop,
            scope: None,
        };
        let d = decide(&Pursue, &s, parse, || Ok(false)).unwrap();
        assert_eq!((d.value, d.by), (true, DecidedBy::Order));
        let s = Sources {
            explicit: None,
            standing: Some(&standing),
            sop: &sop,
            scope: None,
        };
        assert_eq!(
            decide(&Pursue, &s, parse, || Ok(true)).unwrap().by,
            DecidedBy::Standing
        );
        let s = Sources {
            explicit: None,
            standing: None,
            sop: &sop,
            scope: None,
        };
        let d = decide(&Pursue, &s, parse, || Ok(false)).unwrap();
        assert_eq!((d.value, d.by), (true, DecidedBy::Sop));
        let d = decide(&Random, &s, parse, || Ok(false)).unwrap();
        assert_eq!(d.by, DecidedBy::Roll);
    }

    #[test]
    fn a_bad_setting_falls_through() {
        let standing = BTreeMap::from([("pursue".to_string(), "sometimes".to_string())]);
        let sop = BTreeMap::new();
        let s = Sources {
            explicit: None,
            standing: Some(&standing),
            sop: &sop,
            scope: None,
        };
        assert_eq!(
            decide(&Pursue, &s, parse, || Ok(false)).unwrap().by,
            DecidedBy::Sop
        );
    }
}
