//! The working position of an EiA turn: the state's units with area indices instead of names, changed
//! step by step by movement and combat, and written back into a `State` at the end.

use std::cell::{OnceCell, Ref, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Deref, DerefMut, IndexMut};
use std::rc::Rc;

use toml::Spanned;

use crate::game::map::Map;
use crate::game::state::State;
use crate::rules::eia::state::{CorpsKind, EiaState};

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
    /// In the city of its area: its garrison from an earlier turn (`in_city` in the state), or retired
    /// into it this turn (EiA 7.5.1.1).
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

/// Land distances from every area to the nearest of a set of areas (`Map::land_distances`).
type Distances = Rc<Vec<Option<u32>>>;

/// The position during resolution. Corps and leaders keep the state's order.
///
/// The board keeps an index of where its units stand (corps by area, powers by area), so that the
/// questions a combat asks cost what the area holds, not what the board holds. The index follows
/// every change without help from the code that moves units: `corps` and `leaders` are [`Units`],
/// which note each unit borrowed mutably (`board.corps[i].area = to`), and the index catches up with
/// those before it answers. Unit ids never change during a resolution.
#[derive(Debug, Clone)]
pub struct Board {
    pub corps: Units<Corps>,
    pub leaders: Units<Leader>,
    /// The alliances of the state.
    pub alliances: Vec<Vec<String>>,
    /// Where the units stand, as of the last query; shared with the [`Sightings`] taken from it.
    index: RefCell<Rc<Index>>,
    /// Land distances to the sets of areas that a bounded search ([`Board::nearest`]) went through
    /// to the end, by the set: they depend on the map alone.
    distances: RefCell<BTreeMap<Vec<usize>, Distances>>,
    /// The areas each bounded search reached, by the number of the search, and the map's steps by
    /// land that the searches take.
    marks: RefCell<Marks>,
}

/// Which search last reached each area: a mark per area, reused by every search of the board; and
/// the steps by land from each area, packed for those searches.
#[derive(Debug, Clone, Default)]
struct Marks {
    search: u32,
    at: Vec<u32>,
    steps: LandSteps,
}

/// The land areas adjacent to each area of a map (`Map::land_distances` steps into land areas only),
/// one slice of `to` per area: `to[from[a]..from[a + 1]]`.
#[derive(Debug, Clone, Default)]
struct LandSteps {
    from: Vec<u32>,
    to: Vec<u32>,
}

impl LandSteps {
    fn of(map: &Map) -> LandSteps {
        let mut steps = LandSteps {
            from: Vec::with_capacity(map.areas.len() + 1),
            to: Vec::new(),
        };
        steps.from.push(0);
        for a in &map.areas {
            let land = a.adjacent.iter().filter(|&&n| map.area(n).is_land());
            steps.to.extend(land.map(|&n| n as u32));
            steps.from.push(steps.to.len() as u32);
        }
        steps
    }

    fn of_area(&self, a: usize) -> &[u32] {
        &self.to[self.from[a] as usize..self.from[a + 1] as usize]
    }
}

impl Marks {
    /// Starts a new search on `map`: no area is marked by it yet.
    fn start(&mut self, map: &Map) -> u32 {
        if self.at.len() < map.areas.len() {
            self.at.resize(map.areas.len(), 0);
            self.steps = LandSteps::of(map);
        }
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.at.fill(0);
            self.search = 1;
        }
        self.search
    }
}

