//! The scheduler's work on games: when a deadline passes, the seat to act times out (or the game
//! is aborted, if its first turn was never played); before it passes, its player is reminded.
//! Both go through the game's version, like moves: a move that lands first makes them stale, and
//! of two server instances only one applies each.

use crate::engine::{DecisionOf, Game, ENGINE_VERSION};
use crate::ratings::RatingParameters;
use crate::service::correspondence::clocks::ClockState;
use crate::service::notify::notifications::{queue, queue_game_over, Notice};
use crate::service::play::decisions::{apply_decision, Actor, Applied, DecisionRequest};
use crate::service::play::games::{
    append, load_row, load_state, record_from_log, GameEvent, GameStatus,
};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::appends::GameUpdate;
use crate::storage::games::{self as store, GameRow};
use crate::storage::memo::Memo;
use crate::storage::{Database, DbConnection};

/// What a passed deadline did to a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expiry {
    TimedOut { seat: u8, over: bool },
    Aborted { seat: u8 },
}

/// Apply every deadline that has passed by now, earliest first. Returns how many were applied.
pub fn apply_due_timeouts(
    db: &Database,
    batch: i64,
    ratings: &RatingParameters,
) -> ServiceResult<usize> {
    let now = db.now();
    let due = db.read(|c| store::games_due(c, now, batch))?;
    let mut applied = 0;
    for (game_id, version) in due {
        match db.write(|conn| expire(conn, db.memo(), game_id, version, now, ratings)) {
            Ok(Expiry::TimedOut { seat, over }) => {
                applied += 1;
                tracing::info!(game_id, seat, over, "seat timed out");
                if over {
                    crate::service::play::packing::game_ended(db, game_id);
                }
            }
            Ok(Expiry::Aborted { seat }) => {
                applied += 1;
                tracing::info!(
                    game_id,
                    seat,
                    "game aborted: its first turn was never played"
                );
            }
            Err(ServiceError::StaleVersion { .. }) => {}
            Err(e) => tracing::warn!(game_id, error = %e.for_log(), "time-out failed"),
        }
    }
    Ok(applied)
}

fn expire(
    conn: &mut DbConnection,
    memo: &Memo,
    game_id: i64,
    version: i64,
    now: i64,
    ratings: &RatingParameters,
) -> ServiceResult<Expiry> {
    let row = load_row(conn, game_id)?;
    let stale = || ServiceError::StaleVersion {
        current: row.version,
    };
    if row.version != version || GameStatus::parse(&row.status) != GameStatus::Active {
        return Err(stale());
    }
    let game = load_state(conn, &row)?;
    let seat = game.to_act().ok_or_else(stale)?;
    if first_turn_never_played(conn, &row, &game, seat)? {
        abort(conn, &row, &game, seat, now)?;
        return Ok(Expiry::Aborted { seat });
    }
    let Applied { seat, game, .. } = apply_decision(
        conn,
        memo,
        game_id,
        Actor::Clock,
        &DecisionRequest {
            expected_version: version,
            decision: DecisionOf::TimeOut,
        },
        now,
        ratings,
    )?;
    // Fair use: the profile counts the games a player abandoned on time.
    if let Some(player) = store::seats(conn, game_id)?
        .into_iter()
        .find(|s| s.seat == seat as i32)
    {
        crate::storage::moderation::count_timeout(conn, player.user_id, now)?;
    }
    Ok(Expiry::TimedOut {
        seat,
        over: game.is_over(),
    })
}

/// A game is aborted, not lost on time, when nobody has played yet; with two players, also when
/// the seat that timed out never played (the other seat's first turn wins nothing). With three or
/// four, a seat that never came is taken over like any other once someone has played.
fn first_turn_never_played(
    conn: &mut DbConnection,
    row: &GameRow,
    game: &Game,
    seat: u8,
) -> ServiceResult<bool> {
    let decisions = record_from_log(conn, row.id)?
        .map(|r| r.decisions)
        .unwrap_or_default();
    Ok(decisions.is_empty() || (game.players() == 2 && !decisions.iter().any(|d| d.seat == seat)))
}

fn abort(
    conn: &mut DbConnection,
    row: &GameRow,
    game: &Game,
    seat: u8,
    now: i64,
) -> ServiceResult<()> {
    let snapshot = game.to_snapshot();
    let mut clock = ClockState::from_json(row.clock.as_deref());
    clock.after(None, now);
    let json = clock.to_json()?;
    append(
        conn,
        row,
        row.version,
        &GameEvent::Aborted { seat },
        GameUpdate {
            status: Some(GameStatus::Aborted.name()),
            to_act: Some(None),
            snapshot: Some((&snapshot, ENGINE_VERSION)),
            clock: Some(clock.columns(&json, now)),
        },
        now,
    )?;
    let seats = store::seats(conn, row.id)?;
    queue_game_over(conn, row.id, &seats, now)?;
    Ok(())
}

/// Queue the deadline reminders due by now. Returns how many were queued.
pub fn send_due_reminders(db: &Database, batch: i64) -> ServiceResult<usize> {
    let now = db.now();
    let due = db.read(|c| store::games_reminder_due(c, now, batch))?;
    let mut queued = 0;
    for (game_id, version) in due {
        match db.write(|conn| remind(conn, game_id, version, now)) {
            Ok(true) => queued += 1,
            Ok(false) | Err(ServiceError::StaleVersion { .. }) => {}
            Err(e) => tracing::warn!(game_id, error = %e.for_log(), "reminder failed"),
        }
    }
    Ok(queued)
}

/// Remind the seat to act of its deadline, and move the game's next reminder on; all on the
/// version the scheduler saw (a move in between makes it stale, and the move has set the next
/// reminder already).
fn remind(conn: &mut DbConnection, game_id: i64, version: i64, now: i64) -> ServiceResult<bool> {
    let row = load_row(conn, game_id)?;
    if row.version != version {
        return Err(ServiceError::StaleVersion {
            current: row.version,
        });
    }
    let clock = ClockState::from_json(row.clock.as_deref());
    let mut queued = false;
    if let (Some(lead_ms), Some(seat), Some(deadline)) =
        (clock.reminder_due(now), clock.to_act(), clock.deadline())
    {
        let player = store::seats(conn, game_id)?
            .into_iter()
            .find(|s| s.seat == seat as i32 && !s.played_by_server());
        if let Some(player) = player {
            let notice = Notice::DeadlineReminder {
                game_id,
                seat,
                deadline,
                lead_ms,
            };
            queued = queue(conn, player.user_id, &notice, now)?;
        }
    }
    if !store::set_reminder(conn, game_id, version, clock.next_reminder(now))? {
        return Err(ServiceError::StaleVersion {
            current: version + 1,
        });
    }
    Ok(queued)
}
