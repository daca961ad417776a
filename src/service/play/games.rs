//! Games: what the lobby, play and event services share. A game is its event log
//! (`game_events`); every change appends one event on the version the caller saw, and the engine
//! state snapshot, tagged with the engine version, is written in the same transaction.
//!
//! `lobby` creates and fills games, `play` validates and appends decisions, `events` shows the
//! log as a caller may see it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::{
    Card, DecisionJson, Game, Record, RecordedDecision, Setup, Variant, View, ENGINE_VERSION,
};
use crate::service::correspondence::clocks::{ClockState, ClockView, TimeControl};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::appends::GameUpdate;
use crate::storage::games::{self as store, GameRow, SeatRow};
use crate::storage::{DbConnection, StorageError};

/// What happened in a game, as stored in `game_events.payload` (hidden parts included).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEvent {
    Created {
        variant: Variant,
        players: u8,
        invite_only: bool,
        /// Absent in games created before ratings: casual.
        #[serde(default)]
        rated: bool,
        by: String,
        /// Absent in games created before time controls: none.
        #[serde(default)]
        time_control: TimeControl,
    },
    Joined {
        seat: u8,
        user: String,
    },
    Left {
        user: String,
    },
    Invited {
        user: String,
    },
    /// The deal (hidden: hands, draw pile, removed cards). The seed is never stored.
    Started {
        setup: Setup,
    },
    Decided {
        seat: u8,
        decision: DecisionJson,
        /// The card a draw took (hidden from the others for a draw from the deck).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drawn: Option<Card>,
    },
    /// The clock began with the first turn (games with a time control).
    ClockStarted {
        seat: u8,
        /// `None` when the seat's player is away on vacation.
        deadline: Option<i64>,
    },
    /// The seat's deadline passed (replays as the engine's `time_out`).
    TimedOut {
        seat: u8,
        deadline: i64,
    },
    /// A seat that left the game is played by a bot from now on.
    SeatTakenOver {
        seat: u8,
        by: String,
    },
    /// The game ended without a result: its first turn was never played.
    Aborted {
        seat: u8,
    },
    /// The seat's player went on vacation: their clock stands still.
    VacationStarted {
        seat: u8,
        user: String,
    },
    /// The seat's player came back: their clock runs again.
    VacationEnded {
        seat: u8,
        user: String,
    },
}

impl GameEvent {
    pub fn kind(&self) -> &'static str {
        match self {
            GameEvent::Created { .. } => "created",
            GameEvent::Joined { .. } => "joined",
            GameEvent::Left { .. } => "left",
            GameEvent::Invited { .. } => "invited",
            GameEvent::Started { .. } => "started",
            GameEvent::Decided { .. } => "decided",
            GameEvent::ClockStarted { .. } => "clock_started",
            GameEvent::TimedOut { .. } => "timed_out",
            GameEvent::SeatTakenOver { .. } => "seat_taken_over",
            GameEvent::Aborted { .. } => "aborted",
            GameEvent::VacationStarted { .. } => "vacation_started",
            GameEvent::VacationEnded { .. } => "vacation_ended",
        }
    }
}

/// Where a game stands in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for players.
    Open,
    /// Being played.
    Active,
    /// Finished.
    Over,
    /// Everyone left before the start.
    Cancelled,
    /// Ended without a result: a seat timed out before the game really began (see the
    /// `aborted` event).
    Aborted,
}

impl GameStatus {
    pub(in crate::service) fn name(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Active => "active",
            GameStatus::Over => "over",
            GameStatus::Cancelled => "cancelled",
            GameStatus::Aborted => "aborted",
        }
    }

    /// Whether play has ended, so that what was hidden may be shown.
    pub(in crate::service) fn is_finished(self) -> bool {
        matches!(self, GameStatus::Over | GameStatus::Aborted)
    }

    pub(in crate::service) fn parse(s: &str) -> GameStatus {
        match s {
            "active" => GameStatus::Active,
            "over" => GameStatus::Over,
            "cancelled" => GameStatus::Cancelled,
            "aborted" => GameStatus::Aborted,
            _ => GameStatus::Open,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatInfo {
    pub seat: u8,
    pub user: String,
    pub is_bot: bool,
}

/// A game as listed in the lobby.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    pub id: i64,
    pub variant: Variant,
    pub players: u8,
    pub status: GameStatus,
    pub invite_only: bool,
    /// Rated: the result changes the players' ratings; casual otherwise.
    pub rated: bool,
    pub seats: Vec<SeatInfo>,
    /// Sequence number of the game's last event: send it back as `expected_version`.
    pub version: i64,
    pub time_control: TimeControl,
    /// Milliseconds since the Unix epoch.
    pub updated_at: i64,
}

/// A game as the caller sees it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameDetail {
    #[serde(flatten)]
    pub summary: GameSummary,
    /// The caller's seat, if the caller plays in this game.
    #[schema(required = true)]
    pub your_seat: Option<u8>,
    /// The table as the caller may see it, once the game has started.
    #[schema(required = true)]
    pub state: Option<View>,
    /// Every seat's time and the deadline of the seat to act, once the game has started.
    #[schema(required = true)]
    pub clock: Option<ClockView>,
    pub links: GameLinks,
}

