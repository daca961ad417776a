//! The storage layer's one error type, and which database errors mean "not now" (a lost
//! connection, a busy lock) rather than "wrong".

use diesel::result::{DatabaseErrorKind, Error as DieselError};

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("database error: {0}")]
    Query(DieselError),
    #[error("database migration failed: {0}")]
    Migration(String),
    /// The database was migrated by a newer version of the server.
    #[error("the database was migrated by a newer version of keltis (migrations {unknown}; this binary knows them up to {newest}): run that version or a newer one, or restore a backup made for this one")]
    NewerDatabase { unknown: String, newest: String },
    /// A unique key already exists (a name taken, an event sequence number already written).
    #[error("conflicting write")]
    Conflict,
    /// PostgreSQL gave the transaction up for another's sake (a deadlock, a serialization
    /// failure): run again, it may pass; [`crate::storage::Database::write`] does, a few times.
    #[error("the transaction met another: {0}")]
    Contended(String),
    #[error("stored data is unreadable: {0}")]
    Corrupt(String),
}

impl From<DieselError> for StorageError {
    /// A lost connection (the server shut down, restarted, or the network broke) or a lock that
    /// stayed busy is the database being unavailable for now, not a bug: clients may retry.
    fn from(e: DieselError) -> StorageError {
        match &e {
            DieselError::DatabaseError(
                DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                _,
            ) => StorageError::Unavailable(e.to_string()),
            DieselError::DatabaseError(DatabaseErrorKind::Unknown, info)
                if is_connection_loss(info.message()) =>
            {
                StorageError::Unavailable(e.to_string())
            }
            DieselError::DatabaseError(DatabaseErrorKind::SerializationFailure, _) => {
                StorageError::Contended(e.to_string())
            }
            // SQLSTATE 40P01, which diesel does not name.
            DieselError::DatabaseError(DatabaseErrorKind::Unknown, info)
                if info.message().contains("deadlock detected") =>
            {
                StorageError::Contended(e.to_string())
            }
            _ => StorageError::Query(e),
        }
    }
}

/// Messages of PostgreSQL (libpq) and SQLite that mean "not now" rather than "wrong".
fn is_connection_loss(message: &str) -> bool {
    const SIGNS: &[&str] = &[
        "terminating connection",
        "server closed the connection",
        "no connection to the server",
        "connection to server",
        "could not receive data",
        "could not send data",
        "the database system is shutting down",
        "the database system is starting up",
        "ssl connection has been closed unexpectedly",
        "ssl syscall error",
        "database is locked",
        "database is busy",
    ];
    let message = message.to_ascii_lowercase();
    SIGNS.iter().any(|s| message.contains(s))
}

/// Whether an error says the connection was lost (the database did not answer), rather than
/// that the database answered "no": the pool then pings its connections before their next use.
/// And whether it says the transaction met another (a deadlock, a serialization failure): then
/// running it again may pass.
pub trait ConnectionLoss {
    fn is_connection_loss(&self) -> bool;
    fn is_contention(&self) -> bool {
        false
    }
}

impl ConnectionLoss for StorageError {
    fn is_connection_loss(&self) -> bool {
        matches!(self, StorageError::Unavailable(_))
    }
    fn is_contention(&self) -> bool {
        matches!(self, StorageError::Contended(_))
    }
}

impl StorageError {
    /// Diesel's unique violation becomes [`StorageError::Conflict`].
    pub fn from_write(e: DieselError) -> StorageError {
        match e {
            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                StorageError::Conflict
            }
            e => StorageError::from(e),
        }
    }
}
