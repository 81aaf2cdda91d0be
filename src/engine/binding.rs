//! The binding of an event's text to its dice (issue 31): where a text tells a die's face, the rule
//! writes a mark there ([`told`], `Roll::told`), never the number; the event keeps the text as its
//! template, each die told as `{LABEL die N}` (the N-th die of the roll LABEL, from 1; `{{` and `}}`
//! are literal braces), and [`render`] writes the faces in. It is the one renderer: the engine
//! renders each event's text with it, and `pbem verify` (and the offline page) render the report's
//! template again from the rolls listed under the event and compare, in every ruleset alike.

use std::fmt;

/// The marks [`Told`] writes into a text: never in a text otherwise (control characters).
const OPEN: char = '\u{2}';
const SEP: char = '\u{1f}';
const CLOSE: char = '\u{3}';

/// A die as a text tells it: `format!("a {}", roll.told(0))` writes a mark that the event carrying
/// the roll renders as the die's face (`Event::new`, `Event::roll`).
#[derive(Debug, Clone, Copy)]
pub struct Told<'a> {
    label: &'a str,
    /// From 0, as `Roll::dice` counts.
    die: usize,
    /// The face, when the text is written before the roll reaches its event (GITM's tactical
    /// engine): only [`preview`] reads it; the event renders the roll's own face.
    face: Option<u32>,
}

/// The die `die` (from 0) of the roll labelled `label`, as a text tells it.
pub fn told(label: &str, die: usize) -> Told<'_> {
    Told {
        label,
        die,
        face: None,
    }
}

/// The first die of the roll `label` that showed `face`, as a text written before its event tells
/// it (GITM's tactical engine, whose dice give faces, its turn the rolls).
pub fn told_face(label: &str, face: u32) -> Told<'_> {
    Told {
        label,
        die: 0,
        face: Some(face),
    }
}

impl fmt::Display for Told<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{OPEN}{}{SEP}{}", self.label, self.die + 1)?;
        if let Some(face) = self.face {
            write!(f, "{SEP}{face}")?;
        }
        write!(f, "{CLOSE}")
    }
}

/// A marked text with each die the face written with it ([`told_face`]; `?` for one written
/// without): the text as its event will render it, for what reads it before (the tactical tests).
pub fn preview(marked: &str) -> String {
    let mut out = String::with_capacity(marked.len());
    let mut rest = marked;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        let after = &rest[at + OPEN.len_utf8()..];
        let end = after.find(CLOSE).unwrap_or(after.len());
        let face = after[..end].split(SEP).nth(2).unwrap_or("?");
        out.push_str(face);
        rest = after.get(end + CLOSE.len_utf8()..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// One part of a template: words, or a die it tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Text(String),
    /// The die `die` (from 1) of the roll `label`.
    Die {
        label: String,
        die: usize,
    },
}

/// The template of a text written with marks ([`Told`]): `None` when it tells no die.
pub fn template_of(marked: &str) -> Option<String> {
    if !marked.contains(OPEN) {
        return None;
    }
    let mut out = String::with_capacity(marked.len() + 32);
    let mut rest = marked;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&escape(&rest[..at]));
        let after = &rest[at + OPEN.len_utf8()..];
        let end = after.find(CLOSE).unwrap_or(after.len());
        let mut fields = after[..end].split(SEP);
        let label = fields.next().unwrap_or("");
        let die = fields.next().unwrap_or("1");
        out.push_str(&format!("{{{label} die {die}}}"));
        rest = after.get(end + CLOSE.len_utf8()..).unwrap_or("");
    }
    out.push_str(&escape(rest));
    Some(out)
}

/// Words as a template writes them: braces doubled.
pub fn escape(text: &str) -> String {
    text.replace('{', "{{").replace('}', "}}")
}

/// The parts of a template; an error, in words, when it is no template.
pub fn parse(template: &str) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    let mut words = String::new();
    let mut chars = template.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' if chars.peek().is_some_and(|&(_, n)| n == '{') => {
                chars.next();
                words.push('{');
            }
            '}' if chars.peek().is_some_and(|&(_, n)| n == '}') => {
                chars.next();
                words.push('}');
            }
            '{' => {
                let inner = &template[i + 1..];
                let Some(end) = inner.find('}') else {
                    return Err("a '{' is not closed".to_string());
                };
                let number = |n: &str| {
                    let digits =
                        !n.is_empty() && n.len() <= 9 && n.bytes().all(|b| b.is_ascii_digit());
                    digits.then(|| n.parse::<usize>().ok()).flatten()
                };
                let die = inner[..end]
                    .rsplit_once(" die ")
                    .and_then(|(label, n)| Some((label, number(n)?)))
                    .filter(|&(label, n)| !label.is_empty() && n >= 1);
                let Some((label, die)) = die else {
                    return Err(format!(
                        "'{{{}}}' is no die (a die is {{LABEL die N}}, N from 1)",
                        &inner[..end]
                    ));
                };
                if !words.is_empty() {
                    parts.push(Part::Text(std::mem::take(&mut words)));
                }
                parts.push(Part::Die {
                    label: label.to_string(),
                    die,
                });
                while chars.peek().is_some_and(|&(j, _)| j <= i + end + 1) {
                    chars.next();
                }
            }
            '}' => return Err("a '}' opens nothing".to_string()),
            c => words.push(c),
        }
    }
    if !words.is_empty() {
        parts.push(Part::Text(words));
    }
    Ok(parts)
}

