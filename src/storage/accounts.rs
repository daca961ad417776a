//! Users, sessions with their refresh tokens, and personal API tokens.

use diesel::prelude::*;

use super::schema::{api_tokens, game_seats, idempotency_keys, refresh_tokens, sessions, users};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
    pub is_bot: bool,
    pub created_at: i64,
    /// Set once the account is deleted (the row stays, renamed, for the games' records).
    pub deleted_at: Option<i64>,
    /// A bot its owner runs outside the server (`is_bot` is set too).
    pub outside_bot: bool,
    /// Games abandoned by letting the clock run out.
    pub timeouts: i32,
    /// A moderator (given by an operator with `keltis moderator`).
    pub moderator: bool,
    /// No chat until then (milliseconds since the Unix epoch).
    pub muted_until: Option<i64>,
    /// No sign-in and no new games until then.
    pub suspended_until: Option<i64>,
}

impl UserRow {
    /// Whether this is one of the server's own bots, which nobody signs in as.
    pub fn server_bot(&self) -> bool {
        self.is_bot && !self.outside_bot
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = api_tokens)]
pub struct ApiTokenRow {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    pub token_hash: String,
    pub scopes: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
    pub revoked_at: Option<i64>,
    /// The app it was given to through OAuth; `None` for a personal token.
    pub client_id: Option<String>,
    pub redirect_host: Option<String>,
}

/// A new user; a taken name is [`StorageError::Conflict`].
pub fn insert_user(
    conn: &mut DbConnection,
    name: &str,
    password_hash: &str,
    is_bot: bool,
    now: i64,
) -> Result<UserRow, StorageError> {
    let _id = diesel::insert_into(users::table)
        .values((
            users::name.eq(name),
            users::password_hash.eq(password_hash),
            users::is_bot.eq(is_bot),
            users::created_at.eq(now),
        ))
        .returning(users::id)
        .get_result::<i64>(conn)
        .map_err(StorageError::from_write)?;
    user_by_name(conn, name)?.ok_or(StorageError::Corrupt("inserted user not found".into()))
}

diesel::define_sql_function!(fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

/// The user with this name, whatever its case (names are unique case-insensitively); a deleted
/// account's placeholder names nobody.
pub fn user_by_name(conn: &mut DbConnection, name: &str) -> Result<Option<UserRow>, StorageError> {
    Ok(users::table
        .filter(lower(users::name).eq(lower(name)))
        .filter(users::deleted_at.is_null())
        .select(UserRow::as_select())
        .first(conn)
        .optional()?)
}

/// Mark a person's account as an outside bot, unless it has ever sat at a game (then false).
/// A join racing this can still seat the account as a person once; nothing depends on that.
pub fn mark_outside_bot(conn: &mut DbConnection, user_id: i64) -> Result<bool, StorageError> {
    let seated: i64 = game_seats::table
        .filter(game_seats::user_id.eq(user_id))
        .count()
        .get_result(conn)?;
    if seated > 0 {
        return Ok(false);
    }
    diesel::update(users::table.find(user_id))
        .set((users::is_bot.eq(true), users::outside_bot.eq(true)))
        .execute(conn)?;
    Ok(true)
}

/// The outside bots' names, in order (at most `limit`).
pub fn outside_bot_names(conn: &mut DbConnection, limit: i64) -> Result<Vec<String>, StorageError> {
    Ok(users::table
        .filter(users::outside_bot.eq(true))
        .filter(users::deleted_at.is_null())
        .order(users::name.asc())
        .select(users::name)
        .limit(limit)
        .load(conn)?)
}

pub fn user_by_id(conn: &mut DbConnection, id: i64) -> Result<Option<UserRow>, StorageError> {
    Ok(users::table
        .find(id)
        .select(UserRow::as_select())
        .first(conn)
        .optional()?)
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = sessions)]
pub struct SessionRow {
    pub id: i64,
    pub user_id: i64,
    pub user_agent: Option<String>,
    pub created_at: i64,
    pub last_used_at: i64,
    pub revoked_at: Option<i64>,
}

/// Open a session (a signed-in device) and return its id.
pub fn insert_session(
    conn: &mut DbConnection,
    user_id: i64,
    user_agent: Option<&str>,
    now: i64,
) -> Result<i64, StorageError> {
    Ok(diesel::insert_into(sessions::table)
        .values((
            sessions::user_id.eq(user_id),
            sessions::user_agent.eq(user_agent),
            sessions::created_at.eq(now),
            sessions::last_used_at.eq(now),
        ))
        .returning(sessions::id)
        .get_result(conn)?)
}

