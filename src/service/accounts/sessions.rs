//! Sessions: a signed-in device. Logging in opens one; it holds a family of refresh tokens, each
//! usable once, and the access tokens (JWT, 15 minutes) issued with them carry its id.
//!
//! A refresh token presented a second time means someone else holds a copy: the whole session is
//! revoked (OAuth 2.0 security practice), so neither the thief's nor the owner's tokens work any
//! more. A user can list their sessions and sign out of one or all; revoked sessions' access
//! tokens stop working at once.

use hmac::{Hmac, Mac};
use jsonwebtoken::{
    decode, encode, Algorithm as JwtAlgorithm, DecodingKey, EncodingKey, Header, Validation,
};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::service::accounts::Caller;
use crate::service::{random_hex, sha256_hex, ServiceError, ServiceResult};
use crate::storage::accounts::{self as store, RefreshUse};
use crate::storage::{now_millis, Database};

/// Access tokens live 15 minutes; refresh tokens 30 days, each usable once.
pub const ACCESS_TOKEN_SECONDS: i64 = 15 * 60;
pub const REFRESH_TOKEN_SECONDS: i64 = 30 * 24 * 3600;

#[derive(Serialize, Deserialize)]
struct Claims {
    sub: String,
    name: String,
    exp: i64,
    iat: i64,
    /// The session; absent in tokens from before sessions (they expire within 15 minutes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sid: Option<i64>,
}

/// Signing keys for access tokens (HS256).
#[derive(Clone)]
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    /// The same secret, for HMACs of tokens that are derived rather than stored.
    mac_key: std::sync::Arc<[u8]>,
}

impl TokenKeys {
    pub fn new(secret: &[u8]) -> TokenKeys {
        TokenKeys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            mac_key: secret.into(),
        }
    }

    fn mac(&self, message: &str) -> Hmac<Sha256> {
        // HMAC takes a key of any length: `new_from_slice` cannot fail for it.
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.mac_key)
            .unwrap_or_else(|_| unreachable!("HMAC accepts every key length"));
        mac.update(message.as_bytes());
        mac
    }

    /// HMAC-SHA256 of `message` with the server's key, in hex.
    pub(in crate::service) fn mac_hex(&self, message: &str) -> String {
        hex::encode(self.mac(message).finalize().into_bytes())
    }

    /// A 256-bit key for `purpose`, derived from the server's key (HMAC-SHA256 of the purpose).
    pub(in crate::service) fn derived_key(&self, purpose: &str) -> [u8; 32] {
        self.mac(purpose).finalize().into_bytes().into()
    }

    /// Whether `hex_mac` is the HMAC of `message`, compared in constant time.
    pub(in crate::service) fn mac_matches(&self, message: &str, hex_mac: &str) -> bool {
        hex::decode(hex_mac).is_ok_and(|bytes| self.mac(message).verify_slice(&bytes).is_ok())
    }

    /// Sign other claims with the same key (links in emails). They must carry an `aud` that
    /// access tokens lack, so that neither kind passes for the other.
    pub(in crate::service) fn sign<T: Serialize>(&self, claims: &T) -> ServiceResult<String> {
        encode(&Header::new(JwtAlgorithm::HS256), claims, &self.encoding)
            .map_err(|e| ServiceError::Internal(e.to_string()))
    }

    /// Claims signed by [`TokenKeys::sign`] for `audience`, unexpired; `None` otherwise.
    pub(in crate::service) fn verify<T: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        audience: &str,
    ) -> Option<T> {
        self.verify_with_leeway(token, audience, Validation::new(JwtAlgorithm::HS256).leeway)
    }

    /// As [`TokenKeys::verify`], with no leeway on the expiry (short-lived tickets).
    pub(in crate::service) fn verify_exact<T: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        audience: &str,
    ) -> Option<T> {
        self.verify_with_leeway(token, audience, 0)
    }

    fn verify_with_leeway<T: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        audience: &str,
        leeway_seconds: u64,
    ) -> Option<T> {
        let mut validation = Validation::new(JwtAlgorithm::HS256);
        validation.set_audience(&[audience]);
        validation.leeway = leeway_seconds;
        decode::<T>(token, &self.decoding, &validation)
            .ok()
            .map(|d| d.claims)
    }
}

