//! The view of one power: everything its report may show, and nothing else. Events come in only if
//! the power is in their `visible_to`; foreign units only if they stand where the engine's visibility
//! service says the power sees, and only as precisely as it sees there.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::Serialize;

use crate::engine::event::Event;
use crate::engine::inputs::OrdersFileStatus;
use crate::engine::visibility::{Precision, Visibility};
use crate::game::sight::{Sighting, Viewer};
use crate::game::state::State;
use crate::game::Game;

use super::map::MapView;
use super::seen_events::{SeenEvents, TurnEvents};
use super::DiceHeader;

/// What the engine hands to the report of one power.
pub struct ReportInput<'a> {
    pub power: &'a str,
    pub turn: u32,
    pub state_before: &'a State,
    pub state_after: &'a State,
    /// The turn's events, shared by its reports: a view lists those it sees without copying them.
    pub events: &'a TurnEvents,
    pub orders: Option<&'a OrdersFileStatus>,
    pub header: &'a DiceHeader,
    pub next_commitment: &'a crate::dice::Bytes32,
    /// What every report of the turn shares, computed once: see [`TurnSight`].
    pub shared: &'a TurnSight,
    /// For the report of one player of a power with several: what his own command sees.
    pub command: Option<&'a CommandSight>,
}

/// What one player's command sees (`engine::command`): his units are those of his scope, his sight
/// theirs alone; he is told the events of his power at places his command saw before or after the
/// turn, and those at no place.
pub struct CommandSight {
    pub player: String,
    pub rank: String,
    pub scope: crate::game::config::Scope,
    /// His command's sight at the end of the turn: the units and the map it shows.
    pub after: Visibility,
    /// His command's sight at the start or the end of the turn: the events he is told.
    pub during: Visibility,
}

impl CommandSight {
    /// Whether an event of his power is his to know.
    fn tells(&self, game: &Game, power: &str, e: &Event) -> bool {
        match e.area.as_deref().and_then(|a| game.map.find(a)) {
            None => true,
            Some(i) => self.during.precision(power, i).is_some(),
        }
    }
}

/// What the reports of one turn share, computed once per turn rather than once per power, so that each
/// power's report costs what that power sees and not what the world holds: who sees which place after
/// the turn, every unit on the map as the ruleset describes it, and indexes of them by owner and by
/// area; the areas each power controls; the events each power sees and where each unit started the
/// turn (made on the first report, from its [`ReportInput`]: every report of a turn has the same
/// events and states).
pub struct TurnSight {
    pub sight: Visibility,
    pub units: Vec<crate::rules::UnitView>,
    /// Positions in `units` of each owner's units, in state order.
    by_owner: BTreeMap<String, Vec<usize>>,
    /// Positions in `units` of the units in each area, by area index, in state order.
    by_area: Vec<Vec<usize>>,
    /// The areas each power controls after the turn, by index, in map order.
    controlled: BTreeMap<String, Vec<usize>>,
    /// Each power's place in game.toml.
    rank: BTreeMap<String, usize>,
    /// The name each report gives the owner of a unit it sees, made once a turn.
    pub owner_names: Arc<OwnerNames>,
    /// Positions in the turn's events of those each power may see, in order.
    events_of: OnceLock<BTreeMap<String, Vec<usize>>>,
    /// Who controls each area after the turn, by area index (made on the first report).
    controllers: OnceLock<Controllers>,
    /// Where each land unit (not a fleet) stood at the start of the turn: owner and area, by id.
    starts: OnceLock<BTreeMap<String, (String, String)>>,
    /// The dice header as the templates' values (made on the first report).
    header: OnceLock<HeaderValues>,
    /// The JSON report's `dice` object, the same in every report of the turn (`json::dice`, made
    /// by the first report); none when it could not be written.
    pub dice_json: OnceLock<Option<Vec<u8>>>,
    /// The game's map and tables, which a player's own check needs (`report::for_check`), read
    /// once per turn; none when they are not to be carried.
    pub check_files: OnceLock<Option<(String, String)>>,
    /// The digest of the rules fixed with the next turn's commitment (`game::scheme`), read once
    /// per turn; empty when none were.
    next_rules: OnceLock<String>,
}

/// The name a report gives the owner of a unit its power sees (`lines::seen_text`, `seen_html`):
/// the game's name of the power (game.toml's `name`, as the welcome and every answer give it);
/// its id for an owner that is no power of the game, and in a turn whose reports are told in
/// wording 0 (`GameConfig::reports_wording`, `record::REPORTS_WORDING`), as they gave it then.
#[derive(Debug, Default)]
pub struct OwnerNames(BTreeMap<String, String>);

