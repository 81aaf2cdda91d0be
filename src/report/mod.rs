//! Reports: what each power may know of a turn, rendered from `templates/`. A report is built from a
//! [`view::PowerView`], which holds only what the power may see; templates never see the whole turn.

pub mod header;
pub mod templates;
pub mod view;

pub use header::DiceHeader;
pub use view::ReportInput;

use anyhow::Result;

use crate::game::Game;

/// Renders the text report of one power.
pub fn render_text(game: &Game, input: &ReportInput<'_>) -> Result<String> {
    let view = view::PowerView::build(game, input);
    templates::render(game, "report.txt", &view)
}
