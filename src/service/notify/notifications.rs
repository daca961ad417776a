//! Notifications: what the server has to tell a player, written to the outbox in the transaction
//! of what caused it, and delivered later (email comes with its deliverer). Each carries only
//! what its recipient may see.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::accounts::{Caller, Scope};
pub use crate::service::notify::event_news::EventNews;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::appends::AppendedNotice;
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
    /// It is your turn in a game (at this version of it).
    YourTurn {
        game_id: i64,
        seat: u8,
        version: i64,
        /// Your plan for this turn was not played, and why (only ever told to you).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plan_not_played: Option<PlanNotPlayed>,
    },
    /// Someone invited you to a game, or (`rematch`) offers a rematch at the finished game
    /// `game_id`: accept or decline it there (`POST` or `DELETE /games/{id}/rematch`).
    Invitation {
        game_id: i64,
        /// Who invited you.
        by: String,
        /// A rematch offered at this finished game, rather than an invitation to it.
        #[serde(default)]
        rematch: bool,
    },
    /// A game you sit at has started.
    GameStarted { game_id: i64 },
    /// A game you sat at is over (or was aborted).
    GameOver { game_id: i64 },
    /// The review of a game you sat at is ready (`GET /games/{id}/review`).
    ReviewReady { game_id: i64 },
    /// Confirm your email address (sent to that address only).
    VerifyEmail {
        /// The address to confirm.
        email: String,
    },
    /// The games waiting for you (digest mode), and how many chat messages came at your tables
    /// since the last digest (chat reaches email only as this count).
    Digest {
        /// The games where it is your turn.
        game_ids: Vec<i64>,
        /// Messages of other players at your tables since the last digest, still unread.
        #[serde(default)]
        unread_messages: i64,
    },
    /// A link to choose a new password, asked for by name or address (sent to the confirmed
    /// address only; the link itself is written into the email and kept nowhere).
    PasswordReset {
        /// The reset the link is for.
        reset_id: i64,
    },
    /// The account's password was changed (sent to the confirmed address whatever the
    /// preferences: the owner must hear of it).
    PasswordChanged,
    /// Two-factor sign-in was turned on or off (sent to the confirmed address whatever the
    /// preferences).
    TwoFactorChanged { on: bool },
    /// A moderator muted (`mute`) or suspended (`suspend`) the account until a time, and why
    /// (sent whatever the preferences: the player must hear of it).
    Moderated {
        action: String,
        /// Milliseconds since the Unix epoch.
        until: i64,
        reason: String,
    },
    /// The answer to a reply by email (moves by email): what it played, and why the rest was not
    /// (sent by email only, to the player who wrote; a player's own cards only).
    MailReply {
        game_id: i64,
        /// The decisions played, in order.
        played: Vec<crate::engine::DecisionJson>,
        /// Why (the rest of) the reply was not played: `stale` (it answered an earlier turn),
        /// `no_move`, `unreadable`, `not_a_choice`, `ambiguous`, `turn_over`, `game_over`, or a
        /// decision's refusal code.
        #[schema(required = true)]
        problem: Option<String>,
        /// The player's words that were not played (cut short).
        #[schema(required = true)]
        said: Option<String>,
        /// The `Message-ID` of the reply answered.
        #[schema(required = true)]
        message_id: Option<String>,
        /// The plan for the next turn the reply carried ("plan: ..." lines), if it did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plan: Option<MailPlan>,
    },
    /// News of an event you entered: your entry confirmed, a round dealt (your game, or a bye),
    /// the event over with your place, or cancelled.
    Event { event_id: i64, news: EventNews },
    /// The account was deleted: a goodbye to the address it had confirmed, which the notice
    /// carries (the account's settings are gone); the row is deleted once the email is sent or
    /// given up on.
    AccountDeleted {
        email: String,
        /// The language of the account's emails (`en`, `fr`, `de`).
        language: String,
    },
}

