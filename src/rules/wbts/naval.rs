//! Naval combat and naval attacks on forts (WBTS naval): a player turn's `engage <hex>` makes all its
//! gunboats there attack all the enemy's naval units on the Naval Combat Results Table (pbem's
//! table); transports have no combat factor and are lost when attacked alone or when their escort is
//! gone. `bombard <hex> with <ship> ...`, during movement, sets gunboats next to (or in) an enemy
//! fort's hex against its garrison, doubled or tripled, on the combat results table: any attacker loss
//! sinks one of the ships, a retreat result sends each through a naval transit attack, and the
//! garrison ignores retreats; the fort itself is never damaged.

use anyhow::Result;

use crate::engine::event::Event;
use crate::rules::wording::verb;

use super::rules;
use super::state::ShipKind;
use super::tables::Transit;
use super::turn::Turn;

impl Turn<'_> {
    fn sink(&mut self, id: &str) {
        self.w.ships.retain(|s| !s.id().eq_ignore_ascii_case(id));
        self.w.eliminated.push(id.to_string());
    }

    /// WBTS naval/combat: the active side's gunboats in `hex` attack every enemy naval unit there.
    pub fn engage(&mut self, hex: &str) -> Result<()> {
        let power = self.active.clone();
        let mine: Vec<(String, u32)> = self
            .w
            .ships_in(hex)
            .filter(|s| s.power() == power && s.is_combat_capable())
            .map(|s| (s.id().to_string(), s.strength))
            .collect();
        let theirs: Vec<(String, ShipKind, u32)> = self
            .w
            .ships_in(hex)
            .filter(|s| !self.friendly(s.power(), &power))
            .map(|s| (s.id().to_string(), s.kind, s.strength))
            .collect();
        if mine.is_empty() || theirs.is_empty() {
            self.event(
                rules::NAVAL_COMBAT,
                "naval-off",
                Some(hex),
                format!(
                    "No naval combat at {hex}: {} has no gunboat there, or the enemy no ship.",
                    self.name(&power)
                ),
            );
            return Ok(());
        }
        let enemy = self
            .w
            .ship(&theirs[0].0)
            .map(|s| s.power().to_string())
            .unwrap_or_default();
        let (power_named, enemy_named) = (self.name(&power), self.name(&enemy));
        let escorts: Vec<&(String, ShipKind, u32)> = theirs
            .iter()
            .filter(|t| t.1 == ShipKind::Gunboat && t.2 > 0)
            .collect();
        if escorts.is_empty() {
            // WBTS naval/transports: alone and attacked, transports are eliminated.
            let ids: Vec<String> = theirs.iter().map(|t| t.0.clone()).collect();
            for id in &ids {
                self.sink(id);
            }
            self.event(
                rules::TRANSPORTS,
                "naval-combat",
                Some(hex),
                format!(
                    "{} {} {enemy_s} transports at {hex}, alone: {} {} eliminated.",
                    list(&mine),
                    verb(mine.len(), "attacks", "attack"),
                    ids.join(", "),
                    verb(ids.len(), "is", "are"),
                    enemy_s = crate::words::Possessive(&enemy_named)
                ),
            );
            return Ok(());
        }
        let a: u32 = mine.iter().map(|m| m.1).sum();
        let d: u32 = escorts.iter().map(|e| e.2).sum();
        let col = self.tables.naval_column(a, d);
        let roll = self.dice.roll(&format!("naval/hex={hex}"), &[6])?;
        let die = roll.dice[0].face;
        let told = roll.told(0);
        let cell = self.tables.naval_cell(col, die);
        let text = format!(
            "Naval combat at {hex}: {} ({a}) against {enemy_s} {} ({d}); odds {}, die {told}: {} hit(s) on {power_named}, {} on {enemy_named}.",
            list(&mine),
            theirs.iter().map(|t| t.0.as_str()).collect::<Vec<_>>().join(", "),
            self.tables.naval_odds_name(col),
            cell.attacker,
            cell.defender,
            enemy_s = crate::words::Possessive(&enemy_named)
        );
        self.log(
            Event::new(rules::NAVAL_COMBAT, "naval-combat", text)
                .at(hex)
                .roll(roll),
        );
        let lost_a = weakest(&mine, cell.attacker);
        let escort_list: Vec<(String, u32)> = escorts.iter().map(|e| (e.0.clone(), e.2)).collect();
        let lost_d = weakest(&escort_list, cell.defender);
        for id in lost_a.iter().chain(&lost_d) {
            self.sink(id);
        }
        if !lost_a.is_empty() || !lost_d.is_empty() {
            let gone: Vec<String> = lost_a.iter().chain(&lost_d).cloned().collect();
            self.event(
                rules::NAVAL_COMBAT,
                "losses",
                Some(hex),
                format!("Sunk at {hex}, the weakest first: {}.", gone.join(", ")),
            );
        }
        // WBTS naval/transports: the escort gone, the transports go with it.
        if lost_d.len() == escort_list.len() {
            let transports: Vec<String> = theirs
                .iter()
                .filter(|t| t.1 == ShipKind::Transport || t.2 == 0)
                .map(|t| t.0.clone())
                .collect();
            if !transports.is_empty() {
                for t in &transports {
                    self.sink(t);
                }
                self.event(
                    rules::TRANSPORTS,
                    "losses",
                    Some(hex),
                    format!(
                        "Their escort sunk, {} {} eliminated.",
                        transports.join(", "),
                        verb(transports.len(), "is", "are")
                    ),
                );
            }
        }
        Ok(())
    }

    /// WBTS naval/fort: gunboats attack the garrison of an enemy fort from its hex or a hex next to it.
    pub fn bombard(&mut self, target: &str, ships: &[String]) -> Result<()> {
        let power = self.active.clone();
        let attackers: Vec<(String, u32)> = ships
            .iter()
            .filter_map(|id| self.w.ship(id))
            .filter(|s| {
                s.kind == ShipKind::Gunboat
                    && s.strength > 0
                    && (s.hex() == target || self.board.adjacent(s.hex(), target))
            })
            .map(|s| (s.id().to_string(), s.strength))
            .collect();
        let Some(fort) = self
            .w
            .fort
            .get(target)
            .filter(|f| !self.friendly(&f.power, &power))
            .cloned()
        else {
            return Ok(());
        };
        let garrison: Vec<String> = self
            .w
            .units_in(target)
            .filter(|u| u.inside && !self.friendly(u.power(), &power))
            .map(|u| u.id().to_string())
            .collect();
        if attackers.is_empty() || garrison.is_empty() {
            self.event(
                rules::NAVAL_FORT,
                "naval-off",
                Some(target),
                format!("No naval attack on {target}: no gunboat within reach, or no garrison inside the {}.", self.fort_word(target)),
            );
            return Ok(());
        }
        let defender = self
            .w
            .unit(&garrison[0])
            .map(|u| u.power().to_string())
            .unwrap_or_default();
        let size: u32 = garrison
            .iter()
            .filter_map(|g| self.w.unit(g))
            .map(|u| u.strength)
            .sum();
        let cap = size.min(fort.effective().capacity());
        let defence = cap * fort.effective().multiple() + (size - cap);
        let attack: u32 = attackers.iter().map(|a| a.1).sum();
        let col = self.tables.odds_column(attack, defence);
        self.bombards += 1;
        let n = self.bombards;
        let roll = self
            .dice
            .roll(&format!("bombard/n={n}/hex={target}"), &[6])?;
        let die = roll.dice[0].face;
        let told = roll.told(0);
        let cell = self.tables.cell(col, die);
        let intensity = self.tables.naval_attack_intensity;
        let percent = self.tables.percent(cell.defender, intensity);
        let lost = self.tables.attrition(size, percent);
        // WBTS naval/fort, ground/results: from wording 2 the garrison's strength and the result's
        // cell in words ("6 SP, doubled in the fort: 12"; "the ships' loss level 1, the garrison's
        // 1"), where wording 1 gave "(6, 2x: 12)" and the cell alone.
        let (garrison_words, cell_words) = if self.wording >= 2 {
            (
                format!(
                    "{size} SP, {}{} in the {}: {defence}",
                    if size > cap {
                        format!("{cap} of them ")
                    } else {
                        String::new()
                    },
                    if fort.effective().multiple() == 3 {
                        "tripled"
                    } else {
                        "doubled"
                    },
                    self.fort_word(target),
                ),
                format!(
                    " the ships' loss level {}{}, the garrison's {}, a level {}% at intensity {intensity} (on the combat results table, WBTS ground/results);",
                    cell.attacker,
                    if cell.attacker_retreats {
                        " and a retreat ('r')"
                    } else {
                        ""
                    },
                    cell.defender,
                    self.tables.percent(1, intensity),
                ),
            )
        } else {
            (
                format!("{size}, {}x: {defence}", fort.effective().multiple()),
                String::new(),
            )
        };
        let text = format!(
            "{} ({attack}) {} the garrison of the {} in {target} ({garrison_words}); odds {}, die {told}: result {cell};{cell_words} the garrison loses {percent}% ({lost} SP) and ignores any retreat; the {} is not damaged.",
            list(&attackers),
            verb(attackers.len(), "attacks", "attack"),
            fort.effective().name(),
            self.tables.odds_name(col),
            self.fort_word(target)
        );
        self.log(
            Event::new(rules::NAVAL_FORT, "bombard", text)
                .at(target)
                .roll(roll),
        );
        // WBTS ground/losses: the garrison spreads its losses evenly by its `standing losses`, as in
        // every combat.
        if lost > 0 {
            self.take_losses(&defender, &garrison, lost, target, &[])?;
        }
        // Any attacker loss: one attacking ship is lost entire (the strongest, pbem's reading).
        if cell.attacker > 0 {
            if let Some((id, _)) = attackers
                .iter()
                .max_by_key(|a| (a.1, std::cmp::Reverse(a.0.clone())))
            {
                let id = id.clone();
                self.sink(&id);
                self.event(
                    rules::NAVAL_FORT,
                    "losses",
                    Some(target),
                    format!("The attacker's loss sinks {id}, entire."),
                );
            }
        }
        // A retreat result: each attacking ship still afloat runs the fort's guns before retreating.
        if cell.attacker_retreats {
            for (k, (id, _)) in attackers.iter().enumerate() {
                if self.w.ship(id).is_none() {
                    continue;
                }
                let roll = self.dice.roll(
                    &format!("bombard/n={n}/hex={target}/retreat={}", k + 1),
                    &[6],
                )?;
                let die = roll.dice[0].face;
                let told = roll.told(0);
                let fortress = fort.effective() == super::state::FortKind::Fortress;
                let sunk = self.tables.transit(fortress, die) == Transit::Sunk;
                let to = if sunk {
                    None
                } else {
                    self.ship_retreat(id, target, &power)
                };
                let text = format!(
                    "{id} must retreat: naval transit attack, die {told}: {}.",
                    match (sunk, &to) {
                        (true, _) => "it is destroyed".to_string(),
                        (false, Some(h)) => format!("it withdraws to {h}"),
                        (false, None) => "it survives, with no hex to withdraw to, and stays where it is (pbem's reading)".to_string(),
                    }
                );
                self.log(
                    Event::new(rules::TRANSIT, "transit", text)
                        .at(target)
                        .roll(roll),
                );
                if sunk {
                    self.sink(id);
                } else if let Some(h) = to {
                    if let Some(s) = self.w.ship_mut(id) {
                        s.hex = toml::Spanned::new(0..0, h);
                    }
                }
            }
        }
        Ok(())
    }
}

