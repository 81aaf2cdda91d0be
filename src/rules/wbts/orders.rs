//! The order verbs of War Between the States, their parsing and their legality. A pbem turn is one
//! player turn of the active side: its roster changes, its movement (with attacks from march and
//! naval movement), its garrisons, then its attacks. The other side sends standing orders only: every
//! choice of a defender is one (decisions.rs).
//!
//! ```text
//! roster <unit> <leader>                       the unit leaves its roster for the leader's
//! move <piece> <hex> [<hex> ...]               a leader, a unit, hex by hex
//!      [with <unit> ...]                       a leader and the units stacked with him
//! march <leader> <hex> ... with <unit> ...     attack from march into the last hex
//!      [chit 0|1] [shift best|none|<n>]
//! garrison <unit> in|out                       into or out of the fort of its hex
//! attack <hex> by <leader> chit <0-4>          a combat against one hex, then, optionally:
//!      [with <unit> ...]                       the attackers (default: the leader's command
//!                                              in his hex)
//!      [shift best|none|<n>]                   how he shifts the die when he is the better
//!      [no-advance]                            stay put if the defender leaves
//! sail <ship> <hex> [<hex> ...] [stop]         naval movement; `stop`: stop before an enemy
//!                                              fortified hexside instead of running past it;
//!                                              enemy combat ships stop it, enemy transports
//!                                              alone do not
//! bombard <hex> with <ship> ...                gunboats attack an enemy fort's garrison, in
//!                                              movement
//! engage <hex>                                 naval combat: your gunboats there attack every
//!                                              enemy ship there
//! standing <key> [<hex>|<leader>] <setting>    a standing order (decisions.rs lists the keys)
//! ```
//!
//! Lines are checked against the position as the lines before them leave it (a move then an attack
//! from the hex it reaches). Every rejected line gets a diagnostic with a span, a hint and its rule;
//! the other lines stand. ORDERS.md documents this language for players.

#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::diag::{did_you_mean, Diagnostic};
use crate::game::state::State;
use crate::orders::{Line, Located, Token, ORDER_SYNTAX, OWN_UNITS};

use super::board::{Board, Crossing};
use super::combat::{ShiftPolicy, MARCH_CHIT, MAX_CHIT};
use super::decisions::{self, Names};
use super::rules;
use super::state::WbtsState;
use super::tables::Tables;

/// The order words of WBTS.
pub const VERBS: [&str; 9] = [
    "roster", "move", "march", "garrison", "attack", "sail", "bombard", "engage", "standing",
];

/// One attack as ordered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attack {
    pub target: String,
    pub leader: String,
    /// The attackers named; empty: the leader's command in his hex at the combat.
    pub units: Vec<String>,
    pub chit: u32,
    pub shift: Option<ShiftPolicy>,
    pub advance: bool,
}

/// One WBTS order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WbtsOrder {
    Roster {
        unit: String,
        leader: String,
    },
    Move {
        piece: String,
        path: Vec<String>,
        with: Vec<String>,
    },
    March {
        leader: String,
        path: Vec<String>,
        with: Vec<String>,
        chit: u32,
        shift: Option<ShiftPolicy>,
    },
    Garrison {
        unit: String,
        inside: bool,
    },
    Attack(Attack),
    Sail {
        ship: String,
        path: Vec<String>,
        stop: bool,
    },
    Bombard {
        target: String,
        ships: Vec<String>,
    },
    Engage {
        hex: String,
    },
    Standing {
        key: String,
        value: String,
    },
}

impl fmt::Display for WbtsOrder {
    /// The canonical text: parsing it gives the same order back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WbtsOrder::Roster { unit, leader } => write!(f, "roster {unit} {leader}"),
            WbtsOrder::Move { piece, path, with } => {
                write!(f, "move {piece} {}", path.join(" "))?;
                if !with.is_empty() {
                    write!(f, " with {}", with.join(" "))?;
                }
                Ok(())
            }
            WbtsOrder::March {
                leader,
                path,
                with,
                chit,
                shift,
            } => {
                write!(
                    f,
                    "march {leader} {} with {} chit {chit}",
                    path.join(" "),
                    with.join(" ")
                )?;
                if let Some(s) = shift {
                    write!(f, " shift {s}")?;
                }
                Ok(())
            }
            WbtsOrder::Garrison { unit, inside } => {
                write!(f, "garrison {unit} {}", if *inside { "in" } else { "out" })
            }
            WbtsOrder::Attack(a) => {
                write!(f, "attack {} by {} chit {}", a.target, a.leader, a.chit)?;
                if !a.units.is_empty() {
                    write!(f, " with {}", a.units.join(" "))?;
                }
                if let Some(s) = a.shift {
                    write!(f, " shift {s}")?;
                }
                if !a.advance {
                    f.write_str(" no-advance")?;
                }
                Ok(())
            }
            WbtsOrder::Sail { ship, path, stop } => {
                write!(f, "sail {ship} {}", path.join(" "))?;
                if *stop {
                    f.write_str(" stop")?;
                }
                Ok(())
            }
            WbtsOrder::Bombard { target, ships } => {
                write!(f, "bombard {target} with {}", ships.join(" "))
            }
            WbtsOrder::Engage { hex } => write!(f, "engage {hex}"),
            WbtsOrder::Standing { key, value } => {
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
    pub board: Board<'a>,
    pub state: &'a State,
    pub wbts: &'a WbtsState,
    pub tables: &'a Tables,
    pub power: &'a str,
    /// The name of the side whose player turn it is, as the scenario gives it (`wbts::name_of`),
    /// for the words of a line refused between the player's turns.
    pub active_name: &'a str,
}

impl Names for Context<'_> {
    fn hex(&self, text: &str) -> Option<String> {
        self.board.hex(text)
    }

