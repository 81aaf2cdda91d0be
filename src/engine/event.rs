//! Events: one thing that happened in a turn, with the rule it applied, the dice it rolled and the
//! powers that may see it. The turn log is the list of events; reports are filtered views of it.

use serde::Serialize;

use crate::decide::DecidedBy;
use crate::rule::Rule;

/// One die: its number of faces and the face it showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Die {
    pub sides: u32,
    pub face: u32,
}

/// The dice of one labelled event, in the order they were drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roll {
    pub label: String,
    pub dice: Vec<Die>,
    /// A sealed roll (`DiceBox::roll_sealed`): in the turn log and counted in the record and the
    /// header, but no report lists it until the referee unseals it (`engine::sealed`).
    pub sealed: bool,
}

impl Serialize for Roll {
    /// Written compactly: `{ label = "combat/area=Ulm/round=1", dice = "d6 d6", faces = [5, 4] }`,
    /// with `sealed = true` after them for a sealed roll.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Roll", 3 + usize::from(self.sealed))?;
        st.serialize_field("label", &self.label)?;
        st.serialize_field("dice", &self.dice_names())?;
        st.serialize_field(
            "faces",
            &self.dice.iter().map(|d| d.face).collect::<Vec<_>>(),
        )?;
        if self.sealed {
            st.serialize_field("sealed", &true)?;
        }
        st.end()
    }
}

impl Roll {
    /// "5 4 (d6 d6)"-like text: faces, then the dice.
    pub fn faces(&self) -> String {
        self.spaced(|d| d.face, "")
    }

    /// `number` of each die after `prefix`, spaced: written into one string (every report copies
    /// the rolls it lists: issue 39).
    fn spaced(&self, number: impl Fn(&Die) -> u32, prefix: &str) -> String {
        let mut out = String::with_capacity(self.dice.len() * (prefix.len() + 3));
        self.spaced_into(&mut out, number, prefix);
        out
    }

    /// As [`Roll::spaced`], written at the end of `out` (a report writes its rolls where they
    /// stand, without a string of their own: issue 39).
    fn spaced_into(&self, out: &mut String, number: impl Fn(&Die) -> u32, prefix: &str) {
        use std::fmt::Write;
        for (i, d) in self.dice.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(prefix);
            let _ = write!(out, "{}", number(d));
        }
    }

    /// [`Roll::dice_names`] written at the end of `out`.
    pub fn write_dice_names(&self, out: &mut String) {
        self.spaced_into(out, |d| d.sides, "d");
    }

    /// [`Roll::faces`] written at the end of `out`.
    pub fn write_faces(&self, out: &mut String) {
        self.spaced_into(out, |d| d.face, "");
    }

    /// The roll as a report (or the unsealed list) writes it: `roll <label>: d6 d6 -> 5 4`.
    pub fn line(&self) -> String {
        format!(
            "roll {}: {} -> {}",
            self.label,
            self.dice_names(),
            self.faces()
        )
    }

    /// Die `die` (from 0) as an event's text tells it: `format!("a {}", roll.told(0))`, rendered
    /// as its face by the event that carries the roll (`engine::binding`).
    pub fn told(&self, die: usize) -> crate::engine::binding::Told<'_> {
        crate::engine::binding::told(&self.label, die)
    }

    /// Die `die` (from 0) as the text of a later event repeats it (WBTS's leader shifts "the die
    /// from 5"): rendered as its face, and bound in the template to this roll, listed under an
    /// event above (`{LABEL die N above}`).
    pub fn repeated(&self, die: usize) -> crate::engine::binding::Told<'_> {
        let face = self.dice.get(die).map_or(0, |d| d.face);
        crate::engine::binding::repeated(&self.label, die, face)
    }

    pub fn dice_names(&self) -> String {
        self.spaced(|d| d.sides, "d")
    }
}

/// Who settled a decision and for whom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DecisionNote {
    /// The power the decision was taken for.
    pub power: String,
    pub by: DecidedBy,
}

/// The powers an event is told to, sorted, each once: what a `BTreeSet` of them gives, in a list
/// of their own size. A turn keeps every event while its reports are made, and an event is told
/// to a few powers: a set took a node of room for eleven names for each (issue 39).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Audience(Vec<String>);

