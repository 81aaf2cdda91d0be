//! What a player holds, read back into the forms of a report: the `.eml` as his mail client saved it
//! (any transfer encoding: mail-parser decodes it), or a text, HTML or JSON report on its own. Each
//! form gives the public dice header and the rolls it lists, each roll with the text of its event, so
//! that `verify` checks every form and compares them.

use std::collections::BTreeSet;

use anyhow::{bail, Result};

use super::verify::{parse_header, parse_rolls, ListedRoll, ParsedHeader};
use crate::dice::labels::Grammar;
use crate::mail::parse::{parse, Content};

/// The form a report came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Form {
    Text,
    Html,
    Json,
}

impl Form {
    pub fn name(self) -> &'static str {
        match self {
            Form::Text => "text",
            Form::Html => "HTML",
            Form::Json => "JSON",
        }
    }
}

/// One form of a report: its dice header, the rolls it lists, and the commitment it announces for
/// the next turn (when it does).
#[derive(Debug, Clone)]
pub struct ReportForm {
    pub form: Form,
    pub header: ParsedHeader,
    pub rolls: Vec<ListedRoll>,
    /// `(turn, commitment)` of "Dice commitment for turn N" (text) or `next` (JSON).
    pub announces: Option<(u32, String)>,
    /// The digest of the rules fixed with the commitment it announces: "Rules for turn N: ..."
    /// (text) or `next.rules` (JSON), `game::rules_fixed`; none in a report that names none.
    pub announces_rules: Option<String>,
    /// The events of "What happened" whose text gives dice ("rolls 5") but that list no roll: a roll
    /// line was deleted. In a JSON report, the events of a kind that always rolls that list none (its
    /// texts are checked by their binding, `untold`).
    pub unrolled: Vec<String>,
    /// Whether the form binds its texts' numbers to its rolls: a JSON report some event of which
    /// carries a template. A text or HTML report, or a JSON report written before pbem bound them,
    /// is read by its ruleset's `says` phrases instead (`verify::check_said`).
    pub templates: bool,
    /// The events whose text tells a die: a number after one of its ruleset's `says` phrases, or
    /// a template.
    pub telling: usize,
    /// The JSON report's events whose text is not their template rendered from the rolls listed
    /// under them, or gives a die no roll binds (`dice::labels::check_told`): each the reason and the
    /// event's text. A text or HTML report carries no template: none.
    pub untold: Vec<(String, String)>,
    /// The texts of "What happened", in order, each with its runs of white space made one space:
    /// the text and HTML forms must tell the events of the JSON form in its words (an event edited
    /// in one form, a roll or not, fails).
    pub events: Vec<String>,
    /// The entries of "Decisions taken for you" that are no event of "What happened" (text, HTML)
    /// or of `events` (JSON): a decision's roll or outcome written there alone.
    pub forged_decisions: Vec<String>,
    /// The ruleset the report names: the JSON report's `ruleset.id`, or the ruleset whose name opens
    /// the second line of a text report ("Paths of Glory - game pog-1914 - turn 1").
    pub ruleset: Option<String>,
    /// The places of the map the report carries (the JSON report's `check` object), else the places
    /// it shows (what the power sees, its units, the events); none for a text report.
    pub places: Option<BTreeSet<String>>,
    /// The powers of the game the JSON report carries (its `check` object), else the owners of the
    /// units it shows; none for a text report.
    pub powers: Option<BTreeSet<String>>,
}

/// Whether `bytes` look like a saved mail: a header block (name: value lines) naming a mail header
/// before the first blank line. An mbox "From " line before it is allowed.
pub fn is_mail(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(16_384)]);
    let mut lines = text.lines().peekable();
    if lines.peek().is_some_and(|l| l.starts_with("From ")) {
        lines.next();
    }
    let mut mail_header = false;
    for line in lines {
        if line.is_empty() {
            return mail_header;
        }
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let Some((name, _)) = line.split_once(':') else {
            return false;
        };
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return false;
        }
        mail_header |= matches!(
            name.to_ascii_lowercase().as_str(),
            "from" | "to" | "subject" | "date" | "mime-version" | "content-type" | "message-id"
        );
    }
    false
}

/// How deep `texts` reads mails forwarded inside mails.
const FORWARDS_READ: u32 = 3;

