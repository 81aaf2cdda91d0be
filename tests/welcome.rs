//! Issue 35: players start and rejoin with all they need, by mail. The welcome of every player of a
//! new game (password, opening report in text and JSON that his own check accepts for his first
//! orders, the order guide of his ruleset), no password left in the game folder once sent, the
//! replacement's pack, game.toml and `status` naming who plays, a game made from a scenario free of
//! the demo's text, the printed paths, the help list.

use std::fs;
use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::support::*;

/// The bundled scenarios, one per ruleset, with their ruleset's part of ORDERS.md.
const SCENARIOS: &[(&str, &str)] = &[
    ("ulm-1805", "## The orders of Empires in Arms"),
    ("pog-1914", "## Paths of Glory"),
    ("ngg-smolensk-1812", "## Napoleon's Greatest Gamble"),
    ("wbts-peninsula-1862", "## War Between the States"),
    ("gitm-italy-1809", "## Gathered In Their Masses"),
];

/// `pbem new` of `scenario` into `dir`: the passwords it printed, `(power or power.player, password)`.
fn new_game(dir: &Path, scenario: &str, title: Option<&str>) -> Vec<(String, String)> {
    let mut c = pbem();
    c.arg("new").arg(dir).args(["--from", scenario]);
    if let Some(t) = title {
        c.args(["--title", t]);
    }
    let out = c.assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("Passwords"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let mut w = l.split_whitespace();
            (w.next().unwrap().to_string(), w.next().unwrap().to_string())
        })
        .collect()
}

/// The attachment of a message whose name ends with `suffix`: its name and bytes.
fn attachment(eml: &str, suffix: &str) -> (String, Vec<u8>) {
    let m = pbem::mail::parse::parse(eml.as_bytes()).expect("a message");
    m.parts
        .iter()
        .filter(|p| !p.is_body)
        .find_map(|p| {
            let name = p.name.clone()?;
            if !name.ends_with(suffix) {
                return None;
            }
            let bytes = match &p.content {
                pbem::mail::parse::Content::Text(t) | pbem::mail::parse::Content::Html(t) => {
                    t.clone().into_bytes()
                }
                pbem::mail::parse::Content::Bytes(b) => b.clone(),
                pbem::mail::parse::Content::Message(_) => Vec::new(),
            };
            Some((name, bytes))
        })
        .unwrap_or_else(|| panic!("no attachment *{suffix}"))
}

