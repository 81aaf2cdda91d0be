//! The machine-readable report of one power: `pbem-report/1`, described by the JSON Schema
//! `schema/report-v1.schema.json`. It holds what the text report and the map hold and nothing more:
//! the power's units, what it sees, the control it knows, the events it saw with their rolls and
//! labels, the decisions taken for it, the public dice header, the orders template and what his own
//! check needs (`check`, see `for_check`). A change that breaks readers of version 1 is a new
//! version with a new schema file.

use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::engine::visibility::Precision;

use super::seen_events::{SeenEvent, SeenEvents};
use super::view::{PowerView, UnitLine};

/// The format name and version, the first field of every JSON report.
pub const FORMAT: &str = "pbem-report/1";

/// A JSON report's fields before its units. The report is this object, then `units`, `sees`,
/// `position`, `control`, `events`, `decisions`, `next`, `dice`, `orders_template` and `check`, in
/// one object ([`render_sized`]): its units are written apart ([`write_units`]: serde_json looks
/// at each byte of each string, and a report lists hundreds of units), its events and decisions
/// too (`report::lines`, in the one pass that writes every form of an event while it is read), and
/// its dice once a turn ([`dice`]).
#[derive(Serialize)]
struct ReportHead<'a> {
    format: &'static str,
    game: &'a str,
    title: &'a str,
    ruleset: Ruleset<'a>,
    turn: u32,
    date: &'a str,
    power: Power<'a>,
    orders: Orders<'a>,
}

/// The version of the `check` object; a change that breaks its readers is a new one.
pub const CHECK_FORMAT: &str = "pbem-check/1";

/// The `check` object of a JSON report.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckData {
    /// [`CHECK_FORMAT`].
    pub format: String,
    /// The turn the player's next orders are for.
    pub turn: u32,
    pub game_toml: String,
    pub map_toml: String,
    pub tables_toml: String,
    /// The fogged state at the start of `turn`.
    pub state_toml: String,
}

#[derive(Serialize)]
struct Ruleset<'a> {
    id: &'a str,
    name: &'a str,
    /// The ruleset's options the game names (`Game::options_named`); absent when none.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    options: &'a [String],
}

#[derive(Serialize)]
struct Power<'a> {
    id: &'a str,
    name: &'a str,
    colour: Option<&'a str>,
    /// The player whose own report this is, for a power with several (`engine::command`).
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<&'a str>,
}

#[derive(Serialize)]
struct Orders<'a> {
    received: bool,
    accepted: Vec<Accepted<'a>>,
    rejected: usize,
    diagnostics: &'a str,
    entropy: Option<&'a str>,
}

#[derive(Serialize)]
struct Accepted<'a> {
    line: usize,
    order: &'a str,
}

/// A unit as serde_json writes it, which [`write_unit`] writes by hand.
#[cfg(test)]
#[derive(Serialize)]
struct Unit<'a> {
    id: Option<&'a str>,
    owner: &'a str,
    area: &'a str,
    kind: &'a str,
    strength: u32,
    detail: &'a str,
    precision: Precision,
}

#[derive(Serialize)]
struct Area<'a> {
    id: &'a str,
    precision: Precision,
    control: Option<&'a str>,
}

#[derive(Serialize)]
struct Control<'a> {
    area: &'a str,
    power: Option<&'a str>,
}

#[derive(Serialize)]
struct EventOut<'a> {
    rule: &'a str,
    topic: &'a str,
    kind: &'a str,
    area: Option<&'a str>,
    text: &'a str,
    /// The binding of the text's numbers to the rolls (`engine::binding`), when it tells a die.
    #[serde(skip_serializing_if = "Option::is_none")]
    template: Option<&'a str>,
    decision: Option<Decision<'a>>,
    rolls: RollsOut<'a>,
}

/// The rolls an event lists, written as they are read (a report lists a million of them).
struct RollsOut<'a>(SeenEvent<'a>);

impl Serialize for RollsOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.rolls().map(|r| RollOut {
            label: &r.label,
            dice: &r.dice,
        }))
    }
}

/// The events a view lists, written as they are read.
struct EventsOut<'a>(&'a SeenEvents);

impl Serialize for EventsOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(event))
    }
}

