//! Finished games made small: a game's log packed into one row and its turn notices (your turn,
//! deadline reminders), which mean nothing once it is over, deleted (a mail still pending for one
//! would have been skipped).
//!
//! A game that ends on a move is packed soon after by the packing worker, not in the move's write:
//! the move's answer does not wait for it, and the log is read and compressed before the short
//! write that stores it, outside that write's turn (on SQLite, every other writer waits for the
//! turn). What is left unpacked (a game aborted or cancelled, an instance stopped in between) the
//! maintenance worker packs.

use crate::service::{ServiceError, ServiceResult};
use crate::storage::logs::{pack_log, store_packed, unpacked_finished_games};
use crate::storage::{Database, DbConnection, StorageError};

const TURN_NOTICES: [&str; 2] = ["your_turn", "deadline_reminder"];

/// Pack a finished game: its log read and compressed, then stored with its turn notices deleted
/// in one short write. Returns whether there was a log to pack; a conflict (another instance
/// packed it first) is a [`StorageError::Conflict`].
pub fn pack_game(db: &Database, game_id: i64, now: i64) -> ServiceResult<bool> {
    let Some(log) = db.read(|c| pack_log(c, game_id))? else {
        return Ok(false);
    };
    db.write(|c| {
        crate::storage::notifications::delete_of_game(c, game_id, &TURN_NOTICES)?;
        store_packed(c, &log, now)
    })?;
    Ok(true)
}

/// A game has just ended (its end is committed): the packing worker packs it soon, off the path
/// of the move's answer.
pub(in crate::service) fn game_ended(db: &Database, game_id: i64) {
    db.ended_games().push(game_id);
}

/// Pack the games that ended on this instance since the last call (the packing worker's pass).
/// The moves stand whatever happens here: a game whose packing fails is logged and left to the
/// maintenance worker. Returns how many were packed.
pub fn pack_ended_games(db: &Database) -> usize {
    let mut packed = 0;
    for game_id in db.ended_games().take() {
        match pack_game(db, game_id, db.now()) {
            Ok(true) => packed += 1,
            // Packed already, or by another instance first.
            Ok(false) | Err(ServiceError::Storage(StorageError::Conflict)) => {}
            Err(e) => {
                tracing::warn!(game_id, error = %e.for_log(), "packing a finished game failed");
            }
        }
    }
    packed
}

/// Pack a finished game in the caller's transaction (games seeded already over).
pub(in crate::service) fn pack_in(
    conn: &mut DbConnection,
    game_id: i64,
    now: i64,
) -> ServiceResult<bool> {
    crate::storage::notifications::delete_of_game(conn, game_id, &TURN_NOTICES)?;
    Ok(crate::storage::logs::archive_log(conn, game_id, now)?)
}

/// Pack the finished games not packed yet (games aborted or cancelled, games whose packing after
/// their end failed or was cut off), `batch` per read, each in its own write. Returns how many
/// were packed; a game another instance packs first is skipped.
pub fn pack_finished_logs(db: &Database, batch: i64, now: i64) -> ServiceResult<usize> {
    let mut packed = 0;
    loop {
        let games = db.read(|c| unpacked_finished_games(c, batch))?;
        if games.is_empty() {
            return Ok(packed);
        }
        let mut progressed = false;
        for game_id in games {
            match pack_game(db, game_id, now) {
                Ok(true) => {
                    packed += 1;
                    progressed = true;
                }
                Ok(false) => {}
                // Another instance packed it first.
                Err(ServiceError::Storage(StorageError::Conflict)) => {}
                Err(e) => return Err(e),
            }
        }
        if !progressed {
            return Ok(packed);
        }
    }
}
