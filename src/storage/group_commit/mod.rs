//! Group commit for SQLite: writers that queue up while one writes share its transaction, each in
//! a savepoint of its own, and one commit (one sync to disk) makes all of them durable.
//!
//! SQLite takes one writer at a time, and a durable commit waits for the disk, so committing each
//! move on its own caps the rate at one move per sync. Here a writer that finds others waiting
//! leaves the transaction open for the next; the writer that finds nobody waiting (or the batch
//! full) commits it. Nobody is answered before the commit that holds their change: a writer whose
//! work succeeded waits for its batch's commit, and if that commit fails, every writer of the batch
//! gets the error, as if each had committed alone and failed. A writer whose work failed had its
//! savepoint rolled back, and nothing of it is in the batch.

use std::collections::VecDeque;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

use diesel::connection::{AnsiTransactionManager, Connection, TransactionManager};
use diesel::r2d2::PooledConnection;
use diesel::result::Error as DieselError;

use super::{DbConnection, Manager, StorageError};

/// Writers per transaction at most: the first of a batch waits for the others' work.
const MAX_BATCH: usize = 64;

type Txn = <DbConnection as Connection>::TransactionManager;

/// Open a batch's transaction holding SQLite's write lock from the start (`BEGIN IMMEDIATE`),
/// waiting for it (busy_timeout) while another process writes, such as a command-line tool
/// beside the server. A deferred `BEGIN` would read first and fail at its first write with
/// "database is locked" when that process had committed meanwhile, without waiting.
fn begin_immediate(conn: &mut DbConnection) -> Result<(), DieselError> {
    match conn {
        DbConnection::Sqlite(c) => {
            AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE")
        }
        conn => Txn::begin_transaction(conn),
    }
}

/// The write side of one SQLite database in this process.
#[derive(Default)]
pub(super) struct Committer {
    /// Whether the writers' connection stays with them between batches (see [`Turn::kept`]):
    /// not when it is the pool's only one, which readers need too.
    keeps_connection: bool,
    /// The writer whose turn it is holds this: writes run one at a time.
    turn: Mutex<Turn>,
    /// Writers waiting for their turn.
    queued: AtomicUsize,
    /// The outcome of the batches committed so far, for the writers waiting on them.
    outcomes: Mutex<Outcomes>,
    settled: Condvar,
}

#[derive(Default)]
pub(super) struct Turn {
    /// The connection whose transaction the current batch fills, if one is open.
    open: Option<PooledConnection<Manager>>,
    /// The writers' connection between batches, kept out of the pool: SQLite drops a
    /// connection's page cache when another connection has written, so writing always on the
    /// same one keeps the pages it writes to (the tables' and indexes' inner pages, the tail of
    /// the log) cached from one batch to the next.
    kept: Option<PooledConnection<Manager>>,
    /// The current batch's number and how many writers it holds.
    batch: u64,
    members: usize,
}

#[derive(Default)]
struct Outcomes {
    /// Batches up to this one are settled.
    settled: u64,
    /// The latest batches whose commit failed, and why.
    failed: VecDeque<(u64, String)>,
}

/// Failed batches remembered for the writers still to hear of them.
const FAILURES_KEPT: usize = 256;

impl Committer {
    /// The committer of a database whose pool holds `pool_size` connections.
    pub(super) fn new(pool_size: u32) -> Committer {
        Committer {
            keeps_connection: pool_size > 1,
            ..Committer::default()
        }
    }

