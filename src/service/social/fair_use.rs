//! Fair use: a cap on the games a player has running at once (open or being played), raised as
//! games finish, and the suspension that keeps a player from new games. The server's own bots
//! have no cap.

use crate::service::{ServiceError, ServiceResult};
use crate::storage::locks::{self, Subject};
use crate::storage::{accounts as users, moderation as store, DbConnection};

/// The operator's settings for fair use.
#[derive(Clone, Copy, Debug)]
pub struct FairUse {
    /// Games a player may have open or under way at once.
    pub max_running_games: i64,
}

/// Refuse `user_id` a new seat (creating or joining a game) when a moderator suspended the
/// account, or when it has [`FairUse::max_running_games`] running already. Locks the player
/// first (a game's lock, where the seat is at a game that exists, comes before it): the count
/// holds against another seat taken at the same moment.
pub(crate) fn may_take_a_seat(
    conn: &mut DbConnection,
    user_id: i64,
    fair: FairUse,
    now: i64,
) -> ServiceResult<()> {
    locks::lock(conn, Subject::Player(user_id))?;
    let user = not_suspended(conn, user_id, now)?;
    if user.server_bot() {
        return Ok(());
    }
    let running = store::running_games(conn, user_id)?;
    if running >= fair.max_running_games {
        return Err(ServiceError::conflict(
            "too_many_games",
            format!(
                "you have {running} games open or under way, the most at once: finish one first"
            ),
        ));
    }
    Ok(())
}

/// Refuse `user_id` anything that starts play (a seat, a ladder challenge) while a moderator has
/// suspended the account; the account otherwise.
pub(crate) fn not_suspended(
    conn: &mut DbConnection,
    user_id: i64,
    now: i64,
) -> ServiceResult<users::UserRow> {
    let user = users::user_by_id(conn, user_id)?.ok_or(ServiceError::Unauthorized("signed out"))?;
    match user.suspended_until.filter(|u| *u > now) {
        Some(until) => Err(ServiceError::Restricted {
            code: "suspended",
            until,
        }),
        None => Ok(user),
    }
}

/// Refuse `user_id` the chat while muted or suspended.
pub(crate) fn may_talk(conn: &mut DbConnection, user_id: i64, now: i64) -> ServiceResult<()> {
    let user = users::user_by_id(conn, user_id)?.ok_or(ServiceError::Unauthorized("signed out"))?;
    if let Some(until) = user.suspended_until.filter(|u| *u > now) {
        return Err(ServiceError::Restricted {
            code: "suspended",
            until,
        });
    }
    if let Some(until) = user.muted_until.filter(|u| *u > now) {
        return Err(ServiceError::Restricted {
            code: "muted",
            until,
        });
    }
    Ok(())
}
