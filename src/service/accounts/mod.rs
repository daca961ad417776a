//! Accounts: registration and login (argon2id; sessions in `sessions`), who a bearer token
//! belongs to, personal API tokens, changing or resetting the password (`passwords`), and
//! two-factor sign-in (`two_factor`), taking one's data (`export`), deleting the account
//! (`deletion`), apps that act for a player through OAuth (`oauth`), and accounts their owners
//! mark as bots (`outside_bots`).

pub mod deletion;
pub mod export;
pub mod oauth;
pub mod outside_bots;
pub mod passwords;
pub mod sealing;
pub mod sessions;
pub mod two_factor;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use serde::{Deserialize, Serialize};

pub use crate::service::accounts::sessions::{Session, TokenKeys};
use crate::service::{random_hex, sha256_hex, ServiceError, ServiceResult};
use crate::storage::{accounts as store, now_millis, Database, StorageError};

/// Personal API tokens start with this, so a bearer token says what it is.
pub const API_TOKEN_PREFIX: &str = "kt_";

/// What a token lets its bearer do. `GET /me` (who the token acts for) needs none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Read games, events, records, the games waiting, notifications, vacation, profiles and
    /// leaderboards.
    Read,
    /// Create, join and leave games, play in them, go on vacation.
    Play,
    /// Read and change the email address and the notices' preferences.
    Email,
    /// Read, add and remove webhooks.
    Webhooks,
    /// Read, add, test and remove push devices.
    Push,
    /// Create games for other players in bulk, each seat a player's token with the `play` scope
    /// (clubs and leagues running their own events).
    Organize,
}

impl Scope {
    /// Every scope, in the order they are shown.
    pub const ALL: [Scope; 6] = [
        Scope::Read,
        Scope::Play,
        Scope::Email,
        Scope::Webhooks,
        Scope::Push,
        Scope::Organize,
    ];

    pub(super) fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|scope| scope.name() == s)
    }

    pub fn name(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Play => "play",
            Scope::Email => "email",
            Scope::Webhooks => "webhooks",
            Scope::Push => "push",
            Scope::Organize => "organize",
        }
    }
}

/// The authenticated caller of a request.
#[derive(Clone, Debug)]
pub struct Caller {
    pub user_id: i64,
    pub name: String,
    pub scopes: Vec<Scope>,
    /// The session of an access token (`None` for API tokens and bots).
    pub session_id: Option<i64>,
}

impl Caller {
    /// What only the player does, from a signed-in session, never an app or a bot with a token:
    /// the account's own business (its password, second factor, tokens, sessions, data, and
    /// answering apps).
    pub fn require_session(&self, what: &'static str) -> ServiceResult<()> {
        if self.session_id.is_none() {
            return Err(ServiceError::session_only(what));
        }
        Ok(())
    }

    pub fn require(&self, scope: Scope) -> ServiceResult<()> {
        if self.scopes.contains(&scope) {
            Ok(())
        } else {
            Err(ServiceError::InsufficientScope {
                scope: Some(scope.name()),
                message: "this token lacks the scope for this request",
            })
        }
    }
}

/// A personal API token as listed (never the token itself after creation).
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ApiTokenInfo {
    pub id: i64,
    pub name: String,
    pub scopes: Vec<Scope>,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    #[schema(required = true)]
    pub last_used_at: Option<i64>,
    #[schema(required = true)]
    pub revoked_at: Option<i64>,
    /// The app this token was given to through OAuth (its `client_id`); `null` for a personal
    /// token.
    #[schema(required = true)]
    pub client_id: Option<String>,
    /// The host the app redirected to when it was given the token; `null` for a personal token.
    #[schema(required = true)]
    pub redirect_host: Option<String>,
}

/// A newly created API token: the only time the token is shown.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct NewApiToken {
    pub token: String,
    #[serde(flatten)]
    pub info: ApiTokenInfo,
}

/// OWASP's recommended argon2id parameters: 19 MiB, 2 passes, 1 lane.
fn hasher() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// A user name's shape: 3 to 32 letters, digits, `_` or `-` (so never a control character).
pub fn check_name_shape(name: &str) -> ServiceResult<()> {
    let ok_len = (3..=32).contains(&name.chars().count());
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok_len && ok_chars {
        Ok(())
    } else {
        Err(ServiceError::invalid(
            "invalid_name",
            "a user name has 3 to 32 characters: letters, digits, '_' or '-'",
        ))
    }
}

/// A name a person may register.
fn check_new_name(name: &str) -> ServiceResult<()> {
    check_name_shape(name)?;
    let folded = name.to_ascii_lowercase();
    if folded.starts_with(crate::service::play::bots::BOT_PREFIX) {
        return Err(ServiceError::invalid(
            "invalid_name",
            "names starting with \"bot-\" are kept for the server's bots",
        ));
    }
    if folded.starts_with(deletion::PLACEHOLDER_PREFIX) {
        return Err(ServiceError::invalid(
            "invalid_name",
            "names starting with \"deleted-\" stand for deleted accounts",
        ));
    }
    Ok(())
}

