//! Storage: one code path for PostgreSQL and SQLite (a diesel `MultiConnection`), pooled
//! connections, migrations embedded and run at start. All SQL of the project lives below here.

pub mod accounts;
pub mod games;
pub mod schema;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::r2d2::{self, ManageConnection, R2D2Connection};
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel::sqlite::SqliteConnection;
use diesel::Connection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");

/// A connection to either database.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Postgresql(PgConnection),
    Sqlite(SqliteConnection),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Postgresql,
    Sqlite,
}

impl Backend {
    /// `postgres://` and `postgresql://` URLs select PostgreSQL; anything else is a SQLite file
    /// (an optional `sqlite://` prefix is removed).
    pub fn of_url(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgresql
        } else {
            Backend::Sqlite
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("database error: {0}")]
    Query(#[from] DieselError),
    #[error("database migration failed: {0}")]
    Migration(String),
    /// A unique key already exists (a name taken, an event sequence number already written).
    #[error("conflicting write")]
    Conflict,
    #[error("stored data is unreadable: {0}")]
    Corrupt(String),
}

impl StorageError {
    /// Diesel's unique violation becomes [`StorageError::Conflict`].
    pub fn from_write(e: DieselError) -> StorageError {
        match e {
            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                StorageError::Conflict
            }
            e => StorageError::Query(e),
        }
    }
}

/// Opens connections of one backend (the derive's own `establish` would guess from the URL and
/// could open a SQLite file named like a PostgreSQL URL).
#[derive(Debug)]
struct Manager {
    url: String,
    backend: Backend,
}

impl ManageConnection for Manager {
    type Connection = DbConnection;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConnection, r2d2::Error> {
        match self.backend {
            Backend::Postgresql => PgConnection::establish(&self.url)
                .map(DbConnection::Postgresql)
                .map_err(r2d2::Error::ConnectionError),
            Backend::Sqlite => {
                let path = self.url.strip_prefix("sqlite://").unwrap_or(&self.url);
                let mut conn =
                    SqliteConnection::establish(path).map_err(r2d2::Error::ConnectionError)?;
                // WAL lets readers go on while one writer writes; the timeout waits for a lock
                // held by another process instead of failing at once.
                conn.batch_execute(
                    "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 10000; \
                     PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;",
                )
                .map_err(r2d2::Error::QueryError)?;
                Ok(DbConnection::Sqlite(conn))
            }
        }
    }

    fn is_valid(&self, conn: &mut DbConnection) -> Result<(), r2d2::Error> {
        conn.ping().map_err(r2d2::Error::QueryError)
    }

    fn has_broken(&self, conn: &mut DbConnection) -> bool {
        conn.is_broken()
    }
}

/// The pool, and what the backend needs to write safely.
#[derive(Clone)]
pub struct Database {
    pool: r2d2::Pool<Manager>,
    backend: Backend,
    /// SQLite allows one writer: writes of this process queue here rather than fail with
    /// SQLITE_BUSY when two transactions try to upgrade their locks.
    sqlite_writes: Option<Arc<Mutex<()>>>,
}

impl Database {
    /// Connect and apply pending migrations.
    pub fn open(url: &str, pool_size: u32) -> Result<Database, StorageError> {
        let backend = Backend::of_url(url);
        if backend == Backend::Sqlite {
            let path = url.strip_prefix("sqlite://").unwrap_or(url);
            if let Some(dir) = std::path::Path::new(path).parent() {
                if !dir.as_os_str().is_empty() {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        StorageError::Unavailable(format!("{}: {e}", dir.display()))
                    })?;
                }
            }
        }
        let pool = r2d2::Pool::builder()
            .max_size(pool_size)
            .connection_timeout(Duration::from_secs(10))
            .build(Manager {
                url: url.to_string(),
                backend,
            })
            .map_err(|e| StorageError::Unavailable(e.to_string()))?;
        let db = Database {
            pool,
            backend,
            sqlite_writes: (backend == Backend::Sqlite).then(|| Arc::new(Mutex::new(()))),
        };
        db.migrate()?;
        Ok(db)
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    fn conn(&self) -> Result<r2d2::PooledConnection<Manager>, StorageError> {
        self.pool
            .get()
            .map_err(|e| StorageError::Unavailable(e.to_string()))
    }

    /// Apply the backend's pending migrations.
    pub fn migrate(&self) -> Result<usize, StorageError> {
        let _write = self.write_lock();
        let mut conn = self.conn()?;
        let applied = match &mut *conn {
            DbConnection::Postgresql(c) => c
                .run_pending_migrations(POSTGRES_MIGRATIONS)
                .map(|v| v.len()),
            DbConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|v| v.len()),
        };
        applied.map_err(|e| StorageError::Migration(e.to_string()))
    }

    fn write_lock(&self) -> Option<std::sync::MutexGuard<'_, ()>> {
        self.sqlite_writes
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// Run reads on one connection.
    pub fn read<T, E: From<StorageError>>(
        &self,
        f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut conn = self.conn()?;
        f(&mut conn)
    }

    /// Run writes in one transaction: all of them or none.
    pub fn write<T, E: From<StorageError> + From<DieselError>>(
        &self,
        f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        let _write = self.write_lock();
        let mut conn = self.conn()?;
        (*conn).transaction(f)
    }

    /// `/readyz`: the database answers.
    pub fn ping(&self) -> Result<(), StorageError> {
        let mut conn = self.conn()?;
        conn.ping().map_err(StorageError::Query)
    }
}

/// Milliseconds since the Unix epoch: the time type of every table.
pub fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
