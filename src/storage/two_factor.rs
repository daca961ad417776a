//! Two-factor sign-in: each account's TOTP enrolment (`two_factor`) and its recovery codes.

use diesel::prelude::*;

use super::schema::{recovery_codes, two_factor};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = two_factor)]
pub struct TwoFactorRow {
    pub user_id: i64,
    /// Encrypted (`service::accounts::two_factor`).
    pub secret: String,
    pub confirmed_at: Option<i64>,
    pub last_step: i64,
    pub created_at: i64,
}

pub fn get(conn: &mut DbConnection, user_id: i64) -> Result<Option<TwoFactorRow>, StorageError> {
    Ok(two_factor::table
        .find(user_id)
        .select(TwoFactorRow::as_select())
        .first(conn)
        .optional()?)
}

/// A new, unconfirmed enrolment in place of any earlier one (and of its recovery codes).
pub fn start(
    conn: &mut DbConnection,
    user_id: i64,
    secret: &str,
    now: i64,
) -> Result<(), StorageError> {
    remove(conn, user_id)?;
    diesel::insert_into(two_factor::table)
        .values((
            two_factor::user_id.eq(user_id),
            two_factor::secret.eq(secret),
            two_factor::created_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Turn two-factor sign-in on, with the recovery codes' hashes and the step of the code that
/// confirmed it; false when there was no enrolment waiting.
pub fn confirm(
    conn: &mut DbConnection,
    user_id: i64,
    step: i64,
    code_hashes: &[String],
    now: i64,
) -> Result<bool, StorageError> {
    let n = diesel::update(
        two_factor::table
            .find(user_id)
            .filter(two_factor::confirmed_at.is_null()),
    )
    .set((
        two_factor::confirmed_at.eq(Some(now)),
        two_factor::last_step.eq(step),
    ))
    .execute(conn)?;
    if n == 1 {
        for hash in code_hashes {
            diesel::insert_into(recovery_codes::table)
                .values((
                    recovery_codes::user_id.eq(user_id),
                    recovery_codes::code_hash.eq(hash),
                ))
                .execute(conn)?;
        }
    }
    Ok(n == 1)
}

/// Accept time step `step` once: true when it is later than every step accepted before.
pub fn use_step(conn: &mut DbConnection, user_id: i64, step: i64) -> Result<bool, StorageError> {
    Ok(diesel::update(
        two_factor::table
            .find(user_id)
            .filter(two_factor::last_step.lt(step)),
    )
    .set(two_factor::last_step.eq(step))
    .execute(conn)?
        == 1)
}

/// Use a recovery code once: true for the one request that marked it used.
pub fn use_recovery_code(
    conn: &mut DbConnection,
    user_id: i64,
    code_hash: &str,
    now: i64,
) -> Result<bool, StorageError> {
    Ok(diesel::update(
        recovery_codes::table
            .filter(recovery_codes::user_id.eq(user_id))
            .filter(recovery_codes::code_hash.eq(code_hash))
            .filter(recovery_codes::used_at.is_null()),
    )
    .set(recovery_codes::used_at.eq(Some(now)))
    .execute(conn)?
        >= 1)
}

pub fn recovery_codes_left(conn: &mut DbConnection, user_id: i64) -> Result<i64, StorageError> {
    Ok(recovery_codes::table
        .filter(recovery_codes::user_id.eq(user_id))
        .filter(recovery_codes::used_at.is_null())
        .count()
        .get_result(conn)?)
}

/// Turn two-factor sign-in off (or drop an enrolment), recovery codes included.
pub fn remove(conn: &mut DbConnection, user_id: i64) -> Result<(), StorageError> {
    diesel::delete(recovery_codes::table.filter(recovery_codes::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::delete(two_factor::table.find(user_id)).execute(conn)?;
    Ok(())
}
