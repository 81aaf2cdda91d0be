//! Resolving one turn of a game folder, atomically: load, read the orders, derive the dice, let the
//! ruleset adjudicate, render the reports, and write everything with the turn record last. The record's
//! presence is what makes a turn resolved, so a crash at any point leaves the previous turn intact and
//! a rerun writes the same bytes.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use serde::Serialize;

use crate::dice::{self, Bytes32};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::engine::inputs::{load_record, read_orders_once, relative, OrdersFileStatus};
use crate::game::config::DiceScheme;
use crate::game::fsio::{write_atomic, Batch, GameLock};
use crate::game::record::{sha256_hex, TurnRecord, FORMAT};
use crate::game::Game;
use crate::mail::outbox;
use crate::report::{self, DiceHeader};
use crate::rule::Rule;
use crate::rules::PowerOrders;

/// Issue 34.7: a report mail over `[mail] max_outgoing_bytes` leaves out what it may (`mail::fit`).
const MAIL_SIZE: Rule = Rule::new(
    "pbem",
    "mail/size",
    "a mail is at most [mail] max_outgoing_bytes",
);

/// What the referee asked for.
#[derive(Debug, Clone, Default)]
pub struct ResolveOptions {
    /// The turn to resolve; the current one if absent.
    pub turn: Option<u32>,
    /// Resolve again a turn that is already resolved.
    pub force: bool,
    /// Announce the next turn with the schedule's deadline whatever the clock says (the demo,
    /// whose turns no player is told of): its files are then the same at any moment.
    pub by_schedule: bool,
}

/// What resolving a turn did.
#[derive(Debug)]
pub struct TurnOutcome {
    pub turn: u32,
    pub date: String,
    pub orders: Vec<OrdersFileStatus>,
    pub events: Vec<Event>,
    /// Paths of the reports written, by power.
    pub reports: BTreeMap<String, std::path::PathBuf>,
    pub record: std::path::PathBuf,
    pub next_commitment: String,
}

impl TurnOutcome {
    /// Number of events of a kind ("combat" for the battles).
    pub fn count(&self, kind: &str) -> usize {
        self.events.iter().filter(|e| e.kind == kind).count()
    }
}

/// The log file of a turn.
#[derive(Serialize)]
struct Log<'a> {
    game: &'a str,
    turn: u32,
    #[serde(rename = "event")]
    events: &'a [Event],
}

/// The log's first lines, before its events.
#[derive(Serialize)]
struct LogHead<'a> {
    game: &'a str,
    turn: u32,
}

/// Events of the log, as the tables `[[event]]` that follow its first lines.
#[derive(Serialize, Clone, Copy)]
struct LogEvents<'a> {
    #[serde(rename = "event")]
    events: &'a [Event],
}

impl Log<'_> {
    /// The events in `n` parts (fewer when there are fewer events) whose TOML [`Log::joined`]
    /// makes the log's: each part is serialized on whichever core is free (the log of a
    /// 100,000-unit turn is 100 MB). `None` when there are too few events to cut (no events is the
    /// table `event = []`).
    fn parts(&self, n: usize) -> Option<Vec<LogEvents<'_>>> {
        if self.events.len() < 2 || n < 2 {
            return None;
        }
        let size = self.events.len().div_ceil(n);
        Some(
            self.events
                .chunks(size)
                .map(|events| LogEvents { events })
                .collect(),
        )
    }

    /// The log's TOML from its first lines and the TOML of its [`Log::parts`]: a blank line before
    /// each table, as the log made whole.
    fn joined(&self, parts: &[String]) -> Result<String> {
        let head = crate::game::load::to_toml(&LogHead {
            game: self.game,
            turn: self.turn,
        })?;
        let size = head.len() + parts.iter().map(|p| p.len() + 1).sum::<usize>();
        let mut text = String::with_capacity(size);
        text.push_str(&head);
        for part in parts {
            text.push('\n');
            text.push_str(part);
        }
        Ok(text)
    }
}

/// A piece of the turn's last files, made side by side with the others once the reports are made
/// (`parallel::map_in_order`): the referee's summary, the next state, a part of the log.
#[derive(Clone, Copy)]
enum Closing<'a> {
    Summary,
    State,
    Log(LogEvents<'a>),
}

/// The secret `R_t`: from `secret/<t>.key`, or revealed in the turn's record when re-resolving.
fn secret_of(game: &Game, turn: u32) -> Result<Bytes32> {
    let path = game.secret_path(turn);
    if let Ok(text) = std::fs::read_to_string(&path) {
        return dice::from_hex(&text)
            .with_context(|| format!("{} does not hold 64 hex digits", game.shown(&path)));
    }
    if game.is_resolved(turn) {
        let rec = load_record(game, turn)?;
        return dice::from_hex(&rec.secret)
            .context("the turn record's secret is not 64 hex digits");
    }
    bail!(
        "the secret of turn {turn} is lost ({} is missing): pbem will not resolve with a new, unpublished seed",
        game.shown(&path)
    )
}

