//! The public dice header of a turn (pbem-dice/v1 reveal): the same text in every report of the turn,
//! with its SHA-256, so that players can compare headers among themselves.
//!
//! The header lists a line for each power (its entropy; under v2 its orders digest too), the one part
//! of a report that grows with the world. Every form of a report shows them all in a game of up to
//! [`LISTED_ABOVE`] powers (every game a referee runs by hand); in a larger one the JSON report
//! carries them whole and the text and HTML forms [`DiceHeader::short`], where one [`LISTED`] line
//! stands for the powers' lines by their count and SHA-256 (`pbem verify` puts the JSON report's
//! lines back in its place and checks both).

use serde::Serialize;

use crate::dice::{self, Bytes32};
use crate::game::record::sha256_hex;

/// The revealed dice of a turn.
#[derive(Debug, Clone, Serialize)]
pub struct DiceHeader {
    /// `pbem-dice/v1` or `pbem-dice/v2`.
    pub scheme: &'static str,
    pub game: String,
    pub turn: u32,
    /// `C_t`, hex.
    pub commitment: String,
    /// `R_t`, hex.
    pub secret: String,
    /// `(power, E_p)`, sorted by power.
    pub entropy: Vec<(String, String)>,
    /// `S_t`, hex.
    pub seed: String,
    /// The turn's sealed rolls, `N SHA` (`engine::sealed`); empty when it had none.
    pub sealed: String,
    /// The binding of the events' texts to their dice ([`TEXTS`], `engine::binding`): empty in a
    /// header made before pbem bound them (and in the unit tests' headers).
    pub texts: String,
    /// The digest of the rules fixed with the commitment (`game::rules_fixed`): empty in a header
    /// of a turn committed before pbem fixed them.
    pub rules: String,
    /// The header as text, exactly as hashed.
    pub text: String,
    /// SHA-256 of `text`.
    pub digest: String,
    /// What the text and HTML reports show: `text`, or in a game of more than [`LISTED_ABOVE`]
    /// powers `text` with its powers' lines replaced by one [`LISTED`] line.
    pub short: String,
    /// Whether `short` gives the powers' lines as one [`LISTED`] line (the templates then say where
    /// they are).
    pub listed: bool,
}

/// The header's key for the digest of the rules fixed with the commitment (`game::rules_fixed`).
pub const RULES_KEY: &str = "rules";

/// The header's key for the binding of the events' texts to their dice ([`TEXTS`]).
pub const TEXTS_KEY: &str = "texts";

/// The version of the binding of the events' texts to their dice that a header names
/// (`texts: pbem-texts/v1`): each die an event's text tells is a `{LABEL die N}` of its JSON
/// template, as `engine::binding` writes and reads it.
pub const TEXTS: &str = "pbem-texts/v1";

/// The number of powers above which the text and HTML reports give the powers' lines of the dice
/// header as one [`LISTED`] line (issue 18: at 1,000 powers the list was a third of a report).
pub const LISTED_ABOVE: usize = 100;

/// The key of the line that stands for the powers' lines in [`DiceHeader::short`]:
/// `listed: N powers, sha256 HEX`, N the powers listed and HEX the SHA-256 of their lines (each with
/// its line break) as the header text holds them.
pub const LISTED: &str = "listed";

/// The line that stands for the powers' lines `lines` (`powers` of them) in a short header.
pub fn listed_line(powers: usize, lines: &str) -> String {
    format!(
        "{LISTED}: {powers} power{}, sha256 {}\n",
        if powers == 1 { "" } else { "s" },
        sha256_hex(lines.as_bytes())
    )
}

/// Reads a [`listed_line`]'s value (after `listed: `): the count and the digest.
pub fn parse_listed(value: &str) -> Option<(usize, String)> {
    let (count, digest) = value.split_once(", sha256 ")?;
    let count = count
        .strip_suffix(" powers")
        .or_else(|| count.strip_suffix(" power"))?;
    Some((count.parse().ok()?, digest.trim().to_string()))
}

