//! Storage: one code path for PostgreSQL and SQLite (a diesel `MultiConnection`), pooled
//! connections, migrations embedded and run at start. All SQL of the project lives below here.

/// `$run` with `$c` bound to the backend's own connection (the expression is compiled once for
/// each backend). For queries diesel runs only on a backend (`ON CONFLICT`), and for those on every
/// move's path: through the `MultiConnection` diesel writes a query's SQL text anew at every run,
/// to collect its binds (some 3% of a SQLite server's CPU under load).
macro_rules! on_backend {
    ($conn:expr, |$c:ident| $run:expr) => {
        match $conn {
            $crate::storage::DbConnection::Postgresql($c) => $run,
            $crate::storage::DbConnection::Sqlite($c) => $run,
        }
    };
}

// The modules below see `on_backend!`, defined above them.
pub mod accounts;
pub mod appends;
pub mod backend;
pub mod backups;
pub mod bulk;
pub mod checkpoints;
pub mod ended_games;
pub mod erasures;
mod error;
pub mod events;
pub mod games;
mod group_commit;
pub use group_commit::WriteTurnStats;
pub mod inbound_mail;
pub mod ladders;
pub mod live_sessions;
pub mod locks;
pub(crate) use locks::lock_until_commit;
pub mod logs;
pub mod mail;
pub mod memo;
mod migrate;
#[cfg(test)]
mod migration_tests;
pub mod moderation;
pub mod notifications;
pub mod oauth;
pub mod pairing;
pub mod passwords;
pub mod plans;
mod pool;
pub mod push;
pub mod ratings;
pub mod reviews;
pub mod schema;
#[cfg(test)]
pub(crate) mod scratch;
pub mod server_secrets;
pub mod shelves;
pub mod social;
pub mod two_factor;
pub mod vacations;
pub mod wakeups;
pub mod webhooks;

pub use backend::Backend;
use backend::{is_in_memory, sqlite_path};
pub use error::{ConnectionLoss, StorageError};
use pool::Manager;
pub use pool::{SqliteSync, CONNECTION_TIMEOUT};

use std::sync::Arc;

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::r2d2::{self, R2D2Connection};
use diesel::result::Error as DieselError;
use diesel::sqlite::SqliteConnection;
use diesel::Connection;

/// How many times in all a PostgreSQL write transaction runs while it is given up for another's
/// sake (a deadlock, a serialization failure): then it answers 503 `contended`.
pub const WRITE_TRIES: u64 = 4;

