//! The line and column an answer names are those of the mail its player wrote: orders are read out
//! of the mail cleaned (quotes, the signature, runs of blank lines dropped; `mail::extract`), and
//! every answer, receipt and report names the line of the mail as the player's client shows it,
//! quoting that line with a caret at the column. Orders files placed by hand keep their own lines,
//! and so do the orders of a record written before the mail's lines were kept.

use crate::support;

use std::fs;
use std::path::Path;

use support::*;

const ON_TIME: &str = "Sat, 5 Dec 2026 18:00:00 +0100";

fn ingest(game: &Path, mailbox: &Path) {
    pbem()
        .arg("ingest")
        .arg(game)
        .arg(mailbox)
        .assert()
        .success();
}

fn resolve(game: &Path) {
    pbem().arg("resolve").arg(game).assert().success();
}

/// The answer of the one message ingested.
fn answer(game: &Path) -> String {
    let acks = acks(game);
    assert_eq!(acks.len(), 1, "{acks:?}");
    body_of(&acks[0].1)
}

/// How a diagnostic quotes line `line` of the player's mail with a caret under `caret` at column
/// `column` (annotate-snippets' layout, the gutter as wide as the number).
fn quoted(line: usize, column: usize, text: &str, caret: &str) -> String {
    let n = line.to_string();
    let pad = " ".repeat(n.len());
    format!(
        "{pad}--> your mail \"orders\":{line}:{column}\n{pad} |\n{n} | {text}\n{pad} | {}{caret}",
        " ".repeat(column - 1)
    )
}

/// A plain-text mail from France: a greeting, the header, a refused order above a quoted reply,
/// the quote with its attribution, an order that stands and a refused one below it, a signature.
const PLAIN: &str = "Hello referee,\n\
\n\
here are my orders.\n\
\n\
\n\
game ulm-1805\n\
power france\n\
password eagle-1805\n\
turn 1\n\
move Lannes Stuttgart Ulmm\n\
\n\
On Sat, 5 Dec 2026 at 18:00, Referee <r@x.org> wrote:\n\
> Report of turn 1\n\
> game ulm-1805\n\
\n\
move Ney Donauworth Ulm\n\
attack Munchen\n\
\n\
-- \n\
Jean\n";

/// The line of `mail` that is `text` (1-based).
fn line_of(mail: &str, text: &str) -> usize {
    mail.lines().position(|l| l == text).unwrap() + 1
}

#[test]
fn a_refused_order_is_named_and_quoted_by_the_line_of_the_mail_its_player_wrote() {
    let (t, game) = game();
    let m = eml("france@example.org", ON_TIME, "p1@x", PLAIN);
    ingest(&game, &write(t.path(), "m.eml", m));
    let (ulmm, ney, munchen) = (
        line_of(PLAIN, "move Lannes Stuttgart Ulmm"),
        line_of(PLAIN, "move Ney Donauworth Ulm"),
        line_of(PLAIN, "attack Munchen"),
    );
    assert_eq!((ulmm, ney, munchen), (10, 16, 17));
    let before_the_quote = quoted(ulmm, 23, "move Lannes Stuttgart Ulmm", "^^^^");
    let below_the_quote = quoted(munchen, 8, "attack Munchen", "^^^^^^^");
    let stands = format!("line {ney}: move Ney Donauworth Ulm");

    // The answer, at once.
    let a = answer(&game);
    for shown in [&before_the_quote, &below_the_quote, &stands] {
        assert!(a.contains(shown.as_str()), "{shown}\n---\n{a}");
    }
    // The record of the message keeps the lines, so that every later answer names them too.
    let record = fs::read_dir(game.join("mail/received"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            !p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("batch-")
        })
        .unwrap();
    assert!(
        fs::read_to_string(&record).unwrap().contains("\nlines = "),
        "{}",
        record.display()
    );

    // The report of the turn: its refused orders and the orders that stand, in every form.
    resolve(&game);
    let report = fs::read_to_string(game.join("turns/1/reports/france.txt")).unwrap();
    for shown in [&before_the_quote, &below_the_quote, &stands] {
        assert!(report.contains(shown.as_str()), "{shown}\n---\n{report}");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(game.join("turns/1/reports/france.json")).unwrap())
            .unwrap();
    assert_eq!(
        json["orders"]["accepted"],
        serde_json::json!([{ "line": ney, "order": "move Ney Donauworth Ulm" }])
    );
    assert!(json["orders"]["diagnostics"]
        .as_str()
        .unwrap()
        .contains(&below_the_quote));
    // The referee's summary names the orders file he holds, by its own lines.
    let filed = fs::read_to_string(game.join("orders/1/france.txt")).unwrap();
    let summary = fs::read_to_string(game.join("turns/1/summary.txt")).unwrap();
    assert!(
        summary.contains(&format!(
            "orders/1/france.txt:{}:8",
            line_of(&filed, "attack Munchen")
        )),
        "{summary}"
    );

    // The record and the answers agree: the audit re-resolves the turn to the same bytes, and
    // the player's own check of his report with his answer passes.
    audit_and_verify_the_answer(t.path(), &game);
}