/// Makes the secret and commitment of turn `t` if they do not exist yet; keeps them if they do, so a
/// rerun publishes the same commitment. The dice scheme and beacon are fixed with the commitment
/// (`game::scheme`).
pub fn ensure_commitment(game: &Game, turn: u32) -> Result<Bytes32> {
    let path = game.secret_path(turn);
    let secret = match std::fs::read_to_string(&path) {
        Ok(text) => dice::from_hex(&text)
            .with_context(|| format!("{} does not hold 64 hex digits", game.shown(&path)))?,
        Err(_) => crate::engine::sealed::fresh_secret(game, turn)?,
    };
    let c = dice::commitment(&game.config.game, turn, &secret);
    write_atomic(
        &game.commitment_path(turn),
        format!("{}\n", dice::to_hex(&c)).as_bytes(),
    )?;
    crate::game::scheme::fix(game, turn, &dice::to_hex(&c))?;
    Ok(c)
}

/// Resolves a turn of the game folder. See the module doc for the guarantees.
pub fn resolve(game: &Game, opts: &ResolveOptions) -> Result<TurnOutcome> {
    let _lock = GameLock::acquire(&game.dir)?;
    let current = game.current_turn()?;
    let turn = opts.turn.unwrap_or(current);
    if turn >= crate::game::state::MAX_TURN {
        bail!(
            "turn {turn} is beyond the turns pbem counts (a game has turns 0 to {})",
            crate::game::state::MAX_TURN - 1
        );
    }
    if turn > current {
        bail!("turn {turn} cannot be resolved yet: the game is at turn {current}");
    }
    if game.is_resolved(turn) && !opts.force {
        bail!("turn {turn} is already resolved; add --force to resolve it again (it gives the same files)");
    }
    crate::game::scheme::check(game, turn)?;
    super::underway::refuse(game, &format!("turn {turn} cannot be resolved"), "")?;
    if !game.is_resolved(turn) {
        game.refuse_if_ended(&format!("turn {turn} cannot be resolved"))?;
    }
    // Turn t+1's record holds the digest of turn t's: resolving t again under it would break the chain
    // of records whenever anything of turn t changed. Only the last resolved turn is resolved again.
    if game.is_resolved(turn) && game.is_resolved(turn + 1) {
        bail!(
            "turn {turn} is not the last resolved turn (turn {} is resolved after it): resolving it again would break the chain of records. To play it again, undo the turns after it with `pbem rollback {} --to-turn {turn} --reason ...`. Nothing was changed.",
            turn + 1,
            game.dir.display()
        );
    }
    let secret = secret_of(game, turn)?;
    // The next turn is announced now: its deadline lies after this turn's and gives the least
    // notice from now (`GameConfig::deadline_announced_at`). When that is not the schedule's slot
    // the game would project, the turn is resolved with it (its record keeps it, `audit` replays it).
    let reloaded;
    let announced = if opts.by_schedule {
        None
    } else {
        announced_deadline(game, turn)?
    };
    let game = match announced {
        Some(d) => {
            let mut g = Game::load(&game.dir)?;
            g.config.announced_deadlines.insert(turn + 1, d);
            // A change dated by a time stamp that no record bound yet takes its turn from the
            // deadlines as this turn's record leaves them (GITM 6.11); the record binds it.
            g.config.map_change_times();
            reloaded = g;
            &reloaded
        }
        None => game,
    };
    // pbem-dice/v2: the orders are closed (and the closing list mailed) before anything is resolved.
    if game.config.dice.scheme == DiceScheme::V2 {
        crate::referee::close::close(game, turn)?;
    }
    // The next turn's commitment, published in this turn's reports.
    let next_commitment = ensure_commitment(game, turn + 1)?;
    // Each file goes to a temporary file as soon as it is made, so that the turn holds one power's
    // reports in memory at a time, not all of them; the batch then syncs them together and puts them
    // in place (`fsio::Batch`), and the record, written last, still makes the turn resolved.
    let earlier = earlier_outputs(game, turn);
    let mut batch = Batch::new();
    let mut mail = Vec::new();
    let outbox_dir = outbox::dir(game);
    let products = compute_into(game, turn, &secret, &next_commitment, &mut |path, bytes| {
        if path.parent() == Some(outbox_dir.as_path()) {
            mail.extend(path.file_name().map(|n| n.to_string_lossy().into_owned()));
        }
        batch.put(path, bytes)
    })?;
    // The turn's mail goes after what was written before it (`outbox_store::note`).
    outbox::note_written(game, &mail)?;
    batch.commit()?;
    let record_path = game.record_path(turn);
    write_atomic(
        &record_path,
        crate::game::load::to_toml(&products.record)?.as_bytes(),
    )?;
    remove_stale(game, &earlier, &products.record);
    let Products {
        orders,
        events,
        reports,
        ..
    } = products;
    Ok(TurnOutcome {
        turn,
        date: game.config.date_of(turn),
        orders,
        events,
        reports,
        record: record_path,
        next_commitment: dice::to_hex(&next_commitment),
    })
}

