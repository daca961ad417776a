//! The wake-up notifier (PostgreSQL): sends the topics this instance committed (a game's new
//! event, a user's new notification) as NOTIFY, every commit's since the last send in one
//! statement, on a connection of its own, outside the appending transactions (see
//! `storage::wakeups`). The listener of every instance, this one's too, receives them.

use std::time::Duration;

use super::{kept_connection, Workers, RECONNECT_AFTER};
use crate::storage::wakeups::Notifier;
use crate::storage::{Backend, Database};

/// How long a pass waits for topics before it looks at the stop flag again.
const WAIT: Duration = Duration::from_millis(50);
/// The rest after a send, while the next topics gather: under load, one statement carries the
/// commits of these milliseconds (at most 200 statements a second), which adds at most this to a
/// wake-up (the listener looks at its socket as often).
const GATHER: Duration = Duration::from_millis(5);

/// Start the notifier; nothing to do on SQLite.
pub fn spawn(workers: &Workers, db: Database) -> std::io::Result<()> {
    if db.backend() != Backend::Postgresql {
        return Ok(());
    }
    let mut notifier: Option<Notifier> = None;
    workers.spawn("wakeup-notifier", move || {
        let n = match kept_connection(&mut notifier, "wakeup-notifier", || db.notifier()) {
            Ok((n, _)) => n,
            Err(rest) => return rest,
        };
        let topics = db.outgoing().take(WAIT);
        if topics.is_empty() {
            return Duration::ZERO;
        }
        match n.send(&topics) {
            Ok(()) => GATHER,
            Err(e) => {
                // Sent again once connected: a waiter would otherwise wait for its deadline.
                crate::warn_throttled!(error = %e, "wake-up notifier lost its connection");
                db.outgoing().add(topics);
                notifier = None;
                RECONNECT_AFTER
            }
        }
    })
}

/// Send what is still pending, once the workers have stopped (the server is stopping).
pub fn flush(db: &Database) {
    let topics = db.outgoing().take(Duration::ZERO);
    if topics.is_empty() {
        return;
    }
    if let Some(Err(e)) = db.notifier().map(|n| n.and_then(|mut n| n.send(&topics))) {
        tracing::warn!(error = %e, "the last wake-ups were not sent");
    }
}
