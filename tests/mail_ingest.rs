//! Issue 4: which submission counts and when it arrived, what the acknowledgement says, that nothing is
//! lost or changed twice, and `pbem status` / `pbem remind`.

use crate::support;

use std::fs;

use pbem::mail::ingest::{apply_held, ingest, Status};
use support::*;

fn mbox_entry(eml: &str, postmark: &str) -> String {
    format!(
        "From sender@example.org {postmark}\n{}\n",
        eml.replace("\r\n", "\n")
    )
}

fn france(orders: &str) -> String {
    format!("{}{orders}", header("france", FRANCE_PW, 1))
}

#[test]
fn the_last_submission_before_the_deadline_counts_and_every_one_is_kept() {
    let (tmp, dir) = game();
    // In the mbox: the late one first, then the two on time in the wrong order. Arrival is the
    // referee's Received header, never the mbox order nor the sender's Date.
    let late = eml(
        "france@example.org",
        "Sun, 6 Dec 2026 20:00:01 +0100",
        "late@x",
        &france("attack Munich\n"),
    );
    let first = eml(
        "france@example.org",
        "Sat, 5 Dec 2026 10:00:00 +0100",
        "first@x",
        &france("attack Ulm\n"),
    );
    let second = eml(
        "france@example.org",
        "Sun, 6 Dec 2026 19:59:59 +0100",
        "second@x",
        &france("attack Ingolstadt\n"),
    );
    let mbox = [
        mbox_entry(&late, "Sun Dec  6 19:00:01 2026"),
        mbox_entry(&second, "Sun Dec  6 18:59:59 2026"),
        mbox_entry(&first, "Sat Dec  5 09:00:00 2026"),
    ]
    .concat();
    let path = write(tmp.path(), "inbox.mbox", &mbox);
    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    let new = s.new.all().unwrap();
    let statuses: Vec<(&str, Status)> = new
        .iter()
        .map(|e| (e.record.message_id.as_str(), e.record.status))
        .collect();
    assert_eq!(
        statuses,
        [
            ("first@x", Status::Accepted),
            ("second@x", Status::Accepted),
            ("late@x", Status::Late)
        ]
    );
    let filed = fs::read_to_string(dir.join("orders/1/france.txt")).unwrap();
    assert!(filed.ends_with("attack Ingolstadt\n"), "{filed}");
    assert_eq!(
        pbem::mail::ingest_store::RawStore::open(&load(&dir))
            .unwrap()
            .len(),
        3,
        "every message is kept"
    );
    let late_reason = s.new.all().unwrap()[2].record.reasons[0].clone();
    assert!(
        late_reason.contains("after the deadline of turn 1 (2026-12-06 20:00 CET)"),
        "{late_reason}"
    );
    assert!(
        late_reason.contains("late orders are rejected"),
        "{late_reason}"
    );
    // Each one is answered; the first says it was replaced.
    let acks = acks(&dir);
    assert_eq!(acks.len(), 3);
    let by_id = |id: &str| {
        acks.iter()
            .find(|(_, a)| header_of(a, "In-Reply-To").as_deref() == Some(&format!("<{id}>")[..]))
            .map(|(_, a)| body_of(a))
            .unwrap()
    };
    assert!(
        by_id("first@x").contains("replaces them"),
        "{}",
        by_id("first@x")
    );
    assert!(by_id("second@x").contains("now stand for turn 1"));
    assert!(by_id("late@x").contains("arrived after the deadline"));
}

#[test]
fn late_orders_are_held_for_the_next_turn_when_the_game_says_hold() {
    let (tmp, dir) = game();
    set_deadline_key(&dir, "late_orders", "\"hold\"");
    let late = eml(
        "france@example.org",
        "Mon, 7 Dec 2026 09:00:00 +0100",
        "late@x",
        &france("attack Munich\n"),
    );
    let path = write(tmp.path(), "late.eml", &late);
    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    let r = s.new.all().unwrap()[0].record.clone();
    assert_eq!((r.status, r.for_turn), (Status::Held, 2));
    assert!(!dir.join("orders/1/france.txt").exists());
    let ack = body_of(&acks(&dir)[0].1);
    assert!(ack.contains("kept for turn 2"), "{ack}");
    locked(|| pbem::referee::turn::resolve(&load(&dir), &Default::default()));
    // The referee's summary of turn 1 lists the late submission.
    let summary = fs::read_to_string(dir.join("turns/1/summary.txt")).unwrap();
    assert!(
        summary.contains("Late by mail (late_orders = \"hold\"): france: 1 late submission(s), 1 held for turn 2."),
        "{summary}"
    );
    let s = locked(|| apply_held(&load(&dir)));
    assert_eq!(s.standing.len(), 1);
    let filed = fs::read_to_string(dir.join("orders/2/france.txt")).unwrap();
    assert!(
        filed.contains("\nturn 2\n") && filed.ends_with("attack Munich\n"),
        "{filed}"
    );
}

