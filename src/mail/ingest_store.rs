//! Where `pbem ingest` keeps what it read (issue 18): one file per run for the raw messages and one
//! for the records, not three files per message. The mail folder holds:
//!
//! ```text
//! mail/inbox/batch-<sha256>.raw       the new messages of one run, byte for byte (0600); the name
//!                                     is the digest of the file
//! mail/inbox/<sha256>.eml             one message alone: one over max_message_bytes (streamed),
//!                                     or stored by an older pbem
//! mail/received/batch-<sha256>.toml   what pbem made of each message judged in one run
//! mail/received/<sha256>.toml         one message's record, which stands over its run's: written for
//!                                     every submission filed as orders (the file the turn trusts,
//!                                     `ingest::stands_for`), by accept-late and purge-passwords,
//!                                     and by an older pbem for every message
//! ```
//!
//! A raw archive is a header line, then each message as a line `message <sha256> <size>`, its bytes
//! and a newline: [`RawStore`] finds every message of every archive (and of every `.eml` file) by
//! its digest, and reads each one back checked against it. Both batch files are written to a
//! temporary file as they are made (issue 34: never whole in memory), synced, and renamed into place, so a crash leaves a run's file complete or
//! absent; a rerun stores and judges again what is missing, with the same bytes.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Seek, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::game::fsio::{crash_point, sync_dir};
use crate::game::Game;

/// `mail/inbox/`: the raw messages.
pub fn inbox_dir(game: &Game) -> PathBuf {
    game.dir.join("mail").join("inbox")
}

/// `mail/received/`: what pbem made of them.
pub fn received_dir(game: &Game) -> PathBuf {
    game.dir.join("mail").join("received")
}

/// The first line of a raw archive.
pub const ARCHIVE_FORMAT: &str = "pbem-inbox-batch/v1";

/// The `format` of a run's records file.
pub const RECORDS_FORMAT: &str = "pbem-received-batch/v1";

/// The most of a message's header block [`RawStore::read_head`] reads.
pub const HEAD_MAX: u64 = 256 * 1024;

/// Where a stored message's bytes are.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stored {
    /// Its file: an archive of a run, or a `.eml` file of its own.
    pub file: PathBuf,
    /// Where its bytes start in the file (0 for a file of its own).
    pub offset: u64,
    pub size: u64,
}

impl Stored {
    /// Whether the message has a file of its own (`<sha256>.eml`).
    pub fn alone(&self) -> bool {
        self.file.extension().is_some_and(|x| x == "eml")
    }
}

/// Every raw message stored in `mail/inbox/`, by SHA-256.
#[derive(Debug, Default)]
pub struct RawStore {
    at: BTreeMap<String, Stored>,
    /// The file read last, kept open: an ingest reads thousands of messages of one archive.
    last: std::cell::RefCell<Option<(PathBuf, std::fs::File)>>,
}

impl RawStore {
    /// Reads the index of `mail/inbox/`: each archive's message lines and each `.eml` file's name. A
    /// message both alone and in an archive is read from the archive.
    pub fn open(game: &Game) -> Result<RawStore> {
        let dir = inbox_dir(game);
        let mut store = RawStore::default();
        let names = crate::game::fsio::sorted_names(&dir)
            .with_context(|| format!("cannot list {}", game.shown(&dir)))?;
        for (name, path) in &names {
            if let Some(sha) = name.strip_suffix(".eml").filter(|s| is_digest(s)) {
                let size = std::fs::metadata(path)
                    .with_context(|| format!("cannot read {}", game.shown(path)))?
                    .len();
                store.at.insert(
                    sha.to_string(),
                    Stored {
                        file: path.clone(),
                        offset: 0,
                        size,
                    },
                );
            }
        }
        for (name, path) in &names {
            if is_archive_name(name) {
                for (sha, stored) in read_index(path)
                    .with_context(|| format!("cannot read the raw archive {}", game.shown(path)))?
                {
                    store.at.insert(sha, stored);
                }
            }
        }
        Ok(store)
    }

    /// Where the message `sha` is, if stored.
    pub fn get(&self, sha: &str) -> Option<&Stored> {
        self.at.get(sha)
    }