/// What login and refresh return.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Session {
    pub user_id: i64,
    pub name: String,
    /// A JWT (HS256) for `Authorization: Bearer`.
    pub access_token: String,
    pub token_type: String,
    /// Seconds until the access token expires.
    pub expires_in: i64,
    /// Exchange once for new tokens at `/api/v1/auth/refresh`. Presenting it twice signs the
    /// session out.
    pub refresh_token: String,
    /// The session (signed-in device) these tokens belong to.
    pub session_id: i64,
}

/// A signed-in device, as its user sees it.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SessionInfo {
    pub id: i64,
    /// The `User-Agent` of the login, if it sent one.
    #[schema(required = true)]
    pub user_agent: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    /// The last login or refresh, in milliseconds since the Unix epoch.
    pub last_used_at: i64,
    /// The session of the token that asked.
    pub current: bool,
}

fn signed_out() -> ServiceError {
    ServiceError::Unauthorized("refresh token unknown, used or expired")
}

/// A `User-Agent` as kept: no control characters, at most 200 characters.
pub(in crate::service) fn clean_user_agent(user_agent: Option<&str>) -> Option<String> {
    let cleaned: String = user_agent?
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    (!cleaned.trim().is_empty()).then_some(cleaned)
}

/// Open a session for a user who just proved who they are, and issue its first tokens.
pub fn open(
    db: &Database,
    keys: &TokenKeys,
    user_id: i64,
    name: &str,
    user_agent: Option<&str>,
) -> ServiceResult<Session> {
    let agent = clean_user_agent(user_agent);
    let session_id =
        db.write(|c| store::insert_session(c, user_id, agent.as_deref(), now_millis()))?;
    issue(db, keys, user_id, name, session_id)
}

/// New tokens in `session_id`.
fn issue(
    db: &Database,
    keys: &TokenKeys,
    user_id: i64,
    name: &str,
    session_id: i64,
) -> ServiceResult<Session> {
    let now = now_millis() / 1000;
    let claims = Claims {
        sub: user_id.to_string(),
        name: name.to_string(),
        iat: now,
        exp: now + ACCESS_TOKEN_SECONDS,
        sid: Some(session_id),
    };
    let access_token = encode(&Header::new(JwtAlgorithm::HS256), &claims, &keys.encoding)
        .map_err(|e| ServiceError::Internal(e.to_string()))?;
    let refresh_token = random_hex(32)?;
    let hash = sha256_hex(&refresh_token);
    db.write(|c| {
        store::insert_refresh_token(
            c,
            &hash,
            user_id,
            session_id,
            (now + REFRESH_TOKEN_SECONDS) * 1000,
        )
    })?;
    Ok(Session {
        user_id,
        name: name.to_string(),
        access_token,
        token_type: "Bearer".into(),
        expires_in: ACCESS_TOKEN_SECONDS,
        refresh_token,
        session_id,
    })
}

/// Exchange a refresh token, once, for new tokens of the same session.
pub fn refresh(db: &Database, keys: &TokenKeys, refresh_token: &str) -> ServiceResult<Session> {
    let hash = sha256_hex(refresh_token);
    let now = now_millis();
    // Committed on its own: a reuse must stay recorded although the request fails.
    let used = db.write(|c| store::use_refresh_token(c, &hash, now))?;
    let (user_id, session_id) = match used {
        RefreshUse::Unknown => return Err(signed_out()),
        RefreshUse::Reused {
            user_id,
            session_id,
        } => {
            tracing::warn!(
                user_id,
                ?session_id,
                "refresh token reused: session revoked"
            );
            if let Some(id) = session_id {
                db.write(|c| store::revoke_sessions(c, user_id, Some(id), now))?;
            }
            return Err(ServiceError::Unauthorized(
                "this refresh token was already used: the session is signed out, log in again",
            ));
        }
        RefreshUse::Fresh {
            user_id,
            session_id,
        } => (user_id, session_id),
    };
    let user = db
        .read(|c| store::user_by_id(c, user_id))?
        .ok_or_else(signed_out)?;
    let session_id = match session_id {
        Some(id) => {
            let live = db
                .read(|c| store::session(c, id))?
                .is_some_and(|s| s.revoked_at.is_none());
            if !live {
                return Err(signed_out());
            }
            db.write(|c| store::touch_session(c, id, now))?;
            id
        }
        // A token from before sessions: it starts one.
        None => db.write(|c| store::insert_session(c, user_id, None, now))?,
    };
    issue(db, keys, user.id, &user.name, session_id)
}

