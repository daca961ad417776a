//! This instance's memo of values decoded from stored rows (the games' engine states), keyed by
//! row id and version: the next request on the same version skips reading and decoding the
//! snapshot. The database's version stays the authority: an entry is used only when the version
//! the request read from the database is the entry's, so several instances, each with its own
//! memo, never act on a stale state. Storage does not know what the values are.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Entries kept; past it, the memo starts again empty (a miss only costs a decode).
const CAPACITY: usize = 20_000;

type Entry = (i64, Arc<dyn Any + Send + Sync>);

#[derive(Default)]
pub struct Memo {
    entries: Mutex<HashMap<i64, Entry>>,
    /// Counts the clearings: a value read from the database before a clearing (a renaming
    /// committed meanwhile, at the same version) is not kept after it.
    generation: AtomicU64,
}

impl Memo {
    /// The value kept for `id` at exactly `version`.
    pub fn get<T: Any + Send + Sync>(&self, id: i64, version: i64) -> Option<Arc<T>> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let (at, value) = entries.get(&id)?;
        if *at != version {
            return None;
        }
        value.clone().downcast::<T>().ok()
    }

    /// The memo's generation now: taken before reading what will be kept (see [`Memo::put`]).
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// Keep `value` for `id` at `version`, unless a later version is kept already, or the memo
    /// was cleared since `read_at` (its [`Memo::generation`] before `value` was read): a request
    /// that read a player's former name before a renaming's commit would otherwise keep it after
    /// the renaming's clearing, at a version the renaming did not change.
    pub fn put<T: Any + Send + Sync>(&self, id: i64, version: i64, value: Arc<T>, read_at: u64) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if self.generation.load(Ordering::SeqCst) != read_at {
            return;
        }
        if entries.get(&id).is_some_and(|(at, _)| *at > version) {
            return;
        }
        if entries.len() >= CAPACITY && !entries.contains_key(&id) {
            entries.clear();
        }
        entries.insert(id, (version, value));
    }

    /// Forget everything (a value kept may no longer be true at its version: a player's name).
    pub fn clear(&self) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        self.generation.fetch_add(1, Ordering::SeqCst);
        entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_found_at_its_version_only() {
        let memo = Memo::default();
        memo.put(7, 3, Arc::new(String::from("at three")), 0);
        assert_eq!(
            memo.get::<String>(7, 3).as_deref().map(String::as_str),
            Some("at three")
        );
        assert!(memo.get::<String>(7, 4).is_none());
        assert!(memo.get::<String>(8, 3).is_none());
        assert!(memo.get::<u32>(7, 3).is_none(), "another type is not found");
        // An older version never replaces a newer one.
        memo.put(7, 5, Arc::new(String::from("at five")), 0);
        memo.put(7, 4, Arc::new(String::from("at four")), 0);
        assert!(memo.get::<String>(7, 4).is_none());
        assert!(memo.get::<String>(7, 5).is_some());
    }

    #[test]
    fn the_memo_stays_bounded() {
        let memo = Memo::default();
        for id in 0..(CAPACITY as i64 + 10) {
            memo.put(id, 1, Arc::new(id), 0);
        }
        let kept = memo.entries.lock().map(|e| e.len()).unwrap_or(0);
        assert!(kept <= CAPACITY, "{kept}");
        assert!(memo.get::<i64>(CAPACITY as i64 + 9, 1).is_some());
    }

    #[test]
    fn a_value_read_before_a_clearing_is_not_kept_after_it() {
        let memo = Memo::default();
        // A request reads a game's seats (a player's former name)...
        let read_at = memo.generation();
        // ...a renaming commits and clears the memo...
        memo.clear();
        // ...and the request keeps what it read, at the version the renaming left as it was.
        memo.put(7, 3, Arc::new(String::from("former name")), read_at);
        assert!(memo.get::<String>(7, 3).is_none());
        // Read after the clearing, it is kept.
        memo.put(7, 3, Arc::new(String::from("new name")), memo.generation());
        assert!(memo.get::<String>(7, 3).is_some());
    }
}
