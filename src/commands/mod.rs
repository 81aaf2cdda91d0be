//! The command line: one file per command, each with its arguments (clap derive) and a `run` that
//! validates them and calls the library. No adjudication happens here.

/// The `after_help` of a command: its examples, one per line. (clap reflows the lines of a doc
/// comment into one paragraph, which ran the examples together.)
macro_rules! examples {
    ($($line:literal),+ $(,)?) => {
        concat!("Examples:", $("\n  ", $line),+)
    };
}

pub mod accept_late;
pub mod audit;
pub mod check;
pub mod close;
pub mod completions;
pub mod demo;
pub mod drop;
pub mod end;
pub mod extend;
pub mod fetch;
pub mod ingest;
pub mod man;
pub mod new;
pub mod purge_passwords;
pub mod rekey;
pub mod remind;
pub mod reopen;
pub mod replace;
pub mod resolve;
pub mod rollback;
pub mod send;
pub mod status;
pub mod turn;
pub mod unseal;
pub mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit codes of pbem. [`exit::TABLE`] is what docs/REFEREE.md's table and `pbem --help` say (a test
/// holds them equal).
pub mod exit {
    pub const OK: u8 = 0;
    /// Anything went wrong (the error says what); also: stdout could not be written.
    pub const ERROR: u8 = 1;
    /// The command line is wrong (clap's code).
    pub const USAGE: u8 = 2;
    /// `check` rejected an order.
    pub const REJECTED: u8 = 3;
    /// `audit` or `verify` found a mismatch.
    pub const MISMATCH: u8 = 4;
    /// `send` (or `turn`, which sends) left messages undelivered; a rerun sends the rest.
    pub const UNDELIVERED: u8 = 5;

    /// Every exit code with its meaning, as docs/REFEREE.md lists them.
    pub const TABLE: [(u8, &str); 6] = [
        (OK, "success"),
        (ERROR, "error: the message on stderr says what went wrong"),
        (
            USAGE,
            "the command line is wrong (unknown option, missing argument)",
        ),
        (
            REJECTED,
            "`check`: an order is rejected (the other orders stand)",
        ),
        (MISMATCH, "`audit` or `verify`: a mismatch was found"),
        (
            UNDELIVERED,
            "`send` or `turn`: mail left undelivered or possibly delivered; a rerun sends what is left",
        ),
    ];

    /// The exit codes as the top-level `--help` ends with them.
    pub fn help() -> String {
        let mut text = String::from("Exit codes:");
        for (code, meaning) in TABLE {
            text.push_str(&format!("\n  {code}  {meaning}"));
        }
        text
    }
}

/// pbem: a turn adjudicator for play-by-email wargames.
///
/// The referee runs one command per turn; players' orders go in, one report per player comes out, with
/// every die roll auditable from a seed whose hash was published before the orders were due.
#[derive(Debug, Parser)]
#[command(name = "pbem", version, about, long_about)]
pub struct Cli {
    /// Print nothing but errors (and a new password, shown this once): the exit code says how it went.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Also print the routine lines (`send`: the deliveries made on earlier runs).
    #[arg(short, long, global = true)]
    pub verbose: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Demo(demo::Args),
    New(new::Args),
    Check(check::Args),
    Close(close::Args),
    Resolve(resolve::Args),
    Turn(turn::Args),
    Ingest(ingest::Args),
    Fetch(fetch::Args),
    Send(send::Args),
    Remind(remind::Args),
    Status(status::Args),
    Audit(audit::Args),
    Drop(drop::Args),
    Replace(replace::Args),
    Extend(extend::Args),
    Rollback(rollback::Args),
    AcceptLate(accept_late::Args),
    Rekey(rekey::Args),
    End(end::Args),
    Reopen(reopen::Args),
    Verify(verify::Args),
    Unseal(unseal::Args),
    PurgePasswords(purge_passwords::Args),
    Completions(completions::Args),
    Man(man::Args),
}

