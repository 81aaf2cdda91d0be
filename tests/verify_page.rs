//! `verify.html` (issue 36): `pbem verify` as one offline page, checked in a real browser. Headless
//! Chromium opens the page served from a localhost server that logs every request, with
//! `?list=<file>`: each line of the file a query (`eml=<report>&commitment=...&ack=...`) whose
//! verdict the page writes in `#case-N`, read from the DOM, so that a whole corpus takes one launch.
//! For each ruleset an untouched report mail is OK and one with a die changed is FAIL; on a corpus of
//! tamperings (every tampering of the dice issue in every ruleset, sealed lists, closing mails,
//! acknowledgements, a forged beacon signature) the page and `pbem verify` give the same verdict and
//! reason; the page asks for nothing but itself and the files named, and names no other origin.
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

/// Files put beside the page: (name, bytes).
pub(crate) type Files = Vec<(String, Vec<u8>)>;

/// A folder served on 127.0.0.1 (GET only, one request a connection) with the page in it; every
/// request's target is logged.
pub(crate) struct Server {
    pub(crate) dir: tempfile::TempDir,
    port: u16,
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    pub(crate) fn start() -> Server {
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

    /// The page's DOM after it ran on `query`, and the requests the browser made for it.
    fn open_dom(&self, browser: &Path, query: &str) -> (String, Vec<String>) {
        self.log.lock().unwrap().clear();
        let profile = tempfile::tempdir().unwrap();
        let out = Command::new(browser)
            .args(crate::map_in_browser::HEADLESS)
            .args(["--virtual-time-budget=180000", "--dump-dom"])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!(
                "http://127.0.0.1:{}/verify.html?{query}",
                self.port
            ))
            .output()
            .unwrap();
        let dom = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            dom.contains("id=\"verdict\""),
            "no page: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let requests = self.log.lock().unwrap().clone();
        (dom, requests)
    }

    /// The page's verdicts on a list of cases, each a query and the files it names (put beside the
    /// page), checked in one session (`?list=`), after checking that its self-test passed and that it
    /// asked for nothing but itself, the list and the files named, each once.
    pub(crate) fn run_list(&self, browser: &Path, cases: &[(String, Files)]) -> Vec<String> {
        let mut list = String::new();
        let mut expected = vec![
            "/verify.html?list=cases.txt".to_string(),
            "/cases.txt".into(),
        ];
        for (query, files) in cases {
            for (n, bytes) in files {
                self.put(n, bytes);
                expected.push(format!("/{n}"));
            }
            list.push_str(query);
            list.push('\n');
        }
        self.put("cases.txt", list.as_bytes());
        let (dom, requests) = self.open_dom(browser, "list=cases.txt");
        let selftest = text_of(&dom, "selftest");
        assert!(selftest.starts_with("self-test passed"), "{selftest}");
        assert_eq!(
            requests, expected,
            "the page asked for other things than itself, the list and the files named"
        );
        (1..=cases.len())
            .map(|i| text_of(&dom, &format!("case-{i}")))
            .collect()
    }
}

