//! The outbox: every message pbem sends (reports, acknowledgements, commitment announcements,
//! reminders, notices, the referee's summary) is first rendered into an `.eml` file under the game's
//! `mail/outbox/`, with a deterministic Message-ID and MIME boundary, so that the same turn gives
//! the same bytes and a sender can deliver each file once. What a message says is fixed here; its
//! `From`, `To` and `Date` are those known when it was made, and `pbem send` replaces them with the
//! envelope of the moment it delivers (`envelope.rs`), for the audience its `X-Pbem-To` names.

use std::path::PathBuf;

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::{Attachment, Body, Mailbox, MultiPart, SinglePart};
use lettre::Message;

use super::envelope::Audience;
use crate::game::config::GameConfig;
use crate::game::record::sha256_hex;
use crate::game::Game;

/// What a message is, which fixes its file name and Message-ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Announcement,
    Acknowledgement,
    Report,
    Reminder,
    Summary,
    /// The closing list of a turn's orders (pbem-dice/v2).
    Closing,
    /// A notice to every player: a deadline moved, a turn reopened, a new dice commitment.
    Notice,
    /// A player's welcome, with his password (`mail::welcome`): to him alone.
    Welcome,
    /// The notice to a player who left a dropped power (EiA 19.2.1, `mail::farewell`): to him alone.
    Farewell,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Announcement => "announcement",
            Kind::Acknowledgement => "ack",
            Kind::Report => "report",
            Kind::Reminder => "reminder",
            Kind::Summary => "summary",
            Kind::Closing => "closing",
            Kind::Notice => "notice",
            Kind::Welcome => "welcome",
            Kind::Farewell => "farewell",
        }
    }
}

/// A file attached to a message.
#[derive(Debug, Clone)]
pub struct Attached {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
    /// The Content-ID of a file the HTML shows (`cid:`): the report's map as PNG. Such a file goes
    /// inline, beside the HTML in a `multipart/related`, not among the attachments.
    pub inline: Option<String>,
}

/// A message waiting in the outbox.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub kind: Kind,
    pub turn: u32,
    /// The power it goes to, or none for the referee.
    pub power: Option<String>,
    /// The player of that power it goes to alone, for a power with several (`engine::command`):
    /// his own report or reminder.
    pub player: Option<String>,
    /// A short key that makes the message unique among those of its kind, power and turn (the
    /// digest of the message acknowledged, for instance); empty when there is one per kind.
    pub key: String,
    pub to: Vec<String>,
    pub subject: String,
    pub text: String,
    pub html: Option<String>,
    pub attachments: Vec<Attached>,
    /// The Message-ID this answers, without angle brackets.
    pub in_reply_to: Option<String>,
    /// A game instant, never the clock: the deadline of the turn, or the arrival of the answered mail.
    pub date: DateTime<Utc>,
}

impl Outgoing {
    /// `t0003-report-france.eml`.
    pub fn file_name(&self) -> String {
        let mut name = format!("t{:04}-{}", self.turn, self.kind.name());
        if let Some(p) = &self.power {
            name.push('-');
            name.push_str(p);
        }
        if !self.key.is_empty() {
            name.push('-');
            name.push_str(&self.key);
        }
        name + ".eml"
    }

    /// The Message-ID, without angle brackets: the same for the same message, on any machine; `tag`
    /// is the game's id with its nonce (`GameConfig::tag`), so that two games never share one, and a
    /// digest of what the message says, so that a turn resolved again after `pbem rollback` (other
    /// dice, other text) does not reuse the Message-ID of the report it replaces.
    pub fn message_id(&self, tag: &str) -> String {
        let stem = self.file_name();
        let said = {
            use sha2::{Digest, Sha256};
            let mut h = Sha256::new();
            h.update(self.subject.as_bytes());
            h.update(b"\n");
            h.update(self.text.as_bytes());
            hex::encode(h.finalize())
        };
        format!(
            "{}.{}@{}.pbem",
            stem.trim_end_matches(".eml"),
            &said[..12],
            tag.replace('#', ".")
        )
    }

    /// Who the message is for, as `pbem send` reads it from the `X-Pbem-To` header.
    pub fn audience(&self) -> Audience {
        match (&self.power, self.kind) {
            // A welcome goes to its player alone, never to a controller (it holds his password).
            (Some(p), Kind::Welcome) => Audience::Player {
                power: p.clone(),
                player: self.player.clone(),
                turn: self.turn,
            },
            // A player's own report or reminder (a power with several players,
            // `engine::command`) goes to him alone, as an answer does.
            (Some(p), _)
                if matches!(self.kind, Kind::Acknowledgement | Kind::Farewell)
                    || self.player.is_some() =>
            {
                Audience::PowerOnly {
                    power: p.clone(),
                    turn: self.turn,
                }
            }
            (Some(p), _) => Audience::Power {
                power: p.clone(),
                turn: self.turn,
            },
            (None, Kind::Summary) => Audience::Referee,
            (None, _) => Audience::AsWritten,
        }
    }

    /// Renders the message as RFC 5322 bytes.
    pub fn render(&self, game: &Game) -> Result<Vec<u8>> {
        self.render_for(&game.config)
    }

    /// As [`Outgoing::render`], from the game's configuration alone (which another thread may hold).
    pub fn render_for(&self, config: &GameConfig) -> Result<Vec<u8>> {
        let sources = Sources::default();
        let (layout, bodies) = self.laid_out(config, &sources)?;
        bodies.assemble(&layout)
    }

    /// The message as the outbox keeps it: the outbox file that holds it without the bodies
    /// `sources` names in the game folder (issue 39.3: each byte of a report written once;
    /// [`assemble`] makes the message whole again at send time), or the message whole when no body
    /// is named; with the whole message's size, counted without encoding a body, and the digest
    /// the turn's record lists ([`kept_digest`]), taken of the outbox file: a report's bodies are
    /// never encoded nor hashed at turn time.
    ///
    /// A message over `whole_up_to` bytes is only measured: its [`Kept`] holds its size alone
    /// (`mail::fit` cuts it, the bodies never encoded for it). A message kept in parts whose bound
    /// ([`Bodies::size_at_most`]) is within `whole_up_to` is not counted: its size is that bound
    /// ([`Kept::exact`] false), which tells that it fits; with `whole_up_to` `usize::MAX` (a
    /// mail that goes whatever its size, and a cut mail, whose note tells its size) it is counted.
    pub fn kept_with_sources(
        &self,
        config: &GameConfig,
        sources: &Sources,
        whole_up_to: usize,
    ) -> Result<Kept> {
        let (layout, bodies) = self.laid_out(config, sources)?;
        let named = bodies.sources.iter().any(Option::is_some);
        let bound = bodies.size_at_most(&layout);
        // Counted exactly when its bound passes `whole_up_to` (or when asked to be); a message
        // not kept in parts is made whole, its size its own.
        if named || bound > whole_up_to {
            let exact = bound > whole_up_to || whole_up_to == usize::MAX;
            let size = if exact { bodies.size(&layout)? } else { bound };
            if size > whole_up_to {
                return Ok(Kept {
                    size,
                    exact,
                    digest: String::new(),
                    file: Vec::new(),
                });
            }
            if let Some(parts) = bodies.parts(&layout)? {
                return Ok(Kept {
                    size,
                    exact,
                    digest: kept_digest(&parts),
                    file: parts,
                });
            }
        }
        let whole = bodies.assemble(&layout)?;
        Ok(Kept {
            size: whole.len(),
            exact: true,
            digest: kept_digest(&whole),
            file: whole,
        })
    }