fn check_password(password: &str) -> ServiceResult<()> {
    if !(8..=128).contains(&password.chars().count()) || password.chars().any(char::is_control) {
        return Err(ServiceError::invalid(
            "invalid_password",
            "a password has 8 to 128 characters and no control characters",
        ));
    }
    Ok(())
}

/// A hash to verify against when the name is unknown, so that an unknown name takes as long as
/// a wrong password and the answer's timing does not tell which names exist.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        SaltString::encode_b64(b"keltis-dummy-salt")
            .ok()
            .and_then(|salt| {
                hasher()
                    .hash_password(b"no account has this password", &salt)
                    .map(|h| h.to_string())
                    .ok()
            })
            .unwrap_or_default()
    })
}

/// The caller's account, proven again for what cannot be undone: a signed-in session (`why` is
/// said to a token), the password, and a code when two-factor sign-in is on.
pub(crate) fn reauthenticated(
    db: &Database,
    keys: &TokenKeys,
    caller: &Caller,
    password: &str,
    code: Option<&str>,
    why: &'static str,
) -> ServiceResult<store::UserRow> {
    caller.require_session(why)?;
    let user = db
        .read(|c| store::user_by_id(c, caller.user_id))?
        .filter(|u| u.deleted_at.is_none())
        .ok_or(ServiceError::Unauthorized("signed out"))?;
    if !password_matches(&user.password_hash, password) {
        return Err(ServiceError::forbidden(
            "wrong_password",
            "the password is not right",
        ));
    }
    two_factor::prove(db, keys, user.id, &user.name, code)?;
    Ok(user)
}

