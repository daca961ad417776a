//! Appending to a game's log: the events after the version the writer saw (optimistic
//! concurrency), the `games` row's new columns, and the notices the change sends, all or none.
//!
//! A move is the server's most frequent write. On PostgreSQL [`append`] makes it one prepared
//! statement (the row's update, then the events, the notices and their webhook and push deliveries
//! inserted from its result), atomic by itself, so it needs no transaction around it: one round
//! trip instead of seven (BEGIN, the update, the event, the notice, the webhook lookup, COMMIT).
//! On SQLite, where a statement costs no round trip, the same writes are plain statements in the
//! writer's transaction.

use diesel::backend::Backend;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::serialize::ToSql;
use diesel::sql_types::{Array, BigInt, Bool, HasSqlType, Integer, Nullable, Text};

use super::notifications::NewNotification;
use super::schema::game_events;
use super::{DbConnection, StorageError};

/// What an appended event changes in the `games` row besides its version.
#[derive(Debug, Default, Clone, Copy)]
pub struct GameUpdate<'a> {
    pub status: Option<&'a str>,
    /// The user to act after this event (`None` when nobody is, the game being over).
    pub to_act: Option<Option<i64>>,
    /// A snapshot of the engine state after this event, and its engine version tag. Without
    /// one, the state is the last snapshot with the logged decisions after it.
    pub snapshot: Option<(&'a str, i32)>,
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

/// The guarded update of the `games` row: its new version and the columns the append sets, where
/// the version is still the one the writer saw. Its text never changes (a column the append leaves
/// alone is set to itself), so it is prepared once per connection on both backends, where diesel
/// parsed an `UPDATE` of optional columns every time.
struct RowUpdate<'a> {
    game_id: i64,
    expected_version: i64,
    version: i64,
    now: i64,
    status: Option<&'a str>,
    sets_snapshot: bool,
    state: Option<&'a str>,
    state_engine_version: Option<i32>,
    sets_to_act: bool,
    to_act_user: Option<i64>,
    sets_clock: bool,
    clock: Option<&'a str>,
    deadline_at: Option<i64>,
    reminder_at: Option<i64>,
}

impl<'a> RowUpdate<'a> {
    fn of(
        game_id: i64,
        expected_version: i64,
        version: i64,
        now: i64,
        update: &GameUpdate<'a>,
    ) -> Self {
        RowUpdate {
            game_id,
            expected_version,
            version,
            now,
            status: update.status,
            sets_snapshot: update.snapshot.is_some(),
            state: update.snapshot.map(|(state, _)| state),
            state_engine_version: update.snapshot.map(|(_, tag)| tag),
            sets_to_act: update.to_act.is_some(),
            to_act_user: update.to_act.flatten(),
            sets_clock: update.clock.is_some(),
            clock: update.clock.map(|c| c.json),
            deadline_at: update.clock.and_then(|c| c.deadline_at),
            reminder_at: update.clock.and_then(|c| c.reminder_at),
        }
    }
}

impl QueryId for RowUpdate<'_> {
    type QueryId = RowUpdate<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<DB> QueryFragment<DB> for RowUpdate<'_>
where
    DB: Backend + HasSqlType<BigInt> + HasSqlType<Integer> + HasSqlType<Text> + HasSqlType<Bool>,
    i64: ToSql<BigInt, DB>,
    i32: ToSql<Integer, DB>,
    str: ToSql<Text, DB>,
    bool: ToSql<Bool, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("UPDATE games SET version = ");
        out.push_bind_param::<BigInt, _>(&self.version)?;
        out.push_sql(", updated_at = ");
        out.push_bind_param::<BigInt, _>(&self.now)?;
        out.push_sql(", status = COALESCE(");
        out.push_bind_param::<Nullable<Text>, _>(&self.status)?;
        out.push_sql(", status)");
        set_if(&mut out, "state", &self.sets_snapshot, |out| {
            out.push_bind_param::<Nullable<Text>, _>(&self.state)
        })?;
        out.push_sql(", state_engine_version = COALESCE(");
        out.push_bind_param::<Nullable<Integer>, _>(&self.state_engine_version)?;
        out.push_sql(", state_engine_version)");
        set_if(&mut out, "state_version", &self.sets_snapshot, |out| {
            out.push_bind_param::<BigInt, _>(&self.version)
        })?;
        set_if(&mut out, "to_act_user", &self.sets_to_act, |out| {
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
        Ok(())
    }
}