    /// The message laid out around a marker of each body, and its bodies.
    fn laid_out<'a>(
        &'a self,
        config: &GameConfig,
        sources: &'a Sources,
    ) -> Result<(Vec<u8>, Bodies<'a>)> {
        let from: Mailbox = config.mail_from().parse().with_context(|| {
            format!(
                "the referee address '{}' is not an address",
                config.mail_from()
            )
        })?;
        let tag = config.tag();
        let id = self.message_id(&tag);
        // The subject's `[game]` tag names the game with its nonce.
        let plain = format!("[{}]", config.game);
        let subject = match self.subject.strip_prefix(&plain) {
            Some(rest) if tag != config.game => format!("[{tag}]{rest}"),
            _ => self.subject.clone(),
        };
        let mut b = Message::builder()
            .from(from)
            .subject(subject)
            .date(self.date.into())
            .message_id(Some(format!("<{id}>")))
            .user_agent(format!("pbem {}", env!("CARGO_PKG_VERSION")));
        for to in &self.to {
            b = b.to(to
                .parse()
                .with_context(|| format!("'{to}' is not an e-mail address"))?);
        }
        if let Some(h) = self.audience().lettre_header() {
            b = b.raw_header(h);
        }
        if let Some(r) = &self.in_reply_to {
            b = b.in_reply_to(format!("<{r}>")).references(format!("<{r}>"));
        }
        let digest = sha256_hex(id.as_bytes());
        let boundary = |n: &str| format!("pbem-{}-{n}", &digest[..24]);
        let mut bodies = Bodies::new(&digest[24..48]);
        let text = SinglePart::builder()
            .header(ContentType::TEXT_PLAIN)
            .body(bodies.put_from(
                body(&self.text),
                sources.text.as_deref().map(|file| Part::Whole {
                    text: true,
                    file,
                    bytes: self.text.as_bytes(),
                    digest: sources.digests.get(file).map(String::as_str),
                }),
            ));
        let message = if self.html.is_none() && self.attachments.is_empty() {
            b.singlepart(text)?
        } else {
            let body = match &self.html {
                Some(html) => {
                    let html = SinglePart::builder()
                        .header(ContentType::TEXT_HTML)
                        .body(bodies.put_from(body(html), html_part(html, sources)));
                    let alternative = MultiPart::alternative()
                        .boundary(boundary("alt"))
                        .singlepart(text);
                    let shown: Vec<&Attached> = self
                        .attachments
                        .iter()
                        .filter(|a| a.inline.is_some())
                        .collect();
                    if shown.is_empty() {
                        alternative.singlepart(html)
                    } else {
                        // The HTML and the images it shows (RFC 2387), as every mail client
                        // displays them: the images inline, by Content-ID.
                        let mut related = MultiPart::related()
                            .boundary(boundary("related"))
                            .singlepart(html);
                        for a in shown {
                            let ct = ContentType::parse(&a.content_type)
                                .with_context(|| format!("bad content type {}", a.content_type))?;
                            let id = a.inline.clone().unwrap_or_default();
                            related = related
                                .singlepart(Attachment::new_inline(id).body(a.bytes.clone(), ct));
                        }
                        alternative.multipart(related)
                    }
                }
                None => MultiPart::mixed()
                    .boundary(boundary("text"))
                    .singlepart(text),
            };
            let mut mixed = MultiPart::mixed()
                .boundary(boundary("mixed"))
                .multipart(body);
            for a in self
                .attachments
                .iter()
                .filter(|a| a.inline.is_none() || self.html.is_none())
            {
                let ct = ContentType::parse(&a.content_type)
                    .with_context(|| format!("bad content type {}", a.content_type))?;
                let source = sources.attachments.get(&a.name).map(|file| Part::Whole {
                    text: false,
                    file,
                    bytes: &a.bytes,
                    digest: sources.digests.get(file).map(String::as_str),
                });
                let body = bodies.put_from(attachment(&a.bytes), source);
                mixed = mixed.singlepart(Attachment::new(a.name.clone()).body(body, ct));
            }
            b.multipart(mixed)?
        };
        Ok((message.formatted(), bodies))
    }
}

/// A message as the outbox keeps it ([`Outgoing::kept_with_sources`]), or its size alone.
#[derive(Debug)]
pub struct Kept {
    /// The size of the message whole, as it is sent; when not [`Kept::exact`], at least that
    /// (and within what it was made for).
    pub size: usize,
    /// Whether `size` was counted, not bounded.
    pub exact: bool,
    /// The digest the turn's record lists of the outbox file ([`kept_digest`]).
    pub digest: String,
    /// The outbox file: the message without the bodies the game folder holds, or the message.
    pub file: Vec<u8>,
}

/// Where bodies of a message are in the game folder, byte for byte: its text, and its attachments
/// by name, and its HTML but for its map (the report's files, issue 39.3).
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// The file (relative to the game folder) that holds the text body.
    pub text: Option<String>,
    /// The file that holds the HTML body but for its map.
    pub html: Option<HtmlSource>,
    /// By attachment name, the file that holds its bytes.
    pub attachments: std::collections::BTreeMap<String, String>,
    /// The SHA-256 of files above, by file, where the caller has it already (it lists them in the
    /// turn's record): each report byte hashed once for both.
    pub digests: std::collections::BTreeMap<String, String>,
}

/// The HTML report's file, which the mail's HTML is but for its map block (`report::Rendered`).
#[derive(Debug, Clone)]
pub struct HtmlSource {
    pub file: String,
    /// The file's size and SHA-256.
    pub size: usize,
    pub sha256: String,
    /// Where the map block stands in the file, and in the mail's HTML.
    pub file_map: std::ops::Range<usize>,
    pub mail_map: std::ops::Range<usize>,
}

/// A body a file of the game folder holds.
#[derive(Debug, Clone)]
enum Part<'a> {
    /// The file's bytes are the body: a text (made as [`body`]) or an attachment's (as
    /// [`attachment`]).
    Whole {
        text: bool,
        file: &'a str,
        bytes: &'a [u8],
        /// The bytes' SHA-256, when [`Sources::digests`] has it.
        digest: Option<&'a str>,
    },
    /// The body is the file's text with `range` replaced by `literal` (the mail's HTML, whose map
    /// differs from the file's).
    Splice {
        source: &'a HtmlSource,
        literal: &'a str,
    },
}

impl Part<'_> {
    /// Its line in the outbox file.
    fn line(&self) -> String {
        match self {
            Part::Whole {
                text,
                file,
                bytes,
                digest,
            } => {
                debug_assert!(digest.is_none_or(|d| d == sha256_hex(bytes)));
                format!(
                    "part {} {} {} {file}\n",
                    if *text { "text" } else { "bytes" },
                    bytes.len(),
                    digest.map_or_else(|| sha256_hex(bytes), str::to_string)
                )
            }
            Part::Splice { source: h, literal } => format!(
                "part splice {} {} {} {} {} {}\n",
                h.size,
                h.sha256,
                h.file_map.start,
                h.file_map.end,
                hex::encode(literal.as_bytes()),
                h.file
            ),
        }
    }
}

/// The mail's HTML `html` as its file with the mail's map in the place of the file's, when
/// `sources` names that file and the mail's map block stands where it says.
fn html_part<'a>(html: &'a str, sources: &'a Sources) -> Option<Part<'a>> {
    let h = sources.html.as_ref()?;
    let map = h.mail_map.clone();
    let literal = html.get(map)?;
    let rest = html.len() - literal.len();
    (rest + h.file_map.len() == h.size).then_some(Part::Splice { source: h, literal })
}

