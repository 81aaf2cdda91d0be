//! A [`PowerView`] as the report templates' values: objects over the view whose fields are made
//! when a template reads them, rather than the whole view copied into template values for each
//! report (its map, every die of every roll, fields no bundled template shows). The templates see
//! the same names and values as the view serialized (`minijinja::Value::from_serialize`), in the
//! same order.

use std::sync::{Arc, OnceLock};

use minijinja::value::{Enumerator, Object, ObjectRepr, Value};

use super::seen_events::SeenEvent;
use super::view::{PowerView, UnitLine};

/// The fields of [`PowerView`], in its order.
const VIEW_FIELDS: &[&str] = &[
    "game",
    "title",
    "ruleset",
    "ruleset_id",
    "options",
    "turn",
    "date",
    "power",
    "power_name",
    "player",
    "player_rank",
    "power_colour",
    "orders",
    "due",
    "without_orders",
    "units",
    "seen",
    "position",
    "events",
    "decisions",
    "map",
    "next",
    "orders_template",
];

/// The values of a report's templates: the view's fields, and the few a rendering adds before
/// them (`header`, the map's `map_svg`, `map_cid`, `map_size`), each present only when given.
#[derive(Debug, Clone)]
pub struct ReportValues {
    view: Arc<ViewValues>,
    /// The values added, by name, in the order they come before the view's.
    added: Vec<(&'static str, Value)>,
    /// Whether the long lists go as `templates::written` texts (to pbem's own templates), not
    /// strings.
    written: bool,
}

/// The view and the values of it that every rendering reads, made once a report, each when first
/// read: the bundled templates read the long lists as pbem writes them (`events_text`, ...), never
/// the objects of each event and unit.
#[derive(Debug)]
struct ViewValues {
    view: Arc<PowerView>,
    orders: OnceLock<Value>,
    next: OnceLock<Value>,
    units: OnceLock<Value>,
    seen: OnceLock<Value>,
    events: OnceLock<Value>,
    decisions: OnceLock<Value>,
    /// The long lists as the bundled templates show them (`report::lines`), given or made when
    /// read.
    events_text: OnceLock<Arc<String>>,
    events_html: OnceLock<Arc<String>>,
    decisions_text: OnceLock<Arc<String>>,
    decisions_html: OnceLock<Arc<String>>,
    units_text: OnceLock<Arc<String>>,
    units_html: OnceLock<Arc<String>>,
    seen_text: OnceLock<Arc<String>>,
    seen_html: OnceLock<Arc<String>>,
}

/// A view's lists of events written already (`lines::EventForms`), as the bundled templates show
/// them.
pub struct Lists {
    pub events_text: String,
    pub events_html: String,
    pub decisions_text: String,
    pub decisions_html: String,
}

impl ViewValues {
    /// The list of `list`'s events: a sequence whose objects are made when read (the bundled
    /// templates ask only whether it holds any).
    fn events(&self, list: List) -> Value {
        Value::from_object(EventList {
            view: self.view.clone(),
            list,
        })
    }

    /// The power's own units, or those it sees: a sequence whose objects are made when read (the
    /// bundled templates ask only whether it holds any).
    fn units(&self, seen: bool) -> Value {
        Value::from_object(UnitList {
            view: self.view.clone(),
            seen,
        })
    }
}

impl ReportValues {
    pub fn new(view: Arc<PowerView>) -> ReportValues {
        let values = ViewValues {
            view,
            orders: OnceLock::new(),
            next: OnceLock::new(),
            units: OnceLock::new(),
            seen: OnceLock::new(),
            events: OnceLock::new(),
            decisions: OnceLock::new(),
            events_text: OnceLock::new(),
            events_html: OnceLock::new(),
            decisions_text: OnceLock::new(),
            decisions_html: OnceLock::new(),
            units_text: OnceLock::new(),
            units_html: OnceLock::new(),
            seen_text: OnceLock::new(),
            seen_html: OnceLock::new(),
        };
        ReportValues {
            view: Arc::new(values),
            added: Vec::new(),
            written: false,
        }
    }

    /// The values of a view whose events and decisions are written already in the text and HTML
    /// forms (`lines::EventForms`), which `events_text`, `events_html`, `decisions_text` and
    /// `decisions_html` then are.
    pub fn with_events(view: Arc<PowerView>, lists: Lists) -> ReportValues {
        let values = ReportValues::new(view);
        let v = &values.view;
        let _ = v.events_text.set(Arc::new(lists.events_text));
        let _ = v.events_html.set(Arc::new(lists.events_html));
        let _ = v.decisions_text.set(Arc::new(lists.decisions_text));
        let _ = v.decisions_html.set(Arc::new(lists.decisions_html));
        values
    }

