//! The orders of Gathered In Their Masses: the six sections of an order (GITM 6.1-6.8) as lines, one
//! section of one unit a line, and the peace and truce order (6.10). Section 1 (the unit's commander or
//! deputy and his password) is the file's header: `power`, `player` and `password`.
//!
//! ```text
//! move <unit> <box> ... [entry <c-r>] [pursue] [to-battle] [halt-detection] [halt-entry]
//!                                            section 2 (6.3): up to six boxes, one a strategic
//!                                            phase, each a square or `-` for a skipped phase (7.5)
//! tactical <unit> [to <c-r>] [via <c-r>] [phase <1-5>] [line front|second|rear]
//!          [engage <from> <to>] [no-fort]    section 3 (6.4)
//! support <unit> <c-r> radius <n> [phases <from> <to>]      section 4 (6.5)
//! intercept <unit> <c-r> radius <n> [phases <from> <to>]    section 4 (6.5)
//! posture <unit> [attack assault|skirmish|evade] [defend last-ditch|skirmish|evade]
//!                                            section 5 (6.6)
//! supply <unit> carry <n> [from <unit>]      section 6 (6.7)
//! supply <unit> none                         draw no supply (6.7)
//! place <unit> [<square>] [<c-r>]            peace and truce turns only (6.10, 7.16)
//! merge <unit> into <unit>                   GITM 3.5, done in the supply phase
//! board <unit> <ship>                        GITM 7.17: section 2 by sea, in strategic phase 1
//! sail <ship> to <square>                    GITM 7.17: the transport's voyage to another port
//! ```
//!
//! A section a file leaves out falls back to its default (6.9, the SOP); a later line for the same
//! unit and section replaces an earlier one (6.1: the last order sent stands). The tactical part of
//! pbem reads [`TacticalOrder`] and [`Reaction`]: they are plain public structs.

#![allow(clippy::result_large_err)]

use std::collections::BTreeMap;
use std::fmt;

use crate::diag::{did_you_mean, Diagnostic};
use crate::game::map::sub_grid::{parse_sub_square, SubSquare};
use crate::game::map::{GridMap, Topology};
use crate::orders::{Line, Located, Token, ORDER_SYNTAX, OWN_UNITS};
use crate::rule::Rule;

use super::rules;
use super::state::{impassable, GitmState, Kind};

/// The order words of GITM.
pub const VERBS: [&str; 10] = [
    "move",
    "tactical",
    "support",
    "intercept",
    "posture",
    "supply",
    "place",
    "merge",
    "board",
    "sail",
];

/// Strategic phases a turn (GITM 5.2): the boxes of a path.
pub const STRATEGIC_PHASES: usize = 6;
/// Tactical phases a turn (GITM 5.2).
pub const TACTICAL_PHASES: u8 = 5;

/// Section 2: strategic movement (GITM 6.3, 7.4-7.13).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StrategicOrder {
    /// One box a strategic phase: a square's name, or `None` for a skipped phase (7.5).
    pub boxes: Vec<Option<String>>,
    /// The entry tactical square (7.13); none: the tactical square the unit starts the turn in.
    pub entry: Option<SubSquare>,
    pub pursue: bool,
    pub to_battle: bool,
    pub halt_on_detection: bool,
    pub halt_on_entry: bool,
}

/// The line a unit seeks in a battle (GITM 6.4, 9.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BattleLine {
    /// GITM 6.9: by default a unit seeks the front line.
    #[default]
    Front,
    Second,
    Rear,
}

impl BattleLine {
    pub const WORDS: [&'static str; 3] = ["front", "second", "rear"];

    pub fn word(self) -> &'static str {
        Self::WORDS[self as usize]
    }
}

/// Section 3: tactical movement (GITM 6.4, 8.2-8.9), for pbem's tactical part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TacticalOrder {
    /// Where to move (8.2); none: stay.
    pub destination: Option<SubSquare>,
    /// An intermediate waypoint (8.2; 8.7: the ford or pass to cross by).
    pub waypoint: Option<SubSquare>,
    /// The tactical phase the movement begins in, 1 to 5 (8.2: the first by default).
    pub start_phase: u8,
    /// Do not enter a fort (6.4, 8.2).
    pub no_fort: bool,
    /// Engage the nearest enemy combat unit in these phases, first and last (8.8).
    pub engage: Option<(u8, u8)>,
    /// The line sought in combat (8.9, 9.3).
    pub line: BattleLine,
}

impl Default for TacticalOrder {
    fn default() -> Self {
        TacticalOrder {
            destination: None,
            waypoint: None,
            start_phase: 1,
            no_fort: false,
            engage: None,
            line: BattleLine::Front,
        }
    }
}

/// Support (8.10) or intercept (8.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReactionKind {
    Support,
    Intercept,
}

