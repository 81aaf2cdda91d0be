//! One test per rule of NGG 10.1-10.9 and per piece of pbem's own, on a small hex map held in memory
//! (flat-topped hexes, even columns half a hex lower, as `game::map::hex` numbers them). The dice are
//! forced by choosing the turn seed whose labelled rolls show the wanted faces.
//!
//! ```text
//!  columns 1..6, rows 1..5; french start west, russian east
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::decide::DecidedBy;
use crate::diag::Diagnostic;
use crate::engine::dice_box::DiceBox;
use crate::engine::event::Event;
use crate::game::config::GameConfig;
use crate::game::map::{Map, MapFile};
use crate::game::state::State;
use crate::game::Game;
use crate::rules::pog::test_fixture::seed_for;

use super::orders::{Context, NggOrder};
use super::state::{NggState, Unit, UnitKind};
use super::tables::Tables;
use super::Ngg;

const COLUMNS: u32 = 6;
const ROWS: u32 = 5;

const TABLES: &str = r#"
movement = 2
force_march = 1
[chits]
french = 6
russian = 4
[places]
Smolensk = "0402"
[combat]
columns = ["1:2", "1:1", "3:2", "2:1", "3:1"]
results = [
  ["ad", "ad", "ad", "nr", "nr"],
  ["ad", "ad", "nr", "nr", "dd"],
  ["ad", "nr", "nr", "dd", "dd"],
  ["nr", "nr", "dd", "dd", "dr"],
  ["nr", "dd", "dd", "dr", "dr"],
  ["dd", "dd", "dr", "dr", "dr"],
]
"#;

fn id(c: u32, r: u32) -> String {
    format!("{c:02}{r:02}")
}

/// The neighbours of a hex of the fixture's grid: flat-topped columns, the even ones lower.
fn neighbours(c: u32, r: u32) -> Vec<String> {
    let (c, r) = (c as i32, r as i32);
    let side = if c % 2 == 0 { [0, 1] } else { [-1, 0] };
    let mut v = vec![(c, r - 1), (c, r + 1)];
    for dc in [-1, 1] {
        for dr in side {
            v.push((c + dc, r + dr));
        }
    }
    v.into_iter()
        .filter(|&(c, r)| c >= 1 && r >= 1 && c <= COLUMNS as i32 && r <= ROWS as i32)
        .map(|(c, r)| id(c as u32, r as u32))
        .collect()
}

fn map() -> Map {
    let mut text = String::new();
    for c in 1..=COLUMNS {
        for r in 1..=ROWS {
            let adj: Vec<String> = neighbours(c, r)
                .iter()
                .map(|h| format!("\"{h}\""))
                .collect();
            text.push_str(&format!(
                "[[area]]\nid = \"{}\"\nkind = \"land\"\nxy = [{c}, {r}]\nadjacent = [{}]\n",
                id(c, r),
                adj.join(", ")
            ));
        }
    }
    let file: MapFile = toml::from_str(&text).expect("the fixture's map");
    Map::from_file(file, &["french", "russian"]).expect("the fixture's map checks")
}

fn config() -> GameConfig {
    toml::from_str(
        r#"
game = "ngg-test"
title = "NGG test fixture"
ruleset = "ngg"
[calendar]
start = "1812-08"
[deadline]
time_zone = "Europe/Paris"
first = "2026-12-06T20:00"
every_days = 2
[[power]]
id = "french"
name = "French"
players = ["french@example.org"]
password_hash = "x"
[[power]]
id = "russian"
name = "Russians"
players = ["russian@example.org"]
password_hash = "x"
"#,
    )
    .expect("the fixture's game.toml")
}

fn unit(id: &str, power: &str, kind: UnitKind, sp: u32, cr: u32, hex: &str) -> Unit {
    Unit {
        id: toml::Spanned::new(0..0, id.into()),
        power: toml::Spanned::new(0..0, power.into()),
        kind,
        sp,
        cr,
        hex: toml::Spanned::new(0..0, hex.into()),
        disrupted: false,
        force_march: false,
        forage: false,
    }
}

fn inf(id: &str, power: &str, sp: u32, hex: &str) -> Unit {
    unit(id, power, UnitKind::Infantry, sp, 0, hex)
}