/// The text of the element of id `id` in a dumped DOM (its text up to its first child or end, entities
/// as the DOM writes them).
fn text_of(dom: &str, id: &str) -> String {
    let Some(at) = dom.find(&format!("id=\"{id}\"")) else {
        panic!("no #{id} in the page")
    };
    let after = &dom[at..];
    let start = after.find('>').unwrap() + 1;
    let end = after.find("</").unwrap();
    after[start..end].to_string()
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

/// `mail` forwarded as an attachment (message/rfc822) in a mail of a few words, as a mail client
/// forwards it.
fn forwarded(mail: &[u8]) -> Vec<u8> {
    let mut out = b"From: france@example.org\r\nTo: auditor@example.org\r\nSubject: Fwd: my report\r\n\
MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"fwd\"\r\n\r\n--fwd\r\n\
Content-Type: text/plain; charset=utf-8\r\n\r\nMy report of turn 1, as the referee sent it.\r\n--fwd\r\n\
Content-Type: message/rfc822\r\nContent-Disposition: attachment; filename=\"report.eml\"\r\n\r\n"
        .to_vec();
    out.extend_from_slice(mail);
    out.extend_from_slice(b"\r\n--fwd--\r\n");
    out
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
    let mut cases = Vec::new();
    for s in SCENARIOS {
        let (mail, commitment, tampered) = report_and_tampered(s);
        for (name, bytes) in [
            (s.id.to_string(), mail),
            (format!("{}-tampered", s.id), tampered),
        ] {
            cases.push((
                format!("eml={name}.eml&commitment={commitment}"),
                vec![(format!("{name}.eml"), bytes)],
            ));
        }
    }
    let verdicts = server.run_list(&browser, &cases);
    for (i, s) in SCENARIOS.iter().enumerate() {
        let (ok, bad) = (&verdicts[2 * i], &verdicts[2 * i + 1]);
        assert!(ok.starts_with("OK: "), "{}: {ok}", s.id);
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

/// One case of the differential corpus: the report's files, what else the player gives (each as
/// `pbem verify`'s option and the page's parameter), and the verdict both must give.
struct Case {
    name: String,
    /// The report's files: (name beside the page, bytes).
    reports: Files,
    /// `("commitment", hex)`, or `("ack" | "close" | "sealed", file name)` with the file in `files`.
    given: Vec<(&'static str, String)>,
    files: Files,
    expected: &'static str,
    /// Words the page's reasons must hold (one of them), as `pbem verify`'s do.
    why: &'static [&'static str],
}

impl Case {
    fn new(name: impl Into<String>, reports: Files, expected: &'static str) -> Case {
        Case {
            name: name.into(),
            reports,
            given: Vec::new(),
            files: Vec::new(),
            expected,
            why: &[],
        }
    }

    fn commitment(mut self, hex: &str) -> Case {
        self.given.push(("commitment", hex.to_string()));
        self
    }

    /// `what` ("ack", "close", "sealed") given as the file `name`.
    fn with(mut self, what: &'static str, name: &str, bytes: impl Into<Vec<u8>>) -> Case {
        self.given.push((what, name.to_string()));
        self.files.push((name.to_string(), bytes.into()));
        self
    }

    /// The page's query for the case.
    fn query(&self) -> String {
        let mut q: Vec<String> = self
            .reports
            .iter()
            .map(|(n, _)| format!("eml={n}"))
            .collect();
        // The page takes the previous report and the announcement mail alike as its `anchor`.
        q.extend(self.given.iter().map(|(k, v)| match *k {
            "previous" | "announcement" => format!("anchor={v}"),
            _ => format!("{k}={v}"),
        }));
        q.join("&")
    }

    /// `pbem verify`'s verdict on the files as the server holds them: OK when it exits 0.
    fn cli_verdict(&self, dir: &Path) -> String {
        let mut cmd = pbem();
        cmd.arg("verify");
        for (n, _) in &self.reports {
            cmd.arg(dir.join(n));
        }
        for (k, v) in &self.given {
            cmd.arg(format!("--{k}"));
            if *k == "commitment" {
                cmd.arg(v);
            } else {
                cmd.arg(dir.join(v));
            }
        }
        let out = cmd.output().unwrap();
        let verdict = if out.status.success() { "OK" } else { "FAIL" };
        format!(
            "{verdict} ({}{})",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    }
}

/// The mail with the face of the first roll of its HTML part changed to the next face of the die
/// (`roll ...: d6 -&gt; 4`).
fn change_a_face_in_html(mail: &str) -> String {
    let line = mail
        .lines()
        .find(|l| l.contains("roll ") && l.contains(" -&gt; "))
        .expect("a roll in the HTML part");
    let (dice, rest) = line.split_once(" -&gt; ").unwrap();
    let sides: u32 = dice.rsplit_once('d').unwrap().1.parse().unwrap();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let other = digits.parse::<u32>().unwrap() % sides.max(2) + 1;
    let changed = format!("{dice} -&gt; {other}{}", &rest[digits.len()..]);
    mail.replacen(line, &changed, 1)
}

/// The text and JSON forms of a tampering report, as files named after the case.
fn forms_of(name: &str, r: &crate::verify_tamper::Report) -> Files {
    vec![
        (format!("{name}.txt"), r.text.clone().into_bytes()),
        (format!("{name}.json"), serde_json::to_vec(&r.json).unwrap()),
    ]
}

/// The JSON form of a report alone (it lists every power's entropy): the orders cases check the
/// orders, which one form of the report shows as well as three.
fn json_of(name: &str, r: &crate::verify_tamper::Report) -> Files {
    vec![(format!("{name}.json"), serde_json::to_vec(&r.json).unwrap())]
}

/// The corpus: ulm-1805's report mail and its plain tamperings (a line end, a die, the header, a
/// roll line, the anchor); every ruleset's report with each tampering of the dice issue (an invented
/// label, a key the kind lacks, a place off the map, a roll line deleted or moved, a forged decision
/// in the JSON and in the text); a GITM report with the sealed list published and one with a face
/// changed; a pbem-dice/v2 report with the closing mail and the acknowledgement of the orders that
/// stood, of orders that were replaced, and a closing list changed.
fn corpus() -> (Vec<Case>, Vec<tempfile::TempDir>) {
    let mut cases = Vec::new();
    let mut keep = Vec::new();
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
    let eml = |name: &str, bytes: Vec<u8>| vec![(format!("{name}.eml"), bytes)];
    for (name, bytes, anchor, expected) in [
        ("untouched", mail.clone(), commitment.clone(), "OK"),
        (
            "crlf-to-lf",
            text.replace("\r\n", "\n").into_bytes(),
            commitment.clone(),
            "OK",
        ),
        (
            "face-changed",
            face_changed.clone(),
            commitment.clone(),
            "FAIL",
        ),
        (
            "header-edited",
            text.replacen(seed_line, &other_seed, 1).into_bytes(),
            commitment.clone(),
            "FAIL",
        ),
        (
            "roll-line-deleted",
            text.replacen(&format!("{roll_line}\r\n"), "", 1)
                .into_bytes(),
            commitment.clone(),
            "FAIL",
        ),
        ("another-commitment", mail.clone(), "ab".repeat(32), "FAIL"),
        // Forwarded as an attachment (message/rfc822), as a player hands it to an auditor.
        ("forwarded", forwarded(&mail), commitment.clone(), "OK"),
        (
            "forwarded-face-changed",
            forwarded(&face_changed),
            commitment.clone(),
            "FAIL",
        ),
    ] {
        cases.push(
            Case::new(format!("mail-{name}"), eml(name, bytes), expected).commitment(&anchor),
        );
    }
    // A die changed in the HTML form alone.
    let mut case = Case::new(
        "mail-html-face-changed",
        eml(
            "html-face-changed",
            change_a_face_in_html(&text).into_bytes(),
        ),
        "FAIL",
    )
    .commitment(&commitment);
    case.why = &["the HTML report lists other rolls than the text report"];
    cases.push(case);

    // Every ruleset's tamperings of the dice issue, in the text and the JSON report.
    for (game, turns, turn, power) in [
        ("ulm-1805", 1, 1, "france"),
        ("pog-1914", 1, 1, "allies"),
        ("ngg-smolensk-1812", 2, 2, "french"),
        ("wbts-peninsula-1862", 1, 1, "union"),
        ("gitm-italy-1809", 2, 2, "austria"),
    ] {
        let (base, tampered) = crate::verify_tamper::tamperings(game, turns, turn, power);
        let name = format!("{game}-untouched");
        cases.push(Case::new(&name, forms_of(&name, &base), "OK"));
        // Written before pbem bound its texts to its rolls: no template, read by the phrases.
        let mut old = base.copy();
        old.unbind();
        let name = format!("{game}-without-templates");
        cases.push(Case::new(&name, forms_of(&name, &old), "OK"));
        // The text report alone: checked by its phrases, and both say what they could not check.
        let name = format!("{game}-text-alone");
        let mut case = Case::new(
            &name,
            vec![(format!("{name}.txt"), base.text.clone().into_bytes())],
            "OK",
        );
        case.why = &["not checked: the text report carries no templates"];
        cases.push(case);
        // The orders the power sent (the demo's), as a file: the entropy listed is their line's.
        // Under pbem-dice/v1 the report lists no digest of the orders: both say they were not
        // checked, their entropy alone was.
        let orders_why: &'static [&'static str] = if base.text.contains("\npbem-dice/v1\n") {
            &["not checked: the orders that stood for"]
        } else {
            &[]
        };
        let orders = demo_orders(game, turn, power);
        let name = format!("{game}-orders");
        let mut case = Case::new(&name, json_of(&name, &base), "OK").with(
            "orders",
            &format!("{name}-sent.txt"),
            orders.clone(),
        );
        case.why = orders_why;
        cases.push(case);
        // And as a mail: 8bit, quoted-printable in ISO-8859-1, or a base64 attachment.
        let name = format!("{game}-orders-mail");
        let latin1 = orders.chars().all(|c| u32::from(c) < 256);
        let mail = match game {
            "pog-1914" | "gitm-italy-1809" if latin1 => latin1_quoted_printable_mail(&orders),
            "ngg-smolensk-1812" | "wbts-peninsula-1862" => base64_attachment_mail(&orders),
            _ => plain_mail(&orders),
        };
        let mut case = Case::new(&name, json_of(&name, &base), "OK").with(
            "orders",
            &format!("{name}-sent.eml"),
            mail,
        );
        case.why = orders_why;
        cases.push(case);
        if game == "ulm-1805" {
            cases.extend(ulm_orders_cases(&base, &orders));
            // The text report forwarded inline by a client that writes format=flowed.
            let name = "ulm-1805-text-forwarded-flowed";
            cases.push(Case::new(
                name,
                vec![(
                    format!("{name}.eml"),
                    crate::support::flowed_forward(&base.text),
                )],
                "OK",
            ));
        }
        if game == "gitm-italy-1809" {
            // A player of a power with several (`player eugene`): his entropy is listed as
            // `france.eugene`'s.
            let name = "gitm-orders-of-a-player";
            cases.push(Case::new(name, json_of(name, &base), "OK").with(
                "orders",
                &format!("{name}-sent.txt"),
                demo_orders(game, turn, "france.eugene"),
            ));
        }
        for t in tampered {
            let name = format!("{game}-{}", t.name);
            let mut case = Case::new(&name, forms_of(&name, &t.report), "FAIL");
            if let Some((option, anchor)) = t.report.anchor() {
                case = case.with(option, &format!("{name}-{option}.eml"), anchor);
            }
            case.why = t.why;
            cases.push(case);
        }
    }

    // GITM's sealed rolls, published by `pbem unseal`.
    let (sealed_dir, sealed_game) = resolved_in_temp(SCENARIOS[4]);
    pbem()
        .args(["unseal", "--turn", "1", "--force"])
        .arg(&sealed_game)
        .assert()
        .success();
    let list = fs::read_to_string(sealed_game.join("unsealed/1.txt")).unwrap();
    let report = first_report_mail(&sealed_game, 1);
    let forged = change_a_face(&list).expect("a sealed roll in the list");
    for (name, list, expected) in [
        ("sealed", list.clone(), "OK"),
        ("sealed-forged", forged, "FAIL"),
    ] {
        cases.push(
            Case::new(
                name,
                eml(&format!("{name}-report"), report.clone()),
                expected,
            )
            .with("sealed", &format!("{name}.txt"), list),
        );
    }
    keep.push(sealed_dir);

    // pbem-dice/v2: the closing mail and the acknowledgements of two submissions of France, the
    // second standing.
    let (v2_dir, v2) = v2_game_with_two_submissions();
    let report = crate::support::read_outbox(v2.join("mail/outbox/t0001-report-france.eml"));
    let closing = fs::read_to_string(v2.join("mail/outbox/t0001-closing-france.eml")).unwrap();
    let acks: Vec<String> = crate::support::acks(&v2)
        .into_iter()
        .filter(|(n, _)| n.contains("-ack-france-"))
        .map(|(_, m)| m)
        .collect();
    let (stood, replaced): (Vec<&String>, Vec<&String>) = acks
        .iter()
        .partition(|m| m.contains("These orders now stand"));
    let (stood, replaced) = (stood[0].clone(), replaced[0].clone());
    let powers = closing
        .lines()
        .find(|l| l.contains("power france: orders "))
        .unwrap();
    let changed_closing = closing.replacen(powers, &powers.replacen("orders ", "orders 0", 1), 1);
    for (name, ack, close, expected) in [
        ("v2-ack-stood", stood.clone(), closing.clone(), "OK"),
        ("v2-ack-replaced", replaced, closing.clone(), "FAIL"),
        ("v2-closing-changed", stood, changed_closing, "FAIL"),
    ] {
        cases.push(
            Case::new(
                name,
                eml(&format!("{name}-report"), report.clone()),
                expected,
            )
            .with("ack", &format!("{name}-ack.eml"), ack)
            .with("close", &format!("{name}-close.eml"), close),
        );
    }
    keep.push(v2_dir);
    let (corpus_dir, corpus_cases) = v2_orders_cases();
    cases.extend(corpus_cases);
    keep.push(corpus_dir);
    let (rules_dirs, rules_cases) = rules_cases();
    cases.extend(rules_cases);
    keep.extend(rules_dirs);
    (cases, keep)
}

/// The rules fixed with the commitment (`game::rules_fixed`): an honest turn against its
/// announcement and its previous report, and turns resolved under rules the referee changed after
/// the commitment (his own scheme.toml forged to match) against the same anchors.
fn rules_cases() -> (Vec<tempfile::TempDir>, Vec<Case>) {
    use crate::rules_fixed::{forged_rules_game, new_game};
    let announcement =
        |game: &Path| fs::read(game.join("mail/outbox/t0001-announcement-france.eml")).unwrap();
    let report = |game: &Path, turn: u32| {
        crate::support::read_outbox(game.join(format!("mail/outbox/t{turn:04}-report-france.eml")))
    };
    // The page's verdict on a report that checks out names no check: only pbem verify's does.
    let changed: &'static [&'static str] = &["changed after its commitment"];
    let held: &'static [&'static str] = &[];
    let (honest_dir, honest) = new_game(&crate::rulesets::ULM);
    for _ in 0..2 {
        pbem()
            .args(["resolve", "--early"])
            .arg(&honest)
            .assert()
            .success();
    }
    let (forged1_dir, forged1) = forged_rules_game(1);
    let (forged2_dir, forged2) = forged_rules_game(2);
    let mut cases = Vec::new();
    for (name, game, turn, anchor, expected, why) in [
        (
            "rules-held-announcement",
            &honest,
            1,
            "announcement",
            "OK",
            held,
        ),
        ("rules-held-previous", &honest, 2, "previous", "OK", held),
        (
            "rules-forged-announcement",
            &forged1,
            1,
            "announcement",
            "FAIL",
            changed,
        ),
        (
            "rules-forged-previous",
            &forged2,
            2,
            "previous",
            "FAIL",
            changed,
        ),
    ] {
        let anchor_bytes = match anchor {
            "announcement" => announcement(game),
            _ => report(game, turn - 1),
        };
        let mut case = Case::new(
            name,
            vec![(format!("{name}.eml"), report(game, turn))],
            expected,
        )
        .with(anchor, &format!("{name}-{anchor}.eml"), anchor_bytes);
        case.why = why;
        cases.push(case);
    }
    // An honest rekey of turn 2 that changed the rules: the previous report gives the old
    // commitment, which fails the report, and says nothing of the new rules.
    let (rekeyed_dir, rekeyed) = new_game(&crate::rulesets::ULM);
    pbem()
        .args(["resolve", "--early"])
        .arg(&rekeyed)
        .assert()
        .success();
    let mut tables = fs::read(rekeyed.join("tables.toml")).unwrap();
    tables.extend_from_slice(b"\n# a house rule from turn 2\n");
    fs::write(rekeyed.join("tables.toml"), tables).unwrap();
    pbem()
        .arg("rekey")
        .arg(&rekeyed)
        .args(["--reason", "a house rule from turn 2"])
        .assert()
        .success();
    pbem()
        .args(["resolve", "--early"])
        .arg(&rekeyed)
        .assert()
        .success();
    let mut case = Case::new(
        "rules-rekeyed-previous",
        vec![("rules-rekeyed-previous.eml".into(), report(&rekeyed, 2))],
        "FAIL",
    )
    .with(
        "previous",
        "rules-rekeyed-previous-previous.eml",
        report(&rekeyed, 1),
    );
    case.why = &["the dice secret was changed after it was announced"];
    cases.push(case);
    let mut dirs = vec![honest_dir, forged1_dir, forged2_dir, rekeyed_dir];
    for (name, forged, expected, why) in [
        ("rules-held-ack", false, "OK", held),
        ("rules-forged-ack", true, "FAIL", changed),
    ] {
        let (dir, game, ack) = crate::rules_fixed::acknowledged_game(forged);
        let mut case = Case::new(
            name,
            vec![(format!("{name}.eml"), report(&game, 1))],
            expected,
        )
        .with("ack", &format!("{name}-ack.eml"), ack);
        case.why = why;
        cases.push(case);
        dirs.push(dir);
    }
    (dirs, cases)
}

/// The demo's orders of `power` for `turn` of `game` (orders/ in the repository), as sent.
fn demo_orders(game: &str, turn: u32, power: &str) -> String {
    fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("orders/{game}/{turn}/{power}.txt")),
    )
    .unwrap()
}

