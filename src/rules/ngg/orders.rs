//! The order verbs of Napoleon's Greatest Gamble, their parsing and their legality. By mail a combat
//! phase is no conversation: each player sends, with his moves, a ranked attack plan and his defence
//! orders; `resolve` runs the alternation of 10.7 over both plans (`initiative.rs`).
//!
//! ```text
//! move <unit|hex> <hex> [<hex> ...] [force]      a unit, or the whole stack of a hex, along a path;
//!                                                `force`: a force march (pbem's movement)
//! forage <hex>                                   the stack of the hex forages (pbem's forage)
//! attack <hex> <hex>                             an entry of the attack plan, in rank order: the
//!        [with <unit> ...]                       stack of the first hex attacks the adjacent second
//!        [cc <n>]                                (10.1) with some of its units, CCs (10.2),
//!        [support all|none|<hex> ...]            the supporting stacks to call (10.3), and
//!        [if ahead] [if holds]                   conditions: the plan's previous entry went ahead;
//!                                                the target still holds a stack that stood there
//! stop after <n> attacks                         decline once n attacks have been ordered (10.7)
//! keep <n>                                       the attacks leave n CCs for defence (10.2)
//! defend <hex> [cc <n>] [support all|none|<hex> ...]
//!                                                this turn's defence of a hex (10.5, 10.6)
//! standing <key> [<hex>] <setting>               a standing order (decisions.rs lists the keys)
//! ```
//!
//! Hexes are written by id (`0605`) or by a name of tables.toml's `[places]` (`Smolensk`). Whether a
//! stack stands in an attack's hex is a question of its moment (moves come first): an entry whose
//! stack is not there then is void. Every rejected line gets a diagnostic with a span, a hint and its
//! rule; the other lines stand. ORDERS.md documents this language for players.

#![allow(clippy::result_large_err)]

use std::collections::BTreeSet;
use std::fmt;

use crate::diag::{did_you_mean, Diagnostic};
use crate::game::map::Map;
use crate::game::state::State;
use crate::orders::{Line, Located, Token};

use super::decisions::{self, number};
use super::rules;
use super::state::{NggState, Unit};
use super::tables::Tables;

pub use crate::orders::{ORDER_SYNTAX, OWN_UNITS};

/// The order words of NGG.
pub const VERBS: [&str; 7] = [
    "move", "forage", "attack", "stop", "keep", "defend", "standing",
];

/// The most CCs an order may name.
pub const MAX_CC: u32 = 99;

/// Which supporting stacks to call (10.3, 10.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Support {
    All,
    None,
    /// These hexes only, in this order.
    Hexes(Vec<String>),
}

impl fmt::Display for Support {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Support::All => f.write_str("all"),
            Support::None => f.write_str("none"),
            Support::Hexes(h) => f.write_str(&h.join(" ")),
        }
    }
}

/// One entry of an attack plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackOrder {
    /// The attacking stack's hex.
    pub from: String,
    /// The defending stack's hex.
    pub target: String,
    /// The units given the order (10.1); empty: every unit of the stack with strength.
    pub units: Vec<String>,
    /// CCs to allocate (10.2); none: the standing order or the SOP.
    pub cc: Option<u32>,
    /// Supporting stacks to call (10.3); none: the standing order or the SOP.
    pub support: Option<Support>,
    /// Only if the plan's previous entry was ordered and went ahead.
    pub if_ahead: bool,
    /// Only if the target still holds a unit that stood there when the combat phase began.
    pub if_holds: bool,
}

/// One NGG order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NggOrder {
    Move {
        /// A unit id, or a hex for its whole stack.
        mover: String,
        stack: bool,
        path: Vec<String>,
        force: bool,
    },
    Forage {
        hex: String,
    },
    Attack(AttackOrder),
    Stop {
        after: u32,
    },
    Keep {
        cc: u32,
    },
    Defend {
        hex: String,
        cc: Option<u32>,
        support: Option<Support>,
    },
    Standing {
        key: String,
        value: String,
    },
}

