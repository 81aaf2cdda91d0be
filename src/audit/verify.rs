//! `pbem verify`: a player's check of his own report, with nothing but what he received. For every
//! form of the report he holds (`forms.rs`: the mail as saved, text, HTML, JSON) it checks the
//! header's digest, the secret against the commitment, the seed against the secret and the entropy,
//! re-derives every roll listed from its label, checks that no label is listed twice and that the
//! numbers an event's text gives agree with its roll, and that every form lists the same header and
//! the same rolls. Anchors tie the commitment to one published before the deadline; his own orders
//! tie his entropy.

use anyhow::{bail, Result};

use super::forms::{squash, Form, ReportForm};
use crate::dice::{self, Roller};
use crate::game::record::sha256_hex;

/// The public dice header as read back from a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedHeader {
    /// `pbem-dice/v1` or `pbem-dice/v2`.
    pub scheme: String,
    pub text: String,
    pub digest: String,
    pub game: String,
    pub turn: u32,
    pub commitment: String,
    pub secret: String,
    /// `(power, E_p)`; under v2 `E_p` may be `none`.
    pub entropy: Vec<(String, String)>,
    /// v2: `(power, D_p)` of the closing list.
    pub orders: Vec<(String, String)>,
    /// v2: `X_t`.
    pub close: String,
    /// v2: `none`, or the beacon.
    pub beacon: String,
    pub seed: String,
    /// The turn's sealed rolls, `N SHA` (`engine::sealed`); empty when the header has no `sealed:`
    /// line (the turn had none).
    pub sealed: String,
    /// The binding of the events' texts to their dice its `texts:` line names (`pbem-texts/v1`,
    /// `report::header::TEXTS`); empty in a header written before pbem bound them.
    pub texts: String,
    /// The digest of the rules fixed with the commitment its `rules:` line names
    /// (`game::rules_fixed`); empty in a header of a turn committed before pbem fixed them.
    pub rules: String,
    /// The `listed: N powers, sha256 HEX` line of a short header (text and HTML reports), which
    /// stands for the powers' lines: `(N, HEX)`; none when the header lists them (JSON report).
    pub listed: Option<(usize, String)>,
}

impl ParsedHeader {
    /// The powers the header lists (v2: its closing list; v1: the entropy lines).
    fn powers(&self) -> usize {
        if self.orders.is_empty() {
            self.entropy.len()
        } else {
            self.orders.len()
        }
    }

    /// This short header with the powers' lines of `full` (a header that lists them) in place of its
    /// `listed:` line, when they are the lines it stands for; else why not.
    pub fn completed(&self, full: &ParsedHeader) -> std::result::Result<ParsedHeader, String> {
        let Some((count, digest)) = &self.listed else {
            return Ok(self.clone());
        };
        let lines: String = full
            .text
            .lines()
            .filter(|l| crate::report::header::is_power_line(l))
            .flat_map(|l| [l, "\n"])
            .collect();
        if *count != full.powers() || !digest.eq_ignore_ascii_case(&sha256_hex(lines.as_bytes())) {
            return Err(format!(
                "its line 'listed: {count} powers, sha256 {digest}' is not the {} power(s) the other lists",
                full.powers()
            ));
        }
        let mut text = String::new();
        for line in self.text.lines() {
            if line.starts_with("listed: ") {
                text.push_str(&lines);
            } else {
                text.push_str(line);
                text.push('\n');
            }
        }
        parse_header(&format!("{text}header sha256: {}\n", self.digest))
            .map_err(|e| format!("{e:#}"))
    }
}

/// One roll as listed in a report: its label, the dice and the faces shown, and the text of the event
/// it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedRoll {
    /// The line of a text report, the event's number in a JSON report.
    pub line: usize,
    pub label: String,
    pub sides: Vec<u32>,
    pub faces: Vec<u32>,
    pub event: String,
    /// Where its event is: the line of a text report, the event's number in a JSON report. The rolls
    /// of one event share it.
    pub event_at: usize,
    /// The kind of its event (`round`, `siege`): the JSON report's, none in a text report.
    pub event_kind: Option<String>,
    /// The place of its event, when it has one: the JSON report's, none in a text report.
    pub event_area: Option<String>,
}

