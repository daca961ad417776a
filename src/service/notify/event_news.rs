//! An event's news (what a notice of it tells) and its words, shared by email and push: the
//! event's name, the round, the place. Nothing of any game's cards.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::i18n::{self, Language};
use crate::service::ServiceResult;
use crate::storage::DbConnection;

/// What an event notice tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventNews {
    /// Your entry is confirmed.
    Entered,
    /// A round was dealt: your game in it (`null`: you have a bye).
    Round {
        round: i32,
        #[schema(required = true)]
        game_id: Option<i64>,
    },
    /// The event is over: your place, of how many.
    Over { place: u32, of: u32 },
    /// The event was cancelled (too few entered by the start, or its maker called it off).
    Cancelled,
}

impl EventNews {
    pub fn name(self) -> &'static str {
        match self {
            EventNews::Entered => "entered",
            EventNews::Round { .. } => "round",
            EventNews::Over { .. } => "over",
            EventNews::Cancelled => "cancelled",
        }
    }
}

/// The event's name (`None`: it is gone).
pub(crate) fn event_name(conn: &mut DbConnection, event_id: i64) -> ServiceResult<Option<String>> {
    Ok(crate::storage::events::by_id(conn, event_id)?.map(|e| e.name))
}

/// One line: what happened, in the player's language.
pub(crate) fn title(language: Language, name: &str, news: EventNews) -> String {
    let name = ("name", name.into());
    match news {
        EventNews::Entered => i18n::text(language, "event-entered", &[name]),
        EventNews::Round { round, game_id } => i18n::text(
            language,
            if game_id.is_some() {
                "event-round"
            } else {
                "event-bye"
            },
            &[name, ("round", round.into())],
        ),
        EventNews::Over { place, of } => i18n::text(
            language,
            "event-over",
            &[name, ("place", place.into()), ("of", of.into())],
        ),
        EventNews::Cancelled => i18n::text(language, "event-cancelled", &[name]),
    }
}

/// Where the news leads: the game dealt, or the event.
pub(crate) fn path(event_id: i64, news: EventNews) -> String {
    match news {
        EventNews::Round {
            game_id: Some(game_id),
            ..
        } => format!("/games/{game_id}"),
        _ => format!("/events/{event_id}"),
    }
}
