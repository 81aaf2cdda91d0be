//! What pbem tells players and the referee, through the binary: every word true, clear, and naming
//! only what its reader has (the order guide he was mailed, never pbem's ORDERS.md; what a check
//! checked, never more; a refusal with the way on).

use crate::support;

use std::fs;
use std::path::Path;

use support::*;

const ON_TIME: &str = "Sat, 5 Dec 2026 18:00:00 +0100";

/// Ingests one message of France with `body` into `dir` and returns its answer's text.
fn answer_to(tmp: &Path, dir: &Path, id: &str, body: &str) -> String {
    let path = write(
        tmp,
        &format!("{id}.eml"),
        eml("france@example.org", ON_TIME, &format!("{id}@x"), body),
    );
    pbem().arg("ingest").arg(dir).arg(&path).assert().success();
    let (_, m) = acks(dir)
        .into_iter()
        .find(|(_, m)| m.contains(&format!("<{id}@x>")))
        .unwrap_or_else(|| panic!("no answer to {id}"));
    body_of(&m)
}

/// The reasons an answer gives under "These orders do not stand.".
fn reasons(answer: &str) -> Vec<String> {
    answer
        .split("These orders do not stand.\n")
        .nth(1)
        .unwrap_or_else(|| panic!("not a rejection: {answer}"))
        .lines()
        .skip_while(|l| l.is_empty())
        .take_while(|l| l.starts_with("- "))
        .map(str::to_string)
        .collect()
}

/// A player has his game's order guide, `pbem-orders-<ruleset>.md`, never ORDERS.md: the hints and
/// rules his answer quotes name the guide, or no document at all.
#[test]
fn a_players_answer_names_his_order_guide_never_orders_md() {
    let (tmp, dir) = game();
    let orders = format!(
        "{}mvoe FR-V Stuttgart Ulm\nstanding\n",
        header("france", FRANCE_PW, 1)
    );
    let answer = answer_to(tmp.path(), &dir, "verbs", &orders);
    assert!(answer.contains("unknown order 'mvoe'"), "{answer}");
    assert!(
        answer.contains("the order guide pbem-orders-eia.md lists the keys"),
        "{answer}"
    );
    assert!(
        answer.contains("orders are written as the game's order guide shows"),
        "{answer}"
    );
    assert!(!answer.contains("ORDERS.md"), "{answer}");
    let header = "game ulm-1805\npower france extra\npassword x\nturn 1\n";
    let answer = answer_to(tmp.path(), &dir, "header", header);
    assert!(
        answer.contains("write 'power' and one word after it, as in 'power <your power>'"),
        "{answer}"
    );
    assert!(!answer.contains("ORDERS.md"), "{answer}");
}

/// Orders for a turn that is not the game's are answered with one reason, the one that fits, and
/// its hint: no turn 0, a turn already resolved, a turn to come; never two reasons for one fault.
#[test]
fn orders_for_a_turn_not_the_games_get_one_reason_with_its_hint() {
    let (tmp, dir) = game();
    let answer = answer_to(tmp.path(), &dir, "zero", &header("france", FRANCE_PW, 0));
    assert_eq!(
        reasons(&answer),
        ["- there is no turn 0 in this game: it starts at turn 1"],
        "{answer}"
    );
    assert!(
        answer.contains("help: write 'turn 1', the turn the game is at"),
        "{answer}"
    );
    let answer = answer_to(tmp.path(), &dir, "later", &header("france", FRANCE_PW, 3));
    assert_eq!(
        reasons(&answer),
        ["- these orders are for turn 3, the game is at turn 1"],
        "{answer}"
    );
    let (tmp, dir) = demo();
    let answer = answer_to(tmp.path(), &dir, "past", &header("france", FRANCE_PW, 1));
    assert_eq!(
        reasons(&answer),
        ["- turn 1 is already resolved: orders for it are no longer taken"],
        "{answer}"
    );
    assert!(
        answer.contains("help: the game is at turn 2: orders for it are written 'turn 2'"),
        "{answer}"
    );
}

/// A turn line that cannot be read ('turn x', 'turn 1 2') is one reason, said where it stands, and
/// the orders are filed for no turn: the game cannot know which turn they were meant for.
#[test]
fn an_unreadable_turn_line_is_one_reason_and_files_nothing() {
    let (tmp, dir) = game();
    for (id, turn, reason) in [
        ("letters", "turn x", "- 'x' is not a turn number"),
        (
            "two",
            "turn 1 2",
            "- the 'turn' line has more than one word",
        ),
    ] {
        let body = format!("game ulm-1805\npower france\npassword {FRANCE_PW}\n{turn}\n");
        let answer = answer_to(tmp.path(), &dir, id, &body);
        assert_eq!(reasons(&answer), [reason], "{answer}");
        assert!(
            !dir.join("orders/1/france.txt").exists(),
            "{turn}: {answer}"
        );
    }
}