pub fn session(conn: &mut DbConnection, id: i64) -> Result<Option<SessionRow>, StorageError> {
    Ok(sessions::table
        .find(id)
        .select(SessionRow::as_select())
        .first(conn)
        .optional()?)
}

/// The user's sessions that are not revoked, most recently used first.
pub fn live_sessions_of(
    conn: &mut DbConnection,
    user_id: i64,
) -> Result<Vec<SessionRow>, StorageError> {
    Ok(sessions::table
        .filter(sessions::user_id.eq(user_id))
        .filter(sessions::revoked_at.is_null())
        .order((sessions::last_used_at.desc(), sessions::id.desc()))
        .select(SessionRow::as_select())
        .load(conn)?)
}

/// Revoke one session of the user (`Some(id)`) or all of them (`None`); how many were live.
pub fn revoke_sessions(
    conn: &mut DbConnection,
    user_id: i64,
    id: Option<i64>,
    now: i64,
) -> Result<usize, StorageError> {
    let mut query = diesel::update(sessions::table)
        .filter(sessions::user_id.eq(user_id))
        .filter(sessions::revoked_at.is_null())
        .into_boxed();
    if let Some(id) = id {
        query = query.filter(sessions::id.eq(id));
    }
    let revoked = query
        .set(sessions::revoked_at.eq(Some(now)))
        .execute(conn)?;
    if revoked > 0 {
        super::wakeups::touched(super::wakeups::Topic::Sessions(user_id));
    }
    Ok(revoked)
}

/// Revoke every live session of the user but `keep`; how many.
pub fn revoke_other_sessions(
    conn: &mut DbConnection,
    user_id: i64,
    keep: i64,
    now: i64,
) -> Result<usize, StorageError> {
    let revoked = diesel::update(
        sessions::table
            .filter(sessions::user_id.eq(user_id))
            .filter(sessions::revoked_at.is_null())
            .filter(sessions::id.ne(keep)),
    )
    .set(sessions::revoked_at.eq(Some(now)))
    .execute(conn)?;
    if revoked > 0 {
        super::wakeups::touched(super::wakeups::Topic::Sessions(user_id));
    }
    Ok(revoked)
}

pub fn touch_session(conn: &mut DbConnection, id: i64, now: i64) -> Result<(), StorageError> {
    diesel::update(sessions::table.find(id))
        .set(sessions::last_used_at.eq(now))
        .execute(conn)?;
    Ok(())
}

pub fn insert_refresh_token(
    conn: &mut DbConnection,
    token_hash: &str,
    user_id: i64,
    session_id: i64,
    expires_at: i64,
) -> Result<(), StorageError> {
    diesel::insert_into(refresh_tokens::table)
        .values((
            refresh_tokens::token_hash.eq(token_hash),
            refresh_tokens::user_id.eq(user_id),
            refresh_tokens::session_id.eq(Some(session_id)),
            refresh_tokens::expires_at.eq(expires_at),
            refresh_tokens::used.eq(false),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(())
}

/// What presenting a refresh token meant.
#[derive(Debug, PartialEq, Eq)]
pub enum RefreshUse {
    /// Unknown or expired: nothing happened.
    Unknown,
    /// Used now, for the first time: its user and session (`None` for a token from before
    /// sessions existed).
    Fresh {
        user_id: i64,
        session_id: Option<i64>,
    },
    /// Presented again after it was used: someone else holds a copy.
    Reused {
        user_id: i64,
        session_id: Option<i64>,
    },
}

/// Mark a refresh token used, once.
pub fn use_refresh_token(
    conn: &mut DbConnection,
    token_hash: &str,
    now: i64,
) -> Result<RefreshUse, StorageError> {
    let row: Option<(i64, Option<i64>, i64, bool)> = refresh_tokens::table
        .find(token_hash)
        .select((
            refresh_tokens::user_id,
            refresh_tokens::session_id,
            refresh_tokens::expires_at,
            refresh_tokens::used,
        ))
        .first(conn)
        .optional()?;
    let Some((user_id, session_id, expires_at, used)) = row else {
        return Ok(RefreshUse::Unknown);
    };
    if expires_at <= now {
        return Ok(RefreshUse::Unknown);
    }
    if used {
        return Ok(RefreshUse::Reused {
            user_id,
            session_id,
        });
    }
    let updated = diesel::update(
        refresh_tokens::table
            .find(token_hash)
            .filter(refresh_tokens::used.eq(false)),
    )
    .set(refresh_tokens::used.eq(true))
    .execute(conn)?;
    Ok(if updated == 1 {
        RefreshUse::Fresh {
            user_id,
            session_id,
        }
    } else {
        RefreshUse::Reused {
            user_id,
            session_id,
        }
    })
}

/// What the maintenance sweep removed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Swept {
    pub idempotency_keys: usize,
    pub refresh_tokens: usize,
    pub sessions: usize,
    pub notifications: usize,
}

/// Delete what has expired: idempotency answers older than `keys_before`, refresh tokens past
/// their expiry, and sessions revoked or idle since before `sessions_before` (with their tokens).
pub fn sweep_expired(
    conn: &mut DbConnection,
    now: i64,
    keys_before: i64,
    sessions_before: i64,
) -> Result<Swept, StorageError> {
    let idempotency_keys = diesel::delete(
        idempotency_keys::table.filter(idempotency_keys::created_at.lt(keys_before)),
    )
    .execute(conn)?;
    let old_sessions: Vec<i64> = sessions::table
        .filter(
            sessions::revoked_at
                .lt(sessions_before)
                .or(sessions::last_used_at.lt(sessions_before)),
        )
        .select(sessions::id)
        // Bounded per pass: the next pass takes the rest.
        .limit(1000)
        .load(conn)?;
    let refresh_tokens = diesel::delete(
        refresh_tokens::table.filter(
            refresh_tokens::expires_at
                .le(now)
                .or(refresh_tokens::session_id.eq_any(old_sessions.iter().map(|&id| Some(id)))),
        ),
    )
    .execute(conn)?;
    let sessions =
        diesel::delete(sessions::table.filter(sessions::id.eq_any(&old_sessions))).execute(conn)?;
    Ok(Swept {
        idempotency_keys,
        refresh_tokens,
        sessions,
        notifications: 0,
    })
}

/// Who an API token is for: the player's own use, or an app given access through OAuth (its
/// `client_id` and the host it redirected to).
#[derive(Debug, Clone, Copy)]
pub struct TokenApp<'a> {
    pub client_id: &'a str,
    pub redirect_host: &'a str,
}