/// The deadline turn `turn + 1` is announced with when `turn` is resolved now, local
/// `YYYY-MM-DDTHH:MM`, when it is not the one the game projects already (the schedule's slot after
/// this turn's deadline): a turn resolved so late that the slot would give less than the least
/// notice. A turn resolved again keeps the deadline its record announced.
fn announced_deadline(game: &Game, turn: u32) -> Result<Option<String>> {
    if game.is_resolved(turn) {
        return Ok(None);
    }
    let now = crate::clock::now()?;
    let (Some(projected), Some(announced)) = (
        game.config.deadline_of(turn + 1),
        game.config.deadline_announced_at(turn + 1, now),
    ) else {
        return Ok(None);
    };
    Ok((announced != projected).then(|| {
        announced
            .naive_local()
            .format(crate::engine::due::LOCAL)
            .to_string()
    }))
}

/// Everything resolving a turn produces.
pub struct Products {
    pub orders: Vec<OrdersFileStatus>,
    pub events: Vec<Event>,
    /// Files to write (path, text), in the order they are made; the record comes after them. Empty
    /// from [`compute_into`], which hands each file to its sink instead.
    pub outputs: Vec<(std::path::PathBuf, String)>,
    /// Report paths by power.
    pub reports: BTreeMap<String, std::path::PathBuf>,
    /// The turn record, with the digests of `outputs`.
    pub record: TurnRecord,
}

/// Resolves turn `turn` in memory from its state, its orders, the secret and the next commitment,
/// with every file in `outputs`. Reads the game folder, writes nothing.
pub fn compute(
    game: &Game,
    turn: u32,
    secret: &Bytes32,
    next_commitment: &Bytes32,
) -> Result<Products> {
    let mut outputs = Vec::new();
    let mut products = compute_into(game, turn, secret, next_commitment, &mut |path, bytes| {
        let text = String::from_utf8(bytes.to_vec()).context("an output is not UTF-8 text")?;
        outputs.push((path.to_path_buf(), text));
        Ok(())
    })?;
    products.outputs = outputs;
    Ok(products)
}

/// What [`compute_into`] hands its sink: each file, in order, as soon as it is made.
pub type Sink<'s> = dyn FnMut(&std::path::Path, &[u8]) -> Result<()> + Send + 's;

/// As [`compute`], handing each file to `sink` as soon as it is made rather than keeping it (and
/// its digest to the record): `resolve` writes it, `audit` compares it. The sink runs on a thread of
/// its own while this one makes the next file (at most two wait between them).
/// The files come in a fixed order: for each power its reports and their mail, the summary, the
/// next state, the log (the log and the summary name the mails cut to size), the summary's mail and
/// the announcements. If making a file fails, the files made before
/// it have gone to the sink: `resolve` then leaves what a crash would leave.
pub fn compute_into(
    game: &Game,
    turn: u32,
    secret: &Bytes32,
    next_commitment: &Bytes32,
    sink: &mut Sink<'_>,
) -> Result<Products> {
    std::thread::scope(|scope| {
        let (files, received) = std::sync::mpsc::sync_channel::<(String, PathBuf, Made)>(1);
        let writer = scope.spawn(move || -> Result<BTreeMap<String, String>> {
            let mut digests = BTreeMap::new();
            for (rel, path, Made { bytes, digest }) in received {
                sink(&path, &bytes)?;
                digests.insert(rel, digest);
            }
            Ok(digests)
        });
        let made = produce(game, turn, secret, next_commitment, &mut |path, made| {
            files
                .send((relative(game, &path), path, made))
                .map_err(|_| anyhow::anyhow!("the files of the turn could not all be written"))
        });
        drop(files);
        let digests = writer
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("writing the files of the turn failed")));
        let mut products = match (made, digests) {
            (Err(e), Ok(_)) | (_, Err(e)) => return Err(e),
            (Ok(p), Ok(d)) => (p, d),
        };
        products.0.record.outputs = products.1;
        Ok(products.0)
    })
}

/// A file of the turn as [`produce`] makes it: its bytes and their digest for the record, taken by
/// the thread that made it (a thread of the reports, of the turn's last files or of the mail), so
/// that the thread that writes the files only writes them.
struct Made {
    bytes: Vec<u8>,
    digest: String,
}

impl Made {
    /// `bytes` with their digest.
    fn bytes(bytes: Vec<u8>) -> Made {
        let (bytes, digest) = hashed(bytes);
        Made { bytes, digest }
    }
}

/// `bytes` and their SHA-256.
fn hashed(bytes: Vec<u8>) -> (Vec<u8>, String) {
    let digest = sha256_hex(&bytes);
    (bytes, digest)
}