const NO_REASON: &[&str] = &[];
const ENTROPY_CHANGED: &[&str] = &["is not the one of your orders' entropy line"];
const NO_ORDERS: &[&str] = &["no orders found in this mail"];

/// ulm-1805's turn-1 report of France (pbem-dice/v1: the entropy of the orders is checked) with
/// France's orders changed by one byte, of turn 2, Austria's (listed too), and a mail without orders.
fn ulm_orders_cases(base: &crate::verify_tamper::Report, orders: &str) -> Vec<Case> {
    let one_byte = orders.replacen("entropy Boulogne", "entropy boulogne", 1);
    assert_ne!(one_byte, orders);
    let mut out = Vec::new();
    for (name, file, bytes, expected, why) in [
        (
            "ulm-orders-one-byte",
            "txt",
            one_byte.into_bytes(),
            "FAIL",
            ENTROPY_CHANGED,
        ),
        (
            "ulm-orders-of-turn-2",
            "txt",
            demo_orders("ulm-1805", 2, "france").into_bytes(),
            "FAIL",
            ENTROPY_CHANGED,
        ),
        (
            "ulm-orders-of-austria",
            "txt",
            demo_orders("ulm-1805", 1, "austria").into_bytes(),
            "OK",
            NO_REASON,
        ),
        (
            "ulm-orders-mail-without-orders",
            "eml",
            plain_mail("Dear referee, my orders follow tomorrow.\n"),
            "FAIL",
            NO_ORDERS,
        ),
    ] {
        let mut case = Case::new(name, json_of(name, base), expected).with(
            "orders",
            &format!("{name}-orders.{file}"),
            bytes,
        );
        case.why = why;
        out.push(case);
    }
    out
}

