//! Splitting an orders file into lines of tokens. Comments (`#` to the end of the line) and blank
//! lines are dropped; tokens are separated by white space and kept with their byte spans.
//!
//! The lexer bounds what it hands on, so that no file can make the rest of the pipeline slow: a line
//! longer than [`MAX_LINE_CHARS`] is not tokenized, at most [`MAX_ORDER_LINES`] order lines and
//! [`MAX_HEADER_LINES`] header lines are kept, and each line skipped for one of these reasons is handed
//! on as a [`Line`] with a [`Skipped`] note and no tokens, so that the header step can report it.
//! Time is linear in the size of the text; no slicing here can panic, whatever the text holds.

use std::ops::Range;

use crate::diag::Diagnostic;
use crate::rule::Rule;

/// The first words of header lines, in the order the documentation lists them: the lexer counts
/// header lines apart from order lines, and `header.rs` reads them.
pub const HEADER_WORDS: [&str; 6] = ["game", "power", "password", "turn", "entropy", "player"];

/// The pbem limits on an orders file, which keep a huge or runaway file from slowing the turn.
pub const LIMITS: Rule = Rule::new(
    "pbem",
    "orders/limits",
    "lines of at most 1000 characters, at most 500 orders",
);

/// The longest line read, in characters (without its line break).
pub const MAX_LINE_CHARS: usize = 1000;
/// The most order lines (lines that are not header lines) read from one file.
pub const MAX_ORDER_LINES: usize = 500;
/// The most header lines read from one file: six at most are needed (with `player`), a few repeats
/// get a diagnostic each.
pub const MAX_HEADER_LINES: usize = 20;

/// A word of an order line and where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub span: Range<usize>,
}

impl Token {
    /// Case-insensitive comparison with a keyword.
    pub fn is(&self, keyword: &str) -> bool {
        self.text.eq_ignore_ascii_case(keyword)
    }
}

/// Why a line of the file was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skipped {
    /// Longer than [`MAX_LINE_CHARS`].
    TooLong,
    /// The first order line beyond [`MAX_ORDER_LINES`]; it and every later order line are ignored.
    TooManyOrders,
    /// The first header line beyond [`MAX_HEADER_LINES`]; it and every later header line are ignored.
    TooManyHeaderLines,
}

/// A non-empty line of an orders file, comments removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number.
    pub number: usize,
    /// The words of the line; empty when the line was skipped.
    pub tokens: Vec<Token>,
    /// The span of the line's content (without comment and line break); for a skipped line, its first
    /// character.
    pub span: Range<usize>,
    /// Set when the line was not read; [`Line::skipped_diagnostic`] says why.
    pub skipped: Option<Skipped>,
}

impl Line {
    /// The line's words, quoted and cut to 40 characters: how a diagnostic names another line of
    /// the orders, since its number would be the filed file's, not the line of the player's mail
    /// (`diag::LineMap` maps only where a diagnostic points).
    pub fn quoted(&self) -> String {
        let text = self
            .tokens
            .iter()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        match text.char_indices().nth(40) {
            Some((cut, _)) => format!("'{}...'", &text[..cut]),
            None => format!("'{text}'"),
        }
    }

    /// The text of the line after the first `n` tokens, trimmed (for free text such as entropy).
    /// Empty when there is no such token or `source` is not the text the line was read from.
    pub fn rest_after<'a>(&self, source: &'a str, n: usize) -> &'a str {
        match self.tokens.get(n) {
            Some(t) => source.get(t.span.start..self.span.end).unwrap_or("").trim(),
            None => "",
        }
    }

    /// The diagnostic for a line that was not read.
    pub fn skipped_diagnostic(&self) -> Option<Diagnostic> {
        let d = match self.skipped? {
            Skipped::TooLong => Diagnostic::error("line too long", self.span.clone())
                .label(format!("this line has more than {MAX_LINE_CHARS} characters"))
                .hint("an order fits on a short line: break this one up, or check that this is the orders file you meant"),
            Skipped::TooManyOrders => Diagnostic::error(format!("more than {MAX_ORDER_LINES} orders"), self.span.clone())
                .label("this line and every order after it are ignored")
                .hint(format!("send at most {MAX_ORDER_LINES} orders in one file")),
            Skipped::TooManyHeaderLines => Diagnostic::error(format!("more than {MAX_HEADER_LINES} header lines"), self.span.clone())
                .label("this line and every header line after it are ignored")
                .hint("write each of game, power, password, turn and entropy once"),
        };
        Some(d.rule(LIMITS))
    }
}

