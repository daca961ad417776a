//! What expires, and when: the retention rules the maintenance worker applies.

use super::accounts::sessions::REFRESH_TOKEN_SECONDS;
use super::play::decisions::IDEMPOTENCY_KEY_MILLIS;
use super::ServiceResult;
use crate::storage::accounts::{self as store, Swept};
use crate::storage::Database;

/// How long a notification is listed once its delivery has ended.
pub const NOTIFICATION_DAYS: i64 = 30;

/// Delete idempotency answers older than their 24 hours, refresh tokens past their expiry,
/// sessions revoked, or unused, for longer than a refresh token lives (with their tokens),
/// notifications, pushes and webhook calls delivered (or skipped, or given up on) more than 30
/// days ago with their attempts, password resets and OAuth codes a day after they expired,
/// pairing requests a day after they closed, and the record of replies by email after 30 days.
pub fn sweep(db: &Database, now: i64) -> ServiceResult<Swept> {
    let sessions_before = now - REFRESH_TOKEN_SECONDS * 1000;
    let notifications_before = now - NOTIFICATION_DAYS * 24 * 3600 * 1000;
    Ok(db.write(|c| {
        let mut swept =
            store::sweep_expired(c, now, now - IDEMPOTENCY_KEY_MILLIS, sessions_before)?;
        swept.notifications =
            crate::storage::notifications::delete_finished(c, notifications_before)?
                + crate::storage::push::delete_finished(c, notifications_before)?
                + crate::storage::webhooks::delete_finished(c, notifications_before)?;
        crate::storage::passwords::delete_expired_resets(c, now - 24 * 3600 * 1000)?;
        crate::storage::oauth::delete_expired_codes(c, now - 24 * 3600 * 1000)?;
        crate::storage::pairing::delete_closed(c, now - crate::service::pairing::CLOSED_KEPT_MS)?;
        crate::storage::inbound_mail::forget_before(
            c,
            now - crate::service::correspondence::by_mail::REMEMBERED_MS,
        )?;
        Ok::<_, crate::storage::StorageError>(swept)
    })?)
}
