//! A large TOML document read on two cores (issue 39: a 100,000-unit `state.toml` is 12 MB, read on
//! one core before anything else of a turn): its head and its tail parsed side by side, each in a
//! copy of the document with the other part blanked out (so that every span is the document's
//! own), and the tail's tables then put into the head's where the document puts them.
//!
//! Only a tail TOML reads the same alone is taken: one that begins with an array-of-tables header
//! (`[[eia.corps]]`) and has no plain table header (`[eia]`, `[eia.corps.x]`), whose tables are
//! each either new to the head or an array of tables there, under tables that headers made. Any
//! other document, and any document either part of which has an error, is read whole, so that a
//! bad document gives the error the whole reading gives.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// Documents shorter than this are read whole (the second core would cost more than it saves).
pub const IN_PARTS_FROM: usize = 1 << 20;

/// The document `text` read in two parts side by side, as [`DeTable::parse`] reads it whole;
/// `None` when it is short (under `from` bytes), when the machine gives one thread, or when it is
/// not a document this reads in parts (then read it whole). `head` and `tail` are the copies the
/// parts are read from, which the tables borrow.
pub fn parse<'a>(
    text: &str,
    from: usize,
    head: &'a mut String,
    tail: &'a mut String,
) -> Option<Spanned<DeTable<'a>>> {
    if text.len() < from.max(1) || crate::parallel::threads() < 2 {
        return None;
    }
    let split = split_at(text)?;
    if has_plain_header(&text[split..]) {
        return None;
    }
    head.reserve_exact(text.len());
    head.push_str(&text[..split]);
    head.extend(std::iter::repeat_n(' ', text.len() - split));
    tail.reserve_exact(text.len());
    tail.extend(std::iter::repeat_n(' ', split));
    tail.push_str(&text[split..]);
    let (head, tail) = (&*head, &*tail);
    let (whole, rest) = std::thread::scope(|s| {
        let rest = s.spawn(|| DeTable::parse(tail).ok());
        let whole = DeTable::parse(head).ok();
        (whole, rest.join().ok().flatten())
    });
    let (mut whole, rest) = (whole?, rest?);
    put(whole.get_mut(), rest.into_inner(), text)?;
    Some(whole)
}

/// Where the tail begins: the first array-of-tables header at the start of a line from the middle
/// of the document on.
fn split_at(text: &str) -> Option<usize> {
    let middle = text.len() / 2;
    let at = memchr::memmem::find(&text.as_bytes()[middle..], b"\n[[")?;
    Some(middle + at + 1)
}

/// Whether a line of `text` (after its blanks) opens a plain table, `[` but not `[[` (or may: a
/// line of a multi-line string counts too).
fn has_plain_header(text: &str) -> bool {
    text.split('\n').any(|line| {
        let line = line.trim_start_matches([' ', '\t']).as_bytes();
        line.first() == Some(&b'[') && line.get(1) != Some(&b'[')
    })
}

/// Puts the tables of the tail `rest` into `whole`, the head's, where the document read whole has
/// them: an array of tables after the head's, a table into the head's table a header made, a key
/// the head lacks as it is. `None` (nothing to use) where the tail does not read alone as it reads
/// after the head. `text` is the document, which every span points into.
fn put<'a>(whole: &mut DeTable<'a>, rest: DeTable<'a>, text: &str) -> Option<()> {
    for (key, value) in rest {
        let span = value.span();
        match value.into_inner() {
            DeValue::Array(items) => {
                if !of_headers(&items, text) {
                    return None;
                }
                match whole.get_mut(key.get_ref().as_ref()) {
                    None => {
                        whole.insert(key, Spanned::new(span, DeValue::Array(items)));
                    }
                    Some(there) => match there.get_mut() {
                        DeValue::Array(kept) if of_headers(kept, text) => {
                            for item in items {
                                kept.push(item);
                            }
                        }
                        _ => return None,
                    },
                }
            }
            DeValue::Table(table) => match whole.get_mut(key.get_ref().as_ref()) {
                None => {
                    whole.insert(key, Spanned::new(span, DeValue::Table(table)));
                }
                Some(there) => {
                    let by_header = on_header_line(text, there.span().start);
                    match there.get_mut() {
                        DeValue::Table(kept) if by_header => put(kept, table, text)?,
                        _ => return None,
                    }
                }
            },
            _ => return None,
        }
    }
    Some(())
}

/// Whether the byte at `at` stands on a table header's line: a table a header made or implied
/// (its span is the header, or its key in the header), not one a dotted key or an inline table
/// made, which a header may not add to.
fn on_header_line(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let start = memchr::memrchr(b'\n', &bytes[..at.min(bytes.len())]).map_or(0, |i| i + 1);
    bytes[start..].iter().find(|&&b| b != b' ' && b != b'\t') == Some(&b'[')
}

