//! Diagnostics that point into a source file: the one error shape used for orders, game folders and
//! tables. A diagnostic carries a byte span, a message, an optional hint and an optional rule; it is
//! rendered the way rustc renders its errors (annotate-snippets), with file, line and column.

use std::fmt;
use std::ops::Range;

use annotate_snippets::{Level, Renderer, Snippet};

use crate::rule::Rule;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The line (or the file) is rejected.
    Error,
    /// Accepted, but probably not what the writer meant.
    Warning,
}

/// One problem found in a source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// One sentence: what is wrong.
    pub message: String,
    /// Byte range in the source that the problem is about (may be empty at end of file).
    pub span: Range<usize>,
    /// Short text shown under the span.
    pub label: String,
    /// What to do about it ("did you mean 'Ulm'?").
    pub hint: Option<String>,
    /// The rule that forbids what was written, when a game rule does.
    pub rule: Option<Rule>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Range<usize>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            hint: None,
            rule: None,
        }
    }

    pub fn warning(message: impl Into<String>, span: Range<usize>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message, span)
        }
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn maybe_hint(mut self, hint: Option<String>) -> Self {
        self.hint = hint;
        self
    }

    pub fn rule(mut self, rule: Rule) -> Self {
        self.rule = Some(rule);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A file's name and text, kept together so that diagnostics can be rendered and located.
#[derive(Debug, Clone)]
pub struct Source {
    pub path: String,
    pub text: String,
    /// Byte offset of the start of each line, so that locating is a binary search.
    line_starts: Vec<usize>,
    /// The number each line is shown with: its own, or for orders read out of a mail the line of
    /// the mail its player sees ([`LineMap`]).
    numbers: LineMap,
}

impl Source {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Source {
            path: path.into(),
            text,
            line_starts,
            numbers: LineMap::default(),
        }
    }

    /// The source with its lines shown by the numbers `numbers` gives them (the lines of the mail
    /// its text was read out of): its rendered diagnostics and [`shown_line`](Self::shown_line)
    /// name those.
    pub fn with_lines(mut self, numbers: LineMap) -> Self {
        self.numbers = numbers;
        self
    }

    /// The number line `line` (1-based, of the text) is shown with.
    pub fn shown_line(&self, line: usize) -> usize {
        self.numbers.number(line)
    }

    /// 1-based line (of the text itself, not as shown: the orders that stand are numbered by it,
    /// and a player's merged orders read their lines by it, `engine::command::merge`) and column
    /// (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line - 1];
        (line, self.text[start..offset].chars().count() + 1)
    }

    /// Renders diagnostics the way rustc does; plain text, no colour, so it can go into a mail. It
    /// holds no control character but the line break: any other (from a file name, a message or a
    /// label quoting the file) is shown as '?', so a player's escape sequences never reach a terminal.
    pub fn render(&self, diagnostics: &[Diagnostic]) -> String {
        let out = self.render_raw(diagnostics, &Renderer::plain());
        if out.chars().any(|c| c.is_control() && c != '\n') {
            return out
                .chars()
                .map(|c| if c.is_control() && c != '\n' { '?' } else { c })
                .collect();
        }
        out
    }

    /// [`render`](Self::render) in rustc's colours when `colour` (a terminal without `NO_COLOR`:
    /// `out::colour_on_stdout`). Text holding a control character of its own is rendered plain, the
    /// character shown as '?': the only escapes that reach the terminal are the renderer's.
    pub fn render_for_terminal(&self, diagnostics: &[Diagnostic], colour: bool) -> String {
        let raw = self.render_raw(diagnostics, &Renderer::plain());
        if !colour || raw.contains('\t') || crate::out::for_terminal(&raw) != raw.as_str() {
            return self.render(diagnostics);
        }
        self.render_raw(diagnostics, &Renderer::styled())
    }

    /// Every diagnostic rendered by `renderer`, each followed by a blank line; unscrubbed.
    fn render_raw(&self, diagnostics: &[Diagnostic], renderer: &Renderer) -> String {
        let mut out = String::new();
        for d in diagnostics {
            out.push_str(&self.render_one(d, renderer));
            out.push('\n');
        }
        out
    }

    /// The byte window of the source to show for a span, and the line number it starts on.
    fn window(&self, span: &Range<usize>) -> (usize, usize, usize) {
        let text = &self.text;
        let line = self.line_starts.partition_point(|&s| s <= span.start);
        let line_start = self.line_starts[line - 1];
        let end_line = self.line_starts.partition_point(|&s| s <= span.end);
        let line_end = self
            .line_starts
            .get(end_line)
            .map_or(text.len(), |&s| s - 1);
        let mut start = line_start;
        if span.start - start > MAX_SHOWN / 2 {
            start = span.start - MAX_SHOWN / 2;
            while !text.is_char_boundary(start) {
                start += 1;
            }
        }
        let mut end = line_end.max(span.end);
        if end - span.end > MAX_SHOWN / 2 {
            end = span.end + MAX_SHOWN / 2;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
        }
        (start, end, line)
    }

    fn render_one(&self, d: &Diagnostic, renderer: &Renderer) -> String {
        let level = match d.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        };
        let mut span = clamp_span(&self.text, &d.span);
        if span.is_empty() && span.start == self.text.len() && self.text.ends_with('\n') {
            let at = self.text.trim_end_matches(['\n', '\r']).len();
            span = at..at;
        }
        // A span over lines the reader does not see one after another (a quote dropped between
        // them) is shown on its first line alone: the excerpt's lines are numbered in a row.
        let first = self.line_starts.partition_point(|&s| s <= span.start);
        let last = self.line_starts.partition_point(|&s| s <= span.end);
        if !self.numbers.in_a_row(first, last) {
            let end = self
                .line_starts
                .get(first)
                .map_or(self.text.len(), |&s| s - 1);
            span = span.start..span.end.min(end).max(span.start);
        }
        // annotate-snippets wants a snippet it can show; show only the lines around the span so that
        // a 10 MB file or line does not end up in a message.
        let (window_start, window_end, first_line) = self.window(&span);
        // Masked from the start of the line, by the structure of each line, then cut to the window:
        // a window that starts inside a password line still shows stars.
        let line_start =
            self.line_starts[self.line_starts.partition_point(|&s| s <= window_start) - 1];
        let (masked, changes) = mask_passwords_mapped(&self.text[line_start..window_end]);
        let at = |offset: usize| masked_offset(&changes, offset - line_start);
        let shown = plain(masked.get(at(window_start)..).unwrap_or_default());
        let shown = shown.as_str();
        let local = (at(span.start) - at(window_start))..(at(span.end) - at(window_start));
        let origin = self.path.as_str();
        let mut footer = Vec::new();
        let hint_text = d.hint.clone();
        let rule_text = d.rule.as_ref().map(|r| format!("rule {r}"));
        if let Some(h) = &hint_text {
            footer.push(Level::Help.title(h));
        }
        if let Some(r) = &rule_text {
            footer.push(Level::Note.title(r));
        }
        let message = level.title(&d.message).snippet(
            Snippet::source(shown)
                .line_start(self.shown_line(first_line))
                .origin(origin)
                .fold(true)
                .annotation(level.span(local).label(&d.label)),
        );
        let message = footer.into_iter().fold(message, |m, f| m.footer(f));
        let rendered = renderer.render(message).to_string();
        rendered
    }
}

