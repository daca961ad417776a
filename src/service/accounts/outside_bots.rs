//! Outside bots: an account its owner marks as a program that plays through the API. From then on
//! it is shown as a bot everywhere (seats, profiles, leaderboards, `GET /bots`), accepts
//! invitations at once as the server's bots do, and is rated on the same ladders with its bot
//! mark. Unlike the server's bots it signs in (so its owner can give it tokens, through OAuth or by
//! hand), its stream tells it when it is to act, and no worker of the server plays its seats.
//!
//! Only an account that never sat at a game may become a bot, so that no person's results are
//! ever counted as a bot's; and it never becomes a person's account again.

use super::{reauthenticated, Caller, TokenKeys};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::{accounts as store, Database};

/// Mark the caller's account as an outside bot (from a signed-in session, with the password, and
/// a code when two-factor sign-in is on). Marking a bot again changes nothing.
pub fn mark(
    db: &Database,
    keys: &TokenKeys,
    caller: &Caller,
    password: &str,
    code: Option<&str>,
) -> ServiceResult<()> {
    let user = reauthenticated(
        db,
        keys,
        caller,
        password,
        code,
        "an account is marked as a bot from a signed-in session",
    )?;
    if user.outside_bot {
        return Ok(());
    }
    if !db.write(|c| store::mark_outside_bot(c, user.id))? {
        return Err(ServiceError::conflict(
            "has_played",
            "this account has sat at a game: only an account that never played can become a bot",
        ));
    }
    tracing::info!(user = user.id, "account marked as an outside bot");
    Ok(())
}
