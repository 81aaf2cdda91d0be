//! Report templates (minijinja, strict undefined). A game may override a template by a file of the
//! same name in its own `templates/` folder; otherwise the templates built into pbem from the
//! repository's `templates/` are used.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::{Context, Result};

use minijinja::value::{Object, Value};
use minijinja::{AutoEscape, Environment, Output, State, UndefinedBehavior};
use serde::Serialize;

use crate::game::Game;

/// The templates built into the binary, by name.
const BUILT_IN: &[(&str, &str)] = &[
    ("report.txt", include_str!("../../templates/report.txt.j2")),
    (
        "report.html",
        include_str!("../../templates/report.html.j2"),
    ),
    (
        "summary.txt",
        include_str!("../../templates/summary.txt.j2"),
    ),
    (
        "announcement.txt",
        include_str!("../../templates/announcement.txt.j2"),
    ),
    ("ack.txt", include_str!("../../templates/ack.txt.j2")),
    (
        "reminder.txt",
        include_str!("../../templates/reminder.txt.j2"),
    ),
    (
        "welcome.txt",
        include_str!("../../templates/welcome.txt.j2"),
    ),
];

/// The templates compiled in this process, by name and then by source: a turn renders the same
/// few templates for every power (four per power at 1,000 powers), and compiling one cost more
/// than rendering a small report. Keyed by the source itself, so that a game's own template edited
/// between two renders is compiled again.
type Compiled = BTreeMap<String, BTreeMap<String, Arc<Environment<'static>>>>;
static COMPILED: Mutex<Compiled> = Mutex::new(BTreeMap::new());

/// Renders template `name` with `context`. Templates named `*.html` escape every value for HTML,
/// except values made with [`minijinja::Value::from_safe_string`].
pub fn render(game: &Game, name: &str, context: &impl Serialize) -> Result<String> {
    Template::load(game, name)?.render(context)
}

/// A template read and compiled once, to render many times (an ingest's answers: one a message; the
/// reports of a turn: three a power).
pub struct Template {
    env: Arc<Environment<'static>>,
    name: String,
    /// Whether it is pbem's own ([`BUILT_IN`]), which may be handed [`written`] values.
    built_in: bool,
}

/// A text pbem wrote for a template (what a report's events are, its units, the summary's
/// decisions), handed to pbem's own templates without a copy: minijinja keeps a string value in a
/// copy of its own (`Arc<str>`), and these texts are most of a report (megabytes at 1,000 powers,
/// tens of megabytes in a large turn's summary), copied once more into the page. The template
/// writes it as it is (the formatter of [`compiled`]), escaped for HTML unless it is `safe`
/// (written escaped already), as the same text given as a string; a test is true of it when it is
/// not empty. Only pbem's own templates get these ([`Template::built_in`]): a game's own may do
/// with its values what it does with strings (filters, slices), and gets strings.
#[derive(Debug)]
pub struct Written {
    text: Arc<String>,
    safe: bool,
}

/// `text` as a [`Written`] value, shared (the caller may keep it for other renderings).
pub fn written(text: Arc<String>, safe: bool) -> Value {
    Value::from_object(Written { text, safe })
}

impl Object for Written {
    fn is_true(self: &Arc<Self>) -> bool {
        !self.text.is_empty()
    }

