//! Sealed rolls (`DiceBox::roll_sealed`): rolls a ruleset keeps out of every report until the referee
//! publishes them, because their faces would tell a power what it must not know (GITM's noisy
//! detection). The turn log keeps them and `audit` checks them like any roll; the public header
//! counts them and commits to them (`sealed: N SHA`); `pbem unseal` writes the sealed list, which a
//! player checks with `pbem verify --sealed`.
//!
//! The scheme (docs/DICE.md, "Sealed rolls"), `H` as pbem-dice/v1's:
//! - the referee's secret of a turn is made from a sealing secret `Q_t` (32 random bytes,
//!   `secret/<t>.seal`): `R_t = H("pbem-dice/sealed/secret", Q_t)`, so the commitment `C_t` to `R_t`
//!   published before the orders fixes `Q_t` too, while revealing `R_t` reveals nothing of `Q_t`;
//! - a sealed roll's key is `H("pbem-dice/sealed/event", S_t, Q_t, L)`: nobody can compute it
//!   before `Q_t` is revealed, however well he guesses `L`;
//! - the header's `sealed: N SHA` gives the count and
//!   `H("pbem-dice/sealed/list", Q_t, u64be(N), line_1, ..., line_N)`, each line
//!   `roll <label>: <dice> -> <faces>` in the order drawn (with `Q_t` in it, so that nobody can
//!   confirm a guessed face against it);
//! - unsealing a turn reveals its `Q_t` and its list: a player checks `R_t` against `Q_t`, the count
//!   and commitment against his report's header, and each roll against its key.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use crate::dice::{self, tuple_hash, Bytes32, Roller};
use crate::engine::event::{Die, Event, Roll};
use crate::game::fsio::write_atomic_mode;
use crate::game::Game;

/// The first line of a sealed list.
pub const FORMAT: &str = "pbem-sealed/v1";

/// `R_t = H("pbem-dice/sealed/secret", Q_t)`.
pub fn secret_of_seal(seal: &Bytes32) -> Bytes32 {
    tuple_hash(&[b"pbem-dice/sealed/secret", seal])
}

/// The key of a sealed roll (`H("pbem-dice/sealed/event", S_t, Q_t, L)`), made where the dice box
/// rolls it.
pub use super::dice_box::sealed_key as key;

/// Makes the secret of turn `turn`: a fresh `Q_t` in `secret/<t>.seal`, and `R_t`, its hash, in
/// `secret/<t>.key` (both readable by the referee only). Returns `R_t`.
pub fn fresh_secret(game: &Game, turn: u32) -> Result<Bytes32> {
    let seal = dice::fresh_secret().context("the operating system gave no random bytes")?;
    write_atomic_mode(
        &game.seal_path(turn),
        format!("{}\n", dice::to_hex(&seal)).as_bytes(),
        Some(0o600),
    )?;
    let secret = secret_of_seal(&seal);
    write_atomic_mode(
        &game.secret_path(turn),
        format!("{}\n", dice::to_hex(&secret)).as_bytes(),
        Some(0o600),
    )?;
    Ok(secret)
}

/// The sealing secret `Q_t` of turn `turn`, checked against its secret `R_t`; none for a turn whose
/// secret was made without one (before pbem sealed rolls, or a bundled scenario's).
pub fn seal_of(game: &Game, turn: u32, secret: &Bytes32) -> Result<Option<Bytes32>> {
    let path = game.seal_path(turn);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let shown = game.shown(&path);
    let Some(seal) = dice::from_hex(&text) else {
        bail!("{shown} does not hold 64 hex digits");
    };
    if &secret_of_seal(&seal) != secret {
        bail!("{shown} is not the sealing secret of turn {turn}: its hash is not the turn's secret (was one of them replaced by hand?)");
    }
    Ok(Some(seal))
}

/// The sealed rolls of a turn's events, in the order they were drawn.
pub fn of_events(events: &[Event]) -> Vec<&Roll> {
    events
        .iter()
        .flat_map(|e| &e.rolls)
        .filter(|r| r.sealed)
        .collect()
}

/// The count and commitment of sealed rolls: `(N, H("pbem-dice/sealed/list", Q_t, u64be(N),
/// line_1, ..., line_N))`, in hex.
pub fn commitment<'a>(
    seal: &Bytes32,
    rolls: impl IntoIterator<Item = &'a Roll>,
) -> (usize, String) {
    let lines: Vec<String> = rolls.into_iter().map(Roll::line).collect();
    let n = (lines.len() as u64).to_be_bytes();
    let mut fields: Vec<&[u8]> = Vec::with_capacity(3 + lines.len());
    fields.push(b"pbem-dice/sealed/list");
    fields.push(seal);
    fields.push(&n);
    fields.extend(lines.iter().map(|l| l.as_bytes()));
    (lines.len(), dice::to_hex(&tuple_hash(&fields)))
}

