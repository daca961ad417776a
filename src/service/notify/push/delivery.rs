//! Sending the push outbox: what a push says, whether it still holds, its encryption and VAPID
//! signature, its headers, and what the push service's answer does (see the module above).

use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD as BASE64URL;
use base64::Engine;
use serde::Serialize;
use web_push_native::jwt_simple::algorithms::ECDSAP256KeyPairLike;
use web_push_native::jwt_simple::claims::Claims;

use super::PushKeys;
use crate::service::i18n::{self, Language};
use crate::service::notify::event_news;
use crate::service::notify::notifications::{turn_notice_over, EventNews, Notice};
use crate::service::notify::outbound::{self, OutboundPolicy};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::push::{self as store, PushDeliveryRow, SubscriptionRow};
use crate::storage::{games as game_store, mail as mail_store};
use crate::storage::{Database, DbConnection};

/// How long a claimed delivery is another instance's to try.
const LEASE_MS: i64 = 60_000;
/// How long a push service has to answer.
const TIMEOUT: Duration = Duration::from_secs(10);
/// How long a VAPID token is valid (RFC 8292: at most 24 hours).
const VAPID_VALIDITY: Duration = Duration::from_secs(12 * 3600);
/// How long a push service keeps a push for an offline device when nothing sooner makes it moot.
const DEFAULT_TTL_SECONDS: i64 = 7 * 24 * 3600;
/// Attempts per delivery before it is given up on.
pub const MAX_ATTEMPTS: i32 = 8;

/// What a device receives (decrypted): no card, ever.
#[derive(Debug, Serialize)]
pub struct PushMessage {
    /// The notice's kind (`your_turn`, `deadline_reminder`, `invitation`, `game_started`,
    /// `game_over`, `test`).
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_id: Option<i64>,
    /// In the player's language.
    pub title: String,
    pub body: String,
    /// The page to open (path from the server's root).
    pub url: String,
    /// Groups a game's notifications on the device.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

/// A push ready to send: its message and headers.
struct Outgoing {
    message: PushMessage,
    ttl_seconds: i64,
    urgency: &'static str,
    /// A newer push with the same topic replaces an undelivered older one.
    topic: Option<String>,
}

/// The push for `delivery` to `user_id`, or why none is due any more.
fn outgoing(
    conn: &mut DbConnection,
    delivery: &PushDeliveryRow,
    user_id: i64,
    now: i64,
) -> ServiceResult<Result<Outgoing, &'static str>> {
    let settings = mail_store::settings(conn, user_id)?;
    let language = settings
        .as_ref()
        .map(|s| Language::parse(&s.language))
        .unwrap_or_default();
    let word = |id| i18n::word(language, id);
    if delivery.kind == "test" {
        return Ok(Ok(Outgoing {
            message: PushMessage {
                kind: "test".into(),
                game_id: None,
                title: word("push-test-title"),
                body: word("push-test-body"),
                url: "/".into(),
                tag: None,
            },
            ttl_seconds: 3600,
            urgency: "normal",
            topic: None,
        }));
    }
    let notice: Notice = serde_json::from_str(&delivery.payload)
        .map_err(|e| ServiceError::Internal(format!("a push's notice: {e}")))?;
    // The kinds a player turned off for push.
    if let Some(s) = &settings {
        let wanted = match notice {
            Notice::YourTurn { .. } => s.push_your_turn,
            Notice::DeadlineReminder { .. } => s.push_deadline_reminder,
            Notice::Invitation { .. } => s.push_invitation,
            Notice::GameStarted { .. } => s.push_game_started,
            Notice::GameOver { .. } => s.push_game_over,
            // Event news: the last as a game's end, the rest as a game's start.
            Notice::Event {
                news: EventNews::Over { .. },
                ..
            } => s.push_game_over,
            Notice::Event { .. } => s.push_game_started,
            _ => false,
        };
        if !wanted {
            return Ok(Err("turned off in the preferences"));
        }
    }
    if let Notice::Event { event_id, news } = notice {
        let Some(name) = event_news::event_name(conn, event_id)? else {
            return Ok(Err("the event is gone"));
        };
        let game_id = match news {
            EventNews::Round { game_id, .. } => game_id,
            _ => None,
        };
        return Ok(Ok(Outgoing {
            message: PushMessage {
                kind: notice.kind().to_string(),
                game_id,
                title: event_news::title(language, &name, news),
                body: word("event-open"),
                url: event_news::path(event_id, news),
                tag: Some(format!("event-{event_id}")),
            },
            ttl_seconds: DEFAULT_TTL_SECONDS,
            urgency: "normal",
            topic: None,
        }));
    }
    let Some(game_id) = notice.game_id() else {
        return Ok(Err("not a notice that is pushed"));
    };
    let row = game_store::game(conn, game_id)?;
    // As for email: a turn that is over, or that a later notice tells, is not pushed.
    if let Some(why) = turn_notice_over(
        conn,
        row.as_ref(),
        user_id,
        delivery.notification_id,
        &notice,
    )? {
        return Ok(Err(why));
    }
    let deadline = row.as_ref().and_then(|g| g.deadline_at);
    let about = |id| i18n::text(language, id, &[("id", game_id.into())]);
    let (title, ttl_seconds, urgency, topic) = match &notice {
        Notice::YourTurn { .. } => {
            let ttl = deadline.map_or(DEFAULT_TTL_SECONDS, |d| (d - now) / 1000);
            (
                about("push-your-turn"),
                ttl,
                "normal",
                Some(format!("turn-{game_id}")),
            )
        }
        Notice::DeadlineReminder {
            deadline: d,
            lead_ms,
            ..
        } => {
            // The last reminder (an hour before) is urgent.
            let urgency = if *lead_ms <= 3_600_000 {
                "high"
            } else {
                "normal"
            };
            (
                about("push-reminder"),
                (d - now) / 1000,
                urgency,
                Some(format!("turn-{game_id}")),
            )
        }
        Notice::Invitation { by, rematch, .. } => (
            i18n::text(
                language,
                if *rematch {
                    "push-rematch"
                } else {
                    "push-invitation"
                },
                &[("id", game_id.into()), ("by", by.as_str().into())],
            ),
            DEFAULT_TTL_SECONDS,
            "normal",
            None,
        ),
        Notice::GameStarted { .. } => (about("push-started"), DEFAULT_TTL_SECONDS, "low", None),
        _ => (
            about("push-over"),
            DEFAULT_TTL_SECONDS,
            "low",
            Some(format!("turn-{game_id}")),
        ),
    };
    if ttl_seconds <= 0 {
        return Ok(Err("its deadline has passed"));
    }
    Ok(Ok(Outgoing {
        message: PushMessage {
            kind: notice.kind().to_string(),
            game_id: Some(game_id),
            title,
            body: word("push-open"),
            url: format!("/games/{game_id}"),
            tag: Some(format!("game-{game_id}")),
        },
        ttl_seconds,
        urgency,
        topic,
    }))
}

