//! The order verbs of Empires in Arms, their parsing and their legality.
//!
//! ```text
//! move <unit> <area> [<area> ...]     movement along a path (EiA 7, fleets 6.2)
//! move <fleet> with <fleet>... <area>... fleets that sail as one stack (EiA 6.2, 6.2.3)
//! attack <area>                       declare an attack on the enemy corps there (EiA 7.5)
//! chit <area> <chit> [with <corps>...] the tactical chit for the combat there (EiA 19.1 interrupt 1;
//!                                     `with` names an outflanking force, 7.5.2.3)
//! engage <sea>                        your fleets there attack the enemy fleets after naval movement
//!                                     (EiA 6.3; the attacked evade unless stronger, 6.3.2)
//! standing <key> <value>              a standing order, kept until changed (DESIGN "decision point")
//! ```
//!
//! Parsing reads names case-insensitively and keeps them as the game spells them, so that an accepted
//! order prints (`Display`) as its canonical text, which parses back to the same order. Every order that
//! is rejected gets a diagnostic with a span, a hint and the rule that rejects it; the other orders of
//! the file stand. ORDERS.md documents this language for players: keep the two in step.

// A `Diagnostic` is the error of every step here, built at most once per line of a file that is at
// most 500 orders long: its size does not matter, and boxing it would only blur the code.
#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::Range;

use crate::diag::{did_you_mean, Diagnostic, Source};
use crate::game::map::Map;
use crate::game::state::State;
use crate::orders::{Line, Located, Token};
use crate::rule::Rule;
use crate::rules::eia::state::{Corps, EiaState, Fleet, Leader, Levy};

use super::decisions::CHIT;
use super::tables::Tables;

/// EiA 7: land movement (the movement rules are not in the seeds we hold; cited by chapter).
pub const LAND_MOVEMENT: Rule = Rule::new("EiA", "7", "land movement");
/// EiA 7.5: land combat, which takes place in land areas.
pub const LAND_COMBAT: Rule = Rule::new("EiA", "7.5", "land combat");
pub use crate::orders::{ORDER_SYNTAX, OWN_UNITS};

/// EiA 6.2: naval movement (cited by section: its text is not in the rules we hold).
pub const NAVAL_MOVEMENT: Rule = Rule::new("EiA", "6.2", "naval movement");
/// EiA 6.2.5 (SOP): the fleet with most ships in a stack carries the corps.
pub const TRANSPORT: Rule = Rule::new(
    "EiA",
    "6.2.5",
    "the fleet with most ships in a stack carries the corps",
);
/// EiA 6.3: naval combat, which a power's fleets may start against enemy fleets in their sea area (the
/// text of 6.3 is not in the rules we hold; cited by section).
pub const NAVAL_ATTACK: Rule = Rule::new(
    "EiA",
    "6.3",
    "fleets may attack enemy fleets in their sea area",
);
/// EiA 12.3.7.4: reaction moves are not used in games by mail.
pub const REACTION_MOVES: Rule = Rule::new(
    "EiA",
    "12.3.7.4",
    "reaction moves are not used in PBEM games",
);

/// The order words of EiA.
pub const VERBS: [&str; 5] = ["move", "attack", "chit", "engage", "standing"];

/// One EiA order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EiaOrder {
    /// Move a corps, a leader or a fleet along `path` (the areas entered, in order); `with` names
    /// the other fleets that sail with the fleet `unit` as one stack (EiA 6.2, 6.2.3), none otherwise.
    Move {
        unit: String,
        with: Vec<String>,
        path: Vec<String>,
    },
    /// Attack the enemy corps in `area` after movement.
    Attack { area: String },
    /// The tactical chit for the combat in `area`, attacking or defending; with `outflank`, the corps
    /// of the outflanking force (EiA 7.5.2.3), or none to let the SOP choose them.
    Chit {
        area: String,
        chit: String,
        with: Vec<String>,
    },
    /// After naval movement, the power's fleets in `sea` attack the enemy fleets there (EiA 6.3).
    Engage { sea: String },
    /// A standing order: `key` is a decision point's key, `value` its setting.
    Standing { key: String, value: String },
}

impl fmt::Display for EiaOrder {
    /// The canonical text of the order: parsing it gives the same order back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EiaOrder::Move { unit, with, path } => {
                write!(f, "move {unit}")?;
                if !with.is_empty() {
                    write!(f, " with {}", with.join(" "))?;
                }
                for area in path {
                    write!(f, " {area}")?;
                }
                Ok(())
            }
            EiaOrder::Attack { area } => write!(f, "attack {area}"),
            EiaOrder::Engage { sea } => write!(f, "engage {sea}"),
            EiaOrder::Chit { area, chit, with } => {
                write!(f, "chit {area} {chit}")?;
                if !with.is_empty() {
                    write!(f, " with {}", with.join(" "))?;
                }
                Ok(())
            }
            EiaOrder::Standing { key, value } => f.write_str(&super::standing::display(key, value)),
        }
    }
}

/// What parsing needs to know of the game.
pub struct Context<'a> {
    pub map: &'a Map,
    pub state: &'a State,
    pub tables: &'a Tables,
    /// The options the game names (`decisions::OPTIONS`): which of the SOP's absolutes a standing
    /// order may set aside.
    pub options: &'a BTreeSet<String>,
    /// The state's corps, leaders and fleets sorted by id, made at the first lookup: see
    /// [`Context::find_corps`].
    units: std::sync::OnceLock<[Vec<u32>; 3]>,
}

/// Compares two ids as `eq_ignore_ascii_case` matches them.
fn cmp_id(a: &str, b: &str) -> std::cmp::Ordering {
    a.bytes()
        .map(|c| c.to_ascii_lowercase())
        .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
}

/// The positions `0..n` sorted by id (ASCII case ignored), equal ids in list order: a binary search
/// finds the first unit of an id, as a scan of the list does. Made without an allocation per unit.
fn sorted_by_id<'s>(n: usize, id: impl Fn(usize) -> &'s str) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n as u32).collect();
    v.sort_by(|&a, &b| cmp_id(id(a as usize), id(b as usize)).then(a.cmp(&b)));
    v
}

/// The first position of `key` in a list sorted by [`sorted_by_id`].
fn find_id<'s>(sorted: &[u32], key: &str, id: impl Fn(usize) -> &'s str) -> Option<usize> {
    let i = sorted.partition_point(|&j| cmp_id(id(j as usize), key).is_lt());
    let j = *sorted.get(i)? as usize;
    cmp_id(id(j), key).is_eq().then_some(j)
}

/// The options of a game that names none.
static NO_OPTIONS: BTreeSet<String> = BTreeSet::new();

impl<'a> Context<'a> {
    pub fn new(map: &'a Map, state: &'a State, tables: &'a Tables) -> Self {
        Context {
            map,
            state,
            tables,
            options: &NO_OPTIONS,
            units: std::sync::OnceLock::new(),
        }
    }

    /// The context of a game that names `options`.
    pub fn with_options(self, options: &'a BTreeSet<String>) -> Self {
        Context { options, ..self }
    }

    /// The corps, leaders and fleets sorted by id, made once per context: a lookup per order would
    /// otherwise scan every unit (orders x units for a turn).
    fn sorted(&self) -> &[Vec<u32>; 3] {
        self.units.get_or_init(|| {
            let s = EiaState::of(self.state);
            [
                sorted_by_id(s.corps.len(), |i| s.corps[i].id.get_ref()),
                sorted_by_id(s.leaders.len(), |i| s.leaders[i].id.get_ref()),
                sorted_by_id(s.fleets.len(), |i| s.fleets[i].id.get_ref()),
            ]
        })
    }

    /// `EiaState::find_corps` (ids compared without ASCII case, the first one found), from the index.
    pub fn find_corps(&self, id: &str) -> Option<&'a Corps> {
        let s: &'a EiaState = EiaState::of(self.state);
        find_id(&self.sorted()[0], id, |i| s.corps[i].id.get_ref()).map(|i| &s.corps[i])
    }

    /// `State::find_leader`, from the index.
    pub fn find_leader(&self, id: &str) -> Option<&'a Leader> {
        let s: &'a EiaState = EiaState::of(self.state);
        find_id(&self.sorted()[1], id, |i| s.leaders[i].id.get_ref()).map(|i| &s.leaders[i])
    }

    /// `State::find_fleet`, from the index.
    pub fn find_fleet(&self, id: &str) -> Option<&'a Fleet> {
        let s: &'a EiaState = EiaState::of(self.state);
        find_id(&self.sorted()[2], id, |i| s.fleets[i].id.get_ref()).map(|i| &s.fleets[i])
    }

    /// The insurrection corps `id` still waiting to rise (EiA 10.1.4.1); there are few of them.
    pub fn find_levy(&self, id: &str) -> Option<&'a Levy> {
        let s: &'a EiaState = EiaState::of(self.state);
        s.insurrection
            .iter()
            .find(|l| l.id.eq_ignore_ascii_case(id))
    }
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
        self.args
            .get(i)
            .cloned()
            .unwrap_or_else(|| self.order.span.clone())
    }

    /// The span of step `k` of a move's path: after the unit, and after `with` and its fleets.
    fn path_arg(&self, k: usize) -> Range<usize> {
        let stack = match &self.order.value {
            EiaOrder::Move { with, .. } if !with.is_empty() => with.len() + 1,
            _ => 0,
        };
        self.arg(k + 1 + stack)
    }
}

