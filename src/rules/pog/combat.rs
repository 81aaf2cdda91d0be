//! Combat (PoG 12.1 to 12.3): the twelve steps of 12.2 in order, for each attack of the action,
//! attacks on empty spaces first (12.2.1). Flank attacks (12.3) make steps 6 to 9 sequential.

use anyhow::Result;

/// The space of 12.2.6's -3 DRM, by its name on the map.
const SINAI_SPACE: &str = "Sinai";
/// The space of 12.1.10, by its name on the map.
const LONDON_SPACE: &str = "London";
/// The nations (the map's `nation` of a space) whose spaces let units in London attack (12.1.10).
const LONDON_PARTNERS: [&str; 4] = ["france", "holland", "netherlands", "belgium"];

use crate::engine::event::{Event, Roll};
use crate::rules::wording::verb;

use super::action::{list, Action};
use super::decisions::PogPoint;
use super::labels;
pub use super::orders::Attack;
use super::rules;
use super::tables::{CardSide, FireTable};

/// The two sides of a combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Attacker,
    Defender,
}

impl Side {
    pub fn word(self) -> &'static str {
        match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        }
    }
}

/// The two steps of 12.2 at which combat cards are played: the trench-negating ones (step 3, before
/// the flank attack) and the others (step 5, after it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CardStep {
    TrenchNegating,
    Combat,
}

/// What one side's fire came to (steps 7 and 8).
#[derive(Debug, Clone)]
pub struct Fire {
    pub table: &'static str,
    pub column: u32,
    pub die: u32,
    /// The DRM the die was modified by (12.2.8: a defender that only retreated takes none above 0).
    pub drm: i32,
    /// The die modified, held on the table's 1 to 6.
    pub modified: u32,
    pub loss: u32,
    pub roll: Roll,
    pub note: String,
}

/// What designating an attack found (12.2.1).
pub enum Designated {
    /// None of its units can still attack the space.
    Off(Attack),
    /// The space holds no enemy unit and no intact enemy fort: won at once.
    Empty(Attack),
    Fight(Box<Combat>),
}

/// A combat between steps: who fights, with what.
pub struct Combat {
    pub n: usize,
    pub attack: Attack,
    pub attacker: String,
    pub defender: String,
    /// The defending units at the start (12.1.8: only participants suffer).
    pub defenders: Vec<String>,
    pub fort: u32,
    /// Every defender retreated earlier in this action (12.1.2).
    pub retreated_only: bool,
    pub trenches_negated: bool,
    pub drm: [i32; 2],
    pub shift: [i32; 2],
    pub cards: [Vec<String>; 2],
}

impl Combat {
    fn idx(side: Side) -> usize {
        match side {
            Side::Attacker => 0,
            Side::Defender => 1,
        }
    }
}

