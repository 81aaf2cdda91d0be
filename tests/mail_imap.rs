//! Issue 22: `pbem fetch` and `pbem turn --imap` against a real IMAP server on 127.0.0.1: Dovecot
//! (Debian's `dovecot-imapd`), started here with its own configuration in a temporary folder, a
//! self-signed certificate made by the openssl CLI (trusted through `[mail.imap] ca_file`), a
//! passwd-file user and messages delivered into its Maildir.
//!
//! The tests fail when Dovecot or openssl is missing and `CI` or `PBEM_REQUIRE_IMAP_TESTS` is set
//! (`.ci/run` installs Dovecot and sets the latter); elsewhere they print a loud SKIPPED line.

use crate::support;

use std::fs;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::Duration;

use support::*;

const USER: &str = "referee";
const PASSWORD: &str = "imap-secret-22";

/// A Dovecot serving IMAP over TLS on 127.0.0.1, killed when dropped.
struct Dovecot {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
    /// The user the server delivers mail as (the Maildir's owner).
    owner: Option<(u32, u32)>,
    delivered: u32,
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn unavailable(why: &str) -> Option<Dovecot> {
    if std::env::var_os("CI").is_some() || std::env::var_os("PBEM_REQUIRE_IMAP_TESTS").is_some() {
        panic!("the IMAP tests need Dovecot and openssl ({why}); .ci/run installs them (apt-get install dovecot-imapd)");
    }
    eprintln!(
        "SKIPPED: the IMAP tests need Dovecot and openssl ({why}); install them with: apt-get install dovecot-imapd openssl"
    );
    None
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The uid and gid of a system user, from /etc/passwd.
fn system_user(name: &str) -> Option<(u32, u32)> {
    let text = fs::read_to_string("/etc/passwd").ok()?;
    text.lines().find_map(|l| {
        let f: Vec<&str> = l.split(':').collect();
        if f.len() > 3 && f[0] == name {
            Some((f[2].parse().ok()?, f[3].parse().ok()?))
        } else {
            None
        }
    })
}

impl Dovecot {
    /// Starts Dovecot with the folders `extra` besides INBOX; None (after saying why) when it is
    /// missing outside CI.
    fn start(extra: &[&str]) -> Option<Dovecot> {
        let binary = ["/usr/sbin/dovecot", "/usr/local/sbin/dovecot"]
            .into_iter()
            .find(|p| Path::new(p).is_file());
        let Some(binary) = binary else {
            return unavailable("no /usr/sbin/dovecot");
        };
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        // A certificate authority of the test's own, and the server's certificate signed by it.
        if !support::certs::make(d) {
            return unavailable("openssl could not make the test certificates");
        }
        fs::write(d.join("passwd"), format!("{USER}:{{PLAIN}}{PASSWORD}\n")).unwrap();
        let maildir = d.join("mail").join(USER);
        for sub in ["new", "cur", "tmp"] {
            fs::create_dir_all(maildir.join(sub)).unwrap();
        }
        for f in extra {
            for sub in ["new", "cur", "tmp"] {
                fs::create_dir_all(maildir.join(format!(".{f}")).join(sub)).unwrap();
            }
        }
        // As root, Dovecot runs its processes and reads the mail as its own system users; as
        // anyone else, as that user.
        let root = unsafe { libc::geteuid() } == 0;
        let (internal, login, owner) = if root {
            let Some(owner) = system_user("dovecot") else {
                return unavailable("no system user dovecot");
            };
            ("dovecot".to_string(), "dovenull".to_string(), Some(owner))
        } else {
            let me = std::env::var("USER").unwrap_or_else(|_| "nobody".into());
            (me.clone(), me, None)
        };
        let (uid, gid) = owner.unwrap_or_else(|| unsafe { (libc::geteuid(), libc::getegid()) });
        let port = free_port();
        let p = d.display();
        let conf = format!(
            "base_dir = {p}/run\nstate_dir = {p}/state\nlog_path = {p}/dovecot.log\n\
             protocols = imap\nlisten = 127.0.0.1\nssl = required\n\
             ssl_cert = <{p}/cert.pem\nssl_key = <{p}/key.pem\n\
             default_internal_user = {internal}\ndefault_internal_group = {internal}\n\
             default_login_user = {login}\nfirst_valid_uid = 0\n\
             mail_location = maildir:{p}/mail/%u\n\
             passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u {p}/passwd\n}}\n\
             userdb {{\n  driver = static\n  args = uid={uid} gid={gid} home={p}/home/%u\n}}\n\
             service imap-login {{\n  inet_listener imap {{\n    port = 0\n  }}\n  \
             inet_listener imaps {{\n    port = {port}\n    ssl = yes\n  }}\n}}\n"
        );
        fs::write(d.join("dovecot.conf"), conf).unwrap();
        if root {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(d, fs::Permissions::from_mode(0o755)).unwrap();
            chown_all(&d.join("mail"), uid, gid);
        }
        let child = Process::new(binary)
            .arg("-F")
            .arg("-c")
            .arg(d.join("dovecot.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match child {
            Ok(c) => c,
            Err(e) => return unavailable(&format!("dovecot cannot be started: {e}")),
        };
        let server = Dovecot {
            child,
            port,
            dir,
            owner,
            delivered: 0,
        };
        for _ in 0..200 {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Some(server);
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        let log = fs::read_to_string(server.dir.path().join("dovecot.log")).unwrap_or_default();
        panic!("dovecot did not listen on 127.0.0.1:{port}; its log:\n{log}");
    }

    fn maildir(&self) -> PathBuf {
        self.dir.path().join("mail").join(USER)
    }

    /// Delivers a message into INBOX, as a local delivery agent would.
    fn deliver(&mut self, bytes: &str) {
        self.delivered += 1;
        let path = self
            .maildir()
            .join("new")
            .join(format!("1764900000.M{}P1.test", self.delivered));
        fs::write(&path, bytes).unwrap();
        if let Some((u, g)) = self.owner {
            chown_all(&path, u, g);
        }
    }

    /// The messages in a folder ("" for INBOX), counted in its Maildir.
    fn count(&self, folder: &str) -> usize {
        let base = if folder.is_empty() {
            self.maildir()
        } else {
            self.maildir().join(format!(".{folder}"))
        };
        ["new", "cur"]
            .iter()
            .map(|s| fs::read_dir(base.join(s)).map_or(0, |d| d.count()))
            .sum()
    }

    /// How many messages of INBOX carry the Seen flag (`:2,S` in their Maildir name).
    fn seen(&self) -> usize {
        fs::read_dir(self.maildir().join("cur")).map_or(0, |d| {
            d.filter(|e| {
                let n = e.as_ref().unwrap().file_name();
                n.to_string_lossy()
                    .rsplit_once(":2,")
                    .is_some_and(|(_, f)| f.contains('S'))
            })
            .count()
        })
    }

    fn ca(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }
}

fn chown_all(path: &Path, uid: u32, gid: u32) {
    let c = std::ffi::CString::new(path.as_os_str().to_string_lossy().as_bytes()).unwrap();
    unsafe { libc::chown(c.as_ptr(), uid, gid) };
    if path.is_dir() {
        for e in fs::read_dir(path).unwrap() {
            chown_all(&e.unwrap().path(), uid, gid);
        }
    }
}

/// The `[mail.imap]` table for a server on `port`.
fn imap_table(server: &Dovecot, port: u16, after: &str) -> String {
    format!(
        "[mail.imap]\nhost = \"127.0.0.1\"\nport = {port}\nuser = \"{USER}\"\n\
         password_env = \"PBEM_TEST_IMAP_PASSWORD\"\nafter = \"{after}\"\nca_file = \"{}\"\n",
        server.ca().display()
    )
}

fn fetch(game: &Path) -> assert_cmd::assert::Assert {
    pbem()
        .arg("fetch")
        .arg(game)
        .env("PBEM_TEST_IMAP_PASSWORD", PASSWORD)
        .assert()
}

/// France's orders, one message, with a Message-ID of its own.
fn orders(n: u32) -> String {
    eml(
        "france@example.org",
        &format!("Sat, 5 Dec 2026 10:{:02}:{:02} +0100", n / 60, n % 60),
        &format!("orders-{n}@example.org"),
        &format!("{}attack Ulm\n", header("france", FRANCE_PW, 1)),
    )
}

/// The SHA-256 of every message stored in the game's raw archive.
fn inbox(game: &Path) -> Vec<String> {
    pbem::mail::ingest_store::RawStore::open(&load(game))
        .unwrap()
        .iter()
        .map(|(sha, _)| sha.clone())
        .collect()
}

/// How many messages have a record.
fn received(game: &Path) -> usize {
    pbem::mail::ingest::load_records(&load(game)).unwrap().len()
}

#[test]
fn fetch_stores_every_new_message_privately_then_ingests_it_and_flags_it_seen() {
    let Some(mut server) = Dovecot::start(&[]) else {
        return;
    };
    let (_t, game) = game();
    add_to_config(&game, &imap_table(&server, server.port, "seen"));
    server.deliver(&orders(1));
    server.deliver("From: stranger@example.net\r\nSubject: hello\r\n\r\nno orders here\r\n");
    let out = fetch(&game).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("Fetched 2 new message(s)"), "{text}");
    assert!(text.contains("accepted  france"), "{text}");
    assert!(
        text.contains("imap://referee@127.0.0.1/INBOX;UIDVALIDITY="),
        "{text}"
    );
    assert_eq!(inbox(&game).len(), 2);
    assert_eq!(received(&game), 2);
    #[cfg(unix)]
    for e in fs::read_dir(game.join("mail/inbox")).unwrap() {
        use std::os::unix::fs::PermissionsExt;
        let mode = e.unwrap().metadata().unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let filed = fs::read_to_string(game.join("orders/1/france.txt")).unwrap();
    assert!(filed.contains("attack Ulm"), "{filed}");
    assert!(!filed.contains(FRANCE_PW));
    // Both flagged \Seen, both still in INBOX.
    assert_eq!(server.count(""), 2);
    assert_eq!(server.seen(), 2);
    // The password is never printed.
    assert!(!text.contains(PASSWORD));
}

#[test]
fn a_rerun_fetches_nothing_twice_and_then_only_what_is_new() {
    let Some(mut server) = Dovecot::start(&[]) else {
        return;
    };
    let (_t, game) = game();
    add_to_config(&game, &imap_table(&server, server.port, "seen"));
    for n in 1..=3 {
        server.deliver(&orders(n));
    }
    fetch(&game).success();
    let state = fs::read_to_string(game.join("mail/imap-state.toml")).unwrap();
    assert!(state.contains("stored_uid = 3"), "{state}");
    assert!(state.contains("unmarked = []"), "{state}");
    let before = tree(&game);
    // Nothing new: nothing fetched, not a byte of the game changed.
    let out = fetch(&game).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("Fetched 0 new message(s)"), "{text}");
    assert_eq!(tree(&game), before);
    // One new message: only it is fetched.
    server.deliver(&orders(4));
    let out = fetch(&game).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("Fetched 1 new message(s)"), "{text}");
    assert_eq!(inbox(&game).len(), 4);
    assert_eq!(received(&game), 4);
}

#[test]
fn after_move_moves_each_stored_message_to_the_folder() {
    let Some(mut server) = Dovecot::start(&["pbem-done"]) else {
        return;
    };
    let (_t, game) = game();
    add_to_config(&game, &imap_table(&server, server.port, "move:pbem-done"));
    for n in 1..=3 {
        server.deliver(&orders(n));
    }
    fetch(&game).success();
    assert_eq!(server.count(""), 0);
    assert_eq!(server.count("pbem-done"), 3);
    assert_eq!(received(&game), 3);
    server.deliver(&orders(4));
    let out = fetch(&game).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("Fetched 1 new message(s)"), "{text}");
    assert_eq!(server.count("pbem-done"), 4);
    assert_eq!(inbox(&game).len(), 4);
}

/// A TCP relay to `target` that cuts its first connection once it has passed `limit` bytes from the
/// server (as a network that fails mid-fetch), and relays every later one whole.
fn cutting_relay(target: u16, limit: usize) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut limit = limit;
        for client in listener.incoming() {
            let Ok(client) = client else {
                return;
            };
            let server = TcpStream::connect(("127.0.0.1", target)).unwrap();
            let (mut c_in, mut s_out) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut c_in, &mut s_out);
                let _ = s_out.shutdown(std::net::Shutdown::Write);
            });
            let (mut s_in, mut c_out) = (server, client);
            let cut = limit;
            limit = usize::MAX;
            std::thread::spawn(move || {
                let mut passed = 0;
                let mut buf = [0u8; 4096];
                while passed < cut {
                    match s_in.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            let n = n.min(cut - passed);
                            if c_out.write_all(&buf[..n]).is_err() {
                                break;
                            }
                            passed += n;
                        }
                    }
                }
                let _ = c_out.shutdown(std::net::Shutdown::Both);
                let _ = s_in.shutdown(std::net::Shutdown::Both);
            });
        }
    });
    port
}

