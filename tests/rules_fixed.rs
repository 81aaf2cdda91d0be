//! The rules fixed with each turn's commitment (`game::rules_fixed`): in every ruleset a turn whose
//! rules (game.toml's rules settings, map.toml, tables.toml, GITM's tactical maps) changed after its
//! commitment is refused with nothing written, while a change that is no rule (a comment, a title)
//! is not; a rekey fixes the new rules and tells every player which changed; a report resolved under
//! rules other than those announced (the referee's own scheme.toml forged) fails `pbem verify`
//! against the announcement and against the previous report.

use std::fs;
use std::path::{Path, PathBuf};

use crate::rulesets::{Scenario, SCENARIOS, ULM};
use crate::support::{pbem, tree};

/// A new game of scenario `s` (`pbem new`: a fresh secret, its commitment fixing the rules):
/// (tempdir, game folder).
pub fn new_game(s: &Scenario) -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let game = t.path().join(s.id);
    pbem()
        .arg("new")
        .arg(&game)
        .args(["--from", s.id])
        .assert()
        .success();
    (t, game)
}

/// Resolves the game's current turn now (`--early`: nobody's orders are awaited).
fn resolve(game: &Path) {
    pbem()
        .args(["resolve", "--early"])
        .arg(game)
        .assert()
        .success();
}

/// `pbem rekey`: the current turn gets a fresh secret, and a commitment fixing the rules as they
/// are now.
fn rekey(game: &Path, reason: &str) {
    pbem()
        .arg("rekey")
        .arg(game)
        .args(["--reason", reason])
        .assert()
        .success();
}