/// Where to find more about a game (paths from the server's root).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameLinks {
    /// This game (`GET`).
    #[serde(rename = "self")]
    pub this: String,
    /// Its events (`GET`; `?after=N&wait=S` to wait for new ones).
    pub events: String,
    /// Its decisions (`POST`).
    pub decisions: String,
    /// Its full record, once it is over (`GET`).
    pub record: String,
    /// The game's page in the web client, for people (links in emails and pushes).
    pub page: String,
}

impl GameLinks {
    pub fn of(game_id: i64) -> GameLinks {
        let this = format!("/api/v1/games/{game_id}");
        GameLinks {
            events: format!("{this}/events"),
            decisions: format!("{this}/decisions"),
            record: format!("{this}/record"),
            page: format!("/games/{game_id}"),
            this,
        }
    }
}

pub(in crate::service) fn summary(row: &GameRow, seats: &[SeatRow]) -> ServiceResult<GameSummary> {
    Ok(GameSummary {
        id: row.id,
        variant: Variant::parse(&row.variant)
            .ok_or_else(|| ServiceError::Internal(format!("stored variant {:?}", row.variant)))?,
        players: row.players as u8,
        status: GameStatus::parse(&row.status),
        invite_only: row.invite_only,
        rated: row.rated,
        seats: seats
            .iter()
            .map(|s| SeatInfo {
                seat: s.seat as u8,
                user: s.user_name.clone(),
                is_bot: s.is_bot,
            })
            .collect(),
        version: row.version,
        time_control: ClockState::from_json(row.clock.as_deref()).control,
        updated_at: row.updated_at,
    })
}

pub(in crate::service) fn load_row(conn: &mut DbConnection, id: i64) -> ServiceResult<GameRow> {
    store::game(conn, id)?.ok_or(ServiceError::NotFound("game"))
}

pub(in crate::service) fn append(
    conn: &mut DbConnection,
    row: &GameRow,
    version: i64,
    event: &GameEvent,
    update: GameUpdate<'_>,
    now: i64,
) -> ServiceResult<i64> {
    append_all(conn, row, version, std::slice::from_ref(event), update, now)
}

/// Append events after `version` in one write; returns the new version.
pub(in crate::service) fn append_all(
    conn: &mut DbConnection,
    row: &GameRow,
    version: i64,
    events: &[GameEvent],
    update: GameUpdate<'_>,
    now: i64,
) -> ServiceResult<i64> {
    let rows = event_rows(events)?;
    crate::storage::appends::append_events(conn, row.id, version, &rows, now, update)
        .map_err(|e| stale_if_conflict(e, version))
}

/// Events as stored: `(kind, payload)`.
pub(in crate::service) fn event_rows(
    events: &[GameEvent],
) -> ServiceResult<Vec<(&'static str, String)>> {
    events
        .iter()
        .map(|e| {
            serde_json::to_string(e)
                .map(|payload| (e.kind(), payload))
                .map_err(|e| ServiceError::Internal(e.to_string()))
        })
        .collect()
}

/// An append on `version` that found another first is stale.
pub(in crate::service) fn stale_if_conflict(e: StorageError, version: i64) -> ServiceError {
    match e {
        StorageError::Conflict => ServiceError::StaleVersion {
            current: version + 1,
        },
        e => e.into(),
    }
}

/// A move stores a snapshot of the state when this many events or more were logged since the
/// last one (and always when the game ends). Rewriting the whole state (some KB) on every move
/// was the largest part of a move's write; between snapshots, loading replays at most this many
/// logged decisions, which the engine applies in microseconds.
pub(in crate::service) const SNAPSHOT_EVERY: i64 = 16;

/// The engine state after the game's last event: the snapshot, with the decisions logged after
/// it, when its engine version matches; else rebuilt from the whole log (and the snapshot
/// replaced).
pub(in crate::service) fn load_state(
    conn: &mut DbConnection,
    row: &GameRow,
) -> ServiceResult<Game> {
    if row.state_engine_version == ENGINE_VERSION {
        if let Some(Ok(mut game)) = row.state.as_deref().map(Game::from_snapshot) {
            if row.state_version < row.version {
                let tail = crate::storage::logs::events_after(
                    conn,
                    row.id,
                    row.state_version,
                    row.version - row.state_version,
                )?;
                for event in tail {
                    if let Some(decision) = logged_decision(parse_event(&event.payload)?) {
                        decision.apply_to(&mut game).map_err(|e| {
                            // The code, not the message: it may name a card of a hand.
                            ServiceError::Internal(format!(
                                "game {}: event {} does not replay ({})",
                                row.id,
                                event.seq,
                                e.code()
                            ))
                        })?;
                    }
                }
            }
            return Ok(game);
        }
    }
    let record = record_from_log(conn, row.id)?
        .ok_or_else(|| ServiceError::conflict("not_started", "the game has not started yet"))?;
    let game = record
        .replay()
        .map_err(|e| ServiceError::Internal(format!("game {} does not replay: {e}", row.id)))?;
    store::save_state(
        conn,
        row.id,
        row.version,
        &game.to_snapshot(),
        ENGINE_VERSION,
    )?;
    Ok(game)
}

