//! Passwords: a new hash for an account, the password-reset links (`password_resets`) and who a
//! reset may be asked for (a name, or a confirmed address).

use diesel::prelude::*;

use super::accounts::lower;
use super::schema::{api_tokens, mail_settings, password_resets, users};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = password_resets)]
pub struct ResetRow {
    pub id: i64,
    pub user_id: i64,
    pub token_hash: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub used_at: Option<i64>,
}

pub fn set_password_hash(
    conn: &mut DbConnection,
    user_id: i64,
    hash: &str,
) -> Result<(), StorageError> {
    diesel::update(users::table.find(user_id))
        .set(users::password_hash.eq(hash))
        .execute(conn)?;
    Ok(())
}

/// Revoke every live API token of the user; how many.
pub fn revoke_api_tokens(
    conn: &mut DbConnection,
    user_id: i64,
    now: i64,
) -> Result<usize, StorageError> {
    Ok(diesel::update(
        api_tokens::table
            .filter(api_tokens::user_id.eq(user_id))
            .filter(api_tokens::revoked_at.is_null()),
    )
    .set(api_tokens::revoked_at.eq(Some(now)))
    .execute(conn)?)
}

/// The accounts (people and outside bots, not the server's bots) whose confirmed address is `email`, whatever its case.
pub fn users_with_confirmed_email(
    conn: &mut DbConnection,
    email: &str,
) -> Result<Vec<i64>, StorageError> {
    Ok(mail_settings::table
        .inner_join(users::table)
        .filter(lower(mail_settings::email.assume_not_null()).eq(lower(email)))
        .filter(mail_settings::verified_at.is_not_null())
        .filter(mail_settings::bounced_at.is_null())
        .filter(users::is_bot.eq(false).or(users::outside_bot.eq(true)))
        .select(users::id)
        .order(users::id.asc())
        .limit(10)
        .load(conn)?)
}

/// Whether the user has a confirmed address that does not bounce.
pub fn has_confirmed_email(conn: &mut DbConnection, user_id: i64) -> Result<bool, StorageError> {
    Ok(mail_settings::table
        .find(user_id)
        .filter(mail_settings::email.is_not_null())
        .filter(mail_settings::verified_at.is_not_null())
        .filter(mail_settings::bounced_at.is_null())
        .count()
        .get_result::<i64>(conn)?
        > 0)
}

/// How many reset links the user was sent since `since`.
pub fn resets_since(
    conn: &mut DbConnection,
    user_id: i64,
    since: i64,
) -> Result<i64, StorageError> {
    // Two requests for one account at once count one after the other: the user row is locked
    // until the transaction ends (SQLite's writes are one at a time already).
    if let DbConnection::Postgresql(c) = conn {
        users::table
            .find(user_id)
            .select(users::id)
            .for_update()
            .first::<i64>(c)
            .optional()?;
    }
    Ok(password_resets::table
        .filter(password_resets::user_id.eq(user_id))
        .filter(password_resets::created_at.ge(since))
        .count()
        .get_result(conn)?)
}

/// A new reset, its hash to be set by [`set_reset_hash`] once its id is known; its id.
pub fn insert_reset(
    conn: &mut DbConnection,
    user_id: i64,
    now: i64,
    expires_at: i64,
) -> Result<i64, StorageError> {
    Ok(diesel::insert_into(password_resets::table)
        .values((
            password_resets::user_id.eq(user_id),
            password_resets::token_hash.eq(""),
            password_resets::created_at.eq(now),
            password_resets::expires_at.eq(expires_at),
        ))
        .returning(password_resets::id)
        .get_result(conn)?)
}

pub fn set_reset_hash(conn: &mut DbConnection, id: i64, hash: &str) -> Result<(), StorageError> {
    diesel::update(password_resets::table.find(id))
        .set(password_resets::token_hash.eq(hash))
        .execute(conn)?;
    Ok(())
}

pub fn reset(conn: &mut DbConnection, id: i64) -> Result<Option<ResetRow>, StorageError> {
    Ok(password_resets::table
        .find(id)
        .select(ResetRow::as_select())
        .first(conn)
        .optional()?)
}

/// Use a reset once: true for the one request that marked it used. Every other unused link of
/// the same account is spent with it.
pub fn use_reset(
    conn: &mut DbConnection,
    id: i64,
    user_id: i64,
    now: i64,
) -> Result<bool, StorageError> {
    let n = diesel::update(
        password_resets::table
            .find(id)
            .filter(password_resets::used_at.is_null())
            .filter(password_resets::expires_at.gt(now)),
    )
    .set(password_resets::used_at.eq(Some(now)))
    .execute(conn)?;
    if n == 1 {
        diesel::update(
            password_resets::table
                .filter(password_resets::user_id.eq(user_id))
                .filter(password_resets::used_at.is_null()),
        )
        .set(password_resets::used_at.eq(Some(now)))
        .execute(conn)?;
    }
    Ok(n == 1)
}

/// Delete the resets that expired before `before` (their rate-limit hour is long over too).
pub fn delete_expired_resets(conn: &mut DbConnection, before: i64) -> Result<usize, StorageError> {
    Ok(
        diesel::delete(password_resets::table.filter(password_resets::expires_at.lt(before)))
            .execute(conn)?,
    )
}
