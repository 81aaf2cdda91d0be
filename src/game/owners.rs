//! Who plays each power at a turn (EiA 19.2): game.toml's players, or those who took over (the
//! state's `owners`), and while a power is controlled, the controller's too. Data computed from the
//! configuration and the state, for the header check (the rulesets), the mail (who receives a
//! power's messages) and the engine's changes of control (`engine::players`).

use crate::game::config::GameConfig;
use crate::game::state::State;

/// The players of a power: those who replaced the original ones, else game.toml's.
pub fn players_of(config: &GameConfig, state: &State, power: &str) -> Vec<String> {
    match state.owners.get(power) {
        Some(o) => o.players.clone(),
        None => config
            .power(power)
            .map(|p| p.addresses_at(state.turn))
            .unwrap_or_default(),
    }
}

/// Who receives a power's mail: its players and, while it is controlled (EiA 19.2.1), the
/// controller's.
pub fn recipients(config: &GameConfig, state: &State, power: &str) -> Vec<String> {
    let mut to = players_of(config, state, power);
    if let Some(by) = state.controlled.get(power).and_then(|c| c.by.as_deref()) {
        for a in players_of(config, state, by) {
            if !to.contains(&a) {
                to.push(a);
            }
        }
    }
    to
}

/// The password hashes that authenticate a power's orders: its own (a replacement's, EiA 19.2.2,
/// else game.toml's) and, while it is controlled (EiA 19.2.1), the controller's.
pub fn password_hashes(config: &GameConfig, state: &State, power: &str) -> Vec<String> {
    let own = |p: &str| -> Option<String> {
        state
            .owners
            .get(p)
            .map(|o| o.password_hash.clone())
            .or_else(|| config.power(p).map(|c| c.password_hash.get_ref().clone()))
    };
    let mut hashes: Vec<String> = own(power).into_iter().collect();
    if let Some(by) = state.controlled.get(power).and_then(|c| c.by.as_deref()) {
        hashes.extend(own(by));
    }
    hashes
}