/// The message rendered, and the digest the record lists of it (`outbox::kept_digest`: of what it
/// says, its envelope being the one of the moment it is sent, `mail::envelope`).
fn rendered(
    m: &outbox::Outgoing,
    config: &crate::game::config::GameConfig,
) -> Result<(Vec<u8>, String)> {
    let bytes = m.render_for(config)?;
    let digest = outbox::kept_digest(&bytes);
    Ok((bytes, digest))
}

/// Makes the turn's files one by one for `put`; the record comes back without their digests.
fn produce(
    game: &Game,
    turn: u32,
    secret: &Bytes32,
    next_commitment: &Bytes32,
    put: &mut dyn FnMut(PathBuf, Made) -> Result<()>,
) -> Result<Products> {
    let state = game.load_state(turn)?;
    if state.turn != turn {
        bail!(
            "{} says turn {}, not {turn}",
            game.shown(&game.state_path(turn)),
            state.turn
        );
    }

    // The dice: the secret must match the commitment published before the orders were due.
    let published = game.commitment(turn)?;
    if dice::commitment(&game.config.game, turn, secret) != published {
        bail!(
            "the secret of turn {turn} does not match its published commitment {}: it was lost or edited; pbem will not resolve with another seed",
            dice::to_hex(&published)
        );
    }
    let orders = read_orders_once(game, &state, turn)?;
    let mut contributions = Vec::new();
    let mut accepted = Vec::new();
    let mut orders_digests = BTreeMap::new();
    // The files of the players of a power with several, merged below (GITM 6).
    let mut commands: BTreeMap<&str, Vec<(&OrdersFileStatus, String)>> = BTreeMap::new();
    for o in &orders {
        let (Some(check), Some(bytes)) = (&o.check, &o.bytes) else {
            continue;
        };
        orders_digests.insert(o.stem(), sha256_hex(bytes));
        let Some(power) = &check.power else { continue };
        if let Some(text) = &check.entropy {
            contributions.push((o.stem(), dice::entropy(text)));
        }
        let text = crate::orders::decode(bytes).unwrap_or_default();
        if o.player.is_some() {
            commands.entry(power.as_str()).or_default().push((o, text));
            continue;
        }
        accepted.push(PowerOrders {
            power: power.clone(),
            source: crate::diag::Source::new(&o.path, text),
        });
    }
    let mut set_aside = Vec::new();
    for (power, files) in &commands {
        let players: Vec<crate::engine::command::PlayerOrders> = files
            .iter()
            .filter_map(|(o, text)| {
                Some(crate::engine::command::PlayerOrders {
                    player: o.player.as_deref()?,
                    check: o.check.as_ref()?,
                    text,
                    lines: &o.lines,
                })
            })
            .collect();
        let (text, notes) = crate::engine::command::merge(game, &state, power, &players);
        set_aside.extend(notes.into_iter().map(|n| (power.to_string(), n)));
        let path = game.shown(&game.orders_path(turn, power));
        accepted.push(PowerOrders {
            power: power.to_string(),
            source: crate::diag::Source::new(path, text),
        });
    }
    // The ruleset reads the powers' orders in game.toml order, whatever form each came in.
    accepted.sort_by_key(|a| game.config.powers.iter().position(|p| p.id == a.power));
    // pbem-dice/v2: the public beacon's round after the deadline, when the game draws one.
    let beacon = match game.config.dice.beacon {
        None => (Vec::new(), "none".to_string()),
        Some(_) if game.config.dice.scheme == DiceScheme::V1 => {
            bail!("a beacon (`[dice] beacon`) needs `scheme = \"pbem-dice/v2\"` in game.toml")
        }
        Some(_) => crate::dice::beacon::of_turn(game, turn)?,
    };
    // pbem-dice/v2: the seed is made of the closing list, which the orders filed must still match.
    let closed = match game.config.dice.scheme {
        DiceScheme::V1 => None,
        DiceScheme::V2 => Some(crate::engine::close::closed_digest(game, turn)?),
    };
    let seed = match &closed {
        None => dice::turn_seed(&game.config.game, turn, secret, &contributions),
        Some((_, x)) => crate::dice::v2::turn_seed(&game.config.game, turn, secret, x, &beacon.0),
    };
    let seal = crate::engine::sealed::seal_of(game, turn, secret)?;
    let mut dice_box = DiceBox::new(seed).with_seal(seal);
    let mut resolution = game
        .ruleset
        .resolve(game, &state, &accepted, &mut dice_box)?;

    let header = match &closed {
        None => DiceHeader::new(
            &game.config.game,
            turn,
            &published,
            secret,
            &contributions,
            &seed,
        ),
        Some((file, _)) => DiceHeader::v2(&published, secret, file, &beacon.1, &seed),
    }
    .with_bound_texts()
    .with_rules(crate::game::scheme::rules_digest(game, turn, &dice::to_hex(&published)).as_deref())
    .with_sealed(&resolution.events, seal.as_ref())?;
    if let Some((file, _)) = &closed {
        // The record keeps the entropy that made the seed: v2's, from the closing list.
        contributions = file
            .powers
            .iter()
            .filter_map(|p| Some((p.id.clone(), dice::from_hex(&p.entropy)?)))
            .collect();
    }

    // GITM 6: the orders a higher-ranked player of the power overrode, told to that power.
    for (power, note) in set_aside.iter().rev() {
        let e = Event::new(
            crate::engine::command::PRECEDENCE,
            "orders-set-aside",
            note.clone(),
        )
        .seen_by([power.as_str()]);
        resolution.events.insert(0, e);
    }
    let mut next_state = resolution.next;
    next_state.turn = turn + 1;
    crate::engine::players::advance(
        game,
        &state,
        turn,
        &orders,
        &mut next_state,
        &mut resolution.events,
        &mut dice_box,
    )?;
    // The turn's dice are all drawn: the box's index of labels goes before the reports begin.
    drop(dice_box);
    let threads = crate::parallel::threads();
    let shared = report::TurnSight::new(game, &next_state);
    // What the adjudication freed goes back to the system now, not beside the first reports.
    crate::memory::release_freed();
    // The events are shared by the reports' views while they are made (each lists those it sees
    // without copying them), and the turn's again after.
    let events = std::sync::Arc::new(std::mem::take(&mut resolution.events));
    let sheet = ReportSheet {
        game,
        turn,
        state: &state,
        next_state: &next_state,
        events: &events,
        header: &header,
        next_commitment,
        shared: &shared,
    };
    let mut jobs = Vec::new();
    for p in &game.config.powers {
        if !crate::engine::command::reports_per_player(game, p) {
            // A power with several players reported as one: the orders of its highest-ranked
            // player who sent any.
            let orders = orders
                .iter()
                .filter(|o| o.power == p.id)
                .find(|o| o.check.is_some() || o.player.is_none());
            jobs.push(ReportJob {
                power: p,
                orders,
                command: None,
                to: crate::engine::players::recipients(&game.config, &state, &p.id),
            });
            continue;
        }
        // Each player of the power gets the report of his own command, at his own address.
        for c in &p.commands {
            let at = c.at(turn);
            let sight = |states: &[&crate::game::state::State]| {
                crate::engine::command::command_sight(game, states, &p.id, &at.scope)
            };
            let command = report::CommandSight {
                player: c.id.clone(),
                rank: c.rank.clone(),
                after: sight(&[&next_state]),
                during: sight(&[&state, &next_state]),
                scope: at.scope,
            };
            let orders = orders
                .iter()
                .find(|o| o.power == p.id && o.player.as_deref() == Some(&c.id));
            jobs.push(ReportJob {
                power: p,
                orders,
                command: Some(command),
                to: vec![at.address.clone()],
            });
        }
    }
    // The reports are made side by side and written in this order (`parallel`).
    let mut reports = BTreeMap::new();
    let mut cuts = Vec::new();
    crate::parallel::map_in_order(
        &jobs,
        threads,
        |job| sheet.report(job),
        |made| {
            for (path, file) in made.files {
                put(path, file)?;
            }
            reports.insert(made.stem, made.text);
            cuts.extend(made.cut);
            Ok(())
        },
    )?;
    drop(jobs);
    // What only the reports read goes before the summary, whose objects then take its place.
    drop(shared);
    // No view holds the events now: they are the turn's alone again (moved, not copied).
    resolution.events = std::sync::Arc::try_unwrap(events).unwrap_or_else(|e| (*e).clone());
    // Issue 34.7: each report mail cut to size is an event of the log (and of the summary), for the
    // referee; no power sees it.
    resolution.events.extend(cuts.iter().map(|(file, cut)| {
        Event::new(
            MAIL_SIZE,
            "mail-cut",
            format!("{file} cut to size: {}", cut.describe()),
        )
    }));
    // The next state, the log and the summary are made side by side, the largest first, and
    // written in this order.
    let log = Log {
        game: &game.config.game,
        turn,
        events: &resolution.events,
    };
    // The log in parts when there are cores to share it (else whole, below).
    let mut closing = vec![Closing::Summary, Closing::State];
    if threads > 1 {
        closing.extend(
            log.parts(2 * threads)
                .into_iter()
                .flatten()
                .map(Closing::Log),
        );
    }
    let summary_input = report::SummaryInput {
        turn,
        orders: &orders,
        events: &resolution.events,
        header: &header,
        state_before: &state,
    };
    // Each written as soon as it comes (the summary first, its mail made from it), the log once
    // its parts are all in.
    let mut mails = Vec::new();
    let mut log_parts: Vec<String> = Vec::new();
    crate::parallel::map_in_order(
        &closing,
        threads,
        |piece| {
            let text = match piece {
                // The referee's summary: every order, decision and combat, without fog of war.
                Closing::Summary => report::summary(game, &summary_input)?,
                Closing::State => crate::game::load::to_toml(&next_state)
                    .context("cannot write the next state")?,
                Closing::Log(events) => crate::game::load::to_toml(events)?,
            };
            // A whole file is hashed here, on a core of its own, not by the thread that writes.
            let digest = match piece {
                Closing::Log(_) => String::new(),
                _ => sha256_hex(text.as_bytes()),
            };
            Ok((*piece, text, digest))
        },
        |(piece, text, digest)| {
            let ready = |text: String| Made {
                bytes: text.into_bytes(),
                digest,
            };
            match piece {
                Closing::Summary => {
                    mails.push(report::summary_mail(game, turn, &text));
                    put(game.turn_dir(turn).join("summary.txt"), ready(text))
                }
                Closing::State => put(game.state_path(turn + 1), ready(text)),
                Closing::Log(_) => {
                    log_parts.push(text);
                    Ok(())
                }
            }
        },
    )?;
    let log_text = match log_parts.is_empty() {
        true => crate::game::load::to_toml(&log)?,
        false => log.joined(&log_parts)?,
    };
    drop(log_parts);
    // Hashed on this thread while the writer writes what came before.
    put(game.log_path(turn), Made::bytes(log_text.into_bytes()))?;
    // The commitment of the next turn is announced with the reports of this one.
    mails.extend(outbox::announcements(
        game,
        turn + 1,
        &dice::to_hex(next_commitment),
        &next_state,
    )?);
    // Rendered side by side (a turn of 1,000 powers announces the next to each).
    crate::parallel::map_in_order(
        &mails,
        threads,
        |m| {
            let (bytes, digest) = rendered(m, &game.config)?;
            Ok((outbox::path_of(game, m), Made { bytes, digest }))
        },
        |(path, made)| put(path, made),
    )?;
    let record = TurnRecord {
        format: FORMAT.into(),
        game: game.config.game.clone(),
        turn,
        ruleset: game.ruleset.id().into(),
        commitment: dice::to_hex(&published),
        secret: dice::to_hex(secret),
        seed: dice::to_hex(&seed),
        next_commitment: dice::to_hex(next_commitment),
        next_rules: crate::game::scheme::rules_digest(
            game,
            turn + 1,
            &dice::to_hex(next_commitment),
        )
        .unwrap_or_default(),
        wording: game.config.wording.unwrap_or(game.ruleset.wording()),
        previous_record: previous_record_digest(game, turn)?,
        entropy: contributions
            .iter()
            .map(|(p, e)| (p.clone(), dice::to_hex(e)))
            .collect(),
        orders: orders_digests,
        outputs: BTreeMap::new(),
        acts: crate::game::acts::digest(&game.dir, turn),
        sealed: header.sealed.clone(),
        shown: Some(crate::game::record::Shown {
            title: game.config.title.clone(),
            time_zone: game.config.deadline.time_zone.get_ref().clone(),
            next_deadline: game
                .config
                .deadline_of(turn + 1)
                .map(|d| d.naive_local().format("%Y-%m-%dT%H:%M").to_string())
                .unwrap_or_default(),
            max_outgoing_bytes: Some(game.config.mail.max_outgoing_bytes)
                .filter(|&cap| cap != crate::game::mail_config::DEFAULT_OUTGOING_BYTES),
            map_png: Some(game.config.mail.map_png).filter(|&png| !png),
            late_orders: Some(game.config.deadline.late_orders.clone()).filter(|l| l != "reject"),
            names: game
                .config
                .powers
                .iter()
                .map(|p| (p.id.clone(), p.name.clone()))
                .collect(),
            colours: game
                .config
                .powers
                .iter()
                .filter_map(|p| Some((p.id.clone(), p.colour.clone()?)))
                .collect(),
        }),
        dated_changes: game.config.dated_change_turns(),
        password_hashes: orders
            .iter()
            .filter_map(|o| Some((o.stem(), o.checked_hash.clone()?)))
            .collect(),
    };
    Ok(Products {
        orders,
        events: resolution.events,
        outputs: Vec::new(),
        reports,
        record,
    })
}