/// The number each line of a text is shown with, when not its own: orders read out of a mail are
/// cleaned (quotes, signature, runs of blank lines dropped; `mail::extract`), and their player is
/// told the line of his mail as his client shows it, not the line of the cleaned text. Line `n` of
/// the text is shown as the `n`-th number; a line past the numbers goes on from the last one. The
/// empty map numbers every line as its own, as a file placed by hand keeps its lines.
///
/// Kept in a received-message record (`mail::ingest::Received::lines`) as runs of numbers, `"3-5
/// 8 10-12"`, which [`LineMap::runs`] writes and [`LineMap::from_runs`] reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineMap(Vec<usize>);

impl LineMap {
    /// The map of a text whose line `n` is line `numbers[n - 1]` of what its reader sees; the
    /// empty map when every line is its own.
    pub fn new(numbers: Vec<usize>) -> LineMap {
        if numbers.iter().enumerate().all(|(i, &n)| n == i + 1) {
            LineMap(Vec::new())
        } else {
            LineMap(numbers)
        }
    }

    /// Whether every line is shown as its own number.
    pub fn is_identity(&self) -> bool {
        self.0.is_empty()
    }

    /// The number line `line` (1-based) is shown with.
    pub fn number(&self, line: usize) -> usize {
        match (self.0.get(line.wrapping_sub(1)), self.0.last()) {
            (Some(&n), _) => n,
            (None, Some(&last)) if line > self.0.len() => last.saturating_add(line - self.0.len()),
            _ => line,
        }
    }

