//! Play: the caller's view, and decisions validated by the engine and appended on the version
//! the caller saw (optimistic concurrency), with idempotent retries.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::engine::{DecisionJson, DecisionOf, Game, RuleError, ENGINE_VERSION};
use crate::ratings::RatingParameters;
use crate::service::accounts::{Caller, Scope};
use crate::service::correspondence::clocks::ClockState;
use crate::service::notify::notifications::{notices_for_people, queue_game_over, Notice};
use crate::service::play::games::{
    detail_of, event_rows, load_row, not_seated, seat_of, stale_if_conflict, to_act_user,
    GameDetail, GameEvent, GameStatus, SNAPSHOT_EVERY,
};
use crate::service::play::loading::{keep, load_game_at, reloaded_detail, Loaded};
use crate::service::{ServiceError, ServiceResult};
use crate::storage::appends::{self as store_appends, Append, AppendedNotice, GameUpdate};
use crate::storage::games::{self as store, GameRow, SeatRow, StoredAnswer};
use crate::storage::memo::Memo;
use crate::storage::{Database, DbConnection, StorageError};

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expected_version": 7, "decision": {"type": "draw_deck"}}))]
pub struct DecisionRequest {
    /// The version the decision was made on (from the game's `version`).
    pub expected_version: i64,
    #[serde(deserialize_with = "crate::service::play::strict::tagged")]
    pub decision: DecisionJson,
}

