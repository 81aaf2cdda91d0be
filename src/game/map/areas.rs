//! The map of named areas with explicit adjacency (`map.toml` of EiA and PoG): the areas of the board,
//! land and sea, their adjacency, cities, depots, capitals and ports.
//!
//! Area ids are matched case-insensitively; the map keeps them as the file spells them.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::Deserialize;
use toml::Spanned;

use super::terrain::Terrain;
use super::Topology;
use crate::diag::{did_you_mean, Diagnostic};

/// The map as written in `map.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    #[serde(rename = "area")]
    pub areas: Vec<AreaFile>,
}

/// One `[[area]]` of `map.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaFile {
    pub id: Spanned<String>,
    pub kind: AreaKind,
    #[serde(default)]
    pub terrain: Terrain,
    /// The nation the area belongs to at the start (display only).
    #[serde(default)]
    pub nation: Option<String>,
    /// Position on the picture of the map, in map units (x right, y down).
    pub xy: [i32; 2],
    /// Neighbouring areas, land or sea. Adjacency must be declared on both sides.
    pub adjacent: Vec<Spanned<String>>,
    #[serde(default)]
    pub city: Option<City>,
    #[serde(default)]
    pub depot: bool,
    /// The power whose national capital this is.
    #[serde(default)]
    pub capital: Option<Spanned<String>>,
    /// The power whose border province this is: an enemy entering it may raise insurrection corps
    /// (EiA 10.1.4.1).
    #[serde(default)]
    pub border: Option<Spanned<String>>,
    /// A land area with a port: fleets may enter it from adjacent sea areas.
    #[serde(default)]
    pub port: bool,
    /// A fort and its combat factor (PoG 12.2.2 adds it to the defender's strength).
    #[serde(default)]
    pub fort: Option<u32>,
    /// A supply source of this power (PoG 11.1.5: units entering a space that traces to none stop).
    #[serde(default)]
    pub supply: Option<Spanned<String>>,
    /// Connections drawn dotted: usable only by the nations named (PoG 11.1.3, 12.1.9). Each must also
    /// be in `adjacent`; declaring it on one side is enough.
    #[serde(default)]
    pub dotted: Vec<DottedFile>,
}

/// One dotted connection of `map.toml`: `{ to = "Poti", nations = ["ru"] }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DottedFile {
    pub to: Spanned<String>,
    pub nations: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AreaKind {
    Land,
    Sea,
}

/// A city that corps can retire into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct City {
    /// How many corps fit in it.
    pub garrison: u32,
    /// Fortress level, 0 for an open city.
    #[serde(default)]
    pub fortress: u32,
}

/// An area of the loaded map.
#[derive(Debug, Clone)]
pub struct Area {
    pub id: String,
    pub kind: AreaKind,
    pub terrain: Terrain,
    pub nation: Option<String>,
    pub xy: [i32; 2],
    /// Indices of neighbours, sorted.
    pub adjacent: Vec<usize>,
    pub city: Option<City>,
    pub depot: bool,
    pub capital: Option<String>,
    pub border: Option<String>,
    pub port: bool,
    pub fort: Option<u32>,
    /// The power this space supplies, lower case.
    pub supply: Option<String>,
    /// Dotted connections: neighbour index to the nations that may use it (lower case).
    pub dotted: BTreeMap<usize, Vec<String>>,
}

impl Area {
    pub fn is_land(&self) -> bool {
        self.kind == AreaKind::Land
    }
}

/// The loaded, checked map. Areas are kept in the file's order; lookups are case-insensitive.
#[derive(Debug, Clone)]
pub struct Map {
    pub areas: Vec<Area>,
    index: BTreeMap<String, usize>,
}

