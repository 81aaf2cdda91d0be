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
    /// How a decision was taken, told to the power it was taken for (its report's "decided by
    /// your standing order").
    pub fn describe(self) -> &'static str {
        match self {
            DecidedBy::Order => "by your order",
            DecidedBy::Standing => "by your standing order",
            DecidedBy::Sop => "by the SOP",
            DecidedBy::Roll => "at random",
        }
    }

    /// [`describe`](Self::describe), a decision of the ruleset's defaults told in its words
    /// (`by_default`, `Ruleset::decided_by_default`: "by the default orders of GITM 6.9").
    pub fn describe_with(self, by_default: &'static str) -> &'static str {
        match self {
            DecidedBy::Sop => by_default,
            other => other.describe(),
        }
    }

    /// How a decision was taken, in the words of an event's text: "by its standing order".
    fn phrase(self) -> &'static str {
        match self {
            DecidedBy::Order => "by its order",
            DecidedBy::Standing => "by its standing order",
            DecidedBy::Sop => "by the SOP",
            DecidedBy::Roll => "at random",
        }
    }

    /// How the decision was taken, written into an event's text with the words `before` and `after`
    /// it (`d.by.aside(" (", ")")`: " (by its standing order)"), marked as the deciding power's
    /// alone: the event tells it to the power its decision is for, and every other power reads the
    /// text without it, the outcome alone ([`told_apart`], `Event::text_for`).
    pub fn aside<'a>(self, before: &'a str, after: &'a str) -> Aside<'a> {
        Aside {
            before,
            phrase: self.phrase(),
            after,
        }
    }
}

/// The marks around the words of an event's text that only the deciding power reads ([`Aside`]):
/// control characters, never in a text otherwise (nor among the binding's marks of its dice,
/// `engine::binding`).
const ASIDE_OPEN: char = '\u{e}';
const ASIDE_CLOSE: char = '\u{f}';

/// How a decision was taken, as an event's text tells it: written marked, read apart by
/// [`told_apart`].
///
/// The design (fog of war, docs in ORDERS.md "Who decides" and ARCHITECTURE.md): a power's
/// standing orders are private in every game pbem runs, and so is whether it has one: "by its
/// standing order" tells another power how that power will decide again, and "by the SOP" that it
/// has no standing order there. So how a decision was taken is told to the power it was taken for
/// alone (the event's `decision` note names it); every other power that sees the event reads the
/// outcome alone, and no note of the decision. The referee's log keeps everything. "At random" is
/// withheld alike: where the roll is listed under the event, the other power reads the roll and
/// the words add nothing; where it is not, they would tell him that the power has neither a
/// standing order nor an SOP setting there. A decision taken for every power at once (`all`: the
/// order of the combats) is no power's secret and is told as it is.
#[derive(Debug, Clone, Copy)]
pub struct Aside<'a> {
    before: &'a str,
    phrase: &'a str,
    after: &'a str,
}

/// Words of an event's text that tell how a decision was taken beyond [`DecidedBy::aside`] (what
/// a standing order named, where the SOP set it aside), marked as the deciding power's alone.
pub fn aside(words: &str) -> Aside<'_> {
    Aside {
        before: "",
        phrase: words,
        after: "",
    }
}

impl std::fmt::Display for Aside<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{ASIDE_OPEN}{}{}{}{ASIDE_CLOSE}",
            self.before, self.phrase, self.after
        )
    }
}

/// A text written with [`Aside`]s read apart: the whole text (the marks taken out, their words
/// kept), as the deciding power and the referee read it, and the text without the marked words, as
/// every other power reads it; none when the text has no mark. A mark left open runs to the end of
/// the text, and a close without its open is dropped: no text makes it tell more.
pub fn told_apart(marked: &str) -> Option<(String, String)> {
    if !marked.contains([ASIDE_OPEN, ASIDE_CLOSE]) {
        return None;
    }
    let mut whole = String::with_capacity(marked.len());
    let mut outcome = String::with_capacity(marked.len());
    let mut inside = false;
    for c in marked.chars() {
        match c {
            ASIDE_OPEN => inside = true,
            ASIDE_CLOSE => inside = false,
            c => {
                whole.push(c);
                if !inside {
                    outcome.push(c);
                }
            }
        }
    }
    Some((whole, outcome))
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

    /// How a decision was taken is written marked, and read apart: whole for the deciding power
    /// and the referee, without those words for every other power; a text with no mark is left.
    #[test]
    fn how_a_decision_was_taken_is_read_apart_from_its_outcome() {
        let text = format!(
            "RF does not intercept BF at Bay{}: {}it stays.",
            DecidedBy::Standing.aside(" (", ")"),
            aside("the standing order names RF; ")
        );
        assert_eq!(
            told_apart(&text),
            Some((
                "RF does not intercept BF at Bay (by its standing order): the standing order names RF; it stays."
                    .to_string(),
                "RF does not intercept BF at Bay: it stays.".to_string()
            ))
        );
        for by in [
            DecidedBy::Order,
            DecidedBy::Standing,
            DecidedBy::Sop,
            DecidedBy::Roll,
        ] {
            let (whole, outcome) = told_apart(&format!("x{}.", by.aside(", ", ""))).unwrap();
            assert_eq!(whole, format!("x, {}.", by.phrase()));
            assert_eq!(outcome, "x.");
        }
        assert_eq!(told_apart("no mark, (by the SOP)"), None);
        // A mark left open hides the rest; a close alone is dropped; neither is in either text.
        assert_eq!(
            told_apart("a\u{e}b\u{f}c\u{f}d\u{e}e"),
            Some(("abcde".to_string(), "acd".to_string()))
        );
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
