//! Sieges of a city without a fort (GITM 2.7: a city can be besieged with or without a fort). A
//! city's tactical square is a town square (2.2) of the tactical map under a square map.toml's
//! `[places]` names (`state::city_square`). pbem's reading, as for a fort (`rules::PBEM_SIEGE`): at
//! the end of a campaign turn such a square with no fort, with brigades on it, is besieged while
//! active combat units hostile to them stand in its strategic square; its garrison (the brigades on
//! it, not shattered nor of the besieging power) may not march out (7.7) nor draw supply, and on
//! the tactical map leaves and is entered only as 8.4 allows (the tactical part reads the siege as
//! it reads a fort's). With no
//! walls there is nothing to breach: the siege lasts until no besieger or no garrison is left, and
//! the city falls by 3.7's capture (`capture.rs`) once its garrison is gone.

use std::collections::BTreeSet;

use super::rules;
use super::state::{city_square, Siege};
use super::turn::{Audience, Turn};

impl Turn<'_> {
    /// GITM 2.7 for cities without a fort, at the end of a campaign turn: sieges laid where hostile
    /// combat units stand in the square of a garrisoned town square, lifted where no besieger or no
    /// garrison is left.
    pub fn city_sieges(&mut self) {
        let turn = self.state.turn;
        // The places to look at: the fortless city squares brigades stand on, and the sieges of
        // such places already laid.
        let places: BTreeSet<String> = self
            .g
            .brigades
            .iter()
            .map(|b| b.at().to_string())
            .chain(self.g.sieges.iter().map(|s| s.at.get_ref().clone()))
            .filter(|at| self.g.fort_at(at).is_none() && city_square(self.map, at))
            .collect();
        let cite = rules::SIEGE.cite();
        for at in places {
            let square = at.split('/').next().unwrap_or("").to_string();
            let holder = self
                .g
                .brigades
                .iter()
                .find(|b| !b.shattered && b.at().eq_ignore_ascii_case(&at))
                .map(|b| b.power().to_string());
            let besieger = holder.as_ref().and_then(|h| {
                self.g
                    .brigades
                    .iter()
                    .find(|o| {
                        !o.inactive
                            && !o.shattered
                            && !o.kind().is_hq()
                            && o.square() == square
                            && self.hostile(h, o.power())
                    })
                    .map(|o| o.power().to_string())
            });
            let siege = self
                .g
                .sieges
                .iter()
                .position(|s| s.at.get_ref().eq_ignore_ascii_case(&at));
            match (siege, besieger) {
                (Some(k), None) => {
                    let by = self.g.sieges.remove(k).by;
                    let why = if holder.is_none() {
                        "no garrison is left in it"
                    } else {
                        "no besieger is left in the square"
                    };
                    self.event(rules::PBEM_SIEGE, "siege", Some(&square), format!("The siege of the city at {at} (no fort) is lifted: {why} ({cite}; pbem gitm/siege)."), Audience::Seen(by, vec![square.clone()]));
                }
                (None, Some(by)) => {
                    self.g.sieges.push(Siege {
                        at: toml::Spanned::new(0..0, at.clone()),
                        by: by.clone(),
                        since: turn,
                        breaches: 0,
                    });
                    self.event(rules::SIEGE, "siege", Some(&square), format!("{by} lays siege to the city at {at}, which has no fort: its garrison may not march out nor draw supply ({cite}; pbem gitm/siege)."), Audience::Seen(by, vec![square.clone()]));
                }
                _ => {}
            }
        }
    }
}
