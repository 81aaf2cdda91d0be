//! The order verbs of Empires in Arms, their parsing and their legality.
//!
//! ```text
//! move <unit> <area> [<area> ...]     land movement along a path (EiA 7)
//! attack <area>                       declare an attack on the enemy corps there (EiA 7.5)
//! chit <area> <chit>                  the tactical chit for the combat there (EiA 19.1 interrupt 1)
//! standing <key> <value>              a standing order, kept until changed (DESIGN "decision point")
//! ```
//!
//! Parsing reads names case-insensitively and keeps them as the game spells them, so that an accepted
//! order prints (`Display`) as its canonical text, which parses back to the same order. Every order that
//! is rejected gets a diagnostic with a span, a hint and the rule that rejects it; the other orders of
//! the file stand. ORDERS.md documents this language for players: keep the two in step.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::Range;

use crate::diag::{did_you_mean, Diagnostic, Source};
use crate::game::map::Map;
use crate::game::state::State;
use crate::orders::{Line, Located, Token, HEADER_WORDS};
use crate::rule::Rule;

use super::decisions::CHIT;
use super::tables::Tables;

/// EiA 7: land movement (the movement rules are not in the seeds we hold; cited by chapter).
pub const LAND_MOVEMENT: Rule = Rule::new("EiA", "7", "land movement");
/// EiA 7.5: land combat, which takes place in land areas.
pub const LAND_COMBAT: Rule = Rule::new("EiA", "7.5", "land combat");
/// pbem: a power orders its own units only.
pub const OWN_UNITS: Rule = Rule::new("pbem", "orders/own-units", "a power orders its own units only");
/// pbem: orders are written as ORDERS.md shows, with the names of the game.
pub const ORDER_SYNTAX: Rule = Rule::new("pbem", "orders/syntax", "orders are written as ORDERS.md shows");

/// The order words of EiA.
pub const VERBS: [&str; 4] = ["move", "attack", "chit", "standing"];

/// One EiA order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EiaOrder {
    /// Move a corps or a leader along `path` (the areas entered, in order).
    Move { unit: String, path: Vec<String> },
    /// Attack the enemy corps in `area` after movement.
    Attack { area: String },
    /// The tactical chit for the combat in `area`, attacking or defending.
    Chit { area: String, chit: String },
    /// A standing order: `key` is a decision point's key, `value` its setting.
    Standing { key: String, value: String },
}

impl fmt::Display for EiaOrder {
    /// The canonical text of the order: parsing it gives the same order back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EiaOrder::Move { unit, path } => {
                write!(f, "move {unit}")?;
                for area in path {
                    write!(f, " {area}")?;
                }
                Ok(())
            }
            EiaOrder::Attack { area } => write!(f, "attack {area}"),
            EiaOrder::Chit { area, chit } => write!(f, "chit {area} {chit}"),
            EiaOrder::Standing { key, value } => write!(f, "standing {key} {value}"),
        }
    }
}

/// The standing-order keys and the values each takes.
pub fn standing_keys(tables: &Tables) -> Vec<(&'static str, Vec<String>)> {
    vec![
        ("attack-chit", tables.chits.attack.clone()),
        ("defence-chit", tables.chits.defence.clone()),
        ("pursue", vec!["always".into(), "never".into()]),
        ("reinforce", vec!["always".into(), "never".into()]),
    ]
}

/// What parsing needs to know of the game.
pub struct Context<'a> {
    pub map: &'a Map,
    pub state: &'a State,
    pub tables: &'a Tables,
}

/// An order as parsed, with the span of each of its arguments (for diagnostics that point at one).
struct Parsed {
    order: Located<EiaOrder>,
    /// The spans of the words after the verb, in order; empty when not known.
    args: Vec<Range<usize>>,
}

impl Parsed {
    /// The span of argument `i`, or of the whole order when it is not known.
    fn arg(&self, i: usize) -> Range<usize> {
        self.args.get(i).cloned().unwrap_or_else(|| self.order.span.clone())
    }
}

