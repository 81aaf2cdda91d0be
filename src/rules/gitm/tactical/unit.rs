//! The plain input of the tactical engine: a brigade as the battle sees it (GITM 3.1-3.3), its
//! tactical order (6.4-6.6, 8.2-8.11) and the relations of the sides (8.3). Nothing here knows the
//! strategic state: `turn.rs` maps its brigades and parsed orders to these types and back.

use std::collections::BTreeSet;

use super::map::Pos;

pub use super::super::kinds::{Branch, Kind};

/// What only the tactical map asks of a brigade type (the rest is `kinds.rs`).
impl Kind {
    /// GITM 8.1, 8.6: light and medium cavalry and light artillery are the fast units.
    pub fn is_fast(self) -> bool {
        matches!(
            self,
            Kind::LightCavalry | Kind::MediumCavalry | Kind::LightArtillery
        )
    }

    /// GITM 8.1: tactical squares a phase: six for fast units and army headquarters, four for the
    /// rest (the strategic allowance of 7.1 is `Kind::strategic_allowance`).
    pub fn tactical_allowance(self) -> u32 {
        if self.is_fast() || self == Kind::ArmyHq {
            6
        } else {
            4
        }
    }

    /// GITM 8.10: a support move is at most two squares, three for LC, MC and LA.
    pub fn support_reach(self) -> u32 {
        if self.is_fast() {
            3
        } else {
            2
        }
    }
}

/// The line a brigade asks for in battle (GITM 6.4, 8.9, 9.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Line {
    /// The default (6.9: units seek the front line).
    #[default]
    Front,
    Second,
    Rear,
}

impl Line {
    pub fn name(self) -> &'static str {
        match self {
            Line::Front => "front line",
            Line::Second => "second line",
            Line::Rear => "rear",
        }
    }
}

/// The attitude of a brigade in attack or defence (GITM 6.6, 8.9): assault (last-ditch defence when
/// defending), normal, skirmish, evade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Posture {
    Assault,
    Normal,
    /// The default (6.9: skirmish formations on attack and defence).
    #[default]
    Skirmish,
    Evade,
}

impl Posture {
    pub fn name(self, attacking: bool) -> &'static str {
        match (self, attacking) {
            (Posture::Assault, true) => "assault",
            (Posture::Assault, false) => "last-ditch defence",
            (Posture::Normal, _) => "normal",
            (Posture::Skirmish, _) => "skirmish",
            (Posture::Evade, _) => "evade",
        }
    }
}

/// The formation a brigade stands in (GITM 9.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Formation {
    #[default]
    Line,
    /// Infantry attacked by a force mostly of cavalry (9.5).
    Square,
}

/// A box of the tactical map: a centre and a radius (GITM 6.5, 8.10, 8.11), with the phases it acts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reaction {
    pub centre: Pos,
    pub radius: u8,
    /// First and last tactical phase it acts in, 1 to 5.
    pub phases: (u8, u8),
}

impl Reaction {
    /// GITM 8.10: the box of centre 10-5 and radius 2 holds columns 8 to 12 and rows 3 to 7.
    pub fn contains(&self, p: Pos) -> bool {
        self.centre.distance(p) <= u32::from(self.radius)
    }

    pub fn acts_in(&self, phase: u8) -> bool {
        (self.phases.0..=self.phases.1).contains(&phase)
    }
}

/// The tactical part of a brigade's orders (GITM 6.4-6.6). `Default` is 6.9's default order but its
/// support box, which needs the start position: [`TacOrder::default_at`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TacOrder {
    /// GITM 8.2: where to go.
    pub destination: Option<Pos>,
    /// GITM 8.2: a square to go through first (8.7: the ford or pass to cross by).
    pub waypoint: Option<Pos>,
    /// GITM 8.2: the phase the move starts in (1 when none).
    pub start_phase: Option<u8>,
    /// GITM 8.8: engage the nearest enemy combat unit in these phases.
    pub engage: Option<(u8, u8)>,
    /// GITM 8.9, 9.3: the line it asks for.
    pub line: Line,
    /// GITM 6.6: posture in attack and in defence.
    pub attack: Posture,
    pub defence: Posture,
    /// GITM 8.10: the support box.
    pub support: Option<Reaction>,
    /// GITM 8.11: the intercept box.
    pub intercept: Option<Reaction>,
    /// GITM 8.2: "do not enter fort": it stays outside a fort in its square (pbem GITM-T7).
    pub no_fort: bool,
}