    fn own_leader(&self, text: &str) -> Option<String> {
        self.wbts
            .leader(text)
            .filter(|l| l.power() == self.power)
            .map(|l| l.id().to_string())
    }
}

fn syntax(message: impl Into<String>, span: std::ops::Range<usize>, hint: &str) -> Diagnostic {
    Diagnostic::error(message, span)
        .hint(hint.to_string())
        .rule(ORDER_SYNTAX)
}

/// An order's form as the order guide writes it (`attack <hex> by <leader> chit <0-4>`), as a
/// hint in the player's own words (`orders::form`): his hex, his leader, his unit, his ship. A hint
/// never names a piece of another game (the examples it gave before named `CS-Yorktown` and
/// `US-2-1`, which the Peninsula has not).
fn in_his_words(form: &str, args: &[Token], cx: &Context<'_>) -> String {
    crate::orders::form::in_his_words(form, args, |placeholder, t| match placeholder {
        "<hex>" => cx.board.hex(&t.text).map(|_| t.text.clone()),
        "<leader>" => cx.own(t, &[Kind::Leader]).ok().map(|p| p.0),
        "<unit>" => cx.own(t, &[Kind::Unit]).ok().map(|p| p.0),
        "<ship>" => cx.own(t, &[Kind::Ship]).ok().map(|p| p.0),
        "<piece>" => cx.own(t, &[Kind::Leader, Kind::Unit]).ok().map(|p| p.0),
        _ => None,
    })
}

/// What kind of piece an id names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Leader,
    Unit,
    Ship,
}

impl Context<'_> {
    fn hex_of(&self, t: &Token) -> Result<String, Diagnostic> {
        self.board.hex(&t.text).ok_or_else(|| {
            Diagnostic::error(
                format!("'{}' is not a hex of the map", t.text),
                t.span.clone(),
            )
            .label("not on the map")
            .hint("write a hex id as your report writes it: column then row, as 0506")
            .rule(ORDER_SYNTAX)
        })
    }

    /// The power's own piece named by `t`, of one of `kinds`. Another power's piece and no piece at
    /// all get the same words (fog of war: a power learns nothing of pieces it does not own).
    fn own(&self, t: &Token, kinds: &[Kind]) -> Result<(String, Kind), Diagnostic> {
        let w = self.wbts;
        let found = w
            .leader(&t.text)
            .filter(|l| l.power() == self.power)
            .map(|l| (l.id().to_string(), Kind::Leader))
            .or_else(|| {
                w.unit(&t.text)
                    .filter(|u| u.power() == self.power)
                    .map(|u| (u.id().to_string(), Kind::Unit))
            })
            .or_else(|| {
                w.ship(&t.text)
                    .filter(|s| s.power() == self.power)
                    .map(|s| (s.id().to_string(), Kind::Ship))
            });
        let words = |k: &Kind| match k {
            Kind::Leader => "leader",
            Kind::Unit => "unit",
            Kind::Ship => "ship",
        };
        let wanted = kinds.iter().map(words).collect::<Vec<_>>().join(" or ");
        match found {
            Some((id, k)) if kinds.contains(&k) => Ok((id, k)),
            Some((id, k)) => Err(Diagnostic::error(
                format!("{id} is a {}, not a {wanted}", words(&k)),
                t.span.clone(),
            )
            .hint(format!("name a {wanted} of yours here"))
            .rule(ORDER_SYNTAX)),
            None => {
                let own: Vec<&str> = w
                    .piece_ids()
                    .filter(|id| {
                        w.leader(id).is_some_and(|l| l.power() == self.power)
                            || w.unit(id).is_some_and(|u| u.power() == self.power)
                            || w.ship(id).is_some_and(|s| s.power() == self.power)
                    })
                    .collect();
                Err(Diagnostic::error(
                    format!("no {wanted} of yours is called '{}'", t.text),
                    t.span.clone(),
                )
                .label("not one of your pieces")
                .hint(
                    did_you_mean(&t.text, own.iter().copied())
                        .map(|u| format!("did you mean '{u}'?"))
                        .unwrap_or_else(|| format!("your pieces are: {}", own.join(", "))),
                )
                .rule(OWN_UNITS))
            }
        }
    }
}

fn shift_of(t: Option<&Token>, at: &Token) -> Result<ShiftPolicy, Diagnostic> {
    let Some(t) = t else {
        return Err(syntax(
            "'shift' needs best, none or a number of rows",
            at.span.clone(),
            "write 'shift best', 'shift none' or 'shift 2'",
        ));
    };
    ShiftPolicy::parse(&t.text.to_ascii_lowercase()).ok_or_else(|| {
        Diagnostic::error(format!("'{}' is not a shift", t.text), t.span.clone())
            .hint("write 'shift best', 'shift none' or a number of rows from 1 to 4")
            .rule(rules::SHIFT)
    })
}

