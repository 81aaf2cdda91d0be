//! `pbem end`: the referee declares the game over after its last resolved turn. The turn that was
//! waiting for orders is never played: its `end` act (`turns/<t>/acts.toml`) says so, every act
//! that would play or change it is refused from then on (`Game::refuse_if_ended`), mail that comes
//! after is kept and answered that the game is over, the sealed rolls of every turn are published
//! (`engine::sealed`: a game without `[dice] unseal_after` keeps them until it is over), and every
//! player gets a notice with them. `pbem rollback` to a turn played reopens the game: the act goes
//! with the turns it undoes.

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::game::acts::{self, Act};
use crate::game::Game;
use crate::mail::outbox::{self, Attached, Kind, Outgoing};

/// What `pbem end` did.
pub struct Ending {
    /// How the game ended ("ended after turn 4").
    pub ended: acts::Ended,
    /// The sealed lists published, by turn.
    pub unsealed: Vec<(u32, PathBuf)>,
    /// The notices in the outbox, one a power.
    pub notices: Vec<PathBuf>,
    /// The messages about the turn not played (its announcement, a reminder, a notice of a new
    /// deadline) withdrawn before they went.
    pub withdrawn: Vec<String>,
}

/// Why the messages about the turn not played were withdrawn (their ledgers say it): a `reopen`
/// before anyone heard of the end sends them after all.
pub const WITHDRAWN: &str = "the game ended before the turn was played";

/// The key of the end notices' file names: `end` (`t0005-notice-france-end.eml`), `end-2` for the
/// turn's second end after a `reopen`.
pub fn key(n: usize) -> String {
    match n {
        0 | 1 => "end".to_string(),
        n => format!("end-{n}"),
    }
}

/// `turns/<t>/end.toml`: what an end decided before it changed anything, written first and removed
/// once its act is written, so that an end killed midway (some sealed lists published, its notices
/// half written) is finished by running it again as it was begun.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Plan {
    /// Which end of the turn this is (`key`): its notices' names.
    n: usize,
    reason: String,
    /// The turns whose sealed lists were published before this end began: the act names the
    /// others, which a `reopen` before any player heard of the end seals again.
    published_before: Vec<u32>,
}

/// Ends the game after its last resolved turn, for `reason`.
pub fn end(game: &Game, reason: &str) -> Result<Ending> {
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    let plan_path = super::underway::end_path(game, turn);
    // An end killed midway is finished as it was begun.
    let plan = super::underway::plan_once(game, &plan_path, || plan(game, turn, reason))?;
    let ended = acts::Ended {
        after: turn.saturating_sub(1),
        played: turn > game.config.first_turn,
        reason: plan.reason.clone(),
    };
    // The sealed rolls of every turn played: their time has come (`engine::sealed::due`). Those
    // no one had published are named in the act.
    let unsealed: Vec<(u32, PathBuf)> = match ended.played {
        true => crate::engine::sealed::unseal(game, None, true)?
            .into_iter()
            .filter_map(|u| Some((u.turn, u.path?)))
            .collect(),
        false => Vec::new(),
    };
    // What still waits to go about the turn not played says its orders are due: it goes no more.
    let mut withdrawn = Vec::new();
    let prefix = format!("t{turn:04}-");
    // A game ended before its first turn: the welcomes, with their passwords, go no more either.
    let kinds: &[&str] = match ended.played {
        true => &["announcement", "reminder", "notice"],
        false => &["announcement", "reminder", "notice", "welcome"],
    };
    let stale: Vec<String> = kinds.iter().map(|k| format!("{prefix}{k}-")).collect();
    let waiting = match outbox::dir(game).is_dir() {
        true => crate::mail::outbox_store::messages(&outbox::dir(game))?,
        false => Default::default(),
    };
    // Those an earlier end of the turn withdrew are not this one's (a run killed after its
    // withdrawals finds them withdrawn already, and names them again).
    let earlier: std::collections::BTreeSet<String> = acts::load(&game.dir, turn)?
        .acts
        .into_iter()
        .filter(|a| a.kind == acts::END)
        .flat_map(|a| a.withdrawn)
        .collect();
    // This end's own notices, which a killed run may have written already, are not stale.
    let own = format!("-{}.eml", key(plan.n));
    for name in waiting.into_keys() {
        if !stale.iter().any(|s| name.starts_with(s.as_str()))
            || earlier.contains(&name)
            || name.ends_with(&own)
        {
            continue;
        }
        let ours = crate::mail::send::withdraw(game, &name, WITHDRAWN)?
            || crate::mail::send::load_ledger(game, &name)?
                .is_some_and(|l| l.withdrawn == WITHDRAWN);
        if ours {
            withdrawn.push(name);
        }
    }
    let messages = notices(game, turn, &ended, &unsealed, &key(plan.n))?;
    outbox::write_all(game, &messages)?;
    // The act last, once (a rerun killed after it finds the game over): a run killed before it
    // ends the game again, with the same notices.
    if game.ended()?.is_none() {
        acts::append(
            game,
            turn,
            Act {
                kind: acts::END.into(),
                rule: "pbem end".into(),
                text: format!(
                    "the referee ended the game {}: {}",
                    ended.when(),
                    ended.reason
                ),
                reason: Some(ended.reason.clone()),
                unsealed: unsealed
                    .iter()
                    .map(|(t, _)| *t)
                    .filter(|t| !plan.published_before.contains(t))
                    .collect(),
                withdrawn: withdrawn.clone(),
                ..Act::default()
            },
        )?;
    }
    super::underway::finished(game, &plan_path)?;
    Ok(Ending {
        notices: messages.iter().map(|m| outbox::path_of(game, m)).collect(),
        ended,
        unsealed,
        withdrawn,
    })
}

