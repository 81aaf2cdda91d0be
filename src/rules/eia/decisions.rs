//! The decision points of an EiA turn and their Standing Operating Procedures (EiA 19.1). Each is
//! settled by `decide::decide`: explicit order, standing order, SOP setting, roll. Adding a decision is
//! one variant here and its policy (rule, key, default) in the `Point` impl.

use crate::decide::Point;
use crate::game::ruleset::GameOption;
use crate::rule::Rule;

use super::tables::Tables;

/// EiA 7.5.1.3: the order of land combats is determined randomly.
pub const COMBAT_ORDER: Rule = Rule::new("EiA", "7.5.1.3", "the order of combats is random");
/// EiA 19.1: the tactical chit of each side, the first of the four interrupts, made a standing order.
pub const CHIT: Rule = Rule::new(
    "EiA",
    "19.1",
    "tactical chit by order, standing order or SOP",
);
/// EiA 7.5.2.10.2: victorious forces always pursue.
pub const PURSUIT: Rule = Rule::new("EiA", "7.5.2.10.2", "victors always pursue");
/// EiA 7.5.2.10.3: retreat toward the nearest depot or capital, random among equals.
pub const RETREAT: Rule = Rule::new(
    "EiA",
    "7.5.2.10.3",
    "retreat toward the nearest depot or capital, random among equals",
);
/// EiA 7.5.2.11: forces eligible to reinforce a combat always try.
pub const REINFORCE: Rule = Rule::new(
    "EiA",
    "7.5.2.11",
    "eligible forces always attempt to reinforce",
);
/// EiA 10.6.1.1: among equally eligible leaders of different nationality, seniority, then at random.
pub const COMMANDER: Rule = Rule::new(
    "EiA",
    "10.6.1.1",
    "force commander by seniority, then at random",
);

/// EiA 7.5.1.1: defenders retire into the city when all fit and they are fewer than the enemy.
pub const RETIRE: Rule = Rule::new(
    "EiA",
    "7.5.1.1",
    "defenders retire into the city when all fit and they are outnumbered",
);
/// EiA 7.5.2.3: an outflanking force is at most a third (at least one) of the regular infantry and one cavalry corps.
pub const OUTFLANK: Rule = Rule::new(
    "EiA",
    "7.5.2.3",
    "outflanking force: a third of the infantry, one cavalry corps, at random",
);
/// EiA 7.5.2.8: artillery is always used before each round; the guard is committed by standing order.
pub const ARTILLERY: Rule = Rule::new("EiA", "7.5.2.8", "artillery fires before each round");
/// EiA 7.5.2.8 with 19.1 (second interrupt): committing the guard, by standing order or SOP.
pub const GUARD: Rule = Rule::new("EiA", "7.5.2.8", "the guard is committed by standing order");
/// EiA 19.1 (third interrupt): fighting further days of combat, by standing order or SOP.
pub const FURTHER_DAYS: Rule = Rule::new("EiA", "19.1", "further days of combat by standing order");
/// EiA 10.1.2.2.3: eligible cossacks and freikorps always retreat before combat.
pub const EVADE: Rule = Rule::new(
    "EiA",
    "10.1.2.2.3",
    "cossacks and freikorps retreat before combat",
);
/// EiA 7.5.4.1.2.1: defenders always sortie unless the garrison is a single factor.
pub const SORTIE: Rule = Rule::new(
    "EiA",
    "7.5.4.1.2.1",
    "defenders sortie unless the garrison is one factor",
);
/// EiA 7.5.4: the besieger tries to breach the walls (the siege table is the game's own).
pub const SIEGE: Rule = Rule::new("EiA", "7.5.4", "siege: breaching the walls");
/// EiA 7.5.4: a garrison holds its city from turn to turn: an attack on it alone is its siege, and
/// while besieged it does not march out.
pub const GARRISON: Rule = Rule::new(
    "EiA",
    "7.5.4",
    "a garrison holds its city: attacked, it is besieged; besieged, it stays",
);
/// EiA 7.5.4.1.2.3.1: the defender, unless Turkish or Spanish, always asks for the honours of war.
pub const HONOURS: Rule = Rule::new(
    "EiA",
    "7.5.4.1.2.3.1",
    "the defender asks for the honours of war",
);
/// EiA 19.1 (fourth interrupt): a breached garrison denied the honours surrenders by standing order.
pub const SURRENDER: Rule = Rule::new(
    "EiA",
    "19.1",
    "a breached garrison surrenders by standing order",
);

