//! Sealed rolls (docs/DICE.md, "Sealed rolls"): a ruleset's roll that no report shows, checked by audit,
//! counted and committed to in every report's header, published by `pbem unseal` and checked by
//! `pbem verify --sealed`. EiA and PoG roll no sealed dice (GITM's detection will); a test ruleset
//! here wraps EiA and adds one sealed detection roll a turn, seen by every power.

use crate::support;

use std::fs;
use std::path::Path;

use pbem::engine::dice_box::DiceBox;
use pbem::engine::event::Event;
use pbem::game::state::State;
use pbem::game::Game;
use pbem::rules::{PowerOrders, Resolution, Ruleset};
use support::{pbem, read_outbox};

const LABEL: &str = "detect/patrol=ulm";
const TEXT: &str = "a patrol reports riders near Ulm";
const POWERS: [&str; 4] = ["france", "austria", "russia", "britain"];

/// EiA, with one sealed roll of three d6 a turn in an event every power sees.
struct Sealing(Box<dyn Ruleset>);

impl Ruleset for Sealing {
    fn id(&self) -> &'static str {
        self.0.id()
    }
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn check_orders(
        &self,
        game: &Game,
        state: &State,
        source: &pbem::diag::Source,
    ) -> pbem::rules::OrdersCheck {
        self.0.check_orders(game, state, source)
    }
    fn resolve(
        &self,
        game: &Game,
        state: &State,
        orders: &[PowerOrders],
        dice: &mut DiceBox,
    ) -> anyhow::Result<Resolution> {
        let mut r = self.0.resolve(game, state, orders, dice)?;
        let rule = pbem::rule::Rule::new("TEST", "1", "a sealed detection roll");
        r.events.push(
            Event::new(rule, "detect", TEXT)
                .roll(dice.roll_sealed(LABEL, &[6, 6, 6])?)
                .seen_by(game.config.power_ids()),
        );
        Ok(r)
    }
    fn parse_state(&self, source: &pbem::diag::Source) -> Result<State, pbem::diag::FileError> {
        self.0.parse_state(source)
    }
    fn check_state(&self, game: &Game, state: &State) -> Vec<pbem::diag::Diagnostic> {
        self.0.check_state(game, state)
    }
    fn units(&self, state: &State) -> Vec<pbem::rules::UnitView> {
        self.0.units(state)
    }
    fn units_told(&self, game: &Game, state: &State) -> Vec<pbem::rules::UnitView> {
        self.0.units_told(game, state)
    }
    fn texts_wording(&self) -> u32 {
        self.0.texts_wording()
    }
    fn visible_areas(
        &self,
        game: &Game,
        state: &State,
        power: &str,
    ) -> std::collections::BTreeSet<usize> {
        self.0.visible_areas(game, state, power)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self.0.as_any()
    }
}

/// The game with the sealing ruleset.
fn sealing(dir: &Path) -> anyhow::Result<Game> {
    let mut g = Game::load(dir)?;
    g.ruleset = Box::new(Sealing(g.ruleset));
    Ok(g)
}

/// The bundled ulm-1805 at turn 1, its shipped dice secrets replaced by ones made with a sealing
/// secret (as pbem makes them now; the scenario's were made before sealed rolls).
fn fresh_game() -> (tempfile::TempDir, std::path::PathBuf) {
    let (tmp, dir) = support::game();
    for t in 1..=6 {
        let _ = fs::remove_file(dir.join(format!("secret/{t}.key")));
    }
    pbem::referee::turn::ensure_commitment(&Game::load(&dir).unwrap(), 1).unwrap();
    assert!(dir.join("secret/1.seal").is_file());
    (tmp, dir)
}

/// ulm-1805 with `[dice] unseal_after = 1`, turns 1 and 2 resolved with a sealed roll each.
fn played() -> (tempfile::TempDir, std::path::PathBuf) {
    let (tmp, dir) = fresh_game();
    support::add_to_config(&dir, "[dice]\nunseal_after = 1\n");
    for _ in 0..2 {
        let game = sealing(&dir).unwrap();
        support::locked(|| pbem::referee::turn::resolve(&game, &Default::default()));
    }
    (tmp, dir)
}

