//! `pbem check --forecast` for GITM: where each unit's strategic path would take it if no enemy
//! interfered and no die were rolled, from the power's own view of the state: the squares of its
//! boxes, the skipped phases, the forced march and its fatigue, and where a path halts (GITM 7.1-7.5;
//! 7.2's square less carrying supply or out of communications, `communications.rs`);
//! a shattered unit, or one in a besieged fort or city, makes no move (pbem gitm/shattered, GITM 2.7).

use crate::diag::Source;
use crate::game::map::Topology;
use crate::game::state::State;
use crate::game::Game;

use super::movement::step;
use super::orders::{by_unit, SupplyOrder};
use super::state::{GitmState, Kind};
use super::turn::MAX_MARCH_FATIGUE;
use super::Gitm;

/// One line per unit with a strategic order.
pub fn forecast(
    gitm: &Gitm,
    game: &Game,
    state: &State,
    source: &Source,
    power: &str,
) -> Vec<String> {
    let (Some(g), Some(map)) = (state.table::<GitmState>(), super::grid_map(game)) else {
        return Vec::new();
    };
    let orders = by_unit(&crate::rules::standing_orders(
        source,
        power,
        |_, lines, power| gitm.parse(game, state, lines, power),
    ));
    let mut out = Vec::new();
    for (id, o) in &orders {
        // GITM 7.17 (pbem gitm/ships): a boarder goes where its ship's `sail` line takes it.
        if let Some(ship) = &o.board {
            let to = orders.get(ship).and_then(|s| s.sail.as_deref());
            out.push(match to {
                Some(to) => format!("{id} would board {ship} and land in the port of {to} in strategic phase 1, if there is room (GITM 7.17; pbem gitm/ships)."),
                None => format!("{id} would board {ship}, which has no `sail` order: it would stay ashore (GITM 7.17)."),
            });
        }
        let (Some(m), Some(b)) = (&o.strategic, g.brigade(id)) else {
            continue;
        };
        let Ok(mut here) = map.parse_place(b.square()) else {
            continue;
        };
        // pbem gitm/shattered; GITM 2.7: units that make no strategic move at all.
        let in_siege = g
            .brigades
            .iter()
            .position(|x| x.id() == b.id())
            .is_some_and(|i| g.besieged(i));
        if b.shattered || in_siege {
            out.push(format!(
                "{id} would not march: {}.",
                if b.shattered {
                    "it is shattered (pbem gitm/shattered)"
                } else {
                    "it is in a besieged fort or city (GITM 2.7, 7.7)"
                }
            ));
            continue;
        }
        // GITM 6.9: without a supply line the unit draws and carries one unit (7.2).
        let carrying = o
            .supply
            .as_ref()
            .is_none_or(|s: &SupplyOrder| s.carry.is_some_and(|n| n > 0));
        // GITM 7.2, pbem gitm/communications: a square less out of communications, as the power
        // sees the position.
        let cut_off = g
            .brigades
            .iter()
            .position(|x| x.id() == b.id())
            .is_some_and(|i| !super::communications::in_communications(map, state, g, i));
        let kind = b.kind();
        let allowance = kind
            .strategic_allowance()
            .saturating_sub(u32::from(carrying))
            .saturating_sub(u32::from(cut_off));
        let most = allowance + u32::from(kind != Kind::Militia);
        let mut fatigue = b.fatigue;
        let mut moves = 0;
        let mut steps = Vec::new();
        let mut end = None;
        for (phase, sq) in m.boxes.iter().enumerate() {
            let Some(name) = sq else {
                steps.push(format!("phase {}: waits", phase + 1));
                continue;
            };
            let Ok(to) = map.parse_place(name) else { break };
            if fatigue > MAX_MARCH_FATIGUE {
                end = Some(format!("too tired to go on (fatigue {fatigue}, GITM 7.1)"));
                break;
            }
            if step(map, here, to).is_none() {
                end = Some(format!(
                    "halts in {}: {name} is not adjacent (GITM 7.4)",
                    map.place_name(here)
                ));
                break;
            }
            if moves >= most {
                end = Some(format!("has no move left for {name} (GITM 7.1-7.3)"));
                break;
            }
            let cost = if moves >= allowance {
                kind.forced_march_fatigue()
            } else if map.terrain(to) == "mountain" {
                2
            } else {
                1
            };
            let forced = if moves >= allowance {
                ", a forced march (GITM 7.3)"
            } else {
                ""
            };
            steps.push(format!(
                "phase {}: {name} for {cost} fatigue{forced}",
                phase + 1
            ));
            fatigue += cost;
            moves += 1;
            here = to;
        }
        let mut line = format!(
            "{id} ({}, {allowance} squares a turn{}) would march: {}",
            kind.name(),
            match (carrying, cut_off) {
                (true, true) => " carrying supply, out of communications",
                (true, false) => " carrying supply",
                (false, true) => " out of communications",
                (false, false) => "",
            },
            if steps.is_empty() {
                "nowhere".to_string()
            } else {
                steps.join("; ")
            }
        );
        if let Some(e) = end {
            line.push_str(&format!("; it {e}"));
        }
        if m.pursue || m.to_battle {
            line.push_str(if m.pursue {
                "; then it pursues what leaves its square (GITM 7.11)"
            } else {
                "; then it marches to the largest battle next door (GITM 7.12)"
            });
        }
        line.push('.');
        out.push(line);
    }
    out
}
