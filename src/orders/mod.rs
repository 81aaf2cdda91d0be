//! The order language shared by every ruleset: a line-oriented, case-insensitive text with `#`
//! comments, a header (`game`, `power`, `password`, `turn`, optional `entropy`) and one order per line.
//! This module splits a file into its header and its order lines; each ruleset parses the verbs of its
//! own orders (`rules/<ruleset>/orders.rs`).
//!
//! Architecture invariant: parsing never fails as a whole. It returns every good line and a
//! diagnostic for every bad one, and no input makes it panic. Files are read as bytes and go through
//! [`decode`] first; the lexer bounds line length and line count (see `lexer`), so that the time
//! spent on a file is linear in its size and what reaches a ruleset is small.

pub mod header;
pub mod lexer;

use std::ops::Range;

use crate::diag::Diagnostic;

pub use header::{check_header, Header, HEADER_WORDS};
pub use lexer::{split, Line, Skipped, Token, MAX_HEADER_LINES, MAX_LINE_CHARS, MAX_ORDER_LINES};

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
                .hint(hint));
        }
        (_, Some(at)) => {
            return Err(Diagnostic::error("NUL byte in the orders", at..at + 1)
                .label("a NUL byte: this is not a text file")
                .hint("save the orders as plain text in UTF-8 (a word processor's document or a UTF-16 file is not)"));
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
/// U+FFFD and control characters (but tab and line feed) become `?`, one per byte, so that every offset
/// up to the first bad byte is the same as in `bytes`, and nothing in it can drive a terminal.
pub fn printable(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}
