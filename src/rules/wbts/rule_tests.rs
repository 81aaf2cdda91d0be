//! The WBTS rules pbem applies, a test per procedure of the seed (named after it), with both of the
//! seed's examples as tests with their numbers. The tables are the bundled demo's (pbem's own).

use super::state::WbtsState;
use std::collections::BTreeMap;

use crate::diag::Source;
use crate::engine::dice_box::DiceBox;
use crate::game::map::hex::HexMap;
use crate::game::state::State;
use crate::orders::split;

use super::board::{Board, Crossing, VOCABULARY};
use super::combat::{
    cap_chit, choose_row, fight, halve, is_contact, net_shift, shift_range, Commander, Force,
    ShiftPolicy, Side,
};
use super::losses::{spread, Casualty, LossPolicy};
use super::orders::{parse_all, Context, WbtsOrder};
use super::tables::{Cell, Tables};
use super::turn::Turn;

const TABLES: &str = include_str!("../../../games/wbts-peninsula-1862/tables.toml");

/// Six columns by five rows; 0302 rough; row 5 water. A river between 0202 and 0203, a tidal river
/// between 0402 and 0403, a tidal river with a ferry between 0403 and 0404; a fortified hexside
/// between the water hexes 0205 and 0305, covered from 0204.
const MAP: &str = r#"kind = "hex"
columns = 6
rows = 5
terrain = '''
......
..r...
......
......
~~~~~~
'''
hexsides = '''
0203 n river
0403 n tidal
0404 n tidal ferry
0205 ne fortification
'''
[legend]
"." = "clear"
"r" = "rough"
"~" = "water"
"#;

fn tables() -> Tables {
    crate::rules::load_tables(&Source::new("tables.toml", TABLES), Tables::validate).unwrap()
}

fn map() -> HexMap {
    HexMap::load(&Source::new("map.toml", MAP), &VOCABULARY).unwrap()
}

/// A state with the pieces of `pieces` (TOML of `[[wbts.*]]` tables), the union to play.
fn state(pieces: &str) -> State {
    let text =
        format!("game = \"t\"\nturn = 1\n[wbts]\nactive = \"union\"\ngame_turn = 1\n{pieces}");
    crate::game::state::parse::<WbtsState>(&crate::diag::Source::new("state.toml", text)).unwrap()
}

fn leader(id: &str, power: &str, hex: &str, initiative: u32, combat: u32) -> String {
    format!("[[wbts.leader]]\nid = \"{id}\"\npower = \"{power}\"\ninitiative = {initiative}\ncombat = {combat}\nhex = \"{hex}\"\n")
}

fn unit(id: &str, power: &str, kind: &str, strength: u32, hex: &str, leader: &str) -> String {
    let roster = if leader.is_empty() {
        String::new()
    } else {
        format!("leader = \"{leader}\"\n")
    };
    format!("[[wbts.unit]]\nid = \"{id}\"\npower = \"{power}\"\nkind = \"{kind}\"\nstrength = {strength}\n{roster}hex = \"{hex}\"\n")
}

fn powers() -> Vec<String> {
    vec!["union".into(), "confederate".into()]
}

/// Parses `text` as `power`'s order lines: the accepted orders and the messages of the rejected.
fn check(st: &State, power: &str, text: &str) -> (Vec<WbtsOrder>, Vec<String>) {
    let (m, t) = (map(), tables());
    let cx = Context {
        board: Board::new(&m),
        state: st,
        wbts: st.table::<WbtsState>().unwrap(),
        tables: &t,
        power,
        active_name: st.table::<WbtsState>().unwrap().active(),
    };
    let (ok, diags) = parse_all(&split(text), &cx);
    (
        ok.into_iter().map(|o| o.value).collect(),
        diags.into_iter().map(|d| d.message).collect(),
    )
}

/// Runs the union's `orders` on `st` with `seed` and returns the event texts and the state after.
fn run(st: State, standing: &[(&str, &str, &str)], orders: &str, seed: u8) -> (Vec<String>, State) {
    let (events, next) = run_events(st, standing, orders, seed);
    (events.into_iter().map(|e| e.text).collect(), next)
}

/// As [`run`], the events whole.
fn run_events(
    st: State,
    standing: &[(&str, &str, &str)],
    orders: &str,
    seed: u8,
) -> (Vec<crate::engine::event::Event>, State) {
    let (m, t) = (map(), tables());
    let mut st = st;
    for (p, k, v) in standing {
        st.standing
            .entry(p.to_string())
            .or_default()
            .insert(k.to_string(), v.to_string());
    }
    let (ok, diags) = check(&st, "union", orders);
    assert!(diags.is_empty(), "{diags:?}");
    let sop = BTreeMap::new();
    let mut dice = DiceBox::new([seed; 32]);
    let mut turn = Turn::new(Board::new(&m), &t, &sop, st, powers(), &mut dice).unwrap();
    turn.run(&ok).unwrap();
    let (next, events) = turn.finish();
    (events, next)
}

fn force(
    chit: u32,
    size: u32,
    supply: u32,
    leader: Option<(u32, u32)>,
    shift: ShiftPolicy,
) -> Force {
    Force {
        power: "p".into(),
        leader: leader.map(|(i, c)| Commander {
            id: "L".into(),
            initiative: i,
            combat: c,
        }),
        chit,
        size,
        strength: size,
        supply,
        rolls_supply: true,
        shift,
        losses_doubled: false,
    }
}

#[test]
fn the_bundled_tables_are_valid() {
    assert!(tables().validate().is_empty());
    assert_eq!(Cell::parse("1/2r").unwrap().to_string(), "1/2r");
    assert!(Cell::parse("x/2").is_none());
}

#[test]
fn combat_initiative_roll_passes_at_most_the_rating_entry() {
    let t = tables();
    assert!(t.initiative_passes(3, 4));
    assert!(!t.initiative_passes(3, 5));
    assert!(!t.initiative_passes(0, 1), "initiative 0 never attacks");
}

#[test]
fn intensity_chit_is_at_most_the_leaders_initiative_and_0_without_leader() {
    assert_eq!(cap_chit(4, Some(2), false), 2);
    assert_eq!(cap_chit(3, Some(4), false), 3);
    assert_eq!(
        cap_chit(4, None, false),
        0,
        "units without a leader choose 0"
    );
    assert_eq!(cap_chit(9, Some(4), false), 4, "chits run 0 to 4");
}

#[test]
fn contact_when_both_chits_are_0_only_the_supply_rolls() {
    assert!(is_contact(0, 0));
    assert!(!is_contact(0, 1));
    let t = tables();
    let a = force(0, 8, 10, Some((2, 1)), ShiftPolicy::Best);
    let d = force(0, 8, 10, None, ShiftPolicy::Best);
    let out = fight(&t, &a, &d, &mut DiceBox::new([1; 32]), "c").unwrap();
    assert!(out.contact);
    assert!(
        out.supply[0].is_some() && out.supply[1].is_some(),
        "both still roll for supply"
    );
    assert!(out.die.is_none());
    assert_eq!(out.lost, [0, 0]);
}

