//! A game's events as the caller may see them, and the record after the end.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::{
    Card, DecisionJson, DecisionOf, Record, RecordedDecision, Setup, Variant, View,
};
use crate::service::accounts::{Caller, Scope};
use crate::service::correspondence::clocks::TimeControl;
use crate::service::play::games::{
    load_row, load_state, parse_event, record_from_log, seat_of, GameEvent, GameStatus,
};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::games as store;
use crate::storage::{Database, DbConnection};

/// One event of a game as the caller may see it, tagged by `kind`. Every kind has one shape;
/// what the end of the game reveals is added to it (`started.setup`, `decided.drawn`).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventView {
    /// The game was created.
    Created {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: CreatedData,
    },
    /// A user took a seat.
    Joined {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: JoinedData,
    },
    /// A user gave up a seat before the start.
    Left {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: UserData,
    },
    /// A user was invited.
    Invited {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: UserData,
    },
    /// The cards were dealt and play began.
    Started {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: StartedData,
    },
    /// A seat made a decision.
    Decided {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: DecidedData,
    },
    /// The first turn's clock started (games with a time control).
    ClockStarted {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: ClockStartedData,
    },
    /// A seat's deadline passed: it is out of the game (it loses on time with two players).
    TimedOut {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: TimedOutData,
    },
    /// A seat that left the game (resigned or timed out) is played by a bot from now on.
    SeatTakenOver {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: SeatTakenOverData,
    },
    /// The game ended without a result because `seat` timed out before the game really began:
    /// nobody had played yet, or (with 2 players) the seat that timed out had never played.
    /// Nobody wins or loses; ratings do not change.
    Aborted {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: SeatData,
    },
    /// A seat's player went on vacation: their clock stands still.
    VacationStarted {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: SeatUserData,
    },
    /// A seat's player is back from vacation: their clock runs again.
    VacationEnded {
        seq: i64,
        /// Milliseconds since the Unix epoch.
        at: i64,
        data: SeatUserData,
    },
}

impl EventView {
    /// The event's sequence number (the game's version once it was appended).
    pub fn seq(&self) -> i64 {
        match self {
            EventView::Created { seq, .. }
            | EventView::Joined { seq, .. }
            | EventView::Left { seq, .. }
            | EventView::Invited { seq, .. }
            | EventView::Started { seq, .. }
            | EventView::Decided { seq, .. }
            | EventView::ClockStarted { seq, .. }
            | EventView::TimedOut { seq, .. }
            | EventView::SeatTakenOver { seq, .. }
            | EventView::Aborted { seq, .. }
            | EventView::VacationStarted { seq, .. }
            | EventView::VacationEnded { seq, .. } => *seq,
        }
    }

