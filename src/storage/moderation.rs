//! Keeping the peace: players' running games counted against the cap, time-outs counted,
//! moderators, mutes and suspensions, reports and the audit log of what moderators did.

use diesel::prelude::*;

use super::schema::{game_seats, games, moderation_actions, reports, users};
use super::{DbConnection, StorageError};

/// The games `user_id` sits at that are open or being played.
pub fn running_games(conn: &mut DbConnection, user_id: i64) -> Result<i64, StorageError> {
    Ok(game_seats::table
        .inner_join(games::table)
        .filter(game_seats::user_id.eq(user_id))
        .filter(games::status.eq_any(["open", "active"]))
        .count()
        .get_result(conn)?)
}

/// Count one more game abandoned by `user_id` on time.
pub fn count_timeout(conn: &mut DbConnection, user_id: i64, now: i64) -> Result<(), StorageError> {
    diesel::update(users::table.find(user_id))
        .set((
            users::timeouts.eq(users::timeouts + 1),
            users::last_timeout_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Make `name` a moderator or not (an operator's command); false when there is no such user.
pub fn set_moderator(
    conn: &mut DbConnection,
    name: &str,
    moderator: bool,
) -> Result<bool, StorageError> {
    let user = super::accounts::user_by_name(conn, name)?;
    let Some(user) = user else {
        return Ok(false);
    };
    diesel::update(users::table.find(user.id))
        .set(users::moderator.eq(moderator))
        .execute(conn)?;
    Ok(true)
}

pub fn set_muted_until(
    conn: &mut DbConnection,
    user_id: i64,
    until: Option<i64>,
) -> Result<(), StorageError> {
    diesel::update(users::table.find(user_id))
        .set(users::muted_until.eq(until))
        .execute(conn)?;
    Ok(())
}

pub fn set_suspended_until(
    conn: &mut DbConnection,
    user_id: i64,
    until: Option<i64>,
) -> Result<(), StorageError> {
    diesel::update(users::table.find(user_id))
        .set(users::suspended_until.eq(until))
        .execute(conn)?;
    Ok(())
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = reports)]
pub struct ReportRow {
    pub id: i64,
    pub reporter_id: i64,
    pub user_id: i64,
    pub message_id: Option<i64>,
    pub game_id: Option<i64>,
    pub reason: String,
    pub created_at: i64,
    pub status: String,
    pub handled_at: Option<i64>,
}

/// A new open report; its id.
pub fn insert_report(
    conn: &mut DbConnection,
    reporter_id: i64,
    user_id: i64,
    message: Option<(i64, i64)>,
    reason: &str,
    now: i64,
) -> Result<i64, StorageError> {
    Ok(diesel::insert_into(reports::table)
        .values((
            reports::reporter_id.eq(reporter_id),
            reports::user_id.eq(user_id),
            reports::message_id.eq(message.map(|(m, _)| m)),
            reports::game_id.eq(message.map(|(_, g)| g)),
            reports::reason.eq(reason),
            reports::created_at.eq(now),
            reports::status.eq("open"),
        ))
        .returning(reports::id)
        .get_result(conn)?)
}

/// Reports with `status`, oldest first, after id `after`.
pub fn reports_with(
    conn: &mut DbConnection,
    status: &str,
    after: i64,
    limit: i64,
) -> Result<Vec<ReportRow>, StorageError> {
    Ok(reports::table
        .filter(reports::status.eq(status))
        .filter(reports::id.gt(after))
        .order(reports::id.asc())
        .limit(limit)
        .select(ReportRow::as_select())
        .load(conn)?)
}

pub fn report(conn: &mut DbConnection, id: i64) -> Result<Option<ReportRow>, StorageError> {
    Ok(reports::table
        .find(id)
        .select(ReportRow::as_select())
        .first(conn)
        .optional()?)
}

/// Close an open report with `status` (`dismissed` or `actioned`); false when it was not open.
pub fn close_report(
    conn: &mut DbConnection,
    id: i64,
    status: &str,
    now: i64,
) -> Result<bool, StorageError> {
    Ok(diesel::update(
        reports::table
            .filter(reports::id.eq(id))
            .filter(reports::status.eq("open")),
    )
    .set((reports::status.eq(status), reports::handled_at.eq(now)))
    .execute(conn)?
        > 0)
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = moderation_actions)]
pub struct ActionRow {
    pub id: i64,
    pub moderator_id: i64,
    pub action: String,
    pub user_id: Option<i64>,
    pub report_id: Option<i64>,
    pub reason: String,
    pub until_at: Option<i64>,
    pub created_at: i64,
}

/// One line of the audit log.
pub struct NewAction<'a> {
    pub moderator_id: i64,
    pub action: &'a str,
    pub user_id: Option<i64>,
    pub report_id: Option<i64>,
    pub reason: &'a str,
    pub until_at: Option<i64>,
}

pub fn insert_action(
    conn: &mut DbConnection,
    action: &NewAction<'_>,
    now: i64,
) -> Result<(), StorageError> {
    diesel::insert_into(moderation_actions::table)
        .values((
            moderation_actions::moderator_id.eq(action.moderator_id),
            moderation_actions::action.eq(action.action),
            moderation_actions::user_id.eq(action.user_id),
            moderation_actions::report_id.eq(action.report_id),
            moderation_actions::reason.eq(action.reason),
            moderation_actions::until_at.eq(action.until_at),
            moderation_actions::created_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// The audit log, newest first, before id `before`.
pub fn actions(
    conn: &mut DbConnection,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<ActionRow>, StorageError> {
    let mut q = moderation_actions::table
        .order(moderation_actions::id.desc())
        .limit(limit)
        .select(ActionRow::as_select())
        .into_boxed();
    if let Some(before) = before {
        q = q.filter(moderation_actions::id.lt(before));
    }
    Ok(q.load(conn)?)
}

/// The names of these users (a deleted account's placeholder included).
pub fn names(conn: &mut DbConnection, ids: &[i64]) -> Result<Vec<(i64, String)>, StorageError> {
    Ok(users::table
        .filter(users::id.eq_any(ids))
        .select((users::id, users::name))
        .load(conn)?)
}
