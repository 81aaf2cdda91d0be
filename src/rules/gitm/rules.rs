//! The Gathered In Their Masses rules pbem applies, cited by the seed's numbers (`GITM 7.4`). Where a
//! step needs a rule the seed does not hold (it stops in 9.5: no fire, melee, casualties, morale
//! checks, communications or supply tables), the constant is pbem's own and says so.

use crate::rule::Rule;

const fn gitm(number: &'static str, topic: &'static str) -> Rule {
    Rule::new("GITM", number, topic)
}

const fn own(number: &'static str, topic: &'static str) -> Rule {
    Rule::new("pbem", number, topic)
}

/// Stacking limits of a strategic square.
pub const STACKING: Rule = gitm(
    "1.4",
    "a square holds 200 active and 2 inactive brigades (3 in a city); in peace 3 or 2",
);
/// Squares are named by column and row, `G7-V8`.
pub const GRID: Rule = gitm("1.1", "squares are named column-row, G7-V8");
/// Water, high mountain and swamp squares are impassable.
pub const IMPASSABLE: Rule = gitm("1.2", "water, high mountain and swamp are impassable");
/// Tactical squares are named column-row from 0-0 to 14-14.
pub const TACTICAL_GRID: Rule = gitm("2.1", "tactical squares are named column-row, 14-1");
/// Forts in city tactical squares, rated for strength and capacity.
pub const FORTS: Rule = gitm("2.6", "forts have a strength of 1 to 5 and a capacity");
/// Stacking limits of a tactical square.
pub const TACTICAL_STACKING: Rule = gitm(
    "2.5",
    "a tactical square holds 24 brigades, 12 allied to one another",
);
/// A city may be besieged: movement into and out of it is limited.
pub const SIEGE: Rule = gitm(
    "2.7",
    "a city can be besieged; movement in and out is limited",
);
/// Ten brigade types and two headquarters; a unit id is nationality, number, type.
pub const UNIT_TYPES: Rule = gitm("3.1", "ten brigade types and two headquarters");
/// Quality, experience, morale, fatigue; fatigue recovered at the end of a turn.
pub const FATIGUE_RECOVERY: Rule = gitm(
    "3.2",
    "cavalry, light artillery and HQs regain 4 fatigue, others 3",
);
/// Two units of one type merge in the supply phase.
pub const MERGE: Rule = gitm("3.5", "units of one type merge in the supply phase");
/// Marching gives 1 experience a turn up to 8.
pub const EXPERIENCE: Rule = gitm("3.6", "marching gives 1 experience a turn up to 8");
/// Morale tends back towards 50.
pub const MORALE: Rule = gitm("3.7", "morale starts at 50 and returns towards it");
/// Strategic detection ranges by side, unit type and season; approximate counts.
pub const DETECTION: Rule = gitm("4.1", "strategic detection ranges and approximate counts");
/// Strategic departures and arrivals reported to who sees them.
pub const MOVE_REPORTS: Rule = gitm(
    "4.5",
    "departures and arrivals are reported to who sees them",
);
/// Each player sees what his own command sees.
pub const OWN_COMMAND: Rule = gitm("4.6", "each player sees what his own command sees");
/// Reports of enemies on the nation's territory, a turn late and with errors.
pub const LATE_REPORTS: Rule = gitm(
    "4.7",
    "late reports of enemies on the nation's territory, with errors",
);
/// The turn sequence of a campaign turn.
pub const SEQUENCE: Rule = gitm(
    "5.2",
    "supply, withdrawal, 2 tactical, 1 strategic, 2 tactical, 5 strategic, final tactical",
);
/// Two reports at the end of each turn.
pub const TWO_REPORTS: Rule = gitm(
    "5.3",
    "events seen and positions at the start of the next turn",
);
/// The commander's last order wins over the deputy's.
pub const PRECEDENCE: Rule = gitm("6.1", "the commander's last order wins over the deputy's");
/// The six sections of an order.
pub const SECTIONS: Rule = gitm("6.1", "an order has six sections");
/// Section 2: strategic movement.
pub const STRATEGIC_ORDER: Rule =
    gitm("6.3", "path, pursuit, march to battle, entry square, halts");