    /// Whether `sha` is stored whole (`size` bytes: a shorter `.eml` file is what a power cut left
    /// of a store by an older pbem, and is stored again).
    pub fn holds(&self, sha: &str, size: u64) -> bool {
        self.at.get(sha).is_some_and(|s| s.size == size)
    }

    /// The stored messages, by SHA-256.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Stored)> {
        self.at.iter()
    }

    pub fn len(&self) -> usize {
        self.at.len()
    }

    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    /// The bytes of the message `sha`, checked against its digest.
    pub fn read(&self, sha: &str) -> Result<Vec<u8>> {
        let stored = self
            .at
            .get(sha)
            .with_context(|| format!("message {sha} is not in mail/inbox"))?;
        let mut last = self.last.borrow_mut();
        if last.as_ref().is_none_or(|(path, _)| *path != stored.file) {
            let file = std::fs::File::open(&stored.file)
                .with_context(|| format!("cannot read {}", stored.file.display()))?;
            *last = Some((stored.file.clone(), file));
        }
        let (_, file) = last.as_mut().expect("opened above");
        file.seek(std::io::SeekFrom::Start(stored.offset))?;
        let mut bytes = Vec::with_capacity(stored.size as usize);
        file.take(stored.size)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {}", stored.file.display()))?;
        if crate::game::record::sha256_hex(&bytes) != sha {
            bail!(
                "the stored message {sha} in {} does not match its digest (the file was changed or damaged)",
                stored.file.display()
            );
        }
        Ok(bytes)
    }

    /// The header block of the message `sha` (its bytes up to the first blank line, at most
    /// [`HEAD_MAX`]), unchecked against its digest: what pbem reads of a message over
    /// `max_message_bytes`, to know when it arrived and whom to tell that it was not read.
    /// A message this run stored alone (`<sha>.eml`, over the limit) is read from its file.
    pub fn read_head(&self, game: &Game, sha: &str) -> Result<Vec<u8>> {
        let alone = Stored {
            file: inbox_dir(game).join(format!("{sha}.eml")),
            offset: 0,
            size: HEAD_MAX,
        };
        let stored = self.at.get(sha).unwrap_or(&alone);
        let mut file = std::fs::File::open(&stored.file)
            .with_context(|| format!("cannot read {}", stored.file.display()))?;
        file.seek(std::io::SeekFrom::Start(stored.offset))?;
        let mut bytes = Vec::new();
        file.take(stored.size.min(HEAD_MAX))
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {}", stored.file.display()))?;
        let end = [&b"\r\n\r\n"[..], b"\n\n"]
            .iter()
            .filter_map(|sep| {
                bytes
                    .windows(sep.len())
                    .position(|w| w == *sep)
                    .map(|at| at + sep.len())
            })
            .min();
        if let Some(end) = end {
            bytes.truncate(end);
        }
        Ok(bytes)
    }

    /// Where a referee finds the message: `mail/inbox/<sha>.eml`, or the archive and the message's
    /// line in it.
    pub fn shown(&self, game: &Game, sha: &str) -> String {
        self.where_is(sha, &|p| game.shown(p))
    }

    /// As [`RawStore::shown`], with the path as the referee gave the game's folder (`Game::printed`):
    /// what a command prints.
    pub fn printed(&self, game: &Game, sha: &str) -> String {
        self.where_is(sha, &|p| game.printed(p))
    }

    fn where_is(&self, sha: &str, path: &dyn Fn(&Path) -> String) -> String {
        match self.at.get(sha) {
            Some(s) if s.alone() => path(&s.file),
            Some(s) => format!(
                "{} (its line 'message {sha}', byte {})",
                path(&s.file),
                s.offset
            ),
            None => format!("message {sha} (not in mail/inbox)"),
        }
    }
}

