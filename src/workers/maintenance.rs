//! The maintenance worker: every interval, deletes what has expired, so that no table only
//! grows. Deleting is idempotent, so two instances doing it at once is harmless.

use std::time::Duration;

use super::Workers;
use crate::service::maintenance::sweep;
use crate::storage::{now_millis, Database};

/// Start the worker: a sweep at start, then one every `every`.
pub fn spawn(workers: &Workers, db: Database, every: Duration) -> std::io::Result<()> {
    workers.spawn("maintenance", move || {
        match sweep(&db, now_millis()) {
            Ok(swept) if swept != Default::default() => {
                tracing::info!(?swept, "expired rows deleted");
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "maintenance sweep failed"),
        }
        every
    })
}