/// Once the deadline has passed, `remind` writes no reminder ("due <a time past>") and says how to
/// go on: extend the deadline, or resolve the turn.
#[test]
fn remind_after_the_deadline_writes_none_and_says_how_to_go_on() {
    let (_tmp, dir) = game();
    let before = tree(&dir);
    let out = pbem().arg("remind").arg(&dir).assert().code(1);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("turn 1's deadline (Sunday 2026-12-06 20:00 CET) has passed"),
        "{err}"
    );
    assert!(err.contains("pbem extend"), "{err}");
    assert!(err.contains("pbem turn"), "{err}");
    assert_eq!(tree(&dir), before, "nothing is written");
    // Before it, the reminders are written.
    pbem()
        .arg("remind")
        .arg(&dir)
        .env("PBEM_NOW", "2026-12-05T10:00:00Z")
        .assert()
        .success();
    assert!(outbox(&dir).iter().any(|(n, _)| n.contains("-reminder-")));
}

/// A replace run again after it finished makes no second password (which would leave the new
/// player's first welcome, unsent, with a password that no longer stands): it changes nothing and
/// says why, and the password it printed once is the one that stands.
#[test]
fn replace_run_again_after_it_finished_changes_nothing_and_says_why() {
    let (_tmp, dir) = game();
    let replace = || {
        pbem()
            .arg("replace")
            .arg(&dir)
            .args(["britain", "--email", "pitt@example.org"])
            .assert()
    };
    let first = replace().success();
    let out = String::from_utf8_lossy(&first.get_output().stdout).into_owned();
    assert!(out.contains("shown this once"), "{out}");
    let before = tree(&dir);
    let again = replace().code(1);
    let err = String::from_utf8_lossy(&again.get_output().stderr).into_owned();
    assert!(
        err.contains("britain already passes to pitt@example.org at turn 2"),
        "{err}"
    );
    assert!(err.contains("Nothing was changed."), "{err}");
    let printed = String::from_utf8_lossy(&again.get_output().stdout).into_owned();
    assert!(!printed.contains("password"), "{printed}");
    assert_eq!(tree(&dir), before);
}

/// A rerun that finishes a replace killed midway shows the password the killed run made, which
/// its referee may never have seen, and says it is shown again: not "shown this once".
#[test]
fn a_replace_finished_by_a_rerun_says_its_password_is_shown_again() {
    let (_tmp, dir) = game();
    let replace = || {
        let mut c = pbem();
        c.arg("replace")
            .arg(&dir)
            .args(["britain", "--email", "pitt@example.org"]);
        c
    };
    let killed = replace()
        .env("PBEM_CRASH_BEFORE", "acts.toml")
        .output()
        .unwrap();
    assert!(!killed.status.success());
    let first = String::from_utf8_lossy(&killed.stdout).into_owned();
    let password = |out: &str| {
        out.split("(pbem keeps only its hash): ")
            .nth(1)
            .and_then(|rest| rest.lines().next())
            .map(str::to_string)
    };
    let rerun = replace().assert().success();
    let out = String::from_utf8_lossy(&rerun.get_output().stdout).into_owned();
    assert!(
        out.contains(
            "the new player's password, shown again since the replace that made it was killed before it finished"
        ),
        "{out}"
    );
    assert!(!out.contains("shown this once"), "{out}");
    assert_eq!(password(&out), password(&first), "{first}\n{out}");
}