#[test]
fn the_acknowledgement_lists_orders_diagnostics_entropy_digest_deadline_and_commitment() {
    let (tmp, dir) = game();
    let body = format!(
        "{}entropy  the eagles  fly \nmove FR-I Nuremberg Regensburg Munich\nmove FR-V Stuttgart Ulmm\n",
        header("france", FRANCE_PW, 1)
    );
    let path = write(
        tmp.path(),
        "m.eml",
        eml(
            "France <France@Example.org>",
            "Sat, 5 Dec 2026 18:00:00 +0100",
            "m1@example.org",
            &body,
        ),
    );
    locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    let (name, ack) = acks(&dir).pop().unwrap();
    assert!(name.starts_with("t0001-ack-france-"), "{name}");
    assert_eq!(header_of(&ack, "To").as_deref(), Some("france@example.org"));
    assert_eq!(
        header_of(&ack, "In-Reply-To").as_deref(),
        Some("<m1@example.org>")
    );
    assert_eq!(
        header_of(&ack, "Date").as_deref(),
        Some("Sat, 05 Dec 2026 17:00:00 +0000")
    );
    let text = body_of(&ack);
    let filed = fs::read(dir.join("orders/1/france.txt")).unwrap();
    // The receipt digest: the filed file without the digest of the message it came from.
    let digest = hex::encode(pbem::mail::ingest::receipt_digest(&filed));
    let e_p = pbem::dice::to_hex(&pbem::dice::entropy("the eagles  fly"));
    let commitment = fs::read_to_string(dir.join("turns/1/commitment")).unwrap();
    for needle in [
        "orders of France accepted, 1 line(s) rejected",
        "line 6: move FR-I Nuremberg Regensburg Munich",
        "unknown area 'Ulmm'",
        "did you mean 'Ulm'?",
        "Your entropy line: \"the eagles  fly\"",
        &format!("E_p = {e_p}"),
        &digest,
        "Deadline of turn 1: Sunday 2026-12-06 20:00 CET",
        commitment.trim(),
        "arrived Saturday 2026-12-05 18:00:00 CET",
    ] {
        assert!(text.contains(needle), "no '{needle}' in\n{text}");
    }
    assert!(!text.contains(FRANCE_PW), "{text}");
}

#[test]
fn without_a_received_header_a_maildir_delivery_time_orders_the_messages_never_the_date() {
    let (tmp, dir) = game();
    let md = tmp.path().join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(md.join(sub)).unwrap();
    }
    let m = |id: &str, date: &str, orders: &str| {
        format!(
            "From: france@example.org\r\nDate: {date}\r\nMessage-ID: <{id}>\r\nSubject: o\r\n\r\n{}",
            france(orders).replace('\n', "\r\n")
        )
    };
    // Delivered at 1765000000 (2025-12-06) and 1765003600: the Date headers say the opposite.
    write(
        &md,
        "cur/1765003600.M2P2.mx:2,S",
        m("b@x", "Mon, 1 Jan 2001 00:00:00 +0000", "attack Ulm\n"),
    );
    write(
        &md,
        "new/1765000000.M1P1.mx",
        m("a@x", "Fri, 1 Jan 2027 00:00:00 +0000", "attack Munich\n"),
    );
    let before = tree(&md);
    let mtimes: Vec<_> = ["new/1765000000.M1P1.mx", "cur/1765003600.M2P2.mx:2,S"]
        .iter()
        .map(|f| fs::metadata(md.join(f)).unwrap().modified().unwrap())
        .collect();
    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&md)));
    let new = s.new.all().unwrap();
    let order: Vec<&str> = new.iter().map(|e| e.record.message_id.as_str()).collect();
    assert_eq!(order, ["a@x", "b@x"]);
    assert!(s
        .new
        .all()
        .unwrap()
        .iter()
        .all(|e| e.record.arrival_from == "delivery"));
    let filed = fs::read_to_string(dir.join("orders/1/france.txt")).unwrap();
    assert!(filed.ends_with("attack Ulm\n"), "{filed}");
    // The mailbox is never modified: the new message stays in new/, bytes and times unchanged.
    assert_eq!(tree(&md), before);
    let after: Vec<_> = ["new/1765000000.M1P1.mx", "cur/1765003600.M2P2.mx:2,S"]
        .iter()
        .map(|f| fs::metadata(md.join(f)).unwrap().modified().unwrap())
        .collect();
    assert_eq!(mtimes, after);
}

