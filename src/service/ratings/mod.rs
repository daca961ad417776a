//! Results and ratings: when a game ends, each seat's result is recorded and, for a rated game,
//! every player's rating in the variant is updated, in the transaction of its last event. All of
//! it can be recomputed from the games' logs (`keltis ratings recompute`).

pub mod profiles;

use crate::engine::Game;
use crate::ratings::{rate_game, RatedSeat, Rating, RatingParameters, Standing};
use crate::service::play::games::{load_row, load_state, GameStatus};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::games::{self as store, GameRow, SeatRow};
use crate::storage::ratings::{self as ratings_store, RatingRow, ResultRow};
use crate::storage::{Database, DbConnection};

/// A seat's outcome as history and profiles count it.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum GameOutcome {
    /// Among the winners (equal totals share the win, K10).
    Won,
    /// Every player shares the highest total.
    Drawn,
    Lost,
}

impl GameOutcome {
    pub fn name(self) -> &'static str {
        match self {
            GameOutcome::Won => "won",
            GameOutcome::Drawn => "drawn",
            GameOutcome::Lost => "lost",
        }
    }

    /// A stored outcome (anything unknown reads as a loss).
    pub fn parse(name: &str) -> GameOutcome {
        match name {
            "won" => GameOutcome::Won,
            "drawn" => GameOutcome::Drawn,
            _ => GameOutcome::Lost,
        }
    }
}

/// Record the result of a game that has just ended, and update the ratings if it is rated.
pub(in crate::service) fn record_result(
    conn: &mut DbConnection,
    row: &GameRow,
    game: &Game,
    seats: &[SeatRow],
    params: &RatingParameters,
    ended_at: i64,
) -> ServiceResult<()> {
    let Some(result) = game.result() else {
        return Ok(());
    };
    let standings: Vec<Standing> = result
        .scores
        .iter()
        .map(|s| Standing {
            left_game: s.retired.is_some(),
            total: s.total,
        })
        .collect();
    let standing = |seat: i32| {
        standings
            .get(seat as usize)
            .copied()
            .ok_or_else(|| ServiceError::Internal(format!("game {} has no seat {seat}", row.id)))
    };
    let mut results = Vec::with_capacity(seats.len());
    for seat in seats {
        let mine = standing(seat.seat)?;
        let ahead = standings
            .iter()
            .filter(|&&other| mine.score_against(other) == 0.0)
            .count();
        let outcome = if result.draw {
            GameOutcome::Drawn
        } else if result.winners.contains(&(seat.seat as u8)) {
            GameOutcome::Won
        } else {
            GameOutcome::Lost
        };
        results.push(ResultRow {
            id: 0,
            game_id: row.id,
            seat: seat.seat,
            user_id: seat.user_id,
            variant: row.variant.clone(),
            players: row.players,
            rated: row.rated,
            ended_at,
            total: mine.total,
            place: ahead as i32 + 1,
            outcome: outcome.name().to_string(),
            rating_before: None,
            deviation_before: None,
            volatility_before: None,
            rating_after: None,
            deviation_after: None,
            volatility_after: None,
        });
    }
    if row.rated {
        rate(
            conn,
            &row.variant,
            &mut results,
            &standings,
            params,
            ended_at,
        )?;
    }
    ratings_store::insert_results(conn, &results)?;
    Ok(())
}

/// Update the ratings of a rated game's players (rows locked first) and note each change in
/// its seat's result.
fn rate(
    conn: &mut DbConnection,
    variant: &str,
    results: &mut [ResultRow],
    standings: &[Standing],
    params: &RatingParameters,
    ended_at: i64,
) -> ServiceResult<()> {
    let users: Vec<i64> = results.iter().map(|r| r.user_id).collect();
    let initial = params.initial;
    let current = ratings_store::lock_ratings(
        conn,
        variant,
        &users,
        (initial.rating, initial.deviation, initial.volatility),
    )?;
    let rows: Vec<&RatingRow> = results
        .iter()
        .map(|r| {
            current
                .iter()
                .find(|c| c.user_id == r.user_id)
                .ok_or_else(|| ServiceError::Internal("a locked rating is missing".into()))
        })
        .collect::<ServiceResult<_>>()?;
    let seats: Vec<RatedSeat> = rows
        .iter()
        .zip(results.iter())
        .map(|(c, r)| RatedSeat {
            before: Rating {
                rating: c.rating,
                deviation: c.deviation,
                volatility: c.volatility,
            },
            last_rated_at: c.last_rated_at,
            standing: standings[r.seat as usize],
        })
        .collect();
    let after = rate_game(&seats, ended_at, params);
    let updated: Vec<RatingRow> = rows
        .iter()
        .zip(&after)
        .map(|(c, new)| RatingRow {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            games: c.games + 1,
            last_rated_at: Some(ended_at),
            ..(*c).clone()
        })
        .collect();
    for ((result, before), row) in results.iter_mut().zip(&rows).zip(&updated) {
        result.rating_before = Some(before.rating);
        result.deviation_before = Some(before.deviation);
        result.volatility_before = Some(before.volatility);
        result.rating_after = Some(row.rating);
        result.deviation_after = Some(row.deviation);
        result.volatility_after = Some(row.volatility);
        ratings_store::save_rating(conn, row)?;
    }
    Ok(())
}

/// What a recomputation did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Recomputed {
    /// Finished games whose results were recorded again.
    pub games: usize,
    /// Ratings (player and variant) after the recomputation.
    pub ratings: usize,
    /// Ratings that differ from the ones stored before (0 when the parameters did not change).
    pub changed: usize,
}

/// Record every finished game's result again from its log, in the order they were first
/// recorded, and every rating with it, with `params`: in one transaction. Run it while no game
/// ends (a game that ends meanwhile waits for it on PostgreSQL).
pub fn recompute(db: &Database, params: &RatingParameters) -> ServiceResult<Recomputed> {
    db.write(|conn| {
        let before = ratings_store::all_ratings(conn)?;
        let order = ratings_store::finished_games_in_order(conn)?;
        ratings_store::delete_all(conn)?;
        for &game_id in &order {
            let row = load_row(conn, game_id)?;
            if GameStatus::parse(&row.status) != GameStatus::Over {
                continue;
            }
            let game = load_state(conn, &row)?;
            let seats = store::seats(conn, game_id)?;
            record_result(conn, &row, &game, &seats, params, row.updated_at)?;
        }
        let after = ratings_store::all_ratings(conn)?;
        let changed = after.iter().filter(|r| !before.contains(r)).count()
            + before
                .iter()
                .filter(|b| {
                    !after
                        .iter()
                        .any(|a| a.user_id == b.user_id && a.variant == b.variant)
                })
                .count();
        Ok(Recomputed {
            games: order.len(),
            ratings: after.len(),
            changed,
        })
    })
}
