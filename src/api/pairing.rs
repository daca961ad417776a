//! `/api/v1/pairing/requests`: "Play now". A player files what they will play; the server seats
//! waiting requests together as soon as they fill a table (the rule: `docs/playing.md`). And
//! `/api/v1/games/{id}/rematch`: the same table again once a game is over. And challenge links:
//! a game's seats for whoever opens its link first. And `/api/v1/bulk-pairings`: games an
//! organiser creates for players who gave it their tokens.

use actix_web::{delete, get, post, web, HttpResponse};

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::json_body::JsonObject;
use super::AppState;
use crate::service::pairing::bulk::{self, BulkPairing, NewBulkPairing};
use crate::service::pairing::challenges::{self, ChallengeLink};
use crate::service::pairing::rematch::{self, Rematch};
use crate::service::pairing::{self, NewPairingRequest, PairingRequest, PairingRequestList};
use crate::service::play::games::GameDetail;

/// File a pairing request. Pairing runs at once: when waiting requests fill a table with it, the
/// answer is `seated` with the game's id, and every player is told (`game_started`); otherwise
/// it is `waiting` until players come (or bots, after `bot_after_minutes`), it is cancelled, or it
/// lapses.
#[utoipa::path(operation_id = "filePairingRequest", tag = "pairing", security(("bearer" = [])), request_body = NewPairingRequest, responses(
    (status = 201, body = PairingRequest),
    (status = 403, description = "`suspended` (with `until`)", body = Problem),
    (status = 409, description = "`too_many_requests`: the most requests wait already; `duplicate_request`: one of yours waits for the same game (variant, table sizes, rated, time control; the rating range, bot wait and expiry do not make another); `too_many_games`: you have the most games running at once", body = Problem),
    (status = 422, description = "`invalid_body` (more than three sizes in `seats`, or one twice), `invalid_seats`, `invalid_time_control`, `invalid_rating_range`, `invalid_bot_wait`, `invalid_expiry`", body = Problem),
))]
#[post("/pairing/requests")]
pub async fn file(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: JsonObject<NewPairingRequest>,
) -> Result<HttpResponse, ApiError> {
    let request =
        web::block(move || pairing::file(&state.db, &caller, &body, &state.pairing)).await??;
    Ok(HttpResponse::Created().json(request))
}

/// Your pairing requests: those waiting, oldest first, and those closed within the last day
/// (seated at a game, cancelled, lapsed or withdrawn).
#[utoipa::path(operation_id = "listPairingRequests", tag = "pairing", security(("bearer" = [])), responses(
    (status = 200, body = PairingRequestList),
))]
#[get("/pairing/requests")]
pub async fn list(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
) -> Result<web::Json<PairingRequestList>, ApiError> {
    Ok(web::Json(
        web::block(move || pairing::list(&state.db, &caller)).await??,
    ))
}

/// One of your pairing requests (another player's is not found).
#[utoipa::path(operation_id = "getPairingRequest", tag = "pairing", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = PairingRequest),
    (status = 404, description = "`not_found`", body = Problem),
))]
#[get("/pairing/requests/{id}")]
pub async fn get(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<PairingRequest>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || pairing::get(&state.db, &caller, id)).await??,
    ))
}

/// Cancel a waiting pairing request.
#[utoipa::path(operation_id = "cancelPairingRequest", tag = "pairing", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = PairingRequest),
    (status = 404, description = "`not_found`", body = Problem),
    (status = 409, description = "`request_closed`: it was seated, lapsed or withdrawn meanwhile", body = Problem),
))]
#[delete("/pairing/requests/{id}")]
pub async fn cancel(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<PairingRequest>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || pairing::cancel(&state.db, &caller, id)).await??,
    ))
}

/// The rematch offered at a finished game you played; 204 when none was offered yet (a normal
/// state: offer one with `POST`).
#[utoipa::path(operation_id = "getRematch", tag = "pairing", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = Rematch),
    (status = 204, description = "No rematch offered at this game yet"),
    (status = 403, description = "`not_seated`: you did not play this game", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
    (status = 409, description = "`game_not_over`", body = Problem),
))]
#[get("/games/{id}/rematch")]
pub async fn get_rematch(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    Ok(
        match web::block(move || rematch::get(&state.db, &caller, id)).await?? {
            Some(offered) => HttpResponse::Ok().json(offered),
            None => HttpResponse::NoContent().finish(),
        },
    )
}

