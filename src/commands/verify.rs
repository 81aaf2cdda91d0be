//! `pbem verify`: a player checks the rolls of his own report, from what he received.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use super::exit;
use crate::audit::forms::{self, Form};
use crate::audit::verify::{announcement_commitment, Anchor, ClosingMail, SentOrders};

/// Verify a report as received: the mail as your client saved it (.eml, any transfer encoding), or the
/// text, HTML or JSON report. It re-derives every roll listed from the dice header and the labels,
/// checks the header's digest, the secret against the commitment and the seed, that no label is listed
/// twice, that each event's text agrees with its roll, and that every form of the report lists the
/// same rolls; it says how many sealed rolls the turn had (rolls no report shows until the referee
/// publishes them with `pbem unseal`), and with --sealed checks the published list. Anchor the commitment with --commitment, --announcement or --previous (without one,
/// verify says so: the referee could then have chosen his secret after the orders came in), and check
/// your own entropy with --orders. In a game of more than 100 powers the text and HTML reports give
/// the powers' entropy as one line, `listed:` (their count and SHA-256): give the JSON report too,
/// which lists them (or the mail, which carries every form).
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem verify \"Ulm 1805 turn 3.eml\" --announcement \"Ulm 1805 turn 3 announcement.eml\"",
    "pbem verify france-turn-3.json --previous france-turn-2.txt --orders my-orders.eml",
    "pbem verify france-turn-1.txt france-turn-1.json --commitment 7fb5e5e3...c190",
    "pbem verify \"Ulm 1805 turn 3.eml\" --sealed \"sealed rolls of turn 3.txt\""
))]
pub struct Args {
    /// The report: a saved mail (.eml), or its text, HTML or JSON form, or several of them (a text or
    /// HTML report with the JSON report, which lists the powers' entropy its header stands for).
    #[arg(required = true, num_args = 1..)]
    pub report: Vec<PathBuf>,
    /// The report of the turn before (any form, or its mail): this turn's commitment must be the one
    /// it announced.
    #[arg(long)]
    pub previous: Option<PathBuf>,
    /// The commitment announced for this turn, 64 hex digits.
    #[arg(long, value_name = "HEX")]
    pub commitment: Option<String>,
    /// The mail (or its text) that announced this turn's dice commitment.
    #[arg(long, value_name = "MAIL")]
    pub announcement: Option<PathBuf>,
    /// Your orders for this turn as you sent them last (the mail or the file): the entropy the report
    /// lists for your power must be the one of their entropy line, or none if they have none; under
    /// pbem-dice/v2 the orders that stood must be these.
    #[arg(long, value_name = "FILE")]
    pub orders: Option<PathBuf>,
    /// The acknowledgement of your last submission (its receipt line): the entropy listed for you
    /// must be its; under pbem-dice/v2 the orders that stood for you must be its too (a v1 report
    /// lists no digest of them, and verify says so); its dice commitment anchors the report's.
    #[arg(long, value_name = "MAIL", conflicts_with = "orders")]
    pub ack: Option<PathBuf>,
    /// The closing mail of this turn (pbem-dice/v2): the report's closing list must be the one mailed.
    #[arg(long, value_name = "MAIL")]
    pub close: Option<PathBuf>,
    /// The sealed list the referee published (`pbem unseal`), as a file or mail: its rolls must be
    /// the ones the report counted and committed to, each re-derived from the report's seed.
    #[arg(long, value_name = "FILE")]
    pub sealed: Option<PathBuf>,
}

/// A file's bytes; a report mail in a game's outbox (kept without the bodies its report files hold)
/// made whole, as the player gets it.
fn read(p: &Path) -> Result<Vec<u8>> {
    crate::mail::outbox_store::read_file(p)
}

/// The text of every part of a file (a mail's decoded parts, or the file), joined.
fn all_text(p: &Path) -> Result<String> {
    let bytes = read(p)?;
    let mut out = String::new();
    for (form, text) in forms::texts(&bytes) {
        match form {
            Form::Html => out.push_str(&crate::mail::html::to_text(&text)),
            _ => out.push_str(&text),
        }
        out.push('\n');
    }
    Ok(out)
}