fn chit_of(t: Option<&Token>, at: &Token, max: u32) -> Result<u32, Diagnostic> {
    let Some(t) = t else {
        return Err(syntax(
            "'chit' needs a number",
            at.span.clone(),
            "write 'chit 2'",
        ));
    };
    match t.text.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(Diagnostic::error(
            format!("chit '{}' is not a number from 0 to {max}", t.text),
            t.span.clone(),
        )
        .hint(if max == MARCH_CHIT {
            "an attack from march plays chit 0 or 1"
        } else {
            "a battle intensity chit is 0 to 4, at most the leader's initiative"
        })
        .rule(if max == MARCH_CHIT {
            rules::MARCH
        } else {
            rules::INTENSITY
        })),
    }
}

/// Parses one order line for the context's power; legality against the position comes after.
pub fn parse_line(line: &Line, cx: &Context<'_>) -> Result<WbtsOrder, Diagnostic> {
    let Some((verb, args)) = line.tokens.split_first() else {
        return Err(syntax(
            "empty order line",
            line.span.clone(),
            "write one order per line",
        ));
    };
    match verb.text.to_ascii_lowercase().as_str() {
        "roster" => match args {
            [u, l] => Ok(WbtsOrder::Roster {
                unit: cx.own(u, &[Kind::Unit])?.0,
                leader: cx.own(l, &[Kind::Leader])?.0,
            }),
            _ => Err(syntax(
                format!(
                    "'roster' takes a unit and a leader, found {} words",
                    args.len()
                ),
                line.span.clone(),
                &in_his_words("roster <unit> <leader>", args, cx),
            )),
        },
        "garrison" => match args {
            [u, w] if w.is("in") || w.is("out") => Ok(WbtsOrder::Garrison {
                unit: cx.own(u, &[Kind::Unit])?.0,
                inside: w.is("in"),
            }),
            _ => Err(syntax(
                "'garrison' takes a unit and 'in' or 'out'",
                line.span.clone(),
                &format!(
                    "{} (or 'out')",
                    in_his_words("garrison <unit> in", args, cx)
                ),
            )),
        },
        "move" | "march" => {
            let march = verb.is("march");
            let example = if march {
                in_his_words(
                    "march <leader> <hex> ... with <unit> ... chit 0|1",
                    args,
                    cx,
                )
            } else {
                in_his_words("move <piece> <hex> ... [with <unit> ...]", args, cx)
            };
            let example = example.as_str();
            let Some((piece, rest)) = args.split_first() else {
                return Err(syntax(
                    "'move' needs a piece and its hexes",
                    line.span.clone(),
                    example,
                ));
            };
            let kinds: &[Kind] = if march {
                &[Kind::Leader]
            } else {
                &[Kind::Leader, Kind::Unit]
            };
            let (piece, kind) = cx.own(piece, kinds)?;
            let mut path = Vec::new();
            let mut with = Vec::new();
            let mut chit = 0;
            let mut shift = None;
            let mut i = 0;
            while let Some(t) = rest.get(i) {
                if t.is("with") && kind == Kind::Leader {
                    i += 1;
                    while let Some(u) = rest.get(i).filter(|u| !u.is("chit") && !u.is("shift")) {
                        with.push(cx.own(u, &[Kind::Unit])?.0);
                        i += 1;
                    }
                } else if march && t.is("chit") {
                    chit = chit_of(rest.get(i + 1), t, MARCH_CHIT)?;
                    i += 2;
                } else if march && t.is("shift") {
                    shift = Some(shift_of(rest.get(i + 1), t)?);
                    i += 2;
                } else if with.is_empty() && chit == 0 && shift.is_none() {
                    path.push(cx.hex_of(t)?);
                    i += 1;
                } else {
                    return Err(syntax(
                        format!("unexpected '{}'", t.text),
                        t.span.clone(),
                        example,
                    ));
                }
            }
            if path.is_empty() {
                return Err(syntax(
                    "the order names no hex to move to",
                    line.span.clone(),
                    example,
                ));
            }
            if march {
                if with.is_empty() {
                    return Err(syntax(
                        "'march' needs 'with' and the units the leader takes",
                        line.span.clone(),
                        example,
                    ));
                }
                Ok(WbtsOrder::March {
                    leader: piece,
                    path,
                    with,
                    chit,
                    shift,
                })
            } else {
                Ok(WbtsOrder::Move { piece, path, with })
            }
        }
        "attack" => parse_attack(line, args, cx),
        "sail" => {
            let Some((ship, rest)) = args.split_first() else {
                return Err(syntax(
                    "'sail' needs a ship and its hexes",
                    line.span.clone(),
                    &in_his_words("sail <ship> <hex> ... [stop]", args, cx),
                ));
            };
            let ship = cx.own(ship, &[Kind::Ship])?.0;
            let mut path = Vec::new();
            let mut stop = false;
            for t in rest {
                if t.is("stop") && !stop {
                    stop = true;
                } else if !stop {
                    path.push(cx.hex_of(t)?);
                } else {
                    return Err(syntax(
                        format!("unexpected '{}'", t.text),
                        t.span.clone(),
                        "'stop' comes last",
                    ));
                }
            }
            if path.is_empty() {
                return Err(syntax(
                    "the order names no hex to sail to",
                    line.span.clone(),
                    &in_his_words("sail <ship> <hex> ... [stop]", args, cx),
                ));
            }
            Ok(WbtsOrder::Sail { ship, path, stop })
        }
        "bombard" => {
            let example = in_his_words("bombard <hex> with <ship> ...", args, cx);
            let example = example.as_str();
            let (Some(target), Some(with)) = (args.first(), args.get(1)) else {
                return Err(syntax(
                    "'bombard' needs a hex, 'with' and ships",
                    line.span.clone(),
                    example,
                ));
            };
            if !with.is("with") || args.len() < 3 {
                return Err(syntax(
                    "expected 'with' and the ships after the hex",
                    with.span.clone(),
                    example,
                ));
            }
            let target = cx.hex_of(target)?;
            let ships = args[2..]
                .iter()
                .map(|t| cx.own(t, &[Kind::Ship]).map(|s| s.0))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(WbtsOrder::Bombard { target, ships })
        }
        "engage" => match args {
            [h] => Ok(WbtsOrder::Engage { hex: cx.hex_of(h)? }),
            _ => Err(syntax(
                "'engage' takes one hex",
                line.span.clone(),
                &in_his_words("engage <hex>", args, cx),
            )),
        },
        "standing" => {
            let (key, value) = decisions::parse_standing(line, args, cx)?;
            Ok(WbtsOrder::Standing { key, value })
        }
        _ => Err(crate::orders::unknown_verb(verb, &VERBS)),
    }
}