impl Board {
    pub fn new(map: &Map, state: &State) -> Board {
        let area = |a: &Spanned<String>| {
            map.find(a.get_ref())
                .expect("state references are checked at load")
        };
        let pieces = EiaState::of(state);
        Board {
            corps: pieces
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
                    in_city: c.in_city,
                    artillery: c.artillery,
                    eliminated: c.factors == 0,
                })
                .collect(),
            leaders: pieces
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
            index: RefCell::default(),
            distances: RefCell::default(),
            marks: RefCell::default(),
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
        self.index()
            .corps_by_area
            .get(area)
            .cloned()
            .unwrap_or_default()
    }

    /// Indices of the leaders standing in `area`, in state order.
    pub fn leaders_in(&self, area: usize) -> Vec<usize> {
        self.index()
            .leaders_by_area
            .get(area)
            .cloned()
            .unwrap_or_default()
    }

    /// The powers with corps in `area`, sorted.
    pub fn powers_in(&self, area: usize) -> BTreeSet<String> {
        let index = self.index();
        let Some(corps) = index.corps_by_area.get(area) else {
            return BTreeSet::new();
        };
        corps.iter().map(|&i| self.corps[i].power.clone()).collect()
    }

    /// Indices of the corps standing in the areas adjacent to `area`, in state order: the corps
    /// `i` for which `map.adjacent(corps[i].area, area)` (adjacency is mutual on a loaded map).
    pub fn corps_adjacent_to(&self, map: &Map, area: usize) -> Vec<usize> {
        let index = self.index();
        let mut out: Vec<usize> = map
            .area(area)
            .adjacent
            .iter()
            .filter_map(|&n| index.corps_by_area.get(n))
            .flatten()
            .copied()
            .collect();
        out.sort_unstable();
        out
    }

    /// (power, area) of every unit on the board, for visibility: corps that are not eliminated, in
    /// state order, then leaders. A snapshot: later moves do not change it. Taking one costs nothing;
    /// the board copies its index only if it changes while the snapshot lives.
    pub fn positions(&self) -> Sightings {
        self.sync();
        Sightings {
            index: Rc::clone(&self.index.borrow()),
            list: OnceCell::new(),
        }
    }

    pub fn find_corps(&self, id: &str) -> Option<usize> {
        self.index().corps_ids.get(id).copied()
    }

    pub fn find_leader(&self, id: &str) -> Option<usize> {
        self.index().leader_ids.get(id).copied()
    }

    /// How far each of `candidates` is from the nearest of `targets` by land (`Map::land_distances`),
    /// for those that are nearest: each candidate at the least distance gets it, every other one
    /// `u32::MAX` (all of them when none can reach a target). What a retreat asks (EiA 7.5.2.10.3).
    ///
    /// The search goes out from the targets one step at a time and stops at the first step that
    /// reaches a candidate, so it costs the areas within that distance of the targets, not the map.
    /// A search that goes through the whole map keeps its distances for the next one to the same
    /// targets.
    pub fn nearest(&self, map: &Map, targets: &[usize], candidates: &[usize]) -> Vec<u32> {
        let mut out = vec![u32::MAX; candidates.len()];
        if candidates.is_empty() || targets.is_empty() {
            return out;
        }
        if let Some(dist) = self.distances.borrow().get(targets) {
            let of = |c: usize| dist[c].unwrap_or(u32::MAX);
            let best = candidates.iter().map(|&c| of(c)).min();
            for (k, &c) in candidates.iter().enumerate() {
                if Some(of(c)) == best {
                    out[k] = of(c);
                }
            }
            return out;
        }
        let mut marks = self.marks.borrow_mut();
        let search = marks.start(map);
        let Marks { at, steps, .. } = &mut *marks;
        let (mut frontier, mut next) = (Vec::new(), Vec::new());
        for &t in targets {
            if at[t] != search {
                at[t] = search;
                frontier.push(t);
            }
        }
        let mut step = 0;
        loop {
            // Every area marked is within `step`; the candidates were not within `step - 1`.
            let mut found = false;
            for (k, &c) in candidates.iter().enumerate() {
                if at[c] == search {
                    out[k] = step;
                    found = true;
                }
            }
            if found {
                return out;
            }
            if frontier.is_empty() {
                break;
            }
            next.clear();
            for &a in &frontier {
                for &n in steps.of_area(a) {
                    let n = n as usize;
                    if at[n] != search {
                        at[n] = search;
                        next.push(n);
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
            step += 1;
        }
        // No candidate can reach the targets: the search went through all it could.
        self.distances
            .borrow_mut()
            .insert(targets.to_vec(), Rc::new(map.land_distances(targets)));
        out
    }

    /// The index, brought up to date with every unit borrowed mutably since the last query.
    fn index(&self) -> Ref<'_, Rc<Index>> {
        self.sync();
        self.index.borrow()
    }

    fn sync(&self) {
        let mut corps = self.corps.touched.borrow_mut();
        let mut leaders = self.leaders.touched.borrow_mut();
        if corps.is_clean() && leaders.is_clean() {
            return;
        }
        let mut shared = self.index.borrow_mut();
        // Copies the index if a snapshot still holds it, so that the snapshot stays as it was.
        let index = Rc::make_mut(&mut shared);
        if corps.all || leaders.all {
            *index = Index::default();
            for (i, c) in self.corps.iter().enumerate() {
                index.place_corps(i, c);
            }
            for (i, l) in self.leaders.iter().enumerate() {
                index.place_leader(i, l);
            }
        } else {
            for &i in &corps.list {
                index.place_corps(i, &self.corps.items[i]);
            }
            for &i in &leaders.list {
                index.place_leader(i, &self.leaders.items[i]);
            }
        }
        corps.clear();
        leaders.clear();
    }

    /// Writes the board back into a copy of `base` for the next turn. A corps in a city stays in it:
    /// one that marched or retreated out, or fell with the city, has left it by then.
    pub fn to_state(&self, map: &Map, base: &State) -> State {
        let mut next = base.clone();
        next.turn = base.turn + 1;
        let next_pieces = EiaState::of_mut(&mut next);
        // The corps copied with the state are changed where they stand, not copied again.
        for (c, b) in next_pieces.corps.iter_mut().zip(&self.corps) {
            if !b.eliminated {
                c.factors = b.factors;
                c.area = Spanned::new(0..0, map.area(b.area).id.clone());
                c.in_city = b.in_city;
            }
        }
        let mut standing = self.corps.iter().map(|b| !b.eliminated);
        next_pieces
            .corps
            .retain(|_| standing.next().unwrap_or(false));
        for (l, b) in next_pieces.leaders.iter_mut().zip(&self.leaders) {
            l.area = Spanned::new(0..0, map.area(b.area).id.clone());
        }
        next
    }
}

/// The units of one kind on a board: a vector that notes which of its items were borrowed mutably,
/// so that the board's index can catch up with them. Reads are those of a slice; `units[i]` in a
/// place that needs `&mut` notes `i`, and any other mutable access (`iter_mut`, `swap`, ...) notes
/// every unit.
#[derive(Debug, Clone)]
pub struct Units<T> {
    items: Vec<T>,
    touched: RefCell<Touched>,
}

/// Which units were borrowed mutably since the index last caught up.
#[derive(Debug, Clone, Default)]
struct Touched {
    all: bool,
    list: Vec<usize>,
}

impl Touched {
    fn is_clean(&self) -> bool {
        !self.all && self.list.is_empty()
    }

    fn clear(&mut self) {
        self.all = false;
        self.list.clear();
    }
}

impl<T> Units<T> {
    pub fn push(&mut self, item: T) {
        self.touched.get_mut().list.push(self.items.len());
        self.items.push(item);
    }
}

impl<T> Default for Units<T> {
    fn default() -> Self {
        Units {
            items: Vec::new(),
            touched: RefCell::default(),
        }
    }
}

impl<T> FromIterator<T> for Units<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Units {
            items: iter.into_iter().collect(),
            touched: RefCell::new(Touched {
                all: true,
                list: Vec::new(),
            }),
        }
    }
}