impl fmt::Display for NggOrder {
    /// The canonical text: parsing it gives the same order back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NggOrder::Move {
                mover, path, force, ..
            } => {
                write!(f, "move {mover} {}", path.join(" "))?;
                if *force {
                    f.write_str(" force")?;
                }
                Ok(())
            }
            NggOrder::Forage { hex } => write!(f, "forage {hex}"),
            NggOrder::Attack(a) => {
                write!(f, "attack {} {}", a.from, a.target)?;
                if !a.units.is_empty() {
                    write!(f, " with {}", a.units.join(" "))?;
                }
                if let Some(cc) = a.cc {
                    write!(f, " cc {cc}")?;
                }
                if let Some(s) = &a.support {
                    write!(f, " support {s}")?;
                }
                if a.if_ahead {
                    f.write_str(" if ahead")?;
                }
                if a.if_holds {
                    f.write_str(" if holds")?;
                }
                Ok(())
            }
            NggOrder::Stop { after } => write!(f, "stop after {after} attacks"),
            NggOrder::Keep { cc } => write!(f, "keep {cc}"),
            NggOrder::Defend { hex, cc, support } => {
                write!(f, "defend {hex}")?;
                if let Some(cc) = cc {
                    write!(f, " cc {cc}")?;
                }
                if let Some(s) = support {
                    write!(f, " support {s}")?;
                }
                Ok(())
            }
            NggOrder::Standing { key, value } => {
                let (k, scope) = key
                    .split_once('@')
                    .map_or((key.as_str(), None), |(k, s)| (k, Some(s)));
                write!(f, "standing {k}")?;
                if let Some(s) = scope {
                    write!(f, " {s}")?;
                }
                write!(f, " {value}")
            }
        }
    }
}

/// What parsing needs to know of the game.
pub struct Context<'a> {
    pub map: &'a Map,
    pub state: &'a State,
    pub ngg: &'a NggState,
    pub tables: &'a Tables,
}

fn syntax(message: impl Into<String>, span: std::ops::Range<usize>, hint: &str) -> Diagnostic {
    Diagnostic::error(message, span)
        .hint(hint.to_string())
        .rule(ORDER_SYNTAX)
}

/// An order's form as the order guide writes it (`move <unit|hex> <hex> ... [force]`), as a hint in
/// the player's own words (`orders::form`): his unit, the hex of his stack, a hex he wrote. A hint
/// never names one side's pieces to the other (the examples it gave before named `FR-III` to both).
fn in_his_words(form: &str, args: &[Token], cx: &Context<'_>, power: &str) -> String {
    let own = |t: &Token| cx.own_unit(t, power).ok().map(|u| u.id().to_string());
    crate::orders::form::in_his_words(form, args, |placeholder, t| match placeholder {
        "<hex>" => cx.hex(t).ok().map(|_| t.text.clone()),
        "<unit>" => own(t),
        "<unit|hex>" => own(t).or_else(|| {
            let h = cx.hex(t).ok()?;
            let mine = cx.ngg.stack(&h, power).next().is_some();
            mine.then(|| t.text.clone())
        }),
        _ => None,
    })
}

