//! What PoG's theatre rules do as an action runs (theatres.rs asks the questions): a nation enters
//! the war (11.1.11, 11.1.13), a Russian corps uses the turn's passage from the To Caucasus box
//! (11.3.2, 12.1.9), the ANA's control lasts while it stays (11.1.14), the Turk SN Corps' conversions
//! suffer attrition (11.1.15).

use crate::engine::event::Event;
use crate::rule::Rule;

use super::action::Action;
use super::rules;
use super::state::Unit;
use super::theatres::{Theatres, RUSSIAN};

impl Action<'_> {
    /// The theatre rules this action's tables hold.
    fn theatres(&self) -> &Theatres {
        &self.tables.theatres
    }

    /// 11.1.11: `nation` enters the war: it leaves the neutral list and every unit may enter it;
    /// 11.1.13: when it is the nation Persia waits for, Ahwaz becomes Allied controlled.
    pub fn enter_war(&mut self, nation: &str) {
        let before = self.pog.neutral.len();
        self.pog.neutral.retain(|n| !n.eq_ignore_ascii_case(nation));
        if self.pog.neutral.len() == before {
            return;
        }
        let power = self.active.clone();
        self.event(
            rules::NEUTRAL,
            "war",
            None,
            format!(
                "{} {nation} into the war: units of both sides may now enter it.",
                self.says(&power, "brings", "bring")
            ),
        );
        let t = self.theatres().clone();
        if nation.eq_ignore_ascii_case(&t.persia_opens_with) {
            self.event(
                rules::PERSIA,
                "war",
                None,
                format!(
                    "{nation} is in the war: units of both sides may now enter {}.",
                    t.persia
                ),
            );
            if let Some(i) = self.map.find(&t.ahwaz) {
                let ahwaz = self.space_id(i);
                self.set_control(&ahwaz, &t.allies);
                self.event(
                    rules::PERSIA,
                    "control",
                    Some(&ahwaz),
                    format!("{ahwaz}, though in {}, is Allied controlled now that {nation} is in the war.", t.persia),
                );
            }
        }
    }

    /// 11.3.2, 12.1.9: a Russian corps passes between the To Caucasus box and the Near East: the
    /// turn's one passage is used.
    pub fn note_caucasus(&mut self, unit: &str, from: &str, to: &str, rule: Rule, how: &str) {
        let Some(u) = self.unit(unit) else {
            return;
        };
        if !u.nation.eq_ignore_ascii_case(RUSSIAN) || !self.theatres().crosses_caucasus(from, to) {
            return;
        }
        self.pog.caucasus_crossed = Some(self.pog.game_turn);
        let text = format!(
            "{unit} {how} between {} and {}: the one Russian corps of game turn {} to do so.",
            from, to, self.pog.game_turn
        );
        self.event(rule, "caucasus", Some(to), text);
    }

    /// Control of `space` taken by `power` with `units` (a move's `+` or end, an advance), with the
    /// theatre rules' bookkeeping: a CP space taken by the ANA alone is held only while it stays
    /// (11.1.14), one taken by the Turk SN Corps alone is marked for its attrition (11.1.15); taken by
    /// any other unit of the side, the space is converted for good.
    pub fn take_control(&mut self, space: &str, power: &str, units: &[String]) -> bool {
        let prior = self.controller(space).map(str::to_string);
        let changed = self.set_control(space, power);
        let all = |f: fn(&Unit) -> bool| {
            !units.is_empty() && units.iter().all(|id| self.unit(id).is_some_and(f))
        };
        let (by_ana, by_sn) = (all(|u| u.ana), all(|u| u.sn));
        let from_enemy = prior
            .as_deref()
            .filter(|p| !self.friendly(p, power))
            .map(str::to_string);
        if by_ana {
            if let Some(p) = from_enemy.clone() {
                self.pog.ana_held.insert(space.to_string(), p);
            }
        } else {
            self.pog.ana_held.remove(space);
        }
        let libya = space.eq_ignore_ascii_case(&self.theatres().libya);
        if by_sn && !libya {
            if let Some(p) = from_enemy {
                self.pog.sn_converted.insert(space.to_string(), p);
            }
        } else {
            self.pog.sn_converted.remove(space);
        }
        changed
    }

    /// 11.1.14: the ANA leaves `space`: a CP space it held reverts to CP control at once.
    pub fn ana_leaves(&mut self, unit: &str, space: &str) {
        if !self.unit(unit).is_some_and(|u| u.ana) {
            return;
        }
        let Some(back) = self.pog.ana_held.remove(space) else {
            return;
        };
        self.set_control(space, &back);
        self.event(
            rules::ANA,
            "control",
            Some(space),
            format!(
                "{unit}, the Arab Northern Army, leaves {space}: it reverts to {} control.",
                self.who(&back)
            ),
        );
    }

    /// 11.1.15, at pbem's attrition (the end of a game turn, as 11.2.7's): each space the SN Corps
    /// converted, other than the one it stands in, that traces no supply reverts to the side that
    /// held it. Libya is never among them (its attrition is the normal one).
    pub fn sn_attrition(&mut self) {
        let marked: Vec<(String, String)> = self
            .pog
            .sn_converted
            .iter()
            .map(|(s, p)| (s.clone(), p.clone()))
            .collect();
        for (space, back) in marked {
            let Some(i) = self.map.find(&space) else {
                continue;
            };
            let Some(holder) = self.controller(&space).map(str::to_string) else {
                continue;
            };
            if self.pog.units_in(&space).any(|u| u.sn) || self.supplied(i, &holder) {
                continue;
            }
            self.pog.sn_converted.remove(&space);
            self.set_control(&space, &back);
            self.log(
                Event::new(
                    rules::SN_CORPS,
                    "attrition",
                    format!(
                        "{space}, converted by the Turk SN Corps, traces no supply: attrition returns it to {}.",
                        self.who(&back)
                    ),
                )
                .at(&space),
            );
        }
    }
}
