//! Finding the orders in a message as real mail clients write it (issue 4.2): a text/plain body, an
//! HTML-only body (turned into text), either part of a multipart/alternative, a `.txt` attachment;
//! quoted-printable, base64 and the charsets are decoded by the parser (`mail::parse`); here
//! `format=flowed` lines are joined again (RFC 3676), quoted `>` lines and the attribution line above
//! them are dropped, a signature after `-- ` is cut, and so is a quoted original below an Outlook-style
//! `From: / Sent:` block. Each line of the orders keeps the line of the part it was read from, as
//! the player's client shows it (`Found::lines`), which his answer and his report name. Pure
//! functions of the parsed message: no I/O, no panics on any input.

use super::html;
use super::parse::{Content, Incoming, Part};
use crate::diag::LineMap;

/// Where the orders of a message were found, and what they say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The orders text, cleaned, with LF line ends: what `orders/<t>/<power>.txt` will hold.
    pub text: String,
    /// "the body" or "the attachment 'france.txt'".
    pub origin: String,
    /// The name diagnostics name, the one its sender knows (`game::submission::sent_as`): the
    /// attachment's (safe) name, or for the body his mail by its subject; never a path of the
    /// referee's.
    pub file_name: String,
    /// The line each line of `text` is in what its player sees: the decoded text of the body (its
    /// parts one after another; of an HTML body, its text rendering) or of the attachment.
    pub lines: LineMap,
}

/// What a message holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extracted {
    Orders(Found),
    /// No part has a `game`, `power` or `password` line: not a submission.
    NoOrders,
    /// The message cannot be read for orders, for this reason.
    Refused(String),
}

/// Finds the orders of a message; `max_text` bounds the size of any part read (game.toml
/// `[mail] max_text_bytes`).
pub fn extract(message: &Incoming, max_text: u64) -> Extracted {
    extract_at(message, max_text, 0)
}