/// `pbem verify REPORTS --ANCHOR FILE`: whether the report checks out, and what verify printed.
fn verify(reports: &[&Path], anchor: &str, file: &Path) -> (bool, String) {
    let out = pbem()
        .arg("verify")
        .args(reports)
        .arg(format!("--{anchor}"))
        .arg(file)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `pbem audit GAME`: whether every turn audited clean, and what audit printed (its errors after).
fn audit(game: &Path) -> (bool, String) {
    let out = pbem().arg("audit").arg(game).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    (out.status.success(), said.into_owned())
}

fn append(path: &Path, text: &str) {
    let mut bytes = fs::read(path).unwrap();
    bytes.extend_from_slice(text.as_bytes());
    fs::write(path, bytes).unwrap();
}

/// A change of a rule: the part it changes, the file and its edit.
type RuleChange = (String, PathBuf, Box<dyn Fn(&Path)>);

/// Every rule a referee could change in the game folder of `s`. GITM's tactical maps are rules too.
fn rule_changes(game: &Path) -> Vec<RuleChange> {
    let mut out: Vec<RuleChange> = vec![
        (
            "tables.toml".into(),
            game.join("tables.toml"),
            Box::new(|p| append(p, "\n# a house rule\n")),
        ),
        (
            "map.toml".into(),
            game.join("map.toml"),
            Box::new(|p| append(p, "\n# redrawn\n")),
        ),
        (
            "game.toml (rules settings)".into(),
            game.join("game.toml"),
            Box::new(|p| {
                let text = fs::read_to_string(p).unwrap();
                let start = text.lines().find(|l| l.starts_with("start = ")).unwrap();
                fs::write(p, text.replacen(start, "start = \"1700-01\"", 1)).unwrap();
            }),
        ),
    ];
    if let Ok(entries) = fs::read_dir(game.join("tactical")) {
        let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        let file = files[0].clone();
        out.push((
            format!("tactical/{}", file.file_name().unwrap().to_string_lossy()),
            file,
            Box::new(|p| append(p, "\n")),
        ));
    }
    out
}

/// The opening position changed: the first turn's state, which no turn makes (every later one is
/// made by the turn before, and audit re-derives it). A referee who knew the dice moved or
/// strengthened the units they fall on, and `audit` stayed green.
fn opening_change(game: &Path) -> RuleChange {
    (
        "turns/1/state.toml".into(),
        game.join("turns/1/state.toml"),
        Box::new(|p| {
            append(
                p,
                "
# a unit moved
",
            )
        }),
    )
}

/// A power added to game.toml: its entropy line went into the seed, and no player checks it (each
/// checks his own), so a referee who knew the dice tried one line after another until they suited
/// him, `audit` and every player's `verify --orders` green.
fn contributor_change(game: &Path) -> RuleChange {
    (
        "game.toml (powers and players)".into(),
        game.join("game.toml"),
        Box::new(|p| {
            let text = fs::read_to_string(p).unwrap();
            let hash = text
                .lines()
                .find(|l| l.starts_with("password_hash = "))
                .unwrap()
                .to_string();
            append(
                p,
                &format!("\n[[power]]\nid = \"intruder\"\nname = \"Intruder\"\nplayers = [\"intruder@example.org\"]\n{hash}\n"),
            );
        }),
    )
}

#[test]
fn a_turn_whose_rules_changed_after_its_commitment_is_refused_in_every_ruleset() {
    for s in SCENARIOS {
        let (_t, game) = new_game(s);
        let scheme = fs::read_to_string(game.join("turns/1/scheme.toml")).unwrap();
        assert!(scheme.contains("[rules.parts]"), "{}: {scheme}", s.id);
        let mut changes = rule_changes(&game);
        assert_eq!(changes.len(), if s.id == "gitm-italy-1809" { 4 } else { 3 });
        changes.push(opening_change(&game));
        changes.push(contributor_change(&game));
        for (part, file, change) in changes {
            let before = fs::read(&file).unwrap();
            change(&file);
            let files = tree(&game);
            let out = pbem().arg("resolve").arg(&game).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{} {part}: resolved", s.id);
            assert!(
                err.contains(&format!("and {part} has changed since"))
                    && err.contains("pbem rekey")
                    && err.contains("Nothing was changed"),
                "{} {part}: {err}",
                s.id
            );
            assert_eq!(tree(&game), files, "{} {part}: a refused turn wrote", s.id);
            fs::write(&file, before).unwrap();
        }
        // What is no rule changes nothing of them: a comment, the title, late orders.
        let config = game.join("game.toml");
        let text = fs::read_to_string(&config).unwrap();
        let title = text.lines().find(|l| l.starts_with("title = ")).unwrap();
        fs::write(
            &config,
            format!(
                "# the referee's note\n{}",
                text.replacen(title, "title = \"Renamed\"", 1).replacen(
                    "late_orders = \"reject\"",
                    "late_orders = \"hold\"",
                    1
                )
            ),
        )
        .unwrap();
        resolve(&game);
        let report =
            fs::read_to_string(game.join(format!("turns/1/reports/{}.txt", s.reports[0]))).unwrap();
        let digest = pbem::game::scheme::load(&crate::support::load(&game), 1)
            .unwrap()
            .unwrap()
            .rules
            .unwrap()
            .digest;
        assert!(report.contains(&format!("\nrules: {digest}\n")), "{}", s.id);
    }
}

/// The mail of `kind` (`announcement`, `notice-...`) of turn `turn` to `power` in the outbox.
fn mail(game: &Path, turn: u32, kind: &str, power: &str) -> PathBuf {
    let prefix = format!("t{turn:04}-{kind}-{power}");
    let mut found: Vec<PathBuf> = fs::read_dir(game.join("mail/outbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&prefix)
        })
        .collect();
    found.sort();
    found.pop().unwrap_or_else(|| panic!("no {prefix} mail"))
}

/// A rollback's new commitment fixes the rules as they now stand; its notice tells every player
/// which parts changed, in the words of a rekey's notice, and tells none when none did. (It gave
/// the new rules digest alone.)
#[test]
fn a_rollback_tells_every_player_which_rules_changed_as_a_rekey_does() {
    for changed in [true, false] {
        let (_t, game) = new_game(&ULM);
        resolve(&game);
        if changed {
            append(&game.join("tables.toml"), "\n# agreed by all\n");
        }
        pbem()
            .arg("rollback")
            .arg(&game)
            .args(["--to-turn", "1", "--reason", "a house rule agreed by all"])
            .assert()
            .success();
        for power in ULM.reports {
            let notice = crate::support::read_outbox_string(mail(&game, 1, "notice", power));
            let flat = notice
                .replace("=\r\n", "")
                .replace("\r\n ", " ")
                .replace('\n', " ");
            let told = "turn 1 is played again (a house rule agreed by all), with a new dice commitment (the rules it fixes changed: tables.toml); orders are due";
            assert_eq!(flat.contains(told), changed, "{notice}");
            assert_eq!(flat.contains("changed: "), changed, "{notice}");
            assert!(flat.contains("The rules digest of turn 1 is"), "{notice}");
        }
    }
}

#[test]
fn a_rekey_fixes_the_new_rules_and_tells_every_player_which_changed() {
    let (_t, game) = new_game(&ULM);
    let announced = mail(&game, 1, "announcement", "france");
    append(&game.join("tables.toml"), "\n# agreed by all\n");
    let out = pbem()
        .arg("rekey")
        .arg(&game)
        .args(["--reason", "a house rule agreed by all"])
        .output()
        .unwrap();
    assert!(out.status.success());
    for power in ULM.reports {
        let notice = crate::support::read_outbox_string(mail(&game, 1, "notice", power));
        let flat = notice
            .replace("=\r\n", "")
            .replace("\r\n ", " ")
            .replace('\n', " ");
        assert!(
            flat.contains("the rules it fixes changed: tables.toml"),
            "{notice}"
        );
        assert!(flat.contains("The rules digest of turn 1 is"), "{notice}");
    }
    resolve(&game);
    let report = game.join("turns/1/reports/france.txt");
    let notice = mail(&game, 1, "notice", "france");
    let (passed, said) = verify(&[&report], "announcement", &notice);
    assert!(passed, "{said}");
    assert!(
        said.contains("the turn was resolved under the rules fixed with its commitment"),
        "{said}"
    );
    // The first announcement fixed other rules with another commitment: the report is not its
    // turn's, which the commitment says; the rules fixed anew by the notice are not accused.
    let (passed, said) = verify(&[&report], "announcement", &announced);
    assert!(!passed);
    assert!(
        said.contains("the dice secret was changed after it was announced"),
        "{said}"
    );
    assert!(!said.contains("changed after its commitment"), "{said}");
}

/// A ulm-1805 game whose referee changed tables.toml after turn `turn`'s commitment and wrote the
/// new rules into the turn's scheme.toml himself (his own files), and into the record of the turn
/// before, which keeps the rules its reports announced, so that `resolve` took them; then resolved
/// turn `turn`. Turns before it are resolved honestly. (tempdir, game folder).
pub fn forged_rules_game(turn: u32) -> (tempfile::TempDir, PathBuf) {
    let (t, game) = new_game(&ULM);
    for _ in 1..turn {
        resolve(&game);
    }
    append(
        &game.join("tables.toml"),
        "\n# changed once the dice were known\n",
    );
    let loaded = crate::support::load(&game);
    let path = game.join(format!("turns/{turn}/scheme.toml"));
    let mut fixed = pbem::game::scheme::load(&loaded, turn).unwrap().unwrap();
    let announced = fixed.rules.as_ref().unwrap().digest.clone();
    fixed.rules = Some(pbem::game::rules_fixed::of(&loaded).unwrap());
    fs::write(&path, toml::to_string(&fixed).unwrap()).unwrap();
    if turn > 1 {
        let record = game.join(format!("turns/{}/record.toml", turn - 1));
        let text = fs::read_to_string(&record).unwrap();
        let forged = &fixed.rules.as_ref().unwrap().digest;
        fs::write(&record, text.replacen(&announced, forged, 1)).unwrap();
    }
    resolve(&game);
    (t, game)
}

#[test]
fn a_report_resolved_under_other_rules_than_announced_fails_verify() {
    // Against the announcement of turn 1.
    let (_t, game) = forged_rules_game(1);
    let (passed, said) = verify(
        &[&game.join("turns/1/reports/france.txt")],
        "announcement",
        &mail(&game, 1, "announcement", "france"),
    );
    assert!(!passed, "{said}");
    assert!(
        said.contains("the rules of turn 1 changed after its commitment"),
        "{said}"
    );
    // Against the previous report, which announced turn 2's rules.
    let (_t, game) = forged_rules_game(2);
    for form in ["france.txt", "france.json", "france.html"] {
        let (passed, said) = verify(
            &[&game.join(format!("turns/2/reports/{form}"))],
            "previous",
            &game.join("turns/1/reports/france.json"),
        );
        assert!(!passed, "{form}: {said}");
        assert!(
            said.contains("the rules of turn 2 changed after its commitment"),
            "{form}: {said}"
        );
    }
}

#[test]
fn an_honest_turn_verifies_its_rules_against_the_previous_report_in_every_form() {
    let (_t, game) = new_game(&ULM);
    resolve(&game);
    resolve(&game);
    for previous in ["france.txt", "france.html", "france.json"] {
        let (passed, said) = verify(
            &[
                &game.join("turns/2/reports/france.txt"),
                &game.join("turns/2/reports/france.json"),
            ],
            "previous",
            &game.join(format!("turns/1/reports/{previous}")),
        );
        assert!(passed, "{previous}: {said}");
        assert!(
            said.contains("the turn was resolved under the rules fixed with its commitment (the previous report"),
            "{previous}: {said}"
        );
    }
}

#[test]
fn audit_names_the_rules_changed_after_a_resolved_turn() {
    let (_t, game) = new_game(&ULM);
    resolve(&game);
    pbem().arg("audit").arg(&game).assert().success();
    let map = fs::read(game.join("map.toml")).unwrap();
    append(&game.join("map.toml"), "\n# redrawn\n");
    let (passed, said) = audit(&game);
    assert!(!passed, "{said}");
    assert!(said.contains("and map.toml has changed since"), "{said}");
    // The opening position, which no turn's resolution makes, is fixed as the map is.
    fs::write(game.join("map.toml"), map).unwrap();
    append(&game.join("turns/1/state.toml"), "\n# a unit moved\n");
    let (passed, said) = audit(&game);
    assert!(!passed, "{said}");
    assert!(
        said.contains("and turns/1/state.toml has changed since"),
        "{said}"
    );
}

/// The bundled ulm-1805 game rekeyed (its turn 1 then fixes the rules), France's orders ingested
/// from a mail; with `forged`, tables.toml changed after and scheme.toml written to match; turn 1
/// resolved. (tempdir, game folder, France's acknowledgement).
pub fn acknowledged_game(forged: bool) -> (tempfile::TempDir, PathBuf, String) {
    use crate::support::{eml, header, write, FRANCE_PW};
    let (t, game) = crate::support::game();
    rekey(&game, "the demo's secrets are public");
    let mail = write(
        t.path(),
        "france.eml",
        eml(
            "france@example.org",
            "Sat, 5 Dec 2026 18:00:00 +0100",
            "fr-1@example.org",
            &header("france", FRANCE_PW, 1),
        ),
    );
    pbem()
        .arg("ingest")
        .arg(&game)
        .arg(&mail)
        .assert()
        .success();
    let ack = crate::support::acks(&game)
        .into_iter()
        .find(|(n, _)| n.contains("-ack-france"))
        .unwrap()
        .1;
    if forged {
        append(
            &game.join("tables.toml"),
            "\n# changed once the dice were known\n",
        );
        let loaded = crate::support::load(&game);
        let mut fixed = pbem::game::scheme::load(&loaded, 1).unwrap().unwrap();
        fixed.rules = Some(pbem::game::rules_fixed::of(&loaded).unwrap());
        fs::write(
            game.join("turns/1/scheme.toml"),
            toml::to_string(&fixed).unwrap(),
        )
        .unwrap();
    }
    resolve(&game);
    (t, game, ack)
}

#[test]
fn the_acknowledgement_anchors_the_rules_as_it_anchors_the_commitment() {
    for (forged, ok) in [(false, true), (true, false)] {
        let (t, game, ack) = acknowledged_game(forged);
        assert!(ack.contains("Rules digest of turn 1: "), "{ack}");
        let ack = crate::support::write(t.path(), "ack.eml", ack);
        let (passed, said) = verify(&[&game.join("turns/1/reports/france.json")], "ack", &ack);
        assert_eq!(passed, ok, "{said}");
        let expected = match ok {
            true => "the turn was resolved under the rules fixed with its commitment (the acknowledgement",
            false => "the rules of turn 1 changed after its commitment: the acknowledgement",
        };
        assert!(said.contains(expected), "{said}");
    }
}

/// `resolve` plays a turn under the rules of its own commitment alone: a later turn's scheme.toml
/// fixing other rules (written by the referee before he resolves, or by a rekey of the next turn
/// before a forced rerun) does not let it play under rules its reports do not name (the header
/// would give the announced digest, and verify and audit pass).
#[test]
fn rules_changed_behind_a_commitment_are_refused_whatever_a_later_commitment_fixes() {
    // A scheme.toml of turn 2 written by hand, then turn 1 resolved.
    let (_t, game) = new_game(&ULM);
    append(
        &game.join("tables.toml"),
        "\n# changed once the dice were known\n",
    );
    let loaded = crate::support::load(&game);
    let mut later = pbem::game::scheme::load(&loaded, 1).unwrap().unwrap();
    later.commitment = "00".repeat(32);
    later.rules = Some(pbem::game::rules_fixed::of(&loaded).unwrap());
    fs::create_dir_all(game.join("turns/2")).unwrap();
    fs::write(
        game.join("turns/2/scheme.toml"),
        toml::to_string(&later).unwrap(),
    )
    .unwrap();
    let out = pbem()
        .args(["resolve", "--early"])
        .arg(&game)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "turn 1 resolved under other rules");
    assert!(err.contains("and tables.toml has changed since"), "{err}");
    assert!(!game.join("turns/1/record.toml").exists());
    // Turn 1 resolved, turn 2 rekeyed under new rules, turn 1 resolved again.
    let (_t, game) = new_game(&ULM);
    resolve(&game);
    append(&game.join("tables.toml"), "\n# a house rule from turn 2\n");
    rekey(&game, "a house rule from turn 2");
    let files = tree(&game);
    let out = pbem()
        .args(["resolve", "--force", "--turn", "1"])
        .arg(&game)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "turn 1 resolved again under turn 2's rules"
    );
    assert!(
        err.contains("turn 1's commitment") && err.contains("and tables.toml has changed since"),
        "{err}"
    );
    assert_eq!(tree(&game), files);
}