fn cmd(id: &str, power: &str, cr: u32, hex: &str) -> Unit {
    unit(id, power, UnitKind::Commander, 0, cr, hex)
}

struct Fx {
    game: Game,
    state: State,
}

impl Fx {
    /// French attack first; no unit yet.
    fn new() -> Fx {
        let tables: Tables = toml::from_str(TABLES).expect("the fixture's tables");
        assert!(tables.validate().is_empty());
        let state = State::new(
            "ngg-test".into(),
            1,
            NggState {
                game_turn: 1,
                first: toml::Spanned::new(0..0, "french".into()),
                eliminated: Vec::new(),
                units: Vec::new(),
            },
        );
        Fx {
            game: Game {
                dir: PathBuf::from("ngg-test"),
                rules_dir: PathBuf::from("ngg-test"),
                config: config(),
                map: map(),
                geometry: None,
                kept_state: Default::default(),
                ruleset: Box::new(Ngg {
                    tables,
                    sop: BTreeMap::new(),
                }),
            },
            state,
        }
    }

    fn with(mut self, units: Vec<Unit>) -> Self {
        self.state
            .table_mut::<NggState>()
            .expect("ngg")
            .units
            .extend(units);
        self
    }

    fn standing(mut self, power: &str, key: &str, value: &str) -> Self {
        self.state
            .standing
            .entry(power.into())
            .or_default()
            .insert(key.into(), value.into());
        self
    }

    fn ngg(&self) -> &Ngg {
        self.game
            .ruleset
            .as_any()
            .downcast_ref()
            .expect("an NGG game")
    }

    /// Parses `body` as `power`'s order lines.
    fn parse(&self, power: &str, body: &str) -> (Vec<NggOrder>, Vec<Diagnostic>) {
        let lines = crate::orders::split(body);
        let cx = Context {
            map: &self.game.map,
            state: &self.state,
            ngg: self.state.table::<NggState>().expect("ngg"),
            tables: &self.ngg().tables,
        };
        let (ok, d) = super::orders::parse_all(&lines, power, &cx);
        (ok.into_iter().map(|o| o.value).collect(), d)
    }

    fn errors(&self, power: &str, body: &str) -> String {
        let (_, d) = self.parse(power, body);
        d.iter()
            .map(|d| format!("{} ({})", d.message, d.hint.clone().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Resolves the turn with the orders of each power, under a seed whose labelled d6 show `want`.
    fn resolve(&self, french: &str, russian: &str, want: &[(&str, u32)]) -> (State, Vec<Event>) {
        let mut parsed = BTreeMap::new();
        for (p, body) in [("french", french), ("russian", russian)] {
            let (ok, d) = self.parse(p, body);
            assert!(d.is_empty(), "{p}: {d:?}");
            parsed.insert(p.to_string(), ok);
        }
        let mut dice = DiceBox::new(seed_for(want));
        let r = self
            .ngg()
            .run(&self.game, &self.state, &parsed, &mut dice)
            .expect("the turn resolves");
        (r.next, r.events)
    }
}

fn log(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| format!("[{}] {}", e.rule, e.text))
        .collect::<Vec<_>>()
        .join("\n")
}

fn find<'a>(state: &'a State, id: &str) -> Option<&'a Unit> {
    state.table::<NggState>().and_then(|n| n.unit(id))
}

/// Two stacks face to face: the French (Ney, CR 2) in 0202, the Russians in 0302.
fn face_to_face() -> Fx {
    Fx::new().with(vec![
        cmd("FR-Ney", "french", 2, "0202"),
        inf("FR-III", "french", 6, "0202"),
        inf("RU-II", "russian", 4, "0302"),
    ])
}

#[test]
fn ngg_10_2_a_one_always_fails() {
    // CR 2 and 5 CCs: 1 + 5 + 2 = 8 would reach 7, but a 1 always fails.
    let fx = face_to_face();
    let (_, events) = fx.resolve(
        "attack 0202 0302 cc 5",
        "",
        &[("initiative/attack=1/stack=0202", 1)],
    );
    let l = log(&events);
    assert!(
        l.contains("rolls 1: a 1 fails whatever the CCs and the rating: the attack fails"),
        "{l}"
    );
    assert!(
        l.contains("[NGG 10.7] French failed to carry out an attack"),
        "{l}"
    );
    assert!(!events.iter().any(|e| e.kind == "combat"), "{l}");
}