/// Parses one order line: the verb, its arguments, and the names they use.
pub fn parse_line(line: &Line, cx: &Context<'_>) -> Result<EiaOrder, Diagnostic> {
    parse_line_for(line, cx, None)
}

/// Parses one order line; `power`, when known, makes hints about units name that power's own.
fn parse_line_for(
    line: &Line,
    cx: &Context<'_>,
    power: Option<&str>,
) -> Result<EiaOrder, Diagnostic> {
    let Some((verb, args)) = line.tokens.split_first() else {
        return Err(Diagnostic::error("empty order line", line.span.clone())
            .hint(format!(
                "write one order per line, as the order guide {} shows",
                crate::orders::guide_file("eia")
            ))
            .rule(ORDER_SYNTAX));
    };
    match verb.text.to_ascii_lowercase().as_str() {
        "move" => {
            let Some((unit, path)) = args.split_first().filter(|(_, path)| !path.is_empty()) else {
                return Err(missing_move(line, cx, power));
            };
            let unit = unit_name(unit, cx, power)?;
            // `move <fleet> with <fleet> ... <area> ...`: the fleets after `with`, up to the first
            // word that names no fleet, sail with the first as one stack (EiA 6.2.3).
            let (with, path) = match path.split_first() {
                Some((w, rest)) if w.is("with") => {
                    // Another power's fleet is no fleet here: the answer must not tell which
                    // of its ids exist (issue 15.6, fog of war).
                    let n = rest
                        .iter()
                        .take_while(|t| {
                            cx.find_fleet(&t.text)
                                .is_some_and(|f| power.is_none_or(|p| f.power.get_ref() == p))
                        })
                        .count();
                    if n == 0 {
                        return Err(Diagnostic::error(
                            "'with' names no fleet of yours",
                            w.span.clone(),
                        )
                        .label("a fleet's id should follow")
                        .hint(format!(
                            "list the fleets of the stack, then its path: {}",
                            in_his_words(
                                "move <fleet> with <fleet> [<fleet> ...] <area> [<area> ...]",
                                args,
                                cx,
                                power
                            )
                        ))
                        .rule(ORDER_SYNTAX));
                    }
                    let with = rest[..n]
                        .iter()
                        .map(|t| unit_name(t, cx, power))
                        .collect::<Result<Vec<_>, _>>()?;
                    (with, &rest[n..])
                }
                _ => (Vec::new(), path),
            };
            if path.is_empty() {
                return Err(missing_move(line, cx, power));
            }
            let path = path
                .iter()
                .map(|t| area_name(t, cx))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(EiaOrder::Move { unit, with, path })
        }
        "attack" => {
            let [area] = exact_args::<1>(line, "attack", "attack Ulm")?;
            Ok(EiaOrder::Attack {
                area: area_name(area, cx)?,
            })
        }
        "engage" => {
            let [sea] = exact_args::<1>(line, "engage", "engage Channel")?;
            Ok(EiaOrder::Engage {
                sea: area_name(sea, cx)?,
            })
        }
        "chit" => {
            // `chit <area> <chit> with <unit> ...` names the outflanking force (EiA 7.5.2.3).
            let (line, with) = match line.tokens.iter().position(|t| t.is("with")) {
                Some(i) if i >= 3 => {
                    let units = &line.tokens[i + 1..];
                    if units.is_empty() {
                        return Err(Diagnostic::error(
                            "'with' names no corps",
                            line.tokens[i].span.clone(),
                        )
                        .hint(format!(
                            "list the corps of the outflanking force: {}",
                            in_his_words(
                                "chit <area> outflank with <corps> [<corps> ...]",
                                line.tokens.get(1..).unwrap_or_default(),
                                cx,
                                power
                            )
                        ))
                        .rule(ORDER_SYNTAX));
                    }
                    let with = units
                        .iter()
                        .map(|t| unit_name(t, cx, power))
                        .collect::<Result<Vec<_>, _>>()?;
                    let mut head = line.clone();
                    head.tokens.truncate(i);
                    (std::borrow::Cow::Owned(head), with)
                }
                _ => (std::borrow::Cow::Borrowed(line), Vec::new()),
            };
            let [area, chit] = exact_args::<2>(&line, "chit", "chit Ulm outflank")?;
            let area = area_name(area, cx)?;
            let mut all: Vec<String> = cx.tables.chits.attack.clone();
            for d in &cx.tables.chits.defence {
                if !all.contains(d) {
                    all.push(d.clone());
                }
            }
            let chit = one_of(chit, &all, format!("unknown chit '{}'", chit.text))?;
            if !with.is_empty() && chit != "outflank" {
                return Err(Diagnostic::error(
                    format!("only an outflank chit takes a force ('with'), not '{chit}'"),
                    line.span.clone(),
                )
                .hint("leave out 'with ...', or play 'outflank'")
                .rule(super::decisions::OUTFLANK));
            }
            Ok(EiaOrder::Chit { area, chit, with })
        }
        "standing" => {
            let Some((key, rest)) = args.split_first() else {
                return Err(Diagnostic::error(
                    "'standing' needs a key and a setting",
                    line.span.clone(),
                )
                .label("incomplete order")
                .hint(format!(
                    "write it as 'standing pursue always'; the order guide {} lists the keys",
                    crate::orders::guide_file("eia")
                ))
                .rule(ORDER_SYNTAX));
            };
            let (key, value) = super::standing::parse(key, rest, cx, power)?;
            // EiA 7.5.2.10.2, 7.5.2.11, 6.3.5: the SOP's absolutes admit no standing order against
            // them, unless the game names the option that allows it.
            if let Some((option, rule)) = super::decisions::against_the_rule(&key, &value) {
                if !cx.options.contains(option) {
                    let span = match (rest.first(), rest.last()) {
                        (Some(a), Some(b)) => a.span.start..b.span.end,
                        _ => line.span.clone(),
                    };
                    return Err(Diagnostic::error(
                        format!("'standing {key} {value}' is not open to a player: {rule}"),
                        span,
                    )
                    .label("the rule admits no choice")
                    .hint(format!(
                        "leave the line out (the SOP applies the rule); a game that wants this standing order names \"{option}\" in game.toml's options"
                    ))
                    .rule(rule));
                }
            }
            Ok(EiaOrder::Standing { key, value })
        }
        "react" => Err(Diagnostic::error(
            "reaction moves are not used in games by mail",
            verb.span.clone(),
        )
        .label("no reaction moves")
        .hint("leave the line out; pbem settles what a reaction move would by your standing orders")
        .rule(REACTION_MOVES)),
        _ => Err(crate::orders::unknown_verb(verb, &VERBS)),
    }
}

fn missing_move(line: &Line, cx: &Context<'_>, power: Option<&str>) -> Diagnostic {
    let args = line.tokens.get(1..).unwrap_or_default();
    let hint = if args.iter().any(|t| t.is("with")) {
        in_his_words(
            "move <fleet> with <fleet> [<fleet> ...] <area> [<area> ...]",
            args,
            cx,
            power,
        ) + ": the fleets of the stack, then each area it enters"
    } else {
        in_his_words("move <unit> <area> [<area> ...]", args, cx, power)
            + ": the unit, then each area it enters"
    };
    Diagnostic::error(
        "'move' needs a unit and at least one area",
        line.span.clone(),
    )
    .label("incomplete order")
    .hint(hint)
    .rule(ORDER_SYNTAX)
}

/// An order's form as the order guide writes it (`move <unit> <area> [<area> ...]`), as a hint in
/// the player's own words (`orders::form`): his corps, leader or fleet, an area he wrote. A hint
/// never names one power's pieces to another (the examples it gave before named `FR-I`, `FR-A`,
/// `FR-V` to every power).
fn in_his_words(form: &str, args: &[Token], cx: &Context<'_>, power: Option<&str>) -> String {
    let mine = |owner: &str| power.is_none_or(|p| p == owner);
    crate::orders::form::in_his_words(form, args, |placeholder, t| match placeholder {
        "<area>" => cx.map.find(&t.text).map(|i| cx.map.area(i).id.clone()),
        "<unit>" => unit_name(t, cx, power).ok(),
        "<fleet>" => cx
            .find_fleet(&t.text)
            .filter(|f| mine(f.power.get_ref()))
            .map(|f| f.id.get_ref().clone()),
        "<corps>" => cx
            .find_corps(&t.text)
            .filter(|c| mine(c.power.get_ref()))
            .map(|c| c.id.get_ref().clone()),
        _ => None,
    })
}

