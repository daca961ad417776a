//! The review worker: judges the finished games whose review was asked for (and, unless turned
//! off, the rated games that ended lately), one at a time, resting after each as long as it took:
//! at most half of one core, whatever the queue. Claims with leases keep two instances from
//! doing the same review; one whose lease ran out is taken again.

use std::time::Duration;

use super::Workers;
use crate::service::review::{review_next, Pass};
use crate::storage::Database;

pub fn spawn(workers: &Workers, db: Database, rated: bool, every: Duration) -> std::io::Result<()> {
    workers.spawn("reviews", move || match review_next(&db, rated) {
        Ok(Pass::Reviewed(took)) => took,
        Ok(Pass::Idle) => every,
        Err(e) => {
            crate::warn_throttled!(error = %e.for_log(), "review pass failed");
            every
        }
    })
}
