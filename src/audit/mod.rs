//! Auditing: checking a game's history instead of trusting it. `audit` re-resolves each turn from the
//! previous state and the archived orders and compares every byte; it checks the dice commitment, the
//! seed and the chain of turn records. `verify` (in `verify.rs`) checks one report with nothing but what
//! the player received (`forms.rs` reads the mail, text, HTML or JSON he holds).

pub mod forms;
pub mod verify;

use anyhow::Result;

use crate::dice;
use crate::engine::inputs::{load_record, relative_to};
use crate::game::record::sha256_hex;
use crate::game::Game;
use crate::mail::envelope;
use crate::referee::turn::compute_into;

/// The verdict on one turn.
#[derive(Debug)]
pub struct TurnVerdict {
    pub turn: u32,
    /// Empty when every check passed.
    pub problems: Vec<String>,
    /// How many files and rolls were compared, for the one-line verdict.
    pub files: usize,
    pub rolls: usize,
    /// How many of the rolls were sealed (no report shows them; `engine::sealed`).
    pub sealed: usize,
    /// The digest of the rules the turn was re-resolved under when they are not the game folder's
    /// of now: those its commitment fixed, which a later commitment changed, as the game kept them
    /// (`game::rules_kept`).
    pub kept_rules: Option<String>,
    /// The wording the turn's texts were told in and the ruleset's of now, when its record names an
    /// older one (`Ruleset::texts_wording`): the turn was re-resolved in its own words.
    pub worded_as: Option<(u32, u32)>,
    /// The same of the reports' own lines (`record::REPORTS_WORDING`).
    pub reports_worded_as: Option<(u32, u32)>,
}