/// Section 4: a reaction box, its centre, radius and phases (GITM 6.5, 8.10, 8.11), for pbem's
/// tactical part. The box of centre 10-5 and radius 2 runs over columns 8 to 12 and rows 3 to 7.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reaction {
    pub kind: ReactionKind,
    pub center: SubSquare,
    pub radius: u8,
    /// The tactical phases it reacts in, first and last.
    pub phases: (u8, u8),
}

impl Reaction {
    /// Whether a tactical square lies in the box (8.10).
    pub fn holds(&self, s: SubSquare) -> bool {
        let r = self.radius as i32;
        (s.col as i32 - self.center.col as i32).abs() <= r
            && (s.row as i32 - self.center.row as i32).abs() <= r
    }
}

/// The attack posture (GITM 6.6, 8.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Attack {
    Assault,
    /// GITM 6.9: skirmish by default.
    #[default]
    Skirmish,
    Evade,
}

impl Attack {
    pub const WORDS: [&'static str; 3] = ["assault", "skirmish", "evade"];
    pub fn word(self) -> &'static str {
        Self::WORDS[self as usize]
    }
}

/// The defence posture (GITM 6.6, 8.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Defend {
    LastDitch,
    /// GITM 6.9: skirmish by default.
    #[default]
    Skirmish,
    Evade,
}

impl Defend {
    pub const WORDS: [&'static str; 3] = ["last-ditch", "skirmish", "evade"];
    pub fn word(self) -> &'static str {
        Self::WORDS[self as usize]
    }
}

/// Section 5 (GITM 6.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Posture {
    pub attack: Attack,
    pub defend: Defend,
}

/// Section 6 (GITM 6.7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SupplyOrder {
    /// Units of supply to carry; none: draw no supply ("None").
    pub carry: Option<u32>,
    /// The source to draw from; none: the closest.
    pub from: Option<String>,
}

impl Default for SupplyOrder {
    /// GITM 6.9: draw one unit of supply.
    fn default() -> Self {
        SupplyOrder {
            carry: Some(1),
            from: None,
        }
    }
}

/// One order line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitmOrder {
    Move {
        unit: String,
        order: StrategicOrder,
    },
    Tactical {
        unit: String,
        order: TacticalOrder,
    },
    React {
        unit: String,
        reaction: Reaction,
    },
    Posture {
        unit: String,
        posture: Posture,
    },
    Supply {
        unit: String,
        order: SupplyOrder,
    },
    Place {
        unit: String,
        square: Option<String>,
        sub: Option<SubSquare>,
    },
    Merge {
        from: String,
        into: String,
    },
    /// GITM 7.17: the unit boards a transport of its state lying in its square's port.
    Board {
        unit: String,
        ship: String,
    },
    /// GITM 7.17: a transport sails to another port of the map, with the units that boarded it.
    Sail {
        ship: String,
        to: String,
    },
}

impl GitmOrder {
    /// The unit the line orders (for a merge, the unit merged away).
    pub fn unit(&self) -> &str {
        match self {
            GitmOrder::Move { unit, .. }
            | GitmOrder::Tactical { unit, .. }
            | GitmOrder::React { unit, .. }
            | GitmOrder::Posture { unit, .. }
            | GitmOrder::Supply { unit, .. }
            | GitmOrder::Place { unit, .. }
            | GitmOrder::Board { unit, .. } => unit,
            GitmOrder::Merge { from, .. } => from,
            GitmOrder::Sail { ship, .. } => ship,
        }
    }
}

impl fmt::Display for GitmOrder {
    /// The canonical text: parsing it gives the same order back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitmOrder::Move { unit, order } => {
                write!(f, "move {unit}")?;
                for b in &order.boxes {
                    write!(f, " {}", b.as_deref().unwrap_or("-"))?;
                }
                if let Some(e) = order.entry {
                    write!(f, " entry {e}")?;
                }
                for (on, word) in [
                    (order.pursue, "pursue"),
                    (order.to_battle, "to-battle"),
                    (order.halt_on_detection, "halt-detection"),
                    (order.halt_on_entry, "halt-entry"),
                ] {
                    if on {
                        write!(f, " {word}")?;
                    }
                }
                Ok(())
            }
            GitmOrder::Tactical { unit, order } => {
                write!(f, "tactical {unit}")?;
                if let Some(d) = order.destination {
                    write!(f, " to {d}")?;
                }
                if let Some(w) = order.waypoint {
                    write!(f, " via {w}")?;
                }
                write!(f, " phase {} line {}", order.start_phase, order.line.word())?;
                if let Some((a, b)) = order.engage {
                    write!(f, " engage {a} {b}")?;
                }
                if order.no_fort {
                    write!(f, " no-fort")?;
                }
                Ok(())
            }
            GitmOrder::React { unit, reaction: r } => write!(
                f,
                "{} {unit} {} radius {} phases {} {}",
                match r.kind {
                    ReactionKind::Support => "support",
                    ReactionKind::Intercept => "intercept",
                },
                r.center,
                r.radius,
                r.phases.0,
                r.phases.1
            ),
            GitmOrder::Posture { unit, posture } => write!(
                f,
                "posture {unit} attack {} defend {}",
                posture.attack.word(),
                posture.defend.word()
            ),
            GitmOrder::Supply { unit, order } => match order.carry {
                None => write!(f, "supply {unit} none"),
                Some(n) => {
                    write!(f, "supply {unit} carry {n}")?;
                    if let Some(s) = &order.from {
                        write!(f, " from {s}")?;
                    }
                    Ok(())
                }
            },
            GitmOrder::Place { unit, square, sub } => {
                write!(f, "place {unit}")?;
                if let Some(s) = square {
                    write!(f, " {s}")?;
                }
                if let Some(s) = sub {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            GitmOrder::Merge { from, into } => write!(f, "merge {from} into {into}"),
            GitmOrder::Board { unit, ship } => write!(f, "board {unit} {ship}"),
            GitmOrder::Sail { ship, to } => write!(f, "sail {ship} to {to}"),
        }
    }
}

