//! `pbem replace`: a new player takes over a power: in Empires in Arms at the next economic phase
//! (EiA 19.2.2), in any other ruleset at the turn `[replacement]` sets (`pbem players/replace`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::game::acts::{self, Act};
use crate::game::fsio::GameLock;
use crate::game::Game;

/// Hand a power to a new player, with a fresh password and his welcome.
///
/// He takes control in Empires in Arms after the next economic phase (EiA 19.2.2: the other powers
/// are told who he is, and he may negotiate at once), in every other game at the turn game.toml's
/// [replacement] sets (econ_every; pbem players/replace); until then the power is run for him. A
/// welcome of the power still unsent (its player who left, or a new player named before in his
/// place) is withdrawn.
#[derive(Debug, clap::Args)]
#[command(after_help = examples!(
    "pbem replace games/my-game britain --email pitt@example.org"
))]
pub struct Args {
    /// The game folder.
    pub game: PathBuf,
    /// The power that gets a new player.
    pub power: String,
    /// The new player's address (repeat for several).
    #[arg(long, required = true)]
    pub email: Vec<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    for e in &args.email {
        if e.parse::<lettre::Address>().is_err() {
            anyhow::bail!("--email '{e}' is not an e-mail address: write it as name@example.org (nothing was changed)");
        }
    }
    let game = Game::load(&args.game)?;
    let _lock = GameLock::acquire(&game.dir)?;
    let turn = game.current_turn()?;
    game.refuse_if_ended(&format!("{} cannot be handed to a new player", args.power))?;
    // A replace killed midway is finished as it was begun: its act once, its password, its mail.
    let underway = Underway::read(&game, turn)?;
    let finishing = underway.is_some();
    let plan = match underway {
        Some(plan) => {
            let begun = plan.act.incoming.as_ref().map(|p| p.players.clone());
            if plan.act.power.as_deref() != Some(args.power.as_str())
                || begun.as_deref() != Some(args.email.as_slice())
            {
                anyhow::bail!(
                    "a `pbem replace` of {} by {} was begun and not finished (it was killed midway; {} holds it): finish it first with `pbem replace {} {} --email {}`. Nothing was changed.",
                    plan.act.power.as_deref().unwrap_or("?"),
                    begun.clone().unwrap_or_default().join(", "),
                    game.printed(&Underway::path(&game, turn)),
                    game.dir.display(),
                    plan.act.power.as_deref().unwrap_or("?"),
                    begun.unwrap_or_default().join(" --email ")
                );
            }
            plan
        }
        None => {
            // Not over another act killed midway (an accept-late's orders not filed, a drop's
            // farewell not written): that one is finished first.
            crate::referee::underway::refuse(
                &game,
                &format!("{} cannot be handed to a new player", args.power),
                "",
            )?;
            refuse_done_again(&game, turn, &args.power, &args.email)?;
            let mut state = game.load_state(turn)?;
            let (password, from) = crate::engine::players::replace_player(
                &game,
                &mut state,
                &args.power,
                &args.email,
            )?;
            Underway {
                password,
                from,
                n: acts::load(&game.dir, turn)?.acts.len() + 1,
                act: Act {
                    kind: "replace".into(),
                    rule: crate::engine::players::replaced_rule(&game).cite(),
                    text: format!(
                        "{} passes to {} at turn {from}",
                        args.power,
                        args.email.join(", ")
                    ),
                    power: Some(args.power.clone()),
                    controlled: state.controlled.get(&args.power).cloned(),
                    incoming: state.incoming.get(&args.power).cloned(),
                    departing: departing(&game, &state, &args.power),
                    ..Act::default()
                },
            }
        }
    };
    let (password, from) = (plan.password.as_str(), plan.from);
    let appended = acts::load(&game.dir, turn)?.acts.len() >= plan.n;
    // The turn's state with the act applied, whether this run or the one it finishes appended it.
    let mut state = game.load_state(turn)?;
    if !appended {
        acts::apply(
            &mut state,
            &acts::Acts {
                acts: vec![plan.act.clone()],
            },
        );
    }
    // Made before anything is written: a mail pbem cannot make changes nothing.
    let mail = replacement_mail(&game, &state, &args.power, &args.email, password, from)?;
    // The password next, on stdout or else in passwords.txt (`out::show_passwords`): when it can be
    // neither, nothing is changed.
    // EiA 19.2.2's words for a ruleset that plays it; any other game is told the turn alone.
    let eia = game.ruleset.new_player_named();
    crate::say!(
        "{} passes to {} at turn {from}{}.{}",
        args.power,
        args.email.join(", "),
        if eia {
            ", after the next economic phase (EiA 19.2.2)"
        } else {
            ""
        },
        if finishing {
            " (The replace begun before and killed midway, finished now.)"
        } else {
            ""
        }
    );
    // The replace this run finishes showed the password before it was killed (it is written down
    // after the password is shown): shown once more, since its referee may never have seen it.
    let text = if finishing {
        format!(
            "{} from turn {from}: the new player's password, shown again since the replace that made it was killed before it finished (pbem keeps only its hash): {password}\n",
            args.power
        )
    } else {
        format!(
            "{} from turn {from}: the new player's password, shown this once (pbem keeps only its hash): {password}\n",
            args.power
        )
    };
    let shown = crate::out::show_passwords(&game.dir, &text).map_err(|e| {
        anyhow::anyhow!("the new password could neither be printed nor kept ({e}): nothing was changed, run `pbem replace` again")
    })?;
    if !finishing {
        plan.write(&game, turn)?;
    }
    // An act on the turn, not an edit of its state (which the last turn's record lists).
    if !appended {
        acts::append(&game, turn, plan.act.clone())?;
    }
    // The rule the replace applies: EiA 19.2.2 in a game of EiA, pbem's own in any other.
    let rule = crate::engine::players::replaced_rule(&game).cite();
    // An unsent answer that told the player who leaves that his orders stand is withdrawn: they
    // no longer do (EiA 19.2.1).
    if let Some(d) = &plan.act.departing {
        crate::mail::farewell::withdraw_answers(
            &game,
            &args.power,
            &d.players,
            turn,
            &format!("pbem replace, {rule}"),
        )?;
    }
    let who = args.email.join(", ");
    // game.toml names who plays the power now: the departed player is sent nothing more.
    crate::game::config_edit::set_players(
        &game,
        &args.power,
        &args.email,
        &format!(
            "pbem replace, turn {turn}: {who} took {} over; he plays it from turn {from} ({rule}),\n\
             with the password his welcome mail gave him (its hash is in turns/{turn}/acts.toml).",
            args.power
        ),
    )?;
    // The welcomes of those this replace puts aside (the player who left, a new player named
    // before in his place) are withdrawn while they are unsent: the passwords they carry no longer
    // stand; a new player put aside whose welcome went is told it is void.
    let superseded = crate::mail::farewell::supersede(
        &game,
        turn,
        &args.power,
        &mail.welcome.file_name(),
        &args.email,
        &rule,
    )?;
    crate::mail::welcome::write(&game, &mail.welcome, password)?;
    crate::mail::outbox::write_all(&game, &mail.notices)?;
    let path = Underway::path(&game, turn);
    std::fs::remove_file(&path)
        .with_context(|| format!("cannot remove {}", game.printed(&path)))?;
    let notices = match mail.notices.len() {
        0 => String::new(),
        1 => " and a notice to the other power".to_string(),
        n => format!(" and a notice to each of the {n} other powers"),
    };
    let mails = format!(
        "the welcome of the new player ({}){notices}",
        mail.welcome.file_name()
    );
    crate::say!(
        "game.toml names {who} as its player; in mail/outbox/: {mails}, his password in the welcome until `pbem send` delivers it.",
    );
    if !superseded.withdrawn.is_empty() {
        crate::say!(
            "Withdrawn before they went, since the password they carry or the player they name no longer stands: {}.",
            superseded.withdrawn.join(", ")
        );
    }
    for told in &superseded.told {
        crate::say!(
            "A new player named before for {} had his welcome already: a notice tells him he does not take it over ({}).",
            args.power,
            game.printed(told)
        );
    }
    if eia {
        crate::say!(
            "Alliances the power has then may not be broken before turn {} (EiA 19.2.2: three turns after the economic phase it takes over at, as the engine enforces).",
            crate::engine::players::alliance_lock(from)
        );
    }
    Ok(match shown {
        crate::out::PasswordsShown::Printed => ExitCode::SUCCESS,
        crate::out::PasswordsShown::Kept(_) => ExitCode::from(super::exit::ERROR),
    })
}

