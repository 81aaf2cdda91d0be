//! The tactical phases of a GITM turn (GITM 5.2) on the tactical engine: the turn's brigades and
//! parsed orders mapped to the engine's plain types, square by square, and the results mapped back
//! (tactical squares, men, experience, morale, fatigue, shattered), with the engine's events as the
//! turn's events and the turn's dice as the engine's.
//!
//! A square is resolved in a phase when it holds brigades hostile to one another or a brigade with a
//! tactical order (8.2, 8.8); the others have nothing to do. The tactical map of a square is the game
//! map's `[sub]` grid, or the scenario's `tactical/<square>.txt` when it has one (`Theatre::load`),
//! with the state's forts put on it (2.6, `place_forts`). Each event goes to the sides the engine
//! says saw it (4.4, 4.6, `Field::tell`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{anyhow, bail, Result};

use crate::diag::{Diagnostic, FileError, Source};
use crate::engine::dice_box::DiceBox;
use crate::engine::event::{Event, Roll};
use crate::game::map::grid::Square;
use crate::game::map::sub_grid::{Spot, SubSquare};
use crate::game::map::{GridMap, Topology};
use crate::game::state::{Relation as StateRelation, State};
use crate::rule::Rule;

use super::super::orders::{self, BattleLine, UnitOrders};
use super::super::rules;
use super::super::state::{Brigade, GitmState, Quality};
use super::dice::TacDice;
use super::event::TacEvent;
use super::field::{Field, Memory};
use super::map::{parse, Fort, Pos, Siege, TacMap};
use super::unit::{Line, Posture, Reaction, Relations, TacBrigade, TacOrder};

/// The tactical side of a turn: the maps the scenario draws in `tactical/`, and what each square's
/// map keeps between the phases of the turn.
#[derive(Debug, Clone, Default)]
pub struct Theatre {
    /// Tactical maps from `tactical/<square>.txt`, by square name.
    pub maps: BTreeMap<String, TacMap>,
    /// What each square's map keeps between phases, by square name. A brigade's progress on its
    /// tactical order (8.2's waypoint and destination, 8.8's arrival) is kept per map: one that marches
    /// into another square starts its section 3 afresh there, so that it deploys by it (5.2: the last
    /// tactical phase lets arriving units deploy), even when it had reached its destination in the
    /// square it left. The seed's order names tactical squares alone, not the square they are in:
    /// this is pbem's reading.
    memory: BTreeMap<String, Memory>,
    /// The strategic squares where a combat was fought this turn (9.1): the battles of GITM 7.5.
    pub fought: std::collections::BTreeSet<String>,
}

impl Theatre {
    /// Reads the `tactical/` folder of a game, when it has one: one file per strategic square, named
    /// after it (`tactical/G7-V6.txt`). A file must name its own square, and its terrain must be the
    /// game map's `[sub]` grid under that square: the file adds what the grid does not hold (towns'
    /// names, sieges, ratings) and is the one a referee reads; forts are the state's
    /// ([`place_forts`]). Any problem is an error naming the file, line and column.
    pub fn load(dir: &Path, grid: &GridMap) -> Result<Theatre> {
        let mut t = Theatre::default();
        // The files the rules digest binds (`game::rules_fixed`): read from the one list.
        for (shown, path) in crate::game::rules_fixed::tactical_files(dir) {
            let bytes = std::fs::read(&path)?;
            let text = String::from_utf8(bytes)
                .map_err(|_| anyhow!("{shown}: not UTF-8 text; save it as UTF-8"))?;
            let source = Source::new(&shown, text);
            let map = parse(&source).map_err(|errs| {
                anyhow!(
                    "{}",
                    errs.iter()
                        .map(|d| FileError::new(&source, d).to_string())
                        .collect::<Vec<_>>()
                        .join("\n")
                )
            })?;
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            if map.square != stem {
                bail!("{shown}: it names the square {}; a tactical map's file is named after its square ({}.txt)", map.square, map.square);
            }
            let Ok(Spot { square, .. }) = grid.parse_spot(&format!("{}/0-0", map.square)) else {
                bail!(
                    "{shown}: {} is not a square of the game's map (GITM 1.1)",
                    map.square
                );
            };
            if let Some(sub) = grid.sub() {
                let drawn = TacMap::from_sub_grid(sub, square, &map.square);
                if let Some(p) = map.differences(&drawn).first() {
                    bail!(
                        "{shown}: square {p} is {} here but {} in map.toml's [sub] grid; the two must agree (GITM 2.3: maps join at their edges)",
                        map.terrain(*p).name(),
                        drawn.terrain(*p).name()
                    );
                }
            }
            t.maps.insert(map.square.clone(), map);
        }
        Ok(t)
    }
}

