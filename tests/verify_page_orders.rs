//! verify.html reads every orders mail `pbem verify --orders` reads, and reads it alike: each mail of
//! tests/corpus/ (every client's shape) and France's orders in every wrapping the ingest tests feed
//! pbem (`support::wrapped`: forwarded by each client or as an attachment, a greeting and a
//! sign-off, a reply's original, a body whose headers lie, UTF-16 with and without its mark), given
//! with France's JSON report of a turn under pbem-dice/v1 (the entropy of the orders checked) and
//! under pbem-dice/v2 (their digest D_p in the closing list checked). For each, the page, run in
//! headless Chromium, gives pbem verify's verdict and its problems word for word (the digests they
//! name and the files' names the same), and both give the verdict what the mail holds says.
//!
//! Chromium is required: the test fails when it is missing, unless PBEM_SKIP_BROWSER_TESTS is set
//! (`map_in_browser::chromium`), which CI never sets.

use crate::map_in_browser::chromium;
use crate::support::wrapped::{wrappings, Holds};
use crate::support::{eml, game, header, pbem, set_dice, write, FRANCE_PW};
use crate::verify_page::{Files, Server};

use std::fs;
use std::path::{Path, PathBuf};

/// France's orders: the ones that stand in both games, and the ones every wrapping wraps.
fn france_orders() -> String {
    format!(
        "{}entropy the eagle flies at dawn\nattack Ulm\n",
        header("france", FRANCE_PW, 1)
    )
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// The mails of tests/corpus/, by name, each with the orders pbem reads in it (its `.expected`).
fn corpus() -> Vec<(String, Vec<u8>, String)> {
    let mut names: Vec<String> = fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".eml"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let case = n.trim_end_matches(".eml").to_string();
            let mail = fs::read(corpus_dir().join(&n)).unwrap();
            let expected =
                fs::read_to_string(corpus_dir().join(format!("{case}.expected"))).unwrap();
            (case, mail, expected)
        })
        .collect()
}

/// The value of the first `word` line of an orders text.
fn line_of<'a>(orders: &'a str, word: &str) -> Option<&'a str> {
    orders
        .lines()
        .find_map(|l| l.trim().strip_prefix(word))
        .map(str::trim)
}

/// What a resolved turn gives the test: France's JSON report (the entropy of every power, and under
/// v2 the closing list of their D_p), under v2 France's closing mail, and the orders that stood for
/// each power.
type Resolved = (
    tempfile::TempDir,
    Vec<u8>,
    Option<Vec<u8>>,
    Vec<(String, String)>,
);

/// ulm-1805 under `scheme` with every mail of the corpus ingested and France's orders last, the turn
/// resolved.
fn resolved(scheme: &str) -> Resolved {
    let (t, game) = game();
    if scheme == "v2" {
        set_dice(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    }
    let standing = write(
        t.path(),
        "standing.eml",
        eml(
            "france@example.org",
            "Sun, 6 Dec 2026 19:00:00 +0100",
            "standing@example.org",
            &france_orders(),
        ),
    );
    let mut ingest = pbem();
    ingest.arg("ingest").arg(&game);
    for (case, _, _) in corpus() {
        ingest.arg(corpus_dir().join(format!("{case}.eml")));
    }
    ingest.arg(&standing).assert().success();
    pbem().arg("resolve").arg(&game).assert().success();
    let report = fs::read(game.join("turns/1/reports/france.json")).unwrap();
    let closing = (scheme == "v2")
        .then(|| fs::read(game.join("mail/outbox/t0001-closing-france.eml")).unwrap());
    // The last of each power's by their Received headers (tests/mail_corpus.rs), France's its own.
    let stood: Vec<(String, String)> = [
        ("austria", "outlook-alternative-latin1"),
        ("britain", "notepad-ansi-attachment"),
        ("russia", "android-base64-crlf"),
    ]
    .iter()
    .map(|(power, case)| {
        let text = fs::read_to_string(corpus_dir().join(format!("{case}.expected"))).unwrap();
        (power.to_string(), text)
    })
    .chain([("france".to_string(), france_orders())])
    .collect();
    for (power, text) in &stood {
        let filed = fs::read_to_string(game.join(format!("orders/1/{power}.txt"))).unwrap();
        assert_eq!(
            line_of(&filed, "entropy "),
            line_of(text, "entropy "),
            "{scheme}: the orders that stood for {power} are not those the test expects"
        );
    }
    (t, report, closing, stood)
}

/// One orders mail given with one report: what both must say of it.
struct Case {
    name: String,
    report: String,
    orders: String,
    /// The closing mail (v2).
    close: Option<String>,
    expected: &'static str,
}

impl Case {
    /// The page's query: `pbem verify`'s options as its parameters.
    fn query(&self) -> String {
        let close = self.close.as_ref().map(|c| format!("&close={c}"));
        format!(
            "eml={}&orders={}{}",
            self.report,
            self.orders,
            close.unwrap_or_default()
        )
    }
}

/// What `pbem verify` says of a case: its verdict (OK when it exits 0) and its problems (its
/// MISMATCH lines, or the error it stopped at), files named as the page names them.
fn cli(dir: &Path, c: &Case) -> (String, Vec<String>) {
    let out = pbem()
        .arg("verify")
        .arg(dir.join(&c.report))
        .arg("--orders")
        .arg(dir.join(&c.orders))
        .args(c.close.iter().flat_map(|n| ["--close".into(), dir.join(n)]))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let shown = format!("{}/", dir.display());
    let mut problems: Vec<String> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("MISMATCH: "))
        .map(|l| l.replace(&shown, ""))
        .collect();
    problems.extend(
        stderr
            .lines()
            .filter_map(|l| l.strip_prefix("error: "))
            .map(|l| l.replace(&shown, "")),
    );
    problems.sort();
    let verdict = if out.status.success() { "OK" } else { "FAIL" };
    (verdict.to_string(), problems)
}

