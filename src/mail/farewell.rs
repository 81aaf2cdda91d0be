//! The mail of a drop (EiA 19.2.1): the player who left hears it at once, to him alone, and an
//! answer still unsent that told him his orders stand is withdrawn, since they stand no more (as
//! `pbem replace` withdraws those of the player who leaves). And the mail of a new player who does
//! not take a power over after all, named again by a later `pbem replace` or undone by a rollback
//! (EiA 19.2.2): his welcome withdrawn while it is unsent, else a notice that it is void.

use std::path::PathBuf;

use anyhow::Result;

use super::ingest::{self, Status};
use super::outbox::{self, Kind, Outgoing};
use crate::game::state::State;
use crate::game::Game;

/// What a drop told the player who left.
pub struct Farewell {
    /// The notice, in the outbox.
    pub notice: PathBuf,
    /// The answers withdrawn before they went (outbox names).
    pub withdrawn: Vec<String>,
}

/// Withdraws every unsent answer that told one of `departed`, who left `power` at `turn` (`act`
/// says how), that his orders for that turn or a later one stand: they no longer do. Returns the
/// answers withdrawn (outbox names).
pub fn withdraw_answers(
    game: &Game,
    power: &str,
    departed: &[String],
    turn: u32,
    act: &str,
) -> Result<Vec<String>> {
    let theirs = |from: &str| departed.iter().any(|a| ingest::normalise(a) == from);
    let mut withdrawn = Vec::new();
    for r in ingest::load_records(game)?.values() {
        let stood = matches!(r.status, Status::Accepted | Status::Held) && r.for_turn >= turn;
        if r.power != power || !stood || r.ack.is_empty() || !theirs(&r.from) {
            continue;
        }
        let why =
            format!("its sender left {power} ({act}) before it went: his orders no longer stand");
        if super::send::withdraw(game, &r.ack, &why)? {
            withdrawn.push(r.ack.clone());
        }
    }
    Ok(withdrawn)
}

/// After `power` was dropped from `turn` on (`state`: the turn's state with the drop applied):
/// withdraws every unsent answer that told one of its departed players that his orders for this
/// turn or a later one stand, and writes him a notice that he no longer plays it; `welcomed`:
/// whether his welcome went (a player dropped before it did is told he does not play the power,
/// not that he no longer does, since he never heard that he did). `None` when nobody left it (a
/// power nobody played).
pub fn farewell(
    game: &Game,
    state: &State,
    turn: u32,
    power: &str,
    welcomed: bool,
) -> Result<Option<Farewell>> {
    let departed = crate::game::owners::departed(&game.config, state, power);
    if departed.is_empty() {
        return Ok(None);
    }
    // EiA 19.2.1 in a game of EiA, pbem's own rule in any other.
    let rule = crate::engine::players::dropped_rule(game).cite();
    let withdrawn = withdraw_answers(game, power, &departed, turn, &format!("pbem drop, {rule}"))?;
    let name = game
        .config
        .power(power)
        .map_or(power.to_string(), |p| p.name.clone());
    let runner = match state.controlled.get(power).and_then(|c| c.by.clone()) {
        Some(by) => format!(
            "{} runs it now",
            game.config
                .power(&by)
                .map_or(by.clone(), |p| p.name.clone())
        ),
        None => format!(
            "{} run it until another power or a new player takes it over",
            game.ruleset.without_orders().its
        ),
    };
    let title = &game.config.title;
    let (mut text, subject) = match welcomed {
        true => (
            format!(
                "You no longer play {name}: the referee dropped the power from turn {turn} on ({rule}), and {runner}.\n\n\
                 Orders you sent for {name} no longer stand, nor do any you send from now: pbem answers them so.\n"
            ),
            format!("you no longer play {name}"),
        ),
        false => (
            format!(
                "You were to play {name} in {title}, but the referee dropped the power ({rule}) before your welcome mail, with your password, was sent: you do not play it, and {runner}.\n\n\
                 Orders sent for {name} in your name do not stand: pbem answers them so.\n"
            ),
            format!("you do not play {name}"),
        ),
    };
    if !withdrawn.is_empty() {
        text += &format!(
            "The answer that told you your orders for turn {turn} stand was not sent: they no longer do.\n"
        );
    }
    text += match welcomed {
        true => "\nThank you for playing.\n",
        false => "\nThank you for your interest.\n",
    };
    let m = Outgoing {
        kind: Kind::Farewell,
        turn,
        power: Some(power.to_string()),
        player: None,
        key: String::new(),
        to: departed,
        subject: format!("[{}] turn {turn}: {subject}", game.config.game),
        text,
        html: None,
        attachments: Vec::new(),
        in_reply_to: None,
        date: outbox::game_instant(game, turn),
    };
    outbox::write_all(game, std::slice::from_ref(&m))?;
    Ok(Some(Farewell {
        notice: outbox::path_of(game, &m),
        withdrawn,
    }))
}

