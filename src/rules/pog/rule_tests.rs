//! Tests named after the PoG rules they prove (rules 10.1 to 12.3 of the seed), on the fixture of
//! test_fixture.rs. Dice are forced by choosing a turn seed under which the labels show given faces.

use std::collections::BTreeMap;

use super::action::Action;
use super::state::{FortStatus, PogState, Trench, UnitKind};
use super::test_fixture::*;
use crate::engine::dice_box::DiceBox;

fn trench(fx: &mut Fixture, space: &str, level: u32, power: &str) {
    fx.pog_mut().trench.insert(
        space.into(),
        Trench {
            level,
            power: power.into(),
        },
    );
}

fn control(state: &crate::game::state::State, space: &str) -> String {
    state.control.get(space).cloned().unwrap_or_default()
}

const A1: &str = "fire/combat=1/space=Sedan/side=attacker";
const D1: &str = "fire/combat=1/space=Sedan/side=defender";

// ---- 10.1 stacking ----

#[test]
fn pog_10_1_3_overstack_owner_eliminates_the_weakest_by_sop() {
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ge_army("GE-2", "Koblenz"),
        ge_corps("GE-XX", "Aachen"),
        ge_corps("GE-XXI", "Aachen"),
    ]);
    let (next, events) = fx.resolve("move GE-XX Koblenz\nmove GE-XXI Koblenz", &[]);
    assert!(find(&next, "GE-XX").is_none(), "{}", log(&events));
    assert!(find(&next, "GE-XXI").is_some());
    let l = log(&events);
    assert!(
        l.contains(
            "[PoG 10.1.3] Koblenz holds 4 units, 1 more than 3: Central Powers eliminate GE-XX."
        ),
        "{l}"
    );
    let e = events.iter().find(|e| e.kind == "overstack").unwrap();
    assert_eq!(
        e.decision.as_ref().unwrap().by,
        crate::decide::DecidedBy::Sop
    );
}

#[test]
fn pog_10_1_3_overstack_by_standing_order_reduced_first() {
    let mut fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ge_army("GE-2", "Koblenz"),
        ge_corps("GE-XX", "Aachen"),
        ge_corps("GE-XXI", "Aachen"),
    ]);
    fx.pog_mut().unit_mut("GE-2").unwrap().is_reduced = true;
    let fx = fx.standing("central", "overstack", "reduced-first");
    let (next, events) = fx.resolve("move GE-XX Koblenz\nmove GE-XXI Koblenz", &[]);
    assert!(find(&next, "GE-2").is_none(), "{}", log(&events));
    assert!(find(&next, "GE-XX").is_some());
}

#[test]
fn pog_10_1_5_opposing_units_never_stack_together() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Sedan"), fr_army("FR-1", "Sedan")]);
    let d = fx.game.check_state(&fx.state);
    assert!(
        d.iter()
            .any(|d| d.message.contains("enemy units stand together in 'sedan'")),
        "{d:?}"
    );
    let ok = Fixture::new().with(vec![ge_army("GE-1", "Sedan"), fr_army("FR-1", "Reims")]);
    assert!(ok.game.check_state(&ok.state).is_empty());
}

// ---- 11.1 movement ----

#[test]
fn pog_11_1_3_spaces_may_not_be_skipped() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Koblenz")]);
    let e = fx.errors("central", "move GE-1 Reims");
    assert!(
        e.contains("Reims is not next to Koblenz") && e.contains("PoG 11.1.3"),
        "{e}"
    );
    assert!(fx.errors("central", "move GE-1 Sedan Reims").is_empty());
}

#[test]
fn pog_11_1_3_dotted_lines_only_for_the_nations_marked() {
    let fx = Fixture::new()
        .with(vec![
            fr_corps("FR-C1", "Marsh"),
            super::test_fixture::unit(
                "BR-1",
                "allies",
                "br",
                UnitKind::Corps,
                [1, 1, 3],
                [1, 1, 3],
                "Marsh",
            ),
        ])
        .allies_act();
    assert!(fx.errors("allies", "move FR-C1 Lake").is_empty());
    let e = fx.errors("allies", "move BR-1 Lake");
    assert!(
        e.contains("may not cross the dotted line from Marsh to Lake"),
        "{e}"
    );
}

#[test]
fn pog_11_1_4_control_of_the_space_where_the_move_ends() {
    let fx = Fixture::new().with(vec![ge_corps("GE-XX", "Koblenz")]);
    let (next, events) = fx.resolve("move GE-XX Sedan+ Reims", &[]);
    assert_eq!(find(&next, "GE-XX").unwrap().space(), "Reims");
    assert_eq!(control(&next, "Reims"), "central", "{}", log(&events));
    assert_eq!(
        control(&next, "Sedan"),
        "central",
        "the extra MP took Sedan on the way"
    );
    let (next, _) = fx.resolve("move GE-XX Sedan Reims", &[]);
    assert_eq!(
        control(&next, "Sedan"),
        "allies",
        "moving through takes no control (11.1.4)"
    );
    assert_eq!(control(&next, "Reims"), "central");
}

#[test]
fn pog_11_1_4_no_control_of_a_space_with_an_intact_enemy_fort() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Metz")]);
    let (next, events) = fx.resolve("move GE-1 Verdun", &[]);
    assert_eq!(control(&next, "Verdun"), "allies", "{}", log(&events));
    assert_eq!(
        next.table::<PogState>().unwrap().fort.get("Verdun"),
        Some(&FortStatus::Besieged)
    );
    let e = fx.errors("central", "move GE-1 Verdun+");
    assert!(e.contains("PoG 11.1.4"), "{e}");
}

#[test]
fn pog_11_1_5_no_more_mp_than_the_mf() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Koblenz")]);
    let e = fx.errors("central", "move GE-1 Sedan Reims Chalons Paris");
    assert!(
        e.contains("GE-1 has 3 MF, this move costs 4 MP") && e.contains("PoG 11.1.5"),
        "{e}"
    );
    let e = fx.errors("central", "move GE-1 Sedan+ Reims Chalons");
    assert!(
        e.contains("this move costs 4 MP"),
        "the extra MP counts (11.1.4): {e}"
    );
    assert!(fx
        .errors("central", "move GE-1 Sedan Reims Chalons")
        .is_empty());
}

#[test]
fn pog_11_1_5_a_unit_entering_an_isolated_space_stops() {
    let fx = Fixture::new().with(vec![ge_corps("GE-XX", "Koblenz")]);
    let (next, events) = fx.resolve("move GE-XX Sedan Reims Chalons", &[]);
    assert_eq!(
        find(&next, "GE-XX").unwrap().space(),
        "Reims",
        "{}",
        log(&events)
    );
    assert!(log(&events).contains("GE-XX enters Reims, which is isolated, and stops there."));
    // Taking control of Sedan on the way keeps Reims in supply: the move goes on.
    let (next, _) = fx.resolve("move GE-XX Sedan+ Reims Chalons", &[]);
    assert_eq!(find(&next, "GE-XX").unwrap().space(), "Chalons");
}

#[test]
fn pog_11_1_4_clarification_out_of_supply_units_move_only_once_a_supply_path_opens() {
    // GE-XX in Reims traces no supply (Sedan and Namur are the Allies'): it may not move...
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Koblenz"), ge_corps("GE-XX", "Reims")]);
    let (next, events) = fx.resolve("move GE-XX Namur", &[]);
    assert_eq!(find(&next, "GE-XX").unwrap().space(), "Reims");
    let l = log(&events);
    assert!(
        l.contains(
            "[PoG 11.1.4] GE-XX is out of supply and no supply path has opened: it does not move."
        ),
        "{l}"
    );
    // ...unless an earlier move of the action opens one: GE-1 takes Sedan, Reims traces to Koblenz.
    let (next, events) = fx.resolve("move GE-1 Sedan\nmove GE-XX Namur", &[]);
    assert_eq!(
        find(&next, "GE-XX").unwrap().space(),
        "Namur",
        "{}",
        log(&events)
    );
}

#[test]
fn pog_11_1_7_never_into_a_space_with_enemy_units() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Koblenz"), fr_army("FR-1", "Sedan")]);
    let e = fx.errors("central", "move GE-1 Sedan");
    assert!(
        e.contains("Sedan holds enemy units") && e.contains("PoG 11.1.7"),
        "{e}"
    );
}

#[test]
fn pog_11_1_8_an_enemy_fort_is_entered_only_to_besiege_it() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Metz"), ge_corps("GE-XX", "Vosges")]);
    let e = fx.errors("central", "move GE-XX Nancy Verdun");
    assert!(
        e.contains("cannot besiege its fort") && e.contains("PoG 11.1.8"),
        "{e}"
    );
    let e = fx.errors("central", "move GE-1 Verdun Chalons");
    assert!(e.contains("Verdun has an intact enemy fort"), "{e}");
    assert!(fx.errors("central", "move GE-1 Verdun").is_empty());
    // A corps may besiege together with an army moving in the same action.
    assert!(fx
        .errors("central", "move GE-XX Nancy Verdun\nmove GE-1 Verdun")
        .is_empty());
}

