//! The game folder loader, and a turn on what it loads: one input holds game.toml, map.toml,
//! state.toml and an orders file, separated by lines `%%%%`. Loading must reject bad files with a
//! located error, never a panic; a game that loads must check its orders and resolve its turn in
//! memory without a panic, and write a next state that loads again.
#![no_main]

use libfuzzer_sys::fuzz_target;

use pbem::diag::Source;
use pbem::engine::dice_box::DiceBox;
use pbem::rules::PowerOrders;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.splitn(4, pbem_fuzz::SEPARATOR);
    let (game, map, state) = (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    );
    let orders = parts.next();
    let Some((game, state)) = pbem_fuzz::load(game, map, state) else {
        return;
    };
    let mut accepted = Vec::new();
    if let Some(orders) = orders {
        let source = Source::new("orders.txt", orders);
        let checked = game.ruleset.check_orders(&game, &state, &source);
        let _ = source.render(&checked.diagnostics);
        if let Some(power) = checked.power {
            accepted.push(PowerOrders { power, source });
        }
    }
    let mut dice = DiceBox::new([7; 32]);
    // A turn may be refused (an error), never a panic.
    if let Ok(resolution) = game.ruleset.resolve(&game, &state, &accepted, &mut dice) {
        let mut next = resolution.next;
        next.turn = state.turn + 1;
        let text = toml::to_string(&next).expect("a state serializes");
        let again = game.parse_state(&Source::new("state.toml", text));
        assert!(
            again.is_ok(),
            "the next state does not load: {:?}",
            again.err()
        );
    }
});