/// [`extract`] of a message forwarded `depth` deep in the one the referee received.
fn extract_at(message: &Incoming, max_text: u64, depth: usize) -> Extracted {
    for p in &message.parts {
        if let Some(name) = &p.name {
            if is_path(name) {
                return Extracted::Refused(format!(
                    "an attachment is named '{}', which is a path: pbem refuses the whole message",
                    shown_name(name)
                ));
            }
        }
    }
    let mut candidates: Vec<Found> = Vec::new();
    let mut too_big: Option<String> = None;
    // A part that may hold orders and is not text pbem can read (NULs and no byte-order mark).
    let mut unreadable: Option<String> = None;
    let subject = &message.subject;
    let (mut body, mut body_lines, mut forwarded) = read_body(
        message.parts.iter().filter(|p| p.is_body),
        max_text,
        subject,
        &mut too_big,
        &mut unreadable,
    );
    // A multipart/alternative whose text part is empty or holds no orders (some clients and
    // webmail send a blank one): the orders are in what the reader sees, its HTML alternative.
    if !has_header(&body) {
        let (html, html_lines, html_forwarded) = read_body(
            message.parts.iter().filter(|p| p.html_alternative),
            max_text,
            subject,
            &mut too_big,
            &mut unreadable,
        );
        if has_header(&html) {
            (body, body_lines, forwarded) = (html, html_lines, html_forwarded);
        }
    }
    if has_header(&body) {
        let origin = match forwarded {
            true => "the message forwarded in the body",
            false => "the body",
        };
        candidates.push(Found {
            text: body,
            origin: origin.into(),
            file_name: crate::game::submission::sent_as(origin, &message.subject),
            lines: LineMap::new(body_lines),
        });
    }
    // A message forwarded as an attachment (message/rfc822), read as a mail of its own.
    for p in message.parts.iter() {
        let Content::Message(raw) = &p.content else {
            continue;
        };
        if depth >= super::forward::MAX_DEPTH {
            continue;
        }
        let Some(inner) = super::parse::parse(raw) else {
            continue;
        };
        if let Extracted::Orders(found) = extract_at(&inner, max_text, depth + 1) {
            let origin = "the message forwarded as an attachment";
            candidates.push(Found {
                text: found.text,
                origin: origin.into(),
                file_name: crate::game::submission::sent_as(origin, &message.subject),
                // The lines of the forwarded message, as the client shows it opened.
                lines: found.lines,
            });
        }
    }
    for p in message.parts.iter().filter(|p| !p.is_body) {
        let Some(name) = &p.name else { continue };
        if !is_text_attachment(p) {
            continue;
        }
        if p.size() as u64 > max_text {
            too_big.get_or_insert(format!(
                "the attachment '{}' is {} bytes, over the limit of {max_text} (game.toml [mail] max_text_bytes)",
                shown_name(name),
                p.size()
            ));
            continue;
        }
        let text = match &p.content {
            Content::Text(t) => Some(t.clone()),
            Content::Bytes(b) => decode_bytes(b),
            Content::Html(_) | Content::Message(_) => None,
        };
        let Some(text) = text else {
            if matches!(p.content, Content::Bytes(_)) {
                unreadable.get_or_insert_with(|| format!("the attachment '{}'", shown_name(name)));
            }
            continue;
        };
        let (text, lines) = clean_numbered(&text, p.flowed, p.delsp);
        if has_header(&text) {
            candidates.push(Found {
                text,
                origin: format!("the attachment '{}'", shown_name(name)),
                file_name: crate::game::submission::sent_as(
                    &format!("the attachment '{}'", shown_name(name)),
                    &message.subject,
                ),
                lines: LineMap::new(lines),
            });
        }
    }
    // A body whose headers lie about its bytes (base64 that is not, UTF-16 that is not), and whose
    // bytes as they are hold orders: named, with what to do, rather than "no orders".
    let mislabelled = message
        .parts
        .iter()
        .filter(|p| p.is_body || p.html_alternative)
        .filter_map(|p| p.mislabelled.as_ref())
        .find(|(_, as_sent)| has_header(&clean(as_sent, false, false)))
        .map(|(why, _)| why);
    let Some(first) = candidates.first() else {
        return match (too_big, unreadable) {
            (Some(reason), _) => Extracted::Refused(reason),
            (None, _) if mislabelled.is_some() => Extracted::Refused(format!(
                "the body {}: pbem reads a mail as its headers say and found no orders in it; send your orders again as plain text in UTF-8 (your mail program's plain-text setting), or attach them as a .txt file",
                mislabelled.map_or("", String::as_str)
            )),
            (None, Some(part)) => Extracted::Refused(format!(
                "{part} is not text pbem can read (it holds NUL bytes and no byte-order mark): save it as UTF-8 and send it again"
            )),
            (None, None) => Extracted::NoOrders,
        };
    };
    if let Some(other) = candidates
        .iter()
        .find(|c| comparable(&c.text) != comparable(&first.text))
    {
        return Extracted::Refused(format!(
            "the message holds two different sets of orders ({} and {}): send one",
            first.origin, other.origin
        ));
    }
    Extracted::Orders(first.clone())
}

/// The text of the body parts `parts`, each cleaned, joined by a line; a part over `max_text` or
/// not text pbem can read is left out, and its reason kept in `too_big` or `unreadable`. With it,
/// the line of the body each of its lines is: the parts' lines counted one after another, as the
/// reader's client shows them; and true when a part's orders are those of a message it forwards
/// (`forward`).
fn read_body<'a>(
    parts: impl Iterator<Item = &'a Part>,
    max_text: u64,
    subject: &str,
    too_big: &mut Option<String>,
    unreadable: &mut Option<String>,
) -> (String, Vec<usize>, bool) {
    let mut body = String::new();
    let mut numbers: Vec<usize> = Vec::new();
    let mut forwarded = false;
    // The lines of the parts before this one.
    let mut before = 0usize;
    for p in parts {
        if p.size() as u64 > max_text {
            too_big.get_or_insert(format!(
                "the body is {} bytes, over the limit of {max_text} (game.toml [mail] max_text_bytes)",
                p.size()
            ));
            continue;
        }
        let shown = match &p.content {
            Content::Text(t) => (t.clone(), p.flowed),
            Content::Html(h) => (html::to_text(h), false),
            Content::Bytes(b) => match decode_bytes(b) {
                Some(t) => (t, p.flowed),
                None => {
                    unreadable.get_or_insert_with(|| "the body".into());
                    continue;
                }
            },
            Content::Message(_) => continue,
        };
        let (text, lines, inner) =
            clean_own_or_forwarded(&shown.0, shown.1, p.delsp && shown.1, subject);
        forwarded |= inner;
        if !body.is_empty() && !text.is_empty() {
            // The line joining two parts is none of the reader's: a blank line shown as the
            // first line of this part's.
            body.push('\n');
            numbers.push(before + 1);
        }
        body.push_str(&text);
        numbers.extend(lines.iter().map(|n| before + n));
        before += shown_lines(&shown.0);
    }
    (body, numbers, forwarded)
}

