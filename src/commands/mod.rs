//! The command line: one file per command, each with its arguments (clap derive) and a `run` that
//! validates them and calls the library. No adjudication happens here.

pub mod audit;
pub mod check;
pub mod close;
pub mod demo;
pub mod drop;
pub mod extend;
pub mod ingest;
pub mod new;
pub mod purge_passwords;
pub mod rekey;
pub mod remind;
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

/// Exit codes of pbem.
pub mod exit {
    pub const OK: u8 = 0;
    pub const ERROR: u8 = 1;
    pub const USAGE: u8 = 2;
    pub const REJECTED: u8 = 3;
    /// `audit` or `verify` found a mismatch.
    pub const MISMATCH: u8 = 4;
    /// `send` left messages undelivered (refused or still failing); a rerun sends the rest.
    pub const UNDELIVERED: u8 = 5;
}

/// pbem: a turn adjudicator for play-by-email wargames.
///
/// The referee runs one command per turn; players' orders go in, one report per player comes out, with
/// every die roll auditable from a seed whose hash was published before the orders were due.
#[derive(Debug, Parser)]
#[command(
    name = "pbem",
    version,
    about,
    long_about,
    after_help = "Start with:  pbem demo"
)]
pub struct Cli {
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
    Send(send::Args),
    Remind(remind::Args),
    Status(status::Args),
    Audit(audit::Args),
    Drop(drop::Args),
    Replace(replace::Args),
    Extend(extend::Args),
    Rollback(rollback::Args),
    Rekey(rekey::Args),
    Verify(verify::Args),
    Unseal(unseal::Args),
    PurgePasswords(purge_passwords::Args),
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Demo(a) => demo::run(a),
        Command::New(a) => new::run(a),
        Command::Check(a) => check::run(a),
        Command::Close(a) => close::run(a),
        Command::Resolve(a) => resolve::run(a),
        Command::Turn(a) => turn::run(a),
        Command::Ingest(a) => ingest::run(a),
        Command::Send(a) => send::run(a),
        Command::Remind(a) => remind::run(a),
        Command::Status(a) => status::run(a),
        Command::Audit(a) => audit::run(a),
        Command::Drop(a) => drop::run(a),
        Command::Replace(a) => replace::run(a),
        Command::Extend(a) => extend::run(a),
        Command::Rollback(a) => rollback::run(a),
        Command::Rekey(a) => rekey::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Unseal(a) => unseal::run(a),
        Command::PurgePasswords(a) => purge_passwords::run(a),
    }
}

/// Prints a turn's summary: orders per power, combats, reports.
pub fn print_outcome(outcome: &crate::engine::turn::TurnOutcome) {
    crate::say!("Turn {} ({}) resolved.", outcome.turn, outcome.date);
    for o in &outcome.orders {
        match &o.check {
            None => crate::say!(
                "  {:<10} no orders (standing orders and SOP decide)",
                o.power
            ),
            Some(c) => crate::say!(
                "  {:<10} {} order(s) accepted, {} rejected{}",
                o.power,
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
        crate::say!("  {p:<10} {}", path.display());
    }
}
