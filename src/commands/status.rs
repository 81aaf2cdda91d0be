//! `pbem status`: where a game stands: current turn, deadline, commitment, and per power whether
//! orders are in, when, and from which message (issue 4.8).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::Game;
use crate::mail::status::OrdersIn;

/// Show the current turn, its deadline and dice commitment, and which powers have orders in.
///
/// Per power (per player of a power with several, `france.ney`): in and authenticated, in but
/// rejected (and why), late, or missing.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem status games/my-game"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let turn = game.current_turn()?;
    let c = &game.config;
    crate::say!("{} ({}), ruleset {}", c.title, c.game, game.ruleset.name());
    if let Some(e) = game.ended()? {
        crate::say!(
            "The game is over: the referee ended it {} ({}). Turn {turn} is not played. {}",
            e.when(),
            e.reason,
            e.reopen(&game.dir)
        );
        if e.played {
            crate::say!(
                "Last resolved: turn {} (record {})",
                e.after,
                game.printed(&game.record_path(e.after))
            );
        }
        if let Ok(st) = game.load_state(turn) {
            let (w, nw) = super::power_columns(&game);
            say_players(&game, &st, (w, nw));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let past = match c.deadline_of(turn) {
        Some(d) => crate::clock::now()? >= d.with_timezone(&chrono::Utc),
        None => false,
    };
    if past {
        crate::say!(
            "Turn {turn} ({}): its deadline has passed; it waits to be resolved (pbem turn).",
            c.date_of(turn)
        );
    } else {
        crate::say!("Turn {turn} ({}) waits for orders.", c.date_of(turn));
    }
    match c.deadline_of(turn) {
        Some(d) => crate::say!("Deadline: {}", d.format("%A %Y-%m-%d %H:%M %Z")),
        None => crate::say!("Deadline: not set"),
    }
    match game.commitment(turn) {
        Ok(x) => {
            let hex = crate::dice::to_hex(&x);
            crate::say!("Dice commitment for turn {turn}: {hex}");
            // The rules fixed with it (`game::rules_fixed`), and whether they still hold.
            if let Some(rules) = crate::game::scheme::rules_digest(&game, turn, &hex) {
                crate::say!("Rules for turn {turn}: {rules}");
            }
            // The scheme or the rules changed since the commitment: resolve would refuse.
            if let Ok(Some(why)) = crate::game::scheme::changed(&game, turn) {
                crate::say!("CHANGED since the commitment: {why}");
            }
        }
        Err(e) => crate::say!("Dice commitment for turn {turn}: MISSING ({e})"),
    }
    if crate::engine::due::secret_is_public(&game, turn) {
        crate::say!("Dice secret of turn {turn}: PUBLIC, the bundled demo's: every player can compute the dice; `pbem rekey` gives a fresh one.");
    }
    if turn > c.first_turn {
        crate::say!(
            "Last resolved: turn {} (record {})",
            turn - 1,
            game.printed(&game.record_path(turn - 1))
        );
    }
    crate::say!("Orders:");
    // Each file in is read as the turn will read it: in and authenticated, or in but rejected.
    let checks = match game.load_state(turn) {
        Ok(st) => crate::engine::inputs::read_orders(&game, &st, turn)?,
        Err(_) => Vec::new(),
    };
    let store = crate::mail::ingest_store::RawStore::open(&game)?;
    // Both tables' columns as wide as the game's longest power and name.
    let (w, nw) = super::power_columns(&game);
    for s in crate::mail::status::orders_status(&game, turn)? {
        let check = checks
            .iter()
            .find(|o| o.power == s.power && o.player == s.player)
            .and_then(|o| o.check.as_ref());
        let filed = game.player_orders_path(turn, &s.power, s.player.as_deref());
        let verdict = match check {
            Some(ch) if ch.power.is_some() => "in, authenticated".to_string(),
            Some(ch) => format!(
                "in but REJECTED ({}): the turn ignores it",
                ch.diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .map_or("it does not authenticate", |d| d.message.as_str())
            ),
            None => String::new(),
        };
        let dropped = s
            .dropped
            .as_ref()
            .map(|c| crate::mail::status::dropped_text(&game, c));
        let state = match &s.orders {
            OrdersIn::Mail(r) => format!(
                "in: received {}, message {} ({}), {}; {}",
                crate::mail::ack::in_zone(&game, None, r.arrival_time()),
                if r.message_id.is_empty() {
                    "without a Message-ID".to_string()
                } else {
                    format!("<{}>", r.message_id)
                },
                store.printed(&game, &r.sha256),
                if filed.is_file() {
                    game.printed(&filed)
                } else {
                    "not filed yet: run pbem ingest".to_string()
                },
                if verdict.is_empty() {
                    "authenticated"
                } else {
                    &verdict
                },
            ),
            OrdersIn::File(path) => format!("{}: {} (not from mail)", verdict, game.printed(path)),
            OrdersIn::Missing | OrdersIn::NotDue if dropped.is_some() => {
                dropped.clone().unwrap_or_default()
            }
            OrdersIn::Missing if s.late > 0 => format!(
                "LATE: {} submission(s) after the deadline, none on time",
                s.late
            ),
            OrdersIn::Missing if past => "missing (the deadline has passed)".to_string(),
            OrdersIn::Missing => "missing".to_string(),
            OrdersIn::NotDue => "none due this turn (standing orders only)".to_string(),
        };
        crate::say!("  {:<w$} {:<nw$} {state}", s.stem(), s.name);
        if let (Some(d), OrdersIn::Mail(_) | OrdersIn::File(_)) = (&dropped, &s.orders) {
            crate::say!("  {:<w$} {:<nw$} {d}", "", "");
        }
        let mut others = Vec::new();
        if s.rejected > 0 {
            others.push(format!(
                "{} rejected (the last: {})",
                s.rejected,
                s.rejected_why.as_deref().unwrap_or("no reason recorded")
            ));
        }
        // Said once: the LATE line above already counts them.
        let said_late = matches!(s.orders, OrdersIn::Missing) && dropped.is_none();
        if s.late > 0 && !said_late {
            others.push(format!("{} late", s.late));
        }
        if s.held_for_next > 0 {
            others.push(format!("{} held for turn {}", s.held_for_next, turn + 1));
        }
        if !others.is_empty() {
            crate::say!("  {:<w$} {:<nw$} also: {}", "", "", others.join(", "));
        }
    }
    if let Ok(st) = game.load_state(turn) {
        say_players(&game, &st, (w, nw));
    }
    Ok(ExitCode::SUCCESS)
}

/// Who plays each power now (EiA 19.2): its players, or the replacement who took it over; a new
/// player waiting to take it over, from which turn; and who runs it meanwhile.
/// `(w, nw)`: the widths of its columns of powers and names.
fn say_players(game: &Game, state: &crate::game::state::State, (w, nw): (usize, usize)) {
    crate::say!("Players:");
    for p in &game.config.powers {
        let mut who = if p.has_commands() {
            p.commands
                .iter()
                .map(|c| format!("{} {}", c.id, c.at(state.turn).address))
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            crate::engine::players::players_of(&game.config, state, &p.id).join(", ")
        };
        if let Some(incoming) = state.incoming.get(&p.id) {
            who = format!(
                "{} (takes it over at turn {}, {})",
                incoming.players.join(", "),
                incoming.from,
                crate::engine::players::replaced_rule(game).cite()
            );
        }
        if let Some(c) = state.controlled.get(&p.id) {
            // Nobody plays it while its departed player is gone (EiA 19.2.1): the line says who runs it.
            let before = match who.is_empty() {
                true => String::new(),
                false => format!("{who}; "),
            };
            who = match c.by.as_deref() {
                Some(by) => format!("{before}run by {by} until turn {}", c.until),
                // EiA 14.3.1: the roll at this turn's resolution names who runs it from the next.
                None if c.by_roll => format!(
                    "{before}run by {} this turn, then until turn {} by the power the roll at its resolution names (EiA 14.3.1)",
                    game.ruleset.without_orders().its,
                    c.until
                ),
                None => format!(
                    "{before}run by {} until turn {}",
                    game.ruleset.without_orders().its,
                    c.until
                ),
            };
        }
        crate::say!("  {:<w$} {:<nw$} {who}", p.id, p.name);
    }
}
