//! The bot worker: a thread of its own (bots think with blocking CPU work), polling the database,
//! so that several server instances share the bots' turns safely (each turn is a versioned
//! append: a second instance playing the same turn gets a stale version and moves on). Its pass
//! also plays the plans for turns that began without a request to play them (a move by email,
//! the clock, a stand-in) and drops those left in ended games (`service::plans::playing`).

use std::time::Duration;

use super::Workers;
use crate::ratings::RatingParameters;
use crate::service::plans::playing::play_waiting;
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
        let plans = play_waiting(&db, &ratings).unwrap_or_else(|e| {
            crate::warn_throttled!(error = %e.for_log(), "plan pass failed");
            0
        });
        match play_pending(&db, &bots, &ratings) {
            Ok(0) if plans == 0 => idle,
            Ok(_) => Duration::ZERO,
            Err(e) => {
                crate::warn_throttled!(error = %e.for_log(), "bot worker pass failed");
                idle * 10
            }
        }
    })
}