/// Where the commitment a report must match comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// "--commitment", "the announcement mail", "the previous report".
    pub source: String,
    /// The commitment, hex.
    pub commitment: String,
    /// Whether the anchor says the reports' headers bind the events' texts to their dice: the
    /// previous report's header names the binding (a game that bound them binds them every turn
    /// after), or the announcement promises it; a report whose header does not had the line
    /// dropped.
    pub texts: bool,
    /// The digest of the rules fixed with the commitment (`game::rules_fixed`), when the anchor
    /// names it (the announcement, the previous report): the report's header must name the same.
    pub rules: Option<String>,
}

/// What the player's own orders say he sent: his power and the text of his entropy line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentOrders {
    pub power: String,
    pub entropy: Option<String>,
    /// `E_p` (hex) as an acknowledgement gives it, instead of the text of the entropy line.
    pub entropy_hash: Option<String>,
    /// SHA-256 of the orders as pbem files them (hex): under v2, `D_p` must be this.
    pub digest: String,
}

/// A closing list as the closing mail gives it (pbem-dice/v2): game, turn, `X_t` and each power's
/// `(id, D_p, E_p or none)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClosingMail {
    pub game: String,
    pub turn: u32,
    pub close: String,
    pub powers: Vec<(String, String, String)>,
}

/// What verifying a report found.
#[derive(Debug)]
pub struct Verification {
    /// The header of the first form read.
    pub header: ParsedHeader,
    /// The forms read, in the order found.
    pub forms: Vec<Form>,
    /// Every problem found, each a sentence.
    pub problems: Vec<String>,
    /// Each roll (of the first form) and the faces re-derived for it.
    pub rolls: Vec<(ListedRoll, Vec<u32>)>,
    /// What was checked and held, each a sentence.
    pub passed: Vec<String>,
    /// Whether an anchor was given: without one, nothing ties the commitment to the deadline.
    pub anchored: bool,
    /// What could not be checked with the forms given, each a sentence (a text or HTML report
    /// alone, whose texts carry no template).
    pub unchecked: Vec<String>,
}

impl Verification {
    pub fn mismatched_rolls(&self) -> usize {
        self.rolls.iter().filter(|(r, f)| &r.faces != f).count()
    }

    pub fn ok(&self) -> bool {
        self.problems.is_empty() && self.mismatched_rolls() == 0
    }
}

/// Reads the header block (from `pbem-dice/v1` to `seed:`) and the `header sha256:` line.
pub fn parse_header(report: &str) -> Result<ParsedHeader> {
    let lines: Vec<&str> = report.lines().collect();
    let Some(start) = lines
        .iter()
        .position(|l| matches!(l.trim_end(), "pbem-dice/v1" | "pbem-dice/v2"))
    else {
        bail!("this report has no pbem-dice/v1 or pbem-dice/v2 header");
    };
    let mut h = ParsedHeader {
        scheme: lines[start].trim_end().to_string(),
        orders: Vec::new(),
        close: String::new(),
        beacon: String::new(),
        text: String::new(),
        digest: String::new(),
        game: String::new(),
        turn: 0,
        commitment: String::new(),
        secret: String::new(),
        entropy: Vec::new(),
        seed: String::new(),
        sealed: String::new(),
        texts: String::new(),
        rules: String::new(),
        listed: None,
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
            "close" => h.close = value.to_string(),
            "beacon" => h.beacon = value.to_string(),
            "sealed" => h.sealed = value.to_string(),
            crate::report::header::TEXTS_KEY => h.texts = value.to_string(),
            crate::report::header::RULES_KEY => h.rules = value.to_string(),
            crate::report::header::LISTED => {
                h.listed = crate::report::header::parse_listed(value)
                    .or(Some((usize::MAX, value.to_string())));
            }
            k if k.starts_with("orders ") => h
                .orders
                .push((k["orders ".len()..].to_string(), value.to_string())),
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

/// Reads every `roll <label>: <dice> -> <faces>` line, each with the text of its event: the nearest
/// line above that is neither a roll nor a `[rule]` line (a text report's `- ` dropped).
pub fn parse_rolls(report: &str) -> Vec<ListedRoll> {
    let mut out = Vec::new();
    let mut event = String::new();
    let mut event_at = 0;
    for (i, line) in report.lines().enumerate() {
        let trimmed = line.trim();
        let Some(rest) = trimmed.strip_prefix("roll ") else {
            if !trimmed.is_empty() && !trimmed.starts_with('[') {
                event = trimmed.strip_prefix("- ").unwrap_or(trimmed).to_string();
                event_at = i + 1;
            }
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
                    event: event.clone(),
                    event_at,
                    event_kind: None,
                    event_area: None,
                });
            }
        }
    }
    out
}

