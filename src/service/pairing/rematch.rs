//! Rematches: at a finished game, a seated player offers the same table again (same variant,
//! time control, rated or casual; the seats rotated, so that the second player moves first);
//! the others accept or decline, from the game page, a push or the email; the game starts when
//! everyone has accepted; an offer lapses after three days. Bots accept at once.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::Variant;
use crate::service::accounts::{Caller, Scope};
use crate::service::correspondence::clocks::ClockState;
use crate::service::notify::notifications::{queue, Notice};
use crate::service::play::games::{load_row, not_seated, record_from_log, seat_of, GameStatus};
use crate::service::play::lobby::seat_together;
use crate::service::social::fair_use::{may_take_a_seat, FairUse};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::games::{self as game_store, SeatRow};
use crate::storage::pairing::{self as store, RematchRow};
use crate::storage::{accounts as users, Database, DbConnection};

/// How long an offer waits for the others' answers (three days).
pub const REMATCH_LAPSES_MS: i64 = 3 * 24 * 3_600_000;

/// Where a rematch offer stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RematchState {
    /// Waiting for the players in `waiting_for`.
    Offered,
    /// Everyone accepted: the new game is `new_game_id`.
    Started,
    /// A player declined (`declined_by`; the one who offered withdrew it).
    Declined,
    /// Nobody answered within three days.
    Lapsed,
}

/// The rematch offered at a finished game.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct Rematch {
    /// The finished game.
    pub game_id: i64,
    pub offered_by: String,
    /// Who accepted (the one who offered and the bots included), in seat order.
    pub accepted: Vec<String>,
    /// Who has not answered yet.
    pub waiting_for: Vec<String>,
    pub state: RematchState,
    /// Milliseconds since the Unix epoch.
    pub offered_at: i64,
    /// When the offer lapses unanswered.
    pub expires_at: i64,
    #[schema(required = true)]
    pub new_game_id: Option<i64>,
    #[schema(required = true)]
    pub declined_by: Option<String>,
}

fn parse_seats(text: &str) -> Vec<i32> {
    text.split(',').filter_map(|n| n.parse().ok()).collect()
}