/// An HTML-only mail: its lines are those of its text rendering, as the answer quotes them.
#[test]
fn an_html_only_mail_is_named_by_the_lines_of_its_text_rendering() {
    let (t, game) = game();
    let html = "<html><body><div>Dear referee,</div><div><br></div>\
        <div>game ulm-1805</div><div>power france</div><div>password eagle-1805</div><div>turn 1</div>\
        <div>move Lannes Stuttgart Ulmm</div><div><br></div>\
        <div>On Sat, 5 Dec 2026, Referee wrote:</div>\
        <blockquote><div>Report of turn 1</div><div>game ulm-1805</div><div><br></div><div>units</div></blockquote>\
        <div><br></div><div><br></div><div>attack Munchen</div>\
        <div>-- </div><div>Jean</div></body></html>";
    let m = format!(
        "Received: from mail.example.net by mx.referee.example; {ON_TIME}\r\n\
         From: france@example.org\r\nTo: referee@referee.example\r\nSubject: orders\r\n\
         Message-ID: <h1@x>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n"
    );
    ingest(&game, &write(t.path(), "m.eml", m));
    let shown = pbem::mail::html::to_text(html);
    let munchen = line_of(&shown, "attack Munchen");
    let cleaned = pbem::mail::extract::clean(&shown, false, false);
    assert_ne!(
        munchen,
        line_of(&cleaned, "attack Munchen"),
        "the quote above it is dropped from the orders"
    );
    let a = answer(&game);
    let below_the_quote = quoted(munchen, 8, "attack Munchen", "^^^^^^^");
    assert!(a.contains(&below_the_quote), "{below_the_quote}\n---\n{a}");
    let ulmm = line_of(&shown, "move Lannes Stuttgart Ulmm");
    assert!(
        a.contains(&quoted(ulmm, 23, "move Lannes Stuttgart Ulmm", "^^^^")),
        "{a}"
    );
}

