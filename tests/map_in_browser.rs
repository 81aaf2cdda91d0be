//! The map of a report mail as a player sees it on his phone: a real browser (headless Chromium, 390
//! CSS pixels wide) opens the mail's HTML with its inline `cid:` image resolved as a mail client
//! resolves it, and the screenshot shows the map; the same page with the image missing shows none.
//!
//! Chromium is required: the test fails when it is missing (`.ci/run` installs it; elsewhere
//! `apt-get install chromium`), unless PBEM_SKIP_BROWSER_TESTS is set, which it says loudly.

use crate::support;
use crate::support::read_outbox;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use mail_parser::{MessageParser, MimeHeaders, PartType};
use resvg::tiny_skia::Pixmap;

/// The Chromium binary, or `None` (after saying so) when the test is to be skipped.
pub(crate) fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(out) = Command::new("which").arg(name).output() {
            if out.status.success() {
                let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
                return Some(PathBuf::from(path));
            }
        }
    }
    if std::env::var_os("PBEM_SKIP_BROWSER_TESTS").is_some() {
        eprintln!("SKIPPED (PBEM_SKIP_BROWSER_TESTS): the map is not checked in a browser");
        return None;
    }
    panic!("the browser test needs Chromium: apt-get install chromium (or set PBEM_SKIP_BROWSER_TESTS=1 to skip it, loudly)");
}

/// Chromium headless as root on a closed network: no sandbox, no GPU, and none of the background
/// connections it would try (refused here, many at a time).
pub(crate) const HEADLESS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// A screenshot of `html` 390 CSS pixels wide.
fn screenshot(browser: &Path, html: &Path) -> Pixmap {
    let out = html.with_extension("shot.png");
    let profile = tempfile::tempdir().unwrap();
    let status = Command::new(browser)
        .args(HEADLESS)
        .arg("--hide-scrollbars")
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", out.display()))
        .arg("--window-size=390,3000")
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    assert!(
        status.status.success() && out.is_file(),
        "chromium: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    Pixmap::decode_png(&fs::read(out).unwrap()).unwrap()
}

/// The width in CSS pixels at which the browser shows the map's image in `html` laid out 390 pixels
/// wide, as a phone lays it out (a desktop window is never that narrow: the page is held to it): a
/// script writes it into the page, which Chromium prints once loaded.
fn shown_width(browser: &Path, html: &Path) -> f64 {
    let page = fs::read_to_string(html).unwrap();
    let probe = html.with_extension("probe.html");
    let script = r#"<script>window.addEventListener("load", () => { const m = document.querySelector('img[alt^="The map"]'); document.body.setAttribute("data-map-width", m ? m.getBoundingClientRect().width : -1); });</script>"#;
    let phone = "<style>html { width: 390px; }</style>";
    let page = page.replacen("</head>", &format!("{phone}</head>"), 1);
    fs::write(
        &probe,
        page.replacen("</body>", &format!("{script}</body>"), 1),
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--virtual-time-budget=3000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--window-size=390,3000")
        .arg(format!("file://{}", probe.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    let at = dom.find("data-map-width=\"").unwrap_or_else(|| {
        panic!(
            "no width in the page: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    }) + 16;
    dom[at..].split('"').next().unwrap().parse().unwrap()
}

/// Pixels of the map's own inks: the fill of a sea area and the tint of France's areas, which the
/// rest of the report never uses.
fn map_pixels(shot: &Pixmap) -> usize {
    let near = |p: [u8; 3], q: [u8; 3]| p.iter().zip(q).all(|(a, b)| a.abs_diff(b) <= 6);
    shot.pixels()
        .iter()
        .map(|p| [p.red(), p.green(), p.blue()])
        .filter(|&p| near(p, [0xe3, 0xf2, 0xfd]) || near(p, [0xc7, 0xd3, 0xe6]))
        .count()
}

#[test]
fn the_report_mail_shows_its_png_map_in_a_browser_at_phone_width() {
    let Some(browser) = chromium() else {
        return;
    };
    let (_t, game) = support::demo();
    let eml = read_outbox(game.join("mail/outbox/t0001-report-france.eml"));
    let message = MessageParser::default().parse(&eml).unwrap();
    let html = message.body_html(0).unwrap().into_owned();
    assert!(
        html.contains("src=\"cid:map@pbem\""),
        "no cid: image in the HTML"
    );
    assert!(
        !html.contains("<svg"),
        "the mail's HTML carries an inline SVG"
    );
    let png = message
        .parts
        .iter()
        .find(|p| p.content_id() == Some("map@pbem"))
        .map(|p| match &p.body {
            PartType::Binary(b) | PartType::InlineBinary(b) => b.to_vec(),
            other => panic!("the map is not binary: {other:?}"),
        })
        .expect("no part with Content-ID map@pbem");
    assert!(png.starts_with(b"\x89PNG"));

    // As a mail client shows it: the cid: image from the part beside the HTML.
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("map.png"), &png).unwrap();
    let shown = dir.path().join("shown.html");
    fs::write(&shown, html.replace("cid:map@pbem", "map.png")).unwrap();
    let missing = dir.path().join("missing.html");
    fs::write(&missing, html.replace("cid:map@pbem", "no-such-file.png")).unwrap();

    let with_map = map_pixels(&screenshot(&browser, &shown));
    let without = map_pixels(&screenshot(&browser, &missing));
    assert!(
        with_map > without + 500,
        "the browser shows no map: {with_map} map pixels with the image, {without} without"
    );

    // The names of the areas as the phone shows them: the map's label size scaled from the SVG's
    // width (the PNG's, halved) to the width the browser gives the image.
    let shown = shown_width(&browser, &shown);
    let (png_width, _) = pbem::report::png::size(&png).unwrap();
    let svg_width = f64::from(png_width) / 2.0;
    assert_eq!(svg_width as i64, pbem::report::svg::PHONE_WIDTH);
    let names = pbem::report::svg::PHONE_LABEL_SIZE as f64 * shown / svg_width;
    assert!(
        names >= 11.0,
        "the names show at {names:.1} CSS px on a phone (the map {shown} px wide)"
    );
}
