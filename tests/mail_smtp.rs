//! Issue 5: a whole turn's outbox delivered through a real SMTP server on 127.0.0.1
//! (tests/support/smtp_server.py, aiosmtpd): every message arrives once, byte for byte, to the right
//! recipients; a dropped connection and a 550 for one recipient are survived by a rerun that sends the
//! rest and nothing twice; the SMTP password comes from the environment and is never printed.
//!
//! The tests skip, saying so, only when python3 or aiosmtpd is missing and neither `CI` nor
//! `PBEM_REQUIRE_SMTP_TESTS` is set; `.ci/run` installs aiosmtpd and sets the latter, so that in CI a
//! missing server is a failure.

use crate::support;

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};

use support::*;

/// A running test server, killed when dropped.
struct Server {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn unavailable(why: &str) -> Option<Server> {
    if std::env::var_os("CI").is_some() || std::env::var_os("PBEM_REQUIRE_SMTP_TESTS").is_some() {
        panic!("the SMTP tests need python3 with aiosmtpd ({why}); .ci/run installs it");
    }
    eprintln!(
        "SKIPPED: the SMTP tests need python3 with aiosmtpd ({why}); install it with: python3 -m pip install aiosmtpd"
    );
    None
}

impl Server {
    /// Starts the server recording into `dir`, with the script's flags; None (after saying why) when
    /// python3 or aiosmtpd is missing outside CI.
    fn start(dir: &Path, flags: &[&str]) -> Option<Server> {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/smtp_server.py");
        let child = Process::new("python3")
            .arg(script)
            .arg("--dir")
            .arg(dir)
            .args(flags)
            .args(["--lifetime", "120"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut child = match child {
            Ok(c) => c,
            Err(e) => return unavailable(&format!("python3 cannot be started: {e}")),
        };
        let mut line = String::new();
        let stdout = child.stdout.take().unwrap();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let port = line
            .strip_prefix("PORT ")
            .and_then(|p| p.trim().parse().ok());
        match port {
            Some(port) => Some(Server {
                child,
                port,
                dir: dir.to_path_buf(),
            }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                unavailable(if line.contains("NO-AIOSMTPD") {
                    "aiosmtpd is not installed"
                } else {
                    "the server did not start"
                })
            }
        }
    }

    /// The messages recorded: (bytes, recipients), in order of arrival.
    fn received(&self) -> Vec<(Vec<u8>, Vec<String>)> {
        let mut out = Vec::new();
        for n in 1.. {
            let eml = self.dir.join(format!("{n}.eml"));
            let Ok(bytes) = fs::read(&eml) else { break };
            let meta: serde_json::Value = serde_json::from_str(
                &fs::read_to_string(self.dir.join(format!("{n}.json"))).unwrap(),
            )
            .unwrap();
            let rcpts = meta["rcpt_tos"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            out.push((bytes, rcpts));
        }
        out
    }
}

/// Points the game's [mail.smtp] at `port` (adding the tables the first time).
fn use_server(game: &Path, port: u16) {
    let path = game.join("game.toml");
    let text = fs::read_to_string(&path).unwrap();
    if text.contains("[mail.smtp]") {
        let text: Vec<String> = text
            .lines()
            .map(|l| {
                if l.starts_with("port = ") {
                    format!("port = {port}")
                } else {
                    l.to_string()
                }
            })
            .collect();
        fs::write(&path, text.join("\n") + "\n").unwrap();
    } else {
        add_to_config(
            game,
            &format!(
                "[mail]\nfrom = \"Referee <referee@referee.example>\"\ntransport = \"smtp\"\nretries = 2\nretry_delay_ms = 20\n\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"none\"\ntimeout_seconds = 10\n"
            ),
        );
    }
}

/// A game whose turn 1 has been ingested from a mailbox (four powers) and resolved, not sent.
fn resolved_turn(tmp: &Path) -> PathBuf {
    let (_keep, dir) = game();
    let dir = {
        let to = tmp.join("ulm-1805");
        pbem::game::fsio::copy_tree(&dir, &to).unwrap();
        to
    };
    let mut mbox = String::new();
    for (p, pw) in [
        ("france", FRANCE_PW),
        ("austria", AUSTRIA_PW),
        ("russia", RUSSIA_PW),
        ("britain", BRITAIN_PW),
    ] {
        let m = eml(
            &format!("{p}@example.org"),
            "Sat, 5 Dec 2026 18:00:00 +0100",
            &format!("{p}-t1@example.org"),
            &header(p, pw, 1),
        );
        mbox.push_str(&format!(
            "From {p}@example.org Sat Dec  5 17:00:00 2026\n{}\n",
            m.replace("\r\n", "\n")
        ));
    }
    let inbox = write(tmp, "inbox.mbox", mbox);
    pbem()
        .args(["turn"])
        .arg(&dir)
        .arg("--mailbox")
        .arg(&inbox)
        .arg("--no-send")
        .assert()
        .success();
    dir
}

/// What a message says, without the envelope `pbem send` gives it (From, To, Date) and without the
/// CRLF SMTP may add at its end.
fn content_of(bytes: &[u8]) -> Vec<u8> {
    let c = pbem::mail::envelope::content(bytes);
    match c.strip_suffix(b"\r\n") {
        Some(x) => x.to_vec(),
        None => c,
    }
}

/// Every (outbox file, recipient) pair, with what the file says.
fn expected_pairs(game: &Path) -> BTreeMap<(String, String), Vec<u8>> {
    let mut out = BTreeMap::new();
    for (name, bytes) in pbem::mail::outbox_store::read_all(&game.join("mail/outbox")).unwrap() {
        // To whom `pbem send` sends it now (game.toml as it is), not the To it was made with.
        let written = pbem::mail::parse::outgoing_headers(&bytes).recipients;
        for r in pbem::mail::envelope::address(&load(game), &bytes, &written).to {
            out.insert((name.clone(), r), content_of(&bytes));
        }
    }
    out
}

/// Matches what the server received to the outbox: each pair once, byte for byte (SMTP ends the data
/// with CRLF: a file that does not is received with one).
fn match_received(
    expected: &BTreeMap<(String, String), Vec<u8>>,
    received: &[(Vec<u8>, Vec<String>)],
) -> Vec<(String, String)> {
    let mut seen = Vec::new();
    for (bytes, rcpts) in received {
        assert_eq!(rcpts.len(), 1, "one recipient per transaction");
        let hit = expected
            .iter()
            .find(|((_, r), b)| r == &rcpts[0] && **b == content_of(bytes));
        let ((file, r), _) = hit.unwrap_or_else(|| {
            panic!(
                "received a message that is not in the outbox for {}:\n{}",
                rcpts[0],
                String::from_utf8_lossy(&bytes[..bytes.len().min(600)])
            )
        });
        // The envelope of the moment of sending: To the recipient, From the referee, a Date.
        let to = pbem::mail::envelope::header(bytes, "to").unwrap_or_default();
        assert!(to.contains(r.as_str()), "{file} went to {r} with To: {to}");
        assert!(pbem::mail::envelope::header(bytes, "date").is_some());
        seen.push((file.clone(), r.clone()));
    }
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), seen.len(), "a message was delivered twice");
    seen
}

#[test]
fn pbem_turn_delivers_the_whole_outbox_once_byte_for_byte_to_the_right_recipients() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(server) = Server::start(&tmp.path().join("received"), &[]) else {
        return;
    };
    let (_keep, dir) = game();
    use_server(&dir, server.port);
    let mut mbox = String::new();
    for (p, pw) in [
        ("france", FRANCE_PW),
        ("austria", AUSTRIA_PW),
        ("russia", RUSSIA_PW),
        ("britain", "wrong"),
    ] {
        let m = eml(
            &format!("{p}@example.org"),
            "Sat, 5 Dec 2026 18:00:00 +0100",
            &format!("{p}@x"),
            &header(p, pw, 1),
        );
        mbox.push_str(&format!(
            "From {p}@example.org Sat Dec  5 17:00:00 2026\n{}\n",
            m.replace("\r\n", "\n")
        ));
    }
    let inbox = write(tmp.path(), "inbox.mbox", mbox);
    let out = pbem()
        .arg("turn")
        .arg(&dir)
        .arg("--mailbox")
        .arg(&inbox)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("Turn 1 (September 1805) resolved."),
        "{stdout}"
    );
    assert!(
        stdout.contains("3 accepted, 0 late, 0 held, 1 rejected"),
        "{stdout}"
    );
    assert!(
        stdout.contains("wrong password for Great Britain"),
        "{stdout}"
    );