#[test]
fn ingesting_the_same_mailbox_twice_changes_nothing() {
    let (tmp, dir) = game();
    let mut mbox = String::new();
    for (i, (p, pw)) in [
        ("france", FRANCE_PW),
        ("austria", AUSTRIA_PW),
        ("russia", "wrong"),
    ]
    .iter()
    .enumerate()
    {
        let m = eml(
            &format!("{p}@example.org"),
            &format!("Sat, 5 Dec 2026 1{i}:00:00 +0100"),
            &format!("{p}@x"),
            &header(p, pw, 1),
        );
        mbox.push_str(&mbox_entry(&m, "Sat Dec  5 10:00:00 2026"));
    }
    let path = write(tmp.path(), "inbox.mbox", &mbox);
    locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    let once = tree(&dir);
    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    assert_eq!((s.read, s.already, s.new.len()), (3, 3, 0));
    assert_eq!(tree(&dir), once);
}

#[test]
fn status_shows_per_power_when_and_from_which_message_orders_came() {
    let (tmp, dir) = game();
    let m = eml(
        "austria@example.org",
        "Sat, 5 Dec 2026 18:00:00 +0100",
        "aus-1@example.org",
        &header("austria", AUSTRIA_PW, 1),
    );
    let bad = eml(
        "russia@example.org",
        "Sat, 5 Dec 2026 18:30:00 +0100",
        "rus-1@example.org",
        &header("russia", "nope", 1),
    );
    let p1 = write(tmp.path(), "a.eml", m);
    let p2 = write(tmp.path(), "r.eml", bad);
    pbem()
        .arg("ingest")
        .arg(&dir)
        .arg(&p1)
        .arg(&p2)
        .assert()
        .success();
    let out = pbem().arg("status").arg(&dir).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let line = |p: &str| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(p))
            .unwrap()
            .to_string()
    };
    assert!(
        line("austria")
            .contains("in: received Saturday 2026-12-05 18:00:00 CET, message <aus-1@example.org>"),
        "{stdout}"
    );
    assert!(line("france").contains("missing"), "{stdout}");
    assert!(stdout.contains("also: 1 rejected"), "{stdout}");
}

#[test]
fn remind_writes_to_each_power_without_orders_with_the_deadline_in_its_own_time_zone() {
    let (tmp, dir) = game();
    // Britain's player lives in New York.
    let text = fs::read_to_string(dir.join("game.toml")).unwrap().replace(
        "players = [\"britain@example.org\"]",
        "players = [\"britain@example.org\"]\ntime_zone = \"America/New_York\"",
    );
    fs::write(dir.join("game.toml"), text).unwrap();
    let m = eml(
        "austria@example.org",
        "Sat, 5 Dec 2026 18:00:00 +0100",
        "aus@x",
        &header("austria", AUSTRIA_PW, 1),
    );
    let p = write(tmp.path(), "a.eml", m);
    pbem().arg("ingest").arg(&dir).arg(&p).assert().success();
    // Before the deadline: after it, remind writes none.
    let remind = || {
        pbem()
            .arg("remind")
            .arg(&dir)
            .env("PBEM_NOW", "2026-12-05T18:00:00Z")
            .assert()
            .success();
    };
    remind();
    let reminders: Vec<(String, String)> = outbox(&dir)
        .into_iter()
        .filter(|(n, _)| n.contains("reminder"))
        .collect();
    let names: Vec<&str> = reminders.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "t0001-reminder-britain.eml",
            "t0001-reminder-france.eml",
            "t0001-reminder-russia.eml"
        ]
    );
    let britain = body_of(&reminders[0].1);
    assert!(britain.contains("Sunday 2026-12-06 20:00 CET"), "{britain}");
    assert!(
        britain.contains("Sunday 2026-12-06 14:00 EST in your time zone"),
        "{britain}"
    );
    assert!(!body_of(&reminders[1].1).contains("your time zone"));
    // Reminding again before they are sent writes nothing new.
    let before = tree(&dir);
    remind();
    assert_eq!(tree(&dir), before);
}