/// Put a SQLite file in WAL mode. Two processes opening a new file together can find it busy:
/// the switch does not wait on `busy_timeout`, so it is tried again for up to ten seconds.
fn into_wal(conn: &mut SqliteConnection) -> Result<(), StorageError> {
    let mut tries = 0;
    loop {
        match conn.batch_execute("PRAGMA journal_mode = WAL;") {
            Ok(()) => return Ok(()),
            Err(e) if tries < 200 && e.to_string().contains("locked") => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// A connection to either database.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Postgresql(PgConnection),
    Sqlite(SqliteConnection),
}

/// The pool, and what the backend needs to write safely.
#[derive(Clone)]
pub struct Database {
    pool: r2d2::Pool<Manager>,
    backend: Backend,
    /// SQLite allows one writer: writes of this process queue here rather than fail with
    /// SQLITE_BUSY when two transactions try to upgrade their locks, and the writes that queue
    /// up share one commit.
    sqlite_writes: Option<Arc<group_commit::Committer>>,
    /// The time games are played by (events, clocks, deadlines).
    clock: crate::clock::Clock,
    /// Who waits for which game or user, in this process.
    wakeups: Arc<wakeups::Wakeups>,
    /// Topics this process committed whose NOTIFY the notifier has yet to send (PostgreSQL).
    outgoing: Arc<wakeups::Outgoing>,
    /// Decoded game states of this process, by game and version.
    memo: Arc<memo::Memo>,
    /// Sessions this process found live, forgotten when revoked.
    live_sessions: Arc<live_sessions::LiveSessions>,
    /// Games that ended here, their logs not packed yet.
    ended_games: Arc<ended_games::EndedGames>,
    url: Arc<str>,
    /// SQLite: the database file's lock, held shared while this process uses it (until
    /// [`Database::release`]), so that a restore does not replace it underneath.
    in_use: Arc<std::sync::Mutex<Option<std::fs::File>>>,
}

impl Database {
    /// Connect and apply pending migrations (SQLite commits fully synchronous).
    pub fn open(url: &str, pool_size: u32) -> Result<Database, StorageError> {
        Database::open_with(url, pool_size, SqliteSync::Full)
    }

    /// Connect and apply pending migrations; SQLite synced as `sqlite_synchronous` on this
    /// machine (see [`SqliteSync::on_this_machine`]).
    pub fn open_with(
        url: &str,
        pool_size: u32,
        sqlite_synchronous: SqliteSync,
    ) -> Result<Database, StorageError> {
        let backend = Backend::of_url(url);
        let sqlite_synchronous = sqlite_synchronous.on_this_machine();
        let mut in_use = None;
        let mut log = None;
        if backend == Backend::Sqlite {
            let path = sqlite_path(url);
            if let Some(dir) = std::path::Path::new(path).parent() {
                if !dir.as_os_str().is_empty() {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        StorageError::Unavailable(format!("{}: {e}", dir.display()))
                    })?;
                }
            }
            if !is_in_memory(path) {
                in_use = Some(backups::hold_shared(std::path::Path::new(path))?);
            }
            // WAL is a property of the file: set it once, before the pool opens connections
            // side by side.
            let mut first = SqliteConnection::establish(path)
                .map_err(|e| StorageError::Unavailable(e.to_string()))?;
            first.batch_execute("PRAGMA busy_timeout = 10000;")?;
            into_wal(&mut first)?;
            // The writers may sync the log themselves, outside their turn.
            if sqlite_synchronous == SqliteSync::FullOutsideLock {
                log = group_commit::log_file(&mut first)?;
            }
        }
        let pool = r2d2::Pool::builder()
            .max_size(pool_size)
            .connection_timeout(CONNECTION_TIMEOUT)
            .build_unchecked(Manager {
                url: url.to_string(),
                backend,
                sqlite_synchronous,
                losses: Arc::default(),
            });
        pool.get_timeout(pool::START_TIMEOUT)
            .map_err(|e| StorageError::Unavailable(e.to_string()))?;
        let db = Database {
            pool,
            backend,
            sqlite_writes: (backend == Backend::Sqlite)
                .then(|| Arc::new(group_commit::Committer::new(pool_size, log))),
            clock: crate::clock::Clock::system(),
            wakeups: Arc::default(),
            outgoing: Arc::default(),
            memo: Arc::default(),
            ended_games: Arc::default(),
            // On PostgreSQL, revocations on other instances reach this one through the listener:
            // nothing is trusted until it connects.
            live_sessions: Arc::new(live_sessions::LiveSessions::new(backend == Backend::Sqlite)),
            url: url.into(),
            in_use: Arc::new(std::sync::Mutex::new(in_use)),
        };
        db.migrate()?;
        Ok(db)
    }

    /// This process is done with the database (the server stopped): a restore may replace it.
    pub fn release(&self) {
        self.in_use.lock().unwrap_or_else(|p| p.into_inner()).take();
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The same database, its games played by `clock`.
    pub fn with_clock(mut self, clock: crate::clock::Clock) -> Database {
        self.clock = clock;
        self
    }

    /// Now, by the games' clock, in milliseconds since the Unix epoch.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    fn conn(&self) -> Result<r2d2::PooledConnection<Manager>, StorageError> {
        self.pool
            .get()
            .map_err(|e| StorageError::Unavailable(e.to_string()))
    }

    /// Run reads on one connection.
    pub fn read<T, E: From<StorageError> + ConnectionLoss>(
        &self,
        f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        self.on_connection(f)
    }

    /// Run `f` on one pooled connection, as it is (no transaction opened around it).
    fn on_connection<T, E: From<StorageError> + ConnectionLoss>(
        &self,
        f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut pooled = self.conn()?;
        let outcome = f(&mut pooled.conn);
        pooled.ended(&outcome);
        outcome
    }

    /// Run writes in one transaction: all of them or none. Answered once they are committed
    /// (on SQLite, perhaps in one commit with other writers' that queued meanwhile). On
    /// PostgreSQL a transaction given up for another's sake (a deadlock, a serialization
    /// failure) is run again, up to [`WRITE_TRIES`] times in all: `f` may run more than once,
    /// and only its last run's writes stand.
    pub fn write<T, E: From<StorageError> + From<DieselError> + ConnectionLoss>(
        &self,
        f: impl FnMut(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        self.write_guarded(group_commit::Guard::Savepoint, f)
    }

    /// [`Self::write`], with the guard that keeps a failing `f` out of its SQLite batch.
    fn write_guarded<T, E: From<StorageError> + From<DieselError> + ConnectionLoss>(
        &self,
        guard: group_commit::Guard,
        mut f: impl FnMut(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        wakeups::take_touched();
        let outcome = match &self.sqlite_writes {
            Some(committer) => committer.write(|| self.conn(), guard, f),
            None => {
                let mut tries = 1;
                loop {
                    let mut pooled = self.conn()?;
                    let outcome = pooled.conn.transaction(&mut f);
                    pooled.ended(&outcome);
                    match outcome {
                        Err(e) if e.is_contention() && tries < WRITE_TRIES => {
                            crate::warn_throttled!(
                                tries,
                                "a write transaction met another (a deadlock, a serialization failure): running it again"
                            );
                            // What the given-up run touched was rolled back.
                            wakeups::take_touched();
                            // The other transaction goes on meanwhile.
                            std::thread::sleep(std::time::Duration::from_millis(5 * tries));
                            tries += 1;
                        }
                        outcome => break outcome,
                    }
                }
            }
        };
        self.committed(outcome.is_ok());
        outcome
    }

    /// After a write: wake the waiters of what it touched, if it committed.
    fn committed(&self, ok: bool) {
        let touched = wakeups::take_touched();
        if !ok {
            return;
        }
        if self.backend == Backend::Sqlite {
            for topic in touched {
                self.notified(topic);
            }
            return;
        }
        // PostgreSQL: every instance's listener hears of it, this one's too, once the notifier
        // has sent it. A revoked session is forgotten here at once (its NOTIFY is sent by a
        // trigger in the revoking transaction).
        let (sessions, topics): (Vec<_>, Vec<_>) = touched
            .into_iter()
            .partition(|t| matches!(t, wakeups::Topic::Sessions(_)));
        for topic in sessions {
            self.notified(topic);
        }
        // A renaming is forgotten here at once too, and told to the others by the notifier.
        for &topic in &topics {
            if matches!(topic, wakeups::Topic::Renamed(_)) {
                self.notified(topic);
            }
        }
        self.outgoing.add(topics);
    }

    /// Run `f`, whose changes are atomic by themselves (a storage function that says so, such as
    /// [`appends::append`]: on PostgreSQL one statement; on SQLite statements whose first is the
    /// guard, so that a failing `f` wrote nothing): on PostgreSQL with no transaction around it,
    /// which spares the BEGIN and COMMIT round trips; on SQLite with no savepoint of its own in
    /// its batch (an `f` that fails after a change fails its batch instead).
    pub fn write_atomic<T, E: From<StorageError> + From<DieselError> + ConnectionLoss>(
        &self,
        f: impl FnMut(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        if self.backend == Backend::Sqlite {
            return self.write_guarded(group_commit::Guard::FailsUnwritten, f);
        }
        wakeups::take_touched();
        let outcome = self.on_connection(f);
        self.committed(outcome.is_ok());
        outcome
    }

    /// A commit of any instance touched `topic` (PostgreSQL: what the listener received).
    pub fn notified(&self, topic: wakeups::Topic) {
        match topic {
            wakeups::Topic::Sessions(user_id) => self.live_sessions.forget_user(user_id),
            wakeups::Topic::Renamed(_) => self.memo.clear(),
            topic => self.wakeups.wake(topic),
        }
    }

    /// The listener (PostgreSQL) has connected: what was committed while no one listened is
    /// unknown, so every waiter looks again and every remembered session is read again.
    pub fn listening(&self) {
        self.live_sessions.trust();
        // A renaming may have gone unheard as well.
        self.memo.clear();
        self.wakeups.wake_all();
    }

    /// The listener lost its connection: revocations of other instances would go unheard.
    pub fn not_listening(&self) {
        self.live_sessions.distrust();
    }

    /// The pool's connections: (open, idle), for the metrics.
    pub fn pool_use(&self) -> (u32, u32) {
        let state = self.pool.state();
        (state.connections, state.idle_connections)
    }

    /// Games that ended in this process, waiting for the packing worker.
    pub fn ended_games(&self) -> &ended_games::EndedGames {
        &self.ended_games
    }

    /// Who waits for which game or user in this process.
    pub fn wakeups(&self) -> &wakeups::Wakeups {
        &self.wakeups
    }

    /// This process's decoded game states, by game and version.
    pub fn memo(&self) -> &memo::Memo {
        &self.memo
    }

    /// Sessions this process found live.
    pub fn live_sessions(&self) -> &live_sessions::LiveSessions {
        &self.live_sessions
    }

    /// A listener for the commits of every instance (PostgreSQL); `None` on SQLite, whose
    /// commits all happen in this process.
    pub fn listener(&self) -> Option<Result<wakeups::Listener, StorageError>> {
        (self.backend == Backend::Postgresql).then(|| wakeups::Listener::connect(&self.url))
    }

    /// Topics committed here whose NOTIFY is yet to be sent (PostgreSQL).
    pub fn outgoing(&self) -> &wakeups::Outgoing {
        &self.outgoing
    }

    /// A connection that sends this instance's wake-ups (PostgreSQL); `None` on SQLite.
    pub fn notifier(&self) -> Option<Result<wakeups::Notifier, StorageError>> {
        (self.backend == Backend::Postgresql).then(|| wakeups::Notifier::connect(&self.url))
    }

    /// A connection for the checkpoint worker: `None` on PostgreSQL, and for an in-memory SQLite
    /// database, which has no log.
    pub fn checkpointer(&self) -> Option<Result<checkpoints::Checkpointer, StorageError>> {
        let path = sqlite_path(&self.url);
        let in_memory = is_in_memory(path);
        (self.backend == Backend::Sqlite && !in_memory)
            .then(|| checkpoints::Checkpointer::connect(path))
    }

    /// `/readyz`: the database answers.
    pub fn ping(&self) -> Result<(), StorageError> {
        let mut pooled = self.conn()?;
        // A connection that cannot answer a ping means the database is unavailable, whatever
        // words the failure came in.
        if let Err(e) = pooled.conn.ping() {
            pooled.lost();
            return Err(StorageError::Unavailable(e.to_string()));
        }
        pooled.settled(true);
        Ok(())
    }
}

/// Refresh the query planner's statistics (`ANALYZE`, on both backends), after a bulk load: before
/// PostgreSQL's autovacuum would get to it (a freshly seeded database answered a third as many
/// reads without), and on SQLite, which keeps none until asked.
pub fn analyze(conn: &mut DbConnection) -> Result<(), StorageError> {
    use diesel::connection::SimpleConnection;
    conn.batch_execute("ANALYZE")?;
    Ok(())
}

/// Milliseconds since the Unix epoch: the time type of every table.
pub fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