/// Whether `small` is a subsequence of `big` (in order, gaps allowed).
fn is_subsequence(small: &[u32], big: &[u32]) -> bool {
    let mut it = big.iter();
    small.iter().all(|x| it.any(|y| y == x))
}

/// The checks of one header: digest, commitment, seed.
fn check_header(h: &ParsedHeader, problems: &mut Vec<String>) -> Option<dice::Bytes32> {
    if sha256_hex(h.text.as_bytes()) != h.digest {
        problems.push("the header's SHA-256 does not match its text: the header was edited".into());
    }
    let secret = dice::from_hex(&h.secret);
    let commitment = dice::from_hex(&h.commitment);
    match (secret, commitment) {
        (Some(s), Some(c)) if dice::commitment(&h.game, h.turn, &s) == c => {}
        (Some(_), Some(_)) => {
            problems.push("the revealed secret does not match the commitment".into())
        }
        _ => problems.push("the secret or the commitment is not 64 hex digits".into()),
    }
    if h.scheme == crate::dice::v2::SCHEME {
        return check_header_v2(h, secret, problems);
    }
    let entropy: Option<Vec<(String, dice::Bytes32)>> = h
        .entropy
        .iter()
        .map(|(p, e)| dice::from_hex(e).map(|b| (p.clone(), b)))
        .collect();
    let seed = dice::from_hex(&h.seed);
    match (secret, entropy, seed) {
        (Some(s), Some(e), Some(seed)) if dice::turn_seed(&h.game, h.turn, &s, &e) == seed => {}
        (Some(_), Some(_), Some(_)) => {
            problems.push("the seed is not the one the secret and the entropy give".into())
        }
        _ => problems.push("an entropy value or the seed is not 64 hex digits".into()),
    }
    seed
}

/// The v2 checks: `X_t` against the closing list the header lists, `S_t` against `R_t` and `X_t`.
fn check_header_v2(
    h: &ParsedHeader,
    secret: Option<dice::Bytes32>,
    problems: &mut Vec<String>,
) -> Option<dice::Bytes32> {
    let mut list = Vec::new();
    for (power, d) in &h.orders {
        let e = h.entropy.iter().find(|(p, _)| p == power).map(|(_, e)| e);
        let entropy = match e.map(String::as_str) {
            None | Some("none") => None,
            Some(x) => match dice::from_hex(x) {
                Some(b) => Some(b),
                None => {
                    problems.push(format!("the entropy of {power} is not 64 hex digits"));
                    return None;
                }
            },
        };
        let Some(orders) = dice::from_hex(d) else {
            problems.push(format!("the orders digest of {power} is not 64 hex digits"));
            return None;
        };
        list.push(crate::dice::v2::Closed {
            power: power.clone(),
            orders,
            entropy,
        });
    }
    if let Some((p, _)) = h
        .entropy
        .iter()
        .find(|(p, _)| !h.orders.iter().any(|(q, _)| q == p))
    {
        problems.push(format!(
            "the header lists entropy for {p}, who is not on the closing list"
        ));
    }
    let x = crate::dice::v2::close_digest(&h.game, h.turn, &list);
    if dice::to_hex(&x) != h.close {
        problems
            .push("the closing digest is not the one the listed orders and entropy give".into());
    }
    let beacon = if h.beacon == "none" {
        Vec::new()
    } else {
        match crate::dice::beacon::from_header(&h.beacon) {
            Ok(b) => b,
            Err(e) => {
                problems.push(format!("the beacon does not check out: {e:#}"));
                return None;
            }
        }
    };
    let seed = dice::from_hex(&h.seed);
    match (secret, seed) {
        (Some(s), Some(seed))
            if crate::dice::v2::turn_seed(&h.game, h.turn, &s, &x, &beacon) == seed => {}
        (Some(_), Some(_)) => {
            problems.push("the seed is not the one the secret and the closing list give".into())
        }
        _ => problems.push("the secret or the seed is not 64 hex digits".into()),
    }
    seed
}

