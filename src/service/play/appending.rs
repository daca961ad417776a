//! A decision validated and appended, the steps every decider shares: a player's request
//! (`decisions`), a plan played, the stand-in bot and the server's clock. The game loaded at the
//! version decided on, the engine's verdict, the events and the next turn's notice encoded before
//! the write; then one append on that version, and at the end the result recorded.

use std::sync::Arc;

use crate::engine::{DecisionJson, DecisionOf, Game, RuleError, ENGINE_VERSION};
use crate::ratings::RatingParameters;
use crate::service::correspondence::clocks::ClockState;
use crate::service::notify::notifications::{notices_for_people, queue_game_over, Notice};
use crate::service::play::decisions::DecisionRequest;
use crate::service::play::games::{
    detail_of, event_rows, not_seated, seat_of, stale_if_conflict, to_act_user, GameDetail,
    GameEvent, GameStatus, SNAPSHOT_EVERY,
};
use crate::service::play::loading::{load_game_at, Loaded};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::appends::{self as store_appends, Append, AppendedNotice, GameUpdate};
use crate::storage::games::{GameRow, SeatRow};
use crate::storage::memo::Memo;
use crate::storage::DbConnection;

/// Who decides for which seat.
#[derive(Clone, Copy, Debug)]
pub(in crate::service) enum Actor {
    /// A user, for their own seat (refused once that seat has left the game).
    Player(i64),
    /// A user's plan, for their own seat, at the start of their turn: as `Player`, but it
    /// uses none of the turn's clock.
    Plan(i64),
    /// The stand-in bot (this user id), for the seat to act, which has left the game.
    StandIn(i64),
    /// The server's clock, timing out the seat to act once its deadline has passed.
    Clock,
}

/// A decision appended: the seat that decided, the game after it and the version it made.
pub(in crate::service) struct Applied {
    pub seat: u8,
    pub game: Game,
    pub version: i64,
}

/// Validate `decision` for the actor's seat on `expected_version`, append it with the new state,
/// and return what it made.
pub(in crate::service) fn apply_decision(
    conn: &mut DbConnection,
    memo: &Memo,
    game_id: i64,
    actor: Actor,
    request: &DecisionRequest,
    now: i64,
    ratings: &RatingParameters,
) -> ServiceResult<Applied> {
    let prepared = prepare(
        conn,
        memo,
        game_id,
        actor,
        request.expected_version,
        &request.decision,
        now,
    )?;
    let version = commit(conn, &prepared, now, ratings)?;
    Ok(Applied {
        seat: prepared.seat,
        game: prepared.game,
        version,
    })
}

/// A decision validated and applied to the game as loaded, ready to be appended.
pub(super) struct Prepared {
    /// The game's row as loaded (the version the decision was made on).
    row: GameRow,
    pub(super) seats: Arc<Vec<SeatRow>>,
    /// The count of name changes the seats were read at.
    pub(super) names_at: i64,
    /// The seat that decided.
    pub(super) seat: u8,
    /// The game after the decision.
    pub(super) game: Game,
    events: Vec<GameEvent>,
    /// The events and the next seat's turn notice as stored: encoded before the write, whose
    /// turn on SQLite is held one writer at a time.
    event_rows: Vec<(&'static str, String)>,
    turn_notices: Vec<AppendedNotice>,
    /// The state to store with the append, when it is time for a snapshot.
    snapshot: Option<String>,
    to_act: Option<i64>,
    clock: ClockState,
    clock_json: String,
}

impl Prepared {
    /// Whether [`commit`] writes it with one atomic append (it does not end the game: the end
    /// also records the result, tells everyone and packs the log).
    pub(super) fn is_one_append(&self) -> bool {
        !self.game.is_over()
    }

    /// The version the append makes.
    fn version(&self) -> i64 {
        self.row.version + self.events.len() as i64
    }