/// Refuses a replace that was done and finished already this turn (the same power to the same
/// players): run again it would make another password and another welcome, and the new player's
/// first welcome, still in the outbox, would carry a password that no longer stands. The password
/// of the one done was shown once when it ran (or kept in passwords.txt); its welcome carries it.
fn refuse_done_again(game: &Game, turn: u32, power: &str, emails: &[String]) -> Result<()> {
    let acts = acts::load(&game.dir, turn)?;
    let done = acts.acts.iter().rev().find(|a| {
        a.kind == "replace"
            && a.power.as_deref() == Some(power)
            && a.incoming.as_ref().is_some_and(|p| p.players == emails)
    });
    let Some(done) = done else {
        return Ok(());
    };
    let from = done.incoming.as_ref().map_or(turn, |p| p.from);
    let welcome = format!("mail/outbox/t{turn:04}-welcome-{power}-*.eml");
    anyhow::bail!(
        "{power} already passes to {} at turn {from}: that `pbem replace` was done this turn, and its password was shown then, once, or kept in passwords.txt when it could not be shown (pbem keeps only its hash). His welcome ({welcome}) carries it until `pbem send` delivers it. Nothing was changed.",
        emails.join(", ")
    )
}

/// `secret/replace-<t>.toml` (mode 0600: it holds the new password until his welcome is
/// written): a replace under way, written before its act and removed once its mail is written, so
/// that a `replace` killed midway is finished by running it again as it was begun (one act, one
/// password, one welcome), as `extend` and `rollback` are.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Underway {
    password: String,
    /// The turn the new player takes the power over at (EiA 19.2.2).
    from: u32,
    /// The act's number among the turn's acts.
    n: usize,
    act: Act,
}

