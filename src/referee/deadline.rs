//! What the referee's acts on a turn's deadline and secret share (`extend`, `rollback`, `rekey`):
//! deadlines a referee can trust (issue 13.3), told to every player in a notice (after a new
//! commitment, with the receipts of the orders that still stand); the late submissions a moved
//! deadline covers, judged again; what a rollback or a rekey did. Each act is an act of the turn
//! (`game::acts`), kept in the chain of records.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::game::Game;
use crate::mail::outbox;

/// A submission judged late is judged again when the deadline moves past its arrival: each
/// power's latest late submission (rejected, or held for the next turn) that the new deadline
/// covers, and that no later submission of the power outranks, stands now, as `pbem accept-late`
/// files it (an act of the turn, an answer to the player); each player of a power with several
/// (GITM 6.1) on his own. The earlier late submissions it covers came in time and were replaced,
/// as on-time orders are by later ones (`late::replaced_in_time`): neither late in `status` and
/// the summary, nor held for the next turn. A pbem-dice/v2 turn already closed is left to the referee. `how`: what
/// the referee did, as the player reads it after "the referee" ([`Standing::Covered`]). Each
/// accept-late it files is planned (`late::plan_path`) within the act's own plan: killed midway, the
/// act's rerun finishes it first.
///
/// [`Standing::Covered`]: crate::mail::late::Standing::Covered
pub(super) fn judge_late_again(
    game: &Game,
    turn: u32,
    how: &str,
) -> Result<Vec<crate::mail::late::AcceptedLate>> {
    use crate::mail::ingest::{self, Status};
    // The one this act began before it was killed, finished first as it was begun: its message's
    // record may say accepted already, and it is judged again no more below.
    let mut out: Vec<_> = crate::mail::late::finish_planned(game, turn)?
        .into_iter()
        .collect();
    let Some(deadline) = game.config.deadline_of(turn) else {
        return Ok(out);
    };
    if crate::engine::close::path(game, turn).is_file() {
        return Ok(out);
    }
    let records: Vec<ingest::Received> = ingest::load_records(game)?.into_values().collect();
    let winners = ingest::winners(&records, turn);
    // EiA 19.2.1: a departed player's late mail is not judged again; it never stands.
    let state = game.load_state(turn)?;
    let left = |r: &ingest::Received| {
        crate::game::owners::departed(&game.config, &state, &r.power)
            .iter()
            .any(|a| ingest::normalise(a) == r.from)
    };
    let slots = game.config.powers.iter().flat_map(|pc| {
        crate::engine::command::slots(pc)
            .into_iter()
            .map(|player| crate::engine::command::file_stem(&pc.id, player.as_deref()))
    });
    for slot in slots {
        // The rank `accept-late` and the winners use: arrival, then the ingest's order, then the
        // digest (two messages of one second).
        let rank = |r: &ingest::Received| (r.arrival_time(), r.seq, r.sha256.clone());
        let covered: Vec<&ingest::Received> = records
            .iter()
            .filter(|r| {
                r.slot() == slot
                    && r.judged_at_turn == turn
                    && (r.status == Status::Late
                        || (r.status == Status::Held && r.for_turn == turn + 1))
                    && r.arrival_time() <= deadline
                    && !left(r)
            })
            .collect();
        let Some(late) = covered.iter().max_by_key(|r| rank(r)) else {
            continue;
        };
        let stands = match winners.get(&slot) {
            Some(w) if rank(w) > rank(late) => w,
            _ => *late,
        };
        // The earlier ones came in time too, and the one that stands replaces them: late no
        // more, nor held for the next turn. Their answers go first: the player's last word on
        // the turn is the one about the orders that stand.
        for r in covered.iter().filter(|r| r.sha256 != stands.sha256) {
            crate::mail::late::replaced_in_time(game, turn, r, stands, how)?;
        }
        if stands.sha256 == late.sha256 {
            out.push(crate::mail::late::accept_late(
                game,
                &slot,
                Some(&late.sha256),
                crate::mail::late::Standing::Covered(how),
            )?);
        }
    }
    Ok(out)
}