/// The first line of an outbox file that holds a message without the bodies it names in the game
/// folder: then a line for each (`part text|bytes <size> <sha256> <file>`, or `part splice <size>
/// <sha256> <start> <end> <hex> <file>`: the file's text with bytes start..end replaced), a line
/// `layout <size>` and the message with a marker `\0pbem-part-<n>\0` where each goes.
pub const PARTS_FORMAT: &str = "pbem-outbox-parts/v1";

/// Whether an outbox file holds a message without its bodies ([`PARTS_FORMAT`]).
pub fn is_parts(bytes: &[u8]) -> bool {
    bytes.starts_with(PARTS_FORMAT.as_bytes()) && bytes.get(PARTS_FORMAT.len()) == Some(&b'\n')
}

/// The digest the turn's record lists of an outbox file, the one definition `resolve`, `send` and
/// `audit` share. For a message kept whole (a welcome, an answer, an announcement, a cut mail
/// without parts): the digest of what it says, its envelope left out (`envelope::content_digest`).
/// For a message kept in parts ([`PARTS_FORMAT`], a report's mail), the digest of the file as the
/// outbox keeps it (issue 39.3): its part lines, each naming the SHA-256 of the file that holds a
/// body (so it binds every byte of the message), then its layout as `content_digest` takes a
/// message, the envelope left out (the `layout` line's size too, which `To:` changes): a
/// message re-addressed keeps its digest, and the turn never encodes nor hashes a report's bodies
/// a second time to list it. A record written before issue 39.3 lists `content_digest` of the
/// message made whole: `send` and `audit` accept that too, when this one does not match.
pub fn kept_digest(file: &[u8]) -> String {
    use sha2::Digest;
    let Some((lines, layout)) = split_parts(file) else {
        return super::envelope::content_digest(file);
    };
    let mut digest = sha2::Sha256::new();
    digest.update(lines);
    digest.update(b"layout\n");
    for piece in super::envelope::content_pieces(layout) {
        digest.update(piece);
    }
    hex::encode(digest.finalize())
}

/// An outbox file of [`PARTS_FORMAT`] split into its lines before the layout (the format's and
/// each part's, up to the `layout` line) and its layout; none for a message kept whole, or a file
/// cut short.
fn split_parts(file: &[u8]) -> Option<(&[u8], &[u8])> {
    if !is_parts(file) {
        return None;
    }
    let mut at = 0;
    loop {
        let end = at + memchr::memchr(b'\n', &file[at..])?;
        let line = &file[at..end];
        if let Some(size) = line.strip_prefix(b"layout ") {
            let layout = &file[end + 1..];
            let size: usize = std::str::from_utf8(size).ok()?.parse().ok()?;
            return (layout.len() == size).then_some((&file[..at], layout));
        }
        at = end + 1;
    }
}

/// The bytes of `name` under `root`, which must still be `size` bytes of SHA-256 `sha`.
fn read_part(root: &std::path::Path, name: &str, size: &str, sha: &str) -> Result<Vec<u8>> {
    anyhow::ensure!(
        !name.starts_with('/') && !name.split('/').any(|c| c == ".." || c.is_empty()),
        "an outbox file names a file outside the game folder: {name}"
    );
    let bytes = std::fs::read(root.join(name))
        .with_context(|| format!("cannot read {name}, a part of a message of the outbox"))?;
    anyhow::ensure!(
        bytes.len().to_string() == size && sha256_hex(&bytes) == sha,
        "{name} was changed after its message was made: the message of the outbox that holds it cannot be sent as it was made"
    );
    Ok(bytes)
}

/// The message an outbox file in [`PARTS_FORMAT`] holds, whole: each body read from its file under
/// `root` (the game folder), which must still hold the very bytes (size and SHA-256), and encoded
/// as when the message was made.
pub fn assemble(root: &std::path::Path, file: &[u8]) -> Result<Vec<u8>> {
    let mut rest = file
        .strip_prefix(PARTS_FORMAT.as_bytes())
        .and_then(|r| r.strip_prefix(b"\n"))
        .context("not an outbox file of parts")?;
    // Each part: its bytes, and whether they are a text.
    let mut parts: Vec<(Vec<u8>, bool)> = Vec::new();
    let layout = loop {
        let end = memchr::memchr(b'\n', rest).context("an outbox file of parts is cut short")?;
        let line = std::str::from_utf8(&rest[..end]).context("a bad line in an outbox file")?;
        rest = &rest[end + 1..];
        let words: Vec<&str> = line.split(' ').collect();
        match words[..] {
            ["layout", size] => {
                let size: usize = size.parse().context("a bad layout size")?;
                anyhow::ensure!(
                    rest.len() == size,
                    "the file does not hold the {size} bytes of layout it announces: it was changed or cut short"
                );
                break rest;
            }
            ["part", kind @ ("text" | "bytes"), size, sha, name] => {
                parts.push((read_part(root, name, size, sha)?, kind == "text"));
            }
            ["part", "splice", size, sha, start, end, literal, name] => {
                let bytes = read_part(root, name, size, sha)?;
                let (start, end) = (start.parse::<usize>()?, end.parse::<usize>()?);
                let literal = hex::decode(literal).context("a bad splice in an outbox file")?;
                anyhow::ensure!(
                    start <= end && end <= bytes.len(),
                    "a bad splice in an outbox file"
                );
                let spliced = [&bytes[..start], &literal, &bytes[end..]].concat();
                parts.push((spliced, true));
            }
            _ => anyhow::bail!("a bad line in an outbox file: {line}"),
        }
    };
    let mut texts = Vec::with_capacity(parts.len());
    for (bytes, text) in &parts {
        texts.push(match text {
            true => {
                Some(std::str::from_utf8(bytes).context("a text part of a message is not UTF-8")?)
            }
            false => None,
        });
    }
    let wires: Vec<Wire> = parts
        .iter()
        .zip(&texts)
        .map(|((bytes, _), text)| match text {
            Some(t) => body(t),
            None => attachment(bytes),
        })
        .collect();
    let mut out =
        Vec::with_capacity(layout.len() + parts.iter().map(|p| p.0.len() * 11 / 10).sum::<usize>());
    let mut rest = layout;
    let prefix = b"\0pbem-part-";
    let mut written = vec![false; wires.len()];
    while let Some(at) = memchr::memmem::find(rest, prefix) {
        out.extend_from_slice(&rest[..at]);
        let after = &rest[at + prefix.len()..];
        let end = memchr::memchr(0, after).context("a part's marker has no end")?;
        let n = marked(after, &written)?;
        wires[n].write_into(&mut out)?;
        written[n] = true;
        rest = &after[end + 1..];
    }
    anyhow::ensure!(
        written.iter().all(|&w| w),
        "a part of a message was not laid out"
    );
    out.extend_from_slice(rest);
    Ok(out)
}

/// The number of the body (or part) whose marker `after` continues (what follows a marker's
/// prefix, up to its NUL), when it is one of `written` not yet laid out.
fn marked(after: &[u8], written: &[bool]) -> Result<usize> {
    let end = memchr::memchr(0, after).context("a body's marker has no end")?;
    std::str::from_utf8(&after[..end])
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n < written.len() && !written[n])
        .context("a body of a message was laid out twice")
}

