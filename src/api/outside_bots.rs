//! `/api/v1/me/bot`: marking the caller's account as an outside bot.

use super::json_body::JsonObject;
use actix_web::{post, web, HttpRequest, HttpResponse};

use super::accounts::{limit, PasswordConfirmation};
use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::accounts::outside_bots;

/// Mark the caller's account as a bot that its owner runs outside the server, for good (from a
/// signed-in session, with the password, and a code when two-factor sign-in is on). Only an
/// account that never sat at a game may: from then on it is shown as a bot in seats, profiles,
/// leaderboards and `GET /bots`, accepts invitations at once, and is rated with its bot mark. It
/// still signs in and holds tokens (an app's, through OAuth, or personal ones); its stream
/// (`GET /me/stream`) tells it when it is to act; the server never plays its seats. Marking a
/// bot again changes nothing.
#[utoipa::path(operation_id = "markAccountAsBot", tag = "accounts", security(("bearer" = [])), request_body = PasswordConfirmation, responses(
    (status = 204, description = "The account is a bot"),
    (status = 403, description = "`wrong_password`; `code_required` (two-factor sign-in is on); `insufficient_scope` with an API token", body = Problem),
    (status = 409, description = "`has_played`: the account has sat at a game", body = Problem),
    (status = 422, description = "`invalid_code`", body = Problem),
    (status = 429, description = "`rate_limited`", body = Problem),
))]
#[post("/me/bot")]
pub async fn mark_as_bot(
    state: web::Data<AppState>,
    req: HttpRequest,
    Authenticated(caller): Authenticated,
    body: JsonObject<PasswordConfirmation>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &req, "password")?;
    web::block(move || {
        outside_bots::mark(
            &state.db,
            &state.keys,
            &caller,
            &body.password,
            body.code.as_deref(),
        )
    })
    .await??;
    Ok(HttpResponse::NoContent().finish())
}