    /// Whether lines `first..=last` are shown with numbers in a row.
    pub fn in_a_row(&self, first: usize, last: usize) -> bool {
        (first..last).all(|l| self.number(l).checked_add(1) == Some(self.number(l + 1)))
    }

    /// The numbers as runs: `"3-5 8 10-12"`; empty for the identity.
    pub fn runs(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        let mut i = 0;
        while i < self.0.len() {
            let start = self.0[i];
            let mut j = i;
            while self
                .0
                .get(j + 1)
                .is_some_and(|&n| Some(n) == self.0[j].checked_add(1))
            {
                j += 1;
            }
            out.push(match j == i {
                true => start.to_string(),
                false => format!("{start}-{}", self.0[j]),
            });
            i = j + 1;
        }
        out.join(" ")
    }

    /// Reads [`runs`](Self::runs) back; none when `text` is not runs of numbers from 1, none
    /// below the one before it (two lines may be shown as one: the blank line between two parts of
    /// a mail is shown as the first line of the second).
    pub fn from_runs(text: &str) -> Option<LineMap> {
        let mut numbers: Vec<usize> = Vec::new();
        for run in text.split_whitespace() {
            let (a, b) = run.split_once('-').unwrap_or((run, run));
            let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
            if a == 0 || b < a || numbers.last().is_some_and(|&l| a < l) {
                return None;
            }
            // No more numbers than the lines of the largest orders a mail may hold.
            if numbers.len().saturating_add(b - a) >= MAX_MAPPED_LINES {
                return None;
            }
            numbers.extend(a..=b);
        }
        Some(LineMap::new(numbers))
    }
}

/// More lines than any orders a mail may hold (`[mail] max_text_bytes`) have.
const MAX_MAPPED_LINES: usize = 1 << 24;

impl serde::Serialize for LineMap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.runs())
    }
}

impl<'de> serde::Deserialize<'de> for LineMap {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LineMap, D::Error> {
        let text = String::deserialize(d)?;
        LineMap::from_runs(&text).ok_or_else(|| {
            serde::de::Error::custom(
                "not the lines of a mail: runs of line numbers from 1, none below the one before it, are expected, as \"3-5 8 10-12\"",
            )
        })
    }
}

/// The longest excerpt of a line we show; longer lines are cut around the span.
const MAX_SHOWN: usize = 240;

fn clamp_span(text: &str, span: &Range<usize>) -> Range<usize> {
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    // Never underline more than what we show.
    if end - start > MAX_SHOWN {
        end = start + MAX_SHOWN;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
    }
    start..end
}

