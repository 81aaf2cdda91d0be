//! Crash safety of a turn: `pbem turn` and `pbem resolve` killed at every file they put in place.
//!
//! `PBEM_CRASH_BEFORE=<file name>` makes pbem abort right before that file is renamed into place
//! (`game::fsio`), as a power cut or a `kill -9` would, after the file's temporary copy was written and
//! synced. For every file a turn writes, a run is killed there, and then:
//!
//! - the game is either exactly at the old turn or exactly at the new one: turn 1 is resolved if and
//!   only if `turns/1/record.toml` exists, and every file is the old turn's or the new turn's, byte for
//!   byte; with the record, every file is the new turn's;
//! - a rerun completes and leaves the same bytes as a run that was never interrupted.
//!
//! What a crash may leave besides, and why it is harmless:
//! - temporary files `.tmp-*` next to the file that was being written: nothing in pbem reads them
//!   (`copy_tree` skips them, `send` only takes `*.eml` files that do not start with a dot), a rerun
//!   does not need them, and the next pbem that takes the game's lock removes them (`game::fsio`);
//! - files of the new turn written before the record (`turns/2/state.toml`, the reports, the log, the
//!   outbox messages, the next commitment): while the record is missing the turn is not resolved and
//!   nothing reads them as its results; a rerun writes them again with the same bytes, since it resolves
//!   from the same orders with the same secret; `pbem send` leaves a turn's messages in the outbox
//!   until its record lists them with their bytes (a late order may change them before the rerun);
//! - the empty lock file `.lock`: the lock is an advisory lock that dies with the process.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use assert_cmd::Command;

type Tree = BTreeMap<String, Vec<u8>>;

fn pbem() -> Command {
    let mut c = Command::cargo_bin("pbem").expect("the pbem binary");
    c.env_remove("PBEM_CRASH_BEFORE");
    c
}

/// Every file under `dir` (but the lock), by path relative to it with `/`.
fn tree(dir: &Path) -> Tree {
    let mut out = Tree::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().unwrap() != ".lock" {
                let rel = p.strip_prefix(dir).unwrap();
                let rel: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.insert(rel.join("/"), fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn is_tmp(path: &str) -> bool {
    path.rsplit('/').next().unwrap().starts_with(".tmp-")
}

fn without_tmp(t: &Tree) -> Tree {
    t.iter()
        .filter(|(p, _)| !is_tmp(p))
        .map(|(p, b)| (p.clone(), b.clone()))
        .collect()
}

fn materialize(t: &Tree, dir: &Path) {
    for (rel, bytes) in t {
        let p = dir.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, bytes).unwrap();
    }
}

/// A bundled scenario's game, unresolved, with its sample orders of turn 1. The turn pipeline and its
/// files are the engine's, the same for every ruleset: each test takes another ruleset's game, so
/// that three rulesets' turns are killed and not one's three times (the cheaper ones for the tests
/// that kill at every file).
fn demo_game(scenario: &str) -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(GAME);
    pbem::bundled::write_scenario(scenario, &dir).unwrap();
    pbem::bundled::write_sample_orders(scenario, &dir, 1).unwrap();
    tree(&dir)
}

/// The game's folder name in every test, whatever its scenario.
const GAME: &str = "game";

/// Runs `args` on a copy of `start` in a new folder and returns the folder.
fn run(start: &Tree, args: &[&str], crash_before: Option<&str>) -> (tempfile::TempDir, bool) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(GAME);
    materialize(start, &dir);
    let ok = run_in(&dir, args, crash_before);
    (tmp, ok)
}

