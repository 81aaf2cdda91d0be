//! One NGG turn being resolved: the position as it changes, the events, the dice, the command chits
//! left, and the questions every step asks of the board (whose stack stands where, which hexes touch).
//! The steps live beside it: movement.rs, initiative.rs (10.1-10.9), combat.rs (pbem's results).

use std::collections::BTreeMap;

use anyhow::Result;

use crate::decide::{decide, Decision, Sources};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::map::Map;
use crate::game::state::State;
use crate::rule::Rule;

use super::decisions::NggPoint;
use super::state::{NggState, Unit};
use super::tables::Tables;

/// The position and the record of a turn in progress.
pub struct Phase<'a> {
    pub map: &'a Map,
    pub tables: &'a Tables,
    pub sop: &'a BTreeMap<String, String>,
    /// The shared part of the state; its `ngg` is taken out into [`Phase::ngg`] while the turn runs.
    pub state: State,
    pub ngg: NggState,
    /// The two sides, the first player (10.7) first.
    pub powers: [String; 2],
    pub events: Vec<Event>,
    pub dice: &'a mut DiceBox,
    /// The CCs each side has left this turn (10.2, 10.6).
    pub chits: BTreeMap<String, u32>,
    /// Each power's name as the texts give it (id, name): the scenario's (wording 1), or none, when
    /// the texts name each power by its id (wording 0: a turn resolved before, told again so).
    pub names: BTreeMap<String, String>,
}

impl<'a> Phase<'a> {
    /// The turn from `state`; `powers` are the game's two sides.
    pub fn new(
        map: &'a Map,
        tables: &'a Tables,
        sop: &'a BTreeMap<String, String>,
        state: State,
        powers: &[String],
        dice: &'a mut DiceBox,
    ) -> Result<Self> {
        let ngg = state.table::<NggState>().cloned().ok_or_else(|| {
            anyhow::anyhow!("the state of a Napoleon's Greatest Gamble game has no [ngg] table")
        })?;
        let first = ngg.first().to_string();
        let second = powers
            .iter()
            .find(|p| **p != first)
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("an NGG game has two sides"))?;
        let chits = [&first, &second]
            .into_iter()
            .map(|p| (p.clone(), tables.chits_of(p)))
            .collect();
        Ok(Phase {
            map,
            tables,
            sop,
            state,
            ngg,
            powers: [first, second],
            events: Vec::new(),
            dice,
            chits,
            names: BTreeMap::new(),
        })
    }

    /// The turn, its texts naming each power by `names` (id, name).
    pub fn with_names(mut self, names: impl IntoIterator<Item = (String, String)>) -> Self {
        self.names = names.into_iter().collect();
        self
    }

    /// The name of `power` as the texts give it: the scenario's, or its id without one.
    pub fn who(&self, power: &str) -> String {
        self.names
            .get(power)
            .cloned()
            .unwrap_or_else(|| power.to_string())
    }

    /// The state at the end: the shared part with the `[ngg]` table put back.
    pub fn finish(mut self) -> (State, Vec<Event>) {
        if let Some(table) = self.state.table_mut::<NggState>() {
            *table = self.ngg;
        }
        (self.state, self.events)
    }

    /// Records an event; both sides see every event (open information).
    pub fn log(&mut self, event: Event) {
        let all = self.powers.clone();
        self.events
            .push(event.seen_by(all.iter().map(String::as_str)));
    }

    pub fn event(&mut self, rule: Rule, kind: &str, hex: Option<&str>, text: String) {
        let mut e = Event::new(rule, kind, text);
        if let Some(h) = hex {
            e = e.at(h);
        }
        self.log(e);
    }

    /// The other side.
    pub fn other(&self, power: &str) -> String {
        if self.powers[0] == power {
            self.powers[1].clone()
        } else {
            self.powers[0].clone()
        }
    }

    /// Settles a decision of `power`: this turn's order, its standing order (scoped to `scope`
    /// first), the SOP.
    pub fn decide<T>(
        &self,
        point: NggPoint,
        power: &str,
        explicit: Option<&str>,
        scope: Option<&str>,
        parse: impl Fn(&str) -> Option<T>,
        fallback: T,
    ) -> Decision<T> {
        let d = decide(
            &point,
            &Sources {
                explicit,
                standing: self.state.standing.get(power),
                scope,
                sop: self.sop,
            },
            parse,
            || Ok(fallback),
        );
        d.expect("the fallback never fails")
    }

    /// "0905 (Smolensk)" or "0706".
    pub fn name(&self, hex: &str) -> String {
        match self.tables.name_of(hex) {
            Some(n) => format!("{hex} ({n})"),
            None => hex.to_string(),
        }
    }

    /// "the stack in 0706" or "the stacks in 0804, 0904 (Smolensk)".
    pub fn stacks_in(&self, hexes: &[String]) -> String {
        let names: Vec<String> = hexes.iter().map(|h| self.name(h)).collect();
        let s = if names.len() == 1 { "" } else { "s" };
        format!("the stack{s} in {}", names.join(", "))
    }

    pub fn adjacent(&self, a: &str, b: &str) -> bool {
        match (self.map.find(a), self.map.find(b)) {
            (Some(i), Some(j)) => self.map.adjacent(i, j),
            _ => false,
        }
    }

    /// The hexes next to `hex`, in map order.
    pub fn neighbours(&self, hex: &str) -> Vec<String> {
        self.map
            .find(hex)
            .map(|i| {
                self.map
                    .area(i)
                    .adjacent
                    .iter()
                    .map(|&j| self.map.area(j).id.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Ids of the units of `power`'s stack in `hex`, in state order.
    pub fn stack_ids(&self, hex: &str, power: &str) -> Vec<String> {
        self.ngg
            .stack(hex, power)
            .map(|u| u.id().to_string())
            .collect()
    }

    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.ngg
            .units
            .iter_mut()
            .find(|u| u.id().eq_ignore_ascii_case(id))
    }

    /// "FR-III (infantry, 6 SP), FR-Ney (commander, CR 2)".
    pub fn describe(&self, ids: &[String]) -> String {
        ids.iter()
            .filter_map(|id| self.ngg.unit(id))
            .map(|u| format!("{} ({})", u.id(), u.describe()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}
