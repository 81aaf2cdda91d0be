//! pbem's minimal movement and forage for NGG (the seed's rules 8 are not in it): the stacks that
//! forage take their marker first; then the first player's moves, then the second's, each in the order
//! written. A move stops before a hex that enemy units hold at its moment.

use crate::decide::DecidedBy;
use crate::engine::event::Event;
use crate::rules::wording::verb;

use super::orders::NggOrder;
use super::phase::Phase;
use super::rules;

impl Phase<'_> {
    /// pbem's forage: every unit of `power`'s stack in `hex` takes a forage marker (NGG 10.1 then
    /// keeps the stack from attacking or supporting an attack).
    pub fn forage(&mut self, power: &str, hex: &str) {
        let ids = self.stack_ids(hex, power);
        if ids.is_empty() {
            return;
        }
        for id in &ids {
            if let Some(u) = self.unit_mut(id) {
                u.forage = true;
            }
        }
        let text = format!(
            "{power}: the stack in {} forages and stays put under its forage marker this turn ({}).",
            self.name(hex),
            self.describe(&ids),
            power = self.who(power)
        );
        self.log(
            Event::new(rules::FORAGE, "forage", text)
                .at(hex)
                .decided(power, DecidedBy::Order),
        );
    }

    /// Moves a unit or a stack along `path` (checked at parse); `force` puts it under a force march
    /// marker.
    pub fn move_order(&mut self, power: &str, order: &NggOrder) {
        let NggOrder::Move {
            mover,
            stack,
            path,
            force,
        } = order
        else {
            return;
        };
        let ids: Vec<String> = if *stack {
            self.stack_ids(mover, power)
                .into_iter()
                .filter(|id| self.ngg.unit(id).is_some_and(|u| !u.forage))
                .collect()
        } else {
            self.ngg
                .unit(mover)
                .filter(|u| u.power() == power && !u.forage)
                .map(|u| vec![u.id().to_string()])
                .unwrap_or_default()
        };
        let Some(start) = ids
            .first()
            .and_then(|id| self.ngg.unit(id))
            .map(|u| u.hex().to_string())
        else {
            self.event(
                rules::MOVEMENT,
                "move",
                None,
                format!(
                    "{power}: 'move {mover}' finds nothing to move: void.",
                    power = self.who(power)
                ),
            );
            return;
        };
        let mut end = start.clone();
        let mut stopped = None;
        for h in path {
            if self.ngg.holder(h).is_some_and(|p| p != power) || !self.adjacent(&end, h) {
                stopped = Some(h.clone());
                break;
            }
            end = h.clone();
        }
        for id in &ids {
            if let Some(u) = self.unit_mut(id) {
                u.hex = toml::Spanned::new(0..0, end.clone());
                if *force {
                    u.force_march = true;
                }
            }
        }
        let mut text = format!(
            "{power}: {} {} from {} to {}",
            ids.join(", "),
            verb(ids.len(), "moves", "move"),
            self.name(&start),
            self.name(&end),
            power = self.who(power)
        );
        if *force {
            text.push_str(", on a force march (marker placed)");
        }
        if let Some(h) = stopped {
            text.push_str(&format!(
                "; it stops before {}, which enemy units now hold",
                self.name(&h)
            ));
        }
        text.push('.');
        self.log(
            Event::new(rules::MOVEMENT, "move", text)
                .at(&end)
                .naming(ids.iter().map(String::as_str))
                .route([start.as_str(), end.as_str()])
                .decided(power, DecidedBy::Order),
        );
    }
}