fn run_in(dir: &Path, args: &[&str], crash_before: Option<&str>) -> bool {
    let mut c = pbem();
    c.args(args).arg(dir);
    if let Some(name) = crash_before {
        c.env("PBEM_CRASH_BEFORE", name);
    }
    let out = c.output().unwrap();
    if crash_before.is_none() && !out.status.success() {
        // What went wrong, for the assertion that follows.
        eprintln!(
            "pbem {args:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    out.status.success()
}

/// The file names a run writes: those of the files that are new or changed from `old` to `new`.
fn written(old: &Tree, new: &Tree) -> Vec<String> {
    let names: BTreeSet<String> = new
        .iter()
        .filter(|(p, b)| old.get(*p) != Some(*b))
        .map(|(p, _)| p.rsplit('/').next().unwrap().to_string())
        .collect();
    names.into_iter().collect()
}

fn current_turn(dir: &Path) -> u32 {
    pbem::game::Game::load(dir).unwrap().current_turn().unwrap()
}

/// Checks a game killed while going from `old` to `new`, then reruns it with `rerun` and checks that
/// it ends as `new`. Returns the number of temporary files the crash left.
fn check_crash(dir: &Path, name: &str, old: &Tree, new: &Tree, rerun: &[&str]) -> usize {
    let after = tree(dir);
    let stray = after.keys().filter(|p| is_tmp(p)).count();
    let after = without_tmp(&after);
    let resolved = after.contains_key("turns/1/record.toml");
    if resolved {
        assert!(
            after == *new,
            "killed before {name}: a record, but not the new turn's files"
        );
        assert_eq!(current_turn(dir), 2);
    } else {
        assert_eq!(current_turn(dir), 1, "killed before {name}");
        let paths: BTreeSet<&String> = old.keys().chain(new.keys()).chain(after.keys()).collect();
        for p in paths {
            let now = after.get(p);
            assert!(
                now == old.get(p) || now == new.get(p),
                "killed before {name}: {p} is neither the old turn's nor the new turn's"
            );
        }
    }
    assert!(
        run_in(dir, rerun, None),
        "the rerun after a crash before {name} failed"
    );
    let done = without_tmp(&tree(dir));
    for (p, b) in new {
        assert!(
            done.get(p) == Some(b),
            "after a crash before {name} and a rerun, {p} differs from an uninterrupted run"
        );
    }
    assert_eq!(
        done.len(),
        new.len(),
        "after a crash before {name} and a rerun, files differ: {:?}",
        done.keys()
            .filter(|p| !new.contains_key(*p))
            .collect::<Vec<_>>()
    );
    stray
}

#[test]
fn a_turn_killed_before_any_file_is_either_the_old_turn_or_the_new_one_and_a_rerun_finishes_it() {
    let old = demo_game("ngg-smolensk-1812");
    let (done, ok) = run(&old, &["turn"], None);
    assert!(ok, "the uninterrupted turn failed");
    let new = without_tmp(&tree(&done.path().join(GAME)));
    let names = written(&old, &new);
    // The state and commitment of turn 2, the log, the summary, each power's report in every form,
    // its mail and the record, at least.
    assert!(
        names.len() >= 20,
        "only {} files written: {names:?}",
        names.len()
    );
    assert!(names.iter().any(|n| n == "record.toml"));
    let mut stray = 0;
    for (k, name) in names.iter().enumerate() {
        // Both commands run the same turn: alternate them, and the command of the rerun.
        let (cmd, rerun): (&[&str], &[&str]) = if k % 2 == 0 {
            (&["turn"], &["resolve"])
        } else {
            (&["resolve", "--turn", "1"], &["turn"])
        };
        let (tmp, ok) = run(&old, cmd, Some(name));
        assert!(
            !ok,
            "PBEM_CRASH_BEFORE={name}: pbem was not killed (is the file still written?)"
        );
        stray += check_crash(&tmp.path().join(GAME), name, &old, &new, rerun);
    }
    // Each crash leaves at least the temporary file it was about to rename (a crash inside the batch
    // of a turn's files, `fsio::Batch`, also those of the batch not yet put in place); the rerun's
    // lock removes them all (checked above: the rerun ends with exactly the new turn's files).
    assert!(
        stray >= names.len(),
        "{stray} temporary files for {} crashes",
        names.len()
    );
}

#[test]
fn a_forced_rerun_killed_anywhere_leaves_the_resolved_turn_as_it_was() {
    let old = demo_game("wbts-peninsula-1862");
    let (done, ok) = run(&old, &["turn"], None);
    assert!(ok);
    let new = without_tmp(&tree(&done.path().join(GAME)));
    // The outbox's order a forced rerun leaves as it is: its messages keep their places. The rules
    // parts turn 2's commitment kept are kept once, as the commitment is made once (`rules_kept`).
    let kept: BTreeSet<&str> = new
        .keys()
        .filter_map(|p| p.strip_prefix("rules/"))
        .collect();
    let names: Vec<String> = written(&old, &new)
        .into_iter()
        .filter(|n| n != "order.txt" && !kept.contains(n.as_str()))
        .collect();
    for name in &names {
        let (tmp, ok) = run(&new, &["resolve", "--turn", "1", "--force"], Some(name));
        assert!(!ok, "PBEM_CRASH_BEFORE={name}: pbem was not killed");
        let dir = tmp.path().join(GAME);
        assert!(
            without_tmp(&tree(&dir)) == new,
            "a forced rerun killed before {name} changed the resolved turn"
        );
        assert_eq!(current_turn(&dir), 2);
    }
}

#[test]
fn a_turn_killed_before_its_next_secret_is_kept_reruns_with_a_fresh_one_consistently() {
    // Without secret/2.key the turn draws the next secret itself: killed before it is in place, the
    // game is at the old turn without it; the rerun draws another (it was never published), and the
    // result is what an uninterrupted run with that secret gives.
    let mut old = demo_game("ulm-1805");
    old.remove("secret/2.key").unwrap();
    for name in ["2.key", "commitment", "record.toml"] {
        let (tmp, ok) = run(&old, &["turn"], Some(name));
        assert!(!ok, "PBEM_CRASH_BEFORE={name}: pbem was not killed");
        let dir = tmp.path().join(GAME);
        let after = without_tmp(&tree(&dir));
        assert_eq!(current_turn(&dir), 1);
        if name == "2.key" {
            // The sealing secret is written first: without its key it is inert, and the rerun
            // makes both again.
            let mut unsealed = after.clone();
            assert!(unsealed.remove("secret/2.seal").is_some());
            assert!(unsealed == old, "killed before 2.key, the game changed");
        }
        assert!(run_in(&dir, &["turn"], None));
        let rerun = without_tmp(&tree(&dir));
        let secret = rerun
            .get("secret/2.key")
            .expect("the rerun kept a next secret")
            .clone();
        if name != "2.key" {
            assert_eq!(
                after.get("secret/2.key"),
                Some(&secret),
                "killed before {name}, the rerun drew another secret than the one on disk"
            );
        }
        let mut with_secret = old.clone();
        with_secret.insert("secret/2.key".into(), secret);
        let seal = rerun
            .get("secret/2.seal")
            .expect("the next secret's seal")
            .clone();
        with_secret.insert("secret/2.seal".into(), seal);
        let (reference, ok) = run(&with_secret, &["turn"], None);
        assert!(ok);
        assert!(
            without_tmp(&tree(&reference.path().join(GAME))) == rerun,
            "killed before {name}: the rerun differs from an uninterrupted run with the same secret"
        );
        assert!(pbem()
            .args(["audit"])
            .arg(&dir)
            .output()
            .unwrap()
            .status
            .success());
    }
}

/// A rollback moves a turn's files into its archive and gives it a fresh secret: killed anywhere on
/// the way, the game was neither the resolved turn nor the reopened one, and a second rollback found
/// nothing resolved to roll back. It writes what it read first into its archive
/// (`rollback.toml`), so that running it again finishes it as begun: the old secret kept in the
/// archive, one act, one secret whose commitment the turn announces, the files of a run never
/// killed.
#[test]
fn a_rollback_killed_midway_is_finished_by_running_it_again() {
    let (resolved, ok) = run(&demo_game("ulm-1805"), &["resolve"], None);
    assert!(ok);
    let resolved = without_tmp(&tree(&resolved.path().join(GAME)));
    let args = ["rollback", "--to-turn", "1", "--reason", "a wrong table"];
    let (clean, ok) = run(&resolved, &args, None);
    assert!(ok);
    let clean = without_tmp(&tree(&clean.path().join(GAME)));
    for name in [
        "rollback.toml",
        "1.seal",
        "1.key",
        "commitment",
        "acts.toml",
        "t0001-notice-france-reopened-1.eml",
    ] {
        let (tmp, ok) = run(&resolved, &args, Some(name));
        assert!(!ok, "PBEM_CRASH_BEFORE={name}: pbem was not killed");
        let dir = tmp.path().join(GAME);
        assert!(run_in(&dir, &args, None), "the rerun after {name} failed");
        let done = without_tmp(&tree(&dir));
        assert_eq!(
            done.keys().collect::<Vec<_>>(),
            clean.keys().collect::<Vec<_>>(),
            "killed before {name}"
        );
        assert_eq!(
            done["archive/rollback-1/secret/1.key"], resolved["secret/1.key"],
            "killed before {name}: the old secret is not the one kept"
        );
        let acts = String::from_utf8(done["turns/1/acts.toml"].clone()).unwrap();
        assert_eq!(acts.matches("kind = \"rollback\"").count(), 1, "{acts}");
        let secret = pbem::dice::from_hex(&String::from_utf8_lossy(&done["secret/1.key"])).unwrap();
        let commitment = pbem::dice::to_hex(&pbem::dice::commitment("ulm-1805", 1, &secret));
        assert_eq!(
            String::from_utf8_lossy(&done["turns/1/commitment"]).trim(),
            commitment,
            "killed before {name}"
        );
        assert!(acts.contains(&commitment), "killed before {name}: {acts}");
    }
}

/// Runs `pbem replace <dir> britain --email pitt@example.org`, killed before `crash_before` if
/// given; its stdout, or None when it failed.
fn replace_in(dir: &Path, crash_before: Option<&str>) -> Option<String> {
    let mut c = pbem();
    c.arg("replace")
        .arg(dir)
        .args(["britain", "--email", "pitt@example.org"]);
    if let Some(name) = crash_before {
        c.env("PBEM_CRASH_BEFORE", name);
    }
    let out = c.output().unwrap();
    if crash_before.is_none() && !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    }
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The files of a game after a replace, the key its password gives the new player's mail
/// (`welcome-britain-<key>`, `notice-<power>-player-<key>`) written `KEY`.
fn keyless(t: &Tree) -> BTreeSet<String> {
    t.keys()
        .map(|p| {
            let name = p.rsplit('/').next().unwrap();
            if name.starts_with("t0001-welcome-britain-") || name.contains("-player-") {
                format!("{}-KEY.eml", &p[..p.rfind('-').unwrap()])
            } else {
                p.clone()
            }
        })
        .collect()
}

/// A replace writes its act, game.toml's new player, the new player's welcome with his password
/// and a notice to each other power: killed on the way and run again, it appended a second act
/// with another password. It writes what it began first (`secret/replace-<t>.toml`, which holds
/// the password until the welcome is written), so that running it again finishes it as begun: one
/// act, whose hash is the password the welcome and the rerun give, game.toml naming the new player,
/// the files of a run never killed.
#[test]
fn a_replace_killed_midway_is_finished_by_running_it_again() {
    let start = demo_game("ulm-1805");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(GAME);
    materialize(&start, &dir);
    assert!(replace_in(&dir, None).is_some());
    let clean = without_tmp(&tree(&dir));
    assert!(!clean.contains_key("secret/replace-1.toml"));
    for name in [
        "replace-1.toml",
        "acts.toml",
        "game.toml",
        "order.txt",
        "order.txt#2",
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(GAME);
        materialize(&start, &dir);
        assert!(
            replace_in(&dir, Some(name)).is_none(),
            "PBEM_CRASH_BEFORE={name}: pbem was not killed"
        );
        if name == "game.toml" {
            // Another replace waits until this one is finished.
            let other = pbem()
                .arg("replace")
                .arg(&dir)
                .args(["france", "--email", "fouche@example.org"])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&other.stderr);
            assert!(!other.status.success(), "{err}");
            assert!(
                err.contains("of britain by pitt@example.org was begun and not finished"),
                "{err}"
            );
        }
        let out = replace_in(&dir, None).unwrap_or_else(|| panic!("the rerun after {name} failed"));
        let done = without_tmp(&tree(&dir));
        assert_eq!(keyless(&done), keyless(&clean), "killed before {name}");
        let acts = String::from_utf8(done["turns/1/acts.toml"].clone()).unwrap();
        assert_eq!(
            acts.matches("kind = \"replace\"").count(),
            1,
            "{name}: {acts}"
        );
        let password = out
            .split("(pbem keeps only its hash): ")
            .nth(1)
            .and_then(|rest| rest.lines().next())
            .unwrap_or_else(|| panic!("{name}: no password in {out}"))
            .trim();
        let hash = acts
            .lines()
            .find(|l| l.starts_with("password_hash = ") && l.contains("argon2"))
            .and_then(|l| l.split('"').nth(1))
            .unwrap_or_else(|| panic!("{name}: no hash in {acts}"));
        assert!(
            pbem::auth::verify_password(hash, password),
            "killed before {name}: the act's hash is not the password shown"
        );
        let welcome = done
            .iter()
            .find(|(p, _)| p.contains("t0001-welcome-britain-"))
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
            .unwrap();
        assert!(
            welcome.contains(&format!("password {password}")),
            "killed before {name}: the welcome holds another password"
        );
        let config = String::from_utf8(done["game.toml"].clone()).unwrap();
        assert!(config.contains("pitt@example.org"), "{name}");
    }
}

/// A rekey moves the turn's secret into its archive, makes a fresh one with its seal, commits to
/// it, writes its act and a notice to every player: killed after the new commitment was made, a
/// rerun was a second rekey (a second archive holding a secret announced to nobody, a second act
/// whose old commitment no player was ever mailed). It writes what it read first
/// (`archive/rekey-<k>/rekey.toml`), so that running it again finishes it as begun: the old secret
/// kept, one act from the commitment the players hold to the one the folder keeps, its notices
/// once, the files of a run never killed.
#[test]
fn a_rekey_killed_midway_is_finished_by_running_it_again() {
    let start = demo_game("ulm-1805");
    let args = ["rekey", "--reason", "the demo's secrets are public"];
    let (clean, ok) = run(&start, &args, None);
    assert!(ok);
    let clean = without_tmp(&tree(&clean.path().join(GAME)));
    let names = written(&start, &clean);
    assert!(names.iter().any(|n| n == "acts.toml"), "{names:?}");
    let old_commitment = String::from_utf8_lossy(&start["turns/1/commitment"])
        .trim()
        .to_string();
    for name in &names {
        let (tmp, ok) = run(&start, &args, Some(name));
        assert!(!ok, "PBEM_CRASH_BEFORE={name}: pbem was not killed");
        let dir = tmp.path().join(GAME);
        assert!(run_in(&dir, &args, None), "the rerun after {name} failed");
        let done = without_tmp(&tree(&dir));
        assert_eq!(
            done.keys().collect::<Vec<_>>(),
            clean.keys().collect::<Vec<_>>(),
            "killed before {name}"
        );
        assert_eq!(
            done["archive/rekey-1/secret/1.key"], start["secret/1.key"],
            "killed before {name}: the old secret is not the one kept"
        );
        let acts = String::from_utf8(done["turns/1/acts.toml"].clone()).unwrap();
        assert_eq!(acts.matches("kind = \"rekey\"").count(), 1, "{acts}");
        assert!(
            acts.contains(&format!("old_commitment = \"{old_commitment}\"")),
            "killed before {name}: the act does not start from the commitment the players hold: {acts}"
        );
        let secret = pbem::dice::from_hex(&String::from_utf8_lossy(&done["secret/1.key"])).unwrap();
        let commitment = pbem::dice::to_hex(&pbem::dice::commitment("ulm-1805", 1, &secret));
        assert_eq!(
            String::from_utf8_lossy(&done["turns/1/commitment"]).trim(),
            commitment,
            "killed before {name}"
        );
        assert!(
            acts.contains(&format!("new_commitment = \"{commitment}\"")),
            "killed before {name}: {acts}"
        );
        let notice = String::from_utf8_lossy(&done["mail/outbox/t0001-notice-france-rekey-1.eml"]);
        assert!(
            notice.contains(&commitment),
            "killed before {name}: the notice does not give the new commitment"
        );
    }
}

/// Runs `args` on `dir` with the game folder placed after the command's name (`pbem replace <dir>
/// britain ...`), killed before `crash_before` if given; whether it succeeded, and its stderr.
fn act_in(dir: &Path, args: &[&str], crash_before: Option<&str>) -> (bool, String) {
    let mut c = pbem();
    c.arg(args[0]).arg(dir).args(&args[1..]);
    if let Some(name) = crash_before {
        c.env("PBEM_CRASH_BEFORE", name);
    }
    let out = c.output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An act killed midway waits to be finished, and no turn is resolved meanwhile: a rekey or a
/// rollback killed after its new commitment was made and before its act and notices were written
/// had `pbem resolve` resolve the turn under a commitment announced to nobody (and `audit` found
/// nothing to say of the first turn); a replace or an extend killed midway had it resolved with the
/// act half done. Each is refused, naming the act and how to finish it; once it is finished the turn
/// resolves and `audit` passes.
#[test]
fn no_turn_is_resolved_while_an_act_killed_midway_waits_to_be_finished() {
    let start = demo_game("ulm-1805");
    let (resolved, ok) = run(&start, &["resolve"], None);
    assert!(ok);
    let resolved = without_tmp(&tree(&resolved.path().join(GAME)));
    let cases: [(&Tree, &[&str], &str, &str); 4] = [
        (
            &start,
            &["rekey", "--reason", "the demo's secrets are public"],
            "acts.toml",
            "pbem rekey",
        ),
        (
            &resolved,
            &["rollback", "--to-turn", "1", "--reason", "a wrong table"],
            "acts.toml",
            "pbem rollback",
        ),
        (
            &start,
            &["replace", "britain", "--email", "pitt@example.org"],
            "game.toml",
            "pbem replace",
        ),
        (
            &start,
            &["extend", "--to", "2101-01-01T20:00", "--reason", "a strike"],
            "acts.toml",
            "pbem extend",
        ),
    ];
    for (from, act, name, named) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(GAME);
        materialize(from, &dir);
        let (ok, _) = act_in(&dir, act, Some(name));
        assert!(
            !ok,
            "{act:?}: PBEM_CRASH_BEFORE={name}: pbem was not killed"
        );
        let before = without_tmp(&tree(&dir));
        let (ok, err) = act_in(&dir, &["resolve", "--early"], None);
        assert!(!ok, "{act:?} killed before {name}: the turn was resolved");
        assert!(
            err.contains(&format!("a `{named}`")) && err.contains("killed midway"),
            "{act:?}: {err}"
        );
        assert!(
            without_tmp(&tree(&dir)) == before,
            "{act:?}: the refused resolve changed the game"
        );
        let (ok, err) = act_in(&dir, act, None);
        assert!(ok, "{act:?}: the rerun failed: {err}");
        let (ok, err) = act_in(&dir, &["resolve", "--early"], None);
        assert!(ok, "{act:?}: {err}");
        let (ok, err) = act_in(&dir, &["audit"], None);
        assert!(ok, "{act:?}: {err}");
    }
}

/// Runs `args` on `dir` at the moment `now`, killed before `crash_before` if given; whether it
/// succeeded.
fn act_at(dir: &Path, args: &[&str], now: &str, crash_before: Option<&str>) -> bool {
    let mut c = pbem();
    c.arg(args[0])
        .arg(dir)
        .args(&args[1..])
        .env("PBEM_NOW", now);
    if let Some(name) = crash_before {
        c.env("PBEM_CRASH_BEFORE", name);
    }
    c.output().unwrap().status.success()
}

/// Runs `act` on a copy of `from` at `now`, killed before each file a run never interrupted writes
/// (the tree `to`), and holds each kill to the act's promise: the rerun leaves the bytes of a run
/// never interrupted, and, for an act of the turn (`blocks`), no turn is resolved until then.
fn check_act_killed_anywhere(from: &Tree, act: &[&str], now: &str, to: &Tree, blocks: bool) {
    let names = written(from, to);
    // (`unseal` of one turn writes one file.)
    assert!(!names.is_empty(), "{act:?}: {names:?}");
    for name in &names {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(GAME);
        materialize(from, &dir);
        if act_at(&dir, act, now, Some(name)) {
            // A file written again with the bytes it had is not put in place again.
            assert!(
                from.keys().any(|p| p.ends_with(&format!("/{name}"))),
                "{act:?}: {name}"
            );
            continue;
        }
        // Killed before its first file, the act did nothing; once begun, it waits to be finished.
        if blocks && without_tmp(&tree(&dir)) != *from {
            assert!(
                !act_at(&dir, &["resolve", "--early"], now, None),
                "{act:?} killed before {name}: a turn was resolved"
            );
        }
        assert!(
            act_at(&dir, act, now, None),
            "{act:?}: the rerun after a kill before {name} failed"
        );
        let done = without_tmp(&tree(&dir));
        assert_eq!(
            done.keys().collect::<Vec<_>>(),
            to.keys().collect::<Vec<_>>(),
            "{act:?} killed before {name}, then run again"
        );
        for (p, b) in to {
            assert!(done[p] == *b, "{act:?} killed before {name}: {p} differs");
        }
    }
}

/// The moment of the late game (`late_game`): after turn 1's deadline (Sunday 2026-12-06 20:00 CET).
const LATE: &str = "2026-12-07T18:00:00Z";

/// Ulm 1805 at turn 1 with no orders but russia's, which came by mail after the deadline (Monday
/// 2026-12-07 18:00 CET) and were ingested as late.
fn late_game() -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(GAME);
    pbem::bundled::write_scenario("ulm-1805", &dir).unwrap();
    let mail = tmp.path().join("late.eml");
    fs::write(
        &mail,
        crate::support::eml(
            "russia@example.org",
            "Mon, 7 Dec 2026 18:00:00 +0100",
            "r1@example.org",
            &crate::support::header("russia", crate::support::RUSSIA_PW, 1),
        ),
    )
    .unwrap();
    let mut c = pbem();
    c.arg("ingest").arg(&dir).arg(&mail).env("PBEM_NOW", LATE);
    assert!(c.output().unwrap().status.success());
    assert!(!dir.join("orders/1/russia.txt").exists(), "not late");
    tree(&dir)
}

