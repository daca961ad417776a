//! The connection pool: opening connections of one backend, and when a pooled connection is
//! handed out without a ping first.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::r2d2::{self, ManageConnection, R2D2Connection};
use diesel::sqlite::SqliteConnection;
use diesel::Connection;

use super::{Backend, ConnectionLoss, DbConnection};

/// Opens connections of one backend (the derive's own `establish` would guess from the URL and
/// could open a SQLite file named like a PostgreSQL URL).
#[derive(Debug)]
pub(super) struct Manager {
    pub(super) url: String,
    pub(super) backend: Backend,
    pub(super) sqlite_synchronous: SqliteSync,
    /// How many connections of the pool were found lost: shared by all of them.
    pub(super) losses: Arc<AtomicU64>,
}

/// How SQLite makes a commit durable (`PRAGMA synchronous`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SqliteSync {
    /// `full-outside-lock` where the server has [`SqliteSync::CORES_FOR_SYNC_OUTSIDE`] cores or
    /// more, `full` below: both equally durable; `full` measured as fast or faster on 2 cores,
    /// `full-outside-lock` predicted the faster on many (docs/performance.md). The default.
    #[default]
    Auto,
    /// Every commit reaches the disk before it is acknowledged: an acknowledged move survives a
    /// power loss.
    Full,
    /// As durable as `full`, the log synced by the server after each commit instead of by
    /// SQLite inside it, outside the write lock: the next writers need not wait for the disk.
    /// For many cores (the write turn held half as long); on 2 cores it measured no faster,
    /// slower where other work wanted the cores (docs/performance.md).
    FullOutsideLock,
    /// Faster commits; a power loss (not a crash of the server) can drop the last
    /// acknowledged moves.
    Normal,
}

impl SqliteSync {
    /// From this many cores `auto` syncs outside the write lock. Below, the cores are the limit
    /// and the sync of its own costs a little CPU per move; from here the write turn is, and
    /// `full` holds it twice as long (docs/performance.md, "The serial section on SQLite").
    pub const CORES_FOR_SYNC_OUTSIDE: usize = 4;

    /// What `self` is on a machine of `cores` cores: `auto` chosen, the others as they are.
    pub fn for_cores(self, cores: usize) -> SqliteSync {
        match self {
            SqliteSync::Auto if cores >= Self::CORES_FOR_SYNC_OUTSIDE => {
                SqliteSync::FullOutsideLock
            }
            SqliteSync::Auto => SqliteSync::Full,
            chosen => chosen,
        }
    }

    /// What `self` is on this machine, with the cores this process may run on.
    pub fn on_this_machine(self) -> SqliteSync {
        self.for_cores(crate::limits::cores())
    }

    /// Its name on the command line (`full-outside-lock`).
    pub fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self)
            .map_or_else(|| format!("{self:?}"), |v| v.get_name().to_string())
    }

    fn pragma(self) -> &'static str {
        match self {
            // Every connection but the writers' (which the committer relaxes) syncs fully.
            SqliteSync::Auto | SqliteSync::Full | SqliteSync::FullOutsideLock => "FULL",
            SqliteSync::Normal => "NORMAL",
        }
    }
}

/// How long a request waits for a pooled connection before it answers 503: short, so that
/// clients hear "unavailable" at once while the database is down.
pub const CONNECTION_TIMEOUT: Duration = Duration::from_secs(1);

/// How long a start waits for its first connection, and for the one it migrates on. Only one is
/// waited for at a time: the pool opens the rest in the background (waiting for all of them
/// within the second above failed starts on a busy machine, where PostgreSQL forks slowly). Ten
/// seconds once failed too, in CI, while the tests copied databases side by side: a start has
/// nothing to answer meanwhile, so it waits half a minute.
pub const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A pooled connection, and when it last answered.
pub struct Pooled {
    pub(super) conn: DbConnection,
    /// When it last answered, and the pool's count of lost connections then; `None` after an
    /// error, so that it is pinged before its next use.
    answered: Option<(Instant, u64)>,
    losses: Arc<AtomicU64>,
    /// Set by the SQLite writers, whose connection commits without syncing (they sync the log
    /// themselves): the pool drops it rather than lend it to anyone else.
    pub(super) relaxed: bool,
}

/// A connection that answered this recently is handed out without a ping first: pinging on every
/// checkout was a third of the statements PostgreSQL ran under load. One that has not (after an
/// error, or idle, or when another connection of the pool was found lost since: an outage cuts
/// them all) is pinged, and dropped from the pool if the ping fails.
const FRESH: Duration = Duration::from_secs(1);