impl Action<'_> {
    /// Resolves the attacks of the action: those on spaces without enemy units or intact enemy fort
    /// first (12.2.1, even those ordered `after`), then the others in the order given, then those
    /// ordered `after` (to strike units that retreat into a space during the action, 12.1.2).
    pub fn resolve_attacks(&mut self, attacks: Vec<Attack>) -> Result<()> {
        for (n, a) in self.attack_order(attacks).into_iter().enumerate() {
            self.combat(n + 1, a)?;
        }
        Ok(())
    }

    /// The order the attacks are fought in: on spaces empty at the start first, `after` or not
    /// (12.2.1: before all other attacks), then as given, then those marked `after`.
    pub fn attack_order(&self, attacks: Vec<Attack>) -> Vec<Attack> {
        let active = &self.active;
        let (empty, held): (Vec<Attack>, Vec<Attack>) = attacks.into_iter().partition(|a| {
            self.enemies_in(&a.target, active).is_empty()
                && !self.intact_enemy_fort(&a.target, active)
        });
        let (later, now): (Vec<Attack>, Vec<Attack>) = held.into_iter().partition(|a| a.after);
        empty.into_iter().chain(now).chain(later).collect()
    }

    /// Step 1 (12.2.1): who fights, or why no one does. Looks, changes nothing.
    pub fn designate(&self, n: usize, attack: Attack) -> Designated {
        let attacker = self.active.clone();
        let t = self.space_index(&attack.target);
        // The attackers still able to fight (12.1.4, 12.1.8).
        let units: Vec<String> = attack
            .units
            .iter()
            .filter(|id| {
                self.unit(id).is_some_and(|u| {
                    let from = self.space_index(u.space());
                    from != t && self.map.connected_for(from, t, &u.nation)
                })
            })
            .cloned()
            .collect();
        if units.is_empty() {
            return Designated::Off(attack);
        }
        let attack = Attack { units, ..attack };
        let target = attack.target.clone();
        let defenders = self.enemies_in(&target, &attacker);
        let fort = self.defending_fort(&target, &attacker);
        if defenders.is_empty() && !self.intact_enemy_fort(&target, &attacker) {
            return Designated::Empty(attack);
        }
        let defender = defenders
            .first()
            .and_then(|d| self.unit(d))
            .map(|u| u.power().to_string())
            .or_else(|| self.controller(&target).map(str::to_string))
            .unwrap_or_else(|| self.other(&attacker));
        let retreated_only = !defenders.is_empty()
            && defenders
                .iter()
                .all(|d| self.retreated.contains(&d.to_lowercase()));
        Designated::Fight(Box::new(Combat {
            n,
            attack,
            attacker,
            defender,
            defenders,
            fort,
            retreated_only,
            trenches_negated: false,
            drm: [0, 0],
            shift: [0, 0],
            cards: [Vec::new(), Vec::new()],
        }))
    }

    /// Steps 1 to 12 of 12.2 for one attack.
    pub fn combat(&mut self, n: usize, attack: Attack) -> Result<()> {
        let attacker = self.active.clone();
        let mut c = match self.designate(n, attack) {
            Designated::Off(attack) => {
                let target = attack.target.clone();
                self.event(
                    rules::ONE_SPACE,
                    "combat-off",
                    Some(&target),
                    format!(
                        "The attack on {target} is called off: none of {} can still attack it.",
                        list(&attack.units)
                    ),
                );
                return Ok(());
            }
            Designated::Empty(attack) => {
                let target = attack.target.clone();
                self.event(
                    rules::EMPTY_SPACE,
                    "combat",
                    Some(&target),
                    format!("{} {} {target}, which holds no enemy unit and no intact enemy fort: {}, as if the defender had retreated two spaces.", list(&attack.units), verb(attack.units.len(), "attacks", "attack"), self.says(&attacker, "wins", "win")),
                );
                self.event(
                    rules::EMPTY_SPACE,
                    "result",
                    Some(&target),
                    format!(
                        "{} at {target} (an empty space).",
                        self.says(&attacker, "wins", "win")
                    ),
                );
                return self.advance(n, &attack, true);
            }
            Designated::Fight(c) => *c,
        };
        let target = c.attack.target.clone();
        let defender = c.defender.clone();
        if let Some(why) = self.london_refuses(&c.attack.units) {
            self.event(
                rules::LONDON,
                "combat-off",
                Some(&target),
                format!("The attack on {target} is called off: {why}."),
            );
            return Ok(());
        }
        if let Some(why) = super::theatres::taranto_refuses(
            self.map,
            &self.tables.theatres,
            &self.pog,
            &c.attack.units,
            &target,
        ) {
            self.event(
                rules::TARANTO,
                "combat-off",
                Some(&target),
                format!("The attack on {target} is called off: {why}."),
            );
            return Ok(());
        }
        // 12.1.9: a Russian corps attacking from the To Caucasus box into the Near East (or back)
        // uses the turn's one passage.
        for id in c.attack.units.clone() {
            if let Some(from) = self.unit(&id).map(|u| u.space().to_string()) {
                self.note_caucasus(&id, &from, &target, rules::CAUCASUS_COMBAT, "attacks");
            }
        }
        // Step 2, combat strengths (12.2.2).
        let (a_cs, d_cs) = (
            self.strength(&c.attack.units, 0),
            self.strength(&c.defenders, c.fort),
        );
        let fort_text = if c.fort > 0 {
            format!(" and the fort ({})", c.fort)
        } else {
            String::new()
        };
        let spaces = self.attacking_spaces(&c.attack.units);
        self.event(
            rules::STRENGTH,
            "combat",
            Some(&target),
            format!(
                "Combat {n}: {} (from {}; strength {a_cs}) {} {target}: {}{fort_text} (strength {d_cs}).",
                list(&c.attack.units),
                spaces.join(", "),
                verb(c.attack.units.len(), "attacks", "attack"),
                list(&c.defenders)
            ),
        );
        if c.retreated_only {
            self.event(rules::RETREATED, "combat", Some(&target), format!("Every defender in {target} retreated in this action: they fire on the leftmost column, with no card, no favourable DRM or shift."));
        }
        // Step 3, the trench-negating cards (12.2.3); step 4, the flank attack (12.3); step 5, the
        // other combat cards (12.2.5); step 6, the DRM (12.2.6).
        self.play_cards(&mut c, CardStep::TrenchNegating)?;
        let flank = self.flank_attempt(&c)?;
        self.play_cards(&mut c, CardStep::Combat)?;
        // 12.2.6: -3 when every attacking unit is in Sinai (not when Sinai joins another space).
        if spaces.len() == 1 && spaces[0].eq_ignore_ascii_case(SINAI_SPACE) {
            c.drm[0] -= 3;
            // A modifier of the fire to come, not a fire: an event of the kind `fire` always rolls
            // (its grammar's `rolled`), and one of the kind `combat` is a second battle on the map.
            self.event(
                rules::SINAI,
                "drm",
                Some(&target),
                format!(
                    "Every attacking unit is in {SINAI_SPACE}: {} with -3 DRM.",
                    self.says(&attacker, "fires", "fire")
                ),
            );
        }
        // Steps 7 to 9.
        let (a_loss, d_loss) = match flank {
            None => {
                let fa = self.fire(&c, Side::Attacker, false)?;
                let fd = self.fire(&c, Side::Defender, false)?;
                self.log_fire(&c, Side::Attacker, &fa);
                self.log_fire(&c, Side::Defender, &fd);
                // 12.2.9: the defender takes his losses first.
                self.suffer(&c, Side::Defender, fa.loss)?;
                self.suffer(&c, Side::Attacker, fd.loss)?;
                (fa.loss, fd.loss)
            }
            Some(first) => {
                let second = match first {
                    Side::Attacker => Side::Defender,
                    Side::Defender => Side::Attacker,
                };
                let f1 = self.fire(&c, first, false)?;
                self.log_fire(&c, first, &f1);
                self.suffer(&c, second, f1.loss)?;
                let f2 = self.fire(&c, second, true)?;
                self.log_fire(&c, second, &f2);
                self.suffer(&c, first, f2.loss)?;
                match first {
                    Side::Attacker => (f1.loss, f2.loss),
                    Side::Defender => (f2.loss, f1.loss),
                }
            }
        };
        // Step 10, the winner (12.2.10).
        let attacker_won = a_loss > d_loss;
        let result = if a_loss > d_loss {
            format!(
                "{} at {target}: loss numbers {a_loss} to {d_loss}.",
                self.says(&attacker, "wins", "win")
            )
        } else if d_loss > a_loss {
            format!(
                "{} at {target}: loss numbers {d_loss} to {a_loss}.",
                self.says(&defender, "wins", "win")
            )
        } else {
            format!("Both sides lose at {target}: loss numbers {a_loss} to {d_loss}.")
        };
        self.event(rules::WINNER, "result", Some(&target), result);
        self.discard(&c, a_loss, d_loss);
        self.note_kept_cards(&c);
        // Steps 11 and 12.
        let was_empty = c.defenders.is_empty();
        // 12.2.12: a defender completely eliminated opens the space to the attacker's advance whoever
        // won the combat (step 12 asks only that the defender retreated or was eliminated); a space
        // whose intact enemy fort still stands was not emptied of its defence (pbem's reading).
        if !attacker_won
            && !was_empty
            && self.enemies_in(&target, &attacker).is_empty()
            && !self.intact_enemy_fort(&target, &attacker)
        {
            self.event(
                rules::ADVANCE,
                "advance",
                Some(&target),
                format!(
                    "Every defender in {target} was eliminated: {} may advance though {} did not win the combat.",
                    self.who(&attacker),
                    self.agree(&attacker, "it", "they")
                ),
            );
            return self.advance(n, &c.attack, was_empty);
        }
        if attacker_won {
            let left = self.enemies_in(&target, &attacker);
            let full_attacker = c
                .attack
                .units
                .iter()
                .filter_map(|id| self.unit(id))
                .any(|u| !u.is_reduced);
            if !left.is_empty() && full_attacker {
                self.defender_retreat(&c, &left)?;
            } else if !left.is_empty() {
                self.event(
                    rules::RETREAT,
                    "retreat",
                    Some(&target),
                    format!(
                        "No attacker in full strength is left: {} {} in {target}.",
                        list(&left),
                        verb(left.len(), "stays", "stay")
                    ),
                );
            }
            if self.enemies_in(&target, &attacker).is_empty() {
                return self.advance(n, &c.attack, was_empty);
            }
        }
        Ok(())
    }

    /// Combat strength (12.2.2); sums saturate, so that no factor in a state file can overflow.
    fn strength(&self, units: &[String], fort: u32) -> u32 {
        units
            .iter()
            .filter_map(|id| self.unit(id))
            .fold(fort, |s, u| s.saturating_add(u.cf()))
    }

    /// The spaces the attackers stand in, sorted.
    /// PoG 12.1.10: why an attack with `units` may not be fought, when some stand in London and none
    /// in a space of France, Holland or Belgium (by the map's `nation`). The exception of the North
    /// Sea Invasion event is not modelled (pbem has no event cards beyond combat cards).
    fn london_refuses(&self, units: &[String]) -> Option<String> {
        let spaces = self.attacking_spaces(units);
        if !spaces.iter().any(|s| s.eq_ignore_ascii_case(LONDON_SPACE)) {
            return None;
        }
        let continental = spaces.iter().any(|s| {
            !s.eq_ignore_ascii_case(LONDON_SPACE)
                && self
                    .map
                    .find(s)
                    .and_then(|i| self.map.area(i).nation.as_deref())
                    .is_some_and(|n| LONDON_PARTNERS.iter().any(|p| p.eq_ignore_ascii_case(n)))
        });
        (!continental).then(|| {
            format!("units in {LONDON_SPACE} attack only together with friendly units in France, Holland or Belgium (PoG 12.1.10)")
        })
    }

    pub fn attacking_spaces(&self, units: &[String]) -> Vec<String> {
        let mut s: Vec<String> = units
            .iter()
            .filter_map(|id| self.unit(id))
            .map(|u| u.space().to_string())
            .collect();
        s.sort();
        s.dedup();
        s
    }

    /// Step 3 (`TrenchNegating`): the attacker's trench-negating cards (12.2.3), before the flank
    /// attack; step 5 (`Combat`): his other cards as ordered, then the defender's by his standing
    /// order or the SOP (12.2.5). A card counts only if its condition holds. 12.1.2: no card for
    /// defenders who all retreated in this action.
    fn play_cards(&mut self, c: &mut Combat, step: CardStep) -> Result<()> {
        let target = c.attack.target.clone();
        for id in c.attack.cards.clone() {
            let Some(card) = self.tables.card(&id).cloned() else {
                continue;
            };
            if card.negates_trenches != (step == CardStep::TrenchNegating) {
                continue;
            }
            if !self
                .pog
                .cards_of(&c.attacker)
                .iter()
                .any(|h| h.eq_ignore_ascii_case(&id))
            {
                continue;
            }
            if self.used_cards.contains(&card.id.to_lowercase()) {
                self.event(
                    rules::CARDS,
                    "card",
                    Some(&target),
                    format!(
                        "{} was used in an earlier combat of this action: not again.",
                        card.name
                    ),
                );
                continue;
            }
            if !self.card_condition(&card.nations, &c.attack.units) {
                self.event(
                    rules::CARDS,
                    "card",
                    Some(&target),
                    format!(
                        "{} cannot be played at {target}: none of its nations attacks.",
                        card.name
                    ),
                );
                continue;
            }
            let rule = if card.negates_trenches {
                rules::TRENCH_CARDS
            } else {
                rules::CARDS
            };
            c.trenches_negated |= card.negates_trenches;
            c.drm[0] += card.drm;
            c.shift[0] += card.shift;
            c.cards[0].push(card.id.clone());
            self.used_cards.insert(card.id.to_lowercase());
            self.event(
                rule,
                "card",
                Some(&target),
                format!(
                    "{} {}{}.",
                    self.says(&c.attacker, "plays", "play"),
                    card.name,
                    card_effect(card.drm, card.shift, card.negates_trenches)
                ),
            );
        }
        if c.retreated_only || step == CardStep::TrenchNegating {
            return Ok(());
        }
        let d = self.decide(
            PogPoint::DefenceCards,
            &c.defender,
            None,
            None,
            |v| matches!(v, "all" | "none").then(|| v == "all"),
            || Ok(true),
        )?;
        if !d.value {
            return Ok(());
        }
        for id in self.pog.cards_of(&c.defender).to_vec() {
            let Some(card) = self.tables.card(&id).cloned() else {
                continue;
            };
            if card.side == CardSide::Attacker
                || self.used_cards.contains(&card.id.to_lowercase())
                || !self.card_condition(&card.nations, &c.defenders)
            {
                continue;
            }
            c.drm[1] += card.drm;
            c.shift[1] += card.shift;
            c.cards[1].push(card.id.clone());
            self.used_cards.insert(card.id.to_lowercase());
            let text = format!(
                "{} {}{}.",
                self.says(&c.defender, "plays", "play"),
                card.name,
                card_effect(card.drm, card.shift, false)
            );
            self.log(
                Event::new(rules::CARDS, "card", text)
                    .at(&target)
                    .decided(&c.defender, d.by),
            );
        }
        Ok(())
    }

    fn card_condition(&self, nations: &[String], units: &[String]) -> bool {
        nations.is_empty()
            || units
                .iter()
                .filter_map(|id| self.unit(id))
                .any(|u| nations.iter().any(|n| n.eq_ignore_ascii_case(&u.nation)))
    }

    /// Step 10: the losers discard the cards they played (12.2.10); a tie loses for both. The
    /// exception of 12.2.10: a card marked `kept_on_tie` (They Shall Not Pass) is discarded only when
    /// its player loses outright, and stays face up on a tie.
    fn discard(&mut self, c: &Combat, a_loss: u32, d_loss: u32) {
        let tie = a_loss == d_loss;
        for (side, power, lost) in [
            (0, &c.attacker, a_loss <= d_loss),
            (1, &c.defender, d_loss <= a_loss),
        ] {
            if !lost || c.cards[side].is_empty() {
                continue;
            }
            let kept_on_tie =
                |id: &str| tie && self.tables.card(id).is_some_and(|card| card.kept_on_tie);
            let (kept, gone): (Vec<String>, Vec<String>) = c.cards[side]
                .iter()
                .cloned()
                .partition(|id| kept_on_tie(id));
            if let Some(hand) = self.pog.cards.get_mut(power) {
                hand.retain(|h| !gone.iter().any(|p| p.eq_ignore_ascii_case(h)));
            }
            self.pog
                .played_in_turn
                .retain(|id, _| !gone.iter().any(|g| g.eq_ignore_ascii_case(id)));
            if !gone.is_empty() {
                let text = format!(
                    "{} lost the combat and {} {}.",
                    self.who(power),
                    self.agree(power, "discards", "discard"),
                    gone.join(", ")
                );
                self.event(rules::WINNER, "card", Some(&c.attack.target), text);
            }
            if !kept.is_empty() {
                let text = format!(
                    "{} tied the combat and {} {} face up (the exception of PoG 12.2.10).",
                    self.who(power),
                    self.agree(power, "keeps", "keep"),
                    kept.join(", ")
                );
                self.event(rules::WINNER, "card", Some(&c.attack.target), text);
            }
        }
    }

    /// 12.2.10's exception: a card that stays face up only until the end of the next game turn
    /// (`until_next_turn`) and that its player still holds after the combat is noted with the game
    /// turn it was first played in; `end_of_action` discards it when the turn after that one ends.
    fn note_kept_cards(&mut self, c: &Combat) {
        let turn = self.pog.game_turn;
        for (side, power) in [(0, &c.attacker), (1, &c.defender)] {
            for id in &c.cards[side] {
                let lasts = self.tables.card(id).is_some_and(|k| k.until_next_turn);
                let held = self
                    .pog
                    .cards
                    .get(power)
                    .is_some_and(|h| h.iter().any(|k| k.eq_ignore_ascii_case(id)));
                if lasts && held {
                    self.pog.played_in_turn.entry(id.clone()).or_insert(turn);
                }
            }
        }
    }

    /// The trench level that counts for the defender of `c` (none when cards negate it, or when a
    /// fort defends alone: 11.2.9).
    fn defending_trench(&self, c: &Combat) -> Option<u32> {
        if c.trenches_negated || self.enemies_in(&c.attack.target, &c.attacker).is_empty() {
            return None;
        }
        self.trench_level(&c.attack.target, &c.defender)
    }

    /// Whether the flank attack of `c`, pinned from `pin`, may be tried (12.3.1), and its DRM with the
    /// spaces that give it (12.3.2); else why not. Looks, changes nothing.
    pub fn flank_check(
        &self,
        c: &Combat,
        pin: &str,
    ) -> std::result::Result<(i32, Vec<String>), String> {
        let target = &c.attack.target;
        // 12.3.1: only supplied attacking spaces count (pbem's supply trace, see Action::supplied).
        let all_spaces = self.attacking_spaces(&c.attack.units);
        let spaces: Vec<String> = all_spaces
            .iter()
            .filter(|s| self.supplied(self.space_index(s), &c.attacker))
            .cloned()
            .collect();
        let terrain = self.terrain(target);
        if all_spaces.len() < 2 {
            return Err("the attackers stand in one space".to_string());
        } else if spaces.len() < 2 {
            return Err("fewer than two attacking spaces are supplied".to_string());
        } else if matches!(
            terrain,
            crate::game::map::Terrain::Swamp | crate::game::map::Terrain::Mountain
        ) {
            return Err(format!("{target} is {}", terrain.name()));
        } else if !c.trenches_negated
            && (self.pog.trench.contains_key(target)
                || self.trench_level(target, &c.defender).is_some())
        {
            return Err(format!("{target} is entrenched"));
        } else if c.defenders.is_empty() && c.fort > 0 {
            return Err(format!("{target} is an unoccupied fort"));
        } else if !spaces.iter().any(|s| s == pin) {
            return Err(format!("{pin} is not a supplied attacking space"));
        }
        // 12.3.2: +1 for each attacking space but the pinning one that touches, by a solid line, no
        // space with enemy units other than the target.
        let t = self.space_index(target);
        let mut drm = 0;
        let mut counted = Vec::new();
        for s in spaces.iter().filter(|s| *s != pin) {
            let i = self.space_index(s);
            let touches = self.map.area(i).adjacent.iter().any(|&n| {
                n != t
                    && self.map.solid(i, n)
                    && !self.enemies_in(&self.space_id(n), &c.attacker).is_empty()
            });
            if !touches {
                drm += 1;
                counted.push(s.clone());
            }
        }
        Ok((drm, counted))
    }

    /// Step 4 (12.3): the flank attack, if ordered and allowed. Returns the side that fires first,
    /// or `None` when fire is simultaneous.
    fn flank_attempt(&mut self, c: &Combat) -> Result<Option<Side>> {
        let Some(pin) = c.attack.flank.clone() else {
            return Ok(None);
        };
        let target = c.attack.target.clone();
        let (drm, counted) = match self.flank_check(c, &pin) {
            Ok(found) => found,
            Err(why) => {
                self.event(
                    rules::FLANK_ELIGIBLE,
                    "flank",
                    Some(&target),
                    format!("No flank attack at {target}: {why}; both sides fire at once."),
                );
                return Ok(None);
            }
        };
        let roll = self.dice.roll(&labels::flank(c.n, &target), &[6])?;
        let die = roll.dice[0].face;
        let total = die as i32 + drm;
        let success = total >= 4;
        let text = format!(
            "Flank attack on {target}, pinned from {pin}: a {}{} = {}: {}.",
            roll.told(0),
            if drm > 0 {
                format!(" +{drm} ({})", counted.join(", "))
            } else {
                String::new()
            },
            roll.told(0).plus(drm.into()),
            if success {
                "it succeeds, the attacker fires first"
            } else {
                "it fails, the defender fires first"
            }
        );
        let rule = if drm > 0 {
            rules::FLANK_DRM
        } else {
            rules::FLANK_ROLL
        };
        self.log(Event::new(rule, "flank", text).at(&target).roll(roll));
        Ok(Some(if success {
            Side::Attacker
        } else {
            Side::Defender
        }))
    }

    /// Steps 7 and 8 for one side: its table and column (12.2.7), its die modified and clamped (12.2.8).
    /// `after_losses`: the side fires after taking losses in a flank attack (12.3.3, Note of 12.3.4).
    fn fire(&mut self, c: &Combat, side: Side, after_losses: bool) -> Result<Fire> {
        let target = c.attack.target.clone();
        let i = Combat::idx(side);
        let (units, fort, power) = match side {
            Side::Attacker => (self.alive(&c.attack.units), 0, c.attacker.clone()),
            Side::Defender => (self.alive(&c.defenders), c.fort, c.defender.clone()),
        };
        let label = labels::fire(c.n, &target, side.word());
        let roll = self.dice.roll(&label, &[6])?;
        let die = roll.dice[0].face;
        let corps = &self.tables.fire.corps;
        let army = &self.tables.fire.army;
        let retreated = side == Side::Defender && c.retreated_only;
        let mut drm = c.drm[i];
        if retreated {
            drm = drm.min(0);
        }
        let modified = (die as i32 + drm).clamp(1, 6) as u32;
        // The Note of 12.3.4: a force eliminated before it fires fires on the leftmost Corps/Fort
        // column, shifts ignored, DRM applied.
        if after_losses && units.is_empty() && fort == 0 {
            let loss = corps.loss(0, modified);
            return Ok(Fire {
                table: "Corps/Fort",
                column: corps.heading(0),
                die,
                drm,
                modified,
                loss,
                roll,
                note: "eliminated before it fired (PoG 12.3.4)".into(),
            });
        }
        let strength = self.strength(&units, fort);
        let has_army = units
            .iter()
            .filter_map(|id| self.unit(id))
            .any(|u| u.is_army());
        // Shifts: terrain and trenches for the attacker's fire, trenches for the defender's, cards.
        let trench = self.defending_trench(c);
        let mut shift = c.shift[i];
        // 12.2.7's Army table option renounces the favourable shifts and keeps the others: the sum
        // of the unfavourable ones, card by card, terrain and trench.
        let mut unfavourable: i32 = c.cards[i]
            .iter()
            .filter_map(|id| self.tables.card(id))
            .map(|card| card.shift.min(0))
            .sum();
        // Each shift of the note, with its value: the Army table option renounces the favourable ones.
        let mut note: Vec<(String, i32)> = Vec::new();
        match side {
            Side::Attacker => {
                let ts = self.tables.terrain_shift(self.terrain(&target));
                if ts != 0 {
                    note.push((format!("{} {ts:+}", self.terrain(&target).name()), ts));
                }
                shift += ts;
                unfavourable += ts.min(0);
                if let Some(l) = trench {
                    let s = self.tables.trench_shift(l).attacker;
                    note.push((format!("trench level {l} {s:+}"), s));
                    shift += s;
                    unfavourable += s.min(0);
                }
            }
            Side::Defender => {
                if let Some(l) = trench {
                    let s = self.tables.trench_shift(l).defender;
                    if s != 0 {
                        note.push((format!("trench level {l} {s:+}"), s));
                    }
                    shift += s;
                    unfavourable += s.min(0);
                }
            }
        }
        if retreated {
            let t: &FireTable = if has_army { army } else { corps };
            let loss = t.loss(0, modified);
            let name = if has_army { "Army" } else { "Corps/Fort" };
            return Ok(Fire {
                table: name,
                column: t.heading(0),
                die,
                drm,
                modified,
                loss,
                roll,
                note: "leftmost column (PoG 12.1.2)".into(),
            });
        }
        let (table, column, name) = if has_army {
            (army, army.shifted(army.column_of(strength), shift), "Army")
        } else {
            let corps_col = corps.shifted(corps.column_of(strength), shift);
            // 12.2.7: from LF 4 in a space, the Army table without favourable shifts: those that
            // are not favourable still count, even where a favourable one offset them.
            let army_col = army.shifted(army.column_of(strength.max(1)), unfavourable);
            let eligible = self.lf_reaches_4(&units, fort);
            let explicit = (side == Side::Attacker && c.attack.army_table).then_some("army");
            let better = army.mean6(army_col) > corps.mean6(corps_col);
            let d = self.decide(
                PogPoint::FireTable,
                &power,
                explicit,
                None,
                |v| match v {
                    "army" => Some(true),
                    "best" => Some(better),
                    "corps" => Some(false),
                    _ => None,
                },
                || Ok(false),
            )?;
            if eligible && d.value {
                let text = format!(
                    "{} LF 4 and {} on the Army table, column {}, renouncing favourable shifts.",
                    self.says(&power, "reaches", "reach"),
                    self.agree(&power, "fires", "fire"),
                    army.heading(army_col)
                );
                self.log(
                    Event::new(rules::ARMY_TABLE_OPTION, "fire-table", text)
                        .at(&target)
                        .decided(&power, d.by),
                );
                for (text, s) in &mut note {
                    if *s > 0 {
                        *text = format!("renounced: {text}");
                    }
                }
                for card in c.cards[i].iter().filter_map(|id| self.tables.card(id)) {
                    if card.shift > 0 {
                        note.push((format!("renounced: {} {:+}", card.name, card.shift), 0));
                    }
                }
                (army, army_col, "Army")
            } else {
                (corps, corps_col, "Corps/Fort")
            }
        };
        let note: Vec<String> = note.into_iter().map(|(text, _)| text).collect();
        let loss = table.loss(column, modified);
        Ok(Fire {
            table: name,
            column: table.heading(column),
            die,
            drm,
            modified,
            loss,
            roll,
            note: note.join(", "),
        })
    }

    /// Whether `units` (with a fort's factor, pbem's reading of the Warsaw example) reach a loss factor
    /// of 4 in one of their spaces (12.2.7).
    fn lf_reaches_4(&self, units: &[String], fort: u32) -> bool {
        let mut by_space: std::collections::BTreeMap<String, u32> =
            std::collections::BTreeMap::new();
        for u in units.iter().filter_map(|id| self.unit(id)) {
            let lf = by_space.entry(u.space().to_string()).or_default();
            *lf = lf.saturating_add(u.lf());
        }
        if by_space.is_empty() {
            return fort >= 4;
        }
        by_space.values().any(|&lf| lf.saturating_add(fort) >= 4)
    }

    fn alive(&self, units: &[String]) -> Vec<String> {
        units
            .iter()
            .filter(|id| self.unit(id).is_some())
            .cloned()
            .collect()
    }

    fn log_fire(&mut self, c: &Combat, side: Side, f: &Fire) {
        let power = match side {
            Side::Attacker => &c.attacker,
            Side::Defender => &c.defender,
        };
        let drm = c.drm[Combat::idx(side)];
        let text = format!(
            "{} ({}) {} on the {} table, column {}{}: a {}{} = {}: loss number {}.",
            self.who(power),
            side.word(),
            self.agree(power, "fires", "fire"),
            f.table,
            f.column,
            if f.note.is_empty() {
                String::new()
            } else {
                format!(" ({})", f.note)
            },
            f.roll.told(0),
            if f.drm != 0 {
                format!(" {:+}", f.drm)
            } else {
                String::new()
            },
            // 12.2.8: the die modified, held on the table's 1 to 6 (the DRM the fire used: a
            // retreated defender's is at most 0).
            f.roll.told(0).plus(f.drm.into()).within(1, 6),
            f.loss
        );
        let rule = if f.die as i32 + drm != f.modified as i32 {
            rules::RESULTS
        } else {
            rules::FIRE_COLUMN
        };
        self.log(
            Event::new(rule, "fire", text)
                .at(&c.attack.target)
                .roll(f.roll.clone()),
        );
    }

    /// Step 9 for one side (12.2.9); 12.1.2: retreated defenders die on any loss.
    fn suffer(&mut self, c: &Combat, side: Side, loss: u32) -> Result<()> {
        let target = c.attack.target.clone();
        match side {
            Side::Attacker => {
                let units = self.alive(&c.attack.units);
                self.take_losses(&c.attacker, &units, loss, &target)?;
            }
            Side::Defender => {
                let units = self.alive(&c.defenders);
                if c.retreated_only && loss >= 1 {
                    for id in &units {
                        self.eliminate(id);
                    }
                    self.event(
                        rules::RETREATED,
                        "losses",
                        Some(&target),
                        format!(
                            "{} retreated in this action and {} eliminated by a loss of {loss}.",
                            list(&units),
                            verb(units.len(), "is", "are")
                        ),
                    );
                } else {
                    self.take_losses(&c.defender, &units, loss, &target)?;
                }
            }
        }
        Ok(())
    }
}

