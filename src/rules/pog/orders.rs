//! The order verbs of Paths of Glory, their parsing and their legality. PBEM play of PoG is an
//! exchange of actions: the active player's orders file is one action (an operations action with
//! spaces activated for movement or for attack); the other player sends standing orders only.
//!
//! ```text
//! move <unit> <space>[+] [<space>[+] ...]   move along a path; `+` spends 1 MP to take control
//!                                           of that space on the way (11.1.4)
//! entrench <unit>                           try to entrench instead of moving (11.2.1)
//! attack <space> with <unit> [<unit> ...]   a combat against one space (12.2.1), then, optionally:
//!        [flank <space>]                    a flank attack pinned from that space (12.3.2)
//!        [card <card>] ...                  combat cards (12.2.3, 12.2.5)
//!        [table army]                       the Army table from LF 4 (12.2.7)
//!        [no-advance]                       stay put if the defender leaves (12.2.12)
//!        [after]                            resolve it after the other attacks: to attack units
//!                                           that retreat into the space this action (12.1.2);
//!                                           a space empty at the start still comes first (12.2.1)
//! war <nation>                              the nation enters the war (11.1.11): the event is
//!                                           the whole action
//! standing <key> [<space>] <setting>        a standing order (decisions.rs lists the keys)
//! ```
//!
//! A space's units move (or entrench) or attack, never both: the first line that uses a space
//! activates it for movement or for attack (11.1.1, 12.1.1); a later line that would use it the other
//! way is rejected. Every rejected line gets a diagnostic with a span, a hint and its rule; the other
//! lines stand. ORDERS.md documents this language for players.

// A diagnostic is the error of each parse step, built at most once per line.
#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::diag::{did_you_mean, Diagnostic};
use crate::game::map::Map;
use crate::game::state::State;
use crate::orders::{Line, Located, Token};

use super::decisions;
use super::rules;
use super::state::{FortStatus, PogState, Unit};
use super::tables::{CardSide, Tables};

pub use crate::orders::{ORDER_SYNTAX, OWN_UNITS};

/// The order words of PoG.
pub const VERBS: [&str; 5] = ["move", "entrench", "attack", "war", "standing"];

/// One space of a move's path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub space: String,
    /// Spend one more MP to take control of the space on the way (11.1.4).
    pub control: bool,
}

/// One PoG order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PogOrder {
    Move {
        unit: String,
        path: Vec<Step>,
    },
    Entrench {
        unit: String,
    },
    Attack(Attack),
    /// A nation enters the war (11.1.11), by the event of the side tables.toml names.
    War {
        nation: String,
    },
    Standing {
        key: String,
        value: String,
    },
}

/// One attack as ordered (12.2.1 designates it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attack {
    pub target: String,
    pub units: Vec<String>,
    /// The pinning space of a flank attack (12.3.2).
    pub flank: Option<String>,
    pub cards: Vec<String>,
    /// Fire on the Army table from LF 4 (12.2.7).
    pub army_table: bool,
    pub advance: bool,
    /// Resolved after the other attacks (for 12.1.2); an attack on a space empty at the start of the
    /// combats is still resolved first (12.2.1).
    pub after: bool,
}

impl fmt::Display for PogOrder {
    /// The canonical text: parsing it gives the same order back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PogOrder::Move { unit, path } => {
                write!(f, "move {unit}")?;
                for s in path {
                    write!(f, " {}{}", s.space, if s.control { "+" } else { "" })?;
                }
                Ok(())
            }
            PogOrder::Entrench { unit } => write!(f, "entrench {unit}"),
            PogOrder::War { nation } => write!(f, "war {nation}"),
            PogOrder::Attack(Attack {
                target,
                units,
                flank,
                cards,
                army_table,
                advance,
                after,
            }) => {
                write!(f, "attack {target} with {}", units.join(" "))?;
                if let Some(p) = flank {
                    write!(f, " flank {p}")?;
                }
                for c in cards {
                    write!(f, " card {c}")?;
                }
                if *army_table {
                    f.write_str(" table army")?;
                }
                if !advance {
                    f.write_str(" no-advance")?;
                }
                if *after {
                    f.write_str(" after")?;
                }
                Ok(())
            }
            PogOrder::Standing { key, value } => {
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
    pub pog: &'a PogState,
    pub tables: &'a Tables,
    /// Each side's name as the scenario gives it (`pog::name_of`), for the words of a line refused
    /// because of another side ("it is Central Powers' action, not yours").
    pub name: &'a dyn Fn(&str) -> String,
}