/// Parses one order line: the verb, its arguments, and the names they use.
pub fn parse_line(line: &Line, cx: &Context<'_>) -> Result<EiaOrder, Diagnostic> {
    parse_line_for(line, cx, None)
}

/// Parses one order line; `power`, when known, makes hints about units name that power's own.
fn parse_line_for(line: &Line, cx: &Context<'_>, power: Option<&str>) -> Result<EiaOrder, Diagnostic> {
    let Some((verb, args)) = line.tokens.split_first() else {
        return Err(Diagnostic::error("empty order line", line.span.clone())
            .hint("write one order per line, as ORDERS.md shows")
            .rule(ORDER_SYNTAX));
    };
    match verb.text.to_ascii_lowercase().as_str() {
        "move" => {
            let [unit, path @ ..] = args else {
                return Err(missing_move(line));
            };
            if path.is_empty() {
                return Err(missing_move(line));
            }
            let unit = unit_name(unit, cx, power)?;
            let path = path.iter().map(|t| area_name(t, cx)).collect::<Result<Vec<_>, _>>()?;
            Ok(EiaOrder::Move { unit, path })
        }
        "attack" => {
            let [area] = exact_args::<1>(line, "attack", "attack Ulm")?;
            Ok(EiaOrder::Attack { area: area_name(area, cx)? })
        }
        "chit" => {
            let [area, chit] = exact_args::<2>(line, "chit", "chit Ulm outflank")?;
            let area = area_name(area, cx)?;
            let mut all: Vec<String> = cx.tables.chits.attack.clone();
            for d in &cx.tables.chits.defence {
                if !all.contains(d) {
                    all.push(d.clone());
                }
            }
            let chit = one_of(chit, &all, format!("unknown chit '{}'", chit.text))?;
            Ok(EiaOrder::Chit { area, chit })
        }
        "standing" => {
            let [key, value] = exact_args::<2>(line, "standing", "standing pursue always")?;
            let keys = standing_keys(cx.tables);
            let names: Vec<String> = keys.iter().map(|(k, _)| k.to_string()).collect();
            let key = one_of(key, &names, format!("unknown standing order '{}'", key.text))?;
            let values = keys.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_slice()).unwrap_or_default();
            let value = one_of(value, values, format!("'{}' is not a setting of '{key}'", value.text))?;
            Ok(EiaOrder::Standing { key, value })
        }
        _ => {
            let words = VERBS.iter().chain(HEADER_WORDS.iter()).copied();
            let hint = did_you_mean(&verb.text, words)
                .map(|v| format!("did you mean '{v}'?"))
                .unwrap_or_else(|| format!("the orders are: {}", VERBS.join(", ")));
            Err(Diagnostic::error(format!("unknown order '{}'", verb.text), verb.span.clone())
                .label("not an order")
                .hint(hint)
                .rule(ORDER_SYNTAX))
        }
    }
}

fn missing_move(line: &Line) -> Diagnostic {
    Diagnostic::error("'move' needs a unit and at least one area", line.span.clone())
        .label("incomplete order")
        .hint("write 'move FR-I Stuttgart Ulm': the unit, then each area it enters")
        .rule(ORDER_SYNTAX)
}

/// The `N` arguments of an order that takes exactly `N`, or a diagnostic naming how many it got.
fn exact_args<'l, const N: usize>(line: &'l Line, verb: &str, example: &str) -> Result<&'l [Token; N], Diagnostic> {
    let args = line.tokens.get(1..).unwrap_or_default();
    if let Ok(exact) = <&[Token; N]>::try_from(args) {
        return Ok(exact);
    }
    let got = args.len();
    let plural = if N == 1 { "" } else { "s" };
    let d = match args.get(N) {
        None => Diagnostic::error(format!("'{verb}' needs {N} argument{plural}, found {got}"), line.span.clone())
            .label("incomplete order"),
        Some(extra) => Diagnostic::error(format!("'{verb}' takes {N} argument{plural}, found {got}"), extra.span.start..line.span.end)
            .label("one word too many"),
    };
    Err(d.hint(format!("write it as '{example}'")).rule(ORDER_SYNTAX))
}

