//! Tests named after PoG's theatre rules (11.1.10 to 11.1.15, 11.3, 12.1.9, 12.1.10), on the fixture
//! of test_fixture.rs with spaces renamed to the seed's names and `[theatres]` set per test.

use std::collections::BTreeMap;

use super::action::Action;
use super::state::{PogState, Unit, UnitKind};
use super::test_fixture::*;
use crate::engine::dice_box::DiceBox;
use crate::game::state::State;
use crate::rules::Ruleset;

fn control(state: &State, space: &str) -> String {
    state.control.get(space).cloned().unwrap_or_default()
}

fn pog_of(state: &State) -> &PogState {
    state.table::<PogState>().unwrap()
}

fn cites(c: &crate::rules::OrdersCheck, rule: &str) -> bool {
    c.diagnostics
        .iter()
        .any(|d| d.rule.map(|r| r.cite()).as_deref() == Some(rule))
}

/// A Russian corps (1-1-3) or army (3-3-3) of the allies.
fn ru(id: &str, kind: UnitKind, space: &str) -> Unit {
    let f = if kind == UnitKind::Army {
        [3, 3, 3]
    } else {
        [1, 1, 3]
    };
    unit(id, "allies", "ru", kind, f, f, space)
}

/// The fixture as the next action would find it: `state` with `power` to act.
fn then(fx: &Fixture, state: State, power: &str) -> Fixture {
    let mut next = Fixture::new();
    next.game.ruleset = Box::new(super::Pog {
        tables: fx.ruleset().tables.clone(),
        sop: BTreeMap::new(),
    });
    next.game.map = fx.game.map.clone();
    next.state = state;
    next.pog_mut().active = toml::Spanned::new(0..0, power.into());
    next
}

/// PoG 11.1.10: Reims is an MEF space; no unit moves or attacks into it until the MEF Beach Head
/// marker is there.
#[test]
fn pog_11_1_10_no_unit_enters_an_mef_space_without_the_beach_head_marker() {
    let mut fx = Fixture::new()
        .with(vec![fr_army("FR-1", "Chalons")])
        .allies_act()
        .theatres(|t| t.mef = vec!["Reims".into()]);
    let c = fx.check("allies", "move FR-1 Reims");
    assert_eq!(c.accepted.len(), 0, "{:?}", c.diagnostics);
    assert_eq!(
        c.diagnostics[0].message,
        "Reims is an MEF space without the MEF Beach Head marker"
    );
    assert!(cites(&c, "PoG 11.1.10"));
    let c = fx.check("allies", "attack Reims with FR-1");
    assert!(cites(&c, "PoG 11.1.10"), "{:?}", c.diagnostics);
    fx.pog_mut().mef_beachhead = Some("Chalons".into());
    let errors = fx.ruleset().check_state(&fx.game, &fx.state);
    assert_eq!(
        errors[0].message,
        "mef_beachhead 'Chalons' is not an MEF space"
    );
    fx.pog_mut().mef_beachhead = Some("Reims".into());
    assert!(fx.ruleset().check_state(&fx.game, &fx.state).is_empty());
    let c = fx.check("allies", "move FR-1 Reims");
    assert_eq!(c.accepted.len(), 1, "{:?}", c.diagnostics);
    let (next, _) = fx.resolve("move FR-1 Reims", &[]);
    assert_eq!(find(&next, "FR-1").unwrap().space(), "Reims");
}

