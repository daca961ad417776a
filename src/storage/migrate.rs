//! A start's own steps on the database: migrating it (instances starting together take turns),
//! and checking the bundled SQLite was built as `.cargo/config.toml` asks.

use diesel::connection::SimpleConnection;
use diesel::result::Error as DieselError;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use super::{backups, pool, Backend, Database, DbConnection, StorageError};

/// The PostgreSQL advisory lock instances take turns on to migrate ("keltis" in ASCII).
const MIGRATION_LOCK: i64 = 0x6b65_6c74_6973;
pub(super) const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");
pub(super) const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
/// What `.cargo/config.toml` builds the bundled SQLite with (see
/// [`Database::sqlite_build_options_missing`]).
const SQLITE_BUILD_OPTIONS: [&str; 2] = ["ENABLE_QPSG", "DEFAULT_MEMSTATUS=0"];

impl Database {
    /// Apply the backend's pending migrations. Instances starting together take turns (on
    /// PostgreSQL a session advisory lock, on SQLite one immediate transaction): the first
    /// migrates, the others then find nothing pending.
    pub fn migrate(&self) -> Result<usize, StorageError> {
        let _write = self.sqlite_writes.as_ref().map(|c| c.exclusive());
        // A start's step: it waits as long as the start's first connection did (with a
        // request's one second, a start on a loaded machine failed in CI).
        let mut conn = self
            .pool
            .get_timeout(pool::START_TIMEOUT)
            .map_err(|e| StorageError::Unavailable(e.to_string()))?;
        if let DbConnection::Postgresql(c) = &mut conn.conn {
            c.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})"))?;
        }
        let applied = backups::refuse_newer(&mut conn.conn).and_then(|()| {
            match &mut conn.conn {
                DbConnection::Postgresql(c) => c
                    .run_pending_migrations(POSTGRES_MIGRATIONS)
                    .map(|v| v.len()),
                // In one write transaction taken at once: another process starting on the file
                // waits for it, then finds nothing pending.
                DbConnection::Sqlite(c) => c
                    .immediate_transaction(|c| {
                        c.run_pending_migrations(SQLITE_MIGRATIONS)
                            .map(|v| v.len())
                            .map_err(DieselError::QueryBuilderError)
                    })
                    .map_err(Into::into),
            }
            .map_err(|e| StorageError::Migration(e.to_string()))
        });
        if let DbConnection::Postgresql(c) = &mut conn.conn {
            c.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"))?;
        }
        applied
    }

    /// The build options of the bundled SQLite that `.cargo/config.toml` turns on and this build
    /// lacks (none on PostgreSQL): the query planner stability guarantee (`ENABLE_QPSG`: without
    /// it a statement whose plan may depend on a bound value, `LIMIT ?`, `LIKE ?`, most of ours,
    /// is compiled again at every run), and no memory statistics (`DEFAULT_MEMSTATUS=0`: with
    /// them every allocation of SQLite's, in every connection, takes one process-wide mutex).
    pub fn sqlite_build_options_missing(&self) -> Result<Vec<&'static str>, StorageError> {
        if self.backend != Backend::Sqlite {
            return Ok(Vec::new());
        }
        use diesel::RunQueryDsl;
        #[derive(diesel::QueryableByName)]
        struct Used {
            #[diesel(sql_type = diesel::sql_types::Integer)]
            used: i32,
        }
        let mut missing = Vec::new();
        for option in SQLITE_BUILD_OPTIONS {
            let used = self.read(|c| {
                diesel::sql_query("SELECT sqlite_compileoption_used(?) AS used")
                    .bind::<diesel::sql_types::Text, _>(option)
                    .get_result::<Used>(c)
                    .map_err(StorageError::from)
            })?;
            if used.used != 1 {
                missing.push(option);
            }
        }
        Ok(missing)
    }
}