#[test]
fn ngg_10_2_seven_reached_with_ccs_goes_ahead() {
    let fx = face_to_face();
    let (_, events) = fx.resolve(
        "attack 0202 0302 cc 2",
        "",
        &[("initiative/attack=1/stack=0202", 3)],
    );
    let l = log(&events);
    assert!(
        l.contains("rolls 3: 3 + 2 CC + CR 2 = 7 >= 7: the attack goes ahead"),
        "{l}"
    );
    assert!(events.iter().any(|e| e.kind == "combat"), "{l}");
}

#[test]
fn ngg_10_2_six_falls_short() {
    let fx = face_to_face();
    let (_, events) = fx.resolve(
        "attack 0202 0302 cc 2",
        "",
        &[("initiative/attack=1/stack=0202", 2)],
    );
    let l = log(&events);
    assert!(
        l.contains("2 + 2 CC + CR 2 = 6 < 7: the attack fails"),
        "{l}"
    );
}

#[test]
fn ngg_10_2_ccs_are_those_left_less_what_the_plan_keeps() {
    // 6 CCs; keep 3: the first attack asks 5 and gets 3.
    let fx = face_to_face();
    let (_, events) = fx.resolve(
        "keep 3\nattack 0202 0302 cc 5",
        "",
        &[("initiative/attack=1/stack=0202", 2)],
    );
    let l = log(&events);
    assert!(l.contains("French allocates 3 CC to attack 1 (5 by its order; 6 left, 3 kept for defence by its order); 3 left."), "{l}");
    assert!(l.contains("2 + 3 CC + CR 2 = 7 >= 7"), "{l}");
}

#[test]
fn ngg_10_2_ccs_come_from_the_standing_order_then_the_sop() {
    let fx = face_to_face().standing("french", "attack-cc", "1");
    let (_, events) = fx.resolve(
        "attack 0202 0302",
        "",
        &[("initiative/attack=1/stack=0202", 4)],
    );
    let e = events
        .iter()
        .find(|e| e.kind == "chits" && e.rule == "NGG 10.2")
        .expect("chits");
    assert_eq!(e.decision.as_ref().map(|d| d.by), Some(DecidedBy::Standing));
    assert!(e.text.contains("allocates 1 CC"), "{}", e.text);
    let fx = face_to_face();
    let (_, events) = fx.resolve(
        "attack 0202 0302",
        "",
        &[("initiative/attack=1/stack=0202", 4)],
    );
    let e = events
        .iter()
        .find(|e| e.kind == "chits" && e.rule == "NGG 10.2")
        .expect("chits");
    assert_eq!(e.decision.as_ref().map(|d| d.by), Some(DecidedBy::Sop));
    assert!(e.text.contains("allocates 0 CC"), "{}", e.text);
}

#[test]
fn ngg_10_1_a_disrupted_stack_may_not_attack() {
    let mut fx = face_to_face();
    fx.state.table_mut::<NggState>().unwrap().units[1].disrupted = true;
    let (_, events) = fx.resolve("attack 0202 0302 cc 2", "", &[]);
    let l = log(&events);
    assert!(
        l.contains("is void: FR-III in the stack is disrupted"),
        "{l}"
    );
    assert!(
        l.contains(
            "French declines to order any further attack (its attack plan has no entry left)"
        ),
        "{l}"
    );
}

#[test]
fn ngg_10_1_a_stack_under_a_forage_marker_may_not_attack_nor_support() {
    let fx = face_to_face().with(vec![inf("FR-IV", "french", 3, "0301")]);
    // 0301 touches 0302: it forages, so it neither attacks nor supports.
    let (_, events) = fx.resolve(
        "forage 0301\nattack 0301 0302\nattack 0202 0302 cc 3 support 0301",
        "",
        &[("initiative/attack=1/stack=0202", 5)],
    );
    let l = log(&events);
    assert!(
        l.contains("plan entry 1 (0301 on 0302) is void: the stack is under a forage marker"),
        "{l}"
    );
    assert!(
        l.contains("French calls no supporting stack to attack 1"),
        "{l}"
    );
}