/// Offer a rematch at a finished game you played, or accept the one offered: the same variant,
/// time control and rated or casual game, every player a seat further. The others are told (an
/// `invitation` notice with `rematch`); the game starts when everyone has accepted (bots accept
/// at once), and the answer then says `started` with `new_game_id`. An offer lapses after three
/// days; once declined or lapsed, it may be offered again.
#[utoipa::path(operation_id = "offerRematch", tag = "pairing", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = Rematch),
    (status = 403, description = "`not_seated`: you did not play this game; `suspended` (with `until`)", body = Problem),
    (status = 404, description = "`not_found`", body = Problem),
    (status = 409, description = "`game_not_over`; `player_gone`: a player deleted their account; `too_many_games`: you have the most games running at once", body = Problem),
))]
#[post("/games/{id}/rematch")]
pub async fn offer_rematch(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<Rematch>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || rematch::offer_or_accept(&state.db, &caller, id, state.fair_use))
            .await??,
    ))
}

/// Decline the rematch offered at a game you played (the one who offered withdraws it).
#[utoipa::path(operation_id = "declineRematch", tag = "pairing", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = Rematch),
    (status = 403, description = "`not_seated`: you did not play this game", body = Problem),
    (status = 404, description = "`not_found`", body = Problem),
    (status = 409, description = "`game_not_over`; `no_rematch_offer`: none waits", body = Problem),
))]
#[delete("/games/{id}/rematch")]
pub async fn decline_rematch(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<Rematch>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || rematch::decline(&state.db, &caller, id)).await??,
    ))
}

/// The challenge link of a game you sit at while it waits for players: whoever opens it first,
/// signed in, takes a seat (invitation-only games included), until the seats are full. Share it
/// in a chat; it works as long as the game waits.
#[utoipa::path(operation_id = "getChallengeLink", tag = "pairing", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = ChallengeLink),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`", body = Problem),
    (status = 409, description = "`game_not_open`: the game no longer waits for players", body = Problem),
))]
#[get("/games/{id}/challenge-link")]
pub async fn challenge_link(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<ChallengeLink>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || {
            challenges::link(&state.db, &state.keys, &caller, id, &state.public_url)
        })
        .await??,
    ))
}

/// Take a seat through a challenge link's token; the game starts when its seats are full.
#[utoipa::path(operation_id = "acceptChallenge", tag = "pairing", security(("bearer" = [])), params(("token" = String, Path, description = "The link's token")), responses(
    (status = 200, body = GameDetail),
    (status = 403, description = "`blocked`: a player of the game does not accept you; `suspended` (with `until`)", body = Problem),
    (status = 404, description = "`not_found`: not a challenge link of this server", body = Problem),
    (status = 409, description = "`game_not_open`: its seats were taken first; `already_seated`; `too_many_games`", body = Problem),
))]
#[post("/challenges/{token}")]
pub async fn accept_challenge(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    token: web::Path<String>,
) -> Result<web::Json<GameDetail>, ApiError> {
    Ok(web::Json(
        web::block(move || {
            challenges::accept(&state.db, &state.keys, &caller, &token, state.fair_use)
        })
        .await??,
    ))
}

/// Create games for other players in bulk (the `organize` scope): each game's seats are the
/// players' personal tokens with the `play` scope (their consent), in seat order, the first
/// moving first. The games start at once, or at `starts_at` (within a week); the players hear of
/// them as of any game starting. For clubs and leagues running their own events.
#[utoipa::path(operation_id = "createBulkPairing", tag = "pairing", security(("bearer" = [])), request_body = NewBulkPairing, responses(
    (status = 201, body = BulkPairing),
    (status = 422, description = "`invalid_games`: 1 to 100 games, each of a size the variant is played by; `invalid_player_token`: a seat's token is not a personal token with the `play` scope (its place is named); `duplicate_player`; `invalid_start`; `invalid_time_control`", body = Problem),
))]
#[post("/bulk-pairings")]
pub async fn create_bulk(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    body: JsonObject<NewBulkPairing>,
) -> Result<HttpResponse, ApiError> {
    let made = web::block(move || bulk::create(&state.db, &state.keys, &caller, &body)).await??;
    Ok(HttpResponse::Created().json(made))
}

/// One of your bulk pairings: its games, with their ids once started.
#[utoipa::path(operation_id = "getBulkPairing", tag = "pairing", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = BulkPairing),
    (status = 404, description = "`not_found`", body = Problem),
))]
#[get("/bulk-pairings/{id}")]
pub async fn get_bulk(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<BulkPairing>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || bulk::get(&state.db, &caller, id)).await??,
    ))
}

/// Cancel a scheduled bulk pairing before its games start.
#[utoipa::path(operation_id = "cancelBulkPairing", tag = "pairing", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = BulkPairing),
    (status = 404, description = "`not_found`", body = Problem),
    (status = 409, description = "`bulk_started`: its games have started, or it was cancelled", body = Problem),
))]
#[delete("/bulk-pairings/{id}")]
pub async fn cancel_bulk(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<BulkPairing>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || bulk::cancel(&state.db, &caller, id)).await??,
    ))
}
