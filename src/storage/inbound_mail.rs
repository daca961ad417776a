//! Replies received by email that named one of our turns: each once, by its `Message-ID`'s hash,
//! with what became of it; the count per player in a window bounds the rate.

use diesel::prelude::*;

use super::schema::inbound_mails;
use super::{DbConnection, StorageError};

/// Whether a message with this hash was received before.
pub fn seen(conn: &mut DbConnection, message_hash: &str) -> Result<bool, StorageError> {
    let found: Option<String> = inbound_mails::table
        .find(message_hash)
        .select(inbound_mails::message_hash)
        .first(conn)
        .optional()?;
    Ok(found.is_some())
}

/// Record a message first in the transaction of what it does: the same message handled meanwhile
/// by another instance makes this [`StorageError::Conflict`] (on PostgreSQL, after waiting for
/// that transaction), and this one is rolled back.
pub fn record(
    conn: &mut DbConnection,
    message_hash: &str,
    user_id: i64,
    game_id: i64,
    received_at: i64,
    outcome: &str,
) -> Result<(), StorageError> {
    diesel::insert_into(inbound_mails::table)
        .values((
            inbound_mails::message_hash.eq(message_hash),
            inbound_mails::user_id.eq(user_id),
            inbound_mails::game_id.eq(game_id),
            inbound_mails::received_at.eq(received_at),
            inbound_mails::outcome.eq(outcome),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    Ok(())
}

/// What became of a recorded message.
pub fn set_outcome(
    conn: &mut DbConnection,
    message_hash: &str,
    outcome: &str,
) -> Result<(), StorageError> {
    diesel::update(inbound_mails::table.find(message_hash))
        .set(inbound_mails::outcome.eq(outcome))
        .execute(conn)?;
    Ok(())
}

/// How many replies of this player arrived since `since`.
pub fn count_since(conn: &mut DbConnection, user_id: i64, since: i64) -> Result<i64, StorageError> {
    Ok(inbound_mails::table
        .filter(inbound_mails::user_id.eq(user_id))
        .filter(inbound_mails::received_at.ge(since))
        .count()
        .get_result(conn)?)
}

/// Forget replies received before `before` (the maintenance worker); returns how many.
pub fn forget_before(conn: &mut DbConnection, before: i64) -> Result<usize, StorageError> {
    Ok(
        diesel::delete(inbound_mails::table.filter(inbound_mails::received_at.lt(before)))
            .execute(conn)?,
    )
}

/// Forget a deleted account's replies.
pub fn erase_user(conn: &mut DbConnection, user_id: i64) -> Result<usize, StorageError> {
    Ok(
        diesel::delete(inbound_mails::table.filter(inbound_mails::user_id.eq(user_id)))
            .execute(conn)?,
    )
}