/// The `N` arguments of an order that takes exactly `N`, or a diagnostic naming how many it got.
fn exact_args<'l, const N: usize>(
    line: &'l Line,
    verb: &str,
    example: &str,
) -> Result<&'l [Token; N], Diagnostic> {
    let args = line.tokens.get(1..).unwrap_or_default();
    if let Ok(exact) = <&[Token; N]>::try_from(args) {
        return Ok(exact);
    }
    let got = args.len();
    let plural = if N == 1 { "" } else { "s" };
    let d = match args.get(N) {
        None => Diagnostic::error(
            format!("'{verb}' needs {N} argument{plural}, found {got}"),
            line.span.clone(),
        )
        .label("incomplete order"),
        Some(extra) => Diagnostic::error(
            format!("'{verb}' takes {N} argument{plural}, found {got}"),
            extra.span.start..line.span.end,
        )
        .label("one word too many"),
    };
    Err(d
        .hint(format!("write it as '{example}'"))
        .rule(ORDER_SYNTAX))
}

fn area_name(t: &Token, cx: &Context<'_>) -> Result<String, Diagnostic> {
    match cx.map.find(&t.text) {
        Some(i) => Ok(cx.map.area(i).id.clone()),
        None => Err(
            Diagnostic::error(format!("unknown area '{}'", t.text), t.span.clone())
                .label("not on the map")
                .hint(cx.map.suggest(&t.text).unwrap_or_else(|| {
                    "write the area's name as your turn report spells it".into()
                }))
                .rule(ORDER_SYNTAX),
        ),
    }
}

fn unit_name(t: &Token, cx: &Context<'_>, power: Option<&str>) -> Result<String, Diagnostic> {
    let s = cx.state;
    // Another power's unit is answered as no unit at all, here where the line is read: a check of
    // the line's other words first would tell it apart from an id of none (issue 15.6).
    let theirs = |owner: &str| power.is_some_and(|p| p != owner);
    if let Some(c) = cx
        .find_corps(&t.text)
        .filter(|c| !theirs(c.power.get_ref()))
    {
        return Ok(c.id.get_ref().clone());
    }
    if let Some(l) = cx
        .find_leader(&t.text)
        .filter(|l| !theirs(l.power.get_ref()))
    {
        return Ok(l.id.get_ref().clone());
    }
    if let Some(f) = cx
        .find_fleet(&t.text)
        .filter(|f| !theirs(f.power.get_ref()))
    {
        return Ok(f.id.get_ref().clone());
    }
    if let Some(l) = cx.find_levy(&t.text).filter(|l| !theirs(&l.power)) {
        return Ok(l.id.clone());
    }
    Err(not_one_of_yours(&t.text, t.span.clone(), s, power))
}

/// The one diagnostic for a unit that is not the power's, whether it is another power's or no unit
/// at all: a power learns nothing from it about units it cannot see (issue 15.6, fog of war). The
/// hint names only the power's own units.
fn not_one_of_yours(
    text: &str,
    span: Range<usize>,
    s: &crate::game::state::State,
    power: Option<&str>,
) -> Diagnostic {
    let s = EiaState::of(s);
    let own: Vec<&str> = match power {
        Some(p) => s
            .corps
            .iter()
            .filter(|c| c.power.get_ref() == p)
            .map(|c| c.id.get_ref().as_str())
            .chain(
                s.leaders
                    .iter()
                    .filter(|l| l.power.get_ref() == p)
                    .map(|l| l.id.get_ref().as_str()),
            )
            .collect(),
        None => Vec::new(),
    };
    let hint = did_you_mean(text, own.iter().copied())
        .map(|u| format!("did you mean '{u}'?"))
        .unwrap_or_else(|| match own.as_slice() {
            [] => "write the unit's id as your turn report spells it, such as 'FR-I'".to_string(),
            units => format!("your units are: {}", units.join(", ")),
        });
    Diagnostic::error(format!("no unit of yours is called '{text}'"), span)
        .label("not one of your units")
        .hint(hint)
        .rule(OWN_UNITS)
}

/// The value of `values` that `t` names, case-insensitively, or the diagnostic `unknown`.
fn one_of(t: &Token, values: &[String], unknown: String) -> Result<String, Diagnostic> {
    if let Some(v) = values.iter().find(|v| v.eq_ignore_ascii_case(&t.text)) {
        return Ok(v.clone());
    }
    let hint = did_you_mean(&t.text, values.iter().map(String::as_str))
        .map(|v| format!("did you mean '{v}'?"))
        .unwrap_or_else(|| format!("write one of: {}", values.join(", ")));
    Err(Diagnostic::error(unknown, t.span.clone())
        .hint(hint)
        .rule(ORDER_SYNTAX))
}

/// Checks the legality of parsed orders for `power` against the state: ownership, adjacency, land
/// only, movement allowance and one move per unit (EiA 7); attacks and chits in land areas only, one
/// chit per combat (EiA 7.5, 19.1); for a standing order given twice, the later one stands. Each illegal
/// order is rejected on its own, citing the rule; orders that change nothing are dropped with a warning.
pub fn check_legality(
    power: &str,
    orders: Vec<Located<EiaOrder>>,
    cx: &Context<'_>,
) -> (Vec<Located<EiaOrder>>, Vec<Diagnostic>) {
    check_parsed(
        power,
        orders
            .into_iter()
            .map(|order| Parsed {
                order,
                args: Vec::new(),
            })
            .collect(),
        cx,
    )
}

/// What the legality check makes of one order.
enum Verdict {
    Stands,
    /// Legal but changes nothing: dropped, with a warning.
    Dropped(Diagnostic),
    Rejected(Diagnostic),
}