/// The value of the header's `sealed:` line for a turn's events, `N SHA`; none when the turn had no
/// sealed rolls, so that the header of such a turn is the one it always was.
pub fn header_value(events: &[Event], seal: Option<&Bytes32>) -> Result<Option<String>> {
    let rolls = of_events(events);
    if rolls.is_empty() {
        return Ok(None);
    }
    let Some(seal) = seal else {
        bail!("internal error: a sealed roll in a turn without a sealing secret");
    };
    let (n, digest) = commitment(seal, rolls);
    Ok(Some(format!("{n} {digest}")))
}

/// One turn's sealed list, as `pbem unseal` writes it and `pbem verify --sealed` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedList {
    pub game: String,
    pub turn: u32,
    /// `S_t`, hex, as the turn's header gives it.
    pub seed: String,
    /// `Q_t`, hex: the turn's sealing secret, revealed.
    pub seal: String,
    pub rolls: Vec<Roll>,
}

impl SealedList {
    /// The list as text: the format line, game, turn, seed, seal, the count and commitment, one
    /// line per roll, and `end`.
    pub fn text(&self) -> String {
        let seal = dice::from_hex(&self.seal).unwrap_or_default();
        let (n, digest) = commitment(&seal, &self.rolls);
        let mut s = format!(
            "{FORMAT}\ngame: {}\nturn: {}\nseed: {}\nseal: {}\nsealed: {n} {digest}\n",
            self.game, self.turn, self.seed, self.seal
        );
        for r in &self.rolls {
            s.push_str(&r.line());
            s.push('\n');
        }
        s.push_str("end\n");
        s
    }
}

/// Reads every sealed list in `text` (an unsealed file or mail may hold several turns).
pub fn parse(text: &str) -> Vec<SealedList> {
    let mut out = Vec::new();
    let mut current: Option<SealedList> = None;
    for line in text.lines().map(str::trim) {
        if line == FORMAT {
            out.extend(current.take());
            current = Some(SealedList {
                game: String::new(),
                turn: 0,
                seed: String::new(),
                seal: String::new(),
                rolls: Vec::new(),
            });
            continue;
        }
        let Some(list) = current.as_mut() else {
            continue;
        };
        if line == "end" {
            out.extend(current.take());
            continue;
        }
        if let Some(rest) = line.strip_prefix("roll ") {
            if let Some(roll) = parse_roll(rest) {
                list.rolls.push(roll);
            }
            continue;
        }
        match line.split_once(": ") {
            Some(("game", v)) => list.game = v.to_string(),
            Some(("turn", v)) => list.turn = v.parse().unwrap_or(0),
            Some(("seed", v)) => list.seed = v.to_string(),
            Some(("seal", v)) => list.seal = v.to_string(),
            _ => {}
        }
    }
    out.extend(current);
    out
}

/// `<label>: d6 d6 -> 5 4`.
fn parse_roll(rest: &str) -> Option<Roll> {
    let (label, dice) = rest.rsplit_once(": ")?;
    let (sides, faces) = dice.split_once(" -> ")?;
    let sides: Vec<u32> = sides
        .split_whitespace()
        .map(|d| d.strip_prefix('d')?.parse().ok())
        .collect::<Option<_>>()?;
    let faces: Vec<u32> = faces
        .split_whitespace()
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    if sides.len() != faces.len() || sides.contains(&0) {
        return None;
    }
    Some(Roll {
        label: label.to_string(),
        dice: sides
            .into_iter()
            .zip(faces)
            .map(|(sides, face)| Die { sides, face })
            .collect(),
        sealed: true,
    })
}

/// What a report's header gives to check a sealed list against.
#[derive(Debug, Clone, Copy)]
pub struct Against<'a> {
    pub game: &'a str,
    pub turn: u32,
    /// `R_t`, hex.
    pub secret: &'a str,
    /// `S_t`, hex.
    pub seed: &'a str,
    /// The `sealed:` line's value, `N SHA`; empty when the header has none.
    pub sealed: &'a str,
}

