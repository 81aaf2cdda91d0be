//! The mail-parser adapter: the one file of pbem that uses the `mail-parser` crate (issue 4.1). It turns
//! raw RFC 5322 bytes into plain owned values ([`Incoming`], [`OutgoingHeaders`]) and reads mbox
//! files; everything else in `mail/` works on those values, so that a change of parser stays here.
//!
//! mail-parser is lax: it reads a misspelt `Fr om:` as From, and the last of two From headers wins.
//! So the sender is also read strictly from the raw header block ([`Sender`]); and pbem authenticates
//! orders by their password, never by the From header alone (`mail::ingest`).

use std::io::BufRead;

use chrono::{DateTime, Utc};
use mail_parser::{Address, HeaderName, HeaderValue, MessageParser, MimeHeaders, PartType};

/// The sender of a message, as its one From header gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sender {
    /// The address of the only From header, lower-cased.
    One(String),
    /// No From header.
    Missing,
    /// Two From headers, a misspelt one, a group or a list: nobody can say who sent it.
    Ambiguous(String),
}

impl Sender {
    /// The address, if there is exactly one.
    pub fn address(&self) -> Option<&str> {
        match self {
            Sender::One(a) => Some(a),
            _ => None,
        }
    }
}

/// A `Received` header: the host that added it (`by`) and its date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    pub by: Option<String>,
    pub date: Option<DateTime<Utc>>,
}

/// What a part of a message holds, decoded from its transfer encoding and charset.
#[derive(Debug, Clone)]
pub enum Content {
    Text(String),
    Html(String),
    /// Anything else (an attachment of another type, or text that mail-parser left as bytes).
    Bytes(Vec<u8>),
    /// A nested message (message/rfc822), its raw bytes: a forwarded mail, not read for orders; a
    /// player's `verify` reads a report forwarded so (`audit::forms::texts`).
    Message(Vec<u8>),
}

/// A leaf part of a message.
#[derive(Debug, Clone)]
pub struct Part {
    /// The file name the part carries (Content-Disposition filename or Content-Type name), as written.
    pub name: Option<String>,
    /// `type/subtype`, lower case.
    pub content_type: String,
    /// Part of the message's body (not an attachment): the text the reader sees.
    pub is_body: bool,
    /// The HTML alternative of a text body (a `multipart/alternative`'s text/html part, not an
    /// attachment): what the reader sees when the text part is empty, as some clients and webmail
    /// send it (`extract` reads it then).
    pub html_alternative: bool,
    /// What its headers say of its bytes that its bytes belie, if anything: a part labelled
    /// base64 that is not, or labelled UTF-16 or UTF-32 that is not (`extract` names it when it
    /// finds no orders, rather than "no orders"), and its bytes read as they are (UTF-8, lossy).
    pub mislabelled: Option<(String, String)>,
    /// `format=flowed` (RFC 3676) and its `delsp=yes`.
    pub flowed: bool,
    pub delsp: bool,
    pub content: Content,
}

impl Part {
    /// The decoded size in bytes.
    pub fn size(&self) -> usize {
        match &self.content {
            Content::Text(t) | Content::Html(t) => t.len(),
            Content::Bytes(b) => b.len(),
            // Not read for orders: no limit of a body applies to it.
            Content::Message(_) => 0,
        }
    }
}

/// An incoming message, parsed: the few headers pbem reads and its parts.
#[derive(Debug, Clone)]
pub struct Incoming {
    /// Message-ID without angle brackets, printable ASCII only.
    pub message_id: Option<String>,
    pub sender: Sender,
    /// The subject on one line, control characters replaced, at most 200 characters.
    pub subject: String,
    /// The `Received` headers, topmost (the last added) first.
    pub received: Vec<Stamp>,
    /// Why the message is automatic (a bounce, an auto-reply, a list), if it is (RFC 3834): pbem
    /// never answers those, so that two robots cannot answer each other forever.
    pub automatic: Option<String>,
    /// The values of its `X-Loop` headers, lower-cased (`ingest` takes one naming the referee's
    /// address as the mark of an automatic message).
    pub loops: Vec<String>,
    /// The leaf parts, in the order of the message.
    pub parts: Vec<Part>,
    /// Byte offset of the body in the raw message (after the blank line closing the headers).
    pub body_offset: usize,
}