/// A body as it goes into a message: its transfer encoding and its bytes.
#[derive(Debug)]
enum Wire<'a> {
    /// A text that travels 7bit, with CRLF line breaks (the bytes it comes to, with them).
    Crlf(&'a str, usize),
    /// Bytes ready to travel: an attachment as it is (7bit), or its quoted-printable.
    Ready(std::borrow::Cow<'a, [u8]>, ContentTransferEncoding),
    /// Bytes to travel quoted-printable, encoded as the message is put together (at most so
    /// many bytes).
    Quoted(&'a [u8], usize),
    /// A body lettre encodes.
    Lettre(Body),
}

impl Wire<'_> {
    /// Writes the bytes that travel (a body lettre encodes is in lettre's layout, never here).
    fn write_into(&self, out: &mut Vec<u8>) -> Result<()> {
        self.write_to(out)
    }

    /// Hands the bytes that travel to `out`, piece by piece.
    fn write_to(&self, out: &mut impl super::quoted::Sink) -> Result<()> {
        match self {
            Wire::Crlf(text, _) => push_crlf(text, out),
            Wire::Ready(bytes, _) => out.extend_from_slice(bytes),
            Wire::Quoted(bytes, _) => super::quoted::encode_binary_to(bytes, out),
            Wire::Lettre(_) => anyhow::bail!("a body lettre encodes has no marker"),
        }
        Ok(())
    }

    fn encoding(&self) -> ContentTransferEncoding {
        match self {
            Wire::Crlf(..) => ContentTransferEncoding::SevenBit,
            Wire::Ready(_, encoding) => *encoding,
            Wire::Quoted(..) => ContentTransferEncoding::QuotedPrintable,
            Wire::Lettre(body) => body.encoding(),
        }
    }

    /// The bytes that travel.
    #[cfg(test)]
    fn into_vec(self) -> Vec<u8> {
        match self {
            Wire::Crlf(text, len) => {
                let mut out = Vec::with_capacity(len);
                push_crlf(text, &mut out);
                out
            }
            Wire::Ready(bytes, _) => bytes.into_owned(),
            Wire::Quoted(bytes, _) => super::quoted::encode_binary(bytes),
            Wire::Lettre(body) => body.into_vec(),
        }
    }
}

/// The bodies of a message, written where lettre laid out the message around a marker of each:
/// lettre writes the headers and the parts' frames (a few kilobytes), and each body is written
/// once, into a message sized at once. Given the bodies themselves, lettre copied each into its
/// part and the parts into a message it grew by doubling: a report's mail of 70 MB held three
/// times that while it was made, and its copies were a tenth of a small turn's time.
struct Bodies<'a> {
    /// The marker of each body put, but for its number: `\0pbem-body-<tag>-`.
    prefix: String,
    wires: Vec<Wire<'a>>,
    /// For each body, the file of the game folder that holds it, when one does: its kind, the
    /// file and the bytes it holds.
    sources: Vec<Option<Part<'a>>>,
}

impl<'a> Bodies<'a> {
    /// `tag`: hex digits of the message's own, which no header holds.
    fn new(tag: &str) -> Bodies<'a> {
        Bodies {
            prefix: format!("\0pbem-body-{tag}-"),
            wires: Vec::new(),
            sources: Vec::new(),
        }
    }

    /// The body lettre lays out for `wire`: its marker, or lettre's own body.
    #[cfg(test)]
    fn put(&mut self, wire: Wire<'a>) -> Body {
        self.put_from(wire, None)
    }

    /// As [`Bodies::put`], for a body that `source` holds in the game folder.
    fn put_from(&mut self, wire: Wire<'a>, source: Option<Part<'a>>) -> Body {
        if let Wire::Lettre(body) = wire {
            return body;
        }
        let encoding = wire.encoding();
        let marker = format!("{}{}\0", self.prefix, self.wires.len());
        self.wires.push(wire);
        self.sources.push(source);
        Body::dangerous_pre_encoded(marker.into_bytes(), encoding)
    }

    /// The outbox file of [`PARTS_FORMAT`] for `layout`: the bodies with a source named, the others
    /// written in; none when no body has a source.
    fn parts(&self, layout: &[u8]) -> Result<Option<Vec<u8>>> {
        if self.sources.iter().all(Option::is_none) {
            return Ok(None);
        }
        let mut head = format!("{PARTS_FORMAT}\n");
        let mut numbers = vec![None; self.wires.len()];
        let mut named = 0;
        for (i, source) in self.sources.iter().enumerate() {
            if let Some(part) = source {
                head.push_str(&part.line());
                numbers[i] = Some(named);
                named += 1;
            }
        }
        let mut body = Vec::with_capacity(layout.len());
        let mut rest = layout;
        let prefix = self.prefix.as_bytes();
        while let Some(at) = memchr::memmem::find(rest, prefix) {
            body.extend_from_slice(&rest[..at]);
            let after = &rest[at + prefix.len()..];
            let end = memchr::memchr(0, after).context("a body's marker has no end")?;
            let n = std::str::from_utf8(&after[..end])
                .ok()
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n < self.wires.len())
                .context("a body of a message was laid out twice")?;
            match numbers[n] {
                Some(k) => body.extend_from_slice(format!("\0pbem-part-{k}\0").as_bytes()),
                None => self.wires[n].write_into(&mut body)?,
            }
            rest = &after[end + 1..];
        }
        body.extend_from_slice(rest);
        let mut out = head.into_bytes();
        out.extend_from_slice(format!("layout {}\n", body.len()).as_bytes());
        out.extend_from_slice(&body);
        Ok(Some(out))
    }

    /// The size of what [`Bodies::assemble`] would make of `layout`, counted without making it.
    fn size(&self, layout: &[u8]) -> Result<usize> {
        let prefix = self.prefix.as_bytes();
        let mut size = layout.len();
        let mut written = vec![false; self.wires.len()];
        for at in memchr::memmem::find_iter(layout, prefix) {
            let after = &layout[at + prefix.len()..];
            let end = memchr::memchr(0, after).context("a body's marker has no end")?;
            let n = marked(after, &written)?;
            written[n] = true;
            size -= prefix.len() + end + 1;
            size += match &self.wires[n] {
                Wire::Crlf(_, len) => *len,
                Wire::Ready(bytes, _) => bytes.len(),
                Wire::Quoted(bytes, _) => super::quoted::encoded_len(bytes),
                Wire::Lettre(_) => anyhow::bail!("a body lettre encodes has no marker"),
            };
        }
        anyhow::ensure!(
            written.iter().all(|&w| w),
            "a body of a message was not laid out"
        );
        Ok(size)
    }

    /// At least the size of what [`Bodies::assemble`] would make of `layout`, from what each body
    /// knows of its size without a pass over it (a quoted-printable body its bound).
    fn size_at_most(&self, layout: &[u8]) -> usize {
        layout.len()
            + self
                .wires
                .iter()
                .map(|w| match w {
                    Wire::Crlf(_, len) | Wire::Quoted(_, len) => *len,
                    Wire::Ready(bytes, _) => bytes.len(),
                    Wire::Lettre(_) => 0,
                })
                .sum::<usize>()
    }

    /// The message: `layout` with each marker replaced by its body.
    fn assemble(self, layout: &[u8]) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.size_at_most(layout));
        self.lay_out(layout, &mut out)?;
        Ok(out)
    }

    /// Hands `layout` to `out` with each marker replaced by its body: each body laid out once.
    fn lay_out(&self, layout: &[u8], out: &mut impl super::quoted::Sink) -> Result<()> {
        let mut rest = layout;
        let mut written = vec![false; self.wires.len()];
        let prefix = self.prefix.as_bytes();
        while let Some(at) = memchr::memmem::find(rest, prefix) {
            out.extend_from_slice(&rest[..at]);
            let after = &rest[at + prefix.len()..];
            let end = memchr::memchr(0, after).context("a body's marker has no end")?;
            let n = marked(after, &written)?;
            self.wires[n].write_to(out)?;
            written[n] = true;
            rest = &after[end + 1..];
        }
        anyhow::ensure!(
            written.iter().all(|&w| w),
            "a body of a message was not laid out"
        );
        out.extend_from_slice(rest);
        Ok(())
    }
}

