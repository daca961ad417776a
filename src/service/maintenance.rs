//! What expires, and when: the retention rules the maintenance worker applies.

use super::play::IDEMPOTENCY_KEY_MILLIS;
use super::sessions::REFRESH_TOKEN_SECONDS;
use super::ServiceResult;
use crate::storage::accounts::{self as store, Swept};
use crate::storage::Database;

/// How long a notification is listed once its delivery has ended.
pub const NOTIFICATION_DAYS: i64 = 30;

/// Delete idempotency answers older than their 24 hours, refresh tokens past their expiry,
/// sessions revoked, or unused, for longer than a refresh token lives (with their tokens), and
/// notifications delivered (or skipped, or given up on) more than 30 days ago.
pub fn sweep(db: &Database, now: i64) -> ServiceResult<Swept> {
    let sessions_before = now - REFRESH_TOKEN_SECONDS * 1000;
    let notifications_before = now - NOTIFICATION_DAYS * 24 * 3600 * 1000;
    Ok(db.write(|c| {
        let mut swept =
            store::sweep_expired(c, now, now - IDEMPOTENCY_KEY_MILLIS, sessions_before)?;
        swept.notifications =
            crate::storage::notifications::delete_finished(c, notifications_before)?;
        Ok::<_, crate::storage::StorageError>(swept)
    })?)
}

/// Pack the logs of finished games not packed yet (games that ended before logs were packed at
/// the end, and games aborted or cancelled) and delete their turn notices, `batch` games per read, each in its own
/// transaction. Returns how many were packed; another instance packing the same game is skipped.
pub fn pack_finished_logs(db: &Database, batch: i64, now: i64) -> ServiceResult<usize> {
    let mut packed = 0;
    loop {
        let games = db.read(|c| crate::storage::logs::unpacked_finished_games(c, batch))?;
        if games.is_empty() {
            return Ok(packed);
        }
        let mut progressed = false;
        for game_id in games {
            match db.write(|c| super::games::pack_finished(c, game_id, now)) {
                Ok(true) => {
                    packed += 1;
                    progressed = true;
                }
                Ok(false) => {}
                // Another instance packed it first.
                Err(super::ServiceError::Storage(crate::storage::StorageError::Conflict)) => {}
                Err(e) => return Err(e),
            }
        }
        if !progressed {
            return Ok(packed);
        }
    }
}