/// The texts of a file a player holds: the decoded parts of a mail (body, alternatives, text, HTML
/// and JSON attachments, and those of a mail forwarded in it as an attachment), or the file itself.
/// Each comes with the form it is in.
pub fn texts(bytes: &[u8]) -> Vec<(Form, String)> {
    texts_within(bytes, FORWARDS_READ)
}

/// `texts`, reading mails forwarded `forwards` deep.
fn texts_within(bytes: &[u8], forwards: u32) -> Vec<(Form, String)> {
    if !is_mail(bytes) {
        let text = String::from_utf8_lossy(bytes).into_owned();
        return vec![(sniff(&text), text)];
    }
    let raw = bytes.strip_prefix(b"From ").map_or(bytes, |rest| {
        rest.iter()
            .position(|&b| b == b'\n')
            .map_or(rest, |i| &rest[i + 1..])
    });
    let Some(message) = parse(raw) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut whole_text = false;
    for part in message.parts {
        if let Content::Message(raw) = &part.content {
            // A report forwarded as an attachment (message/rfc822): its own parts.
            if forwards > 0 {
                out.extend(texts_within(raw, forwards - 1));
            }
            continue;
        }
        let name = part.name.as_deref().unwrap_or("").to_ascii_lowercase();
        // A mail cut to size (`mail::fit`) carries its JSON, or its whole text, compressed.
        if let (Some(form), Content::Bytes(b)) = (compressed_form(&name), &part.content) {
            if let Some(bytes) = crate::mail::fit::gunzip(b) {
                whole_text |= form == Form::Text;
                out.push((form, String::from_utf8_lossy(&bytes).into_owned()));
            }
            continue;
        }
        let form = if part.content_type == "application/json" || name.ends_with(".json") {
            Form::Json
        } else if part.content_type == "text/html" || name.ends_with(".html") {
            Form::Html
        } else if part.content_type == "text/plain" {
            Form::Text
        } else {
            continue;
        };
        let text = match part.content {
            // A client that sent the report on (a forward) may break its long lines as RFC 3676
            // allows: they are joined again, as its reader shows them.
            Content::Text(t) if part.flowed && form == Form::Text => {
                crate::mail::extract::unflow(&t.replace("\r\n", "\n"), part.delsp).join("\n")
            }
            Content::Text(t) | Content::Html(t) => t,
            Content::Bytes(b) => String::from_utf8_lossy(&b).into_owned(),
            Content::Message(_) => continue,
        };
        out.push((form, text));
    }
    if whole_text {
        // The body of a mail whose whole text is attached holds its first lines alone.
        out.retain(|(form, text)| {
            *form != Form::Text || !text.contains(crate::mail::fit::EXCERPT_MARK)
        });
    }
    out
}

/// The form a compressed attachment holds, by its name: `<report>.json.gz`, `<report>.txt.gz`.
fn compressed_form(name: &str) -> Option<Form> {
    let inner = name.strip_suffix(".gz")?;
    if inner.ends_with(".json") {
        Some(Form::Json)
    } else if inner.ends_with(".txt") {
        Some(Form::Text)
    } else {
        None
    }
}

/// A file on its own: JSON if it opens with `{`, HTML if it opens with `<`, text otherwise.
fn sniff(text: &str) -> Form {
    match text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .chars()
        .next()
    {
        Some('{') => Form::Json,
        Some('<') => Form::Html,
        _ => Form::Text,
    }
}

/// Every form of a report found in `bytes`; an error when none holds a pbem-dice header.
pub fn report_forms(bytes: &[u8]) -> Result<Vec<ReportForm>> {
    let mut forms = Vec::new();
    let mut errors = Vec::new();
    for (form, text) in texts(bytes) {
        match read_form(form, &text) {
            Ok(f) => forms.push(f),
            Err(e) => errors.push(format!("{} part: {e:#}", form.name())),
        }
    }
    if forms.is_empty() {
        if errors.is_empty() {
            bail!("no report found: neither a text, HTML nor JSON report, nor a mail holding one");
        }
        bail!("no report found ({})", errors.join("; "));
    }
    Ok(forms)
}

/// One form read back.
pub fn read_form(form: Form, text: &str) -> Result<ReportForm> {
    match form {
        Form::Text => Ok(from_text(Form::Text, text)?),
        Form::Html => Ok(from_text(Form::Html, &crate::mail::html::to_text(text))?),
        Form::Json => from_json(text),
    }
}