/// What the orders of one power are read against.
pub struct Context<'a> {
    pub map: &'a GridMap,
    pub gitm: &'a GitmState,
    pub power: &'a str,
}

impl Context<'_> {
    fn size(&self) -> u8 {
        self.map.sub().map_or(15, |s| s.size())
    }
}

/// The most squares of a reaction's radius (a 15x15 map is covered by 7).
pub const MAX_RADIUS: u8 = 14;
/// The most units of supply a unit may order carried.
pub const MAX_CARRY: u32 = 9;

/// Parses every order line; a bad line gives a diagnostic and never stops the others.
pub fn parse_all(lines: &[Line], cx: &Context<'_>) -> (Vec<Located<GitmOrder>>, Vec<Diagnostic>) {
    let mut ok = Vec::new();
    let mut diags = Vec::new();
    for line in lines {
        if let Some(d) = line.skipped_diagnostic() {
            diags.push(d);
            continue;
        }
        match parse_line(line, cx) {
            Ok(o) => ok.push(Located::new(o, line.span.clone())),
            Err(d) => diags.push(d),
        }
    }
    (ok, diags)
}

type Parsed<T> = Result<T, Diagnostic>;

pub(super) fn syntax(
    token: &Token,
    message: impl Into<String>,
    hint: impl Into<String>,
) -> Diagnostic {
    Diagnostic::error(message, token.span.clone())
        .hint(hint)
        .rule(ORDER_SYNTAX)
}

/// Reads one line.
pub fn parse_line(line: &Line, cx: &Context<'_>) -> Parsed<GitmOrder> {
    let t = &line.tokens;
    let Some(verb) = t.first() else {
        return Err(Diagnostic::error("empty order", line.span.clone()));
    };
    let verb_word = verb.text.to_ascii_lowercase();
    if matches!(verb_word.as_str(), "embark" | "disembark") {
        return Err(Diagnostic::error(
            format!("'{}' is not a GITM order", verb.text),
            verb.span.clone(),
        )
        .hint("units go by sea with `board <unit> <ship>`, and land where the ship's `sail <ship> to <square>` takes it (GITM 7.17)")
        .rule(rules::TRANSPORTS));
    }
    if !VERBS.contains(&verb_word.as_str()) {
        return Err(crate::orders::unknown_verb(verb, &VERBS));
    }
    let Some(unit_tok) = t.get(1) else {
        return Err(syntax(
            verb,
            format!("'{}' needs a unit", verb.text),
            format!("write the unit's id after it: {} FR1IN ...", verb_word),
        ));
    };
    if verb_word == "sail" {
        return parse_sail(unit_tok, &t[2..], cx, line);
    }
    let unit = own_unit(unit_tok, cx)?;
    let rest = &t[2..];
    let campaign = cx.gitm.season.is_campaign();
    if campaign && verb_word == "place" {
        return Err(Diagnostic::error("a place order in a campaign turn", verb.span.clone())
            .hint("in a campaign turn a unit moves by `move` and `tactical`; `place` is for peace and truce turns")
            .rule(rules::PEACE_ORDER));
    }
    if !campaign && !matches!(verb_word.as_str(), "place" | "merge") {
        return Err(Diagnostic::error(
            format!("a {} order in a turn of peace or truce", verb_word),
            verb.span.clone(),
        )
        .hint("in peace and truce a unit is ordered by `place <unit> <square> <c-r>` alone")
        .rule(rules::PEACE_ORDER));
    }
    match verb_word.as_str() {
        "move" => parse_move(unit, rest, cx, line),
        "tactical" => parse_tactical(unit, rest, cx, line),
        "support" | "intercept" => parse_reaction(&verb_word, unit, rest, cx, line),
        "posture" => parse_posture(unit, rest, line),
        "supply" => parse_supply(unit, rest, cx, line),
        "place" => parse_place(unit, rest, cx),
        "board" => parse_board(unit, unit_tok, rest, cx),
        _ => parse_merge(unit, rest, cx, line),
    }
}

