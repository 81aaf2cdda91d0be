//! Before and instead of a field battle: defenders retiring into their city (EiA 7.5.1.1), cossacks
//! and freikorps slipping away (10.1.2.2.3), and the siege that follows a retirement: the sortie
//! (7.5.4.1.2.1), the breach (7.5.4, on the game's own siege table), the honours of war
//! (7.5.4.1.2.3.1) and the garrison's surrender by standing order (the fourth interrupt of 19.1).
//! A garrison stays in its city from turn to turn (`in_city` in the state): while hostile corps stand
//! in its area outside the city it is besieged, and an attack on the area goes on with the siege.

use std::collections::BTreeSet;

use anyhow::Result;

use crate::decide::{decide, DecidedBy, Sources};
use crate::engine::event::Event;
use crate::game::state::State;
use crate::rules::eia::state::{Corps, EiaState};
use crate::rules::wording::verb;

use super::battle::{factors, join};
use super::decisions::{EiaPoint, EVADE, GARRISON, HONOURS, RETIRE, SIEGE, SORTIE, SURRENDER};
use super::labels;
use super::phase::Phase;
use super::standing::{parse_surrender, SurrenderPolicy};

/// The powers besieging the city of `garrison` at the start of a turn (EiA 7.5.4): those hostile to
/// its power with corps standing in its area outside the city. Empty for a corps not in a city.
/// While they stand there the garrison may not march out (its `move` is refused) nor reinforce a
/// battle (EiA 7.5.2.11).
pub fn besiegers_at_start(state: &State, garrison: &Corps) -> BTreeSet<String> {
    if !garrison.in_city {
        return BTreeSet::new();
    }
    EiaState::of(state)
        .corps
        .iter()
        .filter(|c| {
            !c.in_city
                && c.factors > 0
                && c.area.get_ref() == garrison.area.get_ref()
                && !state.friendly(c.power.get_ref(), garrison.power.get_ref())
        })
        .map(|c| c.power.get_ref().clone())
        .collect()
}

