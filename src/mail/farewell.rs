//! The mail of a drop (EiA 19.2.1): the player who left hears it at once, to him alone, and an
//! answer still unsent that told him his orders stand is withdrawn, since they stand no more (as
//! `pbem replace` withdraws those of the player who leaves).

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
/// turn or a later one stand, and writes him a notice that he no longer plays it. `None` when
/// nobody left it (a power nobody played).
pub fn farewell(game: &Game, state: &State, turn: u32, power: &str) -> Result<Option<Farewell>> {
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
        Some(by) => format!("{} runs it now", game.config.power(&by).map_or(by.clone(), |p| p.name.clone())),
        None => "its standing orders and the SOP run it until another power or a new player takes it over".into(),
    };
    let mut text = format!(
        "You no longer play {name}: the referee dropped the power from turn {turn} on ({rule}), and {runner}.\n\n\
         Orders you sent for {name} no longer stand, nor do any you send from now: pbem answers them so.\n"
    );
    if !withdrawn.is_empty() {
        text += &format!(
            "The answer that told you your orders for turn {turn} stand was not sent: they no longer do.\n"
        );
    }
    text += "\nThank you for playing.\n";
    let m = Outgoing {
        kind: Kind::Farewell,
        turn,
        power: Some(power.to_string()),
        player: None,
        key: String::new(),
        to: departed,
        subject: format!(
            "[{}] turn {turn}: you no longer play {name}",
            game.config.game
        ),
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