impl OwnerNames {
    /// The names of `game`'s powers, in the wording of its reports.
    pub fn of(game: &Game) -> OwnerNames {
        if game.config.reports_wording() < 1 {
            return OwnerNames::default();
        }
        OwnerNames(
            game.config
                .powers
                .iter()
                .map(|p| (p.id.clone(), p.name.clone()))
                .collect(),
        )
    }

    /// The name of `owner`, or its id without one.
    pub fn name<'a>(&'a self, owner: &'a str) -> &'a str {
        self.0.get(owner).map_or(owner, String::as_str)
    }
}

/// Who controls each area after the turn ([`TurnSight::controller`]).
struct Controllers {
    /// By area index, the controller's number in `powers` (`u32::MAX`: none).
    at: Vec<u32>,
    powers: Vec<String>,
}

/// The turn's dice header as the report templates' `header`, made once per turn: its `text` lists
/// every power's entropy, so that made for each report it would cost every report the size of the
/// world (the bundled templates show `short`, which does not).
pub struct HeaderValues {
    /// For the text template.
    pub text: minijinja::Value,
    /// For the HTML template: the same, with `text` and `short` escaped for HTML once (the bytes
    /// the template's own escaping gives) and marked safe.
    pub html: minijinja::Value,
}

impl TurnSight {
    /// The sight is made beside the units and their indexes (`parallel::both`): each is about half
    /// of what this costs, and a turn makes it on one core before its reports begin (40 ms each at
    /// 1,000 powers of 100 units: issue 39).
    pub fn new(game: &Game, state_after: &State) -> TurnSight {
        let (mut seen, sight) = crate::parallel::both(
            crate::parallel::threads(),
            || TurnSight::with_sight(game, state_after, Visibility::default()),
            || Visibility::of(game, state_after),
        );
        seen.sight = sight;
        seen
    }

    /// As [`TurnSight::new`], with the sight given.
    pub fn with_sight(game: &Game, state_after: &State, sight: Visibility) -> TurnSight {
        let units = game.ruleset.units_told(game, state_after);
        let mut by_owner: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let mut by_area = vec![Vec::new(); game.map.areas.len()];
        for (i, u) in units.iter().enumerate() {
            by_owner.entry(u.owner.clone()).or_default().push(i);
            if let Some(a) = game.map.find(&u.area) {
                by_area[a].push(i);
            }
        }
        let mut controlled: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (area, power) in &state_after.control {
            if let Some(a) = game.map.find(area) {
                controlled.entry(power.clone()).or_default().push(a);
            }
        }
        for list in controlled.values_mut() {
            list.sort_unstable();
        }
        let rank = game
            .config
            .powers
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect();
        TurnSight {
            sight,
            units,
            by_owner,
            by_area,
            controlled,
            rank,
            owner_names: Arc::new(OwnerNames::of(game)),
            events_of: OnceLock::new(),
            controllers: OnceLock::new(),
            starts: OnceLock::new(),
            header: OnceLock::new(),
            dice_json: OnceLock::new(),
            check_files: OnceLock::new(),
            next_rules: OnceLock::new(),
        }
    }

    /// The digest of the rules fixed with turn `next`'s commitment `commitment`, as the reports
    /// announce it beside the commitment (`game::rules_fixed`); empty when none were.
    pub fn next_rules(&self, game: &Game, next: u32, commitment: &crate::dice::Bytes32) -> String {
        self.next_rules
            .get_or_init(|| {
                crate::game::scheme::rules_digest(game, next, &crate::dice::to_hex(commitment))
                    .unwrap_or_default()
            })
            .clone()
    }

    /// The units of `owner`, in state order.
    pub fn units_of(&self, owner: &str) -> impl Iterator<Item = &crate::rules::UnitView> {
        self.by_owner
            .get(owner)
            .into_iter()
            .flatten()
            .map(|&i| &self.units[i])
    }

    /// The areas `power` controls after the turn, in map order.
    pub fn controlled_by(&self, power: &str) -> &[usize] {
        self.controlled.get(power).map_or(&[], Vec::as_slice)
    }

    /// The place of `power` in game.toml, if it is one of the game's powers.
    pub fn rank(&self, power: &str) -> Option<usize> {
        self.rank.get(power).copied()
    }