impl<T> Deref for Units<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<T> DerefMut for Units<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.touched.get_mut().all = true;
        &mut self.items
    }
}

impl<T> std::ops::Index<usize> for Units<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        &self.items[i]
    }
}

impl<T> IndexMut<usize> for Units<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        self.touched.get_mut().list.push(i);
        &mut self.items[i]
    }
}

impl<'a, T> IntoIterator for &'a Units<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut Units<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.deref_mut().iter_mut()
    }
}

/// Where the units of a board stand.
#[derive(Debug, Clone, Default)]
struct Index {
    /// The powers met, by number, and their numbers.
    powers: Vec<String>,
    numbers: BTreeMap<String, u32>,
    /// Corps and leader ids to their first index (ids never change during a resolution).
    corps_ids: BTreeMap<String, usize>,
    leader_ids: BTreeMap<String, usize>,
    /// Where each corps is counted: (area, power), `None` when eliminated.
    corps_at: Vec<Option<(usize, u32)>>,
    /// Where each leader is counted: (area, power).
    leaders_at: Vec<Option<(usize, u32)>>,
    /// The corps that are not eliminated in each area, in state order.
    corps_by_area: Vec<Vec<usize>>,
    /// The leaders in each area, in state order.
    leaders_by_area: Vec<Vec<usize>>,
    /// The units (corps not eliminated, leaders) of each power in each area: (power, count).
    units_by_area: Vec<Vec<(u32, u32)>>,
}