impl TacOrder {
    /// GITM 6.9: the default order of a brigade without one: no move, skirmish in attack and
    /// defence, the front line, support within 2 squares of its start-of-turn square in every phase.
    pub fn default_at(start: Pos) -> TacOrder {
        TacOrder {
            support: Some(Reaction {
                centre: start,
                radius: 2,
                phases: (1, 5),
            }),
            ..TacOrder::default()
        }
    }
}

/// A brigade on the tactical map (GITM 3.1-3.3) with its order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TacBrigade {
    /// The unit ID, `FR3LI` (3.1).
    pub id: String,
    /// The state or side it fights for (8.3).
    pub side: String,
    pub kind: Kind,
    /// Men (3.1).
    pub men: u32,
    /// Attached batteries (3.1; 9.4 counts 100 of the men of a battery as artillerists).
    pub batteries: u32,
    /// Quality, 1 (poor) to 5 (elite): the seed's words (3.2, "Very Good") on pbem's scale.
    pub quality: u8,
    /// Experience (3.2, 3.6).
    pub experience: u32,
    /// Morale, 0 to 100, 50 at the start (3.7).
    pub morale: u32,
    /// Fatigue (3.2, 8.1).
    pub fatigue: u32,
    pub pos: Pos,
    pub formation: Formation,
    /// Shattered (section 12 of the seed, not in it): takes no part in movement or combat.
    pub shattered: bool,
    /// Units of supply carried (GITM 6.7); a corps HQ's are destroyed when it falls back or
    /// shatters (9.2).
    pub supplies: u32,
    pub order: TacOrder,
}

impl TacBrigade {
    /// A brigade of average quality (3), 50 morale, fresh, with the default order at its square.
    pub fn new(id: &str, side: &str, kind: Kind, men: u32, pos: Pos) -> TacBrigade {
        TacBrigade {
            id: id.to_string(),
            side: side.to_string(),
            kind,
            men,
            batteries: 0,
            quality: 3,
            experience: 0,
            morale: 50,
            fatigue: 0,
            pos,
            formation: Formation::Line,
            shattered: false,
            supplies: 0,
            order: TacOrder::default_at(pos),
        }
    }

    /// Can fight: neither a headquarters (9.2) nor shattered, and has men.
    pub fn is_combat(&self) -> bool {
        !self.kind.is_hq() && !self.shattered && self.men > 0
    }
}

/// How two sides stand (GITM 1.4, 8.3): the same side or actively allied, hostile, or neutral.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    Friendly,
    Hostile,
    Neutral,
}

/// The relations of the sides on one tactical map: pairs not listed are neutral.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Relations {
    hostile: BTreeSet<(String, String)>,
    allied: BTreeSet<(String, String)>,
    /// The state controlling this strategic square (`[control]`): 8.11's own state, where its
    /// brigades intercept neutrals; with its active allies, 8.5's home nation ([`Relations::neutral_at_home`]).
    pub at_home: BTreeSet<String>,
}

fn pair(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

impl Relations {
    pub fn hostile(mut self, a: &str, b: &str) -> Self {
        self.hostile.insert(pair(a, b));
        self
    }

    pub fn allied(mut self, a: &str, b: &str) -> Self {
        self.allied.insert(pair(a, b));
        self
    }

    pub fn home(mut self, side: &str) -> Self {
        self.at_home.insert(side.to_string());
        self
    }

    /// GITM 8.5: whether a neutral of `side` counts on this map: in its home nation (its own state
    /// controls the square) or in a nation with which it is actively allied.
    pub fn neutral_at_home(&self, side: &str) -> bool {
        self.at_home
            .iter()
            .any(|h| self.between(h, side) == Relation::Friendly)
    }

    pub fn between(&self, a: &str, b: &str) -> Relation {
        if a == b || self.allied.contains(&pair(a, b)) {
            Relation::Friendly
        } else if self.hostile.contains(&pair(a, b)) {
            Relation::Hostile
        } else {
            Relation::Neutral
        }
    }
}