#[test]
fn a_bad_time_zone_for_a_power_is_a_located_error() {
    let (_tmp, dir) = game();
    let text = fs::read_to_string(dir.join("game.toml")).unwrap().replace(
        "players = [\"britain@example.org\"]",
        "players = [\"britain@example.org\"]\ntime_zone = \"Mars/Olympus\"",
    );
    fs::write(dir.join("game.toml"), text).unwrap();
    let out = pbem().arg("status").arg(&dir).assert().failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("unknown time zone 'Mars/Olympus' for britain"),
        "{stderr}"
    );
    assert!(stderr.contains("game.toml:"), "{stderr}");
}

#[test]
fn an_smtp_password_in_game_toml_is_refused() {
    let (_tmp, dir) = game();
    add_to_config(
        &dir,
        "[mail.smtp]\nhost = \"smtp.example.org\"\npassword = \"hunter2\"\n",
    );
    let out = pbem().arg("status").arg(&dir).assert().failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("the SMTP password must not be written in game.toml"),
        "{stderr}"
    );
    assert!(stderr.contains("password_env"), "{stderr}");
}

#[test]
fn a_games_own_ack_template_overrides_the_built_in_one() {
    let (tmp, dir) = game();
    write(
        &dir,
        "templates/ack.txt.j2",
        "Bonjour {{ power_name }}: {{ status }} ({{ accepted|length }} ordres).\n",
    );
    let m = eml(
        "france@example.org",
        "Sat, 5 Dec 2026 18:00:00 +0100",
        "fr@x",
        &france("attack Ulm\n"),
    );
    let p = write(tmp.path(), "m.eml", m);
    locked(|| ingest(&load(&dir), std::slice::from_ref(&p)));
    assert_eq!(
        body_of(&acks(&dir)[0].1).trim_end(),
        "Bonjour France: accepted (1 ordres)."
    );
}

#[test]
fn plain_smtp_to_another_machine_is_refused_in_game_toml() {
    let (_tmp, dir) = game();
    add_to_config(
        &dir,
        "[mail]\ntransport = \"smtp\"\n\n[mail.smtp]\nhost = \"smtp.example.org\"\nsecurity = \"none\"\n",
    );
    let out = pbem()
        .arg("send")
        .arg(&dir)
        .arg("--dry-run")
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("would send mail and password in clear to smtp.example.org"),
        "{stderr}"
    );
    assert!(stderr.contains("game.toml:"), "{stderr}");
}

#[test]
fn a_crash_during_an_ingest_is_completed_by_a_rerun_with_the_same_files() {
    let (tmp, clean) = game();
    let crashed = tmp.path().join("crashed");
    pbem::game::fsio::copy_tree(&clean, &crashed).unwrap();
    let mut mbox = String::new();
    for (p, pw) in [("france", FRANCE_PW), ("austria", AUSTRIA_PW)] {
        let m = eml(
            &format!("{p}@example.org"),
            "Sat, 5 Dec 2026 18:00:00 +0100",
            &format!("{p}@x"),
            &header(p, pw, 1),
        );
        mbox.push_str(&mbox_entry(&m, "Sat Dec  5 17:00:00 2026"));
    }
    let path = write(tmp.path(), "inbox.mbox", mbox);
    pbem()
        .arg("ingest")
        .arg(&clean)
        .arg(&path)
        .assert()
        .success();
    // Killed as by a power cut just before the French orders file is put in place.
    pbem()
        .arg("ingest")
        .arg(&crashed)
        .arg(&path)
        .env("PBEM_CRASH_BEFORE", "france.txt")
        .assert()
        .failure();
    assert!(!crashed.join("orders/1/france.txt").exists());
    pbem()
        .arg("ingest")
        .arg(&crashed)
        .arg(&path)
        .assert()
        .success();
    let strip = |t: Vec<(String, Vec<u8>)>| -> Vec<(String, Vec<u8>)> {
        t.into_iter()
            .filter(|(n, _)| !n.contains(".tmp-"))
            .collect()
    };
    assert_eq!(strip(tree(&crashed)), strip(tree(&clean)));
}

