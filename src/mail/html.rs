//! HTML mail turned into text, for orders sent from a client that writes HTML only (issue 4.2:
//! Outlook, Apple Mail in rich text, webmail). Every block element (`div`, `p`, `br`, `li`, `tr`,
//! `h1`..) ends a line, as the writer saw it on screen (mail-parser's own conversion runs
//! `<div>`-separated lines together); `blockquote` content comes out as `> ` quoted lines, so that a
//! quoted report is dropped as in a text reply; `head`, `style` and `script` are skipped; entities are
//! decoded. One pass over the input, no recursion: linear in its size, and no input makes it panic.

/// The text of an HTML document.
pub fn to_text(html: &str) -> String {
    let mut out = Converter::default();
    let mut rest = html;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |i| &after[i + 3..]);
            continue;
        }
        if rest.starts_with('<') {
            let (tag, after) = match tag_end(rest) {
                Some(gt) => (&rest[1..gt], &rest[gt + 1..]),
                None => (&rest[1..], ""),
            };
            out.tag(tag);
            rest = after;
            continue;
        }
        let next = rest.find('<').unwrap_or(rest.len());
        let (text, after) = rest.split_at(next);
        if out.skip == 0 {
            out.text(text);
        }
        rest = after;
    }
    out.finish()
}

/// The offset of the `>` that closes the tag at the start of `s`, minding quoted attribute values.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some(i),
            _ => {}
        }
    }
    None
}

#[derive(Default)]
struct Converter {
    lines: Vec<String>,
    line: String,
    /// The deepest blockquote the current line has text in.
    line_depth: usize,
    depth: usize,
    /// Inside `head`, `style`, `script`, `title` or `template`.
    skip: usize,
    pre: usize,
    pending_space: bool,
}

const BLOCKS: &[&str] = &[
    "p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
    "section", "article", "header", "footer", "dd", "dt", "dl", "address", "center",
];

impl Converter {
    fn tag(&mut self, tag: &str) {
        let tag = tag.trim();
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        let self_closing = tag.ends_with('/');
        match name.as_str() {
            "head" | "style" | "script" | "title" | "template" if !self_closing => {
                if closing {
                    self.skip = self.skip.saturating_sub(1);
                } else {
                    self.skip += 1;
                }
            }
            _ if self.skip > 0 => {}
            "br" => self.newline(true),
            "hr" => {
                self.newline(false);
                self.line.push_str("________________________________");
                self.newline(false);
            }
            "blockquote" => {
                self.newline(false);
                if closing {
                    self.depth = self.depth.saturating_sub(1);
                } else if !self_closing {
                    self.depth += 1;
                }
            }
            "pre" => {
                self.newline(false);
                if closing {
                    self.pre = self.pre.saturating_sub(1);
                } else if !self_closing {
                    self.pre += 1;
                }
            }
            "td" | "th" if !closing => self.pending_space = !self.line.is_empty(),
            n if BLOCKS.contains(&n) => self.newline(false),
            _ => {}
        }
    }

    fn text(&mut self, raw: &str) {
        let text = decode_entities(raw);
        if self.pre > 0 {
            for (i, piece) in text.split('\n').enumerate() {
                if i > 0 {
                    self.newline(true);
                }
                self.push(piece.trim_end_matches('\r'));
            }
            return;
        }
        for (i, word) in text.split(|c: char| c.is_ascii_whitespace()).enumerate() {
            if i > 0 {
                self.pending_space = true;
            }
            if !word.is_empty() {
                if self.pending_space && !self.line.is_empty() {
                    self.line.push(' ');
                }
                self.pending_space = false;
                self.push(word);
            }
        }
    }

    fn push(&mut self, s: &str) {
        if !s.is_empty() {
            self.line_depth = self.line_depth.max(self.depth);
            self.line.push_str(s);
        }
    }

    /// Ends the line; `hard` (a `<br>`) ends it even when it is empty.
    fn newline(&mut self, hard: bool) {
        self.pending_space = false;
        if self.line.is_empty() && !hard {
            return;
        }
        let depth = self.line_depth.max(self.depth);
        let mut line = "> ".repeat(depth);
        line.push_str(self.line.trim_end());
        self.lines.push(line);
        self.line.clear();
        self.line_depth = 0;
    }

    fn finish(mut self) -> String {
        self.newline(false);
        let mut text = self.lines.join("\n");
        text.push('\n');
        text
    }
}

/// Decodes `&amp;`, `&nbsp;`, `&#233;`, `&#xE9;` and the common named entities; leaves others as written.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let end = after
            .char_indices()
            .take(12)
            .find(|(_, c)| *c == ';')
            .map(|(j, _)| j);
        let decoded = end.and_then(|j| entity(&after[..j]).map(|c| (c, j)));
        match decoded {
            Some((c, j)) => {
                out.push(c);
                rest = &after[j + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        return char::from_u32(code).filter(|c| *c != '\0');
    }
    Some(match name {
        "nbsp" => '\u{a0}',
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "rsquo" => '\u{2019}',
        "lsquo" => '\u{2018}',
        "rdquo" => '\u{201d}',
        "ldquo" => '\u{201c}',
        "ndash" => '\u{2013}',
        "mdash" => '\u{2014}',
        "hellip" => '\u{2026}',
        "eacute" => 'é',
        "egrave" => 'è',
        "ecirc" => 'ê',
        "agrave" => 'à',
        "acirc" => 'â',
        "ccedil" => 'ç',
        "ocirc" => 'ô',
        "icirc" => 'î',
        "ugrave" => 'ù',
        "auml" => 'ä',
        "ouml" => 'ö',
        "uuml" => 'ü',
        "Auml" => 'Ä',
        "Ouml" => 'Ö',
        "Uuml" => 'Ü',
        "szlig" => 'ß',
        "Eacute" => 'É',
        "copy" => '©',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divs_and_paragraphs_end_lines() {
        let t = to_text("<html><head><style>p {x}</style></head><body><div>game ulm-1805</div><div>power&nbsp;france</div><p class=MsoNormal>turn 1<o:p></o:p></p><div><br></div></body></html>");
        assert_eq!(t, "game ulm-1805\npower\u{a0}france\nturn 1\n\n");
    }

    #[test]
    fn blockquotes_come_out_quoted() {
        let t = to_text(
            "<div>move FR-I Ulm</div><div class=gmail_quote>On Sat wrote:<blockquote><div>Report of turn 1</div><blockquote>older</blockquote></blockquote></div>",
        );
        assert_eq!(
            t,
            "move FR-I Ulm\nOn Sat wrote:\n> Report of turn 1\n> > older\n"
        );
    }

    #[test]
    fn entities_are_decoded_and_unknown_ones_kept() {
        assert_eq!(
            to_text("a &amp; b &lt;c&gt; &#233;&#xE9; &bogus; & x"),
            "a & b <c> éé &bogus; & x\n"
        );
    }

    #[test]
    fn pre_keeps_its_lines_and_comments_vanish() {
        assert_eq!(
            to_text("<pre>move FR-I  Ulm\nattack Ulm</pre><!-- a > b -->x"),
            "move FR-I  Ulm\nattack Ulm\nx\n"
        );
    }

    #[test]
    fn broken_html_does_not_panic() {
        for s in [
            "<",
            "<div",
            "<!--",
            "&",
            "&#xFFFFFFFF;",
            "&#0;",
            "</blockquote></blockquote>x",
            "<a href=\"x>y\">z</a>",
            "\u{e9}<\u{e9}",
        ] {
            let _ = to_text(s);
        }
    }
}