    /// The events of `events` that `power` may see, in order.
    pub fn events_for<'e>(&self, events: &'e [Event], power: &str) -> Vec<&'e Event> {
        self.positions_for(events, power)
            .iter()
            .filter_map(|&i| events.get(i))
            .collect()
    }

    /// The positions in `events` (the turn's) of those `power` may see, in order.
    pub fn positions_for(&self, events: &[Event], power: &str) -> &[usize] {
        let index = self.events_of.get_or_init(|| {
            let mut index: BTreeMap<String, Vec<usize>> = BTreeMap::new();
            for (i, e) in events.iter().enumerate() {
                for p in &e.visible_to {
                    index.entry(p.clone()).or_default().push(i);
                }
            }
            index
        });
        index.get(power).map_or(&[], Vec::as_slice)
    }

    /// Who controls area `i` after the turn, as `state_after.control` (the turn's state after)
    /// says under the area's id: an index by area made once a turn, so that each view asks it by
    /// number, not by the area's name in the state's table.
    pub fn controller(&self, game: &Game, after: &State, i: usize) -> Option<&str> {
        let c = self.controllers.get_or_init(|| {
            let mut c = Controllers {
                at: vec![u32::MAX; game.map.areas.len()],
                powers: Vec::new(),
            };
            let mut number: BTreeMap<&str, u32> = BTreeMap::new();
            for (area, power) in &after.control {
                // Under the area's very id, as a lookup by it finds it.
                let Some(a) = game
                    .map
                    .find(area)
                    .filter(|&a| game.map.area(a).id == *area)
                else {
                    continue;
                };
                let n = *number.entry(power).or_insert_with(|| {
                    c.powers.push(power.clone());
                    (c.powers.len() - 1) as u32
                });
                c.at[a] = n;
            }
            c
        });
        let n = *c.at.get(i)?;
        c.powers.get(n as usize).map(String::as_str)
    }

    /// The turn's dice header as the templates' values (every report of a turn has the same).
    pub fn header_values(&self, header: &DiceHeader) -> &HeaderValues {
        self.header.get_or_init(|| {
            let text = minijinja::Value::from_serialize(header);
            let safe =
                |s: &str| minijinja::Value::from_safe_string(minijinja::HtmlEscape(s).to_string());
            let html = minijinja::context! {
                text => safe(&header.text),
                short => safe(&header.short),
                ..text.clone()
            };
            HeaderValues { text, html }
        })
    }

    /// Owner and area of the land unit `id` at the start of the turn (the first of that id).
    pub fn start_of(&self, game: &Game, before: &State, id: &str) -> Option<&(String, String)> {
        self.starts
            .get_or_init(|| {
                let mut starts = BTreeMap::new();
                for u in game.ruleset.units(before) {
                    if !crate::rules::is_naval(u.kind) {
                        starts.entry(u.id).or_insert((u.owner, u.area));
                    }
                }
                starts
            })
            .get(id)
    }
}

/// A unit as a report lists it.
#[derive(Debug, Clone, Serialize)]
pub struct UnitLine {
    /// The unit's id; empty for units seen only approximately, which are summed by kind.
    pub id: String,
    pub owner: String,
    pub area: String,
    /// `corps`, `leader`, `fleet` (EiA), `army` (PoG): the ruleset's word.
    pub kind: &'static str,
    /// "infantry corps, 6 factors, morale 4.0".
    pub detail: String,
    /// Factors of a corps or force, rating of a leader, ships of a fleet.
    pub strength: u32,
    pub precision: Precision,
    /// The index of its area in the map, when the map has it (not in the reports): found once,
    /// by the view, for its map.
    #[serde(skip)]
    pub place: Option<usize>,
}

/// The orders the power sent, as pbem read them.
#[derive(Debug, Serialize)]
pub struct OrdersView {
    pub received: bool,
    /// Every order that stood: "line 12: move FR-I Ulm", by the line its player knows it on (of
    /// his mail, for orders he mailed: `OrdersFileStatus::lines`).
    pub accepted: Vec<String>,
    /// The same, as (line, order).
    pub lines: Vec<(usize, String)>,
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
    /// The digest of the rules fixed with the next commitment (`game::rules_fixed`); empty when
    /// none were.
    pub rules: String,
}

