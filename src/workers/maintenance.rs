//! The maintenance worker: every interval, deletes what has expired, so that no table only
//! grows, finishes account deletions a stopped instance left half done, frees the names of
//! accounts deleted long enough ago, and packs the logs of finished games not packed yet. All are
//! idempotent, so two instances doing them at once is harmless.

use std::time::Duration;

use super::Workers;
use crate::service::accounts::deletion::finish_interrupted;
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
        match finish_interrupted(&db, now_millis()) {
            Ok(0) => {}
            Ok(finished) => tracing::info!(finished, "interrupted account deletions finished"),
            Err(e) => crate::warn_throttled!(error = %e, "finishing account deletions failed"),
        }
        match pack_finished_logs(&db, 200, now_millis()) {
            Ok(0) => {}
            Ok(packed) => tracing::info!(packed, "finished games' logs packed"),
            Err(e) => crate::warn_throttled!(error = %e, "packing finished games' logs failed"),
        }
        every
    })
}