/// What every report of a turn is made of, for [`ReportSheet::report`].
struct ReportSheet<'a> {
    game: &'a Game,
    turn: u32,
    state: &'a crate::game::state::State,
    next_state: &'a crate::game::state::State,
    events: &'a report::seen_events::TurnEvents,
    header: &'a DiceHeader,
    next_commitment: &'a Bytes32,
    shared: &'a report::TurnSight,
}

/// The report of one power, or of one player of a power with several ([`ReportSheet::report`]).
struct ReportJob<'a> {
    power: &'a crate::game::config::PowerConfig,
    orders: Option<&'a OrdersFileStatus>,
    command: Option<report::CommandSight>,
    /// The addresses its mail goes to.
    to: Vec<String>,
}

/// A report made: its files in the order they are written, the mail last, ready to write.
struct MadeReport {
    /// The power's id, or `power.player` for one player's report (`engine::command::file_stem`).
    stem: String,
    /// The text report's path.
    text: PathBuf,
    files: Vec<(PathBuf, Made)>,
    /// Its mail's file name and how it was cut to size, when it was.
    cut: Option<(String, crate::mail::fit::Cut)>,
}

impl ReportSheet<'_> {
    /// Makes the report of `job` in every form, and its mail, rendered: the work of one power,
    /// which may run beside another's.
    fn report(&self, job: &ReportJob) -> Result<MadeReport> {
        let (game, turn, p, command) = (self.game, self.turn, job.power, job.command.as_ref());
        let rendered = report::render(
            game,
            &report::ReportInput {
                power: &p.id,
                turn,
                state_before: self.state,
                state_after: self.next_state,
                events: self.events,
                orders: job.orders,
                header: self.header,
                next_commitment: self.next_commitment,
                shared: self.shared,
                command,
            },
        )?;
        let stem = crate::engine::command::file_stem(&p.id, command.map(|c| c.player.as_str()));
        let path = game.reports_dir(turn).join(format!("{stem}.txt"));
        // Each form is held once: the mail is rendered from them, then they go to their files
        // (a report of a power that sees 10,000 units is 100 MB in its forms and mail).
        let mut files = Vec::new();
        let mut html_source = None;
        if let Some(html) = rendered.html {
            let html_path = game.reports_dir(turn).join(format!("{stem}.html"));
            let (bytes, digest) = hashed(html.into_bytes());
            if let (Some(file_map), Some(mail_map)) =
                (rendered.html_map.clone(), rendered.mail_map.clone())
            {
                html_source = Some(outbox::HtmlSource {
                    file: relative(game, &html_path),
                    size: bytes.len(),
                    sha256: digest.clone(),
                    file_map,
                    mail_map,
                });
            }
            files.push((html_path, Made { bytes, digest }));
        }
        let png = game
            .config
            .mail
            .map_png
            .then(|| crate::report::png::render(&rendered.phone_map))
            .flatten();
        let mut attachments = Vec::new();
        let mut attached_files = Vec::new();
        if let Some(png) = png {
            attached_files.push(game.reports_dir(turn).join(format!("{stem}.png")));
            attachments.push(outbox::Attached {
                name: format!("{}-turn{turn}-{stem}.png", game.config.game),
                content_type: "image/png".to_string(),
                bytes: png,
                inline: Some(crate::report::MAP_CID.to_string()),
            });
        }
        for f in rendered.attachments {
            attached_files.push(
                game.reports_dir(turn)
                    .join(format!("{stem}.{}", f.extension)),
            );
            attachments.push(outbox::Attached {
                name: format!("{}-turn{turn}-{stem}.{}", game.config.game, f.extension),
                content_type: f.content_type.to_string(),
                bytes: f.content.into_bytes(),
                inline: None,
            });
        }
        let mail_map = rendered.mail_map.clone();
        let whom = match command {
            Some(c) => format!("{} ({})", p.name, c.player),
            None => p.name.clone(),
        };
        let mut mail = outbox::Outgoing {
            kind: outbox::Kind::Report,
            player: command.map(|c| c.player.clone()),
            turn,
            power: Some(p.id.clone()),
            key: command.map_or(String::new(), |c| c.player.clone()),
            to: job.to.clone(),
            subject: format!(
                "[{}] turn {turn} ({}): report for {whom}",
                game.config.game,
                game.config.date_of(turn),
            ),
            text: rendered.text,
            html: rendered.mail_html,
            attachments,
            in_reply_to: None,
            date: outbox::game_instant(game, turn),
        };
        // Issue 34.7: a mail over `[mail] max_outgoing_bytes` goes cut to size (`mail::fit`).
        let cap = usize::try_from(game.config.mail.max_outgoing_bytes).unwrap_or(usize::MAX);
        let attached = format!("{}-turn{turn}-{stem}", game.config.game);
        let files_stem = relative(game, &game.reports_dir(turn).join(&stem));
        let names = crate::mail::fit::Names {
            attached: &attached,
            files: &files_stem,
        };
        // Issue 39.3: the outbox keeps the message without the bodies the report's files hold
        // (`outbox::PARTS_FORMAT`), made whole when it is sent: each byte written once. The text
        // is its file's while no note of a cut opens it.
        // Each file hashed once, for its line in the outbox file and for the record.
        let digests = mail
            .attachments
            .iter()
            .zip(&attached_files)
            .map(|(a, f)| (relative(game, f), sha256_hex(&a.bytes)))
            .chain([(relative(game, &path), sha256_hex(mail.text.as_bytes()))])
            .collect();
        let sources = outbox::Sources {
            text: Some(relative(game, &path)),
            html: html_source,
            attachments: mail
                .attachments
                .iter()
                .zip(&attached_files)
                .map(|(a, f)| (a.name.clone(), relative(game, f)))
                .collect(),
            digests,
        };
        let (kept, cut) =
            crate::mail::fit::fit(&mut mail, mail_map, cap, &names, &mut |m, up_to| {
                let whole_text = !m.text.starts_with(crate::mail::fit::NOTE_TITLE);
                if whole_text {
                    m.kept_with_sources(&game.config, &sources, up_to)
                } else {
                    // A cut mail's text and HTML carry its note.
                    let text = outbox::Sources {
                        text: None,
                        html: None,
                        ..sources.clone()
                    };
                    m.kept_with_sources(&game.config, &text, up_to)
                }
            })?;
        let eml_path = outbox::path_of(game, &mail);
        let cut = cut.map(|c| (mail.file_name(), c));
        let eml = (
            eml_path,
            Made {
                bytes: kept.file,
                digest: kept.digest,
            },
        );
        let outbox::Outgoing {
            text, attachments, ..
        } = mail;
        let mut digests = sources.digests;
        let mut ready = |file: &PathBuf, bytes: Vec<u8>| match digests.remove(&relative(game, file))
        {
            Some(digest) => Made { bytes, digest },
            None => Made::bytes(bytes),
        };
        for (a, file) in attachments.into_iter().zip(attached_files) {
            let made = ready(&file, a.bytes);
            files.push((file, made));
        }
        let made = ready(&path, text.into_bytes());
        files.push((path.clone(), made));
        files.push(eml);
        Ok(MadeReport {
            stem,
            text: path,
            files,
            cut,
        })
    }
}