#[test]
fn pog_11_1_9_no_central_move_ends_on_the_channel_ports_before_the_race_to_the_sea() {
    let mut fx = Fixture::new().with(vec![ge_corps("GE-XX", "Namur")]);
    let e = fx.errors("central", "move GE-XX Lille");
    assert!(
        e.contains("no move may end in Lille before the Race to the Sea")
            && e.contains("PoG 11.1.9"),
        "{e}"
    );
    assert!(
        fx.errors("central", "move GE-XX Lille+ Namur").is_empty(),
        "passing through, with control, is allowed"
    );
    fx.pog_mut().race_to_the_sea = true;
    assert!(fx.errors("central", "move GE-XX Lille").is_empty());
    fx.pog_mut().race_to_the_sea = false;
    fx.pog_mut().cp_war_status = 4;
    assert!(fx.errors("central", "move GE-XX Lille").is_empty());
}

#[test]
fn pog_11_1_16_the_bef_stays_in_its_nations() {
    let mut bef = super::test_fixture::unit(
        "BR-BEF",
        "allies",
        "br",
        UnitKind::Corps,
        [1, 1, 3],
        [1, 1, 3],
        "Verdun",
    );
    bef.bef = true;
    let mut fx = Fixture::new().with(vec![bef]).allies_act();
    let i = fx.game.map.find("Chalons").unwrap();
    fx.game.map.areas[i].nation = Some("luxembourg".into());
    let e = fx.errors("allies", "move BR-BEF Chalons");
    assert!(
        e.contains("the BEF may not go to Chalons") && e.contains("PoG 11.1.16"),
        "{e}"
    );
    assert!(fx.errors("allies", "move BR-BEF Sedan").is_empty());
}

// ---- 11.2 trenches ----

#[test]
fn pog_11_2_1_entrench_from_fall_1914_one_unit_per_space() {
    let mut fx = Fixture::new().with(vec![ge_army("GE-1", "Metz"), ge_corps("GE-XX", "Metz")]);
    let e = fx.errors("central", "entrench GE-1\nentrench GE-XX");
    assert!(
        e.contains("a unit in Metz already entrenches") && e.contains("PoG 11.2.1"),
        "{e}"
    );
    fx.pog_mut().game_turn = 2;
    let e = fx.errors("central", "entrench GE-1");
    assert!(e.contains("no entrenching before turn 3"), "{e}");
}

#[test]
fn pog_11_2_1_other_units_of_an_entrenching_space_move_freely_but_do_not_attack() {
    // pbem's reading: entrenching activates the space for movement (11.2.1's first sentence); its
    // other units move as they like, and none attacks from it (12.1.1: movement or attack).
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ge_corps("GE-XX", "Koblenz"),
        ge_corps("GE-XXI", "Koblenz"),
        fr_corps("FR-C1", "Sedan"),
    ]);
    let c = fx.check(
        "central",
        "entrench GE-1\nmove GE-XX Aachen\nattack Sedan with GE-XXI",
    );
    assert_eq!(c.accepted.len(), 2, "{:?}", c.diagnostics);
    assert_eq!(c.rejected(), 1);
    let e = fx.errors(
        "central",
        "entrench GE-1\nmove GE-XX Aachen\nattack Sedan with GE-XXI",
    );
    assert!(e.contains("PoG 12.1.1"), "{e}");
    let (next, events) = fx.resolve(
        "entrench GE-1\nmove GE-XX Aachen",
        &[("entrench/space=Koblenz", 1)],
    );
    assert_eq!(find(&next, "GE-XX").unwrap().space(), "Aachen");
    assert_eq!(
        next.table::<PogState>().unwrap().trench["Koblenz"].level,
        1,
        "{}",
        log(&events)
    );
}

#[test]
fn pog_11_2_2_1_entrenching_takes_a_die_at_most_the_lf() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Metz")]);
    let (next, events) = fx.resolve("entrench GE-1", &[("entrench/space=Metz", 3)]);
    let t = next
        .table::<PogState>()
        .unwrap()
        .trench
        .get("Metz")
        .cloned();
    assert_eq!(
        t,
        Some(Trench {
            level: 1,
            power: "central".into()
        }),
        "{}",
        log(&events)
    );
    let (next, events) = fx.resolve("entrench GE-1", &[("entrench/space=Metz", 4)]);
    assert!(
        next.table::<PogState>().unwrap().trench.is_empty(),
        "{}",
        log(&events)
    );
    assert!(log(&events).contains("fails to entrench Metz: a 4, above its LF 3"));
}

#[test]
fn pog_11_2_2_2_after_the_entrench_event_level_1_at_once_level_2_on_a_die() {
    let mut fx = Fixture::new().with(vec![ge_army("GE-1", "Metz")]);
    fx.pog_mut().entrench_played.push("central".into());
    let (next, events) = fx.resolve("entrench GE-1", &[]);
    assert_eq!(next.table::<PogState>().unwrap().trench["Metz"].level, 1);
    assert!(
        events.iter().all(|e| e.rolls.is_empty()),
        "no roll for level 1"
    );
    trench(&mut fx, "Metz", 1, "central");
    let (next, _) = fx.resolve("entrench GE-1", &[("entrench/space=Metz", 3)]);
    assert_eq!(next.table::<PogState>().unwrap().trench["Metz"].level, 2);
    let (next, _) = fx.resolve("entrench GE-1", &[("entrench/space=Metz", 5)]);
    assert_eq!(next.table::<PogState>().unwrap().trench["Metz"].level, 1);
}

#[test]
fn pog_11_2_3_level_2_needs_the_entrench_event() {
    let mut fx = Fixture::new().with(vec![ge_army("GE-1", "Metz")]);
    trench(&mut fx, "Metz", 1, "central");
    let e = fx.errors("central", "entrench GE-1");
    assert!(
        e.contains("already entrenched at level 1") && e.contains("needs the Entrench event"),
        "{e}"
    );
}

#[test]
fn pog_11_2_5_an_enemy_entering_removes_a_level_1_trench() {
    let mut fx = Fixture::new().with(vec![ge_corps("GE-XX", "Koblenz")]);
    trench(&mut fx, "Sedan", 1, "allies");
    let (next, events) = fx.resolve("move GE-XX Sedan", &[]);
    assert!(
        next.table::<PogState>().unwrap().trench.is_empty(),
        "{}",
        log(&events)
    );
    assert!(log(&events).contains("[PoG 11.2.5]"));
}

#[test]
fn pog_11_2_6_an_enemy_entering_turns_a_level_2_trench_into_his_level_1() {
    let mut fx = Fixture::new().with(vec![ge_corps("GE-XX", "Koblenz")]);
    trench(&mut fx, "Sedan", 2, "allies");
    let (next, _) = fx.resolve("move GE-XX Sedan", &[]);
    assert_eq!(
        next.table::<PogState>().unwrap().trench["Sedan"],
        Trench {
            level: 1,
            power: "central".into()
        }
    );
}

#[test]
fn pog_11_2_7_attrition_lowers_a_trench_except_in_an_intact_fort() {
    let mut fx = Fixture::new();
    trench(&mut fx, "Sedan", 2, "allies");
    trench(&mut fx, "Reims", 1, "allies");
    trench(&mut fx, "Verdun", 1, "allies");
    let pog = fx.ruleset();
    let sop = BTreeMap::new();
    let mut dice = DiceBox::new([0; 32]);
    let mut a = Action::new(
        &fx.game.map,
        &pog.tables,
        &sop,
        fx.state.clone(),
        vec!["central".into(), "allies".into()],
        &mut dice,
    )
    .unwrap();
    a.trench_attrition("Sedan");
    a.trench_attrition("Reims");
    a.trench_attrition("Verdun");
    assert_eq!(a.pog.trench["Sedan"].level, 1);
    assert!(!a.pog.trench.contains_key("Reims"));
    assert_eq!(
        a.pog.trench["Verdun"].level, 1,
        "an intact fort shelters its trench"
    );
}

#[test]
fn pog_11_2_7_a_besieged_fort_is_intact_and_shelters_its_trench() {
    let mut fx = Fixture::new();
    trench(&mut fx, "Verdun", 1, "allies");
    fx.pog_mut()
        .fort
        .insert("Verdun".into(), FortStatus::Besieged);
    trench(&mut fx, "Liege", 1, "allies");
    fx.pog_mut()
        .fort
        .insert("Liege".into(), FortStatus::Destroyed);
    let pog = fx.ruleset();
    let sop = BTreeMap::new();
    let mut dice = DiceBox::new([0; 32]);
    let mut a = Action::new(
        &fx.game.map,
        &pog.tables,
        &sop,
        fx.state.clone(),
        vec!["central".into(), "allies".into()],
        &mut dice,
    )
    .unwrap();
    a.trench_attrition("Verdun");
    a.trench_attrition("Liege");
    assert_eq!(
        a.pog.trench["Verdun"].level, 1,
        "a besieged fort is intact (11.1.8): the trench stands"
    );
    assert!(
        !a.pog.trench.contains_key("Liege"),
        "a destroyed fort shelters nothing"
    );
}

