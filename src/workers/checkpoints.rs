//! The checkpoint worker (SQLite): copies the write-ahead log back into the database file every
//! [`EVERY`], on a connection of its own, so that no writer's commit has to while the others
//! wait for the write turn (see `storage::checkpoints`).

use std::time::Duration;

use super::{kept_connection, Workers, RECONNECT_AFTER};
use crate::storage::Database;

/// How often the log is checkpointed: at some 16,000 pages a second (SQLite's most, here) the log
/// holds about 1,600 pages between two passes, far below the writers' own threshold.
pub const EVERY: Duration = Duration::from_millis(100);

/// Start the checkpoint worker; nothing to do on PostgreSQL or an in-memory database.
pub fn spawn(workers: &Workers, db: Database) -> std::io::Result<()> {
    let Some(first) = db.checkpointer() else {
        return Ok(());
    };
    let mut checkpointer = first
        .map_err(|e| tracing::warn!(error = %e, "the checkpoint worker cannot connect yet"))
        .ok();
    workers.spawn("wal-checkpoints", move || {
        let c = match kept_connection(&mut checkpointer, "wal-checkpoints", || db.checkpointer()) {
            Ok((c, _)) => c,
            Err(rest) => return rest,
        };
        match c.checkpoint() {
            Ok(_) => EVERY,
            Err(e) => {
                tracing::warn!(error = %e, "a WAL checkpoint failed");
                checkpointer = None;
                RECONNECT_AFTER
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::accounts::insert_user;
    use crate::storage::scratch::ScratchFile;
    use crate::storage::SqliteSync;

    /// Writes leave their pages in the log (the writers' own threshold is far above them); the
    /// worker copies them into the database file, which grows.
    #[test]
    fn the_worker_copies_the_log_into_the_database_file() {
        let file = ScratchFile::new("checkpoints", "log.db");
        let db = Database::open_with(file.path(), 2, SqliteSync::Normal).expect("a database");
        // Copy what the migrations wrote first: the file then holds everything so far.
        let mut own = db.checkpointer().expect("a file").expect("connected");
        own.checkpoint().expect("a checkpoint");
        let file_size = || std::fs::metadata(file.path()).expect("the file").len();
        let before = file_size();
        // Some 2,000 pages of commits: SQLite's default threshold (1,000) would have made a
        // writer checkpoint them into the file.
        for i in 0..1000 {
            db.write(|c| insert_user(c, &format!("player-{i}"), "!", false, 0))
                .expect("a write");
        }
        assert_eq!(
            file_size(),
            before,
            "the writers left their pages in the log"
        );
        let workers = Workers::default();
        spawn(&workers, db.clone()).expect("spawned");
        let grown = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(50));
            file_size() > before
        });
        workers.stop();
        assert!(
            grown,
            "the worker copied the log into the file ({before} bytes before)"
        );
        let last = own.checkpoint().expect("a checkpoint");
        assert_eq!(
            (last.busy, last.copied_pages),
            (0, last.log_pages),
            "nothing is left to copy"
        );
    }

    /// An in-memory database has no log: no worker starts.
    #[test]
    fn no_worker_for_an_in_memory_database() {
        let db = Database::open(":memory:", 1).expect("an in-memory database");
        assert!(db.checkpointer().is_none());
        let workers = Workers::default();
        spawn(&workers, db).expect("nothing to spawn");
        assert!(workers.threads.lock().expect("the list").is_empty());
    }
}