/// The page's verdict on a case (`#case-N`: the verdict, then each problem after ` | `, then the
/// notes) and its problems.
fn page(text: &str) -> (String, Vec<String>) {
    let mut parts = text.split(" | ");
    let verdict = parts.next().unwrap_or("");
    let verdict = if verdict.starts_with("OK") {
        "OK"
    } else {
        "FAIL"
    };
    let mut problems: Vec<String> = parts
        .filter(|p| !p.starts_with("note: "))
        .map(|p| {
            p.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
        })
        .collect();
    problems.sort();
    (verdict.to_string(), problems)
}

#[test]
fn the_page_reads_every_orders_mail_pbem_verify_reads_under_v1_and_v2() {
    let Some(browser) = chromium() else {
        return;
    };
    let server = Server::start();
    let mut cases: Vec<Case> = Vec::new();
    let mut files: Vec<Files> = Vec::new();
    let mut keep = Vec::new();
    let orders = france_orders();
    for scheme in ["v1", "v2"] {
        let (t, report, closing, stood) = resolved(scheme);
        keep.push(t);
        let report_name = format!("{scheme}-report.json");
        let stood_for = |text: &str| {
            let power = line_of(text, "power ").unwrap_or("").to_ascii_lowercase();
            stood
                .iter()
                .find(|(p, _)| *p == power)
                .map(|(_, t)| t.clone())
        };
        // What the report says of orders pbem reads as `text`: v1 checks their entropy, v2 them.
        let verdict = |text: Option<&str>| {
            let Some(text) = text else { return "FAIL" };
            let Some(stood) = stood_for(text) else {
                return "FAIL";
            };
            let same = match scheme {
                "v1" => line_of(text, "entropy ") == line_of(&stood, "entropy "),
                _ => text == stood,
            };
            if same {
                "OK"
            } else {
                "FAIL"
            }
        };
        let mut mails: Vec<(String, Vec<u8>, &'static str)> = Vec::new();
        for (case, mail, expected) in corpus() {
            mails.push((case, mail, verdict(Some(&expected))));
        }
        for w in wrappings(&orders) {
            let expected = match w.holds {
                Holds::Orders => verdict(Some(&orders)),
                Holds::OrdersAndProse if scheme == "v1" => verdict(Some(&orders)),
                Holds::OrdersAndProse | Holds::Nothing => "FAIL",
            };
            // Saved with LF line ends too, as a mail program on Linux or macOS saves it (a mail
            // whose lines end in CR CR LF would be another).
            let crlf = String::from_utf8_lossy(&w.mail).into_owned();
            if !crlf.contains("\r\r\n") {
                let lf = crlf.replace("\r\n", "\n");
                mails.push((format!("{}-lf", w.name), lf.into_bytes(), expected));
            }
            mails.push((w.name.to_string(), w.mail, expected));
        }
        for (name, mail, expected) in mails {
            let orders_name = format!("{scheme}-{name}.eml");
            let close_name = format!("{scheme}-closing.eml");
            // In the order the page asks for them: the report, the closing mail, the orders.
            let mut given = vec![(report_name.clone(), report.clone())];
            given.extend(closing.iter().map(|c| (close_name.clone(), c.clone())));
            given.push((orders_name.clone(), mail));
            files.push(given);
            cases.push(Case {
                name: format!("{scheme} {name}"),
                report: report_name.clone(),
                orders: orders_name,
                close: closing.as_ref().map(|_| close_name),
                expected,
            });
        }
    }
    let list: Vec<(String, Files)> = cases
        .iter()
        .zip(files)
        .map(|(c, f)| (c.query(), f))
        .collect();
    let verdicts = server.run_list(&browser, &list);
    let mut disagreements = Vec::new();
    for (c, text) in cases.iter().zip(&verdicts) {
        let (cli_verdict, cli_problems) = cli(server.dir.path(), c);
        let (page_verdict, page_problems) = page(text);
        if cli_verdict != c.expected {
            disagreements.push(format!(
                "{}: pbem verify says {cli_verdict} {cli_problems:?}, the mail holds {}",
                c.name, c.expected
            ));
        }
        if (&page_verdict, &page_problems) != (&cli_verdict, &cli_problems) {
            disagreements.push(format!(
                "{}:\n  pbem verify: {cli_verdict} {cli_problems:?}\n  the page:    {page_verdict} {page_problems:?}",
                c.name
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} cases:\n{}",
        disagreements.len(),
        cases.len(),
        disagreements.join("\n")
    );
}
