//! Deciding about one notification before it is sent: whether it goes out at all (a confirmed
//! address, the player's preferences, a turn still to play) and, if it does, the email rendered
//! in the player's language, with what moves by email add (the turn's choices and a reply
//! address naming the turn, or the answer to a reply).

use super::delivery::{Mailer, Outgoing};
use super::facts::{game_facts, own_hand, turn_offer};
use super::link_token;
use super::messages::{render, Email, Links, Subject};
use super::offers::ReplyAnswer;
use crate::service::correspondence::by_mail::token::TurnToken;
use crate::service::notify::event_news;
use crate::service::notify::notifications::{turn_notice_over, EventNews, Notice};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::games as game_store;
use crate::storage::mail::{self as mail_store, MailSettingsRow};
use crate::storage::notifications::NotificationRow;
use crate::storage::{DbConnection, StorageError};

/// What to do with one notification.
pub(super) enum Plan {
    Send(Outgoing),
    Skip(&'static str),
}

/// Plain email: no reply address, no thread.
fn plain(to: String, email: Email, unsubscribe: Option<String>) -> Plan {
    Plan::Send(Outgoing {
        to,
        email,
        unsubscribe,
        reply_to: None,
        in_reply_to: None,
    })
}

/// Decide about one notification and render it.
pub(super) fn plan(
    conn: &mut DbConnection,
    mailer: &Mailer,
    row: &NotificationRow,
    now: i64,
) -> ServiceResult<Plan> {
    let notice: Notice = serde_json::from_str(&row.payload)
        .map_err(|e| ServiceError::Storage(StorageError::Corrupt(e.to_string())))?;
    if let Notice::AccountDeleted { email, language } = &notice {
        // The account's settings are gone: the notice carries the address and the language.
        let link = format!("{}/", mailer.public_url);
        let links = Links {
            main: &link,
            unsubscribe: None,
        };
        let language = crate::service::i18n::Language::parse(language);
        return Ok(plain(
            email.clone(),
            render(language, Subject::AccountDeleted, &links),
            None,
        ));
    }
    let Some(settings) = mail_store::settings(conn, row.user_id)? else {
        return Ok(Plan::Skip("no email address"));
    };
    let language = crate::service::i18n::Language::parse(&settings.language);
    if let Notice::VerifyEmail { email } = &notice {
        // Only to the address still set: a changed address got its own link.
        if settings.email.as_ref() != Some(email) || settings.verified_at.is_some() {
            return Ok(Plan::Skip("the address changed or is already confirmed"));
        }
        let token = link_token(&mailer.keys, "verify", row.user_id, Some(email), None, 7)?;
        let link = format!("{}/api/v1/email/verify?token={token}", mailer.public_url);
        let links = Links {
            main: &link,
            unsubscribe: None,
        };
        return Ok(plain(
            email.clone(),
            render(language, Subject::Verify, &links),
            None,
        ));
    }
    let Some(to) = usable_address(&settings) else {
        return Ok(Plan::Skip("no confirmed email address"));
    };
    if let Some(why) = unwanted(&settings, &notice) {
        return Ok(Plan::Skip(why));
    }
    // The account's own emails: no unsubscribe link, no game.
    let own = |subject: Subject<'_>, link: &str| {
        plain(
            to.clone(),
            render(
                language,
                subject,
                &Links {
                    main: link,
                    unsubscribe: None,
                },
            ),
            None,
        )
    };
    match &notice {
        Notice::PasswordReset { reset_id } => {
            let link = crate::service::accounts::passwords::reset_link(
                conn,
                &mailer.keys,
                &mailer.public_url,
                *reset_id,
                now,
            )?;
            return Ok(match link {
                Some(link) => own(Subject::PasswordReset, &link),
                None => Plan::Skip("the link was used or has expired"),
            });
        }
        Notice::PasswordChanged => {
            let link = format!("{}/reset-password", mailer.public_url);
            return Ok(own(Subject::PasswordChanged, &link));
        }
        Notice::TwoFactorChanged { on } => {
            let link = format!("{}/settings", mailer.public_url);
            return Ok(own(Subject::TwoFactorChanged { on: *on }, &link));
        }
        Notice::Moderated {
            action,
            until,
            reason,
        } => {
            let subject = Subject::Moderated {
                suspended: action == "suspend",
                until: *until,
                reason,
            };
            return Ok(own(subject, &mailer.public_url));
        }
        _ => {}
    }
    let kind = notice.kind();
    let token = link_token(
        &mailer.keys,
        "unsubscribe",
        row.user_id,
        None,
        Some(kind),
        365,
    )?;
    let unsubscribe = format!(
        "{}/api/v1/email/unsubscribe?token={token}",
        mailer.public_url
    );
    let mut reply_to = None;
    let mut in_reply_to = None;
    let email = match &notice {
        Notice::Digest {
            game_ids,
            unread_messages,
        } => {
            let mut games = Vec::new();
            for &id in game_ids {
                if let Some(facts) = game_facts(conn, id, row.user_id, now)? {
                    games.push((facts, mailer.game_link(id)));
                }
            }
            let links = Links {
                main: &mailer.public_url,
                unsubscribe: Some(&unsubscribe),
            };
            render(
                language,
                Subject::Digest {
                    waiting: &games,
                    unread_messages: *unread_messages,
                },
                &links,
            )
        }
        Notice::Event { event_id, news } => {
            let Some(name) = event_news::event_name(conn, *event_id)? else {
                return Ok(Plan::Skip("the event is gone"));
            };
            let link = format!(
                "{}{}",
                mailer.public_url,
                event_news::path(*event_id, *news)
            );
            let links = Links {
                main: &link,
                unsubscribe: Some(&unsubscribe),
            };
            let title = event_news::title(language, &name, *news);
            render(language, Subject::Event { title: &title }, &links)
        }
        _ => {
            let game_id = notice.game_id().unwrap_or_default();
            let Some(mut game) = game_facts(conn, game_id, row.user_id, now)? else {
                return Ok(Plan::Skip("the game is gone"));
            };
            if let Notice::YourTurn {
                plan_not_played: Some(why),
                ..
            } = &notice
            {
                game.plan_not_played = Some(why.reason.clone());
            }
            // A turn notice or a reminder that waited (a relay down, a slow pass, fast play) may
            // no longer hold.
            if let Notice::YourTurn { .. } | Notice::DeadlineReminder { .. } = notice {
                let now_row = game_store::game(conn, game_id)?;
                if let Some(why) =
                    turn_notice_over(conn, now_row.as_ref(), row.user_id, row.id, &notice)?
                {
                    return Ok(Plan::Skip(why));
                }
            }
            // Moves by email: the turn's choices, and the address a reply plays through (the
            // answer to a reply offers them whatever the preference: the player wrote to us).
            let by_reply = match notice {
                Notice::YourTurn { .. } => settings.moves_by_reply,
                Notice::MailReply { .. } => true,
                _ => false,
            };
            let offer = match (&mailer.reply, by_reply) {
                (Some(_), true) => turn_offer(conn, game_id, row.user_id)?,
                _ => None,
            };
            if let (Some(reply), Some(offer)) = (&mailer.reply, &offer) {
                let turn = TurnToken {
                    game_id,
                    seat: offer.seat,
                    version: offer.version,
                };
                reply_to = Some(reply.for_turn(&mailer.keys, &turn, row.user_id));
            }
            // A confirmation whose turn is over still shows the new hand.
            let hand = match (&notice, &offer) {
                (Notice::MailReply { .. }, None) => own_hand(conn, game_id, row.user_id)?,
                _ => Vec::new(),
            };
            let reader = crate::storage::accounts::user_by_id(conn, row.user_id)?
                .map(|u| u.name)
                .unwrap_or_default();
            let subject = match (&notice, &offer) {
                (Notice::YourTurn { .. }, Some(offer)) => {
                    Subject::YourTurnByReply { game: &game, offer }
                }
                (Notice::YourTurn { .. }, None) => Subject::YourTurn(&game),
                (
                    Notice::MailReply {
                        played,
                        problem,
                        said,
                        message_id,
                        plan,
                        ..
                    },
                    offer,
                ) => {
                    in_reply_to.clone_from(message_id);
                    Subject::MailReply {
                        game: &game,
                        answer: ReplyAnswer {
                            reader: &reader,
                            played,
                            problem: problem.as_deref(),
                            said: said.as_deref(),
                            offer: offer.as_ref(),
                            hand: &hand,
                            plan: plan.as_ref(),
                        },
                    }
                }
                (Notice::DeadlineReminder { lead_ms, .. }, _) => Subject::Reminder {
                    game: &game,
                    lead_ms: *lead_ms,
                },
                (Notice::Invitation { by, rematch, .. }, _) => Subject::Invitation {
                    game: &game,
                    by,
                    rematch: *rematch,
                },
                (Notice::GameStarted { .. }, _) => Subject::Started(&game),
                _ => Subject::Over(&game),
            };
            let link = mailer.game_link(game_id);
            let links = Links {
                main: &link,
                unsubscribe: Some(&unsubscribe),
            };
            render(language, subject, &links)
        }
    };
    Ok(Plan::Send(Outgoing {
        to,
        email,
        unsubscribe: Some(unsubscribe),
        reply_to,
        in_reply_to,
    }))
}