#[test]
fn a_connection_dropped_mid_fetch_loses_nothing_and_a_rerun_duplicates_nothing() {
    let Some(mut server) = Dovecot::start(&[]) else {
        return;
    };
    let (_t, game) = game();
    // 50 messages of about 4 kB: the connection is cut within the second batch of 20.
    let pad = "x".repeat(72);
    for n in 1..=50 {
        let mut m = orders(n);
        for _ in 0..50 {
            m.push_str(&format!("# {pad}\r\n"));
        }
        server.deliver(&m);
    }
    let relay = cutting_relay(server.port, 120_000);
    add_to_config(&game, &imap_table(&server, relay, "seen"));
    let out = fetch(&game).failure().code(1);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("run `pbem fetch` again"), "{err}");
    let first = inbox(&game).len();
    assert!((20..50).contains(&first), "{first} stored before the cut");
    // What was stored was judged, and is flagged on the next run, not before.
    assert_eq!(received(&game), first);
    assert_eq!(server.seen(), 0);
    let state = fs::read_to_string(game.join("mail/imap-state.toml")).unwrap();
    assert!(!state.contains("unmarked = []"), "{state}");
    // The rerun (the network is back): the rest, once.
    let out = fetch(&game).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        text.contains(&format!("Fetched {} new message(s)", 50 - first)),
        "{text}"
    );
    assert_eq!(inbox(&game).len(), 50, "{text}");
    assert_eq!(received(&game), 50, "{text}");
    assert_eq!(server.seen(), 50);
    assert!(text.contains(&format!("({} marked", 50)), "{text}");
    // And again: nothing.
    let out = fetch(&game).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("Fetched 0 new message(s)"), "{text}");
}

