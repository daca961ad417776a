//! Group commit for SQLite: writers that queue up while one writes share its transaction, each
//! kept apart from the others' work by its guard (`guard.rs`), and one commit (one sync to disk)
//! makes all of them durable.
//!
//! SQLite takes one writer at a time, and a durable commit waits for the disk, so committing each
//! move on its own caps the rate at one move per sync. Here a writer that finds others waiting
//! leaves the transaction open for the next; the writer that finds nobody waiting (or the batch
//! full) commits it. Nobody is answered before the commit that holds their change: a writer whose
//! work succeeded waits for its batch's commit, and if that commit fails, every writer of the batch
//! gets the error, as if each had committed alone and failed. A writer whose work failed left
//! nothing of itself in the batch: its savepoint was rolled back, or (a move's append, which needs
//! none) it failed before writing; one that failed having written fails its batch. It too is
//! answered once its batch has settled: its refusal may rest on what the batch's earlier writers
//! wrote, which a retry must be able to read.
//!
//! With `--sqlite-synchronous full-outside-lock` the sync to disk is made outside the turn (issue
//! 50). At `synchronous = FULL` SQLite syncs the log inside the commit, while the write lock is
//! held: more than half the time the turn was held went to waiting for the disk. Here the
//! writers' connection commits at `NORMAL` (the log's pages
//! reach the operating system, not yet the disk), the turn passes to the next batch, and then the
//! log file is synced; a sync covers every batch committed before it began, so one sync at a
//! time serves all the batches that committed meanwhile. Nobody is answered before a sync that
//! covers their batch: an acknowledged write survives a power loss exactly as at `FULL`.
//! Checkpoints still sync the log before copying it and the database file after (`NORMAL` does).
//! What is not as at `FULL`: for the moment of the sync, readers may see a batch the disk does
//! not hold yet (a power loss then would take back what they saw, never what a writer was told).
//! A sync that fails leaves the disk's state unknown (the kernel may drop the pages it could not
//! write): every later write is refused until the server is restarted, as PostgreSQL does.

use std::collections::VecDeque;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

use diesel::connection::{
    AnsiTransactionManager, Connection, SimpleConnection, TransactionManager,
};
use diesel::prelude::*;
use diesel::r2d2::PooledConnection;
use diesel::result::Error as DieselError;
use diesel::sql_types::Text;
use diesel::sqlite::SqliteConnection;

use super::pool::Pooled;
use super::{DbConnection, Manager, StorageError};
pub use clock::WriteTurnStats;
use clock::{Holding, TurnClock};
pub(super) use guard::Guard;
use guard::Guarded;

/// Writers after which a batch commits even with others queued: the first of a batch waits for
/// the others' work. (A batch left open for a sync in progress takes whoever comes until it ends.)
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
    /// SQLite's log (`<database>-wal`), synced outside the turn after each commit
    /// (`full-outside-lock`); `None` where SQLite syncs inside the commit (`full`), where no
    /// commit waits for the disk (`normal`), and in memory.
    log: Option<PathBuf>,
    /// The last batch committed (into the log; durable once a sync that began after it ends).
    committed: AtomicU64,
    /// Held while the log is synced: one sync at a time, each covering every batch committed
    /// before it began.
    syncing: Mutex<()>,
    /// How long the turn has been held, and by what: the serial section's share of the time.
    clock: TurnClock,
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
    /// The open batch waits for the log's sync in progress, its committer named: the writers
    /// who join it leave the commit to that one.
    deferred: bool,
}

#[derive(Default)]
struct Outcomes {
    /// Batches up to this one are settled: committed, and synced where the log is synced apart.
    settled: u64,
    /// The latest batches whose commit failed, and why.
    failed: VecDeque<(u64, String)>,
    /// Why a sync of the log failed: from then on no write is known to be durable.
    sync_failed: Option<String>,
}

/// Failed batches remembered for the writers still to hear of them.
const FAILURES_KEPT: usize = 256;

impl Committer {
    /// The committer of a database whose pool holds `pool_size` connections; `log`: the log file
    /// to sync after each commit, outside the turn (commits themselves then do not sync).
    pub(super) fn new(pool_size: u32, log: Option<PathBuf>) -> Committer {
        Committer {
            keeps_connection: pool_size > 1,
            log,
            ..Committer::default()
        }
    }

    fn lock_turn(&self) -> MutexGuard<'_, Turn> {
        self.turn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// What the turn has done since the start.
    pub(super) fn stats(&self) -> WriteTurnStats {
        self.clock.stats()
    }

