//! A report mail of bounded size (issue 34.7, `[mail] max_outgoing_bytes`): most mail servers refuse
//! a message of 10 to 25 MB, and a report of a power that sees thousands of units is more. A report
//! mail that would be larger leaves out, one after the other until it fits ([`ORDER`]): the map
//! picture (PNG), the JSON report whole (it goes compressed), the HTML alternative, the SVG map, the
//! compressed JSON; last, the text goes whole and compressed, the body keeping its first lines and
//! its dice header. The text of a cut mail opens with a note of what was left out and where it is
//! (the report's files in the referee's game folder); its HTML, when kept, says the same where the
//! map stood. `pbem verify` reads the compressed text and JSON (`audit::forms`).

use std::ops::Range;

use anyhow::{Context, Result};

use super::outbox::{Attached, Outgoing};

/// What a report mail too large leaves out, in the order it does ([`ORDER`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOut {
    /// The phone map drawn as PNG, inline in the HTML.
    MapPicture,
    /// The JSON report, attached gzip-compressed instead.
    JsonCompressed,
    /// The HTML alternative (the text is the same report).
    Html,
    /// The SVG map.
    SvgMap,
    /// The JSON report, even compressed.
    Json,
    /// The text report, attached whole and gzip-compressed; the body keeps its first lines and its
    /// dice header.
    TextCompressed,
}

/// The order in which a report mail too large leaves things out.
pub const ORDER: [LeftOut; 6] = [
    LeftOut::MapPicture,
    LeftOut::JsonCompressed,
    LeftOut::Html,
    LeftOut::SvgMap,
    LeftOut::Json,
    LeftOut::TextCompressed,
];

impl LeftOut {
    /// Its words in the turn log and on the referee's terminal.
    pub fn name(self) -> &'static str {
        match self {
            LeftOut::MapPicture => "the map picture (PNG)",
            LeftOut::JsonCompressed => "the JSON report whole (sent compressed)",
            LeftOut::Html => "the HTML report",
            LeftOut::SvgMap => "the SVG map",
            LeftOut::Json => "the JSON report",
            LeftOut::TextCompressed => "the text in the body (sent whole, compressed)",
        }
    }
}

/// The first line of the note a cut mail's text opens with.
pub const NOTE_TITLE: &str = "THIS MAIL WAS CUT TO SIZE";

/// The line where the body of a mail whose text went compressed is cut: `audit::forms` reads the
/// attached whole instead of such a body.
pub const EXCERPT_MARK: &str = "[... the report goes on in the attached file ";

/// The most bytes `audit::forms` decompresses from one attached file (a report of 100,000 units
/// is under 100 MB in any form).
pub const MAX_DECOMPRESSED: u64 = 512 << 20;

/// A report mail cut to size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    /// Its size whole, in bytes.
    pub full: usize,
    /// Its size as it goes: over `cap` when even the last cut was not enough.
    pub sent: usize,
    pub cap: usize,
    pub left_out: Vec<LeftOut>,
}

impl Cut {
    /// "left out the map picture (PNG), the JSON report whole (sent compressed): 557,650 bytes
    /// whole, 301,233 sent, at most 300,000".
    pub fn describe(&self) -> String {
        let left: Vec<&str> = self.left_out.iter().map(|l| l.name()).collect();
        let over = if self.sent > self.cap {
            " (still over: the text and its dice header always go)"
        } else {
            ""
        };
        format!(
            "left out {}: {} bytes whole, {} sent, at most {} ([mail] max_outgoing_bytes){over}",
            left.join(", "),
            grouped(self.full),
            grouped(self.sent),
            grouped(self.cap),
        )
    }
}

/// The names a report's note gives: `attached`, its attachments' stem
/// (`ulm-1805-turn1-france`); `files`, its files' in the game folder (`turns/1/reports/france`).
pub struct Names<'a> {
    pub attached: &'a str,
    pub files: &'a str,
}