fn check_parsed(
    power: &str,
    orders: Vec<Parsed>,
    cx: &Context<'_>,
) -> (Vec<Located<EiaOrder>>, Vec<Diagnostic>) {
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
    let mut engaged = BTreeSet::new();
    for (i, p) in orders.into_iter().enumerate() {
        let verdict = match &p.order.value {
            EiaOrder::Move { unit, with, path } => {
                match check_stack(power, unit, with, &p, cx, &moved)
                    .and_then(|()| check_move(power, unit, path, &p, cx, &moved))
                {
                    Ok(()) => {
                        moved.insert(unit.to_ascii_lowercase());
                        moved.extend(with.iter().map(|f| f.to_ascii_lowercase()));
                        Verdict::Stands
                    }
                    Err(d) => Verdict::Rejected(d),
                }
            }
            EiaOrder::Attack { area } => match land_combat_area(area, &p, cx) {
                Err(d) => Verdict::Rejected(d),
                Ok(()) if !attacks.insert(area.clone()) => Verdict::Dropped(
                    Diagnostic::warning(format!("a second attack on {area}"), p.order.span.clone())
                        .label("already declared above")
                        .hint(format!(
                            "one 'attack {area}' line is enough; this one is ignored"
                        )),
                ),
                Ok(()) => Verdict::Stands,
            },
            EiaOrder::Chit { area, with, .. } => match land_combat_area(area, &p, cx) {
                Err(d) => Verdict::Rejected(d),
                Ok(())
                    if with
                        .iter()
                        .any(|u| cx.find_corps(u).is_none_or(|c| c.power.get_ref() != power)) =>
                {
                    // Only the power's own units are read after `with` (`unit_name`): this is one
                    // of its leaders or fleets.
                    let u = with
                        .iter()
                        .find(|u| cx.find_corps(u).is_none_or(|c| c.power.get_ref() != power))
                        .cloned()
                        .unwrap_or_default();
                    Verdict::Rejected(
                        Diagnostic::error(
                            format!("{u} is not one of your corps: it cannot outflank for you"),
                            p.order.span.clone(),
                        )
                        .label("not your corps")
                        .hint("name your own corps after 'with'")
                        .rule(OWN_UNITS),
                    )
                }
                Ok(()) if !chits.insert(area.clone()) => Verdict::Rejected(
                    Diagnostic::error(format!("a second chit for {area}"), p.order.span.clone())
                        .label("one chit per combat")
                        .hint(format!(
                            "keep one 'chit {area} ...' line; the first one stands"
                        ))
                        .rule(CHIT),
                ),
                Ok(()) => Verdict::Stands,
            },
            EiaOrder::Engage { sea } => match sea_area(sea, &p, cx) {
                Err(d) => Verdict::Rejected(d),
                Ok(()) if !engaged.insert(sea.clone()) => Verdict::Dropped(
                    Diagnostic::warning(format!("a second attack at {sea}"), p.order.span.clone())
                        .label("already ordered above")
                        .hint(format!(
                            "one 'engage {sea}' line is enough; this one is ignored"
                        )),
                ),
                Ok(()) => Verdict::Stands,
            },
            EiaOrder::Standing { key, .. } if last_standing.get(key) != Some(&i) => {
                Verdict::Dropped(
                    Diagnostic::warning(
                        format!(
                            "standing order '{key}' is given again below: the later one stands"
                        ),
                        p.order.span.clone(),
                    )
                    .label("replaced below")
                    .hint(format!("keep one 'standing {key}' line")),
                )
            }
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
        Some(_) => Err(Diagnostic::error(
            format!("{area} is a sea area: land combat needs a land area"),
            p.arg(0),
        )
        .label("at sea")
        .hint(format!(
            "attack and choose chits in land areas; to attack the enemy fleets there, write 'engage {area}'"
        ))
        .rule(LAND_COMBAT)),
        None => Err(
            Diagnostic::error(format!("unknown area '{area}'"), p.arg(0))
                .label("not on the map")
                .hint(cx.map.suggest(area).unwrap_or_else(|| {
                    "write the area's name as your turn report spells it".into()
                }))
                .rule(ORDER_SYNTAX),
        ),
    }
}

/// EiA 6.3: fleets fight at sea.
fn sea_area(sea: &str, p: &Parsed, cx: &Context<'_>) -> Result<(), Diagnostic> {
    match cx.map.find(sea) {
        Some(i) if !cx.map.area(i).is_land() => Ok(()),
        _ => Err(Diagnostic::error(
            format!("{sea} is not a sea area: fleets attack at sea"),
            p.arg(0),
        )
        .label("not at sea")
        .hint(format!(
            "name the sea area where your fleets will be; on land, write 'attack {sea}'"
        ))
        .rule(NAVAL_ATTACK)),
    }
}

/// EiA 6.2, 6.2.3: the fleets `with` a fleet's move sail with it as one stack: each is a fleet of the
/// power, in the lead fleet's area, named once, with no other move.
fn check_stack(
    power: &str,
    unit: &str,
    with: &[String],
    p: &Parsed,
    cx: &Context<'_>,
    moved: &BTreeSet<String>,
) -> Result<(), Diagnostic> {
    if with.is_empty() {
        return Ok(());
    }
    let Some(lead) = cx.find_fleet(unit).filter(|f| f.power.get_ref() == power) else {
        return Err(Diagnostic::error(
            format!("only fleets sail as a stack: {unit} is not one of your fleets"),
            p.arg(0),
        )
        .label("not a fleet")
        .hint("corps and leaders move on their own lines; 'with' joins fleets: 'move FR-A with FR-B North-Sea'")
        .rule(NAVAL_MOVEMENT));
    };
    let mut seen = BTreeSet::from([unit.to_ascii_lowercase()]);
    for (k, id) in with.iter().enumerate() {
        let at = p.arg(k + 2);
        let Some(f) = cx.find_fleet(id).filter(|f| f.power.get_ref() == power) else {
            return Err(not_one_of_yours(id, at, cx.state, Some(power)));
        };
        if !seen.insert(id.to_ascii_lowercase()) {
            return Err(
                Diagnostic::error(format!("{id} is named twice in this stack"), at)
                    .label("named again")
                    .hint("name each fleet of the stack once")
                    .rule(NAVAL_MOVEMENT),
            );
        }
        if moved.contains(&id.to_ascii_lowercase()) {
            return Err(
                Diagnostic::error(format!("{id} is already ordered to move"), at)
                    .label("second move of this fleet")
                    .hint("give each fleet one move: in a stack or on its own line, not both")
                    .rule(NAVAL_MOVEMENT),
            );
        }
        if f.area.get_ref() != lead.area.get_ref() {
            return Err(Diagnostic::error(
                format!(
                    "{id} is in {}, not in {} with {unit}: a stack sails from one area",
                    f.area.get_ref(),
                    lead.area.get_ref()
                ),
                at,
            )
            .label("elsewhere")
            .hint("join fleets that stand in the same area; move the others on their own lines")
            .rule(NAVAL_MOVEMENT));
        }
    }
    Ok(())
}

/// EiA 6.2: a fleet moves through adjacent sea areas, within the naval movement allowance, and may end
/// its move in a friendly port next to the last sea area.
fn check_fleet_move(
    power: &str,
    unit: &str,
    start: &str,
    path: &[String],
    p: &Parsed,
    cx: &Context<'_>,
    moved: &BTreeSet<String>,
) -> Result<(), Diagnostic> {
    let span = p.order.span.clone();
    if moved.contains(&unit.to_ascii_lowercase()) {
        return Err(
            Diagnostic::error(format!("{unit} is already ordered to move"), span)
                .label("second move of this unit")
                .hint("give each fleet one move order; write its whole path on one line")
                .rule(NAVAL_MOVEMENT),
        );
    }
    let allowance = cx.tables.naval.movement;
    if path.len() > allowance as usize {
        return Err(Diagnostic::error(
            format!(
                "{unit} can sail {allowance} areas, this path has {}",
                path.len()
            ),
            span,
        )
        .label("too far")
        .hint(format!("shorten the path to at most {allowance} areas"))
        .rule(NAVAL_MOVEMENT));
    }
    let Some(mut here) = cx.map.find(start) else {
        return Err(Diagnostic::error(
            format!("{unit} is in '{start}', which is not on the map"),
            span,
        )
        .hint("the game's state is damaged: tell the referee")
        .rule(NAVAL_MOVEMENT));
    };
    for (k, step) in path.iter().enumerate() {
        let at = p.path_arg(k);
        let Some(next) = cx.map.find(step) else {
            return Err(Diagnostic::error(format!("unknown area '{step}'"), at)
                .hint(cx.map.suggest(step).unwrap_or_default())
                .rule(ORDER_SYNTAX));
        };
        if !cx.map.adjacent(here, next) {
            return Err(Diagnostic::error(
                format!("{step} is not adjacent to {}", cx.map.area(here).id),
                at,
            )
            .label("path breaks here")
            .hint("list every sea area the fleet enters, each next to the one before")
            .rule(NAVAL_MOVEMENT));
        }
        let area = cx.map.area(next);
        let last = k + 1 == path.len();
        if area.is_land() {
            if !area.port {
                return Err(
                    Diagnostic::error(format!("fleet {unit} cannot move on land"), at)
                        .label("a land area without a port")
                        .hint("fleets sail through sea areas and may end in a port")
                        .rule(NAVAL_MOVEMENT),
                );
            }
            if !last {
                return Err(Diagnostic::error(
                    format!("{step} is a port: a fleet's move ends there"),
                    at,
                )
                .hint("put the port last in the path")
                .rule(NAVAL_MOVEMENT));
            }
            // Only a port in its sight: whose another port is, the answer must not tell (the
            // turn stops the fleet before an enemy port it could not see, `naval::sail`).
            let owner = cx.state.control.get(&area.id);
            if owner.is_some_and(|o| !cx.state.friendly(o, power)) && sees(cx, power, next) {
                return Err(Diagnostic::error(format!("{step} is an enemy port"), at)
                    .hint("end the move at sea, or in a port of your own or of an ally")
                    .rule(NAVAL_MOVEMENT));
            }
        }
        here = next;
    }
    Ok(())
}

/// Whether `power` sees area `a` at the start of the turn: one of its units that sees (a corps with
/// factors left, a leader, a fleet) stands there or next to it (pbem's sight, `visibility::SIGHT`).
fn sees(cx: &Context<'_>, power: &str, a: usize) -> bool {
    let s = EiaState::of(cx.state);
    let own = |p: &toml::Spanned<String>| p.get_ref() == power;
    s.corps
        .iter()
        .filter(|c| own(&c.power) && c.factors > 0)
        .map(|c| c.area.get_ref())
        .chain(
            s.leaders
                .iter()
                .filter(|l| own(&l.power))
                .map(|l| l.area.get_ref()),
        )
        .chain(
            s.fleets
                .iter()
                .filter(|f| own(&f.power))
                .map(|f| f.area.get_ref()),
        )
        .filter_map(|area| cx.map.find(area))
        .any(|u| u == a || cx.map.area(u).adjacent.contains(&a))
}

/// EiA 10.1.4.1.4: a move for an insurrection corps still waiting to rise, carried out in the special
/// insurrection land phase if it rises this turn, from the area where it rises. Where that is is not
/// known yet: here the path is checked as far as it can be (land areas, each next to the one before,
/// within the corps's allowance); its first step is checked when the corps has risen.
fn check_levy_move(
    power: &str,
    levy: &Levy,
    path: &[String],
    p: &Parsed,
    cx: &Context<'_>,
    moved: &BTreeSet<String>,
) -> Result<(), Diagnostic> {
    let unit = levy.id.as_str();
    let span = p.order.span.clone();
    if levy.power != power {
        return Err(not_one_of_yours(unit, p.arg(0), cx.state, Some(power)));
    }
    if moved.contains(&unit.to_ascii_lowercase()) {
        return Err(
            Diagnostic::error(format!("{unit} is already ordered to move"), span)
                .label("second move of this unit")
                .hint("give each unit one move order; write its whole path on one line")
                .rule(LAND_MOVEMENT),
        );
    }
    if u32::try_from(path.len()).map_or(true, |n| n > levy.movement) {
        return Err(Diagnostic::error(
            format!(
                "{unit} can move {} areas, this path has {}",
                levy.movement,
                path.len()
            ),
            span,
        )
        .label("too far")
        .hint(format!(
            "shorten the path to at most {} areas",
            levy.movement
        ))
        .rule(LAND_MOVEMENT));
    }
    let mut before: Option<usize> = None;
    for (k, step) in path.iter().enumerate() {
        let at = p.path_arg(k);
        let Some(next) = cx.map.find(step) else {
            return Err(Diagnostic::error(format!("unknown area '{step}'"), at)
                .hint(cx.map.suggest(step).unwrap_or_default())
                .rule(ORDER_SYNTAX));
        };
        if !cx.map.area(next).is_land() {
            return Err(Diagnostic::error(
                format!("{step} is a sea area: an insurrection corps moves on land"),
                at,
            )
            .label("at sea")
            .hint("list the land areas it enters from where it rises")
            .rule(super::decisions::INSURRECTION_PHASE));
        }
        if let Some(b) = before {
            if !cx.map.adjacent(b, next) {
                return Err(Diagnostic::error(
                    format!("{step} is not adjacent to {}", cx.map.area(b).id),
                    at,
                )
                .label("path breaks here")
                .hint("list every area the unit enters, each next to the one before")
                .rule(LAND_MOVEMENT));
            }
        }
        before = Some(next);
    }
    Ok(())
}

/// EiA 7: a move of one's own corps or leader, once a turn, along adjacent land areas, within its
/// movement allowance.
fn check_move(
    power: &str,
    unit: &str,
    path: &[String],
    p: &Parsed,
    cx: &Context<'_>,
    moved: &BTreeSet<String>,
) -> Result<(), Diagnostic> {
    let span = p.order.span.clone();
    let (owner, start, allowance) = if let Some(c) = cx.find_corps(unit) {
        (c.power.get_ref(), c.area.get_ref(), c.movement)
    } else if let Some(l) = cx.find_leader(unit) {
        (l.power.get_ref(), l.area.get_ref(), l.movement)
    } else if let Some(f) = cx.find_fleet(unit) {
        if f.power.get_ref() != power {
            return Err(not_one_of_yours(unit, p.arg(0), cx.state, Some(power)));
        }
        return check_fleet_move(power, unit, f.area.get_ref(), path, p, cx, moved);
    } else if let Some(l) = cx.find_levy(unit) {
        return check_levy_move(power, l, path, p, cx, moved);
    } else {
        return Err(not_one_of_yours(unit, p.arg(0), cx.state, Some(power)));
    };
    if owner != power {
        return Err(not_one_of_yours(unit, p.arg(0), cx.state, Some(power)));
    }
    if let Some(c) = cx.find_corps(unit) {
        let besiegers = super::siege::besiegers_at_start(cx.state, c);
        if !besiegers.is_empty() {
            let list: Vec<&str> = besiegers.iter().map(String::as_str).collect();
            return Err(Diagnostic::error(
                format!(
                    "{unit} is besieged in the city of {start} by {}: it cannot march out",
                    list.join(", ")
                ),
                span,
            )
            .label("besieged")
            .hint("a garrison marches out once no enemy corps stand in its area outside the city; until then it holds the city")
            .rule(super::decisions::GARRISON));
        }
    }
    if moved.contains(&unit.to_ascii_lowercase()) {
        return Err(
            Diagnostic::error(format!("{unit} is already ordered to move"), span)
                .label("second move of this unit")
                .hint("give each unit one move order; write its whole path on one line")
                .rule(LAND_MOVEMENT),
        );
    }
    if u32::try_from(path.len()).map_or(true, |n| n > allowance) {
        return Err(Diagnostic::error(
            format!(
                "{unit} can move {allowance} areas, this path has {}",
                path.len()
            ),
            span,
        )
        .label("too far")
        .hint(format!("shorten the path to at most {allowance} areas"))
        .rule(LAND_MOVEMENT));
    }
    let Some(mut here) = cx.map.find(start) else {
        return Err(Diagnostic::error(
            format!("{unit} stands in '{start}', which is not on the map"),
            span,
        )
        .hint("the game's state is damaged: tell the referee")
        .rule(LAND_MOVEMENT));
    };
    for (k, step) in path.iter().enumerate() {
        let at = p.path_arg(k);
        let Some(next) = cx.map.find(step) else {
            return Err(Diagnostic::error(format!("unknown area '{step}'"), at)
                .label("not on the map")
                .hint(cx.map.suggest(step).unwrap_or_else(|| {
                    "write the area's name as your turn report spells it".into()
                }))
                .rule(ORDER_SYNTAX));
        };
        if next == here {
            let d = if k == 0 {
                Diagnostic::error(format!("{unit} is already in {step}"), at)
                    .hint("list only the areas the unit enters; a unit that stays needs no order")
            } else {
                Diagnostic::error(format!("{step} is written twice in a row"), at)
                    .hint("list each area the unit enters once")
            };
            return Err(d.label("the unit is here already").rule(LAND_MOVEMENT));
        }
        if !cx.map.adjacent(here, next) {
            return Err(Diagnostic::error(
                format!("{} is not adjacent to {}", step, cx.map.area(here).id),
                at,
            )
            .label("path breaks here")
            .hint("list every area the unit enters, each next to the one before")
            .rule(LAND_MOVEMENT));
        }
        if !cx.map.area(next).is_land() {
            // EiA 6.2.5: a corps crosses a sea area aboard one of its power's fleets there, and lands.
            let carried = EiaState::of(cx.state)
                .fleets
                .iter()
                .any(|f| f.power.get_ref() == power && f.area.get_ref() == &cx.map.area(next).id);
            if !carried || k + 1 == path.len() {
                let why = if carried {
                    "a move cannot end at sea"
                } else {
                    "no fleet of yours is there to carry it"
                };
                return Err(Diagnostic::error(format!("{step} is a sea area: {why}"), at)
                    .label("at sea")
                    .hint("corps and leaders cross a sea area only aboard a fleet of their power that stands there, and land beyond it")
                    .rule(TRANSPORT));
            }
        }
        here = next;
    }
    Ok(())
}

/// Parses and checks the order lines of one file for `power` (already authenticated).
pub fn parse_all(
    source: &Source,
    lines: &[Line],
    power: &str,
    cx: &Context<'_>,
) -> (Vec<Located<EiaOrder>>, Vec<Diagnostic>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;
    use crate::orders::{split, Header, MAX_ORDER_LINES};
    use crate::rules::eia::decisions::{CHASE, PURSUIT, REINFORCE};
    use crate::rules::eia::test_fixture::{self, france, Fixture};
    use crate::rules::OrdersCheck;

    /// The context's index finds what `EiaState::find_*` find, for every id in any case, a duplicate
    /// id (the first stands) and ids of no unit.
    #[test]
    fn the_unit_index_finds_what_the_state_finds() {
        let fx = Fixture::new();
        let mut state = fx.state.clone();
        let pieces = EiaState::of_mut(&mut state);
        let mut twin = pieces.corps[0].clone();
        twin.area = pieces.corps[1].area.clone();
        pieces.corps.push(twin);
        let cx = Context::new(&fx.game.map, &state, &fx.tables);
        let pieces = EiaState::of(&state);
        let mut ids: Vec<String> = pieces.unit_ids().map(String::from).collect();
        ids.extend(["nobody", "", "FR-I ", "ÉTOILE"].map(String::from));
        for id in ids {
            for id in [id.clone(), id.to_ascii_lowercase(), id.to_ascii_uppercase()] {
                let ptr = |c: Option<&Corps>| c.map(|c| c as *const Corps);
                assert_eq!(ptr(cx.find_corps(&id)), ptr(pieces.find_corps(&id)), "{id}");
                let ptr = |l: Option<&Leader>| l.map(|l| l as *const Leader);
                assert_eq!(
                    ptr(cx.find_leader(&id)),
                    ptr(pieces.find_leader(&id)),
                    "{id}"
                );
                let ptr = |f: Option<&Fleet>| f.map(|f| f as *const Fleet);
                assert_eq!(ptr(cx.find_fleet(&id)), ptr(pieces.find_fleet(&id)), "{id}");
            }
        }
    }

    /// The sorted index answers as a linear search does (the first of equal ids, ASCII case ignored):
    /// every id in three cases, duplicates, and ids of no unit.
    #[test]
    fn the_sorted_index_finds_the_first_equal_id() {
        let ids: Vec<String> = (0..3000)
            .map(|i| match i % 7 {
                0 => format!("fr-{}", i / 2),
                1 => format!("FR-{}", i / 2),
                _ => format!("Unit{i}"),
            })
            .collect();
        let sorted = sorted_by_id(ids.len(), |i| ids[i].as_str());
        let linear = |key: &str| ids.iter().position(|id| id.eq_ignore_ascii_case(key));
        for key in ids
            .iter()
            .map(String::as_str)
            .chain(["", "fr-", "unit3001", "UNIT5"])
        {
            for key in [
                key.to_string(),
                key.to_ascii_uppercase(),
                key.to_ascii_lowercase(),
            ] {
                assert_eq!(
                    find_id(&sorted, &key, |i| ids[i].as_str()),
                    linear(&key),
                    "{key}"
                );
            }
        }
        assert_eq!(find_id(&[], "x", |_| ""), None);
    }

    /// Checks France's orders `body` after a right header.
    fn check(body: &str) -> (String, OrdersCheck) {
        let text = format!("{}{body}", france());
        let checked = Fixture::new().check(&text);
        (text, checked)
    }

    /// The one diagnostic of a check, which must be an error with a hint and a rule.
    fn one_error(checked: &OrdersCheck) -> &Diagnostic {
        assert_eq!(checked.diagnostics.len(), 1, "{:#?}", checked.diagnostics);
        let d = &checked.diagnostics[0];
        assert_eq!(d.severity, Severity::Error);
        assert!(d.hint.is_some(), "no hint: {d:?}");
        assert!(d.rule.is_some(), "no rule: {d:?}");
        d
    }

    fn accepted(checked: &OrdersCheck) -> Vec<&str> {
        checked.accepted.iter().map(|(_, o)| o.as_str()).collect()
    }

    /// Parses single order lines against the fixture, without header or legality.
    fn parse(fx: &Fixture, text: &str) -> Result<EiaOrder, Diagnostic> {
        let lines = split(text);
        parse_line(&lines[0], &fx.context())
    }

    #[test]
    fn rejects_unknown_order_word_with_did_you_mean() {
        let (text, c) = check("mvoe FR-I Ulm\n");
        let d = one_error(&c);
        assert_eq!(d.message, "unknown order 'mvoe'");
        assert_eq!(d.hint.as_deref(), Some("did you mean 'move'?"));
        assert_eq!(&text[d.span.clone()], "mvoe");
        assert_eq!(d.rule, Some(ORDER_SYNTAX));
    }

    #[test]
    fn eia_12_3_7_4_a_react_line_is_rejected_by_the_checker_and_the_others_stand() {
        let (text, c) = check("react FR-I Ulm\nattack Ulm\n");
        let d = one_error(&c);
        assert_eq!(d.message, "reaction moves are not used in games by mail");
        assert_eq!(d.rule, Some(REACTION_MOVES));
        assert_eq!(&text[d.span.clone()], "react");
        assert_eq!(accepted(&c), ["attack Ulm"]);
    }

    #[test]
    fn eia_10_1_4_1_4_a_waiting_insurrection_corps_may_be_given_a_move() {
        let fx = Fixture::new();
        let austria = |body: &str| {
            format!(
                "{}{body}",
                test_fixture::header("austria", test_fixture::AUSTRIA_PASSWORD)
            )
        };
        let c = fx.check(&austria("move au-ins Munich Augsburg\n"));
        assert_eq!(
            accepted(&c),
            ["move AU-Ins Munich Augsburg"],
            "{:#?}",
            c.diagnostics
        );
        let c = fx.check(&austria("move AU-Ins Lake-Constance\n"));
        assert!(one_error(&c)
            .message
            .contains("an insurrection corps moves on land"));
        let c = fx.check(&austria("move AU-Ins Munich Ulm Stuttgart\n"));
        assert!(one_error(&c).message.contains("can move 2 areas"));
        // Not France's to move.
        let (_, c) = check("move AU-Ins Munich\n");
        assert!(one_error(&c).message.contains("no unit of yours is called"));
    }

    #[test]
    fn rejects_unknown_order_word_far_from_any_with_the_list_of_orders() {
        // Between two lines of the orders (after the last, it is a sign-off: `orders::prose`).
        let (_, c) = check("xyzzy\nattack Ulm\n");
        let d = one_error(&c);
        assert_eq!(d.message, "unknown order 'xyzzy'");
        assert_eq!(
            d.hint.as_deref(),
            Some("the orders are: move, attack, chit, engage, standing")
        );
    }

    #[test]
    fn rejects_unknown_area_with_did_you_mean() {
        let (text, c) = check("move FR-I Ulmm\n");
        let d = one_error(&c);
        assert_eq!(d.message, "unknown area 'Ulmm'");
        assert_eq!(d.hint.as_deref(), Some("did you mean 'Ulm'?"));
        assert_eq!(&text[d.span.clone()], "Ulmm");
        assert_eq!(test_fixture::source(&text).line_col(d.span.start), (5, 11));
        let rendered = test_fixture::source(&text).render(&c.diagnostics);
        assert!(
            rendered.contains("orders/ulm-1805/1/france.txt"),
            "{rendered}"
        );
        assert!(rendered.contains("did you mean 'Ulm'?"), "{rendered}");
    }

    #[test]
    fn rejects_unknown_unit_suggesting_the_powers_own() {
        let (_, c) = check("move FR-l Ulm\n");
        let d = one_error(&c);
        assert_eq!(d.message, "no unit of yours is called 'FR-l'");
        assert_eq!(d.hint.as_deref(), Some("did you mean 'FR-I'?"));
        let (_, c) = check("move Blucher Ulm\n");
        let d = one_error(&c);
        assert_eq!(d.message, "no unit of yours is called 'Blucher'");
        assert_eq!(
            d.hint.as_deref(),
            Some("your units are: FR-I, FR-V, FR-Cav, Napoleon")
        );
    }

    #[test]
    fn rejects_missing_arguments_of_every_verb() {
        let cases = [
            ("move\n", "'move' needs a unit and at least one area"),
            ("move FR-I\n", "'move' needs a unit and at least one area"),
            ("attack\n", "'attack' needs 1 argument, found 0"),
            ("chit\n", "'chit' needs 2 arguments, found 0"),
            ("chit Ulm\n", "'chit' needs 2 arguments, found 1"),
            ("standing\n", "'standing' needs a key and a setting"),
            ("standing pursue\n", "'standing pursue' needs a setting"),
        ];
        for (body, message) in cases {
            let (_, c) = check(body);
            let d = one_error(&c);
            assert_eq!(d.message, message, "{body}");
            assert!(
                d.hint.as_deref().is_some_and(|h| h.starts_with("write")),
                "{body}: {d:?}"
            );
            assert!(c.accepted.is_empty());
        }
    }

    #[test]
    fn rejects_too_many_arguments() {
        let (text, c) = check("attack Ulm Munich\n");
        let d = one_error(&c);
        assert_eq!(d.message, "'attack' takes 1 argument, found 2");
        assert_eq!(d.hint.as_deref(), Some("write it as 'attack Ulm'"));
        assert_eq!(&text[d.span.clone()], "Munich");
        let (text, c) = check("chit Ulm outflank now please\n");
        let d = one_error(&c);
        assert_eq!(d.message, "'chit' takes 2 arguments, found 4");
        assert_eq!(&text[d.span.clone()], "now please");
        let (_, c) = check("standing pursue always never\n");
        assert_eq!(
            one_error(&c).message,
            "'always never' is not a setting of 'standing pursue'"
        );
    }

    #[test]
    fn rejects_unknown_chit_and_standing_values() {
        let (_, c) = check("chit Ulm outflnak\n");
        let d = one_error(&c);
        assert_eq!(d.message, "unknown chit 'outflnak'");
        assert_eq!(d.hint.as_deref(), Some("did you mean 'outflank'?"));
        let (_, c) = check("standing retreat never\n");
        let d = one_error(&c);
        assert_eq!(d.message, "unknown standing order 'retreat'");
        assert_eq!(
            d.hint.as_deref(),
            Some("write one of: attack-chit, defence-chit, pursue, reinforce, guard, continue, surrender, honours, tactics, intercept, chase, insurrection")
        );
        let (_, c) = check("standing Pursue Sometimes\n");
        let d = one_error(&c);
        assert_eq!(
            d.message,
            "'Sometimes' is not a setting of 'standing pursue'"
        );
        assert_eq!(d.hint.as_deref(), Some("write one of: always, never"));
        let (_, c) = check("standing attack-chit defend\n");
        let d = one_error(&c);
        assert_eq!(
            d.message,
            "'defend' is not a setting of 'standing attack-chit'"
        );
        assert_eq!(
            d.hint.as_deref(),
            Some("write one of: assault, echelon, outflank, probe")
        );
    }

    #[test]
    fn rejects_unit_of_another_power() {
        let (text, c) = check("move AU-I Augsburg\n");
        let d = one_error(&c);
        // Fog of war (issue 15.6): the same words as for no unit at all, no owner, no enemy id.
        assert_eq!(d.message, "no unit of yours is called 'AU-I'");
        assert!(!d.hint.as_deref().unwrap().contains("AU-"), "{d:?}");
        assert_eq!(d.rule, Some(OWN_UNITS));
        assert_eq!(&text[d.span.clone()], "AU-I");
        let (_, c) = check("move Mack Augsburg\n");
        assert_eq!(one_error(&c).message, "no unit of yours is called 'Mack'");
        let (_, c) = check("move AU-Lake Ulm\n");
        assert_eq!(
            one_error(&c).message,
            "no unit of yours is called 'AU-Lake'"
        );
    }

    #[test]
    fn a_line_naming_another_powers_unit_is_answered_as_one_naming_none() {
        // Austria's AU-Lake (a fleet) and AU-I (a corps), and ids of no unit at all, are answered
        // alike wherever a line names a unit: France learns no id of another power's.
        for (theirs, none) in [
            (
                "standing intercept AU-Lake never",
                "standing intercept AU-Loch never",
            ),
            ("move FR-I with AU-Lake Ulm", "move FR-I with AU-Loch Ulm"),
            ("chit Ulm outflank with AU-I", "chit Ulm outflank with AU-J"),
            ("move AU-I Ulm", "move AU-J Ulm"),
        ] {
            let told = |body: &str, id: &str| {
                let (_, c) = check(&format!("{body}\n"));
                assert!(accepted(&c).is_empty(), "{body}: {c:?}");
                let d = one_error(&c);
                let plain = |t: &str| t.replace(id, "X").replace(&id.to_ascii_lowercase(), "x");
                (
                    plain(&d.message),
                    d.label.clone(),
                    d.hint.clone(),
                    d.span.clone(),
                )
            };
            let id = |line: &str| {
                line.split(' ')
                    .find(|w| w.starts_with("AU-"))
                    .unwrap()
                    .to_string()
            };
            assert_eq!(told(theirs, &id(theirs)), told(none, &id(none)), "{theirs}");
        }
    }

    #[test]
    fn eia_7_move_path_must_be_adjacent() {
        let (text, c) = check("move FR-I Ulm Munich\n");
        let d = one_error(&c);
        assert_eq!(d.message, "Munich is not adjacent to Ulm");
        assert_eq!(
            d.hint.as_deref(),
            Some("list every area the unit enters, each next to the one before")
        );
        assert_eq!(d.rule, Some(LAND_MOVEMENT));
        assert_eq!(&text[d.span.clone()], "Munich");
        assert_eq!(d.span.start, text.rfind("Munich").unwrap());
    }

    #[test]
    fn eia_7_move_path_within_movement_allowance() {
        let (_, c) = check("move FR-V Stuttgart Ulm Augsburg\n");
        let d = one_error(&c);
        assert_eq!(d.message, "FR-V can move 2 areas, this path has 3");
        assert_eq!(
            d.hint.as_deref(),
            Some("shorten the path to at most 2 areas")
        );
        assert_eq!(d.rule, Some(LAND_MOVEMENT));
        let (_, c) = check("move FR-V Stuttgart Ulm\n");
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    }

    #[test]
    fn eia_6_2_5_a_corps_crosses_the_sea_only_aboard_its_own_fleet() {
        let (text, c) = check("move FR-Cav Lake-Constance Ulm\n");
        let d = one_error(&c);
        assert_eq!(
            d.message,
            "Lake-Constance is a sea area: no fleet of yours is there to carry it"
        );
        assert_eq!(
            d.hint.as_deref(),
            Some("corps and leaders cross a sea area only aboard a fleet of their power that stands there, and land beyond it")
        );
        assert_eq!(d.rule, Some(TRANSPORT));
        assert_eq!(&text[d.span.clone()], "Lake-Constance");
    }

    #[test]
    fn eia_7_one_move_per_unit() {
        let (text, c) = check("move FR-I Ulm\nmove fr-i Donauworth\n");
        let d = one_error(&c);
        assert_eq!(d.message, "FR-I is already ordered to move");
        assert_eq!(
            d.hint.as_deref(),
            Some("give each unit one move order; write its whole path on one line")
        );
        assert_eq!(d.rule, Some(LAND_MOVEMENT));
        assert_eq!(&text[d.span.clone()], "move fr-i Donauworth");
        assert_eq!(accepted(&c), ["move FR-I Ulm"]);
    }

    #[test]
    fn eia_7_a_rejected_move_leaves_the_unit_free_to_move() {
        let (_, c) = check("move FR-I Munich\nmove FR-I Ulm\n");
        assert_eq!(one_error(&c).message, "Munich is not adjacent to Stuttgart");
        assert_eq!(accepted(&c), ["move FR-I Ulm"]);
    }

    #[test]
    fn eia_7_move_must_leave_the_area_it_stands_in() {
        let (_, c) = check("move FR-I Stuttgart Ulm\n");
        let d = one_error(&c);
        assert_eq!(d.message, "FR-I is already in Stuttgart");
        assert!(d.hint.is_some());
        let (_, c) = check("move FR-I Ulm Ulm\n");
        assert_eq!(one_error(&c).message, "Ulm is written twice in a row");
    }

    #[test]
    fn eia_6_2_fleets_do_not_move_on_land() {
        let fx = Fixture::new();
        let text = format!(
            "{}move AU-Lake Ulm\n",
            test_fixture::header("austria", test_fixture::AUSTRIA_PASSWORD)
        );
        let c = fx.check(&text);
        let d = one_error(&c);
        assert_eq!(d.message, "fleet AU-Lake cannot move on land");
        assert_eq!(d.rule, Some(NAVAL_MOVEMENT));
    }

    #[test]
    fn eia_7_5_attack_needs_a_land_area() {
        let (text, c) = check("attack Lake-Constance\n");
        let d = one_error(&c);
        assert_eq!(
            d.message,
            "Lake-Constance is a sea area: land combat needs a land area"
        );
        assert_eq!(
            d.hint.as_deref(),
            Some(
                "attack and choose chits in land areas; to attack the enemy fleets there, write 'engage Lake-Constance'"
            )
        );
        assert_eq!(d.rule, Some(LAND_COMBAT));
        assert_eq!(&text[d.span.clone()], "Lake-Constance");
    }

    #[test]
    fn eia_7_5_chit_needs_a_land_area() {
        let (_, c) = check("chit lake-constance assault\n");
        let d = one_error(&c);
        assert_eq!(
            d.message,
            "Lake-Constance is a sea area: land combat needs a land area"
        );
        assert_eq!(d.rule, Some(LAND_COMBAT));
    }

    #[test]
    fn eia_19_1_second_chit_for_an_area_is_rejected() {
        let (text, c) = check("chit Ulm outflank\nchit Ulm assault\nchit Munich probe\n");
        let d = one_error(&c);
        assert_eq!(d.message, "a second chit for Ulm");
        assert_eq!(
            d.hint.as_deref(),
            Some("keep one 'chit Ulm ...' line; the first one stands")
        );
        assert_eq!(d.rule, Some(CHIT));
        assert_eq!(&text[d.span.clone()], "chit Ulm assault");
        assert_eq!(accepted(&c), ["chit Ulm outflank", "chit Munich probe"]);
    }

    #[test]
    fn a_second_attack_on_an_area_is_dropped_with_a_warning() {
        let (_, c) = check("attack Ulm\nattack ulm\n");
        assert_eq!(c.diagnostics.len(), 1);
        let d = &c.diagnostics[0];
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(d.message, "a second attack on Ulm");
        assert!(d.hint.is_some());
        assert_eq!(c.rejected(), 0);
        assert_eq!(accepted(&c), ["attack Ulm"]);
    }

    /// EiA 7.5.2.10.2, 7.5.2.11, 6.3.5: the SOP's absolutes admit no standing order against them in a
    /// game that does not name the option: each line is refused where its setting stands, citing
    /// the rule, with the option in the hint; the settings that agree with the rule stand.
    #[test]
    fn eia_7_5_2_10_2_and_7_5_2_11_and_6_3_5_the_sop_s_absolutes_admit_no_standing_order() {
        let (text, c) = check(
            "standing pursue never\nstanding reinforce never\nstanding chase always\nstanding pursue always\nstanding chase never\n",
        );
        let errors: Vec<&Diagnostic> = c
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert_eq!(errors.len(), 3, "{:?}", c.diagnostics);
        for (d, (line, rule, option)) in errors.iter().zip([
            ("standing pursue never", PURSUIT, "pursue-by-order"),
            ("standing reinforce never", REINFORCE, "reinforce-by-order"),
            ("standing chase always", CHASE, "chase-by-order"),
        ]) {
            assert_eq!(
                d.message,
                format!("'{line}' is not open to a player: {rule}")
            );
            assert_eq!(d.rule, Some(rule));
            assert!(d.hint.as_deref().unwrap().contains(option), "{d:?}");
            let setting = line.rsplit(' ').next().unwrap();
            assert_eq!(&text[d.span.clone()], setting);
        }
        assert_eq!(
            accepted(&c),
            ["standing pursue always", "standing chase never"]
        );
    }

    /// A game that names an option (`decisions::OPTIONS`) takes the standing order it allows.
    #[test]
    fn eia_7_5_2_10_2_a_game_with_the_option_takes_standing_pursue_never() {
        let fx = Fixture::new();
        let options = std::collections::BTreeSet::from(["pursue-by-order".to_string()]);
        let cx = fx.context().with_options(&options);
        let text = "standing pursue never\nstanding reinforce never\n";
        let lines = crate::orders::split(text);
        let (ok, diags) = parse_all(&test_fixture::source(text), &lines, "france", &cx);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].rule, Some(REINFORCE));
        assert_eq!(ok.len(), 1);
        assert_eq!(ok[0].value.to_string(), "standing pursue never");
    }

    #[test]
    fn a_later_standing_order_replaces_an_earlier_one_with_a_warning() {
        let (text, c) =
            check("standing pursue always\nstanding honours deny\nstanding PURSUE always\n");
        assert_eq!(c.diagnostics.len(), 1, "{:?}", c.diagnostics);
        let d = &c.diagnostics[0];
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(
            d.message,
            "standing order 'pursue' is given again below: the later one stands"
        );
        assert_eq!(d.hint.as_deref(), Some("keep one 'standing pursue' line"));
        assert_eq!(&text[d.span.clone()], "standing pursue always");
        assert_eq!(c.rejected(), 0);
        assert_eq!(
            accepted(&c),
            ["standing honours deny", "standing pursue always"]
        );
    }

    #[test]
    fn orders_are_case_insensitive_and_canonicalised() {
        let (_, c) = check(
            "MOVE fr-i ulm\nAttack ULM\nchit uLm OUTFLANK\nStanding Defence-Chit Counterattack\n",
        );
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert_eq!(
            accepted(&c),
            [
                "move FR-I Ulm",
                "attack Ulm",
                "chit Ulm outflank",
                "standing defence-chit counterattack"
            ]
        );
        assert_eq!(c.accepted[0].0, 5);
    }

    #[test]
    fn every_verb_prints_and_parses_back_the_same() {
        let fx = Fixture::new();
        let orders = [
            EiaOrder::Move {
                unit: "FR-I".into(),
                with: Vec::new(),
                path: vec!["Ulm".into(), "Augsburg".into()],
            },
            EiaOrder::Move {
                unit: "Napoleon".into(),
                with: Vec::new(),
                path: vec!["Black-Forest".into()],
            },
            EiaOrder::Attack { area: "Ulm".into() },
            EiaOrder::Chit {
                area: "Ulm".into(),
                chit: "counterattack".into(),
                with: Vec::new(),
            },
            EiaOrder::Chit {
                area: "Ulm".into(),
                chit: "outflank".into(),
                with: vec!["AU-I".into()],
            },
            EiaOrder::Standing {
                key: "attack-chit".into(),
                value: "echelon".into(),
            },
            EiaOrder::Standing {
                key: "reinforce".into(),
                value: "always".into(),
            },
            EiaOrder::Move {
                unit: "AU-Lake".into(),
                with: vec!["AU-Lake".into()],
                path: vec!["Lake-Constance".into()],
            },
        ];
        for o in orders {
            let text = o.to_string();
            assert_eq!(parse(&fx, &text).as_ref(), Ok(&o), "{text}");
        }
        // And from what a player writes: parse, print, parse again.
        for written in [
            "move  napoleon black-forest\t STUTTGART",
            "CHIT ulm Probe",
            "standing Pursue ALWAYS",
            "move au-lake WITH au-lake lake-constance",
        ] {
            let once = parse(&fx, written).unwrap();
            assert_eq!(parse(&fx, &once.to_string()).unwrap(), once, "{written}");
        }
    }

    #[test]
    fn a_bad_line_does_not_reject_the_good_lines_around_it() {
        let (_, c) =
            check("move FR-I Ulm\nmove FR-Cav Ulmm\nattack Ulm\nfrobnicate\nchit Ulm assault\n");
        assert_eq!(
            accepted(&c),
            ["move FR-I Ulm", "attack Ulm", "chit Ulm assault"]
        );
        assert_eq!(
            c.accepted.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            [5, 7, 9]
        );
        let messages: Vec<&str> = c.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            ["unknown area 'Ulmm'", "unknown order 'frobnicate'"]
        );
        assert!(c
            .diagnostics
            .iter()
            .all(|d| d.hint.is_some() && d.rule.is_some()));
        assert_eq!(c.power.as_deref(), Some("france"));
    }

    #[test]
    fn empty_file_gives_the_missing_header_diagnostics() {
        let c = Fixture::new().check("");
        let messages: Vec<&str> = c.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "the orders have no 'game' line",
                "the orders have no 'turn' line",
                "the orders have no 'power' line",
                "the orders have no 'password' line",
            ]
        );
        assert!(c.diagnostics.iter().all(|d| d.hint.is_some()));
        assert_eq!(
            c.diagnostics[0].hint.as_deref(),
            Some("add a line 'game ulm-1805'")
        );
        assert_eq!(c.power, None);
        assert!(c.accepted.is_empty());
        let rendered = test_fixture::source("").render(&c.diagnostics);
        assert!(
            rendered.contains("add a line 'game ulm-1805'"),
            "{rendered}"
        );
    }

    #[test]
    fn comments_only_file_gives_the_missing_header_diagnostics() {
        let text = "# France, turn 1\r\n\n   # nothing yet\n#\n";
        let c = Fixture::new().check(text);
        assert_eq!(c.diagnostics.len(), 4);
        assert_eq!(c.diagnostics[2].message, "the orders have no 'power' line");
        assert_eq!(
            c.diagnostics[2].hint.as_deref(),
            Some("add a line 'power <your power>'")
        );
        assert_eq!(c.power, None);
        assert_eq!(
            test_fixture::source(text).line_col(c.diagnostics[0].span.start),
            (5, 1)
        );
        let rendered = test_fixture::source(text).render(&c.diagnostics);
        assert!(
            rendered.contains("add a line 'power <your power>'"),
            "{rendered}"
        );
    }

    #[test]
    fn orders_are_not_read_without_a_valid_header() {
        let text = format!(
            "{}move FR-I Ulm\n",
            test_fixture::header("france", "not-the-password")
        );
        let c = Fixture::new().check(&text);
        assert_eq!(c.power, None);
        assert!(c.accepted.is_empty());
        assert_eq!(one_error(&c).message, "wrong password for France");
    }

    #[test]
    fn ten_megabyte_line_gives_one_short_diagnostic() {
        let (text, c) = check(&format!(
            "move FR-I Ulm\n{}\nattack Ulm\n",
            "Ulm ".repeat(2_500_000)
        ));
        assert!(text.len() > 10_000_000);
        let d = one_error(&c);
        assert_eq!(d.message, "line too long");
        assert_eq!(d.hint.as_deref(), Some("an order fits on a short line: break this one up, or check that this is the orders file you meant"));
        assert_eq!(accepted(&c), ["move FR-I Ulm", "attack Ulm"]);
        assert_eq!(test_fixture::source(&text).line_col(d.span.start), (6, 1));
        let rendered = test_fixture::source(&text).render(&c.diagnostics);
        assert!(rendered.len() < 2_000, "{} bytes", rendered.len());
        assert!(rendered.contains("line too long"), "{rendered}");
    }

    #[test]
    fn more_than_500_orders_are_cut_with_one_diagnostic() {
        let body = "attack Ulm\n".repeat(MAX_ORDER_LINES + 50);
        let (_, c) = check(&body);
        let errors: Vec<&Diagnostic> = c.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].message, "more than 500 orders");
        assert!(errors[0].hint.is_some());
        // The 499 repeats of the first attack are dropped with a warning each; the file still authenticates.
        assert_eq!(c.power.as_deref(), Some("france"));
        assert_eq!(c.diagnostics.len(), MAX_ORDER_LINES);
    }

    #[test]
    fn odd_characters_give_diagnostics_not_panics() {
        let bodies = [
            "move FR-I\u{200b}Ulm\n",
            "move FR-I Ulm\u{301}\n",
            "move\u{a0}FR-I\u{3000}Ulm\n",
            "attack\tUl#m\n",
            "chit\rUlm\rprobe\n",
            "\u{feff}attack Ulm\n",
            "🦅 🦅 🦅\n",
            "move FR-I 🦅\n",
            "standing pursue 🦅\n",
            "move FR-I Ulm\r",
            "\r\r\r",
            "#\u{301}\n",
        ];
        for body in bodies {
            let (text, c) = check(body);
            for d in &c.diagnostics {
                assert!(d.hint.is_some(), "{body:?}: {d:?}");
                assert!(text.get(d.span.clone()).is_some(), "{body:?}: {d:?}");
            }
            let _ = test_fixture::source(&text).render(&c.diagnostics);
        }
    }

    #[test]
    fn check_legality_works_without_argument_spans() {
        let fx = Fixture::new();
        let orders = vec![
            Located::new(
                EiaOrder::Move {
                    unit: "FR-I".into(),
                    with: Vec::new(),
                    path: vec!["Munich".into()],
                },
                0..10,
            ),
            Located::new(
                EiaOrder::Move {
                    unit: "Nobody".into(),
                    with: Vec::new(),
                    path: vec!["Ulm".into()],
                },
                11..20,
            ),
            Located::new(
                EiaOrder::Attack {
                    area: "Atlantis".into(),
                },
                21..30,
            ),
        ];
        let (ok, diags) = check_legality("france", orders, &fx.context());
        assert!(ok.is_empty());
        let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "Munich is not adjacent to Stuttgart",
                "no unit of yours is called 'Nobody'",
                "unknown area 'Atlantis'"
            ]
        );
        assert_eq!(diags[0].span, 0..10);
    }

    #[test]
    fn parse_line_never_panics_on_a_skipped_or_empty_line() {
        let fx = Fixture::new();
        let empty = Line {
            number: 1,
            tokens: Vec::new(),
            span: 0..0,
            skipped: None,
        };
        assert_eq!(
            parse_line(&empty, &fx.context()).unwrap_err().message,
            "empty order line"
        );
        let lines = split(&"x".repeat(5_000));
        let (_, rest, diags) = Header::take("", lines);
        assert!(rest.is_empty());
        assert_eq!(diags.len(), 1);
    }
}