pub fn insert_api_token(
    conn: &mut DbConnection,
    user_id: i64,
    name: &str,
    token_hash: &str,
    scopes: &str,
    app: Option<TokenApp<'_>>,
    now: i64,
) -> Result<ApiTokenRow, StorageError> {
    let _id = diesel::insert_into(api_tokens::table)
        .values((
            api_tokens::user_id.eq(user_id),
            api_tokens::name.eq(name),
            api_tokens::token_hash.eq(token_hash),
            api_tokens::scopes.eq(scopes),
            api_tokens::created_at.eq(now),
            api_tokens::client_id.eq(app.map(|a| a.client_id)),
            api_tokens::redirect_host.eq(app.map(|a| a.redirect_host)),
        ))
        .returning(api_tokens::id)
        .get_result::<i64>(conn)
        .map_err(StorageError::from_write)?;
    api_token_by_hash(conn, token_hash)?
        .ok_or(StorageError::Corrupt("inserted token not found".into()))
}

pub fn api_token_by_hash(
    conn: &mut DbConnection,
    token_hash: &str,
) -> Result<Option<ApiTokenRow>, StorageError> {
    Ok(api_tokens::table
        .filter(api_tokens::token_hash.eq(token_hash))
        .select(ApiTokenRow::as_select())
        .first(conn)
        .optional()?)
}

pub fn api_tokens_of(
    conn: &mut DbConnection,
    user_id: i64,
) -> Result<Vec<ApiTokenRow>, StorageError> {
    Ok(api_tokens::table
        .filter(api_tokens::user_id.eq(user_id))
        .order(api_tokens::id.asc())
        .select(ApiTokenRow::as_select())
        .load(conn)?)
}

/// Revoke one of the user's tokens; false when there is no such live token.
pub fn revoke_api_token(
    conn: &mut DbConnection,
    user_id: i64,
    id: i64,
    now: i64,
) -> Result<bool, StorageError> {
    let n = diesel::update(
        api_tokens::table
            .find(id)
            .filter(api_tokens::user_id.eq(user_id))
            .filter(api_tokens::revoked_at.is_null()),
    )
    .set(api_tokens::revoked_at.eq(Some(now)))
    .execute(conn)?;
    Ok(n == 1)
}

pub fn touch_api_token(conn: &mut DbConnection, id: i64, now: i64) -> Result<(), StorageError> {
    diesel::update(api_tokens::table.find(id))
        .set(api_tokens::last_used_at.eq(Some(now)))
        .execute(conn)?;
    Ok(())
}
