//! The `[mail]` table of `game.toml`: how orders are read from mail (issue 4) and how the outbox is
//! delivered (issue 5). `game::config` re-exports [`MailConfig`]; [`validate`] is called from
//! `GameConfig::validate`, so every mistake here is located in `game.toml` with a hint.
//!
//! ```toml
//! [mail]
//! from = "Referee <referee@example.org>"
//! any_sender = false          # orders only from a power's own `players` addresses
//! max_text_bytes = 1000000    # longest body or attachment read for orders
//! received_by = ["mx.example.org"]  # the referee's own server, as it names itself in `Received`
//! transport = "smtp"          # "smtp", "sendmail" or "folder"
//!
//! [mail.smtp]
//! host = "smtp.example.org"
//! security = "starttls"       # "starttls" (port 587), "tls" (implicit, port 465) or "none" (loopback only)
//! user = "referee@example.org"
//! password_env = "PBEM_SMTP_PASSWORD"   # or password_file = "/home/ref/.config/pbem/smtp-password"
//!
//! [mail.imap]                 # `pbem fetch`, `pbem turn --imap` (issue 22)
//! host = "imap.example.org"   # implicit TLS, port 993
//! user = "referee@example.org"
//! password_env = "PBEM_IMAP_PASSWORD"   # or password_file
//! mailbox = "INBOX"
//! after = "seen"              # or "move:<folder>"
//! ```

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diag::Diagnostic;

/// The `[mail]` table of `game.toml`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MailConfig {
    /// The referee's address, the From of every message pbem sends: `"Referee <ref@example.org>"`.
    #[serde(default)]
    pub from: Option<String>,
    /// Issue 4.3: accept a power's orders from any address when its password is right. By default
    /// (false) the sender must also be one of the power's `players`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub any_sender: bool,
    /// Issue 4.7: the longest text (a body part or an attachment) read for orders, in bytes; longer
    /// ones are archived and not read. Default 1 MB.
    #[serde(default = "default_max_text_bytes")]
    pub max_text_bytes: u64,
    /// The longest message parsed at all, in bytes; a longer one is archived and not read. Default 32 MiB.
    #[serde(default = "default_max_message_bytes")]
    pub max_message_bytes: u64,
    /// Issue 34.7: the largest message pbem sends, in bytes (most mail servers refuse 10 to 25 MB).
    /// A report mail that would be larger leaves out what it may, in order (`mail::fit`). Default
    /// 10 MB.
    #[serde(
        default = "default_max_outgoing_bytes",
        skip_serializing_if = "is_default_max_outgoing_bytes"
    )]
    pub max_outgoing_bytes: u64,
    /// Issue 4.1: the host names of the referee's own mail server as it writes them after `by` in the
    /// `Received` headers it adds. The arrival time of a message is the date of the topmost
    /// `Received` header by one of these hosts (the topmost one of all when the list is empty): a
    /// sender can forge `Received` headers below it, never above it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub received_by: Vec<String>,
    /// Issue 5.2: how `pbem send` delivers the outbox: `"smtp"`, `"sendmail"` or `"folder"`.
    #[serde(default)]
    pub transport: Option<Spanned<String>>,
    #[serde(default)]
    pub smtp: Option<SmtpConfig>,
    #[serde(default)]
    pub sendmail: Option<SendmailConfig>,
    /// Issue 22: the IMAP mailbox `pbem fetch` reads.
    #[serde(default)]
    pub imap: Option<ImapConfig>,
    /// The folder for `transport = "folder"` (relative to the game folder): each message is written
    /// to `<folder>/<recipient>/<file>.eml`. For dry runs and tests.
    #[serde(default)]
    pub folder: Option<String>,
    /// Issue 5.3: how many times a transient failure (4xx reply, time-out, dropped connection) is
    /// retried, per recipient, before the message is left for the next run. Default 3. A refused
    /// connection is never retried: the run stops at once (issue 22.4).
    #[serde(default = "default_retries")]
    pub retries: u32,
    /// The first pause between two tries, doubled at each retry (at most 60 s). Default 2000 ms.
    #[serde(default = "default_retry_delay_ms")]
    pub retry_delay_ms: u64,
    /// Issue 22.2: the report mail shows the power's map as an inline PNG (every mail client shows
    /// one). Default true; `false` for a game of hundreds of powers, where drawing a PNG for each
    /// costs about 45 ms a power (issue 39, BENCHMARKS.md): the mail then carries the SVG alone.
    #[serde(
        default = "default_map_png",
        skip_serializing_if = "is_default_map_png"
    )]
    pub map_png: bool,
}

impl Default for MailConfig {
    fn default() -> Self {
        MailConfig {
            from: None,
            any_sender: false,
            max_text_bytes: default_max_text_bytes(),
            max_message_bytes: default_max_message_bytes(),
            max_outgoing_bytes: default_max_outgoing_bytes(),
            received_by: Vec::new(),
            transport: None,
            smtp: None,
            sendmail: None,
            imap: None,
            folder: None,
            retries: default_retries(),
            retry_delay_ms: default_retry_delay_ms(),
            map_png: default_map_png(),
        }
    }
}

