//! Issue 18: an ingest run keeps its raw messages in one archive and its records in one file (not
//! three files per message), with the guarantees of issue 4: every message stored before it is
//! answered, reruns change nothing, a crash anywhere is completed by a rerun with the same bytes, and
//! a game folder of the per-message layout of older versions is read and continued.

use crate::support;

use std::fs;
use std::path::Path;

use pbem::mail::ingest::{ingest, load_records, Status};
use pbem::mail::ingest_store::RawStore;
use support::*;

/// An mbox of the given messages.
fn mbox(messages: &[String]) -> String {
    let mut out = String::new();
    for m in messages {
        out.push_str("From MAILER-DAEMON Sat Dec  5 17:00:00 2026\n");
        out.push_str(&m.replace("\r\n", "\n").replace("\nFrom ", "\n>From "));
        out.push_str("\n\n");
    }
    out
}

/// Orders of `power` received at `hour` on 5 December (before the deadline), with a Message-ID.
fn orders(power: &str, password: &str, hour: u32, id: &str, line: &str) -> String {
    eml(
        &format!("{power}@example.org"),
        &format!("Sat, 5 Dec 2026 {hour:02}:00:00 +0100"),
        id,
        &format!("{}{line}\n", header(power, password, 1)),
    )
}

/// A mailbox of accepted, replaced, rejected and late submissions, and a message that is no submission.
fn first_mailbox() -> Vec<String> {
    vec![
        orders(
            "france",
            FRANCE_PW,
            10,
            "f1@x",
            "move Napoleon Stuttgart Ulm",
        ),
        orders("austria", AUSTRIA_PW, 11, "a1@x", "# nothing yet"),
        orders(
            "france",
            FRANCE_PW,
            12,
            "f2@x",
            "move Napoleon Stuttgart Ulm",
        ),
        orders("russia", "wrong", 13, "r1@x", "# wrong password"),
        eml(
            "nobody@example.net",
            "Sat, 5 Dec 2026 14:00:00 +0100",
            "spam@x",
            "buy now\n",
        ),
        eml(
            "austria@example.org",
            "Mon, 7 Dec 2026 09:00:00 +0100",
            "a-late@x",
            &header("austria", AUSTRIA_PW, 1),
        ),
    ]
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn an_ingest_run_keeps_its_raw_messages_in_one_archive_and_its_records_in_one_file() {
    let (tmp, dir) = game();
    let messages = first_mailbox();
    let path = write(tmp.path(), "in.mbox", mbox(&messages));
    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    assert_eq!(s.new.len(), messages.len());

    // One archive holds every message, byte for byte, found by its digest.
    let inbox = names_in(&dir.join("mail/inbox"));
    assert_eq!(inbox.len(), 1, "{inbox:?}");
    assert!(
        inbox[0].starts_with("batch-") && inbox[0].ends_with(".raw"),
        "{inbox:?}"
    );
    let store = RawStore::open(&load(&dir)).unwrap();
    assert_eq!(store.len(), messages.len());
    for e in &s.new.all().unwrap() {
        let bytes = store.read(&e.record.sha256).unwrap();
        assert_eq!(pbem::game::record::sha256_hex(&bytes), e.record.sha256);
        let text = String::from_utf8(bytes).unwrap();
        assert!(
            text.contains(&format!("Message-ID: <{}>", e.record.message_id)),
            "{text}"
        );
    }

    // One records file for the run, and a file of its own for each submission filed as orders
    // (France's second, Austria's), which the turn reads.
    let records = load_records(&load(&dir)).unwrap();
    assert_eq!(records.len(), messages.len());
    let received = names_in(&dir.join("mail/received"));
    let batches: Vec<&String> = received
        .iter()
        .filter(|n| n.starts_with("batch-"))
        .collect();
    assert_eq!(batches.len(), 1, "{received:?}");
    let mut alone: Vec<String> = received
        .iter()
        .filter(|n| !n.starts_with("batch-"))
        .map(|n| n.trim_end_matches(".toml").to_string())
        .collect();
    alone.sort();
    let mut filed: Vec<String> = s.standing.iter().map(|w| w.record.sha256.clone()).collect();
    filed.sort();
    assert_eq!(alone, filed);
    assert_eq!(s.standing.len(), 2);
    // `pbem status` says where in the archive the message each power's orders came from is.
    let out = pbem().arg("status").arg(&dir).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let austria = s.standing.iter().find(|w| w.power == "austria").unwrap();
    assert!(
        stdout.contains(&format!(
            "{} (its line 'message {}', byte ",
            inbox[0], austria.record.sha256
        )),
        "{stdout}"
    );
    // The answers of the run, one per submission, in one batch of the outbox (and the outbox's
    // order, which names them).
    let outbox = names_in(&dir.join("mail/outbox"));
    assert_eq!(outbox.len(), 2, "{outbox:?}");
    assert!(outbox.contains(&"order.txt".to_string()), "{outbox:?}");
    assert!(
        outbox[0].starts_with("batch-") && outbox[0].ends_with(".raw"),
        "{outbox:?}"
    );
    let answered: Vec<String> = s
        .new
        .all()
        .unwrap()
        .iter()
        .map(|e| e.record.ack.clone())
        .filter(|a| !a.is_empty())
        .collect();
    assert_eq!(answered.len(), 5, "{answered:?}");
    let mut names: Vec<String> = acks(&dir).into_iter().map(|(n, _)| n).collect();
    let mut answered = answered;
    answered.sort();
    names.sort();
    assert_eq!(names, answered);
    let out = pbem().arg("resolve").arg(&dir).assert().success();
    let printed = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        printed.contains("france  1 order(s) accepted, 0 rejected"),
        "{printed}"
    );
}