impl Index {
    fn number(&mut self, power: &str) -> u32 {
        if let Some(&n) = self.numbers.get(power) {
            return n;
        }
        let n = self.powers.len() as u32;
        self.powers.push(power.to_string());
        self.numbers.insert(power.to_string(), n);
        n
    }

    /// The number of `power`, who was power number `was` when last asked: a power's units stay
    /// its own through a turn, so this is checked, not looked up again among a thousand names.
    fn number_again(&mut self, power: &str, was: Option<(usize, u32)>) -> u32 {
        match was {
            Some((_, n)) if self.powers[n as usize] == power => n,
            _ => self.number(power),
        }
    }

    fn place_corps(&mut self, i: usize, c: &Corps) {
        let was = self.corps_at.get(i).copied().flatten();
        let now = (!c.eliminated).then(|| (c.area, self.number_again(&c.power, was)));
        if self.corps_at.len() <= i {
            self.corps_at.resize(i + 1, None);
            self.corps_ids.entry(c.id.clone()).or_insert(i);
        }
        let was = std::mem::replace(&mut self.corps_at[i], now);
        if was == now {
            return;
        }
        if let Some((area, power)) = was {
            let list = &mut self.corps_by_area[area];
            if let Ok(k) = list.binary_search(&i) {
                list.remove(k);
            }
            self.count(area, power, -1);
        }
        if let Some((area, power)) = now {
            self.grow(area);
            let list = &mut self.corps_by_area[area];
            if let Err(k) = list.binary_search(&i) {
                list.insert(k, i);
            }
            self.count(area, power, 1);
        }
    }

    fn place_leader(&mut self, i: usize, l: &Leader) {
        let was = self.leaders_at.get(i).copied().flatten();
        let now = Some((l.area, self.number_again(&l.power, was)));
        if self.leaders_at.len() <= i {
            self.leaders_at.resize(i + 1, None);
            self.leader_ids.entry(l.id.clone()).or_insert(i);
        }
        let was = std::mem::replace(&mut self.leaders_at[i], now);
        if was == now {
            return;
        }
        if let Some((area, power)) = was {
            let list = &mut self.leaders_by_area[area];
            if let Ok(k) = list.binary_search(&i) {
                list.remove(k);
            }
            self.count(area, power, -1);
        }
        if let Some((area, power)) = now {
            self.grow(area);
            let list = &mut self.leaders_by_area[area];
            if let Err(k) = list.binary_search(&i) {
                list.insert(k, i);
            }
            self.count(area, power, 1);
        }
    }

