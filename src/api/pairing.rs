//! `/api/v1/pairing/requests`: "Play now". A player files what they will play; the server seats
//! waiting requests together as soon as they fill a table (the rule: `docs/playing.md`).

use actix_web::{delete, get, post, web, HttpResponse};

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::json_body::JsonObject;
use super::AppState;
use crate::service::pairing::{self, NewPairingRequest, PairingRequest, PairingRequestList};

/// File a pairing request. Pairing runs at once: when waiting requests fill a table with it, the
/// answer is `seated` with the game's id, and every player is told (`game_started`); otherwise
/// it is `waiting` until players come (or bots, after `bot_after_minutes`), it is cancelled, or it
/// lapses.
#[utoipa::path(operation_id = "filePairingRequest", tag = "pairing", security(("bearer" = [])), request_body = NewPairingRequest, responses(
    (status = 201, body = PairingRequest),
    (status = 403, description = "`suspended` (with `until`)", body = Problem),
    (status = 409, description = "`too_many_requests`: the most requests wait already; `duplicate_request`: the same one waits; `too_many_games`: you have the most games running at once", body = Problem),
    (status = 422, description = "`invalid_seats`, `invalid_time_control`, `invalid_rating_range`, `invalid_bot_wait`, `invalid_expiry`", body = Problem),
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
