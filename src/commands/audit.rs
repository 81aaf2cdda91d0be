//! `pbem audit`: re-resolve resolved turns and compare every byte; check the dice and the chain.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;

use super::exit;

/// Audit a game: for each resolved turn, check the dice commitment against the revealed secret,
/// recompute the seed, re-resolve the turn from the previous state and the archived orders, compare
/// state, log, reports and record byte for byte, and check the chain of turn records.
///
/// For each turn it checks: the chain (each record holds the SHA-256 of the one before); the
/// commitment against the one the previous turn's reports and the turn's delivered announcement gave
/// (unless a rekey or rollback replaced it), and the revealed secret against it; the dice scheme and
/// beacon against those fixed with the commitment (turns/<t>/scheme.toml); each orders file and the
/// referee's acts against the digests the record keeps; and each part of the turn's rules kept in
/// rules/ against its SHA-256, its name, whether or not the turn is re-resolved under it.
///
/// It then re-resolves the turn under the rules its own commitment fixed (game.toml's rules
/// settings, map.toml, tables.toml, GITM's tactical maps): those of the folder when they are the
/// same, else the parts kept in rules/ (a house rule agreed later, `pbem rekey`, does not change what
/// an earlier turn resolved to; the turn's line then says "under the rules its commitment fixed").
/// A game whose commitments were made before pbem kept rules is re-resolved under the rules of now,
/// and a turn that then differs says so first. The turn is resolved with the presentation its record
/// keeps (title, time zone, next deadline, the powers' names and colours, mail settings), and its
/// seed, every roll, its state, log, reports, mails and record must come out byte for byte as
/// written. What it cannot check: that each player received his report as written; each player checks
/// that with `pbem verify` (docs/DICE.md).
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem audit games/my-game",
    "pbem audit games/my-game --turn 3"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// Audit only this turn.
    #[arg(long)]
    pub turn: Option<u32>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let mut progress = crate::progress::reporter("turns audited", 3);
    let verdicts = crate::audit::audit_with_progress(&game, args.turn, &mut |done, total| {
        progress(done, total, "")
    })?;
    if verdicts.is_empty() {
        crate::say!("no turn has been resolved yet: nothing to audit");
    }
    let mut bad = 0;
    for v in &verdicts {
        if v.ok() {
            let sealed = if v.sealed > 0 {
                format!(", {} of them sealed", v.sealed)
            } else {
                String::new()
            };
            let under = match &v.kept_rules {
                Some(digest) => format!(
                    "; under the rules its commitment fixed, digest {digest}, kept in {}/",
                    crate::game::rules_kept::DIR
                ),
                None => String::new(),
            };
            let mut words = match v.worded_as {
                Some((then, now)) => format!(
                    "; told in the words of the pbem that resolved it, wording {then} (this pbem's is {now}: {})",
                    game.ruleset.wording_change(then)
                ),
                None => String::new(),
            };
            if let Some((then, now)) = v.reports_worded_as {
                words.push_str(&format!(
                    "; its reports in the words of the pbem that made them, report wording {then} (this pbem's is {now}: {})",
                    crate::game::record::reports_wording_change(then)
                ));
            }
            crate::say!(
                "turn {}: ok ({} files, {} rolls re-derived and identical{sealed}{under}{words})",
                v.turn,
                v.files,
                v.rolls
            );
        } else {
            bad += 1;
            crate::say!("turn {}: MISMATCH: {}", v.turn, v.problems[0]);
            for p in v.problems.iter().skip(1).take(4) {
                crate::say!("  also: {p}");
            }
            if v.problems.len() > 5 {
                crate::say!("  and {} more difference(s)", v.problems.len() - 5);
            }
        }
    }
    Ok(if bad > 0 {
        ExitCode::from(exit::MISMATCH)
    } else {
        ExitCode::SUCCESS
    })
}
