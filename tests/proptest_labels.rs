//! Dice labels are unique by construction (docs/DICE.md): over random orders of both
//! rulesets' demo games (moves along random walks of the map, fleets that re-enter seas, attacks,
//! naval attacks by `engage`, moves and attacks of insurrection corps for their special land phase,
//! entrenching) and random seeds, a turn resolves, and no label is listed twice among its rolls.
//! Every label is one its ruleset's grammar gives for its event (`dice::labels`, what `pbem verify`
//! checks; NGG, WBTS and GITM hold it in their own property tests over random orders).
//! The run-time check in `DiceBox` stays as an internal assertion: a resolution that reached it would
//! fail here.

use std::collections::BTreeSet;

use proptest::prelude::*;

use pbem::diag::Source;
use pbem::dice::{tuple_hash, Bytes32};
use pbem::engine::dice_box::DiceBox;
use pbem::game::state::State;
use pbem::game::Game;
use pbem::rules::eia::state::EiaState;
use pbem::rules::PowerOrders;

/// A bundled scenario, loaded once per test thread, and its state at turn 1.
fn scenario(name: &'static str) -> &'static (Game, State) {
    thread_local! {
        static GAMES: std::cell::RefCell<Vec<(&'static str, &'static (Game, State))>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    GAMES.with(|g| {
        if let Some((_, loaded)) = g.borrow().iter().find(|(n, _)| *n == name) {
            return *loaded;
        }
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(name);
        pbem::bundled::write_scenario(name, &dir).unwrap();
        let game = Game::load(&dir).unwrap();
        let state = game.load_state(1).unwrap();
        let loaded: &'static (Game, State) = Box::leak(Box::new((game, state)));
        g.borrow_mut().push((name, loaded));
        loaded
    })
}

/// One random choice: an index below `n`, from a stream of picks.
struct Picks<'a> {
    picks: &'a [u16],
    at: usize,
}

impl Picks<'_> {
    fn below(&mut self, n: usize) -> usize {
        let p = self.picks[self.at % self.picks.len()] as usize;
        self.at += 1;
        p % n.max(1)
    }
}

/// Random orders for every power of `game`: each unit walks the map at random (often back where it
/// came from, so routes re-enter areas), attacks are declared where units end (`engage` at sea), PoG
/// units entrench; EiA's waiting insurrection corps walk from one of their power's border provinces.
fn random_orders(game: &Game, state: &State, picks: &[u16]) -> Vec<PowerOrders> {
    let mut p = Picks { picks, at: 0 };
    let mut units: Vec<(String, String, String)> = game
        .ruleset
        .units(state)
        .into_iter()
        .map(|u| (u.id, u.owner, u.area))
        .collect();
    let pog = game.ruleset.id() == "pog";
    let waiting = state
        .table::<EiaState>()
        .map_or(&[][..], |t| &t.insurrection[..]);
    for levy in waiting {
        let borders: Vec<&str> = game
            .map
            .areas
            .iter()
            .filter(|a| a.border.as_deref() == Some(levy.power.as_str()))
            .map(|a| a.id.as_str())
            .collect();
        if !borders.is_empty() {
            let from = borders[p.below(borders.len())].to_string();
            units.push((levy.id.clone(), levy.power.clone(), from));
        }
    }
    let mut out = Vec::new();
    for power in game.config.power_ids() {
        let mut text = String::new();
        for (id, _, area) in units.iter().filter(|u| u.1 == power) {
            let Some(mut here) = game.map.find(area) else {
                continue;
            };
            match p.below(4) {
                0 if !game.map.area(here).is_land() => {
                    text.push_str(&format!("engage {}\n", game.map.area(here).id));
                }
                0 => {}
                1 if pog => text.push_str(&format!("entrench {id}\n")),
                _ => {
                    let steps = 1 + p.below(4);
                    // Half the walks go to and fro between two areas: routes that re-enter.
                    let to_and_fro = p.below(2) == 0;
                    let mut path = Vec::new();
                    let mut before = here;
                    for _ in 0..steps {
                        let next = &game.map.area(here).adjacent;
                        if next.is_empty() {
                            break;
                        }
                        let step = if to_and_fro && !path.is_empty() {
                            before
                        } else {
                            next[p.below(next.len())]
                        };
                        before = here;
                        here = step;
                        path.push(game.map.area(here).id.clone());
                    }
                    if !path.is_empty() {
                        text.push_str(&format!("move {id} {}\n", path.join(" ")));
                    }
                    if p.below(2) == 0 {
                        let target = game.map.area(here).id.clone();
                        if pog {
                            text.push_str(&format!("attack {target} with {id}\n"));
                        } else if !game.map.area(here).is_land() {
                            text.push_str(&format!("engage {target}\n"));
                        } else {
                            text.push_str(&format!("attack {target}\n"));
                        }
                    }
                }
            }
        }
        out.push(PowerOrders {
            power: power.to_string(),
            source: Source::new(format!("{power}.txt"), text),
        });
    }
    out
}

fn seed_of(n: u64) -> Bytes32 {
    tuple_hash(&[b"proptest labels", &n.to_be_bytes()])
}

fn labels_are_unique(name: &'static str, picks: &[u16], seed: u64) -> Result<(), TestCaseError> {
    let (game, state) = scenario(name);
    let orders = random_orders(game, state, picks);
    let mut dice = DiceBox::new(seed_of(seed));
    let resolution = game.ruleset.resolve(game, state, &orders, &mut dice);
    let resolution = match resolution {
        Ok(r) => r,
        Err(e) => return Err(TestCaseError::fail(format!("{e:#}"))),
    };
    let mut seen = BTreeSet::new();
    for e in &resolution.events {
        for r in &e.rolls {
            prop_assert!(
                seen.insert(r.label.clone()),
                "label {} listed twice",
                r.label
            );
        }
    }
    let held = crate::support::labels_hold(game, state, &resolution.events);
    prop_assert!(held.is_ok(), "{}", held.unwrap_err());
    let shown = crate::support::rolls_shown_or_sealed(&resolution.events);
    prop_assert!(shown.is_ok(), "{}", shown.unwrap_err());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_eia_dice_label_repeats_over_random_orders(
        picks in prop::collection::vec(any::<u16>(), 64..256),
        seed in any::<u64>(),
    ) {
        labels_are_unique("ulm-1805", &picks, seed)?;
    }

    #[test]
    fn no_pog_dice_label_repeats_over_random_orders(
        picks in prop::collection::vec(any::<u16>(), 64..256),
        seed in any::<u64>(),
    ) {
        labels_are_unique("pog-1914", &picks, seed)?;
    }
}
