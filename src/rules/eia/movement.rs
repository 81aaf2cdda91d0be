//! Land movement (EiA 7): every accepted move order is carried out along its path; a unit that enters
//! an area holding enemy corps stops there. Orders were checked for legality when they were read.

use std::collections::BTreeMap;

use crate::engine::event::Event;
use crate::game::map::Map;

use super::board::Board;
use super::naval::Fleet;
use super::orders::{EiaOrder, LAND_MOVEMENT, TRANSPORT};
use super::visibility::watchers;

/// EiA 7: a unit entering an area with enemy corps stops there.
pub const STOP_AT_ENEMY: crate::rule::Rule =
    crate::rule::Rule::new("EiA", "7", "a unit entering an area with enemy corps stops");

/// Moves every unit with a move order, powers in id order, orders in file order; the events name
/// each power in `words`.
pub fn move_units(
    words: &super::Words,
    map: &Map,
    board: &mut Board,
    orders: &BTreeMap<String, Vec<EiaOrder>>,
    fleets: &[Fleet],
    events: &mut Vec<Event>,
) {
    let before = board.positions();
    for (power, list) in orders {
        for order in list {
            let EiaOrder::Move { unit, path, .. } = order else {
                continue;
            };
            let corps = board.find_corps(unit);
            let leader = board.find_leader(unit);
            let start = match (corps, leader) {
                (Some(c), _) => board.corps[c].area,
                (None, Some(l)) => board.leaders[l].area,
                _ => continue,
            };
            let mut here = start;
            let mut walked = vec![map.area(start).id.clone()];
            // The areas of `walked`, by index.
            let mut through = vec![start];
            let mut stopped = None;
            let mut stopped_at_sea = None;
            let mut carriers = Vec::new();
            for step in path {
                let next = map.find(step).expect("checked order");
                if !map.area(next).is_land() {
                    // EiA 6.2.5 (SOP): the biggest of the power's fleets there carries the corps.
                    let carrier = fleets
                        .iter()
                        .filter(|f| f.area == next && f.ships > 0 && &f.power == power)
                        .max_by_key(|f| (f.ships, std::cmp::Reverse(f.id.clone())));
                    match carrier {
                        Some(f) => carriers.push((f.id.clone(), map.area(next).id.clone())),
                        None => {
                            stopped_at_sea = Some(map.area(next).id.clone());
                            break;
                        }
                    }
                }
                here = next;
                walked.push(map.area(next).id.clone());
                through.push(next);
                if board.enemies_in(next, power) && corps.is_some() {
                    stopped = Some(map.area(next).id.clone());
                    break;
                }
            }
            if let Some(c) = corps {
                board.corps[c].area = here;
                board.corps[c].moved = true;
                // A garrison that marches away leaves its city (checked unbesieged, EiA 7.5.4).
                if here != start {
                    board.corps[c].in_city = false;
                }
            } else if let Some(l) = leader {
                board.leaders[l].area = here;
            }
            // The mover sees his whole path; another power sees only the steps into or out of an area
            // it watched when movement began, one event per step.
            let own = std::collections::BTreeSet::from([power.clone()]);
            let who = words.who(power);
            let text = format!("{unit} ({who}) moves {}.", walked.join(" - "));
            events.push(
                Event::new(LAND_MOVEMENT, "move", text)
                    .at(&map.area(here).id)
                    .naming([unit.as_str()])
                    .route(walked.iter().map(String::as_str))
                    .seen_by(own.iter().map(String::as_str)),
            );
            for (pair, areas) in walked.windows(2).zip(through.windows(2)) {
                let (from, to) = (areas[0], areas[1]);
                let mut seen = watchers(map, &before, from);
                seen.extend(watchers(map, &before, to));
                seen.remove(power);
                if seen.is_empty() {
                    continue;
                }
                let text = format!("{unit} ({who}) moves {} - {}.", pair[0], pair[1]);
                events.push(
                    Event::new(LAND_MOVEMENT, "move", text)
                        .at(&pair[1])
                        .naming([unit.as_str()])
                        .route([pair[0].as_str(), pair[1].as_str()])
                        .seen_by(seen.iter().map(String::as_str)),
                );
            }
            let mut seen = own.clone();
            seen.extend(watchers(map, &before, here));
            for (fleet, sea) in &carriers {
                let text =
                    format!("{fleet}, the biggest fleet of {who} in {sea}, carries {unit} across.");
                events.push(
                    Event::new(TRANSPORT, "transport", text)
                        .at(sea)
                        .seen_by(own.iter().map(String::as_str)),
                );
            }
            if let Some(sea) = stopped_at_sea {
                let text = format!(
                    "{unit} stays on the coast: no fleet of {who} is left in {sea} to carry it."
                );
                events.push(
                    Event::new(TRANSPORT, "transport", text)
                        .at(&map.area(here).id)
                        .seen_by(own.iter().map(String::as_str)),
                );
            }
            if let Some(area) = stopped {
                let text = format!("{unit} stops in {area}: enemy corps are there.");
                events.push(
                    Event::new(STOP_AT_ENEMY, "move", text)
                        .at(&area)
                        .seen_by(seen.iter().map(String::as_str)),
                );
            }
        }
    }
}