/// Writes a notice about the current turn to every power, with its deadline and commitment of now;
/// after a new commitment (`renewed`: why it is new), a fresh receipt too (`announce_with`).
pub(super) fn announce(
    game: &Game,
    turn: u32,
    key: &str,
    headline: &str,
    renewed: Option<&str>,
) -> Result<Vec<PathBuf>> {
    announce_with(game, turn, key, headline, &|_| String::new(), renewed, &[])
}

/// [`announce`], with a paragraph for each power after the headline (`said`, by power id; empty:
/// none). After a new commitment (`renewed`: why it is new), every player whose orders still stand
/// gets their receipt under it (`mail::receipt`; issue 31), to the notice's addresses; but not for
/// the orders files of `answered` (by file stem): late orders the act judged again, whose answer,
/// written under the new commitment, is their receipt (the player had none to replace).
pub(super) fn announce_with(
    game: &Game,
    turn: u32,
    key: &str,
    headline: &str,
    said: &dyn Fn(&str) -> String,
    renewed: Option<&str>,
    answered: &[String],
) -> Result<Vec<PathBuf>> {
    let state = game.load_state(turn)?;
    let commitment = crate::dice::to_hex(&game.commitment(turn)?);
    let mut msgs = outbox::notices(game, turn, &commitment, &state, key, headline)?;
    for m in &mut msgs {
        let text = m.power.as_deref().map(said).unwrap_or_default();
        if !text.is_empty() {
            m.text = m.text.replacen("\n\n", &format!("\n\n{text}\n\n"), 1);
        }
    }
    if let Some(why) = renewed {
        let mut on_file = crate::engine::inputs::read_orders(game, &state, turn)?;
        on_file.retain(|o| !answered.contains(&o.stem()));
        // Whoever runs the power in the reopened turn, as `send` will address it then (a controller
        // who sent a dropped power's orders gets their receipt, not the player who takes over later).
        let to = |power: &str| crate::engine::players::recipients(&game.config, &state, power);
        let renewal = crate::mail::receipt::Renewal {
            key,
            why,
            commitment: &commitment,
            date: outbox::game_instant(game, turn.saturating_sub(1).max(game.config.first_turn)),
        };
        let receipts = crate::mail::receipt::renewed(game, turn, &on_file, &to, &renewal)?;
        msgs.extend(receipts);
    }
    outbox::write_all(game, &msgs)?;
    Ok(msgs.iter().map(|m| outbox::path_of(game, m)).collect())
}

/// What `rollback` or `rekey` did.
pub struct Reopened {
    pub turn: u32,
    pub archive: Option<String>,
    pub commitment: String,
    pub deadline: String,
    pub notices: Vec<PathBuf>,
    /// `rollback`: the late submissions the reopened turn's deadline covers, judged again.
    pub judged_again: Vec<crate::mail::late::AcceptedLate>,
}

/// A fresh secret for the unresolved turn `turn`, with its sealing secret (`engine::sealed`), for a
/// `rekey` or a `rollback` that a rerun may finish (`had_seal`: whether the old secret had a seal
/// beside it): the old ones go into `keep` (the seal beside it) once, so that a rerun never moves a
/// new one over them, and are never used again; the new secret is made unless a killed run made it.
/// The new commitment, in hex.
pub(super) fn fresh_secret_once(
    game: &Game,
    turn: u32,
    keep: &std::path::Path,
    had_seal: bool,
) -> Result<String> {
    let secret = game.secret_path(turn);
    if !keep.exists() && secret.is_file() {
        move_into(&secret, keep)?;
    }
    let seal = game.seal_path(turn);
    let seal_kept = keep.with_extension("seal");
    if had_seal && !seal_kept.exists() && seal.is_file() {
        move_into(&seal, &seal_kept)?;
    }
    if !secret.is_file() {
        crate::engine::sealed::fresh_secret(game, turn)?;
    }
    let c = crate::referee::turn::ensure_commitment(game, turn)?;
    Ok(crate::dice::to_hex(&c))
}

/// Moves a file or folder to `to`, making its parent.
pub(super) fn move_into(from: &std::path::Path, to: &std::path::Path) -> Result<()> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::rename(from, to)
        .with_context(|| format!("cannot move {} to {}", from.display(), to.display()))
}