/// A text body (a report's text or HTML, an answer): 7bit, its lines ending in CRLF, when it may
/// travel so (ASCII without NUL or lone CR, no line over 998 bytes: RFC 5322 2.1.1), which costs no
/// encoding and no byte more; else as lettre 0.11 makes it from a `String` (quoted-printable unless
/// more than a third of the bytes need escaping, then base64), in linear time: lettre turns LF into
/// CRLF by inserting each `\r` into the string (quadratic in the size of a report).
fn body(text: &str) -> Wire<'_> {
    if let Some(len) = crlf_7bit_len(text) {
        return Wire::Crlf(text, len);
    }
    let wire = crlf(text);
    match lettre_encoding(text) {
        encoding @ ContentTransferEncoding::SevenBit => {
            Wire::Ready(wire.into_bytes().into(), encoding)
        }
        // Always accepted for text; lettre's own CRLF pass then finds nothing to insert.
        encoding => Wire::Lettre(
            Body::new_with_encoding(wire, encoding)
                .expect("lettre takes quoted-printable and base64 for any text"),
        ),
    }
}

/// An attachment's body, which a mail reader decodes to the attachment's very bytes (the player's
/// `pbem verify` and his copy of the map are the files, byte for byte): 7bit when the bytes may
/// travel as they are ([`travels_as_is`]); else quoted-printable of the bytes as binary (RFC 2045
/// 6.7: each LF is the octet `=0A`, so it decodes to an LF, where the line breaks of a text body
/// decode to CRLF), which costs a report's JSON or SVG a tenth to a fifth more, or base64 (a third
/// more) when that is shorter, as for bytes that are mostly not printable ASCII.
fn attachment(bytes: &[u8]) -> Wire<'_> {
    if travels_as_is(bytes) {
        return Wire::Ready(bytes.into(), ContentTransferEncoding::SevenBit);
    }
    // Base64 as lettre writes it: 4 bytes for 3, in lines of 76 and a CRLF.
    let base64 = bytes.len().div_ceil(3) * 4;
    let base64 = base64 + base64.div_ceil(76) * 2;
    // Text (a JSON or an SVG) is surely shorter quoted: encoded as the message is put together.
    let at_most = super::quoted::encoded_len_at_most(bytes);
    if at_most <= base64 {
        return Wire::Quoted(bytes, at_most);
    }
    let quoted = super::quoted::encode_binary(bytes);
    if quoted.len() <= base64 {
        Wire::Ready(quoted.into(), ContentTransferEncoding::QuotedPrintable)
    } else {
        Wire::Lettre(
            Body::new_with_encoding(bytes.to_vec(), ContentTransferEncoding::Base64)
                .expect("lettre takes base64 for any bytes"),
        )
    }
}

/// Whether bytes may go into a mail as they are (RFC 5322 2.1.1, RFC 2045 2.7): ASCII without NUL,
/// every line break a CRLF already (a lone LF would reach the reader as CRLF), no line over 998
/// bytes.
fn travels_as_is(bytes: &[u8]) -> bool {
    // Bytes on the line so far, its CR included.
    let mut line = 0;
    let mut after_cr = false;
    for &b in bytes {
        match b {
            0 | 0x80..=0xff => return false,
            b'\n' if !after_cr || line > 999 => return false,
            b'\n' => line = 0,
            _ if after_cr => return false,
            // A line of 999 bytes or more, without its CR, goes no further.
            _ if line == 999 => return false,
            _ => line += 1,
        }
        after_cr = b == b'\r';
    }
    !after_cr && line <= 998
}

/// The length of the text with CRLF line breaks ([`crlf`]) when they may travel as they are
/// ([`travels_as_is`]). A report's text and HTML (hundreds of kilobytes, every power, every turn)
/// are judged in one pass of blocks of [`BLOCK`] bytes, without a branch for each byte (so that it
/// runs on vectors): each byte ASCII but NUL, no CR, and never more than two blocks in a row
/// without an LF, so that no line is longer than four blocks; the length is then the text's with a
/// CR for each LF. A text with a CR, or longer lines, is judged line by line
/// ([`crlf_7bit_len_by_lines`]).
fn crlf_7bit_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut lfs = 0;
    // Blocks in a row without an LF, up to this one.
    let mut without = 0;
    for block in bytes.chunks(BLOCK) {
        let (bad, lf) = judged(block);
        without = if lf == 0 { without + 1 } else { 0 };
        if bad || without > 2 {
            return crlf_7bit_len_by_lines(text);
        }
        lfs += lf;
    }
    Some(bytes.len() + lfs)
}

/// The bytes of a block of [`crlf_7bit_len`]: at most 255 (its LFs are counted in a byte), and at
/// most 250, so that a line between LFs with two blocks without one between them (`4 * 248 - 2`
/// bytes at most), before the first LF or after the last is at most 998 bytes.
const BLOCK: usize = 248;

/// Whether `block` holds a byte that stops the fast judgement of [`crlf_7bit_len`] (NUL, a CR, a
/// byte beyond ASCII), and how many LFs it holds.
fn judged(block: &[u8]) -> (bool, usize) {
    let (mut bad, mut lf) = (0u8, 0u8);
    for &b in block {
        bad |= u8::from(b.wrapping_sub(1) >= 0x7f) | u8::from(b == b'\r');
        lf += u8::from(b == b'\n');
    }
    (bad != 0, usize::from(lf))
}

/// [`crlf_7bit_len`] judged line by line: ASCII without NUL, every CR the first half of a CRLF,
/// no line over 998 bytes but for its CR (CR and LF found by `memchr`).
fn crlf_7bit_len_by_lines(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    // ASCII without NUL, and every CR the first half of a CRLF.
    let plain = bytes
        .iter()
        .fold(true, |ok, &b| ok & (b.wrapping_sub(1) < 0x7f));
    if !plain || memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n')) {
        return None;
    }
    let mut len = 0;
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes) {
        // A CRLF already there is kept; a lone LF gets its CR.
        let line = &bytes[start..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > 998 {
            return None;
        }
        len += line.len() + 2;
        start = end + 1;
    }
    let last = bytes.len() - start;
    (last <= 998).then_some(len + last)
}

/// Writes `text` with CRLF line breaks: a CRLF already there is kept, a lone LF gets its CR.
fn push_crlf(text: &str, out: &mut impl super::quoted::Sink) {
    let bytes = text.as_bytes();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes) {
        let line = &bytes[start..end];
        out.extend_from_slice(line.strip_suffix(b"\r").unwrap_or(line));
        out.extend_from_slice(b"\r\n");
        start = end + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// The text with CRLF line breaks (a lone LF gets a CR before it).
fn crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut lines = text.split('\n');
    out.push_str(lines.next().unwrap_or_default());
    for line in lines {
        if !out.ends_with('\r') {
            out.push('\r');
        }
        out.push('\n');
        out.push_str(line);
    }
    out
}