/// Parses a raw message. Never panics on any input; `None` when nothing of it is a message at all.
pub fn parse(raw: &[u8]) -> Option<Incoming> {
    let message = MessageParser::default().parse(raw)?;
    let (header_end, body_offset) = header_block(raw);
    let sender = strict_sender(&raw[..header_end], message.from());
    let message_id = message
        .message_id()
        .map(clean_id)
        .filter(|id| !id.is_empty());
    let subject = one_line(message.subject().unwrap_or(""), 200);
    let received = received_of(&message);
    let automatic = automatic(&message, &subject);
    let loops = loops_of(&message);
    let mut parts = Vec::new();
    let body_ids: Vec<u32> = message.text_body.clone();
    let html_ids: Vec<u32> = message.html_body.clone();
    for (id, part) in message.parts.iter().enumerate() {
        let id = id as u32;
        let content = match &part.body {
            PartType::Multipart(_) => continue,
            PartType::Text(t) => match misread(raw, part, t) {
                Some(bytes) => Content::Bytes(bytes),
                None => Content::Text(t.to_string()),
            },
            PartType::Html(h) => Content::Html(h.to_string()),
            PartType::Binary(b) | PartType::InlineBinary(b) => Content::Bytes(b.to_vec()),
            PartType::Message(m) => Content::Message(m.raw_message().to_vec()),
        };
        let name = part.attachment_name().map(|s| s.to_string());
        let ct = part.content_type();
        let content_type = ct
            .map(|c| {
                format!(
                    "{}/{}",
                    c.ctype(),
                    c.subtype().unwrap_or("plain").to_ascii_lowercase()
                )
                .to_ascii_lowercase()
            })
            .unwrap_or_else(|| "text/plain".to_string());
        let attr = |n: &str| {
            ct.and_then(|c| c.attribute(n))
                .map(|v| v.trim().to_ascii_lowercase())
        };
        let mislabelled = match &part.body {
            PartType::Text(_) | PartType::Html(_) => {
                mislabelled(raw, part, attr("charset").as_deref())
            }
            _ => None,
        };
        parts.push(Part {
            mislabelled,
            is_body: body_ids.contains(&id) && name.is_none(),
            html_alternative: html_ids.contains(&id)
                && !body_ids.contains(&id)
                && name.is_none()
                && matches!(content, Content::Html(_)),
            flowed: attr("format").as_deref() == Some("flowed"),
            delsp: attr("delsp").as_deref() == Some("yes"),
            name,
            content_type,
            content,
        });
    }
    Some(Incoming {
        message_id,
        sender,
        subject,
        received,
        automatic,
        loops,
        parts,
        body_offset,
    })
}

/// The bytes of a text part that mail-parser could not read as it is labelled, for
/// `extract::decode_bytes` to read (issue 34): a text with NULs or replacement characters whose bytes
/// start with a UTF-16 byte-order mark (Notepad's "Unicode", `FF FE`, sent with no charset or a
/// wrong one), or that names no charset (read as Windows-1252, or refused as not text when it holds
/// NULs). None: the text as mail-parser decoded it by its charset stands (a NUL in declared UTF-8 is
/// the orders check's to name, on its line).
fn misread(raw: &[u8], part: &mail_parser::MessagePart<'_>, text: &str) -> Option<Vec<u8>> {
    if !text.contains(['\0', '\u{FFFD}']) {
        return None;
    }
    let body = raw.get(part.offset_body as usize..part.offset_end as usize)?;
    let bytes = match part.encoding {
        mail_parser::Encoding::Base64 => mail_parser::decoders::base64::base64_decode(body)?,
        mail_parser::Encoding::QuotedPrintable => {
            mail_parser::decoders::quoted_printable::quoted_printable_decode(body)?
        }
        mail_parser::Encoding::None => body.to_vec(),
    };
    let bom = bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
    let labelled = part
        .content_type()
        .and_then(|c| c.attribute("charset"))
        .is_some();
    (bom || !labelled).then_some(bytes)
}