#[test]
fn a_message_already_stored_is_neither_stored_nor_answered_again() {
    let (tmp, dir) = game();
    let messages = first_mailbox();
    let first = write(tmp.path(), "1.mbox", mbox(&messages[..3]));
    let both = write(tmp.path(), "2.mbox", mbox(&messages));
    locked(|| ingest(&load(&dir), std::slice::from_ref(&first)));
    let acks_before = acks(&dir).len();
    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&both)));
    assert_eq!((s.read, s.already, s.new.len()), (6, 3, 3));
    // A second archive with the three new messages alone.
    assert_eq!(names_in(&dir.join("mail/inbox")).len(), 2);
    assert_eq!(RawStore::open(&load(&dir)).unwrap().len(), 6);
    // Only the new submissions are answered (Russia's wrong password and Austria's late orders).
    assert_eq!(acks(&dir).len(), acks_before + 2);
    let once = tree(&dir);
    let s = locked(|| ingest(&load(&dir), &[first.clone(), both.clone()]));
    assert_eq!((s.read, s.already, s.new.len()), (9, 9, 0));
    assert_eq!(tree(&dir), once);
}

/// Every file but temporary ones.
fn settled(dir: &Path) -> Vec<(String, Vec<u8>)> {
    tree(dir)
        .into_iter()
        .filter(|(n, _)| !n.contains(".tmp-"))
        .collect()
}