    /// Hold the turn with no transaction open (for migrations).
    pub(super) fn exclusive(&self) -> MutexGuard<'_, Turn> {
        self.lock_turn()
    }

    /// Run `f` in the current batch's transaction (opening one with a connection from `connect`
    /// if none is open), kept apart from the other writers' work by `guard`, and return its
    /// result once the batch holding it has committed (and its log is synced, where the committer
    /// syncs it).
    pub(super) fn write<T, E: From<StorageError> + From<DieselError>>(
        &self,
        connect: impl FnOnce() -> Result<PooledConnection<Manager>, StorageError>,
        guard: Guard,
        f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Result<T, E> {
        self.queued.fetch_add(1, Ordering::SeqCst);
        let mut turn = self.lock_turn();
        let holding = Holding::write(&self.clock);
        self.queued.fetch_sub(1, Ordering::SeqCst);
        if let Some(why) = self.lock_outcomes().sync_failed.clone() {
            return Err(StorageError::Unavailable(format!(
                "the database's log could not be synced ({why}): restart the server"
            ))
            .into());
        }
        if turn.open.is_none() {
            let mut pooled = match turn.kept.take() {
                Some(kept) => kept,
                None => {
                    let mut pooled = connect()?;
                    if self.log.is_some() {
                        commit_without_sync(&mut pooled)?;
                    }
                    pooled
                }
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
        let outcome = catch_unwind(AssertUnwindSafe(|| guard.run(&mut pooled.conn, f)));
        let outcome = match outcome {
            Ok(Guarded::Kept(outcome)) => outcome,
            Ok(Guarded::Spoiled(outcome)) => {
                // A writer that failed having changed rows, unguarded: its changes cannot be
                // taken out of the batch, so the batch fails; none of its writers has been answered.
                let _ = self.settle(
                    &mut turn,
                    batch,
                    Err("a writer of this batch failed midway"),
                );
                return outcome;
            }
            Err(panic) => {
                // Nothing is known of the transaction after a panic: the batch fails.
                let _ = self.settle(&mut turn, batch, Err("a writer of this batch panicked"));
                resume_unwind(panic)
            }
        };
        let last = self.queued.load(Ordering::SeqCst) == 0 || turn.members >= MAX_BATCH;
        if last && !turn.deferred {
            let committed = self.commit_batch(turn, holding, batch);
            return match (outcome, committed) {
                (Ok(value), Ok(())) => Ok(value),
                (Err(e), _) => Err(e),
                (Ok(_), Err(e)) => Err(e.into()),
            };
        }
        drop(holding);
        drop(turn);
        match outcome {
            Ok(value) => {
                self.wait_for(batch)?;
                Ok(value)
            }
            // A refusal may rest on what the batch's earlier writers wrote (a stale append's
            // version, a taken name), which readers see only once it commits: answered before,
            // a retry would read the old row and meet the same write again (fifty resigns in a
            // row lost that way while bots moved). Whatever the batch's fate, this one failed.
            Err(e) => {
                let _ = self.wait_for(batch);
                Err(e)
            }
        }
    }

    /// Commit the open batch, `batch`, and make it durable; the turn is this writer's.
    ///
    /// While the log is being synced, the batch is not committed at once but left open to the
    /// writers who come meanwhile: its own sync could not begin before that one ends, and a
    /// commit of more writers at once writes each shared page (the tables' and indexes' upper
    /// pages, the games row's page) to the log once. Committing at once made batches half as
    /// large and cost 10% of the moves on 2 cores.
    fn commit_batch<'a>(
        &'a self,
        mut turn: MutexGuard<'a, Turn>,
        mut holding: Holding<'a>,
        batch: u64,
    ) -> Result<(), StorageError> {
        // With the sync outside the lock, this batch's sync is made by this writer.
        let syncing = match self.log.as_ref().map(|_| self.syncing.try_lock()) {
            None => None,
            Some(Ok(free)) => Some(free),
            Some(Err(std::sync::TryLockError::Poisoned(p))) => Some(p.into_inner()),
            Some(Err(std::sync::TryLockError::WouldBlock)) => {
                turn.deferred = true;
                drop(holding);
                drop(turn);
                let free = self.syncing.lock().unwrap_or_else(|p| p.into_inner());
                turn = self.lock_turn();
                holding = Holding::start(&self.clock, false);
                // A writer of the batch that panicked meanwhile rolled it back and said so.
                if turn.open.is_none() || turn.batch != batch {
                    drop(holding);
                    drop(turn);
                    drop(free);
                    return self.wait_for(batch);
                }
                Some(free)
            }
        };
        let committed = self.settle(&mut turn, batch, Ok(()));
        drop(holding);
        drop(turn);
        if committed.is_ok() && self.log.is_none() {
            // The batch's writers wait for this: woken once the turn has passed on, so that
            // waking them is not part of the serial section.
            self.settled.notify_all();
        }
        match syncing {
            None => committed,
            Some(free) => committed.and_then(|()| self.sync_log(free, batch)),
        }
    }

    /// Commit the open batch (or, when `commit` says why not, roll it back); tell its writers if
    /// it failed, and record it settled if it is durable with its commit (the log not synced
    /// apart; the caller wakes them).
    fn settle(
        &self,
        turn: &mut Turn,
        batch: u64,
        commit: Result<(), &str>,
    ) -> Result<(), StorageError> {
        turn.deferred = false;
        let result = match turn.open.take() {
            None => Ok(()),
            Some(mut pooled) => {
                let done = if let Err(why) = commit {
                    Err(StorageError::Unavailable(why.into()))
                } else {
                    let since = Instant::now();
                    let done =
                        Txn::commit_transaction(&mut pooled.conn).map_err(StorageError::from);
                    let nanos = since.elapsed().as_nanos() as u64;
                    self.clock.commit_nanos.fetch_add(nanos, Ordering::Relaxed);
                    self.clock.batches.fetch_add(1, Ordering::Relaxed);
                    done
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
        // Told before the turn passes on: no later batch's sync may settle this one first.
        let mut outcomes = self.lock_outcomes();
        match &result {
            Err(e) => {
                if outcomes.failed.len() >= FAILURES_KEPT {
                    outcomes.failed.pop_front();
                }
                outcomes.failed.push_back((batch, e.to_string()));
            }
            Ok(()) if self.log.is_none() => outcomes.settled = outcomes.settled.max(batch),
            // Durable only once synced: nobody is to be woken yet.
            Ok(()) => self.committed.store(batch, Ordering::SeqCst),
        }
        // A success is told by the caller, after the turn (see `commit_batch`).
        if result.is_err() {
            self.settled.notify_all();
        }
        result
    }

    /// Make `batch`, committed, durable: sync the log unless a sync that began after its commit
    /// already has, and tell every batch that sync covers. `_one_at_a_time` is the syncing
    /// lock, held until the sync ends.
    fn sync_log(&self, _one_at_a_time: MutexGuard<'_, ()>, batch: u64) -> Result<(), StorageError> {
        let Some(log) = &self.log else {
            return Ok(());
        };
        {
            let outcomes = self.lock_outcomes();
            if outcomes.settled >= batch {
                return Ok(());
            }
            if let Some(why) = &outcomes.sync_failed {
                return Err(StorageError::Unavailable(format!("syncing the log: {why}")));
            }
        }
        // Every batch up to here has its pages in the log: this sync covers them all.
        let covered = self.committed.load(Ordering::SeqCst);
        let since = Instant::now();
        let synced = match std::fs::File::open(log) {
            Ok(file) => file.sync_data(),
            // No log: SQLite removed it after copying it all into the database file, syncing
            // that (a checkpoint does), when its last connection closed.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        };
        let nanos = since.elapsed().as_nanos() as u64;
        self.clock.sync_nanos.fetch_add(nanos, Ordering::Relaxed);
        self.clock.syncs.fetch_add(1, Ordering::Relaxed);
        let mut outcomes = self.lock_outcomes();
        let result = match synced {
            Ok(()) => {
                outcomes.settled = outcomes.settled.max(covered);
                Ok(())
            }
            Err(e) => {
                outcomes.sync_failed = Some(e.to_string());
                Err(StorageError::Unavailable(format!("syncing the log: {e}")))
            }
        };
        self.settled.notify_all();
        result
    }

    fn lock_outcomes(&self) -> MutexGuard<'_, Outcomes> {
        self.outcomes.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Wait until `batch` is settled: Ok if it committed and is durable.
    fn wait_for(&self, batch: u64) -> Result<(), StorageError> {
        let mut outcomes = self.lock_outcomes();
        loop {
            if let Some((_, why)) = outcomes.failed.iter().find(|(failed, _)| *failed == batch) {
                return Err(StorageError::Unavailable(format!("commit failed: {why}")));
            }
            if outcomes.settled >= batch {
                return Ok(());
            }
            if let Some(why) = &outcomes.sync_failed {
                return Err(StorageError::Unavailable(format!("syncing the log: {why}")));
            }
            outcomes = self
                .settled
                .wait(outcomes)
                .unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// The log file of the database `conn` is connected to, as SQLite names it (`None` in memory).
pub(super) fn log_file(conn: &mut SqliteConnection) -> Result<Option<PathBuf>, StorageError> {
    #[derive(QueryableByName)]
    struct Main {
        #[diesel(sql_type = Text)]
        file: String,
    }
    let main: Main = diesel::sql_query("SELECT file FROM pragma_database_list WHERE name = 'main'")
        .get_result(conn)?;
    Ok((!main.file.is_empty()).then(|| PathBuf::from(format!("{}-wal", main.file))))
}

/// Let the writers' connection commit without waiting for the disk (`synchronous = NORMAL`):
/// the committer syncs the log itself, outside the turn. Such a connection never goes back to
/// the pool for others to use (see [`Pooled::relaxed`]).
fn commit_without_sync(pooled: &mut Pooled) -> Result<(), DieselError> {
    if let DbConnection::Sqlite(conn) = &mut pooled.conn {
        conn.batch_execute("PRAGMA synchronous = NORMAL")?;
        pooled.relaxed = true;
    }
    Ok(())
}

impl super::Database {
    /// What SQLite's write turn has done in this process (`None` on PostgreSQL, which has none).
    pub fn write_turn_stats(&self) -> Option<WriteTurnStats> {
        self.sqlite_writes.as_ref().map(|c| c.stats())
    }
}

mod clock;
mod guard;
#[cfg(test)]
mod tests;
