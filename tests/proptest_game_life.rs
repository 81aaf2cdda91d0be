//! A state machine test of a game's life (issue 33): random sequences of the referee's acts and the
//! players' mail, each run through the binary on the bundled ulm-1805 game, with a clock that only
//! moves forward. After every step:
//!
//! - every deadline lies after the one before it, and the current turn's gives the game's least
//!   notice from the moment it was last announced (resolved, reopened);
//! - a departed player's mail never stands (its record is not accepted, and no orders file that
//!   authenticates was filed from it);
//! - each player's last word on each of his messages tells the truth: the answer the record names
//!   says what the record says, and any other answer to the same message that has not gone is
//!   withdrawn;
//! - `pbem audit` passes;
//! - no message is sent twice (no pair of outbox file and recipient delivered by two runs), and at
//!   the end, once the outbox is sent, none is left.
//!
//! The steps: mail on time or late (the clock decides), with a wrong password, from a departed
//! player, a duplicate; `pbem turn` (and `--early`), extend, rollback, drop, replace, accept-late,
//! rekey, send, and a `pbem turn` killed at a file and run again. PROPTEST_CASES sets the count.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

use chrono::{DateTime, Duration, Utc};
use proptest::prelude::*;

use crate::support::{self, pbem};

const POWERS: [(&str, &str); 4] = [
    ("france", support::FRANCE_PW),
    ("austria", support::AUSTRIA_PW),
    ("russia", support::RUSSIA_PW),
    ("britain", support::BRITAIN_PW),
];

#[derive(Debug, Clone)]
enum Mail {
    Proper,
    WrongPassword,
    Duplicate,
}

#[derive(Debug, Clone)]
enum Step {
    Advance(i64),
    Mail(usize, Mail),
    Turn,
    TurnEarly,
    Extend(u32),
    Rollback,
    Drop(usize, Option<usize>),
    Replace(usize),
    AcceptLate(usize),
    Rekey,
    Send,
    KillThenRerun(usize),
}

fn step() -> impl Strategy<Value = Step> {
    let power = 0..POWERS.len();
    prop_oneof![
        4 => (1i64..120).prop_map(Step::Advance),
        6 => (power.clone(), prop_oneof![
            4 => Just(Mail::Proper),
            1 => Just(Mail::WrongPassword),
            1 => Just(Mail::Duplicate),
        ]).prop_map(|(p, m)| Step::Mail(p, m)),
        3 => Just(Step::Turn),
        1 => Just(Step::TurnEarly),
        1 => (1u32..10).prop_map(Step::Extend),
        1 => Just(Step::Rollback),
        1 => (power.clone(), proptest::option::of(0..POWERS.len())).prop_map(|(p, b)| Step::Drop(p, b)),
        1 => power.clone().prop_map(Step::Replace),
        2 => power.clone().prop_map(Step::AcceptLate),
        1 => Just(Step::Rekey),
        1 => Just(Step::Send),
        1 => (0usize..4).prop_map(Step::KillThenRerun),
    ]
}

/// What the test knows of the game besides its folder.
struct Model {
    tmp: tempfile::TempDir,
    game: PathBuf,
    sent: PathBuf,
    now: DateTime<Utc>,
    /// Addresses that left a power, by power.
    departed: BTreeMap<String, BTreeSet<String>>,
    /// The last message file mailed for each power.
    last_mail: BTreeMap<usize, PathBuf>,
    /// The power that mailed last: accept-late takes its orders.
    last_power: Option<usize>,
    mails: u32,
    /// When the current turn was last announced (resolved into, or reopened).
    announced: DateTime<Utc>,
    /// Every (outbox file, recipient) a finished run delivered, since the last rollback.
    delivered: BTreeSet<(String, String)>,
}

impl Model {
    fn new() -> Model {
        let (tmp, game) = support::game();
        // A real game's later secrets are its own: the scenario's public ones (turns 2 on) are
        // removed, so that pbem draws fresh ones and plays past the demo's sample turns.
        for turn in 2..=6 {
            let _ = std::fs::remove_file(game.join(format!("secret/{turn}.key")));
        }
        let sent = tmp.path().join("sent");
        let now = DateTime::parse_from_rfc3339("2026-12-05T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        Model {
            tmp,
            game,
            sent,
            now,
            departed: BTreeMap::new(),
            last_mail: BTreeMap::new(),
            last_power: None,
            mails: 0,
            announced: now,
            delivered: BTreeSet::new(),
        }
    }

    fn clock(&self) -> String {
        self.now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    }

