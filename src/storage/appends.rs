//! Appending to a game's log: the events after the version the writer saw (optimistic
//! concurrency), the `games` row's new columns, and the notices the change sends, all or none.
//!
//! A move is the server's most frequent write. On PostgreSQL [`append`] makes it one prepared
//! statement (the row's update, then the events, the notices and their webhook deliveries
//! inserted from its result), atomic by itself, so it needs no transaction around it: one round
//! trip instead of seven (BEGIN, the update, the event, the notice, the webhook lookup, COMMIT).
//! On SQLite, where a statement costs no round trip, the same writes are plain statements in the
//! writer's transaction.

use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::sql_types::{Array, BigInt, Bool, Integer, Nullable, Text};

use super::notifications::NewNotification;
use super::schema::{game_events, games};
use super::{DbConnection, StorageError};

/// What an appended event changes in the `games` row besides its version.
#[derive(Debug, Default, Clone, Copy)]
pub struct GameUpdate<'a> {
    pub status: Option<&'a str>,
    /// The engine state after this event, its engine version tag, and the user to act then
    /// (`None` when nobody is, the game being over).
    pub state: Option<(&'a str, i32, Option<i64>)>,
    /// The clock after this event.
    pub clock: Option<ClockColumns<'a>>,
}

/// A game's clock as stored: its state, and the two times the scheduler looks for.
#[derive(Debug, Clone, Copy)]
pub struct ClockColumns<'a> {
    pub json: &'a str,
    /// When the seat to act runs out of time (if its clock runs).
    pub deadline_at: Option<i64>,
    /// When the seat to act is next reminded of its deadline.
    pub reminder_at: Option<i64>,
}

/// The columns an append sets; `None` leaves a column as it is.
#[derive(AsChangeset)]
#[diesel(table_name = games)]
struct GameChanges<'a> {
    version: i64,
    updated_at: i64,
    status: Option<&'a str>,
    state: Option<&'a str>,
    state_engine_version: Option<i32>,
    to_act_user: Option<Option<i64>>,
    clock: Option<Option<&'a str>>,
    deadline_at: Option<Option<i64>>,
    reminder_at: Option<Option<i64>>,
}

/// A notice an append sends (its game is the appended one).
#[derive(Debug)]
pub struct AppendedNotice {
    pub user_id: i64,
    pub kind: &'static str,
    pub payload: String,
    /// Unique per notification: writing the same one twice is a no-op.
    pub dedup_key: String,
    /// Whether the user's webhooks for its kind get it too.
    pub to_webhooks: bool,
}

/// One append: events (`(kind, payload)`, at least one) after `expected_version`, numbered from
/// `expected_version + 1`, the row's changes, and the notices.
#[derive(Debug)]
pub struct Append<'a> {
    pub game_id: i64,
    pub expected_version: i64,
    pub events: &'a [(&'a str, String)],
    pub update: GameUpdate<'a>,
    pub notices: &'a [AppendedNotice],
    pub now: i64,
}

/// Write `append`; returns the new version. Another writer that appended first makes this a
/// [`StorageError::Conflict`] and writes nothing. On PostgreSQL it is one statement, atomic by
/// itself (see [`super::Database::write_atomic`]).
pub fn append(conn: &mut DbConnection, append: &Append<'_>) -> Result<i64, StorageError> {
    let version = match conn {
        DbConnection::Postgresql(c) => {
            let written: i64 = AppendStatement::of(append)
                .get_result(c)
                .map_err(StorageError::from_write)?;
            if written != 1 {
                return Err(StorageError::Conflict);
            }
            super::wakeups::touched(super::wakeups::Topic::Game(append.game_id));
            append.expected_version + append.events.len() as i64
        }
        DbConnection::Sqlite(_) => {
            let version = append_events(
                conn,
                append.game_id,
                append.expected_version,
                append.events,
                append.now,
                append.update,
            )?;
            for notice in append.notices {
                let new = NewNotification {
                    user_id: notice.user_id,
                    kind: notice.kind,
                    game_id: Some(append.game_id),
                    payload: &notice.payload,
                    dedup_key: &notice.dedup_key,
                };
                super::notifications::insert_with_deliveries(
                    conn,
                    &new,
                    notice.to_webhooks,
                    append.now,
                )?;
            }
            version
        }
    };
    Ok(version)
}

