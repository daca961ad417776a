//! Taking your data (GDPR access and portability): everything the server holds about the caller
//! (settings, games, events, ladders, bulk pairings) as one JSON document, read through the same
//! service calls as the API, so that it shows what the caller may see and nothing more: no secret (token hashes, webhook secrets, push keys, the
//! two-factor secret), and of each game the events from the caller's seat (others' hands and the
//! draw pile's order only once the game is over, as for everyone).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::sessions::SessionInfo;
use super::two_factor::{self, TwoFactorStatus};
use super::{list_api_tokens, ApiTokenInfo, Caller};
use crate::ratings::RatingParameters;
use crate::service::correspondence::my_games::{self, MyGame};
use crate::service::correspondence::vacations::{self, VacationPolicy, VacationStatus};
use crate::service::events::ladder::{self, MyLadders};
use crate::service::events::view::{self as event_view, EnteredEvent};
use crate::service::notify::mail::{self, MailSettings};
use crate::service::notify::notifications::{self, NotificationView};
use crate::service::notify::push::{self, PushDevice};
use crate::service::notify::webhooks::{self, Webhook};
use crate::service::pairing::bulk::{self, BulkPairing};
use crate::service::play::events::{self, EventView};
use crate::service::ratings::profiles::{self, PlayerProfile};
use crate::service::social::blocks::{self, Block};
use crate::service::social::chat::{self, ChatMessage};
use crate::service::social::notes;
use crate::service::ServiceResult;
use crate::storage::Database;

/// One of the caller's games and its events, as the caller sees them, with the caller's note and
/// messages.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ExportedGame {
    pub game: MyGame,
    pub events: Vec<EventView>,
    /// The caller's private note (empty for none).
    pub note: String,
    /// The caller's own messages at the table, oldest first.
    pub messages: Vec<ChatMessage>,
    /// The game's review, once someone asked for it.
    #[schema(required = true)]
    pub review: Option<crate::service::review::GameReview>,
    /// The caller's plan waiting for their next turn, and what became of the earlier ones
    /// (none where they had no seat).
    #[schema(required = true)]
    pub plan: Option<crate::service::plans::PlanState>,
}

/// Everything the server holds about the caller.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AccountExport {
    /// When the document was made (milliseconds since the Unix epoch).
    pub exported_at: i64,
    pub user_id: i64,
    /// The profile as others see it: ratings per variant with their history, records, current
    /// games.
    pub profile: PlayerProfile,
    pub email: MailSettings,
    pub two_factor: TwoFactorStatus,
    pub vacation: VacationStatus,
    pub sessions: Vec<SessionInfo>,
    /// Without the tokens themselves (only their hashes are kept).
    pub api_tokens: Vec<ApiTokenInfo>,
    /// Without their signing secrets.
    pub webhooks: Vec<Webhook>,
    pub push_devices: Vec<PushDevice>,
    pub notifications: Vec<NotificationView>,
    pub games: Vec<ExportedGame>,
    /// The players the caller blocked.
    pub blocks: Vec<Block>,
    /// The events the caller entered, with their standing and rounds.
    pub events: Vec<EnteredEvent>,
    /// The caller's rungs on the ladders and their challenges.
    pub ladders: MyLadders,
    /// The bulk pairings the caller organised (their games are among `games` for those seated).
    pub bulk_pairings: Vec<BulkPairing>,
}

/// Pages read at a time.
const PAGE: i64 = 100;
/// More events than any game has.
const ALL_EVENTS: i64 = 100_000;

/// The caller's data. Only a signed-in session may take it (a token for a bot or an app may not).
pub fn export(
    db: &Database,
    caller: &Caller,
    vacation: VacationPolicy,
    ratings: &RatingParameters,
    replies_offered: bool,
) -> ServiceResult<AccountExport> {
    caller.require_session(
        "the account's data is exported from a signed-in session, not with an API token",
    )?;
    let mut games = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = my_games::list(db, caller, cursor.as_deref(), PAGE)?;
        for game in page.games {
            let id = game.summary.id;
            let events = events::events(db, caller, id, 0, ALL_EVENTS)?;
            // An invitation has no seat, so no note or message yet.
            let (note, messages, plan) = match game.your_seat {
                Some(_) => (
                    notes::get(db, caller, id)?.text,
                    chat::own_messages(db, caller, id)?,
                    Some(crate::service::plans::of_owner(db, caller.user_id, id)?),
                ),
                None => (String::new(), Vec::new(), None),
            };
            games.push(ExportedGame {
                game,
                events,
                note,
                messages,
                review: crate::service::review::of_game(db, id)?,
                plan,
            });
        }
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    let mut all_notifications = Vec::new();
    loop {
        let before = all_notifications.last().map(|n: &NotificationView| n.id);
        let page = notifications::list(db, caller, before, PAGE)?;
        let done = (page.len() as i64) < PAGE;
        all_notifications.extend(page);
        if done {
            break;
        }
    }
    Ok(AccountExport {
        exported_at: db.now(),
        user_id: caller.user_id,
        profile: profiles::profile(db, caller, &caller.name, ratings)?,
        email: mail::settings(db, caller, replies_offered)?,
        two_factor: two_factor::status(db, caller)?,
        vacation: vacations::status(db, caller, vacation)?,
        sessions: super::sessions::list(db, caller)?,
        api_tokens: list_api_tokens(db, caller)?,
        webhooks: webhooks::list(db, caller)?,
        push_devices: push::list(db, caller)?,
        notifications: all_notifications,
        games,
        blocks: blocks::list(db, caller)?,
        events: event_view::entered(db, caller)?,
        ladders: ladder::mine(db, caller)?,
        bulk_pairings: bulk::organised(db, caller)?,
    })
}
