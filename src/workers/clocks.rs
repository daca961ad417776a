//! The clock worker (the scheduler): ends vacations whose allowance ran out, applies deadlines
//! that passed (time-outs, or aborts of games never begun), and queues reminders before them.
//! Each change goes through the game's version like a move (so a last-second move and a time-out
//! resolve to exactly one of them, and two server instances apply each once). Its first pass at
//! start catches up with everything that fell due while the server was down, earliest first.

use std::time::Duration;

use super::Workers;
use crate::ratings::RatingParameters;
use crate::service::correspondence::deadlines::{apply_due_timeouts, send_due_reminders};
use crate::service::correspondence::vacations::end_due;
use crate::storage::Database;

/// Changes per kind and pass; more wait for the next pass, which comes at once.
const BATCH: i64 = 200;

/// Start the worker; it looks for due work every `every`.
pub fn spawn(
    workers: &Workers,
    db: Database,
    ratings: RatingParameters,
    every: Duration,
) -> std::io::Result<()> {
    workers.spawn("clock-worker", move || {
        // Vacations first: an ended vacation restarts clocks whose deadlines come next.
        let passes = [
            ("vacations", end_due(&db, BATCH)),
            ("time-outs", apply_due_timeouts(&db, BATCH, &ratings)),
            ("reminders", send_due_reminders(&db, BATCH)),
        ];
        let mut full = false;
        for (what, outcome) in passes {
            match outcome {
                Ok(n) => full |= n as i64 >= BATCH,
                Err(e) => {
                    crate::warn_throttled!(error = %e.for_log(), "clock pass ({what}) failed")
                }
            }
        }
        if full {
            Duration::ZERO
        } else {
            every
        }
    })
}
