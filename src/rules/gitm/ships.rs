//! Ports and transports (GITM 4.3, 7.17). The seed moves ships by the PATE rules, which it does not
//! hold; pbem keeps what the seed itself gives, and its own reading of the rest
//! (`rules::PBEM_SHIPS`, docs/rules/gitm.md):
//!
//! - a port is the quay of a city (`[[gitm.port]]`, a tactical square of a square `[places]` names);
//!   a transport (`[[gitm.ship]]`) of a power lies in a port, with a capacity counted as a fort's
//!   (2.6 measures both alike, `state::fort_room`);
//! - `board <unit> <ship>` (7.17: not militia; read by `orders.rs`) is a unit's section 2 by sea: a unit in the port's
//!   square boards a transport of its own state lying there; `sail <ship> to <square>` takes the
//!   transport to another port of the map. The voyage is made in strategic phase 1: the units that
//!   fit, in the state's order, land on the quay of the port sailed to and move no more that turn;
//!   the others stay ashore, each with its reason. Nobody boards from, nor lands on, a quay a hostile
//!   combat unit holds; 1.4's and 2.5's limits hold at the landing;
//! - 4.3: at the end of a campaign turn the powers with units in a port's square are told of the
//!   ships lying there, and each ship tells its side the units not of its side on the quay, and on a
//!   d6 of 4 or more (pbem's "chance") those elsewhere in the square;
//! - off-map ports, the Naval Minister's delayed reports and warships are not modelled.

use std::collections::BTreeSet;

use anyhow::Result;

use crate::diag::Diagnostic;
use crate::engine::event::Event;
use crate::game::map::GridMap;
use crate::rules::wording::verb;

use super::rules;
use super::state::{fort_room, GitmState, MAX_POINTS};
use super::turn::{Audience, Turn};

/// pbem's chance that a ship in port reports the units of its port's square off the quay (GITM
/// 4.3's "a chance"): a d6 of this or more.
pub const PORT_REPORT_CHANCE: u32 = 4;

// ----- the state -----

/// Checks the ports and ships of the `[gitm]` table: a port on a city's tactical square, one a
/// square; a ship with an id of its own, a power of game.toml, in a port, of a capacity in range.
pub fn check(g: &GitmState, map: &GridMap, powers: &[&str]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let brigade_ids: BTreeSet<String> = g
        .brigades
        .iter()
        .map(|b| b.id().to_ascii_lowercase())
        .collect();
    let mut squares = BTreeSet::new();
    for p in &g.ports {
        let ok = map
            .parse_spot(p.at.get_ref())
            .is_ok_and(|s| map.is_named(s.square));
        if !ok || !squares.insert(p.square().to_ascii_lowercase()) {
            out.push(
                Diagnostic::error(
                    format!("port at '{}' is not a port of GITM 4.3", p.at.get_ref()),
                    p.at.span(),
                )
                .hint("a port stands on a tactical square of a city, a square map.toml's [places] names (G7-V8/10-10), one a square")
                .rule(rules::TRANSPORTS),
            );
        }
    }
    let mut ids = BTreeSet::new();
    for s in &g.ships {
        let id = s.id();
        let fresh =
            ids.insert(id.to_ascii_lowercase()) && !brigade_ids.contains(&id.to_ascii_lowercase());
        if !fresh || id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            out.push(
                Diagnostic::error(
                    format!("ship id '{id}' is not an id of its own"),
                    s.id.span(),
                )
                .hint("a ship's id is letters and digits, used by no other ship nor brigade: FRT1")
                .rule(rules::TRANSPORTS),
            );
        }
        if !powers.contains(&s.power()) {
            out.push(
                Diagnostic::error(format!("unknown power '{}'", s.power()), s.power.span())
                    .hint(format!("powers in game.toml: {}", powers.join(", "))),
            );
        }
        if g.port_of(s.port()).is_none() || s.capacity > MAX_POINTS {
            out.push(
                Diagnostic::error(
                    format!("ship {id} lies in no port ('{}')", s.port()),
                    s.port.span(),
                )
                .hint(format!("`port` is the square of a [[gitm.port]] (G7-V8); `capacity` at most {MAX_POINTS}"))
                .rule(rules::TRANSPORTS),
            );
        }
    }
    out
}

// ----- the turn -----