impl Context<'_> {
    /// The hex id a token names: a hex id of the map, or a place of tables.toml.
    pub fn hex(&self, t: &Token) -> Result<String, Diagnostic> {
        let text = self.tables.place(&t.text).unwrap_or(&t.text);
        match self.map.find(text) {
            Some(i) => Ok(self.map.area(i).id.clone()),
            None => {
                let places = self.tables.places.keys().map(String::as_str);
                // A unit where its hex goes (`attack FR-Ney 0804`): a stack is named by its hex.
                // pbem plays NGG with open information, so naming where a unit stands tells nothing.
                let unit = self.ngg.unit(&t.text).map(|u| {
                    format!(
                        "{} is a unit, in {}: orders name a stack by its hex; write '{}'",
                        u.id(),
                        u.hex(),
                        u.hex()
                    )
                });
                let hint = unit
                    .or_else(|| did_you_mean(&t.text, places).map(|p| format!("did you mean '{p}'?")))
                    .or_else(|| self.map.suggest(&t.text))
                    .unwrap_or_else(|| {
                        "write a hex as its id, column then row ('0605'), or a place name of your report".into()
                    });
                Err(
                    Diagnostic::error(format!("unknown hex '{}'", t.text), t.span.clone())
                        .label("not on the map")
                        .hint(hint)
                        .rule(ORDER_SYNTAX),
                )
            }
        }
    }

    /// Whether a token names a hex (rather than a unit).
    fn is_hex(&self, t: &Token) -> bool {
        self.ngg.unit(&t.text).is_none() && self.hex(t).is_ok()
    }

    /// The power's unit named by `t`; another power's unit and no unit get the same words.
    fn own_unit(&self, t: &Token, power: &str) -> Result<&Unit, Diagnostic> {
        match self.ngg.unit(&t.text) {
            Some(u) if u.power() == power => Ok(u),
            _ => {
                let own: Vec<&str> = self
                    .ngg
                    .units
                    .iter()
                    .filter(|u| u.power() == power)
                    .map(Unit::id)
                    .collect();
                Err(Diagnostic::error(
                    format!("no unit of yours is called '{}'", t.text),
                    t.span.clone(),
                )
                .label("not one of your units")
                .hint(
                    did_you_mean(&t.text, own.iter().copied())
                        .map(|u| format!("did you mean '{u}'?"))
                        .unwrap_or_else(|| format!("your units are: {}", own.join(", "))),
                )
                .rule(OWN_UNITS))
            }
        }
    }

    fn adjacent(&self, a: &str, b: &str) -> bool {
        match (self.map.find(a), self.map.find(b)) {
            (Some(i), Some(j)) => self.map.adjacent(i, j),
            _ => false,
        }
    }

    fn cc(&self, t: Option<&Token>, at: &Token, example: &str) -> Result<u32, Diagnostic> {
        let Some(t) = t else {
            return Err(syntax("'cc' needs a number", at.span.clone(), example));
        };
        number(&t.text).ok_or_else(|| {
            Diagnostic::error(
                format!("'{}' is not a number of CCs", t.text),
                t.span.clone(),
            )
            .hint(format!("CCs are a number from 0 to {MAX_CC}"))
            .rule(rules::TEST)
        })
    }

    /// Reads `support all|none|<hex> ...` from `args[i..]`, stopping at `if`; each hex must touch
    /// `target` (10.3, 10.5).
    fn support(
        &self,
        args: &[Token],
        i: &mut usize,
        target: &str,
        rule: crate::rule::Rule,
    ) -> Result<Support, Diagnostic> {
        let at = &args[*i - 1];
        let first = args.get(*i);
        if let Some(f) = first.filter(|f| f.is("all") || f.is("none")) {
            *i += 1;
            return Ok(if f.is("all") {
                Support::All
            } else {
                Support::None
            });
        }
        let mut hexes = Vec::new();
        while let Some(t) = args.get(*i).filter(|t| !t.is("if") && !t.is("cc")) {
            let h = self.hex(t)?;
            if h == target || !self.adjacent(&h, target) {
                return Err(Diagnostic::error(
                    format!("{h} is not next to {target}"),
                    t.span.clone(),
                )
                .hint("a supporting stack stands next to the defending stack")
                .rule(rule));
            }
            if !hexes.contains(&h) {
                hexes.push(h);
            }
            *i += 1;
        }
        if hexes.is_empty() {
            return Err(syntax(
                "'support' needs all, none or hexes",
                at.span.clone(),
                "write 'support all', 'support none' or 'support 0604 0705'",
            ));
        }
        Ok(Support::Hexes(hexes))
    }
}