impl Map {
    /// The areas view of a hex or grid map, which the engine (fog of war, the reports and their
    /// picture) works on: one land area per place, named as the map names it, adjacent to its
    /// neighbours, at its place on the picture. Its terrain is the closed `Terrain` of the place's word
    /// when it has one, `clear` otherwise: a ruleset of hexes or squares reads terrain and hexsides
    /// from the map itself (`Game::geometry`), never from this view.
    pub fn view_of<T: Topology>(map: &T) -> Map {
        let places = map.places();
        let at: BTreeMap<T::Place, usize> =
            places.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        let mut index = BTreeMap::new();
        let areas = places
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let id = map.place_name(p);
                index.insert(id.to_lowercase(), i);
                let mut adjacent: Vec<usize> = map
                    .neighbours(p)
                    .iter()
                    .filter_map(|n| at.get(n).copied())
                    .collect();
                adjacent.sort_unstable();
                adjacent.dedup();
                Area {
                    id,
                    kind: AreaKind::Land,
                    terrain: Terrain::from_name(map.terrain(p)).unwrap_or_default(),
                    nation: None,
                    xy: map.picture_xy(p),
                    adjacent,
                    city: None,
                    depot: false,
                    capital: None,
                    border: None,
                    port: false,
                    fort: None,
                    supply: None,
                    dotted: BTreeMap::new(),
                }
            })
            .collect();
        Map { areas, index }
    }

    /// Builds the map from its file, checking every reference. Returns every problem found.
    pub fn from_file(file: MapFile, powers: &[&str]) -> Result<Map, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let mut index = BTreeMap::new();
        for (i, a) in file.areas.iter().enumerate() {
            let id = a.id.get_ref();
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                errors.push(
                    Diagnostic::error(format!("area id '{id}' is not a plain word"), a.id.span())
                        .hint("area ids are ASCII letters, digits and '-', so that orders and dice labels can name them"),
                );
            }
            if index.insert(id.to_lowercase(), i).is_some() {
                errors.push(Diagnostic::error(
                    format!("area '{id}' is declared twice"),
                    a.id.span(),
                ));
            }
        }
        let names: Vec<&str> = file.areas.iter().map(|a| a.id.get_ref().as_str()).collect();
        let mut areas = Vec::with_capacity(file.areas.len());
        for a in &file.areas {
            let mut adjacent = BTreeSet::new();
            for n in &a.adjacent {
                match index.get(&n.get_ref().to_lowercase()) {
                    Some(&j) => {
                        adjacent.insert(j);
                    }
                    None => errors.push(
                        Diagnostic::error(
                            format!("road to nowhere: no area '{}'", n.get_ref()),
                            n.span(),
                        )
                        .label("not declared in this file")
                        .maybe_hint(
                            did_you_mean(n.get_ref(), names.iter().copied())
                                .map(|s| format!("did you mean '{s}'?")),
                        ),
                    ),
                }
            }
            if let Some(b) = &a.border {
                if !powers.iter().any(|p| p.eq_ignore_ascii_case(b.get_ref())) {
                    errors.push(
                        Diagnostic::error(
                            format!("border of an unknown power '{}'", b.get_ref()),
                            b.span(),
                        )
                        .hint(format!("powers in game.toml: {}", powers.join(", "))),
                    );
                }
            }
            if let Some(c) = &a.capital {
                if !powers.iter().any(|p| p.eq_ignore_ascii_case(c.get_ref())) {
                    errors.push(
                        Diagnostic::error(
                            format!("capital of an unknown power '{}'", c.get_ref()),
                            c.span(),
                        )
                        .hint(format!("powers in game.toml: {}", powers.join(", "))),
                    );
                }
            }
            if a.kind == AreaKind::Sea
                && (a.city.is_some() || a.depot || a.port || a.capital.is_some())
            {
                errors.push(
                    Diagnostic::error(
                        format!(
                            "sea area '{}' has a city, depot, port or capital",
                            a.id.get_ref()
                        ),
                        a.id.span(),
                    )
                    .hint("only land areas hold cities, depots, ports and capitals"),
                );
            }
            areas.push(Area {
                id: a.id.get_ref().clone(),
                kind: a.kind,
                terrain: a.terrain,
                nation: a.nation.clone(),
                xy: a.xy,
                adjacent: adjacent.into_iter().collect(),
                city: a.city,
                depot: a.depot,
                capital: a.capital.as_ref().map(|c| c.get_ref().to_lowercase()),
                border: a.border.as_ref().map(|c| c.get_ref().to_lowercase()),
                port: a.port,
                fort: a.fort,
                supply: a.supply.as_ref().map(|c| c.get_ref().to_lowercase()),
                dotted: BTreeMap::new(),
            });
        }
        // Dotted connections, declared on either side, hold on both.
        for (i, a) in file.areas.iter().enumerate() {
            if let Some(sup) = &a.supply {
                if !powers.iter().any(|p| p.eq_ignore_ascii_case(sup.get_ref())) {
                    errors.push(
                        Diagnostic::error(
                            format!("supply source of an unknown power '{}'", sup.get_ref()),
                            sup.span(),
                        )
                        .hint(format!("powers in game.toml: {}", powers.join(", "))),
                    );
                }
            }
            for d in &a.dotted {
                let Some(&j) = index.get(&d.to.get_ref().to_lowercase()) else {
                    errors.push(
                        Diagnostic::error(
                            format!("dotted line to nowhere: no area '{}'", d.to.get_ref()),
                            d.to.span(),
                        )
                        .maybe_hint(
                            did_you_mean(d.to.get_ref(), names.iter().copied())
                                .map(|s| format!("did you mean '{s}'?")),
                        ),
                    );
                    continue;
                };
                if !areas[i].adjacent.contains(&j) {
                    errors.push(
                        Diagnostic::error(
                            format!(
                                "'{}' has a dotted line to '{}', which is not in its adjacent list",
                                a.id.get_ref(),
                                d.to.get_ref()
                            ),
                            d.to.span(),
                        )
                        .hint("list every neighbour in `adjacent`; `dotted` only says which of them are dotted"),
                    );
                    continue;
                }
                let nations: Vec<String> = d.nations.iter().map(|n| n.to_lowercase()).collect();
                areas[i].dotted.insert(j, nations.clone());
                areas[j].dotted.insert(i, nations);
            }
        }
        // Adjacency must be mutual: a one-way road is a typo in the map.
        if errors.is_empty() {
            for (i, a) in file.areas.iter().enumerate() {
                for n in &a.adjacent {
                    let j = index[&n.get_ref().to_lowercase()];
                    if i == j {
                        errors.push(Diagnostic::error(
                            format!("area '{}' is adjacent to itself", a.id.get_ref()),
                            n.span(),
                        ));
                    } else if !areas[j].adjacent.contains(&i) {
                        errors.push(
                            Diagnostic::error(
                                format!(
                                    "'{}' lists '{}' as adjacent, but not the other way round",
                                    a.id.get_ref(),
                                    n.get_ref()
                                ),
                                n.span(),
                            )
                            .hint(format!(
                                "add \"{}\" to the adjacent list of '{}'",
                                a.id.get_ref(),
                                areas[j].id
                            )),
                        );
                    }
                }
            }
        }
        if errors.is_empty() {
            Ok(Map { areas, index })
        } else {
            Err(errors)
        }
    }

    /// The index of an area by id, case-insensitively.
    pub fn find(&self, id: &str) -> Option<usize> {
        // An ASCII id of a usual length is lowered on the stack: a turn looks up ids by the
        // hundred thousand (issue 39).
        let mut buf = [0u8; 64];
        match buf.get_mut(..id.len()) {
            Some(lowered) if id.is_ascii() => {
                lowered.copy_from_slice(id.as_bytes());
                lowered.make_ascii_lowercase();
                let lowered = std::str::from_utf8(lowered).ok()?;
                self.index.get(lowered).copied()
            }
            _ => self.index.get(&id.to_lowercase()).copied(),
        }
    }

    pub fn area(&self, i: usize) -> &Area {
        &self.areas[i]
    }

    /// The area with this id; panics if there is none (ids in a loaded state are checked).
    pub fn get(&self, id: &str) -> &Area {
        &self.areas[self
            .find(id)
            .unwrap_or_else(|| panic!("area '{id}' was checked at load time"))]
    }

    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.areas.iter().map(|a| a.id.as_str())
    }

    /// A hint for a misspelt area id.
    pub fn suggest(&self, id: &str) -> Option<String> {
        did_you_mean(id, self.ids()).map(|s| format!("did you mean '{s}'?"))
    }

    pub fn adjacent(&self, a: usize, b: usize) -> bool {
        self.areas[a].adjacent.binary_search(&b).is_ok()
    }

    /// Whether units of `nation` may cross from `a` to `b`: the areas are adjacent, and a dotted
    /// connection names the nation (PoG 11.1.3, 12.1.9).
    pub fn connected_for(&self, a: usize, b: usize, nation: &str) -> bool {
        self.adjacent(a, b)
            && self.areas[a]
                .dotted
                .get(&b)
                .is_none_or(|n| n.iter().any(|x| x.eq_ignore_ascii_case(nation)))
    }

    /// Whether `a` and `b` are joined by a solid line (adjacent, and not dotted).
    pub fn solid(&self, a: usize, b: usize) -> bool {
        self.adjacent(a, b) && !self.areas[a].dotted.contains_key(&b)
    }

    /// Land distance (in moves) from every area to the nearest area of `targets`, over land only.
    /// `None` where no land path leads to a target.
    pub fn land_distances(&self, targets: &[usize]) -> Vec<Option<u32>> {
        let mut dist = vec![None; self.areas.len()];
        let mut queue = VecDeque::new();
        for &t in targets {
            if dist[t].is_none() {
                dist[t] = Some(0);
                queue.push_back(t);
            }
        }
        while let Some(a) = queue.pop_front() {
            let d = dist[a].unwrap_or(0);
            for &n in &self.areas[a].adjacent {
                if self.areas[n].is_land() && dist[n].is_none() {
                    dist[n] = Some(d + 1);
                    queue.push_back(n);
                }
            }
        }
        dist
    }
}

