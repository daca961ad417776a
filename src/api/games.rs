//! `/api/v1/games*`: lobby, play, events, record.

use std::time::{Duration, Instant};

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::games::{
    self, DecisionAnswer, DecisionRequest, EventView, GameDetail, GameSummary, NewGame,
};

#[derive(Deserialize, IntoParams)]
pub struct ListQuery {
    /// `open` (default): games anyone may join; `mine`: games you sit at or are invited to.
    pub filter: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InviteRequest {
    /// The user name to invite.
    pub user: String,
}

#[derive(Deserialize, IntoParams)]
pub struct EventsQuery {
    /// Only events with a larger sequence number (default 0: all).
    pub after: Option<i64>,
    /// Hold the request up to this many seconds (at most 60) until a newer event exists.
    pub wait: Option<u64>,
    /// At most this many events (default and maximum 1000).
    pub limit: Option<i64>,
}

/// List games.
#[utoipa::path(tag = "lobby", security(("bearer" = [])), params(ListQuery), responses(
    (status = 200, body = [GameSummary]),
    (status = 400, description = "`invalid_query`", body = Problem),
    (status = 401, body = Problem),
))]
#[get("/games")]
pub async fn list(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    query: web::Query<ListQuery>,
) -> Result<web::Json<Vec<GameSummary>>, ApiError> {
    let mine = match query.filter.as_deref() {
        None | Some("open") => false,
        Some("mine") => true,
        Some(other) => {
            return Err(ApiError::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                "invalid_query",
                format!("unknown filter {other:?}: open or mine"),
            ))
        }
    };
    Ok(web::Json(
        web::block(move || games::list(&state.db, &caller, mine)).await??,
    ))
}

/// Create a game and take its first seat. It starts when its seats are full.
#[utoipa::path(tag = "lobby", security(("bearer" = [])), request_body = NewGame, responses(
    (status = 201, body = GameDetail),
    (status = 401, body = Problem),
    (status = 422, description = "`invalid_players`, `invalid_body`", body = Problem),
))]
#[post("/games")]
pub async fn create(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: web::Json<NewGame>,
) -> Result<HttpResponse, ApiError> {
    let game = web::block(move || games::create(&state.db, &caller, &body)).await??;
    Ok(HttpResponse::Created().json(game))
}

/// A game as the caller may see it: the caller's view (spectators: the spectator view), its
/// `version` and, when the caller is to act, `state.legal_decisions`.
#[utoipa::path(tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = GameDetail),
    (status = 401, body = Problem),
    (status = 404, body = Problem),
))]
#[get("/games/{id}")]
pub async fn get(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<GameDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || games::get(&state.db, &caller, id)).await??,
    ))
}

/// Take the next free seat.
#[utoipa::path(tag = "lobby", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = GameDetail),
    (status = 403, description = "invitation only", body = Problem),
    (status = 404, body = Problem),
    (status = 409, description = "`game_not_open`, `already_seated`", body = Problem),
))]
#[post("/games/{id}/join")]
pub async fn join(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<GameDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || games::join(&state.db, &caller, id)).await??,
    ))
}

/// Give up a seat before the start.
#[utoipa::path(tag = "lobby", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = GameDetail),
    (status = 403, body = Problem),
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
        web::block(move || games::leave(&state.db, &caller, id)).await??,
    ))
}

/// Invite a user by name (a seated player, before the start).
#[utoipa::path(tag = "lobby", security(("bearer" = [])), params(("id" = i64, Path)), request_body = InviteRequest, responses(
    (status = 200, body = GameDetail),
    (status = 403, body = Problem),
    (status = 404, description = "no such game or user", body = Problem),
    (status = 409, description = "`game_not_open`, `already_invited`", body = Problem),
))]
#[post("/games/{id}/invites")]
pub async fn invite(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    body: web::Json<InviteRequest>,
) -> Result<web::Json<GameDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || games::invite(&state.db, &caller, id, &body.user)).await??,
    ))
}

