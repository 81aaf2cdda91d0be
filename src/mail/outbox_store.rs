//! The messages of the outbox as `pbem send` finds them (issue 18): each `.eml` file, and each
//! message of a batch, the answers of one `pbem ingest` run in one file rather than a file each.
//!
//! ```text
//! mail/outbox/<name>.eml              one message (a report, an announcement, a reminder, an answer
//!                                     written by accept-late or by an older pbem)
//! mail/outbox/batch-<sha256>.raw      the answers of one ingest run; the name is the file's digest
//! ```
//!
//! A batch is a first line `pbem-outbox-batch/v1`, then each message as a line `message <name>
//! <size>`, its bytes and a newline, `<name>` the file name the message would have alone
//! (`t0001-ack-france-3f2a9c1e.eml`): `grep -a '^message '` lists them. Everything else keys on that
//! name as on a file's: the sent ledger (`mail/sent/<name>.toml`), `pbem send`'s listing, rollback. A
//! file `<name>.eml` stands over a batch's message of the same name (ingest writes one when a rerun
//! makes other bytes for an answer a batch already holds). A batch is written whole to a temporary
//! file, synced and renamed into place with the rest of its run (`ingest::Batch`), so a crash leaves
//! it complete or absent.
//!
//! `mail/outbox/order.txt` is the order the messages were written in, which is the order `pbem send`
//! sends them in ([`in_order`]): an answer that accept-late writes over a "late" one goes after it,
//! whatever their names. A first line `pbem-outbox-order/v1`, then one name a line. Every writer of
//! the outbox notes its names first ([`note`]); a name noted again keeps its place while its message
//! is in the outbox (a rerun writes the same message again) and goes to the end once it is gone (a
//! turn resolved again after a rollback). A crash between the note and the message leaves a name
//! without a message, which is passed over. Messages no note names (written by an older pbem) go
//! first, by name.

use std::collections::BTreeMap;
use std::io::{Read, Seek};
use std::path::Path;

use anyhow::{Context, Result};

use super::ingest_store::{read_index_of, Stored};

/// The first line of a batch of the outbox.
pub const BATCH_FORMAT: &str = "pbem-outbox-batch/v1";

/// One message of the outbox: its name and where its bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Its file name (`t0001-ack-france-3f2a9c1e.eml`), alone or in a batch.
    pub name: String,
    /// Its file, or its batch and where in it.
    pub at: Stored,
}

impl Message {
    /// Whether the message is a file of its own.
    pub fn alone(&self) -> bool {
        self.at.alone()
    }

    /// Its bytes: the message whole (a report's mail made whole from its parts, [`whole`]).
    pub fn read(&self) -> Result<Vec<u8>> {
        let kept = self.read_kept()?;
        self.whole(kept)
    }

    /// The message whole, from its bytes as kept ([`Message::read_kept`]).
    pub fn whole(&self, kept: Vec<u8>) -> Result<Vec<u8>> {
        match self.alone() {
            true => whole(&self.at.file, kept),
            false => Ok(kept),
        }
    }

    /// Its bytes as the outbox keeps them: a report's mail in parts (`outbox::PARTS_FORMAT`),
    /// whose digest the turn's record lists (`outbox::kept_digest`).
    pub fn read_kept(&self) -> Result<Vec<u8>> {
        let mut file = std::fs::File::open(&self.at.file)
            .with_context(|| format!("cannot read {}", self.at.file.display()))?;
        if self.alone() {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)
                .with_context(|| format!("cannot read {}", self.at.file.display()))?;
            return Ok(bytes);
        }
        file.seek(std::io::SeekFrom::Start(self.at.offset))?;
        let mut bytes = Vec::with_capacity(self.at.size as usize);
        file.take(self.at.size)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {}", self.at.file.display()))?;
        if bytes.len() as u64 != self.at.size {
            anyhow::bail!(
                "{}: message {} is cut short",
                self.at.file.display(),
                self.name
            );
        }
        Ok(bytes)
    }
}

