//! The long lists of a report, written by pbem rather than by a template loop: what a power saw
//! happen, its units and those it sees (a power of a 1,000-power game sees a thousand events and
//! hundreds of units), which the template engine made five times slower than writing them here.
//! The bundled templates show them as `{{ events_text }}`, `{{ units_text }}`, `{{ seen_text }}`
//! and their `_html` forms; a game's own template may still loop over `events`, `units` and `seen`
//! for lines of its own. The lines are those the bundled templates' loops wrote before, byte for
//! byte (`tests::the_lines_are_those_of_a_template_loop`).

use super::seen_events::{SeenEvent, SeenEvents};
use super::view::{OwnerNames, UnitLine};

/// The events of a text report: for each, `- text`, its citation (and how it was decided) and its
/// rolls, a line each; no newline after the last line. Written from the turn's events as they are.
pub fn events_text(events: &SeenEvents) -> String {
    joined(events, 256, event_text)
}

/// The events of the HTML report, escaped: an `<li>` each (the page holds the `<ol>`); no newline
/// after the last.
pub fn events_html(events: &SeenEvents) -> String {
    joined(events, 512, event_html)
}

/// A view's events in the three forms that list them: [`events_text`], [`events_html`] and the
/// JSON report's `events` array (`json::events`), written in one pass, each event read once for
/// the three; and the decisions taken for the power likewise ([`decisions_text`],
/// [`decisions_html`], the JSON report's `decisions`). A turn's events are read cold from memory
/// (a 1,000-power turn's reports list 1.2 million of them, issue 39): read once for each form,
/// they cost the reports as much as a copy of each did.
pub struct EventForms {
    pub text: String,
    pub html: String,
    pub json: Vec<u8>,
    pub decisions_text: String,
    pub decisions_html: String,
    pub decisions_json: Vec<u8>,
}

impl EventForms {
    /// The forms of `events` and of `decisions` (the view's two lists).
    pub fn of(events: &SeenEvents, decisions: &SeenEvents) -> serde_json::Result<EventForms> {
        let n = events.len();
        let d = decisions.len();
        let mut forms = EventForms {
            text: String::with_capacity(n * 256),
            html: String::with_capacity(n * 512),
            json: Vec::with_capacity(n * 512),
            decisions_text: String::with_capacity(d * 192),
            decisions_html: String::with_capacity(d * 256),
            decisions_json: Vec::with_capacity(d * 512),
        };
        forms.json.push(b'[');
        for (i, seen) in events.iter().enumerate() {
            event_text(&mut forms.text, seen);
            event_html(&mut forms.html, seen);
            if i > 0 {
                forms.json.push(b',');
            }
            super::json::write_event(&mut forms.json, seen)?;
        }
        forms.json.push(b']');
        forms.text.pop();
        forms.html.pop();
        forms.decisions_json.push(b'[');
        for (i, seen) in decisions.iter().enumerate() {
            decision_text(&mut forms.decisions_text, seen);
            decision_html(&mut forms.decisions_html, seen);
            if i > 0 {
                forms.decisions_json.push(b',');
            }
            super::json::write_event(&mut forms.decisions_json, seen)?;
        }
        forms.decisions_json.push(b']');
        forms.decisions_text.pop();
        forms.decisions_html.pop();
        Ok(forms)
    }
}

/// The decisions taken for a power, in a text report: `- text [citation]` each; no newline after
/// the last.
pub fn decisions_text(decisions: &SeenEvents) -> String {
    joined(decisions, 192, decision_text)
}

/// The decisions taken for a power in the HTML report, escaped: an `<li>` each (the page holds the
/// `<ul>`); no newline after the last.
pub fn decisions_html(decisions: &SeenEvents) -> String {
    joined(decisions, 256, decision_html)
}

