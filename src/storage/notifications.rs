//! The notification outbox: rows written in the transaction of what caused them, for a
//! deliverer to send.

use diesel::prelude::*;

use super::schema::notifications;
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = notifications)]
pub struct NotificationRow {
    pub id: i64,
    pub user_id: i64,
    pub kind: String,
    pub game_id: Option<i64>,
    pub payload: String,
    pub created_at: i64,
    pub status: String,
    pub attempts: i32,
    pub sent_at: Option<i64>,
    pub last_error: Option<String>,
}

pub struct NewNotification<'a> {
    pub user_id: i64,
    pub kind: &'a str,
    pub game_id: Option<i64>,
    pub payload: &'a str,
    /// Unique per notification: writing the same one twice is a no-op.
    pub dedup_key: &'a str,
}

/// Queue a notification; its id, or `None` when one with the same key already exists.
pub fn insert(
    conn: &mut DbConnection,
    new: &NewNotification<'_>,
    now: i64,
) -> Result<Option<i64>, StorageError> {
    let query = diesel::insert_into(notifications::table)
        .values((
            notifications::user_id.eq(new.user_id),
            notifications::kind.eq(new.kind),
            notifications::game_id.eq(new.game_id),
            notifications::payload.eq(new.payload),
            notifications::dedup_key.eq(new.dedup_key),
            notifications::created_at.eq(now),
            notifications::next_attempt_at.eq(now),
        ))
        .on_conflict(notifications::dedup_key)
        .do_nothing()
        .returning(notifications::id);
    // ON CONFLICT is backend-specific in diesel: run it on the connection underneath.
    let inserted = on_backend!(conn, |c| query.get_result::<i64>(c).optional())?;
    if inserted.is_some() {
        super::wakeups::touched(super::wakeups::Topic::User(new.user_id));
    }
    Ok(inserted)
}

/// Queue a notification and, when `to_webhooks` (a kind told live), a delivery of it to each of
/// the user's webhooks that want its kind and to each of their push devices; its id, or `None`
/// when it was already queued (then nothing is written).
pub fn insert_with_deliveries(
    conn: &mut DbConnection,
    new: &NewNotification<'_>,
    to_webhooks: bool,
    now: i64,
) -> Result<Option<i64>, StorageError> {
    let id = insert(conn, new, now)?;
    if let (Some(id), true) = (id, to_webhooks) {
        super::webhooks::enqueue(conn, new.user_id, new.kind, id, new.payload, now)?;
        super::push::enqueue(conn, new.user_id, new.kind, id, new.payload, now)?;
    }
    Ok(id)
}

