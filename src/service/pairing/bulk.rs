//! Bulk pairings for third parties (as Lichess's API offers): an organiser with the `organize`
//! scope creates many games at once, each seat a player who gave the organiser a personal token
//! with the `play` scope (their consent), seated in the order given (the first moves first), and
//! started at once or at a time within a week (by the pairing worker). Clubs and leagues run
//! their own events this way, with their own pairings.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::Variant;
use crate::service::accounts::{authenticate, Caller, Scope, TokenKeys, API_TOKEN_PREFIX};
use crate::service::correspondence::clocks::TimeControl;
use crate::service::play::lobby::seat_together;
use crate::service::{ServiceError, ServiceResult};
use crate::storage::bulk::{self as store, BulkRow};
use crate::storage::{Database, DbConnection};

/// The most games in one bulk pairing.
pub const MAX_GAMES: usize = 100;
/// The furthest ahead it may start (a week).
const MAX_AHEAD_MS: i64 = 7 * 86_400_000;

/// One game: its players' personal tokens, in seat order.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkGame {
    /// Each player's personal API token (`kt_...`) with the `play` scope: their consent to be
    /// seated. Used once, to know who they are; never stored.
    pub players: Vec<String>,
}

/// Games to create at once.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewBulkPairing {
    pub variant: Variant,
    /// Rated (default) or casual.
    #[serde(default = "rated_by_default")]
    pub rated: bool,
    #[serde(default, deserialize_with = "crate::service::play::strict::tagged")]
    pub time_control: TimeControl,
    /// When the games start (milliseconds since the Unix epoch, within a week); absent: at once.
    #[serde(default)]
    pub starts_at: Option<i64>,
    /// 1 to 100 games; a player in one of them at most.
    pub games: Vec<BulkGame>,
}

fn rated_by_default() -> bool {
    true
}

/// A game of a bulk pairing, as its organiser sees it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct BulkGameView {
    /// The players' names in seat order.
    pub players: Vec<String>,
    /// Once started.
    #[schema(required = true)]
    pub game_id: Option<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct BulkPairing {
    pub id: i64,
    pub variant: Variant,
    pub rated: bool,
    pub time_control: TimeControl,
    pub starts_at: i64,
    /// `scheduled`, `started` or `cancelled`.
    pub state: String,
    pub games: Vec<BulkGameView>,
}

/// Create the games (now, or scheduled).
pub fn create(
    db: &Database,
    keys: &TokenKeys,
    caller: &Caller,
    new: &NewBulkPairing,
) -> ServiceResult<BulkPairing> {
    caller.require(Scope::Organize)?;
    let now = db.now();
    if new.games.is_empty() || new.games.len() > MAX_GAMES {
        return Err(ServiceError::invalid(
            "invalid_games",
            "a bulk pairing has 1 to 100 games",
        ));
    }
    let counts = new.variant.player_counts();
    if let Some(i) = new
        .games
        .iter()
        .position(|g| !counts.contains(&(g.players.len() as u8)))
    {
        return Err(ServiceError::invalid(
            "invalid_games",
            format!(
                "games[{i}]: {} is played by {} to {} players",
                new.variant,
                counts.start(),
                counts.end()
            ),
        ));
    }
    let starts_at = new.starts_at.unwrap_or(now);
    if starts_at < now - 60_000 || starts_at > now + MAX_AHEAD_MS {
        return Err(ServiceError::invalid(
            "invalid_start",
            "bulk games start now or within a week",
        ));
    }
    let time_control = serde_json::to_string(&new.time_control.check()?)
        .map_err(|e| ServiceError::Internal(e.to_string()))?;
    // Who each token is: a personal token with the play scope, each player once.
    let mut seated: Vec<Vec<i64>> = vec![];
    let mut everyone = std::collections::HashSet::new();
    for (i, game) in new.games.iter().enumerate() {
        let mut players = vec![];
        for (j, token) in game.players.iter().enumerate() {
            let refused = || {
                ServiceError::invalid(
                    "invalid_player_token",
                    format!("games[{i}].players[{j}]: not a personal token with the play scope"),
                )
            };
            if !token.starts_with(API_TOKEN_PREFIX) {
                return Err(refused());
            }
            let player = authenticate(db, keys, token).map_err(|_| refused())?;
            if !player.scopes.contains(&Scope::Play) {
                return Err(refused());
            }
            if !everyone.insert(player.user_id) {
                return Err(ServiceError::invalid(
                    "duplicate_player",
                    format!(
                        "games[{i}].players[{j}]: {} is already in this pairing",
                        player.name
                    ),
                ));
            }
            players.push(player.user_id);
        }
        seated.push(players);
    }
    let id = db.write(|conn| {
        let id = store::insert(
            conn,
            caller.user_id,
            new.variant.name(),
            new.rated,
            &time_control,
            starts_at,
            now,
        )?;
        for (slot, players) in seated.iter().enumerate() {
            for (seat, &user) in players.iter().enumerate() {
                store::insert_seat(conn, id, slot as i32, seat as i32, user)?;
            }
        }
        if starts_at <= now {
            start(conn, id, now)?;
        }
        Ok::<_, ServiceError>(id)
    })?;
    get(db, caller, id)
}

