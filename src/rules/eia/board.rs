//! The working position of an EiA turn: the state's units with area indices instead of names, changed
//! step by step by movement and combat, and written back into a `State` at the end.

use toml::Spanned;

use crate::game::map::Map;
use crate::game::state::{CorpsKind, State};

/// A corps during resolution.
#[derive(Debug, Clone)]
pub struct Corps {
    pub id: String,
    pub power: String,
    pub kind: CorpsKind,
    pub factors: u32,
    /// Morale in tenths.
    pub morale: i64,
    pub area: usize,
    /// Moved this turn (by an order).
    pub moved: bool,
    /// Retired into the city of its area (EiA 7.5.1.1) and besieged there.
    pub in_city: bool,
    /// Artillery factors (EiA 7.5.2.8).
    pub artillery: u32,
    pub eliminated: bool,
}

/// A leader during resolution.
#[derive(Debug, Clone)]
pub struct Leader {
    pub id: String,
    pub power: String,
    pub rating: u32,
    pub seniority: u32,
    pub area: usize,
}

/// The position during resolution. Corps and leaders keep the state's order.
#[derive(Debug, Clone)]
pub struct Board {
    pub corps: Vec<Corps>,
    pub leaders: Vec<Leader>,
    /// The alliances of the state.
    pub alliances: Vec<Vec<String>>,
}

impl Board {
    pub fn new(map: &Map, state: &State) -> Board {
        let area = |a: &Spanned<String>| {
            map.find(a.get_ref())
                .expect("state references are checked at load")
        };
        Board {
            corps: state
                .corps
                .iter()
                .map(|c| Corps {
                    id: c.id.get_ref().clone(),
                    power: c.power.get_ref().clone(),
                    kind: c.kind,
                    factors: c.factors,
                    morale: c.morale.0,
                    area: area(&c.area),
                    moved: false,
                    in_city: false,
                    artillery: c.artillery,
                    eliminated: c.factors == 0,
                })
                .collect(),
            leaders: state
                .leaders
                .iter()
                .map(|l| Leader {
                    id: l.id.get_ref().clone(),
                    power: l.power.get_ref().clone(),
                    rating: l.rating,
                    seniority: l.seniority,
                    area: area(&l.area),
                })
                .collect(),
            alliances: state.alliances.clone(),
        }
    }

    /// Whether `a` and `b` are the same power or allies.
    pub fn friendly(&self, a: &str, b: &str) -> bool {
        a == b
            || self
                .alliances
                .iter()
                .any(|g| g.iter().any(|p| p == a) && g.iter().any(|p| p == b))
    }

    /// Whether `area` holds corps of a power hostile to `power`.
    pub fn enemies_in(&self, area: usize, power: &str) -> bool {
        self.powers_in(area)
            .iter()
            .any(|p| !self.friendly(p, power))
    }

    /// Indices of the corps standing in `area`, in state order.
    pub fn corps_in(&self, area: usize) -> Vec<usize> {
        (0..self.corps.len())
            .filter(|&i| !self.corps[i].eliminated && self.corps[i].area == area)
            .collect()
    }

    /// The powers with corps in `area`, sorted.
    pub fn powers_in(&self, area: usize) -> std::collections::BTreeSet<String> {
        self.corps_in(area)
            .into_iter()
            .map(|i| self.corps[i].power.clone())
            .collect()
    }

    /// (power, area) of every unit on the board, for visibility.
    pub fn positions(&self) -> Vec<(String, usize)> {
        self.corps
            .iter()
            .filter(|c| !c.eliminated)
            .map(|c| (c.power.clone(), c.area))
            .chain(self.leaders.iter().map(|l| (l.power.clone(), l.area)))
            .collect()
    }

    pub fn find_corps(&self, id: &str) -> Option<usize> {
        self.corps.iter().position(|c| c.id == id)
    }

    pub fn find_leader(&self, id: &str) -> Option<usize> {
        self.leaders.iter().position(|l| l.id == id)
    }

    /// Writes the board back into a copy of `base` for the next turn.
    pub fn to_state(&self, map: &Map, base: &State) -> State {
        let mut next = base.clone();
        next.turn = base.turn + 1;
        next.corps = base
            .corps
            .iter()
            .zip(&self.corps)
            .filter(|(_, b)| !b.eliminated)
            .map(|(c, b)| {
                let mut c = c.clone();
                c.factors = b.factors;
                c.area = Spanned::new(0..0, map.area(b.area).id.clone());
                c
            })
            .collect();
        for (l, b) in next.leaders.iter_mut().zip(&self.leaders) {
            l.area = Spanned::new(0..0, map.area(b.area).id.clone());
        }
        next
    }
}