/// Whether `items` is an array of tables made by `[[...]]` headers (not an array written inline,
/// which a header may not add to): its first item a table whose span is its header.
fn of_headers(items: &[Spanned<DeValue<'_>>], text: &str) -> bool {
    items.first().is_some_and(|first| {
        matches!(first.get_ref(), DeValue::Table(_))
            && text
                .as_bytes()
                .get(first.span().start..first.span().start + 2)
                == Some(b"[[")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables of a document as `Debug` writes them (every key, value, span and order), or
    /// its error's message and span.
    type Read = Result<String, (String, Option<std::ops::Range<usize>>)>;

    /// `text` read in parts (whether it was) or whole.
    fn read(text: &str, in_parts: bool) -> (bool, Read) {
        let (mut head, mut tail) = (String::new(), String::new());
        let parts = if in_parts {
            parse(text, 0, &mut head, &mut tail)
        } else {
            None
        };
        let used = parts.is_some();
        let table = match parts {
            Some(t) => Ok(t),
            None => DeTable::parse(text),
        };
        let shown = table
            .map(|t| format!("{t:?}"))
            .map_err(|e| (e.message().to_string(), e.span()));
        (used, shown)
    }

    /// The state of every bundled scenario (the five rulesets) reads in parts as it reads whole.
    #[test]
    fn every_bundled_state_reads_the_same_in_parts() {
        for name in crate::bundled::scenarios() {
            let tmp = tempfile::tempdir().unwrap();
            crate::bundled::write_scenario(&name, tmp.path()).unwrap();
            let text = std::fs::read_to_string(tmp.path().join("turns/1/state.toml")).unwrap();
            let (used, parts) = read(&text, true);
            assert_eq!(parts, read(&text, false).1, "{name}");
            assert!(parts.is_ok() && used, "{name}: read in parts");
        }
    }

    /// A document read in parts is the document read whole, tables, spans and order alike; one
    /// the parts would read otherwise (a plain table after the split, an array written inline
    /// that a header adds to, a table a dotted key made, a key twice across the split, a part
    /// that is no TOML) is read whole, with its error.
    #[test]
    fn a_document_read_in_parts_is_the_document_read_whole() {
        let unit = |i: usize| format!("[[eia.corps]]\nid = \"c{i}\"\narea = {{ x = {i} }}\n\n");
        let units = |n: usize| (0..n).map(unit).collect::<String>();
        let leaders = "[[eia.leader]]\nid = \"l1\"\n[[eia.leader.aide]]\nname = \"a\"\n";
        // A head longer than the units, so that the tail begins at the first unit.
        let filler = (0..200)
            .map(|i| format!("A{i} = \"x\"\n"))
            .collect::<String>();
        let cases: Vec<(String, bool)> = vec![
            (
                format!("game = \"g\"\n[control]\nA = \"x\"\n\n{}", units(40)),
                true,
            ),
            (
                format!("game = \"g\"\n[eia]\nday = 1\n{}{leaders}", units(40)),
                true,
            ),
            (
                format!("[[eia.leader]]\nid = \"l0\"\n{}{leaders}", units(40)),
                true,
            ),
            (
                format!("{}{leaders}[[other.list]]\nx = 1\n", units(40)),
                true,
            ),
            // Each read whole, the parts not being the whole's.
            (format!("{}[eia.extra]\nx = 1\n", units(40)), false),
            (format!("{}[eia.corps.sub]\nx = 1\n", units(40)), false),
            (
                format!(
                    "[eia]\ncorps = [{{ id = \"i\" }}]\n[control]\n{filler}{}",
                    units(5)
                ),
                false,
            ),
            (
                format!("eia.day = 1\n[control]\n{filler}{}", units(5)),
                false,
            ),
            (
                format!("eia = {{ day = 1 }}\n[control]\n{filler}{}", units(5)),
                false,
            ),
            (
                format!("[[eia]]\nday = 1\n[control]\n{filler}{}", units(5)),
                false,
            ),
            (
                format!("{}[[eia.corps]]\nid = \"c\"\nid = \"twice\"\n", units(40)),
                false,
            ),
            (format!("{}[[eia.corps]]\nid = \n", units(40)), false),
            (format!("{}\n[[eia]]\nx = 1\n", units(40)), false),
            (
                format!("s = \"\"\"\n{}\"\"\"\n{}", units(60), units(5)),
                false,
            ),
        ];
        for (text, in_parts) in cases {
            let (used, parts) = read(&text, true);
            let (_, whole) = read(&text, false);
            assert_eq!(parts, whole, "{text}");
            assert_eq!(used, in_parts, "read in parts or not: {text}");
        }
    }
}
