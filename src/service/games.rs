//! Games: the lobby (create, join, leave, invite), play (validated, versioned appends), the
//! caller's redacted event list, and the record after the end.
//!
//! Every change appends one event to `game_events` with the version the caller saw; the state
//! snapshot, tagged with the engine version, is written in the same transaction.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::accounts::{Caller, Scope};
use super::{random_u64, ServiceError, ServiceResult};
use crate::engine::{
    Card, DecisionJson, DecisionOf, Game, Record, RecordedDecision, Setup, Variant, View,
    ENGINE_VERSION,
};
use crate::storage::games::{self as store, GameRow, GameUpdate, SeatRow, StoredAnswer};
use crate::storage::{now_millis, Database, DbConnection, StorageError};

/// What happened in a game, as stored in `game_events.payload` (hidden parts included).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEvent {
    Created {
        variant: Variant,
        players: u8,
        invite_only: bool,
        by: String,
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
}

impl GameEvent {
    fn kind(&self) -> &'static str {
        match self {
            GameEvent::Created { .. } => "created",
            GameEvent::Joined { .. } => "joined",
            GameEvent::Left { .. } => "left",
            GameEvent::Invited { .. } => "invited",
            GameEvent::Started { .. } => "started",
            GameEvent::Decided { .. } => "decided",
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
}

impl GameStatus {
    fn name(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Active => "active",
            GameStatus::Over => "over",
            GameStatus::Cancelled => "cancelled",
        }
    }

    fn parse(s: &str) -> GameStatus {
        match s {
            "active" => GameStatus::Active,
            "over" => GameStatus::Over,
            "cancelled" => GameStatus::Cancelled,
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
    pub seats: Vec<SeatInfo>,
    /// Sequence number of the game's last event: send it back as `expected_version`.
    pub version: i64,
    /// Milliseconds since the Unix epoch.
    pub updated_at: i64,
}

/// A game as the caller sees it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct GameDetail {
    #[serde(flatten)]
    pub summary: GameSummary,
    /// The caller's seat, if the caller plays in this game.
    pub your_seat: Option<u8>,
    /// The table as the caller may see it, once the game has started.
    pub state: Option<View>,
}

#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub variant: Variant,
    /// Number of seats: 2-4 (`keltis-card`: 2).
    pub players: u8,
    /// Only invited users may join.
    #[serde(default)]
    pub invite_only: bool,
    /// Bot accounts that take seats at once, e.g. `["bot-greedy"]` (see `GET /api/v1/bots`).
    #[serde(default)]
    pub bots: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DecisionRequest {
    /// The version the decision was made on (from the game's `version`).
    pub expected_version: i64,
    pub decision: DecisionJson,
}

/// One event of a game as the caller may see it.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct EventView {
    pub seq: i64,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    /// `created`, `joined`, `left`, `invited`, `started` or `decided`.
    pub kind: String,
    #[schema(value_type = Object)]
    pub data: serde_json::Value,
}

/// The answer to a decision: fresh, or the first answer again for a repeated Idempotency-Key.
pub enum DecisionAnswer {
    Fresh(Box<GameDetail>),
    Repeated { status: u16, body: String },
}

fn summary(row: &GameRow, seats: &[SeatRow]) -> ServiceResult<GameSummary> {
    Ok(GameSummary {
        id: row.id,
        variant: Variant::parse(&row.variant)
            .ok_or_else(|| ServiceError::Internal(format!("stored variant {:?}", row.variant)))?,
        players: row.players as u8,
        status: GameStatus::parse(&row.status),
        invite_only: row.invite_only,
        seats: seats
            .iter()
            .map(|s| SeatInfo {
                seat: s.seat as u8,
                user: s.user_name.clone(),
                is_bot: s.is_bot,
            })
            .collect(),
        version: row.version,
        updated_at: row.updated_at,
    })
}

fn load_row(conn: &mut DbConnection, id: i64) -> ServiceResult<GameRow> {
    store::game(conn, id)?.ok_or(ServiceError::NotFound("game"))
}