/// A unit of the ordering power, as the state writes its id. Another side's brigade is told in the
/// words of no unit at all: the answer to a line must not tell which of its ids exist (GITM 4.1,
/// 4.6: another side's brigades are known only as its sighting tells them).
fn own_unit(tok: &Token, cx: &Context<'_>) -> Parsed<String> {
    match cx.gitm.brigade(&tok.text) {
        Some(b) if b.power() == cx.power => Ok(b.id().to_string()),
        _ => {
            let mine = cx
                .gitm
                .brigades
                .iter()
                .filter(|b| b.power() == cx.power)
                .map(|b| b.id());
            Err(Diagnostic::error(
                format!("no unit of yours is called '{}'", tok.text),
                tok.span.clone(),
            )
            .label("not one of your units")
            .hint(did_you_mean(&tok.text, mine).map_or_else(
                || "a unit id is nationality, number and type: FR1IN".to_string(),
                |s| format!("did you mean '{s}'?"),
            ))
            .rule(OWN_UNITS))
        }
    }
}

fn sub_square(tok: Option<&Token>, after: &Token, cx: &Context<'_>) -> Parsed<SubSquare> {
    let Some(tok) = tok else {
        return Err(syntax(
            after,
            format!("'{}' needs a tactical square", after.text),
            "write column and row with a dash, 0-0 to 14-14 (GITM 2.1)",
        ));
    };
    parse_sub_square(&tok.text, cx.size()).map_err(|b| {
        Diagnostic::error(b.message, tok.span.clone())
            .maybe_hint(b.hint)
            .rule(rules::TACTICAL_GRID)
    })
}

fn number(tok: Option<&Token>, after: &Token, lo: u32, hi: u32, rule: Rule) -> Parsed<u32> {
    let hint = format!("a number from {lo} to {hi}");
    let Some(tok) = tok else {
        return Err(syntax(
            after,
            format!("'{}' needs a number", after.text),
            hint,
        ));
    };
    match tok.text.parse::<u32>() {
        Ok(n) if (lo..=hi).contains(&n) && tok.text.len() <= 3 => Ok(n),
        _ => Err(
            Diagnostic::error(format!("'{}' is not {hint}", tok.text), tok.span.clone())
                .hint(hint)
                .rule(rule),
        ),
    }
}

fn phase(tok: Option<&Token>, after: &Token, rule: Rule) -> Parsed<u8> {
    number(tok, after, 1, TACTICAL_PHASES as u32, rule).map(|n| n as u8)
}

fn unknown_word(tok: &Token, words: &[&str], rule: Rule) -> Diagnostic {
    Diagnostic::error(format!("unknown word '{}'", tok.text), tok.span.clone())
        .label("not a word of this order")
        .hint(did_you_mean(&tok.text, words.iter().copied()).map_or_else(
            || format!("this order reads: {}", words.join(", ")),
            |s| format!("did you mean '{s}'?"),
        ))
        .rule(rule)
}

fn parse_move(unit: String, rest: &[Token], cx: &Context<'_>, line: &Line) -> Parsed<GitmOrder> {
    let mut order = StrategicOrder::default();
    let mut i = 0;
    const WORDS: [&str; 5] = [
        "entry",
        "pursue",
        "to-battle",
        "halt-detection",
        "halt-entry",
    ];
    while i < rest.len() {
        let tok = &rest[i];
        let w = tok.text.to_ascii_lowercase();
        match w.as_str() {
            "entry" => {
                order.entry = Some(sub_square(rest.get(i + 1), tok, cx)?);
                i += 1;
            }
            "pursue" => order.pursue = true,
            "to-battle" => order.to_battle = true,
            "halt-detection" => order.halt_on_detection = true,
            "halt-entry" => order.halt_on_entry = true,
            "-" => order.boxes.push(None),
            _ => {
                let sq = cx.map.parse_place(&tok.text).map_err(|b| {
                    if tok.text.contains('-') {
                        Diagnostic::error(b.message, tok.span.clone())
                            .maybe_hint(b.hint)
                            .rule(rules::GRID)
                    } else {
                        unknown_word(tok, &WORDS, rules::STRATEGIC_ORDER)
                    }
                })?;
                if impassable(cx.map, sq) {
                    return Err(Diagnostic::error(
                        format!("{} is {}, impassable", tok.text, cx.map.terrain(sq)),
                        tok.span.clone(),
                    )
                    .hint("water, high mountain and swamp squares cannot be entered")
                    .rule(rules::IMPASSABLE));
                }
                order.boxes.push(Some(cx.map.place_name(sq)));
            }
        }
        if order.boxes.len() > STRATEGIC_PHASES {
            return Err(Diagnostic::error(
                format!("more than {STRATEGIC_PHASES} boxes"),
                tok.span.clone(),
            )
            .hint("a turn has six strategic phases: one box each, a square or '-'")
            .rule(rules::WITHDRAWAL));
        }
        i += 1;
    }
    if order.boxes.iter().all(Option::is_none) && !order.pursue && !order.to_battle {
        return Err(Diagnostic::error("a move with no square", line.span.clone())
            .hint("give the path, one square a box (`move FR1IN G4-V6 G5-V6`), or `pursue` or `to-battle`")
            .rule(rules::STRATEGIC_ORDER));
    }
    Ok(GitmOrder::Move { unit, order })
}

