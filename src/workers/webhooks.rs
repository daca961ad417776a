//! The webhook worker: sends the deliveries that are due (first attempts and retries). Runs on
//! every instance; the outbox's leases keep two instances from sending the same attempt.

use std::time::Duration;

use super::Workers;
use crate::service::accounts::TokenKeys;
use crate::service::notify::webhooks::{deliver_due, WebhookPolicy, WebhookSender};
use crate::storage::Database;

/// Deliveries per pass; a full pass is followed by another at once.
const BATCH: i64 = 50;

pub fn spawn(
    workers: &Workers,
    db: Database,
    policy: WebhookPolicy,
    keys: TokenKeys,
    every: Duration,
) -> std::io::Result<()> {
    // The blocking HTTP client runs a runtime of its own: made (and dropped) in this thread,
    // never in the server's.
    let mut sender: Option<WebhookSender> = None;
    workers.spawn("webhook-worker", move || {
        let sender = match sender.as_ref() {
            Some(s) => s,
            None => match WebhookSender::new(policy, keys.clone()) {
                Ok(s) => sender.insert(s),
                Err(e) => {
                    tracing::warn!(error = %e, "the webhook client cannot start");
                    return every;
                }
            },
        };
        match deliver_due(&db, sender, BATCH) {
            Ok(n) if n as i64 >= BATCH => Duration::ZERO,
            Ok(_) => every,
            Err(e) => {
                crate::warn_throttled!(error = %e, "webhook pass failed");
                every
            }
        }
    })
}