/// Verifies the forms of one report against the anchors, the closing mail and the player's own
/// orders.
pub fn verify(
    forms: &[ReportForm],
    anchors: &[Anchor],
    closing: Option<&ClosingMail>,
    sent: Option<&SentOrders>,
) -> Result<Verification> {
    let mut problems = Vec::new();
    let forms = &completed(forms, &mut problems)?;
    let Some(first) = forms.first() else {
        bail!("no report to verify");
    };
    let header = first.header.clone();
    let mut passed = Vec::new();
    let seed = check_header(&header, &mut problems);
    if problems.is_empty() {
        passed.push(format!(
            "the header's digest holds, the secret matches the commitment and the seed is the one the secret and {} entropy value(s) give",
            header.entropy.len()
        ));
    }
    let mut unchecked = check_texts_bound(forms, &header, anchors, &mut problems, &mut passed);
    check_rules(&header, anchors, &mut problems, &mut passed);
    // Every form: the same header, the same rolls, no label twice, text that agrees with its dice.
    for f in forms {
        if f.header != header {
            problems.push(format!(
                "the {} report's dice header differs from the {} report's",
                f.form.name(),
                first.form.name()
            ));
        }
        if f.rolls
            .iter()
            .map(|r| (&r.label, &r.sides, &r.faces))
            .collect::<Vec<_>>()
            != first
                .rolls
                .iter()
                .map(|r| (&r.label, &r.sides, &r.faces))
                .collect::<Vec<_>>()
        {
            problems.push(format!(
                "the {} report lists other rolls than the {} report ({} against {})",
                f.form.name(),
                first.form.name(),
                f.rolls.len(),
                first.rolls.len()
            ));
        }
        for e in &f.unrolled {
            problems.push(format!(
                "the {} report's event lists no roll, though its text gives a die or an event of its kind always rolls (a roll line was removed): {e}",
                f.form.name()
            ));
        }
        for (why, e) in &f.untold {
            problems.push(format!(
                "the {} report's event does not tell the dice listed under it: {why} (the event: {e})",
                f.form.name()
            ));
        }
        for d in &f.forged_decisions {
            problems.push(format!(
                "the {} report's decision is no event of what happened (a decision's roll or outcome was written there alone): {d}",
                f.form.name()
            ));
        }
        let mut seen = std::collections::BTreeSet::new();
        for r in &f.rolls {
            if !seen.insert(r.label.as_str()) {
                problems.push(format!(
                    "the {} report lists the label {} twice (line {}): a label is used once a turn",
                    f.form.name(),
                    r.label,
                    r.line
                ));
            }
        }
        check_said(f, &mut problems);
    }
    check_labels(forms, &header, &mut problems, &mut passed);
    check_events_across_forms(forms, &mut problems);
    if forms.len() > 1 && problems.is_empty() {
        let names: Vec<&str> = forms.iter().map(|f| f.form.name()).collect();
        passed.push(format!(
            "the {} forms list the same header and the same {} rolls",
            names.join(", "),
            first.rolls.len()
        ));
    }
    let mut rolls = Vec::new();
    if let Some(seed) = seed {
        for r in &first.rolls {
            let mut roller = Roller::new(&seed, &r.label);
            let derived: Vec<u32> = r.sides.iter().map(|&n| roller.die(n)).collect();
            rolls.push((r.clone(), derived));
        }
    }
    for a in anchors {
        if a.commitment.eq_ignore_ascii_case(&header.commitment) {
            passed.push(format!(
                "the commitment is the one {} gives: the secret was fixed before the orders were due",
                a.source
            ));
        } else {
            problems.push(format!(
                "the commitment is not the one {} gives ({}): the dice secret was changed after it was announced",
                a.source, a.commitment
            ));
        }
    }
    if let Some(c) = closing {
        check_closing(&header, c, &mut problems, &mut passed);
    }
    if let Some(sent) = sent {
        check_entropy(&header, sent, &mut problems, &mut passed);
        // pbem-dice/v1: the report lists no digest of the orders that stood, so the orders given
        // (an acknowledgement's, or the file's) are not checked, their entropy alone is; a later
        // submission with the same entropy line passes the same.
        if header.scheme != crate::dice::v2::SCHEME {
            unchecked.push(format!(
                "the orders that stood for {}: a {} report lists no digest of them (only pbem-dice/v2 does), so only their entropy was checked, and other orders of yours with the same entropy line would pass the same",
                sent.power, header.scheme
            ));
        }
    }
    Ok(Verification {
        header,
        forms: forms.iter().map(|f| f.form).collect(),
        problems,
        rolls,
        passed,
        anchored: !anchors.is_empty(),
        unchecked,
    })
}