/// The caller behind an access token, if its signature, expiry and session hold.
pub fn check_access_token(
    db: &Database,
    keys: &TokenKeys,
    token: &str,
) -> ServiceResult<(i64, String, Option<i64>)> {
    let checked = verify_access_token(keys, token)?;
    let (user_id, sid) = (checked.user_id, checked.sid);
    let sessions = db.live_sessions();
    let generation = sessions.generation();
    let live = db
        .read(|c| store::session(c, sid))?
        .is_some_and(|s| s.user_id == user_id && s.revoked_at.is_none());
    if !live {
        return Err(ServiceError::Unauthorized(
            "this session is signed out: log in again",
        ));
    }
    sessions.remember(generation, sid, user_id);
    Ok(checked.caller())
}

/// The caller behind an access token when no database read is needed to tell (its session was
/// found live recently by this instance, or the token is refused by itself); `None` when its
/// session must be read.
pub fn check_access_token_without_reading(
    db: &Database,
    keys: &TokenKeys,
    token: &str,
) -> Option<ServiceResult<(i64, String, Option<i64>)>> {
    match verify_access_token(keys, token) {
        Err(e) => Some(Err(e)),
        Ok(checked) if !db.live_sessions().is_live(checked.sid, checked.user_id) => None,
        Ok(checked) => Some(Ok(checked.caller())),
    }
}

/// An access token whose signature, issue time and expiry hold; its session may have been
/// revoked since.
struct AccessToken {
    user_id: i64,
    name: String,
    sid: i64,
}

impl AccessToken {
    fn caller(self) -> (i64, String, Option<i64>) {
        (self.user_id, self.name, Some(self.sid))
    }
}

/// How far in the future a token's issue time may be: the skew allowed between the clocks of the
/// instances that sign and check.
const CLOCK_SKEW_SECONDS: i64 = 60;

/// Check an access token's signature, issue time and expiry (no database). Every access token
/// names its session (the session names its user, so a token of no user has none to name);
/// tokens without one, issued before sessions, expired long ago.
fn verify_access_token(keys: &TokenKeys, token: &str) -> ServiceResult<AccessToken> {
    let invalid = || ServiceError::Unauthorized("access token invalid");
    let mut validation = Validation::new(JwtAlgorithm::HS256);
    validation.leeway = 5;
    let data =
        decode::<Claims>(token, &keys.decoding, &validation).map_err(|e| match e.kind() {
            jsonwebtoken::errors::ErrorKind::ExpiredSignature => {
                ServiceError::Unauthorized("access token expired: refresh it")
            }
            _ => invalid(),
        })?;
    if data.claims.iat > now_millis() / 1000 + CLOCK_SKEW_SECONDS {
        return Err(invalid());
    }
    Ok(AccessToken {
        user_id: data.claims.sub.parse().map_err(|_| invalid())?,
        name: data.claims.name,
        sid: data.claims.sid.ok_or_else(invalid)?,
    })
}

/// The caller's signed-in devices.
pub fn list(db: &Database, caller: &Caller) -> ServiceResult<Vec<SessionInfo>> {
    caller.require_session("signed-in devices are listed from a signed-in session")?;
    Ok(db
        .read(|c| store::live_sessions_of(c, caller.user_id))?
        .into_iter()
        .map(|s| SessionInfo {
            id: s.id,
            user_agent: s.user_agent,
            created_at: s.created_at,
            last_used_at: s.last_used_at,
            current: caller.session_id == Some(s.id),
        })
        .collect())
}

/// Sign out of one session (`Some(id)`) or of all of them (`None`).
pub fn sign_out(db: &Database, caller: &Caller, id: Option<i64>) -> ServiceResult<()> {
    caller.require_session("devices are signed out from a signed-in session")?;
    let revoked = db.write(|c| store::revoke_sessions(c, caller.user_id, id, now_millis()))?;
    if id.is_some() && revoked == 0 {
        return Err(ServiceError::NotFound("session"));
    }
    Ok(())
}
