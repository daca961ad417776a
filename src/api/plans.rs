//! `/api/v1/games/{id}/plan`: a plan for the caller's next turn, played when that turn begins
//! (`service::plans`). Read by its owner alone.

use actix_web::{delete, get, put, web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::json_body::JsonObject;
use super::AppState;
use crate::service::i18n::Language;
use crate::service::plans::{self, PlanRequest, PlanState};
use crate::service::words::moves::TurnInWords;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NextChoicesQuery {
    /// `en`, `fr` or `de` (default: the account's language).
    #[param(inline)]
    pub language: Option<Language>,
    /// The steps chosen so far, in words (as a plan's `text`): the choices after them. None: the
    /// turn's first step. At most 500 characters.
    pub after: Option<String>,
}

/// The choices of your next turn as it would begin if the others changed nothing, in words and
/// as decisions, after the steps in `after`: what a plan can hold, one step after another.
/// Empty once those steps end the turn or draw from the deck (nobody knows that card yet).
/// `version` is the one to make the plan on.
#[utoipa::path(operation_id = "getPlanChoices", tag = "play", security(("bearer" = [])), params(("id" = i64, Path), NextChoicesQuery), responses(
    (status = 200, body = TurnInWords),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
    (status = 409, description = "`not_started`, `plan_on_your_turn` (it is your turn: play it), `no_next_turn`", body = Problem),
    (status = 422, description = "`after` could not be read on your next turn: the words' codes as for a typed move (`words_unreadable`, `words_not_a_choice`, `words_ambiguous` with `choices`, `words_turn_over`), `invalid_body` (an invisible formatting character: zero-width, direction marks), `text_too_long`; `game_over`, `seat_retired`", body = Problem),
    (status = 400, description = "`invalid_query`: a parameter this operation does not take, a control character, or an unknown `language`", body = Problem),
))]
#[get("/games/{id}/plan/choices")]
pub async fn get_plan_choices(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    query: web::Query<NextChoicesQuery>,
) -> Result<web::Json<TurnInWords>, ApiError> {
    let id = id.into_inner();
    let NextChoicesQuery { language, after } = query.into_inner();
    Ok(web::Json(
        web::block(move || {
            plans::choices::next_choices(&state.db, &caller, id, language, after.as_deref())
        })
        .await??,
    ))
}

/// Your plan for your next turn in this game, if one is waiting, and what became of your
/// earlier ones (played, or dropped and why). Nobody else ever reads it.
#[utoipa::path(operation_id = "getPlan", tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = PlanState),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
))]
#[get("/games/{id}/plan")]
pub async fn get_plan(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<web::Json<PlanState>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || plans::get(&state.db, &caller, id)).await??,
    ))
}

/// Leave the steps of your next turn, replacing any plan waiting: when your turn begins the
/// server plays the first alternative whose conditions hold and whose every step is still
/// legal, at once, using none of your clock; if none can be played the plan is dropped and your
/// turn notice says why. Each alternative is rehearsed now on your next turn as it would begin
/// if the others changed nothing, and refused unless every step is legal there.
#[utoipa::path(operation_id = "putPlan", tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), request_body = PlanRequest, responses(
    (status = 200, body = PlanState),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
    (status = 409, description = "`stale_version` (with `current_version`: the game moved on, look again), `not_started`, `plan_on_your_turn` (it is your turn: play it), `no_next_turn` (Keltis Card's final phase has no play left for you)", body = Problem),
    (status = 422, description = "`plan_not_playable` (a step is not legal on your next turn as it would begin, or the turn is over before it: the message says which), `invalid_body` (no alternative or more than four; an alternative with both or neither of `steps` and `text`; a text with a control or invisible formatting character), `text_too_long`, the words' codes as for a typed move (`words_unreadable`, `words_not_a_choice`, `words_ambiguous` with `choices`, `words_turn_over`), `unknown_space`, `game_over`, `seat_retired`", body = Problem),
))]
#[put("/games/{id}/plan")]
pub async fn put_plan(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    body: JsonObject<PlanRequest>,
) -> Result<web::Json<PlanState>, ApiError> {
    let id = id.into_inner();
    Ok(web::Json(
        web::block(move || plans::put(&state.db, &caller, id, &body)).await??,
    ))
}

/// Drop your waiting plan (there being none is no error).
#[utoipa::path(operation_id = "deletePlan", tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204, description = "No plan waits"),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`: no such game", body = Problem),
))]
#[delete("/games/{id}/plan")]
pub async fn delete_plan(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    web::block(move || plans::delete(&state.db, &caller, id)).await??;
    Ok(HttpResponse::NoContent().finish())
}
