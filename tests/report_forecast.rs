//! `pbem check --forecast`: what a player's own orders would do, from his own view, through the binary.

use std::fs;

use predicates::prelude::*;

use crate::support;
use support::{pbem, unresolved_demo};

#[test]
fn check_forecast_shows_where_units_end_the_combats_declared_and_the_decisions() {
    let (_t, game) = unresolved_demo();
    let out = pbem()
        .args(["check", "--forecast"])
        .arg(&game)
        .arg(game.join("orders/1/france.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "FORECAST of the orders of France for turn 1",
        ))
        .stdout(predicate::str::contains(
            "stops in Ulm: enemy corps you see there",
        ))
        .stdout(predicate::str::contains("Combats you declare (EiA 7.5):"))
        .stdout(predicate::str::contains(
            "attack chit 'outflank' (by your order)",
        ))
        .stdout(predicate::str::contains(
            "would try to march to it (by the SOP)",
        ));
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let forecast = &stdout[stdout.find("FORECAST").unwrap()..];
    // Russia's army in Galicia and the Austrians on the Inn are out of France's sight.
    for hidden in ["RU-IV", "RU-V", "Cracow", "AU-X"] {
        assert!(
            !forecast.contains(hidden),
            "the forecast names {hidden}:\n{forecast}"
        );
    }
}

#[test]
fn check_without_forecast_prints_none_and_a_forged_file_gets_none() {
    let (_t, game) = unresolved_demo();
    pbem()
        .arg("check")
        .arg(&game)
        .arg(game.join("orders/1/france.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains("FORECAST").not());
    let forged = game.join("forged.txt");
    let text = fs::read_to_string(game.join("orders/1/france.txt"))
        .unwrap()
        .replace("password eagle-1805", "password guess");
    fs::write(&forged, text).unwrap();
    pbem()
        .args(["check", "--forecast"])
        .arg(&game)
        .arg(&forged)
        .assert()
        .stdout(predicate::str::contains(
            "no forecast: the orders are not authenticated",
        ))
        .stdout(predicate::str::contains("stops in").not());
}