fn from_text(form: Form, text: &str) -> Result<ReportForm> {
    let header = parse_header(text)?;
    let announces = header
        .turn
        .checked_add(1)
        .and_then(|next| announced_commitment(text, next).map(|c| (next, c)));
    let announces_rules = announces
        .as_ref()
        .and_then(|(next, _)| announced_rules(text, *next));
    let ruleset = named_ruleset(text);
    let grammar = ruleset.as_deref().and_then(crate::rules::label_grammar);
    Ok(ReportForm {
        form,
        header,
        rolls: parse_rolls(text),
        announces,
        announces_rules,
        unrolled: unrolled_events(text, grammar),
        events: told_events(text),
        untold: Vec::new(),
        templates: false,
        telling: 0,
        forged_decisions: decisions_not_in_events(text),
        ruleset,
        places: None,
        powers: None,
    })
}

/// The ruleset whose name opens the report's line `<ruleset> - game <id> - turn <t>`.
fn named_ruleset(text: &str) -> Option<String> {
    // A mail cut to size opens with its note (`mail::fit`), before the report's own lines.
    let mut lines = text.lines().peekable();
    if lines
        .peek()
        .is_some_and(|l| l.trim_end() == crate::mail::fit::NOTE_TITLE)
    {
        lines.find(|l| l.trim().is_empty());
    }
    let line = lines.take(8).find(|l| l.contains(" - game "))?;
    let name = line.trim().split(" - game ").next()?;
    crate::rules::LABEL_GRAMMARS
        .iter()
        .find(|g| g.name == name)
        .map(|g| g.ruleset.to_string())
}

/// The headings that close "What happened" (text and HTML reports).
const AFTER_EVENTS: [&str; 5] = [
    "decisions taken for you",
    "your units",
    "what your units see",
    "the position",
    "next turn",
];

/// The lines of the "What happened" section, trimmed: after its heading, up to the heading that
/// closes it ([`AFTER_EVENTS`]).
fn what_happened(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .skip_while(|t| !t.eq_ignore_ascii_case("what happened"))
        .filter(|t| !t.eq_ignore_ascii_case("what happened"))
        .take_while(|t| !AFTER_EVENTS.contains(&t.to_ascii_lowercase().as_str()))
}

/// The events of the "What happened" section whose text gives dice but that are followed by no roll
/// line.
fn unrolled_events(text: &str, grammar: Option<&Grammar>) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Option<(String, bool)> = None;
    let mut close = |open: &mut Option<(String, bool)>| {
        if let Some((event, rolled)) = open.take() {
            if !rolled && grammar.is_some_and(|g| !g.numbers_in_text(&event).is_empty()) {
                out.push(event);
            }
        }
    };
    for t in what_happened(text) {
        if t.starts_with("roll ") {
            if let Some((_, rolled)) = open.as_mut() {
                *rolled = true;
            }
        } else if !t.is_empty() && !t.starts_with('[') {
            close(&mut open);
            open = Some((t.strip_prefix("- ").unwrap_or(t).to_string(), false));
        }
    }
    close(&mut open);
    out
}

/// The bundled templates' line in "What happened" when the power saw nothing happen.
const NO_EVENTS: &str = "Nothing you could see happened.";

/// The texts of the "What happened" section, in order, white space squashed.
fn told_events(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for t in what_happened(text) {
        // The bundled templates' line for a report without events is none.
        if !t.is_empty() && !t.starts_with('[') && !t.starts_with("roll ") && t != NO_EVENTS {
            out.push(squash(t.strip_prefix("- ").unwrap_or(t)));
        }
    }
    out
}

/// A text with its runs of white space made one space.
pub fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The entries of the "Decisions taken for you" section (each `- text [citation]`) whose text is
/// the text of no event of "What happened".
fn decisions_not_in_events(text: &str) -> Vec<String> {
    let mut events = BTreeSet::new();
    let mut decisions = Vec::new();
    let mut section = "";
    for line in text.lines() {
        let t = line.trim();
        let lower = t.to_ascii_lowercase();
        if lower == "what happened" || lower == "decisions taken for you" {
            section = if lower == "what happened" {
                "events"
            } else {
                "decisions"
            };
            continue;
        }
        if AFTER_EVENTS.contains(&lower.as_str()) {
            section = "";
            continue;
        }
        if t.is_empty() || t.starts_with('[') || t.starts_with("roll ") {
            continue;
        }
        let item = t.strip_prefix("- ").unwrap_or(t);
        match section {
            "events" => {
                events.insert(squash(item));
            }
            // The bundled templates' line for a report without decisions.
            "decisions" if item == "None." => {}
            "decisions" => {
                // The citation in brackets ends the line: what is before it is the event's text.
                let said = match item.rfind(" [") {
                    Some(i) if item.ends_with(']') => &item[..i],
                    _ => item,
                };
                decisions.push(squash(said));
            }
            _ => {}
        }
    }
    decisions.retain(|d| !events.contains(d));
    decisions
}

