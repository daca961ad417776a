//! The mail worker: queues the digests that are due, then sends what the outbox holds through
//! the SMTP relay. Runs on every instance; the outbox's leases keep them from sending the same
//! message twice.

use std::time::Duration;

use super::Workers;
use crate::service::notify::mail::delivery::{deliver_due, queue_due_digests, Mailer};
use crate::storage::Database;

/// Notifications per pass; a full pass is followed by another at once.
const BATCH: i64 = 50;

pub fn spawn(
    workers: &Workers,
    db: Database,
    mailer: Mailer,
    every: Duration,
) -> std::io::Result<()> {
    workers.spawn("mail-worker", move || {
        if let Err(e) = queue_due_digests(&db, BATCH) {
            crate::warn_throttled!(error = %e, "queueing digests failed");
        }
        match deliver_due(&db, &mailer, BATCH) {
            Ok(n) if n as i64 >= BATCH => Duration::ZERO,
            Ok(_) => every,
            Err(e) => {
                crate::warn_throttled!(error = %e, "mail pass failed");
                every
            }
        }
    })
}
