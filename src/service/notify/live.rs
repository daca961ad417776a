//! Live updates: waiting for a game's next event or a user's next notification without polling
//! (long polls and event streams), the user stream's notices, and stream tickets (browsers'
//! `EventSource` cannot send an `Authorization` header, and a token never goes in a URL).

use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use tokio::time::Instant;
use utoipa::ToSchema;

use crate::service::accounts::{Caller, Scope, TokenKeys};
use crate::service::notify::notifications::{parse_notice, LiveKind, Notice};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::notifications as store;
use crate::storage::wakeups::Topic;
use crate::storage::Database;

/// Someone waiting for a game's events or a user's notices. Subscribe before reading: a commit
/// between the read and the wait still wakes the waiter.
pub struct Waiter(watch::Receiver<u64>);

impl Waiter {
    /// Wait for a game's next event.
    pub fn for_game(db: &Database, game_id: i64) -> Waiter {
        Waiter(db.wakeups().subscribe(Topic::Game(game_id)))
    }

    /// Wait for a user's next notice.
    pub fn for_user(db: &Database, user_id: i64) -> Waiter {
        Waiter(db.wakeups().subscribe(Topic::User(user_id)))
    }

    /// Until something was committed for the topic since the last wake-up (true), or `until`
    /// (false). Holds no connection and no thread while it waits.
    pub async fn woken_before(&mut self, until: Instant) -> bool {
        matches!(
            tokio::time::timeout_at(until, self.0.changed()).await,
            Ok(Ok(()))
        )
    }

    /// The next wake-up (pending forever if the topic's sender is gone, which it never is).
    pub async fn woken(&mut self) {
        if self.0.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// One notice of the user stream; `id` resumes the stream (`Last-Event-ID`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct LiveNotice {
    pub id: i64,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub notice: Notice,
}

/// The caller's notices after `after`, oldest first.
pub fn notices_after(
    db: &Database,
    caller: &Caller,
    after: i64,
    limit: i64,
) -> ServiceResult<Vec<LiveNotice>> {
    caller.require(Scope::Read)?;
    db.read(|conn| {
        let kinds = LiveKind::ALL.map(LiveKind::name);
        store::after(conn, caller.user_id, after, &kinds, limit)?
            .into_iter()
            .map(|row| {
                let notice = parse_notice(&row.payload)?;
                Ok(LiveNotice {
                    id: row.id,
                    created_at: row.created_at,
                    notice,
                })
            })
            .collect()
    })
}

/// The id of the caller's newest notice: a stream without `Last-Event-ID` starts after it.
pub fn latest_notice(db: &Database, caller: &Caller) -> ServiceResult<i64> {
    caller.require(Scope::Read)?;
    db.read(|conn| Ok(store::latest_id(conn, caller.user_id)?))
}

/// How long a stream ticket may be used to open a stream.
pub const TICKET_SECONDS: i64 = 60;
const TICKET_AUDIENCE: &str = "keltis-stream";

/// What a stream ticket is for: one game's stream, or the caller's own.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TicketRequest {
    /// The game whose stream the ticket opens; absent for the caller's own stream
    /// (`/me/stream`).
    #[serde(default)]
    pub game_id: Option<i64>,
}

/// A short-lived ticket that opens one stream without an `Authorization` header:
/// `?ticket=` in the stream's URL.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct StreamTicket {
    pub ticket: String,
    /// Milliseconds since the Unix epoch; open the stream before then (an open stream stays
    /// open). Reconnecting later takes a new ticket.
    pub expires_at: i64,
}

#[derive(Serialize, Deserialize)]
struct TicketClaims {
    aud: String,
    uid: i64,
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gid: Option<i64>,
    exp: i64,
}

/// A ticket for the caller (any token that may read).
pub fn ticket(
    keys: &TokenKeys,
    caller: &Caller,
    request: &TicketRequest,
) -> ServiceResult<StreamTicket> {
    caller.require(Scope::Read)?;
    let exp = crate::storage::now_millis() / 1000 + TICKET_SECONDS;
    let ticket = keys.sign(&TicketClaims {
        aud: TICKET_AUDIENCE.into(),
        uid: caller.user_id,
        name: caller.name.clone(),
        gid: request.game_id,
        exp,
    })?;
    Ok(StreamTicket {
        ticket,
        expires_at: exp * 1000,
    })
}

/// The caller a ticket stands for, when it opens the stream of `game_id` (`None`: the user
/// stream). The caller may only read.
pub fn redeem(keys: &TokenKeys, ticket: &str, game_id: Option<i64>) -> ServiceResult<Caller> {
    keys.verify_exact::<TicketClaims>(ticket, TICKET_AUDIENCE)
        .filter(|c| c.gid == game_id)
        .map(|c| Caller {
            user_id: c.uid,
            name: c.name,
            scopes: vec![Scope::Read],
            session_id: None,
        })
        .ok_or(ServiceError::Unauthorized(
            "this stream ticket is invalid, expired, or for another stream",
        ))
}
