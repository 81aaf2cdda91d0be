//! Fog of war over how a decision was taken, over all five rulesets. A power's standing orders are
//! private in every game pbem runs, and so is whether it has one (open information in PoG, NGG and
//! WBTS is about the units): another power reads what a decision did, never "by its standing
//! order" nor "by the SOP" (`decide::Aside`).
//!
//! The property: for every turn of each bundled demo and every power Q, Q's standing orders are
//! changed in a way that leaves the value of every decision the same: every key the SOP settles
//! (the game's `[sop]`, else the ruleset's default) that Q does not set is given the SOP's own
//! setting, and every power-wide standing order of Q equal to the SOP's setting is taken out. The
//! turn is resolved again from the same secret; every file it writes for any other power (his
//! reports in every form, text, HTML, JSON, SVG, and their mail with the PNG map) must be the same,
//! byte for byte. GITM has no standing orders: Q's get a key its ruleset reads nowhere.
//!
//! And `check --forecast`: a power's forecast of his own sample orders reads no other power's
//! standing orders, all of them taken out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use pbem::decide::Point;
use pbem::diag::Source;
use pbem::game::Game;

use crate::rulesets::{copy, Scenario, SCENARIOS};

/// The setting each key of the ruleset's decision points takes by the SOP when the game's `[sop]`
/// says nothing; a key two points share with different defaults (EiA's `continue`) is left out.
fn point_defaults(ruleset: &str) -> BTreeMap<&'static str, &'static str> {
    fn of<P: Point>(points: &[P]) -> Vec<(&'static str, Option<&'static str>)> {
        points.iter().map(|p| (p.key(), p.sop_default())).collect()
    }
    use pbem::rules::eia::decisions::EiaPoint as E;
    use pbem::rules::standing::Standing;
    let all = match ruleset {
        "eia" => of(&[
            E::AttackChit,
            E::DefenceChit,
            E::Pursue,
            E::Reinforce,
            E::Guard,
            E::Continue,
            E::ContinueDefending,
            E::Honours,
            E::Surrender,
            E::Intercept,
            E::Tactics,
            E::Chase,
            E::Insurrection,
        ]),
        "pog" => of(pbem::rules::pog::decisions::PogPoint::ALL),
        "ngg" => of(pbem::rules::ngg::decisions::NggPoint::ALL),
        "wbts" => of(pbem::rules::wbts::decisions::WbtsPoint::ALL),
        _ => Vec::new(),
    };
    let mut out: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    for (key, default) in all {
        let d = out.entry(key).or_insert(default);
        if *d != default {
            *d = None;
        }
    }
    out.into_iter().filter_map(|(k, d)| Some((k, d?))).collect()
}

/// What the SOP sets each key to: the game's `[sop]`, else the ruleset's default.
fn sop(game: &Game) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = point_defaults(game.ruleset.id())
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for (k, v) in &game.config.sop {
        out.insert(k.clone(), v.get_ref().clone());
    }
    out
}

/// The keys `power`'s orders files of turn `t` set with a `standing` line (its own settings come
/// before the state's).
fn keys_in_files(dir: &Path, t: u32, power: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    let Ok(files) = std::fs::read_dir(dir.join(format!("orders/{t}"))) else {
        return keys;
    };
    for f in files {
        let path = f.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        if stem.split('.').next() != Some(power) {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let mut words = line.split_whitespace();
            if words
                .next()
                .is_some_and(|w| w.eq_ignore_ascii_case("standing"))
            {
                keys.extend(words.next().map(str::to_lowercase));
            }
        }
    }
    keys
}