fn parse_tactical(
    unit: String,
    rest: &[Token],
    cx: &Context<'_>,
    line: &Line,
) -> Parsed<GitmOrder> {
    let mut order = TacticalOrder::default();
    const WORDS: [&str; 6] = ["to", "via", "phase", "line", "engage", "no-fort"];
    let mut i = 0;
    while i < rest.len() {
        let tok = &rest[i];
        match tok.text.to_ascii_lowercase().as_str() {
            "to" => {
                order.destination = Some(sub_square(rest.get(i + 1), tok, cx)?);
                i += 1;
            }
            "via" => {
                order.waypoint = Some(sub_square(rest.get(i + 1), tok, cx)?);
                i += 1;
            }
            "phase" => {
                order.start_phase = phase(rest.get(i + 1), tok, rules::TACTICAL_ORDER)?;
                i += 1;
            }
            "line" => {
                let Some(w) = rest.get(i + 1) else {
                    return Err(syntax(
                        tok,
                        "'line' needs front, second or rear",
                        "line front|second|rear (GITM 6.4)",
                    ));
                };
                order.line = match w.text.to_ascii_lowercase().as_str() {
                    "front" => BattleLine::Front,
                    "second" => BattleLine::Second,
                    "rear" => BattleLine::Rear,
                    _ => return Err(unknown_word(w, &BattleLine::WORDS, rules::TACTICAL_ORDER)),
                };
                i += 1;
            }
            "engage" => {
                let a = phase(rest.get(i + 1), tok, rules::TACTICAL_ORDER)?;
                let b = phase(rest.get(i + 2), &rest[i + 1], rules::TACTICAL_ORDER)?;
                if b < a {
                    return Err(Diagnostic::error(
                        "the engage phases run backwards",
                        rest[i + 2].span.clone(),
                    )
                    .hint("engage <first phase> <last phase>, 1 to 5")
                    .rule(rules::TACTICAL_ORDER));
                }
                order.engage = Some((a, b));
                i += 2;
            }
            "no-fort" => order.no_fort = true,
            _ => return Err(unknown_word(tok, &WORDS, rules::TACTICAL_ORDER)),
        }
        i += 1;
    }
    if order.waypoint.is_some() && order.destination.is_none() {
        return Err(Diagnostic::error("a waypoint with no destination", line.span.clone())
            .hint("add `to <c-r>`: the unit moves through the waypoint to the destination (GITM 8.2)")
            .rule(rules::TACTICAL_ORDER));
    }
    Ok(GitmOrder::Tactical { unit, order })
}

fn parse_reaction(
    verb: &str,
    unit: String,
    rest: &[Token],
    cx: &Context<'_>,
    line: &Line,
) -> Parsed<GitmOrder> {
    let kind = if verb == "support" {
        ReactionKind::Support
    } else {
        ReactionKind::Intercept
    };
    let anchor = line.tokens.get(1).unwrap_or(&line.tokens[0]);
    let center = sub_square(rest.first(), anchor, cx)?;
    let Some(r) = rest.get(1).filter(|t| t.is("radius")) else {
        return Err(Diagnostic::error(
            format!("{verb} needs a radius"),
            rest.get(1).map_or(line.span.clone(), |t| t.span.clone()),
        )
        .hint(format!(
            "{verb} <unit> <c-r> radius <n> [phases <from> <to>] (GITM 6.5)"
        ))
        .rule(rules::REACTION_ORDER));
    };
    let radius = number(rest.get(2), r, 0, MAX_RADIUS as u32, rules::REACTION_ORDER)? as u8;
    let mut phases = (1, TACTICAL_PHASES);
    match rest.get(3) {
        None => {}
        Some(p) if p.is("phases") => {
            let a = phase(rest.get(4), p, rules::REACTION_ORDER)?;
            let b = phase(rest.get(5), rest.get(4).unwrap_or(p), rules::REACTION_ORDER)?;
            if b < a {
                return Err(
                    Diagnostic::error("the phases run backwards", rest[5].span.clone())
                        .hint("phases <first> <last>, 1 to 5")
                        .rule(rules::REACTION_ORDER),
                );
            }
            phases = (a, b);
            if let Some(extra) = rest.get(6) {
                return Err(unknown_word(extra, &[], rules::REACTION_ORDER));
            }
        }
        Some(other) => return Err(unknown_word(other, &["phases"], rules::REACTION_ORDER)),
    }
    Ok(GitmOrder::React {
        unit,
        reaction: Reaction {
            kind,
            center,
            radius,
            phases,
        },
    })
}

