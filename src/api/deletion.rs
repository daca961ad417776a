//! `/api/v1/me/delete`: deleting the caller's account.

use super::json_body::JsonObject;
use actix_web::{post, web, HttpRequest, HttpResponse};

use super::accounts::{limit, PasswordConfirmation};
use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::accounts::deletion;

/// Delete the caller's account, for good (from a signed-in session, with the password, and a code
/// when two-factor sign-in is on). Open games are left and games in progress resigned (with 3 or
/// 4 players a bot takes the seat); the address, settings, sessions, tokens, webhooks, push
/// devices, notifications, vacations and ratings are erased; finished games keep their records
/// and results under a placeholder name (`deleted-` and ten hex digits), and the former name
/// cannot be registered for 30 days. A goodbye goes to the confirmed address.
#[utoipa::path(operation_id = "deleteAccount", tag = "accounts", security(("bearer" = [])), request_body = PasswordConfirmation, responses(
    (status = 204, description = "Deleted: every session and token of the account stops working"),
    (status = 403, description = "`wrong_password`; `code_required` (two-factor sign-in is on); `insufficient_scope` with an API token", body = Problem),
    (status = 409, description = "`busy`: the games kept changing while they were left; try again", body = Problem),
    (status = 422, description = "`invalid_code`", body = Problem),
    (status = 429, description = "`rate_limited`", body = Problem),
))]
#[post("/me/delete")]
pub async fn delete_account(
    state: web::Data<AppState>,
    req: HttpRequest,
    Authenticated(caller): Authenticated,
    body: JsonObject<PasswordConfirmation>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &req, "password")?;
    web::block(move || {
        deletion::delete(
            &state.db,
            &state.keys,
            &caller,
            &body.password,
            body.code.as_deref(),
            &state.ratings,
        )
    })
    .await??;
    Ok(HttpResponse::NoContent().finish())
}