/// `text` as a player's client mails it: text/plain, UTF-8, 8bit, CRLF.
fn plain_mail(text: &str) -> Vec<u8> {
    crate::support::eml(
        "france@example.org",
        "Sat, 5 Dec 2026 18:00:00 +0100",
        "sent@example.org",
        text,
    )
    .into_bytes()
}

/// `text` mailed in ISO-8859-1, quoted-printable.
fn latin1_quoted_printable_mail(text: &str) -> Vec<u8> {
    let bytes: Vec<u8> = text
        .chars()
        .map(|c| u8::try_from(u32::from(c)).expect("a Latin-1 character"))
        .collect();
    quoted_printable_mail(&bytes, "ISO-8859-1")
}

/// `bytes` (text in `charset`, LF line ends) mailed quoted-printable: every byte but printable ASCII
/// as `=XX`, lines of at most 76 characters with soft breaks.
fn quoted_printable_mail(bytes: &[u8], charset: &str) -> Vec<u8> {
    let mut body = String::new();
    for line in bytes.split(|b| *b == b'\n') {
        let mut out = String::new();
        for &b in line {
            let piece = if (b' '..=b'~').contains(&b) && b != b'=' {
                char::from(b).to_string()
            } else {
                format!("={b:02X}")
            };
            if out.len() + piece.len() > 75 {
                body.push_str(&out);
                body.push_str("=\r\n");
                out.clear();
            }
            out.push_str(&piece);
        }
        body.push_str(&out);
        body.push_str("\r\n");
    }
    format!(
        "From: player@example.org\r\nTo: referee@referee.example\r\nSubject: orders\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset={charset}\r\n\
         Content-Transfer-Encoding: quoted-printable\r\n\r\n{body}"
    )
    .into_bytes()
}

