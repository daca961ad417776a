//! The clock worker: applies time-outs whose deadline has passed, through the same versioned
//! append as moves (so a last-second move and a time-out resolve to exactly one of them, and two
//! server instances apply each time-out once). Its first pass at start catches up with every
//! deadline that passed while the server was down, earliest first.

use std::time::Duration;

use super::Workers;
use crate::service::play::apply_due_timeouts;
use crate::storage::Database;

/// Games timed out per pass; more wait for the next pass, which comes at once.
const BATCH: i64 = 200;

/// Start the worker; it looks for due deadlines every `every`.
pub fn spawn(workers: &Workers, db: Database, every: Duration) -> std::io::Result<()> {
    workers.spawn("clock-worker", move || {
        match apply_due_timeouts(&db, BATCH) {
            Ok(n) if n as i64 >= BATCH => Duration::ZERO,
            Ok(_) => every,
            Err(e) => {
                tracing::warn!(error = %e, "clock pass failed");
                every
            }
        }
    })
}