/// The welcome in the outbox of `stem` (`france`, `france.eugene`) at `turn`.
fn welcome_of(game: &Path, turn: u32, stem: &str) -> (String, String) {
    let prefix = format!("t{turn:04}-welcome-{}", stem.replace('.', "-"));
    outbox(game)
        .into_iter()
        .find(|(n, _)| n.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no {prefix}*.eml in the outbox"))
}

/// The header of `stem`'s orders for `game_id` at `turn`, with `password`.
fn orders_header(game_id: &str, stem: &str, password: &str, turn: u32) -> String {
    let (power, player) = match stem.split_once('.') {
        Some((p, pl)) => (p, Some(pl)),
        None => (stem, None),
    };
    let mut h = format!("game {game_id}\npower {power}\n");
    if let Some(p) = player {
        h.push_str(&format!("player {p}\n"));
    }
    h.push_str(&format!("password {password}\nturn {turn}\n"));
    h
}

/// Every file under `dir` that holds `needle`.
fn files_holding(dir: &Path, needle: &str) -> Vec<String> {
    tree(dir)
        .into_iter()
        .filter(|(_, bytes)| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
        .map(|(name, _)| name)
        .collect()
}

/// Every player of a new game of every ruleset gets his welcome: his power and the game, his
/// password (which authenticates his orders), his opening report in text and JSON (the JSON his own
/// `pbem check --report` accepts for his turn-1 orders), the order guide of his ruleset and no
/// other, his orders form and how to check his rolls.
#[test]
fn new_mails_every_player_a_welcome_with_all_he_needs() {
    let tmp = tempfile::tempdir().unwrap();
    for (scenario, part) in SCENARIOS {
        let dir = tmp.path().join(scenario);
        let passwords = new_game(&dir, scenario, None);
        assert!(!passwords.is_empty(), "{scenario}");
        let game = load(&dir);
        let id = game.config.game.clone();
        for (stem, password) in &passwords {
            let (name, eml) = welcome_of(&dir, 1, stem);
            let subject = header_of(&eml, "Subject").unwrap();
            assert!(subject.contains("Welcome"), "{name}: {subject}");
            let body = body_of(&eml);
            let power = stem.split('.').next().unwrap();
            let power_name = &game.config.power(power).unwrap().name;
            assert!(body.contains(&format!("you play {power_name}")), "{body}");
            assert!(
                body.contains(&format!("\n    password {password}\n")),
                "{body}"
            );
            for section in [
                "YOUR UNITS",
                "WHAT YOUR UNITS SEE",
                "The dice commitment of turn 1 is",
                "ORDERS FOR TURN 1",
                "pbem verify",
                "pbem check --report",
            ] {
                assert!(body.contains(section), "{name}: no {section}\n{body}");
            }
            // The orders form: the header of his orders, never his password.
            assert!(
                body.contains(&format!("game {id}\npower {power}\n")),
                "{body}"
            );
            assert!(
                body.contains("password <your password>\nturn 1\n"),
                "{body}"
            );
            // Only to him: his welcome names his own audience, not his power's controllers.
            let audience = header_of(&eml, "X-Pbem-To").unwrap();
            assert_eq!(audience, format!("player {stem} turn 1"));
            // The guide of his ruleset, and no other's.
            let (_, guide) = attachment(&eml, ".md");
            let guide = String::from_utf8(guide).unwrap();
            assert!(guide.starts_with("# Writing orders\n"), "{name}");
            assert!(guide.contains(&format!("{part}\n")), "{name}");
            for (_, other) in SCENARIOS.iter().filter(|(s, _)| s != scenario) {
                assert!(
                    !guide.contains(&format!("{other}\n")),
                    "{name} holds {other}"
                );
            }
            // pbem's page on his ruleset, which the guide cites by its attached name.
            let ruleset = game.config.ruleset.get_ref().clone();
            let (rules_name, page) = attachment(&eml, &format!("pbem-rules-{ruleset}.md"));
            let page = String::from_utf8(page).unwrap();
            assert_eq!(
                Some(page),
                pbem::report::guide::rules_page(&ruleset),
                "{name}"
            );
            assert!(
                body.contains(&format!("- {rules_name}: how pbem plays")),
                "{body}"
            );
            assert!(
                !guide.contains("docs/rules/"),
                "{name}: a guide names a page the player has not"
            );
            // The page that checks his rolls in a browser (issue 36), as `pbem new` wrote it.
            // It carries the grammar of his game's dice labels, no other game's.
            let (_, page) = attachment(&eml, "verify.html");
            assert_eq!(page, fs::read(dir.join("verify.html")).unwrap(), "{name}");
            let page = String::from_utf8(page).unwrap();
            for id in ["eia", "pog", "ngg", "wbts", "gitm"] {
                assert_eq!(
                    page.contains(&format!("\"ruleset\": \"{id}\"")),
                    id == ruleset,
                    "{name}: the grammar of {id} in a game of {ruleset}"
                );
            }
            assert!(
                body.contains("Open verify.html (attached) in your browser"),
                "{body}"
            );
            // His opening JSON: his own check accepts his turn-1 orders with it.
            let (json_name, json) = attachment(&eml, "-opening.json");
            let report = tmp.path().join(&json_name);
            fs::write(&report, &json).unwrap();
            let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
            assert_eq!(v["format"], "pbem-report/1");
            assert_eq!(v["next"]["turn"], 1);
            assert_eq!(v["check"]["turn"], 1, "{json_name}");
            assert!(v.get("dice").is_none(), "no turn was resolved: no dice");
            let orders = write(
                tmp.path(),
                &format!("{scenario}-{stem}.txt"),
                orders_header(&id, stem, password, 1),
            );
            pbem()
                .args(["check", "--report"])
                .arg(&report)
                .arg(&orders)
                .assert()
                .success();
            // The referee's check: the password of the mail authenticates his orders.
            pbem()
                .arg("check")
                .arg(&dir)
                .arg(&orders)
                .assert()
                .success();
            // And orders for another turn are not his first.
            let wrong = write(
                tmp.path(),
                &format!("{scenario}-{stem}-t2.txt"),
                orders_header(&id, stem, password, 2),
            );
            pbem()
                .args(["check", "--report"])
                .arg(&report)
                .arg(&wrong)
                .assert()
                .code(3);
            let (_, map) = attachment(&eml, ".svg");
            assert!(map.starts_with(b"<svg"), "{name}");
        }
    }
}

/// The opening report's JSON holds to the report's schema (without dice: no turn was resolved).
#[test]
fn the_opening_json_holds_to_the_schema() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let passwords = new_game(&dir, "ulm-1805", None);
    let schema: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/report-v1.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for (stem, _) in &passwords {
        let (_, eml) = welcome_of(&dir, 1, stem);
        let (_, json) = attachment(&eml, "-opening.json");
        let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{stem}: {errors:?}");
    }
}

/// Once `pbem send` has delivered the welcomes, no password is at rest anywhere in the game folder:
/// each welcome's copy in the outbox shows its password line in stars; the delivered mail holds it.
#[test]
fn no_password_is_left_in_the_game_folder_once_sent() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let passwords = new_game(&dir, "ulm-1805", None);
    for (stem, password) in &passwords {
        assert_eq!(
            files_holding(&dir, password),
            [format!("mail/outbox/{}", welcome_of(&dir, 1, stem).0)],
            "before sending, only {stem}'s welcome holds his password"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let path = dir.join("mail/outbox").join(welcome_of(&dir, 1, stem).0);
            assert_eq!(
                fs::metadata(path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
    }
    let folder = tmp.path().join("delivered");
    // Before the first deadline: `pbem send` refuses the first mail after it.
    pbem()
        .arg("send")
        .arg(&dir)
        .arg("--folder")
        .arg(&folder)
        .env("PBEM_NOW", "2026-12-01T00:00:00Z")
        .assert()
        .success();
    for (stem, password) in &passwords {
        assert!(
            files_holding(&dir, password).is_empty(),
            "{stem}'s password is still in {:?}",
            files_holding(&dir, password)
        );
        let (_, eml) = welcome_of(&dir, 1, stem);
        assert!(
            body_of(&eml).contains("\n    password ********\n"),
            "{stem}"
        );
        // What reached him holds it.
        assert_eq!(files_holding(&folder, password).len(), 1, "{stem}");
    }
    // A second run sends nothing again and changes nothing.
    let before = tree(&dir);
    pbem()
        .arg("send")
        .arg(&dir)
        .arg("--folder")
        .arg(&folder)
        .assert()
        .success();
    assert_eq!(tree(&dir).len(), before.len());
}

/// `replace` mails the new player his pack: the welcome with his password, the power's last report
/// and its JSON (which his own check accepts for the current turn), the guide; tells every other
/// power who now plays it (EiA 19.2.2 lets him negotiate at once), not the replaced power's
/// controller; game.toml and `status` name the new player.
#[test]
fn eia_19_2_2_replace_mails_the_new_player_his_pack_and_tells_the_others() {
    let (tmp, game) = demo();
    // Britain's player left, Russia runs it (EiA 19.2.1): Russia's players get Britain's mail.
    pbem()
        .arg("drop")
        .arg(&game)
        .args(["britain", "--to", "russia"])
        .assert()
        .success();
    let out = pbem()
        .arg("replace")
        .arg(&game)
        .args(["britain", "--email", "pitt@example.org"])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let password = stdout
        .lines()
        .find_map(|l| {
            l.split_once("keeps only its hash): ")
                .map(|(_, p)| p.trim().to_string())
        })
        .expect(&stdout);
    let (name, eml) = welcome_of(&game, 2, "britain");
    assert!(header_of(&eml, "Subject").unwrap().contains("Welcome"));
    let body = body_of(&eml);
    assert!(
        body.contains(&format!("\n    password {password}\n")),
        "{body}"
    );
    assert!(body.contains("you play Great Britain"), "{body}");
    assert!(
        body.contains("at turn 5, after the next economic phase"),
        "{body}"
    );
    let (_, last) = attachment(&eml, "-turn1-britain.txt");
    assert_eq!(
        last,
        fs::read(game.join("turns/1/reports/britain.txt")).unwrap()
    );
    let (json_name, json) = attachment(&eml, "-turn1-britain.json");
    assert_eq!(
        json,
        fs::read(game.join("turns/1/reports/britain.json")).unwrap()
    );
    let report = tmp.path().join(json_name);
    fs::write(&report, json).unwrap();
    let orders = write(tmp.path(), "pitt.txt", header("britain", &password, 2));
    pbem()
        .args(["check", "--report"])
        .arg(&report)
        .arg(&orders)
        .assert()
        .success();
    attachment(&eml, ".md");
    // To the new player alone: not the departed one, not the power's controller.
    let dry = pbem()
        .args(["send", "--dry-run"])
        .arg(&game)
        .assert()
        .success();
    let dry = String::from_utf8(dry.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = dry.lines().filter(|l| l.contains(&name)).collect();
    assert!(!lines.is_empty(), "{dry}");
    for l in &lines {
        assert!(l.contains("pitt@example.org"), "{l}");
        assert!(
            !l.contains("britain@example.org") && !l.contains("russia@"),
            "{l}"
        );
    }
    // Every other power is told who now plays Britain; Britain's own players are not sent one.
    let notices: Vec<(String, String)> = outbox(&game)
        .into_iter()
        .filter(|(n, _)| n.starts_with("t0002-notice-"))
        .collect();
    let told: Vec<&str> = notices
        .iter()
        .map(|(n, _)| n.split('-').nth(2).unwrap())
        .collect();
    assert_eq!(told, ["austria", "france", "russia"]);
    for (n, eml) in &notices {
        assert!(body_of(eml).contains("pitt@example.org"), "{n}");
    }
    // game.toml names who plays Britain now; status too.
    let config = fs::read_to_string(game.join("game.toml")).unwrap();
    assert!(
        config.contains("players = [\"pitt@example.org\"]"),
        "{config}"
    );
    assert!(!config.contains("britain@example.org"), "{config}");
    load(&game);
    pbem()
        .arg("status")
        .arg(&game)
        .assert()
        .success()
        .stdout(predicate::str::contains("Players:"))
        .stdout(predicate::str::contains(
            "pitt@example.org (takes it over at turn 5, EiA 19.2.2); run by russia until turn 5",
        ))
        .stdout(predicate::str::contains("france@example.org"));
    // Once sent, his password is nowhere in the game folder.
    pbem()
        .arg("send")
        .arg(&game)
        .arg("--folder")
        .arg(tmp.path().join("delivered"))
        .assert()
        .success();
    assert!(files_holding(&game, &password).is_empty());
}

/// A game made from a bundled scenario is the referee's: no word of the demo in its game.toml
/// (its public passwords, its title's demo mark), the title he gives in every first mail.
#[test]
fn a_game_made_from_a_scenario_keeps_no_demo_text() {
    let tmp = tempfile::tempdir().unwrap();
    for (scenario, _) in SCENARIOS {
        let dir = tmp.path().join(scenario);
        new_game(&dir, scenario, None);
        let config = fs::read_to_string(dir.join("game.toml")).unwrap();
        assert!(
            !config.to_lowercase().contains("demo"),
            "{scenario}:\n{config}"
        );
        assert!(config.starts_with("# "), "{config}");
        assert!(
            config.contains(&format!("from the scenario {scenario}.")),
            "{config}"
        );
    }
    let dir = tmp.path().join("club");
    new_game(&dir, "ulm-1805", Some("Ulm 1805, the club's autumn game"));
    let game = load(&dir);
    assert_eq!(game.config.title, "Ulm 1805, the club's autumn game");
    for (name, eml) in outbox(&dir) {
        assert!(
            body_of(&eml).starts_with("Ulm 1805, the club's autumn game\n"),
            "{name}"
        );
    }
}

/// The demo folder moved to `ulm`: what the commands print names `ulm/...`, as the referee gave it.
fn demo_in_ulm() -> (tempfile::TempDir, PathBuf) {
    let (tmp, game) = demo();
    let ulm = tmp.path().join("ulm");
    fs::rename(&game, &ulm).unwrap();
    (tmp, ulm)
}

#[test]
fn paths_are_printed_as_the_referee_gave_the_folder() {
    let (tmp, ulm) = demo_in_ulm();
    let run = |args: &[&str]| {
        let out = pbem().current_dir(tmp.path()).args(args).assert().success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let status = run(&["status", "ulm"]);
    assert!(
        status.contains("(record ulm/turns/1/record.toml)"),
        "{status}"
    );
    // Before turn 2's deadline: after it, remind writes none.
    let remind = String::from_utf8(
        pbem()
            .current_dir(tmp.path())
            .args(["remind", "ulm"])
            .env("PBEM_NOW", "2026-12-12T10:00:00Z")
            .assert()
            .success()
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    assert!(
        remind.contains(" ulm/mail/outbox/t0002-reminder-"),
        "{remind}"
    );
    let mail = write(
        &ulm.join("../mailbox"),
        "1.eml",
        eml(
            "france@example.org",
            "Mon, 7 Dec 2026 10:00:00 +0000",
            "o1@example.org",
            &format!("{}move FR-I Munich\n", header("france", FRANCE_PW, 2)),
        ),
    );
    let ingest = run(&["ingest", "ulm", mail.to_str().unwrap()]);
    assert!(ingest.contains(" ulm/orders/2/france.txt "), "{ingest}");
    assert!(ingest.contains("(ulm/mail/outbox/"), "{ingest}");
    let status = run(&["status", "ulm"]);
    assert!(status.contains("ulm/mail/inbox/"), "{status}");
    for out in [&status, &remind, &ingest] {
        assert!(!out.contains("ulm-1805/"), "{out}");
    }
}

/// `pbem --help` lists each command on one line, as cargo, git and rustup do; `pbem <command>
/// --help` gives its whole description.
#[test]
fn help_lists_one_line_a_command() {
    let out = pbem().arg("--help").assert().success();
    let help = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    for (name, line) in pbem::commands::ONE_LINE {
        let listed: Vec<&&str> = commands
            .iter()
            .filter(|l| l.trim_start().starts_with(&format!("{name} ")))
            .collect();
        assert_eq!(listed.len(), 1, "{name}: {commands:?}");
        assert!(listed[0].ends_with(line), "{}", listed[0]);
        assert!(listed[0].len() <= 100, "{}", listed[0]);
    }
    // Every command of the line is in the list, and nothing wraps: a line each (and `help`).
    assert_eq!(commands.len(), pbem::commands::ONE_LINE.len() + 1, "{help}");
    assert!(help.contains("pbem <command> --help"), "{help}");
    pbem()
        .args(["new", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("fresh dice secret for turn 1"));
}

/// The first mail of a new game says what game.toml says when it first goes: the referee's edits
/// after `pbem new` (the title, the deadline) reach the players, and each welcome keeps its password.
#[test]
fn the_first_mail_says_what_game_toml_says_when_it_is_sent() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let passwords = new_game(&dir, "ulm-1805", None);
    edit(
        &dir.join("game.toml"),
        "title = \"Ulm 1805: the Danube campaign\"",
        "title = \"The club's Ulm\"",
    );
    edit(
        &dir.join("game.toml"),
        "first = \"2026-12-06T20:00\"",
        "first = \"2026-12-13T20:00\"",
    );
    let folder = tmp.path().join("delivered");
    // Before the first deadline: `pbem send` refuses the first mail after it.
    pbem()
        .arg("send")
        .arg(&dir)
        .arg("--folder")
        .arg(&folder)
        .env("PBEM_NOW", "2026-12-01T00:00:00Z")
        .assert()
        .success();
    let delivered = tree(&folder);
    assert_eq!(
        delivered.len(),
        8,
        "a welcome and an announcement to each of four powers"
    );
    for (name, bytes) in &delivered {
        let text = body_of(&String::from_utf8(bytes.clone()).unwrap());
        assert!(text.starts_with("The club's Ulm\n"), "{name}: {text}");
        assert!(text.contains("2026-12-13 20:00"), "{name}: {text}");
        assert!(!text.contains("2026-12-06"), "{name}: {text}");
    }
    for (stem, password) in &passwords {
        assert_eq!(files_holding(&folder, password).len(), 1, "{stem}");
        assert!(files_holding(&dir, password).is_empty(), "{stem}");
    }
}

/// What the welcome says to check the rolls works: `pbem verify` of the report of turn 1 against the
/// welcome mail, whose dice commitment anchors the report's.
#[test]
fn the_welcome_anchors_the_dice_of_turn_1() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    new_game(&dir, "ulm-1805", None);
    pbem().arg("resolve").arg(&dir).assert().success();
    let report = dir.join("mail/outbox/t0001-report-france.eml");
    let welcome = dir
        .join("mail/outbox")
        .join(welcome_of(&dir, 1, "france").0);
    pbem()
        .arg("verify")
        .arg(&report)
        .arg("--announcement")
        .arg(&welcome)
        .assert()
        .success()
        .stdout(predicate::str::contains("commitment"));
    // Another game's welcome anchors nothing.
    let other = tmp.path().join("h");
    new_game(&other, "ulm-1805", None);
    pbem()
        .arg("verify")
        .arg(&report)
        .arg("--announcement")
        .arg(
            other
                .join("mail/outbox")
                .join(welcome_of(&other, 1, "france").0),
        )
        .assert()
        .code(4);
}
