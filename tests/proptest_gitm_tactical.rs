//! Properties of GITM's tactical engine (`rules::gitm::tactical`):
//!
//! - any text read as a tactical map file gives a map or located diagnostics, never a panic, and a
//!   map read prints as text that reads back as itself;
//! - any brigades with any orders on any map run the five tactical phases of a turn without a panic:
//!   every brigade stays on a passable square of the map, none gains men, the same dice give the same
//!   brigades and events.

use proptest::prelude::*;

use pbem::diag::{FileError, Source};
use pbem::dice::Roller;
use pbem::rules::gitm::tactical::{
    parse_map, Field, Kind, Line, Pos, Posture, Reaction, Relations, TacBrigade, TacMap, Terrain,
    LAST_PHASE, SIZE,
};

fn pos() -> impl Strategy<Value = Pos> {
    (0..SIZE, 0..SIZE).prop_map(|(c, r)| Pos::new(c, r))
}

fn terrain() -> impl Strategy<Value = Terrain> {
    prop::sample::select(Terrain::ALL.to_vec())
}

fn map() -> impl Strategy<Value = TacMap> {
    prop::collection::vec((pos(), terrain()), 0..40).prop_map(|cells| {
        let mut m = TacMap::plain("G7-V6", Terrain::Open);
        for (p, t) in cells {
            m.set(p, t);
        }
        m
    })
}

fn reaction() -> impl Strategy<Value = Option<Reaction>> {
    prop::option::of(
        (pos(), 0u8..4, 1u8..=5, 0u8..3).prop_map(|(centre, radius, a, len)| Reaction {
            centre,
            radius,
            phases: (a, (a + len).min(5)),
        }),
    )
}

fn brigade() -> impl Strategy<Value = TacBrigade> {
    (
        (
            prop::sample::select(vec!["FR", "AU", "IT", "NA"]),
            0usize..Kind::ALL.len(),
            1u32..5000,
            pos(),
            0u32..12,
            0u32..4,
        ),
        (
            prop::option::of(pos()),
            prop::option::of(pos()),
            prop::option::of(1u8..=5),
            prop::option::of((1u8..=5, 0u8..3)),
            prop::sample::select(vec![Line::Front, Line::Second, Line::Rear]),
            prop::sample::select(vec![
                Posture::Assault,
                Posture::Normal,
                Posture::Skirmish,
                Posture::Evade,
            ]),
            reaction(),
            reaction(),
        ),
    )
        .prop_map(
            |(
                (side, k, men, at, fatigue, batteries),
                (dest, via, start, engage, line, attack, support, intercept),
            )| {
                let kind = Kind::ALL[k];
                let mut b =
                    TacBrigade::new(&format!("{side}{k}{}", kind.code()), side, kind, men, at);
                b.fatigue = fatigue;
                b.batteries = batteries;
                b.order.destination = dest;
                b.order.waypoint = via;
                b.order.start_phase = start;
                b.order.engage = engage.map(|(a, l)| (a, (a + l).min(5)));
                b.order.line = line;
                b.order.attack = attack;
                b.order.defence = attack;
                b.order.support = support;
                b.order.intercept = intercept;
                b
            },
        )
}

fn run(map: &TacMap, brigades: Vec<TacBrigade>) -> (Vec<TacBrigade>, Vec<String>) {
    let relations = Relations::default()
        .hostile("FR", "AU")
        .hostile("IT", "AU")
        .allied("FR", "IT")
        .home("NA");
    let mut f = Field::new(map, &relations, brigades);
    let mut dice = |label: &str, sides: u32| Roller::new(&[3; 32], label).die(sides);
    for phase in 1..=LAST_PHASE {
        f.phase(phase, &mut dice);
    }
    let (b, events, _) = f.finish();
    (b, events.into_iter().map(|e| e.text).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_text_reads_as_a_map_or_located_errors(text in "(square G7-V6\n)?(terrain\n)?([.hH~=M^wfT]{13,16}\n){0,16}(rating\n)?([0-9]{14,15}\n){0,15}((town|fort|besieged) [0-9]{1,2}-[0-9]{1,2}( [A-Za-z0-9]{1,6}){0,3}\n){0,3}.{0,20}") {
        let source = Source::new("tactical/G7-V6.txt", text);
        match parse_map(&source) {
            Ok(m) => {
                let again = parse_map(&Source::new("t.txt", m.to_text())).unwrap();
                prop_assert_eq!(again, m);
            }
            Err(errors) => {
                prop_assert!(!errors.is_empty());
                for e in &errors {
                    let f = FileError::new(&source, e);
                    prop_assert!(f.line >= 1 && f.rendered.contains("tactical/G7-V6.txt"));
                }
            }
        }
    }

    #[test]
    fn any_brigades_and_orders_run_a_turn_of_tactical_phases(m in map(), brigades in prop::collection::vec(brigade(), 0..14)) {
        let before: Vec<u32> = brigades.iter().map(|b| b.men).collect();
        let (after, events) = run(&m, brigades.clone());
        prop_assert_eq!(after.len(), before.len());
        for (b, men) in after.iter().zip(&before) {
            prop_assert!(b.men <= *men, "{} gained men", b.id);
            prop_assert!(b.pos.col < SIZE && b.pos.row < SIZE);
        }
        for (b, old) in after.iter().zip(&brigades) {
            if b.pos != old.pos {
                prop_assert!(m.terrain(b.pos).passable(), "{} moved onto {}", b.id, m.terrain(b.pos).name());
            }
        }
        let (again, events_again) = run(&m, brigades);
        prop_assert_eq!(after, again);
        prop_assert_eq!(events, events_again);
    }
}
