//! Vacations: the periods a player's clocks stood still.

use diesel::prelude::*;

use super::schema::vacations;
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = vacations)]
pub struct VacationRow {
    pub id: i64,
    pub user_id: i64,
    pub started_at: i64,
    pub ends_at: i64,
    pub ended_at: Option<i64>,
}

/// The user's vacations that ended after `since` or still run, oldest first.
pub fn vacations_since(
    conn: &mut DbConnection,
    user_id: i64,
    since: i64,
) -> Result<Vec<VacationRow>, StorageError> {
    Ok(vacations::table
        .filter(vacations::user_id.eq(user_id))
        .filter(
            vacations::ended_at
                .is_null()
                .or(vacations::ended_at.gt(since)),
        )
        .order(vacations::started_at.asc())
        .select(VacationRow::as_select())
        .load(conn)?)
}

/// The user's running vacation.
pub fn running(conn: &mut DbConnection, user_id: i64) -> Result<Option<VacationRow>, StorageError> {
    Ok(vacations::table
        .filter(vacations::user_id.eq(user_id))
        .filter(vacations::ended_at.is_null())
        .select(VacationRow::as_select())
        .first(conn)
        .optional()?)
}

/// Which of these users are on vacation.
pub fn users_away(conn: &mut DbConnection, users: &[i64]) -> Result<Vec<i64>, StorageError> {
    Ok(vacations::table
        .filter(vacations::user_id.eq_any(users))
        .filter(vacations::ended_at.is_null())
        .select(vacations::user_id)
        .load(conn)?)
}

/// Start a vacation; a running one makes this a [`StorageError::Conflict`] (unique index).
pub fn start(
    conn: &mut DbConnection,
    user_id: i64,
    now: i64,
    ends_at: i64,
) -> Result<(), StorageError> {
    diesel::insert_into(vacations::table)
        .values((
            vacations::user_id.eq(user_id),
            vacations::started_at.eq(now),
            vacations::ends_at.eq(ends_at),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(())
}

/// End a running vacation at `at`; false when it had already ended (another instance, or the
/// player, came first).
pub fn end(conn: &mut DbConnection, id: i64, at: i64) -> Result<bool, StorageError> {
    let changed = diesel::update(
        vacations::table
            .find(id)
            .filter(vacations::ended_at.is_null()),
    )
    .set(vacations::ended_at.eq(at))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Running vacations whose allowance has run out by `now`, earliest first.
pub fn due(
    conn: &mut DbConnection,
    now: i64,
    limit: i64,
) -> Result<Vec<VacationRow>, StorageError> {
    Ok(vacations::table
        .filter(vacations::ended_at.is_null())
        .filter(vacations::ends_at.le(now))
        .order(vacations::ends_at.asc())
        .limit(limit)
        .select(VacationRow::as_select())
        .load(conn)?)
}