/// `[mail.smtp]`: an SMTP submission server.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpConfig {
    pub host: String,
    /// Default: 587 for `starttls`, 465 for `tls`, 25 for `none`.
    #[serde(default)]
    pub port: Option<u16>,
    /// `"starttls"` (default), `"tls"` (implicit TLS) or `"none"` (plain text, loopback hosts only).
    #[serde(default = "default_security")]
    pub security: Spanned<String>,
    /// The login; with no user pbem does not authenticate.
    #[serde(default)]
    pub user: Option<String>,
    /// The environment variable that holds the SMTP password.
    #[serde(default)]
    pub password_env: Option<String>,
    /// A file that holds the SMTP password (its first line), relative to the game folder or absolute.
    #[serde(default)]
    pub password_file: Option<String>,
    /// Never allowed: read only to refuse it with a located error (the password is not kept in
    /// `game.toml`, which is shared and archived).
    #[serde(default, skip_serializing)]
    pub password: Option<Spanned<toml::Value>>,
    /// Seconds to wait for the server at each step. Default 30.
    #[serde(default = "default_timeout")]
    pub timeout_seconds: u64,
    /// The name pbem gives in EHLO (default: this machine's host name).
    #[serde(default)]
    pub hello_name: Option<String>,
    /// A PEM file of certificate authorities trusted besides the public ones (a server with its
    /// own CA), relative to the game folder or absolute. Verification is never turned off.
    #[serde(default)]
    pub ca_file: Option<String>,
}

impl SmtpConfig {
    /// The port, from the setting or the security mode.
    pub fn port(&self) -> u16 {
        self.port.unwrap_or(match self.security.get_ref().as_str() {
            "tls" => 465,
            "none" => 25,
            _ => 587,
        })
    }
}

/// `[mail.imap]`: the referee's IMAP mailbox, read over implicit TLS by `pbem fetch` (`mail::imap`).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ImapConfig {
    pub host: String,
    /// Default 993 (IMAP over TLS).
    #[serde(default = "default_imap_port")]
    pub port: u16,
    pub user: String,
    /// The folder read. Default `INBOX`.
    #[serde(default = "default_imap_mailbox")]
    pub mailbox: String,
    /// What is done to a message once stored: `"seen"` (flag it \Seen, the default) or
    /// `"move:<folder>"` (move it to that folder, which must exist).
    #[serde(default = "default_imap_after")]
    pub after: Spanned<String>,
    /// The environment variable that holds the IMAP password.
    #[serde(default)]
    pub password_env: Option<String>,
    /// A file that holds the IMAP password (its first line), relative to the game folder or absolute.
    #[serde(default)]
    pub password_file: Option<String>,
    /// Never allowed: read only to refuse it with a located error.
    #[serde(default, skip_serializing)]
    pub password: Option<Spanned<toml::Value>>,
    /// A PEM file of certificate authorities trusted besides the usual public ones (a server with
    /// its own CA), relative to the game folder or absolute. Verification is never turned off.
    #[serde(default)]
    pub ca_file: Option<String>,
    /// Seconds to wait for the server at each step. Default 30.
    #[serde(default = "default_timeout")]
    pub timeout_seconds: u64,
}

impl ImapConfig {
    /// The folder messages are moved to, for `after = "move:<folder>"`.
    pub fn move_to(&self) -> Option<&str> {
        self.after.get_ref().strip_prefix("move:")
    }
}

fn default_imap_port() -> u16 {
    993
}

fn default_imap_mailbox() -> String {
    "INBOX".to_string()
}

fn default_imap_after() -> Spanned<String> {
    Spanned::new(0..0, "seen".to_string())
}

/// `[mail.sendmail]`: a local sendmail-compatible program.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SendmailConfig {
    /// The program; default `sendmail` from the PATH.
    #[serde(default)]
    pub command: Option<String>,
}

fn default_map_png() -> bool {
    true
}

fn is_default_map_png(on: &bool) -> bool {
    *on == default_map_png()
}

fn default_max_text_bytes() -> u64 {
    1_000_000
}

fn default_max_message_bytes() -> u64 {
    32 * 1024 * 1024
}

/// The default `max_outgoing_bytes`: 10 MB, which most mail servers take.
pub const DEFAULT_OUTGOING_BYTES: u64 = 10_000_000;

fn default_max_outgoing_bytes() -> u64 {
    DEFAULT_OUTGOING_BYTES
}

fn is_default_max_outgoing_bytes(cap: &u64) -> bool {
    *cap == DEFAULT_OUTGOING_BYTES
}

/// The least `max_outgoing_bytes`: a report mail's headers, its note of what it left out and its
/// dice header alone take a few kilobytes.
pub const MIN_OUTGOING_BYTES: u64 = 10_000;

fn default_retries() -> u32 {
    3
}