/// Ulm 1805 at turn 1 with its sample orders, playing pbem-dice/v2 (its closing list not made yet).
fn v2_game() -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(GAME);
    materialize(&demo_game("ulm-1805"), &dir);
    crate::support::set_dice(&dir, "\n[dice]\nscheme = \"pbem-dice/v2\"\n");
    tree(&dir)
}

/// Ulm 1805 at turn 1 with france's orders filed from mail as pbem filed them before issue 15.10:
/// the player's text, password and all, its digest in the message's record.
fn old_way_game() -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(GAME);
    pbem::bundled::write_scenario("ulm-1805", &dir).unwrap();
    let body = format!(
        "{}move Napoleon Stuttgart Ulm\n",
        crate::support::header("france", crate::support::FRANCE_PW, 1)
    );
    let mail = tmp.path().join("france.eml");
    let received = "Sat, 5 Dec 2026 18:00:00 +0100";
    let text = crate::support::eml("france@example.org", received, "f1@example.org", &body);
    fs::write(&mail, text).unwrap();
    let ingest = ["ingest", mail.to_str().unwrap()];
    assert!(act_at(&dir, &ingest, "2026-12-05T18:00:00Z", None));
    fs::write(dir.join("orders/1/france.txt"), &body).unwrap();
    let game = pbem::game::Game::load(&dir).unwrap();
    let records = pbem::mail::ingest::load_records(&game).unwrap();
    let sha = records.keys().next().unwrap().clone();
    let path = dir.join(format!("mail/received/{sha}.toml"));
    let mut record = records[&sha].clone();
    record.orders_sha256 = pbem::game::record::sha256_hex(body.as_bytes());
    fs::write(&path, pbem::game::load::to_toml(&record).unwrap()).unwrap();
    tree(&dir)
}

