//! Progress on long work (ingest of many messages, audit of many turns, send): an `indicatif` bar on
//! stderr, drawn only when stderr is a terminal and `--quiet` was not given (`out::progress_on_stderr`),
//! so that pipes, logs and tests get the results alone.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress callback `(done, total, what)` for work counted in `unit` ("messages", "turns"): it
/// draws a bar once `total` reaches `at_least` (small work needs none) and clears it when done.
pub fn reporter(unit: &'static str, at_least: usize) -> impl FnMut(usize, usize, &str) {
    let shown = crate::out::progress_on_stderr();
    let mut bar: Option<ProgressBar> = None;
    move |done, total, what| {
        if !shown || total < at_least {
            return;
        }
        let bar = bar.get_or_insert_with(|| {
            let b = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(&format!(
                "  {{bar:30}} {{pos}}/{{len}} {unit} {{wide_msg}}"
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            b.set_style(style);
            b
        });
        bar.set_position(done as u64);
        bar.set_message(crate::out::for_terminal(what).into_owned());
        if done >= total {
            bar.finish_and_clear();
        }
    }
}