/// Whether a header line is one of the powers' lines (`entropy <power>: ...`, `orders <power>: ...`).
pub fn is_power_line(line: &str) -> bool {
    line.starts_with("entropy ") || line.starts_with("orders ")
}

/// `head`, the powers' lines `lines` (`powers` of them), then `tail`: the lines as one
/// [`listed_line`] when there are more than [`LISTED_ABOVE`] of them.
fn short(head: &str, powers: usize, lines: &str, tail: &str) -> String {
    if powers > LISTED_ABOVE {
        format!("{head}{}{tail}", listed_line(powers, lines))
    } else {
        format!("{head}{lines}{tail}")
    }
}

impl DiceHeader {
    /// The header of a pbem-dice/v2 turn: the closing list (each power's `D_p` and `E_p` or `none`),
    /// `X_t`, the beacon (`none`, or its round and signature) and `S_t`.
    pub fn v2(
        commitment: &Bytes32,
        secret: &Bytes32,
        close: &crate::engine::close::CloseFile,
        beacon: &str,
        seed: &Bytes32,
    ) -> Self {
        let head = format!(
            "{}\ngame: {}\nturn: {}\ncommitment: {}\nsecret: {}\n",
            crate::dice::v2::SCHEME,
            close.game,
            close.turn,
            dice::to_hex(commitment),
            dice::to_hex(secret)
        );
        let mut lines = String::new();
        for p in &close.powers {
            lines.push_str(&format!("orders {}: {}\n", p.id, p.orders));
            lines.push_str(&format!("entropy {}: {}\n", p.id, p.entropy));
        }
        let tail = format!(
            "close: {}\nbeacon: {beacon}\nseed: {}\n",
            close.close,
            dice::to_hex(seed)
        );
        let text = format!("{head}{lines}{tail}");
        let digest = sha256_hex(text.as_bytes());
        let short = short(&head, close.powers.len(), &lines, &tail);
        let listed = close.powers.len() > LISTED_ABOVE;
        DiceHeader {
            scheme: crate::dice::v2::SCHEME,
            game: close.game.clone(),
            turn: close.turn,
            commitment: dice::to_hex(commitment),
            secret: dice::to_hex(secret),
            entropy: close
                .powers
                .iter()
                .filter(|p| p.entropy != "none")
                .map(|p| (p.id.clone(), p.entropy.clone()))
                .collect(),
            seed: dice::to_hex(seed),
            sealed: String::new(),
            texts: String::new(),
            rules: String::new(),
            text,
            digest,
            short,
            listed,
        }
    }

    /// The header saying that the events' texts are bound to their dice (`texts: pbem-texts/v1`,
    /// after the seed): every JSON report of the turn then carries each event's template, and
    /// `pbem verify` refuses one whose templates were stripped. Its line is in the header every
    /// player holds and compares by its digest, so the referee cannot drop it from one copy alone.
    pub fn with_bound_texts(mut self) -> Self {
        let line = format!("{TEXTS_KEY}: {TEXTS}\n");
        self.text.push_str(&line);
        self.short.push_str(&line);
        self.texts = TEXTS.to_string();
        self.digest = sha256_hex(self.text.as_bytes());
        self
    }

    /// The header naming the rules fixed with the commitment (`rules: HEX`, after the seed,
    /// `game::rules_fixed`); unchanged when the turn was committed before pbem fixed them. Every
    /// player holds the same header: a report resolved under other rules names other ones, and
    /// `pbem verify` compares them with the turn's announcement and the previous report.
    pub fn with_rules(mut self, digest: Option<&str>) -> Self {
        if let Some(d) = digest {
            let line = format!("{RULES_KEY}: {d}\n");
            self.text.push_str(&line);
            self.short.push_str(&line);
            self.rules = d.to_string();
            self.digest = sha256_hex(self.text.as_bytes());
        }
        self
    }