#[test]
fn ngg_10_1_the_target_is_an_adjacent_hex() {
    let fx = face_to_face();
    let e = fx.errors("french", "attack 0202 0402");
    assert!(e.contains("0402 is not next to 0202"), "{e}");
}

#[test]
fn ngg_10_3_10_4_a_supporting_stack_fails_its_test() {
    // Two supporting stacks next to 0302: 0301 (no commander) and 0303 (Davout, CR 3).
    let fx = face_to_face().with(vec![
        inf("FR-IV", "french", 3, "0301"),
        inf("FR-I", "french", 5, "0303"),
        cmd("FR-Davout", "french", 3, "0303"),
    ]);
    let (_, events) = fx.resolve(
        "attack 0202 0302 cc 1 support all",
        "",
        &[
            ("initiative/attack=1/stack=0202", 5),
            ("support/attack=1/stack=0301", 5),
            ("support/attack=1/stack=0303", 3),
        ],
    );
    let l = log(&events);
    assert!(
        l.contains(
            "[NGG 10.3] French calls the stacks in 0301, 0303 to support attack 1 (by its order)"
        ),
        "{l}"
    );
    assert!(l.contains("[NGG 10.4] Attack 1: the supporting stack in 0301 rolls 5: 5 + 1 CC + CR 0 = 6 < 7: it fails its test and stays out"), "{l}");
    assert!(l.contains("[NGG 10.4] Attack 1: the supporting stack in 0303 rolls 3: 3 + 1 CC + CR 3 = 7 >= 7: it joins the attack"), "{l}");
    // 6 + 5 SP against 4: 11:4, the 2:1 column.
    assert!(l.contains("11 SP against 4 SP, column 2:1"), "{l}");
}

#[test]
fn ngg_10_5_10_6_the_defender_tests_each_supporting_stack_with_his_ccs() {
    let fx = face_to_face().with(vec![
        inf("RU-III", "russian", 3, "0402"),
        cmd("RU-Bagration", "russian", 2, "0402"),
        inf("RU-IV", "russian", 2, "0303"),
    ]);
    let (_, events) = fx.resolve(
        "attack 0202 0302 cc 2",
        "defend 0302 cc 2",
        &[
            ("initiative/attack=1/stack=0202", 6),
            ("defence/attack=1/stack=0402", 3),
            ("defence/attack=1/stack=0303", 2),
        ],
    );
    let l = log(&events);
    assert!(l.contains("[NGG 10.5] Russians calls the stacks in 0303, 0402 (Smolensk) to support 0302 (by the SOP).\n[NGG 10.6] Russians allocates 2 CC to the defence of 0302 (2 by its order); 2 left."), "{l}");
    assert!(l.contains("the defender's supporting stack in 0402 (Smolensk) rolls 3: 3 + 2 CC + CR 2 = 7 >= 7: it joins the defence"), "{l}");
    assert!(l.contains("the defender's supporting stack in 0303 rolls 2: 2 + 2 CC + CR 0 = 4 < 7: it fails its test"), "{l}");
    // The defending stack itself always fights: 4 + 3.
    assert!(l.contains("6 SP against 7 SP"), "{l}");
}

#[test]
fn ngg_10_6_a_defence_never_spends_the_reserve_of_its_standing_order() {
    let fx = face_to_face()
        .with(vec![inf("RU-III", "russian", 3, "0402")])
        .standing("russian", "defence-cc@0302", "3")
        .standing("russian", "defence-reserve", "2");
    let (_, events) = fx.resolve(
        "attack 0202 0302 cc 2",
        "",
        &[("initiative/attack=1/stack=0202", 6)],
    );
    let l = log(&events);
    assert!(l.contains("allocates 2 CC to the defence of 0302 (3 by its standing order; 4 left, the last 2 never spent by its standing order); 2 left."), "{l}");
}

