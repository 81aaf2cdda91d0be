//! The header of an orders file: `game`, `power`, `password`, `turn`, the optional `entropy` line
//! (pbem-dice/v1 `E_p`), and the `player` line of a power with several players (`[[power.player]]`).
//! Header lines may stand anywhere in the file, each at most once.

use super::lexer::{Line, HEADER_WORDS};
use super::Located;
use crate::diag::{did_you_mean, Diagnostic};
use crate::game::config::GameConfig;
use crate::rule::Rule;

/// The pbem convention that orders must name the game, the power, its password and the turn.
pub const HEADER_RULE: Rule = Rule::new(
    "pbem",
    "orders/header",
    "orders name game, power, password and turn",
);

/// The message of a password not checked because its sender sent too many wrong ones in this run
/// (`auth::MAX_FAILED_PER_SENDER`): a flood.
pub const PASSWORD_NOT_CHECKED: &str =
    "password not checked: too many wrong passwords from this sender in this run";

/// The header word of a file pbem filed from mail: `submission <sha256 of the message>` stands in for
/// the password line, so that no password is kept (issue 15.10).
pub const SUBMISSION: &str = "submission";

/// The hint for a header line written without its one value, or with more than one: the line as it
/// reads, by example, in the words of the player's own header (a player has the order guide of his
/// game, never pbem's ORDERS.md, so a hint names no document).
fn one_value_hint(word: &str) -> String {
    let example = match word {
        "game" => "game <the game's id, as your welcome mail gives it>",
        "power" => "power <your power>",
        "player" => "player <your player id>",
        "password" => "password <your password>",
        "turn" => "turn <the number of the turn these orders are for>",
        SUBMISSION => "submission <the SHA-256 pbem filed>",
        _ => "",
    };
    if example.is_empty() {
        format!("write '{word}' and one word after it")
    } else {
        format!("write '{word}' and one word after it, as in '{example}'")
    }
}

/// The header lines of an orders file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header {
    pub game: Option<Located<String>>,
    pub power: Option<Located<String>>,
    /// A `power` line of several words (`power Confederate States`, the power's name as the welcome
    /// mail gives it): its words after `power`, and where the second of them starts. Said in
    /// [`check_header_with`], which knows the powers' names and so can name the id to write.
    pub power_words: Option<(Located<String>, usize)>,
    /// The player, for a power with several (`[[power.player]]`).
    pub player: Option<Located<String>>,
    /// The password as written; never logged, never echoed.
    pub password: Option<Located<String>>,
    pub turn: Option<Located<u32>>,
    /// The entropy text, trimmed.
    pub entropy: Option<Located<String>>,
    /// In a file pbem filed from mail, in place of the password: the SHA-256 of the message whose
    /// authentication the file stands on (`mail/received/<sha256>.toml`).
    pub submission: Option<Located<String>>,
    /// The header words whose line was written without one value (none after the word, or more than
    /// one): diagnosed where they stand, so never said missing as well.
    pub unread: Vec<String>,
    /// Lines among the header's that open with a near miss of a header word (`powr france`): the
    /// header word meant, at the word written. A header line said missing is said there.
    pub misspelt: Vec<Located<String>>,
}