/// `state` (a state.toml) with `power`'s standing orders changed so that no decision's value
/// changes: each key of `sop` it sets nowhere given the SOP's setting, each power-wide one equal to
/// it taken out; for a ruleset without an SOP (GITM) a key no ruleset reads. None when nothing
/// changes.
fn value_preserving(
    state: &str,
    power: &str,
    sop: &BTreeMap<String, String>,
    in_files: &BTreeSet<String>,
) -> Option<String> {
    let mut doc: toml_edit::DocumentMut = state.parse().unwrap();
    let standing = doc
        .entry("standing")
        .or_insert(toml_edit::table())
        .as_table_mut()
        .unwrap();
    standing.set_implicit(true);
    let mine = standing
        .entry(power)
        .or_insert(toml_edit::table())
        .as_table_mut()
        .unwrap();
    let before = mine.to_string();
    let set: BTreeSet<String> = mine
        .iter()
        .map(|(k, _)| k.split('@').next().unwrap().to_string())
        .collect();
    if sop.is_empty() {
        mine.insert("no-such-decision", toml_edit::value("never"));
    }
    for (key, setting) in sop {
        if in_files.contains(key) {
            continue;
        }
        match mine.get(key).and_then(|v| v.as_str()) {
            Some(v) if v == setting => {
                mine.remove(key);
            }
            Some(_) => {}
            None if !set.contains(key) => {
                mine.insert(key, toml_edit::value(setting.as_str()));
            }
            None => {}
        }
    }
    (mine.to_string() != before).then(|| doc.to_string())
}

/// Every file turn `t` of the game in `dir` writes, by path, resolved from its own secret.
fn outputs(dir: &Path, t: u32) -> BTreeMap<PathBuf, Vec<u8>> {
    let game = Game::load(dir).unwrap();
    let hex =
        |p: PathBuf| pbem::dice::from_hex(std::fs::read_to_string(p).unwrap().trim()).unwrap();
    let secret = hex(game.secret_path(t));
    let next = hex(game.commitment_path(t + 1));
    let mut out = BTreeMap::new();
    pbem::referee::turn::compute_into(&game, t, &secret, &next, &mut |path, bytes| {
        out.insert(path.to_path_buf(), bytes.to_vec());
        Ok(())
    })
    .unwrap();
    out
}

/// Whether `path`, a file a turn writes, is for the player(s) of `power` alone: his reports, and
/// the mail that carries them.
fn is_for(path: &Path, power: &str) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    name.split('.').next() == Some(power) || name.split(['-', '.']).any(|w| w == power)
}

/// The files of a turn no player reads: the referee's log and summary, the turn's record and the
/// next state (which holds every power's standing orders).
fn referees(path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    name == "log.toml"
        || name.starts_with("log")
        || name.contains("summary")
        || name == "record.toml"
        || name == "state.toml"
}

/// `line` around where it first departs from `other`: some 60 characters either side.
fn around(line: &str, other: &str) -> String {
    let at = line
        .char_indices()
        .zip(other.chars())
        .find(|((_, a), b)| a != b)
        .map_or(line.len().min(other.len()), |((i, _), _)| i);
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let k = chars
        .iter()
        .position(|(i, _)| *i >= at)
        .unwrap_or(chars.len());
    let from = k.saturating_sub(60);
    let to = (k + 60).min(chars.len());
    let part: String = chars[from..to].iter().map(|(_, c)| c).collect();
    format!(
        "{}{part}{}",
        if from > 0 { "..." } else { "" },
        if to < chars.len() { "..." } else { "" }
    )
}

