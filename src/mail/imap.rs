//! `pbem fetch` (issue 22): new messages from the referee's IMAP mailbox, over TLS, into the archive
//! of `pbem ingest`, then judged as `pbem ingest` judges them. The steps, each a guarantee:
//!
//! 1. **Stored first.** Messages are fetched in batches ([`BATCH`]) with `BODY.PEEK[]` (which sets no
//!    flag); each batch is written to one raw archive in `mail/inbox/` (mode 0600) and synced
//!    (`ingest::store_all`) before anything else.
//! 2. **Never fetched twice.** Then [`STATE_FILE`] records the mailbox's UIDVALIDITY, the highest UID
//!    stored, and the messages stored but not yet judged (atomically). A rerun asks only for UIDs above
//!    it; a dropped connection loses at most the batch in flight, which the rerun fetches again. When
//!    the server's UIDVALIDITY changes (a mailbox rebuilt), every message is fetched again, and the
//!    content-addressed archive keeps each once.
//! 3. **Then marked.** Exactly the UIDs stored are flagged `\Seen` or moved (`after`), named one by
//!    one (never a range that could hold one not kept), so a crash between never moves a message pbem
//!    has not kept; the UIDs not yet marked are marked first on the next run.
//! 4. **Nothing listed is skipped** (issue 34): a UID the server listed but left out of its FETCH
//!    answer is neither marked nor taken as done: it is kept in [`FetchState::missing`], reported, and
//!    asked for again on the next run (until the server no longer lists it).
//! 5. **Then judged**, with the server's INTERNALDATE as the delivery time (the referee's own
//!    `Received` header still comes first), and the list of messages to judge emptied.
//!
//! The password comes from an environment variable or a file, never game.toml (`game::mail_config`); the
//! server's certificate is verified against the public roots and `ca_file`, never skipped.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::ingest::{self, IngestSummary};
use super::mailbox::{Basis, RawMessage};
use crate::game::fsio::{write_atomic, GameLock};
use crate::game::mail_config::ImapConfig;
use crate::game::Game;

/// Where the fetch state is kept, in the game folder.
pub const STATE_FILE: &str = "mail/imap-state.toml";

/// The format line of [`FetchState`].
pub const STATE_FORMAT: &str = "pbem-imap/v1";

/// Messages fetched per round trip, and stored (and synced) together.
pub const BATCH: usize = 20;

/// `mail/imap-state.toml`: how far pbem has read the mailbox.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchState {
    pub format: String,
    /// `user@host:port/mailbox`: a state kept for another mailbox is not used.
    pub mailbox: String,
    /// The mailbox's UIDVALIDITY when its UIDs below were read.
    pub uidvalidity: u32,
    /// The highest UID asked for: every UID up to it is stored in `mail/inbox/`, or in `missing`, or
    /// was not in the mailbox.
    pub stored_uid: u32,
    /// Before issue 34: the highest UID flagged or moved; read from an older state file (the UIDs
    /// above it up to `stored_uid` are then marked as that version did), never written.
    #[serde(default, skip_serializing)]
    pub marked_uid: Option<u32>,
    /// UIDs stored and not yet flagged or moved (`after`).
    #[serde(default)]
    pub unmarked: Vec<u32>,
    /// UIDs the server listed but did not return when asked for them: fetched again on the next run.
    #[serde(default)]
    pub missing: Vec<u32>,
    /// Messages stored and not yet judged.
    #[serde(default)]
    pub unjudged: Vec<Fetched>,
}

/// One message stored by a fetch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fetched {
    pub sha256: String,
    pub uid: u32,
    /// The server's INTERNALDATE, RFC 3339 in UTC (empty when it gave none).
    pub internal_date: String,
    /// Where it came from: `imap://user@host/INBOX;UIDVALIDITY=1;UID=7`.
    pub source: String,
}

/// What a fetch did.
#[derive(Debug, Default)]
pub struct FetchSummary {
    /// Messages fetched from the server and stored in this run.
    pub fetched: usize,
    /// Messages flagged or moved in this run.
    pub marked: usize,
    /// UIDs the server listed but left out of its answer (kept for the next run), ascending.
    pub missing: Vec<u32>,
    /// What was judged (none when nothing was stored).
    pub ingest: Option<IngestSummary>,
    /// The error that stopped the fetch (a dropped connection): what was stored before it was judged
    /// all the same, and a rerun fetches the rest.
    pub error: Option<anyhow::Error>,
}

impl FetchSummary {
    /// Whether the mailbox was read to the end: no error, and every UID listed was returned.
    pub fn complete(&self) -> bool {
        self.error.is_none() && self.missing.is_empty()
    }
}

