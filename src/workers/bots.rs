//! The bot worker: a thread of its own (bots think with blocking CPU work), polling the database,
//! so that several server instances share the bots' turns safely (each turn is a versioned
//! append: a second instance playing the same turn gets a stale version and moves on).

use std::time::Duration;

use super::Workers;
use crate::ratings::RatingParameters;
use crate::service::play::bots::{play_pending, ServerBot};
use crate::storage::Database;

/// Start the worker; it polls every `idle` while there is nothing to play.
pub fn spawn(
    workers: &Workers,
    db: Database,
    bots: Vec<ServerBot>,
    ratings: RatingParameters,
    idle: Duration,
) -> std::io::Result<()> {
    workers.spawn("bot-worker", move || {
        match play_pending(&db, &bots, &ratings) {
            Ok(0) => idle,
            Ok(_) => Duration::ZERO,
            Err(e) => {
                crate::warn_throttled!(error = %e.for_log(), "bot worker pass failed");
                idle * 10
            }
        }
    })
}
