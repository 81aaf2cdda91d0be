//! `pbem verify` against a referee who tampers with the dice of a report, in every ruleset (issue 31;
//! docs/DICE.md). Each tampering is made in every form the player holds (the text and
//! the JSON report), with the faces the new label gives taken from the turn's seed, as a referee
//! who knows the secret would: only the label grammar (`dice::labels`) and the binding of rolls to
//! their events can catch it. The untouched reports of every ruleset pass.

use crate::support;

use std::fs;
use std::path::PathBuf;

use serde_json::Value;
use support::*;

/// A report of one power: its text and JSON forms, read from a demo resolved in a new folder.
pub(crate) struct Report {
    _dir: tempfile::TempDir,
    scratch: PathBuf,
    pub(crate) text: String,
    pub(crate) json: Value,
    /// The text report of the turn before, when the demo resolved one.
    pub(crate) previous: Option<String>,
    /// The announcement mail of the turn, when the demo mailed one (from turn 2).
    pub(crate) announcement: Option<String>,
    /// The anchor `verify` is given: `previous` (`--previous`) or `announcement` (`--announcement`).
    pub(crate) anchored: Option<&'static str>,
}

/// The demo `game` resolved for `turns` turns, and the reports of `power` at `turn`.
fn report(game: &str, turns: u32, turn: u32, power: &str) -> Report {
    let dir = tempfile::tempdir().unwrap();
    pbem()
        .args([
            "demo",
            "--game",
            game,
            "--turns",
            &turns.to_string(),
            "--dir",
        ])
        .arg(dir.path().join("d"))
        .assert()
        .success();
    let reports = dir
        .path()
        .join("d")
        .join(game)
        .join(format!("turns/{turn}/reports"));
    let text = fs::read_to_string(reports.join(format!("{power}.txt"))).unwrap();
    let json =
        serde_json::from_str(&fs::read_to_string(reports.join(format!("{power}.json"))).unwrap())
            .unwrap();
    let previous = (turn > 1).then(|| {
        let at = dir
            .path()
            .join("d")
            .join(game)
            .join(format!("turns/{}/reports/{power}.txt", turn - 1));
        fs::read_to_string(at).unwrap()
    });
    let announcement = (turn > 1).then(|| {
        let at = dir
            .path()
            .join("d")
            .join(game)
            .join(format!("mail/outbox/t{turn:04}-announcement-{power}.eml"));
        fs::read_to_string(at).unwrap()
    });
    let scratch = dir.path().join("scratch");
    fs::create_dir_all(&scratch).unwrap();
    Report {
        _dir: dir,
        scratch,
        text,
        json,
        previous,
        announcement,
        anchored: None,
    }
}

impl Report {
    /// A copy of the report's forms, to tamper with, written to a folder of its own.
    pub(crate) fn copy(&self) -> Report {
        let dir = tempfile::tempdir().unwrap();
        Report {
            scratch: dir.path().to_path_buf(),
            _dir: dir,
            text: self.text.clone(),
            json: self.json.clone(),
            previous: self.previous.clone(),
            announcement: self.announcement.clone(),
            anchored: self.anchored,
        }
    }

    fn seed(&self) -> pbem::dice::Bytes32 {
        let header = self.json["dice"]["text"].as_str().unwrap();
        let hex = header
            .lines()
            .find_map(|l| l.strip_prefix("seed: "))
            .unwrap();
        pbem::dice::from_hex(hex).unwrap()
    }

    /// Every roll of the JSON report: (event index, label, event's area).
    fn rolls(&self) -> Vec<(usize, String, Option<String>)> {
        let mut out = Vec::new();
        for (i, e) in self.json["events"].as_array().unwrap().iter().enumerate() {
            for r in e["rolls"].as_array().into_iter().flatten() {
                out.push((
                    i,
                    r["label"].as_str().unwrap().to_string(),
                    e["area"].as_str().map(str::to_string),
                ));
            }
        }
        out
    }

