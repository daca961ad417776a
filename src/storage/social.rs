//! What players say and keep apart from the rules' record: table chat and how far each player
//! has read it, private notes per game, blocks between players, and whom each follows.

use diesel::prelude::*;

use super::schema::{blocks, chat_messages, chat_reads, follows, game_notes, users};
use super::{DbConnection, StorageError};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = chat_messages)]
pub struct ChatRow {
    pub id: i64,
    pub game_id: i64,
    pub user_id: i64,
    pub seat: i32,
    pub body: String,
    pub created_at: i64,
}

/// Run an insert in a savepoint; a row already there (a race, or asked twice) is no error.
fn insert_unless_there(
    conn: &mut DbConnection,
    insert: impl FnOnce(&mut DbConnection) -> QueryResult<usize>,
) -> Result<(), StorageError> {
    match conn.transaction(insert) {
        Ok(_) => Ok(()),
        Err(e) => match StorageError::from_write(e) {
            StorageError::Conflict => Ok(()),
            e => Err(e),
        },
    }
}

/// A message and its author's name.
pub type ChatWithName = (ChatRow, String);

/// Store a message and wake the game's streams.
pub fn insert_message(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
    seat: i32,
    body: &str,
    now: i64,
) -> Result<ChatRow, StorageError> {
    let id = diesel::insert_into(chat_messages::table)
        .values((
            chat_messages::game_id.eq(game_id),
            chat_messages::user_id.eq(user_id),
            chat_messages::seat.eq(seat),
            chat_messages::body.eq(body),
            chat_messages::created_at.eq(now),
        ))
        .returning(chat_messages::id)
        .get_result::<i64>(conn)?;
    super::wakeups::touched(super::wakeups::Topic::Game(game_id));
    Ok(ChatRow {
        id,
        game_id,
        user_id,
        seat,
        body: body.to_string(),
        created_at: now,
    })
}

/// The users `reader` must not hear or be heard by: those it blocked and those who blocked it.
pub fn kept_apart(conn: &mut DbConnection, reader: i64) -> Result<Vec<i64>, StorageError> {
    let mut ids: Vec<i64> = blocks::table
        .filter(blocks::user_id.eq(reader))
        .select(blocks::blocked_id)
        .load(conn)?;
    ids.extend(
        blocks::table
            .filter(blocks::blocked_id.eq(reader))
            .select(blocks::user_id)
            .load::<i64>(conn)?,
    );
    Ok(ids)
}

/// A game's messages with ids in `(after, before)`, by none of `hidden`, oldest first when
/// `oldest_first` (a stream's read) else newest first (a page); at most `limit`.
pub fn messages(
    conn: &mut DbConnection,
    game_id: i64,
    after: i64,
    before: Option<i64>,
    hidden: &[i64],
    oldest_first: bool,
    limit: i64,
) -> Result<Vec<ChatWithName>, StorageError> {
    let mut q = chat_messages::table
        .inner_join(users::table)
        .filter(chat_messages::game_id.eq(game_id))
        .filter(chat_messages::id.gt(after))
        .filter(chat_messages::user_id.ne_all(hidden))
        .select((ChatRow::as_select(), users::name))
        .limit(limit)
        .into_boxed();
    if let Some(before) = before {
        q = q.filter(chat_messages::id.lt(before));
    }
    q = if oldest_first {
        q.order(chat_messages::id.asc())
    } else {
        q.order(chat_messages::id.desc())
    };
    Ok(q.load(conn)?)
}

/// One message by its id.
pub fn message(conn: &mut DbConnection, id: i64) -> Result<Option<ChatRow>, StorageError> {
    Ok(chat_messages::table
        .find(id)
        .select(ChatRow::as_select())
        .first(conn)
        .optional()?)
}

/// The newest message id of a game (0 when there is none).
pub fn newest_message(conn: &mut DbConnection, game_id: i64) -> Result<i64, StorageError> {
    Ok(chat_messages::table
        .filter(chat_messages::game_id.eq(game_id))
        .select(diesel::dsl::max(chat_messages::id))
        .first::<Option<i64>>(conn)?
        .unwrap_or(0))
}

/// How many messages `user_id` wrote since `since`, and when the oldest of them was written.
pub fn written_since(
    conn: &mut DbConnection,
    user_id: i64,
    since: i64,
) -> Result<(i64, Option<i64>), StorageError> {
    Ok(chat_messages::table
        .filter(chat_messages::user_id.eq(user_id))
        .filter(chat_messages::created_at.gt(since))
        .select((
            diesel::dsl::count_star(),
            diesel::dsl::min(chat_messages::created_at),
        ))
        .first(conn)?)
}

