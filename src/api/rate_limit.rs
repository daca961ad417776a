//! Login and registration attempts per client address, in fixed one-minute windows. Kept in
//! memory: each server instance counts on its own.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);

/// Attempts per (client address, action): when the window started, and how many so far.
type Windows = HashMap<(IpAddr, &'static str), (Instant, u32)>;

pub struct RateLimiter {
    per_window: u32,
    windows: Mutex<Windows>,
}

impl RateLimiter {
    pub fn new(per_window: u32) -> RateLimiter {
        RateLimiter {
            per_window,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Count one attempt; `Err(seconds)` to wait when over the limit.
    pub fn check(&self, ip: IpAddr, action: &'static str) -> Result<(), u64> {
        let now = Instant::now();
        let mut windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        if windows.len() > 10_000 {
            windows.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let entry = windows.entry((ip, action)).or_insert((now, 0));
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
