//! A fresh receipt after the referee gives a turn a new dice commitment (`pbem rollback`, `pbem
//! rekey`; issue 31): each player whose orders still stand gets an acknowledgement naming the new
//! commitment with the `D_p` and `E_p` of those orders, and a receipt line as an acknowledgement of
//! his own submission has (`templates/ack.txt.j2`). His last acknowledgement named the old
//! commitment, so `pbem verify --ack` on it says, rightly, that the secret changed after it was
//! announced; this one anchors his report to the commitment it was resolved under.

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};

use super::outbox::{Kind, Outgoing};
use crate::engine::inputs::OrdersFileStatus;
use crate::game::config::DiceScheme;
use crate::game::Game;

/// Why the commitment changed, as the receipt says it: "turn 3 was rolled back (a lost report)".
pub struct Renewal<'a> {
    /// Makes each message's name unique: the act's key (`rekey-1`, `reopened-2`).
    pub key: &'a str,
    pub why: &'a str,
    /// The new commitment, hex.
    pub commitment: &'a str,
    /// The date the messages carry: a game instant, never the clock.
    pub date: DateTime<Utc>,
}

/// What `how` (`pbem verify --ack`, or verify.html) checks of a receipt under `scheme`: under
/// pbem-dice/v2 the report lists the digest of the orders that stood (`D_p`), so that it checks the
/// orders and the entropy; a pbem-dice/v1 report lists the entropy alone, so that it checks the
/// entropy, and cannot tell these orders from a later submission with the same entropy line.
pub fn verify_checks(scheme: DiceScheme, how: &str) -> String {
    match scheme {
        DiceScheme::V2 => format!("{how} checks that these orders and this entropy stood"),
        DiceScheme::V1 => format!(
            "{how} checks that\n\
             the report lists for you the entropy this receipt names (or none); under pbem-dice/v1\n\
             the report lists no digest of the orders that stood, so it cannot check that these did"
        ),
    }
}

/// A receipt for every orders file of `turn` in `on_file` that stands (it authenticates for its
/// power), to the addresses `to` gives for its power (those of the act's notice).
pub fn renewed(
    game: &Game,
    turn: u32,
    on_file: &[OrdersFileStatus],
    to: &dyn Fn(&str) -> Vec<String>,
    renewal: &Renewal<'_>,
) -> Result<Vec<Outgoing>> {
    let config = &game.config;
    let scheme = match config.dice.scheme {
        DiceScheme::V1 => "pbem-dice/v1",
        DiceScheme::V2 => crate::dice::v2::SCHEME,
    };
    let mut out = Vec::new();
    for o in on_file {
        let Some(check) = o.check.as_ref().filter(|c| c.power.is_some()) else {
            continue;
        };
        let path = game.player_orders_path(turn, &o.power, o.player.as_deref());
        let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", o.path))?;
        let digest = hex::encode(crate::orders::filed::receipt_digest(&bytes));
        let entropy = check.entropy.as_deref().map(|e| {
            crate::dice::to_hex(&match config.dice.scheme {
                DiceScheme::V1 => crate::dice::entropy(e),
                DiceScheme::V2 => crate::dice::v2::entropy(e),
            })
        });
        let stem = o.stem();
        let name = config.power(&o.power).map_or(o.power.as_str(), |p| &p.name);
        let whose = match &o.player {
            Some(p) => format!("{name} ({p})"),
            None => name.to_string(),
        };
        let entropy_lines = match (&check.entropy, &entropy) {
            (Some(line), Some(hash)) => format!(
                "Your entropy line: \"{line}\"\nE_p = {hash}  ({scheme}: SHA-256 tuple hash of the line; it goes into the seed)\n\n"
            ),
            _ => String::new(),
        };
        let text = format!(
            "{title}\nTurn {turn}: the orders of {whose} still stand under a new dice commitment.\n\n\
             {why}.\n\
             The orders of {whose} on file for turn {turn} still stand; this is their receipt under the\n\
             new commitment, in place of the acknowledgement you had (which named the old one). Send\n\
             new orders before the deadline to replace them.\n\n\
             {entropy_lines}\
             D_p, the SHA-256 of these orders as filed (docs/DICE.md of pbem): {digest}\n\n\
             receipt {scheme} game {game} turn {turn} power {stem} seq 0 orders {digest} entropy {e}\n\n\
             (seq 0: a receipt renewed by the referee's act, not a submission of yours.\n\
             {checks})\n\n\
             Dice commitment of turn {turn}: {commitment}\n\n\
             This answer was written by pbem for the referee of {game}. Keep it: it is your receipt.\n",
            title = config.title,
            why = renewal.why,
            game = config.game,
            e = entropy.as_deref().unwrap_or("none"),
            commitment = renewal.commitment,
            checks = verify_checks(
                config.dice.scheme,
                "`pbem verify <report> --ack <this mail>`, or verify.html,"
            ),
        );
        out.push(Outgoing {
            kind: Kind::Acknowledgement,
            turn,
            power: Some(o.power.clone()),
            player: o.player.clone(),
            key: match &o.player {
                Some(p) => format!("{}-{p}", renewal.key),
                None => renewal.key.to_string(),
            },
            to: to(&o.power),
            subject: format!(
                "[{}] turn {turn}: your orders stand, their receipt under the new dice commitment",
                config.game
            ),
            text,
            html: None,
            attachments: Vec::new(),
            in_reply_to: None,
            date: renewal.date,
        });
    }
    Ok(out)
}
