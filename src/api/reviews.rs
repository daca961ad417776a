//! The review of a finished game: asked for by a player who sat at it, read by anyone who may
//! read its record. `202` while it is on its way, `200` once done, `204` before anyone asked.

use actix_web::{get, post, web, HttpResponse};

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::review::{self, GameReview, ReviewState};

fn answered(review: GameReview) -> HttpResponse {
    match review.state {
        ReviewState::Queued | ReviewState::Running => HttpResponse::Accepted().json(review),
        ReviewState::Done | ReviewState::Failed => HttpResponse::Ok().json(review),
    }
}

/// Ask for the game's review (a player who sat at the finished game): `202` while it is queued
/// or running (the player's stream says `review_ready` when it is done), `200` with it once
/// done. Asking again changes nothing.
#[utoipa::path(operation_id = "requestGameReview", tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, description = "Done (or given up: `state` is `failed`)", body = GameReview),
    (status = 202, description = "Queued or running", body = GameReview),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
    (status = 409, description = "`game_not_over` (an aborted game is never reviewed)", body = Problem),
))]
#[post("/games/{id}/review")]
pub async fn request(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let review = web::block(move || review::request(&state.db, &caller, id)).await??;
    Ok(answered(review))
}

/// The game's review: every decision with its choices' expected margins, marks and the better
/// choice, each player's accuracy and luck. `202` while it is on its way; `204` when nobody has
/// asked for one (a normal state: ask with `POST`).
#[utoipa::path(operation_id = "getGameReview", tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, description = "Done (or given up: `state` is `failed`)", body = GameReview),
    (status = 202, description = "Queued or running", body = GameReview),
    (status = 204, description = "Nobody has asked for this game's review"),
    (status = 404, description = "`not_found`: no such game", body = Problem),
    (status = 409, description = "`game_not_over`", body = Problem),
))]
#[get("/games/{id}/review")]
pub async fn get(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    Ok(
        match web::block(move || review::get(&state.db, &caller, id)).await?? {
            Some(review) => answered(review),
            None => HttpResponse::NoContent().finish(),
        },
    )
}