/// Under pbem-dice/v1 a report lists no digest of the orders that stood: an acknowledgement says
/// `verify --ack` checks the entropy, and `verify --ack` with the answer to orders that a later
/// submission replaced says the orders were not checked, while the entropy, the same, checks out.
#[test]
fn a_v1_receipt_and_verify_say_only_the_entropy_is_checked() {
    let (tmp, dir) = game();
    let sent = |id: &str, received: &str, orders: &str| {
        let body = format!(
            "{}entropy the same words\n{orders}",
            header("france", FRANCE_PW, 1)
        );
        write(
            tmp.path(),
            &format!("{id}.eml"),
            eml("france@example.org", received, &format!("{id}@x"), &body),
        )
    };
    let first = sent("first", "Sat, 5 Dec 2026 18:00:00 +0100", "");
    let last = sent(
        "last",
        "Sat, 5 Dec 2026 19:00:00 +0100",
        "standing pursue never\n",
    );
    pbem()
        .arg("ingest")
        .arg(&dir)
        .arg(&first)
        .arg(&last)
        .assert()
        .success();
    pbem().arg("resolve").arg(&dir).assert().success();
    let (name, ack) = acks(&dir)
        .into_iter()
        .find(|(_, m)| m.contains("<first@x>"))
        .unwrap();
    let text = body_of(&ack);
    assert!(
        text.contains(
            "checks that\nthe report lists for you the entropy this receipt names (or none)"
        ),
        "{text}"
    );
    assert!(
        !text.contains("these orders and this entropy stood"),
        "{text}"
    );
    let ack = write(tmp.path(), &name, ack);
    let out = pbem()
        .arg("verify")
        .arg(dir.join("mail/outbox/t0001-report-france.eml"))
        .arg("--ack")
        .arg(&ack)
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        said.contains("ok: the entropy listed for france is the one of your orders"),
        "{said}"
    );
    assert!(
        said.contains("not checked: the orders that stood for france"),
        "{said}"
    );
}

/// A new player of a game other than Empires in Arms is told the turn he takes over at, and no
/// rule of EiA: no economic phase, no talks, no inherited alliances (EiA 19.2.2 is EiA's alone),
/// in the referee's words, the new player's welcome and the event of the takeover.
#[test]
fn a_replace_in_paths_of_glory_tells_no_rule_of_empires_in_arms() {
    let (_tmp, dir) = pog_game();
    let out = pbem()
        .arg("replace")
        .arg(&dir)
        .args(["allies", "--email", "joffre@example.org"])
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        said.contains("allies passes to joffre@example.org at turn 2."),
        "{said}"
    );
    assert!(
        said.contains(") and a notice to the other power, his password"),
        "{said}"
    );
    let (_, welcome) = outbox(&dir)
        .into_iter()
        .find(|(n, _)| n.starts_with("t0001-welcome-allies-"))
        .unwrap();
    let welcome = body_of(&welcome);
    assert!(
        welcome
            .contains("You take control of Allied Powers at turn\n2: until then it is run for you"),
        "{welcome}"
    );
    pbem().arg("resolve").arg(&dir).assert().success();
    let report = fs::read_to_string(dir.join("turns/1/reports/central.txt")).unwrap();
    assert!(
        report.contains("A new player takes control of allies from turn 2."),
        "{report}"
    );
    for text in [&said, &welcome, &report] {
        for eia in ["EiA", "economic phase", "talks", "alliances"] {
            assert!(!text.contains(eia), "'{eia}' in {text}");
        }
    }
}

/// A rollback's notice to a power that is not due in the reopened turn (Paths of Glory: the other
/// side's action) does not ask it for orders "or your standing orders and the SOP decide": it
/// says the turn is not its to play, and that standing orders it sends count.
#[test]
fn a_rollback_does_not_ask_orders_of_a_side_whose_turn_it_is_not() {
    let (_tmp, dir) = pog_game();
    pbem().arg("resolve").arg(&dir).assert().success();
    pbem()
        .arg("rollback")
        .arg(&dir)
        .args(["--to-turn", "1", "--reason", "a wrong map"])
        .assert()
        .success();
    let notice = |power: &str| {
        let (_, m) = outbox(&dir)
            .into_iter()
            .find(|(n, _)| n.starts_with(&format!("t0001-notice-{power}-reopened")))
            .unwrap_or_else(|| panic!("no notice to {power}"));
        body_of(&m)
    };
    let allies = notice("allies");
    assert!(
        allies.contains("Turn 1 is not yours to play: standing orders you send before the deadline count in it."),
        "{allies}"
    );
    assert!(
        !allies.contains("send them before the deadline, or"),
        "{allies}"
    );
    let central = notice("central");
    assert!(
        central.contains("No orders of yours for turn 1 are on file: send them before the deadline, or your standing orders and the SOP decide."),
        "{central}"
    );
}

