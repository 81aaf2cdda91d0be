//! Losses spread evenly (WBTS ground/losses): no unit takes a second loss before every unit able to
//! take one took one; a larger unit before a smaller one (or as the owner's policy orders among
//! equals); supply trains only once every combat unit is gone; naval units supporting a defence take
//! at least one of the hits and are eliminated.

/// A unit that may take losses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Casualty {
    pub id: String,
    /// Infantry, cavalry, artillery or train (the order policy reads it).
    pub kind: &'static str,
    pub strength: u32,
}

/// Which units of a round of the even spread take their point first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossPolicy {
    /// The seed's common sense: the larger unit first.
    LargerFirst,
    /// Cavalry after every other kind in each round, larger first among the rest.
    CavalryLast,
    /// Artillery after every other kind in each round.
    ArtilleryLast,
}

impl LossPolicy {
    pub const SETTINGS: [&'static str; 3] = ["larger-first", "cavalry-last", "artillery-last"];

    pub fn parse(s: &str) -> Option<LossPolicy> {
        match s {
            "larger-first" => Some(LossPolicy::LargerFirst),
            "cavalry-last" => Some(LossPolicy::CavalryLast),
            "artillery-last" => Some(LossPolicy::ArtilleryLast),
            _ => None,
        }
    }

    fn key(self, c: &Casualty) -> (bool, std::cmp::Reverse<u32>) {
        let last = match self {
            LossPolicy::LargerFirst => false,
            LossPolicy::CavalryLast => c.kind == "cavalry",
            LossPolicy::ArtilleryLast => c.kind == "artillery",
        };
        (last, std::cmp::Reverse(c.strength))
    }
}

/// Spreads `points` of loss over `units`: round after round, one point to each unit that still has
/// strength, in the policy's order; trains only when no combat unit has strength left. Returns the
/// points each unit loses, in the units' order (the total is at most their strength).
pub fn spread(units: &[Casualty], points: u32, policy: LossPolicy) -> Vec<(String, u32)> {
    let mut left: Vec<u32> = units.iter().map(|u| u.strength).collect();
    let mut lost = vec![0u32; units.len()];
    let mut order: Vec<usize> = (0..units.len()).collect();
    // Combat units before trains; within each, the policy's order, then the state's (stable sort).
    order.sort_by_key(|&i| (units[i].kind == "train", policy.key(&units[i])));
    let mut owed = points;
    while owed > 0 {
        let combat_left = order
            .iter()
            .any(|&i| units[i].kind != "train" && left[i] > 0);
        let mut took = false;
        for &i in &order {
            if owed == 0 {
                break;
            }
            if left[i] == 0 || (combat_left && units[i].kind == "train") {
                continue;
            }
            left[i] -= 1;
            lost[i] += 1;
            owed -= 1;
            took = true;
        }
        if !took {
            break;
        }
    }
    units
        .iter()
        .zip(lost)
        .map(|(u, n)| (u.id.clone(), n))
        .collect()
}