#[test]
fn pog_11_2_10_after_the_entrench_event_german_army_spaces_are_at_level_0() {
    let mut fx = Fixture::new().with(vec![ge_army("GE-1", "Metz"), ge_corps("GE-XX", "Koblenz")]);
    fx.pog_mut().entrench_played.push("central".into());
    let pog = fx.ruleset();
    let sop = BTreeMap::new();
    let mut dice = DiceBox::new([0; 32]);
    let a = Action::new(
        &fx.game.map,
        &pog.tables,
        &sop,
        fx.state.clone(),
        vec!["central".into(), "allies".into()],
        &mut dice,
    )
    .unwrap();
    assert_eq!(a.trench_level("Metz", "central"), Some(0));
    assert_eq!(
        a.trench_level("Koblenz", "central"),
        None,
        "a corps alone gives no level 0"
    );
    assert_eq!(
        a.trench_level("Verdun", "allies"),
        None,
        "allies have not played Entrench"
    );
}

#[test]
fn pog_11_2_11_after_the_allied_entrench_event_french_and_british_army_spaces_are_at_level_0() {
    let mut fx = Fixture::new().with(vec![
        fr_army("FR-1", "Reims"),
        fr_corps("FR-C1", "Amiens"),
        ge_army("GE-1", "Metz"),
    ]);
    fx.pog_mut().entrench_played.push("allies".into());
    let pog = fx.ruleset();
    let sop = BTreeMap::new();
    let mut dice = DiceBox::new([0; 32]);
    let a = Action::new(
        &fx.game.map,
        &pog.tables,
        &sop,
        fx.state.clone(),
        vec!["central".into(), "allies".into()],
        &mut dice,
    )
    .unwrap();
    assert_eq!(a.trench_level("Reims", "allies"), Some(0));
    assert_eq!(
        a.trench_level("Amiens", "allies"),
        None,
        "a corps alone gives no level 0"
    );
    assert_eq!(
        a.trench_level("Metz", "central"),
        None,
        "the Central Powers have not played Entrench"
    );
}

#[test]
fn pog_11_2_4_a_trench_stays_without_friendly_units_until_an_enemy_enters() {
    let mut fx = Fixture::new().with(vec![ge_corps("GE-XX", "Koblenz")]);
    trench(&mut fx, "Reims", 1, "allies");
    trench(&mut fx, "Sedan", 1, "allies");
    // Nobody of the Allies stands in Reims or Sedan; a German corps enters Sedan only.
    let (next, events) = fx.resolve("move GE-XX Sedan", &[]);
    let trenches = &next.table::<PogState>().unwrap().trench;
    assert!(trenches.contains_key("Reims"), "{}", log(&events));
    assert!(!trenches.contains_key("Sedan"), "{}", log(&events));
}

#[test]
fn pog_11_2_12_level_0_shifts_the_attacker_left_and_prevents_flank_attacks() {
    let mut fx = Fixture::new()
        .with(vec![
            ge_army("GE-1", "Metz"),
            fr_army("FR-1", "Verdun"),
            fr_army("FR-2", "Vosges"),
        ])
        .allies_act();
    fx.pog_mut().entrench_played.push("central".into());
    let want = [("fire/combat=1/space=Metz/side=attacker", 4)];
    let (_, events) = fx.resolve("attack Metz with FR-1 FR-2 flank Verdun", &want);
    let l = log(&events);
    // Strength 6: column 6, one left for level 0: column 4. The fort (3) adds to the defender (12.2.2).
    assert!(
        l.contains("Allied Powers (attacker) fire on the Army table, column 4 (trench level 0 -1)"),
        "{l}"
    );
    assert!(
        l.contains("No flank attack at Metz: Metz is entrenched"),
        "{l}"
    );
    assert!(l.contains("(strength 8)"), "army 5 and fort 3: {l}");
}

#[test]
fn pog_11_2_9_a_fort_alone_has_no_benefit_of_trenches() {
    let mut fx = Fixture::new().with(vec![ge_army("GE-1", "Metz")]);
    trench(&mut fx, "Verdun", 1, "allies");
    let (_, events) = fx.resolve("attack Verdun with GE-1", &[]);
    let l = log(&events);
    assert!(
        l.contains("Central Powers (attacker) fire on the Army table, column 4:"),
        "{l}"
    );
    assert!(
        l.contains("Allied Powers (defender) fire on the Corps/Fort table, column 3:"),
        "{l}"
    );
}

// ---- 12.1 combat, general ----

#[test]
fn pog_12_1_1_a_space_is_activated_for_movement_or_for_attack() {
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ge_army("GE-2", "Koblenz"),
        fr_corps("FR-C1", "Sedan"),
    ]);
    let e = fx.errors("central", "move GE-1 Aachen\nattack Sedan with GE-2");
    assert!(
        e.contains("Koblenz is activated for movement by your order 'move GE-1 Aachen'")
            && e.contains("PoG 12.1.1"),
        "{e}"
    );
}

#[test]
fn pog_12_1_2_units_that_retreated_fire_on_the_leftmost_column_and_die_on_any_loss() {
    // Chalons holds FR-C2 at the start (an attack on an empty space would come first, 12.2.1):
    // GE-3 destroys it without advancing, FR-1 retreats there from Sedan, and GE-4 strikes it.
    let fx = Fixture::new()
        .with(vec![
            ge_army("GE-1", "Koblenz"),
            ge_army("GE-3", "Reims"),
            ge_army("GE-4", "Reims"),
            fr_army("FR-1", "Sedan"),
            fr_corps("FR-C2", "Chalons"),
        ])
        .standing("allies", "retreat@Sedan", "Chalons");
    let (next, events) = fx.resolve(
        "attack Chalons with GE-3 no-advance\nattack Sedan with GE-1\nattack Chalons with GE-4 after",
        &[
            ("fire/combat=1/space=Chalons/side=attacker", 6),
            ("fire/combat=1/space=Chalons/side=defender", 1),
            ("fire/combat=2/space=Sedan/side=attacker", 6),
            ("fire/combat=2/space=Sedan/side=defender", 1),
        ],
    );
    let l = log(&events);
    assert!(
        l.contains("FR-1 retreats from Sedan to Chalons (by Verdun, Chalons)"),
        "{l}"
    );
    assert!(
        l.contains("(defender) fire on the Army table, column 1 (leftmost column (PoG 12.1.2))"),
        "{l}"
    );
    assert!(
        l.contains("[PoG 12.1.2] FR-1 retreated in this action and is eliminated"),
        "{l}"
    );
    assert!(find(&next, "FR-1").is_none());
}

#[test]
fn pog_12_1_6_a_unit_fights_once_per_action() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Koblenz"), fr_army("FR-1", "Sedan")]);
    let e = fx.errors("central", "attack Sedan with GE-1\nattack Aachen with GE-1");
    assert!(
        e.contains("GE-1 is already ordered in this action") && e.contains("PoG 12.1.6"),
        "{e}"
    );
}

#[test]
fn pog_12_1_7_a_cf_0_corps_attacks_adds_nothing_and_may_take_losses() {
    let zero = |id: &str, space: &str| {
        super::test_fixture::unit(
            id,
            "central",
            "ge",
            UnitKind::Corps,
            [0, 1, 3],
            [0, 1, 3],
            space,
        )
    };
    // Alone, it attacks (strength 0).
    let fx = Fixture::new().with(vec![zero("GE-Z", "Namur"), fr_corps("FR-C1", "Reims")]);
    assert!(fx.errors("central", "attack Reims with GE-Z").is_empty());
    let (_, events) = fx.resolve("attack Reims with GE-Z", &[]);
    assert!(
        log(&events).contains("(from Namur; strength 0) attacks Reims"),
        "{}",
        log(&events)
    );
    // With an army, it adds nothing, and the step losses may fall on it.
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Namur"),
        zero("GE-Z", "Namur"),
        fr_army("FR-1", "Reims"),
    ]);
    // FR-1 (strength 3) fires a 2: loss number 2, which GE-Z's two steps take whole (GE-1's LF 3
    // does not fit).
    let (next, events) = fx.resolve(
        "attack Reims with GE-1 GE-Z",
        &[
            ("fire/combat=1/space=Reims/side=attacker", 1),
            ("fire/combat=1/space=Reims/side=defender", 2),
        ],
    );
    let l = log(&events);
    assert!(l.contains("strength 5) attack Reims"), "{l}");
    let z = find(&next, "GE-Z");
    assert!(
        z.is_none_or(|u| u.is_reduced),
        "the CF 0 corps takes a step of the loss: {l}"
    );
}

#[test]
fn pog_12_1_8_only_participants_take_losses_and_advance() {
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Namur"),
        ge_army("GE-2", "Namur"),
        fr_corps("FR-C1", "Reims"),
    ]);
    // GE-1 attacks alone and wins; GE-2, idle in Namur, neither suffers nor advances.
    let (next, events) = fx.resolve(
        "attack Reims with GE-1",
        &[
            ("fire/combat=1/space=Reims/side=attacker", 6),
            ("fire/combat=1/space=Reims/side=defender", 6),
        ],
    );
    let l = log(&events);
    let ge2 = find(&next, "GE-2").unwrap();
    assert!(!ge2.is_reduced, "{l}");
    assert_eq!(ge2.space(), "Namur", "{l}");
    assert_eq!(find(&next, "GE-1").unwrap().space(), "Reims", "{l}");
}

