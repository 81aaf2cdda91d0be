//! `game.toml`: who plays, which ruleset, when orders are due, and the game's SOP settings.

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, Months, NaiveDate, NaiveDateTime, TimeZone};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diag::Diagnostic;

/// The parsed `game.toml`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// The game's id, as players write it on their `game` line.
    pub game: String,
    /// A random word `pbem new` gives each game, so that two games made from one scenario never
    /// share a Message-ID or a subject tag (`tag`); none in the bundled scenarios.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<String>,
    /// A title for reports.
    pub title: String,
    /// The ruleset that adjudicates it: `eia`.
    pub ruleset: Spanned<String>,
    /// The number of the first turn.
    #[serde(default = "one")]
    pub first_turn: u32,
    pub calendar: Calendar,
    pub deadline: Deadline,
    /// SOP settings: decision name to setting, read by the ruleset (EiA 19.1).
    #[serde(default)]
    pub sop: BTreeMap<String, Spanned<String>>,
    /// The ruleset's options the game plays with (`Ruleset::options`): readings beyond the rules,
    /// each off unless named here, and named in the header of every report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<Spanned<String>>,
    #[serde(rename = "power")]
    pub powers: Vec<PowerConfig>,
    /// Where each power's `id` stands in game.toml, in `powers` order ([`GameConfig::locate_ids`]),
    /// so that a bad id is shown on its own line.
    #[serde(skip)]
    pub power_id_spans: Vec<std::ops::Range<usize>>,
    /// Replacing players and missed turns (EiA 19.2).
    #[serde(default)]
    pub replacement: ReplacementConfig,
    /// How the referee's mail is addressed and sent.
    #[serde(default)]
    pub mail: MailConfig,
    /// Whether allies share sight: each sees the units and events its allies see (default: no).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allies_share_sight: bool,
    /// Deadlines moved by `pbem extend` (or a rollback), by turn: local `YYYY-MM-DDTHH:MM`. Not in
    /// game.toml: `Game::load` reads them from the acts of each turn (`turns/<t>/acts.toml`).
    #[serde(skip)]
    pub moved_deadlines: BTreeMap<u32, String>,
    /// The deadline each turn was announced with, by turn: the `next_deadline` of its
    /// predecessor's record (local `YYYY-MM-DDTHH:MM`). Not in game.toml: `Game::load` reads the
    /// records. A move (`moved_deadlines`) stands over it.
    #[serde(skip)]
    pub announced_deadlines: BTreeMap<u32, String>,
    /// The turn each change dated by `at` was bound to by the first record that applied it, by
    /// [`change_key`]. Not in game.toml: `Game::load` reads the records. A bound change keeps its
    /// turn whatever later moves of the deadlines would map its time stamp to.
    #[serde(skip)]
    pub bound_changes: BTreeMap<String, u32>,
    /// The first turn not yet resolved (no record): a change dated by `at` that no record bound
    /// holds from it at the earliest, never from a turn already resolved without it. Not in
    /// game.toml: `Game::load` reads the records (0: no turn resolved is known).
    #[serde(skip)]
    pub first_open_turn: u32,
    /// Set only for the game a player's own check rebuilds from his JSON report (`pbem check
    /// --report`), which carries no password hash: a password line is taken as his, unchecked. Never
    /// read from game.toml.
    #[serde(skip)]
    pub passwords_withheld: bool,
    /// Set only for a turn `audit` re-resolves: the password hash each orders file's `password`
    /// line was checked against when the turn was resolved (its record's `password_hashes`), by the
    /// file's stem; it stands over game.toml's, whose password may have changed since. Never read
    /// from game.toml.
    #[serde(skip)]
    pub checked_hashes: BTreeMap<String, String>,
    /// Set only for a turn `audit` re-resolves: the wording of the events' texts and of the
    /// reports' own lines its record names (`TurnRecord::wording`), so that a turn resolved by an
    /// older pbem is told again in its own words (`Ruleset::wording`; [`Self::texts_wording`],
    /// [`Self::reports_wording`]). Never read from game.toml.
    #[serde(skip)]
    pub wording: Option<crate::game::record::Wording>,
    /// The dice scheme (docs/DICE.md); pbem-dice/v1 when the table is absent.
    #[serde(default, skip_serializing_if = "DiceConfig::is_v1")]
    pub dice: DiceConfig,
}

/// The `[dice]` table of `game.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DiceConfig {
    /// `pbem-dice/v1` (the default) or `pbem-dice/v2` (a closed entropy set).
    #[serde(default)]
    pub scheme: DiceScheme,
    /// A public beacon whose round after the deadline joins the seed (pbem-dice/v2 only):
    /// `drand-quicknet`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon: Option<Beacon>,
    /// Sealed rolls (`DiceBox::roll_sealed`) of a turn may be unsealed (`pbem unseal`) once this many
    /// turns after it are resolved; without it, only at the game's end, which the referee declares
    /// with `pbem unseal --force`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unseal_after: Option<u32>,
}

/// The public beacons pbem knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum Beacon {
    #[serde(rename = "drand-quicknet")]
    DrandQuicknet,
}

impl DiceConfig {
    fn is_v1(&self) -> bool {
        self.scheme == DiceScheme::V1 && self.beacon.is_none() && self.unseal_after.is_none()
    }
}

/// The dice schemes pbem knows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
pub enum DiceScheme {
    #[default]
    #[serde(rename = "pbem-dice/v1")]
    V1,
    #[serde(rename = "pbem-dice/v2")]
    V2,
}

/// The `[mail]` table of `game.toml` (its keys and checks live with the mail code).
pub use super::mail_config::MailConfig;

/// The turns pbem counts: far beyond any game, and far from where `u32` turn numbers would wrap.
pub const MAX_TURN: u32 = 1_000_000;

fn one() -> u32 {
    1
}

