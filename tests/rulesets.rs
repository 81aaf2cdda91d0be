//! One harness for the rulesets' end-to-end tests (issue 40.2): each bundled scenario in, the same
//! checks out, through the binary. A ruleset's own file (`tests/<id>_demo.rs`) keeps only what is its
//! own (its rules brought about, its forecast, its snapshots) and reads the scenario resolved here.
//! A new ruleset's end-to-end tests are one more row of [`SCENARIOS`].
//!
//! Each scenario's demo is resolved once per test run ([`resolved`]) and shared read-only; a test
//! that changes a game works on its own copy ([`copy`]).

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use support::{pbem, tree};

/// A bundled scenario and what its demo plays.
pub struct Scenario {
    /// The scenario's id: `games/<id>/`, `orders/<id>/`.
    pub id: &'static str,
    /// The ruleset it runs under, as the JSON report names it.
    pub ruleset: &'static str,
    /// The sample turns `pbem demo --turns N` plays: all of them.
    pub turns: u32,
    /// The file stem of every report of a turn: a power, or `power.player` where each player of a
    /// power gets his own.
    pub reports: &'static [&'static str],
}

pub const ULM: Scenario = Scenario {
    id: "ulm-1805",
    ruleset: "eia",
    turns: 2,
    reports: &["austria", "britain", "france", "russia"],
};
pub const POG: Scenario = Scenario {
    id: "pog-1914",
    ruleset: "pog",
    turns: 4,
    reports: &["allies", "central"],
};
pub const NGG: Scenario = Scenario {
    id: "ngg-smolensk-1812",
    ruleset: "ngg",
    turns: 3,
    reports: &["french", "russian"],
};
pub const WBTS: Scenario = Scenario {
    id: "wbts-peninsula-1862",
    ruleset: "wbts",
    turns: 3,
    reports: &["confederate", "union"],
};
pub const GITM: Scenario = Scenario {
    id: "gitm-italy-1809",
    ruleset: "gitm",
    turns: 3,
    reports: &["austria", "france.eugene", "france.macdonald", "naples"],
};

/// Every bundled scenario, one per ruleset.
pub const SCENARIOS: [&Scenario; 5] = [&ULM, &POG, &NGG, &WBTS, &GITM];

/// The forms every report is written in.
const FORMS: [&str; 5] = ["txt", "html", "json", "svg", "png"];

impl Scenario {
    /// A file of the shared resolved demo.
    pub fn read(&self, relative: &str) -> String {
        let path = resolved(self).join(relative);
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The report of `stem` for `turn` in the form `ext`, from the shared resolved demo.
    pub fn report(&self, turn: u32, stem: &str, ext: &str) -> String {
        self.read(&format!("turns/{turn}/reports/{stem}.{ext}"))
    }

    /// The turn log of `turn`, from the shared resolved demo.
    pub fn log(&self, turn: u32) -> String {
        self.read(&format!("turns/{turn}/log.toml"))
    }

    /// Every turn log of the demo, one after the other.
    pub fn logs(&self) -> String {
        (1..=self.turns).map(|t| self.log(t)).collect()
    }
}

/// The words of `text` (runs of letters, digits and dashes).
pub fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect()
}

/// Every text a player of `s` reads names a power as the scenario gives it, never by its id (one
/// of `ids`): the turn log's texts and templates of every sample turn, and the lines of each report
/// (of the powers `reports`) that `position` picks, of which there must be some. Returns how many
/// log lines name one of `names`.
pub fn assert_powers_named(
    s: &Scenario,
    ids: &[&str],
    names: &[&str],
    reports: &[&str],
    position: impl Fn(&str) -> bool,
) -> usize {
    assert_powers_named_but(s, ids, names, reports, position, |_| false)
}

/// As [`assert_powers_named`], but for the texts `bound` picks, which name a power by its id
/// because a die's label binds its power to the text's words (EiA's rolled retreats and
/// interceptions: verify.html checks a label's `power=` against the text so). A template's dice
/// labels (`{retreat/area=Ulm/power=austria die 1}`) are the dice's, not words of the text: they
/// are left out.
pub fn assert_powers_named_but(
    s: &Scenario,
    ids: &[&str],
    names: &[&str],
    reports: &[&str],
    position: impl Fn(&str) -> bool,
    bound: impl Fn(&str) -> bool,
) -> usize {
    let mut seen = 0;
    for turn in 1..=s.turns {
        for line in s
            .log(turn)
            .lines()
            .filter(|l| l.starts_with("text = ") || l.starts_with("template = "))
        {
            let told = without_labels(line);
            assert!(
                bound(line) || !words(&told).iter().any(|w| ids.contains(w)),
                "turn {turn}: a power named by its id: {line}"
            );
            seen += usize::from(names.iter().any(|n| line.contains(n)));
        }
        for power in reports {
            let report = s.report(turn, power, "txt");
            let lines: Vec<&str> = report.lines().filter(|l| position(l)).collect();
            assert!(!lines.is_empty(), "{report}");
            for line in lines {
                assert!(
                    bound(line) || !words(line).iter().any(|w| ids.contains(w)),
                    "turn {turn}: {line}"
                );
            }
        }
    }
    seen
}