    /// `pbem <command> <game> <args>` at the model's clock: (exit code, stdout, stderr).
    fn run(&self, args: &[&str], crash: Option<&str>) -> (i32, String, String) {
        let mut c = pbem();
        c.arg(args[0]).arg(&self.game).args(&args[1..]);
        c.env("PBEM_NOW", self.clock());
        if let Some(f) = crash {
            c.env("PBEM_CRASH_BEFORE", f);
        }
        let out = c.output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn current_turn(&self) -> u32 {
        support::load(&self.game).current_turn().unwrap()
    }

    /// Records what a finished run delivered; a pair delivered twice fails.
    fn deliveries(&mut self, stdout: &str) -> Result<(), TestCaseError> {
        for line in stdout.lines() {
            let Some(rest) = line.trim_start().strip_prefix("sent ") else {
                continue;
            };
            let Some((file, to)) = rest.trim().split_once(" -> ") else {
                continue;
            };
            let pair = (file.trim().to_string(), to.trim().to_string());
            prop_assert!(
                self.delivered.insert(pair.clone()),
                "{pair:?} delivered twice:\n{stdout}"
            );
        }
        Ok(())
    }

    /// A turn command, with what it resolved noted.
    fn turn(&mut self, args: &[&str], crash: Option<&str>) -> Result<(), TestCaseError> {
        let before = self.current_turn();
        let (code, out, err) = self.run(args, crash);
        if crash.is_none() {
            prop_assert!(
                [0, 1].contains(&code) || (code == 5 && out.contains("is no longer an address")),
                "{args:?} exit {code}:\n{out}\n{err}"
            );
            prop_assert!(!err.contains("panicked"), "{err}");
            if code == 1 {
                prop_assert!(
                    err.contains("orders are still missing") || err.contains("still in the outbox"),
                    "{args:?} failed:\n{err}"
                );
            }
            self.deliveries(&out)?;
        }
        if self.current_turn() > before {
            self.announced = self.now;
        }
        Ok(())
    }

    fn apply(&mut self, step: &Step) -> Result<(), TestCaseError> {
        let folder = self.sent.to_string_lossy().into_owned();
        match step {
            Step::Advance(h) => self.now += Duration::hours(*h),
            Step::Mail(p, kind) => {
                let (power, pw) = POWERS[*p];
                let path = match (kind, self.last_mail.get(p)) {
                    (Mail::Duplicate, Some(path)) => path.clone(),
                    _ => {
                        self.mails += 1;
                        let pw = match kind {
                            Mail::WrongPassword => "not-the-password",
                            _ => pw,
                        };
                        let received = self.now.format("%a, %-d %b %Y %H:%M:%S +0000").to_string();
                        let body = format!(
                            "{}entropy m{}\n",
                            support::header(power, pw, self.current_turn()),
                            self.mails
                        );
                        let eml = support::eml(
                            &format!("{power}@example.org"),
                            &received,
                            &format!("m{}@example.org", self.mails),
                            &body,
                        );
                        let path =
                            support::write(self.tmp.path(), &format!("m{}.eml", self.mails), eml);
                        self.last_mail.insert(*p, path.clone());
                        self.last_power = Some(*p);
                        path
                    }
                };
                // 3: something in it was rejected (a wrong password, a departed player).
                let (code, out, err) = self.run(&["ingest", path.to_str().unwrap()], None);
                prop_assert!([0, 3].contains(&code), "{}\n{}", out, err);
            }
            Step::Turn => self.turn(&["turn", "--folder", &folder], None)?,
            Step::TurnEarly => self.turn(&["turn", "--early", "--folder", &folder], None)?,
            Step::Extend(d) => {
                let by = format!("{d}d");
                let (code, _, err) = self.run(&["extend", "--by", &by, "--reason", "x"], None);
                prop_assert!(code == 0 || err.contains("nothing was changed"), "{err}");
            }
            Step::Rollback => {
                let t = self.current_turn();
                if t > 1 {
                    let to = (t - 1).to_string();
                    let (code, out, err) =
                        self.run(&["rollback", "--to-turn", &to, "--reason", "x"], None);
                    prop_assert_eq!(code, 0, "{}\n{}", out, err);
                    self.announced = self.now;
                    self.delivered.clear();
                }
            }
            Step::Drop(p, by) => {
                let power = POWERS[*p].0;
                let state = support::load(&self.game)
                    .load_state(self.current_turn())
                    .unwrap();
                if state.controlled.contains_key(power) || state.owners.contains_key(power) {
                    return Ok(());
                }
                let mut args = vec!["drop", power];
                if let Some(b) = by {
                    args.extend(["--to", POWERS[*b].0]);
                }
                let (code, _, err) = self.run(&args, None);
                if code == 0 {
                    self.departed
                        .entry(power.to_string())
                        .or_default()
                        .insert(format!("{power}@example.org"));
                } else {
                    prop_assert!(err.contains("cannot control itself"), "{err}");
                }
            }
            Step::Replace(p) => {
                let power = POWERS[*p].0;
                let state = support::load(&self.game)
                    .load_state(self.current_turn())
                    .unwrap();
                if state.owners.contains_key(power) || state.incoming.contains_key(power) {
                    return Ok(());
                }
                let email = format!("new-{power}@example.org");
                let (code, out, err) = self.run(&["replace", power, "--email", &email], None);
                prop_assert_eq!(code, 0, "{}\n{}", out, err);
                self.departed
                    .entry(power.to_string())
                    .or_default()
                    .insert(format!("{power}@example.org"));
            }
            Step::AcceptLate(p) => {
                let (code, _, err) =
                    self.run(&["accept-late", POWERS[*p].0, "--reason", "x"], None);
                prop_assert!(
                    code == 0 || err.to_lowercase().contains("nothing was changed"),
                    "{err}"
                );
            }
            Step::Rekey => {
                let (code, out, err) = self.run(&["rekey", "--reason", "x"], None);
                prop_assert_eq!(code, 0, "{}\n{}", out, err);
            }
            Step::Send => {
                let (code, out, err) = self.run(&["send", "--folder", &folder], None);
                prop_assert!(
                    code == 0 || (code == 5 && out.contains("is no longer an address")),
                    "{}\n{}",
                    out,
                    err
                );
                self.deliveries(&out)?;
            }
            Step::KillThenRerun(k) => {
                let t = self.current_turn();
                let at = [
                    "record.toml".to_string(),
                    "state.toml".to_string(),
                    format!("t{t:04}-report-russia.toml"),
                    format!("t{t:04}-summary.toml"),
                ];
                self.turn(&["turn", "--folder", &folder], Some(&at[*k]))?;
                self.turn(&["turn", "--folder", &folder], None)?;
            }
        }
        Ok(())
    }

    /// The invariants, after every step.
    fn check(&self) -> Result<(), TestCaseError> {
        let game = support::load(&self.game);
        let turn = game.current_turn().unwrap();
        // Deadlines: each after the one before; the current one gives the least notice.
        let mut before = None;
        for t in game.config.first_turn..=turn {
            let d = game.config.deadline_of(t).unwrap();
            if let Some(b) = before {
                prop_assert!(d > b, "the deadline of turn {t} ({d}) is not after {b}");
            }
            before = Some(d);
        }
        let d = game.config.deadline_of(turn).unwrap().with_timezone(&Utc);
        prop_assert!(
            d >= self.announced + game.config.least_notice(),
            "turn {turn} is due {d}, announced {}",
            self.announced
        );
        // A departed player's mail never stands.
        let records = pbem::mail::ingest::load_records(&game).unwrap();
        let departed = |power: &str, from: &str| {
            self.departed
                .get(power)
                .is_some_and(|a| a.iter().any(|a| a.eq_ignore_ascii_case(from)))
        };
        let state = game.load_state(turn).unwrap();
        for o in pbem::engine::inputs::read_orders(&game, &state, turn).unwrap() {
            let Some(p) = o.check.as_ref().and_then(|c| c.power.clone()) else {
                continue;
            };
            let text = fs::read_to_string(game.orders_path(turn, &o.power)).unwrap_or_default();
            let Some(sha) = text
                .lines()
                .find_map(|l| l.strip_prefix("submission "))
                .map(str::trim)
            else {
                continue;
            };
            if let Some(r) = records.get(sha) {
                prop_assert!(
                    !departed(&p, &r.from),
                    "the orders of {p} filed from {}'s message stand after he left",
                    r.from
                );
            }
        }
        // Each message's last answer tells the truth; none other waits to go.
        let outbox: BTreeMap<String, String> = support::outbox(&self.game).into_iter().collect();
        for r in records.values() {
            if r.ack.is_empty() || !outbox.contains_key(&r.ack) {
                continue;
            }
            let stem = r
                .ack
                .trim_end_matches(".eml")
                .trim_end_matches("-accepted")
                .to_string();
            for name in outbox
                .keys()
                .filter(|n| n.starts_with(&stem) && **n != r.ack)
            {
                let ledger = pbem::mail::send::load_ledger(&game, name).unwrap();
                prop_assert!(
                    ledger.is_some_and(|l| !l.withdrawn.is_empty()
                        || l.recipients.iter().any(|x| x.status == "delivered")),
                    "{name} would go after {}, the last answer to the same message",
                    r.ack
                );
            }
            let body = support::body_of(&outbox[&r.ack]);
            let says = match r.status.name() {
                "accepted" => {
                    body.contains("These orders now stand") || body.contains("replaces them")
                }
                "late" => body.contains("they do not stand"),
                "held" => body.contains("are kept for turn"),
                "rejected" => body.contains("These orders do not stand"),
                _ => true,
            };
            prop_assert!(
                says,
                "{} ({}) says otherwise:\n{body}",
                r.ack,
                r.status.name()
            );
        }
        // Audit passes.
        let (code, out, _) = self.run(&["audit"], None);
        prop_assert_eq!(code, 0, "audit:\n{}", out);
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(4),
        max_shrink_iters: 20,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_referee_s_acts_keep_the_game_true(steps in proptest::collection::vec(step(), 4..10)) {
        let mut m = Model::new();
        for s in &steps {
            m.apply(s)?;
            m.check()?;
        }
        // Nothing lost: once the outbox is sent, nothing is left to send.
        let folder = m.sent.to_string_lossy().into_owned();
        let (_, out, _) = m.run(&["send", "--folder", &folder], None);
        m.deliveries(&out)?;
        let (_, dry, _) = m.run(&["send", "--dry-run"], None);
        prop_assert!(!dry.contains("would send"), "{}", dry);
    }
}
