//! The server's time. Production reads the system clock; tests build the server with a manual
//! clock they move forward themselves, so that a three-day deadline passes without waiting. There
//! is no way to move it over HTTP.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// Milliseconds since the Unix epoch, from the system or from a test's hand.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    manual: Option<Arc<AtomicI64>>,
}

impl Clock {
    /// The system clock.
    pub fn system() -> Clock {
        Clock { manual: None }
    }

    /// A clock that shows `start` until it is moved.
    pub fn manual(start: i64) -> Clock {
        Clock {
            manual: Some(Arc::new(AtomicI64::new(start))),
        }
    }

    pub fn now(&self) -> i64 {
        match &self.manual {
            Some(t) => t.load(Ordering::SeqCst),
            None => crate::storage::now_millis(),
        }
    }

    /// Move a manual clock forward (the system clock moves by itself: no effect).
    pub fn advance(&self, millis: i64) {
        if let Some(t) = &self.manual {
            t.fetch_add(millis, Ordering::SeqCst);
        }
    }
}