impl Context<'_> {
    fn space(&self, t: &Token) -> Result<String, Diagnostic> {
        match self.map.find(&t.text) {
            Some(i) => Ok(self.map.area(i).id.clone()),
            None => Err(
                Diagnostic::error(format!("unknown space '{}'", t.text), t.span.clone())
                    .label("not on the map")
                    .hint(self.map.suggest(&t.text).unwrap_or_else(|| {
                        "write the space's name as your report spells it".into()
                    }))
                    .rule(ORDER_SYNTAX),
            ),
        }
    }

    /// The power's unit named by `t`. Another power's unit and no unit at all get the same words, and
    /// the hint names only the power's own units: a power learns nothing of units it cannot see
    /// (issue 15.6, fog of war).
    fn own_unit(&self, t: &Token, power: &str) -> Result<&Unit, Diagnostic> {
        match self.pog.unit(&t.text) {
            Some(u) if u.power() == power => Ok(u),
            _ => {
                let own: Vec<&str> = self
                    .pog
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

    /// Whether a space holds units of a power hostile to `power`.
    pub fn enemy_units_in(&self, space: &str, power: &str) -> bool {
        self.pog
            .units_in(space)
            .any(|u| !self.state.friendly(u.power(), power))
    }

    /// Whether `space` holds a fort that is intact and held by an enemy of `power`.
    pub fn intact_enemy_fort(&self, space: &str, power: &str) -> bool {
        intact_enemy_fort(self.map, self.state, self.pog, space, power)
    }
}

/// Whether `space` holds an intact fort controlled by an enemy of `power`: one not destroyed,
/// besieged or not (a besieged fort still stands: 11.1.4, 12.2.1).
pub fn intact_enemy_fort(
    map: &Map,
    state: &State,
    pog: &PogState,
    space: &str,
    power: &str,
) -> bool {
    let Some(i) = map.find(space) else {
        return false;
    };
    let id = &map.area(i).id;
    map.area(i).fort.is_some()
        && pog.fort_status(id) != Some(FortStatus::Destroyed)
        && state
            .control
            .get(id)
            .is_some_and(|owner| !state.friendly(owner, power))
}

/// Whether `units` can besiege a fort of factor `fort` (pbem's reading of 11.1.8; 15.2 is not in
/// the seed): an army, or loss factors at least the fort's.
pub fn can_besiege<'a>(units: impl IntoIterator<Item = &'a Unit>, fort: u32) -> bool {
    let mut lf: u32 = 0;
    for u in units {
        if u.is_army() {
            return true;
        }
        lf = lf.saturating_add(u.lf());
    }
    lf >= fort
}

fn syntax(message: impl Into<String>, span: std::ops::Range<usize>, hint: &str) -> Diagnostic {
    Diagnostic::error(message, span)
        .hint(hint.to_string())
        .rule(ORDER_SYNTAX)
}

/// An order's form as the order guide writes it (`move <unit> <space>[+] ...`), as a hint in the
/// player's own words (`orders::form`): his unit, a space or a card he wrote. A hint never names one
/// side's pieces to the other (the examples it gave before named `GE-1`, `GE-5` to both).
fn in_his_words(form: &str, args: &[Token], cx: &Context<'_>, power: &str) -> String {
    let space = |text: &str| cx.map.find(text).map(|i| cx.map.area(i).id.clone());
    crate::orders::form::in_his_words(form, args, |placeholder, t| match placeholder {
        "<space>" => space(&t.text),
        // A `+` written after a space stays after it.
        "<space>[+]" => match t.text.strip_suffix('+') {
            Some(name) => space(name).map(|s| s + "+"),
            None => space(&t.text),
        },
        "<unit>" => cx.own_unit(t, power).ok().map(|u| u.id().to_string()),
        "<card>" => cx.tables.card(&t.text).map(|c| c.id.clone()),
        _ => None,
    })
}

/// Parses one order line for `power`, checking each name; legality against the position comes after.
pub fn parse_line(line: &Line, cx: &Context<'_>, power: &str) -> Result<PogOrder, Diagnostic> {
    let Some((verb, args)) = line.tokens.split_first() else {
        return Err(syntax(
            "empty order line",
            line.span.clone(),
            "write one order per line",
        ));
    };
    match verb.text.to_ascii_lowercase().as_str() {
        "move" => {
            let Some((unit, path)) = args.split_first().filter(|(_, p)| !p.is_empty()) else {
                return Err(syntax(
                    "'move' needs a unit and at least one space",
                    line.span.clone(),
                    &format!(
                        "{}: the unit, then each space it enters ('+': taking control of it on the way)",
                        in_his_words("move <unit> <space>[+] [<space>[+] ...]", args, cx, power)
                    ),
                ));
            };
            let unit = cx.own_unit(unit, power)?.id().to_string();
            let mut steps = Vec::new();
            for t in path {
                let (name, control) = match t.text.strip_suffix('+') {
                    Some(n) => (n, true),
                    None => (t.text.as_str(), false),
                };
                let tok = Token {
                    text: name.to_string(),
                    span: t.span.clone(),
                };
                steps.push(Step {
                    space: cx.space(&tok)?,
                    control,
                });
            }
            Ok(PogOrder::Move { unit, path: steps })
        }
        "entrench" => match args {
            [u] => Ok(PogOrder::Entrench {
                unit: cx.own_unit(u, power)?.id().to_string(),
            }),
            _ => Err(syntax(
                format!("'entrench' takes one unit, found {}", args.len()),
                line.span.clone(),
                &in_his_words("entrench <unit>", args, cx, power),
            )),
        },
        "attack" => parse_attack(line, args, cx, power),
        "war" => {
            let entry = &cx.tables.theatres.entry;
            let names = || entry.keys().cloned().collect::<Vec<_>>().join(", ");
            match args {
                [n] => match entry.keys().find(|k| k.eq_ignore_ascii_case(&n.text)) {
                    Some(k) => Ok(PogOrder::War { nation: k.clone() }),
                    None => Err(Diagnostic::error(
                        format!(
                            "'{}' is not a nation that enters the war in this game",
                            n.text
                        ),
                        n.span.clone(),
                    )
                    .hint(if entry.is_empty() {
                        "this game's tables.toml names no nation entering the war".to_string()
                    } else {
                        did_you_mean(&n.text, entry.keys().map(String::as_str)).map_or_else(
                            || format!("the nations: {}", names()),
                            |s| format!("did you mean '{s}'?"),
                        )
                    })
                    .rule(rules::NEUTRAL)),
                },
                _ => Err(syntax(
                    format!("'war' takes one nation, found {}", args.len()),
                    line.span.clone(),
                    "write 'war turkey'",
                )),
            }
        }
        "standing" => {
            let (key, value) = decisions::parse_standing(line, args, cx)?;
            Ok(PogOrder::Standing { key, value })
        }
        _ => Err(crate::orders::unknown_verb(verb, &VERBS)),
    }
}

fn parse_attack(
    line: &Line,
    args: &[Token],
    cx: &Context<'_>,
    power: &str,
) -> Result<PogOrder, Diagnostic> {
    let example = in_his_words(
        "attack <space> with <unit> [<unit> ...] [flank <space>] [card <card>] ... [table army] [no-advance] [after]",
        args,
        cx,
        power,
    );
    let example = example.as_str();
    let (Some(target), Some(with)) = (args.first(), args.get(1)) else {
        return Err(syntax(
            "'attack' needs a space and 'with' its attackers",
            line.span.clone(),
            example,
        ));
    };
    if !with.is("with") {
        return Err(syntax(
            "expected 'with' after the attacked space",
            with.span.clone(),
            example,
        ));
    }
    let target = cx.space(target)?;
    let mut units = Vec::new();
    let mut flank = None;
    let mut cards = Vec::new();
    let mut army_table = false;
    let mut advance = true;
    let mut after = false;
    let mut i = 2;
    while let Some(t) = args.get(i) {
        let next = args.get(i + 1);
        if t.is("flank") {
            let Some(p) = next else {
                return Err(syntax(
                    "'flank' needs the pinning space",
                    t.span.clone(),
                    example,
                ));
            };
            flank = Some(cx.space(p)?);
            i += 2;
        } else if t.is("card") {
            let Some(c) = next else {
                return Err(syntax("'card' needs a card's id", t.span.clone(), example));
            };
            let Some(card) = cx.tables.card(&c.text) else {
                let ids = cx.tables.card_ids();
                return Err(Diagnostic::error(
                    format!("unknown combat card '{}'", c.text),
                    c.span.clone(),
                )
                .hint(did_you_mean(&c.text, ids.iter().copied()).map_or_else(
                    || format!("the combat cards are: {}", ids.join(", ")),
                    |s| format!("did you mean '{s}'?"),
                ))
                .rule(rules::CARDS));
            };
            cards.push(card.id.clone());
            i += 2;
        } else if t.is("table") {
            if !next.is_some_and(|n| n.is("army")) {
                return Err(syntax(
                    "'table' is followed by 'army'",
                    t.span.clone(),
                    example,
                ));
            }
            army_table = true;
            i += 2;
        } else if t.is("no-advance") {
            advance = false;
            i += 1;
        } else if t.is("after") {
            after = true;
            i += 1;
        } else if flank.is_none() && cards.is_empty() && !army_table && advance && !after {
            units.push(cx.own_unit(t, power)?.id().to_string());
            i += 1;
        } else {
            return Err(syntax(
                format!("unexpected '{}'", t.text),
                t.span.clone(),
                example,
            ));
        }
    }
    if units.is_empty() {
        return Err(syntax("'with' names no unit", with.span.clone(), example));
    }
    Ok(PogOrder::Attack(Attack {
        target,
        units,
        flank,
        cards,
        army_table,
        advance,
        after,
    }))
}

/// Parses every order line, then checks the action as a whole against the position: the orders that
/// stand, and a diagnostic for each line that does not.
pub fn parse_all(
    lines: &[Line],
    power: &str,
    cx: &Context<'_>,
) -> (Vec<Located<PogOrder>>, Vec<Diagnostic>) {
    let mut ok = Vec::new();
    let mut diags = Vec::new();
    let mut check = Legality::new(cx, power);
    for line in lines {
        if let Some(d) = line.skipped_diagnostic() {
            diags.push(d);
            continue;
        }
        // A rejected line leaves no mark: its units and spaces stay free for the other lines.
        let saved = check.marks();
        let result = parse_line(line, cx, power).and_then(|o| check.accept(&o, line).map(|()| o));
        match result {
            Ok(o) => ok.push(Located::new(o, line.span.clone())),
            Err(d) => {
                check.restore(saved);
                diags.push(d);
            }
        }
    }
    // 11.1.8: a move may end in an enemy fort only if the units ending there can besiege it.
    let mut bad_ends = BTreeSet::new();
    for (space, ids) in &check.fort_ends {
        let fort = cx.map.get(space).fort.unwrap_or(0);
        if !can_besiege(ids.iter().filter_map(|id| cx.pog.unit(id)), fort) {
            bad_ends.insert(space.clone());
        }
    }
    if !bad_ends.is_empty() {
        ok.retain(|o| match &o.value {
            PogOrder::Move { path, .. } => {
                let end = &path.last().expect("a path has a space").space;
                if bad_ends.contains(end) {
                    diags.push(
                        Diagnostic::error(
                            format!("the units ending in {end} cannot besiege its fort"),
                            o.span.clone(),
                        )
                        .label("not enough to besiege")
                        .hint("move an army there, or corps with as many loss factors as the fort's factor")
                        .rule(rules::FORT_ENTRY),
                    );
                    false
                } else {
                    true
                }
            }
            _ => true,
        });
    }
    (ok, diags)
}

/// The legality of an action as its lines come: what each line activated and used.
struct Legality<'a> {
    cx: &'a Context<'a>,
    power: &'a str,
    active: bool,
    /// Spaces activated, and whether for attack; with the order that did it, quoted
    /// (`Line::quoted`).
    activated: BTreeMap<String, (bool, String)>,
    /// Units already ordered (moving, entrenching or attacking).
    used: BTreeSet<String>,
    /// Spaces where a unit entrenches.
    entrenching: BTreeSet<String>,
    /// Enemy-fort spaces where moves end, with the units ending there.
    fort_ends: BTreeMap<String, Vec<String>>,
    /// The `war` order, quoted: the event is the whole action (11.1.11).
    war: Option<String>,
    /// Russian corps passing between the To Caucasus box and the Near East (11.3.2, 12.1.9).
    caucasus: usize,
}