/// The charsets pbem's mail reader decodes, one label of each (mail-parser's single-byte tables and
/// UTF-16; a multi-byte one, which pbem's build reads as UTF-8): France's orders with a comment of
/// every byte from 0x80 to 0xFF in each, quoted-printable (UTF-16: a text in it, with and without a
/// byte-order mark, in base64). Not the orders that stood: both tools must say so with the same digest of what
/// they read.
fn charset_cases(report_files: &dyn Fn(&str) -> Files) -> Vec<Case> {
    let head = "game ulm-1805\npower france\npassword eagle-1805\nturn 1\n# ";
    let tail = "\nmove FR-I Ulm\n";
    let mut cases = Vec::new();
    for charset in [
        "windows-1250",
        "windows-1251",
        "windows-1252",
        "windows-1253",
        "windows-1254",
        "windows-1255",
        "windows-1256",
        "windows-1257",
        "windows-1258",
        "iso-8859-2",
        "iso-8859-3",
        "iso-8859-4",
        "iso-8859-5",
        "iso-8859-6",
        "iso-8859-7",
        "iso-8859-8",
        "iso-8859-9",
        "iso-8859-10",
        "iso-8859-13",
        "iso-8859-14",
        "iso-8859-15",
        "iso-8859-16",
        "koi8-r",
        "koi8-u",
        "macintosh",
        "tis-620",
        "us-ascii",
        "shift_jis",
    ] {
        let mut bytes = head.as_bytes().to_vec();
        bytes.extend(0x80..=0xFFu8);
        bytes.extend(tail.as_bytes());
        let name = format!("v2-orders-charset-{charset}");
        cases.push(Case::new(&name, report_files(&name), "FAIL").with(
            "orders",
            &format!("{name}.eml"),
            quoted_printable_mail(&bytes, charset),
        ));
    }
    let text = format!("{head}Grüße, привет, ελλάδα{tail}");
    for (charset, bom, little) in [
        ("utf-16", true, false),
        ("utf-16", false, true),
        ("utf-16le", false, true),
        ("utf-16be", false, false),
    ] {
        let mut bytes = Vec::new();
        if bom {
            bytes.extend(if little { [0xFF, 0xFE] } else { [0xFE, 0xFF] });
        }
        for unit in text.encode_utf16() {
            bytes.extend(if little {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            });
        }
        let name = format!(
            "v2-orders-charset-{charset}{}",
            if bom { "-bom" } else { "" }
        );
        cases.push(Case::new(&name, report_files(&name), "FAIL").with(
            "orders",
            &format!("{name}.eml"),
            base64_mail(&bytes, charset),
        ));
    }
    cases
}

