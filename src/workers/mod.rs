//! Background work, each in a thread of its own, sharing nothing but the database: safe when
//! several server instances run the same workers.
//!
//! - `bots`: plays the built-in bots' turns (and the seats of players who left).
//! - `clocks`: applies time-outs when deadlines pass.
//! - `listener`: wakes this instance's waiters when any instance commits (PostgreSQL).
//! - `notifier`: tells every instance's listener what this one committed (PostgreSQL).
//! - `mail`: sends the notification outbox by SMTP (when a relay is configured).
//! - `webhooks`: sends the webhook deliveries of the outbox, with retries.
//! - `inbound_smtp`: receives replies that play (moves by email), when `--inbound-smtp` is set.
//! - `push`: sends the Web Push deliveries of the outbox, encrypted and signed, with retries.
//! - `maintenance`: deletes what has expired (idempotency answers, refresh tokens, sessions) and
//!   packs the logs of finished games left unpacked.
//! - `pairing`: seats waiting pairing requests together (bots after their wait), expires them.
//! - `events`: starts events when due, deals their rounds, finishes them.
//! - `reviews`: reviews finished games (asked for, or rated), half a core at most.
//! - `packing`: packs the logs of the games that ended on this instance, just after their end.
//! - `checkpoints`: copies SQLite's write-ahead log back into the database file, beside the
//!   writers instead of inside one writer's commit.
//!
//! Every worker stops when its [`Workers`] handle says so: a process that ends while a worker
//! is inside a database call can crash in the database client's exit handlers.

pub mod bots;
pub mod checkpoints;
pub mod clocks;
pub mod events;
pub mod inbound_smtp;
pub mod listener;
pub mod mail;
pub mod maintenance;
pub mod notifier;
pub mod packing;
pub mod pairing;
pub mod push;
pub mod reviews;
pub mod webhooks;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The server's worker threads, and the flag that stops them.
#[derive(Clone, Default)]
pub struct Workers {
    stop: Arc<AtomicBool>,
    threads: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Workers {
    /// Run `pass` in a thread named `name` until stopped; `pass` returns how long to rest before
    /// the next pass.
    pub fn spawn(
        &self,
        name: &str,
        mut pass: impl FnMut() -> Duration + Send + 'static,
    ) -> std::io::Result<()> {
        let stop = self.stop.clone();
        let handle = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let rest = pass();
                    rest_unless_stopped(&stop, rest);
                }
            })?;
        self.threads
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(handle);
        Ok(())
    }

    /// Stop every worker and wait for each to finish its current pass.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        let threads: Vec<JoinHandle<()>> = self
            .threads
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
            .collect();
        for t in threads {
            let _ = t.join();
        }
    }
}

/// How long a worker that keeps a connection of its own (the wake-up listener and notifier) waits
/// before connecting again after it was lost or refused.
const RECONNECT_AFTER: Duration = Duration::from_secs(1);

/// The connection a worker keeps in `slot`, opened by `open` when there is none (`fresh` is then
/// true); `Err` with the rest before the next try when it cannot be opened (`None` from `open`:
/// the backend needs none).
fn kept_connection<'a, C>(
    slot: &'a mut Option<C>,
    worker: &str,
    open: impl FnOnce() -> Option<Result<C, crate::storage::StorageError>>,
) -> Result<(&'a mut C, bool), Duration> {
    let fresh = slot.is_none();
    if fresh {
        match open() {
            Some(Ok(c)) => *slot = Some(c),
            Some(Err(e)) => {
                crate::warn_throttled!(error = %e, worker, "cannot connect");
                return Err(RECONNECT_AFTER);
            }
            None => return Err(RECONNECT_AFTER),
        }
    }
    slot.as_mut().map(|c| (c, fresh)).ok_or(RECONNECT_AFTER)
}

/// Sleep `total` in short steps, waking early when stopped.
fn rest_unless_stopped(stop: &AtomicBool, total: Duration) {
    let step = Duration::from_millis(50);
    let mut left = total;
    while !left.is_zero() && !stop.load(Ordering::SeqCst) {
        let now = left.min(step);
        std::thread::sleep(now);
        left -= now;
    }
}
