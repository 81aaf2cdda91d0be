//! The wording the rulesets' events share: a verb that agrees with the units named before it.

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

#[cfg(test)]
mod tests {
    use super::verb;

    #[test]
    fn a_verb_agrees_with_the_number_of_units_named() {
        assert_eq!(verb(0, "attacks", "attack"), "attacks");
        assert_eq!(verb(1, "attacks", "attack"), "attacks");
        assert_eq!(verb(2, "attacks", "attack"), "attack");
        assert_eq!(verb(5, "is", "are"), "are");
    }
}