/// The game calendar: what date a turn stands for. Reports print it; nothing reads the clock.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Calendar {
    /// Year and month of the first turn, `YYYY-MM`.
    pub start: Spanned<String>,
    /// Game months per turn.
    #[serde(default = "one")]
    pub months_per_turn: u32,
}

/// The most turns after the first a change's time stamp may map to (GITM 6.11).
const MAX_STAMPED_TURNS: u32 = 10_000;

/// When orders are due: a local time in a named time zone, then every `every_days` days.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Deadline {
    /// IANA time zone name, such as `Europe/Vienna`.
    pub time_zone: Spanned<String>,
    /// The deadline of the first turn, local time `YYYY-MM-DDTHH:MM`.
    pub first: Spanned<String>,
    /// Days between deadlines.
    pub every_days: u32,
    /// What happens to orders that arrive late: `reject` or `hold` (for the next turn).
    #[serde(default = "reject")]
    pub late_orders: String,
    /// The least notice a turn's deadline gives, in hours after the moment the turn is announced
    /// (its predecessor resolved, or the turn reopened by a rollback): default 24, and never more
    /// than half the days between deadlines ([`GameConfig::least_notice`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub least_notice_hours: Option<u32>,
    /// How long before the deadline `pbem turn --unattended` writes each power still due its
    /// reminder, in hours (none: it reminds nobody).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind_hours_before: Option<u32>,
}

fn reject() -> String {
    "reject".to_string()
}

/// The `[replacement]` table of `game.toml`: when a new player may take over a power (EiA 19.2.2:
/// at the next economic phase) and what happens to a power that sends no orders.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReplacementConfig {
    /// An economic phase ends every this many turns: the turns `first_turn + k * econ_every` (3 for
    /// the quarterly phases of EiA, with the calendar starting on an economic month).
    #[serde(default = "one")]
    pub econ_every: u32,
    /// A power without orders for this many turns in a row is dropped (0: never).
    #[serde(default)]
    pub missed_turns: u32,
    /// Who controls a power dropped for missed turns: a power id, or none for the SOP alone.
    #[serde(default)]
    pub missed_turns_to: Option<String>,
}

impl Default for ReplacementConfig {
    fn default() -> Self {
        ReplacementConfig {
            econ_every: 1,
            missed_turns: 0,
            missed_turns_to: None,
        }
    }
}

impl GameConfig {
    /// Whether the game names the ruleset's option `name` in its `options`.
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.get_ref() == name)
    }

    /// The wording the events' texts are told in: the record's, for a turn `audit` re-resolves,
    /// else `now`, the ruleset's (`Ruleset::texts_wording`).
    pub fn texts_wording(&self, now: u32) -> u32 {
        self.wording.map_or(now, |w| w.texts)
    }

    /// The wording the reports' own lines are told in: the record's, for a turn `audit`
    /// re-resolves, else this pbem's (`record::REPORTS_WORDING`).
    pub fn reports_wording(&self) -> u32 {
        self.wording
            .map_or(crate::game::record::REPORTS_WORDING, |w| w.reports)
    }
}

impl ReplacementConfig {
    /// The first turn after the next economic phase, counting the one at the end of `turn` itself:
    /// where a controller's run of a dropped power ends and a new player's begins (EiA 19.2.1,
    /// 19.2.2). The economic phase ends the turns `first_turn + k * econ_every` (in the worked
    /// example of 19.2.2, June: Russia runs Britain through the June turn, the new player from July).
    pub fn next_boundary(&self, first_turn: u32, turn: u32) -> u32 {
        let every = self.econ_every.max(1);
        let since = turn.saturating_sub(first_turn);
        let econ = first_turn.saturating_add(since.div_ceil(every).saturating_mul(every));
        econ.saturating_add(1)
    }
}

/// One power and the players who may send its orders.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PowerConfig {
    /// Lower-case id used in orders and file names: `france`.
    pub id: String,
    /// Display name: `France`.
    pub name: String,
    /// Colour for maps, `#rrggbb`.
    #[serde(default)]
    pub colour: Option<String>,
    /// E-mail addresses that may send this power's orders (a power of one player; empty for a power
    /// that lists its players in `[[power.player]]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
    /// PHC string of the power's password (argon2id); never the password itself. Empty for a
    /// power that lists its players in `[[power.player]]`, each with his own.
    #[serde(default = "no_hash", skip_serializing_if = "is_no_hash")]
    pub password_hash: Spanned<String>,
    /// The precedence of the ranks of a power's players, highest first (`["commander", "deputy"]`):
    /// where several order one unit, the order of the higher rank stands (GITM 6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<String>,
    /// The players of a power that has several (`[[power.player]]`, `engine::command`); empty for a
    /// power of one player, whose `players` and `password_hash` stand for him.
    #[serde(default, rename = "player", skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<PlayerConfig>,
    /// Whether each of the power's players gets a report of his own command
    /// (`engine::command::ReportsBy`); by default the ruleset says (`Ruleset::reports_per_player`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reports: Option<ReportsBy>,
    /// The player's own IANA time zone, for the deadline in reminders (issue 4.8); default the game's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<Spanned<String>>,
}

fn no_hash() -> Spanned<String> {
    Spanned::new(0..0, String::new())
}

fn is_no_hash(h: &Spanned<String>) -> bool {
    h.get_ref().is_empty()
}

/// Who gets a report: the power as a whole, or each of its players for his own command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum ReportsBy {
    #[serde(rename = "per-power")]
    Power,
    #[serde(rename = "per-player")]
    Player,
}

