//! The view of one power: everything its report may show, and nothing else. Events come in only if
//! the power is in their `visible_to`; units only if they stand in an area the power sees.

use serde::Serialize;

use crate::engine::event::Event;
use crate::engine::turn::OrdersFileStatus;
use crate::game::state::State;
use crate::game::Game;

use super::DiceHeader;

/// What the engine hands to the report of one power.
pub struct ReportInput<'a> {
    pub power: &'a str,
    pub turn: u32,
    pub state_before: &'a State,
    pub state_after: &'a State,
    pub events: &'a [Event],
    pub orders: Option<&'a OrdersFileStatus>,
    pub header: &'a DiceHeader,
    pub next_commitment: &'a crate::dice::Bytes32,
}

/// A unit as a report lists it.
#[derive(Debug, Serialize)]
pub struct UnitLine {
    pub id: String,
    pub owner: String,
    pub area: String,
    /// "infantry corps, 6 factors, morale 4.0".
    pub detail: String,
}

/// A roll as a report lists it.
#[derive(Debug, Serialize)]
pub struct RollLine {
    pub label: String,
    pub dice: String,
    pub faces: String,
}

/// An event as a report lists it.
#[derive(Debug, Serialize)]
pub struct EventLine {
    pub citation: String,
    pub kind: String,
    pub text: String,
    pub rolls: Vec<RollLine>,
    /// "by the SOP", "at random", ... when the event is a decision.
    pub decided: Option<String>,
}

/// The orders the power sent, as pbem read them.
#[derive(Debug, Serialize)]
pub struct OrdersView {
    pub received: bool,
    pub accepted: Vec<String>,
    pub rejected: usize,
    pub diagnostics: String,
    pub entropy: Option<String>,
}

/// The next turn, as far as the power needs to know.
#[derive(Debug, Serialize)]
pub struct NextTurn {
    pub turn: u32,
    pub date: String,
    pub deadline: String,
    pub commitment: String,
}

/// Everything one report shows.
#[derive(Debug, Serialize)]
pub struct PowerView {
    pub game: String,
    pub title: String,
    pub ruleset: String,
    pub turn: u32,
    pub date: String,
    pub power: String,
    pub power_name: String,
    pub header: DiceHeader,
    pub orders: OrdersView,
    pub units: Vec<UnitLine>,
    pub seen: Vec<UnitLine>,
    pub events: Vec<EventLine>,
    pub decisions: Vec<EventLine>,
    pub next: NextTurn,
}

impl PowerView {
    pub fn build(game: &Game, input: &ReportInput<'_>) -> PowerView {
        let power = input.power;
        let name = game
            .config
            .power(power)
            .map_or(power.to_string(), |p| p.name.clone());
        let after = input.state_after;
        let visible = game.ruleset.visible_areas(game, after, power);
        let sees = |area: &str| game.map.find(area).is_some_and(|i| visible.contains(&i));
        let mut units = Vec::new();
        let mut seen = Vec::new();
        for c in &after.corps {
            let line = UnitLine {
                id: c.id.get_ref().clone(),
                owner: c.power.get_ref().clone(),
                area: c.area.get_ref().clone(),
                detail: format!(
                    "{} corps, {} factors, morale {}",
                    c.kind.name(),
                    c.factors,
                    c.morale
                ),
            };
            push_unit(line, power, &sees, &mut units, &mut seen);
        }
        for l in &after.leaders {
            let line = UnitLine {
                id: l.id.get_ref().clone(),
                owner: l.power.get_ref().clone(),
                area: l.area.get_ref().clone(),
                detail: format!("leader, rating {}, seniority {}", l.rating, l.seniority),
            };
            push_unit(line, power, &sees, &mut units, &mut seen);
        }
        for f in &after.fleets {
            let line = UnitLine {
                id: f.id.get_ref().clone(),
                owner: f.power.get_ref().clone(),
                area: f.area.get_ref().clone(),
                detail: format!("fleet, {} ships", f.ships),
            };
            push_unit(line, power, &sees, &mut units, &mut seen);
        }
        let events: Vec<EventLine> = input
            .events
            .iter()
            .filter(|e| e.visible_to.contains(power))
            .map(event_line)
            .collect();
        let decisions = input
            .events
            .iter()
            .filter(|e| {
                e.visible_to.contains(power)
                    && e.decision.as_ref().is_some_and(|d| d.power == power)
            })
            .map(event_line)
            .collect();
        let orders = match input.orders.and_then(|o| o.check.as_ref().map(|c| (o, c))) {
            None => OrdersView {
                received: false,
                accepted: Vec::new(),
                rejected: 0,
                diagnostics: String::new(),
                entropy: None,
            },
            Some((o, c)) => OrdersView {
                received: true,
                accepted: c
                    .accepted
                    .iter()
                    .map(|(line, text)| format!("line {line}: {text}"))
                    .collect(),
                rejected: c.rejected(),
                diagnostics: o.rendered.clone(),
                entropy: c.entropy.clone(),
            },
        };
        let next = input.turn + 1;
        PowerView {
            game: game.config.game.clone(),
            title: game.config.title.clone(),
            ruleset: game.ruleset.name().to_string(),
            turn: input.turn,
            date: game.config.date_of(input.turn),
            power: power.to_string(),
            power_name: name,
            header: input.header.clone(),
            orders,
            units,
            seen,
            events,
            decisions,
            next: NextTurn {
                turn: next,
                date: game.config.date_of(next),
                deadline: game.config.deadline_of(next).map_or("not set".into(), |d| {
                    d.format("%A %Y-%m-%d %H:%M %Z").to_string()
                }),
                commitment: crate::dice::to_hex(input.next_commitment),
            },
        }
    }
}

fn push_unit(
    line: UnitLine,
    power: &str,
    sees: &impl Fn(&str) -> bool,
    units: &mut Vec<UnitLine>,
    seen: &mut Vec<UnitLine>,
) {
    if line.owner == power {
        units.push(line);
    } else if sees(&line.area) {
        seen.push(line);
    }
}

fn event_line(e: &Event) -> EventLine {
    EventLine {
        citation: e.citation(),
        kind: e.kind.clone(),
        text: e.text.clone(),
        rolls: e
            .rolls
            .iter()
            .map(|r| RollLine {
                label: r.label.clone(),
                dice: r.dice_names(),
                faces: r.faces(),
            })
            .collect(),
        decided: e.decision.as_ref().map(|d| d.by.describe().to_string()),
    }
}
