//! The packing worker: packs the logs of the games that ended on this instance, a moment after
//! their last move was answered (see `service::play::packing`). Two instances never hold the same game
//! here, and one that finds a game packed already skips it.

use std::time::Duration;

use super::Workers;
use crate::service::play::packing::pack_ended_games;
use crate::storage::Database;

/// How long a game that ended waits at most before its log is packed.
const EVERY: Duration = Duration::from_millis(200);

pub fn spawn(workers: &Workers, db: Database) -> std::io::Result<()> {
    workers.spawn("packing", move || {
        pack_ended_games(&db);
        EVERY
    })
}
