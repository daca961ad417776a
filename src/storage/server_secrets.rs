//! Secrets the instances share, by name, sealed by the service before they come here: the first
//! instance to write one wins, the others read the winner's.

use diesel::prelude::*;

use super::schema::server_secrets;
use super::{DbConnection, StorageError};

/// The sealed secret kept under `name`.
pub fn sealed(conn: &mut DbConnection, name: &str) -> Result<Option<String>, StorageError> {
    Ok(server_secrets::table
        .find(name)
        .select(server_secrets::sealed)
        .first(conn)
        .optional()?)
}

/// Keep `sealed` under `name` unless a secret is there already (another instance came first);
/// whether this one was kept.
pub fn insert_if_absent(
    conn: &mut DbConnection,
    name: &str,
    sealed: &str,
    now: i64,
) -> Result<bool, StorageError> {
    let query = diesel::insert_into(server_secrets::table)
        .values((
            server_secrets::name.eq(name),
            server_secrets::sealed.eq(sealed),
            server_secrets::created_at.eq(now),
        ))
        .on_conflict(server_secrets::name)
        .do_nothing();
    // ON CONFLICT is backend-specific in diesel: run it on the connection underneath.
    Ok(on_backend!(conn, |c| query.execute(c))? == 1)
}