/// PoG 11.1.11: a `war` order of the side tables.toml names brings Belgium into the war, as the
/// whole action; after it units enter Belgium.
#[test]
fn pog_11_1_11_a_war_order_brings_a_neutral_nation_into_the_war() {
    let mut fx = Fixture::new()
        .with(vec![ge_army("GE-1", "Aachen")])
        .theatres(|t| {
            t.entry.insert("belgium".into(), "central".into());
            t.entry.insert("italy".into(), "allies".into());
        });
    fx.pog_mut().neutral = vec!["belgium".into(), "italy".into()];
    let c = fx.check("central", "war belgium\nmove GE-1 Liege");
    assert_eq!(c.accepted.len(), 1, "{:?}", c.diagnostics);
    assert_eq!(
        c.diagnostics[0].message,
        "your order 'war belgium' plays a nation's entry into the war, which is the whole action"
    );
    let c = fx.check("central", "move GE-1 Koblenz\nwar belgium");
    assert_eq!(c.accepted.len(), 1, "{:?}", c.diagnostics);
    let c = fx.check("central", "war italy");
    assert_eq!(
        c.diagnostics[0].message,
        "italy enters the war by an event of Allied Powers"
    );
    let c = fx.check("central", "war holland");
    assert!(cites(&c, "PoG 11.1.11"), "{:?}", c.diagnostics);
    let (next, events) = fx.resolve("war Belgium", &[]);
    assert_eq!(pog_of(&next).neutral, vec!["italy".to_string()]);
    assert!(
        log(&events).contains(
            "[PoG 11.1.11] Central Powers bring belgium into the war: units of both sides may now enter it."
        ),
        "{}",
        log(&events)
    );
    let fx = then(&fx, next, "central");
    let c = fx.check("central", "move GE-1 Liege");
    assert_eq!(c.accepted.len(), 1, "{:?}", c.diagnostics);
    let c = fx.check("central", "war belgium");
    assert_eq!(c.diagnostics[0].message, "belgium is already in the war");
}

/// PoG 11.1.12: an Allied unit in Albania (the fixture's Belgium) traces supply to Taranto (its
/// Lille) though no one controls it, Italy being neutral; a French space beside Taranto does not.
#[test]
fn pog_11_1_12_albania_traces_supply_to_taranto_while_italy_is_neutral() {
    let mut fx = Fixture::renamed(&[("Lille", "Taranto"), ("belgium", "albania")]);
    for (space, p) in [
        ("Reims", "central"),
        ("Liege", "central"),
        ("Amiens", "central"),
    ] {
        fx.state.control.insert(space.into(), p.into());
    }
    fx.state.control.remove("Taranto");
    fx.pog_mut().neutral = vec!["italy".into()];
    let albanian = fx.game.map.find("Namur").unwrap();
    let sop = BTreeMap::new();
    let mut dice = DiceBox::new([0; 32]);
    let a = Action::new(
        &fx.game.map,
        &fx.ruleset().tables,
        &sop,
        fx.state.clone(),
        vec!["central".into(), "allies".into()],
        &mut dice,
    )
    .unwrap();
    assert!(a.supplied(albanian, "allies"));
    // Not Albanian: Namur as a Belgian space traces nowhere.
    let mut fx = Fixture::renamed(&[("Lille", "Taranto")]);
    for (space, p) in [
        ("Reims", "central"),
        ("Liege", "central"),
        ("Amiens", "central"),
    ] {
        fx.state.control.insert(space.into(), p.into());
    }
    fx.state.control.remove("Taranto");
    let mut dice = DiceBox::new([0; 32]);
    let a = Action::new(
        &fx.game.map,
        &fx.ruleset().tables,
        &sop,
        fx.state.clone(),
        vec!["central".into(), "allies".into()],
        &mut dice,
    )
    .unwrap();
    assert!(!a.supplied(fx.game.map.find("Namur").unwrap(), "allies"));
}

/// PoG 11.1.13: Persia (the fixture's Belgium) is closed while Turkey is neutral, though Persia is
/// not on the neutral list; Turkey's entry opens it and makes Ahwaz (Namur) Allied.
#[test]
fn pog_11_1_13_persia_opens_when_turkey_enters_the_war_and_ahwaz_becomes_allied() {
    let mut fx = Fixture::renamed(&[("belgium", "persia"), ("Namur", "Ahwaz")])
        .with(vec![ge_army("GE-1", "Aachen")])
        .theatres(|t| {
            t.entry.insert("turkey".into(), "central".into());
        });
    fx.pog_mut().neutral = vec!["turkey".into()];
    fx.state.control.insert("Ahwaz".into(), "central".into());
    let c = fx.check("central", "move GE-1 Liege");
    assert_eq!(
        c.diagnostics[0].message,
        "Liege is in persia, closed until turkey enters the war"
    );
    assert!(cites(&c, "PoG 11.1.13"));
    let (next, events) = fx.resolve("war turkey", &[]);
    assert_eq!(control(&next, "Ahwaz"), "allies", "{}", log(&events));
    assert!(
        log(&events).contains("[PoG 11.1.13] Ahwaz, though in persia, is Allied controlled"),
        "{}",
        log(&events)
    );
    let fx = then(&fx, next, "central");
    let c = fx.check("central", "move GE-1 Liege");
    assert_eq!(c.accepted.len(), 1, "{:?}", c.diagnostics);
}

