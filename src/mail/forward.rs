//! Orders a player forwards: from another mailbox of his, or a friend's for him. A forward is read as
//! the forwarder's submission, authenticated by its password as any other; the forwarded message's
//! header block (its `From:`, `Date:`, `Subject:`, `To:` lines) is not orders. Read only when the
//! writer's own text above it holds no orders, so that a reply's quoted original never counts: the
//! marks of a forward are the clients' own (Gmail's "---------- Forwarded message ---------",
//! Thunderbird's "-------- Forwarded Message --------", Apple Mail's "Begin forwarded message:"),
//! or Outlook's original block (`-----Original Message-----`, a rule of underscores, or `From:` then
//! `Sent:`), which it writes alike for a reply and a forward, under a subject that says it forwards
//! (`FW:`, `Fwd:`, `WG:`, `TR:`, `RV:`). Pure functions of the lines `extract` cleans.

/// How many forwards in a forward are opened, at most.
pub const MAX_DEPTH: usize = 4;

/// The prefixes of a forward's subject, as the clients write them in their languages (English,
/// German, French, Spanish and Italian, Portuguese, Dutch, Nordic).
const SUBJECT_PREFIXES: [&str; 9] = [
    "fw:", "fwd:", "wg:", "tr:", "rv:", "i:", "enc:", "doorst:", "vs:",
];

/// Whether `subject` says its mail forwards another (`Fwd: orders`, `FW: Re: orders`).
pub fn subject_forwards(subject: &str) -> bool {
    let mut s = subject.trim_start().to_lowercase();
    // A subject the list or the client tagged first: "[ulm] Fwd: orders", "Re: Fwd: orders".
    for _ in 0..4 {
        if SUBJECT_PREFIXES.iter().any(|p| s.starts_with(p)) {
            return true;
        }
        s = match s.strip_prefix('[').and_then(|r| r.split_once(']')) {
            Some((_, rest)) => rest.trim_start().to_string(),
            None => match s.strip_prefix("re:").or_else(|| s.strip_prefix("aw:")) {
                Some(rest) => rest.trim_start().to_string(),
                None => return false,
            },
        };
    }
    false
}

/// Whether a line opens a forwarded message by its own words, whatever the subject.
pub fn is_forward_marker(line: &str) -> bool {
    let lower = line.trim().to_lowercase();
    let words = lower.trim_matches(|c: char| c == '-' || c.is_whitespace());
    (lower.starts_with("---")
        && (words == "forwarded message"
            || words == "weitergeleitete nachricht"
            || words == "message transféré"
            || words == "mensaje reenviado"))
        || lower.starts_with("begin forwarded message")
        || lower.starts_with("début du message réexpédié")
        || lower.starts_with("anfang der weitergeleiteten nachricht")
}

/// The lines of the message forwarded below `lines[cut]`, the line `extract::cut_point` found, its
/// header block left out; `None` when what starts there is not a forward (a signature, a reply's
/// original, or nothing).
pub fn forwarded<'a>(lines: &'a [String], cut: usize, subject: &str) -> Option<&'a [String]> {
    let first = lines.get(cut)?;
    let t = first.trim();
    let lower = t.to_lowercase();
    let outlook = subject_forwards(subject);
    let outlook_mark = outlook
        && ((lower.starts_with("---") && lower.contains("original message"))
            || (t.len() >= 10 && t.chars().all(|c| c == '_')));
    let mut at = if is_forward_marker(first) || outlook_mark {
        cut + 1
    } else if outlook && is_header_line(first) {
        cut
    } else {
        return None;
    };
    while lines.get(at).is_some_and(|l| l.trim().is_empty()) {
        at += 1;
    }
    let headers = at;
    while lines.get(at).is_some_and(|l| is_header_line(l)) {
        at += 1;
    }
    // A forward names its original's sender; a block without one is not a forward's.
    let named_sender = lines[headers..at].iter().any(|l| {
        let l = l.trim_start().trim_start_matches('*').to_lowercase();
        ["from", "von", "de", "da", "van", "fra", "från"]
            .iter()
            .any(|w| l.starts_with(w) && l[w.len()..].trim_start().starts_with([':', '*']))
    });
    while lines.get(at).is_some_and(|l| l.trim().is_empty()) {
        at += 1;
    }
    named_sender.then(|| &lines[at..])
}

/// A line of a forwarded message's header block as the clients print it: a label of at most three
/// words (`From:`, `Sent:`, `Reply-To:`, `Envoyé :`), then a colon, Outlook's bold stars aside.
fn is_header_line(line: &str) -> bool {
    let l = line.trim_start().trim_start_matches('*');
    let Some((label, _)) = l.split_once(':') else {
        return false;
    };
    let label = label.trim_end_matches('*').trim();
    !label.is_empty()
        && label.chars().count() <= 25
        && label.split_whitespace().count() <= 3
        && label
            .chars()
            .all(|c| c.is_alphabetic() || c == '-' || c == ' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn the_clients_marks_open_a_forward_and_its_header_block_is_left_out() {
        let gmail = lines("---------- Forwarded message ---------\nFrom: Jean <j@x.org>\nDate: Sat, Dec 5, 2026 at 5:00 PM\nSubject: orders\nTo: <r@x.org>\n\ngame ulm-1805\n");
        assert_eq!(forwarded(&gmail, 0, "Fwd: orders"), Some(&gmail[6..]));
        let apple =
            lines("Begin forwarded message:\n\nFrom: Jean <j@x.org>\nSubject: orders\n\ngame x\n");
        assert_eq!(forwarded(&apple, 0, "orders"), Some(&apple[5..]));
        let thunderbird = lines("-------- Forwarded Message --------\nSubject: \torders\nDate: \tSat\nFrom: \tJean\nTo: \tr@x.org\n\n\ngame x\n");
        assert_eq!(
            forwarded(&thunderbird, 0, "Fwd: orders"),
            Some(&thunderbird[7..])
        );
    }

    #[test]
    fn an_outlook_original_is_a_forward_only_under_a_forwarding_subject() {
        let original = lines("-----Original Message-----\nFrom: Jean\nSent: Saturday\nTo: x\nSubject: orders\n\ngame x\n");
        assert_eq!(forwarded(&original, 0, "FW: orders"), Some(&original[6..]));
        assert_eq!(forwarded(&original, 0, "RE: orders"), None);
        let rule =
            lines("________________________________\nFrom: Jean\nSent: Saturday\n\ngame x\n");
        assert_eq!(forwarded(&rule, 0, "WG: Befehle"), Some(&rule[4..]));
        assert_eq!(forwarded(&rule, 0, "AW: Befehle"), None);
    }

    #[test]
    fn a_signature_is_no_forward() {
        let sig = lines("-- \nJean\ngame x\n");
        assert_eq!(forwarded(&sig, 0, "Fwd: x"), None);
    }

    #[test]
    fn forwarding_subjects_are_told() {
        for s in [
            "Fwd: orders",
            "FW: orders",
            "[ulm] Fwd: x",
            "Re: Fwd: x",
            "TR: ordres",
        ] {
            assert!(subject_forwards(s), "{s}");
        }
        for s in ["Re: orders", "orders", "Fwdx", "AW: Befehle"] {
            assert!(!subject_forwards(s), "{s}");
        }
    }
}
