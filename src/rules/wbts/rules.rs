//! The War Between the States rules pbem applies, cited by the seed's headings (the seed we hold,
//! `003`, numbers no rule: pbem cites each by its section and a short name, `WBTS ground/intensity`).
//! Where a step needs a rule the seed does not hold, the constant says so and names pbem's reading.

use crate::rule::Rule;

const fn wbts(number: &'static str, topic: &'static str) -> Rule {
    Rule::new("WBTS", number, topic)
}

const fn own(number: &'static str, topic: &'static str) -> Rule {
    Rule::new("pbem", number, topic)
}

/// Ground combat: an attack is made by a leader who passed his combat initiative roll (pbem's table).
pub const INITIATIVE: Rule = wbts(
    "ground/initiative",
    "an attack needs a leader who passes his combat initiative roll",
);
/// Ground combat: attacking units are under the attack command of their leader, directly, through
/// their corps HQ, or from an army leader through his corps leaders.
pub const COMMAND: Rule = wbts(
    "ground/command",
    "attackers are under the command of the attacking leader",
);
/// Ground combat: units leave an HQ roster before the initiative roll and do not rejoin it until the
/// next strategic segment.
pub const ROSTER: Rule = wbts(
    "ground/roster",
    "leave a roster before the initiative roll; no return until the next strategic segment",
);
/// Ground combat: a corps leader never orders another corps leader into his attack.
pub const ONE_CORPS: Rule = wbts(
    "ground/corps",
    "a corps leader attacks with his own corps only; an army leader brings several",
);
/// Ground combat: a secret battle intensity chit 0-4 each, at most the initiative of the leader in
/// charge; no leader: 0.
pub const INTENSITY: Rule = wbts(
    "ground/intensity",
    "intensity chits 0-4, at most the leader's initiative; no leader: 0",
);
/// Ground combat: both chits 0: a contact, nothing but the combat supply rolls.
pub const CONTACT: Rule = wbts("ground/contact", "both chits 0: a contact");
/// Ground combat: the defender may pick any of his leaders able to command the units, or none. The
/// units are his combat units: a supply train is on no roster and commanded by no one (pbem's reading:
/// ground/losses sets trains apart from the combat units), so one in the hex bars no leader.
pub const DEFENDING_LEADER: Rule = wbts(
    "ground/defender-leader",
    "the defender picks his leader, or none",
);
/// Ground combat: the better leader may shift the die by the net of the two combat ratings, at the
/// risk of leader loss.
pub const SHIFT: Rule = wbts(
    "ground/shift",
    "the better leader shifts the die by the net combat rating",
);
/// Ground combat: shifting the die risks the leader (pbem's leader loss table).
pub const LEADER_LOSS: Rule = wbts(
    "ground/leader-loss",
    "a leader who shifts the die risks leader loss",
);
/// Ground combat: both sides roll on the Combat Supply Table by force size and own chit (0 and 1
/// share a column); supply from trains or army HQs in or next to the force's hexes.
pub const SUPPLY: Rule = wbts(
    "ground/supply",
    "combat supply by size and own chit, from sources in or next to the force",
);
/// Ground combat: without the combat supply owed: half strength, losses doubled, no advance.
pub const NO_SUPPLY: Rule = wbts(
    "ground/no-supply",
    "unsupplied: half strength, doubled losses, no advance",
);
/// Ground combat: attacks from one or two adjacent hexes under a common leader, against one hex.
pub const TWO_HEXES: Rule = wbts(
    "ground/two-hexes",
    "attack from one or two adjacent hexes against one hex",
);
/// Ground combat: across a river, attackers are halved (pbem rounds down).
pub const RIVER: Rule = wbts("ground/river", "attacks across a river are halved");
/// Ground combat: across a tidal river or an estuary only at a ferry, halved rounding up.
pub const FERRY: Rule = wbts(
    "ground/ferry",
    "tidal rivers and estuaries only at a ferry, halved rounding up",
);
/// Ground combat: the combat results (pbem's table), in percentages of each force.
pub const RESULTS: Rule = wbts(
    "ground/results",
    "combat results are percentages lost and retreats",
);
/// Ground combat: the Combat Attrition Table turns a percentage into strength points (pbem's table).
pub const ATTRITION: Rule = wbts(
    "ground/attrition",
    "the attrition table turns percentages into strength points",
);
/// Ground combat: losses are spread evenly; no second loss before every unit took one; larger
/// units first; trains and bases last.
pub const EVEN_LOSSES: Rule = wbts(
    "ground/losses",
    "losses spread evenly, larger units first, trains last",
);
/// Ground combat: defenders in rough or city hexes may ignore a retreat.
pub const IGNORE_RETREAT: Rule = wbts(
    "ground/ignore-retreat",
    "defenders in rough or city may ignore a retreat",
);
/// Ground combat: a retreat goes only where the units could move.
pub const RETREAT: Rule = wbts(
    "ground/retreat",
    "a retreat goes only into a hex the units could move into",
);
/// pbem's reading: the seed gives no rule for a retreat with nowhere to go; the units stay.
pub const NO_RETREAT_HEX: Rule = own(
    "wbts/blocked-retreat",
    "a retreat with no hex to go to: the units stay",
);
/// pbem's reading: the seed says where a beaten defender goes (ground/retreat) and nothing of a
/// beaten attacker; each of his attacking hexes falls back one hex, into a hex the units could move
/// into, next to no enemy hex if it can (the attacked hex counted as enemy).
pub const ATTACKER_RETREAT: Rule = own(
    "wbts/attacker-retreat",
    "a beaten attacker falls back one hex from each attacking hex, away from the target",
);
/// pbem's reading: the seed makes an attack need a leader's combat initiative roll and says no more
/// of how often; pbem lets a leader lead one attack a player turn, and a unit take part in one.
pub const ONE_ATTACK: Rule = own(
    "wbts/one-attack",
    "a leader leads one attack a player turn, and a unit attacks once",
);
/// pbem's reading: the seed names the combat supply sources and not which pays first; the trains
/// in or next to the force's hexes pay first, in the state's order, then its army leaders there.
pub const SUPPLY_ORDER: Rule = own(
    "wbts/supply-order",
    "combat supply is drawn from trains first, then army HQs, in the state's order",
);
/// pbem's reading: the seed gives no advance rule but that the unsupplied cannot advance; a
/// supplied attacker that dislodges the defender enters the hex with the units of his first hex.
pub const ADVANCE: Rule = own(
    "wbts/advance",
    "a supplied attacker advances into a vacated hex",
);
/// Attack from march: during movement, by units stacked with their commanding leader, without
/// initiative roll or combat supply; non-cavalry halved; chits at most 1; never against a fort;
/// the attacker enters a hex he clears and moves no further.
pub const MARCH: Rule = wbts(
    "march",
    "attack from march: no initiative, no supply, non-cavalry halved, chits at most 1",
);
/// Attack from march: cavalry may retreat one hex before a purely infantry attack from march.
pub const EVADE: Rule = wbts(
    "march/evade",
    "cavalry may retreat one hex before an infantry-only attack from march",
);
/// Forts: a fort (2x) holds 10 strength points, a fortress (3x) 100; the garrison is doubled or
/// tripled (up to the capacity).
pub const FORT: Rule = wbts(
    "fort",
    "forts double, fortresses triple, their garrison up to capacity",
);
/// Forts: units in a fort hex are outside unless moved in, in their owner's movement or a retreat.
pub const INSIDE: Rule = wbts(
    "fort/inside",
    "units enter a fort in their movement or a retreat",
);
/// Forts: enemies may enter a hex whose enemy units are all inside a fort: a siege.
pub const SIEGE: Rule = wbts("fort/siege", "entering a fort's hex besieges the garrison");
/// Forts: storming from the fort's own hex, garrison doubled or tripled, terrain ignored,
/// attacker's losses doubled; never from an adjacent hex nor from march.
pub const STORM: Rule = wbts(
    "fort/storm",
    "storming: from the hex, terrain ignored, attacker's losses doubled",
);
/// pbem's reading: a garrison inside a fort ignores a retreat result (as against naval attack).
pub const GARRISON_STAYS: Rule = own(
    "wbts/garrison",
    "a garrison inside its fort ignores a retreat",
);
/// Naval: a naval unit crossing a hexside with an enemy fortification undergoes naval transit attack
/// unless it stops there (pbem's naval transit table).
pub const TRANSIT: Rule = wbts(
    "naval/transit",
    "naval transit attack at an enemy fortified hexside, unless the ship stops",
);
/// Naval: combat naval units stacked with friendly ground units may support their defence, and are
/// eliminated by any loss result against the defender.
pub const NAVAL_SUPPORT: Rule = wbts(
    "naval/support",
    "ships may support a ground defence; any loss eliminates them",
);
/// Naval: transports alone have no combat factor.
pub const TRANSPORTS: Rule = wbts("naval/transports", "transports have no combat factor");
/// pbem: movement, one hex at a time within the movement allowance (the seed holds no movement
/// rules: pbem's terrain costs of tables.toml).
pub const MOVEMENT: Rule = own(
    "wbts/movement",
    "move hex by hex within the allowance (tables.toml costs)",
);
/// Normally units never enter hexes with enemy units.
pub const NO_ENEMY: Rule = wbts(
    "fort/entry",
    "never enter a hex with enemy units, unless they are all inside a fort",
);
/// PBEM play of WBTS: one player turn per orders file, the sides alternating.
pub const ONE_TURN: Rule = own(
    "wbts/turn",
    "one player turn per orders file, the sides alternating",
);
/// DESIGN "decision point": a standing order is kept until the power changes it.
pub const STANDING: Rule = own("standing", "standing orders are kept until changed");
/// pbem's reading: the seed says nothing of a leader left alone when enemy units enter his hex; he
/// falls back one hex as a retreat would, or is captured when he has nowhere to go.
pub const LONE_LEADER: Rule = own(
    "wbts/lone-leader",
    "a leader alone in a hex the enemy enters falls back, or is captured",
);
/// Naval combat: all the attacker's combat naval units in the hex attack all the enemy's naval
/// units there on the Naval Combat Results Table (pbem's table); each hit sinks one ship, the weakest
/// first (pbem's reading).
pub const NAVAL_COMBAT: Rule = wbts(
    "naval/combat",
    "all combat ships in the hex attack all enemy ships",
);
/// Naval attacks on forts: naval strength against the garrison doubled or tripled, on the combat
/// results table; any attacker loss sinks a whole ship; the garrison ignores retreats; a retreating
/// ship first undergoes the naval transit attack; the fort is never damaged.
pub const NAVAL_FORT: Rule = wbts(
    "naval/fort",
    "ships attack a fort's garrison: any loss sinks a ship, the fort is never damaged",
);
