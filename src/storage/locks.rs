//! Locks held to the end of a transaction: PostgreSQL's transaction-level advisory locks. SQLite
//! needs none: it has one writer at a time, and a write transaction reads what it checks in its
//! own turn.
//!
//! Two uses. Passes that several instances run (pairing, events) take turns on a named lock.
//! And a write whose rule reads before it writes (a cap, a "once", the last free seat) first
//! locks what its rule is about, a [`Subject`]: a second request for the same subject, through
//! any instance, then waits for the first to commit and reads what it wrote (under READ
//! COMMITTED each statement sees what was committed before it began).
//!
//! The order every transaction takes its locks in, so that two of them never wait on each
//! other: a named pass's lock, then an event, then a game, then players in ascending id order.
//! A transaction takes its locks before its first write.

use super::{DbConnection, StorageError};

/// What a rule is about: the key of its lock. A key's top byte says the kind (named locks keep
/// theirs zero), the rest is the id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// An event's entries (its last free place).
    Event(i64),
    /// A game's seats and invitations (its last free seat, one seat each).
    Game(i64),
    /// A player's caps and "once" rules (requests waiting, games running, devices, webhooks,
    /// messages a minute, events made) and the account's own state (deletion, two-factor,
    /// password resets).
    Player(i64),
}

impl Subject {
    fn key(self) -> i64 {
        let (kind, id) = match self {
            Subject::Event(id) => (1, id),
            Subject::Game(id) => (2, id),
            Subject::Player(id) => (3, id),
        };
        (kind << 56) | (id & 0x00ff_ffff_ffff_ffff)
    }
}

/// Take the PostgreSQL advisory lock `key` until the transaction ends, so that passes of
/// several instances take turns (SQLite's one writer already does).
pub(crate) fn lock_until_commit(conn: &mut DbConnection, key: i64) -> Result<(), StorageError> {
    if let DbConnection::Postgresql(c) = conn {
        use diesel::connection::SimpleConnection;
        c.batch_execute(&format!("SELECT pg_advisory_xact_lock({key})"))?;
    }
    Ok(())
}

/// Lock `subject` until the transaction ends: call it before the transaction's first read of
/// what its rule checks.
pub fn lock(conn: &mut DbConnection, subject: Subject) -> Result<(), StorageError> {
    lock_until_commit(conn, subject.key())
}

/// Lock several players, in ascending id order (each once).
pub fn lock_players(conn: &mut DbConnection, ids: &[i64]) -> Result<(), StorageError> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        lock(conn, Subject::Player(id))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Subject;

    #[test]
    fn subjects_of_different_kinds_or_ids_have_different_keys() {
        let keys = [
            Subject::Event(7).key(),
            Subject::Game(7).key(),
            Subject::Player(7).key(),
            Subject::Player(8).key(),
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn subject_keys_never_meet_the_named_locks() {
        // The named locks (pairing, events, migrations) are ASCII words of at most seven
        // letters: their top byte is zero, a subject's never is.
        for subject in [
            Subject::Event(1),
            Subject::Game(1),
            Subject::Player(i64::MAX),
        ] {
            assert_ne!(subject.key() >> 56, 0);
            assert!(subject.key() > 0);
        }
    }
}
