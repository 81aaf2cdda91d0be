//! The header of an orders file: `game`, `power`, `password`, `turn`, and the optional `entropy` line
//! (pbem-dice/v1 `E_p`). Header lines may stand anywhere in the file, each at most once.

use super::lexer::Line;
use super::Located;
use crate::diag::{did_you_mean, Diagnostic};
use crate::game::config::GameConfig;
use crate::rule::Rule;

/// The pbem convention that orders must name the game, the power, its password and the turn.
pub const HEADER_RULE: Rule = Rule::new("pbem", "orders/header", "orders name game, power, password and turn");

/// The first words of header lines, in the order the documentation lists them.
pub const HEADER_WORDS: [&str; 5] = ["game", "power", "password", "turn", "entropy"];

/// The header lines of an orders file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header {
    pub game: Option<Located<String>>,
    pub power: Option<Located<String>>,
    /// The password as written; never logged, never echoed.
    pub password: Option<Located<String>>,
    pub turn: Option<Located<u32>>,
    /// The entropy text, trimmed.
    pub entropy: Option<Located<String>>,
}

impl Header {
    /// Takes the header lines out of `lines`, leaving the orders; diagnostics for malformed or repeated
    /// header lines, and for the lines the lexer skipped (too long, too many), which are dropped.
    pub fn take(text: &str, lines: Vec<Line>) -> (Header, Vec<Line>, Vec<Diagnostic>) {
        let mut header = Header::default();
        let mut rest = Vec::new();
        let mut diags = Vec::new();
        for line in lines {
            if let Some(d) = line.skipped_diagnostic() {
                diags.push(d);
                continue;
            }
            let Some(first) = line.tokens.first() else { continue };
            let word = first.text.to_ascii_lowercase();
            let slot_taken = match word.as_str() {
                "game" => header.game.is_some(),
                "power" => header.power.is_some(),
                "password" => header.password.is_some(),
                "turn" => header.turn.is_some(),
                "entropy" => header.entropy.is_some(),
                _ => {
                    rest.push(line);
                    continue;
                }
            };
            if slot_taken {
                diags.push(
                    Diagnostic::error(format!("a second '{word}' line"), line.span.clone())
                        .label("repeated header line: the first one stands")
                        .hint(format!("keep one '{word}' line"))
                        .rule(HEADER_RULE),
                );
                continue;
            }
            if word == "entropy" {
                let value = line.rest_after(text, 1);
                if value.is_empty() {
                    diags.push(
                        Diagnostic::error("the entropy line is empty", line.span.clone())
                            .hint("write any text after 'entropy', or leave the line out")
                            .rule(HEADER_RULE),
                    );
                } else if let Some(t) = line.tokens.get(1) {
                    header.entropy = Some(Located::new(value.to_string(), t.span.start..line.span.end));
                }
                continue;
            }
            let value = match line.tokens.as_slice() {
                [_, value] => value,
                [_] => {
                    diags.push(
                        Diagnostic::error(format!("the '{word}' line has no value"), line.span.clone())
                            .label("a word is missing after this")
                            .hint(format!("write '{word}' and one word after it, as in the example of ORDERS.md"))
                            .rule(HEADER_RULE),
                    );
                    continue;
                }
                [_, _, extra, ..] => {
                    diags.push(
                        Diagnostic::error(format!("the '{word}' line has more than one word"), extra.span.start..line.span.end)
                            .label("one word too many")
                            .hint(format!("write '{word}' and one word after it, as in the example of ORDERS.md"))
                            .rule(HEADER_RULE),
                    );
                    continue;
                }
                [] => continue,
            };
            let located = Located::new(value.text.clone(), value.span.clone());
            match word.as_str() {
                "game" => header.game = Some(located),
                "power" => header.power = Some(located),
                "password" => header.password = Some(located),
                _ => match value.text.parse::<u32>() {
                    Ok(n) => header.turn = Some(Located::new(n, value.span.clone())),
                    Err(_) => diags.push(
                        Diagnostic::error(format!("'{}' is not a turn number", value.text), value.span.clone())
                            .hint("write the number of the turn these orders are for, as in 'turn 1'")
                            .rule(HEADER_RULE),
                    ),
                },
            }
        }
        (header, rest, diags)
    }
}

/// Checks a header against the game and the turn; returns the power's id when the header names a
/// power of this game with its right password, with a diagnostic for every problem. The password is
/// never quoted in a diagnostic.
pub fn check_header(header: &Header, config: &GameConfig, turn: u32, end: usize) -> (Option<String>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let missing = |what: &str, example: &str| {
        Diagnostic::error(format!("the orders have no '{what}' line"), end..end)
            .label("header incomplete")
            .hint(format!("add a line '{example}'"))
            .rule(HEADER_RULE)
    };
    match &header.game {
        None => diags.push(missing("game", &format!("game {}", config.game))),
        Some(g) if !g.value.eq_ignore_ascii_case(&config.game) => diags.push(
            Diagnostic::error(format!("these orders are for game '{}', not '{}'", g.value, config.game), g.span.clone())
                .hint(format!("write 'game {}'", config.game))
                .rule(HEADER_RULE),
        ),
        Some(_) => {}
    }
    match &header.turn {
        None => diags.push(missing("turn", &format!("turn {turn}"))),
        Some(t) if t.value != turn => diags.push(
            Diagnostic::error(format!("these orders are for turn {}, the game is at turn {turn}", t.value), t.span.clone())
                .hint(format!("write 'turn {turn}'"))
                .rule(HEADER_RULE),
        ),
        Some(_) => {}
    }
    let power = match &header.power {
        None => {
            diags.push(missing("power", "power <your power>"));
            None
        }
        Some(p) => match config.power(&p.value) {
            None => {
                let hint = did_you_mean(&p.value, config.power_ids())
                    .map(|s| format!("did you mean '{s}'?"))
                    .unwrap_or_else(|| format!("the powers are: {}", config.power_ids().collect::<Vec<_>>().join(", ")));
                diags.push(Diagnostic::error(format!("no power '{}' in this game", p.value), p.span.clone()).hint(hint).rule(HEADER_RULE));
                None
            }
            Some(pc) => Some(pc),
        },
    };
    let authenticated = match (&header.password, power) {
        (None, _) => {
            diags.push(missing("password", "password <your password>"));
            None
        }
        (Some(_), None) => None,
        (Some(pw), Some(pc)) => {
            if crate::auth::verify_password(pc.password_hash.get_ref(), &pw.value) {
                Some(pc.id.clone())
            } else {
                diags.push(
                    Diagnostic::error(format!("wrong password for {}", pc.name), pw.span.clone())
                        .label("does not match")
                        .hint("check the password the referee sent you; it is case-sensitive")
                        .rule(HEADER_RULE),
                );
                None
            }
        }
    };
    // Only orders whose header is right in every part belong to a power.
    let ok = diags.is_empty();
    (authenticated.filter(|_| ok), diags)
}
