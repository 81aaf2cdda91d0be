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
///
/// As the crate writes it: the input is a row of pieces (a literal byte, or `=XX` for a byte that
/// must be encoded, and for a space or tab before a CRLF or at the end: RFC 2045 6.7, rule 3),
/// and each line takes the pieces that leave room for the soft break's `=` (75 bytes), the last
/// line up to 76. Runs of literal bytes are copied at once.
pub fn encode_binary(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() + input.len() / 4 + 3);
    encode_binary_into(input, &mut out);
    out
}

/// At least the length of [`encode_binary`] of `input`, measured without encoding it: its pieces
/// (three bytes for each byte written `=XX`, one for the others), and a soft line break after
/// every 73 bytes of them (a line breaks only when its next piece of at most three bytes would
/// pass 75).
pub fn encoded_len_at_most(input: &[u8]) -> usize {
    let pieces = input.len() + 2 * escaped(input);
    pieces + 3 * (pieces / 73) + 3
}

/// How many bytes of `input` are written `=XX`: those not [`LITERAL`] (counted without a branch,
/// so that the count runs on vectors), and the blanks that end a line (a space or tab before a
/// CRLF, found by `memchr`, or last).
fn escaped(input: &[u8]) -> usize {
    let encoded = |b: u8| u8::from(!(((b.wrapping_sub(b' ') < 95) & (b != b'=')) | (b == b'\t')));
    // At most 255 a chunk, so that a byte counts them.
    let not_literal: usize = input
        .chunks(255)
        .map(|chunk| usize::from(chunk.iter().fold(0u8, |n, &b| n + encoded(b))))
        .sum();
    let blank = |at: usize| matches!(input.get(at), Some(b' ' | b'\t'));
    let before_crlf = memchr::memchr_iter(b'\r', input)
        .filter(|&at| at > 0 && input.get(at + 1) == Some(&b'\n') && blank(at - 1))
        .count();
    let last = input.len().checked_sub(1).is_some_and(blank);
    not_literal + before_crlf + usize::from(last)
}

/// The length of [`encode_binary`] of `input`, counted without writing it (a report mail over its
/// size is measured, then cut, never encoded whole; every report's text is measured, issue 39).
///
/// Counted from the bytes to escape alone, found 64 at a time without a branch (1.4 to 2.6 times
/// the speed of counting as [`encode_binary`] writes, on a report's four files): between two of
/// them, a run of literal bytes fills the line and breaks it every 75 bytes, which is arithmetic;
/// each escaped piece then goes where [`Lines::put`] puts it. The pieces are [`encode_binary`]'s
/// (a CRLF is its two bytes escaped, a blank before it escaped too).
pub fn encoded_len(input: &[u8]) -> usize {
    let mut line = LineCount::default();
    let mut at = 0;
    let last = input.len().wrapping_sub(1);
    for e in to_escape(input) {
        // A blank before a CRLF is escaped; it ends the run of literal bytes before the CR.
        let blank_first = e > at
            && input[e] == b'\r'
            && input.get(e + 1) == Some(&b'\n')
            && matches!(input[e - 1], b' ' | b'\t');
        let run = e - at - usize::from(blank_first);
        line.literal(run, false);
        if blank_first {
            line.escaped(false);
        }
        line.escaped(e == last);
        at = e + 1;
    }
    if at < input.len() {
        // The run to the end, whose last byte is escaped when it is a blank.
        let blank_last = matches!(input[last], b' ' | b'\t');
        line.literal(input.len() - at - usize::from(blank_last), !blank_last);
        if blank_last {
            line.escaped(true);
        }
    }
    line.size
}

/// The bytes of quoted-printable lines put one piece at a time, counted ([`encoded_len`]): the
/// rule of [`Lines::put`] without the bytes.
#[derive(Default)]
struct LineCount {
    size: usize,
    on_line: usize,
}

impl LineCount {
    /// A run of `len` literal bytes, its last the input's last when `ends`: each goes on the line
    /// while it holds fewer than 75 bytes, after a soft break when it is full (the input's last
    /// byte also on a full line, making it 76).
    fn literal(&mut self, len: usize, ends: bool) {
        let plain = len - usize::from(ends && len > 0);
        self.size += len;
        let end = self.on_line + plain;
        if end < LIMIT {
            self.on_line = end;
        } else {
            let over = end - (LIMIT - 1);
            let breaks = over.div_ceil(LIMIT - 1);
            self.size += 3 * breaks;
            self.on_line = over - (LIMIT - 1) * (breaks - 1);
        }
        if ends && len > 0 {
            self.on_line += 1;
        }
    }

    /// A piece `=XX`, the input's last when `last`.
    fn escaped(&mut self, last: bool) {
        let end = self.on_line + 3;
        if end > LIMIT - 1 && !(last && end == LIMIT) {
            self.size += 3;
            self.on_line = 0;
        }
        self.on_line += 3;
        self.size += 3;
    }
}

/// The positions of the bytes that are not [`LITERAL`], in order: judged 64 at a time without a
/// branch (into a byte each, which the compiler does on vectors), the 64 made a mask eight bytes
/// at a time (a multiplication gathers their low bits into one byte), then read off the mask.
fn to_escape(input: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let not_literal =
        |b: u8| u8::from(!(((b.wrapping_sub(b' ') < 95) & (b != b'=')) | (b == b'\t')));
    input.chunks(64).enumerate().flat_map(move |(k, chunk)| {
        let mut flags = [0u8; 64];
        for (flag, &b) in flags.iter_mut().zip(chunk) {
            *flag = not_literal(b);
        }
        let mut mask = 0u64;
        for (i, eight) in flags.chunks_exact(8).enumerate() {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(eight);
            // Byte j (0 or 1) of `x` lands on bit 56 + j of the product, with no carry.
            let x = u64::from_le_bytes(bytes);
            mask |= (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
        }
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                64 * k + i
            })
        })
    })
}

