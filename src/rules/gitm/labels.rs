//! The dice labels of a GITM turn (pbem-dice/v1), as data (`dice::labels`). The labels are written
//! where they are rolled (`turn.rs` for the strategic turn, `tactical/` for the tactical maps under
//! `gitm/tac/<square>/phase=<k>`); this table is what they may be, and `tests/proptest_labels.rs`
//! holds every label a resolution rolls to it. A tactical roll no event names goes with the square's
//! last event of the phase (`tactical/hook.rs`), so each tactical kind may stand under any of the
//! tactical events' kinds.

use crate::dice::labels::{Grammar, Kind};

/// The kinds of the events of a tactical map (`tactical/event.rs`).
const TACTICAL: &[&str] = &["tactical", "battle", "combat", "result"];

const fn k(
    pattern: &'static str,
    events: &'static [&'static str],
    dice: &'static str,
    rule: &'static str,
) -> Kind {
    Kind {
        pattern,
        events,
        dice,
        rule,
    }
}

pub const GRAMMAR: Grammar = Grammar {
    ruleset: "gitm",
    name: "Gathered In Their Masses",
    kinds: &[
        k("gitm/t{turn}/strategic-{n}/order", &["order"], "a shuffle of the units moving", "GITM 7.6"),
        k("gitm/t{turn}/withdrawal/order", &["order"], "a shuffle of the units withdrawing", "GITM 7.6"),
        k("gitm/t{turn}/withdrawal/{id@text}", &["march"], "d11 near an enemy, else d6", "GITM 7.5"),
        k("gitm/t{turn}/siege/{place@area}/{spot}", &["siege"], "d6", "GITM 2.7"),
        k("gitm/t{turn}/sight/{power}/{place}", &["sighting"], "d6 d6, sealed", "pbem gitm/noise"),
        k("gitm/t{turn}/hq/{power}/{id}", &["report"], "d6 d3 d3, sealed", "GITM 4.7"),
        k("gitm/t{turn}/late/{power}/{place}", &["report"], "d5 d5 d6, sealed", "GITM 4.7"),
        k("gitm/tac/{place@area}/phase={n}/order/{fast|slow}", TACTICAL, "a shuffle of the brigades", "GITM 8.6"),
        k("gitm/tac/{place@area}/phase={n}/combat={spot}/fire/{attacker|defender}", TACTICAL, "d6", "GITM 9.1"),
        k("gitm/tac/{place@area}/phase={n}/combat={spot}/melee", TACTICAL, "d6", "GITM 9.1"),
        k("gitm/tac/{place@area}/phase={n}/combat={spot}/morale={id@text}", TACTICAL, "d100", "GITM 9.2"),
        k("gitm/tac/{place@area}/phase={n}/combat={spot}/hq={id@text}", TACTICAL, "d100", "GITM 9.2"),
        k("gitm/tac/{place@area}/phase={n}/combat={spot}/lines/{attacker|defender}/{front|second}", TACTICAL, "one die of n, n brigades", "GITM 9.3"),
    ],
    says: &["(d6", "d6", "d100"],
    works: &["artillery ="],
    rolled: &["order"],
};
