//! `/api/v1/ladders/{variant}`: a standing ladder per variant at two seats. Join at the bottom,
//! challenge a little above (the game starts at once), climb by winning.

use actix_web::{delete, get, post, web, HttpResponse};

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::json_body::JsonObject;
use super::AppState;
use crate::service::events::ladder::{self, ChallengeView, LadderView, NewChallenge};

/// A variant's ladder: the rungs (top first, with each player's open challenges) and the
/// challenges open or decided within the week.
#[utoipa::path(operation_id = "getLadder", tag = "events", security(("bearer" = [])), params(("variant" = String, Path, description = "`keltis`, `neue-wege` or `keltis-card`")), responses(
    (status = 200, body = LadderView),
    (status = 404, description = "`not_found`: no such variant", body = Problem),
))]
#[get("/ladders/{variant}")]
pub async fn get(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    variant: web::Path<String>,
) -> Result<web::Json<LadderView>, ApiError> {
    Ok(web::Json(
        web::block(move || ladder::show(&state.db, &caller, &variant)).await??,
    ))
}

/// Join a ladder at the bottom rung (a player already on it stays where they are).
#[utoipa::path(operation_id = "joinLadder", tag = "events", security(("bearer" = [])), params(("variant" = String, Path)), responses(
    (status = 201, body = LadderView),
    (status = 403, description = "`suspended` (with `until`)", body = Problem),
    (status = 404, description = "`not_found`", body = Problem),
))]
#[post("/ladders/{variant}/rungs")]
pub async fn join(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    variant: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let view = web::block(move || ladder::join(&state.db, &caller, &variant)).await??;
    Ok(HttpResponse::Created().json(view))
}

/// Leave a ladder (yourself, by your name); the rungs below close up.
#[utoipa::path(operation_id = "leaveLadder", tag = "events", security(("bearer" = [])), params(("variant" = String, Path), ("name" = String, Path)), responses(
    (status = 200, body = LadderView),
    (status = 403, description = "`not_your_rung`", body = Problem),
    (status = 404, description = "`not_found`: no such variant, or you are not on it", body = Problem),
))]
#[delete("/ladders/{variant}/rungs/{name}")]
pub async fn leave(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    path: web::Path<(String, String)>,
) -> Result<web::Json<LadderView>, ApiError> {
    let (variant, name) = path.into_inner();
    Ok(web::Json(
        web::block(move || ladder::leave(&state.db, &caller, &variant, &name)).await??,
    ))
}

/// Challenge a player above you, within two fifths of your rung: the game starts at once (the
/// defender moves first; three days a turn; rated). The challenger who wins takes the defender's
/// rung; whoever lets their clock run out leaves the ladder.
#[utoipa::path(operation_id = "challengeOnLadder", tag = "events", security(("bearer" = [])), params(("variant" = String, Path)), request_body = NewChallenge, responses(
    (status = 201, body = ChallengeView),
    (status = 403, description = "`suspended` (with `until`); `blocked`: one of you blocked the other", body = Problem),
    (status = 404, description = "`not_found`", body = Problem),
    (status = 409, description = "`not_on_ladder`: you or they are not on it; `not_above`; `out_of_reach`; `too_many_challenges`: you have three open; `defender_too_challenged`: they have three open against them; `already_challenged`: you two have one open", body = Problem),
))]
#[post("/ladders/{variant}/challenges")]
pub async fn challenge(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    variant: web::Path<String>,
    body: JsonObject<NewChallenge>,
) -> Result<HttpResponse, ApiError> {
    let made = web::block(move || ladder::challenge(&state.db, &caller, &variant, &body)).await??;
    Ok(HttpResponse::Created().json(made))
}