fn parse_posture(unit: String, rest: &[Token], line: &Line) -> Parsed<GitmOrder> {
    let mut posture = Posture::default();
    if rest.is_empty() {
        return Err(Diagnostic::error("a posture with no attack or defend", line.span.clone())
            .hint("posture <unit> attack assault|skirmish|evade defend last-ditch|skirmish|evade (GITM 6.6)")
            .rule(rules::POSTURE_ORDER));
    }
    let mut i = 0;
    while i < rest.len() {
        let tok = &rest[i];
        let value = rest.get(i + 1);
        match tok.text.to_ascii_lowercase().as_str() {
            "attack" => {
                let Some(v) = value else {
                    return Err(syntax(
                        tok,
                        "'attack' needs a posture",
                        "assault, skirmish or evade",
                    ));
                };
                let k = Attack::WORDS
                    .iter()
                    .position(|w| v.is(w))
                    .ok_or_else(|| unknown_word(v, &Attack::WORDS, rules::POSTURE_ORDER))?;
                posture.attack = [Attack::Assault, Attack::Skirmish, Attack::Evade][k];
            }
            "defend" => {
                let Some(v) = value else {
                    return Err(syntax(
                        tok,
                        "'defend' needs a posture",
                        "last-ditch, skirmish or evade",
                    ));
                };
                let k = Defend::WORDS
                    .iter()
                    .position(|w| v.is(w))
                    .ok_or_else(|| unknown_word(v, &Defend::WORDS, rules::POSTURE_ORDER))?;
                posture.defend = [Defend::LastDitch, Defend::Skirmish, Defend::Evade][k];
            }
            _ => {
                return Err(unknown_word(
                    tok,
                    &["attack", "defend"],
                    rules::POSTURE_ORDER,
                ))
            }
        }
        i += 2;
    }
    Ok(GitmOrder::Posture { unit, posture })
}

fn parse_supply(unit: String, rest: &[Token], cx: &Context<'_>, line: &Line) -> Parsed<GitmOrder> {
    match rest.first() {
        Some(t) if t.is("none") && rest.len() == 1 => Ok(GitmOrder::Supply {
            unit,
            order: SupplyOrder {
                carry: None,
                from: None,
            },
        }),
        Some(t) if t.is("carry") => {
            let n = number(rest.get(1), t, 0, MAX_CARRY, rules::SUPPLY_ORDER)?;
            let from = match rest.get(2) {
                None => None,
                Some(f) if f.is("from") => {
                    let Some(s) = rest.get(3) else {
                        return Err(syntax(
                            f,
                            "'from' needs a source",
                            "the id of a headquarters or depot unit of your side",
                        ));
                    };
                    let src = cx.gitm.brigade(&s.text).filter(|b| cx.power == b.power()).ok_or_else(|| {
                        Diagnostic::error(format!("no source '{}' of your side", s.text), s.span.clone())
                            .hint("name a unit of your side, or leave `from` out for the closest source (GITM 6.7)")
                            .rule(rules::SUPPLY_ORDER)
                    })?;
                    if let Some(extra) = rest.get(4) {
                        return Err(unknown_word(extra, &[], rules::SUPPLY_ORDER));
                    }
                    Some(src.id().to_string())
                }
                Some(other) => return Err(unknown_word(other, &["from"], rules::SUPPLY_ORDER)),
            };
            Ok(GitmOrder::Supply {
                unit,
                order: SupplyOrder {
                    carry: Some(n),
                    from,
                },
            })
        }
        Some(t) => Err(unknown_word(t, &["carry", "none"], rules::SUPPLY_ORDER)),
        None => Err(
            Diagnostic::error("a supply order with nothing to do", line.span.clone())
                .hint("supply <unit> carry <n> [from <unit>], or supply <unit> none (GITM 6.7)")
                .rule(rules::SUPPLY_ORDER),
        ),
    }
}

