//! `pbem check --forecast` for Paths of Glory: what an action would do from the position as it
//! stands, before any die: each move as movement makes it (control, isolation, trenches taken), each
//! entrenching with its chance, each attack with the strengths, the attacker's cards, the flank
//! attack's DRM and the table and column each side would fire on. It reads only what the player may
//! know: the other side's cards and standing orders are left out (its SOP stands in for them).

use super::state::PogState;
use crate::diag::Source;
use crate::engine::dice_box::DiceBox;
use crate::game::state::State;
use crate::game::Game;

use super::action::Action;
use super::orders::PogOrder;
use super::Pog;

/// The forecast of `power`'s orders in `source`, a line each.
pub fn forecast(
    pog: &Pog,
    game: &Game,
    state: &State,
    source: &Source,
    power: &str,
) -> Vec<String> {
    let Some(p) = state.table::<PogState>() else {
        return Vec::new();
    };
    if p.active() != power {
        return vec![format!(
            "Turn {} is the action of {}: only your standing orders count in it, and they stand until you change them.",
            state.turn,
            super::name_of(game, p.active())
        )];
    }
    let orders: Vec<PogOrder> = crate::rules::standing_orders(source, power, |_, lines, power| {
        pog.parse(game, state, lines, power)
    });
    // What the player may not know is left out of the scratch position.
    let mut mine = state.clone();
    mine.standing.retain(|q, _| q == power);
    if let Some(p) = mine.table_mut::<PogState>() {
        p.cards.retain(|q, _| q == power);
    }
    let powers: Vec<String> = game.config.power_ids().map(str::to_string).collect();
    // The dice of the scratch action are never shown: fire columns are read before the die.
    let mut dice = DiceBox::new([0; 32]);
    let Ok(a) = Action::new(&game.map, &pog.tables, &pog.sop, mine, powers, &mut dice) else {
        return Vec::new();
    };
    let mut a = a.with_names(super::names(game));
    let mut out = Vec::new();
    let mut since = 0;
    let take = |a: &Action<'_>, out: &mut Vec<String>, since: &mut usize| {
        out.extend(a.events[*since..].iter().map(|e| e.text.clone()));
        *since = a.events.len();
    };
    for o in &orders {
        if let PogOrder::War { nation } = o {
            a.enter_war(nation);
            take(&a, &mut out, &mut since);
        }
    }
    for o in &orders {
        if let PogOrder::Move { unit, path } = o {
            if a.move_unit(unit, path).is_err() {
                return out;
            }
            take(&a, &mut out, &mut since);
        }
    }
    a.besiege_forts(power);
    take(&a, &mut out, &mut since);
    for o in &orders {
        if let PogOrder::Entrench { unit } = o {
            out.push(a.entrench_chance(unit));
        }
    }
    let attacks = orders
        .iter()
        .filter_map(|o| match o {
            PogOrder::Attack(x) => Some(x.clone()),
            _ => None,
        })
        .collect();
    for (n, attack) in a.attack_order(attacks).into_iter().enumerate() {
        match a.preview(n + 1, attack) {
            Ok(line) => out.push(line),
            Err(_) => break,
        }
    }
    out
}
