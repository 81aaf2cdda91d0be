//! Splitting an mbox file into messages with bounded memory (issue 15.4): a message larger than the
//! limit is not held in memory but spilled, as it is read, to a temporary file (mode 0600), so that
//! it can be archived as it came and never parsed. The splitting is mail-parser's: a line starting
//! with `From ` opens a message (lines before the first are not mail), and `>From ` (with any number
//! of `>`) loses one `>`. A line is read in pieces of at most the limit, so that a line of a
//! gigabyte costs no more memory than a message of the limit.

use std::io::{BufRead, Read, Write};

use chrono::{DateTime, Utc};

/// One message of an mbox file: its bytes (with `>From ` unquoted), or the file it was spilled to
/// when it is over the limit, and the date of its `From ` line (the postmark the delivering agent
/// wrote), if it reads as one.
pub struct MboxMessage {
    /// The message; empty when it was spilled.
    pub bytes: Vec<u8>,
    /// A message over the limit: the temporary file that holds it (deleted when dropped) and its size.
    pub spilled: Option<(tempfile::TempPath, u64)>,
    pub postmark: Option<DateTime<Utc>>,
}

/// The messages of an mbox file, in file order; a message over `max_bytes` is spilled.
pub fn read_mbox<R: BufRead>(reader: R, max_bytes: u64) -> MboxReader<R> {
    MboxReader {
        reader,
        max: max_bytes,
        next_from: None,
    }
}

/// See [`read_mbox`].
pub struct MboxReader<R> {
    reader: R,
    max: u64,
    /// The `From ` line that opens the next message, once read.
    next_from: Option<Vec<u8>>,
}

impl<R: BufRead> Iterator for MboxReader<R> {
    type Item = std::io::Result<MboxMessage>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_message().transpose()
    }
}

impl<R: BufRead> MboxReader<R> {
    /// Reads at most the limit (and one byte) of the rest of a line into `piece`; 0 at the end.
    fn piece(&mut self, piece: &mut Vec<u8>) -> std::io::Result<usize> {
        piece.clear();
        (&mut self.reader)
            .take(self.max.saturating_add(1))
            .read_until(b'\n', piece)
    }

    /// Reads the rest of a line that did not fit in one piece, keeping nothing.
    fn skip_line(&mut self, piece: &mut Vec<u8>) -> std::io::Result<()> {
        while self.piece(piece)? > 0 && !piece.ends_with(b"\n") {}
        Ok(())
    }

    fn next_message(&mut self) -> std::io::Result<Option<MboxMessage>> {
        let mut from_line = self.next_from.take();
        let mut body = Body::new(self.max);
        let mut piece = Vec::new();
        let mut at_start = true;
        loop {
            if self.piece(&mut piece)? == 0 {
                return from_line.map(|f| body.finish(&f)).transpose();
            }
            let line_start = at_start;
            at_start = piece.ends_with(b"\n");
            if line_start && piece.starts_with(b"From ") {
                let this = std::mem::take(&mut piece);
                if !at_start {
                    self.skip_line(&mut piece)?;
                    at_start = true;
                }
                match from_line {
                    Some(f) => {
                        self.next_from = Some(this);
                        return Ok(Some(body.finish(&f)?));
                    }
                    None => from_line = Some(this),
                }
                continue;
            }
            if from_line.is_none() {
                continue;
            }
            let quoted = line_start && piece.first() == Some(&b'>') && {
                let i = piece.iter().position(|&b| b != b'>').unwrap_or(piece.len());
                piece[i..].starts_with(b"From ")
            };
            body.push(if quoted { &piece[1..] } else { &piece })?;
        }
    }
}

/// The bytes of a message as they are read: in memory up to the limit, then in a temporary file.
struct Body {
    max: u64,
    bytes: Vec<u8>,
    size: u64,
    spill: Option<tempfile::NamedTempFile>,
}

impl Body {
    fn new(max: u64) -> Body {
        Body {
            max,
            bytes: Vec::new(),
            size: 0,
            spill: None,
        }
    }

    fn push(&mut self, data: &[u8]) -> std::io::Result<()> {
        self.size += data.len() as u64;
        if self.spill.is_none() && self.size > self.max {
            // tempfile makes it mode 0600: it holds a player's message.
            let mut file = tempfile::Builder::new().prefix("pbem-mbox-").tempfile()?;
            file.write_all(&self.bytes)?;
            self.bytes = Vec::new();
            self.spill = Some(file);
        }
        match &mut self.spill {
            Some(file) => file.write_all(data),
            None => {
                self.bytes.extend_from_slice(data);
                Ok(())
            }
        }
    }

    fn finish(self, from_line: &[u8]) -> std::io::Result<MboxMessage> {
        let postmark = super::parse::postmark(from_line);
        let spilled = match self.spill {
            Some(mut file) => {
                file.flush()?;
                Some((file.into_temp_path(), self.size))
            }
            None => None,
        };
        Ok(MboxMessage {
            bytes: self.bytes,
            spilled,
            postmark,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MBOX: &[u8] = b"junk before\nFrom a@b.org Sat Dec  5 18:00:00 2026\nFrom: a@b.org\n\n>From the start\n>>From two\n>not from\n\nFrom c@d.org Sun Dec  6 10:00:00 2026\nFrom: c@d.org\n\ntwo\n";

    /// The same messages, bytes and postmarks as mail-parser's own reader.
    #[test]
    fn splits_as_mail_parser_does() {
        let ours: Vec<MboxMessage> = read_mbox(MBOX, u64::MAX).map(|m| m.unwrap()).collect();
        let theirs: Vec<_> = mail_parser::mailbox::mbox::MessageIterator::new(MBOX)
            .map(|m| m.unwrap())
            .collect();
        assert_eq!(ours.len(), 2);
        for (o, t) in ours.iter().zip(&theirs) {
            assert_eq!(o.bytes, t.contents());
            assert_eq!(
                o.postmark.map(|p| p.timestamp() as u64).unwrap_or(0),
                t.internal_date()
            );
        }
        assert_eq!(
            ours[1].postmark.unwrap().to_rfc3339(),
            "2026-12-06T10:00:00+00:00"
        );
    }

    #[test]
    fn a_message_over_the_limit_is_spilled_whole() {
        let long_line = vec![b'x'; 100];
        let mbox = [
            &b"From a Sat Dec  5 18:00:00 2026\nFrom: a@b.org\n\n"[..],
            &long_line,
            b"\n>From here\nFrom b Sat Dec  5 18:00:00 2026\nsmall\n",
        ]
        .concat();
        let all: Vec<MboxMessage> = read_mbox(&mbox[..], 30).map(|m| m.unwrap()).collect();
        assert_eq!(all.len(), 2);
        let (path, size) = all[0].spilled.as_ref().unwrap();
        let spilled = std::fs::read(path).unwrap();
        let expected = [&b"From: a@b.org\n\n"[..], &long_line, b"\nFrom here\n"].concat();
        assert_eq!(spilled, expected);
        assert_eq!(*size, expected.len() as u64);
        assert!(all[0].bytes.is_empty());
        assert_eq!(all[1].bytes, b"small\n");
        assert!(all[1].spilled.is_none());
    }
}