/// What a `pbem replace` did to the mail of the players it puts aside: the power's welcomes never
/// sent, and the notices of an earlier new player to the other powers, withdrawn; a notice to each
/// earlier new player whose welcome went that he does not take the power over.
#[derive(Debug, Default)]
pub struct Superseded {
    /// The messages withdrawn before they went (outbox names).
    pub withdrawn: Vec<String>,
    /// The notices to new players put aside whose welcome went, in the outbox.
    pub told: Vec<PathBuf>,
}

/// The key of a welcome of `power` by its outbox name: `Some(None)` for the welcome of the game's
/// first mail (`t0001-welcome-britain.eml`), `Some(Some(key))` for a new player's
/// (`t0002-welcome-britain-3f2a9c1e.eml`, the key of his password), `None` for any other message.
fn welcome_key<'n>(name: &'n str, power: &str) -> Option<Option<&'n str>> {
    let rest = name.strip_prefix('t')?;
    let (turn, rest) = rest.split_at_checked(4)?;
    if !turn.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rest = rest
        .strip_prefix("-welcome-")?
        .strip_suffix(".eml")?
        .strip_prefix(power)?;
    if rest.is_empty() {
        return Some(None);
    }
    let key = rest.strip_prefix('-')?;
    (key.len() == 8 && key.bytes().all(|b| b.is_ascii_hexdigit())).then_some(Some(key))
}

/// After `pbem drop` of `power` (EiA 19.2.1 in a game of EiA, `pbem players/drop` in any other:
/// `rule`), every welcome of the power that never went is withdrawn and its password masked: the
/// player who left takes his authority with him, his farewell tells him so, and a welcome to a
/// player the power no longer has could be sent to nobody (the power's mail goes to whoever runs
/// it), so that every `pbem send` after the drop exited 5 over it, its password kept at rest.
/// Returns the welcomes withdrawn (outbox names).
pub fn withdraw_welcomes(game: &Game, power: &str, rule: &str) -> Result<Vec<String>> {
    let why = format!(
        "{power}'s player left ({rule}) before it went: the password it carries no longer stands"
    );
    let mut withdrawn = Vec::new();
    for m in &super::send::outbox_messages(game)? {
        if welcome_key(&m.name, power).is_none() {
            continue;
        }
        let reached = super::send::load_ledger(game, &m.name)?
            .iter()
            .flat_map(|l| &l.recipients)
            .any(|r| r.status == "delivered" || r.status == super::send::SENDING);
        if !reached && super::send::withdraw(game, &m.name, &why)? {
            if outbox::dir(game).join(&m.name).is_file() {
                super::welcome::mask_delivered(game, &m.name)?;
            }
            withdrawn.push(m.name.clone());
        }
    }
    Ok(withdrawn)
}

/// Whether the power's latest welcomes (those of the last turn that wrote any: each player's of
/// a power with several) reached a player, or the game has none: a player dropped before his did
/// never heard that he played the power.
pub fn welcome_went(game: &Game, power: &str) -> Result<bool> {
    let messages = super::send::outbox_messages(game)?;
    let welcomes: Vec<&str> = messages
        .iter()
        .map(|m| m.name.as_str())
        .filter(|n| welcome_key(n, power).is_some())
        .collect();
    let Some(last) = welcomes.iter().map(|n| &n[..5]).max() else {
        return Ok(true);
    };
    for name in welcomes.iter().filter(|n| n.starts_with(last)) {
        let reached = super::send::load_ledger(game, name)?
            .iter()
            .flat_map(|l| &l.recipients)
            .any(|r| r.status == "delivered" || r.status == super::send::SENDING);
        if reached {
            return Ok(true);
        }
    }
    Ok(false)
}