fn join_seats(seats: &[i32]) -> String {
    seats
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn view(row: &RematchRow, seats: &[SeatRow]) -> Rematch {
    let accepted = parse_seats(&row.accepted);
    let name = |seat: i32| {
        seats
            .iter()
            .find(|s| s.seat == seat)
            .map(|s| s.user_name.clone())
            .unwrap_or_default()
    };
    let state = match row.state.as_str() {
        "started" => RematchState::Started,
        "declined" => RematchState::Declined,
        "lapsed" => RematchState::Lapsed,
        _ => RematchState::Offered,
    };
    Rematch {
        game_id: row.game_id,
        offered_by: name(row.offered_by),
        accepted: seats
            .iter()
            .filter(|s| accepted.contains(&s.seat))
            .map(|s| s.user_name.clone())
            .collect(),
        waiting_for: seats
            .iter()
            .filter(|s| state == RematchState::Offered && !accepted.contains(&s.seat))
            .map(|s| s.user_name.clone())
            .collect(),
        state,
        offered_at: row.offered_at,
        expires_at: row.expires_at,
        new_game_id: row.new_game_id,
        declined_by: row.declined_by.map(name),
    }
}

/// The finished game's seats, with the caller's; refused when the game is not over or the
/// caller did not play it.
fn finished_table(
    conn: &mut DbConnection,
    caller: &Caller,
    game_id: i64,
) -> ServiceResult<(crate::storage::games::GameRow, Vec<SeatRow>, i32)> {
    let row = load_row(conn, game_id)?;
    let seats = game_store::seats(conn, game_id)?;
    let seat = seat_of(&seats, caller.user_id).ok_or_else(not_seated)?;
    if !GameStatus::parse(&row.status).is_finished() {
        return Err(ServiceError::conflict(
            "game_not_over",
            "a rematch is offered once the game is over",
        ));
    }
    Ok((row, seats, i32::from(seat)))
}

/// The offer at `game_id`, marked lapsed when its time has passed.
fn current(conn: &mut DbConnection, game_id: i64, now: i64) -> ServiceResult<Option<RematchRow>> {
    let Some(mut row) = store::rematch(conn, game_id)? else {
        return Ok(None);
    };
    if row.state == "offered" && row.expires_at <= now {
        row.state = "lapsed".into();
        row.closed_at = Some(row.expires_at);
        store::update_rematch(conn, &row)?;
    }
    Ok(Some(row))
}

/// The rematch offered at a game the caller played; `None` when none was (a normal state).
pub fn get(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<Option<Rematch>> {
    caller.require(Scope::Read)?;
    let now = db.now();
    db.write(|conn| {
        let (_, seats, _) = finished_table(conn, caller, game_id)?;
        Ok(current(conn, game_id, now)?.map(|row| view(&row, &seats)))
    })
}

/// Offer a rematch, or accept the one offered. The game starts when everyone has accepted; the
/// answer then says `started` with its id.
pub fn offer_or_accept(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    fair: FairUse,
) -> ServiceResult<Rematch> {
    caller.require(Scope::Play)?;
    let now = db.now();
    db.write(|conn| {
        store::lock(conn)?;
        let (game, seats, seat) = finished_table(conn, caller, game_id)?;
        let mut row = match current(conn, game_id, now)? {
            Some(row) if row.state == "started" => return Ok(view(&row, &seats)),
            Some(row) if row.state == "offered" => row,
            _ => offer(conn, caller, &seats, seat, game_id, now)?,
        };
        let mut accepted = parse_seats(&row.accepted);
        if !accepted.contains(&seat) {
            may_take_a_seat(conn, caller.user_id, fair, now)?;
            accepted.push(seat);
            accepted.sort_unstable();
            row.accepted = join_seats(&accepted);
        }
        if seats.iter().all(|s| accepted.contains(&s.seat)) {
            row.new_game_id = Some(start(conn, &game, &seats, now)?);
            row.state = "started".into();
            row.closed_at = Some(now);
        }
        store::update_rematch(conn, &row)?;
        Ok(view(&row, &seats))
    })
}

/// A new offer by `seat` (the bots accept at once), the others told.
fn offer(
    conn: &mut DbConnection,
    caller: &Caller,
    seats: &[SeatRow],
    seat: i32,
    game_id: i64,
    now: i64,
) -> ServiceResult<RematchRow> {
    for s in seats {
        let gone = users::user_by_id(conn, s.user_id)?.is_none_or(|u| u.deleted_at.is_some());
        if gone {
            return Err(ServiceError::conflict(
                "player_gone",
                "a player of this game has deleted their account",
            ));
        }
    }
    let mut accepted: Vec<i32> = seats.iter().filter(|s| s.is_bot).map(|s| s.seat).collect();
    accepted.push(seat);
    accepted.sort_unstable();
    accepted.dedup();
    let row = RematchRow {
        game_id,
        offered_by: seat,
        accepted: join_seats(&accepted),
        state: "offered".into(),
        offered_at: now,
        expires_at: now + REMATCH_LAPSES_MS,
        new_game_id: None,
        declined_by: None,
        closed_at: None,
    };
    store::offer_rematch(conn, &row)?;
    let notice = Notice::Invitation {
        game_id,
        by: caller.name.clone(),
        rematch: true,
    };
    for s in seats.iter().filter(|s| !accepted.contains(&s.seat)) {
        queue(conn, s.user_id, &notice, now)?;
    }
    Ok(row)
}

/// The new game: the same players, each a seat further, the one who moved second in the finished
/// game moving first.
fn start(
    conn: &mut DbConnection,
    game: &crate::storage::games::GameRow,
    seats: &[SeatRow],
    now: i64,
) -> ServiceResult<i64> {
    let variant = Variant::parse(&game.variant)
        .ok_or_else(|| ServiceError::Internal(format!("stored variant {:?}", game.variant)))?;
    let control = ClockState::from_json(game.clock.as_deref()).control;
    let mut players: Vec<(i64, String)> = seats
        .iter()
        .map(|s| (s.user_id, s.user_name.clone()))
        .collect();
    players.rotate_left(1);
    // The player who moved second in the finished game moves first: after the rotation that
    // player sits at the seat number the finished game's first mover had.
    let start = record_from_log(conn, game.id)?.map(|r| r.setup.start_player);
    seat_together(conn, variant, game.rated, control, &players, start, now)
}

/// Decline the rematch offered (the one who offered withdraws it); 409 `no_rematch_offer` when
/// none waits.
pub fn decline(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<Rematch> {
    caller.require(Scope::Play)?;
    let now = db.now();
    db.write(|conn| {
        store::lock(conn)?;
        let (_, seats, seat) = finished_table(conn, caller, game_id)?;
        let mut row = current(conn, game_id, now)?
            .filter(|r| r.state == "offered")
            .ok_or_else(|| {
                ServiceError::conflict("no_rematch_offer", "no rematch offer waits at this game")
            })?;
        row.state = "declined".into();
        row.declined_by = Some(seat);
        row.closed_at = Some(now);
        store::update_rematch(conn, &row)?;
        Ok(view(&row, &seats))
    })
}