/// Everything one report shows.
#[derive(Debug, Serialize)]
pub struct PowerView {
    pub game: String,
    pub title: String,
    pub ruleset: String,
    pub ruleset_id: String,
    /// The ruleset's options the game names (`Game::options_named`): `name (rule: what)`, for the
    /// header of every report; empty for a game that plays the rules as written.
    pub options: Vec<String>,
    pub turn: u32,
    pub date: String,
    pub power: String,
    pub power_name: String,
    /// The player whose own report this is, for a power with several (`engine::command`), and his
    /// rank.
    pub player: Option<String>,
    pub player_rank: Option<String>,
    /// The power's map colour, `#rrggbb`, when game.toml gives one.
    pub power_colour: Option<String>,
    pub orders: OrdersView,
    /// Whether the power was due to send orders this turn (`Ruleset::expects_orders`).
    pub due: bool,
    /// What decided for it without orders, said to its player (`Ruleset::without_orders`).
    pub without_orders: &'static str,
    /// The power's own units at the end of the turn.
    pub units: Vec<UnitLine>,
    /// The foreign units it sees at the end of the turn.
    pub seen: Vec<UnitLine>,
    /// The name its lines give the owner of each unit of `seen` (the turn's, shared).
    #[serde(skip)]
    pub owner_names: Arc<OwnerNames>,
    /// What the ruleset says of the position besides the units (`Ruleset::position`).
    pub position: Vec<String>,
    /// The events it sees, in the turn's order.
    pub events: SeenEvents,
    /// The events that settled a decision for this power.
    pub decisions: SeenEvents,
    /// What the map of this power shows.
    pub map: MapView,
    pub next: NextTurn,
    /// The orders block for the next turn, ready to edit (never with the password).
    pub orders_template: String,
}

impl PowerView {
    pub fn build(game: &Game, input: &ReportInput<'_>) -> PowerView {
        let power = input.power;
        let config = game.config.power(power);
        let name = config.map_or(power.to_string(), |p| p.name.clone());
        let after = input.state_after;
        let command = input.command;
        let mine = |u: &crate::rules::UnitView| {
            u.owner == power && command.is_none_or(|c| c.scope.holds(&u.id))
        };
        // The one sight every form of the report is made from: the ruleset's own, when it words
        // its sight itself (GITM), else the engine's by places.
        let own = |id: &str| command.is_none_or(|c| c.scope.holds(id));
        let viewer = Viewer { power, own: &own };
        let ruled = game
            .ruleset
            .sighting(game, after, input.events, &viewer)
            .map(|s| {
                let places = Visibility::single(power, s.places.clone());
                (
                    units_sighted(game, input.shared, power, &mine, &s),
                    places,
                    s.public_control,
                )
            });
        let ((units, seen), sight, public_control) = match ruled {
            Some((lines, places, public)) => (lines, std::borrow::Cow::Owned(places), public),
            None => {
                let sight = command.map_or(&input.shared.sight, |c| &c.after);
                (
                    units_of(game, input.shared, power, &mine, sight),
                    std::borrow::Cow::Borrowed(sight),
                    false,
                )
            }
        };
        let sight: &Visibility = &sight;
        // The positions of the events it sees, then the events themselves: listed by the view
        // without copying them (`SeenEvents`), read as they are by its map and its knowledge.
        let positions: Vec<usize> = input
            .shared
            .positions_for(input.events, power)
            .iter()
            .copied()
            .filter(|&i| command.is_none_or(|c| c.tells(game, power, &input.events[i])))
            .collect();
        let visible: Vec<&Event> = positions.iter().map(|&i| &input.events[i]).collect();
        let events = SeenEvents::new(
            input.events,
            &positions,
            power,
            game.ruleset.decided_by_default(),
        );
        // A decision taken for this power is among its events as it is (only those taken for
        // another are reworded there). One its own order settled was not taken for it.
        let decisions = events.only(|e| {
            e.decision
                .as_ref()
                .is_some_and(|d| d.power == power && d.by != crate::decide::DecidedBy::Order)
        });
        let orders = orders_view(input.orders);
        let places = SeenPlaces::of(sight, power);
        let known = Known::of(game, input, sight, &places, public_control, &visible);
        let map = MapView::build(game, input, &places, &known, &units, &seen, &visible);
        let next = input.turn + 1;
        let player = command.map(|c| c.player.as_str());
        let orders_template = orders_template(game, power, player, next, &units, after);
        PowerView {
            game: game.config.game.clone(),
            title: game.config.title.clone(),
            ruleset: game.ruleset.name().to_string(),
            ruleset_id: game.ruleset.id().to_string(),
            options: game.options_named(),
            turn: input.turn,
            date: game.config.date_of(input.turn),
            power: power.to_string(),
            power_name: name,
            player: command.map(|c| c.player.clone()),
            player_rank: command.map(|c| c.rank.clone()),
            power_colour: config.and_then(|p| p.colour.clone()),
            orders,
            due: game.ruleset.expects_orders(input.state_before, power),
            without_orders: game.ruleset.without_orders().yours,
            units,
            seen,
            owner_names: input.shared.owner_names.clone(),
            position: game.ruleset.position(game, after, power, &|area| {
                game.map
                    .find(area)
                    .is_some_and(|i| places.precision(i).is_some())
            }),
            events,
            decisions,
            map,
            next: NextTurn {
                turn: next,
                date: game.config.date_of(next),
                deadline: game.config.deadline_shown(next),
                commitment: crate::dice::to_hex(input.next_commitment),
                rules: input.shared.next_rules(game, next, input.next_commitment),
            },
            orders_template,
        }
    }
}