/// After `pbem replace` handed `power` to `players` (`rule`: the rule it applies), the mail of those
/// it puts aside: every welcome of the power but the new player's (`keep`, its outbox name) that
/// never went is withdrawn and its password masked (the player who left, or an earlier new player
/// of this replace's turn: the password it carries no longer stands), with the notices an earlier
/// new player's replace wrote to the other powers; an earlier new player whose welcome went is told
/// that he does not take the power over.
pub fn supersede(
    game: &Game,
    turn: u32,
    power: &str,
    keep: &str,
    players: &[String],
    rule: &str,
) -> Result<Superseded> {
    let mut out = Superseded::default();
    let messages = super::send::outbox_messages(game)?;
    let why = format!(
        "{power} was handed to {} (pbem replace, {rule}) before it went: the password it carries no longer stands",
        players.join(", ")
    );
    for m in &messages {
        let Some(key) = welcome_key(&m.name, power) else {
            continue;
        };
        if m.name == keep {
            continue;
        }
        let ledger = super::send::load_ledger(game, &m.name)?;
        let reached: Vec<String> = ledger
            .iter()
            .flat_map(|l| &l.recipients)
            .filter(|r| r.status == "delivered" || r.status == super::send::SENDING)
            .map(|r| r.address.clone())
            .collect();
        if reached.is_empty() {
            if super::send::withdraw(game, &m.name, &why)? {
                if outbox::dir(game).join(&m.name).is_file() {
                    super::welcome::mask_delivered(game, &m.name)?;
                }
                out.withdrawn.push(m.name.clone());
            }
            // An earlier new player's notices to the other powers name a player who never comes.
            if let Some(key) = key {
                let suffix = format!("-player-{key}.eml");
                for n in messages
                    .iter()
                    .filter(|n| n.name.contains("-notice-") && n.name.ends_with(&suffix))
                {
                    if super::send::withdraw(game, &n.name, &why)? {
                        out.withdrawn.push(n.name.clone());
                    }
                }
            }
            continue;
        }
        // A new player who has his welcome: told, once, that it is void.
        let Some(key) = key else { continue };
        let to: Vec<String> = reached
            .into_iter()
            .filter(|a| !players.iter().any(|p| p.eq_ignore_ascii_case(a)))
            .collect();
        if to.is_empty() {
            continue;
        }
        let name = power_name(game, power);
        let notice = not_taking_over(
            game,
            turn,
            power,
            &format!("{power}-superseded-{key}"),
            to,
            &format!(
                "The referee has named another player for {name} in your place, before you took it over ({rule})."
            ),
        );
        let path = outbox::path_of(game, &notice);
        if !path.is_file() {
            outbox::write_all(game, std::slice::from_ref(&notice))?;
        }
        out.told.push(path);
    }
    Ok(out)
}

fn power_name(game: &Game, power: &str) -> String {
    game.config
        .power(power)
        .map_or(power.to_string(), |p| p.name.clone())
}

/// The notice to a new player named by `pbem replace` whose welcome went, that he does not take
/// `power` over after all (EiA 19.2.2 in a game of EiA, `pbem players/replace` in any other): `why`
/// says what undid it. To him as written: game.toml no longer names him for the power.
pub fn not_taking_over(
    game: &Game,
    turn: u32,
    power: &str,
    key: &str,
    to: Vec<String>,
    why: &str,
) -> Outgoing {
    let name = power_name(game, power);
    Outgoing {
        kind: Kind::Farewell,
        turn,
        power: None,
        player: None,
        key: key.to_string(),
        to,
        subject: format!(
            "[{}] turn {turn}: you do not take over {name}",
            game.config.game
        ),
        text: format!(
            "{why}\n\n\
             You do not take {name} over: the welcome you had is void, and so is its password. The referee will write to you if he hands you a power again.\n"
        ),
        html: None,
        attachments: Vec::new(),
        in_reply_to: None,
        date: outbox::game_instant(game, turn),
    }
}

#[cfg(test)]
mod tests {
    use super::welcome_key;

    #[test]
    fn a_welcome_of_a_power_is_known_by_its_name_and_key() {
        assert_eq!(
            welcome_key("t0001-welcome-allies.eml", "allies"),
            Some(None)
        );
        assert_eq!(
            welcome_key("t0002-welcome-allies-1aec6671.eml", "allies"),
            Some(Some("1aec6671"))
        );
        assert_eq!(welcome_key("t0001-welcome-allies.eml", "all"), None);
        assert_eq!(
            welcome_key("t0001-welcome-france-eugene.eml", "france"),
            None
        );
        assert_eq!(
            welcome_key("t0001-notice-allies-player-1aec6671.eml", "allies"),
            None
        );
        assert_eq!(welcome_key("tx001-welcome-allies.eml", "allies"), None);
    }
}
