//! The lobby's lists: the open games anyone may join, and the caller's own, a page at a time.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::accounts::{Caller, Scope};
use crate::service::play::games::{summary, GameSummary};
use crate::service::{parse_cursor, ServiceResult};
use crate::storage::games::{self as store, GameRow};
use crate::storage::Database;

/// Which games to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameFilter {
    /// Games anyone may join, newest first.
    Open,
    /// Games you sit at or are invited to, most recently changed first.
    Mine,
}

/// One page of games, and the cursor of the next page (`null` on the last page).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GamePage {
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` to get the next page; `null` when there is none.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Where a page ends: `<updated_at>.<id>` of its last game (opaque to clients).
fn cursor_of(row: &GameRow) -> String {
    format!("{}.{}", row.updated_at, row.id)
}

/// One page of `filter`'s games after `cursor`.
pub fn list(
    db: &Database,
    caller: &Caller,
    filter: GameFilter,
    cursor: Option<&str>,
    limit: i64,
) -> ServiceResult<GamePage> {
    caller.require(Scope::Read)?;
    db.read(|conn| {
        // One row more than asked tells whether another page exists.
        let before = cursor.map(parse_cursor).transpose()?;
        let rows = match filter {
            GameFilter::Open => store::open_games(conn, before.map(|(_, id)| id), limit + 1)?,
            GameFilter::Mine => store::games_of(conn, caller.user_id, before, limit + 1)?,
        };
        let more = rows.len() as i64 > limit;
        let page = &rows[..rows.len().min(limit as usize)];
        Ok(GamePage {
            games: page
                .iter()
                .map(|row| summary(row, &store::seats(conn, row.id)?))
                .collect::<ServiceResult<_>>()?,
            next_cursor: page.last().filter(|_| more).map(cursor_of),
        })
    })
}