fn is_digest(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn is_archive_name(name: &str) -> bool {
    name.strip_prefix("batch-")
        .and_then(|n| n.strip_suffix(".raw"))
        .is_some_and(is_digest)
}

/// The messages of one raw archive and where each one's bytes are.
fn read_index(path: &Path) -> Result<Vec<(String, Stored)>> {
    read_index_of(path, ARCHIVE_FORMAT, is_digest)
}

/// The messages of a file of messages (first line `format`, then each message as a line `message
/// <key> <size>`, its bytes and a newline), each key checked by `valid`, and where each one's bytes
/// are: the raw archives here, the batches of answers in the outbox (`outbox_store`).
pub(crate) fn read_index_of(
    path: &Path,
    format: &str,
    valid: fn(&str) -> bool,
) -> Result<Vec<(String, Stored)>> {
    let mut r = BufReader::new(std::fs::File::open(path)?);
    let mut line = String::new();
    r.read_line(&mut line)?;
    if line.trim_end() != format {
        bail!("its first line is not {format}");
    }
    let mut offset = line.len() as u64;
    let mut out = Vec::new();
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Ok(out);
        }
        let parsed = line
            .trim_end()
            .strip_prefix("message ")
            .and_then(|rest| rest.split_once(' '))
            .and_then(|(sha, size)| Some((sha, size.parse::<u64>().ok()?)))
            .filter(|(sha, _)| valid(sha));
        let Some((sha, size)) = parsed else {
            bail!("byte {offset}: not a line 'message <key> <size>'");
        };
        offset += line.len() as u64;
        out.push((
            sha.to_string(),
            Stored {
                file: path.to_path_buf(),
                offset,
                size,
            },
        ));
        let skip = i64::try_from(size).context("a message size out of range")?;
        r.seek_relative(skip)?;
        let mut end = [0u8; 1];
        r.read_exact(&mut end)
            .with_context(|| format!("byte {offset}: message {sha} is cut short"))?;
        if end[0] != b'\n' {
            bail!("byte {offset}: message {sha} does not end where its size says");
        }
        offset += size + 1;
    }
}

/// The raw archive of one run, being written: messages go to a temporary file as they are read;
/// [`ArchiveWriter::finish`] syncs it and puts it in place under its digest.
pub struct ArchiveWriter {
    dir: PathBuf,
    tmp: Option<std::io::BufWriter<tempfile::NamedTempFile>>,
    hasher: Sha256,
    offset: u64,
    /// The messages written, and where.
    added: BTreeMap<String, (u64, u64)>,
}

impl ArchiveWriter {
    pub fn new(game: &Game) -> ArchiveWriter {
        ArchiveWriter::in_dir(inbox_dir(game))
    }

    fn in_dir(dir: PathBuf) -> ArchiveWriter {
        ArchiveWriter {
            dir,
            tmp: None,
            hasher: Sha256::new(),
            offset: 0,
            added: BTreeMap::new(),
        }
    }

    /// Whether this run's archive holds `sha` already.
    pub fn holds(&self, sha: &str) -> bool {
        self.added.contains_key(sha)
    }

    /// Appends a message (its digest `sha`).
    pub fn add(&mut self, sha: &str, bytes: &[u8]) -> Result<()> {
        if self.tmp.is_none() {
            let tmp = temp_file_in(&self.dir)?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                tmp.as_file()
                    .set_permissions(std::fs::Permissions::from_mode(0o600))?;
            }
            self.tmp = Some(std::io::BufWriter::with_capacity(1 << 20, tmp));
            self.put(format!("{ARCHIVE_FORMAT}\n").as_bytes())?;
        }
        self.put(format!("message {sha} {}\n", bytes.len()).as_bytes())?;
        self.added
            .insert(sha.to_string(), (self.offset, bytes.len() as u64));
        self.put(bytes)?;
        self.put(b"\n")
    }

    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        let tmp = self.tmp.as_mut().expect("opened by add");
        tmp.write_all(bytes)
            .with_context(|| format!("cannot write to {}", self.dir.display()))?;
        self.hasher.update(bytes);
        self.offset += bytes.len() as u64;
        Ok(())
    }

    /// Syncs the archive, puts it in place (`batch-<sha256>.raw`) and syncs the folder, then adds its
    /// messages to `store`. Nothing to do when no message was added.
    pub fn finish(self, store: &mut RawStore) -> Result<()> {
        let Some(tmp) = self.tmp else {
            return Ok(());
        };
        let tmp = tmp
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("cannot write to {}", self.dir.display()))?;
        tmp.as_file().sync_all()?;
        let path = self
            .dir
            .join(format!("batch-{}.raw", hex::encode(self.hasher.finalize())));
        crash_point(&path);
        // The same name holds the same bytes: an archive already in place (a run that crashed after
        // it) stays as it is.
        if !path.is_file() {
            tmp.persist(&path)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {}", path.display(), e.error))?;
            sync_dir(&self.dir)?;
        }
        for (sha, (offset, size)) in self.added {
            store.at.insert(
                sha,
                Stored {
                    file: path.clone(),
                    offset,
                    size,
                },
            );
        }
        Ok(())
    }
}