fn parse_attack(line: &Line, args: &[Token], cx: &Context<'_>) -> Result<WbtsOrder, Diagnostic> {
    let example = in_his_words(
        "attack <hex> by <leader> chit <0-4> [with <unit> ...] [shift best|none|<n>] [no-advance]",
        args,
        cx,
    );
    let example = example.as_str();
    let (Some(target), Some(by), Some(leader)) = (args.first(), args.get(1), args.get(2)) else {
        return Err(syntax(
            "'attack' needs a hex, 'by' and the leader",
            line.span.clone(),
            example,
        ));
    };
    if !by.is("by") {
        return Err(syntax(
            "expected 'by' after the attacked hex",
            by.span.clone(),
            example,
        ));
    }
    let target = cx.hex_of(target)?;
    let leader = cx.own(leader, &[Kind::Leader])?.0;
    let mut units = Vec::new();
    let mut chit = None;
    let mut shift = None;
    let mut advance = true;
    let mut i = 3;
    while let Some(t) = args.get(i) {
        if t.is("chit") && chit.is_none() {
            chit = Some(chit_of(args.get(i + 1), t, MAX_CHIT)?);
            i += 2;
        } else if t.is("shift") && shift.is_none() {
            shift = Some(shift_of(args.get(i + 1), t)?);
            i += 2;
        } else if t.is("no-advance") {
            advance = false;
            i += 1;
        } else if t.is("with") && units.is_empty() {
            i += 1;
            while let Some(u) = args
                .get(i)
                .filter(|u| !u.is("chit") && !u.is("shift") && !u.is("no-advance"))
            {
                units.push(cx.own(u, &[Kind::Unit])?.0);
                i += 1;
            }
        } else {
            return Err(syntax(
                format!("unexpected '{}'", t.text),
                t.span.clone(),
                example,
            ));
        }
    }
    let Some(chit) = chit else {
        return Err(
            Diagnostic::error("the attack names no intensity chit", line.span.clone())
                .hint("add 'chit <0-4>': at most the leader's initiative")
                .rule(rules::INTENSITY),
        );
    };
    Ok(WbtsOrder::Attack(Attack {
        target,
        leader,
        units,
        chit,
        shift,
        advance,
    }))
}

/// Parses every order line, then checks each against the position the lines before it leave:
/// the orders that stand, and a diagnostic for each line that does not.
pub fn parse_all(lines: &[Line], cx: &Context<'_>) -> (Vec<Located<WbtsOrder>>, Vec<Diagnostic>) {
    let mut ok = Vec::new();
    let mut diags = Vec::new();
    let mut check = Legality::new(cx);
    for line in lines {
        if let Some(d) = line.skipped_diagnostic() {
            diags.push(d);
            continue;
        }
        let saved = check.clone();
        match parse_line(line, cx).and_then(|o| check.accept(&o, line).map(|()| o)) {
            Ok(o) => ok.push(Located::new(o, line.span.clone())),
            Err(d) => {
                check = saved;
                diags.push(d);
            }
        }
    }
    (ok, diags)
}