/// GITM 2.6, 2.7: the forts of the `[gitm]` state under strategic square `square`, and their
/// sieges, put on its tactical map: the state is the one place forts and sieges are read (a tactical
/// map file refuses a `fort` or `besieged` line). A siege's city is held by its garrison's power
/// (8.4's side controlling the city); a siege whose fort has no garrison left limits no one (the
/// turn lifts it at its end). A city without a fort besieged (`city_siege.rs`) is put on its town
/// square the same way, held by the brigades on it.
pub fn place_forts(tmap: &mut TacMap, g: &GitmState, map: &GridMap, square: Square) {
    for s in g
        .sieges
        .iter()
        .filter(|s| g.fort_at(s.at.get_ref()).is_none())
    {
        let Ok(spot) = map.parse_spot(s.at.get_ref()) else {
            continue;
        };
        let holder = g
            .brigades
            .iter()
            .find(|b| !b.shattered && b.at().eq_ignore_ascii_case(s.at.get_ref()))
            .map(|b| b.power());
        if let (true, Some(holder)) = (spot.square == square, holder) {
            tmap.set_siege(
                sub(spot.sub),
                Siege {
                    by: s.by.clone(),
                    holder: holder.to_string(),
                },
            );
        }
    }
    for f in &g.forts {
        if let Ok(spot) = map.parse_spot(f.at.get_ref()) {
            if spot.square == square {
                tmap.set_fort(
                    sub(spot.sub),
                    Fort {
                        strength: f.strength.clamp(1, 5) as u8,
                        capacity: f.capacity,
                    },
                );
                let holder = g.garrison(f).first().map(|&i| g.brigades[i].power());
                if let (Some(s), Some(holder)) = (g.siege_of(f.at.get_ref()), holder) {
                    tmap.set_siege(
                        sub(spot.sub),
                        Siege {
                            by: s.by.clone(),
                            holder: holder.to_string(),
                        },
                    );
                }
            }
        }
    }
}

/// GITM 2.6: the forts of the `[gitm]` state checked against the tactical maps (the game map's
/// `[sub]` grid, which every `tactical/<square>.txt` must agree with): a fort stands on a town
/// square, one a square. Each error is at the fort's `at` in `state.toml`.
pub fn check_forts(g: &GitmState, map: &GridMap) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for f in &g.forts {
        let Ok(spot) = map.parse_spot(f.at.get_ref()) else {
            continue; // `state::check` names a place that is not one.
        };
        if !seen.insert((spot.square, spot.sub.col, spot.sub.row)) {
            out.push(
                Diagnostic::error(format!("two forts at '{}'", f.at.get_ref()), f.at.span())
                    .hint(
                        "a tactical square has one fort (GITM 2.6); keep one [[gitm.fort]] for it",
                    )
                    .rule(rules::FORTS),
            );
        }
        if let Some(grid) = map.sub() {
            let terrain = grid.terrain(spot);
            if terrain != "town" {
                out.push(
                    Diagnostic::error(
                        format!("the fort at '{}' stands on {terrain}, not a town", f.at.get_ref()),
                        f.at.span(),
                    )
                    .hint("GITM 2.6: forts stand in city tactical squares; give the town's square (map.toml's [sub] grid, `T` in tactical/<square>.txt)")
                    .rule(rules::FORTS),
                );
            }
        }
    }
    out
}

