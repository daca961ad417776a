//! Web Push: notices reach a player's devices (a browser's service worker, an installed web app,
//! a UnifiedPush distributor on Android) through their push services.
//!
//! - this module: the server's VAPID key pair (a setting, or generated once and kept sealed in the
//!   database that every instance shares), and the devices a player registers (a push
//!   subscription: the push service's endpoint, the device's P-256 key and auth secret);
//! - `delivery`: the outbox of deliveries, one per device for every notice told live, written in
//!   the notice's own transaction; the push worker of any instance claims them with leases,
//!   encrypts each (RFC 8291, aes128gcm: `encryption`), signs it (RFC 8292, VAPID), and sends it through the
//!   guarded client (`outbound`). A push carries the notice's kind, its game and a title and body
//!   in the player's language, never a card.

pub mod delivery;
pub mod encryption;

use base64::engine::general_purpose::URL_SAFE_NO_PAD as BASE64URL;
use base64::Engine;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256KeyPair};

use crate::service::accounts::sealing::{self, Purpose};
use crate::service::accounts::{Caller, Scope, TokenKeys};
use crate::service::notify::outbound::{self, OutboundError, OutboundPolicy};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::locks::{self, Subject};
use crate::storage::push::{self as store, NewSubscription, SubscriptionRow};
use crate::storage::server_secrets;
use crate::storage::Database;

/// Devices per account.
pub const MAX_DEVICES: usize = 10;

/// The server's VAPID key pair (P-256) and the contact it names (`sub`).
pub struct PushKeys {
    pair: ES256KeyPair,
    /// The public key as clients pass it to `pushManager.subscribe`: the uncompressed point,
    /// base64url.
    public: String,
    subject: String,
}

impl PushKeys {
    /// The key pair of a private key (32 bytes, base64url as kept in the data folder or the
    /// setting).
    pub fn from_private(private: &str, subject: &str) -> Result<PushKeys, String> {
        let bytes = BASE64URL
            .decode(private.trim())
            .map_err(|e| format!("the VAPID private key is not base64url: {e}"))?;
        let pair = ES256KeyPair::from_bytes(&bytes)
            .map_err(|e| format!("the VAPID private key is not a P-256 key: {e}"))?;
        let public = BASE64URL.encode(pair.public_key().public_key().to_bytes_uncompressed());
        Ok(PushKeys {
            pair,
            public,
            subject: subject.to_string(),
        })
    }

    /// A new private key, base64url (what `from_private` reads).
    pub fn generate_private() -> String {
        BASE64URL.encode(ES256KeyPair::generate().to_bytes())
    }

    pub fn public_key(&self) -> &str {
        &self.public
    }
}

/// The name the shared VAPID key is kept under in the database.
const KEPT_KEY: &str = "vapid-private-key";

/// The server's VAPID private key when no setting gives one: the one kept sealed in the database,
/// or a new one kept there now. Every instance on one database reads the same key; two starting
/// at once each write theirs only if none is there, and both read back the one that stayed. A
/// kept key this server's secret cannot open is an error, never a reason to make another: that
/// would silently end every device's subscription.
pub fn kept_private_key(db: &Database, keys: &TokenKeys) -> ServiceResult<String> {
    let open = |sealed: &str| {
        let bytes = sealing::open(keys, Purpose::VapidKey, sealed).map_err(|_| {
            ServiceError::Internal(
                "the VAPID key kept in the database does not open with this --jwt-secret: start                  with the secret the other instances use (or give --vapid-private-key)"
                    .into(),
            )
        })?;
        String::from_utf8(bytes).map_err(|e| ServiceError::Internal(e.to_string()))
    };
    if let Some(sealed) = db.read(|c| server_secrets::sealed(c, KEPT_KEY))? {
        return open(&sealed);
    }
    let sealed = sealing::seal(
        keys,
        Purpose::VapidKey,
        PushKeys::generate_private().as_bytes(),
    )?;
    let now = db.now();
    let kept = db.write(|c| {
        server_secrets::insert_if_absent(c, KEPT_KEY, &sealed, now)?;
        Ok::<_, ServiceError>(server_secrets::sealed(c, KEPT_KEY)?)
    })?;
    let kept = kept.ok_or_else(|| ServiceError::Internal("the VAPID key was not kept".into()))?;
    open(&kept)
}

/// The server's VAPID public key: pass it as `applicationServerKey` when subscribing.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct VapidKey {
    /// The uncompressed P-256 point, base64url without padding.
    pub public_key: String,
}

/// A device's keys, as `PushSubscription.toJSON()` gives them.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeviceKeys {
    /// The device's P-256 public key (65 bytes, base64url).
    #[schema(
        max_length = 100,
        example = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    )]
    pub p256dh: String,
    /// The device's authentication secret (16 bytes, base64url).
    #[schema(max_length = 30, example = "BTBZMqHH6r4Tts7J_aSIgg")]
    pub auth: String,
}

