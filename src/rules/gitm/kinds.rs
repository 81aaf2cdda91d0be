//! The ten brigade types and the two headquarters of GITM (3.1), one type for the strategic part and
//! the tactical engine: the letters that end a unit ID, the branch each counts as, and what the
//! strategic rules ask of a type. What only the tactical map asks (8.1's tactical allowance, 8.10's
//! support reach, 8.6's fast units) is in `tactical/unit.rs`.

use std::fmt;

/// The ten brigade types and two headquarters (GITM 3.1), by the two letters ending a unit id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// IN
    Infantry,
    /// LI
    LightInfantry,
    /// HC
    HeavyCavalry,
    /// MC
    MediumCavalry,
    /// LC
    LightCavalry,
    /// HA
    HeavyArtillery,
    /// MA
    MediumArtillery,
    /// LA
    LightArtillery,
    /// SA
    SiegeArtillery,
    /// MI
    Militia,
    /// AQ: army headquarters
    ArmyHq,
    /// CQ: corps headquarters
    CorpsHq,
}

/// The branch of a brigade: the letter a sighting shows it by (4.1), what it counts as in the front
/// line (9.4) and in squares (9.5). Militia is infantry (4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Branch {
    Infantry,
    Cavalry,
    Artillery,
    Headquarters,
}

impl Branch {
    /// The letter of a sighting (GITM 4.1: I, C, A, H).
    pub fn letter(self) -> char {
        match self {
            Branch::Infantry => 'I',
            Branch::Cavalry => 'C',
            Branch::Artillery => 'A',
            Branch::Headquarters => 'H',
        }
    }
}

impl Kind {
    pub const ALL: [Kind; 12] = [
        Kind::Infantry,
        Kind::LightInfantry,
        Kind::HeavyCavalry,
        Kind::MediumCavalry,
        Kind::LightCavalry,
        Kind::HeavyArtillery,
        Kind::MediumArtillery,
        Kind::LightArtillery,
        Kind::SiegeArtillery,
        Kind::Militia,
        Kind::ArmyHq,
        Kind::CorpsHq,
    ];

    /// The two letters of the unit id (GITM 3.1: FR3LI; 3.4: FR1CQ). pbem names the army HQ `AQ`.
    pub fn code(self) -> &'static str {
        match self {
            Kind::Infantry => "IN",
            Kind::LightInfantry => "LI",
            Kind::HeavyCavalry => "HC",
            Kind::MediumCavalry => "MC",
            Kind::LightCavalry => "LC",
            Kind::HeavyArtillery => "HA",
            Kind::MediumArtillery => "MA",
            Kind::LightArtillery => "LA",
            Kind::SiegeArtillery => "SA",
            Kind::Militia => "MI",
            Kind::ArmyHq => "AQ",
            Kind::CorpsHq => "CQ",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Infantry => "infantry",
            Kind::LightInfantry => "light infantry",
            Kind::HeavyCavalry => "heavy cavalry",
            Kind::MediumCavalry => "medium cavalry",
            Kind::LightCavalry => "light cavalry",
            Kind::HeavyArtillery => "heavy artillery",
            Kind::MediumArtillery => "medium artillery",
            Kind::LightArtillery => "light artillery",
            Kind::SiegeArtillery => "siege artillery",
            Kind::Militia => "militia",
            Kind::ArmyHq => "army headquarters",
            Kind::CorpsHq => "corps headquarters",
        }
    }

    /// The type a unit id ends with (GITM 3.1: `FR3LI`), in either case.
    pub fn of_id(id: &str) -> Option<Kind> {
        let tail = id.get(id.len().checked_sub(2)?..)?;
        Kind::ALL
            .into_iter()
            .find(|k| k.code().eq_ignore_ascii_case(tail))
    }

    /// GITM 3.1, 4.1, 9.4: infantry (with light infantry and militia), cavalry, artillery or
    /// headquarters.
    pub fn branch(self) -> Branch {
        match self {
            Kind::Infantry | Kind::LightInfantry | Kind::Militia => Branch::Infantry,
            Kind::HeavyCavalry | Kind::MediumCavalry | Kind::LightCavalry => Branch::Cavalry,
            Kind::HeavyArtillery
            | Kind::MediumArtillery
            | Kind::LightArtillery
            | Kind::SiegeArtillery => Branch::Artillery,
            Kind::ArmyHq | Kind::CorpsHq => Branch::Headquarters,
        }
    }

    pub fn is_hq(self) -> bool {
        self.branch() == Branch::Headquarters
    }

    pub fn is_cavalry(self) -> bool {
        self.branch() == Branch::Cavalry
    }

    pub fn is_artillery(self) -> bool {
        self.branch() == Branch::Artillery
    }

    /// The normal strategic allowance in strategic squares a turn (GITM 7.1).
    pub fn strategic_allowance(self) -> u32 {
        match self {
            Kind::LightArtillery
            | Kind::HeavyCavalry
            | Kind::MediumCavalry
            | Kind::LightCavalry
            | Kind::ArmyHq => 4,
            Kind::SiegeArtillery | Kind::Militia => 2,
            _ => 3,
        }
    }

    /// The fatigue of a forced march's extra square (GITM 7.3: 4 for cavalry and light artillery).
    pub fn forced_march_fatigue(self) -> u32 {
        if self.is_cavalry() || self == Kind::LightArtillery {
            4
        } else {
            3
        }
    }

    /// Fatigue regained at the end of a turn (GITM 3.2).
    pub fn recovery(self) -> u32 {
        if self.is_cavalry() || self == Kind::LightArtillery || self.is_hq() {
            4
        } else {
            3
        }
    }

    /// The most men of a merged unit (GITM 3.5); none for HQs.
    pub fn max_strength(self) -> Option<u32> {
        match self {
            Kind::ArmyHq | Kind::CorpsHq => None,
            Kind::Militia => Some(3000),
            k if k.is_cavalry() => Some(2000),
            k if k.is_artillery() => Some(400),
            _ => Some(4000),
        }
    }

    /// The most batteries a unit of the type may have (GITM 3.5): 4 for artillery, 1 for the rest.
    pub fn max_batteries(self) -> u32 {
        if self.is_artillery() {
            4
        } else {
            1
        }
    }

    /// The word of the engine's reports for the piece.
    pub fn view(self) -> &'static str {
        match self.branch() {
            Branch::Headquarters => "leader",
            Branch::Cavalry => "cavalry",
            Branch::Artillery => "artillery",
            Branch::Infantry => "infantry",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
