//! OAuth 2.0 authorization codes: issued to a signed-in player's app, exchanged once for an API
//! token. Kept as their SHA-256; a code that comes back after its exchange revokes the token.

use diesel::prelude::*;

use super::schema::{api_tokens, oauth_codes};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = oauth_codes)]
pub struct CodeRow {
    pub id: i64,
    pub code_hash: String,
    pub user_id: i64,
    pub client_id: String,
    pub redirect_uri: String,
    pub scopes: String,
    pub code_challenge: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub used_at: Option<i64>,
    pub token_id: Option<i64>,
}

/// What a new code is for.
pub struct NewCode<'a> {
    pub code_hash: &'a str,
    pub user_id: i64,
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub scopes: &'a str,
    pub code_challenge: &'a str,
    pub now: i64,
    pub expires_at: i64,
}

pub fn insert_code(conn: &mut DbConnection, new: &NewCode<'_>) -> Result<(), StorageError> {
    diesel::insert_into(oauth_codes::table)
        .values((
            oauth_codes::code_hash.eq(new.code_hash),
            oauth_codes::user_id.eq(new.user_id),
            oauth_codes::client_id.eq(new.client_id),
            oauth_codes::redirect_uri.eq(new.redirect_uri),
            oauth_codes::scopes.eq(new.scopes),
            oauth_codes::code_challenge.eq(new.code_challenge),
            oauth_codes::created_at.eq(new.now),
            oauth_codes::expires_at.eq(new.expires_at),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(())
}

pub fn code_by_hash(
    conn: &mut DbConnection,
    code_hash: &str,
) -> Result<Option<CodeRow>, StorageError> {
    Ok(oauth_codes::table
        .filter(oauth_codes::code_hash.eq(code_hash))
        .select(CodeRow::as_select())
        .first(conn)
        .optional()?)
}

/// Spend the code for `token_id`; false when it was spent already (another exchange came first).
pub fn spend_code(
    conn: &mut DbConnection,
    id: i64,
    token_id: i64,
    now: i64,
) -> Result<bool, StorageError> {
    Ok(diesel::update(
        oauth_codes::table
            .find(id)
            .filter(oauth_codes::used_at.is_null()),
    )
    .set((
        oauth_codes::used_at.eq(Some(now)),
        oauth_codes::token_id.eq(Some(token_id)),
    ))
    .execute(conn)?
        == 1)
}

/// Revoke a token by its id, whoever holds it (a code replayed: its token is not to be trusted).
pub fn revoke_token(conn: &mut DbConnection, token_id: i64, now: i64) -> Result<(), StorageError> {
    diesel::update(
        api_tokens::table
            .find(token_id)
            .filter(api_tokens::revoked_at.is_null()),
    )
    .set(api_tokens::revoked_at.eq(Some(now)))
    .execute(conn)?;
    Ok(())
}

/// Revoke the token a spent code gave, whoever holds it (the code was presented again).
pub fn revoke_token_of_code(
    conn: &mut DbConnection,
    code_id: i64,
    now: i64,
) -> Result<(), StorageError> {
    let token_id: Option<i64> = oauth_codes::table
        .find(code_id)
        .select(oauth_codes::token_id)
        .first(conn)
        .optional()?
        .flatten();
    match token_id {
        Some(token_id) => revoke_token(conn, token_id, now),
        None => Ok(()),
    }
}

/// Revoke the token with this hash; whether there was a live one.
pub fn revoke_token_by_hash(
    conn: &mut DbConnection,
    token_hash: &str,
    now: i64,
) -> Result<bool, StorageError> {
    Ok(diesel::update(
        api_tokens::table
            .filter(api_tokens::token_hash.eq(token_hash))
            .filter(api_tokens::revoked_at.is_null()),
    )
    .set(api_tokens::revoked_at.eq(Some(now)))
    .execute(conn)?
        == 1)
}

/// Delete codes that expired before `before` (spent or not); how many.
pub fn delete_expired_codes(conn: &mut DbConnection, before: i64) -> Result<usize, StorageError> {
    Ok(
        diesel::delete(oauth_codes::table.filter(oauth_codes::expires_at.lt(before)))
            .execute(conn)?,
    )
}

/// Delete a user's codes (an account deleted).
pub fn delete_codes_of(conn: &mut DbConnection, user_id: i64) -> Result<(), StorageError> {
    diesel::delete(oauth_codes::table.filter(oauth_codes::user_id.eq(user_id))).execute(conn)?;
    Ok(())
}
