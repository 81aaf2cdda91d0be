//! What the benchmarks share: the synthetic games at three sizes, each piece of work measured, and
//! its floor, the same input read and parsed and the same output written without adjudication.
//!
//! | work | floor |
//! |---|---|
//! | adjudicate: load the game, its state and orders, `Ruleset::resolve` in memory | load the game, its state and its orders |
//! | resolve a turn: load the game, resolve, render, write everything (`pbem resolve --force`) | load the game, its state and its orders (decoded, authenticated, parsed, checked), write every file the turn writes (atomically), the record last |
//! | audit a turn (`audit::audit_turn`) | load the game, state, orders and record, read every output and hash it |
//! | render every report (`report::render` for each power) | for each power, the events it sees joined into one text |
//! | ingest a mailbox of K messages (`mail::ingest::ingest`: store, authenticate, file, acknowledge) | read the mailbox, parse every message, store each one atomically |
//! | draw d6 | the ChaCha20 stream's `next_u32` alone |
//! | open a labelled stream and draw one d6 | the label's SHA-256 `K_L` alone |

// Each benchmark target uses part of this module.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pbem::dice::{self, Bytes32};
use pbem::engine::event::Event;
use pbem::engine::inputs::{self, OrdersFileStatus};
use pbem::game::fsio::write_atomic;
use pbem::game::state::State;
use pbem::game::Game;
use pbem::referee::turn::{self, ResolveOptions};
use pbem::report::{self, DiceHeader, ReportInput};
use pbem::synth::{self, Spec};

/// Units in the games of the three sizes; each has one combat per ten units.
pub const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

/// The spec of the game of `units` units.
pub fn spec(units: usize) -> Spec {
    Spec::sized(units)
}

/// The folder of the game of `units` units under cargo's scratch folder for benchmarks.
pub fn game_dir(units: usize) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bench-games")
        .join(format!("units-{units}"))
}

/// Generates the game of `units` units afresh and resolves its turn 1 once, so that every output
/// exists; returns its folder.
pub fn fresh_game(units: usize) -> PathBuf {
    let dir = game_dir(units);
    let _ = std::fs::remove_dir_all(&dir);
    synth::write_game(&spec(units), &dir).expect("the synthetic game is written");
    resolve(&dir);
    dir
}

/// `pbem resolve <dir> --turn 1 --force` without printing: load, resolve, render, write.
pub fn resolve(dir: &Path) -> turn::TurnOutcome {
    let game = Game::load(dir).expect("the game loads");
    turn::resolve(
        &game,
        &ResolveOptions {
            turn: Some(1),
            force: true,
            ..ResolveOptions::default()
        },
    )
    .expect("the turn resolves")
}

/// Every file resolving turn 1 writes, with its bytes, the record last: what the floor writes.
pub fn outputs(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let game = Game::load(dir).expect("the game loads");
    let record = inputs::load_record(&game, 1).expect("turn 1 is resolved");
    let mut out: Vec<(PathBuf, Vec<u8>)> = record
        .outputs
        .keys()
        .map(|rel| {
            let path = dir.join(rel);
            let bytes = std::fs::read(&path).expect("an output of turn 1");
            (path, bytes)
        })
        .collect();
    let path = game.record_path(1);
    out.push((path.clone(), std::fs::read(&path).expect("the record")));
    out
}

/// The inputs of a turn read and parsed: the game, the state and every orders file, decoded,
/// authenticated, parsed and checked.
pub fn load_inputs(dir: &Path) -> (Game, State, Vec<OrdersFileStatus>) {
    let game = Game::load(dir).expect("the game loads");
    let state = game.load_state(1).expect("the state loads");
    let orders = inputs::read_orders(&game, &state, 1).expect("the orders are read");
    (game, state, orders)
}

/// The adjudication alone: read and parse the inputs, then `Ruleset::resolve` in memory, as
/// `referee::turn::compute` calls it (no reports, no mail, nothing written); the events it made.
pub fn adjudicate(dir: &Path) -> usize {
    let (game, state, orders) = load_inputs(dir);
    let secret = dice::from_hex(
        &std::fs::read_to_string(game.secret_path(1)).expect("the secret of turn 1"),
    )
    .expect("a secret");
    let mut contributions = Vec::new();
    let mut accepted = Vec::new();
    for o in &orders {
        let Some(check) = &o.check else { continue };
        let Some(power) = &check.power else { continue };
        if let Some(text) = &check.entropy {
            contributions.push((power.clone(), dice::entropy(text)));
        }
        let bytes = std::fs::read(game.orders_path(1, &o.power)).expect("the orders");
        accepted.push(pbem::rules::PowerOrders {
            power: power.clone(),
            source: pbem::diag::Source::new(&o.path, pbem::orders::decode(&bytes).unwrap()),
        });
    }
    let seed = dice::turn_seed(&game.config.game, 1, &secret, &contributions);
    let mut dice_box = pbem::engine::dice_box::DiceBox::new(seed);
    let resolution = game
        .ruleset
        .resolve(&game, &state, &accepted, &mut dice_box)
        .expect("the turn resolves");
    resolution.events.len()
}