impl Underway {
    fn path(game: &Game, turn: u32) -> PathBuf {
        crate::referee::underway::replace_path(game, turn)
    }

    fn read(game: &Game, turn: u32) -> Result<Option<Underway>> {
        let path = Underway::path(game, turn);
        if !path.is_file() {
            return Ok(None);
        }
        let src = crate::game::load::read_source(&path, &game.shown(&path))?;
        Ok(Some(crate::game::load::parse_toml(&src)?))
    }

    fn write(&self, game: &Game, turn: u32) -> Result<()> {
        let path = Underway::path(game, turn);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot make {}", game.printed(dir)))?;
        }
        crate::game::fsio::write_atomic_mode(
            &path,
            crate::game::load::to_toml(self)?.as_bytes(),
            Some(0o600),
        )
    }
}

/// The player who leaves the power, as game.toml names him now, when the state does not already:
/// kept in the act, since `replace` writes the new player into game.toml (EiA 19.2.1).
fn departing(
    game: &Game,
    state: &crate::game::state::State,
    power: &str,
) -> Option<crate::game::state::Player> {
    if state.owners.contains_key(power) {
        return None;
    }
    let p = game.config.power(power)?;
    Some(crate::game::state::Player {
        players: p.addresses_at(state.turn),
        password_hash: p.password_hash.get_ref().clone(),
        from: game.config.first_turn,
    })
}

/// The mail of a replacement: the new player's welcome, and a notice to every other power.
struct ReplacementMail {
    welcome: crate::mail::outbox::Outgoing,
    notices: Vec<crate::mail::outbox::Outgoing>,
}

/// Makes the new player's welcome (his password goes in when it is written, `welcome::write`: the
/// power's last report and its JSON, the order guide, where the power stands) and a notice to every
/// other power that the power has a new player, naming him where the ruleset lets the others know
/// him (EiA 19.2.2: he may negotiate at once).
fn replacement_mail(
    game: &Game,
    state: &crate::game::state::State,
    power: &str,
    emails: &[String],
    password: &str,
    from: u32,
) -> Result<ReplacementMail> {
    use crate::mail::{outbox, welcome};
    let turn = state.turn;
    // Unique among the power's welcomes of the turn: a power replaced twice gets two.
    let key = crate::game::record::sha256_hex(password.as_bytes())[..8].to_string();
    let m = welcome::welcome(
        game,
        &welcome::Start::new(game, state),
        power,
        None,
        welcome::Joining::Replacing { from },
        &key,
        emails.to_vec(),
    )?;
    let name = game.config.power(power).map_or(power, |p| p.name.as_str());
    let headline = if game.ruleset.new_player_named() {
        format!(
            "{name} has a new player, {}: he takes control at turn {from} and may take part in the talks now (EiA 19.2.2)",
            emails.join(", ")
        )
    } else {
        format!("{name} has a new player from turn {from}")
    };
    let commitment = crate::dice::to_hex(&game.commitment(turn)?);
    let notices: Vec<outbox::Outgoing> = outbox::notices(
        game,
        turn,
        &commitment,
        state,
        &format!("player-{key}"),
        &headline,
    )?
    .into_iter()
    .filter(|n| n.power.as_deref() != Some(power))
    .collect();
    Ok(ReplacementMail {
        welcome: m,
        notices,
    })
}