#[test]
fn turn_imap_fetches_then_resolves() {
    let Some(mut server) = Dovecot::start(&[]) else {
        return;
    };
    let (_t, game) = game();
    add_to_config(&game, &imap_table(&server, server.port, "seen"));
    server.deliver(&orders(1));
    let out = pbem()
        .args(["turn", "--no-send", "--imap"])
        .arg(&game)
        .env("PBEM_TEST_IMAP_PASSWORD", PASSWORD)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("Fetched 1 new message(s)"), "{text}");
    assert!(game.join("turns/1/record.toml").is_file(), "{text}");
}

#[test]
fn a_server_whose_certificate_is_not_trusted_is_refused() {
    let Some(mut server) = Dovecot::start(&[]) else {
        return;
    };
    let (_t, game) = game();
    let table = imap_table(&server, server.port, "seen");
    let table: String = table
        .lines()
        .filter(|l| !l.starts_with("ca_file"))
        .map(|l| format!("{l}\n"))
        .collect();
    add_to_config(&game, &table);
    server.deliver(&orders(1));
    let out = fetch(&game).failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("TLS handshake failed"), "{err}");
    assert!(inbox(&game).is_empty());
    assert_eq!(server.seen(), 0);
}

#[test]
fn an_imap_password_in_game_toml_is_refused() {
    let (_t, game) = game();
    add_to_config(
        &game,
        "[mail.imap]\nhost = \"imap.example.org\"\nuser = \"r\"\npassword = \"hunter2\"\n",
    );
    let out = pbem().arg("fetch").arg(&game).assert().failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("the IMAP password must not be written in game.toml"),
        "{err}"
    );
    assert!(!err.contains("hunter2"), "{err}");
}

