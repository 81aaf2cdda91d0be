//! Reading a referee's mail (issue 4.1): single `.eml` files, mbox files, Maildir folders (`new/` and
//! `cur/`) and folders of `.eml` files, in any mix. Everything is opened read-only: the mailbox is never
//! modified (a Maildir message stays in `new/`, no flag is set). Messages are handed over one by one,
//! with what their container says of their delivery time, so that a large mbox is never all in memory.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use chrono::{DateTime, Utc};

/// How the arrival time of a message was known, best first (issue 4.1; never the sender's `Date`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Basis {
    /// The referee's own `Received` header.
    Received,
    /// The Maildir (or `.eml`) file's delivery time: the Unix time its name starts with, else its
    /// modification time.
    Delivery,
    /// The date of the mbox `From ` line, written by the delivering agent.
    Postmark,
    /// Nothing dated it: it takes the time of the message before it in its mbox (or the Unix epoch).
    MailboxOrder,
}

impl Basis {
    pub fn name(self) -> &'static str {
        match self {
            Basis::Received => "received",
            Basis::Delivery => "delivery",
            Basis::Postmark => "postmark",
            Basis::MailboxOrder => "mailbox order",
        }
    }
}

/// One message as read from a mailbox.
pub struct RawMessage {
    /// The bytes, or none when the message is over the size limit (then `stream` has its path).
    pub bytes: Vec<u8>,
    /// A file over the size limit, to be archived by streaming and never parsed.
    pub oversize: Option<(PathBuf, u64)>,
    /// Where it was found: `inbox.mbox#12`, `Maildir/new/1733.M1.host`.
    pub source: String,
    /// What its container says of its delivery.
    pub delivered: Option<(DateTime<Utc>, Basis)>,
    /// The temporary file an mbox message over the limit was spilled to (`oversize` names it);
    /// deleted when the message is dropped.
    pub spill: Option<tempfile::TempPath>,
}

/// Reads every message under `paths`, in the order given (a folder's files sorted by name), and hands
/// each to `each`. A path that does not exist is an error before anything is read; a file that cannot
/// be read later is reported to `problem` and skipped.
pub fn read_all(
    paths: &[PathBuf],
    max_bytes: u64,
    each: &mut dyn FnMut(RawMessage) -> Result<()>,
    problem: &mut dyn FnMut(String),
) -> Result<()> {
    for p in paths {
        if !p.exists() {
            bail!(
                "{} does not exist: give an .eml file, an mbox file or a Maildir folder",
                p.display()
            );
        }
    }
    for p in paths {
        if p.is_dir() {
            if p.join("new").is_dir() || p.join("cur").is_dir() {
                for sub in ["new", "cur"] {
                    for f in files_in(&p.join(sub))? {
                        read_file(&f, max_bytes, true, each, problem)?;
                    }
                }
            } else {
                let files: Vec<PathBuf> = files_in(p)?
                    .into_iter()
                    .filter(|f| {
                        f.extension()
                            .is_some_and(|e| e.eq_ignore_ascii_case("eml") || e == "mbox")
                    })
                    .collect();
                if files.is_empty() {
                    problem(format!(
                        "{}: neither a Maildir (no new/ or cur/) nor a folder of .eml files",
                        p.display()
                    ));
                }
                for f in files {
                    read_file(&f, max_bytes, false, each, problem)?;
                }
            }
        } else {
            read_file(p, max_bytes, false, each, problem)?;
        }
    }
    Ok(())
}

/// The regular files of a folder, sorted by name (hidden files and Maildir's `tmp/` left out).
fn files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    files.sort();
    Ok(files)
}

fn read_file(
    path: &Path,
    max_bytes: u64,
    maildir: bool,
    each: &mut dyn FnMut(RawMessage) -> Result<()>,
    problem: &mut dyn FnMut(String),
) -> Result<()> {
    let shown = path.display().to_string();
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) => {
            problem(format!("{shown}: cannot be read ({e}); skipped"));
            return Ok(());
        }
    };
    let meta = file.metadata().ok();
    let size = meta.as_ref().map_or(0, |m| m.len());
    let mut head = [0u8; 5];
    let n = read_up_to(&mut file, &mut head);
    let is_mbox = !maildir && head[..n] == *b"From ";
    if is_mbox {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) => {
                problem(format!("{shown}: cannot be read ({e}); skipped"));
                return Ok(());
            }
        };
        let mut previous: Option<DateTime<Utc>> = None;
        for (i, m) in super::mbox::read_mbox(BufReader::new(file), max_bytes).enumerate() {
            let m = match m {
                Ok(m) => m,
                Err(e) => {
                    problem(format!(
                        "{shown}: reading stopped at message {} ({e})",
                        i + 1
                    ));
                    break;
                }
            };
            let delivered = match m.postmark {
                Some(t) => Some((t, Basis::Postmark)),
                None => Some((
                    previous.unwrap_or(DateTime::UNIX_EPOCH),
                    Basis::MailboxOrder,
                )),
            };
            previous = delivered.map(|d| d.0);
            let (oversize, spill) = match m.spilled {
                Some((path, size)) => (Some((path.to_path_buf(), size)), Some(path)),
                None => (None, None),
            };
            each(RawMessage {
                bytes: m.bytes,
                oversize,
                source: format!("{shown}#{}", i + 1),
                delivered,
                spill,
            })?;
        }
        return Ok(());
    }
    let delivered = delivery_time(path, meta.as_ref(), maildir).map(|t| (t, Basis::Delivery));
    if size > max_bytes {
        return each(RawMessage {
            bytes: Vec::new(),
            oversize: Some((path.to_path_buf(), size)),
            source: shown,
            delivered,
            spill: None,
        });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    bytes.extend_from_slice(&head[..n]);
    if let Err(e) = file.read_to_end(&mut bytes) {
        problem(format!("{shown}: cannot be read ({e}); skipped"));
        return Ok(());
    }
    each(RawMessage {
        bytes,
        oversize: None,
        source: shown,
        delivered,
        spill: None,
    })
}

fn read_up_to(file: &mut File, buf: &mut [u8]) -> usize {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k,
        }
    }
    n
}

/// A Maildir file's delivery time is the Unix time its name starts with (`1733412000.M1P2.host`);
/// otherwise, and for `.eml` files, the file's modification time.
fn delivery_time(
    path: &Path,
    meta: Option<&std::fs::Metadata>,
    maildir: bool,
) -> Option<DateTime<Utc>> {
    if maildir {
        let name = path.file_name()?.to_string_lossy().into_owned();
        let digits: String = name.chars().take_while(|c| c.is_ascii_digit()).collect();
        if name[digits.len()..].starts_with('.') {
            if let Ok(secs) = digits.parse::<i64>() {
                if let Some(t) = DateTime::from_timestamp(secs, 0) {
                    return Some(t);
                }
            }
        }
    }
    let modified = meta?.modified().ok()?;
    let secs = modified
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    DateTime::from_timestamp(i64::try_from(secs).ok()?, 0)
}