/// Each of `list` written by `write` (a line or an element each, with its newline), with room
/// for `per` bytes an item; no newline after the last.
fn joined(list: &SeenEvents, per: usize, write: impl Fn(&mut String, SeenEvent<'_>)) -> String {
    let mut out = String::with_capacity(list.len() * per);
    for seen in list.iter() {
        write(&mut out, seen);
    }
    out.pop();
    out
}

/// One decision of [`decisions_text`], with its newline.
fn decision_text(out: &mut String, seen: SeenEvent<'_>) {
    let e = seen.event;
    out.push_str("- ");
    out.push_str(seen.text());
    out.push_str(" [");
    out.push_str(&e.rule);
    out.push_str(": ");
    out.push_str(&e.topic);
    out.push_str("]\n");
}

/// One decision of [`decisions_html`], with its newline.
fn decision_html(out: &mut String, seen: SeenEvent<'_>) {
    let e = seen.event;
    out.push_str(r#"<li style="margin:0 0 4px 0;">"#);
    escape(out, seen.text());
    out.push_str(r#" <span style="font-size:13px;color:#555555;">["#);
    escape(out, &e.rule);
    out.push_str(": ");
    escape(out, &e.topic);
    out.push_str("]</span></li>\n");
}

/// One event of [`events_text`], with its last newline.
fn event_text(out: &mut String, seen: SeenEvent<'_>) {
    let e = seen.event;
    out.push_str("- ");
    out.push_str(seen.text());
    out.push_str("\n    [");
    out.push_str(&e.rule);
    out.push_str(": ");
    out.push_str(&e.topic);
    if let Some(how) = seen.decided() {
        out.push_str("; decided ");
        out.push_str(how);
    }
    out.push_str("]\n");
    for r in seen.rolls() {
        out.push_str("    roll ");
        out.push_str(&r.label);
        out.push_str(": ");
        r.write_dice_names(out);
        out.push_str(" -> ");
        r.write_faces(out);
        out.push('\n');
    }
}

/// One event of [`events_html`], with its last newline.
fn event_html(out: &mut String, seen: SeenEvent<'_>) {
    let e = seen.event;
    out.push_str(r#"<li style="margin:0 0 8px 0;">"#);
    escape(out, seen.text());
    out.push_str("<br />\n");
    out.push_str(r#"<span style="font-size:13px;color:#555555;">["#);
    escape(out, &e.rule);
    out.push_str(": ");
    escape(out, &e.topic);
    if let Some(how) = seen.decided() {
        out.push_str("; decided ");
        escape(out, how);
    }
    out.push_str("]</span>\n");
    for r in seen.rolls() {
        out.push_str(
            r#"<br /><span style="font-family:'Courier New',Courier,monospace;font-size:13px;">roll "#,
        );
        escape(out, &r.label);
        out.push_str(": ");
        // Dice and faces are digits, spaces and `d`: nothing to escape.
        r.write_dice_names(out);
        out.push_str(" -&gt; ");
        r.write_faces(out);
        out.push_str("</span>\n");
    }
    out.push_str("</li>\n");
}

/// The power's own units in a text report: id, area and what it is, in columns; no newline after
/// the last.
pub fn units_text(units: &[UnitLine]) -> String {
    let mut out = String::with_capacity(units.len() * 80);
    for u in units {
        out.push_str("  ");
        padded(&mut out, &u.id, 18);
        out.push(' ');
        padded(&mut out, &u.area, 14);
        out.push(' ');
        out.push_str(&u.detail);
        out.push('\n');
    }
    out.pop();
    out
}

/// The foreign units a power sees, in a text report: as [`units_text`] with their owner, and
/// "(from afar)" for a force seen only approximately (it has no id); each owner named by `names`.
pub fn seen_text(seen: &[UnitLine], names: &OwnerNames) -> String {
    let mut out = String::with_capacity(seen.len() * 80);
    for u in seen {
        out.push_str("  ");
        padded(&mut out, seen_id(u), 18);
        out.push(' ');
        padded(&mut out, &u.area, 14);
        out.push(' ');
        out.push_str(names.name(&u.owner));
        out.push_str(": ");
        out.push_str(&u.detail);
        out.push('\n');
    }
    out.pop();
    out
}

/// `text` left-aligned in a column of `width` characters, as `format!("{text:<width$}")` writes it
/// (the template's `pad`): spaces after it up to that many characters, none when it is longer.
fn padded(out: &mut String, text: &str, width: usize) {
    out.push_str(text);
    let chars = if text.is_ascii() {
        text.len()
    } else {
        text.chars().count()
    };
    for _ in chars..width {
        out.push(' ');
    }
}

/// The power's own units as rows of the HTML report's table (the page holds the table and its
/// head); no newline after the last.
pub fn units_html(units: &[UnitLine]) -> String {
    let mut out = String::with_capacity(units.len() * 256);
    for u in units {
        out.push_str(UNIT_CELL);
        escape(&mut out, &u.id);
        out.push_str(AREA_CELL);
        escape(&mut out, &u.area);
        out.push_str(LAST_CELL);
        escape(&mut out, &u.detail);
        out.push_str("</td></tr>\n");
    }
    out.pop();
    out
}

/// The foreign units a power sees as rows of the HTML report's table, with their owner named by
/// `names`.
pub fn seen_html(seen: &[UnitLine], names: &OwnerNames) -> String {
    let mut out = String::with_capacity(seen.len() * 300);
    for u in seen {
        out.push_str(UNIT_CELL);
        escape(&mut out, seen_id(u));
        out.push_str(AREA_CELL);
        escape(&mut out, &u.area);
        out.push_str(r#"</td><td style="padding:2px 12px 2px 0;">"#);
        escape(&mut out, names.name(&u.owner));
        out.push_str(LAST_CELL);
        escape(&mut out, &u.detail);
        out.push_str("</td></tr>\n");
    }
    out.pop();
    out
}

/// The cells of a unit's row in the HTML report, up to its id, its area and its last column.
const UNIT_CELL: &str =
    r#"<tr><td style="padding:2px 12px 2px 0;font-family:'Courier New',Courier,monospace;">"#;
const AREA_CELL: &str = r#"</td><td style="padding:2px 12px 2px 0;">"#;
const LAST_CELL: &str = r#"</td><td style="padding:2px 0;">"#;

/// A seen unit's id, or "(from afar)" for a force seen only approximately.
fn seen_id(u: &UnitLine) -> &str {
    if u.id.is_empty() {
        "(from afar)"
    } else {
        &u.id
    }
}

/// `text` escaped as the HTML templates escape every value (minijinja's own escaping, `HtmlEscape`:
/// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&#x27;`, `&#x2f;`): copied as it is when it holds none of
/// the six bytes that escaping changes, as most of a report's text does (looked for eight bytes at
/// a time in a word: a report's events are millions of short strings, for which a search call
/// each cost more than the search), else copied between them.
fn escape(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    if !has_html_special(bytes) {
        out.push_str(text);
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let entity = match b {
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'&' => "&amp;",
            b'"' => "&quot;",
            b'\'' => "&#x27;",
            b'/' => "&#x2f;",
            _ => continue,
        };
        // Each of the six is an ASCII byte, so that `i` is a character boundary.
        out.push_str(&text[start..i]);
        out.push_str(entity);
        start = i + 1;
    }
    out.push_str(&text[start..]);
}

/// Whether `bytes` holds one of the six bytes HTML escaping changes.
fn has_html_special(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    // Whether a byte of `x` is zero: exactly, whatever the others (a borrow reaches only bytes
    // above a zero one).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let special = |x: u64| {
        [b'<', b'>', b'&', b'"', b'\'', b'/']
            .iter()
            .fold(0, |any, &c| any | zero(x ^ (ONES * u64::from(c))))
            != 0
    };
    super::json::any_word(bytes, special)
}

#[cfg(test)]
mod tests {
    use super::*;
    use minijinja::HtmlEscape;

    proptest::proptest! {
        /// Any text, the bytes HTML escapes beside any others in any order (the words' borrows
        /// run across them), is escaped as minijinja escapes it.
        #[test]
        fn any_text_is_escaped_as_minijinja_escapes_it(
            chars in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just('a'),
                    proptest::sample::select(vec!['<', '>', '&', '"', '\'', '/']),
                    proptest::sample::select(vec!['\0', '\u{1}', '=', '.', '?', '\u{e9}', '\u{2f}', '\u{7f}']),
                    proptest::char::any(),
                ],
                0..40,
            ),
        ) {
            let text: String = chars.into_iter().collect();
            let mut out = String::new();
            escape(&mut out, &text);
            proptest::prop_assert_eq!(out, HtmlEscape(&text).to_string());
        }
    }

    /// The loops the bundled templates held before these lists, as minijinja renders them.
    const TEXT_LOOP: &str = "{% for e in events %}
- {{ e.text }}
    [{{ e.citation }}{% if e.decided %}; decided {{ e.decided }}{% endif %}]
{% for r in e.rolls %}
    roll {{ r.label }}: {{ r.dice }} -> {{ r.faces }}
{% endfor %}
{% endfor %}";
    const HTML_LOOP: &str = r#"{% for e in events %}
<li style="margin:0 0 8px 0;">{{ e.text }}<br />
<span style="font-size:13px;color:#555555;">[{{ e.citation }}{% if e.decided %}; decided {{ e.decided }}{% endif %}]</span>
{% for r in e.rolls %}
<br /><span style="font-family:'Courier New',Courier,monospace;font-size:13px;">roll {{ r.label }}: {{ r.dice }} -&gt; {{ r.faces }}</span>
{% endfor %}
</li>
{% endfor %}"#;

    /// The decisions' loops the bundled templates held before `decisions_text` and `_html`.
    const DECISIONS_TEXT_LOOP: &str = "{% for e in events %}
- {{ e.text }} [{{ e.citation }}]
{% endfor %}";
    const DECISIONS_HTML_LOOP: &str = r#"{% for e in events %}
<li style="margin:0 0 4px 0;">{{ e.text }} <span style="font-size:13px;color:#555555;">[{{ e.citation }}]</span></li>
{% endfor %}"#;

    const UNITS_TEXT_LOOP: &str = "{% for u in units %}
  {{ u.id|pad(18) }} {{ u.area|pad(14) }} {{ u.detail }}
{% endfor %}";
    const SEEN_TEXT_LOOP: &str = r#"{% for u in units %}
  {{ (u.id or "(from afar)")|pad(18) }} {{ u.area|pad(14) }} {{ u.owner }}: {{ u.detail }}
{% endfor %}"#;
    const UNITS_HTML_LOOP: &str = r#"{% for u in units %}
<tr><td style="padding:2px 12px 2px 0;font-family:'Courier New',Courier,monospace;">{{ u.id }}</td><td style="padding:2px 12px 2px 0;">{{ u.area }}</td><td style="padding:2px 0;">{{ u.detail }}</td></tr>
{% endfor %}"#;
    const SEEN_HTML_LOOP: &str = r#"{% for u in units %}
<tr><td style="padding:2px 12px 2px 0;font-family:'Courier New',Courier,monospace;">{{ u.id or "(from afar)" }}</td><td style="padding:2px 12px 2px 0;">{{ u.area }}</td><td style="padding:2px 12px 2px 0;">{{ u.owner }}</td><td style="padding:2px 0;">{{ u.detail }}</td></tr>
{% endfor %}"#;

    fn rendered(
        name: &str,
        source: &str,
        events: &[crate::report::seen_events::EventLine],
    ) -> String {
        rendered_with(
            name,
            source,
            "events",
            minijinja::Value::from_serialize(events),
        )
    }

    fn rendered_units(name: &str, source: &str, units: &[UnitLine]) -> String {
        rendered_with(
            name,
            source,
            "units",
            minijinja::Value::from_serialize(units),
        )
    }

    fn rendered_with(name: &str, source: &str, key: &str, value: minijinja::Value) -> String {
        let mut env = minijinja::Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.add_filter("pad", |text: String, width: usize| {
            format!("{text:<width$}")
        });
        env.add_template(name, source).unwrap();
        let mut context = std::collections::BTreeMap::new();
        context.insert(key.to_string(), value);
        let out = env.get_template(name).unwrap().render(context).unwrap();
        out.strip_suffix('\n').unwrap_or(&out).to_string()
    }

    #[test]
    fn the_lines_are_those_of_a_template_loop() {
        let events = crate::report::seen_events::odd_events();
        let lines = events.lines();
        let text = events_text(&events);
        assert_eq!(text, rendered("loop.txt", TEXT_LOOP, &lines));
        // How another power's decision was taken is his alone: france reads the outcome.
        assert!(!text.contains("decided for"), "{text}");
        assert!(!text.contains("by its"), "{text}");
        assert!(text.contains("- Theirs.\n"), "{text}");
        assert!(text.contains(r#"[EiA 7.5: land <combat> & 'pursuit' "x"; decided at random]"#));
        assert!(!text.contains("sealed/x"), "{text}");
        let html = events_html(&events);
        assert_eq!(html, rendered("loop.html", HTML_LOOP, &lines));
        assert!(html.contains("&lt;b&gt;&quot;Ney&quot; &amp; &#x27;Soult&#x27;&lt;&#x2f;b&gt;"));
        assert_eq!(events_text(&SeenEvents::default()), "");
    }

    /// The decisions taken for a power, in words HTML escapes too, are written as the bundled
    /// templates' loops over `decisions` wrote them.
    #[test]
    fn the_decisions_are_those_of_a_template_loop() {
        let decisions = crate::report::seen_events::odd_events().only(|e| e.decision.is_some());
        assert!(decisions.len() >= 2);
        let lines = decisions.lines();
        let text = decisions_text(&decisions);
        assert_eq!(text, rendered("d.txt", DECISIONS_TEXT_LOOP, &lines));
        assert!(text.contains("& 'pursuit'"), "{text}");
        let html = decisions_html(&decisions);
        assert_eq!(html, rendered("d.html", DECISIONS_HTML_LOOP, &lines));
        assert!(html.contains("&amp; &#x27;pursuit&#x27;"), "{html}");
        assert_eq!(decisions_text(&SeenEvents::default()), "");
        assert_eq!(decisions_html(&SeenEvents::default()), "");
    }

    /// The three forms written in one pass are those written one by one, the JSON one included.
    #[test]
    fn the_forms_of_the_events_written_at_once_are_those_written_apart() {
        for events in [
            crate::report::seen_events::odd_events(),
            SeenEvents::default(),
        ] {
            let decisions = events.only(|e| e.decision.is_some());
            let forms = EventForms::of(&events, &decisions).unwrap();
            assert_eq!(forms.text, events_text(&events));
            assert_eq!(forms.html, events_html(&events));
            assert_eq!(forms.json, crate::report::json::events(&events).unwrap());
            assert_eq!(forms.decisions_text, decisions_text(&decisions));
            assert_eq!(forms.decisions_html, decisions_html(&decisions));
            assert_eq!(
                forms.decisions_json,
                crate::report::json::events(&decisions).unwrap()
            );
        }
        let odd = crate::report::seen_events::odd_events();
        let json = String::from_utf8(EventForms::of(&odd, &odd).unwrap().json).unwrap();
        assert!(json.starts_with(r#"[{"rule":"EiA 7.5","#), "{json}");
    }

    /// Text without any of the bytes HTML escapes is copied; each of them, alone, at either end or
    /// amid text, is escaped as minijinja escapes it.
    #[test]
    fn the_html_escaping_is_minijinja_s_for_plain_text_and_each_escaped_byte() {
        let mut texts = vec![
            String::new(),
            "C4023 (p00) moves A121-64 - A120-64.".to_string(),
            "EiA 7.5.1.3: the order of combats is random; é ü 1805".to_string(),
        ];
        for c in ['<', '>', '&', '"', '\'', '/'] {
            texts.extend([
                c.to_string(),
                format!("{c}Ulm"),
                format!("Ulm{c}"),
                format!("a {c} b"),
            ]);
        }
        for text in &texts {
            let mut out = "kept ".to_string();
            escape(&mut out, text);
            assert_eq!(out, format!("kept {}", HtmlEscape(text)), "{text:?}");
        }
        let mut plain = String::new();
        escape(&mut plain, &texts[1]);
        assert_eq!(plain, texts[1]);
    }

    /// Units of every shape: one seen only approximately (no id), names longer than their
    /// column, text that HTML escapes, and a name of letters beyond ASCII (columns count them as
    /// one each, as the template's `pad` did).
    #[test]
    fn the_unit_rows_are_those_of_a_template_loop() {
        let view = crate::report::values::sample_view();
        let mut units = view.units.clone();
        units.extend(view.seen.clone());
        let mut odd = units[0].clone();
        odd.id = "A-very-long-unit-id-beyond-18".to_string();
        odd.area = "Württemberg <b>&".to_string();
        odd.owner = "l'Autriche/x".to_string();
        units.push(odd);
        assert_eq!(
            units_text(&units),
            rendered_units("u.txt", UNITS_TEXT_LOOP, &units)
        );
        assert_eq!(
            seen_text(&units, &OwnerNames::default()),
            rendered_units("s.txt", SEEN_TEXT_LOOP, &units)
        );
        assert_eq!(
            units_html(&units),
            rendered_units("u.html", UNITS_HTML_LOOP, &units)
        );
        assert_eq!(
            seen_html(&units, &OwnerNames::default()),
            rendered_units("s.html", SEEN_HTML_LOOP, &units)
        );
        assert!(seen_text(&units, &OwnerNames::default()).contains("(from afar)"));
        assert_eq!(units_text(&[]), "");
    }
}
