//! The Empires in Arms demo (Ulm 1805) end to end through the CLI, beyond what every ruleset's
//! scenario shows (`rulesets.rs`): its texts name each power as the scenario does and count in
//! words that agree with their numbers. The reports of turn 1 are kept as snapshots in `cli.rs`
//! and `report_formats.rs`.

use crate::support;

use crate::rulesets::{assert_powers_named_but, resolved_in_wording_at, ULM};

/// What a number with its noun must not say: "1 factors", "1 ships", "1 areas".
const DISAGREEING: [&str; 6] = [
    " 1 factors",
    "(1 factors",
    " 1 ships",
    "(1 ships",
    " 1 areas",
    "(1 areas",
];

/// pbem eia, EiA 7.5, 6.2.3, 6.3: every text a player reads names a power as the scenario gives it
/// ("AU-IX (Austria) moves Venice - Verona", "France wins at Ulm; Austria breaks", "the biggest
/// fleet of Great Britain"), never by its id ("austria", "britain": the words of pbem's game.toml),
/// save where a die's label binds the power's id to the text (a rolled retreat, an interception:
/// verify.html checks the label so); and a number agrees with its noun ("1 factor", "1 ship", "1
/// area away"): the turn log's texts, each report's events and units, and `check --forecast`.
#[test]
fn eia_texts_name_each_power_as_the_scenario_does() {
    let seen = assert_powers_named_but(
        &ULM,
        &["france", "austria", "russia", "britain"],
        &["France", "Austria", "Russia", "Great Britain"],
        ULM.reports,
        |l| l.starts_with("- "),
        |l| l.contains(" to intercept ") || l.contains("the die chooses"),
    );
    assert!(seen > 50, "the texts name the powers {seen} times");
    let log = ULM.logs();
    for text in [
        "AU-IX (Austria) moves Venice - Verona.",
        "GB-Downs (Great Britain) does not intercept FR-Flotilla at English-Channel",
        "Russia plays the attack chit 'assault' at Passau (by its order).",
        "Battle of Ulm: France with FR-V, FR-VI, FR-Gd, FR-Cav (26 factors, ",
        "France wins at Ulm; Austria breaks.",
        "France pursues at Ulm (by the SOP): rolls 1, cavalry modifier +1: Austria loses 0 factors more.",
        "Austria retreats from Ulm to Augsburg (nearest a depot or capital, 1 area away): ",
        "AU-Ins-1 attacked with Austria's corps in the turn's land phase",
        "FR-II (France) is destroyed in combat in Passau.",
        "Russia takes control of Passau (was held by France).",
        "Naval battle at English-Channel: Great Britain (14 ships, melee, modifier +2) against France (4 ships, ",
        "Great Britain loses 3 ships and 2.0 morale, France loses 1 ship and 1.0 morale.",
        "GB-Channel, the biggest fleet of Great Britain in English-Channel, carries GB-I across.",
    ] {
        assert!(log.contains(text), "the demo has no '{text}'");
    }
    for wrong in DISAGREEING {
        assert!(!log.contains(wrong), "the log says '{wrong}'");
    }
    let austria = ULM.report(2, "austria", "txt");
    assert!(
        austria.contains("infantry corps, 1 factor, morale 3.0"),
        "{austria}"
    );
    for turn in 1..=ULM.turns {
        for power in ULM.reports {
            let report = ULM.report(turn, power, "txt");
            for wrong in DISAGREEING {
                assert!(!report.contains(wrong), "{power}, turn {turn}: '{wrong}'");
            }
        }
    }
    // The forecast of a power's orders names it so too.
    let (_t, game) = support::unresolved_demo();
    let out = support::forecast(&game, &game.join("orders/1/france.txt"));
    assert!(
        out.contains("FORECAST of the orders of France for turn 1"),
        "{out}"
    );
}

/// A turn resolved before EiA's texts named the powers (its record names no wording: wording 0,
/// "france takes control of Augsburg (was held by austria)", "1 ships") is re-resolved by `audit`
/// in its own words, every byte compared, and its line says so.
#[test]
fn audit_tells_an_eia_turn_resolved_before_its_texts_named_the_powers_in_its_own_words() {
    let (_t, _dir, log) = resolved_in_wording_at(
        &ULM,
        2,
        0,
        "france takes control of Augsburg (was held by austria).",
        "its texts named each power by its id and said '1 factors', where this one gives the power's name as the scenario does and a number agreeing with its noun",
    );
    assert!(
        log.contains("britain loses 3 ships and 2.0 morale, france loses 1 ships and 1.0 morale."),
        "{log}"
    );
    assert!(log.contains("AU-VI (austria) tries to march"), "{log}");
}