/// The places one power sees after the turn and how, by area index: the power's part of the
/// turn's sight, taken once a view and asked by number (the turn's sight is asked by the power's
/// name at each question).
pub struct SeenPlaces(Vec<(usize, Precision)>);

impl SeenPlaces {
    pub fn of(sight: &Visibility, power: &str) -> SeenPlaces {
        // In area order: the sight keeps them so.
        SeenPlaces(sight.seen_by(power).collect())
    }

    /// How the power sees area `i`, if it does.
    pub fn precision(&self, i: usize) -> Option<Precision> {
        self.0
            .binary_search_by_key(&i, |&(a, _)| a)
            .ok()
            .map(|k| self.0[k].1)
    }

    /// The areas it sees, in area order, each with how.
    pub fn iter(&self) -> impl Iterator<Item = (usize, Precision)> + '_ {
        self.0.iter().copied()
    }
}

/// What the view knows of the places besides their units, which the map draws and the player's own
/// check carries: the control it knows and the ruleset's marks it sees. Made from the view's sight
/// and events, never from the state as a whole: the map reads it, not the state.
pub struct Known<'t> {
    /// The land areas whose control the power knows after the turn, by index (in order, each
    /// once), each with its controller (none: uncontrolled): those it sees, those it saw change
    /// hands, those of powers it shares sight with; when the ruleset makes control public (GITM
    /// 1.3), the controlled ones, every other being known uncontrolled (see [`Known::control`]).
    control: Vec<(usize, Option<&'t str>)>,
    /// Whether the control of every area is known (`Sighting::public_control`).
    public: bool,
    /// The ruleset's marks (`Ruleset::map_marks`) in the areas it sees.
    pub marks: Vec<super::map::RulesetMark>,
}

impl<'t> Known<'t> {
    fn of(
        game: &Game,
        input: &ReportInput<'t>,
        sight: &Visibility,
        places: &SeenPlaces,
        public_control: bool,
        events: &[&Event],
    ) -> Known<'t> {
        let power = input.power;
        let after = input.state_after;
        let shared = input.shared;
        let mut control: Vec<(usize, Option<&'t str>)> = Vec::new();
        if public_control {
            // Only the controlled areas are listed: a report costs what the power sees. An area
            // the table names twice (in two cases) is known as its last entry says.
            for (area, owner) in &after.control {
                if let Some(i) = game.map.find(area) {
                    control.push((i, Some(owner.as_str())));
                }
            }
            control.sort_by_key(|&(i, _)| i);
            let mut last: Vec<(usize, Option<&str>)> = Vec::with_capacity(control.len());
            for c in control {
                match last.last_mut() {
                    Some(l) if l.0 == c.0 => *l = c,
                    _ => last.push(c),
                }
            }
            control = last;
        } else {
            let mut know = |i: usize| {
                if game.map.area(i).is_land() {
                    control.push((i, shared.controller(game, after, i)));
                }
            };
            for (i, _) in places.iter() {
                know(i);
            }
            events
                .iter()
                .filter(|e| e.kind == "control")
                .filter_map(|e| game.map.find(e.area.as_deref()?))
                .for_each(&mut know);
            // Its own and its allies' areas, from the turn's index (not every area of the world).
            for p in std::iter::once(power).chain(sight.allies(power)) {
                shared.controlled_by(p).iter().copied().for_each(&mut know);
            }
            // The same area known twice is known the same.
            control.sort_unstable_by_key(|&(i, _)| i);
            control.dedup_by_key(|&mut (i, _)| i);
        }
        let marks = game
            .ruleset
            .map_marks(game, after)
            .into_iter()
            .filter(|m| {
                game.map
                    .find(&m.area)
                    .is_some_and(|i| places.precision(i).is_some())
            })
            .map(|m| super::map::RulesetMark {
                area: m.area,
                tag: m.tag,
                about: m.about,
                legend: m.legend,
            })
            .collect();
        Known {
            control,
            public: public_control,
            marks,
        }
    }

    /// Whether the power knows who controls land area `i`, and if so who does (none: nobody).
    pub fn control(&self, game: &Game, i: usize) -> Option<Option<&'t str>> {
        if !game.map.areas.get(i).is_some_and(|a| a.is_land()) {
            return None;
        }
        match self.control.binary_search_by_key(&i, |&(a, _)| a) {
            Ok(k) => Some(self.control[k].1),
            Err(_) if self.public => Some(None),
            Err(_) => None,
        }
    }

    /// The areas whose control the power knows besides those it sees: the ones it must be shown.
    pub fn listed(&self) -> impl Iterator<Item = usize> + '_ {
        self.control.iter().map(|&(i, _)| i)
    }
}