    let expected = expected_pairs(&dir);
    let kinds: Vec<&str> = ["-ack-", "-report-", "-announcement-"].to_vec();
    for k in kinds {
        assert!(
            expected.keys().any(|(f, _)| f.contains(k)),
            "no {k} in the outbox"
        );
    }
    let seen = match_received(&expected, &server.received());
    assert_eq!(seen.len(), expected.len(), "{stdout}");
    assert!(
        stdout.contains(&format!("{} message(s) sent", expected.len())),
        "{stdout}"
    );

    // A second send sends nothing.
    let out = pbem().arg("send").arg(&dir).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains(&format!(
            "0 message(s) sent, {} already delivered",
            expected.len()
        )),
        "{stdout}"
    );
    assert_eq!(server.received().len(), expected.len());
}

#[test]
fn a_dropped_connection_is_survived_by_a_rerun_that_sends_the_rest_and_nothing_twice() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let Some(first) = Server::start(
        &tmp.path().join("r1"),
        &["--drop-after", "3", "--exit-after-drop"],
    ) else {
        return;
    };
    use_server(&dir, first.port);
    let expected = expected_pairs(&dir);
    let out = pbem().arg("send").arg(&dir).assert().code(5);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("3 message(s) sent"), "{stdout}");
    assert!(stdout.contains("left for the next run"), "{stdout}");
    let mut received = first.received();
    assert_eq!(received.len(), 3);
    drop(first);

    let Some(second) = Server::start(&tmp.path().join("r2"), &[]) else {
        return;
    };
    use_server(&dir, second.port);
    let out = pbem().arg("send").arg(&dir).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains(&format!(
            "{} message(s) sent, 3 already delivered",
            expected.len() - 3
        )),
        "{stdout}"
    );
    received.extend(second.received());
    let seen = match_received(&expected, &received);
    assert_eq!(seen.len(), expected.len());
}