fn parse_place(unit: String, rest: &[Token], cx: &Context<'_>) -> Parsed<GitmOrder> {
    let mut square = None;
    let mut sub = None;
    for tok in rest {
        if square.is_none()
            && sub.is_none()
            && tok
                .text
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
        {
            let sq = cx.map.parse_place(&tok.text).map_err(|b| {
                Diagnostic::error(b.message, tok.span.clone())
                    .maybe_hint(b.hint)
                    .rule(rules::GRID)
            })?;
            if impassable(cx.map, sq) {
                return Err(Diagnostic::error(
                    format!("{} is impassable", tok.text),
                    tok.span.clone(),
                )
                .hint("water, high mountain and swamp squares cannot be entered")
                .rule(rules::IMPASSABLE));
            }
            square = Some(cx.map.place_name(sq));
        } else if sub.is_none() {
            sub = Some(parse_sub_square(&tok.text, cx.size()).map_err(|b| {
                Diagnostic::error(b.message, tok.span.clone())
                    .maybe_hint(b.hint)
                    .rule(rules::TACTICAL_GRID)
            })?);
        } else {
            return Err(unknown_word(tok, &[], rules::PEACE_ORDER));
        }
    }
    Ok(GitmOrder::Place { unit, square, sub })
}

/// A transport of the ordering power, as the state writes its id (GITM 7.17, `ships.rs`); another
/// state's is told in the words of no ship at all, as [`own_unit`] tells another side's brigade.
fn own_ship(tok: &Token, cx: &Context<'_>) -> Parsed<String> {
    match cx.gitm.ship(&tok.text) {
        Some(s) if s.power() == cx.power => Ok(s.id().to_string()),
        _ => {
            let mine = cx
                .gitm
                .ships
                .iter()
                .filter(|s| s.power() == cx.power)
                .map(|s| s.id());
            Err(Diagnostic::error(
                format!("no ship of yours is called '{}'", tok.text),
                tok.span.clone(),
            )
            .hint(did_you_mean(&tok.text, mine).map_or_else(
                || {
                    "units board, and players sail, their own state's transports (pbem gitm/ships)"
                        .to_string()
                },
                |s| format!("did you mean '{s}'?"),
            ))
            .rule(rules::TRANSPORTS))
        }
    }
}

/// `board <unit> <ship>` (GITM 7.17): not militia; the unit in the square of the port the ship lies
/// in, at the start of the turn.
fn parse_board(
    unit: String,
    unit_tok: &Token,
    rest: &[Token],
    cx: &Context<'_>,
) -> Parsed<GitmOrder> {
    let Some(ship_tok) = rest.first() else {
        return Err(syntax(
            unit_tok,
            "'board' needs a ship after the unit",
            "board FR1IN FRT1 (GITM 7.17)",
        ));
    };
    let ship = own_ship(ship_tok, cx)?;
    if let Some(extra) = rest.get(1) {
        return Err(unknown_word(extra, &[], rules::TRANSPORTS));
    }
    let (Some(b), Some(s)) = (cx.gitm.brigade(&unit), cx.gitm.ship(&ship)) else {
        return Err(Diagnostic::error("no such unit", unit_tok.span.clone()));
    };
    if b.kind() == Kind::Militia {
        return Err(Diagnostic::error(
            format!("{unit} is militia, and militia board no transport"),
            unit_tok.span.clone(),
        )
        .hint("GITM 7.17 lets every unit but militia board")
        .rule(rules::TRANSPORTS));
    }
    if !b.square().eq_ignore_ascii_case(s.port()) {
        return Err(Diagnostic::error(
            format!(
                "{unit} is in {}, not in the port of {} where {ship} lies",
                b.square(),
                s.port()
            ),
            ship_tok.span.clone(),
        )
        .hint("a unit boards in the square of its ship's port: march there first")
        .rule(rules::TRANSPORTS));
    }
    Ok(GitmOrder::Board { unit, ship })
}

/// `sail <ship> to <square>` (GITM 7.17): to the port of another square of the map.
fn parse_sail(
    ship_tok: &Token,
    rest: &[Token],
    cx: &Context<'_>,
    line: &Line,
) -> Parsed<GitmOrder> {
    let ship = own_ship(ship_tok, cx)?;
    let hint = "sail FRT1 to G5-V9: the square of another port (GITM 7.17)";
    let Some(to_word) = rest.first().filter(|t| t.is("to")) else {
        return Err(
            Diagnostic::error("a sail order needs `to` and a square", line.span.clone())
                .hint(hint)
                .rule(rules::TRANSPORTS),
        );
    };
    let Some(sq_tok) = rest.get(1) else {
        return Err(syntax(to_word, "'to' needs a square", hint));
    };
    if let Some(extra) = rest.get(2) {
        return Err(unknown_word(extra, &[], rules::TRANSPORTS));
    }
    let to = cx
        .map
        .parse_place(&sq_tok.text)
        .map(|sq| cx.map.place_name(sq))
        .map_err(|b| {
            Diagnostic::error(b.message, sq_tok.span.clone())
                .maybe_hint(b.hint)
                .rule(rules::GRID)
        })?;
    let here = cx.gitm.ship(&ship).map(|s| s.port().to_string());
    if cx.gitm.port_of(&to).is_none() || here.is_some_and(|h| h.eq_ignore_ascii_case(&to)) {
        let ports: Vec<&str> = cx.gitm.ports.iter().map(|p| p.square()).collect();
        return Err(Diagnostic::error(
            format!("{to} is not another port for {ship}"),
            sq_tok.span.clone(),
        )
        .hint(format!("the ports of the map: {}", ports.join(", ")))
        .rule(rules::TRANSPORTS));
    }
    Ok(GitmOrder::Sail { ship, to })
}

