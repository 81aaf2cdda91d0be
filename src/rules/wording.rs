//! The wording the rulesets' events share: a verb that agrees with the units named before it, a
//! number of men.

/// The verb of a sentence whose subject is `n` units named in a list: `one` ("attacks") for a
/// single unit (or for "no unit", an empty list), `many` ("attack") for several. "GE-1 attacks
/// Lille", "GE-1, GE-2 attack Lille". So too a pronoun or noun that follows their number ("It" or
/// "They", "the marker" or "the markers" of one unit or several).
pub fn verb<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n > 1 {
        many
    } else {
        one
    }
}

/// A number of men: "1 man", "0 men", "3000 men" (GITM counts brigades, losses and a merge's
/// excess in men, GITM 3.1).
pub fn men(n: u32) -> String {
    if n == 1 {
        "1 man".to_string()
    } else {
        format!("{n} men")
    }
}

#[cfg(test)]
mod tests {
    use super::{men, verb};

    #[test]
    fn one_man_is_a_man() {
        assert_eq!(men(1), "1 man");
        assert_eq!(men(0), "0 men");
        assert_eq!(men(3000), "3000 men");
    }

    #[test]
    fn a_verb_agrees_with_the_number_of_units_named() {
        assert_eq!(verb(0, "attacks", "attack"), "attacks");
        assert_eq!(verb(1, "attacks", "attack"), "attacks");
        assert_eq!(verb(2, "attacks", "attack"), "attack");
        assert_eq!(verb(5, "is", "are"), "are");
    }
}