fn area_name(t: &Token, cx: &Context<'_>) -> Result<String, Diagnostic> {
    match cx.map.find(&t.text) {
        Some(i) => Ok(cx.map.area(i).id.clone()),
        None => Err(Diagnostic::error(format!("unknown area '{}'", t.text), t.span.clone())
            .label("not on the map")
            .hint(cx.map.suggest(&t.text).unwrap_or_else(|| "write the area's name as your turn report spells it".into()))
            .rule(ORDER_SYNTAX)),
    }
}

fn unit_name(t: &Token, cx: &Context<'_>, power: Option<&str>) -> Result<String, Diagnostic> {
    let s = cx.state;
    if let Some(c) = s.find_corps(&t.text) {
        return Ok(c.id.get_ref().clone());
    }
    if let Some(l) = s.find_leader(&t.text) {
        return Ok(l.id.get_ref().clone());
    }
    if let Some(f) = s.find_fleet(&t.text) {
        return Ok(f.id.get_ref().clone());
    }
    let own: Vec<&str> = match power {
        Some(p) => s
            .corps
            .iter()
            .filter(|c| c.power.get_ref() == p)
            .map(|c| c.id.get_ref().as_str())
            .chain(s.leaders.iter().filter(|l| l.power.get_ref() == p).map(|l| l.id.get_ref().as_str()))
            .collect(),
        None => Vec::new(),
    };
    let hint = did_you_mean(&t.text, own.iter().copied())
        .or_else(|| did_you_mean(&t.text, s.unit_ids()))
        .map(|u| format!("did you mean '{u}'?"))
        .unwrap_or_else(|| match own.as_slice() {
            [] => "write the unit's id as your turn report spells it, such as 'FR-I'".to_string(),
            units => format!("your units are: {}", units.join(", ")),
        });
    Err(Diagnostic::error(format!("unknown unit '{}'", t.text), t.span.clone())
        .label("no such unit in this game")
        .hint(hint)
        .rule(ORDER_SYNTAX))
}

/// The value of `values` that `t` names, case-insensitively, or the diagnostic `unknown`.
fn one_of(t: &Token, values: &[String], unknown: String) -> Result<String, Diagnostic> {
    if let Some(v) = values.iter().find(|v| v.eq_ignore_ascii_case(&t.text)) {
        return Ok(v.clone());
    }
    let hint = did_you_mean(&t.text, values.iter().map(String::as_str))
        .map(|v| format!("did you mean '{v}'?"))
        .unwrap_or_else(|| format!("write one of: {}", values.join(", ")));
    Err(Diagnostic::error(unknown, t.span.clone()).hint(hint).rule(ORDER_SYNTAX))
}

/// Checks the legality of parsed orders for `power` against the state: ownership, adjacency, land
/// only, movement allowance and one move per unit (EiA 7); attacks and chits in land areas only, one
/// chit per combat (EiA 7.5, 19.1); for a standing order given twice, the later one stands. Each illegal
/// order is rejected on its own, citing the rule; orders that change nothing are dropped with a warning.
pub fn check_legality(power: &str, orders: Vec<Located<EiaOrder>>, cx: &Context<'_>) -> (Vec<Located<EiaOrder>>, Vec<Diagnostic>) {
    check_parsed(power, orders.into_iter().map(|order| Parsed { order, args: Vec::new() }).collect(), cx)
}

/// What the legality check makes of one order.
enum Verdict {
    Stands,
    /// Legal but changes nothing: dropped, with a warning.
    Dropped(Diagnostic),
    Rejected(Diagnostic),
}

