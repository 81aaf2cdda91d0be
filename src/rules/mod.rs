//! Rulesets: the code of one game system over the shared engine. The [`Ruleset`] trait is the
//! boundary: the engine (`engine/`) knows turns, orders files, dice, events and reports; a ruleset knows
//! its order verbs, its tables, its decision points and how a turn is adjudicated.

pub mod eia;
pub mod gitm;
pub mod ngg;
pub mod pog;
pub mod standing;
pub mod wbts;
pub mod wording;

use anyhow::{bail, Result};

use crate::diag::{Diagnostic, Source};
use crate::game::config::GameConfig;
use crate::game::state::State;
use crate::game::Game;

/// The boundary between the engine and a ruleset, with the values it names: the model's
/// (`game/ruleset.rs`), so that `Game` holds its ruleset without importing the rulesets.
pub use crate::game::ruleset::{
    is_naval, GameOption, MapMark, OrdersCheck, PowerOrders, Resolution, Ruleset, UnitView,
    NAVAL_KINDS,
};

/// Reads and checks the bytes of an orders file: the one path from bytes to orders that `check`, the
/// mail ingest (on the bytes it files) and the turn all take, so that what an answer says stands,
/// stands. Bytes that do not decode (`orders::decode`) give its one diagnostic, shown against
/// `orders::printable`.
pub fn check_file(game: &Game, state: &State, shown: &str, bytes: &[u8]) -> (Source, OrdersCheck) {
    check_file_with(&*game.ruleset.checker(game, state), shown, bytes)
}

/// As [`check_file`], with a checker of the state ([`Ruleset::checker`]) made once for many files.
pub fn check_file_with(
    checker: &dyn Fn(&Source) -> OrdersCheck,
    shown: &str,
    bytes: &[u8],
) -> (Source, OrdersCheck) {
    match crate::orders::decode(bytes) {
        Ok(text) => {
            let source = Source::new(shown, text);
            let check = checker(&source);
            (source, check)
        }
        Err(d) => (
            Source::new(shown, crate::orders::printable(bytes)),
            OrdersCheck {
                power: None,
                player: None,
                entropy: None,
                password_line: false,
                accepted: Vec::new(),
                diagnostics: vec![d],
            },
        ),
    }
}

/// Checks an orders file as every ruleset does: the header first; the order lines only once it
/// authenticates a power (their diagnostics would tell an impostor where the power's units stand),
/// read by `parse` for that power. `parse` returns the orders that stand and the diagnostics.
pub fn check_orders_with<O: std::fmt::Display>(
    game: &Game,
    state: &State,
    source: &Source,
    parse: impl FnOnce(
        &str,
        &[crate::orders::Line],
    ) -> (Vec<crate::orders::Located<O>>, Vec<Diagnostic>),
) -> OrdersCheck {
    let all = crate::orders::split(&source.text);
    let (header, lines, mut diagnostics) = crate::orders::Header::take(&source.text, all.clone());
    let (power, mut more) = crate::orders::check_header_with(
        &header,
        &game.config,
        state.turn,
        source.text.len(),
        &|p| crate::game::owners::password_hashes(&game.config, state, p),
        &|p, sha| crate::game::submission::stands_in(game, state, p, sha, &source.text),
    );
    diagnostics.append(&mut more);
    let player = power.as_deref().and_then(|p| {
        let pc = game.config.power(p)?;
        let id = &header.player.as_ref()?.value;
        Some(pc.command(id)?.id.clone())
    });
    let mut accepted = Vec::new();
    if let Some(p) = &power {
        let (ok, mut more) = parse(p, &lines);
        diagnostics.append(&mut more);
        crate::orders::prose::pass_over(&all, game.ruleset.verbs(), &mut diagnostics);
        let command = crate::game::command::Command::of(game, state, p, player.as_deref());
        for o in &ok {
            let text = o.value.to_string();
            match command.refuses(&text, o.span.clone()) {
                Some(d) => diagnostics.push(d),
                None => accepted.push((source.line_col(o.span.start).0, text)),
            }
        }
    }
    diagnostics.sort_by_key(|d| d.span.start);
    OrdersCheck {
        power,
        player,
        entropy: header.entropy.map(|e| e.value),
        password_line: header.password.is_some(),
        accepted,
        diagnostics,
    }
}

/// A ruleset's `tables.toml`, parsed and checked by `validate`; the first problem is an error located
/// in the file.
pub fn load_tables<T: serde::de::DeserializeOwned>(
    src: &Source,
    validate: impl Fn(&T) -> Vec<Diagnostic>,
) -> Result<T> {
    let tables: T = crate::game::load::parse_toml(src)?;
    if let Some(e) = crate::game::load::first_error(src, &validate(&tables)) {
        return Err(e.into());
    }
    Ok(tables)
}

/// The game's `[sop]` settings, each checked by the ruleset's `check` (which gives a hint when it
/// refuses one); the first bad setting is an error located in game.toml.
pub fn load_sop(
    config: &GameConfig,
    config_src: &Source,
    check: impl Fn(&str, &str) -> Result<(), String>,
) -> Result<std::collections::BTreeMap<String, String>> {
    let mut sop = std::collections::BTreeMap::new();
    let mut diags = Vec::new();
    for (key, value) in &config.sop {
        match check(key, value.get_ref()) {
            Ok(()) => {
                sop.insert(key.clone(), value.get_ref().clone());
            }
            Err(hint) => diags.push(
                Diagnostic::error(
                    format!("bad SOP setting {key} = \"{}\"", value.get_ref()),
                    value.span(),
                )
                .hint(hint),
            ),
        }
    }
    if let Some(e) = crate::game::load::first_error(config_src, &diags) {
        return Err(e.into());
    }
    Ok(sop)
}