/// Whether `password` matches the PHC string `hash` (a malformed hash matches nothing).
fn password_matches(hash: &str, password: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            hasher()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

pub fn register(
    db: &Database,
    keys: &TokenKeys,
    name: &str,
    password: &str,
    user_agent: Option<&str>,
    language: crate::service::i18n::Language,
) -> ServiceResult<Session> {
    check_new_name(name)?;
    check_password(password)?;
    let hash = passwords::hash(password)?;
    let held = deletion::held_name_mac(keys, name);
    let now = db.now();
    let user = db.write(|c| {
        // A deleted account's name is held a while, so that nobody passes for its player.
        if crate::storage::erasures::name_held(c, &held, now - deletion::NAME_HELD_MS)? {
            return Err(ServiceError::conflict(
                "name_taken",
                "that user name is taken",
            ));
        }
        let user =
            store::insert_user(c, name, &hash, false, now_millis()).map_err(|e| match e {
                StorageError::Conflict => {
                    ServiceError::conflict("name_taken", "that user name is taken")
                }
                e => e.into(),
            })?;
        crate::service::notify::mail::create_settings(c, user.id, language)?;
        Ok::<_, ServiceError>(user)
    })?;
    sessions::open(db, keys, user.id, &user.name, user_agent)
}

/// Sign in with name and password, and the code of an authenticator app (or a recovery code)
/// when the account has two-factor sign-in on.
pub fn login(
    db: &Database,
    keys: &TokenKeys,
    name: &str,
    password: &str,
    code: Option<&str>,
    user_agent: Option<&str>,
) -> ServiceResult<Session> {
    let bad = ServiceError::Unauthorized("wrong user name or password");
    check_name_shape(name)?;
    if code.is_some_and(|c| c.chars().count() > 32 || c.chars().any(char::is_control)) {
        return Err(ServiceError::invalid(
            "invalid_code",
            "a code has at most 32 characters and no control characters",
        ));
    }
    let user = db.read(|c| store::user_by_name(c, name))?;
    // Every login verifies one hash: the user's, or the dummy for unknown names and for the
    // server's bots (which have no password), so that all failures take the same time.
    let (hash, user) = match user {
        Some(u) if !u.server_bot() => (u.password_hash.clone(), Some(u)),
        _ => (dummy_hash().to_string(), None),
    };
    let matches = password_matches(&hash, password);
    match user {
        Some(user) if matches => {
            // A suspension is said only to whoever knows the password.
            if let Some(until) = user.suspended_until.filter(|u| *u > db.now()) {
                return Err(ServiceError::Restricted {
                    code: "suspended",
                    until,
                });
            }
            two_factor::check_at_login(db, keys, user.id, &user.name, code)?;
            sessions::open(db, keys, user.id, &user.name, user_agent)
        }
        _ => Err(bad),
    }
}

/// Who sent a bearer token: a JWT access token (every scope) or a personal API token.
pub fn authenticate(db: &Database, keys: &TokenKeys, bearer: &str) -> ServiceResult<Caller> {
    if bearer.starts_with(API_TOKEN_PREFIX) {
        let hash = sha256_hex(bearer);
        let row = db
            .read(|c| store::api_token_by_hash(c, &hash))?
            .filter(|t| t.revoked_at.is_none())
            .ok_or(ServiceError::Unauthorized("API token unknown or revoked"))?;
        let user = db
            .read(|c| store::user_by_id(c, row.user_id))?
            .ok_or(ServiceError::Unauthorized("API token unknown or revoked"))?;
        let now = now_millis();
        // Written at most once a minute per token: a busy bot should not write on every read.
        if row.last_used_at.is_none_or(|t| now - t > 60_000) {
            db.write(|c| store::touch_api_token(c, row.id, now))?;
        }
        return Ok(Caller {
            user_id: user.id,
            name: user.name,
            scopes: parse_scopes(&row.scopes),
            session_id: None,
        });
    }
    let (user_id, name, session_id) = sessions::check_access_token(db, keys, bearer)?;
    Ok(session_caller(user_id, name, session_id))
}

/// The caller behind `bearer` when no database read is needed to tell (an access token whose
/// session this instance found live recently, or a token refused by itself); `None` otherwise
/// (then [`authenticate`]).
pub fn authenticate_without_reading(
    db: &Database,
    keys: &TokenKeys,
    bearer: &str,
) -> Option<ServiceResult<Caller>> {
    if bearer.starts_with(API_TOKEN_PREFIX) {
        return None;
    }
    let checked = sessions::check_access_token_without_reading(db, keys, bearer)?;
    Some(checked.map(|(user_id, name, session_id)| session_caller(user_id, name, session_id)))
}

/// A signed-in session's caller: it may do everything a token can.
fn session_caller(user_id: i64, name: String, session_id: Option<i64>) -> Caller {
    Caller {
        user_id,
        name,
        scopes: Scope::ALL.to_vec(),
        session_id,
    }
}

pub(super) fn parse_scopes(text: &str) -> Vec<Scope> {
    text.split(',').filter_map(Scope::parse).collect()
}

pub(super) fn token_info(row: store::ApiTokenRow) -> ApiTokenInfo {
    ApiTokenInfo {
        id: row.id,
        name: row.name,
        scopes: parse_scopes(&row.scopes),
        created_at: row.created_at,
        last_used_at: row.last_used_at,
        revoked_at: row.revoked_at,
        client_id: row.client_id,
        redirect_host: row.redirect_host,
    }
}

pub fn create_api_token(
    db: &Database,
    caller: &Caller,
    name: &str,
    scopes: &[Scope],
) -> ServiceResult<NewApiToken> {
    if name.trim().is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err(ServiceError::invalid(
            "invalid_token_name",
            "a token name has 1 to 64 characters, not only spaces, and no control characters",
        ));
    }
    if scopes.is_empty() {
        return Err(ServiceError::invalid(
            "invalid_scopes",
            "name at least one scope: read, play, email, webhooks, push",
        ));
    }
    caller.require_session("API tokens are made from a signed-in session, not with a token")?;
    let mut names: Vec<&str> = scopes.iter().map(|s| s.name()).collect();
    names.sort();
    names.dedup();
    let token = format!("{API_TOKEN_PREFIX}{}", random_hex(24)?);
    let hash = sha256_hex(&token);
    let row = db.write(|c| {
        store::insert_api_token(
            c,
            caller.user_id,
            name,
            &hash,
            &names.join(","),
            None,
            now_millis(),
        )
    })?;
    Ok(NewApiToken {
        token,
        info: token_info(row),
    })
}

pub fn list_api_tokens(db: &Database, caller: &Caller) -> ServiceResult<Vec<ApiTokenInfo>> {
    caller.require_session("API tokens are listed from a signed-in session, not with a token")?;
    Ok(db
        .read(|c| store::api_tokens_of(c, caller.user_id))?
        .into_iter()
        .map(token_info)
        .collect())
}

pub fn revoke_api_token(db: &Database, caller: &Caller, id: i64) -> ServiceResult<()> {
    caller.require_session("API tokens are revoked from a signed-in session (or /oauth/revoke)")?;
    if db.write(|c| store::revoke_api_token(c, caller.user_id, id, now_millis()))? {
        Ok(())
    } else {
        Err(ServiceError::NotFound("API token"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By construction, an unknown name costs what a wrong password costs: both verify one
    /// argon2id hash made with the same parameters.
    #[test]
    fn unknown_names_verify_a_hash_as_costly_as_a_real_one() {
        let salt = SaltString::encode_b64(b"0123456789abcdef").unwrap();
        let real = hasher()
            .hash_password(b"correct horse", &salt)
            .unwrap()
            .to_string();
        let real = PasswordHash::new(&real).unwrap();
        let dummy = PasswordHash::new(dummy_hash()).expect("the dummy is a valid PHC string");
        assert_eq!(dummy.algorithm, real.algorithm);
        assert_eq!(dummy.version, real.version);
        assert_eq!(dummy.params, real.params, "same memory, passes and lanes");
        assert!(!password_matches(dummy_hash(), "correct horse"));
        assert!(!password_matches("not a hash", "anything"));
    }
}
