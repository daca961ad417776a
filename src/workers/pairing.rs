//! The pairing worker: runs the pairing pass (`service::pairing::pass`) every few seconds, for
//! what no new request sets off: requests that lapse, bots that may take seats once a wait has
//! passed, players who finished a game and have room again; and starts the bulk pairings that
//! are due (each once: a compare-and-set of its state). Safe on several instances: passes
//! take turns on a lock and seat a request only while it waits.

use std::time::Duration;

use super::Workers;
use crate::service::pairing::{pair_waiting, PairingPolicy};
use crate::storage::Database;

/// Start the worker; it runs a pass every `every`.
pub fn spawn(
    workers: &Workers,
    db: Database,
    policy: PairingPolicy,
    every: Duration,
) -> std::io::Result<()> {
    workers.spawn("pairing-worker", move || {
        if let Err(e) = pair_waiting(&db, &policy) {
            crate::warn_throttled!(error = %e.for_log(), "pairing pass failed");
            return every * 10;
        }
        if let Err(e) = crate::service::pairing::bulk::start_due(&db) {
            crate::warn_throttled!(error = %e.for_log(), "starting bulk pairings failed");
            return every * 10;
        }
        every
    })
}