/// `line` without the dice labels of a template, `{...}`.
fn without_labels(line: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in line.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Turn 3 of the demo of `s` resolved again as a pbem before its texts named the powers wrote it
/// (wording 0, of its texts and of its reports' own lines): see [`resolved_in_wording`].
pub fn resolved_in_wording_0(
    s: &Scenario,
    old: &str,
    change: &str,
) -> (tempfile::TempDir, PathBuf, String) {
    resolved_in_wording(s, 0, old, change)
}

/// Turn 3 of the demo of `s` resolved again as an older pbem wrote it, in its texts' `wording` and
/// its reports' own lines' first (0): `old`, a text of that pbem's, is in its log, its record names
/// that wording (none for 0) where turn 2's names the ruleset's of now, both, and `pbem audit`
/// finds it ok in its own words, its line saying so (`change`: what the ruleset says changed
/// since). Returns the game (its folder's owner, then the folder) and its log.
pub fn resolved_in_wording(
    s: &Scenario,
    wording: u32,
    old: &str,
    change: &str,
) -> (tempfile::TempDir, PathBuf, String) {
    resolved_in_wording_at(s, 3, wording, old, change)
}

/// As [`resolved_in_wording`], turn `turn` of the demo (from 2: EiA's demo has two sample turns).
pub fn resolved_in_wording_at(
    s: &Scenario,
    turn: u32,
    wording: u32,
    old: &str,
    change: &str,
) -> (tempfile::TempDir, PathBuf, String) {
    let (tmp, dir) = demo(s, turn);
    let mut game = pbem::game::Game::load(&dir).unwrap();
    let now = game.ruleset.wording();
    game.config.wording = Some(pbem::game::record::Wording {
        texts: wording,
        reports: 0,
    });
    support::locked(|| {
        pbem::referee::turn::resolve(
            &game,
            &pbem::referee::turn::ResolveOptions {
                turn: Some(turn),
                force: true,
                by_schedule: true,
            },
        )
    });
    let log = fs::read_to_string(dir.join(format!("turns/{turn}/log.toml"))).unwrap();
    assert!(log.contains(old), "{log}");
    let record = fs::read_to_string(dir.join(format!("turns/{turn}/record.toml"))).unwrap();
    if wording == 0 {
        assert!(!record.contains("wording"), "{record}");
    } else {
        assert!(
            record.contains(&format!("wording = {wording}\n")),
            "{record}"
        );
    }
    assert!(
        fs::read_to_string(dir.join(format!("turns/{}/record.toml", turn - 1)))
            .unwrap()
            .contains(&format!(
                "[wording]\ntexts = {}\nreports = {}\n",
                now.texts, now.reports
            ))
    );
    let out = pbem().arg("audit").arg(&dir).assert().success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(said.starts_with("turn 1: ok ("), "{said}");
    for before in 1..turn {
        let line = said.lines().nth(before as usize - 1).unwrap();
        assert!(
            line.starts_with(&format!("turn {before}: ok (")) && !line.contains("wording"),
            "{said}"
        );
    }
    assert!(
        said.lines()
            .nth(turn as usize - 1)
            .unwrap()
            .starts_with(&format!("turn {turn}: ok ("))
            && said.contains(&format!("told in the words of the pbem that resolved it, wording {wording} (this pbem's is {}: {change})", now.texts)),
        "{said}"
    );
    (tmp, dir, log)
}

/// The demo of `s` resolved over all its sample turns, once per test run: its game folder, to read.
pub fn resolved(s: &Scenario) -> &'static Path {
    static DEMOS: [OnceLock<(tempfile::TempDir, PathBuf)>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let at = SCENARIOS.iter().position(|x| x.id == s.id).unwrap();
    &DEMOS[at].get_or_init(|| demo(s, s.turns)).1
}

/// A copy of the resolved demo of `s` to change: (tempdir, game folder).
pub fn copy(s: &Scenario) -> (tempfile::TempDir, PathBuf) {
    let from = resolved(s);
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join(s.id);
    copy_tree(from, &game);
    (tmp, game)
}

/// The demo of `s` resolved over its first `turns` turns in a new folder: (tempdir, game folder).
pub fn demo(s: &Scenario, turns: u32) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    pbem()
        .args([
            "demo",
            "--game",
            s.id,
            "--turns",
            &turns.to_string(),
            "--dir",
        ])
        .arg(tmp.path().join("d"))
        .assert()
        .success();
    let game = tmp.path().join("d").join(s.id);
    (tmp, game)
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn every_ruleset_writes_every_report_of_every_turn_in_every_form_valid_against_the_schema() {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../schema/report-v1.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for s in SCENARIOS {
        let game = resolved(s);
        for turn in 1..=s.turns {
            assert!(
                game.join(format!("turns/{turn}/record.toml")).is_file(),
                "{} turn {turn}",
                s.id
            );
            let mut written: Vec<String> = fs::read_dir(game.join(format!("turns/{turn}/reports")))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            written.sort();
            let mut expected: Vec<String> = s
                .reports
                .iter()
                .flat_map(|stem| FORMS.iter().map(move |ext| format!("{stem}.{ext}")))
                .collect();
            expected.sort();
            assert_eq!(written, expected, "{} turn {turn}", s.id);
            for stem in s.reports {
                for ext in FORMS {
                    let path = game.join(format!("turns/{turn}/reports/{stem}.{ext}"));
                    assert!(fs::metadata(&path).unwrap().len() > 0, "{}", path.display());
                }
                let json: serde_json::Value =
                    serde_json::from_str(&s.report(turn, stem, "json")).unwrap();
                let errors: Vec<String> = validator
                    .iter_errors(&json)
                    .map(|e| e.to_string())
                    .collect();
                assert!(errors.is_empty(), "{} turn {turn} {stem}: {errors:?}", s.id);
                assert_eq!(json["ruleset"]["id"], s.ruleset, "{} {stem}", s.id);
            }
        }
        let next = fs::read_to_string(game.join(format!("turns/{}/state.toml", s.turns + 1)));
        assert!(next.is_ok(), "{}: the next turn's state is written", s.id);
    }
}

#[test]
fn every_ruleset_audits_and_a_forced_rerun_of_its_last_turn_gives_the_same_bytes() {
    for s in SCENARIOS {
        let (_t, game) = copy(s);
        pbem().arg("audit").arg(&game).assert().success();
        let last = format!("turns/{}", s.turns);
        let before = tree(&game.join(&last));
        pbem()
            .args(["resolve", "--turn", &s.turns.to_string(), "--force"])
            .arg(&game)
            .assert()
            .success();
        assert_eq!(before, tree(&game.join(&last)), "{}", s.id);
    }
}

#[test]
fn every_ruleset_locates_an_unknown_order_by_file_line_and_column_and_the_others_stand() {
    for s in SCENARIOS {
        let tmp = tempfile::tempdir().unwrap();
        let game = tmp.path().join(s.id);
        pbem::bundled::write_scenario(s.id, &game).unwrap();
        let samples = PathBuf::from(format!("orders/{}/1", s.id));
        let mut names: Vec<PathBuf> = fs::read_dir(&samples)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        let sample = fs::read_to_string(&names[0]).unwrap();
        let orders = tmp.path().join("orders.txt");
        // Among the orders, after the header's turn line (after the last order, a line that is
        // no order is a sign-off, passed over: `orders::prose`).
        let turn = sample.lines().position(|l| l.starts_with("turn ")).unwrap();
        let mut lines: Vec<&str> = sample.lines().collect();
        lines.insert(turn + 1, "fly away home");
        fs::write(&orders, lines.join("\n") + "\n").unwrap();
        let line = turn + 2;
        let out = pbem()
            .arg("check")
            .arg(&game)
            .arg(&orders)
            .assert()
            .code(3)
            .get_output()
            .clone();
        let out = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.contains(&format!("orders.txt:{line}:1")),
            "{}: {out}",
            s.id
        );
        assert!(out.contains("unknown order 'fly'"), "{}: {out}", s.id);
        assert!(out.contains("help: the orders are: "), "{}: {out}", s.id);
        assert!(out.contains("the other orders stand"), "{}: {out}", s.id);
        assert_eq!(
            out.matches("-->").count(),
            1,
            "{}: only the bad line: {out}",
            s.id
        );
    }
}

