//! Memory the process freed, handed back to the system at a turn's turning point. The allocator is
//! the binary's (mimalloc, `src/main.rs`), which keeps what is freed for a while, for the next
//! allocations of the same thread. What the adjudication frees (its working position, its
//! indexes) is not asked for again by the threads that then make the reports, each allocating on
//! its own: kept, it stood beside the first reports at a turn's peak (issue 39).

use std::sync::OnceLock;

static RELEASE: OnceLock<fn()> = OnceLock::new();

/// Says how freed memory is handed back (the binary, which chose the allocator); the first call
/// holds.
pub fn set_release(release: fn()) {
    let _ = RELEASE.set(release);
}

/// Hands the memory this thread freed back to the system, when the binary said how (a library
/// user that did not: nothing).
pub fn release_freed() {
    if let Some(release) = RELEASE.get() {
        release();
    }
}