impl Audience {
    pub fn contains(&self, power: &str) -> bool {
        self.0.binary_search_by(|p| p.as_str().cmp(power)).is_ok()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, String> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether every power `other` is told to is told this too.
    pub fn is_superset(&self, other: &Audience) -> bool {
        other.iter().all(|p| self.contains(p))
    }

    /// Adds `powers`, given sorted and each once: to an empty audience, each name copied once into
    /// a list made at its size, not sorted again (an EiA event's audience, `Phase::push_seen`: a
    /// turn of 1,000 powers makes some 200,000 events, issue 39); otherwise as [`Extend::extend`].
    pub fn add_sorted(&mut self, powers: &[&str]) {
        debug_assert!(powers.windows(2).all(|w| w[0] < w[1]), "sorted, each once");
        if !self.0.is_empty() {
            self.extend(powers.iter().map(|p| p.to_string()));
            return;
        }
        self.0 = Vec::with_capacity(powers.len());
        self.0.extend(powers.iter().map(|p| p.to_string()));
    }
}

impl Extend<String> for Audience {
    /// Adds the powers, keeping the list sorted, each once, and without spare room.
    fn extend<I: IntoIterator<Item = String>>(&mut self, powers: I) {
        let before = self.0.len();
        self.0.extend(powers);
        if self.0.len() != before {
            self.0.sort_unstable();
            self.0.dedup();
            self.0.shrink_to_fit();
        }
    }
}

impl FromIterator<String> for Audience {
    fn from_iter<I: IntoIterator<Item = String>>(powers: I) -> Self {
        let mut audience = Audience::default();
        audience.extend(powers);
        audience
    }
}

impl<'a> IntoIterator for &'a Audience {
    type Item = &'a String;
    type IntoIter = std::slice::Iter<'a, String>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl std::fmt::Debug for Audience {
    /// As the set it stands for: `{"austria", "france"}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(&self.0).finish()
    }
}

impl Serialize for Audience {
    /// A list of the powers, in order: as the set it stands for was written.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(&self.0)
    }
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    /// The rule applied, cited: "EiA 7.5.2.10.2".
    pub rule: String,
    /// What the rule is about, in our words: "victors always pursue".
    pub topic: String,
    /// A short machine name: "move", "combat", "round", "decision", "pursuit", "retreat", "control".
    pub kind: String,
    /// The area the event happened in, if one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area: Option<String>,
    /// One or two sentences for the reports, rendered from `template` when it tells dice.
    pub text: String,
    /// The text with each die it tells as `{LABEL die N}` (`engine::binding`): the binding of its
    /// numbers to its rolls, which `pbem verify` renders again. None when the text tells no die.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<DecisionNote>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Roll>,
    /// The powers that may see this event, sorted: each is told it whole (a power that may see
    /// only part of what happened is told another event, in the words his sight allows).
    pub visible_to: Audience,
    /// The units it tells of, by id, where a reader needs them as data and not as words (GITM 4.2:
    /// the brigades sighted on a tactical map).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<String>,
    /// The places of a move it tells, in order, as far as its audience saw them: the start seen to
    /// the end seen. An end not seen is an empty place (GITM 4.5: an arrival seen alone is
    /// `["", to]`, a departure seen alone `[from, ""]`). A map draws a move's arrow from these
    /// alone, never from where the unit stood unseen, and an arrival seen alone as a mark where it
    /// came.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub route: Vec<String>,
    /// The dice its text repeats from rolls of events above it (label, die from 1, face), which
    /// it renders them with: the template names them (`{LABEL die N above}`), the reports list
    /// them under their own events.
    #[serde(skip)]
    pub repeats: Vec<(String, usize, u32)>,
    /// The text and template as every power but the deciding one reads them, when the text tells
    /// how a decision was taken (`DecidedBy::aside`): the outcome alone ([`Event::text_for`]).
    /// `text` and `template` are the whole, which the deciding power and the referee's log read.
    #[serde(skip)]
    outcome: Option<Box<Words>>,
}

/// An event's text and its template (`Event::outcome`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Words {
    text: String,
    template: Option<String>,
}

impl Words {
    /// The words of `text` (perhaps telling dice): kept as its template when it tells one, the
    /// text without spare room otherwise (a turn keeps every event while its reports are made:
    /// issue 39).
    fn of(mut text: String) -> Words {
        let template = crate::engine::binding::template_of(&text);
        if template.is_none() {
            text.shrink_to_fit();
        }
        Words { text, template }
    }

    /// The text rendered from the template, with `face` giving each die it tells (a die `face`
    /// does not know stays `{LABEL die N}`).
    fn render(&mut self, face: impl Fn(&str, usize, bool) -> Option<u32>) {
        let Some(t) = &self.template else { return };
        if let Ok(text) = crate::engine::binding::render_template(t, face) {
            self.text = text;
            self.text.shrink_to_fit();
        }
    }
}