/// `act` run on a copy of `from` at `now`, never interrupted: the tree it leaves.
fn acted(from: &Tree, act: &[&str], now: &str) -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(GAME);
    materialize(from, &dir);
    assert!(act_at(&dir, act, now, None), "{act:?}");
    without_tmp(&tree(&dir))
}

/// The referee's acts whose bytes the game alone decides (no fresh secret or password: `rekey`,
/// `rollback` and `replace` have tests of their own above), each killed before every file it writes,
/// are finished by a rerun with the bytes of a run never interrupted, and no turn is resolved
/// meanwhile: `extend`, `drop`, then `end` (GITM: it publishes turn 1's sealed rolls) and `reopen`
/// before any player heard of the end (it seals them again); and `remind`, which is no act of the
/// turn, finished likewise; `accept-late` and `extend` on a game with russia's orders late (Ulm
/// 1805), `close` (pbem-dice/v2), `unseal` and `purge-passwords` (no acts of the turn). Found so: an end killed after
/// its notices withdrew them, on its rerun, as messages of the turn not played; a drop killed after
/// its act let the turn be resolved without its notice; an accept-late killed after its act let the
/// turn be resolved without the orders the act says stand; an extend killed before the late orders
/// it covers were filed never filed them on its rerun; a close killed before its list let the turn
/// be resolved (and late orders be accepted) after its closing mail was written; purge-passwords
/// killed between a record and its orders file left the password in the file for good.
#[test]
fn the_referees_acts_killed_before_any_file_are_finished_by_a_rerun_as_one_run_writes_them() {
    let now = "2026-12-01T12:00:00Z";
    let (resolved, ok) = run(&demo_game("gitm-italy-1809"), &["resolve"], None);
    assert!(ok);
    let resolved = without_tmp(&tree(&resolved.path().join(GAME)));
    let end: &[&str] = &["end", "--reason", "the armistice"];
    let reopen: &[&str] = &["reopen", "--reason", "ended by mistake"];
    let ended = acted(&resolved, end, now);
    assert!(
        ended.contains_key("unsealed/1.txt"),
        "no sealed list published"
    );
    let reopened = acted(&ended, reopen, now);
    assert!(!reopened.contains_key("unsealed/1.txt"), "not sealed again");
    let late = late_game();
    let acts: [(&Tree, &[&str], &str, bool); 10] = [
        (
            &resolved,
            &["extend", "--by", "2d", "--reason", "a strike"],
            now,
            true,
        ),
        (&resolved, &["drop", "naples", "--to", "france"], now, true),
        (&resolved, &["remind"], now, false),
        (&resolved, end, now, true),
        (&ended, reopen, now, true),
        (
            &late,
            &["accept-late", "russia", "--reason", "his server was down"],
            LATE,
            true,
        ),
        // Its new deadline covers russia's late orders: they stand, as accept-late files them.
        (
            &late,
            &["extend", "--by", "2d", "--reason", "a strike"],
            LATE,
            true,
        ),
        (&v2_game(), &["close"], LATE, true),
        (&resolved, &["unseal", "--force"], now, false),
        (&old_way_game(), &["purge-passwords"], LATE, true),
    ];
    for (from, act, now, blocks) in acts {
        check_act_killed_anywhere(from, act, now, &acted(from, act, now), blocks);
    }
}

