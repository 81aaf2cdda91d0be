//! Synthetic games, for benchmarks, crash tests and fuzzing seeds: N powers on a grid map, M units,
//! orders that lead to C combats, and optionally a mailbox of K messages, all derived from a seed;
//! and (`map`) GITM-sized grid maps.
//!
//! The same [`Spec`] gives the same bytes on every machine: every choice is a pbem-dice/v1 die
//! ([`crate::dice::Roller`]) under a label fixed by the seed, and the password hashes use salts drawn
//! from the same stream. Nothing here reads the clock or the operating system's generator.
//!
//! The folder [`write_game`] writes is a complete game that `pbem resolve` accepts:
//!
//! ```text
//! game.toml  map.toml  tables.toml (the bundled ulm-1805 tables)
//! turns/1/state.toml  turns/1/commitment  secret/1.key  orders/1/<power>.txt
//! ```
//!
//! How the turn is built. The map is a square grid of land areas `A<x>-<y>`, split into one block
//! of areas per power, which controls it; every power has a capital and some areas a depot; about
//! one area per five units. Each combat stands on its own area, on the squares of one colour of a
//! chessboard, so that no two are next to each other: corps of the power that holds the area and of
//! an attacker, which declares `attack`. One combat in eight brings an
//! attacking corps in by a `move` (one in sixteen over two areas, where enemy garrisons may stop
//! it); one in forty names a chit. The other units are garrisons spread over the map, most of them
//! in their own power's block, so that battles draw reinforcements and retreats find their way
//! home. An orders file holds at most 500 orders ([`crate::orders::MAX_ORDER_LINES`]): a spec with
//! too few powers for its combats is refused with the number it needs.

pub mod map;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use argon2::password_hash::{PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::dice::{self, Bytes32, Roller};

/// The tables of the bundled scenario, which the synthetic games use as they are.
const TABLES: &str = include_str!("../../games/ulm-1805/tables.toml");

/// The game id of every synthetic game.
pub const GAME: &str = "synth";

/// The cost of the argon2id password hashes in `game.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasswordCost {
    /// argon2's defaults (m = 19 MiB, t = 2), what `pbem new` writes: about as slow to check as a
    /// real game's passwords.
    Default,
    /// The least argon2 allows (m = 8 KiB, t = 1): checking one costs microseconds, so that a
    /// benchmark measures the turn and not the password checks.
    Light,
}

/// What to generate.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Number of powers.
    pub powers: usize,
    /// Number of units: corps and leaders.
    pub units: usize,
    /// Number of combats the orders declare.
    pub combats: usize,
    /// Leaders per power (EiA has a fixed roster of them, whatever the size of the armies).
    pub leaders_per_power: usize,
    /// Messages in the mailbox [`mbox`] writes.
    pub messages: usize,
    pub seed: u64,
    pub passwords: PasswordCost,
    /// Also write `secret/2.key`, so that resolving turn 1 gives the same bytes every time.
    pub next_secret: bool,
    /// Mail each report's map as a PNG too (`[mail] map_png`); [`Spec::per_power`] turns it off
    /// above [`PNG_POWERS`] powers.
    pub map_png: bool,
}

/// The most powers a synthetic game mails PNG maps to ([`Spec::per_power`]): above, it writes
/// `[mail] map_png = false`, as the referee of a game of hundreds of powers sets it (the PNG costs
/// about 45 ms a power: 45 s of CPU in a 1,000-power turn, BENCHMARKS.md).
pub const PNG_POWERS: usize = 100;

impl Spec {
    /// `units` units and `combats` combats among 24 powers (enough for 10,000 combats within the
    /// 500-order limit of a file), light passwords, seed 1.
    pub fn new(units: usize, combats: usize) -> Spec {
        Spec {
            powers: 24,
            units,
            combats,
            leaders_per_power: 8,
            messages: 0,
            seed: 1,
            passwords: PasswordCost::Light,
            next_secret: true,
            map_png: true,
        }
    }

    /// The benchmark sizes: `units` units and one combat per ten units.
    pub fn sized(units: usize) -> Spec {
        Spec::new(units, units / 10)
    }

    /// `powers` powers of `units_per_power` units each, one combat per ten units, and a leader per ten
    /// units of a power (at least one, at most EiA's eight), so that small armies still have corps
    /// to fight with, and no PNG maps above [`PNG_POWERS`] powers: what `cargo run --example synth`
    /// writes.
    pub fn per_power(powers: usize, units_per_power: usize) -> Spec {
        let units = powers.saturating_mul(units_per_power);
        Spec {
            powers,
            leaders_per_power: (units_per_power / 10).clamp(1, 8),
            map_png: powers <= PNG_POWERS,
            ..Spec::sized(units)
        }
    }
}