/// The kinds of notices told live, on the user stream and to webhooks (not the address
/// confirmations and digests, which are email only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = WebhookKind)]
pub enum LiveKind {
    YourTurn,
    DeadlineReminder,
    Invitation,
    GameStarted,
    GameOver,
    /// News of an event you entered.
    Event,
    /// The review of a game you sat at is ready.
    ReviewReady,
}

impl LiveKind {
    pub const ALL: [LiveKind; 7] = [
        LiveKind::YourTurn,
        LiveKind::DeadlineReminder,
        LiveKind::Invitation,
        LiveKind::GameStarted,
        LiveKind::GameOver,
        LiveKind::Event,
        LiveKind::ReviewReady,
    ];

    /// The name, as `Notice::kind` gives it.
    pub fn name(self) -> &'static str {
        match self {
            LiveKind::YourTurn => "your_turn",
            LiveKind::DeadlineReminder => "deadline_reminder",
            LiveKind::Invitation => "invitation",
            LiveKind::GameStarted => "game_started",
            LiveKind::GameOver => "game_over",
            LiveKind::Event => "event",
            LiveKind::ReviewReady => "review_ready",
        }
    }
}

impl Notice {
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::DeadlineReminder { .. } => "deadline_reminder",
            Notice::YourTurn { .. } => "your_turn",
            Notice::Invitation { .. } => "invitation",
            Notice::GameStarted { .. } => "game_started",
            Notice::GameOver { .. } => "game_over",
            Notice::VerifyEmail { .. } => "verify_email",
            Notice::Digest { .. } => "digest",
            Notice::PasswordReset { .. } => "password_reset",
            Notice::PasswordChanged => "password_changed",
            Notice::TwoFactorChanged { .. } => "two_factor_changed",
            Notice::Moderated { .. } => "moderated",
            Notice::AccountDeleted { .. } => "account_deleted",
            Notice::MailReply { .. } => "mail_reply",
            Notice::Event { .. } => "event",
            Notice::ReviewReady { .. } => "review_ready",
        }
    }

    /// Its kind, if it is told live (streams and webhooks).
    pub fn live_kind(&self) -> Option<LiveKind> {
        LiveKind::ALL.into_iter().find(|k| k.name() == self.kind())
    }

    pub fn game_id(&self) -> Option<i64> {
        match self {
            Notice::DeadlineReminder { game_id, .. }
            | Notice::YourTurn { game_id, .. }
            | Notice::Invitation { game_id, .. }
            | Notice::GameStarted { game_id }
            | Notice::GameOver { game_id }
            | Notice::ReviewReady { game_id }
            | Notice::MailReply { game_id, .. } => Some(*game_id),
            Notice::VerifyEmail { .. }
            | Notice::Digest { .. }
            | Notice::PasswordReset { .. }
            | Notice::PasswordChanged
            | Notice::TwoFactorChanged { .. }
            | Notice::Moderated { .. }
            | Notice::Event { .. }
            | Notice::AccountDeleted { .. } => None,
        }
    }

    /// What makes this notice unique for its recipient (with `at`, its time, for the kinds that
    /// may rightly come again): the same one written twice is queued once.
    fn dedup_key(&self, user_id: i64, at: i64) -> String {
        let what = match self {
            Notice::DeadlineReminder {
                game_id,
                seat,
                deadline,
                lead_ms,
            } => format!("{game_id}:{seat}:{deadline}:{lead_ms}"),
            // A turn whose plan was dropped is told again, with why.
            Notice::YourTurn {
                game_id,
                version,
                plan_not_played,
                ..
            } => match plan_not_played {
                Some(_) => format!("{game_id}:{version}:plan"),
                None => format!("{game_id}:{version}"),
            },
            // A rematch may be offered again once an offer was declined or lapsed.
            Notice::Invitation {
                game_id,
                rematch: true,
                ..
            } => format!("rematch:{game_id}:{at}"),
            Notice::Invitation { game_id, .. }
            | Notice::GameStarted { game_id }
            | Notice::GameOver { game_id }
            | Notice::ReviewReady { game_id } => game_id.to_string(),
            Notice::VerifyEmail { email } => format!("{email}:{at}"),
            Notice::Digest { .. } | Notice::PasswordChanged | Notice::AccountDeleted { .. } => {
                at.to_string()
            }
            Notice::TwoFactorChanged { on } => format!("{on}:{at}"),
            Notice::Moderated { action, until, .. } => format!("{action}:{until}:{at}"),
            Notice::PasswordReset { reset_id } => reset_id.to_string(),
            Notice::Event { event_id, news } => match news {
                EventNews::Round { round, .. } => format!("{event_id}:round:{round}"),
                news => format!("{event_id}:{}", news.name()),
            },
            Notice::MailReply {
                game_id,
                message_id,
                ..
            } => format!(
                "{game_id}:{at}:{}",
                crate::service::sha256_hex(message_id.as_deref().unwrap_or_default())
            ),
        };
        format!("{}:{user_id}:{what}", self.kind())
    }
}