    fn grow(&mut self, area: usize) {
        if self.corps_by_area.len() <= area {
            self.corps_by_area.resize_with(area + 1, Vec::new);
            self.leaders_by_area.resize_with(area + 1, Vec::new);
            self.units_by_area.resize_with(area + 1, Vec::new);
        }
    }

    fn count(&mut self, area: usize, power: u32, by: i32) {
        let list = &mut self.units_by_area[area];
        match list.iter().position(|&(p, _)| p == power) {
            Some(k) => {
                let n = list[k].1.saturating_add_signed(by);
                if n == 0 {
                    list.remove(k);
                } else {
                    list[k].1 = n;
                }
            }
            None if by > 0 => list.push((power, by as u32)),
            None => {}
        }
    }
}

/// Where the units of a board stood when it was taken ([`Board::positions`]): the list of (power,
/// area) of every unit, as a slice, and the powers standing in each area, which answer
/// [`Sightings::watchers`] without going through the list.
#[derive(Debug, Clone)]
pub struct Sightings {
    index: Rc<Index>,
    list: OnceCell<Vec<(String, usize)>>,
}

impl Sightings {
    /// The powers with a unit within `range` steps of `area` (0: in it).
    pub fn watchers(&self, map: &Map, range: u32, area: usize) -> BTreeSet<String> {
        let mut powers = Vec::new();
        self.watcher_numbers(map, range, area, &mut powers);
        powers.sort_unstable();
        powers.dedup();
        powers
            .into_iter()
            .map(|p| self.power(p).to_string())
            .collect()
    }

    /// The power of number `p` in [`Sightings::watcher_numbers`].
    pub fn power(&self, p: u32) -> &str {
        &self.index.powers[p as usize]
    }

    /// The powers of [`Sightings::watchers`] by their number ([`Sightings::power`]), added to
    /// `powers` (unsorted, perhaps twice): what an event's audience is made of without a name
    /// copied until the audience keeps it (issue 39).
    pub fn watcher_numbers(&self, map: &Map, range: u32, area: usize, powers: &mut Vec<u32>) {
        if area >= map.areas.len() {
            return;
        }
        let units_in = |a: usize| self.index.units_by_area.get(a).into_iter().flatten();
        if range == 1 {
            // The usual range: the area and its neighbours, read where they stand (an event's
            // audience, some 200,000 times a turn at 1,000 powers: issue 39).
            let near = std::iter::once(area).chain(map.area(area).adjacent.iter().copied());
            powers.extend(near.flat_map(units_in).map(|&(p, _)| p));
            return;
        }
        // The areas within `range`.
        let mut near = vec![area];
        near.extend(map.area(area).adjacent.iter().copied());
        if range != 1 {
            let mut seen = BTreeSet::from([area]);
            let mut frontier = vec![area];
            // A frontier that ran dry has reached every area: a range of `u32::MAX` (a sight of
            // everything) stops there rather than counting on.
            for _ in 0..range {
                if frontier.is_empty() {
                    break;
                }
                let mut next = Vec::new();
                for a in frontier {
                    for &n in &map.area(a).adjacent {
                        if seen.insert(n) {
                            next.push(n);
                        }
                    }
                }
                frontier = next;
            }
            near = seen.into_iter().collect();
        }
        powers.extend(near.into_iter().flat_map(units_in).map(|&(p, _)| p));
    }
}

impl Deref for Sightings {
    type Target = [(String, usize)];

