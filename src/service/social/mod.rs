//! Players together, apart from the rules' record:
//!
//! - `chat`: what the seated players of a game say to each other (pages, a live place on the
//!   game's stream, unread counts), with limits on length, characters and pace;
//! - `notes`: one private note per player and game, which only its author ever sees;
//! - `blocks`: keeping a player away (no invitations, no joining one's open games, no messages
//!   either way);
//! - `friends`: following players, to see their games and invite them in one step;
//! - `moderation`: reports, and what moderators do about them (mute, suspend, dismiss), kept in
//!   an audit log;
//! - `fair_use`: the cap on games running at once, and what mutes and suspensions stop.
//!
//! Spectators get no chat of their own: correspondence tables are small, and a room open to
//! anyone who looks would need watching that a table among its players does not.

pub mod blocks;
pub mod chat;
pub mod fair_use;
pub mod friends;
pub mod moderation;
pub mod notes;

use crate::service::play::games::{load_row, not_seated, seat_of};
use crate::service::ServiceResult;
use crate::storage::{games as game_store, DbConnection};

/// The caller's seat at `game_id`: 404 for no such game, 403 `not_seated` for anyone else.
fn own_seat(conn: &mut DbConnection, game_id: i64, user_id: i64) -> ServiceResult<u8> {
    let row = load_row(conn, game_id)?;
    let seats = game_store::seats(conn, row.id)?;
    seat_of(&seats, user_id).ok_or_else(not_seated)
}
