//! What a PoG report says of the position beyond the units: the game turn and the side to act, the
//! trench and fort markers, the game-state flags the rules read, and the player's own combat cards
//! (the only hidden information: the other side's cards are not shown).

use crate::game::state::State;

use super::state::{pog_of, FortStatus};
use super::tables::Tables;

/// The lines of the report's position section for `power`, each power named by `name`.
pub fn lines(
    tables: &Tables,
    state: &State,
    power: &str,
    name: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let Ok(pog) = pog_of(state) else {
        return Vec::new();
    };
    let mut out = vec![format!(
        "Game turn {}, {} of {} actions played; next to act: {}.",
        pog.game_turn,
        pog.actions_played,
        tables.actions_per_turn,
        name(pog.active())
    )];
    let trenches: Vec<String> = pog
        .trench
        .iter()
        .map(|(s, t)| format!("{s} level {} ({})", t.level, name(&t.power)))
        .collect();
    out.push(format!(
        "Trenches: {}.",
        if trenches.is_empty() {
            "none".to_string()
        } else {
            trenches.join(", ")
        }
    ));
    let forts: Vec<String> = pog
        .fort
        .iter()
        .map(|(s, f)| {
            let word = match f {
                FortStatus::Besieged => "besieged",
                FortStatus::Destroyed => "destroyed",
            };
            format!("{s} {word}")
        })
        .collect();
    out.push(format!(
        "Forts: {}.",
        if forts.is_empty() {
            "all intact".to_string()
        } else {
            format!("{}; the others intact", forts.join(", "))
        }
    ));
    if !pog.entrench_played.is_empty() {
        out.push(format!(
            "Entrench event played by: {}.",
            pog.entrench_played
                .iter()
                .map(|p| name(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.push(format!(
        "Race to the Sea: {}; Central Powers war status {}.",
        if pog.race_to_the_sea {
            "played"
        } else {
            "not played"
        },
        pog.cp_war_status
    ));
    let cards = pog.cards_of(power);
    out.push(format!(
        "Your combat cards: {}.",
        if cards.is_empty() {
            "none".to_string()
        } else {
            cards.join(", ")
        }
    ));
    if !pog.eliminated.is_empty() {
        out.push(format!("Eliminated so far: {}.", pog.eliminated.join(", ")));
    }
    out
}