impl RunQueryDsl<diesel::pg::PgConnection> for RowUpdate<'_> {}
impl RunQueryDsl<diesel::sqlite::SqliteConnection> for RowUpdate<'_> {}

/// A notice an append sends (its game is the appended one).
#[derive(Debug)]
pub struct AppendedNotice {
    pub user_id: i64,
    pub kind: &'static str,
    pub payload: String,
    /// Unique per notification: writing the same one twice is a no-op.
    pub dedup_key: String,
    /// Whether the user's webhooks for its kind, and their push devices, get it too.
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

impl Append<'_> {
    /// The version the append makes.
    fn version(&self) -> i64 {
        self.expected_version + self.events.len() as i64
    }
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
            for notice in append.notices {
                super::wakeups::touched(super::wakeups::Topic::User(notice.user_id));
            }
            append.version()
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
    row: RowUpdate<'a>,
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
        let notices = append.notices;
        AppendStatement {
            row: RowUpdate::of(
                append.game_id,
                append.expected_version,
                append.version(),
                append.now,
                &append.update,
            ),
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
fn set_if<'b, DB: Backend + HasSqlType<Bool>>(
    out: &mut AstPass<'_, 'b, DB>,
    column: &'static str,
    set: &'b bool,
    value: impl FnOnce(&mut AstPass<'_, 'b, DB>) -> QueryResult<()>,
) -> QueryResult<()>
where
    bool: ToSql<Bool, DB>,
{
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
        out.push_sql("WITH g AS (");
        self.row.walk_ast(out.reborrow())?;
        out.push_sql(
            " RETURNING id), \
             e AS (INSERT INTO game_events (game_id, seq, kind, payload, created_at) \
             SELECT g.id, ",
        );
        out.push_bind_param::<BigInt, _>(&self.row.expected_version)?;
        out.push_sql(" + ev.n, ev.kind, ev.payload, ");
        out.push_bind_param::<BigInt, _>(&self.row.now)?;
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
        out.push_bind_param::<BigInt, _>(&self.row.now)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&self.row.now)?;
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
        out.push_bind_param::<BigInt, _>(&self.row.now)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&self.row.now)?;
        out.push_sql(
            " FROM n JOIN webhooks h ON h.user_id = n.user_id AND h.disabled_at IS NULL \
             AND h.kinds LIKE '%,' || n.kind || ',%' WHERE n.kind = ANY(",
        );
        out.push_bind_param::<Array<Text>, _>(&self.webhook_kinds)?;
        out.push_sql(
            ")), \
             p AS (INSERT INTO push_deliveries \
             (subscription_id, notification_id, kind, payload, created_at, next_attempt_at) \
             SELECT s.id, n.id, n.kind, n.payload, ",
        );
        out.push_bind_param::<BigInt, _>(&self.row.now)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&self.row.now)?;
        out.push_sql(
            " FROM n JOIN push_subscriptions s ON s.user_id = n.user_id WHERE n.kind = ANY(",
        );
        out.push_bind_param::<Array<Text>, _>(&self.webhook_kinds)?;
        out.push_sql(")) SELECT count(*) FROM g");
        Ok(())
    }
}

/// Append events (`(kind, payload)`, at least one) after `expected_version`, numbered from
/// `expected_version + 1`; returns the new version. Another writer that appended first makes this
/// a [`StorageError::Conflict`], before anything is written.
pub fn append_events(
    conn: &mut DbConnection,
    game_id: i64,
    expected_version: i64,
    events: &[(&str, String)],
    now: i64,
    update: GameUpdate<'_>,
) -> Result<i64, StorageError> {
    // The guarded update comes first: a stale append fails having written nothing (SQLite's
    // group commit then needs no savepoint for it, see `group_commit::Guard`).
    let version = expected_version + events.len() as i64;
    let row = RowUpdate::of(game_id, expected_version, version, now, &update);
    let changed = on_backend!(conn, |c| row.execute(c))?;
    if changed != 1 {
        return Err(StorageError::Conflict);
    }
    // One insert per event (a MultiConnection has no batch insert); rarely more than two.
    for (seq, (kind, payload)) in (expected_version + 1..).zip(events) {
        on_backend!(conn, |c| diesel::insert_into(game_events::table)
            .values((
                game_events::game_id.eq(game_id),
                game_events::seq.eq(seq),
                game_events::kind.eq(*kind),
                game_events::payload.eq(payload.as_str()),
                game_events::created_at.eq(now),
            ))
            .execute(c))
        .map_err(StorageError::from_write)?;
    }
    super::wakeups::touched(super::wakeups::Topic::Game(game_id));
    Ok(version)
}