/// The position as the accepted lines leave it, to check the next line against.
#[derive(Clone)]
struct Legality<'a> {
    cx: &'a Context<'a>,
    /// Where each piece (lower-case id) stands after the lines accepted so far.
    at: BTreeMap<String, String>,
    /// Rosters after the roster lines accepted so far.
    roster: BTreeMap<String, Option<String>>,
    /// (unit, leader), lower-case: the rosters each unit left this game turn, in the state's
    /// `detached` and by the roster lines accepted so far (WBTS ground/roster: no return to them).
    left: BTreeSet<(String, String)>,
    inside: BTreeMap<String, bool>,
    moved: BTreeSet<String>,
    attacked: BTreeSet<String>,
    /// Whether an attack line was accepted (rosters change only before the initiative rolls).
    attacks_begun: bool,
}

impl<'a> Legality<'a> {
    fn new(cx: &'a Context<'a>) -> Self {
        let w = cx.wbts;
        Legality {
            cx,
            at: w
                .leaders
                .iter()
                .map(|l| (l.id().to_lowercase(), l.hex().to_string()))
                .chain(
                    w.units
                        .iter()
                        .map(|u| (u.id().to_lowercase(), u.hex().to_string())),
                )
                .chain(
                    w.ships
                        .iter()
                        .map(|s| (s.id().to_lowercase(), s.hex().to_string())),
                )
                .collect(),
            roster: w
                .units
                .iter()
                .map(|u| (u.id().to_lowercase(), u.leader.clone()))
                .collect(),
            left: w
                .detached
                .iter()
                .map(|(u, l)| (u.to_lowercase(), l.to_lowercase()))
                .collect(),
            inside: w
                .units
                .iter()
                .map(|u| (u.id().to_lowercase(), u.inside))
                .collect(),
            moved: BTreeSet::new(),
            attacked: BTreeSet::new(),
            attacks_begun: false,
        }
    }

    fn hex(&self, id: &str) -> String {
        self.at.get(&id.to_lowercase()).cloned().unwrap_or_default()
    }

    /// Whether `hex` holds enemy ground units outside a fort, and whether it holds any inside.
    fn enemies(&self, hex: &str) -> (bool, bool) {
        let cx = self.cx;
        let mut outside = false;
        let mut inside = false;
        for u in &cx.wbts.units {
            if cx.state.friendly(u.power(), cx.power) || self.hex(u.id()) != hex {
                continue;
            }
            if u.inside {
                inside = true;
            } else {
                outside = true;
            }
        }
        (outside, inside)
    }