impl TurnVerdict {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// How an audit loads the game again to re-resolve a turn: `Game::load`, or in a test, a game whose
/// ruleset is a test's own.
pub type Reload<'a> = &'a dyn Fn(&std::path::Path) -> Result<Game>;

/// Audits every resolved turn, or only `only`.
pub fn audit(game: &Game, only: Option<u32>) -> Result<Vec<TurnVerdict>> {
    audit_with(game, only, &Game::load, &mut |_, _| {})
}

/// [`audit`], calling `progress(done, total)` as turns are audited.
pub fn audit_with_progress(
    game: &Game,
    only: Option<u32>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<TurnVerdict>> {
    audit_with(game, only, &Game::load, progress)
}

/// As [`audit_with_progress`], loading the game again with `reload`.
pub fn audit_with(
    game: &Game,
    only: Option<u32>,
    reload: Reload,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<TurnVerdict>> {
    let current = game.current_turn_or_last()?;
    let turns: Vec<u32> = match only {
        Some(t) => vec![t],
        None => (game.config.first_turn..current).collect(),
    };
    let mut out = Vec::new();
    for (i, t) in turns.iter().enumerate() {
        progress(i, turns.len());
        out.push(audit_turn_with(game, *t, reload)?);
    }
    progress(turns.len(), turns.len());
    // A record missing in the middle breaks the chain: later records are still audited above, and
    // their previous-record digest names the gap.
    Ok(out)
}

/// Audits one resolved turn.
pub fn audit_turn(game: &Game, turn: u32) -> Result<TurnVerdict> {
    audit_turn_with(game, turn, &Game::load)
}

/// As [`audit_turn`], loading the game again with `reload`. A turn whose rules a later commitment
/// changed (`pbem rekey`) is re-resolved under the rules its own commitment fixed, as the game kept
/// them (`game::rules_kept`). A game that did not keep them (its commitments made before pbem kept
/// rules) is re-resolved under the rules of now: when its files differ, the verdict says so first
/// (`scheme::refixed_since`), so that the auditor does not read the change as a forgery.
///
/// A kept part of the turn's rules changed in `rules/` is named first (`rules_kept::tampered`),
/// whether or not the turn is re-resolved under it; the turn is then re-resolved under the rules of
/// now, and the audit goes on to the next turn.
pub fn audit_turn_with(game: &Game, turn: u32, reload: Reload) -> Result<TurnVerdict> {
    let tampered = match crate::game::scheme::load(game, turn)? {
        Some(crate::game::scheme::Fixed {
            rules: Some(rules), ..
        }) => crate::game::rules_kept::tampered(game, &rules),
        _ => Vec::new(),
    };
    if tampered.is_empty() {
        if let Some((restored, rules)) = own_rules(game, turn)? {
            let under_own = |dir: &std::path::Path| -> Result<Game> {
                let g = Game::load_kept(dir, &restored)?;
                crate::game::rules_kept::check_restored(&g, &rules)?;
                Ok(g)
            };
            let mut v = audit_turn_as_resolved(game, turn, &under_own)?;
            v.kept_rules = Some(rules.digest);
            return Ok(v);
        }
    }
    let mut v = audit_turn_as_resolved(game, turn, reload)?;
    if !v.ok() {
        if let Some(why) = crate::game::scheme::refixed_since(game, turn)? {
            v.problems.insert(0, why);
        }
    }
    v.problems.splice(0..0, tampered);
    Ok(v)
}

/// The rules turn `turn`'s commitment fixed, restored from those the game kept, when they are not
/// the game folder's of now and every part of them was kept.
fn own_rules(
    game: &Game,
    turn: u32,
) -> Result<
    Option<(
        crate::game::rules_kept::Restored,
        crate::game::rules_fixed::Rules,
    )>,
> {
    let Some(crate::game::scheme::Fixed {
        rules: Some(rules), ..
    }) = crate::game::scheme::load(game, turn)?
    else {
        return Ok(None);
    };
    if crate::game::rules_fixed::of(game)?
        .as_fixed_by(&rules)
        .digest
        == rules.digest
    {
        return Ok(None);
    }
    Ok(crate::game::rules_kept::restore(game, &rules)?.map(|r| (r, rules)))
}

fn audit_turn_as_resolved(game: &Game, turn: u32, reload: Reload) -> Result<TurnVerdict> {
    let mut v = TurnVerdict {
        turn,
        problems: Vec::new(),
        files: 0,
        rolls: 0,
        sealed: 0,
        kept_rules: None,
        worded_as: None,
        reports_worded_as: None,
    };
    let record_path = game.record_path(turn);
    if !record_path.is_file() {
        v.problems.push(format!(
            "{} is missing: turn {turn} has no record",
            game.shown(&record_path)
        ));
        return Ok(v);
    }
    let record = match load_record(game, turn) {
        Ok(r) => r,
        Err(e) => {
            v.problems.push(format!("the record does not load: {e:#}"));
            return Ok(v);
        }
    };
    let p = &mut v.problems;
    if record.game != game.config.game || record.turn != turn {
        p.push(format!(
            "the record is of game '{}' turn {}, not '{}' turn {turn}",
            record.game, record.turn, game.config.game
        ));
    }
    // The chain: each record holds the SHA-256 of the one before.
    if turn > game.config.first_turn {
        match std::fs::read(game.record_path(turn - 1)) {
            Ok(bytes) if sha256_hex(&bytes) == record.previous_record => {}
            Ok(_) => p.push(format!("the chain is broken: the record of turn {} is not the one turn {turn}'s record was chained to", turn - 1)),
            Err(_) => p.push(format!("the chain is broken: the record of turn {} is missing", turn - 1)),
        }
        if let Ok(prev) = load_record(game, turn - 1) {
            if prev.next_commitment != record.commitment
                && !recommitted(game, turn, &prev.next_commitment, &record.commitment)
            {
                p.push(format!(
                    "the commitment of turn {turn} is not the one announced in turn {}'s reports",
                    turn - 1
                ));
            }
        }
    }
    // The commitment the players were mailed with the turn's announcement: the first turn has no
    // record before it, and its announcement (with each player's copy) is the only witness of the
    // commitment its orders were sent against.
    for (name, announced) in delivered_announcements(game, turn) {
        if announced != record.commitment
            && !recommitted(game, turn, &announced, &record.commitment)
        {
            p.push(format!(
                "the commitment of turn {turn} ({}) is not the one its announcement {name}, delivered to the players, gave ({announced}), and no act of the turn (rekey, rollback) replaced it: the turn was resolved with a secret chosen after it was announced",
                record.commitment
            ));
        }
    }
    // The scheme: the one the turn was committed under (`game::scheme`) is game.toml's.
    match crate::game::scheme::changed_since_resolved(game, turn) {
        Ok(Some(why)) => p.push(why),
        Ok(None) => {}
        Err(e) => p.push(format!("{e:#}")),
    }
    // The dice: the revealed secret must match the commitment.
    let (Some(secret), Some(commitment), Some(next)) = (
        dice::from_hex(&record.secret),
        dice::from_hex(&record.commitment),
        dice::from_hex(&record.next_commitment),
    ) else {
        p.push("the record's secret, commitment or next commitment is not 64 hex digits".into());
        return Ok(v);
    };
    if dice::commitment(&game.config.game, turn, &secret) != commitment {
        p.push(format!(
            "the revealed secret of turn {turn} does not match its commitment {}",
            record.commitment
        ));
    }
    match game.commitment(turn) {
        Ok(c) if c == commitment => {}
        Ok(_) => p.push(format!(
            "{} differs from the commitment in the record",
            game.shown(&game.commitment_path(turn))
        )),
        Err(e) => p.push(format!("{e:#}")),
    }
    // The orders: each archived file must be the one the turn was resolved from.
    let mut on_disk = std::collections::BTreeMap::new();
    for pc in &game.config.powers {
        // A power with several players has a file per player (`engine::command`).
        for player in crate::engine::command::slots(pc) {
            let path = game.player_orders_path(turn, &pc.id, player.as_deref());
            if let Ok(bytes) = std::fs::read(&path) {
                let stem = crate::engine::command::file_stem(&pc.id, player.as_deref());
                on_disk.insert(stem, (game.shown(&path), sha256_hex(&bytes)));
            }
        }
    }
    for (power, digest) in &record.orders {
        match on_disk.get(power) {
            Some((_, d)) if d == digest => {}
            Some((shown, _)) => p.push(format!("{shown} was changed after the turn was resolved (its SHA-256 differs from the record)")),
            None => p.push(format!("the orders of {power} for turn {turn} are missing")),
        }
    }
    for (power, (shown, _)) in &on_disk {
        if !record.orders.contains_key(power) {
            p.push(format!("{shown} was added after the turn was resolved"));
        }
    }
    // The referee's acts on the turn are part of the chain.
    if crate::game::acts::digest(&game.dir, turn) != record.acts {
        p.push(format!(
            "{} is not the one the turn was resolved with (its SHA-256 differs from the record)",
            game.shown(&crate::game::acts::path(&game.dir, turn))
        ));
    }
    // A late submission the referee accepted stands as he accepted it (`pbem accept-late`), unless
    // the player sent orders again after it, which stand over it as any later submission does.
    if let Ok(acts) = crate::game::acts::load(&game.dir, turn) {
        for (power, (digest, message)) in crate::game::acts::accepted_late(&acts) {
            if record.orders.get(&power) != Some(&digest)
                && !sent_again_after(game, turn, &power, &message)
            {
                p.push(format!(
                    "the orders of {power} for turn {turn} are not those the referee accepted late ({} names orders with SHA-256 {digest})",
                    game.shown(&crate::game::acts::path(&game.dir, turn))
                ));
            }
        }
    }
    // Re-resolve with the presentation the turn was resolved with (title, time zone, next deadline):
    // game.toml may change them since without changing the game.
    let replay = match replay_game(game, turn, &record, reload) {
        Ok(g) => g,
        Err(e) => {
            p.push(format!("the game does not load again: {e:#}"));
            return Ok(v);
        }
    };
    let game = &replay;
    let now = game.ruleset.wording();
    if record.wording.texts < now.texts {
        v.worded_as = Some((record.wording.texts, now.texts));
    }
    if record.wording.reports < now.reports {
        v.reports_worded_as = Some((record.wording.reports, now.reports));
    }
    // Re-resolve and compare every byte, each file as it is made (one power's reports in memory).
    let mut files = 0;
    let mut differ = Vec::new();
    // Report mails a record written before issue 39.3 lists by the digest of what they say, whole.
    let mut listed_before = std::collections::BTreeMap::new();
    let (dir, id) = (game.dir.clone(), game.config.game.clone());
    let computed = compute_into(game, turn, &secret, &next, &mut |path, bytes| {
        files += 1;
        let rel = relative_to(&dir, path);
        // `Game::shown`, from what the writing thread may hold.
        let shown = format!("{id}/{rel}");
        // A message in the outbox is compared by what it says, not by its envelope; a report's
        // mail, kept without the bodies its files hold, made whole from them.
        let mail = rel.starts_with("mail/outbox/");
        let digest = if mail {
            crate::mail::outbox::kept_digest(bytes)
        } else {
            sha256_hex(bytes)
        };
        let whole;
        let bytes = match mail && crate::mail::outbox::is_parts(bytes) {
            true => match crate::mail::outbox::assemble(&dir, bytes) {
                Ok(b) => {
                    whole = b;
                    &whole[..]
                }
                Err(e) => {
                    differ.push(format!("{shown} cannot be made again: {e:#}"));
                    return Ok(());
                }
            },
            false => bytes,
        };
        let same = |found: &[u8]| {
            if mail {
                envelope::content(found) == envelope::content(bytes)
            } else {
                found == bytes
            }
        };
        let found = match mail {
            // A report's mail is made whole from the report's files (`outbox::PARTS_FORMAT`).
            true => crate::mail::outbox_store::read_file(path),
            false => std::fs::read(path).map_err(anyhow::Error::from),
        };
        match found {
            Err(_) if !path.exists() => differ.push(format!("{shown} is missing")),
            // A report's mail whose parts file was edited or cut short, or whose report files changed.
            Err(e) => differ.push(format!("{shown} cannot be read: {e:#}")),
            Ok(found) if same(&found) => {}
            Ok(found) => differ.push(format!(
                "{shown} differs from the re-resolved turn: {}",
                first_difference(&found, bytes)
            )),
        }
        let listed = record.outputs.get(&rel);
        if listed != Some(&digest) {
            // A record written before issue 39.3 lists what a report's mail says, whole
            // (`outbox::kept_digest`).
            let before = (mail && listed.is_some()).then(|| envelope::content_digest(bytes));
            match before {
                Some(before) if listed == Some(&before) => {
                    listed_before.insert(rel, before);
                }
                _ => differ.push(format!(
                    "the record's digest of {rel} is not the digest of the re-resolved file"
                )),
            }
        }
        Ok(())
    });
    let products = match computed {
        Ok(x) => x,
        Err(e) => {
            v.problems
                .push(format!("the turn cannot be resolved again: {e:#}"));
            return Ok(v);
        }
    };
    v.rolls = products.events.iter().map(|e| e.rolls.len()).sum();
    v.sealed = crate::engine::sealed::of_events(&products.events).len();
    if products.record.seed != record.seed {
        v.problems.push(format!("the seed S_{turn} recomputed from the secret and the entropy lines differs from the record"));
    }
    v.files += files;
    v.problems.append(&mut differ);
    // Such a record is compared as it was written: with those digests.
    let mut products = products;
    products.record.outputs.append(&mut listed_before);
    let recomputed = crate::game::load::to_toml(&products.record)?;
    let stored = std::fs::read(&record_path)?;
    if stored != recomputed.as_bytes() && v.problems.is_empty() {
        v.problems.push(format!(
            "{} differs from the re-resolved record: {}",
            game.shown(&record_path),
            first_difference(&stored, recomputed.as_bytes())
        ));
    }
    Ok(v)
}

/// The game as turn `turn` was resolved: game.toml of now, with the title, time zone, next
/// deadline, mail size cap, map picture setting, `late_orders`, powers' names and colours, changes
/// dated by a time stamp and password hashes the record keeps.
fn replay_game(
    game: &Game,
    turn: u32,
    record: &crate::game::record::TurnRecord,
    reload: Reload,
) -> Result<Game> {
    let mut g = reload(&game.dir)?;
    dated_as_recorded(&mut g.config, record);
    g.config.checked_hashes = record.password_hashes.clone();
    // The words the turn's texts were told in (a turn resolved by an older pbem, in its own).
    g.config.wording = Some(record.wording);
    if let Some(shown) = &record.shown {
        g.config.title = shown.title.clone();
        g.config.deadline.time_zone = toml::Spanned::new(0..0, shown.time_zone.clone());
        g.config.mail.max_outgoing_bytes = shown
            .max_outgoing_bytes
            .unwrap_or(crate::game::mail_config::DEFAULT_OUTGOING_BYTES);
        // The map picture of the mails as they were made (a record without the key: mailed).
        g.config.mail.map_png = shown.map_png.unwrap_or(true);
        g.config.deadline.late_orders = shown.late_orders.clone().unwrap_or("reject".into());
        // The powers' names and colours as the reports printed them (a record without the names
        // is older than them: game.toml's stand).
        if !shown.names.is_empty() {
            for p in &mut g.config.powers {
                if let Some(name) = shown.names.get(&p.id) {
                    p.name = name.clone();
                }
                p.colour = shown.colours.get(&p.id).cloned();
            }
        }
        if shown.next_deadline.is_empty() {
            g.config.moved_deadlines.remove(&(turn + 1));
        } else {
            g.config
                .moved_deadlines
                .insert(turn + 1, shown.next_deadline.clone());
        }
    }
    Ok(g)
}

/// The changes dated by a time stamp (GITM 6.11) as the turn knew them: each one its record names
/// holds from the turn the record gives it, whatever today's deadlines would map its time stamp to
/// (an extension since may have moved it); one it does not name was not in game.toml when the
/// turn was resolved, and is left out (the turn's reports told what was known then).
fn dated_as_recorded(
    config: &mut crate::game::config::GameConfig,
    record: &crate::game::record::TurnRecord,
) {
    for p in &mut config.powers {
        let power = p.id.clone();
        for c in &mut p.commands {
            let player = c.id.clone();
            c.changes.retain_mut(|ch| {
                let Some(at) = &ch.at else { return true };
                let key = crate::game::config::change_key(&power, &player, at.get_ref());
                match record.dated_changes.get(&key) {
                    Some(&turn) => {
                        ch.turn = turn;
                        true
                    }
                    None => false,
                }
            });
        }
    }
}

/// The commitment each announcement of `turn` delivered to a player gave (`pbem send` wrote its
/// ledger), by the message's name: its copy in the outbox is what went.
fn delivered_announcements(game: &Game, turn: u32) -> Vec<(String, String)> {
    let prefix = format!("t{turn:04}-announcement-");
    let sent = crate::mail::send::sent_dir(game);
    let Ok(messages) = crate::mail::send::outbox_messages(game) else {
        return Vec::new();
    };
    messages
        .iter()
        .filter(|m| m.name.starts_with(&prefix))
        .filter(|m| {
            std::fs::read_to_string(sent.join(format!("{}.toml", m.name.trim_end_matches(".eml"))))
                .is_ok_and(|ledger| ledger.contains("status = \"delivered\""))
        })
        .filter_map(|m| {
            let raw = m.read().ok()?;
            let text: String = crate::audit::forms::texts(&raw)
                .into_iter()
                .map(|(_, t)| t)
                .collect();
            verify::announcement_commitment(&text, turn).map(|c| (m.name.clone(), c))
        })
        .collect()
}

/// Whether the referee's acts on `turn` replaced its commitment `old` by `new` (a rollback or a
/// rekey: the old secret was revealed, so the turn got a fresh one, announced to every player).
fn recommitted(game: &Game, turn: u32, old: &str, new: &str) -> bool {
    crate::game::acts::load(&game.dir, turn).is_ok_and(|a| {
        let mut c = old.to_string();
        for act in &a.acts {
            if act.old_commitment.as_deref() == Some(&c) {
                if let Some(n) = &act.new_commitment {
                    c = n.clone();
                }
            }
        }
        c == new
    })
}

/// Where a file departs from the re-resolved one, for the auditor to see: "line 12, column 48:
/// expected `...the d6 3: the attackers...`, found `...the d6 5: the attackers...`", each excerpt
/// taken around the first character that differs (a long line's first hundred characters may be
/// the same in both), its control characters escaped, so that a changed file cannot drive the
/// auditor's terminal. A file that is not text (a PNG) is told by the byte where it departs.
pub fn first_difference(found: &[u8], expected: &[u8]) -> String {
    let mut at = found
        .iter()
        .zip(expected)
        .position(|(a, b)| a != b)
        .unwrap_or(found.len().min(expected.len()));
    let (Some(found), Some(expected)) = (as_text(found), as_text(expected)) else {
        return format!(
            "byte {at}: the files differ from there ({} bytes expected, {} found)",
            expected.len(),
            found.len()
        );
    };
    // The bytes before `at` are the same in both: a character's start in one is one in the other.
    while !expected.is_char_boundary(at) || !found.is_char_boundary(at) {
        at -= 1;
    }
    let line_start = expected[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = expected[..at].matches('\n').count() + 1;
    let column = expected[line_start..at].chars().count() + 1;
    format!(
        "line {line}, column {column}: expected {}, found {}",
        excerpt(expected, line_start, at),
        excerpt(found, line_start, at)
    )
}

/// `bytes` as text, unless they are not UTF-8 or hold a NUL (a picture).
fn as_text(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes)
        .ok()
        .filter(|t| !t.contains('\0'))
}

/// Up to 30 characters of `text` before `at` (none before `line_start`) and 50 from it, in
/// backquotes, control characters escaped (a line break as `\n`); "the end of the file" at its end.
fn excerpt(text: &str, line_start: usize, at: usize) -> String {
    if at >= text.len() {
        return "the end of the file".to_string();
    }
    let before: Vec<(usize, char)> = text[line_start..at].char_indices().collect();
    let from = before
        .len()
        .checked_sub(30)
        .map_or(line_start, |k| line_start + before[k].0);
    let mut shown = String::new();
    if from > line_start {
        shown.push_str("...");
    }
    let mut after = text[at..].chars();
    for c in text[from..at].chars().chain(after.by_ref().take(50)) {
        if c.is_control() {
            shown.extend(c.escape_debug());
        } else {
            shown.push(c);
        }
    }
    if after.next().is_some() {
        shown.push_str("...");
    }
    format!("`{shown}`")
}

/// Whether the orders file of `slot` for `turn` was filed from a submission that arrived after the
/// message `accepted` (an accept-late act's): the player's later orders stand over those accepted
/// late.
fn sent_again_after(game: &Game, turn: u32, slot: &str, accepted: &str) -> bool {
    let path = game.orders_dir(turn).join(format!("{slot}.txt"));
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let Some(sha) = text.lines().find_map(|l| l.strip_prefix("submission ")) else {
        return false;
    };
    let Ok(records) = crate::mail::ingest::load_records(game) else {
        return false;
    };
    match (records.get(sha.trim()), records.get(accepted)) {
        (Some(now), Some(then)) => {
            (now.arrival_time(), now.seq, &now.sha256)
                > (then.arrival_time(), then.seq, &then.sha256)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::first_difference;

    #[test]
    fn a_difference_past_the_hundredth_character_is_shown_where_it_is() {
        let line = "x".repeat(150);
        let expected = format!("first\n{line} the d6 3: the attackers lose 94 men\n");
        let found = expected.replace("d6 3", "d6 5");
        assert_eq!(
            first_difference(found.as_bytes(), expected.as_bytes()),
            "line 2, column 159: expected `...xxxxxxxxxxxxxxxxxxxxxx the d6 3: the attackers lose 94 men\\n`, \
             found `...xxxxxxxxxxxxxxxxxxxxxx the d6 5: the attackers lose 94 men\\n`"
        );
    }

    /// A binary file that differs (a PNG map) is named by its first byte that differs, never
    /// shown as text; a text line's control characters are shown as escapes.
    #[test]
    fn a_difference_is_told_without_sending_its_bytes_to_the_terminal() {
        assert_eq!(
            first_difference(b"\x89PNG\x1b[2J", b"\x89PNG\x00\x00"),
            "byte 4: the files differ from there (6 bytes expected, 8 found)"
        );
        assert_eq!(
            first_difference(b"a\nb\x1b[2Jc\n", b"a\nbc\n"),
            "line 2, column 2: expected `bc\\n`, found `b\\u{1b}[2Jc\\n`"
        );
        let said = first_difference(b"roll d6 -> 1\x1b[2J\n", b"roll d6 -> 1\n");
        assert_eq!(
            said,
            "line 1, column 13: expected `roll d6 -> 1\\n`, found `roll d6 -> 1\\u{1b}[2J\\n`"
        );
        assert_eq!(
            first_difference(b"\x89PNG\0\x01", b"\x89PNG\0\x02"),
            "byte 5: the files differ from there (6 bytes expected, 6 found)"
        );
        assert_eq!(
            first_difference(b"a\nb\n", b"a\nb\nc\n"),
            "line 3, column 1: expected `c\\n`, found the end of the file"
        );
    }
}