/// One player of a power that has several (`[[power.player]]`): who he is, how he authenticates,
/// where his mail goes and which units he commands, with the changes dated by turn.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerConfig {
    /// Lower-case id, on his orders' `player` line and in his files' names: `ney`.
    pub id: String,
    /// His rank, one of the power's `ranks`: where two players order one unit, the higher rank's
    /// order stands.
    pub rank: String,
    /// His e-mail address: his orders come from it, his report and answers go to it.
    pub address: String,
    /// PHC string of his password (argon2id).
    pub password_hash: Spanned<String>,
    /// The units he commands: `"all"` or a list of unit ids.
    pub scope: Scope,
    /// Reassignments and password changes, each from the turn it names on (`[[power.player.change]]`).
    #[serde(default, rename = "change", skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<PlayerChange>,
}

/// A dated change of a player: from turn `turn` on, his scope, password or address is the one given.
/// It is dated by `turn`, or by `at`, the local time it was made (GITM 6.11's time stamp), which the
/// game maps to a turn when it loads ([`GameConfig::apply_change_times`]) until the first turn
/// resolved with it binds it there (its record's `dated_changes`).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerChange {
    /// The first turn the change holds for (0 until `at` gives it).
    #[serde(default)]
    pub turn: u32,
    /// When the change was made, `YYYY-MM-DDTHH:MM` in the game's time zone: it holds from the turn
    /// whose deadline is the first at or after that time. Written back as its `turn`.
    #[serde(default, skip_serializing)]
    pub at: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
}

/// How a record names a change dated by a time stamp: `france.eugene 2026-12-12T09:30`.
pub fn change_key(power: &str, player: &str, at: &str) -> String {
    format!("{power}.{player} {at}")
}

/// The units a player commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Every unit of his power (written `"all"`).
    All,
    /// These units, by id.
    Units(Vec<String>),
}

impl Serialize for Scope {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Scope::All => s.serialize_str("all"),
            Scope::Units(u) => u.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Scope {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Word(String),
            Units(Vec<String>),
        }
        match Raw::deserialize(d)? {
            Raw::Word(w) if w == "all" => Ok(Scope::All),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "scope \"{w}\" is neither \"all\" nor a list of unit ids"
            ))),
            Raw::Units(u) => Ok(Scope::Units(u)),
        }
    }
}

impl Scope {
    /// Whether the unit `id` is in the scope.
    pub fn holds(&self, id: &str) -> bool {
        match self {
            Scope::All => true,
            Scope::Units(u) => u.iter().any(|x| x.eq_ignore_ascii_case(id)),
        }
    }
}

/// A player as he stands at one turn, his dated changes applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerAt {
    pub id: String,
    pub rank: String,
    pub address: String,
    pub password_hash: String,
    pub scope: Scope,
}

impl PlayerConfig {
    /// The player at turn `turn`: every change dated at or before it applied, in turn order.
    pub fn at(&self, turn: u32) -> PlayerAt {
        let mut p = PlayerAt {
            id: self.id.clone(),
            rank: self.rank.clone(),
            address: self.address.clone(),
            password_hash: self.password_hash.get_ref().clone(),
            scope: self.scope.clone(),
        };
        let mut changes: Vec<&PlayerChange> =
            self.changes.iter().filter(|c| c.turn <= turn).collect();
        changes.sort_by_key(|c| c.turn);
        for c in changes {
            if let Some(s) = &c.scope {
                p.scope = s.clone();
            }
            if let Some(h) = &c.password_hash {
                p.password_hash = h.clone();
            }
            if let Some(a) = &c.address {
                p.address = a.clone();
            }
        }
        p
    }
}

impl PowerConfig {
    /// Whether the power lists several players (`[[power.player]]`).
    pub fn has_commands(&self) -> bool {
        !self.commands.is_empty()
    }

    /// The ids of the power's players, as a hint lists them: `ney, soult`.
    pub fn player_ids(&self) -> String {
        let ids: Vec<&str> = self.commands.iter().map(|c| c.id.as_str()).collect();
        ids.join(", ")
    }

    /// The player `id` of the power, if it lists him.
    pub fn command(&self, id: &str) -> Option<&PlayerConfig> {
        self.commands.iter().find(|p| p.id.eq_ignore_ascii_case(id))
    }

    /// The precedence of a rank: 0 for the highest.
    pub fn rank_order(&self, rank: &str) -> usize {
        self.ranks
            .iter()
            .position(|r| r == rank)
            .unwrap_or(self.ranks.len())
    }

    /// Every address of the power at turn `turn`: its players', whichever form game.toml gives them
    /// in (a player's dated changes applied).
    pub fn addresses_at(&self, turn: u32) -> Vec<String> {
        let mut out = self.players.clone();
        for p in &self.commands {
            let a = p.at(turn).address;
            if !out.contains(&a) {
                out.push(a);
            }
        }
        out
    }
}

/// The longest power or player id: they name files (`orders/<t>/<power>.<player>.txt`), which a
/// file system takes up to 255 bytes long (issue 34: a 300-character id passed the check and failed
/// when its file was written).
pub const MAX_ID_LEN: usize = 64;

