//! Reviews of finished games (issue 48): asked for by a player who sat at the game, or queued
//! by the review worker for rated games that ended lately; done in the background (one at a
//! time per instance, resting as long as each took: at most half of one core), kept, told on
//! the players' streams, and their accuracies gathered on the profiles. The judging itself is
//! [`crate::review`], pure.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::review::{review, server_effort, Review};
use crate::service::accounts::{Caller, Scope};
use crate::service::notify::notifications::{queue_for_people, Notice};
use crate::service::play::events::finished_record;
use crate::service::play::games::{load_row, not_seated, seat_of, GameStatus};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::games as game_store;
use crate::storage::reviews::{self as store, Accuracy, ReviewRow};
use crate::storage::{Database, DbConnection};

/// How long an instance holds a review it took; another takes it after that (the first stopped).
const LEASE_MS: i64 = 10 * 60 * 1000;
/// Tries before a review is given up (each one ran past its lease, or failed).
const MAX_ATTEMPTS: i32 = 3;
/// Rated games that ended at most this long ago are reviewed without being asked.
const RATED_WITHIN_MS: i64 = 7 * 24 * 3600 * 1000;

/// Where a review stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewState {
    /// Waiting for a review worker.
    Queued,
    /// A review worker is on it.
    Running,
    Done,
    /// It could not be done; `failure` says why.
    Failed,
}

/// A game's review: done (with the review) or on its way (answered `202`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameReview {
    pub game_id: i64,
    pub state: ReviewState,
    /// When it was asked for (milliseconds since the Unix epoch).
    pub requested_at: i64,
    /// When it was done.
    #[schema(required = true)]
    pub done_at: Option<i64>,
    #[schema(required = true)]
    pub review: Option<Review>,
    #[schema(required = true)]
    pub failure: Option<String>,
}

fn answer(row: ReviewRow, now: i64) -> ServiceResult<GameReview> {
    let state = match (&row.done_at, &row.failure) {
        (Some(_), Some(_)) => ReviewState::Failed,
        (Some(_), None) => ReviewState::Done,
        (None, _) if row.claimed_until >= now => ReviewState::Running,
        (None, _) => ReviewState::Queued,
    };
    let review = match (&row.review, state) {
        (Some(json), ReviewState::Done) => Some(
            serde_json::from_str(json)
                .map_err(|e| ServiceError::Internal(format!("a stored review: {e}")))?,
        ),
        _ => None,
    };
    Ok(GameReview {
        game_id: row.game_id,
        state,
        requested_at: row.requested_at,
        done_at: row.done_at,
        review,
        failure: row.failure,
    })
}

/// A review is of a game that is over (not aborted): before, it would judge moves by cards that
/// are still hidden.
fn require_over(conn: &mut DbConnection, game_id: i64) -> ServiceResult<()> {
    let row = load_row(conn, game_id)?;
    if GameStatus::parse(&row.status) != GameStatus::Over {
        return Err(ServiceError::conflict(
            "game_not_over",
            "a game is reviewed once it is over (an aborted game never is)",
        ));
    }
    Ok(())
}