/// The seed's example: a leader with a combat rating of 3 turns a roll of 3 into anything from 1 to 6.
#[test]
fn seed_example_a_rating_3_leader_turns_a_roll_of_3_into_1_to_6() {
    assert_eq!(net_shift(Some(3), None), Some((Side::Attacker, 3)));
    assert_eq!(shift_range(3, 3), 1..=6);
    assert_eq!(shift_range(1, 3), 1..=4, "clamped to the table's rows");
}

#[test]
fn leader_shift_is_the_net_of_both_ratings_chosen_by_the_better() {
    assert_eq!(net_shift(Some(3), Some(1)), Some((Side::Attacker, 2)));
    assert_eq!(net_shift(Some(1), Some(4)), Some((Side::Defender, 3)));
    assert_eq!(net_shift(Some(2), Some(2)), None);
    let t = tables();
    // Column 1:1 (index 2): the attacker's best row within 2 of a 3 is 5 (1/2r); the defender's 1 (2r/1).
    assert_eq!(
        choose_row(&t, 2, 3, Side::Attacker, 2, ShiftPolicy::Best),
        5
    );
    assert_eq!(
        choose_row(&t, 2, 3, Side::Defender, 2, ShiftPolicy::Best),
        1
    );
    assert_eq!(
        choose_row(&t, 2, 3, Side::Attacker, 2, ShiftPolicy::AtMost(1)),
        4
    );
    assert_eq!(
        choose_row(&t, 2, 3, Side::Attacker, 2, ShiftPolicy::Never),
        3
    );
}

#[test]
fn leader_loss_is_rolled_only_by_a_leader_who_shifted() {
    let t = tables();
    let d = force(2, 8, 10, Some((2, 0)), ShiftPolicy::Best);
    for seed in 0..20u8 {
        let a = force(2, 8, 10, Some((2, 3)), ShiftPolicy::Best);
        let out = fight(&t, &a, &d, &mut DiceBox::new([seed; 32]), "c").unwrap();
        let s = out
            .shift
            .clone()
            .expect("the attacker is the better leader");
        assert_eq!(s.loss.is_some(), s.from != s.to, "seed {seed}");
        let never = Force {
            shift: ShiftPolicy::Never,
            ..a
        };
        let out = fight(&t, &never, &d, &mut DiceBox::new([seed; 32]), "c").unwrap();
        let s = out.shift.unwrap();
        assert_eq!(
            (s.from, s.loss.is_none()),
            (s.to, true),
            "risk never: no shift, no roll"
        );
    }
}

#[test]
fn combat_supply_table_by_force_size_and_own_chit_0_and_1_share_a_column() {
    let t = tables();
    assert_eq!(t.supply_cost(5, 0, 6), t.supply_cost(5, 1, 6));
    assert!(
        t.supply_cost(25, 4, 6) > t.supply_cost(5, 4, 6),
        "larger forces pay more"
    );
    assert!(
        t.supply_cost(5, 4, 6) > t.supply_cost(5, 1, 6),
        "higher chits pay more"
    );
}

#[test]
fn without_combat_supply_half_strength_and_doubled_losses() {
    let t = tables();
    // Chit 4 owes at least 1 point on any die: with none within reach the attacker is unsupplied.
    let a = force(4, 12, 0, Some((4, 0)), ShiftPolicy::Never);
    let d = force(4, 12, 99, Some((4, 0)), ShiftPolicy::Never);
    let out = fight(&t, &a, &d, &mut DiceBox::new([5; 32]), "c").unwrap();
    assert!(!out.supplied(Side::Attacker));
    assert!(out.supplied(Side::Defender));
    assert_eq!(out.strength, [6, 12]);
    assert_eq!(out.doubled, [2, 1]);
}

#[test]
fn storming_attackers_losses_are_doubled() {
    let t = tables();
    let a = Force {
        losses_doubled: true,
        ..force(2, 12, 99, Some((2, 0)), ShiftPolicy::Never)
    };
    let d = force(2, 12, 99, None, ShiftPolicy::Never);
    let out = fight(&t, &a, &d, &mut DiceBox::new([5; 32]), "c").unwrap();
    assert_eq!(out.doubled, [2, 1]);
}

#[test]
fn attrition_table_turns_a_percentage_into_strength_points() {
    let t = tables();
    assert_eq!(t.percent(2, 4), 20, "two levels at intensity 4: 2 x 10%");
    assert_eq!(t.attrition(12, 20), 3);
    assert_eq!(t.attrition(12, 4), 0, "below the first column");
    assert_eq!(t.attrition(2, 80), 2, "never more than the force");
}

/// The seed's example: one infantry and one cavalry unit that must lose 2 points lose one each.
#[test]
fn seed_example_one_infantry_and_one_cavalry_losing_2_lose_one_each() {
    let units = [
        Casualty {
            id: "inf".into(),
            kind: "infantry",
            strength: 6,
        },
        Casualty {
            id: "cav".into(),
            kind: "cavalry",
            strength: 3,
        },
    ];
    let lost = spread(&units, 2, LossPolicy::LargerFirst);
    assert_eq!(lost, [("inf".to_string(), 1), ("cav".to_string(), 1)]);
}

/// WBTS ground/losses: a defender's supply train outside a fort is among the units his losses are
/// spread over (last), listed once; so is one inside a stormed fort.
#[test]
fn wbts_ground_losses_a_train_is_in_the_defenders_loss_list_once() {
    let pieces = leader("Lee", "union", "0101", 4, 0)
        + &unit("A", "union", "infantry", 20, "0101", "Lee")
        + &unit("E", "confederate", "infantry", 3, "0102", "")
        + "[[wbts.unit]]\nid = \"CT\"\npower = \"confederate\"\nkind = \"train\"\nstrength = 1\nsupply = 5\nhex = \"0102\"\n"
        + "[wbts.fort]\n\"0103\" = { kind = \"fort\", power = \"confederate\" }\n"
        + &unit("G", "confederate", "infantry", 3, "0103", "")
        + "inside = true\n"
        + "[[wbts.unit]]\nid = \"GT\"\npower = \"confederate\"\nkind = \"train\"\nstrength = 1\nsupply = 5\nhex = \"0103\"\ninside = true\n";
    let (m, t) = (map(), tables());
    let sop = BTreeMap::new();
    let mut dice = DiceBox::new([1; 32]);
    let turn = Turn::new(
        Board::new(&m),
        &t,
        &sop,
        state(&pieces),
        powers(),
        &mut dice,
    )
    .unwrap();
    let (outside, _) = turn.enemies_in("0102", "union");
    assert_eq!(
        turn.defender_loss_list("0102", "confederate", &outside, false),
        ["E", "CT"]
    );
    let (_, inside) = turn.enemies_in("0103", "union");
    assert_eq!(
        turn.defender_loss_list("0103", "confederate", &inside, true),
        ["G", "GT"]
    );
}