    fn render(self: &Arc<Self>, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result
    where
        Self: Sized + 'static,
    {
        f.write_str(&self.text)
    }
}

/// The formatter of every template: minijinja's own, but for a [`Written`] text, written as it is
/// (escaped for HTML where the template escapes and the text is not `safe`).
fn format(out: &mut Output, state: &State, value: &Value) -> Result<(), minijinja::Error> {
    let Some(w) = value.downcast_object_ref::<Written>() else {
        return minijinja::escape_formatter(out, state, value);
    };
    let written = match (w.safe, state.auto_escape()) {
        (false, AutoEscape::Html) => write!(out, "{}", minijinja::HtmlEscape(&w.text)),
        _ => out.write_str(&w.text),
    };
    written.map_err(minijinja::Error::from)
}

/// The name under which the environment of template `name` holds its block `block` compiled alone
/// (ending as `name` does, so that it escapes as its page does).
fn block_name(name: &str, block: &str) -> String {
    format!("{block}#{name}")
}

impl Template {
    /// Template `name`: the game's own `templates/<name>.j2`, else the built-in one; compiled once a
    /// process for each source.
    pub fn load(game: &Game, name: &str) -> Result<Template> {
        let own = game.dir.join("templates").join(format!("{name}.j2"));
        let source: Cow<'static, str> = match std::fs::read_to_string(&own) {
            Ok(s) => Cow::Owned(s),
            Err(_) => BUILT_IN
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, s)| Cow::Borrowed(*s))
                .with_context(|| format!("no template '{name}'"))?,
        };
        let built_in = matches!(source, Cow::Borrowed(_));
        Ok(Template {
            env: compiled(name, source)?,
            name: name.to_string(),
            built_in,
        })
    }

    /// Whether this is pbem's own template, which may be handed [`written`] texts.
    pub fn built_in(&self) -> bool {
        self.built_in
    }

    /// The template rendered with `context`.
    pub fn render(&self, context: &impl Serialize) -> Result<String> {
        let name = &self.name;
        let t = self.env.get_template(name)?;
        t.render(context)
            .with_context(|| format!("cannot render template {name}"))
    }

    /// As [`Template::render`], into a text of `capacity` bytes made at once: a text of tens of
    /// MB (the summary of a large turn) grown as it is written is copied and its memory touched
    /// again at each doubling.
    pub fn render_sized(&self, context: &impl Serialize, capacity: usize) -> Result<String> {
        let name = &self.name;
        let t = self.env.get_template(name)?;
        let mut out = Vec::with_capacity(capacity);
        t.render_captured_to(context, &mut out)
            .with_context(|| format!("cannot render template {name}"))?;
        // The template's text and every value written into it are UTF-8.
        String::from_utf8(out).with_context(|| format!("template {name} wrote a text not UTF-8"))
    }

    /// The values the template names (its variables not set inside it), so that a value it never
    /// reads need not be made (a template here includes, imports and extends nothing).
    pub fn names(&self) -> BTreeSet<String> {
        self.env
            .get_template(&self.name)
            .map(|t| t.undeclared_variables(false).into_iter().collect())
            .unwrap_or_default()
    }

    /// The template's `{% block NAME %}` (one of [`BLOCKS`]) as a template of its own, when the
    /// template has exactly one such block that parses alone and names none of `outside` outside
    /// it: what the block renders then depends on those values and the rest of the page does not,
    /// so a page rendered once serves every value of them (`report::render`: the HTML report of
    /// the file, with the map inline, and that of the mail, without).
    pub fn block(&self, block: &str, outside: &[&str]) -> Option<Template> {
        let name = block_name(&self.name, block);
        let t = self.env.get_template(&name).ok()?;
        let page = self.env.get_template(&self.name).ok()?;
        let (before, _, after) = split_block(page.source(), block)?;
        if outside
            .iter()
            .any(|v| before.contains(v) || after.contains(v))
        {
            return None;
        }
        Some(Template {
            env: self.env.clone(),
            name: t.name().to_string(),
            built_in: self.built_in,
        })
    }
}

/// The blocks compiled alone beside their template (see [`Template::block`]).
const BLOCKS: &[&str] = &["map"];

