//! Backups of a SQLite database and putting one back, and the guards around them: a file lock that
//! says the database is in use (every process that opens it holds it shared; a restore needs it
//! alone), and the check that refuses a database migrated by a newer version of the server.
//! PostgreSQL is backed up with its own tools (`pg_dump`, base backups): see the operating guide.

use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use diesel::connection::SimpleConnection;
use diesel::migration::MigrationSource;
use diesel::{Connection, RunQueryDsl, SqliteConnection};
use diesel_migrations::MigrationHarness;

use super::{
    migrate::{POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS},
    sqlite_path, Backend, DbConnection, StorageError,
};

/// Why a backup or a restore did not happen.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0} is a PostgreSQL database: back it up with pg_dump or a base backup (docs/operating.md#backups-and-restore)")]
    Postgres(String),
    #[error("{0} exists already: a backup never overwrites a file")]
    TargetExists(PathBuf),
    #[error("{0} exists: stop the server, then restore with --force to replace it")]
    WouldOverwrite(PathBuf),
    #[error("{0} is in use (a server or another keltis command has it open): stop it first")]
    InUse(PathBuf),
    #[error("{0} is not a Keltis database: {1}")]
    NotABackup(PathBuf, String),
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// `keltis backup`: a copy of the database at `url` into the new file `to`.
pub fn backup(url: &str, to: &Path) -> Result<(), BackupError> {
    match Backend::of_url(url) {
        Backend::Postgresql => Err(BackupError::Postgres(redacted(url))),
        Backend::Sqlite => backup_sqlite(Path::new(sqlite_path(url)), to),
    }
}

/// `keltis restore`: the backup `from` in place of the database at `url`.
pub fn restore(url: &str, from: &Path, force: bool) -> Result<(), BackupError> {
    match Backend::of_url(url) {
        Backend::Postgresql => Err(BackupError::Postgres(redacted(url))),
        Backend::Sqlite => restore_sqlite(from, Path::new(sqlite_path(url)), force),
    }
}

/// A PostgreSQL URL without its password, to be shown.
fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}://…{}", &url[..scheme], &url[at..]),
        _ => url.to_string(),
    }
}

/// The lock file beside a SQLite database.
fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

fn open_lock(db: &Path) -> Result<File, std::io::Error> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_path(db))
}

/// Hold the database's lock shared for as long as the returned file lives: a restore cannot
/// replace the file under this process.
pub fn hold_shared(db: &Path) -> Result<File, StorageError> {
    let unavailable =
        |e: std::io::Error| StorageError::Unavailable(format!("{}: {e}", lock_path(db).display()));
    let file = open_lock(db).map_err(unavailable)?;
    file.lock_shared().map_err(unavailable)?;
    Ok(file)
}

/// A consistent copy of the SQLite database at `db` into the new file `to`, while the server
/// runs (`VACUUM INTO`: one read transaction, so the copy is the database at one instant, and
/// compact).
pub fn backup_sqlite(db: &Path, to: &Path) -> Result<(), BackupError> {
    if to.exists() {
        return Err(BackupError::TargetExists(to.to_path_buf()));
    }
    let mut conn = SqliteConnection::establish(&db.to_string_lossy())
        .map_err(|e| BackupError::Storage(StorageError::Unavailable(e.to_string())))?;
    conn.batch_execute("PRAGMA busy_timeout = 10000;")
        .map_err(StorageError::from)?;
    check_sqlite(&mut conn, db)?;
    let target = to.to_string_lossy().replace('\'', "''");
    conn.batch_execute(&format!("VACUUM INTO '{target}'"))
        .map_err(StorageError::from)?;
    Ok(())
}