/// Section 3: tactical movement.
pub const TACTICAL_ORDER: Rule = gitm(
    "6.4",
    "destination, waypoint, start phase, fort, engage, line",
);
/// Section 4: reactions.
pub const REACTION_ORDER: Rule = gitm("6.5", "support and intercept boxes with phases");
/// Section 5: postures.
pub const POSTURE_ORDER: Rule = gitm("6.6", "offensive and defensive postures");
/// Section 6: supply.
pub const SUPPLY_ORDER: Rule = gitm("6.7", "supplies carried and their source");
/// The default orders, each section's SOP.
pub const DEFAULTS: Rule = gitm(
    "6.9",
    "no orders: hold, skirmish, front line, support within 2, draw one supply",
);
/// Peace and truce orders: a square and a tactical square.
pub const PEACE_ORDER: Rule = gitm("6.10", "peace and truce orders name the square to go to");
/// Reassignments and password changes at their time.
pub const REASSIGNMENT: Rule = gitm(
    "6.11",
    "reassignments and password changes from their time on",
);
/// One square a strategic phase; allowances by type; fatigue.
pub const ALLOWANCE: Rule = gitm(
    "7.1",
    "one square a phase, 2 to 4 a turn by type, fatigue per square",
);
/// Carrying supplies costs a square of allowance.
pub const SUPPLY_DRAG: Rule = gitm("7.2", "a unit carrying supplies moves one square less");
/// Being out of communications costs a square of allowance.
pub const COMMUNICATIONS: Rule = gitm("7.2", "a unit not in communications moves one square less");
/// A forced march: one square more for 3 fatigue (4 for cavalry and light artillery).
pub const FORCED_MARCH: Rule = gitm("7.3", "one square beyond the allowance for 3 or 4 fatigue");
/// A path square not adjacent halts the move.
pub const PATH: Rule = gitm("7.4", "a path square not adjacent halts the move");
/// Strategic withdrawal, and skipped phases.
pub const WITHDRAWAL: Rule = gitm(
    "7.5",
    "withdrawal from a battle square; blank boxes skip a phase",
);
/// Random move order in each strategic phase.
pub const RANDOM_ORDER: Rule = gitm("7.6", "units move in a random order, new each phase");
/// A path to the tactical map's edge free of enemies.
pub const BLOCKED: Rule = gitm(
    "7.7",
    "a move needs a path free of enemies to the map's edge",
);
/// No strategic move across a river or range with enemy combat units present.
pub const RIVER_CROSSING: Rule = gitm(
    "7.8",
    "no strategic move across a river or range with enemy combat units present",
);
/// Halt on detection.
pub const HALT_DETECTION: Rule = gitm("7.9", "halt on entering an enemy-held square");
/// Halt on enemy entry.
pub const HALT_ENTRY: Rule = gitm("7.10", "halt when an enemy enters the square");
/// Pursuit.
pub const PURSUIT: Rule = gitm(
    "7.11",
    "follow an enemy that leaves the square, force marching",
);
/// March to battle.
pub const MARCH_TO_BATTLE: Rule = gitm(
    "7.12",
    "move to the largest battle in or next to the square",
);
/// Entry squares on the new tactical map.
pub const ENTRY: Rule = gitm(
    "7.13",
    "enter on the first four rows or columns of the edge moved from",
);
/// A diagonal move blocked by an enemy beside it.
pub const DIAGONAL: Rule = gitm("7.14", "an enemy beside a diagonal blocks it");
/// The Ottoman Empire's squares are closed.
pub const OTTOMAN: Rule = gitm("7.15", "movement into the Ottoman Empire is forbidden");
/// Ships and transports.
pub const TRANSPORTS: Rule = gitm(
    "7.17",
    "units but militia board transports and land at ports",
);
/// Reports of the ships in a port, and the ships' reports of the units there.
pub const PORTS: Rule = gitm(
    "4.3",
    "units in a port's square hear of its ships; ships report the units there",
);
/// Peace and truce moves.
pub const PEACE_MOVE: Rule = gitm(
    "7.16",
    "in peace or truce a unit is placed where it is ordered",
);
/// Tactical phases: the tactical part of pbem (8, 9) replaces the hook.
pub const TACTICAL_PHASE: Rule = gitm("8.1", "tactical movement in each tactical phase");
/// Combat cannot occur in the final tactical phase, nor in peace or truce.
pub const NO_COMBAT: Rule = gitm(
    "9.1",
    "no combat in the final tactical phase nor in peace or truce",
);