/// The excerpt as annotate-snippets 0.11 can lay it out: white space and control characters but the
/// line break (LF, or CR LF) become spaces, one per byte, so that every span keeps its offsets and
/// every character its one column. (It subtracts with overflow on tabs, form feeds and other white
/// space of no width at the start of a line, and would print control characters as they are.)
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let line_break = c == '\n' || (c == '\r' && chars.peek() == Some(&'\n'));
        if !line_break && (c.is_whitespace() || c.is_control()) {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `c` ends a line as an editor or a terminal may show it (not only as the lexer splits).
fn breaks_line(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Whether `c` separates words for masking: white space, control characters (NUL included), the
/// invisible characters editors slip in, and what `orders::printable` shows a bad byte as (`?`,
/// U+FFFD).
fn separates_words(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '\u{feff}' | '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '?' | '\u{fffd}'
        )
}

/// Whether a word opens a password: the first word of a line starting with "pas" ("password",
/// "pasword", "passwd", "password:"), or a word starting with "passw" or "pasw" anywhere in a line
/// (a password line run into another by a line break the lexer does not split at).
fn opens_password(word: &str, first: bool) -> bool {
    let starts = |p: &str| {
        word.get(..p.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(p))
    };
    (first && starts("pas")) || starts("passw") || starts("pasw")
}

/// What stands for a password wherever pbem shows a password line: stars, always as many, so that
/// neither the password nor its length is shown.
pub const PASSWORD_STARS: &str = "********";

/// The spellings of the password word kept whole in a masked line ("password", "passwd:", ...);
/// any other word that opens a password (a password run into it) keeps only its first three letters.
const PASSWORD_WORDS: &[&str] = &["password", "pasword", "passwd", "passw", "pass"];

/// One change [`mask_passwords_mapped`] made: at byte `at` of the text, `old` bytes became `new`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Masked {
    pub at: usize,
    pub old: usize,
    pub new: usize,
}

/// Where byte `offset` of the text is in the masked text: after a change, moved by it; inside
/// one, at most at the end of what replaced it.
pub fn masked_offset(changes: &[Masked], offset: usize) -> usize {
    let mut out = offset;
    for c in changes {
        if offset >= c.at + c.old {
            out = out + c.new - c.old;
        } else if offset > c.at {
            out = out - (offset - c.at) + (offset - c.at).min(c.new);
        }
    }
    out
}

/// The text with what follows a password word (see [`opens_password`]) up to the end of its line
/// replaced by [`PASSWORD_STARS`]: the word is kept whole when it is a spelling of "password" (else
/// its first three letters), and the stars say nothing of the password's length. Lines end at any
/// of [`breaks_line`]; the text must begin at the start of a line.
pub fn mask_passwords(text: &str) -> String {
    mask_passwords_mapped(text).0
}

/// As [`mask_passwords`], with the changes made, in order, to move offsets of the text into the
/// masked text ([`masked_offset`]).
pub fn mask_passwords_mapped(text: &str) -> (String, Vec<Masked>) {
    let mut out = String::with_capacity(text.len());
    let mut changes = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (line, brk) = match rest.char_indices().find(|&(_, c)| breaks_line(c)) {
            Some((i, c)) => (&rest[..i], &rest[i..i + c.len_utf8()]),
            None => (rest, ""),
        };
        let line_at = text.len() - rest.len();
        rest = &rest[line.len() + brk.len()..];
        let mut words = line
            .split(separates_words)
            .filter(|w| !w.is_empty())
            .enumerate();
        let opening = words.find(|(n, w)| opens_password(w, *n == 0));
        match opening {
            Some((_, word)) => {
                // `word` is a slice of `line`: its offset is the difference of the pointers.
                let start = word.as_ptr() as usize - line.as_ptr() as usize;
                let whole = PASSWORD_WORDS
                    .contains(&word.trim_end_matches(':').to_ascii_lowercase().as_str());
                let keep = if whole { start + word.len() } else { start + 3 };
                let after = &line[keep..];
                if after.trim().is_empty() {
                    out.push_str(line);
                } else {
                    let stars = if whole {
                        format!(" {PASSWORD_STARS}")
                    } else {
                        PASSWORD_STARS.to_string()
                    };
                    out.push_str(&line[..keep]);
                    out.push_str(&stars);
                    changes.push(Masked {
                        at: line_at + keep,
                        old: after.len(),
                        new: stars.len(),
                    });
                }
            }
            None => out.push_str(line),
        }
        out.push_str(brk);
    }
    (out, changes)
}