/// The message an outbox file at `path` holds, whole: `bytes` themselves, or the message made
/// from the files of the game folder its parts name (`outbox::PARTS_FORMAT`, a report's mail).
pub fn whole(path: &Path, bytes: Vec<u8>) -> Result<Vec<u8>> {
    if !super::outbox::is_parts(&bytes) {
        return Ok(bytes);
    }
    // `<game>/mail/outbox/<file>`: the parts are named from the game folder.
    let root = path
        .parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
        .context("an outbox file outside a game folder")?;
    super::outbox::assemble(root, &bytes).with_context(|| format!("{}", path.display()))
}

/// The message of the outbox file at `path`, whole ([`whole`]).
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    whole(path, bytes)
}

/// Whether `name` is the name of a batch (`batch-<sha256>.raw`).
pub fn is_batch_name(name: &str) -> bool {
    name.strip_prefix("batch-")
        .and_then(|n| n.strip_suffix(".raw"))
        .is_some_and(|d| {
            d.len() == 64
                && d.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        })
}

/// Whether `name` may name a message of a batch: a plain file name ending in `.eml`, not hidden
/// (a message of another name is kept in a file of its own).
pub fn is_message_name(name: &str) -> bool {
    name.len() > 4
        && name.ends_with(".eml")
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-+".contains(&b))
}