fn default_retry_delay_ms() -> u64 {
    2000
}

fn default_timeout() -> u64 {
    30
}

fn default_security() -> Spanned<String> {
    Spanned::new(0..0, "starttls".to_string())
}

/// The transports `[mail] transport` may name.
pub const TRANSPORTS: [&str; 3] = ["smtp", "sendmail", "folder"];

/// Checks what serde cannot in `[mail]` and the powers' optional `time_zone` (each power's id and
/// time zone, from `GameConfig::validate`).
pub fn validate<'a>(
    mail: &MailConfig,
    time_zones: impl Iterator<Item = (&'a str, Option<&'a Spanned<String>>)>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some(t) = &mail.transport {
        let name = t.get_ref().as_str();
        if !TRANSPORTS.contains(&name) {
            out.push(
                Diagnostic::error(format!("unknown mail transport '{name}'"), t.span())
                    .hint("write \"smtp\", \"sendmail\" or \"folder\" (see MAIL.md)"),
            );
        } else if name == "smtp" && mail.smtp.is_none() {
            out.push(
                Diagnostic::error(
                    "transport = \"smtp\" but there is no [mail.smtp] table",
                    t.span(),
                )
                .hint("add [mail.smtp] with host, security and user (see MAIL.md)"),
            );
        } else if name == "folder" && mail.folder.is_none() {
            out.push(
                Diagnostic::error("transport = \"folder\" but there is no folder", t.span())
                    .hint("add folder = \"sent-mail\" to [mail]"),
            );
        }
    }
    if let Some(s) = &mail.smtp {
        if let Some(p) = &s.password {
            out.push(
                Diagnostic::error("the SMTP password must not be written in game.toml", p.span())
                    .label("remove this line")
                    .hint("name an environment variable (password_env = \"PBEM_SMTP_PASSWORD\") or a file (password_file = \"...\") that holds it"),
            );
        }
        let sec = &s.security;
        if !matches!(sec.get_ref().as_str(), "starttls" | "tls" | "none") {
            out.push(
                Diagnostic::error(format!("unknown SMTP security '{}'", sec.get_ref()), sec.span())
                    .hint("write \"starttls\" (port 587), \"tls\" (port 465) or \"none\" (a server on this machine only)"),
            );
        } else if sec.get_ref() == "none" && !is_loopback(&s.host) {
            out.push(
                Diagnostic::error(
                    format!("security = \"none\" would send mail and password in clear to {}", s.host),
                    sec.span(),
                )
                .hint("use \"starttls\" or \"tls\"; \"none\" is for a server on 127.0.0.1 or localhost"),
            );
        }
        if s.password_env.is_some() && s.password_file.is_some() {
            out.push(
                Diagnostic::error("both password_env and password_file are set", sec.span())
                    .hint("keep one of them"),
            );
        }
    }
    if let Some(i) = &mail.imap {
        if let Some(p) = &i.password {
            out.push(
                Diagnostic::error("the IMAP password must not be written in game.toml", p.span())
                    .label("remove this line")
                    .hint("name an environment variable (password_env = \"PBEM_IMAP_PASSWORD\") or a file (password_file = \"...\") that holds it"),
            );
        }
        let after = i.after.get_ref();
        if after != "seen" && i.move_to().is_none_or(|f| f.trim().is_empty()) {
            out.push(
                Diagnostic::error(format!("unknown IMAP after '{after}'"), i.after.span())
                    .hint("write \"seen\" (flag each message read) or \"move:<folder>\" (move it to a folder that exists)"),
            );
        }
        if i.password_env.is_some() && i.password_file.is_some() {
            out.push(
                Diagnostic::error(
                    "both password_env and password_file are set in [mail.imap]",
                    i.after.span(),
                )
                .hint("keep one of them"),
            );
        }
    }
    if mail.max_text_bytes == 0 {
        out.push(
            Diagnostic::error("max_text_bytes is 0: no orders could be read", 0..0)
                .hint("remove the key for the default of 1000000"),
        );
    }
    if mail.max_outgoing_bytes < MIN_OUTGOING_BYTES {
        out.push(
            Diagnostic::error(
                format!(
                    "max_outgoing_bytes is {}: no report mail fits in under {MIN_OUTGOING_BYTES} bytes",
                    mail.max_outgoing_bytes
                ),
                0..0,
            )
            .hint("remove the key for the default of 10000000 (10 MB), which most mail servers take"),
        );
    }
    for (power, tz) in time_zones {
        if let Some(tz) = tz {
            if tz.get_ref().parse::<chrono_tz::Tz>().is_err() {
                out.push(
                    Diagnostic::error(
                        format!("unknown time zone '{}' for {power}", tz.get_ref()),
                        tz.span(),
                    )
                    .label("not an IANA time zone")
                    .hint("write a name such as \"America/New_York\" or \"Europe/London\""),
                );
            }
        }
    }
    out
}

/// Whether `host` names this machine.
pub fn is_loopback(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost")
        || h.parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}