    /// `pbem verify` of the two forms as they stand now.
    fn verify(&self) -> assert_cmd::assert::Assert {
        let txt = self.scratch.join("report.txt");
        let json = self.scratch.join("report.json");
        fs::write(&txt, &self.text).unwrap();
        fs::write(&json, serde_json::to_string(&self.json).unwrap()).unwrap();
        let mut cmd = pbem();
        cmd.arg("verify").arg(&txt).arg(&json);
        if let Some((option, anchor)) = self.anchor() {
            let at = self.scratch.join(format!("{option}.eml"));
            fs::write(&at, anchor).unwrap();
            cmd.arg(format!("--{option}")).arg(at);
        }
        cmd.assert()
    }

    /// The anchor `verify` is given, when one is: its option (`previous`, `announcement`) and text.
    pub(crate) fn anchor(&self) -> Option<(&'static str, &str)> {
        match self.anchored? {
            "previous" => Some(("previous", self.previous.as_deref()?)),
            option => Some((option, self.announcement.as_deref()?)),
        }
    }

    /// `pbem verify` of the text report alone.
    pub(crate) fn verify_text_alone(&self) -> assert_cmd::assert::Assert {
        let txt = self.scratch.join("alone.txt");
        fs::write(&txt, &self.text).unwrap();
        pbem().arg("verify").arg(&txt).assert()
    }