/// A turn's scheme.toml must fix the rules the reports of the turn before announced with its
/// commitment: removed, stripped of its rules or rewritten with others, it would let the turn be
/// played unchecked (with the file gone, the reports' header even gave the digest announced, and
/// verify and audit passed). `resolve` refuses it, writing nothing, and `audit` names it.
#[test]
fn a_scheme_toml_rewritten_after_the_commitment_is_refused_and_named() {
    let (_t, game) = new_game(&ULM);
    resolve(&game);
    let scheme = game.join("turns/2/scheme.toml");
    let honest = fs::read_to_string(&scheme).unwrap();
    let stripped = honest[..honest.find("[rules]").unwrap()].to_string();
    append(
        &game.join("tables.toml"),
        "\n# changed once the dice were known\n",
    );
    let loaded = crate::support::load(&game);
    let mut other = pbem::game::scheme::load(&loaded, 2).unwrap().unwrap();
    other.rules = Some(pbem::game::rules_fixed::of(&loaded).unwrap());
    let forgeries = [
        (None, "turns/2/scheme.toml is missing"),
        (Some(stripped), "turns/2/scheme.toml fixes no rules"),
        (
            Some(toml::to_string(&other).unwrap()),
            "turns/2/scheme.toml fixes the rules digest",
        ),
    ];
    for (text, says) in forgeries {
        match &text {
            None => fs::remove_file(&scheme).unwrap(),
            Some(t) => fs::write(&scheme, t).unwrap(),
        }
        let files = tree(&game);
        let out = pbem()
            .args(["resolve", "--early"])
            .arg(&game)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{says}: resolved");
        assert!(
            err.contains(says)
                && err.contains("turn 1's reports announced turn 2's commitment")
                && err.contains("pbem rekey"),
            "{says}: {err}"
        );
        assert_eq!(tree(&game), files, "{says}: a refused turn wrote");
    }
    // Turn 2 resolved honestly, then its scheme.toml removed: audit names it.
    fs::write(&scheme, &honest).unwrap();
    let tables = fs::read_to_string(game.join("tables.toml")).unwrap();
    let tables = tables.replace("\n# changed once the dice were known\n", "");
    fs::write(game.join("tables.toml"), tables).unwrap();
    resolve(&game);
    pbem().arg("audit").arg(&game).assert().success();
    fs::remove_file(&scheme).unwrap();
    let (passed, said) = audit(&game);
    assert!(!passed, "{said}");
    assert!(said.contains("turns/2/scheme.toml is missing"), "{said}");
}

