//! The entropy text of an orders file, exactly (docs/DICE.md, "The entropy text"): the
//! vectors of docs/DICE.md, each read from an orders file the way `pbem` reads it and hashed into `E_p`.

/// `(the entropy line as written, the entropy text, E_p under pbem-dice/v1)`.
const VECTORS: [(&str, &str, &str); 8] = [
    (
        "entropy the eagle flies at dawn",
        "the eagle flies at dawn",
        "f408deccd4bfd0330b0466c0affb0d5c0f8ef69997caed46c791743048ee7ef5",
    ),
    // The keyword in any case; separators and a CR at the end dropped.
    (
        "ENTROPY   the eagle flies at dawn   \r",
        "the eagle flies at dawn",
        "f408deccd4bfd0330b0466c0affb0d5c0f8ef69997caed46c791743048ee7ef5",
    ),
    // A comment ends the text.
    (
        "entropy the eagle flies # at dawn",
        "the eagle flies",
        "88a19ba1e224d9b435a2b8df98956c12492057bf26c6a6b4914c8edc235b783a",
    ),
    // Zero-width spaces at either end are separators, and dropped.
    (
        "entropy \u{200b}the eagle\u{200b}",
        "the eagle",
        "6a64ba583c0a46d372f329baec755898d82762a5aa528e873e820df8209b2a28",
    ),
    // Inside the text nothing is collapsed or replaced: two spaces, a no-break space stay.
    (
        "entropy\u{a0}the  eagle\u{a0}flies\u{3000}",
        "the  eagle\u{a0}flies",
        "e631c58fc0e1158d41db4fdddd38f239929ebde02a51d3aeff1713a840cb0fc1",
    ),
    // U+001F is not White_Space: it stays, at the end too.
    (
        "entropy the eagle\u{1f}",
        "the eagle\u{1f}",
        "82a7e7711adb4979bd08d05a7958f0202b445a99244044783e1a8a6c390dc886",
    ),
    // A byte-order mark before the text is a separator.
    (
        "entropy \u{feff}caf\u{e9}",
        "caf\u{e9}",
        "fec6e8f7475bd7590057e2e6b3e40584768f4b8cc8de01f004b311f35b279877",
    ),
    // No Unicode normalization: e + combining acute is not U+00E9.
    (
        "entropy cafe\u{301}",
        "cafe\u{301}",
        "98d64744725d4339478c7db386b2dd3c49c27998e6d31719dfbf9f8b4922ac32",
    ),
];

fn entropy_text(line: &str) -> Option<String> {
    let text = format!("game ulm-1805\npower france\n{line}\nturn 1\n");
    let (header, _, _) = pbem::orders::Header::take(&text, pbem::orders::split(&text));
    header.entropy.map(|e| e.value)
}

#[test]
fn the_entropy_text_is_read_exactly_as_the_readme_defines_it() {
    for (line, text, e) in VECTORS {
        assert_eq!(entropy_text(line).as_deref(), Some(text), "{line:?}");
        assert_eq!(
            pbem::dice::to_hex(&pbem::dice::entropy(text)),
            e,
            "{line:?}"
        );
    }
}

#[test]
fn an_entropy_line_with_nothing_but_separators_and_a_comment_gives_no_entropy() {
    assert_eq!(entropy_text("entropy \u{200b} # nothing"), None);
}