/// Put the backup `from` in place of the SQLite database at `db`. Refused while any process has
/// the database open, and when `db` exists unless `force`. The backup is checked first (a SQLite
/// file that passes `integrity_check` and holds Keltis's tables), copied beside the database and
/// renamed over it; the old write-ahead log goes with the old file.
pub fn restore_sqlite(from: &Path, db: &Path, force: bool) -> Result<(), BackupError> {
    let lock = open_lock(db).map_err(|e| BackupError::Io(lock_path(db), e))?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Err(BackupError::InUse(db.into())),
        Err(std::fs::TryLockError::Error(e)) => return Err(BackupError::Io(lock_path(db), e)),
    }
    if db.exists() && !force {
        return Err(BackupError::WouldOverwrite(db.into()));
    }
    if !from.is_file() {
        return Err(BackupError::NotABackup(from.into(), "no such file".into()));
    }
    {
        let mut backup = SqliteConnection::establish(&from.to_string_lossy())
            .map_err(|e| BackupError::NotABackup(from.into(), e.to_string()))?;
        check_sqlite(&mut backup, from)?;
    }
    let staged = {
        let mut name = db.as_os_str().to_owned();
        name.push(".restoring");
        PathBuf::from(name)
    };
    std::fs::copy(from, &staged).map_err(|e| BackupError::Io(staged.clone(), e))?;
    File::open(&staged)
        .and_then(|f| f.sync_all())
        .map_err(|e| BackupError::Io(staged.clone(), e))?;
    // A log left by the replaced database would be applied to the restored one: it goes first.
    for suffix in ["-wal", "-shm"] {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        match std::fs::remove_file(PathBuf::from(name.clone())) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(BackupError::Io(PathBuf::from(name), e)),
        }
    }
    std::fs::rename(&staged, db).map_err(|e| BackupError::Io(db.into(), e))?;
    drop(lock);
    Ok(())
}

/// Whether the SQLite database on `conn` is whole and Keltis's.
fn check_sqlite(conn: &mut SqliteConnection, path: &Path) -> Result<(), BackupError> {
    #[derive(diesel::QueryableByName)]
    struct Line {
        #[diesel(sql_type = diesel::sql_types::Text)]
        integrity_check: String,
    }
    let not = |why: String| BackupError::NotABackup(path.into(), why);
    let lines: Vec<Line> = diesel::sql_query("PRAGMA integrity_check")
        .load(conn)
        .map_err(|e| not(e.to_string()))?;
    if lines.first().map(|l| l.integrity_check.as_str()) != Some("ok") {
        let why: Vec<String> = lines.into_iter().map(|l| l.integrity_check).collect();
        return Err(not(format!("integrity check: {}", why.join("; "))));
    }
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    // Looked up, not asked of diesel's harness, which would create its table in a stranger's file.
    let tables: Vec<Count> = diesel::sql_query(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' \
         AND name IN ('__diesel_schema_migrations', 'users', 'games', 'game_events')",
    )
    .load(conn)
    .map_err(|e| not(e.to_string()))?;
    if tables.first().map(|c| c.n) != Some(4) {
        return Err(not("it lacks the server's tables".into()));
    }
    Ok(())
}

/// Refuse a database migrated by a newer version of the server: one of its applied migrations
/// is not among this binary's (it would run on tables it does not know, and might harm them).
pub(super) fn refuse_newer(conn: &mut DbConnection) -> Result<(), StorageError> {
    let (applied, known) = match conn {
        DbConnection::Postgresql(c) => (
            c.applied_migrations(),
            MigrationSource::<diesel::pg::Pg>::migrations(&POSTGRES_MIGRATIONS)
                .map(|m| m.iter().map(|m| m.name().version().as_owned()).collect()),
        ),
        DbConnection::Sqlite(c) => (
            c.applied_migrations(),
            MigrationSource::<diesel::sqlite::Sqlite>::migrations(&SQLITE_MIGRATIONS)
                .map(|m| m.iter().map(|m| m.name().version().as_owned()).collect()),
        ),
    };
    let migration =
        |e: Box<dyn std::error::Error + Send + Sync>| StorageError::Migration(e.to_string());
    let applied = applied.map_err(migration)?;
    let known: Vec<diesel::migration::MigrationVersion<'static>> = known.map_err(migration)?;
    let unknown: Vec<String> = applied
        .iter()
        .filter(|v| !known.contains(v))
        .map(|v| v.to_string())
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let newest = known
        .iter()
        .max()
        .map(|v| v.to_string())
        .unwrap_or_default();
    Err(StorageError::NewerDatabase {
        unknown: unknown.join(", "),
        newest,
    })
}
