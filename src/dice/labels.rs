//! The grammar of dice labels, as data: each ruleset states its kinds of roll in one table (its
//! `labels.rs`, `GRAMMAR`), each kind a pattern of segments with the keys in order and where each
//! key's value comes from; `pbem verify` matches every roll a report lists against its ruleset's
//! table and rejects a label no kind produces, so that the referee has no second label to try for
//! one event. The tables are published as `schema/dice-labels.json` for anyone who re-implements
//! `verify` (docs/DICE.md).
//!
//! A pattern is segments joined by `/`. A segment is a literal (`combat`, `order`), or a literal
//! followed by one placeholder (`area={place@area}`, `t{turn}`), and ends in `?` when it may be left
//! out. The placeholders:
//!
//! | placeholder     | the value                                                         |
//! |-----------------|-------------------------------------------------------------------|
//! | `{place}`       | a place on the map the report shows                               |
//! | `{place@area}`  | a place on the map, and the place of the event the roll stands under |
//! | `{x@text}`      | a value of `x` that the event's text names as a word of its own   |
//! | `{power}`       | a power the report's dice header lists                            |
//! | `{n}`           | a whole number from 1, written without leading zeros              |
//! | `{turn}`        | the report's turn                                                 |
//! | `{id}`          | the id of a unit, leader, fleet or ship: no `/` and no `=`        |
//! | `{spot}`        | a square of a tactical map, column-row: `14-1`                    |
//! | `{a\|b}`        | one of the words listed                                           |

use std::collections::BTreeSet;

use serde::Serialize;

/// One kind of roll.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Kind {
    /// The label's pattern: `combat/area={place@area}/round={n}`.
    pub pattern: &'static str,
    /// The kinds of event a roll of this kind stands under (the event's `kind` in the JSON report).
    pub events: &'static [&'static str],
    /// The dice drawn, in words: `d6 d6`, `one die of n`.
    pub dice: &'static str,
    /// The rule the roll is for.
    pub rule: &'static str,
}

/// The engine's own kinds, which every ruleset's labels may use: the control of a power whose player
/// left (EiA 19.2.1, 14.3.1; `engine::players`).
pub const ENGINE: &[Kind] = &[
    Kind {
        pattern: "ump-control/ump={power@text}/power={power@text}",
        events: &["control-of-power"],
        dice: "d6, plus the power's [ump-control] modifier",
        rule: "EiA 19.2.1, 14.3.1",
    },
    Kind {
        pattern: "ump-control-tie/ump={power@text}",
        events: &["control-of-power"],
        dice: "one die of n, n tied powers",
        rule: "EiA 19.2.1, 14.3.1",
    },
];

/// A ruleset's grammar: its id and its kinds.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Grammar {
    pub ruleset: &'static str,
    /// The ruleset's name, as a text report's second line gives it ("Paths of Glory - game ...").
    pub name: &'static str,
    pub kinds: &'static [Kind],
    /// The words that give a die's face in an event's text, each right before the number ("rolls 5",
    /// "the die 2", "(d6 2"): every number so given must be a die the event's template binds to a
    /// roll listed under it (`check_told`, `engine::binding`); in a text report alone, which
    /// carries no template, a face of the event's rolls, in order.
    pub says: &'static [&'static str],
    /// The words that stand right before a number worked out from a die or repeating one
    /// ("(modified 8)", "= 4", "shifts the die from 5"): in a report whose texts are bound (a JSON
    /// report with its templates), every number so given must be one the event's template binds,
    /// as `{LABEL die N + K}` or `{LABEL die N above}`. A text report alone cannot check them (it
    /// carries no template), and does not read them.
    pub works: &'static [&'static str],
    /// The kinds of event that always carry a roll: one that lists none lost its roll line.
    pub rolled: &'static [&'static str],
}

impl Grammar {
    /// The numbers `text` gives as dice: each number right after one of the grammar's `says`
    /// phrases (its digits, so "5," and "5:" give 5).
    pub fn numbers_in_text(&self, text: &str) -> Vec<u32> {
        numbers_after(self.says, text)
    }

