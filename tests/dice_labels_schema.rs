//! `schema/dice-labels.json` is the rulesets' grammars of dice labels as `pbem verify` reads them
//! (`pbem::dice::labels`), for anyone who re-implements verify: the file is what the code says.
//! `PBEM_BLESS=1` writes it anew.

#[test]
fn the_published_label_grammar_is_the_one_verify_reads() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/dice-labels.json");
    let now = pbem::dice::labels::to_json(&pbem::rules::LABEL_GRAMMARS);
    if std::env::var_os("PBEM_BLESS").is_some() {
        std::fs::write(&path, &now).unwrap();
    }
    let published = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        published == now,
        "schema/dice-labels.json is not the grammar of src/rules/*/labels.rs: run the test with PBEM_BLESS=1 and commit the file"
    );
}
