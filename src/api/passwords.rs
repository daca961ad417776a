//! `/api/v1/me/password` (change it) and `/api/v1/auth/password-reset*` (a forgotten one).

use super::json_body::JsonObject;
use actix_web::{post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::accounts::limit;
use super::auth::Authenticated;
use super::error::{ApiError, Problem};
use super::AppState;
use crate::service::accounts::passwords;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"current_password": "correct horse battery", "new_password": "a longer one this time", "revoke_tokens": false}))]
pub struct PasswordChange {
    #[schema(max_length = 128)]
    pub current_password: String,
    /// 8 to 128 characters, no control characters.
    #[schema(
        min_length = 8,
        max_length = 128,
        pattern = r"^[^\x00-\x1F\x7F-\x9F]+$"
    )]
    pub new_password: String,
    /// Revoke the personal API tokens too (default: they keep working).
    #[serde(default)]
    pub revoke_tokens: bool,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"user": "anna"}))]
pub struct ResetRequest {
    /// The user name, or the account's confirmed email address (not only spaces).
    #[schema(
        min_length = 1,
        max_length = 254,
        pattern = r"^[^\x00-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x1F\x7F-\x9F]*$"
    )]
    pub user: String,
}

/// The answer to every request for a reset link, whoever it names.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct ResetAsked {
    pub message: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"token": "12-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "new_password": "a longer one this time"}))]
pub struct ResetConfirm {
    /// The `token` of the link in the email.
    #[schema(max_length = 128)]
    pub token: String,
    /// 8 to 128 characters, no control characters.
    #[schema(
        min_length = 8,
        max_length = 128,
        pattern = r"^[^\x00-\x1F\x7F-\x9F]+$"
    )]
    pub new_password: String,
}

/// Change the caller's password (from a signed-in session; the current password is required).
/// Every other session is signed out; personal API tokens stay unless `revoke_tokens`. The
/// confirmed address is told.
#[utoipa::path(operation_id = "changePassword", tag = "accounts", security(("bearer" = [])), request_body = PasswordChange, responses(
    (status = 204, description = "Changed"),
    (status = 403, description = "`wrong_password`; `insufficient_scope` with an API token", body = Problem),
    (status = 422, description = "`invalid_password`", body = Problem),
    (status = 429, description = "`rate_limited`", body = Problem),
))]
#[post("/me/password")]
pub async fn change_password(
    state: web::Data<AppState>,
    req: HttpRequest,
    Authenticated(caller): Authenticated,
    body: JsonObject<PasswordChange>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &req, "password")?;
    web::block(move || {
        passwords::change(
            &state.db,
            &caller,
            &body.current_password,
            &body.new_password,
            body.revoke_tokens,
        )
    })
    .await??;
    Ok(HttpResponse::NoContent().finish())
}

/// Ask for a link to choose a new password, by user name or confirmed address. The answer is the
/// same whether or not such an account exists, and comes before the account is looked up; the
/// link goes to the confirmed address only, at most 3 an hour per account, and works once within
/// an hour.
#[utoipa::path(operation_id = "requestPasswordReset", tag = "accounts", request_body = ResetRequest, responses(
    (status = 202, body = ResetAsked),
    (status = 422, description = "`invalid_user`", body = Problem),
    (status = 429, description = "`rate_limited`", body = Problem),
))]
#[post("/auth/password-reset")]
pub async fn request_reset(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: JsonObject<ResetRequest>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &req, "password-reset")?;
    passwords::check_reset_request(&body.user)?;
    // Answered before the name is looked up: a known name or address takes a few writes that an
    // unknown one does not, and the answer's time must not tell which.
    let (db, keys, user) = (state.db.clone(), state.keys.clone(), body.into_inner().user);
    let handled = state.metrics.reset_requests_handled.clone();
    actix_web::rt::spawn(async move {
        match web::block(move || passwords::request_reset(&db, &keys, &user)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!(error = %e.for_log(), "a password reset request failed"),
            Err(e) => tracing::warn!(error = %e, "a password reset request failed"),
        }
        // Counted once done: what an operator watches, and how a test knows the work is over.
        handled.inc();
    });
    Ok(HttpResponse::Accepted().json(ResetAsked {
        message: passwords::RESET_ASKED.into(),
    }))
}

/// Choose a new password with the link's token. Every session is signed out (personal API tokens
/// stay); the confirmed address is told.
#[utoipa::path(operation_id = "resetPassword", tag = "accounts", request_body = ResetConfirm, responses(
    (status = 204, description = "The new password is set"),
    (status = 422, description = "`invalid_link` (unknown, used or expired), `invalid_password`", body = Problem),
    (status = 429, description = "`rate_limited`", body = Problem),
))]
#[post("/auth/password-reset/confirm")]
pub async fn reset_password(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: JsonObject<ResetConfirm>,
) -> Result<HttpResponse, ApiError> {
    limit(&state, &req, "password-reset")?;
    web::block(move || passwords::reset(&state.db, &state.keys, &body.token, &body.new_password))
        .await??;
    Ok(HttpResponse::NoContent().finish())
}
