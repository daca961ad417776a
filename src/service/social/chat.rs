//! Table chat: messages among a game's seated players. Kept with the game but never in its event
//! log; a message is its author's own words, checked for length and characters only. A player
//! writes at most [`PER_MINUTE`] messages a minute (counted in the database, so every instance
//! agrees). Blocks work both ways: neither player sees the other's messages.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::own_seat;
use crate::service::accounts::{Caller, Scope};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::locks::{self, Subject};
use crate::storage::social::{self as store, ChatWithName};
use crate::storage::Database;

/// The longest message, in characters.
pub const MAX_CHARS: usize = 500;
/// Messages a player may write per minute, across games.
pub const PER_MINUTE: i64 = 10;
const MINUTE_MS: i64 = 60_000;

/// One message at a table.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ChatMessage {
    pub id: i64,
    /// The author's seat.
    pub seat: u8,
    /// The author's name.
    pub user: String,
    pub text: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
}

impl From<ChatWithName> for ChatMessage {
    fn from((row, user): ChatWithName) -> ChatMessage {
        ChatMessage {
            id: row.id,
            seat: row.seat as u8,
            user,
            text: row.body,
            created_at: row.created_at,
        }
    }
}

/// A message to write.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"text": "Good luck, have fun!"}))]
pub struct NewMessage {
    /// 1 to 500 characters, not only spaces, no control characters (one line).
    #[schema(min_length = 1, max_length = 500)]
    pub text: String,
}

/// One page of a game's chat, the newest message first.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ChatPage {
    pub messages: Vec<ChatMessage>,
    /// Pass as `before` for the older messages; `null` when there are none.
    #[schema(required = true)]
    pub next_before: Option<i64>,
    /// The newest message the caller has marked read (0 for none).
    pub last_read: i64,
}

/// How far the caller has read.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatRead {
    /// The newest message read (its `id`); marking never goes backwards.
    #[schema(minimum = 0)]
    pub last_read: i64,
}

/// The text as it is stored: trimmed, within the limits.
fn checked(text: &str) -> ServiceResult<&str> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ServiceError::invalid(
            "invalid_message",
            "a message has some text",
        ));
    }
    if text.chars().count() > MAX_CHARS {
        return Err(ServiceError::invalid(
            "invalid_message",
            format!("a message has at most {MAX_CHARS} characters"),
        ));
    }
    if text.chars().any(char::is_control) {
        return Err(ServiceError::invalid(
            "invalid_message",
            "a message is one line without control characters",
        ));
    }
    Ok(text)
}

/// Write a message at a game the caller sits at.
pub fn post(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    new: &NewMessage,
) -> ServiceResult<ChatMessage> {
    caller.require(Scope::Play)?;
    let text = checked(&new.text)?;
    let now = db.now();
    db.write(|c| {
        // The messages of the last minute are counted under the player's lock: the cap holds
        // against messages sent at the same moment.
        locks::lock(c, Subject::Player(caller.user_id))?;
        let seat = own_seat(c, game_id, caller.user_id)?;
        super::fair_use::may_talk(c, caller.user_id, now)?;
        let (written, oldest) = store::written_since(c, caller.user_id, now - MINUTE_MS)?;
        if written >= PER_MINUTE {
            let free_at = oldest.unwrap_or(now) + MINUTE_MS;
            return Err(ServiceError::RateLimited {
                retry_after: ((free_at - now).max(1000) as u64).div_ceil(1000),
            });
        }
        let row = store::insert_message(c, game_id, caller.user_id, seat.into(), text, now)?;
        Ok(ChatMessage::from((row, caller.name.clone())))
    })
}

/// A page of the chat, newest first, before message `before` (the newest page without it).
pub fn page(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    before: Option<i64>,
    limit: i64,
) -> ServiceResult<ChatPage> {
    caller.require(Scope::Read)?;
    db.read(|c| {
        own_seat(c, game_id, caller.user_id)?;
        let hidden = store::kept_apart(c, caller.user_id)?;
        let mut rows = store::messages(c, game_id, 0, before, &hidden, false, limit + 1)?;
        let more = rows.len() > limit as usize;
        rows.truncate(limit as usize);
        let next_before = more.then(|| rows.last().map(|(r, _)| r.id)).flatten();
        let last_read = store::read_up_to(c, game_id, caller.user_id)?;
        Ok(ChatPage {
            messages: rows.into_iter().map(ChatMessage::from).collect(),
            next_before,
            last_read,
        })
    })
}

/// The messages after `after`, oldest first (a stream's read). The caller must sit at the game.
pub fn after(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    after: i64,
    limit: i64,
) -> ServiceResult<Vec<ChatMessage>> {
    caller.require(Scope::Read)?;
    db.read(|c| {
        own_seat(c, game_id, caller.user_id)?;
        let hidden = store::kept_apart(c, caller.user_id)?;
        let rows = store::messages(c, game_id, after, None, &hidden, true, limit)?;
        Ok(rows.into_iter().map(ChatMessage::from).collect())
    })
}

/// The caller's own messages at a game it sits at, oldest first (for its export).
pub fn own_messages(
    db: &Database,
    caller: &Caller,
    game_id: i64,
) -> ServiceResult<Vec<ChatMessage>> {
    caller.require(Scope::Read)?;
    db.read(|c| {
        own_seat(c, game_id, caller.user_id)?;
        let rows = store::messages_by(c, game_id, caller.user_id)?;
        Ok(rows
            .into_iter()
            .map(|row| ChatMessage::from((row, caller.name.clone())))
            .collect())
    })
}

/// Mark the chat read up to `read.last_read` (at most the newest message).
pub fn mark_read(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    read: &ChatRead,
) -> ServiceResult<()> {
    caller.require(Scope::Play)?;
    if read.last_read < 0 {
        return Err(ServiceError::invalid(
            "invalid_message",
            "last_read is a message id",
        ));
    }
    db.write(|c| {
        own_seat(c, game_id, caller.user_id)?;
        let newest = store::newest_message(c, game_id)?;
        store::mark_read(c, game_id, caller.user_id, read.last_read.min(newest))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::checked;

    #[test]
    fn a_message_is_one_line_of_at_most_500_characters() {
        assert_eq!(checked("  gg  ").unwrap(), "gg");
        assert_eq!(checked(&"é".repeat(500)).unwrap().chars().count(), 500);
        for bad in ["", "   ", "a\nb", "bell\u{7}", "x\u{85}x", &"x".repeat(501)] {
            assert!(checked(bad).is_err(), "{bad:?}");
        }
    }
}