    /// The same values with `value` as `name` (before the others; replacing one of that name).
    pub fn with(&self, name: &'static str, value: Value) -> ReportValues {
        let mut added = vec![(name, value)];
        added.extend(self.added.iter().filter(|(n, _)| *n != name).cloned());
        ReportValues {
            view: self.view.clone(),
            added,
            written: self.written,
        }
    }

    /// The same values for `template`: its long lists (`events_text`, ...) as
    /// `templates::written` texts when it is pbem's own (no copy of them made), else strings.
    pub fn for_template(&self, template: &super::templates::Template) -> ReportValues {
        ReportValues {
            written: template.built_in(),
            ..self.clone()
        }
    }

    /// The long list `cell` holds (made by `make` on its first read), as this rendering takes it;
    /// `safe` when it is HTML escaped already.
    fn list(
        &self,
        cell: &OnceLock<Arc<String>>,
        make: impl FnOnce() -> String,
        safe: bool,
    ) -> Value {
        let text = cell.get_or_init(|| Arc::new(make()));
        match (self.written, safe) {
            (true, _) => super::templates::written(text.clone(), safe),
            (false, true) => Value::from_safe_string(text.to_string()),
            (false, false) => Value::from(text.as_str()),
        }
    }

    /// These values as the context of a rendering.
    pub fn context(&self) -> Value {
        Value::from_object(self.clone())
    }
}

impl Object for ReportValues {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let key = key.as_str()?;
        if let Some((_, v)) = self.added.iter().find(|(n, _)| *n == key) {
            return Some(v.clone());
        }
        let values = &self.view;
        let view = &values.view;
        Some(match key {
            "game" => Value::from(view.game.as_str()),
            "title" => Value::from(view.title.as_str()),
            "ruleset" => Value::from(view.ruleset.as_str()),
            "ruleset_id" => Value::from(view.ruleset_id.as_str()),
            "options" => Value::from_serialize(&view.options),
            "turn" => Value::from(view.turn),
            "date" => Value::from(view.date.as_str()),
            "power" => Value::from(view.power.as_str()),
            "power_name" => Value::from(view.power_name.as_str()),
            "player" => Value::from(view.player.as_deref()),
            "player_rank" => Value::from(view.player_rank.as_deref()),
            "power_colour" => Value::from(view.power_colour.as_deref()),
            "orders" => values
                .orders
                .get_or_init(|| Value::from_serialize(&view.orders))
                .clone(),
            "due" => Value::from(view.due),
            "without_orders" => Value::from(view.without_orders),
            "units" => values.units.get_or_init(|| values.units(false)).clone(),
            "seen" => values.seen.get_or_init(|| values.units(true)).clone(),
            "position" => Value::from_serialize(&view.position),
            "events" => values
                .events
                .get_or_init(|| values.events(List::Events))
                .clone(),
            "decisions" => values
                .decisions
                .get_or_init(|| values.events(List::Decisions))
                .clone(),
            "map" => Value::from_serialize(&view.map),
            "next" => values
                .next
                .get_or_init(|| Value::from_serialize(&view.next))
                .clone(),
            "orders_template" => Value::from(view.orders_template.as_str()),
            // The long lists as pbem writes them (`report::lines`), not listed among the view's fields.
            "events_text" => self.list(
                &values.events_text,
                || super::lines::events_text(&view.events),
                false,
            ),
            "events_html" => self.list(
                &values.events_html,
                || super::lines::events_html(&view.events),
                true,
            ),
            "decisions_text" => self.list(
                &values.decisions_text,
                || super::lines::decisions_text(&view.decisions),
                false,
            ),
            "decisions_html" => self.list(
                &values.decisions_html,
                || super::lines::decisions_html(&view.decisions),
                true,
            ),
            "units_text" => self.list(
                &values.units_text,
                || super::lines::units_text(&view.units),
                false,
            ),
            "units_html" => self.list(
                &values.units_html,
                || super::lines::units_html(&view.units),
                true,
            ),
            "seen_text" => self.list(
                &values.seen_text,
                || super::lines::seen_text(&view.seen, &view.owner_names),
                false,
            ),
            "seen_html" => self.list(
                &values.seen_html,
                || super::lines::seen_html(&view.seen, &view.owner_names),
                true,
            ),
            _ => return None,
        })
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        let mut keys: Vec<Value> = self.added.iter().map(|(n, _)| Value::from(*n)).collect();
        keys.extend(
            VIEW_FIELDS
                .iter()
                .filter(|f| !self.added.iter().any(|(n, _)| n == *f))
                .map(|f| Value::from(*f)),
        );
        Enumerator::Values(keys)
    }
}

/// Which list of the view an event is in.
#[derive(Debug, Clone, Copy)]
enum List {
    Events,
    Decisions,
}