/// Note that `user_id` read `game_id`'s chat up to message `last_read` (never backwards).
pub fn mark_read(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
    last_read: i64,
) -> Result<(), StorageError> {
    // Raised only: of two marks written at the same moment the higher stands, whichever
    // commits first (the guarded update waits for the other's row, then looks again).
    let raise = || {
        diesel::update(
            chat_reads::table
                .filter(chat_reads::game_id.eq(game_id))
                .filter(chat_reads::user_id.eq(user_id))
                .filter(chat_reads::last_read.lt(last_read)),
        )
        .set(chat_reads::last_read.eq(last_read))
    };
    if raise().execute(conn)? > 0 {
        return Ok(());
    }
    // No mark, or one as high already, or one written since the update looked (perhaps lower):
    // a first mark, else the one there raised once more (a new statement sees it committed).
    let first = diesel::insert_into(chat_reads::table)
        .values((
            chat_reads::game_id.eq(game_id),
            chat_reads::user_id.eq(user_id),
            chat_reads::last_read.eq(last_read),
        ))
        .on_conflict((chat_reads::game_id, chat_reads::user_id))
        .do_nothing();
    if on_backend!(conn, |c| first.execute(c))? == 0 {
        raise().execute(conn)?;
    }
    Ok(())
}

/// The newest message `user_id` marked read in `game_id` (0 for none).
pub fn read_up_to(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<i64, StorageError> {
    Ok(chat_reads::table
        .find((game_id, user_id))
        .select(chat_reads::last_read)
        .first(conn)
        .optional()?
        .unwrap_or(0))
}

/// The game of each message at `game_ids` that `user_id` has not read, written since `since`:
/// others' messages only, none of `hidden`. Two queries whatever the number of games.
fn unread_messages(
    conn: &mut DbConnection,
    user_id: i64,
    game_ids: &[i64],
    since: i64,
    hidden: &[i64],
) -> Result<Vec<i64>, StorageError> {
    if game_ids.is_empty() {
        return Ok(Vec::new());
    }
    let read: Vec<(i64, i64)> = chat_reads::table
        .filter(chat_reads::user_id.eq(user_id))
        .filter(chat_reads::game_id.eq_any(game_ids))
        .select((chat_reads::game_id, chat_reads::last_read))
        .load(conn)?;
    let rows: Vec<(i64, i64)> = chat_messages::table
        .filter(chat_messages::game_id.eq_any(game_ids))
        .filter(chat_messages::created_at.ge(since))
        .filter(chat_messages::user_id.ne(user_id))
        .filter(chat_messages::user_id.ne_all(hidden))
        .select((chat_messages::game_id, chat_messages::id))
        .load(conn)?;
    let last_read = |game: i64| read.iter().find(|(g, _)| *g == game).map_or(0, |(_, r)| *r);
    Ok(rows
        .into_iter()
        .filter(|&(game, id)| id > last_read(game))
        .map(|(game, _)| game)
        .collect())
}

/// For each of `game_ids`, how many messages `user_id` has not read (its own and those of
/// `hidden` do not count); games without any are left out.
pub fn unread_counts(
    conn: &mut DbConnection,
    user_id: i64,
    game_ids: &[i64],
    hidden: &[i64],
) -> Result<Vec<(i64, i64)>, StorageError> {
    let unread = unread_messages(conn, user_id, game_ids, 0, hidden)?;
    Ok(game_ids
        .iter()
        .map(|&game| (game, unread.iter().filter(|&&g| g == game).count() as i64))
        .filter(|&(_, n)| n > 0)
        .collect())
}

/// Messages of others at the games `user_id` sits at, written since `since` and not yet read
/// (none of `hidden`): the count a digest gives. A message of the very millisecond of the last
/// digest counts again rather than never.
pub fn unread_since(
    conn: &mut DbConnection,
    user_id: i64,
    since: i64,
    hidden: &[i64],
) -> Result<i64, StorageError> {
    let seated: Vec<i64> = super::schema::game_seats::table
        .filter(super::schema::game_seats::user_id.eq(user_id))
        .select(super::schema::game_seats::game_id)
        .load(conn)?;
    Ok(unread_messages(conn, user_id, &seated, since, hidden)?.len() as i64)
}

/// `user_id`'s note on `game_id`: its text and when it was last changed.
pub fn note(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<Option<(String, i64)>, StorageError> {
    Ok(game_notes::table
        .find((game_id, user_id))
        .select((game_notes::body, game_notes::updated_at))
        .first(conn)
        .optional()?)
}

/// Write `user_id`'s note on `game_id`; an empty text deletes it.
pub fn set_note(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
    body: &str,
    now: i64,
) -> Result<(), StorageError> {
    if body.is_empty() {
        diesel::delete(game_notes::table.find((game_id, user_id))).execute(conn)?;
        return Ok(());
    }
    // One statement: a note written twice at the same moment is replaced, not refused.
    let upsert = diesel::insert_into(game_notes::table)
        .values((
            game_notes::game_id.eq(game_id),
            game_notes::user_id.eq(user_id),
            game_notes::body.eq(body),
            game_notes::updated_at.eq(now),
        ))
        .on_conflict((game_notes::game_id, game_notes::user_id))
        .do_update()
        .set((game_notes::body.eq(body), game_notes::updated_at.eq(now)));
    on_backend!(conn, |c| upsert.execute(c))?;
    Ok(())
}

/// `user_id` blocks `blocked_id` (blocking again changes nothing).
pub fn block(
    conn: &mut DbConnection,
    user_id: i64,
    blocked_id: i64,
    now: i64,
) -> Result<(), StorageError> {
    insert_unless_there(conn, |c| {
        diesel::insert_into(blocks::table)
            .values((
                blocks::user_id.eq(user_id),
                blocks::blocked_id.eq(blocked_id),
                blocks::created_at.eq(now),
            ))
            .execute(c)
    })
}

/// Undo a block; false when there was none.
pub fn unblock(
    conn: &mut DbConnection,
    user_id: i64,
    blocked_id: i64,
) -> Result<bool, StorageError> {
    Ok(diesel::delete(blocks::table.find((user_id, blocked_id))).execute(conn)? > 0)
}

/// Whom `user_id` blocked, with when, by name.
pub fn blocked_by(
    conn: &mut DbConnection,
    user_id: i64,
) -> Result<Vec<(String, i64)>, StorageError> {
    Ok(blocks::table
        .inner_join(users::table.on(users::id.eq(blocks::blocked_id)))
        .filter(blocks::user_id.eq(user_id))
        .order(users::name.asc())
        .select((users::name, blocks::created_at))
        .load(conn)?)
}

/// Whether any of `users` blocked `user_id`.
pub fn blocked_by_any(
    conn: &mut DbConnection,
    users_: &[i64],
    user_id: i64,
) -> Result<bool, StorageError> {
    Ok(blocks::table
        .filter(blocks::user_id.eq_any(users_))
        .filter(blocks::blocked_id.eq(user_id))
        .count()
        .get_result::<i64>(conn)?
        > 0)
}

/// A game's messages written by `user_id`, oldest first.
pub fn messages_by(
    conn: &mut DbConnection,
    game_id: i64,
    user_id: i64,
) -> Result<Vec<ChatRow>, StorageError> {
    Ok(chat_messages::table
        .filter(chat_messages::game_id.eq(game_id))
        .filter(chat_messages::user_id.eq(user_id))
        .order(chat_messages::id.asc())
        .select(ChatRow::as_select())
        .load(conn)?)
}

/// Erase what is `user_id`'s alone here (a deleted account): its messages, notes, marks of what
/// it read, and blocks and follows either way.
pub fn erase_user(conn: &mut DbConnection, user_id: i64) -> Result<(), StorageError> {
    diesel::delete(chat_messages::table.filter(chat_messages::user_id.eq(user_id)))
        .execute(conn)?;
    diesel::delete(chat_reads::table.filter(chat_reads::user_id.eq(user_id))).execute(conn)?;
    diesel::delete(game_notes::table.filter(game_notes::user_id.eq(user_id))).execute(conn)?;
    diesel::delete(
        blocks::table.filter(
            blocks::user_id
                .eq(user_id)
                .or(blocks::blocked_id.eq(user_id)),
        ),
    )
    .execute(conn)?;
    Ok(())
}

/// `user_id` follows `followed_id` (following again changes nothing).
pub fn follow(
    conn: &mut DbConnection,
    user_id: i64,
    followed_id: i64,
    now: i64,
) -> Result<(), StorageError> {
    insert_unless_there(conn, |c| {
        diesel::insert_into(follows::table)
            .values((
                follows::user_id.eq(user_id),
                follows::followed_id.eq(followed_id),
                follows::created_at.eq(now),
            ))
            .execute(c)
    })
}

/// Stop following; false when `user_id` did not follow `followed_id`.
pub fn unfollow(
    conn: &mut DbConnection,
    user_id: i64,
    followed_id: i64,
) -> Result<bool, StorageError> {
    Ok(diesel::delete(follows::table.find((user_id, followed_id))).execute(conn)? > 0)
}

/// Whom `user_id` follows: id, name, whether a bot, since when; by name.
pub fn followed_by(
    conn: &mut DbConnection,
    user_id: i64,
) -> Result<Vec<(i64, String, bool, i64)>, StorageError> {
    Ok(follows::table
        .inner_join(users::table.on(users::id.eq(follows::followed_id)))
        .filter(follows::user_id.eq(user_id))
        .filter(users::deleted_at.is_null())
        .order(users::name.asc())
        .select((users::id, users::name, users::is_bot, follows::created_at))
        .load(conn)?)
}