/// The origin of a push endpoint (`https://push.example.net`, with its port when not the
/// scheme's own): the VAPID token's audience.
fn origin(url: &reqwest::Url) -> String {
    url.origin().ascii_serialization()
}

/// Sends pushes through the guarded client.
pub struct PushSender {
    client: reqwest::blocking::Client,
    keys: PushKeys,
    policy: OutboundPolicy,
}

/// What a push service's answer means.
enum Answer {
    Sent,
    /// The device is gone (404, 410): forget it.
    Gone,
    /// Try again (429, 5xx, no answer), after `Retry-After` when the service gave one.
    Later(Option<i64>, String),
    /// Refused for good (another 4xx).
    Refused(String),
}

impl PushSender {
    pub fn new(keys: PushKeys, policy: OutboundPolicy) -> Result<PushSender, String> {
        let client = outbound::client(
            policy,
            TIMEOUT,
            concat!("keltis-push/", env!("CARGO_PKG_VERSION")),
        )?;
        Ok(PushSender {
            client,
            keys,
            policy,
        })
    }

    fn send(&self, device: &SubscriptionRow, push: &Outgoing) -> Answer {
        match self.try_send(device, push) {
            Ok(answer) => answer,
            Err(e) => Answer::Later(None, e),
        }
    }

    fn try_send(&self, device: &SubscriptionRow, push: &Outgoing) -> Result<Answer, String> {
        let url = outbound::parse_url(&device.endpoint, self.policy).map_err(|e| e.to_string())?;
        let sealed = seal(
            &self.keys,
            &url,
            &device.p256dh,
            &device.auth,
            &push.message,
        )?;
        let mut request = self
            .client
            .post(url)
            .header("authorization", sealed.authorization)
            .header("content-encoding", "aes128gcm")
            .header("content-type", "application/octet-stream")
            .header("ttl", push.ttl_seconds.to_string())
            .header("urgency", push.urgency);
        if let Some(topic) = &push.topic {
            request = request.header("topic", topic);
        }
        let response = request
            .body(sealed.body)
            .send()
            .map_err(|e| outbound::describe(&e))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<i64>().ok());
        Ok(match status {
            200..=299 => Answer::Sent,
            404 | 410 => Answer::Gone,
            429 | 500..=599 => {
                Answer::Later(retry_after, format!("the push service answered {status}"))
            }
            _ => Answer::Refused(format!("the push service answered {status}")),
        })
    }
}