#[test]
fn even_losses_no_second_loss_before_all_took_one_larger_first_trains_last() {
    let c = |id: &str, kind: &'static str, s| Casualty {
        id: id.into(),
        kind,
        strength: s,
    };
    let units = [
        c("small", "infantry", 2),
        c("big", "infantry", 6),
        c("train", "train", 1),
    ];
    assert_eq!(
        spread(&units, 1, LossPolicy::LargerFirst),
        [("small".into(), 0), ("big".into(), 1), ("train".into(), 0)]
    );
    assert_eq!(
        spread(&units, 5, LossPolicy::LargerFirst),
        [("small".into(), 2), ("big".into(), 3), ("train".into(), 0)]
    );
    assert_eq!(
        spread(&units, 9, LossPolicy::LargerFirst),
        [("small".into(), 2), ("big".into(), 6), ("train".into(), 1)],
        "the train only once the combat units are gone"
    );
    let mixed = [c("cav", "cavalry", 6), c("inf", "infantry", 3)];
    assert_eq!(
        spread(&mixed, 1, LossPolicy::CavalryLast),
        [("cav".into(), 0), ("inf".into(), 1)]
    );
}

#[test]
fn river_halves_rounding_down_tidal_river_only_at_a_ferry_rounding_up() {
    let m = map();
    let b = Board::new(&m);
    assert_eq!(b.crossing("0202", "0203"), Crossing::River);
    assert_eq!(b.crossing("0402", "0403"), Crossing::Closed);
    assert_eq!(b.crossing("0403", "0404"), Crossing::Ferry);
    assert_eq!(b.crossing("0101", "0102"), Crossing::Open);
    assert_eq!(halve(5, false), 2);
    assert_eq!(halve(5, true), 3);
}

#[test]
fn attack_across_a_tidal_river_without_ferry_is_refused_and_the_others_stand() {
    let st = state(
        &(leader("Lee", "union", "0402", 3, 2)
            + &unit("A", "union", "infantry", 5, "0402", "Lee")
            + &leader("Grant", "union", "0404", 3, 2)
            + &unit("B", "union", "infantry", 5, "0404", "Grant")
            + &unit("E", "confederate", "infantry", 4, "0403", "")),
    );
    let (ok, bad) = check(
        &st,
        "union",
        "attack 0403 by Lee chit 2\nattack 0403 by Grant chit 2\n",
    );
    assert_eq!(ok.len(), 1, "the attack at the ferry stands");
    assert!(bad[0].contains("without ferry"), "{bad:?}");
}

#[test]
fn command_a_corps_leader_his_roster_an_army_leader_his_corps_leaders_rosters() {
    let pieces = format!(
        "[[wbts.leader]]\nid = \"Mac\"\npower = \"union\"\nrank = \"army\"\ninitiative = 2\ncombat = 1\nhex = \"0101\"\n{}{}{}{}",
        "[[wbts.leader]]\nid = \"Sumner\"\npower = \"union\"\narmy = \"Mac\"\ninitiative = 2\ncombat = 1\nhex = \"0101\"\n",
        leader("Keyes", "union", "0101", 2, 1),
        unit("S1", "union", "infantry", 5, "0101", "Sumner"),
        unit("K1", "union", "infantry", 5, "0101", "Keyes"),
    ) + &unit("E", "confederate", "infantry", 4, "0102", "");
    let st = state(&pieces);
    let w = st.table::<WbtsState>().unwrap();
    let (mac, sumner, keyes) = (
        w.leader("Mac").unwrap(),
        w.leader("Sumner").unwrap(),
        w.leader("Keyes").unwrap(),
    );
    let (s1, k1) = (w.unit("S1").unwrap(), w.unit("K1").unwrap());
    assert!(w.commands(sumner, s1) && w.commands(mac, s1));
    assert!(
        !w.commands(keyes, s1),
        "a corps leader never takes another corps into his attack"
    );
    assert!(!w.commands(mac, k1), "Keyes serves under no army leader");
    let (_, bad) = check(&st, "union", "attack 0102 by Sumner chit 1 with S1 K1\n");
    assert!(bad[0].contains("not under Sumner's command"), "{bad:?}");
}

#[test]
fn roster_change_before_the_initiative_roll_and_no_return_until_the_next_strategic_segment() {
    let mut st = state(
        &(leader("Keyes", "union", "0101", 2, 1)
            + &leader("Porter", "union", "0101", 3, 3)
            + &unit("K1", "union", "infantry", 5, "0101", "Keyes")
            + &unit("E", "confederate", "infantry", 4, "0102", "")),
    );
    let (ok, bad) = check(
        &st,
        "union",
        "roster K1 Porter\nattack 0102 by Porter chit 2 with K1\n",
    );
    assert!(bad.is_empty(), "{bad:?}");
    assert_eq!(ok.len(), 2);
    let (_, bad) = check(
        &st,
        "union",
        "attack 0102 by Keyes chit 2\nroster K1 Porter\n",
    );
    assert!(
        bad.iter().any(|b| b.contains("before the attacks")),
        "{bad:?}"
    );
    st.table_mut::<WbtsState>()
        .unwrap()
        .detached
        .insert("K1".into(), "Keyes".into());
    let (_, bad) = check(&st, "union", "roster K1 Keyes\n");
    assert!(bad[0].contains("left Keyes' roster"), "{bad:?}");
}

#[test]
fn attack_from_one_or_two_adjacent_hexes_against_one_hex() {
    let st = state(&format!(
        "{}{}{}{}",
        leader("Lee", "union", "0101", 3, 2),
        unit("A", "union", "infantry", 5, "0101", "Lee"),
        unit("B", "union", "infantry", 5, "0104", "Lee"),
        unit("E", "confederate", "infantry", 4, "0102", ""),
    ));
    let (_, bad) = check(&st, "union", "attack 0102 by Lee chit 2 with A B\n");
    assert!(!bad.is_empty(), "0104 is not next to 0102 nor to 0101");
}

#[test]
fn chit_beyond_the_attacking_leaders_initiative_is_refused() {
    let st = state(
        &(leader("Lee", "union", "0101", 2, 2)
            + &unit("A", "union", "infantry", 5, "0101", "Lee")
            + &unit("E", "confederate", "infantry", 4, "0102", "")),
    );
    let (_, bad) = check(&st, "union", "attack 0102 by Lee chit 3\n");
    assert!(bad[0].contains("initiative 2"), "{bad:?}");
}

#[test]
fn attack_from_march_halves_non_cavalry_no_supply_chits_at_most_1() {
    let st = state(
        &(leader("Lee", "union", "0101", 4, 0)
            + &unit("A", "union", "infantry", 6, "0101", "Lee")
            + &unit("C", "union", "cavalry", 3, "0101", "Lee")
            + &leader("Jeb", "confederate", "0102", 4, 0)
            + &unit("E", "confederate", "infantry", 4, "0102", "Jeb")),
    );
    let (_, bad) = check(&st, "union", "march Lee 0102 with A C chit 2\n");
    assert!(bad[0].contains("chit '2'"), "{bad:?}");
    let (events, _) = run(st, &[], "march Lee 0102 with A C chit 1\n", 3);
    let all = events.join("\n");
    assert!(all.contains("strength 6 against 4"), "{all}");
    assert!(
        all.contains("non-cavalry from march halved (6 to 3)"),
        "{all}"
    );
    assert!(
        !all.contains("Combat Supply Table"),
        "no supply in an attack from march: {all}"
    );
    assert!(!all.contains("combat initiative"), "{all}");
    assert!(
        all.contains("Chits: union 1, confederate 1"),
        "the defender's max is capped at 1: {all}"
    );
}

