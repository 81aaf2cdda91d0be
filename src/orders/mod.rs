//! The order language shared by every ruleset: a line-oriented, case-insensitive text with `#`
//! comments, a header (`game`, `power`, `password`, `turn`, optional `entropy`) and one order per line.
//! This module splits a file into its header and its order lines; each ruleset parses the verbs of its
//! own orders (`rules/<ruleset>/orders.rs`).
//!
//! Architecture invariant: parsing never fails as a whole. It returns every good line and a
//! diagnostic for every bad one, and no input makes it panic. Files are read as bytes and go through
//! [`decode`] first; the lexer bounds line length and line count (see `lexer`), so that the time
//! spent on a file is linear in its size and what reaches a ruleset is small.

pub mod filed;
pub mod form;
pub mod header;
pub mod lexer;
pub mod prose;

use std::ops::Range;

use crate::diag::Diagnostic;
use crate::rule::Rule;

pub use header::{check_header, check_header_with, Header};
pub use lexer::{
    split, Line, Skipped, Token, HEADER_WORDS, LIMITS, MAX_HEADER_LINES, MAX_LINE_CHARS,
    MAX_ORDER_LINES,
};

/// pbem: orders are written as the game's order guide shows (ORDERS.md's part for the ruleset,
/// which every player has as `pbem-orders-<ruleset>.md`), with the names of the game (every
/// ruleset's verbs). Its words name the guide the player has, never ORDERS.md, which he has not.
pub const ORDER_SYNTAX: Rule = Rule::new(
    "pbem",
    "orders/syntax",
    "orders are written as the game's order guide shows",
);
/// The file name of ruleset `id`'s order guide as every mail to a player attaches it
/// (`report::guide`): what a hint names, since a player has that file and never ORDERS.md.
pub fn guide_file(id: &str) -> String {
    format!("pbem-orders-{id}.md")
}

/// pbem: a power orders its own units only.
pub const OWN_UNITS: Rule = Rule::new(
    "pbem",
    "orders/own-units",
    "a power orders its own units only",
);

/// The diagnostic for an order line whose first word is not one of `verbs`: a did-you-mean among
/// them and the header words, else the list of the ruleset's orders.
pub fn unknown_verb(verb: &Token, verbs: &[&str]) -> Diagnostic {
    let words = verbs.iter().chain(HEADER_WORDS.iter()).copied();
    let hint = crate::diag::did_you_mean(&verb.text, words)
        .map(|v| format!("did you mean '{v}'?"))
        .unwrap_or_else(|| format!("the orders are: {}", verbs.join(", ")));
    Diagnostic::error(format!("unknown order '{}'", verb.text), verb.span.clone())
        .label("not an order")
        .hint(hint)
        .rule(ORDER_SYNTAX)
}

/// The pbem convention that orders are plain text in UTF-8.
pub const PLAIN_TEXT: Rule = Rule::new("pbem", "orders/text", "orders are plain text in UTF-8");

/// A value and the byte range of the source it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<T> {
    pub value: T,
    pub span: Range<usize>,
}

impl<T> Located<T> {
    pub fn new(value: T, span: Range<usize>) -> Self {
        Located { value, span }
    }
}

/// An orders file after checking: the power it authenticated as, the orders that stand, and a
/// diagnostic for every line that does not. Orders are the ruleset's own type.
#[derive(Debug, Clone)]
pub struct Checked<O> {
    pub header: Header,
    /// The power whose orders these are, if the header authenticated.
    pub power: Option<String>,
    /// The orders that stand, with the line they came from, in file order.
    pub accepted: Vec<Located<O>>,
    pub diagnostics: Vec<Diagnostic>,
}