/// What the accepted lines of an action have used so far (see [`Legality`]).
type Marks = (
    BTreeMap<String, (bool, String)>,
    BTreeSet<String>,
    BTreeSet<String>,
    BTreeMap<String, Vec<String>>,
    Option<String>,
    usize,
);

impl<'a> Legality<'a> {
    fn marks(&self) -> Marks {
        (
            self.activated.clone(),
            self.used.clone(),
            self.entrenching.clone(),
            self.fort_ends.clone(),
            self.war.clone(),
            self.caucasus,
        )
    }

    fn restore(&mut self, (activated, used, entrenching, fort_ends, war, caucasus): Marks) {
        self.activated = activated;
        self.used = used;
        self.entrenching = entrenching;
        self.fort_ends = fort_ends;
        self.war = war;
        self.caucasus = caucasus;
    }

    fn new(cx: &'a Context<'a>, power: &'a str) -> Self {
        Legality {
            cx,
            power,
            active: cx.pog.active() == power,
            activated: BTreeMap::new(),
            used: BTreeSet::new(),
            entrenching: BTreeSet::new(),
            fort_ends: BTreeMap::new(),
            war: None,
            caucasus: 0,
        }
    }

    fn accept(&mut self, order: &PogOrder, line: &Line) -> Result<(), Diagnostic> {
        let span = line.span.clone();
        if !matches!(order, PogOrder::Standing { .. }) && !self.active {
            return Err(Diagnostic::error(
                format!(
                    "it is {} action, not yours",
                    crate::words::Possessive(&(self.cx.name)(self.cx.pog.active()))
                ),
                span,
            )
            .label("not your action")
            .hint("between your actions, send only standing orders")
            .rule(rules::ONE_ACTION));
        }
        let cx = self.cx;
        // 11.1.11: a nation's entry is an event, and an event is the whole action (pbem's reading;
        // the action rules are not in the seed).
        let operation = !matches!(order, PogOrder::Standing { .. } | PogOrder::War { .. });
        if let (true, Some(n)) = (operation, &self.war) {
            return Err(Diagnostic::error(
                format!(
                    "your order {n} plays a nation's entry into the war, which is the whole action"
                ),
                span,
            )
            .hint("send this order in another action")
            .rule(rules::NEUTRAL));
        }
        match order {
            PogOrder::War { nation } => {
                if let Some((_, n)) = self.activated.values().next() {
                    return Err(Diagnostic::error(
                        format!("your order {n} already makes this an operations action"),
                        span,
                    )
                    .hint("a nation's entry into the war is the whole action: send it alone")
                    .rule(rules::NEUTRAL));
                }
                if self.war.is_some() {
                    return Err(
                        Diagnostic::error("one nation enters the war per action", span)
                            .hint("send the other in a later action")
                            .rule(rules::NEUTRAL),
                    );
                }
                if !cx
                    .pog
                    .neutral
                    .iter()
                    .any(|n| n.eq_ignore_ascii_case(nation))
                {
                    return Err(
                        Diagnostic::error(format!("{nation} is already in the war"), span)
                            .hint("only a nation the state lists as neutral enters the war")
                            .rule(rules::NEUTRAL),
                    );
                }
                let by = &cx.tables.theatres.entry[nation];
                if by != self.power {
                    return Err(Diagnostic::error(
                        format!("{nation} enters the war by an event of {}", (cx.name)(by)),
                        span,
                    )
                    .hint("only that side's order brings it in")
                    .rule(rules::NEUTRAL));
                }
                self.war = Some(line.quoted());
            }
            PogOrder::Move { unit, path } => {
                let u = cx.pog.unit(unit).expect("parsed units exist");
                self.use_unit(u, &span)?;
                self.activate(u.space(), false, line)?;
                self.check_path(u, path, &span)?;
            }
            PogOrder::Entrench { unit } => {
                let u = cx.pog.unit(unit).expect("parsed units exist");
                if cx.pog.game_turn < cx.tables.entrench_from_turn {
                    return Err(Diagnostic::error(
                        format!(
                            "no entrenching before turn {} (this is turn {})",
                            cx.tables.entrench_from_turn, cx.pog.game_turn
                        ),
                        span,
                    )
                    .hint("units may entrench from Fall 1914")
                    .rule(rules::ENTRENCH));
                }
                let level = cx
                    .pog
                    .trench
                    .get(u.space())
                    .filter(|t| t.power == self.power)
                    .map_or(0, |t| t.level);
                let max = if cx.pog.entrench_played.iter().any(|p| p == self.power) {
                    2
                } else {
                    1
                };
                if level >= max {
                    return Err(Diagnostic::error(
                        format!("{} is already entrenched at level {level}", u.space()),
                        span,
                    )
                    .hint(if max == 1 {
                        "level 2 needs the Entrench event first (11.2.2.1)"
                    } else {
                        "a trench is at most level 2"
                    })
                    .rule(rules::ONE_TRENCH));
                }
                if !self.entrenching.insert(u.space().to_string()) {
                    return Err(Diagnostic::error(
                        format!("a unit in {} already entrenches", u.space()),
                        span,
                    )
                    .hint("one unit per space may entrench")
                    .rule(rules::ENTRENCH));
                }
                self.use_unit(u, &span)?;
                self.activate(u.space(), false, line)?;
            }
            PogOrder::Attack(Attack {
                target,
                units,
                flank,
                cards,
                ..
            }) => {
                let t = cx.map.find(target).expect("parsed spaces exist");
                let mut spaces = BTreeSet::new();
                let mut nations_by_space: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
                for id in units {
                    let u = cx.pog.unit(id).expect("parsed units exist");
                    self.use_unit(u, &span)?;
                    let from = cx.map.find(u.space()).expect("checked state");
                    if !cx.map.adjacent(from, t) {
                        return Err(Diagnostic::error(
                            format!("{} in {} is not adjacent to {target}", u.id(), u.space()),
                            span,
                        )
                        .hint("attack only a space next to the attackers' own")
                        .rule(rules::ONE_SPACE));
                    }
                    if !cx.map.connected_for(from, t, &u.nation) {
                        return Err(Diagnostic::error(
                            format!(
                                "{} may not attack across the dotted line from {} to {target}",
                                u.id(),
                                u.space()
                            ),
                            span,
                        )
                        .hint("only the nations marked on a dotted line attack across it")
                        .rule(rules::DOTTED_ATTACK));
                    }
                    if u.bef && !bef_allowed(cx.map, cx.tables, target) {
                        return Err(bef_error(target, span));
                    }
                    if let Some(c) =
                        super::theatres::closed_to(cx.map, &cx.tables.theatres, cx.pog, u, target)
                    {
                        return Err(closed_error(c, span));
                    }
                    // 12.1.9: no Russian army attacks from the To Caucasus box into the Near East;
                    // one Russian corps a turn attacks between them.
                    if let Some(why) = super::theatres::caucasus_refuses(
                        &cx.tables.theatres,
                        cx.pog,
                        u,
                        u.space(),
                        target,
                        self.caucasus,
                    ) {
                        return Err(Diagnostic::error(why, span)
                            .hint("one Russian corps attacks between them each turn; armies never")
                            .rule(rules::CAUCASUS_COMBAT));
                    }
                    if u.nation.eq_ignore_ascii_case(super::theatres::RUSSIAN)
                        && cx.tables.theatres.crosses_caucasus(u.space(), target)
                    {
                        self.caucasus += 1;
                    }
                    spaces.insert(u.space().to_string());
                    nations_by_space
                        .entry(u.space().to_string())
                        .or_default()
                        .insert(u.nation.clone());
                }
                for s in &spaces {
                    self.activate(s, true, line)?;
                }
                let all: BTreeSet<String> = nations_by_space.values().flatten().cloned().collect();
                if all.len() > 1 && !nations_by_space.values().any(|n| *n == all) {
                    return Err(Diagnostic::error(
                        format!(
                            "a combat of {} needs one attacking space with units of each",
                            all.iter().map(|n| n.to_uppercase()).collect::<Vec<_>>().join(" and ")
                        ),
                        span,
                    )
                    .hint("attack with one nation, or from a space that holds every nation of the attack")
                    .rule(rules::MULTINATIONAL));
                }
                if let Some(p) = flank {
                    if spaces.len() < 2 {
                        return Err(Diagnostic::error(
                            "a flank attack needs attackers in two spaces or more",
                            span,
                        )
                        .hint("attack from two spaces, or leave out 'flank'")
                        .rule(rules::FLANK_ELIGIBLE));
                    }
                    if !spaces.contains(p) {
                        return Err(Diagnostic::error(
                            format!("{p} is not one of the attacking spaces"),
                            span,
                        )
                        .hint(format!(
                            "the pinning space is one of: {}",
                            spaces.iter().cloned().collect::<Vec<_>>().join(", ")
                        ))
                        .rule(rules::FLANK_DRM));
                    }
                }
                for c in cards {
                    let card = cx.tables.card(c).expect("parsed cards exist");
                    if !cx
                        .pog
                        .cards_of(self.power)
                        .iter()
                        .any(|h| h.eq_ignore_ascii_case(c))
                    {
                        return Err(Diagnostic::error(
                            format!("you do not hold the card '{c}'"),
                            span,
                        )
                        .hint(format!(
                            "your cards: {}",
                            cx.pog.cards_of(self.power).join(", ")
                        ))
                        .rule(rules::CARDS));
                    }
                    if card.side == CardSide::Defender {
                        return Err(
                            Diagnostic::error(format!("'{c}' is a defender's card"), span)
                                .hint("the defender's cards are played by his standing orders")
                                .rule(rules::CARDS),
                        );
                    }
                }
            }
            PogOrder::Standing { .. } => {}
        }
        Ok(())
    }