/// `source` cut around its one `{% block NAME %}...{% endblock %}`: the text before the block's
/// tag, the block's body as the template renders it in place (the newline after its tag dropped,
/// as `trim_blocks` does, and the blanks before its end tag, as `lstrip_blocks` does), the text
/// after its end tag. None when there is no such block or more than one.
fn split_block<'s>(source: &'s str, block: &str) -> Option<(&'s str, &'s str, &'s str)> {
    let open = format!("{{% block {block} %}}");
    const CLOSE: &str = "{% endblock %}";
    let start = source.find(&open)?;
    if source[start + open.len()..].contains(&open) {
        return None;
    }
    let body_start = start + open.len();
    let body_len = source[body_start..].find(CLOSE)?;
    let body = &source[body_start..body_start + body_len];
    let body = body.strip_prefix('\n').unwrap_or(body);
    let body = body.trim_end_matches([' ', '\t']);
    Some((
        &source[..start],
        body,
        &source[body_start + body_len + CLOSE.len()..],
    ))
}

/// The environment holding template `name` compiled from `source`, compiled on first use.
fn compiled(name: &str, source: Cow<'static, str>) -> Result<Arc<Environment<'static>>> {
    let mut cache = COMPILED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(env) = cache.get(name).and_then(|by| by.get(source.as_ref())) {
        return Ok(env.clone());
    }
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.add_filter("pad", pad);
    env.add_filter("possessive", |name: String| crate::words::possessive(&name));
    env.set_formatter(format);
    env.add_template_owned(name.to_string(), source.to_string())
        .with_context(|| format!("template {name} does not parse"))?;
    for block in BLOCKS {
        if let Some((_, body, _)) = split_block(&source, block) {
            // A block that does not parse alone (it closes a tag opened before it, ...) is
            // rendered with its page, as any template without the block.
            let _ = env.add_template_owned(block_name(name, block), body.to_string());
        }
    }
    let env = Arc::new(env);
    cache
        .entry(name.to_string())
        .or_default()
        .insert(source.into_owned(), env.clone());
    Ok(env)
}

/// `{{ text|pad(14) }}`: the text left-aligned in a column of that many characters.
fn pad(text: String, width: usize) -> String {
    format!("{text:<width$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text pbem wrote, handed to a template as a [`written`] value, renders as the same text
    /// handed as a string (escaped for HTML unless marked safe), and is true when not empty.
    #[test]
    fn a_written_text_renders_as_the_same_string() {
        let source = "[{{ a }}][{{ b }}]{% if a %}a{% endif %}{% if e %}e{% endif %}{{ e }}.";
        let text = "<b>\"Ney\" & 'Soult'</b> a/b\n  é";
        for name in ["t.txt", "t.html"] {
            let env = compiled(name, Cow::Owned(source.to_string())).unwrap();
            let page = env.get_template(name).unwrap();
            let as_written = page
                .render(minijinja::context! {
                    a => written(Arc::new(text.to_string()), false),
                    b => written(Arc::new(text.to_string()), true),
                    e => written(Arc::new(String::new()), false),
                })
                .unwrap();
            let as_strings = page
                .render(minijinja::context! {
                    a => Value::from(text),
                    b => Value::from_safe_string(text.to_string()),
                    e => Value::from(""),
                })
                .unwrap();
            assert_eq!(as_written, as_strings, "{name}");
            assert!(as_written.ends_with("a."), "{as_written}");
        }
        let html = compiled("u.html", Cow::Borrowed("{{ a }}")).unwrap();
        let escaped = html
            .get_template("u.html")
            .unwrap()
            .render(minijinja::context! { a => written(Arc::new("<&>".into()), false) })
            .unwrap();
        assert_eq!(escaped, "&lt;&amp;&gt;");
    }

    #[test]
    fn a_block_is_cut_as_the_template_renders_it_in_place() {
        let source = "a\n{% block map %}\nmap {{ x }}\n  {% endblock %}\nb\n";
        let (before, body, after) = split_block(source, "map").unwrap();
        assert_eq!((before, body, after), ("a\n", "map {{ x }}\n", "\nb\n"));
        assert_eq!(split_block("a {{ x }}", "map"), None);
        let twice = format!("{source}{source}");
        assert_eq!(split_block(&twice, "map"), None, "two blocks of the name");
    }
}