/// The floor of resolving: read and parse the inputs, write every output as resolving does.
pub fn resolve_floor(dir: &Path, outputs: &[(PathBuf, Vec<u8>)]) -> usize {
    let (_game, state, orders) = load_inputs(dir);
    for (path, bytes) in outputs {
        write_atomic(path, bytes).expect("the output is written");
    }
    pbem::rules::eia::state::EiaState::of(&state).corps.len() + orders.len()
}

/// `pbem audit <dir> --turn 1`, which must find nothing wrong.
pub fn audit(dir: &Path) -> usize {
    let game = Game::load(dir).expect("the game loads");
    let v = pbem::audit::audit_turn(&game, 1).expect("the audit runs");
    assert!(v.ok(), "{:?}", v.problems);
    v.files
}

/// The floor of auditing: read and parse the inputs and the record, read and hash every output.
pub fn audit_floor(dir: &Path) -> usize {
    let (game, _state, _orders) = load_inputs(dir);
    let record = inputs::load_record(&game, 1).expect("the record loads");
    let mut same = 0;
    for (rel, digest) in &record.outputs {
        let bytes = std::fs::read(dir.join(rel)).expect("an output of turn 1");
        same += usize::from(&pbem::game::record::sha256_hex(&bytes) == digest);
    }
    same
}

/// What the reports of turn 1 are rendered from, held in memory.
pub struct RenderInput {
    pub game: Game,
    pub before: State,
    pub after: State,
    pub events: std::sync::Arc<Vec<Event>>,
    pub orders: Vec<OrdersFileStatus>,
    pub header: DiceHeader,
    pub next: Bytes32,
}

impl RenderInput {
    /// Resolves turn 1 of the game in `dir` in memory and keeps what the reports need.
    pub fn new(dir: &Path) -> RenderInput {
        let game = Game::load(dir).expect("the game loads");
        let record = inputs::load_record(&game, 1).expect("turn 1 is resolved");
        let secret = dice::from_hex(&record.secret).expect("a secret");
        let next = dice::from_hex(&record.next_commitment).expect("a commitment");
        let products = turn::compute(&game, 1, &secret, &next).expect("the turn resolves");
        let before = game.load_state(1).expect("the state loads");
        let after = game.load_state(2).expect("the next state loads");
        let contributions: Vec<(String, Bytes32)> = record
            .entropy
            .iter()
            .map(|(p, e)| (p.clone(), dice::from_hex(e).expect("an entropy")))
            .collect();
        let header = DiceHeader::new(
            &game.config.game,
            1,
            &dice::from_hex(&record.commitment).expect("a commitment"),
            &secret,
            &contributions,
            &dice::from_hex(&record.seed).expect("a seed"),
        );
        RenderInput {
            game,
            before,
            after,
            events: std::sync::Arc::new(products.events),
            orders: products.orders,
            header,
            next,
        }
    }

    pub fn input<'a>(&'a self, power: &'a str, shared: &'a report::TurnSight) -> ReportInput<'a> {
        ReportInput {
            power,
            turn: 1,
            state_before: &self.before,
            state_after: &self.after,
            events: &self.events,
            orders: self.orders.iter().find(|o| o.power == power),
            header: &self.header,
            next_commitment: &self.next,
            shared,
            command: None,
        }
    }

    fn powers(&self) -> Vec<String> {
        self.game.config.power_ids().map(str::to_string).collect()
    }

    /// Every report of the turn, in every form (`report::render` for each power); bytes rendered.
    pub fn render_all(&self) -> usize {
        let mut bytes = 0;
        // Once per turn, as `referee::turn` does.
        let shared = report::TurnSight::new(&self.game, &self.after);
        for p in self.powers() {
            let r =
                report::render(&self.game, &self.input(&p, &shared)).expect("the report renders");
            bytes += r.text.len()
                + r.html.map_or(0, |h| h.len())
                + r.attachments.iter().map(|a| a.content.len()).sum::<usize>();
        }
        bytes
    }

    /// The phone map of each power as its report mail shows it (`report::phone_map`, `png::render`),
    /// the power's view built beforehand: the CPU seconds of each and its PNG's width, height and bytes.
    pub fn phone_maps(&self) -> Vec<(f64, (u32, u32), usize)> {
        let shared = report::TurnSight::new(&self.game, &self.after);
        self.powers()
            .iter()
            .map(|p| {
                let view = report::view::PowerView::build(&self.game, &self.input(p, &shared));
                let t = thread_cpu_seconds();
                let svg = report::phone_map(&self.game, &shared, &view);
                let png = report::png::render(&svg).expect("the phone map draws");
                let secs = thread_cpu_seconds() - t;
                (secs, report::png::size(&png).unwrap_or_default(), png.len())
            })
            .collect()
    }

    /// The floor of rendering: for each power, the texts of the events it sees, joined.
    pub fn render_floor(&self) -> usize {
        let mut bytes = 0;
        for p in self.powers() {
            let mut text = String::new();
            for e in self.events.iter().filter(|e| e.visible_to.contains(&p)) {
                text.push_str(&e.text);
                text.push('\n');
            }
            bytes += text.len();
        }
        bytes
    }
}