/// The whole command line as clap sees it, with what derive cannot say (the exit codes): what
/// `main` parses, and what `completions` and `man` describe.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let mut cli = Cli::command().after_help(format!(
        "Start with:  pbem demo\nEach command's options and examples:  pbem <command> --help\n\n{}",
        exit::help()
    ));
    // `pbem --help` lists each command on one line; its whole description is `pbem <command> --help`.
    for (name, line) in ONE_LINE {
        cli = cli.mut_subcommand(*name, |sub| {
            let long = sub
                .get_long_about()
                .or(sub.get_about())
                .cloned()
                .unwrap_or_default();
            sub.about(*line).long_about(long)
        });
    }
    cli
}

/// Each command as `pbem --help` lists it: one line (the conventions of cargo, git, rustup); its
/// doc comment is what `pbem <command> --help` says.
pub const ONE_LINE: &[(&str, &str)] = &[
    (
        "demo",
        "Play the first turns of a bundled scenario and show the reports",
    ),
    (
        "new",
        "Create a game from a scenario, with fresh passwords and welcome mails",
    ),
    (
        "check",
        "Check an orders file against the game, or against your own report",
    ),
    (
        "close",
        "Close a turn's orders and mail the closing list (pbem-dice/v2)",
    ),
    (
        "resolve",
        "Resolve the current turn: state, log, reports and their mail",
    ),
    (
        "turn",
        "Read the mail, resolve the turn and send everything, in one command",
    ),
    (
        "ingest",
        "File the orders found in a mailbox and answer each sender",
    ),
    (
        "fetch",
        "Read new messages from the IMAP mailbox and ingest them",
    ),
    (
        "send",
        "Deliver the outbox, each message once to each recipient",
    ),
    (
        "remind",
        "Write a reminder to each power due with no orders in",
    ),
    (
        "status",
        "Show the turn, its deadline, who plays each power and whose orders are in",
    ),
    (
        "audit",
        "Re-resolve past turns and compare every byte, dice and record",
    ),
    (
        "drop",
        "A player left: another power (or the SOP) runs his power",
    ),
    (
        "replace",
        "Hand a power to a new player, with a fresh password and his welcome",
    ),
    (
        "extend",
        "Move the deadline of the current turn and tell every player",
    ),
    (
        "rollback",
        "Undo the resolved turns from N on and reopen turn N",
    ),
    (
        "accept-late",
        "Let a late submission stand for the current turn",
    ),
    (
        "rekey",
        "Give the current turn a fresh dice secret and commitment",
    ),
    (
        "end",
        "The game is over: no more turns, the sealed rolls published",
    ),
    (
        "reopen",
        "The game goes on after `pbem end`: its turn takes orders again",
    ),
    ("verify", "Check the dice of a report you received"),
    (
        "unseal",
        "Publish the sealed rolls of the turns whose time has come",
    ),
    (
        "purge-passwords",
        "Star out the passwords of filed orders and make the archive private",
    ),
    ("completions", "Print the completion script for a shell"),
    (
        "man",
        "Print the man page, or one page per command into a folder",
    ),
];

/// Parses the process's command line (exits with a usage error as clap does).
pub fn parse() -> Cli {
    use clap::FromArgMatches;
    let matches = command().try_get_matches().unwrap_or_else(|e| exit_clap(e));
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| exit_clap(e))
}