impl Event {
    /// The event; a `text` that tells dice (written with `Roll::told`) is kept as the template and
    /// rendered from the rolls as they are added.
    pub fn new(rule: Rule, kind: &str, text: impl Into<String>) -> Self {
        Event::with_rolls(rule, kind, text.into(), Vec::new())
    }

    /// As [`Event::new`] followed by [`Event::roll`]: the text rendered once, with the roll (a turn
    /// of 1,000 powers makes some 100,000 events that each tell a roll: issue 39).
    pub fn rolled(rule: Rule, kind: &str, text: impl Into<String>, roll: Roll) -> Self {
        Event::with_rolls(rule, kind, text.into(), vec![roll])
    }

    /// The event with `rolls`, its text rendered from them. A text that tells how a decision was
    /// taken (`DecidedBy::aside`) is kept whole and, for every power but the deciding one,
    /// without those words (`decide::told_apart`).
    fn with_rolls(rule: Rule, kind: &str, text: String, rolls: Vec<Roll>) -> Self {
        let (whole, outcome) = match crate::decide::told_apart(&text) {
            Some((whole, outcome)) => (whole, Some(Box::new(Words::of(outcome)))),
            None => (text, None),
        };
        let repeats = crate::engine::binding::repeats(&whole);
        let Words { text, template } = Words::of(whole);
        let mut e = Event {
            rule: rule.cite(),
            topic: rule.topic.to_string(),
            kind: kind.to_string(),
            area: None,
            text,
            template,
            decision: None,
            rolls,
            visible_to: Audience::default(),
            units: Vec::new(),
            route: Vec::new(),
            repeats,
            outcome,
        };
        e.render();
        e
    }

    /// The text rendered from the template with the faces of the rolls it carries; a die of a roll
    /// it does not carry (or a sealed one, whose faces no report may tell) stays `{LABEL die N}`,
    /// which the property tests refuse (`dice::labels::check_events`). The outcome alone likewise.
    fn render(&mut self) {
        if self.template.is_none() && self.outcome.is_none() {
            return;
        }
        let mut whole = Words {
            text: std::mem::take(&mut self.text),
            template: self.template.take(),
        };
        let mut outcome = self.outcome.take();
        let this = &*self;
        let face = |l: &str, d: usize, above: bool| {
            if above {
                this.repeats
                    .iter()
                    .find(|(label, die, _)| label == l && *die == d)
                    .map(|r| r.2)
            } else {
                this.face(l, d)
            }
        };
        whole.render(face);
        if let Some(o) = outcome.as_mut() {
            o.render(face);
        }
        self.text = whole.text;
        self.template = whole.template;
        self.outcome = outcome;
    }

    /// Whether `viewer` is told how the decision it settled was taken: the power it was taken for,
    /// or anyone when it was taken for every power (`all`: the order of the combats). Every other
    /// power reads the outcome alone (`decide::Aside` tells why).
    pub fn tells_how_to(&self, viewer: &str) -> bool {
        self.decision
            .as_ref()
            .is_some_and(|d| d.power == viewer || d.power == "all")
    }

    /// The text as `viewer` reads it: whole for the deciding power, else the outcome alone.
    pub fn text_for(&self, viewer: &str) -> &str {
        match self.tells_how_to(viewer) {
            true => &self.text,
            false => self.outcome_text(),
        }
    }

    /// The template as `viewer` reads it, as [`Event::text_for`].
    pub fn template_for(&self, viewer: &str) -> Option<&str> {
        match self.tells_how_to(viewer) {
            true => self.template.as_deref(),
            false => self.outcome_template(),
        }
    }

    /// The text as every power but the deciding one reads it: without the words that tell how
    /// the decision was taken (`DecidedBy::aside`).
    pub fn outcome_text(&self) -> &str {
        self.outcome.as_ref().map_or(&self.text, |o| &o.text)
    }

    /// The template of [`Event::outcome_text`].
    pub fn outcome_template(&self) -> Option<&str> {
        match &self.outcome {
            Some(o) => o.template.as_deref(),
            None => self.template.as_deref(),
        }
    }

    /// The decision it settled, as `viewer` is told it: none for another power than the one it
    /// was taken for.
    pub fn decision_for(&self, viewer: &str) -> Option<&DecisionNote> {
        self.decision.as_ref().filter(|_| self.tells_how_to(viewer))
    }

    /// The face of die `die` (from 1) of the roll `label` it carries, shown in reports (not sealed).
    pub fn face(&self, label: &str, die: usize) -> Option<u32> {
        let r = self.rolls.iter().find(|r| r.label == label && !r.sealed)?;
        r.dice.get(die.checked_sub(1)?).map(|d| d.face)
    }