impl Pooled {
    /// Note how a use of the connection ended.
    pub(super) fn settled(&mut self, answered: bool) {
        self.answered = answered.then(|| (Instant::now(), self.losses.load(Ordering::SeqCst)));
    }

    /// Note how a use ended by its outcome: a lost connection makes the pool ping before use; a
    /// refusal (not found, a conflict) says nothing of the connection, which stays as it was.
    pub(super) fn ended<T, E: ConnectionLoss>(&mut self, outcome: &Result<T, E>) {
        match outcome {
            Ok(_) => self.settled(true),
            Err(e) if e.is_connection_loss() => self.lost(),
            Err(_) => {}
        }
    }

    /// This connection failed to answer: every connection of the pool is pinged before its next
    /// use, since whatever cut this one likely cut them all.
    pub(super) fn lost(&mut self) {
        self.answered = None;
        self.losses.fetch_add(1, Ordering::SeqCst);
    }

    fn fresh(&self) -> bool {
        self.answered.is_some_and(|(at, losses)| {
            at.elapsed() < FRESH && losses == self.losses.load(Ordering::SeqCst)
        })
    }
}

impl ManageConnection for Manager {
    type Connection = Pooled;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<Pooled, r2d2::Error> {
        let conn = self.open()?;
        let mut pooled = Pooled {
            conn,
            answered: None,
            losses: self.losses.clone(),
            relaxed: false,
        };
        pooled.settled(true);
        Ok(pooled)
    }

    fn is_valid(&self, pooled: &mut Pooled) -> Result<(), r2d2::Error> {
        if pooled.fresh() {
            return Ok(());
        }
        if let Err(e) = pooled.conn.ping() {
            pooled.lost();
            return Err(r2d2::Error::QueryError(e));
        }
        pooled.settled(true);
        Ok(())
    }

    fn has_broken(&self, pooled: &mut Pooled) -> bool {
        if pooled.relaxed {
            return true;
        }
        let broken = pooled.conn.is_broken();
        if broken {
            pooled.lost();
        }
        broken
    }
}

impl Manager {
    fn open(&self) -> Result<DbConnection, r2d2::Error> {
        match self.backend {
            Backend::Postgresql => PgConnection::establish(&self.url)
                .map(DbConnection::Postgresql)
                .map_err(r2d2::Error::ConnectionError),
            Backend::Sqlite => {
                let path = super::sqlite_path(&self.url);
                let mut conn =
                    SqliteConnection::establish(path).map_err(r2d2::Error::ConnectionError)?;
                // The busy timeout comes first, so that the pragmas after it wait for a lock
                // held by another connection instead of failing (the pool opens several at
                // once). WAL (set once at open) lets readers go on while one writer writes; the
                // checkpoint worker, not the writers' commits, copies the log back. Temporary
                // storage in memory: each writer of a group commit works in a savepoint, whose
                // sub-journal (a copy of each page it changes) SQLite otherwise moves to a
                // temporary file past 64 KiB, and then writes every page copy of the batch to that
                // file while the write turn is held.
                conn.batch_execute(&format!(
                    "PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON; \
                     PRAGMA synchronous = {}; PRAGMA wal_autocheckpoint = {}; \
                     PRAGMA temp_store = MEMORY;",
                    self.sqlite_synchronous.pragma(),
                    super::checkpoints::WRITERS_CHECKPOINT_AT,
                ))
                .map_err(r2d2::Error::QueryError)?;
                Ok(DbConnection::Sqlite(conn))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SqliteSync;

    /// `auto` syncs outside the write lock from 4 cores, inside below; a mode named stays.
    #[test]
    fn auto_syncs_outside_the_lock_on_many_cores_only() {
        assert_eq!(SqliteSync::default(), SqliteSync::Auto);
        for cores in [1, 2, 3] {
            assert_eq!(SqliteSync::Auto.for_cores(cores), SqliteSync::Full);
        }
        for cores in [4, 8, 16, 128] {
            assert_eq!(
                SqliteSync::Auto.for_cores(cores),
                SqliteSync::FullOutsideLock
            );
        }
        for named in [
            SqliteSync::Full,
            SqliteSync::FullOutsideLock,
            SqliteSync::Normal,
        ] {
            assert_eq!(named.for_cores(2), named);
            assert_eq!(named.for_cores(16), named);
        }
        assert_eq!(SqliteSync::FullOutsideLock.name(), "full-outside-lock");
        assert_eq!(SqliteSync::Auto.name(), "auto");
    }
}
