//! The audit and verify commands, and every kind of tampering they must catch.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use crate::support;
use support::{demo, edit, pbem};

fn audit(game: &Path) -> assert_cmd::assert::Assert {
    pbem().arg("audit").arg(game).assert()
}

#[test]
fn audit_of_the_demo_turn_passes() {
    let (_t, game) = demo();
    audit(&game)
        .success()
        .stdout(predicate::str::contains("turn 1: ok"));
}

#[test]
fn one_byte_changed_in_an_orders_file_fails_naming_the_file() {
    let (_t, game) = demo();
    let path = game.join("orders/1/austria.txt");
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 2;
    bytes[last] ^= 0x01;
    fs::write(&path, bytes).unwrap();
    audit(&game).code(4).stdout(predicate::str::contains(
        "turn 1: MISMATCH: ulm-1805/orders/1/austria.txt was changed after the turn was resolved",
    ));
}

#[test]
fn a_secret_that_does_not_match_its_commitment_is_caught() {
    let (_t, game) = demo();
    let record = game.join("turns/1/record.toml");
    let text = fs::read_to_string(&record).unwrap();
    let secret = text
        .lines()
        .find_map(|l| l.strip_prefix("secret = \""))
        .unwrap()[..64]
        .to_string();
    let forged: String = secret.chars().rev().collect();
    edit(&record, &secret, &forged);
    audit(&game).code(4).stdout(predicate::str::contains(
        "the revealed secret of turn 1 does not match its commitment",
    ));
}

#[test]
fn an_edited_log_is_caught() {
    let (_t, game) = demo();
    edit(
        &game.join("turns/1/log.toml"),
        "France wins at Ulm",
        "austria wins at Ulm",
    );
    audit(&game).code(4).stdout(predicate::str::contains(
        "ulm-1805/turns/1/log.toml differs from the re-resolved turn: line",
    ));
}

#[test]
fn an_edited_state_is_caught() {
    let (_t, game) = demo();
    edit(
        &game.join("turns/2/state.toml"),
        "factors = ",
        "factors = 1",
    );
    audit(&game).code(4).stdout(predicate::str::contains(
        "ulm-1805/turns/2/state.toml differs from the re-resolved turn",
    ));
}

#[test]
fn an_edited_report_roll_is_caught_by_verify_and_audit() {
    let (_t, game) = demo();
    let report = game.join("turns/1/reports/france.txt");
    let text = fs::read_to_string(&report).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("roll combat/area=Ulm/round=1:"))
        .unwrap()
        .to_string();
    let (head, faces) = line.rsplit_once("-> ").unwrap();
    let forged: Vec<String> = faces
        .split(' ')
        .map(|f| (f.parse::<u32>().unwrap() % 6 + 1).to_string())
        .collect();
    edit(&report, &line, &format!("{head}-> {}", forged.join(" ")));
    pbem()
        .arg("verify")
        .arg(&report)
        .arg(report.with_extension("json"))
        .assert()
        .code(4)
        .stdout(predicate::str::contains("WRONG line"))
        .stdout(predicate::str::contains(
            "combat/area=Ulm/round=1: report says",
        ));
    audit(&game).code(4).stdout(predicate::str::contains(
        "turns/1/reports/france.txt differs",
    ));
}

#[test]
fn a_swapped_label_is_caught_by_verify() {
    let (_t, game) = demo();
    let report = game.join("turns/1/reports/france.txt");
    edit(
        &report,
        "roll combat/area=Ulm/round=1:",
        "roll combat/area=Ulm/round=2:",
    );
    pbem()
        .arg("verify")
        .arg(&report)
        .arg(report.with_extension("json"))
        .assert()
        .code(4)
        .stdout(predicate::str::contains("WRONG"));
}

#[test]
fn an_edited_header_is_caught_by_verify() {
    let (_t, game) = demo();
    let report = game.join("turns/1/reports/russia.txt");
    edit(&report, "turn: 1\n", "turn: 2\n");
    pbem()
        .arg("verify")
        .arg(&report)
        .arg(report.with_extension("json"))
        .assert()
        .code(4)
        .stdout(predicate::str::contains(
            "the header's SHA-256 does not match its text",
        ));
}

#[test]
fn verify_of_an_untouched_report_passes() {
    let (_t, game) = demo();
    let commitment = fs::read_to_string(game.join("turns/1/commitment")).unwrap();
    for p in ["france", "austria", "russia", "britain"] {
        pbem()
            .arg("verify")
            .arg(game.join(format!("turns/1/reports/{p}.txt")))
            .arg(game.join(format!("turns/1/reports/{p}.json")))
            .args(["--commitment", commitment.trim()])
            .assert()
            .success()
            .stdout(predicate::str::contains("the report checks out"));
    }
}