#[test]
fn ngg_10_7_a_player_who_fails_is_done_and_the_other_goes_on() {
    // The French fail at once; the Russians attack twice from two stacks.
    let fx = face_to_face().with(vec![
        inf("RU-III", "russian", 3, "0303"),
        cmd("RU-Bagration", "russian", 3, "0303"),
    ]);
    let (_, events) = fx.resolve(
        "attack 0202 0302 cc 0\nattack 0202 0302 cc 3",
        "attack 0302 0202 cc 2 support none\nattack 0303 0202 cc 2 support none",
        &[
            ("initiative/attack=1/stack=0202", 1),
            ("initiative/attack=2/stack=0302", 5),
            ("initiative/attack=3/stack=0303", 4),
            ("combat/attack=2/hex=0202", 3),
            ("combat/attack=3/hex=0202", 3),
        ],
    );
    let l = log(&events);
    assert!(
        l.contains(
            "[NGG 10.7] French failed to carry out an attack: no further opportunity this turn."
        ),
        "{l}"
    );
    assert!(
        l.contains("[NGG 10.7] French is done for the turn; Russians may go on"),
        "{l}"
    );
    assert!(l.contains("Attack 3: Russians orders"), "{l}");
    // The French plan's second entry never comes: the French are done.
    assert!(!l.contains("Attack 2: French"), "{l}");
    assert!(
        l.contains(
            "Russians declines to order any further attack (its attack plan has no entry left)"
        ),
        "{l}"
    );
}

#[test]
fn ngg_10_7_a_player_without_a_plan_declines_by_the_sop() {
    let fx = face_to_face();
    let (_, events) = fx.resolve("", "", &[]);
    let declines: Vec<&Event> = events.iter().filter(|e| e.kind == "decline").collect();
    assert_eq!(declines.len(), 2);
    assert!(declines
        .iter()
        .all(|e| e.decision.as_ref().map(|d| d.by) == Some(DecidedBy::Sop)));
    assert!(
        declines[0].text.starts_with("French declines"),
        "{}",
        declines[0].text
    );
}

#[test]
fn ngg_10_7_the_players_alternate() {
    let fx = face_to_face();
    let (_, events) = fx.resolve(
        "attack 0202 0302 cc 3\nattack 0202 0302 cc 3",
        "attack 0302 0202 cc 4",
        &[
            ("initiative/attack=1/stack=0202", 6),
            ("combat/attack=1/hex=0302", 1),
            ("initiative/attack=2/stack=0302", 6),
            ("combat/attack=2/hex=0202", 4),
        ],
    );
    let order: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == "attack")
        .map(|e| e.text.split(" orders").next().unwrap_or(""))
        .collect();
    // 1: AD disrupts FR-III, so the French second entry is void; the Russians attack in between.
    assert_eq!(
        order,
        ["Attack 1: French", "Attack 2: Russians"],
        "{}",
        log(&events)
    );
    assert!(
        log(&events).contains("FR-III in the stack is disrupted"),
        "{}",
        log(&events)
    );
}

#[test]
fn ngg_10_8_a_stack_attacks_twice() {
    let fx = face_to_face();
    let (state, events) = fx.resolve(
        "attack 0202 0302 cc 2\nattack 0202 0302 cc 2 if ahead",
        "",
        &[
            ("initiative/attack=1/stack=0202", 4),
            ("combat/attack=1/hex=0302", 2),
            ("initiative/attack=2/stack=0202", 3),
            ("combat/attack=2/hex=0302", 6),
        ],
    );
    let l = log(&events);
    assert!(l.contains("[NGG 10.8] Attack 2: French orders"), "{l}");
    assert!(l.contains("attacks again this turn (10.8)"), "{l}");
    // 6 against 4 is 3:2; the second die 6 gives DR: RU-II loses a step and retreats.
    assert!(l.contains("RU-II loses 1 SP (3 left)"), "{l}");
    assert_ne!(find(&state, "RU-II").map(|u| u.hex()), Some("0302"));
}

#[test]
fn ngg_10_9_force_march_markers_are_removed() {
    let fx = face_to_face().with(vec![inf("FR-V", "french", 2, "0101")]);
    let (state, events) = fx.resolve("move FR-V 0102 0103 0104 force", "", &[]);
    let l = log(&events);
    assert!(l.contains("on a force march (marker placed)"), "{l}");
    assert!(l.contains("[NGG 10.9] Both players are done attacking: the force march marker of FR-V is removed."), "{l}");
    let u = find(&state, "FR-V").unwrap();
    assert_eq!((u.hex(), u.force_march), ("0104", false));
}

