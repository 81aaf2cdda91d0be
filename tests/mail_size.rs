//! Issue 34.7: a report mail over `[mail] max_outgoing_bytes` is cut to size, through the binary:
//! the map picture first, then the JSON compressed, the HTML, the SVG map, the JSON, last the text
//! compressed with its first lines and dice header in the body. `resolve` names each cut mail on
//! stderr and in the turn log; the player's mail says what it left out and where it is; `pbem verify`
//! passes on every mail as the player receives it, and the report files are those of an uncut turn.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};

use support::*;

/// The demo's turn 1 resolved again with `[mail] max_outgoing_bytes = cap`: (tempdir, game, stderr).
fn resolved_with_cap(cap: u64) -> (tempfile::TempDir, PathBuf, String) {
    let (t, game) = unresolved_demo();
    add_to_config(&game, &format!("[mail]\nmax_outgoing_bytes = {cap}\n"));
    let out = pbem()
        .arg("resolve")
        .arg(&game)
        .args(["--turn", "1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (t, game, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The report mails as the players receive them: `pbem send` into a folder, each file delivered.
fn delivered_reports(tmp: &Path, game: &Path) -> Vec<(String, Vec<u8>)> {
    let folder = tmp.join("delivered");
    pbem()
        .arg("send")
        .arg(game)
        .arg("--folder")
        .arg(&folder)
        .assert()
        .success();
    let mut out = Vec::new();
    for who in fs::read_dir(&folder).unwrap() {
        for f in fs::read_dir(who.unwrap().path()).unwrap() {
            let path = f.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.contains("-report-") {
                out.push((name, fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no report was delivered");
    out
}

fn verify_passes(name: &str, mail: &[u8], game: &Path, tmp: &Path) {
    let path = tmp.join(format!("received-{name}"));
    fs::write(&path, mail).unwrap();
    let commitment = fs::read_to_string(game.join("turns/1/commitment")).unwrap();
    let out = pbem()
        .arg("verify")
        .arg(&path)
        .args(["--commitment", commitment.trim()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "verify of {name}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The report files of the demo's turn 1 whatever the mails' size: every file of `reports/`.
fn report_files(game: &Path) -> Vec<(String, Vec<u8>)> {
    tree(&game.join("turns/1/reports"))
}

/// The mail-cut events of the turn log: (text).
fn cut_events(game: &Path) -> Vec<String> {
    let log: toml::Value =
        toml::from_str(&fs::read_to_string(game.join("turns/1/log.toml")).unwrap()).unwrap();
    log["event"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"].as_str() == Some("mail-cut"))
        .map(|e| {
            assert_eq!(e["rule"].as_str(), Some("pbem mail/size"));
            e["text"].as_str().unwrap().to_string()
        })
        .collect()
}

fn mail_text(mail: &[u8]) -> String {
    String::from_utf8_lossy(mail).into_owned()
}

#[test]
fn a_report_mail_over_the_cap_leaves_out_the_map_picture_first_and_says_so() {
    let (whole_tmp, whole, _) = resolved_with_cap(10_000_000);
    let (tmp, game, stderr) = resolved_with_cap(400_000);
    // France (557 KB whole) and Austria (533 KB) lose their PNG; Britain and Russia fit.
    let events = cut_events(&game);
    assert_eq!(events.len(), 2, "{events:?}");
    // The summary counts the notes of the cuts among the turn's events, as the log lists them.
    let log: toml::Value =
        toml::from_str(&fs::read_to_string(game.join("turns/1/log.toml")).unwrap()).unwrap();
    let logged = log["event"].as_array().unwrap().len();
    let summary = fs::read_to_string(game.join("turns/1/summary.txt")).unwrap();
    assert!(
        summary.contains(&format!("\n{logged} event(s), ")),
        "{logged} events logged: {summary}"
    );
    for power in ["austria", "france"] {
        let file = format!("t0001-report-{power}.eml");
        assert!(
            stderr.contains(&format!(
                "warning: {file} cut to size: left out the map picture (PNG): "
            )),
            "{stderr}"
        );
        assert!(events
            .iter()
            .any(|e| e.starts_with(&file) && e.contains("(PNG)")));
    }
    assert!(
        !stderr.contains("russia") && !stderr.contains("britain"),
        "{stderr}"
    );
    // Every report file is written whole, the PNG too: only the mails are cut.
    assert_eq!(report_files(&game), report_files(&whole));
    for (name, mail) in delivered_reports(tmp.path(), &game) {
        let text = mail_text(&mail);
        assert!(mail.len() <= 400_000, "{name}: {} bytes", mail.len());
        let cut = name.contains("france") || name.contains("austria");
        assert_eq!(text.contains("image/png"), !cut, "{name}");
        assert_eq!(text.contains("THIS MAIL WAS CUT TO SIZE"), cut, "{name}");
        assert!(text.contains("image/svg+xml") && text.contains("application/json"));
        if cut {
            // The HTML says it where the map stood, and the text names where the rest is.
            assert!(text.contains("This mail was cut to size."), "{name}");
            assert!(!text.contains("cid:map@pbem"), "{name}");
            assert!(text.contains("turns/1/reports/"), "{name}");
        }
        verify_passes(&name, &mail, &game, tmp.path());
    }
    pbem().arg("audit").arg(&game).assert().success();
    // The record keeps the cap the mails were cut to: audit passes after game.toml's changes.
    edit(
        &game.join("game.toml"),
        "max_outgoing_bytes = 400000",
        "max_outgoing_bytes = 20000",
    );
    pbem().arg("audit").arg(&game).assert().success();
    drop(whole_tmp);
}

#[test]
fn a_smaller_cap_sends_the_json_compressed_and_leaves_out_the_html_and_the_svg() {
    let (tmp, game, stderr) = resolved_with_cap(60_000);
    assert!(
        stderr.contains("the JSON report whole (sent compressed)"),
        "{stderr}"
    );
    for (name, mail) in delivered_reports(tmp.path(), &game) {
        let text = mail_text(&mail);
        assert!(mail.len() <= 60_000, "{name}: {} bytes", mail.len());
        if name.contains("britain") || name.contains("russia") {
            continue;
        }
        assert!(text.contains(".json.gz"), "{name}");
        assert!(
            !text.contains("text/html") && !text.contains("image/svg+xml"),
            "{name}"
        );
        assert!(text.contains("the JSON report as it is: it is attached compressed"));
        // verify reads the compressed JSON too: a JSON whose rolls disagree with the text fails.
        verify_passes(&name, &mail, &game, tmp.path());
    }
    pbem().arg("audit").arg(&game).assert().success();
}

#[test]
fn at_last_the_text_goes_compressed_with_its_first_lines_and_its_dice_header_in_the_body() {
    let (tmp, game, stderr) = resolved_with_cap(20_000);
    assert!(
        stderr.contains("the text in the body (sent whole, compressed)"),
        "{stderr}"
    );
    assert!(!stderr.contains("still over"), "{stderr}");
    let mut compressed = 0;
    for (name, mail) in delivered_reports(tmp.path(), &game) {
        let text = mail_text(&mail);
        assert!(mail.len() <= 20_000, "{name}: {} bytes", mail.len());
        // The dice header is always in the body.
        assert!(
            text.contains("pbem-dice/v1") && text.contains("header sha256: "),
            "{name}"
        );
        if text.contains(".txt.gz") {
            compressed += 1;
            assert!(text.contains("[... the report goes on in the attached file "));
        }
        verify_passes(&name, &mail, &game, tmp.path());
    }
    assert!(compressed >= 1);
    // The referee's summary fits too: its first lines, and where the whole is.
    let summary = read_outbox_string(game.join("mail/outbox/t0001-summary.eml"));
    assert!(summary.len() <= 20_000, "summary: {} bytes", summary.len());
    assert!(summary.contains("[cut here: the summary is "), "{summary}");
    // The turn's files are the same on a rerun: the cut is part of the turn.
    let before = tree(&game.join("turns/1"));
    pbem()
        .arg("resolve")
        .arg(&game)
        .args(["--turn", "1", "--force"])
        .assert()
        .success();
    assert_eq!(tree(&game.join("turns/1")), before);
    pbem().arg("audit").arg(&game).assert().success();
}

#[test]
fn a_cap_too_small_for_any_report_mail_is_refused_where_it_is_written() {
    let (_t, game) = unresolved_demo();
    add_to_config(&game, "[mail]\nmax_outgoing_bytes = 9999\n");
    let out = pbem().arg("resolve").arg(&game).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("max_outgoing_bytes is 9999"), "{stderr}");
    assert!(stderr.contains("game.toml"), "{stderr}");
}

/// Issue 39.3: a turn writes each byte of a report once. The report's mail in the outbox holds none
/// of the bodies its report files hold (text, HTML but for its map, JSON, SVG); `pbem send` makes
/// the message whole from them, the very message the turn record lists (`audit`), which `verify`
/// passes; a report file changed since is refused, not sent.
#[test]
fn a_report_mail_is_kept_without_the_bodies_of_its_files_and_made_whole_when_sent() {
    let (tmp, game) = demo();
    let outbox = game.join("mail/outbox/t0001-report-france.eml");
    let kept = fs::read(&outbox).unwrap();
    let whole = read_outbox(&outbox);
    assert!(kept.starts_with(b"pbem-outbox-parts/v1\n"));
    let reports = game.join("turns/1/reports");
    let size = |ext: &str| {
        fs::metadata(reports.join(format!("france.{ext}")))
            .unwrap()
            .len() as usize
    };
    assert!(
        whole.len() - kept.len() >= size("txt") + size("json") + size("svg"),
        "kept {} of {}",
        kept.len(),
        whole.len()
    );
    for ext in ["txt", "html", "json", "svg"] {
        let text = fs::read_to_string(reports.join(format!("france.{ext}"))).unwrap();
        let line = text.lines().find(|l| l.len() > 60).unwrap();
        assert!(!mail_text(&kept).contains(line), "{ext}: {line}");
    }
    // The record lists the digest of the file as kept (`outbox::kept_digest`); one written before
    // issue 39.3 lists that of the message whole, which `audit` and `send` take too.
    let record = game.join("turns/1/record.toml");
    let old = pbem::mail::envelope::content_digest(&whole);
    edit(&record, &pbem::mail::outbox::kept_digest(&kept), &old);
    pbem().arg("audit").arg(&game).assert().success();
    // What the player receives is the message made whole.
    let delivered = delivered_reports(tmp.path(), &game);
    assert!(delivered
        .iter()
        .any(|(n, _)| n == "t0001-report-france.eml"));
    for (name, mail) in delivered {
        verify_passes(&name, &mail, &game, tmp.path());
        if name == "t0001-report-france.eml" {
            let body = |m: &[u8]| {
                let t = mail_text(m);
                t[t.find("\r\n\r\n").unwrap()..].to_string()
            };
            assert_eq!(body(&mail), body(&whole));
        }
    }
    // A report file changed after the turn, or a report mail's layout (its subject): its mail is
    // not sent as something the record does not list.
    let (_t2, game2) = demo();
    let txt = game2.join("turns/1/reports/russia.txt");
    let changed = fs::read_to_string(&txt)
        .unwrap()
        .replacen("Russia", "Prussia", 1);
    fs::write(&txt, changed).unwrap();
    let parts = game2.join("mail/outbox/t0001-report-austria.eml");
    let kept = fs::read(&parts).unwrap();
    let at = kept.windows(11).position(|w| w == b"report for ").unwrap();
    let edited = [&kept[..at], b"REPORT", &kept[at + 6..]].concat();
    fs::write(&parts, edited).unwrap();
    let out = pbem()
        .arg("send")
        .arg(&game2)
        .arg("--folder")
        .arg(tmp.path().join("second"))
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("turns/1/reports/russia.txt was changed after its message was made"),
        "{said}"
    );
    assert!(
        said.contains("t0001-report-austria.eml: not sent: its bytes are not those the record of turn 1 lists"),
        "{said}"
    );
    assert!(!tmp
        .path()
        .join("second/austria@example.org/t0001-report-austria.eml")
        .exists());
    assert!(!tmp
        .path()
        .join("second/russia@example.org/t0001-report-russia.eml")
        .exists());
    assert!(tmp
        .path()
        .join("second/france@example.org/t0001-report-france.eml")
        .exists());
    // A kept mail cut short: `audit` says it cannot be read, and why, not that it is missing.
    let britain = game2.join("mail/outbox/t0001-report-britain.eml");
    let kept = fs::read(&britain).unwrap();
    fs::write(&britain, &kept[..kept.len() - 10]).unwrap();
    let out = pbem().arg("audit").arg(&game2).output().unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("t0001-report-britain.eml cannot be read") && said.contains("cut short"),
        "{said}"
    );
}

/// Issue 34: a player's welcome goes under the cap as a report mail does: its JSON compressed, then
/// its attachments left out, the largest first, each named in a note that opens its text; the text
/// and the password always go. `pbem new` says which welcome it cut.
#[test]
fn a_welcome_over_the_cap_leaves_out_its_attachments_and_keeps_its_text_and_password() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = tmp.path().join("scenario");
    pbem::bundled::write_scenario("ulm-1805", &scenario).unwrap();
    add_to_config(&scenario, "[mail]\nmax_outgoing_bytes = 10000\n");
    let game = tmp.path().join("g");
    let out = pbem()
        .arg("new")
        .arg(&game)
        .arg("--from")
        .arg(&scenario)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut welcomes = 0;
    for f in fs::read_dir(game.join("mail/outbox")).unwrap() {
        let path = f.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.contains("-welcome-") {
            continue;
        }
        welcomes += 1;
        let mail = read_outbox_string(&path);
        assert!(mail.len() <= 10_000, "{name}: {} bytes", mail.len());
        assert!(mail.contains("THIS MAIL WAS CUT TO SIZE"), "{name}");
        assert!(mail.contains("* the attachment "), "{name}");
        assert!(
            stderr.contains(&format!(
                "warning: {name} cut to size: left out the attachment "
            )),
            "{stderr}"
        );
        // The password the referee was shown is in the welcome.
        let power = name
            .trim_start_matches("t0001-welcome-")
            .trim_end_matches(".eml");
        let password = stdout
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(&format!("{power} ")))
            .map(|rest| rest.split_whitespace().next().unwrap().to_string())
            .unwrap_or_else(|| panic!("no password of {power} in {stdout}"));
        assert!(mail.contains(&format!("password {password}")), "{name}");
    }
    assert_eq!(welcomes, 4);
}