#[test]
fn pog_12_1_9_attacks_across_dotted_lines_only_by_the_nations_marked() {
    let fx = Fixture::new()
        .with(vec![
            super::test_fixture::unit(
                "BR-1",
                "allies",
                "br",
                UnitKind::Corps,
                [1, 1, 3],
                [1, 1, 3],
                "Marsh",
            ),
            fr_corps("FR-C1", "Marsh"),
            ge_corps("GE-XX", "Lake"),
        ])
        .allies_act();
    let e = fx.errors("allies", "attack Lake with BR-1");
    assert!(
        e.contains("may not attack across the dotted line") && e.contains("PoG 12.1.9"),
        "{e}"
    );
    assert!(fx.errors("allies", "attack Lake with FR-C1").is_empty());
}

#[test]
fn pog_12_1_11_a_multinational_attack_needs_one_space_with_every_nation() {
    let ah = |id: &str, s: &str| {
        super::test_fixture::unit(
            id,
            "central",
            "ah",
            UnitKind::Corps,
            [2, 1, 3],
            [1, 1, 3],
            s,
        )
    };
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ah("AH-1", "Metz"),
        ah("AH-2", "Koblenz"),
        ge_army("GE-2", "Metz"),
        fr_army("FR-1", "Verdun"),
    ]);
    // Koblenz is not adjacent to Verdun; use Sedan's neighbours: Koblenz and Liege.
    let e = fx.errors("central", "attack Verdun with GE-2 AH-1");
    assert!(e.is_empty(), "Metz holds both nations: {e}");
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ah("AH-1", "Liege"),
        fr_army("FR-1", "Sedan"),
    ]);
    let e = fx.errors("central", "attack Sedan with GE-1 AH-1");
    assert!(
        e.contains("a combat of AH and GE needs one attacking space") && e.contains("PoG 12.1.11"),
        "{e}"
    );
}

// ---- 12.2 resolution ----

#[test]
fn pog_12_2_1_attacks_on_empty_spaces_come_first_and_are_won() {
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ge_corps("GE-XX", "Namur"),
        fr_corps("FR-C1", "Sedan"),
    ]);
    let (next, events) = fx.resolve("attack Sedan with GE-1\nattack Reims with GE-XX", &[]);
    let first = events.iter().find(|e| e.kind == "combat").unwrap();
    assert_eq!(first.area.as_deref(), Some("Reims"), "{}", log(&events));
    assert!(first.text.contains("holds no enemy unit") && first.rule == "PoG 12.2.1");
    assert_eq!(
        find(&next, "GE-XX").unwrap().space(),
        "Reims",
        "the attacker advances"
    );
    assert_eq!(control(&next, "Reims"), "central");
}

#[test]
fn pog_12_2_1_an_attack_on_an_empty_space_comes_first_even_when_marked_after() {
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ge_corps("GE-XX", "Namur"),
        fr_corps("FR-C1", "Sedan"),
    ]);
    let (_, events) = fx.resolve("attack Sedan with GE-1\nattack Reims with GE-XX after", &[]);
    let first = events.iter().find(|e| e.kind == "combat").unwrap();
    assert_eq!(first.area.as_deref(), Some("Reims"), "{}", log(&events));
    assert_eq!(first.rule, "PoG 12.2.1");
}

#[test]
fn pog_12_2_2_the_defender_adds_the_fort() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Metz"), fr_corps("FR-C1", "Verdun")]);
    let (_, events) = fx.resolve("attack Verdun with GE-1", &[]);
    assert!(
        log(&events).contains("FR-C1 and the fort (3) (strength 4)"),
        "{}",
        log(&events)
    );
}

#[test]
fn pog_12_2_7_the_army_table_with_an_army_the_corps_table_without() {
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ge_army("GE-2", "Koblenz"),
        fr_corps("FR-C1", "Sedan"),
    ]);
    let (next, events) = fx.resolve("attack Sedan with GE-1 GE-2", &[(A1, 4), (D1, 1)]);
    let l = log(&events);
    // Strength 10: column 9, one left for the forest: column 6; a 4 gives 4.
    assert!(l.contains("Central Powers (attacker) fire on the Army table, column 6 (forest -1): a 4 = 4: loss number 4."), "{l}");
    assert!(
        l.contains(
            "Allied Powers (defender) fire on the Corps/Fort table, column 1: a 1 = 1: loss number 0."
        ),
        "{l}"
    );
    assert!(
        l.contains("Central Powers win at Sedan: loss numbers 4 to 0."),
        "{l}"
    );
    assert!(find(&next, "FR-C1").is_none());
    assert_eq!(find(&next, "GE-1").unwrap().space(), "Sedan");
    assert_eq!(control(&next, "Sedan"), "central");
}

#[test]
fn pog_12_2_7_column_shifts_are_clamped_at_the_table_edges() {
    let t = tables();
    assert_eq!(t.fire.corps.shifted(1, -3), 0);
    assert_eq!(t.fire.army.shifted(7, 5), 8);
    assert_eq!(t.fire.army.column_of(40), 8);
    assert_eq!(t.fire.corps.column_of(0), 0);
    assert_eq!(t.fire.army.column_of(5), 3);
}

#[test]
fn pog_12_2_7_warsaw_example_army_table_from_loss_factor_4() {
    // One German army attacks two entrenched Russian corps defending a fort of 2 (the example's
    // Warsaw): strength 4, LF 4 with the fort; the Corps/Fort column 5 (4, one right for the trench),
    // or the Army column 4 without the favourable shift.
    let ru = |id: &str| {
        super::test_fixture::unit(
            id,
            "allies",
            "ru",
            UnitKind::Corps,
            [1, 1, 3],
            [1, 1, 3],
            "Verdun",
        )
    };
    let mut fx = Fixture::new().with(vec![ge_army("GE-1", "Metz"), ru("RU-1"), ru("RU-2")]);
    let i = fx.game.map.find("Verdun").unwrap();
    fx.game.map.areas[i].fort = Some(2);
    trench(&mut fx, "Verdun", 1, "allies");
    let (_, events) = fx.resolve("attack Verdun with GE-1", &[]);
    let l = log(&events);
    assert!(l.contains("[PoG 12.2.7] Allied Powers reach LF 4 and fire on the Army table, column 4, renouncing favourable shifts."), "{l}");
    assert!(
        l.contains("Allied Powers (defender) fire on the Army table, column 4 (renounced: trench level 1 +1): a "),
        "the log shows the renounced shift as renounced: {l}"
    );
    let fx = fx.standing("allies", "fire-table", "corps");
    let (_, events) = fx.resolve("attack Verdun with GE-1", &[]);
    let l = log(&events);
    assert!(
        l.contains(
            "Allied Powers (defender) fire on the Corps/Fort table, column 5 (trench level 1 +1)"
        ),
        "{l}"
    );
}

#[test]
fn pog_11_2_12_level_0_shifts_are_the_rule_s_own_and_tables_toml_may_not_change_them() {
    let mut t = tables();
    assert!(t.validate().is_empty());
    let zero = t.trench.iter_mut().find(|r| r.level == 0).unwrap();
    zero.defender = 1;
    let errors: Vec<String> = t.validate().into_iter().map(|d| d.message).collect();
    assert!(
        errors.iter().any(|e| e.contains("PoG 11.2.12")),
        "{errors:?}"
    );
}

#[test]
fn pog_12_2_7_the_army_table_option_renounces_the_favourable_shifts_and_keeps_the_others() {
    // A German corps of CF 3 and LF 4 attacks Sedan (forest, one column left) with Von Francois (one
    // column right): on the Corps/Fort table the two cancel (column 3). Taking the Army table it
    // renounces the card's shift, not the forest's: the Army table's 3 column, one left, is 2.
    let corps = super::test_fixture::unit(
        "GE-C4",
        "central",
        "ge",
        UnitKind::Corps,
        [3, 4, 4],
        [1, 1, 4],
        "Koblenz",
    );
    let mut fx = Fixture::new().with(vec![corps, fr_army("FR-1", "Sedan")]);
    fx.pog_mut()
        .cards
        .insert("central".into(), vec!["von-francois".into()]);
    let (_, events) = fx.resolve("attack Sedan with GE-C4 card von-francois table army", &[]);
    let l = log(&events);
    assert!(
        l.contains("Central Powers reach LF 4 and fire on the Army table, column 2, renouncing favourable shifts."),
        "{l}"
    );
    assert!(
        l.contains("Central Powers (attacker) fire on the Army table, column 2 (forest -1, renounced: Von Francois +1)"),
        "{l}"
    );
}