#[test]
fn a_crash_before_any_file_an_ingest_puts_in_place_is_completed_by_a_rerun_with_the_same_bytes() {
    let (tmp, clean) = game();
    let path = write(tmp.path(), "in.mbox", mbox(&first_mailbox()));
    let before: Vec<String> = tree(&clean).into_iter().map(|(n, _)| n).collect();
    pbem()
        .arg("ingest")
        .arg(&clean)
        .arg(&path)
        .assert()
        .success();
    let done = settled(&clean);
    let made: Vec<String> = done
        .iter()
        .map(|(n, _)| n.clone())
        .filter(|n| !before.contains(n))
        .collect();
    // The archive, the answers' batch and the outbox's order, the run's records, the two filed
    // submissions' records, the two orders files.
    assert_eq!(made.len(), 8, "{made:?}");
    assert!(
        made.iter()
            .any(|n| n.starts_with("mail/outbox/batch-") && n.ends_with(".raw")),
        "{made:?}"
    );
    for (i, file) in made.iter().enumerate() {
        let name = Path::new(file).file_name().unwrap().to_string_lossy();
        let crashed = tmp.path().join(format!("crashed-{i}"));
        pbem::bundled::write_scenario("ulm-1805", &crashed).unwrap();
        pbem()
            .arg("ingest")
            .arg(&crashed)
            .arg(&path)
            .env("PBEM_CRASH_BEFORE", name.as_ref())
            .assert()
            .failure();
        assert!(!crashed.join(file).exists(), "{file} is in place");
        pbem()
            .arg("ingest")
            .arg(&crashed)
            .arg(&path)
            .assert()
            .success();
        let again = settled(&crashed);
        assert_eq!(
            again.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            done.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            "crash before {file}"
        );
        assert!(again == done, "crash before {file}: other bytes");
    }
}

/// Rewrites a game folder into the layout of pbem before issue 18: each raw message in
/// `mail/inbox/<sha256>.eml`, each record in `mail/received/<sha256>.toml`.
fn to_per_message_layout(dir: &Path) {
    let game = load(dir);
    let store = RawStore::open(&game).unwrap();
    let records = load_records(&game).unwrap();
    for (sha, _) in store.iter() {
        fs::write(
            dir.join(format!("mail/inbox/{sha}.eml")),
            store.read(sha).unwrap(),
        )
        .unwrap();
    }
    for (sha, r) in &records {
        fs::write(
            dir.join(format!("mail/received/{sha}.toml")),
            toml::to_string(r).unwrap(),
        )
        .unwrap();
    }
    for sub in ["mail/inbox", "mail/received"] {
        for name in names_in(&dir.join(sub)) {
            if name.starts_with("batch-") {
                fs::remove_file(dir.join(sub).join(name)).unwrap();
            }
        }
    }
}

#[test]
fn a_game_folder_of_the_per_message_layout_is_read_and_continued() {
    let (tmp, dir) = game();
    let messages = first_mailbox();
    let path = write(tmp.path(), "in.mbox", mbox(&messages));
    locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    to_per_message_layout(&dir);
    assert_eq!(names_in(&dir.join("mail/inbox")).len(), messages.len());
    assert_eq!(names_in(&dir.join("mail/received")).len(), messages.len());

    // Every old message is known: the same mailbox again changes nothing.
    let old = tree(&dir);
    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    assert_eq!((s.already, s.new.len()), (messages.len(), 0));
    assert_eq!(tree(&dir), old);

    // `pbem status` names the old file of the message Austria's orders came from.
    let out = pbem().arg("status").arg(&dir).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let austria = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("austria"))
        .unwrap();
    assert!(
        austria.contains("message <a1@x>") && austria.contains(".eml"),
        "{stdout}"
    );

    // New mail after the upgrade: Austria's new orders replace the old ones, a copy of an old
    // message is a duplicate, and the old records still count (France's stands).
    let copy = messages[0].replace("\r\nSubject: orders", "\r\nSubject: orders again");
    let newer = orders("austria", AUSTRIA_PW, 15, "a2@x", "# second thoughts");
    let path2 = write(tmp.path(), "in2.mbox", mbox(&[copy, newer]));
    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&path2)));
    let statuses: Vec<Status> = s
        .new
        .all()
        .unwrap()
        .iter()
        .map(|e| e.record.status)
        .collect();
    assert_eq!(statuses, [Status::Duplicate, Status::Accepted]);
    let filed = fs::read_to_string(dir.join("orders/1/austria.txt")).unwrap();
    assert!(filed.contains("# second thoughts"), "{filed}");
    assert_eq!(load_records(&load(&dir)).unwrap().len(), messages.len() + 2);
    assert_eq!(
        RawStore::open(&load(&dir)).unwrap().len(),
        messages.len() + 2
    );
    let out = pbem().arg("resolve").arg(&dir).assert().success();
    let printed = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        printed.contains("france  1 order(s) accepted, 0 rejected"),
        "{printed}"
    );
}