/// The turn's dice as the engine's: each die a labelled roll of the turn's `DiceBox`, a shuffle one
/// sealed shuffle (the order of play, 8.6); the rolls kept by label for the events that name them.
struct TurnDice<'a> {
    dice: &'a mut DiceBox,
    rolls: BTreeMap<String, Roll>,
    error: Option<anyhow::Error>,
}

impl TacDice for TurnDice<'_> {
    fn die(&mut self, label: &str, sides: u32) -> u32 {
        match self.dice.roll(label, &[sides]) {
            Ok(r) => {
                let face = r.dice[0].face;
                self.rolls.insert(label.to_string(), r);
                face
            }
            Err(e) => {
                self.error.get_or_insert(e);
                1
            }
        }
    }

    fn shuffle(&mut self, label: &str, n: usize) -> Vec<usize> {
        let mut items: Vec<usize> = (0..n).collect();
        // Sealed: the order tells the units of every side on the map, which a power may not see.
        match self.dice.shuffle_sealed(label, &mut items) {
            Ok(r) => {
                self.rolls.insert(label.to_string(), r);
            }
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        items
    }
}

fn quality(q: Quality) -> u8 {
    match q {
        Quality::Poor => 1,
        Quality::Average => 2,
        Quality::Good => 3,
        Quality::VeryGood => 4,
        Quality::Elite => 5,
    }
}

fn sub(p: SubSquare) -> Pos {
    Pos::new(p.col, p.row)
}

/// A brigade's tactical order from its parsed sections (GITM 6.4-6.6); a section left out takes
/// 6.9's default: no move, the front line, skirmish, and (with no reaction sent) support within 2
/// squares of where it began the turn.
fn order(o: Option<&UnitOrders>, start: Pos) -> TacOrder {
    let mut t = TacOrder::default_at(start);
    let Some(o) = o else {
        return t;
    };
    if let Some(tac) = &o.tactical {
        t.destination = tac.destination.map(sub);
        t.waypoint = tac.waypoint.map(sub);
        t.start_phase = Some(tac.start_phase);
        t.engage = tac.engage;
        t.no_fort = tac.no_fort;
        t.line = match tac.line {
            BattleLine::Front => Line::Front,
            BattleLine::Second => Line::Second,
            BattleLine::Rear => Line::Rear,
        };
    }
    let reaction = |r: &orders::Reaction| Reaction {
        centre: sub(r.center),
        radius: r.radius,
        phases: r.phases,
    };
    if o.support.is_some() || o.intercept.is_some() {
        t.support = o.support.as_ref().map(reaction);
        t.intercept = o.intercept.as_ref().map(reaction);
    }
    if let Some(p) = o.posture {
        t.attack = match p.attack {
            orders::Attack::Assault => Posture::Assault,
            orders::Attack::Skirmish => Posture::Skirmish,
            orders::Attack::Evade => Posture::Evade,
        };
        t.defence = match p.defend {
            orders::Defend::LastDitch => Posture::Assault,
            orders::Defend::Skirmish => Posture::Skirmish,
            orders::Defend::Evade => Posture::Evade,
        };
    }
    t
}

/// What a tactical phase needs of the turn, lent by `turn.rs` (which this module does not know).
pub struct TurnParts<'a> {
    pub map: &'a GridMap,
    pub state: &'a State,
    /// The position at the start of the turn (6.9's support box).
    pub start: &'a GitmState,
    /// The position now, which the phase changes.
    pub g: &'a mut GitmState,
    pub orders: &'a BTreeMap<String, UnitOrders>,
    pub dice: &'a mut DiceBox,
    pub theatre: &'a mut Theatre,
}

/// The sides an event of the tactical phase is told to, each with its allies (GITM 4.4, 4.6: what
/// its own command saw, `Field::tell`); none, the referee alone.
pub type Told = Vec<String>;