    fn use_unit(&mut self, u: &Unit, span: &std::ops::Range<usize>) -> Result<(), Diagnostic> {
        if !self.used.insert(u.id().to_lowercase()) {
            return Err(Diagnostic::error(
                format!("{} is already ordered in this action", u.id()),
                span.clone(),
            )
            .hint("a unit moves, entrenches or attacks once per action")
            .rule(rules::ONE_COMBAT));
        }
        Ok(())
    }

    fn activate(&mut self, space: &str, attack: bool, line: &Line) -> Result<(), Diagnostic> {
        match self.activated.get(space) {
            Some((a, n)) if *a != attack => Err(Diagnostic::error(
                format!(
                    "{space} is activated for {} by your order {n}",
                    if *a { "attack" } else { "movement" }
                ),
                line.span.clone(),
            )
            .hint("a space is activated for movement or for attack, not both")
            .rule(if attack {
                rules::ACTIVATED_ATTACK
            } else {
                rules::ACTIVATED_MOVE
            })),
            Some(_) => Ok(()),
            None => {
                self.activated
                    .insert(space.to_string(), (attack, line.quoted()));
                Ok(())
            }
        }
    }

    fn check_path(
        &mut self,
        u: &Unit,
        path: &[Step],
        span: &std::ops::Range<usize>,
    ) -> Result<(), Diagnostic> {
        let cx = self.cx;
        let mut at = cx.map.find(u.space()).expect("checked state");
        let mut mp = 0;
        for (k, step) in path.iter().enumerate() {
            let next = cx.map.find(&step.space).expect("parsed spaces exist");
            let last = k + 1 == path.len();
            if !cx.map.adjacent(at, next) {
                return Err(Diagnostic::error(
                    format!("{} is not next to {}", step.space, cx.map.area(at).id),
                    span.clone(),
                )
                .hint("name every space the unit enters, in order")
                .rule(rules::CONNECTIONS));
            }
            if !cx.map.connected_for(at, next, &u.nation) {
                return Err(Diagnostic::error(
                    format!(
                        "{} may not cross the dotted line from {} to {}",
                        u.id(),
                        cx.map.area(at).id,
                        step.space
                    ),
                    span.clone(),
                )
                .hint("only the nations marked on a dotted line cross it")
                .rule(rules::CONNECTIONS));
            }
            if cx.enemy_units_in(&step.space, self.power) {
                return Err(Diagnostic::error(
                    format!("{} holds enemy units", step.space),
                    span.clone(),
                )
                .hint("attack them instead")
                .rule(rules::NO_ENEMY));
            }
            if u.bef && !bef_allowed(cx.map, cx.tables, &step.space) {
                return Err(bef_error(&step.space, span.clone()));
            }
            if let Some(c) =
                super::theatres::closed_to(cx.map, &cx.tables.theatres, cx.pog, u, &step.space)
            {
                return Err(closed_error(c, span.clone()));
            }
            let from = cx.map.area(at).id.clone();
            if let Some(why) = super::theatres::caucasus_refuses(
                &cx.tables.theatres,
                cx.pog,
                u,
                &from,
                &step.space,
                self.caucasus,
            ) {
                return Err(Diagnostic::error(why, span.clone())
                    .hint("one Russian corps moves between them each turn; armies never")
                    .rule(rules::CAUCASUS));
            }
            if u.nation.eq_ignore_ascii_case(super::theatres::RUSSIAN)
                && cx.tables.theatres.crosses_caucasus(&from, &step.space)
            {
                self.caucasus += 1;
            }
            if step.control && cx.intact_enemy_fort(&step.space, self.power) {
                return Err(Diagnostic::error(
                    format!("no control of {} while its fort stands", step.space),
                    span.clone(),
                )
                .hint("remove the '+'")
                .rule(rules::CONTROL));
            }
            // 11.1.8: a fort already besieged is entered and passed freely.
            let besieged = cx.pog.fort_status(&step.space) == Some(FortStatus::Besieged);
            if cx.intact_enemy_fort(&step.space, self.power) && !besieged {
                if !last {
                    return Err(Diagnostic::error(
                        format!("{} has an intact enemy fort", step.space),
                        span.clone(),
                    )
                    .hint("stop there to besiege it; units pass only a besieged fort")
                    .rule(rules::FORT_ENTRY));
                }
                self.fort_ends
                    .entry(step.space.clone())
                    .or_default()
                    .push(u.id().to_string());
            }
            mp += 1 + u32::from(step.control);
            at = next;
        }
        if mp > u.mf() {
            return Err(Diagnostic::error(
                format!("{} has {} MF, this move costs {mp} MP", u.id(), u.mf()),
                span.clone(),
            )
            .hint("each space costs 1 MP, and 1 more with '+'")
            .rule(rules::MF_LIMIT));
        }
        let end = &path.last().expect("a path has a space").space;
        if race_holds(cx.pog, cx.tables, self.power)
            && cx
                .tables
                .race
                .spaces
                .iter()
                .any(|s| s.eq_ignore_ascii_case(end))
        {
            return Err(Diagnostic::error(
                format!("no move may end in {end} before the Race to the Sea"),
                span.clone(),
            )
            .hint("move through it (with '+' to take control), and end elsewhere")
            .rule(rules::RACE));
        }
        Ok(())
    }
}