/// Fetches the new messages of `[mail.imap]` and judges them. Takes the game lock.
pub fn fetch(game: &Game, progress: &mut dyn FnMut(usize, usize)) -> Result<FetchSummary> {
    let cfg = game.config.mail.imap.as_ref().ok_or_else(|| {
        anyhow!("game.toml has no [mail.imap] table: add host, user and password_env (see MAIL.md)")
    })?;
    let _lock = GameLock::acquire(&game.dir)?;
    let mut state = load_state(game, cfg)?;
    let mut summary = FetchSummary::default();
    if let Err(e) = fetch_new(game, cfg, &mut state, &mut summary) {
        summary.error = Some(e);
    }
    summary.missing = state.missing.clone();
    if !state.unjudged.is_empty() {
        let store = super::ingest_store::RawStore::open(game)?;
        let messages = state
            .unjudged
            .iter()
            .map(|f| raw_message(game, &store, f))
            .collect::<Result<Vec<_>>>()?;
        summary.ingest = Some(ingest::ingest_messages(game, messages, progress)?);
        state.unjudged.clear();
        save_state(game, &state)?;
    }
    Ok(summary)
}

fn fetch_new(
    game: &Game,
    cfg: &ImapConfig,
    state: &mut FetchState,
    summary: &mut FetchSummary,
) -> Result<()> {
    let password = imap_password(game, cfg)?;
    let stream = connect(game, cfg)?;
    let mut client = imap::Client::new(stream);
    client
        .read_greeting()
        .with_context(|| format!("{}: no IMAP greeting", server(cfg)))?;
    let mut session = client.login(&cfg.user, &password).map_err(|(e, _)| {
        anyhow!(
            "{}: the login as {} was refused: {e}",
            server(cfg),
            cfg.user
        )
    })?;
    let selected = session
        .select(&cfg.mailbox)
        .with_context(|| format!("{}: cannot open the mailbox {}", server(cfg), cfg.mailbox))?;
    let validity = selected.uid_validity.unwrap_or(0);
    if validity != state.uidvalidity {
        // A new mailbox (or one rebuilt): its UIDs start over.
        state.uidvalidity = validity;
        state.stored_uid = 0;
        state.unmarked.clear();
        state.missing.clear();
    }
    // Messages stored by an earlier run and not yet marked (it stopped between).
    summary.marked += mark(&mut session, cfg, game, state)?;
    // The UIDs an earlier run was not given, as far as the server still has them, then the new ones.
    let mut uids: Vec<u32> = Vec::new();
    if !state.missing.is_empty() {
        let listed = session
            .uid_search(format!("UID {}", uid_set(&state.missing)))
            .with_context(|| format!("{}: cannot list the messages missed", server(cfg)))?;
        uids.extend(state.missing.iter().filter(|u| listed.contains(u)));
    }
    uids.extend(
        session
            .uid_search(format!("UID {}:*", state.stored_uid + 1))
            .with_context(|| format!("{}: cannot list the new messages", server(cfg)))?
            .into_iter()
            .filter(|&u| u > state.stored_uid),
    );
    uids.sort_unstable();
    uids.dedup();
    // A missed UID no longer listed is gone from the mailbox (expunged): nothing is left to fetch.
    state.missing.retain(|u| uids.binary_search(u).is_ok());
    for chunk in uids.chunks(BATCH) {
        let fetches = session
            .uid_fetch(uid_set(chunk), "(UID INTERNALDATE BODY.PEEK[])")
            .with_context(|| {
                format!(
                    "{}: the connection failed while fetching; {} message(s) of this run are stored, a rerun fetches the rest",
                    server(cfg),
                    summary.fetched
                )
            })?;
        let mut got: Vec<(u32, Vec<u8>, String)> = Vec::new();
        for f in fetches.iter() {
            let (Some(uid), Some(body)) = (f.uid, f.body()) else {
                continue;
            };
            if !chunk.contains(&uid) || got.iter().any(|g| g.0 == uid) {
                continue;
            }
            let date = f
                .internal_date()
                .map(|d| d.with_timezone(&Utc).to_rfc3339())
                .unwrap_or_default();
            got.push((uid, body.to_vec(), date));
        }
        drop(fetches);
        got.sort_by_key(|g| g.0);
        let bodies: Vec<Vec<u8>> = got.iter().map(|g| g.1.clone()).collect();
        let shas = ingest::store_all(game, &bodies)?;
        for ((uid, _, date), sha) in got.iter().zip(shas) {
            state.unjudged.push(Fetched {
                sha256: sha,
                uid: *uid,
                internal_date: date.clone(),
                source: format!(
                    "imap://{}@{}/{};UIDVALIDITY={};UID={}",
                    cfg.user, cfg.host, cfg.mailbox, validity, uid
                ),
            });
            state.unmarked.push(*uid);
        }
        // A UID asked for and not returned stays to be fetched: never taken as done, never marked.
        let returned = |u: &u32| got.iter().any(|g| g.0 == *u);
        state.missing.retain(|u| !returned(u));
        state.missing.extend(chunk.iter().filter(|u| !returned(u)));
        state.missing.sort_unstable();
        state.missing.dedup();
        state.stored_uid = state.stored_uid.max(*chunk.last().unwrap_or(&0));
        save_state(game, state)?;
        summary.fetched += got.len();
    }
    summary.marked += mark(&mut session, cfg, game, state)?;
    let _ = session.logout();
    Ok(())
}

