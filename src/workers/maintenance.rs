//! The maintenance worker: every interval, deletes what has expired, so that no table only
//! grows, and packs the logs of finished games not packed yet. Both are idempotent, so two
//! instances doing them at once is harmless.

use std::time::Duration;

use super::Workers;
use crate::service::maintenance::sweep;
use crate::service::play::packing::pack_finished_logs;
use crate::storage::{now_millis, Database};

/// Start the worker: a sweep at start, then one every `every`.
pub fn spawn(workers: &Workers, db: Database, every: Duration) -> std::io::Result<()> {
    workers.spawn("maintenance", move || {
        match sweep(&db, now_millis()) {
            Ok(swept) if swept != Default::default() => {
                tracing::info!(?swept, "expired rows deleted");
            }
            Ok(_) => {}
            Err(e) => crate::warn_throttled!(error = %e, "maintenance sweep failed"),
        }
        match pack_finished_logs(&db, 200, now_millis()) {
            Ok(0) => {}
            Ok(packed) => tracing::info!(packed, "finished games' logs packed"),
            Err(e) => crate::warn_throttled!(error = %e, "packing finished games' logs failed"),
        }
        every
    })
}