/// Whether the Race to the Sea limit holds for `power` (11.1.9).
pub fn race_holds(pog: &PogState, tables: &Tables, power: &str) -> bool {
    tables.race.power == power && !pog.race_to_the_sea && pog.cp_war_status < tables.race.war_status
}

/// A space closed to a unit (a neutral nation, 11.1.11; Persia, 11.1.13; an MEF space, 11.1.10; the
/// Near East for most armies, 11.3.1): no unit moves into it, nor attacks into it (pbem's reading: an
/// attack there would end in an advance into it).
fn closed_error(c: super::theatres::Closed, span: std::ops::Range<usize>) -> Diagnostic {
    Diagnostic::error(c.why, span).hint(c.hint).rule(c.rule)
}

/// Whether the BEF may enter or attack `space` (11.1.16): a space of one of `bef_nations`.
pub fn bef_allowed(map: &Map, tables: &Tables, space: &str) -> bool {
    map.find(space)
        .and_then(|i| map.area(i).nation.as_deref())
        .is_some_and(|n| tables.bef_nations.iter().any(|b| b.eq_ignore_ascii_case(n)))
}

fn bef_error(space: &str, span: std::ops::Range<usize>) -> Diagnostic {
    Diagnostic::error(format!("the BEF may not go to {space}"), span)
        .hint("the BEF moves and attacks only in Britain, France, Belgium, Holland and Germany")
        .rule(rules::BEF)
}