/// After an honest rekey that changed every rule part, in every ruleset, `audit` re-resolves each
/// earlier turn under the rules its own commitment fixed, as the game kept them (`rules/<sha256>`),
/// and finds it as resolved; each kept part is the file it is named after by its SHA-256.
#[test]
fn audit_re_resolves_a_turn_under_its_own_rules_after_a_rekey_changed_them_in_every_ruleset() {
    for s in SCENARIOS {
        let (_t, game) = new_game(s);
        resolve(&game);
        for (_, file, change) in rule_changes(&game) {
            change(&file);
        }
        rekey(&game, "house rules");
        resolve(&game);
        let (passed, said) = audit(&game);
        assert!(passed, "{}: {said}", s.id);
        let first = said.lines().next().unwrap();
        assert!(
            first.starts_with("turn 1: ok (")
                && first.contains("under the rules its commitment fixed"),
            "{}: {said}",
            s.id
        );
        assert!(
            !said.lines().nth(1).unwrap().contains("under the rules"),
            "{}: {said}",
            s.id
        );
        for kept in fs::read_dir(game.join("rules")).unwrap() {
            let kept = kept.unwrap().path();
            let digest = pbem::game::record::sha256_hex(&fs::read(&kept).unwrap());
            assert_eq!(kept.file_name().unwrap().to_string_lossy(), digest);
        }
    }
}