/// One tactical phase of the turn on every square with something to do (GITM 5.2, 8, 9): the events,
/// each with who is told of it.
pub fn run_phase(turn: TurnParts<'_>, phase: u8) -> Result<Vec<(Event, Told)>> {
    let mut told = Vec::new();
    let map: &GridMap = turn.map;
    // The active brigades by square, from the position now.
    let mut by_square: BTreeMap<Square, Vec<usize>> = BTreeMap::new();
    for (i, b) in turn.g.brigades.iter().enumerate() {
        if b.inactive || b.shattered {
            continue;
        }
        if let Ok(spot) = map.parse_spot(b.at()) {
            by_square.entry(spot.square).or_default().push(i);
        }
    }
    // Where each brigade began the turn (6.9's default support box), by unit ID.
    let starts: BTreeMap<String, Spot> = turn
        .start
        .brigades
        .iter()
        .filter_map(|b| Some((b.id().to_string(), map.parse_spot(b.at()).ok()?)))
        .collect();
    for (square, members) in by_square {
        let name = map.place_name(square);
        let powers: Vec<String> = members
            .iter()
            .map(|&i| turn.g.brigades[i].power().to_string())
            .collect();
        let hostile = powers.iter().any(|a| {
            powers
                .iter()
                .any(|b| turn.state.relation(a, b) == StateRelation::Hostile)
        });
        let ordered = members.iter().any(|&i| {
            turn.orders
                .get(turn.g.brigades[i].id())
                .and_then(|o| o.tactical.as_ref())
                .is_some_and(|t| {
                    t.destination.is_some() || t.waypoint.is_some() || t.engage.is_some()
                })
        });
        if !hostile && !ordered {
            continue;
        }
        let mut tmap = match turn.theatre.maps.get(&name) {
            Some(m) => m.clone(),
            None => match map.sub() {
                Some(s) => TacMap::from_sub_grid(s, square, &name),
                None => continue,
            },
        };
        place_forts(&mut tmap, turn.g, map, square);
        // GITM 8.5, 8.11: the state whose soil this is (`[control]`): its neutrals, and those of
        // the states actively allied with it, count there (8.5); its own brigades intercept (8.11).
        let mut relations = Relations::default();
        if let Some(owner) = turn.state.control.get(&name) {
            relations = relations.home(owner);
            for p in &powers {
                if p != owner && turn.state.relation(owner, p) == StateRelation::Allied {
                    relations = relations.allied(owner, p);
                }
            }
        }
        for a in &powers {
            for b in &powers {
                relations = match turn.state.relation(a, b) {
                    StateRelation::Hostile => relations.hostile(a, b),
                    StateRelation::Allied => relations.allied(a, b),
                    StateRelation::Neutral => relations,
                };
            }
        }
        let brigades: Vec<TacBrigade> = members
            .iter()
            .map(|&i| {
                let b = &turn.g.brigades[i];
                let pos = map
                    .parse_spot(b.at())
                    .map(|s| sub(s.sub))
                    .unwrap_or(Pos::new(7, 7));
                // A brigade that began the turn on another square: its box is where it stands.
                let start = starts
                    .get(b.id())
                    .filter(|s| s.square == square)
                    .map_or(pos, |s| sub(s.sub));
                TacBrigade {
                    id: b.id().to_string(),
                    side: b.power().to_string(),
                    kind: b.kind(),
                    men: b.strength,
                    batteries: b.batteries,
                    quality: quality(b.quality),
                    experience: b.experience,
                    morale: b.morale,
                    fatigue: b.fatigue,
                    pos,
                    formation: Default::default(),
                    shattered: b.shattered,
                    supplies: b.supplies,
                    order: order(turn.orders.get(b.id()), start),
                }
            })
            .collect();
        let mut field = Field::new(&tmap, &relations, brigades);
        if let Some(m) = turn.theatre.memory.get(&name) {
            field.restore(m);
        }
        let mut dice = TurnDice {
            dice: &mut *turn.dice,
            rolls: BTreeMap::new(),
            error: None,
        };
        field.phase(phase, &mut dice);
        if let Some(e) = dice.error.take() {
            return Err(e);
        }
        let rolls = std::mem::take(&mut dice.rolls);
        let memory = field.memory();
        let (after, events, _) = field.finish();
        turn.theatre.memory.insert(name.clone(), memory);
        for (&i, t) in members.iter().zip(&after) {
            let b: &mut Brigade = &mut turn.g.brigades[i];
            let spot = Spot {
                square,
                sub: SubSquare {
                    col: t.pos.col,
                    row: t.pos.row,
                },
            };
            b.at = toml::Spanned::new(0..0, map.spot_name(spot));
            b.strength = t.men;
            b.experience = t.experience;
            b.morale = t.morale;
            b.fatigue = t.fatigue;
            b.shattered = t.shattered;
            b.supplies = t.supplies;
        }
        // GITM 7.5: a combat fought here (9.4's deployment, not brigades merely standing together)
        // makes this square one of the turn's battles.
        if events.iter().any(|e| e.kind == "combat") {
            turn.theatre.fought.insert(name.clone());
        }
        let count = events.len();
        let mut attached = std::collections::BTreeSet::new();
        for (k, e) in events.into_iter().enumerate() {
            let mut ev = Event::new(rule_of(&e), e.kind, e.text.clone())
                .at(&name)
                .naming(e.units.iter().map(String::as_str));
            for l in &e.rolls {
                if let Some(r) = rolls.get(l) {
                    attached.insert(l.clone());
                    ev = ev.roll(r.clone());
                }
            }
            // Every roll drawn is in an event: any an event did not name goes with the last.
            if k + 1 == count {
                for (l, r) in &rolls {
                    if !attached.contains(l) {
                        ev = ev.roll(r.clone());
                    }
                }
            }
            let to: Told = e.told.iter().flatten().cloned().collect();
            told.push((ev, to));
        }
    }
    Ok(told)
}