/// A drop in a game other than Empires in Arms cites pbem's own rule, never EiA 19.2.1: in what
/// `drop` and `status` print, and in the farewell to the player who left.
#[test]
fn a_drop_in_paths_of_glory_cites_no_rule_of_empires_in_arms() {
    let (_tmp, dir) = pog_game();
    let out = pbem()
        .arg("drop")
        .arg(&dir)
        .arg("allies")
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(said.contains("(pbem players/drop)"), "{said}");
    let out = pbem().arg("status").arg(&dir).assert().success();
    let status = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(status.contains("dropped (pbem players/drop)"), "{status}");
    let (_, farewell) = outbox(&dir)
        .into_iter()
        .find(|(n, _)| n.contains("-farewell-allies"))
        .unwrap();
    let farewell = body_of(&farewell);
    assert!(farewell.contains("(pbem players/drop)"), "{farewell}");
    for text in [&said, &status, &farewell] {
        assert!(!text.contains("EiA"), "{text}");
    }
}

/// A replace in a game other than Empires in Arms, and a rollback that undoes it, cite pbem's own
/// rule (`pbem players/replace`, docs/REFEREE.md), never EiA 19.2.2: in the comment `replace`
/// writes into game.toml, and in the rollback's notice to the new player whose welcome went.
#[test]
fn a_replace_and_its_rollback_in_paths_of_glory_cite_pbems_rule_not_eia() {
    let (tmp, dir) = pog_game();
    pbem().arg("resolve").arg(&dir).assert().success();
    pbem()
        .arg("replace")
        .arg(&dir)
        .args(["allies", "--email", "joffre@example.org"])
        .assert()
        .success();
    let config = fs::read_to_string(dir.join("game.toml")).unwrap();
    let comment = config
        .lines()
        .filter(|l| l.starts_with("# pbem replace") || l.starts_with("# with the password"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        comment.contains("he plays it from turn 3 (pbem players/replace)"),
        "{config}"
    );
    assert!(!config.contains("EiA"), "{config}");
    pbem()
        .args(["send", "--folder"])
        .arg(tmp.path().join("sent"))
        .arg(&dir)
        .assert()
        .success();
    pbem()
        .arg("rollback")
        .arg(&dir)
        .args(["--to-turn", "1", "--reason", "a wrong map"])
        .assert()
        .success();
    let (_, undone) = outbox(&dir)
        .into_iter()
        .find(|(n, _)| n.starts_with("t0001-farewell-allies-undone"))
        .expect("the notice to the new player the rollback undid");
    let undone = body_of(&undone);
    assert!(
        undone.contains("in which you were named Allied Powers' new player (pbem players/replace)"),
        "{undone}"
    );
    assert!(!undone.contains("EiA"), "{undone}");
}

/// The reminder to the power that runs a dropped one, in a game other than Empires in Arms, cites
/// pbem's own rule (`pbem players/drop`), never EiA 19.2.1.
#[test]
fn a_reminder_for_a_dropped_power_of_paths_of_glory_cites_no_rule_of_empires_in_arms() {
    let (_tmp, dir) = pog_game();
    pbem()
        .arg("drop")
        .arg(&dir)
        .args(["central", "--to", "allies"])
        .assert()
        .success();
    pbem()
        .arg("remind")
        .arg(&dir)
        .env("PBEM_NOW", "2026-12-05T10:00:00Z")
        .assert()
        .success();
    let (_, reminder) = outbox(&dir)
        .into_iter()
        .find(|(n, _)| n.starts_with("t0001-reminder-central"))
        .expect("a reminder for central");
    let reminder = body_of(&reminder);
    assert!(
        reminder
            .contains("Central Powers' player has left (pbem players/drop): Allied Powers runs it"),
        "{reminder}"
    );
    assert!(!reminder.contains("EiA"), "{reminder}");
}

/// `drop --help` and `replace --help` say what each does in every ruleset: their first line names
/// no rule of Empires in Arms (its economic phase, its SOP of 19.2), and the rest tells how long the
/// power is run for him in EiA and in every other game.
#[test]
fn drop_and_replace_help_say_what_they_do_in_every_ruleset() {
    for (command, own) in [
        ("drop", "pbem players/drop"),
        ("replace", "pbem players/replace"),
    ] {
        let out = pbem().args([command, "--help"]).assert().success();
        let help = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        let about = help.lines().next().unwrap_or_default();
        for eia in ["EiA", "economic phase", "SOP"] {
            assert!(!about.contains(eia), "{command}: '{eia}' in {about}");
        }
        let body = help.split("Usage:").next().unwrap_or_default();
        let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(body.contains("in every other game"), "{command}: {help}");
        assert!(body.contains(own), "{command}: {help}");
        assert!(body.contains("Empires in Arms"), "{command}: {help}");
        let short = pbem().args([command, "-h"]).assert().success();
        let short = String::from_utf8_lossy(&short.get_output().stdout).into_owned();
        let about = short.lines().next().unwrap_or_default();
        assert!(!about.contains("EiA"), "{command} -h: {short}");
    }
}

/// `pbem new` and `pbem status` print their tables of powers with every column in line, however
/// long a power's id or name: each column is as wide as its longest cell (WBTS's `confederate`,
/// "Confederate States"; GITM's `france.macdonald`), not a fixed width a long one overruns.
#[test]
fn new_and_status_align_their_columns_from_the_longest_power() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("wbts");
    let out = pbem()
        .arg("new")
        .arg(&dir)
        .args(["--from", "wbts-peninsula-1862"])
        .assert()
        .success();
    let new = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let row = |text: &str, power: &str| -> String {
        text.lines()
            .find(|l| l.starts_with(&format!("  {power} ")))
            .unwrap_or_else(|| panic!("no row of {power}: {text}"))
            .to_string()
    };
    let column = |line: &str, cell: &str| {
        line.find(cell)
            .unwrap_or_else(|| panic!("no '{cell}' in {line}"))
    };
    let (u, c) = (row(&new, "union"), row(&new, "confederate"));
    let password = |l: &str| l.rfind(' ').unwrap() + 1;
    assert_eq!(password(&u), password(&c), "{new}");
    let out = pbem().arg("status").arg(&dir).assert().success();
    let status = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let orders = status.split("Players:").next().unwrap();
    let players = status.split("Players:").nth(1).unwrap();
    let (u, c) = (row(orders, "union"), row(orders, "confederate"));
    assert_eq!(
        column(&u, "Union "),
        column(&c, "Confederate States"),
        "{status}"
    );
    assert_eq!(column(&u, "missing"), column(&c, "none due"), "{status}");
    let (u, c) = (row(players, "union"), row(players, "confederate"));
    assert_eq!(
        column(&u, "Union "),
        column(&c, "Confederate States"),
        "{status}"
    );
    assert_eq!(
        column(&u, "union@example.org"),
        column(&c, "confederate@example.org"),
        "{status}"
    );
}