fn usable_address(settings: &MailSettingsRow) -> Option<String> {
    match (&settings.email, settings.verified_at, settings.bounced_at) {
        (Some(email), Some(_), None) => Some(email.clone()),
        _ => None,
    }
}

/// Why the player does not want this notice by email, if they do not.
fn unwanted(settings: &MailSettingsRow, notice: &Notice) -> Option<&'static str> {
    let wanted = match notice {
        Notice::YourTurn { .. } if settings.digest_hours.is_some() => {
            return Some("in the digest");
        }
        Notice::YourTurn { .. } | Notice::Digest { .. } => settings.your_turn,
        Notice::DeadlineReminder { .. } => settings.deadline_reminder,
        Notice::Invitation { .. } => settings.invitation,
        Notice::GameStarted { .. } => settings.game_started,
        Notice::GameOver { .. } => settings.game_over,
        // Event news: the last as a game's end, the rest as a game's start.
        Notice::Event {
            news: EventNews::Over { .. },
            ..
        } => settings.game_over,
        Notice::Event { .. } => settings.game_started,
        // The account's own safety: always sent.
        Notice::VerifyEmail { .. }
        | Notice::PasswordReset { .. }
        | Notice::PasswordChanged
        | Notice::TwoFactorChanged { .. }
        | Notice::Moderated { .. }
        | Notice::AccountDeleted { .. } => true,
        // The answer to the player's own email.
        Notice::MailReply { .. } => true,
        // Told on the stream and to webhooks only: the review waits on the record's page.
        Notice::ReviewReady { .. } => return Some("told on the stream only"),
    };
    (!wanted).then_some("turned off in the preferences")
}
