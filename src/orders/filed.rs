//! Orders as pbem files them from mail (issue 15.10) and the digest a receipt gives for them (issue
//! 14.2): the model's, so that the mail ingest that files them, the close that lists them, and
//! `pbem verify` that a player runs compute them one way.

/// The orders file pbem files for an authenticated submission (issue 15.10): the text as the turn
/// decodes it, its `turn` line reading `turn`, and its password line replaced by `submission
/// <sha256 of the message>`, which the turn authenticates by the message's record (`game::submission::stands_for`);
/// any other copy of the password in it is starred out. The line count is the player's.
pub fn filed_text(text: &str, turn: u32, message_sha: &str) -> String {
    let text = crate::orders::decode(text.as_bytes()).unwrap_or_else(|_| text.to_string());
    let text = set_turn(&text, turn);
    let (h, _, _) = crate::orders::Header::take(&text, crate::orders::split(&text));
    let Some(pw) = h.password else {
        return text;
    };
    let start = text[..pw.span.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[pw.span.end..]
        .find('\n')
        .map_or(text.len(), |i| pw.span.end + i);
    let mut out = format!(
        "{}{} {message_sha}{}",
        &text[..start],
        crate::orders::header::SUBMISSION,
        &text[end..]
    );
    // Too short a password would star out words of the orders; pbem's own have 19 characters.
    if pw.value.len() >= 6 {
        out = out.replace(&pw.value, crate::diag::PASSWORD_STARS);
    }
    out
}

/// The digest a receipt gives for an orders file (issue 14.2): SHA-256 of the file as [`filed_text`]
/// makes it with the digest of the message left out. pbem files mailed orders with the digest of the
/// message as it arrived, which the player cannot know; without it, the player computes the same
/// digest from the orders he sent (`pbem verify --orders`), and a file the referee placed by hand
/// (with its `password` line) is digested as pbem would have filed it. A file that does not decode is
/// digested as it is.
pub fn receipt_digest(bytes: &[u8]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let Ok(text) = crate::orders::decode(bytes) else {
        return Sha256::digest(bytes).into();
    };
    let (h, _, _) = crate::orders::Header::take(&text, crate::orders::split(&text));
    let canon = match (&h.password, &h.submission) {
        (Some(_), _) => filed_text(&text, h.turn.as_ref().map_or(0, |t| t.value), ""),
        (None, Some(s))
            if s.span.start <= s.span.end
                && s.span.end <= text.len()
                && text.is_char_boundary(s.span.start)
                && text.is_char_boundary(s.span.end) =>
        {
            format!("{}{}", &text[..s.span.start], &text[s.span.end..])
        }
        _ => text,
    };
    Sha256::digest(canon.as_bytes()).into()
}

/// The orders text with its `turn` line reading `turn` (a held submission counts for the turn it is
/// held for); unchanged when it already does or has no turn line.
pub fn set_turn(text: &str, turn: u32) -> String {
    let (h, _, _) = crate::orders::Header::take(text, crate::orders::split(text));
    match h.turn {
        Some(t)
            if t.value != turn
                && text.is_char_boundary(t.span.start)
                && text.is_char_boundary(t.span.end) =>
        {
            format!("{}{turn}{}", &text[..t.span.start], &text[t.span.end..])
        }
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vector of docs/DICE.md: `D_p` of orders mailed with a password is the SHA-256 of the
    /// orders with the password line made `submission ` (the word and one space, the message's
    /// digest left out), which `printf ... | sha256sum` gives.
    #[test]
    fn d_p_is_the_documented_bytes() {
        let sent = "game ulm-1805\npower france\npassword eagle-1805\nturn 1\nentropy the eagle flies at dawn\nmove FR-I Ulm\n";
        assert_eq!(
            hex::encode(receipt_digest(sent.as_bytes())),
            "800d98564447cb6cdca42d70a08fd920b3a3fa8f91d2a8cc099a0bd34c3ed619"
        );
        let filed = filed_text(sent, 1, "");
        assert_eq!(
            filed,
            "game ulm-1805\npower france\nsubmission \nturn 1\nentropy the eagle flies at dawn\nmove FR-I Ulm\n"
        );
    }
}
