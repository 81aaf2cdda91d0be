//! Rebuilds pbem when a bundled scenario or its sample orders change: `include_dir!` (src/bundled.rs)
//! embeds `games/` and `orders/`, and cargo does not watch what a macro reads.

fn main() {
    println!("cargo:rerun-if-changed=games");
    println!("cargo:rerun-if-changed=orders");
    println!("cargo:rerun-if-changed=build.rs");
}