/// 1-based line and column (in characters) of a byte offset in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// The closest of `candidates` to `word`, case-insensitively, if it is close enough to be a typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let word = word.to_lowercase();
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        let score = strsim::jaro_winkler(&word, &c.to_lowercase());
        if score > 0.8 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

/// An error about a file of the game folder, already located and rendered.
#[derive(Debug)]
pub struct FileError {
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub rendered: String,
}

impl FileError {
    pub fn new(source: &Source, diagnostic: &Diagnostic) -> Self {
        let (line, column) = source.line_col(diagnostic.span.start);
        FileError {
            path: source.path.clone(),
            line,
            column,
            rendered: source.render(std::slice::from_ref(diagnostic)),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rendered.trim_end())
    }
}

impl std::error::Error for FileError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("é\nx", 3), (2, 1));
    }

    #[test]
    fn did_you_mean_finds_typos_only() {
        let areas = ["Ulm", "Vienna", "Munich"];
        assert_eq!(did_you_mean("Ulmm", areas), Some("Ulm"));
        assert_eq!(did_you_mean("vienna", areas), Some("Vienna"));
        assert_eq!(did_you_mean("Paris", areas), None);
    }

    #[test]
    fn render_names_file_line_column_and_hint() {
        let src = Source::new("orders/france.txt", "power france\nmove FR-I Ulmm\n");
        let d = Diagnostic::error("unknown area 'Ulmm'", 23..27)
            .label("not on the map")
            .hint("did you mean 'Ulm'?");
        let text = src.render(&[d]);
        assert!(text.contains("orders/france.txt:2:11"), "{text}");
        assert!(text.contains("did you mean 'Ulm'?"), "{text}");
    }

    #[test]
    fn render_never_shows_a_password() {
        let src = Source::new("o.txt", "power france\npassword sécret1\n");
        let text = src.render(&[Diagnostic::error("wrong password for France", 22..30)]);
        assert!(!text.contains("sécret1"), "{text}");
        assert!(text.contains("password ********\n"), "{text}");
        // Neither a part of the word nor the password's length.
        for pw in ["Qz", "a-much-longer-password-than-most"] {
            let src = Source::new("o.txt", format!("power france\nPassword: {pw}\nturn 1\n"));
            let text = src.render(&[Diagnostic::error("wrong password", 22..23)]);
            assert!(text.contains("Password: ********\n"), "{text}");
            assert!(!text.contains(pw), "{text}");
        }
    }

    /// Issue 15.2: masked by the structure of the line, whatever cut the window or split the lines.
    #[test]
    fn render_never_shows_a_password_after_many_blanks_or_odd_line_breaks() {
        let blanks = " ".repeat(300);
        let text = format!("power france\npassword{blanks}Wr0ng-Guess\n");
        let at = text.find("Wr0ng").unwrap();
        let out = Source::new("o.txt", text.clone()).render(&[Diagnostic::error("x", at..at + 11)]);
        assert!(!out.contains("Wr0ng"), "{out}");
        for text in [
            "power france\rpassword Right-Pw\0\rturn 1\r",
            "power france\u{2028}password Right-Pw\n",
            "power france password Right-Pw\n",
            "\u{200b}PassWord Right-Pw\n",
            "power\0password\0Right-Pw\n",
            "power?password?Right-Pw\n",
            "move A B\u{b}pasword: Right-Pw\n",
        ] {
            for span in [0..1, 5..9, text.len() - 2..text.len() - 1] {
                let out = Source::new("o.txt", text).render(&[Diagnostic::error("x", span)]);
                assert!(
                    !out.contains("Right") && !out.contains("-Pw"),
                    "{text:?}: {out}"
                );
            }
        }
        assert_eq!(mask_passwords("move X Passau\n"), "move X Passau\n");
        assert_eq!(mask_passwords("pas\n"), "pas\n");
    }

    #[test]
    fn render_shows_odd_white_space_as_spaces_and_control_characters_as_question_marks() {
        let text = "\u{c}\u{c}\u{b}move\u{1b}[2J FR-I\u{a0}Ulmm\u{85}\t\r\nx\r\n";
        let src = Source::new("o\u{7}.txt", text);
        let d = Diagnostic::error("unknown area 'Ulmm\u{1b}[31m'", 14..20).label("\u{0}here");
        let out = src.render(&[d]);
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
        assert!(out.contains("unknown area 'Ulmm?[31m'"), "{out}");
        assert!(out.contains("o?.txt:1:"), "{out}");
        for span in [0..0, 0..1, 3..4, 7..9, 24..25, 27..28, 29..29, 30..30] {
            let out = src.render(&[Diagnostic::error("x", span)]);
            assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
        }
        // CR LF stays a line break: no '?' at the end of the lines shown.
        let src = Source::new("o.txt", "move X\r\nfoo bar\r\n");
        for span in [5..6, 6..8, 9..12, 13..16, 17..17] {
            let out = src.render(&[Diagnostic::error("x", span)]);
            assert!(!out.contains('?'), "{out:?}");
        }
    }

    /// Orders read out of a mail name the lines of the mail (`LineMap`): in the header of a
    /// diagnostic and under the line it quotes (`line_col` keeps the text's); a span over lines the reader does
    /// not see in a row is shown on its first; the map is kept as runs and read back.
    #[test]
    fn a_line_map_names_the_lines_of_the_mail() {
        let map = LineMap::new(vec![1, 2, 6, 7, 12]);
        assert_eq!(map.runs(), "1-2 6-7 12");
        assert_eq!(LineMap::from_runs("1-2 6-7 12"), Some(map.clone()));
        assert_eq!((map.number(3), map.number(5), map.number(6)), (6, 12, 13));
        assert!(LineMap::new(vec![1, 2, 3]).is_identity());
        assert_eq!(LineMap::from_runs(""), Some(LineMap::default()));
        assert_eq!(
            LineMap::from_runs("2 2-3"),
            Some(LineMap::new(vec![2, 2, 3]))
        );
        for bad in ["0", "3-2", "5 4", "x", "1-99999999999", "1--2", "-1"] {
            assert_eq!(LineMap::from_runs(bad), None, "{bad}");
        }
        let text = "game x\npower france\nmove FR-I Ulmm\nturn 1\nattack Munchen\n";
        let src = Source::new("your mail", text).with_lines(map);
        let at = text.find("Ulmm").unwrap();
        let out = src.render(&[Diagnostic::error("unknown area", at..at + 4)]);
        assert!(out.contains("your mail:6:11"), "{out}");
        assert!(
            out.contains("6 | move FR-I Ulmm\n  |           ^^^^"),
            "{out}"
        );
        assert_eq!(src.line_col(at), (3, 11), "the text's own line");
        // Over the line of the mail 7 and 12: shown on 7 alone, numbered as the mail's.
        let at = text.find("turn").unwrap();
        let out = src.render(&[Diagnostic::error("x", at..text.len() - 1)]);
        assert!(out.contains("7 | turn 1\n"), "{out}");
        assert!(!out.contains("attack"), "{out}");
        // At the end of the file: past the last line the numbers go on.
        let out = src.render(&[Diagnostic::error("x", text.len()..text.len())]);
        assert!(out.contains("your mail:12:15"), "{out}");
    }

    #[test]
    fn render_cuts_a_huge_line() {
        let line = "x".repeat(10_000_000);
        let src = Source::new("big.txt", line);
        let text = src.render(&[Diagnostic::error("line too long", 5_000_000..5_000_010)]);
        assert!(text.len() < 2_000, "{}", text.len());
    }
}
