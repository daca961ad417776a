//! What expires, and when: the retention rules the maintenance worker applies.

use super::play::IDEMPOTENCY_KEY_MILLIS;
use super::sessions::REFRESH_TOKEN_SECONDS;
use super::ServiceResult;
use crate::storage::accounts::{self as store, Swept};
use crate::storage::Database;

/// Delete idempotency answers older than their 24 hours, refresh tokens past their expiry, and
/// sessions revoked, or unused, for longer than a refresh token lives (with their tokens).
pub fn sweep(db: &Database, now: i64) -> ServiceResult<Swept> {
    let sessions_before = now - REFRESH_TOKEN_SECONDS * 1000;
    Ok(db.write(|c| store::sweep_expired(c, now, now - IDEMPOTENCY_KEY_MILLIS, sessions_before))?)
}