    /// The roll `old` renamed `new` in every form, with the faces `new` draws from the seed.
    fn relabel(&mut self, old: &str, new: &str) {
        let seed = self.seed();
        for list in ["events", "decisions"] {
            for e in self.json[list].as_array_mut().into_iter().flatten() {
                for r in e["rolls"].as_array_mut().into_iter().flatten() {
                    if r["label"] != old {
                        continue;
                    }
                    r["label"] = Value::from(new);
                    let mut roller = pbem::dice::Roller::new(&seed, new);
                    for d in r["dice"].as_array_mut().unwrap() {
                        let sides = d["sides"].as_u64().unwrap() as u32;
                        d["face"] = Value::from(roller.die(sides));
                    }
                }
            }
        }
        let mut roller = pbem::dice::Roller::new(&seed, new);
        let mut out = String::new();
        for line in self.text.lines() {
            let t = line.trim_start();
            match t
                .strip_prefix("roll ")
                .and_then(|r| r.strip_prefix(old))
                .and_then(|r| r.strip_prefix(": "))
            {
                Some(rest) => {
                    let dice = rest.split(" -> ").next().unwrap();
                    let faces: Vec<String> = dice
                        .split_whitespace()
                        .map(|d| roller.die(d[1..].parse().unwrap()).to_string())
                        .collect();
                    let indent = &line[..line.len() - t.len()];
                    out.push_str(&format!(
                        "{indent}roll {new}: {dice} -> {}\n",
                        faces.join(" ")
                    ));
                }
                None => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        self.text = out;
    }

    /// The roll `label` taken out of every form.
    fn delete(&mut self, label: &str) -> Value {
        let mut taken = Value::Null;
        for list in ["events", "decisions"] {
            for e in self.json[list].as_array_mut().into_iter().flatten() {
                if let Some(rolls) = e["rolls"].as_array_mut() {
                    if let Some(i) = rolls.iter().position(|r| r["label"] == label) {
                        taken = rolls.remove(i);
                    }
                }
            }
        }
        self.text = self
            .text
            .lines()
            .filter(|l| !l.trim_start().starts_with(&format!("roll {label}: ")))
            .flat_map(|l| [l, "\n"])
            .collect();
        taken
    }

    /// The event `i` of the JSON report and its text in the text report given `text` and `template`
    /// (none: the field taken out), in `events` and in `decisions` where it stands there too.
    fn retell(&mut self, i: usize, text: &str, template: Option<&str>) {
        let old = self.json["events"][i].clone();
        let mut new = old.clone();
        new["text"] = Value::from(text);
        match template {
            Some(t) => new["template"] = Value::from(t),
            None => {
                new.as_object_mut().unwrap().remove("template");
            }
        }
        for list in ["events", "decisions"] {
            for e in self.json[list].as_array_mut().into_iter().flatten() {
                if *e == old {
                    *e = new.clone();
                }
            }
        }
        let was = old["text"].as_str().unwrap();
        assert!(self.text.contains(was), "the text report tells: {was}");
        self.text = self.text.replace(was, text);
    }

    /// Every template taken out of the JSON report, as pbem wrote them before it bound an event's
    /// text to its rolls.
    pub(crate) fn strip_templates(&mut self) {
        for list in ["events", "decisions"] {
            for e in self.json[list].as_array_mut().into_iter().flatten() {
                e.as_object_mut().unwrap().remove("template");
            }
        }
    }

    /// The report as pbem wrote it before it bound an event's text to its rolls: every template
    /// taken out, and the header's `texts:` line with them (its digest made again, in every form).
    pub(crate) fn unbind(&mut self) {
        self.strip_templates();
        let line = format!(
            "{}: {}\n",
            pbem::report::header::TEXTS_KEY,
            pbem::report::header::TEXTS
        );
        let header = self.json["dice"]["text"].as_str().unwrap().to_string();
        assert!(
            header.contains(&line),
            "the header binds the texts: {header}"
        );
        let header = header.replacen(&line, "", 1);
        let old = self.json["dice"]["digest"].as_str().unwrap().to_string();
        let new = pbem::game::record::sha256_hex(header.as_bytes());
        self.json["dice"]["text"] = Value::from(header);
        self.json["dice"]["digest"] = Value::from(new.clone());
        self.json["dice"].as_object_mut().unwrap().remove("texts");
        assert!(self.text.contains(&line) && self.text.contains(&old));
        self.text = self.text.replacen(&line, "", 1).replace(&old, &new);
    }

    /// The roll `label` moved in every form to stand after the roll `after`, under its event.
    fn move_roll(&mut self, label: &str, after: &str) {
        let line = self
            .text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("roll {label}: ")))
            .unwrap()
            .to_string();
        let taken = self.delete(label);
        for e in self.json["events"].as_array_mut().unwrap() {
            if let Some(rolls) = e["rolls"].as_array_mut() {
                if rolls.iter().any(|r| r["label"] == after) {
                    rolls.push(taken.clone());
                }
            }
        }
        let mut out = String::new();
        for l in self.text.lines() {
            out.push_str(l);
            out.push('\n');
            if l.trim_start().starts_with(&format!("roll {after}: ")) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        self.text = out;
    }
}

/// Where in `text`, rendered from `parts`, the first die stands that its template works a number
/// out of (`+ K`, `within`) or repeats from an event above (`above`).
fn worked_out_at(parts: &[pbem::engine::binding::Part], text: &str) -> Option<usize> {
    use pbem::engine::binding::Part;
    let mut at = 0;
    for p in parts {
        match p {
            Part::Text(t) => at += t.len(),
            Part::Die { func, above, .. } => {
                if !func.is_face() || *above {
                    return Some(at);
                }
                let rest = &text[at..];
                let sign = usize::from(rest.starts_with('-'));
                at += sign + rest[sign..].bytes().take_while(u8::is_ascii_digit).count();
            }
        }
    }
    None
}

/// A die as a template writes it: `{LABEL die N + K within A..B above}` (`engine::binding`).
fn written(label: &str, die: usize, func: &pbem::engine::binding::Func, above: bool) -> String {
    let mut out = format!("{{{label} die {die}");
    if func.offset != 0 {
        let sign = if func.offset > 0 { '+' } else { '-' };
        out.push_str(&format!(" {sign} {}", func.offset.unsigned_abs()));
    }
    if let Some((lo, hi)) = func.within {
        out.push_str(&format!(" within {lo}..{hi}"));
    }
    if above {
        out.push_str(" above");
    }
    out.push('}');
    out
}

/// One tampered copy of a report: what was done to it, and the words `verify`'s reason gives (one
/// of them).
pub(crate) struct Tampered {
    pub(crate) name: &'static str,
    pub(crate) report: Report,
    pub(crate) why: &'static [&'static str],
}

