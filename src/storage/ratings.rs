//! Ratings per player and variant, and finished games' results (one row per seat, with the
//! rating change of rated games): profiles, history and leaderboards read them.

use diesel::prelude::*;

use super::schema::{game_results, games, ratings, users};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = ratings)]
pub struct RatingRow {
    pub user_id: i64,
    pub variant: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i32,
    pub last_rated_at: Option<i64>,
}

/// One seat's result in a finished game.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_results)]
#[diesel(check_for_backend(diesel::pg::Pg, diesel::sqlite::Sqlite))]
pub struct ResultRow {
    /// The order results were recorded (and ratings applied) in; ignored on insert.
    #[diesel(skip_insertion)]
    pub id: i64,
    pub game_id: i64,
    pub seat: i32,
    pub user_id: i64,
    pub variant: String,
    pub players: i32,
    pub rated: bool,
    pub ended_at: i64,
    pub total: i32,
    pub place: i32,
    pub outcome: String,
    pub rating_before: Option<f64>,
    pub deviation_before: Option<f64>,
    pub volatility_before: Option<f64>,
    pub rating_after: Option<f64>,
    pub deviation_after: Option<f64>,
    pub volatility_after: Option<f64>,
}

/// The ratings of these users in one variant, each row created from `initial` when missing and
/// locked until the transaction ends (PostgreSQL), so that two games ending at once for one
/// player apply one after the other. Locked in user id order: no two games deadlock.
pub fn lock_ratings(
    conn: &mut DbConnection,
    variant: &str,
    user_ids: &[i64],
    initial: (f64, f64, f64),
) -> Result<Vec<RatingRow>, StorageError> {
    let mut ids = user_ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    for &user_id in &ids {
        let row = RatingRow {
            user_id,
            variant: variant.to_string(),
            rating: initial.0,
            deviation: initial.1,
            volatility: initial.2,
            games: 0,
            last_rated_at: None,
        };
        let insert = diesel::insert_into(ratings::table)
            .values(&row)
            .on_conflict((ratings::user_id, ratings::variant))
            .do_nothing();
        // ON CONFLICT is backend-specific in diesel: run it on the connection underneath.
        on_backend!(conn, |c| insert.execute(c))?;
    }
    let rows = || {
        ratings::table
            .filter(ratings::variant.eq(variant))
            .filter(ratings::user_id.eq_any(&ids))
            .order(ratings::user_id.asc())
    };
    // Row locks are PostgreSQL's (SQLite has one writer at a time): taken in user id order.
    Ok(match conn {
        DbConnection::Postgresql(c) => {
            rows().select(RatingRow::as_select()).for_update().load(c)?
        }
        DbConnection::Sqlite(c) => rows().select(RatingRow::as_select()).load(c)?,
    })
}

pub fn save_rating(conn: &mut DbConnection, row: &RatingRow) -> Result<(), StorageError> {
    diesel::update(ratings::table.find((row.user_id, &row.variant)))
        .set(row)
        .execute(conn)?;
    Ok(())
}

pub fn insert_results(conn: &mut DbConnection, rows: &[ResultRow]) -> Result<(), StorageError> {
    // One insert per seat (a MultiConnection has no batch insert): at most four.
    for row in rows {
        diesel::insert_into(game_results::table)
            .values(row)
            .execute(conn)
            .map_err(StorageError::from_write)?;
    }
    Ok(())
}

/// A user's ratings, one per variant played rated.
pub fn ratings_of(conn: &mut DbConnection, user_id: i64) -> Result<Vec<RatingRow>, StorageError> {
    Ok(ratings::table
        .filter(ratings::user_id.eq(user_id))
        .order(ratings::variant.asc())
        .select(RatingRow::as_select())
        .load(conn)?)
}

/// How many games a user won, drew and lost: `(variant, outcome, count)`.
pub fn outcome_counts(
    conn: &mut DbConnection,
    user_id: i64,
) -> Result<Vec<(String, String, i64)>, StorageError> {
    Ok(game_results::table
        .filter(game_results::user_id.eq(user_id))
        .group_by((game_results::variant, game_results::outcome))
        .select((
            game_results::variant,
            game_results::outcome,
            diesel::dsl::count_star(),
        ))
        .load(conn)?)
}

/// A user's latest rated results in a variant, the last applied first.
pub fn rating_changes(
    conn: &mut DbConnection,
    user_id: i64,
    variant: &str,
    limit: i64,
) -> Result<Vec<ResultRow>, StorageError> {
    Ok(game_results::table
        .filter(game_results::user_id.eq(user_id))
        .filter(game_results::variant.eq(variant))
        .filter(game_results::rated.eq(true))
        .order(game_results::id.desc())
        .limit(limit)
        .select(ResultRow::as_select())
        .load(conn)?)
}