fn append(
    conn: &mut DbConnection,
    row: &GameRow,
    version: i64,
    event: &GameEvent,
    update: GameUpdate<'_>,
) -> ServiceResult<i64> {
    let payload =
        serde_json::to_string(event).map_err(|e| ServiceError::Internal(e.to_string()))?;
    store::append_event(
        conn,
        row.id,
        version,
        event.kind(),
        &payload,
        now_millis(),
        update,
    )
    .map_err(|e| match e {
        StorageError::Conflict => ServiceError::StaleVersion {
            current: version + 1,
        },
        e => e.into(),
    })
}

/// The engine state after the game's last event: the snapshot when its engine version matches,
/// else rebuilt from the log (and the snapshot replaced).
fn load_state(conn: &mut DbConnection, row: &GameRow) -> ServiceResult<Game> {
    if row.state_engine_version == ENGINE_VERSION {
        if let Some(Ok(game)) = row.state.as_deref().map(Game::from_snapshot) {
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

fn parse_event(payload: &str) -> ServiceResult<GameEvent> {
    serde_json::from_str(payload)
        .map_err(|e| ServiceError::Storage(StorageError::Corrupt(e.to_string())))
}

/// The record (setup and decisions) from the event log; `None` before the start.
fn record_from_log(conn: &mut DbConnection, game_id: i64) -> ServiceResult<Option<Record>> {
    let mut record: Option<Record> = None;
    for row in store::events_after(conn, game_id, 0, i64::MAX)? {
        match parse_event(&row.payload)? {
            GameEvent::Started { setup } => record = Some(Record::new(setup)),
            GameEvent::Decided { seat, decision, .. } => {
                if let Some(r) = record.as_mut() {
                    r.decisions.push(RecordedDecision { seat, decision });
                }
            }
            _ => {}
        }
    }
    Ok(record)
}

fn seat_of(seats: &[SeatRow], user_id: i64) -> Option<u8> {
    seats
        .iter()
        .find(|s| s.user_id == user_id)
        .map(|s| s.seat as u8)
}

fn detail(
    conn: &mut DbConnection,
    row: &GameRow,
    caller: Option<&Caller>,
) -> ServiceResult<GameDetail> {
    let seats = store::seats(conn, row.id)?;
    let your_seat = caller.and_then(|c| seat_of(&seats, c.user_id));
    let state = match GameStatus::parse(&row.status) {
        GameStatus::Active | GameStatus::Over => Some(load_state(conn, row)?.view(your_seat)),
        _ => None,
    };
    Ok(GameDetail {
        summary: summary(row, &seats)?,
        your_seat,
        state,
    })
}

/// A game still open for joining, and its seats.
fn open_game(conn: &mut DbConnection, game_id: i64) -> ServiceResult<(GameRow, Vec<SeatRow>)> {
    let row = load_row(conn, game_id)?;
    if GameStatus::parse(&row.status) != GameStatus::Open {
        return Err(ServiceError::conflict(
            "game_not_open",
            "the game is not open for joining",
        ));
    }
    let seats = store::seats(conn, game_id)?;
    Ok((row, seats))
}

/// The game as the caller sees it after a change.
fn reloaded_detail(
    conn: &mut DbConnection,
    game_id: i64,
    caller: &Caller,
) -> ServiceResult<GameDetail> {
    let row = load_row(conn, game_id)?;
    detail(conn, &row, Some(caller))
}

pub fn create(db: &Database, caller: &Caller, new: &NewGame) -> ServiceResult<GameDetail> {
    caller.require(Scope::Play)?;
    if !new.variant.player_counts().contains(&new.players) {
        let range = new.variant.player_counts();
        return Err(ServiceError::invalid(
            "invalid_players",
            format!(
                "{} is played by {} to {} players",
                new.variant,
                range.start(),
                range.end()
            ),
        ));
    }
    db.write(|conn| {
        let now = now_millis();
        let row = store::insert_game(
            conn,
            new.variant.name(),
            new.players as i32,
            new.invite_only,
            caller.user_id,
            now,
        )?;
        let created = GameEvent::Created {
            variant: new.variant,
            players: new.players,
            invite_only: new.invite_only,
            by: caller.name.clone(),
        };
        let mut v = append(conn, &row, 0, &created, GameUpdate::default())?;
        v = take_seat(conn, &row, v, caller.user_id, &caller.name)?;
        for name in &new.bots {
            let bot = crate::storage::accounts::user_by_name(conn, name)?
                .filter(|u| u.is_bot)
                .ok_or_else(|| {
                    ServiceError::invalid("unknown_bot", format!("{name:?} is not a bot account"))
                })?;
            let seats = store::seats(conn, row.id)?;
            if seats.len() >= new.players as usize {
                return Err(ServiceError::invalid(
                    "too_many_bots",
                    "more bots than free seats",
                ));
            }
            if seats.iter().any(|s| s.user_id == bot.id) {
                return Err(ServiceError::invalid(
                    "duplicate_bot",
                    "a bot takes one seat per game",
                ));
            }
            v = take_seat(conn, &row, v, bot.id, &bot.name)?;
        }
        reloaded_detail(conn, row.id, caller)
    })
}

/// The user whose decision the game waits for.
fn user_to_act(game: &Game, seats: &[SeatRow]) -> Option<i64> {
    let seat = game.to_act()?;
    seats
        .iter()
        .find(|s| s.seat == seat as i32)
        .map(|s| s.user_id)
}

/// Seat a user; start the game when the seats are full. Returns the game's new version.
fn take_seat(
    conn: &mut DbConnection,
    row: &GameRow,
    version: i64,
    user_id: i64,
    user_name: &str,
) -> ServiceResult<i64> {
    let seats = store::seats(conn, row.id)?;
    let seat = seats.len() as u8;
    store::insert_seat(conn, row.id, seat as i32, user_id)?;
    let joined = GameEvent::Joined {
        seat,
        user: user_name.to_string(),
    };
    let version = append(conn, row, version, &joined, GameUpdate::default())?;
    if seats.len() + 1 == row.players as usize {
        let variant = Variant::parse(&row.variant)
            .ok_or_else(|| ServiceError::Internal(format!("stored variant {:?}", row.variant)))?;
        let setup = Setup::deal(variant, row.players as u8, random_u64()?)
            .map_err(|e| ServiceError::Internal(e.to_string()))?;
        let game = Game::from_setup(&setup).map_err(|e| ServiceError::Internal(e.to_string()))?;
        let snapshot = game.to_snapshot();
        let to_act = user_to_act(&game, &store::seats(conn, row.id)?);
        return append(
            conn,
            row,
            version,
            &GameEvent::Started { setup },
            GameUpdate {
                status: Some(GameStatus::Active.name()),
                state: Some((&snapshot, ENGINE_VERSION, to_act)),
            },
        );
    }
    Ok(version)
}

pub fn join(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<GameDetail> {
    caller.require(Scope::Play)?;
    db.write(|conn| {
        let (row, seats) = open_game(conn, game_id)?;
        if seat_of(&seats, caller.user_id).is_some() {
            return Err(ServiceError::conflict(
                "already_seated",
                "you already sit at this game",
            ));
        }
        if row.invite_only && !store::is_invited(conn, game_id, caller.user_id)? {
            return Err(ServiceError::Forbidden("this game is by invitation only"));
        }
        take_seat(conn, &row, row.version, caller.user_id, &caller.name)?;
        reloaded_detail(conn, game_id, caller)
    })
}

pub fn leave(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<GameDetail> {
    caller.require(Scope::Play)?;
    db.write(|conn| {
        let row = load_row(conn, game_id)?;
        if GameStatus::parse(&row.status) != GameStatus::Open {
            return Err(ServiceError::conflict(
                "game_started",
                "a started game cannot be left: resign instead",
            ));
        }
        let seats = store::seats(conn, game_id)?;
        if seat_of(&seats, caller.user_id).is_none() {
            return Err(ServiceError::Forbidden("you have no seat in this game"));
        }
        store::delete_seat(conn, game_id, caller.user_id)?;
        store::renumber_seats(conn, game_id)?;
        let status = (seats.len() == 1).then_some(GameStatus::Cancelled.name());
        append(
            conn,
            &row,
            row.version,
            &GameEvent::Left {
                user: caller.name.clone(),
            },
            GameUpdate {
                status,
                state: None,
            },
        )?;
        reloaded_detail(conn, game_id, caller)
    })
}

pub fn invite(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    user: &str,
) -> ServiceResult<GameDetail> {
    caller.require(Scope::Play)?;
    db.write(|conn| {
        let (row, seats) = open_game(conn, game_id)?;
        if seat_of(&seats, caller.user_id).is_none() {
            return Err(ServiceError::Forbidden("only a seated player may invite"));
        }
        let invitee = crate::storage::accounts::user_by_name(conn, user)?
            .ok_or(ServiceError::NotFound("user"))?;
        if invitee.is_bot {
            // Bots accept at once.
            if seat_of(&seats, invitee.id).is_some() {
                return Err(ServiceError::conflict(
                    "already_seated",
                    "that bot already sits at this game",
                ));
            }
            take_seat(conn, &row, row.version, invitee.id, &invitee.name)?;
            return reloaded_detail(conn, game_id, caller);
        }
        match store::insert_invite(conn, game_id, invitee.id) {
            Ok(()) => {}
            Err(StorageError::Conflict) => {
                return Err(ServiceError::conflict(
                    "already_invited",
                    "that user is already invited",
                ))
            }
            Err(e) => return Err(e.into()),
        }
        append(
            conn,
            &row,
            row.version,
            &GameEvent::Invited {
                user: invitee.name.clone(),
            },
            GameUpdate::default(),
        )?;
        reloaded_detail(conn, game_id, caller)
    })
}

/// `open`: games anyone may join; `mine`: games the caller sits at or is invited to.
pub fn list(db: &Database, caller: &Caller, mine: bool) -> ServiceResult<Vec<GameSummary>> {
    caller.require(Scope::Read)?;
    db.read(|conn| {
        let rows = if mine {
            store::games_of(conn, caller.user_id, 200)?
        } else {
            store::open_games(conn, 200)?
        };
        rows.iter()
            .map(|row| summary(row, &store::seats(conn, row.id)?))
            .collect()
    })
}

pub fn get(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<GameDetail> {
    caller.require(Scope::Read)?;
    db.read(|conn| reloaded_detail(conn, game_id, caller))
}

/// Play one decision on the version the caller saw.
pub fn decide(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    request: &DecisionRequest,
    idempotency_key: Option<&str>,
) -> ServiceResult<DecisionAnswer> {
    caller.require(Scope::Play)?;
    let request_hash = super::sha256_hex(
        &serde_json::to_string(&(game_id, request))
            .map_err(|e| ServiceError::Internal(e.to_string()))?,
    );
    let repeated = |db: &Database| -> ServiceResult<Option<DecisionAnswer>> {
        let Some(key) = idempotency_key else {
            return Ok(None);
        };
        match db.read(|c| store::idempotent_answer(c, caller.user_id, key))? {
            None => Ok(None),
            Some(a) if a.request_hash == request_hash => Ok(Some(DecisionAnswer::Repeated {
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
    let result = db.write(|conn| {
        let row = load_row(conn, game_id)?;
        let seats = store::seats(conn, game_id)?;
        let seat = seat_of(&seats, caller.user_id)
            .ok_or(ServiceError::Forbidden("you have no seat in this game"))?;
        match GameStatus::parse(&row.status) {
            GameStatus::Open | GameStatus::Cancelled => {
                return Err(ServiceError::conflict(
                    "not_started",
                    "the game has not started",
                ))
            }
            GameStatus::Over => return Err(crate::engine::RuleError::GameOver.into()),
            GameStatus::Active => {}
        }
        if request.expected_version != row.version {
            return Err(ServiceError::StaleVersion {
                current: row.version,
            });
        }
        let mut game = load_state(conn, &row)?;
        let decision = request.decision.clone().resolve(game.board())?;
        let drawn = match decision {
            DecisionOf::DrawDeck => game.draw_pile_top(),
            DecisionOf::DrawPile { color } => game.pile(color).last().copied(),
            _ => None,
        };
        game.apply(seat, decision)?;
        let event = GameEvent::Decided {
            seat,
            decision: decision.normalized().to_json(game.board()),
            drawn,
        };
        let snapshot = game.to_snapshot();
        let status = game.is_over().then_some(GameStatus::Over.name());
        append(
            conn,
            &row,
            row.version,
            &event,
            GameUpdate {
                status,
                state: Some((&snapshot, ENGINE_VERSION, user_to_act(&game, &seats))),
            },
        )?;
        let row = load_row(conn, game_id)?;
        let answer = GameDetail {
            summary: summary(&row, &seats)?,
            your_seat: Some(seat),
            state: Some(game.view(Some(seat))),
        };
        if let Some(key) = idempotency_key {
            let body = serde_json::to_string(&answer)
                .map_err(|e| ServiceError::Internal(e.to_string()))?;
            let stored = StoredAnswer {
                request_hash: request_hash.clone(),
                status: 200,
                body,
            };
            store::store_idempotent_answer(conn, caller.user_id, key, &stored, now_millis())?;
        }
        Ok(answer)
    });
    match result {
        Ok(answer) => Ok(DecisionAnswer::Fresh(Box::new(answer))),
        // A concurrent retry of the same request may have won: answer as it did.
        Err(ServiceError::StaleVersion { current }) => match repeated(db)? {
            Some(answer) => Ok(answer),
            None => Err(ServiceError::StaleVersion {
                current: db.read(|c| load_row(c, game_id))?.version.max(current),
            }),
        },
        Err(e) => Err(e),
    }
}

/// Resign on whatever the current version is.
pub fn resign(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<GameDetail> {
    for _ in 0..5 {
        let version = db.read(|c| load_row(c, game_id))?.version;
        let request = DecisionRequest {
            expected_version: version,
            decision: DecisionOf::Resign,
        };
        match decide(db, caller, game_id, &request, None) {
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
        let over = GameStatus::parse(&row.status) == GameStatus::Over;
        store::events_after(conn, game_id, after, limit)?
            .into_iter()
            .map(|e| {
                let event = parse_event(&e.payload)?;
                Ok(EventView {
                    seq: e.seq,
                    at: e.created_at,
                    kind: event.kind().to_string(),
                    data: redact(event, me, over),
                })
            })
            .collect()
    })
}

fn redact(event: GameEvent, me: Option<u8>, over: bool) -> serde_json::Value {
    use serde_json::json;
    match event {
        GameEvent::Started { setup } if !over => json!({
            "players": setup.players,
            "start_player": setup.start_player,
            "hand": me.map(|s| setup.hands[s as usize].clone()),
            "draw_pile_size": setup.draw_pile.len(),
        }),
        GameEvent::Decided {
            seat,
            decision,
            drawn,
        } => {
            let visible = over || me == Some(seat) || !matches!(decision, DecisionOf::DrawDeck);
            let mut data = json!({ "seat": seat, "decision": decision });
            if let (true, Some(card)) = (visible, drawn) {
                data["drawn"] = json!(card);
            }
            data
        }
        other => {
            let value = serde_json::to_value(&other).unwrap_or_default();
            value.get(other.kind()).cloned().unwrap_or(value)
        }
    }
}

/// The full record, once the game is over.
pub fn record(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<Record> {
    caller.require(Scope::Read)?;
    db.read(|conn| {
        let row = load_row(conn, game_id)?;
        if GameStatus::parse(&row.status) != GameStatus::Over {
            return Err(ServiceError::conflict(
                "game_not_over",
                "the record is published when the game is over",
            ));
        }
        let mut record = record_from_log(conn, game_id)?
            .ok_or_else(|| ServiceError::Internal("finished game without a deal".into()))?;
        record.result = load_state(conn, &row)?.result();
        Ok(record)
    })
}

/// The version of a game, for long-polling.
pub fn version(db: &Database, game_id: i64) -> ServiceResult<i64> {
    db.read(|conn| Ok(load_row(conn, game_id)?.version))
}