/// The report of `power` at `turn` of the demo `game` and its tamperings, each on a fresh copy: an
/// invented kind, a key the kind lacks, a place off the map, a roll line deleted, a roll line moved
/// to another event, a die's number edited in its event's text, a roll line deleted with its
/// template (its die written in as a number), a forged decision in the JSON and in the text report.
pub(crate) fn tamperings(
    game: &str,
    turns: u32,
    turn: u32,
    power: &str,
) -> (Report, Vec<Tampered>) {
    let base = report(game, turns, turn, power);
    let fresh = || base.copy();
    let rolls = base.rolls();
    assert!(rolls.len() >= 2, "{game}: the report has too few rolls");
    // The first roll whose label names its event's place.
    let (_, placed, area) = rolls
        .iter()
        .find(|(_, l, a)| {
            a.as_ref()
                .is_some_and(|a| l.contains(&format!("={a}")) || l.contains(&format!("/{a}/")))
        })
        .cloned()
        .unwrap_or_else(|| panic!("{game}: no roll names its event's place"));
    let area = area.unwrap();
    let mut out = Vec::new();
    let mut add = |name, report, why| out.push(Tampered { name, report, why });

    // An invented kind.
    let mut r = fresh();
    r.relabel(&placed, &format!("luck-{placed}"));
    add("invented-kind", r, &["no kind of roll of the rules of"]);

    // A key the kind lacks: a second try at one event.
    let mut r = fresh();
    r.relabel(&placed, &format!("{placed}/round=2"));
    add("key-the-kind-lacks", r, &["has no key or part 'round=2'"]);

    // A place not on the map.
    let mut r = fresh();
    let off = placed
        .replacen(&format!("={area}"), &format!("={area}x"), 1)
        .replacen(&format!("/{area}/"), &format!("/{area}x/"), 1);
    r.relabel(&placed, &off);
    add("place-off-the-map", r, &["not on the map"]);

    // A roll line deleted from every form: the first whose event says its die or always rolls.
    let grammar = pbem::rules::label_grammar(base.json["ruleset"]["id"].as_str().unwrap()).unwrap();
    let said = |i: usize| {
        let e = &base.json["events"][i];
        !grammar
            .numbers_in_text(e["text"].as_str().unwrap())
            .is_empty()
            || grammar.rolled.contains(&e["kind"].as_str().unwrap())
    };
    let alone = |i: usize| rolls.iter().filter(|(j, _, _)| *j == i).count() == 1;
    let (_, deleted, _) = rolls
        .iter()
        .find(|(i, _, _)| said(*i) && alone(*i))
        .cloned()
        .unwrap_or_else(|| panic!("{game}: no event says its die"));
    let mut r = fresh();
    r.delete(&deleted);
    add("roll-line-deleted", r, &["a roll line was removed"]);

    // A roll line moved to another event in every form.
    let (first_at, first, _) = rolls[0].clone();
    let (_, last, _) = rolls
        .iter()
        .rev()
        .find(|(i, _, _)| *i != first_at)
        .cloned()
        .unwrap();
    let mut r = fresh();
    r.move_roll(&first, &last);
    add("roll-line-moved", r, &["moved", "removed"]);

    // A die's number edited in the text of its event, in every form.
    let told: Vec<(usize, String, String)> = base.json["events"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            Some((
                i,
                e["text"].as_str()?.into(),
                e["template"].as_str()?.into(),
            ))
        })
        .collect();
    let (at, text, template) = told
        .first()
        .cloned()
        .unwrap_or_else(|| panic!("{game}: no event tells a die"));
    let parts = pbem::engine::binding::parse(&template).unwrap();
    let before = pbem::engine::binding::words(&parts[..1]);
    let before = if before == "#" { String::new() } else { before };
    let face: String = text[before.len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let other = if face == "1" { "2" } else { "1" };
    let edited = format!("{before}{other}{}", &text[before.len() + face.len()..]);
    let mut r = fresh();
    r.retell(at, &edited, Some(&template));
    add("die-edited", r, &["the text was edited"]);
    let at_edited = at;

    // A number worked out from a die (a total, a modified die, a percentage) or repeating the die
    // of an event above (WBTS's shifted die), edited in every form: bound as a face is.
    if let Some((at, text, template, offset)) = told.iter().find_map(|(i, text, template)| {
        let parts = pbem::engine::binding::parse(template).unwrap();
        worked_out_at(&parts, text).map(|o| (*i, text.clone(), template.clone(), o))
    }) {
        let number: String = text[offset..]
            .chars()
            .enumerate()
            .take_while(|(k, c)| c.is_ascii_digit() || (*k == 0 && *c == '-'))
            .map(|(_, c)| c)
            .collect();
        let other = if number == "1" { "2" } else { "1" };
        let edited = format!(
            "{}{other}{}",
            &text[..offset],
            &text[offset + number.len()..]
        );
        let mut r = fresh();
        r.retell(at, &edited, Some(&template));
        add("worked-out-number-edited", r, &["the text was edited"]);
        // The same number written into the template as words, its die no longer named there: the
        // ruleset's `works` phrase before it finds it bound to no roll.
        let parts = pbem::engine::binding::parse(&template).unwrap();
        let bound = parts.iter().find_map(|p| match p {
            pbem::engine::binding::Part::Die {
                label,
                die,
                func,
                above,
            } if !func.is_face() || *above => Some(written(label, *die, func, *above)),
            _ => None,
        });
        let written_in = template.replacen(&bound.unwrap(), other, 1);
        let mut r = fresh();
        r.retell(at, &edited, Some(&written_in));
        add(
            "worked-out-number-written-in",
            r,
            &["as a number worked out from a die or repeating one, bound to no roll"],
        );
    }

    // An event that lists no roll, a number of its text edited in the text report alone: the text
    // report tells every event of the JSON report in its words.
    let plain = base.json["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["rolls"].as_array().is_none_or(Vec::is_empty))
        .filter_map(|e| e["text"].as_str())
        .find(|t| t.contains(|c: char| c.is_ascii_digit()) && base.text.contains(&format!("- {t}")))
        .unwrap_or_else(|| panic!("{game}: no event without a roll gives a number"));
    let digit = plain.find(|c: char| c.is_ascii_digit()).unwrap();
    let other = if &plain[digit..=digit] == "1" {
        "2"
    } else {
        "1"
    };
    let edited_plain = format!("{}{other}{}", &plain[..digit], &plain[digit + 1..]);
    let mut r = fresh();
    r.text = r
        .text
        .replacen(&format!("- {plain}"), &format!("- {edited_plain}"), 1);
    add(
        "event-edited-in-the-text-alone",
        r,
        &["the text was edited in one form"],
    );

    // A roll line deleted from every form, and the die its event told written into its template as
    // a number: the text stands as it was, its die bound to no roll.
    let unbound = told.iter().find_map(|(i, text, _)| {
        let labels: Vec<&String> = rolls
            .iter()
            .filter(|(j, _, _)| j == i)
            .map(|r| &r.1)
            .collect();
        (labels.len() == 1 && !grammar.numbers_in_text(text).is_empty())
            .then(|| (*i, text.clone(), labels[0].clone()))
    });
    let (at, text, label) =
        unbound.unwrap_or_else(|| panic!("{game}: no event tells the die of its one roll"));
    let mut r = fresh();
    r.delete(&label);
    r.retell(at, &text, None);
    add("roll-deleted-and-unbound", r, &["bound to no roll"]);

    // A roll line deleted from a report as pbem wrote it before it bound its texts to its rolls (no
    // template, no `texts:` line in the header): its phrases still find the die.
    let mut r = fresh();
    r.delete(&deleted);
    r.unbind();
    add(
        "roll-deleted-unbound-report",
        r,
        &["a roll line was removed"],
    );

    // Every template stripped from the JSON report and a die's number edited in every form, the
    // header still saying that the texts are bound: the report is refused for the stripping.
    let mut r = fresh();
    r.strip_templates();
    r.retell(at_edited, &edited, None);
    add("templates-stripped", r, &["the templates were stripped"]);

    // The same, with the header's `texts:` line dropped (its digest made again), against the report
    // of the turn before, whose header names the binding: the line was dropped.
    // And against the turn's announcement, which promised the line.
    for (name, anchor, held) in [
        ("texts-line-dropped", "previous", base.previous.is_some()),
        (
            "texts-line-dropped-announced",
            "announcement",
            base.announcement.is_some(),
        ),
    ] {
        if held {
            let mut r = fresh();
            r.unbind();
            r.retell(at_edited, &edited, None);
            r.anchored = Some(anchor);
            add(name, r, &["the line was dropped"]);
        }
    }

    // A forged decision in the JSON report: its roll's face, or its outcome.
    let mut r = fresh();
    let d = &mut r.json["decisions"][0];
    assert!(d.is_object(), "{game}: the report has no decision");
    match d["rolls"][0]["dice"][0]["face"].as_u64() {
        Some(face) => d["rolls"][0]["dice"][0]["face"] = Value::from(face % 6 + 1),
        None => {
            let forged = format!("{} (forged)", d["text"].as_str().unwrap());
            d["text"] = Value::from(forged);
        }
    }
    add(
        "forged-decision-json",
        r,
        &["the JSON report's decision is no event of what happened"],
    );

    // A forged decision in the text report's "Decisions taken for you".
    let mut r = fresh();
    let at =
        r.text.find("DECISIONS TAKEN FOR YOU\n- ").unwrap() + "DECISIONS TAKEN FOR YOU\n- ".len();
    r.text.insert_str(at, "by order of the referee, ");
    add(
        "forged-decision-text",
        r,
        &["the text report's decision is no event of what happened"],
    );
    (base, out)
}

/// Every tampering of one ruleset's report fails verify with its reason, and the untouched report
/// passes.
fn tampering_fails(game: &str, turns: u32, turn: u32, power: &str) {
    let (base, tampered) = tamperings(game, turns, turn, power);
    base.verify().success();
    // A report written before pbem bound its texts to its rolls (no template, no `texts:` line in
    // its header) verifies as it did.
    let mut old = base.copy();
    old.unbind();
    old.verify().success();
    // The text report alone, which carries no template, checks out by its phrases, and says what it
    // could not check; the old report's says nothing of the kind.
    let out = base
        .verify_text_alone()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("not checked: the text report carries no templates"),
        "{game}: {out}"
    );
    let out = old
        .verify_text_alone()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(!String::from_utf8(out).unwrap().contains("not checked"));
    // The previous report anchors it; its `texts:` line says nothing of a report that has none.
    for anchor in ["previous", "announcement"] {
        let mut anchored = base.copy();
        anchored.anchored = Some(anchor);
        if anchored.anchor().is_some() {
            anchored.verify().success();
        }
    }
    for t in tampered {
        let out = t.report.verify().code(4).get_output().stdout.clone();
        let out = String::from_utf8(out).unwrap();
        assert!(
            t.why.iter().any(|w| out.contains(w)),
            "{game}, {}: expected one of {:?} in:\n{out}",
            t.name,
            t.why
        );
    }
}