/// `bytes` (text in `charset`) mailed in base64, as clients send UTF-16 (a quoted-printable line end
/// would be bytes of the text, which mail-parser and postal-mime end differently).
fn base64_mail(bytes: &[u8], charset: &str) -> Vec<u8> {
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    let lines: String = encoded
        .as_bytes()
        .chunks(76)
        .map(|c| format!("{}\r\n", std::str::from_utf8(c).unwrap()))
        .collect();
    format!(
        "From: player@example.org\r\nTo: referee@referee.example\r\nSubject: orders\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset={charset}\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{lines}"
    )
    .into_bytes()
}

/// `text` mailed as a base64 UTF-8 attachment `orders.txt` below a body that holds no orders.
fn base64_attachment_mail(text: &str) -> Vec<u8> {
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    let lines: String = encoded
        .as_bytes()
        .chunks(76)
        .map(|c| format!("{}\r\n", std::str::from_utf8(c).unwrap()))
        .collect();
    format!(
        "From: player@example.org\r\nTo: referee@referee.example\r\nSubject: orders\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n\
         --b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy orders are attached.\r\n\
         --b1\r\nContent-Type: text/plain; charset=utf-8; name=\"orders.txt\"\r\n\
         Content-Disposition: attachment; filename=\"orders.txt\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{lines}--b1--\r\n"
    )
    .into_bytes()
}

/// ulm-1805 under pbem-dice/v2 with the thirteen mails of tests/corpus/ (every client's shape:
/// format=flowed, quoted-printable, base64, Latin-1 8bit, Windows-1252 HTML, attachments, a reply
/// below a quote) ingested and the turn resolved: each power's last mail stands. Every one of them
/// as the orders a player gives, against France's JSON report (whose closing list holds every power's
/// D_p): OK when its orders are those that stood, else FAIL with the digests both tools compute.
/// Austria's standing orders mailed again in ISO-8859-1 quoted-printable, as a base64 attachment and
/// as a file are OK; the file changed by one byte is not.
fn v2_orders_cases() -> (tempfile::TempDir, Vec<Case>) {
    use crate::support::{game, set_dice};
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let (t, game) = game();
    set_dice(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    let mut names: Vec<String> = fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".eml"))
        .collect();
    names.sort();
    let mut ingest = pbem();
    ingest.arg("ingest").arg(&game);
    for n in &names {
        ingest.arg(corpus.join(n));
    }
    ingest.assert().success();
    pbem().arg("resolve").arg(&game).assert().success();
    // France's JSON report: its closing list holds every power's D_p.
    let report = fs::read(game.join("turns/1/reports/france.json")).unwrap();
    // The mails that stand, by their Received headers (mail_corpus.rs).
    let expected_text =
        |case: &str| fs::read_to_string(corpus.join(format!("{case}.expected"))).unwrap();
    let stood: Vec<String> = [
        "webmail-html-only-base64",
        "outlook-alternative-latin1",
        "notepad-ansi-attachment",
        "android-base64-crlf",
    ]
    .iter()
    .map(|c| expected_text(c))
    .collect();
    let mut cases = Vec::new();
    let report_files = |name: &str| vec![(format!("{name}-report.json"), report.clone())];
    for n in &names {
        let case = n.trim_end_matches(".eml");
        let verdict = if stood.contains(&expected_text(case)) {
            "OK"
        } else {
            "FAIL"
        };
        let name = format!("v2-orders-{case}");
        cases.push(Case::new(&name, report_files(&name), verdict).with(
            "orders",
            &format!("{name}.eml"),
            fs::read(corpus.join(n)).unwrap(),
        ));
    }
    let austria = expected_text("outlook-alternative-latin1");
    let one_byte = austria.replacen("Ulm", "Ulm!", 1);
    for (name, file, bytes, verdict) in [
        (
            "v2-orders-latin1-qp",
            "eml",
            latin1_quoted_printable_mail(&austria),
            "OK",
        ),
        (
            "v2-orders-base64-attachment",
            "eml",
            base64_attachment_mail(&austria),
            "OK",
        ),
        ("v2-orders-file", "txt", austria.clone().into_bytes(), "OK"),
        ("v2-orders-one-byte", "txt", one_byte.into_bytes(), "FAIL"),
    ] {
        cases.push(Case::new(name, report_files(name), verdict).with(
            "orders",
            &format!("{name}-orders.{file}"),
            bytes,
        ));
    }
    cases.extend(charset_cases(&report_files));
    (t, cases)
}