fn check_parsed(power: &str, orders: Vec<Parsed>, cx: &Context<'_>) -> (Vec<Located<EiaOrder>>, Vec<Diagnostic>) {
    // The last standing order of each key is the one that stands.
    let mut last_standing = BTreeMap::new();
    for (i, p) in orders.iter().enumerate() {
        if let EiaOrder::Standing { key, .. } = &p.order.value {
            last_standing.insert(key.clone(), i);
        }
    }
    let mut ok = Vec::new();
    let mut diags = Vec::new();
    let mut moved = BTreeSet::new();
    let mut attacks = BTreeSet::new();
    let mut chits = BTreeSet::new();
    for (i, p) in orders.into_iter().enumerate() {
        let verdict = match &p.order.value {
            EiaOrder::Move { unit, path } => match check_move(power, unit, path, &p, cx, &moved) {
                Ok(()) => {
                    moved.insert(unit.to_ascii_lowercase());
                    Verdict::Stands
                }
                Err(d) => Verdict::Rejected(d),
            },
            EiaOrder::Attack { area } => match land_combat_area(area, &p, cx) {
                Err(d) => Verdict::Rejected(d),
                Ok(()) if !attacks.insert(area.clone()) => Verdict::Dropped(
                    Diagnostic::warning(format!("a second attack on {area}"), p.order.span.clone())
                        .label("already declared above")
                        .hint(format!("one 'attack {area}' line is enough; this one is ignored")),
                ),
                Ok(()) => Verdict::Stands,
            },
            EiaOrder::Chit { area, .. } => match land_combat_area(area, &p, cx) {
                Err(d) => Verdict::Rejected(d),
                Ok(()) if !chits.insert(area.clone()) => Verdict::Rejected(
                    Diagnostic::error(format!("a second chit for {area}"), p.order.span.clone())
                        .label("one chit per combat")
                        .hint(format!("keep one 'chit {area} ...' line; the first one stands"))
                        .rule(CHIT),
                ),
                Ok(()) => Verdict::Stands,
            },
            EiaOrder::Standing { key, .. } if last_standing.get(key) != Some(&i) => Verdict::Dropped(
                Diagnostic::warning(format!("standing order '{key}' is given again below: the later one stands"), p.order.span.clone())
                    .label("replaced below")
                    .hint(format!("keep one 'standing {key}' line")),
            ),
            EiaOrder::Standing { .. } => Verdict::Stands,
        };
        match verdict {
            Verdict::Stands => ok.push(p.order),
            Verdict::Dropped(d) | Verdict::Rejected(d) => diags.push(d),
        }
    }
    (ok, diags)
}

/// EiA 7.5: combat takes place in land areas.
fn land_combat_area(area: &str, p: &Parsed, cx: &Context<'_>) -> Result<(), Diagnostic> {
    match cx.map.find(area) {
        Some(i) if cx.map.area(i).is_land() => Ok(()),
        Some(_) => Err(Diagnostic::error(format!("{area} is a sea area: land combat needs a land area"), p.arg(0))
            .label("at sea")
            .hint("attack and choose chits in land areas; pbem does not adjudicate naval combat yet")
            .rule(LAND_COMBAT)),
        None => Err(Diagnostic::error(format!("unknown area '{area}'"), p.arg(0))
            .label("not on the map")
            .hint(cx.map.suggest(area).unwrap_or_else(|| "write the area's name as your turn report spells it".into()))
            .rule(ORDER_SYNTAX)),
    }
}

