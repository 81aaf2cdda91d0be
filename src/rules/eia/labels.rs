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
