//! The list of what a power saw happen, written by pbem rather than by a template loop: the bulk of
//! a report (a power of a 1,000-power game sees a thousand events and more), which the template
//! engine made five times slower than writing it here. The bundled templates show these lists as
//! `{{ events_text }}` and `{{ events_html }}`; a game's own template may still loop over `events`
//! for lines of its own. The lines are those the bundled templates' loop wrote before, byte for
//! byte (`tests::the_lines_are_those_of_a_template_loop`).

use std::fmt::Write;

use minijinja::HtmlEscape;

use super::view::EventLine;

/// The events of a text report: for each, `- text`, its citation (and how it was decided) and its
/// rolls, a line each; no newline after the last line.
pub fn events_text(events: &[EventLine]) -> String {
    let mut out = String::with_capacity(events.len() * 256);
    for e in events {
        out.push_str("- ");
        out.push_str(&e.text);
        out.push_str("\n    [");
        out.push_str(&e.citation);
        if let Some(d) = decided(e) {
            out.push_str("; decided ");
            out.push_str(d);
        }
        out.push_str("]\n");
        for r in &e.rolls {
            out.push_str("    roll ");
            out.push_str(&r.label);
            out.push_str(": ");
            out.push_str(&r.dice);
            out.push_str(" -> ");
            out.push_str(&r.faces);
            out.push('\n');
        }
    }
    out.pop();
    out
}

/// The events of the HTML report, escaped: an `<li>` each (the page holds the `<ol>`); no newline
/// after the last.
pub fn events_html(events: &[EventLine]) -> String {
    let mut out = String::with_capacity(events.len() * 512);
    for e in events {
        out.push_str(r#"<li style="margin:0 0 8px 0;">"#);
        escape(&mut out, &e.text);
        out.push_str("<br />\n");
        out.push_str(r#"<span style="font-size:13px;color:#555555;">["#);
        escape(&mut out, &e.citation);
        if let Some(d) = decided(e) {
            out.push_str("; decided ");
            escape(&mut out, d);
        }
        out.push_str("]</span>\n");
        for r in &e.rolls {
            out.push_str(
                r#"<br /><span style="font-family:'Courier New',Courier,monospace;font-size:13px;">roll "#,
            );
            escape(&mut out, &r.label);
            out.push_str(": ");
            escape(&mut out, &r.dice);
            out.push_str(" -&gt; ");
            escape(&mut out, &r.faces);
            out.push_str("</span>\n");
        }
        out.push_str("</li>\n");
    }
    out.pop();
    out
}

/// How the event's decision was taken, when it is one (an empty phrase is none, as in a template).
fn decided(e: &EventLine) -> Option<&str> {
    e.decided.as_deref().filter(|d| !d.is_empty())
}

/// `text` escaped as the HTML templates escape every value (minijinja's own escaping).
fn escape(out: &mut String, text: &str) {
    // Writing to a String cannot fail.
    let _ = write!(out, "{}", HtmlEscape(text));
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn rendered(name: &str, source: &str, events: &[EventLine]) -> String {
        let mut env = minijinja::Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.add_template(name, source).unwrap();
        let out = env
            .get_template(name)
            .unwrap()
            .render(minijinja::context! { events => minijinja::Value::from_serialize(events) })
            .unwrap();
        out.strip_suffix('\n').unwrap_or(&out).to_string()
    }

    /// Events of every shape: with and without rolls and decisions, an empty decision, and text
    /// that HTML escapes (`<`, `&`, quotes, `/`).
    fn events() -> Vec<EventLine> {
        let view = crate::report::values::sample_view();
        let mut events = view.events.clone();
        let mut odd = events[1].clone();
        odd.text = r#"<b>"Ney" & 'Soult'</b> a/b"#.to_string();
        odd.citation = "EiA 7.5 <x>".to_string();
        odd.decided = Some(String::new());
        odd.rolls.push(odd.rolls[0].clone());
        odd.rolls[1].label = "pursuit/area=<Ulm>&x".to_string();
        events.push(odd);
        let mut bare = events[0].clone();
        bare.rolls.clear();
        events.push(bare);
        events
    }

    #[test]
    fn the_lines_are_those_of_a_template_loop() {
        let events = events();
        assert_eq!(
            events_text(&events),
            rendered("loop.txt", TEXT_LOOP, &events)
        );
        let html = events_html(&events);
        assert_eq!(html, rendered("loop.html", HTML_LOOP, &events));
        assert!(html.contains("&lt;b&gt;&quot;Ney&quot; &amp; &#x27;Soult&#x27;&lt;&#x2f;b&gt;"));
        assert_eq!(events_text(&[]), "");
    }
}