#[test]
fn pog_12_2_3_a_trench_negating_card_cancels_the_defender_s_trench() {
    let mut fx = Fixture::new()
        .with(vec![fr_army("FR-1", "Chalons"), ge_army("GE-1", "Reims")])
        .allies_act();
    trench(&mut fx, "Reims", 1, "central");
    fx.pog_mut()
        .cards
        .insert("allies".into(), vec!["tanks".into()]);
    let want = [
        ("fire/combat=1/space=Reims/side=attacker", 3),
        ("fire/combat=1/space=Reims/side=defender", 3),
    ];
    let (_, events) = fx.resolve("attack Reims with FR-1 card tanks", &want);
    let l = log(&events);
    assert!(l.contains("[PoG 12.2.3] Allied Powers play Tanks"), "{l}");
    assert!(
        !l.contains("trench level 1"),
        "no trench shift on either fire: {l}"
    );
    // Without the card, the trench shifts both fires.
    let (_, events) = fx.resolve("attack Reims with FR-1", &want);
    assert!(log(&events).contains("trench level 1"), "{}", log(&events));
}

#[test]
fn pog_12_2_8_modified_die_clamped() {
    let mut fx = Fixture::new()
        .with(vec![fr_army("FR-1", "Chalons"), ge_corps("GE-XX", "Reims")])
        .allies_act();
    fx.pog_mut()
        .cards
        .insert("allies".into(), vec!["barrage".into()]);
    let want = [
        ("fire/combat=1/space=Reims/side=attacker", 6),
        ("fire/combat=1/space=Reims/side=defender", 6),
    ];
    let (next, events) = fx.resolve("attack Reims with FR-1 card barrage", &want);
    let l = log(&events);
    assert!(l.contains("Allied Powers play Barrage (DRM +1)."), "{l}");
    assert!(l.contains("[PoG 12.2.8] Allied Powers (attacker) fire on the Army table, column 3: a 6 +1 = 6: loss number 3."), "{l}");
    assert!(find(&next, "GE-XX").is_none());
    assert_eq!(
        next.table::<PogState>().unwrap().cards["allies"],
        vec!["barrage".to_string()],
        "the winner keeps his card"
    );
}

#[test]
fn pog_12_2_9_losses_are_steps_that_fit_in_the_loss_number() {
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        fr_army("FR-1", "Sedan"),
        fr_corps("FR-C1", "Sedan"),
    ]);
    // Attacker: strength 5, column 4, forest: column 3; a 6: 3. Defender: 4, column 4; a 1: 2.
    // The cheapest steps (FR-C1 twice, 2) would leave 1 untaken: the losses required are applied as
    // fully as the steps allow, so FR-1 flips (3).
    let (next, events) = fx.resolve("attack Sedan with GE-1", &[(A1, 6), (D1, 1)]);
    let l = log(&events);
    assert!(
        l.contains("Allied Powers take a loss of 3 in Sedan: FR-1 reduced."),
        "{l}"
    );
    assert!(
        l.contains("Central Powers take a loss of 2 in Sedan: no step fits."),
        "{l}"
    );
    let defender_losses = l.find("Allied Powers take a loss").unwrap();
    assert!(
        defender_losses < l.find("Central Powers take a loss").unwrap(),
        "the defender first (12.2.9)"
    );
    assert!(find(&next, "FR-1").is_some());
}

#[test]
fn pog_12_2_9_no_loss_policy_takes_less_of_the_loss_number_than_the_steps_could() {
    // Two armies (strength 10, column 9, forest: column 6; a 5: 4) against an army (LF 3) and a
    // corps (LF 1, then 1), corps first. The corps' two steps (2) would leave 2 untaken; the corps'
    // flip and the army's take all 4, the corps still first.
    let fx = Fixture::new()
        .with(vec![
            ge_army("GE-1", "Koblenz"),
            ge_army("GE-2", "Koblenz"),
            fr_army("FR-1", "Sedan"),
            fr_corps("FR-C1", "Sedan"),
        ])
        .standing("allies", "losses", "corps-first");
    let (_, events) = fx.resolve("attack Sedan with GE-1 GE-2", &[(A1, 5), (D1, 1)]);
    let l = log(&events);
    assert!(
        l.contains("Allied Powers take a loss of 4 in Sedan: FR-C1 reduced, FR-1 reduced."),
        "{l}"
    );
}

#[test]
fn pog_12_2_10_a_tie_loses_for_both_and_losers_discard() {
    let mut fx = Fixture::new()
        .with(vec![fr_army("FR-1", "Chalons"), ge_corps("GE-XX", "Reims")])
        .allies_act();
    fx.pog_mut()
        .cards
        .insert("allies".into(), vec!["barrage".into()]);
    let want = [
        ("fire/combat=1/space=Reims/side=attacker", 1),
        ("fire/combat=1/space=Reims/side=defender", 6),
    ];
    let (next, events) = fx.resolve("attack Reims with FR-1 card barrage", &want);
    let l = log(&events);
    assert!(
        l.contains("Both sides lose at Reims: loss numbers 2 to 2."),
        "{l}"
    );
    assert!(
        l.contains("Allied Powers lost the combat and discard barrage."),
        "{l}"
    );
    assert!(next.table::<PogState>().unwrap().cards["allies"].is_empty());
    // GE-XX's two steps took the loss number 2: the defender is gone, and though the combat is a
    // tie the attacker may advance (12.2.12 asks only that the defender retreated or was
    // eliminated).
    assert!(find(&next, "GE-XX").is_none(), "{l}");
    assert_eq!(
        find(&next, "FR-1").unwrap().space(),
        "Reims",
        "an advance into the space the tie emptied"
    );
}

#[test]
fn pog_12_2_10_they_shall_not_pass_stays_face_up_on_a_tie() {
    let mut fx = Fixture::new().with(vec![ge_corps("GE-XX", "Namur"), fr_corps("FR-C1", "Reims")]);
    fx.pog_mut()
        .cards
        .insert("allies".into(), vec!["they-shall-not-pass".into()]);
    const A: &str = "fire/combat=1/space=Reims/side=attacker";
    const D: &str = "fire/combat=1/space=Reims/side=defender";
    // Strength 1 against 1 on the same column; the card's +1 makes a 2 the attacker's 3: a tie.
    let (next, events) = fx.resolve("attack Reims with GE-XX", &[(A, 3), (D, 2)]);
    let l = log(&events);
    assert!(l.contains("Both sides lose at Reims"), "{l}");
    assert!(
        l.contains(
            "[PoG 12.2.10] Allied Powers tied the combat and keep they-shall-not-pass face up"
        ),
        "{l}"
    );
    assert_eq!(
        next.table::<PogState>().unwrap().cards["allies"],
        vec!["they-shall-not-pass".to_string()]
    );
    // Beaten outright, the Allies discard it.
    let (next, events) = fx.resolve("attack Reims with GE-XX", &[(A, 6), (D, 1)]);
    let l = log(&events);
    assert!(
        l.contains("Allied Powers lost the combat and discard they-shall-not-pass."),
        "{l}"
    );
    assert!(next.table::<PogState>().unwrap().cards["allies"].is_empty());
}

#[test]
fn pog_12_2_11_the_defender_retreats_toward_supply() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Koblenz"), fr_army("FR-1", "Sedan")]);
    let (next, events) = fx.resolve("attack Sedan with GE-1", &[(A1, 6), (D1, 1)]);
    let fr = find(&next, "FR-1").unwrap();
    assert!(fr.is_reduced);
    assert!(
        ["Amiens", "Chalons"].contains(&fr.space()),
        "{}",
        log(&events)
    );
    let r = events.iter().find(|e| e.kind == "retreat").unwrap();
    assert_eq!(
        r.decision.as_ref().unwrap().by,
        crate::decide::DecidedBy::Roll,
        "three paths tie"
    );
    assert!(r.rolls[0].label == "retreat/combat=1/space=Sedan");
    assert_eq!(
        find(&next, "GE-1").unwrap().space(),
        "Sedan",
        "the attacker advances (12.2.12)"
    );
}

#[test]
fn pog_12_2_11_an_entrenched_defender_cancels_the_retreat_with_a_step_loss() {
    let mut fx = Fixture::new()
        .with(vec![
            ge_army("GE-1", "Koblenz"),
            fr_army("FR-1", "Sedan"),
            fr_corps("FR-C1", "Sedan"),
        ])
        .standing("allies", "cancel-retreat@Sedan", "always");
    trench(&mut fx, "Sedan", 1, "allies");
    let (next, events) = fx.resolve("attack Sedan with GE-1", &[(A1, 6), (D1, 1)]);
    let l = log(&events);
    assert!(
        l.contains(
            "Allied Powers hold Sedan and cancel the retreat with one more step loss: FR-C1 reduced."
        ),
        "{l}"
    );
    let fr = find(&next, "FR-1").unwrap();
    assert!(fr.is_reduced && fr.space() == "Sedan");
    assert_eq!(find(&next, "GE-1").unwrap().space(), "Koblenz");
}

#[test]
fn pog_12_2_12_reduced_units_advance_only_into_a_space_empty_at_the_start() {
    let mut fx = Fixture::new().with(vec![ge_army("GE-2", "Koblenz")]);
    fx.pog_mut().unit_mut("GE-2").unwrap().is_reduced = true;
    let (next, _) = fx.resolve("attack Sedan with GE-2", &[]);
    assert_eq!(find(&next, "GE-2").unwrap().space(), "Sedan");
    let (next, events) = fx.resolve("attack Sedan with GE-2 no-advance", &[]);
    assert_eq!(
        find(&next, "GE-2").unwrap().space(),
        "Koblenz",
        "{}",
        log(&events)
    );
}

