//! Pairing requests ("Play now"): filed, listed, closed, and seated at most once.

use diesel::prelude::*;

use super::schema::{blocks, pairing_requests, ratings, rematches, users};
use super::{DbConnection, StorageError};

/// The PostgreSQL advisory lock a pairing pass holds until its transaction ends ("pairing" in
/// ASCII): passes on several instances run one after the other, each seeing what the one
/// before it committed.
const PAIRING_LOCK: i64 = 0x0070_6169_7269_6e67;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = pairing_requests)]
pub struct RequestRow {
    pub id: i64,
    pub user_id: i64,
    pub variant: String,
    pub seats: String,
    pub time_control: String,
    pub rated: bool,
    pub rating_below: Option<i32>,
    pub rating_above: Option<i32>,
    pub bot_after_ms: Option<i64>,
    pub filed_at: i64,
    pub expires_at: i64,
    pub state: String,
    pub game_id: Option<i64>,
    pub closed_at: Option<i64>,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = pairing_requests)]
pub struct NewRequestRow<'a> {
    pub user_id: i64,
    pub variant: &'a str,
    pub seats: &'a str,
    pub time_control: &'a str,
    pub rated: bool,
    pub rating_below: Option<i32>,
    pub rating_above: Option<i32>,
    pub bot_after_ms: Option<i64>,
    pub filed_at: i64,
    pub expires_at: i64,
    pub state: &'a str,
}

/// A waiting request with what pairing needs of its player.
#[derive(Debug, Clone)]
pub struct WaitingRow {
    pub request: RequestRow,
    pub name: String,
    pub outside_bot: bool,
    pub suspended_until: Option<i64>,
    /// The player's rating in the request's variant, if they have one.
    pub rating: Option<f64>,
}

pub fn insert(conn: &mut DbConnection, row: &NewRequestRow) -> Result<RequestRow, StorageError> {
    let id: i64 = diesel::insert_into(pairing_requests::table)
        .values(row)
        .returning(pairing_requests::id)
        .get_result(conn)?;
    by_id(conn, id)?.ok_or(StorageError::Corrupt("inserted request not found".into()))
}

pub fn by_id(conn: &mut DbConnection, id: i64) -> Result<Option<RequestRow>, StorageError> {
    Ok(pairing_requests::table
        .find(id)
        .select(RequestRow::as_select())
        .first(conn)
        .optional()?)
}

/// The user's requests that wait or closed after `since`, oldest first.
pub fn of_user(
    conn: &mut DbConnection,
    user_id: i64,
    since: i64,
) -> Result<Vec<RequestRow>, StorageError> {
    Ok(pairing_requests::table
        .filter(pairing_requests::user_id.eq(user_id))
        .filter(
            pairing_requests::state
                .eq("waiting")
                .or(pairing_requests::closed_at.gt(since)),
        )
        .order((pairing_requests::filed_at.asc(), pairing_requests::id.asc()))
        .select(RequestRow::as_select())
        .load(conn)?)
}

/// How many requests the user has waiting.
pub fn waiting_count(conn: &mut DbConnection, user_id: i64) -> Result<i64, StorageError> {
    Ok(pairing_requests::table
        .filter(pairing_requests::user_id.eq(user_id))
        .filter(pairing_requests::state.eq("waiting"))
        .count()
        .get_result(conn)?)
}

/// Whether any request waits (a pass with none has nothing to do and writes nothing).
pub fn any_waiting(conn: &mut DbConnection) -> Result<bool, StorageError> {
    Ok(diesel::select(diesel::dsl::exists(
        pairing_requests::table.filter(pairing_requests::state.eq("waiting")),
    ))
    .get_result(conn)?)
}

/// Close waiting requests `ids` as `state` at `now`; how many were still waiting.
pub fn close(
    conn: &mut DbConnection,
    ids: &[i64],
    state: &str,
    now: i64,
) -> Result<usize, StorageError> {
    Ok(diesel::update(
        pairing_requests::table
            .filter(pairing_requests::id.eq_any(ids))
            .filter(pairing_requests::state.eq("waiting")),
    )
    .set((
        pairing_requests::state.eq(state),
        pairing_requests::closed_at.eq(now),
    ))
    .execute(conn)?)
}

/// Close every waiting request of `user_id` as `state` (suspension, deletion).
pub fn close_all_of(
    conn: &mut DbConnection,
    user_id: i64,
    state: &str,
    now: i64,
) -> Result<usize, StorageError> {
    Ok(diesel::update(
        pairing_requests::table
            .filter(pairing_requests::user_id.eq(user_id))
            .filter(pairing_requests::state.eq("waiting")),
    )
    .set((
        pairing_requests::state.eq(state),
        pairing_requests::closed_at.eq(now),
    ))
    .execute(conn)?)
}