#[test]
fn attack_from_march_is_never_against_a_fort() {
    let st = state(
        &(leader("Lee", "union", "0101", 4, 0)
            + &unit("A", "union", "infantry", 6, "0101", "Lee")
            + "[wbts.fort]\n\"0102\" = { kind = \"fort\", power = \"confederate\" }\n"
            + &unit("E", "confederate", "infantry", 4, "0102", "")
            + "inside = true\n"),
    );
    let (_, bad) = check(&st, "union", "march Lee 0102 with A chit 1\n");
    assert!(
        bad[0].contains("holds no enemy unit outside a fort"),
        "{bad:?}"
    );
}

#[test]
fn cavalry_evades_an_infantry_only_attack_from_march_by_the_sop() {
    let st = state(
        &(leader("Lee", "union", "0101", 4, 0)
            + &unit("A", "union", "infantry", 6, "0101", "Lee")
            + &unit("C", "confederate", "cavalry", 3, "0102", "")),
    );
    let (events, next) = run(st.clone(), &[], "march Lee 0102 with A chit 1\n", 3);
    let w = next.table::<WbtsState>().cloned().unwrap();
    assert_ne!(w.unit("C").unwrap().hex(), "0102", "{events:?}");
    assert_eq!(
        w.unit("A").unwrap().hex(),
        "0102",
        "the attacker enters the hex it cleared"
    );
    let (_, next) = run(
        st,
        &[("confederate", "evade@0102", "never")],
        "march Lee 0102 with A chit 1\n",
        3,
    );
    assert!(next
        .table::<WbtsState>()
        .cloned()
        .unwrap()
        .unit("C")
        .is_some_and(|c| c.hex() != "0101"));
}

#[test]
fn defender_in_rough_ignores_the_retreat_by_standing_order_or_not() {
    // 0302 is rough. Find a seed whose result makes the defender retreat, then see both settings.
    let st = state(&(leader("Lee", "union", "0301", 4, 0)
        + &unit("A", "union", "infantry", 20, "0301", "Lee")
        + &unit("E", "confederate", "infantry", 2, "0302", "")
        + "[[wbts.unit]]\nid = \"T\"\npower = \"union\"\nkind = \"train\"\nstrength = 1\nsupply = 50\nhex = \"0301\"\n"));
    let seed = (0..60u8)
        .find(|&s| {
            let (ev, _) = run(
                st.clone(),
                &[("confederate", "ignore-retreat@0302", "never")],
                "attack 0302 by Lee chit 4\n",
                s,
            );
            ev.iter().any(|e| e.starts_with("E retreats from 0302"))
        })
        .expect("some seed drives the defender back");
    let (ev, next) = run(st, &[], "attack 0302 by Lee chit 4\n", seed);
    assert!(
        ev.iter()
            .any(|e| e.contains("E in rough 0302 ignores the retreat")),
        "{ev:?}"
    );
    assert!(next
        .table::<WbtsState>()
        .cloned()
        .unwrap()
        .unit("E")
        .is_none_or(|e| e.hex() == "0302"));
}

#[test]
fn wbts_fort_siege_a_sortie_ignores_the_terrain_so_besiegers_in_rough_cannot_ignore_a_retreat() {
    // 0302 is rough and holds a union fort: Lee and A inside, the confederate B besieging it outside.
    let st = state(
        &(leader("Lee", "union", "0302", 4, 0)
            + &unit("A", "union", "infantry", 20, "0302", "Lee")
            + "inside = true
"
            + "[wbts.fort]\n\"0302\" = { kind = \"fortress\", power = \"union\" }\n"
            + &unit("B", "confederate", "infantry", 6, "0302", "")
            + "[[wbts.unit]]\nid = \"T\"\npower = \"union\"\nkind = \"train\"\nstrength = 1\nsupply = 50\nhex = \"0302\"\ninside = true\n"),
    );
    let orders = "attack 0302 by Lee chit 4\n";
    let defender_retreats = |ev: &[String]| {
        ev.iter().any(|e| {
            e.strip_prefix("Result ")
                .and_then(|r| r.split(' ').next())
                .is_some_and(|cell| cell.ends_with('r'))
        })
    };
    let seed = (0..60u8)
        .find(|&s| defender_retreats(&run(st.clone(), &[], orders, s).0))
        .expect("some seed drives the besiegers back");
    let (ev, next) = run(st, &[], orders, seed);
    assert!(
        !ev.iter()
            .any(|e| e.contains(" ignore the retreat, ") || e.contains(" ignores the retreat, ")),
        "the hex's rough terrain counts for nothing against a sortie: {ev:?}"
    );
    assert!(
        ev.iter().any(|e| e.contains("may not ignore the retreat")),
        "{ev:?}"
    );
    assert!(next
        .table::<WbtsState>()
        .cloned()
        .unwrap()
        .unit("B")
        .is_none_or(|b| b.hex() != "0302"));
}

#[test]
fn naval_transit_attack_at_an_enemy_fortified_hexside_unless_the_ship_stops() {
    let st = state(
        &("[wbts.fort]\n\"0204\" = { kind = \"fort\", power = \"confederate\" }\n".to_string()
            + "[[wbts.ship]]\nid = \"Galena\"\npower = \"union\"\nkind = \"gunboat\"\nstrength = 3\nhex = \"0105\"\n"),
    );
    let (ev, next) = run(st.clone(), &[], "sail Galena 0205 0305 stop\n", 1);
    assert!(ev[0].contains("stops in 0205"), "{ev:?}");
    assert_eq!(
        next.table::<WbtsState>()
            .cloned()
            .unwrap()
            .ship("Galena")
            .unwrap()
            .hex(),
        "0205"
    );
    let (ev, _) = run(st, &[], "sail Galena 0205 0305\n", 1);
    assert!(
        ev.iter().any(|e| e.contains("naval transit attack, die")),
        "{ev:?}"
    );
}

fn ship_hex(st: &State, id: &str) -> String {
    st.table::<WbtsState>()
        .unwrap()
        .ship(id)
        .map(|s| s.hex().to_string())
        .unwrap_or_default()
}

#[test]
fn wbts_naval_units_stop_where_enemy_warships_are() {
    // A gunboat and a transport sailing past an enemy gunboat's hex both end their move there.
    let st = state(
        &(ship("Galena", "union", "gunboat", 3, "0105")
            + &ship("Mary", "union", "transport", 0, "0105")
            + &ship("Teaser", "confederate", "gunboat", 1, "0305")),
    );
    let (ev, next) = run(
        st,
        &[],
        "sail Galena 0205 0305 0405 0505\nsail Mary 0205 0305 0405\n",
        1,
    );
    assert_eq!(ship_hex(&next, "Galena"), "0305", "{ev:?}");
    assert_eq!(ship_hex(&next, "Mary"), "0305", "{ev:?}");
    assert!(
        ev.iter().any(
            |e| e.contains("Galena stops in 0305, where the enemy's combat ships are (Teaser)")
        ),
        "{ev:?}"
    );
    // A gunboat with no naval strength left is no combat ship: it stops nobody.
    let st = state(
        &(ship("Galena", "union", "gunboat", 3, "0105")
            + &ship("Hulk", "confederate", "gunboat", 0, "0305")),
    );
    let (ev, next) = run(st, &[], "sail Galena 0205 0305 0405\n", 1);
    assert_eq!(ship_hex(&next, "Galena"), "0405", "{ev:?}");
}