/// Parses one order line for `power`, checking each name and what the line alone can tell.
pub fn parse_line(line: &Line, cx: &Context<'_>, power: &str) -> Result<NggOrder, Diagnostic> {
    let Some((verb, args)) = line.tokens.split_first() else {
        return Err(syntax(
            "empty order line",
            line.span.clone(),
            "write one order per line",
        ));
    };
    match verb.text.to_ascii_lowercase().as_str() {
        "move" => parse_move(line, args, cx, power),
        "forage" => match args {
            [h] => Ok(NggOrder::Forage { hex: cx.hex(h)? }),
            _ => Err(syntax(
                format!("'forage' takes one hex, found {}", args.len()),
                line.span.clone(),
                &format!(
                    "{}: the hex of a stack of yours",
                    in_his_words("forage <hex>", args, cx, power)
                ),
            )),
        },
        "attack" => parse_attack(line, args, cx, power),
        "stop" => match args {
            [a, n, w] if a.is("after") && (w.is("attacks") || w.is("attack")) => {
                match n.text.parse::<u32>().ok().filter(|n| *n <= 999) {
                    Some(after) => Ok(NggOrder::Stop { after }),
                    None => Err(syntax(
                        format!("'{}' is not a number of attacks", n.text),
                        n.span.clone(),
                        "write 'stop after 2 attacks'",
                    )),
                }
            }
            _ => Err(syntax(
                "'stop' is written 'stop after <n> attacks'",
                line.span.clone(),
                "write 'stop after 2 attacks' (a failed test already ends your attacks, NGG 10.7)",
            )),
        },
        "keep" => match args {
            [n] => Ok(NggOrder::Keep {
                cc: cx.cc(Some(n), verb, "write 'keep 3'")?,
            }),
            _ => Err(syntax(
                "'keep' takes a number of CCs",
                line.span.clone(),
                "write 'keep 3': the attacks leave 3 CCs for defence",
            )),
        },
        "defend" => parse_defend(line, args, cx, power),
        "standing" => {
            let (key, value) = decisions::parse_standing(line, args, |t| cx.hex(t))?;
            Ok(NggOrder::Standing { key, value })
        }
        _ => Err(crate::orders::unknown_verb(verb, &VERBS)),
    }
}

fn parse_move(
    line: &Line,
    args: &[Token],
    cx: &Context<'_>,
    power: &str,
) -> Result<NggOrder, Diagnostic> {
    let example = format!(
        "{}: a unit of yours or the hex of your stack, then each hex entered",
        in_his_words("move <unit|hex> <hex> ... [force]", args, cx, power)
    );
    let (args, force) = match args.split_last() {
        Some((l, rest)) if l.is("force") => (rest, true),
        _ => (args, false),
    };
    let Some((who, path)) = args.split_first().filter(|(_, p)| !p.is_empty()) else {
        return Err(syntax(
            "'move' needs a unit or a hex, and at least one hex",
            line.span.clone(),
            &example,
        ));
    };
    let (mover, stack, start) = if cx.is_hex(who) {
        let h = cx.hex(who)?;
        if cx.ngg.stack(&h, power).next().is_none() {
            return Err(
                Diagnostic::error(format!("you have no stack in {h}"), who.span.clone())
                    .hint("name a hex where your units stand, or a unit")
                    .rule(OWN_UNITS),
            );
        }
        (h.clone(), true, h)
    } else {
        let u = cx.own_unit(who, power)?;
        (u.id().to_string(), false, u.hex().to_string())
    };
    let mut hexes = Vec::new();
    let mut at = start;
    for t in path {
        let h = cx.hex(t)?;
        if !cx.adjacent(&at, &h) {
            return Err(
                Diagnostic::error(format!("{h} is not next to {at}"), t.span.clone())
                    .hint("name every hex entered, in order")
                    .rule(rules::MOVEMENT),
            );
        }
        if cx.ngg.holder(&h).is_some_and(|p| p != power) {
            return Err(
                Diagnostic::error(format!("{h} holds enemy units"), t.span.clone())
                    .hint("attack them instead (NGG 10.1)")
                    .rule(rules::MOVEMENT),
            );
        }
        hexes.push(h.clone());
        at = h;
    }
    let most = cx.tables.movement + if force { cx.tables.force_march } else { 0 };
    if hexes.len() as u32 > most {
        return Err(Diagnostic::error(
            format!("{} hexes, the most is {most}", hexes.len()),
            line.span.clone(),
        )
        .hint(if force {
            "a force march adds `force_march` hexes of tables.toml to `movement`"
        } else {
            "add 'force' for a force march, or move less far"
        })
        .rule(rules::MOVEMENT));
    }
    Ok(NggOrder::Move {
        mover,
        stack,
        path: hexes,
        force,
    })
}