#[test]
fn eia_tampered_dice_fail_verify() {
    tampering_fails("ulm-1805", 1, 1, "france");
}

#[test]
fn pog_tampered_dice_fail_verify() {
    tampering_fails("pog-1914", 1, 1, "allies");
}

#[test]
fn ngg_tampered_dice_fail_verify() {
    tampering_fails("ngg-smolensk-1812", 2, 2, "french");
}

#[test]
fn wbts_tampered_dice_fail_verify() {
    tampering_fails("wbts-peninsula-1862", 1, 1, "union");
}

#[test]
fn gitm_tampered_dice_fail_verify() {
    tampering_fails("gitm-italy-1809", 2, 2, "austria");
}

/// The issue's own case: ulm-1805, turn 2, France: `combat-order/area=Passau` renamed
/// `combat-order/area=Passau/round=2`, its faces and its event's number taken from the new label.
#[test]
fn a_combat_order_given_rounds_fails_verify() {
    let mut r = report("ulm-1805", 2, 2, "france");
    let old = "combat-order/area=Passau";
    let new = "combat-order/area=Passau/round=2";
    let before = r.json["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["rolls"][0]["label"] == old)
        .unwrap()["rolls"][0]["dice"][0]["face"]
        .to_string();
    r.relabel(old, new);
    let after = r.json["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["rolls"][0]["label"] == new)
        .unwrap()["rolls"][0]["dice"][0]["face"]
        .to_string();
    r.text = r
        .text
        .replace(&format!("key {before}"), &format!("key {after}"));
    for e in r.json["events"].as_array_mut().unwrap() {
        let t = e["text"]
            .as_str()
            .unwrap()
            .replace(&format!("key {before}"), &format!("key {after}"));
        e["text"] = Value::from(t);
    }
    let out = String::from_utf8(r.verify().code(4).get_output().stdout.clone()).unwrap();
    assert!(
        out.contains("the roll combat-order/area=Passau/round=2 is not a label the rules of Empires in Arms give for its event: the kind combat-order has no key or part 'round=2'"),
        "{out}"
    );
}

/// Every report mail of every ruleset's demo, untouched, verifies: the grammar gives every label the
/// rulesets roll, and each event's text agrees with its rolls.
#[test]
fn the_untouched_report_mails_of_every_ruleset_verify() {
    for (game, turns) in [
        ("ulm-1805", 2),
        ("pog-1914", 4),
        ("ngg-smolensk-1812", 3),
        ("wbts-peninsula-1862", 3),
        ("gitm-italy-1809", 3),
    ] {
        let dir = tempfile::tempdir().unwrap();
        pbem()
            .args([
                "demo",
                "--game",
                game,
                "--turns",
                &turns.to_string(),
                "--dir",
            ])
            .arg(dir.path().join("d"))
            .assert()
            .success();
        let outbox = dir.path().join("d").join(game).join("mail/outbox");
        let mut mails: Vec<PathBuf> = fs::read_dir(&outbox)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains("-report-"))
            .collect();
        mails.sort();
        assert!(mails.len() >= 2 * turns as usize, "{game}: {mails:?}");
        for mail in mails {
            let out = pbem().arg("verify").arg(&mail).output().unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                mail.display(),
                String::from_utf8_lossy(&out.stdout)
            );
        }
    }
}