/// The PostgreSQL statement of [`append`]: the row's update, guarded by the version, feeds every
/// insert, so a stale append matches no row and writes nothing; it answers how many rows it
/// updated (1, or 0 when stale). Its text never changes (variable parts are arrays), so diesel
/// prepares it once per connection.
struct AppendStatement<'a> {
    game_id: i64,
    expected_version: i64,
    version: i64,
    now: i64,
    status: Option<&'a str>,
    sets_state: bool,
    state: Option<&'a str>,
    state_engine_version: Option<i32>,
    to_act_user: Option<i64>,
    sets_clock: bool,
    clock: Option<&'a str>,
    deadline_at: Option<i64>,
    reminder_at: Option<i64>,
    event_kinds: Vec<&'a str>,
    event_payloads: Vec<&'a str>,
    notice_users: Vec<i64>,
    notice_kinds: Vec<&'a str>,
    notice_payloads: Vec<&'a str>,
    notice_keys: Vec<&'a str>,
    webhook_kinds: Vec<&'a str>,
}

impl<'a> AppendStatement<'a> {
    fn of(append: &'a Append<'a>) -> AppendStatement<'a> {
        let update = &append.update;
        let notices = append.notices;
        AppendStatement {
            game_id: append.game_id,
            expected_version: append.expected_version,
            version: append.expected_version + append.events.len() as i64,
            now: append.now,
            status: update.status,
            sets_state: update.state.is_some(),
            state: update.state.map(|(state, _, _)| state),
            state_engine_version: update.state.map(|(_, tag, _)| tag),
            to_act_user: update.state.and_then(|(_, _, user)| user),
            sets_clock: update.clock.is_some(),
            clock: update.clock.map(|c| c.json),
            deadline_at: update.clock.and_then(|c| c.deadline_at),
            reminder_at: update.clock.and_then(|c| c.reminder_at),
            event_kinds: append.events.iter().map(|(kind, _)| *kind).collect(),
            event_payloads: append.events.iter().map(|(_, p)| p.as_str()).collect(),
            notice_users: notices.iter().map(|n| n.user_id).collect(),
            notice_kinds: notices.iter().map(|n| n.kind).collect(),
            notice_payloads: notices.iter().map(|n| n.payload.as_str()).collect(),
            notice_keys: notices.iter().map(|n| n.dedup_key.as_str()).collect(),
            webhook_kinds: notices
                .iter()
                .filter(|n| n.to_webhooks)
                .map(|n| n.kind)
                .collect(),
        }
    }
}

impl QueryId for AppendStatement<'_> {
    type QueryId = AppendStatement<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl Query for AppendStatement<'_> {
    type SqlType = BigInt;
}

impl RunQueryDsl<diesel::pg::PgConnection> for AppendStatement<'_> {}

/// `, column = CASE WHEN <set> THEN <value> ELSE column END`: the column changes only when the
/// append sets it.
fn set_if<'b>(
    out: &mut AstPass<'_, 'b, Pg>,
    column: &'static str,
    set: &'b bool,
    value: impl FnOnce(&mut AstPass<'_, 'b, Pg>) -> QueryResult<()>,
) -> QueryResult<()> {
    out.push_sql(", ");
    out.push_sql(column);
    out.push_sql(" = CASE WHEN ");
    out.push_bind_param::<Bool, _>(set)?;
    out.push_sql(" THEN ");
    value(out)?;
    out.push_sql(" ELSE ");
    out.push_sql(column);
    out.push_sql(" END");
    Ok(())
}