#[test]
fn a_connection_dropped_once_is_retried_in_the_same_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let Some(server) = Server::start(&tmp.path().join("r"), &["--drop-after", "2"]) else {
        return;
    };
    use_server(&dir, server.port);
    let expected = expected_pairs(&dir);
    pbem().arg("send").arg(&dir).assert().success();
    let seen = match_received(&expected, &server.received());
    assert_eq!(seen.len(), expected.len());
}

#[test]
fn a_550_for_one_recipient_is_reported_the_others_still_go_and_a_rerun_sends_nothing_twice() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let Some(server) = Server::start(&tmp.path().join("r"), &["--reject", "russia@example.org"])
    else {
        return;
    };
    use_server(&dir, server.port);
    let expected = expected_pairs(&dir);
    let refused = expected
        .keys()
        .filter(|(_, r)| r == "russia@example.org")
        .count();
    assert!(
        refused >= 2,
        "russia gets an ack, a report and an announcement"
    );
    let out = pbem().arg("send").arg(&dir).assert().code(5);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("REFUSED"), "{stdout}");
    assert!(stdout.contains("550"), "{stdout}");
    assert!(
        stdout.contains("russia@example.org: permanent error (550)"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{} message(s) sent", expected.len() - refused)),
        "{stdout}"
    );
    assert_eq!(server.received().len(), expected.len() - refused);

    // The rerun sends nothing and still reports the 550.
    let out = pbem().arg("send").arg(&dir).assert().code(5);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("0 message(s) sent"), "{stdout}");
    assert!(
        stdout.contains("on an earlier run: permanent error (550)"),
        "{stdout}"
    );
    let seen = match_received(&expected, &server.received());
    assert_eq!(seen.len(), expected.len() - refused);
    assert!(seen.iter().all(|(_, r)| r != "russia@example.org"));
    // The ledger says so too.
    let ledger = fs::read_to_string(dir.join("mail/sent/t0001-report-russia.toml")).unwrap();
    assert!(
        ledger.contains("status = \"refused\"") && ledger.contains("550"),
        "{ledger}"
    );
}