/// A mail rendered, as [`fit`] measures it: the size of the message as it is sent.
pub trait Sent {
    /// Its size; when not [`Sent::exact`], at least its size and at most the `up_to` it was
    /// rendered for, which tells that it fits.
    fn size(&self) -> usize;
    /// Whether [`Sent::size`] is the size itself (rendered with `up_to` `usize::MAX`, it is).
    fn exact(&self) -> bool {
        true
    }
}

impl Sent for Vec<u8> {
    fn size(&self) -> usize {
        self.len()
    }
}

impl Sent for crate::mail::outbox::Kept {
    fn size(&self) -> usize {
        self.size
    }

    fn exact(&self) -> bool {
        self.exact
    }
}

/// The report mail `mail` as it goes, `render` making its bytes: whole when it is at most `cap`
/// bytes, else cut ([`ORDER`]) until it fits, with the cut. `render(mail, up_to)` need make the
/// mail whole only when it is at most `up_to` bytes, else measure it ([`Sent::size`]; within
/// `up_to` it may only bound the size, [`Sent::exact`], and with `usize::MAX` it counts it): a mail
/// over its size is never made whole but to go so, cut as far as it goes. `map` is where the map block stands in
/// its HTML (`report::Rendered::mail_map`); without it the HTML goes with the map picture. On return
/// `mail` holds the text and attachments it came with (the report's files are written from them);
/// its HTML may have changed.
pub fn fit<R: Sent>(
    mail: &mut Outgoing,
    map: Option<Range<usize>>,
    cap: usize,
    names: &Names,
    render: &mut dyn FnMut(&Outgoing, usize) -> Result<R>,
) -> Result<(R, Option<Cut>)> {
    let bytes = render(mail, cap)?;
    if bytes.size() <= cap {
        return Ok((bytes, None));
    }
    let full = bytes.size();
    drop(bytes);
    let order: Vec<String> = mail.attachments.iter().map(|a| a.name.clone()).collect();
    let text = std::mem::take(&mut mail.text);
    let mut map = map;
    let mut cutting = Cutting {
        aside: Vec::new(),
        left_out: Vec::new(),
    };
    let mut last = None;
    for step in ORDER {
        if !cutting.leave_out(mail, step, map.is_some(), &text, names)? {
            continue;
        }
        let note = Note {
            full,
            cap,
            left_out: &cutting.left_out,
            names,
        };
        if step == LeftOut::TextCompressed {
            cutting.compress_pending(mail)?;
            last = Some(excerpt_that_fits(mail, &text, &note, cap, render)?);
        } else {
            note_in_html(&mut map, mail, &note);
            mail.text = format!("{}{text}", note.text());
            if least_size(mail) > cap {
                // It cannot fit yet: rendering it would only say so, at the cost of a message as
                // large as the report (four renders of 70 MB for a power that sees 13,000 units).
                continue;
            }
            cutting.compress_pending(mail)?;
            let bytes = render(mail, cap)?;
            let fits = bytes.size() <= cap;
            last = Some(bytes);
            if fits {
                break;
            }
        }
    }
    // Cut as far as it goes and still over its size: it goes so, made whole. A cut that fits is
    // rendered again to be counted when it was only bounded: the note of the cut tells its size.
    if last.as_ref().is_some_and(|l| l.size() > cap || !l.exact()) {
        last = Some(render(mail, usize::MAX)?);
    }
    // The text and attachments the mail came with, in their order.
    mail.text = text;
    let mut all: Vec<Attached> = std::mem::take(&mut mail.attachments)
        .into_iter()
        .filter(|a| order.contains(&a.name))
        .chain(cutting.aside)
        .collect();
    all.sort_by_key(|a| order.iter().position(|n| *n == a.name));
    mail.attachments = all;
    let bytes = last.context("a report mail over its size had nothing to leave out")?;
    let cut = Cut {
        full,
        sent: bytes.size(),
        cap,
        left_out: cutting.left_out,
    };
    Ok((bytes, Some(cut)))
}

/// A mail being cut: what it left out so far, the attachments set aside.
struct Cutting {
    /// The attachments taken out of the mail, as they came.
    aside: Vec<Attached>,
    left_out: Vec<LeftOut>,
}