fn parse_merge(from: String, rest: &[Token], cx: &Context<'_>, line: &Line) -> Parsed<GitmOrder> {
    let Some(into_word) = rest.first().filter(|t| t.is("into")) else {
        return Err(
            Diagnostic::error("a merge needs `into` and a unit", line.span.clone())
                .hint("merge BR1IN into BR2IN (GITM 3.5)")
                .rule(rules::MERGE),
        );
    };
    let Some(into_tok) = rest.get(1) else {
        return Err(syntax(
            into_word,
            "'into' needs a unit",
            "merge BR1IN into BR2IN (GITM 3.5)",
        ));
    };
    let into = own_unit(into_tok, cx)?;
    if let Some(extra) = rest.get(2) {
        return Err(unknown_word(extra, &[], rules::MERGE));
    }
    let (Some(a), Some(b)) = (cx.gitm.brigade(&from), cx.gitm.brigade(&into)) else {
        return Err(Diagnostic::error("no such unit", line.span.clone()));
    };
    let refuse = |m: String, hint: &str| {
        Err(Diagnostic::error(m, into_tok.span.clone())
            .hint(hint.to_string())
            .rule(rules::MERGE))
    };
    if a.id() == b.id() {
        return refuse(
            format!("{from} cannot merge into itself"),
            "name another unit of the same type",
        );
    }
    if a.kind() != b.kind() {
        return refuse(
            format!("{from} and {into} are not of one type"),
            "only units of the same type (IN, MC...) merge",
        );
    }
    if a.kind().is_hq() || a.kind() == Kind::Militia {
        return refuse(
            format!("{} units do not merge", a.kind().name()),
            "HQs and militia may not be combined",
        );
    }
    if a.square() != b.square() {
        return refuse(
            format!("{from} and {into} are not in one square"),
            "units merge in the same strategic square",
        );
    }
    Ok(GitmOrder::Merge { from, into })
}

/// The orders of one unit for the turn, section by section (the last line of each section standing,
/// GITM 6.1); a section left out is `None` and falls back to its default (6.9).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnitOrders {
    pub strategic: Option<StrategicOrder>,
    pub tactical: Option<TacticalOrder>,
    pub support: Option<Reaction>,
    pub intercept: Option<Reaction>,
    pub posture: Option<Posture>,
    pub supply: Option<SupplyOrder>,
    pub place: Option<(Option<String>, Option<SubSquare>)>,
    pub merge_into: Option<String>,
    /// GITM 7.17: the transport the unit boards (section 2 by sea).
    pub board: Option<String>,
    /// GITM 7.17: for a transport, the square of the port it sails to.
    pub sail: Option<String>,
}

impl UnitOrders {
    /// Whether the unit was sent any order at all.
    pub fn any(&self) -> bool {
        *self != UnitOrders::default()
    }

    /// The numbers of the campaign sections (2 to 6) a unit's orders leave out.
    pub fn missing_sections(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.strategic.is_none() && self.board.is_none() {
            out.push("2");
        }
        if self.tactical.is_none() {
            out.push("3");
        }
        if self.support.is_none() && self.intercept.is_none() {
            out.push("4");
        }
        if self.posture.is_none() {
            out.push("5");
        }
        if self.supply.is_none() {
            out.push("6");
        }
        out
    }
}

/// The orders of every unit, by unit id, from the lines of all sides (later lines replace earlier
/// ones of the same section, GITM 6.1).
pub fn by_unit(orders: &[GitmOrder]) -> BTreeMap<String, UnitOrders> {
    let mut out: BTreeMap<String, UnitOrders> = BTreeMap::new();
    for o in orders {
        let u = out.entry(o.unit().to_string()).or_default();
        match o {
            GitmOrder::Move { order, .. } => u.strategic = Some(order.clone()),
            GitmOrder::Tactical { order, .. } => u.tactical = Some(order.clone()),
            GitmOrder::React { reaction, .. } => match reaction.kind {
                ReactionKind::Support => u.support = Some(*reaction),
                ReactionKind::Intercept => u.intercept = Some(*reaction),
            },
            GitmOrder::Posture { posture, .. } => u.posture = Some(*posture),
            GitmOrder::Supply { order, .. } => u.supply = Some(order.clone()),
            GitmOrder::Place { square, sub, .. } => u.place = Some((square.clone(), *sub)),
            GitmOrder::Merge { into, .. } => u.merge_into = Some(into.clone()),
            GitmOrder::Board { ship, .. } => u.board = Some(ship.clone()),
            GitmOrder::Sail { to, .. } => u.sail = Some(to.clone()),
        }
    }
    out
}