/// `mail/received/batch-<sha256>.toml`: the records of the messages one run judged (each an
/// `ingest::Received`; this module stores them without reading them).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordsFile<R> {
    pub format: String,
    #[serde(default = "Vec::new")]
    pub message: Vec<R>,
}

/// The path and bytes of the records file of one run (none when it judged nothing).
pub fn records_file<R: Serialize>(
    game: &Game,
    records: &[R],
) -> Result<Option<(PathBuf, Vec<u8>)>> {
    if records.is_empty() {
        return Ok(None);
    }
    // Each record is flat (strings, numbers, one array of strings), so the file is its records'
    // TOML one after the other, each under its `[[message]]` line.
    let mut text = format!("format = \"{RECORDS_FORMAT}\"\n");
    for r in records {
        text.push_str("\n[[message]]\n");
        text.push_str(
            &crate::game::load::to_toml(r).context("cannot write a received-message record")?,
        );
    }
    let name = format!(
        "batch-{}.toml",
        crate::game::record::sha256_hex(text.as_bytes())
    );
    Ok(Some((received_dir(game).join(name), text.into_bytes())))
}

/// A file written to a temporary file beside its place as it is made, hashed on the way (issue 34:
/// a run's records and answers are not held whole in memory): its name is its digest.
pub struct Hashed {
    dir: PathBuf,
    tmp: Option<std::io::BufWriter<tempfile::NamedTempFile>>,
    hasher: Sha256,
}

impl Hashed {
    pub fn in_dir(dir: PathBuf) -> Hashed {
        Hashed {
            dir,
            tmp: None,
            hasher: Sha256::new(),
        }
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.tmp.is_none()
    }

    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        if self.tmp.is_none() {
            let tmp = temp_file_in(&self.dir)?;
            self.tmp = Some(std::io::BufWriter::with_capacity(1 << 16, tmp));
        }
        let tmp = self.tmp.as_mut().expect("opened above");
        tmp.write_all(bytes)
            .with_context(|| format!("cannot write to {}", self.dir.display()))?;
        self.hasher.update(bytes);
        Ok(())
    }

    /// The temporary file, flushed (not synced), and the hex digest of its bytes; none when nothing
    /// was written.
    pub fn finish(self) -> Result<Option<(tempfile::TempPath, String)>> {
        let Some(tmp) = self.tmp else {
            return Ok(None);
        };
        let tmp = tmp
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("cannot write to {}", self.dir.display()))?;
        Ok(Some((
            tmp.into_temp_path(),
            hex::encode(self.hasher.finalize()),
        )))
    }
}

/// A run's records file being written, record by record, as [`records_file`] writes it whole.
pub struct RecordsWriter {
    file: Hashed,
}

impl RecordsWriter {
    pub fn new(game: &Game) -> RecordsWriter {
        RecordsWriter {
            file: Hashed::in_dir(received_dir(game)),
        }
    }

    pub fn add<R: Serialize>(&mut self, record: &R) -> Result<()> {
        if self.file.is_empty() {
            self.file
                .write(format!("format = \"{RECORDS_FORMAT}\"\n").as_bytes())?;
        }
        self.file.write(b"\n[[message]]\n")?;
        self.file.write(
            crate::game::load::to_toml(record)
                .context("cannot write a received-message record")?
                .as_bytes(),
        )
    }