fn parse_attack(
    line: &Line,
    args: &[Token],
    cx: &Context<'_>,
    power: &str,
) -> Result<NggOrder, Diagnostic> {
    let example = in_his_words(
        "attack <hex> <hex> [with <unit> ...] [cc <n>] [support all|none|<hex> ...] [if ahead] [if holds]",
        args,
        cx,
        power,
    );
    let example = example.as_str();
    let (Some(from), Some(target)) = (args.first(), args.get(1)) else {
        return Err(syntax(
            "'attack' needs the attacking and the attacked hex",
            line.span.clone(),
            example,
        ));
    };
    let from_hex = cx.hex(from)?;
    let target_hex = cx.hex(target)?;
    if !cx.adjacent(&from_hex, &target_hex) {
        return Err(Diagnostic::error(
            format!("{target_hex} is not next to {from_hex}"),
            target.span.clone(),
        )
        .hint("a stack attacks an immediately adjacent hex")
        .rule(rules::ATTACK));
    }
    let mut a = AttackOrder {
        from: from_hex,
        target: target_hex,
        units: Vec::new(),
        cc: None,
        support: None,
        if_ahead: false,
        if_holds: false,
    };
    let mut i = 2;
    while let Some(t) = args.get(i) {
        if t.is("with") && a.units.is_empty() && a.cc.is_none() && a.support.is_none() {
            i += 1;
            while let Some(u) = args
                .get(i)
                .filter(|u| !u.is("cc") && !u.is("support") && !u.is("if"))
            {
                let id = cx.own_unit(u, power)?.id().to_string();
                if !a.units.contains(&id) {
                    a.units.push(id);
                }
                i += 1;
            }
            if a.units.is_empty() {
                return Err(syntax("'with' names no unit", t.span.clone(), example));
            }
        } else if t.is("cc") && a.cc.is_none() {
            a.cc = Some(cx.cc(args.get(i + 1), t, example)?);
            i += 2;
        } else if t.is("support") && a.support.is_none() {
            i += 1;
            let s = cx.support(args, &mut i, &a.target, rules::CALL_SUPPORT)?;
            if let Support::Hexes(h) = &s {
                if h.contains(&a.from) {
                    return Err(Diagnostic::error(
                        format!("{} is the attacking stack itself", a.from),
                        t.span.clone(),
                    )
                    .hint("name the other stacks next to the defender")
                    .rule(rules::CALL_SUPPORT));
                }
            }
            a.support = Some(s);
        } else if t.is("if") {
            match args.get(i + 1) {
                Some(c) if c.is("ahead") => a.if_ahead = true,
                Some(c) if c.is("holds") => a.if_holds = true,
                _ => {
                    return Err(syntax(
                        "'if' is followed by 'ahead' or 'holds'",
                        t.span.clone(),
                        example,
                    ))
                }
            }
            i += 2;
        } else {
            return Err(syntax(
                format!("unexpected '{}'", t.text),
                t.span.clone(),
                example,
            ));
        }
    }
    Ok(NggOrder::Attack(a))
}

