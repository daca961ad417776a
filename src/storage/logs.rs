//! A game's event log as it is read: its rows in `game_events` while it is played, then, once the
//! game is over, one packed row in `game_archives` (the events as a zstd-compressed JSON array)
//! that replaces them. Appending is in `games` (an append changes the game's row too).

use diesel::prelude::*;

use super::games::EventRow;
use super::schema::{game_archives, game_events, games};
use super::{DbConnection, StorageError};

/// The game's events after `after`, oldest first, at most `limit`: from `game_events`, or from
/// the game's archive once it has been packed.
pub fn events_after(
    conn: &mut DbConnection,
    game_id: i64,
    after: i64,
    limit: i64,
) -> Result<Vec<EventRow>, StorageError> {
    let rows = event_rows(conn, game_id, after, limit)?;
    // Rows that start right after `after` are the log itself; none, or a gap, means the game may
    // have been archived (perhaps since this request read the game's row).
    if rows.first().is_some_and(|r| r.seq == after + 1) {
        return Ok(rows);
    }
    let Some(archived) = archived_events(conn, game_id)? else {
        return Ok(rows);
    };
    let mut events: Vec<EventRow> = archived.into_iter().filter(|e| e.seq > after).collect();
    events.extend(rows);
    events.sort_by_key(|e| e.seq);
    events.dedup_by_key(|e| e.seq);
    events.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok(events)
}

fn event_rows(
    conn: &mut DbConnection,
    game_id: i64,
    after: i64,
    limit: i64,
) -> Result<Vec<EventRow>, StorageError> {
    Ok(game_events::table
        .filter(game_events::game_id.eq(game_id))
        .filter(game_events::seq.gt(after))
        .order(game_events::seq.asc())
        .limit(limit)
        .select(EventRow::as_select())
        .load(conn)?)
}

/// An archived event: sequence number, kind, payload, time.
type Packed = (i64, String, String, i64);

/// zstd's default level: a finished game's log packs about 10 to 1 in a millisecond.
const PACK_LEVEL: i32 = 3;

/// A finished game's log, packed and ready to replace its rows.
pub struct PackedLog {
    game_id: i64,
    /// The events as a zstd-compressed JSON array.
    bytes: Vec<u8>,
    /// How many rows it replaces.
    events: usize,
}

/// Read a finished game's log and pack it, without writing: `None` when it has no rows (packed
/// already). A finished game's log does not change, so this can run before the write that
/// stores it, outside the write's turn; [`store_packed`] checks that nothing was added meanwhile.
pub fn pack_log(conn: &mut DbConnection, game_id: i64) -> Result<Option<PackedLog>, StorageError> {
    let rows = event_rows(conn, game_id, 0, i64::MAX)?;
    if rows.is_empty() {
        return Ok(None);
    }
    let events = rows.len();
    let packed: Vec<Packed> = rows
        .into_iter()
        .map(|e| (e.seq, e.kind, e.payload, e.created_at))
        .collect();
    let json = serde_json::to_vec(&packed).map_err(|e| StorageError::Corrupt(e.to_string()))?;
    let bytes = zstd::encode_all(json.as_slice(), PACK_LEVEL)
        .map_err(|e| StorageError::Corrupt(format!("packing game {game_id}: {e}")))?;
    Ok(Some(PackedLog {
        game_id,
        bytes,
        events,
    }))
}

/// Store a packed log as the game's `game_archives` row and delete the `game_events` rows it
/// holds, in the caller's transaction. A [`StorageError::Conflict`] (roll back) when the game's
/// rows are no longer the ones packed, or another instance stored its archive first.
pub fn store_packed(
    conn: &mut DbConnection,
    log: &PackedLog,
    now: i64,
) -> Result<(), StorageError> {
    diesel::insert_into(game_archives::table)
        .values((
            game_archives::game_id.eq(log.game_id),
            game_archives::events.eq(&log.bytes),
            game_archives::archived_at.eq(now),
        ))
        .execute(conn)
        .map_err(StorageError::from_write)?;
    let deleted = diesel::delete(game_events::table.filter(game_events::game_id.eq(log.game_id)))
        .execute(conn)?;
    if deleted != log.events {
        return Err(StorageError::Conflict);
    }
    Ok(())
}

/// Pack a finished game's log into one `game_archives` row and delete its `game_events` rows,
/// all in the caller's transaction. Returns whether there was a log to pack.
pub fn archive_log(conn: &mut DbConnection, game_id: i64, now: i64) -> Result<bool, StorageError> {
    let Some(log) = pack_log(conn, game_id)? else {
        return Ok(false);
    };
    store_packed(conn, &log, now)?;
    Ok(true)
}

/// The events of a packed log, oldest first; `None` when the game has not been packed.
fn archived_events(
    conn: &mut DbConnection,
    game_id: i64,
) -> Result<Option<Vec<EventRow>>, StorageError> {
    let bytes: Option<Vec<u8>> = game_archives::table
        .find(game_id)
        .select(game_archives::events)
        .first(conn)
        .optional()?;
    let Some(bytes) = bytes else {
        return Ok(None);
    };
    let corrupt = |e: String| StorageError::Corrupt(format!("archive of game {game_id}: {e}"));
    let json = zstd::decode_all(bytes.as_slice()).map_err(|e| corrupt(e.to_string()))?;
    let packed: Vec<Packed> = serde_json::from_slice(&json).map_err(|e| corrupt(e.to_string()))?;
    Ok(Some(
        packed
            .into_iter()
            .map(|(seq, kind, payload, created_at)| EventRow {
                game_id,
                seq,
                kind,
                payload,
                created_at,
            })
            .collect(),
    ))
}

/// Finished games (over, aborted or cancelled) whose log has not been packed yet.
pub fn unpacked_finished_games(
    conn: &mut DbConnection,
    limit: i64,
) -> Result<Vec<i64>, StorageError> {
    Ok(games::table
        .filter(games::status.eq_any(["over", "aborted", "cancelled"]))
        .filter(diesel::dsl::exists(
            game_events::table.filter(game_events::game_id.eq(games::id)),
        ))
        .order(games::id.asc())
        .limit(limit)
        .select(games::id)
        .load(conn)?)
}

/// Rewrite the payloads of a packed log (a deleted account's name, say): each payload through
/// `rewrite` (`None`: unchanged), the log packed again only if one changed. Returns whether it did.
pub fn rewrite_archive(
    conn: &mut DbConnection,
    game_id: i64,
    rewrite: &dyn Fn(&str) -> Option<String>,
) -> Result<bool, StorageError> {
    let Some(events) = archived_events(conn, game_id)? else {
        return Ok(false);
    };
    let mut changed = false;
    let packed: Vec<Packed> = events
        .into_iter()
        .map(|e| {
            let payload = match rewrite(&e.payload) {
                Some(new) => {
                    changed = true;
                    new
                }
                None => e.payload,
            };
            (e.seq, e.kind, payload, e.created_at)
        })
        .collect();
    if !changed {
        return Ok(false);
    }
    let json = serde_json::to_vec(&packed).map_err(|e| StorageError::Corrupt(e.to_string()))?;
    let bytes = zstd::encode_all(json.as_slice(), PACK_LEVEL)
        .map_err(|e| StorageError::Corrupt(format!("packing game {game_id}: {e}")))?;
    diesel::update(game_archives::table.find(game_id))
        .set(game_archives::events.eq(bytes))
        .execute(conn)?;
    Ok(true)
}