#[test]
fn the_smtp_password_comes_from_the_environment_and_is_never_printed_or_stored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let secret = "pw-Xq83-never-shown";
    let Some(server) = Server::start(
        &tmp.path().join("r"),
        &["--auth", &format!("referee:{secret}")],
    ) else {
        return;
    };
    use_server(&dir, server.port);
    let expected = expected_pairs(&dir);
    let text = fs::read_to_string(dir.join("game.toml")).unwrap().replace(
        "security = \"none\"",
        "security = \"none\"\nuser = \"referee\"\npassword_env = \"PBEM_TEST_SMTP_PASSWORD\"",
    );
    fs::write(dir.join("game.toml"), text).unwrap();

    // Without the variable: a clear error, nothing sent.
    let out = pbem()
        .arg("send")
        .arg(&dir)
        .env_remove("PBEM_TEST_SMTP_PASSWORD")
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("PBEM_TEST_SMTP_PASSWORD"), "{stderr}");
    assert_eq!(server.received().len(), 0);

    // A wrong password: the login is refused, the run stops at once.
    let out = pbem()
        .arg("send")
        .arg(&dir)
        .env("PBEM_TEST_SMTP_PASSWORD", "wrong")
        .assert()
        .code(5);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("stopped: the server refused the login"),
        "{stdout}"
    );
    assert_eq!(server.received().len(), 0);

    let out = pbem()
        .arg("send")
        .arg(&dir)
        .env("PBEM_TEST_SMTP_PASSWORD", secret)
        .assert()
        .success();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.get_output().stdout),
        String::from_utf8_lossy(&out.get_output().stderr)
    );
    assert!(!all.contains(secret), "{all}");
    assert_eq!(
        match_received(&expected, &server.received()).len(),
        expected.len()
    );
    for (file, bytes) in tree(&dir) {
        assert!(
            !String::from_utf8_lossy(&bytes).contains(secret),
            "{file} holds the SMTP password"
        );
    }
}

#[test]
fn dry_run_lists_what_would_go_and_sends_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let expected = expected_pairs(&dir);
    let before = tree(&dir);
    let out = pbem()
        .arg("send")
        .arg(&dir)
        .arg("--dry-run")
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains(&format!("{} message(s) would be sent", expected.len())),
        "{stdout}"
    );
    assert!(
        stdout.contains("would send t0001-report-france.eml -> france@example.org"),
        "{stdout}"
    );
    assert_eq!(tree(&dir), before);
}

#[test]
fn the_folder_transport_writes_each_message_once_per_recipient() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let expected = expected_pairs(&dir);
    let folder = tmp.path().join("sent-mail");
    pbem()
        .arg("send")
        .arg(&dir)
        .arg("--folder")
        .arg(&folder)
        .assert()
        .success();
    for ((file, rcpt), bytes) in &expected {
        assert_eq!(
            &content_of(&fs::read(folder.join(rcpt).join(file)).unwrap()),
            bytes,
            "{file} {rcpt}"
        );
    }
    let again = tree(&folder);
    pbem()
        .arg("send")
        .arg(&dir)
        .arg("--folder")
        .arg(&folder)
        .assert()
        .success();
    assert_eq!(tree(&folder), again);
}