impl Cutting {
    /// Leaves `step` out of `mail`; false when the mail has nothing of it.
    fn leave_out(
        &mut self,
        mail: &mut Outgoing,
        step: LeftOut,
        html_has_map: bool,
        text: &str,
        names: &Names,
    ) -> Result<bool> {
        let find =
            |mail: &Outgoing, f: &dyn Fn(&Attached) -> bool| mail.attachments.iter().position(f);
        match step {
            LeftOut::MapPicture => {
                let Some(i) = find(mail, &|a| a.inline.is_some()) else {
                    return Ok(false);
                };
                self.aside.push(mail.attachments.remove(i));
                if !html_has_map && mail.html.take().is_some() {
                    // A page that cannot be cut at its map would show a picture that is not there.
                    self.left_out.push(LeftOut::MapPicture);
                    self.left_out.push(LeftOut::Html);
                    return Ok(true);
                }
            }
            LeftOut::JsonCompressed => {
                let Some(i) = find(mail, &|a| a.content_type == "application/json") else {
                    return Ok(false);
                };
                let json = mail.attachments.remove(i);
                // Compressed when the mail is next rendered (`compress_pending`): a mail that must
                // still leave out more never sends it.
                mail.attachments.insert(
                    i,
                    Attached {
                        name: format!("{}.gz", json.name),
                        content_type: "application/gzip".to_string(),
                        bytes: Vec::new(),
                        inline: None,
                    },
                );
                self.aside.push(json);
            }
            LeftOut::Html => {
                if mail.html.take().is_none() {
                    return Ok(false);
                }
            }
            LeftOut::SvgMap => {
                let Some(i) = find(mail, &|a| a.content_type == "image/svg+xml") else {
                    return Ok(false);
                };
                self.aside.push(mail.attachments.remove(i));
            }
            LeftOut::Json => {
                let Some(i) = find(mail, &|a| a.name.ends_with(".json.gz")) else {
                    return Ok(false);
                };
                mail.attachments.remove(i);
            }
            LeftOut::TextCompressed => {
                mail.attachments.push(Attached {
                    name: format!("{}.txt.gz", names.attached),
                    content_type: "application/gzip".to_string(),
                    bytes: gzip(text.as_bytes())?,
                    inline: None,
                });
            }
        }
        self.left_out.push(step);
        Ok(true)
    }

    /// Compresses the JSON report of a `.json.gz` attachment not compressed yet (an empty one: no
    /// gzip file is empty), from the JSON set aside.
    fn compress_pending(&self, mail: &mut Outgoing) -> Result<()> {
        for a in mail.attachments.iter_mut() {
            let Some(json) = a.name.strip_suffix(".gz") else {
                continue;
            };
            if !a.bytes.is_empty() || !json.ends_with(".json") {
                continue;
            }
            if let Some(whole) = self.aside.iter().find(|x| x.name == json) {
                a.bytes = gzip(&whole.bytes)?;
            }
        }
        Ok(())
    }
}

/// The fewest bytes `mail` can render to: its text, HTML and attachments as they are (a transfer
/// encoding only adds to them, as do the headers).
fn least_size(mail: &Outgoing) -> usize {
    mail.text.len()
        + mail.html.as_ref().map_or(0, String::len)
        + mail
            .attachments
            .iter()
            .map(|a| a.bytes.len())
            .sum::<usize>()
}

/// The note in the mail's HTML, where its map stood.
fn note_in_html(at: &mut Option<Range<usize>>, mail: &mut Outgoing, note: &Note) {
    let (Some(html), Some(map)) = (mail.html.as_mut(), at.clone()) else {
        return;
    };
    if map.end > html.len() || !html.is_char_boundary(map.start) || !html.is_char_boundary(map.end)
    {
        return;
    }
    let shown = note.html();
    html.replace_range(map.clone(), &shown);
    *at = Some(map.start..map.start + shown.len());
}