#[test]
fn a_removed_turn_record_breaks_the_chain() {
    let (_t, game) = demo();
    pbem().arg("resolve").arg(&game).assert().success();
    audit(&game)
        .success()
        .stdout(predicate::str::contains("turn 2: ok"));
    // The reports of turn 2 announce the commitment of turn 2 that turn 1's reports announced.
    pbem()
        .arg("verify")
        .arg(game.join("turns/2/reports/france.txt"))
        .arg(game.join("turns/2/reports/france.json"))
        .arg("--previous")
        .arg(game.join("turns/1/reports/france.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "ok: the commitment is the one the previous report",
        ));
    fs::remove_file(game.join("turns/1/record.toml")).unwrap();
    audit(&game)
        .code(4)
        .stdout(predicate::str::contains(
            "turn 1: MISMATCH: ulm-1805/turns/1/record.toml is missing",
        ))
        .stdout(predicate::str::contains(
            "turn 2: MISMATCH: the chain is broken: the record of turn 1 is missing",
        ));
}

#[test]
fn a_replaced_turn_record_breaks_the_chain() {
    let (_t, game) = demo();
    pbem().arg("resolve").arg(&game).assert().success();
    let record = game.join("turns/1/record.toml");
    let text = fs::read_to_string(&record).unwrap();
    fs::write(&record, format!("{text}\n")).unwrap();
    audit(&game).code(4).stdout(predicate::str::contains(
        "turn 2: MISMATCH: the chain is broken: the record of turn 1 is not the one",
    ));
}

/// The files of a turn reach the sink of `compute_into` in order, each once, with the bytes on disk
/// and the digests of the record; a sink that fails stops the turn with its own error.
#[test]
fn compute_into_hands_every_file_once_and_stops_at_a_failing_sink() {
    use pbem::engine::inputs;
    use pbem::referee::turn;
    let (_t, dir) = demo();
    let game = pbem::game::Game::load(&dir).unwrap();
    let record = inputs::load_record(&game, 1).unwrap();
    let secret = pbem::dice::from_hex(&record.secret).unwrap();
    let next = pbem::dice::from_hex(&record.next_commitment).unwrap();
    let mut seen = Vec::new();
    let products = turn::compute_into(&game, 1, &secret, &next, &mut |path, bytes| {
        assert_eq!(fs::read(path).unwrap(), bytes, "{}", path.display());
        seen.push(inputs::relative_to(&dir, path));
        Ok(())
    })
    .unwrap();
    assert_eq!(products.record, record);
    let listed: Vec<&String> = record.outputs.keys().collect();
    let mut sorted: Vec<&String> = seen.iter().collect();
    sorted.sort();
    assert_eq!(sorted, listed);

    let mut calls = 0;
    let failed = turn::compute_into(&game, 1, &secret, &next, &mut |_, _| {
        calls += 1;
        if calls == 3 {
            anyhow::bail!("the disk is full");
        }
        Ok(())
    });
    let error = format!("{:#}", failed.err().expect("the sink's error"));
    assert!(error.contains("the disk is full"), "{error}");
    assert_eq!(calls, 3);
}

/// The powers' entropy lines of the header, each with its line break, from a JSON report's
/// `dice.text`.
fn entropy_lines(json: &Path) -> String {
    let json: serde_json::Value = serde_json::from_str(&fs::read_to_string(json).unwrap()).unwrap();
    json["dice"]["text"]
        .as_str()
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("entropy "))
        .flat_map(|l| [l, "\n"])
        .collect()
}

/// A game of one power with an entropy line more than `report::header::LISTED_ABOVE`, turn 1
/// resolved (no PNG maps: a hundred of them would only slow the test): (tempdir, its reports).
fn game_of_many_powers() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("many");
    // The synthetic game gives every other power an entropy line.
    let spec = pbem::synth::Spec::per_power(2 * pbem::report::header::LISTED_ABOVE + 2, 2);
    assert!(
        !spec.map_png,
        "a synthetic game of so many powers mails no PNG"
    );
    pbem::synth::write_game(&spec, &dir).unwrap();
    pbem().arg("resolve").arg(&dir).assert().success();
    (tmp, dir.join("turns/1/reports"))
}

