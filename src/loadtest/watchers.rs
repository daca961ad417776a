//! The load tool's watchers: event streams and long polls held open while the tables play,
//! some following the tables' games (their wake-up times are measured), the rest idle.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{watch, Semaphore};

use super::{call, LoadError};

/// How a watcher waits.
#[derive(Clone, Copy)]
pub(super) enum Watch {
    Stream,
    Poll,
}

/// What one watcher saw.
pub(super) struct Seen {
    pub kind: Watch,
    /// Commit-to-receipt times of the moves it received.
    pub wake_ms: Vec<f64>,
    pub errors: u64,
    /// What the first error said.
    pub first_error: Option<String>,
}

/// The time from a move's commit (its event's time, by the server's clock on this machine) to
/// now.
fn wake_of(event: &Value) -> Option<f64> {
    (event["kind"] == "decided")
        .then(|| event["at"].as_i64())
        .flatten()
        .map(|at| (crate::storage::now_millis() - at) as f64)
}

/// Watchers opening at once, at most: each opening reads the game, then asks for its stream, and
/// thousands at once would hold two connections each (the read's back in the pool while the
/// stream opens another), past the load tool's own open-file limit.
pub(super) const OPENING_AT_ONCE: usize = 64;

/// Follow the game `game` names (it changes when the table starts another) until the deadline,
/// by a stream or by long polls; note when each move arrives. `opening` bounds the openings.
#[allow(clippy::too_many_arguments)]
pub(super) async fn watch_games(
    kind: Watch,
    client: reqwest::Client,
    url: String,
    token: String,
    mut game: watch::Receiver<i64>,
    ready: Arc<AtomicUsize>,
    opening: Arc<Semaphore>,
    mut stop: watch::Receiver<bool>,
) -> Seen {
    let mut seen = Seen {
        kind,
        wake_ms: Vec::new(),
        errors: 0,
        first_error: None,
    };
    // Counted once, when the watcher first waits.
    let mut ready = Some(ready);
    while !*stop.borrow() {
        let id = *game.borrow_and_update();
        let followed = async {
            let (wake_ms, ready) = (&mut seen.wake_ms, &mut ready);
            let opening = &opening;
            match kind {
                Watch::Stream => {
                    follow_stream(&client, &url, &token, id, wake_ms, ready, opening).await
                }
                Watch::Poll => {
                    follow_polls(&client, &url, &token, id, wake_ms, ready, opening).await
                }
            }
        };
        let ended = tokio::select! {
            r = followed => r,
            Ok(()) = game.changed() => Ok(()),
            _ = stop.changed() => Ok(()),
        };
        if let Err(e) = ended {
            seen.errors += 1;
            seen.first_error.get_or_insert_with(|| e.to_string());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    seen
}

async fn follow_stream(
    client: &reqwest::Client,
    url: &str,
    token: &str,
    id: i64,
    wake_ms: &mut Vec<f64>,
    ready: &mut Option<Arc<AtomicUsize>>,
    opening: &Semaphore,
) -> Result<(), LoadError> {
    let permit = opening.acquire().await.ok();
    // From the game's version on: what came before is its past, not a wake-up.
    let version = call(
        client
            .get(format!("{url}/api/v1/games/{id}"))
            .bearer_auth(token),
        200,
    )
    .await?["version"]
        .as_i64()
        .unwrap_or(0);
    let mut r = client
        .get(format!("{url}/api/v1/games/{id}/stream?after={version}"))
        .bearer_auth(token)
        .send()
        .await?;
    drop(permit);
    announce(ready);
    let mut buffer = String::new();
    while let Some(chunk) = r.chunk().await? {
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            for data in frame.lines().filter_map(|l| l.strip_prefix("data: ")) {
                let event: Option<Value> = serde_json::from_str(data).ok();
                if let Some(ms) = event.as_ref().and_then(wake_of) {
                    wake_ms.push(ms);
                }
            }
        }
    }
    Ok(())
}

async fn follow_polls(
    client: &reqwest::Client,
    url: &str,
    token: &str,
    id: i64,
    wake_ms: &mut Vec<f64>,
    ready: &mut Option<Arc<AtomicUsize>>,
    opening: &Semaphore,
) -> Result<(), LoadError> {
    let mut after = 0;
    // The first answer (without waiting) is the game's past, not a wake-up.
    let mut past = true;
    let mut permit = opening.acquire().await.ok();
    loop {
        let events = call(
            client
                .get(format!(
                    "{url}/api/v1/games/{id}/events?after={after}&wait={}",
                    if past { 0 } else { 30 }
                ))
                .bearer_auth(token),
            200,
        )
        .await?;
        for e in events.as_array().into_iter().flatten() {
            after = after.max(e["seq"].as_i64().unwrap_or(after));
            if !past {
                wake_ms.extend(wake_of(e));
            }
        }
        past = false;
        permit.take();
        announce(ready);
    }
}

/// Count this watcher as waiting (once).
fn announce(ready: &mut Option<Arc<AtomicUsize>>) {
    if let Some(counter) = ready.take() {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// A process's thread count, from `/proc` (Linux).
pub(super) fn threads_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
}
