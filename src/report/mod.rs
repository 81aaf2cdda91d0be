//! Reports: what each power may know of a turn, rendered from `templates/`. A report is built from a
//! [`view::PowerView`], which holds only what the power may see; templates never see the whole turn.
//! Each power gets the same report four ways: text (the mail's body), HTML (with the map inline as
//! SVG; the mail's alternative shows it as a PNG the mail carries inline, `cid:` [`MAP_CID`], since
//! Gmail and Outlook show no SVG), JSON (`pbem-report/1`, see `schema/`) and an SVG map (attached,
//! it prints at any size). The referee gets a summary.

pub mod for_check;
pub mod guide;
pub mod header;
pub mod json;
pub mod labels;
pub mod lines;
pub mod map;
pub mod opening;
pub mod overview;
pub mod png;
pub mod seen_events;
pub mod summary;
mod summary_lines;
pub mod svg;
pub mod templates;
pub mod values;
pub mod view;

pub use header::DiceHeader;
pub use summary::{summary, summary_mail, SummaryInput};
pub use view::{CommandSight, ReportInput, TurnSight};

use std::sync::Arc;

use anyhow::{Context, Result};
use minijinja::Value;

use crate::game::Game;
use view::PowerView;

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
    /// Where the map stands in `mail_html` (its `map` block), which a mail cut to size puts its
    /// note of what it left out in place of (`mail::fit`); none for a game's own template that
    /// cannot be cut there.
    pub mail_map: Option<std::ops::Range<usize>>,
    /// Where the map stands in `html` (its `map` block), when `mail_map` is known: the mail's HTML
    /// is the file's with its map in the place of the file's (its outbox file names the file,
    /// `mail::outbox::Sources`).
    pub html_map: Option<std::ops::Range<usize>>,
    /// The map laid out for a phone (`svg::Layout::Phone`), which the report's mail carries drawn
    /// as PNG (`png::render`, by the caller that writes the mail: drawing costs, and a report
    /// rendered only to be read needs none); empty when the game mails no PNG (`map_png = false`).
    pub phone_map: String,
    /// Files written beside the report and attached to its mail.
    pub attachments: Vec<ReportFile>,
}