pub fn get(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<GameDetail> {
    caller.require(Scope::Read)?;
    let now = db.now();
    db.read(|conn| reloaded_detail(conn, game_id, caller, now, db.memo()))
}

/// How long the answer to an `Idempotency-Key` is kept: a retry within it gets the first answer;
/// after it, the key is free again.
pub const IDEMPOTENCY_KEY_MILLIS: i64 = 24 * 3600 * 1000;

/// Play one decision on the version the caller saw.
pub fn decide(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    request: &DecisionRequest,
    idempotency_key: Option<&str>,
    ratings: &RatingParameters,
) -> ServiceResult<DecisionAnswer> {
    caller.require(Scope::Play)?;
    // The Idempotency-Key with the request's hash, which a repeated key is compared by (only
    // hashed when there is a key).
    let keyed = match idempotency_key {
        Some(key) => Some((
            key,
            crate::service::sha256_hex(
                &serde_json::to_string(&(game_id, request))
                    .map_err(|e| ServiceError::Internal(e.to_string()))?,
            ),
        )),
        None => None,
    };
    let repeated = |db: &Database| -> ServiceResult<Option<DecisionAnswer>> {
        let Some((key, request_hash)) = &keyed else {
            return Ok(None);
        };
        let since = db.now() - IDEMPOTENCY_KEY_MILLIS;
        match db.read(|c| store::idempotent_answer(c, caller.user_id, key, since))? {
            None => Ok(None),
            Some(a) if &a.request_hash == request_hash => Ok(Some(DecisionAnswer::Repeated {
                status: a.status as u16,
                body: a.body,
            })),
            Some(_) => Err(ServiceError::invalid(
                "idempotency_key_reused",
                "this Idempotency-Key was used for another request",
            )),
        }
    };
    if let Some(answer) = repeated(db)? {
        return Ok(answer);
    }
    if request.decision == DecisionOf::TimeOut {
        return Err(ServiceError::invalid(
            "reserved_decision",
            "time_out is applied by the server's clock, not sent by players",
        ));
    }
    let now = db.now();
    // Everything but the append happens before the write transaction: on SQLite, writes queue
    // one at a time, so only the append is in that queue. The append's version check is what
    // makes the decision safe: a move that slipped in between makes it stale.
    let result = (|| {
        // Taken before the game is read: its seats are kept after the append only if no
        // renaming cleared the memo in between.
        let read_at = db.memo().generation();
        let prepared = db.read(|conn| {
            prepare(
                conn,
                db.memo(),
                game_id,
                Actor::Player(caller.user_id),
                request.expected_version,
                &request.decision,
                now,
            )
        })?;
        let answer = prepared.answer(now)?;
        let stored = match &keyed {
            Some((key, request_hash)) => Some((
                *key,
                StoredAnswer {
                    request_hash: request_hash.clone(),
                    status: 200,
                    body: serde_json::to_string(&answer)
                        .map_err(|e| ServiceError::Internal(e.to_string()))?,
                },
            )),
            None => None,
        };
        if prepared.is_one_append() && stored.is_none() {
            db.write_atomic(|conn| commit(conn, &prepared, now, ratings))?;
        } else {
            db.write(|conn| {
                commit(conn, &prepared, now, ratings)?;
                if let Some((key, stored)) = &stored {
                    store::store_idempotent_answer(
                        conn,
                        caller.user_id,
                        key,
                        stored,
                        now,
                        now - IDEMPOTENCY_KEY_MILLIS,
                    )?;
                }
                Ok::<_, ServiceError>(())
            })?;
        }
        let ended = prepared.game.is_over();
        // Plans matter where the turn passed to another seat, the game ended, or a seat left;
        // within a turn there is nothing to read.
        let plans_due = ended
            || prepared.game.to_act() != Some(prepared.seat)
            || request.decision == DecisionOf::Resign;
        keep(
            db.memo(),
            read_at,
            prepared.names_at,
            &prepared.row_after(now),
            Arc::new(prepared.game),
            prepared.seats,
        );
        if ended {
            crate::service::play::packing::game_ended(db, game_id);
        }
        if plans_due {
            crate::service::plans::playing::after_decision(db, game_id, caller.user_id, ratings);
        }
        Ok(answer)
    })();
    match result {
        Ok(answer) => Ok(DecisionAnswer::Fresh(Box::new(answer))),
        // A concurrent retry of the same request may have won: answer as it did.
        Err(ServiceError::StaleVersion { current }) => match repeated(db)? {
            Some(answer) => Ok(answer),
            None => Err(ServiceError::StaleVersion {
                current: db.read(|c| load_row(c, game_id))?.version.max(current),
            }),
        },
        // The same key stored meanwhile by a request at the same moment, for this game or
        // another: its answer, or `idempotency_key_reused` (nothing of this one was written).
        Err(ServiceError::Storage(StorageError::Conflict)) if keyed.is_some() => {
            repeated(db)?.ok_or(ServiceError::Storage(StorageError::Conflict))
        }
        Err(e) => Err(e),
    }
}

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
struct Prepared {
    /// The game's row as loaded (the version the decision was made on).
    row: GameRow,
    seats: Arc<Vec<SeatRow>>,
    /// The count of name changes the seats were read at.
    names_at: i64,
    /// The seat that decided.
    seat: u8,
    /// The game after the decision.
    game: Game,
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
    fn is_one_append(&self) -> bool {
        !self.game.is_over()
    }

    /// The version the append makes.
    fn version(&self) -> i64 {
        self.row.version + self.events.len() as i64
    }

    /// The game's row as the append leaves it.
    fn row_after(&self, now: i64) -> GameRow {
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
    fn answer(&self, now: i64) -> ServiceResult<GameDetail> {
        let row = self.row_after(now);
        detail_of(&row, &self.seats, Some(&self.game), Some(self.seat), now)
    }
}

/// Load the game, check that the actor may decide on `expected_version`, and apply the decision
/// (reads only).
fn prepare(
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
fn commit(
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

/// Resign on whatever the current version is: tried again while other seats' moves (bots move
/// back to back) keep moving the version on (five tries lost that race on a loaded machine).
pub fn resign(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    ratings: &RatingParameters,
) -> ServiceResult<GameDetail> {
    for _ in 0..RESIGN_TRIES {
        let version = db.read(|c| load_row(c, game_id))?.version;
        let request = DecisionRequest {
            expected_version: version,
            decision: DecisionOf::Resign,
        };
        match decide(db, caller, game_id, &request, None, ratings) {
            Ok(DecisionAnswer::Fresh(detail)) => return Ok(*detail),
            Ok(DecisionAnswer::Repeated { .. }) => {}
            Err(ServiceError::StaleVersion { .. }) => continue,
            Err(e) => return Err(e),
        }
    }
    Err(ServiceError::conflict(
        "busy",
        "the game keeps changing: try again",
    ))
}

const RESIGN_TRIES: usize = 50;

/// The answer to a decision: fresh, or the first answer again for a repeated Idempotency-Key.
pub enum DecisionAnswer {
    Fresh(Box<GameDetail>),
    Repeated { status: u16, body: String },
}
