//! Rule citations. Every rule the code applies, and every SOP decision, names its source as a [`Rule`]:
//! the game system's short name and the rule number ("EiA 7.5.2.10.2"). The rule's text is never copied.

use std::fmt;

/// A rule of a game system, cited by number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rule {
    /// The game system: "EiA", "PoG", or "pbem" for the conventions of this program itself.
    pub system: &'static str,
    /// The rule number as the rulebook prints it ("7.5.2.10.2").
    pub number: &'static str,
    /// A few words of what it is about, in our words ("victors always pursue").
    pub topic: &'static str,
}

impl Rule {
    pub const fn new(system: &'static str, number: &'static str, topic: &'static str) -> Self {
        Rule {
            system,
            number,
            topic,
        }
    }

    /// "EiA 7.5.2.10.2".
    pub fn cite(&self) -> String {
        // Joined rather than formatted: every event cites its rule (issue 39).
        [self.system, " ", self.number].concat()
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.system, self.number, self.topic)
    }
}