impl List {
    /// Event `i` of this list of `view` (one of its `len` events).
    fn line(self, view: &PowerView, i: usize) -> Option<SeenEvent<'_>> {
        match self {
            List::Events => view.events.get(i),
            List::Decisions => view.decisions.get(i),
        }
    }
}

/// A list of the view's events, each made when read.
#[derive(Debug)]
struct EventList {
    view: Arc<PowerView>,
    list: List,
}

impl Object for EventList {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Seq
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let i = key.as_usize()?;
        self.list.line(&self.view, i)?;
        Some(Value::from_object(EventValue {
            view: self.view.clone(),
            list: self.list,
            i,
            read: Default::default(),
        }))
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Seq(match self.list {
            List::Events => self.view.events.len(),
            List::Decisions => self.view.decisions.len(),
        })
    }
}

/// An event of the view, its fields made when read.
#[derive(Debug)]
struct EventValue {
    view: Arc<PowerView>,
    list: List,
    i: usize,
    /// The fields every rendering reads (`text`, `citation`, `rolls`), made on the first: the
    /// text report and the HTML page read each.
    read: [OnceLock<Value>; 3],
}

impl EventValue {
    fn line(&self) -> Option<SeenEvent<'_>> {
        self.list.line(&self.view, self.i)
    }
}

impl Object for EventValue {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let line = self.line()?;
        let e = line.event;
        let decision = line.decision();
        Some(match key.as_str()? {
            "rule" => Value::from(e.rule.as_str()),
            "topic" => Value::from(e.topic.as_str()),
            "citation" => self.read[0]
                .get_or_init(|| Value::from(e.citation()))
                .clone(),
            "kind" => Value::from(e.kind.as_str()),
            "area" => Value::from(e.area.as_deref()),
            "text" => self.read[1]
                .get_or_init(|| Value::from(line.text()))
                .clone(),
            "rolls" => self.read[2]
                .get_or_init(|| {
                    Value::from(
                        (0..line.rolls().count())
                            .map(|roll| {
                                Value::from_object(RollValue {
                                    view: self.view.clone(),
                                    list: self.list,
                                    event: self.i,
                                    roll,
                                })
                            })
                            .collect::<Vec<_>>(),
                    )
                })
                .clone(),
            "template" => Value::from(line.template()),
            "decided" => Value::from(line.decided()),
            "decided_for" => Value::from(decision.map(|d| d.power.as_str())),
            "decided_by" => Value::from_serialize(decision.map(|d| d.by)),
            _ => return None,
        })
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Str(super::seen_events::EVENT_LINE_FIELDS)
    }
}

/// A roll an event lists, its fields made when read (holding the view, not its event, which
/// holds it).
#[derive(Debug)]
struct RollValue {
    view: Arc<PowerView>,
    list: List,
    event: usize,
    roll: usize,
}

impl Object for RollValue {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let r = self
            .list
            .line(&self.view, self.event)?
            .rolls()
            .nth(self.roll)?;
        Some(match key.as_str()? {
            "label" => Value::from(r.label.as_str()),
            "dice" => Value::from(r.dice_names()),
            "faces" => Value::from(r.faces()),
            "each" => Value::from_serialize(&r.dice),
            _ => return None,
        })
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Str(&["label", "dice", "faces", "each"])
    }
}

/// The view's own units, or those it sees, each made when read.
#[derive(Debug)]
struct UnitList {
    view: Arc<PowerView>,
    seen: bool,
}

impl UnitList {
    fn len(&self) -> usize {
        if self.seen {
            self.view.seen.len()
        } else {
            self.view.units.len()
        }
    }
}

impl Object for UnitList {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Seq
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let i = key.as_usize().filter(|&i| i < self.len())?;
        Some(Value::from_object(UnitValue {
            view: self.view.clone(),
            seen: self.seen,
            i,
        }))
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Seq(self.len())
    }
}

/// A [`UnitLine`] of the view (its own units, or those it sees), its fields made when read: its
/// owner by id (`owner`) and by the name the report gives it (`owner_name`: the game's name of the
/// power, as the bundled templates' lines of the units seen name it; `view::OwnerNames`).
#[derive(Debug)]
struct UnitValue {
    view: Arc<PowerView>,
    seen: bool,
    i: usize,
}

impl Object for UnitValue {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let u: &UnitLine = if self.seen {
            &self.view.seen[self.i]
        } else {
            &self.view.units[self.i]
        };
        Some(match key.as_str()? {
            "id" => Value::from(u.id.as_str()),
            "owner" => Value::from(u.owner.as_str()),
            "owner_name" => Value::from(self.view.owner_names.name(&u.owner)),
            "area" => Value::from(u.area.as_str()),
            "kind" => Value::from(u.kind),
            "detail" => Value::from(u.detail.as_str()),
            "strength" => Value::from(u.strength),
            "precision" => Value::from_serialize(u.precision),
            _ => return None,
        })
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Str(&[
            // `owner_name` is read by its name only: the unit's items are the view's fields, as
            // the view serialized gives them.
            "id",
            "owner",
            "area",
            "kind",
            "detail",
            "strength",
            "precision",
        ])
    }
}

