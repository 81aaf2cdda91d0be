//! The mail ingest of one message: any bytes as a raw message (and as an mbox). The parser adapter
//! (`mail::parse`), the finding of orders (`mail::extract`) and the check of the orders found must
//! never panic. (`mail::ingest` judges each message inside `catch_unwind` as a last resort; a panic
//! found here is a bug all the same.)
#![no_main]

use libfuzzer_sys::fuzz_target;

use pbem::diag::Source;
use pbem::mail::extract::{extract, Extracted};
use pbem::mail::parse;

fuzz_target!(|data: &[u8]| {
    let _ = parse::header_block(data);
    let _ = parse::stamps(data);
    let _ = parse::outgoing_headers(data);
    if let Some(message) = parse::parse(data) {
        let _ = message.sender.address();
        if let Extracted::Orders(found) = extract(&message, 1 << 20) {
            let (game, state) = pbem_fuzz::demo();
            let source = Source::new(found.file_name.as_str(), found.text.clone());
            let checked = game.ruleset.check_orders(game, state, &source);
            let _ = source.render(&checked.diagnostics);
        }
    }
    for m in parse::read_mbox(std::io::Cursor::new(data)).take(8) {
        let Ok(m) = m else { break };
        let _ = parse::parse(&m.bytes);
    }
});
