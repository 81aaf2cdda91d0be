//! An order's form as the order guide writes it (`move <unit> <area> ...`), given back as the hint
//! to a line written wrong, in the player's own words: each placeholder filled with the first word
//! of his line that fits it (his unit, his hex, a space of the map), each word used once; a
//! placeholder no word fits stays as the guide writes it. Every ruleset's syntax hints are made
//! here, so that no hint names a piece of one side to the other, nor a piece of another game (the
//! fixed examples they gave before named `FR-I`, `GE-1` or `FR-III` to every power).

use crate::orders::Token;

/// `write '<form>'`, the placeholders of `form` (words in angle brackets, after an optional `[`)
/// filled from `args` by `fits(placeholder, word)`: the word as the hint writes it when it fits the
/// placeholder (`"<unit>"`), else `None`.
pub fn in_his_words(
    form: &str,
    args: &[Token],
    fits: impl Fn(&str, &Token) -> Option<String>,
) -> String {
    let mut used = vec![false; args.len()];
    let words: Vec<String> = form
        .split(' ')
        .map(|w| {
            let (open, rest) = w.split_at(usize::from(w.starts_with('[')));
            if !rest.starts_with('<') {
                return w.to_string();
            }
            let found = args
                .iter()
                .enumerate()
                .find_map(|(i, t)| (!used[i]).then(|| fits(rest, t).map(|f| (i, f))).flatten());
            match found {
                Some((i, f)) => {
                    used[i] = true;
                    format!("{open}{f}")
                }
                None => w.to_string(),
            }
        })
        .collect();
    format!("write '{}'", words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::in_his_words;
    use crate::orders::Token;

    fn tokens(words: &[&str]) -> Vec<Token> {
        words
            .iter()
            .map(|w| Token {
                text: w.to_string(),
                span: 0..0,
            })
            .collect()
    }

    #[test]
    fn each_placeholder_takes_the_first_word_of_the_line_that_fits_it_once() {
        let fits = |p: &str, t: &Token| match p {
            "<unit>" => t.text.starts_with("FR-").then(|| t.text.clone()),
            "<hex>" => t.text.parse::<u32>().ok().map(|_| t.text.clone()),
            _ => None,
        };
        assert_eq!(
            in_his_words(
                "move <unit> <hex> <hex> [with <unit> ...]",
                &tokens(&["0605", "FR-Ney", "FR-Murat"]),
                fits
            ),
            "write 'move FR-Ney 0605 <hex> [with FR-Murat ...]'"
        );
        assert_eq!(
            in_his_words("forage <hex>", &tokens(&[]), fits),
            "write 'forage <hex>'"
        );
    }
}