#[test]
fn pog_12_2_12_the_attacker_advances_into_a_space_whose_defenders_were_all_eliminated_though_he_lost(
) {
    // A reduced corps of CF 6 in Reims fires on the Corps/Fort table's 6 column: a 6 is loss number
    // 3. GE-1 and GE-XX (strength 7) fire on the Army table's 6 column: a 1 is loss number 2, enough
    // to eliminate the corps (LF 1). The defender wins 3 to 2, and is gone; GE-1 flips (LF 3), and
    // GE-XX, still at full strength, may advance.
    let mut corps = unit(
        "FR-C9",
        "allies",
        "fr",
        UnitKind::Corps,
        [6, 1, 3],
        [6, 1, 3],
        "Reims",
    );
    corps.is_reduced = true;
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Namur"),
        ge_corps("GE-XX", "Namur"),
        corps,
    ]);
    let want = [
        ("fire/combat=1/space=Reims/side=attacker", 1),
        ("fire/combat=1/space=Reims/side=defender", 6),
    ];
    let (next, events) = fx.resolve("attack Reims with GE-1 GE-XX", &want);
    let l = log(&events);
    assert!(
        l.contains("Allied Powers win at Reims: loss numbers 3 to 2."),
        "{l}"
    );
    assert!(find(&next, "FR-C9").is_none(), "{l}");
    assert_eq!(find(&next, "GE-XX").unwrap().space(), "Reims", "{l}");
    assert!(
        l.contains("[PoG 12.2.12] Every defender in Reims was eliminated"),
        "{l}"
    );
}

// ---- 12.3 flank attacks ----

fn flank_fixture() -> Fixture {
    Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ge_army("GE-2", "Liege"),
        fr_corps("FR-C1", "Sedan"),
    ])
}

const F1: &str = "flank/combat=1/space=Sedan";

#[test]
fn pog_12_3_1_no_flank_attack_on_a_trench_a_mountain_or_a_swamp() {
    let mut fx = flank_fixture();
    trench(&mut fx, "Sedan", 1, "allies");
    let (_, events) = fx.resolve("attack Sedan with GE-1 GE-2 flank Koblenz", &[]);
    assert!(
        log(&events).contains("No flank attack at Sedan: Sedan is entrenched"),
        "{}",
        log(&events)
    );
    let mut fx = Fixture::new().with(vec![
        ge_army("GE-1", "Metz"),
        ge_army("GE-2", "Nancy"),
        fr_corps("FR-C1", "Vosges"),
    ]);
    // Nancy traces supply to Metz through Verdun.
    fx.state.control.insert("Nancy".into(), "central".into());
    fx.state.control.insert("Verdun".into(), "central".into());
    let (_, events) = fx.resolve("attack Vosges with GE-1 GE-2 flank Metz", &[]);
    assert!(
        log(&events).contains("Vosges is mountain"),
        "{}",
        log(&events)
    );
}

#[test]
fn pog_12_3_3_flank_attack_succeeds_on_4() {
    // Liege touches no other enemy space: +1; a 3 makes 4.
    let fx = flank_fixture();
    let (_, events) = fx.resolve("attack Sedan with GE-1 GE-2 flank Koblenz", &[(F1, 3)]);
    let l = log(&events);
    assert!(l.contains("[PoG 12.3.2] Flank attack on Sedan, pinned from Koblenz: a 3 +1 (Liege) = 4: it succeeds, the attacker fires first."), "{l}");
    let att = l.find("(attacker) fire").unwrap();
    let def_losses = l.find("Allied Powers take a loss").unwrap();
    let def = l.find("(defender) fire").unwrap();
    assert!(att < def_losses && def_losses < def, "{l}");
}

#[test]
fn pog_12_2_steps_4_and_5_the_flank_attack_comes_before_the_combat_cards() {
    // Step 4 (the flank attack) before step 5 (the attacker's combat cards, then the defender's).
    let mut fx = flank_fixture();
    fx.pog_mut()
        .cards
        .insert("central".into(), vec!["von-francois".into()]);
    fx.pog_mut()
        .cards
        .insert("allies".into(), vec!["they-shall-not-pass".into()]);
    let (_, events) = fx.resolve(
        "attack Sedan with GE-1 GE-2 flank Koblenz card von-francois",
        &[(F1, 3)],
    );
    let l = log(&events);
    let flank = l.find("Flank attack on Sedan").expect("a flank attack");
    let attacker_card = l
        .find("Central Powers play Von Francois")
        .expect("the attacker's card");
    let defender_card = l
        .find("Allied Powers play They Shall Not Pass")
        .expect("the defender's card");
    assert!(
        flank < attacker_card && attacker_card < defender_card,
        "{l}"
    );
}

#[test]
fn pog_12_3_3_flank_attack_fails_on_3() {
    // An enemy in Namur touches Liege: no +1; a 3 fails and the defender fires first.
    let fx = flank_fixture().with(vec![fr_corps("FR-C2", "Namur")]);
    let (_, events) = fx.resolve("attack Sedan with GE-1 GE-2 flank Koblenz", &[(F1, 3)]);
    let l = log(&events);
    assert!(l.contains("[PoG 12.3.3] Flank attack on Sedan, pinned from Koblenz: a 3 = 3: it fails, the defender fires first."), "{l}");
    assert!(l.find("(defender) fire").unwrap() < l.find("(attacker) fire").unwrap());
}

#[test]
fn pog_12_3_4_a_force_eliminated_before_it_fires_fires_on_the_leftmost_corps_column() {
    let fx = flank_fixture();
    let (next, events) = fx.resolve(
        "attack Sedan with GE-1 GE-2 flank Koblenz",
        &[(F1, 3), (A1, 6)],
    );
    let l = log(&events);
    assert!(find(&next, "FR-C1").is_none(), "{l}");
    assert!(l.contains("Allied Powers (defender) fire on the Corps/Fort table, column 0 (eliminated before it fired (PoG 12.3.4))"), "{l}");
}

// ---- PBEM play: one action per orders file ----

#[test]
fn pog_one_action_per_file_only_the_active_player_acts() {
    let fx = Fixture::new().with(vec![fr_army("FR-1", "Sedan")]);
    let e = fx.errors("allies", "move FR-1 Reims\nstanding losses corps-first");
    assert!(e.contains("it is Central Powers' action, not yours"), "{e}");
    assert_eq!(
        e.matches("error").count(),
        1,
        "the standing order stands: {e}"
    );
    assert!(fx.ruleset().expects_orders_of(&fx.state, "central"));
    assert!(!fx.ruleset().expects_orders_of(&fx.state, "allies"));
}

#[test]
fn pog_orders_print_back_as_they_parse() {
    let fx = Fixture::new().with(vec![
        ge_army("GE-1", "Koblenz"),
        ge_army("GE-2", "Liege"),
        ge_corps("GE-XX", "Metz"),
    ]);
    let mut fx = fx;
    fx.pog_mut()
        .cards
        .insert("central".into(), vec!["machine-guns".into()]);
    let text = "move GE-XX Verdun\nattack Sedan with GE-1 GE-2 flank Koblenz table army no-advance after\nstanding retreat Sedan Reims\nstanding losses armies-first";
    let c = fx.check("central", text);
    let printed: Vec<String> = c.accepted.iter().map(|(_, o)| o.clone()).collect();
    assert_eq!(printed.len(), 3, "{:?}", c.diagnostics);
    let again = fx.check("central", &printed.join("\n"));
    let reprinted: Vec<String> = again.accepted.iter().map(|(_, o)| o.clone()).collect();
    assert_eq!(printed, reprinted);
}

/// PoG 12.2.10 (exception): They Shall Not Pass, kept face up after a tie in game turn 3, stays
/// through the end of turn 3 and is discarded at the end of turn 4, the turn after it was played.
#[test]
fn pog_12_2_10_they_shall_not_pass_is_discarded_at_the_end_of_the_following_turn() {
    let mut fx = Fixture::new().with(vec![ge_corps("GE-XX", "Namur"), fr_corps("FR-C1", "Reims")]);
    fx.pog_mut()
        .cards
        .insert("allies".into(), vec!["they-shall-not-pass".into()]);
    const A: &str = "fire/combat=1/space=Reims/side=attacker";
    const D: &str = "fire/combat=1/space=Reims/side=defender";
    let (next, _) = fx.resolve("attack Reims with GE-XX", &[(A, 3), (D, 2)]);
    let kept = next.table::<PogState>().unwrap().clone();
    assert_eq!(kept.played_in_turn["they-shall-not-pass"], 3);
    // The last action of turn 3: the card stays, played this very turn.
    *fx.pog_mut() = kept;
    fx.pog_mut().actions_played = 11;
    let (next, events) = fx.resolve("", &[]);
    let p = next.table::<PogState>().unwrap().clone();
    assert_eq!(p.game_turn, 4);
    assert_eq!(p.cards["allies"], vec!["they-shall-not-pass".to_string()]);
    assert!(!log(&events).contains("discards"), "{}", log(&events));
    // The last action of turn 4: discarded, citing the rule.
    *fx.pog_mut() = p;
    fx.pog_mut().actions_played = 11;
    let (next, events) = fx.resolve("", &[]);
    let p = next.table::<PogState>().unwrap();
    assert_eq!(p.game_turn, 5);
    assert!(p.cards["allies"].is_empty(), "{:?}", p.cards);
    assert!(p.played_in_turn.is_empty());
    let l = log(&events);
    assert!(
        l.contains("[PoG 12.2.10] Allied Powers discard They Shall Not Pass at the end of game turn 4, the turn after the one it was played in."),
        "{l}"
    );
}