impl Turn<'_> {
    /// GITM 7.17 by pbem's reading, in strategic phase 1: each transport ordered to sail goes to its
    /// port with the units that boarded it and fit, which land on that port's quay and move no more
    /// this turn; a unit that may not board stays ashore, and is told why.
    pub fn voyages(&mut self) -> Result<()> {
        let cite = rules::PBEM_SHIPS.cite();
        for k in 0..self.g.ships.len() {
            let ship = self.g.ships[k].clone();
            let (id, power) = (ship.id().to_string(), ship.power().to_string());
            let boarders: Vec<String> = self
                .g
                .brigades
                .iter()
                .map(|b| b.id().to_string())
                .filter(|b| {
                    self.orders
                        .get(b)
                        .and_then(|o| o.board.as_deref())
                        .is_some_and(|s| s.eq_ignore_ascii_case(&id))
                })
                .collect();
            let side = || Audience::Side(power.clone());
            let to = self.orders.get(&id).and_then(|o| o.sail.clone());
            let (Some(to), Some(dest)) = (
                to.clone(),
                to.as_deref().and_then(|t| self.g.port_of(t)).cloned(),
            ) else {
                if !boarders.is_empty() {
                    self.event(
                        rules::TRANSPORTS,
                        "ship",
                        Some(ship.port()),
                        format!(
                            "{} {} ashore: {id} has no `sail` order this turn (GITM 7.17).",
                            boarders.join(", "),
                            verb(boarders.len(), "stays", "stay")
                        ),
                        side(),
                    );
                }
                continue;
            };
            let from = ship.port().to_string();
            let quay_held = |t: &Turn<'_>, at: &str| {
                t.g.brigades.iter().any(|o| {
                    !o.inactive
                        && !o.shattered
                        && !o.kind().is_hq()
                        && o.at().eq_ignore_ascii_case(at)
                        && t.hostile(&power, o.power())
                })
            };
            if quay_held(self, dest.at.get_ref()) {
                self.event(rules::TRANSPORTS, "ship", Some(&from), format!("{id} does not sail for {to}: hostile units hold its quay at {}; {} {} ashore (GITM 7.17; {cite}).", dest.at.get_ref(), if boarders.is_empty() { "none aboard".to_string() } else { boarders.join(", ") }, verb(boarders.len(), "stays", "stay")), side());
                continue;
            }
            let origin = self.g.port_of(&from).map(|p| p.at.get_ref().clone());
            let origin_held = origin.as_deref().is_some_and(|at| quay_held(self, at));
            let Ok(landing) = self.map.parse_spot(dest.at.get_ref()) else {
                continue;
            };
            let mut room = u64::from(ship.capacity);
            let mut aboard = Vec::new();
            for b in &boarders {
                let Some(i) = self.index(b) else { continue };
                let u = self.g.brigades[i].clone();
                let why = if !u.square().eq_ignore_ascii_case(&from) {
                    Some(format!("it is no longer in {from}"))
                } else if u.shattered {
                    Some("it is shattered".to_string())
                } else if self.besieged(i) {
                    Some("it is besieged (GITM 2.7)".to_string())
                } else if origin_held {
                    Some(format!(
                        "hostile units hold the quay at {}",
                        origin.as_deref().unwrap_or("")
                    ))
                } else if fort_room(&u) > room {
                    Some(format!(
                        "{id} has no room left for it ({room} of {} left, it needs {})",
                        ship.capacity,
                        fort_room(&u)
                    ))
                } else if let Some(full) = self.over_stacking(i, landing.square) {
                    Some(full)
                } else if self.crowded(&power, landing.square).contains(&landing.sub) {
                    Some(format!(
                        "the quay at {} is full (GITM 2.5)",
                        dest.at.get_ref()
                    ))
                } else {
                    None
                };
                if let Some(why) = why {
                    self.event(
                        rules::TRANSPORTS,
                        "ship",
                        Some(&from),
                        format!(
                            "{b} does not board {id}: {why}; it stays ashore (GITM 7.17; {cite})."
                        ),
                        Audience::Side(u.power().to_string()),
                    );
                    continue;
                }
                room -= fort_room(&u);
                self.g.brigades[i].at = toml::Spanned::new(0..0, dest.at.get_ref().clone());
                self.stop(b);
                aboard.push(b.clone());
            }
            self.g.ships[k].port = toml::Spanned::new(0..0, to.clone());
            let carrying = if aboard.is_empty() {
                "empty".to_string()
            } else {
                format!(
                    "with {}, who land on its quay at {}",
                    aboard.join(", "),
                    dest.at.get_ref()
                )
            };
            let e = Event::new(
                rules::TRANSPORTS,
                "ship",
                format!("{id} sails from the port of {from} to that of {to}, {carrying} (GITM 7.17; {cite})."),
            )
            .at(&to)
            .naming(aboard.iter().map(String::as_str))
            .route([from.as_str(), to.as_str()]);
            self.push(e, side());
            // GITM 4.3: units in a port's square hear of the ships in it: the others there see the
            // transport leave or come, not who is aboard.
            let onlookers: Vec<String> = self
                .powers
                .iter()
                .filter(|p| !self.state.friendly(&power, p))
                .filter(|p| {
                    self.g.brigades.iter().any(|b| {
                        b.power() == p.as_str()
                            && !b.inactive
                            && (b.square() == from || b.square() == to)
                    })
                })
                .cloned()
                .collect();
            if !onlookers.is_empty() {
                let e = Event::new(
                    rules::PORTS,
                    "ship",
                    format!(
                        "{id} ({power}) sails from the port of {from} to that of {to} (GITM 4.3)."
                    ),
                )
                .at(&to);
                self.push(e, Audience::Sides(onlookers));
            }
        }
        Ok(())
    }

    /// GITM 4.3 at the end of a campaign turn, port by port: the powers with active units in its
    /// square are told of the ships lying there; each ship tells its side the units not of its side
    /// on the quay, and on a d6 of [`PORT_REPORT_CHANCE`] or more those elsewhere in the square.
    pub fn port_reports(&mut self) -> Result<()> {
        let turn = self.state.turn;
        for port in self.g.ports.clone() {
            let (square, quay) = (port.square().to_string(), port.at.get_ref().clone());
            let ships: Vec<_> = self
                .g
                .ships
                .iter()
                .filter(|s| s.port().eq_ignore_ascii_case(&square))
                .cloned()
                .collect();
            if ships.is_empty() {
                continue;
            }
            let present: Vec<String> = self
                .powers
                .iter()
                .filter(|p| {
                    self.g
                        .brigades
                        .iter()
                        .any(|b| b.power() == p.as_str() && !b.inactive && b.square() == square)
                })
                .cloned()
                .collect();
            if !present.is_empty() {
                let list: Vec<String> = ships
                    .iter()
                    .map(|s| format!("{} ({})", s.id(), s.power()))
                    .collect();
                let text = format!(
                    "Ships in the port of {square}: {} (GITM 4.3).",
                    list.join(", ")
                );
                self.event(
                    rules::PORTS,
                    "ship",
                    Some(&square),
                    text,
                    Audience::Sides(present),
                );
            }
            for ship in ships {
                let power = ship.power().to_string();
                let others: Vec<(String, bool)> = self
                    .g
                    .brigades
                    .iter()
                    .filter(|b| b.square() == square && !self.state.friendly(&power, b.power()))
                    .map(|b| (b.id().to_string(), b.at().eq_ignore_ascii_case(&quay)))
                    .collect();
                if others.is_empty() {
                    continue;
                }
                let on_quay: Vec<&str> = others
                    .iter()
                    .filter(|o| o.1)
                    .map(|o| o.0.as_str())
                    .collect();
                let off: Vec<&str> = others
                    .iter()
                    .filter(|o| !o.1)
                    .map(|o| o.0.as_str())
                    .collect();
                let mut named: Vec<&str> = on_quay.clone();
                let mut text = format!("{}, in the port of {square}, reports ", ship.id());
                text += &if on_quay.is_empty() {
                    "no one on its quay".to_string()
                } else {
                    format!(
                        "{} on its quay ({})",
                        on_quay.join(", "),
                        quay.split('/').nth(1).unwrap_or("")
                    )
                };
                let mut e_roll = None;
                if !off.is_empty() {
                    let roll = self
                        .dice
                        .roll(&format!("gitm/t{turn}/port/{}", ship.id()), &[6])?;
                    let face = roll.dice[0].face;
                    let face_told = roll.told(0);
                    if face >= PORT_REPORT_CHANCE {
                        text += &format!("; on a d6 of {face_told} ({PORT_REPORT_CHANCE} or more, pbem's chance) also {} elsewhere in the square", off.join(", "));
                        named.extend(off.iter().copied());
                    } else {
                        text += &format!("; on a d6 of {face_told} (under {PORT_REPORT_CHANCE}, pbem's chance) nothing of the rest of the square");
                    }
                    e_roll = Some(roll);
                }
                text += " (GITM 4.3).";
                let mut e = Event::new(rules::PORTS, "ship", text)
                    .at(&square)
                    .naming(named);
                if let Some(r) = e_roll {
                    e = e.roll(r);
                }
                self.push(e, Audience::Side(power));
            }
        }
        Ok(())
    }
}