/// How many lines a reader sees in `text`: its line breaks (CR LF, LF or CR) and the line after
/// the last, if any.
fn shown_lines(text: &str) -> usize {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let breaks = text.replace("\r\n", "\n").matches(['\n', '\r']).count();
    match text.ends_with(['\n', '\r']) {
        true => breaks,
        false => breaks + 1,
    }
}

/// Whether a text has a `game`, `power` or `password` line: the mark of orders.
pub fn has_header(text: &str) -> bool {
    let (h, _, _) = crate::orders::Header::take(text, crate::orders::split(text));
    h.game.is_some() || h.power.is_some() || h.password.is_some()
}

/// The lines that matter, to tell whether two candidates are the same orders.
fn comparable(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// An attachment that may hold orders: text/plain, or any type with a `.txt` name.
fn is_text_attachment(p: &Part) -> bool {
    let txt = p
        .name
        .as_deref()
        .is_some_and(|n| n.to_ascii_lowercase().ends_with(".txt"));
    txt || p.content_type == "text/plain"
}

/// A name that is a path (`../../game.toml`, `C:\x`, `/etc/passwd`) or holds control characters.
pub fn is_path(name: &str) -> bool {
    name.contains('/')
        || name.contains('\\')
        || name.trim() == ".."
        || name.chars().any(|c| c.is_control())
}

/// A file name fit to print: control characters replaced, at most 80 characters.
pub fn shown_name(name: &str) -> String {
    super::parse::one_line(name, 80)
}

/// Decodes the bytes of a text attachment that came without a usable charset: UTF-8 (with or without a
/// byte-order mark), UTF-16 with a byte-order mark, else Windows-1252 (what Notepad calls "ANSI"). A
/// NUL byte means it is not text: `None`.
pub fn decode_bytes(b: &[u8]) -> Option<String> {
    if let Some(rest) = b.strip_prefix(b"\xEF\xBB\xBF") {
        return std::str::from_utf8(rest).ok().map(str::to_string);
    }
    let utf16 = |le: bool| {
        let units: Vec<u16> = b[2..]
            .chunks_exact(2)
            .map(|c| {
                if le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            })
            .collect();
        Some(String::from_utf16_lossy(&units))
    };
    if b.starts_with(b"\xFF\xFE") {
        return utf16(true);
    }
    if b.starts_with(b"\xFE\xFF") {
        return utf16(false);
    }
    if b.contains(&0) {
        return None;
    }
    match std::str::from_utf8(b) {
        Ok(s) => Some(s.to_string()),
        Err(_) => Some(b.iter().map(|&c| cp1252(c)).collect()),
    }
}

/// A Windows-1252 byte as a character (ISO-8859-1 but for 0x80..0x9F).
fn cp1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9F => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// Cleans the text of a part for reading orders: LF line ends; `format=flowed` undone; no-break and
/// zero-width spaces made plain; the signature, a quoted original below a reply header, quoted `>`
/// lines and their attribution line dropped, and "Sent from my iPhone"; runs of blank lines collapsed, leading and trailing ones cut.
pub fn clean(text: &str, flowed: bool, delsp: bool) -> String {
    clean_numbered(text, flowed, delsp).0
}

/// [`clean`], with the line of `text` each line of the cleaned text is (1-based, as its reader's
/// client shows `text`: a `format=flowed` paragraph is the line it begins on).
pub fn clean_numbered(text: &str, flowed: bool, delsp: bool) -> (String, Vec<usize>) {
    let (numbers, lines) = lines_of(text, flowed, delsp);
    clean_lines(&lines, &numbers)
}

/// [`clean_numbered`], or, when the writer's own text holds no orders and forwards a message, the
/// forwarded message's text cleaned (`forward`), its lines numbered in the whole text as its
/// reader's client shows it; true when it is the forwarded one.
fn clean_own_or_forwarded(
    text: &str,
    flowed: bool,
    delsp: bool,
    subject: &str,
) -> (String, Vec<usize>, bool) {
    let (numbers, lines) = lines_of(text, flowed, delsp);
    let (own, own_numbers) = clean_lines(&lines, &numbers);
    let mut rest: &[String] = &lines;
    for _ in 0..super::forward::MAX_DEPTH {
        if has_header(&own) {
            break;
        }
        let Some(inner) = super::forward::forwarded(rest, cut_point(rest), subject) else {
            break;
        };
        // `forwarded` gives the tail of `rest`: its first line is this far into the text.
        let from = lines.len() - inner.len();
        let (text, inner_numbers) = clean_lines(inner, &numbers[from..]);
        if has_header(&text) {
            return (text, inner_numbers, true);
        }
        rest = inner;
    }
    (own, own_numbers, false)
}

/// The lines of a part's text, each with its line as the reader's client shows the text: LF line
/// ends, `format=flowed` undone, no-break and zero-width spaces made plain.
fn lines_of(text: &str, flowed: bool, delsp: bool) -> (Vec<usize>, Vec<String>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let (numbers, lines): (Vec<usize>, Vec<String>) = if flowed {
        unflow_numbered(&text, delsp).into_iter().unzip()
    } else {
        text.split('\n')
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .unzip()
    };
    (numbers, lines.iter().map(|l| plain_spaces(l)).collect())
}

/// [`clean_numbered`] of the lines of a text, `numbers` the line of each.
fn clean_lines(lines: &[String], numbers: &[usize]) -> (String, Vec<usize>) {
    let end = cut_point(lines);
    let lines = &lines[..end];
    let mut out: Vec<&str> = Vec::new();
    let mut out_numbers: Vec<usize> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if is_quoted(line) {
            continue;
        }
        if line.trim_end().ends_with(':') && next_is_quoted(&lines[i + 1..]) {
            continue; // "On Sat, 5 Dec 2026, Referee wrote:"
        }
        if is_device_signature(line) {
            continue; // "Sent from my iPhone"
        }
        let line = line.trim_end();
        // Blank lines left around a dropped quote collapse into one; none at the start.
        if line.is_empty() && out.last().is_none_or(|l| l.is_empty()) {
            continue;
        }
        out.push(line);
        out_numbers.push(numbers[i]);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
        out_numbers.pop();
    }
    let mut s = out.join("\n");
    if !s.is_empty() {
        s.push('\n');
    }
    (s, out_numbers)
}