    /// The numbers `text` gives as worked out from a die or repeating one: each number right after
    /// one of the grammar's `works` phrases.
    pub fn numbers_worked_out(&self, text: &str) -> Vec<u32> {
        numbers_after(self.works, text)
    }
}

/// Each number of `text` right after one of `phrases` (its digits, so "5," and "5:" give 5).
fn numbers_after(phrases: &[&str], text: &str) -> Vec<u32> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
        let Ok(n) = digits.parse() else { continue };
        let said = phrases.iter().any(|p| {
            let p: Vec<&str> = p.split_whitespace().collect();
            i >= p.len() && words[i - p.len()..i] == p[..]
        });
        if said {
            out.push(n);
        }
    }
    out
}

/// What a report shows that a label's values are checked against.
#[derive(Debug, Clone, Default)]
pub struct Shown {
    /// The places of the map the report shows: none when it shows no map (every place passes).
    pub places: Option<BTreeSet<String>>,
    /// The powers of the game the report shows: none when it shows none (every power passes).
    pub powers: Option<BTreeSet<String>>,
    /// The report's turn.
    pub turn: u32,
}

/// How far a label matched a pattern, and why it stopped.
struct Miss {
    /// Segments matched before the failure.
    depth: usize,
    why: String,
}

/// One segment of a pattern: its literal, its placeholder (without braces), whether optional.
struct Segment<'a> {
    literal: &'a str,
    placeholder: Option<&'a str>,
    optional: bool,
}

fn segments(pattern: &str) -> Vec<Segment<'_>> {
    pattern
        .split('/')
        .map(|s| {
            let (s, optional) = match s.strip_suffix('?') {
                Some(s) => (s, true),
                None => (s, false),
            };
            match s.split_once('{') {
                Some((literal, rest)) => Segment {
                    literal,
                    placeholder: Some(rest.trim_end_matches('}')),
                    optional,
                },
                None => Segment {
                    literal: s,
                    placeholder: None,
                    optional,
                },
            }
        })
        .collect()
}

impl Kind {
    /// The kind's name: the pattern's literal segments before its first placeholder
    /// (`combat`, `gitm/t{turn}/siege` gives `gitm/t/siege`...): what a reason names it by.
    pub fn name(&self) -> String {
        let segs = segments(self.pattern);
        let mut words = Vec::new();
        for s in &segs {
            if s.placeholder.is_some() && !s.literal.is_empty() && !s.literal.ends_with('=') {
                words.push(format!("{}{{{}}}", s.literal, s.placeholder.unwrap_or("")));
                continue;
            }
            if s.placeholder.is_some() {
                break;
            }
            words.push(s.literal.to_string());
        }
        words.join("/")
    }

    /// The label's keys of this kind, in order (`area`, `round`).
    pub fn keys(&self) -> Vec<&'static str> {
        segments(self.pattern)
            .iter()
            .filter_map(|s| s.literal.strip_suffix('='))
            .collect()
    }
}

/// The event a roll stands under, as far as a form of the report gives it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Under<'a> {
    /// Its kind (`round`): the JSON report's; none in a text report.
    pub kind: Option<&'a str>,
    /// Its place, when it has one: the JSON report's; none in a text report.
    pub area: Option<&'a str>,
    /// Its text, which every form gives.
    pub text: Option<&'a str>,
}

