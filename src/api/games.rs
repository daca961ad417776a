//! `/api/v1/games*`: lobby, play, events, record.
//!
//! Every operation also answers the shared problem responses that `openapi` adds to the document
//! (401, 403 `insufficient_scope`, 503 `database_unavailable`, ...); the ones listed here are the
//! operation's own.

use super::json_body::JsonObject;
use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::streams::stream_slot;
use super::AppState;
use crate::service::notify::live;
use crate::service::play::decisions::{self, DecisionAnswer, DecisionRequest};
use crate::service::play::events::{self as game_events, EventView, ReplayStep};
use crate::service::play::games::GameDetail;
use crate::service::play::listing::{self, GameFilter, GamePage};
use crate::service::play::lobby::{self, NewGame};

/// Largest page of `GET /games`.
pub const MAX_PAGE: i64 = 200;
/// Longest `wait` of `GET /games/{id}/events`, in seconds.
pub const MAX_WAIT_SECONDS: u64 = 60;
/// Largest `limit` of `GET /games/{id}/events`.
pub const MAX_EVENTS: i64 = 1000;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `open` (default): games anyone may join; `mine`: games you sit at or are invited to.
    #[param(inline)]
    pub filter: Option<GameFilter>,
    /// The `next_cursor` of the previous page; leave out for the first page.
    #[param(pattern = r"^[0-9]{1,18}\.[0-9]{1,18}$")]
    pub cursor: Option<String>,
    /// Games per page (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InviteRequest {
    /// The user name to invite.
    #[schema(
        min_length = 3,
        max_length = 32,
        pattern = r"^[A-Za-z0-9_-]+$",
        example = "anna"
    )]
    pub user: String,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events with a larger sequence number (default 0: all).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// Hold the request up to this many seconds until a newer event exists (default 0).
    #[param(minimum = 0, maximum = 60)]
    pub wait: Option<u64>,
    /// At most this many events (default 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ReplayQuery {
    /// See the table as this seat saw it, hand included (default: as a spectator).
    #[param(minimum = 0, maximum = 3)]
    pub seat: Option<u8>,
}

pub(super) fn out_of_range(name: &str, range: &str) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "invalid_query",
        format!("{name} must be {range}"),
    )
}

/// A page's `before` cursor (1 or more) and `limit` (1 to `max`, `default` when absent).
pub(super) fn page(
    before: Option<i64>,
    limit: Option<i64>,
    default: i64,
    max: i64,
) -> Result<(Option<i64>, i64), ApiError> {
    if before.is_some_and(|b| b < 1) {
        return Err(out_of_range("before", "1 or more"));
    }
    let limit = limit.unwrap_or(default);
    if !(1..=max).contains(&limit) {
        return Err(out_of_range("limit", &format!("1 to {max}")));
    }
    Ok((before, limit))
}

/// List games, one page at a time.
///
/// Pages follow each other through `next_cursor`. `mine` is ordered by the last change, so a game
/// that changes while you page moves to the front and shows on a fresh first page.
#[utoipa::path(operation_id = "listGames", tag = "lobby", security(("bearer" = [])), params(ListQuery), responses(
    (status = 200, body = GamePage),
))]
#[get("/games")]
pub async fn list(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    query: web::Query<ListQuery>,
) -> Result<web::Json<GamePage>, ApiError> {
    let query = query.into_inner();
    let (_, limit) = page(None, query.limit, 50, MAX_PAGE)?;
    let filter = query.filter.unwrap_or(GameFilter::Open);
    Ok(web::Json(
        web::block(move || {
            listing::list(&state.db, &caller, filter, query.cursor.as_deref(), limit)
        })
        .await??,
    ))
}

/// Create a game and take its first seat. It starts when its seats are full.
#[utoipa::path(operation_id = "createGame", tag = "lobby", security(("bearer" = [])), request_body = NewGame, responses(
    (status = 201, body = GameDetail),
    (status = 403, description = "`suspended` (with `until`); `blocked`: a player in `invite` blocked you", body = Problem),
    (status = 409, description = "`too_many_games`: you have the most games running at once; `game_not_open`: the invited bots filled the seats before the next invitation; `already_invited`, `already_seated` for `invite`", body = Problem),
    (status = 422, description = "`invalid_players`, `unknown_bot`, `too_many_bots`, `duplicate_bot`, `invalid_time_control` (outside the documented ranges, or a Fischer maximum below its start); `too_many_invites`, `unknown_user`, `invalid_name` for `invite`", body = Problem),
))]
#[post("/games")]
pub async fn create(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: JsonObject<NewGame>,
) -> Result<HttpResponse, ApiError> {
    let game =
        web::block(move || lobby::create(&state.db, &caller, &body, state.fair_use)).await??;
    Ok(HttpResponse::Created().json(game))
}

