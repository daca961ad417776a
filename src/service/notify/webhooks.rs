//! Webhooks for integrations: an account registers endpoints for kinds of notices; each notice
//! queued for the account is delivered to them through the outbox (written in the notice's own
//! transaction), signed as the Standard Webhooks specification says, retried with backoff, and
//! logged attempt by attempt. An endpoint that fails [`DISABLE_AFTER`] times in a row is disabled.

use std::time::Duration;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use time::format_description::well_known::Rfc3339;
use utoipa::ToSchema;

use crate::service::accounts::sealing::{self, Purpose};
use crate::service::accounts::{Caller, Scope, TokenKeys};
use crate::service::notify::outbound::{self, OutboundError};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::locks::{self, Subject};
use crate::storage::webhooks::{self as store, Attempt, DeliveryRow, WebhookRow};
use crate::storage::Database;

/// Endpoints per account.
pub const MAX_ENDPOINTS: usize = 10;
/// Failed attempts in a row after which an endpoint is disabled (its owner turns it on again).
pub const DISABLE_AFTER: i32 = 20;
/// Attempts per delivery before it is given up on.
pub const MAX_ATTEMPTS: i32 = 10;
/// How long a claimed delivery is another instance's to try.
const LEASE_MS: i64 = 60_000;
/// How long an endpoint has to answer.
const TIMEOUT: Duration = Duration::from_secs(10);

/// The kinds of notices a webhook can carry: the ones told live.
pub use crate::service::notify::notifications::LiveKind as WebhookKind;

/// An endpoint to register.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewWebhook {
    /// `https://` (or `http://`) URL; private, loopback and link-local addresses are refused
    /// unless the operator allows them.
    #[schema(example = "https://example.org/keltis-hook", max_length = 2048)]
    pub url: String,
    /// The notices to deliver (at least one).
    #[schema(min_items = 1)]
    pub kinds: Vec<WebhookKind>,
}

/// A registered endpoint.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Webhook {
    pub id: i64,
    pub url: String,
    pub kinds: Vec<WebhookKind>,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    /// False once disabled after too many failures in a row.
    pub active: bool,
    /// Failed attempts in a row (the endpoint is disabled at 20).
    pub failures: i32,
    /// When it was disabled (milliseconds since the Unix epoch).
    #[schema(required = true)]
    pub disabled_at: Option<i64>,
}

/// A new endpoint and its signing secret, shown this once.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct CreatedWebhook {
    pub webhook: Webhook,
    /// `whsec_` and the base64 key of the `webhook-signature` HMAC (Standard Webhooks).
    pub secret: String,
}

/// One delivery attempt, as the endpoint's log shows it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct WebhookAttempt {
    pub id: i64,
    /// The delivery (the `webhook-id` header is `msg_` and this number): retries share it.
    pub delivery_id: i64,
    /// The notice delivered (as in `GET /me/notifications`).
    pub notification_id: i64,
    pub kind: WebhookKind,
    /// Milliseconds since the Unix epoch.
    pub attempted_at: i64,
    /// The endpoint's answer; `null` when none came.
    #[schema(required = true)]
    pub status_code: Option<i32>,
    /// Why the attempt failed, when it did.
    #[schema(required = true)]
    pub error: Option<String>,
    pub succeeded: bool,
}

/// What the operator allows: the policy of every call out (see `outbound`).
pub use crate::service::notify::outbound::OutboundPolicy as WebhookPolicy;

fn managed_by(caller: &Caller) -> ServiceResult<()> {
    caller.require(Scope::Webhooks)
}

fn view(row: &WebhookRow) -> Webhook {
    Webhook {
        id: row.id,
        url: row.url.clone(),
        kinds: WebhookKind::ALL
            .into_iter()
            .filter(|k| row.kinds.contains(&format!(",{},", k.name())))
            .collect(),
        created_at: row.created_at,
        active: row.disabled_at.is_none(),
        failures: row.failures,
        disabled_at: row.disabled_at,
    }
}

