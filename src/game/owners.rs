//! Who plays each power at a turn (EiA 19.2): game.toml's players, or those who took over (the
//! state's `owners`), and while a power is controlled, the controller's too. Data computed from the
//! configuration and the state, for the header check (the rulesets), the mail (who receives a
//! power's messages) and the engine's changes of control (`engine::players`).

use crate::game::config::GameConfig;
use crate::game::state::State;

/// The players of a power: those who replaced the original ones, else game.toml's; nobody while
/// the power is dropped (EiA 19.2.1: its player left, and his authority with him, until a new
/// player takes over).
pub fn players_of(config: &GameConfig, state: &State, power: &str) -> Vec<String> {
    if state.controlled.contains_key(power) {
        return Vec::new();
    }
    own_players(config, state, power)
}

/// The players a power had before it was dropped: those who left it (EiA 19.2.1), as the drop
/// fixed them (`Controlled::left`), never game.toml's players of now, which a later `replace`
/// rewrites (else a turn resolved again would judge the departed player's mail anew). Empty
/// while it is not dropped.
pub fn departed(config: &GameConfig, state: &State, power: &str) -> Vec<String> {
    match state.controlled.get(power) {
        None => Vec::new(),
        Some(c) if !c.left.is_empty() => c.left.clone(),
        Some(_) => own_players(config, state, power),
    }
}

/// A power's own players, dropped or not: those who replaced the original ones (the state's
/// `owners`), else game.toml's at the state's turn.
pub fn own_players(config: &GameConfig, state: &State, power: &str) -> Vec<String> {
    match state.owners.get(power) {
        Some(o) => o.players.clone(),
        None => config
            .power(power)
            .map(|p| p.addresses_at(state.turn))
            .unwrap_or_default(),
    }
}

/// Who receives a power's mail: its players, or while it is dropped (EiA 19.2.1) the players of
/// the power that runs it; the referee himself (`[mail] from`) while nobody runs it.
pub fn recipients(config: &GameConfig, state: &State, power: &str) -> Vec<String> {
    let mut to = players_of(config, state, power);
    if let Some(c) = state.controlled.get(power) {
        for a in
            c.by.as_deref()
                .map(|by| players_of(config, state, by))
                .unwrap_or_default()
        {
            if !to.contains(&a) {
                to.push(a);
            }
        }
        if to.is_empty() {
            to.push(referee_address(config));
        }
    }
    to
}

/// The referee's own address, without its display name.
fn referee_address(config: &GameConfig) -> String {
    let from = config.mail_from();
    match (from.rfind('<'), from.rfind('>')) {
        (Some(a), Some(b)) if a < b => from[a + 1..b].trim().to_string(),
        _ => from.trim().to_string(),
    }
}

/// The password hashes that authenticate a power's orders: its own (a replacement's, EiA 19.2.2,
/// else game.toml's) while it is not dropped; while it is (EiA 19.2.1), the controller's alone: the
/// player who left no longer orders it.
pub fn password_hashes(config: &GameConfig, state: &State, power: &str) -> Vec<String> {
    let own = |p: &str| -> Option<String> {
        state
            .owners
            .get(p)
            .map(|o| o.password_hash.clone())
            .or_else(|| config.power(p).map(|c| c.password_hash.get_ref().clone()))
    };
    match state.controlled.get(power) {
        None => own(power).into_iter().collect(),
        Some(c) => c.by.as_deref().and_then(own).into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::state::Controlled;
    use crate::rules::eia::test_fixture::Fixture;

    /// EiA 19.2.1: who left a dropped power is who the drop fixed (`Controlled::left`), whatever
    /// game.toml names since (a later `pbem replace` rewrites its players); a drop pbem made before
    /// it kept them falls back on game.toml.
    #[test]
    fn eia_19_2_1_who_left_is_fixed_by_the_drop_not_by_game_toml_of_now() {
        let mut fx = Fixture::new();
        let game = &mut fx.game;
        let mut dropped = Controlled {
            by: None,
            by_roll: false,
            until: 3,
            reason: "its player left".into(),
            left: Vec::new(),
        };
        assert!(departed(&game.config, &fx.state, "austria").is_empty());
        fx.state
            .controlled
            .insert("austria".into(), dropped.clone());
        assert_eq!(
            departed(&game.config, &fx.state, "austria"),
            ["austria@example.org"]
        );
        dropped.left = vec!["austria@example.org".into()];
        fx.state.controlled.insert("austria".into(), dropped);
        let austria = game.config.powers.iter_mut().find(|p| p.id == "austria");
        austria.unwrap().players = vec!["new@example.org".into()];
        assert_eq!(
            departed(&game.config, &fx.state, "austria"),
            ["austria@example.org"]
        );
        assert!(players_of(&game.config, &fx.state, "austria").is_empty());
    }
}