/// A game as the caller may see it: the caller's view (spectators: the spectator view), its
/// `version` and, when the caller is to act, `state.legal_decisions`.
#[utoipa::path(operation_id = "getGame", tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = GameDetail),
))]
#[get("/games/{id}")]
pub async fn get(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<GameDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || decisions::get(&state.db, &caller, id)).await??,
    ))
}

/// Take the next free seat.
#[utoipa::path(operation_id = "joinGame", tag = "lobby", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = GameDetail),
    (status = 403, description = "`invite_only`: the game is by invitation only; `blocked`: a player of the game blocked you; `suspended` (with `until`)", body = Problem),
    (status = 409, description = "`game_not_open`, `already_seated`; `too_many_games`: you have the most games running at once", body = Problem),
))]
#[post("/games/{id}/join")]
pub async fn join(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<GameDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || lobby::join(&state.db, &caller, id, state.fair_use)).await??,
    ))
}

/// Give up a seat before the start.
#[utoipa::path(operation_id = "leaveGame", tag = "lobby", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = GameDetail),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 409, description = "`game_started`", body = Problem),
))]
#[post("/games/{id}/leave")]
pub async fn leave(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<GameDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || lobby::leave(&state.db, &caller, id)).await??,
    ))
}

/// Invite a user by name (a seated player, before the start). A bot sits down at once.
#[utoipa::path(operation_id = "inviteToGame", tag = "lobby", security(("bearer" = [])), params(("id" = i64, Path)), request_body = InviteRequest, responses(
    (status = 200, body = GameDetail),
    (status = 403, description = "`not_seated`; `blocked`: that player blocked you", body = Problem),
    (status = 409, description = "`game_not_open`, `already_invited`, `already_seated`", body = Problem),
    (status = 422, description = "`unknown_user`: no user has that name; `invalid_name`", body = Problem),
))]
#[post("/games/{id}/invites")]
pub async fn invite(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    body: JsonObject<InviteRequest>,
) -> Result<web::Json<GameDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || lobby::invite(&state.db, &caller, id, &body.user)).await??,
    ))
}

/// Play one decision. Send the `version` you saw as `expected_version`. With an
/// `Idempotency-Key` header, a retried request returns the first answer and appends nothing.
///
/// A seated player who is not to act gets 422 `not_your_turn`; a caller without a seat gets 403
/// `not_seated`.
#[utoipa::path(operation_id = "postDecision", tag = "play", security(("bearer" = [])), params(
    ("id" = i64, Path),
    ("Idempotency-Key" = Option<String>, Header, description = "Any unique string of 1 to 200 visible ASCII characters; answers are kept 24 hours", pattern = r"^[\x21-\x7E]{1,200}$"),
), request_body = DecisionRequest, responses(
    (status = 200, description = "the new view", body = GameDetail, headers(
        ("Idempotent-Replayed" = String, description = "`true` when this is the stored answer to a repeated Idempotency-Key")
    )),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 409, description = "`stale_version` (with `current_version`), `not_started`; `deadline_passed`: it is your turn and your time has run out (the server's clock applies the time-out)", body = Problem),
    (status = 422, description = "the rules refuse the decision, with the engine's code: `game_over`, `seat_retired` (your seat left the game: a bot plays it), `no_such_seat`, `not_your_turn`, `unexpected_decision` (not what this step of the turn asks for), `not_in_variant`, `card_not_in_hand`, `row_order`, `no_pawn_can_move`, `illegal_move`, `no_such_pawn`, `not_lowest_small_pawn`, `unknown_space`, `choice_required`, `discarded_this_turn`, `pile_empty`, `row_empty`, `wrong_path`, `path_terminated`, `stone_cards_invalid`, `stone_taken`, `stone_in_final_phase`; `reserved_decision` (`time_out` is the server's clock's); `idempotency_key_reused`", body = Problem),
))]
#[post("/games/{id}/decisions")]
pub async fn decide(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    req: HttpRequest,
    body: JsonObject<DecisionRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let key = match req.headers().get("Idempotency-Key") {
        None => None,
        Some(v) => match v.to_str() {
            Ok(k) if (1..=200).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic()) => {
                Some(k.to_string())
            }
            _ => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_idempotency_key",
                    "an Idempotency-Key has 1 to 200 visible ASCII characters",
                ))
            }
        },
    };
    let metrics = state.metrics.clone();
    let answer = web::block(move || {
        decisions::decide(
            &state.db,
            &caller,
            id,
            &body,
            key.as_deref(),
            &state.ratings,
        )
    })
    .await??;
    Ok(match answer {
        DecisionAnswer::Fresh(detail) => {
            metrics.decisions.inc();
            HttpResponse::Ok().json(detail)
        }
        DecisionAnswer::Repeated { status, body } => {
            HttpResponse::build(StatusCode::from_u16(status).unwrap_or(StatusCode::OK))
                .content_type("application/json")
                .insert_header(("Idempotent-Replayed", "true"))
                .body(body)
        }
    })
}