#[test]
fn wbts_naval_units_move_through_enemy_transports_alone() {
    let st = state(
        &(ship("Galena", "union", "gunboat", 3, "0105")
            + &ship("Barge", "confederate", "transport", 0, "0305")),
    );
    let (ev, next) = run(st, &[], "sail Galena 0205 0305 0405 0505\n", 1);
    assert_eq!(ship_hex(&next, "Galena"), "0505", "{ev:?}");
    assert!(
        ev.iter().any(|e| e
            .contains("Galena sails through 0305, where the enemy has transports alone (Barge): it ignores them.")),
        "{ev:?}"
    );
    // The transports ignored are not attacked: they are still afloat.
    assert_eq!(ship_hex(&next, "Barge"), "0305");
    // With a gunboat beside them, the transports' hex stops the ship.
    let st = state(
        &(ship("Galena", "union", "gunboat", 3, "0105")
            + &ship("Barge", "confederate", "transport", 0, "0305")
            + &ship("Teaser", "confederate", "gunboat", 1, "0305")),
    );
    let (ev, next) = run(st, &[], "sail Galena 0205 0305 0405 0505\n", 1);
    assert_eq!(ship_hex(&next, "Galena"), "0305", "{ev:?}");
}

#[test]
fn storming_a_fort_from_its_hex_doubles_the_garrison_and_never_from_adjacent_hexes() {
    let pieces = leader("Lee", "union", "0102", 4, 0)
        + &unit("A", "union", "infantry", 8, "0102", "Lee")
        + "[wbts.fort]\n\"0102\" = { kind = \"fort\", power = \"confederate\" }\n"
        + &unit("E", "confederate", "infantry", 4, "0102", "")
        + "inside = true\n"
        + "[[wbts.unit]]\nid = \"T\"\npower = \"union\"\nkind = \"train\"\nstrength = 1\nsupply = 50\nhex = \"0102\"\n";
    let st = state(&pieces);
    let seed = (0..60u8)
        .find(|&s| {
            let (ev, _) = run(st.clone(), &[], "attack 0102 by Lee chit 2\n", s);
            ev.iter().any(|e| e.contains("a storm"))
        })
        .expect("Lee passes his initiative roll with some seed");
    let (ev, _) = run(st, &[], "attack 0102 by Lee chit 2\n", seed);
    let all = ev.join("\n");
    assert!(all.contains("strength 8 against 8"), "{all}");
    assert!(all.contains("doubled in its fort"), "{all}");
    let st = state(
        &(leader("Lee", "union", "0101", 4, 0)
            + &unit("A", "union", "infantry", 8, "0101", "Lee")
            + "[wbts.fort]\n\"0102\" = { kind = \"fort\", power = \"confederate\" }\n"
            + &unit("E", "confederate", "infantry", 4, "0102", "")
            + "inside = true\n"),
    );
    let (_, bad) = check(&st, "union", "attack 0102 by Lee chit 2\n");
    assert!(bad[0].contains("inside its fort"), "{bad:?}");
}

#[test]
fn the_defending_leader_chit_and_shift_come_from_standing_orders_scoped_by_leader_then_hex() {
    let st = state(&(leader("Lee", "union", "0101", 4, 0)
        + &unit("A", "union", "infantry", 6, "0101", "Lee")
        + "[[wbts.unit]]\nid = \"T\"\npower = \"union\"\nkind = \"train\"\nstrength = 1\nsupply = 50\nhex = \"0101\"\n"
        + &leader("Jeb", "confederate", "0102", 3, 3)
        + &leader("Bob", "confederate", "0102", 4, 1)
        + &unit("E", "confederate", "infantry", 6, "0102", "Jeb")));
    let standing = [
        ("confederate", "leader@0102", "Bob"),
        ("confederate", "chit@Bob", "1"),
        ("confederate", "chit@0102", "3"),
    ];
    let seed = (0..60u8)
        .find(|&s| {
            run(st.clone(), &standing, "attack 0102 by Lee chit 2\n", s)
                .0
                .iter()
                .any(|e| e.contains("Chits:"))
        })
        .unwrap();
    let (ev, _) = run(st, &standing, "attack 0102 by Lee chit 2\n", seed);
    let all = ev.join("\n");
    assert!(all.contains("Bob defends"), "{all}");
    assert!(
        all.contains("Chits: union 2, confederate 1 (by its standing order)"),
        "{all}"
    );
}

fn ship(id: &str, power: &str, kind: &str, strength: u32, hex: &str) -> String {
    format!("[[wbts.ship]]\nid = \"{id}\"\npower = \"{power}\"\nkind = \"{kind}\"\nstrength = {strength}\nhex = \"{hex}\"\n")
}

#[test]
fn naval_combat_all_gunboats_in_the_hex_attack_all_enemy_ships_and_an_unescorted_transport_is_lost()
{
    let st = state(
        &(ship("Galena", "union", "gunboat", 3, "0305")
            + &ship("Monitor", "union", "gunboat", 4, "0305")
            + &ship("Teaser", "confederate", "gunboat", 1, "0305")
            + &ship("Ferry", "confederate", "transport", 0, "0305")
            + &ship("Barge", "confederate", "transport", 0, "0405")),
    );
    let (ev, next) = run(st.clone(), &[], "engage 0305\n", 4);
    let all = ev.join("\n");
    assert!(
        all.contains("Galena, Monitor (7) against confederate's Teaser, Ferry (1)"),
        "{all}"
    );
    let w = next.table::<WbtsState>().cloned().unwrap();
    if w.ship("Teaser").is_none() {
        assert!(
            w.ship("Ferry").is_none(),
            "the escort sunk, the transport goes with it: {all}"
        );
    }
    let (ev, next) = run(st.clone(), &[], "sail Galena 0405\nengage 0405\n", 4);
    assert!(
        next.table::<WbtsState>()
            .cloned()
            .unwrap()
            .ship("Barge")
            .is_none(),
        "{ev:?}"
    );
    let (_, bad) = check(&st, "union", "engage 0105\n");
    assert!(bad[0].contains("no gunboat in 0105"), "{bad:?}");
}

#[test]
fn naval_attack_on_a_fort_doubles_the_garrison_and_any_attacker_loss_sinks_a_ship() {
    let st = state(
        &("[wbts.fort]\n\"0204\" = { kind = \"fort\", power = \"confederate\" }\n".to_string()
            + &unit("G", "confederate", "infantry", 3, "0204", "")
            + "inside = true\n"
            + &ship("Galena", "union", "gunboat", 3, "0405")
            + &ship("Monitor", "union", "gunboat", 4, "0405")),
    );
    let (_, bad) = check(&st, "union", "bombard 0204 with Galena\n");
    assert!(bad[0].contains("not next to 0204"), "{bad:?}");
    let orders = "sail Galena 0305\nsail Monitor 0305\nbombard 0204 with Galena Monitor\n";
    let mut sunk_on_loss = false;
    for seed in 0..12u8 {
        let (ev, next) = run(st.clone(), &[], orders, seed);
        let all = ev.join("\n");
        assert!(
            all.contains(
                "(7) attack the garrison of the fort in 0204 (3 SP, doubled in the fort: 6)"
            ),
            "{all}"
        );
        assert!(all.contains("the fort is not damaged"), "{all}");
        let w = next.table::<WbtsState>().cloned().unwrap();
        assert_eq!(w.fort.get("0204").unwrap().power, "confederate");
        assert!(
            w.unit("G").is_none_or(|g| g.hex() == "0204" && g.inside),
            "the garrison never retreats"
        );
        let cell = all
            .split("result ")
            .nth(1)
            .and_then(|r| r.split(';').next())
            .and_then(Cell::parse)
            .unwrap();
        assert_eq!(cell.attacker > 0, all.contains("sinks"), "{all}");
        sunk_on_loss |= cell.attacker > 0;
    }
    assert!(
        sunk_on_loss,
        "some seed gives the attacker a loss, and a ship sinks"
    );
}

