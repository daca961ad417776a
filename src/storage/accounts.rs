//! Users, refresh tokens and personal API tokens.

use diesel::prelude::*;

use super::schema::{api_tokens, refresh_tokens, users};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: i64,
    pub name: String,
    pub password_hash: String,
    pub is_bot: bool,
    pub created_at: i64,
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

pub fn user_by_name(conn: &mut DbConnection, name: &str) -> Result<Option<UserRow>, StorageError> {
    Ok(users::table
        .filter(users::name.eq(name))
        .select(UserRow::as_select())
        .first(conn)
        .optional()?)
}

pub fn user_by_id(conn: &mut DbConnection, id: i64) -> Result<Option<UserRow>, StorageError> {
    Ok(users::table
        .find(id)
        .select(UserRow::as_select())
        .first(conn)
        .optional()?)
}

pub fn insert_refresh_token(
    conn: &mut DbConnection,
    token_hash: &str,
    user_id: i64,
    expires_at: i64,
) -> Result<(), StorageError> {
    diesel::insert_into(refresh_tokens::table)
        .values((
            refresh_tokens::token_hash.eq(token_hash),
            refresh_tokens::user_id.eq(user_id),
            refresh_tokens::expires_at.eq(expires_at),
            refresh_tokens::used.eq(false),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(())
}

/// Mark a refresh token used, once: the user it belongs to if it was unused and unexpired.
pub fn use_refresh_token(
    conn: &mut DbConnection,
    token_hash: &str,
    now: i64,
) -> Result<Option<i64>, StorageError> {
    let row: Option<(i64, i64, bool)> = refresh_tokens::table
        .find(token_hash)
        .select((
            refresh_tokens::user_id,
            refresh_tokens::expires_at,
            refresh_tokens::used,
        ))
        .first(conn)
        .optional()?;
    let Some((user_id, expires_at, used)) = row else {
        return Ok(None);
    };
    if used || expires_at <= now {
        return Ok(None);
    }
    let updated = diesel::update(
        refresh_tokens::table
            .find(token_hash)
            .filter(refresh_tokens::used.eq(false)),
    )
    .set(refresh_tokens::used.eq(true))
    .execute(conn)?;
    Ok((updated == 1).then_some(user_id))
}

pub fn insert_api_token(
    conn: &mut DbConnection,
    user_id: i64,
    name: &str,
    token_hash: &str,
    scopes: &str,
    now: i64,
) -> Result<ApiTokenRow, StorageError> {
    let _id = diesel::insert_into(api_tokens::table)
        .values((
            api_tokens::user_id.eq(user_id),
            api_tokens::name.eq(name),
            api_tokens::token_hash.eq(token_hash),
            api_tokens::scopes.eq(scopes),
            api_tokens::created_at.eq(now),
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