/// A standing order that names its scope and no setting (`standing chit 0906`) is told as that, in
/// every ruleset: what it names, that a setting is expected after it, and the order written whole
/// in the hint, at the file's line and column of the scope; not "'0906' is not a setting of chit".
#[test]
fn a_standing_order_without_its_setting_says_a_setting_is_expected() {
    let tmp = tempfile::tempdir().unwrap();
    for (scenario, power, password, line, said, hint) in [
        (
            "wbts-peninsula-1862",
            "confederate",
            "davis-1862",
            "standing chit 0906",
            "'standing chit 0906' names the hex 0906 and no setting: a setting is expected after it",
            "as in 'standing chit 0906 max': one of max, 0, 1, 2, 3, 4",
        ),
        (
            "pog-1914",
            "allies",
            "entente-1914",
            "standing cancel-retreat Verdun",
            "'standing cancel-retreat Verdun' names the space Verdun and no setting",
            "as in 'standing cancel-retreat Verdun never'",
        ),
        (
            "ngg-smolensk-1812",
            "russian",
            "barclay-1812",
            "standing defence-cc 0407",
            "'standing defence-cc 0407' names the hex 0407 and no setting",
            "as in 'standing defence-cc 0407 ",
        ),
        (
            "ulm-1805",
            "france",
            FRANCE_PW,
            "standing surrender Ulm",
            "'standing surrender Ulm' names the area Ulm and no setting",
            "as in 'standing surrender Ulm never'",
        ),
    ] {
        let dir = tmp.path().join(scenario);
        pbem::bundled::write_scenario(scenario, &dir).unwrap();
        let orders = write(
            tmp.path(),
            &format!("{scenario}.txt"),
            format!("game {scenario}\npower {power}\npassword {password}\nturn 1\n{line}\n"),
        );
        let out = pbem().arg("check").arg(&dir).arg(&orders).output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let column = line.rfind(' ').unwrap() + 2;
        assert!(text.contains(&format!("error: {said}")), "{text}");
        assert!(
            text.contains(&format!("{scenario}.txt:5:{column}")),
            "{column}: {text}"
        );
        assert!(text.contains("help: write the setting after it, "), "{text}");
        assert!(text.contains(hint), "{text}");
        assert!(!text.contains("is not a setting"), "{text}");
    }
}