    /// The header with the turn's sealed rolls counted and committed to (`sealed: N SHA`, after the
    /// seed, `engine::sealed`); unchanged when the turn had none.
    pub fn with_sealed(
        mut self,
        events: &[crate::engine::event::Event],
        seal: Option<&Bytes32>,
    ) -> anyhow::Result<Self> {
        if let Some(value) = crate::engine::sealed::header_value(events, seal)? {
            self.text.push_str(&format!("sealed: {value}\n"));
            self.short.push_str(&format!("sealed: {value}\n"));
            self.sealed = value;
            self.digest = sha256_hex(self.text.as_bytes());
        }
        Ok(self)
    }

    pub fn new(
        game: &str,
        turn: u32,
        commitment: &Bytes32,
        secret: &Bytes32,
        entropy: &[(String, Bytes32)],
        seed: &Bytes32,
    ) -> Self {
        let mut entropy: Vec<(String, String)> = entropy
            .iter()
            .map(|(p, e)| (p.clone(), dice::to_hex(e)))
            .collect();
        entropy.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let head = format!(
            "pbem-dice/v1\ngame: {game}\nturn: {turn}\ncommitment: {}\nsecret: {}\n",
            dice::to_hex(commitment),
            dice::to_hex(secret)
        );
        let mut lines = String::new();
        for (p, e) in &entropy {
            lines.push_str(&format!("entropy {p}: {e}\n"));
        }
        let tail = format!("seed: {}\n", dice::to_hex(seed));
        let text = format!("{head}{lines}{tail}");
        let digest = sha256_hex(text.as_bytes());
        let short = short(&head, entropy.len(), &lines, &tail);
        let listed = entropy.len() > LISTED_ABOVE;
        DiceHeader {
            scheme: "pbem-dice/v1",
            game: game.into(),
            turn,
            commitment: dice::to_hex(commitment),
            secret: dice::to_hex(secret),
            entropy,
            seed: dice::to_hex(seed),
            sealed: String::new(),
            texts: String::new(),
            rules: String::new(),
            text,
            digest,
            short,
            listed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_header_stands_for_the_powers_lines_by_their_count_and_digest() {
        let entropy: Vec<(String, Bytes32)> = (0..=LISTED_ABOVE)
            .map(|i| (format!("p{i:04}"), [i as u8; 32]))
            .collect();
        let h = DiceHeader::new("g", 3, &[1; 32], &[2; 32], &entropy, &[5; 32]);
        let lines: String = h
            .text
            .lines()
            .filter(|l| is_power_line(l))
            .flat_map(|l| [l, "\n"])
            .collect();
        assert_eq!(lines.lines().count(), LISTED_ABOVE + 1);
        let listed = listed_line(LISTED_ABOVE + 1, &lines);
        assert!(h.listed);
        assert_eq!(h.short, h.text.replacen(&lines, &listed, 1));
        assert!(!h.short.contains("entropy "));
        let value = listed.trim_end().strip_prefix("listed: ").unwrap();
        assert_eq!(
            parse_listed(value),
            Some((LISTED_ABOVE + 1, sha256_hex(lines.as_bytes())))
        );
        assert_eq!(parse_listed("1 power, sha256 ab"), Some((1, "ab".into())));
        assert_eq!(parse_listed("two powers, sha256 ab"), None);
    }

    #[test]
    fn a_header_of_up_to_listed_above_powers_shows_every_line_in_every_form() {
        let entropy: Vec<(String, Bytes32)> = (0..LISTED_ABOVE)
            .map(|i| (format!("p{i:04}"), [i as u8; 32]))
            .collect();
        let h = DiceHeader::new("g", 3, &[1; 32], &[2; 32], &entropy, &[5; 32]);
        assert!(!h.listed);
        assert_eq!(h.short, h.text);
        assert_eq!(h.text.matches("entropy p").count(), LISTED_ABOVE);
    }
}