#[test]
fn naval_support_of_a_ground_defence_adds_the_gunboats_and_any_loss_eliminates_them() {
    // A gunboat stacked with the defenders of 0204 (a port in play; the test map does not mark it).
    let st = state(&(leader("Lee", "union", "0203", 4, 0)
        + &unit("A", "union", "infantry", 12, "0203", "Lee")
        + "[[wbts.unit]]\nid = \"T\"\npower = \"union\"\nkind = \"train\"\nstrength = 1\nsupply = 50\nhex = \"0203\"\n"
        + &unit("E", "confederate", "infantry", 4, "0204", "")
        + &ship("Teaser", "confederate", "gunboat", 2, "0204")));
    let seed = (0..60u8)
        .find(|&s| {
            run(st.clone(), &[], "attack 0204 by Lee chit 3\n", s)
                .0
                .iter()
                .any(|e| e.contains("Chits:"))
        })
        .unwrap();
    let (ev, next) = run(st.clone(), &[], "attack 0204 by Lee chit 3\n", seed);
    let all = ev.join("\n");
    assert!(
        all.contains("Teaser support the defence of 0204 with 2 strength"),
        "{all}"
    );
    assert!(all.contains("strength 12 against 6"), "{all}");
    let w = next.table::<WbtsState>().cloned().unwrap();
    if all.contains("Teaser supported the defence and are eliminated") {
        assert!(w.ship("Teaser").is_none());
    }
    let (ev, _) = run(
        st,
        &[("confederate", "ships@0204", "stay-out")],
        "attack 0204 by Lee chit 3\n",
        seed,
    );
    assert!(ev.join("\n").contains("strength 12 against 4"), "{ev:?}");
}

#[test]
fn a_leader_left_alone_when_the_enemy_enters_falls_back() {
    let st = state(
        &(leader("Lee", "union", "0101", 4, 0)
            + &unit("A", "union", "infantry", 6, "0101", "Lee")
            + &leader("Jeb", "confederate", "0102", 2, 2)),
    );
    let (ev, next) = run(st, &[], "move Lee 0102 with A\n", 1);
    let w = next.table::<WbtsState>().cloned().unwrap();
    assert_ne!(w.leader("Jeb").unwrap().hex(), "0102", "{ev:?}");
    assert!(
        ev.iter().any(|e| e.contains("Jeb, alone in 0102")),
        "{ev:?}"
    );
}

#[test]
fn a_besieged_garrison_leaves_its_fort_only_by_attacking_a_sortie_or_a_march_out() {
    let st = state(
        &(leader("Lee", "union", "0102", 4, 0)
            + &unit("A", "union", "infantry", 6, "0102", "Lee")
            + "inside = true\n"
            + "[wbts.fort]\n\"0102\" = { kind = \"fort\", power = \"union\" }\n"
            + &unit("B", "confederate", "infantry", 4, "0102", "")
            + &unit("C", "confederate", "infantry", 2, "0101", "")),
    );
    let (_, bad) = check(&st, "union", "move Lee 0103 with A\n");
    assert!(bad[0].contains("besieged in 0102"), "{bad:?}");
    let (ok, bad) = check(&st, "union", "march Lee 0101 with A chit 1\n");
    assert!(
        bad.is_empty() && ok.len() == 1,
        "a besieged garrison may attack from march: {bad:?}"
    );
    let seed = (0..60u8)
        .find(|&s| {
            run(st.clone(), &[], "attack 0102 by Lee chit 2\n", s)
                .0
                .iter()
                .any(|e| e.contains("Chits:"))
        })
        .unwrap();
    let (ev, next) = run(st, &[], "attack 0102 by Lee chit 2\n", seed);
    let all = ev.join("\n");
    assert!(
        all.contains("a sortie of the garrison by Lee with A from 0102: strength 6 against 4"),
        "{all}"
    );
    assert!(
        next.table::<WbtsState>()
            .cloned()
            .unwrap()
            .unit("A")
            .is_none_or(|a| a.inside),
        "the garrison stays in its fort"
    );
}

#[test]
fn tables_of_the_wrong_shape_are_refused_with_the_table_named() {
    let bad = TABLES.replace(
        "[\"3r/0\", \"2r/0\", \"2r/1\", \"2/1\", \"1/1\", \"1/1r\", \"1/2r\"],",
        "[\"3r/0\", \"2x/0\"],",
    );
    let err = crate::rules::load_tables(&Source::new("tables.toml", bad), Tables::validate)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("[results]"), "{err}");
}

#[test]
fn state_check_names_unknown_hexes_rosters_and_enemies_standing_together() {
    let st = state(
        &(unit("A", "union", "infantry", 5, "0909", "Nobody")
            + &unit("B", "union", "infantry", 5, "0101", "")
            + &unit("C", "confederate", "infantry", 5, "0101", "")),
    );
    let m = map();
    let areas = crate::game::map::AnyMap::Hex(m).areas_view();
    let config: crate::game::config::GameConfig = toml::from_str(
        "game = \"t\"\ntitle = \"t\"\nruleset = \"wbts\"\n[calendar]\nstart = \"1862-04\"\nmonths_per_turn = 0\n[deadline]\ntime_zone = \"UTC\"\nfirst = \"2026-01-01T00:00\"\nevery_days = 2\n[[power]]\nid = \"union\"\nname = \"U\"\nplayers = [\"u@example.org\"]\npassword_hash = \"x\"\n[[power]]\nid = \"confederate\"\nname = \"C\"\nplayers = [\"c@example.org\"]\npassword_hash = \"x\"\n",
    )
    .unwrap();
    let diags: Vec<String> = super::state::check(&st, &config, &areas)
        .into_iter()
        .map(|d| d.message)
        .collect();
    assert!(
        diags.iter().any(|d| d.contains("unknown hex '0909'")),
        "{diags:?}"
    );
    assert!(
        diags.iter().any(|d| d.contains("roster of 'Nobody'")),
        "{diags:?}"
    );
    assert!(
        diags
            .iter()
            .any(|d| d.contains("enemy units stand together in 0101")),
        "{diags:?}"
    );
}

