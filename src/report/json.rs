//! The machine-readable report of one power: `pbem-report/1`, described by the JSON Schema
//! `schema/report-v1.schema.json`. It holds what the text report and the map hold and nothing more:
//! the power's units, what it sees, the control it knows, the events it saw with their rolls and
//! labels, the decisions taken for it, the public dice header, the orders template and what his own
//! check needs (`check`, see `for_check`). A change that breaks readers of version 1 is a new
//! version with a new schema file.

use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::engine::visibility::Precision;

use super::map::{CombatMark, MoveMark};
use super::seen_events::{SeenEvent, SeenEvents};
use super::view::{PowerView, UnitLine};

/// The format name and version, the first field of every JSON report.
pub const FORMAT: &str = "pbem-report/1";

/// A JSON report's fields before its events. The report is this object, then `events`, then
/// [`ReportTail`]'s fields, in one object: its events come written apart (`report::lines`, in the
/// one pass that writes every form of an event while it is read), not through this serializer.
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
    units: Vec<Unit<'a>>,
    sees: Sees<'a>,
    /// The ruleset's lines on the position besides the units (PoG: markers, turn track, own cards).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    position: Vec<&'a str>,
    control: Vec<Control<'a>>,
}

/// A JSON report's fields after its events and decisions (see [`ReportHead`]), which come written
/// apart too.
#[derive(Serialize)]
struct ReportTail<'a> {
    next: Next<'a>,
    /// The turn's dice; absent from an opening report (`report::opening`: no turn resolved yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    dice: Option<Dice<'a>>,
    orders_template: &'a str,
    /// What the player's own check needs (`report::for_check`); absent when the report cannot carry it.
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<&'a CheckData>,
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
struct Sees<'a> {
    areas: Vec<Area<'a>>,
    units: Vec<Unit<'a>>,
    moves: &'a [MoveMark],
    combats: &'a [CombatMark],
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
    text: &'a str,
    digest: &'a str,
}

#[derive(Serialize)]
struct Entropy<'a> {
    power: &'a str,
    entropy: &'a str,
}

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
    string(out, &e.text)?;
    if let Some(template) = &e.template {
        out.extend_from_slice(br#","template":"#);
        string(out, template)?;
    }
    out.extend_from_slice(br#","decision":"#);
    match &e.decision {
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
/// escapes), looked at 16 bytes at a time.
fn plain(bytes: &[u8]) -> bool {
    let escaped = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
    let mut chunks = bytes.chunks_exact(16);
    for chunk in &mut chunks {
        if chunk.iter().fold(false, |any, &b| any | escaped(b)) {
            return false;
        }
    }
    !chunks.remainder().iter().any(|&b| escaped(b))
}

fn event(seen: SeenEvent<'_>) -> EventOut<'_> {
    let e = seen.event;
    EventOut {
        rule: &e.rule,
        topic: &e.topic,
        kind: &e.kind,
        area: e.area.as_deref(),
        text: &e.text,
        template: e.template.as_deref(),
        decision: e.decision.as_ref().map(|d| Decision {
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
/// two lists; `lines::EventForms` writes them as it writes the other forms).
pub struct Written<'a> {
    pub events: &'a [u8],
    pub decisions: &'a [u8],
}

/// As [`render`], written into a buffer of `capacity` bytes made at once, with the view's events
/// and decisions as `written` gives them, when it does.
pub fn render_sized(
    view: &PowerView,
    h: Option<&super::DiceHeader>,
    check: Option<&CheckData>,
    capacity: usize,
    written: Option<Written<'_>>,
) -> serde_json::Result<String> {
    let head = ReportHead {
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
        units: view.units.iter().map(unit).collect(),
        sees: Sees {
            areas: view
                .map
                .areas
                .iter()
                .filter_map(|a| {
                    a.seen.map(|precision| Area {
                        id: &a.id,
                        precision,
                        control: a.control.as_deref(),
                    })
                })
                .collect(),
            units: view.seen.iter().map(unit).collect(),
            moves: &view.map.moves,
            combats: &view.map.combats,
        },
        position: view.position.iter().map(String::as_str).collect(),
        control: view
            .map
            .areas
            .iter()
            .filter(|a| a.control_known)
            .map(|a| Control {
                area: &a.id,
                power: a.control.as_deref(),
            })
            .collect(),
    };
    let tail = ReportTail {
        next: Next {
            turn: view.next.turn,
            date: &view.next.date,
            deadline: &view.next.deadline,
            commitment: &view.next.commitment,
        },
        dice: h.map(|h| Dice {
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
            text: &h.text,
            digest: &h.digest,
        }),
        orders_template: &view.orders_template,
        check,
    };
    // Compact: the indentation of a pretty print is a fifth of a report's JSON, and the JSON is for
    // programs (any of them prints it pretty); the text and HTML forms are the ones to read.
    let mut text = Vec::with_capacity(capacity);
    // One object: the head's fields, `events`, `decisions`, the tail's (each part an object of at
    // least one field, written compact: `{...}`).
    serde_json::to_writer(&mut text, &head)?;
    text.pop();
    text.extend_from_slice(br#","events":"#);
    match &written {
        Some(w) => text.extend_from_slice(w.events),
        None => serde_json::to_writer(&mut text, &EventsOut(&view.events))?,
    }
    text.extend_from_slice(br#","decisions":"#);
    match &written {
        Some(w) => text.extend_from_slice(w.decisions),
        None => serde_json::to_writer(&mut text, &EventsOut(&view.decisions))?,
    }
    text.push(b',');
    let tail_from = text.len();
    serde_json::to_writer(&mut text, &tail)?;
    text.remove(tail_from);
    text.push(b'\n');
    // serde_json writes UTF-8 only.
    Ok(String::from_utf8(text)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
