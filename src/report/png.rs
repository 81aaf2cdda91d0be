//! The map as a PNG picture, for the HTML mail: every mail client shows a PNG (Gmail and Outlook
//! show no SVG). Drawn from the map's SVG by resvg with the font pbem bundles
//! (`assets/fonts/DejaVuSansCondensed.ttf`, never the system's), so the same SVG gives the same bytes
//! on every machine.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{fontdb, Options, Tree};

/// The font every label is drawn in.
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed.ttf");

/// The width of the PNG drawn, in pixels: twice the width of a phone's screen (about 360 CSS
/// pixels), so that it is sharp there; the phone map (`svg::PHONE_WIDTH`, 400) is drawn at twice its
/// size, a wider SVG smaller.
pub const MAX_WIDTH: u32 = 800;

/// The most pixels a PNG holds (800 x 5,000): a taller picture is drawn smaller. The phone map
/// stays within it whatever its power sees (`svg::PHONE_LISTED`, `report::overview`); this bound is
/// the last guard, so that no picture costs more to draw, mail and show than a phone can use.
pub const MAX_PIXELS: u64 = 4_000_000;

/// The scale a picture of `w` x `h` (in the SVG's pixels) is drawn at, and the PNG's width and
/// height: [`MAX_WIDTH`] wide, unless that makes more than [`MAX_PIXELS`].
fn drawn_size(w: f32, h: f32) -> (f32, u32, u32) {
    let scale = MAX_WIDTH as f32 / w;
    let (width, height) = ((w * scale).ceil() as u32, (h * scale).ceil() as u32);
    if u64::from(width) * u64::from(height) <= MAX_PIXELS {
        return (scale, width, height);
    }
    let scale = (MAX_PIXELS as f32 / (w * h)).sqrt();
    (
        scale,
        ((w * scale).floor() as u32).max(1),
        ((h * scale).floor() as u32).max(1),
    )
}

/// The font database, made once: the bundled font stands for every family the SVG names.
fn fonts() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        let family = db
            .faces()
            .next()
            .and_then(|f| f.families.first())
            .map(|(name, _)| name.clone())
            .unwrap_or_default();
        db.set_serif_family(family.clone());
        db.set_sans_serif_family(family.clone());
        db.set_monospace_family(family.clone());
        db.set_cursive_family(family.clone());
        db.set_fantasy_family(family);
        Arc::new(db)
    })
    .clone()
}

/// The PNG of `svg`, [`MAX_WIDTH`] pixels wide (narrower if it would hold more than
/// [`MAX_PIXELS`]), or `None` when the SVG does not parse or is empty.
pub fn render(svg: &str) -> Option<Vec<u8>> {
    let options = Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".to_string(),
        ..Options::default()
    };
    let tree = Tree::from_str(svg, &options).ok()?;
    let size = tree.size();
    let (scale, width, height) = drawn_size(size.width(), size.height());
    let mut pixmap = Pixmap::new(width, height)?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap)
}

/// The picture as a small PNG that keeps every pixel: indexed when it has at most 256 colours, else
/// RGB (it is opaque: the alpha channel of tiny-skia's own PNG is waste). Fast compression
/// (fdeflate), the indexed rows unfiltered: a report mail is drawn for every power of a turn, and
/// zlib's default compression was two fifths of a turn of 24 powers of 417 units (issue 39).
fn encode(pixmap: &Pixmap) -> Option<Vec<u8>> {
    let rgb: Vec<[u8; 3]> = pixmap
        .pixels()
        .iter()
        .map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue()]
        })
        .collect();
    let palette = palette_of(&rgb);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let data: Vec<u8> = match &palette {
        Some(palette) => {
            encoder.set_color(png::ColorType::Indexed);
            // Filters predict a pixel from its neighbours' values; a palette's indices are no
            // such values.
            encoder.set_filter(png::FilterType::NoFilter);
            encoder.set_palette(palette.concat());
            let mut last = (rgb.first().copied().unwrap_or_default(), 0u8);
            rgb.iter()
                .map(|c| {
                    if *c != last.0 {
                        last = (*c, palette.binary_search(c).unwrap_or(0) as u8);
                    }
                    last.1
                })
                .collect()
        }
        None => {
            encoder.set_color(png::ColorType::Rgb);
            rgb.concat()
        }
    };
    let mut writer = encoder.write_header().ok()?;
    writer.write_image_data(&data).ok()?;
    writer.finish().ok()?;
    Some(out)
}

/// The colours of a picture, sorted, or `None` when it has more than 256: one pass that stops at
/// the 257th (a run of one colour, as a map's background, is looked up once).
fn palette_of(rgb: &[[u8; 3]]) -> Option<Vec<[u8; 3]>> {
    let mut palette: Vec<[u8; 3]> = Vec::new();
    let mut last = None;
    for c in rgb {
        if last == Some(c) {
            continue;
        }
        last = Some(c);
        if let Err(at) = palette.binary_search(c) {
            if palette.len() == 256 {
                return None;
            }
            palette.insert(at, *c);
        }
    }
    Some(palette)
}

/// The width and height of the PNG [`render`] draws of `svg` (one pbem wrote: its first line gives
/// `width` and `height`).
pub fn size_of_svg(svg: &str) -> Option<(u32, u32)> {
    let head = svg.lines().next()?;
    let attr = |name: &str| -> Option<f32> {
        let at = head.find(&format!(" {name}=\""))? + name.len() + 3;
        head[at..].split('"').next()?.parse().ok()
    };
    let (w, h) = (attr("width")?, attr("height")?);
    (w > 0.0 && h > 0.0).then(|| {
        let (_, width, height) = drawn_size(w, h);
        (width, height)
    })
}

/// The width and height of a PNG, from its header.
pub fn size(png: &[u8]) -> Option<(u32, u32)> {
    let be = |at: usize| Some(u32::from_be_bytes(png.get(at..at + 4)?.try_into().ok()?));
    (png.get(12..16)? == b"IHDR").then_some((be(16)?, be(20)?))
}
