//! The push worker: sends the Web Push deliveries that are due (first attempts and retries). Runs
//! on every instance; the outbox's leases keep two instances from sending the same push.

use std::time::Duration;

use super::Workers;
use crate::service::notify::outbound::OutboundPolicy;
use crate::service::notify::push::delivery::{deliver_due, PushSender};
use crate::service::notify::push::PushKeys;
use crate::storage::Database;

/// Deliveries per pass; a full pass is followed by another at once.
const BATCH: i64 = 50;

pub fn spawn(
    workers: &Workers,
    db: Database,
    keys: PushKeys,
    policy: OutboundPolicy,
    every: Duration,
) -> std::io::Result<()> {
    // The blocking HTTP client runs a runtime of its own: made (and dropped) in this thread,
    // never in the server's.
    let mut keys = Some(keys);
    let mut sender: Option<PushSender> = None;
    workers.spawn("push-worker", move || {
        if sender.is_none() {
            let Some(k) = keys.take() else { return every };
            match PushSender::new(k, policy) {
                Ok(s) => sender = Some(s),
                Err(e) => {
                    tracing::error!(error = %e, "the push client cannot start");
                    return every;
                }
            }
        }
        let Some(sender) = sender.as_ref() else {
            return every;
        };
        match deliver_due(&db, sender, BATCH) {
            Ok(n) if n as i64 >= BATCH => Duration::ZERO,
            Ok(_) => every,
            Err(e) => {
                crate::warn_throttled!(error = %e, "push pass failed");
                every
            }
        }
    })
}
