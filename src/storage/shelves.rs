//! A player's games by shelf, for the list of games waiting for them (`service::correspondence::my_games`): the
//! games where it is their turn, the invitations, the games where others are to act, the finished
//! ones. Each shelf is one indexed query; the service stacks them into pages.

use diesel::prelude::*;

use super::games::GameRow;
use super::schema::{game_invites, game_seats, games};
use super::{DbConnection, StorageError};

/// The statuses of a game that is over, one way or another.
const FINISHED: [&str; 3] = ["over", "aborted", "cancelled"];

/// The active games where it is `user_id`'s turn (all of them: a player has few).
pub fn your_turn(conn: &mut DbConnection, user_id: i64) -> Result<Vec<GameRow>, StorageError> {
    Ok(games::table
        .filter(games::to_act_user.eq(user_id))
        .filter(games::status.eq("active"))
        .select(GameRow::as_select())
        .load(conn)?)
}

/// The shelves that page by the last change, most recent first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecentShelf {
    /// Open games the user is invited to and does not sit at.
    Invited,
    /// Open or active games the user sits at where someone else is to act (or players are
    /// awaited).
    OthersToAct,
    /// Games the user sat at that are over, aborted or cancelled.
    Finished,
}

/// One page of a shelf, most recently changed first, after `before` (`(updated_at, id)` of the
/// previous page's last game).
pub fn recent(
    conn: &mut DbConnection,
    user_id: i64,
    shelf: RecentShelf,
    before: Option<(i64, i64)>,
    limit: i64,
) -> Result<Vec<GameRow>, StorageError> {
    let seated = game_seats::table
        .filter(game_seats::user_id.eq(user_id))
        .select(game_seats::game_id);
    let mut query = match shelf {
        RecentShelf::Invited => {
            let invited = game_invites::table
                .filter(game_invites::user_id.eq(user_id))
                .select(game_invites::game_id);
            games::table
                .filter(games::id.eq_any(invited))
                .filter(diesel::dsl::not(games::id.eq_any(seated)))
                .filter(games::status.eq("open"))
                .into_boxed()
        }
        RecentShelf::OthersToAct => games::table
            .filter(games::id.eq_any(seated))
            .filter(games::status.eq_any(["open", "active"]))
            .filter(
                games::to_act_user
                    .is_null()
                    .or(games::to_act_user.ne(user_id)),
            )
            .into_boxed(),
        RecentShelf::Finished => games::table
            .filter(games::id.eq_any(seated))
            .filter(games::status.eq_any(FINISHED))
            .into_boxed(),
    };
    if let Some((updated_at, id)) = before {
        query = query.filter(
            games::updated_at
                .lt(updated_at)
                .or(games::updated_at.eq(updated_at).and(games::id.lt(id))),
        );
    }
    Ok(query
        .order((games::updated_at.desc(), games::id.desc()))
        .limit(limit)
        .select(GameRow::as_select())
        .load(conn)?)
}