    fn accept(&mut self, order: &WbtsOrder, line: &Line) -> Result<(), Diagnostic> {
        let cx = self.cx;
        let span = line.span.clone();
        if !matches!(order, WbtsOrder::Standing { .. }) && cx.wbts.active() != cx.power {
            return Err(Diagnostic::error(
                format!(
                    "it is {} player turn, not yours",
                    crate::words::Possessive(cx.active_name)
                ),
                span,
            )
            .label("not your turn")
            .hint("between your turns, send only standing orders")
            .rule(rules::ONE_TURN));
        }
        match order {
            WbtsOrder::Standing { .. } => Ok(()),
            WbtsOrder::Roster { unit, leader } => {
                if self.attacks_begun {
                    return Err(
                        Diagnostic::error("a roster changes before the attacks", span)
                            .hint("put the roster lines before the attack lines")
                            .rule(rules::ROSTER),
                    );
                }
                let key = unit.to_lowercase();
                if self.left.contains(&(key.clone(), leader.to_lowercase())) {
                    return Err(Diagnostic::error(
                        format!("{unit} left {} roster this game turn", crate::words::Possessive(leader)),
                        span,
                    )
                    .hint("it rejoins that roster from the next strategic segment (the next game turn)")
                    .rule(rules::ROSTER));
                }
                if let Some(Some(from)) = self.roster.get(&key) {
                    if !from.eq_ignore_ascii_case(leader) {
                        self.left.insert((key, from.to_lowercase()));
                    }
                }
                self.roster
                    .insert(unit.to_lowercase(), Some(leader.clone()));
                Ok(())
            }
            WbtsOrder::Garrison { unit, inside } => {
                let hex = self.hex(unit);
                let Some(fort) = cx.wbts.fort.get(&hex) else {
                    return Err(Diagnostic::error(format!("{hex} has no fort"), span)
                        .hint("garrison units in a hex with a fort of your side")
                        .rule(rules::INSIDE));
                };
                if !cx.state.friendly(&fort.power, cx.power) {
                    return Err(Diagnostic::error(
                        format!("the fort in {hex} is the enemy's"),
                        span,
                    )
                    .hint("take it first")
                    .rule(rules::INSIDE));
                }
                if cx.wbts.unit(unit).is_some_and(|u| u.inside) && !inside && self.enemies(&hex).0 {
                    return Err(
                        Diagnostic::error(format!("{unit} is besieged in {hex}"), span)
                            .hint("a besieged garrison leaves its fort only by attacking")
                            .rule(rules::SIEGE),
                    );
                }
                self.inside.insert(unit.to_lowercase(), *inside);
                Ok(())
            }
            WbtsOrder::Move { piece, path, with } => {
                self.check_move(piece, path, with, false, &span)
            }
            WbtsOrder::March {
                leader, path, with, ..
            } => {
                self.check_move(leader, path, with, true, &span)?;
                let l = cx
                    .wbts
                    .leader(leader)
                    .ok_or_else(|| Diagnostic::error("no such leader", span.clone()))?;
                for u in with {
                    if self
                        .roster
                        .get(&u.to_lowercase())
                        .cloned()
                        .flatten()
                        .is_none_or(|r| {
                            !cx.wbts.leader(&r).is_some_and(|rl| {
                                rl.id().eq_ignore_ascii_case(l.id())
                                    || (l.rank == super::state::Rank::Army
                                        && rl
                                            .army
                                            .as_deref()
                                            .is_some_and(|a| a.eq_ignore_ascii_case(l.id())))
                            })
                        })
                    {
                        return Err(Diagnostic::error(format!("{u} is not under {} command", crate::words::Possessive(leader)), span)
                            .hint("an attack from march is made by units under the command of the leader stacked with them")
                            .rule(rules::MARCH));
                    }
                }
                Ok(())
            }
            WbtsOrder::Attack(a) => {
                self.attacks_begun = true;
                let Some(l) = cx.wbts.leader(&a.leader) else {
                    return Err(Diagnostic::error("no such leader", span));
                };
                if a.chit > l.initiative {
                    return Err(Diagnostic::error(
                        format!(
                            "{} has initiative {}: chit {} is beyond it",
                            l.id(),
                            l.initiative,
                            a.chit
                        ),
                        span,
                    )
                    .hint(format!("play a chit from 0 to {}", l.initiative))
                    .rule(rules::INTENSITY));
                }
                if !self.attacked.insert(a.leader.to_lowercase()) {
                    return Err(Diagnostic::error(
                        format!("{} already leads an attack this turn", a.leader),
                        span,
                    )
                    .hint("a leader makes one combat initiative roll, for one attack, a turn (pbem's reading)")
                    .rule(rules::ONE_ATTACK));
                }
                let units: Vec<String> = if a.units.is_empty() {
                    let lhex = self.hex(&a.leader);
                    cx.wbts
                        .units
                        .iter()
                        .filter(|u| {
                            u.power() == cx.power
                                && self.hex(u.id()) == lhex
                                && !u.is_train()
                                && self.commands(l, u.id())
                        })
                        .map(|u| u.id().to_string())
                        .collect()
                } else {
                    a.units.clone()
                };
                if units.is_empty() {
                    return Err(Diagnostic::error(format!("{} commands no unit in his hex", a.leader), span)
                        .hint("name the attackers with 'with', units on his roster (or his corps leaders')")
                        .rule(rules::COMMAND));
                }
                let mut hexes = BTreeSet::new();
                for u in &units {
                    if !self.commands(l, u) {
                        return Err(Diagnostic::error(format!("{u} is not under {} command", crate::words::Possessive(&a.leader)), span)
                            .hint("a corps leader commands his roster; an army leader his corps leaders' too (use 'roster' to move a unit)")
                            .rule(rules::COMMAND));
                    }
                    if !self.attacked.insert(u.to_lowercase()) {
                        return Err(Diagnostic::error(
                            format!("{u} already attacks this turn"),
                            span,
                        )
                        .hint("a unit takes part in one attack a turn (pbem's reading)")
                        .rule(rules::ONE_ATTACK));
                    }
                    hexes.insert(self.hex(u));
                }
                let (outside, inside) = self.enemies(&a.target);
                let storm = hexes.len() == 1 && hexes.contains(&a.target);
                let from_inside = units
                    .iter()
                    .all(|u| self.inside.get(&u.to_lowercase()).copied().unwrap_or(false));
                if storm && from_inside {
                    // WBTS fort/siege: a besieged garrison attacks its besiegers in its own hex.
                    if !outside {
                        return Err(Diagnostic::error(format!("no enemy besieges {}", a.target), span)
                            .hint("a garrison attacks out of its fort only against besiegers in its hex, or marches out")
                            .rule(rules::SIEGE));
                    }
                    return Ok(());
                }
                if storm {
                    if !inside {
                        return Err(Diagnostic::error(format!("no enemy garrison inside a fort in {}", a.target), span)
                            .hint("attack a hex next to your units; from a fort's own hex only its garrison is stormed")
                            .rule(rules::STORM));
                    }
                    return Ok(());
                }
                if hexes.len() > 2 {
                    return Err(Diagnostic::error(
                        format!("the attackers stand in {} hexes", hexes.len()),
                        span,
                    )
                    .hint("attack from one hex or two adjacent hexes")
                    .rule(rules::TWO_HEXES));
                }
                let hv: Vec<&String> = hexes.iter().collect();
                if hv.len() == 2 && !cx.board.adjacent(hv[0], hv[1]) {
                    return Err(Diagnostic::error(
                        format!("{} and {} are not adjacent", hv[0], hv[1]),
                        span,
                    )
                    .hint("a two-hex attack comes from two hexes next to each other")
                    .rule(rules::TWO_HEXES));
                }
                for h in &hexes {
                    if !cx.board.adjacent(h, &a.target) {
                        return Err(Diagnostic::error(format!("{h} is not next to {}", a.target), span)
                            .hint("attack a hex adjacent to the attackers' (or, to storm a fort, stand in its hex)")
                            .rule(rules::TWO_HEXES));
                    }
                    if cx.board.crossing(h, &a.target) == Crossing::Closed {
                        return Err(Diagnostic::error(
                            format!(
                                "from {h} to {} is a tidal river or estuary without ferry",
                                a.target
                            ),
                            span,
                        )
                        .hint("attack across a tidal river or an estuary only at a ferry")
                        .rule(rules::FERRY));
                    }
                }
                if inside && !outside {
                    return Err(Diagnostic::error(format!("the enemy in {} is inside its fort", a.target), span)
                        .hint("a fort is attacked only from its own hex: move in to besiege it, then storm")
                        .rule(rules::STORM));
                }
                if !outside && !inside {
                    return Err(Diagnostic::error(
                        format!("{} holds no enemy unit", a.target),
                        span,
                    )
                    .hint("attack a hex with enemy ground units; move into an empty one")
                    .rule(rules::TWO_HEXES));
                }
                Ok(())
            }
            WbtsOrder::Bombard { target, ships } => {
                let fort = cx.wbts.fort.get(target);
                if fort.is_none_or(|f| cx.state.friendly(&f.power, cx.power)) {
                    return Err(
                        Diagnostic::error(format!("{target} has no enemy fort"), span)
                            .hint("ships attack the garrison of an enemy fort")
                            .rule(rules::NAVAL_FORT),
                    );
                }
                for id in ships {
                    let Some(at) = self.gunboat_at(id) else {
                        return Err(Diagnostic::error(format!("{id} is no gunboat"), span)
                            .hint("transports have no combat factor")
                            .rule(rules::TRANSPORTS));
                    };
                    if at != *target && !cx.board.adjacent(&at, target) {
                        return Err(Diagnostic::error(
                            format!("{id} in {at} is not next to {target}"),
                            span,
                        )
                        .hint("sail next to the fort first, on an earlier line")
                        .rule(rules::NAVAL_FORT));
                    }
                    if !self.attacked.insert(id.to_lowercase()) {
                        return Err(Diagnostic::error(
                            format!("{id} already attacks this turn"),
                            span,
                        )
                        .hint("a ship attacks once a turn")
                        .rule(rules::NAVAL_FORT));
                    }
                }
                Ok(())
            }
            WbtsOrder::Engage { hex } => {
                let mine = cx.wbts.ships.iter().any(|s| {
                    s.power() == cx.power
                        && self.gunboat_at(s.id()).as_deref() == Some(hex.as_str())
                });
                if !mine {
                    return Err(Diagnostic::error(format!("you have no gunboat in {hex}"), span)
                        .hint("all your combat ships in a hex attack all the enemy's there: sail one in first")
                        .rule(rules::NAVAL_COMBAT));
                }
                if !self.attacked.insert(format!("engage@{hex}")) {
                    return Err(Diagnostic::error(format!("{hex} is engaged already"), span)
                        .hint("one naval combat per hex a turn")
                        .rule(rules::NAVAL_COMBAT));
                }
                Ok(())
            }
            WbtsOrder::Sail { ship, path, .. } => {
                if !self.moved.insert(ship.to_lowercase()) {
                    return Err(
                        Diagnostic::error(format!("{ship} already moves this turn"), span)
                            .hint("a ship sails once a turn")
                            .rule(rules::MOVEMENT),
                    );
                }
                let s = cx
                    .wbts
                    .ship(ship)
                    .ok_or_else(|| Diagnostic::error("no such ship", span.clone()))?;
                let mut at = self.hex(ship);
                for h in path {
                    if !cx.board.adjacent(&at, h) {
                        return Err(Diagnostic::error(format!("{h} is not next to {at}"), span)
                            .hint("name every hex the ship enters, in order")
                            .rule(rules::MOVEMENT));
                    }
                    if !matches!(cx.board.terrain(h), "water" | "city") {
                        return Err(Diagnostic::error(format!("{h} is not water"), span)
                            .hint("ships sail through water hexes and into cities (ports)")
                            .rule(rules::MOVEMENT));
                    }
                    at = h.clone();
                }
                if path.len() as u32 > s.movement {
                    return Err(Diagnostic::error(
                        format!(
                            "{ship} sails {} hexes a turn, not {}",
                            s.movement,
                            path.len()
                        ),
                        span,
                    )
                    .hint("shorten the path")
                    .rule(rules::MOVEMENT));
                }
                self.at.insert(ship.to_lowercase(), at);
                Ok(())
            }
        }
    }