/// Checks a power's players (`[[power.player]]`): one form or the other, plain ids, known and
/// distinct ranks, sound password hashes.
fn validate_commands(p: &PowerConfig, at: &std::ops::Range<usize>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let err = |m: String, h: &str| Diagnostic::error(m, at.clone()).hint(h.to_string());
    if !p.has_commands() {
        if p.password_hash.get_ref().is_empty() {
            out.push(err(
                format!("power '{}' has no password_hash", p.id),
                "give the power a password_hash, or list its players in [[power.player]] tables",
            ));
        }
        return out;
    }
    if !p.players.is_empty() || !p.password_hash.get_ref().is_empty() {
        out.push(err(
            format!("power '{}' lists its players twice", p.id),
            "a power lists its players either in `players` with one `password_hash`, or in [[power.player]] tables: not both",
        ));
    }
    let mut ranks = BTreeMap::new();
    for r in &p.ranks {
        if ranks.insert(r.as_str(), ()).is_some() {
            out.push(err(
                format!("power '{}' lists the rank '{r}' twice", p.id),
                "list each rank once, highest first",
            ));
        }
    }
    let mut ids = BTreeMap::new();
    let mut held = BTreeMap::new();
    for c in &p.commands {
        if c.id.is_empty()
            || !c
                .id
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-')
        {
            out.push(err(
                format!("player id '{}' of '{}' is not a plain word", c.id, p.id),
                "player ids are ASCII letters, digits and '-': they name files",
            ));
        }
        if c.id.len() > MAX_ID_LEN {
            out.push(err(
                format!(
                    "player id '{}...' of '{}' is {} characters long",
                    c.id.chars().take(24).collect::<String>(),
                    p.id,
                    c.id.chars().count()
                ),
                &format!(
                    "a player id names his orders file: keep it to {MAX_ID_LEN} characters at most"
                ),
            ));
        }
        if ids.insert(c.id.to_lowercase(), ()).is_some() {
            out.push(err(
                format!("player '{}' of '{}' is listed twice", c.id, p.id),
                "give each player of a power an id of his own",
            ));
        }
        if !ranks.contains_key(c.rank.as_str()) {
            out.push(err(
                format!(
                    "the rank '{}' of player '{}' is not one of the ranks of '{}'",
                    c.rank, c.id, p.id
                ),
                "list the power's ranks, highest first, as `ranks = [\"commander\", \"deputy\"]`",
            ));
        } else if let Some(other) = held.insert(c.rank.as_str(), c.id.as_str()) {
            out.push(err(
                format!("players '{other}' and '{}' of '{}' have the same rank '{}'", c.id, p.id, c.rank),
                "give each player of a power a rank of his own: the ranks decide whose order stands",
            ));
        }
        let hashes = std::iter::once(c.password_hash.get_ref().as_str()).chain(
            c.changes
                .iter()
                .filter_map(|ch| ch.password_hash.as_deref()),
        );
        for h in hashes {
            if crate::auth::within_bounds(h) == Some(false) {
                out.push(err(
                    format!(
                        "the password hash of player '{}' of '{}' asks too much of every check",
                        c.id, p.id
                    ),
                    "pbem checks argon2id hashes within its bounds (`pbem new` makes sound ones)",
                ));
            }
        }
    }
    out
}

impl GameConfig {
    pub fn power(&self, id: &str) -> Option<&PowerConfig> {
        self.powers.iter().find(|p| p.id.eq_ignore_ascii_case(id))
    }

    pub fn power_ids(&self) -> impl Iterator<Item = &str> {
        self.powers.iter().map(|p| p.id.as_str())
    }

