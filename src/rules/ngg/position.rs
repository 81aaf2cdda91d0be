//! What an NGG report says of the position beyond the units: the game turn, the first player of the
//! combat phase (10.7), each side's command chits per turn (pbem's allowance) and the player's own
//! standing orders of the combat phase.

use crate::game::state::State;

use super::state::ngg_of;
use super::tables::Tables;

/// The lines of the report's position section for `power`, each power named by `name`.
pub fn lines(
    tables: &Tables,
    state: &State,
    power: &str,
    name: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let Ok(ngg) = ngg_of(state) else {
        return Vec::new();
    };
    let chits: Vec<String> = tables
        .chits
        .iter()
        .map(|(p, n)| format!("{} {n}", name(p)))
        .collect();
    let mut out = vec![
        format!(
            "NGG game turn {}; {} attacks first in the combat phase (10.7).",
            ngg.game_turn,
            name(ngg.first())
        ),
        format!("Command chits per turn: {}.", chits.join(", ")),
    ];
    let places: Vec<String> = tables
        .places
        .iter()
        .map(|(n, h)| format!("{n} {h}"))
        .collect();
    if !places.is_empty() {
        out.push(format!("Places: {}.", places.join(", ")));
    }
    let standing: Vec<String> = state
        .standing
        .get(power)
        .map(|s| s.iter().map(|(k, v)| format!("{k} {v}")).collect())
        .unwrap_or_default();
    out.push(format!(
        "Your standing orders: {}.",
        if standing.is_empty() {
            "none (the SOP decides)".to_string()
        } else {
            standing.join(", ")
        }
    ));
    if !ngg.eliminated.is_empty() {
        out.push(format!("Eliminated so far: {}.", ngg.eliminated.join(", ")));
    }
    out
}