/// Check an endpoint's URL and, now, where its host leads; the parsed URL.
fn checked_url(url: &str, policy: WebhookPolicy) -> ServiceResult<reqwest::Url> {
    outbound::check_url(url, policy).map_err(|e| match e {
        OutboundError::Private => ServiceError::invalid("private_webhook_address", e.to_string()),
        other => ServiceError::invalid("invalid_webhook_url", other.to_string()),
    })
}

/// Register an endpoint; its secret is in the answer, and never again.
pub fn create(
    db: &Database,
    policy: WebhookPolicy,
    keys: &TokenKeys,
    caller: &Caller,
    new: &NewWebhook,
) -> ServiceResult<CreatedWebhook> {
    managed_by(caller)?;
    if new.kinds.is_empty() {
        return Err(ServiceError::invalid(
            "invalid_webhook_kinds",
            "name at least one kind of notice",
        ));
    }
    let url = checked_url(new.url.trim(), policy)?;
    let mut key = [0u8; 24];
    getrandom::getrandom(&mut key).map_err(|e| ServiceError::Internal(e.to_string()))?;
    let secret = format!("whsec_{}", BASE64.encode(key));
    let kept = kept_secret(keys, &secret)?;
    let kinds: Vec<&str> = WebhookKind::ALL
        .into_iter()
        .filter(|k| new.kinds.contains(k))
        .map(WebhookKind::name)
        .collect();
    let now = db.now();
    let row = db.write(|conn| {
        // The cap holds against another endpoint registered at the same moment.
        locks::lock(conn, Subject::Player(caller.user_id))?;
        if store::of_user(conn, caller.user_id)?.len() >= MAX_ENDPOINTS {
            return Err(ServiceError::conflict(
                "too_many_webhooks",
                format!("an account has at most {MAX_ENDPOINTS} webhooks"),
            ));
        }
        Ok(store::create(
            conn,
            caller.user_id,
            url.as_str(),
            &store::kinds_column(&kinds),
            &kept,
            now,
        )?)
    })?;
    Ok(CreatedWebhook {
        webhook: view(&row),
        secret,
    })
}

/// The caller's endpoints.
pub fn list(db: &Database, caller: &Caller) -> ServiceResult<Vec<Webhook>> {
    managed_by(caller)?;
    db.read(|conn| {
        Ok(store::of_user(conn, caller.user_id)?
            .iter()
            .map(view)
            .collect())
    })
}

/// Remove an endpoint, its pending deliveries and its log.
pub fn delete(db: &Database, caller: &Caller, id: i64) -> ServiceResult<()> {
    managed_by(caller)?;
    if db.write(|conn| store::delete(conn, caller.user_id, id))? {
        Ok(())
    } else {
        Err(ServiceError::NotFound("webhook"))
    }
}

/// Turn a disabled endpoint on again.
pub fn enable(db: &Database, caller: &Caller, id: i64) -> ServiceResult<Webhook> {
    managed_by(caller)?;
    db.write(|conn| {
        if !store::enable(conn, caller.user_id, id)? {
            return Err(ServiceError::NotFound("webhook"));
        }
        let row = store::one(conn, caller.user_id, id)?.ok_or(ServiceError::NotFound("webhook"))?;
        Ok(view(&row))
    })
}

/// An endpoint's delivery log, newest attempt first; `before`: only older ones.
pub fn attempts(
    db: &Database,
    caller: &Caller,
    id: i64,
    before: Option<i64>,
    limit: i64,
) -> ServiceResult<Vec<WebhookAttempt>> {
    caller.require(Scope::Webhooks)?;
    db.read(|conn| {
        if store::one(conn, caller.user_id, id)?.is_none() {
            return Err(ServiceError::NotFound("webhook"));
        }
        Ok(store::attempts(conn, id, before, limit)?
            .into_iter()
            .map(|a| WebhookAttempt {
                id: a.id,
                delivery_id: a.delivery_id,
                notification_id: a.notification_id,
                kind: WebhookKind::ALL
                    .into_iter()
                    .find(|k| k.name() == a.kind)
                    .unwrap_or(WebhookKind::YourTurn),
                attempted_at: a.attempted_at,
                status_code: a.status_code,
                error: a.error,
                succeeded: a.succeeded,
            })
            .collect())
    })
}