    /// When the event was appended (milliseconds since the Unix epoch).
    pub fn at(&self) -> i64 {
        match self {
            EventView::Created { at, .. }
            | EventView::Joined { at, .. }
            | EventView::Left { at, .. }
            | EventView::Invited { at, .. }
            | EventView::Started { at, .. }
            | EventView::Decided { at, .. }
            | EventView::ClockStarted { at, .. }
            | EventView::TimedOut { at, .. }
            | EventView::SeatTakenOver { at, .. }
            | EventView::Aborted { at, .. }
            | EventView::VacationStarted { at, .. }
            | EventView::VacationEnded { at, .. } => *at,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct CreatedData {
    pub variant: Variant,
    pub players: u8,
    pub invite_only: bool,
    /// Rated (the result changes ratings) or casual.
    pub rated: bool,
    /// The creator's user name.
    pub by: String,
    pub time_control: TimeControl,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct JoinedData {
    pub seat: u8,
    pub user: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct UserData {
    pub user: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct StartedData {
    pub players: u8,
    pub start_player: u8,
    /// The caller's own opening hand; empty for a spectator.
    pub hand: Vec<Card>,
    pub draw_pile_size: usize,
    /// The whole deal (every hand, the draw pile's order, the removed cards), added once the game
    /// is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Setup>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct DecidedData {
    pub seat: u8,
    pub decision: DecisionJson,
    /// The card a draw took: shown to the drawing seat, to everyone for a draw from a discard
    /// pile, and to everyone once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawn: Option<Card>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct ClockStartedData {
    /// The seat whose clock runs.
    pub seat: u8,
    /// When its time runs out (milliseconds since the Unix epoch); `null` while its player is
    /// away.
    #[schema(required = true)]
    pub deadline: Option<i64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct TimedOutData {
    pub seat: u8,
    /// The deadline that passed (milliseconds since the Unix epoch).
    pub deadline: i64,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatTakenOverData {
    pub seat: u8,
    /// The bot that plays the seat.
    pub by: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatData {
    pub seat: u8,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatUserData {
    pub seat: u8,
    pub user: String,
}

/// The caller's view of the events after `after`, hidden parts removed until the game is over.
pub fn events(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    after: i64,
    limit: i64,
) -> ServiceResult<Vec<EventView>> {
    caller.require(Scope::Read)?;
    db.read(|conn| {
        let row = load_row(conn, game_id)?;
        let seats = store::seats(conn, game_id)?;
        let me = seat_of(&seats, caller.user_id);
        let over = GameStatus::parse(&row.status).is_finished();
        crate::storage::logs::events_after(conn, game_id, after, limit)?
            .into_iter()
            .map(|e| {
                Ok(redact(
                    e.seq,
                    e.created_at,
                    parse_event(&e.payload)?,
                    me,
                    over,
                ))
            })
            .collect()
    })
}

/// The event as the viewer `me` may see it (hidden parts shown once the game is over).
fn redact(seq: i64, at: i64, event: GameEvent, me: Option<u8>, over: bool) -> EventView {
    match event {
        GameEvent::Created {
            variant,
            players,
            invite_only,
            rated,
            by,
            time_control,
        } => EventView::Created {
            seq,
            at,
            data: CreatedData {
                variant,
                players,
                invite_only,
                rated,
                by,
                time_control,
            },
        },
        GameEvent::Joined { seat, user } => EventView::Joined {
            seq,
            at,
            data: JoinedData { seat, user },
        },
        GameEvent::Left { user } => EventView::Left {
            seq,
            at,
            data: UserData { user },
        },
        GameEvent::Invited { user } => EventView::Invited {
            seq,
            at,
            data: UserData { user },
        },
        GameEvent::Started { setup } => EventView::Started {
            seq,
            at,
            data: StartedData {
                players: setup.players,
                start_player: setup.start_player,
                hand: me
                    .and_then(|s| setup.hands.get(s as usize).cloned())
                    .unwrap_or_default(),
                draw_pile_size: setup.draw_pile.len(),
                setup: over.then_some(setup),
            },
        },
        GameEvent::Decided {
            seat,
            decision,
            drawn,
        } => {
            let visible = over || me == Some(seat) || !matches!(decision, DecisionOf::DrawDeck);
            EventView::Decided {
                seq,
                at,
                data: DecidedData {
                    seat,
                    decision,
                    drawn: drawn.filter(|_| visible),
                },
            }
        }
        GameEvent::ClockStarted { seat, deadline } => EventView::ClockStarted {
            seq,
            at,
            data: ClockStartedData { seat, deadline },
        },
        GameEvent::TimedOut { seat, deadline } => EventView::TimedOut {
            seq,
            at,
            data: TimedOutData { seat, deadline },
        },
        GameEvent::SeatTakenOver { seat, by } => EventView::SeatTakenOver {
            seq,
            at,
            data: SeatTakenOverData { seat, by },
        },
        GameEvent::Aborted { seat } => EventView::Aborted {
            seq,
            at,
            data: SeatData { seat },
        },
        GameEvent::VacationStarted { seat, user } => EventView::VacationStarted {
            seq,
            at,
            data: SeatUserData { seat, user },
        },
        GameEvent::VacationEnded { seat, user } => EventView::VacationEnded {
            seq,
            at,
            data: SeatUserData { seat, user },
        },
    }
}

/// The full record, once the game is over.
pub fn record(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<Record> {
    caller.require(Scope::Read)?;
    db.read(|conn| finished_record(conn, game_id))
}

pub(in crate::service) fn finished_record(
    conn: &mut DbConnection,
    game_id: i64,
) -> ServiceResult<Record> {
    let row = load_row(conn, game_id)?;
    if !GameStatus::parse(&row.status).is_finished() {
        return Err(ServiceError::conflict(
            "game_not_over",
            "the record is published when the game is over (or aborted)",
        ));
    }
    let mut record = record_from_log(conn, game_id)?
        .ok_or_else(|| ServiceError::Internal("finished game without a deal".into()))?;
    record.result = load_state(conn, &row)?.result();
    Ok(record)
}

/// A finished game as it stood after some of its decisions: what the record viewer steps through.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReplayStep {
    /// Decisions applied so far (0: the deal).
    pub step: usize,
    /// Decisions in the whole record.
    pub steps: usize,
    /// The decision that led here; `null` at the deal.
    #[schema(required = true)]
    pub decision: Option<RecordedDecision>,
    /// The table then, as `seat` saw it (a spectator when no seat is asked for).
    pub view: View,
}

/// Step `step` of a finished game's record, seen by `seat` (anyone may take any seat's view:
/// the record shows every hand once the game is over).
pub fn replay_step(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    step: usize,
    seat: Option<u8>,
) -> ServiceResult<ReplayStep> {
    caller.require(Scope::Read)?;
    let record = db.read(|conn| finished_record(conn, game_id))?;
    let steps = record.decisions.len();
    if step > steps {
        return Err(ServiceError::BadQuery(format!(
            "step must be 0 to {steps} (the record's decisions)"
        )));
    }
    if seat.is_some_and(|s| s >= record.setup.players) {
        return Err(ServiceError::BadQuery(format!(
            "seat must be 0 to {} (the game's seats)",
            record.setup.players - 1
        )));
    }
    let game = record
        .replay_to(step)
        .map_err(|e| ServiceError::Internal(format!("record of game {game_id}: {e}")))?;
    Ok(ReplayStep {
        step,
        steps,
        decision: step.checked_sub(1).map(|i| record.decisions[i].clone()),
        view: game.view(seat),
    })
}

/// The version of a game, for long-polling.
pub fn version(db: &Database, game_id: i64) -> ServiceResult<i64> {
    db.read(|conn| Ok(load_row(conn, game_id)?.version))
}