/// Every message of the outbox folder `dir`, by name: each `.eml` file (not hidden), and each
/// message of each batch that no file of the same name stands over.
pub fn messages(dir: &Path) -> Result<BTreeMap<String, Message>> {
    let mut out = BTreeMap::new();
    let names = crate::game::fsio::sorted_names(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?;
    for (name, path) in &names {
        if is_batch_name(name) {
            let index = read_index_of(path, BATCH_FORMAT, is_message_name)
                .with_context(|| format!("cannot read the outbox batch {}", path.display()))?;
            for (name, at) in index {
                out.entry(name.clone()).or_insert(Message { name, at });
            }
        }
    }
    for (name, path) in names {
        if name.ends_with(".eml") && !name.starts_with('.') {
            let at = Stored {
                file: path,
                offset: 0,
                size: 0,
            };
            out.insert(name.clone(), Message { name, at });
        }
    }
    Ok(out)
}

/// The file of the order the outbox's messages were written in.
pub const ORDER: &str = "order.txt";

/// The first line of [`ORDER`].
pub const ORDER_FORMAT: &str = "pbem-outbox-order/v1";

/// The names [`ORDER`] lists, in order (none when it does not exist).
fn order(dir: &Path) -> Result<Vec<String>> {
    let path = dir.join(ORDER);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    Ok(text
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect())
}

/// Notes that the messages `names` are about to be written into the outbox folder `dir`, in this
/// order: each goes to the end of [`ORDER`] unless it is listed there and its message is still in
/// the outbox. Call it under the game lock, before writing the messages.
pub fn note(dir: &Path, names: &[String]) -> Result<()> {
    if names.is_empty() {
        return Ok(());
    }
    let present = messages(dir)?;
    let mut listed = order(dir)?;
    let before = listed.clone();
    for name in names {
        let at = listed.iter().position(|n| n == name);
        match at {
            Some(_) if present.contains_key(name) => {}
            Some(i) => {
                let n = listed.remove(i);
                listed.push(n);
            }
            None => listed.push(name.clone()),
        }
    }
    if listed == before {
        return Ok(());
    }
    // Names whose message is gone and that no writer notes again are left out.
    listed.retain(|n| present.contains_key(n) || names.contains(n));
    let mut text = format!("{ORDER_FORMAT}\n");
    for n in &listed {
        text.push_str(n);
        text.push('\n');
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    crate::game::fsio::write_atomic(&dir.join(ORDER), text.as_bytes())
}

/// Every message of the outbox folder `dir` in the order it was written ([`ORDER`]): those no note
/// names first, by name, then the noted ones in their order.
pub fn in_order(dir: &Path) -> Result<Vec<Message>> {
    let mut all = messages(dir)?;
    let listed = order(dir)?;
    let mut out: Vec<Message> = Vec::with_capacity(all.len());
    let mut noted = Vec::new();
    for name in &listed {
        if let Some(m) = all.remove(name) {
            noted.push(m);
        }
    }
    out.extend(all.into_values());
    out.extend(noted);
    Ok(out)
}

/// Every message of the outbox folder `dir` with its bytes, by name.
pub fn read_all(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    messages(dir)?
        .into_values()
        .map(|m| Ok((m.name.clone(), m.read()?)))
        .collect()
}

/// A batch of the outbox being written message by message to a temporary file in the outbox
/// (issue 34: an ingest's answers are not held in memory), the bytes [`batch`] makes.
pub struct BatchWriter {
    file: super::ingest_store::Hashed,
}

impl BatchWriter {
    pub fn new(dir: &Path) -> BatchWriter {
        BatchWriter {
            file: super::ingest_store::Hashed::in_dir(dir.to_path_buf()),
        }
    }

    /// Appends the message `name` (a plain `.eml` file name).
    pub fn add(&mut self, name: &str, message: &[u8]) -> Result<()> {
        debug_assert!(is_message_name(name), "{name}");
        if self.file.is_empty() {
            self.file.write(format!("{BATCH_FORMAT}\n").as_bytes())?;
        }
        self.file
            .write(format!("message {name} {}\n", message.len()).as_bytes())?;
        self.file.write(message)?;
        self.file.write(b"\n")
    }

    /// The temporary file (flushed, not synced) and the batch's file name; none when no message was
    /// added.
    pub fn finish(self) -> Result<Option<(tempfile::TempPath, String)>> {
        Ok(self
            .file
            .finish()?
            .map(|(tmp, sha)| (tmp, format!("batch-{sha}.raw"))))
    }
}

/// A batch of `messages` (name, bytes; each name a plain `.eml` file name): its file name, which is
/// its digest, and its bytes.
pub fn batch(messages: &[(String, Vec<u8>)]) -> (String, Vec<u8>) {
    let mut bytes = format!("{BATCH_FORMAT}\n").into_bytes();
    for (name, m) in messages {
        debug_assert!(is_message_name(name), "{name}");
        bytes.extend_from_slice(format!("message {name} {}\n", m.len()).as_bytes());
        bytes.extend_from_slice(m);
        bytes.push(b'\n');
    }
    let name = format!(
        "batch-{}.raw",
        crate::game::record::sha256_hex(bytes.as_slice())
    );
    (name, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch gives back each message it holds, byte for byte, under its name; a file of the same
    /// name stands over the batch's message; a batch cut short is refused, not half read.
    #[test]
    fn a_batch_of_the_outbox_gives_back_each_message_and_a_file_stands_over_it() {
        let dir = tempfile::tempdir().unwrap();
        let messages = vec![
            (
                "t0001-ack-france-1.eml".to_string(),
                b"A\r\nmessage x 3\n".to_vec(),
            ),
            ("t0001-ack-russia-2.eml".to_string(), Vec::new()),
            (
                "t0002-ack-prussia-3.eml".to_string(),
                b"no newline".to_vec(),
            ),
        ];
        let (name, bytes) = batch(&messages);
        assert!(is_batch_name(&name));
        std::fs::write(dir.path().join(&name), &bytes).unwrap();
        let read: Vec<(String, Vec<u8>)> = read_all(dir.path()).unwrap();
        assert_eq!(read, messages);
        std::fs::write(dir.path().join("t0001-ack-russia-2.eml"), b"alone").unwrap();
        std::fs::write(dir.path().join(".tmp-x.eml"), b"hidden").unwrap();
        let read = read_all(dir.path()).unwrap();
        assert_eq!(
            read[1],
            ("t0001-ack-russia-2.eml".into(), b"alone".to_vec())
        );
        assert_eq!(read.len(), 3);
        std::fs::write(dir.path().join(&name), &bytes[..bytes.len() - 4]).unwrap();
        assert!(super::messages(dir.path()).is_err());
    }
}