    /// The temporary file and the place it goes (`batch-<sha256>.toml`); none when no record was
    /// added.
    pub fn finish(self) -> Result<Option<(tempfile::TempPath, PathBuf)>> {
        let dir = self.file.dir.clone();
        Ok(self
            .file
            .finish()?
            .map(|(tmp, sha)| (tmp, dir.join(format!("batch-{sha}.toml")))))
    }
}

/// Every record of `mail/received/`, by the key `key` gives (the message's SHA-256): those of the
/// runs' files, and over them each message's own file.
pub fn load_records<R: DeserializeOwned>(
    game: &Game,
    key: impl Fn(&R) -> String,
) -> Result<BTreeMap<String, R>> {
    let mut out = BTreeMap::new();
    each_record(game, &mut |r: R| {
        out.insert(key(&r), r);
        Ok(())
    })?;
    Ok(out)
}

/// Hands every record of `mail/received/` to `each`, one at a time (issue 34: an ingest keeps of
/// them only what it asks): those of the runs' files, by file name ([`each_record_of`]), then each
/// message's own file, which stands over its run's: a record handed later stands over one handed
/// earlier with the same message.
pub fn each_record<R: DeserializeOwned>(
    game: &Game,
    each: &mut dyn FnMut(R) -> Result<()>,
) -> Result<()> {
    let dir = received_dir(game);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", game.shown(&dir))),
    };
    let mut batches = Vec::new();
    let mut alone = Vec::new();
    for e in entries {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        match name.strip_suffix(".toml") {
            Some(n) if n.starts_with("batch-") => batches.push(e.path()),
            Some(_) => alone.push(e.path()),
            None => {}
        }
    }
    batches.sort();
    alone.sort();
    for path in batches {
        each_record_of(&path, &game.shown(&path), each)?;
    }
    for path in alone {
        let src = crate::game::load::read_source(&path, &game.shown(&path))?;
        let r: R = crate::game::load::parse_toml(&src)?;
        each(r)?;
    }
    Ok(())
}

/// Hands every record of one run's records file to `each`, in the order written: record by record,
/// or, when the file is not laid out so (a line `[[message]]` inside a string), the rest of them
/// from the file parsed whole, its errors located there.
pub fn each_record_of<R: DeserializeOwned>(
    path: &Path,
    shown: &str,
    each: &mut dyn FnMut(R) -> Result<()>,
) -> Result<()> {
    let mut handed = 0;
    let layout = record_by_record(path, &mut |r| {
        handed += 1;
        each(r)
    })
    .with_context(|| format!("cannot read {shown}"))?;
    let format_error = |format: &str| {
        anyhow::anyhow!("{shown}: format {format:?}, where pbem reads {RECORDS_FORMAT:?}")
    };
    match layout {
        Layout::Read => Ok(()),
        Layout::Format(format) => Err(format_error(&format)),
        Layout::Whole => {
            let src = crate::game::load::read_source(path, shown)?;
            let file: RecordsFile<R> = crate::game::load::parse_toml(&src)?;
            if file.format != RECORDS_FORMAT {
                return Err(format_error(&file.format));
            }
            file.message.into_iter().skip(handed).try_for_each(each)
        }
    }
}

/// How a run's records file was read record by record.
#[derive(Debug, PartialEq, Eq)]
enum Layout {
    /// Every record handed over.
    Read,
    /// Its format line names another format.
    Format(String),
    /// A piece did not parse: the file is to be parsed whole (for the records not handed over yet).
    Whole,
}

/// A run's records file as [`records_file`] writes it, read and parsed one `[[message]]` at a time
/// (issue 34: parsed whole, a file of 50,000 records, 30 MB, took a document of 550 MiB), each
/// record handed to `each`. [`Layout::Whole`] when the file is not laid out so (a line
/// `[[message]]` inside a string leaves a piece that does not parse): it is then parsed whole, and
/// an error located there.
fn record_by_record<R: DeserializeOwned>(
    path: &Path,
    each: &mut dyn FnMut(R) -> Result<()>,
) -> Result<Layout> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Head {
        format: String,
    }
    let mut r = BufReader::new(std::fs::File::open(path)?);
    let mut piece = String::new();
    let mut line = String::new();
    let mut head = true;
    loop {
        line.clear();
        let end = r.read_line(&mut line)? == 0;
        if end || line == "[[message]]\n" {
            if head {
                let Ok(h) = toml::from_str::<Head>(&piece) else {
                    return Ok(Layout::Whole);
                };
                if h.format != RECORDS_FORMAT {
                    return Ok(Layout::Format(h.format));
                }
                head = false;
            } else {
                let Ok(record) = toml::from_str(&piece) else {
                    return Ok(Layout::Whole);
                };
                each(record)?;
            }
            piece.clear();
            if end {
                return Ok(Layout::Read);
            }
        } else {
            piece.push_str(&line);
        }
    }
}