/// Issue of the line map: a record written before it (by pbem at c5904fe, the files in
/// tests/records/c5904fe: the message, its record and its run's, and the turn's record) keeps no
/// lines; its turn resolves as it did then, to the same report bytes, naming the lines of the
/// orders as filed, and audits and verifies. To write them again: `pbem demo --dir d`, remove
/// `d/ulm-1805/turns/1/record.toml`, `pbem ingest d/ulm-1805 orders.eml`, `pbem resolve
/// d/ulm-1805`, all with PBEM_NOW=2100-01-01T00:00:00Z, and copy `mail/received/*` and
/// `turns/1/record.toml`.
#[test]
fn a_record_written_before_the_line_map_resolves_audits_and_verifies_as_it_did() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records/c5904fe");
    let (t, game) = unresolved_demo();
    let mail = fs::read(fixture.join("orders.eml")).unwrap();
    ingest(&game, &write(t.path(), "orders.eml", &mail));
    // The records as that pbem wrote them, in place of today's.
    let received = game.join("mail/received");
    fs::remove_dir_all(&received).unwrap();
    fs::create_dir_all(&received).unwrap();
    for e in fs::read_dir(&fixture).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.len() > 64 && name.ends_with(".toml") {
            fs::copy(&p, received.join(&name)).unwrap();
        }
    }
    resolve(&game);
    // Turn 2's commitment fixed the rules as that pbem fixed them, which the reports announce: without
    // the opening position and the contributors, which pbem fixes since (`rules_fixed::opening`,
    // `rules_fixed::CONTRIBUTORS`).
    let mut old = pbem::game::Game::load(&game).unwrap();
    let scheme = pbem::game::scheme::path(&old, 2);
    let mut fixed = pbem::game::scheme::load(&old, 2).unwrap().unwrap();
    let rules = fixed.rules.as_mut().unwrap();
    rules
        .parts
        .retain(|name, _| !pbem::game::rules_fixed::read_in_place(name));
    rules.digest =
        pbem::game::record::sha256_hex(pbem::game::rules_fixed::listing(&rules.parts).as_bytes());
    fs::write(&scheme, toml::to_string(&fixed).unwrap()).unwrap();
    // Told again in the words of that pbem, whose record names none: wording 0 of its texts and of
    // its reports' own lines (the owner of each unit seen named by its id), as `audit` tells it.
    old.config.wording = Some(pbem::game::record::Wording::default());
    support::locked(|| {
        pbem::referee::turn::resolve(
            &old,
            &pbem::referee::turn::ResolveOptions {
                turn: Some(1),
                force: true,
                by_schedule: false,
            },
        )
    });
    let report = fs::read_to_string(game.join("turns/1/reports/france.txt")).unwrap();
    let filed = fs::read_to_string(game.join("orders/1/france.txt")).unwrap();
    let munchen = line_of(&filed, "attack Munchen");
    assert_eq!(munchen, 8, "{filed}");
    assert!(
        report.contains(&quoted(munchen, 8, "attack Munchen", "^^^^^^^")),
        "{report}"
    );
    // Byte for byte the reports and mail of France that pbem wrote then.
    let then = fs::read_to_string(fixture.join("record.toml")).unwrap();
    let now = fs::read_to_string(game.join("turns/1/record.toml")).unwrap();
    let france = |record: &str| -> Vec<String> {
        record
            .lines()
            .filter(|l| l.contains("france") && l.contains("\" = \""))
            .map(str::to_string)
            .collect()
    };
    assert!(france(&then).len() >= 6, "{then}");
    assert_eq!(france(&now), france(&then));
    audit_and_verify_the_answer(t.path(), &game);
}

/// A late submission the referee lets stand (`pbem accept-late`): its new answer and the report
/// of its turn name the lines of the mail too.
#[test]
fn orders_accepted_late_are_named_by_the_lines_of_the_mail() {
    let (t, game) = game();
    let m = eml(
        "france@example.org",
        "Mon, 7 Dec 2026 09:00:00 +0100",
        "late@x",
        PLAIN,
    );
    ingest(&game, &write(t.path(), "m.eml", m));
    pbem()
        .arg("accept-late")
        .arg(&game)
        .args(["france", "--reason", "his server was down"])
        .assert()
        .success();
    let below_the_quote = quoted(17, 8, "attack Munchen", "^^^^^^^");
    let accepted = acks(&game)
        .into_iter()
        .find(|(n, _)| n.ends_with("-accepted.eml"))
        .map(|(_, a)| body_of(&a))
        .expect("the answer of accept-late");
    assert!(accepted.contains(&below_the_quote), "{accepted}");
    assert!(
        accepted.contains("line 16: move Ney Donauworth Ulm"),
        "{accepted}"
    );
    resolve(&game);
    let report = fs::read_to_string(game.join("turns/1/reports/france.txt")).unwrap();
    assert!(report.contains(&below_the_quote), "{report}");
    pbem().arg("audit").arg(&game).assert().success();
}

/// The record and the answers agree: the audit re-resolves the turn to the same bytes, and France's
/// own check of his report with his first answer passes.
fn audit_and_verify_the_answer(tmp: &Path, game: &Path) {
    pbem().arg("audit").arg(game).assert().success();
    let ack = write(tmp, "ack.eml", &acks(game)[0].1);
    pbem()
        .arg("verify")
        .arg(game.join("turns/1/reports/france.json"))
        .arg("--ack")
        .arg(&ack)
        .args([
            "--commitment",
            fs::read_to_string(game.join("turns/1/commitment"))
                .unwrap()
                .trim(),
        ])
        .assert()
        .success();
}
