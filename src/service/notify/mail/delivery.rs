//! Delivering the outbox by SMTP: claim due notifications (a lease, so several server instances
//! share the work and a crash only delays), decide whether each is to be sent (a verified address,
//! the player's preferences, still relevant), render it, send it, and record the outcome. At
//! least once: a message whose outcome was not recorded is sent again after the lease, with the
//! same `Message-ID`. Retries back off exponentially; an address the relay refuses for good is
//! marked bounced and used no more.

use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{Message, SmtpTransport, Transport};

use super::facts::game_facts;
use super::link_token;
use super::messages::{render, Email, Links, Subject};
use crate::service::accounts::sessions::TokenKeys;
use crate::service::notify::notifications::{turn_notice_over, Notice};
use crate::service::play::games::GameLinks;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::games as game_store;
use crate::storage::mail::{self as mail_store, MailSettingsRow};
use crate::storage::notifications::{self as store, NotificationRow};
use crate::storage::{Database, DbConnection, StorageError};

/// How long a claimed notification is this instance's to send.
const LEASE_MS: i64 = 5 * 60 * 1000;
/// Attempts before a notification is given up on.
const MAX_ATTEMPTS: i32 = 10;
/// The first retry waits this long; each next one twice as long, up to [`MAX_BACKOFF_MS`].
const FIRST_BACKOFF_MS: i64 = 30 * 1000;
const MAX_BACKOFF_MS: i64 = 6 * 3600 * 1000;
/// How to reach the SMTP relay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SmtpTls {
    /// Plain text (a relay on the same host or network only).
    None,
    /// STARTTLS, required (port 587 by default).
    Starttls,
    /// Implicit TLS (port 465 by default).
    Tls,
}

/// The relay and what the emails need.
#[derive(Clone, Debug)]
pub struct SmtpSettings {
    pub host: String,
    pub port: Option<u16>,
    pub tls: SmtpTls,
    pub username: Option<String>,
    pub password: Option<String>,
    /// The sender, e.g. `Keltis <keltis@example.org>`.
    pub from: String,
    /// Where players reach the server (links in emails), e.g. `https://keltis.example.org`.
    pub public_url: String,
}

/// A connection to the relay, with the sender and the link key.
pub struct Mailer {
    transport: SmtpTransport,
    from: Mailbox,
    public_url: String,
    /// The domain of `Message-ID`s.
    domain: String,
    keys: TokenKeys,
}