/// The transfer encoding lettre 0.11's `Body::new` picks for a `String` (`email-encoding` 0.4,
/// `Encoding::choose` without UTF-8), judged, as lettre judges it, on the text before its CRLF pass:
/// 7bit for ASCII with no line of 76 bytes or more, else quoted-printable unless more than a third
/// of the bytes need escaping, else base64.
fn lettre_encoding(text: &str) -> ContentTransferEncoding {
    let b = text.as_bytes();
    let mut last = 0;
    let too_long = b
        .iter()
        .enumerate()
        .filter(|(_, &c)| c == b'\n')
        .any(|(i, _)| {
            let before = std::mem::replace(&mut last, i);
            i - before >= 76
        })
        || b.len() - last >= 76;
    if text.is_ascii() && !too_long {
        return ContentTransferEncoding::SevenBit;
    }
    let escaped = b
        .iter()
        .filter(|&&c| !matches!(c, b'\t' | b' '..=b'~'))
        .count();
    if escaped <= b.len() / 3 {
        ContentTransferEncoding::QuotedPrintable
    } else {
        ContentTransferEncoding::Base64
    }
}

/// The outbox folder of a game.
pub fn dir(game: &Game) -> PathBuf {
    game.dir.join("mail").join("outbox")
}

/// The path a message has in the outbox.
pub fn path_of(game: &Game, msg: &Outgoing) -> PathBuf {
    dir(game).join(msg.file_name())
}

/// The commitment announcement of turn `turn` for each power (pbem-dice/v1: published before orders
/// for the turn are due); `state` is the state of that turn, which says who is due to play it.
pub fn announcements(
    game: &Game,
    turn: u32,
    commitment: &str,
    state: &crate::game::state::State,
) -> Result<Vec<Outgoing>> {
    let date = game_instant(game, turn.saturating_sub(1).max(game.config.first_turn));
    let deadline = game.config.deadline_shown(turn);
    // pbem-dice/v2 with a beacon: the round the turn will draw, named before the deadline.
    let beacon_round = match game.config.dice.beacon {
        Some(_) => {
            crate::dice::beacon::round_of(game, turn).map_or(String::new(), |r| r.to_string())
        }
        None => String::new(),
    };
    // The scheme fixed with the commitment (issue 31): the turn is resolved under it alone.
    let scheme = crate::game::scheme::of_commitment(game, turn, commitment)?;
    // The rules fixed with it (`game::rules_fixed`), which every report of the turn names.
    let rules = crate::game::scheme::rules_digest(game, turn, commitment).unwrap_or_default();
    // Whether the rules include tactical maps (GITM 5): a player of another game is told of none.
    let tactical = !crate::game::rules_fixed::tactical_files(&game.dir).is_empty();
    // Whether it names the opening position and who gives entropy among the parts fixed: since
    // reports wording 2 (`record::REPORTS_WORDING`), when pbem fixed them; a turn resolved before
    // is told again by `audit` in its own words.
    let whole = game.config.reports_wording() >= 2;
    let mut out = Vec::new();
    for p in &game.config.powers {
        let context = minijinja::context! {
            game => game.config.game, title => game.config.title, turn => turn, date => game.config.date_of(turn),
            power => p.name, deadline => deadline, commitment => commitment,
            due => game.ruleset.expects_orders(state, &p.id),
            beacon => beacon_round, scheme => scheme, rules => rules,
            texts => crate::report::header::TEXTS, tactical => tactical, whole => whole,
        };
        let text = crate::report::templates::render(game, "announcement.txt", &context)?;
        out.push(Outgoing {
            kind: Kind::Announcement,
            player: None,
            turn,
            power: Some(p.id.clone()),
            key: String::new(),
            to: p.addresses_at(turn),
            subject: format!(
                "[{}] turn {turn}: dice commitment, orders due {deadline}",
                game.config.game
            ),
            text,
            html: None,
            attachments: Vec::new(),
            in_reply_to: None,
            date,
        });
    }
    Ok(out)
}

/// A notice to every power about turn `turn` (a deadline moved, a turn reopened, a fresh dice
/// commitment): `headline` first, then the turn's announcement as every player got it, with the
/// deadline and the commitment as they are now. `key` makes each notice's file unique.
pub fn notices(
    game: &Game,
    turn: u32,
    commitment: &str,
    state: &crate::game::state::State,
    key: &str,
    headline: &str,
) -> Result<Vec<Outgoing>> {
    let mut out = announcements(game, turn, commitment, state)?;
    for m in &mut out {
        m.kind = Kind::Notice;
        m.key = key.to_string();
        m.subject = format!("[{}] turn {turn}: {headline}", game.config.game);
        m.text = format!("{headline}\n\n{}", m.text);
    }
    Ok(out)
}

/// Notes that messages of these names are about to be written into the outbox, in this order: the
/// order they go in (`outbox_store::note`).
pub fn note_written(game: &Game, names: &[String]) -> Result<()> {
    super::outbox_store::note(&dir(game), names)
}

/// Writes messages into the outbox, in order.
pub fn write_all(game: &Game, messages: &[Outgoing]) -> Result<()> {
    let names: Vec<String> = messages.iter().map(Outgoing::file_name).collect();
    note_written(game, &names)?;
    for m in messages {
        crate::game::fsio::write_atomic(&path_of(game, m), &m.render(game)?)?;
    }
    Ok(())
}