/// Ask for the review of a finished game the caller sat at: queued (or where it stands, if it
/// was asked for already).
pub fn request(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<GameReview> {
    caller.require(Scope::Play)?;
    let now = db.now();
    db.write(|conn| {
        let seats = game_store::seats(conn, game_id)?;
        require_over(conn, game_id)?;
        seat_of(&seats, caller.user_id).ok_or_else(not_seated)?;
        store::request(conn, game_id, now)?;
        let row = store::find(conn, game_id)?
            .ok_or_else(|| ServiceError::Internal("a review asked for is gone".into()))?;
        answer(row, now)
    })
}

/// The review of a finished game, done or on its way; 404 when nobody asked for it. Anyone who
/// may read the game's record may read its review.
pub fn get(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<Option<GameReview>> {
    caller.require(Scope::Read)?;
    let now = db.now();
    db.read(|conn| {
        require_over(conn, game_id)?;
        store::find(conn, game_id)?
            .map(|row| answer(row, now))
            .transpose()
    })
}

/// The game's review if one was asked for, as it stands (for the account export).
pub fn of_game(db: &Database, game_id: i64) -> ServiceResult<Option<GameReview>> {
    let now = db.now();
    db.read(|conn| {
        store::find(conn, game_id)?
            .map(|row| answer(row, now))
            .transpose()
    })
}

/// The seed of a game's review: its id, so that the same game reviewed again gives the same
/// figures.
pub fn seed_of(game_id: i64) -> u64 {
    (game_id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// What one pass of the review worker did.
#[derive(Debug, PartialEq)]
pub enum Pass {
    /// Nothing to review.
    Idle,
    /// A review done (or given up), and how long it took.
    Reviewed(std::time::Duration),
}

/// One pass of the review worker: the oldest review waiting (or, when `rated` and none waits, the
/// latest rated game without one) judged and kept, its players told.
pub fn review_next(db: &Database, rated: bool) -> ServiceResult<Pass> {
    let now = db.now();
    let claimed = db.write(|conn| -> ServiceResult<Option<ReviewRow>> {
        if let Some(row) = store::claim(conn, now, now + LEASE_MS)? {
            return Ok(Some(row));
        }
        if !rated {
            return Ok(None);
        }
        let Some(game_id) = store::rated_unreviewed(conn, now - RATED_WITHIN_MS)? else {
            return Ok(None);
        };
        store::request(conn, game_id, now)?;
        Ok(store::claim(conn, now, now + LEASE_MS)?)
    })?;
    let Some(row) = claimed else {
        return Ok(Pass::Idle);
    };
    let started = std::time::Instant::now();
    if row.attempts > MAX_ATTEMPTS {
        let why = format!("given up after {MAX_ATTEMPTS} attempts");
        db.write(|conn| store::give_up(conn, row.game_id, &why, now))?;
        return Ok(Pass::Reviewed(started.elapsed()));
    }
    let game_id = row.game_id;
    let record = db.read(|conn| finished_record(conn, game_id))?;
    let effort = server_effort(record.setup.variant, record.setup.players);
    let judged = review(&record, effort, seed_of(game_id));
    let done = db.now();
    db.write(|conn| -> ServiceResult<()> {
        let reviewed = match &judged {
            Ok(r) => r,
            Err(e) => return Ok(store::give_up(conn, game_id, &e.to_string(), done)?),
        };
        let seats = game_store::seats(conn, game_id)?;
        let variant = reviewed.variant.name();
        let accuracies: Vec<Accuracy> = reviewed
            .summary
            .iter()
            .filter_map(|p| {
                let seat = seats.iter().find(|s| s.seat == i32::from(p.seat))?;
                (!seat.played_by_server()).then_some(Accuracy {
                    user_id: seat.user_id,
                    variant,
                    accuracy: p.accuracy,
                })
            })
            .collect();
        let json =
            serde_json::to_string(&reviewed).map_err(|e| ServiceError::Internal(e.to_string()))?;
        if store::finish(conn, game_id, &json, &accuracies, done)? {
            queue_for_people(
                conn,
                &seats,
                |_| true,
                |_| Notice::ReviewReady { game_id },
                done,
            )?;
        }
        Ok(())
    })?;
    Ok(Pass::Reviewed(started.elapsed()))
}

/// A player's mean accuracy in reviewed games, per variant.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct VariantAccuracy {
    pub variant: crate::engine::Variant,
    /// Mean accuracy, 0..100.
    pub accuracy: f64,
    /// Reviewed games it is over.
    pub games: i64,
}

/// `user_id`'s accuracy per variant, over their reviewed games.
pub(in crate::service) fn accuracy_of(
    conn: &mut DbConnection,
    user_id: i64,
) -> ServiceResult<Vec<VariantAccuracy>> {
    Ok(store::accuracy_by_variant(conn, user_id)?
        .into_iter()
        .filter_map(|(variant, mean, games)| {
            Some(VariantAccuracy {
                variant: crate::engine::Variant::parse(&variant)?,
                // To the hundredth, as each review's own figures: rounded to the tenth here, a
                // mean of 79.05 read 79.1 on the profile and 79.0 on the review's page.
                accuracy: (mean? * 100.0).round() / 100.0,
                games,
            })
        })
        .collect())
}
