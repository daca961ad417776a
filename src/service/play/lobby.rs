//! The lobby: creating games, joining, leaving, inviting (the lists are in `listing`).

use crate::service::social::blocks::refuse_if_blocked;
use crate::service::social::fair_use::{may_take_a_seat, FairUse};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::engine::{Game, Setup, Variant, ENGINE_VERSION};
use crate::service::accounts::{Caller, Scope};
use crate::service::correspondence::clocks::{ClockState, TimeControl};
use crate::service::notify::notifications::{queue, queue_for_people, Notice};
use crate::service::play::games::{
    append, append_all, load_row, not_seated, seat_of, user_to_act, GameDetail, GameEvent,
    GameStatus,
};
use crate::service::play::loading::reloaded_detail;
use crate::service::{random_u64, ServiceError, ServiceResult};
use crate::storage::appends::GameUpdate;
use crate::storage::games::{self as store, GameRow, SeatRow};
use crate::storage::locks::{self, Subject};
use crate::storage::vacations;
use crate::storage::{Database, DbConnection, StorageError};

/// A game still open for joining, and its seats, read under the game's lock: its last free seat
/// and one seat each hold against requests through other instances.
fn open_game(conn: &mut DbConnection, game_id: i64) -> ServiceResult<(GameRow, Vec<SeatRow>)> {
    locks::lock(conn, Subject::Game(game_id))?;
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

/// The name of one of the server's bot accounts.
#[derive(ToSchema)]
#[schema(as = BotName)]
#[allow(dead_code)] // Only describes the names in the document.
enum BotName {
    #[schema(rename = "bot-random")]
    Random,
    #[schema(rename = "bot-greedy")]
    Greedy,
    #[schema(rename = "bot-mcts")]
    Mcts,
    #[schema(rename = "bot-strong")]
    Strong,
}

#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"variant": "keltis", "players": 2, "invite_only": false, "bots": ["bot-greedy"]}))]
pub struct NewGame {
    pub variant: Variant,
    /// Number of seats: 2-4 (`keltis-card`: 2).
    #[schema(minimum = 2, maximum = 4)]
    pub players: u8,
    /// Only invited users may join.
    #[serde(default)]
    pub invite_only: bool,
    /// Rated (default): the result changes the players' ratings. `false`: a casual game.
    #[serde(default = "rated_by_default")]
    pub rated: bool,
    /// How much time players have (default: none).
    #[serde(default, deserialize_with = "crate::service::play::strict::tagged")]
    pub time_control: TimeControl,
    /// Bot accounts that take seats at once, e.g. `["bot-greedy"]` (see `GET /api/v1/bots`).
    #[serde(default)]
    #[schema(max_items = 3, value_type = Vec<BotName>)]
    pub bots: Vec<String>,
    /// Players to invite at once (friends, say), as `POST /games/{id}/invites` does: a bot sits
    /// down, a person is invited.
    #[serde(default)]
    #[schema(max_items = 3, value_type = Vec<String>)]
    pub invite: Vec<String>,
}

fn rated_by_default() -> bool {
    true
}

pub fn create(
    db: &Database,
    caller: &Caller,
    new: &NewGame,
    fair: FairUse,
) -> ServiceResult<GameDetail> {
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
    if new.invite.len() > 3 {
        return Err(ServiceError::invalid(
            "too_many_invites",
            "invite at most 3 players at creation",
        ));
    }
    let time_control = new.time_control.check()?;
    let clock = ClockState::new(time_control, new.players).to_json()?;
    let now = db.now();
    db.write(|conn| {
        may_take_a_seat(conn, caller.user_id, fair, now)?;
        let row = store::insert_game(
            conn,
            &store::NewGameRow {
                variant: new.variant.name(),
                players: new.players as i32,
                invite_only: new.invite_only,
                rated: new.rated,
                created_by: caller.user_id,
                clock: Some(&clock),
                created_at: now,
            },
        )?;
        let created = GameEvent::Created {
            variant: new.variant,
            players: new.players,
            invite_only: new.invite_only,
            rated: new.rated,
            by: caller.name.clone(),
            time_control,
        };
        let mut v = append(conn, &row, 0, &created, GameUpdate::default(), now)?;
        v = take_seat(conn, &row, v, caller.user_id, &caller.name, now)?;
        for name in &new.bots {
            let known = crate::service::accounts::check_name_shape(name).is_ok();
            let bot = known
                .then(|| crate::storage::accounts::user_by_name(conn, name))
                .transpose()?
                .flatten()
                .filter(|u| u.server_bot())
                .ok_or_else(|| {
                    ServiceError::invalid(
                        "unknown_bot",
                        format!("{name:?} is not one of the server's bots (invite an outside bot by its name)"),
                    )
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
            v = take_seat(conn, &row, v, bot.id, &bot.name, now)?;
        }
        for name in &new.invite {
            invite_in(conn, caller, row.id, name, now)?;
        }
        reloaded_detail(conn, row.id, caller, now, db.memo())
    })
}

/// Start a game for `players` (id and name; the first creates it, seats in this order) in the
/// caller's transaction: what pairing, rematches, events and ladders do once everyone has agreed.
/// `start`: the seat that moves first, where the caller's rule chose it (an event's pairing, the
/// longest wait, a rematch's turn), rather than the seat the deal draws (K12). Returns its id.
pub(crate) fn seat_together(
    conn: &mut DbConnection,
    variant: Variant,
    rated: bool,
    time_control: TimeControl,
    players: &[(i64, String)],
    start: Option<u8>,
    now: i64,
) -> ServiceResult<i64> {
    let (creator, creator_name) = players
        .first()
        .ok_or_else(|| ServiceError::Internal("a table without players".into()))?;
    let count = players.len() as u8;
    let clock = ClockState::new(time_control, count).to_json()?;
    let row = store::insert_game(
        conn,
        &store::NewGameRow {
            variant: variant.name(),
            players: count as i32,
            invite_only: true,
            rated,
            created_by: *creator,
            clock: Some(&clock),
            created_at: now,
        },
    )?;
    let created = GameEvent::Created {
        variant,
        players: count,
        invite_only: true,
        rated,
        by: creator_name.clone(),
        time_control,
    };
    let mut version = append(conn, &row, 0, &created, GameUpdate::default(), now)?;
    for (user_id, name) in players {
        version = take_seat_starting(conn, &row, version, (*user_id, name), start, now)?;
    }
    Ok(row.id)
}

/// Seat a user; start the game when the seats are full. Returns the game's new version.
fn take_seat(
    conn: &mut DbConnection,
    row: &GameRow,
    version: i64,
    user_id: i64,
    user_name: &str,
    now: i64,
) -> ServiceResult<i64> {
    take_seat_starting(conn, row, version, (user_id, user_name), None, now)
}

/// Seat a user; when the seats are full, deal and start the game, `start` moving first (`None`:
/// the seat the deal draws).
fn take_seat_starting(
    conn: &mut DbConnection,
    row: &GameRow,
    version: i64,
    (user_id, user_name): (i64, &str),
    start: Option<u8>,
    now: i64,
) -> ServiceResult<i64> {
    let seats = store::seats(conn, row.id)?;
    let seat = seats.len() as u8;
    store::insert_seat(conn, row.id, seat as i32, user_id)?;
    let joined = GameEvent::Joined {
        seat,
        user: user_name.to_string(),
    };
    let version = append(conn, row, version, &joined, GameUpdate::default(), now)?;
    if seats.len() + 1 == row.players as usize {
        let variant = Variant::parse(&row.variant)
            .ok_or_else(|| ServiceError::Internal(format!("stored variant {:?}", row.variant)))?;
        let mut setup = Setup::deal(variant, row.players as u8, random_u64()?)
            .map_err(|e| ServiceError::Internal(e.to_string()))?;
        if let Some(seat) = start {
            setup.start_player = seat;
        }
        let game = Game::from_setup(&setup).map_err(|e| ServiceError::Internal(e.to_string()))?;
        let snapshot = game.to_snapshot();
        let seats = store::seats(conn, row.id)?;
        let to_act = user_to_act(&game, &seats);
        // The first seat's clock starts with the deal (standing still for players away).
        let mut clock = ClockState::from_json(row.clock.as_deref());
        let users: Vec<i64> = seats.iter().map(|s| s.user_id).collect();
        for away in vacations::users_away(conn, &users)? {
            if let Some(seat) = seat_of(&seats, away) {
                clock.set_away(seat, true, now);
            }
        }
        clock.after(game.to_act(), now);
        let clock_json = clock.to_json()?;
        let mut events = vec![GameEvent::Started { setup }];
        if let (true, Some(seat)) = (!clock.control.is_untimed(), game.to_act()) {
            events.push(GameEvent::ClockStarted {
                seat,
                deadline: clock.deadline(),
            });
        }
        let version = append_all(
            conn,
            row,
            version,
            &events,
            GameUpdate {
                status: Some(GameStatus::Active.name()),
                to_act: Some(to_act),
                snapshot: Some((&snapshot, ENGINE_VERSION)),
                clock: Some(clock.columns(&clock_json, now)),
            },
            now,
        )?;
        let game_id = row.id;
        queue_for_people(
            conn,
            &seats,
            |_| true,
            |_| Notice::GameStarted { game_id },
            now,
        )?;
        let first = game.to_act();
        let your_turn = |seat| Notice::YourTurn {
            game_id,
            seat,
            version,
            plan_not_played: None,
        };
        queue_for_people(conn, &seats, |s| Some(s) == first, your_turn, now)?;
        return Ok(version);
    }
    Ok(version)
}

pub fn join(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    fair: FairUse,
) -> ServiceResult<GameDetail> {
    join_as(db, caller, game_id, fair, false)
}

/// Join through a challenge link, which stands for an invitation.
pub(crate) fn join_by_link(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    fair: FairUse,
) -> ServiceResult<GameDetail> {
    join_as(db, caller, game_id, fair, true)
}

fn join_as(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    fair: FairUse,
    by_link: bool,
) -> ServiceResult<GameDetail> {
    caller.require(Scope::Play)?;
    let now = db.now();
    on_fresh_version(|| {
        db.write(|conn| {
            let (row, seats) = open_game(conn, game_id)?;
            if seat_of(&seats, caller.user_id).is_some() {
                return Err(ServiceError::conflict(
                    "already_seated",
                    "you already sit at this game",
                ));
            }
            if row.invite_only && !by_link && !store::is_invited(conn, game_id, caller.user_id)? {
                return Err(ServiceError::forbidden(
                    "invite_only",
                    "this game is by invitation only",
                ));
            }
            may_take_a_seat(conn, caller.user_id, fair, now)?;
            let seated: Vec<i64> = seats.iter().map(|s| s.user_id).collect();
            refuse_if_blocked(
                conn,
                caller.user_id,
                &seated,
                "a player of this game does not accept you",
            )?;
            take_seat(conn, &row, row.version, caller.user_id, &caller.name, now)?;
            reloaded_detail(conn, game_id, caller, now, db.memo())
        })
    })
}

/// Run a lobby write again when the game's version moved under it (a writer that does not take
/// the game's lock, such as a deadline): what a slower request would have met.
fn on_fresh_version<T>(mut run: impl FnMut() -> ServiceResult<T>) -> ServiceResult<T> {
    for _ in 1..3 {
        match run() {
            Err(ServiceError::StaleVersion { .. }) => continue,
            outcome => return outcome,
        }
    }
    run()
}

pub fn leave(db: &Database, caller: &Caller, game_id: i64) -> ServiceResult<GameDetail> {
    caller.require(Scope::Play)?;
    let now = db.now();
    on_fresh_version(|| {
        db.write(|conn| {
            locks::lock(conn, Subject::Game(game_id))?;
            let row = load_row(conn, game_id)?;
            if GameStatus::parse(&row.status) != GameStatus::Open {
                return Err(ServiceError::conflict(
                    "game_started",
                    "a started game cannot be left: resign instead",
                ));
            }
            let seats = store::seats(conn, game_id)?;
            if seat_of(&seats, caller.user_id).is_none() {
                return Err(not_seated());
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
                    ..GameUpdate::default()
                },
                now,
            )?;
            reloaded_detail(conn, game_id, caller, now, db.memo())
        })
    })
}

pub fn invite(
    db: &Database,
    caller: &Caller,
    game_id: i64,
    user: &str,
) -> ServiceResult<GameDetail> {
    caller.require(Scope::Play)?;
    let now = db.now();
    on_fresh_version(|| {
        db.write(|conn| {
            invite_in(conn, caller, game_id, user, now)?;
            reloaded_detail(conn, game_id, caller, now, db.memo())
        })
    })
}

/// Invite `user` to open game `game_id` in the caller's transaction: a bot sits down at once,
/// a person is told.
fn invite_in(
    conn: &mut DbConnection,
    caller: &Caller,
    game_id: i64,
    user: &str,
    now: i64,
) -> ServiceResult<()> {
    let (row, seats) = open_game(conn, game_id)?;
    if seat_of(&seats, caller.user_id).is_none() {
        return Err(ServiceError::forbidden(
            "not_seated",
            "only a seated player may invite",
        ));
    }
    crate::service::accounts::check_name_shape(user)?;
    let invitee = crate::storage::accounts::user_by_name(conn, user)?.ok_or_else(|| {
        ServiceError::invalid("unknown_user", format!("there is no user {user:?}"))
    })?;
    refuse_if_blocked(
        conn,
        caller.user_id,
        &[invitee.id],
        "this player does not accept your invitations",
    )?;
    if invitee.is_bot {
        // Bots, the server's and outside ones, accept at once.
        if seat_of(&seats, invitee.id).is_some() {
            return Err(ServiceError::conflict(
                "already_seated",
                "that bot already sits at this game",
            ));
        }
        take_seat(conn, &row, row.version, invitee.id, &invitee.name, now)?;
        return Ok(());
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
        now,
    )?;
    let invitation = Notice::Invitation {
        game_id,
        by: caller.name.clone(),
        rematch: false,
    };
    queue(conn, invitee.id, &invitation, now)?;
    Ok(())
}