/// A temporary file (`.tmp-*`) in `dir`, made with the folder if need be: a file of this run
/// written whole before it takes its name.
fn temp_file_in(dir: &Path) -> Result<tempfile::NamedTempFile> {
    crate::game::fsio::create_dirs(dir)?;
    tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A records file is read record by record as it is written, and whole (the same records, each
    /// handed over once) when a string in it holds a line `[[message]]`.
    #[test]
    fn a_records_file_reads_back_the_same_records_piece_by_piece_or_whole() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct R {
            id: String,
            reasons: Vec<String>,
        }
        for tricky in ["plain", "a\n[[message]]\nid = \"x\"\n"] {
            let records = vec![
                R {
                    id: "1".into(),
                    reasons: vec![],
                },
                R {
                    id: "2".into(),
                    reasons: vec![tricky.into()],
                },
                R {
                    id: "3".into(),
                    reasons: vec![],
                },
            ];
            let mut text = format!("format = \"{RECORDS_FORMAT}\"\n");
            for r in &records {
                text.push_str("\n[[message]]\n");
                text.push_str(&crate::game::load::to_toml(r).unwrap());
            }
            let whole: RecordsFile<R> = toml::from_str(&text).unwrap();
            assert_eq!(whole.message, records);
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("batch.toml");
            std::fs::write(&path, &text).unwrap();
            let mut read = Vec::new();
            let layout = record_by_record::<R>(&path, &mut |r| {
                read.push(r);
                Ok(())
            })
            .unwrap();
            match layout {
                Layout::Read => {
                    assert_eq!(tricky, "plain");
                    assert_eq!(read, records);
                }
                _ => assert_ne!(tricky, "plain"),
            }
            let mut handed = Vec::new();
            each_record_of::<R>(&path, "batch.toml", &mut |r| {
                handed.push(r);
                Ok(())
            })
            .unwrap();
            assert_eq!(handed, records, "{tricky:?}");
        }
    }

    /// Whatever a message holds (lines like the archive's own, no final newline, nothing at all,
    /// NUL bytes), the archive's index finds each one where it was written, byte for byte.
    #[test]
    fn an_archive_gives_back_every_message_it_holds() {
        let dir = tempfile::tempdir().unwrap();
        let messages: Vec<Vec<u8>> = vec![
            b"From: a@b\r\n\r\nmessage 00 12\nmove\n".to_vec(),
            Vec::new(),
            b"no newline at the end".to_vec(),
            b"\0\0\n\n\npbem-inbox-batch/v1\n".to_vec(),
        ];
        let mut w = ArchiveWriter::in_dir(dir.path().to_path_buf());
        for m in &messages {
            w.add(&crate::game::record::sha256_hex(m), m).unwrap();
        }
        let mut store = RawStore::default();
        w.finish(&mut store).unwrap();
        assert_eq!(store.len(), messages.len());
        let (_, first) = store.iter().next().unwrap();
        let mut index = read_index(&first.file).unwrap();
        index.sort();
        let mut held: Vec<(String, Stored)> = store
            .iter()
            .map(|(s, at)| (s.clone(), at.clone()))
            .collect();
        held.sort();
        assert_eq!(index, held);
        for m in &messages {
            assert_eq!(store.read(&crate::game::record::sha256_hex(m)).unwrap(), *m);
        }
        // An archive cut short is refused, not half read.
        let bytes = std::fs::read(&first.file).unwrap();
        let cut = dir.path().join("cut.raw");
        std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
        assert!(read_index(&cut).is_err());
    }
}