/// The binding of the events' texts to their dice that the header names (`texts: pbem-texts/v1`,
/// `report::header::TEXTS`): one pbem knows; every JSON form carries its events' templates (a form
/// stripped of them would be read by its phrases alone, which a number written elsewhere in a text
/// escapes); an anchor that named it (the previous report) means this header must too. What a text
/// or HTML form alone could not check, when the header binds the texts: the sentences returned.
fn check_texts_bound(
    forms: &[ReportForm],
    header: &ParsedHeader,
    anchors: &[Anchor],
    problems: &mut Vec<String>,
    passed: &mut Vec<String>,
) -> Vec<String> {
    use crate::report::header::{TEXTS, TEXTS_KEY};
    if header.texts.is_empty() {
        if let Some(a) = anchors.iter().find(|a| a.texts) {
            problems.push(format!(
                "{} says the reports' headers bind the events' texts to their dice ({TEXTS_KEY}: {TEXTS}) and this report's header does not: the line was dropped, so that its texts would be read the old way",
                a.source
            ));
        }
        return Vec::new();
    }
    if header.texts != TEXTS {
        problems.push(format!(
            "the header names a binding of the events' texts to their dice that this pbem does not know ({TEXTS_KEY}: {}; it knows {TEXTS}): use a newer pbem",
            header.texts
        ));
        return Vec::new();
    }
    let before = problems.len();
    for f in forms
        .iter()
        .filter(|f| f.form == Form::Json && !f.templates)
    {
        problems.push(format!(
            "the header says the events' texts are bound to their dice ({TEXTS_KEY}: {TEXTS}), but no event of the {} report carries its template, though {} of them tell a die: the templates were stripped",
            f.form.name(),
            f.telling
        ));
    }
    if forms.iter().any(|f| f.form == Form::Json) {
        if problems.len() == before {
            passed.push(format!(
                "the header binds the events' texts to their dice ({TEXTS_KEY}: {TEXTS}) and the JSON report carries their templates: each number a text gives as a die is the face of a roll of its event"
            ));
        }
        return Vec::new();
    }
    vec![unchecked_text(
        forms.first().map_or("text", |f| f.form.name()),
    )]
}

/// The rules the header names (`rules: HEX`, `game::rules_fixed`) against those an anchor says were
/// fixed with the commitment: a report resolved under other rules (a table changed once the dice
/// were known) names other ones, and a header without the line had it dropped. An anchor that gives
/// another commitment than the header's says nothing of its rules: they are those of its own
/// commitment (the previous report's, before a rekey whose notice fixed new rules), and the
/// commitment's own check fails the report, without accusing an honest change of rules.
fn check_rules(
    header: &ParsedHeader,
    anchors: &[Anchor],
    problems: &mut Vec<String>,
    passed: &mut Vec<String>,
) {
    use crate::report::header::RULES_KEY;
    for a in anchors {
        let Some(fixed) = &a.rules else { continue };
        if !a.commitment.eq_ignore_ascii_case(&header.commitment) {
            continue;
        }
        if header.rules.is_empty() {
            problems.push(format!(
                "{} says the rules of turn {} were fixed with its commitment (their digest {fixed}), and this report's header names no rules ({RULES_KEY}: ...): the line was dropped",
                a.source, header.turn
            ));
        } else if &header.rules != fixed {
            problems.push(format!(
                "the rules of turn {} changed after its commitment: {} fixed them as {fixed}, and this report's header says they were {} (the game's settings, map or tables were changed once the dice could be known)",
                header.turn, a.source, header.rules
            ));
        } else {
            passed.push(format!(
                "the turn was resolved under the rules fixed with its commitment ({}: {fixed})",
                a.source
            ));
        }
    }
}

/// What a text or HTML form alone could not check, when the header binds the texts (the page says
/// the same, `uncheckedText`).
fn unchecked_text(form: &str) -> String {
    format!(
        "the {form} report carries no templates: each number its events give after their ruleset's phrases was checked against the rolls listed under them, but a number told otherwise (repeated from another event's die, or worked out from one) could not be. The JSON report binds them: it is attached to the report mail (compressed, .json.gz, in a mail cut to size; a mail cut below even that says in its opening note where the referee keeps it): verify the mail, or the JSON report with this one"
    )
}