    /// The game's row as the append leaves it.
    pub(super) fn row_after(&self, now: i64) -> GameRow {
        let columns = self.clock.columns(&self.clock_json, now);
        GameRow {
            version: self.version(),
            updated_at: now,
            status: if self.game.is_over() {
                GameStatus::Over.name().to_string()
            } else {
                self.row.status.clone()
            },
            state: None,
            state_version: match self.snapshot {
                Some(_) => self.version(),
                None => self.row.state_version,
            },
            to_act_user: self.to_act,
            clock: Some(self.clock_json.clone()),
            deadline_at: columns.deadline_at,
            reminder_at: columns.reminder_at,
            ..self.row.clone()
        }
    }

    /// The deciding seat's answer: the game as the append leaves it.
    pub(super) fn answer(&self, now: i64) -> ServiceResult<GameDetail> {
        let row = self.row_after(now);
        detail_of(&row, &self.seats, Some(&self.game), Some(self.seat), now)
    }
}

/// Load the game, check that the actor may decide on `expected_version`, and apply the decision
/// (reads only).
pub(super) fn prepare(
    conn: &mut DbConnection,
    memo: &Memo,
    game_id: i64,
    actor: Actor,
    expected_version: i64,
    decision: &DecisionJson,
    now: i64,
) -> ServiceResult<Prepared> {
    let Loaded {
        row,
        seats,
        game: loaded,
        names_at,
    } = load_game_at(conn, game_id, expected_version, memo)?;
    // A player's own seat, refused before anything else when there is none.
    let own_seat = match actor {
        Actor::Player(user_id) | Actor::Plan(user_id) => {
            Some(seat_of(&seats, user_id).ok_or_else(not_seated)?)
        }
        Actor::StandIn(_) | Actor::Clock => None,
    };
    match GameStatus::parse(&row.status) {
        GameStatus::Open | GameStatus::Cancelled => {
            return Err(ServiceError::conflict(
                "not_started",
                "the game has not started",
            ))
        }
        GameStatus::Over | GameStatus::Aborted => return Err(RuleError::GameOver.into()),
        GameStatus::Active => {}
    }
    let loaded =
        loaded.ok_or_else(|| ServiceError::Internal("a started game without a state".into()))?;
    let mut game = Game::clone(&loaded);
    let seat = match (own_seat, actor) {
        (Some(seat), _) => {
            if game.retired(seat).is_some() {
                return Err(RuleError::SeatRetired { seat }.into());
            }
            seat
        }
        // A stand-in acts only for a seat that left the game and is to act, and only the bot the
        // game waits for.
        (None, Actor::StandIn(bot)) => match game.to_act() {
            Some(seat) if game.retired(seat).is_some() && row.to_act_user == Some(bot) => seat,
            _ => {
                return Err(ServiceError::StaleVersion {
                    current: row.version,
                })
            }
        },
        // The clock times out the seat to act, only once its deadline has passed.
        (None, Actor::Clock) => match (game.to_act(), row.deadline_at) {
            (Some(seat), Some(deadline)) if deadline <= now => seat,
            _ => {
                return Err(ServiceError::StaleVersion {
                    current: row.version,
                })
            }
        },
        (None, Actor::Player(_) | Actor::Plan(_)) => return Err(not_seated()),
    };
    if expected_version != row.version {
        return Err(ServiceError::StaleVersion {
            current: row.version,
        });
    }
    // A decision of the seat to act after its deadline is too late: the clock's time-out will
    // be applied. (The deadline is that seat's alone: another seat may still resign.)
    if let (Actor::Player(_) | Actor::Plan(_), Some(deadline)) = (actor, row.deadline_at) {
        if deadline <= now && game.to_act() == Some(seat) {
            return Err(ServiceError::conflict(
                "deadline_passed",
                "your time has run out",
            ));
        }
    }
    let decision = decision.clone().resolve(game.board())?;
    let drawn = match decision {
        DecisionOf::DrawDeck => game.draw_pile_top(),
        DecisionOf::DrawPile { color } => game.pile(color).last().copied(),
        _ => None,
    };
    let before = game.to_act();
    game.apply(seat, decision)?;
    let mut events = vec![match actor {
        Actor::Clock => GameEvent::TimedOut {
            seat,
            deadline: row.deadline_at.unwrap_or(now),
        },
        _ => GameEvent::Decided {
            seat,
            decision: decision.normalized().to_json(game.board()),
            drawn,
        },
    }];
    // A seat that leaves a game that goes on is played by the stand-in from now on.
    if matches!(decision, DecisionOf::Resign | DecisionOf::TimeOut) && !game.is_over() {
        events.push(GameEvent::SeatTakenOver {
            seat,
            by: crate::service::play::bots::STAND_IN.to_string(),
        });
    }
    let version = row.version + events.len() as i64;
    let snapshot = (game.is_over() || version - row.state_version >= SNAPSHOT_EVERY)
        .then(|| game.to_snapshot());
    let to_act = to_act_user(conn, &game, &seats)?;
    // The clock runs for the seat to act, unless the stand-in plays it.
    let mut clock = ClockState::from_json(row.clock.as_deref());
    if let Actor::Plan(_) = actor {
        clock.restart_turn(now);
    }
    clock.after(game.to_act().filter(|&s| game.retired(s).is_none()), now);
    let clock_json = clock.to_json()?;
    let event_rows = event_rows(&events)?;
    let turn_notices = turn_notices(row.id, &seats, &game, seat, before, version, now)?;
    Ok(Prepared {
        row,
        seats,
        names_at,
        seat,
        game,
        events,
        event_rows,
        turn_notices,
        snapshot,
        to_act,
        clock,
        clock_json,
    })
}

/// Append a prepared decision on the version it was made on (stale if another came first), and
/// queue what it tells people, in the caller's transaction. A decision that does not end the game
/// is one atomic append (events, row, the next seat's turn): see [`Prepared::is_one_append`].
pub(super) fn commit(
    conn: &mut DbConnection,
    prepared: &Prepared,
    now: i64,
    ratings: &RatingParameters,
) -> ServiceResult<i64> {
    let Prepared {
        row, seats, game, ..
    } = prepared;
    let game_id = row.id;
    let version = prepared.version();
    store_appends::append(
        conn,
        &Append {
            game_id,
            expected_version: row.version,
            events: &prepared.event_rows,
            update: GameUpdate {
                status: game.is_over().then_some(GameStatus::Over.name()),
                to_act: Some(prepared.to_act),
                snapshot: prepared
                    .snapshot
                    .as_deref()
                    .map(|state| (state, ENGINE_VERSION)),
                clock: Some(prepared.clock.columns(&prepared.clock_json, now)),
            },
            notices: &prepared.turn_notices,
            now,
        },
    )
    .map_err(|e| stale_if_conflict(e, row.version))?;
    if game.is_over() {
        let row = GameRow {
            version,
            ..row.clone()
        };
        crate::service::ratings::record_result(conn, &row, game, seats, ratings, now)?;
        queue_game_over(conn, game_id, seats, now)?;
    }
    Ok(version)
}

/// The notice of the next seat's turn, when the decision passes the turn to another seat (or
/// back to the same one after another's); the end is told apart, with the result.
fn turn_notices(
    game_id: i64,
    seats: &[SeatRow],
    game: &Game,
    seat: u8,
    before: Option<u8>,
    version: i64,
    now: i64,
) -> ServiceResult<Vec<AppendedNotice>> {
    let next = (!game.is_over())
        .then(|| game.to_act())
        .flatten()
        .filter(|&s| Some(s) != before || s != seat);
    match next {
        Some(next) => notices_for_people(
            seats,
            |s| s == next && game.retired(s).is_none(),
            |seat| Notice::YourTurn {
                game_id,
                seat,
                version,
                plan_not_played: None,
            },
            now,
        ),
        None => Ok(Vec::new()),
    }
}