fn ana(space: &str) -> Unit {
    let mut u = unit(
        "ANA",
        "allies",
        "ar",
        UnitKind::Corps,
        [1, 1, 3],
        [1, 1, 3],
        space,
    );
    u.ana = true;
    u
}

/// PoG 11.1.14: the ANA takes Aachen on the way and Koblenz at the end; Aachen is CP again the
/// moment it moves on, Koblenz when it leaves in the next action; a space a French corps took with
/// it stays Allied.
#[test]
fn pog_11_1_14_the_ana_holds_a_cp_space_only_while_it_stays() {
    let fx = Fixture::new().with(vec![ana("Liege")]).allies_act();
    let (next, events) = fx.resolve("move ANA Aachen+ Koblenz", &[]);
    let l = log(&events);
    assert_eq!(control(&next, "Aachen"), "central", "{l}");
    assert_eq!(control(&next, "Koblenz"), "allies", "{l}");
    assert!(
        l.contains("[PoG 11.1.14] ANA, the Arab Northern Army, leaves Aachen: it reverts to Central Powers control."),
        "{l}"
    );
    assert_eq!(
        pog_of(&next).ana_held,
        BTreeMap::from([("Koblenz".to_string(), "central".to_string())])
    );
    let back = then(&fx, next.clone(), "allies");
    let (after, _) = back.resolve("move ANA Aachen", &[]);
    assert_eq!(control(&after, "Koblenz"), "central");
    assert_eq!(control(&after, "Aachen"), "allies");
    // A French corps ends its move in Koblenz with the ANA: Koblenz is Allied for good.
    let mut with_french = then(&fx, next, "allies");
    with_french.pog_mut().units.push(fr_corps("FR-C1", "Liege"));
    let (joined, _) = with_french.resolve("move FR-C1 Aachen+ Koblenz", &[]);
    assert!(pog_of(&joined).ana_held.is_empty());
    let fx = then(&fx, joined, "allies");
    let (left, _) = fx.resolve("move ANA Aachen", &[]);
    assert_eq!(control(&left, "Koblenz"), "allies");
}

fn sn(space: &str) -> Unit {
    let mut u = unit(
        "TU-SN",
        "central",
        "tu",
        UnitKind::Corps,
        [1, 1, 3],
        [1, 1, 3],
        space,
    );
    u.sn = true;
    u
}

/// PoG 11.1.15: the SN Corps converts Reims on the way and Chalons where it ends; at the end of the
/// game turn (pbem's attrition), Reims, cut from supply, returns to the Allies, Chalons (where the
/// corps stands) does not.
#[test]
fn pog_11_1_15_spaces_the_sn_corps_converts_suffer_attrition_without_supply() {
    let mut fx = Fixture::new().with(vec![sn("Sedan")]);
    fx.state.control.insert("Sedan".into(), "central".into());
    let (next, events) = fx.resolve("move TU-SN Reims+ Chalons", &[]);
    assert_eq!(control(&next, "Reims"), "central", "{}", log(&events));
    assert_eq!(
        pog_of(&next).sn_converted.keys().collect::<Vec<_>>(),
        ["Chalons", "Reims"]
    );
    let mut fx = then(&fx, next, "central");
    fx.state.control.insert("Sedan".into(), "allies".into());
    fx.pog_mut().actions_played = 11;
    let (end, events) = fx.resolve("", &[]);
    let l = log(&events);
    assert_eq!(control(&end, "Reims"), "allies", "{l}");
    assert_eq!(control(&end, "Chalons"), "central", "{l}");
    assert!(
        l.contains("[PoG 11.1.15] Reims, converted by the Turk SN Corps, traces no supply: attrition returns it to Allied Powers."),
        "{l}"
    );
}

/// PoG 11.1.15: the Libya space converted by the SN Corps is left to normal attrition.
#[test]
fn pog_11_1_15_libya_is_left_to_normal_attrition() {
    let mut fx = Fixture::renamed(&[("Reims", "Libya")]).with(vec![sn("Sedan")]);
    fx.state.control.insert("Sedan".into(), "central".into());
    let (next, _) = fx.resolve("move TU-SN Libya+ Chalons", &[]);
    assert_eq!(control(&next, "Libya"), "central");
    assert_eq!(
        pog_of(&next).sn_converted.keys().collect::<Vec<_>>(),
        ["Chalons"]
    );
}