/// The files of a game, by path relative to the game folder, in the order they are written.
#[derive(Debug, Clone, Default)]
pub struct Files {
    pub files: Vec<(String, Vec<u8>)>,
    /// Each power's id and password, in game.toml order.
    pub passwords: Vec<(String, String)>,
    /// Counts of what was generated.
    pub summary: Summary,
}

impl Files {
    /// The content of the file at `path`, if there is one.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, b)| b.as_slice())
    }
}

/// Counts of a generated game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub areas: usize,
    pub corps: usize,
    pub leaders: usize,
    pub combats: usize,
    pub moves: usize,
    /// Order lines over all files (header lines excluded).
    pub order_lines: usize,
}

/// A stream of dice for the generator: pbem-dice/v1 under a label fixed by the seed.
struct Stream(Roller);

impl Stream {
    fn new(seed: u64, what: &str) -> Stream {
        let key = dice::tuple_hash(&[b"pbem-synth/v1", &seed.to_be_bytes()]);
        Stream(Roller::new(&key, what))
    }

    /// 0..n.
    fn below(&mut self, n: usize) -> usize {
        let n = u32::try_from(n.max(1)).expect("a synthetic game has fewer than 2^32 of anything");
        self.0.die(n) as usize - 1
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        for b in &mut out {
            *b = self.below(256) as u8;
        }
        out
    }
}

/// A corps as the state lists it.
struct CorpsLine {
    id: String,
    power: usize,
    kind: &'static str,
    factors: u32,
    morale: u32,
    movement: u32,
    area: usize,
}

/// The square grid map.
struct Grid {
    side: usize,
    powers: usize,
}

impl Grid {
    fn id(&self, cell: usize) -> String {
        format!("A{}-{}", cell % self.side, cell / self.side)
    }

    fn cell(&self, x: usize, y: usize) -> usize {
        y * self.side + x
    }

    /// The power whose block holds `cell`.
    fn owner(&self, cell: usize) -> usize {
        let rows = (1..).find(|r| r * r >= self.powers).unwrap_or(1);
        let cols = self.powers.div_ceil(rows);
        let (x, y) = (cell % self.side, cell / self.side);
        ((y * rows / self.side) * cols + x * cols / self.side).min(self.powers - 1)
    }

    fn neighbours(&self, cell: usize) -> Vec<usize> {
        let (x, y) = (cell % self.side, cell / self.side);
        let mut out = Vec::with_capacity(4);
        if y > 0 {
            out.push(self.cell(x, y - 1));
        }
        if x > 0 {
            out.push(self.cell(x - 1, y));
        }
        if x + 1 < self.side {
            out.push(self.cell(x + 1, y));
        }
        if y + 1 < self.side {
            out.push(self.cell(x, y + 1));
        }
        out
    }

    fn depot(&self, cell: usize) -> bool {
        (cell % self.side) % 6 == 3 && (cell / self.side) % 6 == 3
    }
}

/// The id of power `p`.
pub fn power_id(p: usize) -> String {
    format!("p{p:02}")
}

