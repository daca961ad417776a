//! The group commit's tests: durability and sharing of commits, the writers' connection, the
//! log synced outside the turn.

use crate::storage::accounts::{insert_user, user_by_name};
use crate::storage::scratch::ScratchFile;
use crate::storage::{Database, SqliteSync, StorageError};

/// Writers on many threads at once: every writer answered Ok has its row, committed; a
/// writer whose work failed has none, and the writers batched with it keep theirs.
#[test]
fn queued_writers_share_commits_and_a_failed_one_leaves_nothing() {
    for sync in [SqliteSync::Full, SqliteSync::FullOutsideLock] {
        queued_writers(sync);
    }
}

fn queued_writers(sync: SqliteSync) {
    let file = ScratchFile::new("group-commit", "writes.db");
    let db = Database::open_with(file.path(), 8, sync).expect("a database");
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
    // Every writer took the turn, failed or not; the commits were fewer than the writes when
    // writers shared them, and committing is part of holding the turn.
    let stats = db.write_turn_stats().expect("SQLite has a write turn");
    assert_eq!(stats.writes, 8 * 40);
    assert!(
        stats.batches >= 1 && stats.batches <= stats.writes,
        "{stats:?}"
    );
    assert!(stats.commit_seconds > 0.0 && stats.commit_seconds <= stats.held_seconds);
    // One write in 16 sampled (20 of 320): its holder's CPU is part of its time holding.
    assert!(
        stats.sampled_held_seconds > 0.0 && stats.sampled_held_seconds <= stats.held_seconds,
        "{stats:?}"
    );
    assert!(
        stats.sampled_cpu_seconds > 0.0 && stats.sampled_cpu_seconds <= stats.sampled_held_seconds,
        "{stats:?}"
    );
    // Outside the lock, a sync covers one commit or more.
    match sync {
        SqliteSync::FullOutsideLock => assert!(stats.syncs >= 1 && stats.syncs <= stats.batches),
        _ => assert_eq!(stats.syncs, 0),
    }
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

/// With `full-outside-lock` the writers commit at `NORMAL` and sync the log themselves, outside
/// the turn; every other connection keeps `FULL`, and the writers' is never lent to them.
#[test]
fn the_writers_sync_the_log_themselves_and_keep_their_connection_to_themselves() {
    use diesel::sql_types::Integer;
    use diesel::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Synchronous {
        #[diesel(sql_type = Integer)]
        synchronous: i32,
    }
    fn synchronous(c: &mut crate::storage::DbConnection) -> Result<i32, StorageError> {
        let row: Synchronous = diesel::sql_query("PRAGMA synchronous").get_result(c)?;
        Ok(row.synchronous)
    }
    let file = ScratchFile::new("log-sync-outside", "sync.db");
    let db = Database::open_with(file.path(), 4, SqliteSync::FullOutsideLock).expect("a database");
    let log = db.sqlite_writes.as_ref().and_then(|c| c.log.clone());
    assert_eq!(log, Some(format!("{}-wal", file.path()).into()));
    let inside = db
        .write(|c| {
            insert_user(c, "synced", "!", false, 0)?;
            synchronous(c)
        })
        .expect("a write");
    assert_eq!(inside, 1, "the writers commit at NORMAL");
    for _ in 0..8 {
        let outside = db.read(synchronous).expect("a read");
        assert_eq!(outside, 2, "every other connection stays at FULL");
    }
    // At `full` (the default) and `normal`, SQLite syncs as it does; in memory there is no log.
    for (name, sync) in [
        ("full.db", SqliteSync::Full),
        ("normal.db", SqliteSync::Normal),
    ] {
        let other = ScratchFile::new(&format!("log-sync-{name}"), name);
        let db = Database::open_with(other.path(), 4, sync).expect("a database");
        assert!(db.sqlite_writes.as_ref().is_some_and(|c| c.log.is_none()));
        let inside = db.write(synchronous).expect("a write");
        assert_eq!(inside, if sync == SqliteSync::Full { 2 } else { 1 });
    }
    let db = Database::open(":memory:", 1).expect("an in-memory database");
    assert!(db.sqlite_writes.as_ref().is_some_and(|c| c.log.is_none()));
}

/// A log that cannot be synced fails the write that needed it, and every write after it:
/// what the disk holds is unknown then.
#[cfg(target_os = "linux")]
#[test]
fn a_log_that_cannot_be_synced_stops_the_writes() {
    let file = ScratchFile::new("log-sync-failing", "failing.db");
    let mut db =
        Database::open_with(file.path(), 4, SqliteSync::FullOutsideLock).expect("a database");
    // procfs refuses to sync (EINVAL): a disk that failed.
    db.sqlite_writes = Some(std::sync::Arc::new(super::Committer::new(
        4,
        Some("/proc/version".into()),
    )));
    let first = db.write(|c| insert_user(c, "unsynced", "!", false, 0));
    assert!(
        matches!(&first, Err(StorageError::Unavailable(why)) if why.contains("sync")),
        "{first:?}"
    );
    let later = db.write(|c| insert_user(c, "after", "!", false, 0));
    assert!(
        matches!(&later, Err(StorageError::Unavailable(why)) if why.contains("restart")),
        "{later:?}"
    );
    assert!(db
        .read(|c| user_by_name(c, "after"))
        .expect("a read")
        .is_none());
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

/// The bundled SQLite is built as `.cargo/config.toml` says: with the query planner stability
/// guarantee (without it statements with `LIMIT ?` are compiled at every run) and without memory
/// statistics (with them every allocation takes one process-wide mutex).
#[test]
fn the_bundled_sqlite_is_built_as_configured() {
    let db = Database::open(":memory:", 1).expect("an in-memory database");
    assert_eq!(
        db.sqlite_build_options_missing().expect("asked"),
        Vec::<&str>::new()
    );
}

/// What a writer without a savepoint (`write_atomic`, a move's append) leaves its batch when it
/// fails: nothing when it failed before its first change, its batch when it changed rows or ended
/// the transaction. `ahead` shares a batch with it (it waits, its work done, until the writer
/// behind it has queued). `test` names its database's folder (tests run side by side).
fn an_unguarded_writer_after_another(
    test: &str,
    behind: impl FnMut(&mut crate::storage::DbConnection) -> Result<(), StorageError> + Send,
) -> (
    Result<(), StorageError>,
    Result<(), StorageError>,
    Database,
    ScratchFile,
) {
    let file = ScratchFile::new(test, "unguarded.db");
    let db = Database::open(file.path(), 4).expect("a database");
    let committer = db.sqlite_writes.clone().expect("SQLite has a committer");
    let (ahead, behind) = std::thread::scope(|scope| {
        let (start, started) = std::sync::mpsc::channel();
        let db = &db;
        let ahead = scope.spawn(move || {
            db.write(|c| {
                insert_user(c, "ahead", "!", false, 0)?;
                start.send(()).expect("the writer behind listens");
                // Its work done, it waits for the writer behind to queue, so that it leaves the
                // batch open to it (no time involved: the queue is counted).
                until_queued(&committer);
                Ok::<_, StorageError>(())
            })
        });
        started.recv().expect("the writer ahead started");
        let behind = db.write_atomic(behind);
        (ahead.join().expect("the writer ahead"), behind)
    });
    (ahead, behind, db, file)
}

/// Wait until a writer has queued for the turn: one whose work is done then leaves its batch open
/// to it.
fn until_queued(committer: &super::Committer) {
    while committer.queued.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        std::thread::yield_now();
    }
}

fn has_user(db: &Database, name: &str) -> bool {
    db.read(|c| user_by_name(c, name))
        .expect("a read")
        .is_some()
}

#[test]
fn an_unguarded_writer_that_fails_before_writing_leaves_its_batch_alone() {
    let (ahead, behind, db, _file) =
        an_unguarded_writer_after_another("unguarded-fails-before-writing", |c| {
            // A guarded update that finds its row moved on, as a stale append's.
            assert!(user_by_name(c, "nobody")?.is_none());
            Err(StorageError::Conflict)
        });
    assert!(matches!(behind, Err(StorageError::Conflict)), "{behind:?}");
    assert!(ahead.is_ok(), "the writer ahead commits: {ahead:?}");
    assert!(has_user(&db, "ahead"));
    assert_eq!(db.write_turn_stats().expect("a turn").batches, 1);
}

#[test]
fn an_unguarded_writer_that_fails_after_writing_fails_its_batch() {
    let (ahead, behind, db, _file) =
        an_unguarded_writer_after_another("unguarded-fails-after-writing", |c| {
            insert_user(c, "behind", "!", false, 0)?;
            Err(StorageError::Conflict)
        });
    assert!(matches!(behind, Err(StorageError::Conflict)), "{behind:?}");
    assert!(
        matches!(ahead, Err(StorageError::Unavailable(_))),
        "the batch fails, the writer ahead with it: {ahead:?}"
    );
    assert!(!has_user(&db, "ahead") && !has_user(&db, "behind"));
    // The writers' connection is sound after it: the next write commits.
    db.write(|c| insert_user(c, "later", "!", false, 0))
        .expect("a write after the failed batch");
    assert!(has_user(&db, "later"));
}

/// A failure after which SQLite has rolled the transaction back (a full disk, an I/O error) ends
/// the batch too: what came after would be committed statement by statement, unasked.
#[test]
fn an_unguarded_writer_whose_failure_ended_the_transaction_fails_its_batch() {
    use diesel::connection::SimpleConnection;
    let (ahead, behind, db, _file) =
        an_unguarded_writer_after_another("unguarded-ended-the-transaction", |c| {
            c.batch_execute("ROLLBACK")?;
            Err(StorageError::Unavailable("as if the disk were full".into()))
        });
    assert!(behind.is_err());
    assert!(
        matches!(ahead, Err(StorageError::Unavailable(_))),
        "{ahead:?}"
    );
    assert!(!has_user(&db, "ahead"));
    db.write(|c| insert_user(c, "later", "!", false, 0))
        .expect("a write after the failed batch");
    assert!(has_user(&db, "later"));
}

/// A writer refused on what an earlier writer of its batch wrote (here a row it finds, as a stale
/// append finds the version moved on) is answered only once that batch has committed: what it
/// reads next holds that write. Answered before, a retry on what readers see met the same
/// uncommitted write again and again while writers kept the batch open (a resign lost fifty
/// tries so while bots moved). `behind` keeps the batch open after the refused writer, and closes
/// it once that writer was answered or, as it should be, after a second without an answer.
#[test]
fn a_refused_writer_is_answered_once_its_batch_has_committed() {
    use std::sync::mpsc::channel;
    let file = ScratchFile::new("refused-writer-waits", "waits.db");
    let db = Database::open(file.path(), 4).expect("a database");
    let committer = db.sqlite_writes.clone().expect("SQLite has a committer");
    let queued = || until_queued(&committer);
    std::thread::scope(|scope| {
        let db = &db;
        let (ahead_started, ahead_working) = channel();
        let (refused_working, refused_started) = channel();
        let (answered, refusal_answered) = channel();
        let ahead = scope.spawn(move || {
            db.write(|c| {
                insert_user(c, "ahead", "!", false, 0)?;
                ahead_started.send(()).expect("the test listens");
                queued();
                Ok::<_, StorageError>(())
            })
        });
        ahead_working.recv().expect("the writer ahead started");
        let refused = scope.spawn(move || {
            let outcome = db.write_atomic(|c| {
                refused_working.send(()).expect("the test listens");
                queued();
                match user_by_name(c, "ahead")? {
                    Some(_) => Err(StorageError::Conflict),
                    None => Ok(()),
                }
            });
            let seen = has_user(db, "ahead");
            let _ = answered.send(());
            (outcome, seen)
        });
        refused_started.recv().expect("the refused writer started");
        let behind = db.write(|c| {
            let _ = refusal_answered.recv_timeout(std::time::Duration::from_secs(1));
            insert_user(c, "behind", "!", false, 0)
        });
        let (outcome, seen) = refused.join().expect("the refused writer");
        assert!(
            matches!(outcome, Err(StorageError::Conflict)),
            "{outcome:?}"
        );
        assert!(
            seen,
            "answered before the write it was refused on was committed"
        );
        assert!(ahead.join().expect("the writer ahead").is_ok());
        assert!(behind.is_ok(), "{behind:?}");
    });
    assert_eq!(db.write_turn_stats().expect("a turn").batches, 1);
}
