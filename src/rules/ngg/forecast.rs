//! `pbem check --forecast` for NGG: what an attack plan would meet, before any die, from the position
//! after the player's own forage and moves: for each entry in rank order, whether it is legal now
//! (10.1), the CCs it would allocate and from which source (10.2), the chance of its test, the
//! supporting stacks it would call with their chances (10.3-10.4), and the odds on pbem's table if
//! every supporter joins and the defender fights alone. It reads only what the player may know: the
//! other side's standing orders are left out, and its moves are not known yet.

use crate::diag::Source;
use crate::engine::dice_box::DiceBox;
use crate::game::state::State;
use crate::game::Game;

use super::decisions::{number, NggPoint};
use super::initiative::{passes, support_word, Plan};
use super::orders::{NggOrder, Support};
use super::phase::Phase;
use super::Ngg;

/// The faces of a d6 that pass the 10.2 test with `cc` and `cr`: "5 in 6 (a 2 or more)".
pub fn chance(cc: u32, cr: u32) -> String {
    let faces: Vec<u32> = (1..=6).filter(|&d| passes(d, cc, cr)).collect();
    match faces.first() {
        Some(least) => format!("{} in 6 (a {least} or more)", faces.len()),
        None => "0 in 6".to_string(),
    }
}

/// The forecast of `power`'s orders in `source`, a line each.
pub fn forecast(
    ngg: &Ngg,
    game: &Game,
    state: &State,
    source: &Source,
    power: &str,
) -> Vec<String> {
    if state.table::<super::state::NggState>().is_none() {
        return Vec::new();
    }
    let orders: Vec<NggOrder> = crate::rules::standing_orders(source, power, |_, lines, power| {
        ngg.parse(game, state, lines, power)
    });
    let mut mine = state.clone();
    mine.standing.retain(|q, _| q == power);
    for o in &orders {
        if let NggOrder::Standing { key, value } = o {
            mine.standing
                .entry(power.to_string())
                .or_default()
                .insert(key.clone(), value.clone());
        }
    }
    let powers: Vec<String> = game.config.power_ids().map(str::to_string).collect();
    // The scratch turn rolls no die: only legality and chances are read from it.
    let mut dice = DiceBox::new([0; 32]);
    let Ok(p) = Phase::new(&game.map, &ngg.tables, &ngg.sop, mine, &powers, &mut dice) else {
        return Vec::new();
    };
    let mut p = p.with_names(super::names(game));
    for o in &orders {
        if let NggOrder::Forage { hex } = o {
            p.forage(power, hex);
        }
    }
    for o in &orders {
        if matches!(o, NggOrder::Move { .. }) {
            p.move_order(power, o);
        }
    }
    let mut out: Vec<String> = p.events.iter().map(|e| e.text.clone()).collect();
    let plan = Plan::of(&orders);
    let mut left = p.chits.get(power).copied().unwrap_or(0);
    out.push(format!(
        "Your attack plan: {} entries; you have {left} CCs this turn.",
        plan.attacks.len()
    ));
    let keep_text = plan.keep.map(|c| c.to_string());
    let keep = p.decide(
        NggPoint::AttackReserve,
        power,
        keep_text.as_deref(),
        None,
        number,
        0,
    );
    for (k, a) in plan.attacks.iter().enumerate() {
        let rank = k + 1;
        let head = format!("Entry {rank}: {} on {}", p.name(&a.from), p.name(&a.target));
        let units = match p.legal(power, a) {
            Ok(u) => u,
            Err(why) => {
                out.push(format!(
                    "{head}: void as things stand ({why}); the enemy may yet change that."
                ));
                continue;
            }
        };
        let explicit = a.cc.map(|c| c.to_string());
        let want = p.decide(
            NggPoint::AttackCc,
            power,
            explicit.as_deref(),
            Some(&a.from),
            number,
            0,
        );
        let cc = want.value.min(left.saturating_sub(keep.value));
        left -= cc;
        let cr = p.ngg.best_cr(&a.from, power);
        let mut line = format!(
            "{head}: {cc} CC ({} {}), CR {cr}: the test passes on {}",
            want.value,
            want.by.describe(),
            chance(cc, cr)
        );
        if a.if_ahead || a.if_holds {
            line.push_str(" if its conditions hold");
        }
        let support = match &a.support {
            Some(s) => s.clone(),
            None => {
                p.decide(
                    NggPoint::AttackSupport,
                    power,
                    None,
                    Some(&a.from),
                    support_word,
                    Support::All,
                )
                .value
            }
        };
        let called = p.support_candidates(power, &a.target, &a.from, &support, true);
        let mut att: u32 = units
            .iter()
            .filter_map(|id| p.ngg.unit(id))
            .map(|u| u.sp)
            .sum();
        for h in &called {
            let cr = p.ngg.best_cr(h, power);
            att += p.ngg.strength(h, power);
            line.push_str(&format!(
                "; support {} passes on {}",
                p.name(h),
                chance(cc, cr)
            ));
        }
        let enemy = p.other(power);
        let def = p.ngg.strength(&a.target, &enemy);
        let column = ngg.tables.combat.column(att, def);
        line.push_str(&format!(
            "; with every supporter, {att} SP against {def}: column {} of the combat table.",
            ngg.tables.combat.columns[column]
        ));
        out.push(line);
    }
    out
}
