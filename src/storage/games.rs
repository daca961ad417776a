//! Games: the append-only event log, and the projections derived from it (games, seats,
//! invites) that make listing and loading cheap.

use diesel::prelude::*;

use super::schema::{game_events, game_invites, game_seats, games, idempotency_keys, users};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: i64,
    pub variant: String,
    pub players: i32,
    pub status: String,
    pub invite_only: bool,
    pub created_by: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub version: i64,
    /// A snapshot of the engine state at `state_version`; the decisions logged after it bring it
    /// to `version` (a move rewrites the snapshot only every few events).
    pub state: Option<String>,
    pub state_engine_version: i32,
    pub to_act_user: Option<i64>,
    pub clock: Option<String>,
    pub deadline_at: Option<i64>,
    pub reminder_at: Option<i64>,
    /// Rated (its result changes ratings) or casual.
    pub rated: bool,
    /// The version `state` stands at.
    pub state_version: i64,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_events)]
pub struct EventRow {
    pub game_id: i64,
    pub seq: i64,
    pub kind: String,
    pub payload: String,
    pub created_at: i64,
}

#[derive(Debug, Clone)]
pub struct SeatRow {
    pub seat: i32,
    pub user_id: i64,
    pub user_name: String,
    /// A bot: the server's own or an outside one.
    pub is_bot: bool,
    /// A bot its owner runs outside the server, through the API.
    pub outside_bot: bool,
}

impl SeatRow {
    /// Whether the server's bot worker plays this seat's user (so nobody outside is told of
    /// turns or deadlines).
    pub fn played_by_server(&self) -> bool {
        self.is_bot && !self.outside_bot
    }
}

/// A new game's row, as the lobby creates it (open, version 0).
#[derive(Debug, Insertable)]
#[diesel(table_name = games)]
pub struct NewGameRow<'a> {
    pub variant: &'a str,
    pub players: i32,
    pub invite_only: bool,
    pub rated: bool,
    pub created_by: i64,
    /// The clock's state as JSON.
    pub clock: Option<&'a str>,
    pub created_at: i64,
}

pub fn insert_game(conn: &mut DbConnection, new: &NewGameRow<'_>) -> Result<GameRow, StorageError> {
    let id: i64 = diesel::insert_into(games::table)
        .values((
            new,
            games::status.eq("open"),
            games::updated_at.eq(new.created_at),
            games::version.eq(0i64),
            games::state_engine_version.eq(0),
        ))
        .returning(games::id)
        .get_result(conn)?;
    game(conn, id)?.ok_or(StorageError::Corrupt("inserted game not found".into()))
}

pub fn game(conn: &mut DbConnection, id: i64) -> Result<Option<GameRow>, StorageError> {
    Ok(games::table
        .find(id)
        .select(GameRow::as_select())
        .first(conn)
        .optional()?)
}

/// The game's row without its snapshot (`state` is `None`): what a request needs when this
/// process already holds the decoded state of that version; and how many times a player's name
/// has changed anywhere (`name_changes`), which seats kept in memory must match.
pub fn game_head(conn: &mut DbConnection, id: i64) -> Result<Option<(GameRow, i64)>, StorageError> {
    use diesel::sql_types::{Nullable, Text};
    let names = super::schema::name_changes::table
        .find(1)
        .select(super::schema::name_changes::generation)
        .single_value();
    // Read by every view and every decision not held in the memo: on the backend's connection.
    let head = on_backend!(conn, |c| games::table
        .find(id)
        .select((
            (
                games::id,
                games::variant,
                games::players,
                games::status,
                games::invite_only,
                games::created_by,
                games::created_at,
                games::updated_at,
                games::version,
                None::<String>.into_sql::<Nullable<Text>>(),
                games::state_engine_version,
                games::to_act_user,
                games::clock,
                games::deadline_at,
                games::reminder_at,
                games::rated,
                games::state_version,
            ),
            names,
        ))
        .first::<(GameRow, Option<i64>)>(c)
        .optional())?;
    Ok(head.map(|(row, names)| (row, names.unwrap_or(0))))
}

/// Replace a stale snapshot (another engine version, or behind the row's version) by one rebuilt
/// from the log.
pub fn save_state(
    conn: &mut DbConnection,
    game_id: i64,
    version: i64,
    state: &str,
    tag: i32,
) -> Result<(), StorageError> {
    diesel::update(
        games::table
            .find(game_id)
            .filter(games::version.eq(version)),
    )
    .set((
        games::state.eq(Some(state)),
        games::state_engine_version.eq(tag),
        games::state_version.eq(version),
    ))
    .execute(conn)?;
    Ok(())
}