    /// Adds a roll, after the event was made (`roll` in a chain).
    pub fn push_roll(&mut self, roll: Roll) {
        self.rolls.push(roll);
        self.render();
    }

    pub fn at(mut self, area: &str) -> Self {
        self.area = Some(area.to_string());
        self
    }

    pub fn roll(mut self, roll: Roll) -> Self {
        self.push_roll(roll);
        self
    }

    /// Marks the event as a decision taken for `power`, and by which of the four.
    pub fn decided(mut self, power: impl Into<String>, by: DecidedBy) -> Self {
        self.decision = Some(DecisionNote {
            power: power.into(),
            by,
        });
        self
    }

    /// Adds a roll, if there is one.
    pub fn maybe_roll(mut self, roll: Option<Roll>) -> Self {
        if let Some(r) = roll {
            self.push_roll(r);
        }
        self
    }

    pub fn seen_by<'a>(mut self, powers: impl IntoIterator<Item = &'a str>) -> Self {
        self.visible_to
            .extend(powers.into_iter().map(str::to_string));
        self
    }

    /// Names the units it tells of ([`Event::units`]).
    pub fn naming<'a>(mut self, ids: impl IntoIterator<Item = &'a str>) -> Self {
        self.units.extend(ids.into_iter().map(str::to_string));
        self
    }

    /// The places of the move it tells, as its audience saw them ([`Event::route`]).
    pub fn route<'a>(mut self, places: impl IntoIterator<Item = &'a str>) -> Self {
        self.route.extend(places.into_iter().map(str::to_string));
        self
    }

    /// "EiA 7.5.2.10.2: victors always pursue".
    pub fn citation(&self) -> String {
        [self.rule.as_str(), ": ", self.topic.as_str()].concat()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(label: &str, face: u32, sealed: bool) -> Roll {
        Roll {
            label: label.to_string(),
            dice: vec![Die { sides: 6, face }],
            sealed,
        }
    }

    /// The text is rendered from the rolls as they are added: a die of a roll not added yet, or of
    /// a sealed roll (whose faces no report tells), stays `{LABEL die N}` for the property tests.
    #[test]
    fn a_told_die_is_rendered_from_the_roll_its_event_carries() {
        let rule = Rule::new("PoG", "11.2.2", "entrench");
        let (a, b) = (roll("entrench/space=Metz", 3, false), roll("x", 5, true));
        let e = Event::new(rule, "entrench", format!("a {} {{ok}}", a.told(0)));
        assert_eq!(e.text, "a {entrench/space=Metz die 1} {ok}");
        let e = e.roll(a.clone());
        assert_eq!(e.text, "a 3 {ok}");
        assert_eq!(
            e.template.as_deref(),
            Some("a {entrench/space=Metz die 1} {{ok}}")
        );
        let sealed = Event::new(rule, "detect", format!("{}", b.told(0))).roll(b.clone());
        assert_eq!(sealed.text, "{x die 1}");
        // Made with its roll, an event is the event made and then given the roll.
        for (r, text) in [
            (&a, format!("a {} and a {}", a.told(0), a.repeated(0))),
            (&b, format!("{}", b.told(0))),
            (&a, "no dice".to_string()),
        ] {
            assert_eq!(
                Event::rolled(rule, "entrench", text.clone(), r.clone()),
                Event::new(rule, "entrench", text).roll(r.clone())
            );
        }
        assert!(Event::new(rule, "move", "no dice").template.is_none());
    }

    /// An event that tells how a decision was taken tells it to the power it was taken for (and,
    /// taken for all, to everyone); every other power reads the outcome alone, with the dice its
    /// template binds rendered in both, and no note of the decision.
    #[test]
    fn how_a_decision_was_taken_is_told_to_the_deciding_power_alone() {
        use crate::decide::DecidedBy;
        let rule = Rule::new("EiA", "6.2.3", "interception");
        let r = roll("intercept/sea=Bay", 4, false);
        let text = format!(
            "RF tries to intercept at Bay{}: rolls {}.",
            DecidedBy::Standing.aside(" (", ")"),
            r.told(0)
        );
        let e = Event::rolled(rule, "intercept", text, r).decided("red", DecidedBy::Standing);
        assert_eq!(
            e.text,
            "RF tries to intercept at Bay (by its standing order): rolls 4."
        );
        assert_eq!(e.text_for("red"), e.text);
        assert_eq!(e.text_for("blue"), "RF tries to intercept at Bay: rolls 4.");
        assert_eq!(
            e.template_for("blue"),
            Some("RF tries to intercept at Bay: rolls {intercept/sea=Bay die 1}.")
        );
        assert_eq!(e.template_for("red"), e.template.as_deref());
        assert!(e.decision_for("red").is_some() && e.decision_for("blue").is_none());
        // The log keeps the whole.
        let log = serde_json::to_string(&e).unwrap();
        assert!(log.contains("(by its standing order)") && log.contains("standing"));
        // Taken for all, it is no power's secret.
        let all = Event::new(
            rule,
            "order",
            format!("x{}", DecidedBy::Roll.aside(" ", "")),
        )
        .decided("all", DecidedBy::Roll);
        assert_eq!(all.text_for("blue"), "x at random");
        assert!(all.decision_for("blue").is_some());
        // A text without a mark is the same for all; a decision's note still the decider's alone.
        let plain = Event::new(rule, "decision", "RF stays.").decided("red", DecidedBy::Sop);
        assert_eq!(plain.text_for("blue"), "RF stays.");
        assert!(plain.decision_for("blue").is_none());
        // Words marked with no decision noted are told to nobody.
        let orphan = Event::new(rule, "decision", format!("y{}", crate::decide::aside("!")));
        assert_eq!((orphan.text.as_str(), orphan.text_for("red")), ("y!", "y"));
    }

    /// A roll and an event as the reports cite them: the dice and faces spaced, none for a roll
    /// without dice; the rule, then its topic.
    #[test]
    fn a_roll_lists_its_dice_and_faces_and_an_event_cites_its_rule() {
        let mut r = roll("combat/area=Ulm/round=1", 5, false);
        r.dice.push(Die {
            sides: 10,
            face: 10,
        });
        r.dice.push(Die { sides: 6, face: 1 });
        assert_eq!(
            (r.dice_names(), r.faces()),
            ("d6 d10 d6".into(), "5 10 1".into())
        );
        assert_eq!(
            r.line(),
            "roll combat/area=Ulm/round=1: d6 d10 d6 -> 5 10 1"
        );
        r.dice.clear();
        assert_eq!((r.dice_names(), r.faces()), (String::new(), String::new()));
        let e = Event::new(Rule::new("PoG", "11.2.2", "entrench"), "entrench", "dug in");
        assert_eq!(e.citation(), format!("{}: {}", e.rule, e.topic));
        assert_eq!(e.citation(), "PoG 11.2.2: entrench");
    }

    /// A turn keeps all its events while the reports are made (issue 39): an event holds its
    /// texts and lists without spare room, and no buffer of the marks its text was read by.
    #[test]
    fn an_event_keeps_no_spare_room() {
        let rule = Rule::new("PoG", "11.2.2", "entrench");
        let a = roll("entrench/space=Metz", 3, false);
        let mut text = String::with_capacity(200);
        text.push_str(&format!("a {} and a {}", a.told(0), a.repeated(0)));
        let e = Event::new(rule, "entrench", text).roll(a);
        assert_eq!(e.text, "a 3 and a 3");
        assert_eq!(e.text.capacity(), e.text.len());
        let template = e.template.as_ref().expect("the text tells a die");
        assert_eq!(template.capacity(), template.len());
        assert_eq!(e.repeats.len(), 1);
        assert_eq!(e.repeats.capacity(), 1);
        let seen = Event::new(rule, "move", "seen")
            .seen_by(["russia", "austria", "russia"])
            .seen_by(["france", "austria"]);
        assert_eq!(
            seen.visible_to.iter().collect::<Vec<_>>(),
            ["austria", "france", "russia"]
        );
        assert_eq!(seen.visible_to.len(), seen.visible_to.0.capacity());
        assert!(seen.visible_to.contains("france") && !seen.visible_to.contains("prussia"));
        // Names given sorted make the audience the same names given in any order make, at its size.
        for before in [&[][..], &["france"], &["prussia", "austria"]] {
            let mut sorted = Event::new(rule, "move", "seen").seen_by(before.iter().copied());
            sorted
                .visible_to
                .add_sorted(&["austria", "france", "russia"]);
            let any = Event::new(rule, "move", "seen")
                .seen_by(before.iter().copied())
                .seen_by(["russia", "austria", "france"]);
            assert_eq!(sorted.visible_to, any.visible_to, "{before:?}");
            assert_eq!(sorted.visible_to.len(), sorted.visible_to.0.capacity());
        }
        assert_eq!(
            format!("{:?}", seen.visible_to),
            r#"{"austria", "france", "russia"}"#
        );
        for text in ["no dice", "{braces} but no die"] {
            let e = Event::new(rule, "move", String::with_capacity(100) + text);
            assert_eq!((e.repeats.capacity(), e.text.capacity()), (0, text.len()));
        }
    }
}