/// `s`'s demo resolved in a new temporary folder of its own (the rulesets' shared one is not to be
/// changed): (tempdir, game folder).
fn resolved_in_temp(s: &Scenario) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    pbem()
        .args([
            "demo",
            "--game",
            s.id,
            "--turns",
            &s.turns.to_string(),
            "--dir",
        ])
        .arg(dir.path().join("d"))
        .assert()
        .success();
    let game = dir.path().join("d").join(s.id);
    (dir, game)
}

/// The first report mail of turn `turn` in the outbox, by name.
fn first_report_mail(game: &Path, turn: u32) -> Vec<u8> {
    let mut mails: Vec<PathBuf> = fs::read_dir(game.join("mail/outbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("t{turn:04}-report-"))
        })
        .collect();
    mails.sort();
    crate::support::read_outbox(&mails[0])
}

/// ulm-1805 under pbem-dice/v2, France's orders sent twice (each with its entropy line), resolved.
fn v2_game_with_two_submissions() -> (tempfile::TempDir, PathBuf) {
    use crate::support::{eml, game, header, set_dice, write, FRANCE_PW};
    let (t, game) = game();
    set_dice(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    let sent = |name: &str, at: &str, id: &str, entropy: &str| {
        write(
            t.path(),
            name,
            eml(
                "france@example.org",
                at,
                id,
                &format!("{}entropy {entropy}\n", header("france", FRANCE_PW, 1)),
            ),
        )
    };
    let first = sent(
        "first.eml",
        "Sat, 5 Dec 2026 18:00:00 +0100",
        "fr-1@example.org",
        "first",
    );
    let last = sent(
        "last.eml",
        "Sat, 5 Dec 2026 19:00:00 +0100",
        "fr-2@example.org",
        "second",
    );
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&first)
        .arg(&last)
        .assert()
        .success();
    pbem().arg("resolve").arg(&game).assert().success();
    (t, game)
}

#[test]
fn the_page_and_pbem_verify_give_the_same_verdict_on_a_corpus_of_tamperings() {
    let Some(browser) = chromium() else {
        return;
    };
    let server = Server::start();
    let (cases, _keep) = corpus();
    let list: Vec<(String, Files)> = cases
        .iter()
        .map(|c| {
            (
                c.query(),
                c.reports.iter().chain(&c.files).cloned().collect(),
            )
        })
        .collect();
    let verdicts = server.run_list(&browser, &list);
    for (c, page) in cases.iter().zip(&verdicts) {
        let cli = c.cli_verdict(server.dir.path());
        assert!(
            cli.starts_with(&format!("{} ", c.expected)),
            "{}: pbem verify says {cli}",
            c.name
        );
        assert!(
            page.starts_with(c.expected) && page[c.expected.len()..].starts_with([':', ',']),
            "{}: the page says {page}\npbem verify says {cli}",
            c.name
        );
        // With the player's orders, both give the same problems word for word (D_p, E_p and all).
        if c.given.iter().any(|(k, _)| *k == "orders") {
            for problem in cli.lines().filter_map(|l| l.strip_prefix("MISMATCH: ")) {
                assert!(
                    page.contains(problem),
                    "{}: pbem verify says {problem:?}, the page does not:\n{page}",
                    c.name
                );
            }
        }
        assert!(
            c.why.is_empty() || c.why.iter().any(|w| page.contains(w) && cli.contains(w)),
            "{}: expected one of {:?} from both:\nthe page: {page}\npbem verify: {cli}",
            c.name,
            c.why
        );
    }
}

#[test]
fn the_page_names_no_other_origin_and_loads_nothing_from_one() {
    // The vendored noble-curves' licence names its author's site, in a comment.
    let page = pbem::verify_page::verify_page()
        .replace("Copyright (c) 2022 Paul Miller (https://paulmillr.com)", "");
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
        *pbem::verify_page::verify_page_for(SCENARIOS[0].ruleset)
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
    let mut cases = Vec::new();
    let mut expected = Vec::new();
    for (name, game) in [("v2", &closed), ("v2-beacon", &beacon)] {
        let mail = read_outbox_string(game.join("mail/outbox/t0001-report-france.eml"));
        assert!(mail.contains("pbem-dice/v2"), "{name}");
        let commitment = fs::read_to_string(game.join("turns/1/commitment")).unwrap();
        let commitment = commitment.trim().to_string();
        let tampered = change_a_face(&mail).expect("a roll in the text part");
        for (kind, eml, verdict) in [
            ("untouched", mail, "OK"),
            ("face-changed", tampered, "FAIL"),
        ] {
            let file = format!("{name}-{kind}.eml");
            assert_eq!(
                cli_verdict(eml.as_bytes(), &commitment),
                verdict,
                "{name} {kind}: pbem verify"
            );
            cases.push((
                format!("eml={file}&commitment={commitment}"),
                vec![(file, eml.into_bytes())],
            ));
            expected.push((format!("{name} {kind}"), verdict, ""));
        }
    }
    // The beacon's signature: a referee who gives another signature (here quicknet's own, of another
    // round) and makes the header, its digest and the seed agree with it. The report's events are
    // left out, so that only the signature can fail.
    let json = fs::read_to_string(beacon.join("turns/1/reports/france.json")).unwrap();
    for (kind, signature, verdict, why) in [
        ("beacon-genuine", SIGNATURE, "OK", ""),
        (
            "beacon-forged",
            ROUND_123_SIGNATURE,
            "FAIL",
            "the beacon does not check out: the signature is not drand quicknet's for round",
        ),
    ] {
        let report = with_beacon_signature(&json, signature);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        fs::write(&path, &report).unwrap();
        let out = pbem().arg("verify").arg(&path).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.success(), verdict == "OK", "{kind}: {stdout}");
        assert!(stdout.contains(why), "{kind}: {stdout}");
        let file = format!("{kind}.json");
        cases.push((format!("eml={file}"), vec![(file, report.into_bytes())]));
        expected.push((kind.to_string(), verdict, why));
    }
    let verdicts = server.run_list(&browser, &cases);
    for ((name, verdict, why), page) in expected.iter().zip(&verdicts) {
        assert!(page.starts_with(verdict), "{name}: {page}");
        assert!(page.contains(why), "{name}: {page}");
    }
}

