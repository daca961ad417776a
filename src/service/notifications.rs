//! Notifications: what the server has to tell a player, written to the outbox in the transaction
//! of what caused it, and delivered later (email comes with its deliverer). Each carries only
//! what its recipient may see.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::accounts::{Caller, Scope};
use super::{ServiceError, ServiceResult};
use crate::storage::notifications::{self as store, NewNotification, NotificationRow};
use crate::storage::{Database, DbConnection, StorageError};

/// What a notification says, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    /// Your deadline in a game is near.
    DeadlineReminder {
        game_id: i64,
        seat: u8,
        /// When your time runs out (milliseconds since the Unix epoch).
        deadline: i64,
        /// How long before the deadline this reminder was due, in milliseconds (24 h or 1 h).
        lead_ms: i64,
    },
}

impl Notice {
    fn kind(&self) -> &'static str {
        match self {
            Notice::DeadlineReminder { .. } => "deadline_reminder",
        }
    }

    fn game_id(&self) -> Option<i64> {
        match self {
            Notice::DeadlineReminder { game_id, .. } => Some(*game_id),
        }
    }

    /// What makes this notice unique: the same one written twice is queued once.
    fn dedup_key(&self) -> String {
        match self {
            Notice::DeadlineReminder {
                game_id,
                seat,
                deadline,
                lead_ms,
            } => format!("deadline_reminder:{game_id}:{seat}:{deadline}:{lead_ms}"),
        }
    }
}

/// Where a notification stands in the outbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    /// Waiting to be sent (or to be retried).
    Pending,
    Sent,
    /// Given up on.
    Failed,
}

/// One of the caller's notifications and its delivery.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct NotificationView {
    pub id: i64,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub status: DeliveryStatus,
    pub attempts: i32,
    /// Milliseconds since the Unix epoch.
    #[schema(required = true)]
    pub sent_at: Option<i64>,
    pub notice: Notice,
}

/// Queue `notice` for `user_id` in the caller's transaction; false when it was already queued.
pub(super) fn queue(
    conn: &mut DbConnection,
    user_id: i64,
    notice: &Notice,
    now: i64,
) -> ServiceResult<bool> {
    let payload =
        serde_json::to_string(notice).map_err(|e| ServiceError::Internal(e.to_string()))?;
    let new = NewNotification {
        user_id,
        kind: notice.kind(),
        game_id: notice.game_id(),
        payload: &payload,
        dedup_key: &notice.dedup_key(),
    };
    Ok(store::insert(conn, &new, now)?)
}

/// The caller's notifications, newest first; `before`: only older ones (an id from a previous
/// page).
pub fn list(
    db: &Database,
    caller: &Caller,
    before: Option<i64>,
    limit: i64,
) -> ServiceResult<Vec<NotificationView>> {
    caller.require(Scope::Read)?;
    db.read(|conn| {
        store::of_user(conn, caller.user_id, before, limit)?
            .into_iter()
            .map(view)
            .collect()
    })
}

fn view(row: NotificationRow) -> ServiceResult<NotificationView> {
    let notice = serde_json::from_str(&row.payload)
        .map_err(|e| ServiceError::Storage(StorageError::Corrupt(e.to_string())))?;
    Ok(NotificationView {
        id: row.id,
        created_at: row.created_at,
        status: match row.status.as_str() {
            "sent" => DeliveryStatus::Sent,
            "failed" => DeliveryStatus::Failed,
            _ => DeliveryStatus::Pending,
        },
        attempts: row.attempts,
        sent_at: row.sent_at,
        notice,
    })
}