/// A text or HTML report, which carries no template (or a JSON report written before pbem bound its
/// texts to its rolls): the numbers each event's text gives as dice (its ruleset's `says` phrases,
/// `dice::labels`) against the faces of the rolls listed under it, in order: a number no roll of the
/// event shows means a roll line was moved to it, removed from it, or its text edited. A JSON
/// report's events are checked by their binding (`ReportForm::untold`).
fn check_said(f: &ReportForm, problems: &mut Vec<String>) {
    if f.templates {
        return;
    }
    let Some(grammar) = f.ruleset.as_deref().and_then(crate::rules::label_grammar) else {
        return;
    };
    let mut i = 0;
    while i < f.rolls.len() {
        let at = f.rolls[i].event_at;
        let group: Vec<&ListedRoll> = f.rolls[i..]
            .iter()
            .take_while(|r| r.event_at == at)
            .collect();
        i += group.len();
        let faces: Vec<u32> = group.iter().flat_map(|r| r.faces.iter().copied()).collect();
        let said = grammar.numbers_in_text(&group[0].event);
        if !is_subsequence(&said, &faces) {
            let labels: Vec<&str> = group.iter().map(|r| r.label.as_str()).collect();
            problems.push(format!(
                "the {} report's event says its dice gave {:?}, but the roll(s) listed under it ({}) show {:?}: a roll line was moved or removed, or the text edited: {}",
                f.form.name(),
                said,
                labels.join(", "),
                faces,
                group[0].event
            ));
        }
    }
}

/// Every roll's label against the grammar of the report's ruleset (`dice::labels`, the rulesets'
/// `labels.rs`): its kind, its keys in order, each value of its kind (a place on the map, the place
/// of its event, a power of the game, a number, the turn), under an event of the kind that rolls it.
/// The JSON report's rolls are checked, which give their event's kind and place; a text report alone
/// gives neither, and its labels are checked for the rest.
fn check_labels(
    forms: &[ReportForm],
    header: &ParsedHeader,
    problems: &mut Vec<String>,
    passed: &mut Vec<String>,
) {
    let Some(form) = forms
        .iter()
        .find(|f| f.form == Form::Json)
        .or(forms.first())
    else {
        return;
    };
    let id = form
        .ruleset
        .clone()
        .or_else(|| forms.iter().find_map(|f| f.ruleset.clone()));
    let Some(grammar) = id.as_deref().and_then(crate::rules::label_grammar) else {
        problems.push(format!(
            "the report names no ruleset pbem knows ({}): its dice labels cannot be checked against the rules",
            id.as_deref().unwrap_or("none")
        ));
        return;
    };
    let shown = crate::dice::labels::Shown {
        places: form.places.clone(),
        powers: form.powers.clone(),
        turn: header.turn,
    };
    let before = problems.len();
    for r in &form.rolls {
        let under = crate::dice::labels::Under {
            kind: r.event_kind.as_deref(),
            area: r.event_area.as_deref(),
            text: Some(&r.event),
        };
        if let Err(why) = crate::dice::labels::check(grammar, &r.label, &under, &shown) {
            problems.push(format!(
                "the roll {} is not a label the rules of {} give for its event: {why} (the event: {})",
                r.label, grammar.name, r.event
            ));
        }
    }
    if problems.len() == before && !form.rolls.is_empty() {
        passed.push(format!(
            "each of the {} labels is the one the rules of {} give for its event (the grammar of labels built into this pbem, which verify.html, the page of your welcome mail, holds in its dice-labels block): no roll was renamed to try another die",
            form.rolls.len(),
            grammar.name
        ));
    }
}

/// Each roll of a text or HTML report stands under the same event as in the JSON report: a roll line
/// moved to another event, in one form, fails; and each event of the text or HTML report is told in
/// the words of the JSON report's, in its order (a number the JSON report binds, edited in the text
/// alone, fails, whether its event lists a roll or repeats one from above).
fn check_events_across_forms(forms: &[ReportForm], problems: &mut Vec<String>) {
    let Some(json) = forms.iter().find(|f| f.form == Form::Json) else {
        return;
    };
    for f in forms.iter().filter(|f| f.form != Form::Json) {
        // A report without events: its form's line for that is a template's own (any words).
        let told = if json.events.is_empty() {
            None
        } else if f.events.len() != json.events.len() {
            Some(format!(
                "the {} report tells {} event(s) in what happened, the JSON report {}: an event was added to one form or removed from it",
                f.form.name(),
                f.events.len(),
                json.events.len()
            ))
        } else {
            f.events
                .iter()
                .zip(&json.events)
                .position(|(a, b)| a != b)
                .map(|n| {
                    format!(
                        "the {} report tells event {} otherwise than the JSON report ({}): the text was edited in one form",
                        f.form.name(),
                        n + 1,
                        f.events[n]
                    )
                })
        };
        problems.extend(told);
        for (r, j) in f.rolls.iter().zip(&json.rolls) {
            if r.label == j.label && squash(&r.event) != squash(&j.event) {
                problems.push(format!(
                    "the {} report lists the roll {} under another event than the JSON report, or tells that event otherwise (line {}: {}): a roll line was moved, or the text edited",
                    f.form.name(),
                    r.label,
                    r.line,
                    r.event
                ));
            }
        }
    }
}