#[test]
fn pbem_movement_is_limited_and_a_force_march_goes_further() {
    let fx = face_to_face().with(vec![inf("FR-V", "french", 2, "0101")]);
    let e = fx.errors("french", "move FR-V 0102 0103 0104");
    assert!(e.contains("3 hexes, the most is 2"), "{e}");
    let e = fx.errors("french", "move FR-III 0302");
    assert!(e.contains("0302 holds enemy units"), "{e}");
    assert!(fx.errors("french", "move 0202 0203").is_empty());
}

#[test]
fn plan_if_ahead_skips_an_entry_after_one_that_was_void() {
    let fx = face_to_face();
    let (_, events) = fx.resolve(
        "attack 0101 0102\nattack 0202 0302 if ahead\nattack 0202 0302 cc 4",
        "",
        &[("initiative/attack=1/stack=0202", 6)],
    );
    let l = log(&events);
    assert!(
        l.contains("plan entry 1 (0101 on 0102) is void: French has no stack in 0101"),
        "{l}"
    );
    assert!(
        l.contains("plan entry 2 (0202 on 0302) is skipped: 'if ahead'"),
        "{l}"
    );
    assert!(l.contains("Attack 1: French orders"), "{l}");
}

#[test]
fn plan_if_holds_skips_a_target_its_defenders_left() {
    // DR on the first attack: RU-II retreats; entry 2 on 0302 is skipped.
    let fx = face_to_face();
    let (_, events) = fx.resolve(
        "attack 0202 0302 cc 4\nattack 0202 0302 if holds",
        "",
        &[
            ("initiative/attack=1/stack=0202", 6),
            ("combat/attack=1/hex=0302", 6),
        ],
    );
    let l = log(&events);
    assert!(l.contains("retreats from 0302"), "{l}");
    assert!(
        l.contains("plan entry 2 (0202 on 0302) is skipped: 'if holds'"),
        "{l}"
    );
}

#[test]
fn plan_stop_after_declines_once_reached() {
    let fx = face_to_face();
    let (_, events) = fx.resolve(
        "stop after 1 attacks\nattack 0202 0302 cc 4\nattack 0202 0302 cc 1",
        "",
        &[
            ("initiative/attack=1/stack=0202", 6),
            ("combat/attack=1/hex=0302", 4),
        ],
    );
    let l = log(&events);
    assert!(
        l.contains("French declines to order any further attack (its plan stops after 1 attacks)"),
        "{l}"
    );
}

#[test]
fn orders_print_back_as_themselves() {
    let fx = face_to_face().with(vec![inf("FR-IV", "french", 3, "0301")]);
    let body = "move FR-IV 0401 force\nforage 0202\nattack 0202 0302 with FR-III cc 2 support 0301 if ahead if holds\nattack Smolensk 0302\nstop after 2 attacks\nkeep 3\ndefend 0202 cc 1 support none\nstanding defence-cc Smolensk 2\nstanding attack-support none";
    let (orders, d) = fx.parse("french", body);
    assert!(
        d.is_empty() || d.iter().all(|d| d.message.contains("forage")),
        "{d:?}"
    );
    let printed: Vec<String> = orders.iter().map(ToString::to_string).collect();
    let (again, _) = fx.parse("french", &printed.join("\n"));
    assert_eq!(orders, again);
    assert!(
        printed.contains(&"attack 0402 0302".to_string()),
        "{printed:?}"
    );
    assert!(
        printed.contains(&"standing defence-cc 0402 2".to_string()),
        "{printed:?}"
    );
}

#[test]
fn orders_reject_what_they_cannot_read_and_keep_the_rest() {
    let fx = face_to_face();
    let (ok, d) = fx.parse(
        "french",
        "attack 0202 0302 cc lots\nattack 0202 0302 if soon\nattack 0202 0302 support 0101\nstop after many attacks\nstanding defence-cc two\nattack 0202 0302 cc 1",
    );
    assert_eq!(ok.len(), 1);
    assert_eq!(d.len(), 5, "{d:?}");
    assert!(d.iter().all(|d| d.hint.is_some()));
}