/// [`encode_binary`] of `input`, written at the end of `out`.
pub fn encode_binary_into(input: &[u8], out: &mut Vec<u8>) {
    encode_into(input, out);
}

/// [`encode_binary`] of `input`, handed to `out` piece by piece (`outbox`: each body written
/// where the message's layout marks it).
pub fn encode_binary_to(input: &[u8], out: &mut impl Sink) {
    encode_into(input, out);
}

/// Where encoded bytes go.
pub trait Sink {
    fn extend_from_slice(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    #[inline]
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        Vec::extend_from_slice(self, bytes);
    }
}

fn encode_into<S: Sink>(input: &[u8], out: &mut S) {
    let mut out = Lines { out, on_line: 0 };
    let mut at = 0;
    while let Some(&byte) = input.get(at) {
        let room = (LIMIT - 1).saturating_sub(out.on_line);
        if LITERAL[byte as usize] && room > 0 {
            let end = input.len().min(at + room);
            let mut run = at + literal_run(&input[at..end]);
            // (A run cut short by the line is followed by a literal byte: no trailing blank.)
            if trailing_blank(input, run - 1) {
                run -= 1;
            }
            if run > at {
                out.out.extend_from_slice(&input[at..run]);
                out.on_line += run - at;
                at = run;
                continue;
            }
        }
        let next = input.get(at + 1).copied();
        let escaped = |b: u8| [b'=', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]];
        match byte {
            b'\r' if next == Some(b'\n') => {
                out.put(&escaped(b'\r'), false);
                at += 2;
                out.put(&escaped(b'\n'), at == input.len());
            }
            _ if LITERAL[byte as usize] && !trailing_blank(input, at) => {
                at += 1;
                out.put(&[byte], at == input.len());
            }
            _ => {
                at += 1;
                out.put(&escaped(byte), at == input.len());
            }
        }
    }
}

/// How many bytes at the start are literal: 16 at a time while each is printable ASCII but `=`
/// (judged without a branch, so that the check runs on vectors), then one at a time.
fn literal_run(bytes: &[u8]) -> usize {
    let printable = |ok: bool, &b: &u8| ok & (b.wrapping_sub(b' ') < 95) & (b != b'=');
    let whole = bytes
        .chunks_exact(16)
        .take_while(|chunk| chunk.iter().fold(true, printable))
        .count()
        * 16;
    whole
        + bytes[whole..]
            .iter()
            .position(|&b| !LITERAL[b as usize])
            .unwrap_or(bytes.len() - whole)
}

/// Whether the byte at `at` is a space or tab that ends a line: before a CRLF, or last.
fn trailing_blank(input: &[u8], at: usize) -> bool {
    matches!(input[at], b' ' | b'\t')
        && matches!(input.get(at + 1..), Some([]) | Some([b'\r', b'\n', ..]))
}

/// The encoded bytes so far, with the length of the current line.
struct Lines<'o, S: Sink> {
    out: &'o mut S,
    on_line: usize,
}

impl<S: Sink> Lines<'_, S> {
    /// Puts a piece on the line, after a soft line break unless it leaves room for the break's `=`
    /// or, being the last, fits.
    fn put(&mut self, piece: &[u8], last: bool) {
        let end = self.on_line + piece.len();
        if end > LIMIT - 1 && !(last && end == LIMIT) {
            self.out.extend_from_slice(b"=\r\n");
            self.on_line = 0;
        }
        self.out.extend_from_slice(piece);
        self.on_line += piece.len();
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
            let encoded = encode_binary(&input);
            assert_eq!(
                encoded,
                quoted_printable::encode_binary(&input),
                "{input:?}"
            );
            assert_eq!(encoded.len(), encoded_len(&input), "{input:?}");
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
            let encoded = encode_binary(&input);
            prop_assert_eq!(&encoded, &quoted_printable::encode_binary(&input));
            prop_assert!(encoded.len() <= encoded_len_at_most(&input));
            let escaped_one_by_one = (0..input.len())
                .filter(|&at| !LITERAL[input[at] as usize] || trailing_blank(&input, at))
                .count();
            prop_assert_eq!(escaped(&input), escaped_one_by_one);
            prop_assert_eq!(encoded.len(), encoded_len(&input));
        }

        /// Counts the length of what it writes for long runs of literal bytes (a line broken
        /// once or many times between two bytes to escape) and what stands between them.
        #[test]
        fn counts_the_length_it_writes_across_long_runs(
            runs in proptest::collection::vec(
                (0..400usize, proptest::sample::select(vec![
                    &b""[..], b"\n", b"\r\n", b" \r\n", b"\t", b" ", b"=", b"\xc3\xa9", b"\r",
                ])),
                0..12,
            )
        ) {
            let input: Vec<u8> = runs
                .iter()
                .flat_map(|(n, then)| std::iter::repeat_n(b'a', *n).chain(then.iter().copied()))
                .collect();
            prop_assert_eq!(encode_binary(&input).len(), encoded_len(&input));
        }
    }
}
