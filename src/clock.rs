//! The one place pbem reads the clock: to compare now with a turn's deadline (`turn`, `resolve`,
//! `extend`, `rollback`, `status`), to date a message as it is sent, and to give the next turn a
//! deadline with the game's least notice when a turn is resolved so late that the schedule's slot
//! would give less (`referee::turn`); that deadline is kept in the turn's record, which `audit`
//! replays, so nothing else read here reaches a file a turn writes. `PBEM_NOW` (RFC 3339, `2026-12-07T10:00:00Z`) sets the clock for tests and for
//! a referee who wants to see what a command would do at another moment.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};

/// Now, or the instant `PBEM_NOW` names.
pub fn now() -> Result<DateTime<Utc>> {
    match std::env::var("PBEM_NOW") {
        Ok(v) => DateTime::parse_from_rfc3339(v.trim())
            .map(|d| d.with_timezone(&Utc))
            .with_context(|| {
                format!("PBEM_NOW='{v}' is not an RFC 3339 instant such as 2026-12-07T10:00:00Z")
            }),
        Err(_) => Ok(Utc::now()),
    }
}
