//! The Paths of Glory rules pbem applies, cited by number (rules 10.1 to 12.3 of the seed we hold).
//! Where a step needs a rule the seed does not hold, the constant says so and names pbem's reading.

use crate::rule::Rule;

const fn pog(number: &'static str, topic: &'static str) -> Rule {
    Rule::new("PoG", number, topic)
}

/// PoG 10.1.1 is not in the seed: pbem's stacking limit is `stacking` of tables.toml.
pub const STACKING: Rule = pog("10.1.1", "stacking limit (tables.toml)");
/// PoG 10.1.3: the owner of an overstacked space eliminates units of his choice.
pub const OVERSTACK: Rule = pog(
    "10.1.3",
    "the owner eliminates units of an overstacked space",
);
/// PoG 10.1.5: units of opposing sides never stack together.
pub const OPPOSING: Rule = pog("10.1.5", "opposing units never stack together");
/// PoG 11.1.1: units move when their space is activated for movement.
pub const ACTIVATED_MOVE: Rule = pog("11.1.1", "units move from spaces activated for movement");
/// PoG 11.1.2: every space costs one movement point.
pub const ONE_MP: Rule = pog("11.1.2", "every space costs 1 MP");
/// PoG 11.1.3: movement follows the connections, solid or dotted, and never skips a space.
pub const CONNECTIONS: Rule = pog("11.1.3", "move along connections, never skip a space");
/// PoG 11.1.4: control of the space where a move ends, or of a space paid for with 1 MP more.
pub const CONTROL: Rule = pog("11.1.4", "control on ending a move, or for 1 extra MP");
/// The Clarification of 11.1.4: a unit out of supply when its space is activated moves only if a
/// supply path opens for it during the action, by the moves made before its own.
pub const OUT_OF_SUPPLY_MOVE: Rule = pog(
    "11.1.4",
    "units out of supply at activation move only once a supply path opens",
);
/// PoG 11.1.5: no more MP than the MF; units entering an isolated space stop.
pub const MF_LIMIT: Rule = pog(
    "11.1.5",
    "no more MP than MF; stop on entering an isolated space",
);
/// PoG 11.1.7: never into a space with enemy units.
pub const NO_ENEMY: Rule = pog("11.1.7", "never enter a space with enemy units");
/// PoG 11.1.8: an enemy fort is entered only to besiege it (the siege rules of 15.2 are not in the
/// seed: pbem's reading is that an army, or corps with as many loss factors as the fort's factor, can
/// besiege it).
pub const FORT_ENTRY: Rule = pog("11.1.8", "enter an enemy fort only to besiege it");
/// PoG 11.1.9: Central Powers units do not end a move on the Channel ports before the Race to the Sea.
pub const RACE: Rule = pog(
    "11.1.9",
    "no Central Powers move ends on the Channel ports before the Race to the Sea",
);
/// PoG 11.1.11: no unit enters a space of a neutral nation (11.1.12: Albania always open).
pub const NEUTRAL: Rule = pog("11.1.11", "no unit enters a neutral nation");
/// PoG 11.1.10: no unit enters an MEF space unless the MEF Beach Head marker is in it.
pub const MEF: Rule = pog(
    "11.1.10",
    "no unit enters an MEF space without the MEF Beach Head marker",
);
/// PoG 11.1.12: Albanian spaces trace supply to Taranto even while Italy is neutral.
pub const ALBANIA: Rule = pog(
    "11.1.12",
    "Albania is always open and traces supply to Taranto",
);
/// PoG 11.1.13: Persia opens to both sides when Turkey enters the war; Ahwaz is then Allied.
pub const PERSIA: Rule = pog(
    "11.1.13",
    "Persia opens when Turkey enters the war; Ahwaz becomes Allied",
);
/// PoG 11.1.14: a CP space the Arab Northern Army converts is Allied only while the ANA stays.
pub const ANA: Rule = pog(
    "11.1.14",
    "the ANA holds a CP space only while it stays in it",
);
/// PoG 11.1.15: spaces the Turk SN Corps converts, other than its own, suffer attrition when they
/// trace no supply (pbem's attrition: the end of a game turn, as 11.2.7's).
pub const SN_CORPS: Rule = pog(
    "11.1.15",
    "spaces the Turk SN Corps converts suffer attrition without supply",
);
/// PoG 11.3.1: of the armies only RU CAU, BR MEF and NE, FR OR, TU YLD and AoI enter or attack the
/// Near East map.
pub const NEAR_EAST_ARMIES: Rule = pog(
    "11.3.1",
    "only the armies named enter or attack the Near East map",
);
/// PoG 11.3.2: one Russian corps a turn moves between the To Caucasus box and the Near East; never
/// an army; none after the Fall of the Tsar.
pub const CAUCASUS: Rule = pog(
    "11.3.2",
    "one Russian corps a turn between To Caucasus and the Near East",
);
/// PoG 12.1.9 (second half): no Russian army attacks from the To Caucasus box into the Near East;
/// one Russian corps a turn attacks or retreats between them, the move of 11.3.2.
pub const CAUCASUS_COMBAT: Rule = pog(
    "12.1.9",
    "one Russian corps a turn attacks or retreats between To Caucasus and the Near East",
);
/// PoG 12.1.10 (Taranto): across the Taranto-Valona line, units other than Italian attack only
/// together with friendly units in Albania or Greece.
pub const TARANTO: Rule = pog(
    "12.1.10",
    "across Taranto-Valona only Italians attack without units in Albania or Greece",
);
/// PoG 11.1.16: the BEF moves and attacks only in Britain, France, Belgium, Holland and Germany.
pub const BEF: Rule = pog(
    "11.1.16",
    "the BEF stays in Britain, France, Belgium, Holland and Germany",
);
/// PoG 11.2.1: one unit per space activated for movement may entrench, from the turn of Fall 1914.
/// pbem's reading of "other units in the space may move or attack freely": the rule's first sentence
/// makes entrenching a use of a space activated for movement, so the other units of the space move
/// as they like (the entrenching unit's LF still counts at the roll), and none attacks from it, as
/// 12.1.1 allows no attack from a space activated for movement.
pub const ENTRENCH: Rule = pog(
    "11.2.1",
    "one unit per space activated for movement may entrench",
);
/// PoG 11.2.2.1: before the Entrench event, a die equal to or under the unit's LF gives level 1.
pub const ENTRENCH_ROLL: Rule = pog("11.2.2.1", "entrench on a die at most the LF: level 1");
/// PoG 11.2.2.2: after the Entrench event, level 1 is automatic and level 2 takes a die at most the LF.
pub const ENTRENCH_EVENT: Rule = pog(
    "11.2.2.2",
    "after the Entrench event: level 1 at once, level 2 on a die at most the LF",
);
/// PoG 11.2.3: one trench marker per space, at most level 2.
pub const ONE_TRENCH: Rule = pog("11.2.3", "one trench marker per space, at most level 2");
/// PoG 11.2.5 and 11.2.6: an enemy entering removes a level 1 trench and turns a level 2 into his
/// own level 1.
pub const TRENCH_ENTERED: Rule = pog("11.2.5", "an enemy entering a space takes its trench down");
/// PoG 11.2.7: attrition lowers a trench by one level, except in an intact fort.
pub const TRENCH_ATTRITION: Rule = pog(
    "11.2.7",
    "attrition lowers a trench, except in an intact fort",
);
/// PoG 11.2.8: defending units have the benefit of friendly trenches.
pub const TRENCH_BENEFIT: Rule = pog("11.2.8", "defenders have the benefit of their trenches");
/// PoG 11.2.9: a fort alone has no benefit of trenches.
pub const FORT_NO_TRENCH: Rule = pog("11.2.9", "a fort alone has no trench benefit");
/// PoG 11.2.10 and 11.2.11: after a side's Entrench event, its qualifying spaces are at level 0.
pub const LEVEL_ZERO: Rule = pog(
    "11.2.10",
    "after the Entrench event, qualifying spaces are entrenched at level 0",
);
/// PoG 11.2.12: level 0 shifts the attacker one column left and counts as entrenched.
pub const LEVEL_ZERO_EFFECT: Rule = pog(
    "11.2.12",
    "level 0: one column left for the attacker, entrenched in all respects",
);
/// PoG 12.1.1: only units of spaces activated for attack fight.
pub const ACTIVATED_ATTACK: Rule = pog("12.1.1", "attacks come from spaces activated for attack");
/// PoG 12.1.2: units that retreated this action fire on the leftmost column and die on any loss.
pub const RETREATED: Rule = pog(
    "12.1.2",
    "units that retreated this action: leftmost column, eliminated on any loss",
);
/// PoG 12.1.4: one defending space per combat, attacked from adjacent spaces.
pub const ONE_SPACE: Rule = pog(
    "12.1.4",
    "one defending space, attacked from adjacent spaces",
);
/// PoG 12.1.6: a unit takes part in one combat per action.
pub const ONE_COMBAT: Rule = pog("12.1.6", "a unit fights once per action");
/// PoG 12.1.7: a corps of CF 0 may attack and absorb losses.
pub const ZERO_CF: Rule = pog("12.1.7", "a CF 0 corps adds nothing but may take losses");
/// PoG 12.1.8: only participating units take losses or advance.
pub const PARTICIPANTS: Rule = pog("12.1.8", "only participants take losses and advance");
/// PoG 12.1.9: attacks across a dotted line only by the nations marked on it.
pub const DOTTED_ATTACK: Rule = pog(
    "12.1.9",
    "attacks across dotted lines only by the nations marked",
);
/// PoG 12.1.11: several nations attack together only if one space holds all of them.
pub const MULTINATIONAL: Rule = pog(
    "12.1.11",
    "a multi-national attack needs one space with every nation",
);
/// PoG 12.2: the twelve steps of a combat, in order.
pub const STEPS: Rule = pog("12.2", "the twelve steps of combat");
/// PoG 12.2.1: attacks on spaces without enemy units or intact enemy fort come first and win.
pub const EMPTY_SPACE: Rule = pog(
    "12.2.1",
    "attacks on empty spaces are resolved first and won",
);
/// PoG 12.2.2: combat strength, with the fort's factor for the defender.
pub const STRENGTH: Rule = pog(
    "12.2.2",
    "combat strength: the CF, and the fort for the defender",
);
/// PoG 12.2.3: trench-negating combat cards.
pub const TRENCH_CARDS: Rule = pog("12.2.3", "trench-negating combat cards");
/// PoG 12.2.5: combat cards, the attacker's then the defender's.
pub const CARDS: Rule = pog(
    "12.2.5",
    "combat cards: the attacker's, then the defender's",
);
/// PoG 12.2.6: the DRM of the combat cards played.
pub const DRM: Rule = pog("12.2.6", "the DRM of the cards played");
/// PoG 12.2.7: the fire table (Army with any army) and the column, shifts clamped at the edges.
pub const FIRE_COLUMN: Rule = pog(
    "12.2.7",
    "fire table and column, shifts clamped at the table's edges",
);
/// PoG 12.2.7: from a loss factor of 4 in one space, the Army table without favourable shifts.
pub const ARMY_TABLE_OPTION: Rule = pog(
    "12.2.7",
    "from LF 4 in a space, fire on the Army table without favourable shifts",
);
/// PoG 12.2.8: a die modified by the DRM, clamped to 1..6.
pub const RESULTS: Rule = pog("12.2.8", "modified die clamped to 1..6");
/// PoG 12.2.9: losses; the defender takes his first unless it is a flank attack (the loss procedure
/// of 12.4 is not in the seed: pbem applies the losses required as fully as the steps allow without
/// exceeding the loss number, the owner's choice ordering the steps among the ways that do).
pub const LOSSES: Rule = pog("12.2.9", "take losses, the defender first");
/// PoG 12.2.10: the higher loss number wins; losers discard their combat cards, a tie loses for both.
pub const WINNER: Rule = pog("12.2.10", "the higher loss number wins; losers discard");
/// PoG 12.2.6: a -3 DRM when every attacking unit is in the Sinai space.
pub const SINAI: Rule = pog("12.2.6", "-3 DRM when every attacking unit is in Sinai");
/// PoG 12.1.10: units in London fight only in a combat with friendly units in France, Holland or
/// Belgium.
pub const LONDON: Rule = pog(
    "12.1.10",
    "units in London attack only with friendly units in France, Holland or Belgium",
);
/// PoG 12.2.10 (exception): They Shall Not Pass, kept face up, is discarded at the end of the game
/// turn after the one in which it was played.
pub const KEPT_CARD_ENDS: Rule = pog(
    "12.2.10",
    "They Shall Not Pass is discarded at the end of the turn after it was played",
);
/// PoG 12.2.11: the defender retreats when the attacker wins with a full-strength unit left.
pub const RETREAT: Rule = pog(
    "12.2.11",
    "the defender retreats if the attacker wins with a full-strength unit",
);
/// PoG 12.2.11 with 11.2.12: an entrenched defender may cancel the retreat with one more step loss.
pub const CANCEL_RETREAT: Rule = pog("12.2.11", "cancel the retreat with one more step loss");
/// PoG 12.2.1 speaks of a retreat of two spaces; the retreat rules of 12.5 are not in the seed: pbem
/// retreats the stack up to two spaces, never into enemy units or an intact enemy fort.
pub const RETREAT_PATH: Rule = pog("12.2.1", "the defender retreats up to two spaces");
/// PoG 12.2.12: the attacker may advance with full-strength units (reduced ones into a space empty
/// at the start).
pub const ADVANCE: Rule = pog("12.2.12", "the attacker may advance into the vacated space");
/// PoG 12.3.1: a flank attack needs two attacking spaces and an open, unentrenched defender.
pub const FLANK_ELIGIBLE: Rule = pog(
    "12.3.1",
    "flank attack: two attacking spaces, no swamp, mountain, trench or empty fort",
);
/// PoG 12.3.2: +1 per attacking space other than the pinning one not in contact with other enemies.
pub const FLANK_DRM: Rule = pog(
    "12.3.2",
    "+1 per attacking space not touching another enemy space",
);
/// PoG 12.3.3: a flank attack succeeds on 4 or more; the winner of the roll fires first.
pub const FLANK_ROLL: Rule = pog("12.3.3", "a flank attack succeeds on 4 or more");
/// PoG 12.3.4 (Note): a force eliminated before it fires fires on the leftmost Corps/Fort column.
pub const FLANK_ELIMINATED: Rule = pog(
    "12.3.4",
    "a force eliminated before it fires: leftmost Corps/Fort column",
);
/// PBEM play of PoG: one action per orders file, the players alternating.
pub const ONE_ACTION: Rule = Rule::new(
    "pbem",
    "pog/action",
    "one action per orders file, the players alternating",
);
/// DESIGN "decision point": a standing order is kept until the power changes it.
pub const STANDING: Rule = Rule::new("pbem", "standing", "standing orders are kept until changed");