/// Play one decision. Send the `version` you saw as `expected_version`. With an
/// `Idempotency-Key` header, a retried request returns the first answer and appends nothing.
#[utoipa::path(tag = "play", security(("bearer" = [])), params(
    ("id" = i64, Path),
    ("Idempotency-Key" = Option<String>, Header, description = "any unique string, at most 200 characters"),
), request_body = DecisionRequest, responses(
    (status = 200, description = "the new view", body = GameDetail),
    (status = 403, description = "not your seat", body = Problem),
    (status = 404, body = Problem),
    (status = 409, description = "`stale_version` (with `current_version`), `not_started`", body = Problem),
    (status = 422, description = "the engine's code: `not_your_turn`, `row_order`, `card_not_in_hand`, ...", body = Problem),
))]
#[post("/games/{id}/decisions")]
pub async fn decide(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    req: HttpRequest,
    body: web::Json<DecisionRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let key = match req.headers().get("Idempotency-Key") {
        None => None,
        Some(v) => match v.to_str() {
            Ok(k) if !k.is_empty() && k.len() <= 200 => Some(k.to_string()),
            _ => {
                return Err(ApiError::new(
                    actix_web::http::StatusCode::BAD_REQUEST,
                    "invalid_idempotency_key",
                    "an Idempotency-Key has 1 to 200 visible ASCII characters",
                ))
            }
        },
    };
    let answer =
        web::block(move || games::decide(&state.db, &caller, id, &body, key.as_deref())).await??;
    Ok(match answer {
        DecisionAnswer::Fresh(detail) => HttpResponse::Ok().json(detail),
        DecisionAnswer::Repeated { status, body } => HttpResponse::build(
            actix_web::http::StatusCode::from_u16(status)
                .unwrap_or(actix_web::http::StatusCode::OK),
        )
        .content_type("application/json")
        .insert_header(("Idempotent-Replayed", "true"))
        .body(body),
    })
}

/// Resign: the game ends at once; you cannot win it.
#[utoipa::path(tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = GameDetail),
    (status = 403, body = Problem),
    (status = 409, description = "`not_started`", body = Problem),
    (status = 422, description = "`game_over`", body = Problem),
))]
#[post("/games/{id}/resign")]
pub async fn resign(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<GameDetail>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || games::resign(&state.db, &caller, id)).await??,
    ))
}

/// The game's events as the caller may see them: another seat's draw from the deck comes
/// without its card, the deal shows only the caller's own hand, until the game is over.
#[utoipa::path(tag = "play", security(("bearer" = [])), params(("id" = i64, Path), EventsQuery), responses(
    (status = 200, body = [EventView]),
    (status = 404, body = Problem),
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
    let limit = query.limit.unwrap_or(1000).clamp(1, 1000);
    let deadline = Instant::now() + Duration::from_secs(query.wait.unwrap_or(0).min(60));
    loop {
        let (state2, caller2) = (state.clone(), caller.clone());
        let found =
            web::block(move || games::events(&state2.db, &caller2, id, after, limit)).await??;
        if !found.is_empty() || Instant::now() >= deadline {
            return Ok(web::Json(found));
        }
        // Polling the database keeps several server instances on one PostgreSQL correct.
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The full record (deck order, hands, tiles, start player, every decision, final scores),
/// once the game is over.
#[utoipa::path(tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = crate::engine::Record),
    (status = 404, body = Problem),
    (status = 409, description = "`game_not_over`", body = Problem),
))]
#[get("/games/{id}/record")]
pub async fn record(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let record = web::block(move || games::record(&state.db, &caller, id)).await??;
    Ok(HttpResponse::Ok().json(record))
}

/// The server's bot accounts: seat them with `bots` when creating a game, or invite them.
#[utoipa::path(tag = "bots", security(("bearer" = [])), responses(
    (status = 200, body = [crate::service::bots::ServerBot]),
    (status = 401, body = Problem),
))]
#[get("/bots")]
pub async fn bots(
    state: web::Data<AppState>,
    _caller: Authenticated,
) -> web::Json<Vec<crate::service::bots::ServerBot>> {
    web::Json(state.bots.clone())
}