/// The same message read from a saved `.eml` (CRLF, as IMAP and mail clients give it) and, in a later
/// run, from an mbox (LF, a blank line after it) is one message: the second is a copy, judged and
/// answered once. (It was judged again: a second answer, numbered submission 2, told the player that
/// someone else had sent orders for him.)
#[test]
fn the_same_message_from_an_eml_and_from_an_mbox_is_judged_and_answered_once() {
    let (tmp, dir) = game();
    let m = eml(
        "france@example.org",
        "Sat, 5 Dec 2026 10:00:00 +0100",
        "both@x",
        &france("attack Ulm\n"),
    );
    assert!(m.contains("\r\n"));
    let one = write(tmp.path(), "saved.eml", &m);
    let box_ = write(
        tmp.path(),
        "inbox.mbox",
        mbox_entry(&m, "Sat Dec  5 09:00:00 2026"),
    );
    pbem().arg("ingest").arg(&dir).arg(&one).assert().success();
    let out = pbem().arg("ingest").arg(&dir).arg(&box_).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("1 duplicate") && stdout.contains("0 accepted"),
        "{stdout}"
    );
    assert_eq!(acks(&dir).len(), 1, "{:?}", acks(&dir));
}

/// A reply that quotes its orders under the header (`> move ...`, as a reply to the last answer
/// quotes it) is accepted with no order: its answer says so, in words, and that quoted lines are
/// never read; it listed nothing and said only that "these orders now stand".
#[test]
fn an_accepted_submission_with_no_order_says_that_none_stands_and_why() {
    let (tmp, dir) = game();
    let body = format!(
        "{}\nOn Fri, 4 Dec 2026, referee wrote:\n> attack Ulm\n> move FR-VIII Verona\n",
        header("france", FRANCE_PW, 1)
    );
    let m = eml(
        "france@example.org",
        "Sat, 5 Dec 2026 10:00:00 +0100",
        "quoted@x",
        &body,
    );
    let path = write(tmp.path(), "reply.eml", m);
    pbem().arg("ingest").arg(&dir).arg(&path).assert().success();
    let acks = acks(&dir);
    assert_eq!(acks.len(), 1);
    let text = body_of(&acks[0].1);
    assert!(text.contains("Orders accepted: none."), "{text}");
    assert!(
        text.contains("lines quoted with '>'")
            && text.contains("France has no orders for turn 1 unless you send others"),
        "{text}"
    );
}

/// Two late submissions held for the next turn (`late_orders = "hold"`): the second replaces the
/// first, and the first's answer says so. Both said "kept for turn 2 and stand then", so the
/// player could not tell which would stand.
#[test]
fn of_two_late_submissions_held_the_first_answer_says_the_second_replaces_it() {
    let (tmp, dir) = game();
    set_deadline_key(&dir, "late_orders", "\"hold\"");
    let first = eml(
        "france@example.org",
        "Mon, 7 Dec 2026 09:00:00 +0100",
        "held-1@x",
        &france("attack Munich\n"),
    );
    let second = eml(
        "france@example.org",
        "Mon, 7 Dec 2026 10:00:00 +0100",
        "held-2@x",
        &france("attack Ulm\n"),
    );
    let a = write(tmp.path(), "1.eml", &first);
    let b = write(tmp.path(), "2.eml", &second);
    pbem()
        .arg("ingest")
        .arg(&dir)
        .arg(&a)
        .arg(&b)
        .assert()
        .success();
    let answers = acks(&dir);
    let body = |id: &str| {
        answers
            .iter()
            .map(|(_, m)| body_of(m).replace("\r\n", "\n"))
            .find(|m| m.contains(&format!("Your message <{id}>")))
            .unwrap()
    };
    let one = body("held-1@x");
    assert!(
        one.contains("were kept for turn 2, but a message of France received later (Monday 2026-12-07 10:00:00 CET)\nreplaces them."),
        "{one}"
    );
    assert!(!one.contains("stand then"), "{one}");
    let two = body("held-2@x");
    assert!(two.contains("are kept for turn 2 and stand then"), "{two}");
}