/// EiA 6.2.3 (SOP): non-moving fleets always try to intercept enemy fleets with fewer ships.
pub const INTERCEPT: Rule = Rule::new(
    "EiA",
    "6.2.3",
    "non-moving fleets intercept weaker enemy fleets",
);
/// EiA 6.3.2 (SOP): fleets evade unless their side has more ships.
pub const EVADE_AT_SEA: Rule =
    Rule::new("EiA", "6.3.2", "fleets evade unless they have more ships");
/// EiA 19.1: the Tactical Naval Combat Chart, its modifiers and the Closing to Melee table.
pub const NAVAL_COMBAT: Rule = Rule::new(
    "EiA",
    "19.1",
    "naval combat on the Tactical Naval Combat Chart",
);
/// EiA 6.3.5 (SOP): victorious stacks of fleets never pursue.
pub const CHASE: Rule = Rule::new("EiA", "6.3.5", "victorious fleets never pursue");
/// EiA 6.3.5 (SOP): defeated fleets retreat to the nearest unblockaded friendly port.
pub const NAVAL_RETREAT: Rule = Rule::new(
    "EiA",
    "6.3.5",
    "defeated fleets retreat to the nearest unblockaded friendly port",
);
/// EiA 19.1: naval tactics by standing order or SOP.
pub const TACTICS: Rule = Rule::new("EiA", "19.1", "naval tactics by standing order or SOP");

/// EiA 10.1.4.1: insurrection corps are placed at the end of an enemy land movement step, by
/// standing order in mail play.
pub const INSURRECTION: Rule = Rule::new(
    "EiA",
    "10.1.4.1",
    "insurrection corps placed after enemy movement into a border province",
);
/// EiA 10.1.4.1.4: a special land phase for the insurrection corps just placed.
pub const INSURRECTION_PHASE: Rule = Rule::new(
    "EiA",
    "10.1.4.1.4",
    "a special insurrection land phase for the corps just placed",
);

/// A decision of an EiA turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EiaPoint {
    /// The attacker's tactical chit.
    AttackChit,
    /// The defender's tactical chit.
    DefenceChit,
    /// Whether the victor pursues.
    Pursue,
    /// Whether an eligible corps tries to reinforce.
    Reinforce,
    /// When the side commits its guard.
    Guard,
    /// Whether the attacker fights a further day.
    Continue,
    /// Whether the defender stands for a further day the attacker wants (same key, `continue`).
    ContinueDefending,
    /// Whether the besieger grants the honours of war.
    Honours,
    /// Whether a breached garrison denied the honours surrenders.
    Surrender,
    /// Whether non-moving fleets try to intercept.
    Intercept,
    /// A power's naval tactics.
    Tactics,
    /// Whether victorious fleets give chase.
    Chase,
    /// Whether insurrection corps are raised.
    Insurrection,
}

impl Point for EiaPoint {
    fn rule(&self) -> Rule {
        match self {
            EiaPoint::AttackChit | EiaPoint::DefenceChit => CHIT,
            EiaPoint::Pursue => PURSUIT,
            EiaPoint::Reinforce => REINFORCE,
            EiaPoint::Guard => GUARD,
            EiaPoint::Continue | EiaPoint::ContinueDefending => FURTHER_DAYS,
            EiaPoint::Honours => HONOURS,
            EiaPoint::Surrender => SURRENDER,
            EiaPoint::Intercept => INTERCEPT,
            EiaPoint::Tactics => TACTICS,
            EiaPoint::Chase => CHASE,
            EiaPoint::Insurrection => INSURRECTION,
        }
    }

    fn key(&self) -> &'static str {
        match self {
            EiaPoint::AttackChit => "attack-chit",
            EiaPoint::DefenceChit => "defence-chit",
            EiaPoint::Pursue => "pursue",
            EiaPoint::Reinforce => "reinforce",
            EiaPoint::Guard => "guard",
            EiaPoint::Continue | EiaPoint::ContinueDefending => "continue",
            EiaPoint::Honours => "honours",
            EiaPoint::Surrender => "surrender",
            EiaPoint::Intercept => "intercept",
            EiaPoint::Tactics => "tactics",
            EiaPoint::Chase => "chase",
            EiaPoint::Insurrection => "insurrection",
        }
    }

    /// The SOP of EiA 19.1.2 where it fixes one; the chits default to the first of their lists.
    fn sop_default(&self) -> Option<&'static str> {
        match self {
            EiaPoint::AttackChit | EiaPoint::DefenceChit => None,
            EiaPoint::Pursue | EiaPoint::Reinforce => Some("always"),
            EiaPoint::Guard => Some("when losing after round 1"),
            EiaPoint::Continue | EiaPoint::Surrender => Some("never"),
            // The defender fights on whenever the attacker does, unless he says otherwise.
            EiaPoint::ContinueDefending => Some("always"),
            EiaPoint::Honours => Some("grant"),
            EiaPoint::Intercept => Some("always"),
            EiaPoint::Tactics => Some("linear-attack"),
            EiaPoint::Chase => Some("never"),
            EiaPoint::Insurrection => Some("always"),
        }
    }
}