    /// Checks what serde cannot: dates, time zone, duplicate powers.
    pub fn validate(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if self.time_zone().is_none() {
            let tz = &self.deadline.time_zone;
            out.push(
                Diagnostic::error(format!("unknown time zone '{}'", tz.get_ref()), tz.span())
                    .label("not an IANA time zone")
                    .hint("write a name such as \"Europe/Vienna\" or \"UTC\""),
            );
        }
        if NaiveDateTime::parse_from_str(self.deadline.first.get_ref(), "%Y-%m-%dT%H:%M").is_err() {
            out.push(
                Diagnostic::error(
                    "the first deadline is not a local date and time",
                    self.deadline.first.span(),
                )
                .hint("write it as \"2026-12-01T20:00\""),
            );
        }
        if self.calendar_start().is_none() {
            out.push(
                Diagnostic::error(
                    "the calendar start is not a year and month",
                    self.calendar.start.span(),
                )
                .hint("write it as \"1805-09\""),
            );
        }
        // Issue 15.9: a huge count would overflow the deadline (and silently mean none) or the calendar.
        if self.first_turn >= MAX_TURN {
            out.push(
                Diagnostic::error(
                    format!(
                        "first_turn = {} is beyond the turns pbem counts",
                        self.first_turn
                    ),
                    0..0,
                )
                .hint(format!("a game has turns 0 to {}", MAX_TURN - 1)),
            );
        }
        if !(1..=366).contains(&self.deadline.every_days) {
            out.push(
                Diagnostic::error(
                    format!(
                        "every_days = {} is not a number of days between deadlines",
                        self.deadline.every_days
                    ),
                    self.deadline.first.span(),
                )
                .hint("write [deadline] every_days = a number from 1 to 366"),
            );
        }
        // 0 is for a ruleset whose pbem turn is not a span of the calendar (a PoG action, an NGG
        // turn of days, a WBTS player turn, a GITM turn of days).
        let least = u32::from(!matches!(
            self.ruleset.get_ref().as_str(),
            "pog" | "ngg" | "wbts" | "gitm"
        ));
        if !(least..=120).contains(&self.calendar.months_per_turn) {
            out.push(
                Diagnostic::error(
                    format!(
                        "months_per_turn = {} is not a number of months per turn",
                        self.calendar.months_per_turn
                    ),
                    self.calendar.start.span(),
                )
                .hint(format!(
                    "write [calendar] months_per_turn = a number from {least} to 120"
                )),
            );
        }
        if !matches!(self.deadline.late_orders.as_str(), "reject" | "hold") {
            out.push(Diagnostic::error(
                "late_orders must be \"reject\" or \"hold\"",
                0..0,
            ));
        }
        out.extend(super::mail_config::validate(
            &self.mail,
            self.powers
                .iter()
                .map(|p| (p.id.as_str(), p.time_zone.as_ref())),
        ));
        let mut seen = BTreeMap::new();
        for (i, p) in self.powers.iter().enumerate() {
            let id_span = self
                .power_id_spans
                .get(i)
                .cloned()
                .unwrap_or_else(|| p.password_hash.span());
            if seen.insert(p.id.to_lowercase(), ()).is_some() {
                out.push(Diagnostic::error(
                    format!("power '{}' is declared twice", p.id),
                    id_span.clone(),
                ));
            }
            if crate::auth::within_bounds(p.password_hash.get_ref()) == Some(false) {
                out.push(
                    Diagnostic::error(
                        format!("the password hash of '{}' asks too much of every check", p.id),
                        id_span.clone(),
                    )
                    .hint(format!(
                        "anyone can mail a password to check: pbem checks hashes of at most {} KiB, {} passes and {} lanes (`pbem replace` makes a new one)",
                        crate::auth::MAX_MEMORY_KIB,
                        crate::auth::MAX_PASSES,
                        crate::auth::MAX_LANES
                    )),
                );
            }
            out.extend(validate_commands(p, &id_span));
            if p.id.is_empty() || !p.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                out.push(
                    Diagnostic::error(format!("power id '{}' is not a plain word", p.id), id_span.clone())
                        .hint("power ids are ASCII letters, digits and '-': they name files and dice labels"),
                );
            } else if p.id.len() > MAX_ID_LEN {
                out.push(
                    Diagnostic::error(
                        format!(
                            "power id '{}...' is {} characters long",
                            &p.id[..24],
                            p.id.len()
                        ),
                        id_span.clone(),
                    )
                    .hint(format!(
                        "a power id names files: keep it to {MAX_ID_LEN} characters at most"
                    )),
                );
            }
        }
        out
    }

    /// The game's tag in subjects and Message-IDs: `ulm-1805#1a2b3c4d`, or the id alone.
    pub fn tag(&self) -> String {
        match &self.nonce {
            Some(n) if !n.is_empty() => format!("{}#{n}", self.game),
            _ => self.game.clone(),
        }
    }

    /// Finds where each power's `id` stands in the text of game.toml (the ids themselves are plain
    /// strings everywhere else).
    pub fn locate_ids(&mut self, text: &str) {
        #[derive(Deserialize)]
        struct Ids {
            #[serde(default)]
            power: Vec<IdOnly>,
        }
        #[derive(Deserialize)]
        struct IdOnly {
            id: Spanned<String>,
        }
        if let Ok(ids) = toml::from_str::<Ids>(text) {
            self.power_id_spans = ids.power.iter().map(|p| p.id.span()).collect();
        }
    }

    /// The From address of the game's mail.
    pub fn mail_from(&self) -> String {
        self.mail
            .from
            .clone()
            .unwrap_or_else(|| format!("pbem referee <referee@{}.invalid>", self.game))
    }

    pub fn time_zone(&self) -> Option<Tz> {
        self.deadline.time_zone.get_ref().parse().ok()
    }

    fn calendar_start(&self) -> Option<NaiveDate> {
        NaiveDate::parse_from_str(&format!("{}-01", self.calendar.start.get_ref()), "%Y-%m-%d").ok()
    }

    /// The game date turn `t` stands for: "September 1805".
    pub fn date_of(&self, turn: u32) -> String {
        let Some(start) = self.calendar_start() else {
            return format!("turn {turn}");
        };
        let months = turn
            .saturating_sub(self.first_turn)
            .saturating_mul(self.calendar.months_per_turn);
        let date = start
            .checked_add_months(Months::new(months))
            .unwrap_or(start);
        const NAMES: [&str; 12] = [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ];
        format!("{} {}", NAMES[date.month0() as usize], date.year())
    }

    /// The turn a change made at `stamp` (`YYYY-MM-DDTHH:MM`, local time in the game's time zone)
    /// first holds for (GITM 6.11: orders sent after it are read with it): the turn whose deadline
    /// is the first at or after that time; the error says what is wrong.
    pub fn turn_of_time_stamp(&self, stamp: &str) -> Result<u32, String> {
        let tz = self.time_zone().ok_or("the game's time zone is unknown")?;
        let local = NaiveDateTime::parse_from_str(stamp, "%Y-%m-%dT%H:%M")
            .map_err(|_| format!("'{stamp}' is not a local date and time"))?;
        let when = tz
            .from_local_datetime(&local)
            .earliest()
            .ok_or_else(|| format!("'{stamp}' does not exist in the game's time zone"))?;
        let last = self.first_turn.saturating_add(MAX_STAMPED_TURNS);
        self.deadlines()
            .take_while(|(t, _)| *t <= last)
            .find(|(_, d)| *d >= when)
            .map(|(t, _)| t)
            .ok_or_else(|| format!("'{stamp}' comes after the deadline of turn {last}"))
    }

    /// Gives each dated change written with `at` its turn (GITM 6.11): the one a record bound it
    /// to, else the schedule's ([`Self::map_change_times`]); the errors, located at the `at`, for
    /// those that give none, give both or give a bad time.
    pub fn apply_change_times(&mut self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for p in &self.powers {
            for c in &p.commands {
                for ch in &c.changes {
                    let Some(at) = &ch.at else {
                        if ch.turn == 0 {
                            out.push(
                                Diagnostic::error(
                                    format!("a change of player '{}' of '{}' names no turn nor time", c.id, p.id),
                                    c.password_hash.span(),
                                )
                                .hint("date each [[power.player.change]] by `turn = 3` or by `at = \"2026-12-12T09:30\"`"),
                            );
                        }
                        continue;
                    };
                    if ch.turn != 0 {
                        out.push(
                            Diagnostic::error("a change dated twice", at.span())
                                .hint("a change gives `turn` or `at`, not both"),
                        );
                        continue;
                    }
                    if let Err(e) = self.turn_of_time_stamp(at.get_ref()) {
                        out.push(
                            Diagnostic::error(format!("the change's time stamp: {e}"), at.span())
                                .hint("write the local time the change was made, in the game's time zone: \"2026-12-12T09:30\"; it holds from the turn whose deadline comes first at or after it"),
                        );
                    }
                }
            }
        }
        if out.is_empty() {
            self.map_change_times();
        }
        out
    }

    /// Maps each change dated by `at` to its turn (GITM 6.11, pbem's reading): the turn a record
    /// bound it to (`bound_changes`), else the turn whose deadline, as the schedule now stands, is
    /// the first at or after its time stamp, and at the earliest the first turn not yet resolved
    /// (`first_open_turn`: a change entered after its turn was resolved holds from the next turn
    /// still open). Run again when a turn being resolved announces the next deadline, so that the
    /// record names what the deadlines will be (`referee::turn::resolve`).
    pub fn map_change_times(&mut self) {
        let mut turns = Vec::new();
        for (pi, p) in self.powers.iter().enumerate() {
            for (ci, c) in p.commands.iter().enumerate() {
                for (k, ch) in c.changes.iter().enumerate() {
                    let Some(at) = &ch.at else { continue };
                    let bound = self
                        .bound_changes
                        .get(&change_key(&p.id, &c.id, at.get_ref()));
                    if let Some(t) = bound.copied().or_else(|| {
                        let t = self.turn_of_time_stamp(at.get_ref()).ok()?;
                        Some(t.max(self.first_open_turn))
                    }) {
                        turns.push((pi, ci, k, t));
                    }
                }
            }
        }
        for (pi, ci, k, t) in turns {
            self.powers[pi].commands[ci].changes[k].turn = t;
        }
    }

    /// The turn of every change dated by `at`, by [`change_key`]: what a turn's record binds.
    pub fn dated_change_turns(&self) -> BTreeMap<String, u32> {
        let mut out = BTreeMap::new();
        for p in &self.powers {
            for c in &p.commands {
                for ch in &c.changes {
                    if let Some(at) = &ch.at {
                        out.insert(change_key(&p.id, &c.id, at.get_ref()), ch.turn);
                    }
                }
            }
        }
        out
    }

    /// What a notice says of the changes dated by `at` whose turn a move of the deadlines changed
    /// (GITM 6.11: a change holds from the turn whose deadline comes first at or after its time
    /// stamp; an extension or a rollback that moves a deadline past it moves it to that turn):
    /// the lines for each power, by power id, from the turns `before` gave them
    /// ([`Self::dated_change_turns`] before the move).
    pub fn moved_changes(&self, before: &BTreeMap<String, u32>) -> BTreeMap<String, Vec<String>> {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for p in &self.powers {
            for c in &p.commands {
                for ch in &c.changes {
                    let Some(at) = &ch.at else { continue };
                    let key = change_key(&p.id, &c.id, at.get_ref());
                    let Some(was) = before.get(&key).filter(|&&was| was != ch.turn) else {
                        continue;
                    };
                    let what: Vec<&str> = [
                        ch.scope.as_ref().map(|_| "command"),
                        ch.password_hash.as_ref().map(|_| "password"),
                        ch.address.as_ref().map(|_| "address"),
                    ]
                    .into_iter()
                    .flatten()
                    .collect();
                    out.entry(p.id.clone()).or_default().push(format!(
                        "GITM 6.11: the change of {} {} made {} now holds from turn {} (it held from turn {was}), as the deadlines now stand.",
                        crate::words::Possessive(&c.id),
                        what.join(" and "),
                        at.get_ref().replace('T', " "),
                        ch.turn,
                    ));
                }
            }
        }
        out
    }

    /// The deadline of turn `turn` as reports, notices and mail show it ("Tuesday 2026-12-08 20:00
    /// CET"), or "not set".
    pub fn deadline_shown(&self, turn: u32) -> String {
        self.deadline_of(turn).map_or("not set".into(), |d| {
            d.format("%A %Y-%m-%d %H:%M %Z").to_string()
        })
    }

    /// A local `YYYY-MM-DDTHH:MM` of the game's zone as an instant.
    fn local_instant(&self, text: &str) -> Option<DateTime<Tz>> {
        let local = NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M").ok()?;
        self.time_zone()?.from_local_datetime(&local).earliest()
    }

    /// Slot `k` of the schedule: the first deadline plus `k` times `every_days`, local time.
    fn slot(&self, k: u64) -> Option<DateTime<Tz>> {
        let first =
            NaiveDateTime::parse_from_str(self.deadline.first.get_ref(), "%Y-%m-%dT%H:%M").ok()?;
        let days = k.checked_mul(u64::from(self.deadline.every_days.max(1)))?;
        let local = first.checked_add_days(chrono::Days::new(days))?;
        self.time_zone()?.from_local_datetime(&local).earliest()
    }

    /// The least notice a turn's deadline gives after its announcement: `least_notice_hours`
    /// (default 24), at most half the days between deadlines.
    pub fn least_notice(&self) -> chrono::Duration {
        let cap = self.deadline.every_days.max(1) * 12;
        chrono::Duration::hours(i64::from(
            self.deadline.least_notice_hours.unwrap_or(24).min(cap),
        ))
    }

    /// The deadline a turn fixed by an act or by its announcement has: a move by `pbem extend` or
    /// a rollback, else what its predecessor's record announced.
    fn fixed_deadline(&self, turn: u32) -> Option<DateTime<Tz>> {
        self.moved_deadlines
            .get(&turn)
            .or_else(|| self.announced_deadlines.get(&turn))
            .and_then(|d| self.local_instant(d))
    }

    /// The schedule's deadline for `turn` (pbem's schedule of the game's acts): the first slot of
    /// the schedule, from the turn's own slot on, that lies after `after` (the deadline of the turn
    /// before) and not before `earliest` (the moment of its announcement plus the least notice).
    pub fn schedule_slot(
        &self,
        turn: u32,
        after: Option<DateTime<Tz>>,
        earliest: Option<DateTime<chrono::Utc>>,
    ) -> Option<DateTime<Tz>> {
        let mut k = u64::from(turn.saturating_sub(self.first_turn));
        let every = i64::from(self.deadline.every_days.max(1));
        let mut d = self.slot(k)?;
        // A jump near the slot wanted, then step by step (a time zone's shifts move a slot by hours).
        let bound = match (after, earliest) {
            (Some(a), Some(e)) => Some(a.with_timezone(&chrono::Utc).max(e)),
            (Some(a), None) => Some(a.with_timezone(&chrono::Utc)),
            (None, e) => e,
        };
        if let Some(b) = bound {
            let behind = (b - d.with_timezone(&chrono::Utc)).num_days() / every - 1;
            if behind > 0 {
                k += behind as u64;
                d = self.slot(k)?;
            }
        }
        while after.is_some_and(|a| d <= a)
            || earliest.is_some_and(|e| d.with_timezone(&chrono::Utc) < e)
        {
            k += 1;
            d = self.slot(k)?;
        }
        Some(d)
    }

    /// The deadlines of the turns from the first on, in order: each turn's move or announced
    /// deadline, else the schedule's slot after its predecessor's ([`Self::schedule_slot`]).
    pub fn deadlines(&self) -> impl Iterator<Item = (u32, DateTime<Tz>)> + '_ {
        let mut last: Option<DateTime<Tz>> = None;
        (self.first_turn..MAX_TURN).map_while(move |t| {
            let d = self
                .fixed_deadline(t)
                .or_else(|| self.schedule_slot(t, last, None))?;
            last = Some(d);
            Some((t, d))
        })
    }

    /// The deadline of turn `turn`, in the game's time zone: moved by `pbem extend` or a rollback,
    /// else as its predecessor's record announced it, else the schedule's slot after its
    /// predecessor's deadline.
    pub fn deadline_of(&self, turn: u32) -> Option<DateTime<Tz>> {
        if let Some(d) = self.fixed_deadline(turn) {
            return Some(d);
        }
        if turn <= self.first_turn {
            return self.schedule_slot(turn, None, None);
        }
        // From the last turn before this one whose deadline is fixed (or the first), step by step.
        let fixed =
            |m: &BTreeMap<u32, String>| m.range(self.first_turn..turn).next_back().map(|(t, _)| *t);
        let from = fixed(&self.moved_deadlines)
            .max(fixed(&self.announced_deadlines))
            .unwrap_or(self.first_turn);
        let mut d = self
            .fixed_deadline(from)
            .or_else(|| self.schedule_slot(from, None, None))?;
        for t in from + 1..=turn {
            d = self
                .fixed_deadline(t)
                .or_else(|| self.schedule_slot(t, Some(d), None))?;
        }
        Some(d)
    }

    /// The deadline turn `turn` is announced with at `now`: fixed by an act if one moved it, else
    /// the schedule's slot after its predecessor's deadline that gives the least notice.
    pub fn deadline_announced_at(
        &self,
        turn: u32,
        now: DateTime<chrono::Utc>,
    ) -> Option<DateTime<Tz>> {
        if let Some(d) = self
            .moved_deadlines
            .get(&turn)
            .and_then(|d| self.local_instant(d))
        {
            return Some(d);
        }
        let before = turn
            .checked_sub(1)
            .filter(|t| *t >= self.first_turn)
            .and_then(|t| self.deadline_of(t));
        self.schedule_slot(turn, before, Some(now + self.least_notice()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game.toml whose one power is `power` (the TOML of its table, without `[[power]]`'s id).
    fn config(power: &str) -> GameConfig {
        let text = format!(
            "game = \"g\"\ntitle = \"t\"\nruleset = \"eia\"\n[calendar]\nstart = \"1805-09\"\n[deadline]\ntime_zone = \"UTC\"\nfirst = \"2026-12-06T20:00\"\nevery_days = 7\n[[power]]\nid = \"france\"\nname = \"France\"\n{power}"
        );
        toml::from_str(&text).expect("a game.toml")
    }

    const TWO: &str = "ranks = [\"commander\", \"deputy\"]\n[[power.player]]\nid = \"ney\"\nrank = \"deputy\"\naddress = \"ney@x.org\"\npassword_hash = \"h1\"\nscope = [\"FR-VI\"]\n[[power.player]]\nid = \"napoleon\"\nrank = \"commander\"\naddress = \"n@x.org\"\npassword_hash = \"h2\"\nscope = \"all\"\n[[power.player.change]]\nturn = 3\nscope = [\"FR-I\"]\npassword_hash = \"h3\"\n[[power.player.change]]\nturn = 5\naddress = \"n5@x.org\"\n";

    fn messages(c: &GameConfig) -> Vec<String> {
        c.validate().into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn a_power_lists_players_with_rank_address_password_and_scope() {
        let c = config(TWO);
        assert!(messages(&c).is_empty(), "{:?}", messages(&c));
        let p = c.power("france").unwrap();
        assert!(p.has_commands());
        assert_eq!(p.addresses_at(1), ["ney@x.org", "n@x.org"]);
        assert_eq!(p.addresses_at(5), ["ney@x.org", "n5@x.org"]);
        assert_eq!(p.rank_order("commander"), 0);
        assert_eq!(p.rank_order("deputy"), 1);
        let n = p.command("Napoleon").unwrap();
        assert_eq!(n.scope, Scope::All);
        assert!(p.command("ney").unwrap().scope.holds("fr-vi"));
        assert!(!p.command("ney").unwrap().scope.holds("FR-I"));
    }

    #[test]
    fn dated_changes_take_effect_from_their_turn() {
        let c = config(TWO);
        let n = c.power("france").unwrap().command("napoleon").unwrap();
        let at = |t| n.at(t);
        assert_eq!(
            (at(2).scope, at(2).password_hash),
            (Scope::All, "h2".into())
        );
        assert_eq!(at(3).scope, Scope::Units(vec!["FR-I".into()]));
        assert_eq!(at(4).password_hash, "h3");
        assert_eq!(at(4).address, "n@x.org");
        assert_eq!(
            (at(5).address, at(5).password_hash),
            ("n5@x.org".into(), "h3".into())
        );
    }

    #[test]
    fn gitm_6_11_a_change_dated_by_its_time_stamp_holds_from_the_turn_whose_deadline_follows() {
        // Deadlines: turn 1 on 2026-12-06T20:00 UTC, then every 7 days.
        let stamped = |at: &str| {
            let mut c = config(&TWO.replace("turn = 3\n", &format!("at = \"{at}\"\n")));
            let errors: Vec<String> = c
                .apply_change_times()
                .into_iter()
                .map(|d| d.message)
                .collect();
            (c, errors)
        };
        for (at, turn) in [
            ("2026-12-06T20:00", 1),
            ("2026-12-06T20:01", 2),
            ("2026-12-18T09:30", 3),
            ("2020-01-01T00:00", 1),
        ] {
            let (c, errors) = stamped(at);
            assert!(errors.is_empty(), "{errors:?}");
            let n = c.power("france").unwrap().command("napoleon").unwrap();
            assert_eq!(n.changes[0].turn, turn, "{at}");
            assert_eq!(n.at(turn).password_hash, "h3");
            assert_eq!(n.at(turn - 1).password_hash, "h2");
            // Written back as its turn.
            assert!(toml::to_string(&c)
                .unwrap()
                .contains(&format!("turn = {turn}")));
        }
        let (_, errors) = stamped("12 December");
        assert_eq!(
            errors,
            ["the change's time stamp: '12 December' is not a local date and time"]
        );
        let mut both = config(&TWO.replace("turn = 3\n", "turn = 3\nat = \"2026-12-18T09:30\"\n"));
        let d = both.apply_change_times();
        assert_eq!(d[0].message, "a change dated twice");
        assert!(d[0].hint.is_some() && d[0].span.end > d[0].span.start);
        let mut none = config(&TWO.replace("turn = 3\n", ""));
        assert!(none.apply_change_times()[0]
            .message
            .contains("names no turn nor time"));
    }

    #[test]
    fn gitm_6_11_a_change_holds_from_no_turn_resolved_without_it_and_a_move_is_told() {
        // Deadlines: turn 1 on 2026-12-06T20:00 UTC, then every 7 days; the time stamp falls in
        // turn 2's time.
        let mut c = config(&TWO.replace("turn = 3\n", "at = \"2026-12-06T20:01\"\n"));
        assert!(c.apply_change_times().is_empty());
        let before = c.dated_change_turns();
        assert_eq!(before["france.napoleon 2026-12-06T20:01"], 2);
        // Entered once turn 2 was resolved, it holds from turn 3, the first turn still open.
        c.first_open_turn = 3;
        c.map_change_times();
        assert_eq!(
            c.dated_change_turns()["france.napoleon 2026-12-06T20:01"],
            3
        );
        assert_eq!(
            c.moved_changes(&before)["france"],
            ["GITM 6.11: the change of napoleon's command and password made 2026-12-06 20:01 now holds from turn 3 (it held from turn 2), as the deadlines now stand."]
        );
        // A change bound by a record keeps its turn; nothing moved, nothing is told.
        c.bound_changes
            .insert("france.napoleon 2026-12-06T20:01".into(), 2);
        c.map_change_times();
        assert!(c.moved_changes(&before).is_empty());
    }

    #[test]
    fn a_power_of_one_player_keeps_its_form_and_meaning() {
        let c = config("players = [\"f@x.org\"]\npassword_hash = \"h\"\n");
        assert!(messages(&c).is_empty());
        let p = c.power("france").unwrap();
        assert!(!p.has_commands());
        assert_eq!(p.addresses_at(1), ["f@x.org"]);
        // Written back as it was read: no key of the players' form appears.
        let back = toml::to_string(p).unwrap();
        assert!(
            !back.contains("player]") && !back.contains("ranks"),
            "{back}"
        );
    }

    #[test]
    fn players_listed_wrongly_are_errors_with_hints() {
        let both = config(&format!(
            "players = [\"f@x.org\"]\npassword_hash = \"h\"\n{TWO}"
        ));
        assert_eq!(messages(&both), ["power 'france' lists its players twice"]);
        let none = config("players = [\"f@x.org\"]\n");
        assert_eq!(messages(&none), ["power 'france' has no password_hash"]);
        let rank = config(&TWO.replace("rank = \"deputy\"", "rank = \"aide\""));
        assert_eq!(
            messages(&rank),
            ["the rank 'aide' of player 'ney' is not one of the ranks of 'france'"]
        );
        let same = config(&TWO.replace("rank = \"deputy\"", "rank = \"commander\""));
        assert_eq!(
            messages(&same),
            ["players 'ney' and 'napoleon' of 'france' have the same rank 'commander'"]
        );
        let twice = config(&TWO.replace("id = \"napoleon\"", "id = \"ney\""));
        assert_eq!(
            messages(&twice),
            ["player 'ney' of 'france' is listed twice"]
        );
        let text = toml::to_string(&config(TWO)).unwrap();
        assert_eq!(
            toml::from_str::<GameConfig>(&text).unwrap().powers[0]
                .commands
                .len(),
            2
        );
        let scope =
            toml::from_str::<GameConfig>(&text.replace("scope = \"all\"", "scope = \"most\""));
        let e = scope.unwrap_err().to_string();
        assert!(
            e.contains("scope \"most\" is neither \"all\" nor a list of unit ids"),
            "{e}"
        );
        assert!(config(TWO).validate().iter().all(|d| d.hint.is_some()));
    }
}