/// Sends deliveries through the guarded client (`outbound`): the address it connects to is the
/// one it checked.
pub struct WebhookSender {
    client: reqwest::blocking::Client,
    policy: WebhookPolicy,
    keys: TokenKeys,
}

impl WebhookSender {
    pub fn new(policy: WebhookPolicy, keys: TokenKeys) -> Result<WebhookSender, String> {
        let client = outbound::client(
            policy,
            TIMEOUT,
            concat!("keltis-webhooks/", env!("CARGO_PKG_VERSION")),
        )?;
        Ok(WebhookSender {
            client,
            policy,
            keys,
        })
    }

    /// One attempt: the endpoint's status code, or why there was none.
    fn send(&self, hook: &WebhookRow, delivery: &DeliveryRow) -> Result<u16, String> {
        // A name is checked by the client's resolver as it connects; a literal address here.
        let url = outbound::parse_url(&hook.url, self.policy).map_err(|e| e.to_string())?;
        let notice: serde_json::Value =
            serde_json::from_str(&delivery.payload).map_err(|e| e.to_string())?;
        let now_ms = crate::storage::now_millis();
        let body = serde_json::json!({
            "type": delivery.kind,
            "timestamp": crate::service::format_millis(now_ms, &Rfc3339),
            "data": notice,
        })
        .to_string();
        let id = format!("msg_{}", delivery.id);
        let timestamp = now_ms / 1000;
        let secret = secret_of(&self.keys, &hook.secret).map_err(|e| e.to_string())?;
        let signature = sign(&secret, &id, timestamp, &body)?;
        let response = self
            .client
            .post(url)
            .header("content-type", "application/json")
            .header("webhook-id", &id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(body)
            .send()
            .map_err(|e| outbound::describe(&e))?;
        Ok(response.status().as_u16())
    }
}

/// Marks a signing secret kept sealed; a secret kept before sealing starts with `whsec_`.
const SEALED: &str = "sealed:";

/// How a signing secret is kept: sealed under the server's key (the server signs with it, so it
/// cannot be hashed).
fn kept_secret(keys: &TokenKeys, secret: &str) -> ServiceResult<String> {
    Ok(format!(
        "{SEALED}{}",
        sealing::seal(keys, Purpose::WebhookSigning, secret.as_bytes())?
    ))
}

/// The signing secret (`whsec_...`) of an endpoint, as kept.
fn secret_of(keys: &TokenKeys, kept: &str) -> ServiceResult<String> {
    match kept.strip_prefix(SEALED) {
        Some(sealed) => String::from_utf8(sealing::open(keys, Purpose::WebhookSigning, sealed)?)
            .map_err(|e| ServiceError::Internal(format!("a webhook's signing secret: {e}"))),
        None => Ok(kept.to_string()),
    }
}

/// Seal the signing secrets kept in the clear before they were sealed (at start; idempotent,
/// and two instances doing it at once each seal a row once). Returns how many were sealed.
pub fn seal_kept_secrets(db: &Database, keys: &TokenKeys) -> ServiceResult<usize> {
    let plain =
        db.read(|conn| Ok::<_, ServiceError>(store::secrets_in_the_clear(conn, SEALED)?))?;
    let mut sealed = 0;
    for (id, secret) in plain {
        let kept = kept_secret(keys, &secret)?;
        if db.write(|conn| store::replace_secret(conn, id, &secret, &kept))? {
            sealed += 1;
        }
    }
    Ok(sealed)
}

/// `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's key.
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> Result<String, String> {
    sign_bytes(secret, id, timestamp, body.as_bytes())
}

fn sign_bytes(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> Result<String, String> {
    let key = BASE64
        .decode(secret.trim_start_matches("whsec_"))
        .map_err(|e| e.to_string())?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(|e| e.to_string())?;
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body);
    Ok(format!("v1,{}", BASE64.encode(mac.finalize().into_bytes())))
}

/// How far a signed delivery's timestamp may be from now (Standard Webhooks: replays of old
/// deliveries are refused).
pub const SIGNATURE_TOLERANCE_SECONDS: i64 = 5 * 60;

/// Whether a delivery to us is signed with `secret` (one of the space-separated `v1,`
/// signatures fits, compared in constant time) and its timestamp (seconds) is within the
/// tolerance of `now_seconds`.
pub fn signed_by(
    secret: &str,
    id: &str,
    timestamp: &str,
    signatures: &str,
    body: &[u8],
    now_seconds: i64,
) -> bool {
    use subtle::ConstantTimeEq;
    let Ok(at) = timestamp.trim().parse::<i64>() else {
        return false;
    };
    if (now_seconds - at).abs() > SIGNATURE_TOLERANCE_SECONDS || id.is_empty() {
        return false;
    }
    let Ok(expected) = sign_bytes(secret, id, at, body) else {
        return false;
    };
    signatures
        .split_whitespace()
        .any(|given| bool::from(given.as_bytes().ct_eq(expected.as_bytes())))
}

/// The wait before attempt `attempts + 1`: 30 s, then four times longer each time, at most 12 h.
fn backoff_ms(attempts: i32) -> i64 {
    let step = 30_000i64.saturating_mul(4i64.saturating_pow(attempts.max(1) as u32 - 1));
    step.min(12 * 3600 * 1000)
}

/// Send what is due; the number of deliveries attempted.
pub fn deliver_due(db: &Database, sender: &WebhookSender, batch: i64) -> ServiceResult<usize> {
    let now = db.now();
    let claimed = db.write(|conn| store::claim(conn, now, LEASE_MS, batch))?;
    let count = claimed.len();
    for (delivery, hook) in claimed {
        if hook.disabled_at.is_some() {
            db.write(|conn| store::drop_delivery(conn, delivery.id))?;
            continue;
        }
        let outcome = sender.send(&hook, &delivery);
        let (succeeded, status_code, error) = match outcome {
            Ok(code) if (200..300).contains(&code) => (true, Some(code as i32), None),
            Ok(code) => (false, Some(code as i32), Some(format!("answered {code}"))),
            Err(e) => (false, None, Some(e)),
        };
        let at = db.now();
        let retry_at = (!succeeded && delivery.attempts < MAX_ATTEMPTS)
            .then(|| at + backoff_ms(delivery.attempts));
        if let Some(e) = &error {
            tracing::info!(webhook = hook.id, delivery = delivery.id, error = %e, "webhook attempt failed");
        }
        let attempt = Attempt {
            at,
            status_code,
            error: error.as_deref(),
            succeeded,
            retry_at,
            disable_after: DISABLE_AFTER,
        };
        db.write(|conn| store::record_attempt(conn, &delivery, &attempt))?;
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_the_one_of_the_standard_webhooks_example() {
        // The example of the Standard Webhooks specification's reference libraries.
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = r#"{"test": 2432232314}"#;
        let signature = sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).unwrap();
        assert_eq!(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn backoff_grows_and_is_bounded() {
        assert_eq!(backoff_ms(1), 30_000);
        assert_eq!(backoff_ms(2), 120_000);
        assert!(backoff_ms(9) <= 12 * 3600 * 1000);
        assert_eq!(backoff_ms(30), 12 * 3600 * 1000);
    }
}