#[test]
fn an_unknown_after_in_mail_imap_is_a_located_error() {
    let (_t, game) = game();
    add_to_config(
        &game,
        "[mail.imap]\nhost = \"imap.example.org\"\nuser = \"r\"\npassword_env = \"X\"\nafter = \"delete\"\n",
    );
    let out = pbem().arg("fetch").arg(&game).assert().failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("unknown IMAP after 'delete'"), "{err}");
    assert!(err.contains("game.toml"), "{err}");
}

#[test]
fn a_crash_after_the_store_and_before_the_state_is_written_loses_nothing_and_stores_each_once() {
    let Some(mut server) = Dovecot::start(&[]) else {
        return;
    };
    let (_t, game) = game();
    add_to_config(&game, &imap_table(&server, server.port, "seen"));
    for n in 1..=5 {
        server.deliver(&orders(n));
    }
    // pbem dies after the messages are in the archive and before it records how far it read.
    pbem()
        .arg("fetch")
        .arg(&game)
        .env("PBEM_TEST_IMAP_PASSWORD", PASSWORD)
        .env("PBEM_CRASH_BEFORE", "imap-state.toml")
        .assert()
        .failure();
    assert_eq!(inbox(&game).len(), 5);
    assert_eq!(received(&game), 0);
    assert_eq!(server.seen(), 0);
    // The rerun fetches them again (the server still has them unmarked), keeps each once, judges
    // each once and flags them.
    let out = fetch(&game).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert_eq!(inbox(&game).len(), 5, "{text}");
    assert_eq!(received(&game), 5, "{text}");
    assert_eq!(server.seen(), 5);
}