/// A view of every kind of field, for tests.
#[cfg(test)]
pub(crate) fn sample_view() -> PowerView {
    use crate::engine::visibility::Precision;
    use crate::report::map::MapView;
    use crate::report::view::{NextTurn, OrdersView};
    let unit = |id: &str, precision: Precision| UnitLine {
        id: id.to_string(),
        owner: "france".to_string(),
        area: "Paris".to_string(),
        kind: "corps",
        detail: "infantry corps, 6 factors".to_string(),
        strength: 6,
        precision,
        place: None,
    };
    let events = crate::report::seen_events::sample_events();
    let seen = crate::report::seen_events::SeenEvents::new(
        &events,
        &[0, 1],
        "france",
        crate::decide::DecidedBy::Sop.describe(),
    );
    PowerView {
        game: "g".to_string(),
        title: "A <title>".to_string(),
        ruleset: "Empires in Arms".to_string(),
        ruleset_id: "eia".to_string(),
        options: vec!["chase-by-order (EiA 6.3.5: a <test>)".to_string()],
        turn: 3,
        date: "May 1805".to_string(),
        power: "france".to_string(),
        power_name: "France & <Co>".to_string(),
        player: Some("ney".to_string()),
        player_rank: None,
        power_colour: Some("#0000ff".to_string()),
        orders: OrdersView {
            received: true,
            accepted: vec!["line 3: move FR-I Ulm".to_string()],
            lines: vec![(3, "move FR-I Ulm".to_string())],
            rejected: 1,
            diagnostics: "line 4: no such unit".to_string(),
            entropy: None,
        },
        due: true,
        without_orders: "your standing orders and the SOP",
        units: vec![unit("FR-I", Precision::Exact)],
        seen: vec![unit("", Precision::Approximate)],
        owner_names: Default::default(),
        position: vec!["Paris: French".to_string()],
        decisions: seen.only(|e| e.decision.is_some()),
        events: seen,
        map: MapView {
            areas: Vec::new(),
            units: Vec::new(),
            moves: Vec::new(),
            retreats: Vec::new(),
            arrivals: Vec::new(),
            combats: Vec::new(),
            marks: Vec::new(),
        },
        next: NextTurn {
            turn: 4,
            date: "June 1805".to_string(),
            deadline: "not set".to_string(),
            commitment: "ab".repeat(32),
            rules: String::new(),
        },
        orders_template: "game g\n".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> PowerView {
        super::sample_view()
    }

    /// Every field of the view reads as the view serialized gives it, nested ones too, and in the
    /// same order: a game's own template sees what it saw when the view was serialized whole.
    #[test]
    fn the_view_as_objects_reads_as_the_view_serialized() {
        let view = Arc::new(view());
        let serialized = Value::from_serialize(&*view);
        let objects = ReportValues::new(view).context();
        let env = minijinja::Environment::new();
        let show = |v: &Value| {
            env.render_str(
                "{{ v }}|{% for k, x in v|items %}{{ k }}={{ x }};{% endfor %}\
                 {% for e in v.events %}{% for k, x in e|items %}{{ k }}={{ x }};{% endfor %}\
                 {% for r in e.rolls %}{{ r.each[1].face }}{{ r|length }}{% endfor %}{% endfor %}\
                 {% for u in v.seen %}{{ u.precision }}{{ u|length }}{% endfor %}",
                minijinja::context! { v => v.clone() },
            )
            .unwrap()
        };
        let (objects, serialized) = (show(&objects), show(&serialized));
        assert!(objects.contains("Battle of Ulm") && objects.contains("approximate"));
        assert_eq!(objects, serialized);
    }

    /// A value added comes before the view's fields, and one added again replaces the first.
    #[test]
    fn values_added_come_first_and_replace_their_namesake() {
        let values = ReportValues::new(Arc::new(view()))
            .with("header", Value::from("h1"))
            .with("map_svg", Value::from("m"))
            .with("header", Value::from("h2"));
        let env = minijinja::Environment::new();
        let out = env
            .render_str(
                "{% for k in v|list %}{{ k }} {% endfor %}{{ v.header }} {{ v.map_svg }} {{ v.title }}",
                minijinja::context! { v => values.context() },
            )
            .unwrap();
        assert!(out.starts_with("header map_svg game title "), "{out}");
        assert!(out.ends_with("h2 m A <title>"), "{out}");
    }
}