/// The options of EiA (`Ruleset::options`): the SOP's absolutes a game may open to standing orders.
/// EiA 7.5.2.10.2 (victors always pursue), 7.5.2.11 (eligible forces always try to reinforce) and
/// 6.3.5 (victorious fleets never pursue) give a player no choice; the seed's one opt-out is
/// interception (6.2.3). A game that wants the old extensions names them in game.toml's `options`.
pub const OPTIONS: [GameOption; 3] = [
    GameOption {
        name: "pursue-by-order",
        rule: "EiA 7.5.2.10.2",
        what: "'standing pursue never' keeps victors from pursuing",
    },
    GameOption {
        name: "reinforce-by-order",
        rule: "EiA 7.5.2.11",
        what: "'standing reinforce never' keeps forces from reinforcing",
    },
    GameOption {
        name: "chase-by-order",
        rule: "EiA 6.3.5",
        what: "'standing chase always' sends victorious fleets after the beaten",
    },
];

/// The option that opens decision `point` to standing orders, when it is one of the SOP's absolutes.
pub fn option_of(point: &EiaPoint) -> Option<&'static str> {
    match point {
        EiaPoint::Pursue => Some(OPTIONS[0].name),
        EiaPoint::Reinforce => Some(OPTIONS[1].name),
        EiaPoint::Chase => Some(OPTIONS[2].name),
        _ => None,
    }
}

/// A setting that sets one of the SOP's absolutes aside (`pursue never`, `reinforce never`, `chase
/// always`): the option a game must name to allow it, and the rule it sets aside.
pub fn against_the_rule(key: &str, setting: &str) -> Option<(&'static str, Rule)> {
    match (key, setting) {
        ("pursue", "never") => Some((OPTIONS[0].name, PURSUIT)),
        ("reinforce", "never") => Some((OPTIONS[1].name, REINFORCE)),
        ("chase", "always") => Some((OPTIONS[2].name, CHASE)),
        _ => None,
    }
}

/// `always` / `never` as a yes or no.
pub fn always_never(s: &str) -> Option<bool> {
    match s {
        "always" => Some(true),
        "never" => Some(false),
        _ => None,
    }
}

/// Checks a `[sop]` setting of game.toml; the error is a hint listing what is allowed. A setting
/// against one of the SOP's absolutes stands only in a game that names its option (`options`).
pub fn check_sop(
    key: &str,
    value: &str,
    tables: &Tables,
    options: &std::collections::BTreeSet<String>,
) -> Result<(), String> {
    if let Some((option, rule)) = against_the_rule(key, value) {
        if !options.contains(option) {
            return Err(format!(
                "{rule}: the rule admits no other setting; a game that wants this one names \"{option}\" in its `options`"
            ));
        }
    }
    use super::standing::{parse_continue, parse_guard, parse_surrender};
    let list = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (ok, allowed) = match key {
        "attack-chit" => (
            tables.chits.attack.iter().any(|c| c == value),
            tables.chits.attack.clone(),
        ),
        "defence-chit" => (
            tables.chits.defence.iter().any(|c| c == value),
            tables.chits.defence.clone(),
        ),
        "pursue" | "reinforce" => (
            matches!(value, "always" | "never"),
            list(&["always", "never"]),
        ),
        "guard" => (
            parse_guard(value).is_some(),
            list(&[
                "never",
                "always",
                "before round N",
                "when losing after round N",
            ]),
        ),
        "continue" => (
            parse_continue(value).is_some(),
            list(&["never", "always", "when winning"]),
        ),
        "surrender" => (
            parse_surrender(value).is_some(),
            list(&["never", "always", "when outnumbered N"]),
        ),
        "honours" => (matches!(value, "grant" | "deny"), list(&["grant", "deny"])),
        "tactics" => (
            matches!(value, "melee" | "linear-attack" | "linear-defence"),
            list(&["melee", "linear-attack", "linear-defence"]),
        ),
        _ => {
            return Err(format!(
                "the SOP settings of EiA are: {}",
                super::standing::KEYS.join(", ")
            ))
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!("write one of: {}", allowed.join(", ")))
    }
}