/// The order lines of an orders file, its header taken off (for `Ruleset::resolve`, which reads
/// files that were checked already).
pub fn order_lines(source: &Source) -> Vec<crate::orders::Line> {
    let lines = crate::orders::split(&source.text);
    crate::orders::Header::take(&source.text, lines).1
}

/// What a ruleset's parser makes of a power's order lines: the orders that stand, and the diagnostics.
pub type Parsed<O> = (Vec<crate::orders::Located<O>>, Vec<Diagnostic>);

/// The orders that stand in a checked file, read again by `parse` (the file, its order lines, the
/// power): what `Ruleset::resolve` and `check --forecast` act on. The rejected ones were answered when
/// the file was checked.
pub fn standing_orders<O>(
    source: &Source,
    power: &str,
    parse: impl FnOnce(&Source, &[crate::orders::Line], &str) -> Parsed<O>,
) -> Vec<O> {
    let lines = order_lines(source);
    let (ok, _) = parse(source, &lines, power);
    ok.into_iter().map(|o| o.value).collect()
}

/// [`standing_orders`] of every power's file, by power (one file a power: the turn merges a power's
/// players' files before it resolves).
pub fn standing_orders_by_power<O>(
    orders: &[PowerOrders],
    parse: impl Fn(&Source, &[crate::orders::Line], &str) -> Parsed<O>,
) -> std::collections::BTreeMap<String, Vec<O>> {
    orders
        .iter()
        .map(|po| {
            let mine = standing_orders(&po.source, &po.power, &parse);
            (po.power.clone(), mine)
        })
        .collect()
}

impl Game {
    /// Loads and checks a game folder (`Game::load_with`) with the ruleset its `game.toml` names,
    /// from the registry [`load`]: the rulesets' layer chooses the ruleset, not the model.
    pub fn load(dir: &std::path::Path) -> Result<Game> {
        Game::load_with(dir, load)
    }

    /// As [`Game::load`], under rules a commitment fixed, restored from those the game kept
    /// (`game::rules_kept`).
    pub fn load_kept(
        dir: &std::path::Path,
        kept: &crate::game::rules_kept::Restored,
    ) -> Result<Game> {
        Game::load_under(dir, Some(kept), load)
    }
}

/// Each power's name as the texts of a ruleset at wording `now` give it (id, name): the scenario's
/// (game.toml's `name`, as the welcome mail and every answer name it) from wording 1 on; none in a
/// turn `audit` tells again in wording 0, whose texts named each power by its id. NGG, WBTS and PoG
/// (their `names` and `name_of`).
pub fn power_names(game: &Game, now: u32) -> Vec<(String, String)> {
    if game.config.texts_wording(now) < 1 {
        return Vec::new();
    }
    game.config
        .powers
        .iter()
        .map(|p| (p.id.clone(), p.name.clone()))
        .collect()
}

/// The name of `power` as the texts of a ruleset at wording `now` give it (see [`power_names`]):
/// its id in wording 0, or when the game has no such power.
pub fn power_name<'a>(game: &'a Game, power: &'a str, now: u32) -> &'a str {
    if game.config.texts_wording(now) < 1 {
        return power;
    }
    game.config.power(power).map_or(power, |p| p.name.as_str())
}

/// Every ruleset's grammar of dice labels (`dice::labels`), in the registry's order.
pub const LABEL_GRAMMARS: [&crate::dice::labels::Grammar; 5] = [
    &eia::labels::GRAMMAR,
    &pog::labels::GRAMMAR,
    &ngg::labels::GRAMMAR,
    &wbts::labels::GRAMMAR,
    &gitm::labels::GRAMMAR,
];

/// The grammar of dice labels of the ruleset `id`, if pbem knows it.
pub fn label_grammar(id: &str) -> Option<&'static crate::dice::labels::Grammar> {
    LABEL_GRAMMARS.into_iter().find(|g| g.ruleset == id)
}

/// The ruleset named in `game.toml`, with its tables loaded and checked: the registry, one line per
/// ruleset.
pub fn load(config: &GameConfig, config_src: &Source, tables: &Source) -> Result<Box<dyn Ruleset>> {
    match config.ruleset.get_ref().as_str() {
        "eia" => Ok(Box::new(eia::Eia::load(config, config_src, tables)?)),
        "pog" => Ok(Box::new(pog::Pog::load(config, config_src, tables)?)),
        "ngg" => Ok(Box::new(ngg::Ngg::load(config, config_src, tables)?)),
        "wbts" => Ok(Box::new(wbts::Wbts::load(config, config_src, tables)?)),
        "gitm" => Ok(Box::new(gitm::Gitm::load(config, config_src, tables)?)),
        other => {
            let d = Diagnostic::error(format!("unknown ruleset '{other}'"), config.ruleset.span())
                .hint("pbem knows these rulesets: eia, pog, ngg, wbts, gitm");
            bail!(crate::diag::FileError::new(config_src, &d))
        }
    }
}