/// The forms with each short header (text, HTML: a `listed:` line for the powers' lines) completed
/// from a form that lists them (the JSON report); a short header that does not stand for those lines
/// is a problem. An error when no form lists them: the seed cannot be checked without them.
fn completed(forms: &[ReportForm], problems: &mut Vec<String>) -> Result<Vec<ReportForm>> {
    let Some(full) = forms.iter().find(|f| f.header.listed.is_none()) else {
        let Some(f) = forms.first() else {
            bail!("no report to verify");
        };
        bail!(
            "the {} report gives the powers' entropy as one line, 'listed:' (their count and SHA-256), and verify needs the lines themselves to check the header's digest and the seed: give the JSON report too, which lists them (pbem verify REPORT.txt REPORT.json), or the report's mail, which carries it",
            f.form.name()
        );
    };
    let mut out = forms.to_vec();
    for f in &mut out {
        match f.header.completed(&full.header) {
            Ok(h) => f.header = h,
            Err(why) => problems.push(format!(
                "the {} report's dice header does not stand for the powers the {} report lists: {why}",
                f.form.name(),
                full.form.name()
            )),
        }
    }
    Ok(out)
}

/// The entropy the header lists for the player's power against the line of his own orders: the same,
/// or both absent.
fn check_entropy(
    h: &ParsedHeader,
    sent: &SentOrders,
    problems: &mut Vec<String>,
    passed: &mut Vec<String>,
) {
    let v2 = h.scheme == crate::dice::v2::SCHEME;
    if v2 {
        match h.orders.iter().find(|(p, _)| p == &sent.power) {
            None => problems.push(format!(
                "your orders are not on the closing list: no orders of {} stood",
                sent.power
            )),
            Some((_, d)) if d.eq_ignore_ascii_case(&sent.digest) => passed.push(format!(
                "the orders that stood for {} are the ones you give (SHA-256 {})",
                sent.power, sent.digest
            )),
            Some((_, d)) => problems.push(format!(
                "the orders that stood for {} (SHA-256 {d}) are not the ones you give ({}): other orders stood, or yours were changed",
                sent.power, sent.digest
            )),
        }
    }
    let listed = h
        .entropy
        .iter()
        .find(|(p, _)| p == &sent.power)
        .map(|(_, e)| e.as_str())
        .filter(|e| *e != "none");
    let mine = sent.entropy_hash.clone().or_else(|| {
        sent.entropy.as_deref().map(|t| {
            dice::to_hex(&if v2 {
                crate::dice::v2::entropy(t)
            } else {
                dice::entropy(t)
            })
        })
    });
    match (listed, mine.as_deref()) {
        (None, None) => passed.push(format!(
            "the header lists no entropy for {}, and your orders have no entropy line",
            sent.power
        )),
        (Some(l), Some(m)) if l.eq_ignore_ascii_case(m) => passed.push(format!(
            "the entropy listed for {} is the one of your orders' entropy line",
            sent.power
        )),
        (Some(_), None) => problems.push(format!(
            "the header lists entropy for {}, but your orders have no entropy line: someone added it",
            sent.power
        )),
        (None, Some(_)) => problems.push(format!(
            "your orders have an entropy line, but the header lists no entropy for {}: it was dropped, or other orders of yours stood",
            sent.power
        )),
        (Some(_), Some(_)) => problems.push(format!(
            "the entropy listed for {} is not the one of your orders' entropy line: it was changed, or other orders of yours stood",
            sent.power
        )),
    }
}

