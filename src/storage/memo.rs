//! This instance's memo of values decoded from stored rows (the games' engine states), keyed by
//! row id and version: the next request on the same version skips reading and decoding the
//! snapshot. The database's version stays the authority: an entry is used only when the version
//! the request read from the database is the entry's, so several instances, each with its own
//! memo, never act on a stale state. Storage does not know what the values are.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Entries kept; past it, the memo starts again empty (a miss only costs a decode).
const CAPACITY: usize = 20_000;

type Entry = (i64, Arc<dyn Any + Send + Sync>);

#[derive(Default)]
pub struct Memo {
    entries: Mutex<HashMap<i64, Entry>>,
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

    /// Keep `value` for `id` at `version`, unless a later version is kept already.
    pub fn put<T: Any + Send + Sync>(&self, id: i64, version: i64, value: Arc<T>) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
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
        self.entries
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_found_at_its_version_only() {
        let memo = Memo::default();
        memo.put(7, 3, Arc::new(String::from("at three")));
        assert_eq!(
            memo.get::<String>(7, 3).as_deref().map(String::as_str),
            Some("at three")
        );
        assert!(memo.get::<String>(7, 4).is_none());
        assert!(memo.get::<String>(8, 3).is_none());
        assert!(memo.get::<u32>(7, 3).is_none(), "another type is not found");
        // An older version never replaces a newer one.
        memo.put(7, 5, Arc::new(String::from("at five")));
        memo.put(7, 4, Arc::new(String::from("at four")));
        assert!(memo.get::<String>(7, 4).is_none());
        assert!(memo.get::<String>(7, 5).is_some());
    }

    #[test]
    fn the_memo_stays_bounded() {
        let memo = Memo::default();
        for id in 0..(CAPACITY as i64 + 10) {
            memo.put(id, 1, Arc::new(id));
        }
        let kept = memo.entries.lock().map(|e| e.len()).unwrap_or(0);
        assert!(kept <= CAPACITY, "{kept}");
        assert!(memo.get::<i64>(CAPACITY as i64 + 9, 1).is_some());
    }
}
