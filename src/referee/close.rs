//! Closing a turn's orders (pbem-dice/v2): writes the closing list (`engine::close`) into
//! `turns/<t>/close.toml` and a closing mail to every player into the outbox, before the turn is
//! resolved; killed midway, finished by closing again as it was begun.

use anyhow::Result;

use crate::engine::close::{begun_path, list_now, load, path, text, CloseFile};
use crate::game::fsio::write_atomic;
use crate::game::Game;
use crate::mail::outbox::{self, Kind, Outgoing};

/// Closes `turn`: writes its closing list and a closing mail to every player into the outbox. Closing
/// a closed turn changes nothing and gives the list it has. The list is written down first
/// (`engine::close::begun_path`): a close killed midway is finished by closing again, with the list
/// it began with, and until then the turn and every other act wait (`underway::refuse`). The caller
/// holds the game's lock.
pub fn close(game: &Game, turn: u32) -> Result<CloseFile> {
    let begun = begun_path(game, turn);
    if let Some(done) = load(game, turn)? {
        if begun.is_file() {
            super::underway::finished(game, &begun)?;
        }
        return Ok(done);
    }
    let file = super::underway::plan_once(game, &begun, || {
        // Not while an act killed midway waits (a rekey's commitment announced to nobody): closed,
        // the turn could no longer be re-keyed to finish it.
        super::underway::refuse(game, &format!("turn {turn} cannot be closed"), "")?;
        game.refuse_if_ended(&format!("turn {turn} cannot be closed"))?;
        Ok(CloseFile::of(game, turn, &list_now(game, turn)?))
    })?;
    let mails = mails(game, &file)?;
    let names: Vec<String> = mails.iter().map(Outgoing::file_name).collect();
    outbox::note_written(game, &names)?;
    for m in mails {
        write_atomic(&outbox::path_of(game, &m), &m.render(game)?)?;
    }
    write_atomic(
        &path(game, turn),
        crate::game::load::to_toml(&file)?.as_bytes(),
    )?;
    super::underway::finished(game, &begun)?;
    Ok(file)
}

/// The closing mail of the turn, one per power.
fn mails(game: &Game, file: &CloseFile) -> Result<Vec<Outgoing>> {
    let turn = file.turn;
    let listed = if file.powers.is_empty() {
        "No power has orders in.".to_string()
    } else {
        format!(
            "Powers with orders in: {}.",
            file.powers
                .iter()
                .map(|p| p.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let body = format!(
        "{}\nThe orders of turn {turn} are closed. {listed}\n\nFor each, the SHA-256 of its orders as filed and its entropy (pbem-dice/v2); the turn's dice\nseed is made of exactly this list and the secret committed before the deadline. Check that your\nown line is the orders you sent last, and keep this mail: `pbem verify <report> --close <this mail>`.\n\n{}",
        game.config.title,
        text(file)
    );
    let date = outbox::game_instant(game, turn);
    Ok(game
        .config
        .powers
        .iter()
        .map(|p| Outgoing {
            kind: Kind::Closing,
            player: None,
            turn,
            power: Some(p.id.clone()),
            key: String::new(),
            to: p.addresses_at(turn),
            subject: format!("[{}] turn {turn}: orders closed", game.config.game),
            text: body.clone(),
            html: None,
            attachments: Vec::new(),
            in_reply_to: None,
            date,
        })
        .collect())
}
