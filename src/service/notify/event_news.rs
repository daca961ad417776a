//! The words of an event's news, shared by email and push: the event's name, the round, the
//! place. Nothing of any game's cards.

use crate::service::i18n::{self, Language};
use crate::service::notify::notifications::EventNews;
use crate::service::ServiceResult;
use crate::storage::DbConnection;

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