/// Checks a sealed list against a report's header: the same game, turn and seed, the seal whose hash
/// is the secret, the count and commitment of the header, and each roll re-derived from its key.
/// Returns the problems found, each a sentence.
pub fn check(list: &SealedList, h: Against) -> Vec<String> {
    let mut problems = Vec::new();
    if list.game != h.game || list.turn != h.turn {
        problems.push(format!(
            "the sealed list is of game '{}' turn {}, the report of game '{}' turn {}",
            list.game, list.turn, h.game, h.turn
        ));
        return problems;
    }
    let (Some(seed), Some(seal)) = (dice::from_hex(h.seed), dice::from_hex(&list.seal)) else {
        problems.push("the report's seed or the list's seal is not 64 hex digits".into());
        return problems;
    };
    if list.seed != h.seed {
        problems.push("the sealed list's seed is not the report's".into());
    }
    if dice::to_hex(&secret_of_seal(&seal)) != h.secret {
        problems.push(
            "the sealed list's seal is not the one the turn's secret was made from: its hash is not R_t"
                .into(),
        );
    }
    let (n, digest) = commitment(&seal, &list.rolls);
    let stated = format!("{n} {digest}");
    if h.sealed.is_empty() {
        problems.push(format!(
            "the report counts no sealed rolls, the list gives {n}"
        ));
    } else if stated != h.sealed {
        problems.push(format!(
            "the sealed list ({stated}) is not the one the report committed to ({}): a roll was added, dropped or changed",
            h.sealed
        ));
    }
    for r in &list.rolls {
        let mut roller = Roller::from_key(key(&seed, &seal, &r.label));
        let derived: Vec<u32> = r.dice.iter().map(|d| roller.die(d.sides)).collect();
        let shown: Vec<u32> = r.dice.iter().map(|d| d.face).collect();
        if derived != shown {
            problems.push(format!(
                "the sealed roll {} says {:?}, the dice give {:?}",
                r.label, shown, derived
            ));
        }
    }
    problems
}

/// The sealed rolls of a resolved turn, read back from its log (`turns/<t>/log.toml`).
pub fn from_log(game: &Game, turn: u32) -> Result<Vec<Roll>> {
    let path = game.log_path(turn);
    let shown = game.shown(&path);
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {shown}"))?;
    let log: toml::Table = toml::from_str(&text).with_context(|| format!("{shown} is not TOML"))?;
    let mut out = Vec::new();
    let events = log.get("event").and_then(|e| e.as_array());
    for e in events.into_iter().flatten() {
        let rolls = e.get("rolls").and_then(|r| r.as_array());
        for r in rolls.into_iter().flatten() {
            if r.get("sealed").and_then(|s| s.as_bool()) != Some(true) {
                continue;
            }
            let label = r.get("label").and_then(|l| l.as_str());
            let dice = r.get("dice").and_then(|d| d.as_str());
            let faces = r.get("faces").and_then(|f| f.as_array());
            let (Some(label), Some(dice), Some(faces)) = (label, dice, faces) else {
                bail!("{shown}: a sealed roll without its label, dice or faces");
            };
            let faces: Vec<String> = faces
                .iter()
                .map(|f| f.as_integer().map(|n| n.to_string()).unwrap_or_default())
                .collect();
            let Some(roll) = parse_roll(&format!("{label}: {dice} -> {}", faces.join(" "))) else {
                bail!("{shown}: the sealed roll {label} is not dice and faces");
            };
            out.push(roll);
        }
    }
    Ok(out)
}

/// When turn `turn`'s sealed rolls may be unsealed: `Ok(())`, or why not yet.
pub fn due(game: &Game, turn: u32) -> Result<(), String> {
    let current = game.current_turn_or_last().map_err(|e| format!("{e:#}"))?;
    // The game is over (`pbem end`): every turn's time has come.
    if game.ended().is_ok_and(|e| e.is_some()) {
        return Ok(());
    }
    match game.config.dice.unseal_after {
        None => Err(format!(
            "the sealed rolls of turn {turn} are sealed until the game is over (game.toml sets no `[dice] unseal_after`): `pbem end` publishes them with the end of the game, or add --force to publish them now"
        )),
        Some(n) if current <= turn.saturating_add(n) => Err(format!(
            "the sealed rolls of turn {turn} stay sealed until turn {} is resolved (`[dice] unseal_after = {n}`); add --force to publish them earlier",
            turn.saturating_add(n)
        )),
        Some(_) => Ok(()),
    }
}

/// What `pbem unseal` did for one turn.
#[derive(Debug)]
pub struct Unsealed {
    pub turn: u32,
    pub count: usize,
    /// The file written, none when the turn had no sealed rolls.
    pub path: Option<PathBuf>,
}

/// The file a turn's sealed list is written to: `unsealed/<t>.txt`.
pub fn path_of(game: &Game, turn: u32) -> PathBuf {
    game.dir.join("unsealed").join(format!("{turn}.txt"))
}