/// The CPU time this thread has used, in seconds: what a piece of work costs whatever else the
/// machine runs (its wall time grows with the load).
pub fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through a pointer to a live one.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Labels as the combats write them, `n` of them.
pub fn labels(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("combat/area=A{}-{}/round={}", i % 211, i / 211, 1 + i % 3))
        .collect()
}

/// The seed the dice benchmarks draw from.
pub fn dice_seed() -> Bytes32 {
    dice::tuple_hash(&[b"pbem benchmarks"])
}

/// Draws `n` d6 from one labelled stream; the sum of the faces.
pub fn d6(n: usize) -> u64 {
    let mut r = dice::Roller::new(&dice_seed(), "combat/area=Ulm/round=1");
    (0..n).map(|_| u64::from(r.die(6))).sum()
}

/// The floor of d6: `n` raw `next_u32` of the same ChaCha20 stream.
pub fn d6_floor(n: usize) -> u64 {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let key = dice::event_key(&dice_seed(), "combat/area=Ulm/round=1");
    let mut rng = rand_chacha::ChaCha20Rng::from_seed(key);
    (0..n).map(|_| u64::from(rng.next_u32() % 6)).sum()
}

/// Opens the stream of each label and draws one d6 from it.
pub fn labelled(labels: &[String]) -> u64 {
    let seed = dice_seed();
    labels
        .iter()
        .map(|l| u64::from(dice::Roller::new(&seed, l).die(6)))
        .sum()
}

/// The floor of a labelled stream: the label's key `K_L` (one SHA-256) alone.
pub fn labelled_floor(labels: &[String]) -> u64 {
    let seed = dice_seed();
    labels
        .iter()
        .map(|l| u64::from(dice::event_key(&seed, l)[0]))
        .sum()
}

/// Median of some durations, in seconds.
pub fn median(mut secs: Vec<f64>) -> f64 {
    secs.sort_by(f64::total_cmp);
    let n = secs.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        secs[n / 2]
    } else {
        (secs[n / 2 - 1] + secs[n / 2]) / 2.0
    }
}

/// The number of reports and other files of the turn, by kind, for the table's notes.
pub fn output_sizes(outputs: &[(PathBuf, Vec<u8>)]) -> BTreeMap<String, (usize, usize)> {
    let mut by: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (p, b) in outputs {
        let ext = p
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.file_name().unwrap().to_string_lossy().into_owned());
        let e = by.entry(ext).or_default();
        e.0 += 1;
        e.1 += b.len();
    }
    by
}

/// Mailbox sizes of the ingest benchmark, in messages; the game has 1,000 units and 24 powers.
pub const MESSAGES: [usize; 3] = [10, 100, 1_000];

/// A game for ingest and its mailbox of `messages` messages: the game's files (to write a fresh copy
/// for each run, since ingesting a mailbox twice changes nothing) and the mailbox's path.
pub fn mail_game(messages: usize) -> (synth::Files, PathBuf) {
    let mut spec = spec(1_000);
    spec.messages = messages;
    let files = synth::generate(&spec).expect("the synthetic game");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-games");
    std::fs::create_dir_all(&dir).expect("the scratch folder");
    let mbox = dir.join(format!("mail-{messages}.mbox"));
    std::fs::write(&mbox, synth::mbox(&spec, &files)).expect("the mailbox is written");
    (files, mbox)
}