/// What a text part's headers say of its bytes that the bytes belie: a Content-Transfer-Encoding
/// of base64 over bytes that are not base64 (mail-parser then gives nothing, or noise), or a
/// charset of UTF-16 or UTF-32 over bytes without one NUL (text in one byte a character, read two
/// or four at a time into other scripts).
fn mislabelled(
    raw: &[u8],
    part: &mail_parser::MessagePart<'_>,
    charset: Option<&str>,
) -> Option<(String, String)> {
    let body = raw.get(part.offset_body as usize..part.offset_end as usize)?;
    let as_sent = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    if part.encoding == mail_parser::Encoding::Base64 {
        let base64 = |b: &u8| b.is_ascii_alphanumeric() || b"+/=\r\n\t ".contains(b);
        if !body.iter().all(base64) {
            return Some((
                "is labelled 'Content-Transfer-Encoding: base64', but its bytes are not base64 (they read as plain text)"
                    .into(),
                as_sent(body),
            ));
        }
        return None;
    }
    let wide = charset.is_some_and(|c| c.starts_with("utf-16") || c.starts_with("utf-32"));
    let bytes = match part.encoding {
        mail_parser::Encoding::QuotedPrintable => {
            mail_parser::decoders::quoted_printable::quoted_printable_decode(body)?
        }
        _ => body.to_vec(),
    };
    let bom = bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
    (wide && !bom && !bytes.contains(&0)).then(|| {
        (
            format!(
                "is labelled 'charset={}', but its bytes are not {} (they hold no NUL byte: one byte a character, as UTF-8 or ASCII)",
                charset.unwrap_or_default(),
                charset.unwrap_or_default().to_uppercase()
            ),
            as_sent(&bytes),
        )
    })
}

/// The `Received` headers of a message, topmost first, read from its headers only (to order the
/// messages of an ingest by arrival before any of them is read).
pub fn stamps(raw: &[u8]) -> Vec<Stamp> {
    let Some(m) = MessageParser::default().parse_headers(raw) else {
        return Vec::new();
    };
    received_of(&m)
}

fn received_of(m: &mail_parser::Message<'_>) -> Vec<Stamp> {
    m.header_values(HeaderName::Received)
        .filter_map(|v| match v {
            HeaderValue::Received(r) => Some(Stamp {
                by: r.by.as_ref().map(|h| one_line(&h.to_string(), 200)),
                date: r.date.as_ref().and_then(to_utc),
            }),
            _ => None,
        })
        .collect()
}

/// The recipients and Message-ID of a message pbem wrote (for `pbem send`).
#[derive(Debug, Clone, Default)]
pub struct OutgoingHeaders {
    pub message_id: Option<String>,
    pub subject: String,
    /// The To and Cc addresses, in header order.
    pub recipients: Vec<String>,
}

/// Reads the headers of an outbox file.
pub fn outgoing_headers(raw: &[u8]) -> OutgoingHeaders {
    let Some(m) = MessageParser::default().parse_headers(raw) else {
        return OutgoingHeaders::default();
    };
    let mut recipients = Vec::new();
    for a in m.all_to().chain(m.all_cc()) {
        for addr in a.iter() {
            if let Some(x) = addr.address() {
                recipients.push(x.to_string());
            }
        }
    }
    OutgoingHeaders {
        message_id: m.message_id().map(clean_id),
        subject: one_line(m.subject().unwrap_or(""), 200),
        recipients,
    }
}

pub use super::mbox::MboxMessage;

/// The messages of an mbox file, in file order, with no limit on their size (`mbox::read_mbox`).
pub fn read_mbox<R: BufRead>(reader: R) -> super::mbox::MboxReader<R> {
    super::mbox::read_mbox(reader, u64::MAX)
}

