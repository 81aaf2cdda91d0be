//! `turns/<t>/record.toml`: the turn record, written last when a turn is resolved. It keeps the dice
//! commitment and its reveal, the digests of every orders file and every output, and the SHA-256 of the
//! previous turn's record, so that the game's history is a chain that `audit` can check.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The record of one resolved turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnRecord {
    /// `pbem-record/v1`.
    pub format: String,
    pub game: String,
    pub turn: u32,
    pub ruleset: String,
    /// `C_t`, as published before orders were due.
    pub commitment: String,
    /// `R_t`, revealed.
    pub secret: String,
    /// `S_t`.
    pub seed: String,
    /// `C_{t+1}`, the commitment of the next turn.
    pub next_commitment: String,
    /// The digest of the rules fixed with `C_{t+1}` (`game::rules_fixed`), as this turn's reports
    /// announced it: kept here for `audit`, since a rekey or rollback of the next turn fixes them
    /// anew. Empty when none were fixed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub next_rules: String,
    /// The words the turn was told in ([`Wording`], `Ruleset::wording`): its events' texts' and its
    /// reports' own lines'; not written for a turn told in the first words of both; `audit`
    /// re-resolves the turn in the words its record names.
    #[serde(default, skip_serializing_if = "Wording::is_first")]
    pub wording: Wording,
    /// SHA-256 of the previous turn's record file, empty for the first turn.
    pub previous_record: String,
    /// Every `(power, E_p)` that went into `S_t`, sorted by power.
    #[serde(default)]
    pub entropy: BTreeMap<String, String>,
    /// SHA-256 of each power's orders file that was read, by power.
    #[serde(default)]
    pub orders: BTreeMap<String, String>,
    /// SHA-256 of each file the turn wrote, by path inside the game folder (of a message in the
    /// outbox: of what it says, without its envelope, `mail::envelope::content`).
    #[serde(default)]
    pub outputs: BTreeMap<String, String>,
    /// SHA-256 of the referee's acts on the turn (`acts.toml`: drop, replace, extend, rollback),
    /// empty when there were none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub acts: String,
    /// The turn's sealed rolls, `N SHA` as its header gives them (`engine::sealed`); empty when it
    /// had none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sealed: String,
    /// What the turn's reports printed that game.toml may change later without changing the game: the
    /// title, the time zone, the next turn's deadline (local `YYYY-MM-DDTHH:MM`), the mail's size cap
    /// and map picture, `late_orders`, the powers' names and colours. `audit` re-resolves with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<Shown>,
    /// Every change of game.toml dated by a time stamp (`at`, GITM 6.11) that game.toml held when
    /// this turn was resolved, with the turn it held from then, by `config::change_key`. `audit`
    /// re-resolves the turn with exactly these (a change game.toml gained later was not known to
    /// it). The first record that names a change at a turn up to the one after its own (one its
    /// files show, its reports carrying the next turn's commands) binds it there
    /// ([`bound_changes`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dated_changes: BTreeMap<String, u32>,
    /// The password hash (argon2id, never a password) each orders file with a `password` line was
    /// checked against, by the file's stem (`france`, `france.ney`): a file the referee placed by
    /// hand. `audit` checks it against this one, so that a password changed in game.toml since
    /// leaves the turn as it was. (A file pbem filed from mail names its message instead.)
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub password_hashes: BTreeMap<String, String>,
}

/// The presentation a turn was resolved with (see `TurnRecord::shown`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shown {
    pub title: String,
    pub time_zone: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub next_deadline: String,
    /// `[mail] max_outgoing_bytes` as the report mails were cut to it (issue 34.7), when not the
    /// default: `audit` replays it whatever game.toml says now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_outgoing_bytes: Option<u64>,
    /// `[mail] map_png` as the report mails were made with it (issue 34), when not the default
    /// (`false`): a mail with the PNG and one without are different bytes, which `audit` compares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_png: Option<bool>,
    /// `[deadline] late_orders` as the referee's summary printed it, when not the default
    /// (`reject`): `audit` replays it, whatever game.toml says now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late_orders: Option<String>,
    /// Each power's `name` as the reports printed it, by power id: a rename in game.toml holds
    /// from the next turn resolved, and `audit` replays the turn with these.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub names: BTreeMap<String, String>,
    /// Each power's `colour` as the maps drew it, by power id (a power without one is not named).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub colours: BTreeMap<String, String>,
}

pub const FORMAT: &str = "pbem-record/v1";

/// The wording of the reports' own lines, every ruleset's alike (the lines a report makes of the
/// view, not the events' texts, which are the ruleset's): 1, the owner of each unit a power sees
/// named as the game names the power ("GE-1  Namur  Central Powers: GE army"); a turn resolved
/// before, in wording 0, named it by its id ("central: GE army"), and `audit` tells it again so.
/// 2: a map's battle names its victor ("Reims: won by Central Powers") from a result that names
/// the powers as the game does ("Central Powers win at Reims"), where wording 1 found the victor
/// only among the powers' ids and gave such a result's first words; and the commitment's
/// announcement names every part the rules digest fixes, the powers and players who may give
/// entropy and the opening position among them (`rules_fixed`), where wording 1 named the settings,
/// the map and the tables alone.
pub const REPORTS_WORDING: u32 = 2;