/// Checks the property over every turn of `s`'s demo: the differences found, and how many files of
/// another power were compared, so that the test can tell it is not vacuous.
fn holds(s: &Scenario) -> (Vec<String>, usize) {
    let (_tmp, dir) = copy(s);
    let game = Game::load(&dir).unwrap();
    let sop = sop(&game);
    let powers: Vec<String> = game.config.power_ids().map(str::to_string).collect();
    let mut found = Vec::new();
    let mut compared = 0;
    for t in 1..=s.turns {
        let path = dir.join(format!("turns/{t}/state.toml"));
        let original = std::fs::read_to_string(&path).unwrap();
        let base = outputs(&dir, t);
        for q in &powers {
            let Some(changed) = value_preserving(&original, q, &sop, &keys_in_files(&dir, t, q))
            else {
                continue;
            };
            std::fs::write(&path, &changed).unwrap();
            let again = outputs(&dir, t);
            std::fs::write(&path, &original).unwrap();
            // The reports before the mail that carries them.
            let mut files: Vec<&PathBuf> = base
                .keys()
                .chain(again.keys())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            files.sort_by_key(|f| (f.extension().is_some_and(|e| e == "eml"), *f));
            for f in files {
                if referees(f) || is_for(f, q) {
                    continue;
                }
                compared += 1;
                let (a, b) = (base.get(f), again.get(f));
                if a == b {
                    continue;
                }
                let show = |x: Option<&Vec<u8>>| {
                    x.map_or("(none)".to_string(), |x| {
                        String::from_utf8_lossy(x).to_string()
                    })
                };
                let (a, b) = (show(a), show(b));
                let at = a
                    .lines()
                    .zip(b.lines())
                    .find(|(x, y)| x != y)
                    .map_or(String::new(), |(x, y)| {
                        format!("\n  - {}\n  + {}", around(x, y), around(y, x))
                    });
                let name = f.strip_prefix(&dir).unwrap_or(f);
                found.push(format!(
                    "{} turn {t}, {q}'s standing orders changed, no decision: {} differs{at}",
                    s.id,
                    name.display()
                ));
            }
        }
    }
    (found, compared)
}

/// The property for one scenario, with every difference found named.
fn run(s: &Scenario) {
    let (found, compared) = holds(s);
    assert!(compared > 0, "{}: no report compared", s.id);
    assert!(
        found.is_empty(),
        "{} files of another power differ:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn sight_eia_another_powers_standing_orders_change_no_report_when_no_decision_changes() {
    run(&crate::rulesets::ULM);
}

#[test]
fn sight_pog_another_powers_standing_orders_change_no_report_when_no_decision_changes() {
    run(&crate::rulesets::POG);
}

#[test]
fn sight_ngg_another_powers_standing_orders_change_no_report_when_no_decision_changes() {
    run(&crate::rulesets::NGG);
}

#[test]
fn sight_wbts_another_powers_standing_orders_change_no_report_when_no_decision_changes() {
    run(&crate::rulesets::WBTS);
}

#[test]
fn sight_gitm_another_powers_standing_orders_change_no_report_when_no_decision_changes() {
    run(&crate::rulesets::GITM);
}

/// A power's forecast (`check --forecast`) of his own sample orders of each turn is the same with
/// every other power's standing orders taken out.
#[test]
fn sight_a_forecast_reads_no_other_powers_standing_orders() {
    for s in SCENARIOS {
        let dir = crate::rulesets::resolved(s);
        let game = Game::load(dir).unwrap();
        let mut forecasts = 0;
        for t in 1..=s.turns {
            let state = game.load_state(t).unwrap();
            let Ok(files) = std::fs::read_dir(dir.join(format!("orders/{t}"))) else {
                continue;
            };
            for f in files {
                let path = f.unwrap().path();
                let stem = path.file_stem().unwrap().to_string_lossy().to_string();
                let power = stem.split('.').next().unwrap().to_string();
                let src = Source::new(
                    path.display().to_string(),
                    std::fs::read_to_string(&path).unwrap(),
                );
                let mut alone = state.clone();
                alone.standing.retain(|p, _| *p == power);
                let told = game.ruleset.forecast(&game, &state, &src, &power);
                assert_eq!(
                    told,
                    game.ruleset.forecast(&game, &alone, &src, &power),
                    "{} turn {t}: {stem}'s forecast reads another power's standing orders",
                    s.id
                );
                forecasts += usize::from(!told.is_empty());
            }
        }
        assert!(forecasts > 0, "{}: no forecast made", s.id);
    }
}
