//! The map as a PNG picture, for the HTML mail: every mail client shows a PNG (Gmail and Outlook
//! show no SVG). Drawn from the map's SVG by resvg with the font pbem bundles
//! (`assets/fonts/DejaVuSansCondensed.ttf`, never the system's), so the same SVG gives the same bytes
//! on every machine.
//!
//! A crate of its own, used by pbem as `pbem::report::png`: its loops run once a pixel, and pbem's
//! test build optimises it as it does the dependencies (pbem itself is built unoptimised there).

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{fontdb, Options, Tree};

/// The font every label is drawn in.
static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed.ttf");

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

/// The picture as a small PNG: indexed, one byte a pixel, its rows unfiltered (a filter predicts a
/// pixel from its neighbours' values, and a palette's indices are no such values), compressed at
/// zlib's fastest level (through the stream writer: the whole-image writer's fast mode, fdeflate,
/// made these PNGs six times larger). A picture of at most 256 colours keeps every pixel; a larger one (anti-aliased text
/// on coloured chips: about a thousand colours, the 256 most used covering 99.6% of the pixels)
/// draws each of the rare colours as the nearest of the 256. A report mail is drawn for every power
/// of a turn: zlib's default compression of the RGB rows was two fifths of a turn of 24 powers of
/// 417 units (issue 39).
fn encode(pixmap: &Pixmap) -> Option<Vec<u8>> {
    let rgb: Vec<u32> = pixmap
        .pixels()
        .iter()
        .map(|p| {
            let c = p.demultiply();
            u32::from(c.red()) << 16 | u32::from(c.green()) << 8 | u32::from(c.blue())
        })
        .collect();
    let (colours, index, palette) = palette_of(&rgb);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_filter(png::FilterType::NoFilter);
    encoder.set_palette(
        palette
            .iter()
            .flat_map(|c| [(c >> 16) as u8, (c >> 8) as u8, *c as u8])
            .collect::<Vec<u8>>(),
    );
    // A run of one colour, as a map's background, is looked up once.
    let mut last = (u32::MAX, 0u8);
    let data: Vec<u8> = rgb
        .iter()
        .map(|&c| {
            if c != last.0 {
                last = (c, colours.binary_search(&c).map_or(0, |i| index[i]));
            }
            last.1
        })
        .collect();
    let mut writer = encoder.write_header().ok()?;
    let mut stream = writer.stream_writer().ok()?;
    std::io::Write::write_all(&mut stream, &data).ok()?;
    stream.finish().ok()?;
    writer.finish().ok()?;
    Some(out)
}

/// The colours of a picture (`0xrrggbb`), sorted, with the index each is drawn with, and the
/// palette: its colours when they are at most 256, else the 256 most used (the first in colour
/// order of equals), each other colour drawn as the nearest of them.
fn palette_of(rgb: &[u32]) -> (Vec<u32>, Vec<u8>, Vec<u32>) {
    // Each colour and how many pixels have it, counted by runs.
    let mut runs: Vec<(u32, u64)> = Vec::new();
    for &c in rgb {
        match runs.last_mut() {
            Some((last, n)) if *last == c => *n += 1,
            _ => runs.push((c, 1)),
        }
    }
    runs.sort_unstable_by_key(|r| r.0);
    let mut used: Vec<(u32, u64)> = Vec::new();
    for (c, n) in runs {
        match used.last_mut() {
            Some((last, m)) if *last == c => *m += n,
            _ => used.push((c, n)),
        }
    }
    let mut palette: Vec<u32> = if used.len() <= 256 {
        used.iter().map(|u| u.0).collect()
    } else {
        let mut most = used.clone();
        most.sort_unstable_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
        most.iter().take(256).map(|u| u.0).collect()
    };
    palette.sort_unstable();
    let distance = |a: u32, b: u32| -> i32 {
        [16, 8, 0]
            .iter()
            .map(|s| ((a >> s & 0xff) as i32 - (b >> s & 0xff) as i32).pow(2))
            .sum()
    };
    let index = used
        .iter()
        .map(|&(c, _)| match palette.binary_search(&c) {
            Ok(i) => i as u8,
            Err(_) => (0..palette.len())
                .min_by_key(|&i| distance(c, palette[i]))
                .unwrap_or(0) as u8,
        })
        .collect();
    (used.into_iter().map(|u| u.0).collect(), index, palette)
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
