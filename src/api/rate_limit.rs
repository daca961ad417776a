//! Rate limits in fixed one-minute windows: login and registration attempts per client address,
//! and requests per API or app token. Kept in memory: each server instance counts on its own.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);

/// Counts per key in fixed one-minute windows: when each key's window started, and how many so
/// far.
struct Windows<K> {
    per_window: u32,
    counts: Mutex<HashMap<K, (Instant, u32)>>,
}

impl<K: Hash + Eq> Windows<K> {
    fn new(per_window: u32) -> Windows<K> {
        Windows {
            per_window,
            counts: Mutex::new(HashMap::new()),
        }
    }

    /// Count one for `key`; `Err(seconds)` to wait when over the limit.
    fn count(&self, key: K) -> Result<(), u64> {
        let now = Instant::now();
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if counts.len() > 10_000 {
            counts.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let entry = counts.entry(key).or_insert((now, 0));
        if now.duration_since(entry.0) >= WINDOW {
            *entry = (now, 0);
        }
        if entry.1 >= self.per_window {
            let wait = WINDOW.saturating_sub(now.duration_since(entry.0));
            return Err(wait.as_secs().max(1));
        }
        entry.1 += 1;
        Ok(())
    }
}

/// Login and registration attempts per (client address, action).
pub struct RateLimiter {
    windows: Windows<(IpAddr, &'static str)>,
}

impl RateLimiter {
    pub fn new(per_window: u32) -> RateLimiter {
        RateLimiter {
            windows: Windows::new(per_window),
        }
    }

    /// Count one attempt; `Err(seconds)` to wait when over the limit.
    pub fn check(&self, ip: IpAddr, action: &'static str) -> Result<(), u64> {
        self.windows.count((ip, action))
    }
}

/// Requests per API or app token, so that a runaway bot or app cannot take the server from the
/// others (signed-in sessions are people, and are not counted).
pub struct TokenLimiter {
    windows: Windows<String>,
}

impl TokenLimiter {
    pub fn new(per_window: u32) -> TokenLimiter {
        TokenLimiter {
            windows: Windows::new(per_window),
        }
    }

    /// Count one request of `token`; `Err(seconds)` to wait when over the limit.
    pub fn check(&self, token: &str) -> Result<(), u64> {
        self.windows.count(token.to_string())
    }
}