/// PoG 12.2.7, pbem's reading of "any additional shifts are ignored": the shifts of a fire (terrain,
/// trenches, cards: cumulative) are summed first and the sum is held at the table's edge, so shifts
/// of both signs cancel before the edge is met. At the Army table's rightmost column, +1 and -1 leave
/// the fire there (taken one at a time, the +1 would be ignored at the edge and the -1 move it left).
#[test]
fn pog_12_2_7_shifts_of_both_signs_are_summed_before_the_edge_is_met() {
    let t = tables();
    let last = t.fire.army.column_of(40);
    assert_eq!(t.fire.army.shifted(last, 1 - 1), last);
    assert_eq!(t.fire.army.shifted(last, 2 - 1), last);
    assert_eq!(t.fire.army.shifted(last, 1 - 2), last - 1);
    assert_eq!(t.fire.corps.shifted(0, -1 + 1), 0);
}

/// PoG 12.2.6: every attacking unit in Sinai: -3 DRM on the attacker's fire (the fixture's Namur
/// renamed Sinai); attacking with another space too, none.
#[test]
fn pog_12_2_6_minus_3_when_every_attacker_is_in_sinai() {
    let fx = Fixture::renamed(&[("Namur", "Sinai")]).with(vec![
        ge_corps("GE-XX", "Sinai"),
        ge_corps("GE-YY", "Liege"),
        fr_corps("FR-C1", "Reims"),
    ]);
    const A: &str = "fire/combat=1/space=Reims/side=attacker";
    const D: &str = "fire/combat=1/space=Reims/side=defender";
    let (_, events) = fx.resolve("attack Reims with GE-XX", &[(A, 5), (D, 1)]);
    let l = log(&events);
    assert!(
        l.contains(
            "[PoG 12.2.6] Every attacking unit is in Sinai: Central Powers fire with -3 DRM."
        ),
        "{l}"
    );
    assert!(
        l.contains("Central Powers (attacker) fire on the Corps/Fort table, column 2: a 5 -3 = 2"),
        "{l}"
    );
    let fx = Fixture::renamed(&[("Namur", "Sinai")]).with(vec![
        ge_corps("GE-XX", "Sinai"),
        ge_corps("GE-YY", "Sedan"),
        fr_corps("FR-C1", "Reims"),
    ]);
    let (_, events) = fx.resolve("attack Reims with GE-XX GE-YY", &[(A, 5), (D, 1)]);
    assert!(!log(&events).contains("PoG 12.2.6"), "{}", log(&events));
}

/// PoG 12.1.10: units in London (the fixture's Lille renamed) attack only in a combat with friendly
/// units in France, Holland or Belgium.
#[test]
fn pog_12_1_10_units_in_london_attack_only_with_units_on_the_continent() {
    let fx = Fixture::renamed(&[("Lille", "London")])
        .with(vec![
            fr_corps("FR-C1", "London"),
            fr_corps("FR-C2", "Reims"),
            ge_corps("GE-XX", "Namur"),
        ])
        .allies_act();
    let (_, events) = fx.resolve("attack Namur with FR-C1", &[]);
    let l = log(&events);
    assert!(
        l.contains("[PoG 12.1.10] The attack on Namur is called off: units in London attack only together with friendly units in France, Holland or Belgium (PoG 12.1.10)."),
        "{l}"
    );
    let (_, events) = fx.resolve("attack Namur with FR-C1 FR-C2", &[]);
    let l = log(&events);
    assert!(!l.contains("called off"), "{l}");
    assert!(l.contains("Combat 1: FR-C1, FR-C2"), "{l}");
}

/// PoG 11.1.11: with Belgium neutral, no unit moves into a Belgian space nor attacks one; once it is
/// off the list (in the war), units enter it freely.
#[test]
fn pog_11_1_11_no_unit_enters_a_neutral_nation() {
    let mut fx = Fixture::new().with(vec![ge_army("GE-1", "Aachen")]);
    fx.pog_mut().neutral = vec!["belgium".into()];
    let c = fx.check("central", "move GE-1 Liege");
    assert_eq!(c.accepted.len(), 0, "{:?}", c.diagnostics);
    let d = &c.diagnostics[0];
    assert_eq!(d.message, "Liege is in belgium, which is neutral");
    assert_eq!(d.rule.map(|r| r.cite()), Some("PoG 11.1.11".to_string()));
    let c = fx.check("central", "attack Liege with GE-1");
    assert_eq!(c.accepted.len(), 0, "{:?}", c.diagnostics);
    assert_eq!(
        c.diagnostics[0].rule.map(|r| r.cite()),
        Some("PoG 11.1.11".to_string())
    );
    fx.pog_mut().neutral.clear();
    let c = fx.check("central", "move GE-1 Liege");
    assert_eq!(c.accepted.len(), 1, "{:?}", c.diagnostics);
}

/// PoG 11.1.11 in a retreat: FR-1, beaten at Sedan with Reims and Verdun held by the enemy, has only
/// Belgium behind it; with Belgium neutral it has no retreat and is eliminated.
#[test]
fn pog_11_1_11_no_retreat_into_a_neutral_nation() {
    let units = || {
        vec![
            ge_army("GE-1", "Koblenz"),
            ge_corps("GE-XX", "Reims"),
            ge_corps("GE-YY", "Verdun"),
            fr_army("FR-1", "Sedan"),
        ]
    };
    let fx = Fixture::new().with(units());
    let (next, events) = fx.resolve("attack Sedan with GE-1", &[(A1, 6), (D1, 1)]);
    let fr = find(&next, "FR-1").unwrap();
    assert!(["Liege", "Namur"].contains(&fr.space()), "{}", log(&events));
    let mut fx = Fixture::new().with(units());
    fx.pog_mut().neutral = vec!["belgium".into()];
    let (next, events) = fx.resolve("attack Sedan with GE-1", &[(A1, 6), (D1, 1)]);
    assert!(find(&next, "FR-1").is_none(), "{}", log(&events));
}

/// PoG 11.1.12: Albania is never closed as neutral: a state that lists it changes nothing.
#[test]
fn pog_11_1_12_units_may_always_enter_albania() {
    let mut fx = Fixture::new();
    fx.pog_mut().neutral = vec!["albania".into(), "belgium".into()];
    assert!(!fx.pog().is_neutral(Some("Albania")));
    assert!(fx.pog().is_neutral(Some("Belgium")));
    assert!(!fx.pog().is_neutral(None));
}

#[test]
fn pog_the_other_player_becomes_active_and_the_game_turn_advances() {
    let mut fx = Fixture::new();
    fx.pog_mut().actions_played = 11;
    let (next, events) = fx.resolve("", &[]);
    let p = next.table::<PogState>().unwrap();
    assert_eq!(p.active(), "allies");
    assert_eq!((p.game_turn, p.actions_played), (4, 0), "{}", log(&events));
}

#[test]
fn pog_11_1_8_a_besieged_fort_is_passed_and_stays_the_enemy_s() {
    let mut fx = Fixture::new().with(vec![ge_army("GE-1", "Metz")]);
    fx.pog_mut()
        .fort
        .insert("Verdun".into(), FortStatus::Besieged);
    assert!(fx.errors("central", "move GE-1 Verdun Chalons").is_empty());
    let (next, events) = fx.resolve("move GE-1 Verdun", &[]);
    assert_eq!(control(&next, "Verdun"), "allies", "{}", log(&events));
    let (next, _) = fx.resolve("move GE-1 Verdun Chalons", &[]);
    assert_eq!(find(&next, "GE-1").unwrap().space(), "Chalons");
}

#[test]
fn pog_a_rejected_line_leaves_its_unit_and_space_free() {
    let fx = Fixture::new().with(vec![ge_army("GE-1", "Koblenz"), fr_army("FR-1", "Sedan")]);
    let c = fx.check("central", "move GE-1 Reims\nattack Sedan with GE-1");
    assert_eq!(c.rejected(), 1, "{:?}", c.diagnostics);
    assert_eq!(c.accepted.len(), 1);
    assert_eq!(c.accepted[0].1, "attack Sedan with GE-1");
}

