//! `pbem drop`: a player has left; his power is run for him until a new player takes it over. In
//! Empires in Arms, by another power until the next economic phase (EiA 19.2.1): by default the power
//! that wins the roll of 14.3.1, made from the turn's dice when the turn is resolved; in any other
//! ruleset, by its standing orders and the SOP until the turn `[replacement]` sets (`pbem
//! players/drop`). `--to` is the referee's choice, in any ruleset, which overrides the roll.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::game::acts::{self, Act};
use crate::game::fsio::GameLock;
use crate::game::Game;

/// Drop a power whose player left: it is run for him until a new player takes it over (pbem replace).
///
/// His password no longer counts, a notice in the outbox tells him so, and his unsent answers saying his orders stand
/// are withdrawn. With --to, the power named runs it: its player sends its orders with his own
/// password and receives its reports. Without --to, its standing orders and the game's SOP run it.
/// How long: in Empires in Arms until the next economic phase (EiA 19.2.1), and without --to its
/// controller from the next turn on is rolled for when the turn is resolved (EiA 14.3.1: one d6 per
/// other major power, plus its [ump-control] modifier of tables.toml, highest wins); in every other
/// game until the turn game.toml's [replacement] sets (econ_every; pbem players/drop).
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem drop games/my-game britain --to russia",
    "pbem drop games/my-game britain   (the SOP runs it; in EiA a controller is rolled for)"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// The power whose player left.
    pub power: String,
    /// The power that runs it meanwhile (the referee's choice; in Empires in Arms instead of the EiA
    /// 14.3.1 roll): its player sends the orders with his own password.
    #[arg(long)]
    pub to: Option<String>,
}

/// `turns/<t>/drop.toml`: the drop begun, written before anything changes and removed once its
/// notice is written, so that a drop killed midway (its act written, its farewell not) is finished by
/// running it again, and no other act nor the turn goes on meanwhile (`referee::underway`).
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Plan {
    power: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::load(&args.game)?;
    let _lock = GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    let plan_path = crate::referee::underway::drop_path(&game, turn);
    if let Some(plan) = crate::referee::underway::read_plan::<Plan>(&game, &plan_path)? {
        anyhow::ensure!(
            plan.power == args.power && plan.to == args.to,
            "a `pbem drop` of {} was killed midway ({} holds it): finish it first by running `pbem drop {} {}{}` again. Nothing was changed.",
            plan.power,
            game.printed(&plan_path),
            args.game.display(),
            plan.power,
            plan.to.as_deref().map(|t| format!(" --to {t}")).unwrap_or_default()
        );
    } else {
        crate::referee::underway::refuse(&game, &format!("{} cannot be dropped", args.power), "")?;
        game.refuse_if_ended(&format!("{} cannot be dropped", args.power))?;
    }
    let mut state = game.load_state(turn)?;
    let until =
        crate::engine::players::drop_power(&game, &mut state, &args.power, args.to.as_deref())?;
    if !plan_path.is_file() {
        let plan = Plan {
            power: args.power.clone(),
            to: args.to.clone(),
        };
        crate::game::fsio::write_atomic(&plan_path, crate::game::load::to_toml(&plan)?.as_bytes())?;
    }
    // An act on the turn, not an edit of its state (which the last turn's record lists); once (a
    // rerun of a drop killed after it finds it the turn's last).
    let controlled = state.controlled.get(&args.power).cloned();
    let act = Act {
        kind: "drop".into(),
        rule: crate::engine::players::dropped_rule(&game).cite(),
        text: format!("{} dropped from turn {turn} until turn {until}", args.power),
        power: Some(args.power.clone()),
        controlled,
        ..Act::default()
    };
    if acts::load(&game.dir, turn)?.acts.last() != Some(&act) {
        acts::append(&game, turn, act)?;
    }
    let game = Game::load(&game.dir)?;
    // EiA 19.2.1 in a game of EiA, pbem's own rule in any other.
    let rule = crate::engine::players::dropped_rule(&game).cite();
    // His welcome, if it never went, goes no more: the password it carries no longer stands.
    let welcomes = crate::mail::farewell::withdraw_welcomes(&game, &args.power, &rule)?;
    if !welcomes.is_empty() {
        crate::say!(
            "Withdrawn before it went, its password masked, since the player it welcomes left: {}.",
            welcomes.join(", ")
        );
    }
    let welcomed = crate::mail::farewell::welcome_went(&game, &args.power)?;
    // The player who left hears it at once (told he does not play the power when his welcome had
    // not gone); an answer that told him his orders stand, unsent, is withdrawn (they no longer do).
    let after = game.load_state(turn)?;
    if let Some(f) = crate::mail::farewell::farewell(&game, &after, turn, &args.power, welcomed)? {
        crate::say!(
            "A notice to the player who left is in the outbox ({}){}.",
            game.printed(&f.notice),
            match f.withdrawn.len() {
                0 => String::new(),
                n => format!("; {n} unsent answer(s) saying his orders stand are withdrawn"),
            }
        );
    }
    crate::referee::underway::finished(&game, &plan_path)?;
    match &args.to {
        Some(by) => crate::say!("{} is run by {by} from turn {turn} until turn {until} ({rule}): {} player sends its orders with his own password and receives its report.", args.power, crate::words::Possessive(by)),
        None if state.controlled.get(&args.power).is_some_and(|c| c.by_roll) => crate::say!("{} is run by {} this turn; its controller until turn {until} is rolled for when turn {turn} is resolved (EiA 19.2.1, 14.3.1).", args.power, game.ruleset.without_orders().its),
        None => crate::say!("{} is run by {} from turn {turn} until turn {until} ({rule}).", args.power, game.ruleset.without_orders().its),
    }
    crate::say!(
        "Find a new player, then: pbem replace {} {} --email <address>",
        args.game.display(),
        args.power
    );
    Ok(ExitCode::SUCCESS)
}