/// The commitment for `turn` that a report announces ("Dice commitment for turn N: ...").
pub fn announced_commitment(report: &str, turn: u32) -> Option<String> {
    line_value(report, &format!("Dice commitment for turn {turn}: "))
}

/// The digest of the rules fixed with `turn`'s commitment that a report announces ("Rules for turn
/// N: ...").
pub fn announced_rules(report: &str, turn: u32) -> Option<String> {
    line_value(report, &format!("Rules for turn {turn}: "))
}

fn line_value(report: &str, prefix: &str) -> Option<String> {
    report
        .lines()
        .find_map(|l| l.trim().strip_prefix(prefix).map(|c| c.trim().to_string()))
}

/// The few fields of a JSON report that `verify` reads: serde skips the rest (the units' details,
/// the map, the check object) without building them, so that a report of 84 MB is not held as a
/// JSON tree of ten times its size (issue 34).
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct JsonReport {
    ruleset: JsonRuleset,
    dice: JsonDice,
    events: Vec<JsonEvent>,
    decisions: Vec<JsonEvent>,
    next: JsonNext,
    units: Vec<JsonUnit>,
    sees: JsonSees,
    /// Whether the report carries a `check` object (the game's map, rebuilt by `board_of`).
    check: Option<serde::de::IgnoredAny>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct JsonRuleset {
    id: Option<String>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct JsonDice {
    text: Option<String>,
    digest: Option<String>,
}

/// An event as the JSON report gives it: a decision of `decisions` must be one of `events`, field
/// for field.
#[derive(serde::Deserialize, Default, PartialEq)]
#[serde(default)]
struct JsonEvent {
    rule: Option<String>,
    topic: Option<String>,
    kind: Option<String>,
    area: Option<String>,
    text: Option<String>,
    template: Option<String>,
    decision: Option<serde_json::Value>,
    rolls: Vec<JsonRoll>,
}

#[derive(serde::Deserialize, Default, PartialEq)]
#[serde(default)]
struct JsonRoll {
    label: Option<String>,
    dice: Vec<JsonDie>,
}

#[derive(serde::Deserialize, Default, PartialEq)]
#[serde(default)]
struct JsonDie {
    sides: Option<u64>,
    face: Option<u64>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct JsonNext {
    turn: Option<u64>,
    commitment: Option<String>,
    rules: Option<String>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct JsonUnit {
    owner: Option<String>,
    area: Option<String>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct JsonSees {
    areas: Vec<JsonArea>,
    units: Vec<JsonUnit>,
    moves: Vec<JsonMove>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct JsonArea {
    id: Option<String>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct JsonMove {
    from: Option<String>,
    to: Option<String>,
}

/// The places and powers of the JSON report `v`: the map and game its `check` object carries,
/// rebuilt as `pbem check --report` rebuilds them; without one (a map too large to mail), every place
/// the report shows and the owners of the units it shows.
fn board_of(text: &str, v: &JsonReport) -> (BTreeSet<String>, BTreeSet<String>) {
    if v.check.is_some() {
        let path = std::path::Path::new("the JSON report");
        if let Ok(rebuilt) = crate::report::for_check::load(path, text.as_bytes()) {
            let game = &rebuilt.game;
            return (
                game.map.areas.iter().map(|a| a.id.clone()).collect(),
                game.config.power_ids().map(str::to_string).collect(),
            );
        }
    }
    let mut places = BTreeSet::new();
    let mut powers = BTreeSet::new();
    let shown = v
        .sees
        .areas
        .iter()
        .map(|a| &a.id)
        .chain(v.units.iter().chain(&v.sees.units).map(|u| &u.area))
        .chain(v.sees.moves.iter().flat_map(|m| [&m.from, &m.to]))
        .chain(v.events.iter().map(|e| &e.area));
    places.extend(shown.flatten().cloned());
    powers.extend(
        v.units
            .iter()
            .chain(&v.sees.units)
            .filter_map(|u| u.owner.clone()),
    );
    (places, powers)
}

fn from_json(text: &str) -> Result<ReportForm> {
    // An editor that saved the file may have put a byte-order mark before it.
    let v: JsonReport = serde_json::from_str(text.trim_start_matches('\u{feff}'))?;
    let (Some(header_text), Some(digest)) = (v.dice.text.as_deref(), v.dice.digest.as_deref())
    else {
        bail!("this JSON report has no dice header (dice.text, dice.digest): an opening report, mailed with the welcome, has none, as no turn was resolved yet");
    };
    let header = parse_header(&format!("{header_text}header sha256: {digest}\n"))?;
    let ruleset = v.ruleset.id.clone();
    let grammar = ruleset.as_deref().and_then(crate::rules::label_grammar);
    let mut rolls = Vec::new();
    let mut unrolled = Vec::new();
    let mut untold = Vec::new();
    // A header that says the texts are bound (`texts:`) binds them: a form stripped of its templates
    // is checked by them all the same, each number it gives as a die then bound to no roll.
    let templates = v.events.iter().any(|e| e.template.is_some()) || !header.texts.is_empty();
    let telling = v
        .events
        .iter()
        .filter(|e| {
            e.template.is_some()
                || grammar.is_some_and(|g| {
                    !g.numbers_in_text(e.text.as_deref().unwrap_or(""))
                        .is_empty()
                })
        })
        .count();
    let carries = v.events.iter().any(|e| e.template.is_some());
    // `decisions` repeats events of `events`: the rolls are read from `events` only.
    for (i, e) in v.events.iter().enumerate() {
        let event = e.text.clone().unwrap_or_default();
        let always = grammar.is_some_and(|g| {
            e.kind.as_deref().is_some_and(|k| g.rolled.contains(&k))
                || (!templates && !g.numbers_in_text(&event).is_empty())
        });
        if e.rolls.is_empty() && always {
            unrolled.push(event.clone());
        }
        if let Some(g) = grammar.filter(|_| templates) {
            // A die repeated from another event's roll (`above`): one listed under an event
            // above this one.
            let face = |label: &str, die: usize, above: bool| {
                let under = if above {
                    &v.events[..i]
                } else {
                    std::slice::from_ref(e)
                };
                let r = under
                    .iter()
                    .flat_map(|e| &e.rolls)
                    .find(|r| r.label.as_deref() == Some(label))?;
                let d = r.dice.get(die.checked_sub(1)?)?;
                d.face.and_then(|f| u32::try_from(f).ok())
            };
            if let Err(why) =
                crate::dice::labels::check_told(g, &event, e.template.as_deref(), face)
            {
                untold.push((why, event.clone()));
            }
        }
        for r in &e.rolls {
            let n = |x: Option<u64>| x.and_then(|x| u32::try_from(x).ok()).unwrap_or(0);
            let dice: Vec<(u32, u32)> = r.dice.iter().map(|d| (n(d.sides), n(d.face))).collect();
            if dice.iter().any(|&(s, _)| s == 0) {
                bail!(
                    "event {} of this JSON report has a die with no sides",
                    i + 1
                );
            }
            rolls.push(ListedRoll {
                line: i + 1,
                label: r.label.clone().unwrap_or_default(),
                sides: dice.iter().map(|d| d.0).collect(),
                faces: dice.iter().map(|d| d.1).collect(),
                event: event.clone(),
                event_at: i + 1,
                event_kind: e.kind.clone(),
                event_area: e.area.clone(),
            });
        }
    }
    let (places, powers) = board_of(text, &v);
    let forged_decisions = v
        .decisions
        .iter()
        .filter(|d| !v.events.contains(d))
        .map(|d| d.text.clone().unwrap_or_default())
        .collect();
    let announces = match (v.next.turn, v.next.commitment) {
        (Some(t), Some(c)) if !c.is_empty() => u32::try_from(t).ok().map(|t| (t, c)),
        _ => None,
    };
    let announces_rules = v.next.rules.filter(|r| !r.is_empty());
    Ok(ReportForm {
        form: Form::Json,
        header,
        rolls,
        announces,
        announces_rules,
        unrolled,
        events: v
            .events
            .iter()
            .map(|e| squash(e.text.as_deref().unwrap_or("")))
            .collect(),
        untold,
        templates: carries || telling == 0,
        telling,
        forged_decisions,
        ruleset,
        places: Some(places),
        powers: Some(powers),
    })
}
