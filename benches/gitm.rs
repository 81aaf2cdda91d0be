//! A Gathered In Their Masses turn on a synthetic map of the seed's size (GITM 1.1: 120x80 strategic
//! squares, a 15x15 tactical map under each) with 2,000 brigades of two sides, each side ordering 500
//! of them (the most lines of one orders file) on a random walk, the rest on their defaults (6.9):
//! `Ruleset::resolve` in memory, beside its floor (the same orders parsed and checked alone):
//! `cargo bench --bench gitm`. The game is the bundled `gitm-italy-1809` with the synthetic map and
//! state written over its own, made once before the timing.

use std::fmt::Write as _;

use divan::Bencher;
use pbem::diag::Source;
use pbem::engine::dice_box::DiceBox;
use pbem::game::map::Topology;
use pbem::game::state::State;
use pbem::game::Game;
use pbem::rules::PowerOrders;

/// Brigades in the game.
const BRIGADES: usize = 2_000;

fn main() {
    divan::main();
}

/// The game, its turn-1 state and both sides' orders.
fn setup() -> (tempfile::TempDir, Game, State, Vec<PowerOrders>) {
    let tmp = tempfile::tempdir().expect("a scratch folder");
    let dir = tmp.path().join("gitm-italy-1809");
    pbem::bundled::write_scenario("gitm-italy-1809", &dir).expect("the scenario is written");
    std::fs::write(
        dir.join("map.toml"),
        pbem::synth::map::grid_map(120, 80, 15),
    )
    .expect("the map is written");
    // The scenario's tactical maps draw Italy's squares, not the synthetic map's: every square's
    // tactical map is the synthetic `[sub]` grid.
    std::fs::remove_dir_all(dir.join("tactical")).expect("the Italian tactical maps are removed");
    // The brigades on the open squares of the synthetic map, France west and Austria east.
    let text = {
        let game = Game::load(&dir).expect("the game loads");
        let map = pbem::rules::gitm::grid_map(&game).expect("a grid map");
        let open: Vec<_> = map
            .places()
            .into_iter()
            .filter(|&sq| map.terrain(sq) == "open")
            .collect();
        let mut s = String::from("game = \"gitm-italy-1809\"\nturn = 1\n\n[relations]\nhostile = [[\"france\", \"austria\"]]\n\n[gitm]\nseason = \"campaign\"\n\n");
        for i in 0..BRIGADES {
            let (power, nat) = if i % 2 == 0 {
                ("france", "FR")
            } else {
                ("austria", "AU")
            };
            let sq = open[(i * 7919) % open.len()];
            let kind = ["IN", "LI", "LC", "MC", "LA", "IN"][i % 6];
            let _ = write!(
                s,
                "[[gitm.brigade]]\nid = \"{nat}{i}{kind}\"\npower = \"{power}\"\nat = \"{}/{}-{}\"\nstrength = 3000\nquality = \"good\"\n\n",
                map.place_name(sq),
                i % 15,
                (i / 15) % 15
            );
        }
        s
    };
    std::fs::write(dir.join("turns/1/state.toml"), text).expect("the state is written");
    let game = Game::load(&dir).expect("the game loads");
    let state = game.load_state(1).expect("the state loads");
    let map = pbem::rules::gitm::grid_map(&game).expect("a grid map");
    let g = state
        .table::<pbem::rules::gitm::state::GitmState>()
        .expect("a [gitm] table");
    let mut orders = Vec::new();
    for (power, header) in [
        (
            "france",
            "game gitm-italy-1809\npower france\nplayer eugene\npassword eagle-1805\nturn 1\n",
        ),
        (
            "austria",
            "game gitm-italy-1809\npower austria\npassword danube-1805\nturn 1\n",
        ),
    ] {
        let mut text = header.to_string();
        for (k, b) in g
            .brigades
            .iter()
            .filter(|b| b.power() == power)
            .take(500)
            .enumerate()
        {
            let mut here = map.parse_place(b.square()).expect("a square");
            let mut boxes = Vec::new();
            for step in 0..4 {
                let next = map.neighbours(here);
                here = next[(k * 31 + step * 7) % next.len()];
                boxes.push(map.place_name(here));
            }
            let _ = writeln!(
                text,
                "move {} {} pursue\nsupply {} none",
                b.id(),
                boxes.join(" "),
                b.id()
            );
        }
        orders.push(PowerOrders {
            power: power.to_string(),
            source: Source::new(format!("{power}.txt"), text),
        });
    }
    (tmp, game, state, orders)
}

/// `Ruleset::resolve`: supply, withdrawal, five tactical and six strategic phases, detection.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn turn_120x80_2000_brigades(bencher: Bencher) {
    let (_tmp, game, state, orders) = setup();
    bencher.bench_local(|| {
        let mut dice = DiceBox::new([1; 32]).with_seal(Some([2; 32]));
        game.ruleset
            .resolve(&game, &state, &orders, &mut dice)
            .map(|r| r.events.len())
            .expect("the turn resolves")
    });
}

/// The floor: the same orders read and checked, no turn.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn turn_120x80_2000_brigades_floor(bencher: Bencher) {
    let (_tmp, game, state, orders) = setup();
    bencher.bench_local(|| {
        orders
            .iter()
            .map(|o| {
                game.ruleset
                    .check_orders(&game, &state, &o.source)
                    .accepted
                    .len()
            })
            .sum::<usize>()
    });
}
