//! Issue 22: `pbem send` over the two TLS paths of lettre, against a real SMTP server on 127.0.0.1
//! (tests/support/smtp_server.py, aiosmtpd) with a certificate signed by a CA made here by the openssl
//! CLI and trusted through `[mail.smtp] ca_file`: STARTTLS (required by the server before MAIL) and
//! implicit TLS; and a certificate pbem cannot verify stops the run before anything is sent.
//!
//! A missing python3, aiosmtpd or openssl fails these tests (`tests/support/smtp.rs`).

mod support;

use std::path::Path;
use std::process::{Command as Process, Stdio};

use support::smtp::Smtp;
use support::*;

/// A CA (`ca.pem`) and a server certificate for 127.0.0.1 signed by it (`cert.pem`, `key.pem`) in `d`.
fn certificates(d: &Path) {
    std::fs::write(
        d.join("ext.cnf"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    let steps: [&[&str]; 3] = [
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=pbem test CA",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
        ],
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-subj",
            "/CN=localhost",
            "-keyout",
            "key.pem",
            "-out",
            "server.csr",
        ],
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "ext.cnf",
            "-out",
            "cert.pem",
        ],
    ];
    for args in steps {
        let made = Process::new("openssl")
            .args(args)
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        assert!(
            made.is_ok_and(|s| s.success()),
            "these tests need the openssl CLI (apt-get install openssl)"
        );
    }
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