/// A player's answer and his report name the lines of his orders by what he sent: his mail by its
/// subject, his attachment by its name, a file the referee placed by hand by its own name; never
/// the referee's folder (`ulm-1805/orders/1/france.txt`), which only the referee's summary names.
#[test]
fn a_players_answer_and_report_name_his_orders_by_what_he_sent_never_the_referees_folder() {
    let (tmp, dir) = game();
    let bad = format!(
        "{}mvoe FR-V Stuttgart Ulm\n",
        header("france", FRANCE_PW, 1)
    );
    let message = eml("france@example.org", ON_TIME, "body@x", &bad).replacen(
        "Subject: orders\r\n",
        "Subject: My orders for September\r\n",
        1,
    );
    let path = write(tmp.path(), "body.eml", message);
    pbem().arg("ingest").arg(&dir).arg(&path).assert().success();
    let (_, ack) = acks(&dir).into_iter().next().expect("an answer");
    let ack = body_of(&ack);
    assert!(
        ack.contains(" --> your mail \"My orders for September\":5:1"),
        "{ack}"
    );
    // Austria's orders as an attachment, Russia's placed by hand.
    let attached = format!(
        "Received: from mail.example.net by mx.referee.example (Postfix) with ESMTPS id X1;\r\n\t{ON_TIME}\r\n\
         From: austria@example.org\r\nTo: referee@referee.example\r\nSubject: turn 1\r\nMessage-ID: <att@x>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy orders are attached.\r\n\
         --b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: attachment; filename=\"vienna.txt\"\r\n\r\n{}\r\n--b--\r\n",
        format!("{}mvoe AU-I Ulm Munich\n", header("austria", AUSTRIA_PW, 1)).replace('\n', "\r\n")
    );
    let path = write(tmp.path(), "att.eml", attached);
    pbem().arg("ingest").arg(&dir).arg(&path).assert().success();
    let ack = acks(&dir)
        .into_iter()
        .find(|(_, m)| m.contains("<att@x>"))
        .map(|(_, m)| body_of(&m))
        .expect("the answer to austria");
    assert!(ack.contains(" --> vienna.txt:5:1"), "{ack}");
    write(
        &dir.join("orders/1"),
        "russia.txt",
        format!("{}mvoe RU-I Braunau Linz\n", header("russia", RUSSIA_PW, 1)),
    );
    pbem().arg("resolve").arg(&dir).assert().success();
    for (power, named) in [
        ("france", " --> your mail \"My orders for September\":5:1"),
        ("austria", " --> vienna.txt:5:1"),
        ("russia", " --> russia.txt:5:1"),
    ] {
        for form in ["txt", "json", "html"] {
            let report =
                fs::read_to_string(dir.join(format!("turns/1/reports/{power}.{form}"))).unwrap();
            assert!(!report.contains("orders/1/"), "{power}.{form}: {report}");
            if form == "txt" {
                assert!(report.contains(named), "{power}: {report}");
            }
        }
    }
    let summary = body_of(
        &outbox(&dir)
            .into_iter()
            .find(|(n, _)| n == "t0001-summary.eml")
            .unwrap()
            .1,
    );
    assert!(
        summary.contains(" --> ulm-1805/orders/1/france.txt:5:1"),
        "{summary}"
    );
}

