//! Bulk pairings: many games an organiser creates at once, started at once or when due.

use diesel::prelude::*;

use super::schema::{bulk_pairings, bulk_seats, users};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = bulk_pairings)]
pub struct BulkRow {
    pub id: i64,
    pub organiser_id: i64,
    pub variant: String,
    pub rated: bool,
    pub time_control: String,
    pub starts_at: i64,
    pub state: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = bulk_seats)]
pub struct SeatRow {
    pub bulk_id: i64,
    pub slot: i32,
    pub seat: i32,
    pub user_id: i64,
    pub game_id: Option<i64>,
}

pub fn insert(
    conn: &mut DbConnection,
    organiser_id: i64,
    variant: &str,
    rated: bool,
    time_control: &str,
    starts_at: i64,
    now: i64,
) -> Result<i64, StorageError> {
    Ok(diesel::insert_into(bulk_pairings::table)
        .values((
            bulk_pairings::organiser_id.eq(organiser_id),
            bulk_pairings::variant.eq(variant),
            bulk_pairings::rated.eq(rated),
            bulk_pairings::time_control.eq(time_control),
            bulk_pairings::starts_at.eq(starts_at),
            bulk_pairings::state.eq("scheduled"),
            bulk_pairings::created_at.eq(now),
        ))
        .returning(bulk_pairings::id)
        .get_result(conn)?)
}

pub fn insert_seat(
    conn: &mut DbConnection,
    bulk_id: i64,
    slot: i32,
    seat: i32,
    user_id: i64,
) -> Result<(), StorageError> {
    diesel::insert_into(bulk_seats::table)
        .values((
            bulk_seats::bulk_id.eq(bulk_id),
            bulk_seats::slot.eq(slot),
            bulk_seats::seat.eq(seat),
            bulk_seats::user_id.eq(user_id),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn by_id(conn: &mut DbConnection, id: i64) -> Result<Option<BulkRow>, StorageError> {
    Ok(bulk_pairings::table
        .find(id)
        .select(BulkRow::as_select())
        .first(conn)
        .optional()?)
}

/// A bulk pairing's seats, by game then seat, with each player's name.
/// The bulk pairings an organiser made, newest first.
pub fn organised_by(conn: &mut DbConnection, user_id: i64) -> Result<Vec<BulkRow>, StorageError> {
    Ok(bulk_pairings::table
        .filter(bulk_pairings::organiser_id.eq(user_id))
        .order(bulk_pairings::id.desc())
        .select(BulkRow::as_select())
        .load(conn)?)
}

pub fn seats(conn: &mut DbConnection, id: i64) -> Result<Vec<(SeatRow, String)>, StorageError> {
    Ok(bulk_seats::table
        .inner_join(users::table.on(users::id.eq(bulk_seats::user_id)))
        .filter(bulk_seats::bulk_id.eq(id))
        .order((bulk_seats::slot.asc(), bulk_seats::seat.asc()))
        .select((SeatRow::as_select(), users::name))
        .load(conn)?)
}

/// Scheduled pairings due by `now`.
pub fn due(conn: &mut DbConnection, now: i64) -> Result<Vec<i64>, StorageError> {
    Ok(bulk_pairings::table
        .filter(bulk_pairings::state.eq("scheduled"))
        .filter(bulk_pairings::starts_at.le(now))
        .order(bulk_pairings::starts_at.asc())
        .select(bulk_pairings::id)
        .load(conn)?)
}

/// Move a pairing from `from` to `to`: whether it was in `from` (so that it starts once).
pub fn set_state(
    conn: &mut DbConnection,
    id: i64,
    from: &str,
    to: &str,
) -> Result<bool, StorageError> {
    Ok(diesel::update(
        bulk_pairings::table
            .find(id)
            .filter(bulk_pairings::state.eq(from)),
    )
    .set(bulk_pairings::state.eq(to))
    .execute(conn)?
        == 1)
}

pub fn set_game(
    conn: &mut DbConnection,
    bulk_id: i64,
    slot: i32,
    game_id: i64,
) -> Result<(), StorageError> {
    diesel::update(
        bulk_seats::table
            .filter(bulk_seats::bulk_id.eq(bulk_id))
            .filter(bulk_seats::slot.eq(slot)),
    )
    .set(bulk_seats::game_id.eq(game_id))
    .execute(conn)?;
    Ok(())
}
