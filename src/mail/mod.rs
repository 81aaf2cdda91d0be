//! Mail: orders in by e-mail (issue 4) and every message out through the outbox (issue 5).
//!
//! ```text
//! mailbox (.eml, mbox, Maildir) --ingest--> mail/inbox/batch-<sha256>.raw       the raw messages of a run, stored first
//!                                           mail/received/batch-<sha256>.toml  what pbem made of each
//!                                           mail/received/<sha256>.toml        the record of a filed submission
//!                                           orders/<t>/<power>.txt       the submission that counts
//!                                           mail/outbox/batch-<sha256>.raw  an acknowledgement per submission
//! mail/outbox/ --send--> SMTP, sendmail or a folder; mail/sent/<message>.toml records each delivery
//! ```
//!
//! - `config`: the `[mail]` table of game.toml and its checks.
//! - `mailbox`: reads .eml files, mbox files and Maildir folders, read-only, with delivery times.
//! - `mbox`: splits an mbox file into messages, spilling one over the size limit to a temporary file.
//! - `parse`: the only file that uses mail-parser; raw bytes to plain owned values.
//! - `html`, `extract`: find the orders in what mail clients write; `forward` those of a message
//!   forwarded in the body.
//! - `imap`: `pbem fetch`, new messages from an IMAP mailbox over TLS into the archive, then ingested.
//! - `ingest`: stores, authenticates, orders by arrival, files the submission that counts.
//! - `ingest_store`: the raw archive and the records of each ingest run, one file each, and the
//!   readers that find every message and record (those of older pbem versions, one file each, too).
//! - `farewell`: the mail of a drop: a notice to the player who left, his unsent "accepted" answers
//!   withdrawn.
//! - `late`: `pbem accept-late`, the referee's decision to let a late submission stand (an act).
//! - `ack`: the acknowledgement of every submission and the reminders (templates/ack.txt.j2,
//!   templates/reminder.txt.j2).
//! - `status`: where each power's orders stand; `pbem remind`.
//! - `fit`: a report mail over `[mail] max_outgoing_bytes` cut to size, with a note of what it left out.
//! - `outbox`: every outgoing message rendered as a deterministic .eml file.
//! - `outbox_store`: the outbox's messages, each `.eml` file and each answer of an ingest run's batch.
//! - `quoted`: quoted-printable of an attachment's bytes, fast, as the `quoted_printable` crate writes it.
//! - `send`: delivers the outbox once, with a ledger, retries and per-recipient failures.
//! - `receipt`: after `pbem rollback` or `pbem rekey`, a fresh receipt to every player whose orders
//!   still stand, naming the turn's new dice commitment.
//! - `welcome`: a player's welcome (`pbem new`, `pbem replace`): his password, once, where his power
//!   stands in text and JSON, the order guide, the orders form; its password masked once delivered.
//!
//! MAIL.md is the referee's guide to all of it.

pub mod ack;
pub mod envelope;
pub mod extract;
pub mod farewell;
pub mod fit;
pub mod forward;
pub mod html;
pub mod imap;
pub mod ingest;
pub mod ingest_store;
pub mod late;
pub mod mailbox;
pub mod mbox;
pub mod outbox;
pub mod outbox_store;
pub mod parse;
pub mod quoted;
pub mod receipt;
pub mod send;
pub mod status;
pub mod welcome;