    fn lock_turn(&self) -> MutexGuard<'_, Turn> {
        self.turn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Hold the turn with no transaction open (for migrations).
    pub(super) fn exclusive(&self) -> MutexGuard<'_, Turn> {
        self.lock_turn()
    }

    /// Run `f` in the current batch's transaction (opening one with a connection from `connect`
    /// if none is open), and return its result once the batch holding it has committed.
    pub(super) fn write<T, E: From<StorageError> + From<DieselError>>(
        &self,
        connect: impl FnOnce() -> Result<PooledConnection<Manager>, StorageError>,
        f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        self.queued.fetch_add(1, Ordering::SeqCst);
        let mut turn = self.lock_turn();
        self.queued.fetch_sub(1, Ordering::SeqCst);
        if turn.open.is_none() {
            let mut pooled = match turn.kept.take() {
                Some(kept) => kept,
                None => connect()?,
            };
            begin_immediate(&mut pooled.conn)?;
            turn.open = Some(pooled);
            turn.batch += 1;
            turn.members = 0;
        }
        let batch = turn.batch;
        turn.members += 1;
        let Some(pooled) = turn.open.as_mut() else {
            return Err(StorageError::Unavailable("no open transaction".into()).into());
        };
        // A nested transaction is a savepoint: a failure undoes this writer's work only.
        let outcome = catch_unwind(AssertUnwindSafe(|| pooled.conn.transaction(f)));
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(panic) => {
                // Nothing is known of the transaction after a panic: the batch fails.
                let _ = self.settle(&mut turn, batch, false);
                resume_unwind(panic)
            }
        };
        let last = self.queued.load(Ordering::SeqCst) == 0 || turn.members >= MAX_BATCH;
        if last {
            let committed = self.settle(&mut turn, batch, true);
            drop(turn);
            return match (outcome, committed) {
                (Ok(value), Ok(())) => Ok(value),
                (Err(e), _) => Err(e),
                (Ok(_), Err(e)) => Err(e.into()),
            };
        }
        drop(turn);
        let value = outcome?;
        self.wait_for(batch)?;
        Ok(value)
    }

    /// Commit (or, when `commit` is false, roll back) the open batch and tell its writers.
    fn settle(&self, turn: &mut Turn, batch: u64, commit: bool) -> Result<(), StorageError> {
        let result = match turn.open.take() {
            None => Ok(()),
            Some(mut pooled) => {
                let done = if commit {
                    Txn::commit_transaction(&mut pooled.conn).map_err(StorageError::from)
                } else {
                    Err(StorageError::Unavailable(
                        "a writer of this batch panicked".into(),
                    ))
                };
                if done.is_err() {
                    // Leave no half transaction on a pooled connection.
                    let _ = Txn::rollback_transaction(&mut pooled.conn);
                }
                pooled.settled(done.is_ok());
                // A connection whose commit failed goes back to the pool, which checks it.
                if done.is_ok() && self.keeps_connection {
                    turn.kept = Some(pooled);
                }
                done
            }
        };
        let mut outcomes = self.outcomes.lock().unwrap_or_else(|p| p.into_inner());
        outcomes.settled = batch;
        if let Err(e) = &result {
            if outcomes.failed.len() >= FAILURES_KEPT {
                outcomes.failed.pop_front();
            }
            outcomes.failed.push_back((batch, e.to_string()));
        }
        self.settled.notify_all();
        result
    }

    /// Wait until `batch` is settled: Ok if it committed.
    fn wait_for(&self, batch: u64) -> Result<(), StorageError> {
        let mut outcomes = self.outcomes.lock().unwrap_or_else(|p| p.into_inner());
        while outcomes.settled < batch {
            outcomes = self
                .settled
                .wait(outcomes)
                .unwrap_or_else(|p| p.into_inner());
        }
        match outcomes.failed.iter().find(|(failed, _)| *failed == batch) {
            Some((_, why)) => Err(StorageError::Unavailable(format!("commit failed: {why}"))),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::storage::accounts::{insert_user, user_by_name};
    use crate::storage::scratch::ScratchFile;
    use crate::storage::{Database, StorageError};

    /// Writers on many threads at once: every writer answered Ok has its row, committed; a
    /// writer whose work failed has none, and the writers batched with it keep theirs.
    #[test]
    fn queued_writers_share_commits_and_a_failed_one_leaves_nothing() {
        let file = ScratchFile::new("group-commit", "writes.db");
        let db = Database::open(file.path(), 8).expect("a database");
        std::thread::scope(|scope| {
            for thread in 0..8 {
                let db = &db;
                scope.spawn(move || {
                    for i in 0..40 {
                        let failing = i % 10 == 3;
                        let written = db.write(|c| {
                            insert_user(c, &format!("writer-{thread}-{i}"), "!", false, 0)?;
                            if failing {
                                return Err(StorageError::Conflict);
                            }
                            Ok(())
                        });
                        assert_eq!(written.is_ok(), !failing, "{thread}/{i}: {written:?}");
                    }
                });
            }
        });
        // Read back through a connection of its own: only what was committed is there.
        let reader = Database::open(file.path(), 1).expect("a database");
        for thread in 0..8 {
            for i in 0..40 {
                let name = format!("writer-{thread}-{i}");
                let found = reader
                    .read(|c| user_by_name(c, &name))
                    .expect("a read")
                    .is_some();
                assert_eq!(found, i % 10 != 3, "{name}");
            }
        }
    }

    /// The writers keep their connection between batches; what another process (here another
    /// pool on the same file) committed meanwhile is still what they read and write on.
    #[test]
    fn the_kept_writer_connection_sees_what_another_process_wrote() {
        let file = ScratchFile::new("kept-writer", "kept.db");
        let path = file.path();
        let server = Database::open(path, 4).expect("a database");
        let tool = Database::open(path, 2).expect("the same database");
        server
            .write(|c| insert_user(c, "first", "!", false, 0))
            .expect("a write");
        tool.write(|c| insert_user(c, "by-the-tool", "!", false, 0))
            .expect("a write beside it");
        let seen = server
            .write(|c| {
                let seen = user_by_name(c, "by-the-tool")?.is_some();
                insert_user(c, "after", "!", false, 0)?;
                Ok::<_, StorageError>(seen)
            })
            .expect("a write after it");
        assert!(seen, "the kept connection reads the other process's commit");
        let after = tool.read(|c| user_by_name(c, "after")).expect("a read");
        assert!(after.is_some(), "and its own write after it is committed");
    }

    /// A writer's savepoint keeps its sub-journal in memory, however many pages it changes:
    /// SQLite would otherwise move it to a temporary file past 64 KiB, and every page copy of
    /// the batch's later writers would be a file write made while the write turn is held.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_writers_savepoint_journals_in_memory() {
        use diesel::connection::SimpleConnection;

        /// SQLite's temporary files this process holds open (they are unlinked at once, so only
        /// their open descriptors show them).
        fn open_temporary_files() -> Vec<String> {
            std::fs::read_dir("/proc/self/fd")
                .map(|fds| {
                    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
                        .map(|target| target.to_string_lossy().into_owned())
                        .filter(|target| target.contains("etilqs_"))
                        .collect()
                })
                .unwrap_or_default()
        }

        let file = ScratchFile::new("sub-journal", "journal.db");
        let db = Database::open(file.path(), 4).expect("a database");
        // Some 100 pages of 4 KiB, committed: a savepoint that changes them all copies each.
        db.write(|c| {
            c.batch_execute(
                "CREATE TABLE scratch (id INTEGER PRIMARY KEY, filler TEXT NOT NULL); \
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) \
                 INSERT INTO scratch SELECT i, printf('%.1000c', 'x') FROM n;",
            )?;
            Ok::<_, StorageError>(())
        })
        .expect("a table of some 100 pages");
        let seen = db
            .write(|c| {
                c.batch_execute("UPDATE scratch SET filler = printf('%.1000c', 'y');")?;
                Ok::<_, StorageError>(open_temporary_files())
            })
            .expect("a write changing every page");
        assert_eq!(seen, Vec::<String>::new(), "the sub-journal went to a file");
    }

    /// A pool of one connection (an in-memory database) lends it back after each batch: reads
    /// after a write still get it.
    #[test]
    fn a_pool_of_one_is_not_kept_by_the_writers() {
        let db = Database::open(":memory:", 1).expect("an in-memory database");
        db.write(|c| insert_user(c, "only", "!", false, 0))
            .expect("a write");
        let found = db
            .read(|c| user_by_name(c, "only"))
            .expect("a read after it");
        assert!(found.is_some());
    }

    /// The bundled SQLite is built with the query planner stability guarantee
    /// (`.cargo/config.toml`): without it statements with `LIMIT ?` are compiled at every run.
    #[test]
    fn the_bundled_sqlite_keeps_its_plans_stable() {
        let db = Database::open(":memory:", 1).expect("an in-memory database");
        assert_eq!(db.sqlite_plans_stable().expect("asked"), Some(true));
    }
}