/// The lines of the section of a text report that lists the foreign units its power sees.
fn seen_lines(report: &str) -> Vec<&str> {
    report
        .split("WHAT YOUR UNITS SEE\n")
        .nth(1)
        .unwrap_or("")
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter(|l| *l != "  No foreign units in sight.")
        .collect()
}

/// pbem report/units: every ruleset's report names the owner of each unit its power sees as the
/// game names the power (game.toml's `name`, as the welcome and every answer name it: "France:
/// infantry corps", "Central Powers: GE army"), never by its id ("france:", "central:"), in the text
/// and the HTML forms alike; the JSON form keeps the id, for programs.
#[test]
fn every_ruleset_s_reports_name_the_owner_of_each_unit_seen_as_the_game_does() {
    for s in SCENARIOS {
        let game = pbem::game::Game::load(&resolved(s).join("")).unwrap();
        let powers: Vec<(String, String)> = game
            .config
            .powers
            .iter()
            .map(|p| (p.id.clone(), p.name.clone()))
            .collect();
        let mut seen = 0;
        for turn in 1..=s.turns {
            for stem in s.reports {
                let text = s.report(turn, stem, "txt");
                let html = s.report(turn, stem, "html");
                for line in seen_lines(&text) {
                    seen += 1;
                    let (id, name) = powers
                        .iter()
                        .find(|(_, name)| line.contains(&format!(" {name}: ")))
                        .unwrap_or_else(|| panic!("{} turn {turn} {stem}: {line}", s.id));
                    assert!(!line.contains(&format!(" {id}: ")), "{line}");
                    let cell = format!(r#"<td style="padding:2px 12px 2px 0;">{name}</td>"#);
                    assert!(html.contains(&cell), "{} turn {turn} {stem}: {cell}", s.id);
                }
                for (id, _) in &powers {
                    let cell = format!(r#"<td style="padding:2px 12px 2px 0;">{id}</td>"#);
                    assert!(!html.contains(&cell), "{} turn {turn} {stem}: {cell}", s.id);
                }
                let json = s.report(turn, stem, "json");
                let json: serde_json::Value = serde_json::from_str(&json).unwrap();
                for u in json["sees"]["units"].as_array().unwrap() {
                    let owner = u["owner"].as_str().unwrap();
                    assert!(powers.iter().any(|(id, _)| id == owner), "{u}");
                }
            }
        }
        assert!(seen > 0, "{}: no unit seen", s.id);
    }
}

/// A turn resolved before the reports named the owner of each unit seen (its record names no
/// wording: the reports' own lines in wording 0, "france: infantry corps") is re-resolved by `audit`
/// in its own words, every byte compared, and its line says so; a report changed to this pbem's
/// words is a mismatch, as any other byte.
#[test]
fn audit_tells_a_turn_whose_reports_named_the_owners_seen_by_their_ids_in_its_own_words() {
    let (_t, dir) = demo(&ULM, 2);
    let mut game = pbem::game::Game::load(&dir).unwrap();
    game.config.wording = Some(pbem::game::record::Wording::default());
    support::locked(|| {
        pbem::referee::turn::resolve(
            &game,
            &pbem::referee::turn::ResolveOptions {
                turn: Some(2),
                force: true,
                by_schedule: true,
            },
        )
    });
    let report = fs::read_to_string(dir.join("turns/2/reports/austria.txt")).unwrap();
    let old = seen_lines(&report);
    assert!(
        old.iter().any(|l| l.contains(" france: infantry corps")),
        "{report}"
    );
    let record = fs::read_to_string(dir.join("turns/2/record.toml")).unwrap();
    assert!(!record.contains("wording"), "{record}");
    assert!(fs::read_to_string(dir.join("turns/1/record.toml"))
        .unwrap()
        .contains("[wording]\ntexts = 1\nreports = 2\n"));
    let out = pbem().arg("audit").arg(&dir).assert().success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = said.lines().collect();
    assert!(
        lines[0].starts_with("turn 1: ok (") && !lines[0].contains("wording"),
        "{said}"
    );
    assert!(
        lines[1].starts_with("turn 2: ok (")
            && lines[1].ends_with("; its reports in the words of the pbem that made them, report wording 0 (this pbem's is 2: they named the owner of each unit seen by its id, and their maps found a battle's victor only among the powers' ids, where this one names the owner as the game does and finds the victor by the name too, and the announcement of the next commitment named fewer parts of the rules it fixes))")
            // Its texts too: EiA's name each power since wording 1, and an older pbem's did not.
            && lines[1].contains("; told in the words of the pbem that resolved it, wording 0 (this pbem's is 1: "),
        "{said}"
    );
    fs::write(
        dir.join("turns/2/reports/austria.txt"),
        report.replacen(" france: infantry corps", " France: infantry corps", 1),
    )
    .unwrap();
    let out = pbem().arg("audit").arg(&dir).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{said}");
    assert!(
        said.contains("turn 2: MISMATCH: ulm-1805/turns/2/reports/austria.txt differs"),
        "{said}"
    );
}