#[test]
fn a_stored_message_that_no_longer_matches_its_digest_is_refused() {
    let (tmp, dir) = game();
    let messages = first_mailbox();
    let path = write(tmp.path(), "in.mbox", mbox(&messages[..1]));
    locked(|| ingest(&load(&dir), std::slice::from_ref(&path)));
    let archive = dir
        .join("mail/inbox")
        .join(&names_in(&dir.join("mail/inbox"))[0]);
    let text = fs::read_to_string(&archive).unwrap();
    fs::write(&archive, text.replace("Napoleon", "Napoleoo")).unwrap();
    let store = RawStore::open(&load(&dir)).unwrap();
    let (sha, _) = store.iter().next().unwrap();
    let e = store.read(sha).unwrap_err().to_string();
    assert!(e.contains("does not match its digest"), "{e}");
}

/// A run that crashed after its answers' batch was in place, before its records, leaves those
/// messages unjudged; rerun with a later submission of France as well, it answers France's earlier
/// one again, now replaced, in a file of its own that stands over the batch's answer (nothing a
/// batch holds is rewritten), and the new submission in a batch of its own: each answer is in the
/// outbox once, with the bytes of now.
#[test]
fn a_rerun_with_more_mail_after_a_crash_answers_again_in_a_file_that_stands_over_the_batch() {
    let (tmp, clean) = game();
    let messages = first_mailbox();
    let first = write(tmp.path(), "1.mbox", mbox(&messages[..3]));
    let mut more = messages[..3].to_vec();
    more.push(orders(
        "france",
        FRANCE_PW,
        13,
        "f3@x",
        "move Napoleon Stuttgart Ulm",
    ));
    let second = write(tmp.path(), "2.mbox", mbox(&more));
    // The name of the run's records file, from an uninterrupted run.
    pbem()
        .arg("ingest")
        .arg(&clean)
        .arg(&first)
        .assert()
        .success();
    let records = names_in(&clean.join("mail/received"))
        .into_iter()
        .find(|n| n.starts_with("batch-"))
        .unwrap();
    let (_t, dir) = game();
    pbem()
        .arg("ingest")
        .arg(&dir)
        .arg(&first)
        .env("PBEM_CRASH_BEFORE", &records)
        .assert()
        .failure();
    let answered_before = acks(&dir);
    assert_eq!(answered_before.len(), 3);
    assert!(load_records(&load(&dir)).unwrap().is_empty());

    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&second)));
    assert_eq!(s.new.len(), 4);
    let f2 = s
        .new
        .all()
        .unwrap()
        .into_iter()
        .find(|e| e.record.message_id == "f2@x")
        .unwrap();
    let alone = dir.join("mail/outbox").join(&f2.record.ack);
    assert!(alone.is_file(), "{}", f2.record.ack);
    assert_eq!(f2.ack.as_deref(), Some(alone.as_path()));
    let now = acks(&dir);
    assert_eq!(now.len(), 4, "{now:?}");
    let (_, said_before) = answered_before
        .iter()
        .find(|(n, _)| *n == f2.record.ack)
        .unwrap();
    let (_, said_now) = now.iter().find(|(n, _)| *n == f2.record.ack).unwrap();
    assert_ne!(said_before, said_now);
    assert_eq!(*said_now, fs::read_to_string(&alone).unwrap());
    let batches = names_in(&dir.join("mail/outbox"))
        .into_iter()
        .filter(|n| n.starts_with("batch-"))
        .count();
    assert_eq!(batches, 2);
    // Ingesting it all again changes nothing.
    let once = tree(&dir);
    let s = locked(|| ingest(&load(&dir), std::slice::from_ref(&second)));
    assert_eq!(s.new.len(), 0);
    assert_eq!(tree(&dir), once);
}