/// One of the caller's bulk pairings.
pub fn get(db: &Database, caller: &Caller, id: i64) -> ServiceResult<BulkPairing> {
    caller.require(Scope::Organize)?;
    db.read(|conn| {
        let row = store::by_id(conn, id)?
            .filter(|r| r.organiser_id == caller.user_id)
            .ok_or(ServiceError::NotFound("bulk pairing"))?;
        view(conn, row)
    })
}

/// Every bulk pairing the caller organised, newest first (their data export).
pub fn organised(db: &Database, caller: &Caller) -> ServiceResult<Vec<BulkPairing>> {
    caller.require(Scope::Read)?;
    db.read(|conn| {
        store::organised_by(conn, caller.user_id)?
            .into_iter()
            .map(|row| view(conn, row))
            .collect()
    })
}

/// Cancel a scheduled bulk pairing (its games were never created).
pub fn cancel(db: &Database, caller: &Caller, id: i64) -> ServiceResult<BulkPairing> {
    caller.require(Scope::Organize)?;
    db.write(|conn| {
        store::by_id(conn, id)?
            .filter(|r| r.organiser_id == caller.user_id)
            .ok_or(ServiceError::NotFound("bulk pairing"))?;
        if !store::set_state(conn, id, "scheduled", "cancelled")? {
            return Err(ServiceError::conflict(
                "bulk_started",
                "its games have started (or it was cancelled)",
            ));
        }
        Ok(())
    })?;
    get(db, caller, id)
}

/// Start the scheduled pairings that are due (the pairing worker); how many.
pub fn start_due(db: &Database) -> ServiceResult<usize> {
    let now = db.now();
    let due = db.read(|conn| store::due(conn, now))?;
    let mut started = 0;
    for id in due {
        if db.write(|conn| start(conn, id, now))? {
            started += 1;
        }
    }
    Ok(started)
}

/// Create a pairing's games, once (false when another pass did).
fn start(conn: &mut DbConnection, id: i64, now: i64) -> ServiceResult<bool> {
    if !store::set_state(conn, id, "scheduled", "started")? {
        return Ok(false);
    }
    let row = store::by_id(conn, id)?.ok_or(ServiceError::NotFound("bulk pairing"))?;
    let variant = Variant::parse(&row.variant)
        .ok_or_else(|| ServiceError::Internal(format!("bulk {id} variant")))?;
    let time_control: TimeControl = serde_json::from_str(&row.time_control)
        .map_err(|e| ServiceError::Internal(e.to_string()))?;
    let seats = store::seats(conn, id)?;
    let mut slots: Vec<i32> = seats.iter().map(|(s, _)| s.slot).collect();
    slots.dedup();
    for slot in slots {
        let players: Vec<(i64, String)> = seats
            .iter()
            .filter(|(s, _)| s.slot == slot)
            .map(|(s, name)| (s.user_id, name.clone()))
            .collect();
        let game_id = seat_together(
            conn,
            variant,
            row.rated,
            time_control,
            &players,
            Some(0),
            now,
        )?;
        store::set_game(conn, id, slot, game_id)?;
    }
    Ok(true)
}

fn view(conn: &mut DbConnection, row: BulkRow) -> ServiceResult<BulkPairing> {
    let seats = store::seats(conn, row.id)?;
    let mut games: Vec<BulkGameView> = vec![];
    let mut last_slot = None;
    for (seat, name) in seats {
        if last_slot != Some(seat.slot) {
            games.push(BulkGameView {
                players: vec![],
                game_id: seat.game_id,
            });
            last_slot = Some(seat.slot);
        }
        if let Some(game) = games.last_mut() {
            game.players.push(name);
        }
    }
    Ok(BulkPairing {
        id: row.id,
        variant: Variant::parse(&row.variant)
            .ok_or_else(|| ServiceError::Internal(format!("bulk {} variant", row.id)))?,
        rated: row.rated,
        time_control: serde_json::from_str(&row.time_control)
            .map_err(|e| ServiceError::Internal(e.to_string()))?,
        starts_at: row.starts_at,
        state: row.state,
        games,
    })
}