/// Whether `label` is one `grammar` produces for a roll under the event `under`, given what the
/// report shows; else a sentence saying why not.
pub fn check(
    grammar: &Grammar,
    label: &str,
    under: &Under<'_>,
    shown: &Shown,
) -> Result<(), String> {
    let event_kind = under.kind;
    let parts: Vec<&str> = label.split('/').collect();
    let mut best: Option<(Miss, &Kind)> = None;
    for kind in grammar.kinds.iter().chain(ENGINE) {
        match matches(kind, &parts, under, shown) {
            Ok(()) => {
                let Some(event_kind) = event_kind.filter(|k| !kind.events.contains(k)) else {
                    return Ok(());
                };
                let miss = Miss {
                    depth: usize::MAX,
                    why: format!(
                        "a roll of the kind {} stands under an event of the kind {}, not {}: it was moved to another event",
                        kind.name(),
                        kind.events.join(" or "),
                        event_kind
                    ),
                };
                if best.as_ref().is_none_or(|(b, _)| miss.depth > b.depth) {
                    best = Some((miss, kind));
                }
            }
            Err(miss) => {
                if best.as_ref().is_none_or(|(b, _)| miss.depth > b.depth) {
                    best = Some((miss, kind));
                }
            }
        }
    }
    match best {
        Some((miss, _)) if miss.depth > 0 => Err(miss.why),
        _ => Err(format!(
            "no kind of roll of the rules of {} begins so (its kinds: {})",
            grammar.ruleset,
            kinds_list(grammar)
        )),
    }
}

fn kinds_list(grammar: &Grammar) -> String {
    let mut names: Vec<String> = grammar.kinds.iter().chain(ENGINE).map(Kind::name).collect();
    names.dedup();
    names.join(", ")
}

/// Matches `parts` against `kind`'s pattern: segment by segment, an optional one tried left out
/// when it does not match.
fn matches(kind: &Kind, parts: &[&str], under: &Under<'_>, shown: &Shown) -> Result<(), Miss> {
    let segs = segments(kind.pattern);
    walk(kind, &segs, parts, 0, under, shown)
}

