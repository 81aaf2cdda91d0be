//! `pbem verify`: a player checks the rolls of his own report.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::exit;

/// Verify a report: re-derive every roll it lists from its dice header and the labels, and check the
/// header's digest, the secret against the commitment and the seed.
///
/// Example: pbem verify france-turn-3.txt
///          pbem verify france-turn-3.txt --previous france-turn-2.txt
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The report to verify (a text report as mailed).
    pub report: PathBuf,
    /// The report of the turn before, to check that this turn's commitment is the one it announced.
    #[arg(long)]
    pub previous: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let read = |p: &PathBuf| {
        std::fs::read(p)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .with_context(|| format!("cannot read {}", p.display()))
    };
    let report = read(&args.report)?;
    let previous = args.previous.as_ref().map(read).transpose()?;
    let v = crate::audit::verify::verify(&report, previous.as_deref())?;
    let h = &v.header;
    crate::say!(
        "{}: game {} turn {}, header sha256 {}",
        args.report.display(),
        h.game,
        h.turn,
        h.digest
    );
    for p in &v.header_problems {
        crate::say!("MISMATCH: {p}");
    }
    if v.header_problems.is_empty() {
        crate::say!("ok: the secret matches the commitment and the seed is the one the secret and {} entropy line(s) give", h.entropy.len());
    }
    match v.announced {
        Some(true) => crate::say!("ok: the commitment is the one the previous report announced"),
        Some(false) => {
            crate::say!("MISMATCH: the commitment is not the one the previous report announced")
        }
        None => {}
    }
    for (r, derived) in &v.rolls {
        let shown = |f: &[u32]| f.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        if &r.faces == derived {
            crate::say!("ok    line {:>4}  {}: {}", r.line, r.label, shown(derived));
        } else {
            crate::say!(
                "WRONG line {:>4}  {}: report says {}, the dice give {}",
                r.line,
                r.label,
                shown(&r.faces),
                shown(derived)
            );
        }
    }
    let bad = v.mismatched_rolls();
    crate::say!(
        "{} of {} rolls match{}",
        v.rolls.len() - bad,
        v.rolls.len(),
        if v.ok() {
            "; the report checks out"
        } else {
            ""
        }
    );
    Ok(if v.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(exit::MISMATCH)
    })
}
