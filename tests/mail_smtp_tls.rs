//! Issue 22: `pbem send` over the two TLS paths of lettre, against a real SMTP server on 127.0.0.1
//! (tests/support/smtp_server.py, aiosmtpd) with a certificate signed by a CA made here by the openssl
//! CLI and trusted through `[mail.smtp] ca_file`: STARTTLS (required by the server before MAIL) and
//! implicit TLS; and a certificate pbem cannot verify stops the run before anything is sent.
//!
//! A missing python3, aiosmtpd or openssl fails these tests (`tests/support/smtp.rs`).

use crate::support;

use std::path::Path;

use support::smtp::Smtp;
use support::*;

/// A CA and a server certificate for 127.0.0.1 (`tests/support/certs.rs`) in `d`.
fn certificates(d: &Path) {
    assert!(
        support::certs::make(d),
        "these tests need the openssl CLI (apt-get install openssl)"
    );
}

/// The demo game's outbox sent to a TLS server in `mode` ("starttls" or "implicit"); with `trust`,
/// game.toml names the test CA. (the folder, the server, the exit code, the output, the messages
/// that were waiting).
fn send_over(mode: &str, trust: bool) -> (tempfile::TempDir, Smtp, i32, String, usize) {
    let (tmp, game) = demo();
    certificates(tmp.path());
    let d = tmp.path();
    let (cert, key) = (d.join("cert.pem"), d.join("key.pem"));
    let (cert, key) = (cert.to_string_lossy(), key.to_string_lossy());
    let flags = ["--tls", mode, "--cert", &cert, "--key", &key];
    let server = Smtp::start_with(&d.join("server"), 120, &flags);
    let security = if mode == "implicit" {
        "tls"
    } else {
        "starttls"
    };
    let ca = if trust {
        format!("ca_file = \"{}\"\n", d.join("ca.pem").display())
    } else {
        String::new()
    };
    add_to_config(
        &game,
        &format!(
            "[mail]\nfrom = \"Referee <referee@referee.example>\"\ntransport = \"smtp\"\nretries = 0\n\n\
             [mail.smtp]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"{security}\"\ntimeout_seconds = 10\n{ca}",
            server.port
        ),
    );
    let waiting = outbox(&game).len();
    let out = pbem().arg("send").arg(&game).output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (tmp, server, out.status.code().unwrap_or(-1), text, waiting)
}

#[test]
fn send_over_starttls_delivers_the_outbox_to_a_server_with_its_own_ca() {
    let (_t, server, code, text, waiting) = send_over("starttls", true);
    assert_eq!(code, 0, "{text}");
    assert!(waiting > 0);
    // Each message once per recipient: at least one transaction per message.
    assert!(server.received().len() >= waiting, "{text}");
}

#[test]
fn send_over_implicit_tls_delivers_the_outbox_to_a_server_with_its_own_ca() {
    let (_t, server, code, text, waiting) = send_over("implicit", true);
    assert_eq!(code, 0, "{text}");
    assert!(waiting > 0);
    assert!(server.received().len() >= waiting, "{text}");
}

#[test]
fn a_server_certificate_pbem_cannot_verify_stops_send_before_anything_is_sent() {
    for mode in ["starttls", "implicit"] {
        let (_t, server, code, text, _) = send_over(mode, false);
        assert_ne!(code, 0, "{mode}: {text}");
        assert!(server.received().is_empty(), "{mode}: {text}");
    }
}