/// Generates the files of the game `spec` describes.
pub fn generate(spec: &Spec) -> Result<Files> {
    if spec.powers < 2 {
        bail!(
            "a synthetic game needs at least 2 powers, not {}",
            spec.powers
        );
    }
    let limit = crate::orders::MAX_ORDER_LINES;
    // A square of about one area per five units, and room for the combats on the squares of one
    // colour of a chessboard, inside the border, so that no two combats are next to each other.
    let sites_in = |side: usize| (side - 2) * (side - 2) / 2;
    let side = (8..)
        .find(|&s| s * s >= spec.units / 5 && sites_in(s) >= spec.combats)
        .unwrap_or(8);
    let grid = Grid {
        side,
        powers: spec.powers,
    };
    let areas = side * side;
    let mut rng = Stream::new(spec.seed, "synth");

    let mut sites: Vec<usize> = (1..side - 1)
        .flat_map(|y| (1..side - 1).map(move |x| (x, y)))
        .filter(|&(x, y)| (x + y) % 2 == 0)
        .map(|(x, y)| grid.cell(x, y))
        .collect();
    if sites.len() < spec.combats {
        bail!(
            "internal error: the grid has room for {} combats only",
            sites.len()
        );
    }
    rng.0.shuffle(&mut sites);
    sites.truncate(spec.combats);
    let mut battle = vec![false; areas];
    for &s in &sites {
        battle[s] = true;
    }

    let mut corps: Vec<CorpsLine> = Vec::new();
    let mut battles_of: Vec<Vec<usize>> = vec![Vec::new(); spec.powers];
    let mut orders: Vec<Vec<String>> = vec![Vec::new(); spec.powers];
    let mut moves = 0;
    let new_corps = |rng: &mut Stream, corps: &mut Vec<CorpsLine>, power: usize, area: usize| {
        let (kind, movement, morale) = match rng.below(50) {
            0 => ("guard", 3, 50),
            1..=8 => ("cavalry", 4, 40),
            _ => ("infantry", 3, if power.is_multiple_of(2) { 40 } else { 30 }),
        };
        corps.push(CorpsLine {
            id: format!("C{}", corps.len()),
            power,
            kind,
            factors: 2 + rng.below(11) as u32,
            morale,
            movement,
            area,
        });
        corps.len() - 1
    };
    for (k, &site) in sites.iter().enumerate() {
        let defender = grid.owner(site);
        let mut attacker = k % spec.powers;
        if attacker == defender {
            attacker = (attacker + 1) % spec.powers;
        }
        for _ in 0..1 + rng.below(3) {
            new_corps(&mut rng, &mut corps, defender, site);
        }
        for _ in 0..1 + rng.below(3) {
            new_corps(&mut rng, &mut corps, attacker, site);
        }
        battles_of[defender].push(site);
        battles_of[attacker].push(site);
        let name = grid.id(site);
        let (x, y) = (site % side, site / side);
        // Every power attacks once per round of the list: moves and chits come in whole rounds, so that
        // each power gets its share of them.
        let round = k / spec.powers;
        if round % 8 == 1 {
            // A corps marches in from the east, over one or two areas.
            let east = grid.cell(x + 1, y);
            let north_east = grid.cell(x + 1, y + 1);
            let (start, path) = if round % 16 == 9 && !battle[north_east] {
                (north_east, vec![grid.id(east), name.clone()])
            } else {
                (east, vec![name.clone()])
            };
            let c = new_corps(&mut rng, &mut corps, attacker, start);
            orders[attacker].push(format!("move {} {}", corps[c].id, path.join(" ")));
            moves += 1;
        }
        orders[attacker].push(format!("attack {name}"));
        if round % 40 == 3 {
            let chit = ["echelon", "probe"][round / 40 % 2];
            orders[attacker].push(format!("chit {name} {chit}"));
        }
    }
    let leaders = spec.powers * spec.leaders_per_power;
    let fixed = corps.len() + leaders;
    if fixed > spec.units {
        bail!(
            "{} units are too few for {} combats and {} leaders: give at least {fixed}",
            spec.units,
            spec.combats,
            leaders
        );
    }
    // Garrisons: nine in ten in their own block, off the battlefields.
    let quiet: Vec<usize> = (0..areas).filter(|&a| !battle[a]).collect();
    while corps.len() + leaders < spec.units {
        let area = quiet[rng.below(quiet.len())];
        let power = if rng.chance(10) {
            rng.below(spec.powers)
        } else {
            grid.owner(area)
        };
        new_corps(&mut rng, &mut corps, power, area);
    }
    // Leaders: half with their power's first battles, the others in their own block.
    let mut leader_lines = Vec::new();
    for (p, battles) in battles_of.iter().enumerate() {
        let home: Vec<usize> = quiet
            .iter()
            .copied()
            .filter(|&a| grid.owner(a) == p)
            .collect();
        for n in 0..spec.leaders_per_power {
            let area = match battles.get(n) {
                Some(&a) if n % 2 == 0 => a,
                _ if !home.is_empty() => home[rng.below(home.len())],
                _ => quiet[rng.below(quiet.len())],
            };
            leader_lines.push((
                format!("L{}-{n}", power_id(p)),
                p,
                1 + rng.below(5),
                1 + rng.below(leaders),
                area,
            ));
        }
    }
    let total: usize = orders.iter().map(|l| l.len() + 2).sum();
    for (p, list) in orders.iter().enumerate() {
        // Two more lines per file below: the standing orders of even powers.
        if list.len() + 2 > limit {
            bail!(
                "{} combats among {} powers give {} an orders file of {} lines, more than the {limit} \
                 a file may hold: give at least {} powers",
                spec.combats,
                spec.powers,
                power_id(p),
                list.len() + 2,
                total.div_ceil(limit - limit / 10)
            );
        }
    }

    let mut files = Files::default();
    let mut passwords = Vec::new();
    let mut game = String::new();
    let _ = write!(
        game,
        "# A synthetic game generated by pbem::synth (seed {seed}): {powers} powers, {units} units, \
         {combats} combats.\n\ngame = \"{GAME}\"\ntitle = \"Synthetic game, seed {seed}\"\n\
         ruleset = \"eia\"\nfirst_turn = 1\n\n[calendar]\nstart = \"1805-09\"\nmonths_per_turn = 1\n\n\
         [deadline]\ntime_zone = \"UTC\"\nfirst = \"2026-12-06T20:00\"\nevery_days = 7\n\
         late_orders = \"reject\"\n\n[sop]\nattack-chit = \"assault\"\ndefence-chit = \"defend\"\n\
         pursue = \"always\"\nreinforce = \"always\"\n",
        seed = spec.seed,
        powers = spec.powers,
        units = spec.units,
        combats = spec.combats,
    );
    if !spec.map_png {
        game.push_str("\n[mail]\nmap_png = false\n");
    }
    let argon = match spec.passwords {
        PasswordCost::Default => Argon2::default(),
        PasswordCost::Light => Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(Params::MIN_M_COST, 1, 1, None)
                .map_err(|e| anyhow::anyhow!("argon2 parameters: {e}"))?,
        ),
    };
    for p in 0..spec.powers {
        let id = power_id(p);
        let password = format!("pw-{id}-{}", hex::encode(rng.bytes::<4>()));
        let salt =
            SaltString::encode_b64(&rng.bytes::<16>()).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
        let hash = argon
            .hash_password(password.as_bytes(), &salt)
            .map_err(|e| anyhow::anyhow!("cannot hash a password: {e}"))?
            .to_string();
        let _ = write!(
            game,
            "\n[[power]]\nid = \"{id}\"\nname = \"Power {p}\"\nplayers = [\"{id}@example.org\"]\n\
             password_hash = \"{hash}\"\n"
        );
        passwords.push((id, password));
    }
    files.files.push(("game.toml".into(), game.into_bytes()));

    let mut capitals = vec![None; areas];
    for p in 0..spec.powers {
        let home: Vec<usize> = (0..areas)
            .filter(|&a| grid.owner(a) == p && !battle[a])
            .collect();
        if let Some(&a) = home.get(home.len() / 2) {
            capitals[a] = Some(p);
        }
    }
    let mut map = String::with_capacity(areas * 120);
    let _ = writeln!(
        map,
        "# The grid map of a synthetic game: {side} x {side} land areas.\n"
    );
    for (a, capital) in capitals.iter().enumerate() {
        let adjacent: Vec<String> = grid
            .neighbours(a)
            .into_iter()
            .map(|n| format!("\"{}\"", grid.id(n)))
            .collect();
        let _ = write!(
            map,
            "[[area]]\nid = \"{}\"\nkind = \"land\"\nxy = [{}, {}]\nadjacent = [{}]\n",
            grid.id(a),
            (a % side) * 20,
            (a / side) * 20,
            adjacent.join(", ")
        );
        if grid.depot(a) {
            map.push_str("depot = true\n");
        }
        if let Some(p) = *capital {
            let _ = writeln!(map, "capital = \"{}\"", power_id(p));
        }
        map.push('\n');
    }
    files.files.push(("map.toml".into(), map.into_bytes()));
    files
        .files
        .push(("tables.toml".into(), TABLES.as_bytes().to_vec()));

    let mut state = String::with_capacity(corps.len() * 130 + areas * 20);
    let _ = write!(
        state,
        "# The position at the start of turn 1 of a synthetic game.\n\ngame = \"{GAME}\"\nturn = 1\n\n[control]\n"
    );
    for a in 0..areas {
        let _ = writeln!(state, "{} = \"{}\"", grid.id(a), power_id(grid.owner(a)));
    }
    for p in (0..spec.powers).step_by(3) {
        let _ = write!(
            state,
            "\n[standing.{}]\ndefence-chit = \"defend\"\n",
            power_id(p)
        );
    }
    for c in &corps {
        let _ = write!(
            state,
            "\n[[eia.corps]]\nid = \"{}\"\npower = \"{}\"\nkind = \"{}\"\nfactors = {}\nmorale = {}.{}\n\
             movement = {}\narea = \"{}\"\n",
            c.id,
            power_id(c.power),
            c.kind,
            c.factors,
            c.morale / 10,
            c.morale % 10,
            c.movement,
            grid.id(c.area)
        );
    }
    for (id, p, rating, seniority, area) in &leader_lines {
        let _ = write!(
            state,
            "\n[[eia.leader]]\nid = \"{id}\"\npower = \"{}\"\nrating = {rating}\nseniority = {seniority}\n\
             movement = 4\narea = \"{}\"\n",
            power_id(*p),
            grid.id(*area)
        );
    }
    files
        .files
        .push(("turns/1/state.toml".into(), state.into_bytes()));

    let secret = |turn: u32| -> Bytes32 {
        dice::tuple_hash(&[
            b"pbem-synth/v1/secret",
            &spec.seed.to_be_bytes(),
            &turn.to_be_bytes(),
        ])
    };
    let commitment = dice::commitment(GAME, 1, &secret(1));
    files.files.push((
        "turns/1/commitment".into(),
        format!("{}\n", dice::to_hex(&commitment)).into_bytes(),
    ));
    files.files.push((
        "secret/1.key".into(),
        format!("{}\n", dice::to_hex(&secret(1))).into_bytes(),
    ));
    if spec.next_secret {
        files.files.push((
            "secret/2.key".into(),
            format!("{}\n", dice::to_hex(&secret(2))).into_bytes(),
        ));
    }

    let mut order_lines = 0;
    for (p, list) in orders.iter().enumerate() {
        let id = power_id(p);
        let mut text = format!(
            "# Orders of {id} for turn 1 of a synthetic game.\ngame {GAME}\npower {id}\npassword {}\nturn 1\n",
            passwords[p].1
        );
        if p % 2 == 0 {
            let _ = writeln!(text, "entropy {id} rolls on, seed {}", spec.seed);
        }
        text.push('\n');
        if p % 2 == 0 {
            text.push_str("standing reinforce always\nstanding pursue always\n");
            order_lines += 2;
        }
        for line in list {
            text.push_str(line);
            text.push('\n');
        }
        order_lines += list.len();
        files
            .files
            .push((format!("orders/1/{id}.txt"), text.into_bytes()));
    }
    files.passwords = passwords;
    files.summary = Summary {
        areas,
        corps: corps.len(),
        leaders: leader_lines.len(),
        combats: sites.len(),
        moves,
        order_lines,
    };
    Ok(files)
}