/// EiA 7: a move of one's own corps or leader, once a turn, along adjacent land areas, within its
/// movement allowance.
fn check_move(power: &str, unit: &str, path: &[String], p: &Parsed, cx: &Context<'_>, moved: &BTreeSet<String>) -> Result<(), Diagnostic> {
    let s = cx.state;
    let span = p.order.span.clone();
    let (owner, start, allowance) = if let Some(c) = s.find_corps(unit) {
        (c.power.get_ref(), c.area.get_ref(), c.movement)
    } else if let Some(l) = s.find_leader(unit) {
        (l.power.get_ref(), l.area.get_ref(), l.movement)
    } else if let Some(f) = s.find_fleet(unit) {
        if f.power.get_ref() != power {
            return Err(not_yours(unit, f.power.get_ref(), p.arg(0)));
        }
        return Err(Diagnostic::error(format!("fleet {unit} cannot move on land"), span)
            .label("a fleet")
            .hint("fleets move in the naval phase, which pbem does not adjudicate yet")
            .rule(LAND_MOVEMENT));
    } else {
        return Err(Diagnostic::error(format!("unknown unit '{unit}'"), p.arg(0))
            .label("no such unit in this game")
            .hint("write the unit's id as your turn report spells it, such as 'FR-I'")
            .rule(ORDER_SYNTAX));
    };
    if owner != power {
        return Err(not_yours(unit, owner, p.arg(0)));
    }
    if moved.contains(&unit.to_ascii_lowercase()) {
        return Err(Diagnostic::error(format!("{unit} is already ordered to move"), span)
            .label("second move of this unit")
            .hint("give each unit one move order; write its whole path on one line")
            .rule(LAND_MOVEMENT));
    }
    if u32::try_from(path.len()).map_or(true, |n| n > allowance) {
        return Err(Diagnostic::error(format!("{unit} can move {allowance} areas, this path has {}", path.len()), span)
            .label("too far")
            .hint(format!("shorten the path to at most {allowance} areas"))
            .rule(LAND_MOVEMENT));
    }
    let Some(mut here) = cx.map.find(start) else {
        return Err(Diagnostic::error(format!("{unit} stands in '{start}', which is not on the map"), span)
            .hint("the game's state is damaged: tell the referee")
            .rule(LAND_MOVEMENT));
    };
    for (k, step) in path.iter().enumerate() {
        let at = p.arg(k + 1);
        let Some(next) = cx.map.find(step) else {
            return Err(Diagnostic::error(format!("unknown area '{step}'"), at)
                .label("not on the map")
                .hint(cx.map.suggest(step).unwrap_or_else(|| "write the area's name as your turn report spells it".into()))
                .rule(ORDER_SYNTAX));
        };
        if next == here {
            let d = if k == 0 {
                Diagnostic::error(format!("{unit} is already in {step}"), at)
                    .hint("list only the areas the unit enters; a unit that stays needs no order")
            } else {
                Diagnostic::error(format!("{step} is written twice in a row"), at).hint("list each area the unit enters once")
            };
            return Err(d.label("the unit is here already").rule(LAND_MOVEMENT));
        }
        if !cx.map.adjacent(here, next) {
            return Err(Diagnostic::error(format!("{} is not adjacent to {}", step, cx.map.area(here).id), at)
                .label("path breaks here")
                .hint("list every area the unit enters, each next to the one before")
                .rule(LAND_MOVEMENT));
        }
        if !cx.map.area(next).is_land() {
            return Err(Diagnostic::error(format!("{step} is a sea area"), at)
                .label("at sea")
                .hint("corps and leaders move over land; sea transport comes with the naval phase")
                .rule(LAND_MOVEMENT));
        }
        here = next;
    }
    Ok(())
}

fn not_yours(unit: &str, owner: &str, span: Range<usize>) -> Diagnostic {
    Diagnostic::error(format!("{unit} is not yours: it belongs to {owner}"), span)
        .label("another power's unit")
        .hint("order only your own units")
        .rule(OWN_UNITS)
}

/// Parses and checks the order lines of one file for `power` (already authenticated).
pub fn parse_all(source: &Source, lines: &[Line], power: &str, cx: &Context<'_>) -> (Vec<Located<EiaOrder>>, Vec<Diagnostic>) {
    let _ = source;
    let mut parsed = Vec::new();
    let mut diags = Vec::new();
    for line in lines {
        if let Some(d) = line.skipped_diagnostic() {
            diags.push(d);
            continue;
        }
        match parse_line_for(line, cx, Some(power)) {
            Ok(o) => parsed.push(Parsed {
                order: Located::new(o, line.span.clone()),
                args: line.tokens.iter().skip(1).map(|t| t.span.clone()).collect(),
            }),
            Err(d) => diags.push(d),
        }
    }
    let (ok, mut more) = check_parsed(power, parsed, cx);
    diags.append(&mut more);
    (ok, diags)
}
