//! The dice labels of an EiA turn (pbem-dice/v1). Labels are fixed by the rules, unique within a turn,
//! and name only what a power who sees the event knows: the area, the round, the side, the unit that
//! marches. docs/DICE.md lists them as a table.
//!
//! | kind        | keys in order (land labels of the special insurrection phase end in `phase`) | dice                                   | rule        |
//! |-------------|---------------------|----------------------------------------|-------------|
//! | combat-order| area                | one d1000000: the combat's order key   | 7.5.1.3     |
//! | commander   | area, side          | one die of n (n tied leaders, by id)   | 10.6.1.1    |
//! | reinforce   | area, unit          | one d6                                 | 7.5.2.11    |
//! | combat      | area, round         | two d6: attacker, then defender        | 7.5 (table) |
//! | pursuit     | area                | one d6                                 | 7.5.2.10.2  |
//! | retreat     | area, power         | one die of n (n tied areas, by id)     | 7.5.2.10.3  |
//! | evade       | area, power         | one die of n (n tied areas, by id)     | 10.1.2.2.3  |
//! | outflank    | area, side          | dice of n, n-1, ... infantry, then cavalry | 7.5.2.3 |
//! | artillery   | area, round         | two d6: attacker, then defender        | 7.5.2.8     |
//! | sortie      | area                | two d6: garrison, then besiegers       | 7.5.4.1.2.1 |
//! | siege       | area                | one d6                                 | 7.5.4       |
//! | intercept   | sea, fleet, power, [entry] | one d6                          | 6.2.3       |
//! | naval-evade | sea, fleet, [entry] | one d6                                 | 6.3.2       |
//! | naval       | sea, fleet, round   | two d6: attacker, then defender        | 19.1 chart  |
//! | closing     | sea, fleet, round   | one d6                                 | 19.1 chart  |
//! | chase       | sea, fleet          | one d6                                 | 6.3.5       |
//! | naval-retreat | sea, fleet, power | one die of n (n tied ports, by id)     | 6.3.5       |
//! | insurrection-order | area         | one d1000000: the combat's order key in the special phase | 10.1.4.1.4, 7.5.1.3 |
//!
//! Unique by construction, never by a check at run time: a land label names its area, and each area
//! fights one combat, one siege, one pursuit in each land phase; the special insurrection land phase
//! (10.1.4.1.4) adds the key `phase=insurrection` to every label of its battles (`staged`), so an area
//! fought over in the turn's land phase may be fought over again there. A fleet moves once a turn, so
//! `fleet` (the moving fleet) and `entry` (the how-many-th time its path enters that sea, written only
//! from the second on) name one interception; an interception that succeeds ends the move, so `sea` and
//! `fleet` (the fleet intercepted) name one naval battle, however many are fought in the same sea. An
//! `engage` battle (6.3) and its evasion roll are named by the attacked side's biggest fleet and the
//! attacking power (`fleet=<id>/attacker=<power>`): a power attacks in a sea once a turn, and no
//! interception label has an `attacker` key.

/// The faces of a combat's order key (EiA 7.5.1.3): enough that two keys are rarely equal.
pub const ORDER_KEY_FACES: u32 = 1_000_000;

/// The order key of the combat in `area`: one die of `ORDER_KEY_FACES`.
pub fn combat_order(area: &str) -> String {
    format!("combat-order/area={area}")
}

pub fn commander(area: &str, side: &str) -> String {
    format!("commander/area={area}/side={side}")
}

pub fn reinforce(area: &str, unit: &str) -> String {
    format!("reinforce/area={area}/unit={unit}")
}

pub fn combat_round(area: &str, round: u32) -> String {
    format!("combat/area={area}/round={round}")
}

pub fn pursuit(area: &str) -> String {
    format!("pursuit/area={area}")
}

pub fn retreat(area: &str, power: &str) -> String {
    format!("retreat/area={area}/power={power}")
}

pub fn evade(area: &str, power: &str) -> String {
    format!("evade/area={area}/power={power}")
}

pub fn outflank(area: &str, side: &str) -> String {
    format!("outflank/area={area}/side={side}")
}

pub fn artillery(area: &str, round: u32) -> String {
    format!("artillery/area={area}/round={round}")
}

pub fn sortie(area: &str) -> String {
    format!("sortie/area={area}")
}

pub fn siege(area: &str) -> String {
    format!("siege/area={area}")
}

/// `/entry=N` when a fleet's path enters `sea` for the N-th time (N > 1): nothing on the first entry,
/// so the labels of a path that never re-enters a sea are those of pbem before the key existed.
fn entry_key(entry: u32) -> String {
    if entry > 1 {
        format!("/entry={entry}")
    } else {
        String::new()
    }
}

pub fn intercept(sea: &str, fleet: &str, power: &str, entry: u32) -> String {
    format!(
        "intercept/sea={sea}/fleet={fleet}/power={power}{}",
        entry_key(entry)
    )
}

pub fn naval_evade(sea: &str, fleet: &str, entry: u32) -> String {
    format!("naval-evade/sea={sea}/fleet={fleet}{}", entry_key(entry))
}

/// `fleet` is the moving fleet whose interception began the battle.
pub fn naval_round(sea: &str, fleet: &str, round: u32) -> String {
    format!("naval/sea={sea}/fleet={fleet}/round={round}")
}