/// A kept rules part rewritten is named by `audit`; a game that did not keep a turn's rules (made
/// before pbem kept them) is re-resolved under the rules of now, and `audit` says first that the
/// rules changed through a later commitment and how to audit the turn under its own, rather than a
/// bare mismatch an auditor would read as a forgery.
#[test]
fn audit_tells_why_a_turn_differs_when_its_own_rules_were_not_kept() {
    let (_t, game) = new_game(&ULM);
    resolve(&game);
    let before = shift_calendar_and_rekey(&game);
    // The settings turn 1's commitment fixed, kept, rewritten.
    let settings = fs::read_dir(game.join("rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| fs::read_to_string(p).unwrap().contains("1805-09"))
        .unwrap();
    let kept = fs::read_to_string(&settings).unwrap();
    fs::write(&settings, kept.replace("1805-09", "1805-11")).unwrap();
    let (passed, said) = audit(&game);
    assert!(!passed, "{said}");
    assert!(said.contains("is not the part it is named after"), "{said}");
    // Not kept at all.
    fs::remove_dir_all(game.join("rules")).unwrap();
    let (passed, said) = audit(&game);
    assert!(!passed, "{said}");
    let first = said.lines().next().unwrap();
    assert!(
        first.starts_with("turn 1: MISMATCH: turn 1 was resolved under the rules its commitment fixed")
            && first.contains("game.toml (rules settings) has changed since, and the commitment of turn 2 fixed the new rules")
            && first.contains("not of a forgery")
            && first.contains("--turn 1"),
        "{said}"
    );
    // Under its own rules again, turn 1 audits clean, as the message says.
    fs::write(game.join("game.toml"), &before).unwrap();
    pbem()
        .args(["audit", "--turn", "1"])
        .arg(&game)
        .assert()
        .success();
}

/// The missed-turn policy of EiA 19.2 (`[replacement] missed_turns`, `missed_turns_to`) decides
/// which power a turn drops and who runs it, and `allies_share_sight` what each report tells: both
/// are rules fixed with the commitment. Set after it, they were taken (a referee handed three powers
/// that sent no orders to France), the digest unchanged. A game that sets neither keeps its digest.
#[test]
fn eia_19_2_missed_turns_and_allies_sight_are_fixed_with_the_commitment() {
    let (_t, game) = new_game(&ULM);
    let config = game.join("game.toml");
    let before = fs::read_to_string(&config).unwrap();
    let changes = [
        before.replacen("econ_every = 3", "econ_every = 3\nmissed_turns = 1", 1),
        before.replacen(
            "econ_every = 3",
            "econ_every = 3\nmissed_turns = 1\nmissed_turns_to = \"france\"",
            1,
        ),
        before.replacen(
            "\n[calendar]",
            "\nallies_share_sight = true\n\n[calendar]",
            1,
        ),
    ];
    for changed in changes {
        assert_ne!(changed, before);
        fs::write(&config, &changed).unwrap();
        let files = tree(&game);
        let out = pbem()
            .args(["resolve", "--early"])
            .arg(&game)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "resolved under\n{changed}");
        assert!(
            err.contains("and game.toml (rules settings) has changed since"),
            "{err}"
        );
        assert_eq!(tree(&game), files);
    }
    // Unset, they change nothing of the settings' text, and so of any game's digest.
    fs::write(&config, &before).unwrap();
    let loaded = crate::support::load(&game);
    let text = pbem::game::rules_fixed::settings_text(&loaded.config).unwrap();
    assert!(
        !text.contains("missed_turns") && !text.contains("allies_share_sight"),
        "{text}"
    );
    resolve(&game);
}

/// After an honest rekey that changed the rules, the previous report gives the old commitment and
/// the old rules: `verify` against it fails on the commitment alone, without saying the rules were
/// changed once the dice were known (they were fixed anew with a new commitment, told by its
/// notice), and against the notice the report checks out.
#[test]
fn verify_does_not_accuse_rules_fixed_anew_by_a_rekey() {
    let (_t, game) = new_game(&ULM);
    resolve(&game);
    append(&game.join("tables.toml"), "\n# a house rule from turn 2\n");
    rekey(&game, "a house rule from turn 2");
    resolve(&game);
    let report = game.join("turns/2/reports/france.json");
    let (passed, said) = verify(
        &[&report],
        "previous",
        &game.join("turns/1/reports/france.json"),
    );
    assert!(!passed, "{said}");
    assert!(
        said.contains("the dice secret was changed after it was announced"),
        "{said}"
    );
    assert!(!said.contains("changed after its commitment"), "{said}");
    let (passed, said) = verify(
        &[&report],
        "announcement",
        &mail(&game, 2, "notice", "france"),
    );
    assert!(passed, "{said}");
    assert!(
        said.contains("the turn was resolved under the rules fixed with its commitment"),
        "{said}"
    );
}

#[test]
fn status_prints_the_rules_digest_and_what_changed_since_the_commitment() {
    let (_t, game) = new_game(&ULM);
    let status = || {
        let out = pbem().arg("status").arg(&game).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let said = status();
    assert!(said.contains("Rules for turn 1: "), "{said}");
    assert!(!said.contains("CHANGED"), "{said}");
    append(&game.join("tables.toml"), "\n# a house rule\n");
    let said = status();
    assert!(
        said.contains("CHANGED since the commitment: ")
            && said.contains("and tables.toml has changed since"),
        "{said}"
    );
    // A change of [dice] alone is named as the scheme's, not as the rules'.
    fs::write(
        game.join("tables.toml"),
        fs::read_to_string(game.join("tables.toml"))
            .unwrap()
            .replace("\n# a house rule\n", ""),
    )
    .unwrap();
    crate::support::add_to_config(&game, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    let said = status();
    assert!(
        said.contains("the dice scheme was changed after the commitment"),
        "{said}"
    );
    assert!(!said.contains("has changed since"), "{said}");
}

/// `pbem audit --help` says what the audit checks, and that it re-resolves each turn under the rules
/// its own commitment fixed, restored from `rules/` (`game::rules_kept`) when a later commitment
/// changed them, not under the folder's rules of now.
#[test]
fn audit_help_says_each_turn_is_re_resolved_under_the_rules_its_commitment_fixed() {
    let out = pbem().args(["audit", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for said in [
        "re-resolves the turn under the rules its own commitment fixed",
        "the parts kept in rules/",
        "the commitment against the one the previous turn's reports and the turn's delivered announcement gave",
        "each orders file and the referee's acts against the digests the record keeps",
        "What it cannot check: that each player received his report as written",
    ] {
        assert!(flat.contains(said), "`pbem audit --help` lacks {said:?}:\n{help}");
    }
}

/// A byte changed in a part of the rules kept in `rules/` is named by `audit` for every turn whose
/// commitment fixed it, as a MISMATCH (exit 4): when the turn's rules are the folder's of now (the
/// kept part unused today, the witness a later audit reads once a rekey changes the rules), and when
/// it is re-resolved under the kept part, without stopping the audit of the other turns.
#[test]
fn audit_names_a_kept_rules_part_changed_whether_or_not_it_re_resolves_under_it() {
    let (_t, game) = new_game(&ULM);
    resolve(&game);
    resolve(&game);
    // The map turn 1 and 2's commitments fixed, the folder's too: a byte changed in its kept copy.
    let map = pbem::game::record::sha256_hex(&fs::read(game.join("map.toml")).unwrap());
    let kept = game.join("rules").join(&map);
    let mut bytes = fs::read(&kept).unwrap();
    bytes[0] ^= 1;
    fs::write(&kept, &bytes).unwrap();
    let out = pbem().arg("audit").arg(&game).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{said}");
    for turn in [1, 2] {
        assert!(
            said.contains(&format!("turn {turn}: MISMATCH: ulm-1805/rules/{map} is not the part it is named after (its SHA-256 differs): the rules kept were changed (it is the map.toml the turn's commitment fixed)")),
            "{said}"
        );
    }
    bytes[0] ^= 1;
    fs::write(&kept, &bytes).unwrap();
    // The calendar changed and rekeyed: turn 1 is re-resolved under its kept settings; those
    // changed, turn 1 is named and turn 2 still audited.
    shift_calendar_and_rekey(&game);
    resolve(&game);
    let settings = fs::read_dir(game.join("rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            fs::read_to_string(p)
                .unwrap_or_default()
                .contains("1805-09")
        })
        .unwrap();
    let text = fs::read_to_string(&settings).unwrap();
    fs::write(&settings, text.replace("1805-09", "1805-11")).unwrap();
    let out = pbem().arg("audit").arg(&game).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{said}");
    assert!(
        said.lines()
            .next()
            .unwrap()
            .starts_with("turn 1: MISMATCH: ulm-1805/rules/")
            && said.contains("(it is the game.toml (rules settings) the turn's commitment fixed)"),
        "{said}"
    );
    assert!(said.contains("\nturn 3: "), "{said}");
}

/// The referee moves the calendar a month on (a rules setting of game.toml) and rekeys the turn,
/// as docs/REFEREE.md says a house rule is changed on purpose. Returns game.toml as it was.
fn shift_calendar_and_rekey(game: &Path) -> String {
    let config = game.join("game.toml");
    let before = fs::read_to_string(&config).unwrap();
    fs::write(
        &config,
        before.replacen("start = \"1805-09\"", "start = \"1805-10\"", 1),
    )
    .unwrap();
    rekey(game, "the calendar was a month off");
    before
}
