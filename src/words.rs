//! English words pbem writes of a name it does not know in advance (a power's, a leader's, a
//! unit's): one place for the rule, so that no sentence writes "Allied Powers's".

use std::fmt;

/// The possessive of `name`, written when shown: "France's", "Allied Powers'", "Confederate
/// States'", "allies'". A name ending in a lower-case `s` (a plural, "Central Powers"; a name such
/// as "Keyes") takes the apostrophe alone; any other, `'s` ("US's", "FR-I's").
///
/// `format!("{} runs it", Possessive(name))` writes it without a copy; [`possessive`] returns it.
#[derive(Debug, Clone, Copy)]
pub struct Possessive<'a>(pub &'a str);

impl fmt::Display for Possessive<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)?;
        f.write_str(if self.0.ends_with('s') { "'" } else { "'s" })
    }
}

/// The possessive of `name` ([`Possessive`]) as a string.
pub fn possessive(name: &str) -> String {
    Possessive(name).to_string()
}

/// The name a possessive was made of: `word` without its `'s` or, after an `s`, its `'` (the
/// first word of an event's text, "allies'" or "french's", read back as the power it names).
pub fn owner_of(word: &str) -> &str {
    word.strip_suffix("'s")
        .or_else(|| word.strip_suffix('\'').filter(|w| w.ends_with('s')))
        .unwrap_or(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_ending_in_s_takes_the_apostrophe_alone() {
        assert_eq!(possessive("France"), "France's");
        assert_eq!(possessive("Allied Powers"), "Allied Powers'");
        assert_eq!(possessive("Confederate States"), "Confederate States'");
        assert_eq!(possessive("allies"), "allies'");
        assert_eq!(possessive("US"), "US's");
        assert_eq!(
            possessive("Russian Armies of the West"),
            "Russian Armies of the West's"
        );
        assert_eq!(format!("{}", Possessive("Keyes")), "Keyes'");
    }

    #[test]
    fn owner_of_reads_a_possessive_back() {
        for name in ["France", "allies", "US", "FR-I"] {
            assert_eq!(owner_of(&possessive(name)), name);
        }
        assert_eq!(owner_of("French"), "French");
        assert_eq!(owner_of("'"), "'");
    }
}