impl Mailer {
    pub fn new(settings: &SmtpSettings, keys: TokenKeys) -> Result<Mailer, String> {
        let from: Mailbox = settings
            .from
            .parse()
            .map_err(|e| format!("the sender {:?}: {e}", settings.from))?;
        let builder = match settings.tls {
            SmtpTls::None => Ok(SmtpTransport::builder_dangerous(&settings.host)),
            SmtpTls::Starttls => SmtpTransport::starttls_relay(&settings.host),
            SmtpTls::Tls => SmtpTransport::relay(&settings.host),
        }
        .map_err(|e| format!("the SMTP relay {}: {e}", settings.host))?;
        let mut builder = builder.timeout(Some(std::time::Duration::from_secs(20)));
        if let Some(port) = settings.port {
            builder = builder.port(port);
        }
        if let (Some(user), Some(password)) = (&settings.username, &settings.password) {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(Mailer {
            transport: builder.build(),
            domain: from.email.domain().to_string(),
            from,
            public_url: settings.public_url.trim_end_matches('/').to_string(),
            keys,
        })
    }

    fn game_link(&self, game_id: i64) -> String {
        format!("{}{}", self.public_url, GameLinks::of(game_id).page)
    }
}

/// What to do with one notification.
enum Plan {
    Send {
        to: String,
        email: Email,
        unsubscribe: Option<String>,
    },
    Skip(&'static str),
}

/// Send the notifications that are due. Returns how many were handled.
pub fn deliver_due(db: &Database, mailer: &Mailer, batch: i64) -> ServiceResult<usize> {
    let now = db.now();
    let claimed = db.write(|c| store::claim(c, now, LEASE_MS, batch))?;
    let handled = claimed.len();
    for row in claimed {
        let outcome = match db.read(|c| plan(c, mailer, &row, now)) {
            Ok(Plan::Skip(why)) => {
                db.write(|c| store::finish(c, row.id, "skipped", now, Some(why)))
            }
            Ok(Plan::Send {
                to,
                email,
                unsubscribe,
            }) => send_and_record(db, mailer, &row, &to, &email, unsubscribe.as_deref(), now),
            Err(e) => {
                let why = e.to_string();
                db.write(|c| store::finish(c, row.id, "failed", now, Some(&why)))
            }
        };
        if let Err(e) = outcome {
            tracing::warn!(notification = row.id, error = %e, "recording a delivery failed");
        }
        // A goodbye holds the only copy of a deleted account's address: gone once it is sent
        // or given up on (a retry keeps it until then).
        if row.kind == "account_deleted" {
            if let Err(e) = db.write(|c| store::delete_unless_pending(c, row.id)) {
                tracing::warn!(notification = row.id, error = %e, "deleting a sent goodbye failed");
            }
        }
    }
    Ok(handled)
}

fn send_and_record(
    db: &Database,
    mailer: &Mailer,
    row: &NotificationRow,
    to: &str,
    email: &Email,
    unsubscribe: Option<&str>,
    now: i64,
) -> Result<(), StorageError> {
    match send(mailer, row.id, to, email, unsubscribe) {
        Ok(()) => db.write(|c| store::finish(c, row.id, "sent", now, None)),
        Err(Failure::Bounced(why)) => db.write(|c| {
            mail_store::mark_bounced(c, row.user_id, to, now)?;
            store::finish(c, row.id, "failed", now, Some(&why))
        }),
        Err(Failure::Permanent(why)) => {
            db.write(|c| store::finish(c, row.id, "failed", now, Some(&why)))
        }
        Err(Failure::Transient(why)) if row.attempts >= MAX_ATTEMPTS => {
            db.write(|c| store::finish(c, row.id, "failed", now, Some(&why)))
        }
        Err(Failure::Transient(why)) => {
            let wait = (FIRST_BACKOFF_MS << (row.attempts - 1).clamp(0, 20)).min(MAX_BACKOFF_MS);
            tracing::info!(notification = row.id, attempts = row.attempts, wait_ms = wait, error = %why, "email delivery will be retried");
            db.write(|c| store::retry_at(c, row.id, now + wait, &why))
        }
    }
}

enum Failure {
    /// The relay refused the recipient for good (5.x.x on the mailbox).
    Bounced(String),
    /// Another refusal for good (the message itself).
    Permanent(String),
    /// Try again later (relay down, 4.x.x).
    Transient(String),
}

#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }
    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_string()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// RFC 8058: the unsubscribe link works with one POST, no page to visit.
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }
    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}

fn send(
    mailer: &Mailer,
    id: i64,
    to: &str,
    email: &Email,
    unsubscribe: Option<&str>,
) -> Result<(), Failure> {
    let to: Mailbox = to
        .parse()
        .map_err(|e| Failure::Bounced(format!("the address: {e}")))?;
    let mut builder = Message::builder()
        .from(mailer.from.clone())
        .to(to)
        .subject(email.subject.clone())
        // The same id on every attempt: a receiver can tell a repeat.
        .message_id(Some(format!("<notification-{id}@{}>", mailer.domain)));
    if let Some(url) = unsubscribe {
        builder = builder
            .header(ListUnsubscribe(format!("<{url}>")))
            .header(ListUnsubscribePost);
    }
    let message = builder
        .multipart(MultiPart::alternative_plain_html(
            email.text.clone(),
            email.html.clone(),
        ))
        .map_err(|e| Failure::Permanent(e.to_string()))?;
    mailer.transport.send(&message).map(|_| ()).map_err(|e| {
        let code = e.status().map(|c| c.to_string()).unwrap_or_default();
        if e.is_permanent() && (code.starts_with("55") || code == "501") {
            Failure::Bounced(e.to_string())
        } else if e.is_permanent() {
            Failure::Permanent(e.to_string())
        } else {
            Failure::Transient(e.to_string())
        }
    })
}

