//! What the commands print, without ever panicking: `println!` panics when stdout is closed (`pbem
//! status | head`) or full (`> /dev/full`), and would stop a command halfway through its work. The
//! [`say!`](crate::say) and [`say_err!`](crate::say_err) macros write a line to stdout or stderr and
//! remember a failure instead; `main` reports it once the command has done its work.

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicU8, Ordering};

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

/// Writes `args` to stdout (`newline`: and a line break); a failure is remembered, not raised.
pub fn stdout(args: fmt::Arguments<'_>, newline: bool) {
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| {
        if newline {
            out.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    if let Err(e) = written {
        remember(&e);
    }
}

/// Writes `args` to stderr (`newline`: and a line break); a failure is ignored: there is nowhere
/// left to say it.
pub fn stderr(args: fmt::Arguments<'_>, newline: bool) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| {
        if newline {
            err.write_all(b"\n")
        } else {
            Ok(())
        }
    });
}

/// Flushes stdout; 0 when everything printed so far reached it, else [`BROKEN_PIPE`] or [`FAILED`].
pub fn stdout_lost() -> u8 {
    if let Err(e) = std::io::stdout().lock().flush() {
        remember(&e);
    }
    STDOUT_LOST.load(Ordering::Relaxed)
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