/// Ends the process as clap would after `--help`, `--version` or a usage error, except that a help
/// or version text stdout could not take (`pbem --help >/dev/full`) ends in exit 1, as any output
/// pbem could not write does (issue 34), not 0.
fn exit_clap(e: clap::Error) -> ! {
    use std::io::Write;
    if e.use_stderr() {
        e.exit();
    }
    let written = e.print().and_then(|()| std::io::stdout().flush());
    match written {
        Ok(()) => std::process::exit(0),
        Err(w) => {
            if w.kind() != std::io::ErrorKind::BrokenPipe {
                crate::say_err!("error: pbem's output could not be written (is the disk full?)");
            }
            std::process::exit(i32::from(exit::ERROR))
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    crate::out::set_level(if cli.quiet {
        crate::out::QUIET
    } else if cli.verbose {
        crate::out::VERBOSE
    } else {
        crate::out::NORMAL
    });
    match cli.command {
        Command::Demo(a) => demo::run(a),
        Command::New(a) => new::run(a),
        Command::Check(a) => check::run(a),
        Command::Close(a) => close::run(a),
        Command::Resolve(a) => resolve::run(a),
        Command::Turn(a) => turn::run(a),
        Command::Ingest(a) => ingest::run(a),
        Command::Fetch(a) => fetch::run(a),
        Command::Send(a) => send::run(a),
        Command::Remind(a) => remind::run(a),
        Command::Status(a) => status::run(a),
        Command::Audit(a) => audit::run(a),
        Command::Drop(a) => drop::run(a),
        Command::Replace(a) => replace::run(a),
        Command::Extend(a) => extend::run(a),
        Command::Rollback(a) => rollback::run(a),
        Command::AcceptLate(a) => accept_late::run(a),
        Command::Rekey(a) => rekey::run(a),
        Command::End(a) => end::run(a),
        Command::Reopen(a) => reopen::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Unseal(a) => unseal::run(a),
        Command::PurgePasswords(a) => purge_passwords::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => man::run(a),
    }
}

/// The widths of the columns of a table of the game's powers: their files' names (`france`,
/// `france.ney` for a player of a power with several) and the powers' names, each the longest
/// (`out::width`), so that a long one puts no column out of line.
pub fn power_columns(game: &crate::game::Game) -> (usize, usize) {
    let stems: Vec<String> = game
        .config
        .powers
        .iter()
        .flat_map(|p| {
            let mut s: Vec<String> = crate::game::command::slots(p)
                .into_iter()
                .map(|player| crate::game::file_stem(&p.id, player.as_deref()))
                .collect();
            s.push(p.id.clone());
            s
        })
        .collect();
    (
        crate::out::width(stems.iter().map(String::as_str)),
        crate::out::width(game.config.powers.iter().map(|p| p.name.as_str())),
    )
}

/// Prints a turn's summary: orders per power, combats, reports.
pub fn print_outcome(game: &crate::game::Game, outcome: &crate::referee::turn::TurnOutcome) {
    crate::say!("Turn {} ({}) resolved.", outcome.turn, outcome.date);
    let stems: Vec<String> = outcome.orders.iter().map(|o| o.stem()).collect();
    let w = crate::out::width(
        stems
            .iter()
            .map(String::as_str)
            .chain(outcome.reports.keys().map(|p| p.as_str())),
    );
    for o in &outcome.orders {
        match &o.check {
            None => crate::say!(
                "  {:<w$} no orders ({} decide)",
                o.stem(),
                game.ruleset.without_orders().its
            ),
            Some(c) => crate::say!(
                "  {:<w$} {} order(s) accepted, {} rejected{}",
                o.stem(),
                c.accepted.len(),
                c.rejected(),
                if c.power.is_none() {
                    " (orders file not authenticated: ignored)"
                } else {
                    ""
                }
            ),
        }
    }
    crate::say!(
        "  {} combat(s), {} event(s); next commitment {}",
        outcome.count("combat"),
        outcome.events.len(),
        outcome.next_commitment
    );
    crate::say!("Reports:");
    for (p, path) in &outcome.reports {
        crate::say!("  {p:<w$} {}", path.display());
    }
    // Issue 34.7: every report mail cut to size, also in the turn log.
    for e in outcome.events.iter().filter(|e| e.kind == "mail-cut") {
        crate::say_err!("warning: {} ({})", e.text, e.rule);
    }
}
