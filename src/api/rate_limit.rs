//! Rate limits in fixed one-minute windows: login and registration attempts per client address,
//! and requests per API or app token; and the event streams and long polls a player holds open
//! at once. Kept in memory: each server instance counts on its own.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
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

/// The event streams and waiting long polls each player holds open on this instance. Each holds
/// memory and, over HTTP/1.1, a descriptor: without a cap one account could hold them all.
pub struct StreamSlots {
    per_player: u32,
    held: Mutex<HashMap<i64, u32>>,
}

/// One open stream of a player's, given back when dropped (when the stream ends).
pub struct StreamSlot {
    slots: Arc<StreamSlots>,
    user_id: i64,
}

impl StreamSlots {
    pub fn new(per_player: u32) -> Arc<StreamSlots> {
        Arc::new(StreamSlots {
            per_player,
            held: Mutex::new(HashMap::new()),
        })
    }

    /// One more stream for `user_id`; `Err(the cap)` when they hold as many as it allows.
    pub fn take(self: &Arc<Self>, user_id: i64) -> Result<StreamSlot, u32> {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        let count = held.entry(user_id).or_insert(0);
        if *count >= self.per_player {
            return Err(self.per_player);
        }
        *count += 1;
        Ok(StreamSlot {
            slots: self.clone(),
            user_id,
        })
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut held = self.slots.held.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = held.get_mut(&self.user_id) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                held.remove(&self.user_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StreamSlots;

    #[test]
    fn a_player_holds_streams_up_to_the_cap_and_a_closed_one_frees_its_place() {
        let slots = StreamSlots::new(2);
        let first = slots.take(7).expect("one");
        let second = slots.take(7).expect("two");
        assert_eq!(slots.take(7).err(), Some(2));
        // Another player's streams are their own.
        let theirs = slots.take(8).expect("another player's");
        drop(first);
        let third = slots.take(7).expect("a place freed");
        assert_eq!(slots.take(7).err(), Some(2));
        drop((second, third, theirs));
        assert!(slots.held.lock().map(|h| h.is_empty()).unwrap_or(false));
    }
}