/// The text of `parts`, each die its face as `face(label, die)` gives it: the one renderer, which
/// every event's text comes from (`Event::new`, `Event::roll`). A die `face` does not give (a roll
/// the event does not carry, or a sealed one) stays `{LABEL die N}`, for the property tests to find.
pub fn render(parts: &[Part], face: impl Fn(&str, usize) -> Option<u32>) -> String {
    parts
        .iter()
        .map(|p| match p {
            Part::Text(t) => t.clone(),
            Part::Die { label, die } => face(label, *die)
                .map_or_else(|| format!("{{{label} die {die}}}"), |f| f.to_string()),
        })
        .collect()
}

/// The words of `parts` with each die a `#`: where a ruleset's `says` phrases find no number
/// unless the text gives a die no roll binds.
pub fn words(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| match p {
            Part::Text(t) => t.as_str(),
            Part::Die { .. } => "#",
        })
        .collect()
}

/// Where `text` departs from `parts` rendered with `face`: the first die whose face the text does
/// not give (what it gives there instead), or the first words it changed. `None` when it is the
/// rendering.
pub fn departure(
    parts: &[Part],
    text: &str,
    face: impl Fn(&str, usize) -> Option<u32>,
) -> Option<Departure> {
    let mut rest = text;
    for p in parts {
        match p {
            Part::Text(t) => match rest.strip_prefix(t.as_str()) {
                Some(r) => rest = r,
                None => return Some(Departure::Words(t.clone())),
            },
            Part::Die { label, die } => {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let Some(f) = face(label, *die) else {
                    return Some(Departure::Unlisted(label.clone(), *die));
                };
                if digits != f.to_string() {
                    return Some(Departure::Face {
                        label: label.clone(),
                        die: *die,
                        face: f,
                        says: digits,
                    });
                }
                rest = &rest[digits.len()..];
            }
        }
    }
    (!rest.is_empty()).then(|| Departure::Words(rest.to_string()))
}

/// How a text departs from its template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Departure {
    /// It tells die N of a roll not listed under the event (or that has fewer dice).
    Unlisted(String, usize),
    /// It gives `says` where the die shows `face`.
    Face {
        label: String,
        die: usize,
        face: u32,
        says: String,
    },
    /// Its words differ from the template's (these are the template's).
    Words(String),
}

impl fmt::Display for Departure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Departure::Unlisted(label, die) => write!(
                f,
                "its text tells die {die} of the roll {label}, which is not listed under it: a roll line was moved or removed"
            ),
            Departure::Face {
                label,
                die,
                face,
                says,
            } => {
                let says = if says.is_empty() { "no number" } else { says };
                write!(
                    f,
                    "its text gives {says} where die {die} of the roll {label} shows {face}: the text was edited"
                )
            }
            Departure::Words(t) => write!(
                f,
                "its text is not its template's (at '{t}'): the text or its template was edited"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn faces(label: &str, die: usize) -> Option<u32> {
        (label == "fire/combat=1/space=Liege/side=attacker" && die <= 2).then_some(4 + die as u32)
    }

    #[test]
    fn a_marked_text_gives_its_template_and_renders_from_the_dice() {
        let label = "fire/combat=1/space=Liege/side=attacker";
        let marked = format!("a {} then {} {{sic}}", told(label, 0), told(label, 1));
        let t = template_of(&marked).unwrap();
        assert_eq!(
            t,
            format!("a {{{label} die 1}} then {{{label} die 2}} {{{{sic}}}}")
        );
        let parts = parse(&t).unwrap();
        assert_eq!(render(&parts, faces), "a 5 then 6 {sic}");
        assert_eq!(words(&parts), "a # then # {sic}");
        assert_eq!(departure(&parts, "a 5 then 6 {sic}", faces), None);
        assert!(template_of("no dice here").is_none());
    }

    #[test]
    fn a_text_that_departs_from_its_dice_says_where() {
        let label = "fire/combat=1/space=Liege/side=attacker";
        let parts = parse(&format!("a {{{label} die 1}}.")).unwrap();
        assert!(matches!(
            departure(&parts, "a 6.", faces),
            Some(Departure::Face { face: 5, .. })
        ));
        assert!(matches!(
            departure(&parts, "a 5!", faces),
            Some(Departure::Words(_))
        ));
        let other = parse("a {flank/combat=1/space=Liege die 1}.").unwrap();
        assert!(matches!(
            departure(&other, "a 5.", faces),
            Some(Departure::Unlisted(..))
        ));
    }

    #[test]
    fn a_broken_template_is_refused_in_words() {
        assert!(parse("a {x die 0}").is_err());
        assert!(parse("a {x}").is_err());
        assert!(parse("a {x die 1").is_err());
        assert!(parse("a } b").is_err());
    }
}