/// The engine's rule as the turn's [`Rule`]: `GITM 8.6` split into system and number, with the
/// topic of the rule.
fn rule_of(e: &TacEvent) -> Rule {
    let (system, number) = e.rule.split_once(' ').unwrap_or(("GITM", e.rule));
    Rule::new(system, number, super::event::topic(e.rule))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::gitm::orders::{Attack, Defend, ReactionKind, TacticalOrder};

    fn at(c: u8, r: u8) -> SubSquare {
        SubSquare { col: c, row: r }
    }

    #[test]
    fn gitm_6_9_a_unit_sent_nothing_takes_the_default_tactical_order() {
        let o = order(None, Pos::new(4, 4));
        assert_eq!(o, TacOrder::default_at(Pos::new(4, 4)));
        // Orders without section 4 keep the default support box; with an intercept, none.
        let mut u = UnitOrders {
            tactical: Some(TacticalOrder {
                destination: Some(at(9, 7)),
                waypoint: Some(at(7, 7)),
                start_phase: 2,
                engage: Some((3, 4)),
                line: BattleLine::Rear,
                ..TacticalOrder::default()
            }),
            ..UnitOrders::default()
        };
        let o = order(Some(&u), Pos::new(4, 4));
        assert_eq!(o.destination, Some(Pos::new(9, 7)));
        assert_eq!(o.waypoint, Some(Pos::new(7, 7)));
        assert_eq!(
            (o.start_phase, o.engage, o.line),
            (Some(2), Some((3, 4)), Line::Rear)
        );
        assert_eq!(
            o.support.map(|s| (s.centre, s.radius)),
            Some((Pos::new(4, 4), 2))
        );
        u.intercept = Some(orders::Reaction {
            kind: ReactionKind::Intercept,
            center: at(8, 4),
            radius: 2,
            phases: (3, 4),
        });
        u.posture = Some(orders::Posture {
            attack: Attack::Assault,
            defend: Defend::LastDitch,
        });
        let o = order(Some(&u), Pos::new(4, 4));
        assert_eq!(o.support, None);
        assert_eq!(
            o.intercept,
            Some(Reaction {
                centre: Pos::new(8, 4),
                radius: 2,
                phases: (3, 4)
            })
        );
        assert_eq!((o.attack, o.defence), (Posture::Assault, Posture::Assault));
    }

    #[test]
    fn gitm_2_6_forts_are_read_once_from_the_state_and_stand_on_towns() {
        let (_tmp, game, mut state) = super::super::rule_tests::italy_1809();
        let dir = game.dir.clone();
        let map = crate::rules::gitm::grid_map(&game).unwrap();
        let g = crate::rules::gitm::state::gitm_of(&state).unwrap();
        assert!(check_forts(g, map).is_empty());
        // Treviso's fort is the state's; the scenario's map of G7-V6 draws the town alone.
        let theatre = Theatre::load(&dir, map).unwrap();
        let mut tmap = theatre.maps["G7-V6"].clone();
        assert_eq!(tmap.towns[&Pos::new(10, 10)].name, "Treviso");
        assert_eq!(tmap.fort(Pos::new(10, 10)), None);
        let square = map.parse_spot("G7-V6/0-0").unwrap().square;
        place_forts(&mut tmap, g, map, square);
        let treviso = Fort {
            strength: 2,
            capacity: 4000,
        };
        assert_eq!(tmap.fort(Pos::new(10, 10)), Some(&treviso));
        assert_eq!(tmap.towns.len(), 1, "Venice's fort stays on G7-V8's map");
        // A fort off a town, and two forts on one square: errors at the fort in state.toml.
        let gm = state.table_mut::<GitmState>().unwrap();
        gm.forts[1].at = toml::Spanned::new(40..49, "G7-V6/0-0".to_string());
        gm.forts.push(gm.forts[0].clone());
        let errs = check_forts(gm, map);
        assert_eq!(errs.len(), 2);
        assert!(errs[0]
            .message
            .contains("G7-V6/0-0' stands on open, not a town"));
        assert_eq!(errs[0].span, 40..49);
        assert!(errs[1].message.contains("two forts at 'G7-V8/10-10'"));
        // A tactical map file with a fort line is refused, by file, line and column.
        let file = dir.join("tactical/G7-V6.txt");
        let text = std::fs::read_to_string(&file).unwrap() + "fort 10-10 2 4000\n";
        std::fs::write(&file, text).unwrap();
        let err = Theatre::load(&dir, map).unwrap_err().to_string();
        assert!(err.contains("tactical/G7-V6.txt:42:1"), "{err}");
        assert!(err.contains("holds no fort"), "{err}");
    }

    #[test]
    fn pbem_gitm_t7_a_turn_puts_the_states_fort_in_the_tactical_combat() {
        let (_tmp, game, mut state) = super::super::rule_tests::italy_1809();
        // France holds Treviso (G7-V6, `[control]`) with FR1IN in its fort's square; AU1IN attacks.
        let g = state.table_mut::<GitmState>().unwrap();
        for (id, at) in [("FR1IN", "G7-V6/10-10"), ("AU1IN", "G7-V6/10-12")] {
            g.brigade_mut(id).unwrap().at = toml::Spanned::new(0..0, at.to_string());
        }
        let orders = vec![crate::rules::PowerOrders {
            power: "austria".to_string(),
            source: Source::new(
                "austria.txt",
                "game gitm-italy-1809\npower austria\npassword danube-1805\nturn 1\ntactical AU1IN to 10-10\n",
            ),
        }];
        let mut dice = DiceBox::new([7; 32]).with_seal(Some([9; 32]));
        let r = game
            .ruleset
            .resolve(&game, &state, &orders, &mut dice)
            .unwrap();
        let texts: Vec<&str> = r.events.iter().map(|e| e.text.as_str()).collect();
        assert!(
            texts.iter().any(|t| t.starts_with(
                "pbem GITM-T7: the fort at 10-10 (strength 2, capacity 4000) holds FR1INF"
            )),
            "{}",
            texts.join("\n")
        );
        // Treviso's square is rated 3 (tactical/G7-V6.txt), its fort 2: the better, 3, stands.
        assert!(texts
            .iter()
            .any(|t| t.contains("holds FR1INF: they defend with rating 3 (the square's 3)")));
        assert!(texts
            .iter()
            .any(|t| t.contains("the garrison at the fort's rating 3 (pbem GITM-T7)")));
    }

    #[test]
    fn gitm_3_2_quality_on_the_engines_scale() {
        assert_eq!(quality(Quality::Poor), 1);
        assert_eq!(quality(Quality::VeryGood), 4);
    }
}