#[test]
fn a_fortress_triples_its_garrison_and_once_reduced_to_a_fort_doubles_only_10_points() {
    let pieces = |reduced: bool| {
        leader("Lee", "union", "0102", 4, 0)
            + &unit("A", "union", "infantry", 40, "0102", "Lee")
            + "[[wbts.unit]]\nid = \"T\"\npower = \"union\"\nkind = \"train\"\nstrength = 1\nsupply = 50\nhex = \"0102\"\n"
            + &format!("[wbts.fort]\n\"0102\" = {{ kind = \"fortress\", power = \"confederate\", reduced = {reduced} }}\n")
            + &unit("E", "confederate", "infantry", 12, "0102", "")
            + "inside = true\n"
    };
    for (reduced, expected) in [
        (false, "strength 40 against 36"),
        (true, "strength 40 against 22"),
    ] {
        let st = state(&pieces(reduced));
        let seed = (0..60u8)
            .find(|&s| {
                run(st.clone(), &[], "attack 0102 by Lee chit 2\n", s)
                    .0
                    .iter()
                    .any(|e| e.contains("Chits:"))
            })
            .unwrap();
        let (ev, _) = run(st, &[], "attack 0102 by Lee chit 2\n", seed);
        assert!(
            ev.join("\n").contains(expected),
            "reduced {reduced}: {ev:?}"
        );
    }
}

#[test]
fn wbts_roster_a_unit_may_not_return_to_the_roster_it_left_in_the_same_turn() {
    let st = state(
        &(leader("Keyes", "union", "0101", 2, 1)
            + &leader("Porter", "union", "0101", 3, 3)
            + &unit("K1", "union", "infantry", 5, "0101", "Keyes")),
    );
    // K1 leaves Keyes for Porter, then tries to go back to Keyes in the same file: refused.
    let (ok, bad) = check(&st, "union", "roster K1 Porter\nroster K1 Keyes\n");
    assert_eq!(ok.len(), 1, "the first line stands");
    assert!(
        bad[0].contains("K1 left Keyes' roster this game turn"),
        "{bad:?}"
    );
    let (events, next) = run(st, &[], "roster K1 Porter\n", 1);
    assert_eq!(
        next.table::<WbtsState>()
            .unwrap()
            .unit("K1")
            .unwrap()
            .leader
            .as_deref(),
        Some("Porter")
    );
    assert!(events
        .iter()
        .any(|e| e.contains("K1 leaves Keyes for Porter's roster")));
    // The resolver holds it too, whatever reaches it.
    let mut st = next;
    st.table_mut::<WbtsState>()
        .unwrap()
        .detached
        .insert("K1".into(), "Keyes".into());
    let (m, t) = (map(), tables());
    let sop = BTreeMap::new();
    let mut dice = DiceBox::new([1; 32]);
    let mut turn = Turn::new(Board::new(&m), &t, &sop, st, powers(), &mut dice).unwrap();
    turn.run(&[WbtsOrder::Roster {
        unit: "K1".into(),
        leader: "Keyes".into(),
    }])
    .unwrap();
    let (next, events) = turn.finish();
    assert_eq!(
        next.table::<WbtsState>()
            .unwrap()
            .unit("K1")
            .unwrap()
            .leader
            .as_deref(),
        Some("Porter")
    );
    assert!(events.iter().any(|e| e
        .text
        .contains("may not rejoin it before the next strategic segment")));
}

#[test]
fn wbts_defender_leader_the_standing_order_may_name_a_leader_who_commands_the_units_elsewhere() {
    // Jeb commands E from 0104, out of the attacked hex; Bob stands in it with E and commands no
    // one; Ned neither stands there nor commands E.
    let st = state(
        &(leader("Lee", "union", "0101", 4, 0)
            + &unit("A", "union", "infantry", 6, "0101", "Lee")
            + &leader("Jeb", "confederate", "0104", 3, 3)
            + &leader("Bob", "confederate", "0102", 2, 1)
            + &leader("Ned", "confederate", "0104", 4, 4)
            + &unit("E", "confederate", "infantry", 6, "0102", "Jeb")),
    );
    let attack = "attack 0102 by Lee chit 2\n";
    let (ev, _) = run(
        st.clone(),
        &[("confederate", "leader@0102", "Jeb")],
        attack,
        3,
    );
    let all = ev.join("\n");
    assert!(
        all.contains("Jeb defends (initiative 3, combat 3), by its standing order."),
        "{all}"
    );
    // Ned could command none of the units attacked: the best in the hex, Bob, by the SOP.
    let (ev, _) = run(st, &[("confederate", "leader@0102", "Ned")], attack, 3);
    let all = ev.join("\n");
    assert!(
        all.contains("the standing order names Ned, who is not in 0102 and could not command every combat unit attacked there; Bob defends (initiative 2, combat 1), by the SOP (the best in the hex)."),
        "{all}"
    );
}

/// WBTS ground/defender-leader: a leader commands the combat units; the defender's supply train in
/// the hex (on no leader's roster, a special unit of ground/losses) does not make the leader named
/// by standing order ineligible to command the defence.
#[test]
fn wbts_ground_defender_leader_a_train_in_the_hex_does_not_bar_the_leader_named() {
    let st = state(
        &(leader("Lee", "union", "0101", 4, 0)
            + &unit("A", "union", "infantry", 6, "0101", "Lee")
            + &leader("Jeb", "confederate", "0104", 3, 3)
            + &leader("Bob", "confederate", "0102", 2, 1)
            + &unit("E", "confederate", "infantry", 6, "0102", "Jeb")
            + "[[wbts.unit]]\nid = \"CT\"\npower = \"confederate\"\nkind = \"train\"\nstrength = 1\nsupply = 5\nhex = \"0102\"\n"),
    );
    let (ev, _) = run(
        st,
        &[("confederate", "leader@0102", "Jeb")],
        "attack 0102 by Lee chit 2\n",
        3,
    );
    let all = ev.join("\n");
    assert!(
        all.contains("Jeb defends (initiative 3, combat 3), by its standing order."),
        "{all}"
    );
    assert!(!all.contains("the standing order names Jeb"), "{all}");
}

/// WBTS ground/defender-leader: what the defender's standing order named, and that the SOP set it
/// aside, is his alone (`decide::Aside`): the attacker reads who defends, as for any defender.
#[test]
fn wbts_defender_leader_a_standing_order_set_aside_is_told_to_the_defender_alone() {
    let st = state(
        &(leader("Lee", "union", "0101", 4, 0)
            + &unit("A", "union", "infantry", 6, "0101", "Lee")
            + &leader("Jeb", "confederate", "0104", 3, 3)
            + &leader("Bob", "confederate", "0102", 2, 1)
            + &leader("Ned", "confederate", "0104", 4, 4)
            + &unit("E", "confederate", "infantry", 6, "0102", "Jeb")),
    );
    let (ev, _) = run_events(
        st,
        &[("confederate", "leader@0102", "Ned")],
        "attack 0102 by Lee chit 2\n",
        3,
    );
    let e = ev
        .iter()
        .find(|e| e.rule == super::rules::DEFENDING_LEADER.cite())
        .expect("the defending leader's event");
    assert_eq!(
        e.text_for("confederate"),
        "Combat 1 at 0102: the standing order names Ned, who is not in 0102 and could not command every combat unit attacked there; Bob defends (initiative 2, combat 1), by the SOP (the best in the hex)."
    );
    assert_eq!(
        e.text_for("union"),
        "Combat 1 at 0102: Bob defends (initiative 2, combat 1)."
    );
}