/// An accept-late killed after its act (its orders not filed yet) waits to be finished as it was
/// begun: a run with another reason is refused, naming the command that finishes it, and so are
/// `extend` and `resolve`; the rerun files the orders, the turn resolves with them, `audit` passes.
#[test]
fn an_accept_late_killed_midway_is_finished_only_as_it_was_begun_and_every_other_act_waits() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(GAME);
    materialize(&late_game(), &dir);
    let act = ["accept-late", "russia", "--reason", "his server was down"];
    assert!(!act_at(&dir, &act, LATE, Some("acts.toml")), "not killed");
    let before = without_tmp(&tree(&dir));
    for other in [
        &["accept-late", "russia", "--reason", "another reason"][..],
        &["extend", "--by", "2d", "--reason", "a strike"],
        &["replace", "austria", "--email", "mack@example.org"],
        &["resolve", "--early"],
    ] {
        let mut c = pbem();
        c.arg(other[0])
            .arg(&dir)
            .args(&other[1..])
            .env("PBEM_NOW", LATE);
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{other:?} went on");
        assert!(
            err.contains("killed midway")
                && err.contains("turns/1/accept-late.toml")
                && err.contains("--reason \"his server was down\""),
            "{other:?}: {err}"
        );
        assert!(
            without_tmp(&tree(&dir)) == before,
            "{other:?}: refused, it changed the game"
        );
    }
    assert!(act_at(&dir, &act, LATE, None), "the rerun failed");
    assert!(dir.join("orders/1/russia.txt").is_file());
    assert!(act_at(&dir, &["resolve", "--early"], LATE, None));
    let record = fs::read_to_string(dir.join("turns/1/record.toml")).unwrap();
    assert!(record.contains("russia = "), "{record}");
    assert!(act_at(&dir, &["audit"], LATE, None));
}