/// A device to register: `PushSubscription.toJSON()` (its `expirationTime`, if any, is ignored).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPushSubscription {
    /// The push service's URL for this device (https).
    #[schema(
        max_length = 2048,
        example = "https://push.example.net/wpush/v2/gAAAAABk"
    )]
    pub endpoint: String,
    pub keys: DeviceKeys,
    #[serde(default, rename = "expirationTime")]
    #[schema(value_type = Option<f64>)]
    pub expiration_time: Option<serde_json::Value>,
}

/// A registered device, as its owner sees it (its keys are not shown again).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct PushDevice {
    pub id: i64,
    pub endpoint: String,
    /// The `User-Agent` of the registration.
    #[schema(required = true)]
    pub user_agent: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    /// The last push the push service accepted (milliseconds since the Unix epoch).
    #[schema(required = true)]
    pub last_success_at: Option<i64>,
}

fn device(row: SubscriptionRow) -> PushDevice {
    PushDevice {
        id: row.id,
        endpoint: row.endpoint,
        user_agent: row.user_agent,
        created_at: row.created_at,
        last_success_at: row.last_success_at,
    }
}

/// The device's key and secret, checked: a P-256 point and 16 bytes.
fn checked_keys(keys: &DeviceKeys) -> ServiceResult<()> {
    let bad = |why: &str| ServiceError::invalid("invalid_push_keys", why.to_string());
    let point = BASE64URL
        .decode(keys.p256dh.trim_end_matches('='))
        .map_err(|_| bad("keys.p256dh is not base64url"))?;
    web_push_native::p256::PublicKey::from_sec1_bytes(&point)
        .map_err(|_| bad("keys.p256dh is not a P-256 public key"))?;
    let auth = BASE64URL
        .decode(keys.auth.trim_end_matches('='))
        .map_err(|_| bad("keys.auth is not base64url"))?;
    if auth.len() != 16 {
        return Err(bad("keys.auth is not 16 bytes"));
    }
    Ok(())
}

/// Register the caller's device (or update it: the endpoint names one device).
pub fn subscribe(
    db: &Database,
    policy: OutboundPolicy,
    caller: &Caller,
    new: &NewPushSubscription,
    user_agent: Option<&str>,
) -> ServiceResult<PushDevice> {
    caller.require(Scope::Push)?;
    outbound::check_url(new.endpoint.trim(), policy).map_err(|e| match e {
        OutboundError::Private => ServiceError::invalid("private_push_endpoint", e.to_string()),
        other => ServiceError::invalid("invalid_push_endpoint", other.to_string()),
    })?;
    checked_keys(&new.keys)?;
    let agent = crate::service::accounts::sessions::clean_user_agent(user_agent);
    let now = db.now();
    db.write(|conn| {
        // The cap holds against another device registered at the same moment.
        locks::lock(conn, Subject::Player(caller.user_id))?;
        let mine = store::of_user(conn, caller.user_id)?;
        let known = mine.iter().any(|d| d.endpoint == new.endpoint.trim());
        if !known && mine.len() >= MAX_DEVICES {
            return Err(ServiceError::conflict(
                "too_many_push_devices",
                format!("an account has at most {MAX_DEVICES} push devices: remove one first"),
            ));
        }
        let row = store::upsert(
            conn,
            &NewSubscription {
                user_id: caller.user_id,
                endpoint: new.endpoint.trim(),
                p256dh: new.keys.p256dh.trim_end_matches('='),
                auth: new.keys.auth.trim_end_matches('='),
                user_agent: agent.as_deref(),
            },
            now,
        )?;
        Ok(device(row))
    })
}

/// The caller's devices.
pub fn list(db: &Database, caller: &Caller) -> ServiceResult<Vec<PushDevice>> {
    caller.require(Scope::Push)?;
    Ok(db
        .read(|conn| store::of_user(conn, caller.user_id))?
        .into_iter()
        .map(device)
        .collect())
}

/// Forget one of the caller's devices.
pub fn unsubscribe(db: &Database, caller: &Caller, id: i64) -> ServiceResult<()> {
    caller.require(Scope::Push)?;
    db.write(|conn| match store::one(conn, caller.user_id, id)? {
        Some(row) => Ok(store::delete(conn, row.id).map(|_| ())?),
        None => Err(ServiceError::NotFound("push device")),
    })
}

/// Queue a test push to one of the caller's devices ("do my notifications work?").
pub fn test(db: &Database, caller: &Caller, id: i64) -> ServiceResult<()> {
    caller.require(Scope::Push)?;
    let now = db.now();
    db.write(|conn| {
        let Some(row) = store::one(conn, caller.user_id, id)? else {
            return Err(ServiceError::NotFound("push device"));
        };
        // A test has no notification: a negative number of its own keeps it unique.
        store::enqueue_test(conn, row.id, -now, now)?;
        Ok(())
    })
}