fn walk(
    kind: &Kind,
    segs: &[Segment<'_>],
    parts: &[&str],
    depth: usize,
    under: &Under<'_>,
    shown: &Shown,
) -> Result<(), Miss> {
    let Some((seg, rest)) = segs.split_first() else {
        return match parts.first() {
            None => Ok(()),
            Some(extra) => Err(Miss {
                depth,
                why: format!(
                    "the kind {} has no key or part '{}' (its keys: {})",
                    kind.name(),
                    extra,
                    keys_of(kind)
                ),
            }),
        };
    };
    let here = match parts.first() {
        None => Err(Miss {
            depth,
            why: format!(
                "the label ends before the kind {} gives its {}",
                kind.name(),
                seg.literal
                    .strip_suffix('=')
                    .map_or_else(|| format!("part '{}'", seg.literal), |k| format!("key {k}"))
            ),
        }),
        Some(part) => segment(kind, seg, part, under, shown).map_err(|why| Miss { depth, why }),
    };
    let taken = here.and_then(|()| walk(kind, rest, &parts[1..], depth + 1, under, shown));
    match taken {
        Ok(()) => Ok(()),
        // Left out, the segment may still fit; when both fail, the reason is the taken one's if
        // the label's part is this segment's (`unit=FR-I`, a wrong value), else the other's.
        Err(miss) if seg.optional => match walk(kind, rest, parts, depth, under, shown) {
            Ok(()) => Ok(()),
            Err(other) => {
                let ours = !seg.literal.is_empty()
                    && parts.first().is_some_and(|p| p.starts_with(seg.literal));
                if other.depth > miss.depth || (other.depth == miss.depth && !ours) {
                    Err(other)
                } else {
                    Err(miss)
                }
            }
        },
        Err(miss) => Err(miss),
    }
}

fn keys_of(kind: &Kind) -> String {
    let keys = kind.keys();
    if keys.is_empty() {
        "none".to_string()
    } else {
        keys.join(", ")
    }
}

/// One part of a label against one segment of a pattern.
fn segment(
    kind: &Kind,
    seg: &Segment<'_>,
    part: &str,
    under: &Under<'_>,
    shown: &Shown,
) -> Result<(), String> {
    let Some(value) = part.strip_prefix(seg.literal) else {
        return Err(match seg.literal.strip_suffix('=') {
            Some(key) => match part.split_once('=') {
                Some((other, _)) => format!(
                    "the kind {} has no key {} where it gives {} (its keys: {})",
                    kind.name(),
                    other,
                    key,
                    keys_of(kind)
                ),
                None => format!(
                    "the kind {} gives its key {} where the label has '{}'",
                    kind.name(),
                    key,
                    part
                ),
            },
            None => format!(
                "the kind {} has '{}' where the label has '{}'",
                kind.name(),
                seg.literal,
                part
            ),
        });
    };
    let Some(placeholder) = seg.placeholder else {
        return if value.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "the kind {} has '{}' where the label has '{}'",
                kind.name(),
                seg.literal,
                part
            ))
        };
    };
    let key = seg.literal.strip_suffix('=').unwrap_or(seg.literal);
    let (placeholder, bound) = match placeholder.split_once('@') {
        Some((p, b)) => (p, Some(b)),
        None => (placeholder, None),
    };
    value_fits(placeholder, key, value, shown)?;
    match bound {
        Some("area") => match under.area {
            Some(at) if at != value => Err(format!(
                "{key}={value} is not the place of its event, {at}: the roll was moved or renamed"
            )),
            _ => Ok(()),
        },
        Some("text") => match under.text {
            Some(text) if !names(text, value) => Err(format!(
                "{key}={value} is not named by its event's text: the roll was moved or renamed"
            )),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

/// Whether `text` names `value` as a word of its own: not inside a longer name ("FR-I" is not in
/// "FR-II").
fn names(text: &str, value: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    text.match_indices(value).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + value.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// Whether `value` is a value of `placeholder`.
fn value_fits(placeholder: &str, key: &str, value: &str, shown: &Shown) -> Result<(), String> {
    match placeholder {
        "place" => match &shown.places {
            Some(places) if !places.contains(value) => Err(format!(
                "{key}={value} names a place that is not on the map the report shows"
            )),
            _ => Ok(()),
        },
        "power" => match &shown.powers {
            Some(powers) if !powers.contains(value) => Err(format!(
                "{key}={value} names no power of the game (its powers: {})",
                powers.iter().cloned().collect::<Vec<_>>().join(", ")
            )),
            _ => Ok(()),
        },
        "n" => {
            let ok = !value.is_empty()
                && value.bytes().all(|b| b.is_ascii_digit())
                && !value.starts_with('0');
            ok.then_some(())
                .ok_or_else(|| format!("{key}={value} is not a number 1, 2, 3..."))
        }
        "turn" => {
            if value == shown.turn.to_string() {
                Ok(())
            } else {
                Err(format!(
                    "{key}{value} is not the report's turn, {}",
                    shown.turn
                ))
            }
        }
        "spot" => {
            let ok = value.split_once('-').is_some_and(|(c, r)| {
                [c, r]
                    .iter()
                    .all(|x| !x.is_empty() && x.len() <= 3 && x.bytes().all(|b| b.is_ascii_digit()))
            });
            ok.then_some(())
                .ok_or_else(|| format!("{key}={value} is not a tactical square (column-row, 14-1)"))
        }
        "id" => {
            let ok = !value.is_empty() && !value.contains(['=', ' ']);
            ok.then_some(())
                .ok_or_else(|| format!("{key}={value} is not an id"))
        }
        words => {
            if words.split('|').any(|w| w == value) {
                Ok(())
            } else {
                Err(format!(
                    "{key}={value} is none of the words the rules give it ({})",
                    words.replace('|', ", ")
                ))
            }
        }
    }
}

/// The binding of an event's text to its dice (`engine::binding`): the text is its template
/// rendered with the faces `face` gives (of the rolls listed under the event), and no number of it
/// stands where `grammar`'s `says` phrases tell a die unless the template binds it. The reason, in
/// words, when it is not.
pub fn check_told(
    grammar: &Grammar,
    text: &str,
    template: Option<&str>,
    face: impl Fn(&str, usize, bool) -> Option<u32>,
) -> Result<(), String> {
    use crate::engine::binding;
    let words = match template {
        None => text.to_string(),
        Some(t) => {
            let parts = binding::parse(t).map_err(|why| format!("its template is none: {why}"))?;
            if let Some(d) = binding::departure(&parts, text, face) {
                return Err(d.to_string());
            }
            binding::words(&parts)
        }
    };
    let list = |n: Vec<u32>| n.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let unbound = grammar.numbers_in_text(&words);
    if !unbound.is_empty() {
        return Err(format!(
            "its text gives {} as a die's face, bound to no roll (its template does not tell it): a roll line was removed or the number written in",
            list(unbound)
        ));
    }
    let worked = grammar.numbers_worked_out(&words);
    if !worked.is_empty() {
        return Err(format!(
            "its text gives {} as a number worked out from a die or repeating one, bound to no roll (its template does not tell it): the number was written in",
            list(worked)
        ));
    }
    Ok(())
}

/// Every roll of a turn's `events` against `grammar` (its label, under its event), every event of a
/// kind that always rolls (it lists a roll), and each event's text against its dice (`check_told`):
/// the problems, each a sentence. The property tests hold every
/// resolution of every ruleset to it, sealed rolls included.
pub fn check_events(
    grammar: &Grammar,
    events: &[crate::engine::event::Event],
    shown: &Shown,
) -> Vec<String> {
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        for r in &e.rolls {
            let under = Under {
                kind: Some(&e.kind),
                area: e.area.as_deref(),
                text: Some(&e.text),
            };
            if let Err(why) = check(grammar, &r.label, &under, shown) {
                out.push(format!("{}: {why} (event: {})", r.label, e.text));
            }
        }
        if e.rolls.is_empty() && grammar.rolled.contains(&e.kind.as_str()) {
            out.push(format!(
                "an event of the kind {} lists no roll: {}",
                e.kind, e.text
            ));
        }
        // A die repeated from a roll of an event above: one that every power told this event is
        // told too, so that his report lists it above.
        let above = |l: &str, d: usize| {
            events[..i]
                .iter()
                .filter(|o| o.visible_to.is_superset(&e.visible_to))
                .find_map(|o| o.face(l, d))
        };
        let face = |l: &str, d: usize, up: bool| if up { above(l, d) } else { e.face(l, d) };
        if let Err(why) = check_told(grammar, &e.text, e.template.as_deref(), face) {
            out.push(format!("{why}: {}", e.text));
        }
    }
    out
}

/// The placeholders of a pattern and what each value must be, as `schema/dice-labels.json` gives
/// them (the module's table).
pub const PLACEHOLDERS: [(&str, &str); 9] = [
    ("place", "a place on the map the report shows (its check object's map.toml)"),
    ("x@area", "a value of x that is the area of the event the roll stands under"),
    ("x@text", "a value of x that the event's text names as a word of its own (not inside a longer word of letters, digits, '-' or '_')"),
    ("power", "a power of the game"),
    ("n", "a whole number from 1, without leading zeros"),
    ("turn", "the report's turn"),
    ("id", "an id of a unit, leader, fleet or ship: no '/', '=' or space"),
    ("spot", "a square of a tactical map, column-row: 14-1"),
    ("a|b", "one of the words listed"),
];

/// The format `schema/dice-labels.json` names.
pub const FORMAT: &str = "pbem-dice-labels/1";

/// Every ruleset's grammar, as `schema/dice-labels.json` publishes them: the format, the
/// placeholders and each ruleset's kinds, `says` and `rolled`.
pub fn to_json(grammars: &[&Grammar]) -> String {
    let placeholders: serde_json::Map<String, serde_json::Value> = PLACEHOLDERS
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)))
        .collect();
    let doc = serde_json::json!({
        "format": FORMAT,
        "about": "The dice labels of each ruleset of pbem: a label is kind/key=value/..., matched segment by segment against one pattern of its ruleset; a segment ending in ? may be left out. A ruleset's says are the words that stand right before a die's face in an event's text: a number so placed must be a die the event's template binds ({LABEL die N}, docs/DICE.md); in a text report, which carries no template, a face of the event's rolls, in order. Its works are the words that stand right before a number worked out from a die or repeating one: in a report whose texts are bound, a number so placed must be one the template binds ({LABEL die N + K}, {LABEL die N above}); a text report does not read them. docs/DICE.md, The numbers of an event's text.",
        "placeholders": placeholders,
        "every_ruleset": ENGINE,
        "rulesets": grammars,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Grammar = Grammar {
        ruleset: "test",
        name: "Test",
        says: &["rolls", "the die is"],
        works: &["(modified"],
        rolled: &["round"],
        kinds: &[
            Kind {
                pattern: "combat-order/area={place@area}",
                events: &["combat-order"],
                dice: "d1000000",
                rule: "EiA 7.5.1.3",
            },
            Kind {
                pattern: "combat/area={place@area}/round={n}/phase=insurrection?",
                events: &["round"],
                dice: "d6 d6",
                rule: "EiA 7.5",
            },
            Kind {
                pattern: "fire/side={attacker|defender}/power={power@text}/unit={id@text}?",
                events: &["fire"],
                dice: "d6",
                rule: "x",
            },
            Kind {
                pattern: "gitm/t{turn}/siege/{place}",
                events: &["siege"],
                dice: "d6",
                rule: "x",
            },
        ],
    };

    fn shown() -> Shown {
        Shown {
            places: Some(["Ulm", "Passau"].map(String::from).into()),
            powers: Some(["france", "austria"].map(String::from).into()),
            turn: 2,
        }
    }

    fn ck(label: &str, event: &str, area: Option<&str>) -> Result<(), String> {
        let under = Under {
            kind: Some(event),
            area,
            text: Some("france sends FR-II"),
        };
        check(&G, label, &under, &shown())
    }

    /// The binding check of `verify` and the property tests: an event made by the engine passes; its
    /// die edited, its roll gone, or its number written in unbound, fails with the reason.
    #[test]
    fn an_events_text_is_checked_against_its_dice_by_its_template() {
        use crate::engine::event::{Die, Event, Roll};
        let roll = Roll {
            label: "combat/area=Ulm/round=1".into(),
            dice: vec![Die { sides: 6, face: 4 }, Die { sides: 6, face: 2 }],
            sealed: false,
        };
        let text = format!(
            "france rolls {}, austria rolls {}.",
            roll.told(0),
            roll.told(1)
        );
        let e = Event::new(
            crate::rule::Rule::new("EiA", "7.5", "combat"),
            "round",
            text,
        )
        .roll(roll.clone());
        assert_eq!(e.text, "france rolls 4, austria rolls 2.");
        let t = e.template.as_deref();
        let face = |l: &str, d: usize, _: bool| e.face(l, d);
        assert_eq!(check_told(&G, &e.text, t, face), Ok(()));
        let edited = check_told(&G, "france rolls 5, austria rolls 2.", t, face).unwrap_err();
        assert!(
            edited.contains("gives 5 where die 1 of the roll combat/area=Ulm/round=1 shows 4"),
            "{edited}"
        );
        let gone = check_told(&G, &e.text, t, |_, _, _| None).unwrap_err();
        assert!(
            gone.contains("which is not listed under it: a roll line was moved or removed"),
            "{gone}"
        );
        let unbound = check_told(&G, &e.text, None, face).unwrap_err();
        assert!(
            unbound.contains("gives 4, 2 as a die's face, bound to no roll"),
            "{unbound}"
        );
        // A number worked out from the die is bound by the template's function; written into the
        // template as a number after one of the grammar's `works` phrases, it is refused.
        let modified = format!(
            "france rolls {} (modified {}).",
            roll.told(0),
            roll.told(0).plus(2)
        );
        let e = Event::new(
            crate::rule::Rule::new("EiA", "7.5", "combat"),
            "round",
            modified,
        )
        .roll(roll.clone());
        assert_eq!(e.text, "france rolls 4 (modified 6).");
        let face = |l: &str, d: usize, _: bool| e.face(l, d);
        assert_eq!(check_told(&G, &e.text, e.template.as_deref(), face), Ok(()));
        let written = "france rolls {combat/area=Ulm/round=1 die 1} (modified 6).";
        let why = check_told(&G, &e.text, Some(written), face).unwrap_err();
        assert!(
            why.contains(
                "gives 6 as a number worked out from a die or repeating one, bound to no roll"
            ),
            "{why}"
        );
    }

    #[test]
    fn numbers_after_the_phrases_are_read() {
        assert_eq!(
            G.numbers_in_text("It rolls 4, the besiegers roll 6; the die is 3: x rolls"),
            [4, 3]
        );
        assert_eq!(G.numbers_in_text("the die 5 is 2"), Vec::<u32>::new());
    }

    #[test]
    fn labels_the_grammar_gives_pass() {
        assert_eq!(
            ck("combat-order/area=Passau", "combat-order", Some("Passau")),
            Ok(())
        );
        assert_eq!(ck("combat/area=Ulm/round=3", "round", Some("Ulm")), Ok(()));
        assert_eq!(
            ck(
                "combat/area=Ulm/round=3/phase=insurrection",
                "round",
                Some("Ulm")
            ),
            Ok(())
        );
        assert_eq!(ck("fire/side=attacker/power=france", "fire", None), Ok(()));
        assert_eq!(ck("gitm/t2/siege/Ulm", "siege", None), Ok(()));
    }

    #[test]
    fn the_engines_kinds_are_every_rulesets() {
        let under = Under {
            kind: Some("control-of-power"),
            area: None,
            text: Some("Control of austria: france 5+0; france rolls highest"),
        };
        assert_eq!(
            check(&G, "ump-control/ump=austria/power=france", &under, &shown()),
            Ok(())
        );
    }

    #[test]
    fn a_key_the_kind_lacks_is_named() {
        let e = ck(
            "combat-order/area=Passau/round=2",
            "combat-order",
            Some("Passau"),
        )
        .unwrap_err();
        assert!(e.contains("has no key or part 'round=2'"), "{e}");
    }

    #[test]
    fn a_place_off_the_map_or_not_the_events_is_named() {
        let e = ck("combat-order/area=Passaux", "combat-order", Some("Passau")).unwrap_err();
        assert!(e.contains("not on the map"), "{e}");
        let e = ck("combat-order/area=Ulm", "combat-order", Some("Passau")).unwrap_err();
        assert!(e.contains("not the place of its event"), "{e}");
    }

    #[test]
    fn an_invented_kind_and_bad_values_are_named() {
        let e = ck("luck/area=Ulm", "round", Some("Ulm")).unwrap_err();
        assert!(e.contains("no kind of roll"), "{e}");
        let e = ck("combat/area=Ulm/round=01", "round", Some("Ulm")).unwrap_err();
        assert!(e.contains("not a number"), "{e}");
        let e = ck("fire/side=both/power=france", "fire", None).unwrap_err();
        assert!(e.contains("none of the words"), "{e}");
        let e = ck("fire/side=attacker/power=prussia", "fire", None).unwrap_err();
        assert!(e.contains("no power"), "{e}");
        let e = ck("gitm/t3/siege/Ulm", "siege", None).unwrap_err();
        assert!(e.contains("not the report's turn"), "{e}");
        let e = ck("combat/area=Ulm/round=1/phase=other", "round", Some("Ulm")).unwrap_err();
        assert!(e.contains("phase"), "{e}");
    }

    #[test]
    fn a_value_bound_to_the_text_must_be_named_there() {
        assert_eq!(
            ck("fire/side=attacker/power=france/unit=FR-II", "fire", None),
            Ok(())
        );
        let e = ck("fire/side=attacker/power=austria", "fire", None).unwrap_err();
        assert!(e.contains("not named by its event's text"), "{e}");
        let e = ck("fire/side=attacker/power=france/unit=FR-I", "fire", None).unwrap_err();
        assert!(e.contains("not named by its event's text"), "{e}");
    }

    #[test]
    fn a_roll_under_another_kind_of_event_is_named() {
        let e = ck("combat/area=Ulm/round=1", "pursuit", Some("Ulm")).unwrap_err();
        assert!(e.contains("moved to another event"), "{e}");
    }
}