#[cfg(unix)]
#[test]
fn the_sendmail_transport_pipes_each_message_to_the_program_once_per_recipient() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let spool = tmp.path().join("spool");
    fs::create_dir_all(&spool).unwrap();
    // A stand-in for sendmail: the message on stdin, the recipient after "--".
    let script = write(
        tmp.path(),
        "fake-sendmail",
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do rcpt=\"$a\"; done\nn=$(ls '{0}' | wc -l)\ncat > '{0}'/$n.eml\necho \"$rcpt\" > '{0}'/$n.rcpt\n",
            spool.display()
        ),
    );
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    add_to_config(
        &dir,
        &format!(
            "[mail]\nfrom = \"Referee <referee@referee.example>\"\ntransport = \"sendmail\"\n\n[mail.sendmail]\ncommand = \"{}\"\n",
            script.display()
        ),
    );
    let expected = expected_pairs(&dir);
    pbem().arg("send").arg(&dir).assert().success();
    let mut got = Vec::new();
    for e in fs::read_dir(&spool).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "eml") {
            let rcpt = fs::read_to_string(p.with_extension("rcpt")).unwrap();
            got.push((fs::read(&p).unwrap(), vec![rcpt.trim().to_string()]));
        }
    }
    assert_eq!(match_received(&expected, &got).len(), expected.len());
    pbem().arg("send").arg(&dir).assert().success();
    assert_eq!(
        fs::read_dir(&spool).unwrap().count(),
        2 * expected.len(),
        "nothing sent twice"
    );
}

/// Which outbox message reached which recipient, how many times, from what the server recorded.
fn deliveries(
    expected: &BTreeMap<(String, String), Vec<u8>>,
    received: &[(Vec<u8>, Vec<String>)],
) -> BTreeMap<(String, String), usize> {
    let mut out = BTreeMap::new();
    for (bytes, rcpts) in received {
        let ((file, r), _) = expected
            .iter()
            .find(|((_, r), b)| r == &rcpts[0] && **b == content_of(bytes))
            .expect("a message of the outbox");
        *out.entry((file.clone(), r.clone())).or_insert(0) += 1;
    }
    out
}

/// Killed after the whole French report went but before the line that ends its DATA (the ledger's
/// `sending` mark is the first write of its ledger): the server never took it, and the rerun sends
/// it, once. Nothing is lost and nothing comes twice.
#[test]
fn a_send_killed_before_the_end_of_a_message_sends_it_once_on_the_rerun() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let Some(server) = Server::start(&tmp.path().join("r"), &[]) else {
        return;
    };
    use_server(&dir, server.port);
    let expected = expected_pairs(&dir);
    pbem()
        .arg("send")
        .arg(&dir)
        .env("PBEM_CRASH_BEFORE", "t0001-report-france.toml#1")
        .assert()
        .failure();
    let first = deliveries(&expected, &server.received());
    assert!(
        !first.is_empty() && first.len() < expected.len(),
        "{first:?}"
    );
    let france = (
        "t0001-report-france.eml".to_string(),
        "france@example.org".to_string(),
    );
    assert!(
        !first.contains_key(&france),
        "the server took an unfinished message"
    );
    let out = pbem().arg("send").arg(&dir).assert().success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(said.contains("0 possibly delivered"), "{said}");
    let all = deliveries(&expected, &server.received());
    assert_eq!(all.len(), expected.len(), "nothing lost");
    assert!(
        all.values().all(|n| *n == 1),
        "something came twice: {all:?}"
    );
}