/// A push ready for its push service: the encrypted body and the VAPID `Authorization`.
pub struct Sealed {
    pub body: Vec<u8>,
    pub authorization: String,
}

/// Encrypt `message` for the device (`p256dh`, `auth`: base64url) and sign a VAPID token for the
/// push service at `endpoint`: a push's whole cryptographic work.
pub fn seal(
    keys: &PushKeys,
    endpoint: &reqwest::Url,
    p256dh: &str,
    auth: &str,
    message: &PushMessage,
) -> Result<Sealed, String> {
    let ua_public = BASE64URL
        .decode(p256dh)
        .ok()
        .and_then(|b| web_push_native::p256::PublicKey::from_sec1_bytes(&b).ok())
        .ok_or("the device's key is not a P-256 point")?;
    let auth: [u8; 16] = BASE64URL
        .decode(auth)
        .ok()
        .and_then(|a| a.try_into().ok())
        .ok_or("the device's auth secret is not 16 bytes")?;
    let body = serde_json::to_vec(message).map_err(|e| e.to_string())?;
    let body = super::encryption::encrypt(body, &ua_public, &auth)?;
    let claims = Claims::create(VAPID_VALIDITY.into())
        .with_audience(origin(endpoint))
        .with_subject(&keys.subject);
    let token = keys.pair.sign(claims).map_err(|e| e.to_string())?;
    Ok(Sealed {
        body,
        authorization: format!("vapid t={token}, k={}", keys.public),
    })
}

/// When to try a delivery again after `attempts` failures: 30 s, then four times longer each
/// time, at most 6 hours.
fn backoff_ms(attempts: i32) -> i64 {
    let step = 30_000i64.saturating_mul(4i64.saturating_pow(attempts.clamp(1, 10) as u32 - 1));
    step.min(6 * 3600 * 1000)
}

/// Send up to `batch` due pushes; how many were handled.
pub fn deliver_due(db: &Database, sender: &PushSender, batch: i64) -> ServiceResult<usize> {
    let now = db.now();
    let claimed =
        db.write(|conn| Ok::<_, ServiceError>(store::claim(conn, now, LEASE_MS, batch)?))?;
    for (delivery, device) in &claimed {
        let planned = db.read(|conn| outgoing(conn, delivery, device.user_id, now))?;
        let push = match planned {
            Ok(push) => push,
            Err(why) => {
                db.write(|conn| {
                    Ok::<_, ServiceError>(store::finish(
                        conn,
                        delivery,
                        "skipped",
                        None,
                        Some(why),
                        now,
                    )?)
                })?;
                continue;
            }
        };
        let answer = sender.send(device, &push);
        let now = db.now();
        db.write(|conn| {
            match &answer {
                Answer::Sent => store::finish(conn, delivery, "sent", None, None, now)?,
                Answer::Gone => {
                    store::delete(conn, device.id)?;
                }
                Answer::Refused(e) => store::finish(conn, delivery, "failed", None, Some(e), now)?,
                Answer::Later(_, e) if delivery.attempts >= MAX_ATTEMPTS => {
                    store::finish(conn, delivery, "failed", None, Some(e), now)?
                }
                Answer::Later(retry_after, e) => {
                    let wait = retry_after
                        .map(|s| s.clamp(1, 24 * 3600) * 1000)
                        .unwrap_or_else(|| backoff_ms(delivery.attempts));
                    store::finish(conn, delivery, "pending", Some(now + wait), Some(e), now)?
                }
            }
            Ok::<_, ServiceError>(())
        })?;
    }
    Ok(claimed.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_audience_is_the_endpoints_origin() {
        let url = |u: &str| reqwest::Url::parse(u).unwrap();
        assert_eq!(
            origin(&url("https://push.example.net/wpush/v2/abc")),
            "https://push.example.net"
        );
        assert_eq!(
            origin(&url("https://push.example.net:443/x")),
            "https://push.example.net"
        );
        assert_eq!(
            origin(&url("http://127.0.0.1:8123/push/1")),
            "http://127.0.0.1:8123"
        );
    }

    #[test]
    fn backoff_grows_and_is_bounded() {
        assert_eq!(backoff_ms(1), 30_000);
        assert_eq!(backoff_ms(2), 120_000);
        assert_eq!(backoff_ms(20), 6 * 3600 * 1000);
    }
}
