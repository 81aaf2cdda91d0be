//! `verify.html` (issue 36): `pbem verify` as one offline page, checked in a real browser. Headless
//! Chromium opens the page served from a localhost server that logs every request, with
//! `?eml=<report mail>`; the verdict it writes in `#verdict` is read from the DOM. For each ruleset
//! an untouched report mail is OK and one with a die changed is FAIL; on a small corpus of tamperings
//! the page and `pbem verify` give the same verdict; the page asks for nothing but itself and the
//! mail named, and names no other origin.
//!
//! Chromium is required: the test fails when it is missing, unless PBEM_SKIP_BROWSER_TESTS is set
//! (`map_in_browser::chromium`).

use crate::map_in_browser::chromium;
use crate::rulesets::{resolved, Scenario, SCENARIOS};
use crate::support::{pbem, read_outbox_string};

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

/// A folder served on 127.0.0.1 (GET only, one request a connection) with the page in it; every
/// request's target is logged.
struct Server {
    dir: tempfile::TempDir,
    port: u16,
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start() -> Server {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("verify.html"),
            pbem::verify_page::verify_page(),
        )
        .unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (root, requests) = (dir.path().to_path_buf(), log.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut first = String::new();
                if reader.read_line(&mut first).is_err() {
                    continue;
                }
                // The rest of the request's head.
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let target = first.split_whitespace().nth(1).unwrap_or("").to_string();
                // A connection the browser opened ahead and closed asks for nothing.
                if target.is_empty() {
                    continue;
                }
                requests.lock().unwrap().push(target.clone());
                let path = target.split('?').next().unwrap_or("");
                let name = path.trim_start_matches('/');
                let file = root.join(name);
                let ok = !name.is_empty() && !name.contains("..") && file.is_file();
                let (status, body, kind) = if ok {
                    let kind = if name.ends_with(".html") {
                        "text/html; charset=utf-8"
                    } else {
                        "application/octet-stream"
                    };
                    ("200 OK", fs::read(&file).unwrap(), kind)
                } else {
                    ("404 Not Found", b"not found".to_vec(), "text/plain")
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        Server { dir, port, log }
    }

    /// Puts `bytes` beside the page as `name`.
    fn put(&self, name: &str, bytes: &[u8]) {
        fs::write(self.dir.path().join(name), bytes).unwrap();
    }

    /// The page's verdict (the text of `#verdict`) and self-test line on `query`, and the requests
    /// the browser made for it.
    fn open(&self, browser: &Path, query: &str) -> (String, String, Vec<String>) {
        self.log.lock().unwrap().clear();
        let profile = tempfile::tempdir().unwrap();
        let out = Command::new(browser)
            .args(crate::map_in_browser::HEADLESS)
            .args(["--virtual-time-budget=20000", "--dump-dom"])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!(
                "http://127.0.0.1:{}/verify.html?{query}",
                self.port
            ))
            .output()
            .unwrap();
        let dom = String::from_utf8_lossy(&out.stdout).into_owned();
        let text_of = |id: &str| -> String {
            let Some(at) = dom.find(&format!("id=\"{id}\"")) else {
                panic!(
                    "no #{id} in the page: {}",
                    String::from_utf8_lossy(&out.stderr)
                )
            };
            let after = &dom[at..];
            let start = after.find('>').unwrap() + 1;
            let end = after.find("</").unwrap();
            after[start..end].to_string()
        };
        let verdict = text_of("verdict");
        let selftest = text_of("selftest");
        let requests = self.log.lock().unwrap().clone();
        (verdict, selftest, requests)
    }

    /// The page's verdict on `eml` (put beside it) with the commitment `anchor`, after checking that
    /// its self-test passed and that it asked for nothing but itself and `eml`.
    fn verdict(&self, browser: &Path, name: &str, eml: &[u8], anchor: &str) -> String {
        self.put(name, eml);
        let (verdict, selftest, requests) =
            self.open(browser, &format!("eml={name}&commitment={anchor}"));
        assert!(
            selftest.starts_with("self-test passed"),
            "the page's test vectors: {selftest}"
        );
        assert_eq!(
            requests,
            [
                format!("/verify.html?eml={name}&commitment={anchor}"),
                format!("/{name}")
            ],
            "the page asked for other things than itself and the mail"
        );
        verdict
    }
}

