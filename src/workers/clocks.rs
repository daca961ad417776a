//! The clock worker: applies time-outs whose deadline has passed, through the same versioned
//! append as moves (so a last-second move and a time-out resolve to exactly one of them, and two
//! server instances apply each time-out once). Its first pass at start catches up with every
//! deadline that passed while the server was down, earliest first.

use std::time::Duration;

use crate::service::play::apply_due_timeouts;
use crate::storage::Database;

/// Games timed out per pass; more wait for the next pass, which comes at once.
const BATCH: i64 = 200;

/// Start the worker; it looks for due deadlines every `every`.
pub fn spawn(db: Database, every: Duration) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("clock-worker".into())
        .spawn(move || loop {
            match apply_due_timeouts(&db, BATCH) {
                Ok(n) if n as i64 >= BATCH => continue,
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "clock pass failed"),
            }
            std::thread::sleep(every);
        })
        .map(|_| ())
}