impl Header {
    /// Takes the header lines out of `lines`, leaving the orders; diagnostics for malformed or repeated
    /// header lines, and for the lines the lexer skipped (too long, too many), which are dropped.
    pub fn take(text: &str, lines: Vec<Line>) -> (Header, Vec<Line>, Vec<Diagnostic>) {
        let mut header = Header::default();
        let mut rest = Vec::new();
        let mut diags = Vec::new();
        // Where the last header line starts: a near miss of a header word before it is one.
        let mut last_header = 0;
        let mut near: Vec<Located<String>> = Vec::new();
        for line in lines {
            if let Some(d) = line.skipped_diagnostic() {
                diags.push(d);
                continue;
            }
            let Some(first) = line.tokens.first() else {
                continue;
            };
            let word = first.text.to_ascii_lowercase();
            let slot_taken = match word.as_str() {
                "game" => header.game.is_some(),
                "power" => header.power.is_some(),
                "player" => header.player.is_some(),
                "password" => header.password.is_some(),
                "turn" => header.turn.is_some(),
                "entropy" => header.entropy.is_some(),
                SUBMISSION => header.submission.is_some(),
                _ => {
                    if let Some(meant) = did_you_mean(&word, HEADER_WORDS) {
                        near.push(Located::new(meant.to_string(), first.span.clone()));
                    }
                    rest.push(line);
                    continue;
                }
            };
            last_header = line.span.start;
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
                    header.entropy =
                        Some(Located::new(value.to_string(), t.span.start..line.span.end));
                }
                continue;
            }
            let value = match line.tokens.as_slice() {
                [_, value] => value,
                [_] => {
                    diags.push(
                        Diagnostic::error(
                            format!("the '{word}' line has no value"),
                            line.span.clone(),
                        )
                        .label("a word is missing after this")
                        .hint(one_value_hint(&word))
                        .rule(HEADER_RULE),
                    );
                    header.unread.push(word);
                    continue;
                }
                [_, first_word, extra, ..] if word == "power" => {
                    header.power_words = Some((
                        Located::new(
                            line.rest_after(text, 1).to_string(),
                            first_word.span.start..line.span.end,
                        ),
                        extra.span.start,
                    ));
                    header.unread.push(word);
                    continue;
                }
                [_, _, extra, ..] => {
                    diags.push(
                        Diagnostic::error(
                            format!("the '{word}' line has more than one word"),
                            extra.span.start..line.span.end,
                        )
                        .label("one word too many")
                        .hint(one_value_hint(&word))
                        .rule(HEADER_RULE),
                    );
                    header.unread.push(word);
                    continue;
                }
                [] => continue,
            };
            let located = Located::new(value.text.clone(), value.span.clone());
            match word.as_str() {
                "game" => header.game = Some(located),
                "power" => header.power = Some(located),
                "player" => header.player = Some(located),
                "password" => header.password = Some(located),
                SUBMISSION => header.submission = Some(located),
                _ => match value.text.parse::<u32>() {
                    Ok(n) => header.turn = Some(Located::new(n, value.span.clone())),
                    Err(_) => {
                        diags.push(
                            Diagnostic::error(
                                format!("'{}' is not a turn number", value.text),
                                value.span.clone(),
                            )
                            .hint(
                                "write the number of the turn these orders are for, as in 'turn 1'",
                            )
                            .rule(HEADER_RULE),
                        );
                        // Its one reason, said where it stands: not also "no 'turn' line".
                        header.unread.push(word.clone());
                    }
                },
            }
        }
        near.retain(|n| n.span.start < last_header);
        header.misspelt = near;
        (header, rest, diags)
    }
}

/// Checks a header against the game and the turn; returns the power's id when the header names a
/// power of this game with its right password, with a diagnostic for every problem. The password is
/// never quoted in a diagnostic.
pub fn check_header(
    header: &Header,
    config: &GameConfig,
    turn: u32,
    end: usize,
) -> (Option<String>, Vec<Diagnostic>) {
    let own = |p: &str| {
        config
            .power(p)
            .map(|c| vec![c.password_hash.get_ref().clone()])
            .unwrap_or_default()
    };
    check_header_with(header, config, turn, end, &own, &|_, _| false)
}

