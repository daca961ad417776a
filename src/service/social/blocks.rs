//! Blocks. A player who blocks another keeps them away: the blocked player cannot invite them or
//! join their open games, pairing never seats them together, and neither sees the other's messages (in a game already under way the
//! game goes on; only the messages are hidden). The blocked player is not told.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::accounts::{Caller, Scope};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::{accounts as users, social as store, Database, DbConnection};

/// A player the caller blocked.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Block {
    pub user: String,
    /// Milliseconds since the Unix epoch.
    pub since: i64,
}

fn named(conn: &mut DbConnection, name: &str) -> ServiceResult<i64> {
    users::user_by_name(conn, name)?
        .map(|u| u.id)
        .ok_or(ServiceError::NotFound("player"))
}

/// Whom the caller blocked, by name.
pub fn list(db: &Database, caller: &Caller) -> ServiceResult<Vec<Block>> {
    caller.require(Scope::Read)?;
    let rows = db.read(|c| store::blocked_by(c, caller.user_id))?;
    Ok(rows
        .into_iter()
        .map(|(user, since)| Block { user, since })
        .collect())
}

/// Block `name` (blocking again changes nothing).
pub fn block(db: &Database, caller: &Caller, name: &str) -> ServiceResult<()> {
    caller.require(Scope::Play)?;
    let now = db.now();
    db.write(|c| {
        let id = named(c, name)?;
        if id == caller.user_id {
            return Err(ServiceError::invalid(
                "cannot_block_self",
                "you cannot block yourself",
            ));
        }
        store::block(c, caller.user_id, id, now)?;
        Ok(())
    })
}

/// Undo a block of `name`; 404 when there was none.
pub fn unblock(db: &Database, caller: &Caller, name: &str) -> ServiceResult<()> {
    caller.require(Scope::Play)?;
    db.write(|c| {
        let id = named(c, name)?;
        if !store::unblock(c, caller.user_id, id)? {
            return Err(ServiceError::NotFound("block"));
        }
        Ok(())
    })
}

/// Refuse `user_id`'s invitation of, or joining a game with, `others` when any of them blocked
/// it (403 `blocked`, saying `why`).
pub(crate) fn refuse_if_blocked(
    conn: &mut DbConnection,
    user_id: i64,
    others: &[i64],
    why: &'static str,
) -> ServiceResult<()> {
    if store::blocked_by_any(conn, others, user_id)? {
        return Err(ServiceError::forbidden("blocked", why));
    }
    Ok(())
}