/// A game of up to `LISTED_ABOVE` powers (every bundled one) shows every power's entropy line in
/// every form of a report, as the dice scheme reveals them; a larger one gives them in the text and
/// HTML reports as one line of their count and digest, the JSON report listing them once.
#[test]
fn the_text_and_html_reports_give_the_powers_entropy_by_its_count_and_digest() {
    let (_t, game) = demo();
    let reports = game.join("turns/1/reports");
    let lines = entropy_lines(&reports.join("france.json"));
    assert!(
        lines.lines().count() >= 2,
        "the demo's header lists entropy: {lines}"
    );
    for form in ["txt", "html"] {
        let text = fs::read_to_string(reports.join(format!("france.{form}"))).unwrap();
        assert!(!text.contains("listed: "), "france.{form}");
        for line in lines.lines() {
            assert!(text.contains(line), "france.{form} does not list '{line}'");
        }
    }

    let (_t, reports) = game_of_many_powers();
    let json = reports.join("p00.json");
    let lines = entropy_lines(&json);
    let count = lines.lines().count();
    assert_eq!(count, pbem::report::header::LISTED_ABOVE + 1);
    let listed = format!(
        "listed: {count} powers, sha256 {}",
        pbem::game::record::sha256_hex(lines.as_bytes())
    );
    for form in ["txt", "html"] {
        let text = fs::read_to_string(reports.join(format!("p00.{form}"))).unwrap();
        assert!(text.contains(&listed), "p00.{form} has no '{listed}'");
        for line in lines.lines() {
            assert!(!text.contains(line), "p00.{form} lists '{line}'");
        }
        assert!(text.contains("the JSON report (attached to the mail) lists them in full"));
    }
    let value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert!(
        value["dice"].get("entropy").is_none(),
        "listed once, in dice.text"
    );
}

#[test]
fn verify_of_a_short_text_report_alone_asks_for_the_json_report() {
    let (_t, reports) = game_of_many_powers();
    pbem()
        .arg("verify")
        .arg(reports.join("p00.txt"))
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "give the JSON report too, which lists them (pbem verify REPORT.txt REPORT.json)",
        ));
    pbem()
        .arg("verify")
        .arg(reports.join("p00.txt"))
        .arg(reports.join("p00.json"))
        .assert()
        .success();
}

#[test]
fn a_listed_line_that_is_not_the_json_reports_list_is_caught_by_verify() {
    let (_t, reports) = game_of_many_powers();
    let report = reports.join("p00.html");
    let json = report.with_extension("json");
    // The JSON report's header is made to list one entropy line less, its digest fixed: the HTML
    // report's `listed:` line no longer stands for its lines.
    let first = entropy_lines(&json).lines().next().unwrap().to_string();
    let text = fs::read_to_string(&json).unwrap();
    fs::write(&json, text.replacen(&format!("{first}\\n"), "", 1)).unwrap();
    pbem()
        .arg("verify")
        .arg(&report)
        .arg(&json)
        .assert()
        .code(4)
        .stdout(predicate::str::contains(
            "the HTML report's dice header does not stand for the powers the JSON report lists",
        ));
}

/// A referee who swaps the first turn's secret after its announcement went out (a new key, its
/// commitment and scheme.toml written to match) resolves the turn with dice he chose, and `audit`,
/// which chained each later turn's commitment to the reports before it, found nothing to say of the
/// first, which has none before it: it now holds the commitment to the announcement the players
/// were mailed, and passes on an honest game whose turn was re-keyed after it.
#[test]
fn a_first_turn_resolved_under_a_commitment_other_than_the_one_announced_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let now = "2026-11-30T00:00:00Z";
    let game_of = |name: &str| {
        let dir = tmp.path().join(name);
        pbem()
            .env("PBEM_NOW", now)
            .args(["new"])
            .arg(&dir)
            .args(["--from", "ulm-1805"])
            .assert()
            .success();
        support::add_to_config(
            &dir,
            "[mail]\nfrom = \"referee@example.org\"\ntransport = \"folder\"\nfolder = \"delivered\"\n",
        );
        pbem()
            .env("PBEM_NOW", now)
            .arg("send")
            .arg(&dir)
            .assert()
            .success();
        dir
    };
    let resolve = |dir: &Path| {
        pbem()
            .env("PBEM_NOW", now)
            .args(["resolve", "--early"])
            .arg(dir)
            .assert()
            .success();
    };
    // Honest: re-keyed after the announcement went, the act tells every player.
    let honest = game_of("honest");
    pbem()
        .env("PBEM_NOW", now)
        .args(["rekey"])
        .arg(&honest)
        .args(["--reason", "the secret leaked"])
        .assert()
        .success();
    resolve(&honest);
    audit(&honest).success();
    // Dishonest: the secret swapped by hand, no act.
    let swapped = game_of("swapped");
    let secret = [7u8; 32];
    fs::write(
        swapped.join("secret/1.key"),
        format!("{}\n", pbem::dice::to_hex(&secret)),
    )
    .unwrap();
    fs::remove_file(swapped.join("secret/1.seal")).unwrap();
    let c = pbem::dice::to_hex(&pbem::dice::commitment("ulm-1805", 1, &secret));
    fs::write(swapped.join("turns/1/commitment"), format!("{c}\n")).unwrap();
    fs::remove_file(swapped.join("turns/1/scheme.toml")).unwrap();
    let loaded = pbem::game::Game::load(&swapped).unwrap();
    pbem::game::scheme::fix(&loaded, 1, &c).unwrap();
    resolve(&swapped);
    audit(&swapped)
        .failure()
        .stdout(predicate::str::contains(format!(
            "the commitment of turn 1 ({c}) is not the one its announcement t0001-announcement-france.eml, delivered to the players, gave"
        )));
}