/// A plan for the next turn carried by a reply by email, and whether it was kept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MailPlan {
    /// Kept for your next turn (as `PUT /games/{id}/plan` keeps one, without conditions).
    pub kept: bool,
    /// The plan's words (cut short).
    pub said: String,
    /// Why it was not kept: `reply_not_played` (the reply's own move was not played),
    /// `plan_on_your_turn` (your turn goes on), `no_next_turn`, `plan_not_playable`, `invalid_body`
    /// (more than four lines), or a `words_*` code.
    #[schema(required = true)]
    pub code: Option<String>,
}

/// Why a plan for a turn was not played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PlanNotPlayed {
    /// As a plan's outcome says it (`pile_changed`, `space_changed`, `step_refused`...).
    pub code: String,
    /// Why, in words, in your language.
    pub reason: String,
}

/// Where a notification stands in the outbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    /// Waiting to be sent (or to be retried).
    Pending,
    Sent,
    /// Not sent, and never will be; `last_error` says why: no address or no confirmed one, that
    /// kind of email turned off (or gathered in the digest), the turn or deadline it told of
    /// already over, the game gone, a link used or expired, an address changed or confirmed
    /// meanwhile.
    Skipped,
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
    /// Why the last attempt failed, or why it was skipped.
    #[schema(required = true)]
    pub last_error: Option<String>,
    pub notice: Notice,
}

/// `notice` for `user_id` as stored.
fn encoded(user_id: i64, notice: &Notice, now: i64) -> ServiceResult<AppendedNotice> {
    Ok(AppendedNotice {
        user_id,
        kind: notice.kind(),
        payload: serde_json::to_string(notice)
            .map_err(|e| ServiceError::Internal(e.to_string()))?,
        dedup_key: notice.dedup_key(user_id, now),
        // The account's webhooks that want this kind get it through the same outbox.
        to_webhooks: notice.live_kind().is_some(),
    })
}

/// Queue `notice` for `user_id` in the caller's transaction; false when it was already queued.
pub(in crate::service) fn queue(
    conn: &mut DbConnection,
    user_id: i64,
    notice: &Notice,
    now: i64,
) -> ServiceResult<bool> {
    let encoded = encoded(user_id, notice, now)?;
    let new = NewNotification {
        user_id,
        kind: encoded.kind,
        game_id: notice.game_id(),
        payload: &encoded.payload,
        dedup_key: &encoded.dedup_key,
    };
    Ok(store::insert_with_deliveries(conn, &new, encoded.to_webhooks, now)?.is_some())
}

/// The seated people and outside bots (not the server's bots) in `seats` for whom `who` holds.
fn people<'a>(
    seats: &'a [crate::storage::games::SeatRow],
    who: impl Fn(u8) -> bool + 'a,
) -> impl Iterator<Item = &'a crate::storage::games::SeatRow> + 'a {
    seats
        .iter()
        .filter(move |s| !s.played_by_server() && who(s.seat as u8))
}