#[derive(Serialize)]
struct Decision<'a> {
    power: &'a str,
    by: crate::decide::DecidedBy,
}

#[derive(Serialize)]
struct RollOut<'a> {
    label: &'a str,
    /// Each as `{"sides": 6, "face": 5}`.
    dice: &'a [crate::engine::event::Die],
}

#[derive(Serialize)]
struct Next<'a> {
    turn: u32,
    date: &'a str,
    deadline: &'a str,
    commitment: &'a str,
    /// The digest of the rules fixed with the next commitment (`game::rules_fixed`); absent when
    /// none were.
    #[serde(skip_serializing_if = "str::is_empty")]
    rules: &'a str,
}

#[derive(Serialize)]
struct Dice<'a> {
    game: &'a str,
    turn: u32,
    commitment: &'a str,
    secret: &'a str,
    /// Every power's `E_p`, also in `text` (`entropy <power>: <E_p>` lines); left out in a game of
    /// more than `header::LISTED_ABOVE` powers, where it doubled the one part of a report that grows
    /// with the number of powers.
    #[serde(skip_serializing_if = "Option::is_none")]
    entropy: Option<Vec<Entropy<'a>>>,
    seed: &'a str,
    /// The turn's sealed rolls, `N SHA` (`engine::sealed`); absent when it had none.
    #[serde(skip_serializing_if = "str::is_empty")]
    sealed: &'a str,
    /// The binding of the events' texts to their dice, `pbem-texts/v1` (`header::TEXTS`): the
    /// header's `texts:` line; absent in a report written before pbem bound them.
    #[serde(skip_serializing_if = "str::is_empty")]
    texts: &'a str,
    /// The digest of the rules fixed with the commitment (`game::rules_fixed`): the header's
    /// `rules:` line; absent in a report of a turn committed before pbem fixed them.
    #[serde(skip_serializing_if = "str::is_empty")]
    rules: &'a str,
    text: &'a str,
    digest: &'a str,
}

#[derive(Serialize)]
struct Entropy<'a> {
    power: &'a str,
    entropy: &'a str,
}

/// The events of a view as the JSON report's `events` array, compact.
pub fn events(events: &SeenEvents) -> serde_json::Result<Vec<u8>> {
    serde_json::to_vec(&EventsOut(events))
}