/// Writes the sealed list of turn `only`, or of every resolved turn that is due, to
/// `unsealed/<t>.txt`. A turn not due is refused unless `force`; without `only`, turns not due are
/// left sealed (and an error when none is due).
pub fn unseal(game: &Game, only: Option<u32>, force: bool) -> Result<Vec<Unsealed>> {
    let _lock = crate::game::fsio::GameLock::acquire(&game.dir)?;
    let current = game.current_turn_or_last()?;
    let turns: Vec<u32> = match only {
        Some(t) if !game.is_resolved(t) => {
            bail!("turn {t} is not resolved: it has no sealed rolls to publish")
        }
        Some(t) => vec![t],
        None => (game.config.first_turn..current)
            .filter(|&t| game.is_resolved(t))
            .collect(),
    };
    let mut out = Vec::new();
    let mut refused = Vec::new();
    for t in turns {
        if !force {
            if let Err(why) = due(game, t) {
                refused.push(why);
                continue;
            }
        }
        let rolls = from_log(game, t)?;
        let count = rolls.len();
        let path = if rolls.is_empty() {
            None
        } else {
            let record = crate::engine::inputs::load_record(game, t)?;
            let secret = dice::from_hex(&record.secret)
                .context("the turn record's secret is not 64 hex digits")?;
            let Some(seal) = seal_of(game, t, &secret)? else {
                bail!(
                    "{} is missing: the sealed rolls of turn {t} cannot be published without it",
                    game.shown(&game.seal_path(t))
                );
            };
            let list = SealedList {
                game: game.config.game.clone(),
                turn: t,
                seed: record.seed,
                seal: dice::to_hex(&seal),
                rolls,
            };
            let path = path_of(game, t);
            crate::game::fsio::write_atomic(&path, list.text().as_bytes())?;
            Some(path)
        };
        out.push(Unsealed {
            turn: t,
            count,
            path,
        });
    }
    if out.is_empty() {
        match refused.first() {
            Some(why) => bail!("{why}"),
            None => bail!("no turn is resolved yet: there is nothing to unseal"),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dice_box::DiceBox;
    use crate::rule::Rule;

    const SEED: [u8; 32] = [5; 32];
    const SEAL: [u8; 32] = [6; 32];

    fn events() -> Vec<Event> {
        let mut dice = DiceBox::new(SEED).with_seal(Some(SEAL));
        let rule = Rule::new("TEST", "1", "a test rule");
        vec![
            Event::new(rule, "combat", "the attacker rolls")
                .roll(dice.roll("combat/a", &[6]).unwrap()),
            Event::new(rule, "detect", "a patrol reports riders to the north")
                .roll(dice.roll_sealed("detect/b", &[6, 6]).unwrap()),
        ]
    }

    fn list() -> SealedList {
        SealedList {
            game: "g".into(),
            turn: 3,
            seed: dice::to_hex(&SEED),
            seal: dice::to_hex(&SEAL),
            rolls: of_events(&events()).into_iter().cloned().collect(),
        }
    }

    fn problems(l: &SealedList, sealed: &str) -> Vec<String> {
        let secret = dice::to_hex(&secret_of_seal(&SEAL));
        check(
            l,
            Against {
                game: "g",
                turn: 3,
                secret: &secret,
                seed: &dice::to_hex(&SEED),
                sealed,
            },
        )
    }

    #[test]
    fn only_the_sealed_rolls_are_counted_and_committed() {
        let ev = events();
        assert_eq!(of_events(&ev).len(), 1);
        let value = header_value(&ev, Some(&SEAL)).unwrap().unwrap();
        assert!(value.starts_with("1 "), "{value}");
        assert!(header_value(&ev[..1], None).unwrap().is_none());
        // The commitment hides the faces: it depends on the sealing secret.
        assert_ne!(header_value(&ev, Some(&[7; 32])).unwrap().unwrap(), value);
    }

    #[test]
    fn a_sealed_list_reads_back_and_checks_against_the_header() {
        let l = list();
        let back = parse(&l.text());
        assert_eq!(back, vec![l.clone()]);
        let value = header_value(&events(), Some(&SEAL)).unwrap().unwrap();
        assert_eq!(problems(&back[0], &value), Vec::<String>::new());
    }

    #[test]
    fn a_changed_face_in_the_sealed_list_is_caught() {
        let value = header_value(&events(), Some(&SEAL)).unwrap().unwrap();
        let mut bad = list();
        let die = &mut bad.rolls[0].dice[0];
        die.face = die.face % 6 + 1;
        assert_eq!(problems(&bad, &value).len(), 2);
    }

    #[test]
    fn a_dropped_sealed_roll_is_caught_by_the_commitment() {
        let value = header_value(&events(), Some(&SEAL)).unwrap().unwrap();
        let mut short = list();
        short.rolls.clear();
        assert_eq!(problems(&short, &value).len(), 1);
    }

    #[test]
    fn a_seal_that_is_not_the_secrets_is_caught() {
        let value = header_value(&events(), Some(&SEAL)).unwrap().unwrap();
        let mut other = list();
        other.seal = dice::to_hex(&[8; 32]);
        let found = problems(&other, &value);
        assert!(
            found.iter().any(|p| p.contains("its hash is not R_t")),
            "{found:?}"
        );
    }
}
