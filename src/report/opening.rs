//! The opening report of a power: its position at the start of a turn no report has shown it yet
//! (the first turn of a new game), as a turn's report would show it, with no event and no dice. Its
//! JSON carries the `check` object (`for_check`), so that the player's own `pbem check --report`
//! works from his first orders. The welcome mail carries it (`mail::welcome`).

use std::sync::Arc;

use anyhow::{Context, Result};

use crate::game::state::State;
use crate::game::Game;

use super::view::{CommandSight, PowerView, ReportInput, TurnSight};

/// A power's opening report: the view its templates render, its JSON and its map.
pub struct Opening {
    pub view: Arc<PowerView>,
    /// `pbem-report/1` without `dice`: its `turn` is the turn before `state`'s, its `next` the
    /// turn of `state`.
    pub json: String,
    pub svg: String,
}

/// The opening report of `power` (of his own command, for `player` of a power reported per
/// player) at the start of `state`'s turn, whose dice commitment is `commitment`; `shared` is
/// `TurnSight::new(game, state)`, made once for every power's.
pub fn opening(
    game: &Game,
    state: &State,
    shared: &TurnSight,
    power: &str,
    player: Option<&str>,
    commitment: &crate::dice::Bytes32,
) -> Result<Opening> {
    let config = game
        .config
        .power(power)
        .with_context(|| format!("no power '{power}' in this game"))?;
    let command = player
        .filter(|_| crate::engine::command::reports_per_player(game, config))
        .and_then(|p| config.command(p))
        .map(|c| {
            let at = c.at(state.turn);
            let sight = crate::engine::command::command_sight(game, &[state], power, &at.scope);
            CommandSight {
                player: c.id.clone(),
                rank: c.rank.clone(),
                after: sight.clone(),
                during: sight,
                scope: at.scope,
            }
        });
    // No turn was resolved: a header of nothing, which no form of this report shows.
    let none = [0u8; 32];
    let header = super::DiceHeader::new(&game.config.game, 0, &none, &none, &[], &none);
    let events = super::seen_events::TurnEvents::default();
    let input = ReportInput {
        power,
        turn: state.turn.saturating_sub(1),
        state_before: state,
        state_after: state,
        events: &events,
        orders: None,
        header: &header,
        next_commitment: commitment,
        shared,
        command: command.as_ref(),
    };
    let view = Arc::new(PowerView::build(game, &input));
    let check = super::for_check::build(game, &input, &view);
    let json = super::json::render(&view, None, check.as_ref())
        .context("cannot write the opening JSON report")?;
    let svg = super::svg::render(game, shared, &view);
    Ok(Opening { view, json, svg })
}