/// The answers of an ingest run are one batch in the outbox (`outbox_store`): killed before the
/// French answer's ledger is first written (its `sending` mark), after the answers before it went,
/// the rerun sends the French answer and the rest, each once, and keeps each answer's own ledger.
#[test]
fn a_send_killed_among_the_answers_of_an_ingest_batch_sends_each_once_on_the_rerun() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let Some(server) = Server::start(&tmp.path().join("r"), &[]) else {
        return;
    };
    use_server(&dir, server.port);
    let batches: Vec<String> = fs::read_dir(dir.join("mail/outbox"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("batch-"))
        .collect();
    assert_eq!(batches.len(), 1, "{batches:?}");
    let acks = acks(&dir);
    assert_eq!(acks.len(), 4);
    assert!(!dir.join("mail/outbox").join(&acks[0].0).exists());
    // Killed at the answer that goes last (the outbox goes in the order written).
    let order = fs::read_to_string(dir.join("mail/outbox/order.txt")).unwrap();
    let france = order
        .lines()
        .rfind(|n| n.contains("-ack-"))
        .unwrap()
        .to_string();
    let power = france
        .split("-ack-")
        .nth(1)
        .and_then(|r| r.split('-').next())
        .unwrap()
        .to_string();
    let expected = expected_pairs(&dir);
    pbem()
        .arg("send")
        .arg(&dir)
        .env(
            "PBEM_CRASH_BEFORE",
            format!("{}.toml#1", france.trim_end_matches(".eml")),
        )
        .assert()
        .failure();
    let first = deliveries(&expected, &server.received());
    let france_pair = (france.clone(), format!("{power}@example.org"));
    assert!(!first.is_empty(), "{first:?}");
    assert!(!first.contains_key(&france_pair), "{first:?}");
    let out = pbem().arg("send").arg(&dir).assert().success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(said.contains("0 possibly delivered"), "{said}");
    let all = deliveries(&expected, &server.received());
    assert_eq!(all.len(), expected.len(), "nothing lost");
    assert!(
        all.values().all(|n| *n == 1),
        "something came twice: {all:?}"
    );
    for (name, _) in &acks {
        let ledger = dir
            .join("mail/sent")
            .join(format!("{}.toml", name.trim_end_matches(".eml")));
        assert!(ledger.is_file(), "no ledger for {name}");
    }
}

/// Killed after the server took the French report, before the ledger says `delivered`: the rerun
/// reports it "possibly delivered" (exit 5) and does not send it again; every other message goes once.
/// `--confirm-uncertain` records it delivered, sending nothing.
#[test]
fn a_send_killed_after_the_server_took_a_message_reports_it_possibly_delivered_and_never_sends_it_twice(
) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let Some(server) = Server::start(&tmp.path().join("r"), &[]) else {
        return;
    };
    use_server(&dir, server.port);
    let expected = expected_pairs(&dir);
    pbem()
        .arg("send")
        .arg(&dir)
        .env("PBEM_CRASH_BEFORE", "t0001-report-france.toml#2")
        .assert()
        .failure();
    let france = (
        "t0001-report-france.eml".to_string(),
        "france@example.org".to_string(),
    );
    assert_eq!(
        deliveries(&expected, &server.received()).get(&france),
        Some(&1),
        "the server took the French report before the kill"
    );
    let out = pbem().arg("send").arg(&dir).assert().code(5);
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        said.contains(
            "UNCERTAIN  t0001-report-france.eml -> france@example.org: possibly delivered"
        ),
        "{said}"
    );
    assert!(said.contains("1 possibly delivered"), "{said}");
    let all = deliveries(&expected, &server.received());
    assert_eq!(all.len(), expected.len(), "nothing lost");
    assert!(
        all.values().all(|n| *n == 1),
        "something came twice: {all:?}"
    );
    // Checked: it arrived. Recorded, not sent; the next run has nothing left.
    pbem()
        .args(["send", "--confirm-uncertain"])
        .arg(&dir)
        .assert()
        .success();
    pbem().arg("send").arg(&dir).assert().success();
    assert_eq!(server.received().len(), expected.len());
    let ledger = fs::read_to_string(dir.join("mail/sent/t0001-report-france.toml")).unwrap();
    assert!(ledger.contains("--confirm-uncertain"), "{ledger}");
}

/// `--resend-uncertain` sends a possibly delivered message again: the one case of a second copy,
/// as MAIL.md says.
#[test]
fn resend_uncertain_sends_a_possibly_delivered_message_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let Some(server) = Server::start(&tmp.path().join("r"), &[]) else {
        return;
    };
    use_server(&dir, server.port);
    let expected = expected_pairs(&dir);
    pbem()
        .arg("send")
        .arg(&dir)
        .env("PBEM_CRASH_BEFORE", "t0001-report-france.toml#2")
        .assert()
        .failure();
    pbem()
        .args(["send", "--resend-uncertain"])
        .arg(&dir)
        .assert()
        .success();
    let all = deliveries(&expected, &server.received());
    let twice: Vec<_> = all
        .iter()
        .filter(|(_, n)| **n == 2)
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        twice,
        [&(
            "t0001-report-france.eml".to_string(),
            "france@example.org".to_string()
        )]
    );
    assert_eq!(all.len(), expected.len());
}

