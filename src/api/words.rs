//! `/api/v1/games/{id}/choices` and `/typed-moves`: moves in words, for chat bots, voice
//! assistants, screen readers and the web client's command line.

use actix_web::{get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::json_body::JsonObject;
use super::AppState;
use crate::service::i18n::Language;
use crate::service::words::moves::{self, TurnInWords, TypedAnswer, TypedMove};

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WordsQuery {
    /// `en`, `fr` or `de` (default: the account's language).
    #[param(inline)]
    pub language: Option<Language>,
}

/// Your choices now, in words, numbered: typing the number or the words (in any of the three
/// languages) plays that choice. Empty when it is not your turn.
#[utoipa::path(operation_id = "getChoicesInWords", tag = "play", security(("bearer" = [])), params(("id" = i64, Path), WordsQuery), responses(
    (status = 200, body = TurnInWords),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`", body = Problem),
    (status = 409, description = "`not_started`", body = Problem),
))]
#[get("/games/{id}/choices")]
pub async fn choices(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    query: web::Query<WordsQuery>,
) -> Result<web::Json<TurnInWords>, ApiError> {
    let id = id.into_inner();
    let language = query.into_inner().language;
    Ok(web::Json(
        web::block(move || moves::choices(&state.db, &caller, id, language)).await??,
    ))
}

/// Play a move typed as words: one step or several ("3 then deck"). Every step is read first;
/// only when each names exactly one choice are they played, in order. Otherwise nothing is
/// played and the answer says why, with the choices in words.
#[utoipa::path(operation_id = "postTypedMove", tag = "play", security(("bearer" = [])), params(("id" = i64, Path)), request_body = TypedMove, responses(
    (status = 200, body = TypedAnswer),
    (status = 403, description = "`not_seated`", body = Problem),
    (status = 404, description = "`not_found`", body = Problem),
    (status = 409, description = "`stale_version` (with `current_version`), `not_started`; `deadline_passed`", body = Problem),
    (status = 422, description = "nothing played, with `choices` in words: `words_unreadable` (no move could be read), `words_not_a_choice` (the words name none of your choices), `words_ambiguous` (they fit several: `choices` are those), `words_turn_over` (more steps than the turn has); `invalid_body` (the text holds a control character, a line end or a tab included, or an invisible formatting character: zero-width, direction marks); `text_too_long`; out of turn or after the end the rules' codes as for a decision (`not_your_turn`, `game_over`)", body = Problem),
))]
#[post("/games/{id}/typed-moves")]
pub async fn play(
    state: web::Data<AppState>,
    Authenticated(caller): Authenticated,
    id: web::Path<i64>,
    body: JsonObject<TypedMove>,
) -> Result<web::Json<TypedAnswer>, ApiError> {
    let id = id.into_inner();
    let metrics = state.metrics.clone();
    let answer =
        web::block(move || moves::play(&state.db, &caller, id, &body, &state.ratings)).await??;
    for _ in &answer.decisions {
        metrics.decisions.inc();
    }
    Ok(web::Json(answer))
}