/// Resign: you leave the game and cannot win it. With 2 players the game ends at once and the
/// other player wins; with 3 or 4 the others play on and a bot plays your seat from then on (a
/// `seat_taken_over` event), as after a time-out.
#[utoipa::path(operation_id = "resignGame", tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = GameDetail),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 409, description = "`not_started`, `busy`; `deadline_passed`: it is your turn and your time has run out (the time-out is applied instead)", body = Problem),
    (status = 422, description = "`game_over`; `seat_retired`: your seat has left the game already", body = Problem),
))]
#[post("/games/{id}/resign")]
pub async fn resign(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<GameDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || decisions::resign(&state.db, &caller, id, &state.ratings)).await??,
    ))
}

/// The game's events as the caller may see them: another seat's draw from the deck comes
/// without its card, the deal shows only the caller's own hand, until the game is over.
#[utoipa::path(operation_id = "listGameEvents", tag = "play", security(("bearer" = [])), params(("id" = i64, Path), EventsQuery), responses(
    (status = 200, body = [EventView]),
    (status = 429, description = "`too_many_streams`: with `wait`, the player holds as many open event streams and waiting long polls on this server as it allows (`--max-streams-per-player`, 256 by default); `Retry-After` says when to try again", body = Problem),
))]
#[get("/games/{id}/events")]
pub async fn events(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    query: web::Query<EventsQuery>,
) -> Result<web::Json<Vec<EventView>>, ApiError> {
    let id = id.into_inner();
    let after = query.after.unwrap_or(0);
    if after < 0 {
        return Err(out_of_range("after", "0 or more"));
    }
    let limit = query.limit.unwrap_or(MAX_EVENTS);
    if !(1..=MAX_EVENTS).contains(&limit) {
        return Err(out_of_range("limit", "1 to 1000"));
    }
    let wait = query.wait.unwrap_or(0);
    if wait > MAX_WAIT_SECONDS {
        return Err(out_of_range("wait", "0 to 60 (seconds)"));
    }
    // The operator may cap the hold (behind a proxy with a shorter timeout, say): a long poll
    // may always answer early with no events.
    let hold = wait.min(state.long_poll_max_seconds);
    let until = Instant::now() + Duration::from_secs(hold);
    // A request that waits holds its connection as a stream does, so it takes one of the
    // player's places among their streams; one that finds events answers at once, place or not.
    let place = (hold > 0).then(|| stream_slot(&state, &caller));
    // Subscribed before the first read: an event committed in between still wakes this request,
    // which holds no thread while it waits.
    let mut waiter = live::Waiter::for_game(&state.db, id);
    let read = || {
        let (state, caller) = (state.clone(), caller.clone());
        web::block(move || game_events::events(&state.db, &caller, id, after, limit))
    };
    let mut found = read().await??;
    if found.is_empty() && hold > 0 {
        let _place = place.transpose()?;
        while found.is_empty() && waiter.woken_before(until.into()).await {
            found = read().await??;
        }
    }
    Ok(web::Json(found))
}

/// The full record (deck order, hands, tiles, start player, every decision, final scores),
/// once the game is over.
#[utoipa::path(operation_id = "getGameRecord", tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = crate::engine::Record),
    (status = 409, description = "`game_not_over`", body = Problem),
))]
#[get("/games/{id}/record")]
pub async fn record(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let record = web::block(move || game_events::record(&state.db, &caller, id)).await??;
    Ok(HttpResponse::Ok().json(record))
}

/// A finished game as it stood after its first `step` decisions (0: the deal), with the decision
/// that led there: the record viewer steps through these.
#[utoipa::path(operation_id = "getReplayStep", tag = "play", security(("bearer" = [])), params(("id" = i64, Path), ("step" = u32, Path, description = "Decisions applied (0 to the record's length)"), ReplayQuery), responses(
    (status = 200, body = ReplayStep),
    (status = 400, description = "`invalid_query`: the step or seat is out of range", body = Problem),
    (status = 409, description = "`game_not_over`", body = Problem),
))]
#[get("/games/{id}/record/steps/{step}")]
pub async fn replay_step(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    path: web::Path<(i64, u32)>,
    query: web::Query<ReplayQuery>,
) -> Result<web::Json<ReplayStep>, ApiError> {
    let (id, step) = path.into_inner();
    let seat = query.seat;
    Ok(web::Json(
        web::block(move || game_events::replay_step(&state.db, &caller, id, step as usize, seat))
            .await??,
    ))
}

/// The bots: the server's own (seat them with `bots` when creating a game, or invite them), then
/// the outside bots that their owners run through the API (invite them; they accept at once).
#[utoipa::path(operation_id = "listBots", tag = "bots", security(("bearer" = [])), responses(
    (status = 200, body = [crate::service::play::bots::BotListing]),
))]
#[get("/bots")]
pub async fn bots(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<Vec<crate::service::play::bots::BotListing>>, ApiError> {
    caller.require(crate::service::accounts::Scope::Read)?;
    Ok(web::Json(
        web::block(move || crate::service::play::bots::list(&state.db, &state.bots)).await??,
    ))
}
