//! Report templates (minijinja, strict undefined). A game may override a template by a file of the
//! same name in its own `templates/` folder; otherwise the templates built into pbem from the
//! repository's `templates/` are used.

use anyhow::{Context, Result};
use minijinja::{Environment, UndefinedBehavior};
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
];

/// Renders template `name` with `context`. Templates named `*.html` escape every value for HTML,
/// except values made with [`minijinja::Value::from_safe_string`].
pub fn render(game: &Game, name: &str, context: &impl Serialize) -> Result<String> {
    Template::load(game, name)?.render(context)
}

/// A template read and compiled once, to render many times (an ingest's answers: one a message).
pub struct Template {
    env: Environment<'static>,
    name: String,
}

impl Template {
    /// Template `name`: the game's own `templates/<name>.j2`, else the built-in one.
    pub fn load(game: &Game, name: &str) -> Result<Template> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_keep_trailing_newline(true);
        env.add_filter("pad", pad);
        let own = game.dir.join("templates").join(format!("{name}.j2"));
        let source = match std::fs::read_to_string(&own) {
            Ok(s) => s,
            Err(_) => BUILT_IN
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, s)| s.to_string())
                .with_context(|| format!("no template '{name}'"))?,
        };
        env.add_template_owned(name.to_string(), source)
            .with_context(|| format!("template {name} does not parse"))?;
        Ok(Template {
            env,
            name: name.to_string(),
        })
    }

    /// The template rendered with `context`.
    pub fn render(&self, context: &impl Serialize) -> Result<String> {
        let name = &self.name;
        let t = self.env.get_template(name)?;
        t.render(context)
            .with_context(|| format!("cannot render template {name}"))
    }
}

/// `{{ text|pad(14) }}`: the text left-aligned in a column of that many characters.
fn pad(text: String, width: usize) -> String {
    format!("{text:<width$}")
}