impl Topology for Map {
    type Place = usize;

    fn parse_place(&self, text: &str) -> Result<usize, super::BadPlace> {
        self.find(text).ok_or_else(|| super::BadPlace {
            message: format!("no area '{text}' on the map"),
            hint: self.suggest(text),
        })
    }

    fn place_name(&self, place: usize) -> String {
        self.areas[place].id.clone()
    }

    fn neighbours(&self, place: usize) -> Vec<usize> {
        self.areas[place].adjacent.clone()
    }

    fn terrain(&self, place: usize) -> &str {
        self.areas[place].terrain.name()
    }

    fn places(&self) -> Vec<usize> {
        (0..self.areas.len()).collect()
    }

    fn picture_xy(&self, place: usize) -> [i32; 2] {
        self.areas[place].xy
    }
}

#[cfg(test)]
mod tests {
    /// An area is found whatever the case of its id, on the stack or not (an id past 64 bytes, or
    /// not ASCII, is lowered into a new string).
    #[test]
    fn an_area_is_found_by_its_id_in_any_case() {
        let map = crate::rules::eia::test_fixture::map();
        let first = map.areas[0].id.clone();
        for id in [first.clone(), first.to_uppercase(), first.to_lowercase()] {
            assert_eq!(map.find(&id), Some(0), "{id}");
        }
        assert_eq!(map.find(&"x".repeat(65)), None);
        assert_eq!(map.find("é"), None);
        assert_eq!(map.find(""), None);
    }
}