/// GITM 6.9: a unit without orders carries out the default orders; GITM has no standing orders, and
/// pbem never tells its players or referee of them: the reminder, the report of a power
/// that sent nothing, its orders template, the referee's refusal before the deadline and his summary,
/// a dropped power's status.
#[test]
fn gitm_players_are_told_of_the_default_orders_of_6_9_never_of_standing_orders() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("gitm-italy-1809");
    pbem::bundled::write_scenario("gitm-italy-1809", &dir).unwrap();
    let told = "the default orders of GITM 6.9";
    let mut said = Vec::new();
    let before = pbem()
        .arg("resolve")
        .arg(&dir)
        .env("PBEM_NOW", "2026-12-05T10:00:00Z")
        .assert()
        .failure();
    said.push(String::from_utf8_lossy(&before.get_output().stderr).into_owned());
    pbem()
        .arg("remind")
        .arg(&dir)
        .env("PBEM_NOW", "2026-12-05T10:00:00Z")
        .assert()
        .success();
    let reminders: Vec<String> = outbox(&dir)
        .into_iter()
        .filter(|(n, _)| n.contains("-reminder-"))
        .map(|(_, m)| body_of(&m))
        .collect();
    assert!(!reminders.is_empty());
    said.extend(reminders);
    let dropped = pbem()
        .args(["drop"])
        .arg(&dir)
        .arg("naples")
        .assert()
        .success();
    said.push(String::from_utf8_lossy(&dropped.get_output().stdout).into_owned());
    let status = pbem().arg("status").arg(&dir).assert().success();
    said.push(String::from_utf8_lossy(&status.get_output().stdout).into_owned());
    let resolved = pbem()
        .args(["resolve", "--early"])
        .arg(&dir)
        .assert()
        .success();
    said.push(String::from_utf8_lossy(&resolved.get_output().stdout).into_owned());
    for form in ["txt", "html", "json"] {
        said.push(fs::read_to_string(dir.join(format!("turns/1/reports/austria.{form}"))).unwrap());
    }
    said.push(fs::read_to_string(dir.join("turns/1/log.toml")).unwrap());
    for text in &said {
        let flat = text
            .replace("=\r\n", "")
            .replace("\r\n", " ")
            .replace('\n', " ");
        // Nor of an SOP: a decision its default orders took is told as theirs ("decided by the
        // default orders of GITM 6.9"), not "by the SOP". The log keeps the engine's tag,
        // `by = "sop"` (`decide::DecidedBy::Sop`), a key and no words.
        assert!(
            !flat.contains("standing order") && !flat.contains("SOP"),
            "GITM has no standing orders nor SOP:\n{text}"
        );
    }
    // The report and the summary tag each decision its defaults took with GITM 6.9's words.
    assert!(
        said[said.len() - 4].contains("; decided by the default orders of GITM 6.9]"),
        "{}",
        said[said.len() - 4]
    );
    let summary = fs::read_to_string(dir.join("turns/1/summary.txt")).unwrap();
    assert!(
        summary.contains("- for austria, by the default orders of GITM 6.9: GITM 6.9: "),
        "{summary}"
    );
    assert!(!summary.contains("SOP"), "{summary}");
    // Each says what does decide, where it tells of it.
    for (i, what) in [
        (0, "refusal before the deadline"),
        (1, "reminder"),
        (said.len() - 5, "referee's summary"),
        (said.len() - 4, "text report"),
        (said.len() - 2, "JSON report's orders template"),
    ] {
        let flat = said[i]
            .replace("=\r\n", "")
            .replace("\r\n", " ")
            .replace('\n', " ");
        assert!(
            flat.contains(told),
            "the {what} does not name {told}:\n{}",
            said[i]
        );
    }
}

/// A name ending in s makes its possessive with the apostrophe alone ("Central Powers' player",
/// "allies' player"), in what the referee is told and what the players are mailed; any other name
/// with 's. (They read "Central Powers's", "allies's".)
#[test]
fn a_possessive_of_a_name_ending_in_s_is_written_right() {
    let (_tmp, dir) = pog_game();
    let dropped = pbem()
        .args(["drop", "--to", "allies"])
        .arg(&dir)
        .arg("central")
        .assert()
        .success();
    let dropped = String::from_utf8_lossy(&dropped.get_output().stdout).into_owned();
    assert!(
        dropped.contains(": allies' player sends its orders"),
        "{dropped}"
    );
    let status = pbem().arg("status").arg(&dir).assert().success();
    let status = String::from_utf8_lossy(&status.get_output().stdout).into_owned();
    assert!(
        status.contains("; Allied Powers' player sends its orders"),
        "{status}"
    );
    pbem()
        .arg("remind")
        .arg(&dir)
        .env("PBEM_NOW", "2026-12-05T10:00:00Z")
        .assert()
        .success();
    let reminder = outbox(&dir)
        .into_iter()
        .find(|(n, _)| n.contains("-reminder-central"))
        .map(|(_, m)| body_of(&m))
        .expect("a reminder to the power's controller");
    assert!(
        reminder.contains("Central Powers' player has left"),
        "{reminder}"
    );
    for text in [&dropped, &status, &reminder] {
        assert!(!text.contains("s's "), "{text}");
    }
}

/// A standing order's setting that is none is quoted as the player wrote it ('Sometimes', not
/// 'sometimes'), in the words every ruleset's standing orders use: "is not a setting of 'standing
/// <key>'". (EiA lower-cased it and named the key alone.)
#[test]
fn a_standing_orders_wrong_setting_is_quoted_as_he_wrote_it() {
    let (tmp, dir) = game();
    let orders = write(
        tmp.path(),
        "fr.txt",
        format!(
            "{}standing Pursue Sometimes\nstanding guard Commit Sometimes\n",
            header("france", FRANCE_PW, 1)
        ),
    );
    let out = pbem()
        .arg("check")
        .arg(&dir)
        .arg(&orders)
        .assert()
        .failure();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.get_output().stdout),
        String::from_utf8_lossy(&out.get_output().stderr)
    );
    assert!(
        said.contains("error: 'Sometimes' is not a setting of 'standing pursue'"),
        "{said}"
    );
    assert!(
        said.contains("error: 'Commit Sometimes' is not a setting of 'standing guard'"),
        "{said}"
    );
    assert!(!said.contains("'sometimes'"), "{said}");
}

