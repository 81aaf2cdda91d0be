//! `pbem verify`: a player's check of his own report, with nothing but the report. It re-derives every
//! roll the report lists from the revealed header and the labels, checks the header's digest, the
//! secret against the commitment, and the seed against the secret and the entropy lines.

use anyhow::{bail, Result};

use crate::dice::{self, Roller};
use crate::game::record::sha256_hex;

/// The public dice header as read back from a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedHeader {
    pub text: String,
    pub digest: String,
    pub game: String,
    pub turn: u32,
    pub commitment: String,
    pub secret: String,
    pub entropy: Vec<(String, String)>,
    pub seed: String,
}

/// One roll as listed in a report: its label, the dice and the faces shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedRoll {
    pub line: usize,
    pub label: String,
    pub sides: Vec<u32>,
    pub faces: Vec<u32>,
}

/// What verifying a report found.
#[derive(Debug)]
pub struct Verification {
    pub header: ParsedHeader,
    /// Problems with the header itself (digest, commitment, seed).
    pub header_problems: Vec<String>,
    /// Each roll and the faces re-derived for it.
    pub rolls: Vec<(ListedRoll, Vec<u32>)>,
    /// The commitment the previous report announced, when given, and whether it matches.
    pub announced: Option<bool>,
}

impl Verification {
    pub fn mismatched_rolls(&self) -> usize {
        self.rolls.iter().filter(|(r, f)| &r.faces != f).count()
    }

    pub fn ok(&self) -> bool {
        self.header_problems.is_empty()
            && self.mismatched_rolls() == 0
            && self.announced != Some(false)
    }
}

/// Reads the header block (from `pbem-dice/v1` to `seed:`) and the `header sha256:` line.
pub fn parse_header(report: &str) -> Result<ParsedHeader> {
    let lines: Vec<&str> = report.lines().collect();
    let Some(start) = lines.iter().position(|l| l.trim_end() == "pbem-dice/v1") else {
        bail!("this report has no pbem-dice/v1 header");
    };
    let mut h = ParsedHeader {
        text: String::new(),
        digest: String::new(),
        game: String::new(),
        turn: 0,
        commitment: String::new(),
        secret: String::new(),
        entropy: Vec::new(),
        seed: String::new(),
    };
    for line in &lines[start..] {
        if let Some(d) = line.strip_prefix("header sha256: ") {
            h.digest = d.trim().to_string();
            break;
        }
        h.text.push_str(line);
        h.text.push('\n');
        let (key, value) = line.split_once(": ").unwrap_or((line, ""));
        match key {
            "game" => h.game = value.to_string(),
            "turn" => h.turn = value.parse().unwrap_or(0),
            "commitment" => h.commitment = value.to_string(),
            "secret" => h.secret = value.to_string(),
            "seed" => h.seed = value.to_string(),
            k if k.starts_with("entropy ") => h
                .entropy
                .push((k["entropy ".len()..].to_string(), value.to_string())),
            _ => {}
        }
    }
    if h.digest.is_empty() {
        bail!("the header of this report has no 'header sha256:' line");
    }
    Ok(h)
}

/// Reads every `roll <label>: <dice> -> <faces>` line.
pub fn parse_rolls(report: &str) -> Vec<ListedRoll> {
    let mut out = Vec::new();
    for (i, line) in report.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("roll ") else {
            continue;
        };
        let Some((label, dice)) = rest.rsplit_once(": ") else {
            continue;
        };
        let Some((sides, faces)) = dice.split_once(" -> ") else {
            continue;
        };
        let sides: Option<Vec<u32>> = sides
            .split_whitespace()
            .map(|d| d.strip_prefix('d').and_then(|n| n.parse().ok()))
            .collect();
        let faces: Option<Vec<u32>> = faces.split_whitespace().map(|f| f.parse().ok()).collect();
        if let (Some(sides), Some(faces)) = (sides, faces) {
            if sides.iter().all(|&n| n > 0) {
                out.push(ListedRoll {
                    line: i + 1,
                    label: label.to_string(),
                    sides,
                    faces,
                });
            }
        }
    }
    out
}

/// Verifies a report; `previous` is the report of the turn before, whose announced commitment is then
/// checked against this report's.
pub fn verify(report: &str, previous: Option<&str>) -> Result<Verification> {
    let header = parse_header(report)?;
    let mut problems = Vec::new();
    if sha256_hex(header.text.as_bytes()) != header.digest {
        problems.push(
            "the header's SHA-256 does not match its text: the header was edited".to_string(),
        );
    }
    let secret = dice::from_hex(&header.secret);
    let commitment = dice::from_hex(&header.commitment);
    match (secret, commitment) {
        (Some(s), Some(c)) if dice::commitment(&header.game, header.turn, &s) == c => {}
        (Some(_), Some(_)) => {
            problems.push("the revealed secret does not match the commitment".to_string())
        }
        _ => problems.push("the secret or the commitment is not 64 hex digits".to_string()),
    }
    let entropy: Option<Vec<(String, dice::Bytes32)>> = header
        .entropy
        .iter()
        .map(|(p, e)| dice::from_hex(e).map(|b| (p.clone(), b)))
        .collect();
    let seed = dice::from_hex(&header.seed);
    match (secret, entropy, seed) {
        (Some(s), Some(e), Some(seed))
            if dice::turn_seed(&header.game, header.turn, &s, &e) == seed => {}
        (Some(_), Some(_), Some(_)) => {
            problems.push("the seed is not the one the secret and the entropy give".to_string())
        }
        _ => problems.push("an entropy value or the seed is not 64 hex digits".to_string()),
    }
    let mut rolls = Vec::new();
    if let Some(seed) = seed {
        for r in parse_rolls(report) {
            let mut roller = Roller::new(&seed, &r.label);
            let derived = r.sides.iter().map(|&n| roller.die(n)).collect();
            rolls.push((r, derived));
        }
    }
    let announced = match previous {
        None => None,
        Some(prev) => Some(
            announced_commitment(prev, header.turn).as_deref() == Some(header.commitment.as_str()),
        ),
    };
    Ok(Verification {
        header,
        header_problems: problems,
        rolls,
        announced,
    })
}

/// The commitment for `turn` that a report announces ("Dice commitment for turn N: ...").
pub fn announced_commitment(report: &str, turn: u32) -> Option<String> {
    let prefix = format!("Dice commitment for turn {turn}: ");
    report
        .lines()
        .find_map(|l| l.trim().strip_prefix(&prefix).map(|c| c.trim().to_string()))
}
