//! Friends: a player follows others (they are not asked, and not told), sees whom they follow
//! with their current games, and invites them in one step when creating a game (`invite` in
//! `POST /games`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::accounts::{Caller, Scope};
use crate::service::play::games::{summary, GameSummary};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::{accounts as users, games as game_store, social as store, Database};

/// A player the caller follows.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Followed {
    pub user: String,
    pub is_bot: bool,
    /// Since when (milliseconds since the Unix epoch).
    pub since: i64,
    /// Their games under way.
    pub current_games: Vec<GameSummary>,
}

/// Whom the caller follows, by name, with their games under way.
pub fn list(db: &Database, caller: &Caller) -> ServiceResult<Vec<Followed>> {
    caller.require(Scope::Read)?;
    db.read(|c| {
        let followed = store::followed_by(c, caller.user_id)?;
        followed
            .into_iter()
            .map(|(id, user, is_bot, since)| {
                let current_games = game_store::active_seats_of(c, id)?
                    .iter()
                    .map(|(row, _)| summary(row, &game_store::seats(c, row.id)?))
                    .collect::<ServiceResult<_>>()?;
                Ok(Followed {
                    user,
                    is_bot,
                    since,
                    current_games,
                })
            })
            .collect()
    })
}

/// Follow `name` (following again changes nothing).
pub fn follow(db: &Database, caller: &Caller, name: &str) -> ServiceResult<()> {
    caller.require(Scope::Play)?;
    let now = db.now();
    db.write(|c| {
        let user = users::user_by_name(c, name)?.ok_or(ServiceError::NotFound("player"))?;
        if user.id == caller.user_id {
            return Err(ServiceError::invalid(
                "cannot_follow_self",
                "you cannot follow yourself",
            ));
        }
        store::follow(c, caller.user_id, user.id, now)?;
        Ok(())
    })
}

/// Stop following `name`; 404 when the caller did not follow them.
pub fn unfollow(db: &Database, caller: &Caller, name: &str) -> ServiceResult<()> {
    caller.require(Scope::Play)?;
    db.write(|c| {
        let user = users::user_by_name(c, name)?.ok_or(ServiceError::NotFound("player"))?;
        if !store::unfollow(c, caller.user_id, user.id)? {
            return Err(ServiceError::NotFound("follow"));
        }
        Ok(())
    })
}