/// The mail whose body is the note, the text's first lines and its dice header, with as many
/// first lines as fit (halved until they do, none at last).
fn excerpt_that_fits<R: Sent>(
    mail: &mut Outgoing,
    text: &str,
    note: &Note,
    cap: usize,
    render: &mut dyn FnMut(&Outgoing, usize) -> Result<R>,
) -> Result<R> {
    let dice = dice_header(text);
    let mut budget = cap;
    loop {
        mail.text = excerpt(text, dice, budget, note);
        if budget > 0 && least_size(mail) > cap {
            budget = if budget < 1024 { 0 } else { budget / 2 };
            continue;
        }
        let bytes = render(mail, cap)?;
        if bytes.size() <= cap {
            return Ok(bytes);
        }
        if budget == 0 {
            return render(mail, usize::MAX);
        }
        budget = if budget < 1024 { 0 } else { budget / 2 };
    }
}

/// The body of a mail whose text went compressed: the note, the text's first lines up to `budget`
/// bytes, the line that says where the rest is, and the dice header.
fn excerpt(text: &str, dice: &str, budget: usize, note: &Note) -> String {
    let mut head = 0;
    for line in text.split_inclusive('\n') {
        if head + line.len() > budget {
            break;
        }
        head += line.len();
    }
    format!(
        "{}{}{EXCERPT_MARK}{}.txt.gz, {} bytes whole ...]\n\n{dice}",
        note.text(),
        &text[..head],
        note.names.attached,
        grouped(text.len()),
    )
}

/// The dice header of a report's text: from its `pbem-dice/v1` (or v2) line to its `header sha256:`
/// line (`audit::verify::parse_header` reads the same lines); empty when it has none.
fn dice_header(text: &str) -> &str {
    let mut start = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end();
        if start.is_none() && matches!(bare, "pbem-dice/v1" | "pbem-dice/v2") {
            start = Some(at);
        }
        at += line.len();
        if let Some(s) = start {
            if bare.starts_with("header sha256: ") {
                return &text[s..at];
            }
        }
    }
    ""
}

/// What a cut mail tells its player.
struct Note<'a> {
    full: usize,
    cap: usize,
    left_out: &'a [LeftOut],
    names: &'a Names<'a>,
}

impl Note<'_> {
    /// One line per thing left out, for the player.
    fn lines(&self) -> Vec<String> {
        let attached = self.names.attached;
        self.left_out
            .iter()
            .map(|l| match l {
                LeftOut::MapPicture => {
                    "the map as a picture (PNG); the SVG map, when attached, is the same map".into()
                }
                LeftOut::JsonCompressed => {
                    format!("the JSON report as it is: it is attached compressed, {attached}.json.gz (gzip)")
                }
                LeftOut::Html => "the HTML report: the text is the same report".into(),
                LeftOut::SvgMap => "the SVG map".into(),
                LeftOut::Json => "the JSON report, even compressed".into(),
                LeftOut::TextCompressed => format!(
                    "most of the text below: the whole report is attached compressed, {attached}.txt.gz (gzip)"
                ),
            })
            .collect()
    }

    fn opening(&self) -> String {
        format!(
            "Whole, this mail would have been {} bytes; the referee's mail sends at most {}. Left out of it:",
            grouped(self.full),
            grouped(self.cap)
        )
    }

    fn closing(&self) -> String {
        format!(
            "Every form of this report is in the referee's game folder ({}.*): ask the referee for what you miss.",
            self.names.files
        )
    }

    /// The note that opens the text.
    fn text(&self) -> String {
        let mut out = format!("{NOTE_TITLE}\n{}\n", self.opening());
        for line in self.lines() {
            out.push_str(&format!("* {line}\n"));
        }
        out.push_str(&self.closing());
        out.push_str("\n\n");
        out
    }

    /// The note in the HTML, where the map stood.
    fn html(&self) -> String {
        let items: String = self
            .lines()
            .iter()
            .map(|l| format!("<li>{}</li>", escape(l)))
            .collect();
        format!(
            "<div style=\"border:1px solid #b71c1c;padding:8px 12px;\"><p style=\"margin:0;\"><b>This mail was cut to size.</b> {}</p><ul style=\"margin:4px 0;\">{items}</ul><p style=\"margin:0;\">{}</p></div>",
            escape(&self.opening()),
            escape(&self.closing())
        )
    }
}

