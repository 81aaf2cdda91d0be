//! Reports: what each power may know of a turn, rendered from `templates/`. A report is built from a
//! [`view::PowerView`], which holds only what the power may see; templates never see the whole turn.

pub mod header;
pub mod templates;
pub mod view;

pub use header::DiceHeader;
pub use view::ReportInput;

use anyhow::Result;

use crate::game::Game;

/// A file that goes with a report: written beside it and attached to its mail.
#[derive(Debug, Clone)]
pub struct ReportFile {
    /// File extension, which names the file: `json`, `svg`.
    pub extension: &'static str,
    pub content_type: &'static str,
    pub content: String,
}

/// Everything rendered for one power.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The text report, the mail's plain-text body.
    pub text: String,
    /// The HTML report, the mail's HTML alternative, when there is one.
    pub html: Option<String>,
    /// Files written beside the report and attached to its mail.
    pub attachments: Vec<ReportFile>,
}

/// Renders the report of one power in every form pbem writes.
pub fn render(game: &Game, input: &ReportInput<'_>) -> Result<Rendered> {
    let view = view::PowerView::build(game, input);
    let text = templates::render(game, "report.txt", &view)?;
    Ok(Rendered {
        text,
        html: None,
        attachments: Vec::new(),
    })
}