impl Phase<'_> {
    /// EiA 7.5.4: the sieges laid in an earlier turn, as the turn starts: the powers of
    /// [`besiegers_at_start`], by area, so that the garrisons they shut in stay out of this turn's
    /// battles while one of them stands in the area (EiA 7.5.2.11).
    pub(super) fn sieges_from_earlier_turns(&mut self, state: &State) {
        for c in EiaState::of(state).corps.iter().filter(|c| c.in_city) {
            let powers = besiegers_at_start(state, c);
            if let (false, Some(area)) = (powers.is_empty(), self.map.find(c.area.get_ref())) {
                self.besiegers.entry(area).or_default().extend(powers);
            }
        }
    }

    /// EiA 7.5.4: an attack on an area whose defenders all stand in its city already (a garrison from
    /// an earlier turn, or one that retired into it earlier this turn) is the siege of that city, with
    /// no retirement to decide and no field battle; their cossacks and freikorps in the field are no
    /// corps (EiA 7.5.2.11 names them apart) and retreat before it (10.1.2.2.3). Returns whether that
    /// is so.
    pub(super) fn defenders_hold_the_city(
        &mut self,
        area: usize,
        defenders: &BTreeSet<String>,
        involved: &BTreeSet<String>,
    ) -> bool {
        let def: Vec<usize> = self
            .board
            .corps_in(area)
            .into_iter()
            .filter(|&i| defenders.contains(&self.board.corps[i].power) && self.is_corps(i))
            .collect();
        if def.is_empty() || def.iter().any(|&i| !self.board.corps[i].in_city) {
            return false;
        }
        let name = self.map.area(area).id.clone();
        let ids: Vec<&str> = def
            .iter()
            .map(|&i| self.board.corps[i].id.as_str())
            .collect();
        let text = format!(
            "{} {} in the city of {name} already: the attack on {name} is its siege (EiA 7.5.4).",
            ids.join(", "),
            if ids.len() == 1 { "is" } else { "are" }
        );
        self.push(Event::new(GARRISON, "siege", text), area, involved);
        true
    }

    /// EiA 7.5.1.1: the defenders retire into the city of the area when all their corps fit in its
    /// garrison and they have fewer corps than the attackers in the field, unless the attackers hold
    /// the city themselves (a garrison of theirs is in it, 7.5.2.11). pbem's reading of "retire into
    /// a city" (the seed does not say whose): a garrison holds its own side's city, so a city whose
    /// area a power hostile to the defenders controlled when the turn began is closed to them (they
    /// fight in the field); an uncontrolled one is open. Cossacks and freikorps in the field are not
    /// counted on either side: the seed names them apart from corps (EiA 7.5.2.11: "corps, cossacks,
    /// freikorps and guerrillas"), and they retreat before combat (10.1.2.2.3) rather than retire:
    /// a defender's infantry corps with a cossack beside it, against two corps, retires, and the
    /// cossack retreats. Returns whether they did.
    pub(super) fn retire_into_city(
        &mut self,
        area: usize,
        attackers: &BTreeSet<String>,
        defenders: &BTreeSet<String>,
        involved: &BTreeSet<String>,
    ) -> Result<bool> {
        let Some(city) = self.map.area(area).city else {
            return Ok(false);
        };
        let in_area = self.board.corps_in(area);
        let def: Vec<usize> = in_area
            .iter()
            .copied()
            .filter(|&i| defenders.contains(&self.board.corps[i].power) && self.is_corps(i))
            .collect();
        // The attackers' own garrison, if they hold the city, is not in the field and bars the gates.
        let (att_city, att): (Vec<usize>, Vec<usize>) = in_area
            .iter()
            .copied()
            .filter(|&i| attackers.contains(&self.board.corps[i].power) && self.is_corps(i))
            .partition(|&i| self.board.corps[i].in_city);
        let att = att.len();
        let hostile_city = self
            .control
            .get(&self.map.area(area).id)
            .is_some_and(|owner| defenders.iter().any(|d| !self.board.friendly(owner, d)));
        if def.is_empty()
            || !att_city.is_empty()
            || hostile_city
            || def.len() as u32 > city.garrison
            || def.len() >= att
        {
            return Ok(false);
        }
        // Those in the city already (its garrison) stay there; the others join them.
        let ids: Vec<String> = def
            .iter()
            .filter(|&&i| !self.board.corps[i].in_city)
            .map(|&i| self.board.corps[i].id.clone())
            .collect();
        for &i in &def {
            self.board.corps[i].in_city = true;
        }
        let name = self.map.area(area).id.clone();
        let text = format!(
            "{} {} into the city of {name} ({} corps {} its garrison of {}, against {att} enemy corps) (by the SOP).",
            ids.join(", "),
            verb(ids.len(), "retires", "retire"),
            def.len(),
            verb(def.len(), "fits", "fit"),
            city.garrison
        );
        let e = Event::new(RETIRE, "decision", text).decided(join(defenders), DecidedBy::Sop);
        self.push(e, area, involved);
        Ok(true)
    }

    /// EiA 10.1.2.2.3: the defenders' cossacks and freikorps in the field retreat before combat, a
    /// field battle or the siege of the city their comrades hold (label `evade/area=../power=..`
    /// among equally near areas); one in the city is of its garrison and stays.
    pub(super) fn evade(
        &mut self,
        area: usize,
        defenders: &BTreeSet<String>,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let name = self.map.area(area).id.clone();
        for power in defenders {
            let corps: Vec<usize> = self
                .board
                .corps_in(area)
                .into_iter()
                .filter(|&i| {
                    let c = &self.board.corps[i];
                    &c.power == power && c.kind.evades_combat() && !c.in_city
                })
                .collect();
            if !corps.is_empty() {
                self.evaded.extend(corps.iter().copied());
                self.retreat_group(
                    area,
                    power,
                    &corps,
                    &[],
                    involved,
                    &labels::staged(self.stage, labels::evade(&name, power)),
                    EVADE,
                )?;
            }
        }
        Ok(())
    }

    /// Whether corps `i` is a corps in the words of EiA 7.5.1.1: a cossack or freikorps in the field
    /// is not (7.5.2.11 names them apart from corps); one in a city is of its garrison.
    fn is_corps(&self, i: usize) -> bool {
        let c = &self.board.corps[i];
        c.in_city || !c.kind.evades_combat()
    }

    /// The siege of a city whose defenders retired into it.
    pub(super) fn siege(
        &mut self,
        area: usize,
        attackers: BTreeSet<String>,
        defenders: BTreeSet<String>,
        involved: &BTreeSet<String>,
    ) -> Result<()> {
        let name = self.map.area(area).id.clone();
        let fortress = self.map.area(area).city.map_or(0, |c| c.fortress);
        self.besiegers
            .entry(area)
            .or_default()
            .extend(attackers.iter().cloned());
        let mut besiegers = self.side("attacker", area, attackers, false, involved)?;
        let garrison = self.side("defender", area, defenders, true, involved)?;
        besiegers.held.clear();
        // EiA 7.5.4.1.2.1: the defenders sortie unless the garrison is a single factor.
        let g = self.factors(&garrison, area);
        if g > 1 {
            let roll = self
                .dice
                .roll(&labels::staged(self.stage, labels::sortie(&name)), &[6, 6])?;
            let t = &self.eia.tables;
            let on_besiegers = t.result(roll.dice[0].face as i32, t.column(g));
            let on_garrison = t.result(
                roll.dice[1].face as i32,
                t.column(self.factors(&besiegers, area)),
            );
            let lost_b = self.take_losses(&besiegers, area, on_besiegers.factors);
            let lost_g = self.take_losses(&garrison, area, on_garrison.factors);
            let text = format!(
                "The garrison of {name} sorties (by the SOP): it rolls {}, the besiegers roll {}; the besiegers lose {}, the garrison {}.",
                roll.told(0),
                roll.told(1),
                factors(lost_b),
                factors(lost_g)
            );
            let e = Event::new(SORTIE, "siege", text)
                .roll(roll)
                .decided(garrison.lead.clone(), DecidedBy::Sop);
            self.push(e, area, involved);
        } else {
            let text = format!(
                "The garrison of {name} is a single factor: it does not sortie (by the SOP)."
            );
            let e =
                Event::new(SORTIE, "siege", text).decided(garrison.lead.clone(), DecidedBy::Sop);
            self.push(e, area, involved);
        }
        let g = self.factors(&garrison, area);
        let b = self.factors(&besiegers, area);
        if g == 0 || b == 0 {
            return Ok(());
        }
        // EiA 7.5.4: the breach, on the game's own siege table.
        let roll = self
            .dice
            .roll(&labels::staged(self.stage, labels::siege(&name)), &[6])?;
        let bonus = u32::from(b >= 2 * g);
        let need = self.eia.tables.siege.breach + fortress;
        let got = roll.dice[0].face + bonus;
        let breached = got >= need;
        let text = format!(
            "The besiegers of {name} ({}) roll {} (+{bonus} for twice the garrison's strength), need {need} (fortress {fortress}): {}.",
            self.words.all(&besiegers.powers),
            roll.told(0),
            if breached { "the walls are breached" } else { "the walls hold" }
        );
        self.push(Event::new(SIEGE, "siege", text).roll(roll), area, involved);
        if !breached {
            return Ok(());
        }
        // EiA 7.5.4.1.2.3.1: the defender asks for the honours of war, unless Turkish or Spanish.
        let asks = !self.eia.tables.siege.no_honours.contains(&garrison.lead);
        if asks {
            let sources = Sources {
                explicit: None,
                standing: self.standing.get(&besiegers.lead),
                sop: &self.eia.sop,
                scope: None,
            };
            let d = decide(
                &EiaPoint::Honours,
                &sources,
                |s| match s {
                    "grant" => Some(true),
                    "deny" => Some(false),
                    _ => None,
                },
                || Ok(true),
            )?;
            let text = format!(
                "The garrison of {name} asks for the honours of war; {} {} them{}.",
                self.words.who(&besiegers.lead),
                if d.value { "grants" } else { "denies" },
                d.by.aside(" (", ")")
            );
            let e = Event::new(HONOURS, "decision", text).decided(besiegers.lead.clone(), d.by);
            self.push(e, area, involved);
            if d.value {
                // The garrison marches out with its arms, by the retreat rule.
                return self.retreat(area, &garrison, involved);
            }
        } else {
            let text = format!(
                "The garrison of {name} ({}) does not ask for the honours of war.",
                self.words.who(&garrison.lead)
            );
            self.push(Event::new(HONOURS, "siege", text), area, involved);
        }
        // The fourth interrupt of EiA 19.1: does the breached garrison surrender?
        let sources = Sources {
            explicit: None,
            standing: self.standing.get(&garrison.lead),
            sop: &self.eia.sop,
            scope: Some(&name),
        };
        let d = decide(&EiaPoint::Surrender, &sources, parse_surrender, || {
            Ok(SurrenderPolicy::Never)
        })?;
        let surrender = match d.value {
            SurrenderPolicy::Never => false,
            SurrenderPolicy::Always => true,
            SurrenderPolicy::WhenOutnumbered(n) => b >= n.saturating_mul(g),
        };
        let corps: Vec<usize> = self.side_corps(&garrison, area);
        let ids: Vec<String> = corps
            .iter()
            .map(|&i| self.board.corps[i].id.clone())
            .collect();
        for &i in &corps {
            self.board.corps[i].eliminated = true;
        }
        let text = if surrender {
            format!(
                "The garrison of {name} ({}) surrenders{}.",
                ids.join(", "),
                d.by.aside(" (", ")")
            )
        } else {
            let lost = self.take_losses(&besiegers, area, g);
            format!(
                "The garrison of {name} ({}) fights on{}: the city is stormed, the garrison falls and the besiegers lose {}.",
                ids.join(", "),
                d.by.aside(" (", ")"),
                factors(lost)
            )
        };
        let e = Event::new(SURRENDER, "decision", text).decided(garrison.lead.clone(), d.by);
        self.push(e, area, involved);
        // Leaders in the fallen city get away by the retreat rule.
        self.retreat(area, &garrison, involved)
    }
}
