//! How one writer's failure is kept out of the rest of its batch.
//!
//! A writer shares its batch's transaction with the writers before and after it, so a writer that
//! fails must leave nothing of itself in it. A savepoint does that for any writer, at a price paid
//! inside the write turn: SQLite copies every page the writer changes before it changes it (the
//! pages the batch's other writers changed too), so that it can put them back; in the turn of a
//! move that was some tenth of its CPU (`docs/performance.md`, issue 50). A writer whose first
//! statement is its guard (an append's update of the game's row where its version is still the
//! one the writer read) fails, when it fails for its own reasons, having written nothing, and
//! needs no savepoint. Whether it wrote nothing is checked, not assumed: a writer that fails
//! having changed a row, or whose failure ended the transaction, fails its whole batch, whose
//! writers are all still waiting for their answer.

use diesel::connection::{Connection, SimpleConnection};
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::BigInt;

use crate::storage::DbConnection;

/// How a writer's failure is kept out of its batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Guard {
    /// In a savepoint of its own, rolled back if it fails: for any writer.
    Savepoint,
    /// No savepoint: for a writer that, failing, fails before its first change (it checks with
    /// its first statement, as [`crate::storage::appends::append`] does).
    FailsUnwritten,
}

/// A writer's outcome, and whether its batch can go on.
pub(super) enum Guarded<R> {
    /// Its batch holds the other writers' work only, whatever it answered.
    Kept(R),
    /// It failed and left changes in the batch's transaction, or ended it: the batch fails.
    Spoiled(R),
}

impl Guard {
    /// Run `f` in the open transaction of `conn`, guarded.
    pub(super) fn run<T, E: From<DieselError>>(
        self,
        conn: &mut DbConnection,
        f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    ) -> Guarded<Result<T, E>> {
        // A nested transaction is a savepoint: a failure undoes this writer's work only.
        let in_savepoint = |conn: &mut DbConnection, f| Guarded::Kept(conn.transaction(f));
        let (Guard::FailsUnwritten, DbConnection::Sqlite(c)) = (self, &mut *conn) else {
            return in_savepoint(conn, f);
        };
        let Ok(before) = total_changes(c) else {
            return in_savepoint(conn, f);
        };
        let outcome = f(conn);
        let kept = match conn {
            _ if outcome.is_ok() => true,
            DbConnection::Sqlite(c) => unchanged_since(c, before),
            _ => false,
        };
        match kept {
            true => Guarded::Kept(outcome),
            false => Guarded::Spoiled(outcome),
        }
    }
}

/// The rows inserted, updated and deleted by the connection's statements since it opened.
/// (A statement that failed and was undone counts none.)
fn total_changes(conn: &mut SqliteConnection) -> Result<i64, DieselError> {
    diesel::select(diesel::dsl::sql::<BigInt>("total_changes()")).get_result(conn)
}

/// Whether the transaction is still open with no row changed since `before`.
fn unchanged_since(conn: &mut SqliteConnection, before: i64) -> bool {
    if total_changes(conn).ok() != Some(before) {
        return false;
    }
    // Some errors (a full disk, an I/O error) make SQLite roll the whole transaction back; what
    // the batch's later writers wrote would then be committed one statement at a time. `BEGIN`
    // inside a transaction is refused, and only there.
    match conn.batch_execute("BEGIN") {
        Err(DieselError::DatabaseError(_, info)) => info.message().contains("within a transaction"),
        Err(_) => false,
        Ok(()) => {
            let _ = conn.batch_execute("ROLLBACK");
            false
        }
    }
}
