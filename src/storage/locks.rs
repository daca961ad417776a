//! Passes that several instances run take turns on a lock held to the end of their transaction.

use super::{DbConnection, StorageError};

/// Take the PostgreSQL advisory lock `key` until the transaction ends, so that passes of
/// several instances take turns (SQLite's one writer already does).
pub(crate) fn lock_until_commit(conn: &mut DbConnection, key: i64) -> Result<(), StorageError> {
    if let DbConnection::Postgresql(c) = conn {
        use diesel::connection::SimpleConnection;
        c.batch_execute(&format!("SELECT pg_advisory_xact_lock({key})"))?;
    }
    Ok(())
}
