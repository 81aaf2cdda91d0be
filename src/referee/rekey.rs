//! `pbem rekey`: the current turn gets a fresh secret and commitment, announced to every player. A
//! rekey killed midway is finished by running it again, as it was begun.

use anyhow::{bail, Result};

use crate::game::acts::{self, Act};
use crate::game::rules_fixed::Rules;
use crate::game::Game;

use super::deadline::{announce, fresh_secret_once, Reopened};

/// `archive/rekey-<k>/rekey.toml`: what a rekey reads before it moves anything, written first and
/// removed once its notices are written, so that a rekey killed midway (its old secret moved, its
/// new one made and committed to, its act or its notices not yet written) is finished by running it
/// again as it was begun: one act, one new secret, its notices once. Until then no turn is resolved
/// or closed (`referee::underway`): its new commitment has been announced to nobody.
const UNDERWAY: &str = super::underway::REKEY;

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Underway {
    turn: u32,
    reason: String,
    /// The commitment of the turn the players were mailed.
    old_commitment: String,
    /// Whether the old secret had a seal beside it.
    had_seal: bool,
    /// The rules fixed with the old commitment: the notice names what the new one fixes otherwise.
    old_rules: Option<Rules>,
}

impl Underway {
    /// The rekey under way, with its archive (`archive/rekey-<k>`), if one was killed.
    fn find(game: &Game) -> Result<Option<(String, Underway)>> {
        super::underway::read(game, "rekey", UNDERWAY)
    }

    /// A new rekey of `turn`, checked, read and written down before anything moves.
    fn begin(game: &Game, turn: u32, reason: &str) -> Result<(String, Underway)> {
        // pbem-dice/v2: after the close the orders, the entropy and the beacon's round are fixed
        // and known to the referee; a secret drawn now could be drawn to choose the dice.
        let closed = crate::engine::close::path(game, turn);
        if closed.is_file() {
            bail!(
                "turn {turn} is closed ({} was mailed to every player): its orders and entropy are fixed, and a secret drawn now, knowing them (and the beacon), could be chosen to steer the dice. Resolve it with the secret it was committed to; to play it again with a fresh one, `pbem rollback` it after. Nothing was changed.",
                game.printed(&closed)
            );
        }
        // With a beacon, once its round is out, closed or not: a secret drawn now, knowing the
        // beacon and the orders, could be chosen to steer the dice.
        crate::dice::beacon::refuse_once_out(game, turn, "a fresh secret")?;
        let rel = super::underway::next_archive(game, "rekey");
        let plan = Underway {
            turn,
            reason: reason.to_string(),
            old_commitment: crate::dice::to_hex(&game.commitment(turn)?),
            had_seal: game.seal_path(turn).is_file(),
            old_rules: crate::game::scheme::load(game, turn)?.and_then(|f| f.rules),
        };
        super::underway::write(game, &rel, UNDERWAY, &plan)?;
        Ok((rel, plan))
    }

    /// The rekey in `rel` is finished.
    fn done(game: &Game, rel: &str) -> Result<()> {
        super::underway::done(game, rel, UNDERWAY)
    }
}

/// `pbem rekey`: the current turn gets a fresh secret and commitment, announced to every player (a
/// demo's secrets are public; a secret that leaked is never used).
pub fn rekey(game: &Game, reason: &str) -> Result<Reopened> {
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    super::underway::refuse(game, &format!("turn {turn} cannot be re-keyed"), "rekey")?;
    game.refuse_if_ended(&format!("turn {turn} cannot be re-keyed"))?;
    let (rel, plan) = match Underway::find(game)? {
        // A rekey killed midway: finished as it was begun.
        Some((rel, plan)) => {
            if plan.turn != turn {
                bail!(
                    "a rekey of turn {} was interrupted ({rel}/{UNDERWAY}), and the game is at turn {turn}: the folder was changed by hand; nothing was changed",
                    plan.turn
                );
            }
            (rel, plan)
        }
        None => Underway::begin(game, turn, reason)?,
    };
    let new = fresh_secret_once(
        game,
        turn,
        &game.dir.join(format!("{rel}/secret/{turn}.key")),
        plan.had_seal,
    )?;
    let now_rules = crate::game::scheme::load(game, turn)?.and_then(|f| f.rules);
    let reason =
        match crate::game::rules_fixed::change_told(plan.old_rules.as_ref(), now_rules.as_ref()) {
            Some(told) => format!("{}; {told}", plan.reason),
            None => plan.reason.clone(),
        };
    let reason = reason.as_str();
    // The act, once: a rerun after it finds it written.
    let mine = |a: &Act| a.kind == "rekey" && a.archive.as_deref() == Some(rel.as_str());
    if !acts::load(&game.dir, turn)?.acts.iter().any(mine) {
        acts::append(
            game,
            turn,
            Act {
                kind: "rekey".into(),
                rule: "pbem rekey".into(),
                text: format!("turn {turn} has a fresh dice secret: {reason}"),
                reason: Some(reason.to_string()),
                old_commitment: Some(plan.old_commitment.clone()),
                new_commitment: Some(new.clone()),
                archive: Some(rel.clone()),
                ..Act::default()
            },
        )?;
    }
    let game = Game::load(&game.dir)?;
    let shown = game.config.deadline_shown(turn);
    // The act's number names its notices: the same on a rerun.
    let acts = acts::load(&game.dir, turn)?.acts;
    let n = acts.iter().position(mine).map_or(acts.len(), |i| i + 1);
    let notices = announce(
        &game,
        turn,
        &format!("rekey-{n}"),
        &format!("a new dice commitment for turn {turn} ({reason})"),
        Some(&format!(
            "Turn {turn} has a new dice secret and commitment ({reason})"
        )),
    )?;
    Underway::done(&game, &rel)?;
    Ok(Reopened {
        turn,
        archive: Some(rel),
        commitment: new,
        deadline: shown,
        notices,
        judged_again: Vec::new(),
    })
}