/// What changed in the reports' own lines from the wording `from` to this pbem's, for `audit`'s
/// line on a turn told in it.
pub fn reports_wording_change(from: u32) -> &'static str {
    if from < 1 {
        "they named the owner of each unit seen by its id, and their maps found a battle's victor only among the powers' ids, where this one names the owner as the game does and finds the victor by the name too, and the announcement of the next commitment named fewer parts of the rules it fixes"
    } else {
        "their maps found a battle's victor only among the powers' ids, where this one finds it by the name the texts give too, and the announcement of the next commitment named fewer parts of the rules it fixes"
    }
}

/// The words a turn is told in (`TurnRecord::wording`): its events' texts', which are its
/// ruleset's (`Ruleset::texts_wording`), and its reports' own lines', every ruleset's
/// ([`REPORTS_WORDING`]). Raised when a pbem changes words that the turn log and the reports hold
/// (an audit compares them byte for byte). A record writes it as the texts' number alone while its
/// reports are in wording 0 (`wording = 1`, as records did before the reports had a wording of
/// their own, none for 0), else as a table of both (`[wording]`, `texts`, `reports`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Wording {
    pub texts: u32,
    pub reports: u32,
}

impl Wording {
    /// The first words of both, 0 and 0: a record leaves the key out.
    pub fn is_first(&self) -> bool {
        *self == Wording::default()
    }
}

/// A record's `wording`: a number (the texts', the reports' 0) or a table of both.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum WordingRepr {
    Texts(u32),
    Both { texts: u32, reports: u32 },
}

impl Serialize for Wording {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.reports {
            0 => WordingRepr::Texts(self.texts),
            reports => WordingRepr::Both {
                texts: self.texts,
                reports,
            },
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Wording {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match WordingRepr::deserialize(d)? {
            WordingRepr::Texts(texts) => Wording { texts, reports: 0 },
            WordingRepr::Both { texts, reports } => Wording { texts, reports },
        })
    }
}

/// The deadline each resolved turn announced for the next, by the next turn: the records'
/// `shown.next_deadline` (a record that does not read is left to `audit`).
pub fn announced_deadlines(game_dir: &std::path::Path) -> BTreeMap<u32, String> {
    #[derive(Deserialize)]
    struct Announced {
        shown: Option<Shown>,
    }
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(game_dir.join("turns")) else {
        return out;
    };
    for e in entries.filter_map(|e| e.ok()) {
        let Some(turn) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(e.path().join("record.toml")) else {
            continue;
        };
        if let Ok(Announced { shown: Some(s) }) = toml::from_str::<Announced>(&text) {
            if !s.next_deadline.is_empty() {
                out.insert(turn.saturating_add(1), s.next_deadline);
            }
        }
    }
    out
}

/// The turn each dated change is bound to: the `dated_changes` of the first record that names it
/// at a turn up to the one after its own (a change it named further ahead may still move with the
/// deadlines before it, GITM 6.11); records that do not read are left to `audit`.
pub fn bound_changes(game_dir: &std::path::Path) -> BTreeMap<String, u32> {
    #[derive(Deserialize)]
    struct Bound {
        #[serde(default)]
        dated_changes: BTreeMap<String, u32>,
    }
    let mut by_turn = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(game_dir.join("turns")) else {
        return BTreeMap::new();
    };
    for e in entries.filter_map(|e| e.ok()) {
        let Some(turn) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(e.path().join("record.toml")) else {
            continue;
        };
        if let Ok(b) = toml::from_str::<Bound>(&text) {
            by_turn.insert(turn, b.dated_changes);
        }
    }
    let mut out = BTreeMap::new();
    for (record, changes) in by_turn {
        for (key, turn) in changes {
            if turn <= record.saturating_add(1) {
                out.entry(key).or_insert(turn);
            }
        }
    }
    out
}

/// The first turn from `first` on that has no record: the game's current turn, read from the
/// folder alone.
pub fn first_open_turn(game_dir: &std::path::Path, first: u32) -> u32 {
    let mut t = first;
    while game_dir
        .join("turns")
        .join(t.to_string())
        .join("record.toml")
        .is_file()
    {
        t += 1;
    }
    t
}

/// Lower-case hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::Wording;

    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Holds {
        #[serde(default, skip_serializing_if = "Wording::is_first")]
        wording: Wording,
        next: String,
    }

    /// A record's `wording` reads as every pbem wrote it, and is written back in the same bytes:
    /// none (0 and 0), the texts' number alone (the reports' 0, as records held before the reports
    /// had a wording of their own), a table of both.
    #[test]
    fn a_wording_reads_and_writes_as_every_record_held_it() {
        for (text, texts, reports) in [
            ("next = \"x\"\n", 0, 0),
            ("wording = 1\nnext = \"x\"\n", 1, 0),
            ("next = \"x\"\n\n[wording]\ntexts = 0\nreports = 1\n", 0, 1),
            ("next = \"x\"\n\n[wording]\ntexts = 1\nreports = 1\n", 1, 1),
        ] {
            let read: Holds = toml::from_str(text).unwrap();
            assert_eq!(read.wording, Wording { texts, reports }, "{text}");
            assert_eq!(toml::to_string(&read).unwrap(), text);
        }
        assert!(toml::from_str::<Holds>("wording = \"1\"\nnext = \"x\"\n").is_err());
    }
}
