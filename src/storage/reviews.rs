//! Reviews of finished games: the queue the review worker of any instance takes from (a claim
//! with a lease, taken by one instance only), the reviews done, and each player's accuracy for
//! the profiles.

use diesel::prelude::*;

use super::schema::{game_reviews, review_accuracies};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_reviews)]
pub struct ReviewRow {
    pub game_id: i64,
    pub requested_at: i64,
    /// 0 while it waits; else the time until which an instance holds it.
    pub claimed_until: i64,
    pub attempts: i32,
    pub done_at: Option<i64>,
    pub review: Option<String>,
    pub failure: Option<String>,
}

/// The game's review, done or not, if one was asked for.
pub fn find(conn: &mut DbConnection, game_id: i64) -> Result<Option<ReviewRow>, StorageError> {
    Ok(game_reviews::table
        .find(game_id)
        .select(ReviewRow::as_select())
        .first(conn)
        .optional()?)
}

/// Queue the game's review unless it was asked for already; whether this queued it.
pub fn request(conn: &mut DbConnection, game_id: i64, now: i64) -> Result<bool, StorageError> {
    let insert = diesel::insert_into(game_reviews::table)
        .values((
            game_reviews::game_id.eq(game_id),
            game_reviews::requested_at.eq(now),
        ))
        .on_conflict(game_reviews::game_id)
        .do_nothing();
    // ON CONFLICT is backend-specific in diesel: run it on the connection underneath.
    let inserted = on_backend!(conn, |c| insert.execute(c)).map_err(StorageError::from_write)?;
    Ok(inserted == 1)
}

/// The oldest waiting review (or one whose holder's lease ran out), claimed until `until`; `None`
/// when there is none, or another instance took it first.
pub fn claim(
    conn: &mut DbConnection,
    now: i64,
    until: i64,
) -> Result<Option<ReviewRow>, StorageError> {
    let Some(row) = game_reviews::table
        .filter(game_reviews::done_at.is_null())
        .filter(game_reviews::claimed_until.lt(now))
        .order((game_reviews::requested_at, game_reviews::game_id))
        .select(ReviewRow::as_select())
        .first(conn)
        .optional()?
    else {
        return Ok(None);
    };
    // Taken only if nobody took it meanwhile.
    let taken = diesel::update(
        game_reviews::table
            .filter(game_reviews::game_id.eq(row.game_id))
            .filter(game_reviews::claimed_until.eq(row.claimed_until))
            .filter(game_reviews::done_at.is_null()),
    )
    .set((
        game_reviews::claimed_until.eq(until),
        game_reviews::attempts.eq(row.attempts + 1),
    ))
    .execute(conn)?;
    Ok((taken == 1).then_some(ReviewRow {
        claimed_until: until,
        attempts: row.attempts + 1,
        ..row
    }))
}

/// One player's accuracy in a review.
pub struct Accuracy<'a> {
    pub user_id: i64,
    pub variant: &'a str,
    pub accuracy: f64,
}

/// Keep the review done (its JSON) and its players' accuracies; false if it was done already
/// (another instance whose lease ran out finished it too).
pub fn finish(
    conn: &mut DbConnection,
    game_id: i64,
    review: &str,
    accuracies: &[Accuracy],
    now: i64,
) -> Result<bool, StorageError> {
    let done = diesel::update(
        game_reviews::table
            .filter(game_reviews::game_id.eq(game_id))
            .filter(game_reviews::done_at.is_null()),
    )
    .set((
        game_reviews::done_at.eq(now),
        game_reviews::review.eq(review),
    ))
    .execute(conn)?;
    if done == 0 {
        return Ok(false);
    }
    for a in accuracies {
        let insert = diesel::insert_into(review_accuracies::table)
            .values((
                review_accuracies::game_id.eq(game_id),
                review_accuracies::user_id.eq(a.user_id),
                review_accuracies::variant.eq(a.variant),
                review_accuracies::accuracy.eq(a.accuracy),
            ))
            .on_conflict((review_accuracies::game_id, review_accuracies::user_id))
            .do_nothing();
        on_backend!(conn, |c| insert.execute(c))?;
    }
    Ok(true)
}

/// The review cannot be done: kept as done, with why.
pub fn give_up(
    conn: &mut DbConnection,
    game_id: i64,
    failure: &str,
    now: i64,
) -> Result<(), StorageError> {
    diesel::update(game_reviews::table.find(game_id))
        .set((
            game_reviews::done_at.eq(now),
            game_reviews::failure.eq(failure),
        ))
        .execute(conn)?;
    Ok(())
}

/// A player's mean accuracy per variant and how many reviewed games it is over, by variant name.
pub fn accuracy_by_variant(
    conn: &mut DbConnection,
    user_id: i64,
) -> Result<Vec<(String, Option<f64>, i64)>, StorageError> {
    Ok(review_accuracies::table
        .filter(review_accuracies::user_id.eq(user_id))
        .group_by(review_accuracies::variant)
        .select((
            review_accuracies::variant,
            diesel::dsl::avg(review_accuracies::accuracy),
            diesel::dsl::count_star(),
        ))
        .order(review_accuracies::variant)
        .load(conn)?)
}

/// The rated game that ended last, at or after `since`, that has no review yet.
pub fn rated_unreviewed(conn: &mut DbConnection, since: i64) -> Result<Option<i64>, StorageError> {
    use super::schema::games;
    Ok(games::table
        .filter(games::rated.eq(true))
        .filter(games::status.eq("over"))
        .filter(games::updated_at.ge(since))
        .filter(diesel::dsl::not(diesel::dsl::exists(
            game_reviews::table.filter(game_reviews::game_id.eq(games::id)),
        )))
        .order(games::updated_at.desc())
        .select(games::id)
        .first(conn)
        .optional()?)
}

/// A deleted account's accuracies (they were its profile's alone); the reviews themselves name
/// seats, not players, and stay with the games.
pub fn erase_user(conn: &mut DbConnection, user_id: i64) -> Result<(), StorageError> {
    diesel::delete(review_accuracies::table.filter(review_accuracies::user_id.eq(user_id)))
        .execute(conn)?;
    Ok(())
}
