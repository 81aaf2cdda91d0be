//! Quoted-printable (RFC 2045 6.7) of an attachment's bytes as binary, the very bytes the
//! `quoted_printable` crate's `encode_binary` gives (so that a report's `.eml` does not change),
//! several times faster: it copies each run of bytes that go as they are at once, into a buffer
//! sized once, where the crate pushes them one `char` at a time into a `String` (a report's JSON
//! or SVG is a few hundred kilobytes to megabytes, every turn, for every power). The test below
//! checks it against the crate on any bytes.

/// The longest encoded line, without its CRLF (RFC 2045 6.7, rule 5).
const LIMIT: usize = 76;

/// The bytes that go as they are: printable ASCII but `=`, and the tab; every other byte is `=XX`.
const LITERAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = b' ';
    while b <= b'~' {
        t[b as usize] = b != b'=';
        b += 1;
    }
    t[b'\t' as usize] = true;
    t
};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The bytes, quoted-printable, every CR and LF encoded (`=0D`, `=0A`), in lines of at most 76
/// bytes joined by soft line breaks (`=` CRLF).
pub fn encode_binary(input: &[u8]) -> Vec<u8> {
    let mut out = Lines {
        out: Vec::with_capacity(input.len() + input.len() / 4 + 3),
        on_line: 0,
        last: 0,
    };
    let mut at = 0;
    let mut after_cr = false;
    while let Some(&byte) = input.get(at) {
        at += 1;
        if after_cr {
            after_cr = false;
            if byte == b'\n' {
                // As the crate does: a space or tab before a CRLF is encoded, though in binary
                // the CRLF is encoded too.
                out.encode_trailing_blank();
                out.append(b"=0D");
                out.append(b"=0A");
                continue;
            }
            out.append(b"=0D");
        }
        if byte == b'\r' {
            after_cr = true;
            continue;
        }
        if LITERAL[byte as usize] && LIMIT - out.on_line >= 3 {
            // A run of literal bytes, up to two bytes short of the limit, copied at once.
            let start = at - 1;
            let room = (LIMIT - out.on_line - 2).min(input.len() - start);
            let run = input[start..start + room]
                .iter()
                .position(|&b| !LITERAL[b as usize])
                .unwrap_or(room);
            out.out.extend_from_slice(&input[start..start + run]);
            out.on_line += run;
            out.last = out.out.len();
            at = start + run;
            continue;
        }
        if LITERAL[byte as usize] {
            out.append(&[byte]);
        } else {
            out.append(&[
                b'=',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 15)],
            ]);
        }
    }
    if after_cr {
        out.append(b"=0D");
    } else {
        out.encode_trailing_blank();
    }
    out.out
}

/// The encoded bytes so far, with where the current line stands.
struct Lines {
    out: Vec<u8>,
    /// Bytes on the current line.
    on_line: usize,
    /// Where the last piece appended (a byte or an `=XX`) begins, or the end after a run.
    last: usize,
}

impl Lines {
    /// Appends a piece (a literal byte or an `=XX`), after a soft line break when it would not
    /// fit; on a full line the break goes before the last piece, so that its `=` fits.
    fn append(&mut self, piece: &[u8]) {
        if self.on_line + piece.len() > LIMIT {
            if self.on_line == LIMIT {
                let moved = self.out.len() - self.last;
                self.out.splice(self.last..self.last, *b"=\r\n");
                self.on_line = moved;
            } else {
                self.out.extend_from_slice(b"=\r\n");
                self.on_line = 0;
            }
        }
        self.out.extend_from_slice(piece);
        self.on_line += piece.len();
        self.last = self.out.len() - piece.len();
    }

    /// A space or tab at the end is encoded (RFC 2045 6.7, rule 3).
    fn encode_trailing_blank(&mut self) {
        let piece: &[u8] = match self.out.last() {
            Some(b' ') => b"=20",
            Some(b'\t') => b"=09",
            _ => return,
        };
        self.out.pop();
        self.on_line = self.on_line.saturating_sub(1);
        self.append(piece);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Gives the crate's bytes at the edges: runs reaching the limit, pieces on a full line, CR, LF
    /// and CRLF, blanks before a CRLF and at the end, `=`, NUL and non-ASCII.
    #[test]
    fn encodes_as_the_quoted_printable_crate_at_the_edges() {
        let mut inputs: Vec<Vec<u8>> = vec![
            Vec::new(),
            b" ".to_vec(),
            b"\t".to_vec(),
            b"\r".to_vec(),
            b"\n".to_vec(),
            b"\r\n".to_vec(),
            b"a \r\nb\t\r\n \r".to_vec(),
            b"\r\r\n\n\r".to_vec(),
            "{\"name\": \"Caf\u{e9}\", \"a\": \"b=c\"}\n"
                .as_bytes()
                .to_vec(),
            vec![0, 0x80, 0xff, b'=', b' '],
        ];
        for n in 70..=80 {
            for tail in [
                &b"x"[..],
                b"=",
                b"\n",
                b" ",
                b"\t",
                b" \r\n",
                b"\xe9",
                b"ab=cd",
            ] {
                let mut line = vec![b'y'; n];
                line.extend_from_slice(tail);
                inputs.push(line.repeat(3));
            }
        }
        for input in inputs {
            assert_eq!(
                encode_binary(&input),
                quoted_printable::encode_binary(&input),
                "{input:?}"
            );
        }
    }

    proptest! {
        /// Gives the crate's bytes for any bytes, mostly of those the encoding treats apart.
        #[test]
        fn encodes_as_the_quoted_printable_crate(
            input in proptest::collection::vec(
                prop_oneof![
                    6 => Just(b'a'),
                    1 => Just(b' '),
                    1 => Just(b'\t'),
                    1 => Just(b'\r'),
                    1 => Just(b'\n'),
                    1 => Just(b'='),
                    1 => any::<u8>(),
                ],
                0..600,
            )
        ) {
            prop_assert_eq!(encode_binary(&input), quoted_printable::encode_binary(&input));
        }
    }
}