/// drand quicknet's signature of round 123: a true signature, of another round than the game's.
const ROUND_123_SIGNATURE: &str = "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92";

/// A JSON report of a game with a beacon, its events left out, whose header gives `signature` for
/// its round: the seed made again from it (`B_t = u64be(round) || SHA-256(signature)`) and the
/// header's digest made again, as a referee who forged the beacon would.
fn with_beacon_signature(json: &str, signature: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    let text = v["dice"]["text"].as_str().unwrap().to_string();
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}: ")))
            .unwrap()
            .to_string()
    };
    let (game, turn) = (field("game"), field("turn").parse::<u32>().unwrap());
    let secret = pbem::dice::from_hex(&field("secret")).unwrap();
    let close = pbem::dice::from_hex(&field("close")).unwrap();
    let beacon = field("beacon");
    let round: u64 = beacon.split_whitespace().nth(2).unwrap().parse().unwrap();
    let mut b = round.to_be_bytes().to_vec();
    b.extend_from_slice(&Sha256::digest(hex::decode(signature).unwrap()));
    let seed = pbem::dice::v2::turn_seed(&game, turn, &secret, &close, &b);
    let text = text
        .replace(
            &format!("beacon: {beacon}"),
            &format!("beacon: drand-quicknet round {round} signature {signature}"),
        )
        .replace(
            &format!("seed: {}", field("seed")),
            &format!("seed: {}", pbem::dice::to_hex(&seed)),
        );
    v["dice"]["digest"] = serde_json::Value::from(hex::encode(Sha256::digest(text.as_bytes())));
    v["dice"]["text"] = serde_json::Value::from(text);
    v["events"] = serde_json::json!([]);
    v["decisions"] = serde_json::json!([]);
    serde_json::to_string(&v).unwrap()
}

/// The HTML inside the list of id `id` (`reasons`, `rolls`) in a dumped DOM.
fn list_of(dom: &str, id: &str) -> String {
    let Some(at) = dom.find(&format!("id=\"{id}\"")) else {
        panic!("no #{id} in the page")
    };
    let after = &dom[at..];
    after[..after.find("</ul>").unwrap()].to_string()
}

/// The page cites the grammar of labels the player holds, the one written into the page itself,
/// not `schema/dice-labels.json`, a file of pbem's source he was never sent.
#[test]
fn the_page_cites_the_grammar_of_labels_written_into_it() {
    let Some(browser) = chromium() else {
        return;
    };
    let server = Server::start();
    let (mail, commitment, _) = report_and_tampered(&crate::rulesets::ULM);
    server.put("report.eml", &mail);
    let (dom, _) = server.open_dom(&browser, &format!("eml=report.eml&commitment={commitment}"));
    assert!(text_of(&dom, "verdict").starts_with("OK: "), "{dom}");
    let reasons = list_of(&dom, "reasons");
    assert!(
        reasons.contains("give for its event (the grammar of labels written into this page, its dice-labels block)"),
        "{reasons}"
    );
    assert!(!reasons.contains("schema/dice-labels.json"), "{reasons}");
}

/// A report that does not check out tells the player what to do, as `pbem verify` does; one that
/// checks out has no such words.
#[test]
fn the_page_tells_the_player_what_to_do_when_a_report_fails() {
    let Some(browser) = chromium() else {
        return;
    };
    let server = Server::start();
    let (mail, commitment, tampered) = report_and_tampered(&crate::rulesets::POG);
    server.put("report.eml", &mail);
    server.put("tampered.eml", &tampered);
    let (dom, _) = server.open_dom(&browser, &format!("eml=report.eml&commitment={commitment}"));
    assert!(text_of(&dom, "verdict").starts_with("OK: "), "{dom}");
    assert_eq!(text_of(&dom, "advice"), "");
    let (dom, _) = server.open_dom(
        &browser,
        &format!("eml=tampered.eml&commitment={commitment}"),
    );
    assert!(text_of(&dom, "verdict").starts_with("FAIL: "), "{dom}");
    let advice = text_of(&dom, "advice");
    assert!(
        advice.starts_with("What to do: check that you gave the report as your mail program saved it")
            && advice.contains("send the referee and the other players the reasons marked MISMATCH and WRONG with the header's SHA-256 "),
        "{advice}"
    );
}