/// A mail of a text and its attachments (a player's welcome) cut to size: what it left out, one
/// line each for the referee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trimmed {
    /// Its size whole, in bytes.
    pub full: usize,
    /// Its size as it goes: over `cap` when its text alone is.
    pub sent: usize,
    pub cap: usize,
    /// What it left out: "the attachment x.json (sent compressed)", "the attachment x.svg".
    pub left_out: Vec<String>,
}

impl Trimmed {
    /// As [`Cut::describe`].
    pub fn describe(&self) -> String {
        let over = if self.sent > self.cap {
            " (still over: the text always goes)"
        } else {
            ""
        };
        format!(
            "left out {}: {} bytes whole, {} sent, at most {} ([mail] max_outgoing_bytes){over}",
            self.left_out.join(", "),
            grouped(self.full),
            grouped(self.sent),
            grouped(self.cap),
        )
    }
}

/// The mail `mail`, a text and attachments, as it goes, `render` making its bytes: whole when it is
/// at most `cap` bytes, else without what does not fit, one thing after the other until it does
/// (issue 34: the welcome goes to the players as the reports do): each JSON attachment compressed
/// (`.json.gz`), then the attachments left out, the largest first. Its text, which holds what the
/// player must read (a welcome's password), always goes, opening with a note of what was left out
/// and whom to ask for it (`ask`).
pub fn fit_attachments(
    mail: &Outgoing,
    cap: usize,
    ask: &str,
    render: &mut dyn FnMut(&Outgoing) -> Result<Vec<u8>>,
) -> Result<(Vec<u8>, Option<Trimmed>)> {
    let bytes = render(mail)?;
    if bytes.len() <= cap {
        return Ok((bytes, None));
    }
    let full = bytes.len();
    drop(bytes);
    let mut cut = mail.clone();
    let mut left_out = Vec::new();
    // The steps: each JSON compressed, in the order attached; then each attachment left out, the
    // largest first (the first attached among equals).
    let mut steps: Vec<(bool, String)> = mail
        .attachments
        .iter()
        .filter(|a| a.content_type == "application/json")
        .map(|a| (true, a.name.clone()))
        .collect();
    let mut by_size: Vec<(usize, usize, String)> = mail
        .attachments
        .iter()
        .enumerate()
        .map(|(i, a)| (a.bytes.len(), i, a.name.clone()))
        .collect();
    by_size.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    steps.extend(by_size.into_iter().map(|(_, _, name)| (false, name)));
    let mut last = None;
    for (compress, name) in steps {
        // A JSON compressed above goes under its name with `.gz`.
        let gz = format!("{name}.gz");
        let Some(i) = cut
            .attachments
            .iter()
            .position(|a| a.name == name || (!compress && a.name == gz))
        else {
            continue;
        };
        if compress {
            let json = cut.attachments.remove(i);
            cut.attachments.insert(
                i,
                Attached {
                    name: format!("{}.gz", json.name),
                    content_type: "application/gzip".to_string(),
                    bytes: gzip(&json.bytes)?,
                    inline: None,
                },
            );
            left_out.push(format!(
                "the attachment {name} (sent compressed, {name}.gz)"
            ));
        } else {
            cut.attachments.remove(i);
            left_out.retain(|l| !l.starts_with(&format!("the attachment {name} ")));
            left_out.push(format!("the attachment {name}"));
        }
        let mut note = format!(
            "{NOTE_TITLE}\nWhole, this mail would have been {} bytes; the referee's mail sends at most {}. Left out of it:\n",
            grouped(full),
            grouped(cap)
        );
        for l in &left_out {
            note.push_str(&format!("* {l}\n"));
        }
        note.push_str(&format!("{ask}\n\n"));
        cut.text = format!("{note}{}", mail.text);
        let bytes = render(&cut)?;
        let fits = bytes.len() <= cap;
        last = Some(bytes);
        if fits {
            break;
        }
    }
    let bytes = last.context("a mail over its size had nothing to leave out")?;
    let trimmed = Trimmed {
        full,
        sent: bytes.len(),
        cap,
        left_out,
    };
    Ok((bytes, Some(trimmed)))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `bytes` gzip-compressed, the same bytes on any machine (no file name, no time).
pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 5),
        // The fastest level: the text and JSON of a report of 13,000 units come out 9 to 11 times
        // smaller at it, 13 to 16 at the default level, which takes two to three times as long.
        flate2::Compression::fast(),
    );
    gz.write_all(bytes)?;
    Ok(gz.finish()?)
}