/// PoG 11.3.1: Nancy is on the Near East map: a French army without `near_east` neither moves nor
/// attacks into it; one with it (say FR OR) does, and so does any corps.
#[test]
fn pog_11_3_1_only_the_named_armies_enter_the_near_east() {
    let mut or = fr_army("FR-OR", "Verdun");
    or.near_east = true;
    let fx = Fixture::new()
        .with(vec![
            fr_army("FR-1", "Verdun"),
            or,
            fr_corps("FR-C1", "Verdun"),
        ])
        .allies_act()
        .theatres(|t| t.near_east = vec!["Nancy".into(), "Vosges".into()]);
    let c = fx.check("allies", "move FR-1 Nancy");
    assert_eq!(
        c.diagnostics[0].message,
        "FR-1 may not enter Nancy, on the Near East map"
    );
    assert!(cites(&c, "PoG 11.3.1"));
    let c = fx.check("allies", "move FR-OR Nancy\nmove FR-C1 Nancy");
    assert_eq!(c.accepted.len(), 2, "{:?}", c.diagnostics);
    let fx = Fixture::new()
        .with(vec![fr_army("FR-1", "Nancy"), ge_corps("GE-XX", "Vosges")])
        .allies_act()
        .theatres(|t| t.near_east = vec!["Vosges".into()]);
    let c = fx.check("allies", "attack Vosges with FR-1");
    assert!(cites(&c, "PoG 11.3.1"), "{:?}", c.diagnostics);
}

fn caucasus() -> Fixture {
    Fixture::renamed(&[("Reims", "To-Caucasus"), ("Chalons", "Poti")])
}

/// PoG 11.3.2: of the three Russian units in the To Caucasus box, one corps a game turn moves to
/// Poti; never the army; no second corps that turn, in the same action or a later one; none after
/// the Fall of the Tsar.
#[test]
fn pog_11_3_2_one_russian_corps_a_turn_between_to_caucasus_and_the_near_east() {
    let fx = caucasus()
        .with(vec![
            ru("RU-C1", UnitKind::Corps, "To-Caucasus"),
            ru("RU-C2", UnitKind::Corps, "To-Caucasus"),
            ru("RU-CAU", UnitKind::Army, "To-Caucasus"),
        ])
        .allies_act();
    let c = fx.check("allies", "move RU-CAU Poti");
    assert!(cites(&c, "PoG 11.3.2"), "{:?}", c.diagnostics);
    let c = fx.check("allies", "move RU-C1 Poti\nmove RU-C2 Poti");
    assert_eq!(c.accepted.len(), 1, "{:?}", c.diagnostics);
    assert!(cites(&c, "PoG 11.3.2"));
    // Elsewhere the box is an ordinary space.
    let c = fx.check("allies", "move RU-CAU Namur");
    assert_eq!(c.accepted.len(), 1, "{:?}", c.diagnostics);
    let (next, events) = fx.resolve("move RU-C1 Poti", &[]);
    assert_eq!(pog_of(&next).caucasus_crossed, Some(3));
    assert!(
        log(&events).contains("[PoG 11.3.2] RU-C1 moves between To-Caucasus and Poti: the one Russian corps of game turn 3 to do so."),
        "{}",
        log(&events)
    );
    let mut later = then(&fx, next, "allies");
    let c = later.check("allies", "move RU-C2 Poti");
    assert!(cites(&c, "PoG 11.3.2"), "{:?}", c.diagnostics);
    later.pog_mut().game_turn = 4;
    let c = later.check("allies", "move RU-C2 Poti");
    assert_eq!(c.accepted.len(), 1, "{:?}", c.diagnostics);
    later.pog_mut().fall_of_the_tsar = true;
    let c = later.check("allies", "move RU-C2 Poti");
    assert!(cites(&c, "PoG 11.3.2"), "{:?}", c.diagnostics);
}

const A_POTI: &str = "fire/combat=1/space=Poti/side=attacker";
const D_POTI: &str = "fire/combat=1/space=Poti/side=defender";