/// A fresh copy of a game to ingest into.
pub fn fresh_copy(files: &synth::Files, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bench-games")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    synth::write_files(files, &dir).expect("the game is written");
    dir
}

/// `pbem ingest <dir> <mbox>`: the messages it judged.
pub fn ingest(dir: &Path, mbox: &Path) -> usize {
    let game = Game::load(dir).expect("the game loads");
    let summary =
        pbem::mail::ingest::ingest(&game, &[mbox.to_path_buf()]).expect("the mailbox is ingested");
    assert!(summary.problems.is_empty(), "{:?}", summary.problems);
    summary.new.len()
}

/// The floor of ingest: read the mailbox, parse every message, store them all in one file
/// atomically (as ingest's raw archive), then write a file per message (as ingest's answers), each
/// atomically, synced together.
pub fn ingest_floor(dir: &Path, mbox: &Path) -> usize {
    let file = std::fs::File::open(mbox).expect("the mailbox");
    let mut n = 0;
    let mut archive = Vec::new();
    let mut answers = pbem::game::fsio::Batch::new();
    for m in pbem::mail::parse::read_mbox(std::io::BufReader::new(file)) {
        let m = m.expect("a message");
        let parsed = pbem::mail::parse::parse(&m.bytes);
        let name = pbem::game::record::sha256_hex(&m.bytes);
        archive.extend_from_slice(&m.bytes);
        answers
            .put(
                &dir.join("mail/outbox").join(format!("{name}.eml")),
                &m.bytes,
            )
            .expect("written");
        n += usize::from(parsed.is_some());
    }
    write_atomic(&dir.join("mail/inbox/batch.raw"), &archive).expect("stored");
    answers.commit().expect("synced");
    n
}

/// What `benches/python_mailbox.py` does with Python's `mailbox` and `email`, done by pbem's reader:
/// split the mbox, parse every message, take its sender, its subject and its orders text
/// (`mail::extract`, the body as ingest reads it). The number of messages with a text.
pub fn parse_mailbox(mbox: &Path) -> usize {
    let file = std::fs::File::open(mbox).expect("the mailbox");
    let mut n = 0;
    for m in pbem::mail::parse::read_mbox(std::io::BufReader::new(file)) {
        let m = m.expect("a message");
        let Some(msg) = pbem::mail::parse::parse(&m.bytes) else {
            continue;
        };
        let from = msg.sender.address().unwrap_or_default().len();
        let text = match pbem::mail::extract::extract(&msg, u64::MAX) {
            pbem::mail::extract::Extracted::Orders(found) => found.text.len(),
            _ => 0,
        };
        std::hint::black_box((from, msg.subject.len(), text));
        n += usize::from(text > 0);
    }
    n
}

/// The floor of [`parse_mailbox`]: split the mbox into messages, parse none.
pub fn split_mailbox(mbox: &Path) -> usize {
    let file = std::fs::File::open(mbox).expect("the mailbox");
    let mut n = 0;
    for m in pbem::mail::parse::read_mbox(std::io::BufReader::new(file)) {
        std::hint::black_box(m.expect("a message").bytes.len());
        n += 1;
    }
    n
}

/// `python3 benches/python_mailbox.py <mbox> <runs>`: the median seconds it prints, if it runs.
pub fn python_mailbox(mbox: &Path, runs: usize) -> Option<(f64, String)> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/python_mailbox.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(mbox)
        .arg(runs.to_string())
        .output()
        .ok()?;
    let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
    // "python 3.11.7 mailbox+email: 1000 messages in 0.6406 s (median of 5), ..."
    let secs = line.split(" in ").nth(1)?.split(' ').next()?.parse().ok()?;
    let version = line.split(' ').nth(1)?.to_string();
    Some((secs, version))
}

/// The game of `units` units, generated and resolved once per process (see [`fresh_game`]).
pub fn game(units: usize) -> PathBuf {
    static GAMES: std::sync::Mutex<BTreeMap<usize, PathBuf>> =
        std::sync::Mutex::new(BTreeMap::new());
    let mut games = GAMES.lock().expect("the games");
    games
        .entry(units)
        .or_insert_with(|| fresh_game(units))
        .clone()
}

/// The sizes the divan benchmarks run: `PBEM_BENCH_UNITS=1000,10000` runs fewer.
pub fn sizes() -> Vec<usize> {
    match std::env::var("PBEM_BENCH_UNITS") {
        Ok(s) => s
            .split(',')
            .map(|n| {
                n.trim()
                    .parse()
                    .expect("PBEM_BENCH_UNITS lists numbers of units")
            })
            .collect(),
        Err(_) => SIZES.to_vec(),
    }
}