/// The power and entropy line of the orders a player sent, from the mail or the file, and the digest
/// a receipt gives for them as pbem files them for `turn` (turn line set, password line replaced).
fn sent_orders(p: &Path, turn: u32) -> Result<SentOrders> {
    let bytes = read(p)?;
    let text = if forms::is_mail(&bytes) {
        let message = crate::mail::parse::parse(&bytes)
            .with_context(|| format!("{} is not a mail pbem can read", p.display()))?;
        match crate::mail::extract::extract(&message, u64::MAX) {
            crate::mail::extract::Extracted::Orders(found) => found.text,
            _ => bail!("{}: no orders found in this mail", p.display()),
        }
    } else {
        String::from_utf8_lossy(&bytes).into_owned()
    };
    // Filed as ingest files it, the digest of the message left out (it is not in the receipt).
    let filed = crate::mail::ingest::filed_text(&text, turn, "");
    let digest = hex::encode(crate::mail::ingest::receipt_digest(filed.as_bytes()));
    let (header, _, _) = crate::orders::Header::take(&filed, crate::orders::split(&filed));
    let Some(power) = header.power else {
        bail!(
            "{}: these orders have no 'power' line: which power sent them?",
            p.display()
        );
    };
    // A player of a power with several contributes under his file's name (`france.ney`).
    let player = header.player.map(|p| p.value.to_ascii_lowercase());
    Ok(SentOrders {
        power: crate::engine::command::file_stem(
            &power.value.to_ascii_lowercase(),
            player.as_deref(),
        ),
        entropy: header.entropy.map(|e| e.value),
        entropy_hash: None,
        digest,
    })
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut report_forms = Vec::new();
    for p in &args.report {
        report_forms.extend(
            forms::report_forms(&read(p)?)
                .with_context(|| format!("cannot read a report in {}", p.display()))?,
        );
    }
    let shown = args
        .report
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let turn = report_forms[0].header.turn;
    let mut anchors = Vec::new();
    if let Some(c) = &args.commitment {
        anchors.push(Anchor {
            source: "--commitment".into(),
            commitment: c.trim().to_string(),
            texts: false,
            rules: None,
        });
    }
    if let Some(p) = &args.announcement {
        let text = all_text(p)?;
        let Some(c) = announcement_commitment(&text, turn) else {
            bail!(
                "{}: no dice commitment for turn {turn} found in this announcement",
                p.display()
            );
        };
        anchors.push(Anchor {
            source: format!("the announcement {}", p.display()),
            commitment: c,
            texts: crate::audit::verify::announcement_binds_texts(&text),
            rules: crate::audit::verify::announcement_rules(&text, turn),
        });
    }
    if let Some(p) = &args.previous {
        let prev = forms::report_forms(&read(p)?)
            .with_context(|| format!("cannot read a report in {}", p.display()))?;
        let Some((c, rules)) = prev.iter().find_map(|f| {
            f.announces
                .as_ref()
                .filter(|(t, _)| *t == turn)
                .map(|(_, c)| (c.clone(), f.announces_rules.clone()))
        }) else {
            bail!(
                "{}: this report announces no dice commitment for turn {turn}",
                p.display()
            );
        };
        anchors.push(Anchor {
            source: format!("the previous report {}", p.display()),
            commitment: c,
            texts: prev.iter().any(|f| !f.header.texts.is_empty()),
            rules,
        });
    }
    let sent = args
        .orders
        .as_deref()
        .map(|p| sent_orders(p, turn))
        .transpose()?;
    let mut sent = sent;
    if let Some(p) = &args.ack {
        let text = all_text(p)?;
        let Some((_, game, t, receipt)) = crate::audit::verify::parse_receipt(&text) else {
            bail!(
                "{}: no receipt line found in this acknowledgement",
                p.display()
            );
        };
        if game != report_forms[0].header.game || t != turn {
            bail!(
                "{}: this acknowledgement is for game {game} turn {t}, the report for game {} turn {turn}",
                p.display(),
                report_forms[0].header.game
            );
        }
        let prefix = format!("Dice commitment of turn {turn}: ");
        if let Some(c) = text
            .lines()
            .find_map(|l| l.trim().strip_prefix(prefix.as_str()))
            .filter(|c| crate::dice::from_hex(c).is_some())
        {
            let rules = format!("Rules digest of turn {turn}: ");
            anchors.push(Anchor {
                source: format!("the acknowledgement {}", p.display()),
                commitment: c.trim().to_string(),
                texts: false,
                rules: text
                    .lines()
                    .find_map(|l| l.trim().strip_prefix(rules.as_str()))
                    .map(|r| r.trim().to_string())
                    .filter(|r| crate::dice::from_hex(r).is_some()),
            });
        }
        sent = Some(receipt);
    }
    let closing = match &args.close {
        None => None,
        Some(p) => {
            let Some((game, turn, close, powers)) = crate::engine::close::parse_text(&all_text(p)?)
            else {
                bail!("{}: no pbem-dice/v2 closing list found in it", p.display());
            };
            Some(ClosingMail {
                game,
                turn,
                close,
                powers: powers
                    .into_iter()
                    .map(|e| (e.id, e.orders, e.entropy))
                    .collect(),
            })
        }
    };
    let mut v =
        crate::audit::verify::verify(&report_forms, &anchors, closing.as_ref(), sent.as_ref())?;
    let sealed_list = args
        .sealed
        .as_deref()
        .map(|p| -> Result<_> {
            let lists = crate::engine::sealed::parse(&all_text(p)?);
            lists
                .into_iter()
                .find(|l| l.game == v.header.game && l.turn == v.header.turn)
                .with_context(|| {
                    format!(
                        "{}: no sealed list of game {} turn {} in it",
                        p.display(),
                        v.header.game,
                        v.header.turn
                    )
                })
        })
        .transpose()?;
    if let Some(list) = &sealed_list {
        let h = &v.header;
        let problems = crate::engine::sealed::check(
            list,
            crate::engine::sealed::Against {
                game: &h.game,
                turn: h.turn,
                secret: &h.secret,
                seed: &h.seed,
                sealed: &h.sealed,
            },
        );
        if problems.is_empty() {
            v.passed.push(format!(
                "the sealed list holds the {} sealed roll(s) the report committed to, its seal is the one the secret was made from, and each roll is re-derived from the seed and the seal",
                list.rolls.len()
            ));
        }
        v.problems.extend(problems);
    }
    let h = &v.header;
    let names: Vec<&str> = v.forms.iter().map(|f| f.name()).collect();
    crate::say!(
        "{}: game {} turn {}, header sha256 {} ({} form{}: {})",
        shown,
        h.game,
        h.turn,
        h.digest,
        v.forms.len(),
        if v.forms.len() == 1 { "" } else { "s" },
        names.join(", ")
    );
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
    for p in &v.passed {
        crate::say!("ok: {p}");
    }
    for p in &v.problems {
        crate::say!("MISMATCH: {p}");
    }
    for u in &v.unchecked {
        crate::say!("not checked: {u}");
    }
    let bad = v.mismatched_rolls();
    crate::say!("{} of {} rolls match", v.rolls.len() - bad, v.rolls.len());
    match v.header.sealed.split_once(' ') {
        None => crate::say!("0 sealed rolls"),
        Some((n, digest)) if sealed_list.is_none() => crate::say!(
            "{n} sealed roll(s), not shown until the referee publishes them (commitment {digest}): check that list with --sealed"
        ),
        Some((n, digest)) => crate::say!("{n} sealed roll(s) (commitment {digest})"),
    }
    if !v.ok() {
        crate::say!("the report does NOT check out");
        crate::say!("{}", fail_advice(&h.digest));
        return Ok(ExitCode::from(exit::MISMATCH));
    }
    if v.anchored {
        crate::say!("the report checks out");
    } else {
        crate::say!(
            "NO ANCHOR: the report is consistent, but nothing ties its commitment to one published before the deadline: the referee could have chosen his secret after seeing the orders. Give --commitment, --announcement or --previous."
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What the player does when his report does not check out (verify.html says the same, `adviceText`):
/// rule out his own mistake, then hand the reasons and the header's digest, which every report of the
/// turn shares, to the referee and the other players.
fn fail_advice(digest: &str) -> String {
    format!(
        "What to do: check that you gave the report as your mail program saved it (not a copy typed or pasted again), with the right anchor and orders. If it still does not check out, keep the mail as it is and send the referee and the other players the MISMATCH and WRONG lines above with the header's SHA-256 {digest} (every report of the turn has the same header): the rolls they name are not proven until the referee explains each."
    )
}