/// A crash between the reports and the record leaves the reports in the outbox of a turn that is not
/// resolved: `send` keeps them (and the summary, and the next turn's announcements) until the record
/// lists them with their bytes; the acknowledgements go at once.
#[test]
fn the_reports_of_a_turn_without_its_record_are_not_sent() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    let expected = expected_pairs(&dir);
    let record = dir.join("turns/1/record.toml");
    fs::remove_file(&record).unwrap();
    let folder = tmp.path().join("sent-mail");
    let out = pbem()
        .arg("send")
        .arg(&dir)
        .arg("--folder")
        .arg(&folder)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("turn 1 is not resolved"), "{said}");
    let held = |file: &str| {
        file.starts_with("t0001-report")
            || file.starts_with("t0001-summary")
            || file.starts_with("t0002-announcement")
    };
    assert!(expected.keys().any(|(f, _)| held(f)));
    assert!(expected.keys().any(|(f, _)| !held(f)));
    for ((file, rcpt), bytes) in &expected {
        let sent = fs::read(folder.join(rcpt).join(file))
            .ok()
            .map(|b| content_of(&b));
        if held(file) {
            assert_eq!(
                sent, None,
                "{file} went to {rcpt} before the turn was resolved"
            );
        } else {
            assert_eq!(sent.as_ref(), Some(bytes), "{file} {rcpt}");
        }
    }

    // Resolved again, the turn's messages go; a report changed after the record does not.
    pbem().args(["resolve"]).arg(&dir).assert().success();
    assert!(record.is_file());
    let changed = dir.join("mail/outbox/t0001-report-france.eml");
    let mut bytes = fs::read(&changed).unwrap();
    bytes.extend_from_slice(b"\r\nedited\r\n");
    fs::write(&changed, bytes).unwrap();
    let out = pbem()
        .arg("send")
        .arg(&dir)
        .arg("--folder")
        .arg(&folder)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    // A report's mail is kept without its bodies (`outbox::PARTS_FORMAT`): edited, it no longer
    // reads; either way it is not sent.
    assert!(
        said.contains("t0001-report-france.eml: not sent")
            || said.contains("t0001-report-france.eml: cannot be read"),
        "{said}"
    );
    for ((file, rcpt), bytes) in &expected {
        let sent = fs::read(folder.join(rcpt).join(file))
            .ok()
            .map(|b| content_of(&b));
        if file == "t0001-report-france.eml" {
            assert_eq!(sent, None, "{file} {rcpt}");
        } else {
            assert_eq!(sent.as_ref(), Some(bytes), "{file} {rcpt}");
        }
    }
}

/// Issue 22.4: with no server listening, the first refused connection stops the run: no retry, no
/// pause per message, every message reported as left for the next run, exit code 5.
#[test]
fn a_server_that_is_down_stops_send_at_the_first_refused_connection() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = resolved_turn(tmp.path());
    // A port nobody listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    use_server(&dir, port);
    let expected = expected_pairs(&dir);
    assert!(expected.len() > 3);
    let out = pbem().arg("send").arg(&dir).assert().code(5);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("stopped: the SMTP server refused the connection"),
        "{stdout}"
    );
    // One message tried (and not retried: it says the refusal, not a later failure); all the
    // others not tried.
    let refused = stdout
        .lines()
        .filter(|l| l.contains("left") && l.contains("refused the connection"))
        .count();
    let not_tried = stdout
        .lines()
        .filter(|l| l.contains("not tried: the run stopped"))
        .count();
    assert_eq!((refused, not_tried), (1, expected.len() - 1), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "0 message(s) sent, 0 already delivered, 0 refused, {} left for the next run, 0 possibly delivered.",
            expected.len()
        )),
        "{stdout}"
    );
    assert!(
        !dir.join("mail/sent").exists()
            || fs::read_dir(dir.join("mail/sent")).unwrap().count() == 0
    );
}