/// A user's notifications, newest first; `before`: only those with a smaller id (the cursor).
pub fn of_user(
    conn: &mut DbConnection,
    user_id: i64,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<NotificationRow>, StorageError> {
    let mut query = notifications::table
        .filter(notifications::user_id.eq(user_id))
        .into_boxed();
    if let Some(id) = before {
        query = query.filter(notifications::id.lt(id));
    }
    Ok(query
        .order(notifications::id.desc())
        .limit(limit)
        .select(NotificationRow::as_select())
        .load(conn)?)
}

/// Take up to `limit` pending notifications that are due, for `lease_ms`: their next attempt
/// moves past the lease and their attempts count up, so another instance (or this one, after a
/// crash) takes them again only once the lease has run out. On PostgreSQL rows another instance
/// is claiming are skipped (`FOR UPDATE SKIP LOCKED`); SQLite has one writer at a time.
pub fn claim(
    conn: &mut DbConnection,
    now: i64,
    lease_ms: i64,
    limit: i64,
) -> Result<Vec<NotificationRow>, StorageError> {
    let due = notifications::table
        .filter(notifications::status.eq("pending"))
        .filter(notifications::next_attempt_at.le(now))
        .order(notifications::next_attempt_at.asc())
        .limit(limit)
        .select(notifications::id);
    let ids: Vec<i64> = match conn {
        DbConnection::Postgresql(c) => due.for_update().skip_locked().load(c)?,
        DbConnection::Sqlite(c) => due.load(c)?,
    };
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    diesel::update(notifications::table.filter(notifications::id.eq_any(&ids)))
        .set((
            notifications::next_attempt_at.eq(now + lease_ms),
            notifications::attempts.eq(notifications::attempts + 1),
        ))
        .execute(conn)?;
    Ok(notifications::table
        .filter(notifications::id.eq_any(&ids))
        .order(notifications::id.asc())
        .select(NotificationRow::as_select())
        .load(conn)?)
}

/// The end of a notification's delivery: `sent`, `skipped` (nothing to send it to, or its
/// player does not want it) or `failed` (given up on), with why.
pub fn finish(
    conn: &mut DbConnection,
    id: i64,
    status: &str,
    at: i64,
    why: Option<&str>,
) -> Result<(), StorageError> {
    diesel::update(notifications::table.find(id))
        .set((
            notifications::status.eq(status),
            notifications::sent_at.eq((status == "sent").then_some(at)),
            notifications::last_error.eq(why),
        ))
        .execute(conn)?;
    Ok(())
}

/// Delete a notification whose delivery ended (not one still pending); whether it did.
pub fn delete_unless_pending(conn: &mut DbConnection, id: i64) -> Result<bool, StorageError> {
    Ok(diesel::delete(
        notifications::table
            .filter(notifications::id.eq(id))
            .filter(notifications::status.ne("pending")),
    )
    .execute(conn)?
        == 1)
}

/// Try again at `next_at` (the relay was unreachable or answered "try later").
pub fn retry_at(
    conn: &mut DbConnection,
    id: i64,
    next_at: i64,
    why: &str,
) -> Result<(), StorageError> {
    diesel::update(notifications::table.find(id))
        .set((
            notifications::next_attempt_at.eq(next_at),
            notifications::last_error.eq(why),
        ))
        .execute(conn)?;
    Ok(())
}

/// Delete notifications whose delivery ended (sent, skipped or failed) before `before`.
pub fn delete_finished(conn: &mut DbConnection, before: i64) -> Result<usize, StorageError> {
    Ok(diesel::delete(
        notifications::table
            .filter(notifications::status.ne("pending"))
            .filter(notifications::created_at.lt(before)),
    )
    .execute(conn)?)
}

/// Delete a game's notices of `kinds` (whatever their delivery state); returns how many.
pub fn delete_of_game(
    conn: &mut DbConnection,
    game_id: i64,
    kinds: &[&str],
) -> Result<usize, StorageError> {
    Ok(diesel::delete(
        notifications::table
            .filter(notifications::game_id.eq(game_id))
            .filter(notifications::kind.eq_any(kinds)),
    )
    .execute(conn)?)
}

/// A user's notifications of `kinds` with an id above `after`, oldest first (the live stream).
pub fn after(
    conn: &mut DbConnection,
    user_id: i64,
    after: i64,
    kinds: &[&str],
    limit: i64,
) -> Result<Vec<NotificationRow>, StorageError> {
    Ok(notifications::table
        .filter(notifications::user_id.eq(user_id))
        .filter(notifications::id.gt(after))
        .filter(notifications::kind.eq_any(kinds))
        .order(notifications::id.asc())
        .limit(limit)
        .select(NotificationRow::as_select())
        .load(conn)?)
}

/// Whether the user has a notice of `kind` for the game newer than notification `id` (a "your
/// turn" of a later turn).
pub fn newer_of_kind(
    conn: &mut DbConnection,
    user_id: i64,
    game_id: i64,
    kind: &str,
    id: i64,
) -> Result<bool, StorageError> {
    let newer: i64 = notifications::table
        .filter(notifications::game_id.eq(game_id))
        .filter(notifications::user_id.eq(user_id))
        .filter(notifications::kind.eq(kind))
        .filter(notifications::id.gt(id))
        .count()
        .get_result(conn)?;
    Ok(newer > 0)
}

/// The id of a user's newest notification (0 when there is none).
pub fn latest_id(conn: &mut DbConnection, user_id: i64) -> Result<i64, StorageError> {
    Ok(notifications::table
        .filter(notifications::user_id.eq(user_id))
        .select(diesel::dsl::max(notifications::id))
        .first::<Option<i64>>(conn)?
        .unwrap_or(0))
}

/// Notifications waiting for delivery (the outbox's depth).
pub fn pending_count(conn: &mut DbConnection) -> Result<i64, StorageError> {
    Ok(notifications::table
        .filter(notifications::status.eq("pending"))
        .count()
        .get_result(conn)?)
}