/// The date of an mbox `From ` line (the postmark the delivering agent wrote), as mail-parser reads it.
pub fn postmark(from_line: &[u8]) -> Option<DateTime<Utc>> {
    mail_parser::mailbox::mbox::MessageIterator::new(from_line)
        .next()
        .and_then(Result::ok)
        .and_then(|m| match m.internal_date() {
            0 => None,
            t => DateTime::from_timestamp(i64::try_from(t).unwrap_or(0), 0),
        })
}

/// Parses an RFC 5322 date (a Maildir or mbox helper for tests and tools).
pub fn parse_date(text: &str) -> Option<DateTime<Utc>> {
    mail_parser::DateTime::parse_rfc822(text)
        .as_ref()
        .and_then(to_utc)
}

fn to_utc(d: &mail_parser::DateTime) -> Option<DateTime<Utc>> {
    if !d.is_valid() {
        return None;
    }
    DateTime::from_timestamp(d.to_timestamp(), 0)
}

/// Why a message is automatic, if it is: RFC 3834's `Auto-Submitted`, and the marks the common
/// responders, lists and bulk senders put instead or besides (issue 34: a vacation responder marked
/// only by one of them was answered, and answered back). `X-Loop` is the caller's: it counts only
/// when it names the referee ([`Incoming::loops`]).
fn automatic(m: &mail_parser::Message<'_>, subject: &str) -> Option<String> {
    let raw = |name: &str| {
        m.headers()
            .iter()
            .find(|h| h.name().eq_ignore_ascii_case(name))
            .and_then(|h| {
                m.raw_message
                    .get(h.offset_start() as usize..h.offset_end() as usize)
                    .map(|b| String::from_utf8_lossy(b).trim().to_ascii_lowercase())
            })
    };
    if let Some(v) = raw("Auto-Submitted") {
        if !v.starts_with("no") {
            return Some(format!("Auto-Submitted: {}", one_line(&v, 40)));
        }
    }
    for header in ["Precedence", "X-Precedence"] {
        if let Some(v) = raw(header) {
            if ["bulk", "junk", "list", "auto_reply", "auto-reply"]
                .iter()
                .any(|p| v.starts_with(p))
            {
                return Some(format!("{header}: {}", one_line(&v, 40)));
            }
        }
    }
    if let Some(v) = raw("Return-Path") {
        if v.replace(' ', "") == "<>" {
            return Some("a null Return-Path (a bounce)".into());
        }
    }
    // Set by responders (X-Autoreply, X-Autorespond: Exim, cPanel, Zimbra; X-Autogenerated), by
    // Exchange on its automatic messages (X-Auto-Response-Suppress), by mailing lists (RFC 2369,
    // 2919) and by bulk senders (Feedback-ID): a player's own message carries none of them.
    for header in [
        "X-Autoreply",
        "X-Autorespond",
        "X-Autoresponder",
        "X-Autogenerated",
        "X-Auto-Response-Suppress",
        "List-Id",
        "List-Post",
        "List-Unsubscribe",
        "Feedback-ID",
    ] {
        if let Some(v) = raw(header) {
            return Some(format!("{header}: {}", one_line(&v, 40)));
        }
    }
    let subject = subject.trim_start().to_lowercase();
    const SUBJECTS: [&str; 10] = [
        "automatic reply",
        "auto:",
        "auto reply",
        "auto-reply",
        "autoreply",
        "out of office",
        "out-of-office",
        "abwesenheitsnotiz",
        "réponse automatique",
        "respuesta automática",
    ];
    if let Some(p) = SUBJECTS.iter().find(|p| subject.starts_with(*p)) {
        return Some(format!("a subject that starts \"{p}\""));
    }
    None
}