/// The header's closing list against the closing mail: the same game, turn, `X_t` and entries.
fn check_closing(
    h: &ParsedHeader,
    c: &ClosingMail,
    problems: &mut Vec<String>,
    passed: &mut Vec<String>,
) {
    if h.scheme != crate::dice::v2::SCHEME {
        problems.push(format!(
            "this report is {}, which has no closing list: the closing mail cannot match it",
            h.scheme
        ));
        return;
    }
    if c.game != h.game || c.turn != h.turn {
        problems.push(format!(
            "the closing mail is for game {} turn {}, the report for game {} turn {}",
            c.game, c.turn, h.game, h.turn
        ));
        return;
    }
    let listed: Vec<(String, String, String)> = h
        .orders
        .iter()
        .map(|(p, d)| {
            let e = h
                .entropy
                .iter()
                .find(|(q, _)| q == p)
                .map_or("none".to_string(), |(_, e)| e.clone());
            (p.clone(), d.clone(), e)
        })
        .collect();
    if c.close == h.close && c.powers == listed {
        passed.push(format!(
            "the closing list is the one mailed at the close ({} power(s) with orders in): no orders or entropy were added, dropped or changed after it",
            listed.len()
        ));
    } else {
        problems.push(
            "the closing list of the report is not the one mailed at the close: orders or entropy were added, dropped or changed after it".into(),
        );
    }
}

/// The receipt line of an acknowledgement (`receipt <scheme> game <g> turn <t> power <p> seq <n> orders <D>
/// entropy <E|none>`) as orders sent: power, `D_p`, `E_p`; and the scheme, game and turn.
pub fn parse_receipt(text: &str) -> Option<(String, String, u32, SentOrders)> {
    text.lines().find_map(|l| {
        let w: Vec<&str> = l.split_whitespace().collect();
        match w.as_slice() {
            ["receipt", scheme, "game", game, "turn", turn, "power", power, "seq", _, "orders", d, "entropy", e] => {
                Some((
                    scheme.to_string(),
                    game.to_string(),
                    turn.parse().ok()?,
                    SentOrders {
                        power: power.to_string(),
                        entropy: None,
                        entropy_hash: (*e != "none").then(|| e.to_string()),
                        digest: d.to_string(),
                    },
                ))
            }
            _ => None,
        }
    })
}

/// Whether an announcement mail or text promises that the reports' headers bind the events' texts
/// to their dice (its line `texts: pbem-texts/v1`).
pub fn announcement_binds_texts(text: &str) -> bool {
    text.contains(&format!(
        "`{}: {}`",
        crate::report::header::TEXTS_KEY,
        crate::report::header::TEXTS
    ))
}

/// The digest of the rules of turn `turn` published in an announcement mail or text ("The rules digest
/// of turn N is" and the hex on a following line), when it names one.
pub fn announcement_rules(text: &str, turn: u32) -> Option<String> {
    hex_after(text, &format!("rules digest of turn {turn} is"))
}

/// The first word after `marker` (any case), when it is 64 hex digits.
fn hex_after(text: &str, marker: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find(marker)? + marker.len();
    text[at..]
        .split_whitespace()
        .next()
        .filter(|w| w.len() == 64 && w.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_string)
}

/// The commitment for turn `turn` published in an announcement mail or text ("The dice commitment of
/// turn N is" and the hex on a following line).
pub fn announcement_commitment(text: &str, turn: u32) -> Option<String> {
    hex_after(text, &format!("dice commitment of turn {turn} is"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subsequence_may_skip_faces() {
        assert!(is_subsequence(&[3], &[4, 3]));
        assert!(!is_subsequence(&[6], &[4, 3]));
        assert!(is_subsequence(&[], &[1]));
    }

    #[test]
    fn the_announcement_gives_its_commitment() {
        let hex = "ab".repeat(32);
        let text = format!("x\nThe dice commitment of turn 2 is\n\n    {hex}\n\nIt is");
        assert_eq!(announcement_commitment(&text, 2), Some(hex.clone()));
        assert_eq!(announcement_commitment(&text, 3), None);
        assert_eq!(announcement_rules(&text, 2), None);
        let rules = "cd".repeat(32);
        let text = format!("{text}\nThe rules digest of turn 2 is\n\n    {rules}\n\nIt fixes");
        assert_eq!(announcement_rules(&text, 2), Some(rules));
        assert_eq!(announcement_commitment(&text, 2), Some(hex.clone()));
        assert!(!announcement_binds_texts(&text));
        assert!(announcement_binds_texts(
            "says so in the line `texts: pbem-texts/v1`: a report"
        ));
    }
}