#[test]
fn wbts_naval_a_ship_with_a_retreat_result_runs_the_forts_guns_and_then_retreats() {
    let st = state(
        &("[wbts.fort]\n\"0204\" = { kind = \"fort\", power = \"confederate\" }\n".to_string()
            + &unit("G", "confederate", "infantry", 9, "0204", "")
            + "inside = true\n"
            + &ship("Galena", "union", "gunboat", 1, "0305")
            + &ship("Monitor", "union", "gunboat", 2, "0305")),
    );
    // Every retreat result of the table carries an attacker loss: it sinks Monitor, the stronger,
    // and Galena retreats.
    let orders = "bombard 0204 with Galena Monitor\n";
    let mut withdrew = false;
    for seed in 0..80u8 {
        let (ev, next) = run(st.clone(), &[], orders, seed);
        let all = ev.join("\n");
        if !all.contains("Galena must retreat") {
            continue;
        }
        let w = next.table::<WbtsState>().cloned().unwrap();
        match w.ship("Galena") {
            // Destroyed by the transit attack, or sunk by an attacker's loss.
            None => assert!(all.contains("it is destroyed"), "{all}"),
            Some(s) => {
                // It survived the naval transit attack: it retreats a hex, out of the fort's reach.
                assert!(all.contains("it withdraws to"), "{all}");
                assert_ne!(s.hex(), "0305", "{all}");
                assert!(!Board::new(&map()).adjacent(s.hex(), "0204"), "{all}");
                withdrew = true;
            }
        }
    }
    assert!(withdrew, "some seed gives a retreat the ship survives");
}

#[test]
fn wbts_combat_numbers_count_combats_fought_none_for_an_attack_the_cavalry_evaded() {
    // Lee marches on C, which evades; then Jeb attacks E: that is combat 1, its dice labelled n=1.
    let st = state(
        &(leader("Lee", "union", "0101", 4, 0)
            + &unit("A", "union", "infantry", 6, "0101", "Lee")
            + &unit("C", "confederate", "cavalry", 3, "0102", "")
            + &leader("Jeb", "union", "0401", 4, 0)
            + &unit("B", "union", "infantry", 6, "0401", "Jeb")
            + &unit("E", "confederate", "infantry", 2, "0402", "")),
    );
    let orders = "march Lee 0102 with A chit 1\nattack 0402 by Jeb chit 1\n";
    let seed = (0..60u8)
        .find(|&s| {
            run(st.clone(), &[], orders, s)
                .0
                .iter()
                .any(|e| e.contains("attack by Jeb"))
        })
        .unwrap();
    let (events, _) = run(st, &[], orders, seed);
    let all = events.join("\n");
    assert!(
        all.contains("C evades the infantry attack from march and retreats from 0102"),
        "{all}"
    );
    assert!(all.contains("Combat 1 at 0402, an attack by Jeb"), "{all}");
    assert!(!all.contains("Combat 2"), "{all}");
}

#[test]
fn wbts_naval_a_garrisons_losses_to_a_naval_attack_follow_its_standing_losses() {
    let st = state(
        &("[wbts.fort]\n\"0204\" = { kind = \"fort\", power = \"confederate\" }\n".to_string()
            + &unit("G", "confederate", "infantry", 3, "0204", "")
            + "inside = true\n"
            + &unit("H", "confederate", "cavalry", 4, "0204", "")
            + "inside = true\n"
            + &ship("Galena", "union", "gunboat", 9, "0305")
            + &ship("Monitor", "union", "gunboat", 9, "0305")),
    );
    let standing = [("confederate", "losses", "cavalry-last")];
    let orders = "bombard 0204 with Galena Monitor\n";
    let seed = (0..60u8)
        .find(|&s| {
            run(st.clone(), &standing, orders, s)
                .0
                .iter()
                .any(|e| e.contains("spreads its 1 SP of losses"))
        })
        .expect("some seed costs the garrison 1 SP");
    let (events, _) = run(st.clone(), &standing, orders, seed);
    let all = events.join("\n");
    assert!(
        all.contains("confederate spreads its 1 SP of losses evenly (cavalry-last, by its standing order): G -1."),
        "{all}"
    );
    // By the SOP (larger first) the larger unit, the cavalry, takes it.
    let (events, _) = run(st, &[], orders, seed);
    assert!(events
        .join("\n")
        .contains("(larger-first, by the SOP): H -1."));
}

#[test]
fn pbem_wbts_supply_order_trains_pay_first_then_army_hqs() {
    let st = state(&(leader("Lee", "union", "0101", 4, 0)
        + "rank = \"army\"\nsupply = 20\n"
        + &unit("A", "union", "infantry", 6, "0101", "Lee")
        + "[[wbts.unit]]\nid = \"T\"\npower = \"union\"\nkind = \"train\"\nstrength = 1\nsupply = 1\nhex = \"0101\"\n"
        + &unit("E", "confederate", "infantry", 6, "0102", "")));
    let (events, next) = (0..60u8)
        .map(|s| run(st.clone(), &[], "attack 0102 by Lee chit 4\n", s))
        .find(|(ev, _)| {
            ev.iter()
                .any(|e| e.contains("union (attacker) rolls") && e.contains("paid, from T 1, Lee "))
        })
        .expect("some seed costs the union more than the train holds");
    let all = events.join("\n");
    assert!(
        all.contains("(trains first, then army HQs: pbem wbts/supply-order)"),
        "{all}"
    );
    let w = next.table::<WbtsState>().unwrap();
    assert_eq!(w.unit("T").unwrap().supply, 0, "the train is emptied first");
    assert!(w.leader("Lee").unwrap().supply < 20);
}

/// The events' verbs agree with the units named: one gunboat "attacks" a fort's garrison (the
/// seed's naval attack on a fort, naval/fort), as two "attack" it (the test above).
#[test]
fn wbts_events_verb_agrees_with_one_unit_named() {
    let st = state(
        &("[wbts.fort]\n\"0204\" = { kind = \"fort\", power = \"confederate\" }\n".to_string()
            + &unit("G", "confederate", "infantry", 3, "0204", "")
            + "inside = true\n"
            + &ship("Monitor", "union", "gunboat", 4, "0305")),
    );
    let (ev, _) = run(st, &[], "bombard 0204 with Monitor\n", 1);
    let all = ev.join("\n");
    assert!(
        all.contains("Monitor (4) attacks the garrison of the fort in 0204"),
        "{all}"
    );
}

/// WBTS fort: a fortress (3x) is called a fortress in the events, a fort (2x) a fort: entering the
/// hex of an enemy garrison inside a fortress besieges "its fortress".
#[test]
fn wbts_fort_a_fortress_is_called_a_fortress_in_the_events() {
    for (kind, word) in [("fortress", "fortress"), ("fort", "fort")] {
        let st = state(
            &(leader("Lee", "union", "0304", 4, 0)
                + &unit("A", "union", "infantry", 5, "0304", "Lee")
                + &format!(
                    "[wbts.fort]\n\"0303\" = {{ kind = \"{kind}\", power = \"confederate\" }}\n"
                )
                + &unit("G", "confederate", "infantry", 4, "0303", "")
                + "inside = true\n"),
        );
        let (ev, _) = run(st, &[], "move A 0303\n", 1);
        let siege = format!("whose garrison (G) is inside its {word}: the {word} is besieged.");
        assert!(ev.iter().any(|e| e.ends_with(&siege)), "{siege}\n{ev:?}");
    }
}
