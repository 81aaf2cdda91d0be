//! What the commands print, without ever panicking: `println!` panics when stdout is closed (`pbem
//! status | head`) or full (`> /dev/full`), and would stop a command halfway through its work. The
//! [`say!`](crate::say) and [`say_err!`](crate::say_err) macros write a line to stdout or stderr and
//! remember a failure instead; `main` reports it once the command has done its work. Nothing they
//! write can drive the terminal: control and bidirectional characters (from a player's `power` line,
//! a file name, a subject) are shown as `?`.
//!
//! `--quiet` silences [`say!`](crate::say) (errors on stderr still go, the exit code says the
//! outcome); `--verbose` asks the commands for the routine lines they leave out ([`verbose`]).
//! Colour ([`colour_on_stdout`]) only on a terminal and without `NO_COLOR`.

use std::fmt;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU8, Ordering};

/// How much the commands say: [`QUIET`], [`NORMAL`] or [`VERBOSE`].
static LEVEL: AtomicU8 = AtomicU8::new(NORMAL);
pub const QUIET: u8 = 0;
pub const NORMAL: u8 = 1;
pub const VERBOSE: u8 = 2;

/// Sets how much the commands say (`--quiet`, `--verbose`).
pub fn set_level(level: u8) {
    LEVEL.store(level, Ordering::Relaxed);
}

/// Whether `--quiet` was given: nothing but errors is printed.
pub fn quiet() -> bool {
    LEVEL.load(Ordering::Relaxed) == QUIET
}

/// Whether `--verbose` was given: the routine lines too.
pub fn verbose() -> bool {
    LEVEL.load(Ordering::Relaxed) == VERBOSE
}

/// The width of a printed column that holds `cells`: the longest, in characters, so that every row
/// of the table stays in line (a fixed width is overrun by a long name, WBTS's "Confederate States",
/// and puts the columns after it out of line).
pub fn width<'a>(cells: impl IntoIterator<Item = &'a str>) -> usize {
    cells
        .into_iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0)
}

/// Whether stdout may be coloured: it is a terminal and `NO_COLOR` is unset or empty
/// (<https://no-color.org>).
pub fn colour_on_stdout() -> bool {
    colour_allowed(
        std::io::stdout().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    )
}