pub(in crate::service) fn parse_event(payload: &str) -> ServiceResult<GameEvent> {
    serde_json::from_str(payload)
        .map_err(|e| ServiceError::Storage(StorageError::Corrupt(e.to_string())))
}

/// The record (setup and decisions) from the event log; `None` before the start.
pub(in crate::service) fn record_from_log(
    conn: &mut DbConnection,
    game_id: i64,
) -> ServiceResult<Option<Record>> {
    let mut record: Option<Record> = None;
    for row in crate::storage::logs::events_after(conn, game_id, 0, i64::MAX)? {
        match parse_event(&row.payload)? {
            GameEvent::Started { setup } => record = Some(Record::new(setup)),
            event => {
                if let (Some(r), Some(decision)) = (record.as_mut(), logged_decision(event)) {
                    r.decisions.push(decision);
                }
            }
        }
    }
    Ok(record)
}

/// The decision an event logs, if it logs one (the clock's time-out is one too): the events
/// that change the engine state after the deal.
fn logged_decision(event: GameEvent) -> Option<RecordedDecision> {
    match event {
        GameEvent::Decided { seat, decision, .. } => Some(RecordedDecision { seat, decision }),
        GameEvent::TimedOut { seat, .. } => Some(RecordedDecision {
            seat,
            decision: DecisionJson::TimeOut,
        }),
        _ => None,
    }
}

/// The refusal for a caller without a seat in the game.
pub(in crate::service) fn not_seated() -> ServiceError {
    ServiceError::forbidden("not_seated", "you have no seat in this game")
}

pub(in crate::service) fn seat_of(seats: &[SeatRow], user_id: i64) -> Option<u8> {
    seats
        .iter()
        .find(|s| s.user_id == user_id)
        .map(|s| s.seat as u8)
}

pub(in crate::service) fn is_started(row: &GameRow) -> bool {
    matches!(
        GameStatus::parse(&row.status),
        GameStatus::Active | GameStatus::Over | GameStatus::Aborted
    )
}

/// The game as the seat `your_seat` (or a spectator) sees it, its seats and state (when
/// started) given.
pub(in crate::service) fn detail_of(
    row: &GameRow,
    seats: &[SeatRow],
    game: Option<&Game>,
    your_seat: Option<u8>,
    now: i64,
) -> ServiceResult<GameDetail> {
    Ok(GameDetail {
        summary: summary(row, seats)?,
        your_seat,
        state: game.map(|g| {
            let mut view = g.view(your_seat);
            // A seat that left the game (resigned, timed out) decides nothing more: its stand-in
            // plays it, and its player would only be refused (`seat_retired`).
            if your_seat.is_some_and(|s| g.retired(s).is_some()) {
                view.legal_decisions.clear();
            }
            view
        }),
        clock: game.is_some().then(|| clock_view(row, now)),
        links: GameLinks::of(row.id),
    })
}

/// The game's clock as everyone sees it at `now`.
pub(in crate::service) fn clock_view(row: &GameRow, now: i64) -> ClockView {
    ClockState::from_json(row.clock.as_deref()).view(row.players as u8, now)
}

/// The user whose decision the game waits for: the seat's user, or the stand-in bot when that
/// seat has left the game.
pub(in crate::service) fn to_act_user(
    conn: &mut DbConnection,
    game: &Game,
    seats: &[SeatRow],
) -> ServiceResult<Option<i64>> {
    match game.to_act() {
        Some(seat) if game.retired(seat).is_some() => {
            let bot =
                crate::storage::accounts::user_by_name(conn, crate::service::play::bots::STAND_IN)?
                    .ok_or_else(|| {
                        ServiceError::Internal("the stand-in bot account is missing".into())
                    })?;
            Ok(Some(bot.id))
        }
        _ => Ok(user_to_act(game, seats)),
    }
}

/// The user whose decision the game waits for.
pub(in crate::service) fn user_to_act(game: &Game, seats: &[SeatRow]) -> Option<i64> {
    let seat = game.to_act()?;
    seats
        .iter()
        .find(|s| s.seat == seat as i32)
        .map(|s| s.user_id)
}