/// Seat waiting requests `ids` at `game_id`: true only when every one of them was still waiting
/// (the caller rolls back otherwise: a request is in at most one game).
pub fn seat(
    conn: &mut DbConnection,
    ids: &[i64],
    game_id: i64,
    now: i64,
) -> Result<bool, StorageError> {
    let changed = diesel::update(
        pairing_requests::table
            .filter(pairing_requests::id.eq_any(ids))
            .filter(pairing_requests::state.eq("waiting")),
    )
    .set((
        pairing_requests::state.eq("seated"),
        pairing_requests::game_id.eq(game_id),
        pairing_requests::closed_at.eq(now),
    ))
    .execute(conn)?;
    Ok(changed == ids.len())
}

/// Expire the waiting requests whose time has passed by `now`; how many.
pub fn expire_due(conn: &mut DbConnection, now: i64) -> Result<usize, StorageError> {
    Ok(diesel::update(
        pairing_requests::table
            .filter(pairing_requests::state.eq("waiting"))
            .filter(pairing_requests::expires_at.le(now)),
    )
    .set((
        pairing_requests::state.eq("expired"),
        pairing_requests::closed_at.eq(now),
    ))
    .execute(conn)?)
}

/// Delete requests closed before `before`.
pub fn delete_closed(conn: &mut DbConnection, before: i64) -> Result<usize, StorageError> {
    Ok(diesel::delete(
        pairing_requests::table
            .filter(pairing_requests::state.ne("waiting"))
            .filter(pairing_requests::closed_at.lt(before)),
    )
    .execute(conn)?)
}

/// Delete every request of `user_id` (account deletion).
pub fn delete_of_user(conn: &mut DbConnection, user_id: i64) -> Result<usize, StorageError> {
    Ok(
        diesel::delete(pairing_requests::table.filter(pairing_requests::user_id.eq(user_id)))
            .execute(conn)?,
    )
}

/// Take the pairing lock for the rest of the transaction (PostgreSQL; SQLite's writes are one at
/// a time already).
pub fn lock(conn: &mut DbConnection) -> Result<(), StorageError> {
    super::lock_until_commit(conn, PAIRING_LOCK)
}

/// Every waiting request, oldest first, with its player's name, standing and rating.
pub fn waiting(conn: &mut DbConnection) -> Result<Vec<WaitingRow>, StorageError> {
    type Joined = (RequestRow, String, bool, Option<i64>, Option<f64>);
    let rows: Vec<Joined> = pairing_requests::table
        .inner_join(users::table.on(users::id.eq(pairing_requests::user_id)))
        .left_join(
            ratings::table.on(ratings::user_id
                .eq(pairing_requests::user_id)
                .and(ratings::variant.eq(pairing_requests::variant))),
        )
        .filter(pairing_requests::state.eq("waiting"))
        .order((pairing_requests::filed_at.asc(), pairing_requests::id.asc()))
        .select((
            RequestRow::as_select(),
            users::name,
            users::outside_bot,
            users::suspended_until,
            ratings::rating.nullable(),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(
            |(request, name, outside_bot, suspended_until, rating)| WaitingRow {
                request,
                name,
                outside_bot,
                suspended_until,
                rating,
            },
        )
        .collect())
}

/// The blocks between any two of `users`, as (who blocked, whom).
pub fn blocks_among(
    conn: &mut DbConnection,
    users_: &[i64],
) -> Result<Vec<(i64, i64)>, StorageError> {
    Ok(blocks::table
        .filter(blocks::user_id.eq_any(users_))
        .filter(blocks::blocked_id.eq_any(users_))
        .select((blocks::user_id, blocks::blocked_id))
        .load(conn)?)
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = rematches)]
pub struct RematchRow {
    pub game_id: i64,
    pub offered_by: i32,
    pub accepted: String,
    pub state: String,
    pub offered_at: i64,
    pub expires_at: i64,
    pub new_game_id: Option<i64>,
    pub declined_by: Option<i32>,
    pub closed_at: Option<i64>,
}

/// The rematch offered at `game_id` (answers take turns on the pairing [`lock`]).
pub fn rematch(conn: &mut DbConnection, game_id: i64) -> Result<Option<RematchRow>, StorageError> {
    Ok(rematches::table
        .find(game_id)
        .select(RematchRow::as_select())
        .first(conn)
        .optional()?)
}

/// Offer a rematch at `row.game_id`, replacing an offer that was declined or lapsed.
pub fn offer_rematch(conn: &mut DbConnection, row: &RematchRow) -> Result<(), StorageError> {
    diesel::delete(rematches::table.find(row.game_id)).execute(conn)?;
    diesel::insert_into(rematches::table)
        .values(row)
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(())
}

/// Save a rematch's answers and state.
pub fn update_rematch(conn: &mut DbConnection, row: &RematchRow) -> Result<(), StorageError> {
    diesel::update(rematches::table.find(row.game_id))
        .set((
            rematches::accepted.eq(&row.accepted),
            rematches::state.eq(&row.state),
            rematches::new_game_id.eq(row.new_game_id),
            rematches::declined_by.eq(row.declined_by),
            rematches::closed_at.eq(row.closed_at),
        ))
        .execute(conn)?;
    Ok(())
}