#[test]
fn ngg_state_check_refuses_opposing_units_in_one_hex_and_bad_ratings() {
    let fx = face_to_face().with(vec![
        inf("RU-X", "russian", 2, "0202"),
        unit("FR-Odd", "french", UnitKind::Commander, 3, 2, "0101"),
        unit("0505", "french", UnitKind::Infantry, 0, 0, "0101"),
        inf("FR-Lost", "prussia", 2, "9999"),
    ]);
    let d: Vec<String> = super::state::check(&fx.state, &fx.game.config, &fx.game.map)
        .into_iter()
        .map(|d| d.message)
        .collect();
    for what in [
        "units of two sides stand in hex '0202'",
        "commander 'FR-Odd' has sp 3 and cr 2",
        "unit id '0505' is all digits",
        "unit '0505' has sp 0 and cr 0",
        "unknown power 'prussia'",
        "unknown hex '9999'",
    ] {
        assert!(d.iter().any(|m| m == what), "no '{what}' in {d:?}");
    }
    assert!(super::state::check(&face_to_face().state, &fx.game.config, &fx.game.map).is_empty());
}

#[test]
fn ngg_tables_refuse_a_combat_table_of_the_wrong_shape() {
    let bad = TABLES
        .replace("\"1:2\", \"1:1\"", "\"1:1\", \"1:2\"")
        .replace("  [\"dd\", \"dd\", \"dr\", \"dr\", \"dr\"],\n", "");
    let t: Tables = toml::from_str(&bad).expect("it parses");
    let d: Vec<String> = t.validate().into_iter().map(|d| d.message).collect();
    assert!(d.iter().any(|m| m.contains("increasing odds")), "{d:?}");
    assert!(d.iter().any(|m| m.contains("six rows")), "{d:?}");
}

#[test]
fn pbem_combat_odds_pick_the_last_column_reached() {
    let t: Tables = toml::from_str(TABLES).expect("tables");
    assert_eq!(t.combat.column(3, 6), 0); // 1:2
    assert_eq!(t.combat.column(2, 6), 0); // worse than 1:2: the first column
    assert_eq!(t.combat.column(8, 6), 1); // 1:1
    assert_eq!(t.combat.column(9, 6), 2); // 3:2
    assert_eq!(t.combat.column(30, 6), 4); // 5:1: the last column
    assert_eq!(t.combat.column(1, 0), 4); // against nothing
}

impl Fx {
    /// The fixture with every cell of the combat table `result` ("ex", "dr", ...).
    fn every_result(mut self, result: &str) -> Self {
        let mut text = TABLES.to_string();
        for r in ["\"ad\"", "\"nr\"", "\"dd\"", "\"dr\""] {
            text = text.replace(r, &format!("\"{result}\""));
        }
        let tables: Tables = toml::from_str(&text).expect("the fixture's tables");
        self.game.ruleset = Box::new(Ngg {
            tables,
            sop: BTreeMap::new(),
        });
        self
    }
}

#[test]
fn ngg_ex_against_a_lone_commander_both_sides_lose() {
    // Kutuzov stands alone in 0302: an EX costs the French 1 SP, and takes him.
    let fx = Fx::new()
        .with(vec![
            cmd("FR-Ney", "french", 2, "0202"),
            inf("FR-III", "french", 6, "0202"),
            cmd("RU-Kutuzov", "russian", 2, "0302"),
        ])
        .every_result("ex");
    let (next, events) = fx.resolve(
        "attack 0202 0302 cc 2",
        "",
        &[("initiative/attack=1/stack=0202", 3)],
    );
    let l = log(&events);
    assert!(l.contains("EX, each side loses 1 SP"), "{l}");
    assert!(l.contains("FR-III loses 1 SP (5 left)"), "{l}");
    assert!(
        l.contains("Russians has no SP to lose in the exchange: RU-Kutuzov, alone, is taken and eliminated (pbem ngg/combat)"),
        "{l}"
    );
    assert_eq!(find(&next, "FR-III").map(|u| u.sp), Some(5));
    assert!(find(&next, "RU-Kutuzov").is_none());
    // Against a stack with SP, the strongest unit loses one and the commander stays.
    let fx = face_to_face()
        .with(vec![cmd("RU-Bagration", "russian", 2, "0302")])
        .every_result("ex");
    let (next, _) = fx.resolve(
        "attack 0202 0302 cc 2",
        "",
        &[("initiative/attack=1/stack=0202", 3)],
    );
    assert_eq!(find(&next, "RU-II").map(|u| u.sp), Some(3));
    assert!(find(&next, "RU-Bagration").is_some());
}