/// The last turn's report mail of `s` that lists a roll in its 7bit text part, the turn's commitment,
/// and the mail with that roll's last face changed to another face of its die.
fn report_and_tampered(s: &Scenario) -> (Vec<u8>, String, Vec<u8>) {
    let game = resolved(s);
    let mut mails: Vec<PathBuf> = fs::read_dir(game.join("mail/outbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with(&format!("t{:04}-report-", s.turns))
        })
        .collect();
    mails.sort();
    let commitment = fs::read_to_string(game.join(format!("turns/{}/commitment", s.turns)))
        .unwrap()
        .trim()
        .to_string();
    for path in mails {
        let mail = read_outbox_string(&path);
        if let Some(tampered) = change_a_face(&mail) {
            return (mail.into_bytes(), commitment, tampered.into_bytes());
        }
    }
    panic!("{}: no report mail lists a roll in its text part", s.id);
}

/// The mail with the last face of its first `roll` line changed to the next face of the die.
fn change_a_face(mail: &str) -> Option<String> {
    let line = mail
        .lines()
        .find(|l| l.trim_start().starts_with("roll ") && l.contains(" -> "))?;
    let (dice, faces) = line.rsplit_once(" -> ")?;
    let sides: u32 = dice.rsplit_once(" d")?.1.trim().parse().ok()?;
    let (before, last) = faces
        .trim_end()
        .rsplit_once(' ')
        .unwrap_or(("", faces.trim_end()));
    let face: u32 = last.parse().ok()?;
    if sides < 2 {
        return None;
    }
    let other = face % sides + 1;
    let faces = if before.is_empty() {
        other.to_string()
    } else {
        format!("{before} {other}")
    };
    Some(mail.replacen(line, &format!("{dice} -> {faces}"), 1))
}

#[test]
fn the_page_says_ok_to_every_rulesets_untouched_report_and_fail_to_a_changed_die() {
    let Some(browser) = chromium() else {
        return;
    };
    let server = Server::start();
    for s in SCENARIOS {
        let (mail, commitment, tampered) = report_and_tampered(s);
        let ok = server.verdict(&browser, &format!("{}.eml", s.id), &mail, &commitment);
        assert!(ok.starts_with("OK: "), "{}: {ok}", s.id);
        let bad = server.verdict(
            &browser,
            &format!("{}-tampered.eml", s.id),
            &tampered,
            &commitment,
        );
        assert!(bad.starts_with("FAIL: "), "{}: {bad}", s.id);
    }
}

/// `pbem verify`'s verdict on `eml` with the commitment `anchor`: OK when it exits 0.
fn cli_verdict(eml: &[u8], anchor: &str) -> &'static str {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.eml");
    fs::write(&path, eml).unwrap();
    let out = pbem()
        .arg("verify")
        .arg(&path)
        .args(["--commitment", anchor])
        .output()
        .unwrap();
    if out.status.success() {
        "OK"
    } else {
        "FAIL"
    }
}