/// The one-line signatures mobile clients add ("Sent from my iPhone", "Get Outlook for Android"): no
/// order starts with these words.
fn is_device_signature(line: &str) -> bool {
    const STARTS: [&str; 7] = [
        "sent from ",
        "get outlook for ",
        "envoyé de mon ",
        "envoyé depuis ",
        "von meinem ",
        "gesendet von ",
        "enviado desde ",
    ];
    let l = line.trim().to_lowercase();
    STARTS.iter().any(|s| l.starts_with(s)) && l.split_whitespace().count() <= 8
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

fn next_is_quoted(rest: &[String]) -> bool {
    rest.iter()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| is_quoted(l))
}

/// No-break spaces (as HTML editors write `&nbsp;`) become spaces; zero-width characters go.
fn plain_spaces(line: &str) -> String {
    line.chars()
        .filter(|c| {
            !matches!(
                c,
                '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
            )
        })
        .map(|c| match c {
            '\u{a0}' | '\u{2007}' | '\u{202f}' => ' ',
            c => c,
        })
        .collect()
}

/// The index of the first line that is not the writer's own: a signature separator (`-- `), an
/// "Original Message" or forward marker, or an Outlook-style header block (`From:` then `Sent:`).
fn cut_point(lines: &[String]) -> usize {
    const FROM: [&str; 5] = ["from:", "von:", "de:", "de :", "da:"];
    const SENT: [&str; 9] = [
        "sent:",
        "date:",
        "gesendet:",
        "datum:",
        "envoyé :",
        "envoyé:",
        "date :",
        "inviato:",
        "to:",
    ];
    // Outlook's plain text writes its labels in bold: `*From:*`.
    let starts = |l: &str, words: &[&str]| {
        let l = l.trim_start().trim_start_matches('*').to_lowercase();
        words.iter().any(|w| l.starts_with(w))
    };
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if line == "-- " || t == "--" {
            return i;
        }
        let lower = t.to_lowercase();
        let dashes = lower.trim_matches(|c: char| c == '-' || c.is_whitespace());
        if lower.starts_with("---")
            && (dashes.contains("original message")
                || dashes.contains("forwarded message")
                || dashes.contains("ursprüngliche nachricht")
                || dashes.contains("message d'origine"))
        {
            return i;
        }
        if lower.starts_with("begin forwarded message") {
            return i;
        }
        let next: Vec<&String> = lines[i + 1..]
            .iter()
            .filter(|l| !l.trim().is_empty())
            .take(4)
            .collect();
        if t.len() >= 10
            && t.chars().all(|c| c == '_')
            && next.first().is_some_and(|n| starts(n, &FROM))
        {
            return i;
        }
        if starts(line, &FROM) && next.iter().any(|n| starts(n, &SENT)) {
            return i;
        }
    }
    lines.len()
}