/// What an end of the game at `turn` will do, decided before it does anything.
fn plan(game: &Game, turn: u32, reason: &str) -> Result<Plan> {
    super::underway::refuse(game, "the game cannot be ended", "")?;
    if let Some(e) = game.ended()? {
        bail!(
            "the game is already over, ended {} (pbem end: {}). Nothing was changed.",
            e.when(),
            e.reason
        );
    }
    if reason.trim().is_empty() {
        bail!("give the players a reason with --reason (\"the campaign is over\"). Nothing was changed.");
    }
    Ok(Plan {
        n: acts::count(&game.dir, turn, acts::END)? + 1,
        reason: reason.trim().to_string(),
        published_before: (game.config.first_turn..turn)
            .filter(|&t| crate::engine::sealed::path_of(game, t).is_file())
            .collect(),
    })
}

/// The notice of the end to every power, with the sealed lists attached.
fn notices(
    game: &Game,
    turn: u32,
    ended: &acts::Ended,
    unsealed: &[(u32, PathBuf)],
    key: &str,
) -> Result<Vec<Outgoing>> {
    let title = &game.config.title;
    let played = match ended.played {
        true => format!(
            "after turn {} ({}): turn {turn} will not be played",
            ended.after,
            game.config.date_of(ended.after)
        ),
        false => "before its first turn was played".to_string(),
    };
    let mut text = format!(
        "The game {title} is over: the referee ended it {played}.\n\nWhy: {}\n\n\
         Orders sent from now on are not played: pbem keeps them and answers each so.\n",
        ended.reason
    );
    let mut attachments = Vec::new();
    if !unsealed.is_empty() {
        let turns: Vec<String> = unsealed.iter().map(|(t, _)| t.to_string()).collect();
        text += &format!(
            "\nThe rolls no report showed (sealed rolls) of turn(s) {} are published now, attached: check each against your report of its turn with `pbem verify <report> --sealed <file>`, or with the verify page your welcome mail brought (its box for the sealed list).\n",
            turns.join(", ")
        );
        for (t, path) in unsealed {
            attachments.push(Attached {
                name: format!("{}-unsealed-turn{t}.txt", game.config.game),
                content_type: "text/plain; charset=utf-8".into(),
                bytes: std::fs::read(path)?,
                inline: None,
            });
        }
    }
    if ended.played {
        text += "\nEvery turn's report carries its dice secret: any player can still check every roll he saw with `pbem verify`.\n";
    }
    text += "\nThank you for playing.\n";
    Ok(game
        .config
        .powers
        .iter()
        .map(|p| Outgoing {
            kind: Kind::Notice,
            player: None,
            turn,
            power: Some(p.id.clone()),
            key: key.to_string(),
            to: p.addresses_at(turn),
            subject: format!("[{}] the game is over", game.config.game),
            text: text.clone(),
            html: None,
            attachments: attachments.clone(),
            in_reply_to: None,
            date: outbox::game_instant(game, ended.after.max(game.config.first_turn)),
        })
        .collect())
}