/// `pbem remind`'s list of the reminders it wrote opens with a heading line, as `status`'s and
/// `close`'s tables do: the turn, and what the rows are. (It began with the first row.)
#[test]
fn reminds_list_has_a_heading_line() {
    let (_tmp, dir) = game();
    let out = pbem()
        .arg("remind")
        .arg(&dir)
        .env("PBEM_NOW", "2026-12-05T10:00:00Z")
        .assert()
        .success();
    let out = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "Turn 1: a reminder to each power still due, in the outbox (`pbem send` sends them):",
        "{out}"
    );
    assert!(lines[1].starts_with("  france  "), "{out}");
    assert_eq!(lines.len(), 5, "{out}");
}

/// The announcement names the parts its rules digest binds in the game it is of: the tactical maps
/// in GITM alone (a player of Empires in Arms read of GITM's), the powers and players and the
/// opening position (the parts a commitment made before pbem fixed them lacks, whose announcement
/// `audit` makes again in its own words), and pbem's DICE.md as pbem's, as the reports do.
#[test]
fn the_announcement_names_the_rules_of_its_game_alone() {
    let tmp = tempfile::tempdir().unwrap();
    for (scenario, power, tactical) in [
        ("ulm-1805", "france", false),
        ("gitm-italy-1809", "austria", true),
    ] {
        let dir = tmp.path().join(scenario);
        pbem()
            .arg("new")
            .arg(&dir)
            .args(["--from", scenario])
            .assert()
            .success();
        let (_, mail) = outbox(&dir)
            .into_iter()
            .find(|(n, _)| n == &format!("t0001-announcement-{power}.eml"))
            .expect("the announcement");
        let flat = body_of(&mail).replace('\n', " ");
        assert!(!flat.contains("GITM"), "{flat}");
        assert_eq!(flat.contains("the tactical maps"), tactical, "{flat}");
        assert!(
            flat.contains("the map") && flat.contains("the tables"),
            "{flat}"
        );
        // Every part its digest binds, the opening position and who may give entropy among them.
        assert!(
            flat.contains("its powers and players (who may give entropy)")
                && flat.contains("and the opening position"),
            "{flat}"
        );
        assert!(!flat.contains("(docs/DICE.md)"), "{flat}");
    }
}

/// A newcomer writes his power as his welcome names it ("you play Grande Armée"): the answer says
/// that this is the power's name and what to write instead, its id (pbem orders/header).
#[test]
fn a_power_line_with_the_powers_name_is_answered_with_its_id() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ngg");
    pbem()
        .arg("new")
        .arg(&dir)
        .args(["--from", "ngg-smolensk-1812"])
        .assert()
        .success();
    for (id, line, error, hint) in [
        (
            "name",
            "power Grande Armée",
            "error: 'Grande Armée' is the name of a power: the 'power' line gives its id",
            "help: write 'power french'",
        ),
        (
            "spaced",
            "power  russian armies  of the West",
            "error: 'russian armies  of the West' is the name of a power: the 'power' line gives its id",
            "help: write 'power russian'",
        ),
        (
            "other",
            "power Grande Army",
            "error: the 'power' line has more than one word",
            "help: write 'power' and one word after it, as in 'power <your power>'",
        ),
    ] {
        let body = format!("game ngg-smolensk-1812\n{line}\npassword x\nturn 1\n");
        let path = write(
            tmp.path(),
            &format!("{id}.eml"),
            eml("french@example.org", ON_TIME, &format!("{id}@x"), &body),
        );
        pbem().arg("ingest").arg(&dir).arg(&path).assert().success();
        let (_, m) = acks(&dir)
            .into_iter()
            .find(|(_, m)| m.contains(&format!("<{id}@x>")))
            .unwrap_or_else(|| panic!("no answer to {id}"));
        let answer = body_of(&m);
        assert!(answer.contains(error), "{answer}");
        assert!(answer.contains(hint), "{answer}");
    }
    let (_, m) = acks(&dir)
        .into_iter()
        .find(|(_, m)| m.contains("<name@x>"))
        .unwrap();
    let answer = body_of(&m);
    assert!(
        answer.contains("2 | power Grande Armée\n  |       ^^^^^^^^^^^^ the power's name"),
        "{answer}"
    );
}