/// Decide about one notification and render it.
fn plan(
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
        return Ok(Plan::Send {
            to: email.clone(),
            email: render(language, Subject::AccountDeleted, &links),
            unsubscribe: None,
        });
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
        return Ok(Plan::Send {
            to: email.clone(),
            email: render(language, Subject::Verify, &links),
            unsubscribe: None,
        });
    }
    let Some(to) = usable_address(&settings) else {
        return Ok(Plan::Skip("no confirmed email address"));
    };
    if let Some(why) = unwanted(&settings, &notice) {
        return Ok(Plan::Skip(why));
    }
    // The account's own emails: no unsubscribe link, no game.
    let own = |subject: Subject<'_>, link: &str| Plan::Send {
        to: to.clone(),
        email: render(
            language,
            subject,
            &Links {
                main: link,
                unsubscribe: None,
            },
        ),
        unsubscribe: None,
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
        _ => {
            let game_id = notice.game_id().unwrap_or_default();
            let Some(game) = game_facts(conn, game_id, row.user_id, now)? else {
                return Ok(Plan::Skip("the game is gone"));
            };
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
            let subject = match &notice {
                Notice::YourTurn { .. } => Subject::YourTurn(&game),
                Notice::DeadlineReminder { lead_ms, .. } => Subject::Reminder {
                    game: &game,
                    lead_ms: *lead_ms,
                },
                Notice::Invitation { by, .. } => Subject::Invitation { game: &game, by },
                Notice::GameStarted { .. } => Subject::Started(&game),
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
    Ok(Plan::Send {
        to,
        email,
        unsubscribe: Some(unsubscribe),
    })
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
        // The account's own safety: always sent.
        Notice::VerifyEmail { .. }
        | Notice::PasswordReset { .. }
        | Notice::PasswordChanged
        | Notice::TwoFactorChanged { .. }
        | Notice::Moderated { .. }
        | Notice::AccountDeleted { .. } => true,
    };
    (!wanted).then_some("turned off in the preferences")
}

/// Queue the digests that are due: for each player in digest mode, one message listing the games
/// waiting for them (none when nothing waits). Returns how many were queued.
pub fn queue_due_digests(db: &Database, batch: i64) -> ServiceResult<usize> {
    let now = db.now();
    let due = db.read(|c| mail_store::digests_due(c, now, batch))?;
    let mut queued = 0;
    for settings in due {
        let done = db.write(|conn| -> ServiceResult<bool> {
            if !mail_store::digest_sent(conn, settings.user_id, settings.last_digest_at, now)? {
                return Ok(false);
            }
            let game_ids = game_store::games_awaiting(conn, &[settings.user_id], 100)?
                .into_iter()
                .map(|(id, _)| id)
                .collect::<Vec<_>>();
            let hidden = crate::storage::social::kept_apart(conn, settings.user_id)?;
            let since = settings.last_digest_at.unwrap_or(0);
            let unread_messages =
                crate::storage::social::unread_since(conn, settings.user_id, since, &hidden)?;
            if (game_ids.is_empty() && unread_messages == 0) || !settings.your_turn {
                return Ok(false);
            }
            crate::service::notify::notifications::queue(
                conn,
                settings.user_id,
                &Notice::Digest {
                    game_ids,
                    unread_messages,
                },
                now,
            )
        })?;
        queued += done as usize;
    }
    Ok(queued)
}