#[test]
fn the_page_and_pbem_verify_give_the_same_verdict_on_a_corpus_of_tamperings() {
    let Some(browser) = chromium() else {
        return;
    };
    let server = Server::start();
    let s = SCENARIOS[0];
    let (mail, commitment, face_changed) = report_and_tampered(s);
    let text = String::from_utf8(mail.clone()).unwrap();
    let roll_line = text
        .lines()
        .find(|l| l.trim_start().starts_with("roll "))
        .unwrap()
        .to_string();
    let seed_line = text.lines().find(|l| l.starts_with("seed: ")).unwrap();
    let other_seed = format!("seed: {}", "0".repeat(64));
    let wrong_anchor = "ab".repeat(32);
    let corpus: Vec<(&str, Vec<u8>, &str, &str)> = vec![
        ("untouched", mail.clone(), commitment.as_str(), "OK"),
        (
            "crlf-to-lf",
            text.replace("\r\n", "\n").into_bytes(),
            commitment.as_str(),
            "OK",
        ),
        ("face-changed", face_changed, commitment.as_str(), "FAIL"),
        (
            "header-edited",
            text.replacen(seed_line, &other_seed, 1).into_bytes(),
            commitment.as_str(),
            "FAIL",
        ),
        (
            "roll-line-deleted",
            text.replacen(&format!("{roll_line}\r\n"), "", 1)
                .into_bytes(),
            commitment.as_str(),
            "FAIL",
        ),
        (
            "another-commitment",
            mail.clone(),
            wrong_anchor.as_str(),
            "FAIL",
        ),
    ];
    for (name, eml, anchor, expected) in corpus {
        let cli = cli_verdict(&eml, anchor);
        let page = server.verdict(&browser, &format!("{name}.eml"), &eml, anchor);
        let page = page.split([':', ',']).next().unwrap().to_string();
        assert_eq!(cli, expected, "{name}: pbem verify");
        assert_eq!(page, expected, "{name}: the page");
    }
}

#[test]
fn the_page_names_no_other_origin_and_loads_nothing_from_one() {
    let page = pbem::verify_page::verify_page();
    for remote in [
        "http://",
        "https://",
        "//cdn",
        "<script src",
        "<link",
        "@import",
    ] {
        assert!(
            !page.to_ascii_lowercase().contains(remote),
            "verify.html contains {remote:?}"
        );
    }
    // A CSS image or font (`new URL(` of the page's own `?eml=` is upper case).
    assert!(
        !page.contains("url("),
        "verify.html loads a resource in its CSS"
    );
    // Its policy forbids every other origin, whatever a later edit adds.
    assert!(page.contains("default-src 'none'"));
    assert!(page.contains("connect-src 'self'"));
}

#[test]
fn pbem_new_puts_the_page_in_the_game_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("ulm");
    pbem()
        .arg("new")
        .arg(&game)
        .args(["--from", SCENARIOS[0].id])
        .assert()
        .success();
    assert_eq!(
        fs::read_to_string(game.join("verify.html")).unwrap(),
        pbem::verify_page::verify_page()
    );
}

#[test]
fn the_page_checks_pbem_dice_v2_with_and_without_a_beacon_as_pbem_verify_does() {
    use crate::dice_v2::{beacon_demo, closed_demo, ROUND, SIGNATURE};
    let Some(browser) = chromium() else {
        return;
    };
    let server = Server::start();
    let (_a, closed) = closed_demo();
    pbem().arg("resolve").arg(&closed).assert().success();
    let (_b, beacon) = beacon_demo();
    pbem()
        .arg("resolve")
        .arg(&beacon)
        .arg("--beacon")
        .arg(format!("{ROUND}:{SIGNATURE}"))
        .assert()
        .success();
    for (name, game) in [("v2", &closed), ("v2-beacon", &beacon)] {
        let mail = read_outbox_string(game.join("mail/outbox/t0001-report-france.eml"));
        assert!(mail.contains("pbem-dice/v2"), "{name}");
        let commitment = fs::read_to_string(game.join("turns/1/commitment")).unwrap();
        let commitment = commitment.trim();
        let tampered = change_a_face(&mail).expect("a roll in the text part");
        for (kind, eml, expected) in [
            ("untouched", &mail, "OK"),
            ("face-changed", &tampered, "FAIL"),
        ] {
            let page = server.verdict(
                &browser,
                &format!("{name}-{kind}.eml"),
                eml.as_bytes(),
                commitment,
            );
            assert!(
                page.starts_with(&format!("{expected}: ")),
                "{name} {kind}: {page}"
            );
            assert_eq!(
                cli_verdict(eml.as_bytes(), commitment),
                expected,
                "{name} {kind}: pbem verify"
            );
        }
    }
}