    /// The hex a ship stands in after the lines accepted so far.
    fn gunboat_at(&self, id: &str) -> Option<String> {
        self.cx
            .wbts
            .ship(id)
            .filter(|s| s.kind == super::state::ShipKind::Gunboat && s.strength > 0)
            .map(|s| self.hex(s.id()))
    }

    fn commands(&self, l: &super::state::Leader, unit: &str) -> bool {
        let Some(Some(r)) = self.roster.get(&unit.to_lowercase()) else {
            return false;
        };
        if r.eq_ignore_ascii_case(l.id()) {
            return true;
        }
        l.rank == super::state::Rank::Army
            && self.cx.wbts.leader(r).is_some_and(|c| {
                c.army
                    .as_deref()
                    .is_some_and(|a| a.eq_ignore_ascii_case(l.id()))
            })
    }

    fn check_move(
        &mut self,
        piece: &str,
        path: &[String],
        with: &[String],
        march: bool,
        span: &std::ops::Range<usize>,
    ) -> Result<(), Diagnostic> {
        let cx = self.cx;
        let start = self.hex(piece);
        let mut movement = cx
            .wbts
            .leader(piece)
            .map(|l| l.movement)
            .or_else(|| cx.wbts.unit(piece).map(|u| u.movement))
            .unwrap_or(0);
        for id in std::iter::once(piece).chain(with.iter().map(String::as_str)) {
            if !self.moved.insert(id.to_lowercase()) {
                return Err(Diagnostic::error(
                    format!("{id} already moves this turn"),
                    span.clone(),
                )
                .hint("a piece moves once a turn")
                .rule(rules::MOVEMENT));
            }
            if self.hex(id) != start {
                return Err(Diagnostic::error(
                    format!("{id} is in {}, not with {piece} in {start}", self.hex(id)),
                    span.clone(),
                )
                .hint("a leader takes along the units stacked with him")
                .rule(rules::MOVEMENT));
            }
            if self
                .inside
                .get(&id.to_lowercase())
                .copied()
                .unwrap_or(false)
                && self.enemies(&start).0
                && !march
            {
                return Err(Diagnostic::error(
                    format!("{id} is besieged in {start}"),
                    span.clone(),
                )
                .hint("a besieged garrison leaves its fort only by attacking: 'march' out of it, or 'attack' the besiegers")
                .rule(rules::SIEGE));
            }
            if let Some(u) = cx.wbts.unit(id) {
                movement = movement.min(u.movement);
            }
        }
        let mut at = start.clone();
        let mut cost = 0u32;
        for (k, h) in path.iter().enumerate() {
            let last = k + 1 == path.len();
            if !cx.board.adjacent(&at, h) {
                return Err(
                    Diagnostic::error(format!("{h} is not next to {at}"), span.clone())
                        .hint("name every hex the piece enters, in order")
                        .rule(rules::MOVEMENT),
                );
            }
            if cx.board.terrain(h) == "water" {
                return Err(Diagnostic::error(format!("{h} is water"), span.clone())
                    .hint("ground units move over land")
                    .rule(rules::MOVEMENT));
            }
            let crossing = cx.board.crossing(&at, h);
            if crossing == Crossing::Closed {
                return Err(Diagnostic::error(
                    format!("from {at} to {h} is a tidal river or estuary without ferry"),
                    span.clone(),
                )
                .hint("cross tidal rivers and estuaries at a ferry")
                .rule(rules::FERRY));
            }
            cost = cost.saturating_add(cx.tables.move_cost(cx.board.terrain(h)));
            if crossing != Crossing::Open
                && !cx.board.has(&at, h, "bridge")
                && !cx.board.has(&at, h, "road")
            {
                cost = cost.saturating_add(cx.tables.river_cost);
            }
            let (outside, inside) = self.enemies(h);
            if outside {
                if march && last {
                    at = h.clone();
                    break;
                }
                return Err(
                    Diagnostic::error(format!("{h} holds enemy units"), span.clone())
                        .hint(if march {
                            "an attack from march ends in the hex it attacks"
                        } else {
                            "attack them, or march into them with a leader ('march')"
                        })
                        .rule(rules::NO_ENEMY),
                );
            }
            if march && last {
                return Err(Diagnostic::error(
                    format!("{h} holds no enemy unit outside a fort"),
                    span.clone(),
                )
                .hint(if inside {
                    "a fort and its garrison are never attacked from march"
                } else {
                    "an attack from march ends in a hex with enemy units; move there instead"
                })
                .rule(if inside {
                    rules::MARCH
                } else {
                    rules::NO_ENEMY
                }));
            }
            if inside && !last {
                return Err(Diagnostic::error(
                    format!("{h} holds an enemy fort's garrison"),
                    span.clone(),
                )
                .hint("stop there to besiege it")
                .rule(rules::SIEGE));
            }
            // WBTS fort/siege: friendly units from outside do not enter a hex under siege.
            let besieged_friends = cx
                .wbts
                .units
                .iter()
                .any(|u| u.power() == cx.power && u.inside && self.hex(u.id()) == *h)
                && cx
                    .wbts
                    .units
                    .iter()
                    .any(|u| !cx.state.friendly(u.power(), cx.power) && self.hex(u.id()) == *h);
            if besieged_friends {
                return Err(
                    Diagnostic::error(format!("{h} is under siege"), span.clone())
                        .hint("a besieged garrison cannot be reinforced")
                        .rule(rules::SIEGE),
                );
            }
            at = h.clone();
        }
        if cost > movement {
            return Err(Diagnostic::error(
                format!("{piece} has {movement} movement points, the path costs {cost}"),
                span.clone(),
            )
            .hint("each hex costs its terrain's points (tables.toml), a river without bridge more")
            .rule(rules::MOVEMENT));
        }
        if !march {
            for id in std::iter::once(piece).chain(with.iter().map(String::as_str)) {
                self.at.insert(id.to_lowercase(), at.clone());
                self.inside.insert(id.to_lowercase(), false);
            }
        }
        Ok(())
    }
}