pub fn seats(conn: &mut DbConnection, game_id: i64) -> Result<Vec<SeatRow>, StorageError> {
    let rows: Vec<(i32, i64, String, bool, bool)> = game_seats::table
        .inner_join(users::table)
        .filter(game_seats::game_id.eq(game_id))
        .order(game_seats::seat.asc())
        .select((
            game_seats::seat,
            users::id,
            users::name,
            users::is_bot,
            users::outside_bot,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(seat, user_id, user_name, is_bot, outside_bot)| SeatRow {
            seat,
            user_id,
            user_name,
            is_bot,
            outside_bot,
        })
        .collect())
}

pub fn insert_seat(
    conn: &mut DbConnection,
    game_id: i64,
    seat: i32,
    user_id: i64,
) -> Result<(), StorageError> {
    diesel::insert_into(game_seats::table)
        .values((
            game_seats::game_id.eq(game_id),
            game_seats::seat.eq(seat),
            game_seats::user_id.eq(user_id),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(())
}

pub fn delete_seat(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<(), StorageError> {
    diesel::delete(
        game_seats::table
            .filter(game_seats::game_id.eq(game_id))
            .filter(game_seats::user_id.eq(user_id)),
    )
    .execute(conn)?;
    Ok(())
}

/// Seats are numbered by joining order: after a leave, the later seats move down one.
pub fn renumber_seats(conn: &mut DbConnection, game_id: i64) -> Result<(), StorageError> {
    let mut rows = seats(conn, game_id)?;
    rows.sort_by_key(|r| r.seat);
    diesel::delete(game_seats::table.filter(game_seats::game_id.eq(game_id))).execute(conn)?;
    for (i, r) in rows.iter().enumerate() {
        insert_seat(conn, game_id, i as i32, r.user_id)?;
    }
    Ok(())
}

pub fn insert_invite(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<(), StorageError> {
    diesel::insert_into(game_invites::table)
        .values((
            game_invites::game_id.eq(game_id),
            game_invites::user_id.eq(user_id),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(())
}

pub fn is_invited(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<bool, StorageError> {
    let n: i64 = game_invites::table
        .filter(game_invites::game_id.eq(game_id))
        .filter(game_invites::user_id.eq(user_id))
        .count()
        .get_result(conn)?;
    Ok(n > 0)
}

/// Open games anyone may join, newest first; `before`: only games with a smaller id (the cursor).
pub fn open_games(
    conn: &mut DbConnection,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<GameRow>, StorageError> {
    let mut query = games::table
        .filter(games::status.eq("open"))
        .filter(games::invite_only.eq(false))
        .into_boxed();
    if let Some(id) = before {
        query = query.filter(games::id.lt(id));
    }
    Ok(query
        .order(games::id.desc())
        .limit(limit)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// Games the user sits at or is invited to, most recently changed first; `before`: only games
/// after this `(updated_at, id)` in that order (the cursor).
pub fn games_of(
    conn: &mut DbConnection,
    user_id: i64,
    before: Option<(i64, i64)>,
    limit: i64,
) -> Result<Vec<GameRow>, StorageError> {
    let seated = game_seats::table
        .filter(game_seats::user_id.eq(user_id))
        .select(game_seats::game_id);
    let invited = game_invites::table
        .filter(game_invites::user_id.eq(user_id))
        .select(game_invites::game_id);
    let mut query = games::table
        .filter(games::id.eq_any(seated).or(games::id.eq_any(invited)))
        .into_boxed();
    if let Some((updated_at, id)) = before {
        query = query.filter(
            games::updated_at
                .lt(updated_at)
                .or(games::updated_at.eq(updated_at).and(games::id.lt(id))),
        );
    }
    Ok(query
        .order((games::updated_at.desc(), games::id.desc()))
        .limit(limit)
        .select(GameRow::as_select())
        .load(conn)?)
}

pub struct StoredAnswer {
    pub request_hash: String,
    pub status: i32,
    pub body: String,
}

/// The stored answer to `key`, unless it was stored before `since` (then it has expired).
pub fn idempotent_answer(
    conn: &mut DbConnection,
    user_id: i64,
    key: &str,
    since: i64,
) -> Result<Option<StoredAnswer>, StorageError> {
    let row: Option<(String, i32, String)> = idempotency_keys::table
        .find((user_id, key))
        .filter(idempotency_keys::created_at.ge(since))
        .select((
            idempotency_keys::request_hash,
            idempotency_keys::status,
            idempotency_keys::body,
        ))
        .first(conn)
        .optional()?;
    Ok(row.map(|(request_hash, status, body)| StoredAnswer {
        request_hash,
        status,
        body,
    }))
}

/// Keep the answer to `key`, replacing an expired answer (stored before `since`) to the same key.
pub fn store_idempotent_answer(
    conn: &mut DbConnection,
    user_id: i64,
    key: &str,
    answer: &StoredAnswer,
    now: i64,
    since: i64,
) -> Result<(), StorageError> {
    diesel::delete(
        idempotency_keys::table
            .find((user_id, key))
            .filter(idempotency_keys::created_at.lt(since)),
    )
    .execute(conn)?;
    diesel::insert_into(idempotency_keys::table)
        .values((
            idempotency_keys::user_id.eq(user_id),
            idempotency_keys::key.eq(key),
            idempotency_keys::request_hash.eq(&answer.request_hash),
            idempotency_keys::status.eq(answer.status),
            idempotency_keys::body.eq(&answer.body),
            idempotency_keys::created_at.eq(now),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(())
}

/// Active games waiting for a decision of one of these users (the bots), oldest change first.
pub fn games_awaiting(
    conn: &mut DbConnection,
    users: &[i64],
    limit: i64,
) -> Result<Vec<(i64, i64)>, StorageError> {
    let rows: Vec<(i64, Option<i64>)> = games::table
        .filter(games::status.eq("active"))
        .filter(games::to_act_user.eq_any(users))
        .order(games::updated_at.asc())
        .limit(limit)
        .select((games::id, games::to_act_user))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, user)| user.map(|u| (id, u)))
        .collect())
}

/// Active games whose deadline has passed by `now`, earliest first, with their versions.
pub fn games_due(
    conn: &mut DbConnection,
    now: i64,
    limit: i64,
) -> Result<Vec<(i64, i64)>, StorageError> {
    Ok(games::table
        .filter(games::deadline_at.le(now))
        .filter(games::status.eq("active"))
        .order(games::deadline_at.asc())
        .limit(limit)
        .select((games::id, games::version))
        .load(conn)?)
}

/// Active games whose next deadline reminder is due by `now`, earliest first, with their versions.
pub fn games_reminder_due(
    conn: &mut DbConnection,
    now: i64,
    limit: i64,
) -> Result<Vec<(i64, i64)>, StorageError> {
    Ok(games::table
        .filter(games::reminder_at.le(now))
        .filter(games::status.eq("active"))
        .order(games::reminder_at.asc())
        .limit(limit)
        .select((games::id, games::version))
        .load(conn)?)
}

/// Move a game's next reminder, if the game is still at `version` (a reminder is not an event:
/// the version stays, so no player's move goes stale). Returns whether it was still there.
pub fn set_reminder(
    conn: &mut DbConnection,
    game_id: i64,
    version: i64,
    reminder_at: Option<i64>,
) -> Result<bool, StorageError> {
    let changed = diesel::update(
        games::table
            .find(game_id)
            .filter(games::version.eq(version)),
    )
    .set(games::reminder_at.eq(reminder_at))
    .execute(conn)?;
    Ok(changed == 1)
}

/// The active games a user sits at, with the seat.
pub fn active_seats_of(
    conn: &mut DbConnection,
    user_id: i64,
) -> Result<Vec<(GameRow, i32)>, StorageError> {
    Ok(games::table
        .inner_join(game_seats::table)
        .filter(game_seats::user_id.eq(user_id))
        .filter(games::status.eq("active"))
        .order(games::id.asc())
        .select((GameRow::as_select(), game_seats::seat))
        .load(conn)?)
}

/// The open games (not started) a user sits at.
pub fn open_games_of(conn: &mut DbConnection, user_id: i64) -> Result<Vec<i64>, StorageError> {
    Ok(games::table
        .inner_join(game_seats::table)
        .filter(game_seats::user_id.eq(user_id))
        .filter(games::status.eq("open"))
        .order(games::id.asc())
        .select(games::id)
        .load(conn)?)
}