/// The power's own units (those `mine` holds: for one player of a power with several, those of his
/// command), and the foreign units `sight` shows it (exactly, or as approximate forces), from the
/// indexes of the turn: what the power owns and the areas it sees, not every unit.
fn units_of(
    game: &Game,
    shared: &TurnSight,
    power: &str,
    mine: &dyn Fn(&crate::rules::UnitView) -> bool,
    sight: &Visibility,
) -> (Vec<UnitLine>, Vec<UnitLine>) {
    let units = shared
        .units_of(power)
        .filter(|u| mine(u))
        .map(|u| exact_line(u, game.map.find(&u.area)))
        .collect();
    // The other units in the areas the power sees, in state order, with the precision of the area.
    // Each with its area's index, which its place in the index gives.
    let mut there: Vec<(usize, usize, Precision)> = sight
        .seen_by(power)
        .flat_map(|(a, q)| {
            shared
                .by_area
                .get(a)
                .into_iter()
                .flatten()
                .map(move |&i| (i, a, q))
        })
        .filter(|&(i, _, _)| !mine(&shared.units[i]))
        .collect();
    there.sort_unstable();
    let mut seen = Vec::new();
    // Approximate sightings, summed by (area, owner, kind) in the order first met.
    let mut forces: BTreeMap<(String, String, &'static str), u32> = BTreeMap::new();
    let mut order = Vec::new();
    for (i, a, q) in there {
        let u = &shared.units[i];
        match q {
            Precision::Exact => seen.push(exact_line(u, Some(a))),
            Precision::Approximate if u.kind != "leader" => {
                let key = (u.area.clone(), u.owner.clone(), u.kind);
                if !forces.contains_key(&key) {
                    order.push((key.clone(), a));
                }
                let n = forces.entry(key).or_default();
                *n = n.saturating_add(u.strength);
            }
            Precision::Approximate | Precision::Identity => {}
        }
    }
    for (key, a) in order {
        let n = approximately(forces[&key]);
        let (area, owner, kind) = key;
        let detail = if crate::rules::is_naval(kind) {
            format!("fleets of about {n} ships")
        } else {
            format!("corps of about {n} factors")
        };
        seen.push(UnitLine {
            id: String::new(),
            owner,
            area,
            kind,
            detail,
            strength: n,
            precision: Precision::Approximate,
            place: Some(a),
        });
    }
    (units, seen)
}

/// The power's own units (those `mine` holds) and the foreign units a ruleset's own sight gives
/// it (`Ruleset::sighting`): exactly, by identity alone (id, owner, kind and place, no figure), or
/// as forces in the ruleset's words (no id, no figure).
fn units_sighted(
    game: &Game,
    shared: &TurnSight,
    power: &str,
    mine: &dyn Fn(&crate::rules::UnitView) -> bool,
    sighting: &Sighting,
) -> (Vec<UnitLine>, Vec<UnitLine>) {
    let place = |area: &str| game.map.find(area);
    let units = shared
        .units_of(power)
        .filter(|u| mine(u))
        .map(|u| exact_line(u, place(&u.area)))
        .collect();
    let mut seen: Vec<UnitLine> = sighting
        .units
        .iter()
        .filter_map(|&(i, q)| Some((shared.units.get(i)?, q)))
        .filter(|(u, _)| !mine(u))
        .filter_map(|(u, q)| match q {
            Precision::Exact => Some(exact_line(u, place(&u.area))),
            Precision::Identity => Some(UnitLine {
                id: u.id.clone(),
                owner: u.owner.clone(),
                area: u.area.clone(),
                kind: u.kind,
                detail: IDENTITY_ONLY.to_string(),
                strength: 0,
                precision: Precision::Identity,
                place: place(&u.area),
            }),
            Precision::Approximate => None,
        })
        .collect();
    seen.extend(sighting.forces.iter().map(|f| UnitLine {
        id: String::new(),
        owner: f.owner.clone(),
        area: f.area.clone(),
        kind: f.kind,
        detail: f.words.clone(),
        strength: 0,
        precision: Precision::Approximate,
        place: place(&f.area),
    }));
    (units, seen)
}

/// What a report says of a unit known by its identity alone.
pub const IDENTITY_ONLY: &str = "identity only";

/// A unit as it is, standing in the map's area `place`.
fn exact_line(u: &crate::rules::UnitView, place: Option<usize>) -> UnitLine {
    UnitLine {
        id: u.id.clone(),
        owner: u.owner.clone(),
        area: u.area.clone(),
        kind: u.kind,
        detail: u.detail.clone(),
        strength: u.strength,
        precision: Precision::Exact,
        place,
    }
}

/// A strength as a distant observer reports it: to the nearest 5, and at least 5.
pub fn approximately(n: u32) -> u32 {
    (n.saturating_add(2) / 5 * 5).max(5)
}

fn orders_view(orders: Option<&OrdersFileStatus>) -> OrdersView {
    match orders.and_then(|o| o.check.as_ref().map(|c| (o, c))) {
        None => OrdersView {
            received: false,
            accepted: Vec::new(),
            lines: Vec::new(),
            rejected: 0,
            diagnostics: String::new(),
            entropy: None,
        },
        Some((o, c)) => OrdersView {
            received: true,
            accepted: c
                .accepted
                .iter()
                .map(|(line, text)| format!("line {}: {text}", o.lines.number(*line)))
                .collect(),
            lines: c
                .accepted
                .iter()
                .map(|(line, text)| (o.lines.number(*line), text.clone()))
                .collect(),
            rejected: c.rejected(),
            diagnostics: o.told.clone(),
            entropy: c.entropy.clone(),
        },
    }
}

/// The orders block of the next turn: the header filled in but for the password, the power's units
/// and standing orders as comments, and where the orders are listed (the guide the welcome mail
/// attached).
fn orders_template(
    game: &Game,
    power: &str,
    player: Option<&str>,
    turn: u32,
    units: &[UnitLine],
    state: &State,
) -> String {
    let mut t = String::new();
    t.push_str(&format!("game {}\n", game.config.game));
    t.push_str(&format!("power {power}\n"));
    match player {
        Some(p) => t.push_str(&format!("player {p}\n")),
        // A power of several players reported as one: each writes his own id.
        None if game.config.power(power).is_some_and(|p| p.has_commands()) => {
            t.push_str("player <your player id>\n")
        }
        None => {}
    }
    t.push_str("password <your password>\n");
    t.push_str(&format!("turn {turn}\n"));
    t.push_str("# entropy <any words of your own, to add to the dice>\n\n");
    t.push_str(&format!("# Your units at the start of turn {turn}:\n"));
    if units.is_empty() {
        t.push_str("#   none\n");
    }
    for u in units {
        t.push_str(&format!("#   {:<18} {:<14} {}\n", u.id, u.area, u.detail));
    }
    match state.standing.get(power) {
        Some(s) if !s.is_empty() => {
            t.push_str("# Your standing orders (they stand until you change them):\n");
            for (k, v) in s {
                // A scoped standing order is kept as `key@scope`.
                let k = k.replacen('@', " ", 1);
                t.push_str(&format!("#   standing {k} {v}\n"));
            }
        }
        _ if game.ruleset.without_orders().standing => {
            t.push_str("# You have no standing orders: the game's SOP decides for you.\n")
        }
        _ => t.push_str(&format!(
            "# Without orders, {} decide for you.\n",
            game.ruleset.without_orders().yours
        )),
    }
    if !game.ruleset.expects_orders(state, power) {
        t.push_str(&format!(
            "# Turn {turn} is not yours to play: only standing orders count in it.\n"
        ));
    }
    // The guide the player has: the one his welcome mail attached, not pbem's ORDERS.md.
    t.push_str(&format!(
        "# Write your orders below, one per line (the order guide of your welcome mail, {}, lists them).\n\n",
        crate::report::guide::file_name(game.ruleset.id())
    ));
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::visibility::{self, Sight};
    use crate::rules::eia::test_fixture::Fixture;

    #[test]
    fn units_beyond_the_exact_range_are_summed_without_ids() {
        let fx = Fixture::new();
        let map = &fx.game.map;
        // Seen exactly only where its own units stand; up to two steps away, approximately.
        let sight = Visibility::new(
            map,
            &visibility::positions(&fx.game, &fx.state),
            Sight { range: 2, exact: 0 },
            &[],
        );
        let shared = TurnSight::with_sight(&fx.game, &fx.state, sight);
        let (own, seen) = units_of(
            &fx.game,
            &shared,
            "austria",
            &|u: &crate::rules::UnitView| u.owner == "austria",
            &shared.sight,
        );
        assert!(own.iter().any(|u| u.id == "AU-I"));
        let near: Vec<&UnitLine> = seen.iter().filter(|u| u.area == "Stuttgart").collect();
        assert_eq!(near.len(), 1, "{seen:?}");
        assert_eq!(near[0].id, "");
        assert_eq!(near[0].precision, Precision::Approximate);
        assert_eq!(near[0].detail, "corps of about 5 factors");
        assert!(seen.iter().all(|u| u.id.is_empty()), "{seen:?}");
        assert!(
            !seen.iter().any(|u| u.kind == "leader"),
            "leaders are not seen from afar"
        );
    }

    /// The indexes of `TurnSight` give each power what a scan of every unit and event gave.
    #[test]
    fn the_turn_indexes_give_each_power_what_a_scan_of_everything_gives() {
        let fx = Fixture::new();
        let shared = TurnSight::new(&fx.game, &fx.state);
        const RULE: crate::rule::Rule = crate::rule::Rule::new("EiA", "7", "test");
        let events: Vec<Event> = (0..12)
            .map(|i| {
                let powers = ["france", "austria", "russia", "britain"];
                Event::new(RULE, "test", format!("event {i}"))
                    .seen_by(powers.iter().copied().filter(|p| (i + p.len()) % 3 != 0))
            })
            .collect();
        let mut foreign = 0;
        for p in &fx.game.config.powers {
            let power = p.id.as_str();
            let scanned: Vec<&str> = events
                .iter()
                .filter(|e| e.visible_to.contains(power))
                .map(|e| e.text.as_str())
                .collect();
            let indexed: Vec<&str> = shared
                .events_for(&events, power)
                .iter()
                .map(|e| e.text.as_str())
                .collect();
            assert_eq!(indexed, scanned, "{power}");
            let (own, seen) = units_of(
                &fx.game,
                &shared,
                power,
                &|u: &crate::rules::UnitView| u.owner == power,
                &shared.sight,
            );
            let own_ids: Vec<&str> = own.iter().map(|u| u.id.as_str()).collect();
            let all_own: Vec<&str> = shared
                .units
                .iter()
                .filter(|u| u.owner == power)
                .map(|u| u.id.as_str())
                .collect();
            assert_eq!(own_ids, all_own, "{power}");
            let exact: Vec<&str> = shared
                .units
                .iter()
                .filter(|u| u.owner != power)
                .filter(|u| {
                    fx.game
                        .map
                        .find(&u.area)
                        .and_then(|a| shared.sight.precision(power, a))
                        == Some(Precision::Exact)
                })
                .map(|u| u.id.as_str())
                .collect();
            let seen_exact: Vec<&str> = seen
                .iter()
                .filter(|u| u.precision == Precision::Exact)
                .map(|u| u.id.as_str())
                .collect();
            assert_eq!(seen_exact, exact, "{power}");
            foreign += seen_exact.len();
        }
        assert!(
            foreign > 0,
            "no power sees a foreign unit: the test checks nothing"
        );
    }

    /// A ruleset's own sight gives a unit by identity alone with none of its figures, and a force
    /// in its words with no id: the view cannot hold more than the sighting says.
    #[test]
    fn a_rulesets_own_sight_holds_identities_without_figures_and_forces_without_ids() {
        let fx = Fixture::new();
        let shared = TurnSight::new(&fx.game, &fx.state);
        let foreign: Vec<usize> = (0..shared.units.len())
            .filter(|&i| shared.units[i].owner != "austria")
            .take(2)
            .collect();
        assert_eq!(foreign.len(), 2);
        let sighting = Sighting {
            places: Default::default(),
            units: vec![
                (foreign[0], Precision::Identity),
                (foreign[1], Precision::Exact),
            ],
            forces: vec![crate::game::sight::Force {
                area: "Ulm".into(),
                owner: "france".into(),
                kind: "force",
                words: "a division (IC)".into(),
            }],
            public_control: false,
        };
        let (own, seen) = units_sighted(
            &fx.game,
            &shared,
            "austria",
            &|u: &crate::rules::UnitView| u.owner == "austria",
            &sighting,
        );
        assert!(own.iter().all(|u| u.owner == "austria") && !own.is_empty());
        let identity = &seen[0];
        let unit = &shared.units[foreign[0]];
        assert_eq!(identity.id, unit.id);
        assert_eq!(identity.precision, Precision::Identity);
        assert_eq!(
            (identity.strength, identity.detail.as_str()),
            (0, IDENTITY_ONLY)
        );
        assert_eq!(seen[1].detail, shared.units[foreign[1]].detail);
        let force = &seen[2];
        assert!(force.id.is_empty() && force.strength == 0);
        assert_eq!(force.detail, "a division (IC)");
        assert_eq!(seen.len(), 3);
    }

    #[test]
    fn approximate_strengths_are_rounded_to_five() {
        assert_eq!(
            [1, 3, 7, 8, 12, 13].map(approximately),
            [5, 5, 5, 10, 10, 15]
        );
    }
}