fn parse_defend(
    line: &Line,
    args: &[Token],
    cx: &Context<'_>,
    power: &str,
) -> Result<NggOrder, Diagnostic> {
    let example = in_his_words(
        "defend <hex> [cc <n>] [support all|none|<hex> ...]",
        args,
        cx,
        power,
    );
    let example = example.as_str();
    let Some((h, rest)) = args.split_first() else {
        return Err(syntax("'defend' needs a hex", line.span.clone(), example));
    };
    let hex = cx.hex(h)?;
    let (mut cc, mut support) = (None, None);
    let mut i = 0;
    while let Some(t) = rest.get(i) {
        if t.is("cc") && cc.is_none() {
            cc = Some(cx.cc(rest.get(i + 1), t, example)?);
            i += 2;
        } else if t.is("support") && support.is_none() {
            i += 1;
            support = Some(cx.support(rest, &mut i, &hex, rules::DEFENCE_CALL)?);
        } else {
            return Err(syntax(
                format!("unexpected '{}'", t.text),
                t.span.clone(),
                example,
            ));
        }
    }
    Ok(NggOrder::Defend { hex, cc, support })
}

/// Parses every order line, then checks the orders together: a unit moves once, a foraging stack
/// does not move (pbem's forage), a hex is defended by one line. Returns the orders that stand and a
/// diagnostic for each line that does not.
pub fn parse_all(
    lines: &[Line],
    power: &str,
    cx: &Context<'_>,
) -> (Vec<Located<NggOrder>>, Vec<Diagnostic>) {
    let mut ok = Vec::new();
    let mut diags = Vec::new();
    let mut moved: BTreeSet<String> = BTreeSet::new();
    let mut foraging: BTreeSet<String> = BTreeSet::new();
    let mut defended: BTreeSet<String> = BTreeSet::new();
    for line in lines {
        if let Some(d) = line.skipped_diagnostic() {
            diags.push(d);
            continue;
        }
        let result = parse_line(line, cx, power).and_then(|o| {
            let span = line.span.clone();
            match &o {
                NggOrder::Move { mover, stack, .. } => {
                    let units: Vec<(String, String)> = if *stack {
                        cx.ngg
                            .stack(mover, power)
                            .map(|u| (u.id().to_lowercase(), u.hex().to_string()))
                            .collect()
                    } else {
                        cx.ngg
                            .unit(mover)
                            .map(|u| (u.id().to_lowercase(), u.hex().to_string()))
                            .into_iter()
                            .collect()
                    };
                    if let Some((u, _)) = units.iter().find(|(u, _)| moved.contains(u)) {
                        return Err(Diagnostic::error(
                            format!("{u} already moves this turn"),
                            span,
                        )
                        .hint("a unit moves once per turn")
                        .rule(rules::MOVEMENT));
                    }
                    if let Some((_, h)) = units.iter().find(|(_, h)| foraging.contains(h)) {
                        return Err(Diagnostic::error(format!("the stack in {h} forages"), span)
                            .hint("a foraging stack stays put this turn")
                            .rule(rules::FORAGE));
                    }
                    moved.extend(units.into_iter().map(|(u, _)| u));
                }
                NggOrder::Forage { hex } => {
                    let ids: Vec<String> = cx
                        .ngg
                        .stack(hex, power)
                        .map(|u| u.id().to_lowercase())
                        .collect();
                    if ids.is_empty() {
                        return Err(
                            Diagnostic::error(format!("you have no stack in {hex}"), span)
                                .hint("forage with a stack where it stands")
                                .rule(rules::FORAGE),
                        );
                    }
                    if ids.iter().any(|u| moved.contains(u)) {
                        return Err(Diagnostic::error(
                            format!("units in {hex} move this turn"),
                            span,
                        )
                        .hint("a foraging stack stays put this turn")
                        .rule(rules::FORAGE));
                    }
                    foraging.insert(hex.clone());
                }
                NggOrder::Defend { hex, .. } if !defended.insert(hex.clone()) => {
                    return Err(Diagnostic::error(
                        format!("{hex} is defended by an earlier line"),
                        span,
                    )
                    .hint("one 'defend' line per hex")
                    .rule(rules::DEFENCE_TEST));
                }
                _ => {}
            }
            Ok(o)
        });
        match result {
            Ok(o) => {
                diags.extend(beyond_the_allowance(&o, line, cx, power));
                ok.push(Located::new(o, line.span.clone()));
            }
            Err(d) => diags.push(d),
        }
    }
    (ok, diags)
}