/// Renders the report of one power in every form pbem writes.
pub fn render(game: &Game, input: &ReportInput<'_>) -> Result<Rendered> {
    let view = Arc::new(view::PowerView::build(game, input));
    let map = svg::render(game, input.shared, &view);
    // The view as the templates' values, made once for the renderings; the dice header, the same
    // in every report, once per turn.
    let header = input.shared.header_values(input.header);
    // Each event the view lists, read once for the three forms that list it.
    let forms = lines::EventForms::of(&view.events, &view.decisions)
        .context("cannot write the JSON report")?;
    let json_written = json::Written {
        events: &forms.json,
        decisions: &forms.decisions_json,
        dice: input
            .shared
            .dice_json
            .get_or_init(|| json::dice(input.header).ok())
            .as_deref(),
    };
    let fields = values::ReportValues::with_events(
        view.clone(),
        values::Lists {
            events_text: forms.text,
            events_html: forms.html,
            decisions_text: forms.decisions_text,
            decisions_html: forms.decisions_html,
        },
    );
    let page = templates::Template::load(game, "report.txt")?;
    let text = page.render_sized(
        &fields
            .for_template(&page)
            .with("header", header.text.clone())
            .context(),
        Sizes::TEXT.of(&view),
    )?;
    let page = templates::Template::load(game, "report.html")?;
    let fields = fields
        .for_template(&page)
        .with("header", header.html.clone());
    // Inside HTML the SVG needs no namespace declaration (so it carries no URL), and it shrinks to
    // the width of the mail.
    let inline = map.replacen(
        r#"<svg xmlns="http://www.w3.org/2000/svg""#,
        r#"<svg style="max-width:100%;height:auto;""#,
        1,
    );
    let inline = match page.built_in() {
        true => templates::written(Arc::new(inline), true),
        false => Value::from_safe_string(inline),
    };
    let file_map = fields.with("map_svg", inline).context();
    // Drawn only for a mail that shows it (`map_png`): a game of hundreds of powers mails none.
    let png = game.config.mail.map_png;
    let phone_map = if png {
        phone_map(game, input.shared, &view)
    } else {
        String::new()
    };
    let mail_map = fields
        .with(
            "map_size",
            Value::from_serialize(png.then(|| png::size_of_svg(&phone_map)).flatten()),
        )
        .with(
            "map_cid",
            Value::from(png.then(|| format!("cid:{MAP_CID}"))),
        )
        .with("map_svg", Value::from(""))
        .context();
    let size = Sizes::HTML.of(&view);
    let (html, mail_html, maps) = html_pages(&page, size, &fields, &file_map, &mail_map)?;
    let (html_map, mail_map) = maps.unzip();
    let check = for_check::build(game, input, &view);
    let json = json::render_sized(
        &view,
        Some(input.header),
        check.as_ref(),
        Sizes::JSON.of(&view),
        Some(json_written),
    )
    .context("cannot write the JSON report")?;
    Ok(Rendered {
        text,
        html: Some(html),
        mail_html: Some(mail_html),
        mail_map,
        html_map,
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

/// About how many bytes a form of a report takes, by what its view lists: each form is written
/// into a buffer of that size made at once, rather than grown by doubling (each doubling a copy,
/// and new memory the system must clear: a report of a 1,000-power game is megabytes). A guess
/// only: a form longer than it grows as before.
struct Sizes {
    /// Bytes of each event the view lists, of each unit, and of the rest.
    event: usize,
    unit: usize,
    rest: usize,
}

impl Sizes {
    const TEXT: Sizes = Sizes {
        event: 300,
        unit: 100,
        rest: 8 * 1024,
    };
    /// The page without its map.
    const HTML: Sizes = Sizes {
        event: 520,
        unit: 250,
        rest: 16 * 1024,
    };
    const JSON: Sizes = Sizes {
        event: 500,
        unit: 200,
        rest: 16 * 1024,
    };

    fn of(&self, view: &PowerView) -> usize {
        let events = view.events.len() + view.decisions.len();
        let units = view.units.len() + view.seen.len() + view.map.areas.len();
        self.rest + self.event * events + self.unit * units
    }
}

/// The values the HTML report's map shows, which only its `map` block may name for the page to be
/// rendered once for the file and the mail (see [`html_pages`]).
const MAP_VALUES: &[&str] = &["map_svg", "map_cid", "map_size"];

/// What the page's `map` block shows in the one rendering of the page, where the file's map and
/// the mail's go: framed by a byte reports hardly hold, [`MAP_MARK_BYTE`] (a page that holds it
/// elsewhere is rendered whole for each).
const MAP_MARK: &str = "\u{1}pbem: the map of this report\u{1}";
const MAP_MARK_BYTE: u8 = 1;

/// The HTML report of the file (`file`: the map inline) and that of the mail (`mail`: the map as
/// PNG or attachment), which differ only in their map: the page rendered once around its `map`
/// block, and the block rendered for each (a report costs one page, not two). A template that
/// cannot be cut there (a game's own, without the block, or naming the map outside it; or whose
/// block does not render alone where it stands) is rendered whole for each. With the pages, where
/// the map stands in the file's and in the mail's, when the page was cut.
fn html_pages(
    page: &templates::Template,
    size: usize,
    fields: &values::ReportValues,
    file: &Value,
    mail: &Value,
) -> Result<(String, String, Option<Maps>)> {
    match one_page(page, size, fields, file, mail) {
        Some(((file, file_map), (mail, mail_map))) => Ok((file, mail, Some((file_map, mail_map)))),
        None => Ok((page.render(file)?, page.render(mail)?, None)),
    }
}

type Range = std::ops::Range<usize>;

/// Where the map block stands in the file's page and in the mail's.
type Maps = (Range, Range);

/// An HTML page, with where its map block stands in it.
type Page = (String, Range);

/// [`html_pages`] from one rendering of the page, when its template can be cut at its `map` block:
/// the file's page, and the mail's.
fn one_page(
    page: &templates::Template,
    size: usize,
    fields: &values::ReportValues,
    file: &Value,
    mail: &Value,
) -> Option<(Page, Page)> {
    let block = page.block("map", MAP_VALUES)?;
    let marked = fields
        .with("map_svg", Value::from_safe_string(MAP_MARK.to_string()))
        .context();
    let whole = page.render_sized(&marked, size).ok()?;
    let mark = block.render(&marked).ok()?;
    // The mark stands once in the page and once in the block alone, so that the block stands
    // once in the page, where the maps go (found by its rare first byte: a page is long).
    let single = |text: &str| {
        let bytes = text.as_bytes();
        let at = memchr::memchr(MAP_MARK_BYTE, bytes)?;
        let end = at + MAP_MARK.len();
        (text[at..].starts_with(MAP_MARK) && memchr::memchr(MAP_MARK_BYTE, &bytes[end..]).is_none())
            .then_some(at)
    };
    let at = single(&whole)?.checked_sub(single(&mark)?)?;
    if !whole[at..].starts_with(&mark) {
        return None;
    }
    let block_at = at..at + mark.len();
    let (file_map, mail_map) = (block.render(file).ok()?, block.render(mail).ok()?);
    // The file's page written once, the mail's made of the page in place.
    let mut file_page = String::with_capacity(whole.len() - mark.len() + file_map.len());
    file_page.push_str(&whole[..at]);
    file_page.push_str(&file_map);
    file_page.push_str(&whole[block_at.end..]);
    let mut mail_page = whole;
    mail_page.replace_range(block_at, &mail_map);
    Some((
        (file_page, at..at + file_map.len()),
        (mail_page, at..at + mail_map.len()),
    ))
}

/// The phone map a report mail shows (as PNG) for `view`, as SVG: the map framed on the power's
/// units, or the overview when too many of them fall outside the frame (`svg::phone_overflows`).
pub fn phone_map(game: &Game, shared: &TurnSight, view: &PowerView) -> String {
    if svg::phone_overflows(game, view) {
        overview::render(game, shared, view)
    } else {
        svg::render_as(game, shared, view, svg::Layout::Phone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::eia::test_fixture::Fixture;

    /// The built-in HTML template is cut at its map block: the page is rendered once, and gives
    /// the bytes two whole renderings give.
    #[test]
    fn the_built_in_html_page_is_rendered_once_for_the_file_and_the_mail() {
        let fx = Fixture::new();
        let page = templates::Template::load(&fx.game, "report.html").unwrap();
        let fields = values::ReportValues::new(Arc::new(values::sample_view())).with(
            "header",
            Value::from_serialize(DiceHeader::new("g", 3, &[1; 32], &[2; 32], &[], &[5; 32])),
        );
        let file = fields
            .with("map_svg", Value::from_safe_string("<svg>map</svg>".into()))
            .context();
        let mail = fields
            .with("map_size", Value::from(()))
            .with("map_cid", Value::from("cid:map@pbem"))
            .with("map_svg", Value::from(""))
            .context();
        let ((file_page, file_map), (mail_page, map)) =
            one_page(&page, 0, &fields, &file, &mail).expect("the built-in page is cut");
        assert!(mail_page[map].contains("cid:map@pbem"));
        assert!(file_page[file_map].contains("<svg>map</svg>"));
        assert_eq!(file_page, page.render(&file).unwrap());
        assert_eq!(mail_page, page.render(&mail).unwrap());
        assert!(file_page.contains("<svg>map</svg>") && !mail_page.contains("<svg>"));
        assert!(mail_page.contains("cid:map@pbem"));
    }
}
