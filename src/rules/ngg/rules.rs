//! The Napoleon's Greatest Gamble rules pbem applies, cited by number (rules 10.1 to 10.9 of the seed
//! we hold). The seed has no combat results (11), movement, forage, force march, command chit allowance
//! or commander ratings: those steps cite `pbem ngg/...`, pbem's own minimal rules, whose numbers are
//! data in `tables.toml` (docs/rules/ngg.md states them).

use crate::rule::Rule;

const fn ngg(number: &'static str, topic: &'static str) -> Rule {
    Rule::new("NGG", number, topic)
}

const fn own(number: &'static str, topic: &'static str) -> Rule {
    Rule::new("pbem", number, topic)
}

/// NGG 10.1: one stack, all undisrupted, attacks one adjacent enemy stack; none under a forage marker.
pub const ATTACK: Rule = ngg(
    "10.1",
    "an undisrupted stack, not foraging, attacks one adjacent enemy stack",
);
/// NGG 10.2: CCs up to those left; a d6 of 1 fails; d6 + CCs + the best CR of the stack >= 7 goes ahead.
pub const TEST: Rule = ngg(
    "10.2",
    "a 1 fails; d6 + CCs + best commander rating >= 7 goes ahead",
);
/// NGG 10.3: an attack that goes ahead may call friendly stacks adjacent to the defender.
pub const CALL_SUPPORT: Rule = ngg(
    "10.3",
    "the attacker may call stacks adjacent to the defender",
);
/// NGG 10.4: each supporting stack takes the 10.2 test with the same CCs, its own d6 and commander.
pub const SUPPORT_TEST: Rule = ngg(
    "10.4",
    "each supporting stack: the 10.2 test with the same CCs, a new d6, its own CR",
);
/// NGG 10.5: the defender may call friendly stacks adjacent to the defending stack.
pub const DEFENCE_CALL: Rule = ngg(
    "10.5",
    "the defender may call stacks adjacent to the defending stack",
);
/// NGG 10.6: the defender allocates CCs up to those left and tests each supporting stack; the
/// defending stack itself always fights.
pub const DEFENCE_TEST: Rule = ngg(
    "10.6",
    "the defender's CCs and a d6 per supporting stack; the defending stack always fights",
);
/// NGG 10.7: the players alternate attacks; one who declines or fails is done for the turn while the
/// other may go on.
pub const ALTERNATE: Rule = ngg(
    "10.7",
    "players alternate; one who declines or fails is done, the other may go on",
);
/// NGG 10.8: the same stack may attack as often as its player wishes, each time subject to 10.2.
pub const AGAIN: Rule = ngg("10.8", "a stack may attack again, subject to 10.2");
/// NGG 10.9: when both players are done, force march markers are removed.
pub const END: Rule = ngg("10.9", "both players done: force march markers are removed");

/// pbem's combat results (NGG 11 is not in the seed): the odds of the strengths and a d6 on the
/// combat table of tables.toml.
pub const RESULTS: Rule = own("ngg/combat", "pbem's combat table (tables.toml)");
/// pbem's retreat (NGG 11 is not in the seed): a defender told to retreat goes to a free adjacent
/// hex, farthest from the attackers; with none, it loses one more strength point and stays.
pub const RETREAT: Rule = own(
    "ngg/retreat",
    "retreat one hex away from the attackers, or lose 1 SP",
);
/// pbem's movement (NGG 8 is not in the seed): `movement` hexes of tables.toml, `force_march` more
/// under a force march marker; never into a hex with enemy units.
pub const MOVEMENT: Rule = own(
    "ngg/movement",
    "up to `movement` hexes, more with a force march (tables.toml)",
);
/// pbem's forage (NGG 8.7 is not in the seed): a stack that forages does not move and stays under its
/// forage marker until the end of the turn.
pub const FORAGE: Rule = own(
    "ngg/forage",
    "a foraging stack stays put under its marker for the turn",
);
/// pbem's command chit allowance (not in the seed): `chits` of tables.toml per power and turn.
pub const CHITS: Rule = own("ngg/chits", "command chits per turn (tables.toml)");
/// pbem's end of turn: disruption and forage markers go after NGG 10.9.
pub const RECOVER: Rule = own(
    "ngg/recover",
    "disrupted units recover and forage markers go at the end of the turn",
);
/// pbem: a pbem turn is one NGG turn: standing orders, forage, moves, then the combat phase.
pub const TURN: Rule = own(
    "ngg/turn",
    "one pbem turn is one NGG turn: forage, moves, then the combat phase",
);
/// pbem: standing orders are kept until changed.
pub const STANDING: Rule = own("ngg/standing", "standing orders are kept until changed");