/// What NGG 10.2 makes of a `keep` or `standing attack-reserve` of more CCs than the side has.
const KEPT_FROM_ATTACKS: &str = "your attacks get no CC: every one is kept for defence";

/// NGG 10.2, 10.6: CCs are allocated up to those remaining, out of the side's command chits of the
/// turn (pbem ngg/chits, tables.toml). A line that names more than the side has in a whole turn
/// (`cc 9` with 6) stands, and is answered at once with a warning: what it names, what the side
/// has, and what the rule makes of it (the CCs left when it comes; for `keep`, no CC for the
/// attacks), so that the player learns it from his answer and not from the turn's report.
fn beyond_the_allowance(
    order: &NggOrder,
    line: &Line,
    cx: &Context<'_>,
    power: &str,
) -> Option<Diagnostic> {
    let have = cx.tables.chits_of(power);
    // The number written, the words that name it, what comes of it, and its rule.
    let (n, word, what, rule) = match order {
        NggOrder::Attack(AttackOrder { cc: Some(n), .. }) => (
            *n,
            "cc",
            format!("the attack gets the CCs you have left when it comes, {have} at most"),
            rules::TEST,
        ),
        NggOrder::Defend { cc: Some(n), .. } => (
            *n,
            "cc",
            format!("the defence gets the CCs you have left when it comes, {have} at most"),
            rules::DEFENCE_TEST,
        ),
        NggOrder::Keep { cc } => (*cc, "keep", KEPT_FROM_ATTACKS.to_string(), rules::TEST),
        NggOrder::Standing { key, value } => {
            let left = |who: &str| {
                format!("{who} gets the CCs you have left when it comes, {have} at most")
            };
            let (what, rule) = match key.split('@').next().unwrap_or_default() {
                "attack-cc" => (left("an attack"), rules::TEST),
                "defence-cc" => (left("a defence"), rules::DEFENCE_TEST),
                // A reserve of every chit leaves none to spend (NGG 10.2, 10.6).
                "attack-reserve" => (KEPT_FROM_ATTACKS.to_string(), rules::TEST),
                "defence-reserve" => (
                    "your defences spend no CC: every one is kept back".to_string(),
                    rules::DEFENCE_TEST,
                ),
                _ => return None,
            };
            (value.parse().ok()?, "standing", what, rule)
        }
        _ => return None,
    };
    if n <= have {
        return None;
    }
    // The number's span: the word after `cc` (or `keep`), else the line.
    let at = line
        .tokens
        .iter()
        .position(|t| t.is(word))
        .map_or(line.span.clone(), |i| {
            let last = if word == "standing" {
                line.tokens.last()
            } else {
                line.tokens.get(i + 1)
            };
            last.map_or(line.span.clone(), |t| t.span.clone())
        });
    Some(
        Diagnostic::warning(
            format!("{n} CCs are more than you have: {have} command chits a turn (pbem ngg/chits)"),
            at,
        )
        .label(format!("you have {have}"))
        .hint(format!(
            "the line stands: {what}; write {have} or fewer to say what you mean"
        ))
        .rule(rule),
    )
}