#[test]
fn pog_12_2_5_a_card_is_used_once_per_action() {
    let mut fx = Fixture::new()
        .with(vec![
            fr_army("FR-1", "Chalons"),
            ge_corps("GE-XX", "Reims"),
            fr_army("FR-2", "Nancy"),
            ge_corps("GE-XXI", "Vosges"),
        ])
        .allies_act();
    fx.pog_mut()
        .cards
        .insert("allies".into(), vec!["barrage".into()]);
    let want = [
        ("fire/combat=1/space=Reims/side=attacker", 6),
        ("fire/combat=1/space=Reims/side=defender", 1),
    ];
    let (_, events) = fx.resolve(
        "attack Reims with FR-1 card barrage\nattack Vosges with FR-2 card barrage",
        &want,
    );
    let l = log(&events);
    assert_eq!(l.matches("Allied Powers play Barrage").count(), 1, "{l}");
    assert!(
        l.contains("Barrage was used in an earlier combat of this action: not again."),
        "{l}"
    );
}

#[test]
fn pog_the_report_tells_the_position_and_only_the_power_s_own_cards() {
    let mut fx = Fixture::new();
    fx.pog_mut()
        .cards
        .insert("allies".into(), vec!["barrage".into()]);
    fx.pog_mut()
        .cards
        .insert("central".into(), vec!["machine-guns".into()]);
    trench(&mut fx, "Verdun", 1, "allies");
    let lines = super::position::lines(&fx.ruleset().tables, &fx.state, "central", &|p| {
        p.to_string()
    })
    .join("\n");
    assert!(
        lines.contains("Game turn 3, 0 of 12 actions played; next to act: central."),
        "{lines}"
    );
    assert!(
        lines.contains("Trenches: Verdun level 1 (allies)."),
        "{lines}"
    );
    assert!(
        lines.contains("Your combat cards: machine-guns."),
        "{lines}"
    );
    assert!(!lines.contains("barrage"), "{lines}");
}

#[test]
fn pog_12_3_2_enemies_beyond_dotted_lines_are_ignored() {
    // Marsh touches an enemy in Lake only by a dotted line: it still gives +1.
    let mut fx = Fixture::new().with(vec![
        ge_army("GE-1", "Vosges"),
        ge_army("GE-2", "Marsh"),
        fr_corps("FR-C1", "Nancy"),
        fr_corps("FR-C2", "Lake"),
    ]);
    // Marsh is a supply source of central for the test, so that it is a supplied attacking space.
    let marsh = fx.game.map.find("Marsh").unwrap();
    fx.game.map.areas[marsh].supply = Some("central".into());
    fx.state.control.insert("Marsh".into(), "central".into());
    let (_, events) = fx.resolve(
        "attack Nancy with GE-1 GE-2 flank Vosges",
        &[("flank/combat=1/space=Nancy", 3)],
    );
    let l = log(&events);
    assert!(l.contains("a 3 +1 (Marsh) = 4: it succeeds"), "{l}");
}

#[test]
fn pog_12_3_4_a_card_played_still_counts_when_its_units_fall_first() {
    // The seed's example: British units with Hurricane Barrage fail a flank attack; the British are
    // eliminated by the defender's fire, and the card's DRM still counts for the French.
    // Reims holds both nations, so the attack may be multi-national (12.1.11).
    let br = super::test_fixture::unit(
        "BR-1",
        "allies",
        "br",
        UnitKind::Corps,
        [1, 1, 4],
        [1, 1, 4],
        "Reims",
    );
    let mut fx = Fixture::new()
        .with(vec![
            br,
            fr_corps("FR-C1", "Reims"),
            fr_army("FR-1", "Verdun"),
            ge_army("GE-1", "Sedan"),
        ])
        .allies_act();
    fx.pog_mut()
        .cards
        .insert("allies".into(), vec!["hurricane".into()]);
    let want = [(F1, 1), (D1, 6), (A1, 3)];
    let (next, events) = fx.resolve(
        "attack Sedan with BR-1 FR-C1 FR-1 flank Verdun card hurricane",
        &want,
    );
    let l = log(&events);
    assert!(l.contains("it fails, the defender fires first"), "{l}");
    assert!(find(&next, "BR-1").is_none(), "{l}");
    let gone = l.find("BR-1 eliminated").unwrap();
    let fire = l
        .find("Allied Powers (attacker) fire on the Army table, column 2 (forest -1): a 3 +1 = 4")
        .unwrap();
    assert!(gone < fire, "{l}");
}

#[test]
fn pog_12_3_1_a_flank_attack_needs_two_supplied_attacking_spaces() {
    // Liege, cut off (Aachen and Koblenz in allied hands), is not a supplied attacking space.
    let mut fx = flank_fixture();
    fx.state.control.insert("Aachen".into(), "allies".into());
    fx.state.control.insert("Liege".into(), "allies".into());
    let (_, events) = fx.resolve("attack Sedan with GE-1 GE-2 flank Koblenz", &[]);
    let l = log(&events);
    assert!(
        l.contains("No flank attack at Sedan: fewer than two attacking spaces are supplied"),
        "{l}"
    );
}

#[test]
fn pog_extreme_numbers_in_a_state_never_panic() {
    let big = |id: &str, power: &str, space: &str| {
        super::test_fixture::unit(
            id,
            power,
            "ge",
            UnitKind::Army,
            [u32::MAX, u32::MAX, 3],
            [u32::MAX, u32::MAX, 3],
            space,
        )
    };
    let mut fx = Fixture::new().with(vec![
        big("GE-1", "central", "Koblenz"),
        big("GE-2", "central", "Liege"),
        big("FR-1", "allies", "Sedan"),
    ]);
    fx.pog_mut().actions_played = u32::MAX;
    fx.pog_mut().game_turn = u32::MAX;
    let (next, events) = fx.resolve("attack Sedan with GE-1 GE-2 flank Koblenz", &[]);
    assert!(
        log(&events).contains("strength 4294967295"),
        "{}",
        log(&events)
    );
    assert_eq!(next.table::<PogState>().unwrap().game_turn, u32::MAX);
}

#[test]
fn pog_forecast_shows_the_fire_columns_and_hides_the_enemy_s_cards() {
    let mut fx = Fixture::new()
        .with(vec![
            fr_army("FR-1", "Chalons"),
            fr_corps("FR-C1", "Paris"),
            ge_corps("GE-XX", "Reims"),
        ])
        .allies_act()
        .standing("central", "defence-cards", "all");
    fx.pog_mut()
        .cards
        .insert("central".into(), vec!["machine-guns".into()]);
    let src = Fixture::orders("allies", "move FR-C1 Amiens\nattack Reims with FR-1");
    let lines = fx
        .game
        .ruleset
        .forecast(&fx.game, &fx.state, &src, "allies")
        .join("\n");
    assert!(lines.contains("FR-C1 moves Paris -> Amiens."), "{lines}");
    assert!(
        lines.contains("Attack on Reims: FR-1 (strength 3) against GE-XX (strength 2); you fire on the Army table, column 3, the defender on the Corps/Fort table, column 2."),
        "{lines}"
    );
    assert!(
        !lines.contains("Machine Guns"),
        "the enemy's cards are his secret: {lines}"
    );
    let other = fx.game.ruleset.forecast(
        &fx.game,
        &fx.state,
        &Fixture::orders("central", ""),
        "central",
    );
    assert_eq!(other, ["Turn 1 is the action of Allied Powers: only your standing orders count in it, and they stand until you change them."]);
}

// ---- the wording of the events ----

/// A verb after the units an event names agrees with their number: one unit "attacks",
/// "retreats", "advances"; several "attack", "retreat", "advance".
#[test]
fn pog_events_verb_agrees_with_one_unit_named() {
    let fx = Fixture::new()
        .with(vec![ge_army("GE-1", "Koblenz"), fr_army("FR-1", "Sedan")])
        .standing("allies", "retreat@Sedan", "Chalons");
    let (_, events) = fx.resolve("attack Sedan with GE-1", &[(A1, 6), (D1, 1)]);
    let l = log(&events);
    assert!(l.contains("Combat 1: GE-1 (from Koblenz; strength"), "{l}");
    assert!(l.contains(") attacks Sedan: FR-1 (strength"), "{l}");
    assert!(l.contains("FR-1 retreats from Sedan to Chalons"), "{l}");
    assert!(l.contains("GE-1 advances into Sedan."), "{l}");
}

#[test]
fn pog_events_verb_agrees_with_several_units_named() {
    let fx = Fixture::new()
        .with(vec![
            ge_army("GE-1", "Koblenz"),
            ge_army("GE-2", "Koblenz"),
            fr_army("FR-1", "Sedan"),
            fr_army("FR-2", "Sedan"),
        ])
        .standing("allies", "retreat@Sedan", "Chalons");
    let (_, events) = fx.resolve("attack Sedan with GE-1 GE-2", &[(A1, 6), (D1, 1)]);
    let l = log(&events);
    assert!(
        l.contains("Combat 1: GE-1, GE-2 (from Koblenz; strength"),
        "{l}"
    );
    assert!(l.contains(") attack Sedan: FR-1, FR-2 (strength"), "{l}");
    assert!(
        l.contains("FR-1, FR-2 retreat from Sedan to Chalons"),
        "{l}"
    );
    assert!(l.contains("GE-1, GE-2 advance into Sedan."), "{l}");
}