/// What a gzip file holds, at most [`MAX_DECOMPRESSED`] bytes; none when it is not gzip or holds
/// more.
pub fn gunzip(bytes: &[u8]) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .take(MAX_DECOMPRESSED + 1)
        .read_to_end(&mut out)
        .ok()?;
    (out.len() as u64 <= MAX_DECOMPRESSED).then_some(out)
}

/// `1234567` as `1,234,567`.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rendering that, within the `up_to` it is made for, only bounds its size (as
    /// `Outgoing::kept_with_sources` does for a mail kept in parts): the mail is cut on that bound,
    /// and its cut tells the size counted (made again with `usize::MAX`), not the bound.
    #[test]
    fn a_cut_mail_tells_its_size_counted_not_the_bound_it_fitted_by() {
        struct Measured {
            size: usize,
            exact: bool,
        }
        impl Sent for Measured {
            fn size(&self) -> usize {
                self.size
            }
            fn exact(&self) -> bool {
                self.exact
            }
        }
        let mut mail = Outgoing {
            kind: super::super::outbox::Kind::Report,
            turn: 1,
            power: Some("france".into()),
            player: None,
            key: String::new(),
            to: vec!["f@example.org".into()],
            subject: "[g] turn 1: report for France".into(),
            text: "the report\n".into(),
            html: None,
            attachments: vec![Attached {
                name: "g-turn1-france.svg".into(),
                content_type: "image/svg+xml".into(),
                bytes: vec![b'x'; 50_000],
                inline: None,
            }],
            in_reply_to: None,
            date: chrono::DateTime::UNIX_EPOCH,
        };
        let names = Names {
            attached: "g-turn1-france",
            files: "turns/1/reports/france",
        };
        let cap = 20_000;
        let mut counted = Vec::new();
        let (sent, cut) = fit(&mut mail, None, cap, &names, &mut |m, up_to| {
            let size = least_size(m) + 100;
            let exact = up_to == usize::MAX || size > up_to;
            if exact {
                counted.push(size);
            }
            Ok(Measured {
                size: if exact { size } else { up_to },
                exact,
            })
        })
        .unwrap();
        let cut = cut.expect("the mail is cut");
        assert_eq!(cut.left_out, vec![LeftOut::SvgMap]);
        assert!(sent.exact());
        // Counted twice: whole (over its cap), then cut, once it fitted.
        assert_eq!(counted.len(), 2, "{counted:?}");
        assert_eq!((cut.full, cut.sent), (counted[0], counted[1]));
        assert!(cut.sent < cap);
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        for (n, s) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (557_650, "557,650"),
            (10_000_000, "10,000,000"),
        ] {
            assert_eq!(grouped(n), s);
        }
    }

    #[test]
    fn gzip_is_deterministic_and_gunzip_gives_the_bytes_back() {
        let json = "{\"a\": 1}\n".repeat(1000);
        let a = gzip(json.as_bytes()).unwrap();
        assert_eq!(a, gzip(json.as_bytes()).unwrap());
        assert!(a.len() < json.len() / 10);
        assert_eq!(gunzip(&a).unwrap(), json.as_bytes());
        assert_eq!(gunzip(b"not gzip"), None);
    }

    #[test]
    fn the_dice_header_is_cut_from_its_first_line_to_its_digest() {
        let text = "title\n\nTHE DICE\npbem-dice/v1\ngame: g\nseed: 00\nheader sha256: ab\nafter\n";
        assert_eq!(
            dice_header(text),
            "pbem-dice/v1\ngame: g\nseed: 00\nheader sha256: ab\n"
        );
        assert_eq!(dice_header("no header\n"), "");
    }
}