    fn deref(&self) -> &[(String, usize)] {
        self.list.get_or_init(|| {
            let index = &self.index;
            index
                .corps_at
                .iter()
                .chain(&index.leaders_at)
                .flatten()
                .map(|&(area, p)| (index.powers[p as usize].clone(), area))
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    //! The index answers as the plain scans of the whole board would, whatever changes the units.
    use super::*;
    use crate::dice::Roller;
    use crate::game::map::MapFile;

    const SIDE: usize = 5;
    const POWERS: [&str; 4] = ["blue", "red", "grey", "green"];

    fn grid() -> Map {
        let id = |x: usize, y: usize| format!("\"G{x}-{y}\"");
        let mut text = String::new();
        for y in 0..SIDE {
            for x in 0..SIDE {
                let mut adj = Vec::new();
                if x > 0 {
                    adj.push(id(x - 1, y));
                }
                if x + 1 < SIDE {
                    adj.push(id(x + 1, y));
                }
                if y > 0 {
                    adj.push(id(x, y - 1));
                }
                if y + 1 < SIDE {
                    adj.push(id(x, y + 1));
                }
                text.push_str(&format!(
                    "[[area]]\nid = {}\nkind = \"land\"\nxy = [{x}, {y}]\nadjacent = [{}]\n",
                    id(x, y),
                    adj.join(", ")
                ));
            }
        }
        let file: MapFile = toml::from_str(&text).unwrap();
        Map::from_file(file, &[]).unwrap()
    }

    fn board(map: &Map, r: &mut Roller) -> Board {
        let mut text = String::from("game = \"g\"\nturn = 1\n");
        let area = |r: &mut Roller| {
            map.area(r.die(map.areas.len() as u32) as usize - 1)
                .id
                .clone()
        };
        for i in 0..40 {
            text.push_str(&format!(
                "[[eia.corps]]\nid = \"C{i}\"\npower = \"{}\"\nkind = \"infantry\"\nfactors = {}\n\
                 morale = 3.0\nmovement = 3\narea = \"{}\"\n",
                POWERS[r.die(4) as usize - 1],
                r.die(4) - 1,
                area(r)
            ));
        }
        for i in 0..6 {
            text.push_str(&format!(
                "[[eia.leader]]\nid = \"L{i}\"\npower = \"{}\"\nrating = 3\nseniority = {i}\n\
                 movement = 4\narea = \"{}\"\n",
                POWERS[r.die(4) as usize - 1],
                area(r)
            ));
        }
        let state =
            crate::game::state::parse::<EiaState>(&crate::diag::Source::new("state.toml", text))
                .unwrap();
        Board::new(map, &state)
    }

    /// The scans the index replaces.
    fn naive_corps_in(b: &Board, area: usize) -> Vec<usize> {
        (0..b.corps.len())
            .filter(|&i| !b.corps[i].eliminated && b.corps[i].area == area)
            .collect()
    }

    fn naive_positions(b: &Board) -> Vec<(String, usize)> {
        b.corps
            .iter()
            .filter(|c| !c.eliminated)
            .map(|c| (c.power.clone(), c.area))
            .chain(b.leaders.iter().map(|l| (l.power.clone(), l.area)))
            .collect()
    }

    fn check(map: &Map, b: &Board) {
        let positions = naive_positions(b);
        let snapshot = b.positions();
        assert_eq!(&*snapshot, positions.as_slice());
        for a in 0..map.areas.len() {
            let corps = naive_corps_in(b, a);
            assert_eq!(b.corps_in(a), corps, "corps in area {a}");
            let leaders: Vec<usize> = (0..b.leaders.len())
                .filter(|&l| b.leaders[l].area == a)
                .collect();
            assert_eq!(b.leaders_in(a), leaders, "leaders in area {a}");
            let powers: BTreeSet<String> =
                corps.iter().map(|&i| b.corps[i].power.clone()).collect();
            assert_eq!(b.powers_in(a), powers);
            let adjacent: Vec<usize> = (0..b.corps.len())
                .filter(|&i| !b.corps[i].eliminated && map.adjacent(b.corps[i].area, a))
                .collect();
            assert_eq!(b.corps_adjacent_to(map, a), adjacent);
            for range in 0..3 {
                let sight = crate::engine::visibility::Sight {
                    range,
                    exact: range,
                };
                assert_eq!(
                    snapshot.watchers(map, range, a),
                    crate::engine::visibility::watchers(map, &positions, sight, a),
                    "watchers of area {a} within {range}"
                );
            }
        }
        for (i, c) in b.corps.iter().enumerate() {
            assert_eq!(b.find_corps(&c.id), Some(i));
        }
        for (i, l) in b.leaders.iter().enumerate() {
            assert_eq!(b.find_leader(&l.id), Some(i));
        }
        assert_eq!(b.find_corps("L0"), None);
        assert_eq!(b.find_leader("C0"), None);
    }

    #[test]
    fn the_index_follows_every_kind_of_change() {
        let map = grid();
        let n = map.areas.len() as u32;
        let mut r = Roller::new(&[9; 32], "board");
        let mut b = board(&map, &mut r);
        check(&map, &b);
        let mut snapshots = Vec::new();
        for step in 0..400 {
            let i = r.die(b.corps.len() as u32) as usize - 1;
            match r.die(9) {
                1..=3 => b.corps[i].area = r.die(n) as usize - 1,
                4 => {
                    let c = &mut b.corps[i];
                    c.factors = c.factors.saturating_sub(1);
                    c.eliminated = c.factors == 0;
                }
                5 => b.corps[i].eliminated = !b.corps[i].eliminated,
                6 => {
                    let l = r.die(b.leaders.len() as u32) as usize - 1;
                    b.leaders[l].area = r.die(n) as usize - 1;
                }
                7 => {
                    for c in b.corps.iter_mut().filter(|c| c.area == 0) {
                        c.area = 1;
                    }
                }
                8 => {
                    let to = r.die(n) as usize - 1;
                    for l in &mut b.leaders {
                        l.area = to;
                    }
                }
                _ => {
                    let mut c = b.corps[i].clone();
                    c.id = format!("N{step}");
                    b.corps.push(c);
                }
            }
            if step % 7 == 0 {
                snapshots.push((b.positions(), naive_positions(&b)));
            }
            check(&map, &b);
        }
        // A snapshot keeps the positions it was taken with.
        for (s, then) in &snapshots {
            assert_eq!(&**s, then.as_slice());
        }
        let copy = b.clone();
        check(&map, &copy);
    }

    /// A grid whose column `SIDE / 2` is sea from the second row down: land searches go round it by
    /// the first row, or not at all once `closed`.
    fn grid_with_sea(closed: bool) -> Map {
        let mut map = grid();
        for y in usize::from(!closed)..SIDE {
            map.areas[y * SIDE + SIDE / 2].kind = crate::game::map::AreaKind::Sea;
        }
        map
    }

    /// What `Board::nearest` must answer, from the map's distances over the whole map.
    fn naive_nearest(map: &Map, targets: &[usize], candidates: &[usize]) -> Vec<u32> {
        let dist = map.land_distances(targets);
        let of = |c: usize| dist[c].unwrap_or(u32::MAX);
        let best = candidates.iter().map(|&c| of(c)).min();
        candidates
            .iter()
            .map(|&c| if Some(of(c)) == best { of(c) } else { u32::MAX })
            .collect()
    }

    /// EiA 7.5.2.10.3 asks which open areas are nearest a depot: the bounded search answers as the
    /// map's distances do, on open land, round a sea, across no way at all, and again from the
    /// distances kept by a search that went through the whole map.
    #[test]
    fn nearest_answers_as_the_maps_distances() {
        let mut r = Roller::new(&[5; 32], "nearest");
        for closed in [false, true] {
            let map = grid_with_sea(closed);
            let b = board(&map, &mut r);
            let n = map.areas.len() as u32;
            for round in 0..300 {
                let pick = |r: &mut Roller, k: u32| -> Vec<usize> {
                    (0..r.die(k) - 1).map(|_| r.die(n) as usize - 1).collect()
                };
                let targets = pick(&mut r, 4);
                let candidates = pick(&mut r, 6);
                assert_eq!(
                    b.nearest(&map, &targets, &candidates),
                    naive_nearest(&map, &targets, &candidates),
                    "round {round}: targets {targets:?}, candidates {candidates:?}"
                );
            }
        }
    }
}