/// `pbem verify` cites the grammar of labels the player holds (the one built into pbem, and written
/// into verify.html, which his welcome mail carries), not `schema/dice-labels.json`, a file of pbem's
/// source he was never sent.
#[test]
fn verify_cites_the_grammar_of_labels_the_player_holds() {
    let r = report("wbts-peninsula-1862", 3, 2, "union");
    let out = String::from_utf8(r.verify().success().get_output().stdout.clone()).unwrap();
    assert!(
        out.contains("give for its event (the grammar of labels built into this pbem, which verify.html, the page of your welcome mail, holds in its dice-labels block)"),
        "{out}"
    );
    assert!(!out.contains("schema/dice-labels.json"), "{out}");
}

/// A report that does not check out tells the player what to do, not only that it failed: rule out
/// his own mistake, then send the reasons with the header's digest to the referee and the others.
#[test]
fn a_failed_verify_tells_the_player_what_to_do() {
    let mut r = report("pog-1914", 2, 2, "allies");
    let digest = r.json["dice"]["digest"].as_str().unwrap().to_string();
    r.text = r.text.replacen("seed: ", "seed: 0", 1);
    let out = String::from_utf8(r.verify().code(4).get_output().stdout.clone()).unwrap();
    let advice = out
        .lines()
        .skip_while(|l| *l != "the report does NOT check out")
        .nth(1)
        .unwrap_or_default();
    assert!(
        advice.starts_with(
            "What to do: check that you gave the report as your mail program saved it"
        ),
        "{out}"
    );
    assert!(
        advice.contains(&format!("send the referee and the other players the MISMATCH and WRONG lines above with the header's SHA-256 {digest}")),
        "{out}"
    );
}
