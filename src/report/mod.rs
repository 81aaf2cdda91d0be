//! Reports: what each power may know of a turn, rendered from `templates/`. A report is built from a
//! [`view::PowerView`], which holds only what the power may see; templates never see the whole turn.
//! Each power gets the same report four ways: text (the mail's body), HTML (with the map inline as
//! SVG; the mail's alternative shows it as a PNG the mail carries inline, `cid:` [`MAP_CID`], since
//! Gmail and Outlook show no SVG), JSON (`pbem-report/1`, see `schema/`) and an SVG map (attached,
//! it prints at any size). The referee gets a summary.

pub mod for_check;
pub mod header;
pub mod json;
pub mod labels;
pub mod map;
pub mod png;
pub mod summary;
pub mod svg;
pub mod templates;
pub mod view;

pub use header::DiceHeader;
pub use summary::{summary, summary_mail, SummaryInput};
pub use view::{CommandSight, ReportInput, TurnSight};

use anyhow::{Context, Result};
use minijinja::Value;

use crate::game::Game;

/// A file that goes with a report: written beside it and attached to its mail.
#[derive(Debug, Clone)]
pub struct ReportFile {
    /// File extension, which names the file: `json`, `svg`.
    pub extension: &'static str,
    pub content_type: &'static str,
    pub content: String,
}

/// The Content-ID of the map's PNG in a report mail, which its HTML shows as `cid:` image.
pub const MAP_CID: &str = "map@pbem";

/// Everything rendered for one power.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The text report, the mail's plain-text body.
    pub text: String,
    /// The HTML report, with the map inline, when there is one.
    pub html: Option<String>,
    /// The mail's HTML alternative: the HTML report with the map as the PNG image [`MAP_CID`] (the
    /// mail carries it inline, beside the HTML, and the SVG as an attachment).
    pub mail_html: Option<String>,
    /// The map laid out for a phone (`svg::Layout::Phone`), which the report's mail carries drawn
    /// as PNG (`png::render`, by the caller that writes the mail: drawing costs, and a report
    /// rendered only to be read needs none); empty when the game mails no PNG (`map_png = false`).
    pub phone_map: String,
    /// Files written beside the report and attached to its mail.
    pub attachments: Vec<ReportFile>,
}

/// Renders the report of one power in every form pbem writes.
pub fn render(game: &Game, input: &ReportInput<'_>) -> Result<Rendered> {
    let view = view::PowerView::build(game, input);
    let map = svg::render(game, input.shared, &view);
    // The view as the templates' values, made once for the three renderings; the dice header,
    // the same in every report, once per turn.
    let header = input.shared.header_values(input.header);
    let fields = Value::from_serialize(&view);
    let text = templates::render(
        game,
        "report.txt",
        &minijinja::context! { header => header.text.clone(), ..fields.clone() },
    )?;
    let fields = minijinja::context! { header => header.html.clone(), ..fields };
    // Inside HTML the SVG needs no namespace declaration (so it carries no URL), and it shrinks to
    // the width of the mail.
    let inline = map.replacen(
        r#"<svg xmlns="http://www.w3.org/2000/svg""#,
        r#"<svg style="max-width:100%;height:auto;""#,
        1,
    );
    let context = minijinja::context! {
        map_svg => Value::from_safe_string(inline),
        ..fields.clone()
    };
    let html = templates::render(game, "report.html", &context)?;
    // Drawn only for a mail that shows it (`map_png`): a game of hundreds of powers mails none.
    let png = game.config.mail.map_png;
    let phone_map = if png {
        svg::render_as(game, input.shared, &view, svg::Layout::Phone)
    } else {
        String::new()
    };
    let mail_map = minijinja::context! {
        map_svg => "",
        map_cid => png.then(|| format!("cid:{MAP_CID}")),
        map_size => png.then(|| png::size_of_svg(&phone_map)).flatten(),
        ..fields
    };
    let mail_html = templates::render(game, "report.html", &mail_map)?;
    let check = for_check::build(game, input, &view);
    let json = json::render(&view, input.header, check.as_ref())
        .context("cannot write the JSON report")?;
    Ok(Rendered {
        text,
        html: Some(html),
        mail_html: Some(mail_html),
        phone_map,
        attachments: vec![
            ReportFile {
                extension: "json",
                content_type: "application/json",
                content: json,
            },
            ReportFile {
                extension: "svg",
                content_type: "image/svg+xml",
                content: map,
            },
        ],
    })
}
