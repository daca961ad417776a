//! Plans for the next turn: the one waiting for each player and game (read by its owner alone),
//! and what became of each, played or dropped.

use diesel::prelude::*;

use super::schema::{game_events, games, plan_outcomes, turn_plans};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = turn_plans)]
pub struct PlanRow {
    pub game_id: i64,
    pub user_id: i64,
    pub seat: i32,
    pub made_on: i64,
    pub made_at: i64,
    /// The alternatives as JSON (the service's to read).
    pub plan: String,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = plan_outcomes)]
pub struct OutcomeRow {
    pub id: i64,
    pub game_id: i64,
    pub user_id: i64,
    pub version: i64,
    pub alternative: Option<i32>,
    pub steps: i32,
    pub code: Option<String>,
    pub reason: Option<String>,
    pub at: i64,
}

/// What became of a plan, to record.
pub struct NewOutcome<'a> {
    pub game_id: i64,
    pub user_id: i64,
    pub version: i64,
    pub alternative: Option<i32>,
    pub steps: i32,
    pub code: Option<&'a str>,
    pub reason: Option<&'a str>,
    pub at: i64,
}

/// `user_id`'s waiting plan in `game_id`.
pub fn find(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<Option<PlanRow>, StorageError> {
    Ok(turn_plans::table
        .find((game_id, user_id))
        .select(PlanRow::as_select())
        .first(conn)
        .optional()?)
}

/// Keep `plan` as `user_id`'s waiting plan in `game_id`, replacing any, if the game is still at
/// `version`; false (nothing written) when it moved on. The version check updates the game's
/// row without changing it, so that a decision appended at the same moment and this write take
/// turns on that row: a plan is never kept beside a turn that began without seeing it.
pub fn put(conn: &mut DbConnection, row: &PlanRow) -> Result<bool, StorageError> {
    if !game_at_version(conn, row.game_id, row.made_on)? {
        return Ok(false);
    }
    delete(conn, row.game_id, row.user_id)?;
    diesel::insert_into(turn_plans::table)
        .values((
            turn_plans::game_id.eq(row.game_id),
            turn_plans::user_id.eq(row.user_id),
            turn_plans::seat.eq(row.seat),
            turn_plans::made_on.eq(row.made_on),
            turn_plans::made_at.eq(row.made_at),
            turn_plans::plan.eq(&row.plan),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(true)
}

/// Whether the game is at `version`, its row locked until the transaction ends (updated
/// without a change: an append at the same moment waits for this transaction, or this one for
/// it, and then finds another version).
pub fn game_at_version(
    conn: &mut DbConnection,
    game_id: i64,
    version: i64,
) -> Result<bool, StorageError> {
    let updated = diesel::update(
        games::table
            .filter(games::id.eq(game_id))
            .filter(games::version.eq(version)),
    )
    .set(games::version.eq(games::version))
    .execute(conn)?;
    Ok(updated == 1)
}

/// Delete `user_id`'s waiting plan in `game_id`; whether there was one (a plan is played or
/// dropped by the transaction that deletes it, so by one instance only).
pub fn delete(conn: &mut DbConnection, game_id: i64, user_id: i64) -> Result<bool, StorageError> {
    Ok(diesel::delete(turn_plans::table.find((game_id, user_id))).execute(conn)? == 1)
}

/// Delete this very plan (the same made on the same version at the same moment), not one that
/// replaced it since it was read; whether it was still there.
pub fn delete_exact(conn: &mut DbConnection, row: &PlanRow) -> Result<bool, StorageError> {
    Ok(diesel::delete(
        turn_plans::table
            .filter(turn_plans::game_id.eq(row.game_id))
            .filter(turn_plans::user_id.eq(row.user_id))
            .filter(turn_plans::made_on.eq(row.made_on))
            .filter(turn_plans::made_at.eq(row.made_at)),
    )
    .execute(conn)?
        == 1)
}

/// Every waiting plan in `game_id`.
pub fn in_game(conn: &mut DbConnection, game_id: i64) -> Result<Vec<PlanRow>, StorageError> {
    Ok(turn_plans::table
        .filter(turn_plans::game_id.eq(game_id))
        .select(PlanRow::as_select())
        .load(conn)?)
}

/// Active games whose player to act has a waiting plan (a turn that began while the plan was
/// being kept), up to `limit`, with that player.
pub fn due(conn: &mut DbConnection, limit: i64) -> Result<Vec<(i64, i64)>, StorageError> {
    Ok(turn_plans::table
        .inner_join(games::table)
        .filter(games::status.eq("active"))
        .filter(games::to_act_user.eq(turn_plans::user_id.nullable()))
        .order(games::updated_at.asc())
        .limit(limit)
        .select((turn_plans::game_id, turn_plans::user_id))
        .load(conn)?)
}

/// Waiting plans in games no longer active (ended or aborted), up to `limit`.
pub fn in_ended_games(conn: &mut DbConnection, limit: i64) -> Result<Vec<PlanRow>, StorageError> {
    Ok(turn_plans::table
        .inner_join(games::table)
        .filter(games::status.ne("active"))
        .limit(limit)
        .select(PlanRow::as_select())
        .load(conn)?)
}

/// The payloads of the decisions appended to `game_id` after `version`.
pub fn decisions_after(
    conn: &mut DbConnection,
    game_id: i64,
    version: i64,
) -> Result<Vec<String>, StorageError> {
    Ok(game_events::table
        .filter(game_events::game_id.eq(game_id))
        .filter(game_events::seq.gt(version))
        .filter(game_events::kind.eq("decided"))
        .select(game_events::payload)
        .load(conn)?)
}

/// Record what became of a plan.
pub fn record_outcome(conn: &mut DbConnection, o: &NewOutcome) -> Result<(), StorageError> {
    diesel::insert_into(plan_outcomes::table)
        .values((
            plan_outcomes::game_id.eq(o.game_id),
            plan_outcomes::user_id.eq(o.user_id),
            plan_outcomes::version.eq(o.version),
            plan_outcomes::alternative.eq(o.alternative),
            plan_outcomes::steps.eq(o.steps),
            plan_outcomes::code.eq(o.code),
            plan_outcomes::reason.eq(o.reason),
            plan_outcomes::at.eq(o.at),
        ))
        .execute(conn)?;
    Ok(())
}

/// What became of `user_id`'s plans in `game_id`, latest first.
pub fn outcomes(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<Vec<OutcomeRow>, StorageError> {
    Ok(plan_outcomes::table
        .filter(plan_outcomes::game_id.eq(game_id))
        .filter(plan_outcomes::user_id.eq(user_id))
        .order(plan_outcomes::id.desc())
        .select(OutcomeRow::as_select())
        .load(conn)?)
}

/// Erase a deleted account's plans and their outcomes.
pub fn erase_user(conn: &mut DbConnection, user_id: i64) -> Result<(), StorageError> {
    diesel::delete(turn_plans::table.filter(turn_plans::user_id.eq(user_id))).execute(conn)?;
    diesel::delete(plan_outcomes::table.filter(plan_outcomes::user_id.eq(user_id)))
        .execute(conn)?;
    Ok(())
}