/// The files an earlier resolution of `turn` wrote, from its record (none when it is not resolved).
fn earlier_outputs(game: &Game, turn: u32) -> Vec<String> {
    if !game.is_resolved(turn) {
        return Vec::new();
    }
    load_record(game, turn)
        .map(|r| r.outputs.into_keys().collect())
        .unwrap_or_default()
}

/// Removes the files an earlier resolution of the turn wrote and this one did not (the PNG maps
/// after `map_png = false`, the mail of a power no longer in the game): left behind, a report would
/// not match the turn's record, and a message would wait in the outbox that `pbem send` never sends
/// (the record does not hold it). Only files of the turn's own folder and of the outbox are
/// touched; the record is already written, so a crash here leaves a resolved turn.
fn remove_stale(game: &Game, earlier: &[String], record: &TurnRecord) {
    let turn_dir = relative(game, &game.turn_dir(record.turn));
    for rel in earlier {
        let safe = !rel.split('/').any(|c| c == ".." || c.is_empty())
            && (rel.starts_with(&format!("{turn_dir}/")) || rel.starts_with("mail/outbox/"));
        if safe && !record.outputs.contains_key(rel) {
            let _ = std::fs::remove_file(game.dir.join(rel));
        }
    }
}

fn previous_record_digest(game: &Game, turn: u32) -> Result<String> {
    if turn <= game.config.first_turn {
        return Ok(String::new());
    }
    let path = game.record_path(turn - 1);
    let bytes = std::fs::read(&path)
        .with_context(|| format!("cannot read the previous record {}", game.shown(&path)))?;
    Ok(sha256_hex(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decide::DecidedBy;
    use crate::engine::event::{Die, Roll};
    use crate::rule::Rule;

    const RULE: Rule = Rule::new("EiA", "7.5", "combat");

    /// Events of every shape the log holds: bare, at an area, seen by powers, decided, with rolls.
    fn events(n: usize) -> Vec<Event> {
        (0..n)
            .map(|i| {
                let e = Event::new(RULE, "combat", format!("event {i} \"quoted\""));
                match i % 4 {
                    0 => e,
                    1 => e.at("ulm").seen_by(["austria", "france"]),
                    2 => e.decided("france", DecidedBy::Sop),
                    _ => e
                        .roll(Roll {
                            label: format!("combat/round={i}"),
                            dice: vec![Die { sides: 6, face: 4 }, Die { sides: 6, face: 1 }],
                            sealed: i % 8 == 7,
                        })
                        .decided("austria", DecidedBy::Roll),
                }
            })
            .collect()
    }

    #[test]
    fn the_log_made_in_parts_has_the_bytes_of_the_log_made_whole() {
        for n in [2, 3, 4, 5, 8, 13] {
            for cut in [2, 3, 4, 16] {
                let events = events(n);
                let log = Log {
                    game: "ulm",
                    turn: 3,
                    events: &events,
                };
                let parts: Vec<String> = log
                    .parts(cut)
                    .expect("two events or more are cut")
                    .iter()
                    .map(|p| crate::game::load::to_toml(p).unwrap())
                    .collect();
                assert!(parts.len() > 1 && parts.len() <= cut, "{n} events");
                assert_eq!(
                    log.joined(&parts).unwrap(),
                    crate::game::load::to_toml(&log).unwrap(),
                    "{n} events in {cut} parts"
                );
            }
        }
    }

    #[test]
    fn a_log_of_fewer_than_two_events_is_made_whole() {
        for n in [0, 1] {
            let events = events(n);
            let log = Log {
                game: "ulm",
                turn: 3,
                events: &events,
            };
            assert!(log.parts(4).is_none(), "{n} events");
        }
    }
}