impl<O> Checked<O> {
    pub fn rejected(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// The UTF-8 byte-order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Turns the bytes of an orders file into its text: strips a UTF-8 byte-order mark and turns CRLF and
/// lone CR line breaks into LF. Bytes that are not UTF-8 text, and NUL bytes, give a diagnostic at the
/// first such byte; its span is an offset into `bytes`, and renders against [`printable`]`(bytes)`.
#[allow(clippy::result_large_err)] // built once per file; the size of a Diagnostic does not matter here
pub fn decode(bytes: &[u8]) -> Result<String, Diagnostic> {
    let nul = bytes.iter().position(|&b| b == 0);
    let bad_utf8 = std::str::from_utf8(bytes).err().map(|e| e.valid_up_to());
    let utf16 = bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
    match (bad_utf8, nul) {
        (Some(at), n) if n.is_none_or(|n| at < n) => {
            let hint = if utf16 {
                "this file is UTF-16 (\"Unicode\" in some editors): save the orders as UTF-8 plain text"
            } else {
                "save the orders as plain text in UTF-8 (a word processor's document is not plain text)"
            };
            return Err(Diagnostic::error("not UTF-8 text", at..at + 1)
                .label("this byte is not UTF-8")
                .hint(hint)
                .rule(PLAIN_TEXT));
        }
        (_, Some(at)) => {
            return Err(Diagnostic::error("NUL byte in the orders", at..at + 1)
                .label("a NUL byte: this is not a text file")
                .hint("save the orders as plain text in UTF-8 (a word processor's document or a UTF-16 file is not)")
                .rule(PLAIN_TEXT));
        }
        _ => {}
    }
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    // Checked above: the bytes are UTF-8 (and stripping three whole bytes keeps them so).
    let text = String::from_utf8_lossy(bytes);
    if !text.contains('\r') {
        return Ok(text.into_owned());
    }
    Ok(text.replace("\r\n", "\n").replace('\r', "\n"))
}

/// The bytes of a file as text to show a [`decode`] diagnostic against: invalid sequences become
/// U+FFFD, a lone CR a line feed, and control characters (but tab, line feed and the CR of a CR LF)
/// become `?`, one per byte, so that every offset
/// up to the first bad byte is the same as in `bytes`, and nothing in it can drive a terminal.
pub fn printable(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            // A lone CR ends a line, as `decode` reads it (and as the password mask must see it).
            out.push('\n');
        } else if c == '\r' {
            out.push(c);
        } else if c.is_control() && c != '\n' && c != '\t' {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Source;

    #[test]
    fn decode_keeps_plain_text() {
        assert_eq!(
            decode(b"game ulm-1805\nturn 1\n").unwrap(),
            "game ulm-1805\nturn 1\n"
        );
        assert_eq!(decode(b"").unwrap(), "");
        assert_eq!(
            decode("entropy \u{e9}t\u{e9}\n".as_bytes()).unwrap(),
            "entropy \u{e9}t\u{e9}\n"
        );
    }

    #[test]
    fn decode_strips_a_bom_and_normalises_line_breaks() {
        assert_eq!(
            decode(b"\xEF\xBB\xBFgame x\r\nturn 1\r\n").unwrap(),
            "game x\nturn 1\n"
        );
        assert_eq!(decode(b"game x\rturn 1\r").unwrap(), "game x\nturn 1\n");
        assert_eq!(decode(b"\xEF\xBB\xBF").unwrap(), "");
    }

    #[test]
    fn decode_rejects_binary_garbage() {
        let bytes = b"game ulm-1805\npower france\n\x89PNG\r\n\x1a\n\xff\xd8\xff\xe0";
        let d = decode(bytes).unwrap_err();
        assert_eq!(d.message, "not UTF-8 text");
        assert_eq!(d.span, 27..28);
        assert_eq!(d.hint.as_deref(), Some("save the orders as plain text in UTF-8 (a word processor's document is not plain text)"));
        let shown = Source::new("france.txt", printable(bytes));
        assert_eq!(shown.line_col(d.span.start), (3, 1));
        let rendered = shown.render(&[d]);
        assert!(rendered.contains("not UTF-8 text"), "{rendered}");
        assert!(!rendered.contains('\x1a'), "{rendered}");
    }

    #[test]
    fn decode_names_utf16_in_its_hint() {
        let bytes: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("game x".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let d = decode(&bytes).unwrap_err();
        assert_eq!(d.message, "not UTF-8 text");
        assert_eq!(d.span, 0..1);
        assert!(d.hint.as_deref().unwrap().contains("UTF-16"));
    }

    #[test]
    fn decode_rejects_a_nul_byte() {
        let bytes = b"game ulm-1805\npower fr\0ance\n";
        let d = decode(bytes).unwrap_err();
        assert_eq!(d.message, "NUL byte in the orders");
        assert_eq!(d.span, 22..23);
        assert!(d.hint.as_deref().unwrap().contains("plain text"));
        let shown = Source::new("france.txt", printable(bytes));
        assert_eq!(shown.line_col(d.span.start), (2, 9));
        let rendered = shown.render(&[d]);
        assert!(rendered.contains("NUL byte in the orders"), "{rendered}");
        assert!(!rendered.contains('\0'));
    }

    #[test]
    fn decode_reports_whichever_problem_comes_first() {
        assert_eq!(
            decode(b"\0\xff").unwrap_err().message,
            "NUL byte in the orders"
        );
        assert_eq!(decode(b"\xff\0").unwrap_err().message, "not UTF-8 text");
    }

    #[test]
    fn decode_and_render_a_ten_megabyte_garbage_file_shortly() {
        let mut bytes = vec![b'x'; 10_000_000];
        bytes[9_999_000] = 0xC0;
        let d = decode(&bytes).unwrap_err();
        assert_eq!(d.span, 9_999_000..9_999_001);
        let rendered = Source::new("big.txt", printable(&bytes)).render(&[d]);
        assert!(rendered.len() < 2_000, "{}", rendered.len());
    }

    #[test]
    fn printable_keeps_offsets_up_to_the_first_bad_byte() {
        let bytes = b"a\x01b\x1b[31m\xc2\x9bc\xffd";
        let shown = printable(bytes);
        assert_eq!(&shown[..11], "a?b?[31m??c");
        assert!(shown[11..].starts_with('\u{fffd}'));
    }
}