/// One event as an element of the `events` array, written at the end of `out`: the bytes
/// serde_json writes of [`EventOut`] (`tests::an_event_is_written_as_serde_json_writes_it`), each
/// string copied as it is when it holds nothing JSON escapes, as nearly all do (serde_json looks
/// at each byte of each string: 5% of a 1,000-power turn, whose reports list 1.2 million events).
pub fn write_event(out: &mut Vec<u8>, seen: SeenEvent<'_>) -> serde_json::Result<()> {
    let e = seen.event;
    out.extend_from_slice(br#"{"rule":"#);
    string(out, &e.rule)?;
    out.extend_from_slice(br#","topic":"#);
    string(out, &e.topic)?;
    out.extend_from_slice(br#","kind":"#);
    string(out, &e.kind)?;
    out.extend_from_slice(br#","area":"#);
    match &e.area {
        Some(area) => string(out, area)?,
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(br#","text":"#);
    string(out, seen.text())?;
    if let Some(template) = seen.template() {
        out.extend_from_slice(br#","template":"#);
        string(out, template)?;
    }
    out.extend_from_slice(br#","decision":"#);
    match seen.decision() {
        Some(d) => {
            out.extend_from_slice(br#"{"power":"#);
            string(out, &d.power)?;
            out.extend_from_slice(br#","by":"#);
            serde_json::to_writer(&mut *out, &d.by)?;
            out.push(b'}');
        }
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(br#","rolls":["#);
    for (i, r) in seen.rolls().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(br#"{"label":"#);
        string(out, &r.label)?;
        out.extend_from_slice(br#","dice":["#);
        for (j, d) in r.dice.iter().enumerate() {
            if j > 0 {
                out.push(b',');
            }
            // Writing to a Vec cannot fail.
            let _ = write!(out, r#"{{"sides":{},"face":{}}}"#, d.sides, d.face);
        }
        out.extend_from_slice(b"]}");
    }
    out.extend_from_slice(b"]}");
    Ok(())
}

/// `s` as a JSON string: copied between quotes when JSON escapes none of its bytes, else as
/// serde_json writes it.
fn string(out: &mut Vec<u8>, s: &str) -> serde_json::Result<()> {
    if plain(s.as_bytes()) {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
        Ok(())
    } else {
        serde_json::to_writer(out, s)
    }
}

/// Whether JSON escapes none of `bytes` (a quote, a backslash, a control byte: serde_json's
/// escapes), looked at eight bytes at a time in a word (a report's events hold millions of short
/// strings: judged byte by byte, or in blocks of 16 folded, this was 3% of a 1,000-power turn).
fn plain(bytes: &[u8]) -> bool {
    !any_word(bytes, escapes)
}

/// Whether `hit` holds for some word of `bytes` read eight bytes at a time (little-endian), the
/// last word padded with spaces: `hit` must be false for a word of spaces.
pub(super) fn any_word(bytes: &[u8], hit: impl Fn(u64) -> bool) -> bool {
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        if hit(u64::from_le_bytes(eight)) {
            return true;
        }
    }
    let rest = words.remainder();
    let mut eight = [b' '; 8];
    eight[..rest.len()].copy_from_slice(rest);
    hit(u64::from_le_bytes(eight))
}

/// Whether one of the eight bytes of `word` is one JSON escapes: below 0x20, a quote or a
/// backslash (each test true exactly when some byte is so, whatever the others: the borrows of
/// the subtractions reach only bytes above one that is).
fn escapes(word: u64) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let zero = |x: u64| below(x, 1);
    below(word, 0x20)
        | zero(word ^ (ONES * u64::from(b'"')))
        | zero(word ^ (ONES * u64::from(b'\\')))
        != 0
}

fn event(seen: SeenEvent<'_>) -> EventOut<'_> {
    let e = seen.event;
    EventOut {
        rule: &e.rule,
        topic: &e.topic,
        kind: &e.kind,
        area: e.area.as_deref(),
        text: seen.text(),
        template: seen.template(),
        decision: seen.decision().map(|d| Decision {
            power: &d.power,
            by: d.by,
        }),
        rolls: RollsOut(seen),
    }
}

/// The JSON report of `view` with the turn's dice header `h` (none in an opening report) and
/// `check` for the player's own check, compact, with a final line break.
pub fn render(
    view: &PowerView,
    h: Option<&super::DiceHeader>,
    check: Option<&CheckData>,
) -> serde_json::Result<String> {
    render_sized(view, h, check, 0, None)
}

/// The `events` and `decisions` arrays of a JSON report, written already ([`events`] of the view's
/// two lists; `lines::EventForms` writes them as it writes the other forms), and the turn's `dice`
/// object when it is written already ([`dice`]: the same in every report of a turn).
pub struct Written<'a> {
    pub events: &'a [u8],
    pub decisions: &'a [u8],
    pub dice: Option<&'a [u8]>,
}

/// As [`render`], written into a buffer of `capacity` bytes made at once, with the view's events
/// and decisions (and the turn's dice) as `written` gives them, when it does.
pub fn render_sized(
    view: &PowerView,
    h: Option<&super::DiceHeader>,
    check: Option<&CheckData>,
    capacity: usize,
    written: Option<Written<'_>>,
) -> serde_json::Result<String> {
    // Compact: the indentation of a pretty print is a fifth of a report's JSON, and the JSON is for
    // programs (any of them prints it pretty); the text and HTML forms are the ones to read.
    let mut out = Vec::with_capacity(capacity);
    // One object, its fields written in turn: the head's (an object of at least one field,
    // written compact, `{...}`, its `}` taken off), then each field after a comma.
    serde_json::to_writer(&mut out, &head(view))?;
    out.pop();
    out.extend_from_slice(br#","units":"#);
    write_units(&mut out, &view.units)?;
    out.extend_from_slice(br#","sees":{"areas":"#);
    serde_json::to_writer(&mut out, &areas(view))?;
    out.extend_from_slice(br#","units":"#);
    write_units(&mut out, &view.seen)?;
    out.extend_from_slice(br#","moves":"#);
    serde_json::to_writer(&mut out, &view.map.moves)?;
    out.extend_from_slice(br#","combats":"#);
    serde_json::to_writer(&mut out, &view.map.combats)?;
    out.push(b'}');
    // The ruleset's lines on the position besides the units (PoG: markers, turn track, own
    // cards); absent when none.
    if !view.position.is_empty() {
        out.extend_from_slice(br#","position":"#);
        serde_json::to_writer(&mut out, &view.position)?;
    }
    out.extend_from_slice(br#","control":"#);
    serde_json::to_writer(&mut out, &control(view))?;
    out.extend_from_slice(br#","events":"#);
    match &written {
        Some(w) => out.extend_from_slice(w.events),
        None => serde_json::to_writer(&mut out, &EventsOut(&view.events))?,
    }
    out.extend_from_slice(br#","decisions":"#);
    match &written {
        Some(w) => out.extend_from_slice(w.decisions),
        None => serde_json::to_writer(&mut out, &EventsOut(&view.decisions))?,
    }
    out.extend_from_slice(br#","next":"#);
    serde_json::to_writer(
        &mut out,
        &Next {
            turn: view.next.turn,
            date: &view.next.date,
            deadline: &view.next.deadline,
            commitment: &view.next.commitment,
            rules: &view.next.rules,
        },
    )?;
    // The turn's dice; absent from an opening report (`report::opening`: no turn resolved yet).
    if let Some(h) = h {
        out.extend_from_slice(br#","dice":"#);
        match written.as_ref().and_then(|w| w.dice) {
            Some(dice) => out.extend_from_slice(dice),
            None => serde_json::to_writer(&mut out, &dice_of(h))?,
        }
    }
    out.extend_from_slice(br#","orders_template":"#);
    string(&mut out, &view.orders_template)?;
    // What the player's own check needs (`report::for_check`); absent when the report cannot
    // carry it.
    if let Some(check) = check {
        out.extend_from_slice(br#","check":"#);
        serde_json::to_writer(&mut out, check)?;
    }
    out.extend_from_slice(b"}\n");
    // serde_json and the strings copied write UTF-8 only.
    Ok(String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// The turn's `dice` object of a JSON report, as every report of the turn writes it (made once a
/// turn: `view::TurnSight::dice_json`).
pub fn dice(h: &super::DiceHeader) -> serde_json::Result<Vec<u8>> {
    serde_json::to_vec(&dice_of(h))
}

fn head(view: &PowerView) -> ReportHead<'_> {
    ReportHead {
        format: FORMAT,
        game: &view.game,
        title: &view.title,
        ruleset: Ruleset {
            id: &view.ruleset_id,
            name: &view.ruleset,
            options: &view.options,
        },
        turn: view.turn,
        date: &view.date,
        power: Power {
            id: &view.power,
            name: &view.power_name,
            colour: view.power_colour.as_deref(),
            player: view.player.as_deref(),
        },
        orders: Orders {
            received: view.orders.received,
            accepted: view
                .orders
                .lines
                .iter()
                .map(|(line, order)| Accepted { line: *line, order })
                .collect(),
            rejected: view.orders.rejected,
            diagnostics: &view.orders.diagnostics,
            entropy: view.orders.entropy.as_deref(),
        },
    }
}

/// The areas the power sees (`sees.areas`).
fn areas(view: &PowerView) -> Vec<Area<'_>> {
    view.map
        .areas
        .iter()
        .filter_map(|a| {
            a.seen.map(|precision| Area {
                id: &a.id,
                precision,
                control: a.control.as_deref(),
            })
        })
        .collect()
}

/// The areas whose control the power knows (`control`).
fn control(view: &PowerView) -> Vec<Control<'_>> {
    view.map
        .areas
        .iter()
        .filter(|a| a.control_known)
        .map(|a| Control {
            area: &a.id,
            power: a.control.as_deref(),
        })
        .collect()
}

fn dice_of(h: &super::DiceHeader) -> Dice<'_> {
    Dice {
        game: &h.game,
        turn: h.turn,
        commitment: &h.commitment,
        secret: &h.secret,
        entropy: (!h.listed).then(|| {
            h.entropy
                .iter()
                .map(|(power, entropy)| Entropy { power, entropy })
                .collect()
        }),
        seed: &h.seed,
        sealed: &h.sealed,
        texts: &h.texts,
        rules: &h.rules,
        text: &h.text,
        digest: &h.digest,
    }
}

/// Units as a JSON array at the end of `out`: each as serde_json writes [`Unit`]
/// (`tests::a_unit_is_written_as_serde_json_writes_it`), its strings copied as they are when JSON
/// escapes none of their bytes.
fn write_units(out: &mut Vec<u8>, units: &[UnitLine]) -> serde_json::Result<()> {
    out.push(b'[');
    for (i, u) in units.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_unit(out, u)?;
    }
    out.push(b']');
    Ok(())
}

fn write_unit(out: &mut Vec<u8>, u: &UnitLine) -> serde_json::Result<()> {
    out.extend_from_slice(br#"{"id":"#);
    match u.id.is_empty() {
        true => out.extend_from_slice(b"null"),
        false => string(out, &u.id)?,
    }
    out.extend_from_slice(br#","owner":"#);
    string(out, &u.owner)?;
    out.extend_from_slice(br#","area":"#);
    string(out, &u.area)?;
    out.extend_from_slice(br#","kind":"#);
    string(out, u.kind)?;
    out.extend_from_slice(br#","strength":"#);
    out.extend_from_slice(itoa::Buffer::new().format(u.strength).as_bytes());
    out.extend_from_slice(br#","detail":"#);
    string(out, &u.detail)?;
    out.extend_from_slice(br#","precision":"#);
    let precision: &[u8] = match u.precision {
        Precision::Approximate => br#""approximate""#,
        Precision::Identity => br#""identity""#,
        Precision::Exact => br#""exact""#,
    };
    out.extend_from_slice(precision);
    out.push(b'}');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::report::map::{CombatMark, MoveMark};

    fn unit(u: &UnitLine) -> Unit<'_> {
        Unit {
            id: (!u.id.is_empty()).then_some(u.id.as_str()),
            owner: &u.owner,
            area: &u.area,
            kind: u.kind,
            strength: u.strength,
            detail: &u.detail,
            precision: u.precision,
        }
    }

    /// The JSON report as one serde struct, in the order of its fields, as pbem wrote it before
    /// writing it field by field.
    #[derive(Serialize)]
    struct Whole<'a> {
        #[serde(flatten)]
        head: ReportHead<'a>,
        units: Vec<Unit<'a>>,
        sees: Sees<'a>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        position: &'a Vec<String>,
        control: Vec<Control<'a>>,
        events: EventsOut<'a>,
        decisions: EventsOut<'a>,
        next: Next<'a>,
        #[serde(skip_serializing_if = "Option::is_none")]
        dice: Option<Dice<'a>>,
        orders_template: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        check: Option<&'a CheckData>,
    }

    #[derive(Serialize)]
    struct Sees<'a> {
        areas: Vec<Area<'a>>,
        units: Vec<Unit<'a>>,
        moves: &'a [MoveMark],
        combats: &'a [CombatMark],
    }

    fn whole<'a>(
        view: &'a PowerView,
        h: Option<&'a crate::report::DiceHeader>,
        check: Option<&'a CheckData>,
    ) -> String {
        let whole = Whole {
            head: head(view),
            units: view.units.iter().map(unit).collect(),
            sees: Sees {
                areas: areas(view),
                units: view.seen.iter().map(unit).collect(),
                moves: &view.map.moves,
                combats: &view.map.combats,
            },
            position: &view.position,
            control: control(view),
            events: EventsOut(&view.events),
            decisions: EventsOut(&view.decisions),
            next: Next {
                turn: view.next.turn,
                date: &view.next.date,
                deadline: &view.next.deadline,
                commitment: &view.next.commitment,
                rules: &view.next.rules,
            },
            dice: h.map(dice_of),
            orders_template: &view.orders_template,
            check,
        };
        serde_json::to_string(&whole).unwrap() + "\n"
    }

    /// Units of every shape: without an id, of each precision, with strings JSON escapes and
    /// letters beyond ASCII.
    fn odd_units() -> Vec<UnitLine> {
        let view = crate::report::values::sample_view();
        let mut units = view.units.clone();
        units.extend(view.seen.clone());
        for (i, precision) in [
            Precision::Approximate,
            Precision::Identity,
            Precision::Exact,
        ]
        .into_iter()
        .enumerate()
        {
            let mut odd = units[0].clone();
            odd.id = ["", "C\"1\"\\x", "Württemberg\u{1}"][i].to_string();
            odd.owner = "l'Autriche/\n".to_string();
            odd.area = "<Ulm> & \t".to_string();
            odd.detail = "a \"detail\" of é".to_string();
            odd.strength = [0, 7, u32::MAX][i];
            odd.precision = precision;
            units.push(odd);
        }
        units
    }

    #[test]
    fn a_unit_is_written_as_serde_json_writes_it() {
        let units = odd_units();
        let mut fast = Vec::new();
        write_units(&mut fast, &units).unwrap();
        let serde = serde_json::to_string(&units.iter().map(unit).collect::<Vec<_>>()).unwrap();
        assert_eq!(String::from_utf8(fast).unwrap(), serde);
        assert!(serde.contains(r#""id":null"#) && serde.contains(r#""precision":"identity""#));
    }

    /// The report written field by field, its events, decisions and dice given written or not,
    /// is the report serde_json writes of it whole, with and without its dice and its check.
    #[test]
    fn the_report_written_field_by_field_is_the_one_serde_writes_whole() {
        let mut view = crate::report::values::sample_view();
        view.units = odd_units();
        view.seen = odd_units();
        view.events = crate::report::seen_events::odd_events();
        view.decisions = view.events.only(|e| e.decision.is_some());
        let header = crate::report::DiceHeader::new("g", 3, &[1; 32], &[2; 32], &[], &[5; 32]);
        let check = CheckData {
            format: CHECK_FORMAT.to_string(),
            turn: 4,
            game_toml: "game = \"g\"\n".to_string(),
            map_toml: "[[area]]\n".to_string(),
            tables_toml: String::new(),
            state_toml: "turn = 4\n".to_string(),
        };
        let forms = crate::report::lines::EventForms::of(&view.events, &view.decisions).unwrap();
        let dice = dice(&header).unwrap();
        assert!(!view.position.is_empty(), "the sample shows a position");
        for (h, check) in [(Some(&header), Some(&check)), (None, None)] {
            if h.is_none() {
                view.position.clear();
            }
            let expected = whole(&view, h, check);
            assert_eq!(render(&view, h, check).unwrap(), expected);
            let written = Written {
                events: &forms.json,
                decisions: &forms.decisions_json,
                dice: Some(&dice),
            };
            assert_eq!(
                render_sized(&view, h, check, 0, Some(written)).unwrap(),
                expected
            );
        }
    }

    /// Events of every shape (`seen_events::odd_events`), with strings JSON escapes (quotes,
    /// backslashes, control bytes) and strings it does not (letters beyond ASCII, `/`, `<`).
    #[test]
    fn an_event_is_written_as_serde_json_writes_it() {
        let seen = crate::report::seen_events::odd_events();
        for e in seen.iter() {
            let mut fast = Vec::new();
            write_event(&mut fast, e).unwrap();
            let serde = serde_json::to_vec(&event(e)).unwrap();
            assert_eq!(
                String::from_utf8(fast).unwrap(),
                String::from_utf8(serde).unwrap()
            );
        }
    }

    /// Each byte JSON escapes is found at every place of a string (both sides of the chunks it is
    /// looked at in), and no other byte is taken for one.
    #[test]
    fn a_string_is_plain_only_without_a_byte_json_escapes() {
        for at in 0..40 {
            for bad in [b'"', b'\\', 0u8, 0x1f, b'\n'] {
                let mut bytes = vec![b'a'; 40];
                bytes[at] = bad;
                assert!(!plain(&bytes), "{bad} at {at}");
            }
        }
        assert!(plain("é ü </> ' 1805 \u{7f}".as_bytes()));
        assert!(plain(b""));
    }

    proptest::proptest! {
        /// Any bytes, beside one another in any order (the words' borrows run across them), are
        /// plain exactly when none of them is a byte JSON escapes.
        #[test]
        fn bytes_are_plain_exactly_when_none_is_escaped(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(b'a'),
                    proptest::strategy::Just(b'"'),
                    proptest::strategy::Just(b'\\'),
                    0u8..0x21,
                    0x21u8..=0xff,
                ],
                0..40,
            ),
        ) {
            let escaped = bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
            proptest::prop_assert_eq!(plain(&bytes), !escaped);
        }
    }
}