impl Turn<'_> {
    /// WBTS naval/fort: where a ship that survived the naval transit attack of a retreat result
    /// goes (pbem's reading: the seed says it retreats, not where): one hex from where it stands
    /// into a water or city hex, never the fort's, preferring one not next to the fort, then one
    /// without enemy combat ships, then the first in the map's order; none, when no hex will do.
    fn ship_retreat(&self, ship: &str, fort_hex: &str, power: &str) -> Option<String> {
        let at = self.w.ship(ship)?.hex().to_string();
        let mut hexes: Vec<String> = self
            .board
            .neighbours(&at)
            .into_iter()
            .filter(|h| h != fort_hex && matches!(self.board.terrain(h), "water" | "city"))
            .collect();
        hexes.sort();
        hexes.into_iter().min_by_key(|h| {
            let near_fort = self.board.adjacent(h, fort_hex);
            let warships = self
                .w
                .ships_in(h)
                .any(|x| !self.friendly(x.power(), power) && x.is_combat_capable());
            (near_fort, warships)
        })
    }
}

/// The `n` weakest ships of a list (the state's order among equals).
fn weakest(ships: &[(String, u32)], n: u32) -> Vec<String> {
    let mut v: Vec<&(String, u32)> = ships.iter().collect();
    v.sort_by_key(|s| s.1);
    v.into_iter()
        .take(n as usize)
        .map(|s| s.0.clone())
        .collect()
}

fn list(ships: &[(String, u32)]) -> String {
    ships
        .iter()
        .map(|s| s.0.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