/// As [`check_header`], with the password hashes that authenticate each power given by `hashes`
/// (a replacement player's, or a controlling power's, EiA 19.2), and `submitted(power, sha256)`
/// telling whether a `submission` line names an authenticated submission of the power that this file
/// is the filed form of.
pub fn check_header_with(
    header: &Header,
    config: &GameConfig,
    turn: u32,
    end: usize,
    hashes: &dyn Fn(&str) -> Vec<String>,
    submitted: &dyn Fn(&str, &str) -> bool,
) -> (Option<String>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    // None for a line written without its one value: that is its one reason, said where it stands.
    let missing = |what: &str, example: &str| {
        (!header.unread.iter().any(|w| w == what)).then(|| {
            match header.misspelt.iter().find(|m| m.value == what) {
                // Said where the header has a near miss of the word.
                Some(m) => {
                    Diagnostic::error(format!("the orders have no '{what}' line"), m.span.clone())
                        .label(format!("not '{what}'"))
                        .hint(format!("did you mean '{what}'? The line reads '{example}'"))
                }
                None => Diagnostic::error(format!("the orders have no '{what}' line"), end..end)
                    .label("header incomplete")
                    .hint(format!("add a line '{example}'")),
            }
            .rule(HEADER_RULE)
        })
    };
    match &header.game {
        None => diags.extend(missing("game", &format!("game {}", config.game))),
        Some(g) if !g.value.eq_ignore_ascii_case(&config.game) => diags.push(
            Diagnostic::error(
                format!(
                    "these orders are for game '{}', not '{}'",
                    g.value, config.game
                ),
                g.span.clone(),
            )
            .hint(format!("write 'game {}'", config.game))
            .rule(HEADER_RULE),
        ),
        Some(_) => {}
    }
    match &header.turn {
        None => diags.extend(missing("turn", &format!("turn {turn}"))),
        // One reason for a turn that is not the game's, with its hint: the turn does not exist, is
        // past, or is not yet.
        Some(t) if t.value != turn => diags.push(
            if t.value < config.first_turn {
                Diagnostic::error(
                    format!(
                        "there is no turn {} in this game: it starts at turn {}",
                        t.value, config.first_turn
                    ),
                    t.span.clone(),
                )
                .hint(format!("write 'turn {turn}', the turn the game is at"))
            } else if t.value < turn {
                Diagnostic::error(
                    format!(
                        "turn {} is already resolved: orders for it are no longer taken",
                        t.value
                    ),
                    t.span.clone(),
                )
                .hint(format!(
                    "the game is at turn {turn}: orders for it are written 'turn {turn}'"
                ))
            } else {
                Diagnostic::error(
                    format!(
                        "these orders are for turn {}, the game is at turn {turn}",
                        t.value
                    ),
                    t.span.clone(),
                )
                .hint(format!("write 'turn {turn}'"))
            }
            .rule(HEADER_RULE),
        ),
        Some(_) => {}
    }
    // The power whose name (game.toml's `name`, as the welcome mail and the reports give it) `words`
    // are, in any case and spacing: the player wrote its name where its id goes.
    let named = |words: &str| {
        let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
        config.powers.iter().find(|p| {
            p.name
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
                == words.to_lowercase()
        })
    };
    let power = match &header.power {
        None => {
            match &header.power_words {
                Some((words, extra)) => diags.push(
                    match named(&words.value) {
                        Some(pc) => Diagnostic::error(
                            format!(
                                "'{}' is the name of a power: the 'power' line gives its id",
                                words.value
                            ),
                            words.span.clone(),
                        )
                        .label("the power's name")
                        .hint(format!("write 'power {}'", pc.id)),
                        None => Diagnostic::error(
                            "the 'power' line has more than one word",
                            *extra..words.span.end,
                        )
                        .label("one word too many")
                        .hint(one_value_hint("power")),
                    }
                    .rule(HEADER_RULE),
                ),
                None => diags.extend(missing("power", "power <your power>")),
            }
            None
        }
        Some(p) => match config.power(&p.value) {
            None => {
                let hint = named(&p.value)
                    .map(|pc| {
                        format!(
                            "'{}' is the name of a power: write its id, 'power {}'",
                            p.value, pc.id
                        )
                    })
                    .or_else(|| {
                        did_you_mean(&p.value, config.power_ids())
                            .map(|s| format!("did you mean '{s}'?"))
                    })
                    .unwrap_or_else(|| {
                        format!(
                            "the powers are: {}",
                            config.power_ids().collect::<Vec<_>>().join(", ")
                        )
                    });
                diags.push(
                    Diagnostic::error(
                        format!("no power '{}' in this game", p.value),
                        p.span.clone(),
                    )
                    .hint(hint)
                    .rule(HEADER_RULE),
                );
                None
            }
            Some(pc) => Some(pc),
        },
    };
    // A power with several players: the file is one player's, who authenticates with his own
    // password (`[[power.player]]`, as he stands at this turn).
    let mut player_hash = None;
    let mut player_id = None;
    if let Some(pc) = power {
        match (&header.player, pc.has_commands()) {
            (None, true) => diags.extend(missing("player", "player <your player id>").map(|d| {
                d.hint(format!(
                    "{} has several players: add a line 'player <id>', one of: {}",
                    pc.name,
                    pc.player_ids()
                ))
            })),
            (Some(pl), true) => match pc.command(&pl.value) {
                Some(c) => {
                    player_hash = Some(c.at(turn).password_hash);
                    player_id = Some(c.id.clone());
                }
                None => diags.push(
                    Diagnostic::error(
                        format!("{} has no player '{}'", pc.name, pl.value),
                        pl.span.clone(),
                    )
                    .hint(format!(
                        "the players of {} are: {}",
                        pc.name,
                        pc.player_ids()
                    ))
                    .rule(HEADER_RULE),
                ),
            },
            (Some(pl), false) => diags.push(
                Diagnostic::error(
                    format!(
                        "{} has one player: its orders have no 'player' line",
                        pc.name
                    ),
                    pl.span.clone(),
                )
                .hint("leave the 'player' line out")
                .rule(HEADER_RULE),
            ),
            (None, false) => {}
        }
    }
    // A turn `audit` re-resolves checks a password line against the hash its record names for the
    // file (`GameConfig::checked_hashes`), whatever game.toml says since.
    let hashes = |p: &str| {
        let stem = crate::game::file_stem(p, player_id.as_deref());
        match (config.checked_hashes.get(&stem), &player_hash) {
            (Some(h), _) | (None, Some(h)) => vec![h.clone()],
            (None, None) => hashes(p),
        }
    };
    let authenticated = match (&header.password, power) {
        (None, Some(pc)) if header.submission.is_some() => {
            let sub = header.submission.as_ref().expect("checked");
            if submitted(&pc.id, &sub.value) {
                Some(pc.id.clone())
            } else {
                diags.push(
                    Diagnostic::error(
                        format!("no authenticated submission of {} is filed as this file", pc.name),
                        sub.span.clone(),
                    )
                    .label("mail/received/ has no matching record")
                    .hint("a 'submission' line stands only in the file pbem filed, unchanged; write the power's 'password' line instead")
                    .rule(HEADER_RULE),
                );
                None
            }
        }
        (None, _) => {
            diags.extend(missing("password", "password <your password>"));
            None
        }
        (Some(_), None) => None,
        // A power with several players whose file names none of them: said above.
        (Some(_), Some(pc)) if pc.has_commands() && player_hash.is_none() => None,
        (Some(_), Some(_)) if header.submission.is_some() => {
            let sub = header.submission.as_ref().expect("checked");
            diags.push(
                Diagnostic::error(
                    "a 'password' line and a 'submission' line",
                    sub.span.clone(),
                )
                .hint("keep the 'password' line: 'submission' is the line pbem files in its place")
                .rule(HEADER_RULE),
            );
            None
        }
        // A player's own check from his report (`pbem check --report`): the report carries no
        // password hash, so the password is the referee's to check.
        (Some(_), Some(pc)) if config.passwords_withheld => Some(pc.id.clone()),
        (Some(pw), Some(pc)) => {
            use crate::auth::{check_password, Verdict};
            let mut verdict = Verdict::NoMatch;
            for h in hashes(&pc.id) {
                match check_password(&h, &pw.value) {
                    Verdict::Match => {
                        verdict = Verdict::Match;
                        break;
                    }
                    Verdict::Refused => verdict = Verdict::Refused,
                    Verdict::NoMatch => {}
                }
            }
            if verdict == Verdict::Match {
                Some(pc.id.clone())
            } else if verdict == Verdict::Refused {
                diags.push(
                    Diagnostic::error(PASSWORD_NOT_CHECKED, pw.span.clone())
                        .label("not checked")
                        .hint(format!(
                            "at most {} wrong passwords per sender are checked in one run: send again later",
                            crate::auth::MAX_FAILED_PER_SENDER
                        ))
                        .rule(HEADER_RULE),
                );
                None
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
    // Only orders whose header is right in every part belong to a power: a header line written
    // without its one value, or with more than one, leaves its part unread (its diagnostic, from
    // `Header::take`, says so): orders whose turn or game cannot be read are not filed for any.
    let ok = diags.is_empty() && header.unread.is_empty();
    (authenticated.filter(|_| ok), diags)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orders::split;
    use crate::rules::eia::test_fixture::{self, header, FRANCE_PASSWORD, TURN};

    /// Reads and checks the header of `text` against the fixture game at its turn.
    fn read(text: &str) -> (Header, Option<String>, Vec<Diagnostic>) {
        let (h, _, mut diags) = Header::take(text, split(text));
        let (power, more) = check_header(&h, &test_fixture::config(), TURN, text.len());
        diags.extend(more);
        (h, power, diags)
    }

    fn one(diags: &[Diagnostic]) -> &Diagnostic {
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert!(diags[0].hint.is_some(), "{:?}", diags[0]);
        assert_eq!(diags[0].rule, Some(HEADER_RULE));
        &diags[0]
    }

    #[test]
    fn a_right_header_authenticates_in_any_order_and_case() {
        let text = format!("TURN 1\nPassword {FRANCE_PASSWORD}\n# comment\nPOWER France\nGame ULM-1805\nentropy  the eagle\u{a0}flies  # at dawn\n");
        let (h, power, diags) = read(&text);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(power.as_deref(), Some("france"));
        assert_eq!(h.entropy.unwrap().value, "the eagle\u{a0}flies");
    }

    #[test]
    fn a_header_word_misspelt_is_said_where_it_stands_a_missing_one_at_the_end() {
        let text = format!(
            "game ulm-1805\npowr france\npassword {FRANCE_PASSWORD}\nturn 1\nmove FR-I Ulm\n"
        );
        let (_, power, diags) = read(&text);
        assert_eq!(power, None);
        let d = one(&diags);
        assert_eq!(d.message, "the orders have no 'power' line");
        assert_eq!(&text[d.span.clone()], "powr");
        assert_eq!(
            d.hint.as_deref(),
            Some("did you mean 'power'? The line reads 'power <your power>'")
        );
        // A near miss among the orders, after the header, is an order, not a header line.
        let text = format!("game ulm-1805\npassword {FRANCE_PASSWORD}\nturn 1\npowr france\n");
        let (_, _, diags) = read(&text);
        assert_eq!(one(&diags).span, text.len()..text.len());
    }

    #[test]
    fn wrong_password_is_rejected_and_never_shown() {
        let secret = "Hunter2-oops";
        let text = header("france", secret);
        let (_, power, diags) = read(&text);
        let d = one(&diags);
        assert_eq!(d.message, "wrong password for France");
        assert_eq!(
            d.hint.as_deref(),
            Some("check the password the referee sent you; it is case-sensitive")
        );
        assert_eq!(power, None);
        assert_eq!(test_fixture::source(&text).line_col(d.span.start), (3, 10));
        let rendered = test_fixture::source(&text).render(&diags);
        assert!(rendered.contains("wrong password for France"), "{rendered}");
        assert!(!rendered.contains(secret), "{rendered}");
    }

    #[test]
    fn a_password_line_with_two_words_is_not_shown_either() {
        let text = format!(
            "game ulm-1805\npower france\npassword {FRANCE_PASSWORD} extra-secret\nturn 1\n"
        );
        let (_, power, diags) = read(&text);
        assert_eq!(power, None);
        assert_eq!(
            diags[0].message,
            "the 'password' line has more than one word"
        );
        let rendered = test_fixture::source(&text).render(&diags);
        assert!(
            !rendered.contains("extra-secret") && !rendered.contains(FRANCE_PASSWORD),
            "{rendered}"
        );
    }

    #[test]
    fn wrong_game_is_rejected() {
        let text =
            format!("game austerlitz-1805\npower france\npassword {FRANCE_PASSWORD}\nturn 1\n");
        let (_, power, diags) = read(&text);
        let d = one(&diags);
        assert_eq!(
            d.message,
            "these orders are for game 'austerlitz-1805', not 'ulm-1805'"
        );
        assert_eq!(d.hint.as_deref(), Some("write 'game ulm-1805'"));
        assert_eq!(&text[d.span.clone()], "austerlitz-1805");
        assert_eq!(power, None);
    }

    #[test]
    fn wrong_turn_is_rejected() {
        let text = format!("game ulm-1805\npower france\npassword {FRANCE_PASSWORD}\nturn 2\n");
        let (_, power, diags) = read(&text);
        let d = one(&diags);
        assert_eq!(
            d.message,
            "these orders are for turn 2, the game is at turn 1"
        );
        assert_eq!(d.hint.as_deref(), Some("write 'turn 1'"));
        assert_eq!(power, None);
        let text = format!("game ulm-1805\npower france\npassword {FRANCE_PASSWORD}\nturn one\n");
        let (_, _, diags) = read(&text);
        assert_eq!(diags[0].message, "'one' is not a turn number");
        assert!(diags[0].hint.is_some());
    }

    #[test]
    fn unknown_power_is_rejected_with_did_you_mean() {
        let (_, power, diags) = read(&header("frnace", FRANCE_PASSWORD));
        let d = one(&diags);
        assert_eq!(d.message, "no power 'frnace' in this game");
        assert_eq!(d.hint.as_deref(), Some("did you mean 'france'?"));
        assert_eq!(power, None);
        let (_, _, diags) = read(&header("prussia", FRANCE_PASSWORD));
        assert_eq!(
            one(&diags).hint.as_deref(),
            Some("the powers are: france, austria")
        );
    }

    #[test]
    fn duplicate_header_lines_are_rejected_and_the_first_stands() {
        let text = format!(
            "{}power austria\nturn 1\n",
            header("france", FRANCE_PASSWORD)
        );
        let (h, power, diags) = read(&text);
        let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages, ["a second 'power' line", "a second 'turn' line"]);
        assert!(diags
            .iter()
            .all(|d| d.hint.is_some() && d.rule == Some(HEADER_RULE)));
        assert_eq!(diags[0].hint.as_deref(), Some("keep one 'power' line"));
        assert_eq!(h.power.unwrap().value, "france");
        assert_eq!(power.as_deref(), Some("france"));
    }

    #[test]
    fn a_player_line_is_refused_for_a_power_of_one_player() {
        let text = format!("{}player ney\n", header("france", FRANCE_PASSWORD));
        let (h, power, diags) = read(&text);
        let d = one(&diags);
        assert_eq!(
            d.message,
            "France has one player: its orders have no 'player' line"
        );
        assert_eq!(&text[d.span.clone()], "ney");
        assert_eq!(h.player.unwrap().value, "ney");
        assert_eq!(power, None);
    }

    /// A password line with no value gets that one reason, where it stands (line 3, column 1),
    /// with a hint; not "no 'password' line" as well.
    #[test]
    fn a_password_line_without_a_value_gets_one_reason_where_it_stands() {
        let text = "game ulm-1805\npower france\npassword\nturn 1\n";
        let (_, power, diags) = read(text);
        let d = one(&diags);
        assert_eq!(d.message, "the 'password' line has no value");
        assert_eq!(&text[d.span.clone()], "password");
        assert_eq!(d.span.start, text.find("password").unwrap());
        assert_eq!(power, None);
    }

    #[test]
    fn header_lines_without_a_value_are_rejected() {
        let (_, power, diags) = read("game\npower france\npassword\nturn 1\nentropy\n");
        let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "the 'game' line has no value",
                "the 'password' line has no value",
                "the entropy line is empty",
            ]
        );
        assert!(diags.iter().all(|d| d.hint.is_some()));
        assert_eq!(power, None);
    }
}