/// pbem: the seed lacks supply (10): supply sources are unlimited, and a unit carries what it orders.
pub const PBEM_SUPPLY: Rule = own("gitm/supply", "units draw what they order, without limit");
/// pbem: the seed lacks communications (10): a unit is in communications on its side's soil
/// (`[control]`) or within 5 squares of it by a way free of hostile combat units
/// (`communications.rs`).
pub const PBEM_COMMUNICATIONS: Rule = own(
    "gitm/communications",
    "in communications on the side's soil or 5 squares from it by a way free of enemies",
);
/// pbem: the seed sends ships to the PATE rules, which it does not hold: a transport sails from a
/// port of the map to another in strategic phase 1, with the units that boarded it and fit
/// (`ships.rs`).
pub const PBEM_SHIPS: Rule = own(
    "gitm/ships",
    "a transport sails port to port in strategic phase 1 with the units that fit",
);
/// pbem: the noisy count of a sighting, from a sealed roll.
pub const PBEM_NOISE: Rule = own("gitm/noise", "a sighting's count is off by a sealed roll");
/// pbem: morale returns 5 points towards 50 a turn.
pub const PBEM_MORALE: Rule = own("gitm/morale", "morale returns 5 points towards 50 a turn");
/// pbem: a move that would break a stacking limit (1.4) is held back and tried again next phase.
pub const PBEM_STACKING: Rule = own(
    "gitm/stacking",
    "a move over a stacking limit is held back and tried next phase",
);
/// pbem: a siege begins, goes on and is lifted at the end of a campaign turn; each turn a d6 plus the
/// besiegers' artillery against the fort's strength may make a breach.
pub const PBEM_SIEGE: Rule = own(
    "gitm/siege",
    "a breach on d6 + 2 a siege-artillery brigade + 1 other artillery >= strength + 4",
);
/// pbem: a march entering a square with an unbesieged hostile fort ends there.
pub const PBEM_FORT_BLOCK: Rule = own(
    "gitm/fort",
    "an unbesieged hostile garrisoned fort ends a march entering its square",
);
/// pbem: a shattered brigade makes no strategic move and blocks none; it rallies at the end of a turn
/// with no hostile combat unit in its square, and is removed with no men left.
pub const PBEM_SHATTERED: Rule = own(
    "gitm/shattered",
    "a shattered brigade does not march; it rallies away from the enemy",
);
/// pbem's reading of GITM 3.7's city capture (the seed gives no figures nor what a capture is): a
/// city with no combat unit of its holder's side passes to the state at war with it whose combat
/// units stand there; the capturers +5 morale, their side next to it +2, the holder's side in or next
/// to it -5; a unit whose morale a battle or a capture moved this turn does not return towards 50.
pub const PBEM_CAPTURE: Rule = own(
    "gitm/capture",
    "a city without its holder's units passes to the enemy there; morale +5/+2 and -5",
);
/// pbem's fraction for GITM 3.6's turnover (the seed gives none): at the end of a campaign every
/// brigade loses a quarter of its experience, rounded down.
pub const PBEM_TURNOVER: Rule = own(
    "gitm/turnover",
    "at a campaign's end each brigade loses a quarter of its experience",
);