/// PoG 12.1.9: the Russian army in the To Caucasus box does not attack Poti; one corps does, using
/// the turn's passage, not two; a Russian corps beaten in Poti retreats through the box only while
/// the turn's passage is unused.
#[test]
fn pog_12_1_9_one_russian_corps_a_turn_attacks_or_retreats_between_to_caucasus_and_the_near_east() {
    let fx = caucasus()
        .with(vec![
            ru("RU-C1", UnitKind::Corps, "To-Caucasus"),
            ru("RU-C2", UnitKind::Corps, "To-Caucasus"),
            ru("RU-CAU", UnitKind::Army, "To-Caucasus"),
            ge_corps("GE-XX", "Poti"),
        ])
        .allies_act();
    let c = fx.check("allies", "attack Poti with RU-CAU");
    assert!(cites(&c, "PoG 12.1.9"), "{:?}", c.diagnostics);
    let c = fx.check("allies", "attack Poti with RU-C1 RU-C2");
    assert!(cites(&c, "PoG 12.1.9"), "{:?}", c.diagnostics);
    let (next, events) = fx.resolve("attack Poti with RU-C1", &[]);
    assert_eq!(pog_of(&next).caucasus_crossed, Some(3), "{}", log(&events));
    // The retreat: RU-C1 in Poti, Verdun and Paris held by the enemy, only the box behind it.
    let beaten = |crossed: Option<u32>| {
        let mut fx = caucasus().with(vec![
            unit(
                "RU-C1",
                "allies",
                "ru",
                UnitKind::Corps,
                [1, 3, 3],
                [1, 3, 3],
                "Poti",
            ),
            ge_army("GE-1", "Verdun"),
            ge_corps("GE-XX", "Paris"),
        ]);
        fx.pog_mut().caucasus_crossed = crossed;
        fx.resolve("attack Poti with GE-1", &[(A_POTI, 6), (D_POTI, 1)])
    };
    let (next, events) = beaten(None);
    let ru1 = find(&next, "RU-C1").map(|u| u.space().to_string());
    assert!(
        ru1.as_deref().is_some_and(|s| s != "Poti"),
        "{}",
        log(&events)
    );
    assert_eq!(pog_of(&next).caucasus_crossed, Some(3));
    assert!(log(&events).contains("[PoG 12.1.9] RU-C1 retreats between Poti and To-Caucasus"));
    let (next, events) = beaten(Some(3));
    assert!(find(&next, "RU-C1").is_none(), "{}", log(&events));
}

/// PoG 12.1.10 (Taranto): a British corps in Taranto (the fixture's Lille) does not attack Valona
/// (Namur) alone; an Italian corps does; the British one does with a British corps attacking from
/// Liege, in Albania.
#[test]
fn pog_12_1_10_across_taranto_valona_only_italians_attack_without_units_in_albania_or_greece() {
    let units = |nation: &str| {
        vec![
            unit(
                "X-1",
                "allies",
                nation,
                UnitKind::Corps,
                [1, 1, 3],
                [1, 1, 3],
                "Taranto",
            ),
            ge_corps("GE-XX", "Valona"),
            unit(
                "BR-2",
                "allies",
                "br",
                UnitKind::Corps,
                [1, 1, 3],
                [1, 1, 3],
                "Liege",
            ),
        ]
    };
    let map = [
        ("Lille", "Taranto"),
        ("Namur", "Valona"),
        ("belgium", "albania"),
    ];
    let fx = Fixture::renamed(&map).with(units("br")).allies_act();
    let (_, events) = fx.resolve("attack Valona with X-1", &[]);
    let l = log(&events);
    assert!(
        l.contains("[PoG 12.1.10] The attack on Valona is called off: units other than Italian ones attack across the Taranto-Valona line only together with friendly units in Albania or Greece (PoG 12.1.10)."),
        "{l}"
    );
    let (_, events) = fx.resolve("attack Valona with X-1 BR-2", &[]);
    assert!(
        log(&events).contains("Combat 1: X-1, BR-2"),
        "{}",
        log(&events)
    );
    let fx = Fixture::renamed(&map).with(units("it")).allies_act();
    let (_, events) = fx.resolve("attack Valona with X-1", &[]);
    assert!(log(&events).contains("Combat 1: X-1"), "{}", log(&events));
}