/// An IMAP sequence set naming exactly `uids` (ascending), runs of consecutive UIDs as `a:b`:
/// `[1, 2, 3, 7]` is `1:3,7`.
pub fn uid_set(uids: &[u32]) -> String {
    let mut set = String::new();
    let mut i = 0;
    while i < uids.len() {
        let mut j = i;
        while j + 1 < uids.len() && uids[j + 1] == uids[j] + 1 {
            j += 1;
        }
        if !set.is_empty() {
            set.push(',');
        }
        set.push_str(&uids[i].to_string());
        if j > i {
            set.push(':');
            set.push_str(&uids[j].to_string());
        }
        i = j + 1;
    }
    set
}

/// UIDs marked per command: a set string of a few kilobytes at most, which every server takes.
const MARK_BATCH: usize = 500;

/// Flags or moves exactly the UIDs stored and not yet marked; how many.
fn mark<T: Read + Write>(
    session: &mut imap::Session<T>,
    cfg: &ImapConfig,
    game: &Game,
    state: &mut FetchState,
) -> Result<usize> {
    let mut marked = 0;
    state.unmarked.sort_unstable();
    state.unmarked.dedup();
    while !state.unmarked.is_empty() {
        let n = state.unmarked.len().min(MARK_BATCH);
        let set = uid_set(&state.unmarked[..n]);
        match cfg.move_to() {
            Some(folder) => session.uid_mv(&set, folder).with_context(|| {
                format!(
                    "{}: cannot move messages to {folder} (does the folder exist?)",
                    server(cfg)
                )
            })?,
            None => {
                session
                    .uid_store(&set, "+FLAGS.SILENT (\\Seen)")
                    .with_context(|| format!("{}: cannot flag messages seen", server(cfg)))?;
            }
        }
        state.unmarked.drain(..n);
        save_state(game, state)?;
        marked += n;
    }
    Ok(marked)
}

/// A stored message, read back from the archive for the ingest.
fn raw_message(
    game: &Game,
    store: &super::ingest_store::RawStore,
    f: &Fetched,
) -> Result<RawMessage> {
    let stored = store.get(&f.sha256).with_context(|| {
        format!(
            "the fetched message {} is not in the archive {}",
            f.sha256,
            game.shown(&ingest::inbox_dir(game))
        )
    })?;
    // A message over the size limit has a file of its own (`ingest::store_all`), streamed again.
    let (bytes, oversize) = if stored.size > game.config.mail.max_message_bytes && stored.alone() {
        (Vec::new(), Some((stored.file.clone(), stored.size)))
    } else {
        (store.read(&f.sha256)?, None)
    };
    let delivered = DateTime::parse_from_rfc3339(&f.internal_date)
        .ok()
        .map(|d| (d.with_timezone(&Utc), Basis::Delivery));
    Ok(RawMessage {
        bytes,
        oversize,
        source: f.source.clone(),
        delivered,
        spill: None,
    })
}

fn state_path(game: &Game) -> PathBuf {
    game.dir.join(STATE_FILE)
}

fn mailbox_key(cfg: &ImapConfig) -> String {
    format!("{}@{}:{}/{}", cfg.user, cfg.host, cfg.port, cfg.mailbox)
}

/// The state kept for this mailbox; a fresh one when none is (or it was for another mailbox, whose
/// unjudged messages are still judged).
fn load_state(game: &Game, cfg: &ImapConfig) -> Result<FetchState> {
    let path = state_path(game);
    let fresh = FetchState {
        format: STATE_FORMAT.to_string(),
        mailbox: mailbox_key(cfg),
        ..FetchState::default()
    };
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(fresh);
    };
    let old: FetchState = toml::from_str(&text).with_context(|| {
        format!(
            "{} is damaged: delete it and pbem fetches the whole mailbox again (the archive keeps each message once)",
            game.shown(&path)
        )
    })?;
    if old.mailbox == mailbox_key(cfg) {
        let mut old = old;
        // A state file of before issue 34 marked a range: what it left unmarked is its range still.
        if let Some(marked) = old.marked_uid.take() {
            old.unmarked
                .extend(marked.saturating_add(1)..=old.stored_uid);
        }
        Ok(old)
    } else {
        Ok(FetchState {
            unjudged: old.unjudged,
            ..fresh
        })
    }
}