/// Queue `notice(seat)` for every seated person and outside bot (not the server's bots) in `seats` for whom `who` holds.
pub(in crate::service) fn queue_for_people(
    conn: &mut DbConnection,
    seats: &[crate::storage::games::SeatRow],
    who: impl Fn(u8) -> bool,
    notice: impl Fn(u8) -> Notice,
    now: i64,
) -> ServiceResult<()> {
    for s in people(seats, who) {
        queue(conn, s.user_id, &notice(s.seat as u8), now)?;
    }
    Ok(())
}

/// `notice(seat)` for every seated person (not the bots) in `seats` for whom `who` holds, to be
/// written by an append of their game.
pub(in crate::service) fn notices_for_people(
    seats: &[crate::storage::games::SeatRow],
    who: impl Fn(u8) -> bool,
    notice: impl Fn(u8) -> Notice,
    now: i64,
) -> ServiceResult<Vec<AppendedNotice>> {
    people(seats, who)
        .map(|s| encoded(s.user_id, &notice(s.seat as u8), now))
        .collect()
}

/// Tell every seated person that the game is over (or aborted).
pub(in crate::service) fn queue_game_over(
    conn: &mut DbConnection,
    game_id: i64,
    seats: &[crate::storage::games::SeatRow],
    now: i64,
) -> ServiceResult<()> {
    queue_for_people(conn, seats, |_| true, |_| Notice::GameOver { game_id }, now)
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

/// A stored notice (its `payload`).
/// Why a turn notice (a "your turn", a deadline reminder) that waited no longer holds, if it does
/// not: the player moved or the game ended, a reminder's deadline changed, or a "your turn" was
/// followed by a later turn's own notice (one email, one push per turn). `game`: the game's row
/// as it is now; `notification_id`: the notice's. `None` for a notice that holds, or of another
/// kind.
pub(crate) fn turn_notice_over(
    conn: &mut DbConnection,
    game: Option<&crate::storage::games::GameRow>,
    user_id: i64,
    notification_id: i64,
    notice: &Notice,
) -> ServiceResult<Option<&'static str>> {
    let to_act = game.and_then(|g| g.to_act_user);
    let deadline = game.and_then(|g| g.deadline_at);
    match notice {
        Notice::YourTurn { game_id, .. } => {
            if to_act != Some(user_id) {
                return Ok(Some("no longer your turn"));
            }
            if store::newer_of_kind(conn, user_id, *game_id, "your_turn", notification_id)? {
                return Ok(Some("a later turn has its own notice"));
            }
            Ok(None)
        }
        // A reminder holds for its deadline only (a turn of several decisions keeps it; the next
        // turn has another).
        Notice::DeadlineReminder { deadline: d, .. } => {
            Ok((to_act != Some(user_id) || deadline != Some(*d)).then_some("no longer your turn"))
        }
        _ => Ok(None),
    }
}

pub(in crate::service) fn parse_notice(payload: &str) -> ServiceResult<Notice> {
    serde_json::from_str(payload)
        .map_err(|e| ServiceError::Storage(StorageError::Corrupt(e.to_string())))
}

fn view(row: NotificationRow) -> ServiceResult<NotificationView> {
    let notice = parse_notice(&row.payload)?;
    Ok(NotificationView {
        id: row.id,
        created_at: row.created_at,
        status: match row.status.as_str() {
            "sent" => DeliveryStatus::Sent,
            "skipped" => DeliveryStatus::Skipped,
            "failed" => DeliveryStatus::Failed,
            _ => DeliveryStatus::Pending,
        },
        attempts: row.attempts,
        sent_at: row.sent_at,
        last_error: row.last_error,
        notice,
    })
}

/// The outbox's depth: notifications and webhook deliveries waiting to be sent.
pub fn outbox_depth(db: &Database) -> ServiceResult<(i64, i64)> {
    db.read(|conn| {
        Ok((
            store::pending_count(conn)?,
            crate::storage::webhooks::pending_count(conn)?,
        ))
    })
}
