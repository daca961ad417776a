//! Open challenge links: a seated player of a game waiting for players gets a link to share (in a
//! chat, say) that seats whoever opens it first, signed in, invitation-only games included, until
//! the seats are full. The link is the game's id and a MAC of it under the server's key: nothing
//! is stored, and it works as long as the game waits.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::service::accounts::sessions::TokenKeys;
use crate::service::accounts::{Caller, Scope};
use crate::service::play::games::{load_row, not_seated, seat_of, GameDetail, GameStatus};
use crate::service::play::lobby;
use crate::service::social::fair_use::FairUse;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::games as game_store;
use crate::storage::Database;

/// A link that seats whoever opens it first at a game waiting for players.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ChallengeLink {
    pub game_id: i64,
    /// What `POST /challenges/{token}` takes.
    pub token: String,
    /// The web client's page that joins the game (signing in first if needed).
    pub link: String,
}

fn mac_message(game_id: i64) -> String {
    format!("challenge-link:{game_id}")
}

/// The link of an open game the caller sits at.
pub fn link(
    db: &Database,
    keys: &TokenKeys,
    caller: &Caller,
    game_id: i64,
    public_url: &str,
) -> ServiceResult<ChallengeLink> {
    caller.require(Scope::Read)?;
    db.read(|conn| {
        let row = load_row(conn, game_id)?;
        let seats = game_store::seats(conn, game_id)?;
        seat_of(&seats, caller.user_id).ok_or_else(not_seated)?;
        if GameStatus::parse(&row.status) != GameStatus::Open {
            return Err(ServiceError::conflict(
                "game_not_open",
                "the game is not waiting for players",
            ));
        }
        Ok(())
    })?;
    let token = format!("{game_id}-{}", keys.mac_hex(&mac_message(game_id)));
    Ok(ChallengeLink {
        game_id,
        link: format!("{public_url}/join/{token}"),
        token,
    })
}

/// Take a seat through a link: 404 when the link is not one of ours, 409 `game_not_open` when
/// its seats were taken first.
pub fn accept(
    db: &Database,
    keys: &TokenKeys,
    caller: &Caller,
    token: &str,
    fair: FairUse,
) -> ServiceResult<GameDetail> {
    caller.require(Scope::Play)?;
    let game_id = token
        .split_once('-')
        .and_then(|(id, mac)| {
            let id: i64 = id.parse().ok()?;
            keys.mac_matches(&mac_message(id), mac).then_some(id)
        })
        .ok_or(ServiceError::NotFound("challenge link"))?;
    lobby::join_by_link(db, caller, game_id, fair)
}
