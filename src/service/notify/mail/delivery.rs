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

use super::messages::Email;
use super::planning::{plan, Plan};
use crate::service::accounts::sessions::TokenKeys;
use crate::service::correspondence::by_mail::token::ReplyAddress;
use crate::service::notify::notifications::Notice;
use crate::service::play::games::GameLinks;
use crate::service::ServiceResult;
use crate::storage::games as game_store;
use crate::storage::mail as mail_store;
use crate::storage::notifications::{self as store, NotificationRow};
use crate::storage::{Database, StorageError};

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
    /// Moves by email: the address replies go to (`play@keltis.example.org`), its part before
    /// the `@` extended with each turn's token. `None`: no email offers moves.
    pub reply_address: Option<String>,
}

/// A connection to the relay, with the sender and the link key.
pub struct Mailer {
    transport: SmtpTransport,
    from: Mailbox,
    pub(super) public_url: String,
    /// The domain of `Message-ID`s.
    domain: String,
    pub(super) keys: TokenKeys,
    /// Where replies that play go, when the server receives mail.
    pub(super) reply: Option<ReplyAddress>,
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
        let reply = settings
            .reply_address
            .as_deref()
            .map(ReplyAddress::parse)
            .transpose()?;
        Ok(Mailer {
            reply,
            transport: builder.build(),
            domain: from.email.domain().to_string(),
            from,
            public_url: settings.public_url.trim_end_matches('/').to_string(),
            keys,
        })
    }

    pub(super) fn game_link(&self, game_id: i64) -> String {
        format!("{}{}", self.public_url, GameLinks::of(game_id).page)
    }
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
            Ok(Plan::Send(outgoing)) => send_and_record(db, mailer, &row, &outgoing, now),
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
    outgoing: &Outgoing,
    now: i64,
) -> Result<(), StorageError> {
    let to = outgoing.to.as_str();
    match send(mailer, row.id, outgoing) {
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

/// An email ready to go.
pub(super) struct Outgoing {
    pub to: String,
    pub email: Email,
    pub unsubscribe: Option<String>,
    /// Moves by email: the address a reply plays through.
    pub reply_to: Option<String>,
    /// The `Message-ID` of the reply this email answers (threads it in the player's mailbox).
    pub in_reply_to: Option<String>,
}

fn send(mailer: &Mailer, id: i64, outgoing: &Outgoing) -> Result<(), Failure> {
    let email = &outgoing.email;
    let unsubscribe = outgoing.unsubscribe.as_deref();
    let to: Mailbox = outgoing
        .to
        .parse()
        .map_err(|e| Failure::Bounced(format!("the address: {e}")))?;
    let mut builder = Message::builder()
        .from(mailer.from.clone())
        .to(to)
        .subject(email.subject.clone())
        // The same id on every attempt: a receiver can tell a repeat.
        .message_id(Some(format!("<notification-{id}@{}>", mailer.domain)));
    if let Some(reply_to) = &outgoing.reply_to {
        let mailbox: Mailbox = reply_to
            .parse()
            .map_err(|e| Failure::Permanent(format!("the reply address: {e}")))?;
        builder = builder.reply_to(mailbox);
    }
    if let Some(answered) = &outgoing.in_reply_to {
        let id = format!("<{}>", answered.trim_matches(['<', '>']));
        builder = builder.in_reply_to(id.clone()).references(id);
    }
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