pub fn closing(sea: &str, fleet: &str, round: u32) -> String {
    format!("closing/sea={sea}/fleet={fleet}/round={round}")
}

pub fn chase(sea: &str, fleet: &str) -> String {
    format!("chase/sea={sea}/fleet={fleet}")
}

pub fn naval_retreat(sea: &str, fleet: &str, power: &str) -> String {
    format!("naval-retreat/sea={sea}/fleet={fleet}/power={power}")
}

/// The order key of the special insurrection land phase's combat in `area` (EiA 10.1.4.1.4, 7.5.1.3):
/// one die of `ORDER_KEY_FACES`, as `combat_order` is for the turn's combats.
pub fn insurrection_order(area: &str) -> String {
    format!("insurrection-order/area={area}")
}

/// The stage of a land battle in its labels: the turn's land phase has none (`stage` is `None`), the
/// special insurrection land phase appends `/phase=insurrection` (EiA 10.1.4.1.4).
pub fn staged(stage: Option<&str>, label: String) -> String {
    match stage {
        Some(s) => format!("{label}/phase={s}"),
        None => label,
    }
}

/// The key an `engage` battle (EiA 6.3) gives the labels' `fleet`: the attacked side's biggest fleet
/// and the attacking power.
pub fn engaged(fleet: &str, attacker: &str) -> String {
    format!("{fleet}/attacker={attacker}")
}

/// The table above as data (`dice::labels`): every label of an EiA turn matches one of these
/// patterns, and `pbem verify` rejects one that matches none. A land label may end in
/// `/phase=insurrection` (`staged`); a naval label's `fleet` may be followed by `attacker` (`engaged`).
pub const GRAMMAR: crate::dice::labels::Grammar = {
    use crate::dice::labels::{Grammar, Kind};
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
    Grammar {
        ruleset: "eia",
        name: "Empires in Arms",
        kinds: &[
            k(
                "combat-order/area={place@area}",
                &["combat-order"],
                "d1000000",
                "EiA 7.5.1.3",
            ),
            k(
                "insurrection-order/area={place@area}",
                &["combat-order"],
                "d1000000",
                "EiA 10.1.4.1.4, 7.5.1.3",
            ),
            k(
                "commander/area={place@area}/side={attacker|defender}/phase=insurrection?",
                &["decision"],
                "one die of n, n tied leaders",
                "EiA 10.6.1.1",
            ),
            k(
                "reinforce/area={place@area}/unit={id@text}/phase=insurrection?",
                &["reinforce"],
                "d6",
                "EiA 7.5.2.11",
            ),
            k(
                "combat/area={place@area}/round={n}/phase=insurrection?",
                &["round"],
                "d6 d6: attacker, defender",
                "EiA 7.5",
            ),
            k(
                "pursuit/area={place@area}/phase=insurrection?",
                &["pursuit"],
                "d6",
                "EiA 7.5.2.10.2",
            ),
            k(
                "retreat/area={place@area}/power={power@text}/phase=insurrection?",
                &["retreat"],
                "one die of n, n tied areas",
                "EiA 7.5.2.10.3",
            ),
            k(
                "evade/area={place@area}/power={power@text}/phase=insurrection?",
                &["retreat"],
                "one die of n, n tied areas",
                "EiA 10.1.2.2.3",
            ),
            k(
                "outflank/area={place@area}/side={attacker|defender}/phase=insurrection?",
                &["decision"],
                "dice of n, n-1, ...",
                "EiA 7.5.2.3",
            ),
            k(
                "artillery/area={place@area}/round={n}/phase=insurrection?",
                &["artillery"],
                "d6 d6: attacker, defender",
                "EiA 7.5.2.8",
            ),
            k(
                "sortie/area={place@area}/phase=insurrection?",
                &["siege"],
                "d6 d6: garrison, besiegers",
                "EiA 7.5.4.1.2.1",
            ),
            k(
                "siege/area={place@area}/phase=insurrection?",
                &["siege"],
                "d6",
                "EiA 7.5.4",
            ),
            k(
                "intercept/sea={place@area}/fleet={id@text}/power={power@text}/entry={n}?",
                &["intercept"],
                "d6",
                "EiA 6.2.3",
            ),
            k(
                "naval-evade/sea={place@area}/fleet={id}/attacker={power}?/entry={n}?",
                &["evade"],
                "d6",
                "EiA 6.3.2",
            ),
            k(
                "naval/sea={place@area}/fleet={id}/attacker={power}?/round={n}",
                &["naval-round"],
                "d6 d6: attacker, defender",
                "EiA 19.1 chart",
            ),
            k(
                "closing/sea={place@area}/fleet={id}/attacker={power}?/round={n}",
                &["closing"],
                "d6",
                "EiA 19.1 chart",
            ),
            k(
                "chase/sea={place@area}/fleet={id}/attacker={power}?",
                &["chase"],
                "d6",
                "EiA 6.3.5",
            ),
            k(
                "naval-retreat/sea={place@area}/fleet={id}/attacker={power}?/power={power}",
                &["naval-retreat"],
                "one die of n, n tied ports",
                "EiA 6.3.5",
            ),
        ],
        says: &["rolls", "roll", "key"],
        works: &["(modified"],
        rolled: &[
            "combat-order",
            "round",
            "artillery",
            "intercept",
            "evade",
            "naval-round",
            "closing",
            "chase",
        ],
    }
};
