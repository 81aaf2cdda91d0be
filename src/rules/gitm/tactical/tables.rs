//! pbem's, not the seed's: the tables of fire, melee, casualties, morale checks and shattering. The
//! seed (GITM 1-9.5) names these (9.1: a firing and a melee segment; 3.6, 3.7: experience and
//! morale from battles; 8.8, 9.2: morale checks and shattering) and stops before giving them, so pbem
//! fixes its own here, small and plain, each cited as `pbem GITM-T<n>` in the events it writes.
//!
//! A combat phase (pbem GITM-T1 to T6): each side's front line fires (T1, T2), losses spread over the
//! target's front line in proportion to its men; the rear refills the front (9.4); the front lines
//! melee (T3, T4); the side that lost the larger share of its front line in the melee lost the
//! combat; morale moves (T5) and every brigade of the losing side takes a morale check (T6), falling
//! back one square when it fails and shattering when it fails badly or cannot fall back.

use super::unit::{Branch, Kind, Posture};

/// pbem GITM-T1: men hit by fire, per 1,000 men of the front line firing, by the firer's type;
/// artillerists (9.4: artillery brigades and 100 men a battery) fire at the artillery rate of their
/// brigade type, a battery of infantry or cavalry at the medium-artillery rate.
pub const fn fire_per_1000(kind: Kind) -> u32 {
    match kind {
        Kind::Infantry | Kind::Militia => 20,
        Kind::LightInfantry => 25,
        Kind::HeavyCavalry => 0,
        Kind::MediumCavalry | Kind::LightCavalry => 5,
        Kind::HeavyArtillery => 150,
        Kind::MediumArtillery => 120,
        Kind::LightArtillery => 100,
        Kind::SiegeArtillery => 80,
        Kind::ArmyHq | Kind::CorpsHq => 0,
    }
}

/// pbem GITM-T1: the rate of a battery's 100 artillerists in an infantry or cavalry brigade.
pub const BATTERY_FIRE_PER_1000: u32 = 120;

/// pbem GITM-T2: percent of the fire that hits, by a d6.
pub const FIRE_DIE_PERCENT: [u32; 6] = [50, 75, 100, 100, 125, 150];

/// pbem GITM-T2: percent of fire of infantry in square (9.5: they fire less effectively).
pub const SQUARE_FIRE_PERCENT: u32 = 50;

/// pbem GITM-T3: melee strength per man by type, in tenths.
pub const fn melee_tenths(kind: Kind) -> u32 {
    match kind {
        Kind::Infantry | Kind::LightInfantry => 10,
        Kind::Militia => 6,
        Kind::HeavyCavalry => 20,
        Kind::MediumCavalry => 16,
        Kind::LightCavalry => 12,
        Kind::HeavyArtillery
        | Kind::MediumArtillery
        | Kind::LightArtillery
        | Kind::SiegeArtillery => 3,
        Kind::ArmyHq | Kind::CorpsHq => 0,
    }
}

/// pbem GITM-T3: percent of melee strength of infantry in square against cavalry (9.5: they fight
/// in melee more effectively).
pub const SQUARE_MELEE_PERCENT: u32 = 200;

/// pbem GITM-T3: the defender's melee strength gains this percent per point of the square's
/// defensive rating (2.4), and the fire it takes loses `RATING_COVER_PERCENT` per point.
pub const RATING_MELEE_PERCENT: u32 = 25;
pub const RATING_COVER_PERCENT: u32 = 10;

/// pbem GITM-T7 (GITM 2.6, 8.2): a brigade in a fort defends with the fort's strength (1 to 5) as
/// its defensive rating when it is above the square's (2.4: 0 to 4), with T2's cover and T3's melee
/// bonus per point: a fort of 5 covers 50% of the fire and adds 125% in melee. The seed rates forts
/// and gives no effect: this is pbem's.
pub fn fort_rating(square: u8, fort: u8) -> u8 {
    square.max(fort.min(5))
}