/// The values of a message's `X-Loop` headers, lower-cased: a responder or a list that writes one
/// names the address it answers for, so one naming the referee's address is pbem's own mail coming
/// back.
fn loops_of(m: &mail_parser::Message<'_>) -> Vec<String> {
    m.headers()
        .iter()
        .filter(|h| h.name().eq_ignore_ascii_case("X-Loop"))
        .filter_map(|h| {
            m.raw_message
                .get(h.offset_start() as usize..h.offset_end() as usize)
                .map(|b| one_line(&String::from_utf8_lossy(b).trim().to_ascii_lowercase(), 200))
        })
        .collect()
}

/// The end of the header block (the offset of the blank line) and the offset of the body.
pub fn header_block(raw: &[u8]) -> (usize, usize) {
    let mut i = 0;
    while i < raw.len() {
        let end = raw[i..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(raw.len(), |p| i + p + 1);
        let line = &raw[i..end];
        if line == b"\n" || line == b"\r\n" {
            return (i, end);
        }
        i = end;
    }
    (raw.len(), raw.len())
}

/// The sender from the raw header block: exactly one field named exactly `From`, whose value mail-parser
/// reads as exactly one address.
fn strict_sender(headers: &[u8], parsed: Option<&Address<'_>>) -> Sender {
    let mut from_fields = 0;
    let mut odd_from = false;
    for line in headers.split(|&b| b == b'\n') {
        if line.first().is_some_and(|b| *b == b' ' || *b == b'\t') {
            continue; // a folded continuation line
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let name = &line[..colon];
        if name.eq_ignore_ascii_case(b"from") {
            from_fields += 1;
        } else {
            // `Fr om:`, `From :`, `FROM\t:`: read as From by lax parsers.
            let squeezed: Vec<u8> = name
                .iter()
                .filter(|b| !b.is_ascii_whitespace())
                .map(|b| b.to_ascii_lowercase())
                .collect();
            if squeezed == b"from" {
                odd_from = true;
            }
        }
    }
    if odd_from {
        return Sender::Ambiguous("a malformed From header".into());
    }
    match from_fields {
        0 => return Sender::Missing,
        1 => {}
        n => return Sender::Ambiguous(format!("{n} From headers")),
    }
    let Some(address) = parsed else {
        return Sender::Ambiguous("a From header that holds no address".into());
    };
    let addrs: Vec<&str> = match address {
        Address::List(list) => list.iter().filter_map(|a| a.address()).collect(),
        Address::Group(_) => return Sender::Ambiguous("a group in the From header".into()),
    };
    match addrs.as_slice() {
        [one] if is_plain_address(one) => Sender::One(one.to_ascii_lowercase()),
        [one] => Sender::Ambiguous(format!(
            "a From address that is not an address ('{}')",
            one_line(one, 80)
        )),
        [] => Sender::Ambiguous("a From header that holds no address".into()),
        many => Sender::Ambiguous(format!("{} addresses in the From header", many.len())),
    }
}

/// `local@domain`, printable ASCII, no spaces or angle brackets.
fn is_plain_address(a: &str) -> bool {
    let ok_chars = a
        .chars()
        .all(|c| c.is_ascii_graphic() && !matches!(c, '<' | '>' | ',' | ';' | '"'));
    match a.split_once('@') {
        Some((l, d)) => ok_chars && !l.is_empty() && !d.is_empty() && !d.contains('@'),
        None => false,
    }
}

/// A Message-ID without angle brackets, printable ASCII only, at most 250 characters.
fn clean_id(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .chars()
        .filter(|c| c.is_ascii_graphic())
        .take(250)
        .collect()
}

/// Text made safe to print or put in a file on one line: control characters (CR, LF, ESC ...) become
/// spaces, and it is cut at `max` characters.
pub fn one_line(text: &str, max: usize) -> String {
    let mut out: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(max)
        .collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_from_header_gives_the_sender() {
        let m = parse(b"From: France <France@Example.org>\r\nSubject: x\r\n\r\nbody\r\n").unwrap();
        assert_eq!(m.sender, Sender::One("france@example.org".into()));
    }

    #[test]
    fn two_from_headers_make_the_sender_ambiguous() {
        let m = parse(b"From: a@x.org\nFrom: france@example.org\n\nbody\n").unwrap();
        assert_eq!(m.sender, Sender::Ambiguous("2 From headers".into()));
    }

    #[test]
    fn a_misspelt_from_header_makes_the_sender_ambiguous() {
        let m = parse(b"Fr om: france@example.org\nFrom: a@x.org\n\nbody\n").unwrap();
        assert!(matches!(m.sender, Sender::Ambiguous(_)), "{:?}", m.sender);
        let m = parse(b"Fr om: france@example.org\n\nbody\n").unwrap();
        assert!(matches!(m.sender, Sender::Ambiguous(_)), "{:?}", m.sender);
    }

    #[test]
    fn a_from_header_with_two_addresses_is_ambiguous() {
        let m = parse(b"From: france@example.org, b@x.org\n\nbody\n").unwrap();
        assert!(matches!(m.sender, Sender::Ambiguous(_)), "{:?}", m.sender);
    }

    #[test]
    fn no_from_header_is_missing() {
        let m = parse(b"Subject: hi\n\nbody\n").unwrap();
        assert_eq!(m.sender, Sender::Missing);
    }

    #[test]
    fn received_headers_come_topmost_first() {
        let m = parse(
            b"Received: by mx.ref.org; Sat, 5 Dec 2026 18:00:00 +0100\r\nReceived: from evil by fake.org; Mon, 1 Jan 2001 00:00:00 +0000\r\nFrom: a@b.org\r\n\r\nx\r\n",
        )
        .unwrap();
        assert_eq!(m.received.len(), 2);
        assert_eq!(m.received[0].by.as_deref(), Some("mx.ref.org"));
        assert_eq!(
            m.received[0].date.unwrap().to_rfc3339(),
            "2026-12-05T17:00:00+00:00"
        );
    }

    #[test]
    fn a_subject_with_cr_lf_is_one_line() {
        let m = parse(b"From: a@b.org\nSubject: =?utf-8?q?a=0D=0ABcc:_x@y.org?=\n\nx\n").unwrap();
        assert!(!m.subject.contains('\n') && !m.subject.contains('\r'));
    }

    #[test]
    fn bounces_and_auto_replies_are_automatic() {
        let m = parse(b"From: a@b.org\nAuto-Submitted: auto-replied\n\nx\n").unwrap();
        assert!(m.automatic.is_some());
        let m = parse(b"From: a@b.org\nAuto-Submitted: no\n\nx\n").unwrap();
        assert!(m.automatic.is_none());
        let m = parse(b"Return-Path: <>\nFrom: MAILER-DAEMON@b.org\n\nx\n").unwrap();
        assert!(m.automatic.is_some());
    }

    #[test]
    fn outgoing_headers_list_to_and_cc() {
        let h = outgoing_headers(
            b"From: r@x.org\r\nTo: a@x.org, B <b@x.org>\r\nCc: c@x.org\r\nMessage-ID: <m1@g.pbem>\r\n\r\nx",
        );
        assert_eq!(h.recipients, ["a@x.org", "b@x.org", "c@x.org"]);
        assert_eq!(h.message_id.as_deref(), Some("m1@g.pbem"));
    }

    #[test]
    fn mbox_messages_keep_their_postmarks() {
        let mbox = b"From a@b.org Sat Dec  5 18:00:00 2026\nFrom: a@b.org\n\n>From the start\n\nFrom c@d.org Sun Dec  6 10:00:00 2026\nFrom: c@d.org\n\ntwo\n";
        let all: Vec<MboxMessage> = read_mbox(&mbox[..]).map(|m| m.unwrap()).collect();
        assert_eq!(all.len(), 2);
        assert!(String::from_utf8_lossy(&all[0].bytes).contains("\nFrom the start"));
        assert_eq!(
            all[1].postmark.unwrap().to_rfc3339(),
            "2026-12-06T10:00:00+00:00"
        );
    }
}
