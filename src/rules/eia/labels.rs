//! The dice labels of an EiA turn (pbem-dice/v1). Labels are fixed by the rules, unique within a turn,
//! and name only what a power who sees the event knows: the area, the round, the side, the unit that
//! marches. README "Auditing the dice" lists them as a table.
//!
//! | kind        | keys in order       | dice                                   | rule        |
//! |-------------|---------------------|----------------------------------------|-------------|
//! | combat-order| (none)              | shuffle of the combat areas, sorted by id | 7.5.1.3  |
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
//! | intercept   | sea, fleet, power   | one d6                                 | 6.2.3       |
//! | naval-evade | sea, fleet          | one d6                                 | 6.3.2       |
//! | naval       | sea, round          | two d6: attacker, then defender        | 19.1 chart  |
//! | closing     | sea, round          | one d6                                 | 19.1 chart  |
//! | chase       | sea                 | one d6                                 | 6.3.5       |
//! | naval-retreat | sea, power        | one die of n (n tied ports, by id)     | 6.3.5       |
//! | insurrection-order | (none)         | shuffle of the special phase's combat areas, sorted by id | 10.1.4.1.4, 7.5.1.3 |

pub fn combat_order() -> String {
    "combat-order".to_string()
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

pub fn intercept(sea: &str, fleet: &str, power: &str) -> String {
    format!("intercept/sea={sea}/fleet={fleet}/power={power}")
}

pub fn naval_evade(sea: &str, fleet: &str) -> String {
    format!("naval-evade/sea={sea}/fleet={fleet}")
}

pub fn naval_round(sea: &str, round: u32) -> String {
    format!("naval/sea={sea}/round={round}")
}

pub fn closing(sea: &str, round: u32) -> String {
    format!("closing/sea={sea}/round={round}")
}

pub fn chase(sea: &str) -> String {
    format!("chase/sea={sea}")
}

pub fn naval_retreat(sea: &str, power: &str) -> String {
    format!("naval-retreat/sea={sea}/power={power}")
}

pub fn insurrection_order() -> String {
    "insurrection-order".to_string()
}