/// A fixed instant of the game's calendar for dating messages: the deadline of `turn` in UTC, or the
/// Unix epoch when the game has no valid deadline.
pub fn game_instant(game: &Game, turn: u32) -> DateTime<Utc> {
    game.config
        .deadline_of(turn)
        .map_or(DateTime::UNIX_EPOCH, |d| d.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text with CRLF line breaks when they may travel as they are.
    fn crlf_if_7bit(text: &str) -> Option<Vec<u8>> {
        crlf_7bit_len(text).map(|len| Wire::Crlf(text, len).into_vec())
    }

    /// The bodies of a test message: HTML that lettre encodes (not ASCII), a JSON long enough to be
    /// surely shorter quoted, an SVG that travels as it is, bytes that go in base64.
    struct Sample {
        html: String,
        json: Vec<u8>,
        svg: Vec<u8>,
        bin: Vec<u8>,
    }

    /// A message of nested multiparts with a part of each kind, its bodies made by `body`.
    fn sample_message<'d>(d: &'d Sample, mut body: impl FnMut(Wire<'d>) -> Body) -> Vec<u8> {
        let part = |ct: ContentType, b: Body| SinglePart::builder().header(ct).body(b);
        let ct = |t: &str| ContentType::parse(t).unwrap();
        let text = part(
            ContentType::TEXT_PLAIN,
            body(super::body("Report\nline two\n")),
        );
        let html = part(ContentType::TEXT_HTML, body(super::body(&d.html)));
        let png = Attachment::new_inline("map@pbem".into()).body(d.bin.clone(), ct("image/png"));
        let alternative = MultiPart::alternative()
            .boundary("alt")
            .singlepart(text)
            .multipart(
                MultiPart::related()
                    .boundary("rel")
                    .singlepart(html)
                    .singlepart(png),
            );
        let attached =
            |name: &str, w: Wire<'d>, t: &str, body: &mut dyn FnMut(Wire<'d>) -> Body| {
                Attachment::new(name.into()).body(body(w), ct(t))
            };
        let mixed = MultiPart::mixed()
            .boundary("mixed")
            .multipart(alternative)
            .singlepart(attached(
                "r.json",
                attachment(&d.json),
                "application/json",
                &mut body,
            ))
            .singlepart(attached(
                "m.svg",
                attachment(&d.svg),
                "image/svg+xml",
                &mut body,
            ))
            .singlepart(attached(
                "b.bin",
                attachment(&d.bin),
                "application/octet-stream",
                &mut body,
            ));
        Message::builder()
            .from("r@example.org".parse().unwrap())
            .to("p@example.org".parse().unwrap())
            .subject("s")
            .date(std::time::SystemTime::UNIX_EPOCH)
            .message_id(Some("<m@pbem>".into()))
            .multipart(mixed)
            .unwrap()
            .formatted()
    }

    /// A message laid out around the markers of its bodies and put together is, byte for byte,
    /// the message lettre makes of the bodies themselves: 7bit text, text lettre encodes, JSON in
    /// quoted-printable, an SVG as it is, bytes in base64, inline and attached, nested multiparts.
    #[test]
    fn a_message_put_together_is_what_lettre_makes_of_its_bodies() {
        let d = Sample {
            html: "<p>Caf\u{e9}</p>\n".repeat(3),
            json: "{\"a\": \"b=c\", \"text\": \"a long line of the report\"}\n"
                .repeat(9)
                .into_bytes(),
            svg: b"<svg>\r\n</svg>\r\n".to_vec(),
            bin: vec![0x89u8, b'P', b'N', b'G', 0, 1, 2, 0xff],
        };
        assert!(matches!(attachment(&d.json), Wire::Quoted(..)));
        let whole = sample_message(&d, |w| {
            let encoding = w.encoding();
            match w {
                Wire::Lettre(b) => b,
                w => Body::dangerous_pre_encoded(w.into_vec(), encoding),
            }
        });
        let mut bodies = Bodies::new("0123abcd");
        let layout = sample_message(&d, |w| bodies.put(w));
        assert_eq!(
            bodies.wires.len(),
            3,
            "text, JSON, SVG; the HTML and the base64 by lettre"
        );
        // Counted without putting it together: its size.
        assert_eq!(bodies.size(&layout).unwrap(), whole.len());
        let together = bodies.assemble(&layout).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&together),
            String::from_utf8_lossy(&whole)
        );
        assert_eq!(together, whole);
    }

    /// A report's mail as the outbox keeps it (`PARTS_FORMAT`), by hand: a text and a JSON that
    /// files hold, an HTML written in; `envelope` its `From`, `To` and `Date` fields.
    fn parts_file(
        text_sha: &str,
        json_sha: &str,
        envelope: &str,
        subject: &str,
        html: &str,
    ) -> Vec<u8> {
        let layout = format!(
            "{envelope}Subject: {subject}\r\nX-Pbem-To: power france turn 1\r\n\
             Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\n\
             Content-Type: text/plain\r\n\r\n\0pbem-part-0\0\r\n--b\r\n\
             Content-Type: text/html\r\n\r\n{html}\r\n--b\r\n\
             Content-Type: application/json\r\n\r\n\0pbem-part-1\0\r\n--b--\r\n"
        );
        format!(
            "{PARTS_FORMAT}\npart text 12 {text_sha} turns/1/reports/france.txt\n\
             part bytes 9 {json_sha} turns/1/reports/france.json\nlayout {}\n{layout}",
            layout.len()
        )
        .into_bytes()
    }

    /// Issue 39.3: the record's digest of a report's mail is of its outbox file: changing a part's
    /// SHA-256 (which binds that body's every byte), the layout, or a header field that is not the
    /// envelope's changes it; re-addressing it (`To:`, `From:`, `Date:`, and so the layout's size)
    /// does not. A message kept whole keeps the digest of what it says.
    #[test]
    fn the_digest_of_a_kept_mail_binds_its_parts_and_layout_not_its_envelope() {
        let (a, b, c) = (&"a".repeat(64), &"b".repeat(64), &"c".repeat(64));
        let sent = "From: referee@example.org\r\nTo: p@example.org\r\n\
                    Date: Sat, 01 Jan 2028 12:00:00 +0000\r\n";
        let digest = |file: Vec<u8>| {
            assert!(split_parts(&file).is_some());
            kept_digest(&file)
        };
        let file = parts_file(a, b, sent, "report", "<p>x</p>");
        let kept = digest(file.clone());
        let changed = [
            (
                "the text's digest",
                parts_file(c, b, sent, "report", "<p>x</p>"),
            ),
            (
                "the JSON's digest",
                parts_file(a, c, sent, "report", "<p>x</p>"),
            ),
            ("the subject", parts_file(a, b, sent, "Report", "<p>x</p>")),
            (
                "a body written in",
                parts_file(a, b, sent, "report", "<p>y</p>"),
            ),
        ];
        for (what, file) in changed {
            assert_ne!(digest(file), kept, "{what}");
        }
        let readdressed = "From: umpire@example.org\r\nTo: someone.else@example.org,\r\n \
                           p@example.org\r\nDate: Sun, 02 Jan 2028 13:30:00 +0000\r\n";
        assert_eq!(
            digest(parts_file(a, b, readdressed, "report", "<p>x</p>")),
            kept
        );
        // A part line moved into the layout is not the same file.
        let text = String::from_utf8(file).unwrap();
        let (lines, layout) = text.split_once("layout ").unwrap();
        let (_, layout) = layout.split_once('\n').unwrap();
        let (first, second) = lines.trim_end().rsplit_once('\n').unwrap();
        let size = layout.len() + second.len() + 1;
        let moved = format!("{first}\nlayout {size}\n{second}\n{layout}");
        assert!(split_parts(moved.as_bytes()).is_some());
        assert_ne!(kept_digest(moved.as_bytes()), kept);
        // A message kept whole, or a file of parts cut short: the digest of what it says.
        let whole = b"To: p@example.org\r\nSubject: s\r\n\r\nbody\r\n";
        assert_eq!(
            kept_digest(whole),
            crate::mail::envelope::content_digest(whole)
        );
        let cut = &text.as_bytes()[..text.len() - 3];
        assert!(split_parts(cut).is_none());
        assert_ne!(kept_digest(cut), kept);
    }

    /// A layout that lost a marker, or holds one twice, is an error, not a message.
    #[test]
    fn a_layout_without_each_marker_once_is_an_error() {
        let put = || {
            let mut b = Bodies::new("t");
            let marker = b.put(body("a\n")).into_vec();
            (b, marker)
        };
        let (b, _) = put();
        assert!(b.size(b"no marker").is_err());
        assert!(b.assemble(b"no marker").is_err());
        let (b, marker) = put();
        let twice = [marker.clone(), marker].concat();
        assert!(b.size(&twice).is_err());
        assert!(b.assemble(&twice).is_err());
        let (b, marker) = put();
        assert_eq!(b.assemble(&marker).unwrap(), b"a\r\n");
    }

    /// An attachment decodes to its very bytes: 7bit only when they may travel as they are (ASCII,
    /// CRLF line breaks already, lines up to 998 bytes), else quoted-printable of the bytes (an LF is
    /// `=0A`), or base64 when that is shorter.
    #[test]
    fn attachments_decode_to_their_very_bytes() {
        let decoded = |body: Wire| {
            let encoding = body.encoding();
            let wire = body.into_vec();
            match encoding {
                ContentTransferEncoding::SevenBit => wire,
                ContentTransferEncoding::QuotedPrintable => {
                    quoted_printable::decode(&wire, quoted_printable::ParseMode::Strict).unwrap()
                }
                ContentTransferEncoding::Base64 => {
                    use base64::Engine;
                    let text: Vec<u8> =
                        wire.into_iter().filter(|b| !b" \r\n".contains(b)).collect();
                    base64::engine::general_purpose::STANDARD
                        .decode(text)
                        .unwrap()
                }
                other => panic!("{other:?}"),
            }
        };
        let json = "{\n  \"turn\": 1,\n  \"text\": \"a = b\"\n}\n";
        let wide = format!("{}\r\n", "x".repeat(998));
        let cases: [(&[u8], ContentTransferEncoding); 9] = [
            (json.as_bytes(), ContentTransferEncoding::QuotedPrintable),
            (b"<svg>\r\n</svg>\r\n", ContentTransferEncoding::SevenBit),
            (b"<svg>\r\n</svg>", ContentTransferEncoding::SevenBit),
            (wide.as_bytes(), ContentTransferEncoding::SevenBit),
            (
                b"a line\rwith a lone CR\r\n",
                ContentTransferEncoding::QuotedPrintable,
            ),
            (
                b"a line\0with a NUL\r\n",
                ContentTransferEncoding::QuotedPrintable,
            ),
            (
                "{\"name\": \"Caf\u{e9}\"}\n".as_bytes(),
                ContentTransferEncoding::QuotedPrintable,
            ),
            (
                &[0xff, 0xfe, 0x00, 0x80, 0x81],
                ContentTransferEncoding::Base64,
            ),
            (b"", ContentTransferEncoding::SevenBit),
        ];
        for (bytes, encoding) in cases {
            let body = attachment(bytes);
            assert_eq!(body.encoding(), encoding, "{bytes:?}");
            assert_eq!(decoded(body), bytes, "{bytes:?}");
        }
        let too_wide = format!("{}\r\n", "x".repeat(999));
        assert_eq!(
            attachment(too_wide.as_bytes()).encoding(),
            ContentTransferEncoding::QuotedPrintable
        );
    }

    /// `body` is 7bit, with CRLF line breaks, when the text may travel so (ASCII without NUL or lone
    /// CR, lines up to 998 bytes); else it gives the bytes and the encoding of lettre's own
    /// `Body::new(String)`, at the edges of its choice: lines of 74 to 76 bytes (a CR more would
    /// reach 76), texts of many short lines (CRs would count as bytes to escape), CRLF already
    /// there, lone CRs, non-ASCII, control bytes, lines of 998 and 999 bytes.
    #[test]
    fn bodies_are_7bit_when_they_may_travel_so_else_lettres_bytes() {
        let mut texts = vec![
            String::new(),
            "\n".into(),
            "a\n".into(),
            "\r\n\r\n".into(),
            "a\rb\n".into(),
            "é\n".into(),
            "\u{1}\u{2}\n\n\n".into(),
            "\n".repeat(10),
            "ab\n".repeat(40),
            "x\n\u{7}\n".repeat(30),
        ];
        for n in 72..=77 {
            for first in [true, false] {
                let line = "y".repeat(n);
                let text = if first {
                    format!("{line}\nz\n")
                } else {
                    format!("z\n{line}\nz")
                };
                texts.push(text.clone());
                texts.push(text.replace('\n', "\r\n"));
                texts.push(text.replacen('y', "é", 1));
            }
        }
        for n in [998, 999] {
            texts.push(format!("{}\nz\n", "w".repeat(n)));
        }
        for t in texts {
            let ours = body(&t);
            if travels_as_is(crlf(&t).as_bytes()) {
                assert_eq!(ours.encoding(), ContentTransferEncoding::SevenBit, "{t:?}");
                assert_eq!(ours.into_vec(), crlf(&t).into_bytes(), "{t:?}");
                continue;
            }
            let theirs = Body::new(t.clone());
            assert_eq!(ours.encoding(), theirs.encoding(), "{t:?}");
            assert_eq!(ours.into_vec(), theirs.into_vec(), "{t:?}");
        }
        assert_eq!(
            body(&format!("{}\n", "w".repeat(998))).encoding(),
            ContentTransferEncoding::SevenBit
        );
        assert_eq!(
            body(&format!("{}\r\n{}", "w".repeat(998), "v".repeat(998))).encoding(),
            ContentTransferEncoding::SevenBit
        );
        assert_eq!(
            body(&format!("{}\n", "w".repeat(999))).encoding(),
            ContentTransferEncoding::QuotedPrintable
        );
    }

    proptest::proptest! {
        /// Judged by blocks, a long text of lines of any length (at the blocks' sizes and the
        /// longest a line may be) is judged as line by line, whatever bytes it holds.
        #[test]
        fn a_long_text_judged_by_blocks_is_judged_as_line_by_line(
            lines in proptest::collection::vec(
                (
                    proptest::prop_oneof![0usize..80, 240usize..260, 490usize..500, 740usize..750, 990usize..1002],
                    proptest::prop_oneof![
                        20 => proptest::strategy::Just(""),
                        1 => proptest::strategy::Just("\r"),
                        1 => proptest::strategy::Just("\0"),
                        1 => proptest::strategy::Just("\u{e9}"),
                    ],
                ),
                0..12,
            ),
            last in 0usize..1002,
        ) {
            let mut text = String::new();
            for (len, odd) in &lines {
                text.push_str(&"x".repeat(*len));
                text.push_str(odd);
                text.push('\n');
            }
            text.push_str(&"y".repeat(last));
            proptest::prop_assert_eq!(crlf_7bit_len(&text), crlf_7bit_len_by_lines(&text));
        }

        /// One pass gives what two give: the text with CRLF line breaks exactly when those may
        /// travel as they are; and an attachment's bytes go as they are exactly when the judge
        /// of bytes, line by line to the end, says so.
        #[test]
        fn crlf_if_7bit_is_crlf_when_it_travels_as_is(
            chars in proptest::collection::vec(
                proptest::prop_oneof![
                    8 => proptest::strategy::Just('a'),
                    2 => proptest::strategy::Just('\n'),
                    1 => proptest::strategy::Just('\r'),
                    1 => proptest::strategy::Just('\0'),
                    1 => proptest::strategy::Just('\u{e9}'),
                ],
                0..40,
            ),
            wide in 990usize..1002,
        ) {
            let short: String = chars.iter().collect();
            let texts = [
                short.clone(),
                format!("{short}{}", "b".repeat(wide)),
                format!("{}{short}", "c".repeat(wide)),
            ];
            for text in texts {
                let wire = crlf(&text);
                let expected = travels_as_is(wire.as_bytes()).then(|| wire.clone().into_bytes());
                proptest::prop_assert_eq!(crlf_if_7bit(&text), expected);
                // Raw bytes: each line but the last ends in CR already; none has another CR.
                let bytes = text.as_bytes();
                let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
                let whole = bytes.iter().all(|&b| b != 0 && b < 0x80)
                    && lines.iter().enumerate().all(|(i, l)| {
                        let core = match i + 1 == lines.len() {
                            true => Some(*l),
                            false => l.strip_suffix(b"\r"),
                        };
                        core.is_some_and(|c| c.len() <= 998 && !c.contains(&b'\r'))
                    });
                proptest::prop_assert_eq!(travels_as_is(bytes), whole, "{:?}", text);
            }
        }
    }
}