/// Writes the game `spec` describes into `dir` (created if needed; existing files are replaced).
pub fn write_game(spec: &Spec, dir: &Path) -> Result<Files> {
    let files = generate(spec)?;
    write_files(&files, dir)?;
    Ok(files)
}

/// Writes generated files under `dir`; secrets get mode 0600.
pub fn write_files(files: &Files, dir: &Path) -> Result<()> {
    for (rel, bytes) in &files.files {
        let path: PathBuf = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
        #[cfg(unix)]
        if rel.starts_with("secret/") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(())
}

/// A mailbox (mboxrd) of `spec.messages` messages: the orders files of the powers in turn, each a
/// plain-text mail from the power's player to the referee; a power's second and later messages
/// resend its orders with a line of comment more, as players do.
pub fn mbox(spec: &Spec, files: &Files) -> Vec<u8> {
    let mut out = String::new();
    for i in 0..spec.messages {
        let (id, _) = &files.passwords[i % files.passwords.len()];
        let body = files
            .get(&format!("orders/1/{id}.txt"))
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        let (day, second) = (6 - (i / 86_400).min(5), i % 86_400);
        let _ = write!(
            out,
            "From {id}@example.org Sun Dec  {day} {:02}:{:02}:{:02} 2026\n\
             From: Player of {id} <{id}@example.org>\nTo: referee@{GAME}.invalid\n\
             Subject: [{GAME}] orders of {id}, turn 1 (message {i})\n\
             Date: Sun, {day:02} Dec 2026 {:02}:{:02}:{:02} +0000\n\
             Message-ID: <m{i}.{id}@example.org>\nMIME-Version: 1.0\n\
             Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n",
            second / 3600,
            second / 60 % 60,
            second % 60,
            second / 3600,
            second / 60 % 60,
            second % 60,
        );
        for line in body.lines() {
            // mboxrd: a body line that reads as a "From " separator gets one more '>'.
            if line.trim_start_matches('>').starts_with("From ") {
                out.push('>');
            }
            out.push_str(line);
            out.push('\n');
        }
        if i >= files.passwords.len() {
            let _ = writeln!(out, "# sent again ({i})");
        }
        out.push('\n');
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_bytes_and_another_seed_others() {
        let spec = Spec::new(600, 40);
        let a = generate(&spec).unwrap();
        let b = generate(&spec).unwrap();
        assert_eq!(a.files, b.files);
        let c = generate(&Spec { seed: 2, ..spec }).unwrap();
        assert_ne!(a.get("turns/1/state.toml"), c.get("turns/1/state.toml"));
    }

    #[test]
    fn a_game_of_more_than_a_hundred_powers_mails_no_png_map() {
        let toml = |powers| {
            let f = generate(&Spec::per_power(powers, 2)).unwrap();
            String::from_utf8(f.get("game.toml").unwrap().to_vec()).unwrap()
        };
        assert!(!toml(PNG_POWERS).contains("map_png"));
        assert!(toml(PNG_POWERS + 1).contains("\n[mail]\nmap_png = false\n"));
        let crate::game::config::GameConfig { mail, .. } = crate::game::load::parse_toml(
            &crate::diag::Source::new("game.toml", toml(PNG_POWERS + 1)),
        )
        .unwrap();
        assert!(!mail.map_png);
    }

    #[test]
    fn counts_are_as_asked() {
        let spec = Spec::new(1_000, 100);
        let f = generate(&spec).unwrap();
        assert_eq!(f.summary.corps + f.summary.leaders, 1_000);
        assert_eq!(f.summary.combats, 100);
        assert_eq!(f.summary.leaders, 24 * 8);
        assert!(f.summary.moves >= 100 / 8, "{:?}", f.summary);
    }

    #[test]
    fn a_generated_game_resolves_with_every_order_accepted_and_every_combat_fought() {
        let spec = Spec {
            powers: 6,
            ..Spec::new(1_000, 100)
        };
        let tmp = tempfile::tempdir().unwrap();
        let files = write_game(&spec, tmp.path()).unwrap();
        let game = crate::game::Game::load(tmp.path()).unwrap();
        let out = crate::referee::turn::resolve(&game, &Default::default()).unwrap();
        for o in &out.orders {
            let check = o.check.as_ref().expect("every power sent orders");
            assert!(check.power.is_some(), "{} not authenticated", o.power);
            assert_eq!(check.rejected(), 0, "{}", o.rendered);
        }
        let accepted: usize = out
            .orders
            .iter()
            .map(|o| o.check.as_ref().unwrap().accepted.len())
            .sum();
        assert_eq!(accepted, files.summary.order_lines);
        let battles = out
            .events
            .iter()
            .filter(|e| e.kind == "combat" && e.text.starts_with("Battle of"))
            .count();
        // A defender may slip away before the battle (evasion, a city): nearly every combat is fought.
        assert!(battles * 10 >= spec.combats * 9, "{battles} battles");
        assert!(game.is_resolved(1));
    }

    /// What `cargo run --example synth -- DIR --powers N --units-per-power U` writes.
    #[test]
    fn per_power_gives_each_power_its_units_a_combat_per_ten_units_and_a_leader_per_ten() {
        let spec = Spec::per_power(100, 10);
        let f = generate(&spec).unwrap();
        assert_eq!(f.summary.corps + f.summary.leaders, 1_000);
        assert_eq!(f.summary.combats, 100);
        assert_eq!(f.summary.leaders, 100);
        assert_eq!(f.passwords.len(), 100);
        assert_eq!(Spec::per_power(24, 400).leaders_per_power, 8);
    }

    #[test]
    fn too_few_powers_for_the_combats_are_refused_with_the_number_needed() {
        let spec = Spec {
            powers: 4,
            ..Spec::new(100_000, 10_000)
        };
        let e = generate(&spec).unwrap_err().to_string();
        assert!(e.contains("give at least"), "{e}");
    }

    #[test]
    fn too_few_units_are_refused() {
        let e = generate(&Spec::new(100, 100)).unwrap_err().to_string();
        assert!(e.contains("too few"), "{e}");
    }

    #[test]
    fn a_mailbox_holds_the_messages_asked_for() {
        let spec = Spec {
            messages: 30,
            ..Spec::new(600, 40)
        };
        let files = generate(&spec).unwrap();
        let m = String::from_utf8(mbox(&spec, &files)).unwrap();
        assert_eq!(m.matches("\nFrom: ").count(), 30);
        assert_eq!(m.lines().filter(|l| l.starts_with("From p")).count(), 30);
    }
}