fn card_effect(drm: i32, shift: i32, negates: bool) -> String {
    let mut parts = Vec::new();
    if drm != 0 {
        parts.push(format!("DRM {drm:+}"));
    }
    if shift != 0 {
        parts.push(format!("{shift:+} column"));
    }
    if negates {
        parts.push("no trench effect".to_string());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

impl Action<'_> {
    /// What an attack would come to before any die (`pbem check --forecast`): the strengths, the
    /// cards, the flank attack and the table and column of each side. Run on a scratch action.
    pub fn preview(&mut self, n: usize, attack: Attack) -> Result<String> {
        let attacker = self.active.clone();
        let mut c = match self.designate(n, attack) {
            Designated::Off(a) => {
                return Ok(format!(
                    "Attack on {}: none of {} can attack it from where it stands.",
                    a.target,
                    list(&a.units)
                ))
            }
            Designated::Empty(a) => {
                return Ok(format!(
                    "Attack on {}: it holds no enemy unit and no intact enemy fort, so {} it at once (PoG 12.2.1); {} {} unless told not to.",
                    a.target,
                    self.says(&attacker, "wins", "win"),
                    list(&a.units),
                    verb(a.units.len(), "advances", "advance")
                ))
            }
            Designated::Fight(c) => *c,
        };
        let target = c.attack.target.clone();
        let (a_cs, d_cs) = (
            self.strength(&c.attack.units, 0),
            self.strength(&c.defenders, c.fort),
        );
        self.play_cards(&mut c, CardStep::TrenchNegating)?;
        self.play_cards(&mut c, CardStep::Combat)?;
        let flank = match c.attack.flank.clone() {
            None => String::new(),
            Some(pin) => match self.flank_check(&c, &pin) {
                Ok((drm, _)) => format!(
                    "; the flank attack pinned from {pin} has {drm:+} and succeeds on a die of {} or more (PoG 12.3.3)",
                    (4 - drm).max(1)
                ),
                Err(why) => format!("; no flank attack: {why} (PoG 12.3.1)"),
            },
        };
        let fa = self.fire(&c, Side::Attacker, false)?;
        let fd = self.fire(&c, Side::Defender, false)?;
        let aim = |f: &Fire, drm: i32| {
            let mut s = format!("the {} table, column {}", f.table, f.column);
            if !f.note.is_empty() {
                s.push_str(&format!(" ({})", f.note));
            }
            if drm != 0 {
                s.push_str(&format!(", DRM {drm:+}"));
            }
            s
        };
        Ok(format!(
            "Attack on {target}: {} (strength {a_cs}) against {}{} (strength {d_cs}); you fire on {}, the defender on {}{flank}.",
            list(&c.attack.units),
            list(&c.defenders),
            if c.fort > 0 { format!(" and the fort ({})", c.fort) } else { String::new() },
            aim(&fa, c.drm[0]),
            aim(&fd, c.drm[1].min(if c.retreated_only { 0 } else { i32::MAX })),
        ))
    }
}
