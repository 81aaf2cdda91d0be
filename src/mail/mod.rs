//! Mail: orders in by e-mail (issue 4) and every message out through the outbox (issue 5).
//!
//! ```text
//! mailbox (.eml, mbox, Maildir) --ingest--> mail/inbox/<sha256>.eml      the raw message, stored first
//!                                           mail/received/<sha256>.toml  what pbem made of it
//!                                           orders/<t>/<power>.txt       the submission that counts
//!                                           mail/outbox/*.eml            an acknowledgement per submission
//! mail/outbox/*.eml --send--> SMTP, sendmail or a folder; mail/sent/<file>.toml records each delivery
//! ```
//!
//! `parse` is the only file that uses mail-parser; `html` and `extract` find the orders in what mail
//! clients write; `ingest` authenticates and files them; `ack` renders the answers; `outbox` renders
//! every outgoing message; `send` delivers them once.

pub mod ack;
pub mod config;
pub mod extract;
pub mod html;
pub mod ingest;
pub mod mailbox;
pub mod outbox;
pub mod parse;
pub mod send;
pub mod status;