/// Characters that separate words: Unicode white space, and the invisible characters that editors and
/// mail programs slip into text (byte-order mark, zero-width space, word joiner).
fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{feff}' | '\u{200b}' | '\u{2060}')
}

/// The byte range of the first word of `code`, if it has one.
fn first_word(code: &str) -> Option<Range<usize>> {
    let start = code.char_indices().find(|&(_, c)| !is_separator(c))?.0;
    let len = code[start..]
        .find(is_separator)
        .unwrap_or(code.len() - start);
    Some(start..start + len)
}

/// The byte ranges of the words of `code`.
fn words(code: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in code.char_indices() {
        if is_separator(c) {
            if let Some(s) = start.take() {
                out.push(s..i);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(s..code.len());
    }
    out
}

/// Whether `content` has more than [`MAX_LINE_CHARS`] characters; looks at most that far.
fn too_long(content: &str) -> bool {
    content.len() > MAX_LINE_CHARS && content.chars().nth(MAX_LINE_CHARS).is_some()
}

/// Splits `text` into its non-empty lines of tokens, within the limits of this module.
pub fn split(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut offset = 0;
    let (mut orders, mut headers) = (0, 0);
    let (mut orders_full, mut headers_full) = (false, false);
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len();
        let number = i + 1;
        let content = raw.trim_end_matches(['\n', '\r']);
        if too_long(content) {
            let first = content.chars().next().map_or(0, char::len_utf8);
            let span = start..start + first;
            if orders < MAX_ORDER_LINES {
                orders += 1;
                lines.push(Line {
                    number,
                    tokens: Vec::new(),
                    span,
                    skipped: Some(Skipped::TooLong),
                });
            } else if !orders_full {
                orders_full = true;
                lines.push(Line {
                    number,
                    tokens: Vec::new(),
                    span,
                    skipped: Some(Skipped::TooManyOrders),
                });
            }
            continue;
        }
        let code = match content.find('#') {
            Some(p) => &content[..p],
            None => content,
        };
        let Some(first) = first_word(code) else {
            continue;
        };
        let is_header = HEADER_WORDS
            .iter()
            .any(|w| code[first.clone()].eq_ignore_ascii_case(w));
        let (count, full, limit, why) = if is_header {
            (
                &mut headers,
                &mut headers_full,
                MAX_HEADER_LINES,
                Skipped::TooManyHeaderLines,
            )
        } else {
            (
                &mut orders,
                &mut orders_full,
                MAX_ORDER_LINES,
                Skipped::TooManyOrders,
            )
        };
        if *count >= limit {
            if !*full {
                *full = true;
                let span = start + first.start..start + first.end;
                lines.push(Line {
                    number,
                    tokens: Vec::new(),
                    span,
                    skipped: Some(why),
                });
            }
            continue;
        }
        *count += 1;
        let tokens: Vec<Token> = words(code)
            .into_iter()
            .map(|r| Token {
                text: code[r.clone()].to_string(),
                span: start + r.start..start + r.end,
            })
            .collect();
        let span = match (tokens.first(), tokens.last()) {
            (Some(a), Some(b)) => a.span.start..b.span.end,
            _ => start + first.start..start + first.end,
        };
        lines.push(Line {
            number,
            tokens,
            span,
            skipped: None,
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &Line) -> Vec<&str> {
        line.tokens.iter().map(|t| t.text.as_str()).collect()
    }

    #[test]
    fn tokens_carry_spans_and_comments_go() {
        let text = "move  FR-I Ulm # to Ulm\n\n# nothing\r\nattack\tUlm\r\n";
        let lines = split(text);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].number, 1);
        assert_eq!(texts(&lines[0]), ["move", "FR-I", "Ulm"]);
        assert_eq!(&text[lines[0].tokens[1].span.clone()], "FR-I");
        assert_eq!(lines[1].number, 4);
        assert_eq!(&text[lines[1].tokens[1].span.clone()], "Ulm");
    }

    #[test]
    fn unicode_white_space_is_safe() {
        let text = "move\u{00a0}FR-I é\u{2003}Ulm";
        let lines = split(text);
        assert_eq!(texts(&lines[0]), ["move", "FR-I", "é", "Ulm"]);
        for t in &lines[0].tokens {
            assert_eq!(&text[t.span.clone()], t.text);
        }
    }

    #[test]
    fn odd_characters_never_break_spans() {
        // Combining accents, tabs, a BOM, zero-width spaces, a lone CR, `#` inside a word, emoji,
        // a line of white space only and a comment right after a multi-byte character.
        let text = "\u{feff}game\tulm-1805\nmove FR-I\u{200b}Ulm\u{301}\r\nattack Ul#m\nchit\rUlm 🦅\n \u{3000} \t\né#x\n#\n\r";
        let lines = split(text);
        for line in &lines {
            for t in &line.tokens {
                assert_eq!(&text[t.span.clone()], t.text, "line {}", line.number);
            }
            assert!(text.get(line.span.clone()).is_some());
        }
        assert_eq!(texts(&lines[0]), ["game", "ulm-1805"]);
        assert_eq!(texts(&lines[1]), ["move", "FR-I", "Ulm\u{301}"]);
        assert_eq!(texts(&lines[2]), ["attack", "Ul"]);
        assert_eq!(texts(&lines[3]), ["chit", "Ulm", "🦅"]);
        assert_eq!(texts(&lines[4]), ["é"]);
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn rest_after_never_panics_on_a_foreign_text() {
        let lines = split("entropy the eagle flies");
        assert_eq!(
            lines[0].rest_after("entropy the eagle flies", 1),
            "the eagle flies"
        );
        assert_eq!(lines[0].rest_after("short", 1), "");
        assert_eq!(lines[0].rest_after("entropy the eagle flies", 9), "");
    }

    #[test]
    fn a_ten_megabyte_line_is_skipped_with_one_diagnostic() {
        let text = format!(
            "move FR-I Ulm\n{}\nattack Ulm\n",
            "move FR-I Ulm ".repeat(750_000)
        );
        assert!(text.len() > 10_000_000);
        let lines = split(&text);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[1].skipped, Some(Skipped::TooLong));
        assert!(lines[1].tokens.is_empty());
        assert_eq!(lines[1].span, 14..15);
        let d = lines[1].skipped_diagnostic().unwrap();
        assert_eq!(d.message, "line too long");
        assert!(d.hint.is_some());
        assert_eq!(texts(&lines[2]), ["attack", "Ulm"]);
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_read() {
        let text = format!("x{}", " ".repeat(MAX_LINE_CHARS - 1));
        assert_eq!(split(&text)[0].skipped, None);
        let text = format!("é{}", "é".repeat(MAX_LINE_CHARS - 1));
        assert_eq!(split(&text)[0].skipped, None);
        let text = "é".repeat(MAX_LINE_CHARS + 1);
        assert_eq!(split(&text)[0].skipped, Some(Skipped::TooLong));
    }

    #[test]
    fn orders_beyond_the_limit_are_cut_but_header_lines_after_them_are_read() {
        let mut text = String::from("game ulm-1805\n");
        for _ in 0..MAX_ORDER_LINES + 100 {
            text.push_str("attack Ulm\n");
        }
        text.push_str("password x\n");
        let lines = split(&text);
        let orders = lines
            .iter()
            .filter(|l| l.skipped.is_none() && l.tokens[0].is("attack"))
            .count();
        assert_eq!(orders, MAX_ORDER_LINES);
        let cut: Vec<&Line> = lines.iter().filter(|l| l.skipped.is_some()).collect();
        assert_eq!(cut.len(), 1);
        assert_eq!(cut[0].skipped, Some(Skipped::TooManyOrders));
        assert_eq!(cut[0].number, MAX_ORDER_LINES + 2);
        assert_eq!(
            cut[0].skipped_diagnostic().unwrap().message,
            "more than 500 orders"
        );
        assert!(lines.last().unwrap().tokens[0].is("password"));
    }

    #[test]
    fn repeated_header_lines_are_bounded() {
        let text = "power france\n".repeat(10_000);
        let lines = split(&text);
        assert_eq!(lines.len(), MAX_HEADER_LINES + 1);
        assert_eq!(
            lines[MAX_HEADER_LINES].skipped,
            Some(Skipped::TooManyHeaderLines)
        );
    }

    #[test]
    fn many_short_lines_stop_at_the_limit() {
        // Speed is measured in benches/, never in a test; this checks the cut.
        let text = "a\n".repeat(200_000);
        let lines = split(&text);
        assert_eq!(lines.len(), MAX_ORDER_LINES + 1);
    }
}
