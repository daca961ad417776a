//! SQLite's WAL checkpoints, taken out of the writers' commits.
//!
//! A commit appends its pages to the write-ahead log; a checkpoint copies the log's pages back
//! into the database file. SQLite checkpoints by itself in the connection whose commit takes the
//! log past `wal_autocheckpoint` pages (1,000 by default), so every few batches one writer held
//! the write turn while it copied some thousand pages and synced the file, and every other
//! writer waited. Here a connection of the checkpoint worker's own copies them instead, often
//! and beside the writers (`PASSIVE`: it never waits for a lock and never blocks a writer). The
//! writers' own threshold ([`WRITERS_CHECKPOINT_AT`]) stays as a backstop: where no worker runs
//! (a command-line tool), and under continuous writes, where the log seldom finds the moment to
//! start again from its beginning (a write must begin with all of it copied) and grows to the
//! threshold; the writer's checkpoint is cheap then, the worker having copied most of it.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::Integer;
use diesel::sqlite::SqliteConnection;

use super::StorageError;

/// The log's length (pages, some 40 MB of 4 KB pages) at which a writer's commit checkpoints by
/// itself: ten times SQLite's default, far above what the log gathers between two passes of the
/// checkpoint worker.
pub const WRITERS_CHECKPOINT_AT: u32 = 10_000;

/// What one checkpoint did, as `PRAGMA wal_checkpoint` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, QueryableByName)]
pub struct Checkpointed {
    /// 1 when another checkpoint was running and this one did nothing.
    #[diesel(sql_type = Integer)]
    pub busy: i32,
    /// Pages in the log.
    #[diesel(sql_type = Integer, column_name = log)]
    pub log_pages: i32,
    /// Pages of the log now copied into the database file.
    #[diesel(sql_type = Integer, column_name = checkpointed)]
    pub copied_pages: i32,
}

/// A connection of its own to a SQLite file, that checkpoints its log.
pub struct Checkpointer {
    conn: SqliteConnection,
}

impl Checkpointer {
    /// Connect to the SQLite file at `path`.
    pub(super) fn connect(path: &str) -> Result<Checkpointer, StorageError> {
        let mut conn = SqliteConnection::establish(path)
            .map_err(|e| StorageError::Unavailable(e.to_string()))?;
        // Its own commits (none) never checkpoint; a busy timeout for the pragma's read lock.
        conn.batch_execute("PRAGMA busy_timeout = 1000; PRAGMA wal_autocheckpoint = 0;")?;
        Ok(Checkpointer { conn })
    }

    /// Copy into the database file what the log holds that no reader still needs, without
    /// waiting for any lock (`PASSIVE`).
    pub fn checkpoint(&mut self) -> Result<Checkpointed, StorageError> {
        Ok(diesel::sql_query("PRAGMA wal_checkpoint(PASSIVE)").get_result(&mut self.conn)?)
    }
}
