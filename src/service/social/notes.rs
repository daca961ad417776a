//! Private notes: one text per player and game that only its author ever reads (not the other
//! seats, not a stream, a webhook, the record, or anyone's export but the author's).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::own_seat;
use crate::service::accounts::{Caller, Scope};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::social as store;
use crate::storage::Database;

/// The longest note, in characters.
pub const MAX_CHARS: usize = 5000;

/// The caller's note on a game.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Note {
    /// Empty for none.
    pub text: String,
    /// When it was last changed (milliseconds since the Unix epoch); `null` without a note.
    #[schema(required = true)]
    pub updated_at: Option<i64>,
}

/// A note's new text.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"text": "She keeps the pink pile: discard no pink."}))]
pub struct NoteText {
    /// Up to 5,000 characters, lines allowed, no other control characters; empty deletes it.
    #[schema(max_length = 5000)]
    pub text: String,
}

/// The caller's note on a game it sits at (empty when it has none).
pub fn get(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<Note> {
    caller.require(Scope::Read)?;
    db.read(|c| {
        own_seat(c, game_id, caller.user_id)?;
        let note = store::note(c, game_id, caller.user_id)?;
        Ok(Note {
            text: note.as_ref().map(|(t, _)| t.clone()).unwrap_or_default(),
            updated_at: note.map(|(_, at)| at),
        })
    })
}

/// Replace the caller's note on a game it sits at; an empty text deletes it.
pub fn set(db: &Database, caller: &Caller, game_id: i64, note: &NoteText) -> ServiceResult<Note> {
    caller.require(Scope::Play)?;
    let text = note.text.trim_end();
    if text.chars().count() > MAX_CHARS
        || text
            .chars()
            .any(|ch| ch.is_control() && ch != '\n' && ch != '\t')
    {
        return Err(ServiceError::invalid(
            "invalid_note",
            format!("a note has at most {MAX_CHARS} characters, and no control characters but lines and tabs"),
        ));
    }
    let now = db.now();
    db.write(|c| {
        own_seat(c, game_id, caller.user_id)?;
        store::set_note(c, game_id, caller.user_id, text, now)?;
        Ok::<_, ServiceError>(())
    })?;
    Ok(Note {
        text: text.to_string(),
        updated_at: (!text.is_empty()).then_some(now),
    })
}