fn sealed_faces(dir: &Path, turn: u32) -> Vec<u32> {
    let game = Game::load(dir).unwrap();
    let rolls = pbem::engine::sealed::from_log(&game, turn).unwrap();
    assert_eq!(rolls.len(), 1);
    rolls[0].dice.iter().map(|d| d.face).collect()
}

#[test]
fn a_sealed_roll_is_in_the_log_and_the_record_and_no_report_shows_it() {
    let (_tmp, dir) = played();
    let log = fs::read_to_string(dir.join("turns/1/log.toml")).unwrap();
    assert!(
        log.contains(LABEL) && log.contains("sealed = true"),
        "{log}"
    );
    let record = fs::read_to_string(dir.join("turns/1/record.toml")).unwrap();
    assert!(record.contains("sealed = \"1 "), "{record}");
    // Every report form, the referee's summary and every mail: the event's text, never the roll.
    let mut files: Vec<std::path::PathBuf> = fs::read_dir(dir.join("turns/1/reports"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.push(dir.join("turns/1/summary.txt"));
    files.extend(
        fs::read_dir(dir.join("mail/outbox"))
            .unwrap()
            .map(|e| e.unwrap().path()),
    );
    assert!(files.len() > 3 * POWERS.len(), "{files:?}");
    for f in &files {
        // The PNG map is bytes: read what text it could hold.
        let text = String::from_utf8_lossy(&read_outbox(f)).into_owned();
        assert!(
            !text.contains("detect/"),
            "{} shows the sealed roll",
            f.display()
        );
    }
    for p in POWERS {
        for form in ["txt", "html", "json"] {
            let text = fs::read_to_string(dir.join(format!("turns/1/reports/{p}.{form}"))).unwrap();
            assert!(text.contains(TEXT), "{p}.{form} lacks the event");
            assert!(text.contains("sealed: 1 "), "{p}.{form} does not count it");
        }
    }
    // The JSON report stays valid against its schema with the sealed count in its header.
    let schema: serde_json::Value =
        serde_json::from_str(&fs::read_to_string("schema/report-v1.schema.json").unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("turns/1/reports/france.json")).unwrap())
            .unwrap();
    assert!(validator.is_valid(&json));
    assert!(json["dice"]["sealed"].as_str().unwrap().starts_with("1 "));
}

#[test]
fn audit_re_derives_a_sealed_roll_and_fails_when_its_faces_are_changed() {
    let (_tmp, dir) = played();
    let game = sealing(&dir).unwrap();
    let verdicts = pbem::audit::audit_with(&game, None, &sealing, &mut |_, _| {}).unwrap();
    assert_eq!(verdicts.len(), 2);
    for v in &verdicts {
        assert!(v.ok(), "{:?}", v.problems);
        assert_eq!(v.sealed, 1);
    }
    // Change the sealed roll's first face in the log.
    let faces = sealed_faces(&dir, 1);
    let log_path = dir.join("turns/1/log.toml");
    let log = fs::read_to_string(&log_path).unwrap();
    let at = log.find(LABEL).unwrap();
    let list = at + log[at..].find("faces = [").unwrap() + "faces = [".len();
    let changed = format!("{}{}{}", &log[..list], faces[0] % 6 + 1, &log[list + 1..]);
    assert_ne!(changed, log);
    fs::write(&log_path, changed).unwrap();
    let v = pbem::audit::audit_turn_with(&game, 1, &sealing).unwrap();
    assert!(
        v.problems.iter().any(|p| p.contains("log.toml differs")),
        "{:?}",
        v.problems
    );
}

#[test]
fn verify_counts_the_sealed_rolls_of_every_report_form() {
    let (_tmp, dir) = played();
    // The text and HTML forms with the JSON report, which lists the entropy their header stands for.
    for form in ["txt", "html", "json"] {
        pbem()
            .arg("verify")
            .arg(dir.join(format!("turns/1/reports/austria.{form}")))
            .arg(dir.join("turns/1/reports/austria.json"))
            .assert()
            .success()
            .stdout(predicates::str::contains(
                "1 sealed roll(s), not shown until the referee publishes them",
            ));
    }
}

#[test]
fn unseal_waits_for_its_turns_then_verify_checks_the_published_list() {
    let (_tmp, dir) = played();
    // Turn 2 is not over for `unseal_after = 1` until turn 3 is resolved.
    pbem()
        .args(["unseal", "--turn", "2"])
        .arg(&dir)
        .assert()
        .failure()
        .stderr(predicates::str::contains("add --force"));
    assert!(!dir.join("unsealed/2.txt").exists());
    // Without --turn: turn 1 is due, turn 2 stays sealed.
    pbem()
        .arg("unseal")
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "turn 1: 1 sealed roll(s) written",
        ));
    assert!(!dir.join("unsealed/2.txt").exists());
    let list = fs::read_to_string(dir.join("unsealed/1.txt")).unwrap();
    let faces: Vec<String> = sealed_faces(&dir, 1).iter().map(u32::to_string).collect();
    assert!(
        list.contains(&format!("roll {LABEL}: d6 d6 d6 -> {}", faces.join(" "))),
        "{list}"
    );
    let report = dir.join("turns/1/reports/russia.txt");
    pbem()
        .arg("verify")
        .arg(&report)
        .arg(report.with_extension("json"))
        .arg("--sealed")
        .arg(dir.join("unsealed/1.txt"))
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "ok: the sealed list holds the 1 sealed roll(s) the report committed to, its seal is the one the secret was made from",
        ));
    // A published list with a changed face is caught: against the dice and the commitment.
    let bad = dir.join("bad.txt");
    let first = format!("-> {}", faces[0]);
    let other = format!("-> {}", faces[0].parse::<u32>().unwrap() % 6 + 1);
    fs::write(&bad, list.replace(&first, &other)).unwrap();
    pbem()
        .arg("verify")
        .arg(&report)
        .arg(report.with_extension("json"))
        .arg("--sealed")
        .arg(&bad)
        .assert()
        .code(4)
        .stdout(predicates::str::contains("the dice give"))
        .stdout(predicates::str::contains(
            "not the one the report committed to",
        ));
    // A list with another seal is caught: its hash is not the turn's secret.
    let seal_line = list.lines().find(|l| l.starts_with("seal: ")).unwrap();
    fs::write(
        &bad,
        list.replace(seal_line, &format!("seal: {}", "ab".repeat(32))),
    )
    .unwrap();
    pbem()
        .arg("verify")
        .arg(&report)
        .arg(report.with_extension("json"))
        .arg("--sealed")
        .arg(&bad)
        .assert()
        .code(4)
        .stdout(predicates::str::contains("its hash is not R_t"));
    // --force publishes turn 2 before its time.
    pbem()
        .args(["unseal", "--turn", "2", "--force"])
        .arg(&dir)
        .assert()
        .success();
    assert!(dir.join("unsealed/2.txt").is_file());
}

#[test]
fn a_turn_whose_secret_has_no_seal_cannot_roll_sealed_dice() {
    let (_tmp, dir) = support::game();
    let game = sealing(&dir).unwrap();
    let e = pbem::referee::turn::resolve(&game, &Default::default()).unwrap_err();
    assert!(format!("{e:#}").contains("no sealing secret"), "{e:#}");
    assert!(!dir.join("turns/1/record.toml").exists());
}

#[test]
fn a_game_without_unseal_after_keeps_its_sealed_rolls_until_forced() {
    let (_tmp, dir) = fresh_game();
    let game = sealing(&dir).unwrap();
    support::locked(|| pbem::referee::turn::resolve(&game, &Default::default()));
    pbem()
        .arg("unseal")
        .arg(&dir)
        .assert()
        .failure()
        .stderr(predicates::str::contains("until the game is over"));
    pbem()
        .args(["unseal", "--force"])
        .arg(&dir)
        .assert()
        .success();
    assert!(dir.join("unsealed/1.txt").is_file());
}
