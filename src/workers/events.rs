//! The events worker: runs the events pass (`service::events::rounds`) every few seconds:
//! events due to start, rounds to deal once the last game of a round is decided, rounds past
//! their time, events to finish. Safe on several instances: passes take turns on a lock, and a
//! round is dealt under a compare-and-set of the event's round.

use std::time::Duration;

use super::Workers;
use crate::service::events::run_events;
use crate::storage::Database;

/// Start the worker; it runs a pass every `every`.
pub fn spawn(workers: &Workers, db: Database, every: Duration) -> std::io::Result<()> {
    workers.spawn("events-worker", move || {
        if let Err(e) = run_events(&db) {
            crate::warn_throttled!(error = %e.for_log(), "events pass failed");
            return every * 10;
        }
        every
    })
}