/// RFC 3676: joins the lines a `format=flowed` sender broke (a line ending in a space goes on with the
/// next one of the same quote depth), removes space-stuffing, and with `delsp=yes` the space before
/// each soft break. Quoted lines keep their `>` marks.
pub fn unflow(text: &str, delsp: bool) -> Vec<String> {
    unflow_numbered(text, delsp)
        .into_iter()
        .map(|(_, l)| l)
        .collect()
}

/// [`unflow`], each line with the line of `text` it begins on (1-based).
fn unflow_numbered(text: &str, delsp: bool) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    // The quote depth, the line it began on and the text of the line being joined.
    let mut open: Option<(usize, usize, String)> = None;
    for (n, raw) in text.split('\n').enumerate() {
        let n = n + 1;
        let depth = raw.chars().take_while(|c| *c == '>').count();
        let mut content = &raw[depth..];
        if let Some(stuffed) = content.strip_prefix(' ') {
            content = stuffed;
        }
        let is_sig = content == "-- ";
        let soft = content.ends_with(' ') && !is_sig;
        let piece = if soft && delsp {
            &content[..content.len() - 1]
        } else {
            content
        };
        match &mut open {
            Some((d, _, acc)) if *d == depth => acc.push_str(piece),
            Some(_) => {
                let (d, at, acc) = open.take().unwrap_or_default();
                out.push((at, format!("{}{acc}", ">".repeat(d))));
                open = Some((depth, n, piece.to_string()));
            }
            None => open = Some((depth, n, piece.to_string())),
        }
        if !soft {
            if let Some((d, at, acc)) = open.take() {
                out.push((at, format!("{}{acc}", ">".repeat(d))));
            }
        }
    }
    if let Some((d, at, acc)) = open {
        out.push((at, format!("{}{acc}", ">".repeat(d))));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flowed_lines_are_joined_and_stuffing_removed() {
        let t = "move FR-I Nuremberg \r\nRegensburg Munich\r\n From the start\r\n> quoted \r\n> more\r\n-- \r\nsig\r\n";
        assert_eq!(
            clean(t, true, false),
            "move FR-I Nuremberg Regensburg Munich\nFrom the start\n"
        );
    }

    /// Each line of the orders keeps the line of the part its reader sees it on: past a dropped
    /// quote and its attribution, a collapsed run of blank lines and a flowed paragraph (the line
    /// it begins on).
    #[test]
    fn each_line_keeps_the_line_its_reader_sees_it_on() {
        let t = "Hi,\n\n\ngame ulm-1805\nOn Sat, Referee wrote:\n> quoted\n> more\nmove FR-I \nUlm\nattack Ulm\n-- \nJean\n";
        let (text, lines) = clean_numbered(t, true, false);
        assert_eq!(text, "Hi,\n\ngame ulm-1805\nmove FR-I Ulm\nattack Ulm\n");
        assert_eq!(lines, [1, 2, 4, 8, 10]);
        let (text, lines) = clean_numbered(
            "\u{feff}\r\n\r\npower france\r\n> x\r\nturn 1\r\n",
            false,
            false,
        );
        assert_eq!(
            (text.as_str(), lines),
            ("power france\nturn 1\n", vec![3, 5])
        );
        assert_eq!(shown_lines("a\r\nb\rc"), 3);
        assert_eq!(shown_lines("a\nb\n"), 2);
    }

    /// The orders of a message forwarded in the body keep their lines in the whole text, as the
    /// forwarder's client shows it, below the forward mark and its header block.
    #[test]
    fn forwarded_orders_are_numbered_by_the_lines_of_the_whole_text() {
        let text = "Hi, see below\n\n---------- Forwarded message ---------\nFrom: Ney <ney@example.org>\n\
                    Date: Sat, 5 Dec 2026\nSubject: orders\nTo: referee@example.org\n\ngame x\nmove A B\n";
        let (orders, lines, forwarded) = clean_own_or_forwarded(text, false, false, "Fwd: orders");
        assert!(forwarded);
        assert_eq!(orders, "game x\nmove A B\n");
        assert_eq!(lines, [9, 10]);
    }

    /// The body's parts are counted one after another, as its reader's client shows them.
    #[test]
    fn the_lines_of_a_body_in_parts_follow_on() {
        let part = |text: &str| Part {
            name: None,
            content_type: "text/plain".into(),
            is_body: true,
            html_alternative: false,
            flowed: false,
            delsp: false,
            content: Content::Text(text.into()),
            mislabelled: None,
        };
        let parts = [part("Hi\n\n> q\ngame x\n"), part("> q\nmove A B\n")];
        let (body, lines, _) = read_body(parts.iter(), u64::MAX, "orders", &mut None, &mut None);
        assert_eq!(body, "Hi\n\ngame x\n\nmove A B\n");
        assert_eq!(lines, [1, 2, 4, 5, 6]);
        assert!(
            crate::diag::LineMap::from_runs(&crate::diag::LineMap::new(lines).runs()).is_some()
        );
    }

    #[test]
    fn delsp_removes_the_space_of_a_soft_break() {
        assert_eq!(unflow("abc \ndef\n", true), ["abcdef", ""]);
        assert_eq!(unflow("abc \ndef\n", false), ["abc def", ""]);
    }

    #[test]
    fn quotes_attribution_and_signature_are_dropped() {
        let t = "power france\n\nOn Sat, 5 Dec 2026 at 18:00, Referee <r@x.org> wrote:\n\n> Report of turn 1\n> game ulm-1805\nturn 1\n--\nJean\npassword x\n";
        assert_eq!(clean(t, false, false), "power france\n\nturn 1\n");
    }

    #[test]
    fn an_outlook_original_below_the_orders_is_cut() {
        let t = "power france\nturn 1\n\n________________________________\nFrom: Referee <r@x.org>\nSent: Saturday, December 5, 2026 6:00 PM\nTo: France\nSubject: report\n\ngame ulm-1805\n";
        assert_eq!(clean(t, false, false), "power france\nturn 1\n");
        let t = "power france\n-----Original Message-----\nFrom: r\ngame x\n";
        assert_eq!(clean(t, false, false), "power france\n");
        // Outlook's labels in bold, as its plain text writes them (`*From:*`).
        let t = "power france\nturn 1\n\n*From:* Referee <r@x.org>\n*Sent:* Saturday, December 5, 2026 6:00 PM\n*Subject:* report\n\ngame ulm-1805\n";
        assert_eq!(clean(t, false, false), "power france\nturn 1\n");
    }

    #[test]
    fn no_break_and_zero_width_spaces_are_plain() {
        assert_eq!(
            clean("move\u{a0}FR-I\u{200b} Ulm\r\n", false, false),
            "move FR-I Ulm\n"
        );
    }

    #[test]
    fn windows_1252_and_utf16_attachments_decode() {
        assert_eq!(
            decode_bytes(b"entropy l\x92aigle \xe9t\xe9").unwrap(),
            "entropy l\u{2019}aigle \u{e9}t\u{e9}"
        );
        assert_eq!(decode_bytes(b"\xFF\xFEg\0o\0").unwrap(), "go");
        assert_eq!(decode_bytes(b"\x89PNG\r\n\x1a\n\0\0"), None);
    }

    #[test]
    fn attachment_names_that_are_paths_are_caught() {
        assert!(is_path("../../game.toml"));
        assert!(is_path("..\\..\\game.toml"));
        assert!(is_path("/etc/passwd"));
        assert!(is_path("a\nb.txt"));
        assert!(!is_path("orders..final.txt"));
        assert!(!is_path("france.txt"));
    }
}
