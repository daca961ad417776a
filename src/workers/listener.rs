//! The wake-up listener (PostgreSQL): receives the NOTIFY that every instance's commits send
//! (a game's new event, a user's new notification) and wakes this instance's waiters. It sends
//! no query while listening: each pass only reads what arrived on its connection's socket.

use std::time::Duration;

use super::{kept_connection, Workers, RECONNECT_AFTER};
use crate::storage::wakeups::Listener;
use crate::storage::{Backend, Database};

/// How often the listener looks at its socket: the most a wake-up from another instance waits.
const CHECK_EVERY: Duration = Duration::from_millis(5);
/// Start the listener; nothing to do on SQLite.
pub fn spawn(workers: &Workers, db: Database) -> std::io::Result<()> {
    if db.backend() != Backend::Postgresql {
        return Ok(());
    }
    let mut listener: Option<Listener> = None;
    workers.spawn("wakeup-listener", move || {
        let l = match kept_connection(&mut listener, "wakeup-listener", || db.listener()) {
            Ok((l, fresh)) => {
                if fresh {
                    // What was committed while no one listened is unknown: everyone looks again.
                    db.listening();
                }
                l
            }
            Err(rest) => return rest,
        };
        match l.received() {
            Ok(topics) => {
                for topic in topics {
                    db.notified(topic);
                }
                CHECK_EVERY
            }
            Err(e) => {
                crate::warn_throttled!(error = %e, "wake-up listener lost its connection");
                db.not_listening();
                listener = None;
                RECONNECT_AFTER
            }
        }
    })
}
