//! The order language: any bytes as an orders file of the demo game. Decoding, splitting, the header
//! (`Header::take`, authentication), the EiA parse and the legality checks must never panic, every
//! diagnostic must point inside the text and render, and every order accepted must print as a
//! canonical text that parses back to the same order.
#![no_main]

use libfuzzer_sys::fuzz_target;

use pbem::diag::Source;
use pbem::rules::eia::orders::{parse_all, parse_line, Context};
use pbem::rules::eia::Eia;

fuzz_target!(|data: &[u8]| {
    let text = match pbem::orders::decode(data) {
        Ok(text) => text,
        Err(d) => {
            // Rendered against the printable text, as `engine::inputs::read_orders` does.
            assert!(d.span.end <= data.len());
            let _ = Source::new("orders.txt", pbem::orders::printable(data)).render(&[d]);
            return;
        }
    };
    let (game, state) = pbem_fuzz::demo();
    let eia = game.ruleset.as_any().downcast_ref::<Eia>().unwrap();
    let cx = Context::new(&game.map, state, &eia.tables);
    let source = Source::new("orders.txt", text.clone());

    // The whole check, as `pbem check` and the turn run it.
    let checked = game.ruleset.check_orders(game, state, &source);
    for d in &checked.diagnostics {
        assert!(
            d.span.start <= d.span.end && d.span.end <= text.len(),
            "{:?}",
            d.span
        );
    }
    let _ = source.render(&checked.diagnostics);

    // The parse alone, for every power, authenticated or not.
    let lines = pbem::orders::split(&text);
    let (_, lines, _) = pbem::orders::Header::take(&text, lines);
    for line in &lines {
        if let Ok(order) = parse_line(line, &cx) {
            let canonical = order.to_string();
            let again = pbem::orders::split(&canonical);
            let back = parse_line(&again[0], &cx).expect("a canonical order parses");
            assert_eq!(back, order, "{canonical:?}");
        }
    }
    for (power, _) in pbem_fuzz::PASSWORDS {
        let (ok, diags) = parse_all(&source, &lines, power, &cx);
        for d in &diags {
            assert!(d.span.end <= text.len());
        }
        for o in ok {
            assert!(o.span.end <= text.len());
        }
    }
});