/// pbem GITM-T7 (GITM 2.6): the room a brigade takes in a fort, in 2.6's transport measure: 1 a man
/// of infantry or headquarters, 3 of cavalry, 2 of artillery; 100 men of each attached battery count
/// as artillerists.
pub fn fort_space(kind: Kind, men: u32, batteries: u32) -> u64 {
    let per = match kind.branch() {
        Branch::Cavalry => 3,
        Branch::Artillery => 2,
        Branch::Infantry | Branch::Headquarters => 1,
    };
    if per == 2 {
        return u64::from(men) * 2;
    }
    let art = u64::from(men).min(u64::from(batteries) * 100);
    (u64::from(men) - art) * per + art * 2
}

/// pbem GITM-T3: percent of fire and melee strength by quality 1 (poor) to 5 (elite) (3.2).
pub const QUALITY_PERCENT: [u32; 5] = [80, 90, 100, 110, 120];

/// pbem GITM-T3: a brigade's posture (6.6, 8.9): percent of the strength it deals and of the losses
/// it takes. Assault and last-ditch defence: more of both; skirmish: less of both; evade: a screen.
pub const fn posture_percent(p: Posture) -> (u32, u32) {
    match p {
        Posture::Assault => (125, 125),
        Posture::Normal => (100, 100),
        Posture::Skirmish => (75, 75),
        Posture::Evade => (25, 40),
    }
}

/// pbem GITM-T4: the melee odds columns, by the attacker's strength as a percent of the
/// defender's: below 50, 50 to 99, 100 to 149, 150 to 199, 200 and more.
pub const ODDS_BOUNDS: [u32; 4] = [50, 100, 150, 200];
pub const ODDS_NAMES: [&str; 5] = [
    "under 1:2",
    "1:2 to 1:1",
    "1:1 to 3:2",
    "3:2 to 2:1",
    "2:1 or more",
];

/// pbem GITM-T4: melee losses, percent of the front line's men (attacker, defender), by odds column
/// and a d6.
pub const MELEE_LOSSES: [[(u32, u32); 6]; 5] = [
    [(12, 2), (10, 3), (10, 4), (8, 4), (8, 5), (6, 6)],
    [(10, 4), (8, 5), (8, 6), (6, 6), (6, 7), (5, 8)],
    [(8, 6), (7, 7), (6, 7), (6, 8), (5, 9), (4, 10)],
    [(6, 8), (5, 9), (5, 10), (4, 10), (4, 11), (3, 12)],
    [(4, 10), (4, 11), (3, 12), (3, 13), (2, 14), (2, 15)],
];

/// pbem GITM-T4 (3.6): experience gained by each brigade of a combat phase, by odds column; the
/// most at even odds.
pub const EXPERIENCE_BY_COLUMN: [u32; 5] = [1, 4, 5, 4, 1];

/// pbem GITM-T5 (3.7): morale gained by the winners and lost by the losers of a combat phase.
pub const MORALE_WIN: u32 = 3;
pub const MORALE_LOSS: u32 = 5;

/// pbem GITM-T5 (3.2): fatigue of each brigade that fought in a combat phase.
pub const COMBAT_FATIGUE: u32 = 2;

/// pbem GITM-T6: a morale check passes on a d100 at or under morale + 10 per quality point above
/// average (3) - the percent of its men lost this phase - fatigue.
pub const QUALITY_MORALE: i64 = 10;
/// pbem GITM-T6: a failed check by more than this shatters the brigade; by less, it falls back.
pub const SHATTER_MARGIN: i64 = 40;
/// pbem GITM-T6 (9.2): the chance in percent that a headquarters shatters when an enemy enters its
/// square.
pub const HQ_SHATTER_PERCENT: u32 = 10;

/// pbem GITM-T4: the odds column of strengths `att` against `def`.
pub fn odds_column(att: u64, def: u64) -> usize {
    let pct = att.saturating_mul(100).checked_div(def).unwrap_or(u64::MAX);
    ODDS_BOUNDS
        .iter()
        .take_while(|&&b| pct >= u64::from(b))
        .count()
}