#[test]
fn ngg_dr_against_a_lone_commander_takes_him() {
    // Kutuzov stands alone in 0302: a DR's loss of 1 SP finds none, and takes him instead.
    let fx = Fx::new()
        .with(vec![
            cmd("FR-Ney", "french", 2, "0202"),
            inf("FR-III", "french", 6, "0202"),
            cmd("RU-Kutuzov", "russian", 2, "0302"),
        ])
        .every_result("dr");
    let (next, events) = fx.resolve(
        "attack 0202 0302 cc 2",
        "",
        &[("initiative/attack=1/stack=0202", 3)],
    );
    let l = log(&events);
    assert!(l.contains("DR, the defenders lose 1 SP"), "{l}");
    assert!(
        l.contains("Russians has no SP to lose in the retreat: RU-Kutuzov, alone, is taken and eliminated (pbem ngg/combat)"),
        "{l}"
    );
    assert!(find(&next, "RU-Kutuzov").is_none());
    assert_eq!(find(&next, "FR-III").map(|u| u.sp), Some(6));
    // With SP in the stack, the strongest unit loses one, and the commander retreats with it.
    let fx = face_to_face()
        .with(vec![cmd("RU-Bagration", "russian", 2, "0302")])
        .every_result("dr");
    let (next, _) = fx.resolve(
        "attack 0202 0302 cc 2",
        "",
        &[("initiative/attack=1/stack=0202", 3)],
    );
    assert_eq!(find(&next, "RU-II").map(|u| u.sp), Some(3));
    assert!(find(&next, "RU-Bagration").is_some_and(|u| u.hex.get_ref() != "0302"));
}

#[test]
fn ngg_10_1_a_foraging_or_disrupted_stack_may_support_the_defence() {
    // 0303 (foraging) and 0402 (disrupted) touch 0302; NGG 10.1 keeps them only out of attacks.
    let mut disrupted = inf("RU-VI", "russian", 3, "0402");
    disrupted.disrupted = true;
    let fx = face_to_face().with(vec![inf("RU-IV", "russian", 3, "0303"), disrupted]);
    let (_, events) = fx.resolve(
        "attack 0202 0302 cc 2",
        "forage 0303",
        &[
            ("initiative/attack=1/stack=0202", 3),
            ("defence/attack=1/stack=0303", 6),
            ("defence/attack=1/stack=0402", 6),
        ],
    );
    let l = log(&events);
    assert!(
        l.contains("Russians calls the stacks in 0303, 0402 (Smolensk) to support 0302 (by the SOP; 0303, 0402 (Smolensk) foraging or disrupted, may support a defence (NGG 10.1 forbids it only in an attack: pbem's reading))"),
        "{l}"
    );
    assert!(
        l.contains("the defender's supporting stack in 0303 rolls 6"),
        "{l}"
    );
    assert!(
        l.contains("the defender's supporting stack in 0402 (Smolensk) rolls 6"),
        "{l}"
    );
    assert!(
        l.contains("6 SP against 10 SP"),
        "both join the defence: {l}"
    );
}

/// The events' words agree with the units named: one unit "moves", a stack of two "move"; one
/// unit's force march "marker is" removed (NGG 10.9).
#[test]
fn ngg_events_verb_agrees_with_the_units_named() {
    let fx = face_to_face().with(vec![
        inf("FR-V", "french", 2, "0101"),
        inf("FR-VI", "french", 2, "0201"),
        inf("FR-VII", "french", 2, "0201"),
    ]);
    let (_, events) = fx.resolve("move 0101 0102\nmove 0201 0202", "", &[]);
    let l = log(&events);
    assert!(l.contains("French: FR-V moves from 0101 to 0102"), "{l}");
    assert!(
        l.contains("French: FR-VI, FR-VII move from 0201 to 0202"),
        "{l}"
    );
}
