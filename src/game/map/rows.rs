//! Terrain rows: a block of text, one line of characters per row of a map, read through a legend
//! into one byte per place, with every bad character and wrong row length located in the file.

use std::ops::Range;

use toml::Spanned;

use super::terrain::{Legend, UNKNOWN};
use crate::diag::Diagnostic;

/// After this many errors in one block the rest is not reported (one typo repeated is one message).
const MAX_ERRORS: usize = 12;

/// A block of text from a TOML string, with where its first byte stands in the file.
pub(crate) struct Block<'a> {
    pub text: &'a str,
    /// The file offset of `text`'s first byte; `None` for a basic string with escapes, whose bytes
    /// do not map onto the file (errors then point at the string).
    pub at: Option<usize>,
    /// The whole string in the file.
    pub span: Range<usize>,
}

impl<'a> Block<'a> {
    /// The block of a string value of `source`: literal strings (`'...'`, `'''...'''`) map byte for
    /// byte onto the file; for a multi-line string the line break right after the quotes is not
    /// part of the text.
    pub fn of(source: &str, value: &'a Spanned<String>) -> Block<'a> {
        let span = value.span();
        let raw = source.get(span.clone()).unwrap_or("");
        let at = if let Some(body) = raw.strip_prefix("'''") {
            let skip = if body.starts_with("\r\n") {
                2
            } else if body.starts_with('\n') {
                1
            } else {
                0
            };
            Some(span.start + 3 + skip)
        } else if raw.starts_with('\'') {
            Some(span.start + 1)
        } else {
            None
        };
        // A literal string is its text verbatim: check it, so that a wrong guess never mislocates.
        let at = at.filter(|&a| source.get(a..a + value.get_ref().len()) == Some(value.get_ref()));
        Block {
            text: value.get_ref(),
            at,
            span,
        }
    }

    /// The file span of bytes `r` of the text.
    pub(crate) fn locate(&self, r: Range<usize>) -> Range<usize> {
        match self.at {
            Some(a) => a + r.start..a + r.end,
            None => self.span.clone(),
        }
    }
}

/// Reads `height` rows of `width` characters through `legend`, row by row, into codes. `what` names
/// the block in messages ("terrain", "the sub-grid's ratings").
pub(crate) fn parse_rows(
    block: &Block,
    width: usize,
    height: usize,
    legend: &Legend,
    what: &str,
) -> Result<Vec<u8>, Vec<Diagnostic>> {
    // Never more than the text holds, whatever sizes the file declares.
    let mut out = Vec::with_capacity(width.saturating_mul(height).min(block.text.len()));
    let mut errors = Vec::new();
    let mut rows = 0usize;
    let mut offset = 0usize;
    let text = block.text;
    let mut lines = text.split('\n').peekable();
    while let Some(raw) = lines.next() {
        let start = offset;
        offset += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        // The last line break ends the last row: what follows it is not a row.
        if lines.peek().is_none() && line.is_empty() {
            break;
        }
        rows += 1;
        if rows > height {
            errors.push(
                Diagnostic::error(
                    format!("{what} has more than {height} rows"),
                    block.locate(start..start + line.len()),
                )
                .hint(format!(
                    "the map is {width} wide and {height} high: remove the extra rows"
                )),
            );
            break;
        }
        let bytes = line.as_bytes();
        let before = out.len();
        out.extend(bytes.iter().map(|&b| legend.lut[b as usize]));
        if let Some(bad) = out[before..].iter().position(|&c| c == UNKNOWN) {
            let ch = line[bad..].chars().next().unwrap_or('?');
            errors.push(
                Diagnostic::error(
                    format!("{what}: '{}' is not in the legend", ch.escape_debug()),
                    block.locate(start + bad..start + bad + ch.len_utf8()),
                )
                .hint(format!("the legend has {}", legend.shown)),
            );
        } else if bytes.len() != width {
            errors.push(
                Diagnostic::error(
                    format!(
                        "{what}: row {rows} is {} characters long, not {width}",
                        bytes.len()
                    ),
                    block.locate(start..start + line.len()),
                )
                .hint(format!("every row holds one character per column: {width}")),
            );
        }
        out.truncate(before + width.min(bytes.len()));
        if errors.len() >= MAX_ERRORS {
            break;
        }
    }
    if errors.is_empty() && rows != height {
        errors.push(
            Diagnostic::error(
                format!("{what} has {rows} rows, not {height}"),
                block.locate(text.len()..text.len()),
            )
            .hint(format!(
                "add the missing rows: one line of {width} characters per row"
            )),
        );
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legend() -> Legend {
        let mut lut = [UNKNOWN; 256];
        lut[b'.' as usize] = 0;
        lut[b'h' as usize] = 1;
        Legend {
            lut,
            shown: "'.' open, 'h' hills".into(),
        }
    }

    fn block(text: &str) -> Block<'_> {
        Block {
            text,
            at: Some(100),
            span: 97..100 + text.len() + 3,
        }
    }

    #[test]
    fn rows_read_through_the_legend() {
        let codes = parse_rows(&block(".h\nh.\n"), 2, 2, &legend(), "terrain").unwrap();
        assert_eq!(codes, vec![0, 1, 1, 0]);
        let codes = parse_rows(&block(".h\r\nh."), 2, 2, &legend(), "terrain").unwrap();
        assert_eq!(codes, vec![0, 1, 1, 0]);
    }

    #[test]
    fn a_bad_character_is_located() {
        let e = parse_rows(&block(".h\nhx\n"), 2, 2, &legend(), "terrain").unwrap_err();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].span, 104..105);
        assert!(e[0].message.contains("'x' is not in the legend"));
    }

    #[test]
    fn a_wrong_row_length_and_count_are_errors() {
        let e = parse_rows(&block(".h\nh\n"), 2, 2, &legend(), "terrain").unwrap_err();
        assert!(e[0].message.contains("row 2 is 1 characters long, not 2"));
        assert_eq!(e[0].span, 103..104);
        let e = parse_rows(&block(".h\n"), 2, 2, &legend(), "terrain").unwrap_err();
        assert!(e[0].message.contains("1 rows, not 2"));
        let e = parse_rows(&block(".h\nhh\n..\n"), 2, 2, &legend(), "terrain").unwrap_err();
        assert!(e[0].message.contains("more than 2 rows"));
    }

    /// Multi-byte characters and empty input never panic.
    #[test]
    fn odd_input_is_an_error_not_a_panic() {
        for text in ["", "\n", "é.\n..", "\r", "..\n..\n\n", "\u{0}\u{0}\n.."] {
            assert!(
                parse_rows(&block(text), 2, 2, &legend(), "terrain").is_err(),
                "{text:?}"
            );
        }
    }
}