impl QueryFragment<Pg> for AppendStatement<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("WITH g AS (UPDATE games SET version = ");
        out.push_bind_param::<BigInt, _>(&self.version)?;
        out.push_sql(", updated_at = ");
        out.push_bind_param::<BigInt, _>(&self.now)?;
        out.push_sql(", status = COALESCE(");
        out.push_bind_param::<Nullable<Text>, _>(&self.status)?;
        out.push_sql(", status)");
        set_if(&mut out, "state", &self.sets_state, |out| {
            out.push_bind_param::<Nullable<Text>, _>(&self.state)
        })?;
        out.push_sql(", state_engine_version = COALESCE(");
        out.push_bind_param::<Nullable<Integer>, _>(&self.state_engine_version)?;
        out.push_sql(", state_engine_version)");
        set_if(&mut out, "to_act_user", &self.sets_state, |out| {
            out.push_bind_param::<Nullable<BigInt>, _>(&self.to_act_user)
        })?;
        set_if(&mut out, "clock", &self.sets_clock, |out| {
            out.push_bind_param::<Nullable<Text>, _>(&self.clock)
        })?;
        set_if(&mut out, "deadline_at", &self.sets_clock, |out| {
            out.push_bind_param::<Nullable<BigInt>, _>(&self.deadline_at)
        })?;
        set_if(&mut out, "reminder_at", &self.sets_clock, |out| {
            out.push_bind_param::<Nullable<BigInt>, _>(&self.reminder_at)
        })?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<BigInt, _>(&self.game_id)?;
        out.push_sql(" AND version = ");
        out.push_bind_param::<BigInt, _>(&self.expected_version)?;
        out.push_sql(
            " RETURNING id), \
             e AS (INSERT INTO game_events (game_id, seq, kind, payload, created_at) \
             SELECT g.id, ",
        );
        out.push_bind_param::<BigInt, _>(&self.expected_version)?;
        out.push_sql(" + ev.n, ev.kind, ev.payload, ");
        out.push_bind_param::<BigInt, _>(&self.now)?;
        out.push_sql(" FROM g, unnest(");
        out.push_bind_param::<Array<Text>, _>(&self.event_kinds)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&self.event_payloads)?;
        out.push_sql(
            ") WITH ORDINALITY AS ev (kind, payload, n)), \
             n AS (INSERT INTO notifications \
             (user_id, kind, game_id, payload, dedup_key, created_at, next_attempt_at) \
             SELECT x.user_id, x.kind, g.id, x.payload, x.dedup_key, ",
        );
        out.push_bind_param::<BigInt, _>(&self.now)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&self.now)?;
        out.push_sql(" FROM g, unnest(");
        out.push_bind_param::<Array<BigInt>, _>(&self.notice_users)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&self.notice_kinds)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&self.notice_payloads)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&self.notice_keys)?;
        out.push_sql(
            ") AS x (user_id, kind, payload, dedup_key) \
             ON CONFLICT (dedup_key) DO NOTHING RETURNING id, user_id, kind, payload), \
             w AS (INSERT INTO webhook_deliveries \
             (webhook_id, notification_id, kind, payload, created_at, next_attempt_at) \
             SELECT h.id, n.id, n.kind, n.payload, ",
        );
        out.push_bind_param::<BigInt, _>(&self.now)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&self.now)?;
        out.push_sql(
            " FROM n JOIN webhooks h ON h.user_id = n.user_id AND h.disabled_at IS NULL \
             AND h.kinds LIKE '%,' || n.kind || ',%' WHERE n.kind = ANY(",
        );
        out.push_bind_param::<Array<Text>, _>(&self.webhook_kinds)?;
        out.push_sql(")) SELECT count(*) FROM g");
        Ok(())
    }
}

/// Append events (`(kind, payload)`, at least one) after `expected_version`, numbered from
/// `expected_version + 1`; returns the new version. Another writer that appended first makes this
/// a [`StorageError::Conflict`], and the caller's transaction must roll back.
pub fn append_events(
    conn: &mut DbConnection,
    game_id: i64,
    expected_version: i64,
    events: &[(&str, String)],
    now: i64,
    update: GameUpdate<'_>,
) -> Result<i64, StorageError> {
    let mut version = expected_version;
    // One insert per event (a MultiConnection has no batch insert); rarely more than two.
    for (kind, payload) in events {
        version += 1;
        diesel::insert_into(game_events::table)
            .values((
                game_events::game_id.eq(game_id),
                game_events::seq.eq(version),
                game_events::kind.eq(*kind),
                game_events::payload.eq(payload.as_str()),
                game_events::created_at.eq(now),
            ))
            .execute(conn)
            .map_err(StorageError::from_write)?;
    }
    let changes = GameChanges {
        version,
        updated_at: now,
        status: update.status,
        state: update.state.map(|(state, _, _)| state),
        state_engine_version: update.state.map(|(_, tag, _)| tag),
        to_act_user: update.state.map(|(_, _, user)| user),
        clock: update.clock.map(|c| Some(c.json)),
        deadline_at: update.clock.map(|c| c.deadline_at),
        reminder_at: update.clock.map(|c| c.reminder_at),
    };
    let changed = diesel::update(
        games::table
            .find(game_id)
            .filter(games::version.eq(expected_version)),
    )
    .set(&changes)
    .execute(conn)?;
    if changed != 1 {
        return Err(StorageError::Conflict);
    }
    super::wakeups::touched(super::wakeups::Topic::Game(game_id));
    Ok(version)
}
