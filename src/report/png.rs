//! The map as a PNG picture, for the HTML mail (every mail client shows a PNG; Gmail and Outlook show
//! no SVG): drawn by the workspace crate `pbem-picture` (`crates/picture`), whose per-pixel loops are
//! built optimised even in the tests' build.

pub use pbem_picture::{render, size, size_of_svg, MAX_PIXELS, MAX_WIDTH};