/// The rule of [`colour_on_stdout`], on what it observed.
fn colour_allowed(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

/// Whether progress may be drawn on stderr: it is a terminal and `--quiet` was not given.
pub fn progress_on_stderr() -> bool {
    !quiet() && std::io::stderr().is_terminal()
}

/// 0: all written; [`BROKEN_PIPE`]: the reader went away; [`FAILED`]: another failure (a full disk).
static STDOUT_LOST: AtomicU8 = AtomicU8::new(0);
pub const BROKEN_PIPE: u8 = 1;
pub const FAILED: u8 = 2;

fn remember(e: &std::io::Error) {
    let kind = if e.kind() == std::io::ErrorKind::BrokenPipe {
        BROKEN_PIPE
    } else {
        FAILED
    };
    STDOUT_LOST.fetch_max(kind, Ordering::Relaxed);
}

/// Whether `c` must not reach a terminal: control characters (but line feed and tab), which can
/// drive it, and the bidirectional controls, which reorder what is shown (issue 15.9).
fn unsafe_for_terminal(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The text with every character [`unsafe_for_terminal`] shown as `?`.
pub fn for_terminal(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(unsafe_for_terminal) {
        text.chars()
            .map(|c| if unsafe_for_terminal(c) { '?' } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

/// `args` as a terminal may show them, with a line break when `newline`. A carriage return that
/// starts the text (a progress line rewriting itself) is kept.
fn line(args: fmt::Arguments<'_>, newline: bool) -> String {
    let raw = fmt::format(args);
    let (cr, rest) = match raw.strip_prefix('\r') {
        Some(rest) => ("\r", rest),
        None => ("", raw.as_str()),
    };
    let mut text = format!("{cr}{}", for_terminal(rest));
    if newline {
        text.push('\n');
    }
    text
}

/// Writes `args` to stdout (`newline`: and a line break), every character that could drive the
/// terminal shown as `?`; a failure is remembered, not raised.
pub fn stdout(args: fmt::Arguments<'_>, newline: bool) {
    if !quiet() {
        stdout_even_quiet(args, newline);
    }
}

/// [`stdout`], even with `--quiet`: for what is shown once and lost otherwise (a new password).
pub fn stdout_even_quiet(args: fmt::Arguments<'_>, newline: bool) {
    let written = std::io::stdout()
        .lock()
        .write_all(line(args, newline).as_bytes());
    if let Err(e) = written {
        remember(&e);
    }
}

/// Writes text pbem coloured itself (its only control characters are the colour escapes it put
/// in, see `diag::Source::render_for_terminal`) to stdout as it is; else as [`stdout`].
pub fn stdout_styled(text: &str) {
    if quiet() {
        return;
    }
    if let Err(e) = std::io::stdout().lock().write_all(text.as_bytes()) {
        remember(&e);
    }
}

/// Writes `args` to stderr as [`stdout`] does; a failure is ignored: there is nowhere left to say it.
pub fn stderr(args: fmt::Arguments<'_>, newline: bool) {
    let _ = std::io::stderr()
        .lock()
        .write_all(line(args, newline).as_bytes());
}

/// Flushes stdout; 0 when everything printed so far reached it, else [`BROKEN_PIPE`] or [`FAILED`].
pub fn stdout_lost() -> u8 {
    if let Err(e) = std::io::stdout().lock().flush() {
        remember(&e);
    }
    STDOUT_LOST.load(Ordering::Relaxed)
}

/// The file beside a game's files where passwords that could not be shown are kept.
pub const PASSWORDS_FILE: &str = "passwords.txt";

/// Where passwords shown once went ([`show_passwords`]).
#[derive(Debug, PartialEq, Eq)]
pub enum PasswordsShown {
    /// On stdout, read by whoever ran the command.
    Printed,
    /// stdout could not take them: appended to this file (mode 0600), and said on stderr.
    Kept(std::path::PathBuf),
}

/// Shows `text`, which holds passwords pbem shows this once (`new`, `replace`), on stdout, even with
/// `--quiet`; when stdout cannot take it (closed, full, or `/dev/null`, where the system sends the
/// output of a command run with stdout closed: `pbem new ... >&-`), appends it to
/// `<dir>/passwords.txt` (mode 0600, synced) and says so on stderr, so that no password is lost. An
/// error only when neither could be done: the caller then undoes what the passwords were for.
pub fn show_passwords(dir: &std::path::Path, text: &str) -> std::io::Result<PasswordsShown> {
    let mut out = std::io::stdout().lock();
    if !stdout_is_null()
        && out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .is_ok()
    {
        return Ok(PasswordsShown::Printed);
    }
    let file = dir.join(PASSWORDS_FILE);
    keep_passwords(&file, text)?;
    crate::say_err!(
        "error: the passwords could not be printed (stdout is closed, full or /dev/null); they are in {} (mode 0600): hand them out, then delete it",
        file.display()
    );
    Ok(PasswordsShown::Kept(file))
}

/// Appends `text` to `file`, made or kept mode 0600, and syncs it and its folder: a password kept
/// there by an earlier run stays.
fn keep_passwords(file: &std::path::Path, text: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        let f = options.open(file)?;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        write_synced(f, text)?;
    }
    #[cfg(not(unix))]
    write_synced(options.open(file)?, text)?;
    if let Some(dir) = file.parent() {
        let dir = if dir.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            dir
        };
        std::fs::File::open(dir)?.sync_all()?;
    }
    Ok(())
}

fn write_synced(mut f: std::fs::File, text: &str) -> std::io::Result<()> {
    f.write_all(text.as_bytes())?;
    f.sync_all()
}

/// Whether stdout is `/dev/null`: what it is when the command was run with stdout closed (Rust's
/// runtime opens `/dev/null` in place of a closed standard descriptor), or sent there.
fn stdout_is_null() -> bool {
    #[cfg(unix)]
    {
        let Ok(out) = rustix::fs::fstat(std::io::stdout()) else {
            return true;
        };
        let Ok(null) = rustix::fs::stat("/dev/null") else {
            return false;
        };
        out.st_dev == null.st_dev && out.st_ino == null.st_ino
    }
    #[cfg(not(unix))]
    false
}

/// `println!` that never panics: see the module doc.
#[macro_export]
macro_rules! say {
    () => {
        $crate::out::stdout(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::out::stdout(format_args!($($arg)*), true)
    };
}

/// [`say!`] even with `--quiet`: for what is shown once and lost otherwise (a new password).
#[macro_export]
macro_rules! say_always {
    ($($arg:tt)*) => {
        $crate::out::stdout_even_quiet(format_args!($($arg)*), true)
    };
}

/// `print!` that never panics.
#[macro_export]
macro_rules! say_inline {
    ($($arg:tt)*) => {
        $crate::out::stdout(format_args!($($arg)*), false)
    };
}

/// `eprintln!` that never panics.
#[macro_export]
macro_rules! say_err {
    () => {
        $crate::out::stderr(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::out::stderr(format_args!($($arg)*), true)
    };
}

/// `eprint!` that never panics.
#[macro_export]
macro_rules! say_err_inline {
    ($($arg:tt)*) => {
        $crate::out::stderr(format_args!($($arg)*), false)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_written_can_drive_a_terminal() {
        assert_eq!(
            line(format_args!("fr\u{202e}ance\u{1b}[2J\u{7}"), true),
            "fr?ance?[2J?\n"
        );
        assert_eq!(line(format_args!("\r  3/9 ok\r"), false), "\r  3/9 ok?");
        assert_eq!(for_terminal("plain\ttext"), "plain\ttext");
    }

    #[test]
    fn colour_only_on_a_terminal_and_without_no_color() {
        use std::ffi::OsStr;
        assert!(colour_allowed(true, None));
        assert!(colour_allowed(true, Some(OsStr::new(""))));
        assert!(!colour_allowed(true, Some(OsStr::new("1"))));
        assert!(!colour_allowed(false, None));
    }
}