/// A scripted IMAP server over TLS on 127.0.0.1 (issue 34): it holds messages by UID, leaves the
/// UIDs of `dropped` out of its FETCH answers on the first `drop_for` connections (as a server
/// with a damaged message file does), and records every UID STORE and UID MOVE set it is sent.
struct FakeImap {
    port: u16,
    dir: tempfile::TempDir,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl FakeImap {
    fn start(messages: Vec<(u32, String)>, dropped: Vec<u32>, drop_for: usize) -> Option<FakeImap> {
        use std::sync::{Arc, Mutex};
        let dir = tempfile::tempdir().unwrap();
        if !support::certs::make(dir.path()) {
            if std::env::var_os("CI").is_some()
                || std::env::var_os("PBEM_REQUIRE_IMAP_TESTS").is_some()
            {
                panic!("the fake IMAP server needs the openssl CLI for its certificate");
            }
            eprintln!("SKIPPED: the fake IMAP server needs the openssl CLI for its certificate");
            return None;
        }
        use rustls_pki_types::pem::PemObject;
        let certs = rustls_pki_types::CertificateDer::pem_file_iter(dir.path().join("cert.pem"))
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        let key =
            rustls_pki_types::PrivateKeyDer::from_pem_file(dir.path().join("key.pem")).unwrap();
        let config = Arc::new(
            rustls::ServerConfig::builder_with_provider(Arc::new(
                rustls::crypto::ring::default_provider(),
            ))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap(),
        );
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let seen = log.clone();
        std::thread::spawn(move || {
            for (n, tcp) in listener.incoming().enumerate() {
                let Ok(tcp) = tcp else { return };
                let conn = rustls::ServerConnection::new(config.clone()).unwrap();
                let mut tls = rustls::StreamOwned::new(conn, tcp);
                let dropped: &[u32] = if n < drop_for { &dropped } else { &[] };
                let _ = serve(&mut tls, &messages, dropped, &seen);
            }
        });
        Some(FakeImap { port, dir, log })
    }

    fn table(&self) -> String {
        format!(
            "[mail.imap]\nhost = \"127.0.0.1\"\nport = {}\nuser = \"{USER}\"\n\
             password_env = \"PBEM_TEST_IMAP_PASSWORD\"\nafter = \"seen\"\nca_file = \"{}\"\n",
            self.port,
            self.dir.path().join("ca.pem").display()
        )
    }

    fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

/// The UIDs of `uids` an IMAP sequence set names (`1:3,7`, `4:*`).
fn in_set(set: &str, uids: &[u32]) -> Vec<u32> {
    let max = uids.iter().copied().max().unwrap_or(0);
    let num = |t: &str| if t == "*" { max } else { t.parse().unwrap() };
    uids.iter()
        .copied()
        .filter(|u| {
            set.split(',').any(|part| match part.split_once(':') {
                Some((a, b)) => {
                    let (a, b) = (num(a), num(b));
                    (a.min(b)..=a.max(b)).contains(u)
                }
                None => num(part) == *u,
            })
        })
        .collect()
}

/// Answers one IMAP conversation until LOGOUT or the end of the connection.
fn serve(
    tls: &mut (impl Read + Write),
    messages: &[(u32, String)],
    dropped: &[u32],
    log: &std::sync::Mutex<Vec<String>>,
) -> std::io::Result<()> {
    let uids: Vec<u32> = messages.iter().map(|m| m.0).collect();
    tls.write_all(b"* OK [CAPABILITY IMAP4rev1 MOVE] fake ready\r\n")?;
    loop {
        let mut line = Vec::new();
        let mut byte = [0u8];
        while !line.ends_with(b"\r\n") {
            if tls.read(&mut byte)? == 0 {
                return Ok(());
            }
            line.push(byte[0]);
        }
        let line = String::from_utf8_lossy(&line).trim_end().to_string();
        let (tag, rest) = line.split_once(' ').unwrap_or((&line, ""));
        let words: Vec<&str> = rest.split(' ').collect();
        let verb = words[0].to_ascii_uppercase();
        let mut out = String::new();
        match verb.as_str() {
            "CAPABILITY" => out += "* CAPABILITY IMAP4rev1 MOVE\r\n",
            "SELECT" | "EXAMINE" => {
                out += &format!(
                    "* {} EXISTS\r\n* OK [UIDVALIDITY 7] ok\r\n* OK [UIDNEXT {}] ok\r\n",
                    uids.len(),
                    uids.iter().max().unwrap_or(&0) + 1
                )
            }
            "UID" => {
                let sub = words[1].to_ascii_uppercase();
                match sub.as_str() {
                    "SEARCH" => {
                        let found = in_set(words[3], &uids);
                        out += "* SEARCH";
                        for u in found {
                            out += &format!(" {u}");
                        }
                        out += "\r\n";
                    }
                    "FETCH" => {
                        for u in in_set(words[2], &uids) {
                            if dropped.contains(&u) {
                                continue;
                            }
                            let seq = uids.iter().position(|x| *x == u).unwrap() + 1;
                            let body = &messages[seq - 1].1;
                            out += &format!(
                                "* {seq} FETCH (UID {u} INTERNALDATE \"05-Dec-2026 10:00:00 +0000\" BODY[] {{{}}}\r\n{body})\r\n",
                                body.len()
                            );
                        }
                    }
                    "STORE" | "MOVE" => {
                        log.lock().unwrap().push(format!("{sub} {}", words[2]));
                    }
                    _ => {}
                }
            }
            "LOGOUT" => {
                tls.write_all(format!("* BYE\r\n{tag} OK bye\r\n").as_bytes())?;
                return tls.flush();
            }
            _ => {}
        }
        out += &format!("{tag} OK done\r\n");
        tls.write_all(out.as_bytes())?;
        tls.flush()?;
    }
}

#[test]
fn a_message_the_server_lists_but_does_not_send_is_neither_marked_nor_lost() {
    let messages: Vec<(u32, String)> = (1..=3).map(|n| (n, orders(n))).collect();
    // The first run's FETCH answers leave UID 3 out; the second run's hold it.
    let Some(server) = FakeImap::start(messages, vec![3], 1) else {
        return;
    };
    let (_t, game) = game();
    add_to_config(&game, &server.table());
    let out = fetch(&game).failure().code(1);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("did not send (UID 3)"), "{err}");
    assert_eq!(inbox(&game).len(), 2);
    assert_eq!(received(&game), 2);
    // Exactly the UIDs kept are flagged: never 3.
    assert_eq!(server.log(), vec!["STORE 1:2".to_string()]);
    let state = fs::read_to_string(game.join("mail/imap-state.toml")).unwrap();
    assert!(state.contains("missing = [3]"), "{state}");
    // The next run asks for UID 3 again, keeps it, judges it and only then flags it.
    let out = fetch(&game).success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("Fetched 1 new message(s)"), "{text}");
    assert_eq!(inbox(&game).len(), 3);
    assert_eq!(received(&game), 3);
    assert_eq!(
        server.log(),
        vec!["STORE 1:2".to_string(), "STORE 3".to_string()]
    );
    let state = fs::read_to_string(game.join("mail/imap-state.toml")).unwrap();
    assert!(state.contains("missing = []"), "{state}");
}

#[test]
fn turn_imap_does_not_resolve_while_a_listed_message_was_not_sent() {
    let messages: Vec<(u32, String)> = (1..=2).map(|n| (n, orders(n))).collect();
    let Some(server) = FakeImap::start(messages, vec![2], usize::MAX) else {
        return;
    };
    let (_t, game) = game();
    add_to_config(&game, &server.table());
    let out = pbem()
        .args(["turn", "--no-send", "--early", "--imap"])
        .arg(&game)
        .env("PBEM_TEST_IMAP_PASSWORD", PASSWORD)
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.contains("did not send (UID 2)"), "{err}");
    assert!(err.contains("the turn is not resolved"), "{err}");
    assert!(!game.join("turns/1/record.toml").exists());
    assert_eq!(server.log(), vec!["STORE 1".to_string()]);
}
