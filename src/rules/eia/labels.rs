//! The dice labels of an EiA turn (pbem-dice/v1). Labels are fixed by the rules, unique within a turn,
//! and name only what a power who sees the event knows: the area, the round, the side, the unit that
//! marches. README "Auditing the dice" lists them as a table.
//!
//! | kind        | keys in order       | dice                                   | rule        |
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
//!
//! Unique by construction, never by a check at run time: a land label names its area, and each area
//! fights one combat, one siege, one pursuit a turn; a fleet moves once a turn, so `fleet` (the moving
//! fleet) and `entry` (the how-many-th time its path enters that sea, written only from the second on)
//! name one interception; an interception that succeeds ends the move, so `sea` and `fleet` (the fleet
//! intercepted) name one naval battle, however many are fought in the same sea. An `engage` battle
//! (and its evasion roll) is named by the attacked side's biggest fleet: it is fought only in a sea
//! where no battle was fought this turn.
//! | intercept   | sea, fleet, power   | one d6                                 | 6.2.3       |
//! | naval-evade | sea, fleet          | one d6                                 | 6.3.2       |
//! | naval       | sea, round          | two d6: attacker, then defender        | 19.1 chart  |
//! | closing     | sea, round          | one d6                                 | 19.1 chart  |
//! | chase       | sea                 | one d6                                 | 6.3.5       |
//! | naval-retreat | sea, power        | one die of n (n tied ports, by id)     | 6.3.5       |
//! | insurrection-order | (none)         | shuffle of the special phase's combat areas, sorted by id | 10.1.4.1.4, 7.5.1.3 |

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

pub fn insurrection_order() -> String {
    "insurrection-order".to_string()
}
