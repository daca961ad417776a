//! This instance's memory of sessions found live (not revoked), so that a request's access token
//! is checked without reading its session row every time: that read was one statement of every
//! request, the most frequent of all.
//!
//! A revocation must still stop a session's tokens at once, on every instance:
//! - the instance that revokes forgets the user's sessions right after its commit;
//! - on PostgreSQL a trigger sends `NOTIFY keltis_wake 's<user id>'` in the revoking transaction
//!   (and when the sweep deletes a session), and every instance's wake-up listener forgets them
//!   when it arrives (milliseconds);
//! - on PostgreSQL the memory is trusted only while this instance's listener is connected: until
//!   it first connects, and from a lost connection until it connects again (when it forgets
//!   everything, not knowing what it missed), every check reads the row;
//! - an entry is trusted for [`TRUSTED_FOR`] at most, so that even a notification lost without
//!   the connection noticing cannot keep a revoked session working for longer.
//!
//! A check that read the row remembers it only if nothing was forgotten while it read (a
//! generation counter), so a revocation racing with the read is never overwritten.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a session found live is trusted without reading its row again.
pub const TRUSTED_FOR: Duration = Duration::from_secs(30);

/// Entries kept; past it, the memory starts again empty (a miss only costs a read).
const CAPACITY: usize = 50_000;

#[derive(Default)]
struct Inner {
    /// Whether entries may be used (PostgreSQL: while the listener is connected).
    trusted: bool,
    /// Bumped by every forgetting.
    generation: u64,
    /// Session id -> (its user, when it was read live).
    live: HashMap<i64, (i64, Instant)>,
}

pub struct LiveSessions {
    inner: Mutex<Inner>,
}

impl LiveSessions {
    /// `trusted`: whether entries may be used from the start (SQLite: every revocation happens
    /// in this process) or only once [`LiveSessions::trust`] is called (PostgreSQL).
    pub fn new(trusted: bool) -> LiveSessions {
        LiveSessions {
            inner: Mutex::new(Inner {
                trusted,
                ..Inner::default()
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether session `id` of `user_id` was read live recently and has not been forgotten since.
    pub fn is_live(&self, id: i64, user_id: i64) -> bool {
        let inner = self.lock();
        inner.trusted
            && inner
                .live
                .get(&id)
                .is_some_and(|&(user, at)| user == user_id && at.elapsed() < TRUSTED_FOR)
    }

    /// The generation to pass to [`LiveSessions::remember`]: taken before reading the row.
    pub fn generation(&self) -> u64 {
        self.lock().generation
    }

    /// Remember session `id` of `user_id` as read live, unless something was forgotten since
    /// `generation` was taken (the read may predate a revocation).
    pub fn remember(&self, generation: u64, id: i64, user_id: i64) {
        let mut inner = self.lock();
        if inner.generation != generation {
            return;
        }
        if inner.live.len() >= CAPACITY {
            inner.live.clear();
        }
        inner.live.insert(id, (user_id, Instant::now()));
    }

    /// Forget every session of `user_id` (one of them was revoked or deleted).
    pub fn forget_user(&self, user_id: i64) {
        let mut inner = self.lock();
        inner.generation = inner.generation.wrapping_add(1);
        inner.live.retain(|_, (user, _)| *user != user_id);
    }

    /// Forget everything and trust entries from now on (the listener has just connected).
    pub fn trust(&self) {
        let mut inner = self.lock();
        inner.generation = inner.generation.wrapping_add(1);
        inner.live.clear();
        inner.trusted = true;
    }

    /// Forget everything and trust no entry (the listener lost its connection).
    pub fn distrust(&self) {
        let mut inner = self.lock();
        inner.generation = inner.generation.wrapping_add(1);
        inner.live.clear();
        inner.trusted = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_session_is_live_until_its_user_is_forgotten() {
        let sessions = LiveSessions::new(true);
        assert!(!sessions.is_live(1, 10));
        sessions.remember(sessions.generation(), 1, 10);
        sessions.remember(sessions.generation(), 2, 20);
        assert!(sessions.is_live(1, 10));
        assert!(
            !sessions.is_live(1, 11),
            "another user's token with that session id"
        );
        sessions.forget_user(10);
        assert!(!sessions.is_live(1, 10));
        assert!(sessions.is_live(2, 20), "other users are kept");
    }

    #[test]
    fn a_read_that_raced_with_a_revocation_is_not_remembered() {
        let sessions = LiveSessions::new(true);
        let before_read = sessions.generation();
        // The session is revoked while the request reads it (it read it still live).
        sessions.forget_user(10);
        sessions.remember(before_read, 1, 10);
        assert!(!sessions.is_live(1, 10));
    }

    #[test]
    fn nothing_is_trusted_without_the_listener() {
        let sessions = LiveSessions::new(false);
        sessions.remember(sessions.generation(), 1, 10);
        assert!(
            !sessions.is_live(1, 10),
            "not trusted before the listener connects"
        );
        sessions.trust();
        sessions.remember(sessions.generation(), 1, 10);
        assert!(sessions.is_live(1, 10));
        sessions.distrust();
        assert!(
            !sessions.is_live(1, 10),
            "forgotten when the listener is lost"
        );
        sessions.remember(sessions.generation(), 1, 10);
        assert!(!sessions.is_live(1, 10), "and not trusted until it is back");
    }
}