fn save_state(game: &Game, state: &FetchState) -> Result<()> {
    let text = toml::to_string(state).context("cannot write the IMAP fetch state")?;
    write_atomic(&state_path(game), text.as_bytes())
}

fn server(cfg: &ImapConfig) -> String {
    format!("IMAP server {}:{}", cfg.host, cfg.port)
}

/// A TLS connection to the server, its certificate verified against the public roots and `ca_file`.
fn connect(
    game: &Game,
    cfg: &ImapConfig,
) -> Result<rustls::StreamOwned<rustls::ClientConnection, TcpStream>> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(file) = &cfg.ca_file {
        use rustls_pki_types::pem::PemObject;
        let path = game.dir.join(file);
        let certs = rustls_pki_types::CertificateDer::pem_file_iter(&path)
            .and_then(|it| it.collect::<std::result::Result<Vec<_>, _>>())
            .map_err(|e| {
                anyhow!(
                    "cannot read the certificates of {} (game.toml [mail.imap] ca_file): {e}",
                    path.display()
                )
            })?;
        if certs.is_empty() {
            bail!(
                "{} (game.toml [mail.imap] ca_file) holds no PEM certificate",
                path.display()
            );
        }
        for c in certs {
            roots
                .add(c)
                .with_context(|| format!("a certificate of {} is not usable", path.display()))?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls_pki_types::ServerName::try_from(cfg.host.clone())
        .with_context(|| format!("{} is not a host name", cfg.host))?;
    let conn = rustls::ClientConnection::new(Arc::new(config), name)?;
    let timeout = Duration::from_secs(cfg.timeout_seconds.max(1));
    let addr = std::net::ToSocketAddrs::to_socket_addrs(&(cfg.host.as_str(), cfg.port))
        .with_context(|| format!("cannot resolve {}", cfg.host))?
        .next()
        .ok_or_else(|| anyhow!("{} has no address", cfg.host))?;
    let tcp = TcpStream::connect_timeout(&addr, timeout)
        .with_context(|| format!("cannot connect to the {}", server(cfg)))?;
    tcp.set_read_timeout(Some(timeout))?;
    tcp.set_write_timeout(Some(timeout))?;
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    // The handshake now, so that a certificate the client does not trust is named as such.
    while tls.conn.is_handshaking() {
        tls.conn
            .complete_io(&mut tls.sock)
            .with_context(|| format!("{}: the TLS handshake failed", server(cfg)))?;
    }
    Ok(tls)
}

/// The IMAP password, from the environment variable or the file game.toml names (never game.toml).
fn imap_password(game: &Game, cfg: &ImapConfig) -> Result<String> {
    if let Some(var) = &cfg.password_env {
        return std::env::var(var).map_err(|_| {
            anyhow!("the IMAP password: the environment variable {var} (game.toml [mail.imap] password_env) is not set")
        });
    }
    if let Some(file) = &cfg.password_file {
        let path = game.dir.join(file);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            anyhow!(
                "the IMAP password: cannot read {} (game.toml [mail.imap] password_file): {}",
                path.display(),
                e.kind()
            )
        })?;
        return Ok(text.lines().next().unwrap_or_default().to_string());
    }
    bail!("[mail.imap] has no password: set password_env = \"PBEM_IMAP_PASSWORD\" (and export it) or password_file")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uid_set_names_exactly_the_uids_given() {
        assert_eq!(uid_set(&[1, 2, 3, 7]), "1:3,7");
        assert_eq!(uid_set(&[5]), "5");
        assert_eq!(uid_set(&[1, 3, 4, 9, 10, 11]), "1,3:4,9:11");
        assert_eq!(uid_set(&[]), "");
    }

    #[test]
    fn a_state_of_before_issue_34_keeps_its_unmarked_range_to_mark() {
        let text = "format = \"pbem-imap/v1\"\nmailbox = \"m\"\nuidvalidity = 7\nstored_uid = 5\nmarked_uid = 3\n";
        let old: FetchState = toml::from_str(text).unwrap();
        assert_eq!(old.marked_uid, Some(3));
        assert!(old.unmarked.is_empty() && old.missing.is_empty());
        // Written again, it has no marked_uid.
        assert!(!toml::to_string(&old).unwrap().contains("marked_uid"));
    }
}