/// Established ratings of a variant (deviation at most `max_deviation`), best first, with the
/// player's name and whether it is a bot; `after`: only after this `(rating, user_id)`.
pub fn leaderboard(
    conn: &mut DbConnection,
    variant: &str,
    max_deviation: f64,
    after: Option<(f64, i64)>,
    limit: i64,
) -> Result<Vec<(RatingRow, String, bool)>, StorageError> {
    let mut query = ratings::table
        .inner_join(users::table)
        .filter(ratings::variant.eq(variant))
        .filter(ratings::deviation.le(max_deviation))
        .filter(users::deleted_at.is_null())
        .into_boxed();
    if let Some((rating, user_id)) = after {
        query = query.filter(
            ratings::rating
                .lt(rating)
                .or(ratings::rating.eq(rating).and(ratings::user_id.gt(user_id))),
        );
    }
    Ok(query
        .order((ratings::rating.desc(), ratings::user_id.asc()))
        .limit(limit)
        .select((RatingRow::as_select(), users::name, users::is_bot))
        .load(conn)?)
}

/// An outcome (won, drawn, lost) a listed seat has, or has not.
#[derive(Debug, Clone, Copy)]
pub enum OutcomeFilter<'a> {
    Is(&'a str),
    IsNot(&'a str),
}

/// Which finished games a history lists.
#[derive(Debug, Default, Clone)]
pub struct HistoryFilter<'a> {
    /// Games of this user (their seat's row); `None`: everyone's games.
    pub user_id: Option<i64>,
    pub variant: Option<&'a str>,
    pub players: Option<i32>,
    /// The outcome of the listed seat (the user's, or seat 0's).
    pub outcome: Option<OutcomeFilter<'a>>,
    pub rated: Option<bool>,
    /// Ended at or after (milliseconds).
    pub since: Option<i64>,
    /// Ended before (milliseconds).
    pub until: Option<i64>,
}

/// Finished games, most recent end first, one row each (the user's seat, or seat 0); `before`:
/// only games after this `(ended_at, game_id)` in that order.
pub fn history(
    conn: &mut DbConnection,
    filter: &HistoryFilter<'_>,
    before: Option<(i64, i64)>,
    limit: i64,
) -> Result<Vec<ResultRow>, StorageError> {
    let mut query = game_results::table.into_boxed();
    query = match filter.user_id {
        Some(user_id) => query.filter(game_results::user_id.eq(user_id)),
        None => query.filter(game_results::seat.eq(0)),
    };
    if let Some(variant) = filter.variant {
        query = query.filter(game_results::variant.eq(variant));
    }
    if let Some(players) = filter.players {
        query = query.filter(game_results::players.eq(players));
    }
    match filter.outcome {
        Some(OutcomeFilter::Is(outcome)) => query = query.filter(game_results::outcome.eq(outcome)),
        Some(OutcomeFilter::IsNot(outcome)) => {
            query = query.filter(game_results::outcome.ne(outcome))
        }
        None => {}
    }
    if let Some(rated) = filter.rated {
        query = query.filter(game_results::rated.eq(rated));
    }
    if let Some(since) = filter.since {
        query = query.filter(game_results::ended_at.ge(since));
    }
    if let Some(until) = filter.until {
        query = query.filter(game_results::ended_at.lt(until));
    }
    if let Some((ended_at, game_id)) = before {
        query = query.filter(
            game_results::ended_at
                .lt(ended_at)
                .or(game_results::ended_at
                    .eq(ended_at)
                    .and(game_results::game_id.lt(game_id))),
        );
    }
    Ok(query
        .order((game_results::ended_at.desc(), game_results::game_id.desc()))
        .limit(limit)
        .select(ResultRow::as_select())
        .load(conn)?)
}

/// Every seat's result of these games, with the seat's user name and whether it is a bot.
pub fn results_of_games(
    conn: &mut DbConnection,
    game_ids: &[i64],
) -> Result<Vec<(ResultRow, String, bool)>, StorageError> {
    Ok(game_results::table
        .inner_join(users::table)
        .filter(game_results::game_id.eq_any(game_ids))
        .order((game_results::game_id.asc(), game_results::seat.asc()))
        .select((ResultRow::as_select(), users::name, users::is_bot))
        .load(conn)?)
}

/// Every finished game, in the order its result was recorded (games without a recorded result
/// last, by end); for recomputing.
pub fn finished_games_in_order(conn: &mut DbConnection) -> Result<Vec<i64>, StorageError> {
    let recorded: Vec<(i64, i64)> = game_results::table
        .filter(game_results::seat.eq(0))
        .select((game_results::game_id, game_results::id))
        .load(conn)?;
    let order: std::collections::HashMap<i64, i64> = recorded.into_iter().collect();
    let mut finished: Vec<(i64, i64)> = games::table
        .filter(games::status.eq("over"))
        .select((games::id, games::updated_at))
        .load(conn)?;
    finished
        .sort_by_key(|&(id, ended_at)| (order.get(&id).copied().unwrap_or(i64::MAX), ended_at, id));
    Ok(finished.into_iter().map(|(id, _)| id).collect())
}

/// Forget every rating and result (recomputing writes them again).
pub fn delete_all(conn: &mut DbConnection) -> Result<(), StorageError> {
    diesel::delete(game_results::table).execute(conn)?;
    diesel::delete(ratings::table).execute(conn)?;
    Ok(())
}

/// Every stored rating, for comparing with a recomputation.
pub fn all_ratings(conn: &mut DbConnection) -> Result<Vec<RatingRow>, StorageError> {
    Ok(ratings::table
        .order((ratings::user_id.asc(), ratings::variant.asc()))
        .select(RatingRow::as_select())
        .load(conn)?)
}
